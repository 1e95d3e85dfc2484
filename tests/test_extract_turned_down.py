"""A rule said in another language with the alternative turned down after it ("usa pnpm, no
npm", "мы используем pnpm, а не npm"): the "not" belongs to the alternative, so the English
label must not call the rule a prohibition. It did: "From now on, don't: De ahora en adelante
usa pnpm, no npm", "Don't: usamos pnpm e não npm" — the opposite of what was said, and recall
injects that label into Claude's context. A rule that is itself negated keeps its "Don't",
whether the negation opens it or (German, Russian) comes with a verb said last. Every sentence
here is our own."""

from __future__ import annotations

import pytest

from agent_memory.extract.rules.lang_negation import rule_negated
from agent_memory.extract.statement import extract_claims


def _claims(text: str) -> list[str]:
    return [c.claim for c in extract_claims(text)]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("De ahora en adelante usa pnpm, no npm.", "From now on:"),
        ("D'ora in poi usa pnpm, non npm.", "From now on:"),
        ("Ab jetzt bitte pnpm verwenden, nicht npm.", "From now on:"),
        ("Сохрани в память: мы используем pnpm, а не npm.", "Remember:"),
        ("Anote no CLAUDE.md que usamos pnpm e não npm.", "Remember:"),
        ("Speichere in deinem Gedächtnis, dass wir pnpm verwenden, nicht npm.", "Remember:"),
        ("以后用pnpm，不要用npm。", "From now on:"),
        # "von nun an" is "from now on" too (it gave nothing)
        ("Von nun an bitte pnpm verwenden, nicht npm.", "From now on:"),
    ],
)
def test_an_alternative_turned_down_does_not_make_the_rule_a_prohibition(text: str, label: str) -> None:
    claims = _claims(text)
    assert len(claims) == 1, claims
    assert claims[0].startswith(label) and "pnpm" in claims[0], claims
    assert "don't" not in claims[0].lower(), claims


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("De ahora en adelante no uses npm.", "From now on, don't:"),
        ("A partir de agora não use npm, use pnpm.", "From now on, don't:"),
        ("Ab jetzt bitte npm nicht verwenden.", "From now on, don't:"),
        ("Сохрани в память: не используй npm.", "Don't:"),
        ("Запомни: коммиты в main не пушить.", "Don't:"),
        ("以后不要用npm，用pnpm。", "From now on, don't:"),
        ("Von nun an bitte keine Emojis in Commits.", "From now on, don't:"),
    ],
)
def test_a_rule_that_is_itself_negated_stays_a_prohibition(text: str, label: str) -> None:
    claims = _claims(text)
    assert len(claims) == 1 and claims[0].startswith(label), claims


def test_only_the_end_of_a_long_rule_is_searched() -> None:
    """A long run of blanks and commas is no quadratic search, and the turned-down end of a long
    rule is still found."""
    assert rule_negated("не " + " " * 50_000 + "x") is True
    assert rule_negated("usa pnpm " + "y " * 5_000 + ", no npm") is False
