"""A typed prompt opened by "# ": older Claude Code kept such a line as a memory, and people still
type it out of habit after newer versions began sending it on as an ordinary prompt. The line is
read as a note asked to be kept (its rules stand, the durability gate does not drop them); a
heading of a longer markdown message, or a task typed after "#", gives nothing. Sentences ours."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import typed_transcript

from agent_memory.extract.durability import candidate_features, exempt
from agent_memory.extract.filters import MEMORY_SHORTCUT
from agent_memory.extract.pipeline import extract_transcript
from agent_memory.extract.statement import extract_claims


def _claims_of_transcript(tmp_path: Path, texts: list[str]) -> list[str]:
    return [a["claim"] for a in extract_transcript(typed_transcript(tmp_path, *texts), "proj").atoms]


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("# never use 'any' for type declarations", "Never use 'any' for type declarations"),
        ("#  we deploy on fly.io", "We deploy on fly.io"),
        ("# the staging db listens on port 5433", "The staging db listens on port 5433"),
    ],
)
def test_a_hash_line_is_a_note_kept_past_the_gate(tmp_path: Path, text: str, claim: str) -> None:
    assert _claims_of_transcript(tmp_path, [text]) == [claim]
    # the gate's reason: the note says itself it is to be kept, as "remember" does
    assert exempt(candidate_features(text, claim, "fact.we_verb"))


def test_without_the_hash_the_gate_still_judges_a_plain_fact(tmp_path: Path) -> None:
    # the same fact typed plainly is not exempt: the shortcut is what asked to keep it
    plain = "the staging db listens on port 5433"
    assert not exempt(candidate_features(plain, "The staging db listens on port 5433", "fact.lexicon"))


@pytest.mark.parametrize(
    "text", ["# fix the login bug", "# use the new client in checkout", "# TODO", "# Step 2"]
)
def test_a_task_or_a_title_after_the_hash_gives_nothing(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "# Deploy notes\n\nthe staging db listens on port 5433",  # a markdown heading: a document
        "#123 the staging db listens on port 5433",  # an issue number
        "#!/bin/sh",
    ],
)
def test_only_one_line_opened_by_hash_and_a_blank_is_the_shortcut(text: str) -> None:
    assert not MEMORY_SHORTCUT.match(text)
    assert not exempt(candidate_features(text, "The staging db listens on port 5433", "fact.lexicon"))


# "add to your memory that X": the same request in words; the rules read its framing, and the gate
# must not judge X as if it were said in passing
@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "add to your memory that the QA instance is in https://qa.example.net/home",
            "The QA instance is in https://qa.example.net/home",
        ),
        ("save to memory: the api lives in services/api", "The api lives in services/api"),
    ],
)
def test_a_memory_request_in_words_passes_the_gate(tmp_path: Path, text: str, claim: str) -> None:
    assert _claims_of_transcript(tmp_path, [text]) == [claim]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("add to your memory that using the template with the linter is very helpful", "preference"),
        ("remember: running the tests with -x works better", "preference"),
        ("remember that staging and prod share one Redis", "fact"),
    ],
)
def test_a_kept_judgement_of_a_way_of_working_is_a_preference(text: str, kind: str) -> None:
    assert [c.kind for c in extract_claims(text)] == [kind]
