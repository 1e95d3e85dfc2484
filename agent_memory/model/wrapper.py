"""The `<agent-memory>` wrapper the hooks put around what they inject, and the escape that
keeps a claim from writing it.

A claim that opened or closed the wrapper would end Claude's memory block early — what
followed would read as text from outside it — and the transcript reader, which cuts the
wrapper when Claude Code echoes hook output back, would learn from the rest. The reader
matches the tag case-insensitively (`transcripts.typed`, `re.I`), so the escape must too.

No `re` (the cold session start and the per-prompt recall call this), and no `casefold()`:
it changes the length of text (`ß` → `ss`, `ﬁ` → `fi`), so its offsets do not index the
original string. Only ASCII letters fold to the letters of `agent-memory`, under
`casefold()` and under `re.I` alike (tests/test_wrapper.py checks every code point), so an
ASCII-only lowercase copy, the same length as the text, finds every spelling.
"""

NAME = "agent-memory"
_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def escape_wrapper(text: str) -> str:
    """`text` with a backslash after the `<` of every `<agent-memory` and `</agent-memory`,
    in any case: `<\\agent-memory`, `<\\/agent-memory`."""
    if "<" not in text:
        return text
    low = text.translate(_ASCII_LOWER)  # one character for one: offsets stay those of `text`
    if NAME not in low:
        return text
    out, start = [], 0
    at = low.find("<")
    while at >= 0:
        name = at + 2 if low.startswith("/", at + 1) else at + 1
        if low.startswith(NAME, name):
            out.append(text[start : at + 1] + "\\")
            start = at + 1
        at = low.find("<", at + 1)
    out.append(text[start:])
    return "".join(out)
