"""Claude's own memory, end to end through the real client and a scripted model (issue 27 §7).

Session one: the model writes a memory into the project's auto-memory folder with the Write
tool, as the client's system prompt describes (no permission asked); our SessionEnd capture
turns it into an `observed` candidate labelled as Claude's own memory, whose back-pointer is
the transcript line of that Write call. Session two: the model reads the memory and edits it
(keeping the rule); the capture counts that session as a second observation, and the edit's
call line becomes the latest back-pointer. Loading `MEMORY.md` into session two is not an
observation, and the memory is never recalled per prompt by our hook."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from .client import Workspace, hook_contexts, slug_for

pytestmark = pytest.mark.claude_client

RULE = "Deploy from the release branch, never from main."
CLAIM = "Deploy from the release branch, never from main"
TOPIC = f"""---
name: release-branch
description: Deploys go out from the release branch only
metadata:
  type: feedback
---

{RULE}

**Why:** main is not always green.
**How to apply:** check out release before running the deploy script.
"""
OLD_HOW = "**How to apply:** check out release before running the deploy script."
NEW_HOW = "**How to apply:** check out release, then run ./deploy.sh from the repository root."
INDEX = "- [Release branch](release-branch.md) — deploys go out from release\n"


def _rev(workspace: Workspace, ref: str) -> str:
    return subprocess.run(["git", "-C", str(workspace.repo), "rev-parse", ref], capture_output=True, text=True,
                          check=True).stdout.strip()  # fmt: skip


def _call_lines(records: list[dict[str, Any]], tool: str, path: str) -> list[int]:
    """1-based transcript lines of the assistant records calling `tool` on `path`."""
    return [
        number
        for number, r in enumerate(records, start=1)
        if r.get("type") == "assistant"
        for block in r["message"]["content"]
        if block.get("type") == "tool_use" and block.get("name") == tool and block["input"].get("file_path") == path
    ]


def test_a_memory_the_client_writes_is_captured_and_an_edit_is_a_second_observation(workspace: Workspace) -> None:
    folder = workspace.config_dir / "projects" / slug_for(workspace.repo) / "memory"
    topic, index = folder / "release-branch.md", folder / "MEMORY.md"
    first = {"steps": [
        {"when": {"nth_with_tools": 1},
         "content": [{"type": "tool_use", "name": "Write", "input": {"file_path": str(topic), "content": TOPIC}}]},
        {"when": {"nth_with_tools": 2},
         "content": [{"type": "tool_use", "name": "Write", "input": {"file_path": str(index), "content": INDEX}}]},
        {"when": {"nth_with_tools": 3}, "content": [{"type": "text", "text": "Noted."}]},
    ]}  # fmt: skip
    with workspace.scripted(first):
        one = workspace.run("Please keep a note about how we ship.")
    workspace.wait_for_captures()

    [atom] = [a for a in workspace.atoms() if a.get("origin") == "auto-memory"]
    [write_line] = _call_lines(one.records(), "Write", str(topic))
    pointer_one = f"~/.claude/projects/{slug_for(workspace.repo)}/{one.session_id}.jsonl#L{write_line}"
    assert atom["claim"] == CLAIM and atom["kind"] == "constraint" and atom["confidence"] == "observed"
    assert atom["memory_file"] == "release-branch.md"
    assert atom["sessions"] == [one.session_id] and atom["source"] == pointer_one
    assert [e["source"] for e in atom["evidence"]] == [pointer_one]

    second = {"steps": [
        {"when": {"nth_with_tools": 1},
         "content": [{"type": "tool_use", "name": "Read", "input": {"file_path": str(topic)}}]},
        {"when": {"nth_with_tools": 2},
         "content": [{"type": "tool_use", "name": "Edit", "input": {
             "file_path": str(topic), "old_string": OLD_HOW, "new_string": NEW_HOW}}]},
        {"when": {"nth_with_tools": 3}, "content": [{"type": "text", "text": "Updated the note."}]},
    ]}  # fmt: skip
    with workspace.scripted(second):
        two = workspace.run("How do we ship a release again?")
    workspace.wait_for_captures()

    assert NEW_HOW in topic.read_text("utf-8")
    [atom] = [a for a in workspace.atoms() if a.get("origin") == "auto-memory"]
    [edit_line] = _call_lines(two.records(), "Edit", str(topic))
    pointer_two = f"~/.claude/projects/{slug_for(workspace.repo)}/{two.session_id}.jsonl#L{edit_line}"
    assert sorted(atom["sessions"]) == sorted([one.session_id, two.session_id])
    assert atom["observations"] == 2 and atom["source"] == pointer_two and atom["first_source"] == pointer_one
    assert "How to apply: check out release, then run ./deploy.sh" in max(
        atom["evidence"], key=lambda e: e["at"])["quote"]

    # Our recall never injects it (the client loads its own memory): not in any prompt's context.
    for run in (one, two):
        assert not any("release branch" in c for c in hook_contexts(run.records(), "UserPromptSubmit"))
    why = workspace.git_memory("inspect", "--why", atom["id"]).stdout
    assert "Claude's own memory (release-branch.md)" in why and f"{two.session_id}.jsonl#L{edit_line}" in why
    # Re-capturing the unchanged folder writes nothing.
    tip = _rev(workspace, "memory/atoms")
    again = workspace.git_memory_json("capture", "--all")
    assert again["commits"] == 0 and _rev(workspace, "memory/atoms") == tip
    assert workspace.errors_log() == []
