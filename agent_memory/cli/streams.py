"""stdout and stderr that never fail on a character their encoding lacks.

A claim may hold any character; a terminal whose locale is not UTF-8 (`LC_ALL=C` with
`PYTHONUTF8=0`, a latin-1 or cp1252 console, `PYTHONIOENCODING=ascii`) cannot print most of
them, and Python's default `strict` handler then ends the verb with an internal error after
half its report. Such a stream writes a character it cannot encode as a `\\uXXXX` escape
instead (UTF-16 surrogate pairs above U+FFFF): readable, and inside a JSON string the same
escape JSON itself uses, so `--output json` stays one valid object that parses to the text.
"""

from __future__ import annotations

import codecs
import sys

HANDLER = "agent-memory-uescape"
_NEVER_RAISE = {HANDLER, "backslashreplace", "replace", "xmlcharrefreplace", "namereplace", "ignore"}


def _uescape(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start : exc.end]:
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), exc.end


def guard_streams() -> None:
    """Point the stdout and stderr of a non-UTF-8 locale at the escaping handler. A UTF-8
    stream is left as it is, and so is one that never raises; `strict` and the C locale's
    `surrogateescape` (which raises on any character that is not an escaped byte) are not."""
    codecs.register_error(HANDLER, _uescape)
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if encoding in ("utf8", "utf8sig") or getattr(stream, "errors", "strict") in _NEVER_RAISE:
            continue
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors=HANDLER)
            except (ValueError, OSError):  # a stream replaced by something that cannot
                pass
