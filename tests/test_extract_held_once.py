"""Held for a second mention (issue 28, precision on strangers): a candidate the gate would keep
on one mention is pending instead when its claim names an artifact of the task at hand ("the
script", "any other files", "in your response") or it is a prohibition set inside a longer
request with no standing word. Said again in another session it is an atom, as any pending
claim is (tests/test_pending.py); a lasting scope or a request to keep it lifts the hold. Our
own wordings; the durable rules next to them stay atoms on one mention."""

from __future__ import annotations

from pathlib import Path

import pytest
from sessions import gm, gm_json, write_session

from agent_memory.extract import durability
from agent_memory.extract.pipeline import extract_claims

# A model that keeps everything it scores: only the hold can make a candidate pending.
OPEN = durability.Model({"bias": 50.0}, 0.5, 0.8)


def _verdict(text: str, model: durability.Model | None = None) -> list[tuple[str, str]]:
    model = model or durability.packaged_model()
    return [(c.claim, durability.verdict(text, c.claim, c.rule, model))
            for c in extract_claims(text)]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "Never paste full file contents in your response.",
        "In your answer, never repeat the question.",
        "Always keep the script under 100 lines.",
        "Never touch the notebook's first cell, ever.",
        "Always leave any other files as they are.",
        "Always put the diff in your reply.",
        "Never edit the spreadsheet directly.",
    ],
)
def test_a_rule_naming_an_artifact_of_the_task_waits_for_a_second_mention(text: str) -> None:
    for model in (durability.packaged_model(), OPEN):
        got = _verdict(text, model)
        assert got and all(v == durability.PENDING for _, v in got), (text, got)


@pytest.mark.parametrize(
    "text",
    [
        "Never use emojis in your responses.",  # every answer, not this one
        "Always run the tests before committing.",
        "Never modify existing migrations.",
        "Never edit files in this project without asking.",  # the project is no task artifact
        "Do not use mocks in integration tests.",
        "Do not add comments to the code.",
        "Never change the function signature of public APIs.",
        # said of every plan, answer and diff, not of one
        "Always show me your plan before editing.",
        "Always show me the diff before writing files.",
        "Always keep your answer short.",
    ],
)
def test_durable_rules_said_once_are_still_atoms(text: str) -> None:
    got = _verdict(text)
    assert got and all(v == durability.KEEP for _, v in got), (text, got)


@pytest.mark.parametrize(
    ("text", "claim", "rule"),
    [
        ("I like your solution - can it read a jpg too?", "User likes your solution",
         "preference.like"),
        ("I would prefer that your revert goes in modules/server.",
         "Prefer your revert to go in modules/server", "preference.prefer"),
    ],
)  # fmt: skip
def test_the_assistants_piece_of_work_at_hand_waits_for_a_second_mention(
    text: str, claim: str, rule: str
) -> None:
    assert durability.verdict(text, claim, rule, OPEN) == durability.PENDING


@pytest.mark.parametrize(
    "text",
    [
        "From now on, never paste full file contents in your response.",
        "Remember to always keep the script under 100 lines.",
        "Never paste full files in your response, add this to your rules.",
    ],
)
def test_said_to_last_a_task_artifact_rule_is_an_atom_at_once(text: str) -> None:
    got = _verdict(text, OPEN)
    assert got and all(v == durability.KEEP for _, v in got), (text, got)


# A prohibition inside a longer request is a part of it; opening its sentence it is scored as
# a rule (the rules' own claims, given here so the shape alone is tested).
EMBEDDED = [
    ("Ensure all the links work and don't leave out any pages we just created.",
     "Never leave out any pages we just created"),
    ("- Ensure all the links work and don't leave out any pages.", "Never leave out any pages"),
    ("Make the syntax cleaner without changing the batch processing.",
     "Never change the batch processing"),
    ("Refactor the loader and, please, don't use global state in it.", "Never use global state"),
]  # fmt: skip
OPENING = [
    ("Don't leave out any pages we just created.", "Never leave out any pages we just created"),
    ("Please do not change the batch processing.", "Never change the batch processing"),
    ("I don't want you to point to AA50.", "Never point to AA50"),
    # the person's own wish, wherever it sits
    ("I have Node and Python, but I don't want to make it only work on my machine.",
     "Never make it only work on my machine"),
    # asked to be written into the agent's rules: as lasting as "remember"
    ("Like the commits, please do not add yourself to the PR description, update AGENTS.md "
     "about this", "Never add yourself to the PR description"),
    # no piece of work is asked for: a reason about the person, a time
    ("I'm colorblind, avoid red/green only indicators.", "Avoid red/green only indicators"),
    ("Until Friday, don't install packages.", "Never install packages"),
    # a standing word exempts it as before, and so does one the rules or the gate read as standing
    ("As a rule we don't use ORMs.", "Never use ORMs"),
    ("Ensure all the links work and never leave out any pages.", "Never leave out any pages"),
    ("Until further notice, don't install packages.", "Never install packages"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "claim"), EMBEDDED)
def test_a_prohibition_inside_a_request_waits_for_a_second_mention(text: str, claim: str) -> None:
    assert durability.verdict(text, claim, "directive.negative", OPEN) == durability.PENDING


@pytest.mark.parametrize(("text", "claim"), OPENING)
def test_a_prohibition_opening_its_sentence_is_left_to_the_score(text: str, claim: str) -> None:
    assert durability.verdict(text, claim, "directive.negative", OPEN) == durability.KEEP


def test_the_hold_only_lowers_keep_to_pending_and_needs_a_model() -> None:
    text, claim = EMBEDDED[0]
    closed = durability.Model({"bias": -50.0}, 0.5, 0.8)
    # under the drop threshold it is dropped as before: the hold never keeps anything
    assert durability.verdict(text, claim, "directive.negative", closed) == durability.DROP
    # the person's own "I don't want …" and another rule's claim are not prohibitions held
    assert durability.verdict(text, "User does not want any pages left out",
                              "directive.negative", OPEN) == durability.KEEP  # fmt: skip
    assert durability.verdict(text, claim, "preference.use", OPEN) == durability.KEEP
    # with no usable weights every candidate is kept (the fail-safe direction)
    assert durability.verdict(text, claim, "directive.negative", None) == durability.KEEP


HELD = "Never paste full file contents in your response."
FIRST = "eeeeeeee-0000-4000-8000-0000000000a1"
SECOND = "eeeeeeee-0000-4000-8000-0000000000a2"


def test_a_held_rule_is_pending_then_an_atom_once_said_in_another_session(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-06T12:00:00Z")
    gm(repo, "init", "--yes")
    (cand,) = extract_claims(HELD)
    first = write_session(repo, FIRST, "2026-11-01",
                          [{"user": HELD}, {"user": "Never force-push to main."}])  # fmt: skip
    extracted = gm_json(repo, "extract", "--transcript", str(first))
    assert [a["claim"] for a in extracted["pending"]] == [cand.claim]
    assert [a["claim"] for a in extracted["atoms"]] == ["Never force push to main"]
    (held_id,) = [a["id"] for a in extracted["pending"]]
    captured = gm_json(repo, "capture", "--transcript", str(first), "--no-stage")
    assert captured["pending"] == [held_id]
    second = write_session(repo, SECOND, "2026-11-02", [{"user": HELD}])
    captured = gm_json(repo, "capture", "--transcript", str(second), "--no-stage")
    assert captured["merged"] == [held_id] and captured["pending"] == []
    atom = {a["id"]: a for a in gm_json(repo, "inspect", "--tier", "L1")["atoms"]}[held_id]
    assert "pending" not in atom and atom["sessions"] == [FIRST, SECOND]
