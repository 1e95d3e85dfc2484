"""Directive rules: always/never, don't/avoid/no X/stop doing, keep …, and complaints that
state the rule they want kept."""

from __future__ import annotations

import re

from agent_memory.extract.filters import (
    BLOCKED_OBJ_START,
    COMPLEMENT_VERBS,
    IMPERATIVES,
    LENGTHY,
    NEG_STOP,
    OUTPUT_NOUN,
    POLICY_VERBS,
    REACTION_OBJECT,
    TRANSIENT_PREDICATE,
    content_words,
    vague,
)
from agent_memory.extract.rules.base import Clause, ClauseRule, cap
from agent_memory.extract.standing import DEIXIS, STANDING
from agent_memory.extract.text import words
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

Rule = tuple[str, str]  # (claim, kind)

_ALWAYS_NEVER = _lazy(
    r"^((?:please\s+)?(?:make sure|be sure|ensure)(?:\s+that)?(?:\s+to)?\s+)?"
    r"(?:(you|we|i|claude|agents?)\s+)?((?:should|must|will|shall|need to|have to|ought to|'ll|"
    r"are to|want to|can)\s+)?(?:(?:please|also|just|really)\s+)*(always|never)\s+"
    r"(?!mind\b|again\b|ever\b|before\b|been\b|had\b|did\b|thought\b|knew\b|saw\b|seen\b|got\b|"
    r"will\b|would\b|is\b|are\b|was\b|were\b|"
    r"really\b|worked\b|used\b|realized\b|noticed\b|heard\b|said\b|meant\b|wanted\b|tried\b|"
    r"have\b|has\b|get\b|gets\b|run into\b|hit\b|see\b|struggle\b|end up\b|seem\b|forget\b|"
    r"work\b|works\b|happens?\b|come\b|comes\b|say\b|know\b|want\b|wonder\b|"
    # what happens to the speaker, no act to order: "I never receive the message" is a bug
    r"rec(?:ei|ie)ves?\b|succeeds?\b)(\S.*)",
    re.I,
)

_MAKE_SURE_ALL = _lazy(
    r"^(?:please\s+|let's\s+|let us\s+)?(?:make sure|ensure|be sure)(?:\s+that)?\s+"
    r"((?:every|all|each|no)\s+\S.*)",
    re.I,
)


_ED_VERBS = words("embed feed seed need proceed exceed succeed shred wed bleed breed speed heed")
_PARTICIPLES = words(
    """
written overwritten rewritten taken given broken hidden chosen forgotten driven spoken stolen
proven shown known seen done gone made kept left sent built found held told thought brought
bought caught taught fought sold paid meant lost won spent begun drawn grown thrown blown
"""
)


# What the product being built shows: "always show the total in the footer", "never display the
# banner to guests", "don't render the avatar" specify the screen at hand ("I don't want to show
# a modal" was already read so by _dont_want). Shown to the user ("never show me the whole
# file") is how to answer, which stands.
_DISPLAY_VERBS = words("show display render")


def _product_display(verb: str, rest: str) -> bool:
    """`verb` shows something and `rest` (what follows it) does not show it to the user."""
    return verb.lower() in _DISPLAY_VERBS and not re.match(r"^\s*(?:me|us|your)\b", rest, re.I)


# Verbs that say nothing without their object ("always use", "never include").
_NEEDS_OBJECT = words(
    """
use add put call name include import create update remove delete mention cite send store save
load wrap mark label pin bump show tell give ensure make prefix suffix prefer avoid follow adopt
rely require enforce target support keep
"""
)


# What code or a run does ("always fails on the second run", "never crashes"): a description.
_BEHAVES = words("fail break crash hang work happen seem look error throw freeze stall flake time")
# "always fun debugging css", "always good to double check": a remark, not an instruction
_REMARK = words(
    "fun good nice great hard easy better best worse worst annoying fine cool weird funny "
    "interesting helpful tricky painful useful"
)
# "I never remember lookbehind syntax", "I always forget the flags": the speaker's own mind
_OWN_MIND = words("remember forget know understand recall notice realize realise get find feel think")


def _remark_or_own_mind(head: str, subject: str) -> bool:
    """"always fun debugging css", "I never remember the flags": a remark or the speaker's own
    mind, no practice asked for."""
    return head in _REMARK or (subject == "i" and head in _OWN_MIND)


def _this_moment(m: re.Match[str], body: str) -> bool:
    """The place, moment or possibility of this conversation, not a standing rule."""
    if re.search(r"\b(?:from|in|into|to|over|out of)\s+(?:there|here)\s*[.!]*$", body, re.I):
        return True  # "never import from there": the place pointed at in this conversation
    if re.search(r"\b(?:now|again)\s*[.!]*$", body, re.I):
        return True  # "never deploy now", "never do that again": this moment's step
    # "we can always remove it later": a possibility, not a rule
    return (m.group(3) or "").strip().lower() == "can" and m.group(4).lower() == "always"


def _speaker_described(m: re.Match[str], body: str) -> bool:
    """"I never stop", "we always win": the speaker described, no practice named."""
    bare = not (m.group(1) or m.group(3))
    return (m.group(2) or "").lower() in ("i", "we") and bare and " " not in body.strip()


_LIGHT_VERB = _lazy(
    r"^(?:do|have|make|get|go|be|have to \w+|follow|use|apply|stick to|stick with)\s+(.*)$", re.I
)
# "always the same error", "never in the work tree": a noun or a place, not an instruction
_NOT_A_VERB_START = _lazy(
    r"^(?:the|a|an|same|this|that|in|on|at|to|for|with|from|by|of|as|via)\b|"
    # "…, never manually from a laptop": a manner and a place, the verb left in the clause
    # before — cut from it, the rule has none (a verb ending in -ly is no manner: "rely on",
    # "reply in", "apply to")
    r"^(?!(?:rely|reply|apply|comply|supply|imply|multiply|ally|rally|tally|fly)\s)[a-z]+ly\s+(?:from|in|on|at|to|for|with|by|via|through|into|over|outside)\b",
    re.I,
)


def _light_verb_on_nothing(body: str) -> bool:
    """"never do anything", "never have to mention it", "always follow the instructions": no
    object once the light verb is cut, or only the one of this conversation."""
    light = _LIGHT_VERB.match(body)
    return bool(light and vague(light.group(1)))


def _describes_not_instructs(head: str, body: str) -> bool:
    """A participle, the product's display or a third-person verb: a description, not a rule."""
    if (re.match(r"^[\w-]+ed$", head) and head not in _ED_VERBS) or head in _PARTICIPLES:
        return True  # "never guessed", "never promoted on evidence alone": a description
    if _product_display(head, (body.split(None, 1) + [""])[1]):
        return True  # "always show the total in the footer row": what the product shows, a spec
    if _THIRD_PERSON_ES.match(head):
        # "(it) … and never fetches or resolves X", "always pushes to main": only a verb takes
        # -ches/-shes/-xes/-zes/-sses/-ies after always/never, and it agrees with a subject
        # left in the clause before (a description of what something does), not an order
        return True
    # "(it) never imports X", "always returns null", "always fails": what it does
    if not re.match(r"^[a-z]+[^su]s$", head):
        return False
    if any(stem in _KNOWN_VERBS or stem in _BEHAVES for stem in (head[:-1], head[:-2])):
        return True
    # "(Claude) never remembers my preferences": a word in -s taking an object is a verb that
    # agrees with a subject; an order takes the bare verb ("always tabs, never spaces" is none)
    return bool(_OBJECT_NEXT.match(body.partition(" ")[2]))


# (past another verb in -s joined to it: "never escapes or encodes the HTML")
_OBJECT_NEXT = _lazy(
    r"^(?:(?:or|and)\s+[a-z]+[^su]s\s+)?(?:my|your|our|his|her|its|their|the|a|an|this|that|these|those)\b",
    re.I,
)


_THIRD_PERSON_ES = _lazy(r"^[a-z]+(?:[cs]h|x|z|ss)es$|^[a-z]+[^aeiou]ies$")


def _lone_word_not_a_rule(head: str, body: str) -> bool:
    """A one-word body that instructs nothing: a verb cut from its object, or an adjective."""
    if " " in body.strip():
        return False
    if head in _NEEDS_OBJECT:
        return True  # "Never include and remove X": cut at "and", the verb lost its object
    # "never automatic": an adjective, not an instruction
    return head not in _KNOWN_VERBS and head.rsplit("-", 1)[-1] not in _KNOWN_VERBS


def _always_never_ok(m: re.Match[str], c: Clause) -> bool:
    body = m.group(5)
    head = body.split(" ", 1)[0].lower().strip("*_,.;:()")
    subject = (m.group(2) or "").lower()
    if _remark_or_own_mind(head, subject) or _this_moment(m, body):
        return False
    if vague(body) or content_words(body) < 1:
        return False
    after_verb = " " + body.partition(" ")[2]
    if m.group(4).lower() == "never" and _edit_bounds(after_verb):
        # "never change any other files", "never make any changes": this edit's bounds, as the
        # same words after "don't" are (_dont_ok)
        return False
    if _speaker_described(m, body) or _light_verb_on_nothing(body):
        return False
    if _NOT_A_VERB_START.match(body):
        return False  # "always the same error", "never in the work tree": not an instruction
    if _describes_not_instructs(head, body) or _lone_word_not_a_rule(head, body):
        return False
    if subject in ("claude", "agent") and not (m.group(1) or m.group(3)) and head.endswith("s"):
        # "Claude never remembers my preferences": what it does (the verb agrees with it), a
        # complaint; "Claude should never …" is an order
        return False
    # "you always add too many comments": a complaint whose rule is unstated
    return not (subject == "you" and not (m.group(1) or m.group(3)))


# What the user does with their own hands: "…myself", "…by hand", "…in another terminal",
# "keep the dev server running".
_OWN_DOING = _lazy(
    r"\b(?:myself|by hand|manually|on my own|in (?:another|a separate|my own) (?:terminal|tab|window|shell)|"
    r"running)\b",
    re.I,
)


def _always_never_claim(m: re.Match[str], c: Clause) -> str:
    """"Always X" / "Never X" ("I always use black" is "Always use black": the same practice
    asked of Claude). Said of what the user does by their own hand ("I always run the tests
    myself", "I always keep the dev server running"), the habit stays the user's — "The user
    always runs the tests themselves": as an order to Claude it would say the opposite."""
    body = m.group(5)
    own = (m.group(2) or "").lower() == "i" and not (m.group(1) or m.group(3))
    if own and _OWN_DOING.search(body):
        return f"I {m.group(4).lower()} {body}"  # (statement.py puts the claim in the third person)
    return f"{m.group(4).capitalize()} {body}"


_DONT = _lazy(
    r"^(?:(?:you|we|claude)\s+(?:should|must|shall|will|need to)\s+not|do\s+not|don't|let's\s+not|"
    r"let us not|(?:please\s+)?refrain from)\s+"
    # "don't you dare push to main", "don't you ever …": a prohibition said with force
    r"(?:(?:you|u)\s+(?:dare|ever)\s+|ever\s+|please\s+)?(\w[\w'-]*)\b(.*)",
    re.I,
)
# A subject after "don't" makes it a question ("don't you see …", "don't we have …"); typing
# slips of "you" ("yoiu", "yuo") are read as it.
_QUESTION_SUBJECT = _lazy(r"you|u|ya|we|they|i|he|she|y[a-z]?o[a-z]?u|yuo", re.I)
_LETS_NOT = _lazy(r"^let(?:'s|\s+us)\s+not\b", re.I)
_LETS_NOT_CHOICE = words("use import add call commit push install rely depend mock vendor")
_HOLD_VERBS = frozenset(
    {"implement", "make", "write", "apply", "start", "change", "edit", "touch", "modify", "alter"}
)
_HOLD_OBJECT = _lazy(
    r"^\s+(?:any\s+|the\s+)?(?:changes?|edits?|code|anything|implementation|coding)"
    r"(?:\s+(?:yet|now|first|for now|right now|until\b.*|before\b.*))?\s*[.!?]*$",
    re.I,
)
_WE_DONT = _lazy(r"^we\s+(?:don't|do not|never)\s+(\w+)\b(.*)", re.I)
_I_DONT_WANT = _lazy(
    r"^i\s+(?:really\s+|actually\s+|definitely\s+)*(?:don't|do not)\s+(want|like|need|use)\s+(?:(you\s+)?to\s+)?(.*)",
    re.I,
)
_RUN_ON = _lazy(r"\s+(?=(?:i|we)(?:\s+am|'m|\s+are|'re)\s+\w+ing\b)", re.I)
_AVOID = _lazy(r"^(?:(?:try to|please|always)\s+)?avoid\s+(\S.*)", re.I)
_STOP_ING = _lazy(r"^(?:stop|quit)\s+(\w+ing)\b(.*)", re.I)
_NO_X = _lazy(
    r"^no\s+(?!problem|worries|worry|luck|idea|way|need|thanks|rush|clue|matter|offense|doubt|"
    r"longer|more|one|wonder|kidding|big deal|change|changes|issue|issues|errors?|response)"
    r"([a-z\ue000][\w.\ue000\ue001-]*(?:\s+[\w.\ue000\ue001-]+){0,3}?)"
    r"(?:\s+((?:please|in|for|on|inside|anywhere|whatsoever|at all)\b.*))?$",
    re.I,
)
_GERUNDS = {
    "adding": "add",
    "using": "use",
    "introducing": "introduce",
    "changing": "change",
    "touching": "touch",
    "breaking": "break",
    "modifying": "modify",
    "installing": "install",
    "pulling": "pull",
    "relying": "rely",
    "calling": "call",
    "editing": "edit",
    "importing": "import",
    "bringing": "bring",
    "creating": "create",
    "requiring": "require",
    "removing": "remove",
    "deleting": "delete",
    "committing": "commit",
    "pushing": "push",
    "mocking": "mock",
}
_WITHOUT = _lazy(r"\bwithout\s+(\w+ing)\s+(\S.*)", re.I)
_TASK_BOUND_WITHOUT = _lazy(r"\b(?:it|this|that|them)\b", re.I)
_EXISTING_OBJ = _lazy(
    r"^(?:the|this|that|these|those|my|our)\s+(?:existing|current|original|old|previous)\b", re.I
)
WE_DONT_VERBS = words(
    """
use allow accept commit push merge deploy ship write add rely depend mock put store touch
modify edit include import run support target vendor check keep
"""
)
# Every verb the directive rules know as an instruction's head
_KNOWN_VERBS = IMPERATIVES | POLICY_VERBS | WE_DONT_VERBS


# A prohibition about the step at hand: "don't commit the report file", "don't add X again",
# "don't do any UI", "don't look too much at the old code". A standing rule names a kind of
# thing ("don't commit secrets", "don't use `as`") or a place that stays ("push to main").
_STEP_OBJECT = _lazy(
    r"^\s+(?:to\s+|on\s+|in\s+|into\s+|from\s+|at\s+)?(?:the|this|that|my|your|his|her|these|those)\s+"
    r"(?!(?:main|master|production|prod|default|release|\.?env|lock|lockfile|secrets?|credentials|keys?|"
    r"generated|build|dist|vendor|node_modules|database|db|schema|migrations?|public api|ci)\b|"
    r"\S+\s+branch\b|\.\w)",
    re.I,
)
# "any other files", "anything else", "the rest of the code": what this edit must leave alone.
_OTHER_PARTS = _lazy(
    r"^\s+(?:any\s+|the\s+)?(?:other\s+(?:files?|code|parts?|things?|lines?|components?|"
    r"modules?|sections?|places?|functions?|tests?|pages?|screens?|stuff)\b|rest of the\b)|"
    r"^\s+anything\s+else\b",
    re.I,
)
# "any changes", "any code modifications", "any plan" with nothing after: what this turn may do.
_ANY_WORK = _lazy(
    r"^\s+any\s+(?:more\s+)?(?:code\s+|file\s+)?(?:changes?|modifications?|edits?|plans?|code|"
    r"commits?)\s*(?:now|yet|for now|just yet|here|at all)?\s*[.!]*$",
    re.I,
)
# "any edits to the script", "any changes in this file": what this turn may touch (a lasting
# place such as the database or main is no step object, see _STEP_OBJECT).
_ANY_WORK_ON = _lazy(
    r"^\s+any\s+(?:more\s+)?(?:changes?|modifications?|edits?)(?=\s+(?:to|in|on)\s)", re.I
)


def _edit_bounds(rest: str) -> bool:
    """What follows a prohibition's verb says what this edit must leave alone: "any other files",
    "anything else", "any changes", "any edits to the script"."""
    work_on = _ANY_WORK_ON.match(rest)
    return bool(
        _OTHER_PARTS.match(rest)
        or _ANY_WORK.match(rest)
        or (work_on and _STEP_OBJECT.match(rest[work_on.end() :]))
    )


_STEP_VERBS = frozenset(
    {"do", "look", "point", "worry", "bother", "focus", "spend", "overthink", "consider"}
    # "still don't receive a reply": a report of what happens, not an instruction
    | {"receive", "hear", "load", "work", "show", "appear", "happen", "exist", "seem"}
)


# "don't give me options", "never ask me for confirmation": how to talk to the user, a standing rule
_TALK_TO_ME = _lazy(
    r"^(?:give|offer|show|send|tell|ask)\s+(?:me|us)\s+(?:any\s+|more\s+|\w+ing\s+)?"
    r"(?:options|choices|alternatives|suggestions|disclaimers|warnings|apologies|excuses|lectures|"
    r"summaries|for (?:permission|confirmation|approval)|questions)\b",
    re.I,
)


def _dont_claim(m: re.Match[str]) -> str:
    verb, rest = m.group(1), m.group(2)
    if _TALK_TO_ME.match(f"{verb}{rest}"):
        obj = re.sub(r"^\s+(?:me|us)\s+", "", rest, flags=re.I)
        return f"User does not want Claude to {verb.lower()} them {obj}"
    return f"Don't {verb}{rest}"


def _no_object(rest: str) -> bool:
    """"dont echo", "dont simplify", "don't tell me": a correction with no object."""
    return bool(
        not re.search(r"[A-Za-z\ue000]", rest)
        or re.match(r"^\s+(?:me|us)\s*[.!]*$", rest, re.I)
        or re.match(r"^\s*[,;]\s*(?!ever\b)", rest, re.I)
    )


def _this_builds_spec(rest: str) -> bool:
    """What this change is to be, or one of its parts: the spec of the build at hand."""
    if re.search(r"\bbut\s+(?:a|an|the|rather|instead)\b", rest, re.I):
        return True  # "we should not return a boolean but a union": the spec of this change
    # "don't use a crosshair", "do not implement phase 1": this build's parts
    return bool(
        re.match(r"^\s+(?:a|an)\s+[a-z]", rest)
        or re.search(r"\b(?:phase|step|slice|part|stage|task)\s+\d", rest, re.I)
    )


def _thing_at_hand(verb: str, rest: str) -> bool:
    """"don't consider me", "don't use this <link>", "don't enable it for any admin route": the
    thing at hand, named in another turn (a scope after "it" does not name it; "don't make it
    only work on my machine" says what the thing must be, which stands)."""
    pronoun = r"me|us|this|that|these|those" + (
        "" if verb.lower() in COMPLEMENT_VERBS else "|it|them"
    )
    at_hand = re.match(rf"^\s+(?:{pronoun})\b", rest, re.I)
    return bool(at_hand) and not _TALK_TO_ME.match(f"{verb}{rest}")


def _this_turn(verb: str, rest: str) -> bool:
    """A step of this turn: its object, "again", "yet", "now", or "wait for me"."""
    if (_STEP_OBJECT.match(rest) and "\ue000" not in rest) or re.search(
        r"\b(?:again|yet|now|anymore please)\s*[.!]*$", rest, re.I
    ):
        return True
    # "do not implement any changes first": wait for me, this turn
    return verb.lower() in _HOLD_VERBS and bool(_HOLD_OBJECT.match(rest))


def _dont_ok(m: re.Match[str], c: Clause) -> bool:
    verb, rest = m.group(1), m.group(2)
    if verb.lower() in NEG_STOP or vague(rest) or verb.lower() in _STEP_VERBS:
        return False
    if _QUESTION_SUBJECT.fullmatch(verb):
        return False  # "don't you see all the tags?", typed "don't yoiu see…": a question asked
    if _product_display(verb, rest) and not _TALK_TO_ME.match(f"{verb}{rest}"):
        return False  # "do not display the badge on mobile": what the product shows, a spec
    if _LETS_NOT.match(c.text) and not STANDING.search(c.text):
        # "let's not include the size param", "let's not auto-fill the caption", "let's not use
        # redux here": a proposal for the work at hand, as "let's add …" is. A tool or a kind of
        # code set aside ("let's not use an ORM", "let's not commit secrets") is the team's
        # choice, read as "let's use X" is (preferences._LETS); said to last ("let's not ever …")
        # it stands.
        return verb.lower() in _LETS_NOT_CHOICE and not DEIXIS.search(c.text)
    if _no_object(rest):
        return False
    if content_words(verb + rest) < 2 and verb.lower() in ("do", "go", "make"):
        return False
    if _this_builds_spec(rest):
        return False
    if re.match(r"^\s+(?:any\s+)?(?:mistakes?|errors?|typos?)\b", rest, re.I):
        return False  # "don't make mistakes": emphasis, nothing to remember
    if _edit_bounds(rest):
        return False  # "don't change any other files", "don't make any changes": this turn's bounds
    return not (_thing_at_hand(verb, rest) or _this_turn(verb, rest))


def _dont_want(m: re.Match[str], c: Clause) -> str | None:
    verb, to_you, rest = m.group(1).lower(), m.group(2), m.group(3)
    # A run-on with no punctuation: 'I don't want a "quick fix" I am trying to build ...'
    rest = _RUN_ON.split(rest, maxsplit=1)[0]
    # "I don't want to show a modal": what the screen being built shows, a spec of the task
    if vague(rest) or re.match(
        r"^(?:to\s+)?(?:be|know|see|think|wait|lose|break|show|display|render)\b", rest, re.I
    ):
        return None
    if verb in ("like", "want") and REACTION_OBJECT.match(rest):
        return None  # "I don't like the polling wait": the code on the table, not a taste
    if re.search(r"\b(?:now|yet|again|today|anymore)\s*[.!]*$", rest, re.I):
        return None  # "I don't want you to edit anything now": this moment of the work
    to_do = bool(to_you or re.match(r"^to\s", c.text[m.start(3) - 3 : m.start(3)]))
    lead = r"\w+\s+" if to_do else ""  # the verb of "I don't want (you) to <verb> it"
    if re.match(rf"^{lead}(?:it|them|this|that|these|those)\b", rest, re.I) and not (
        to_do and rest.split(" ", 1)[0].lower() in COMPLEMENT_VERBS
    ):
        # "I don't want to allow it for any write route", "I don't want them in every list":
        # what "it" is was said in another turn; a scope after it does not name it ("I don't
        # want to make it only work on my machine" says what the thing must be, which stands)
        return None
    if verb == "want" and to_do:
        head = rest.split(" ", 1)[0].lower()
        if re.match(r"^\S+\s+(?:a|an)\s", rest, re.I):
            return None  # "I don't want to include a coach chat": a feature of this build
        if head not in POLICY_VERBS | WE_DONT_VERBS | IMPERATIVES or _STEP_OBJECT.match(
            " " + rest.split(" ", 1)[-1]
        ):
            return None  # "I don't want to point it at X": how this step goes, not a rule
        return f"Don't {rest}"
    if verb == "want":
        # "... unless I hover over them": how this UI should behave, a spec of the task;
        # "a scheduled job", "X to have a blue background": a thing or look of the work at hand
        if re.search(r"\b(?:i|me|my|us|we)\b|\bto (?:have|be|show|look)\b", rest, re.I) or re.match(
            r"^(?:a|an|the)\s", rest, re.I
        ):
            return None
        if re.match(
            r"^(?!claude\b|ai\b|agents?\b|subagents?\b|the (?:assistant|agents?|ai)\b)"
            r"\S+(?:\s+\S+)?\s+to\s+[a-z]",
            rest,
            re.I,
        ):
            # "I don't want guests to see the prices": what the product lets them do ("I don't
            # want claude to push to main" is how the assistant works, which stands)
            return None
        return f"User does not want {rest}"
    if verb == "like" and not re.match(r"^(?:how|what|when|the way|it when)\b", rest, re.I):
        return f"User does not like {rest}"
    return f"User does not use {rest}" if verb == "use" else None


def _without_ok(m: re.Match[str], c: Clause) -> bool:
    if not STANDING.search(c.text):
        # "use try/catch and clean it up without changing existing batch logic", "review the
        # script without running it": "without X-ing" says how the action it hangs on is done;
        # it outlasts that action only when the action is said to last ("always …", "never …",
        # "from now on …"). Out of fold it made no true atom and three false ones (notes/28-prec5.md).
        return False
    if _TASK_BOUND_WITHOUT.search(c.text[: m.start()]) and _EXISTING_OBJ.match(m.group(2)):
        return False  # "incorporate it without deleting the existing code": how to do this task
    if re.match(r"^(?:to\s+|on\s+|into\s+)?(?:the|my|your|this|that)\b", m.group(2), re.I):
        return False  # "... without using the UI": a definite thing of this task, not a rule
    if re.match(r"^(?:how|why|what|can|could|would|does|do|is|are)\b", c.text, re.I):
        return False  # "how can they work without using X": a question about this case
    if re.search(
        r"\bi\s+(?:want|wanted|need|can|cannot|can't|could|couldn't|would)\b",
        c.text[: m.start()],
        re.I,
    ):
        return False  # "I want to test locally without pushing to aws": what the user can do
    return m.group(1).lower() in _GERUNDS and not vague(m.group(2))


def _no_x_ok(m: re.Match[str], c: Clause) -> bool:
    if m.group(1).split()[0].lower() in IMPERATIVES:
        return False  # "no add the stories here": "no," then an instruction, not "no X"
    if not m.group(2):
        # "No SSOT flip.", "No Railway, no R2 yet", "no colors": a decision of this plan or a
        # reaction; a standing "no X" says where ("no emojis in commit messages")
        return False
    if re.search(
        r"\b(?:found|left|shown|visible|available|yet|there|here|detected|configured|installed|"
        r"set|specified|provided|connected|selected|loaded)$",
        m.group(1),
        re.I,
    ):
        return False  # "no build.sbt found": what the screen says, not a rule
    codeish = re.search(r"\ue000|\w\.\w|[A-Z]", m.group(1))
    return not vague(m.group(1)) and (m.group(1).endswith("s") or bool(codeish))


_KEEP = _lazy(
    r"^(?:(?:while|and|but|by|just|please|also|always)\s+)*"
    r"(?:(?:we|you|i)\s+(?:should|must|need to|want to|have to|'d like to|would like to)\s+|"
    r"i(?:'d| would) (?:like|love|prefer) to\s+|i want to\s+|try to\s+|make sure to\s+|let's\s+|let us\s+)?"
    r"keep(?:ing)?\s+(it|things|everything|them|(?:(?:the|all|our|every|each|all the)\s+)?"
    r"(?:[\w-]+\s+){0,2}?(?:code|codebase|apis?|app|ui|design|implementation|solution|changes|diffs?|"
    r"dependencies|deps|footprint|interfaces?|style|tests?|files?|bundle|scope|builds?|project|repo|"
    r"setup|config|configuration|architecture|structure|docs|documentation|functions?|methods?|"
    r"components?|modules?|classes|commits?|prs?|pull requests|imports|lines|names|schemas?|"
    r"migrations|logs|output|layout|ci|pipelines?|history|branch(?:es)?|readme|changelog|endpoints?|"
    r"responses?|messages|comments|types|packages?|images?|containers?|scripts?|secrets|keys|"
    r"credentials|tokens|env|environment|queries|database|db|workers|threads|jobs|retries|timeouts?|"
    r"concurrency|parallelism|replicas|versions?|strings|text|copy|assets|styles|constants|config files|"
    r"testing|logging|styling|naming|error handling|tooling|setup)|"
    r"(?:all|every|each|any)\s+[\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,2}?)\s+(\S.*)",
    re.I,
)


def _keep(m: re.Match[str], c: Clause) -> str | None:
    obj, rest = m.group(1), m.group(2)
    if BLOCKED_OBJ_START.match(rest) or vague(rest) or re.match(r"^the same\s*$", rest, re.I):
        return None
    no_noun = re.match(r"^(?:it|them|things|everything)$", obj, re.I)
    output_like = no_noun or OUTPUT_NOUN.search(obj)
    if output_like and LENGTHY.search(rest):
        return None  # "keep it short", "keep the answer under 200 words": about this reply
    if no_noun and (
        # "keep it simple", "keep things simple": how to do this step; "keep them moving",
        # "keep things flowing": something going on, no rule
        _STEP_MANNER.match(rest) or re.match(r"^\w+ing\b", rest)
    ):
        return None
    if re.match(r"^(?:similar|the same)\b", rest, re.I) or re.search(
        r"\b(?:exactly|as (?:they|it) (?:are|is|were|was))\b", rest, re.I
    ):
        return None  # "keep the settings exactly as they are": leave this task's things alone
    return f"Keep {obj} {rest}"


_STEP_MANNER = _lazy(
    r"^(?:(?:very|really|pretty|super|as|quite|nice and|short and)\s+)*(?:simple|minimal|minimalistic|"
    r"clean|lean|small|tidy|basic|straightforward|locally|local|light|lightweight|focused|stupid|"
    r"brief|compact)\s*[.!]*$",
    re.I,
)


_KEEP_FORGETTING = _lazy(
    # (only "… forgetting to <verb>": "you always forget that my tests are in test/" read
    # "Always that …", "you keep forgetting the semicolons" "Always the semicolons")
    r"^(?:claude\s+)?you\s+(?:keep|always|constantly)\s+(?:forgetting|forget)\s+to\s+(\S.*)",
    re.I,
)
_FORGOT_AGAIN = _lazy(r"^(?:claude\s+)?you\s+forgot\s+to\s+(\S.*?)\s+again$", re.I)
KEEP_DOING = _lazy(r"^(?:why do you|you)\s+(?:keep|always)\s+(\w+ing)\s+(\S.*)", re.I)


# "the any type is banned from my codebase", "force pushing is not allowed in this repo", "the
# generated folder is off limits": a prohibition said of the thing forbidden. Only with where it
# holds (the code, the repository, the commits) or "off limits": "free text is not allowed" in a
# form, "403 forbidden" are what a program does.
_BANNED = _lazy(
    r"^(?:(?:the|any|all)\s+)?(?P<x>[\w\ue000\ue001./+-]+(?:\s+[\w\ue000\ue001./+-]+){0,3}?)\s+(?:is|are)\s+"
    r"(?:strictly\s+|completely\s+|totally\s+|absolutely\s+)?"
    r"(?:(?P<off>off[- ]limits)|banned|forbidden|prohibited|not allowed|disallowed)"
    r"(?P<scope>\s+(?:in|from|for|on)\s+(?:(?:my|our|this|the|all|every|any)\s+)?(?:[\w-]+\s+)?"
    r"(?:codebase|code|repo|repository|project|projects|commits?|prs?|pull requests|branch|"
    r"branches|main))?\s*[.!]*$",
    re.I,
)
# "run the linter before every commit", "rebase on main before each push": a step of the
# workflow said on each of its events (on every request or each render, what a program does).
_ON_EVERY_EVENT = _lazy(
    r"^(?:please\s+)?(?:always\s+)?(?:run|execute|check|update|rebuild|format|lint|test|bump|"
    r"review|rebase|pull|fetch|sync|verify|validate|regenerate|type-?check)\b[^,;:?]{0,60}?\s+"
    r"(?:before|after|on)\s+(?:every|each)\s+(?:single\s+)?(?:git\s+)?(?:commit|push|merge|"
    r"deploy(?:ment)?|release|pr|pull request)s?\s*[.!]*$",
    re.I,
)
# "you have to activate the venv before running tests", "you must run make gen after changing the
# proto files": a step the user says is owed whenever a kind of event happens — a "you must" with
# a step and an event in the gerund is how things are done here, not this turn's request ("you
# need to fix the tests before merging" fixes what is broken now: no step verb of that kind).
_MUST_ON_EVENT = _lazy(
    r"^(?:(?:so|also|and|btw|fyi|note)[,:]?\s+)?you\s+(?:always\s+)?(?:need to|have to|must|should always)\s+"
    r"(?:always\s+)?(?P<step>(?:run|execute|activate|source|restart|reload|rebuild|regenerate|recompile|"
    r"build|format|lint|test|bump|rebase|pull|sync|verify|validate|clear|migrate|type-?check|"
    r"re-?run|re-?generate)\b[^,;:?]{2,60}?)\s+(?P<when>before|after)\s+(?P<event>(?:running|changing|"
    r"editing|committing|pushing|deploying|merging|adding|modifying|touching|updating|installing|"
    r"starting|pulling|switching|releasing|building|testing)\b[^,;:?]{0,50}?)\s*[.!]*$",
    re.I,
)
_F = "directive"
KEEP_RULE = ClauseRule("keep", _F, _KEEP, _keep, "constraint")
RULES: tuple[ClauseRule, ...] = (
    ClauseRule(
        "always_never",
        _F,
        _MAKE_SURE_ALL,
        "Make sure {1}",
        "constraint",
        lambda m, c: (
            not TRANSIENT_PREDICATE.search(c.text)
            and not vague(m.group(1))
            # "ensure no detail is missed", "make sure all the points are correct", "… all
            # features work": a check on this piece of work; a rule says must/should/has
            and not re.search(r"\b(?:is|are|was|were|gets?)\s+(?:\w+ed|\w+en)\b", m.group(1), re.I)
            and not (
                re.match(r"^(?:every|all|each)\b", m.group(1), re.I)
                and not re.search(
                    r"\b(?:must|should|has|have|needs?|gets?|uses?)\b", m.group(1), re.I
                )
            )
        ),
    ),
    ClauseRule(
        "always_never",
        _F,
        _ALWAYS_NEVER,
        _always_never_claim,
        lambda m, c: "preference" if (m.group(2) or "").lower() == "i" else "constraint",
        _always_never_ok,
    ),
    ClauseRule(
        "negative",
        _F,
        _DONT,
        lambda m, c: _dont_claim(m),
        # how the user wants to be talked to is their preference; other prohibitions constrain
        lambda m, c: (
            "preference" if _TALK_TO_ME.match(f"{m.group(1)}{m.group(2)}") else "constraint"
        ),
        _dont_ok,
    ),
    ClauseRule(
        "negative",
        _F,
        _WE_DONT,
        "{c}",
        "constraint",
        lambda m, c: m.group(1).lower() in WE_DONT_VERBS and not vague(m.group(2)),
    ),
    ClauseRule(
        "negative",
        _F,
        _I_DONT_WANT,
        _dont_want,
        lambda m, c: "fact" if m.group(1).lower() == "use" else "preference",
    ),
    ClauseRule(
        "negative",
        _F,
        _AVOID,
        "Avoid {1}",
        "preference",
        # "avoid a second request in the loader": one thing of this build, as "don't use a …"
        lambda m, c: not vague(m.group(1)) and not re.match(r"^(?:a|an)\s", m.group(1), re.I),
    ),
    ClauseRule(
        "negative",
        _F,
        _STOP_ING,
        "Don't keep {1}{2}",
        "constraint",
        lambda m, c: (
            not vague(m.group(2) or "x")
            and m.group(1).lower() not in ("nothing", "thing", "everything")
            # "stop guessing", "stop fucking directing me": a correction of the moment
            and bool(re.search(r"[A-Za-z\ue000]", m.group(2)))
            and not re.match(r"^\s+(?:me|us)\b", m.group(2), re.I)
            and not re.search(r"\b(?:fuck\w*|shit\w*|damn\w*|ffs|wtf)\b", c.text, re.I)
        ),
    ),
    ClauseRule(
        "negative",
        _F,
        _WITHOUT,
        lambda m, c: f"Do not {_GERUNDS[m.group(1).lower()]} {m.group(2)}",
        "constraint",
        _without_ok,
        search=True,
    ),
    ClauseRule(
        "negative",
        _F,
        _NO_X,
        lambda m, c: f"Do not add {m.group(1)}" + (f" {m.group(2)}" if m.group(2) else ""),
        "constraint",
        _no_x_ok,
    ),
    KEEP_RULE,
    ClauseRule(
        "banned",
        _F,
        _BANNED,
        "{c}",
        "constraint",
        lambda m, c: bool(m.group("off") or m.group("scope")) and not vague(m.group("x")),
    ),
    ClauseRule("on_every_event", _F, _ON_EVERY_EVENT, "{c}", "constraint"),
    ClauseRule(
        "must_on_event",
        _F,
        _MUST_ON_EVENT,
        lambda m, c: cap(f"{m.group('step')} {m.group('when').lower()} {m.group('event')}"),
        "constraint",
        # "you need to run it before testing": what "it" is was said elsewhere
        lambda m, c: not re.search(r"\b(?:it|this|that|them|these|those)\b", m.group(0), re.I),
    ),
    *(
        ClauseRule(
            "complaint", _F, forgot, "Always {1}", "constraint", lambda m, c: not vague(m.group(1))
        )
        for forgot in (_KEEP_FORGETTING, _FORGOT_AGAIN)
    ),
    ClauseRule(
        "complaint",
        _F,
        KEEP_DOING,
        "Don't keep {1} {2}",
        "constraint",
        lambda m, c: not vague(m.group(2)),
    ),
)
