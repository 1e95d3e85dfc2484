"""`--why`: the evidence behind an atom, resolved against this machine's transcripts.

A back-pointer resolves first through the local path the L1 record kept at capture, then by
globbing under CLAUDE_CONFIG_DIR: exactly one match → `ok` (the line is re-read
and redacted), none → `missing` (the transcript aged out: the quote kept with the L1 record is
shown instead), two or more → `ambiguous` (never guessed). The pointer of an atom typed with
`git memory remember` (`remembered-<id>.jsonl#L1`) names no transcript and never did: it is
`missing` with `remembered: true`, and its quote is what the person typed."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

from agent_memory.model.atom import Atom
from agent_memory.model.paths import claude_dir, resolve_pointer
from agent_memory.transcripts.identity import open_regular_fd


def _read_line(path: Any, line: int, limit: int = 4_000_000) -> str | None:
    try:
        # A regular file only: the path a record kept may now be a FIFO (a plain open waits
        # for a writer forever) or a link to /dev/zero (one endless line).
        with os.fdopen(open_regular_fd(path)[0], "rb") as fh:
            for number, raw in enumerate(fh, start=1):
                if number == line:
                    return raw[:limit].decode("utf-8", errors="replace")
    except OSError:
        return None
    return None


def statement_at(path: Any, line: int) -> str | None:
    """The user's words at a transcript line (the prompt or rejection reason), redacted; for a
    line of an auto-memory file, that line as written (redacted)."""
    raw = _read_line(path, line)
    if raw is None:
        return None
    if str(path).endswith(".md"):
        return _redacted_head(" ".join(raw.split())) or None
    try:
        record = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    text = None
    try:
        from agent_memory.transcripts.reader import statement_text

        text = statement_text(record)
    except (ImportError, AttributeError):
        text = None
    if text is None:
        content = (record.get("message") or {}).get("content") if isinstance(record, dict) else None
        if isinstance(content, str):
            text = content
        elif isinstance(content, list):
            text = " ".join(
                str(b.get("text") or b.get("content") or "") for b in content if isinstance(b, dict)
            )
    if not text:
        return None
    return _redacted_head(" ".join(str(text).split()))


SHOWN_CHARS = 600


def _redacted_head(flat: str) -> str:
    """The first SHOWN_CHARS characters of `flat`, redacted before the cut: cut first, a key
    that straddled it left its first part, which no rule reads as a secret any longer. Only a
    window is redacted (redact/window.py: cut at a blank, so no key is cut in two)."""
    from agent_memory.redact.redactor import redact
    from agent_memory.redact.window import window

    return redact(window(flat, SHOWN_CHARS))[0][:SHOWN_CHARS]


def locate(pointer: str, local: str | None = None) -> tuple[str, list[Path], int]:
    """Resolve one back-pointer on this machine: the local path recorded at capture when the
    file is still there, else the canonical pointer under CLAUDE_CONFIG_DIR (`resolve_pointer`),
    else under the default `~/.claude` when CLAUDE_CONFIG_DIR points elsewhere. A transcript
    that exists is never reported missing because only one of those names it."""
    _, _, line_part = pointer.partition("#L")
    line = int(line_part) if line_part.isdigit() else 0
    if local:
        path = Path(os.path.expanduser(local))
        if path.is_file():
            return "ok", [path], line
    status, matches, line = resolve_pointer(pointer)
    if status != "missing":
        return status, matches, line
    default = Path(os.path.expanduser("~")) / ".claude"
    rel = pointer.partition("#")[0][len("~/.claude/"):].split("/")
    # a transcript of a project folder or its memory folder: a pointer that climbs out (`..`)
    # named any file of the home, and a committed atom's pointer is whoever wrote the log's
    inside = rel[0] == "projects" and len(rel) >= 3 and not any(p in ("", ".", "..") for p in rel)
    if pointer.startswith("~/.claude/") and inside and default.resolve() != claude_dir().resolve():
        candidate = default.joinpath(*rel)
        if candidate.is_file():
            return "ok", [candidate], line
    return status, matches, line


def session_at(pointer: str, local: str | None = None) -> str | None:
    """The session the record a back-pointer names says it is of (its `sessionId`), read on
    this machine; None when the line cannot be found or read, or names none. A file that opens
    with an earlier session's records cites their lines in that file, under the earlier
    session (transcripts/identity.py)."""
    status, matches, line = locate(pointer, local)
    if status != "ok" or line <= 0:
        return None
    try:
        st = os.stat(matches[0])
    except OSError:
        return None
    return _line_sessions(str(matches[0]), st.st_size, st.st_mtime_ns).get(line)


@functools.lru_cache(maxsize=4)
def _line_sessions(path: str, size: int, mtime_ns: int) -> dict[int, str]:
    """{line: the session its record names} of one transcript, read once (`validate` asks for
    many lines of the same file; `size` and `mtime_ns` key the cache to this version of it)."""
    from agent_memory.transcripts.identity import safe_session

    out: dict[int, str] = {}
    try:
        with os.fdopen(open_regular_fd(path)[0], "rb") as fh:
            for number, raw in enumerate(fh, start=1):
                if b'"sessionId"' not in raw:
                    continue
                try:
                    record = json.loads(raw)
                except (ValueError, RecursionError):  # (nested deeper than json's scanner recurses)
                    continue
                found = record.get("sessionId") if isinstance(record, dict) else None
                if isinstance(found, str) and found.strip():
                    out[number] = safe_session(found)
    except OSError:
        pass
    return out


def names_no_transcript(pointer: str) -> bool:
    """A back-pointer of `remember`'s hand-authored atom (`remembered-<id>.jsonl#L1`): there
    was no session, so no transcript to find (not one that aged out)."""
    return pointer.partition("#L")[0].rsplit("/", 1)[-1].startswith("remembered-")


def evidence_for(atom: Atom, local: Atom | None = None) -> list[dict[str, Any]]:
    """The evidence of `atom`, line by line. `local` is its L1 record when `atom` is the
    committed (L2/L3) form: the L1 record keeps the quotes and where each transcript was."""
    items = list((local or atom).get("evidence", []))
    quotes = {e["source"]: e.get("quote") for e in items}
    paths = {e["source"]: e.get("path") for e in items}
    pointers = list(quotes) or sorted({atom["first_source"], atom["source"]})
    out: list[dict[str, Any]] = []
    for pointer in pointers:
        if names_no_transcript(pointer):
            out.append({"source": pointer, "status": "missing", "line": quotes.get(pointer) or "", "remembered": True})
            continue
        status, matches, line = locate(pointer, paths.get(pointer))
        text = statement_at(matches[0], line) if status == "ok" else None
        if text is None and status != "ambiguous":
            text = quotes.get(pointer)
        item: dict[str, Any] = {"source": pointer, "status": status, "line": text or ""}
        if status == "ok":
            item["path"] = str(matches[0])
        out.append(item)
    return out
