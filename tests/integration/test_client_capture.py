"""SessionEnd capture from the real client's own transcripts: the prompts a person typed
become atoms, and nothing else the client writes does.

A 2.1.332 transcript repeats the typed text and carries a lot that is not the user's typing:
the prompt again in `queue-operation`, `last-prompt` and the `api-request-blob` copy of each
request (`message.role: "user"`, holding CLAUDE.md and every system reminder); CLAUDE.md as
loaded (`attachment/instructions`); our own hook output (`hook_success` with the hook's
stdout, `hook_additional_context`); and harness records (`prompt_snapshot`, `skill_listing`,
`agent_listing_delta`, `deferred_tools_delta`, `environment`, `model`, `session_context`,
`remote_session_change`, `atis-latch`, `cost-state`, `api-request-shape`, `system/api_error`,
…). Rule-like canaries are planted in each of those paths, and the atoms are listed: every
piece of evidence must point at a `user` record holding a prompt we typed.

Here the API call is refused, so the model never acts; sessions in which it does (tool calls,
a refusal with a typed reason, a subagent, compaction) run against a scripted model in
test_client_tools.py, test_client_denial.py, test_client_subagent.py and
test_client_compaction.py. See test_client_interactive.py for the `#` note."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from .client import (
    Workspace,
    evidence,
    hook_contexts,
    read_records,
    record_kinds,
    typed_prompt_lines,
)

pytestmark = pytest.mark.claude_client

NEVER_PUSH = "Never push directly to main"
NO_MOCKS = "Do not use mocks in integration tests."
STABLE_API = "Keep the public API backwards compatible."
QUESTION = "What does this repository do?"
PUSH_QUESTION = "Can I push this change to main now?"
DURABLE = (NEVER_PUSH, NO_MOCKS, STABLE_API)
TYPED = (*DURABLE, QUESTION, PUSH_QUESTION)

# Rule-shaped text that reaches the transcript without being typed in it.
USER_MD_RULE = "Always write commit messages in the imperative mood."
ADOPTED = "Use pnpm, not npm, for installs"

# What the pinned client wrote in these sessions (docs/claude-client-records.md says what each
# is to agent-memory). A new client version may change the list: update it with the pin.
RECORD_KINDS_2_1_332 = {
    "user",
    "assistant",
    "queue-operation",
    "last-prompt",
    "atis-latch",
    "cost-state",
    "mode",
    "api-request",
    "api-request-shape",
    "api-request-blob",
    "system/api_error",
    "attachment/instructions",
    "attachment/hook_success",
    "attachment/hook_additional_context",
    "attachment/prompt_snapshot",
    "attachment/skill_listing",
    "attachment/agent_listing_delta",
    "attachment/deferred_tools_delta",
    "attachment/environment",
    "attachment/model",
    "attachment/session_context",
    "attachment/remote_session_change",
    "attachment/date",
}


def _blob_texts(records: Sequence[Mapping[str, Any]]) -> str:
    """The user-role text of every `api-request-blob`: what the client sent as the user turn."""
    texts = []
    for record in records:
        message = record.get("message")
        if record.get("type") != "api-request-blob" or not isinstance(message, Mapping):
            continue
        if message.get("role") == "user" and isinstance(message.get("content"), list):
            texts += [b.get("text", "") for b in message["content"] if isinstance(b, Mapping)]
    return "\n".join(texts)


def test_session_end_turns_typed_prompts_into_atoms_and_nothing_else(
    workspace: Workspace,
) -> None:
    user_md = workspace.config_dir / "CLAUDE.md"
    user_md.write_text(user_md.read_text("utf-8") + f"\n{USER_MD_RULE}\n", "utf-8")
    workspace.adopt(ADOPTED)  # SessionStart now injects it: hook output in every transcript
    before = {a["id"]: a for a in workspace.atoms()}

    # One retry, so the refused call is also recorded as a `system/api_error` record.
    workspace.run(NEVER_PUSH, retries=1)
    workspace.wait_for_captures()  # the recall below needs this atom stored
    workspace.run([NO_MOCKS, QUESTION])  # two prompts in one session (stream-json input)
    asked = workspace.run(PUSH_QUESTION)
    assert NEVER_PUSH in "\n".join(hook_contexts(asked.records(), "UserPromptSubmit"))
    workspace.run(STABLE_API, resume=asked.session_id)  # appends to the same transcript
    workspace.wait_for_captures()

    transcripts = {run.session_id: run.transcript for run in workspace.runs}
    records = {sid: read_records(path) for sid, path in transcripts.items()}
    everything = [r for rs in records.values() for r in rs]
    # The canaries really are in the transcripts, where the reader must not learn from them.
    assert USER_MD_RULE in _blob_texts(everything)
    assert ADOPTED in "\n".join(hook_contexts(everything, "SessionStart"))
    missing = RECORD_KINDS_2_1_332 - set(record_kinds(everything))
    assert not missing, sorted(missing)

    after = {a["id"]: a for a in workspace.atoms()}
    # What was there before (the adopted line's atom) gained nothing from its own injection.
    assert {i: after[i] for i in before} == before
    new = [atom for i, atom in after.items() if i not in before]
    found = evidence(new)
    typed_lines = {sid: typed_prompt_lines(rs, TYPED) for sid, rs in records.items()}
    # Every piece of new evidence is a line holding a prompt we typed …
    for atom_id, sid, line in found:
        assert line in typed_lines.get(sid, set()), (after[atom_id]["claim"], sid, line)
    # … and each statement made exactly one atom, each question none.
    statement_lines = {
        (sid, line) for sid, rs in records.items() for line in typed_prompt_lines(rs, DURABLE)
    }
    assert sorted((sid, line) for _, sid, line in found) == sorted(statement_lines)
    assert len(new) == len(DURABLE), [a["claim"] for a in new]
    assert workspace.errors_log() == []

    # The catch-up path reads the same transcripts to the same atoms: nothing new, no merge.
    backfill = workspace.git_memory_json("capture", "--all")
    assert (backfill["new"], backfill["merged"], backfill["failed"]) == (0, 0, 0), backfill
    assert {a["id"]: a for a in workspace.atoms()} == after
