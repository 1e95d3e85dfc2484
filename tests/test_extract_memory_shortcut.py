"""A typed prompt opened by "# ": older Claude Code kept such a line as a memory, and people still
type it out of habit after newer versions began sending it on as an ordinary prompt. The line is
read as a note asked to be kept (its rules stand, the durability gate does not drop them); a
heading of a longer markdown message, or a task typed after "#", gives nothing. Sentences ours."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import typed_transcript

from agent_memory.extract.durability import candidate_features, exempt
from agent_memory.extract.filters import MEMORY_SHORTCUT, memory_note
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


# the note stands past the gate, but the rules still judge what it says: a request of this turn,
# a question or a guess typed after "#" is no note (the same line without "#" gives nothing)
@pytest.mark.parametrize(
    "text",
    [
        "# continue with the upgrade and do not edit the .env file",
        "# I want to use zod, what does it do?",
        "# we will use redis here, can you set it up?",
        "# split the parser up. each node type should have its own file.",
        "# I think we are using the v2 api",
    ],
)
def test_the_rules_still_judge_a_hash_line(text: str) -> None:
    assert extract_claims(text) == []


# a line that asks for this turn's work is no note: the gate judges what it states as said plainly
@pytest.mark.parametrize(
    "text",
    [
        "# we bundle with webpack currently, let's switch to vite",
        "# we deploy with an old helm chart, could you update it?",
        "# we use moment.js currently, can we drop it?",
    ],
)
def test_a_hash_line_asking_for_work_is_no_note(tmp_path: Path, text: str) -> None:
    assert not memory_note(text)
    assert _claims_of_transcript(tmp_path, [text]) == []


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


# a comparison said of a thing (not of a way of working, nor "for me") states a property of it
@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("remember the crash is easier to reproduce on firefox", "fact"),
        ("remember that node 20 works better with the arm build", "fact"),
        ("remember that our users are better served by the mobile app", "fact"),
        ("remember that feature flags are the way to go for risky changes", "preference"),
        ("add to your memory that writing the test first works better for me", "preference"),
    ],
)
def test_a_kept_comparison_of_a_thing_is_a_fact(text: str, kind: str) -> None:
    assert [c.kind for c in extract_claims(text)] == [kind]


# "memory", "preferences", "rules", "notes" heading a longer name (the memory table, the
# preferences screen) is a thing of the code: no request to keep, and no exemption from the gate
@pytest.mark.parametrize(
    "text",
    [
        "add to the preferences screen a toggle for dark mode",
        "store in the memory table the last seen timestamp",
        "add it to the memory cache, the lookup is slow",
        "add that to the rules list in the firewall config",
    ],
)
def test_a_memory_word_heading_a_name_is_no_request(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "save it as a rule in the eslint config",
        "add this to your memory in the project section",
        "add that to CLAUDE.md in the conventions part",  # a plural noun, no verb
    ],
)
def test_a_memory_request_naming_only_where_to_keep_it_gives_nothing(text: str) -> None:
    # the rule was said in another turn; what is left once the asking is read off is a place
    assert extract_claims(text) == []


def test_a_kept_statement_opened_by_a_place_still_stands() -> None:
    assert [c.claim for c in extract_claims("remember: in tests we never mock the db")] == [
        "In tests we never mock the db"
    ]


def test_a_kept_statement_opened_by_a_place_with_a_bare_verb_still_stands() -> None:
    # "use" carries no -s/-ed mark; the subject after the place says something is said there
    assert [c.claim for c in extract_claims("remember that in CI we use node 20")] == [
        "In CI we use node 20"
    ]


# A note no rule reads is kept as typed: the person asked for that line to be kept, as older
# Claude Code kept it (an instruction is a constraint, anything else a fact).
NOTES_AS_TYPED = [
    ("#mark finished items in TODO.md as done once they pass review",
     "Mark finished items in TODO.md as done once they pass review", "constraint"),
    ("#when running the formatter and the linter always do so from the repo root",
     "When running the formatter and the linter always do so from the repo root", "constraint"),
    ("# the mobile app is launched with the ios simulator script for manual checks",
     "The mobile app is launched with the ios simulator script for manual checks", "fact"),
    ("#このプロジェクトではテストをdockerで実行する", "Remember: このプロジェクトではテストをdockerで実行する", "fact"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "claim", "kind"), NOTES_AS_TYPED)
def test_a_note_no_rule_reads_is_kept_as_typed(tmp_path: Path, text: str, claim: str, kind: str) -> None:
    assert [(c.claim, c.kind) for c in extract_claims(text)] == [(claim, kind)]
    # an atom on one mention: the note asked for it
    assert _claims_of_transcript(tmp_path, [text]) == [claim]


@pytest.mark.parametrize(
    "text",
    [
        "#todo list",  # a tag: too short to say anything
        "#テスト",
        "# is the staging db on port 5433 or 5432?",  # a question
        "# look into the flaky login test later today",  # this turn's task
        "# Notes from the standup meeting today",  # a title: nothing said of anything
    ],
)
def test_a_short_line_a_question_or_a_task_is_not_kept_as_typed(text: str) -> None:
    assert extract_claims(text) == []
