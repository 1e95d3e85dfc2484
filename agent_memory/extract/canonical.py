"""Canonical claims: restatements of one rule become one claim string, hence one atom id.

A fact climbs tiers because it *recurred* (the L1→L2 gate counts the distinct sessions
of ONE atom, and an atom's id is `sha256(normalize(claim) + "\\0" + project)`). People restate
a rule in many ways, so every extracted claim goes through one deterministic rewrite:

- framing and politeness go: "remember that", "note that", "keep in mind", "FYI", "please";
- scope tails that add nothing go: "in this repo", "for everything in this project", "from now
  on", "going forward", "here", "everywhere", "ever";
- "we use X" is "Use X"; "we don't/never <policy verb> X" is "Never <verb> X";
- a prohibition is always spelled "Never X" ("don't X", "do not X", "don't ever X"), without a
  closing emphasis that names nothing ("… anything", "… at all"; "… directly" only after a
  tool's own command: "never pip install directly" is "Never pip install"); a closing
  "directly" after where it goes qualifies it ("never commit to main directly" is "Never
  commit directly to main"), and after an object it names the route forbidden, so it stays
  ("never edit the lockfile directly" lets the package manager edit it);
- the event a rule is tied to is said one way: "before you commit" is "before committing",
  "after you push" "after pushing";
- a style rule is "Always write <things> in <name> style" ("docstrings should always follow the
  Google style", "always use Google style for docstrings");
- a function named bare with its empty call parentheses is named without them ("never use
  print()" is "Never use print"; a code span keeps its spelling);
- contrasts are one shape: "use/prefer/go with/stick with X instead of / rather than / over / ,
  not Y" is "Use X, not Y"; when X and Y are interchangeable tools of one family (npm/pnpm,
  jest/vitest, pip/uv …) the verb phrase adds nothing either ("tests run with vitest, not jest",
  "format with ruff, not black") and the claim is "Use X, not Y";
- the same contrast said the other way round, the refused one first ("don't use npm, use pnpm
  instead"), is "Use X, not Y" too (`refusal_as_contrast`, for one-word names and code spans;
  the sentence reader joins the two clauses first). Likewise, before this rewrite, the
  sentence reader reads a standing rule said after its workflow event as if said before it
  ("before committing, always run the tests" is "Always run the tests before committing").

What deliberately stays distinct (a different rule, or a qualifier that matters):

- negation is never dropped or added: "Never push to main" and "Push to main" differ;
- objects, tools and subjects are kept word for word: "Never push directly to main" and "Never
  push to main" stay two claims (a qualifier changes what is forbidden; merging them is a
  judgement for `consolidate`, which a human reviews), as do "Use pnpm, not yarn"
  and "Use pnpm, not npm";
- "Avoid X" (a preference) is not "Never X" (a constraint);
- a purpose tail stays: "Use Tailwind, not CSS modules, for styling";
- code spans are placeholders here (masked by the caller) and come back verbatim.

The rewrite is idempotent (canonical(canonical(c)) == canonical(c)), which the tests check.
"""

from __future__ import annotations

import re

from agent_memory.extract.filters import FROM_NOW_WORDS
from agent_memory.extract.text import NOT_RIGHT_AFTER_TAKER, OBJECT_TAKERS, words
from agent_memory.model.tool_families import FAMILIES, KNOWN_TOOLS
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# A code span or URL masked by `extract.text.mask`: one opaque token.
_PH = "\ue000\\d+\ue001"
_TOKEN = rf"(?:{_PH}|[\w.@/+#-]+)"

_FRAMING = _lazy(
    r"^(?:please|kindly|pls|plz|just|also|fyi|nb|ps|btw|"
    r"(?:always\s+)?remember(?:\s+that)?(?=\s*[:,\u2013\u2014-]|\s+that\b)|remember that|"
    r"note(?:\s+that)?(?=\s*[:,\u2013\u2014-]|\s+that\b)|note that|"
    r"(?:keep|bear) in mind(?:\s+that)?|heads up|important(?=\s*[:,!\u2013\u2014-])|"
    r"for (?:the )?(?:record|reference|context|future reference)|(?:just )?so you know)"
    r"(?:\s*[:,!\u2013\u2014-]\s*|\s+)",
    re.I,
)
# Hyphenated spellings of common git verbs ("force-push" = "force push").
_COMPOUND_VERB = _lazy(
    r"\b(?:force-push|squash-merge|re-run|fast-forward|cherry-pick)\w*", re.I
)
# Not inside quoted UI text ('show "Please wait"'): only the user's own politeness goes. Not a
# word in a noun's place either: "use plz", "build with plz" (the build tool), "please.build".
_NOT_AFTER = "".join(rf"(?<!\b{w} )" for w in OBJECT_TAKERS)
_POLITE = _lazy(
    rf"(?:,\s*)?(?<![\"']){_NOT_AFTER}\b(?:please|pls|plz|kindly)\b(?![\"'])(?![./-]\w)(?:\s*,)?",
    re.I,
)

# Scope that restates the default: memory is per project and rules hold until superseded.
# "remember for next time: …", "… for future reference": when the thing is to be used, said of
# what is kept — no part of it ("Tests run with pytest for next time" was the claim).
_FOR_LATER = r"for (?:the )?future(?: reference)?|for future reference|for (?:the )?next time|for later"
_SCOPE_PHRASE = (
    r"(?:(?:for|with) (?:everything|all (?:of )?(?:it|the code|code))(?: in (?:this|the|our) "
    r"(?:repo|repository|project|codebase|code base|monorepo|workspace))?|"
    r"(?:in|on|for|across|throughout) (?:this|the|our) (?:whole |entire )?(?:repo|repository|project|"
    r"codebase|code base|monorepo|workspace)|"
    rf"{FROM_NOW_WORDS}|in (?:the )?future|{_FOR_LATER}|"
    r"at all times|all the time|in general|as a rule|everywhere|ever|always|here|thanks|thank you|"
    r"for me|if possible|okay|ok|please|pls|plz)"
)
# (a word in a noun's place stays: "build with plz", "deploy with always-on", "use here")
_SCOPE_TAIL = _lazy(rf"(?:\s*[,;]\s*|{NOT_RIGHT_AFTER_TAKER}\s+){_SCOPE_PHRASE}\s*$", re.I)
_SCOPE_MID = _lazy(rf",\s*{_SCOPE_PHRASE}\s*,", re.I)
_SCOPE_HEAD = _lazy(
    rf"^(?:{FROM_NOW_WORDS}|in (?:the )?future|{_FOR_LATER}|"
    r"in general|as a rule|(?:in|for|across|throughout) (?:this|the|our) (?:whole |entire )?"
    r"(?:repo|repository|project|codebase|code base|monorepo|workspace))\s*[,:]?\s+",
    re.I,
)

# Prohibitions: one spelling.
_NEGATIVE_HEAD = _lazy(
    r"^(?:do not|don't|dont|never)\s+(?:ever\s+|ever,\s+)?(?!keep\s+\w+ing\b)(?=\w)", re.I
)
_NEVER_EVER = _lazy(r"^never\s+ever\s+", re.I)
# A prohibition's closing emphasis names no object: "never pip install anything", "never pip
# install directly" and "never pip install" forbid one thing ("push directly to main" keeps its
# qualifier: an object follows it). "yourself" / "on your own" is no emphasis: "never check git
# on your own (tell me the command)" forbids doing it unasked, not doing it at all.
_EMPHASIS_TAIL = _lazy(r"\s+(?:anything|at all|whatsoever|of any kind)$", re.I)
# "directly" closes a tool's own command with nothing more to say ("never pip install directly"
# is "never pip install"); after an object it names the route forbidden, which another route
# is allowed: "never edit the lockfile directly" (the package manager may), "never call the API
# directly" (the client may) are not "never edit the lockfile", "never call the API".
_COMMAND_DIRECTLY = _lazy(
    r"^(Never\s+(?P<tool>[\w.-]+)(?:\s+[\w-]+)?(?:\s+anything)?)\s+directly$", re.I
)
# Where a prohibition goes to, with "directly" said after it, is the qualified rule said with
# "directly" before it: "never commit to main directly" is "Never commit directly to main".
_DIRECTLY_AFTER_PLACE = _lazy(
    r"^(Never\s+[\w-]+(?:\s+[\w-]+)?)\s+((?:to|into|onto)\s+[\w./-]+(?:\s+[\w./-]+){0,2}?)\s+directly$",
    re.I,
)
# A function named bare with its empty call parentheses ("never use print()") names what it
# names without them ("never use print"); a code span keeps its spelling (it is masked here).
_EMPTY_CALL = _lazy(r"(?<![\w.])([A-Za-z_](?:[\w.]*\w)?)\(\)(?![\w(.])")  # not in a chain: now().isoformat()
# "before you commit" is "before committing" (and "after you push" "after pushing"): the event a
# rule is tied to, one spelling. Only a plain verb: not "you are", "you can", "you've", nor a
# word said between "you" and the verb ("before you actually commit", "after you all push",
# "before you ever push" were "before actuallying commit", "after alling push" …); an adverb
# in -ly is one, a verb in -ply and "rely" are not.
_YOU_EVENT = _lazy(
    r"\b(before|after)\s+you\s+(?!(?:are|were|have|has|had|do|did|can|could|will|would|should|"
    r"must|may|might|need|want|get|go|see|know|think|say|tell|ask|let|try|start|begin|"
    r"all|both|each|guys|folks|yourself|yourselves|ever|even|also|just|first|then|still|"
    r"always|never|once|again|now)\b)(?!(?!rely\b|[a-z]*ply\b)[a-z]+ly\b)"
    r"([a-z]{2,})\b(?![-'])",
    re.I,
)
# verbs of two or more syllables whose last one is stressed: their final consonant doubles
_DOUBLED = words("commit submit admit omit permit emit refer prefer occur compel")


def _gerund(verb: str) -> str:
    """"commit" → "committing", "push" → "pushing", "merge" → "merging", "tag" → "tagging"."""
    low = verb.lower()
    if low.endswith("ing"):
        return verb
    if low.endswith("e") and not low.endswith(("ee", "oe", "ye")):
        return verb[:-1] + "ing"
    low = low.replace("qu", "qw")  # the u of "qu" is no vowel: "quit" → "quitting"
    one_syllable = len(re.findall(r"[aeiou]+", low)) == 1
    if low in _DOUBLED or (one_syllable and re.search(r"[^aeiou][aeiou][^aeiouwxy]$", low)):
        return verb + verb[-1] + "ing"
    return verb + "ing"


def _you_event(text: str) -> str:
    text = _YOU_EVENT.sub(lambda m: f"{m.group(1)} {_gerund(m.group(2))}", text)
    text = _EVERY_EVENT.sub(lambda m: f"{m.group(1)} {_gerund(m.group(2))}", text)
    return _TEST_SUITE.sub(lambda m: f"{m.group(1)} the tests", text)


# "before every commit" / "before each push" is "before committing" / "before pushing": the
# same event said as a noun (only the events a rule of the workflow is tied to, each a verb too).
_EVERY_EVENT = _lazy(r"\b(before|after)\s+(?:every|each)\s+(commit|push|merge|deploy|release|rebase)\b(?![-'])", re.I)
# "run the test suite" is "run the tests": "Always run the test suite before committing" and "Run
# the tests before every commit" are one rule. Only as what is run (elsewhere, "before the test
# suite" is left as written), and not a named suite ("run the e2e test suite" stays).
_TEST_SUITE = _lazy(r"\b(run|Run)\s+the\s+test\s+suite\b(?![-'])")


# A style rule is one shape, "Always write <things> in <name> style": "docstrings should always
# follow the Google style", "always use the Google style for docstrings", "always format
# docstrings using Google style" (a pronoun or the team is no subject: "we should use the X style").
_STYLE_NAME = r"(?:the\s+)?(?P<style>(?!the\b)[\w.+#-]+(?:\s+[\w.+#-]+){0,2}?)[\s-]style(?:\s+guide)?"
_STYLED = r"(?P<things>(?!(?:it|this|that|these|those|they|we|you|i|everything)\b)[a-z][\w-]*(?:\s+[\w-]+){0,2}?)"
_STYLE_RULE = (
    _lazy(rf"^{_STYLED}\s+(?:should|must)\s+(?:always\s+)?(?:follow|use|be written in|be in)\s+"
               rf"{_STYLE_NAME}$", re.I),
    _lazy(rf"^always\s+(?:follow|use)\s+{_STYLE_NAME}\s+for\s+{_STYLED}$", re.I),
    _lazy(rf"^always\s+(?:write|format)\s+{_STYLED}\s+(?:in|using|with|following)\s+"
               rf"{_STYLE_NAME}$", re.I),
)  # fmt: skip


def _style_rule(text: str) -> str | None:
    """The style rule's one shape (see above), or None: not a style rule."""
    for shape in _STYLE_RULE:
        m = shape.match(text)
        if m:
            things = m.group("things")
            if shape is _STYLE_RULE[0] and re.fullmatch(r"[A-Z][a-z]+", things.split()[0]):
                things = things[:1].lower() + things[1:]  # the subject said first: "Docstrings"
            return f"Always write {things} in {m.group('style')} style"
    return None


# "prefer X to Y" is the contrast "X over Y".
_PREFER_TO = _lazy(
    r"^(?:i\s+|we\s+)?prefers?\s+(?!not\b)(\S+(?:\s+\S+)?)\s+to\s+(\S+(?:\s+\S+)?)$", re.I
)
_WE_NEGATIVE = _lazy(
    r"^we\s+(?:do not|don't|never)\s+(use|allow|accept|commit|push|merge|deploy|ship|write|add|"
    r"rely on|depend on|mock|put|store|touch|modify|edit|include|import|run|support|target|vendor|"
    r"check in)\b",
    re.I,
)
_WE_USE = _lazy(
    r"^we(?:'re| are)?\s+(?:(?:always|generally|usually|now|all)\s+)?(?:use|using)\s+", re.I
)

# Contrasts.
_CHOICE_VERB = _lazy(
    r"^(?:(?:always|generally|usually)\s+)?(only\s+)?(?:use|prefer|pick|choose|go with|stick with|"
    r"stick to|rely on|default to|favou?r|opt for|switch to|go for)\s+(?=\S)",
    re.I,
)
_CONTRAST_SEP = _lazy(
    r"\s*,\s*(?:and\s+|but\s+)?not\s+|\s+(?:instead of|rather than|in place of|over|and not|but not|"
    r"(?<!\bdoes )(?<!\bdo )(?<!\bdid )(?<!\bis )(?<!\bare )(?<!\bcan )not(?!\s+only\b))\s+",
    re.I,
)
# A tail that qualifies the rule ("for styling", "in tests") starts with one of these, as a word
# of its own (not inside a hyphenated name: "sort-after-push", "pay-as-you-go").
_TAIL_START = _lazy(
    r"(?<![\w-])(?:for|in|on|when|whenever|with|to|across|inside|within|throughout|because|since|as|"
    r"unless|if|so|during|before|after|except|from|at|via|by)(?![\w-])",
    re.I,
)
_DETERMINER = _lazy(r"^(?:a|an|the|this|that|these|those|my|your|our|some|any)\b", re.I)
# "run the tests with X", "format code with X", "tests are run with X": a tool's role.
_TOOL_ROLE = _lazy(
    rf"^(?:(?:we|you|i)\s+)?(?:always\s+)?(?:(?:run|write|format|lint|test|build|bundle|install|manage|"
    rf"compile|type-?check|serve|deploy|package|do)(?:\s+(?:the|our|all|any|new))?(?:\s+[\w-]+){{0,2}}?|"
    rf"(?:the\s+|our\s+|all\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:(?:are|is|get|gets)\s+)?(?:run|runs|formatted|"
    rf"linted|built|tested|bundled|installed|managed|compiled|written|done|handled|served|packaged))"
    rf"\s+(?:with|using|via|through|by|in|on)\s+(?P<rest>{_TOKEN}.*)$",
    re.I,
)


def _token_name(token: str, spans: list[str]) -> str:
    m = re.fullmatch(_PH, token)
    if m:
        index = int(token[1:-1])
        token = spans[index].strip("`") if index < len(spans) else token
    return token.lower().strip(".,")


def same_family(a: str, b: str, spans: list[str] | None = None) -> bool:
    """Two single tokens naming interchangeable tools of one family (npm/pnpm, jest/vitest)."""
    x, y = _token_name(a, spans or []), _token_name(b, spans or [])
    return x != y and any(x in family and y in family for family in FAMILIES)


def _split_head(text: str, limit: int) -> tuple[str, str] | None:
    """(head, tail): the noun phrase before a comma or a qualifying preposition, ≤ limit words."""
    text = text.strip()
    cut = len(text)
    comma = text.find(",")
    if comma >= 0:
        cut = comma
    m = _TAIL_START.search(text[:cut])
    if m and m.start() > 0:
        cut = m.start()
    head, tail = text[:cut].strip(), text[cut:].strip(" ,")
    if not head or len(head.split()) > limit:
        return None
    return head, tail


def _clean_tail(tail: str) -> str:
    prev = None
    while prev != tail:
        prev = tail
        tail = _SCOPE_HEAD.sub("", _SCOPE_TAIL.sub("", tail.strip(" ,;"))).strip(" ,;")
        if re.fullmatch(_SCOPE_PHRASE, tail, re.I):
            tail = ""
    return tail


# "Never use npm; use pnpm (instead)": one name refused, another named in its place.
_PRONOUN = _lazy(r"^(?:it|this|that|them|these|those|one|ones)$", re.I)
# (a token, or a code span: the sentence reader joins clauses after the spans are put back)
_USED = rf"({_TOKEN}|`[^`\n]{{1,60}}`)"
_NEVER_THEN_USE = _lazy(
    rf"^Never use {_USED}\s*[;,]\s*(?:(?:just|please|instead)\s+)?use {_USED}(?:\s+instead)?$",
    re.I,
)


def refusal_as_contrast(claim: str) -> str | None:
    """"Never use npm; use pnpm (instead)" is "Use pnpm, not npm": one thing refused and another
    named in its place (a one-word name or a code span: a tool, "classes" / "functions"), the
    contrast said the other way round. None: not that shape, or the same thing twice."""
    m = _NEVER_THEN_USE.match(claim.strip().rstrip(".!"))
    if not m or m.group(1).lower() == m.group(2).lower() or _PRONOUN.match(m.group(2)):
        return None
    return f"Use {m.group(2)}, not {m.group(1)}"


def _contrast(body: str, spans: list[str], *, only: str = "") -> str | None:
    """'X instead of Y <tail>' → 'Use X, not Y[, tail]', or None when the shape is not a plain
    choice between two things (then the claim is left as it is)."""
    sep = _CONTRAST_SEP.search(body)
    if not sep:
        return None
    left = _split_head(body[: sep.start()], 4)
    right = _split_head(body[sep.end() :], 4)
    if not left or not right:
        return None
    (x, x_tail), (y, y_tail) = left, right
    x, y = strip_scope(x), strip_scope(y)
    if x_tail and not same_family(x, y, spans):
        return None  # "use pnpm for the frontend, not the backend": the contrast is the tail's
    if _DETERMINER.match(x) and _DETERMINER.match(y):
        return None
    tail = _clean_tail(" ".join(t for t in (x_tail, y_tail) if t))
    claim = f"Use {only}{x}, not {y}"
    return f"{claim}, {tail}" if tail else claim


def _tool_role(claim: str, spans: list[str]) -> str | None:
    """'tests run with vitest, not jest' → 'Use vitest, not jest' (the family says the role)."""
    m = _TOOL_ROLE.match(claim)
    if not m:
        return None
    rest = m.group("rest")
    sep = _CONTRAST_SEP.search(rest)
    if not sep:
        return None
    x = rest[: sep.start()].strip()
    right = _split_head(rest[sep.end() :], 2)
    if not right or " " in x or not same_family(x, right[0], spans):
        return None
    tail = _clean_tail(right[1])
    return f"Use {x}, not {right[0]}" + (f", {tail}" if tail else "")


def _strip_framing(claim: str) -> str:
    prev = None
    while prev != claim:
        prev = claim
        claim = _FRAMING.sub("", claim).strip()
    return claim


def strip_scope(text: str) -> str:
    """The text without trailing scope that restates the default ("in this repo", "from now on")."""
    prev = None
    while prev != text:
        prev = text
        text = _SCOPE_TAIL.sub("", text).strip(" ,;")
    return text


# --- the user's first person, in the third person ------------------------------------------------
#
# A claim is a memory line read later by another session, so the user's own words about
# themselves read in the third person. A claim about the user ("User uses Brave as my browser")
# has its antecedent: "my" is "their", "me" "them", "I" "they" (whose verb needs no change but
# be's), and "you" said to Claude, as the object of a verb of asking, is "Claude" ("when I ask
# you to" -> "when they ask Claude to"). Any other claim (an imperative to Claude: "never tell me
# X") names the user on first mention ("the user", "the user's", "the user asks") and then as
# "them"/"their"/"they"; "you"/"your" there are Claude already and stay, and "our" stays too
# ("our staging cluster is blue-river", "avoid rolling our own auth": the team's).
#
# The rules and the standing-rule checks read the user's own words ("… to me" ends a complaint
# about the last answer), so this runs on a claim once it is kept (`statement._extract`).
#
# Left alone: code spans and URLs, quoted text, a word inside a name or a
# path ("my-app", "MyApp", "~/my/dir", "i18n"), a capitalised "My"/"Me" inside the claim (a name:
# "My Files"), words in capitals, "we"/"us" (the user's team, which "our" then goes with), and
# claims in another language. When an "I" is followed by a verb whose form cannot be told ("I'd",
# "I set", "my wife and I"), the whole claim stays as it was: a line half in each person reads
# worse than one in the user's words.

# a word of its own, not inside a name, a path or a contraction
_WORD_BEFORE = r"(?<![\w./\\'@#$~-])"
_WORD_AFTER = r"(?![\w/\\@#$~-]|\.\w)"
_ADVERB = (
    r"always|never|usually|often|just|also|only|really|still|already|sometimes|even|actually|so|"
    # any "-ly" word but a verb ending so ("the scripts I rely on", "until I reply")
    r"generally|mostly|normally|typically|"
    r"(?!(?:apply|reply|rely|supply|comply|imply|multiply|fly|ally|rally|tally|bully)\b)\w+ly"
)
# never the verb after an "I": the user's own words ("I'm my own reviewer") nor a pronoun, the
# rewrite's own words among them (so a second pass reads nothing new)
_OWN = r"(?:my|me|mine|myself|our|ours|i|you|your|they|them|their|theirs|themselves)"
_FIRST_PERSON_WORD = _lazy(
    rf"{_WORD_BEFORE}(?:(?P<i>[Ii](?:'(?:m|ve|d|ll))?){_WORD_AFTER}"
    # what follows a subject "I": adverbs, then the verb (or a negated auxiliary)
    rf"(?P<then>(?:\s+(?:{_ADVERB}))*\s+(?P<verb>(?!{_OWN}\b)[a-z]+(?:n't)?)(?![\w'-]))?|"
    # ("oh my zsh", "oh my posh": a tool's name)
    rf"(?P<w>(?<![Oo]h )my|me|mine|myself|our|ours|My|Me|Our){_WORD_AFTER})"
)
# what is left as it is: quoted text, a code span (or its placeholder) and a URL
# (single quotes too, but not an apostrophe: "don't", "the users' files"; and the names of the
# controls an app shows its own users: "a remember me checkbox", "the about me page")
_KEPT_AS_IS = _lazy(
    rf"(\"[^\"]*\"|\u201c[^\u201d]*\u201d|\u2018[^\u2019]*\u2019|(?<![\w'])'[^'\n]*'(?![\w'])|"
    r"(?i:\b(?:remember me|about me|contact me|keep me (?:logged|signed) in|forgot my password)"
    r"(?=\s+(?:checkbox|option|button|link|page|section|field|toggle|form|cookie|token|feature|"
    r"box|tab|screen|flow|setting)s?\b))|"
    rf"`[^`]*`|{_PH}|https?://\S+)"
)
_TEAM = _lazy(r"\b(?:we|us|we're|we've|we'll|we'd|let's)\b", re.I)
# Another language: a letter outside ASCII in a word not capitalised (not a name: "José",
# "Zürich"), or a function word of one, not in capitals ("EST") nor a prefix ("non-blocking").
_OTHER_TONGUE = _lazy(
    r"(?-i:\b[a-z]*)(?![\x00-\x7f])[^\W\d_]|(?-i:(?![A-Z]{2}))"
    r"\b(?:que|por|para|pero|los|las|del|una|el|mi|tu|su|nos|ne|il|di|"
    r"je|vous|nous|est|sont|und|ich|nicht|ist|sind|mir|mich|du|wir|sempre|siempre|nunca|non(?!-))\b",
    re.I,
)
_CLAUDE_OBJECT = _lazy(
    r"\b(ask|asks|asked|tell|tells|told|want|wants|wanted|need|needs|expect|expects|remind|"
    rf"reminds|let|lets|for|to|with|from) you{_WORD_AFTER}(?!')"
)
_CLAUDE_OWN = _lazy(rf"{_WORD_BEFORE}your{_WORD_AFTER}(?!')")
_MODALS = words(
    "can could will would should must might may shall can't couldn't won't wouldn't shouldn't "
    "mustn't mightn't cannot didn't wasn't"
)
_PAST = words(
    "said told had did made went wrote got gave saw took thought knew meant ran found left kept "
    "sent built bought felt heard lost paid spent stood understood came became began broke chose "
    "forgot drove was brought caught taught fought sought spoke sat drew threw grew flew wore tore "
    "swore woke rode drank ate fell held met slept swept dealt sold shook stuck struck hung dug "
    "won hid slid spun froze stole rang sang sank swam"
)
# what an "I" that is no one comes before or after: "Part I of", "option I for", "type I error"
_NOT_A_VERB = words("of for to in on at by with from as into the a an is are this that than")
# (a capitalised heading word only: "the type I chose", "the step I skipped" are the user's)
_NUMBERED = _lazy(
    r"\b(?:Part|Chapter|Phase|Type|Option|Step|Section|Volume|Appendix|War|Season|Act|Level|"
    r"Tier|Class|Stage|Article|Title|Round|Grade)\s+$"
)
_UNSURE = words("set put read cut let hit quit shut hurt cost and or")
# (their spelling after "I", after "they", after "the user"; a negation spelled out as claims
# spell it, `text.tidy`: "doesn't" is "does not", so a rule typed in the third person converges)
_BE_HAVE_DO = {
    "am": ("are", "is"), "was": ("were", "was"), "wasn't": ("were not", "was not"),
    "have": ("have", "has"), "haven't": ("have not", "has not"), "do": ("do", "does"),
    "don't": ("don't", "does not"),
}  # fmt: skip
_CONTRACTED = {"'m": ("they're", "the user is"), "'ve": ("they've", "the user has"),
               "'ll": ("they'll", "the user will"), "'d": ("they'd", None)}  # fmt: skip


class _Unsure(Exception):
    """A first-person word whose third-person form cannot be told: the claim stays as it was."""


def _third_singular(verb: str) -> str:
    """'ask' -> 'asks', 'push' -> 'pushes', 'try' -> 'tries', 'go' -> 'goes'."""
    if verb in _MODALS or verb in _PAST or (verb.endswith("ed") and not verb.endswith("eed")
                                           and verb not in ("embed", "shred", "wed")):
        return verb  # "before I asked": past ("need", "embed" are not)
    if verb in _UNSURE or verb.endswith("n't") or re.fullmatch(_ADVERB, verb):
        raise _Unsure(verb)
    if verb.endswith(("s", "sh", "ch", "x", "z", "go", "do", "echo", "veto")):
        return verb + "es"  # (but "demos", "autos")
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# an "I" joined to another subject ("you and I", "my wife and I", "Bob and I", "the team and I"),
# not after a comma; not an "and" that closes a clause ("unless CI is green and I approve": the
# word before it is no pronoun, name or determined noun)
_JOINED = _lazy(
    r"(?:\b(?:you|he|she|they|we|him|her|them|us)|(?-i:\b[A-Z]\w*)|"
    r"\b(?:my|our|the|a|an|his|her|their|your)\s+[\w-]+)(?<!,)\s(?:and|or|nor)\s+$",
    re.I,
)


def _agrees(word: str, verb: str) -> bool:
    """Whether the verb after this "I" changes its form for "the user" ("I agree", "I'm")."""
    contracted = word[1:].lower()
    if contracted:
        return contracted in ("'m", "'ve")
    return verb in _BE_HAVE_DO or (bool(verb) and _third_singular(verb) != verb)


def _subject(word: str, then: str, verb: str, named: bool) -> str:
    """'I' (with what follows it: adverbs, then its verb) as 'they' or, named first, 'the user'."""
    contracted = word[1:].lower()
    if contracted:
        they, user = _CONTRACTED[contracted]
        if not named and user is None:
            raise _Unsure(word)
        return (they if named else user) + then  # type: ignore[operator]
    head = then[: len(then) - len(verb)]
    forms = _BE_HAVE_DO.get(verb)
    if forms:
        return ("they" if named else "the user") + head + forms[0 if named else 1]
    if not verb:
        raise _Unsure(word)  # "my wife and I": no verb of its own after it
    return ("they" + then) if named else ("the user" + head + _third_singular(verb))


# where "mine"/"ours" stands for a noun ("files that are mine", "a laptop of mine", "yours or mine")
_STANDS_FOR_A_NOUN = _lazy(
    r"\b(?:(?:am|is|are|was|were|be|been|it's|that's|'m|'re)(?:\s+not)?|of|and|or|yours)\s+$", re.I
)
_OBJECT = {"me": ("them", "the user"), "my": ("their", "the user's"), "our": ("their", "the user's"),
           "mine": ("theirs", "the user's"), "ours": ("theirs", "the user's"),
           "myself": ("themselves", None)}  # fmt: skip


def _a_name(word: str, first: bool) -> bool:
    """"My Files", "Our World": a capitalised first-person word inside a claim is part of a name."""
    return word[:1].isupper() and word != "I" and not first and not word.startswith("I'")


def _i_rewritten(piece: str, m: re.Match[str], named: bool) -> str | None:
    """This "I" (with what follows it) in the third person; None where it is a letter or a
    numeral, not the user."""
    word, then, verb = m.group("i"), m.group("then") or "", m.group("verb") or ""
    if word[:1] == "i" and not verb and "'" not in word:
        return None  # a lone "i": a letter, not the user
    if word in "Ii" and (verb in _NOT_A_VERB or _NUMBERED.search(piece[: m.start()])):
        return None  # "Part I of the spec", "a type I error": a numeral, not the user
    if _JOINED.search(piece[: m.start()]) and _agrees(word, verb):
        raise _Unsure(word)  # "when you and I disagree": the verb agrees with both
    return _subject(word, then, verb, named)


def _my_rewritten(piece: str, m: re.Match[str], named: bool, team: bool) -> str | None:
    """This "me"/"my"/"our"/"mine" in the third person; None where it is no possessive or the
    team's."""
    word, then = m.group("w"), m.group("then") or ""
    low = word.lower()
    if low in ("mine", "ours") and not _STANDS_FOR_A_NOUN.search(piece[: m.start()]):
        return None  # "never mine crypto", "a gold mine": no possessive
    if low in ("our", "ours") and (team or not named):
        # "we deploy our app", "our staging cluster is X", "avoid rolling our own auth":
        # the team's, which a claim about the user alone ("User ...") reads as theirs
        return None
    they, user = _OBJECT[low]
    if not named and user is None:
        raise _Unsure(word)
    return (they if named else user) + then  # type: ignore[operator]


def _rewrite_piece(piece: str, named: bool, team: bool, at_start: bool) -> tuple[str, bool]:
    """One unquoted stretch of a claim in the third person; (its text, whether the user has been
    named by now)."""
    out: list[str] = []
    last = 0
    for m in _FIRST_PERSON_WORD.finditer(piece):
        word = m.group("i") or m.group("w")
        if _a_name(word, first=at_start and m.start() == 0 and not out):
            continue
        if m.group("i"):
            new = _i_rewritten(piece, m, named)
        else:
            new = _my_rewritten(piece, m, named, team)
        if new is None:
            continue
        out.append(piece[last : m.start()] + new)
        last, named = m.end(), True
    return "".join(out) + piece[last:], named


def third_person(text: str) -> str:
    """The claim with the user's first person in the third (see above); unchanged when it is in
    another language or a form cannot be told. Idempotent: nothing it writes is first person."""
    if _OTHER_TONGUE.search(_KEPT_AS_IS.sub(" ", text)):
        return text
    about_user = bool(re.match(r"User(?:'s)?\s", text))
    team = bool(_TEAM.search(text))
    pieces = _KEPT_AS_IS.split(text)
    named = about_user
    try:
        for i in range(0, len(pieces), 2):  # the odd pieces are kept as they are
            pieces[i], named = _rewrite_piece(pieces[i], named, team, i == 0)
    except _Unsure:
        return text
    if about_user:
        _claude_in_the_third(pieces)
    out = "".join(pieces)
    return out[:1].upper() + out[1:] if text[:1].isupper() else out


# Where a claim about the user goes on to another clause ("User is a beginner at Rust, so explain
# your code"): what follows may be said to Claude, whose "you" stays.
_NEXT_CLAUSE = _lazy(r"[,;:]|\s(?:so|but|then)\s", re.I)


_YOU = _lazy(r"\byou(?:'\w+)?\b|\byours(?:elf)?\b", re.I)


def _claude_in_the_third(pieces: list[str]) -> None:
    """In the unkept pieces of a claim about the user, up to its first clause break: "you" asked
    of Claude is "Claude", "your" "Claude's"; unless a "you" of another kind (the subject of its
    own verb: "before you push") stays there, and then every one stays, as one reader is one
    word."""
    for i in range(0, len(pieces), 2):
        brk = _NEXT_CLAUSE.search(pieces[i])
        head = pieces[i][: brk.start()] if brk else pieces[i]
        named = _CLAUDE_OWN.sub("Claude's", _CLAUDE_OBJECT.sub(r"\1 Claude", head))
        if not _YOU.search(named):
            pieces[i] = named + (pieces[i][brk.start() :] if brk else "")
        if brk:
            return


# An emphasis word said again ("always always use pnpm", "never, never push"): once. Typed twice
# for emphasis, the rule was another atom than the same rule said plainly.
_REPEATED_EMPHASIS = _lazy(r"\b(always|never|ever|really|please)(?:[\s,!]+\1\b)+", re.I)


def canonical(claim: str, kind: str, spans: list[str] | None = None) -> tuple[str, str]:
    """The canonical spelling (and kind) of a tidied, masked claim. Deterministic, idempotent."""
    spans = spans or []
    text = _strip_framing(_REPEATED_EMPHASIS.sub(r"\1", claim.strip()).rstrip(".!"))
    text = _POLITE.sub(" ", text)
    text = _COMPOUND_VERB.sub(lambda m: m.group(0).replace("-", " "), text)
    text = _EMPTY_CALL.sub(r"\1", text)
    text = _you_event(text)
    text = _SCOPE_MID.sub(",", text)
    text = re.sub(r"\s+", " ", text).strip(" ,;")
    prev = None
    while prev != text:
        prev = text
        text = _SCOPE_HEAD.sub("", _SCOPE_TAIL.sub("", text)).strip(" ,;")
    if not text:
        return claim, kind
    m = _WE_NEGATIVE.match(text)
    if m:
        text = f"Never {m.group(1)}{text[m.end() :]}"
    elif _WE_USE.match(text):
        text = "Use " + text[_WE_USE.match(text).end() :]  # type: ignore[union-attr]
    text = _NEVER_EVER.sub("Never ", text)
    m = _NEGATIVE_HEAD.match(text)
    if m:
        text = "Never " + text[m.end() :]
        text = re.sub(r",?\s+ever$", "", text, flags=re.I)
        text = _DIRECTLY_AFTER_PLACE.sub(r"\1 directly \2", text)
        bare = _EMPHASIS_TAIL.sub("", text)
        command = _COMMAND_DIRECTLY.match(bare)
        if command and command.group("tool").lower() in KNOWN_TOOLS:
            bare = _EMPHASIS_TAIL.sub("", command.group(1))
        if len(bare.split()) >= 3:  # "Never do anything" keeps its object: "Never do" says nothing
            text = bare
        kind = "constraint"
    else:
        text = _style_rule(text) or text
        prefer_to = _PREFER_TO.match(text)
        if prefer_to and not _DETERMINER.match(prefer_to.group(1)):
            text = f"Prefer {prefer_to.group(1)} over {prefer_to.group(2)}"
        role = _tool_role(text, spans)
        choice = _CHOICE_VERB.match(text)
        if role:
            text, kind = role, "preference"
        elif choice:
            only = "only " if choice.group(1) else ""
            got = _contrast(text[choice.end() :], spans, only=only)
            if got:
                # A choice made for this project stays a decision; a stated habit is a preference.
                text, kind = got, ("decision" if kind == "decision" else "preference")
    swapped = refusal_as_contrast(text)
    if swapped:  # as a contrast: a choice made for this project stays a decision
        text, kind = swapped, ("decision" if kind == "decision" else "preference")
    text = re.sub(r"\s+,", ",", re.sub(r"\s+", " ", text)).strip(" ,;")
    return (text[:1].upper() + text[1:] if text[:1].isalpha() else text), kind


__all__ = ["canonical", "refusal_as_contrast", "same_family", "strip_scope", "third_person"]
