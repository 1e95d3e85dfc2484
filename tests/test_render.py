"""The L2/L3 marker block: exact shape, byte budget, never-silent overflow, the block inside a
file, and the CLAUDE.md import (seed 002, spec §4.2, §5.1)."""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

import pytest
from builders import committed_atom
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.committed.render import (
    IMPORT_LINE,
    MalformedBlockError,
    block_of,
    ensure_import,
    file_claim,
    find_block,
    hand_edited,
    render_block,
    replace_block,
    unique_by_id,
)
from agent_memory.model.atom import Atom
from agent_memory.model.clock import iso_z

PROJECT = "demo-project"
REGION_RE = re.compile(
    r"^<!-- (\d+) more adopted atoms? not shown"
    r"(?: \((?:(\d+) decayed)?(?:, )?(?:(\d+) superseded)?\))?: `git memory inspect --tier (L2|L3)` -->$"
)


def make_atom(
    claim: str, tier: str = "L2", last_seen: str = "2026-03-01T10:00:00Z", **extra: Any
) -> Atom:
    return committed_atom(claim, tier, last_seen, PROJECT, **extra)


def day(n: int) -> str:
    return f"2026-03-{n:02d}T10:00:00Z"


def test_exact_shape() -> None:
    atoms = [
        make_atom("Never force-push to main", last_seen=day(1), pinned=True),
        make_atom("Run ruff before\n committing", last_seen=day(5)),
        make_atom("Use pnpm, not npm", last_seen=day(9)),
        make_atom("Old habit", last_seen=day(2), decayed=True),
        make_atom("Tests live in tests/", last_seen=day(3), superseded_by="atm_0123abcd"),
    ]
    block = render_block(atoms, "L2")
    assert block.text == (
        "<!-- agent-memory:begin L2 -->\n"
        "## Project memory (agent-memory)\n"
        "<!-- Rendered from .memory/adopted.log. Change it with git memory "
        "pin|unpin|decay|forget|supersede, not by hand. -->\n"
        "\n"
        "### Pinned\n"
        "- Never force-push to main\n"
        "\n"
        "### Recent\n"
        "- Use pnpm, not npm\n"
        "- Run ruff before committing\n"
        "\n"
        "<!-- 2 more adopted atoms not shown (1 decayed, 1 superseded): `git memory inspect --tier L2` -->\n"
        "<!-- agent-memory:end L2 -->\n"
    )
    assert block.shown == (atoms[0]["id"], atoms[2]["id"], atoms[1]["id"])
    assert set(block.omitted) == {atoms[3]["id"], atoms[4]["id"]}


def test_l3_shape_omits_empty_headings_and_region_line() -> None:
    atoms = [
        make_atom("Prefer small commits", tier="L3"),
        make_atom("Answer in English", tier="L3"),
    ]
    text = render_block(atoms, "L3").text
    assert text.startswith("<!-- agent-memory:begin L3 -->\n## Global memory (agent-memory)\n")
    assert text.endswith("<!-- agent-memory:end L3 -->\n")
    assert "### Pinned" not in text and "### Recent" in text and "not shown" not in text
    only_pinned = render_block(
        [make_atom("Prefer small commits", tier="L3", pinned=True)], "L3"
    ).text
    assert "### Pinned" in only_pinned and "### Recent" not in only_pinned


def test_pinned_decayed_atom_stays_pinned() -> None:
    atom = make_atom("Hooks read tool input from stdin", pinned=True, decayed=True)
    assert render_block([atom], "L2").shown == (atom["id"],)


def test_empty_set_renders_a_block_of_comments_only() -> None:
    """Issue 18: an empty tier puts nothing in Claude's context — no title, no hint line; the
    note for a person reading the file is an HTML comment."""
    for tier in ("L2", "L3"):
        block = render_block([], tier)
        lines = block.text.splitlines()
        assert lines[0] == f"<!-- agent-memory:begin {tier} -->"
        assert lines[-1] == f"<!-- agent-memory:end {tier} -->"
        assert "Nothing adopted yet" in lines[-2]
        assert all(line.startswith("<!--") and line.endswith("-->") for line in lines)
        assert block.shown == block.omitted == ()


def test_everything_decayed_still_points_at_the_rest() -> None:
    block = render_block([make_atom("Old habit", decayed=True)], "L2")
    assert block.shown == () and "### " not in block.text
    assert "<!-- 1 more adopted atom not shown (1 decayed): `git memory inspect --tier L2` -->\n" in block.text


def test_contested_tag_uses_the_newer_atoms_date() -> None:
    newer = make_atom("PR base branch is main", last_seen="2026-05-01T08:00:00Z")
    older = make_atom(
        "PR base branch is dev",
        last_seen="2026-03-01T08:00:00Z",
        contested=True,
        contested_by=[newer["id"]],
    )
    # The newer atom is at hand: its date, not the contested atom's own.
    assert (
        "- [contested — newer evidence 2026-05-01] PR base branch is dev\n"
        in render_block([older, newer], "L2").text
    )
    # The caller's mapping wins (timestamp or plain date).
    mapped = render_block([older], "L2", contested_dates={older["id"]: "2026-06-07T23:59:59Z"})
    assert "[contested — newer evidence 2026-06-07] PR base branch is dev" in mapped.text
    mapped = render_block([older], "L2", contested_dates={older["id"]: "2026-06-08"})
    assert "[contested — newer evidence 2026-06-08]" in mapped.text
    # Contested with no known newer date: its own last_seen day.
    alone = render_block([older], "L2").text
    assert "[contested — newer evidence 2026-03-01] PR base branch is dev" in alone
    # A reverse-join contested atom (only named in the mapping) is tagged too.
    other = make_atom("Deploys run on Fridays")
    assert (
        "[contested — newer evidence 2026-07-01]"
        in render_block([other], "L2", contested_dates={other["id"]: "2026-07-01"}).text
    )


def test_pinned_is_never_pushed_out_by_recency() -> None:
    pinned = [make_atom(f"Pinned rule {i}", last_seen=day(1), pinned=True) for i in range(3)]
    recent = [
        make_atom(f"Recent observation {i} " + "x" * 150, last_seen=day(20)) for i in range(60)
    ]
    block = render_block(recent + pinned, "L2", budget=1500)
    assert {a["id"] for a in pinned} <= set(block.shown)
    assert block.shown[:3] == tuple(sorted(a["id"] for a in pinned))  # same last_seen: by id
    assert len(block.text.encode()) <= 1500
    assert 0 < len(block.omitted) < 60


def test_truncation_drops_the_oldest_first() -> None:
    atoms = [
        make_atom(f"Observation {i:02d} " + "y" * 100, last_seen=day(i + 1)) for i in range(20)
    ]
    block = render_block(atoms, "L2", budget=1200)
    newest = sorted(atoms, key=lambda a: a["last_seen"], reverse=True)
    assert block.shown == tuple(a["id"] for a in newest[: len(block.shown)])


def test_default_budgets_hold_for_large_stores() -> None:
    many = [make_atom(f"Claim {i} " + "é" * 200, last_seen=day(1 + i % 28)) for i in range(200)]
    l2 = render_block(many, "L2")
    assert len(l2.text.encode()) <= 4096 and len(l2.shown) + len(l2.omitted) == 200
    many_l3 = [make_atom(f"Claim {i} " + "é" * 200, tier="L3") for i in range(100)]
    l3 = render_block(many_l3, "L3")
    assert len(l3.text.encode()) <= 2048 and l3.omitted
    assert f"<!-- {len(l3.omitted)} more adopted atoms not shown: `git memory inspect --tier L3` -->\n" in l3.text


def test_a_budget_below_the_frame_is_refused() -> None:
    with pytest.raises(ValueError, match="too small"):
        render_block([make_atom("A claim")], "L2", budget=100)
    with pytest.raises(ValueError):
        render_block([make_atom("A claim", tier="L3")], "L4")


# --- properties -------------------------------------------------------------------------------

CLAIM_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=["Cs", "Cc"]) | st.sampled_from(["\n", " ", "\t"]),
    min_size=1,
    max_size=200,
).filter(lambda s: s.strip() != "")
WHEN = st.datetimes(min_value=dt.datetime(2026, 1, 1), max_value=dt.datetime(2026, 12, 31))


@st.composite
def atom_sets(draw: st.DrawFn) -> list[Atom]:
    specs = draw(
        st.lists(
            st.tuples(CLAIM_TEXT, WHEN, st.booleans(), st.booleans(), st.booleans(), st.booleans()),
            max_size=40,
            unique_by=lambda t: " ".join(t[0].split()).casefold(),
        )
    )
    atoms = []
    for claim, when, pinned, decayed, superseded, contested in specs:
        extra: dict[str, Any] = {"pinned": pinned, "decayed": decayed}
        if superseded:
            extra["superseded_by"] = "atm_0123abcd"
        if contested:
            extra["contested"] = True
        atoms.append(make_atom(claim, last_seen=iso_z(when), **extra))
    return atoms


def _region(text: str) -> tuple[int, int, int] | None:
    last = text.splitlines()[-2]
    match = REGION_RE.match(last)
    if not match:
        return None
    return int(match.group(1)), int(match.group(2) or 0), int(match.group(3) or 0)


@settings(max_examples=150, deadline=None)
@given(atom_sets(), st.integers(400, 6000), st.sampled_from(["L2", "L3"]), st.randoms())
def test_budget_and_accounting_hold_for_any_atom_set(
    atoms: list[Atom], budget: int, tier: str, rnd: random.Random
) -> None:
    block = render_block(atoms, tier, budget=budget)
    assert len(block.text.encode("utf-8")) <= budget
    ids = {a["id"] for a in atoms}
    assert set(block.shown).isdisjoint(block.omitted)
    assert set(block.shown) | set(block.omitted) == ids  # shown or counted, never dropped

    superseded = {a["id"] for a in atoms if a.get("superseded_by")}
    decayed = {a["id"] for a in atoms if a["decayed"] and not a["pinned"]} - superseded
    region = _region(block.text)
    if block.omitted:
        assert region is not None and region[0] == len(block.omitted)
        assert region[1:] == (len(decayed), len(superseded))
    else:
        assert region is None and "not shown" not in block.text
    assert not (set(block.shown) & (decayed | superseded))

    working_pinned = {a["id"] for a in atoms if a["pinned"]} - superseded
    if set(block.shown) - working_pinned:  # a recent line is shown → every pinned one is
        assert working_pinned <= set(block.shown)

    # Same input in any order → the same bytes.
    shuffled = list(atoms)
    rnd.shuffle(shuffled)
    assert render_block(shuffled, tier, budget=budget) == block


@settings(max_examples=100, deadline=None)
@given(atom_sets())
def test_every_shown_claim_is_one_line_in_display_order(atoms: list[Atom]) -> None:
    block = render_block(atoms, "L2", budget=20_000)
    by_id = {a["id"]: a for a in unique_by_id(atoms)}  # two records of one id: the one rendered
    lines = [line for line in block.text.splitlines() if line.startswith("- ")]
    claim_lines = lines[: len(block.shown)]
    for line, ident in zip(claim_lines, block.shown, strict=True):
        # one line, and nothing in it that the client (issue 23) or a forge interprets
        claim = str(by_id[ident]["claim"])
        assert line.endswith(file_claim(claim))
        # ... nor anything that opens or closes the injected context's wrapper
        assert "<agent-memory" not in line.casefold() and "</agent-memory" not in line.casefold()
        assert ("[contested — newer evidence" in line) == bool(by_id[ident].get("contested"))


# Characters whose casefold() is longer than they are (ß → ss, ﬁ → fi, İ → i̇, ŉ → ʼn, ẚ → aʾ),
# alone and in runs long enough to move an offset past a whole tag, or that fold to an ASCII
# letter (K → k, ſ → s), next to the wrapper's tags in any case: an escape that indexed the
# claim with offsets of its casefolded copy missed the tag. Cut to a claim's 500 characters.
_EXPANDING = ["ß", "ﬁ", "İ", "ŉ", "ẚ", "ﬅ"]
_WRAPPER_TEXT = st.lists(
    st.sampled_from([*_EXPANDING, *(c * 20 for c in _EXPANDING), "Straße " * 20, "K", "ſ", "<", "</",
                     "<agent-memory>", "</agent-memory>", "</AGENT-MEMORY>", "<Agent-Memory recall>",
                     "agent-memory", ">"])
    | st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=6),
    min_size=1, max_size=50,
).map(lambda parts: "".join(parts)[:500]).filter(lambda s: s.strip() != "")  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(_WRAPPER_TEXT)
def test_a_rendered_line_never_holds_a_wrapper_tag(claim: str) -> None:
    """Whatever the claim, its block line (and so the SessionStart context) cannot open or
    close the `<agent-memory>` wrapper, compared case-insensitively both ways."""
    [line] = [ln for ln in render_block([make_atom(claim)], "L2", budget=20_000).text.splitlines()
              if ln.startswith("- ")]  # fmt: skip
    assert not re.search(r"</?agent-memory", line, re.I), line
    folded = line.casefold()
    assert "<agent-memory" not in folded and "</agent-memory" not in folded, line


# --- the block inside a file ------------------------------------------------------------------

OUTSIDE = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=200).filter(
    lambda s: "agent-memory:" not in s
)


@settings(max_examples=150, deadline=None)
@given(OUTSIDE, OUTSIDE, st.booleans())
def test_replace_block_keeps_everything_outside_byte_for_byte(
    before: str, after: str, final_newline: bool
) -> None:
    before = before + "\n" if before else ""
    old = render_block([make_atom("Old claim")], "L2").text
    new = render_block([make_atom("New claim"), make_atom("Another")], "L2").text
    if not final_newline and not after:
        old = old.rstrip("\n")  # a block at the very end of a file with no final newline
    text = before + old + after
    replaced = replace_block(text, new, "L2")
    assert replaced == before + new + after
    assert block_of(replaced, "L2") == new
    assert replace_block(replaced, new, "L2") == replaced


def test_replace_block_appends_after_a_blank_line_when_absent() -> None:
    block = render_block([make_atom("A claim")], "L2").text
    assert replace_block("", block, "L2") == block
    assert replace_block("# Notes\n", block, "L2") == "# Notes\n\n" + block
    assert replace_block("# Notes", block, "L2") == "# Notes\n\n" + block
    assert replace_block("# Notes\n\n", block, "L2") == "# Notes\n\n" + block


def test_the_two_tiers_are_independent_blocks() -> None:
    l2 = render_block([make_atom("Project claim")], "L2").text
    l3 = render_block([make_atom("Global claim", tier="L3")], "L3").text
    text = replace_block(replace_block("intro\n", l2, "L2"), l3, "L3")
    assert block_of(text, "L2") == l2 and block_of(text, "L3") == l3
    span = find_block(text, "L2")
    assert span is not None and text[span[0] : span[1]] == l2


def test_malformed_markers_are_refused() -> None:
    block = render_block([make_atom("A claim")], "L2").text
    begin, end = "<!-- agent-memory:begin L2 -->\n", "<!-- agent-memory:end L2 -->\n"
    for broken in (block + block, "x\n" + begin + "half a block\n", end + "x\n" + begin, end):
        with pytest.raises(MalformedBlockError):
            find_block(broken, "L2")
    assert find_block("no block here\n", "L2") is None
    # A marker quoted mid-line is not a marker.
    assert find_block("see `<!-- agent-memory:begin L2 -->` in the docs\n", "L2") is None


def test_hand_edit_detection() -> None:
    atoms = [make_atom("Use pnpm"), make_atom("Run ruff", pinned=True)]
    expected = render_block(atoms, "L2").text
    file_text = "# CLAUDE memory\n\n" + expected + "\nTrailing notes\n"
    assert not hand_edited(file_text, expected, "L2")
    assert not hand_edited(file_text.replace("\n", "\r\n"), expected, "L2")  # CRLF checkout
    assert not hand_edited(replace_block("edited outside\n", expected, "L2"), expected, "L2")
    assert hand_edited(file_text.replace("- Use pnpm", "- Use npm"), expected, "L2")
    assert hand_edited("# CLAUDE memory\n", expected, "L2")  # block deleted
    assert hand_edited(file_text + expected, expected, "L2")  # block duplicated
    assert hand_edited(file_text, render_block(atoms[:1], "L2").text, "L2")  # log moved on


def test_ensure_import_adds_once_and_keeps_content() -> None:
    original = "# Project rules\n\nBe kind.\n"
    once = ensure_import(original, IMPORT_LINE)
    assert once == original + "\n@CLAUDE.memory.md\n"
    assert ensure_import(once, IMPORT_LINE) == once
    assert ensure_import("", IMPORT_LINE) == "@CLAUDE.memory.md\n"
    assert ensure_import("no newline", IMPORT_LINE) == "no newline\n\n@CLAUDE.memory.md\n"
    already = "@CLAUDE.memory.md\n# Project rules\n"
    assert ensure_import(already, IMPORT_LINE) == already
    home_line = "@~/.claude/agent-memory/CLAUDE.memory.md"
    both = ensure_import(ensure_import(once, home_line), home_line)
    assert both == once + "\n" + home_line + "\n"


