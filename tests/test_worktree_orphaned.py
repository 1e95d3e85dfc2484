"""A linked work tree whose main checkout was deleted (or moved): its `.git` file names a git dir
that is gone. git says "not a git repository"; so does every verb — naming the `.git` file, what
it points at and `git worktree repair` — never an internal error, and nothing recreates the
deleted checkout's folders (a log line written there made its `.git/worktrees/…` up again)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import git
from sessions import gm
from test_hooks import payload, run_hook


@pytest.fixture
def orphaned(repo: Path, tmp_path: Path) -> Path:
    gm(repo, "init", "--yes")
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked), "-b", "feature")
    shutil.rmtree(repo)
    return linked


@pytest.mark.parametrize("verb", [["status"], ["capture", "--all"], ["remember", "Always run the linter first"],
                                  ["validate"], ["init", "--yes"]])  # fmt: skip
def test_every_verb_says_the_main_checkout_is_gone(orphaned: Path, repo: Path, verb: list[str]) -> None:
    proc = gm(orphaned, *verb, check=False)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 2 and "internal error" not in proc.stderr, proc.stderr
    assert f"{orphaned / '.git'} points at" in lines[0] and "does not exist" in lines[0], proc.stderr
    assert "git worktree repair" in lines[1]
    assert not repo.exists()  # nothing made up where the main checkout was


def test_the_hooks_stay_silent_and_write_nothing_where_the_checkout_was(orphaned: Path, repo: Path) -> None:
    for event in ("session-start", "user-prompt-submit", "session-end"):
        proc = run_hook(event, payload(event, orphaned, prompt="which linter?"), orphaned)
        assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b"", event
    assert not repo.exists()
