"""Claim finishing: a clause's claim tidied, refused when it is of a shape no memory keeps
(too thin, of this moment, cut mid-phrase, about the code being edited …), put in its canonical
spelling as a `Candidate`; and adjacent claims of one sentence joined into one memory line.
The last step every claim goes through, whichever rule made it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent_memory.extract.canonical import canonical, refusal_as_contrast
from agent_memory.extract.filters import (
    COMPLEMENT_VERBS,
    DEICTIC_NP,
    DEICTIC_REF,
    HYPOTHETICAL,
    QUANTIFIER,
    TRANSIENT,
    content_words,
)
from agent_memory.extract.text import cap, shorten, tidy, unmask
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())


@dataclass(frozen=True)
class Candidate:
    claim: str
    kind: str
    confidence: str = "stated"
    rule: str = ""  # "family.rule" that produced it (local evidence only, never committed)


def _too_thin(claim: str, kind: str, rule: str) -> bool:
    """Too few words to be a rule or fact of its own."""
    return not claim or content_words(claim) < 2 or len(claim) < 6


def _of_this_moment(claim: str, kind: str, rule: str) -> bool:
    """Transient, deictic or hypothetical: "if it were under src/ instead …" is a musing."""
    return bool(
        TRANSIENT.search(claim)
        or DEICTIC_REF.search(claim)
        or DEICTIC_NP.search(claim)
        or HYPOTHETICAL.search(claim)
    )


def _ends_on_a_pronoun(claim: str, kind: str, rule: str) -> bool:
    """"use subagents to parallelize this": bound to the conversation."""
    return bool(
        re.search(r"\b(?:this|that|these|those|it|them)(?:\s+(?:either|too|again|anymore))?$", claim, re.I)
    )


def _named_elsewhere(claim: str, kind: str, rule: str) -> bool:
    """Cut mid-phrase ("use X, not the"), or on a thing named in another turn: "always use that
    pattern", "always follow rules, cont", "use that base modal to …", "never touch that on the
    frontend"."""
    return bool(
        _DANGLING.search(claim)
        or _THAT_THING.search(claim)
        or _RULES_UNNAMED.match(claim)
        or _THAT_OBJECT.match(claim)
        or PRONOUN_OBJECT.match(claim)
    )


def _choice_of_the_thing_at_hand(claim: str, kind: str, rule: str) -> bool:
    """"prefer to use the existing helper", "never use the old endpoint for X"."""
    return (kind in _CHOICE_KINDS or rule == "fact.we_verb") and bool(_AT_HAND_NP.search(claim))


def _unnamed_it(claim: str, kind: str, rule: str) -> bool:
    """"always run it twice", "always test it before pushing": "it" unnamed."""
    held = _RULE_ON_IT.match(claim)
    return bool(held and not QUANTIFIER.search(held.group(1)))


def _of_the_code_being_edited(claim: str, kind: str, rule: str) -> bool:
    """"localCredFile should not be required", "`onSubmit` must return X", "let's use
    createdAt": the state of the code being edited, a name in it, not a tool."""
    uncapped = claim[:1].lower() + claim[1:] if claim[1:2].islower() else claim
    return bool(
        CODE_IDENTIFIER_SUBJECT.match(uncapped)
        or re.match(r"^\ue000\d+\ue001\s+(?:must|should|has to|needs to)\b", claim)
        or CODE_SYMBOL_CHOICE.match(claim)
    )


def _step_done_first(claim: str, kind: str, rule: str) -> bool:
    """"use git stash to save your changes first": a step of this task; said as a rule or to
    last ("from now on write the tests first"), the order is the rule."""
    return bool(
        re.search(r"(?<![\w-])first$", claim, re.I)
        and not re.match(r"^(?:always|never|don't|do not)\b", claim, re.I)
        and rule != "memory.imperative"
    )


def _led_by_a_link(claim: str, kind: str, rule: str) -> bool:
    """"https://… I will update it from here": a link said first is the thing at hand; what
    the user says of it is about that link, which no later session can read from the claim."""
    return bool(re.match(r"^(?:https?://|www\.)\S+", claim, re.I))


# A tidied claim of any of these shapes is no memory to keep.
_NOT_TO_KEEP = (
    _too_thin,
    _of_this_moment,
    _ends_on_a_pronoun,
    _named_elsewhere,
    _choice_of_the_thing_at_hand,
    _unnamed_it,
    _of_the_code_being_edited,
    _step_done_first,
)


def finish(claim: str, kind: str, spans: list[str], rule: str = "") -> Candidate | None:
    claim = tidy(claim)
    if any(shape(claim, kind, rule) for shape in _NOT_TO_KEEP):
        return None
    # One rule, one spelling, one id: restatements must converge to recur.
    before = claim
    claim, kind = canonical(claim, kind, spans)
    if _ENDS_ON_ITS_VERB.search(claim) and not _ENDS_ON_ITS_VERB.search(before):
        return None  # the tidying took the last word: "User uses" said nothing that is used
    claim = unmask(claim, spans)
    if _led_by_a_link(claim, kind, rule):
        return None  # (a link is masked as a span until now)
    claim = shorten(cap(claim))
    return Candidate(claim, kind, "stated", rule)


# A claim cut mid-phrase ends on a word that needs a continuation.
_DANGLING = _lazy(
    # ("unless asked for": the preposition closes its passive verb, nothing was cut)
    r"\b(?:the|a|an|of|to|with|(?<!asked )(?<!requested )for|in|on|at|from|by|and|or|but|than|as|into|so|i|we|my|"
    r"our|your|would|should|could|can|will|when|if|because|which|who|where)\s*[.!?,;:]*$|"
    r"\b(?:until|unless|before|after|when|while|if|once)\s+(?:you|i|we|it|they)\s*[.!?,;:]*$|"
    # "we're using claude code's": a possessive whose noun was cut off
    r"\w['\u2019]s\s*[.!?,;:]*$|"
    # "do not modify any existing", "never touch the current": a determiner and an adjective
    # with no noun after them, what the user means is the thing at hand
    r"\b(?:any|all|every|each|the|some|no)\s+(?:existing|exist|current|new|old|other|original|"
    r"previous|remaining|following|related|unrelated|relevant|extra|additional)\s*[.!?,;:]*$",
    re.I,
)
# A claim that ends on the verb or preposition that needed its object.
_ENDS_ON_ITS_VERB = _lazy(
    r"\b(?:use|uses|using|prefer|prefers|with|via|over|than|of|not)\s*[.!?,;:]*$", re.I
)
# "that pattern", "that way": a thing named in an earlier turn ("that" as a determiner, before a
# noun that ends the clause or a short phrase).
_THAT_THING = _lazy(
    r"\bthat\s+(?:pattern|approach|way|style|format|convention|structure|logic|setup|method|"
    r"version|one|solution|idea|layout|design|naming|syntax|rule|flow|trick|fix|workflow|pipeline|"
    r"config|configuration|option|setting|settings)\b",
    re.I,
)


_RULES_UNNAMED = _lazy(
    r"^(?:always\s+)?(?:follow|obey|respect|stick to|keep to)\s+(?:the\s+|my\s+|our\s+|all\s+|your\s+)?"
    r"(?:rules|instructions|guidelines|conventions)\W*(?:cont\w*|please)?\W*$",
    re.I,
)
# A choice whose object is "that <noun>": a determiner pointing at what was named before.
_THAT_OBJECT = _lazy(
    r"^(?:we(?:'re| are)?\s+)?(?:use|using|prefer|keep|stick (?:to|with)|go with|switch to)\s+"
    r"that\s+"
    r"(?!is\b|was\b|are\b|were\b|way\b|when\b|if\b|for\b|as\b)[a-z]",
    re.I,
)


# A directive whose object is only a pronoun and whose rest says only where or how ("don't
# touch that in the backend", "never run it as root"): what "that" is was said in another
# turn. A complement that says what the thing must be stays ("keep it cross-platform"), and
# so does a quantified scope, which is the rule itself ("run it on every push").
PRONOUN_OBJECT = _lazy(
    r"^(?:(?:never|always|don't|do not|please|just|only)\s+)*(?!be\b|is\b|are\b)[a-z]+\s+"
    r"(?:this|that|these|those|it|them)\s+(?:in|on|at|to|into|onto|from|with|as|for|under|inside|"
    r"via|through|again|anymore|here|there)\b(?!\s+(?:all|every|each|any)\b)",
    re.I,
)


# "the existing helper", "the old endpoint", "the current API": a piece of the code at hand,
# which a rule, a choice or a preference about it ("we're using the old API in the settings
# page") leaves with the task ("the current project path is …" is a fact and "X fails because of
# the old sass version" a failure: read on).
_CHOICE_KINDS = frozenset({"preference", "decision", "constraint"})
_AT_HAND_NP = _lazy(
    r"\b(?:the|this|that|these|those)\s+(?:existing|old|current|previous|original)\s+[a-z]", re.I
)
# An always/never rule on "it" that no earlier clause named (a named one was put in its place,
# see sentence._clause_claim). A complement says what the thing must be ("always keep it short", "never
# make it depend on X"); a quantified scope is the rule itself ("run it on every push").
_RULE_ON_IT = _lazy(
    rf"^(?:always|never)\s+(?!(?:{'|'.join(sorted(COMPLEMENT_VERBS))})\b)[a-z]+\s+(?:it|them)\b(.*)$",
    re.I,
)


# A choice between code symbols (camelCase: a lower-case word then a capitalised one, so not
# iPhone or macOS): "use createdAt", "change outOfStock to inStock" edit the code at hand.
_CAMEL = r"[a-z]{2,}[A-Z]\w*"
CODE_SYMBOL_CHOICE = _lazy(
    rf"^(?i:use|switch to|prefer|stick with|keep|rename to|user uses)\s+{_CAMEL}"
    rf"(?:,?\s+(?i:not)\s+{_CAMEL})?\s*$"
)


# A statement whose subject is a bare identifier of the code (camelCase, snake_case or
# SCREAMING_CASE, not in backticks) says how that code is or should be, which the task changes.
CODE_IDENTIFIER_SUBJECT = _lazy(r"^(?:[a-z]+[A-Z]\w*|[A-Za-z]+_[A-Za-z_]+)\b(?!\s*,?\s*not\b)")


_KIND_RANK = {"constraint": 4, "preference": 3, "decision": 2, "failure": 1, "fact": 0}
_LOWER_OK = _lazy(
    r"^(?:don't|do|always|never|only|use|keep|prefer|avoid|make|migrate|switch|move|stick|support|"
    r"drop|run|write|user|we|our|the|this|tests?|no|not)\b"
)


def join_claims(parts: list[Candidate]) -> Candidate:
    """Adjacent claims of one sentence read as one memory line ("X is Y, so never Z")."""
    text = parts[0].claim
    for part in parts[1:]:
        nxt = part.claim
        if _LOWER_OK.match(nxt.lower()) and nxt[:1].isupper() and not nxt[1:2].isupper():
            nxt = nxt[:1].lower() + nxt[1:]
        text = f"{text}; {nxt}"
    kind = max((p.kind for p in parts), key=lambda k: _KIND_RANK.get(k, 0))
    swapped = refusal_as_contrast(text)  # "never use npm; use pnpm" reads as the contrast it is
    if swapped:  # (a choice made for this project stays a decision, as canonical keeps it)
        kind = "decision" if kind == "decision" else "preference"
        return Candidate(swapped, kind, parts[0].confidence, parts[0].rule)
    return Candidate(text, kind, parts[0].confidence, parts[0].rule)
