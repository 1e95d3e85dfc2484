"""A memory's body as plain lines: where its rule is, and its Why / How to apply lines.

Claude Code's format for a topic file (its system prompt): the body leads with the rule or
fact itself, then a `**Why:**` line and a `**How to apply:**` line. Real files vary: a heading
first, a lead-in ending in a colon and a list, hard-wrapped paragraphs, labels such as
`**Pattern:**`, `[[wikilinks]]`, emoji markers, placeholders of a template never filled in.
`rule_line` finds the first line that states something, and `plain` takes the markdown off
it, so a claim never carries markdown residue: emphasis, links, list markers, headings,
HTML tags. Code spans stay as written (a claim keeps `code` verbatim, as typed claims do).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# `**Why:**`, `**Why**:`, `Why:`, `*How to apply:*`, `- **Why:**` … (the label, then the text)
_LABEL = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*|__|\*|_)?(?P<label>[^*_:\n]{1,40}?)(?:\*\*|__|\*|_)?\s*[:：]\s*(?:\*\*|__|\*|_)?\s*(?P<rest>.*)$"
)
_WHY = re.compile(r"^(?:why|reason|because|rationale|이유|왜|原因|为什么|為什麼|理由|por qu[eé]|porque|motivo|warum)$", re.I)
_HOW = re.compile(
    r"^(?:how to apply|how|apply|application|when to apply|적용(?: 방법)?|적용법|如何应用|如何應用|应用|適用|cómo aplicar|como aplicar|aplicación|anwendung)$",
    re.I,
)
# Labels that only emphasise the rule after them (`**CRITICAL:** All ids must be unique`).
_EMPHASIS_LABEL = re.compile(
    r"^(?:critical|important|note|rule|warning|always|never|must|key rule|the rule|rule of thumb|"
    r"중요|주의|규칙|핵심|重要|注意|规则|規則|importante|regla|regra|wichtig)$",
    re.I,
)
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_RULE_LINE = re.compile(r"^\s*(?:[-*_]\s*){3,}$")
_TABLE = re.compile(r"^\s*\|")
_LIST = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?")
_QUOTE = re.compile(r"^\s*>\s?")
_PLACEHOLDER = re.compile(r"\[[^\]\n]{0,80}(?:/|e\.g\.|\.\.\.|…)[^\]\n]{0,80}\]")
_TEMPLATE_LINE = re.compile(r"^[^\[\]]{0,40}\[[^\]]+\][\s.]*$")
_EMOJI = re.compile(r"[\u2600-\u27bf\U0001f000-\U0001faff][\ufe0f\u200d]?")  # markers such as 🚨 ✅ ⚠️
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORDY = re.compile(rf"[{_CJK}]|(?:(?![{_CJK}])[^\W\d_]){{2,}}")


def plain(text: str) -> str:
    """One line of markdown as plain text (code spans kept, everything else unwrapped)."""
    spans: list[str] = []

    def keep(m: re.Match[str]) -> str:
        spans.append(m.group(0))
        return f"\ue000{len(spans) - 1}\ue001"

    # The characters the code spans stand as while the rest is unwrapped are dropped from the
    # model's text first (private-use glyphs, as an icon font's, say nothing a claim keeps):
    # a `\ue0007\ue001` of its own named a span that was not there, and raised IndexError.
    text = text.replace("\ue000", "").replace("\ue001", "")
    text = re.sub(r"(`+)(?:(?!\1).)+?\1", keep, text)
    text = re.sub(r"<!--.*?-->", " ", text)
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[\[([^\]|]+)\|([^\]]+)\]\]", r"\2", text)
    text = re.sub(r"\[\[([^\]]+)\]\]", r"\1", text)
    text = re.sub(r"\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)", r"\1", text)
    text = re.sub(r"\[([^\]]+)\]\[[^\]]*\]", r"\1", text)
    text = re.sub(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>", " ", text)
    text = _HEADING.sub("", text)
    text = _QUOTE.sub("", text)
    text = _LIST.sub("", text)
    for marker in (r"\*\*\*", r"\*\*", r"__", r"~~"):
        text = re.sub(rf"{marker}(?=\S)(.+?)(?<=\S){marker}", r"\1", text)
    text = re.sub(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])", r"\1", text)
    text = re.sub(r"(?<![\w_])_(?=\S)([^_\n]+?)(?<=\S)_(?![\w_])", r"\1", text)
    text = re.sub(r"\*\*|__|~~", "", text)  # an unpaired marker is residue too
    text = _EMOJI.sub(" ", text)
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"\ue000(\d+)\ue001", lambda m: spans[int(m.group(1))], text)


def first_sentence(text: str) -> str:
    """The first sentence of a plain line (a line is often several), abbreviations, decimals
    and code spans kept whole. A sentence ends at `.`/`!`/`?` before a blank and anything but
    a lower-case Latin letter, or at a CJK full stop. Stops that open the line (`!! Never …`,
    `… and`) end no sentence: taken for one, the line's rule was `!!`, an empty claim."""
    text = text.lstrip(" \t.!?。！？…")
    masked = re.sub(r"`[^`]*`", lambda m: "x" * len(m.group(0)), text)
    for m in re.finditer(r"[.!?](?=\s+(?![a-z])\S)|[。！？](?=.)", masked):
        before = masked[: m.start()].rsplit(" ", 1)[-1].lower()
        if m.group(0) == "." and (before in _ABBREVIATIONS or re.fullmatch(r"[a-z]", before)):
            continue
        return text[: m.end()].strip()
    return text.strip()


_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "cf", "approx", "no", "dr", "mr", "ms", "p", "pp", "fig"})


@dataclass(frozen=True)
class BodyParts:
    lead: str | None  # the rule the body leads with (its first block states something), plain
    lead_line: int  # its 0-based index in the body lines
    first: str | None  # else the first line anywhere that states something (a list item too)
    first_line: int
    why: str | None
    how: str | None


def _label(line: str) -> tuple[str, str] | None:
    """(label, text after it) when the line opens with a short label and a colon."""
    if not re.match(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)", line) and not re.match(r"^\s*[^\s:：]{1,20}[:：]", line):
        return None
    m = _LABEL.match(line)
    if not m:
        return None
    label = plain(m.group("label")).strip()
    if not label or len(label.split()) > 5:
        return None
    return label, m.group("rest")


def _states_something(text: str) -> bool:
    if len(_WORDY.findall(text)) < 3:
        return False
    if _PLACEHOLDER.search(text) or _TEMPLATE_LINE.match(text):
        return False  # a template's `[PhD student / Postdoc / …]`, never filled in
    return not text.rstrip().endswith((":", "："))  # a lead-in to a list


def _paragraph(lines: list[str], start: int) -> str:
    """The line at `start` with its hard-wrapped continuation lines."""
    parts = [lines[start]]
    for line in lines[start + 1 :]:
        if (not line.strip() or _LIST.match(line) or _HEADING.match(line) or _FENCE.match(line)
                or _TABLE.match(line) or _label(line) is not None):  # fmt: skip
            break
        parts.append(line)
    return " ".join(p.strip() for p in parts)


# What a Why / How to apply text shows at most. Not cut here: the text is the model's, and a
# cut made before redaction left the part of a key before it, which no rule reads as a secret
# any longer (extract/memory_notes.quote_for redacts the whole text, then cuts).
SECTION_CHARS = 400


def _section(lines: list[str], start: int, first: str) -> str:
    """A Why / How to apply text: the rest of its line and the lines under it (a list or a
    paragraph) up to a blank line, a heading or the next label — whole lines, read until they
    pass SECTION_CHARS (the caller cuts, after redaction)."""
    pieces = [plain(first)] if plain(first) else []
    for line in lines[start + 1 :]:
        if not line.strip():
            if pieces:
                break
            continue
        if _HEADING.match(line) or _FENCE.match(line) or (_label(line) is not None and not _LIST.match(line)):
            break
        pieces.append(plain(line))
        if sum(len(p) for p in pieces) > SECTION_CHARS:
            break
    return "; ".join(p for p in pieces if p)


def split_body(body: str) -> BodyParts:
    """The rule a body leads with (its first block, when that states something: not a
    heading, a list, a lead-in ending in a colon, a label such as `**Pattern:**`), the first
    line anywhere that states something, and the Why / How to apply texts."""
    lines = body.split("\n")
    lead: tuple[str, int] | None = None
    first: tuple[str, int] | None = None
    why = how = None
    fenced = False
    leading = True  # still at the body's first block
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced, leading = not fenced, False
            continue
        if fenced or not line.strip() or _RULE_LINE.match(line):
            continue
        if _HEADING.match(line) or _TABLE.match(line):
            leading = False
            continue
        text = None
        labelled = _label(line)
        if labelled is not None:
            label, rest = labelled
            if _WHY.match(label):
                why = why or _section(lines, i, rest)
                leading = False
                continue
            if _HOW.match(label):
                how = how or _section(lines, i, rest)
                leading = False
                continue
            if _EMPHASIS_LABEL.match(label) and rest.strip():
                text = plain(rest + " " + _paragraph(lines, i)[len(line.strip()) :])
            # any other label (`**Pattern:**`, `Role: […]`) names a part, not the rule
        elif first is None or (leading and lead is None):
            text = plain(_paragraph(lines, i))
        if text is not None and _states_something(text):
            sentence = first_sentence(text)
            if leading and lead is None and not _LIST.match(line):
                lead = (sentence, i)
            if first is None:
                first = (sentence, i)
        leading = False
    return BodyParts(lead[0] if lead else None, lead[1] if lead else 0,
                     first[0] if first else None, first[1] if first else 0, why, how)  # fmt: skip


def is_template(body: str) -> bool:
    """A body that is mostly `[placeholders / to fill in]` under headings: a template nobody
    filled in (at least three such lines, and at least half of the lines that are not
    headings)."""
    content = [ln for ln in body.split("\n") if ln.strip() and not _HEADING.match(ln)]
    holes = [ln for ln in content if _PLACEHOLDER.search(ln) or re.match(r"^\s*(?:\d+[.)]\s*)?\[[^\]\n]+\]\s*$", ln)]
    return len(holes) >= 3 and 2 * len(holes) >= len(content)


def statement(text: str | None) -> str | None:
    """A frontmatter description as a plain first sentence, when it states something."""
    if not text:
        return None
    flat = plain(text)
    return first_sentence(flat) if _states_something(flat) else None


__all__ = ["SECTION_CHARS", "BodyParts", "first_sentence", "is_template", "plain", "split_body", "statement"]
