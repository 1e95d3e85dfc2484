""""<statement>. Remember this.": a closing sentence that asks for the one before it to be kept.

People say what to keep first and ask for it to be kept after ("paper 폴더의 pdf는 선행 연구야.
이를 메모리에 기억해줘.", "テストはdocker内で実行する。これを覚えておいて。", "The staging DB is
read-only. Remember that."). The asking names nothing itself; read alone it is a fragment
("Remember this for the future" once became the fact "For the future"). So the statement before
it is read as if the asking led it ("기억해: <statement>"), which the remember rules of every
language already read — the claim, the kind and a rule said inside it come from them.

Only the closing sentence of a message, only a pronoun for what is kept, and only after a
statement (a question before it is no thing to keep: "does it work? remember that").

The same asking said first, as a sentence of its own, points forward ("Please remember the
following. Tests run in Docker.", "Save this in your memory. We deploy with Fly.io.",
"今後のために覚えておいてください。テストはdocker内で実行します。"): the one statement after it is
read as led by the remember word. Only when the asking opens the message and exactly one
statement (no question) follows it — with more, which of them is meant is not said.
"""

from __future__ import annotations

import re

from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# The remember verbs of Latin script and Russian: (the verb; what it keeps, said after the
# statement — a pronoun; what it keeps, said before it — "the following"; the marker its
# language's remember rules read).
_LATIN_ASKING: tuple[tuple[str, str, str, str], ...] = (
    (r"запомни(?:те)?", r"это|этот\s+факт", r"следующее|вот\s+что", "запомни: "),
    (r"(?:lembre-se|lembre|lembra)", r"disso|disto", r"do\s+seguinte", "lembre-se: "),
    (r"recuerda", r"esto|eso", r"lo\s+siguiente", "recuerda: "),
    (r"(?:retiens|souviens-toi\s+de)", r"ça|cela|ceci", r"ce\s+qui\s+suit", "souviens-toi: "),
    (r"merk(?:e)?\s+dir", r"das|dies", r"folgendes", "merke dir: "),
    (r"ricorda(?:ti)?", r"questo|di\s+questo", r"quanto\s+segue", "ricorda: "),
)


def _latin(verb: str, kept: str, marker: str) -> tuple[re.Pattern[str], str]:
    return re.compile(rf"^{verb}\s+(?:{kept})", re.I), marker


# Each entry: the back reference (the asking, with a pronoun for what is kept), and the marker
# the statement is led with — the language's own remember word, which its rules read.
_BACK: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        _lazy(
            r"^(?:(?:please|and|also|ok|okay)[\s,]+)*(?:remember|memori[sz]e)\s+(?:that|this|it)"
            r"(?:\s+(?:for (?:the )?future|going forward|from now on|please))?|"
            r"^(?:(?:please|and|also)\s+)*keep (?:that|this|it) in mind|"
            # "Note this in your own claude.md", "add that to your memory": the same asking
            r"^(?:(?:please|and|also|ok|okay)[\s,]+)*(?:note|save|add|put|write|record|keep|store)\s+"
            r"(?:this|that|it)(?:\s+down)?\s+(?:in|to|into)\s+(?:your\s+(?:own\s+)?|the\s+)?"
            r"(?:memory|memories|claude\.md|notes)",
            re.I,
        ),
        "Remember: ",
    ),
    (
        _lazy(
            r"^(?:이를|이것을|이걸|이거|이\s*점을|이\s*내용을|이것도|위\s*내용을)\s*(?:꼭\s*)?"
            r"(?:(?:메모리|기억|claude\.md|CLAUDE\.md)에\s*)?(?:꼭\s*)?(?:기억|저장|추가|기록)해"
            r"(?:\s*줘|\s*주세요|\s*둬|\s*두세요|\s*놔)?"
        ),
        "기억해: ",
    ),
    (
        _lazy(
            r"^(?:これ|このこと|この点|以上)(?:を|は)\s*(?:メモリに\s*)?覚えて(?:おいて|て)?(?:ください|ね)?|"
            r"^(?:これ|このこと|この点|以上)(?:を|は)\s*(?:メモリ|記憶|CLAUDE\.md|claude\.md)に\s*"
            r"(?:追加|追記|記録|保存|記載)して(?:おいて)?(?:ください|ね)?"
        ),
        "覚えておいて：",
    ),
    (
        _lazy(
            r"^(?:请|請)?(?:记住|記住)(?:这一点|這一點|这点|這點|这个|這個|这条|這條|这些|這些|了)|"
            r"^(?:请|請)?(?:把|将|將)(?:这|這)(?:一点|一點|个|個|条|條|些)?(?:记|記|写|寫|加|存|保存)(?:到|进|進|入)"
            r"(?:你的)?\s*(?:记忆|記憶|claude\.md|CLAUDE\.md)\s*(?:里|裡|中)?|"
            # "记录到记忆（里）", "记录到记忆，方便其他对话理解": the asking with no pronoun, and the
            # reason for it after it
            r"^(?:请|請)?(?:记录|記錄|记|記|写|寫|存|保存)(?:到|进|進|入)(?:你的)?\s*(?:记忆|記憶|claude\.md|CLAUDE\.md)"
            r"\s*(?:里|裡|中)?(?:[，,]\s*(?:方便|以便|便于|便於)[^。！!？?]{0,30})?"
        ),
        "记住：",
    ),
    (_lazy(r"^recuérdalo", re.I), "recuerda: "),
    *(_latin(verb, kept, marker) for verb, kept, _following, marker in _LATIN_ASKING),
)
# Said first, the asking can name what follows ("remember the following", "以下を覚えておいて",
# "запомни следующее"); each entry: the asking, and the marker its language's rules read.
_FORWARD_ONLY: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        _lazy(
            r"^(?:(?:please|and|also|ok|okay)[\s,]+)*(?:remember|memori[sz]e|note|keep in mind)\s+"
            r"the following(?:\s+(?:for (?:the )?future|going forward|from now on|please))?|"
            r"^(?:(?:please|and|also|ok|okay)[\s,]+)*(?:note|save|add|put|write|record|keep|store)\s+"
            r"the following\s+(?:in|to|into)\s+(?:your\s+(?:own\s+)?|the\s+)?"
            r"(?:memory|memories|claude\.md|notes)",
            re.I,
        ),
        "Remember: ",
    ),
    (
        _lazy(
            r"^(?:今後のために|将来のために)?(?:以下|次)(?:のこと)?を\s*(?:メモリに\s*)?覚えて(?:おいて|て)?"
            r"(?:ください|ね)?|^(?:今後のために|将来のために)覚えて(?:おいて|て)(?:ください|ね)?"
        ),
        "覚えておいて：",
    ),
    (
        _lazy(
            r"^(?:请|請)?(?:记住|記住)(?:以下|下面)(?:的)?(?:内容|內容|几点|幾點|这些|這些)?|"
            r"^(?:请|請)?(?:把|将|將)(?:以下|下面)(?:的)?(?:内容|內容)?(?:记|記|写|寫|存|保存)(?:到|进|進|入)"
            r"(?:你的)?\s*(?:记忆|記憶|claude\.md|CLAUDE\.md)\s*(?:里|裡|中)?"
        ),
        "记住：",
    ),
    (_lazy(r"^다음(?:을|\s*내용을)\s*(?:메모리에\s*)?(?:기억|저장)해(?:\s*줘|\s*주세요|\s*둬)?"), "기억해: "),
    *(_latin(verb, following, marker) for verb, _kept, following, marker in _LATIN_ASKING),
)
# Said first, either kind of asking points forward.
_OPENING = _BACK + _FORWARD_ONLY
_END = _lazy(r"[\s.。!！]*$")
# A sentence ends at CJK punctuation or a line break, or at Latin punctuation before a space
# ("fly.io" is one word).
_SENTENCE_END = _lazy(r"[.!?](?=\s)|[。！？\n]")


def _marker_of(
    sentence: str, askings: tuple[tuple[re.Pattern[str], str], ...] = _BACK
) -> str | None:
    """The remember marker `sentence` stands for when it is a whole asking of `askings`, else
    None."""
    whole = sentence.strip()
    for pattern, marker in askings:
        m = pattern.match(whole)
        if m and _END.fullmatch(whole[m.end() :]):
            return marker
    return None


def is_forward_reference(sentence: str) -> bool:
    """Whether `sentence` is a whole "remember the following / this" said first, asking for the
    one after it to be kept (the durability gate reads it as the "remember" said of that one)."""
    return _marker_of(sentence, _OPENING) is not None


def is_back_reference(sentence: str) -> bool:
    """Whether `sentence` is a whole "remember this" asking for the one before it to be kept
    (the durability gate reads it as the "remember" said of that one)."""
    return _marker_of(sentence) is not None


def _closing(text: str) -> tuple[int, str] | None:
    """Where the closing back reference starts, and the marker it stands for."""
    body = text.rstrip()
    cut = max((m.end() for m in _SENTENCE_END.finditer(body.rstrip(".。!！ \t"))), default=-1)
    if cut <= 0:
        return None
    marker = _marker_of(body[cut:])
    return (cut, marker) if marker else None


def _opening(text: str) -> str | None:
    """The message led by its remember word when it opens with a whole asking and exactly one
    statement follows ("Remember the following. <statement>"), else None."""
    body = text.strip()
    first = _SENTENCE_END.search(body)
    if not first:
        return None
    marker = _marker_of(body[: first.end()], _OPENING)
    rest = body[first.end() :].strip()
    if marker is None or len(rest) < 4 or rest.endswith(("?", "？")):
        return None
    if _SENTENCE_END.search(rest.rstrip(".。!！ \t")):
        return None  # more than one statement follows: which is meant is not said
    return marker + rest


def led_by_remember(text: str) -> str:
    """`text` with a closing "remember this" moved to lead the statement before it, or an
    opening "remember the following" leading the one statement after it; `text` itself when it
    has neither (or what is to be kept is a question or nothing)."""
    found = _closing(text)
    if not found:
        return _opening(text) or text
    cut, marker = found
    before = text[:cut].rstrip()
    start = max((m.end() for m in _SENTENCE_END.finditer(before[:-1])), default=0)
    statement = before[start:].strip()
    if len(statement) < 4 or statement.endswith(("?", "？")):
        return text
    return before[:start] + (" " if start else "") + marker + statement
