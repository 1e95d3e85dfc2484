"""An instruction made standing by what follows it (notes/31: misses on unseen people): a back
reference in the next sentence ("Make that standard in your workflow.", "Do that from now on.")
or a closing "every time" after an imperative. Every sentence is our own; each look-alike (a
product setting of the task, a report of how often something happens, a question before the
back reference) yields nothing."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims

STANDING = [
    ("ask for a Copilot review on each PR. Make that standard in your workflow.",
     "Ask for a Copilot review on each PR"),
    ("request a second review before merging. Make that part of your workflow.",
     "Request a second review before merging"),
    ("Run the formatter before committing. Do that from now on.",
     "Run the formatter before committing"),
    ("add a changelog line for user-facing changes. Make it a habit.",
     "Add a changelog line for user-facing changes"),
    ("update the docs index when you add a page. Always do that.",
     "Update the docs index when you add a page"),
    # the words any sentence may open with (text.strip_lead) come before the instruction's verb
    ("ok, request a second review before merging. Make that part of your workflow.",
     "Request a second review before merging"),
    # the back reference ends with any of the words a scope reads as "from now on"
    ("Run the formatter before committing. Do that from here on out.",
     "Run the formatter before committing"),
    # a second back reference adds nothing, and takes nothing away
    ("Run the linter before pushing. Do that from now on. Make it a habit.",
     "Run the linter before pushing"),
]  # fmt: skip

LOOK_ALIKES = [
    # a product setting of the task: "make it the default" names no workflow
    "Add a compact layout. Make it the default.",
    "add a light theme. Make that the standard.",
    # how often something happens, not an instruction (a closing "every time" is not read as a
    # scope: after an imperative it is as often a report, "retry it, it fails every time")
    "the build breaks every time",
    "I restart the watcher each time",
    "it logs me out every single time.",
    "retry the upload, it stalls every time",
    "check the console, it warns every time",
    "remove the banner that flashes every time",
    "run the type checker after editing models each time",
    # a question before the back reference: nothing to make standing
    "Why does the linter run twice? Do that from now on.",
    # a back reference with nothing before it
    "Make that standard in your workflow.",
]


@pytest.mark.parametrize(("text", "claim"), STANDING)
def test_an_instruction_said_to_last_becomes_an_atom(text: str, claim: str) -> None:
    claims = [c.claim for c in extract_claims(text)]
    assert claims == [claim], (text, claims)


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_give_nothing(text: str) -> None:
    assert extract_claims(text) == [], text


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("don't you dare rebase the release branch", "Never rebase the release branch"),
        ("Don't you ever commit the secrets file.", "Never commit the secrets file"),
    ],
)
def test_dont_you_dare_is_a_prohibition_said_with_force(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


def test_request_opens_an_instruction_only_before_a_back_reference() -> None:
    # "request" as a noun keeps its sentence a statement of fact
    assert [(c.kind, c.claim) for c in extract_claims("remember, request ids go in the header")] == [
        ("fact", "Request ids go in the header")
    ]
    assert [c.claim for c in extract_claims("No request retries in the billing service.")] == [
        "Never add request retries in the billing service"
    ]
