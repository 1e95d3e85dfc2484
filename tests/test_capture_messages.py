"""What `git memory capture` says when its atoms did not land: queued behind a lock on
memory/atoms (counted, not written — never "nothing new"), or stopped by a stored atom that
fails the schema (its one-line error has a `hint:` saying where to look)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, write_session
from test_store_unreadable_record import _damaged, _path_of, _set_blob

PUSH = "Never push directly to main; always open a pull request."
PNPM = "We use pnpm, not npm, in this repo."


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now="2026-10-10T12:00:00Z")


def test_a_queued_capture_does_not_say_nothing_new(project: Path) -> None:
    lock = project / ".git" / "refs" / "heads" / "memory" / "atoms.lock"
    lock.write_text("")
    os.utime(lock, (time.time() - 600, time.time() - 600))  # as a killed git leaves it
    transcript = write_session(project, "aaaaaaaa-0000-4000-8000-000000000001", "2026-10-01",
                               [{"user": PUSH}, {"user": PNPM}])  # fmt: skip
    proc = gm(project, "capture", "--transcript", str(transcript), "--no-stage", check=False)
    summary = next(line for line in proc.stdout.splitlines() if line.startswith("captured "))
    assert "nothing new" not in summary and "(queued)" in summary, proc.stdout
    assert "queued" in proc.stdout and list((project / ".git" / "agent-memory" / "queue").glob("*.json"))


def test_an_invalid_stored_atom_that_stops_a_write_comes_with_a_hint(project: Path, tmp_path: Path) -> None:
    for n, day in ((1, "2026-10-01"), (2, "2026-10-02")):
        write_session(project, f"aaaaaaaa-0000-4000-8000-00000000000{n}", day, [{"user": PUSH}])
    gm(project, "capture", "--all", "--no-stage")
    names = git(project, "ls-tree", "-r", "--name-only", "refs/heads/memory/atoms").split()
    ident = next(n for n in names if n.startswith("atoms/")).rsplit("/", 1)[1].removesuffix(".json")
    path = _path_of(project, ident)
    _set_blob(project, path, _damaged(git(project, "show", f"refs/heads/memory/atoms:{path}").encode(),
                                      "foreign-kind"), tmp_path)  # fmt: skip
    proc = gm(project, "verify", ident, "--by", "true", check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and f"atom {ident} is invalid" in lines[0], proc.stderr
    assert lines[1].startswith("hint:") and f"git log -p memory/atoms -- {path}" in lines[1], proc.stderr
