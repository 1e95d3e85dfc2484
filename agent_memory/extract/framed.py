"""A sentence's memory framing read off ("remember …", "from now on …", "note: …", an event
said before its rule) into a `Framed`, and the shapes read on the whole sentence before it is
cut into clauses (a complaint, "instead of X use Y", a conditional, a purpose)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent_memory.extract.dispatch import (
    CONDITIONAL,
    EVENT_FIRST,
    HABIT,
    MEMORY_STRONG,
    MEMORY_WEAK,
    OBSERVATION,
    PURPOSE,
    REMIND,
    SCOPE,
    lasting_scope,
)
from agent_memory.extract.filters import IMPERATIVES, TASKY, vague
from agent_memory.extract.mode import REQUEST, sentence_mode
from agent_memory.extract.rules.directives import KEEP_DOING
from agent_memory.extract.rules.preferences import INSTEAD_FIRST
from agent_memory.extract.rules.registry import whole_sentence_hit
from agent_memory.extract.text import strip_lead
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

ClauseClaim = tuple[str, str, int, str]  # (claim, kind, clause index, rule)


_ARGUING = _lazy(r"\b(?:anyways?|after all)\W*$", re.I)


@dataclass(frozen=True)
class Framed:
    """A sentence with its memory framing read off: what is left, and how it was framed."""

    text: str
    strong: bool  # remember …, from now on …, until told otherwise …: keep even a plain line
    weak: bool  # note / FYI / keep in mind …: keep a plain statement of fact
    mode: str  # "statement" | "request" | "question"


# "never, ever push to main": the emphasis, not a clause of its own (the comma would cut it off)
_NEVER_COMMA_EVER = _lazy(r"^(never),\s*(ever)\b", re.I)


def framed(sentence: str) -> Framed | None:
    s = _NEVER_COMMA_EVER.sub(r"\1 \2", strip_lead(sentence))
    if not s:
        return None
    strong = False
    m = MEMORY_STRONG.match(s)
    remind = REMIND.match(s)
    if remind:
        # "remember to commit when you're done" is a reminder for now; only a habit
        # ("... before committing", "... every time") is kept as a memory.
        s, strong = remind.group(1), bool(HABIT.search(remind.group(1)))
    elif m and not re.match(r"^(?:do|did) you remember\b", s, re.I):
        # "remember, slices are just pointers anyway": a reason given in an argument about
        # the code at hand, not something to keep.
        s, strong = m.group(1), not _ARGUING.search(m.group(1))
    if lasting_scope(s):
        s, strong = SCOPE.sub(" ", s).strip(), True
    s = _event_last(_always_first(_never_as_not(s)))
    weak = MEMORY_WEAK.match(s)
    if weak:
        s = weak.group(1)
    s = strip_lead(s)
    return Framed(s, strong, bool(weak), sentence_mode(s))


# What keeps an event said first where it is (EVENT_FIRST): a second step or rule ("always run
# the tests and push"), a clause of its own ("… if you changed Python files", "… so CI stays
# green"), the thing at hand ("always run them"), or the rule being about the event itself
# ("before committing, never commit to main"; checked on the event's verb).
_NOT_ONE_RULE = _lazy(
    r"\b(?:and|or|then|but|if|so|because|when|whenever|unless|until|since|while|that|as long as)\b|"
    r"\b(?:it|this|that|them|these|those)\W*$|^(?:never mind|don't|do not)\s+(?:you|we|i|bother|"
    r"worry|forget|mind)\b",
    re.I,
)


# "run pytest -x before you commit, always": an imperative with its standing word said last.
_ALWAYS_LAST = _lazy(r"^([A-Za-z]+)(\s+[^,;:?]+?)\s*,\s*always\s*[.!]*$", re.I)


# "use pnpm, never npm", "always lint with ruff and never flake8": a choice, then the one tool
# refused.
_NEVER_TOOL = _lazy(
    r"^((?:always\s+)?(?:use|prefer|lint|format|test|type-?check|bundle|build|install|manage)\s+[^,;:?]+?)"
    r"(?:\s*,\s*|\s*,?\s+and\s+)never\s+(`[^`]+`|[\w@/+-]+(?:\.[\w@/+-]+)*)\s*[.!]*$",
    re.I,
)


def _never_as_not(s: str) -> str:
    """`s` with "X, never Y" (a choice and one refused name) said as the contrast "X, not Y",
    or `s` as it is: the stronger word must not lose the rule that "use pnpm, not npm" is."""
    found = _NEVER_TOOL.match(s.strip())
    if not found or found.group(2).lower() in IMPERATIVES:
        return s
    return f"{found.group(1)}, not {found.group(2)}."


def _always_first(s: str) -> str:
    """`s` with a closing ", always" after one imperative rule moved to its front ("run pytest
    -x before you commit, always" reads as "always run pytest -x before you commit"), or `s`
    as it is: an opening that is no imperative ("yes, always", "it fails, always") or a rule
    that is not one ("… and push, always", "… it, always") keeps it."""
    last = _ALWAYS_LAST.match(s.strip())
    if not last or last.group(1).lower() not in IMPERATIVES or _NOT_ONE_RULE.search(last.group(2)):
        return s
    return f"Always {last.group(1).lower()}{last.group(2)}."


def _event_last(s: str) -> str:
    """`s` with a workflow event said before a standing rule moved after it (EVENT_FIRST), or
    `s` as it is: "before committing, always run the tests" reads as "always run the tests
    before committing" does, through the same rules and filters, so both give one claim."""
    first = EVENT_FIRST.match(s.strip())
    if not first:
        return s
    event, rule = first.group(1), first.group(2)
    verb = re.sub(r"^(?:before|after|when)\s+(?:you\s+|we\s+)?", "", event, flags=re.I)[:4]
    if _NOT_ONE_RULE.search(rule) or verb.lower() in rule.lower():
        return s
    return f"{rule} {event[:1].lower()}{event[1:]}."


# "when you deploy, run the smoke tests" is a case and its rule when asked to be kept ("remember:
# when …", "from now on, when …"); said plainly it is as often this turn's ("when you're done,
# push"), so without the framing only CONDITIONAL's workflow events and always/never count.
_WHEN_YOU = _lazy(r"^when (?:you|we) [^,]{3,100},\s*(\S.*)", re.I)


def whole_sentence(f: Framed) -> list[ClauseClaim] | None:
    """Shapes read on the whole sentence before it is split into clauses; None: none applies."""
    s = f.text
    complaint = KEEP_DOING.match(s.rstrip(" ?"))
    if complaint and not vague(complaint.group(2)):
        # "why do you keep adding semicolons?": a question that states a rule.
        claim = f"Don't keep {complaint.group(1)} {complaint.group(2)}"
        return [(claim, "constraint", 0, "directive.complaint")]
    if f.mode == "question" and not f.strong:
        return []
    instead = INSTEAD_FIRST.match(s)
    if instead and not vague(instead.group(3)):
        verb, target = instead.group(2).capitalize(), instead.group(3).rstrip(" .!?")
        claim = f"{verb} {target} instead of {instead.group(1)}"
        return [(claim, "preference", 0, "preference.instead")]
    if f.mode == "request":
        s = REQUEST.sub("", s, count=1)
    cond = CONDITIONAL.match(s) or (_WHEN_YOU.match(s) if f.strong else None)
    if cond and not vague(cond.group(1)) and not OBSERVATION.match(cond.group(1)):
        return [(s, "constraint", 0, "directive.conditional")]
    purpose = PURPOSE.match(s)
    if purpose and f.mode == "statement" and not TASKY.search(purpose.group(1)):
        return [(s, "fact", 0, "fact.purpose")]
    whole = whole_sentence_hit(s.rstrip(" .!?"))
    if whole:
        # Shapes that run across clause breaks: "a service built with X and Y", "using X
        # instead of Y"; split first, they would lose their second half.
        return [(whole[0], whole[1], 0, whole[2])]
    return None
