"""Secrets written in an encoding: base64 (standard or URL-safe) and URL
percent-encoding. A person — or a tool — may paste `cGFzc3dvcmQ9…` or `token%3Dghp_…`; the
pattern rules see neither.

Candidate runs are decoded and the decoded text is judged by the same engine (to a bounded
depth). A base64 run that decodes to text with a finding is redacted whole (rule
``encoded-secret``); in percent-encoded text the finding maps back onto the encoded characters
it came from, so only the secret part of a URL goes.

Only runs that can be encoded text are decoded: base64 of at least 16 characters with both
letter cases (identifiers are rarely that), that decodes to printable UTF-8; percent-encoding
where a `%XX` escape occurs. Both are found by a C-speed regex search first.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agent_memory.redact.context import Candidate
from agent_memory.redact.regex import LazyCompiler

_lazy = LazyCompiler(globals())

Judge = Callable[[str, int], list[Candidate]]  # (text, depth) -> findings in that text

MAX_DEPTH = 2

_PERCENT: re.Pattern[str] = _lazy(r"%[0-9A-Fa-f]{2}")
_URL_STOP = frozenset(" \t\r\n\"'<>`()[]{}|\\^")
_URL_CHUNK: re.Pattern[str] = _lazy(r"(?:%[0-9A-Fa-f]{2})+|[^%]+|%")
_PRINTABLE: re.Pattern[str] = _lazy(r"[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]*")


def _text_of(raw: bytes) -> str | None:
    try:
        s = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(s) < 8 or _PRINTABLE.fullmatch(s) is None:
        return None
    return s


def base64_text(run: str) -> str | None:
    """The text a base64 run encodes, or None when it is not base64 of printable text."""
    import base64  # here, not at the top: the per-prompt hook imports this module
    import binascii

    body = run.rstrip("=")
    if len(body) % 4 == 1:
        return None
    if "-" in body or "_" in body:
        if "+" in body or "/" in body:
            return None
        body = body.replace("-", "+").replace("_", "/")
    try:
        raw = base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    return _text_of(raw)


def encoded_spans(text: str, depth: int, judge: Judge) -> list[Candidate]:
    """Percent-encoded secrets. (Base64 runs are found by the run scan of
    agent_memory.redact.generic, which calls `base64_text`.)"""
    if depth >= MAX_DEPTH or "%" not in text:
        return []
    return _percent_spans(text, depth, judge)


def _percent_spans(text: str, depth: int, judge: Judge) -> list[Candidate]:
    out: list[Candidate] = []
    done = -1
    for p in _PERCENT.finditer(text):
        if p.start() < done:
            continue
        lo = p.start()
        while lo > 0 and text[lo - 1] not in _URL_STOP and p.start() - lo < 2000:
            lo -= 1
        hi = p.end()
        while hi < len(text) and text[hi] not in _URL_STOP and hi - p.end() < 2000:
            hi += 1
        done = hi
        run = text[lo:hi]
        # decode chunk by chunk, remembering where each decoded character came from
        pieces: list[str] = []
        origin: list[int] = []
        for c in _URL_CHUNK.finditer(run):
            chunk = c.group()
            base = lo + c.start()
            if chunk.startswith("%") and len(chunk) > 1:
                for i, ch in _utf8_chars(bytes.fromhex(chunk.replace("%", ""))):
                    pieces.append(ch)
                    origin.append(base + 3 * i)  # each byte is one `%XX`
            else:
                pieces.append(chunk)
                origin.extend(range(base, base + len(chunk)))
        origin.append(hi)
        decoded = "".join(pieces)
        if decoded == run:
            continue
        for s, e, rule, pri in judge(decoded, depth + 1):
            a, b = origin[s], origin[e]  # e: where the next decoded character came from
            if b > a:
                out.append((a, b, rule, pri))
    return out


def _utf8_chars(data: bytes) -> list[tuple[int, str]]:
    """(index of its first byte, character) for each character of UTF-8 `data`; a byte that
    starts no valid sequence is U+FFFD."""
    out = []
    i = 0
    while i < len(data):
        b = data[i]
        n = (
            1
            if b < 0x80
            else 2
            if 0xC0 <= b < 0xE0
            else 3
            if 0xE0 <= b < 0xF0
            else 4
            if 0xF0 <= b < 0xF8
            else 1
        )
        try:
            ch = data[i : i + n].decode("utf-8")
        except UnicodeDecodeError:
            ch, n = "\ufffd", 1
        out.append((i, ch))
        i += n
    return out
