"""`--why`: the evidence behind an atom, resolved against this machine's transcripts.

A back-pointer resolves by globbing (spec §3.1.1): exactly one match → `ok` (the line is
re-read and redacted), none → `missing` (the transcript aged out: the quote kept with the L1
record is shown instead), two or more → `ambiguous` (never guessed)."""

from __future__ import annotations

import json
from typing import Any

from agent_memory.model.atom import Atom
from agent_memory.model.paths import resolve_pointer


def _read_line(path: Any, line: int, limit: int = 4_000_000) -> str | None:
    try:
        with open(path, "rb") as fh:
            for number, raw in enumerate(fh, start=1):
                if number == line:
                    return raw[:limit].decode("utf-8", errors="replace")
    except OSError:
        return None
    return None


def statement_at(path: Any, line: int) -> str | None:
    """The user's words at a transcript line (the prompt or rejection reason), redacted."""
    raw = _read_line(path, line)
    if raw is None:
        return None
    try:
        record = json.loads(raw)
    except ValueError:
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
    from agent_memory.redact.redactor import redact

    flat = " ".join(str(text).split())
    return redact(flat[:600])[0]


def evidence_for(atom: Atom) -> list[dict[str, Any]]:
    quotes = {e["source"]: e.get("quote") for e in atom.get("evidence", [])}
    pointers = list(quotes) or sorted({atom["first_source"], atom["source"]})
    out = []
    for pointer in pointers:
        status, matches, line = resolve_pointer(pointer)
        text = statement_at(matches[0], line) if status == "ok" else None
        if text is None and status != "ambiguous":
            text = quotes.get(pointer)
        out.append({"source": pointer, "status": status, "line": text or ""})
    return out
