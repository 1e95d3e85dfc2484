"""False atoms found out of fold (TUNE people scored without the rules only they support) and on
hand-judged strangers (notes/28-prec5.md): each case is our own paraphrase of the shape, never a
stranger's words. The step-of-work statement yields nothing; the standing statement of the same
grammar still yields its rule."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims


def _claims(text: str) -> list[str]:
    return [c.claim for c in extract_claims(text)]


# "without X-ing" hangs on the action asked for in the same breath: how that action is done.
WITHOUT_OF_A_STEP = [
    "nice work, now switch to async/await and tidy the syntax without changing existing retry logic",
    "without editing or deploying the service (people use it), read the healthcheck.sh script",
    "port the parser to rust without touching current callers",
]


@pytest.mark.parametrize("text", WITHOUT_OF_A_STEP)
def test_without_of_a_requested_step_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Always refactor without removing tests.", "removing tests"),
        ("From now on, work without pushing to remote branches.", "pushing"),
    ],
)
def test_without_said_to_last_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)
