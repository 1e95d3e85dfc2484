"""Memory commits land on the checked-out branch. During a rebase (or a merge, cherry-pick,
revert, bisect) or on a detached HEAD, adopt — interactive and batch — and the lifecycle verbs
that commit (pin, forget, forget --undo) refuse with exit 3, one line naming the state and a
`hint:` saying how to leave it, before anything is written: HEAD, the memory files and
memory/review are as they were."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import git, staged_copy
from golden import Golden
from sessions import gm
from test_adopt import Staged, finish, held, spawn_adopt, waiting

CLAIMS = {"a": "Never push directly to main; always open a pull request.",
          "b": "Always run the tests with pytest -x before committing."}  # fmt: skip


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


@pytest.fixture
def staged(staged_golden: Golden[dict[str, str]], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Staged:
    """conftest.staged with this module's CLAIMS: built once per module, copied for each test."""
    return staged_copy(staged_golden, isolated_env, monkeypatch, CLAIMS)


def _stop_in_rebase(project: Path) -> None:
    (project / "notes.txt").write_text("one\n")
    git(project, "add", "notes.txt")
    git(project, "commit", "-qm", "notes")
    env = {**os.environ, "GIT_SEQUENCE_EDITOR": "sed -i s/^pick/edit/"}
    import subprocess

    subprocess.run(["git", "rebase", "-q", "-i", "HEAD~1"], cwd=project, env=env, check=True,
                   capture_output=True)  # fmt: skip
    assert (project / ".git" / "rebase-merge").is_dir()


def _state(project: Path) -> tuple[str, str, str]:
    return (git(project, "rev-parse", "HEAD"), git(project, "status", "--porcelain"),
            git(project, "rev-parse", "memory/review"))  # fmt: skip


def _refused(proc_out: str, proc_err: str, code: int, state: str, leave: str) -> None:
    assert code == 3, proc_out + proc_err
    lines = proc_err.strip().splitlines()
    assert len(lines) == 2 and state in lines[0] and lines[1].startswith("hint:") and leave in lines[1], proc_err


@pytest.mark.parametrize("how", ["rebase", "detached", "merge"])
def test_adopt_all_refuses_off_a_branch(staged: Staged, how: str) -> None:
    project, ids = staged
    if how == "rebase":
        _stop_in_rebase(project)
        state, leave = "a rebase is in progress", "git rebase --abort"
    elif how == "detached":
        git(project, "checkout", "-q", "--detach")
        state, leave = "HEAD is detached", "git switch"
    else:
        git(project, "checkout", "-q", "-b", "side")
        (project / "side.txt").write_text("side\n")
        git(project, "add", "side.txt")
        git(project, "commit", "-qm", "side")
        git(project, "checkout", "-q", "main")
        git(project, "merge", "-q", "--no-ff", "--no-commit", "side")
        state, leave = "a merge is in progress", "git merge --abort"
    before = _state(project)
    for args in (["--all"], ["--yes", ids["a"]]):
        proc = gm(project, "adopt", *args, check=False)
        _refused(proc.stdout, proc.stderr, proc.returncode, state, leave)
        assert _state(project) == before
    assert sorted(waiting(project)) == sorted(ids.values())


def test_interactive_adopt_refuses_during_a_rebase(staged: Staged) -> None:
    project = staged[0]
    _stop_in_rebase(project)
    before = _state(project)
    child = spawn_adopt(project)
    child.expect("a rebase is in progress")
    child.expect("hint:.*git rebase --abort")
    assert finish(child) == 3
    assert _state(project) == before


def test_lifecycle_verbs_refuse_during_a_rebase(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["a"])
    gm(project, "forget", ids["b"])  # an L1 atom: forget commits nothing on the branch
    _stop_in_rebase(project)
    before = _state(project)
    for args in (["pin", ids["a"]], ["forget", ids["a"]]):
        proc = gm(project, *args, check=False)
        _refused(proc.stdout, proc.stderr, proc.returncode, "a rebase is in progress", "git rebase --abort")
        assert _state(project) == before
    assert ids["a"] in held(project) and not held(project)[ids["a"]].get("pinned")
    git(project, "rebase", "--abort")
    gm(project, "forget", ids["a"])
    git(project, "checkout", "-q", "--detach")
    proc = gm(project, "forget", "--undo", ids["a"], check=False)
    _refused(proc.stdout, proc.stderr, proc.returncode, "HEAD is detached", "git switch")
