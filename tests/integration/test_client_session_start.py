"""SessionStart, as the real client delivers it: adopted memory arrives as a
`hook_additional_context` attachment, and an empty memory puts nothing in context."""

from __future__ import annotations

import re

import pytest

from .client import Workspace, attachments, hook_contexts

pytestmark = pytest.mark.claude_client

PROJECT_LINE = "Use pnpm, not npm, for installs"
GLOBAL_LINE = "Prefer small, focused commits"


def test_adopted_lines_arrive_as_session_start_context(workspace: Workspace) -> None:
    workspace.adopt(PROJECT_LINE)
    workspace.adopt(GLOBAL_LINE, global_=True)
    expected = workspace.git_memory_json("context")["context"]

    records = workspace.run("Summarise the README").records()

    # Exactly what `git memory context` renders, delivered once, by the SessionStart hook.
    assert hook_contexts(records, "SessionStart") == [expected]
    assert f"- {PROJECT_LINE}" in expected and f"- {GLOBAL_LINE}" in expected
    # The committed blocks reach Claude too, through the CLAUDE.md imports `init` wrote.
    [loaded] = attachments(records, "instructions")
    contents = {f["path"]: f["content"] for f in loaded["files"]}
    memory_files = {p: c for p, c in contents.items() if p.endswith("CLAUDE.memory.md")}
    assert len(memory_files) == 2, sorted(contents)
    assert any(PROJECT_LINE in c for c in memory_files.values())
    assert any(GLOBAL_LINE in c for c in memory_files.values())


def test_no_session_start_context_when_no_tier_holds_anything(workspace: Workspace) -> None:
    records = workspace.run("Summarise the README").records()

    assert hook_contexts(records, "SessionStart") == []
    # The hook printed nothing at all (a hook_success record carries any stdout it printed).
    assert [a for a in attachments(records, "hook_success") if a.get("stdout")] == []
    assert workspace.errors_log() == []


def test_empty_memory_files_load_nothing_into_context(workspace: Workspace) -> None:
    records = workspace.run("Summarise the README").records()

    [loaded] = attachments(records, "instructions")
    # Claude Code drops HTML comments (our block markers) when it loads a file; what is left
    # is what Claude reads.
    memory_text = {
        f["path"]: f["content"]
        for f in loaded["files"]
        if f["path"].endswith("CLAUDE.memory.md") and re.sub(r"\s", "", f["content"])
    }
    assert memory_text == {}
