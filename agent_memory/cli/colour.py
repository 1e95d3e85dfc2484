"""Colour for people at a terminal: tiers, refusals, hints. Never in a pipe or a file, never
with `NO_COLOR` set (https://no-color.org: any non-empty value) or `--no-color`, never when
TERM is `dumb`. Standard library only: the error path of every verb imports this."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import TextIO

# SGR codes: bold, red, green, yellow, blue, magenta, cyan, dim.
_ROLES = {
    "L0": "2",
    "L1": "36",  # cyan: candidates
    "L2": "32",  # green: the project's adopted memory
    "L3": "35",  # magenta: the global persona
    "staged": "33",
    "contested": "33",
    "refused": "1;31",
    "error": "1;31",
    "hint": "33",
    "ok": "32",
    "id": "2",
    "heading": "1",
    "dim": "2",
}
_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")


def disable() -> None:
    """`--no-color`: every later `paint` prints plain text (inherited by child `git memory`s)."""
    os.environ["NO_COLOR"] = "1"


def enabled(stream: TextIO | None = None) -> bool:
    stream = stream if stream is not None else sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def paint(text: str, role: str, stream: TextIO | None = None) -> str:
    code = _ROLES.get(role)
    if not code or not text or not enabled(stream):
        return text
    return f"\x1b[{code}m{text}\x1b[0m"


def tier(name: str, stream: TextIO | None = None) -> str:
    return paint(name, name, stream)


def strip(text: str) -> str:
    return _ANSI_RE.sub("", text)


# The colour codes `paint` writes: all a line for people may keep of the escape sequences.
_OURS = frozenset([f"\x1b[{code}m" for code in _ROLES.values()] + ["\x1b[0m"])
# An SGR sequence (ours or not), one control character of any other kind (tab and line feed
# are text), or a bidirectional control: U+202E and its kin reorder what a terminal shows
# after them ("Trojan Source"), so a claim read in review is not the claim written.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_CONTROL_RE = re.compile(f"\\x1b\\[[0-9;]*m|[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{_BIDI}]")


def shown(text: str, stream: TextIO | None = None) -> str:
    """`text` as a terminal should get it: every control character written as `\\x1b`
    (model/controls.py) but the colour codes of `paint`, kept when colour is on for `stream`
    (with no `stream`, `text` holds no colour of ours: nothing is kept), and every
    bidirectional control as `\\u202e`.

    Claims come from text other people and Claude's model wrote, and stores written before
    claims lost their control characters (or by hand) still hold some: a raw `ESC [8m` would
    hide the rest of the line from the person reading it. The codes `paint` writes only colour
    (none conceals), so keeping them costs nothing even when one came from a claim."""
    if text.isprintable() or not _CONTROL_RE.search(text):
        return text
    from agent_memory.model.controls import show_controls

    keep = stream is not None and enabled(stream)
    return _CONTROL_RE.sub(lambda m: m[0] if keep and m[0] in _OURS else _escaped(m[0], show_controls), text)


def _escaped(match: str, show_controls: Callable[[str], str]) -> str:
    return f"\\u{ord(match):04x}" if len(match) == 1 and ord(match) > 0x9F else show_controls(match)
