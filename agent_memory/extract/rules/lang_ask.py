"""Asking when unsure, the way people put it in any language: "分からないことがあれば聞いてください",
"不明点があれば必ず質問して", "如果不确定，请先问我", "모르는 게 있으면 물어봐", "se tiver dúvidas,
pergunte", "si tienes dudas, pregunta", "si tu as un doute, demande-moi", "wenn du unsicher bist,
frag mich", "если что-то непонятно, спрашивай", "if in doubt, ask".

How the user wants to be worked with, whatever the task it closes: one preference, one claim in
English (`ASK_CLAIM`), so that it converges however and in whichever language it is said. The
whole clause must be the condition and the asking — "if the build fails, ask me" names a case of
this work, and "ask me which one" asks for a choice now.
"""

from __future__ import annotations

import re

from agent_memory.extract.rules.lang_words import Hit
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

ASK_CLAIM = "Ask the user when something is unclear"

_UNSURE = _lazy(
    # Japanese: "分からないことがあれば", "不明点があったら", "疑問がある場合は"
    r"^(?:今後は|これからは)?[、,]?\s*(?:もし)?(?:何か|なにか)?(?:分から|わから|不明|疑問|不安)(?:ない|な)?(?:こと|点|ところ|部分)?"
    r"(?:が|は)?(?:あれば|あったら|ある場合は|ある時は|あるときは)[、,]?\s*(?:必ず|遠慮なく|いつでも|いつも|常に|気軽に)?"
    r"(?:私に|僕に)?(?:聞いて|きいて|質問して|確認して)(?:ください|下さい|ね|ほしい)?$|"
    # Chinese: "如果不确定，请先问我", "有不清楚的地方就问我"
    r"^(?:以后|以後)?[，,]?\s*(?:如果|若|要是)?(?:有)?(?:任何)?(?:不确定|不確定|不清楚|不明白|不懂|疑问|疑問)(?:的地方|的)?[，,]?\s*"
    r"(?:请|請|就)?(?:总是|總是|始终|始終)?(?:先|随时|隨時)?(?:问我|問我|询问我|詢問我|向我确认|向我確認|跟我确认|跟我確認)$|"
    # Korean: "모르는 게 있으면 물어봐", "불확실한 부분이 있다면 꼭 질문해 주세요"
    r"^(?:앞으로(?:는)?\s*)?(?:만약\s*)?(?:모르는|모르겠는|불확실한|애매한|궁금한)\s*(?:것|게|점|부분)(?:이)?\s*(?:있으면|있다면)\s*,?\s*"
    r"(?:꼭\s*|언제든\s*|항상\s*)?(?:나한테\s*|저에게\s*)?(?:물어봐|물어보세요|물어봐\s*줘|질문해(?:\s*줘|\s*주세요)?|"
    r"확인해(?:\s*줘|\s*주세요)?)$|"
    # Portuguese, Spanish, French, German, Russian, English
    r"^(?:se\s+(?:tiver|houver)\s+(?:alguma\s+)?dúvidas?|em\s+caso\s+de\s+dúvida)\s*,?\s*"
    r"(?:sempre\s+)?(?:me\s+)?(?:pergunte|pergunta)(?:-me)?(?:\s+antes)?$|"
    r"^(?:si\s+tienes\s+(?:alguna\s+)?dudas?|en\s+caso\s+de\s+duda|si\s+no\s+est[áa]s\s+seguro)\s*,?\s*"
    r"(?:siempre\s+)?(?:pregunta|pregúntame)(?:\s+primero)?$|"
    r"^(?:si\s+tu\s+as\s+(?:un\s+)?doute|en\s+cas\s+de\s+doute|si\s+tu\s+n'es\s+pas\s+s[ûu]r)\s*,?\s*"
    r"(?:demande|demande-moi|demande-moi\s+toujours|pose-moi\s+la\s+question)(?:\s+d'abord)?$|"
    r"^(?:wenn\s+du\s+(?:dir\s+)?unsicher\s+bist|im\s+zweifel|bei\s+unklarheiten)\s*,?\s*"
    r"(?:frag|frage)(?:\s+mich)?(?:\s+immer)?(?:\s+(?:vorher|zuerst|nach))?$|"
    r"^(?:если\s+(?:что-то|что-нибудь|что)?\s*(?:непонятно|неясно)|если\s+(?:не\s+уверен|сомневаешься)|"
    r"в\s+случае\s+сомнений)\s*,?\s*(?:всегда\s+)?(?:спрашивай|спроси|уточняй|уточни)(?:\s+у\s+меня)?$|"
    r"^(?:if|when)\s+(?:in\s+doubt|(?:you(?:'re|\s+are)|you\s+feel)\s+(?:unsure|not\s+sure|uncertain)|"
    r"(?:anything|something)\s+is\s+unclear)\s*,?\s*(?:please\s+)?(?:just\s+)?(?:always\s+)?ask(?:\s+me)?(?:\s+first)?$",
    re.I,
)


# A sentence's end in any script (a Latin full stop only before a space: "fly.io" is one word).
_SENTENCE_END = _lazy(r"[.!?](?=\s|$)|[。！？\n]")


# Said to hold beyond this request: "いつも聞いて", "以后…先问我", "always", "from now on", or the
# English idiom "when in doubt" (said of any time). Not 必ず / 꼭 ("be sure to"): emphasis on this
# request, whatever its scope (tests/test_extract_ja_emphasis.py).
_STANDING = _lazy(
    r"いつも|常に|今後は|これからは|总是|總是|始终|始終|以后|以後|항상|앞으로|"
    r"\b(?:always|from now on|going forward|when in doubt|sempre|siempre|toujours|immer|всегда|впредь)\b",
    re.I,
)


def ask_when_unsure(text: str) -> Hit | None:
    """A sentence of `text` that is, whole, the asking to be asked when something is unclear,
    said to hold on (in any language, English too: one claim). Without that, it is how to do the
    piece of work at hand ("增加一个 alias…；有不清楚的问我", "分からないところがあったら必ず質問して")."""
    for sentence in _SENTENCE_END.split(text):
        sentence = sentence.strip(" \t,，、；;")
        if _UNSURE.match(sentence) and _STANDING.search(sentence):
            return ASK_CLAIM, "preference", "ask_when_unsure"
    return None
