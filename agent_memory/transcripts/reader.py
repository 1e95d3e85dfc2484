"""L0: a streaming reader of Claude Code transcripts (`~/.claude/projects/<slug>/*.jsonl`).

Layouts seen from 1.0.24 to 2.1.x: text in `message.content` (a string or a list of blocks;
2.x writes one record per content block), `summary`, `attachment`, `progress`,
`queue-operation`, `file-history-snapshot`, `permission-mode`, `last-prompt`, `system`, and
whatever comes next (counted, skipped, never fatal). Subagents live inline (`isSidechain`),
in `<slug>/agent-*.jsonl` (2.0.x) or in `<slug>/<session>/subagents/agent-*.jsonl` (2.1.x).

A pass can start where an earlier one stopped (`Position`: the byte offset and line number
after the last complete line it read, and a checksum of the bytes just before them, so a file
rewritten since is read whole instead). It first re-reads a bounded stretch before that point
for the assistant's records only (LOOKBACK_BYTES): a rejection answers the assistant's latest
tool call, and assistant prose pasted back into a prompt is not the user's, so both need the
turns just before the new lines. A tool failure recurring once before the point and once after
is not seen as recurring: failure atoms need two sightings in one pass.

Memory is bounded: the file is read line by line in binary, and a line longer than
`MAX_LINE_BYTES` is skipped (and counted) without ever being held whole — a 50 MB line is a
pasted blob or a giant tool result, never a typed prompt. Unreadable lines (truncated JSON,
invalid UTF-8, NUL padding, non-object JSON) are skipped and counted in `skipped_lines`.

Only the user's own words are statements (SECURITY.md, "Trust boundary: client markers"), and that is
decided from each record's *structure*, never from phrases in its text:

- typed prompts and `#` memory notes (`typed.py`): `type: user` records with a user-role message
  that are not tool results, not `isMeta`/`isCompactSummary`/`isVisibleInTranscriptOnly`, not a
  sidechain, not from a subagent transcript file (`subagents/` directories, `agent-*.jsonl`
  names: the parent agent writes those prompts, whether or not the file marks `isSidechain`),
  not a non-human `origin`, not marked as not typed (`typed.not_typed`: `textNotTyped`,
  `queueSkipAttachments`, `handedOff`, a suggestion accepted, a hook's or the harness's row);
  every client wrapper (command echoes and output, hook output, IDE
  context, reminders, pastes …) is cut out whole, and a `<user-memory-input>` note counts only
  as a record of its own;
- 2.1.x `queued_command` attachments (a prompt typed while the agent worked, which has no
  `user` row) only when they carry `origin.kind == "human"`;
- tool-rejection reasons (`denials.py`) only when the record's fields say the client wrote a
  denial (`toolDenialKind`, the client's `toolUseResult` constant, or the older shape on a
  built-in tool) answering a call of the latest assistant message. An error from any tool —
  MCP, a command, a page — is never a source, whatever its text says.

Every other record type — attachments (hook output, listings, snapshots, environment),
`api-request-blob` (whose user-role message is the CLAUDE.md and reminders sent to the API),
`prompt_snapshot`, `last-prompt`, `queue-operation`, `system`, `summary`, whatever comes next
— is counted and skipped, so memory never learns from itself.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, BinaryIO

from agent_memory.model.atom import iso_z
from agent_memory.model.paths import (
    projects_dir as projects_dir,  # re-exported: tests find transcripts here
)
from agent_memory.model.paths import session_from_filename
from agent_memory.transcripts.denials import (
    SHELL_TOOLS,
    ToolCalls,
    denial_reason,
    rejection_texts,
)
from agent_memory.transcripts.identity import (
    Transcript,
    open_regular_fd,
    recorded_head,
    safe_session,
)
from agent_memory.transcripts.ledger import Position
from agent_memory.transcripts.typed import (
    block_text,
    has_block,
    is_subagent_file,
    is_user_record,
    message_of,
    prompt_texts,
    queued_prompt,
    sanitize,
)
from agent_memory.transcripts.typed import (
    clean_prompt as clean_prompt,  # re-exported: callers read prompts through the reader
)

# A typed prompt is at most a few hundred KB; tool results can be huge. 16 MiB keeps every
# realistic record while bounding what one line may cost.
MAX_LINE_BYTES = 16 * 1024 * 1024

# Before a resumed pass, how far back the assistant's records are re-read for context.
LOOKBACK_BYTES = 1 << 20
# How many bytes before a stop point its checksum covers.
_TAIL_BYTES = 256


@dataclass(frozen=True)
class RawRecord:
    line: int  # 1-based JSONL line number (0: a record before a resumed pass's start, context only)
    data: dict[str, Any]


@dataclass
class ReadStats:
    """What a pass over one transcript saw: every record type counted, every bad line counted."""

    lines: int = 0
    records: int = 0
    blank_lines: int = 0
    skipped_lines: int = 0  # unreadable: invalid JSON/UTF-8, NUL, not an object, oversized
    oversized_lines: int = 0  # subset of skipped_lines: longer than MAX_LINE_BYTES
    bytes_read: int = 0
    types: Counter[str] = field(default_factory=Counter)
    first_timestamp: str | None = None
    last_timestamp: str | None = None
    cwd: str | None = None
    version: str | None = None
    session_id: str | None = None
    resumed: bool = False  # the pass started at the Position it was given
    end: Position = field(default_factory=lambda: Position(0, 0, ""))  # where it stopped

    def to_json(self) -> dict[str, Any]:
        return {
            "lines": self.lines,
            "records": self.records,
            "blank_lines": self.blank_lines,
            "skipped_lines": self.skipped_lines,
            "oversized_lines": self.oversized_lines,
            "bytes": self.bytes_read,
            "types": dict(sorted(self.types.items())),
        }


@dataclass(frozen=True)
class Statement:
    """One genuine user statement: a typed prompt, a tool-rejection reason, or a `#` memory note."""

    line: int
    text: str
    timestamp: str | None  # canonical `YYYY-MM-DDTHH:MM:SSZ`, or None when no record had one yet
    session_id: str
    origin: str  # "prompt" | "rejection" | "memory"
    cwd: str | None = None
    version: str | None = None
    rejected_tool: str | None = None  # for rejections: the tool whose use was refused
    rejected_command: str | None = None  # ... and its shell command, when it was one
    record: str | None = None  # the record's `uuid`: a fork's copy of it keeps it (_record_id)


@dataclass(frozen=True)
class ToolError:
    """A shell tool_result with `is_error` (the raw material of observed `failure` atoms)."""

    line: int
    text: str
    timestamp: str | None
    session_id: str
    tool: str
    command: str
    exit_code: int | None = None  # from the result's structure or its "Exit code N" head
    record: str | None = None  # the record's `uuid` (see Statement.record)


# --- raw records -----------------------------------------------------------------------------


def _raw_lines(fh: Any, stats: ReadStats, start: Position) -> Iterator[tuple[int, bytes | None]]:
    """(line number, bytes) per line from `start`; bytes is None for an oversized line (already
    discarded). `stats.end` follows the last newline-ended line: a line still being written is
    read again by the next pass."""
    number, offset = start.line, start.offset
    while True:
        chunk: bytes = fh.readline(MAX_LINE_BYTES + 1)
        if not chunk:
            return
        number += 1
        offset += len(chunk)
        stats.bytes_read += len(chunk)
        if len(chunk) > MAX_LINE_BYTES and not chunk.endswith(b"\n"):
            # Drain the rest of the line in bounded pieces; never hold it whole.
            while True:
                more = fh.readline(1 << 20)
                offset += len(more)
                stats.bytes_read += len(more)
                if not more or more.endswith(b"\n"):
                    break
            if more.endswith(b"\n"):
                stats.end = Position(offset, number, "")
            yield number, None
            continue
        if chunk.endswith(b"\n"):
            stats.end = Position(offset, number, "")
        yield number, chunk


def _tail(fd: int, offset: int) -> str:
    import zlib

    size = min(offset, _TAIL_BYTES)
    data = os.pread(fd, size, offset - size)
    return f"{size}:{zlib.crc32(data):08x}" if len(data) == size else ""


def _resumable(fd: int, start: Position) -> bool:
    """Whether the file still holds, up to `start`, what the pass that stopped there read."""
    try:
        return os.fstat(fd).st_size >= start.offset and _tail(fd, start.offset) == start.tail
    except OSError:
        return False


def _context_records(fh: Any, offset: int) -> Iterator[dict[str, Any]]:
    """The records in the LOOKBACK_BYTES before `offset` (a line boundary) that later rows are
    judged against: the assistant's turns, and the client's own rows (hook runs, checkpoints,
    the rows a client row hangs under)."""
    begin = max(0, offset - LOOKBACK_BYTES)
    fh.seek(begin)
    if begin:
        while True:  # the line the window starts inside of is not whole: skip it
            piece = fh.readline(1 << 20)
            if not piece or piece.endswith(b"\n"):
                break
    while fh.tell() < offset:
        raw: bytes = fh.readline(min(MAX_LINE_BYTES + 1, offset - fh.tell()))
        if not raw:
            return
        if not any(kind in raw for kind in _CONTEXT_KINDS):
            continue
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        if isinstance(data, dict) and data.get("type") in _CONTEXT_TYPES:
            yield data


_CONTEXT_TYPES = ("assistant", "user", "system", "file-history-snapshot")
_CONTEXT_KINDS = tuple(f'"{kind}"'.encode() for kind in _CONTEXT_TYPES)


def regular_file_size(path: str | os.PathLike[str]) -> int:
    """The size of a transcript that is a regular file (OSError for anything else)."""
    fd, size = open_regular_fd(path)
    os.close(fd)
    return size


def _open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    fd, _ = open_regular_fd(path)
    try:
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def iter_records(
    path: str | os.PathLike[str], stats: ReadStats | None = None, start: Position | None = None
) -> Iterator[RawRecord]:
    """Every readable JSON object of a transcript, with its line number, streamed; from
    `start` when the file still matches it there (after the assistant's records just before
    it, as context with line 0), else from the beginning.

    Raises OSError when the file cannot be opened (missing, a directory, no permission);
    never raises on its content. Pass a `ReadStats` to get counts and where the pass ended."""
    stats = stats if stats is not None else ReadStats()
    with _open_regular(path) as fh:
        begin = Position(0, 0, "")
        if start is not None and not start.start and _resumable(fh.fileno(), start):
            if os.fstat(fh.fileno()).st_size > start.offset:  # no context for nothing new
                for data in _context_records(fh, start.offset):
                    yield RawRecord(0, data)
            fh.seek(start.offset)
            begin, stats.resumed = start, True
        stats.end = begin
        yield from _records(fh, stats, begin)
        if stats.end.offset:
            stats.end = Position(
                stats.end.offset, stats.end.line, _tail(fh.fileno(), stats.end.offset)
            )


def _records(fh: Any, stats: ReadStats, begin: Position) -> Iterator[RawRecord]:
    for number, raw in _raw_lines(fh, stats, begin):
        stats.lines += 1
        if raw is None:
            stats.skipped_lines += 1
            stats.oversized_lines += 1
            continue
        body = raw.strip()
        if not body:
            stats.blank_lines += 1
            continue
        try:
            data = json.loads(body.decode("utf-8"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            stats.skipped_lines += 1
            continue
        if not isinstance(data, dict):
            stats.skipped_lines += 1
            continue
        stats.records += 1
        kind = data.get("type")
        stats.types[kind if isinstance(kind, str) else "(none)"] += 1
        _note_metadata(data, stats)
        yield RawRecord(number, data)


def _note_metadata(data: dict[str, Any], stats: ReadStats) -> None:
    ts = _timestamp(data)
    if ts:
        if stats.first_timestamp is None:
            stats.first_timestamp = ts
        stats.last_timestamp = ts
    if stats.cwd is None and isinstance(data.get("cwd"), str) and data["cwd"]:
        stats.cwd = data["cwd"]
    if isinstance(data.get("version"), str):
        stats.version = data["version"]
    if stats.session_id is None and isinstance(data.get("sessionId"), str) and data["sessionId"]:
        stats.session_id = data["sessionId"]


def _timestamp(data: dict[str, Any]) -> str | None:
    value = data.get("timestamp")
    if not isinstance(value, str) or not value:
        return None
    try:
        return iso_z(value)
    except (ValueError, OverflowError):
        return None


# --- one record's words, for `inspect --why` ---------------------------------------------------


def statement_text(record: dict[str, Any]) -> str | None:
    """The user's words in one record (prompt, memory note or rejection reason), or None.
    Used by `inspect --why` to re-read a back-pointer's line."""
    if not isinstance(record, dict):
        return None
    queued = queued_prompt(record)
    if queued:
        return queued
    texts = [t for _, t in prompt_texts(record)] + [r for _, r in rejection_texts(record)]
    return "\n".join(texts) if texts else None


# --- statements and tool errors ---------------------------------------------------------------


def _record_id(data: dict[str, Any]) -> str | None:
    """The record's own `uuid`. `claude --resume <id> --fork-session` (2.1.332) writes a new
    `<new>.jsonl` that opens with copies of the earlier session's records, their `uuid` and
    `timestamp` kept and their `sessionId` rewritten to the new session's: the `uuid` is what
    tells a copy of something said from its saying it again (store/capture.py)."""
    value = data.get("uuid")
    return value if isinstance(value, str) and 0 < len(value) <= 100 else None


def _session_of(data: dict[str, Any], fallback: str) -> str:
    value = data.get("sessionId")
    if isinstance(value, str) and value.strip():
        return safe_session(value)
    return fallback


def iter_events(
    source: str | os.PathLike[str] | Transcript,
    stats: ReadStats | None = None,
    session: str | None = None,
    start: Position | None = None,
) -> Iterator[Statement | ToolError]:
    """One pass: user statements and shell tool errors, in file order, from `start` when
    given (see iter_records).

    A record's own `sessionId` is its session; `session` (else the transcript's: see
    `Transcript.of`) names the session of records that carry none. Statement timestamps fall back
    to the last timestamp seen earlier in the file (records without one are rare)."""
    stats = stats if stats is not None else ReadStats()
    path = source.path if isinstance(source, Transcript) else source
    if isinstance(source, Transcript):
        fallback = source.session
    else:
        fallback = safe_session(session or session_from_filename(path))
    state = _PassState(fallback, is_subagent_file(path))
    last_ts: str | None = None
    for rec in iter_records(path, stats, start):
        ts = _timestamp(rec.data) or last_ts
        last_ts = ts
        yield from _record_events(rec, ts, state)


@dataclass
class _PassState:
    """What one pass remembers between records: the session of records without one, whether
    the file is a subagent's (whose "user" rows the parent agent wrote), the assistant's pending
    tool calls and recent lines, and the client's own rows."""

    fallback: str
    subagent: bool
    calls: ToolCalls = field(default_factory=ToolCalls)
    quoted: _AssistantLines = field(default_factory=lambda: _AssistantLines())
    client_rows: _ClientRows = field(default_factory=lambda: _ClientRows())


def _record_events(
    rec: RawRecord, ts: str | None, state: _PassState
) -> Iterator[Statement | ToolError]:
    """The events of one record; records that are only context are noted in `state`."""
    data = rec.data
    kind = data.get("type")
    if _noted_as_context(kind, data, state):
        return
    # the client's own rows: a hook's feedback, a local command's echo
    clients = kind == "user" and (
        state.client_rows.note_caveat(data) or state.client_rows.answers(data)
    )
    if not rec.line or clients:
        return  # context before a resumed pass only tells what later rows hang under
    if kind == "attachment":
        queued = _queued_statement(rec, ts, state)
        if queued is not None:
            yield queued
        return
    if kind == "user":
        yield from _user_events(rec, ts, state)


def _user_events(
    rec: RawRecord, ts: str | None, state: _PassState
) -> Iterator[Statement | ToolError]:
    """A `user` row's events: the prompts and notes typed in it (never in a subagent's file),
    then its tool results (rejections, shell errors)."""
    data = rec.data
    sid = _session_of(data, state.fallback)
    cwd, version = _where_said(data)
    if not state.subagent:
        for origin, text in prompt_texts(data):
            kept = state.quoted.strip(text) if origin == "prompt" else text
            if kept:
                yield Statement(rec.line, kept, ts, sid, origin, cwd, version, record=_record_id(data))
    content = message_of(data).get("content")
    if not isinstance(content, list) or not is_user_record(data):
        return
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            event = _tool_result_event(rec, block, ts, sid, cwd, version, state.calls)
            if event is not None:
                yield event


def _noted_as_context(kind: Any, data: dict[str, Any], state: _PassState) -> bool:
    """Records that only tell what later rows answer or hang under (the assistant's turns,
    file checkpoints, hook runs): noted, never a source of statements."""
    if kind == "assistant":
        state.calls.note(data)
        state.quoted.note(data)
        state.client_rows.note_turn(data)
        return True
    if kind == "file-history-snapshot":
        state.client_rows.note_checkpoint(data)
        return True
    if kind == "system":
        state.client_rows.note_hook_run(data)
        return True
    return False


def _where_said(data: dict[str, Any]) -> tuple[str | None, str | None]:
    """A row's `cwd` and client `version`, each when it is a string."""
    cwd, version = data.get("cwd"), data.get("version")
    return (cwd if isinstance(cwd, str) else None), (version if isinstance(version, str) else None)


def _queued_statement(rec: RawRecord, ts: str | None, state: _PassState) -> Statement | None:
    """A prompt typed while the agent worked (a 2.1.x `queued_command` attachment), unless the
    file is a subagent's or the prompt is only the assistant's lines pasted back."""
    data = rec.data
    queued = None if state.subagent else queued_prompt(data)
    queued = state.quoted.strip(queued) if queued else None
    if not queued:
        return None
    cwd, version = _where_said(data)
    return Statement(
        rec.line,
        queued,
        ts,
        _session_of(data, state.fallback),
        "prompt",
        cwd,
        version,
        record=_record_id(data),
    )


def _tool_result_event(
    rec: RawRecord,
    block: dict[str, Any],
    ts: str | None,
    sid: str,
    cwd: str | None,
    version: str | None,
    calls: ToolCalls,
) -> Statement | ToolError | None:
    """One tool result answering the assistant's call: the user's rejection reason, a shell
    tool's error, or nothing. Its call is taken off the pending ones either way."""
    data = rec.data
    tool_id = str(block.get("tool_use_id", ""))
    tool, command = calls.pending.pop(tool_id, ("", ""))
    body = block_text(block.get("content"))
    reason = denial_reason(data, block, tool_id, tool, calls)
    if reason:
        return Statement(
            rec.line,
            reason,
            ts,
            sid,
            "rejection",
            cwd,
            version,
            rejected_tool=tool or None,
            rejected_command=command or None,
            record=_record_id(data),
        )
    if (
        block.get("is_error") is True
        and tool in SHELL_TOOLS
        and body.strip()
        and not _harness_error(body)
    ):
        return ToolError(
            rec.line,
            sanitize(body[:20000]),
            ts,
            sid,
            tool,
            command,
            _exit_code(data, body),
            record=_record_id(data),
        )
    return None


class _ClientRows:
    """Rows the client writes as `type: user` that are nobody's typing, told apart by where
    they hang in the record chain (`parentUuid`) and by what the client writes around a prompt,
    never by their words:

    - a local command's echo or reply ("/model" run, "Unknown skill: …"): a row whose parent
      is the `isMeta` row that opens with the client's `<local-command-caveat>` wrapper (in
      the real corpus every such child is a command echo, a `!` shell input or a reply);
    - a Stop hook's blocking feedback, which Claude Code 2.0.x writes as a plain user row
      (string content, no `isMeta`) lacking the marks the client puts on every prompt typed in
      its input box (`thinkingMetadata` in 2.0.x, `promptId` in 2.1.x). Where it hangs:
      * under the hook-run `system` row (one with the hook event's `toolUseID`), written
        within the same instant (2.0.2 to 2.0.15);
      * straight under the assistant row that ended the turn, or under another such feedback
        row (2.0.19: no hook-run row). A prompt can hang there too, so one more mark decides:
        a 2.0.x client that checkpoints files writes a `file-history-snapshot` for every row
        submitted from its input box (queued ones included), just before the row; the hook's
        feedback is sent from inside the turn and gets none. This holds only while the client
        writing is one that checkpoints (its last row about it was a snapshot, not a submitted
        row without one: an SDK or IDE run, or checkpointing turned off, writes none, and its
        rows stay the user's), and only within a Stop hook's run time of the turn's end (a
        person resuming the session from an IDE an hour later is not a hook).
    A prompt typed after a hook ran (seconds later, or with those marks) stays the user's."""

    _WINDOW_S = 1.0
    # What the client writes on a row typed in its input box: 2.0.x `thinkingMetadata`, 2.1.x
    # `promptId` (2.1.x also writes typed rows within a second of a hook's summary row: queued
    # typing is sent the moment the turn ends, so timing alone never decides).
    _INPUT_BOX_MARKS = ("thinkingMetadata", "promptId")
    _KEEP = 64  # rows remembered (their children follow at once)
    # How long after the turn's end a Stop hook's feedback can come: the hook's command runs
    # for at most its timeout, 60 s unless the hook sets a longer one (then its feedback stays
    # in, like any row this class cannot place).
    _HOOK_RUN_S = 60.0

    def __init__(self) -> None:
        self._hook_at: dict[str, float] = {}
        self._caveats: dict[str, None] = {}
        self._echoes: dict[str, None] = {}
        self._turn_ends: dict[str, float] = {}  # and the hook feedback rows: when written
        self._checkpoints: dict[str, None] = {}
        self._checkpointing = False

    @classmethod
    def _remember(cls, seen: dict[str, Any], key: str, value: Any) -> None:
        seen[key] = value
        if len(seen) > cls._KEEP:
            seen.pop(next(iter(seen)))

    def note_hook_run(self, data: dict[str, Any]) -> None:
        uuid = data.get("uuid")
        when = _epoch(data.get("timestamp"))
        if isinstance(uuid, str) and data.get("toolUseID") and when is not None:
            self._remember(self._hook_at, uuid, when)

    def note_turn(self, data: dict[str, Any]) -> None:
        """An assistant row that calls no tool: the turn ends there and Stop hooks run."""
        uuid = data.get("uuid")
        when = _epoch(data.get("timestamp"))
        content = message_of(data).get("content")
        if isinstance(uuid, str) and when is not None and not has_block(content, "tool_use"):
            self._remember(self._turn_ends, uuid, when)

    def note_checkpoint(self, data: dict[str, Any]) -> None:
        message_id = data.get("messageId")
        if isinstance(message_id, str):
            self._remember(self._checkpoints, message_id, None)
            self._checkpointing = True

    def note_caveat(self, data: dict[str, Any]) -> bool:
        """True (and remembered) for the client's `isMeta` caveat row itself."""
        uuid = data.get("uuid")
        if not data.get("isMeta") or not isinstance(uuid, str):
            return False
        if not _opens_with(data, ("<local-command-caveat>",)):
            return False
        self._remember(self._caveats, uuid, None)
        return True

    def answers(self, data: dict[str, Any]) -> bool:
        parent = data.get("parentUuid")
        self._note_echo(data)
        if isinstance(parent, str) and (parent in self._caveats or parent in self._echoes):
            return True  # only the caveat's own children: a prompt typed after the output is not
        if self._hook_feedback(data, parent):
            uuid, when = data.get("uuid"), _epoch(data.get("timestamp"))
            if isinstance(uuid, str) and when is not None:  # a second hook's hangs under it
                self._remember(self._turn_ends, uuid, when)
            return True
        if _submitted(data):
            self._checkpointing = _record_id(data) in self._checkpoints
        return False

    def _note_echo(self, data: dict[str, Any]) -> None:
        """A slash command's echo row (`<command-message>`/`<command-name>` first): the row
        hanging straight under it is what the command put there — its output, or the prompt
        it expands to (a `.claude/commands/*.md` file, a skill: repository text, not typing),
        which 2.0.x and 2.1.x mark `isMeta` but which a client may write plainly. A prompt
        typed next hangs under the command's output or the assistant's answer instead."""
        uuid = data.get("uuid")
        if isinstance(uuid, str) and _opens_with(data, _COMMAND_ECHO):
            self._remember(self._echoes, uuid, None)

    def _hook_feedback(self, data: dict[str, Any], parent: Any) -> bool:
        if not isinstance(parent, str) or any(mark in data for mark in self._INPUT_BOX_MARKS):
            return False
        when = _epoch(data.get("timestamp"))
        if when is None:
            return False
        if parent in self._hook_at:
            return 0 <= when - self._hook_at[parent] <= self._WINDOW_S
        return (
            parent in self._turn_ends
            and 0 <= when - self._turn_ends[parent] <= self._HOOK_RUN_S
            and self._checkpointing
            and _record_id(data) not in self._checkpoints
            and str(data.get("version", "")).startswith("2.0.")
            and isinstance(message_of(data).get("content"), str)
            and not data.get("isMeta")
            and "toolUseResult" not in data
        )


_COMMAND_ECHO = ("<command-message>", "<command-name>")


def _opens_with(data: dict[str, Any], tags: tuple[str, ...]) -> bool:
    """Whether a row's text (a string, or its text blocks) opens with one of the client's `tags`."""
    content = message_of(data).get("content")
    text = content if isinstance(content, str) else block_text(content)
    return text.lstrip().startswith(tags)


def _submitted(data: dict[str, Any]) -> bool:
    """A user row the client may have written for something submitted from its input box (not
    a tool's result, a compaction summary, a skill's text or a meta row)."""
    content = message_of(data).get("content")
    return not (
        data.get("isMeta")
        or data.get("isCompactSummary")
        or "toolUseResult" in data
        or "sourceToolUseID" in data
        or has_block(content, "tool_result")
    )


def _epoch(value: Any) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


# Quoted assistant prose: lines at least this long that the assistant wrote earlier in the
# session and the user pasted back are the assistant's words, not the user's.
_QUOTE_MIN = 24
_QUOTE_CAP = 20000
_QUOTE_NORM = re.compile(r"[\s*_`>#|]+")
_QUOTE_LEAD = re.compile(r"^\s*(?:[-*\u2022>]|\d{1,2}[.)])\s+")


def _quote_key(line: str) -> str:
    return _QUOTE_NORM.sub(" ", _QUOTE_LEAD.sub("", line)).strip().casefold()


class _AssistantLines:
    """The recent lines of assistant prose (bounded), to recognise them pasted into a prompt."""

    def __init__(self) -> None:
        self.lines: dict[str, None] = {}

    def note(self, data: dict[str, Any]) -> None:
        content = message_of(data).get("content")
        if isinstance(content, str):
            texts = [content]
        elif isinstance(content, list):
            texts = [
                str(b.get("text", ""))
                for b in content
                if isinstance(b, dict) and b.get("type") == "text"
            ]
        else:
            return
        for text in texts:
            for line in text.splitlines():
                if len(line) >= _QUOTE_MIN:
                    self.lines[_quote_key(line)] = None
        if len(self.lines) > _QUOTE_CAP:
            for key in list(self.lines)[: _QUOTE_CAP // 2]:
                del self.lines[key]

    def strip(self, text: str) -> str:
        if not self.lines:
            return text
        kept = [
            line
            for line in text.split("\n")
            if len(line) < _QUOTE_MIN or _quote_key(line) not in self.lines
        ]
        return "\n".join(kept).strip() if len(kept) != text.count("\n") + 1 else text


_EXIT_CODE = re.compile(r"\A\s*(?:Error: )?Exit code (\d{1,3})\b")


def _exit_code(data: dict[str, Any], body: str) -> int | None:
    result = data.get("toolUseResult")
    if isinstance(result, dict):
        for key in ("exitCode", "exit_code", "returnCode", "code"):
            value = result.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
    m = _EXIT_CODE.match(body)
    return int(m.group(1)) if m else None


_HARNESS_ERRORS = (
    "the user doesn't want",
    "permission ",
    "[request interrupted",
    "<tool_use_error>",
    "user rejected",
    "the agent proposed a plan",
)


def _harness_error(body: str) -> bool:
    """Cancellations and permission denials are the harness speaking, not the command failing."""
    return body.lstrip()[:80].lower().startswith(_HARNESS_ERRORS)


def iter_statements(
    path: str | os.PathLike[str], stats: ReadStats | None = None, session: str | None = None
) -> Iterator[Statement]:
    for event in iter_events(path, stats, session):
        if isinstance(event, Statement):
            yield event


def iter_tool_errors(
    path: str | os.PathLike[str], stats: ReadStats | None = None, session: str | None = None
) -> Iterator[ToolError]:
    for event in iter_events(path, stats, session):
        if isinstance(event, ToolError):
            yield event


# --- where a transcript was recorded (transcripts/files.py finds a repository's transcripts) --


def recorded_cwd(path: str | os.PathLike[str], max_lines: int = 200) -> str | None:
    """The first `cwd` recorded in a transcript (read from its head only)."""
    return recorded_head(path, max_lines)[0]
