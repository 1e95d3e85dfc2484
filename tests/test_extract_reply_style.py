"""How Claude should talk to the user, said of its own replies ("keep your answers short", "be
concise", "use plain language"): a preference about every answer, kept even unmarked. Our own
sentences. Look-alikes about the artifact of the task ("keep the function short", "be concise in
the README") are not reply style."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims

STYLE = [
    ("Keep your answers short.", "Keep your answers short"),
    ("i can't follow this, keep your language simple", "Keep your language simple"),
    ("Keep responses short and to the point.", "Keep responses short and to the point"),
    ("keep your answers short please", "Keep your answers short"),
    ("Use plain language.", "Use plain language"),
    ("Talk to me in simple terms.", "Talk to the user in simple terms"),
]


@pytest.mark.parametrize(("text", "claim"), STYLE)
def test_reply_style_is_a_preference(text: str, claim: str) -> None:
    got = [(c.claim, c.kind, c.rule) for c in extract_claims(text)]
    assert got == [(claim, "preference", "situation.reply_style")]


@pytest.mark.parametrize(
    "text",
    [
        "keep the function short",
        "keep the test names simple and descriptive",
        "make the summary shorter",
        "keep the answer short",
        # what the task writes: its messages, its wording, the summary asked for
        "Add logging to the worker, keep the messages short",
        "Translate the UI strings; keep the wording simple.",
        "Write a summary for the PR. Be concise.",
    ],
)
def test_the_artifact_of_the_task_is_not_reply_style(text: str) -> None:
    assert all(c.rule != "situation.reply_style" for c in extract_claims(text))


def test_be_concise_in_a_document_stays_with_its_document() -> None:
    assert [c.rule for c in extract_claims("be concise in the README")] == ["situation.be_style"]
