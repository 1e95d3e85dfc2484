"""What has been captured, as it was then: `.git/agent-memory/captured.log`, so a capture reads
only what is new. Local state, never committed.

One line per capture of a source, appended with O_APPEND (concurrent background captures lose
no line); the latest line of a source wins. Tab-separated, the key last:

    v2 <kind> <signature> <offset>:<line>:<checksum>|- <why unreadable, or nothing> <key>

— the source's kind and key (for a transcript: "transcript" and its real path), its
signature when it was read (a file: size and mtime), for a transcript where the pass stopped
(byte offset, line number and a checksum of the bytes before them: `Position`), and why
nothing of it could be read, if so. No JSON: `capture --all` with nothing new reads this file
and a stat per transcript, and importing `json` (with `re`) would cost it more than both.
A source whose signature is unchanged is not read again; a transcript that grew is read from where the last pass stopped
(the reader falls back to the whole file when the checksum no longer matches); one that
nothing could be read from is remembered as `unreadable`, with why, and reported again
without being read until it changes. Another kind of source (Claude Code's auto-memory
folder) records itself the same way with a signature of its own.
Every write on the store appends a `store` line whose signature is the commit it made
(`record_store_tip`): a store branch that no longer holds it was moved back by hand.

Lines of the first format (`<size> <mtime_ns> <path>`) still count as transcripts captured
whole. A new store (`L1Store.init`) starts a new ledger: what was captured into a store that
is gone is not captured. `git memory status` counts this project's transcripts not captured
yet; a transcript whose session already appears in `memory/atoms` counts as captured too, so a
store captured before this ledger existed is not reported as a backlog.
"""

from __future__ import annotations

import os

from agent_memory.gitio.refs import STATE_DIRNAME
from agent_memory.gitio.state import append_regular_file, atomic_write, read_regular_file, state_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from pathlib import Path

LEDGER_NAME = "captured.log"
TRANSCRIPT = "transcript"
# The line that names the last commit agent-memory wrote on a store branch (its signature):
# what this ledger says was captured is in that commit. A branch that no longer holds it was
# moved back by hand (store/l1.py refuses to write on it); a ledger deleted takes the branch as
# it is, since every transcript is then read again.
STORE_TIP = "store"
# Rewritten with the latest line per source when it holds this many more lines than sources.
_SLACK = 200

# Plain classes, not dataclasses: `capture --all` with nothing new reads the ledger and stats
# the transcripts, and importing dataclasses (inspect, dis …) would cost it more than that.


class Position:
    """Where a pass over a transcript stopped: just after the last complete (newline-ended)
    line it read (transcripts.reader writes it, the ledger keeps it)."""

    __slots__ = ("offset", "line", "tail")

    def __init__(self, offset: int, line: int, tail: str) -> None:
        self.offset, self.line, self.tail = offset, line, tail  # tail: checksum of the bytes before offset

    @property
    def start(self) -> bool:
        return self.offset == 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and (self.offset, self.line, self.tail) == (other.offset, other.line, other.tail)

    def __hash__(self) -> int:
        return hash((self.offset, self.line, self.tail))

    def __repr__(self) -> str:
        return f"Position(offset={self.offset}, line={self.line}, tail={self.tail!r})"


class Entry:
    """One source as it was captured: `position` for transcripts (where the pass stopped),
    `unreadable` when nothing of it could be read (and why)."""

    __slots__ = ("kind", "key", "signature", "position", "unreadable")

    def __init__(self, kind: str, key: str, signature: str, position: Position | None = None,
                 unreadable: str | None = None) -> None:  # fmt: skip
        self.kind, self.key, self.signature = kind, key, signature
        self.position, self.unreadable = position, unreadable

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entry) and self.line() == other.line()

    def __hash__(self) -> int:
        return hash(self.line())

    def __repr__(self) -> str:
        return f"Entry({self.line().strip()})"

    def line(self) -> str:
        at = "-" if self.position is None else f"{self.position.offset}:{self.position.line}:{self.position.tail}"
        why = " ".join((self.unreadable or "").split())  # no tab, no newline
        return "\t".join(("v2", self.kind, self.signature, at, why, self.key)) + "\n"


def ledger_path(common_dir: str | os.PathLike[str]) -> Path:
    return state_dir(common_dir) / LEDGER_NAME


def stat_signature(st: os.stat_result) -> str:
    """What says a file is unchanged: its size and mtime."""
    return f"{st.st_size}:{st.st_mtime_ns}"


def file_signature(path: str | os.PathLike[str]) -> str | None:
    """`stat_signature` of a file (None when it cannot be stat'ed)."""
    try:
        return stat_signature(os.stat(path))
    except (OSError, ValueError):
        return None


def transcript_key(path: str | os.PathLike[str]) -> str:
    """The one identity of a transcript file in the ledger, however it was named: its real path
    (a capture of `~/.claude/…/S.jsonl` through a symlinked folder and `capture --all`, which
    lists the folder as it is, are one transcript; keyed apart, the second read it whole again
    and, after a `--session ID`, counted its statements as a second session)."""
    return os.path.realpath(path)


class Ledger:
    """The ledger of one repository, read once: `get`/`unchanged` answer from memory, `record`
    appends (and never raises: a capture that succeeded is not failed by its report). Lines
    are parsed into entries only when asked for: a run with nothing new compares signatures."""

    def __init__(self, common_dir: str | os.PathLike[str]) -> None:
        self.common_dir = common_dir
        self._lines: dict[tuple[str, str], str] = {}  # the latest line of each source
        self._entries: dict[tuple[str, str], Entry] = {}
        self._count = 0
        self._read(os.path.join(common_dir, STATE_DIRNAME, LEDGER_NAME))

    def _read(self, path: str) -> None:
        try:
            # never a plain open: a FIFO in the ledger's place held every store write (each
            # reads the ledger's `store` line) and status for ever; it is read as no ledger
            lines = read_regular_file(path).decode("utf-8", errors="surrogateescape").splitlines()
        except OSError:
            return
        self._count = len(lines)
        for line in lines:
            if line.startswith("v2\t"):
                parts = line.split("\t", 5)
                if len(parts) == 6:
                    self._lines[(parts[1], parts[5])] = line
                    self._entries.pop((parts[1], parts[5]), None)
            else:
                entry = _first_format(line)
                if entry is not None:
                    self._entries[(entry.kind, entry.key)] = entry
                    self._lines.pop((entry.kind, entry.key), None)

    def __len__(self) -> int:
        return len(self._lines) + len(self._entries)  # a source is in one of the two

    def get(self, kind: str, key: str) -> Entry | None:
        line = self._lines.pop((kind, key), None)
        if line is not None:  # parsed once, when first asked for
            self._entries[(kind, key)] = _entry(line)
        return self._entries.get((kind, key))

    def unchanged(self, kind: str, key: str, signature: str | None) -> Entry | None:
        """The entry of a source whose signature is what it was when it was recorded."""
        entry = self.get(kind, key)
        return entry if entry is not None and signature is not None and entry.signature == signature else None

    def seen(self, kind: str, key: str, signature: str) -> str | None:
        """None unless the source is recorded with this signature; then "" when it was
        captured, or why nothing of it could be read (a survey of a thousand transcripts asks
        this a thousand times: no Entry is built)."""
        line = self._lines.get((kind, key))
        if line is None:
            entry = self._entries.get((kind, key))
            return (entry.unreadable or "") if entry is not None and entry.signature == signature else None
        parts = line.split("\t", 5)
        return parts[4] if parts[2] == signature else None

    def record(self, entry: Entry) -> None:
        try:
            if "\n" in entry.key or "\r" in entry.key:
                return
            if not append_regular_file(ledger_path(self.common_dir), entry.line().encode("utf-8", "surrogateescape")):
                return  # a FIFO or a device: nothing recorded (the source is read again)
            self._lines.pop((entry.kind, entry.key), None)
            self._entries[(entry.kind, entry.key)] = entry
            self._count += 1
            if self._count > len(self) + _SLACK:
                self.compact()
        except Exception:  # noqa: BLE001 - the capture itself succeeded; at worst it is read again
            return

    def compact(self) -> None:
        """The latest line per source only (a line appended meanwhile may be lost: its source
        is then read again, which changes nothing in the store)."""
        fresh = Ledger(self.common_dir)
        sources = sorted(fresh._lines.keys() | fresh._entries.keys())
        entries = [fresh.get(*source) for source in sources]
        atomic_write(ledger_path(self.common_dir), "".join(e.line() for e in entries if e is not None))
        self._lines, self._entries, self._count = {}, fresh._entries, len(sources)


def _first_format(line: str) -> Entry | None:
    """`<size> <mtime_ns> <path>`: a transcript captured whole."""
    parts = line.split(" ", 2)
    if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit():
        return Entry(TRANSCRIPT, parts[2], f"{parts[0]}:{parts[1]}")
    return None


def _entry(line: str) -> Entry:
    _, kind, signature, at, why, key = line.split("\t", 5)
    offset, _, rest = at.partition(":")
    number, _, tail = rest.partition(":")
    position = Position(int(offset), int(number), tail) if offset.isdigit() and number.isdigit() else None
    return Entry(kind, key, signature, position, why or None)


def record_store_tip(common_dir: str | os.PathLike[str], branch: str, oid: str, ledger: Ledger | None = None) -> None:
    """Append the STORE_TIP line of `branch`, compacting the ledger as a capture's record
    does: a store written many times with no capture (`remember`, `adopt`, `forget` …) kept
    one line per write for ever. `ledger`: the ledger of `common_dir` as the writer already
    read it (else it is read here). Never raises: the write it records succeeded."""
    (ledger if ledger is not None else Ledger(common_dir)).record(Entry(STORE_TIP, branch, oid))


def recorded_store_tip(common_dir: str | os.PathLike[str], branch: str) -> str | None:
    """The last commit the ledger says agent-memory wrote on `branch`, or None."""
    entry = Ledger(common_dir).get(STORE_TIP, branch)
    return entry.signature if entry is not None else None


def forget_all(common_dir: str | os.PathLike[str]) -> None:
    """A new store: nothing has been captured into it."""
    try:
        (state_dir(common_dir, create=False) / LEDGER_NAME).unlink()
    except OSError:
        pass


def not_captured(
    common_dir: str | os.PathLike[str], transcripts: Sequence[Path], known_sessions: Iterable[str]
) -> list[Path]:
    """The main session transcripts (not subagent files, whose prompts are never the user's)
    that no capture has read as they are now (one that nothing can be read from is reported
    by capture, and is not a backlog)."""
    from agent_memory.transcripts.typed import is_subagent_file  # its patterns: for status only
    ledger = Ledger(common_dir)
    sessions = set(known_sessions)
    out = []
    for transcript in transcripts:
        if is_subagent_file(transcript):
            continue
        key = transcript_key(transcript)
        if ledger.unchanged(TRANSCRIPT, key, file_signature(transcript)) is not None:
            continue
        if transcript.stem in sessions and ledger.get(TRANSCRIPT, key) is None:
            continue  # captured before the ledger existed: its session is in memory/atoms
        out.append(transcript)
    return out
