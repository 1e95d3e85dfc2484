"""Fact rules (what this repo is and uses, where things live, how things are run) and stated
failure modes ("X fails when Y"); also the subject + modal rules ("commits must be signed")."""

from __future__ import annotations

import re

from agent_memory.extract.filters import (
    CONSEQUENCE_SUBJECT,
    DET,
    PATHISH,
    PROBLEM_SUBJECT,
    PRONOUNS,
    QUANTIFIER,
    STATUS_VALUE,
    STRONG_PATH,
    TASK_NOUNS,
    TASKY,
    TIME_SUBJECT,
    TRANSIENT_PREDICATE,
    WORK_CHECK,
    content_words,
    product_spec,
    vague,
)
from agent_memory.extract.rules.base import Clause, ClauseRule, cap
from agent_memory.extract.text import words
from agent_memory.model.tool_families import KNOWN_TOOLS
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

_SUBJECT_MODAL = _lazy(
    r"^((?:the\s+|all\s+|every\s+|each\s+|our\s+|any\s+)?[\w`\ue000\ue001./-]+(?:\s+[\w`\ue000\ue001./-]+){0,4}?)"
    r"\s+(must|should|shall|need to|needs to|have to|has to)\s+(?:(always|never|not|only)\s+)?(\S.*)",
    re.I,
)
_PROJECT_NOUNS = words(
    """
api app application service backend frontend database db server cli library codebase repo
repository project ui build ci pipeline site website sdk package monorepo docs documentation
schema infrastructure infra cluster deployment
"""
)


# "all three X", "all the X", "all of them": a counted or definite set, the things at hand.
_THINGS_AT_HAND = _lazy(
    r"^(?:all|both|each)\s+(?:of\b|the\b|\d|two\b|three\b|four\b|five\b)", re.I
)


def _subject_modal_ok(m: re.Match[str], c: Clause) -> bool:
    if _task_subject(m.group(1)):
        return False
    subject, modal, adverb, rest = (
        m.group(1),
        m.group(2).lower(),
        (m.group(3) or "").lower(),
        m.group(4),
    )
    first = subject.split()[0].lower()
    if first in PRONOUNS or PROBLEM_SUBJECT.search(subject) or vague(rest):
        return False
    if CONSEQUENCE_SUBJECT.search(subject) or WORK_CHECK.search(rest):
        return False  # "each machine would need to …", "all features must be fully operational"
    if (
        _THINGS_AT_HAND.match(subject)
        or re.search(r"\b(?:visible|shown|displayed)\b", rest, re.I)
        or re.search(r"\b(?:here|there)\b", subject, re.I)
    ):
        return False  # "all four services need to …", "the env vars should be visible in …"
    last = subject.split()[-1].lower()
    plural = last.endswith("s") and not last.endswith(("ss", "us", "is", "'s"))
    generic = plural or first in ("all", "every", "each", "any", "our") or last in _PROJECT_NOUNS
    if not generic:
        return False  # "the function should never return null": the spec of this task
    if product_spec(subject, rest):
        return False  # "bookings should never overlap": the product's spec
    if modal == "must" and plural and content_words(rest) >= 1:
        return True
    return adverb in ("always", "never", "not", "only") or bool(
        QUANTIFIER.search(f"{subject} {rest}")
    )


_THIS_REPO = _lazy(
    r"^(?:this|the|our)\s+(?:[\w-]+\s+)?(repo|repository|project|codebase|code base|app|application|service|package|library|"
    r"lib|tool|module|site|website|monorepo|cli|api|server|backend|frontend|bot|plugin|extension|workspace|"
    r"ci|pipeline)"
    r"\s+((?:is|are)\s+(?:a|an)\s+(?!mess\b|disaster\b|nightmare\b|joke\b|pain\b|bit\b|lot\b|little\b|"
    r"good\b|great\b|bad\b|nice\b|big\b|huge\b|small\b|simple\b|quick\b|toy\b|work in progress\b)|"
    r"(?:is|are)\s+(?:written|built|based|deployed|hosted|used|meant|designed|intended|managed|"
    r"structured|organi[sz]ed|published|released|licensed|packaged|distributed)\s+|"
    r"manages|uses|contains|handles|provides|targets|runs (?:on|in|as)|depends on|builds|deploys|"
    r"requires|supports|implements|wraps|exposes|generates|talks to|lives|only|does not|must|"
    r"should (?:always|never|not)|has no)(.*)",
    re.I,
)
_WE_VERB = _lazy(
    r"^we(?:'re| are)?\s+(?:(?:always|usually|generally|mostly|only|typically|normally|all|now)\s+)?"
    r"(use|using|do|deploy|deploying|build|target|targeting|follow|host|ship|store|release|publish|"
    r"work with|rely on|develop on|develop in|stick to|stick with|code in|program in|maintain|"
    r"run (?:on|in|everything|all)|test with|write (?:tests|code|everything|all)|switching to|"
    r"moving to|migrating to|standardi[sz]ing on|migrating from|moving from|switching from)\s+(\S.*)",
    re.I,
)
_OUR_X = _lazy(
    r"^our\s+([\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)\s+(is|are|uses|use|lives|live|runs|run|"
    r"goes|go|gets|get|must|should|has to|have to|needs to|need to|deploys|deploy|targets|target|"
    r"follows|follow|supports|support|requires|require|depends on|depend on|runs on|run on|"
    r"is built with|are built with|is written in|are written in|is hosted on|is deployed (?:to|on))\s+(\S.*)",
    re.I,
)
_LOCATION = _lazy(
    r"^((?:the|our|my|all(?: the)?|your)\s+)?([\w\ue000\ue001./'-]+(?:\s+[\w\ue000\ue001./'-]+){0,5}?)\s+"
    r"(?:is|are|lives?|sits?|resides?|can be found|is located|are located|is stored|are stored|is kept|"
    r"are kept|is defined|are defined|is configured|are configured|is saved|are saved|is set|are set|"
    r"is installed|are installed|is mounted|are mounted|go|goes|belong|belongs|should go|must go)\s+"
    r"(?:in|at|under|inside|within|on|from|into)\s+(\S.*)",
    re.I,
)
_LEXICON_COPULA = _lazy(
    r"^(?:the|our|my)\s+((?:[\w-]+\s+){0,3}?(?:branch|port|python version|node version|version|package manager|"
    r"database|db|test runner|linter|formatter|language|framework|stack|registry|region|endpoint|"
    r"hostname|domain|url|base url|convention|style guide|ci|deploy target|runtime|os|operating system|"
    r"shell|editor|server|host|"
    r"ide|naming convention|license|base image|docker image|cloud|provider|orm|build tool|bundler|"
    r"target|toolchain|compiler|interpreter|monorepo tool|queue|cache|auth provider|command|"
    r"entry ?point|script|key|api key|access key|token|password|secret|account|username|user name|"
    r"client id|project id|org|organi[sz]ation|bucket|cluster|namespace|tenant))"
    r"(?:\s+(?:in|for|on)\s+[\w-]+)?\s+"
    r"(is|are|uses|should be|must be|is not|are not|is always|is never)\s+(\S.*)",
    re.I,
)
_NO_SUPPORT = _lazy(
    r"^((?:the\s+|our\s+)?[\w\ue000\ue001.@/+-]+(?:\s+[\w\ue000\ue001.@/+-]+){0,3}?)\s+"
    r"(?:does not|doesn't|do not|don't|cannot|can't|will not|won't)\s+(?:support|handle|understand|"
    r"allow|accept|work with|run on|work on)\s+(\S.*)",
    re.I,
)
_PORT = _lazy(
    r"^(?:the\s+)?([\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)\s+(?:runs|listens|is served|"
    r"is available|is exposed)\s+(?:on|at)\s+((?:port\s+\d{2,5}|localhost:\d{2,5}|"
    r"\S+:\d{2,5})\b.*)",
    re.I,
)
_I_USE = _lazy(
    r"^i\s+(?:usually\s+|mostly\s+|generally\s+|now\s+|mainly\s+|always\s+)?(use|work with|work on|work in|"
    r"develop on|develop in|code on|code in|work mostly in|work mainly in|mostly work in|program in)\s+(\S.*)",
    re.I,
)
# The system ends where a run-on sentence starts its next thought ("I'm on a mac, when I set
# the layout to …": the rest is the problem being reported, not the system).
_I_AM_ON = _lazy(
    r"^i(?:'m| am)\s+(?:on|running|using)\s+((?:mac ?os|macos|osx|os x|windows|wsl\d?|"
    r"linux|ubuntu|debian|fedora|arch|nixos|an? (?:mac|m1|m2|m3|m4|arm|intel)\b|"
    r"(?:zsh|bash|fish|powershell)\b)"
    r"(?:(?![,;]|\s+(?:when|whenever|if|and|but|so|because|where|which|while)\b).)*)",
    re.I,
)
_STATUS = _lazy(
    r"^(?:the\s+)?([\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,4}?)\s+(?:is|are)\s+"
    r"(deprecated|obsolete|no longer (?:used|supported|maintained|needed)|not used anymore|legacy|"
    r"read-only|readonly|auto-?generated|generated|vendored|frozen|managed by|owned by|fragile|"
    r"experimental|unmaintained|security-sensitive|performance-critical|untested|append-only|"
    r"shared (?:with|between|by)|used by|consumed by)\b(.*)",
    re.I,
)


# "i use nativewind you can remove all custom style sheets": with no comma the request runs on
# from the fact; it starts where "you" is asked to do something.
_NEXT_THOUGHT = _lazy(
    r"\s+(?:you|u)\s+(?:can|could|should|need|must|have to|will|may)\s|"
    r"\s+(?:can|could|would|will)\s+(?:you|u)\s|\s+(?:please|pls|plz|pelase)\s|"
    # "I use fish so keep the commands compatible": the instruction the fact is the reason for
    r",?\s+so\s+(?:please\s+)?(?:don't|dont|do not|never|always|keep|make|use|avoid|give|write|"
    r"show|only|stick|assume|prefer)\b",
    re.I,
)


def _until_next_thought(text: str) -> str:
    """'use nativewind you can remove …' -> 'use nativewind'; 'use please to build' is no run-on
    (the request word is the object: the Please build tool), and the fact keeps its object."""
    head = _NEXT_THOUGHT.split(text, 1)[0]
    return head if len(head.split()) > 1 else text


def _used_ok(used: str) -> bool:
    """What the user says they use names a thing of their setup (read up to a run-on's turn)."""
    return (
        not vague(used)
        and not TASKY.search(used)
        # "I use the app every day": the thing at hand, not a tool the user works with
        and not (re.match(rf"^{DET}\b", used, re.I) and not _names_outside_the_task(used))
    )


def _third_person(text: str) -> str:
    """'usually use vim' -> 'usually uses vim': the user's habits as a memory line."""
    words = text.split(" ")
    for i, word in enumerate(words):
        low = word.lower()
        if low in ("usually", "mostly", "generally", "now", "mainly", "always", "also"):
            continue
        words[i] = word + ("es" if low.endswith(("sh", "ch", "s", "x")) else "s")
        break
    return " ".join(words)


# "it's `pnpm test`, not `npm test`": a correction naming the right command or tool.
_CORRECTION = _lazy(
    r"^(?:it's|it is|that's|that is|it should be|that should be)\s+(\ue000\d+\ue001|[\w.@/-]+)\s*,?\s+"
    r"not\s+(\ue000\d+\ue001|[\w.@/-]+)$",
    re.I,
)
# "tests are run with `tox`", "the frontend is built with Vite and deployed to Netlify".
_PASSIVE_HOW = _lazy(
    r"^((?:the\s+|our\s+|all\s+)?[\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)\s+(?:is|are|get|gets)\s+"
    r"(?:always\s+|usually\s+|only\s+)?(?:run|built|deployed|started|installed|managed|handled|generated|"
    r"formatted|linted|tested|released|published|served|bundled|compiled|hosted|written|tracked|"
    r"versioned|checked|validated|rendered|documented|done|handled)\s+(?:with|via|by|using|through|on|to|in)\s+"
    r"(\S.*)|^((?:the\s+|our\s+|all\s+)?[\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)\s+"
    r"(?:goes|go|runs|run|happens|happen)\s+(?:through|via)\s+(\S.*)",
    re.I,
)
# "the `scripts/` folder is for one-off maintenance scripts".
_PURPOSE_OF = _lazy(
    r"^(?:the\s+|our\s+)?((?:[\w\ue000\ue001./-]+\s+){0,2}?(?:folder|directory|dir|module|package|file|"
    r"branch|bucket|repo|script|table|queue|service|\ue000\d+\ue001))\s+(?:is|are)\s+(?:only\s+)?"
    r"(?:for|used for|meant for|reserved for)\s+(\S.*)",
    re.I,
)
# "every PR needs a changelog entry", "all dates should be shown in local time".
_QUANTIFIED_RULE = _lazy(
    r"^(every|all|each|any|no)\s+((?:[\w\ue000\ue001./'-]+\s+){1,4}?)(?:needs?|requires?|must|should|"
    r"has to|have to|gets?|goes|go|belongs?|is|are)\s+(\S.*)",
    re.I,
)
_QUANTIFIED_MODAL = _lazy(r"(?:needs?|requires?|must|should|has to|have to)\b", re.I)
# "I'd like commit messages to be in the imperative mood".
_LIKE_TO_BE = _lazy(
    r"^i(?:'d| would)?\s*(?:like|love|want|prefer)\s+((?:[\w\ue000\ue001./-]+\s+){0,3}?[\w\ue000\ue001./-]+)\s+"
    r"to\s+(be|stay|remain|use|follow|have|go|live|start|end)\s+(\S.*)",
    re.I,
)


_COPULA_CONTRAST = _lazy(
    r"^(?:(?:the|our)\s+([\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)|"
    r"((?:[\w\ue000\ue001./-]+\s+){0,2}[\w\ue000\ue001./-]+s))\s+(?:is|are|uses|use)\s+"
    r"([\w\ue000\ue001./+-]+(?:\s+[\w\ue000\ue001./+-]+){0,3}?),?\s+not\s+[\w\ue000\ue001./+-]+(?:\s+\S+){0,3}$",
    re.I,
)
_TAKES = _lazy(
    r"^(?:the|our)\s+([\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)\s+takes?\s+"
    r"(?:about|around|roughly|~|over|more than|at least|up to)?\s*\d+\s*(?:s|sec|secs|seconds|min|mins|"
    r"minutes|h|hrs|hours)\b",
    re.I,
)
_WE_ARE_ON = _lazy(r"^we(?:'re| are)\s+(?:on|running|still on)\s+(\S.*)", re.I)
_WE_SWITCHED = _lazy(
    r"^we(?:'ve| have)?\s+(?:recently\s+|just\s+|already\s+)?(?:switched|moved|migrated)\s+"
    r"(?:over\s+)?(?:from\s+\S+(?:\s+\S+){0,2}?\s+)?to\s+(\S.*)",
    re.I,
)
_FAN_OF = _lazy(r"^i(?:'m| am)\s+(not\s+)?(?:a\s+)?(?:big\s+|huge\s+)?fan of\s+(\S.*)", re.I)


# "tests run with vitest, not jest", "we format with ruff": which tool does a job here.
_TOOL_RUN = _lazy(
    r"^(?:(?:the|our|all)\s+)?(?:unit\s+|integration\s+|e2e\s+|end-to-end\s+|browser\s+)?"
    r"(?:tests?|specs?|test suite|builds?|linting|formatting|type ?checking|bundling|packages|"
    r"dependencies|deps|scripts|migrations)\s+(?:(?:are|is|get|gets)\s+)?(?:always\s+)?"
    r"(?:run|runs|go|goes|managed|installed|done|formatted|linted|bundled|built|handled)\s+"
    r"(?:with|using|via|through|on|in)\s+(?P<tool>\S.*)",
    re.I,
)
_WE_RUN_WITH = _lazy(
    r"^we\s+(?:always\s+|only\s+)?(?:run|format|lint|test|build|bundle|install|manage|type-?check|"
    r"compile|package)\b(?:\s+(?:the|our|all|any))?(?:\s+[\w-]+){0,2}?\s+(?:with|using|via|through)\s+"
    r"(?P<tool>\S.*)",
    re.I,
)


def _names_a_tool(obj: str) -> bool:
    """The object is a tool: a code span, a known tool, or a choice against another one."""
    head = obj.split()[0].strip(",.").lower() if obj.split() else ""
    return not vague(obj) and (
        head.startswith("\ue000")
        or head in KNOWN_TOOLS
        or bool(re.search(r",?\s+not\s+\S", obj, re.I))
    )


def _this_repo_ok(m: re.Match[str], c: Clause) -> bool:
    if re.search(r"\b(?:original|orignal|old|reference|other)\b", m.group(0)[:40], re.I):
        return False  # "the original site uses X": the thing being copied in this task
    return not vague(m.group(3)) and not PROBLEM_SUBJECT.search(m.group(3).split(" ", 1)[0])


# "not only (… but also)": a correlative that adds a case. Searched, so a match may not start
# inside a run of blanks: tried from every blank of a run, "\s+" rescanned the rest of it
# (quadratic); the run's first blank finds the same match.
_NOT_ONLY = _lazy(r"(?<!\s),?\s+not\s+only\b", re.I)


def _copula_contrast_ok(m: re.Match[str], c: Clause) -> bool:
    subject = m.group(1) or m.group(2)
    if _NOT_ONLY.search(m.group(0)):
        return False  # "X is shown right not only in A but also in B": adds, contrasts nothing
    return (
        # "its is a command not a skill": "it's", typed in a hurry, a correction of the moment
        subject.split()[0].lower()
        not in PRONOUNS | {"its", "things", "results", "values", "numbers"}
        and not PROBLEM_SUBJECT.search(subject)
        and not vague(m.group(3))
    )


def _passive_how_ok(m: re.Match[str], c: Clause) -> bool:
    subject, how = m.group(1) or m.group(3), m.group(2) or m.group(4)
    if re.search(r"\b(?:me|us|you|your|it|to|sure|[a-z]+ly|having|allows?)\b", subject, re.I):
        return False  # "allows me to go through X", "your task is to go through": no thing named
    return (
        subject.split()[0].lower() not in PRONOUNS
        and not PROBLEM_SUBJECT.search(subject)
        and not vague(how)
    )


_FOR_A_WIDGET = _lazy(
    r"^(?:[\w-]+\s+){0,2}(?:"
    + "|".join(sorted(TASK_NOUNS))
    + r")\s+for\b|\bfor\s+(?:a|an|the|our|each)\s+(?:[\w-]+\s+){0,2}(?:"
    + "|".join(sorted(TASK_NOUNS))
    + r")\b",
    re.I,
)


def _we_verb(m: re.Match[str], c: Clause) -> str | None:
    verb, obj = m.group(1).lower(), m.group(2)
    if (
        vague(obj)
        or TASKY.search(obj)
        or (re.match(r"^(?:a|an|the)\s", obj, re.I) and verb in ("do", "build", "ship"))
    ):
        return None
    if verb == "do" and (
        content_words(obj) > 4
        or re.match(
            r"^(?:not|this|that|it|so|the same|have|need|want|know|think|get|see|like)\b", obj, re.I
        )
    ):
        return None
    if re.match(
        r"^(?:a lot of|lots of|too much|too many|a bunch of|plenty of|some|way too)\b", obj, re.I
    ):
        return None  # "we use a lot of global state": a description of the code, not a choice
    if re.search(r"\bor (?:any|some) other\b|\bor (?:something|similar)\b", obj, re.I):
        return None  # "we use X or any other model": no choice made
    if re.match(r"^[a-z]+[A-Z]\w*\b", obj) or (
        _FOR_A_WIDGET.search(obj) and not QUANTIFIER.search(obj)
    ):
        return None  # "we use fooBar", "we use tabs for the side panel": the code being edited
    # "we are using shadcn so please use: …": the fact, then this turn's request
    said = _RUN_ON_ASK.split(c.text, 1)[0]
    return cap(re.sub(r"^we(?:'re| are)\s+using\b", "We use", said, flags=re.I))


def _we_verb_kind(m: re.Match[str], c: Clause) -> str:
    verb = m.group(1).lower()
    if verb.split(" ", 1)[0].endswith("ing") and verb != "using":
        return "decision"
    # "we are using yarn" describes the project as it is (a fact); "we use X" states the choice
    return "preference" if verb in ("use", "stick to", "stick with") else "fact"


_MODALS = ("must", "should", "has to", "have to", "needs to", "need to")


def _our_x_ok(m: re.Match[str], c: Clause) -> bool:
    if (
        PROBLEM_SUBJECT.search(m.group(1))
        or TIME_SUBJECT.search(m.group(1))
        or vague(m.group(3))
        or STATUS_VALUE.match(m.group(3))
    ):
        return False
    verb = m.group(2).lower()
    if verb in ("is", "are") and re.match(r"^[a-z]+ing\b", m.group(3), re.I):
        return False  # "our layout is creating issues": what happens now, not a fact that stays
    return (
        verb in _MODALS
        or verb not in ("is", "are")
        or bool(PATHISH.search(m.group(3)))
        or content_words(m.group(3)) <= 5
    )


# "in the form X", "in the same way": the object of "in/on" names a manner, not a place.
_NOT_A_PLACE = _lazy(
    r"^(?:(?:the|a|an|this|that|same|following|usual|right|wrong|correct)\s+)*"
    r"(?:form|forms|format|formats|shape|style|way|ways|manner|case|cases|order|sense|terms|mode|"
    r"state|process|middle|context|range|loop|progress|sync|line|charge|place|touch|general)\b",
    re.I,
)


def _quantifier_ok(m: re.Match[str]) -> bool:
    """ "any X is Y" describes (a rule says "any X must/needs"); "no we need …", "no still there
    is …" open with the interjection, not the determiner."""
    quantifier, subject = m.group(1).lower(), m.group(2).split()[0].lower()
    if subject in ("we", "i", "you"):
        return False  # "all we need in X is Y": this task's requirement
    verb = m.group(0)[len(m.group(1)) + 1 + len(m.group(2)) :].split()[0].lower()
    if quantifier in ("any", "all", "every", "each") and verb in (
        "is",
        "are",
        "gets",
        "get",
        "goes",
        "go",
    ):
        return False  # "all Scala libs are cross-versioned", "all of them are there": describes
    if re.match(
        r"^(?:of|\d+|two|three|four|five|six|these|those|the|make|it|markers?)\b", subject
    ) or (quantifier == "no" and re.search(r"\b(?:is|are)\s+\w+ed\b", m.group(0), re.I)):
        return False  # "all three projects need to …", "all of the files": the things at hand
    return not (quantifier == "no" and (subject in PRONOUNS or subject in _ADVERB_AFTER_NO))


_ADVERB_AFTER_NO = frozenset(
    ("still", "not", "just", "really", "actually", "then", "wait", "way", "no", "nope")
)


_THING_AT_HAND = _lazy(
    r"^(?:file|files|data|doc|document|folder|image|script|output|log|logs|result|results|"
    r"screenshot|csv|spreadsheet|export|dump|report|zip|archive)$",
    re.I,
)


# "the file", "the .har file", "the csv": the one file this task works on, named by its kind.
_AT_HAND_SUBJECT = _lazy(
    r"^(?:\S*\.\w{1,5}\s+)?(?:file|files|data|doc|document|folder|image|script|output|log|logs|"
    r"result|results|screenshot|csv|spreadsheet|export|dump|report|zip|archive|\.\w{1,5})$",
    re.I,
)


# "there is a jdk in ~/.jdks/temurin-21", "we have a dotfiles repo in ~/.dots", "on wsl I have a
# ~/fzf folder": where a thing of the user's lives, said in passing.
_HAVE_AT = _lazy(
    r"^(?:(?:on|in)\s+[\w.-]+\s+)?(there(?:'s| is)|the is|(?:i|we)\s+(?:have|keep|'ve got|have got))\s+"
    r"(a|an|my|our)\s+((?:[\w.+-]+\s+){0,3}?(?:[\w.+-]+))\s+(?:in|at|under)\s+"
    r"([~./\\\ue000]\S*|[A-Za-z]:\\\S*|\S*/\S*)(?:\s+(?:tbh|btw|too|also|already)\b.*)?\s*$|"
    r"^(?:(?:on|in)\s+([\w.-]+)\s+)?(?:i|we)\s+(?:have|keep)\s+(?:a|an)\s+([~./]\S+)\s+(folder|directory|dir|repo)\s*$",
    re.I,
)


def _have_at(m: re.Match[str], c: Clause) -> str | None:
    if m.group(6):  # "on wsl I have a ~/fzf folder"
        where = f" on {m.group(5)}" if m.group(5) else ""
        return f"User has a {m.group(7).lower()} at {m.group(6)}{where}"
    thing, where = m.group(3), m.group(4)
    if (
        vague(thing)
        or _AT_HAND_SUBJECT.match(thing)
        or PROBLEM_SUBJECT.search(thing)
        or re.search(r"\b(?:downloads?|desktop|tmp|temp)\b", where, re.I)
    ):
        return None  # "there is a file in ~/Downloads": the thing of this task
    if m.group(1).lower().startswith(("there", "the is")):  # "the is a jdk in …": a typo of it
        return f"There is {m.group(2).lower()} {thing} in {where}"
    if m.group(2).lower() in ("my", "our"):
        return f"User keeps {thing} in {where}"
    return f"User has {m.group(2).lower()} {thing} in {where}"


# "X is in Y so check and analyse it": the place, then this turn's request (not part of it).
_RUN_ON_ASK = _lazy(
    r"\s+(?:so|and|then|and then)\s+(?:please\s+)?(?:check|read|analy[sz]e|look|review|use|go|open|"
    r"see|study|understand|follow|refer)\b",
    re.I,
)


# A location's subject opened by a word that is no part of a noun phrase: a verb asking for
# work or a hypothesis ("assume the script is in ~/bin", "check where we are in plan.md") or an
# interjection ("sorry the right one is in X"). A noun phrase starts with its article, its
# adjective or its noun, and holds no second determiner, wh-word or pronoun after that.
_NOT_NOUN_LEAD = words(
    "assume suppose imagine say evaluate check see verify confirm find look read open ensure "
    "make sorry sorrry oops ok okay yes no so then and but also now please"
)
_INNER_CLAUSE = _lazy(r"\s(?:the|a|an|this|that|where|what|how|which|we|you|i|it)\b", re.I)
_TOLD = _lazy(r"^(?:remember|note|fyi|btw)\W+(?:that\s+)?", re.I)


def _noun_subject(subject: str) -> bool:
    said = _TOLD.sub("", subject.strip())
    if not said:
        return False
    first = said.split()[0].lower()
    if first in ("the", "our", "my", "your", "all", "this", "these", "those"):
        return True
    return first not in _NOT_NOUN_LEAD and not _INNER_CLAUSE.search(said)


def _location_ok(m: re.Match[str], c: Clause) -> bool:
    subject, obj = m.group(2), m.group(3)
    if re.match(r"^(?:for|in|on|at|with|when|if)\b", subject, re.I):
        return False  # "for documents that are inside X, mark them …": a step, not a place
    if not m.group(1) and not _noun_subject(subject):
        return False  # "assume the script is in ~/bin", "evaluate where we are in plan.md"
    if re.fullmatch(r"(?:\w+\s+)?ones?", subject.strip(), re.I):
        return False  # "the right one is in X": the file at hand, picked among those just shown
    return (
        not _NOT_A_PLACE.match(obj)
        and not re.match(r"^(?:a|an|the same|one)\s+(?:\S+\s+){0,2}?branch\b", obj, re.I)
        and not re.search(r"\b(?:will|would|'ll|gonna|can|could)$", subject, re.I)
        # "the file is at C:\\…\\data.csv": the one thing this task works on, said by its kind
        and not (m.group(1) and _AT_HAND_SUBJECT.match(subject))
        and not re.search(r"\b(?:downloads?|desktop)\b", obj, re.I)
        and not re.search(r"\b(?:sure|it|live)\b", subject, re.I)
        and subject.split()[0].lower() not in PRONOUNS
        and not PROBLEM_SUBJECT.search(subject)
        and bool(PATHISH.search(obj))
        and bool(
            m.group(1)
            or PATHISH.search(subject)
            or content_words(subject) <= 3
            or STRONG_PATH.search(obj)
        )
    )


def _lexicon_ok(m: re.Match[str], c: Clause) -> bool:
    value = m.group(3)
    return (
        not vague(value)
        and not STATUS_VALUE.match(value)
        and not re.match(r"^to\s", value, re.I)
        # "the server is started", "my account is not showing X", "the command is not
        # sufficiently detailed", "the output is too long": how things are this minute
        and not re.match(
            r"^(?:not\s+)?(?:(?:too|very|quite|so|\w+ly)\s+)?[a-z]+(?:ing|ed|able|ible)\b", value, re.I
        )
        and not re.match(r"^(?:not\s+)?too\s+\w+", value, re.I)
    )


def _subject_ok(m: re.Match[str], c: Clause) -> bool:
    return m.group(1).split()[0].lower() not in PRONOUNS


_GENERIC_ACRONYMS = frozenset(
    [
        "api",
        "ui",
        "ux",
        "db",
        "cli",
        "css",
        "html",
        "json",
        "url",
        "app",
        "sdk",
        "server",
        "backend",
        "frontend",
        "site",
    ]
)


# "the fish shell", "the kitty terminal": a known tool's name before the kind of tool it is names
# that tool in lower case too; "the markdown editor", "the login shell" name a part of something.
_TOOL_NAMES = (
    "bash|zsh|fish|nushell|nu|powershell|pwsh|tcsh|ksh|kitty|alacritty|wezterm|iterm2?|ghostty|"
    "warp|konsole|foot|tilix|vim|neovim|nvim|emacs|helix|zed|vscode|cursor|sublime|nano|kakoune|"
    "firefox|chrome|chromium|safari|brave|vivaldi|arc|i3|sway|hyprland|bspwm|awesome|dwm|niri|"
    "dolphin|nautilus|thunar|ranger|yazi|tmux|zellij|screen|"
    + "|".join(sorted(re.escape(t) for t in KNOWN_TOOLS))
)
_TOOL_OF_KIND = _lazy(
    rf"^(?:{_TOOL_NAMES})\s+(?:shell|terminal|editor|browser|ide|window manager|file manager|"
    r"package manager|launcher|compositor|multiplexer)\b",
    re.I,
)


def _names_outside_the_task(text: str) -> bool:
    """Names something outside the task: a code span, a capitalised or dotted name, a known tool."""
    head = text.split()[0].strip(",.").lower() if text.split() else ""
    bare = re.sub(rf"^{DET}\s+", "", text.strip(), flags=re.I)
    if bare.lower() in _GENERIC_ACRONYMS:
        return False  # "the API", "the UI": a part of the thing being built
    return bool(
        re.search(r"\ue000|\w\.\w|(?<!^)\b[A-Z]|^[A-Z]\w*[A-Z0-9]", text.strip())
        or (not re.match(rf"^{DET}\b", text, re.I) and re.match(r"^[A-Z]", text))
        or head in KNOWN_TOOLS
        or _TOOL_OF_KIND.match(bare)
    )


def _code_state(m: re.Match[str], c: Clause) -> bool:
    """ "the parser does not handle nested quotes": how the code is today, which the task at hand
    changes. Only a named thing's limits last ("Safari does not support Web Bluetooth")."""
    return _names_outside_the_task(m.group(1))


def _task_subject(subject: str) -> bool:
    last = subject.split()[-1].lower().strip(",.") if subject.split() else ""
    return last in TASK_NOUNS


def _fan_of(m: re.Match[str], c: Clause) -> str:
    return f"User likes {m.group(2)}" if not m.group(1) else f"User does not like {m.group(2)}"


_F = "fact"
RULES: tuple[ClauseRule, ...] = (
    ClauseRule(
        "this_repo",
        _F,
        _THIS_REPO,
        "{c}",
        lambda m, c: "constraint" if re.match(r"^(?:must|should)\b", m.group(2), re.I) else "fact",
        _this_repo_ok,
    ),
    ClauseRule(
        "correction",
        _F,
        _CORRECTION,
        "Use {1}, not {2}",
        "preference",
        # "it's clearly not great", "it's still not empty": an adverb, not the right name
        lambda m, c: (
            not re.match(
                r"^(?:\w+ly|still|just|really|already|yet|also|even|probably|definitely|so|too|very)$",
                m.group(1),
                re.I,
            )
        ),
    ),
    ClauseRule("copula_contrast", _F, _COPULA_CONTRAST, "{c}", "fact", _copula_contrast_ok),
    ClauseRule(
        "takes", _F, _TAKES, "{c}", "fact", lambda m, c: not PROBLEM_SUBJECT.search(m.group(1))
    ),
    ClauseRule(
        "we_are_on",
        _F,
        _WE_ARE_ON,
        "{c}",
        "fact",
        lambda m, c: (
            not re.match(rf"^{DET}\b", m.group(1), re.I)
            and bool(re.search(r"\d|[A-Z]", m.group(1)))
        ),
    ),
    ClauseRule(
        "switched",
        _F,
        _WE_SWITCHED,
        "{c}",
        "decision",
        lambda m, c: not vague(m.group(1)) and not re.match(rf"^{DET}\b", m.group(1), re.I),
    ),
    ClauseRule(
        "fan_of",
        _F,
        _FAN_OF,
        _fan_of,
        "preference",
        # "not a huge fan of the presets": the thing on the table; a taste names a kind of thing.
        # "… of users needing to go here, then there": a place in what is on the screen now
        lambda m, c: (
            not vague(m.group(2))
            and not (re.match(rf"^{DET}\b", m.group(2), re.I) and not _names_outside_the_task(m.group(2)))
            and not re.search(r"\b(?:here|there)\b", m.group(2), re.I)
        ),
    ),
    ClauseRule(
        "tool_run", _F, _TOOL_RUN, "{c}", "fact", lambda m, c: _names_a_tool(m.group("tool"))
    ),
    ClauseRule(
        "tool_run", _F, _WE_RUN_WITH, "{c}", "fact", lambda m, c: _names_a_tool(m.group("tool"))
    ),
    ClauseRule("passive_how", _F, _PASSIVE_HOW, "{c}", "fact", _passive_how_ok),
    ClauseRule(
        "purpose_of",
        _F,
        _PURPOSE_OF,
        "{c}",
        "fact",
        lambda m, c: not PROBLEM_SUBJECT.search(m.group(1)) and not vague(m.group(2)),
    ),
    ClauseRule(
        "quantified",
        _F,
        _QUANTIFIED_RULE,
        "{c}",
        "constraint",
        lambda m, c: (
            not vague(m.group(3))
            and not TRANSIENT_PREDICATE.search(c.text)
            and not _task_subject(m.group(2))
            and not CONSEQUENCE_SUBJECT.search(m.group(2))
            # "all features must be integrated and fully operational"
            and not WORK_CHECK.search(c.text)
            and _quantifier_ok(m)
            # "all invoices have to include the tax id": a modal rule on a thing of the product is its spec
            and not (
                _QUANTIFIED_MODAL.match(m.string, m.end(2)) and product_spec(m.group(2), m.group(3))
            )
        ),
    ),
    ClauseRule(
        "like_to_be",
        _F,
        _LIKE_TO_BE,
        lambda m, c: f"{cap(m.group(1))} should {m.group(2)} {m.group(3)}",
        "preference",
        lambda m, c: (
            not re.match(rf"^(?:{DET}|you|it|them|there|to)\b", m.group(1), re.I)
            and not vague(m.group(3))
            and not re.search(r"\b(?:have|show|look|display|be on)\b", m.group(0), re.I)
            and bool(re.search(r"\b(?:always|never|by default|every|all)\b", m.group(0), re.I))
        ),
    ),
    ClauseRule("we_verb", _F, _WE_VERB, _we_verb, _we_verb_kind),
    ClauseRule(
        "our_x",
        _F,
        _OUR_X,
        "{c}",
        lambda m, c: "constraint" if m.group(2).lower() in _MODALS else "fact",
        _our_x_ok,
    ),
    ClauseRule(
        "location",
        _F,
        _LOCATION,
        lambda m, c: _RUN_ON_ASK.split(c.text, 1)[0],
        "fact",
        _location_ok,
    ),
    ClauseRule("have_at", _F, _HAVE_AT, _have_at, "fact"),
    ClauseRule(
        "lexicon",
        _F,
        _LEXICON_COPULA,
        "{c}",
        lambda m, c: "constraint" if m.group(2).lower() in ("should be", "must be") else "fact",
        _lexicon_ok,
    ),
    ClauseRule(
        "no_support",
        _F,
        _NO_SUPPORT,
        "{c}",
        "fact",
        lambda m, c: (
            _subject_ok(m, c)
            and not vague(m.group(2))
            and _code_state(m, c)
            # "R2 does not support natively, but …": an adverb, the thing it lacks was cut off
            and not re.fullmatch(r"\w+ly", m.group(2).strip(" .,;"))
        ),
    ),
    ClauseRule("port", _F, _PORT, "{c}", "fact", _subject_ok),
    ClauseRule(
        "user_uses",
        _F,
        _I_USE,
        # what the user works with, up to where a run-on sentence turns to this turn's request
        lambda m, c: f"User {_third_person(_until_next_thought(c.text[2:].strip()))}",
        "fact",
        lambda m, c: _used_ok(_NEXT_THOUGHT.split(m.group(2), 1)[0]),
    ),
    ClauseRule("user_on", _F, _I_AM_ON, "User is on {1}", "fact"),
    ClauseRule(
        "status",
        _F,
        _STATUS,
        "{c}",
        "fact",
        lambda m, c: _subject_ok(m, c) and not PROBLEM_SUBJECT.search(m.group(1)),
    ),
    ClauseRule(
        "subject_modal", "directive", _SUBJECT_MODAL, "{c}", "constraint", _subject_modal_ok
    ),
)


_FAIL_VERBS = (
    r"fails|fail|failed|is failing|are failing|keeps failing|keep failing|always fails|breaks|break|"
    r"is broken|are broken|crashes|crash|crashed|keeps crashing|errors(?: out)?|error out|times out|"
    r"time out|timed out|hangs|hang|does not work|is flaky|are flaky|flakes|gets flaky|"
    r"doesn't work|do not work|don't work|will not (?:start|build|compile|run|work|load)|"
    r"won't (?:start|build|compile|run|work|load)|cannot (?:find|resolve|connect|load|import|start|open)|"
    r"can't (?:find|resolve|connect|load|import|start|open)|throws|raises|returns (?:a |an )?"
    r"(?:\d{3}|error|null|undefined|none|nan|empty)|segfaults|panics|leaks"
)
_FAIL_SUBJECT = _lazy(
    rf"^((?:the\s+|our\s+|my\s+)?[\w\ue000\ue001./@:-]+(?:\s+[\w\ue000\ue001./@:-]+){{0,5}}?)\s+"
    rf"(?:always\s+|still\s+|sometimes\s+|randomly\s+|often\s+)?({_FAIL_VERBS})\b\s*(.*)",
    re.I,
)
# A failure *mode* names its condition ("fails when Y", "breaks on Windows"); "fails with <msg>"
# alone is a report of the moment, usually followed by "any idea?".
_FAIL_COND = _lazy(
    r"^(?:when|whenever|if|on|because|due to|unless|after|before|since|under|while|during|"
    r"as soon as|every time|on every|for (?:all|every|any))\b",
    re.I,
)
_FAIL_COND_LATER = _lazy(
    r"\b(?:when|whenever|if|on|because|unless|since|every time)\s+\S", re.I
)
_ERRORISH_WORD = _lazy(
    r"\b(?:errors?|exceptions?|crash(?:es)?|failures?|fails?|warnings?|timeouts?|problems?|issues?|bugs?|"
    r"\d{3}|\w+(?:Error|Exception)|denied|refused|conflicts?|mismatch|segfaults?|panics?|limits?|oom|"
    r"out of memory|undefined|null|nan|not found|cors|ssl|tls|certificate|deadlocks?|leaks?)\b",
    re.I,
)
_KEEP_GETTING = _lazy(
    r"^i\s+(?:keep|kept|always|constantly|repeatedly|still|often)\s+(?:getting|get|"
    r"seeing|see|hitting|hit|running into|run into)\s+(\S.*)",
    re.I,
)
_GETTING_WHEN = _lazy(
    r"^(?:i(?:'m| am)\s+(?:still\s+|always\s+|constantly\s+)?(?:getting|seeing|hitting)|i\s+(?:always\s+|usually\s+|"
    r"often\s+|sometimes\s+)?get)\s+(\S.*?\b(?:error|errors|exception|crash|failure|warning|timeout|"
    r"segfault)s?\b.*?\b(?:when|whenever|if|after|while|on every|every time)\b\s+\S.*)",
    re.I,
)
_KNOWN_ISSUE = _lazy(
    r"^there(?:'s| is) a (?:known )?(?:bug|issue|problem|limitation) (?:with|in) (.+?) "
    r"(?:when|where|if|that) (.+)",
    re.I,
)


# "I get this error when …", "I'm getting "internal error" when I try …": the error pasted or
# quoted in this turn, a report of the moment (a failure mode names its error in words).
_ERROR_AT_HAND = _lazy(r"^(?:this|these|that|those|the following|following|[\"'\u201c])", re.I)


def _keep_getting_ok(m: re.Match[str], c: Clause) -> bool:
    return (
        not _ERROR_AT_HAND.match(m.group(1))
        and not vague(m.group(1))
        and content_words(m.group(1)) >= 2
        and bool(_ERRORISH_WORD.search(m.group(1)))
    )


def _keep_getting(m: re.Match[str], c: Clause) -> str:
    return cap(re.sub(r"^(?:this|these|the|those)\s+", "", m.group(1), flags=re.I))


# A clause opened by one of these words has no subject before the failure verb: the words up to
# it are a request ("before that review X as it is failing …"), not the thing that fails.
_CLAUSE_OPENERS = words(
    "before after then so because since when whenever if while once until also and but please"
)


def _failure_mode_ok(m: re.Match[str], c: Clause) -> bool:
    if c.bug_report:  # "X crashes when I click save, please fix": a task, not a memory
        return False
    first = m.group(1).split()[0].lower()
    if first in PRONOUNS or first in ("nothing", "everything", "something", "stuff"):
        return False
    if first in _CLAUSE_OPENERS:
        return False  # "before that review the setup script as it is failing when …": no subject
    rest = m.group(3)
    later = rest.lower().startswith("with ") and _FAIL_COND_LATER.search(rest)
    # A failure mode lasts when its condition is the environment (a variable, a version, a
    # platform, a named tool); "the API returns 500 when the payload is empty" is a bug to fix.
    return bool(rest and (_FAIL_COND.match(rest) or later)) and bool(
        _ENVIRONMENT.search(rest) or _names_outside_the_task(m.group(1))
    )


_ENVIRONMENT = _lazy(
    r"\ue000|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{2,}\b|\d+(?:\.\d+)*|"
    r"\b(?i:windows|mac ?os|macos|linux|wsl\d?|arm|arm64|x86|m1|m2|m3|docker|container|ci|node|"
    r"python|offline|vpn|proxy|sudo|root|unset|not set|missing|installed|upgraded|version|"
    r"locale|timezone|network|firewall|ssh|kernel|driver|gpu|cuda|safari|firefox|chrome|ios|"
    r"android|wifi|battery|sleep|reboot|restart|cold start|cache|env|environment)\b",
)


FAILURE_RULES: tuple[ClauseRule, ...] = (
    ClauseRule("stated", "failure", _KEEP_GETTING, _keep_getting, "failure", _keep_getting_ok),
    ClauseRule("stated", "failure", _GETTING_WHEN, _keep_getting, "failure", _keep_getting_ok),
    ClauseRule(
        "stated",
        "failure",
        _KNOWN_ISSUE,
        lambda m, c: cap(f"{m.group(1)} fails when {m.group(2)}"),
        "failure",
    ),
    ClauseRule("stated", "failure", _FAIL_SUBJECT, "{c}", "failure", _failure_mode_ok),
)
