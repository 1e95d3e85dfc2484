"""A must/should rule whose subject is a thing of the product being built is that product's spec,
the work at hand ("bookings should never overlap"); the same grammar about how the work is done
(commits, tests, agents, whoever runs the commands) is a standing rule. Cases are our own
paraphrases of the shape judged false on strangers (notes/28-spec.md)."""

from __future__ import annotations

import pytest

from agent_memory.extract.filters import product_spec
from agent_memory.extract.statement import extract_claims


def _claims(text: str) -> list[str]:
    return [c.claim for c in extract_claims(text)]


PRODUCT_SPECS = [
    "Invoices should always be rounded to two decimals.",  # subject + modal + always
    "Bookings should never overlap.",
    "Holidays should always block the calendar.",
    "Each lesson should only be visible to enrolled students.",  # each/all + modal
    "All invoices have to include the tax id.",  # quantified "have to"
]


@pytest.mark.parametrize("text", PRODUCT_SPECS)
def test_spec_of_the_product_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Commits should always be signed.", "signed"),
        ("All tests must use a real database.", "real database"),
        ("Operations should never touch the production cluster.", "production cluster"),
        ("Subagents should always use the cheaper model.", "cheaper model"),
        ("Every PR must target the develop branch.", "develop"),
        ("All migrations must be reversible.", "reversible"),
        ("Variable names should always be in English.", "English"),
        ("Jeeves should always confirm before deleting branches.", "confirm"),
    ],
)
def test_rule_on_how_the_work_is_done_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


def test_product_spec_reads_the_subject_then_the_verb() -> None:
    assert product_spec("Bookings", "never overlap")
    assert product_spec("reminders of the week", "be sent at noon")
    assert not product_spec("commit messages", "be short")
    assert not product_spec("Jeeves", "never ask before running tests")  # conduct verb
    assert not product_spec("src/legacy", "stay untouched")  # a path: a layout rule
