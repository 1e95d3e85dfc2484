"""The saved fold of an adopted.log (committed/log_fold.py): re-entered after an append it
reads only the new lines, and whatever happened to the file — lines appended in pieces,
another process mid-line, lines out of order or repeated, junk and non-UTF-8 lines, the file
cut short, a line dropped or edited in place, the file replaced — it holds exactly what a
whole read (`tiers.fold_text`, what `tiers.held` gives) holds. Real files in tmp_path."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from builders import committed_atom
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.committed import adopted_log, log_fold, tiers
from agent_memory.committed.adopted_log import LogEntry, format_entry

_A = committed_atom("Use pnpm — not npm — for installs", project="proj")
_B = committed_atom("Never push directly to main", project="proj")
ATOMS = [_A, {**_A, "pinned": True}, _B, {**_B, "pinned": True}, {**_A, "decayed": True}]
# forget/demote then pin/unpin/decay (a teammate's, union-merged): a setting op on an atom
# not held changes nothing, whichever order the lines were appended in
OPS = ["adopt", "forget", "pin", "demote", "unpin", "decay"]
STAMPS = ["2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z", "2026-11-03T00:00:00Z", "2026-11-04T00:00:00Z"]


def whole_read(root: Path) -> dict[str, Any]:
    """What a whole read holds: `tiers.held`'s own rules (UTF-8 line by line, then fold_text),
    which are `adopted_log.fold`'s."""
    text, _ = tiers.decode_lines((root / ".memory" / "adopted.log").read_bytes())
    held = tiers.fold_text(text)
    assert held == adopted_log.fold(adopted_log.parse(text)[0])
    return held


def line(op: str, atom: int, stamp: int, reordered: bool) -> bytes:
    text = format_entry(LogEntry(op=op, atom=ATOMS[atom], at=STAMPS[stamp]))
    if reordered:  # the same JSON value, keys in another order: a copy all the same
        text = json.dumps(dict(reversed(list(json.loads(text).items()))), ensure_ascii=False) + "\n"
    return text.encode("utf-8")


JUNK = {"junk": b"not json at all\n", "not utf-8": b'{"op": "adopt", \xff\xfe}\n', "blank": b"\n",
        "bad stamp": json.dumps({"op": "adopt", "at": "yesterday", "atom": _A}).encode() + b"\n"}  # fmt: skip
LINES = st.one_of(
    st.builds(line, st.sampled_from(OPS), st.integers(0, len(ATOMS) - 1), st.integers(0, len(STAMPS) - 1),
              st.booleans()),
    st.sampled_from(sorted(JUNK)).map(JUNK.__getitem__),
)
EVENTS = st.one_of(
    # lines appended, of which only a share reaches the file now (a writer mid-line)
    st.tuples(st.just("append"), st.lists(LINES, max_size=4), st.integers(0, 100)),
    st.tuples(st.just("drop a line"), st.integers(0, 20), st.just(0)),
    st.tuples(st.just("cut short"), st.integers(0, 100), st.just(0)),
    st.tuples(st.just("edit a byte"), st.integers(0, 10_000), st.just(0)),
    st.tuples(st.just("replaced"), st.just(None), st.just(0)),
)


class Log:
    """The file, as writers leave it: appends and in-place rewrites keep its inode
    (gitio.state.overwrite), `replaced` is a new file (a checkout)."""

    def __init__(self, root: Path) -> None:
        (root / ".memory").mkdir(parents=True, exist_ok=True)
        self.path = root / ".memory" / "adopted.log"
        self.path.write_bytes(b"")
        self.pending = b""  # what a writer has yet to write

    def rewrite(self, data: bytes) -> None:
        fd = os.open(self.path, os.O_WRONLY)
        try:
            os.write(fd, data)
            os.ftruncate(fd, len(data))
        finally:
            os.close(fd)
        self.pending = b""

    def apply(self, event: tuple[str, Any, int]) -> None:
        kind, arg, share = event
        data = self.path.read_bytes()
        if kind == "append":
            more = self.pending + b"".join(arg)
            cut = len(more) * share // 100
            with self.path.open("ab") as fh:
                fh.write(more[:cut])
            self.pending = more[cut:]
        elif kind == "drop a line":
            lines = data.split(b"\n")
            if len(lines) > 1:
                del lines[arg % (len(lines) - 1)]
            self.rewrite(b"\n".join(lines))
        elif kind == "cut short":
            self.rewrite(data[: len(data) * arg // 100])
        elif kind == "edit a byte" and data:
            at = arg % len(data)
            self.rewrite(data[:at] + (b"x" if data[at : at + 1] != b"x" else b"y") + data[at + 1 :])
        elif kind == "replaced":
            tmp = self.path.with_name("adopted.log.new")
            tmp.write_bytes(data)
            os.replace(tmp, self.path)
            self.pending = b""


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(EVENTS, st.booleans()), max_size=12))
def test_the_saved_fold_holds_what_a_whole_read_holds(
    tmp_path: Path, events: list[tuple[tuple[str, Any, int], bool]]
) -> None:
    """After each event the hook reads the log, or not (then the next changes pile up)."""
    root = tmp_path / f"w{os.urandom(4).hex()}"
    log = Log(root)
    saved: object = None
    for event, read in events:
        log.apply(event)
        if read:
            held, saved, _ = log_fold.held_since(root, saved)
            assert held == whole_read(root), event
            assert held == log_fold.held_since(root)[0]  # and what reading it from nothing gives


class Killed(Exception):
    """What a hook killed right after a checkpoint leaves: the saved state, nothing else."""


def read_in_pieces(root: Path, saved: object, chunk: int, kill_after: int) -> tuple[dict[str, Any], object]:
    """What hooks that each stop at their deadline (or are killed `kill_after` checkpoints
    into their read) get, run again and again from the state they saved until one reads
    to the end: (what that one holds, the state it leaves)."""
    for _ in range(100_000):
        saves: list[object] = []

        def checkpoint(state: object, saves: list[object] = saves) -> None:
            saves.append(state)
            if len(saves) > kill_after:
                raise Killed

        try:
            held, state, _ = log_fold.held_since(root, saved, 0.0, checkpoint, chunk)
        except log_fold.FoldIncomplete as stopped:
            assert saves and saves[-1] == stopped.state and stopped.done == stopped.state[5] < stopped.size
            saved = stopped.state
            continue
        except Killed:
            saved = saves[-1]
            continue
        return held, state
    raise AssertionError("the read never reached the end of the log")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(EVENTS, st.booleans()), max_size=12), st.integers(1, 400), st.integers(0, 3))
def test_a_read_stopped_or_killed_and_resumed_holds_what_a_whole_read_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, events: list[tuple[tuple[str, Any, int], bool]],
    chunk: int, kill_after: int,
) -> None:  # fmt: skip
    """Hooks that stop at their deadline after a chunk of `chunk` bytes, or are killed after
    a few checkpoints (one per chunk here), each resuming from the state the last saved:
    the one that reads to the end holds what a whole read holds, and leaves a state that
    resumes as one a whole read leaves."""
    monkeypatch.setattr(log_fold, "CHECKPOINT_S", 0.0)
    root = tmp_path / f"w{os.urandom(4).hex()}"
    log = Log(root)
    saved: object = None
    for event, read in events:
        log.apply(event)
        if read:
            held, saved = read_in_pieces(root, saved, chunk, kill_after)
            assert held == whole_read(root), event
            assert saved == log_fold.held_since(root)[1]  # the state a whole read leaves


def test_a_repeated_line_counts_once_where_it_first_was(tmp_path: Path) -> None:
    """Lines with one stamp apply in file order, a copy of an earlier one not at all: appended
    one by one, as a whole read would apply them."""
    log = Log(tmp_path)
    saved: object = None
    for entry in [line("adopt", 0, 1, False), line("forget", 0, 1, False), line("adopt", 0, 1, True),
                  line("adopt", 2, 1, False), line("demote", 2, 0, False), line("pin", 3, 1, False),
                  line("adopt", 2, 1, True)]:  # fmt: skip
        log.apply(("append", [entry], 100))
        held, saved, _ = log_fold.held_since(tmp_path, saved)
        assert held == whole_read(tmp_path)
    assert set(held) == {_B["id"]} and held[_B["id"]]["pinned"]


def test_a_setting_op_on_an_atom_not_held_changes_nothing_in_any_order_of_appends(tmp_path: Path) -> None:
    """Alice's forget and Bob's later pin, union-merged: the pin does not bring the atom back;
    lines appended older than the id's newest (a union merge appends a teammate's older lines
    at the end) are applied where their `at` puts them, read incrementally as read whole."""
    log = Log(tmp_path)
    saved: object = None

    def then(*lines: bytes) -> dict[str, Any]:
        nonlocal saved
        log.apply(("append", list(lines), 100))
        held, saved, _ = log_fold.held_since(tmp_path, saved)
        assert held == whole_read(tmp_path) == log_fold.held_since(tmp_path)[0]
        return held

    assert set(then(line("adopt", 0, 0, False), line("forget", 0, 1, False))) == set()
    assert then(line("pin", 1, 2, False)) == {}  # Bob's later pin
    assert then(line("decay", 4, 3, False)) == {}  # and decay
    assert then(line("unpin", 0, 3, False)) == {}
    # only an adopt brings it back, and then the later setting lines apply to it again
    held = then(line("adopt", 0, 1, False))  # same `at` as the forget, after it in file order
    assert held == {_A["id"]: _A}  # the unpin, after the decay at its `at`
    assert then(line("forget", 0, 1, True)) == held  # a copy of the forget: counts once
    # an id whose first lines are setting ops: nothing, until an older adopt is appended
    assert then(line("pin", 3, 2, False), line("unpin", 2, 3, False)) == held
    assert then(line("adopt", 2, 0, False))[_B["id"]] == _B  # adopt, pin, unpin in `at` order
    assert then(line("demote", 2, 1, False)) == held  # between the adopt and the pin
    assert then(line("adopt", 2, 2, False))[_B["id"]] == _B  # at the pin's `at`, after it: unpin still last


def test_only_the_appended_lines_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = Log(tmp_path)
    log.apply(("append", [line("adopt", n % 4, n % 3, False) for n in range(200)], 100))
    held, saved, _ = log_fold.held_since(tmp_path)
    assert held == whole_read(tmp_path) and saved is not None
    parsed: list[str] = []
    real = log_fold.entry_of

    def counting(text: str) -> object:
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(log_fold, "entry_of", counting)
    log.apply(("append", [line("forget", 0, 2, False), line("pin", 3, 2, False)], 100))
    held, saved, _ = log_fold.held_since(tmp_path, saved)
    assert len(parsed) == 2 and held == whole_read(tmp_path)
    assert set(held) == {_B["id"]} and held[_B["id"]]["pinned"]
    parsed.clear()
    assert log_fold.held_since(tmp_path, saved)[0] == held and parsed == []  # nothing new


def test_many_distinct_lines_of_one_id_and_stamp_are_each_digested_a_bounded_number_of_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a line is a copy of one already at its `at` was a pass over them all, each
    digested again: a hand-written log of 2,000 distinct pin lines of one atom at one stamp
    (821 KB) took ~40 s to fold, every hook killed at its timeout for ever. Each line is now
    digested a bounded number of times, resumed or not. Counted, never timed."""
    log = Log(tmp_path)
    stamp = STAMPS[1]
    lines = [format_entry(LogEntry("pin", {**_A, "sessions": [f"s{n}"]}, stamp)).encode() for n in range(2000)]
    log.apply(("append", [line("adopt", 0, 0, False), *lines[:1000]], 100))
    digested: list[object] = []
    real = log_fold._digest

    def counting(entry: Any) -> bytes:
        if not isinstance(entry, bytes):
            digested.append(entry)
        return real(entry)

    monkeypatch.setattr(log_fold, "_digest", counting)
    held, saved, _ = log_fold.held_since(tmp_path)
    log.apply(("append", [*lines[1000:], lines[5]], 100))  # and a copy of an early one
    held, saved, _ = log_fold.held_since(tmp_path, saved)
    assert held == whole_read(tmp_path) and held[_A["id"]]["sessions"] == ["s1999"]
    assert len(digested) <= 2 * (len(lines) + 2), len(digested)


def test_a_line_being_written_counts_as_a_whole_read_counts_it_and_is_read_again(tmp_path: Path) -> None:
    log = Log(tmp_path)
    log.apply(("append", [line("adopt", 0, 0, False)], 100))
    _, saved, _ = log_fold.held_since(tmp_path)
    forget = line("forget", 0, 1, False)
    for share in (1, 50, 99):  # the writer's progress: the half line is junk until it is whole
        log.rewrite(log.path.read_bytes()[: saved[5]] + forget[: len(forget) * share // 100])  # type: ignore[index]
        held, saved, _ = log_fold.held_since(tmp_path, saved)
        assert held == whole_read(tmp_path) and set(held) == {_A["id"]}
    with log.path.open("ab") as fh:
        fh.write(forget[len(forget) * 99 // 100 : -1])  # all but its newline: a whole entry
    held, saved, _ = log_fold.held_since(tmp_path, saved)
    assert held == whole_read(tmp_path) == {}
    with log.path.open("ab") as fh:
        fh.write(b"\n" + line("adopt", 2, 2, False))
    assert log_fold.held_since(tmp_path, saved)[0] == whole_read(tmp_path) and set(whole_read(tmp_path)) == {_B["id"]}


def test_a_rewrite_past_the_windows_is_seen_by_what_it_moves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The saved windows are the log's first and last bytes read: a line dropped between them
    (`validate --fix`), then lines appended past the old length, moves the last window."""
    monkeypatch.setattr(log_fold, "WINDOW", 64)
    log = Log(tmp_path)
    log.apply(("append", [line("adopt", 2, 0, False), line("adopt", 0, 0, False),
                          line("pin", 3, 1, False)], 100))  # fmt: skip
    held, saved, _ = log_fold.held_since(tmp_path)
    assert set(held) == {_A["id"], _B["id"]}
    lines = log.path.read_bytes().split(b"\n")
    log.rewrite(b"\n".join(lines[:1] + lines[2:]) + line("pin", 3, 2, False) * 3)
    held, saved, _ = log_fold.held_since(tmp_path, saved)
    assert held == whole_read(tmp_path) and set(held) == {_B["id"]}


def test_non_utf8_lines_are_named_once_when_read(tmp_path: Path) -> None:
    log = Log(tmp_path)
    log.apply(("append", [line("adopt", 0, 0, False), JUNK["not utf-8"]], 100))
    held, saved, bad = log_fold.held_since(tmp_path)
    assert set(held) == {_A["id"]} and bad == [f"line 2 (byte offset {len(line('adopt', 0, 0, False)) + 16}): not UTF-8"]
    assert bad == tiers.decode_lines(log.path.read_bytes())[1]
    log.apply(("append", [line("adopt", 2, 0, False)], 100))
    held, saved, bad = log_fold.held_since(tmp_path, saved)
    assert set(held) == {_A["id"], _B["id"]} and bad == []


def test_a_state_it_did_not_save_is_read_as_none_at_all(tmp_path: Path) -> None:
    log = Log(tmp_path)
    log.apply(("append", [line("adopt", 0, 0, False), line("adopt", 2, 1, False)], 100))
    _, saved, _ = log_fold.held_since(tmp_path)
    assert isinstance(saved, tuple)
    entries = dict(saved[9])
    damaged: list[object] = [
        None, "garbage", (), saved[:9], (log_fold.STATE_VERSION + 1, *saved[1:]),
        (*saved[:5], -5, *saved[6:]),  # an offset before the start
        (*saved[:5], 10**12, *saved[6:]),  # past the end
        (*saved[:9], {k: (1, "adopt", None, ()) for k in entries}),  # a stamp that is no text
        (*saved[:9], {k: v[:3] for k, v in entries.items()}),
    ]  # fmt: skip
    log.apply(("append", [line("pin", 1, 2, False), line("adopt", 2, 1, False)], 100))
    for state in damaged:
        assert log_fold.held_since(tmp_path, state)[0] == whole_read(tmp_path), state
