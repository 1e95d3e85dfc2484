"""Preference and decision rules: prefer/I'd rather/I like, use X (instead of Y), only …,
let's/we'll/we decided …, we should + a policy verb."""

from __future__ import annotations

import re

from agent_memory.extract.canonical import same_family, strip_scope
from agent_memory.extract.filters import (
    DET,
    IMPERATIVES,
    POLICY_VERBS,
    PROBLEM_SUBJECT,
    PRONOUNS,
    QUANTIFIER,
    REACTION_OBJECT,
    TASKY,
    content_words,
    vague,
)
from agent_memory.extract.rules.base import VETO, Clause, ClauseRule, cap
from agent_memory.extract.rules.directives import KEEP_RULE
from agent_memory.extract.text import words
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

_ONLY = _lazy(
    r"^only\s+(use|run|commit|push|deploy|edit|modify|touch|change|target|support|install|"
    r"import|write|test|merge|release)\s+(\S.*)",
    re.I,
)
_USE = _lazy(
    r"^(?:(?:please|just|always)\s+)*(use|using)\s+(?!case\b|of\b)(only\s+)?(\S.*)", re.I
)
_STICK = _lazy(
    r"^(?:please\s+)?(stick to|stick with|default to|favou?r|lean on|rely on|standardi[sz]e on|"
    r"go with|opt for)\s+(\S.*)",
    re.I,
)
_CONTRAST = _lazy(
    r"\b(?:instead of|rather than|in place of)\b|,\s*not\s+\S|"
    # "404 Not Found", "is not defined": a state in a pasted message, no second choice
    r"\bnot\s+(?!found\b|available\b|defined\b|set\b|supported\b|allowed\b|installed\b|"
    r"recognized\b|a function\b)\S+\s*$|\bover\s+\S",
    re.I,
)
_PREFER = _lazy(
    r"^(?:(?:i|we)(?:'d|\s+would)?\s+)?(?:(?:really|strongly|generally|much|usually|also|always)\s+)*"
    r"(?:prefers?|prefere)\s+(?:(it\s+|that\s+)?(?:if|when|that)\s+)?(\S.*)",
    re.I,
)
_RATHER = _lazy(
    r"^(?:i|we)(?:'d| would)\s+(?:much\s+)?rather\s+(?:you\s+|we\s+)?(not\s+)?(\S.*)", re.I
)
# "I'd rather you didn't push", "I'd rather we used rust": a wish in the past form, not the verb
# the claim "Prefer to …" needs; "I'd rather stick with what we have": nothing named
_NOT_A_BASE_VERB = _lazy(
    r"^(?:did|didn't|didnt|were|weren't|was|wasn't|had|hadn't|could|would|not\b|"
    r"(?!\w*eed\b|embed\b|shred\b|wed\b)[a-z]+ed\b)",
    re.I,
)
_LIGHT_VERB = _lazy(r"^(?:stick (?:with|to)|keep|go with|use|do|have|leave)\s+(.*)$", re.I)


def _rather_ok(m: re.Match[str], c: Clause) -> bool:
    body = m.group(2).strip()
    if vague(body) or _NOT_A_BASE_VERB.match(body) or len(body.split()) < 2:
        return False
    light = _LIGHT_VERB.match(body)
    return not (light and vague(light.group(1)))


_LIKE = _lazy(
    r"^i\s+(?:really\s+|very much\s+|much\s+|actually\s+|definitely\s+|do\s+|also\s+)*"
    r"(like|love|enjoy|hate|dislike|can't stand|cannot stand)\s+(\S.*)",
    re.I,
)
_DETERMINED = _lazy(r"^(?:a|an|the|this|that|these|those|my|your|our|some|any)\b", re.I)
_CONTRAST_WORD = _lazy(r"\b(?:instead of|rather than|not|over)\s", re.I)
_SHORT_CONTRAST = _lazy(
    r"^([\w.@/\ue000\ue001-]+(?:\s+[\w.@/\ue000\ue001-]+){0,2})\s*,?\s+(?:instead of|rather than|not|over)\s+"
    r"([\w.@/\ue000\ue001-]+(?:\s+[\w.@/\ue000\ue001-]+){0,2})$",
    re.I,
)
_CONTRAST_VERBS = _lazy(
    r"^(?:please\s+)?(?:use|prefer|pick|choose|go with|stick (?:with|to)|switch to|rely on|install|"
    r"import|call|run|write (?:\w+ )?(?:in|with)|test with|build with|format with|lint with)\b",
    re.I,
)

# Complaints carry the rule they want kept: "you keep forgetting to run the linter".
INSTEAD_FIRST = _lazy(
    r"^instead of\s+([^,]{2,60}),\s*(use|prefer|run|call|go with|rely on|write)\s+(\S.*)", re.I
)
_IMPORTANT = _lazy(
    r"^it(?:'s| is)\s+(?:really\s+|very\s+)?(?:important|essential|critical|crucial|vital|mandatory|"
    r"required|a must)\s+(?:that|to)\s+(\S.*)",
    re.I,
)
_INDENT = _lazy(
    r"^(?:use\s+)?(\d+[- ]spaces?|tabs|spaces)\b(?:\s+for\s+indent\w*)?(?:,?\s+not\s+\S+)?(?:\s+please)?$",
    re.I,
)
_POLICY_ALL = _lazy(
    r"^(?:please\s+)?(write|name|format|put|store|keep|prefix|suffix|document|type|log|wrap|sign|tag|"
    r"annotate|declare)\s+(?:all|every|each|any)\s+(?!the\b|these\b|those\b|my\b|your\b|of\b)(\S.*)",
    re.I,
)


# Words that name a thing of the task, not a tool: "use data from the last season" is a step.
_GENERIC_NOUNS = words(
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
    return bool(head) and head not in _GENERIC_NOUNS and head not in PRONOUNS


def _contrast_applies(m: re.Match[str], c: Clause) -> bool:
    return bool(_CONTRAST.search(c.text)) and not TASKY.search(c.text)


def _contrast_at_hand(m: re.Match[str], c: Clause) -> bool:
    """ "write it in TypeScript, not JavaScript", "use a dict instead of a list here": a choice
    about the thing at hand."""
    if not _contrast_applies(m, c):
        return False
    obj = c.text[m.end() :].strip()
    if re.search(r"\b(?:it|them|this|that)\b", m.group(0), re.I) or re.match(
        r"^(?:it|them|this|that)\b", obj, re.I
    ):
        return True
    return bool(_DETERMINED.match(obj)) and bool(
        re.search(r"\b(?:instead of|rather than|over|not)\s+(?:a|an|the|this|that)\b", obj, re.I)
    )


# "use ruff for linting", "uv for dependencies": a tool for a kind of job (a gerund or a plural,
# no determiner), which stays; "use X for the new page" is this task's.
_FOR_A_JOB = _lazy(
    r"^[\w\ue000\ue001.@/+-]+(?:\s+[\w\ue000\ue001.@/+-]+)?\s+for\s+(?:all\s+|every\s+|any\s+)?"
    r"(?!(?:the|a|an|this|that|these|those|it|them|me|us|now|my|your|our|example|instance|each|"
    r"one|now|today|testing purposes)\b)(?:[\w-]+\s+){0,2}[\w-]+"
    # ... and the kind of file it holds in: "tabs for indentation in the Makefile"
    r"(?:\s+in\s+(?:the\s+|all\s+|every\s+|any\s+)?[\w.-]+(?:\s+files?)?)?"
    r"\s*(?:please|pls)?\s*$",
    re.I,
)


# "use tabs in Makefiles", "use snake_case in Python files": scoped to a kind of file (a plural
# with no determiner), a standing rule; "use X in the new page" stays this task's.
_IN_A_KIND_OF_FILE = _lazy(
    r"\s(?:in|inside|for)\s+(?:all\s+|every\s+|any\s+)?"
    r"(?!(?:the|these|those|this|that|my|your|our|its|their|new|old|other)\b)"
    r"(?:[\w.-]+\s+)?[\w.-]*[a-z]s\s*$",
    re.I,
)


# "use black to format the sources", "use poetry to manage the dependencies": a named tool for
# one of the standing jobs of a project; "use sed to fix the typo" is this task's step.
_TO_A_JOB = _lazy(
    r"^[\w\ue000\ue001.@/+-]+\s+to\s+(?:format|lint|manage|install|build|test|run|deploy|"
    r"bundle|type-?check|compile|package|publish|release|serve|host)\s+"
    r"(?!(?:this|that|these|those|it|them)\b)(?:[\w.-]+\s+){0,3}[\w.-]+\s*$",
    re.I,
)


# "use uv as the package manager", "use Postgres as our database": a tool given its standing role
# in the project (what kind of tool it is), as "use X for Y" names its job
_AS_A_ROLE = _lazy(
    r"^(?!(?:this|that|these|those|it|them|the|a|an|some|mock|fake|dummy|test)\b)[\w\ue000\ue001.@/+-]+(?:\s+[\w\ue000\ue001.@/+-]+)?"
    r"\s+as\s+(?:the|our|my|a|an)\s+(?:default\s+|main\s+|primary\s+|only\s+)?(?:[\w-]+\s+){0,2}"
    r"(?:manager|runner|framework|formatter|linter|database|db|orm|bundler|library|language|editor|shell|"
    r"terminal|runtime|provider|platform|registry|checker|engine|toolchain|build tool|test tool|"
    r"backend|frontend|server|broker|queue|cache|store)\s*$",
    re.I,
)
_PURPOSE_CLAUSE = _lazy(r"\s+to\s+(?=[a-z]+\b)", re.I)


_STYLE_OF = _lazy(
    r"^(?!the\b|this\b|that\b|my\b|your\b|a\b|an\b)[\w-]+(?:\s+(?:and\s+)?[\w-]+){0,3}\s+"
    r"(?:commit messages|messages|variable names|names|comments|docstrings|titles|branch names|"
    r"pr titles|pr descriptions|log messages|error messages)\s*$",
    re.I,
)


def _use(m: re.Match[str], c: Clause) -> str | None:
    obj, only = m.group(3), bool(m.group(2))
    if vague(obj) or TASKY.search(obj):
        return None
    if not toolish(obj) and c.origin != "rejection" and not only:
        return None
    # "use subagents to make changes to each file": the quantifier is the task's, inside the
    # purpose; "use prettier to format all files" names a standing job (_TO_A_JOB below)
    scope = _PURPOSE_CLAUSE.split(obj, 1)[0] if not _TO_A_JOB.search(obj) else obj
    strong = only or bool(QUANTIFIER.search(scope)) or c.origin == "rejection"
    strong = strong or bool(re.search(r"\b(?:all|every|any)\s+future\b", obj, re.I))
    if re.match(r"^all (?:the|of the|our|my|these|those)\b", obj, re.I):
        return None  # "use all the tools we have in that folder": this task's material
    strong = strong or bool(_IN_A_KIND_OF_FILE.search(obj))
    # A bare "use X" (no "always", "only", "for all …") picks what this step uses ("use gl",
    # "use joinWithAnd instead", "using vim.pack"); only a scoped or rejected one is a rule.
    tool, _, purpose = obj.partition(" for ")
    # "use src/x.svelte for the parse error": a file of this project for a problem of this task
    job = _FOR_A_JOB.search(obj) and not re.search(r"\S/\S", tool)
    job = bool(job and not PROBLEM_SUBJECT.search(purpose)) or bool(
        toolish(obj) and _TO_A_JOB.search(obj)
    )
    # "use short and concise commit messages", "use descriptive variable names": a style of
    # writing that stays (a kind of text, qualified), not a thing of this task
    job = job or bool(_STYLE_OF.match(obj)) or bool(_AS_A_ROLE.match(obj))
    if (strong or job) and not re.search(r"\binstead\s*$", obj, re.I):
        return ("Use only " if only else "Use ") + obj
    return None


def _prefer(m: re.Match[str], c: Clause) -> str | None:
    rest = m.group(2)
    if (
        REACTION_OBJECT.match(rest)
        or re.match(r"^(?:a lot|much|way more)\b", rest, re.I)
        or re.search(r"\b(?:it|this|them)\b", rest, re.I)
        # "that" points at the option at hand, except as a relative ("answers that start …")
        or re.search(r"(?:^|\b(?:of|with|to|for|over|than|like|on|in)\s+)that\b", rest, re.I)
    ):
        return None  # "I prefer the inline version", "prefer a lot to …": the option at hand
    if re.match(r"^not\b", rest, re.I):
        return f"Prefer {rest}"
    neg = re.match(
        r"^(?:you|we|claude)\s+(?:did not|didn't|do not|don't|would not|wouldn't|never)\s+(.*)",
        rest,
        re.I,
    )
    if neg:
        return f"Don't {neg.group(1)}"
    if m.group(1) or re.match(r"^(?:you|we)\b", rest, re.I):
        return f"Prefer that {rest}"
    return f"Prefer {rest}"


_LIKE_NOT_A_THING = _lazy(
    r"^(?:how|what|when|where|the way|it when|that you|to|the (?:idea|approach|suggestion|"
    r"plan|concept|design|proposal|option|solution|version|change|result)s?)\b",
    re.I,
)


def _like(m: re.Match[str], c: Clause) -> str | None:
    verb, obj = m.group(1).lower(), m.group(2)
    if vague(obj) or _LIKE_NOT_A_THING.match(obj) or REACTION_OBJECT.match(obj):
        return None
    if re.search(r"\b(?:better|more|most|best)\s*$", obj, re.I):
        return None  # "I think I like TS better": the pick between two options at hand
    if re.match(r"^(?:https?://|www\.|\ue000)", obj) and content_words(obj) <= 2:
        return None  # "I really like https://…": a site to take after in this task
    if verb in ("hate", "dislike", "can't stand", "cannot stand"):
        return f"User does not like {obj}"
    return f"User likes {obj}"


_DATED = _lazy(
    r"\d|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:today|tomorrow|yesterday)\b", re.I
)


# A verb after the first word: the left side is a clause about its subject ("project uses pnpm"),
# which the fact rules read whole; "Use project uses pnpm, not npm" would garble it.
_SAYS_OF_A_SUBJECT = _lazy(r"\s(?:uses|runs|needs|requires|has|wants|prefers|relies)\s", re.I)


def _short_contrast(m: re.Match[str], c: Clause) -> str | None:
    """ "pnpm, not npm", "tabs over spaces": two short names, one chosen over the other."""
    core = strip_scope(c.text)
    pair = _SHORT_CONTRAST.match(core)
    if not pair:
        return None
    loose = (
        c.origin == "rejection"
        or "," in core
        or re.search(r"\b(?:instead of|rather than)\b", core, re.I)
        or same_family(pair.group(1), pair.group(2))
    )
    first = pair.group(1).split()[0].lower()
    if re.search(r"\b(?:is|are|was|were)$", pair.group(1), re.I):
        return None  # "audio is not free": a statement, not a choice of tools
    if _SAYS_OF_A_SUBJECT.search(pair.group(1)):
        return None  # "(this) project uses pnpm, not npm": a subject's fact, not two names
    if (
        not loose
        or first in PRONOUNS | IMPERATIVES | {"using", "is", "are", "be"}
        or _DETERMINED.match(pair.group(1))
        or PROBLEM_SUBJECT.search(c.text)
        # a number is a value; a code span is not
        or _DATED.search(re.sub("\ue000\\d+\ue001", "`code`", c.text))
    ):
        return None
    return f"Use {core}"


_EDIT_VERBS = frozenset(
    {"change", "edit", "modify", "touch", "commit", "push", "test", "write", "run", "deploy"}
)
# "commit messages must be in English", "code comments should always be written in German":
# the language a kind of text the work leaves behind is written in.
_WRITTEN_IN = _lazy(
    r"^(?:(?:all|the|our|my|any)\s+)?(?P<what>(?:git\s+)?commit messages?|(?:code\s+)?comments|"
    r"docs|documentation|docstrings|variable names|identifiers|(?:pr|pull request) (?:titles|"
    r"descriptions)|readmes?|log messages|changelogs?)\s+(?:must|should|have to|need to|are to)\s+"
    r"(?:always\s+)?be\s+(?:written\s+)?in\s+(?P<lang>English|German|French|Spanish|Italian|"
    r"Portuguese|Dutch|Polish|Russian|Chinese|Japanese|Korean|Swedish|Norwegian|Danish|Finnish|"
    r"Czech|Turkish|Ukrainian|Vietnamese|Indonesian|Hindi|Arabic|Hebrew|Greek)\s*[.!]*$",
    re.I,
)
# "commit messages should not contain emojis", "PR descriptions should be brief": how a kind
# of text the work leaves behind is written — said of the kind (a plural, no "the"), it holds
# for every one; "the commit message should mention #12" is this commit's. An action on the
# ones at hand ("comments should be removed") is this turn's work.
# ("I want PR titles to start with the ticket number": the same, said as the user's wish)
_ARTIFACT_RULE = _lazy(
    r"^(?P<wish>i\s+(?:want|would like|'d like)\s+)?(?:(?:all|our|my|any|your)\s+)?"
    r"(?P<what>(?:git\s+)?commit messages|commits|(?:code\s+)?comments|"
    r"docstrings|(?:pr|pull request) (?:titles|descriptions)|pull requests|prs|branch names)\s+"
    r"(?P<modal>(?(wish)to|(?:must|should|shall|have to|need to)))\s+(?P<neg>not\s+|never\s+)?(?:always\s+)?"
    r"(?!be\s+(?:removed|deleted|added|updated|fixed|changed|moved|renamed|cleaned|reverted|"
    r"rewritten|translated|squashed now|pushed|merged|created|made|done|checked|reviewed)\b)"
    r"(?P<rest>[a-z][\w' ,-]{3,80}?)\s*[.!]*$",
    re.I,
)


def _artifact_rule(m: re.Match[str], c: Clause) -> str | None:
    if vague(m.group("rest")):
        return None
    if m.group("wish"):  # said as a wish, kept as the rule it asks for
        should = "should not" if m.group("neg") else "should"
        return cap(f"{m.group('what')} {should} {m.group('rest')}")
    return cap(m.group(0).rstrip(" .!"))


def _artifact_kind(m: re.Match[str], c: Clause) -> str:
    """A ban or a must is a constraint; a "should" is how the user likes them."""
    ruled = m.group("modal").lower() not in ("should", "to")
    return "constraint" if m.group("neg") or ruled else "preference"


# "call me Sam": how the user wants to be addressed (a name, said with its capital).
_CALL_ME = _lazy(r"^(?:(?:please|just|you can)\s+)?call me\s+(?P<name>[A-Z][\w'-]{1,24})\s*[.!]*$")
_P = "preference"
PREFERENCE_RULES: tuple[ClauseRule, ...] = (
    ClauseRule(
        "written_in",
        _P,
        _WRITTEN_IN,
        lambda m, c: f"Write {m.group('what').lower()} in {m.group('lang').capitalize()}",
        "preference",
    ),
    ClauseRule("call_me", _P, _CALL_ME, "Call the user {1}", "preference"),
    ClauseRule("artifact_rule", _P, _ARTIFACT_RULE, _artifact_rule, _artifact_kind),
    ClauseRule(
        "instead",
        _P,
        INSTEAD_FIRST,
        lambda m, c: f"{m.group(2).capitalize()} {m.group(3)} instead of {m.group(1)}",
        "preference",
        lambda m, c: not vague(m.group(3)),
    ),
    ClauseRule(
        "important",
        _P,
        _IMPORTANT,
        "Important: {1}",
        "constraint",
        lambda m, c: not vague(m.group(1)),
    ),
    ClauseRule(
        "indent",
        _P,
        _INDENT,
        lambda m, c: cap(c.text if c.text.lower().startswith("use ") else f"use {c.text}"),
        "preference",
    ),
    ClauseRule(
        "policy_all",
        _P,
        _POLICY_ALL,
        "{c}",
        "constraint",
        lambda m, c: (
            not vague(m.group(2))
            and not re.search(r"\b(?:exactly|as (?:they|it) (?:are|is))\b", m.group(2), re.I)
        ),
    ),
    ClauseRule(
        "only",
        _P,
        _ONLY,
        "Only {1} {2}",
        "constraint",
        # "only change the css": the scope of this edit, not a standing rule
        lambda m, c: (
            not vague(m.group(2))
            and not (
                m.group(1).lower() in _EDIT_VERBS
                and re.match(rf"^(?:with\s+|on\s+|in\s+)?{DET}\b", m.group(2), re.I)
                and not QUANTIFIER.search(m.group(2))
            )
        ),
    ),
    ClauseRule("contrast_at_hand", _P, _CONTRAST_VERBS, "", VETO, _contrast_at_hand),
    ClauseRule(
        "contrast",
        _P,
        _CONTRAST_VERBS,
        lambda m, c: cap(re.sub(r"^using\b", "Use", c.text, flags=re.I)),
        "preference",
        _contrast_applies,
    ),
    ClauseRule(
        "stick",
        _P,
        _STICK,
        "{c}",
        "preference",
        lambda m, c: (
            not vague(m.group(2))
            and not TASKY.search(m.group(2))
            # "go with option A", "go with 2", "stick to the topic": a pick offered this turn
            and not re.match(
                r"^(?:(?:options?|choices?|numbers?)\s+\S+|#?\d{1,2}\b|[a-z]\s*[.!]*$|the topic|the plan)",
                m.group(2),
                re.I,
            )
        ),
    ),
    ClauseRule("use", _P, _USE, _use, "preference"),
    ClauseRule("prefer", _P, _PREFER, _prefer, "preference", lambda m, c: not vague(m.group(2))),
    ClauseRule(
        "rather",
        _P,
        _RATHER,
        lambda m, c: f"Prefer not to {m.group(2)}" if m.group(1) else f"Prefer to {m.group(2)}",
        "preference",
        _rather_ok,
    ),
    ClauseRule("like", _P, _LIKE, _like, "preference"),
    ClauseRule("short_contrast", _P, _CONTRAST_WORD, _short_contrast, "preference", search=True),
)


_DECISION_VERBS = (
    r"use|go with|go for|do|stick with|stick to|stay with|switch to|switch over to|move to|migrate to|"
    r"adopt|pick|choose|keep|make it|make them|make everything|target|standardi[sz]e on|rely on|avoid|"
    r"support|drop|prefer|rewrite (?:it |this |everything )?in|port (?:it |this )?to|"
    r"convert (?:it |this |everything )?to|base (?:it|this) on|build (?:it|this) (?:with|on)"
)
_LETS = _lazy(
    rf"^(?:let's|lets|let us|let(?=\s+use\b))\s+(?:(?:also|just|now|then|definitely|actually|probably|"
    rf"rather|instead)\s+)*({_DECISION_VERBS})\s+(\S.*)",
    re.I,
)
_WILL = _lazy(
    r"^(?:we|i)(?:'ll| will| are going to|'re going to| am going to|'m going to|'d| would| want to|"
    r" wanna)\s+(?:(?:rather|prefer to|like to|love to|want to|just|also|probably|definitely)\s+)*"
    r"(use|go with|stick with|stick to|switch to|move to|migrate to|adopt|standardi[sz]e on|target|"
    r"rely on|prefer)\s+(\S.*)",
    re.I,
)
_HEDGE = _lazy(r"\b(?:probably|maybe|might|perhaps|likely|possibly)\b", re.I)
_UNSURE = _lazy(r"\bnot (?:sure|certain)\b|\bunsure\b|\bi (?:don't|do not|dont) know\b", re.I)
_DECIDED = _lazy(
    r"^(?:we|i)(?:'ve| have)?\s+(?:now\s+|finally\s+|already\s+)?(?:(?P<pick>picked|selected|chose|chosen)(?=\s+(?!to\b|on\b|that\b|for\b|"
    r"with\b)\S)|decided|agreed|settled|chose|chosen|opted|went)\s+(not to|against|to|on|that|for|with|)\s*(\S.*)",
    re.I,
)
_DECISION_IS = _lazy(
    r"^(?:the\s+)?(?:decision|plan going forward|rule|convention|policy)\s*(?:is|:)\s*"
    r"(?:to\s+|that\s+)?(\S.*)",
    re.I,
)
_SHOULD = _lazy(
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
_TOOL_LIST = _lazy(
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
_OPTION_PICK = _lazy(
    r"^(?:(?:options?|choices?|numbers?|items?|steps?)\s+)?(?:#?\d{1,2}|[a-z])"
    r"(?:\s*(?:,|and|&|\+|or|/)\s*(?:(?:options?|choices?|numbers?|items?|steps?)\s+)?(?:#?\d{1,2}|[a-z]))*"
    r"(?:\s+(?:first|then|too|both|only))?\s*[.!?]*$",
    re.I,
)


def _np_short(obj: str, limit: int = 4) -> bool:
    if _OPTION_PICK.match(obj.strip()):
        return False
    if _tool_list(obj):
        return not vague(obj)
    return (
        not re.match(rf"^{DET}\b", obj, re.I)
        and not vague(obj)
        and content_words(obj) <= limit
        and not re.search(r"\b(?:option|approach|plan)\s+\S+$", obj, re.I)
    )


_CHOOSE = ("do", "go with", "go for", "pick", "choose")
# "let's go with quick wins", "go for the simplest fix", "pick the safer route": a pick graded
# among the ways just weighed, not a named tool or stack.
_GRADED = _lazy(
    r"^(?:the\s+|a\s+|an\s+)?(?:(?:simpl|easi|saf|cheap|fast|small|light|quick|clean|short)est|"
    r"quick|quicker|simple|simpler|easy|easier|safe|safer|cheap|cheaper|fast|faster|small|smaller|"
    r"minimal|lighter|better|first|second|third|last|other|"
    r"recommended|suggested|proposed|default)\b",
    re.I,
)
_NUMBER_WORD = _lazy(r"^(?:\d|one|two|three|four|five|both|all|each|either)\b", re.I)
_MOVE = ("switch to", "move to", "migrate to", "switch over to")
# "let's move to Phase 4", "let's switch to the next task": a step through the work, not a move
# to another tool
_PART = (
    r"(?:phase|step|stage|milestone|part|section|chapter|task|ticket|item|issue|story|sprint|round|"
    r"question|point|topic)"
)
_NEXT_PART = _lazy(
    rf"^(?:the\s+)?(?:(?:next|following|last|final|first|second|third|other)\s+{_PART}|"
    rf"{_PART}\s+(?:\d+|[ivx]+|one|two|three|four|five|six|seven|eight|nine|ten|[a-z])\b)(?![\w-])",
    re.I,
)


_REASON = _lazy(r"^\S+(?:\s+\S+)?\s+(?:to|so we)\s+(?:avoid|prevent|never|not)\b", re.I)


# "let's use playwright I think it is installed": a new clause run on after the choice
_RUN_ON_CLAUSE = _lazy(
    r"\s+(?:i|we|it|this)\s+(?:think|guess|believe|'m|am|was|is|have|need|want|will)\b.*$", re.I
)


def _names_one_tool(obj: str) -> bool:
    """"let's do vite" names a tool; "let's do two PRs", "let's do option 2" pick a step."""
    one = (
        content_words(obj) == 1
        and toolish(obj)
        and not _NUMBER_WORD.match(obj)
        and not re.search(r"\d|\bnow\b", obj)
    )
    return bool(one and _np_short(obj))


def _names_a_pick(obj: str) -> bool:
    """"let's go with PostgreSQL", "… Django + HTMX": a named tool or a stack; "let's go with
    configurable", "… with TS" pick among the options the assistant just offered."""
    named = (
        re.match(r"^[A-Z\ue000][\w.+\ue000\ue001-]{2,}", obj)
        or _tool_list(obj)
        or (
            content_words(obj) >= 2
            and toolish(obj)
            and not _NUMBER_WORD.match(obj)
            and not _GRADED.match(obj)
        )
    )
    return bool(named and _np_short(obj))


def _used_for_this_step(obj: str) -> bool:
    """"let's use fileinput to handle input": how to do this step; "let's use OAuth to avoid a
    PAT" is a named choice with its reason, which lasts."""
    reasoned = _REASON.search(obj) and re.match(r"^(?:[A-Z\ue000]|\S*[A-Z])", obj)
    return bool(re.search(r"\bto\s+(?!all\b|every\b)[a-z]+\b", obj, re.I)) and not reasoned


def _step_at_hand(verb: str, obj: str) -> bool:
    """Nothing named, a piece of the code at hand taken out, or a move through the work: a step
    of this conversation, not a choice that lasts."""
    if vague(obj):
        return True
    if verb in ("use", "drop") and re.match(rf"^{DET}\b", obj, re.I) and not QUANTIFIER.search(obj):
        return True  # "let's drop the legacy layout": take a piece of the code at hand out, a step
    if verb not in _MOVE:
        return False
    # "let's move to Phase 4": a long phrase or the next part of the work, not another tool
    return not (_np_short(obj, 6) or QUANTIFIER.search(obj)) or bool(_NEXT_PART.match(obj))


def _lets(m: re.Match[str], c: Clause) -> str | None:
    verb, obj = m.group(1).lower(), _RUN_ON_CLAUSE.sub("", m.group(2))
    if re.match(r"^(?:let's|lets|let us)\s+just\b", c.text, re.I):
        return None  # "let's just use hack": a step of this conversation
    if verb == "do":
        return f"Use {obj}" if _names_one_tool(obj) else None
    if verb in _CHOOSE:
        return f"Use {obj}" if _names_a_pick(obj) else None
    if verb == "use" and _used_for_this_step(obj):
        return None
    if verb in ("make it", "make them", "make everything"):
        ok = content_words(obj) <= 4 and not re.match(rf"^{DET}\b", obj, re.I) and not vague(obj)
        return f"{cap(verb)} {obj}" if ok else None
    if _step_at_hand(verb, obj):
        return None
    if verb == "keep":
        hit = KEEP_RULE.apply(Clause("keep " + obj))
        return hit[0] if hit else None
    return f"Avoid {obj}" if verb == "avoid" else f"{cap(verb)} {obj}"


def _lets_kind(m: re.Match[str], c: Clause) -> str:
    verb = m.group(1).lower()
    return {"keep": "constraint", "avoid": "preference"}.get(verb, "decision")


def _will_ok(m: re.Match[str], c: Clause) -> bool:
    verb, obj = m.group(1).lower(), m.group(2)
    if vague(obj) or TASKY.search(obj) or re.match(r"^(?:a lot|much|way more)\b", obj, re.I):
        return False
    if verb == "use" and re.match(rf"^{DET}\b", obj, re.I) and not QUANTIFIER.search(obj):
        return False
    if re.match(rf"^{DET}\s+(?:other|next|rest|remaining)\b", obj, re.I):
        return False  # "we'll move to the other constraints after": the next step of this talk
    if verb in _MOVE and _NEXT_PART.match(obj):
        return False  # "we'll move to phase two next week": a step through the work
    if verb == "use" and re.search(
        r"^\S+\s+to\s+(?:test|try|check|debug|see|run|fix|do|verify|build)\b", obj, re.I
    ):
        return False  # "I'm going to use Cursor to test": a step and its purpose this turn
    # "I'll probably switch to X later": a plan of the moment, not a choice
    return not _HEDGE.search(c.text[: m.start(1)])


_WANT_TO = _lazy(r"^(?:we|i)\s+(?:want to|wanna)\b", re.I)


def _decided(m: re.Match[str], c: Clause) -> str | None:
    how, obj = m.group(2).lower(), m.group(3)
    if how == "" and not m.group("pick"):
        return None  # "we decided everything": no choice named
    if how in ("on", "for", "with", ""):
        # "we went with X", "we picked X (for Y)", "we chose X over Y": a named choice
        return f"Use {obj}" if _np_short(obj, 6) else None
    if how == "against":  # "we decided against Redux"
        return f"Don't use {obj}" if _np_short(obj, 6) else None
    if how == "not to":  # "we decided not to use Redux"
        first = obj.split(" ", 1)[0].lower()
        return f"Don't {obj}" if first in POLICY_VERBS else None
    if how == "that":
        return cap(obj)
    first = obj.split(" ", 1)[0].lower()
    if first in POLICY_VERBS or first in ("not", "never", "always", "stop", "go", "standardize"):
        return cap(obj)
    return None


def _should(m: re.Match[str], c: Clause) -> str | None:
    verb, rest = m.group(3), m.group(4)
    if _HEDGE.search(c.text[: m.start(3)]) or _UNSURE.search(c.text):
        return None  # "maybe we should use X, not sure": a suggestion still weighed, no decision
    if (
        vague(rest)
        or TASKY.search(rest)
        or re.search(r"\b(?:the same|exactly)\b", rest, re.I)
        or re.match(r"^\s*(?:now|later|first|today|soon)\b", rest, re.I)
    ):
        return None  # "we should use exactly the same setup in X": copy what is at hand
    # "you should also move other video files": "other" points at the things at hand too
    determined = re.match(rf"^\s*(?:to\s+|with\s+|on\s+)?(?:{DET}|other)\b", rest, re.I)
    if (
        determined
        and not QUANTIFIER.search(rest)
        and verb.lower() in ("use", "migrate", "move", "switch", "drop")
    ):
        # "you should use the existing fixtures", "we should drop the old sidebar": about this task
        return None
    if verb.lower() in POLICY_VERBS or QUANTIFIER.search(rest):
        return f"{cap(verb)}{rest}"
    return None


_D = "decision"
DECISION_RULES: tuple[ClauseRule, ...] = (
    ClauseRule("shape", _D, _LETS, _lets, _lets_kind),
    ClauseRule(
        "want_to_use",
        _D,
        _WILL,
        lambda m, c: f"{cap(m.group(1).lower())} {m.group(2)}",
        "preference",
        lambda m, c: _will_ok(m, c) and bool(_WANT_TO.match(c.text)) and _np_short(m.group(2), 4),
    ),
    ClauseRule(
        "will_use",
        _D,
        _WILL,
        lambda m, c: f"{cap(m.group(1).lower())} {m.group(2)}",
        "decision",
        lambda m, c: _will_ok(m, c) and not _WANT_TO.match(c.text),
    ),
    ClauseRule("shape", _D, _DECIDED, _decided, "decision", lambda m, c: not vague(m.group(3))),
    ClauseRule(
        "shape",
        _D,
        _DECISION_IS,
        lambda m, c: cap(m.group(1)),
        "decision",
        lambda m, c: (
            not vague(m.group(1))
            and content_words(m.group(1)) >= 2
            and not m.group(1).endswith("'s")
        ),
    ),
    ClauseRule(
        "shape",
        _D,
        _SHOULD,
        _should,
        lambda m, c: "constraint" if m.group(2).lower() == "must" else "decision",
    ),
)
