"""English decisions said as a past choice (rules/preferences.py `_DECIDED`): "we decided not to
use X", "I decided against X", "we chose / picked X (for Y)" are choices like "we decided to use X"
and "we went with X"; a pick with nothing named, a determiner-led object or a non-policy verb is
not. Every sentence here is our own."""

from __future__ import annotations

import pytest

from agent_memory.extract.dispatch import clause_rules


def _hit(text: str) -> tuple[str, str, str] | None:
    return clause_rules(text, first_of_request=True, origin="prompt")


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("we decided not to use Moment.js", "Don't use Moment.js"),
        ("I decided against Kubernetes", "Don't use Kubernetes"),
        ("we agreed not to rely on Firebase", "Don't rely on Firebase"),
        ("we chose Fastify for the API", "Use Fastify for the API"),
        ("I picked Bun", "Use Bun"),
        ("we've selected Drizzle", "Use Drizzle"),
    ],
)
def test_a_past_choice_is_a_decision(text: str, claim: str) -> None:
    hit = _hit(text)
    assert hit is not None and hit[0] == claim and hit[2] == "decision.shape", (text, hit)


@pytest.mark.parametrize(
    "text",
    [
        "we decided not to do that",  # nothing named, and no policy verb
        "I picked the second option",  # a pick among what was offered
        "we chose the wrong approach",  # the thing at hand
        "I decided everything",  # no choice named
        "we decided against it",  # a pointer
    ],
)
def test_no_decision_without_a_named_choice(text: str) -> None:
    hit = _hit(text)
    assert hit is None or hit[2] != "decision.shape", (text, hit)


def test_the_choices_said_before_are_unchanged() -> None:
    assert _hit("we went with Postgres") == ("Use Postgres", "decision", "decision.shape")
    assert _hit("we decided to drop Redux") == ("Drop Redux", "decision", "decision.shape")
    assert _hit("we settled on pnpm") == ("Use pnpm", "decision", "decision.shape")
