"""A repository whose objects are named with SHA-256 (`git init --object-format=sha256`): the
git library agent-memory reads objects with (libgit2) cannot open it. Every verb says so (exit
3, one line and a hint), never an internal error, and nothing is written; the hooks log one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, write_session
from test_hooks import errors, payload, run_hook


@pytest.fixture
def sha256_repo(tmp_path: Path) -> Path:
    path = tmp_path / "proj"
    path.mkdir()
    git(path, "init", "-q", "-b", "main", "--object-format=sha256")
    (path / "README.md").write_text("# proj\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path


@pytest.mark.parametrize("verb", [["init", "--yes"], ["status"], ["capture", "--all"],
                                  ["remember", "Always run the linter before committing"], ["validate"]])
def test_every_verb_says_the_object_format_is_not_readable(sha256_repo: Path, verb: list[str]) -> None:
    write_session(sha256_repo, "d6b1f7e2-5555-4555-8555-555555555555", "2026-11-02",
                  [{"user": "Always run the linter with ruff before committing."}])  # fmt: skip
    head = git(sha256_repo, "rev-parse", "HEAD").strip()
    proc = gm(sha256_repo, *verb, check=False)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "internal error" not in proc.stderr and "SHA-256" in proc.stderr, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint: "), proc.stderr
    assert git(sha256_repo, "status", "--porcelain") == ""
    assert git(sha256_repo, "rev-parse", "HEAD").strip() == head
    assert git(sha256_repo, "branch", "--list", "memory/*") == ""
    assert not (sha256_repo / ".git" / "hooks" / "pre-commit").exists()


def test_json_output_carries_the_refusal(sha256_repo: Path) -> None:
    proc = gm(sha256_repo, "status", "--output", "json", check=False)
    data = json.loads(proc.stdout)
    assert data["exit"] == 3 and "SHA-256" in data["error"] and data["hint"]


def test_the_hooks_stay_silent(sha256_repo: Path) -> None:
    for event in ("session-start", "user-prompt-submit", "session-end"):
        proc = run_hook(event, payload(event, sha256_repo, prompt="which linter?"), sha256_repo)
        assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b"", event
    assert all("Traceback" not in line for line in errors(sha256_repo))
