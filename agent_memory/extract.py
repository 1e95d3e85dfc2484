"""L0 → L1: candidate atoms from a transcript, rule-based (spec §9.2 option (a): no LLM).

Only the user's own words are read (`transcripts.iter_events`): typed prompts, `#` memory
notes and tool-rejection reasons. Most prompts are one-off tasks and questions and yield
nothing; the rules below fire on statement *shapes* that carry something durable:

- directives: always/never/don't/must not/avoid/only/stop …-ing/"no X", and "keep it …";
- preferences: prefer/I'd rather/I like/use X instead of Y/use X, not Y/bare "use X";
- decisions: let's use/go with/switch to …, we'll use …, we decided …, we should + policy verb;
- facts: where things live, what this repo is/uses, we use/deploy/do …, the base branch is …;
- explicit memory requests: remember (that) …, save in your memory …, from now on …,
  until told otherwise …, whenever X, Y;
- failures: "X fails when Y", "I keep getting X", and shell errors whose signature recurs.

Adjacent claims of one sentence become one line ("main auto-deploys, so never push there");
a pasted structured document is read only at its framing paragraphs; conversation-bound text
("these variables", "for now", "the simpler one", "use it here") is dropped, because a memory
line must stand alone.

Claims keep their negation (`Don't`, `Never`, `not`), keep code spans verbatim, drop
politeness and first-person framing, and stay ≤ 200 characters. `confidence` is `stated` for
the user's words and `observed` for inferred failures; never `verified` (spec §9.2).
Redaction runs on every claim and quote before an atom exists (spec §6 rule 1).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_memory.atom import Atom, atom_id, merge, normalize
from agent_memory.paths import canonical_pointer
from agent_memory.transcripts import ReadStats, Statement, ToolError, iter_events

MAX_CLAIM = 200
MAX_QUOTE = 2000
_MAX_TEXT = 12000  # a longer "prompt" is a pasted document; only its head is read
_MAX_SENTENCES = 200  # of prose; a longer statement keeps its head and its tail


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


@dataclass(frozen=True)
class Candidate:
    claim: str
    kind: str
    confidence: str = "stated"


@dataclass
class ExtractResult:
    atoms: list[Atom]
    skipped_lines: int
    stats: ReadStats
    statements: int = 0
    tool_errors: int = 0
    error: str | None = None  # safe mode: why the transcript could not be read

    def to_json(self) -> dict[str, Any]:
        return {"atoms": self.atoms, "skipped_lines": self.skipped_lines}


# --- text preparation ---------------------------------------------------------------------

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_CODE = re.compile(r"`[^`\n]{1,300}`")
_URL = re.compile(r"\bhttps?://[^\s)>\]}\"']+")
_PH = re.compile("\ue000(\\d+)\ue001")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})


def _mask(text: str) -> tuple[str, list[str]]:
    """Replace code spans and URLs by placeholders so that splitting and rules ignore their
    punctuation; `_unmask` restores them verbatim in the claim."""
    spans: list[str] = []

    def keep(m: re.Match[str]) -> str:
        spans.append(m.group(0))
        return f"\ue000{len(spans) - 1}\ue001"

    return _URL.sub(keep, _CODE.sub(keep, text)), spans


def _unmask(text: str, spans: list[str]) -> str:
    return _PH.sub(lambda m: spans[int(m.group(1))] if int(m.group(1)) < len(spans) else "", text)


_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)])\s+")
_LOGLIKE = re.compile(
    r"^\s*(?:at\s+\S+\(|File \"|Traceback|\$ |>>> |npm ERR|error\[|warning\[|\d{4}-\d\d-\d\d[ T]\d"
    r"|\[\d+/\d+\]|[A-Z]\w*(?:Error|Exception):|\w+(?:\.\w+)+:\d+)"
)


_NOT_WORDY = re.compile(r"[^a-zA-Z\u00c0-\u024f\s,.'?!\ue000\ue001-]")


def _looks_like_code(line: str) -> bool:
    if _LOGLIKE.match(line) or re.match(r"^(?: {4,}|\t)\S", line):
        return True
    if len(line) < 24:
        return False
    other = len(_NOT_WORDY.findall(line))
    return other / len(line) > 0.28


_ABBREV = _words(
    """
e.g i.e etc vs cf approx incl esp fig no nr mr mrs ms dr st eg ie resp min max ca
"""
)


def _split_sentences(line: str) -> list[str]:
    out, start = [], 0
    for m in re.finditer(r"[.!?]+[\"')\]]*\s+(?=\S)", line):
        before = line[start : m.start()].rsplit(" ", 1)[-1].lower().rstrip(".")
        if m.group(0).startswith(".") and (before in _ABBREV or len(before) == 1):
            continue
        out.append(line[start : m.end()].strip())
        start = m.end()
    out.append(line[start:].strip())
    return [s for s in out if s]


def _lines(text: str) -> list[str]:
    """Lines of prose, with hard-wrapped lines of one paragraph joined again: a line that does
    not end a sentence, followed by one that starts in lower case, is the same sentence."""
    out: list[str] = []
    for raw in text.split("\n"):
        bullet = bool(_BULLET.match(raw))
        line = _BULLET.sub("", raw).strip()
        if not line or line.startswith(("#", ">", "|")) or _looks_like_code(line):
            out.append("")
            continue
        prev = out[-1] if out else ""
        if prev and not bullet and line[:1].islower() and not re.search(r"[.!?:;]$", prev):
            out[-1] = f"{prev} {line}"
        else:
            out.append(line)
    return [ln for ln in out if ln]


_STRUCTURE = re.compile(r"^\s*(?:#{1,6}\s|[-*]\s|\d+\.\s|\|.*\|)", re.M)


def _framing(text: str) -> str:
    """A long statement with document structure (headings, lists, tables) is mostly pasted
    material (a spec, a plan, notes): only its first and last paragraphs are the user talking."""
    if len(text) < 1500 or len(_STRUCTURE.findall(text)) < 6:
        return text
    paragraphs = [p for p in re.split(r"\n\s*\n", text) if p.strip()]
    if len(paragraphs) < 3:
        return text
    return paragraphs[0] + "\n\n" + paragraphs[-1]


def sentences(text: str) -> list[str]:
    """Sentences of prose, skipping headings, quotes, code and log lines."""
    out: list[str] = []
    for line in _lines(text):
        out.extend(_split_sentences(line))
    if len(out) > _MAX_SENTENCES:
        # A pasted document with the instruction before or after it: read both ends.
        out = out[: _MAX_SENTENCES * 3 // 4] + out[-(_MAX_SENTENCES // 4) :]
    return out


# Contractions are expanded in claims (except "don't", itself a negation marker) so that a
# negation survives as "not"/"never" whatever the phrasing.
_CONTRACTIONS = [
    (r"\bdoesn't\b", "does not"),
    (r"\bisn't\b", "is not"),
    (r"\baren't\b", "are not"),
    (r"\bwon't\b", "will not"),
    (r"\bcan't\b", "cannot"),
    (r"\bshouldn't\b", "should not"),
    (r"\bmustn't\b", "must not"),
    (r"\bwasn't\b", "was not"),
    (r"\bweren't\b", "were not"),
    (r"\bdidn't\b", "did not"),
    (r"\bwouldn't\b", "would not"),
    (r"\bcouldn't\b", "could not"),
    (r"\bhaven't\b", "have not"),
    (r"\bhasn't\b", "has not"),
    (r"\bdont\b", "don't"),
]
_CONTRACTION_RES = [(re.compile(p, re.I), r) for p, r in _CONTRACTIONS]

_LEAD_WORDS = (
    r"ok(?:ay)?|so|well|also|and|but|or|oh|ah|yes|yeah|yep|yup|sure|fine|great|cool|nice|perfect|"
    r"awesome|excellent|good|alright|all right|right|hmm+|hey(?:\s+claude)?|hi(?:\s+claude)?|claude|"
    r"btw|by the way|actually|just|then|now|plus|anyway|anyways|basically|honestly|frankly|again|"
    r"wait|sorry|thanks|thank you|to be clear|to clarify|to be fair|fair enough|in general|"
    r"generally|finally|lastly|firstly|secondly|however|still|please|kindly|one more thing|"
    r"last thing|ps|i think|i believe|i guess|i feel like|i'd say|in my opinion|imo|imho|ideally|"
    r"obviously|of course|as a first step|correction|also note|and also|but also|otherwise|"
    r"instead(?!\s+of\b)|rather(?!\s+than\b)|on second thought|never mind|nevermind|hm+|uh+|um+|er+|oops|whoops|ugh|pls|plz|"
    r"for this (?:repo|repository|project|codebase)|in this (?:repo|repository|project|codebase)|"
    r"here|around here|in general|as a rule|as a general rule|generally speaking|since|because|"
    r"given that|now that|seeing as"
)
_LEAD = re.compile(rf"^(?:{_LEAD_WORDS})(?=[\s,:;!.\u2013\u2014-]|$)[\s,:;!.\u2013\u2014-]*", re.I)
_LEAD_NO = re.compile(
    r"^(?:no|nope|nah|not quite|wrong|incorrect)\s*[,.!;:\u2013\u2014-]+\s*", re.I
)


def _strip_lead(text: str) -> str:
    prev = None
    while prev != text:
        prev = text
        text = _LEAD_NO.sub("", _LEAD.sub("", text)).strip()
    return text


# --- clause splitting ---------------------------------------------------------------------

_STARTERS = _words(
    """
i i'd i'm i've i'll we we're we'll we've we'd you you're you'll it it's this that these
those there they he she can could would will should shall may might must do does did don't
doesn't didn't never always please let's lets let also then so but and maybe perhaps just
now otherwise instead rather keep keeping make use using add fix see propose run avoid
prefer remember note check create write update remove delete change try move put go stop
start read look explain show tell give find search implement refactor test commit push merge
rename replace consider ensure while whereas although though because since as if unless
which where whenever once afterwards after before finally ideally only no how what why that's it's
there's they're he's she's what's
"""
)
_SPLIT = re.compile(r",\s+|\s+(?:and|but)\s+(?=\S)|;\s*|\s+[-\u2013\u2014]\s+|:\s+|\s*\u2014\s*")


def _depths(text: str) -> list[int]:
    if not any(ch in text for ch in '([{"'):
        return [0] * len(text)
    depth, out, quoted = 0, [], False
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}" and depth:
            depth -= 1
        elif ch == '"':
            quoted = not quoted
        out.append(depth + (1 if quoted else 0))
    return out


def clauses(sentence: str) -> list[str]:
    """Split a sentence where a new clause starts (not inside parentheses or quotes)."""
    depth = _depths(sentence)
    parts, start = [], 0
    for m in _SPLIT.finditer(sentence):
        if depth[m.start()] > 0:
            continue
        sep = m.group(0)
        nxt = sentence[m.end() :].split(" ", 1)[0].lower().strip(",.;:!?")
        if sep.strip() in (";", "-", "\u2013", "\u2014") or sep.startswith(" -"):
            cut = True
        elif sep.startswith(":"):
            cut = len(sentence[start : m.start()].split()) <= 5
        else:
            cut = nxt in _STARTERS or (
                sep.strip() in ("and", "but") and nxt in ("i", "we", "you", "let's")
            )
        if cut:
            parts.append(sentence[start : m.start()])
            start = (
                m.end()
                if sep.strip() not in ("and", "but")
                else m.start() + len(sep) - len(sep.lstrip())
            )
    parts.append(sentence[start:])
    return [p.strip() for p in parts if p.strip()]


# --- filters shared by the rules ----------------------------------------------------------

_DET = r"(?:the|a|an|this|that|these|those|my|your|our|his|her|their|its|some|any)"
_VAGUE = re.compile(
    r"^(?:(?:much|really|very|so|too|quite|at all|even|just|also|again)\s+)*"
    r"(?:it|this|that|these|those|them|him|her|anything|something|nothing|everything|stuff|things|"
    r"the same|so|one|either|both|"
    r"the (?:first|second|third|last|former|latter|other|previous|new|old|original|current)"
    r"(?: (?:one|ones|version|option|approach|solution|way|variant|draft|idea))?|"
    r"(?:this|that|these|those)\s+\S+|option\s+\S+|number\s+\S+|#\d+|\d+)"
    r"(?:\s+(?:one|ones|way|again|anymore|please|too|either|then|now|here|there))?\s*[.!?]*$",
    re.I,
)
_TRANSIENT = re.compile(
    r"\b(?:for now|right now|at the moment|for the moment|this time|yet|today|tonight|tomorrow|"
    r"yesterday|temporarily|for this (?:task|session|pr|change|one|commit|file|step|run|test|branch)|"
    r"just this once|for a (?:sec|second|minute|moment|bit)|in this (?:pr|commit|session|task|step)|"
    r"until (?:i|we)\b|you just|the above|above|previous|earlier|(?:for|in|on) the new \w+|"
    r"^(?:our|the|my) (?:old|former|temporary|temp) \w+|in the old code|"
    r"last (?:one|step|change|commit|message|answer|response))\b",
    re.I,
)
_DEICTIC_REF = re.compile(
    r"\b(?:what you (?:did|just|wrote|said)|your (?:last|previous) \w+|i just|you just|just showed)\b",
    re.I,
)
# "these variables", "this file": bound to the conversation, not a standalone memory line.
_DEICTIC_NP = re.compile(
    r"\b(?:this|these|those)\s+(?!project\b|repo\b|repository\b|codebase\b|code base\b|app\b|"
    r"application\b|service\b|package\b|library\b|team\b|company\b|machine\b|computer\b|org\b|"
    r"organi[sz]ation\b|monorepo\b|workspace\b|tool\b|cli\b|site\b|website\b)[a-z]\w*",
    re.I,
)
_STRONG_PATH = re.compile(r"(?:\S/|/\S|\\|~|\ue000)")
_TIME_SUBJECT = re.compile(
    r"\b(?:deadline|meeting|standup|demo|sprint|release date|launch|call|appointment|schedule|plan|"
    r"goal|priority|focus|budget|customer|client|boss|manager)\b",
    re.I,
)
_STATUS_VALUE = re.compile(
    r"^(?:red|green|broken|down|up|failing|passing|slow|fast|fine|ok|okay|done|ready|wrong|empty|"
    r"missing|stuck|flaky|flakey|outdated|weird|strange|different|correct|right|messed|unavailable|"
    r"offline|online|full|huge|large|small|still|now|currently|already|again|also|too|very|really|"
    r"pretty|quite|so|kinda|bad|good|great|better|worse|working|running|gone|back|fixed|updated|"
    r"changed|confusing|unclear|a mess|a bit|a little|kind of|sort of|expired|invalid|revoked|valid|"
    r"unset|set|not set|required|needed|wrong|leaked|compromised|rotated|deleted|gone|lost)\b",
    re.I,
)
_PROBLEM_SUBJECT = re.compile(
    r"\b(?:bug|bugs|problem|problems|issue|issues|error|errors|mistake|typo|fix|difference|change|"
    r"changes|question|answer|point|thing|catch|trick|culprit|reason|result|output|diff|total|sum|"
    r"count|number|value|date|time|price|deadline)\b",
    re.I,
)
_PATHISH = re.compile(
    r"(?:/|\\|~|\ue000|\b\w[\w-]*\.\w{1,5}\b|\b(?:folder|directory|dir|repo|repository|package|module|"
    r"file|branch|bucket|server|host|machine|drive|vault|container|workspace|subfolder|subdirectory|"
    r"monorepo|cluster|namespace)\b)",
    re.I,
)
_QUANTIFIER = re.compile(
    r"\b(?:all|every|each|whenever|everywhere|always|never|only|any time|anytime|across the board)\b",
    re.I,
)
_POLICY_VERBS = _words(
    """
use switch move migrate stick keep avoid prefer support target follow adopt standardize
standardise rely drop pin require enforce deploy ship release host store name format write
lint test document type
"""
)
_NEG_STOP = _words(
    """
worry bother mind hesitate panic rush be know think understand care see get need have want
feel forget remember hate like mean believe agree wait stop expect assume guess wonder find
proceed continue go move start
"""
)
_BLOCKED_OBJ_START = re.compile(
    r"^(?:up|going|on|in mind|at it|open|running|there|alive|around|track|quiet|calm|trying|but|and|"
    r"or|so|then|as is|as (?:it|they) (?:is|are)|in the loop|posted|me|us|you|"
    r"looking|working|in sync|an eye)\b",
    re.I,
)
_OUTPUT_NOUN = re.compile(
    r"\b(?:answer|response|reply|summary|explanation|output|opinion|text|description|message|"
    r"essay|report|list|table|email|post|comment)s?\b",
    re.I,
)
_LENGTHY = re.compile(
    r"\b(?:short|shorter|brief|concise|length|words|lines|paragraphs?|sentences?|pages?|tokens|"
    r"characters|under \d+|below \d+)\b",
    re.I,
)


def _content_words(text: str) -> int:
    return len(re.findall(r"[A-Za-z\ue000][\w\ue000\ue001'-]*", text))


def _vague(obj: str) -> bool:
    obj = obj.strip().rstrip(".!?,;:")
    if re.match(r"^(?:whatever|whichever|what|how|anything|something)\b", obj, re.I):
        return True
    scoped = re.match(
        r"^(?:it|them)\s+(?:on|in|for|with|across|at|to)\s", obj, re.I
    ) and _QUANTIFIER.search(obj)
    if re.match(r"^(?:it|them)\b", obj, re.I) and not scoped:
        return True  # "use it in the checkout flow": bound to the conversation
    if re.match(rf"^{_DET}\s+(?:\w+\s+)?ones?$", obj, re.I):
        return True  # "the simpler one"
    return not obj or bool(_VAGUE.match(obj)) or _content_words(obj) == 0


_EMOTICON_TAIL = re.compile(
    r"(?:\s*(?:[:;]-?[()DPp/\\|]|xD|<3|\^\^|[\u2600-\u27bf\U0001f300-\U0001faff]))+\s*$"
)


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    text = _EMOTICON_TAIL.sub("", text)
    text = re.sub(
        r"(?:,?\s+(?:please|pls|thanks|thank you|for me|ok|okay|if possible|too))+\s*[.!?]*$",
        "",
        text,
        flags=re.I,
    )
    text = text.strip(" \t,;:-\u2013\u2014")
    text = re.sub(r"[.!?]+$", "", text).strip()
    for rx, repl in _CONTRACTION_RES:
        text = rx.sub(repl, text)
    if text.count("(") > text.count(")"):
        text = text.rsplit("(", 1)[0].strip()
    if text.startswith('"') and text.endswith('"') and text.count('"') == 2:
        text = text[1:-1]
    return text


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].isalpha() else text


def _shorten(text: str) -> str:
    if len(text) <= MAX_CLAIM:
        return text
    head = text[:MAX_CLAIM]
    for sep in ("; ", ", ", " (", " and ", " but ", " "):
        at = head.rfind(sep)
        if at >= MAX_CLAIM // 2:
            return head[:at].rstrip(" ,;(") + "\u2026"
    return head.rstrip() + "\u2026"


# --- the rules ------------------------------------------------------------------------------
# Each rule takes a clause (masked, lead words stripped) and returns (claim, kind) or None.

Rule = tuple[str, str]

_ALWAYS_NEVER = re.compile(
    r"^((?:please\s+)?(?:make sure|be sure|ensure)(?:\s+that)?(?:\s+to)?\s+)?"
    r"(?:(you|we|i|claude|agents?)\s+)?((?:should|must|will|shall|need to|have to|ought to|'ll|"
    r"are to|want to|can)\s+)?(?:(?:please|also|just|really)\s+)*(always|never)\s+"
    r"(?!mind\b|again\b|ever\b|before\b|been\b|had\b|did\b|thought\b|knew\b|saw\b|seen\b|got\b|"
    r"really\b|worked\b|used\b|realized\b|noticed\b|heard\b|said\b|meant\b|wanted\b|tried\b|"
    r"have\b|has\b|get\b|gets\b|run into\b|hit\b|see\b|struggle\b|end up\b|seem\b|forget\b|"
    r"work\b|works\b|happens?\b|come\b|comes\b|say\b|know\b|want\b|wonder\b)(\S.*)",
    re.I,
)


_MAKE_SURE_ALL = re.compile(
    r"^(?:please\s+)?(?:make sure|ensure|be sure)(?:\s+that)?\s+((?:every|all|each|no)\s+\S.*)",
    re.I,
)


_ED_VERBS = _words("embed feed seed need proceed exceed succeed shred wed bleed breed speed heed")
_PARTICIPLES = _words(
    """
written overwritten rewritten taken given broken hidden chosen forgotten driven spoken stolen
proven shown known seen done gone made kept left sent built found held told thought brought
bought caught taught fought sold paid meant lost won spent begun drawn grown thrown blown
"""
)


def _r_always_never(c: str) -> Rule | None:
    m = _MAKE_SURE_ALL.match(c)
    if m and not _TRANSIENT_PREDICATE.search(c) and not _vague(m.group(1)):
        return f"Make sure {m.group(1)}", "constraint"
    m = _ALWAYS_NEVER.match(c)
    if not m or _vague(m.group(5)) or _content_words(m.group(5)) < 1:
        return None
    if re.match(
        r"^(?:the|a|an|same|this|that|in|on|at|to|for|with|from|by|of|as|via)\b", m.group(5), re.I
    ):
        return None  # "always the same error", "never in the work tree": not an instruction
    head = m.group(5).split(" ", 1)[0].lower().strip("*_,.;:()")
    if (re.match(r"^[\w-]+ed$", head) and head not in _ED_VERBS) or head in _PARTICIPLES:
        return None  # "never guessed", "never promoted on evidence alone": a description
    if " " not in m.group(5).strip() and head not in _IMPERATIVES | _POLICY_VERBS | _WE_DONT_VERBS:
        return None  # "never automatic": an adjective, not an instruction
    subject = (m.group(2) or "").lower()
    if subject == "you" and not (m.group(1) or m.group(3)):
        return None  # "you always add too many comments": a complaint whose rule is unstated
    kind = "preference" if subject == "i" else "constraint"
    return f"{m.group(4).capitalize()} {m.group(5)}", kind


_DONT = re.compile(
    r"^(?:(?:you|we|claude)\s+(?:should|must|shall|will|need to)\s+not|do\s+not|don't|let's\s+not|"
    r"let us not|(?:please\s+)?refrain from)\s+(?:ever\s+|please\s+)?(\w[\w'-]*)\b(.*)",
    re.I,
)
_WE_DONT = re.compile(r"^we\s+(?:don't|do not|never)\s+(\w+)\b(.*)", re.I)
_I_DONT_WANT = re.compile(
    r"^i\s+(?:really\s+|actually\s+|definitely\s+)*(?:don't|do not)\s+(want|like|need|use)\s+(?:(you\s+)?to\s+)?(.*)",
    re.I,
)
_AVOID = re.compile(r"^(?:(?:try to|please|always)\s+)?avoid\s+(\S.*)", re.I)
_STOP_ING = re.compile(r"^(?:stop|quit)\s+(\w+ing)\b(.*)", re.I)
_NO_X = re.compile(
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
_WITHOUT = re.compile(r"\bwithout\s+(\w+ing)\s+(\S.*)", re.I)
_WE_DONT_VERBS = _words(
    """
use allow accept commit push merge deploy ship write add rely depend mock put store touch
modify edit include import run support target vendor check keep
"""
)


def _r_negative(c: str) -> Rule | None:
    m = _DONT.match(c)
    if m:
        verb, rest = m.group(1), m.group(2)
        if verb.lower() in _NEG_STOP or _vague(rest):
            return None
        if _content_words(verb + rest) < 2 and verb.lower() in ("do", "go", "make"):
            return None
        return f"Don't {verb}{rest}", "constraint"
    m = _WE_DONT.match(c)
    if m and m.group(1).lower() in _WE_DONT_VERBS and not _vague(m.group(2)):
        return _cap(c), "constraint"
    m = _I_DONT_WANT.match(c)
    if m:
        verb, to_you, rest = m.group(1).lower(), m.group(2), m.group(3)
        if _vague(rest) or re.match(
            r"^(?:to\s+)?(?:be|know|see|think|wait|lose|break)\b", rest, re.I
        ):
            return None
        if verb == "want" and (to_you or re.match(r"^to\s", c[m.start(3) - 3 : m.start(3)])):
            return f"Don't {rest}", "preference"
        if verb == "want":
            return f"User does not want {rest}", "preference"
        if verb == "like" and not re.match(r"^(?:how|what|when|the way|it when)\b", rest, re.I):
            return f"User does not like {rest}", "preference"
        if verb == "use":
            return f"User does not use {rest}", "fact"
        return None
    m = _AVOID.match(c)
    if m and not _vague(m.group(1)):
        return f"Avoid {m.group(1)}", "preference"
    m = _STOP_ING.match(c)
    if (
        m
        and not _vague(m.group(2) or "x")
        and m.group(1).lower() not in ("nothing", "thing", "everything")
    ):
        return f"Don't keep {m.group(1)}{m.group(2)}", "constraint"
    m = _WITHOUT.search(c)
    if m and m.group(1).lower() in _GERUNDS and not _vague(m.group(2)):
        return f"Do not {_GERUNDS[m.group(1).lower()]} {m.group(2)}", "constraint"
    m = _NO_X.match(c)
    codeish = m and re.search(r"\ue000|\w\.\w|[A-Z]", m.group(1))
    if m and not _vague(m.group(1)) and (m.group(1).endswith("s") or codeish):
        tail = f" {m.group(2)}" if m.group(2) else ""
        return f"Do not add {m.group(1)}{tail}", "constraint"
    return None


_KEEP = re.compile(
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
    r"concurrency|parallelism|replicas|versions?|strings|text|copy|assets|styles|constants|config files)|"
    r"(?:all|every|each|any)\s+[\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,2}?)\s+(\S.*)",
    re.I,
)


def _r_keep(c: str) -> Rule | None:
    m = _KEEP.match(c)
    if not m:
        return None
    obj, rest = m.group(1), m.group(2)
    if _BLOCKED_OBJ_START.match(rest) or _vague(rest):
        return None
    output_like = re.match(r"^(?:it|them|things|everything)$", obj, re.I) or _OUTPUT_NOUN.search(
        obj
    )
    if output_like and _LENGTHY.search(rest):
        return None  # "keep it short", "keep the answer under 200 words": about this reply
    if re.match(r"^the same\s*$", rest, re.I):
        return None
    return f"Keep {obj} {rest}", "constraint"


_ONLY = re.compile(
    r"^only\s+(use|run|commit|push|deploy|edit|modify|touch|change|target|support|install|"
    r"import|write|test|merge|release)\s+(\S.*)",
    re.I,
)
_USE = re.compile(
    r"^(?:(?:please|just|always)\s+)*(use|using)\s+(?!case\b|of\b)(only\s+)?(\S.*)", re.I
)
_STICK = re.compile(
    r"^(?:please\s+)?(stick to|stick with|default to|favou?r|lean on|rely on|standardi[sz]e on|"
    r"go with|opt for)\s+(\S.*)",
    re.I,
)
_CONTRAST = re.compile(
    r"\b(?:instead of|rather than|in place of)\b|,\s*not\s+\S|\bnot\s+\S+\s*$|\bover\s+\S", re.I
)
_TASKY = re.compile(
    r"\b(?:me|us)\b|\bto (?:give|show|tell|find|get|help|see|check|figure|explore|"
    r"search|investigate|debug|look|understand|analy[sz]e|summari[sz]e|answer)\b",
    re.I,
)
_PREFER = re.compile(
    r"^(?:(?:i|we)(?:'d|\s+would)?\s+)?(?:(?:really|strongly|generally|much|usually|also|always)\s+)*"
    r"prefers?\s+(?:(it\s+|that\s+)?(?:if|when|that)\s+)?(\S.*)",
    re.I,
)
_RATHER = re.compile(
    r"^(?:i|we)(?:'d| would)\s+(?:much\s+)?rather\s+(?:you\s+|we\s+)?(not\s+)?(\S.*)", re.I
)
_LIKE = re.compile(
    r"^i\s+(?:really\s+|very much\s+|much\s+|actually\s+|definitely\s+|do\s+|also\s+)*"
    r"(like|love|enjoy|hate|dislike|can't stand|cannot stand)\s+(\S.*)",
    re.I,
)
_SHORT_CONTRAST = re.compile(
    r"^([\w.@/\ue000\ue001-]+(?:\s+[\w.@/\ue000\ue001-]+){0,2})\s*,?\s+(?:instead of|rather than|not|over)\s+"
    r"([\w.@/\ue000\ue001-]+(?:\s+[\w.@/\ue000\ue001-]+){0,2})$",
    re.I,
)
_CONTRAST_VERBS = re.compile(
    r"^(?:please\s+)?(?:use|prefer|pick|choose|go with|stick (?:with|to)|switch to|rely on|install|"
    r"import|call|run|write (?:\w+ )?(?:in|with)|test with|build with|format with|lint with)\b",
    re.I,
)


# Complaints carry the rule they want kept: "you keep forgetting to run the linter".
_KEEP_FORGETTING = re.compile(
    r"^(?:claude\s+)?you\s+(?:keep|always|constantly)\s+(?:forgetting|forget)\s+(?:to\s+)?(\S.*)",
    re.I,
)
_FORGOT_AGAIN = re.compile(r"^(?:claude\s+)?you\s+forgot\s+to\s+(\S.*?)\s+again$", re.I)
_KEEP_DOING = re.compile(r"^(?:why do you|you)\s+(?:keep|always)\s+(\w+ing)\s+(\S.*)", re.I)
_INSTEAD_FIRST = re.compile(
    r"^instead of\s+([^,]{2,60}),\s*(use|prefer|run|call|go with|rely on|write)\s+(\S.*)", re.I
)
_IMPORTANT = re.compile(
    r"^it(?:'s| is)\s+(?:really\s+|very\s+)?(?:important|essential|critical|crucial|vital|mandatory|"
    r"required|a must)\s+(?:that|to)\s+(\S.*)",
    re.I,
)
_INDENT = re.compile(
    r"^(?:use\s+)?(\d+[- ]spaces?|tabs|spaces)\b(?:\s+for\s+indent\w*)?(?:,?\s+not\s+\S+)?(?:\s+please)?$",
    re.I,
)
_POLICY_ALL = re.compile(
    r"^(?:please\s+)?(write|name|format|put|store|keep|prefix|suffix|document|type|log|wrap|sign|tag|"
    r"annotate|declare)\s+(?:all|every|each|any)\s+(?!the\b|these\b|those\b|my\b|your\b|of\b)(\S.*)",
    re.I,
)


def _r_complaint(c: str) -> Rule | None:
    m = _KEEP_FORGETTING.match(c) or _FORGOT_AGAIN.match(c)
    if m and not _vague(m.group(1)):
        return f"Always {m.group(1)}", "constraint"
    m = _KEEP_DOING.match(c)
    if m and not _vague(m.group(2)):
        return f"Don't keep {m.group(1)} {m.group(2)}", "constraint"
    return None


def _r_preference(c: str, *, first_of_request: bool, origin: str) -> Rule | None:
    m = _INSTEAD_FIRST.match(c)
    if m and not _vague(m.group(3)):
        return f"{m.group(2).capitalize()} {m.group(3)} instead of {m.group(1)}", "preference"
    m = _IMPORTANT.match(c)
    if m and not _vague(m.group(1)):
        return f"Important: {m.group(1)}", "constraint"
    m = _INDENT.match(c)
    if m:
        return _cap(f"use {c}" if not c.lower().startswith("use ") else c), "preference"
    m = _POLICY_ALL.match(c)
    if m and not _vague(m.group(2)):
        return _cap(c), "constraint"
    m = _ONLY.match(c)
    if m and not _vague(m.group(2)):
        return f"Only {m.group(1)} {m.group(2)}", "constraint"
    if _CONTRAST_VERBS.match(c) and _CONTRAST.search(c) and not _TASKY.search(c):
        claim = re.sub(r"^using\b", "Use", c, flags=re.I)
        return _cap(claim), "preference"
    m = _STICK.match(c)
    if m and not _vague(m.group(2)) and not _TASKY.search(m.group(2)):
        return _cap(c), "preference"
    m = _USE.match(c)
    if m:
        obj = m.group(3)
        only = bool(m.group(2))
        if _vague(obj) or _TASKY.search(obj):
            return None
        plain = not re.match(rf"^{_DET}\b", obj, re.I)
        strong = only or bool(_QUANTIFIER.search(obj)) or origin == "rejection"
        if (plain and not first_of_request and _content_words(obj) <= 6) or strong:
            return ("Use only " if only else "Use ") + obj, "constraint" if only else "preference"
        return None
    m = _PREFER.match(c)
    if m and not _vague(m.group(2)):
        rest = m.group(2)
        if re.match(r"^not\b", rest, re.I):
            return f"Prefer {rest}", "preference"
        neg = re.match(
            r"^(?:you|we|claude)\s+(?:did not|didn't|do not|don't|would not|wouldn't|never)\s+(.*)",
            rest,
            re.I,
        )
        if neg:
            return f"Don't {neg.group(1)}", "preference"
        if m.group(1) or re.match(r"^(?:you|we)\b", rest, re.I):
            return f"Prefer that {rest}", "preference"
        return f"Prefer {rest}", "preference"
    m = _RATHER.match(c)
    if m and not _vague(m.group(2)):
        return (
            f"Prefer not to {m.group(2)}" if m.group(1) else f"Prefer to {m.group(2)}"
        ), "preference"
    m = _LIKE.match(c)
    if m:
        verb, obj = m.group(1).lower(), m.group(2)
        if _vague(obj) or re.match(
            r"^(?:how|what|when|where|the way|it when|that you|to|the (?:idea|approach|suggestion|"
            r"plan|concept|design|proposal|option|solution|version|change|result)s?)\b",
            obj,
            re.I,
        ):
            return None
        if verb in ("hate", "dislike", "can't stand", "cannot stand"):
            return f"User does not like {obj}", "preference"
        return f"User likes {obj}", "preference"
    m = _SHORT_CONTRAST.match(c)
    if (
        m
        and (origin == "rejection" or "," in c)
        and not _PROBLEM_SUBJECT.search(c)
        and not re.search(
            r"\d|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:today|tomorrow|yesterday)\b",
            c,
            re.I,
        )
    ):
        return f"Use {c}", "preference"
    return None


_DECISION_VERBS = (
    r"use|go with|go for|do|stick with|stick to|stay with|switch to|switch over to|move to|migrate to|"
    r"adopt|pick|choose|keep|make it|make them|make everything|target|standardi[sz]e on|rely on|avoid|"
    r"support|drop|prefer|rewrite (?:it |this |everything )?in|port (?:it |this )?to|"
    r"convert (?:it |this |everything )?to|base (?:it|this) on|build (?:it|this) (?:with|on)"
)
_LETS = re.compile(
    rf"^(?:let's|lets|let us)\s+(?:(?:also|just|now|then|definitely|actually|probably|"
    rf"rather|instead)\s+)*({_DECISION_VERBS})\s+(\S.*)",
    re.I,
)
_WILL = re.compile(
    r"^(?:we|i)(?:'ll| will| are going to|'re going to| am going to|'m going to|'d| would| want to|"
    r" wanna)\s+(?:(?:rather|prefer to|like to|love to|want to|just|also|probably|definitely)\s+)*"
    r"(use|go with|stick with|stick to|switch to|move to|migrate to|adopt|standardi[sz]e on|target|"
    r"rely on|prefer)\s+(\S.*)",
    re.I,
)
_DECIDED = re.compile(
    r"^(?:we|i)(?:'ve| have)?\s+(?:now\s+|finally\s+|already\s+)?(?:decided|agreed|settled|"
    r"chose|chosen|opted|went)\s+(to|on|that|for|with)\s+(\S.*)",
    re.I,
)
_DECISION_IS = re.compile(
    r"^(?:the\s+)?(?:decision|plan going forward|rule|convention|policy)\s*(?:is|:)\s*"
    r"(?:to\s+|that\s+)?(\S.*)",
    re.I,
)
_SHOULD = re.compile(
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


def _np_short(obj: str, limit: int = 4) -> bool:
    return (
        not re.match(rf"^{_DET}\b", obj, re.I)
        and not _vague(obj)
        and _content_words(obj) <= limit
        and not re.search(r"\b(?:option|approach|plan)\s+\S+$", obj, re.I)
    )


def _r_decision(c: str) -> Rule | None:
    m = _LETS.match(c)
    if m:
        verb, obj = m.group(1).lower(), m.group(2)
        if verb in ("do", "go with", "go for", "pick", "choose"):
            return (f"Use {obj}", "decision") if _np_short(obj) else None
        if verb in ("make it", "make them", "make everything"):
            ok = _content_words(obj) <= 4 and not re.match(rf"^{_DET}\b", obj, re.I)
            return (f"{_cap(verb)} {obj}", "decision") if ok and not _vague(obj) else None
        if (
            verb == "use"
            and (re.match(rf"^{_DET}\b", obj, re.I) and not _QUANTIFIER.search(obj))
            or _vague(obj)
        ):
            return None
        if (
            verb in ("switch to", "move to", "migrate to", "switch over to")
            and not _np_short(obj, 6)
            and not _QUANTIFIER.search(obj)
        ):
            return None
        if verb == "keep":
            return _r_keep("keep " + obj)
        if verb == "avoid":
            return f"Avoid {obj}", "preference"
        return f"{_cap(verb)} {obj}", "decision"
    m = _WILL.match(c)
    if m and not _vague(m.group(2)) and not _TASKY.search(m.group(2)):
        verb, obj = m.group(1).lower(), m.group(2)
        if verb == "use" and re.match(rf"^{_DET}\b", obj, re.I) and not _QUANTIFIER.search(obj):
            return None
        return f"{_cap(verb)} {obj}", "decision"
    m = _DECIDED.match(c)
    if m and not _vague(m.group(2)):
        how, obj = m.group(1).lower(), m.group(2)
        if how in ("on", "for", "with"):
            return (f"Use {obj}", "decision") if _np_short(obj, 6) else None
        if how == "that":
            return _cap(obj), "decision"
        first = obj.split(" ", 1)[0].lower()
        if first in _POLICY_VERBS or first in (
            "not",
            "never",
            "always",
            "stop",
            "go",
            "standardize",
        ):
            return _cap(obj), "decision"
        return None
    m = _DECISION_IS.match(c)
    if (
        m
        and not _vague(m.group(1))
        and _content_words(m.group(1)) >= 2
        and not m.group(1).endswith("'s")
    ):
        return _cap(m.group(1)), "decision"
    m = _SHOULD.match(c)
    if m:
        modal, verb, rest = m.group(2).lower(), m.group(3), m.group(4)
        if _vague(rest) or _TASKY.search(rest):
            return None
        determined = re.match(rf"^\s*(?:to\s+|with\s+|on\s+)?{_DET}\b", rest, re.I)
        if (
            determined
            and not _QUANTIFIER.search(rest)
            and verb.lower() in ("use", "migrate", "move", "switch")
        ):
            return None  # "you should use the existing fixtures": about this task
        if verb.lower() in _POLICY_VERBS or _QUANTIFIER.search(rest):
            kind = "constraint" if modal == "must" else "decision"
            return f"{_cap(verb)}{rest}", kind
    return None


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
_PRONOUNS = _words(
    """
i we you it this that these those they he she there what which who how why everything
something anything nothing one
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
    r"lib|tool|module|site|website|monorepo|cli|api|server|backend|frontend|bot|plugin|extension|workspace)"
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
    r"shell|editor|"
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
_TRANSIENT_PREDICATE = re.compile(
    r"\b(?:pass|passes|passing|green|committed|compiles?|works?|working|done|finished|ready|"
    r"merged|pushed|fixed|broken|failing)\s*[.!?]*$",
    re.I,
)
# "I'd like commit messages to be in the imperative mood".
_LIKE_TO_BE = re.compile(
    r"^i(?:'d| would)?\s*(?:like|love|want|prefer)\s+((?:[\w\ue000\ue001./-]+\s+){0,3}?[\w\ue000\ue001./-]+)\s+"
    r"to\s+(be|stay|remain|use|follow|have|go|live|start|end)\s+(\S.*)",
    re.I,
)


_COPULA_CONTRAST = re.compile(
    r"^(?:the|our)\s+([\w\ue000\ue001./-]+(?:\s+[\w\ue000\ue001./-]+){0,3}?)\s+(?:is|are|uses|use)\s+"
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


def _r_fact(c: str) -> Rule | None:
    m = _THIS_REPO.match(c)
    if m and not _vague(m.group(3)) and not _PROBLEM_SUBJECT.search(m.group(3).split(" ", 1)[0]):
        modal = re.match(r"^(?:must|should)\b", m.group(2), re.I)
        return _cap(c), "constraint" if modal else "fact"
    m = _CORRECTION.match(c)
    if m:
        return f"Use {m.group(1)}, not {m.group(2)}", "preference"
    m = _COPULA_CONTRAST.match(c)
    if m and not _PROBLEM_SUBJECT.search(m.group(1)) and not _vague(m.group(2)):
        return _cap(c), "fact"
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
        return f"User {_third_person(c[2:].strip())}", "preference"
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


# Explicit memory requests (strong) and durable-scope markers.
_MEMORY_STRONG = re.compile(
    r"^(?:(?:please|also|and)\s+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:remember|memori[sz]e|commit (?:this |that |it )?to memory|"
    r"(?:save|store|put|add|record|write|keep|note)(?: (?:this|that|it|the following))?(?: down)?\s+(?:in|to|into|as)\s+"
    r"(?:your |the |a |long[- ]term )?(?:memory|memories|preferences?|rules?|claude\.md|notes)|"
    r"make a (?:mental )?note|note (?:this|that) down|never forget)"
    r"(?:\s+(?:that|this|the following|this fact|this preference|forever|for (?:the )?future))*"
    r"\s*(?:[:,\u2013\u2014-]\s*|\s+)(\S.*)",
    re.I,
)
_REMIND = re.compile(
    r"^(?:(?:please|also|and)\s+)*(?:remember|don't forget|do not forget|make sure you remember)\s+to\s+(\S.*)",
    re.I,
)
_HABIT = re.compile(
    r"\b(?:before|after|whenever|every|each|always|never|any ?time|in (?:the )?future|from now on|"
    r"going forward)\b",
    re.I,
)
_MEMORY_WEAK = re.compile(
    r"^(?:note|nb|fyi|important|for (?:your )?information|for (?:the )?future reference|for reference|"
    r"(?:just\s+)?(?:so\s+)?you know|"
    r"keep in mind|bear in mind|just so you know|for context|heads up)(?:\s+(?:that|this))?"
    r"\s*(?:[:,\u2013\u2014-]\s*|\s+)(\S.*)",
    re.I,
)
_SCOPE = re.compile(
    r"(?:^|,?\s+)(?:from now on|from here on(?: out)?|going forward|moving forward|in (?:the )?future|henceforth|"
    r"for all future (?:\w+)|in all future (?:\w+)|until (?:told|i say|i tell you|we say|instructed) otherwise|"
    r"unless (?:told|i say|i tell you) otherwise|(?:for|in) every (?:session|project|repo|task)|"
    r"(?:for|in) all (?:sessions|projects|repos|tasks)|always and forever)"
    r"(?=[\s,:;.!?]|$)[\s,:;]*",
    re.I,
)
# "whenever I click save, nothing happens": a consequent that reports instead of instructing.
_OBSERVATION = re.compile(
    r"^(?:the|a|an|nothing|it|this|that|i|we|they|there|my|our|everything|something|some|all)\b",
    re.I,
)
_CONDITIONAL = re.compile(
    r"^(?:whenever|every time|each time|any ?time|before (?:you\s+|we\s+)?(?:commit|push|merg|deploy|releas|"
    r"open|creat)\w*|after (?:you\s+|we\s+)?(?:edit|chang|modif|commit|push|touch|updat|add)\w*|"
    r"when(?:ever)? (?:you|we) (?:\w+\s+){1,5}?(?:always|never)\b)\b[^,]{3,100},\s*(\S.*)",
    re.I,
)


# "to run the tests, use `make test`": how things are done here.
_PURPOSE = re.compile(
    r"^to\s+(?:run|build|start|test|deploy|lint|format|install|release|debug|serve|launch|publish|"
    r"regenerate|generate|update|check|typecheck|type-check|migrate|seed|reset|bump)\b[^,]{2,60},\s*"
    r"(?:use|run|call|do|type|execute|invoke|just run)\s+(\S.*)",
    re.I,
)


def _clause_rules(
    c: str, *, first_of_request: bool, origin: str, bug_report: bool = False
) -> Rule | None:
    for rule in (_r_always_never, _r_negative, _r_keep, _r_complaint):
        got = rule(c)
        if got:
            return got
    got = _r_failure(c, bug_report=bug_report)
    if got:
        return got
    got = _r_preference(c, first_of_request=first_of_request, origin=origin)
    if got:
        return got
    for rule in (_r_decision, _r_fact, _r_subject_modal):
        got = rule(c)
        if got:
            return got
    return None


def _imperative(c: str) -> Rule | None:
    """Fallback for text the user explicitly asked to keep ("remember to X", "from now on X")."""
    c = re.sub(r"^(?:to|that)\s+", "", c.strip(), flags=re.I)
    c = re.sub(
        r"^(?:you|claude)\s+(?:should|must|need to|have to|will|shall)\s+", "", c, flags=re.I
    )
    c = re.sub(r"^(?:you|claude)\s+", "", c, flags=re.I)
    if _vague(c) or _content_words(c) < 2 or c.split(" ", 1)[0].lower() in _PRONOUNS:
        return None
    first = c.split(" ", 1)[0].lower()
    if re.match(r"^(?:always|never|don't|do not|only|must)\b", c, re.I):
        return _cap(c), "constraint"
    if first in _IMPERATIVES or first.endswith("ly"):
        return _cap(c), "preference"
    return _cap(c), "fact"  # "staging and prod share one Redis": a statement, not an instruction


_IMPERATIVES = _words(
    """
use run write keep avoid add put call name make prefer check test commit push ask answer respond
reply format document comment follow stick install deploy be do create update remove delete
include import read open close start stop try prefix suffix wrap split merge rebase squash sign
tag lint type return raise throw log print store save load cache send mention cite link explain
show tell give mark label pin bump release ship review verify validate ensure double
"""
)


# --- one statement --------------------------------------------------------------------------

_QUESTION_START = re.compile(
    r"^(?:what|why|how|which|who|whom|whose|is|are|am|was|were|do|does|did|can|could|would|will|shall|"
    r"should|may|might|have|has|had|isn't|aren't|doesn't|don't|didn't|won't|wouldn't|couldn't|"
    r"shouldn't|any idea|anything else|i wonder|wonder if|where|when)\b",
    re.I,
)
_WH_ALWAYS = re.compile(
    r"^(?:what|why|how|which|who|whom|whose|i wonder|wonder if|any idea)\b", re.I
)
_REQUEST = re.compile(
    r"^(?:(?:please|and|also|so)\s+)*(?:(?:can|could|would|will|won't)\s+(?:you|u)|i(?:'d| would) like you to|"
    r"i want you to|i need you to|i'd love (?:it )?if you(?: could)?|i(?:'d| would) appreciate if you(?: could)?|"
    r"you (?:can|could|may|might)|go ahead and|feel free to|try to)\s+"
    r"(?:(?:please|kindly|also|maybe|just|now|then|quickly|first)\s+)*",
    re.I,
)


def _mode(s: str) -> str:
    if re.match(r"^(?:would|do) you mind\b", s, re.I):
        return "question"
    if _REQUEST.match(s) and not re.match(
        r"^(?:can|could|would|will) you (?:tell|explain|confirm)\b", s, re.I
    ):
        return "request"
    if _WH_ALWAYS.match(s) or (_QUESTION_START.match(s) and s.rstrip().endswith("?")):
        return "question"
    return "statement"


def _finish(claim: str, kind: str, spans: list[str]) -> Candidate | None:
    claim = _tidy(claim)
    if not claim or _content_words(claim) < 2 or len(claim) < 6:
        return None
    if _TRANSIENT.search(claim) or _DEICTIC_REF.search(claim) or _DEICTIC_NP.search(claim):
        return None
    if re.search(r"\b(?:this|that|these|those|it|them)$", claim, re.I):
        return None  # "use subagents to parallelize this": bound to the conversation
    if re.search(r"(?<![\w-])first$", claim, re.I) and not re.match(
        r"^(?:always|never|don't|do not)\b", claim, re.I
    ):
        return None  # "use git stash to save your changes first": a step of this task
    claim = _unmask(claim, spans)
    claim = _shorten(_cap(claim))
    return Candidate(claim, kind, "stated")


def _sentence_claims(
    sentence: str, origin: str, bug_report: bool = False
) -> list[tuple[str, str, int]]:
    """(claim, kind, clause index) for one sentence."""
    s = _strip_lead(sentence)
    if not s:
        return []
    strong = False
    m = _MEMORY_STRONG.match(s)
    remind = _REMIND.match(s)
    if remind:
        # "remember to commit when you're done" is a reminder for now; only a habit
        # ("... before committing", "... every time") is kept as a memory.
        s, strong = remind.group(1), bool(_HABIT.search(remind.group(1)))
    elif m and not re.match(r"^(?:do|did) you remember\b", s, re.I):
        s, strong = m.group(1), True
    scoped = _SCOPE.sub(" ", s).strip()
    if scoped != s:
        s, strong = scoped, True
    weak = _MEMORY_WEAK.match(s)
    if weak:
        s = weak.group(1)
    s = _strip_lead(s)
    mode = _mode(s)
    complaint = _KEEP_DOING.match(s.rstrip(" ?"))
    if complaint and not _vague(complaint.group(2)):
        # "why do you keep adding semicolons?": a question that states a rule.
        return [(f"Don't keep {complaint.group(1)} {complaint.group(2)}", "constraint", 0)]
    if mode == "question" and not strong:
        return []
    instead = _INSTEAD_FIRST.match(s)
    if instead and not _vague(instead.group(3)):
        verb = instead.group(2).capitalize()
        target = instead.group(3).rstrip(" .!?")
        return [(f"{verb} {target} instead of {instead.group(1)}", "preference", 0)]
    first_of_request = mode == "request"
    if first_of_request:
        s = _REQUEST.sub("", s, count=1)
    cond = _CONDITIONAL.match(s)
    if cond and not _vague(cond.group(1)) and not _OBSERVATION.match(cond.group(1)):
        return [(s, "constraint", 0)]
    purpose = _PURPOSE.match(s)
    if purpose and mode == "statement" and not _TASKY.search(purpose.group(1)):
        return [(s, "fact", 0)]
    out: list[tuple[str, str, int]] = []
    parts = clauses(s)
    head = _SUBJECT_NP.match(parts[0]) if parts else None
    subject_np = head.group(1)[:1].lower() + head.group(1)[1:] if head else None
    for i, raw in enumerate(parts):
        c = _strip_lead(raw).rstrip(" .!?")
        if not c:
            continue
        if i > 0 and subject_np and re.match(r"^(?:it|they)\s+(?!is\b|are\b|'s\b)", c, re.I):
            # "the integration tests hit a real Postgres; they fail if Docker is down"
            c = f"{subject_np} {c.split(' ', 1)[1]}"
        if (
            out
            and out[-1][2] == i - 1
            and re.match(r"^(?:don't|do not|never|avoid|prefer not)\b", out[-1][0], re.I)
            and re.match(
                r"^(?:but\s+|instead\s+|rather\s+)?(?:use|prefer|go with|stick (?:to|with)|rely on)\s+\S",
                c,
                re.I,
            )
        ):
            # "don't use X for Y, use Z": the positive half belongs to the same claim.
            out.append((c, out[-1][1], i))
            continue
        if (
            out
            and out[-1][2] == i - 1
            and re.match(r"^(?:but\s+)?(?:never|not)\s+\S+(?:\s+\S+){0,2}$", c, re.I)
        ):
            # "we use JWTs in cookies, never localStorage": the contrast completes the claim.
            out.append((c, "constraint", i))
            continue
        got = _clause_rules(
            c, first_of_request=first_of_request and i == 0, origin=origin, bug_report=bug_report
        )
        if (
            got
            and i > 0
            and subject_np
            and re.search(r"\bit\b", got[0])
            and re.match(r"^(?:never|don't|do not|always|avoid|only)\b", got[0], re.I)
        ):
            # "the seed script wipes the db, so never run it against prod": say what "it" is.
            got = (re.sub(r"\bit\b", subject_np, got[0], count=1), got[1])
        if got is None and strong and (i == 0 or not out):
            got = _imperative(c)
        if got is None and (weak or strong) and i == 0 and mode == "statement":
            low = c.split(" ", 1)[0].lower()
            if low not in _PRONOUNS and _content_words(c) >= 3:
                got = (_cap(c), "fact")
        if got:
            out.append((got[0], got[1], i))
    return out


_SUBJECT_NP = re.compile(
    r"^((?:the|our)\s+(?:[\w\ue000\ue001./-]+\s+){0,3}[\w\ue000\ue001./-]+)\s+"
    r"(?:is|are|was|were|has|have|does|do|can|will|must|should|hit|run|use|need|take|talk|call|depend|"
    r"break|fail|wipe|touch|write|read|send|hold|keep|go|\w+s)\b",
    re.I,
)
_KIND_RANK = {"constraint": 4, "preference": 3, "decision": 2, "failure": 1, "fact": 0}
_LOWER_OK = re.compile(
    r"^(?:don't|do|always|never|only|use|keep|prefer|avoid|make|migrate|switch|move|stick|support|"
    r"drop|run|write|user|we|our|the|this|tests?|no)\b"
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
    return Candidate(text, kind, parts[0].confidence)


# Apostrophe-less spellings typed in a hurry ("dont use lodash").
_INFORMAL_MAP = {
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
_INFORMAL = re.compile(r"\b(?:" + "|".join(_INFORMAL_MAP) + r")\b", re.I)


_FIX_REQUEST = re.compile(
    r"\b(?:(?:please|pls|can you|could you)\s+(?:\w+\s+)?(?:fix|debug|investigate|look into|check)|"
    r"fix (?:it|this|that)|any idea|what's going on|why (?:does|is|do)|help me)\b",
    re.I,
)


def extract_claims(
    text: str, *, origin: str = "prompt", rejected_command: str | None = None
) -> list[Candidate]:
    """Candidate claims in one user statement (pure, deterministic; no I/O, no clock)."""
    if not text or not text.strip():
        return []
    # Sessions repeat themselves ("continue", "yes", the same instruction again): memoise.
    return list(_extract_cached(text, origin, rejected_command))


@functools.lru_cache(maxsize=4096)
def _extract_cached(text: str, origin: str, rejected_command: str | None) -> tuple[Candidate, ...]:
    return tuple(_extract(text, origin, rejected_command))


def _extract(text: str, origin: str, rejected_command: str | None) -> list[Candidate]:
    text = _INFORMAL.sub(
        lambda m: _INFORMAL_MAP[m.group(0).lower()], text[:_MAX_TEXT].translate(_QUOTES)
    )
    text = _framing(_FENCE.sub("\n", text))
    masked, spans = _mask(text)
    # Markdown emphasis is noise in a claim; code spans are already masked, so `a__b` survives.
    masked = re.sub(r"\*\*|__|(?<![\w*])\*(?=\w)|(?<=\w)\*(?![\w*])", "", masked)
    found: list[Candidate] = []
    if origin == "rejection":
        special = _rejection_claim(masked, rejected_command)
        if special:
            cand = _finish(special[0], special[1], spans)
            if cand:
                found.append(cand)
    bug_report = bool(_FIX_REQUEST.search(masked))
    for sentence in sentences(masked):
        if found and origin == "rejection" and sentence.strip() == masked.strip():
            continue  # the whole reason was the special "use X" shape
        group: list[Candidate] = []
        last = -2
        for claim, kind, index in _sentence_claims(sentence, origin, bug_report):
            cand = _finish(claim, kind, spans)
            if cand is None:
                last = -2
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


# Interchangeable tools: a rejected command of one and a reason naming another is a preference
# for the second *over* the first ("use pnpm" on `npm install` → "Use pnpm, not npm").
_FAMILIES = [
    {"npm", "yarn", "pnpm", "bun", "npx", "pnpx", "bunx"},
    {"pip", "pip3", "uv", "poetry", "pipenv", "conda", "pdm", "rye", "hatch"},
    {"python", "python3", "uv", "poetry"},
    {"pytest", "unittest", "nose", "tox", "nox"},
    {"jest", "vitest", "mocha", "ava"},
    {"docker", "podman", "nerdctl"},
    {"vim", "nvim", "nano", "emacs", "code"},
    {"make", "just", "task", "ninja"},
    {"curl", "wget", "httpie", "http"},
    {"black", "ruff", "autopep8", "yapf"},
    {"eslint", "biome", "oxlint"},
    {"prettier", "biome", "dprint"},
    {"brew", "apt", "apt-get", "port", "nix"},
]


def command_program(command: str | None) -> str:
    """The program a shell command runs, with a runner's subcommand (`uv run pytest`)."""
    if not command:
        return ""
    for segment in re.split(r"&&|\|\||;|\||\n", command):
        tokens = [t for t in segment.strip().strip("()").split() if t]
        while tokens and (
            re.match(r"^\w+=", tokens[0]) or tokens[0] in ("sudo", "env", "time", "exec", "nohup")
        ):
            tokens.pop(0)
        if not tokens or tokens[0] in (
            "cd",
            "export",
            "source",
            ".",
            "set",
            "echo",
            "pushd",
            "popd",
            "which",
        ):
            continue
        head = tokens[0].rsplit("/", 1)[-1]
        words = [head]
        if head in {
            "uv",
            "npx",
            "pnpm",
            "npm",
            "yarn",
            "bun",
            "poetry",
            "pipenv",
            "cargo",
            "go",
            "make",
            "docker",
            "dotnet",
            "bundle",
            "git",
            "python",
            "python3",
            "node",
            "deno",
            "gradle",
            "mvn",
            "kubectl",
            "pdm",
            "rye",
            "hatch",
            "just",
            "bunx",
            "pnpx",
            "yarnpkg",
        }:
            for tok in tokens[1:4]:
                if tok == "-m" and head.startswith("python"):
                    words.append(tok)
                    continue
                if (
                    tok.startswith("-")
                    or "/" in tok
                    or "." in tok.strip(".")
                    or "=" in tok
                    or "$" in tok
                    or '"' in tok
                    or "'" in tok
                ):
                    break
                words.append(tok)
                if len(words) >= 3:
                    break
        return " ".join(words)
    return ""


def _rejection_claim(reason: str, rejected_command: str | None) -> Rule | None:
    s = _tidy(_strip_lead(reason.strip().split("\n", 1)[0]))
    m = re.match(
        r"^(?:please\s+)?(?:use|try|run it with|do it with|with)\s+([\w.@/\ue000\ue001-]+)$",
        s,
        re.I,
    ) or re.match(r"^([\w.@/-]+)\s+(?:please|instead|pls)$", s, re.I)
    if not m:
        bare = re.match(r"^([\w.@/-]+)$", s)
        if not bare or not any(bare.group(1).lower() in family for family in _FAMILIES):
            return None
        m = bare  # "pnpm" alone, on a rejected command: the tool to use instead
    tool = m.group(1)
    program = command_program(rejected_command).split(" ", 1)[0]
    for family in _FAMILIES:
        if tool.lower() in family and program in family and program != tool.lower():
            return f"Use {tool}, not {program}", "preference"
    return f"Use {tool}", "preference"


# --- failures from tool errors ----------------------------------------------------------------

_ERRORISH = re.compile(
    r"(?i)\b(?:error|exception|fatal|failed|failure|not found|no such file|permission denied|cannot|"
    r"can't|could not|couldn't|unable to|refused|timed out|segmentation fault|panic|denied|"
    r"not recognized|unknown command|command not found|no module named|missing|ERR!|"
    r"E(?:ACCES|NOENT|CONNREFUSED|ADDRINUSE|PERM|TIMEDOUT|NOTFOUND|CONNRESET|RESOLVE))\b"
)
_NOISE_LINE = re.compile(
    r"(?i)^(?:warn(?:ing)?\b|time=|level=|[=\-_*#~]{3,}|platform |rootdir:|configfile:|plugins:|"
    r"collecting|collected|cachedir:|exit code \d+|\s*$|\$ |\+ )"
)
_TEST_NOISE = re.compile(
    r"(?i)\b\d+ (?:passed|failed|errors?|skipped|warnings?)\b|^FAILED\b|^ERROR\s+\S+::|"
    r"::\S+ FAILED|^E\s{2,}|assert(?:ion)?\b"
)
_PY_EXC = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b:?.*$")


# The code under edit talking (type checker, linter, a failing assertion, a bug's exception):
# it changes with every edit and says nothing durable about the environment.
_CODE_DIAGNOSTIC = re.compile(
    r"^\S+\.\w{1,5}:\d+(?::\d+)?\b|\s-\s(?:error|warning):|^(?:error|warning)\[[\w-]+\]|^[A-Z]{1,4}\d{3,4}\b|"
    r"^(?:AssertionError|TypeError|ValueError|AttributeError|KeyError|IndexError|NameError|SyntaxError|"
    r"IndentationError|UnboundLocalError|ZeroDivisionError|RecursionError|NotImplementedError)\b|"
    r"^ImportError: cannot import name|\b(?:is not assignable|is possibly unbound|is unknown|"
    r"has no attribute|expected \d+ arguments?|Type of \")",
)


def failure_signature(text: str) -> str | None:
    """A short, machine-independent signature of an error output, or None when it has none
    (test-run summaries are progress, not a durable failure)."""
    lines = [ln.strip() for ln in text.splitlines()[:400]]
    pick = None
    if any(ln.startswith("Traceback (most recent call last)") for ln in lines):
        for ln in reversed(lines):
            if _PY_EXC.match(ln):
                pick = ln
                break
    if pick is None:
        for ln in lines:
            if (
                ln
                and not _NOISE_LINE.match(ln)
                and _ERRORISH.search(ln)
                and not _TEST_NOISE.search(ln)
            ):
                pick = ln
                break
    if pick is None or _CODE_DIAGNOSTIC.search(pick):
        return None
    sig = re.sub(r"\x1b\[[0-9;]*m", "", pick)
    sig = re.sub(
        r"(?<![\w<])(?:[A-Za-z]:)?(?:~|\.{1,2})?[/\\]?(?:[\w.@+-]+[/\\])+[\w.@+-]*", "<path>", sig
    )
    sig = re.sub(r"\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{7,40}\b", "<hex>", sig)
    sig = re.sub(r"\b\d+(?:\.\d+)*\b", "N", sig)
    sig = re.sub(r"\s+", " ", sig).strip(" :-")
    if len(re.findall(r"[A-Za-z]{2,}", sig)) < 2:
        return None
    return sig[:160]


def _failure_atoms(
    errors: list[ToolError], transcript: str | os.PathLike[str], project: str, fallback_ts: str
) -> list[Atom]:
    groups: dict[tuple[str, str], list[ToolError]] = {}
    for err in errors:
        sig = failure_signature(err.text)
        if sig:
            groups.setdefault((command_program(err.command), sig), []).append(err)
    atoms: list[Atom] = []
    for (program, sig), items in sorted(groups.items()):
        if len({e.line for e in items}) < 2:
            continue  # one error is noise; a recurring signature is a fact about the environment
        claim = f"`{program}` fails: {sig}" if program else f"Command fails: {sig}"
        for err in items:
            quote = f"$ {err.command}\n{err.text}" if err.command else err.text
            atoms.append(
                _atom(
                    claim,
                    "failure",
                    "observed",
                    project,
                    transcript,
                    err.line,
                    err.timestamp or fallback_ts,
                    err.session_id,
                    quote,
                    None,
                )
            )
    return atoms


# --- atoms ------------------------------------------------------------------------------------


def _anchor(text: str, focus: str | None) -> int:
    """Where in the statement the claim came from (best effort), for the quote window."""
    if not focus:
        return -1
    low = text.lower()
    at = low.find(focus.lower()[:40])
    if at >= 0:
        return at
    words = sorted(re.findall(r"[\w`.-]{5,}", focus), key=len, reverse=True)
    for word in words[:3]:
        at = low.find(word.lower())
        if at >= 0:
            return at
    return -1


def _quote(text: str, focus: str | None) -> str:
    """The redacted statement, ≤ MAX_QUOTE characters, centred on the claim's source. A long
    statement is cut to a generous window *before* redaction (bounded cost) and trimmed after,
    so a secret straddling the window's edge never reaches the quote."""
    from agent_memory.redact import redact

    if len(text) <= MAX_QUOTE:
        return redact(text)[0]
    at = max(_anchor(text, focus), 0)
    lo = max(0, at - 3 * MAX_QUOTE)
    window = redact(text[lo : at + 4 * MAX_QUOTE])[0]
    # The claim sits 3 quotes into the window, so the quote (centred on it) never touches the
    # window's cut edges. Redaction may shift offsets a little; the centre stays close.
    centre = min(at - lo, len(window))
    begin = max(0, min(centre - MAX_QUOTE // 3, len(window) - MAX_QUOTE + 2))
    piece = window[begin : begin + MAX_QUOTE - 2]
    head = "\u2026" if lo + begin > 0 else ""
    tail = "\u2026" if lo + begin + len(piece) < len(text) else ""
    return head + piece + tail


def _atom(
    claim: str,
    kind: str,
    confidence: str,
    project: str,
    transcript: str | os.PathLike[str],
    line: int,
    at: str,
    session: str,
    quote_text: str,
    focus: str | None,
) -> Atom:
    from agent_memory.redact import redact

    redacted_claim, findings = redact(claim)
    redacted_claim = redacted_claim[:500]
    pointer = canonical_pointer(transcript, line)
    return {
        "id": atom_id(redacted_claim, project),
        "claim": redacted_claim,
        "scope": "project",
        "project": project,
        "kind": kind,
        "first_seen": at,
        "last_seen": at,
        "observations": 1,
        "sessions": [session],
        "source": pointer,
        "first_source": pointer,
        "confidence": confidence,
        "tier": "L1",
        "redacted": bool(findings),
        "evidence": [
            {"source": pointer, "at": at, "session": session, "quote": _quote(quote_text, focus)}
        ],
    }


def statement_atoms(
    statement: Statement, transcript: str | os.PathLike[str], project: str, fallback_ts: str
) -> list[Atom]:
    """L1 observations (one per claim) from one user statement."""
    out = []
    at = statement.timestamp or fallback_ts
    for cand in extract_claims(
        statement.text, origin=statement.origin, rejected_command=statement.rejected_command
    ):
        out.append(
            _atom(
                cand.claim,
                cand.kind,
                cand.confidence,
                project,
                transcript,
                statement.line,
                at,
                statement.session_id,
                statement.text,
                cand.claim[:40],
            )
        )
    return out


def merge_observations(observations: Iterable[Atom]) -> list[Atom]:
    """Join observations per id (`atom.merge`), sorted by first sighting then id."""
    by_id: dict[str, Atom] = {}
    for obs in observations:
        current = by_id.get(obs["id"])
        by_id[obs["id"]] = obs if current is None else merge(current, obs)
    return sorted(
        by_id.values(), key=lambda a: (a["first_seen"], _line_of(a["first_source"]), a["id"])
    )


def _line_of(pointer: str) -> int:
    tail = pointer.rsplit("#L", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def safe_project(name: str) -> str:
    """A project name the schema accepts (no slashes, no leading blank)."""
    cleaned = re.sub(r"[/\\]+", "-", name.strip()).strip("-") or "project"
    return cleaned[:200]


def _fallback_timestamp(path: str | os.PathLike[str], stats: ReadStats) -> str:
    if stats.first_timestamp:
        return stats.first_timestamp
    try:
        import datetime as _dt

        from agent_memory.atom import iso_z

        return iso_z(_dt.datetime.fromtimestamp(Path(path).stat().st_mtime, tz=_dt.timezone.utc))
    except (OSError, ValueError, OverflowError):
        return "1970-01-01T00:00:00Z"


def extract_transcript(
    path: str | os.PathLike[str], project: str, session: str | None = None, *, strict: bool = True
) -> ExtractResult:
    """Schema-valid L1 atoms from one transcript, merged per id, sorted deterministically.

    strict=True raises OSError when the file cannot be opened; strict=False (the SessionEnd
    path) never raises: it returns what it could read and says why in `error`."""
    stats = ReadStats()
    project = safe_project(project)
    statements: list[Statement] = []
    errors: list[ToolError] = []
    error: str | None = None
    try:
        for event in iter_events(path, stats, session):
            if isinstance(event, Statement):
                statements.append(event)
            else:
                errors.append(event)
    except OSError as exc:
        if strict:
            raise
        error = f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # noqa: BLE001 - the SessionEnd path must never raise
        if strict:
            raise
        error = f"{type(exc).__name__}: {exc}"
    observations: list[Atom] = []
    try:
        fallback = _fallback_timestamp(path, stats)
        for statement in statements:
            observations.extend(statement_atoms(statement, path, project, fallback))
        observations.extend(_failure_atoms(errors, path, project, fallback))
        atoms = merge_observations(observations)
    except Exception as exc:  # noqa: BLE001
        if strict:
            raise
        error = error or f"{type(exc).__name__}: {exc}"
        atoms = []
    return ExtractResult(atoms, stats.skipped_lines, stats, len(statements), len(errors), error)


__all__ = [
    "Candidate",
    "ExtractResult",
    "command_program",
    "extract_claims",
    "extract_transcript",
    "failure_signature",
    "merge_observations",
    "safe_project",
    "statement_atoms",
]
