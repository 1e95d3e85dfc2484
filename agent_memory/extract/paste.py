"""Text the user pasted into a prompt (a document, a report, a generated status, a task brief):
found from the message's layout, never from one phrase.

A memory line must be the user's own rule or fact. A pasted report ("✅ Auth done", "## Next
steps"), a spec with "Label: value" lines, an all-caps task brief or a long numbered list are
somebody's text for this piece of work: their "never"/"always" lines bound that work, their
facts describe the document. Each line of the message is read for the marks of such text
(a markdown heading, a status emoji, a "Label: text" line, a list item, a line in capitals, a
table or box row, column padding); the message holds a paste when the marks are many and of
more than one sort (or of one unmistakable sort). The paste runs from its first marked line to
its last; the lines before and after it are the user talking and are read as usual, and an
explicit request to keep the pasted text ("remember these rules:", "add this to CLAUDE.md")
makes it the user's again.

Each criterion was kept only where it removed more false atoms than true ones on people whose
prompts were never read while writing it (notes/28-paste.md).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

_HEADING = _lazy(r"^\s{0,3}#{1,6}\s+\S|^\s*[=-]{4,}\s*$")
_ITEM = _lazy(r"^\s*(?:[-*\u2022+\u25aa\u25e6]|\d{1,2}[.)]|[a-z][.)])\s+\S")
# "Status: done", "- **Backend:** FastAPI", "Expected result: …": a field of a form or a report.
# (a generated text's "Issue 2 — No fallback router." is the same field, set off by a dash)
# A label with nothing after it is a section title ("WORKFLOW:", "Next Steps:"): one word, or
# capitalised words only ("Here is the error:" introduces, it is no title).
_LABEL = _lazy(
    r"^\s*(?:(?:[-*\u2022]|\d{1,2}[.)])\s+)?(?:\*\*)?"
    # ("Yes — go ahead", "Perfect — I'll do it", "Got it: …" answer, they label nothing)
    r"(?!(?i:yes|no|ok|okay|perfect|great|good|sure|right|got it|thanks|also|and|but|so|well|"
    r"alright|hmm|wait|done|nice|cool)\b)(?:"
    r"[A-Z][\w'()/&.-]*(?:\s+[\w'()/&.-]+){0,3}(?:\*\*)?\s*(?::|\s\u2014)(?:\*\*)?\s+\S|"
    r"[A-Z][\w'()/&.-]*(?:\s+[A-Z0-9][\w'()/&.-]*){0,3}(?:\*\*)?\s*:(?:\*\*)?\s*$)"
)
_TABLE = _lazy(r"^\s*\|.*\|\s*$|[\u2500-\u257f]")
# Columns padded with runs of spaces, or a line padded to the terminal's width: a terminal's or
# a table's output copied in.
_PADDED = _lazy(r"\S {6,}\S|\S {20,}$")
_FENCE = _lazy(r"^\s*```")
_LETTERS = _lazy(r"[^\W\d_]")


def _status(line: str) -> bool:
    """A line that opens (after a bullet) with a pictograph: "✅ Tests pass", "- ❌ no hooks",
    "🚀 Deployed"."""
    body = re.sub(r"^\s*(?:[-*\u2022]|\d{1,2}[.)])?\s*(?:\*\*)?", "", line)
    if not body:
        return False
    ch = body[0]
    return unicodedata.category(ch) == "So" and not ("\u2500" <= ch <= "\u257f")


def _shouted(line: str) -> bool:
    """A line in capitals ("NÃO USE SUBAGENTS PARA AS COMPARAÇÕES", "CRITICAL REQUIREMENTS"):
    four words or more, nearly all letters upper case."""
    letters = _LETTERS.findall(line)
    if len(letters) < 16 or len(line.split()) < 4:
        return False
    upper = sum(1 for c in letters if c.isupper())
    return upper >= 0.85 * len(letters)


@dataclass(frozen=True)
class Marks:
    """How many lines of a message carry each mark of pasted text."""

    heading: int = 0
    status: int = 0
    label: int = 0
    item: int = 0
    shouted: int = 0
    table: int = 0
    padded: int = 0
    fence: int = 0

    def sorts(self) -> int:
        """How many different marks are present (a list item alone is ordinary typing)."""
        return sum(
            1
            for n in (self.heading, self.status, self.label, self.shouted, self.table, self.padded)
            if n
        ) + (self.item >= 3) + (self.fence >= 2)

    def pasted(self) -> bool:
        if self.status >= 2 or self.table >= 2 or self.heading >= 2:
            return True  # a generated report, a table, a document with sections
        if self.shouted >= 2 or self.label >= 4 or self.item >= 8:
            return True  # a shouted brief, a form, a long spec list
        return self.sorts() >= 2 and (
            self.heading + self.status + self.label + self.shouted + self.table + self.padded >= 2
        )


def _marked(line: str) -> tuple[str, ...]:
    out = []
    if _HEADING.match(line):
        out.append("heading")
    if _status(line):
        out.append("status")
    if _LABEL.match(line):
        out.append("label")
    if _ITEM.match(line):
        out.append("item")
    if _shouted(line):
        out.append("shouted")
    if _TABLE.search(line):
        out.append("table")
    if _PADDED.search(line.lstrip()):
        out.append("padded")
    if _FENCE.match(line):
        out.append("fence")
    return tuple(out)


# A document's title on its own line ("MultiAgent Continuation Prompt", "Release Notes v2"):
# a few capitalised words without a sentence's end, a blank line after it.
_TITLE = _lazy(r"^\s*[A-Z0-9][\w.-]*(?:\s+[A-Z0-9(&][\w.()&-]*){1,5}\s*\n[ \t]*\n")


def marks(text: str) -> Marks:
    return _counted([_marked(line) for line in text.split("\n")], titled=bool(_TITLE.match(text)))


def _counted(line_marks: list[tuple[str, ...]], titled: bool) -> Marks:
    counts: dict[str, int] = {}
    for marked in line_marks:
        for mark in marked:
            counts[mark] = counts.get(mark, 0) + 1
    if titled:
        counts["heading"] = counts.get("heading", 0) + 1
    return Marks(**counts)


# The user asking for the pasted text to be kept ("remember these rules:", "add this to
# CLAUDE.md", "save the following to your memory", "from now on follow these"), or saying it is
# their own ("my rules:").
_KEEP_ASKED = _lazy(
    r"\b(?:remember|memori[sz]e|(?:add|save|put|write|store|record|append|include)\b[^\n]{0,40}?\b(?:to|in|into)\s+"
    r"(?:your\s+|the\s+|my\s+|our\s+)?(?:memory|memories|claude\.md|agents\.md|rules|notes)|"
    r"\bupdate\s+(?:your\s+|the\s+)?(?:memory|claude\.md|agents\.md|rules)\s+with\b|"
    r"from now on|going forward|\b(?:my|our)\s+(?:own\s+)?(?:rules|preferences|conventions)\b|(?:lembre|lembra|adicione|salve)\b[^\n]{0,30}(?:memória|claude\.md)|"
    r"记住|记忆|記憶|覚えて|запомни)",
    re.I,
)
_MIN_LINES = 3  # a message of fewer non-blank lines is typed, whatever its marks


# A line that starts with a letter (any script), at the margin.
_AT_MARGIN = _lazy(r"^[^\W\d_]")
# "\" alone on a line: the user's own line break (backslash + Enter in the prompt box).
_TYPED_BREAK = _lazy(r"^\s*\\\s*$")


def _typed_under(lines: list[str], marked: int, i: int) -> bool:
    """Line i, in the paragraph of the block's last marked line, is not the paste's but the user
    typing under it: a blank line or a typed break ("\\" alone: backslash + Enter), or a line
    at the margin under a block indented by a terminal's copy ("  ⎿  Network error…" then "Make
    it apply only to …"); a wrapped line or the rest of a card keeps the block's indentation."""
    line = lines[i]
    if not line.strip() or _TYPED_BREAK.match(line):
        return True
    indent = len(lines[marked]) - len(lines[marked].lstrip())
    return indent >= 2 and i == marked + 1 and bool(_AT_MARGIN.match(line))


def _block(text: str) -> tuple[int, int, int, bool] | None:
    """(first line, column where the paste starts on it, last line, asked to be kept) of a
    pasted block."""
    lines = text.split("\n")
    if sum(1 for ln in lines if ln.strip()) < _MIN_LINES:
        return None
    # each line's marks read once: they decide both whether it is a paste and where it lies
    line_marks = [_marked(ln) for ln in lines]
    titled = bool(_TITLE.match(text))
    if not _counted(line_marks, titled).pasted():
        return None
    marked = [i for i, found in enumerate(line_marks) if found]
    if not marked:
        return None
    if titled:
        marked.insert(0, next(i for i, ln in enumerate(lines) if ln.strip()))
    first, last = marked[0], marked[-1]
    # the last marked line's paragraph (a wrapped item, the rest of a card) is the paste's too,
    # up to a line the user typed under it (_typed_under)
    while last + 1 < len(lines) and not _typed_under(lines, marked[-1], last + 1):
        last += 1
    column = 0
    if set(line_marks[first]) <= {"padded", "table"}:
        # "you are in a vm and I want to install X, I see these issues: ███  ███": the
        # user's words, then the terminal's output on the same line
        line = lines[first]
        starts = [m.start() for m in (_PADDED.search(line), _TABLE.search(line)) if m]
        column = min(starts, default=0)
        column = line.rfind(" ", 0, column) + 1  # from the start of the padded column's word
    # "remember these rules: …": the user asks for the pasted text to be kept
    return first, column, last, _keep_asked(lines, first, column, last)


def _keep_asked(lines: list[str], first: int, column: int, last: int) -> bool:
    """The line that introduces the block, or the one that follows it, asks to keep it ("add
    these to CLAUDE.md:", "… save all of the above in your memory"); a "remember" elsewhere in
    a pasted prompt ("and remember that you are a memory agent …") is the prompt's."""
    before = [ln for ln in [*lines[:first], lines[first][:column]] if ln.strip()]
    after = [ln for ln in lines[last + 1 :] if ln.strip()]
    ends = ([before[-1]] if before else []) + ([after[0]] if after else [])
    return any(_KEEP_ASKED.search(ln) and _POINTS_AT.search(ln) for ln in ends)


# The asking points at the block: it introduces it, or names it ("these", "the above").
_POINTS_AT = _lazy(
    r":\s*$|\b(?:these|this|the following|following|below|above|them|all of it)\b|"
    r"(?:以下|下面|上面|这些|這些|это|эти|estas?|estes?|isto|isso|ces|questi|queste)",
    re.I,
)


def pasted_lines(text: str) -> range | None:
    """The lines (indices into text.split("\\n")) holding a pasted block, or None."""
    block = _block(text)
    return range(block[0], block[2] + 1) if block and not block[3] else None


# The asking that makes a structured block the user's own: it opens the line right before the
# block and ends with a colon ("Add these rules to CLAUDE.md:").
_KEEP_FIRST = _lazy(
    r"^\W*(?:(?:please|pls|now|also|and|ok(?:ay)?)\W+)*(?:remember|memori[sz]e|add|save|put|write|"
    r"store|record|append|note|include|update|create)\b[^\n]*(?:memory|memories|claude\.md|agents\.md|rules)\b"
    r"[^\n]*:\s*$",
    re.I,
)


def _log_prefix(line: str) -> str | None:
    """A line's first three words, the prefix a log repeats on every line ("npm warn
    deprecated", "2026-05-19T08:21Z [DEBUG] Cleared")."""
    words = line.split()
    return " ".join(words[:3]) if len(words) > 3 and line[:1].strip() else None


# the end of the user's sentence right before a log glued to it ("… from npm install. npm warn …")
_SAID_BEFORE = _lazy(r"[.:!?]$")


def _without_glued_log(text: str) -> str:
    """The message with a log pasted onto the end of the user's own line blanked out: two lines
    or more starting with the same three words, whose prefix also stands on the line before
    them after the user's sentence ("This is what npm install printed. npm warn deprecated a@1:
    …\nnpm warn deprecated b@2: …\nnpm warn deprecated c@3: …"). The log runs from there to the
    last line with its prefix; its lines are kept, empty."""
    lines = text.split("\n")
    for k in range(1, len(lines) - 1):
        prefix = _log_prefix(lines[k])
        if prefix is None or _log_prefix(lines[k + 1]) != prefix:
            continue
        at = lines[k - 1].find(" " + prefix)
        if at < 0 or not _SAID_BEFORE.search(lines[k - 1][:at]):
            continue
        end = k
        while end + 1 < len(lines) and _log_prefix(lines[end + 1]) == prefix:
            end += 1
        lines[k - 1] = lines[k - 1][:at]
        lines[k : end + 1] = [""] * (end + 1 - k)
        return "\n".join(lines)
    return text


def _list_asked_to_keep(text: str) -> bool:
    """The message's first line asks to keep what follows (`_KEEP_FIRST`) and list items follow."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    return len(lines) > 1 and bool(_KEEP_FIRST.match(lines[0])) and all(_ITEM.match(ln) for ln in lines[1:])


def read_paste(text: str) -> tuple[str, bool]:
    """The message as the rules read it, its pasted block blanked out (its lines kept, empty),
    and whether the user introduced a structured block by asking to keep it ("Add these rules to
    CLAUDE.md:\n## Git\n- …": every rule in it is the user's, as in a "#" memory note) — both
    from one reading of its lines. A log glued to the end of the user's line is blanked first."""
    text = _without_glued_log(text)
    block = _block(text)
    if block is None:
        # too few marks for a paste, but a list the person asks to keep all the same ("Please
        # update CLAUDE.md with the following:\n- …"): every item is theirs to keep
        return text, _list_asked_to_keep(text)
    first, column, last, asked = block
    lines = text.split("\n")
    if asked:
        before = [ln for ln in lines[:first] if ln.strip()]
        return text, bool(before) and bool(_KEEP_FIRST.match(before[-1]))
    kept = [
        ln[:column] if i == first else "" if first <= i <= last else ln
        for i, ln in enumerate(lines)
    ]
    return "\n".join(kept), False


def without_paste(text: str) -> str:
    """The message with its pasted block blanked out (its lines kept, empty)."""
    return read_paste(text)[0]
