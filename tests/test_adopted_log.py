"""adopted.log: line format, tolerant parsing, the fold, and conflict-free union (spec §6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import git
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.committed import adopted_log
from agent_memory.committed.adopted_log import (
    LogEntry,
    fold,
    format_entry,
    format_log,
    parse,
    union,
)
from agent_memory.model.atom import Atom, atom_id, validate_atom

PROJECT = "demo-project"


def l2_atom(claim: str, **extra: Any) -> Atom:
    atom: Atom = {
        "id": atom_id(claim, PROJECT),
        "claim": claim,
        "scope": "project",
        "project": PROJECT,
        "kind": "constraint",
        "first_seen": "2026-01-05T09:00:00Z",
        "last_seen": "2026-03-01T10:00:00Z",
        "observations": 3,
        "sessions": ["sessA", "sessB", "sessC"],
        "source": "sessC.jsonl#L12",
        "first_source": "abc.jsonl#L3",
        "confidence": "stated",
        "tier": "L2",
        "promoted_at": "2026-03-02T00:00:00Z",
        "redacted": False,
        **extra,
    }
    return validate_atom(atom)


BASE = l2_atom("PR base branch is dev, never main")
LINT = l2_atom("Run ruff before committing")


def test_format_entry_is_one_sorted_compact_line() -> None:
    line = format_entry(LogEntry("adopt", BASE, "2026-03-02T00:00:00Z"))
    assert line.endswith("\n") and line.count("\n") == 1
    obj = json.loads(line)
    assert list(obj) == ["at", "atom", "op"]  # no review_commit when unknown (staged line)
    assert obj["atom"] == BASE
    assert line == json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def test_format_entry_with_review_commit_and_utf8() -> None:
    atom = l2_atom("Docs are written in français — keep accents")
    line = format_entry(LogEntry("adopt", atom, "2026-03-02T00:00:00Z", review_commit="ab" * 20))
    assert "français —" in line  # UTF-8, not \\u escapes
    assert json.loads(line)["review_commit"] == "ab" * 20
    assert list(json.loads(line)) == ["at", "atom", "op", "review_commit"]


def test_unicode_line_separators_are_escaped_so_splitlines_is_safe() -> None:
    atom = l2_atom("a\u2028b\x85c\u2029d")
    line = format_entry(LogEntry("adopt", atom, "2026-03-02T00:00:00Z"))
    assert len(line.splitlines()) == 1
    entries, errors = parse(line)
    assert errors == [] and entries[0].atom["claim"] == "a\u2028b\x85c\u2029d"


def test_round_trip() -> None:
    entries = [
        LogEntry("adopt", BASE, "2026-03-02T00:00:00Z", review_commit="c" * 40),
        LogEntry("pin", {**BASE, "pinned": True}, "2026-03-03T00:00:00Z"),
    ]
    parsed, errors = parse(format_log(entries))
    assert errors == [] and parsed == entries


def test_bad_lines_are_reported_by_number_and_never_hide_others() -> None:
    good1 = format_entry(LogEntry("adopt", BASE, "2026-03-02T00:00:00Z"))
    good2 = format_entry(LogEntry("adopt", LINT, "2026-03-04T00:00:00Z"))
    l1 = {**BASE, "tier": "L1"}
    text = (
        good1
        + "{not json\n"
        + "\n"  # blank lines are ignored, but still counted
        + json.dumps({"at": "2026-03-02T00:00:00Z", "atom": BASE, "op": "explode"})
        + "\n"
        + json.dumps({"at": "yesterday", "atom": BASE, "op": "adopt"})
        + "\n"
        + json.dumps({"at": "2026-03-02T00:00:00Z", "atom": l1, "op": "adopt"})
        + "\n"
        + json.dumps({"at": "2026-03-02T00:00:00Z", "atom": BASE, "op": "supersede"})
        + "\n"
        + good2
    )
    entries, errors = parse(text)
    assert [e.atom_id for e in entries] == [BASE["id"], LINT["id"]]
    assert [e.split(":")[0] for e in errors] == ["line 2", "line 4", "line 5", "line 6", "line 7"]
    assert "unknown op 'explode'" in errors[1]
    assert "not L2 or L3" in errors[3]
    assert "superseded_by" in errors[4]


def test_validate_runs_the_schema_and_invariants() -> None:
    unstripped = {**BASE, "source": "~/.claude/projects/-x/sessC.jsonl#L12"}
    text = format_entry(LogEntry("adopt", unstripped, "2026-03-02T00:00:00Z"))
    assert parse(text)[1] == []  # structural parse: the hook fast path
    entries, errors = parse(text, validate=True)
    assert entries == [] and errors and errors[0].startswith(f"line 1: atom {BASE['id']}:")


def test_log_entry_rejects_unknown_ops_and_timestamps() -> None:
    with pytest.raises(ValueError):
        LogEntry("promote", BASE, "2026-03-02T00:00:00Z")
    with pytest.raises(ValueError):
        LogEntry("adopt", BASE, "2026-03-02 00:00:00")


def test_fold_applies_ops_in_time_order() -> None:
    pinned = {**BASE, "pinned": True}
    entries = [
        LogEntry("adopt", BASE, "2026-03-02T00:00:00Z"),
        LogEntry("adopt", LINT, "2026-03-02T00:00:00Z"),
        LogEntry("forget", LINT, "2026-03-05T00:00:00Z"),
        # written later in the file but earlier in time: applied before the forget above
        LogEntry("pin", pinned, "2026-03-03T00:00:00Z"),
    ]
    held = fold(entries)
    assert list(held) == [BASE["id"]] and held[BASE["id"]]["pinned"] is True
    assert adopted_log.held_ids(entries) == {BASE["id"]}
    assert adopted_log.ever_adopted(entries) == {BASE["id"], LINT["id"]}


def test_same_second_ops_keep_file_order() -> None:
    pinned = {**BASE, "pinned": True}
    at = "2026-03-02T00:00:00Z"
    assert fold([LogEntry("adopt", BASE, at), LogEntry("pin", pinned, at)])[BASE["id"]] == pinned
    assert fold([LogEntry("adopt", BASE, at), LogEntry("pin", pinned, at),
                 LogEntry("unpin", BASE, at)])[BASE["id"]] == BASE  # fmt: skip


def test_demote_removes_and_every_setting_op_sets() -> None:
    at = iter(f"2026-03-{d:02d}T00:00:00Z" for d in range(1, 20))
    entries = [LogEntry("adopt", BASE, next(at))]
    for op, state in [
        ("decay", {**BASE, "decayed": True}),
        ("resolve", BASE),
        ("supersede", {**BASE, "superseded_by": LINT["id"]}),
        ("pin", {**BASE, "pinned": True}),
        ("unpin", BASE),
    ]:
        entries.append(LogEntry(op, state, next(at)))
        assert fold(entries)[BASE["id"]] == state
    entries.append(LogEntry("demote", BASE, next(at)))
    assert fold(entries) == {}


def test_identical_duplicate_lines_are_harmless() -> None:
    adopt = format_entry(LogEntry("adopt", BASE, "2026-03-02T00:00:00Z"))
    forget = format_entry(LogEntry("forget", BASE, "2026-03-06T00:00:00Z"))
    # A union merge can repeat a line after a later op; it must not resurrect the atom.
    entries, _ = parse(adopt + forget + adopt)
    assert fold(entries) == {}
    assert fold(parse(adopt + adopt)[0]) == fold(parse(adopt)[0])


def test_union_dedupes_sorts_and_keeps_unparseable_lines() -> None:
    a = format_entry(LogEntry("adopt", BASE, "2026-03-02T00:00:00Z"))
    b = format_entry(LogEntry("adopt", LINT, "2026-03-01T00:00:00Z"))
    merged = union(a + "garbage\n", a + b)
    assert merged == b + a + "garbage\n"
    assert union(merged, merged) == merged
    assert union("", "") == ""


def test_gitattributes_line() -> None:
    assert adopted_log.GITATTRIBUTES_LINE == ".memory/adopted.log merge=union"
    assert adopted_log.GITATTRIBUTES_LINE.split()[0] == adopted_log.LOG_PATH


# --- property: two machines' logs merge the same whichever way round ---------------------------

CLAIMS = [f"Rule number {i} holds for this project" for i in range(4)]
ATOMS = [l2_atom(c) for c in CLAIMS]


@st.composite
def entry_lists(draw: st.DrawFn, min_size: int = 0) -> list[LogEntry]:
    ops = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["adopt", "pin", "unpin", "decay", "forget", "demote"]),
                st.integers(0, len(ATOMS) - 1),
                st.integers(0, 5),  # few distinct seconds: same-second ties are exercised
            ),
            min_size=min_size,
            max_size=8,
        )
    )
    out = []
    for op, index, second in ops:
        atom = dict(ATOMS[index])
        if op == "pin":
            atom["pinned"] = True
        if op == "decay":
            atom["decayed"] = True
        out.append(LogEntry(op, atom, f"2026-03-02T00:00:0{second}Z"))
    return out


@settings(max_examples=150, deadline=None)
@given(entry_lists(), entry_lists(), entry_lists())
def test_union_is_symmetric_and_folds_the_same(
    base: list[LogEntry], ours: list[LogEntry], theirs: list[LogEntry]
) -> None:
    text_a = format_log(base + ours)
    text_b = format_log(base + theirs)
    merged = union(text_a, text_b)
    assert merged == union(text_b, text_a)
    assert union(merged, text_a) == merged  # absorbing: nothing new, nothing lost
    entries, errors = parse(merged)
    assert errors == []
    assert {format_entry(e) for e in entries} == {format_entry(e) for e in base + ours + theirs}
    assert [e.at for e in entries] == sorted(e.at for e in entries)


@settings(max_examples=100, deadline=None)
@given(entry_lists(), st.data())
def test_git_union_concatenation_folds_like_union_when_times_differ(
    base: list[LogEntry], data: st.DataObject
) -> None:
    # Distinct seconds per machine: git's merge=union may put either side's lines first.
    ours = [
        LogEntry(e.op, e.atom, e.at.replace("T00:00:0", "T00:01:0"))
        for e in data.draw(entry_lists())
    ]
    theirs = [
        LogEntry(e.op, e.atom, e.at.replace("T00:00:0", "T00:02:0"))
        for e in data.draw(entry_lists())
    ]
    one_way = parse(format_log(base + ours + theirs))[0]
    other_way = parse(format_log(base + theirs + ours))[0]
    canonical = parse(union(format_log(base + ours), format_log(base + theirs)))[0]
    assert fold(one_way) == fold(other_way) == fold(canonical)


def test_real_git_merge_union_folds_the_same_on_both_machines(repo: Path, tmp_path: Path) -> None:
    log = repo / ".memory" / "adopted.log"
    log.parent.mkdir()
    (repo / ".gitattributes").write_text(adopted_log.GITATTRIBUTES_LINE + "\n")
    log.write_text(format_entry(LogEntry("adopt", BASE, "2026-03-02T00:00:00Z")))
    git(repo, "add", ".gitattributes", ".memory/adopted.log")
    git(repo, "commit", "-q", "-m", "adopt base")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(repo), str(other))

    with log.open("a") as fh:  # machine A pins
        fh.write(format_entry(LogEntry("pin", {**BASE, "pinned": True}, "2026-03-04T00:00:00Z")))
    git(repo, "commit", "-q", "-am", "pin")
    other_log = other / ".memory" / "adopted.log"
    with other_log.open("a") as fh:  # machine B adopts another atom, then forgets it
        fh.write(format_entry(LogEntry("adopt", LINT, "2026-03-03T00:00:00Z")))
        fh.write(format_entry(LogEntry("forget", LINT, "2026-03-05T00:00:00Z")))
    git(other, "commit", "-q", "-am", "adopt and forget lint")

    git(other, "branch", "machine-b")  # B's state before either side merges
    git(other, "pull", "-q", "--no-rebase", "--no-edit", str(repo), "main")
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", str(other), "machine-b")
    text_a, text_b = log.read_text(), other_log.read_text()
    assert text_a != text_b  # git concatenated the two sides in opposite orders
    held_a, held_b = fold(parse(text_a)[0]), fold(parse(text_b)[0])
    assert held_a == held_b == {BASE["id"]: {**BASE, "pinned": True}}
    assert union(text_a, "") == union(text_b, "")


def test_a_reparsed_log_is_not_changed_by_editing_what_an_earlier_parse_returned() -> None:
    """parse() remembers recent texts (issue 17); each caller still gets atoms of its own."""
    text = format_entry(LogEntry("adopt", l2_atom("Use pnpm, not npm"), "2026-03-02T00:00:00Z")) + "\n"
    for _ in range(2):  # the first call fills the memo, the second reads it
        entries, _errors = adopted_log.parse(text)
        assert entries[0].atom["claim"] == "Use pnpm, not npm"
        entries[0].atom["claim"] = "edited by a caller"
        entries.append(entries[0])
    assert [e.atom["claim"] for e in adopted_log.parse(text)[0]] == ["Use pnpm, not npm"]
    # validating parses are never memoised: they report schema errors the fast parse skips
    assert adopted_log.parse(text, validate=True)[0][0].atom["claim"] == "Use pnpm, not npm"


# --- the incremental paths give what the whole computation gives --------------------------------

LINES = st.one_of(
    st.sampled_from(["", "garbage", "{}", '{"op": "adopt"}', "  ", "\r"]),
    entry_lists(min_size=1).map(lambda entries: format_entry(entries[0]).rstrip("\n")),
    entry_lists(min_size=1).map(lambda entries: format_entry(entries[0]).rstrip("\n") + "\r"),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(LINES, max_size=8), st.lists(LINES, min_size=1, max_size=4), st.booleans())
def test_a_log_that_extends_a_parsed_log_parses_as_a_whole(
    before: list[str], after: list[str], last_newline: bool
) -> None:
    """A text extending a remembered one by whole lines is parsed from the new lines only
    (each adopted item appends to the log the previous item wrote): same entries, same
    errors with the same line numbers as parsing it whole."""
    prior = "".join(line + "\n" for line in before)
    text = prior + "\n".join(after) + ("\n" if last_newline else "")
    adopted_log.parse(prior)
    entries, errors = adopted_log.parse(text)
    whole_entries, whole_errors = adopted_log._parse(text, validate=False)
    assert [format_entry(e) for e in entries] == [format_entry(e) for e in whole_entries]
    assert errors == whole_errors


def _fold_every_line_compared(entries: list[LogEntry]) -> dict[str, Atom]:
    """fold() as specified: identical lines (compared whole) count once, then (`at`, file
    order) decides; only an adopt makes an atom held, another setting op changes only a held one."""
    seen: set[str] = set()
    unique = []
    for entry in entries:
        if format_entry(entry) not in seen:
            seen.add(format_entry(entry))
            unique.append(entry)
    held: dict[str, Atom] = {}
    for entry in sorted(unique, key=lambda e: e.at):
        if entry.op in adopted_log.REMOVING_OPS:
            held.pop(entry.atom_id, None)
        elif entry.op == "adopt" or entry.atom_id in held:
            held[entry.atom_id] = entry.atom
    return dict(sorted(held.items()))


@settings(max_examples=200, deadline=None)
@given(entry_lists(), st.lists(st.tuples(st.integers(0, 7), st.booleans()), max_size=6))
def test_fold_compares_whole_lines_only_where_stamp_op_and_atom_agree(
    entries: list[LogEntry], repeats: list[tuple[int, bool]]
) -> None:
    """Lines are compared whole only when they share stamp, op and atom id; the fold is the
    same as comparing every line, with identical repeats and same-second variants (an entry
    with another atom state under the same stamp) mixed in."""
    mixed = list(entries)
    for index, variant in repeats:
        if not entries:
            break
        entry = entries[index % len(entries)]
        atom = {**entry.atom, "pinned": True} if variant else entry.atom
        mixed.append(LogEntry(entry.op, atom, entry.at))
    assert fold(mixed) == _fold_every_line_compared(mixed)
    assert list(fold(mixed)) == list(_fold_every_line_compared(mixed))
