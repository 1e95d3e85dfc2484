"""Preference and decision rules: prefer/I'd rather/I like, use X (instead of Y), only …,
let's/we'll/we decided …, we should + a policy verb."""

from __future__ import annotations

import re

from agent_memory.extract.canonical import same_family, strip_scope
from agent_memory.extract.filters import (
    _DET,
    _IMPERATIVES,
    _POLICY_VERBS,
    _PROBLEM_SUBJECT,
    _PRONOUNS,
    _QUANTIFIER,
    _TASKY,
    _content_words,
    _vague,
)
from agent_memory.extract.rules.directives import Rule, _r_keep
from agent_memory.extract.text import _cap, _words

_ONLY = re.compile(
    r"^only\s+(use|run|commit|push|deploy|edit|modify|touch|change|target|support|install|"
    r"import|write|test|merge|release)\s+(\S.*)",
    re.I,
)
_USE = re.compile(
    r"^(?:(?:please|just|always)\s+)*(use|using)\s+(?!case\b|of\b)(only\s+)?(\S.*)", re.I
)
_STICK = re.compile(
    r"^(?:please\s+)?(stick to|stick with|default to|favou?r|lean on|rely on|standardi[sz]e on|"
    r"go with|opt for)\s+(\S.*)",
    re.I,
)
_CONTRAST = re.compile(
    r"\b(?:instead of|rather than|in place of)\b|,\s*not\s+\S|\bnot\s+\S+\s*$|\bover\s+\S", re.I
)
_PREFER = re.compile(
    r"^(?:(?:i|we)(?:'d|\s+would)?\s+)?(?:(?:really|strongly|generally|much|usually|also|always)\s+)*"
    r"prefers?\s+(?:(it\s+|that\s+)?(?:if|when|that)\s+)?(\S.*)",
    re.I,
)
_RATHER = re.compile(
    r"^(?:i|we)(?:'d| would)\s+(?:much\s+)?rather\s+(?:you\s+|we\s+)?(not\s+)?(\S.*)", re.I
)
_LIKE = re.compile(
    r"^i\s+(?:really\s+|very much\s+|much\s+|actually\s+|definitely\s+|do\s+|also\s+)*"
    r"(like|love|enjoy|hate|dislike|can't stand|cannot stand)\s+(\S.*)",
    re.I,
)
_DETERMINED = re.compile(r"^(?:a|an|the|this|that|these|those|my|your|our|some|any)\b", re.I)
_CONTRAST_WORD = re.compile(r"\b(?:instead of|rather than|not|over)\s", re.I)
_SHORT_CONTRAST = re.compile(
    r"^([\w.@/\ue000\ue001-]+(?:\s+[\w.@/\ue000\ue001-]+){0,2})\s*,?\s+(?:instead of|rather than|not|over)\s+"
    r"([\w.@/\ue000\ue001-]+(?:\s+[\w.@/\ue000\ue001-]+){0,2})$",
    re.I,
)
_CONTRAST_VERBS = re.compile(
    r"^(?:please\s+)?(?:use|prefer|pick|choose|go with|stick (?:with|to)|switch to|rely on|install|"
    r"import|call|run|write (?:\w+ )?(?:in|with)|test with|build with|format with|lint with)\b",
    re.I,
)

# Complaints carry the rule they want kept: "you keep forgetting to run the linter".
_INSTEAD_FIRST = re.compile(
    r"^instead of\s+([^,]{2,60}),\s*(use|prefer|run|call|go with|rely on|write)\s+(\S.*)", re.I
)
_IMPORTANT = re.compile(
    r"^it(?:'s| is)\s+(?:really\s+|very\s+)?(?:important|essential|critical|crucial|vital|mandatory|"
    r"required|a must)\s+(?:that|to)\s+(\S.*)",
    re.I,
)
_INDENT = re.compile(
    r"^(?:use\s+)?(\d+[- ]spaces?|tabs|spaces)\b(?:\s+for\s+indent\w*)?(?:,?\s+not\s+\S+)?(?:\s+please)?$",
    re.I,
)
_POLICY_ALL = re.compile(
    r"^(?:please\s+)?(write|name|format|put|store|keep|prefix|suffix|document|type|log|wrap|sign|tag|"
    r"annotate|declare)\s+(?:all|every|each|any)\s+(?!the\b|these\b|those\b|my\b|your\b|of\b)(\S.*)",
    re.I,
)


# Words that name a thing of the task, not a tool: "use data from the last season" is a step.
_GENERIC_NOUNS = _words(
    """
data option options approach approaches way ways method methods function functions file files
code name names one ones version versions thing things stuff example examples value values
variable variables test tests page pages model models information info text number numbers
result results output input output list lists table tables column columns field fields row rows
image images color colors colour colours font fonts style styles layout button buttons link links
section sections part parts step steps logic idea ideas pattern patterns structure format
template templates message messages error errors case cases time dates date setting settings
config configuration default defaults free new old same other different existing current
correct right proper best simple simpler better more less latest previous first last whole
entire full real actual instead only
"""
)


def toolish(obj: str) -> bool:
    """The object of a bare "use X" names a tool or a technique (a code span, a known or
    capitalised name, a version, a compound), not a thing of the task ("use data from …")."""
    head = re.split(r"[\s,;]+", obj.strip(), maxsplit=1)[0].strip("().:;!?").lower()
    return bool(head) and head not in _GENERIC_NOUNS and head not in _PRONOUNS


def _r_preference(c: str, *, first_of_request: bool, origin: str) -> Rule | None:
    m = _INSTEAD_FIRST.match(c)
    if m and not _vague(m.group(3)):
        return f"{m.group(2).capitalize()} {m.group(3)} instead of {m.group(1)}", "preference"
    m = _IMPORTANT.match(c)
    if m and not _vague(m.group(1)):
        return f"Important: {m.group(1)}", "constraint"
    m = _INDENT.match(c)
    if m:
        return _cap(f"use {c}" if not c.lower().startswith("use ") else c), "preference"
    m = _POLICY_ALL.match(c)
    if m and not _vague(m.group(2)):
        return _cap(c), "constraint"
    m = _ONLY.match(c)
    if m and not _vague(m.group(2)):
        return f"Only {m.group(1)} {m.group(2)}", "constraint"
    lead = _CONTRAST_VERBS.match(c)
    if lead and _CONTRAST.search(c) and not _TASKY.search(c):
        obj = c[lead.end() :].strip()
        if re.search(r"\b(?:it|them|this|that)\b", lead.group(0), re.I) or re.match(
            r"^(?:it|them|this|that)\b", obj, re.I
        ):
            return None  # "write it in TypeScript, not JavaScript": about the thing at hand
        if _DETERMINED.match(obj) and re.search(
            r"\b(?:instead of|rather than|over|not)\s+(?:a|an|the|this|that)\b", obj, re.I
        ):
            return None  # "use a dict instead of a list here": a choice inside this task
        claim = re.sub(r"^using\b", "Use", c, flags=re.I)
        return _cap(claim), "preference"
    m = _STICK.match(c)
    if m and not _vague(m.group(2)) and not _TASKY.search(m.group(2)):
        return _cap(c), "preference"
    m = _USE.match(c)
    if m:
        obj = m.group(3)
        only = bool(m.group(2))
        if _vague(obj) or _TASKY.search(obj):
            return None
        if not toolish(obj) and origin != "rejection" and not only:
            return None
        plain = not re.match(rf"^{_DET}\b", obj, re.I)
        strong = only or bool(_QUANTIFIER.search(obj)) or origin == "rejection"
        if (plain and not first_of_request and _content_words(obj) <= 6) or strong:
            return ("Use only " if only else "Use ") + obj, "preference"
        return None
    m = _PREFER.match(c)
    if m and not _vague(m.group(2)):
        rest = m.group(2)
        if re.match(r"^not\b", rest, re.I):
            return f"Prefer {rest}", "preference"
        neg = re.match(
            r"^(?:you|we|claude)\s+(?:did not|didn't|do not|don't|would not|wouldn't|never)\s+(.*)",
            rest,
            re.I,
        )
        if neg:
            return f"Don't {neg.group(1)}", "preference"
        if m.group(1) or re.match(r"^(?:you|we)\b", rest, re.I):
            return f"Prefer that {rest}", "preference"
        return f"Prefer {rest}", "preference"
    m = _RATHER.match(c)
    if m and not _vague(m.group(2)):
        return (
            f"Prefer not to {m.group(2)}" if m.group(1) else f"Prefer to {m.group(2)}"
        ), "preference"
    m = _LIKE.match(c)
    if m:
        verb, obj = m.group(1).lower(), m.group(2)
        if _vague(obj) or re.match(
            r"^(?:how|what|when|where|the way|it when|that you|to|the (?:idea|approach|suggestion|"
            r"plan|concept|design|proposal|option|solution|version|change|result)s?)\b",
            obj,
            re.I,
        ):
            return None
        if verb in ("hate", "dislike", "can't stand", "cannot stand"):
            return f"User does not like {obj}", "preference"
        return f"User likes {obj}", "preference"
    contrast = _CONTRAST_WORD.search(c)
    core = strip_scope(c) if contrast else c
    m = _SHORT_CONTRAST.match(core) if contrast else None
    first = m.group(1).split()[0].lower() if m else ""
    loose = m and (
        origin == "rejection"
        or "," in core
        or re.search(r"\b(?:instead of|rather than)\b", core, re.I)
        or same_family(m.group(1), m.group(2))
    )
    if (
        m
        and loose
        and first not in _PRONOUNS | _IMPERATIVES | {"using", "is", "are", "be"}
        and not _DETERMINED.match(m.group(1))
        and not _PROBLEM_SUBJECT.search(c)
        and not re.search(
            r"\d|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:today|tomorrow|yesterday)\b",
            re.sub("\ue000\\d+\ue001", "`code`", c),  # a number is a value; a code span is not
            re.I,
        )
    ):
        c = core
        return f"Use {c}", "preference"
    return None


_DECISION_VERBS = (
    r"use|go with|go for|do|stick with|stick to|stay with|switch to|switch over to|move to|migrate to|"
    r"adopt|pick|choose|keep|make it|make them|make everything|target|standardi[sz]e on|rely on|avoid|"
    r"support|drop|prefer|rewrite (?:it |this |everything )?in|port (?:it |this )?to|"
    r"convert (?:it |this |everything )?to|base (?:it|this) on|build (?:it|this) (?:with|on)"
)
_LETS = re.compile(
    rf"^(?:let's|lets|let us)\s+(?:(?:also|just|now|then|definitely|actually|probably|"
    rf"rather|instead)\s+)*({_DECISION_VERBS})\s+(\S.*)",
    re.I,
)
_WILL = re.compile(
    r"^(?:we|i)(?:'ll| will| are going to|'re going to| am going to|'m going to|'d| would| want to|"
    r" wanna)\s+(?:(?:rather|prefer to|like to|love to|want to|just|also|probably|definitely)\s+)*"
    r"(use|go with|stick with|stick to|switch to|move to|migrate to|adopt|standardi[sz]e on|target|"
    r"rely on|prefer)\s+(\S.*)",
    re.I,
)
_HEDGE = re.compile(r"\b(?:probably|maybe|might|perhaps|likely|possibly)\b", re.I)
_DECIDED = re.compile(
    r"^(?:we|i)(?:'ve| have)?\s+(?:now\s+|finally\s+|already\s+)?(?:decided|agreed|settled|"
    r"chose|chosen|opted|went)\s+(to|on|that|for|with)\s+(\S.*)",
    re.I,
)
_DECISION_IS = re.compile(
    r"^(?:the\s+)?(?:decision|plan going forward|rule|convention|policy)\s*(?:is|:)\s*"
    r"(?:to\s+|that\s+)?(\S.*)",
    re.I,
)
_SHOULD = re.compile(
    r"^(?:(?:i think|i believe|maybe|perhaps|probably)\s+)?(we|you)\s+(?:really\s+|probably\s+|also\s+)*"
    r"(should|must|ought to|shall)\s+(?:really\s+|probably\s+|also\s+|just\s+)*"
    r"(?!not\b|never\b|always\b|be\b|try\b|look\b|check\b|see\b|figure\b|think\b|discuss\b|talk\b|"
    r"consider\b|start\b|first\b|now\b|wait\b|probably\b|focus\b|investigate\b|get\b|do\b|fix\b|add\b)"
    r"([a-z]+)\b(.*)",
    re.I,
)
_VERB_ALIASES = {
    "do": "use",
    "go with": "use",
    "go for": "use",
    "pick": "use",
    "choose": "use",
    "stick with": "stick with",
    "stay with": "stay with",
}


# "FastAPI + SQLite + React": a stack named as one list of tools counts as one choice.
_TOOL_LIST = re.compile(
    r"^[\w.@\ue000\ue001-]+(?:\s*(?:\+|&|/|,)\s*[\w.@\ue000\ue001-]+)+"
    r"(?:\s+(?:for|in|on)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?)?$",
    re.I,
)


def _tool_list(obj: str) -> bool:
    m = _TOOL_LIST.match(obj.strip())
    if not m or not re.search(r"[+,&]", obj):
        return False
    items = re.split(r"\s*(?:\+|&|/|,)\s*", obj.strip().split(" for ")[0].split(" in ")[0])
    # "1, 2 and 3", "A, B": options picked from a list, not tools
    return all(len(i) >= 2 and re.search(r"[A-Za-z\ue000]", i) for i in items)


# "1, 2 and 3", "option 1 and 3", "A and C", "#2": picks from a list the assistant offered.
_OPTION_PICK = re.compile(
    r"^(?:(?:options?|choices?|numbers?|items?|steps?)\s+)?(?:#?\d{1,2}|[a-z])"
    r"(?:\s*(?:,|and|&|\+|or|/)\s*(?:(?:options?|choices?|numbers?|items?|steps?)\s+)?(?:#?\d{1,2}|[a-z]))*"
    r"(?:\s+(?:first|then|too|both|only))?\s*[.!?]*$",
    re.I,
)


def _np_short(obj: str, limit: int = 4) -> bool:
    if _OPTION_PICK.match(obj.strip()):
        return False
    if _tool_list(obj):
        return not _vague(obj)
    return (
        not re.match(rf"^{_DET}\b", obj, re.I)
        and not _vague(obj)
        and _content_words(obj) <= limit
        and not re.search(r"\b(?:option|approach|plan)\s+\S+$", obj, re.I)
    )


def _r_decision(c: str) -> Rule | None:
    m = _LETS.match(c)
    if m:
        verb, obj = m.group(1).lower(), m.group(2)
        if verb in ("do", "go with", "go for", "pick", "choose"):
            return (f"Use {obj}", "decision") if _np_short(obj) else None
        if verb in ("make it", "make them", "make everything"):
            ok = _content_words(obj) <= 4 and not re.match(rf"^{_DET}\b", obj, re.I)
            return (f"{_cap(verb)} {obj}", "decision") if ok and not _vague(obj) else None
        if (
            verb == "use"
            and (re.match(rf"^{_DET}\b", obj, re.I) and not _QUANTIFIER.search(obj))
            or _vague(obj)
        ):
            return None
        if (
            verb in ("switch to", "move to", "migrate to", "switch over to")
            and not _np_short(obj, 6)
            and not _QUANTIFIER.search(obj)
        ):
            return None
        if verb == "keep":
            return _r_keep("keep " + obj)
        if verb == "avoid":
            return f"Avoid {obj}", "preference"
        return f"{_cap(verb)} {obj}", "decision"
    m = _WILL.match(c)
    if m and not _vague(m.group(2)) and not _TASKY.search(m.group(2)):
        verb, obj = m.group(1).lower(), m.group(2)
        if verb == "use" and re.match(rf"^{_DET}\b", obj, re.I) and not _QUANTIFIER.search(obj):
            return None
        if _HEDGE.search(c[: m.start(1)]):
            return None  # "I'll probably switch to X later": a plan of the moment, not a choice
        if re.match(r"^(?:we|i)\s+(?:want to|wanna)\b", c, re.I):
            return f"{_cap(verb)} {obj}", "preference", "want_to_use"
        return f"{_cap(verb)} {obj}", "decision", "will_use"
    m = _DECIDED.match(c)
    if m and not _vague(m.group(2)):
        how, obj = m.group(1).lower(), m.group(2)
        if how in ("on", "for", "with"):
            return (f"Use {obj}", "decision") if _np_short(obj, 6) else None
        if how == "that":
            return _cap(obj), "decision"
        first = obj.split(" ", 1)[0].lower()
        if first in _POLICY_VERBS or first in (
            "not",
            "never",
            "always",
            "stop",
            "go",
            "standardize",
        ):
            return _cap(obj), "decision"
        return None
    m = _DECISION_IS.match(c)
    if (
        m
        and not _vague(m.group(1))
        and _content_words(m.group(1)) >= 2
        and not m.group(1).endswith("'s")
    ):
        return _cap(m.group(1)), "decision"
    m = _SHOULD.match(c)
    if m:
        modal, verb, rest = m.group(2).lower(), m.group(3), m.group(4)
        if _vague(rest) or _TASKY.search(rest):
            return None
        determined = re.match(rf"^\s*(?:to\s+|with\s+|on\s+)?{_DET}\b", rest, re.I)
        if (
            determined
            and not _QUANTIFIER.search(rest)
            and verb.lower() in ("use", "migrate", "move", "switch")
        ):
            return None  # "you should use the existing fixtures": about this task
        if verb.lower() in _POLICY_VERBS or _QUANTIFIER.search(rest):
            kind = "constraint" if modal == "must" else "decision"
            return f"{_cap(verb)}{rest}", kind
    return None
