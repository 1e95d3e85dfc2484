"""The line ends of the person's files that agent-memory edits: CLAUDE.md (the
`@CLAUDE.memory.md` import, or with memory.target=claude-md the marker block), ~/.claude/CLAUDE.md
(the global import), `.gitignore` and `.gitattributes` (our lines), and a memory file checked
out CRLF by core.autocrlf=true.

A file saved with Windows line ends (CRLF: an editor there with core.autocrlf=false, or a
repository that commits CRLF) was read with universal newlines (Python's text mode) and written
back with "\\n": every line of the person's file changed — `init --yes` committed that diff —
and the lines added were LF. So each writer reads the file as stored (`tiers.read_inside(...,
newline="")`), recognises our lines whatever their end (`str.splitlines`, then `strip`), keeps
the person's bytes, and writes what it adds with the file's own line end (`line_end`). What we
write is rendered with "\\n" (`in_line_end` turns it); a new file gets "\\n", as before.

Standard library only, nothing imported: render.py (the session start's cold path) uses it."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

CRLF = "\r\n"
_ENDS = ("\r\n", "\n", "\r")


def line_end(text: str) -> str:
    """The file's own line end: CRLF when at least half of its line ends are CRLF (a file
    mixed by an earlier LF write is written back the way most of it is), else "\\n" — also for
    an empty or one-line file, as git writes ours."""
    crlf = text.count(CRLF)
    return CRLF if crlf and crlf * 2 >= text.count("\n") else "\n"


def in_line_end(text: str, end: str) -> str:
    """`text`, written with "\\n" (a rendered block, our lines), with `end` for each line end."""
    return text.replace("\n", end) if end != "\n" else text


def as_lf(text: str) -> str:
    """`text` with its CRLF line ends made "\\n": to compare a work-tree copy with its blob
    (core.autocrlf=true checks out CRLF what is committed LF)."""
    return text.replace(CRLF, "\n") if "\r" in text else text


def ends_a_line(text: str) -> bool:
    return text.endswith(("\n", "\r"))


def _without_last_end(text: str) -> str:
    for end in _ENDS:
        if text.endswith(end):
            return text[: -len(end)]
    return text


def ends_with_blank_line(text: str) -> bool:
    """Whether `text` ends with an empty line: two line ends in a row ("\\r\\n" is one)."""
    return ends_a_line(text) and ends_a_line(_without_last_end(text))


def appended(text: str, lines: Sequence[str], blank_line: bool = False) -> str:
    """`text` byte for byte (a missing final line end added) with `lines` after it, each ended
    with the file's own line end; with `blank_line`, after an empty line (unless it ends with
    one already)."""
    end = line_end(text)
    added = end.join(lines) + end
    if not text:
        return added
    separator = "" if ends_a_line(text) else end
    if blank_line and not ends_with_blank_line(text + separator):
        separator += end
    return text + separator + added


def closed(text: str, end: str) -> str:
    """`text` without its trailing empty lines, ended with one `end`: what is left of a file
    once our lines (and the blank line before them) are taken out."""
    return text.rstrip("\r\n") + end
