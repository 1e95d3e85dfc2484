"""A sentence's mode: a statement, a request for work, or a question (however it is asked:
a tag, a choice, a suggestion, a missing mark); and the statement said before a question in
the same sentence. Questions and requests hold no rule; this module says which is which."""

from __future__ import annotations

import re

from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

_QUESTION_START = _lazy(
    r"^(?:what|why|how|which|who|whom|whose|is|are|am|was|were|do|does|did|can|could|would|will|shall|"
    r"should|may|might|have|has|had|isn't|aren't|doesn't|don't|didn't|won't|wouldn't|couldn't|"
    r"shouldn't|any|anything else|i wonder|wonder if|where|when)\b",
    re.I,
)
_WH_ALWAYS = _lazy(
    r"^(?:what|why|how|which|who|whom|whose|i wonder|wonder if|any idea)\b", re.I
)
REQUEST = _lazy(
    r"^(?:(?:please|and|also|so)\s+)*(?:(?:can|could|would|will|won't)\s+(?:you|u)|(?:can|could|shall)\s+we|i(?:'d| would) like you to|"
    r"i want you to|i need you to|i'd love (?:it )?if you(?: could)?|i(?:'d| would) appreciate if you(?: could)?|"
    # ("try to use X rather than Y": an attempt at this task with a tool, not a choice made)
    r"you (?:can|could|may|might)|go ahead and|feel free to|try to(?!\s+(?:use|switch|go with)\b))\s+"
    r"(?:(?:please|kindly|also|maybe|just|now|then|quickly|first)\s+)*",
    re.I,
)


# Questions that do not start like one: a tag ("each listing is a variant, right?"), a choice
# ("should it be a field or a table?"), a suggestion ("can we avoid the cache?").
_TAG_QUESTION = _lazy(
    r"(?:\b(?:right|correct|no|yes|yeah|ok|okay|true|agreed|isn't it|aren't they|don't we|"
    r"doesn't it|won't it|am i right|or not)|\bor\b.*)\s*\?+\s*$",
    re.I,
)
# A suggestion to change tools ("can we switch redux for zustand?") is a decision in the
# making and goes on to the rules; any other "can we …?" asks.
_SUGGESTION = _lazy(
    r"^(?:(?:so|and|also|then|ok|okay)\s+)*(?:can|could|shall|should)\s+we\s+"
    r"(?!(?:change|switch|migrate|move|replace)\b)",
    re.I,
)


# "I think we should run it on every push?", "I keep getting X when Y – how do I stop it?": a
# view or a fact said first, with a question after it; not a question about the work at hand.
_STATED_THEN_ASKED = _lazy(
    r"^(?:i think|i believe|i guess|i feel like|i'd say|i thought|we should|we must|we need to)\b|"
    r"\s[\u2013\u2014-]\s|[;,]",
    re.I,
)


# "use X for the first part, will it be possible": a question asked without its mark
_ASKED_AFTER = _lazy(
    r",\s*(?:will|would|is|can|could|does|do)\s+(?:it|this|that|they)\s+(?:be\s+)?\w+", re.I
)


# A question asked straight after a statement of the user's own, with no comma between
# ("we have 3 netlify sites for this do I need to redo all 3?", "I don't have a Mac so how do I
# test it?"): where the question starts — an auxiliary before its subject, or a wh-word before
# one — after a joining "so"/"but" or a clause mark, or after nothing at all.
WH = r"(?:how|what|why|where|which|when)"
AUX = r"(?:do|does|did|should|shall|can|could|would|will|is|are|am)"
_INNER_QUESTION = _lazy(
    rf"(?<!\s)(?:\s*[,;]|\s+[-\u2013\u2014])?\s+(?:(?:so|but|and)\s+)?(?=(?:{WH}\s+)?"
    rf"{AUX}\s+(?:i|we|you|u|it|this|that|they|there)\b)",
    re.I,
)
# The statement said first: the user's own clause, a subject and then its verb ("I have …",
# "we're using …", "my laptop has …"); not a thought in doubt or in the making ("I wonder",
# "I think", "I'm not sure", "I want …": what the question goes on to ask), nor one said under a
# case ("if …, should I …?").
_OWN_LEAD = _lazy(
    r"^(?:i|i'm|i've|i am|we|we're|we've|we are|my\s+[\w.-]+|our\s+[\w.-]+)\s+\S+\s+\S", re.I
)
_LEAD_IN_DOUBT = _lazy(
    r"\b(?:if|unless|when|whether|wonder\w*|think|thought|guess|maybe|perhaps|probably|might|"
    r"not sure|unsure|know|idea|clue|want\w*|would like|'d like|need|wish|hope|tried|trying|"
    r"asked?|asking|tell|wondering|curious|confused|understand|mean)\b",
    re.I,
)


def statement_before_question(s: str) -> str | None:
    """The statement clause said before the question in a question sentence, or None."""
    if not s.rstrip().endswith("?") or not _OWN_LEAD.match(s) or _WH_ALWAYS.match(s):
        return None
    # The question starts at an inverted auxiliary, or at an aside it is about ("I have X
    # installed I know that Y changed?": what is asked is Y).
    starts = sorted(
        [m.start() for m in _INNER_QUESTION.finditer(s)]
        + [m.start() for m in INNER_AFTERTHOUGHT.finditer(s)]
    )
    for start in starts:
        lead = s[:start].strip()
        if len(lead.split()) < 3:
            continue
        if _LEAD_IN_DOUBT.search(lead) or "?" in lead or "(" in lead or '"' in lead:
            return None
        return lead
    return None


def sentence_mode(s: str) -> str:
    if re.match(r"^(?:would|do) you mind\b", s, re.I) or _ASKED_AFTER.search(s):
        return "question"
    if _TAG_QUESTION.search(s) or (_SUGGESTION.match(s) and s.rstrip().endswith("?")):
        return "question"
    if REQUEST.match(s) and not re.match(
        r"^(?:can|could|would|will) you (?:tell|explain|confirm)\b", s, re.I
    ):
        return "request"
    asks = s.rstrip().endswith("?")
    if _WH_ALWAYS.match(s) or (
        asks and (_QUESTION_START.match(s) or not _STATED_THEN_ASKED.search(s))
    ):
        # Any sentence that ends asking ("no file changes in the MR?", "all tests pass?") is a
        # question about the work at hand, whatever its first word.
        return "question"
    return "statement"


# "Idk where …", "… I know that X", "… i think because of that …": a new thought of the user's,
# ending the clause before it; what it says is a doubt or an aside, not read.
INNER_AFTERTHOUGHT = _lazy(
    r"(?<!\s)\s+(?=(?:idk|i dunno|i (?:don't|do not) know|i think|i guess|i believe|i know|i mean|"
    r"i hope|i(?:'m| am) not sure)\b)",
    re.I,
)
