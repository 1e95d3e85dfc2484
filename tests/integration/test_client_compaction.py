"""Compaction, offline: `/compact` sent as a prompt in a headless session makes the real client
ask the (scripted) model for a summary, write a `system/compact_boundary` record and the
summary as a `user` record (`isCompactSummary`, `isVisibleInTranscriptOnly`), and start the
rest of the session from it. The summary is never a source, however rule-like its text; the
prompts typed before and after it are."""

from __future__ import annotations

import pytest

from .client import Workspace, evidence, typed_prompt_lines

pytestmark = pytest.mark.claude_client

BEFORE = "Never push directly to main"
AFTER = "Always update the changelog when you release"
IN_SUMMARY = "Always deploy from the release branch."


def test_a_compaction_summary_is_never_a_source(workspace: Workspace) -> None:
    script = {
        "steps": [
            {
                # The client's summary request ends with its own instructions, which ask for
                # an <analysis> block and a <summary> block.
                "when": {"last_user_contains": "<summary>"},
                "content": [
                    {
                        "type": "text",
                        "text": "<analysis>One rule so far.</analysis>\n"
                        f"<summary>The user set a rule about main. {IN_SUMMARY}</summary>",
                    }
                ],
            }
        ]
    }

    with workspace.scripted(script) as model:
        run = workspace.run([BEFORE, "/compact", AFTER])
    workspace.wait_for_captures()

    assert model.unanswered_steps() == []
    records = run.records()
    [boundary] = [r for r in records if r.get("subtype") == "compact_boundary"]
    assert boundary["compactMetadata"]["trigger"] == "manual"
    [summary] = [r for r in records if r.get("isCompactSummary")]
    assert summary["type"] == "user" and IN_SUMMARY in summary["message"]["content"]
    # The conversation after the compaction starts from the summary.
    assert IN_SUMMARY in model.model_requests()[-1].text()

    atoms = workspace.atoms()
    assert sorted(a["claim"] for a in atoms) == sorted([BEFORE, AFTER])
    assert {(sid, line) for _, sid, line in evidence(atoms)} == {
        (run.session_id, line) for line in typed_prompt_lines(records, (BEFORE, AFTER))
    }
    assert workspace.errors_log() == []
