"""benchmarks/first_contact.py runs each TUNE person through the rules as they were just before
the person's labels were committed: the version a person met is found from git history, and
what the rules said then is scored as benchmarks/extraction.py scores it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from builders import benchmark, dated_commit
from conftest import git


def _module() -> Any:
    return benchmark("first_contact")




def test_each_person_meets_the_tree_as_it_stood_before_their_labels(repo: Path) -> None:
    people = "benchmarks/extra_corpus/people"
    base = git(repo, "rev-parse", "HEAD").strip()  # the fixture's first commit
    rules = dated_commit(repo, "2026-01-02", {"agent_memory/extract/rules.py": "v1"}, "rules v1")
    dated_commit(repo, "2026-01-04", {f"{people}/ann.json": "{}"}, "ann labelled")
    weights = dated_commit(repo, "2026-01-05",
                      {"agent_memory/resources/durability_weights.json": "{}"}, "gate retrained")  # fmt: skip
    dated_commit(repo, "2026-01-06", {f"{people}/bob.json": "{}"}, "bob labelled")
    git(repo, "rm", "-q", f"{people}/ann.json")
    dated_commit(repo, "2026-01-07", {}, "ann's labels removed")
    dated_commit(repo, "2026-01-08", {f"{people}/ann.json": "{\n}"}, "ann's labels back")
    versions = _module().first_versions(repo)
    # ann keeps the tree before her labels first landed, not the one before they came back
    assert versions == {"ann": (rules, "2026-01-02"), "bob": (weights, "2026-01-05")}
    assert base not in {v for v, _ in versions.values()}


def test_a_labels_file_of_the_root_commit_has_no_version(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    dated_commit(root, "2026-01-01", {"benchmarks/extra_corpus/people/carl.json": "{}"}, "first")
    assert _module().first_versions(root) == {}


_OLD_STATEMENT = """
from dataclasses import dataclass

@dataclass
class Claim:
    claim: str
    kind: str
    rule: str

def extract_claims(text, origin="typed", rejected_command=None):
    return [Claim("Use " + text.split()[-1], "preference", "preference.use")]
"""


@pytest.mark.parametrize(
    ("durability_py", "kept", "by"),
    [
        (None, True, "no gate"),  # before the gate existed
        ("def durable(text, claim, rule):\n    return 'pnpm' in text\n", True, "gate"),
        ("def durable(text, claim, rule):\n    return False\n"
         "def candidate_features(text, claim, rule):\n    return ['standing']\n"
         "def exempt(feats):\n    return 'standing' in feats\n", False, "exempt"),  # fmt: skip
    ],
)
def test_an_old_version_runs_with_the_gate_it_had(
    repo: Path, tmp_path: Path, durability_py: str | None, kept: bool, by: str
) -> None:
    files = {"agent_memory/__init__.py": "", "agent_memory/extract/__init__.py": "",
             "agent_memory/extract/statement.py": _OLD_STATEMENT}  # fmt: skip
    if durability_py is not None:
        files["agent_memory/extract/durability.py"] = durability_py
    commit = dated_commit(repo, "2026-01-02", files, "an old version")
    stmt = SimpleNamespace(text="we always use pnpm", origin="typed", rejected_command=None)
    work = tmp_path / "work"
    work.mkdir()
    got = _module().run_version(commit, [stmt], work, None, root=repo)
    assert got == [[["Use pnpm", "preference", "preference.use", kept, by, None]]]


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
        # an atom of its version that today's hold keeps pending (a task's artifact named)
        mod.Seen("cid", "2026-01-05", "Never paste full file contents in your response.", [], [
            ["Never paste full file contents in your response", "constraint",
             "directive.always_never", True, "exempt"]]),  # fmt: skip
    ]
    mod.report(seen, show=False)
    out = capsys.readouterr().out
    assert "3 TUNE people, 4 statements, 2 durable" in out
    assert "found 1/2 (R 0.500)" in out
    pooled = out.split("pooled:")[1].splitlines()[1]
    assert pooled.split() == ["all", "hit", "1", "fp", "2", "neutral", "0", "P", "0.33"]
    bar = out.split("at the keep bar 0.80:")[1].split("kept by:")[0]
    held = bar.split("pending (held for a second mention)")[1].split()
    assert held[:4] == ["hit", "0", "fp", "1"]
    dropped = out.split("dropped by the gate:")[1].splitlines()[1]
    assert dropped.split()[:5] == ["all", "hit", "1", "fp", "0"]
