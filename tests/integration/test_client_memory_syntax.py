"""What the real client makes of a memory file's text (issue 23): which `@path` it imports,
which comments it drops. The guard refuses these constructs in memory files and the block
renderer writes none of them; this pins the client behaviour both rest on."""

from __future__ import annotations

from typing import Any

import pytest

from .client import Workspace, attachments

pytestmark = pytest.mark.claude_client


def loaded(records: list[dict[str, Any]]) -> dict[str, str]:
    """File name → content of every memory file the client loaded (imports included)."""
    [instructions] = attachments(records, "instructions")
    return {f["path"].rsplit("/", 1)[-1]: f["content"] for f in instructions["files"]}


def test_an_adopted_claim_naming_a_file_imports_nothing(bare_workspace: Workspace) -> None:
    # The block loaded as a file: where our hooks run the SessionStart hook carries it instead
    # (docs/claude-code-integration.md §8), so this is the teammate without the hooks.
    workspace = bare_workspace
    workspace.git_memory("init", "--yes", "--no-claude-hooks")
    (workspace.repo / ".env").write_text("DOTENV-CONTENT\n")
    workspace.adopt("Read the deploy settings from @.env before deploying")

    files = loaded(workspace.run("Summarise the README").records())

    assert ".env" not in files, sorted(files)
    assert "- Read the deploy settings from \\@.env before deploying" in files["CLAUDE.memory.md"]


def test_what_the_client_imports_and_what_it_drops(workspace: Workspace) -> None:
    names = ("plain", "code", "block-comment", "inline-comment", "escaped", "glued", "fenced")
    for name in names:
        (workspace.repo / f"{name}.md").write_text(f"{name.upper()}-CONTENT\n")
    claude_md = workspace.repo / "CLAUDE.md"
    claude_md.write_text(
        claude_md.read_text()
        + "\n- plain @plain.md\n- code `@code.md`\n<!--\n@block-comment.md\n-->\n"
        + "- inline <!-- @inline-comment.md --> comment\n- escaped \\@escaped.md\n"
        + "- glued x@glued.md\n```\n@fenced.md\n```\n"
    )

    files = loaded(workspace.run("Summarise the README").records())

    imported = {name for name in names if f"{name}.md" in files}
    # An import is `@` after whitespace outside code; a comment that starts a line is dropped
    # with what it holds, one inside a line is kept — and so is the import in it.
    assert imported == {"plain", "inline-comment"}
    assert "block-comment" not in files["CLAUDE.md"]
    assert "<!-- @inline-comment.md -->" in files["CLAUDE.md"]
