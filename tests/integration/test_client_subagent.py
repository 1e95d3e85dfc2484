"""A subagent runs (the Agent tool, formerly Task), through the real client and a scripted
model: the prompt the model writes for it and the output it returns never become atoms, though
both sit in `user` records — the subagent's own transcript opens with its prompt as a `user`
record, and 2.1.332 returns the output to the parent as a `<task-notification>` `user` record
(`promptSource: "system"`)."""

from __future__ import annotations

import pytest

from .client import Workspace, evidence, read_records, typed_prompt_lines

pytestmark = pytest.mark.claude_client

ASKED = "Where is the version number defined?"
STATED = "Always update the changelog when you release"
SUBAGENT_PROMPT = "Find the file that defines the version. Always answer in French."
SUBAGENT_OUTPUT = "It is in pyproject.toml. Never bump the version by hand."


def test_a_subagents_prompt_and_output_never_become_atoms(workspace: Workspace) -> None:
    script = {
        "steps": [
            {
                "when": {"last_user_contains": ASKED},
                "content": [
                    {
                        "type": "tool_use",
                        "name": "Agent",
                        "input": {
                            "description": "Find the version",
                            "prompt": SUBAGENT_PROMPT,
                            "subagent_type": "general-purpose",
                        },
                    }
                ],
            },
            # The subagent's own first turn: its prompt is the last user message.
            {
                "when": {"last_user_contains": SUBAGENT_PROMPT},
                "content": [{"type": "text", "text": SUBAGENT_OUTPUT}],
            },
            # The parent, told by the client what the subagent found.
            {
                "when": {"last_user_contains": SUBAGENT_OUTPUT},
                "content": [{"type": "text", "text": "The subagent found it."}],
            },
        ]
    }

    with workspace.scripted(script) as model:
        # The statement first: a prompt sent while the subagent still works is absorbed into
        # the running turn (a `queued_command` attachment), not written as a prompt record.
        run = workspace.run([STATED, ASKED])
    workspace.wait_for_captures()

    assert model.unanswered_steps() == []
    [subagent] = sorted(run.transcript.parent.glob(f"{run.session_id}/subagents/agent-*.jsonl"))
    sub_records = read_records(subagent)
    assert sub_records[0]["type"] == "user" and sub_records[0]["isSidechain"] is True
    assert sub_records[0]["message"]["content"] == SUBAGENT_PROMPT
    records = run.records()
    notifications = [
        r
        for r in records
        if r.get("type") == "user"
        and isinstance(r["message"]["content"], str)
        and r["message"]["content"].startswith("<task-notification>")
    ]
    assert notifications and all(r.get("promptSource") == "system" for r in notifications)
    assert SUBAGENT_OUTPUT in notifications[0]["message"]["content"]

    atoms = workspace.atoms()
    assert [a["claim"] for a in atoms] == [STATED]
    assert {(sid, line) for _, sid, line in evidence(atoms)} == {
        (run.session_id, line) for line in typed_prompt_lines(records, (STATED,))
    }
    assert workspace.errors_log() == []
