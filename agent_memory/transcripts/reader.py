"""L0: a streaming reader of Claude Code transcripts (`~/.claude/projects/<slug>/*.jsonl`).

Layouts seen from 1.0.24 to 2.1.x: text in `message.content` (a string or a list of blocks;
2.x writes one record per content block), `summary`, `attachment`, `progress`,
`queue-operation`, `file-history-snapshot`, `permission-mode`, `last-prompt`, `system`, and
whatever comes next (counted, skipped, never fatal). Subagents live inline (`isSidechain`),
in `<slug>/agent-*.jsonl` (2.0.x) or in `<slug>/<session>/subagents/agent-*.jsonl` (2.1.x).

Memory is bounded: the file is read line by line in binary, and a line longer than
`MAX_LINE_BYTES` is skipped (and counted) without ever being held whole — a 50 MB line is a
pasted blob or a giant tool result, never a typed prompt. Unreadable lines (truncated JSON,
invalid UTF-8, NUL padding, non-object JSON) are skipped and counted in `skipped_lines`.

Only the user's own words are statements (DESIGN.md "Claude Code integration"), and that is
decided from each record's *structure*, never from phrases in its text (issue 14 §1, issue 23):

- typed prompts and `#` memory notes (`typed.py`): `type: user` records with a user-role message
  that are not tool results, not `isMeta`/`isCompactSummary`/`isVisibleInTranscriptOnly`, not a
  sidechain, not from a subagent transcript file (`subagents/` directories, `agent-*.jsonl`
  names: the parent agent writes those prompts, whether or not the file marks `isSidechain`),
  not a non-human `origin`; every client wrapper (command echoes and output, hook output, IDE
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
import stat
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any, BinaryIO

from agent_memory.model.atom import iso_z
from agent_memory.model.paths import projects_dir, session_from_filename, slug_for
from agent_memory.transcripts.denials import (
    SHELL_TOOLS,
    ToolCalls,
    denial_reason,
    rejection_texts,
)
from agent_memory.transcripts.typed import (
    block_text,
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

_SESSION_SAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True)
class RawRecord:
    line: int  # 1-based JSONL line number
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


# --- raw records -----------------------------------------------------------------------------


def _raw_lines(fh: Any, stats: ReadStats) -> Iterator[tuple[int, bytes | None]]:
    """(line number, bytes) per line; bytes is None for an oversized line (already discarded)."""
    number = 0
    while True:
        chunk: bytes = fh.readline(MAX_LINE_BYTES + 1)
        if not chunk:
            return
        number += 1
        stats.bytes_read += len(chunk)
        if len(chunk) > MAX_LINE_BYTES and not chunk.endswith(b"\n"):
            # Drain the rest of the line in bounded pieces; never hold it whole.
            while True:
                more = fh.readline(1 << 20)
                stats.bytes_read += len(more)
                if not more or more.endswith(b"\n"):
                    break
            yield number, None
            continue
        yield number, chunk


def _open_regular_fd(path: str | os.PathLike[str]) -> tuple[int, int]:
    """(descriptor, size) of a transcript opened for reading only if it is a regular file,
    checked on the open file itself (no gap between a check and the open): a FIFO, a device
    such as /dev/zero or a directory raises OSError instead of blocking or spinning."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{os.fspath(path)} is not a regular file")
        return fd, info.st_size
    except BaseException:
        os.close(fd)
        raise


def regular_file_size(path: str | os.PathLike[str]) -> int:
    """The size of a transcript that is a regular file (OSError for anything else)."""
    fd, size = _open_regular_fd(path)
    os.close(fd)
    return size


def _open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    fd, _ = _open_regular_fd(path)
    try:
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def iter_records(
    path: str | os.PathLike[str], stats: ReadStats | None = None
) -> Iterator[RawRecord]:
    """Every readable JSON object of a transcript, with its line number, streamed.

    Raises OSError when the file cannot be opened (missing, a directory, no permission);
    never raises on its content. Pass a `ReadStats` to get counts."""
    stats = stats if stats is not None else ReadStats()
    with _open_regular(path) as fh:
        for number, raw in _raw_lines(fh, stats):
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


def safe_session(value: str) -> str:
    """A session id usable in `sessions` (schema: `[A-Za-z0-9._-]+`)."""
    return _SESSION_SAFE.sub("-", value.strip()) or "unknown"


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


def _session_of(data: dict[str, Any], path: str | os.PathLike[str], override: str | None) -> str:
    if override:
        return safe_session(override)
    value = data.get("sessionId")
    if isinstance(value, str) and value.strip():
        return safe_session(value)
    return safe_session(session_from_filename(path))


def iter_events(
    path: str | os.PathLike[str], stats: ReadStats | None = None, session: str | None = None
) -> Iterator[Statement | ToolError]:
    """One pass: user statements and shell tool errors, in file order.

    `session` overrides the session id recorded in the file. Statement timestamps fall back to
    the last timestamp seen earlier in the file (records without one are rare)."""
    stats = stats if stats is not None else ReadStats()
    subagent = is_subagent_file(path)
    calls = ToolCalls()
    quoted = _AssistantLines()
    last_ts: str | None = None
    for rec in iter_records(path, stats):
        data = rec.data
        ts = _timestamp(data) or last_ts
        last_ts = ts
        kind = data.get("type")
        if kind == "assistant":
            calls.note(data)
            quoted.note(data)
            continue
        if kind == "attachment":
            queued = None if subagent else queued_prompt(data)
            queued = quoted.strip(queued) if queued else None
            if queued:
                cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
                version = data.get("version") if isinstance(data.get("version"), str) else None
                yield Statement(
                    rec.line, queued, ts, _session_of(data, path, session), "prompt", cwd, version
                )
            continue
        if kind != "user":
            continue
        sid = _session_of(data, path, session)
        cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
        version = data.get("version") if isinstance(data.get("version"), str) else None
        if not subagent:
            for origin, text in prompt_texts(data):
                kept = quoted.strip(text) if origin == "prompt" else text
                if kept:
                    yield Statement(rec.line, kept, ts, sid, origin, cwd, version)
        content = message_of(data).get("content")
        if not isinstance(content, list) or not is_user_record(data):
            continue
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            tool_id = str(block.get("tool_use_id", ""))
            tool, command = calls.pending.pop(tool_id, ("", ""))
            body = block_text(block.get("content"))
            reason = denial_reason(data, block, tool_id, tool, calls)
            if reason:
                yield Statement(
                    rec.line,
                    reason,
                    ts,
                    sid,
                    "rejection",
                    cwd,
                    version,
                    rejected_tool=tool or None,
                    rejected_command=command or None,
                )
            elif (
                block.get("is_error") is True
                and tool in SHELL_TOOLS
                and body.strip()
                and not _harness_error(body)
            ):
                yield ToolError(
                    rec.line,
                    sanitize(body[:20000]),
                    ts,
                    sid,
                    tool,
                    command,
                    _exit_code(data, body),
                )


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


# --- finding a repository's transcripts --------------------------------------------------------


def _pure(path: str) -> PurePosixPath | PureWindowsPath:
    return (
        PureWindowsPath(path)
        if ("\\" in path or re.match(r"^[A-Za-z]:", path))
        else PurePosixPath(path)
    )


def recorded_cwd(path: str | os.PathLike[str], max_lines: int = 200) -> str | None:
    """The first `cwd` recorded in a transcript (read from its head only)."""
    stats = ReadStats()
    try:
        for rec in iter_records(path, stats):
            cwd = rec.data.get("cwd")
            if isinstance(cwd, str) and cwd:
                return cwd
            if stats.lines >= max_lines:
                break
    except OSError:
        return None
    return None


def is_under(cwd: str, roots: list[str]) -> bool:
    """Whether `cwd` is one of `roots` or inside one (paths compared as written, lexically)."""
    here = _pure(cwd)
    for root in roots:
        base = _pure(root)
        if here == base or base in here.parents:
            return True
    return False


def repository_roots(project_root: str | os.PathLike[str]) -> list[str]:
    """The work trees of the repository containing `project_root`: its main work tree and every
    linked worktree (read from `<common dir>/worktrees/*/gitdir`, no git process needed)."""
    from agent_memory.gitio.state import find_git_dirs

    start = Path(project_root)
    roots: list[Path] = [start]
    found = find_git_dirs(start)
    if found:
        _git_dir, common, work = found
        if work is not None:
            roots.append(work)
        if common.name == ".git":
            roots.append(common.parent)
        linked = common / "worktrees"
        if linked.is_dir():
            for entry in sorted(linked.iterdir()):
                try:
                    target = Path((entry / "gitdir").read_text("utf-8").strip())
                except OSError:
                    continue
                roots.append(target.parent)
    out: list[str] = []
    for root in roots:
        for form in (str(root), os.path.realpath(root)):
            if form not in out:
                out.append(form)
    return out


def find_transcripts(project_root: str | os.PathLike[str]) -> list[Path]:
    """Every transcript of a repository (for `capture --all`): the slug directories of its work
    tree, its linked worktrees and their subdirectories, with all subagent layouts.

    A slug directory whose name merely *starts* with a root's slug is ambiguous (`/a/proj-old`
    and `/a/proj/old` both slug to `-a-proj-old`), so it is included only when its recorded
    `cwd` lies under one of the roots."""
    def regular(path: Path) -> bool:
        # Only regular files are ever opened (issue 14 §5): a FIFO named *.jsonl blocks the
        # open forever, and a symlink to /dev/zero is one endless line. stat, not lstat: a
        # symlink to a real transcript is still a transcript.
        try:
            return stat.S_ISREG(os.stat(path).st_mode)
        except (OSError, ValueError):
            return False

    roots = repository_roots(project_root)
    slugs = {slug_for(r) for r in roots}
    base = projects_dir()
    try:
        entries = sorted(p for p in base.iterdir() if p.is_dir())
    except OSError:
        return []
    out: list[Path] = []
    for folder in entries:
        name = folder.name
        exact = name in slugs
        prefixed = not exact and any(name.startswith(s + "-") for s in slugs)
        if not (exact or prefixed):
            continue
        found = sorted(folder.glob("*.jsonl")) + sorted(folder.glob("*/subagents/*.jsonl"))
        files = [f for f in found if regular(f)]
        if prefixed:
            sample = next(
                (f for f in files if not f.name.startswith("agent-")), files[0] if files else None
            )
            cwd = recorded_cwd(sample) if sample else None
            if not cwd or not is_under(cwd, roots):
                continue
        out.extend(files)
    return out
