"""One user statement → candidate claims: sentences, clauses, memory framing, adjacent claims
joined, rejection reasons read against the refused command, every claim canonicalised."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from agent_memory.extract import standing
from agent_memory.extract.canonical import canonical, refusal_as_contrast, third_person
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
    TASK_AIM,
    bare_np,
    clause_rules,
    imperative,
    lasting_scope,
    place_only,
)
from agent_memory.extract.filters import (
    COMPLEMENT_VERBS,
    DEICTIC_NP,
    DEICTIC_REF,
    HYPOTHETICAL,
    MEMORY_SHORTCUT,
    PRONOUNS,
    QUANTIFIER,
    TASKY,
    TIME_SUBJECT,
    TRANSIENT,
    content_words,
    made_standing,
    vague,
)
from agent_memory.extract.paste import read_paste
from agent_memory.extract.rules.directives import KEEP_DOING, Rule
from agent_memory.extract.rules.languages import language_claims, non_english
from agent_memory.extract.rules.preferences import INSTEAD_FIRST
from agent_memory.extract.rules.registry import whole_sentence_hit
from agent_memory.extract.text import (
    FENCE,
    MAX_CLAIM,
    MAX_TEXT,
    PROHIBITION,
    QUOTES,
    cap,
    clauses,
    framing,
    mask,
    sentences,
    shorten,
    strip_lead,
    tidy,
    unmask,
    words,
)
from agent_memory.model.atom import normalize
from agent_memory.transcripts.failures import FAMILIES, KNOWN_TOOLS, command_program


@dataclass(frozen=True)
class Candidate:
    claim: str
    kind: str
    confidence: str = "stated"
    rule: str = ""  # "family.rule" that produced it (local evidence only, never committed)


# --- one statement --------------------------------------------------------------------------

_QUESTION_START = re.compile(
    r"^(?:what|why|how|which|who|whom|whose|is|are|am|was|were|do|does|did|can|could|would|will|shall|"
    r"should|may|might|have|has|had|isn't|aren't|doesn't|don't|didn't|won't|wouldn't|couldn't|"
    r"shouldn't|any|anything else|i wonder|wonder if|where|when)\b",
    re.I,
)
_WH_ALWAYS = re.compile(
    r"^(?:what|why|how|which|who|whom|whose|i wonder|wonder if|any idea)\b", re.I
)
REQUEST = re.compile(
    r"^(?:(?:please|and|also|so)\s+)*(?:(?:can|could|would|will|won't)\s+(?:you|u)|(?:can|could|shall)\s+we|i(?:'d| would) like you to|"
    r"i want you to|i need you to|i'd love (?:it )?if you(?: could)?|i(?:'d| would) appreciate if you(?: could)?|"
    # ("try to use X rather than Y": an attempt at this task with a tool, not a choice made)
    r"you (?:can|could|may|might)|go ahead and|feel free to|try to(?!\s+(?:use|switch|go with)\b))\s+"
    r"(?:(?:please|kindly|also|maybe|just|now|then|quickly|first)\s+)*",
    re.I,
)


# Questions that do not start like one: a tag ("each listing is a variant, right?"), a choice
# ("should it be a field or a table?"), a suggestion ("can we avoid the cache?").
_TAG_QUESTION = re.compile(
    r"(?:\b(?:right|correct|no|yes|yeah|ok|okay|true|agreed|isn't it|aren't they|don't we|"
    r"doesn't it|won't it|am i right|or not)|\bor\b.*)\s*\?+\s*$",
    re.I,
)
# A suggestion to change tools ("can we switch redux for zustand?") is a decision in the
# making and goes on to the rules; any other "can we …?" asks.
_SUGGESTION = re.compile(
    r"^(?:(?:so|and|also|then|ok|okay)\s+)*(?:can|could|shall|should)\s+we\s+"
    r"(?!(?:change|switch|migrate|move|replace)\b)",
    re.I,
)


# "I think we should run it on every push?", "I keep getting X when Y – how do I stop it?": a
# view or a fact said first, with a question after it; not a question about the work at hand.
_STATED_THEN_ASKED = re.compile(
    r"^(?:i think|i believe|i guess|i feel like|i'd say|i thought|we should|we must|we need to)\b|"
    r"\s[\u2013\u2014-]\s|[;,]",
    re.I,
)


# "use X for the first part, will it be possible": a question asked without its mark
_ASKED_AFTER = re.compile(
    r",\s*(?:will|would|is|can|could|does|do)\s+(?:it|this|that|they)\s+(?:be\s+)?\w+", re.I
)


# A question asked straight after a statement of the user's own, with no comma between
# ("we have 3 netlify sites for this do I need to redo all 3?", "I don't have a Mac so how do I
# test it?"): where the question starts — an auxiliary before its subject, or a wh-word before
# one — after a joining "so"/"but" or a clause mark, or after nothing at all.
_WH = r"(?:how|what|why|where|which|when)"
_AUX = r"(?:do|does|did|should|shall|can|could|would|will|is|are|am)"
_INNER_QUESTION = re.compile(
    rf"(?<!\s)(?:\s*[,;]|\s+[-\u2013\u2014])?\s+(?:(?:so|but|and)\s+)?(?=(?:{_WH}\s+)?"
    rf"{_AUX}\s+(?:i|we|you|u|it|this|that|they|there)\b)",
    re.I,
)
# The statement said first: the user's own clause, a subject and then its verb ("I have …",
# "we're using …", "my laptop has …"); not a thought in doubt or in the making ("I wonder",
# "I think", "I'm not sure", "I want …": what the question goes on to ask), nor one said under a
# case ("if …, should I …?").
_OWN_LEAD = re.compile(
    r"^(?:i|i'm|i've|i am|we|we're|we've|we are|my\s+[\w.-]+|our\s+[\w.-]+)\s+\S+\s+\S", re.I
)
_LEAD_IN_DOUBT = re.compile(
    r"\b(?:if|unless|when|whether|wonder\w*|think|thought|guess|maybe|perhaps|probably|might|"
    r"not sure|unsure|know|idea|clue|want\w*|would like|'d like|need|wish|hope|tried|trying|"
    r"asked?|asking|tell|wondering|curious|confused|understand|mean)\b",
    re.I,
)


def _statement_before_question(s: str) -> str | None:
    """The statement clause said before the question in a question sentence, or None."""
    if not s.rstrip().endswith("?") or not _OWN_LEAD.match(s) or _WH_ALWAYS.match(s):
        return None
    # The question starts at an inverted auxiliary, or at an aside it is about ("I have X
    # installed I know that Y changed?": what is asked is Y).
    starts = sorted(
        [m.start() for m in _INNER_QUESTION.finditer(s)]
        + [m.start() for m in _INNER_AFTERTHOUGHT.finditer(s)]
    )
    for start in starts:
        lead = s[:start].strip()
        if len(lead.split()) < 3:
            continue
        if _LEAD_IN_DOUBT.search(lead) or "?" in lead or "(" in lead or '"' in lead:
            return None
        return lead
    return None


def _mode(s: str) -> str:
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


LEADING_PURPOSE = re.compile(
    r"(?:for|in)\s+(?!this\b|these\b|that\b|it\b|now\b|example\b|instance\b)"
    r"[\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,2}",
    re.I,
)
NEVER_EVER = re.compile(r"\bnever\s+ever\b", re.I)  # emphasis, not a different rule
_RELATIVE_DAY = re.compile(
    r"\b(?:today|tomorrow|tonight|yesterday|(?:next|this|last) (?:week|month|weekend))\b", re.I
)
_WEEKDAY = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:today|tomorrow|tonight|next week)\b", re.I
)


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


def _finish(claim: str, kind: str, spans: list[str], rule: str = "") -> Candidate | None:
    claim = tidy(claim)
    if any(shape(claim, kind, rule) for shape in _NOT_TO_KEEP):
        return None
    # One rule, one spelling, one id: restatements must converge to recur.
    before = claim
    claim, kind = canonical(claim, kind, spans)
    if _ENDS_ON_ITS_VERB.search(claim) and not _ENDS_ON_ITS_VERB.search(before):
        return None  # the tidying took the last word: "User uses" said nothing that is used
    claim = unmask(claim, spans)
    claim = shorten(cap(claim))
    return Candidate(claim, kind, "stated", rule)


# A claim cut mid-phrase ends on a word that needs a continuation.
_DANGLING = re.compile(
    r"\b(?:the|a|an|of|to|with|for|in|on|at|from|by|and|or|but|than|as|into|so|i|we|my|"
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
_ENDS_ON_ITS_VERB = re.compile(
    r"\b(?:use|uses|using|prefer|prefers|with|via|over|than|of|not)\s*[.!?,;:]*$", re.I
)
# "that pattern", "that way": a thing named in an earlier turn ("that" as a determiner, before a
# noun that ends the clause or a short phrase).
_THAT_THING = re.compile(
    r"\bthat\s+(?:pattern|approach|way|style|format|convention|structure|logic|setup|method|"
    r"version|one|solution|idea|layout|design|naming|syntax|rule|flow|trick|fix|workflow|pipeline|"
    r"config|configuration|option|setting|settings)\b",
    re.I,
)


_RULES_UNNAMED = re.compile(
    r"^(?:always\s+)?(?:follow|obey|respect|stick to|keep to)\s+(?:the\s+|my\s+|our\s+|all\s+|your\s+)?"
    r"(?:rules|instructions|guidelines|conventions)\W*(?:cont\w*|please)?\W*$",
    re.I,
)
# A choice whose object is "that <noun>": a determiner pointing at what was named before.
_THAT_OBJECT = re.compile(
    r"^(?:we(?:'re| are)?\s+)?(?:use|using|prefer|keep|stick (?:to|with)|go with|switch to)\s+"
    r"that\s+"
    r"(?!is\b|was\b|are\b|were\b|way\b|when\b|if\b|for\b|as\b)[a-z]",
    re.I,
)


# A directive whose object is only a pronoun and whose rest says only where or how ("don't
# touch that in the backend", "never run it as root"): what "that" is was said in another
# turn. A complement that says what the thing must be stays ("keep it cross-platform"), and
# so does a quantified scope, which is the rule itself ("run it on every push").
PRONOUN_OBJECT = re.compile(
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
_AT_HAND_NP = re.compile(
    r"\b(?:the|this|that|these|those)\s+(?:existing|old|current|previous|original)\s+[a-z]", re.I
)
# An always/never rule on "it" that no earlier clause named (a named one was put in its place,
# see _clause_claim). A complement says what the thing must be ("always keep it short", "never
# make it depend on X"); a quantified scope is the rule itself ("run it on every push").
_RULE_ON_IT = re.compile(
    rf"^(?:always|never)\s+(?!(?:{'|'.join(sorted(COMPLEMENT_VERBS))})\b)[a-z]+\s+(?:it|them)\b(.*)$",
    re.I,
)


# A choice between code symbols (camelCase: a lower-case word then a capitalised one, so not
# iPhone or macOS): "use createdAt", "change outOfStock to inStock" edit the code at hand.
_CAMEL = r"[a-z]{2,}[A-Z]\w*"
CODE_SYMBOL_CHOICE = re.compile(
    rf"^(?i:use|switch to|prefer|stick with|keep|rename to|user uses)\s+{_CAMEL}"
    rf"(?:,?\s+(?i:not)\s+{_CAMEL})?\s*$"
)


# A statement whose subject is a bare identifier of the code (camelCase, snake_case or
# SCREAMING_CASE, not in backticks) says how that code is or should be, which the task changes.
CODE_IDENTIFIER_SUBJECT = re.compile(r"^(?:[a-z]+[A-Z]\w*|[A-Za-z]+_[A-Za-z_]+)\b(?!\s*,?\s*not\b)")


ClauseClaim = tuple[str, str, int, str]  # (claim, kind, clause index, rule)


_ARGUING = re.compile(r"\b(?:anyways?|after all)\W*$", re.I)


@dataclass(frozen=True)
class _Framed:
    """A sentence with its memory framing read off: what is left, and how it was framed."""

    text: str
    strong: bool  # remember …, from now on …, until told otherwise …: keep even a plain line
    weak: bool  # note / FYI / keep in mind …: keep a plain statement of fact
    mode: str  # "statement" | "request" | "question"


def _framed(sentence: str) -> _Framed | None:
    s = strip_lead(sentence)
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
    s = _event_last(s)
    weak = MEMORY_WEAK.match(s)
    if weak:
        s = weak.group(1)
    s = strip_lead(s)
    return _Framed(s, strong, bool(weak), _mode(s))


# What keeps an event said first where it is (EVENT_FIRST): a second step or rule ("always run
# the tests and push"), a clause of its own ("… if you changed Python files", "… so CI stays
# green"), the thing at hand ("always run them"), or the rule being about the event itself
# ("before committing, never commit to main"; checked on the event's verb).
_NOT_ONE_RULE = re.compile(
    r"\b(?:and|or|then|but|if|so|because|when|whenever|unless|until|since|while|that|as long as)\b|"
    r"\b(?:it|this|that|them|these|those)\W*$|^(?:never mind|don't|do not)\s+(?:you|we|i|bother|"
    r"worry|forget|mind)\b",
    re.I,
)


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


def _whole_sentence(f: _Framed) -> list[ClauseClaim] | None:
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
    cond = CONDITIONAL.match(s)
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


# A clause of the user's own run on into another with no mark between ("do I copy them somewhere
# on my laptop I'm using claude code in a container", "on wsl I have a ~/fzf folder"): a subject
# and a verb that takes an object, with its object right after. After a noun the same words most
# often start a relative clause ("the data we have on X", "the tools I use daily", "the settings
# I am using here are …"), whose verb has no object of its own: the object must be there.
_INNER_SUBJECT = re.compile(
    r"(?<!\s)\s+(?=(?:(?:i'm|i am)\s+(?:currently\s+|also\s+|now\s+|still\s+|mostly\s+|mainly\s+)?"
    r"(?:using|running)|i(?:'ve| have)(?:\s+got)?|i (?:use|run)|we (?:use|run|have)|"
    r"i (?:don't|do not) (?:even )?have|we(?:'re| are) using)\s+(?P<obj>\S+))",
    re.I,
)
# A question run on after a statement without its mark ("… installed how can we do that").
_INNER_WH = re.compile(rf"(?<!\s)\s+(?={_WH}\s+{_AUX}\s+(?:i|we|you|u|it|this|that|they)\b)", re.I)
# Words after which a wh-clause is what is known or asked, not a new question ("I know how
# do we …", "no idea what should I …").
_ASKS_ABOUT = words(
    """
know knew idea clue wonder wondering ask asking asked understand explain show tell see check
figure decide unclear confused curious sure remember forgot learn find out
"""
)
# "Idk where …", "… I know that X", "… i think because of that …": a new thought of the user's,
# ending the clause before it; what it says is a doubt or an aside, not read.
_INNER_AFTERTHOUGHT = re.compile(
    r"(?<!\s)\s+(?=(?:idk|i dunno|i (?:don't|do not) know|i think|i guess|i believe|i know|i mean|"
    r"i hope|i(?:'m| am) not sure)\b)",
    re.I,
)
# What cannot be the verb's object: a preposition, an adverb, a verb or participle, a pronoun,
# nothing ("the issues I have imported", "the changes i have made", "the options we have.").
_NO_OBJECT = words(
    """
is are was were be been being am have has had will would can could should shall may might must
to for on in at with from by about of as into onto over under through via here there now then so
and or but just already also ever never not no always still even only really actually currently
again too this that it them these those they he she what which who how why when where while if
daily done made seen written taken got gotten built put set left sent told shown chosen found
brought bought thought known given run become come gone kept held let
"""
)
# Words before the subject after which the clause is said under a case, a doubt or another's
# view ("let's say I'm running …", "it thinks I'm a client", "the way we use chrome"), is a
# relative clause on a time or manner ("every time I use this"), or is the state of the moment
# about to change ("right now we are using a sidebar, I want a top menu").
_NO_RUN_ON_AFTER = words(
    """
that what which who whom whose when whenever where wherever why how if unless until once since
because cause cuz as like so than though although while whereas before after whether whatever
say says said suppose supposing assume imagine pretend think thinks thought guess mean believe
believes hope wish feel felt know knew sure see saw tell told forgot remember realize realized
notice noticed ensure make do does did can could would should will may might must is are was
were be the a an my our your their his her its this these those some any every each about of for
to in on at with from by way time times reason moment day place point whenever everytime
now currently today rn still anymore yet
"""
)
_FRONTED_PLACE = re.compile(
    r"(?:on|in|at|inside|under|for|with|from)\s+(?:my\s+|the\s+|this\s+|our\s+)?\S+(?:\s+\S+)?",
    re.I,
)
_NEGATED = re.compile(r"\b(?:no|not|never|nothing|\w+n't)\b", re.I)


def _last_word(lead: str) -> str:
    """The word said just before a possible cut, bare of its punctuation ("" when none)."""
    words_before = lead.split()
    return words_before[-1].lower().strip(",.;:!?(") if words_before else ""


def _run_ons(part: str) -> list[str]:
    """A clause cut where another clause of the user's own runs on into it."""
    for m in _INNER_AFTERTHOUGHT.finditer(part):
        lead = part[: m.start()]
        if len(lead.split()) >= 3 and lead.split()[-1].lower() not in _NO_RUN_ON_AFTER:
            return _run_ons(lead)
    for m in _INNER_WH.finditer(part):
        lead = part[: m.start()]
        if len(lead.split()) >= 3 and _last_word(lead) not in _NO_RUN_ON_AFTER | _ASKS_ABOUT:
            # "i have podman installed how can we use it": the question asked after the
            # statement, its mark left off, is not read; the statement is.
            return _run_ons(lead)
    for m in _INNER_SUBJECT.finditer(part):
        lead, raw = part[: m.start()], m.group("obj")
        prev = _last_word(lead)
        if not prev or prev in _NO_RUN_ON_AFTER or _NEGATED.search(lead) or _IF_CLAUSE.search(lead):
            continue
        obj = raw.lower()
        if not re.fullmatch(r"[\w\ue000\ue001~/.:\\@-]+", raw) or obj in _NO_OBJECT:
            continue  # "… the options we have.": the clause ends, nothing is had
        if re.search(r"(?:ed|ly)$", obj):
            continue
        if _FRONTED_PLACE.fullmatch(strip_lead(lead)):
            continue  # "on wsl I have a ~/fzf folder": one clause, its place said first
        return [lead, *_run_ons(part[m.end() :])]
    return [part]


# A first clause that bounds the sentence to the present ("this time", "for now", "today", "just
# for this task"): what follows holds now, not from now on (the same words later in a claim are
# filters.TRANSIENT's).
_SCOPE_OF_NOW = re.compile(
    r"^(?:but\s+|and\s+|ok(?:ay)?\s+|so\s+)?(?:just\s+)?(?:(?:for\s+)?(?:this time|now|"
    r"the moment|the time being)|right now|at the moment|temporarily|"
    r"(?:just\s+)?for this (?:task|session|pr|change|one|commit|run|step|branch|ticket))$",
    re.I,
)
# "today" bounds a prohibition said today ("today, don't deploy unless I say so"), not what was
# decided today ("today we switched to pnpm")
_TODAY = re.compile(r"^(?:just\s+)?(?:for\s+)?(?:today|tonight)$", re.I)
_INSTRUCTION = re.compile(
    r"^\s*(?:please\s+)?(?:don't|dont|do not|never|always|only|use|keep|make sure|avoid|stop|"
    r"run|push|commit|deploy|merge|delete|remove|install|skip|ask)\b",
    re.I,
)


def _of_now(first: str, then: str) -> bool:
    """Whether the first clause bounds an instruction to the present ("for now, never delete
    files"); a fact said with it still holds ("for now, I use pnpm")."""
    if not _INSTRUCTION.match(then):
        return False
    return bool(_SCOPE_OF_NOW.match(first) or (_TODAY.match(first) and PROHIBITION.match(then)))


# (unless the sentence also says it lasts: "for now and always, never push to main")
_SAID_TO_LAST = re.compile(r"\b(?:and always|from now on|going forward|in (?:the )?future)\b", re.I)


# A first clause that says when or where the rule after it holds ("on prod,", "during code freeze,",
# "if it's prod,", "except in the cli module,"): at most six words.
_LEADING_CONDITION = re.compile(
    r"(?:on|at|during|if|unless|except(?: in| for| on| when)?|outside(?: of)?|inside|within|under|"
    r"while|whenever|once)\s+[^\s,;:]+(?:\s+[^\s,;:]+){0,5}",
    re.I,
)
_RULE_OPENING = re.compile(r"^\s*(?:please\s+)?(?:always|never|don't|dont|do not)\b", re.I)
# (not before a rule that ends pointing back, "… skip it", "… unless I say so": read alone, such a
# clause gives no claim, and a condition after it would hide that)
_ENDS_POINTING = re.compile(r"\b(?:so|to|this|it|that|them|there|here)\W*$", re.I)


def _parts(s: str) -> tuple[list[str], str | None]:
    """The clauses of a sentence (a leading purpose folded into the next one) and the noun
    phrase its first clause is about (for "it"/"they" in later clauses)."""
    parts = [piece for part in clauses(s) for piece in _run_ons(part)]
    lead = None
    if len(parts) > 1:
        lead = LEADING_PURPOSE.fullmatch(parts[0]) or (
            _LEADING_CONDITION.fullmatch(parts[0])
            if _RULE_OPENING.match(parts[1]) and not _ENDS_POINTING.search(parts[1])
            else None
        )
    if lead:
        # "For styling, use Tailwind instead of CSS modules": the purpose qualifies the rule;
        # so does a condition ("during code freeze, never merge to main": without it the rule
        # forbids what the user allows the rest of the time)
        qualifier = lead.group(0)[:1].lower() + lead.group(0)[1:]
        parts = [f"{parts[1].rstrip(' .!?')} {qualifier}", *parts[2:]]
    head = _SUBJECT_NP.match(parts[0]) if parts else None
    return parts, head.group(1)[:1].lower() + head.group(1)[1:] if head else None


_POSITIVE_HALF = re.compile(
    r"^(?:but\s+|instead\s+|rather\s+)?(?:use|prefer|go with|stick (?:to|with)|rely on)\s+\S", re.I
)
_NEGATIVE_HEAD = re.compile(r"^(?:don't|do not|never|avoid|prefer not)\b", re.I)
_CONTRAST_TAIL = re.compile(r"^(?:but\s+)?(?:never|not)\s+\S+(?:\s+\S+){0,2}$", re.I)
# A clause that describes a thing (a form of "be" or "get"), which a "but never X" tail goes on.
_DESCRIBED = re.compile(r"\b(?:is|are|was|were|be|been|being|gets?|got|gotten)\b", re.I)


def _continuation(out: list[ClauseClaim], i: int, c: str) -> ClauseClaim | None:
    """A clause that completes the previous claim rather than stating one of its own."""
    if not out or out[-1][2] != i - 1:
        return None
    if _NEGATIVE_HEAD.match(out[-1][0]) and _POSITIVE_HALF.match(c):
        # "don't use X for Y, use Z": the positive half belongs to the same claim.
        return c, out[-1][1], i, out[-1][3]
    if _CONTRAST_TAIL.match(c):
        # "we use JWTs in cookies, never localStorage": the contrast completes the claim.
        return c, "constraint", i, out[-1][3]
    return None


_THEN_TRY = re.compile(
    r"^(?:and\s+)?(?:then\s+)?(?:test|try|run|check|see|verify|retry|rerun)\s+(?:it|this|that|again)\b",
    re.I,
)
_JUST_WANT = re.compile(r"^(?:but\s+)?i\s+(?:just|jsut|only)\s+want\b", re.I)
# "… I just need to know how to run it": what this turn is for is an answer, no change
_JUST_ASKING = re.compile(
    r"^(?:but\s+)?i\s+(?:just|jsut|only)\s+(?:want|need)\s+to\s+(?:know|understand|see|learn|"
    r"find out|ask|check)\b",
    re.I,
)
_ONE_THING = re.compile(r"^(?:ok\w*\s+)?(?:just\s+)?(?:do\s+)?one (?:more |last )?thing$", re.I)
_IF_CLAUSE = re.compile(r"\b(?:if|unless|in case)\b", re.I)
_RULE_WORD = re.compile(r"^(?:never|don't|do not|always|avoid|only)\b", re.I)


def _it_said_as(
    got: tuple[str, str, str] | None, i: int, subject_np: str | None
) -> tuple[str, str, str] | None:
    """"the seed script wipes the db, so never run it against prod": a rule on "it" in a later
    clause says what "it" is, the subject named before."""
    if got and i > 0 and subject_np and re.search(r"\bit\b", got[0]) and _RULE_WORD.match(got[0]):
        return (re.sub(r"\bit\b", subject_np, got[0], count=1), got[1], got[2])
    return got


def _remembered_imperative(
    f: _Framed, c: str, i: int, first_claim: bool, short: bool
) -> tuple[str, str, str] | None:
    """"from now on, …", "remember to …": an imperative the user asks to keep, in the first
    claim of a short statement; not one said of a day ("remember I'm on vacation next week" is
    true until next week is over)."""
    if f.strong and (i == 0 or first_claim) and short and not _RELATIVE_DAY.search(c):
        imp = imperative(c)
        return (imp[0], imp[1], "memory.imperative") if imp else None
    return None


def _dated(c: str) -> bool:
    """"keep in mind it's due friday": true until that day."""
    return bool(TIME_SUBJECT.search(c) or _WEEKDAY.search(c))


def _told_to_user(c: str) -> bool:
    """"Note: a limit of 100 was applied to your query": a tool talking to the user."""
    return bool(re.search(r"\b(?:your|you)\b", c, re.I))


def _headless(c: str) -> bool:
    """"needs a migration", "still failing": a to-do or aim of now, with no subject it is true of."""
    low = c.split(" ", 1)[0].lower()
    return low in ("needs", "need", "is", "are", "was", "still", "has", "have") or bool(
        re.search(r"\bstill\b", c, re.I) or TASK_AIM.match(c)
    )


def _bare_name(c: str) -> bool:
    """"remember the orchestration part": an English noun phrase, nothing said of it."""
    return bool((bare_np(c) or place_only(c)) and not non_english(c))


# What a "note:"/"remember" framing can be put on that is no fact to keep.
_NOT_A_NOTED_FACT = (_dated, _told_to_user, _headless, _bare_name)


def _noted_fact(f: _Framed, c: str, i: int, short: bool) -> tuple[str, str, str] | None:
    """A short statement the user opens with "note:"/"remember": what it says of a thing, kept
    as a fact."""
    if not ((f.weak or f.strong) and i == 0 and f.mode == "statement" and short):
        return None
    if c.split(" ", 1)[0].lower() in PRONOUNS or content_words(c) < 3:
        return None
    if any(shape(c) for shape in _NOT_A_NOTED_FACT):
        return None
    return (cap(c), "fact", "memory.fact")


def _clause_claim(
    f: _Framed,
    c: str,
    i: int,
    first_claim: bool,
    subject_np: str | None,
    origin: str,
    bug: bool,
    short: bool = True,
) -> ClauseClaim | None:
    """`short`: the statement is short enough that a bare "note:"/"remember" framing is the
    user's (in a long paste, "Note: a limit of 100 rows was applied" is the tool's)."""
    got = clause_rules(
        c, first_of_request=f.mode == "request" and i == 0, origin=origin, bug_report=bug
    )
    got = _it_said_as(got, i, subject_np)
    if got is None:
        got = _remembered_imperative(f, c, i, first_claim, short)
    if got is None:
        got = _noted_fact(f, c, i, short)
    return (got[0], got[1], i, got[2]) if got else None


# "No no, don't change the bruno tests": a prohibition on a definite object right after a
# "no" is a correction of the step being taken, not a standing rule ("never" still counts); so
# is one after "never mind", "nvm", "scratch that" ("never mind, don't run the migration").
_CORRECTION = re.compile(
    r"^(?:(?:no+|nope|nah|never ?mind|nvm|scratch that|on second thought)\b[\s,.!]+)+", re.I
)
_STEP_PROHIBITION = re.compile(
    r"^(?:please\s+)?(?:don't|do not|dont|(?:you|we)\s+(?:must|should|shall)\s+not|"
    r"(?:you|we)\s+(?:mustn't|shouldn't))\b",
    re.I,
)


# "Tom thinks we should never use ORMs … and always write raw SQL": someone else's opinion, which
# the user reports (and may not share); no clause of it is the user's rule.
_THIRD_PARTY_OPINION = re.compile(
    r"^\W*(?:(?-i:[A-Z][a-z]+)|(?:my|our|the)\s+(?:\w+\s+)?(?:colleague|coworker|co-worker|boss|"
    r"manager|reviewer|teammate|lead|cto|friend|client|architect))\s+(?:thinks|believes|feels|"
    r"argues|argued|suggests|suggested|reckons|claims|insists)\b",
    re.I,
)


def _corrects_the_step(sentence: str) -> bool:
    """"No no, don't change the bruno tests": a "no" that stops the step being taken, no rule."""
    correction = _CORRECTION.match(sentence.strip())
    return bool(correction and _STEP_PROHIBITION.match(sentence.strip()[correction.end() :]))


def _statement_led_question(f: _Framed, whole: list[ClauseClaim] | None) -> str | None:
    """The statement said before a question with no claim of its own, read on its own (the
    question stays a question)."""
    if whole == [] and f.mode == "question" and not f.strong:
        lead = _statement_before_question(f.text)
        if lead and _mode(lead) == "statement":
            return lead
    return None


def _said_of_now(sentence: str, parts: list[str]) -> bool:
    """"this time, never push to main", "for now, don't delete files": the rule bounds this work.

    Read on the clauses and on the sentence as typed too: the framing reads a leading "right
    now," off as filler and moves "for the time being, …" after the rule it bounds."""
    first = strip_lead(parts[0]).rstrip(" ,.!") if parts else ""
    head, comma, rest = sentence.strip().partition(",")
    return (len(parts) > 1 and _of_now(first, parts[1])) or bool(
        comma and _of_now(head.strip(), rest)
    )


def _clause_text(raw: str, i: int, subject_np: str | None) -> str:
    """A clause as its claim reads it, its "it"/"they" said as the subject named before
    ("the integration tests hit a real Postgres; they fail if Docker is down")."""
    c = strip_lead(raw).rstrip(" .!?")
    if c and i > 0 and subject_np and re.match(r"^(?:it|they)\s+(?!is\b|are\b|'s\b)", c, re.I):
        c = f"{subject_np} {c.split(' ', 1)[1]}"
    return c


def _makes_previous_this_task(out: list[ClauseClaim], i: int, c: str) -> bool:
    """A clause that shows the claim just before it is this task's step or shape, not a rule:
    "use X instead of Y and test it", "I don't want csv files, I just want a script", "I don't
    want you to edit the script, I just need to know how to run it"."""
    if not out or out[-1][2] != i - 1:
        return False
    claim, _kind, _index, rule = out[-1]
    return bool(
        (_THEN_TRY.match(c) and rule.startswith(("preference.", "decision.")))
        or (_JUST_WANT.match(c) and "not want" in claim)
        or (_JUST_ASKING.match(c) and rule == "directive.negative")
    )


def _no_fragment(c: str, raw: str, before: str) -> bool:
    """"..., but no names": a fragment of the sentence, not a rule of its own."""
    return bool(re.match(r"^no\s", c, re.I))


def _described_tail(c: str, raw: str, before: str) -> bool:
    """"Variable 'x' was written to, but never read": the tail of a clause that describes a
    thing (after an instruction, "fix the tests, but never push to main", it is a rule)."""
    return bool(
        re.match(r"^but\s", raw.strip(), re.I) and _CONTRAST_TAIL.match(c) and _DESCRIBED.search(before)
    )


def _announced_step(c: str, raw: str, before: str) -> bool:
    """"do one thing, use X not Y": the next step, announced as such."""
    return bool(_ONE_THING.match(strip_lead(before).rstrip(" .!?")))


def _under_a_case(c: str, raw: str, before: str) -> bool:
    """"if I build other projects, I always use X": what happens under a case."""
    return bool(_IF_CLAUSE.search(before) and re.match(r"^i\s", c, re.I))


# Clauses after the first that, by the clause before them, state no rule of their own.
_NO_CLAIM_OF_ITS_OWN = (_no_fragment, _described_tail, _announced_step, _under_a_case)


def _bounds_this_work(f: _Framed, c: str, i: int, parts: list[str]) -> bool:
    """A clause whose claim is the reason for, or a limit on, the work asked for in the same
    sentence: "drop the old layout, we always need a layout", "can you improve the UI and don't
    change any behaviour"."""
    return bool(
        (i > 0 and _SPEAKER_ALWAYS.match(c) and standing.asks_or_describes(strip_lead(parts[i - 1])))
        or (f.mode == "request" and _REQUEST_LIMIT.match(c))
    )


def _sentence_claims(
    sentence: str, origin: str, bug_report: bool = False, short: bool = True
) -> list[ClauseClaim]:
    """(claim, kind, clause index, rule) for one sentence."""
    if _THIRD_PARTY_OPINION.match(sentence):
        return []
    f = _framed(sentence)
    if f is None or _corrects_the_step(sentence):
        return []
    whole = _whole_sentence(f)
    lead = _statement_led_question(f, whole)
    if lead:
        return _sentence_claims(lead, origin, bug_report, short)
    if whole is not None:
        return whole
    s = REQUEST.sub("", f.text, count=1) if f.mode == "request" else f.text
    parts, subject_np = _parts(s)
    # (the framing has read "from now on" / "going forward" off `s` already: f.strong says so)
    lasting = f.strong or bool(_SAID_TO_LAST.search(sentence))
    if not lasting and _said_of_now(sentence, parts):
        return []
    out: list[ClauseClaim] = []
    for i, raw in enumerate(parts):
        c = _clause_text(raw, i, subject_np)
        if not c:
            continue
        if _makes_previous_this_task(out, i, c):
            out.pop()
            continue
        joined = _continuation(out, i, c)
        if joined:
            out.append(joined)
            continue
        if i > 0 and any(case(c, raw, parts[i - 1]) for case in _NO_CLAIM_OF_ITS_OWN):
            continue
        got = _clause_claim(f, c, i, not out, subject_np, origin, bug_report, short)
        if got and not _bounds_this_work(f, c, i, parts):
            out.append(got)
    return out


# "I never …", "we always …": the speaker's own habit, said with its subject.
_SPEAKER_ALWAYS = re.compile(r"^(?:i|we)\s+(?:always|never)\b", re.I)
# A "don't …" inside a request for work bounds that work; "never …" still states a rule.
_REQUEST_LIMIT = re.compile(r"^(?:and\s+|but\s+|please\s+|just\s+)*(?:don't|do not|dont)\b", re.I)


_SUBJECT_NP = re.compile(
    r"^((?:the|our)\s+(?:[\w\ue000\ue001./-]+\s+){0,3}[\w\ue000\ue001./-]+)\s+"
    r"(?:is|are|was|were|has|have|does|do|can|will|must|should|hit|run|use|need|take|talk|call|depend|"
    r"break|fail|wipe|touch|write|read|send|hold|keep|go|\w+s)\b",
    re.I,
)
_KIND_RANK = {"constraint": 4, "preference": 3, "decision": 2, "failure": 1, "fact": 0}
_LOWER_OK = re.compile(
    r"^(?:don't|do|always|never|only|use|keep|prefer|avoid|make|migrate|switch|move|stick|support|"
    r"drop|run|write|user|we|our|the|this|tests?|no|not)\b"
)


def _join(parts: list[Candidate]) -> Candidate:
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
INFORMAL = re.compile(r"(?<!`)\b(?:" + "|".join(INFORMAL_MAP) + r")\b(?!`)", re.I)
# German "im" is "in the" ("wir können im Backoffice …"): a statement with two or more German
# function words keeps its "im" as written.
_GERMAN = re.compile(
    r"\b(?:und|ist|nicht|ich|wir|mit|für|auf|eine?|dem|bitte|wenn|auch|noch|können|kann|soll|"
    r"werden|wird|sind|oder|aber|immer|keine?|der|das|des|müssen|muss|sollen|sein|zum|zur|"
    r"beim|vom)\b",
    re.I,
)


# "lets go through it": at the start of a sentence "lets" has no subject to be the verb of, so it
# is "let's" typed without its apostrophe (a request), not "X lets Y" ("lets go" read as a subject
# and "go through X" as a how-fact).
_LETS = re.compile(r"(?:(?<=^)|(?<=[.!?;\n]\s)|(?<=[.!?;]\s\s)|(?<=\n))(le|Le|LE)ts\b(?=\s+[a-z])", re.M)


def _informal(m: re.Match[str], german: bool) -> str:
    word = m.group(0)
    # (.get: "İm", "Doeſnt" match under re.I but lower to no key)
    return word if german and word.lower() == "im" else INFORMAL_MAP.get(word.lower(), word)


_FIX_REQUEST = re.compile(
    r"\b(?:(?:please|pls|can you|could you)\s+(?:\w+\s+)?(?:fix|debug|investigate|look into|check)|"
    r"fix (?:it|this|that)|any idea|what's going on|why (?:does|is|do)|help me)\b",
    re.I,
)


def _glued(text: str, m: re.Match[str]) -> bool:
    before = text[m.start() - 1 : m.start()]
    after = text[m.end() : m.end() + 1]
    return before.isalnum() and after.isalnum()


def extract_claims(
    text: str,
    *,
    origin: str = "prompt",
    rejected_command: str | None = None,
    users_words: bool = True,
) -> list[Candidate]:
    """Candidate claims in one user statement (pure, deterministic; no I/O, no clock).
    `users_words=False`: the text is the model's own (a memory file), whose "I"/"my" is Claude's
    and is left as written, never put in the user's third person."""
    if not text or not text.strip():
        return []
    # Sessions repeat themselves ("continue", "yes", the same instruction again): memoise.
    return list(_extract_cached(text, origin, rejected_command, users_words))


@functools.lru_cache(maxsize=4096)
def _extract_cached(
    text: str, origin: str, rejected_command: str | None, users_words: bool = True
) -> tuple[Candidate, ...]:
    return tuple(_extract(text, origin, rejected_command, users_words))


# A line ended by a backslash: the terminal's way of typing a newline into the prompt
# ("1. No\\⏎2. Yes\\⏎"), a line break, never part of what was said.
LINE_CONTINUATION = re.compile(r"\\[ \t]*(?=\n)")


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
_BLANK_RUN = re.compile(rf"(?<![^\S\n])[^\S\n]{{{MAX_BLANKS + 1},}}")
_BREAK_RUN = re.compile(rf"\n(?:[^\S\n]*\n){{{MAX_BREAKS},}}")


def bounded_runs(text: str) -> str:
    """`text` with every blank run cut to MAX_BLANKS characters and every run of line breaks
    to MAX_BREAKS (see above); text without such runs is returned unchanged."""
    text = _BLANK_RUN.sub(lambda m: m.group()[:MAX_BLANKS], text)
    return _BREAK_RUN.sub("\n" * MAX_BREAKS, text)


def _prepared(text: str) -> tuple[str, list[str]]:
    """The statement masked (code spans and URLs as placeholders) and the spans."""
    text = LINE_CONTINUATION.sub("", text)
    # bounded after the cut to MAX_TEXT, so the rules read the same span of text as before
    text = bounded_runs(text[:MAX_TEXT]).translate(QUOTES)
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


def _sentence_candidates(
    sentence: str,
    spans: list[str],
    origin: str,
    bug_report: bool,
    short: bool = True,
    keep: Callable[[Candidate], bool] = lambda c: True,
) -> list[Candidate]:
    """One sentence's claims (those `keep` accepts); adjacent clause claims joined into one
    memory line."""
    found: list[Candidate] = []
    group: list[Candidate] = []
    last = -2
    for claim, kind, index, rule in _sentence_claims(sentence, origin, bug_report, short):
        cand = _finish(claim, kind, spans, rule)
        if cand is None or not keep(cand):
            last = -2
            continue
        if group and any(normalize(p.claim) == normalize(cand.claim) for p in group):
            last = index  # "never X; never X; use Y": a clause said twice is said once
            continue
        if group and index == last + 1 and len(_join([*group, cand]).claim) <= MAX_CLAIM:
            group.append(cand)
        else:
            if group:
                found.append(_join(group))
            group = [cand]
        last = index
    if group:
        found.append(_join(group))
    return found


def _deduped(found: list[Candidate]) -> list[Candidate]:
    if any(c.rule.startswith("language.") for c in found):
        # An English rule reading a sentence of another language ("Use X em vez de Y") adds
        # nothing the language rule did not say better.
        found = [c for c in found if c.rule.startswith("language.") or not non_english(c.claim)]
    seen: set[str] = set()
    out = []
    for cand in found:
        key = normalize(cand.claim)
        if key not in seen and not any(
            key in s or s in key for s in seen if len(s) > 12 and len(key) > 12
        ):
            seen.add(key)
            out.append(cand)
    return out


# "You are a senior UX engineer …", "You are helping me build …": a prompt written for an agent
# (pasted or drafted for this task), whose rules are that agent's brief, not the user's own.
ROLE_PROMPT = re.compile(
    r"^\W{0,3}(?:(?:you are|you're)(?!\s+(?:in|on|inside|running|connected|logged|now|currently|"
    r"working in|working on)\b)|act as|your role is|hello\b.{0,80}\bi am)\b",
    re.I,
)


# A statement that opens with a markdown heading ("# API Standards\n> enforced by …") is a
# document pasted whole: its rules are the document's, kept by the file itself.
PASTED_DOC = re.compile(
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
_BETWEEN_CJK = re.compile(rf"(?<=[{_CJK}])[^\n{_CJK}]+(?=[{_CJK}])")
_TWO_SENTENCES = re.compile(r"[.!?][\"'”’]?[ \t]+[\"'“‘]?[A-Z]")


def _without_quoted_latin(masked: str) -> str:
    """`masked` with each English passage quoted inside a CJK sentence blanked (see above)."""

    def blank(m: re.Match[str]) -> str:
        run = m.group(0)
        english = re.match(r"[ \t]*[A-Za-z\"'“‘]", run) and re.search(r"[.!?][\"'”’]?[ \t]*$", run)
        return " " if english and _TWO_SENTENCES.search(run) else run

    return _BETWEEN_CJK.sub(blank, masked)


def _generated_prompt(text: str) -> bool:
    """A long role prompt or pasted document, or "<observed_from_primary_session>…": a tool's
    generated prompt, not the user typing."""
    if len(text) >= 200 and (ROLE_PROMPT.match(text.lstrip()) or PASTED_DOC.match(text.lstrip())):
        return True
    return bool(re.match(r"^\s*<[a-z_][\w-]*>", text) and len(text) >= 100)


def _users_text(text: str, origin: str) -> tuple[str, bool]:
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


def _language_candidates(masked: str, spans: list[str]) -> list[Candidate]:
    """Other languages: explicit markers only, the user's sentence kept (rules/languages.py)."""
    if not non_english(masked):
        return []
    return [
        Candidate(shorten(unmask(claim, spans)), kind, "stated", f"language.{sub}")
        for claim, kind, sub in language_claims(masked)
    ]


def _rejection_candidate(
    masked: str, origin: str, rejected_command: str | None, spans: list[str]
) -> Candidate | None:
    """The "use X" a rejected tool call was answered with."""
    special = _rejection_claim(masked, rejected_command) if origin == "rejection" else None
    return _finish(special[0], special[1], spans, "rejection.use_tool") if special else None


def _extract(
    text: str, origin: str, rejected_command: str | None, users_words: bool = True
) -> list[Candidate]:
    if _generated_prompt(text):
        return []
    text, asked_to_keep = _users_text(text, origin)
    masked, spans = _prepared(text)
    found = _language_candidates(masked, spans)
    cand = _rejection_candidate(masked, origin, rejected_command, spans)
    if cand:
        found.append(cand)
    bug_report = bool(_FIX_REQUEST.search(masked))
    approval = bool(_APPROVAL.match(masked))
    asked = False
    said = _carry_back_references(
        _just_asking_joined(_scope_after_semicolon(sentences(_without_quoted_latin(masked))))
    )
    around = standing.shape(said, masked)
    for index, sentence in enumerate(said):
        if approval and not _STANDING.search(sentence):
            continue  # "Plan approved. Proceed … Do NOT add new tools": how to carry out this plan
        if cand and sentence.strip() == masked.strip():
            continue  # the whole reason was the special "use X" shape
        if asked and _QUESTION_TAIL.match(sentence.strip()):
            continue  # "could you rewrite my config? using X and Y": the question goes on
        asked = sentence.rstrip().endswith("?")
        # A bare "note:"/"remember" is the user's framing in a short statement or at its start;
        # further into a long paste it is the pasted tool's ("Note: 100 rows shown").
        short = len(masked) <= 200 or index == 0
        # Each clause's claim is judged before clauses are joined ("use X, never Y"): a bound on
        # this work must not take a standing rule of the same sentence with it.
        keep = functools.partial(
            _standing,
            sentence=sentence,
            index=index,
            around=around,
            origin="memory" if asked_to_keep else origin,
        )
        found.extend(_sentence_candidates(sentence, spans, origin, bug_report, short, keep))
    return _deduped([_in_third_person(c) for c in found] if users_words else found)


def _in_third_person(cand: Candidate) -> Candidate:
    """A kept claim with the user's "I"/"me"/"my" in the third person, as a memory line reads
    (canonical.third_person); a claim in another language keeps the user's words."""
    if cand.rule.startswith("language."):
        return cand
    claim = third_person(cand.claim)
    return cand if claim == cand.claim else replace(cand, claim=shorten(claim))


def _just_asking_joined(said: list[str]) -> list[str]:
    """"I don't want you to edit the script! I just need to know how to run it.": the second
    sentence says what this turn is for, as a clause of the first does; read as one."""
    out: list[str] = []
    for sentence in said:
        if out and _JUST_ASKING.match(strip_lead(sentence)):
            out[-1] = out[-1].rstrip(" .!") + ", " + sentence
            continue
        out.append(sentence)
    return out


def _scope_after_semicolon(said: list[str]) -> list[str]:
    """"go on with the upgrade; from now on, never edit the lockfile": the scope opens a sentence
    of its own after the semicolon, and bounds only that one (not this turn's request before it)."""
    out: list[str] = []
    for sentence in said:
        pieces = re.split(r";\s+", sentence)
        current = pieces[0]
        for piece in pieces[1:]:
            if SCOPE.match(piece):
                out.append(current + ";")
                current = piece
            else:
                current += "; " + piece
        out.append(current)
    return out


def _carry_back_references(said: list[str]) -> list[str]:
    """"request a Copilot review. Make that standard in your workflow.": the instruction said
    just before a back reference becomes a standing one (read as if "from now on" closed it);
    the back reference itself names nothing and is dropped."""
    out: list[str] = []
    for sentence in said:
        if out and made_standing(out[-1], sentence):
            if not SCOPE.search(out[-1]):  # a second back reference adds nothing more
                out[-1] = out[-1].rstrip(" .!") + " from now on."
            continue
        out.append(sentence)
    return out


def _standing(
    c: Candidate, sentence: str, index: int, around: standing.Shape, origin: str
) -> bool:
    # A "#" memory note is asked to be kept: every rule in it stands.
    return origin == "memory" or standing.carries_over(
        c.claim, c.kind, c.rule, sentence, index, around
    )


# "Approved. Proceed with implementation exactly as proposed. Rules: - …": the rules that follow
# bound the plan being approved; only a rule said to stand ("always", "from now on") is kept.
_APPROVAL = re.compile(
    r"^\W*(?:(?:the\s+)?plan\s+(?:is\s+)?approved|approved|lgtm|proceed with (?:the\s+)?"
    r"implementation)\b",
    re.I,
)
_STANDING = re.compile(
    r"\b(?:always|never|from now on|going forward|in (?:the )?future|every time|whenever)\b", re.I
)


# What follows a question without a capital or with a joining word still belongs to it.
_QUESTION_TAIL = re.compile(r"^(?:[a-z]+ing\b|(?i:using|with|without|via|by)\b)")


# Interchangeable tools: a rejected command of one and a reason naming another is a preference


def _rejection_claim(reason: str, rejected_command: str | None) -> Rule | None:
    s = tidy(strip_lead(reason.strip().split("\n", 1)[0]))
    m = re.match(
        r"^(?:please\s+)?(?:use|try|run it with|do it with|with)\s+([\w.@/\ue000\ue001-]+)$",
        s,
        re.I,
    ) or re.match(r"^([\w.@/-]+)\s+(?:please|instead|pls)$", s, re.I)
    if not m:
        bare = re.match(r"^([\w.@/-]+)$", s)
        if not bare or bare.group(1).lower() not in KNOWN_TOOLS:
            return None
        m = bare  # "pnpm" alone, on a rejected command: the tool to use instead
    tool = m.group(1)
    program = command_program(rejected_command).split(" ", 1)[0]
    for family in FAMILIES:
        if tool.lower() in family and program in family and program != tool.lower():
            return f"Use {tool}, not {program}", "preference"
    return f"Use {tool}", "preference"
