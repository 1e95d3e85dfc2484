"""Text pasted into a prompt (a report, a brief, a form, a terminal's output) yields no atom;
the user's own lines around it are read as usual, and an explicit request to keep the pasted
text makes it the user's (agent_memory/extract/paste.py). Own sentences, no transcript text."""

from __future__ import annotations

import pytest

from agent_memory.extract.paste import pasted_lines, without_paste
from agent_memory.extract.statement import extract_claims


def _claims(text: str) -> list[str]:
    return [c.claim for c in extract_claims(text)]


_LOOP_BRIEF = (
    "Open `./notes/queue.md`, take the top open item, do it, tick it off, commit and stop.\n"
    "\n"
    "'./notes/queue.md' is:\n"
    "- the shared task list.\n"
    "- Never drop items from it.\n"
    "- Add new items when needed.\n"
    "\n"
    "STEPS:\n"
    "1. Read the queue and pick the top open item;\n"
    "2. If nothing is open, print DONE and stop\n"
    "3. Otherwise mark the item as started, then:\n"
    "   a. Split it when it touches more than five files\n"
    "   b. Do the work\n"
    "   c. Run the checks and fix what they report\n"
    "   d. Never include shortcuts or stubs\n"
    "   e. Commit the change\n"
)


def test_a_pasted_loop_brief_yields_nothing() -> None:
    assert pasted_lines(_LOOP_BRIEF) is not None
    claims = _claims(_LOOP_BRIEF)
    assert not any("drop items" in c or "shortcuts" in c for c in claims)


def test_a_status_report_yields_no_fact() -> None:
    text = (
        "wire the search box now. Here is what the other agent said:\n"
        "✅ Parser done\n"
        "❌ Search index missing\n"
        "Summary: The project is a recipe organiser for home cooks.\n"
    )
    assert not any("recipe organiser" in c for c in _claims(text))


def test_a_terminal_copy_padded_to_its_width_yields_nothing() -> None:
    pad = " " * 60
    text = (
        f"hook it up, Status so far:{pad}\n"
        f"  - ❌ Webhook receiver     Notes:{pad}\n"
        "  - The project is a static blog generator and nothing more"
    )
    assert not any("static blog" in c for c in _claims(text))


def test_the_users_own_line_before_a_paste_is_read() -> None:
    text = "Always run the linter before committing in this repo.\n\n" + _LOOP_BRIEF
    claims = _claims(text)
    assert any("linter before committing" in c for c in claims)
    assert not any("drop items" in c for c in claims)


_HOUSE_RULES = (
    "- Never push straight to the release branch\n"
    "- Use pnpm, not npm\n"
    "- Keep commit subjects under 60 characters\n"
    "- Run the formatter before every commit\n"
    "- Name test files after the module they cover\n"
    "- Write changelog entries in the past tense\n"
    "- Prefer small pull requests\n"
    "- Tag releases with a leading v\n"
)


def test_pasted_rules_asked_to_be_kept_are_read() -> None:
    for intro in ("Add these to your memory:\n", "My rules for this repo:\n"):
        asked = intro + _HOUSE_RULES
        assert pasted_lines(asked) is None
        assert any("release branch" in c for c in _claims(asked))
    brief = "Here is the checklist the contractor sent:\n" + _HOUSE_RULES
    assert pasted_lines(brief) is not None
    assert not any("release branch" in c for c in _claims(brief))


@pytest.mark.parametrize(
    "text",
    [
        # a few points of the user's own, typed as a list
        "Three things:\n1. Use pnpm, not npm.\n2. Tests go in tests/.\n3. Keep the README short.",
        # prose over several lines
        "The staging box is slow today.\nI restarted it twice.\nCan you look at the logs?",
        # one status mark is no report
        "✅ the build is green now\nplease bump the version\nand tag it",
    ],
)
def test_typed_messages_are_no_paste(text: str) -> None:
    assert pasted_lines(text) is None
    assert without_paste(text) == text


def test_a_paste_on_the_users_line_is_cut_where_it_starts() -> None:
    art = "\u2588\u2588\u2588        \u2588\u2588\u2588\u2588"
    text = f"I work on a shared GPU box, set the tool up here. {art}\n{art}\n{art}\n{art}"
    kept = without_paste(text)
    assert kept.split("\n")[0].startswith("I work on a shared GPU box")
    assert "\u2588" not in kept


def test_a_pasted_review_with_dash_labels_yields_nothing() -> None:
    text = (
        "Read this review of the plan and tell me what you think\n"
        "Finding 1 — The cache is rebuilt on every request.\n"
        "The fix: keep the cache warm. Never rebuild it on a read.\n"
        "Finding 2 — The queue has no retry.\n"
        "Finding 3 — Metrics are not exported.\n"
        "Finding 4 — The admin page is public.\n"
    )
    assert pasted_lines(text) == range(1, 6)
    assert not any("rebuild" in c for c in _claims(text))


def test_an_answer_word_before_a_dash_labels_nothing() -> None:
    text = (
        "Yes — go ahead with the plan.\n"
        "Perfect — and keep the old endpoint.\n"
        "Sure — ship it after lunch.\n"
        "Great — thanks.\n"
    )
    assert pasted_lines(text) is None


def test_a_remember_inside_a_pasted_prompt_is_no_keep_request() -> None:
    text = (
        "You summarise sessions for the team and remember that you are a note taker.\n"
        "Write the summary now.\n"
        "\n"
        "Status: draft\n"
        "Owner: platform team\n"
        "Scope: billing service\n"
        "Rule: Never deploy on Fridays\n"
    )
    assert pasted_lines(text) == range(3, 7)
    assert not any("Fridays" in c for c in _claims(text))


def test_a_structured_block_asked_to_be_kept_is_read_as_a_memory_note() -> None:
    rules = (
        "## Releases\n"
        "- Never tag a release from a feature branch\n"
        "- Bump the minor version for every new flag\n"
        "## Docs\n"
        "- Never commit generated API docs\n"
    )
    asked = _claims("Please add these rules to CLAUDE.md:\n" + rules)
    assert "Never tag a release from a feature branch" in asked
    assert "Never commit generated API docs" in asked
    assert _claims("Here is the release checklist from the wiki:\n" + rules) == []


_TERMINAL_COPY = (
    "The login page breaks after the upgrade:\n"
    "  ⎿  Error: session store unreachable on port 6380\n"
    "  ⎿  Error: retry budget exhausted after 3 attempts\n"
    "  ⎿  Warning: falling back to memory sessions\n"
)


def test_a_line_typed_at_the_margin_under_an_indented_terminal_copy_is_the_users() -> None:
    # the block is indented by the terminal's copy; the user's line starts at the margin
    text = _TERMINAL_COPY + "Always run the session tests with redis started locally."
    block = pasted_lines(text)
    assert block is not None and max(block) == 3
    assert without_paste(text).endswith("Always run the session tests with redis started locally.")
    assert any("redis started locally" in c for c in _claims(text))


def test_a_wrapped_line_keeping_the_blocks_indentation_stays_in_the_paste() -> None:
    text = _TERMINAL_COPY.rstrip("\n") + " Always run\n  the session tests with redis started.\n"
    block = pasted_lines(text)
    assert block is not None and max(block) == 4


def test_a_typed_line_break_ends_the_paste_before_the_users_line() -> None:
    # "\" alone on a line: the user's own line break (backslash + Enter) under a pasted report
    text = (
        "Status from the build bot:\\\n"
        "✅ lint passed\\\n"
        "✅ unit tests passed\\\n"
        "❌ e2e tests failed\\\n"
        "\\\n"
        "Never tag a release before the changelog is merged."
    )
    assert pasted_lines(text) is not None
    assert "Never tag a release before the changelog is merged." in without_paste(text)
    assert any("changelog is merged" in c for c in _claims(text))


def test_a_log_glued_to_the_end_of_the_users_line_is_blanked() -> None:
    # the log's lines repeat one prefix; its first line starts on the user's own line, after
    # the user's sentence
    text = (
        "Please bump the dependencies. This is what pip printed. pip warn yanked alpha-1.2: "
        "Alpha versions before 2 are no longer maintained\n"
        "pip warn yanked beta-0.9: Beta versions before 1 are no longer maintained\n"
        "pip warn yanked gamma-3.1: Gamma versions before 4 are no longer maintained"
    )
    assert without_paste(text) == "Please bump the dependencies. This is what pip printed.\n\n"
    assert not any("no longer maintained" in c for c in _claims(text))


def test_the_users_own_lines_with_a_shared_start_are_no_log() -> None:
    # the same three words opening two lines, but not glued after a sentence on the line before
    text = "Use pnpm for installs.\nDo not use npm in the web app.\nDo not use yarn in the api."
    assert without_paste(text) == text
