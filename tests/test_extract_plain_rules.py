"""Rules said plainly, without "always" or "never", whose shape says they stand (issue 28: the
durable facts and rules said without a marker): a thing banned from the code or the repository,
a step on every commit or push, the language a kind of text is written in, what the user is
called, where they keep a kind of their things. Each is kept as an atom on its first mention,
wherever in a request it is said; the same words about the program being built are not."""

from __future__ import annotations

import pytest

from agent_memory.extract import durability
from agent_memory.extract.pipeline import extract_claims

STANDING = [
    ("the any type is banned from my codebase", "The any type is banned from the user's codebase", "directive.banned"),
    ("console.log is not allowed in committed code", "Console.log is not allowed in committed code", "directive.banned"),
    ("the generated folder is off limits", "The generated folder is off limits", "directive.banned"),
    ("Run the linter before every commit.", "Run the linter before committing", "directive.on_every_event"),
    ("Fix the login bug. Also rebase on main before each push.", "Rebase on main before pushing", "directive.on_every_event"),
    ("commit messages must be in English", "Write commit messages in English", "preference.written_in"),
    ("Fix the header. Code comments should always be written in German.", "Write code comments in German", "preference.written_in"),
    ("call me Sam", "Call the user Sam", "preference.call_me"),
    ("I keep my notes in Obsidian", "User keeps their notes in Obsidian", "situation.keeps_in"),
    ("I keep my passwords in 1Password", "User keeps their passwords in 1Password", "situation.keeps_in"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "claim", "rule"), STANDING)
def test_a_plain_standing_rule_is_an_atom_on_its_first_mention(text: str, claim: str, rule: str) -> None:
    got = [(c.claim, c.rule) for c in extract_claims(text)]
    assert got == [(claim, rule)]
    model = durability.packaged_model()
    assert durability.verdict(text, claim, rule, model) == durability.KEEP


NOT_STANDING = [
    "free text is not allowed, so any record without a date goes to the end",  # a form's field
    "I got 403 forbidden from the site",
    "it is not allowed",
    "add a log line before every request",  # what the program does on each request
    "call me when it is done",
    "I keep my answers short",
    "I keep my code in a separate branch for now",
    "the error messages should be in French",  # the program's text, not the user's writing
]


@pytest.mark.parametrize("text", NOT_STANDING)
def test_the_same_words_about_the_program_or_this_moment_are_not(text: str) -> None:
    assert extract_claims(text) == []
