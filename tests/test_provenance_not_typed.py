"""Rows whose own fields say nobody typed them are not the person's words, whatever they say.

Claude Code 2.1.332 writes a plain `user` row, string content, no `isMeta`, no `origin`, for
messages an SDK host sends marked `text_not_typed` (the row says `textNotTyped: true`) or
`client_composed` (`queueSkipAttachments: true`): the host app wrote them. The client's own
test for a typed row refuses those marks (and `handedOff`, `queueTranscriptOnly`); so does
`promptSource: "suggestion_accepted"` (the model's suggested prompt, accepted with a key) and
a row a hook or the harness made (`rowSource: "hook"`/`"harness"`). The rows below are copied
from what the pinned client wrote (tests/integration/test_client_not_typed.py makes it write
them); the suggestion, hook and queued shapes are taken from its code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import git
from sessions import gm_json

from agent_memory.transcripts import reader as T

SID = "06a5e665-30ec-5993-aec8-646c43b349e2"
TYPED = "Always use tabs for indentation."
RULE = "Always use pnpm, never npm."


def _row(content: Any, turn: int, **extra: Any) -> dict[str, Any]:
    """A prompt row as 2.1.332 writes one for a message on `--input-format stream-json`."""
    return {
        "parentUuid": None,
        "isSidechain": False,
        "promptId": f"0b5639a3-4da1-4acd-8216-7e686d90{turn:04d}",
        "type": "user",
        "message": {"role": "user", "content": content},
        "uuid": f"d766d5b5-ae0c-48dc-bd76-cfcc3b1e{turn:04d}",
        "timestamp": f"2026-12-05T11:27:4{turn}.477Z",
        "permissionMode": "default",
        "promptSource": "sdk",
        "sentAtMs": 1796470060430 + turn,
        "rowSource": "local",
        "turnOrigin": "sdk",
        "turnPosition": {"promptIndex": 0, "turnIndex": turn},
        "userType": "external",
        "entrypoint": "sdk-cli",
        "cwd": "/w/proj",
        "sessionId": SID,
        "version": "2.1.332",
        "gitBranch": "main",
        **extra,
    }


def _queued(prompt: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "attachment",
        "uuid": "q-1",
        "parentUuid": None,
        "isSidechain": False,
        "timestamp": "2026-12-05T11:27:49.000Z",
        "sessionId": SID,
        "cwd": "/w/proj",
        "version": "2.1.332",
        "attachment": {
            "type": "queued_command",
            "prompt": prompt,
            "commandMode": "prompt",
            "origin": {"kind": "human"},
            **extra,
        },
    }


QUEUE = {"queueSkipSlashCommands": True}
NOT_TYPED = {
    # written by the client for `{"type": "user", …, "text_not_typed": true}`
    "text_not_typed": _row(RULE, 2, **QUEUE, textNotTyped=True),
    # written by the client for `{"type": "user", …, "client_composed": true}`
    "client_composed": _row(RULE, 3, **QUEUE, queueSkipAttachments=True),
    "handed_off": _row(RULE, 4, handedOff=True),
    "transcript_only": _row(RULE, 5, queueTranscriptOnly=True),
    "suggestion_accepted": _row(
        RULE, 6, promptSource="suggestion_accepted", origin={"kind": "human"}
    ),
    "system_prompt_source": _row(RULE, 7, promptSource="system"),
    "hook_row": _row(RULE, 8, rowSource="hook"),
    "harness_row": _row(RULE, 9, rowSource="harness"),
    "rewritten": _row(RULE, 1, promptRewritten=True),
    "from_connector": _row(RULE, 1, fromConnector=True),
    "slack_relay": _row(RULE, 1, verifiedSlackHumanTurn=True, origin={"kind": "human"}),
    "email_sender": _row(RULE, 1, emailSenderTurn={"from": "someone@example.com"}),
    "scheduled_wakeup": _row(RULE, 1, wakeupSource="cron", scheduledTaskId="t-1"),
    "virtual": _row(RULE, 1, isVirtual=True),
    "teammate_reply": _row(RULE, 1, foreignWord="teammate-reply"),
    "no_person": _row(RULE, 1, noPersonArrived=True),
    "turn_by_hook": _row(RULE, 1, turnOrigin="hook"),
    "turn_by_peer": _row(RULE, 1, turnOrigin="peer", origin={"kind": "human"}),
    "queued_from_email": _queued(RULE, emailSenderTurn={"from": "someone@example.com"}),
    "queued_scheduled": _queued(RULE, scheduledTaskId="t-1", scheduledFireId="f-1"),
    "queued_not_typed": _queued(RULE, textNotTyped=True),
    "queued_suggestion": _queued(RULE, inputSource="suggestion_accepted"),
    "queued_by_harness": _queued(RULE, rowSource="harness"),
    "queued_rewritten": _queued(RULE, promptRewritten=True),
}


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return path


@pytest.mark.parametrize("kind", sorted(NOT_TYPED))
def test_a_row_marked_as_not_typed_is_not_a_statement(tmp_path: Path, kind: str) -> None:
    path = _write(tmp_path / f"{SID}.jsonl", [_row(TYPED, 0), NOT_TYPED[kind]])
    texts = [s.text for s in T.iter_statements(path)]
    assert texts == [TYPED], texts


def test_the_same_rows_unmarked_are_the_persons(tmp_path: Path) -> None:
    """Positive control: the same shapes without the marks are read, typed and queued."""
    path = _write(tmp_path / f"{SID}.jsonl", [_row(TYPED, 0), _row(RULE, 2), _queued(RULE)])
    assert [s.text for s in T.iter_statements(path)] == [TYPED, RULE, RULE]


def test_extract_makes_no_atom_from_rows_nobody_typed(repo: Path, tmp_path: Path) -> None:
    gm_json(repo, "init", "--yes")
    path = _write(tmp_path / f"{SID}.jsonl", [_row(TYPED, 0), *NOT_TYPED.values()])
    atoms = gm_json(repo, "extract", "--transcript", str(path))["atoms"]
    assert [a["claim"] for a in atoms] == ["Always use tabs for indentation"]
    assert "pnpm" not in git(repo, "log", "--all", "-p")


def _chain(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for n, row in enumerate(rows):
        row["uuid"] = f"r-{n}"
        row["parentUuid"] = f"r-{n - 1}" if n else None
    return rows


def test_a_slash_commands_expansion_written_plainly_is_not_typing(tmp_path: Path) -> None:
    """`/deploy staging` with `.claude/commands/deploy.md` holding the rule: the echo row, then
    the file's text as the row under it. 2.1.332 marks that row `isMeta` (seen by running it);
    written without the mark (as claude-code-log exports show a 2.0-era session), the parent
    link alone says it is the command's text. A prompt typed after the answer stays."""
    echo = (
        "<command-message>deploy is running…</command-message>\n"
        "<command-name>/deploy</command-name>\n<command-args>staging</command-args>"
    )
    answer = {
        "type": "assistant",
        "timestamp": "2026-12-05T11:27:45.000Z",
        "message": {"role": "assistant", "content": [{"type": "text", "text": "Deployed."}]},
    }
    rows = _chain(
        [
            _row(TYPED, 0),
            _row(echo, 1),
            _row([{"type": "text", "text": f"{RULE} Deploy staging now.\n"}], 2),
            answer,
            _row("Never deploy on Fridays.", 3),
        ]
    )
    path = _write(tmp_path / f"{SID}.jsonl", rows)
    assert [s.text for s in T.iter_statements(path)] == [TYPED, "Never deploy on Fridays."]
