"""English precision by sentence structure (notes/28-en5.md): a choice, preference or fact said
as part of the work asked for in the same message is that work's pick, not a standing rule. Each
case is our own paraphrase of a shape; the same grammar said on its own still yields."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims


def _claims(text: str) -> list[str]:
    return [c.claim for c in extract_claims(text)]


# "I want to use X" / "we will (also) use X" inside a longer message or a question: a pick for the
# work at hand.
PLAN_OF_THE_TASK = [
    "I want to use Zod for validation. What does safeParse return?",
    "I want to use Zod for validation, can you do that?",
    "We will also use sqlite for the cache part. Keep the answer short",
    "We will use both the old helpers and a small local model. Think hard about the edge cases "
    "and propose a design.",
    "Fine. Is the retry logic in the worker or in the client? I would stick with the builder "
    "style where it fits.",
    # a step through the work is no move to another tool (fresh9, an audit pool of strangers)
    "Let's move to Phase 4.",
    "Let's move to Phase 4 and wire up the edit form.",
    "let's switch to the next task",
    "We'll move to phase two next week.",
]


@pytest.mark.parametrize("text", PLAN_OF_THE_TASK)
def test_plan_said_with_the_work_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("We'll use Postgres for the job queue.", "Postgres"),
        ("We are going to use vitest, update the config accordingly.", "vitest"),
        ("From now on we will use pnpm. Set it up in the repo.", "pnpm"),
        ("I want to use pnpm.", "pnpm"),
        ("let's switch to pnpm", "pnpm"),
        ("We'll move to Postgres next month.", "Postgres"),
        # a tool or a style whose name is a noun of the work's parts is still a move
        ("Let's switch to tabs.", "tabs"),
        ("let's switch to file-based routing", "file-based routing"),
    ],
)
def test_plan_said_on_its_own_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


# A choice whose object is the assistant, the speakers, or the assistant's proposal of this turn
# names no thing chosen: "go with your plan" accepts what was just offered.
NO_THING_CHOSEN = [
    "alright, go with your approach, then run the linter",
    "ok, stick with your plan and update the readme",
    "I want to use you, but you cannot open the browser it seems.",
    "right, the old file is gone now; so let's not confuse ourselves.",
]


@pytest.mark.parametrize("text", NO_THING_CHOSEN)
def test_choice_of_no_thing_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Go with the repository pattern for data access.", "repository pattern"),
        ("Never repeat yourself in answers.", "repeat yourself"),
    ],
)
def test_choice_of_a_thing_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


# A place whose subject is no noun phrase: a request or a hypothesis ("assume X is in …",
# "review where we are in …"), or the one just picked among those shown ("the right one is in …").
NOT_A_PLACE_OF_A_THING = [
    "let's plan it first; assume the sync script is in ~/bin/tools ; how could this work for every repo?",
    "review where we are in @roadmap.md and then write a todo list",
    "oops the right one is in src/handlers/user_handler.py, drop the other import",
]


@pytest.mark.parametrize("text", NOT_A_PLACE_OF_A_THING)
def test_location_without_a_thing_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Remember the notes vault is in ~/Documents/vault", "~/Documents/vault"),
        ("Integration tests are in tests/integration/", "tests/integration"),
        ("Config files live in ~/.config/myapp", "~/.config/myapp"),
    ],
)
def test_location_of_a_thing_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


# How the thing at hand is this minute, not a fact to keep: "not only … (but also)" adds a case
# and contrasts nothing; an adverb or "too" before the state ("not sufficiently documented",
# "barely readable", "too slow") grades the artefact being worked on.
STATE_OF_THE_MOMENT = [
    "The thumbnails are rendered fine not only in dark mode. Can you explain why?",
    "the thumbnails are shown correctly not only on staging",
    "the command is not sufficiently documented; it should link the guide",
    "the script is barely readable, please rewrite it",
]


@pytest.mark.parametrize("text", STATE_OF_THE_MOMENT)
def test_state_of_the_moment_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("The deploy target is fly.io, not heroku", "fly.io"),
        ("The icon library is an npm package, not a symlink to ../icons", "npm package"),
        ("The package manager is pnpm", "pnpm"),
    ],
)
def test_fact_of_the_setup_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


# "always/never" before a verb in its third-person form describes what the code does ("the test
# references nn but never imports it"), it orders nothing.
CODE_BEHAVIOUR = [
    "The loader references yaml but never imports it, causing an ImportError.",
    "The builder fills the list but always returns an empty one, which breaks the page.",
]


@pytest.mark.parametrize("text", CODE_BEHAVIOUR)
def test_what_the_code_always_does_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Never pass secrets in URLs.", "pass secrets"),
        ("Always address the reviewer by name.", "address the reviewer"),
        ("Always focus on the failing test first.", "focus"),
        ("Never import from src directly.", "import from src"),
    ],
)
def test_always_never_orders_still_yield(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


# "let's go with the simplest route": a pick graded among the ways just weighed names no tool.
GRADED_PICKS = [
    "alright, let's go with quick fixes",
    "let's go with minimal changes",
]


@pytest.mark.parametrize("text", GRADED_PICKS)
def test_graded_pick_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("let's go with django rest framework", "django rest framework"),
        ("let's go with PostgreSQL", "PostgreSQL"),
    ],
)
def test_named_pick_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


# "remember <a thing>" names a thing and says nothing of it; "remember (that you) can X" grants
# leave for this work, it sets no rule.
REMEMBER_NO_STATEMENT = [
    "Remember the billing module",
    "remember that you are in charge here and you can start the test agent.",
]


@pytest.mark.parametrize("text", REMEMBER_NO_STATEMENT)
def test_remember_without_a_statement_yields_nothing(text: str) -> None:
    assert _claims(text) == []


def test_remember_a_bare_thing_keeps_only_the_rule_beside_it() -> None:
    assert _claims("ok, remember the deployment part, and keep the logs short.") == [
        "Keep the logs short"
    ]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Remember that invoices go out on the first of the month.", "Invoices go out"),
        ("remember: the staging db is read-only", "read-only"),
    ],
)
def test_remember_a_statement_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


# "try to use X rather than Y": an attempt at this task with a tool, not a choice made.
def test_try_to_use_yields_nothing() -> None:
    assert _claims("try to use the canvas layer rather than custom drawing code") == []


def test_use_instead_said_plainly_still_yields() -> None:
    assert _claims("use the canvas layer rather than custom drawing code") != []
