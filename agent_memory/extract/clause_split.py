"""A sentence cut into the clauses the rules read: clauses run on into each other with no
mark between cut apart, a leading purpose or condition folded into the rule after it, and the
noun phrase the first clause is about (what a later "it"/"they" names)."""

from __future__ import annotations

import re

from agent_memory.extract.mode import AUX, INNER_AFTERTHOUGHT, WH
from agent_memory.extract.text import clauses, strip_lead, words
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

LEADING_PURPOSE = _lazy(
    r"(?:for|in)\s+(?!this\b|these\b|that\b|it\b|now\b|example\b|instance\b)"
    r"[\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,2}",
    re.I,
)


# A clause of the user's own run on into another with no mark between ("do I copy them somewhere
# on my laptop I'm using claude code in a container", "on wsl I have a ~/fzf folder"): a subject
# and a verb that takes an object, with its object right after. After a noun the same words most
# often start a relative clause ("the data we have on X", "the tools I use daily", "the settings
# I am using here are …"), whose verb has no object of its own: the object must be there.
_INNER_SUBJECT = _lazy(
    r"(?<!\s)\s+(?=(?:(?:i'm|i am)\s+(?:currently\s+|also\s+|now\s+|still\s+|mostly\s+|mainly\s+)?"
    r"(?:using|running)|i(?:'ve| have)(?:\s+got)?|i (?:use|run)|we (?:use|run|have)|"
    r"i (?:don't|do not) (?:even )?have|we(?:'re| are) using)\s+(?P<obj>\S+))",
    re.I,
)
# A question run on after a statement without its mark ("… installed how can we do that").
_INNER_WH = _lazy(rf"(?<!\s)\s+(?={WH}\s+{AUX}\s+(?:i|we|you|u|it|this|that|they)\b)", re.I)
# Words after which a wh-clause is what is known or asked, not a new question ("I know how
# do we …", "no idea what should I …").
_ASKS_ABOUT = words(
    """
know knew idea clue wonder wondering ask asking asked understand explain show tell see check
figure decide unclear confused curious sure remember forgot learn find out
"""
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
_FRONTED_PLACE = _lazy(
    r"(?:on|in|at|inside|under|for|with|from)\s+(?:my\s+|the\s+|this\s+|our\s+)?\S+(?:\s+\S+)?",
    re.I,
)
_NEGATED = _lazy(r"\b(?:no|not|never|nothing|\w+n't)\b", re.I)


def _last_word(lead: str) -> str:
    """The word said just before a possible cut, bare of its punctuation ("" when none)."""
    words_before = lead.split()
    return words_before[-1].lower().strip(",.;:!?(") if words_before else ""


def _run_ons(part: str) -> list[str]:
    """A clause cut where another clause of the user's own runs on into it."""
    for m in INNER_AFTERTHOUGHT.finditer(part):
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
        if not prev or prev in _NO_RUN_ON_AFTER or _NEGATED.search(lead) or IF_CLAUSE.search(lead):
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


# A clause said under a case (read here before a run-on cut, and by sentence.py).
IF_CLAUSE = _lazy(r"\b(?:if|unless|in case)\b", re.I)


# A first clause that says when or where the rule after it holds ("on prod,", "during code freeze,",
# "if it's prod,", "except in the cli module,"): at most six words.
_LEADING_CONDITION = _lazy(
    r"(?:on|at|during|if|unless|except(?: in| for| on| when)?|outside(?: of)?|inside|within|under|"
    r"while|whenever|once)\s+[^\s,;:]+(?:\s+[^\s,;:]+){0,5}",
    re.I,
)
_RULE_OPENING = _lazy(r"^\s*(?:please\s+)?(?:always|never|don't|dont|do not)\b", re.I)
# (not before a rule that ends pointing back, "… skip it", "… unless I say so": read alone, such a
# clause gives no claim, and a condition after it would hide that)
_ENDS_POINTING = _lazy(r"\b(?:so|to|this|it|that|them|there|here)\W*$", re.I)


def clause_parts(s: str) -> tuple[list[str], str | None]:
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


_SUBJECT_NP = _lazy(
    r"^((?:the|our)\s+(?:[\w\ue000\ue001./-]+\s+){0,3}[\w\ue000\ue001./-]+)\s+"
    r"(?:is|are|was|were|has|have|does|do|can|will|must|should|hit|run|use|need|take|talk|call|depend|"
    r"break|fail|wipe|touch|write|read|send|hold|keep|go|\w+s)\b",
    re.I,
)
