"""Text preparation for extraction: code spans and URLs masked, prose split into sentences and
clauses, lead words and politeness stripped, claims tidied and shortened."""

from __future__ import annotations

import re

from agent_memory.redact.regex import LazyCompiler
from agent_memory.redact.window import window

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

MAX_CLAIM = 200
MAX_TEXT = 12000  # a longer "prompt" is a pasted document; only its head is read
_MAX_SENTENCES = 200  # of prose; a longer statement keeps its head and its tail


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# --- text preparation ---------------------------------------------------------------------

FENCE = _lazy(r"```.*?(?:```|\Z)", re.S)
_CODE = _lazy(r"`[^`\n]{1,300}`")
_URL = _lazy(r"\bhttps?://[^\s)>\]}\"']+")
_PH = _lazy("\ue000(\\d+)\ue001")
QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})


def mask(text: str) -> tuple[str, list[str]]:
    """Replace code spans and URLs by placeholders so that splitting and rules ignore their
    punctuation; `unmask` restores them verbatim in the claim."""
    spans: list[str] = []

    def keep(m: re.Match[str]) -> str:
        spans.append(m.group(0))
        return f"\ue000{len(spans) - 1}\ue001"

    return _URL.sub(keep, _CODE.sub(keep, text)), spans


def unmask(text: str, spans: list[str]) -> str:
    return _PH.sub(lambda m: spans[int(m.group(1))] if int(m.group(1)) < len(spans) else "", text)


_BULLET = _lazy(r"^\s*(?:[-*\u2022]|\d{1,2}[.)])\s+")
_LOGLIKE = _lazy(
    r"^\s*(?:at\s+\S+\(|File \"|Traceback|\$ |>>> |npm ERR|error\[|warning\[|\d{4}-\d\d-\d\d[ T]\d"
    r"|\[\d+/\d+\]|[A-Z]\w*(?:Error|Exception):|\w+(?:\.\w+)+:\d+"
    # a pasted build log: "22:37:13.186 Error: ...", "Error: Function Runtimes must ..."
    r"|\d{1,2}:\d\d:\d\d(?:[.,]\d+)?\s|(?i:error|warning|fatal|err!)(?:\[[\w-]+\])?:\s)"
)


_NOT_WORDY = _lazy(r"[^a-zA-Z\u00c0-\u024f\s,.'?!\ue000\ue001-]")


# A SQL statement typed or pasted into the prompt: two upper-case keywords open it.
_SQL = _lazy(
    r"^(?:CREATE|ALTER|DROP|SELECT|INSERT|UPDATE|DELETE|WITH|GRANT)\s+(?:[A-Z]+\b|\*)"
    # a continuation line of a statement broken over lines: "ON t", "USING btree (a, b);"
    r"|^(?:ON|USING|FROM|WHERE|VALUES|SET|JOIN|LEFT JOIN|ORDER BY|GROUP BY|RETURNING)\s+\S.*"
    r"(?:;|\))\s*$",
)


def _looks_like_code(line: str) -> bool:
    if _LOGLIKE.match(line) or re.match(r"^(?: {4,}|\t)\S", line) or _SQL.match(line):
        return True
    if len(line) < 24:
        return False
    other = len(_NOT_WORDY.findall(line))
    return other / len(line) > 0.28


_ABBREV = words(
    """
e.g i.e etc vs cf approx incl esp fig no nr mr mrs ms dr st eg ie resp min max ca
"""
)


def _split_sentences(line: str) -> list[str]:
    out, start = [], 0
    # tried only where a run of marks starts: tried at each mark of a ruler of dots it would
    # scan the rest of the ruler every time (quadratic); a match inside a run would start at
    # its first mark anyway
    for m in re.finditer(r"(?<![.!?])[.!?]+[\"')\]]*\s+(?=\S)", line):
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


_STRUCTURE = _lazy(r"^\s*(?:#{1,6}\s|[-*]\s|\d+\.\s|\|.*\|)", re.M)


# The section labels of a task brief ("Goal:", "Requirements:", "Acceptance criteria:"): a
# prompt laid out like this is a spec of the work at hand, written (or pasted) for this task.
_BRIEF_LABEL = _lazy(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?(?:main |primary |the |project |tech )?(?:goal|goals|task|tasks|"
    r"instructions|objective|requirements?|"
    r"context|background|deliverables?|acceptance criteria|constraints|scope|steps|"
    r"expected (?:behaviou?r|result|output)|implementation(?: notes| details)?|important|notes?|"
    r"success criteria|non-goals|out of scope|what's done|done|completed|next steps|remaining|"
    r"status|files (?:created|changed|modified)|what's next|todo|current state|progress)(?:\*\*)?\s*:",
    re.I | re.M,
)


# A request that introduces its own steps ("please update X to:", "do the following:").
# ("Please update CLAUDE.md with the following:" introduces what is to be kept, not steps)
_STEPS_FOLLOW = _lazy(
    r"\b(?:please|can you|could you|i want you to|i need you to|let's|go ahead and)\b"
    r"(?![^\n]*\b(?:claude\.md|agents\.md|memory|memories)\b)[^\n]{0,120}?"
    r"\b(?:to|following|these|this|steps|changes)\s*:\s*\n",
    re.I,
)


def framing(text: str) -> str:
    """A long statement with document structure (headings, lists, tables) is mostly pasted
    material (a spec, a plan, notes): only its first and last paragraphs are the user talking.
    A task brief ("Goal: … Requirements: …") is read the same way from 600 characters on."""
    steps = _STEPS_FOLLOW.search(text)
    if steps:
        # "Please update watch.js to:\n\n- quote all vars\n- …": what follows is this request
        text = text[: steps.end()]
    labels = len(_BRIEF_LABEL.findall(text))
    items = len(_STRUCTURE.findall(text))
    if labels and items >= 3 and len(text) >= 120:
        # "Now improve the X. Requirements: - … - … - keep it modular": every line is the spec
        # of this task; only the opening line is the user talking to Claude.
        return re.split(r"\n\s*\n|\n(?=\s*(?:#{1,6}\s*)?\**\w[\w ]{0,30}:)", text.strip(), maxsplit=1)[0]
    brief = len(text) >= 600 and labels >= 2
    if not brief and (len(text) < 800 or items < 4) and (len(text) < 1500 or items < 6):
        return text
    paragraphs = [p for p in re.split(r"\n\s*\n", text) if p.strip()]
    if len(paragraphs) < 3:
        return text
    return paragraphs[0] + "\n\n" + paragraphs[-1]


# A shell prompt line ("host:~/dir> make", "user@mac proj % npm i", "$ ls") starts a pasted
# terminal session: it and what follows, up to a blank line, is the terminal talking.
# (the "user@mac proj %" form starts where a word starts: tried inside a 10,000-character word
# it scanned the rest of the word at each character; a match inside a word starts at its start)
_SHELL_PROMPT = r"(?:[\w.-]+@[\w.-]+|[\w.-]+):[~/][^\s]*\s*[>$#%]\s|(?<![\w.-])[\w.-]+@[\w.-]+\s+\S+\s+%\s"
_SHELL_LINE = _lazy(rf"^\s*(?:{_SHELL_PROMPT}|[$%\u276f]\s+\S|PS [A-Z]:\\)")
_SHELL_INSIDE = _lazy(rf"(?:^|\s){_SHELL_PROMPT}")
_INDENTED = _lazy(r"^(?: {4,}|\t)\S|^ {2,3}(?![-*\u2022]\s|\d{1,2}[.)]\s)\S")


_LIST_ITEM = _lazy(r"^\s*(?:[-*\u2022]|\d{1,2}[.)])\s")
_ENDS_SENTENCE = _lazy(r"[.!?]\s*$")


def _introduced_paste(lines: list[str]) -> int | None:
    """Where a pasted block starts: after a line that ends with a colon ("getting this:"), four
    or more lines of which fewer than half are list items or end a sentence are output copied
    in (a log, a stack trace, a CI run), up to the end of the statement. A list of rules typed
    after "my rules:" is bulleted or punctuated and stays."""
    for i, line in enumerate(lines):
        if not line.rstrip().endswith(":"):
            continue
        rest = [ln for ln in lines[i + 1 :] if ln.strip()]
        if len(rest) < 4:
            return None
        prose = sum(1 for ln in rest if _LIST_ITEM.match(ln) or _ENDS_SENTENCE.search(ln))
        if prose * 2 < len(rest):
            return i + 1
    return None


def _typed_after_session(text: str) -> str:
    """A prompt that opens with a shell command is a terminal session pasted whole, its output
    past blank lines included; what was typed, if anything, is the last paragraph, and only
    when it reads as a sentence."""
    last = text.rstrip().rsplit("\n\n", 1)[-1].strip()
    typed = "\n" not in last and _ENDS_SENTENCE.search(last) and not _SHELL_LINE.match(last)
    return last if typed else ""


def _drop_shell_lines(lines: list[str], keep: list[bool]) -> None:
    """Unmark a shell command and its output up to the next blank line; a command after typed
    words on the same line ("why is it broken? host:~/dir> cmd") is cut from that line."""
    in_shell = False
    for i, line in enumerate(lines):
        inside = None if in_shell else _SHELL_INSIDE.search(line)
        if _SHELL_LINE.match(line):
            in_shell = True
        elif inside:  # the typed question stays
            lines[i] = line[: inside.start()]
            in_shell = True
            continue
        elif not line.strip():
            in_shell = False
        if in_shell:
            keep[i] = False


def _drop_indented_runs(lines: list[str], keep: list[bool]) -> None:
    """Unmark every run of three or more indented lines (blank lines inside it allowed)."""
    run: list[int] = []
    for i, line in enumerate([*lines, ""]):
        if i < len(lines) and _INDENTED.match(line):
            run.append(i)
            continue
        if i < len(lines) and not line.strip() and run:
            continue  # a blank line inside an indented block
        if len(run) >= 3:
            for j in run:
                keep[j] = False
        run = []


def drop_pasted(text: str) -> str:
    """Prose without pasted terminal sessions and indented blocks: a run of three or more lines
    indented by two spaces or more is text copied from a terminal or an editor (Claude Code's
    own output, a log, a config), not typed; so is an unpunctuated block introduced by a line
    ending with a colon, and a prompt that opens with a shell command."""
    if "\n" not in text:
        if _SHELL_LINE.match(text):
            return ""
        inside = _SHELL_INSIDE.search(text)
        return text[: inside.start()] if inside else text
    if _SHELL_LINE.match(next((ln for ln in text.split("\n") if ln.strip()), "")):
        return _typed_after_session(text)
    lines = text.split("\n")
    pasted = _introduced_paste(lines)
    if pasted is not None:
        lines = lines[:pasted]
    keep = [True] * len(lines)
    _drop_shell_lines(lines, keep)
    _drop_indented_runs(lines, keep)
    return "\n".join(line for line, k in zip(lines, keep, strict=True) if k)


def sentences(text: str) -> list[str]:
    """Sentences of prose, skipping headings, quotes, code and log lines."""
    out: list[str] = []
    for line in _lines(drop_pasted(text)):
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
_CONTRACTION_RES = [(_lazy(p, re.I), r) for p, r in _CONTRACTIONS]

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
    r"given that|now that|seeing as|in addition|additionally|moreover|furthermore|"
    # "FYI before we start: I use a screen reader": when it is said, not what
    r"before (?:we|you) (?:start|begin|get started|dive in)|before i forget|before anything else|"
    r"first of all|first things first"
)
_LEAD = _lazy(rf"^(?:{_LEAD_WORDS})(?=[\s,:;!.\u2013\u2014-]|$)[\s,:;!.\u2013\u2014-]*", re.I)
_LEAD_NO = _lazy(
    r"^(?:no|nope|nah|not quite|wrong|incorrect)\s*[,.!;:\u2013\u2014-]+\s*", re.I
)


# "sorry for being picky, but …", "sorry to be a pain, …": an apology for what follows, none of it
# (left in, "for being picky" read as the rule's purpose: "Always use tabs for being picky")
_LEAD_APOLOGY = _lazy(
    r"^(?:sorry|apologies|my apologies)\s+(?:for|about|to|if)\b[^,.;:!?]{0,60}[,;:]\s*", re.I
)


def strip_lead(text: str) -> str:
    prev = None
    while prev != text:
        prev = text
        text = _LEAD_NO.sub("", _LEAD.sub("", _LEAD_APOLOGY.sub("", text))).strip()
    return text


# --- clause splitting ---------------------------------------------------------------------

_STARTERS = words(
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
_SPLIT = _lazy(r",\s+|\s+(?:and|but)\s+(?=\S)|;\s*|\s+[-\u2013\u2014]\s+|:\s+|\s*\u2014\s*")


def _inside_path(sentence: str, m: re.Match[str]) -> bool:
    """The dash joins two pieces of one path: a word with a backslash before it and one after."""
    before = sentence[: m.start()].rsplit(None, 1)
    after = sentence[m.end() :].split(None, 1)
    return bool(before and after and "\\" in before[-1] and "\\" in after[0])


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


# A sentence or clause that opens with a prohibition ("never …", "please don't …").
PROHIBITION = _lazy(r"^\W*(?:please\s+)?(?:never|don't|dont|do not)\b", re.I)
_HESITATION = _lazy(r"\b(?:stall|hesitate|wait|pause|delay|stop|dawdle)\s*$", re.I)
# An exception closing a rule: "unless I say so", "without asking me", "until told to".
_EXCEPTION = _lazy(
    r"\b(?:unless|until|till)\s+(?:i|we|told|asked|instructed|the user)\b|"
    r"\bwithout\s+(?:asking|checking|my|the user's|permission|approval|confirm\w*|consent)\b",
    re.I,
)


def _exception_shared(sentence: str, m: re.Match[str]) -> bool:
    """"never commit and push without asking me": in a prohibition the exception at the end
    bounds both verbs the "and" joins, so the two are not cut apart (cut, "Never commit" forbade
    what the user allows when asked; joined, the claim says what the user said). Only after a
    "never"/"don't" that opens the sentence ("always use pnpm and commit without asking me" is
    two rules and a permission), and only an "and" with no other break before the exception."""
    if m.group(0).strip() != "and" or not PROHIBITION.match(sentence):
        return False
    if _HESITATION.search(sentence[: m.start()]):
        return False  # "never stall and push without asking me": don't stall; push freely
    rest = sentence[m.end() :]
    if re.match(
        r"(?:never|don't|dont|do|always|avoid|stop|please|also|then|just|i|we|you)\b", rest, re.I
    ):
        return False  # "… and never force push unless …": a rule of its own, with its exception
    tail = _EXCEPTION.search(rest)
    if tail is None or re.search(r"[,;:.!?]|\s(?:and|but|or)\s", rest[: tail.start()]):
        return False
    # (not an exception ending "… unless I say so / specify this": such a claim is not read, and
    # joined it would take the first verb's rule down with it)
    return not re.search(r"\b(?:so|to|this|it|that|them)\W*$", rest)


# A condition a rule holds under: "never merge unless CI is green", "only if I ask".
_CONDITION = _lazy(
    r"\b(?:unless|until|till|only if|as long as|provided(?: that)?|except (?:when|if))\b", re.I
)
_SUBJECT = ("i", "we", "you", "they", "it", "someone", "somebody", "the", "i'm", "it's", "we're",
            "you're", "they're", "i've", "we've", "you've", "there's")  # fmt: skip
_RULE_WORD = _lazy(r"\b(?:never|always|don't|dont|do not|avoid|must|should|please)\b", re.I)


def _condition_continues(sentence: str, start: int, m: re.Match[str]) -> bool:
    """"never merge unless CI is green and I approve": an "and" inside a condition joins a second
    requirement of the condition, not a new clause (cut, the rule read "Never merge unless CI is
    green", allowing what the user forbade). Only a short last clause with a subject of its own
    and no rule word in it: "… unless I ask and always run the tests" is two rules."""
    if m.group(0).strip() != "and" or not _CONDITION.search(sentence, start, m.start()):
        return False
    rest = sentence[m.end() :].rstrip(" .!?")
    words = rest.split()
    return (
        bool(words)
        and words[0].lower() in _SUBJECT
        and len(words) <= 6
        and not re.search(r"[,;:.!?()]", rest)
        and not _RULE_WORD.search(rest)
    )


# After a comma, what narrows the rule before it: "always run prettier, but not on the generated
# types", "never use raw SQL, only if the ORM can't express it", "…, unless it's a hotfix". Cut
# there, the rule read without its exception, saying more than the user did.
_RESTRICTION = _lazy(
    r"(?:unless|only (?:if|when|for|in|on)|but (?:not|never) (?:on|in|for|with|when|if|inside|under))\b",
    re.I,
)


def clauses(sentence: str) -> list[str]:
    """Split a sentence where a new clause starts (not inside parentheses or quotes)."""
    depth = _depths(sentence)
    parts, start = [], 0
    for m in _SPLIT.finditer(sentence):
        if depth[m.start()] > 0 or _exception_shared(sentence, m) or _condition_continues(sentence, start, m):
            continue
        if (m.group(0).startswith(",") or m.group(0).strip() == "but") and _RESTRICTION.match(
            sentence, m.end()
        ):
            continue  # (and "I use mypy in strict mode but only for the new package")
        sep = m.group(0)
        nxt = sentence[m.end() :].split(" ", 1)[0].lower().strip(",.;:!?")
        if sep.strip() in ("-", "\u2013") and _inside_path(sentence, m):
            continue  # "C:\Users\me\16 - Notes\vault": one folder name with a dash in it
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


# Emoticons and emoji closing a text. The tail is never tried right after a blank or a whole
# emoticon: a tail starting there also starts one step earlier, so the leftmost match (the one
# sub() removes) is the same, and a run of emoji before other text is scanned once instead of
# once from each of its characters (quadratic; notes/28-hang.md).
_EMOTICON = r"[:;]-?[()DPp/\\|]|xD|<3|\^\^|[\u2600-\u27bf\U0001f300-\U0001faff]"
_EMOTICON_TAIL = _lazy(
    r"(?<![\s\u2600-\u27bf\U0001f300-\U0001faff])(?<![:;][()DPp/\\|])(?<![:;]-[()DPp/\\|])"
    rf"(?<!xD)(?<!<3)(?<!\^\^)(?:\s*(?:{_EMOTICON}))+\s*$"
)


# Words that take an object right after them: a word there is in a noun's place ("use plz",
# "deploy via please": the Please build tool), not the user's courtesy.
OBJECT_TAKERS = ("use", "uses", "using", "used", "with", "via", "prefer", "prefers", "install",
                 "of", "over", "than", "not", "the", "a", "an")  # fmt: skip
# (lookbehinds: not right after one of them, for a pattern whose words follow a space)
NOT_RIGHT_AFTER_TAKER = "".join(rf"(?<!\b{w})" for w in OBJECT_TAKERS)
# Courtesy and exasperation closing a sentence ("…, please", "… ffs", "… lol", "…, trust me")
# are not part of the rule; after a word that needs its object, one without a comma before it is
# that object ("never just trust me" is the rule's own object).
_COURTESY_TAIL = _lazy(
    rf"(?:(?:,\s*|{NOT_RIGHT_AFTER_TAKER}\s+)(?:please|pls|thanks|thank you|for me|ok|okay|"
    r"if possible|too|if (?:you )?need(?:ed)?(?: it)?|in case you need it|just in case|f+s|lol|lmao|"
    r"smh|tbh|imo|ugh|fwiw|btw|iirc|afaik)|,\s*(?:trust|believe) me)+\s*[.!?]*$",
    re.I,
)


def tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    text = _EMOTICON_TAIL.sub("", text)
    text = _COURTESY_TAIL.sub("", text)
    text = text.strip(" \t,;:-\u2013\u2014")
    text = re.sub(r"[.!?]+$", "", text).strip()
    for rx, repl in _CONTRACTION_RES:
        text = rx.sub(repl, text)
    if text.count("(") > text.count(")"):
        text = text.rsplit("(", 1)[0].strip()
    if text.startswith('"') and text.endswith('"') and text.count('"') == 2:
        text = text[1:-1]
    return text


def bare_phrase(text: str) -> str:
    """A phrase cut out of a sentence, its spaces collapsed and the punctuation around it gone
    ("  OrbStack ," -> "OrbStack"), ready to stand inside a claim."""
    return re.sub(r"\s+", " ", text).strip(" ,;:.!?")


def cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].isalpha() else text


_LAST_BLANK = _lazy(r"\s(?=\S*\Z)")
_BLANK = _lazy(r"\s")


def at_blanks(text: str, lo: int, hi: int) -> tuple[int, int]:
    """`lo` and `hi` moved inward to blanks, so `text[lo:hi]` cuts no run of non-blank
    characters in two (a key cut in two leaves a part no rule reads as a secret any longer);
    an edge with no blank between the two is left where it is."""
    if 0 < lo < hi and not text[lo - 1].isspace():
        after = _BLANK.search(text, lo, hi)
        lo = after.end() if after else lo
    if lo < hi < len(text) and not text[hi].isspace():
        before = _LAST_BLANK.search(text, lo, hi)
        hi = before.start() if before else hi
    return lo, hi


def shorten(text: str) -> str:
    """`text` cut to MAX_CLAIM characters at a phrase's end. A longer text is redacted first:
    cut first, a key that straddled the cut left its first part, which no rule reads as a
    secret any longer, in the claim (its redaction after found nothing: `redacted: false`)."""
    if len(text) <= MAX_CLAIM:
        return text
    from agent_memory.redact.redactor import redact

    read = window(text, MAX_CLAIM)
    cut = len(read) < len(text)
    text = redact(read)[0]
    if len(text) <= MAX_CLAIM:
        return text.rstrip() + "\u2026" if cut else text
    head = text[:MAX_CLAIM]
    marker = head.rfind("[REDACTED:")
    if marker >= 0 and "]" not in head[marker:]:
        head = head[:marker]  # a marker is kept whole or not at all
    for sep in ("; ", ", ", " (", " and ", " but ", " "):
        at = head.rfind(sep)
        if at >= MAX_CLAIM // 2:
            return head[:at].rstrip(" ,;(") + "\u2026"
    return head.rstrip() + "\u2026"
