"""A stated rule recurs and is staged, through the real client and nothing but its hooks:
stated in a session yesterday, stated again when that session is resumed (still one session),
stated in a new session today — two sessions on two days, the gate for a stated rule
(spec §4.1) — and the SessionEnd capture stages it for review on its own.

"Yesterday" is real: the client and the hooks it starts run under libfaketime with the clock a
day back, so every timestamp the client writes, and so every piece of evidence, is dated then."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from .client import Workspace, days_ago, typed_prompt_lines

pytestmark = pytest.mark.claude_client

RULE = "Never commit generated files"


def _atom(ws: Workspace) -> dict[str, Any]:
    [atom] = [a for a in ws.atoms() if a["claim"] == RULE]
    return atom


def _staged(ws: Workspace) -> list[str]:
    return [str(item["atom"]) for item in ws.git_memory_json("inspect")["staged"]]


def test_a_rule_stated_on_two_days_is_staged_through_the_hooks(workspace: Workspace) -> None:
    yesterday = days_ago(1)
    today = dt.datetime.now(dt.UTC).date()

    with workspace.scripted({"steps": []}):
        first = workspace.run(RULE, env=yesterday)
        workspace.wait_for_captures()
        resumed = workspace.run(RULE, resume=first.session_id, env=yesterday)
        workspace.wait_for_captures()
        atom = _atom(workspace)
        # The resumed session is the same session: one session, one day, nothing staged.
        assert resumed.transcript == first.transcript
        assert len(typed_prompt_lines(first.records(), (RULE,))) == 2
        assert atom["sessions"] == [first.session_id] and _staged(workspace) == []
        days = {e["at"][:10] for e in atom["evidence"]}
        assert days == {str(today - dt.timedelta(days=1))}  # the clock really was a day back

        second = workspace.run(RULE)
        workspace.wait_for_captures()

    atom = _atom(workspace)
    assert sorted(atom["sessions"]) == sorted([first.session_id, second.session_id])
    assert {e["at"][:10] for e in atom["evidence"]} == {
        str(today - dt.timedelta(days=1)),
        str(today),
    }
    assert atom["confidence"] == "stated"
    assert _staged(workspace) == [atom["id"]]  # staged by the hook's capture, nobody ran stage
    assert workspace.errors_log() == []
