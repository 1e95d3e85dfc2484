"""Going on with an earlier session, the ways the pinned client offers, and what each writes.

Measured with Claude Code 2.1.332, a scripted model answering:

- `claude -p --resume <id>` and `claude -p --continue` append to the session's own file
  `<id>.jsonl`: one file, every record under that one `sessionId`; SessionStart (source
  `resume`) and SessionEnd name that session and that file.
- `--fork-session` (with `--resume <id>` or `--continue`, headless or in the full-screen
  client) writes a new file `<new>.jsonl` that opens with copies of the earlier session's
  records — their `uuid` and `timestamp` kept, their `sessionId` rewritten to the new one —
  and goes on under the new id; the earlier file is left as it was. SessionStart (source
  `fork`) and SessionEnd name the new session and its file. No file held records of two
  sessions.

A rule typed in the first part and one typed after going on are captured by the SessionEnd
hook, once each: each atom's back-pointer resolves to the line holding the user's words, its
sessions are the session the client says the words were typed in, validate finds nothing
wrong and a backfill adds nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from golden import Golden

from .client import Client, Run, Workspace, read_records, typed_prompt_lines
from .conftest import golden_workspace, workspace_lifecycle

pytestmark = pytest.mark.claude_client

FIRST = "Never push directly to main"
LATER = "Do not use mocks in integration tests."


def _layout(ws: Workspace) -> dict[str, list[str]]:
    """{file stem: the sessionIds its records carry, in order, runs collapsed}."""
    out: dict[str, list[str]] = {}
    for path in sorted(ws.config_dir.glob("projects/*/*.jsonl")):
        runs: list[str] = []
        for record in read_records(path):
            sid = record.get("sessionId")
            if isinstance(sid, str) and (not runs or runs[-1] != sid):
                runs.append(sid)
        out[path.stem] = runs
    return out


def _pointer(ws: Workspace, run: Run, line: int) -> str:
    project = run.transcript.parent
    return f"~/.claude/projects/{project.name}/{run.transcript.name}#L{line}"


def _go_on(ws: Workspace, mode: str, first: Run) -> Run:
    if mode.startswith("continue"):
        return ws.run(LATER, continue_=True, fork=mode.endswith("fork"))
    return ws.run(LATER, resume=first.session_id, fork=mode.endswith("fork"))


@pytest.fixture(scope="module")
def first_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[Run]:
    return Golden(tmp_path_factory.mktemp("resume-first"))


def _first_session(ws: Workspace) -> Run:
    with ws.scripted({"steps": []}):
        first = ws.run(FIRST)
        ws.wait_for_captures()
    return first


@pytest.fixture
def started(
    claude_client: Client,
    first_golden: Golden[Run],
    isolated_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> Iterator[tuple[Workspace, Run]]:
    """A copy of the repository after a headless session in which FIRST was typed and its
    SessionEnd capture. Every test here begins with that same session, so the client runs it
    once per worker and each test goes on from a fresh copy (conftest.golden_workspace)."""
    ws, first = golden_workspace(
        first_golden, claude_client, isolated_env, monkeypatch, tmp_path, request.node.name,
        _first_session, "first session",
    )  # fmt: skip
    for _ in workspace_lifecycle(ws):
        yield ws, first


@pytest.mark.parametrize("mode", ["resume", "continue", "resume-fork", "continue-fork"])
def test_rules_typed_before_and_after_going_on_are_captured_once_each(
    started: tuple[Workspace, Run], mode: str
) -> None:
    workspace, first = started
    with workspace.scripted({"steps": []}):
        later = _go_on(workspace, mode, first)
        workspace.wait_for_captures()
    _captured_once_each(workspace, first, later, fork=mode.endswith("fork"))


def test_an_interactive_fork_is_captured_once_each(started: tuple[Workspace, Run]) -> None:
    """The full-screen client forked from a headless session and quit with `/exit`: the same
    layout, and the SessionEnd hook of the fork captures only what was typed in it."""
    workspace, first = started
    with workspace.scripted({"steps": []}):
        session = workspace.interactive(["--resume", first.session_id, "--fork-session"])
        try:
            session.prompt(LATER)
            assert session.exit() == 0
        finally:
            session.close()
        workspace.wait_for_captures()
    later = Run(session.session_id, session.transcript, 0, "", "")
    _captured_once_each(workspace, first, later, fork=True)


def _captured_once_each(workspace: Workspace, first: Run, later: Run, *, fork: bool) -> None:
    if fork:
        # A new session, and a new file opening with the earlier records under the new id.
        assert later.session_id != first.session_id
        assert _layout(workspace) == {
            first.session_id: [first.session_id],
            later.session_id: [later.session_id],
        }
        copied = typed_prompt_lines(later.records(), (FIRST,))
        [original] = [r for r in first.records() if r.get("message", {}).get("content") == FIRST]
        assert [later.records()[n - 1]["uuid"] for n in copied] == [original["uuid"]]
    else:
        # The same session, appended to its own file.
        assert later.session_id == first.session_id and later.transcript == first.transcript
        assert _layout(workspace) == {first.session_id: [first.session_id]}

    # Where the user typed each rule (in the fork's file the first rule is only a copy).
    [first_line] = typed_prompt_lines(first.records(), (FIRST,))
    [later_line] = typed_prompt_lines(later.records(), (LATER,))
    typed = {
        FIRST: (_pointer(workspace, first, first_line), first.session_id),
        LATER: (_pointer(workspace, later, later_line), later.session_id),
    }
    atoms = workspace.atoms()
    assert len(atoms) == 2, [a["claim"] for a in atoms]
    for atom in atoms:
        why: dict[str, Any] = workspace.git_memory_json("inspect", "--why", atom["id"])
        [item] = why["evidence"]
        assert item["status"] == "ok", item
        words = item["line"]
        assert words in typed, (atom["claim"], item)
        pointer, session = typed[words]
        assert item["source"] == pointer == atom["source"] == atom["first_source"], (atom, item)
        assert atom["sessions"] == [session] and atom["observations"] == 1, atom
    assert {item for atom in atoms for item in atom["sessions"]} == {
        first.session_id,
        later.session_id,
    }

    validate = workspace.git_memory("validate", "--output", "json", check=False)
    assert validate.returncode == 0, validate.stdout + validate.stderr
    assert json.loads(validate.stdout)["errors"] == [], validate.stdout
    assert workspace.errors_log() == []

    backfill = workspace.git_memory_json("capture", "--all")
    assert (backfill["new"], backfill["merged"], backfill["failed"]) == (0, 0, 0), backfill
    assert workspace.atoms() == atoms
    # Read again from scratch (the capture ledger gone), the transcripts still say the same.
    (workspace.repo / ".git" / "agent-memory" / "captured.log").unlink()
    again = workspace.git_memory_json("capture", "--all")
    assert again["failed"] == 0 and again["new"] == 0, again
    assert workspace.atoms() == atoms
