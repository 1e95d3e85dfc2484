"""A statement made ready for the sentence rules: the user's own text found (not a generated
prompt, a pasted document or an English passage quoted inside CJK), and that text normalised —
line continuations, long blank runs bounded, apostrophe-less spellings restored, fences and
emphasis cut, code spans and URLs masked."""

from __future__ import annotations

import re

from agent_memory.extract.filters import MEMORY_SHORTCUT
from agent_memory.extract.paste import read_paste
from agent_memory.extract.text import FENCE, MAX_TEXT, QUOTES, at_blanks, framing, mask
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

NEVER_EVER = _lazy(r"\bnever\s+ever\b", re.I)  # emphasis, not a different rule


# Apostrophe-less spellings typed in a hurry ("dont use lodash").
INFORMAL_MAP = {
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "isnt": "isn't",
    "arent": "aren't",
    "cant": "can't",
    "shouldnt": "shouldn't",
    "wouldnt": "wouldn't",
    "couldnt": "couldn't",
    "wasnt": "wasn't",
    "werent": "weren't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "im": "i'm",
    "ive": "i've",
    "youre": "you're",
    "theyre": "they're",
    "thats": "that's",
    "whats": "what's",
}
# Not inside a code span: "`im`" is a command, not "I'm".
INFORMAL = _lazy(r"(?<!`)\b(?:" + "|".join(INFORMAL_MAP) + r")\b(?!`)", re.I)
# German "im" is "in the" ("wir können im Backoffice …"): a statement with two or more German
# function words keeps its "im" as written.
_GERMAN = _lazy(
    r"\b(?:und|ist|nicht|ich|wir|mit|für|auf|eine?|dem|bitte|wenn|auch|noch|können|kann|soll|"
    r"werden|wird|sind|oder|aber|immer|keine?|der|das|des|müssen|muss|sollen|sein|zum|zur|"
    r"beim|vom)\b",
    re.I,
)


# "lets go through it": at the start of a sentence "lets" has no subject to be the verb of, so it
# is "let's" typed without its apostrophe (a request), not "X lets Y" ("lets go" read as a subject
# and "go through X" as a how-fact).
_LETS = _lazy(r"(?:(?<=^)|(?<=[.!?;\n]\s)|(?<=[.!?;]\s\s)|(?<=\n))(le|Le|LE)ts\b(?=\s+[a-z])", re.M)


def _informal(m: re.Match[str], german: bool) -> str:
    word = m.group(0)
    # (.get: "İm", "Doeſnt" match under re.I but lower to no key)
    return word if german and word.lower() == "im" else INFORMAL_MAP.get(word.lower(), word)



def _glued(text: str, m: re.Match[str]) -> bool:
    before = text[m.start() - 1 : m.start()]
    after = text[m.end() : m.end() + 1]
    return before.isalnum() and after.isalnum()


# A line ended by a backslash: the terminal's way of typing a newline into the prompt
# ("1. No\\⏎2. Yes\\⏎"), a line break, never part of what was said.
LINE_CONTINUATION = _lazy(r"\\[ \t]*(?=\n)")


# Long runs of blanks or of line breaks bounded before the sentence rules read a statement. A
# terminal paste padded to the screen's width can hold thousands of blanks in one line, and many
# rule patterns try a match at every blank of a run and scan the rest of it ("\s+(?:so|but)\b",
# "^\s*" per line): time grows with the square of the run (11,000 spaces took ~96 s). The rules
# read layout only as "a blank or a few" (indentation of 2-4, paragraph breaks); the paste
# detector (paste.py), which reads column padding (6+ blanks inside a line, 20+ at its end),
# has already run on the raw text. So a run of more than MAX_BLANKS blanks (spaces, tabs, any
# non-break space) keeps its first MAX_BLANKS, above every threshold either reads, and a run of
# more than MAX_BREAKS line breaks (blank lines between them) becomes MAX_BREAKS breaks: any
# run is then a bounded cost, and a statement's time is linear in its length.
MAX_BLANKS = 24
MAX_BREAKS = 8
_BLANK_RUN = _lazy(rf"(?<![^\S\n])[^\S\n]{{{MAX_BLANKS + 1},}}")
_BREAK_RUN = _lazy(rf"\n(?:[^\S\n]*\n){{{MAX_BREAKS},}}")


def bounded_runs(text: str) -> str:
    """`text` with every blank run cut to MAX_BLANKS characters and every run of line breaks
    to MAX_BREAKS (see above); text without such runs is returned unchanged."""
    text = _BLANK_RUN.sub(lambda m: m.group()[:MAX_BLANKS], text)
    return _BREAK_RUN.sub("\n" * MAX_BREAKS, text)


def prepared(text: str) -> tuple[str, list[str]]:
    """The statement masked (code spans and URLs as placeholders) and the spans."""
    text = LINE_CONTINUATION.sub("", text)
    # bounded after the cut to MAX_TEXT, so the rules read the same span of text as before; the
    # cut falls at a blank: a key it cut in two left its first part, which no rule reads as a
    # secret any longer, to a claim read from the text's last words
    text = bounded_runs(text[: at_blanks(text, 0, MAX_TEXT)[1]]).translate(QUOTES)
    german = len({w.lower() for w in _GERMAN.findall(text)}) >= 2
    text = INFORMAL.sub(lambda m: _informal(m, german), text)
    text = _LETS.sub(lambda m: m.group(1) + "t's", text)
    # again after the fences are cut out: each fence leaves a line break, and a wall of
    # backticks leaves thousands of them
    text = NEVER_EVER.sub("never", framing(bounded_runs(FENCE.sub("\n", text))))
    masked, spans = mask(text)
    # Markdown emphasis is noise in a claim; code spans are already masked, so `a__b` survives.
    # Between two words the marker was a word break ("used**ruff**" is "used ruff"), never glue.
    masked = re.sub(
        r"\*\*|__|(?<![\w*])\*(?=\w)|(?<=\w)\*(?![\w*])",
        lambda m: " " if _glued(masked, m) else "",
        masked,
    )
    return masked, spans


# "You are a senior UX engineer …", "You are helping me build …": a prompt written for an agent
# (pasted or drafted for this task), whose rules are that agent's brief, not the user's own.
ROLE_PROMPT = _lazy(
    r"^\W{0,3}(?:(?:you are|you're)(?!\s+(?:in|on|inside|running|connected|logged|now|currently|"
    r"working in|working on)\b)|act as|your role is|hello\b.{0,80}\bi am)\b",
    re.I,
)


# A statement that opens with a markdown heading ("# API Standards\n> enforced by …") is a
# document pasted whole: its rules are the document's, kept by the file itself.
PASTED_DOC = _lazy(
    r"^#{1,3}\s+\S[^\n]{0,80}\n|"
    # the same heading underlined ("PROGRESS SUMMARY\n======"), or a file's front matter
    # ("---\nname: explain-code\ndescription: …"): a generated prompt or a pasted skill file
    r"^\S[^\n]{0,80}\n={3,}[ \t]*\n|^---[ \t]*\n[\w-]+:[^\n]*\n|"
    # "AWARENESS & CONTEXT (MANDATORY):" — a capitalised section heading of a pasted brief (a
    # heading the user types for their own rules, "MY RULES:", "IMPORTANT:", is not one)
    r"^(?!.*\b(?:RULES?|IMPORTANT|NOTE|REMEMBER|PREFERENCES?|ALWAYS|NEVER)\b)"
    r"[A-Z][A-Z&/()-]+(?:\s+[A-Z&/()-]+){1,6}:[ \t]*\n"
)


# English text set inside a sentence of a script written without spaces between words ("bio를
# I'm a data analyst … I love clean data.로 바꿔줘", "把简介改成 I build tools. I love maps. 吧"): a
# passage quoted for the work (a bio, a reply to send), not the user speaking English. Two
# sentences or more, with Han/kana/Hangul right before and right after it on the same line.
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
# A run of non-CJK text between two CJK characters of one line (linear: each character is read
# once; whether it holds two sentences is checked on the run found).
BETWEEN_CJK = _lazy(rf"(?<=[{_CJK}])[^\n{_CJK}]+(?=[{_CJK}])")
_TWO_SENTENCES = _lazy(r"[.!?][\"'”’]?[ \t]+[\"'“‘]?[A-Z]")


def without_quoted_latin(masked: str) -> str:
    """`masked` with each English passage quoted inside a CJK sentence blanked (see above)."""

    def blank(m: re.Match[str]) -> str:
        run = m.group(0)
        english = re.match(r"[ \t]*[A-Za-z\"'“‘]", run) and re.search(r"[.!?][\"'”’]?[ \t]*$", run)
        return " " if english and _TWO_SENTENCES.search(run) else run

    return BETWEEN_CJK.sub(blank, masked)


def generated_prompt(text: str) -> bool:
    """A long role prompt or pasted document, or "<observed_from_primary_session>…": a tool's
    generated prompt, not the user typing."""
    if len(text) >= 200 and (ROLE_PROMPT.match(text.lstrip()) or PASTED_DOC.match(text.lstrip())):
        return True
    return bool(re.match(r"^\s*<[a-z_][\w-]*>", text) and len(text) >= 100)


def users_text(text: str, origin: str) -> tuple[str, bool]:
    """The text the user typed, and whether they ask to keep it (a block the user asks to keep,
    "add these rules to CLAUDE.md:\n## Git\n- …", is read as a "#" memory note: every rule in it
    stands)."""
    shortcut = MEMORY_SHORTCUT.match(text) if origin == "prompt" else None
    if shortcut:
        # "# never use any in TypeScript": the memory shortcut of older Claude Code typed out of
        # habit (newer versions send it on as a prompt); the note is asked to be kept, so the
        # gate keeps what the rules read (durability), but the rules still judge it: "# carry on
        # and do not edit .env" or "# I want to use zod, what does it do?" is no note
        return shortcut.group(1), False
    if origin != "memory":
        # a pasted report, spec or brief yields nothing; the user's lines around it are read
        return read_paste(text)
    return text, False
