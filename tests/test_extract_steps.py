"""A preference is kept only when it reads as the user's standing choice, not as a step of the
piece of work asked for in the same statement, nor as a wish about the thing being worked on
(agent_memory/extract/standing.py `_preference_stands`). Own sentences, no transcript text."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims


def _preferences(text: str) -> list[str]:
    return [c.claim for c in extract_claims(text) if c.kind == "preference"]


@pytest.mark.parametrize(
    "text",
    [
        # a step between the work before and after it
        "Repair the trackpad mapping. The panel needs rotation 2. Use nix-shell -p xinput for all"
        " commands. Apply the rotation right away.",
        # the work is asked first in the same sentence
        "Do the items listed in the backlog and use ripgrep for code searches",
        "add the billing modules, check their imports and avoid cycles",
        # wishes about what this turn builds, with the change asked for next to them
        "now, I don't want an export button. I don't want dark mode, and I don't want tests,"
        " redo the plan.",
    ],
)
def test_a_step_of_this_work_is_not_a_preference(text: str) -> None:
    assert _preferences(text) == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # said on its own
        ("use nix-shell for every command", "Use nix-shell for every command"),
        ("Use ruff for linting.", "Use ruff for linting"),
        (
            "I don't want duplicated validation logic.",
            "User does not want duplicated validation logic",
        ),
        # said to last, whatever is around it
        (
            "Fix the login page. From now on, use pnpm for installs. Then run the tests.",
            "Use pnpm for installs",
        ),
        # how a kind of text is written holds for every later one
        (
            "Commit everything, use terse imperative commit messages",
            "Use terse imperative commit messages",
        ),
        # a taste is not an instruction, whatever is asked around it
        ("I like svelte. Please set up the router.", "User likes svelte"),
        # one tool chosen over another is the project's choice, even said with the work
        ("Set up the app. Oh and yarn, not npm, please.", "Use yarn, not npm"),
        ("Write tests with pytest instead of unittest.", "Use pytest, not unittest"),
    ],
)
def test_a_standing_preference_is_kept(text: str, claim: str) -> None:
    assert claim in _preferences(text)


def _claims(text: str) -> list[str]:
    return [c.claim for c in extract_claims(text)]


def test_a_dash_inside_a_windows_path_does_not_cut_the_path() -> None:
    text = r"remember the archive is in E:\Sync\07 - Notes\archive"
    assert _claims(text) == [r"The archive is in E:\Sync\07 - Notes\archive"]
    # a path with a space is not read whole by this rule: nothing rather than half of it
    assert _claims(r"i have a mirror in E:\Sync\07 - Notes\mirror, can you sync it") == []


def test_a_possessive_cut_from_its_noun_is_no_claim() -> None:
    assert _claims("we are no longer doing our own retries, we're using the SDK's.") == []


def test_a_product_word_in_a_later_phrase_does_not_make_a_project() -> None:
    assert _claims("This is a smoke check needing a live server, not a bug.") == []
    assert _claims("it's a CLI for invoices") == ["The project is a CLI for invoices"]


def test_a_fact_stops_where_the_request_of_this_turn_starts() -> None:
    assert _claims("We are using pnpm so please use: pnpm dlx shadcn add dialog") == ["Use pnpm"]


def test_a_complaint_ending_on_the_user_is_no_rule_unless_said_to_last() -> None:
    assert _claims("Ah come on. Don't suggest junk to me.") == []
    assert _claims("Please do not try lecture me.") == []
    assert _claims("Please don't just nod along with me - ever.") == [
        "Never just nod along with the user"
    ]


def test_the_scope_of_this_work_is_no_preference() -> None:
    text = "Go on with the rest. I don't want you doing anything more than renaming the fields."
    assert _claims(text) == []


def test_a_need_to_build_request_opens_with_the_work_not_a_stance() -> None:
    text = (
        "I need to set up a small plugin host with these goals: - load plugins from a folder"
        " - use pluggy for plugin discovery - log every load. Please scaffold it."
    )
    assert not any("pluggy" in c for c in _claims(text))


def test_a_marker_of_another_clause_in_a_long_sentence_keeps_no_preference() -> None:
    text = (
        "make a folder for the survey exports, keep it synced at all times, then pull the files"
        " from the shared drive, then do the comparison described in the plan and in the notes,"
        " make sure the agent never edits the reference answers, use polars and duckdb only."
    )
    assert _preferences(text) == []
    assert _preferences("Going forward, use polars and duckdb only.") == [
        "Use polars and duckdb only"
    ]


def test_a_guess_about_the_code_is_no_fact() -> None:
    assert _claims("hold on, I think we are using the bulk endpoint") == []
    assert _claims("We are using the bulk endpoint") != []


def test_an_underlined_heading_or_front_matter_opens_a_pasted_document() -> None:
    generated = (
        "SESSION WRAP-UP NOTE\n====================\nWrite down what was changed and what is"
        " left. Always write a short summary even when little was done. Keep it under ten lines"
        " and list the open questions at the end of the note."
    )
    assert _claims(generated) == []
    skill = (
        "---\nname: review-helper\ndescription: Reviews a diff and points out risky changes.\n"
        "---\n\nWhen reviewing, always include:\n\n1. **A one-line verdict**\n2. **The riskiest"
        " hunk** with the reason it is risky\n3. **Tests that are missing**"
    )
    assert _claims(skill) == []


def test_a_hurried_its_a_correction_is_no_fact() -> None:
    assert _claims("sorry its is a hook not a plugin") == []


def test_a_lack_cut_to_an_adverb_is_no_fact() -> None:
    assert _claims("Minio does not support it natively, but it has a lifecycle") == []
    assert _claims("B2 does not support natively, but it has versioning") == []


def test_called_twice_is_an_invocation_not_a_name() -> None:
    assert _claims("The sync handler is called twice.") == []
    assert _claims("the worker is called from the scheduler") == []
    assert _claims("Our staging cluster is called blue-river") == [
        "Our staging cluster is called blue-river"
    ]


def test_a_quantifier_inside_the_tasks_purpose_makes_no_rule() -> None:
    assert _claims("can you use subagents to edit each page in parallel.") == []
    assert _claims("use prettier to format all files") == ["Use prettier to format all files"]
    assert _claims("use direnv to load all future project variables") == [
        "Use direnv to load all future project variables"
    ]


def test_that_before_a_noun_points_at_what_was_named_before() -> None:
    assert _claims("we use that base dialog to build the other dialogs") == []


def test_a_but_never_tail_without_its_clause_is_no_rule() -> None:
    assert _claims("Field 'cache' was assigned to, but never read") == []
    assert _claims("we use JWTs in cookies, but never localStorage") == [
        "Use JWTs in cookies; never localStorage"
    ]


def test_a_clause_run_on_after_a_choice_is_not_part_of_it() -> None:
    assert _claims("lets use vitest I think it is already set up") == ["Use vitest"]


def test_other_things_named_for_a_should_are_the_things_at_hand() -> None:
    assert _claims("you should also move other fixture files too") == []


def test_rules_that_are_not_named_are_no_rule() -> None:
    assert _claims("always follow rules, cont") == []
    assert _claims("always follow the rules in STYLE.md") == ["Always follow the rules in STYLE.md"]


def test_what_this_conversation_has_been_doing_is_no_rule() -> None:
    assert _claims("Remember to keep updating our docs of what we have been testing") == []


def test_a_dislike_of_a_piece_of_the_screen_is_no_preference() -> None:
    text = "when i scroll the list jumps, i dont like empty space at the top of the table, add a border."
    assert _preferences(text) == []
    assert _preferences("I prefer answers that start with the result") == [
        "Prefer answers that start with the result"
    ]
