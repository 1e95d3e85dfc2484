"""Directive rules: always/never, don't/avoid/no X/stop doing, keep …, and complaints that
state the rule they want kept."""

from __future__ import annotations

import re

from agent_memory.extract.filters import (
    _BLOCKED_OBJ_START,
    _IMPERATIVES,
    _LENGTHY,
    _NEG_STOP,
    _OUTPUT_NOUN,
    _POLICY_VERBS,
    _TRANSIENT_PREDICATE,
    _content_words,
    _vague,
)
from agent_memory.extract.text import _cap, _words

# --- the rules ------------------------------------------------------------------------------
# Each rule takes a clause (masked, lead words stripped) and returns (claim, kind) or None.

Rule = tuple[str, str] | tuple[str, str, str]  # (claim, kind[, sub-rule])
RuleHit = tuple[str, str, str]  # (claim, kind, "family.rule")

_ALWAYS_NEVER = re.compile(
    r"^((?:please\s+)?(?:make sure|be sure|ensure)(?:\s+that)?(?:\s+to)?\s+)?"
    r"(?:(you|we|i|claude|agents?)\s+)?((?:should|must|will|shall|need to|have to|ought to|'ll|"
    r"are to|want to|can)\s+)?(?:(?:please|also|just|really)\s+)*(always|never)\s+"
    r"(?!mind\b|again\b|ever\b|before\b|been\b|had\b|did\b|thought\b|knew\b|saw\b|seen\b|got\b|"
    r"really\b|worked\b|used\b|realized\b|noticed\b|heard\b|said\b|meant\b|wanted\b|tried\b|"
    r"have\b|has\b|get\b|gets\b|run into\b|hit\b|see\b|struggle\b|end up\b|seem\b|forget\b|"
    r"work\b|works\b|happens?\b|come\b|comes\b|say\b|know\b|want\b|wonder\b)(\S.*)",
    re.I,
)

_MAKE_SURE_ALL = re.compile(
    r"^(?:please\s+|let's\s+|let us\s+)?(?:make sure|ensure|be sure)(?:\s+that)?\s+"
    r"((?:every|all|each|no)\s+\S.*)",
    re.I,
)


_ED_VERBS = _words("embed feed seed need proceed exceed succeed shred wed bleed breed speed heed")
_PARTICIPLES = _words(
    """
written overwritten rewritten taken given broken hidden chosen forgotten driven spoken stolen
proven shown known seen done gone made kept left sent built found held told thought brought
bought caught taught fought sold paid meant lost won spent begun drawn grown thrown blown
"""
)


def _r_always_never(c: str) -> Rule | None:
    m = _MAKE_SURE_ALL.match(c)
    if m and not _TRANSIENT_PREDICATE.search(c) and not _vague(m.group(1)):
        return f"Make sure {m.group(1)}", "constraint"
    m = _ALWAYS_NEVER.match(c)
    if not m or _vague(m.group(5)) or _content_words(m.group(5)) < 1:
        return None
    if re.match(
        r"^(?:the|a|an|same|this|that|in|on|at|to|for|with|from|by|of|as|via)\b", m.group(5), re.I
    ):
        return None  # "always the same error", "never in the work tree": not an instruction
    head = m.group(5).split(" ", 1)[0].lower().strip("*_,.;:()")
    if (re.match(r"^[\w-]+ed$", head) and head not in _ED_VERBS) or head in _PARTICIPLES:
        return None  # "never guessed", "never promoted on evidence alone": a description
    verbs = _IMPERATIVES | _POLICY_VERBS | _WE_DONT_VERBS
    if " " not in m.group(5).strip() and head not in verbs and head.rsplit("-", 1)[-1] not in verbs:
        return None  # "never automatic": an adjective, not an instruction
    subject = (m.group(2) or "").lower()
    if subject == "you" and not (m.group(1) or m.group(3)):
        return None  # "you always add too many comments": a complaint whose rule is unstated
    kind = "preference" if subject == "i" else "constraint"
    return f"{m.group(4).capitalize()} {m.group(5)}", kind


_DONT = re.compile(
    r"^(?:(?:you|we|claude)\s+(?:should|must|shall|will|need to)\s+not|do\s+not|don't|let's\s+not|"
    r"let us not|(?:please\s+)?refrain from)\s+(?:ever\s+|please\s+)?(\w[\w'-]*)\b(.*)",
    re.I,
)
_HOLD_VERBS = frozenset({"implement", "make", "write", "apply", "start", "change", "edit", "touch"})
_HOLD_OBJECT = re.compile(
    r"^\s+(?:any\s+|the\s+)?(?:changes?|edits?|code|anything|implementation|coding)"
    r"(?:\s+(?:yet|now|first|for now|right now|until\b.*|before\b.*))?\s*[.!?]*$",
    re.I,
)
_WE_DONT = re.compile(r"^we\s+(?:don't|do not|never)\s+(\w+)\b(.*)", re.I)
_I_DONT_WANT = re.compile(
    r"^i\s+(?:really\s+|actually\s+|definitely\s+)*(?:don't|do not)\s+(want|like|need|use)\s+(?:(you\s+)?to\s+)?(.*)",
    re.I,
)
_RUN_ON = re.compile(r"\s+(?=(?:i|we)(?:\s+am|'m|\s+are|'re)\s+\w+ing\b)", re.I)
_AVOID = re.compile(r"^(?:(?:try to|please|always)\s+)?avoid\s+(\S.*)", re.I)
_STOP_ING = re.compile(r"^(?:stop|quit)\s+(\w+ing)\b(.*)", re.I)
_NO_X = re.compile(
    r"^no\s+(?!problem|worries|worry|luck|idea|way|need|thanks|rush|clue|matter|offense|doubt|"
    r"longer|more|one|wonder|kidding|big deal|change|changes|issue|issues|errors?|response)"
    r"([a-z\ue000][\w.\ue000\ue001-]*(?:\s+[\w.\ue000\ue001-]+){0,3}?)"
    r"(?:\s+((?:please|in|for|on|inside|anywhere|whatsoever|at all)\b.*))?$",
    re.I,
)
_GERUNDS = {
    "adding": "add",
    "using": "use",
    "introducing": "introduce",
    "changing": "change",
    "touching": "touch",
    "breaking": "break",
    "modifying": "modify",
    "installing": "install",
    "pulling": "pull",
    "relying": "rely",
    "calling": "call",
    "editing": "edit",
    "importing": "import",
    "bringing": "bring",
    "creating": "create",
    "requiring": "require",
    "removing": "remove",
    "deleting": "delete",
    "committing": "commit",
    "pushing": "push",
    "mocking": "mock",
}
_WITHOUT = re.compile(r"\bwithout\s+(\w+ing)\s+(\S.*)", re.I)
_TASK_BOUND_WITHOUT = re.compile(r"\b(?:it|this|that|them)\b", re.I)
_EXISTING_OBJ = re.compile(
    r"^(?:the|this|that|these|those|my|our)\s+(?:existing|current|original|old|previous)\b", re.I
)
_WE_DONT_VERBS = _words(
    """
use allow accept commit push merge deploy ship write add rely depend mock put store touch
modify edit include import run support target vendor check keep
"""
)


def _r_negative(c: str) -> Rule | None:
    m = _DONT.match(c)
    if m:
        verb, rest = m.group(1), m.group(2)
        if verb.lower() in _NEG_STOP or _vague(rest):
            return None
        if _content_words(verb + rest) < 2 and verb.lower() in ("do", "go", "make"):
            return None
        if verb.lower() in _HOLD_VERBS and _HOLD_OBJECT.match(rest):
            return None  # "do not implement any changes first": wait for me, this turn
        return f"Don't {verb}{rest}", "constraint"
    m = _WE_DONT.match(c)
    if m and m.group(1).lower() in _WE_DONT_VERBS and not _vague(m.group(2)):
        return _cap(c), "constraint"
    m = _I_DONT_WANT.match(c)
    if m:
        verb, to_you, rest = m.group(1).lower(), m.group(2), m.group(3)
        # A run-on with no punctuation: 'I don't want a "quick fix" I am trying to build ...'
        rest = _RUN_ON.split(rest, maxsplit=1)[0]
        if _vague(rest) or re.match(
            r"^(?:to\s+)?(?:be|know|see|think|wait|lose|break)\b", rest, re.I
        ):
            return None
        if verb == "want" and (to_you or re.match(r"^to\s", c[m.start(3) - 3 : m.start(3)])):
            return f"Don't {rest}", "preference"
        if verb == "want" and not re.search(r"\b(?:i|me|my)\b", rest, re.I):
            # "... unless I hover over them": how this UI should behave, a spec of the task
            return f"User does not want {rest}", "preference"
        if verb == "want":
            return None
        if verb == "like" and not re.match(r"^(?:how|what|when|the way|it when)\b", rest, re.I):
            return f"User does not like {rest}", "preference"
        if verb == "use":
            return f"User does not use {rest}", "fact"
        return None
    m = _AVOID.match(c)
    if m and not _vague(m.group(1)):
        return f"Avoid {m.group(1)}", "preference"
    m = _STOP_ING.match(c)
    if (
        m
        and not _vague(m.group(2) or "x")
        and m.group(1).lower() not in ("nothing", "thing", "everything")
    ):
        return f"Don't keep {m.group(1)}{m.group(2)}", "constraint"
    m = _WITHOUT.search(c)
    if m and _TASK_BOUND_WITHOUT.search(c[: m.start()]) and _EXISTING_OBJ.match(m.group(2)):
        m = None  # "incorporate it without deleting the existing code": how to do this task
    if m and m.group(1).lower() in _GERUNDS and not _vague(m.group(2)):
        return f"Do not {_GERUNDS[m.group(1).lower()]} {m.group(2)}", "constraint"
    m = _NO_X.match(c)
    codeish = m and re.search(r"\ue000|\w\.\w|[A-Z]", m.group(1))
    if m and not _vague(m.group(1)) and (m.group(1).endswith("s") or codeish):
        tail = f" {m.group(2)}" if m.group(2) else ""
        return f"Do not add {m.group(1)}{tail}", "constraint"
    return None


_KEEP = re.compile(
    r"^(?:(?:while|and|but|by|just|please|also|always)\s+)*"
    r"(?:(?:we|you|i)\s+(?:should|must|need to|want to|have to|'d like to|would like to)\s+|"
    r"i(?:'d| would) (?:like|love|prefer) to\s+|i want to\s+|try to\s+|make sure to\s+|let's\s+|let us\s+)?"
    r"keep(?:ing)?\s+(it|things|everything|them|(?:(?:the|all|our|every|each|all the)\s+)?"
    r"(?:[\w-]+\s+){0,2}?(?:code|codebase|apis?|app|ui|design|implementation|solution|changes|diffs?|"
    r"dependencies|deps|footprint|interfaces?|style|tests?|files?|bundle|scope|builds?|project|repo|"
    r"setup|config|configuration|architecture|structure|docs|documentation|functions?|methods?|"
    r"components?|modules?|classes|commits?|prs?|pull requests|imports|lines|names|schemas?|"
    r"migrations|logs|output|layout|ci|pipelines?|history|branch(?:es)?|readme|changelog|endpoints?|"
    r"responses?|messages|comments|types|packages?|images?|containers?|scripts?|secrets|keys|"
    r"credentials|tokens|env|environment|queries|database|db|workers|threads|jobs|retries|timeouts?|"
    r"concurrency|parallelism|replicas|versions?|strings|text|copy|assets|styles|constants|config files|"
    r"testing|logging|styling|naming|error handling|tooling|setup)|"
    r"(?:all|every|each|any)\s+[\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,2}?)\s+(\S.*)",
    re.I,
)


def _r_keep(c: str) -> Rule | None:
    m = _KEEP.match(c)
    if not m:
        return None
    obj, rest = m.group(1), m.group(2)
    if _BLOCKED_OBJ_START.match(rest) or _vague(rest):
        return None
    output_like = re.match(r"^(?:it|them|things|everything)$", obj, re.I) or _OUTPUT_NOUN.search(
        obj
    )
    if output_like and _LENGTHY.search(rest):
        return None  # "keep it short", "keep the answer under 200 words": about this reply
    if re.match(r"^the same\s*$", rest, re.I):
        return None
    return f"Keep {obj} {rest}", "constraint"


_KEEP_FORGETTING = re.compile(
    r"^(?:claude\s+)?you\s+(?:keep|always|constantly)\s+(?:forgetting|forget)\s+(?:to\s+)?(\S.*)",
    re.I,
)
_FORGOT_AGAIN = re.compile(r"^(?:claude\s+)?you\s+forgot\s+to\s+(\S.*?)\s+again$", re.I)
_KEEP_DOING = re.compile(r"^(?:why do you|you)\s+(?:keep|always)\s+(\w+ing)\s+(\S.*)", re.I)


def _r_complaint(c: str) -> Rule | None:
    m = _KEEP_FORGETTING.match(c) or _FORGOT_AGAIN.match(c)
    if m and not _vague(m.group(1)):
        return f"Always {m.group(1)}", "constraint"
    m = _KEEP_DOING.match(c)
    if m and not _vague(m.group(2)):
        return f"Don't keep {m.group(1)} {m.group(2)}", "constraint"
    return None
