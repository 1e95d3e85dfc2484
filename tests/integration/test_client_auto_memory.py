"""The model writes a memory the way Claude Code's auto memory does, through the real client and
a scripted model: the client's system prompt names the project's auto-memory folder and the
format (one topic file with frontmatter, a line in `MEMORY.md`); the model writes both with the
Write tool, headless, with no permission asked; the client rewrites the frontmatter on the way;
the transcript shows each write; the next session loads `MEMORY.md` as an `AutoMem` file.

What agent-memory makes of the folder is the auto-memory source's business (the next issue);
this pins what the client does, so that source is built on the real shapes."""

from __future__ import annotations

from typing import Any

import pytest

from .client import Workspace, attachments, slug_for

pytestmark = pytest.mark.claude_client

PROMPT = "Remember that deploys go out from the release branch only."
TOPIC = """---
name: release-branch
description: Deploys go out from the release branch only
metadata:
  type: feedback
---

Deploy from the release branch, never from main.

**Why:** main is not always green.
**How to apply:** check out release before running the deploy script.
"""
INDEX_LINE = "- [Release branch](release-branch.md) — deploys go out from release"


def _writes(records: list[dict[str, Any]]) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """file_path → (the Write tool_use block, the record holding its result)."""
    calls = {
        block["id"]: block
        for r in records
        if r.get("type") == "assistant"
        for block in r["message"]["content"]
        if block.get("type") == "tool_use" and block.get("name") == "Write"
    }
    out = {}
    for r in records:
        content = r.get("message", {}).get("content") if r.get("type") == "user" else None
        for block in content if isinstance(content, list) else []:
            call = calls.get(block.get("tool_use_id"))
            if call is not None:
                out[call["input"]["file_path"]] = (call, r)
    return out


def test_the_model_writes_a_memory_as_auto_memory_does(workspace: Workspace) -> None:
    folder = workspace.config_dir / "projects" / slug_for(workspace.repo) / "memory"
    topic, index = folder / "release-branch.md", folder / "MEMORY.md"
    script = {
        "steps": [
            {
                "when": {"nth_with_tools": 1},
                "content": [
                    {
                        "type": "tool_use",
                        "name": "Write",
                        "input": {"file_path": str(topic), "content": TOPIC},
                    },
                ],
            },  # fmt: skip
            {
                "when": {"nth_with_tools": 2},
                "content": [
                    {
                        "type": "tool_use",
                        "name": "Write",
                        "input": {"file_path": str(index), "content": INDEX_LINE + "\n"},
                    },
                ],
            },  # fmt: skip
            {"when": {"nth_with_tools": 3}, "content": [{"type": "text", "text": "Saved."}]},
        ]
    }

    with workspace.scripted(script) as model:
        run = workspace.run(PROMPT)  # no --allowedTools: the folder needs no permission
        later = workspace.run("What do you remember about deploys?")
    workspace.wait_for_captures()

    assert model.unanswered_steps() == []
    # The client told the model where its memory lives and how a memory file looks.
    system = model.model_requests()[0].system_text()
    assert f"`{folder}/`" in system and "MEMORY.md" in system and "type: user | feedback" in system

    # Each write is in the transcript: the call, then a result that is no error.
    writes = _writes(run.records())
    assert set(writes) == {str(topic), str(index)}
    for path, (_, result) in writes.items():
        assert result["toolUseResult"]["type"] == "create"
        assert result["toolUseResult"]["filePath"] == path
        assert not result["message"]["content"][0].get("is_error")

    # The client rewrote the frontmatter on the way (what it records is what it wrote).
    written = topic.read_text("utf-8")
    assert written == writes[str(topic)][1]["toolUseResult"]["content"]
    meta = written.split("---")[1]
    assert "  node_type: memory" in meta and "  type: feedback" in meta
    assert f"  originSessionId: {run.session_id}" in meta and "  modified: " in meta
    assert written.endswith(TOPIC.split("---", 2)[2])  # the body as the model wrote it
    assert index.read_text("utf-8") == INDEX_LINE + "\n"

    # The next session loads the index (not the topic file) into the model's context.
    [loaded] = attachments(later.records(), "instructions")
    auto = [f for f in loaded["files"] if f["type"] == "AutoMem"]
    assert [(f["path"], f["content"]) for f in auto] == [(str(index), INDEX_LINE)]
    assert INDEX_LINE in model.model_requests()[-1].text()
    assert "never from main" not in model.model_requests()[-1].text()
    assert workspace.errors_log() == []
