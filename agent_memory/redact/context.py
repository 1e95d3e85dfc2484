"""What every redaction rule works with: the scan of one text and the candidates it finds.

A rule handler is called at each keyword the engine finds (`handler(ctx, pos, keyword)`) and
records candidate spans with `ctx.add`; the engine merges them (agent_memory.redact.engine).
"""

from __future__ import annotations

import re
from collections.abc import Callable

MARKER_PREFIX = "[REDACTED:"


def marker(rule: str) -> str:
    """What a finding is replaced with."""
    return f"{MARKER_PREFIX}{rule}]"


# Candidate: (start, end, rule, priority). Lower priority wins when spans overlap.
Candidate = tuple[int, int, str, int]
P_TOKEN, P_SPECIAL, P_ASSIGN, P_PII = 0, 1, 2, 3

_ASCII_LOWER = {c: c + 32 for c in range(65, 91)}


class ScanContext:
    """One scan of `text`: `low` is its lower-cased twin at the same offsets (keywords are
    found there), `out` the candidates the parsers recorded."""

    __slots__ = ("text", "low", "out", "idents", "ident_end", "until", "pem_end", "_ticks", "_breaks")

    def __init__(self, text: str) -> None:
        self.text = text
        low = text.lower()
        if len(low) != len(text):  # a few non-ASCII letters lower-case to two characters
            low = text.translate(_ASCII_LOWER)
        self.low = low
        self.out: list[Candidate] = []
        self.idents: set[tuple[int, int]] = set()
        self.ident_end = -1
        # per parser: the end of the region it has already read, so a keyword repeated inside
        # that region is not read again (this keeps the work linear on repetitive input)
        self.until: dict[str, int] = {}
        self.pem_end: tuple[int, int] | None = None  # (searched from, END found at or -1)
        self._ticks: list[int] | None = None  # where the backquotes are, found on first use
        self._breaks: list[int] | None = None  # where the line breaks are, found on first use

    def backquotes(self, start: int, end: int) -> int:
        """How many "`" are in text[start:end]: counted from their positions, found once (a
        count per keyword from its line's start made a long line's scan quadratic)."""
        from bisect import bisect_left

        if self._ticks is None:
            self._ticks = _positions(self.text, "`")
        return bisect_left(self._ticks, end) - bisect_left(self._ticks, start)

    def line_start(self, pos: int) -> int:
        """Where the line holding `pos` starts (`text.rfind("\\n", 0, pos) + 1`, which reads
        back to the start of a long line for each keyword in it)."""
        from bisect import bisect_left

        if self._breaks is None:
            self._breaks = _positions(self.text, "\n")
        at = bisect_left(self._breaks, pos)
        return self._breaks[at - 1] + 1 if at else 0

    def seen(self, name: str, pos: int) -> bool:
        return pos < self.until.get(name, -1)

    def mark(self, name: str, end: int) -> None:
        if end > self.until.get(name, -1):
            self.until[name] = end

    def match_unread(self, name: str, rx: re.Pattern[str], pos: int) -> re.Match[str] | None:
        """`rx` matched at `pos`, unless parser `name` already read past `pos`; the match is
        then read."""
        if self.seen(name, pos):
            return None
        m = rx.match(self.text, pos)
        if m:
            self.mark(name, m.end())
        return m

    def add(self, s: int, e: int, rule: str, pri: int) -> None:
        if e > s:
            self.out.append((s, e, rule, pri))


Handler = Callable[[ScanContext, int, str], None]


def _positions(text: str, ch: str) -> list[int]:
    out, at = [], text.find(ch)
    while at != -1:
        out.append(at)
        at = text.find(ch, at + 1)
    return out
