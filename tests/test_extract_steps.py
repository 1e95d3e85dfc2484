"""A preference is kept only when it reads as the user's standing choice, not as a step of the
piece of work asked for in the same statement, nor as a wish about the thing being worked on
(agent_memory/extract/standing.py `_preference_stands`). Own sentences, no transcript text."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims


def _preferences(text: str) -> list[str]:
    return [c.claim for c in extract_claims(text) if c.kind == "preference"]


@pytest.mark.parametrize(
    "text",
    [
        # a step between the work before and after it
        "Repair the trackpad mapping. The panel needs rotation 2. Use nix-shell -p xinput for all"
        " commands. Apply the rotation right away.",
        # the work is asked first in the same sentence
        "Do the items listed in the backlog and use ripgrep for code searches",
        "add the billing modules, check their imports and avoid cycles",
        # wishes about what this turn builds, with the change asked for next to them
        "now, I don't want an export button. I don't want dark mode, and I don't want tests,"
        " redo the plan.",
    ],
)
def test_a_step_of_this_work_is_not_a_preference(text: str) -> None:
    assert _preferences(text) == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # said on its own
        ("use nix-shell for every command", "Use nix-shell for every command"),
        ("Use ruff for linting.", "Use ruff for linting"),
        (
            "I don't want duplicated validation logic.",
            "User does not want duplicated validation logic",
        ),
        # said to last, whatever is around it
        (
            "Fix the login page. From now on, use pnpm for installs. Then run the tests.",
            "Use pnpm for installs",
        ),
        # how a kind of text is written holds for every later one
        (
            "Commit everything, use terse imperative commit messages",
            "Use terse imperative commit messages",
        ),
        # a taste is not an instruction, whatever is asked around it
        ("I like svelte. Please set up the router.", "User likes svelte"),
    ],
)
def test_a_standing_preference_is_kept(text: str, claim: str) -> None:
    assert claim in _preferences(text)
