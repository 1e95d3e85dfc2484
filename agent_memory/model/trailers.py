"""Commit messages: a subject, an optional body, and git trailers carrying the metadata
(`Session-Id:`, `Source:`, `Atom-Id:`, `Promotion:` …). One module formats and parses them so
that every reader of `git log` agrees."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from agent_memory.model.controls import show_controls
from agent_memory.model.words import plural as plural  # re-exported: reports import it here

_TRAILER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9-]*): (.*)$")


def one_line(text: str, limit: int = 72) -> str:
    """`text` on one line of at most `limit` characters, a control character shown as `\\x1b`
    (model/controls.py): claims reach commit subjects and reports through here."""
    flat = show_controls(" ".join(text.split()))
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def format_message(subject: str, body: str | Sequence[str] = "", trailers: Iterable[tuple[str, str]] = ()) -> str:
    """A commit message. `git log` prints it to a terminal as it is, so no part of it keeps a
    control character other than the body's newlines and tabs."""
    parts = [one_line(subject, 100)]
    text = body if isinstance(body, str) else "\n".join(body)
    if text.strip():
        parts.append(show_controls(text.rstrip(), keep="\n\t"))
    lines = [f"{key}: {show_controls(' '.join(str(value).split()))}" for key, value in trailers if str(value).strip()]
    if lines:
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def parse_trailers(message: str) -> list[tuple[str, str]]:
    """Trailers of the last paragraph (every line `Key: value`), in order."""
    paragraphs = [p for p in message.strip().split("\n\n") if p.strip()]
    if len(paragraphs) < 2:
        return []
    out = []
    for line in paragraphs[-1].splitlines():
        match = _TRAILER_RE.match(line.strip())
        if not match:
            return []
        out.append((match.group(1), match.group(2).strip()))
    return out


def trailer(message: str, key: str) -> str | None:
    for k, v in parse_trailers(message):
        if k.lower() == key.lower():
            return v
    return None


def subject_op(subject: str) -> str:
    """`capture: 3 new …` → `capture`."""
    head, sep, _ = subject.partition(":")
    return head.strip() if sep and " " not in head.strip() else subject.split(" ", 1)[0]
