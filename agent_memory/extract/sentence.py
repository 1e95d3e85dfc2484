"""One sentence → its clause claims, (claim, kind, clause index, rule): the framing read, the
clauses cut, each clause given to the rules (dispatch), and the clauses that state no rule of
their own — a correction of the step, a bound on this work, the tail of the claim before —
left out or joined to the claim they complete."""

from __future__ import annotations

import re

from agent_memory.extract import standing
from agent_memory.extract.clause_split import IF_CLAUSE, clause_parts
from agent_memory.extract.dispatch import (
    HABIT,
    TASK_AIM,
    TODO_NOW,
    WH_POINTER,
    bare_np,
    clause_rules,
    imperative,
    place_only,
)
from agent_memory.extract.filters import IMPERATIVES, PRONOUNS, TIME_SUBJECT, content_words
from agent_memory.extract.framed import ClauseClaim, Framed, framed, whole_sentence
from agent_memory.extract.mode import REQUEST, sentence_mode, statement_before_question
from agent_memory.extract.rules.lang_words import non_english
from agent_memory.extract.text import PROHIBITION, cap, strip_lead
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

_RELATIVE_DAY = _lazy(
    r"\b(?:today|tomorrow|tonight|yesterday|(?:next|this|last) (?:week|month|weekend))\b", re.I
)
_WEEKDAY = _lazy(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:today|tomorrow|tonight|next week)\b", re.I
)


# A first clause that bounds the sentence to the present ("this time", "for now", "today", "just
# for this task"): what follows holds now, not from now on (the same words later in a claim are
# filters.TRANSIENT's).
_SCOPE_OF_NOW = _lazy(
    r"^(?:but\s+|and\s+|ok(?:ay)?\s+|so\s+)?(?:just\s+)?(?:(?:for\s+)?(?:this time|now|"
    r"the moment|the time being)|right now|at the moment|temporarily|"
    r"(?:just\s+)?for this (?:task|session|pr|change|one|commit|run|step|branch|ticket))$",
    re.I,
)
# "today" bounds a prohibition said today ("today, don't deploy unless I say so"), not what was
# decided today ("today we switched to pnpm")
_TODAY = _lazy(r"^(?:just\s+)?(?:for\s+)?(?:today|tonight)$", re.I)
_INSTRUCTION = _lazy(
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
_SAID_TO_LAST = _lazy(r"\b(?:and always|from now on|going forward|in (?:the )?future)\b", re.I)


_POSITIVE_HALF = _lazy(
    r"^(?:but\s+|instead\s+|rather\s+)?(?:use|prefer|go with|stick (?:to|with)|rely on)\s+\S", re.I
)
_ROUTE_HALF = _lazy(r"^but\s+(?:only\s+)?(?:through|via|using|with|by|from|over)\s+\S", re.I)
_NEGATIVE_HEAD = _lazy(r"^(?:don't|do not|never|avoid|prefer not)\b", re.I)
_INSTEAD_SAID = _lazy(r",?\s+instead$", re.I)
_CONTRAST_TAIL = _lazy(r"^(?:but\s+)?(?:never|not)\s+\S+(?:\s+\S+){0,2}$", re.I)
# A clause that describes a thing (a form of "be" or "get"), which a "but never X" tail goes on.
_DESCRIBED = _lazy(r"\b(?:is|are|was|were|be|been|being|gets?|got|gotten)\b", re.I)


# A prohibition of the direct route, whose next clause says the right one.
_DIRECT_ROUTE = _lazy(r"^(?:never|don't|do not)\b.*\b(?:directly|by hand|manually)\b", re.I)
_SAID_INSTEAD = _lazy(r"^(?:(?:instead|rather),?\s+)?(?P<body>.+?)(?:,?\s+instead)?$", re.I)
# "don't pip install anything, add it to pyproject.toml instead": what is installed is a dependency
_INSTALLED = _lazy(r"\binstall\b", re.I)
_INSTALLED_AS = {"it": "the dependency", "them": "the dependencies"}


# verbs that put a package somewhere: after an install forbidden, their "it" is the package
_PLACED = _lazy(r"(?:add|put|declare|list|pin|specify|record|include)\s+(?:it|them)\b", re.I)


# "never touch prod directly; ask me first": a request to the user (before the thing is done at
# all), not another route to take in its place; the prohibition stands alone
_ASK_THE_USER = _lazy(
    r"^(?:ask|check with|consult|confirm with|tell|ping|talk to|run it by|get approval from|"
    r"get an ok from|wait for)\s+(?:me|us)\b",
    re.I,
)


def _remedy(prohibition: str, c: str) -> str | None:
    """"never commit to main directly; open a pull request", "don't pip install anything, add it
    to pyproject.toml instead": what to do in place of what is forbidden, the other half of the
    same rule, which lasts as the prohibition does ("always …", as "never push directly to main;
    always open a pull request" says it). Only where the clause says it stands in ("instead") or
    the prohibition forbids the direct route ("directly", "by hand", "manually"): after any other
    prohibition a bare imperative is this turn's request ("don't push to main, fix the tests")."""
    m = _SAID_INSTEAD.match(c)
    body = m.group("body") if m else ""
    if not body or body.split(" ", 1)[0].lower() not in IMPERATIVES or _ASK_THE_USER.match(body):
        return None
    if body == c and not _DIRECT_ROUTE.match(prohibition):
        return None
    if not _NEGATIVE_HEAD.match(prohibition):
        return None
    if _INSTALLED.search(prohibition) and _PLACED.match(body):
        # "add it to pyproject.toml": the package; "run it through make": the install command
        body = re.sub(r"\b(it|them)\b", lambda w: _INSTALLED_AS[w.group(1)], body, count=1)
    return f"Always {body}"


def _route_allowed(out: list[ClauseClaim], i: int, c: str, raw: str) -> bool:
    """"don't read the schema as a text file, but through the mcp": the route allowed is the
    other half of the rule (alone, the prohibition forbids reading the schema at all); said into
    the claim before it."""
    if not out or out[-1][2] != i - 1 or not _NEGATIVE_HEAD.match(out[-1][0]):
        return False
    if not _ROUTE_HALF.match(raw.strip()):
        return False
    out[-1] = (f"{out[-1][0]}, but {c}", out[-1][1], i, out[-1][3])
    return True


def _continuation(out: list[ClauseClaim], i: int, c: str) -> ClauseClaim | None:
    """A clause that completes the previous claim rather than stating one of its own."""
    if not out or out[-1][2] != i - 1:
        return None
    if _NEGATIVE_HEAD.match(out[-1][0]) and _POSITIVE_HALF.match(c):
        # "don't use X for Y, use Z": the positive half belongs to the same claim ("… use Z
        # instead" says no more).
        return _INSTEAD_SAID.sub("", c), out[-1][1], i, out[-1][3]
    remedy = _remedy(out[-1][0], c)
    if remedy:
        return remedy, out[-1][1], i, out[-1][3]
    if _CONTRAST_TAIL.match(c):
        # "we use JWTs in cookies, never localStorage": the contrast completes the claim.
        return c, "constraint", i, out[-1][3]
    return None


_THEN_TRY = _lazy(
    r"^(?:and\s+)?(?:then\s+)?(?:test|try|run|check|see|verify|retry|rerun)\s+(?:it|this|that|again)\b",
    re.I,
)
_JUST_WANT = _lazy(r"^(?:but\s+)?i\s+(?:just|jsut|only)\s+want\b", re.I)
# "… I just need to know how to run it": what this turn is for is an answer, no change
JUST_ASKING = _lazy(
    r"^(?:but\s+)?i\s+(?:just|jsut|only)\s+(?:want|need)\s+to\s+(?:know|understand|see|learn|"
    r"find out|ask|check)\b",
    re.I,
)
# "don't run the e2e suite, that will go in another session": what is forbidden is put off,
# so the prohibition is this task's plan
_DEFERRED = _lazy(
    r"^(?:that|this|it|those|these|which)\s+(?:(?:will|'ll|can|should|is going to)\s+)?"
    r"(?:go(?:es)?|comes?|happens?|be (?:done|handled)|waits?)\b"
    r"[^,;]*\b(?:later|another|next|separate|afterwards|after that)\b",
    re.I,
)
# "don't use Date, they haven't learned it yet", "don't use has, just add classes like you did
# for the other demos": the clause after a prohibition bounds it to this piece of work (a time
# not reached yet, the way the work was done so far)
_FOR_THIS_WORK = _lazy(
    r"\b(?:yet|for now|for the moment|at this (?:point|stage)|like you did|as you did|"
    r"like (?:before|the others?|the other \w+))\b",
    re.I,
)
_ONE_THING = _lazy(r"^(?:ok\w*\s+)?(?:just\s+)?(?:do\s+)?one (?:more |last )?thing$", re.I)


_RULE_WORD = _lazy(r"^(?:never|don't|do not|always|avoid|only)\b", re.I)


def _it_said_as(
    got: tuple[str, str, str] | None, i: int, subject_np: str | None
) -> tuple[str, str, str] | None:
    """"the seed script wipes the db, so never run it against prod": a rule on "it" in a later
    clause says what "it" is, the subject named before."""
    if got and i > 0 and subject_np and re.search(r"\bit\b", got[0]) and _RULE_WORD.match(got[0]):
        return (re.sub(r"\bit\b", subject_np, got[0], count=1), got[1], got[2])
    return got


def _remembered_imperative(
    f: Framed, c: str, i: int, first_claim: bool, short: bool
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


def _to_do(c: str) -> bool:
    """"remember: fix the login bug": a piece of this work to do, as "remember to" is."""
    return bool(TODO_NOW.match(c) and not HABIT.search(c))


def _pointed_at(c: str) -> bool:
    """"remember where the config lives": a thing pointed at, nothing said of it."""
    return bool(WH_POINTER.match(c))


# What a "note:"/"remember" framing can be put on that is no fact to keep.
_NOT_A_NOTED_FACT = (_dated, _told_to_user, _headless, _bare_name, _to_do, _pointed_at)


def _noted_fact(f: Framed, c: str, i: int, short: bool) -> tuple[str, str, str] | None:
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
    f: Framed,
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
_CORRECTION = _lazy(
    r"^(?:(?:no+|nope|nah|never ?mind|nvm|scratch that|on second thought)\b[\s,.!]+)+", re.I
)
_STEP_PROHIBITION = _lazy(
    r"^(?:please\s+)?(?:don't|do not|dont|(?:you|we)\s+(?:must|should|shall)\s+not|"
    r"(?:you|we)\s+(?:mustn't|shouldn't))\b",
    re.I,
)


# "Tom thinks we should never use ORMs … and always write raw SQL": someone else's opinion, which
# the user reports (and may not share); no clause of it is the user's rule.
_THIRD_PARTY_OPINION = _lazy(
    r"^\W*(?:(?-i:[A-Z][a-z]+)|(?:my|our|the)\s+(?:\w+\s+)?(?:colleague|coworker|co-worker|boss|"
    r"manager|reviewer|teammate|lead|cto|friend|client|architect))\s+(?:thinks|believes|feels|"
    r"argues|argued|suggests|suggested|reckons|claims|insists)\b",
    re.I,
)


def _corrects_the_step(sentence: str) -> bool:
    """"No no, don't change the bruno tests": a "no" that stops the step being taken, no rule."""
    correction = _CORRECTION.match(sentence.strip())
    return bool(correction and _STEP_PROHIBITION.match(sentence.strip()[correction.end() :]))


def _statement_led_question(f: Framed, whole: list[ClauseClaim] | None) -> str | None:
    """The statement said before a question with no claim of its own, read on its own (the
    question stays a question)."""
    if whole == [] and f.mode == "question" and not f.strong:
        lead = statement_before_question(f.text)
        if lead and sentence_mode(lead) == "statement":
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


def _makes_previous_this_task(out: list[ClauseClaim], i: int, c: str, raw: str) -> bool:
    """A clause that shows the claim just before it is this task's step or shape, not a rule:
    "use X instead of Y and test it", "I don't want csv files, I just want a script", "I don't
    want you to edit the script, I just need to know how to run it"."""
    if not out or out[-1][2] != i - 1:
        return False
    claim, _kind, _index, rule = out[-1]
    return bool(
        (_THEN_TRY.match(c) and rule.startswith(("preference.", "decision.")))
        or (_JUST_WANT.match(c) and "not want" in claim)
        or (JUST_ASKING.match(c) and rule == "directive.negative")
        or bool(_DEFERRED.match(raw.strip()))
        or (rule.startswith("directive.") and bool(_FOR_THIS_WORK.search(raw)))
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
    """"if I build other projects, I always use X": what happens under a case; "check the export,
    if the report is on s3, never regenerate it": a rule that holds only under the case said
    before it (a case said first in the sentence is kept with the rule, see clause_parts; in the
    middle of a request it is this task's case, and the rule alone forbids what the user allows)."""
    return bool(IF_CLAUSE.search(before) and re.match(r"^i\s", c, re.I)) or bool(
        _CASE_CLAUSE.match(strip_lead(before))
    )


_CASE_CLAUSE = _lazy(r"^(?:if|unless|in case)\b", re.I)


def _keeps_the_thing_named(c: str, raw: str, before: str) -> bool:
    """"don't border the logo, keep it square": "it" is the thing the instruction before works
    on, this task's thing (said alone, "keep it dependency free" is about the code kept; after a
    fact, "the handlers live in src/handlers; keep them thin", about what the fact names)."""
    if not _KEEP_IT.match(c):
        return False
    head = strip_lead(before)
    return bool(_NEGATIVE_HEAD.match(head)) or head.split(" ", 1)[0].lower() in IMPERATIVES


def _relative_goes_on(c: str, raw: str, before: str) -> bool:
    """"create a default team that will apply to all projects and always start when I prompt":
    the "and" goes on with the relative clause before it, whose subject is the thing being made
    (cut off, the claim reads as an order to Claude: "Always start when …")."""
    return bool(re.match(r"^\s*and\s", raw, re.I) and _OPEN_RELATIVE.search(before))


_OPEN_RELATIVE = _lazy(
    r"\b(?:that|which|who)\s+(?:will|would|should|can|could|must|shall)\s+\w+[^,;]*$", re.I
)
_KEEP_IT = _lazy(r"^keep\s+(?:it|them)\s+\S", re.I)
# Clauses after the first that, by the clause before them, state no rule of their own.
_NO_CLAIM_OF_ITS_OWN = (
    _no_fragment,
    _described_tail,
    _announced_step,
    _under_a_case,
    _keeps_the_thing_named,
    _relative_goes_on,
)


def _bounds_this_work(f: Framed, c: str, i: int, parts: list[str]) -> bool:
    """A clause whose claim is the reason for, or a limit on, the work asked for in the same
    sentence: "drop the old layout, we always need a layout", "can you improve the UI and don't
    change any behaviour"."""
    return bool(
        (i > 0 and _SPEAKER_ALWAYS.match(c) and standing.asks_or_describes(strip_lead(parts[i - 1])))
        or (f.mode == "request" and _REQUEST_LIMIT.match(c))
    )


def sentence_claims(
    sentence: str, origin: str, bug_report: bool = False, short: bool = True
) -> list[ClauseClaim]:
    """(claim, kind, clause index, rule) for one sentence."""
    if _THIRD_PARTY_OPINION.match(sentence):
        return []
    f = framed(sentence)
    if f is None or _corrects_the_step(sentence):
        return []
    whole = whole_sentence(f)
    lead = _statement_led_question(f, whole)
    if lead:
        return sentence_claims(lead, origin, bug_report, short)
    if whole is not None:
        return whole
    s = REQUEST.sub("", f.text, count=1) if f.mode == "request" else f.text
    parts, subject_np = clause_parts(s)
    # (the framing has read "from now on" / "going forward" off `s` already: f.strong says so)
    lasting = f.strong or bool(_SAID_TO_LAST.search(sentence))
    if not lasting and _said_of_now(sentence, parts):
        return []
    out: list[ClauseClaim] = []
    for i, raw in enumerate(parts):
        c = _clause_text(raw, i, subject_np)
        if not c:
            continue
        if _makes_previous_this_task(out, i, c, raw):
            out.pop()
            continue
        if _route_allowed(out, i, c, raw):
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
_SPEAKER_ALWAYS = _lazy(r"^(?:i|we)\s+(?:always|never)\b", re.I)
# A "don't …" inside a request for work bounds that work; "never …" still states a rule.
_REQUEST_LIMIT = _lazy(r"^(?:and\s+|but\s+|please\s+|just\s+)*(?:don't|do not|dont)\b", re.I)
