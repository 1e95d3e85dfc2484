"""Staging on memory/review: refusals that leave no half-written branch, the target setting,
the L2 cap, hand-edited review branches, detached HEAD, auto-stage after capture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import l1_atom
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, gm_json, write_session

from agent_memory.committed.adopted_log import LogEntry
from agent_memory.committed.files import TierFiles
from agent_memory.gitio import repo as gitb
from agent_memory.model.atom import to_committed
from agent_memory.store.capture import capture_atoms
from agent_memory.store.l1 import L1Store


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now="2026-11-06T12:00:00Z")


def _eligible(repo: Path, *claims: str) -> list[str]:
    """Put stated atoms seen in two sessions on two days straight into the store."""
    store = L1Store(gitb.find_repo(repo))
    atoms = [l1_atom(c, sessions=("s1", "s2"), days=("2026-11-01", "2026-11-02")) for c in claims]
    capture_atoms(store, atoms, None, None)
    return [a["id"] for a in atoms]


def test_stage_is_deterministic_and_a_hand_edited_review_branch_needs_force(project: Path) -> None:
    ids = _eligible(project, "Never push to main", "Use pnpm, not npm")
    first = gm_json(project, "stage")
    assert [c["atom"] for c in first["commits"]] and {c["atom"] for c in first["commits"]} == set(ids)
    git(project, "checkout", "-q", "memory/review")
    (project / "notes.txt").write_text("a person's change\n")
    git(project, "add", "notes.txt")
    git(project, "commit", "-qm", "hand edit")
    git(project, "checkout", "-q", "main")
    tip = git(project, "rev-parse", "memory/review")
    proc = gm(project, "stage", check=False)
    assert proc.returncode == 1 and "did not make" in proc.stderr and "--force" in proc.stderr
    assert git(project, "rev-parse", "memory/review") == tip
    forced = gm_json(project, "stage", "--force")
    assert [c["oid"] for c in forced["commits"]] == [c["oid"] for c in first["commits"]]


def test_stage_counts_its_commits_in_words_that_agree_with_the_number(project: Path) -> None:
    """`stage` said 'staged 1 commit(s) on memory/review'; the other verbs say `1 commit`."""
    ident = _eligible(project, "Never push to main")[0]
    first = gm(project, "stage").stdout.splitlines()
    assert first[0] == "staged 1 commit on memory/review (on top of main):", first
    assert first[1].endswith(f" {ident}"), first
    _eligible(project, "Use pnpm, not npm")
    assert gm(project, "stage").stdout.startswith("staged 2 commits on memory/review (on top of main):")


def test_a_hand_edited_block_on_main_is_refused_with_the_fix(project: Path) -> None:
    _eligible(project, "Never push to main")
    gm(project, "stage")
    gm(project, "adopt", "--all")
    _eligible(project, "Use pnpm, not npm")
    text = (project / "CLAUDE.memory.md").read_text().replace("Never push to main", "Never push to main!!")
    (project / "CLAUDE.memory.md").write_text(text)
    git(project, "commit", "-qam", "tweak the block by hand")
    before = git(project, "for-each-ref", "refs/heads/memory/review")
    proc = gm(project, "stage", check=False)
    assert proc.returncode == 1 and "edited by hand" in proc.stderr and "validate --fix" in proc.stderr
    assert git(project, "for-each-ref", "refs/heads/memory/review") == before


def test_no_default_branch_is_a_clear_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-06T12:00:00Z")
    empty = tmp_path / "empty"
    git(tmp_path, "init", "-q", str(empty))
    gm(empty, "init", "--no-claude-hooks")
    _eligible(empty, "Never push to main")
    proc = gm(empty, "stage", check=False)
    assert proc.returncode == 3 and "no default branch" in proc.stderr and "hint:" in proc.stderr
    assert git(empty, "branch", "--list", "memory/review") == ""


def test_detached_head_still_stages_on_the_default_branch(project: Path) -> None:
    _eligible(project, "Never push to main")
    git(project, "checkout", "-q", "--detach")
    out = gm_json(project, "stage")
    assert out["base"] == "main" and len(out["commits"]) == 1


def test_memory_target_claude_md_puts_the_block_in_claude_md(project: Path) -> None:
    git(project, "config", "memory.target", "claude-md")
    _eligible(project, "Never push to main")
    (oid,) = [c["oid"] for c in gm_json(project, "stage")["commits"]]
    changed = git(project, "diff-tree", "--no-commit-id", "--name-only", "-r", oid).split()
    assert sorted(changed) == [".memory/adopted.log", "CLAUDE.md"]
    claude_md = git(project, "show", f"{oid}:CLAUDE.md")
    assert "@CLAUDE.memory.md" in claude_md and "- Never push to main" in claude_md


def test_the_l2_cap_demotes_the_oldest_by_a_staged_commit(project: Path) -> None:
    held = [to_committed(l1_atom(f"Rule number {i} for the service", sessions=("s1", "s2"),
                                 days=(f"2026-0{1 + i % 9}-01", f"2026-0{1 + i % 9}-02")), "L2", f"2026-10-{1 + i % 28:02d}T00:00:00Z")
            for i in range(60)]
    files = TierFiles("L2", "CLAUDE.memory.md", "", "").append([LogEntry(op="adopt", atom=a, at=a["promoted_at"]) for a in held])
    for rel, text in files.paths().items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    git(project, "add", "CLAUDE.memory.md", ".memory/adopted.log", "-f")
    git(project, "commit", "-qm", "sixty adopted atoms")
    _eligible(project, "Never push to main")
    out = gm_json(project, "stage")
    assert out["demoted"] and len(out["demoted"]) == 1
    oldest = min(held, key=lambda a: (a["last_seen"], a["id"]))
    assert out["demoted"] == [oldest["id"]]
    tip = git(project, "rev-parse", "memory/review").strip()
    log = [json.loads(line) for line in git(project, "show", f"{tip}:.memory/adopted.log").splitlines()]
    assert log[-1]["op"] == "demote" and log[-1]["atom"]["id"] == oldest["id"]
    assert "Promotion: L2->L1" in git(project, "log", "-1", "--format=%B", tip)


def test_capture_auto_stages_unless_turned_off(project: Path) -> None:
    for n, day in enumerate(["2026-11-01", "2026-11-02"], 1):
        write_session(project, f"99999999-0000-4000-8000-00000000000{n}", day,
                      [{"user": "Always run the linter before committing."}])
    git(project, "config", "memory.autoStage", "false")
    gm(project, "capture", "--all")
    assert git(project, "branch", "--list", "memory/review") == ""
    git(project, "config", "memory.autoStage", "true")
    write_session(project, "99999999-0000-4000-8000-000000000003", "2026-11-03",
                  [{"user": "Always run the linter before committing."}])
    gm(project, "capture", "--all")
    assert git(project, "branch", "--list", "memory/review").strip()
