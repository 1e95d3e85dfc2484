"""SessionStart, as the real client delivers it: adopted memory arrives as a
`hook_additional_context` attachment, and an empty memory puts nothing in context. Where the
hook runs it is the one path: the client does not load the memory files through the CLAUDE.md
imports as well (test_client_model_context.py counts the lines the model is shown)."""

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
    # Both CLAUDE.md files are loaded with their imports, but not the memory files the imports
    # name: the hook carries those blocks here (`init` excluded them on this machine).
    [loaded] = attachments(records, "instructions")
    contents = {f["path"]: f["content"] for f in loaded["files"]}
    assert sum(p.endswith("/CLAUDE.md") for p in contents) == 2, sorted(contents)
    assert not [p for p in contents if p.endswith("CLAUDE.memory.md")], sorted(contents)


def test_no_session_start_context_when_no_tier_holds_anything(workspace: Workspace) -> None:
    records = workspace.run("Summarise the README").records()

    assert hook_contexts(records, "SessionStart") == []
    # The hook printed nothing at all (a hook_success record carries any stdout it printed).
    assert [a for a in attachments(records, "hook_success") if a.get("stdout")] == []
    assert workspace.errors_log() == []


def test_empty_memory_files_load_nothing_into_context(bare_workspace: Workspace) -> None:
    # Without our hooks the client loads the memory files through the imports.
    bare_workspace.git_memory("init", "--yes", "--no-claude-hooks")
    records = bare_workspace.run("Summarise the README").records()

    [loaded] = attachments(records, "instructions")
    # Claude Code drops HTML comments (our block markers) when it loads a file; what is left
    # is what Claude reads.
    memory_text = {
        f["path"]: f["content"]
        for f in loaded["files"]
        if f["path"].endswith("CLAUDE.memory.md") and re.sub(r"\s", "", f["content"])
    }
    assert memory_text == {}
