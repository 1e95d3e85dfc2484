"""benchmarks/train_durability.py's stranger pool: the rule output no one had yet fitted to a
TUNE person (the versions reachable from the tree the person first met), found from git
history, one candidate per claim."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from builders import benchmark, dated_commit


def _module() -> Any:
    return benchmark("train_durability")




PEOPLE = "benchmarks/extra_corpus/people"
RULES = "agent_memory/extract/rules.py"


def test_a_person_is_a_stranger_to_the_rule_versions_before_their_labels(repo: Path) -> None:
    dated_commit(repo, "2026-01-01", {f"{PEOPLE}/early.json": "{}"}, "early: no rules yet")
    v1 = dated_commit(repo, "2026-01-02", {RULES: "v1"}, "rules v1")
    dated_commit(repo, "2026-01-03", {f"{PEOPLE}/ann.json": "{}"}, "ann labelled")
    v2 = dated_commit(repo, "2026-01-04", {RULES: "v2"}, "rules v2, fitted to ann")
    dated_commit(repo, "2026-01-05", {f"{PEOPLE}/bob.json": "{}"}, "bob labelled")
    v3 = dated_commit(repo, "2026-01-06", {RULES: "v3"}, "rules v3, fitted to bob")
    versions = _module().unfitted_versions([v3, v2, v1], repo)
    assert {g: {c[:7] for c in cs} for g, cs in versions.items()} == {
        "extra:ann": {v1[:7]},
        "extra:bob": {v1[:7], v2[:7]},
    }  # early met no rules at all: nothing was a stranger's output


def test_the_pool_keeps_a_strangers_candidates_once_per_claim() -> None:
    td = _module()

    def cand(rule: str, claim: str, outcome: str) -> Any:
        return td.Cand([f"family={rule.split('.')[0]}"], outcome, frozenset(), f"<{rule}> {claim}")

    old = cand("fact", "The API is at api.example.com", "hit")
    renamed = cand("fact.location", "The API is at api.example.com", "hit")
    fitted = cand("directive.negative", "Never touch the parser", "fp")
    lines = [
        td.Line("extra:ann", 1, [old, renamed, fitted]),
        td.Line("extra:zed", 1, [cand("fact.location", "Zed is fitted", "hit")]),
    ]
    made_by = {id(old): {"v1"}, id(renamed): {"v1", "v2"}, id(fitted): {"v2"}}
    pool = td.unfitted_pool(lines, made_by, {"extra:ann": {"v1"}})
    assert [ln.group for ln in pool] == ["extra:ann"]  # zed has no stranger version
    assert pool[0].cands == [old]  # one per claim; v2's own candidate is fitted to ann
    assert pool[0].required == 1


def test_a_candidate_carries_todays_hold_for_a_second_mention() -> None:
    td = _module()
    stmt = td.Stmt("extra:ann", [], "Never paste full file contents in your response.", "typed", None)
    held = td._cand(stmt, "Never paste full file contents in your response", "constraint",
                    "directive.always_never")  # fmt: skip
    assert held.held and held.outcome == "fp"
    stmt = td.Stmt("extra:ann", [], "Never use emojis in your responses.", "typed", None)
    kept = td._cand(stmt, "Never use emojis in your responses", "constraint",
                    "directive.always_never")  # fmt: skip
    assert not kept.held
