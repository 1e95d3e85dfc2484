"""The precision policy of typed extraction (issue 28): a typed statement becomes an atom only
when it reads as a durable rule or fact on its own. Each shape below is one that produced false
atoms on people the rules had never seen (our own wordings, not theirs); each must yield
nothing, while the durable statements next to them still do."""

from __future__ import annotations

import pytest

from agent_memory.extract.pipeline import extract_claims

NOT_DURABLE = [
    # fragments with no object once the sentence is cut
    "Prefer that one",
    "Use the app",
    "Never have to think about it",
    "Never do anything",
    # requirements of the task at hand
    "each card should show a due date",
    "Every item in the list should have a delete button",
    "All rows must be sortable by date",
    "Each page should load in under 2 seconds",
    "nothing else should change",
    "keep the version I wrote",
    "don't touch the other files",
    "only change the css",
    "Use the same format as before",
    # hypotheticals and clauses lifted out of a question
    "if it were under src/ instead, would the import still work?",
    "What if we used redis instead of postgres?",
    # code state that expires with the task
    "the parser does not handle nested quotes",
    "the login page doesn't handle expired sessions",
    "The script doesn't work with spaces in paths",
    "the API returns 500 when the payload is empty",
    "I use the app every day",
    # emphatic correction chatter
    "nope nope, wrong file",
    "no no no, that's the wrong function",
    # the same shapes in other languages: bound to this turn
    "不要停下来问我",
    "не трогай это сейчас",
    "Ne touche jamais à ça",
]

DURABLE = [
    ("Never push directly to main", "Never push directly to main"),
    ("We use poetry for dependency management", "Use poetry for dependency management"),
    ("I'm on Fedora now", "User is on Fedora now"),
    ("Every PR needs a changelog entry", "Every PR needs a changelog entry"),
    (
        "Safari doesn't support the Web Bluetooth API",
        "Safari does not support the Web Bluetooth API",
    ),
    ("The build fails when NODE_ENV is unset.", "The build fails when NODE_ENV is unset"),
    (
        "Docker crashes on Windows when the path has spaces",
        "Docker crashes on Windows when the path has spaces",
    ),
    ("永远不要直接推送到 main 分支", "Never: 永远不要直接推送到 main 分支"),
    ("Nunca use npm neste projeto", "Never: Nunca use npm neste projeto"),
]


@pytest.mark.parametrize("text", NOT_DURABLE)
def test_what_is_not_a_durable_statement_yields_nothing(text: str) -> None:
    assert extract_claims(text) == [], text


@pytest.mark.parametrize(("text", "claim"), DURABLE)
def test_durable_statements_beside_them_still_yield_their_claim(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]
