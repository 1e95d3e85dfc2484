"""`git memory` run from inside the repository's own `.git` (cwd `.git`, or a folder of it such
as `.git/hooks`, where a git hook or a person may start it) acts on the same repository and
the same work tree as from the work tree: the same counts, the same block, the same writes.
It was taken for a bare repository there: status counted no staged item and no Claude Code
hook, show listed nothing waiting."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json
from test_adopt import init_project

CLAIM = "Use tabs for indentation in the Makefile."


@pytest.fixture
def project(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    init_project(repo, monkeypatch)
    gm(repo, "remember", CLAIM)
    return repo


def test_status_show_and_context_from_the_git_dir_match_the_work_tree(project: Path) -> None:
    inside = [project / ".git", project / ".git" / "refs" / "heads", project / ".git" / "hooks"]
    status = gm_json(project, "status")
    assert [s["atom"] for s in status["staged"]] and status["claude_hooks"]
    for where in inside:
        assert gm_json(where, "status") == status, where
    for verb in (["show"], ["context"], ["inspect", "--tier", "L1"], ["validate"]):
        expected = gm(project, *verb)
        for where in inside:
            got = gm(where, *verb, check=False)
            assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr), (verb, where)


def test_adopt_from_the_git_dir_commits_to_the_work_tree(project: Path) -> None:
    gm(project / ".git", "adopt", "--all")
    assert CLAIM.rstrip(".") in (project / "CLAUDE.memory.md").read_text()
    assert git(project, "log", "-1", "--format=%s").startswith("memory: adopt")
    assert git(project, "status", "--porcelain") == ""
    assert gm_json(project / ".git", "status")["staged"] == []


def test_a_linked_work_tree_s_folder_in_git_is_that_work_tree(project: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(project, "worktree", "add", "-q", str(linked))
    admin = project / ".git" / "worktrees" / "linked"
    assert admin.is_dir()
    gm(project, "adopt", "--all")  # on main: the linked work tree's branch holds no L2 item
    for verb in (["status"], ["show"]):
        expected = gm(linked, *verb, "--output", "json")
        got = gm(admin, *verb, "--output", "json")
        assert got.stdout == expected.stdout, verb
    assert gm_json(admin, "status")["L2"]["held"] == 0 and gm_json(project, "status")["L2"]["held"] == 1
