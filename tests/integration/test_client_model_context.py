"""What the model is shown, read from the request bodies the scripted model received: every
line our memory holds reaches the model once, and an empty tier adds nothing.

Which path carries memory (docs/claude-code-integration.md §8): where our SessionStart hook
runs, it does — budgeted, global before project, guarded, contradictions marked — and `init`
tells the client not to load the same blocks again through the `@…CLAUDE.memory.md` imports
(`claudeMdExcludes` in the machine's own `.claude/settings.local.json`). Where the hooks are not
installed (a teammate without agent-memory, `init --no-claude-hooks`), the imports carry them.
Before this, an adopted line reached the first request twice: once as project instructions
through the import, once in the hook's context.

The client's git status snapshot lists recent commit subjects, and an adopt commit's subject
is the adopted line; that snapshot is the client quoting git history, not a memory path, so
it is left out of the counts."""

from __future__ import annotations

import re

import pytest

from .client import Workspace, attachments, hook_contexts
from .scripted_model import Received, ScriptedModel

pytestmark = pytest.mark.claude_client

PROJECT_LINE = "Use pnpm, not npm, for installs"
GLOBAL_LINE = "Prefer small, focused commits"
USER_MD_LINE = "Answer in British English."  # the person's own ~/.claude/CLAUDE.md
NEVER_PUSH = "Never push directly to main"
RELATED = "Can I push this change to main now?"
TITLES = ("## Project memory (agent-memory)", "## Global memory (agent-memory)")


def _shown(request: Received) -> str:
    """What the model was shown, without the client's git status snapshot."""
    return re.sub(r"# gitStatus\n.*?</system-reminder>", "", request.text(), flags=re.S)


def _session_requests(model: ScriptedModel, session_id: str) -> list[Received]:
    return [
        r for r in model.model_requests() if r.headers.get("x-claude-code-session-id") == session_id
    ]


def _loaded_files(records: list[dict[str, object]]) -> dict[str, str]:
    [loaded] = attachments(records, "instructions")
    return {f["path"]: f["content"] for f in loaded["files"]}


def test_every_memory_line_reaches_the_model_once(workspace: Workspace) -> None:
    user_md = workspace.config_dir / "CLAUDE.md"
    user_md.write_text(user_md.read_text("utf-8") + f"\n{USER_MD_LINE}\n", "utf-8")
    workspace.adopt(PROJECT_LINE)
    workspace.adopt(GLOBAL_LINE, global_=True)

    with workspace.scripted({"steps": []}) as model:
        workspace.run(NEVER_PUSH)
        workspace.wait_for_captures()  # the candidate the next prompt recalls
        asked = workspace.run(RELATED)

    [first] = _session_requests(model, asked.session_id)
    shown = _shown(first)
    # Each adopted line once (in the SessionStart context), the recalled candidate once (next
    # to the prompt), each tier's title once.
    for line in (PROJECT_LINE, GLOBAL_LINE, NEVER_PUSH, *TITLES):
        assert shown.count(line) == 1, (line, shown.count(line))
    records = asked.records()
    [context] = hook_contexts(records, "SessionStart")
    assert PROJECT_LINE in context and GLOBAL_LINE in context
    assert NEVER_PUSH in "\n".join(hook_contexts(records, "UserPromptSubmit"))
    # The client loaded both CLAUDE.md files, but neither memory file: the hook carries them.
    loaded = _loaded_files(records)
    assert not [p for p in loaded if p.endswith("CLAUDE.memory.md")], sorted(loaded)
    assert str(user_md) in loaded and shown.count(USER_MD_LINE) == 1
    assert workspace.errors_log() == []


def test_an_empty_tier_adds_nothing(workspace: Workspace) -> None:
    with workspace.scripted({"steps": []}) as model:
        nothing = workspace.run("Summarise the README")
        workspace.adopt(PROJECT_LINE)
        project_only = workspace.run("Summarise the README")

    [empty] = _session_requests(model, nothing.session_id)
    assert not any(s in _shown(empty) for s in ("<agent-memory>", *TITLES))  # no block at all
    [one] = _session_requests(model, project_only.session_id)
    shown = _shown(one)
    assert shown.count(PROJECT_LINE) == 1 and shown.count(TITLES[0]) == 1
    assert TITLES[1] not in shown  # the global tier holds nothing: not even its title
    assert workspace.errors_log() == []


def test_after_a_compaction_memory_arrives_once_again(workspace: Workspace) -> None:
    workspace.adopt(PROJECT_LINE)
    script = {
        "steps": [
            {
                "when": {"last_user_contains": "<summary>"},
                "content": [{"type": "text", "text": "<summary>We read the README.</summary>"}],
            }
        ]
    }

    with workspace.scripted(script) as model:
        workspace.run(["Summarise the README", "/compact", "What does it say about tests?"])

    after = model.model_requests()[-1]
    assert "We read the README." in after.text()  # the conversation restarted from the summary
    assert _shown(after).count(PROJECT_LINE) == 1


def test_without_our_hooks_the_imports_carry_memory_once(bare_workspace: Workspace) -> None:
    ws = bare_workspace
    ws.git_memory("init", "--yes", "--no-claude-hooks")
    ws.adopt(PROJECT_LINE)
    ws.adopt(GLOBAL_LINE, global_=True)

    with ws.scripted({"steps": []}) as model:
        run = ws.run("Summarise the README")

    [first] = _session_requests(model, run.session_id)
    shown = _shown(first)
    for line in (PROJECT_LINE, GLOBAL_LINE, *TITLES):
        assert shown.count(line) == 1, (line, shown.count(line))
    records = run.records()
    assert hook_contexts(records, "SessionStart") == []
    memory_files = [c for p, c in _loaded_files(records).items() if p.endswith("CLAUDE.memory.md")]
    assert len(memory_files) == 2
