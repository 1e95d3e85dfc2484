"""Text folded for judging: what a reader sees, not the code points written.

An attacker — or a paste — can hide a secret from pattern rules while a person still reads it:
zero-width and other format characters inside a token (`ghp_\u200b…`), letters from another
script that look Latin (Cyrillic `а`, `е`, `о`), fullwidth or mathematical letters (`ｇｈｐ＿…`).
`fold` removes invisible characters, applies NFKC per character and maps look-alike letters
to Latin, keeping for every folded character the offset of the character it came from, so a
finding in the folded text maps back onto the original. Text without such characters (nearly
all of it) is returned as is, at the cost of one `isascii`; otherwise only the non-ASCII
characters are looked at (each once: a cache remembers what it folds to).

`invisible(text)` lists the format characters a reviewer cannot see; the guard refuses them in
memory files outright (agent_memory.redact.guard).
"""

from __future__ import annotations

import bisect
import re

from agent_memory.model.controls import EMOJI_SEEN, INVISIBLE_CLASS
from agent_memory.redact.regex import LazyCompiler

_lazy = LazyCompiler(globals())

_INVISIBLE: re.Pattern[str] = _lazy("[" + INVISIBLE_CLASS + "]")
# Letters that NFKC leaves alone but that read as Latin ones (Unicode confusables, the subset
# that occurs in practice: Cyrillic, Greek, Armenian, Latin small capitals and dotless i).
_CONFUSABLE_PAIRS = (
    "аa вb еe кk мm нh оo рp сc тt уy хx ѕs іi јj ԁd һh ӏl ԛq ԝw ѵv ґr ɡg "
    "АA ВB ЕE ЅS ІI ЈJ КK МM НH ОO РP СC ТT ХX УY ԌG ԚQ ԜW ѴV Ӏl "
    "αa βb εe ιi κk νv οo ρp τt υu χx ωw "
    "ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX "
    "օo սu ոn ıi ȷj ᴀA ʙB ᴄC ᴅD ᴇE ɢG ʜH ɪI ᴊJ ᴋK ʟL ᴍM ɴN ᴏO ᴘP ʀR ꜱS ᴛT ᴜU ᴠV ᴡW ʏY ᴢZ"
)
CONFUSABLES: dict[str, str] = {p[0]: p[1] for p in _CONFUSABLE_PAIRS.split()}
_CONFUSABLE_CHARS: re.Pattern[str] = _lazy(lambda: "[" + "".join(sorted(CONFUSABLES)) + "]")


_NON_ASCII: re.Pattern[str] = _lazy(r"[^\x00-\x7f]+")
# what each non-ASCII character folds to ("" when invisible); filled as characters are met
_FOLDED: dict[str, str] = {}


def _fold_char(ch: str) -> str:
    out = _FOLDED.get(ch)
    if out is None:
        import unicodedata  # here, not at the top: most text never needs it

        if _INVISIBLE.match(ch):
            out = ""
        elif ch == "\u2026":
            out = ch  # an ellipsis: "..." would find nothing more
        else:
            out = CONFUSABLES.get(ch) or unicodedata.normalize("NFKC", ch)
            if not out.isascii():
                out = "".join(CONFUSABLES.get(c, c) for c in out)
        if len(_FOLDED) < 65536:
            _FOLDED[ch] = out
    return out


class OffsetMap:
    """Where each character of a folded text came from, as a few segments instead of one
    integer per character (a list of millions of integers would cost more than the scan)."""

    __slots__ = ("fold_starts", "orig_starts", "fixed", "size", "orig_size")

    def __init__(self) -> None:
        self.fold_starts: list[int] = []
        self.orig_starts: list[int] = []
        self.fixed: list[bool] = []  # True: every character of the segment came from one
        self.size = 0
        self.orig_size = 0

    def add(self, orig: int, length: int, fixed: bool) -> None:
        self.fold_starts.append(self.size)
        self.orig_starts.append(orig)
        self.fixed.append(fixed)
        self.size += length

    def __getitem__(self, i: int) -> int:
        if i >= self.size:
            return self.orig_size
        k = bisect.bisect_right(self.fold_starts, i) - 1
        base = self.orig_starts[k]
        return base if self.fixed[k] else base + (i - self.fold_starts[k])

    def __len__(self) -> int:
        return self.size + 1


def fold(text: str) -> tuple[str, OffsetMap, list[int]] | None:
    """(folded text, origin, changed) where `origin[i]` is the offset in `text` of folded
    character `i` (`origin[len(folded)] == len(text)`) and `changed` the offsets in the folded
    text where folding removed or replaced something; None when folding changes nothing."""
    if text.isascii():
        return None
    import unicodedata  # here, not at the top: most text never needs it

    is_normalized = unicodedata.is_normalized
    invisible = _INVISIBLE.search
    confusable = _CONFUSABLE_CHARS.search
    out: list[str] = []
    origin = OffsetMap()
    origin.orig_size = len(text)
    changed: list[int] = []
    pos = 0
    fold_char = _fold_char
    # only non-ASCII characters can fold: runs of them are found at C speed, the rest is
    # copied in bulk
    for m in _NON_ASCII.finditer(text):
        run = m.group()
        if is_normalized("NFKC", run) and invisible(run) is None and confusable(run) is None:
            continue  # emoji, CJK, accented letters…: nothing to fold (checked at C speed)
        for i in range(m.start(), m.end()):
            ch = text[i]
            n = fold_char(ch)
            if n == ch:
                continue
            if i > pos:
                out.append(text[pos:i])
                origin.add(pos, i - pos, False)
            pos = i + 1
            # a space folds to a space: it matters only between a key and its value
            if n != " " or text[i - 1 : i] in (":", "=") or text[i + 1 : i + 2] in (":", "="):
                changed.append(origin.size)
            if n:
                out.append(n)
                origin.add(i, len(n), True)
    if not changed:
        return None
    if pos < len(text):
        out.append(text[pos:])
        origin.add(pos, len(text) - pos, False)
    return "".join(out), origin, changed


def map_span(origin: OffsetMap, s: int, e: int) -> tuple[int, int]:
    """The span of `text` that folded span [s, e) came from."""
    return origin[s], origin[e - 1] + 1 if e > s else origin[s]


_EMOJI_SELECTOR: re.Pattern[str] = _lazy(EMOJI_SEEN)


def invisible(text: str) -> list[int]:
    """Offsets of the characters a reviewer cannot see. A byte-order mark opening the text,
    emoji presentation selectors and the joiners inside emoji sequences are visible."""
    if text.isascii():
        return []
    out = []
    for m in _INVISIBLE.finditer(text):
        i = m.start()
        if i == 0 and text[0] == "\ufeff":
            continue
        if _EMOJI_SELECTOR.match(text, i):
            continue
        out.append(i)
    return out


def strip_invisible(text: str) -> str:
    """`text` without the characters `invisible` reports (for writers that should not store
    what a reviewer cannot see: a claim taken from a transcript, say)."""
    offsets = invisible(text)
    if not offsets:
        return text
    drop = set(offsets)
    return "".join(ch for i, ch in enumerate(text) if i not in drop)
