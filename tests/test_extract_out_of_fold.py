"""False atoms found out of fold (TUNE people scored without the rules only they support) and on
hand-judged strangers (notes/28-prec5.md): each case is our own paraphrase of the shape, never a
stranger's words. The step-of-work statement yields nothing; the standing statement of the same
grammar still yields its rule."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims


def _claims(text: str) -> list[str]:
    return [c.claim for c in extract_claims(text)]


# "without X-ing" hangs on the action asked for in the same breath: how that action is done.
WITHOUT_OF_A_STEP = [
    "nice work, now switch to async/await and tidy the syntax without changing existing retry logic",
    "without editing or deploying the service (people use it), read the healthcheck.sh script",
    "port the parser to rust without touching current callers",
]


@pytest.mark.parametrize("text", WITHOUT_OF_A_STEP)
def test_without_of_a_requested_step_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Always refactor without removing tests.", "removing tests"),
        ("From now on, work without pushing to remote branches.", "pushing"),
    ],
)
def test_without_said_to_last_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


# A prohibition that only clears the way for the step asked for instead ("don't X, just Y"),
# "stop X-ing and do Y", and "no, you must not …" (a correction of the step being taken).
STEP_INSTEAD = [
    "do not add tests just explain the approach.",
    "dont make new files just finish the summary here.",
    "Do not run the build just tell me the command, I will run it locally",
    "do not install new packages, just describe the plan",
    "stop editing files and write a report of what you changed",
    "NO, you must not apply the migrations yourself, you must go over every pending file so the "
    "whole change is clear to you",
    "no, you should not edit the lockfile",
]


@pytest.mark.parametrize("text", STEP_INSTEAD)
def test_prohibition_making_room_for_a_step_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Don't use npm, just use pnpm.", "npm"),  # a tool chosen instead stands
        ("Never edit generated files, just regenerate them.", "generated"),  # said to last
        ("You must not commit secrets.", "secrets"),  # no correction before it
        ("Do not add comments to the code.", "comments"),
    ],
)
def test_standing_prohibition_of_the_same_grammar_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


# A rule with a work request spliced on after a comma in the same sentence is that work's spec.
@pytest.mark.parametrize(
    "text",
    [
        "the api should only return ids, check the resolvers of this project, those should handle it.",
    ],
)
def test_rule_with_spliced_work_request_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("we will not use kubernetes, update the docs accordingly", "kubernetes"),
        ("Don't use any, fix the types properly.", "any"),  # a practice forbidden, not a spec
        ("Never push to main, open a PR instead.", "main"),
        ("Handlers should always stay thin.", "thin"),
    ],
)
def test_rule_said_first_or_to_last_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


def test_lets_at_sentence_start_is_a_request() -> None:
    # "lets" with no subject before it is "let's" typed without the apostrophe: a request, not a
    # thing ("lets") that "goes through" something
    text = "refresh the readme. lets go through and review what this service does and how to deploy it"
    assert _claims(text) == []
    assert _claims("lets switch to pnpm") == _claims("let's switch to pnpm") != []


def test_english_passage_quoted_inside_a_cjk_sentence_yields_nothing() -> None:
    # a bio to paste, set between Hangul words on one line: quoted text, not the user speaking
    text = (
        "이 부분도 바꾸자 먼저 소개를 I am a product designer at Globex with a physics background. "
        "I love turning rough sketches into polished apps. On weekends I am building a tool that "
        "helps climbers plan routes.로 바꿔줘"
    )
    assert _claims(text) == []
    # the same English said on its own line is the user's own
    assert _claims("I love turning rough sketches into polished apps.") != []


# A preference voiced while weighing this task's options, or spliced between its steps.
@pytest.mark.parametrize(
    "text",
    [
        "I prefer a setup that avoids re-renders. What if we drop the disabled flag and "
        "validate on submit?",
        "the service is back up; stretch the range to include two weekends. Would that be "
        "better? I prefer a bigger sample to check against.",
        "put it on the model, check nothing else uses that name, I prefer RunCounterId, then add "
        "it to the ORDERS table",
    ],
)
def test_preference_while_weighing_this_task_yields_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I prefer using plain sbt commands", "sbt"),
        ("I prefer tabs. Why did you use spaces?", "tabs"),  # a question, but not weighing options
    ],
)
def test_preference_on_its_own_still_yields(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


def test_always_never_whose_verb_lost_its_object_yields_no_fragment() -> None:
    # cut at "and", "never include" keeps no object; the later clause still stands on its own
    claims = _claims(
        "Never include and remove any remarks about earlier conversations in the source, keep "
        "comments out of the source."
    )
    assert not any(claim.rstrip(".").lower() == "never include" for claim in claims), claims


def test_spec_put_up_for_agreement_yields_nothing() -> None:
    # "makes sense?": a behaviour of the thing being built, offered for agreement
    text = "There should not be any overlapping slots, I mean a person should only have one booking at a time. makes sense?"
    assert _claims(text) == []
    assert _claims("There should not be any overlapping slots.") != []


@pytest.mark.parametrize(
    "text",
    [
        "do not modify code",  # hold off this turn, like "don't change anything"
        "please tag the release and push it, before that check sync-env.sh as is failing when i "
        "run it from the scripts folder on the server",  # a request, no subject that fails
    ],
)
def test_hold_and_request_with_failing_yield_nothing(text: str) -> None:
    assert _claims(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Do not modify generated code.", "generated"),
        ("The build fails when NODE_ENV is unset.", "NODE_ENV"),
    ],
)
def test_named_prohibition_and_failure_mode_still_yield(text: str, word: str) -> None:
    assert any(word in claim for claim in _claims(text)), _claims(text)


@pytest.mark.parametrize(
    "text",
    ["Don't ask me for confirmation, just do it.", "Do not ask me for approval, just run the commands."],
)
def test_conduct_prohibition_before_just_still_yields(text: str) -> None:
    # how the assistant deals with the user is conduct; "just do it" does not bound it to now
    assert any("ask" in claim for claim in _claims(text)), _claims(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Don't write wrappers, just call the library directly.", "wrappers"),
        ("don't add comments, just write clear code", "comments"),
        ("Stop guessing and ask me when unsure.", "guessing"),
        ("I prefer pnpm. Would that be a problem for CI?", "pnpm"),
        ("I prefer small PRs, then review them one by one.", "small PRs"),
        ("I prefer functional components, add the hook now.", "functional"),
    ],
)
def test_practice_wanted_instead_or_said_first_still_yields(text: str, word: str) -> None:
    # "just <a way of coding>", "stop X and <conduct>", a preference said before the step or
    # next to a question that weighs nothing: the user's own practice
    assert any(word in claim for claim in _claims(text)), _claims(text)


def test_quoted_passage_check_reads_each_run_once() -> None:
    # many sentence ends after one CJK character: the run between CJK characters is found once
    # and checked on its own (the first version backtracked over every pair of sentence ends)
    from agent_memory.extract.prepare import BETWEEN_CJK, without_quoted_latin

    text = "漢" + "A b. " * 3000 + "漢"
    assert len(BETWEEN_CJK.findall(text)) == 1
    assert without_quoted_latin(text) == "漢 漢"
