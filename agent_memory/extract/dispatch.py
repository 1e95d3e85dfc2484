"""The clause-rule dispatcher and the explicit-memory framing (remember …, from now on …,
whenever X, Y): which rule family reads a clause, in which order."""

from __future__ import annotations

import re
from collections.abc import Callable

from agent_memory.extract.filters import _IMPERATIVES, _PRONOUNS, _content_words, _vague
from agent_memory.extract.rules.directives import (
    Rule,
    RuleHit,
    _r_always_never,
    _r_complaint,
    _r_keep,
    _r_negative,
)
from agent_memory.extract.rules.facts import _r_fact, _r_failure, _r_subject_modal
from agent_memory.extract.rules.preferences import _r_decision, _r_preference
from agent_memory.extract.rules.situation import _r_situation
from agent_memory.extract.text import _cap

# Explicit memory requests (strong) and durable-scope markers.
_MEMORY_STRONG = re.compile(
    r"^(?:(?:please|also|and)\s+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:remember|memori[sz]e|commit (?:this |that |it )?to memory|"
    r"(?:save|store|put|add|record|write|keep|note)(?: (?:this|that|it|the following))?(?: down)?\s+(?:in|to|into|as)\s+"
    r"(?:your |the |a |long[- ]term )?(?:memory|memories|preferences?|rules?|claude\.md|notes)|"
    r"make a (?:mental )?note|note (?:this|that) down|never forget)"
    r"(?:\s+(?:that|this|the following|this fact|this preference|forever|for (?:the )?future))*"
    r"\s*(?:[:,\u2013\u2014-]\s*|\s+)(\S.*)",
    re.I,
)
_REMIND = re.compile(
    r"^(?:(?:please|also|and)\s+)*(?:remember|don't forget|do not forget|make sure you remember)\s+to\s+(\S.*)",
    re.I,
)
_HABIT = re.compile(
    r"\b(?:before|after|whenever|every|each|always|never|any ?time|in (?:the )?future|from now on|"
    r"going forward)\b",
    re.I,
)
_MEMORY_WEAK = re.compile(
    r"^(?:note|nb|fyi|important|for (?:your )?information|for (?:the )?future reference|for reference|"
    r"(?:just\s+)?(?:so\s+)?you know|"
    r"keep in mind|bear in mind|just so you know|for context|heads up)(?:\s+(?:that|this))?"
    r"\s*(?:[:,\u2013\u2014-]\s*|\s+)(\S.*)",
    re.I,
)
_SCOPE = re.compile(
    r"(?:^|,?\s+)(?:from now on|from here on(?: out)?|going forward|moving forward|in (?:the )?future|henceforth|"
    r"for all future (?:\w+)|in all future (?:\w+)|until (?:told|i say|i tell you|we say|instructed) otherwise|"
    r"unless (?:told|i say|i tell you) otherwise|(?:for|in) every (?:session|project|repo|task)|"
    r"(?:for|in) all (?:sessions|projects|repos|tasks)|always and forever)"
    r"(?=[\s,:;.!?]|$)[\s,:;]*",
    re.I,
)
# "whenever I click save, nothing happens": a consequent that reports instead of instructing.
_OBSERVATION = re.compile(
    r"^(?:the|a|an|nothing|it|this|that|i|we|they|there|my|our|everything|something|some|all)\b",
    re.I,
)
_CONDITIONAL = re.compile(
    r"^(?:whenever|every time|each time|any ?time|before (?:you\s+|we\s+)?(?:commit|push|merg|deploy|releas|"
    r"open|creat)\w*|after (?:you\s+|we\s+)?(?:edit|chang|modif|commit|push|touch|updat|add)\w*|"
    r"when(?:ever)? (?:you|we) (?:\w+\s+){1,5}?(?:always|never)\b)\b[^,]{3,100},\s*(\S.*)",
    re.I,
)

# "to run the tests, use `make test`": how things are done here.
_PURPOSE = re.compile(
    r"^to\s+(?:run|build|start|test|deploy|lint|format|install|release|debug|serve|launch|publish|"
    r"regenerate|generate|update|check|typecheck|type-check|migrate|seed|reset|bump)\b[^,]{2,60},\s*"
    r"(?:use|run|call|do|type|execute|invoke|just run)\s+(\S.*)",
    re.I,
)


# The family each clause rule belongs to (`evidence[].rule` names `family.rule`): a false atom
# is traced to its rule, and the benchmark measures each family's precision.
_FAMILY = {
    "_r_always_never": "directive.always_never",
    "_r_negative": "directive.negative",
    "_r_keep": "directive.keep",
    "_r_complaint": "directive.complaint",
    "_r_failure": "failure.stated",
    "_r_preference": "preference.shape",
    "_r_decision": "decision.shape",
    "_r_fact": "fact.shape",
    "_r_subject_modal": "directive.subject_modal",
    "_r_situation": "situation",
}


def _tagged(rule: Callable[..., Rule | None], got: Rule | None) -> RuleHit | None:
    if got is None:
        return None
    name = _FAMILY.get(rule.__name__, rule.__name__)
    if len(got) > 2:  # a rule that names its own sub-rule: ("claim", "kind", "sub")
        name = f"{name.split('.', 1)[0]}.{got[2]}"
    return got[0], got[1], name


def _clause_rules(
    c: str, *, first_of_request: bool, origin: str, bug_report: bool = False
) -> RuleHit | None:
    for rule in (_r_situation, _r_always_never, _r_negative, _r_keep, _r_complaint):
        got = _tagged(rule, rule(c))
        if got:
            return got
    got = _tagged(_r_failure, _r_failure(c, bug_report=bug_report))
    if got:
        return got
    got = _tagged(_r_preference, _r_preference(c, first_of_request=first_of_request, origin=origin))
    if got:
        return got
    for rule in (_r_decision, _r_fact, _r_subject_modal):
        got = _tagged(rule, rule(c))
        if got:
            return got
    return None


def _imperative(c: str) -> Rule | None:
    """Fallback for text the user explicitly asked to keep ("remember to X", "from now on X")."""
    c = re.sub(r"^(?:to|that)\s+", "", c.strip(), flags=re.I)
    c = re.sub(
        r"^(?:you|claude)\s+(?:should|must|need to|have to|will|shall)\s+", "", c, flags=re.I
    )
    c = re.sub(r"^(?:you|claude)\s+", "", c, flags=re.I)
    if _vague(c) or _content_words(c) < 2 or c.split(" ", 1)[0].lower() in _PRONOUNS:
        return None
    first = c.split(" ", 1)[0].lower()
    if re.match(r"^(?:always|never|don't|do not|only|must)\b", c, re.I):
        return _cap(c), "constraint"
    if first in _IMPERATIVES or first.endswith("ly"):
        return _cap(c), "preference"
    return _cap(c), "fact"  # "staging and prod share one Redis": a statement, not an instruction
