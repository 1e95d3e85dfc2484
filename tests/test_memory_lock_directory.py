"""`.git/agent-memory/memory.lock` that is a directory (a tool, a person's `mkdir`, a restore
from a backup): every verb that commits memory files refuses it in one line and a hint — not
an internal error — and leaves memory as it was; the capture paths (the session-end hook, `git
memory capture`) go on without the L1 cap, one errors.log line saying why."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json, write_session
from test_adopt import init_project, log_lines, stage_claims, waiting
from test_hooks import errors, payload, run_hook, wait_for


def _lock_dir(repo: Path) -> Path:
    path = repo / ".git" / "agent-memory" / "memory.lock"
    path.unlink(missing_ok=True)  # the file an earlier command made
    path.mkdir()
    (path / "left-here").write_text("x")
    return path


def _state(repo: Path) -> tuple[str, str, str]:
    return (git(repo, "rev-parse", "HEAD"), git(repo, "rev-parse", "memory/atoms"),
            git(repo, "status", "--porcelain"))  # fmt: skip


def _refused_plainly(stderr: str, verb: str, lock: Path) -> None:
    lines = stderr.strip().splitlines()
    assert "internal error" not in stderr and "report it" not in stderr, stderr
    assert len(lines) == 2, stderr
    assert lines[0].startswith(f"git memory {verb}: ") and "memory.lock is a directory" in lines[0]
    assert lines[1].startswith("hint: ") and f"rm -r '{lock}'" in lines[1]


def test_adopt_refuses_a_memory_lock_that_is_a_directory(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    init_project(repo, monkeypatch)
    ids = stage_claims(repo)
    lock = _lock_dir(repo)
    before = _state(repo)
    proc = gm(repo, "adopt", "--yes", ids["push"], check=False)
    assert proc.returncode == 3, (proc.stdout, proc.stderr)
    _refused_plainly(proc.stderr, "adopt", lock)
    assert _state(repo) == before and log_lines(repo) == []
    assert ids["push"] in waiting(repo)
    assert (lock / "left-here").read_text() == "x"  # not ours to remove


@pytest.mark.parametrize("verb", [["pin"], ["decay"], ["forget"]])
def test_the_verbs_on_adopted_atoms_refuse_it_alike(repo: Path, monkeypatch: pytest.MonkeyPatch, verb: list[str]) -> None:
    init_project(repo, monkeypatch)
    ids = stage_claims(repo)
    gm(repo, "adopt", "--yes", ids["push"])
    lock = _lock_dir(repo)
    before = _state(repo)
    held = log_lines(repo)
    proc = gm(repo, *verb, ids["push"], check=False)
    assert proc.returncode == 3, (proc.stdout, proc.stderr)
    _refused_plainly(proc.stderr, verb[0], lock)
    assert _state(repo) == before and log_lines(repo) == held


def test_capture_goes_on_without_the_cap_and_says_why_once(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    init_project(repo, monkeypatch)
    _lock_dir(repo)
    write_session(repo, "bbbbbbbb-0000-4000-8000-000000000001", "2026-11-05", [{"user": "Use pnpm, not npm."}])
    proc = gm(repo, "capture", "--all", "--no-stage", check=False)
    assert proc.returncode == 0, proc.stderr
    assert "internal error" not in proc.stderr
    lines = errors(repo)
    assert len(lines) == 1 and "memory.lock is a directory" in lines[0], lines


def test_the_session_end_hook_exits_0_silently_and_logs_one_line(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    init_project(repo, monkeypatch)
    _lock_dir(repo)
    session = "bbbbbbbb-0000-4000-8000-000000000002"
    transcript = write_session(repo, session, "2026-11-05", [{"user": "Use pnpm, not npm."}])
    proc = run_hook("session-end", payload("session-end", repo, session_id=session, transcript_path=str(transcript)), repo)
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
    wait_for(lambda: session in git(repo, "log", "-1", "--format=%B", "memory/atoms"), "the background capture")
    lines = wait_for(lambda: errors(repo), "the errors.log line")
    assert len(lines) == 1 and "memory.lock is a directory" in lines[0], lines


def test_status_and_validate_name_it_with_the_way_out(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a person looks when adopt refuses to run: both name the directory and how to
    remove it (they said nothing of it, and each session end added one errors.log line)."""
    init_project(repo, monkeypatch)
    lock = _lock_dir(repo)
    [found] = [item for item in gm_json(repo, "status")["stale_locks"] if item["path"] == str(lock)]
    assert found["message"].startswith(f"{lock} is a directory, not a lock file: ")
    assert found["hint"] == f"remove it (rm -r '{lock}'); git memory creates the file again"
    assert f"{lock} is a directory" in gm(repo, "status").stdout
    proc = gm(repo, "validate", check=False)
    assert proc.returncode != 0 and f"{lock} is a directory" in proc.stdout + proc.stderr, (proc.stdout, proc.stderr)
    # gone again: nothing to say
    (lock / "left-here").unlink()
    lock.rmdir()
    assert [item for item in gm_json(repo, "status")["stale_locks"] if item["path"] == str(lock)] == []
    gm(repo, "validate")
