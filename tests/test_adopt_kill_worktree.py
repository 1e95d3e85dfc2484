"""A `git memory adopt` killed (SIGKILL) in a linked work tree (`git worktree add`) between
writing an item and committing it, while the main work tree uses agent-memory too. The
half-done item is that work tree's: its record lives in the work tree's own git dir, so an
adopt in the main tree neither touches the other tree's files nor refuses on their account;
an adopt in the linked tree finishes or rolls it back exactly; validate in each tree speaks
of its own files only."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json
from test_adopt import log_lines, stage_claims
from test_adopt_kill import _commit_lines, _killed_adopt, _shim

MEMORY = ("CLAUDE.md", "CLAUDE.memory.md", ".memory")


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


def _status(tree: Path) -> str:
    return git(tree, "status", "--porcelain", "--", *MEMORY)


@pytest.mark.parametrize("when", ["before", "after", "git", "orphan"])
def test_a_kill_in_a_linked_worktree_is_recovered_there_and_only_there(project: Path, tmp_path: Path,
                                                                        when: str) -> None:  # fmt: skip
    ids = stage_claims(project)
    base = git(project, "rev-parse", "HEAD").strip()
    linked = tmp_path / "linked"
    git(project, "worktree", "add", "-q", "-b", "side", str(linked), base)
    _killed_adopt(linked, _shim(tmp_path), tmp_path / "kill", when, 2)
    written = when in ("before", "git")  # the item's files are written, its commit never landed
    half = _status(linked)
    linked_files = {rel: (linked / rel).read_bytes() for rel in ("CLAUDE.memory.md", ".memory/adopted.log")
                    if (linked / rel).exists()}  # fmt: skip
    linked_head = git(linked, "rev-parse", "HEAD").strip()

    # validate: each tree says what is true of its own files
    main_check = gm(project, "validate", check=False)
    assert main_check.returncode == 0, main_check.stdout + main_check.stderr
    linked_check = gm(linked, "validate", check=False)
    assert linked_check.returncode == 1, linked_check.stdout + linked_check.stderr
    assert "was killed while committing atm_" in linked_check.stdout
    assert str(linked) in linked_check.stdout
    # status: the linked tree names its half-done item (its counts read the half-written files);
    # the main tree has none of its own
    linked_status = gm_json(linked, "status")["interrupted"]
    assert (linked_status or {}).get("atom") in ids.values(), linked_status
    assert "was killed while committing atm_" in gm(linked, "status").stdout
    assert gm_json(project, "status")["interrupted"] is None
    assert "killed" not in gm(project, "status").stdout

    # (a) an adopt in the main tree adopts there, and leaves the linked tree's half item alone
    main_run = gm(project, "adopt", "--all", check=False)
    assert main_run.returncode == 0, main_run.stdout + main_run.stderr
    assert "rolled back" not in main_run.stdout and "finished" not in main_run.stdout
    assert sorted(line["atom"]["id"] for line in log_lines(project)) == sorted(ids.values())
    assert _status(project) == ""
    assert {rel: (linked / rel).read_bytes() for rel in linked_files} == linked_files
    assert (_status(linked) == half or when == "orphan") and git(linked, "rev-parse", "HEAD").strip() == linked_head
    assert gm(linked, "validate", check=False).returncode == 1

    # (b) the linked tree's own adopt recovers its item exactly: every item once, no duplicate
    rerun = gm(linked, "adopt", "--all", check=False)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert ("rolled back atm_" if written else "finished atm_") in rerun.stdout
    lines = [line["atom"]["id"] for line in log_lines(linked)]
    assert sorted(lines) == sorted(ids.values()), lines
    commits = git(linked, "rev-list", "--reverse", f"{base}..HEAD").split()
    assert len(commits) == len(ids)
    assert all(len(_commit_lines(linked, oid)) == 1 for oid in commits)
    assert _status(linked) == "" and _status(project) == ""
    assert not [p for p in (project / ".git").rglob("*.lock") if "agent-memory" not in p.parts]  # git's own
    for tree in (project, linked):
        check = gm(tree, "validate", check=False)
        assert check.returncode == 0, f"{tree}: {check.stdout}{check.stderr}"


def test_status_on_an_unreadable_record_of_a_half_done_commit_gives_its_way_out(project: Path) -> None:
    """The record a killed command leaves, unreadable (a torn write): adopt cannot finish or
    roll it back (it refuses with the record's own hint), so status said the wrong way out
    ("`git memory adopt` here finishes or rolls it back"); it now gives the record's hint."""
    record = project / ".git" / "agent-memory" / "memory-commit.json"
    record.write_text("{torn")
    refused = gm(project, "adopt", "--all", check=False)
    assert refused.returncode == 3 and "is unreadable" in refused.stderr
    hint = refused.stderr.strip().splitlines()[-1]
    assert hint.startswith("hint: ") and "remove that file" in hint
    half = gm_json(project, "status")["interrupted"]
    assert half["atom"] is None and "is unreadable" in half["error"] and half["hint"] == hint.removeprefix("hint: ")
    text = gm(project, "status").stdout
    assert hint in text and "`git memory adopt` here finishes or rolls it back" not in text
