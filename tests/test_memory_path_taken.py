"""A `.memory` that is not agent-memory's folder — another tool's file, a link — on the branch
memory is staged on, or in the work tree. `init` refuses it; the staging verbs (capture's
auto-stage, stage, remember) say what is wrong and what to do instead of an internal error;
nothing captured is lost, and staging works once the path is moved."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json, write_session

from agent_memory.gitio import repo as gitrepo
from agent_memory.model.errors import RepoStateError

FOREIGN = "some other tool's notes\n"


def _commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def _one_refusal(proc: subprocess.CompletedProcess[str], code: int = 3) -> tuple[str, str]:
    assert proc.returncode == code, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint:"), lines
    assert "internal error" not in proc.stderr
    return lines[0], lines[1]


def test_init_refuses_a_memory_file_in_the_work_tree(repo: Path) -> None:
    (repo / ".memory").write_text(FOREIGN)
    _commit(repo, "project with a .memory file")
    message, hint = _one_refusal(gm(repo, "init", "--yes", check=False))
    assert ".memory is not a folder" in message and ".memory/adopted.log" in message
    assert "git mv .memory" in hint and "nothing was written" in hint
    assert (repo / ".memory").read_text() == FOREIGN
    assert git(repo, "branch", "--list", "memory/atoms") == ""
    assert git(repo, "status", "--porcelain") == ""


def test_init_refuses_a_memory_link(repo: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (repo / ".memory").symlink_to(elsewhere)
    _commit(repo, "a linked .memory")
    message, _ = _one_refusal(gm(repo, "init", check=False))
    assert ".memory is a symbolic link" in message
    assert list(elsewhere.iterdir()) == []


def test_init_refuses_a_memory_file_on_the_base_branch_only(repo: Path) -> None:
    (repo / ".memory").write_text(FOREIGN)
    _commit(repo, "project with a .memory file")
    git(repo, "checkout", "-q", "-b", "feature")
    git(repo, "rm", "-q", ".memory")
    git(repo, "commit", "-q", "-m", "not here")
    message, hint = _one_refusal(gm(repo, "init", check=False))
    assert ".memory on main is a file, not a folder" in message
    assert "on main" in hint
    assert git(repo, "branch", "--list", "memory/atoms") == ""


@pytest.fixture
def taken(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Set up first; then main gains a `.memory` file (another tool, a merge), and two
    sessions say one thing that is then eligible."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-06T12:00:00Z")
    gm(repo, "init", "--yes", "--no-claude-hooks")
    (repo / ".memory").write_text(FOREIGN)
    git(repo, "add", "-f", ".memory")
    git(repo, "commit", "-q", "-m", "another tool's .memory")
    for n, day in ((1, "2026-11-01"), (2, "2026-11-02")):
        write_session(repo, f"ffffffff-0000-4000-8000-00000000000{n}", day, [{"user": "Use pnpm, not npm."}])
    return repo


def test_staging_verbs_say_what_is_wrong_and_keep_what_was_captured(taken: Path) -> None:
    capture = gm(taken, "capture", "--all")
    assert capture.returncode == 0  # the capture is committed; only the staging is refused
    assert "not staged: cannot stage memory on main: .memory there is a file, not a folder" in capture.stdout
    message, hint = _one_refusal(gm(taken, "stage", check=False))
    assert message.endswith("cannot stage memory on main: .memory there is a file, not a folder "
                            "(agent-memory writes .memory/adopted.log and CLAUDE.memory.md)")  # fmt: skip
    assert "git mv .memory" in hint and "memory/atoms" in hint
    message, _ = _one_refusal(gm(taken, "remember", "Use tabs in Makefiles", check=False))
    assert "cannot stage memory on main" in message
    assert git(taken, "branch", "--list", "memory/review") == ""
    claims = {a["claim"] for a in gm_json(taken, "inspect", "--tier", "L1")["atoms"]}
    assert {"Use pnpm, not npm", "Use tabs in Makefiles"} <= claims  # nothing stored is lost
    # The dry run of the gates writes nothing there, so it still answers.
    assert gm_json(taken, "promote")["eligible"]
    assert (taken / ".memory").read_text() == FOREIGN

    git(taken, "mv", ".memory", "other-tool-notes")
    git(taken, "commit", "-q", "-m", "make room for agent-memory")
    staged = gm_json(taken, "stage")["commits"]
    assert len(staged) == 2


def test_build_tree_on_a_file_where_a_folder_goes_is_a_repository_state_error(taken: Path) -> None:
    repo = gitrepo.find_repo(taken)
    tree = gitrepo.commit_tree(repo, git(taken, "rev-parse", "main").strip())
    with pytest.raises(RepoStateError, match=r"\.memory is not a folder"):
        gitrepo.build_tree(repo, tree, {".memory/adopted.log": b"{}\n"})
