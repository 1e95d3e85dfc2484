"""One byte that is not UTF-8 in the committed `.memory/adopted.log` (a fast-forward pull brings
it in and runs no hook): the session start keeps what it can and logs one line; the CLI verbs
say where the byte is and how to restore the file (exit 3), never 'internal error'."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json


@pytest.fixture
def broken(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-05T12:00:00Z")
    gm(repo, "init", "--yes", "--no-claude-hooks")
    ident = gm_json(repo, "remember", "Always run ruff before committing.")["id"]
    gm(repo, "adopt", "--yes", ident)
    (repo / ".git" / "waiting-id").write_text(gm_json(repo, "remember", "Use tabs in Makefiles.")["id"])
    log = repo / ".memory" / "adopted.log"
    log.write_bytes(log.read_bytes() + b"\xff\n")
    git(repo, "commit", "-qam", "a pulled byte", "--no-verify")
    return repo


def test_the_session_context_keeps_the_good_lines_and_logs_one_line(broken: Path) -> None:
    from test_hooks import hook

    context = hook("session-start", broken)
    assert context is not None and "Always run ruff before committing." in context
    errors = (broken / ".git" / "agent-memory" / "errors.log").read_text()
    assert "adopted.log: line 2 (byte offset" in errors and "not UTF-8" in errors


@pytest.mark.parametrize("verb", ["status", "adopt"])
def test_cli_verbs_name_the_byte_and_how_to_restore_it(broken: Path, verb: str) -> None:
    ident = (broken / ".git" / "waiting-id").read_text()
    proc = gm(broken, *([verb] if verb == "status" else [verb, "--yes", ident]), check=False)
    assert proc.returncode == 3, proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    assert "adopted.log: not UTF-8 at line 2 (byte offset" in proc.stderr
    assert "hint:" in proc.stderr and "checkout HEAD -- .memory/adopted.log" in proc.stderr


def test_validate_reports_it(broken: Path) -> None:
    proc = gm(broken, "validate", check=False)
    assert proc.returncode == 1 and "internal error" not in proc.stderr
    assert "adopted.log: not UTF-8 at line 2" in proc.stdout + proc.stderr
