"""What is read of a text to keep its first characters, redacted: a text is redacted before it
is cut (cut first, a key that straddled the cut left its first part, which no rule reads as a
secret any longer), but only a window of it is read — redaction is linear in what it reads, and
a claim may be a whole pasted line, a memory note 256 KB on one line. The typed claim
(extract/text.shorten), Claude's memory notes (extract/memory_notes) and the evidence lines of
`inspect --why` (transcripts/evidence) read the same window."""

from __future__ import annotations

import re

# this many times what is kept is read
WINDOW = 4
_LAST_BLANK = re.compile(r"\s(?=\S*\Z)")
_BLANK = re.compile(r"\s")


def window(text: str, keep: int) -> str:
    """The part of `text` read to keep its first `keep` characters: whole when short, else cut
    at a blank far past `keep` — the last before WINDOW * keep, else the first after it. No run
    of characters is cut, so none is a key cut in two (a run is bounded by MAX_TEXT)."""
    if len(text) <= WINDOW * keep:
        return text
    head = text[: WINDOW * keep]
    blank = _LAST_BLANK.search(head)
    if blank and blank.start() > 2 * keep:
        return head[: blank.start()]
    after = _BLANK.search(text, WINDOW * keep)
    return text[: after.start()] if after else text
