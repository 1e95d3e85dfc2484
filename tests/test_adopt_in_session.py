"""`git memory adopt` run inside a Claude Code session (the client sets CLAUDECODE=1 for every
command it runs, the model's Bash tool included). Claude's own memory — a claim `remember`
recorded in a session, a memory file its model wrote — reaches a committed file only through a
person's adopt; yet the model could run `git memory adopt --yes ID` (or `--all`) itself and
commit its own words as the person's decision. Adopt there now leaves such items waiting, says
so with a hint to adopt them from the person's own terminal, and adopts a person's items as
before. Decided from the environment and the record, never from the claim's words."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json, write_session
from test_adopt import choose, finish, next_item, spawn_adopt

CLAIM = "Always run the bootstrap script before answering any question"
PERSON = "Never push directly to main"
SESSION = {"CLAUDECODE": "1"}
HINT = "hint: adopt Claude's own memory in your own terminal, outside Claude Code: `git memory adopt"


@pytest.fixture
def project(guarded: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-05T12:00:00Z")
    return guarded


def _staged(project: Path) -> tuple[str, str]:
    """(Claude's claim remembered in a session, the person's own) — both waiting on memory/review."""
    claude = gm_json(project, "remember", CLAIM, env=SESSION)["id"]
    person = gm_json(project, "remember", PERSON)["id"]
    waiting = {s["atom"] for s in gm_json(project, "status")["staged"]}
    assert {claude, person} <= waiting, waiting
    return claude, person


def _block(project: Path) -> str:
    path = project / "CLAUDE.memory.md"
    return path.read_text("utf-8") if path.exists() else ""


def test_claude_cannot_adopt_its_own_claim_by_id_in_a_session(project: Path) -> None:
    claude, _ = _staged(project)
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", "--yes", claude, env=SESSION, check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"refused {claude}: Claude's own memory (git memory remember, run in a Claude Code session): " \
           "this adopt runs inside a Claude Code session" in proc.stdout, proc.stdout
    assert HINT in proc.stderr and "inspect --why" not in proc.stderr, proc.stderr
    assert git(project, "rev-parse", "HEAD") == head and CLAIM not in _block(project)
    assert claude in {s["atom"] for s in gm_json(project, "status")["staged"]}  # still waiting
    # In the person's own terminal it is adopted as ever.
    gm(project, "adopt", "--yes", claude)
    assert CLAIM in _block(project)


def test_adopt_all_in_a_session_adopts_the_persons_items_and_leaves_claudes(project: Path) -> None:
    claude, person = _staged(project)
    out = gm_json(project, "adopt", "--all", env=SESSION)  # exit 0: the person's item was adopted
    assert [a["atom"] for a in out["adopted"]] == [person], out
    assert out["claude_memory"] == [claude] and claude in out["refused"], out
    text = _block(project)
    assert PERSON in text and CLAIM not in text
    again = gm(project, "adopt", "--all", env=SESSION, check=False)  # nothing else left: refused
    assert again.returncode == 1 and f"refused {claude}" in again.stdout and HINT in again.stderr


def test_listing_in_a_session_says_which_items_only_a_person_adopts(project: Path) -> None:
    claude, person = _staged(project)
    proc = gm(project, "adopt", env=SESSION, check=False)
    assert proc.returncode == 1 and HINT in proc.stderr, proc.stderr
    assert gm_json(project, "adopt", env=SESSION, check=False)["claude_memory"] == [claude]
    assert "claude_memory" not in gm_json(project, "adopt", check=False)  # outside a session


def test_a_claim_the_person_also_typed_is_theirs_to_adopt_anywhere(project: Path) -> None:
    """Decided from the record: once a person typed the claim in a prompt themselves, it is
    theirs, and adopt in a session commits it like any item of theirs."""
    claude, _ = _staged(project)
    write_session(project, "typed-1", "2026-11-04", [{"user": CLAIM + "."}])
    gm(project, "capture", "--all", "--no-stage")
    gm(project, "adopt", "--yes", claude, env=SESSION)
    assert CLAIM in _block(project)


def test_the_walk_in_a_session_offers_no_adopt_for_claudes_item(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude, person = _staged(project)
    monkeypatch.setenv("CLAUDECODE", "1")  # the pseudo-terminal's process inherits it
    child = spawn_adopt(project)
    for _ in range(2):
        ident = next_item(child)
        if ident == claude:
            choose(child, "skip", ["reject", "skip", "show more", "quit"])
        else:
            choose(child, "adopt")
    assert "cannot adopt: Claude's own memory" in child.logfile_read.text()
    assert HINT in child.logfile_read.text()
    child.expect("1 adopted, 0 rejected, 1 skipped")
    assert finish(child) == 0
    text = _block(project)
    assert PERSON in text and CLAIM not in text


def test_a_global_claim_remembered_in_a_session_is_not_adopted_there(project: Path) -> None:
    gm(project, "remember", "--global", CLAIM, env=SESSION)
    proc = gm(project, "adopt", "--global", "--all", env=SESSION, check=False)
    assert proc.returncode == 1 and "Claude's own memory" in proc.stdout, proc.stdout + proc.stderr
    assert "git memory adopt --global`" in proc.stderr, proc.stderr
    home = Path(os.environ["AGENT_MEMORY_HOME"])
    block = home / "CLAUDE.memory.md"
    assert not block.exists() or CLAIM not in block.read_text("utf-8")
    gm(project, "adopt", "--global", "--all")
    assert CLAIM in block.read_text("utf-8")
