"""A "#" note no rule reads, kept as typed.

A prompt opened by "#" is how a person asked older Claude Code to keep a line in its memory (and
people still type it). The rules read it first (prepare.users_text, filters.memory_note); one no
rule reads is kept as the person wrote it — as Claude Code itself kept it — when it says
something (five words, or ten characters of a script without spaces: "#todo list" is a tag) and
is no question, title, task or guess. An instruction (when/before/after…, always/never, must,
should, need to, a verb first) is a constraint, anything else a fact.
"""

from __future__ import annotations

import re

from agent_memory.extract.filters import IMPERATIVES
from agent_memory.extract.finish import Candidate
from agent_memory.extract.rules.base import cap
from agent_memory.extract.rules.lang_words import non_english
from agent_memory.extract.standing import STANDING
from agent_memory.extract.text import shorten, tidy, unmask
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# What makes the note an instruction.
_NOTE_RULE = _lazy(
    r"^(?:when|whenever|before|after|if)\b|"
    r"\b(?:always|never|must|should|need to|have to|are not to|don'?t|do not|allow|allowed)\b",
    re.I,
)


# A task or a guess typed after "#" ("# continue with the upgrade and …", "# I think we use
# v2") is no note to keep as it is, unless said to hold on ("#when running X always …").
_NOTE_NOW = _lazy(
    r"^(?:fix|continue|carry on|proceed|split|implement|add|create|update|refactor|remove|delete|"
    r"rename|move|write|build|run|check|test|look|find|investigate|try|make|change|use|go|let's|"
    r"i think|maybe|probably|perhaps)\b",
    re.I,
)


# A verb that says something of a subject ("… is …", "… uses …", "… lives in …").
_SAYS_SOMETHING = _lazy(
    r"\b(?:is|are|was|were|has|have|had|uses?|runs?|lives?|needs?|requires?|can|will|does|"
    r"goes|works?|means?|keeps?|gets?|makes?|takes?|belongs?|points?|comes?|starts?|sits?)\b|'s\b",
    re.I,
)


def note_as_typed(text: str, spans: list[str]) -> Candidate | None:
    """The note `text` (its "#" cut) as a candidate, or None when it is no note to keep."""
    note = tidy(text.strip().lstrip("#").strip())
    if note.endswith("?") or (len(note.split()) < 5 and not (non_english(note) and len(note) >= 10)):
        return None
    if _NOTE_NOW.match(note) and not STANDING.search(note):
        return None
    first = note.split()[0].lower()
    kind = "constraint" if _NOTE_RULE.search(note) or first in IMPERATIVES else "fact"
    if kind == "fact" and not non_english(note) and not _SAYS_SOMETHING.search(note):
        return None  # "# Summary of today's changes": a title, nothing said of anything
    said = unmask(note, spans)
    # (another language's note keeps the person's words, labelled as its remember rules label them)
    claim = f"Remember: {said}" if non_english(said) else cap(said)
    return Candidate(shorten(claim), kind, "stated", "memory.note_as_typed")
