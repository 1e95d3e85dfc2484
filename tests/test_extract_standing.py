"""A constraint is kept only when it reads as a standing rule, not as a bound on the piece of
work asked for in the same statement (agent_memory/extract/standing.py). Own paraphrases of the
shapes seen on people the rules were never written from; no transcript text."""

from __future__ import annotations

import pytest

from agent_memory.extract.standing import Shape, carries_over
from agent_memory.extract.statement import extract_claims


def _constraints(text: str) -> list[str]:
    return [c.claim for c in extract_claims(text) if c.kind == "constraint"]


@pytest.mark.parametrize(
    "text",
    [
        # one line of a longer request for work
        "Please refactor the importer and split it into two modules. Do not add new dependencies."
        " Then run the tests.",
        # the other sentence asks for the work this one bounds
        "Please split the parser up a bit. Each node type should have its own file.",
        "Go through the settings screen. Don't remove the feature flags we still need.",
        # the work is asked first in the same sentence
        "Continue with the migration and do not edit the env file.",
        "Can you rewrite the docs without changing the commands?",
        # a piece of the thing being worked on
        "Don't move the sidebar layout.",
        "Don't touch the header component.",
    ],
)
def test_a_bound_on_this_work_is_not_a_rule(text: str) -> None:
    assert _constraints(text) == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # said on its own
        ("Do not add new dependencies.", "Never add new dependencies"),
        (
            "Don't mock the database in tests. We got burned when mocked tests passed.",
            "Never mock the database in tests",
        ),
        # said to last, whatever is around it
        (
            "Rewrite the importer. Remove the old cache. From now on, don't use pickle for caching.",
            "Never use pickle for caching",
        ),
        (
            "Do not add new dependencies unless I ask. Now update the importer.",
            "Never add new dependencies unless the user asks",
        ),
        (
            "Fix the login page. Update the styles. Don't run git commands on your own.",
            "Never run git commands on your own",
        ),
        ("Let's not use lodash.", "Never use lodash"),
        (
            "Make sure every endpoint has an auth check.",
            "Make sure every endpoint has an auth check",
        ),
    ],
)
def test_a_standing_rule_is_kept(text: str, claim: str) -> None:
    assert _constraints(text) == [claim]


def test_the_users_own_stance_is_not_a_bound_on_the_work() -> None:
    text = (
        "Thanks. No, I don't want flatpak on my machines. So give me three other names for the"
        " tool. Keep them short."
    )
    assert _constraints(text) == ["User does not want flatpak on their machines"]


def test_other_kinds_and_language_rules_pass_untouched() -> None:
    text = (
        "Fix the login page and update the styles. By the way, I'm on Fedora. Then run the tests."
    )
    assert [(c.claim, c.kind) for c in extract_claims(text)] == [("User is on Fedora", "fact")]
    long_request = "Fix the login page. Update the styles. 以后都不要使用 npm，用 pnpm。"
    assert [c.rule for c in extract_claims(long_request)] == ["language.from_now_on"]


def test_carries_over_reads_constraints_and_preferences() -> None:
    around = Shape(("Fix the page.", "Update the styles.", "Use Redis for caching."))
    said = "Use Redis for caching."
    assert carries_over("Use Redis for caching", "decision", "decision.shape", said, 2, around)
    assert carries_over("Redis is the cache", "fact", "fact.lexicon", said, 2, around)
    # a preference said as a step of the work asked for (tests/test_extract_steps.py)
    assert not carries_over(
        "Use Redis for caching", "preference", "preference.use", said, 2, around
    )
    assert not carries_over("Never use Redis", "constraint", "directive.negative", said, 2, around)
    alone = Shape((said,))
    assert carries_over("Use Redis for caching", "preference", "preference.use", said, 0, alone)


@pytest.mark.parametrize(
    "text",
    [
        "This is a side question, we will move to the other endpoints after.",
        "We'll switch to the next step once the build is green.",
    ],
)
def test_a_decision_about_the_next_step_of_the_talk_is_not_a_decision(text: str) -> None:
    assert [c for c in extract_claims(text) if c.kind == "decision"] == []


def test_a_named_move_is_still_a_decision() -> None:
    assert [(c.claim, c.kind) for c in extract_claims("We will migrate to PostgreSQL.")] == [
        ("Migrate to PostgreSQL", "decision")
    ]


def test_a_rule_inside_quotes_is_a_drafted_prompt_not_the_users_rule() -> None:
    text = (
        'Help me polish the prompt I give my agents: "You ship small changes with tests. '
        'Never break the build. Always write the changelog."'
    )
    assert _constraints(text) == []
    assert _constraints('Always use "double quotes" for strings.') != []
    assert _constraints('He asked about "the parser". Never log user passwords.') != []


def test_a_rule_of_a_pasted_report_is_not_the_users_rule() -> None:
    text = (
        "The report still lists open items. For example: ## Next actions\n\n"
        "1. **Always run the suite before claiming completion**\n2. **Keep this report current**"
    )
    assert _constraints(text) == []


def test_a_correction_that_asks_for_work_first_bounds_that_work() -> None:
    assert _constraints("no do a quick scan of the logs, dont delete old logs") == []
    assert _constraints("No emojis in commit messages.") == ["Never add emojis in commit messages"]


def test_a_bound_dropped_from_a_sentence_keeps_its_standing_neighbour() -> None:
    # each clause is judged before the clauses of one sentence are joined into one line
    text = (
        "Please refactor the importer. Then run the tests. We use poetry for dependency"
        " management, don't change the lockfile."
    )
    assert [(c.claim, c.kind) for c in extract_claims(text)] == [
        ("Use poetry for dependency management", "preference")
    ]


def test_every_rule_of_a_memory_note_stands() -> None:
    note = "Don't use npm here. The registry is private. Run the tests before pushing."
    assert _constraints(note) == []
    memory = [c.claim for c in extract_claims(note, origin="memory") if c.kind == "constraint"]
    assert memory == ["Never use npm"]
