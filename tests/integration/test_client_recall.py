"""UserPromptSubmit recall, as the real client delivers it: a candidate learned in an earlier
session arrives next to a related prompt as a `hook_additional_context` attachment; an
unrelated prompt gets nothing; adopted memory is not repeated as a candidate."""

from __future__ import annotations

import re

import pytest

from .client import Workspace, hook_contexts

pytestmark = pytest.mark.claude_client

NEVER_PUSH = "Never push directly to main"
PNPM = "Use pnpm, not npm"
ADOPTED = "Use pnpm, not npm, for installs"


def _learn(ws: Workspace, *statements: str) -> None:
    """Real sessions in which a person says it, captured by SessionEnd."""
    for statement in statements:
        ws.run(statement)
    ws.wait_for_captures()
    claims = {a["claim"] for a in ws.atoms()}
    assert set(statements) <= claims, claims


def _recalled(ws: Workspace, prompt: str) -> str:
    return "\n".join(hook_contexts(ws.run(prompt).records(), "UserPromptSubmit"))


def _mentions(context: str, claim: str) -> bool:
    """The claim as a whole item, whatever decorates it ("- [kind] …", "(seen in 2 sessions)"),
    and not as the start of a longer one: "Use pnpm, not npm" is not in "Use pnpm, not npm,
    for installs"."""
    return re.search(rf"(?<![\w,]){re.escape(claim)}(?![\w,])", context) is not None


def test_a_related_prompt_gets_the_candidate(workspace: Workspace) -> None:
    _learn(workspace, NEVER_PUSH)

    assert _mentions(_recalled(workspace, "Can I push this change to main now?"), NEVER_PUSH)
    assert workspace.errors_log() == []


def test_an_unrelated_prompt_gets_nothing(workspace: Workspace) -> None:
    _learn(workspace, NEVER_PUSH, PNPM)

    assert _recalled(workspace, "Explain what a Fourier transform is") == ""
    assert workspace.errors_log() == []


def test_a_candidate_restating_an_adopted_line_is_not_recalled(workspace: Workspace) -> None:
    workspace.adopt(ADOPTED)
    _learn(workspace, PNPM)

    recalled = _recalled(workspace, "Which package manager should I use to install dependencies?")
    assert not _mentions(recalled, PNPM)
