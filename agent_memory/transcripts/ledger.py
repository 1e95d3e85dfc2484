"""What has been captured, as it was then: `.git/agent-memory/captured.log`, so a capture reads
only what is new (issue 25). Local state, never committed.

One JSON line per capture of a source, appended with O_APPEND (concurrent background captures
lose no line); the latest line of a source wins. A line names the source's `kind` and `key`
(for a transcript: "transcript" and its absolute path), its `sig` when it was read (a file:
size and mtime), and for a transcript where the pass stopped (byte offset, line number and a
checksum of the bytes before them, transcripts.identity.Position). A source whose signature is
unchanged is not read again; a transcript that grew is read from where the last pass stopped
(the reader falls back to the whole file when the checksum no longer matches); one that
nothing could be read from is remembered as `unreadable`, with why, and reported again
without being read until it changes. Another kind of source (Claude Code's auto-memory
folder) records itself the same way with a signature of its own.

Lines of the first format (`<size> <mtime_ns> <path>`) still count as transcripts captured
whole. A new store (`L1Store.init`) starts a new ledger: what was captured into a store that
is gone is not captured. `git memory status` counts this project's transcripts not captured
yet; a transcript whose session already appears in `memory/atoms` counts as captured too, so a
store captured before this ledger existed is not reported as a backlog.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from agent_memory.gitio.state import atomic_write, state_dir
from agent_memory.transcripts.identity import Position

LEDGER_NAME = "captured.log"
TRANSCRIPT = "transcript"
# Rewritten with the latest line per source when it holds this many more lines than sources.
_SLACK = 200


@dataclass(frozen=True)
class Entry:
    kind: str
    key: str
    signature: str
    position: Position | None = None  # transcripts: where the pass stopped
    unreadable: str | None = None  # nothing could be read, and why

    def line(self) -> str:
        out: dict[str, object] = {"kind": self.kind, "key": self.key, "sig": self.signature}
        if self.position is not None:
            out["at"] = [self.position.offset, self.position.line, self.position.tail]
        if self.unreadable is not None:
            out["unreadable"] = self.unreadable
        return json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n"


def ledger_path(common_dir: str | os.PathLike[str]) -> Path:
    return state_dir(common_dir) / LEDGER_NAME


def file_signature(path: str | os.PathLike[str]) -> str | None:
    """What says a file is unchanged: its size and mtime (None when it cannot be stat'ed)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return f"{st.st_size}:{st.st_mtime_ns}"


def transcript_key(path: str | os.PathLike[str]) -> str:
    return os.path.abspath(path)


class Ledger:
    """The ledger of one repository, read once: `get`/`unchanged` answer from memory, `record`
    appends (and never raises: a capture that succeeded is not failed by its report)."""

    def __init__(self, common_dir: str | os.PathLike[str]) -> None:
        self.common_dir = common_dir
        self.entries: dict[tuple[str, str], Entry] = {}
        self._lines = 0
        self._read(state_dir(common_dir, create=False) / LEDGER_NAME)

    def _read(self, path: Path) -> None:
        try:
            text = path.read_text("utf-8", errors="surrogateescape")
        except OSError:
            return
        lines = text.splitlines()
        self._lines = len(lines)
        try:  # one parse for the whole file; line by line only when some line is not JSON
            records = json.loads("[" + ",".join(lines) + "]") if lines else []
        except ValueError:
            records = [_parse(line) for line in lines]
        for record in records:
            entry = _entry(record)
            if entry is not None:
                self.entries[(entry.kind, entry.key)] = entry

    def get(self, kind: str, key: str) -> Entry | None:
        return self.entries.get((kind, key))

    def unchanged(self, kind: str, key: str, signature: str | None) -> Entry | None:
        """The entry of a source whose signature is what it was when it was recorded."""
        entry = self.entries.get((kind, key))
        return entry if entry is not None and signature is not None and entry.signature == signature else None

    def record(self, entry: Entry) -> None:
        try:
            if "\n" in entry.key or "\r" in entry.key:
                return
            fd = os.open(ledger_path(self.common_dir), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, entry.line().encode("utf-8", "surrogateescape"))
            finally:
                os.close(fd)
            self.entries[(entry.kind, entry.key)] = entry
            self._lines += 1
            if self._lines > len(self.entries) + _SLACK:
                self.compact()
        except Exception:  # noqa: BLE001 - the capture itself succeeded; at worst it is read again
            return

    def compact(self) -> None:
        """The latest line per source only (a line appended meanwhile may be lost: its source
        is then read again, which changes nothing in the store)."""
        fresh = Ledger(self.common_dir)
        atomic_write(ledger_path(self.common_dir), "".join(e.line() for _, e in sorted(fresh.entries.items())))
        self.entries, self._lines = fresh.entries, len(fresh.entries)


def _parse(line: str) -> object:
    if line.startswith("{"):
        try:
            return json.loads(line)
        except ValueError:
            return None
    return line  # the first format, or garbage


def _entry(record: object) -> Entry | None:
    if isinstance(record, str):  # `<size> <mtime_ns> <path>`: a transcript captured whole
        parts = record.split(" ", 2)
        if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit():
            return Entry(TRANSCRIPT, parts[2], f"{parts[0]}:{parts[1]}")
        return None
    if not isinstance(record, dict):
        return None
    kind, key, sig = record.get("kind"), record.get("key"), record.get("sig")
    if not (isinstance(kind, str) and isinstance(key, str) and isinstance(sig, str)):
        return None
    at = record.get("at")
    position = None
    if isinstance(at, list) and len(at) == 3 and all(isinstance(v, int) for v in at[:2]) and isinstance(at[2], str):
        position = Position(at[0], at[1], at[2])
    why = record.get("unreadable")
    return Entry(kind, key, sig, position, why if isinstance(why, str) else None)


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
