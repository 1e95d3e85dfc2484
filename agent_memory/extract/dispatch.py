"""The clause-rule dispatcher and the explicit-memory framing (remember …, from now on …,
whenever X, Y): which rule family reads a clause, in which order."""

from __future__ import annotations

import re

from agent_memory.extract.filters import (
    FROM_NOW_WORDS,
    IMPERATIVES,
    PRONOUNS,
    content_words,
    vague,
)
from agent_memory.extract.rules.base import Clause, Hit, cap
from agent_memory.extract.rules.directives import Rule
from agent_memory.extract.rules.registry import clause_hit
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# Explicit memory requests (strong) and durable-scope markers.
MEMORY_STRONG = _lazy(
    r"^(?:(?:please|also|and)\s+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    # ("always remember that X" is the same asking: it was the rule "That X")
    r"(?:always\s+remember(?=\s+that\b)|remember|memori[sz]e|commit (?:this |that |it )?to memory|"
    # "don't forget that we use pnpm" ("don't forget to …" is a step of this work: REMIND)
    r"(?:don't|do not|dont)\s+forget(?=\s+that\b)|"
    r"(?:save|store|put|add|record|write|keep|note|document)(?: (?:this|that|it|the following|a note|a line))?(?: down)?"
    r"\s+(?:in|to|into|as)\s+"
    r"(?:your |the |a |long[- ]term )?(?:memory|memories|preferences?|rules?|claude\.md|notes)"
    # "the memory table", "the preferences screen": the word heads a name of the code, no request
    r"(?!\s+(?:table|tables|cache|caches|screen|page|pane|panel|tab|view|list|menu|dialog|modal|"
    r"section|component|module|store|field|column|usage|leak|limit|api|endpoint|service)\b)|"
    r"make a (?:mental )?note|note (?:this|that) down|never forget|"
    # "For future reference, the staging DB is on port 5433", "Note for the future: …": said to
    # be kept for later, as "remember" is
    r"(?:(?:a |one )?note )?for future reference|(?:a |one )?note for (?:the )?future(?: reference)?|"
    # "have something in CLAUDE.md where we don't …", "add a line to your memory saying …"
    r"(?:have|put|add|write) (?:something|a (?:line|note|rule|section)) (?:in|to|into) (?:your |the )?"
    r"(?:memory|claude\.md|agents\.md|rules) (?:where|that says|saying|stating|that|so that)|"
    # "update CLAUDE.md so that it says …", "update your memory to say that …": what it is to say
    r"(?:update|amend|edit)\s+(?:your |the )?(?:memory|memories|claude\.md|notes)\s+"
    r"(?:so (?:that )?it (?:says|states|mentions|notes)|to (?:say|state|mention|note|reflect)|"
    r"with (?:the fact |a note |a rule )?that))"
    r"(?:\s+(?:that|this|the following|this fact|this preference|forever|for (?:the )?future|"
    r"saying|stating|that says))*"
    r"\s*(?:[:,\u2013\u2014-]\s*|\s+)(\S.*)",
    re.I,
)
REMIND = _lazy(
    r"^(?:(?:please|also|and)\s+)*(?:remember|don't forget|do not forget|make sure you remember)\s+to\s+(\S.*)",
    re.I,
)
HABIT = _lazy(
    r"\b(?:before|after|whenever|every|each|always|never|any ?time|in (?:the )?future|from now on|"
    r"going forward)\b",
    re.I,
)
MEMORY_WEAK = _lazy(
    r"^(?:note|nb|fyi|important|for (?:your )?information|for (?:the )?future reference|for reference|"
    r"(?:just\s+)?(?:so\s+)?you know(?=\s+that\b|\s*[:,\u2013\u2014-])|"
    r"keep in mind|bear in mind|just so you know|for context|heads up)(?:\s+(?:that|this))?"
    r"\s*(?:[:,\u2013\u2014-]\s*|\s+)(\S.*)",
    re.I,
)
_WHICH = (
    r"(?:files?|folders?|dir(?:ector(?:y|ies))?s?|lists?|names?|roots?|configs?|logs?|pages?|"
    r"in|under|of|inside|within|from|on|at|listed)\b"
)
SCOPE = _lazy(
    rf"(?:^|,?\s+)(?:{FROM_NOW_WORDS}|"
    # "in future" mid-sentence ("… so that in future we will know", "in future dashboard") is
    # no scope; at the start, before a comma, before the reason ("… so that the diffs stay
    # small") or at the end it is
    r"in (?:the )?future(?=\s*(?:[,.;:!?]|$|(?:always|never|don't|do not|please|use|avoid|so that|"
    r"because|since)\b))|"
    # "for all future projects": the user's work; "fix it for all future releases": the product's
    r"(?:for|in) all future (?:sessions|projects|repos|repositories|tasks|conversations|chats|work|"
    r"prs|pull requests|commits|changes|code|features|files|edits|scripts|tests)\b|until (?:told|i say|i tell you|we say|instructed) otherwise|"
    r"unless (?:told|i say|i tell you) otherwise|"
    # "in every session file, rename …", "for every project in the list, run …": which things this
    # task goes through, no scope
    r"(?:for|in) every (?:session|project|repo|task)(?!\s+" + _WHICH + r")|"
    r"(?:for|in) all (?:sessions|projects|repos|tasks)(?!\s+(?:which|that|where|with|still\b|"
    + _WHICH
    + r"))|"
    r"always and forever)"
    r"(?=[\s,:;.!?]|$)[\s,:;]*",
    re.I,
)
# "remove the deprecated flag in the future because it breaks on v3": a change put off for later,
# one to-do, not a way of working from now on (SCOPE reads "in the future" before its reason)
DEFERRED = _lazy(
    r"^(?:please\s+)?(?:remove|delete|drop|rename|deprecate|migrate|upgrade|fix|replace|refactor|"
    r"rewrite|clean up|split|merge)\b.*\bin (?:the )?future\s+(?:so that|because|since)\b",
    re.I,
)
# A purpose clause open up to a scope word: what the scope bounds is the purpose, not a rule.
# "not to" after try/make sure/be careful/remember/you is the rule's own negation ("try not to use
# emojis in the future"); only "in the future" is bounded so ("from now on" scopes the request).
_PURPOSE_OPEN = _lazy(
    r"(?:\b(?:in order to|so as to|so that)|(?<!\btry )(?<!\bsure )(?<!careful )(?<!remember )"
    r"(?<!\byou )\b(?:to not|not to))\b[^,.;:!?]*$",
    re.I,
)
_FUTURE = _lazy(r"\bin (?:the )?future\b", re.I)
# "… so I can add more reports in the future": a plan of the user's, said after a subordinator
# (the request's own "we will use pnpm from now on" is no plan)
_PLAN_MODAL = _lazy(
    r"\b(?:so|so that|in case|if|when|once|where|which|that|how|what|why|who)\s+(?:\w+\s+){0,2}?"
    r"(?:can|could|will|would|might|may)\b",
    re.I,
)

# "can you use pnpm from now on?", "from now on could you please reply in English?": a request
# asked politely, whose lasting scope makes it a rule as "use pnpm from now on" is ("can we … ?"
# is a suggestion, and "can you tell me / explain …?" a question). Not a choice ("… or stick with
# npm?"), nor Claude's liking or ability ("would you mind / like …", "can you even / still …"),
# nor one with a question of its own after it ("…, is that possible?", "…, what do you think?").
_POLITE_ASK = _lazy(
    rf"^(?!.*\bor\b)(?:(?:please|so|and|also|ok|okay)\s*,?\s+)*(?:(?:{FROM_NOW_WORDS})\s*,?\s+)?"
    r"(?:can|could|would|will)\s+(?:you|u)\s+"
    r"(?!.*,\s*(?:what|how|why|is|are|does|do|did|would|will|can|could|should|right|correct|"
    r"thoughts|ideas|any)\b)(?:please\s+|kindly\s+)?"
    r"(?!(?:tell|explain|confirm|remember|show|check|see|think|know|help|let|do|be|give|find|"
    r"look|make|mind|like|prefer|rather|even|still|not|really|ever)\b)[a-z]",
    re.I,
)


def lasting_scope(sentence: str) -> bool:
    """Whether a scope word (SCOPE) makes `sentence` meant to last, as "from now on" does. Not
    when the scope bounds something else: a plan of the user's ("… so I can add more reports in
    the future"), a purpose ("… to not get confused in the future"), or one change put off
    ("remove X in the future because …", DEFERRED), or a question about it ("… in the
    future?"). The rules' framing and the gate's exemption both ask this one question."""
    scope = SCOPE.search(sentence)
    if not scope or (sentence.rstrip().endswith("?") and not _POLITE_ASK.match(sentence)):
        return False  # "… in the future?" asks about it
    before = sentence[: scope.start()]
    if _PLAN_MODAL.search(before):
        return False
    if _FUTURE.search(scope.group(0)) and _PURPOSE_OPEN.search(before):
        return False
    return not DEFERRED.match(sentence)


# "whenever I click save, nothing happens": a consequent that reports instead of instructing.
OBSERVATION = _lazy(
    r"^(?:the|a|an|nothing|it|this|that|i|we|they|there|my|our|everything|something|some|all)\b|"
    # "whenever you compact the conversation, you go stupid": what happens, said to Claude
    r"^you\s+(?:always\s+|just\s+)?(?:go|get|become|seem|start|forget|lose|mess|break|turn|are)\b",
    re.I,
)
# "whenever you commit, run the linter": said on a repeated event (group 1 the rule). The claim
# is the sentence as said (`directive.conditional`).
CONDITIONAL = _lazy(
    r"^(?:whenever|every time|each time|any ?time|before (?:you\s+|we\s+)?(?:commit|push|merg|deploy|releas|"
    r"open|creat)\w*|after (?:you\s+|we\s+)?(?:edit|chang|modif|commit|push|touch|updat|add)\w*|"
    r"when(?:ever)? (?:you|we) (?:\w+\s+){1,5}?(?:always|never)\b)\b[^,]{3,100},\s*(\S.*)",
    re.I,
)
# "before committing, always run the tests", "when you push, never skip the hooks": a standing
# rule with a workflow event said first, read as if said in the other order ("always run the
# tests before committing") so that the event is kept and both orders give one claim. Group 1
# the event, group 2 the rule: one clause opening with always / never / don't (the caller
# checks it is one rule, and not about the event itself).
EVENT_FIRST = _lazy(
    r"^((?:before|after) (?:you\s+|we\s+)?(?:commit|push|merg|deploy|releas|edit|chang|modif|updat)\w*|"
    r"when (?:you|we) (?:commit|push|merge|deploy|release|edit|change|open a (?:pr|pull request))\w*)"
    r"\s*,\s*((?:always|never|don't|do not)\s+[^,;?]+?)\s*[.!]*$",
    re.I,
)

# "to run the tests, use `make test`": how things are done here.
PURPOSE = _lazy(
    r"^to\s+(?:run|build|start|test|deploy|lint|format|install|release|debug|serve|launch|publish|"
    r"regenerate|generate|update|check|typecheck|type-check|migrate|seed|reset|bump)\b[^,]{2,60},\s*"
    r"(?:use|run|call|do|type|execute|invoke|just run)\s+(\S.*)",
    re.I,
)


# "the requirement is …", "the goal here is …": the aim of this task, said in passing.
TASK_AIM = _lazy(
    r"^(?:the\s+)?(?:requirement|goal|task|point|idea|problem|issue|aim|objective|question)s?\s+"
    r"(?:here\s+)?(?:is|are|was)\b",
    re.I,
)


def clause_rules(
    c: str, *, first_of_request: bool, origin: str, bug_report: bool = False
) -> Hit | None:
    """(claim, kind, "family.name") of the first registry entry that reads the clause."""
    return clause_hit(Clause(c, first_of_request, origin, bug_report))


def _nothing_to_keep(c: str) -> bool:
    """What a "remember" may be put on that holds nothing to keep."""
    return bool(
        # "remember: fix the login bug": a to-do of this work, as "remember to" is
        (TODO_NOW.match(c) and not HABIT.search(c))
        # "remember where the config lives": a thing pointed at, nothing said of it
        or WH_POINTER.match(c)
        # "(remember:) when you deploy, …" cut at its comma: the case without its rule
        or (re.match(r"^(?:when|whenever|if|before|after|once|until|unless)\b", c, re.I) and "," not in c)
    )


def imperative(c: str) -> Rule | None:
    """Fallback for text the user explicitly asked to keep ("remember to X", "from now on X")."""
    c = re.sub(r"^(?:to|that)\s+", "", c.strip(), flags=re.I)
    c = re.sub(
        r"^(?:you|claude)\s+(?:should|must|need to|have to|will|shall)\s+", "", c, flags=re.I
    )
    c = re.sub(r"^(?:you|claude)\s+", "", c, flags=re.I)
    if vague(c) or content_words(c) < 2 or c.split(" ", 1)[0].lower() in PRONOUNS:
        return None
    if place_only(c):
        return None  # "save it as a rule in the eslint config": where to keep it, no rule said
    if TASK_AIM.match(c):
        return None  # "remember, the requirement is 'exact or prefix'": this task's aim
    if re.match(r"^(?:needs?|is|are|was|were|has|have|still)\b", c, re.I) or re.search(
        r"\bstill\b", c, re.I
    ):
        return None  # "remember (this) still needs to …": its subject was named elsewhere
    first = c.split(" ", 1)[0].lower()
    if _nothing_to_keep(c):
        return None
    if first in ("can", "could", "may", "might"):
        return None  # "remember (that you) can use the helper agent": a permission, no rule
    if re.match(r"^(?:always|never|don't|do not|only|must)\b", c, re.I):
        return cap(c), "constraint"
    if first in IMPERATIVES or first.endswith("ly"):
        return cap(c), "preference"
    if first == "request" and not _FINITE.search(c):
        return cap(c), "preference"  # "request a review …" asks; "request ids are logged" states
    if bare_np(c):
        return None  # "remember the orchestration part": a thing named, nothing said of it
    valued = _VALUED.search(c)
    if valued and (
        valued.group(1).lower() in _JUDGES_ANY
        or re.match(r"^\w+ing\b", c)
        or re.search(r"\bfor (?:me|us)\b", c, re.I)
    ):
        # "using the template with X is very helpful": a stance; "the crash is easier to reproduce
        # on firefox", "node 20 works better with arm": a comparison of things, a fact
        return cap(c), "preference"
    return cap(c), "fact"  # "staging and prod share one Redis": a statement, not an instruction


# "where the config lives", "how the cache works": a question word pointing at a thing.
WH_POINTER = _lazy(r"^(?:where|what|which|who|whom|whose|why|how)\b", re.I)
# A piece of work to do (mend, finish, look into): kept to be done, not to be known.
TODO_NOW = _lazy(
    r"^(?:fix|finish|complete|debug|investigate|look into|address|resolve|refactor|implement|"
    r"clean up|follow up on|check on)\b",
    re.I,
)


# What the user values said as a judgement of a way of working ("… is very helpful", "… works
# better", "… is the way to go"), not a property of a thing.
_VALUED = _lazy(
    r"\b(?:is|are|works?)\s+(?:(?:very|really|much|so|far|way|quite|extremely|a lot|more|most)\s+)*"
    r"(helpful|useful|better|best|preferred|preferable|nicer|cleaner|easier|the way to go)\b",
    re.I,
)
# the words that judge whatever they are said of; the others compare things ("the crash is easier
# to reproduce on firefox") unless said of a way of working (a gerund) or of the user ("for me")
_JUDGES_ANY = frozenset({"preferred", "preferable", "the way to go"})


# A statement says something of its subject: a verb after the first word (a copula, a modal, a
# verb in -s/-ed, a negation), not a bare noun phrase.
_FINITE = _lazy(
    r"[\s-](?:is|are|was|were|be|been|has|have|had|does|do|did|doesn't|don't|isn't|aren't|can|"
    r"can't|cannot|could|should|must|will|won't|would|may|might|need|needs|not|never|always|"
    r"[a-z]+(?:s|ed))\b",
    re.I,
)


def place_only(c: str) -> bool:
    """`c` names only a place ("in the eslint config", "to the project section"), nothing said
    there: what is left of "save it as a rule in X" once the asking is read off."""
    return bool(re.match(r"^(?:in|on|at|into|to|under|inside|within)\s", c, re.I)) and not (
        # an auxiliary or a rule word says something there ("in staging the db is read-only");
        # a plural noun ("in the conventions part") does not, so _FINITE's -s is not enough
        _SAYS.search(c)
        # "in CI we use node 20": a subject after the place says something there
        or re.search(
            r"\b(?:i|we|you|they|he|she|it|everyone|everything|nobody|nothing)\s+\w", c, re.I
        )
    )


_SAYS = _lazy(
    r"\b(?:is|are|was|were|be|has|have|had|does|do|did|doesn't|don't|isn't|aren't|can|can't|"
    r"cannot|could|should|must|will|won't|would|may|might|need|needs|never|always|only)\b",
    re.I,
)


def bare_np(c: str) -> bool:
    """`c` is a noun phrase opened by its determiner with no verb after it ("the orchestration
    part", "the deploy key"): a thing named, nothing said of it. A clause without a determiner
    ("deploys go out from the release branch") is not judged: its plural verb has no mark."""
    return bool(re.match(r"^(?:the|a|an|my|our|this|that|your)\s", c.strip(), re.I)) and not (
        _FINITE.search(c)
    )
