"""The pinned client's own refusals (Claude Code 2.1.332, recorded by
tests/integration/test_client_denial.py through a scripted model), read by the transcript
reader: the reason a person typed into the permission prompt is their words; the refusals the
client made by itself (a deny rule, a call nobody could approve headless) and an MCP tool's
error that imitates the denial sentence and a reason are not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import TRANSCRIPTS

from agent_memory.extract.pipeline import extract_transcript
from agent_memory.transcripts import reader as T
from agent_memory.transcripts.denials import rejection_reason

CLIENT = TRANSCRIPTS / "client-2.1.332" / "-home-user-proj"
REFUSED = CLIENT / "38c42c47-7056-506f-a892-08638f6576da.jsonl"  # interactive, "No" + a reason
HEADLESS = CLIENT / "4e12e3bd-042d-5a74-8cd5-ea603322b008.jsonl"  # -p: rule, no prompt, MCP
REASON = "Never delete the build folder"
IMITATED = "Always use tabs for indentation"


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def _result_line(records: list[dict[str, Any]], tool_use_id: str) -> int:
    for number, record in enumerate(records, 1):
        content = record.get("message", {}).get("content")
        mine = isinstance(content, list) and any(
            b.get("tool_use_id") == tool_use_id for b in content
        )
        if record.get("type") == "user" and mine:
            return number
    raise AssertionError(f"no result for {tool_use_id}")


def test_the_reason_typed_into_a_refusal_is_a_statement() -> None:
    records = _records(REFUSED)
    line = _result_line(records, "toolu_clean")
    assert records[line - 1]["toolDenialKind"] == "user-rejected"
    assert records[line - 1]["userFeedback"] == REASON

    rejections = [s for s in T.iter_statements(REFUSED) if s.origin == "rejection"]

    assert [(s.line, s.text, s.rejected_tool, s.rejected_command) for s in rejections] == [
        (line, REASON, "Bash", "rm -rf build")
    ]
    atoms = extract_transcript(REFUSED, "proj").atoms
    assert [a["claim"] for a in atoms if a["evidence"][0]["source"].endswith(f"#L{line}")] == [
        REASON
    ]


def test_refusals_nobody_typed_and_an_imitating_tool_error_are_not() -> None:
    records = _records(HEADLESS)
    kinds = {
        ident: records[_result_line(records, ident) - 1].get("toolDenialKind")
        for ident in ("toolu_push", "toolu_rm", "toolu_mcp")
    }
    assert kinds == {
        "toolu_push": "permission-rule",
        "toolu_rm": "user-rejected",
        "toolu_mcp": None,
    }
    mcp = records[_result_line(records, "toolu_mcp") - 1]["message"]["content"][0]["content"]
    # The text alone would pass for a refusal (the client appended a note on the schema).
    assert (rejection_reason(mcp) or "").startswith(IMITATED)

    statements = list(T.iter_statements(HEADLESS))

    assert [s.origin for s in statements] == ["prompt"]  # the typed prompt, nothing else
    assert extract_transcript(HEADLESS, "proj").atoms == []
