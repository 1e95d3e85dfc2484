"""Statements cut where the user ran them on (issue 28's misses): a statement said straight
before a question with no comma between, and a clause of the user's own run on into another
one. Sentences are our own paraphrases of the shapes, not anyone's prompts."""

from __future__ import annotations

import pytest

from agent_memory.extract.pipeline import extract_claims


def _claims(text: str) -> list[str]:
    return [c.claim for c in extract_claims(text)]


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # the statement before a question asked with no comma between
        (
            "we have 2 netlify sites behind this shop do I have to repeat it for both sites?",
            "User has 2 Netlify sites",
        ),
        (
            "I have Podman already installed should I still add Docker Desktop?",
            "User has Podman installed",
        ),
        ("i don't have a Mac so how do I build the iOS app?", "User does not have a Mac"),
        # a clause of the user's own run on into another, no mark between
        ("the scripts run fine on my side I use volta", "User uses volta"),
        (
            "where do the logs go on my desktop I'm using Podman with fish",
            "User uses Podman with fish",
        ),
        # an aside of the user's own ends the statement before it
        (
            "I have Podman already installed on my work laptop I know the docs changed?",
            "User has Podman installed on their work laptop",
        ),
        (
            "i'm using Podman with fish i know the path part is broken",
            "User uses Podman with fish",
        ),
        # a question run on after the statement without its mark
        ("i have podman installed how would we run the db in it", "User has podman installed"),
    ],
)
def test_statement_cut_from_run_on(text: str, claim: str) -> None:
    assert claim in _claims(text)


@pytest.mark.parametrize(
    "text",
    [
        # the question part stays a question; a case, a doubt or a wish before it stays out
        "if I have Podman installed should I still add Docker Desktop?",
        "I wonder whether we have 2 netlify sites do I have to repeat it?",
        "I think I have Podman installed should I remove it?",
        # relative clauses: the verb's object is the noun before it
        "the tools I use daily are Slack and Linear",
        "Update the docs we are using to onboard people",
        "the token we have is expired again",
        # the state of the moment about to change, a view of another, a negated lead
        "rework the layout in the admin page now we are using a sidebar menu",
        "the app thinks I'm using Firefox",
        "there is no way we are using Mongo for this",
    ],
)
def test_no_statement_from_question_or_relative_clause(text: str) -> None:
    facts = [c for c in extract_claims(text) if c.kind == "fact"]
    assert facts == []
