"""The precision policy of typed extraction (issue 28): a typed statement becomes an atom only
when it reads as a durable rule or fact on its own. Each shape below is one that produced false
atoms on people the rules had never seen (our own wordings, not theirs); each must yield
nothing, while the durable statements next to them still do."""

from __future__ import annotations

import pytest

from agent_memory.extract.pipeline import extract_claims

NOT_DURABLE = [
    "Use sed to fix the typo in the header.",  # a step of this task, not a standing job
    "Use rem units in the components.",  # the components at hand, not a kind of file
    "I prefer that one.",
    # fragments with no object once the sentence is cut
    "Prefer that one",
    "Use the app",
    "Never have to think about it",
    "Never do anything",
    # a manner and a place cut from the verb of the clause before ("Never manually from a laptop")
    "Ship releases from the release pipeline, never manually from a workstation.",
    # requirements of the task at hand
    "each card should show a due date",
    "Every item in the list should have a delete button",
    "All rows must be sortable by date",
    "Each page should load in under 2 seconds",
    "nothing else should change",
    "keep the version I wrote",
    "don't touch the other files",
    "only change the css",
    "Use the same format as before",
    # hypotheticals and clauses lifted out of a question
    "if it were under src/ instead, would the import still work?",
    "What if we used redis instead of postgres?",
    # code state that expires with the task
    "the parser does not handle nested quotes",
    "the login page doesn't handle expired sessions",
    "The script doesn't work with spaces in paths",
    "the API returns 500 when the payload is empty",
    "I use the app every day",
    "I use the login shell",
    "I use the integrated terminal",
    "I use the markdown editor",
    # emphatic correction chatter
    "nope nope, wrong file",
    "no no no, that's the wrong function",
    # the same shapes in other languages: bound to this turn
    "不要停下来问我",
    "не трогай это сейчас",
    "Ne touche jamais à ça",
    # --- shapes seen on the extra TUNE people (issue 28, second round; own wordings) ---
    # a pronoun object, then only where or how: what "that" is was said in another turn
    "do not touch that in the backend",
    "never run it as root",
    # a manner, not a place: "in the form …"
    "Options are in the form `key=value`",
    # questions that do not start like one: a tag, a choice, a suggestion, "any …?"
    "ok so every listing is a variant, right?",
    "should the tag be a column or a separate table?",
    "Can we skip the cache and rebuild each time?",
    "make the list shorter. any other ideas worth trying?",
    # names in the code being edited, not tools
    "lets use updatedAt",
    "rename dueDate to deadlineAt",
    # a correction of the step being taken
    "No no, don't edit the fixtures, I'm only asking",
    "no, do not modify the config files, both are fine",
    # descriptions and interjections read as quantified rules
    "any text inside the tooltip is grey",
    "No we still need the old endpoint",
    "yeah but there shouldn't be any differences",
    # the thing at hand, named earlier or scoped to this edit
    "stick with the layout I have sketched out",
    "I don't like the save button in that corner",
    "Don't modify anything except the footer",
    # Japanese read by the Chinese markers (別 is "other" there, not "don't")
    "別のチームからログインなしで使えるかと聞かれました",
    # output pasted after a line that introduces it
    "Getting this:\n\n3s\nRunner version: 2.3\nnpm error code E404\n"
    "Use --group slow to run the slow tests\nTo run all, use -c full.xml",
    # --- shapes seen on unlabelled reading people (tune side; own wordings) ---
    # a like or dislike of the proposal on the table
    "I like the tests. Rename them.",
    "I like option 3 since it avoids a second endpoint",
    "ok I like the two step approach",
    "I don't like any approach.",
    "I don't like the retry loop.",
    # where this task's new file will go
    "The new test will go in tests/integration/budget/",
    # a code symbol the user calls
    "I use initializeWithTelemetry.",
    # a SQL statement pasted as a list item
    "- CREATE INDEX idx_a ON t USING btree (a, b);",
    # --- shapes seen on re-fetched extra TUNE people (third round; own wordings) ---
    # "remember" giving a reason in an argument about the code at hand
    "an empty list is fine, no? remember maps are just references anyway",
    "remember strings are just byte arrays anyways",
    # the trouble at hand, not the machine
    "i have a weird laptop problem since this morning",
    # what the screen being built shows: a spec of the task
    "the list reloads anyway. I don't want to show a spinner there.",
    "so I don't want to display the banner and shift the layout",
    # a terminal session pasted whole, its output past blank lines included
    "\u276f make check\n\n> lint\n\n(node:7) Warning: Buffer() is deprecated\n\nexit 2",
    # a SQL statement broken over lines, its continuation lines included
    "- CREATE INDEX idx_b\nON orders\nUSING hash (customer_id);\n\nAdd a migration for it.",
]

DURABLE = [
    ("Never push directly to main", "Never push directly to main"),
    ("Never manually edit the generated clients.", "Never manually edit the generated clients"),  # manner, then its verb
    # a verb ending in -ly before its preposition is no manner ("rely on", "reply in", "apply to")
    ("Always rely on the lockfile.", "Always rely on the lockfile"),
    ("Never rely on network in unit tests.", "Never rely on network in unit tests"),
    ("Always comply with the style guide.", "Always comply with the style guide"),
    ("Never apply to the staging database directly.", "Never apply directly to the staging database"),
    ("We use poetry for dependency management", "Use poetry for dependency management"),
    # a tool for a kind of job, and the kind of file it holds in
    ("Use tabs for indentation in the Makefile.", "Use tabs for indentation in the Makefile"),
    ("Use tabs in Makefiles.", "Use tabs in Makefiles"),  # scoped to a kind of file
    ("Use black to format the Python sources.", "Use black to format the Python sources"),
    ("I prefer answers that start with the result", "Prefer answers that start with the result"),
    ("I'm on Fedora now", "User is on Fedora now"),
    ("Every PR needs a changelog entry", "Every PR needs a changelog entry"),
    (
        "Safari doesn't support the Web Bluetooth API",
        "Safari does not support the Web Bluetooth API",
    ),
    ("The build fails when NODE_ENV is unset.", "The build fails when NODE_ENV is unset"),
    (
        "Docker crashes on Windows when the path has spaces",
        "Docker crashes on Windows when the path has spaces",
    ),
    ("永远不要直接推送到 main 分支", "Never: 永远不要直接推送到 main 分支"),
    ("Nunca use npm neste projeto", "Never: Nunca use npm neste projeto"),
    # a "no" before a standing rule is not a correction of the step
    ("no, never use npm here", "Never use npm"),
    # a tool change proposed as a question is a decision in the making
    ("could we replace moment with dayjs?", "Use dayjs, not moment"),
    # a quantified scope is the rule itself, even with "it"
    ("keep it cross-platform", "Keep it cross-platform"),
    # a standing taste, not a reaction
    ("I like tabs", "User likes tabs"),
    ("I'm not a fan of solarized", "User does not like solarized"),
    (
        "Existing integration tests are in tests/integration",
        "Existing integration tests are in tests/integration",
    ),
    # the system ends where the problem being reported starts
    (
        "im on a mac, when i switch the layout to german the umlauts go missing?",
        "User is on a mac",
    ),
    # exasperation closing a rule is not part of it
    ("never edit the lockfile by hand ffs", "Never edit the lockfile by hand"),
    ("remember that the staging db is read-only", "The staging db is read-only"),
    # a standing dislike of a tool still is one
    ("I don't want to use lodash", "Never use lodash"),
    # typed words after a pasted terminal session are read
    ("$ make check\n\nexit 2\n\nNever skip the lint step.", "Never skip the lint step"),
]

# Lines ended by a backslash (a newline typed into the terminal) are line breaks.
BACKSLASH_ANSWERS = "Answers:\\\n1. Yes\\\n2. we don't use pandoc anymore\\\n3. dont touch that\\\n"


def test_a_backslash_line_break_is_not_part_of_the_claim() -> None:
    assert [c.claim for c in extract_claims(BACKSLASH_ANSWERS)] == ["We no longer use pandoc"]


def test_rules_typed_after_a_colon_are_kept_when_punctuated() -> None:
    text = (
        "My rules:\nNever use npm.\nAlways use pnpm.\nTests live in tests/.\nUse ruff for linting."
    )
    assert [c.claim for c in extract_claims(text)] == [
        "Never use npm",
        "Always use pnpm",
        "Tests live in tests/",
        "Use ruff for linting",
    ]


@pytest.mark.parametrize("text", NOT_DURABLE)
def test_what_is_not_a_durable_statement_yields_nothing(text: str) -> None:
    assert extract_claims(text) == [], text


@pytest.mark.parametrize(("text", "claim"), DURABLE)
def test_durable_statements_beside_them_still_yield_their_claim(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]
