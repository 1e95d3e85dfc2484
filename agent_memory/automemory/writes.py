"""Which sessions wrote or edited a memory file: the tool calls in this project's transcripts.

The model writes its memories with the Write tool (and edits them with Edit / MultiEdit), into
the folder the client's system prompt names, with no permission asked; the transcript records
the call (an `assistant` record with a `tool_use` block whose `input.file_path` is in the
folder) and its result (a `user` record answering that `tool_use_id`, with the file as written
in `toolUseResult`). A call whose result is an error, or that has no result, wrote nothing.
Subagent transcripts (a background extraction pass) are read the same way.

For each write: the file (relative to the folder), the transcript line of the call, its
session and time, and the rule of the version it left (read from `toolUseResult`: a Write's
`content`, an Edit's `originalFile` with the edit applied), so a rewrite that changed the rule
is told from one that kept it. Reading is cheap: only lines holding a `tool_use` and the
folder's name, or the id of a pending call, are parsed. The writes found in a transcript are
kept in `.git/agent-memory/auto-memory-writes.json` with the transcript's size and mtime, so a
transcript is read again only when it changed. The same file keeps the memory files the last
read of the folder found with no transcript showing their write (`stand_ins`): a transcript
read afresh that shows one of them written (`fresh`) is why an unchanged folder is read again.
"""

from __future__ import annotations

import json
import os
import posixpath
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, BinaryIO

from agent_memory.automemory.notes import MemoryNote, note_from_bytes
from agent_memory.gitio.regular import open_regular
from agent_memory.gitio.state import atomic_write, read_regular_file, state_dir
from agent_memory.model.clock import iso_z
from agent_memory.transcripts.identity import safe_session
from agent_memory.transcripts.reader import MAX_LINE_BYTES

WRITE_TOOLS = frozenset({"Write", "Edit", "MultiEdit"})
CACHE_NAME = "auto-memory-writes.json"
_CACHE_VERSION = 2  # 2: a write's `record`


@dataclass(frozen=True)
class MemoryWrite:
    file: str  # relative to the folder, `/`-separated
    transcript: str  # the transcript's path on this machine
    line: int  # the line of the tool call
    session: str
    at: str  # ISO-Z time of the call
    tool: str
    rule: str | None  # the rule of the version it left; None when the transcript does not show it
    # The call record's own `uuid`: a forked session's file copies the earlier session's records
    # with it (and their time) kept, the write among them (`without_copies`).
    record: str | None = None


def _signature(path: str | os.PathLike[str]) -> str | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return f"{st.st_size}:{st.st_mtime_ns}"


class FolderMatch:
    """Whether a `file_path` the model wrote is in the folder, as a path relative to it: the
    folder as given or resolved, or — for the default location — any path that ends in the
    same `.claude/projects/<slug>/memory/` (a transcript recorded under another home)."""

    def __init__(self, folder: Path) -> None:
        prefixes = {folder.as_posix().rstrip("/") + "/"}
        try:
            prefixes.add(folder.resolve().as_posix().rstrip("/") + "/")
        except (OSError, RuntimeError):
            pass
        self.prefixes = sorted(prefixes, key=len, reverse=True)
        self.tail = None
        if folder.name == "memory" and folder.parent.parent.name == "projects":
            self.tail = f"/projects/{folder.parent.name}/memory/"
        self.marker = folder.name.encode("utf-8")

    def relative(self, file_path: object) -> str | None:
        if not isinstance(file_path, str) or not file_path or "\0" in file_path:
            return None
        path = file_path.replace("\\", "/")
        rel = next((path[len(p):] for p in self.prefixes if path.startswith(p)), None)
        if rel is None and self.tail is not None and self.tail in path:
            rel = path.split(self.tail, 1)[1]
        if not rel:
            return None
        rel = posixpath.normpath(rel)
        if rel.startswith(("../", "/")) or rel in (".", ".."):
            return None
        return rel


def _timestamp(record: dict[str, Any]) -> str:
    stamp = record.get("timestamp")
    if isinstance(stamp, str):
        try:
            return iso_z(stamp)
        except ValueError:
            pass
    return ""


def _after(call: dict[str, Any], result: Any) -> str | None:
    """The file's text after the call, when the transcript shows it."""
    name, args = call.get("name"), call.get("input")
    if not isinstance(args, dict):
        args = {}
    if not isinstance(result, dict):
        result = {}
    if name == "Write":
        content = result.get("content", args.get("content"))
        return content if isinstance(content, str) else None
    original = result.get("originalFile")
    if not isinstance(original, str):
        return None
    if name == "Edit":
        edits = [{"old_string": result.get("oldString", args.get("old_string")),
                  "new_string": result.get("newString", args.get("new_string")),
                  "replace_all": result.get("replaceAll", args.get("replace_all"))}]  # fmt: skip
    else:
        edits = result.get("edits") or args.get("edits") or []
    text = original
    for edit in edits if isinstance(edits, list) else []:
        if not isinstance(edit, dict):
            return None  # an edit the transcript does not show: the text after it is unknown
        old, new = edit.get("old_string"), edit.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str) or old not in text:
            return None
        text = text.replace(old, new) if edit.get("replace_all") else text.replace(old, new, 1)
    return text


def _failed(block: dict[str, Any], record: dict[str, Any]) -> bool:
    result = record.get("toolUseResult")
    return bool(block.get("is_error")) or (isinstance(result, str) and result.startswith("Error"))


def find_writes(transcript: str | os.PathLike[str], match: FolderMatch) -> list[MemoryWrite]:
    """The successful writes of memory files in one transcript, in transcript order. Opened
    as a regular file only (a FIFO swapped in since the listing is not waited on)."""
    try:
        with os.fdopen(open_regular(transcript), "rb") as handle:
            return _writes_in(_lines(handle), os.fspath(transcript), match)
    except OSError:
        return []


def _lines(handle: BinaryIO) -> Iterator[bytes]:
    """The file's lines, each one longer than MAX_LINE_BYTES as b"" (still one line, so the
    numbers stay the reader's), never held whole: a memory write's call and result are a topic
    file or two (256 KB each at most), and a line of 1.5 GB ran the capture out of memory."""
    while chunk := handle.readline(MAX_LINE_BYTES + 1):
        if len(chunk) > MAX_LINE_BYTES and not chunk.endswith(b"\n"):
            while (more := handle.readline(1 << 20)) and not more.endswith(b"\n"):
                pass
            chunk = b""
        yield chunk


def _writes_in(handle: Iterable[bytes], transcript: str, match: FolderMatch) -> list[MemoryWrite]:
    pending: dict[str, tuple[dict[str, Any], str, int, str, str, str | None]] = {}
    out: list[MemoryWrite] = []
    for number, raw in enumerate(handle, start=1):
        calls = b'"tool_use"' in raw and match.marker in raw
        answers = bool(pending) and b'"tool_result"' in raw and any(i.encode() in raw for i in pending)
        if not (calls or answers):
            continue
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        if not isinstance(record, dict):
            continue
        # Any value may be of any shape in a line (a `message` that is a string, an `input`
        # that is a list): such a line is no write. It raised, and failed the folder's
        # capture for as long as its transcript was there.
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        session = _session_of(record, transcript)
        for block in content:
            if not isinstance(block, dict):
                continue
            name = block.get("name")
            if record.get("type") == "assistant" and block.get("type") == "tool_use" and isinstance(name, str) \
                    and name in WRITE_TOOLS:  # (a list or an object for a name is no tool's: unhashable)
                args = block.get("input")
                rel = match.relative(args.get("file_path")) if isinstance(args, dict) else None
                if rel is not None and isinstance(block.get("id"), str):
                    uuid = record.get("uuid")
                    uuid = uuid if isinstance(uuid, str) and 0 < len(uuid) <= 100 else None
                    pending[block["id"]] = (block, rel, number, session, _timestamp(record), uuid)
            elif record.get("type") == "user" and block.get("type") == "tool_result":
                found = pending.pop(str(block.get("tool_use_id")), None)
                if found is None or _failed(block, record):
                    continue
                call, rel, line, call_session, at, uuid = found
                text = _after(call, record.get("toolUseResult"))
                out.append(MemoryWrite(rel, transcript, line, call_session, at or _timestamp(record),
                                       str(call.get("name")), _rule_of(rel, text), uuid))  # fmt: skip
    return out


def _session_of(record: dict[str, Any], transcript: str) -> str:
    """The record's `sessionId` spelled as a session id (`transcripts/reader.py` does the same),
    else the transcript's name: written as found, one with a space or a slash in it (or no
    string at all) made the atom fail the schema, and the memory was never captured."""
    stamp = record.get("sessionId")
    return safe_session(stamp if isinstance(stamp, str) and stamp.strip() else Path(transcript).stem)


def _rule_of(rel: str, text: str | None) -> str | None:
    if text is None:
        return None
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (`\ud800` is valid JSON): no text to read a rule in
        return None
    note = note_from_bytes(rel, raw)
    return note.rule if isinstance(note, MemoryNote) else None


class WriteIndex:
    """The memory writes of a project's transcripts, read once per transcript version."""

    def __init__(self, common_dir: str | os.PathLike[str], folder: Path) -> None:
        self.path = state_dir(common_dir, create=False) / CACHE_NAME
        self.common_dir = common_dir
        self.folder = folder
        self.match = FolderMatch(folder)
        self.entries: dict[str, dict[str, Any]] = {}
        self.stand_ins: set[str] = set()  # files read last time with no transcript showing their write
        self.fresh: list[MemoryWrite] = []  # the writes of the transcripts the last refresh read
        self.changed = False
        try:  # not `read_text`: a FIFO in its place was waited on for ever (a capture hung)
            data = json.loads(read_regular_file(self.path))
        except (OSError, ValueError, RecursionError):
            return
        if isinstance(data, dict) and data.get("version") == _CACHE_VERSION and data.get("folder") == str(folder):
            entries = data.get("transcripts")
            # An entry of another shape (a hand edit, another version's file) is none: its
            # transcript is read again. Kept, it raised in every capture of the folder.
            self.entries = {key: entry for key, entry in entries.items() if _cached(entry)} if isinstance(entries, dict) else {}
            stand_ins = data.get("stand_ins")
            self.stand_ins = {f for f in stand_ins if isinstance(f, str)} if isinstance(stand_ins, list) else set()

    def refresh(self, transcripts: Iterable[Path]) -> list[MemoryWrite]:
        """Every write in `transcripts` (each read again only when its size or mtime changed);
        transcripts no longer listed are forgotten."""
        out: list[MemoryWrite] = []
        self.fresh = []
        seen = set()
        for transcript in transcripts:
            key = os.fspath(transcript.absolute())
            seen.add(key)
            signature = _signature(transcript)
            entry = self.entries.get(key)
            if entry is None or entry.get("sig") != signature:
                writes = find_writes(transcript, self.match)
                entry = {"sig": signature, "writes": [asdict(w) for w in writes]}
                self.entries[key] = entry
                self.changed = True
                self.fresh.extend(writes)
            out.extend(_loaded(entry.get("writes")))
        for gone in set(self.entries) - seen:
            del self.entries[gone]
            self.changed = True
        return out

    def written_stand_ins(self) -> set[str]:
        """The stand-in files a transcript the last refresh read shows written."""
        return self.stand_ins.intersection(w.file for w in self.fresh)

    def keep_stand_ins(self, files: Iterable[str]) -> None:
        files = set(files)
        if files != self.stand_ins:
            self.stand_ins, self.changed = files, True

    def save(self) -> None:
        """Never raises: the cache only saves reading a transcript again."""
        if not self.changed:
            return
        try:
            state_dir(self.common_dir)
            atomic_write(self.path, json.dumps({"version": _CACHE_VERSION, "folder": str(self.folder),
                                                "transcripts": self.entries, "stand_ins": sorted(self.stand_ins)},
                                               ensure_ascii=False))  # fmt: skip
            self.changed = False
        except Exception:  # noqa: BLE001
            return


_FIELDS = {"file": str, "transcript": str, "line": int, "session": str, "at": str, "tool": str}


def _write_of(item: object) -> MemoryWrite | None:
    """A cached write, when it has every field of its type (`rule` a string or null)."""
    if not isinstance(item, dict) or set(item) != {*_FIELDS, "rule", "record"}:
        return None
    if any(type(item[key]) is not kind for key, kind in _FIELDS.items()):  # not isinstance: a bool is no line
        return None
    if any(item[key] is not None and not isinstance(item[key], str) for key in ("rule", "record")):
        return None
    return MemoryWrite(**item)


def _cached(entry: object) -> bool:
    """Whether a transcript's cached entry has the shape `refresh` writes."""
    if not isinstance(entry, dict) or not isinstance(entry.get("sig"), (str, type(None))):
        return False
    writes = entry.get("writes")
    return isinstance(writes, list) and all(_write_of(item) is not None for item in writes)


def _loaded(items: object) -> list[MemoryWrite]:
    found = (_write_of(item) for item in (items if isinstance(items, list) else []))
    return [write for write in found if write is not None]


def without_copies(writes: Sequence[MemoryWrite], held: Callable[[str, str, set[str]], set[str]],
                   ended: Callable[[str], float]) -> list[MemoryWrite]:  # fmt: skip
    """`writes` less a forked session's copies of them. `claude --resume <id> --fork-session`
    writes the new session's file opening with copies of the earlier session's records, their
    `uuid` and time kept and their `sessionId` rewritten: the Write call among them read as the
    new session's, every fork one more session that wrote the memory. One call record (uuid
    and time) is one write: the session's that `held(record, at, sessions)` says the store
    holds it from (every such session; `sessions`, those it was read in here, tried among
    them), else, seen in several sessions, the one whose transcript ended first (`ended`: its
    mtime), as the backfill reads transcripts (transcripts/ledger order, store/capture.py).
    A call record held from a session none of them is was written there, not here: the
    earlier session's transcript is gone (Claude Code deletes old transcripts after
    `cleanupPeriodDays`) and the copies in its forks are no sighting — a fork alone was its
    call's only session here, and it counted as one more session that wrote the memory."""
    groups: dict[tuple[str, str], list[MemoryWrite]] = {}
    for write in writes:
        if write.record:
            groups.setdefault((write.record, write.at), []).append(write)
    copies: set[int] = set()
    for (record, at), group in groups.items():
        sessions = {w.session for w in group}
        stored = held(record, at, sessions)
        if stored and not stored & sessions:
            copies.update(id(w) for w in group)  # written in a session whose transcript is gone
            continue
        if len(sessions) < 2:
            continue
        known = stored & sessions
        keep = min(known) if known else min(group, key=lambda w: (ended(w.transcript), w.transcript, w.line)).session
        copies.update(id(w) for w in group if w.session != keep)
    return [write for write in writes if id(write) not in copies]


def writes_by_file(writes: Sequence[MemoryWrite]) -> dict[str, list[MemoryWrite]]:
    out: dict[str, list[MemoryWrite]] = {}
    for write in writes:
        out.setdefault(write.file, []).append(write)
    return out


__all__ = ["FolderMatch", "MemoryWrite", "WRITE_TOOLS", "WriteIndex", "find_writes", "without_copies", "writes_by_file"]
