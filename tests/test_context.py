"""What SessionStart injects: L3 + L2 within their budgets, never two contradictory plain
lines, always under Claude Code's 10,000-character limit (spec §5.1, §9.6)."""

from __future__ import annotations

import json
import random
from typing import Any

from builders import committed_atom
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.claude.context import (
    CLOSE_TAG,
    GLOBAL_SIDE,
    OPEN_TAG,
    PROJECT_SIDE,
    build_context,
    hook_output,
)
from agent_memory.model.atom import Atom
from agent_memory.store.contradictions import conflict_rule

PROJECT = "demo-project"


def make_atom(
    claim: str, tier: str = "L2", last_seen: str = "2026-03-01T10:00:00Z", **extra: Any
) -> Atom:
    return committed_atom(claim, tier, last_seen, PROJECT, **extra)


def sections(text: str) -> dict[str, str]:
    """The injected text split at its `## ` headings."""
    out: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = line
            out[current] = ""
        elif current is not None and line != CLOSE_TAG:
            out[current] += line + "\n"
    return out


def test_empty_memory_injects_nothing() -> None:
    ctx = build_context([], [], {}, PROJECT)
    assert ctx.text == "" and (ctx.l2, ctx.l3, ctx.omitted, ctx.crossed) == (0, 0, 0, ())
    # Only atoms outside the working set: nothing worth a session's context either.
    ctx = build_context([make_atom("Old", decayed=True)], [], {}, PROJECT)
    assert ctx.text == ""


def test_shape_global_first_then_project() -> None:
    l2 = [make_atom("Use pnpm for installs"), make_atom("Never force-push", pinned=True)]
    l3 = [make_atom("Answer concisely", tier="L3")]
    ctx = build_context(l2, l3, {}, PROJECT)
    assert ctx.text.startswith(OPEN_TAG + "\n") and ctx.text.endswith("\n" + CLOSE_TAG)
    assert "<!--" not in ctx.text  # no HTML markers in the injected text
    global_at = ctx.text.index("## Global memory (agent-memory)")
    project_at = ctx.text.index(f"## Project memory (agent-memory) — {PROJECT}")
    assert global_at < project_at
    assert ctx.text.index("- Never force-push") < ctx.text.index("- Use pnpm for installs")
    assert (ctx.l2, ctx.l3, ctx.omitted) == (2, 1, 0)
    out = hook_output(ctx)
    assert out == {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": ctx.text}
    }
    json.dumps(out)  # serialisable as-is


def test_only_one_tier() -> None:
    ctx = build_context([], [make_atom("Answer concisely", tier="L3")], {}, None)
    assert "## Global memory" in ctx.text and "## Project memory" not in ctx.text
    ctx = build_context([make_atom("Use pnpm")], [], {}, None)
    assert "## Project memory (agent-memory)\n" in ctx.text and "## Global memory" not in ctx.text


def test_same_claim_in_both_tiers_is_said_once() -> None:
    l2 = [make_atom("Run the tests with pytest -q.")]
    l3 = [make_atom("run the tests  with PYTEST -q", tier="L3"), make_atom("Be brief", tier="L3")]
    ctx = build_context(l2, l3, {}, PROJECT)
    assert ctx.text.casefold().count("pytest -q") == 1
    assert "- Run the tests with pytest -q." in ctx.text  # the project line is the one kept
    assert ctx.duplicates == (l3[0]["id"],) and ctx.crossed == ()
    assert (ctx.l2, ctx.l3) == (1, 1)


def test_a_project_line_never_replaces_the_users_own_global_line() -> None:
    l2 = [make_atom("PR base branch is main"), make_atom("Never push on Fridays")]
    l3 = [
        make_atom("PR base branch is dev", tier="L3"),
        make_atom("Push on Fridays", tier="L3"),
        make_atom("Prefer small commits", tier="L3"),
    ]
    # The fixture really is a pair of contradictions under the rules of contradictions.py.
    assert conflict_rule(l2[0]["claim"], l3[0]["claim"], "constraint", "constraint")
    assert conflict_rule(l2[1]["claim"], l3[1]["claim"], "constraint", "constraint")
    ctx = build_context(l2, l3, {}, PROJECT)
    assert ctx.crossed == tuple(sorted([(l3[0]["id"], l2[0]["id"]), (l3[1]["id"], l2[1]["id"])]))
    # both sides shown, each tagged with where it comes from
    assert f"- {GLOBAL_SIDE} PR base branch is dev" in ctx.text
    assert f"- {GLOBAL_SIDE} Push on Fridays" in ctx.text
    assert f"- {PROJECT_SIDE} PR base branch is main" in ctx.text
    assert f"- {PROJECT_SIDE} Never push on Fridays" in ctx.text
    assert "the user's own global memory" in GLOBAL_SIDE and "committed to this project" in PROJECT_SIDE
    assert "- 2 project lines contradict the user's own global memory" in ctx.text
    assert "- Prefer small commits" in ctx.text and (ctx.l2, ctx.l3) == (2, 3)
    assert "applies here" not in ctx.text  # nothing says the project line wins


def test_a_contradiction_is_only_against_the_projects_working_set() -> None:
    decayed = make_atom("PR base branch is main", decayed=True)
    l3 = [make_atom("PR base branch is dev", tier="L3")]
    ctx = build_context([decayed, make_atom("Use pnpm")], l3, {}, PROJECT)
    assert ctx.crossed == () and "- PR base branch is dev" in ctx.text and "[contested" not in ctx.text


def test_a_lone_contradicted_global_line_is_still_shown() -> None:
    ctx = build_context(
        [make_atom("PR base branch is main")],
        [make_atom("PR base branch is dev", tier="L3")],
        {},
        PROJECT,
    )
    assert (ctx.l2, ctx.l3) == (1, 1) and "1 project line contradicts" in ctx.text
    assert f"- {GLOBAL_SIDE} PR base branch is dev" in ctx.text


def test_contested_lines_carry_the_tag_in_both_tiers() -> None:
    l2 = [make_atom("Deploys go through staging", contested=True)]
    l3 = [make_atom("Answer in English", tier="L3", contested=True)]
    dates = {l2[0]["id"]: "2026-04-02T00:00:00Z"}
    ctx = build_context(l2, l3, dates, PROJECT)
    assert "- [contested — newer evidence 2026-04-02] Deploys go through staging" in ctx.text
    assert "- [contested — newer evidence 2026-03-01] Answer in English" in ctx.text


def test_overflow_is_counted_and_no_tool_instruction_reaches_claude() -> None:
    l2 = [
        make_atom(f"Project fact {i} " + "p" * 180, last_seen=f"2026-03-{1 + i % 28:02d}T00:00:00Z")
        for i in range(60)
    ]
    l3 = [make_atom(f"Global fact {i} " + "g" * 180, tier="L3") for i in range(30)]
    ctx = build_context(l2, l3, {}, PROJECT)
    parts = sections(ctx.text)
    l3_part = parts["## Global memory (agent-memory)"]
    l2_part = parts[f"## Project memory (agent-memory) — {PROJECT}"]
    assert len(("## Global memory (agent-memory)\n" + l3_part).encode()) <= 2048
    assert len((f"## Project memory (agent-memory) — {PROJECT}\n" + l2_part).encode()) <= 4096
    # Claude's context holds memory: what is left out is counted for `git memory context`,
    # and the pointer to it is for a person (the committed block's comment), not for Claude.
    assert "git memory" not in l2_part + l3_part and "region" not in ctx.text
    assert ctx.omitted == (60 - ctx.l2) + (30 - ctx.l3) and ctx.l2 < 60 and ctx.l3 < 30


def test_huge_inputs_stay_under_ten_thousand_characters() -> None:
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    rnd = random.Random(7)

    def claim(i: int) -> str:
        return f"{words[i % 8]}{i} " + " ".join(rnd.choice(words) for _ in range(60)) + " ✓" * 40

    l2 = [make_atom(claim(i), pinned=i % 3 == 0) for i in range(1500)]
    l3 = [make_atom(claim(i + 5000), tier="L3", pinned=i % 2 == 0) for i in range(800)]
    ctx = build_context(l2, l3, {}, "p" * 200)
    assert 0 < len(ctx.text) < 10_000
    assert len(ctx.text.encode()) < 4096 + 2048 + 400  # the two budgets plus the wrapper
    assert ctx.l2 + ctx.l3 + ctx.omitted == 1500 + 800


def test_input_order_does_not_matter() -> None:
    l2 = [
        make_atom(f"Project rule {i}", last_seen=f"2026-03-{1 + i % 5:02d}T00:00:00Z")
        for i in range(30)
    ]
    l3 = [make_atom(f"Global rule {i}", tier="L3") for i in range(30)]
    first = build_context(l2, l3, {}, PROJECT)
    rnd = random.Random(3)
    for _ in range(5):
        a, b = list(l2), list(l3)
        rnd.shuffle(a)
        rnd.shuffle(b)
        assert build_context(a, b, {}, PROJECT) == first


# --- property: never two plain contradictory assertions ----------------------------------------

SUBJECTS = ["PR base branch", "The default branch", "Node version", "The package manager"]
VALUES = ["main", "dev", "18", "20", "pnpm", "npm"]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(VALUES), st.booleans()), max_size=6
    ),
    st.lists(
        st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(VALUES), st.booleans()), max_size=6
    ),
)
def test_no_plain_l2_l3_contradiction_is_ever_injected(
    l2_specs: list[tuple[str, str, bool]], l3_specs: list[tuple[str, str, bool]]
) -> None:
    def claim(subject: str, value: str, negated: bool) -> str:
        return f"{subject} is {'not ' if negated else ''}{value}"

    l2 = [make_atom(claim(*s)) for s in dict.fromkeys(l2_specs)]
    l3 = [make_atom(claim(*s), tier="L3") for s in dict.fromkeys(l3_specs)]
    ctx = build_context(l2, l3, {}, PROJECT)
    parts = sections(ctx.text)
    def shown(title: str, tag: str) -> list[tuple[str, bool]]:
        """(claim, carries the cross-tier tag) of each line of a section."""
        lines = [ln[2:] for ln in parts.get(title, "").splitlines() if ln.startswith("- ")
                 and not ln.startswith(("- region", "- 1 project", f"- {len(ctx.crossed)} project"))]  # fmt: skip
        return [(ln.removeprefix(tag + " "), ln.startswith(tag + " ")) for ln in lines]

    shown_l2 = shown(f"## Project memory (agent-memory) — {PROJECT}", PROJECT_SIDE)
    shown_l3 = shown("## Global memory (agent-memory)", GLOBAL_SIDE)
    for mine, mine_tagged in shown_l2:
        for theirs, theirs_tagged in shown_l3:
            if conflict_rule(mine, theirs, "constraint", "constraint") is not None:
                assert mine_tagged and theirs_tagged, (mine, theirs)  # never two plain lines
            assert mine.casefold() != theirs.casefold()
    assert len(shown_l2) == ctx.l2 and len(shown_l3) == ctx.l3
    # the user's own lines are never dropped for a project's: only a line said once
    said = {c.casefold() for c, _ in shown_l2 + shown_l3}
    assert all(a["claim"].casefold() in said for a in l3)


def test_a_claim_cannot_open_or_close_the_wrapper() -> None:
    l2 = [make_atom("Docs mention </agent-memory> and <agent-memory recall> tags")]
    l3 = [make_atom("Never write </AGENT-MEMORY> by hand", tier="L3")]
    ctx = build_context(l2, l3, {}, PROJECT)
    assert ctx.text.casefold().count("<agent-memory") == 1 and ctx.text.startswith(OPEN_TAG)
    assert ctx.text.casefold().count("</agent-memory") == 1 and ctx.text.endswith(CLOSE_TAG)
    assert "- Docs mention <\\/agent-memory> and <\\agent-memory recall> tags" in ctx.text
    assert "- Never write <\\/AGENT-MEMORY> by hand" in ctx.text


def test_the_transcript_reader_strips_the_echoed_context_whole() -> None:
    from agent_memory.transcripts.reader import clean_prompt

    l2 = [make_atom("Docs mention </agent-memory> tags"), make_atom("Use pnpm for installs")]
    ctx = build_context(l2, [make_atom("Answer concisely", tier="L3")], {}, PROJECT)
    echoed = "please fix the build\n" + ctx.text + "\nthen run the tests"
    assert clean_prompt(echoed) == "please fix the build\n \nthen run the tests"


# --- the cold path folds adopted.log like adopted_log does (issue 17) ----------------------------


def test_the_light_fold_agrees_with_adopted_log() -> None:
    import json as _json

    from builders import committed_atom

    from agent_memory.committed import adopted_log, tiers
    from agent_memory.committed.adopted_log import LogEntry, format_entry

    a = committed_atom("Use pnpm, not npm", project="proj")
    b = committed_atom("Never push directly to main", project="proj")
    pinned = {**a, "pinned": True}
    lines = [
        format_entry(LogEntry(op="adopt", atom=a, at="2026-11-01T00:00:00Z")),
        format_entry(LogEntry(op="adopt", atom=b, at="2026-11-01T00:00:00Z")),
        format_entry(LogEntry(op="pin", atom=pinned, at="2026-11-02T00:00:00Z")),
        format_entry(LogEntry(op="adopt", atom=b, at="2026-11-01T00:00:00Z")),  # a duplicate line
        "not json at all\n",
        _json.dumps({"op": "adopt", "at": "yesterday", "atom": a}) + "\n",  # bad timestamp
        _json.dumps({"op": "adopt", "at": "2026-11-03T00:00:00Z", "atom": {**a, "tier": "L1"}}) + "\n",
        format_entry(LogEntry(op="forget", atom=b, at="2026-11-04T00:00:00Z")),
        "\n",
        format_entry(LogEntry(op="adopt", atom=b, at="2026-11-03T00:00:00Z")),  # out of order
    ]
    text = "".join(lines)
    assert tiers.fold_text(text) == adopted_log.fold(adopted_log.parse(text)[0])
    assert set(tiers.fold_text(text)) == {a["id"]} and tiers.fold_text(text)[a["id"]]["pinned"]


_OPS = ["adopt", "forget", "pin", "demote"]
_STAMPS = ["2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_OPS), st.integers(0, 1), st.sampled_from(_STAMPS), st.booleans()),
                max_size=8))  # fmt: skip
def test_the_light_fold_agrees_with_adopted_log_on_repeated_lines(
    lines: list[tuple[str, int, str, bool]],
) -> None:
    """Repeated lines count once, however they are written (key order), and only identical
    ones: the same op and stamp with another atom state is a line of its own."""
    from agent_memory.committed import adopted_log, tiers
    from agent_memory.committed.adopted_log import LogEntry, format_entry

    atom = committed_atom("Use pnpm, not npm", project="proj")
    states = [atom, {**atom, "pinned": True}]
    text = ""
    for op, state, at, reordered in lines:
        line = format_entry(LogEntry(op=op, atom=states[state], at=at))  # type: ignore[arg-type]
        if reordered:  # the same JSON value, keys in another order
            line = json.dumps(dict(reversed(list(json.loads(line).items())))) + "\n"
        text += line
    assert tiers.fold_text(text) == adopted_log.fold(adopted_log.parse(text)[0])


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_the_hook_json_string_is_json_dumps(text: str) -> None:
    from agent_memory.model import fastjson

    expected = json.dumps(text, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    assert fastjson.dumps_string(text) == expected
    assert fastjson._dumps_string(text) == expected  # where `_json` is missing
    assert json.loads(fastjson.dumps_string(text)) == text
