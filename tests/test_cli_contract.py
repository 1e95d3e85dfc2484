"""The command contract (docs/cli.md) where the CLI once drifted from it: bad input is exit 2 with
one line and a `hint:`, repository state is exit 3, refusals are exit 1, and the Claude Code hook
never fails. Every case runs through the CLI on a real repository."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json, write_session

NOW = "2026-11-06T12:00:00Z"


@pytest.fixture
def project(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    gm(repo, "init", "--yes", "--no-claude-hooks")
    return repo


def _one_line_and_a_hint(stderr: str) -> list[str]:
    lines = stderr.strip().splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint: "), stderr
    return lines


# --- verify: an empty command checks nothing ---------------------------------------------------


@pytest.mark.parametrize("command", ["", "   ", "\t\n"])
def test_verify_with_an_empty_command_is_bad_input_and_changes_nothing(project: Path, command: str) -> None:
    write_session(project, "eeeeeeee-0000-4000-8000-000000000001", "2026-11-01",
                  [{"user": "Never push directly to main; always open a pull request."}])
    gm(project, "capture", "--all", "--no-stage")
    atom = gm_json(project, "inspect", "--tier", "L1")["atoms"][0]
    tip = git(project, "rev-parse", "memory/atoms")

    proc = gm(project, "verify", atom["id"], "--by", command, check=False)

    assert proc.returncode == 2
    first, _ = _one_line_and_a_hint(proc.stderr)
    assert first.startswith("git memory verify: ") and "--by" in first
    assert git(project, "rev-parse", "memory/atoms") == tip
    after = next(a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a["id"] == atom["id"])
    assert after["confidence"] == atom["confidence"] != "verified"
    assert atom["id"] not in {e["id"] for e in gm_json(project, "promote")["eligible"]}
