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

The same files may open with a UTF-8 byte-order mark (EF BB BF: Notepad, Windows PowerShell
5.1's `Out-File` and `Set-Content -Encoding UTF8`, an editor set to "UTF-8 with BOM"). Read
as UTF-8 it is the character U+FEFF before the first line, so that line was not one of ours
("\\ufeff@CLAUDE.memory.md" is not the import, `str.strip` keeps it): init added a second
import, deinit and purge left ours behind, the block's begin marker went unseen, and
`json.loads` refused a settings file Claude Code reads. The mark is an encoding signature,
not text — git skips it in `.gitignore` and `.gitattributes` too — so each reader looks past
it (`split_bom`, `without_bom`) and each writer puts it back first, the rest of the person's
bytes as they were. Two files saved with the mark and joined leave one opening a line
mid-file: in CLAUDE.md a line of ours after it is ours (`ours`; Claude Code reads the mark as
whitespace), in `.gitignore`/`.gitattributes` it is not (git skips the file's first only).

A file saved with bare CR line ends (classic Mac OS) is one line to `split("\\n")` and to a
multi-line regex's `^`; markdown ends a line at a lone CR (`md_lines`), and the import goes in
with the file's CR (`line_end`). Git and the pre-commit guard do not — git splits `.gitignore`
and `.gitattributes` at LF only, the guard refuses a lone CR in the block — so what they read
is written CRLF or LF (`git_line_end`).

Standard library only, nothing imported: render.py (the session start's cold path) uses it."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

CRLF = "\r\n"
_ENDS = ("\r\n", "\n", "\r")
# U+FEFF, a UTF-8 byte-order mark once decoded: only at the start of a file is it one.
BOM = "\ufeff"


def split_bom(text: str) -> tuple[str, str]:
    """(the byte-order mark `text` opens with, or "", the rest): a writer edits the rest and
    writes the mark back in front of it."""
    return (BOM, text[1:]) if text.startswith(BOM) else ("", text)


def without_bom(text: str) -> str:
    """`text` without the byte-order mark it may open with: what a reader parses."""
    return text[1:] if text.startswith(BOM) else text


def git_line_end(text: str) -> str:
    """The line end for lines that git or the pre-commit guard read (a `.gitignore` or
    `.gitattributes` line, an adopted.log entry, the memory block): CRLF when at least half of
    the file's line feeds end CRLF lines (a file mixed by an earlier LF write is written back
    the way most of it is), else "\\n" — also for an empty or one-line file, as git writes ours.
    A bare CR is no line end to either: git splits those files at "\\n" only, and the guard
    refuses a lone CR in a memory block (it overprints the line in a terminal)."""
    crlf = text.count(CRLF)
    return CRLF if crlf and crlf * 2 >= text.count("\n") else "\n"


def line_end(text: str) -> str:
    """The markdown file's own line end (CLAUDE.md, where the import goes): `git_line_end`, or
    a bare CR when most of its line ends are one (classic Mac OS; CommonMark, and so Claude
    Code, ends a line there)."""
    crlf = text.count(CRLF)
    cr = text.count("\r") - crlf
    return "\r" if cr > crlf and cr > text.count("\n") - crlf else git_line_end(text)


def md_lines(text: str) -> list[str]:
    """The lines of a markdown file, each without its end: CRLF, LF or a bare CR, as CommonMark
    reads them (`str.splitlines` also splits at form feeds, U+2028 and others, `split("\\n")`
    at none of a bare-CR file's)."""
    return text.replace(CRLF, "\n").replace("\r", "\n").split("\n") if "\r" in text else text.split("\n")


def ours(line: str) -> str:
    """A markdown line as ours are looked for in it: without the spaces around it nor the byte-
    order marks it opens with — two files saved with one and joined (`cat a.md b.md`) leave one
    at the start of a line mid-file, which Claude Code reads as whitespace. (git does not skip
    one in `.gitignore`/`.gitattributes` but at the very start: their lines are only stripped.)"""
    return line.strip().lstrip(BOM).strip()


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


def appended(text: str, lines: Sequence[str], blank_line: bool = False, end: str | None = None) -> str:
    """`text` byte for byte (a missing final line end added) with `lines` after it, each ended
    with `end` (by default the file's own line end); with `blank_line`, after an empty line
    (unless it ends with one already). What ends the file's last line and makes the blank one
    is in the file's own line end."""
    own = line_end(text)
    end = own if end is None else end
    added = end.join(lines) + end
    if not text:
        return added
    separator = "" if ends_a_line(text) else own
    if blank_line and not ends_with_blank_line(text + separator):
        separator += own
    return text + separator + added


def closed(text: str, end: str) -> str:
    """`text` without its trailing empty lines, ended with one `end`: what is left of a file
    once our lines (and the blank line before them) are taken out."""
    return text.rstrip("\r\n") + end
