"""Fact rules (what this repo is and uses, where things live, how things are run) and stated
failure modes ("X fails when Y"); also the subject + modal rules ("commits must be signed")."""

from __future__ import annotations

import re

from agent_memory.extract.filters import (
    _DET,
    _PATHISH,
    _PROBLEM_SUBJECT,
    _PRONOUNS,
    _QUANTIFIER,
    _STATUS_VALUE,
    _STRONG_PATH,
    _TASKY,
    _TIME_SUBJECT,
    _TRANSIENT_PREDICATE,
    _content_words,
    _vague,
)
from agent_memory.extract.rules.directives import Rule
from agent_memory.extract.text import _cap, _words
from agent_memory.transcripts.failures import FAMILIES

_SUBJECT_MODAL = re.compile(
    r"^((?:the\s+|all\s+|every\s+|each\s+|our\s+|any\s+)?[\w`\ue000\ue001./-]+(?:\s+[\w`\ue000\ue001./-]+){0,4}?)"
    r"\s+(must|should|shall|need to|needs to|have to|has to)\s+(?:(always|never|not|only)\s+)?(\S.*)",
    re.I,
)
_PROJECT_NOUNS = _words(
    """
api app application service backend frontend database db server cli library codebase repo
repository project ui build ci pipeline site website sdk package monorepo docs documentation
schema infrastructure infra cluster deployment
"""
)


def _r_subject_modal(c: str) -> Rule | None:
    m = _SUBJECT_MODAL.match(c)
    if not m:
        return None
    subject, modal, adverb, rest = (
        m.group(1),
        m.group(2).lower(),
        (m.group(3) or "").lower(),
        m.group(4),
    )
    first = subject.split()[0].lower()
    if first in _PRONOUNS or _PROBLEM_SUBJECT.search(subject) or _vague(rest):
        return None
    last = subject.split()[-1].lower()
    plural = last.endswith("s") and not last.endswith(("ss", "us", "is", "'s"))
    generic = plural or first in ("all", "every", "each", "any", "our") or last in _PROJECT_NOUNS
    if not generic:
        return None  # "the function should never return null": the spec of this task
    if modal == "must" and plural and _content_words(rest) >= 1:
        return _cap(c), "constraint"
    if adverb in ("always", "never", "not", "only") or _QUANTIFIER.search(subject + " " + rest):
        if modal in ("should",) and not adverb and not _QUANTIFIER.search(subject + " " + rest):
            return None
        return _cap(c), "constraint"
    return None


_THIS_REPO = re.compile(
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
_WE_VERB = re.compile(
    r"^we(?:'re| are)?\s+(?:(?:always|usually|generally|mostly|only|typically|normally|all|now)\s+)?"
    r"(use|using|do|deploy|deploying|build|target|targeting|follow|host|ship|store|release|publish|"
    r"work with|rely on|develop on|develop in|stick to|stick with|code in|program in|maintain|"
    r"run (?:on|in|everything|all)|test with|write (?:tests|code|everything|all)|switching to|"
    r"moving to|migrating to|standardi[sz]ing on|migrating from|moving from|switching from)\s+(\S.*)",
    re.I,
)
_OUR_X = re.compile(
    r"^our\s+([\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)\s+(is|are|uses|use|lives|live|runs|run|"
    r"goes|go|gets|get|must|should|has to|have to|needs to|need to|deploys|deploy|targets|target|"
    r"follows|follow|supports|support|requires|require|depends on|depend on|runs on|run on|"
    r"is built with|are built with|is written in|are written in|is hosted on|is deployed (?:to|on))\s+(\S.*)",
    re.I,
)
_LOCATION = re.compile(
    r"^((?:the|our|my|all(?: the)?|your)\s+)?([\w\ue000\ue001./'-]+(?:\s+[\w\ue000\ue001./'-]+){0,5}?)\s+"
    r"(?:is|are|lives?|sits?|resides?|can be found|is located|are located|is stored|are stored|is kept|"
    r"are kept|is defined|are defined|is configured|are configured|is saved|are saved|is set|are set|"
    r"is installed|are installed|is mounted|are mounted|go|goes|belong|belongs|should go|must go)\s+"
    r"(?:in|at|under|inside|within|on|from|into)\s+(\S.*)",
    re.I,
)
_LEXICON_COPULA = re.compile(
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
_NO_SUPPORT = re.compile(
    r"^((?:the\s+|our\s+)?[\w\ue000\ue001.@/+-]+(?:\s+[\w\ue000\ue001.@/+-]+){0,3}?)\s+"
    r"(?:does not|doesn't|do not|don't|cannot|can't|will not|won't)\s+(?:support|handle|understand|"
    r"allow|accept|work with|run on|work on)\s+(\S.*)",
    re.I,
)
_PORT = re.compile(
    r"^(?:the\s+)?([\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)\s+(?:runs|listens|is served|"
    r"is available|is exposed)\s+(?:on|at)\s+((?:port\s+\d{2,5}|localhost:\d{2,5}|"
    r"\S+:\d{2,5})\b.*)",
    re.I,
)
_I_USE = re.compile(
    r"^i\s+(?:usually\s+|mostly\s+|generally\s+|now\s+|mainly\s+|always\s+)?(use|work with|work on|work in|"
    r"develop on|develop in|code on|code in|work mostly in|work mainly in|mostly work in|program in)\s+(\S.*)",
    re.I,
)
_I_AM_ON = re.compile(
    r"^i(?:'m| am)\s+(?:on|running|using)\s+((?:mac ?os|macos|osx|os x|windows|wsl\d?|"
    r"linux|ubuntu|debian|fedora|arch|nixos|an? (?:mac|m1|m2|m3|m4|arm|intel)\b|"
    r"(?:zsh|bash|fish|powershell)\b).*)",
    re.I,
)
_STATUS = re.compile(
    r"^(?:the\s+)?([\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,4}?)\s+(?:is|are)\s+"
    r"(deprecated|obsolete|no longer (?:used|supported|maintained|needed)|not used anymore|legacy|"
    r"read-only|readonly|auto-?generated|generated|vendored|frozen|managed by|owned by|fragile|"
    r"experimental|unmaintained|security-sensitive|performance-critical|untested|append-only|"
    r"shared (?:with|between|by)|used by|consumed by)\b(.*)",
    re.I,
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
_CORRECTION = re.compile(
    r"^(?:it's|it is|that's|that is|it should be|that should be)\s+(\ue000\d+\ue001|[\w.@/-]+)\s*,?\s+"
    r"not\s+(\ue000\d+\ue001|[\w.@/-]+)$",
    re.I,
)
# "tests are run with `tox`", "the frontend is built with Vite and deployed to Netlify".
_PASSIVE_HOW = re.compile(
    r"^((?:the\s+|our\s+|all\s+)?[\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)\s+(?:is|are|get|gets)\s+"
    r"(?:always\s+|usually\s+|only\s+)?(?:run|built|deployed|started|installed|managed|handled|generated|"
    r"formatted|linted|tested|released|published|served|bundled|compiled|hosted|written|tracked|"
    r"versioned|checked|validated|rendered|documented|done|handled)\s+(?:with|via|by|using|through|on|to|in)\s+"
    r"(\S.*)|^((?:the\s+|our\s+|all\s+)?[\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)\s+"
    r"(?:goes|go|runs|run|happens|happen)\s+(?:through|via)\s+(\S.*)",
    re.I,
)
# "the `scripts/` folder is for one-off maintenance scripts".
_PURPOSE_OF = re.compile(
    r"^(?:the\s+|our\s+)?((?:[\w\ue000\ue001./-]+\s+){0,2}?(?:folder|directory|dir|module|package|file|"
    r"branch|bucket|repo|script|table|queue|service|\ue000\d+\ue001))\s+(?:is|are)\s+(?:only\s+)?"
    r"(?:for|used for|meant for|reserved for)\s+(\S.*)",
    re.I,
)
# "every PR needs a changelog entry", "all dates should be shown in local time".
_QUANTIFIED_RULE = re.compile(
    r"^(every|all|each|any|no)\s+((?:[\w\ue000\ue001./'-]+\s+){1,4}?)(?:needs?|requires?|must|should|"
    r"has to|have to|gets?|goes|go|belongs?|is|are)\s+(\S.*)",
    re.I,
)
# "I'd like commit messages to be in the imperative mood".
_LIKE_TO_BE = re.compile(
    r"^i(?:'d| would)?\s*(?:like|love|want|prefer)\s+((?:[\w\ue000\ue001./-]+\s+){0,3}?[\w\ue000\ue001./-]+)\s+"
    r"to\s+(be|stay|remain|use|follow|have|go|live|start|end)\s+(\S.*)",
    re.I,
)


_COPULA_CONTRAST = re.compile(
    r"^(?:(?:the|our)\s+([\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)|"
    r"((?:[\w\ue000\ue001./-]+\s+){0,2}[\w\ue000\ue001./-]+s))\s+(?:is|are|uses|use)\s+"
    r"([\w\ue000\ue001./+-]+(?:\s+[\w\ue000\ue001./+-]+){0,3}?),?\s+not\s+[\w\ue000\ue001./+-]+(?:\s+\S+){0,3}$",
    re.I,
)
_TAKES = re.compile(
    r"^(?:the|our)\s+([\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)\s+takes?\s+"
    r"(?:about|around|roughly|~|over|more than|at least|up to)?\s*\d+\s*(?:s|sec|secs|seconds|min|mins|"
    r"minutes|h|hrs|hours)\b",
    re.I,
)
_WE_ARE_ON = re.compile(r"^we(?:'re| are)\s+(?:on|running|still on)\s+(\S.*)", re.I)
_WE_SWITCHED = re.compile(
    r"^we(?:'ve| have)?\s+(?:recently\s+|just\s+|already\s+)?(?:switched|moved|migrated)\s+"
    r"(?:over\s+)?(?:from\s+\S+(?:\s+\S+){0,2}?\s+)?to\s+(\S.*)",
    re.I,
)
_FAN_OF = re.compile(r"^i(?:'m| am)\s+(not\s+)?(?:a\s+)?(?:big\s+|huge\s+)?fan of\s+(\S.*)", re.I)


# "tests run with vitest, not jest", "we format with ruff": which tool does a job here.
_TOOL_RUN = re.compile(
    r"^(?:(?:the|our|all)\s+)?(?:unit\s+|integration\s+|e2e\s+|end-to-end\s+|browser\s+)?"
    r"(?:tests?|specs?|test suite|builds?|linting|formatting|type ?checking|bundling|packages|"
    r"dependencies|deps|scripts|migrations)\s+(?:(?:are|is|get|gets)\s+)?(?:always\s+)?"
    r"(?:run|runs|go|goes|managed|installed|done|formatted|linted|bundled|built|handled)\s+"
    r"(?:with|using|via|through|on|in)\s+(?P<tool>\S.*)",
    re.I,
)
_WE_RUN_WITH = re.compile(
    r"^we\s+(?:always\s+|only\s+)?(?:run|format|lint|test|build|bundle|install|manage|type-?check|"
    r"compile|package)\b(?:\s+(?:the|our|all|any))?(?:\s+[\w-]+){0,2}?\s+(?:with|using|via|through)\s+"
    r"(?P<tool>\S.*)",
    re.I,
)


def _names_a_tool(obj: str) -> bool:
    """The object is a tool: a code span, a known tool, or a choice against another one."""
    head = obj.split()[0].strip(",.").lower() if obj.split() else ""
    known = any(head in family for family in FAMILIES)
    return not _vague(obj) and (
        head.startswith("\ue000") or known or bool(re.search(r",?\s+not\s+\S", obj, re.I))
    )


def _r_fact(c: str) -> Rule | None:
    m = _THIS_REPO.match(c)
    if m and not _vague(m.group(3)) and not _PROBLEM_SUBJECT.search(m.group(3).split(" ", 1)[0]):
        modal = re.match(r"^(?:must|should)\b", m.group(2), re.I)
        return _cap(c), "constraint" if modal else "fact"
    m = _CORRECTION.match(c)
    if m:
        return f"Use {m.group(1)}, not {m.group(2)}", "preference"
    m = _COPULA_CONTRAST.match(c)
    subject = (m.group(1) or m.group(2)) if m else ""
    if (
        m
        and subject.split()[0].lower() not in _PRONOUNS | {"things", "results", "values", "numbers"}
        and not _PROBLEM_SUBJECT.search(subject)
        and not _vague(m.group(3))
    ):
        return _cap(c), "fact"  # "file names are kebab-case, not camelCase"
    m = _TAKES.match(c)
    if m and not _PROBLEM_SUBJECT.search(m.group(1)):
        return _cap(c), "fact"
    m = _WE_ARE_ON.match(c)
    if m and not re.match(rf"^{_DET}\b", m.group(1), re.I) and re.search(r"\d|[A-Z]", m.group(1)):
        return _cap(c), "fact"
    m = _WE_SWITCHED.match(c)
    if m and not _vague(m.group(1)) and not re.match(rf"^{_DET}\b", m.group(1), re.I):
        return _cap(c), "decision"
    m = _FAN_OF.match(c)
    if m and not _vague(m.group(2)):
        return (
            f"User likes {m.group(2)}" if not m.group(1) else f"User does not like {m.group(2)}"
        ), "preference"
    m = _TOOL_RUN.match(c) or _WE_RUN_WITH.match(c)
    if m and _names_a_tool(m.group("tool")):
        return _cap(c), "fact"
    m = _PASSIVE_HOW.match(c)
    subject, how = (m.group(1) or m.group(3), m.group(2) or m.group(4)) if m else ("", "")
    if (
        m
        and subject.split()[0].lower() not in _PRONOUNS
        and not _PROBLEM_SUBJECT.search(subject)
        and not _vague(how)
    ):
        return _cap(c), "fact"
    m = _PURPOSE_OF.match(c)
    if m and not _PROBLEM_SUBJECT.search(m.group(1)) and not _vague(m.group(2)):
        return _cap(c), "fact"
    m = _QUANTIFIED_RULE.match(c)
    if m and not _vague(m.group(3)) and not _TRANSIENT_PREDICATE.search(c):
        return _cap(c), "constraint"
    m = _LIKE_TO_BE.match(c)
    if (
        m
        and not re.match(rf"^(?:{_DET}|you|it|them)\b", m.group(1), re.I)
        and not _vague(m.group(3))
    ):
        return f"{_cap(m.group(1))} should {m.group(2)} {m.group(3)}", "preference"
    m = _WE_VERB.match(c)
    if m:
        verb, obj = m.group(1).lower(), m.group(2)
        if (
            _vague(obj)
            or _TASKY.search(obj)
            or re.match(r"^(?:a|an|the)\s", obj, re.I)
            and verb in ("do", "build", "ship")
        ):
            return None
        if verb == "do" and (
            _content_words(obj) > 4
            or re.match(
                r"^(?:not|this|that|it|so|the same|have|need|want|know|think|get|see|like)\b",
                obj,
                re.I,
            )
        ):
            return None
        if re.match(
            r"^(?:a lot of|lots of|too much|too many|a bunch of|plenty of|some|way too)\b",
            obj,
            re.I,
        ):
            return None  # "we use a lot of global state": a description of the code, not a choice
        claim = re.sub(r"^we(?:'re| are)\s+using\b", "We use", c, flags=re.I)
        if verb.split(" ", 1)[0].endswith("ing") and verb != "using":
            return _cap(claim), "decision"
        return _cap(claim), "preference" if verb in (
            "use",
            "using",
            "stick to",
            "stick with",
        ) else "fact"
    m = _OUR_X.match(c)
    if (
        m
        and not _PROBLEM_SUBJECT.search(m.group(1))
        and not _TIME_SUBJECT.search(m.group(1))
        and not _vague(m.group(3))
        and not _STATUS_VALUE.match(m.group(3))
    ):
        kind = (
            "constraint"
            if m.group(2).lower() in ("must", "should", "has to", "have to", "needs to", "need to")
            else "fact"
        )
        if (
            kind == "constraint"
            or m.group(2).lower() not in ("is", "are")
            or _PATHISH.search(m.group(3))
            or _content_words(m.group(3)) <= 5
        ):
            return _cap(c), kind
    m = _LOCATION.match(c)
    if m:
        subject, obj = m.group(2), m.group(3)
        first = subject.split()[0].lower()
        if (
            first not in _PRONOUNS
            and not _PROBLEM_SUBJECT.search(subject)
            and _PATHISH.search(obj)
            and (
                m.group(1)
                or _PATHISH.search(subject)
                or _content_words(subject) <= 3
                or _STRONG_PATH.search(obj)
            )
        ):
            return _cap(c), "fact"
    m = _LEXICON_COPULA.match(c)
    value = m.group(3) if m else ""
    if (
        m
        and not _vague(value)
        and not _STATUS_VALUE.match(value)
        and not re.match(r"^to\s", value, re.I)
    ):
        return _cap(c), "constraint" if m.group(2).lower() in ("should be", "must be") else "fact"
    m = _NO_SUPPORT.match(c)
    if m and m.group(1).split()[0].lower() not in _PRONOUNS and not _vague(m.group(2)):
        return _cap(c), "fact"
    m = _PORT.match(c)
    if m and m.group(1).split()[0].lower() not in _PRONOUNS:
        return _cap(c), "fact"
    m = _I_USE.match(c)
    if m and not _vague(m.group(2)) and not _TASKY.search(m.group(2)):
        return f"User {_third_person(c[2:].strip())}", "fact"  # what the user works with
    m = _I_AM_ON.match(c)
    if m:
        return f"User is on {m.group(1)}", "fact"
    m = _STATUS.match(c)
    if (
        m
        and m.group(1).split()[0].lower() not in _PRONOUNS
        and not _PROBLEM_SUBJECT.search(m.group(1))
    ):
        return _cap(c), "fact"
    return None


_FAIL_VERBS = (
    r"fails|fail|failed|is failing|are failing|keeps failing|keep failing|always fails|breaks|break|"
    r"is broken|are broken|crashes|crash|crashed|keeps crashing|errors(?: out)?|error out|times out|"
    r"time out|timed out|hangs|hang|does not work|is flaky|are flaky|flakes|gets flaky|"
    r"doesn't work|do not work|don't work|will not (?:start|build|compile|run|work|load)|"
    r"won't (?:start|build|compile|run|work|load)|cannot (?:find|resolve|connect|load|import|start|open)|"
    r"can't (?:find|resolve|connect|load|import|start|open)|throws|raises|returns (?:a |an )?"
    r"(?:\d{3}|error|null|undefined|none|nan|empty)|segfaults|panics|leaks"
)
_FAIL_SUBJECT = re.compile(
    rf"^((?:the\s+|our\s+|my\s+)?[\w\ue000\ue001./@:-]+(?:\s+[\w\ue000\ue001./@:-]+){{0,5}}?)\s+"
    rf"(?:always\s+|still\s+|sometimes\s+|randomly\s+|often\s+)?({_FAIL_VERBS})\b\s*(.*)",
    re.I,
)
# A failure *mode* names its condition ("fails when Y", "breaks on Windows"); "fails with <msg>"
# alone is a report of the moment, usually followed by "any idea?".
_FAIL_COND = re.compile(
    r"^(?:when|whenever|if|on|because|due to|unless|after|before|since|under|while|during|"
    r"as soon as|every time|on every|for (?:all|every|any))\b",
    re.I,
)
_FAIL_COND_LATER = re.compile(
    r"\b(?:when|whenever|if|on|because|unless|since|every time)\s+\S", re.I
)
_ERRORISH_WORD = re.compile(
    r"\b(?:errors?|exceptions?|crash(?:es)?|failures?|fails?|warnings?|timeouts?|problems?|issues?|bugs?|"
    r"\d{3}|\w+(?:Error|Exception)|denied|refused|conflicts?|mismatch|segfaults?|panics?|limits?|oom|"
    r"out of memory|undefined|null|nan|not found|cors|ssl|tls|certificate|deadlocks?|leaks?)\b",
    re.I,
)
_KEEP_GETTING = re.compile(
    r"^i\s+(?:keep|kept|always|constantly|repeatedly|still|often)\s+(?:getting|get|"
    r"seeing|see|hitting|hit|running into|run into)\s+(\S.*)",
    re.I,
)
_GETTING_WHEN = re.compile(
    r"^(?:i(?:'m| am)\s+(?:still\s+|always\s+|constantly\s+)?(?:getting|seeing|hitting)|i\s+(?:always\s+|usually\s+|"
    r"often\s+|sometimes\s+)?get)\s+(\S.*?\b(?:error|errors|exception|crash|failure|warning|timeout|"
    r"segfault)s?\b.*?\b(?:when|whenever|if|after|while|on every|every time)\b\s+\S.*)",
    re.I,
)
_KNOWN_ISSUE = re.compile(
    r"^there(?:'s| is) a (?:known )?(?:bug|issue|problem|limitation) (?:with|in) (.+?) "
    r"(?:when|where|if|that) (.+)",
    re.I,
)


def _r_failure(c: str, *, bug_report: bool = False) -> Rule | None:
    m = _KEEP_GETTING.match(c) or _GETTING_WHEN.match(c)
    if (
        m
        and not _vague(m.group(1))
        and _content_words(m.group(1)) >= 2
        and _ERRORISH_WORD.search(m.group(1))
    ):
        return _cap(re.sub(r"^(?:this|these|the|those)\s+", "", m.group(1), flags=re.I)), "failure"
    m = _KNOWN_ISSUE.match(c)
    if m:
        return _cap(f"{m.group(1)} fails when {m.group(2)}"), "failure"
    m = _FAIL_SUBJECT.match(c)
    if m and not bug_report:  # "X crashes when I click save, please fix": a task, not a memory
        subject, rest = m.group(1), m.group(3)
        first = subject.split()[0].lower()
        if first in _PRONOUNS or first in ("nothing", "everything", "something", "stuff"):
            return None
        later = rest.lower().startswith("with ") and _FAIL_COND_LATER.search(rest)
        if rest and (_FAIL_COND.match(rest) or later):
            return _cap(c), "failure"
    return None
