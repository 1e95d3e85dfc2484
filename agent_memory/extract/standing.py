"""Whether a constraint said in one statement is a standing rule, not an instruction for the
current turn.

"don't touch the layout", "do not modify code", "keep all the animations" are said while asking
for a piece of work: they bound that work and expire with it. A rule meant to last is either
said so ("always", "never", "from now on", "in this project", "every time", "unless I ask") or
said on its own: a short statement (one or two sentences) that asks for no other piece of work,
and that names a practice rather than a piece of the thing being worked on ("this", "here",
"the button", "the layout"). The language rules (rules/languages.py) already need an explicit
marker and pass untouched. A preference of the choice or directive rules ("use X for Y",
"avoid X", "I don't want X") is read the same way for the work around it (`_preference_stands`);
facts and decisions pass.

Each criterion was kept only where it removed more false atoms than true ones on people whose
prompts were never read while writing it (notes/28-narrow.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent_memory.extract.filters import FROM_NOW_WORDS, TASK_NOUNS
from agent_memory.extract.text import words
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# Said to last. English markers, and the same words of the languages the language rules read
# (an English rule may read a mixed sentence).
STANDING = _lazy(
    rf"\b(?:always|never|ever|{FROM_NOW_WORDS}|(?:in|for) (?:the )?future|"
    r"every ?time|each time|whenever|any ?time|by default|as a rule|in general|generally|"
    r"remember|anymore|any more|no longer|at all times|under no circumstances|globally|"
    r"global (?:rules?|instructions?|settings?|memory)|unless (?:i|we|asked|told)\b|"
    r"unless (?:(?:you(?:'re| are)|it is|it's)\s+)?(?:explicitly |specifically |directly )?"
    r"(?:asked|told|requested|instructed)\b|"
    r"until (?:i|we) say|until (?:told|further notice)|on (?:your|its|their) own|without (?:my|asking|permission|approval|"
    r"authori[sz]ation|confirmation)|"
    r"in (?:this|the|our|my|all|every|any) (?:projects?|repos?|repositor(?:y|ies)|codebases?|"
    r"code ?base)|(?:this|the|our|my) (?:project|repo|repository|codebase|team) (?:uses?|does)|"
    r"siempre|nunca|immer|niemals|toujours|jamais|sempre|mai|всегда|никогда)\b|"
    r"总是|永远|每次|以后|始终|いつも|常に|毎回|今後|항상|매번",
    re.I,
)

# A sentence asking for a piece of work now ("fix the…", "please update…", "go through…").
_WORK = (
    r"fix|implement|update|add|create|change|remove|delete|refactor|build|move|rename|rewrite|"
    r"write|split|clean|continue|carry on|keep going|go on|proceed|go ahead|go through|make|modify|"
    r"replace|convert|generate|"
    r"run|test|check|review|study|look|read|analy[sz]e|investigate|debug|deploy|commit|push|"
    r"install|set up|setup|start|finish|complete|try|help|give|tell|show|explain|find|figure|"
    r"research|plan|design|organi[sz]e|migrate|upgrade|spawn|launch|open|restart|kill|stop|"
    r"let's|lets|let me|now|do (?:a|an|the|some|it|this|that)"
)
_FILLER = (
    r"(?:(?:ok(?:ay)?|so|and|also|then|now|please|pls|plz|just|first|next|great|perfect|good|"
    r"yes|yeah|no|cool|thanks|thank you)\W*\s*)*"
)
WORK_REQUEST = _lazy(
    _FILLER + r"(?:(?:can|could|would|will) (?:you|u)\s+(?:please\s+)?|"
    r"i (?:want|need|would like|'d like) you to\s+|i need to\s+)?"
    rf"(?:{_WORK})\b",
    re.I,
)
# The sentence opens with the rule itself ("don't …", "never …"), not with the work asked for.
_RULE_FIRST = _lazy(
    _FILLER + r"(?:don't|do not|dont|never|always|avoid|only|stop|let's not|let us not|"
    rf"(?:let's\s+)?(?:make sure|be sure|ensure)|no\b(?!\W*(?:{_WORK})\b))\b",
    re.I,
)
# The thing being worked on: "this", "here", "the button", "the layout", "that component".
# ("the user" is who the product serves, named in many standing rules)
_TASK_NOUN = "|".join(sorted(TASK_NOUNS - {"user", "users"}))
DEIXIS = _lazy(
    r"\b(?:this|these|those|here)\b(?!\s+(?:project|repo|repository|codebase|team|company)\b)|"
    # "that" pointing, not joining a clause ("code that is not necessary")
    r"\bthat\b(?!\s+(?:is|are|was|were|we|you|i|it|they|he|she|there|the|a|an|will|would|can|"
    r"could|should|must|has|have|had|does|do|did|not|no|\w+s|\w+ed)\b)|"
    rf"\b(?:the|any other|other)\s+(?:\w+\s+)?(?:{_TASK_NOUN}|layout|screen|part|bit|piece)\b",
    re.I,
)
# A rule whose last word is the user ("… to me", "… direct me") reacts to the last answer; a
# rule meant to last says so ("don't just agree with me, ever").
_AT_ME = _lazy(r"\b(?:me|us)\W*$", re.I)
# A sentence up to this long is said on its own; in a longer run-on a marker may be another
# clause's.
_SHORT_SENTENCE = 150  # characters
_GUESS = _lazy(
    r"\b(?:i think|i guess|i believe|i suppose|maybe|probably|perhaps|not sure)\b", re.I
)
# The user's own stance ("I only want to run my services via tmuxinator", "I don't want snap on
# my hosts"), not a bound on a piece of work asked of the assistant ("I want you to …").
OWN_WISH = _lazy(
    r"^(?:(?:no|yes|ok(?:ay)?|so|and|but|also|because|since)\W*\s+)*i\s+(?:really\s+|just\s+|"
    r"only\s+|also\s+)*(?:do not|don't|dont|never)?\s*(?:want|prefer)\b(?!\s+you\b)",
    re.I,
)


# "don't write any code, just explain it", "do not run the build just tell me the command": the
# prohibition clears the way for the thing asked instead, right now ("just <do this>"). What is
# asked instead is the turn's talk or look ("just explain", "just tell me the command", "just
# finish the summary here"). A tool chosen instead ("don't use npm, just use pnpm") names no thing
# of the work, and a way of coding ("just call the library directly", "just write clear code") is
# the practice wanted instead: both still stand.
_JUST_VERBS = words(
    "understand explain tell answer reply describe list summarize summarise report analyze "
    "analyse investigate plan think look read review check show give finish wait focus"
)
_NEGATED_THEN_JUST = _lazy(
    r"\b(?:don't|do not|dont|never|must not|mustn't|should not|shouldn't)\b[^.!?]*?"
    r"(?:[,;:]|\s)\s*just\s+(?:(\w+)\b|use\s+(?:the|this|that|these|those|my|your)\b)",
    re.I,
)
# A prohibition on how the assistant deals with the user, whatever step follows it.
_CONDUCT_CLAIM = _lazy(r"^User does not want Claude to\b")
# "stop making changes and write up what you did": stop this, then do that — two steps of now.
_STOP_THEN_WORK = _lazy(
    r"^\W*(?:please\s+)?(?:stop|quit)\s+\w+ing\b[^.!?]*?\band\s+(?:then\s+)?(\w+)\b", re.I
)


def step_instead(sentence: str, claim: str = "") -> bool:
    """The prohibition of `sentence` only makes room for a step asked for now (see above). A
    prohibition on how the assistant deals with the user ("don't ask me for confirmation, just do
    it") names conduct, which the step after it does not bound."""
    if _CONDUCT_CLAIM.match(claim):
        return False
    said = sentence.strip()
    just = _NEGATED_THEN_JUST.search(said)
    if just and (just.group(1) is None or just.group(1).lower() in _JUST_VERBS):
        return True
    stop = _STOP_THEN_WORK.match(said)
    # "stop making changes and write a report": the next act of this turn ("stop guessing and
    # ask me when unsure" asks for conduct, which stands)
    return bool(
        stop and stop.group(1).lower() in _JUST_VERBS | {"create", "write", "revert", "undo"}
    )


# What the clauses of a comma-spliced sentence are read for (work_spliced, work_before): work
# asked ("you should add …", "check the handlers …"), a prohibition, a decision of the team.
_YOU_SHOULD = _lazy(
    r"^\W*(?:(?:yes|ok(?:ay)?|so|and|also)\W+)*(?:you|we)\s+(?:should|need to|must|have to)\s+"
    rf"(?:{_WORK})\b",
    re.I,
)
_PROHIBITION = _lazy(r"^(?:never|don't|do not|avoid)\b", re.I)
# "don't pip install anything, add it to pyproject.toml instead": a practice forbidden, then the
# one done in its place (sentence._remedy)
_DONE_INSTEAD = _lazy(r"^(?:never|don't|do not)\b[^,;]*[,;]\s*[^,;]+\binstead\W*$", re.I)
_WE_DECIDE = _lazy(
    r"\bwe\s+(?:will|shall|won't|are going to|are not going to|do not|don't|never|no longer)\b",
    re.I,
)
_WORK_VERBS = "|".join(w for w in _WORK.split("|") if w not in ("now", "let's", "lets", "let me"))
_WORK_FIRST = _lazy(
    r"(?:please\s+|then\s+|also\s+|and\s+)*(?:(?:can|could|would) (?:you|u)\s+(?:please\s+)?)?"
    rf"(?:{_WORK_VERBS})\b(?!\s+(?:is|are|was|were|has|have)\b)",
    re.I,
)


# "the endpoint should only return ids, check the handlers first, they …": a work request spliced
# on with a comma after the rule in one sentence; the rule is the spec of that work. A dash's
# blanks are read from the first of their run only: tried from each blank of a long run, each
# try scanned the rest of it (split() on 32,000 blanks: 2.6 s). Same splits: a match never
# starts after a blank, as both branches end by taking every blank that follows.
_SPLICE = _lazy(r"[,;]\s+|(?<!\s)\s+-\s+")


# "we should drop the old layout", "you need to rename the hook": a piece of work asked for
# ("we should always …" states a rule instead).
_WE_SHOULD_DO = _lazy(
    r"^\W*(?:(?:yes|ok(?:ay)?|so|and|also)\W+)*(?:you|we)\s+(?:should|need to|must|have to)\s+"
    r"(?:(?:really|probably|also|just)\s+)*(?!always\b|never\b|not\b|be\b)\w+",
    re.I,
)
# "I am always learning", "we're a small team": the speaker describing themselves. Where the
# speaker is or works ("I'm on Fedora", "we're using Bun") is their setup, after which "I always
# use fish" is one more fact of it, not the description going on.
_SELF_DESCRIPTION = _lazy(
    r"^\W*(?:i|we)(?:\s+am|'m|\s+are|'re)\b(?!\s+(?:on|using|in|at|running|with|behind)\b)", re.I
)


def asks_or_describes(clause: str) -> bool:
    """`clause` asks for a piece of work ("we should drop the old layout", "add the check") or
    describes the speaker ("I am always learning"): an "I/we always …" clause spliced on after it
    gives its reason or goes on with the description ("…, we always need a layout", "…, I never
    stop"), not a rule of its own."""
    said = clause.strip()
    return bool(
        WORK_REQUEST.match(said) or _WE_SHOULD_DO.match(said) or _SELF_DESCRIPTION.match(said)
    )


def work_spliced(sentence: str) -> bool:
    """A later comma-spliced clause of `sentence` asks for a piece of work now. A decision of
    the team said first ("we will not use docker, update the docs accordingly") is the premise
    of that work, not its spec."""
    parts = _SPLICE.split(sentence.strip())
    if _WE_DECIDE.search(parts[0]):
        return False
    return any(_WORK_FIRST.match(p) for p in parts[1:])


def work_before(sentence: str) -> bool:
    """A comma-spliced clause asking for work comes before the user's preference in
    `sentence` ("yes you should add it to the model, I prefer a name like X, then …"); a
    preference said first and followed by a step ("I prefer small PRs, then review them") is
    the user's own."""
    parts = _SPLICE.split(sentence.strip())
    for i, part in enumerate(parts):
        if OWN_WISH.match(part) or _CHOICE_FIRST.match(part):
            return any(_WORK_FIRST.match(p) or _YOU_SHOULD.match(p) for p in parts[:i])
    return False


# A question weighing a way of doing the work at hand, asked of the assistant.
_WEIGHING = _lazy(
    r"^\W*(?:(?:ok(?:ay)?|so|and|but|hmm|correct)\W+)*(?:what if\b|"
    r"(?:how|what) would you\b|which (?:one|option|approach|way) (?:is|would|should|do)\b|"
    r"(?:is|would) (?:that|this|it) (?:be )?(?:better|worse|enough|ok|okay|fine|preferable)\b|"
    r"(?:does|do) (?:that|this|it) make sense\b|makes? sense\b)[^?]*\?",
    re.I,
)


@dataclass(frozen=True)
class Shape:
    """The statement around a sentence: its sentences, in order."""

    sentences: tuple[str, ...]
    quoted: tuple[bool, ...] = ()  # inside a quotation opened before it
    report: bool = False  # a markdown heading inside: a pasted report or plan

    def asks_work_besides(self, index: int) -> bool:
        """Another sentence than the `index`-th asks for a piece of work ("Please split
        UpdateBuilder up a bit. Each type should have its own file.")."""
        return any(
            WORK_REQUEST.match(o.strip()) or work_spliced(o)
            for i, o in enumerate(self.sentences)
            if i != index
        )

    def weighs_options_besides(self, index: int) -> bool:
        """Another sentence asks the assistant to weigh a way of doing the work at hand ("Would
        that be better?", "What if we drop the flag?", "how would you approach this?"): a
        preference said next to it picks among this task's options."""
        return any(_WEIGHING.match(o.strip()) for i, o in enumerate(self.sentences) if i != index)


def shape(sentences: list[str], masked: str = "") -> Shape:
    """`masked`: the statement the sentences were cut from (where a quotation opens)."""
    quoted = []
    at = marks = 0
    for sentence in sentences:
        pos = masked.find(sentence.strip()[:40], at)
        if pos < 0:
            quoted.append(False)
            continue
        marks += masked.count('"', at, pos)  # counted once over the statement, not per sentence
        quoted.append(marks % 2 == 1)
        at = pos
    return Shape(tuple(sentences), tuple(quoted), bool(_HEADING.search(masked)))


# "## Next steps" inside the statement (a statement that opens with one is dropped whole, see
# prepare.PASTED_DOC): what follows is a pasted report's or plan's, not the user's rule.
_HEADING = _lazy(r"(?:^|\s)#{2,4}\s+\S")


def carries_over(claim: str, kind: str, rule: str, sentence: str, index: int, s: Shape) -> bool:
    """A constraint of `sentence` (the `index`-th of the statement) kept as a standing rule;
    every other kind, and the language rules, pass."""
    if rule.startswith("language."):
        return True
    if rule in _PLAN_RULES:
        return plan_stands(sentence, s)
    if kind == "preference":
        return _preference_stands(claim, rule, sentence, index, s)
    if kind == "fact":
        # "wait, I think we are using batch/dro": a guess about the code, said while looking
        return not (_GUESS.search(sentence) and len(sentence.strip()) <= _SHORT_SENTENCE)
    if kind != "constraint":
        return True
    said = sentence.strip()
    if s.report or (index < len(s.quoted) and s.quoted[index]):
        return False  # a pasted report, a prompt being drafted in quotes: not the user's rule
    if STANDING.search(said) or rule in STANDS_BY_ITS_SHAPE:
        return True
    if rule.startswith("directive.") and step_instead(said, claim):
        return False  # "don't write code, just explain": the step asked for instead, now
    if _AT_ME.search(claim):
        return False  # "don't suggest rubbish to me": a complaint about the last answer
    if DEIXIS.search(claim):
        return False  # "don't change any other element but the layout": this piece of work
    if OWN_WISH.match(said) and not rule.startswith("directive."):
        return True  # "I only want to run my services via tmuxinator": the user's own stance
    if len(s.sentences) > 2:
        return False  # one line of a longer request: a bound on the work it asks for
    if s.weighs_options_besides(index):
        return False  # "there should be no overlaps, one slot per person. makes sense?": a spec
    if rule.startswith("directive.") and WORK_REQUEST.match(said) and not _RULE_FIRST.match(said):
        return False  # "continue with the test and do not edit the .env file"
    if _spec_spliced_to_work(claim, said):
        return False
    # "Please split UpdateBuilder up a bit. Each type should have its own file."
    return not s.asks_work_besides(index)


# Rules whose shape says they stand, wherever they are said: a step on every commit or push,
# a thing banned from the code or the repository, the language a kind of text is written in,
# what the user is called.
STANDS_BY_ITS_SHAPE = frozenset(
    {"directive.on_every_event", "directive.banned", "preference.written_in", "preference.call_me",
     "preference.artifact_rule", "directive.must_on_event"}  # fmt: skip
)


def _spec_spliced_to_work(claim: str, said: str) -> bool:
    """"the service should only return ids, check the handlers of this repo": a spec of the
    thing being built, with the work asked on it. A practice forbidden ("don't use any, fix the
    types") is no spec of it, nor is what is done in its place ("…, add it to pyproject.toml
    instead")."""
    return work_spliced(said) and not _PROHIBITION.match(claim) and not _DONE_INSTEAD.match(said)


# "I want to use X", "we will (also) use X for Y", "I'd stick with X": the user's plan. Said as a
# statement of its own it is the choice made ("We'll use Redis for caching."); said inside a
# longer message — next to a question ("I want to use X. What does that flag do?"), as the opening
# of a question ("I want to use X, can you do that?"), or beside the steps and answers asked for
# ("We will also use X for that part. Short answer") — it is a pick for the work at hand. Labels
# of TUNE people's such lines: none of 11 marks the plan itself durable (notes/28-en5.md).
_PLAN_RULES = frozenset({"decision.want_to_use", "decision.will_use"})


def plan_stands(sentence: str, s: Shape) -> bool:
    """A plan rule's choice (see above) stands: said to last, or said as a whole statement that
    is not a question."""
    said = sentence.strip()
    if len(said) <= _SHORT_SENTENCE and STANDING.search(said):
        return True
    # (a request spliced on in the same sentence is left alone: "we'll use X, update the docs"
    # states the team's choice and then the work that follows from it)
    return len(s.sentences) == 1 and not said.endswith("?")


# "use short and concise commit messages", "descriptive variable names": how a kind of text is
# written, which holds for every later text of that kind even when said with a piece of work.
_WRITING_STYLE = _lazy(
    r"\b(?:commit messages|messages|names|comments|docstrings|titles|descriptions)\s*$", re.I
)
# "Use pnpm, not npm": one tool chosen over another for the same job is a choice of the project,
# not a step of the work it is said with ("Set up the skeleton. Oh and pnpm, not npm, please.",
# "Write tests with vitest instead of jest."); none of the step-of-work removals judged on
# strangers had this shape (notes/28-steps.md).
_TOOL_CONTRAST = _lazy(r"^Use \S.*, not \S", re.I)
# The sentence opens with the user's own choice or stance, not with the work asked for.
_CHOICE_FIRST = _lazy(r"^\W*(?:please\s+)?(?:use|prefer|stick)\b", re.I)


# "I don't like red text on grey, maybe make it white", "… Could you change the colours?": a
# change to the thing at hand asked right after a dislike shows the dislike is of that thing.
_DISLIKE = _lazy(r"^User does not (?:like|want)\b(?! Claude\b)")
# The change is offered ("maybe …", "could you …?") or made to "it" ("make it white"); a plain
# "make the messages plain" after "I don't want emojis in commit messages" restates the rule.
_FIX_VERB = r"(?:make|change|turn|set|switch|move|put|swap|colou?r|paint)\s+"
_FIX_AT_HAND = _lazy(
    r"^\W*(?:(?:so|just|please|instead|and|then)\s+)*(?:"
    rf"(?:maybe|perhaps|(?:can|could|would) you)\s+(?:just\s+|please\s+)?{_FIX_VERB}"
    r"(?:it|them|this|that|these|those|the)\b|"
    rf"{_FIX_VERB}(?:it|them|this|that|these|those)\b)",
    re.I,
)


def _fix_follows(said: str, index: int, s: Shape) -> bool:
    later = _SPLICE.split(said)[1:] + list(s.sentences[index + 1 :])
    return any(_FIX_AT_HAND.match(part.strip()) for part in later)


def _preference_stands(claim: str, rule: str, sentence: str, index: int, s: Shape) -> bool:
    """A preference said to stand, or one not said as a step of a piece of work asked for in
    the same statement ("Fix the touch screen. Use nix-shell -p libinput for all operations.
    Apply it now.", "add the modules, map their dependencies and avoid cycles"). Tastes and the
    other rules' preferences ("I like svelte", "we use yarn") pass: only the choice and
    directive rules read an instruction. A directive's wish pointing at the thing being worked
    on ("I don't like the gap under the header") is the screen at hand; for the other rules
    that check was not used: "answers that start with the result" names no piece of work."""
    said = sentence.strip()
    if rule in STANDS_BY_ITS_SHAPE:
        return True
    # the marker of a long run-on sentence may be another clause's ("make sure the ai never
    # edits the tests, use pysal only"): there it counts only inside the claim
    if STANDING.search(claim) or (STANDING.search(said) and len(said) <= _SHORT_SENTENCE):
        return True
    if rule.startswith("directive.") and DEIXIS.search(claim):
        return False  # "I don't like the empty space left of the line": the screen at hand
    if rule.startswith("directive.") and _DISLIKE.match(claim) and _fix_follows(said, index, s):
        return False  # "I don't like red text on grey, maybe make it white": the screen at hand
    if rule.startswith("directive.") and step_instead(said, claim):
        return False  # "avoid refactoring, just fix the bug": the step asked for instead, now
    instruction = rule.startswith(("preference.", "directive.")) and rule != "preference.like"
    if not instruction or _WRITING_STYLE.search(claim) or _TOOL_CONTRAST.search(claim):
        return True
    # "I don't want X, …" opens with the user's stance; "I need to build X with …" with the work
    first = _RULE_FIRST.match(said) or _CHOICE_FIRST.match(said) or OWN_WISH.match(said)
    if WORK_REQUEST.match(said) and not first:
        return False  # "do the things noted above and use grep mcp for examples"
    if work_before(said):
        return False  # "add it to the model, I prefer a name like X, then wire it up": a step
    return not (s.asks_work_besides(index) or s.weighs_options_besides(index))
