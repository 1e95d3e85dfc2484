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

Only the user's own words are statements (DESIGN.md "Claude Code integration"): typed prompts
(including 2.1.x `queued_command` attachments, a prompt typed while the agent worked, which has no
`user` row), `#` memory notes and tool-rejection reasons. Everything the harness, a hook or an agent wrote into a `user`
record is filtered here, so memory never learns from itself.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from agent_memory.model.atom import iso_z
from agent_memory.model.paths import projects_dir, session_from_filename, slug_for

# A typed prompt is at most a few hundred KB; tool results can be huge. 16 MiB keeps every
# realistic record while bounding what one line may cost.
MAX_LINE_BYTES = 16 * 1024 * 1024
# Tool commands kept per pending tool_use id (for rejection and failure context).
_MAX_COMMAND_CHARS = 400
_SHELL_TOOLS = frozenset({"Bash", "PowerShell", "Shell", "run_shell_command"})

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


def iter_records(
    path: str | os.PathLike[str], stats: ReadStats | None = None
) -> Iterator[RawRecord]:
    """Every readable JSON object of a transcript, with its line number, streamed.

    Raises OSError when the file cannot be opened (missing, a directory, no permission);
    never raises on its content. Pass a `ReadStats` to get counts."""
    stats = stats if stats is not None else ReadStats()
    with open(path, "rb") as fh:
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


# --- what counts as the user's own words ----------------------------------------------------

# Text that is the harness, a command, a hook or another agent talking, never the user.
_MACHINE_PREFIXES = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "caveat: the messages below",
    "[request interrupted",
    "<task-notification",
    "<teammate-message",
    "<mcp-resource-update",
    "<mcp-polling-update",
    "<channel",
    "<cross-session",
    "<environment_context",
    "<turn_aborted",
    "<system-notification",
    "<fork-boilerplate",
    "<local-command-caveat>",
    "[tool result missing",
    "(no content)",
    "no response requested.",
    "<session-start-hook>",
    "<user-prompt-submit-hook>",
    "<agent-memory",
)
_MACHINE_ANYWHERE = (
    "<command-message>",
    "<command-name>",
    "<bash-input>",
    "<local-command-caveat>",
    "<task-notification",
    "<mcp-resource-update",
    "<mcp-polling-update",
    "<teammate-message",
)
# Prompts the harness writes on the user's behalf (plan mode, compaction, /init ...).
_HARNESS_PROMPTS = (
    "implement the following plan",
    "this session is being continued from a previous conversation",
    "please analyze this codebase and create a claude.md",
    "your task is to create a detailed summary of the conversation",
)
# Wrapper blocks stripped from a prompt, keeping the user's text around them.
_STRIP_BLOCKS = re.compile(
    r"<(ide_opened_file|ide_selection|ide_diagnostics|system-reminder|user-prompt-submit-hook|"
    r"session-start-hook|agent-memory[\w-]*|local-command-caveat|system-notification|"
    r"environment_context)\b[^>]*>.*?</\1>",
    re.S | re.I,
)
_UNCLOSED_BLOCK = re.compile(
    r"<(?:system-reminder|agent-memory[\w-]*|user-prompt-submit-hook|ide_\w+)\b[^>]*>.*\Z",
    re.S | re.I,
)
_PLACEHOLDERS = re.compile(r"\[(?:Image|Pasted text|Pasted image)\b[^\]]{0,60}\]", re.I)
_MEMORY_INPUT = re.compile(r"<user-memory-input>(.*?)</user-memory-input>", re.S | re.I)

_REJECTION_MARKERS = (
    "The user provided the following reason for the rejection:",  # up to 2.0.x
    "To tell you how to proceed, the user said:",  # 2.1.x
    "The user said:",  # 2.1.x subagent denial ("Permission for this tool use was denied ...")
)
_REJECTION_TAIL = re.compile(
    r"\n\s*Note: The user's next message may contain a correction.*\Z", re.S
)
_REJECTION_BOILERPLATE = ("the user wants to clarify these questions",)


def _sanitize(text: str) -> str:
    # Lone surrogates (from `\ud800` escapes) cannot be written as UTF-8; NULs are noise.
    if "\x00" in text:
        text = text.replace("\x00", "")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text


def clean_prompt(text: str) -> str | None:
    """A typed prompt's text with IDE/system wrappers stripped; None when it is not the user's."""
    head = text.lstrip()[:200].lower()
    if not head or head.startswith(_MACHINE_PREFIXES) or any(m in text for m in _MACHINE_ANYWHERE):
        return None
    cleaned = _STRIP_BLOCKS.sub(" ", text)
    cleaned = _UNCLOSED_BLOCK.sub(" ", cleaned)
    cleaned = _PLACEHOLDERS.sub(" ", cleaned).strip()
    if not cleaned:
        return None
    low = cleaned[:200].lower()
    if low.startswith(_HARNESS_PROMPTS) or low.startswith(_MACHINE_PREFIXES):
        return None
    return _sanitize(cleaned)


def rejection_reason(text: str) -> str | None:
    """The user's typed reason inside a tool-rejection result, or None."""
    for marker in _REJECTION_MARKERS:
        at = text.find(marker)
        if at < 0:
            continue
        if (
            marker == "The user said:"
            and "tool use was rejected" not in text[:at]
            and "denied" not in text[:at]
        ):
            continue
        reason = _REJECTION_TAIL.sub("", text[at + len(marker) :]).strip()
        if not reason or reason.lower().startswith(_REJECTION_BOILERPLATE):
            return None
        return _sanitize(reason)
    return None


def _message(data: dict[str, Any]) -> dict[str, Any]:
    message = data.get("message")
    return message if isinstance(message, dict) else {}


def _block_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text", ""))
            for b in content
            if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def _is_user_record(data: dict[str, Any]) -> bool:
    if data.get("type") != "user":
        return False
    message = data.get("message")
    if not isinstance(message, dict):
        return False
    return not (
        data.get("isMeta") or data.get("isCompactSummary") or data.get("isVisibleInTranscriptOnly")
    )


def prompt_texts(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(origin, text) for the typed words in a user record: ("prompt", …) or ("memory", …)."""
    if not _is_user_record(data) or data.get("isSidechain"):
        # Sidechain "prompts" are written by the parent agent, not by the user.
        return []
    if "toolUseResult" in data and data.get("toolUseResult") is not None:
        return []
    content = data["message"].get("content")
    blocks: list[str]
    if isinstance(content, str):
        blocks = [content]
    elif isinstance(content, list):
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            return []
        blocks = [
            str(b.get("text", ""))
            for b in content
            if isinstance(b, dict) and b.get("type") == "text"
        ]
    else:
        return []
    out: list[tuple[str, str]] = []
    kept: list[str] = []
    for block in blocks:
        memories = _MEMORY_INPUT.findall(block)
        if memories:
            out.extend(("memory", _sanitize(m.strip())) for m in memories if m.strip())
            continue
        cleaned = clean_prompt(block)
        if cleaned:
            kept.append(cleaned)
    if kept:
        out.insert(0, ("prompt", "\n".join(kept)))
    return out


def rejection_texts(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(tool_use_id, reason) for every rejection-with-reason in a user record."""
    if not _is_user_record(data):
        return []
    content = data["message"].get("content")
    if not isinstance(content, list):
        return []
    out = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            reason = rejection_reason(_block_text(block.get("content")))
            if reason:
                out.append((str(block.get("tool_use_id", "")), reason))
    return out


def queued_prompt(data: dict[str, Any]) -> str | None:
    """A prompt typed while the agent was working. 2.1.x folds it into the running turn as an
    `attachment` of type `queued_command` (origin human) and writes no `user` row for it. Every
    other attachment (hook output, context, skill listings, reminders) is not the user's."""
    attachment = data.get("attachment")
    if data.get("type") != "attachment" or not isinstance(attachment, dict):
        return None
    if attachment.get("type") != "queued_command" or attachment.get("isMeta") or data.get("isMeta"):
        return None
    if attachment.get("commandMode", "prompt") != "prompt":
        return None
    origin = attachment.get("origin")
    if isinstance(origin, dict) and origin.get("kind", "human") != "human":
        return None
    prompt = attachment.get("prompt")
    text = prompt if isinstance(prompt, str) else _block_text(prompt)
    return clean_prompt(text) if text else None


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
    pending: dict[str, tuple[str, str]] = {}  # tool_use id -> (tool name, command)
    last_ts: str | None = None
    for rec in iter_records(path, stats):
        data = rec.data
        ts = _timestamp(data) or last_ts
        last_ts = ts
        kind = data.get("type")
        if kind == "assistant":
            _note_tool_uses(data, pending)
            continue
        if kind == "attachment":
            queued = queued_prompt(data)
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
        for origin, text in prompt_texts(data):
            yield Statement(rec.line, text, ts, sid, origin, cwd, version)
        content = _message(data).get("content")
        if not isinstance(content, list) or data.get("isMeta"):
            continue
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            tool, command = pending.pop(str(block.get("tool_use_id", "")), ("", ""))
            body = _block_text(block.get("content"))
            reason = rejection_reason(body)
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
                block.get("is_error")
                and tool in _SHELL_TOOLS
                and body.strip()
                and not _harness_error(body)
            ):
                yield ToolError(rec.line, _sanitize(body[:20000]), ts, sid, tool, command)


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


def _note_tool_uses(data: dict[str, Any], pending: dict[str, tuple[str, str]]) -> None:
    content = _message(data).get("content")
    if not isinstance(content, list):
        return
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("id"):
            name = str(block.get("name", ""))
            args = block.get("input")
            command = args.get("command") if name in _SHELL_TOOLS and isinstance(args, dict) else ""
            pending[str(block["id"])] = (name, str(command or "")[:_MAX_COMMAND_CHARS])
    if len(pending) > 10000:  # results that never came; keep memory bounded
        for key in list(pending)[:5000]:
            del pending[key]


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


def _under(cwd: str, roots: list[str]) -> bool:
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
        files = sorted(folder.glob("*.jsonl")) + sorted(folder.glob("*/subagents/*.jsonl"))
        if prefixed:
            sample = next(
                (f for f in files if not f.name.startswith("agent-")), files[0] if files else None
            )
            cwd = recorded_cwd(sample) if sample else None
            if not cwd or not _under(cwd, roots):
                continue
        out.extend(f for f in files if f.is_file())
    return out
