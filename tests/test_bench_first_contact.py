"""benchmarks/first_contact.py runs each TUNE person through the rules as they were just before
the person's labels were committed: the version a person met is found from git history, and
what the rules said then is scored as benchmarks/extraction.py scores it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from builders import benchmark
from conftest import git


def _module() -> Any:
    return benchmark("first_contact")


def _commit(repo: Path, day: str, files: dict[str, str], message: str) -> str:
    for rel, text in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        git(repo, "add", rel)
    os.environ["GIT_AUTHOR_DATE"] = os.environ["GIT_COMMITTER_DATE"] = f"{day}T12:00:00+00:00"
    try:
        git(repo, "commit", "-q", "-m", message)
    finally:
        del os.environ["GIT_AUTHOR_DATE"], os.environ["GIT_COMMITTER_DATE"]
    return git(repo, "rev-parse", "HEAD").strip()


def test_each_person_meets_the_last_rules_before_their_labels(repo: Path) -> None:
    people = "benchmarks/extra_corpus/people"
    _commit(repo, "2026-01-01", {f"{people}/carl.json": "{}"}, "carl before any rules")
    first = _commit(repo, "2026-01-02", {"agent_memory/extract/rules.py": "v1"}, "rules v1")
    _commit(repo, "2026-01-03", {"README.md": "docs only"}, "not a rules change")
    _commit(repo, "2026-01-04", {f"{people}/ann.json": "{}"}, "ann labelled")
    second = _commit(repo, "2026-01-05",
                     {"agent_memory/resources/durability_weights.json": "{}"}, "gate retrained")  # fmt: skip
    _commit(repo, "2026-01-06", {f"{people}/bob.json": "{}", f"{people}/ann.json": "{\n}"},
            "bob labelled, ann's labels edited")  # fmt: skip
    versions = _module().first_versions(repo)
    # ann keeps the version before her labels first landed, not the one before their edit
    assert versions == {"ann": (first, "2026-01-02"), "bob": (second, "2026-01-05")}


@pytest.mark.parametrize(
    ("claim", "kind", "expected"),
    [
        ("Use pnpm, not npm", "preference", "hit"),
        ("Use pnpm, not npm", "fact", "fp"),  # the right words as another kind
        ("Deploy on Fridays", "decision", "neutral"),  # only an optional entry's words
        ("Keep answers short", "preference", "fp"),
    ],
)
def test_candidates_are_scored_as_the_benchmark_scores_them(
    claim: str, kind: str, expected: str
) -> None:
    entries = [
        {"kind": ["preference"], "all_of": [["pnpm"], ["npm"]]},
        {"kind": ["decision"], "all_of": [["fridays"]], "optional": True},
    ]
    out, hits = _module().outcome(claim, kind, entries)
    assert out == expected
    assert hits == ({0} if expected == "hit" else set())


def test_the_report_counts_what_the_gate_kept_and_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    mod = _module()
    entries = [{"kind": ["preference"], "all_of": [["pnpm"]]}]
    seen = [
        mod.Seen("ann", "2026-01-02", "always use pnpm", entries, [
            ["Always use pnpm", "preference", "directive.always_never", True, "exempt"],
            ["Use pnpm", "preference", "preference.use", False, "score"]]),  # fmt: skip
        mod.Seen("bob", "2026-01-05", "fix the header", [], [
            ["Fix the header", "constraint", "directive.negative", True, "score"]]),  # fmt: skip
        mod.Seen("bob", "2026-01-05", "we use yarn", [{"kind": ["fact"], "all_of": [["yarn"]]}], []),
    ]
    mod.report(seen, show=False)
    out = capsys.readouterr().out
    assert "2 TUNE people, 3 statements, 2 durable" in out
    assert "found 1/2 (R 0.500)" in out
    pooled = out.split("pooled:")[1].splitlines()[1]
    assert pooled.split() == ["all", "hit", "1", "fp", "1", "neutral", "0", "P", "0.50"]
    dropped = out.split("dropped by the gate:")[1].splitlines()[1]
    assert dropped.split()[:5] == ["all", "hit", "1", "fp", "0"]
