"""Whether a non-English text is negated (`negated`): the negation words of each language, and
"no" read by its grammar — Spanish negates with it, Portuguese "no" is "em + o" (`no_negates`)."""

from __future__ import annotations

import re

from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

_NEGATION = _lazy(
    r"不要|不能|不许|不許|别|別|禁止|都不|不再|再也不|しない|しないで|ないで|ません|하지 ?마|않|"
    r"(?<![\uac00-\ud7af])안\s+(?=[\uac00-\ud7af])|"
    r"(?<!\w)(?:не|никогда|нельзя)(?!\w)|"
    r"\b(?:não|nunca|jamás|ne|n'|jamais|nicht|nie|niemals|kein|keine|keinen|non|mai)\b",
    re.I,
)
# "no" negates in Spanish (and English); in Portuguese it is "em + o", a preposition with its
# article ("escrever cada commit no imperativo", "use aspas no JSON"). Read by grammar:
# - a sentence with a Portuguese-only word (não, você, um/uma, em, com, do/dos, ao, pelo, isso,
#   também, agora, -ção/-ões/ã/õ/ç) and no Spanish-only one (el, los, las, del, al, y, con, es,
#   pero, muy, siempre, ahora, hay, ñ/¿/¡) is Portuguese: its "no" never negates;
# - otherwise "no" negates where a negation of a verb stands: opening a clause ("no uses npm",
#   "…, y no toques X") or, mid-clause, in a sentence with a Spanish-only word ("el bot no
#   responde"). Mid-clause after a verb or its object, with no Spanish word in the sentence, it
#   is the Portuguese preposition ("escrever cada commit no imperativo").
# - before a name, a path or a known place-noun it is the preposition whatever the sentence
#   ("no AI_INSTRUCTIONS.md", "no início", "no harness").
NO = _lazy(r"\bno\b", re.I)
# The two look-aheads below are matched right after a "no" (never after a blank); the
# (?<![ \t]) keeps a search from trying them at each blank of a long run, which scans the rest
# of the run from every one (quadratic).
NO_BEFORE_PLACE = _lazy(
    r"(?<![ \t])[ \t]+(?:(?-i:[A-Z_.~/\ue000])|(?:inicio|início|final|fim|topo|"
    r"começo|meio|lugar|caso|momento|projeto|arquivo|código|codigo|repositório|repositorio|diretório|"
    r"diretorio|terminal|servidor|chat|harness|site|app|git|github|banco|navegador|contexto)\b)",
    re.I,
)
_PT_ONLY = _lazy(
    r"ção|ções|ões|[ãõç]|\b(?:não|você|vocês|um|uma|uns|umas|em|com|do|dos|das|os|ao|aos|pelo|pela|"
    r"pelos|pelas|isso|isto|também|então|agora|depois|seu|sua|meu|minha|nosso|nossa|é|são)\b",
    re.I,
)
_ES_ONLY = _lazy(
    r"[ñ¿¡]|\b(?:el|los|las|del|al|y|con|es|pero|muy|siempre|ahora|también|hay|tú|usted|eso|esto)\b",
    re.I,
)
# where a clause opens: the text's start, punctuation, a conjunction or "please"
_CLAUSE_OPEN = _lazy(
    r"(?:[,;:.!?，；：。(]|\b(?:y|e|pero|mas|que|por\s+favor|please|porfa))$", re.I
)


# Spanish words that follow a negating "no" and never the Portuguese "no" (em + o): a clitic, an
# article or a preposition of a negated part ("no lo toques", "no en inglés"), "no hay", "no es".
NO_SPANISH_NEXT = _lazy(
    r"(?<![ \t])[ \t]+(?:(?:en|el|los|las|la|lo|le|les|me|te|se|más|muy|tan|hay|es|son)\b|\w+(?:es|as)\b)",
    re.I,
)


def no_negates(text: str, context: str | None = None) -> bool:
    """Whether a "no" in the text is a negation (Spanish, English) and not the Portuguese
    preposition "no" (em + o). context: the whole sentence the text is part of, whose words say
    its language (the text may be a clause of it)."""
    whole = context or text
    spanish = bool(_ES_ONLY.search(whole))
    portuguese = not spanish and bool(_PT_ONLY.search(whole))
    for m in NO.finditer(text):
        if NO_SPANISH_NEXT.match(text, m.end()):
            return True
        if portuguese or NO_BEFORE_PLACE.match(text, m.end()):
            continue
        before = text[max(0, m.start() - 40) : m.start()].rstrip()[-12:]  # the words just before
        if spanish or not before or _CLAUSE_OPEN.search(before):
            return True
    return False


def negated(text: str, context: str | None = None) -> bool:
    """A negation word in the text, in any of the languages read ("no" by its grammar; context:
    the sentence the text is part of)."""
    return bool(_NEGATION.search(text)) or no_negates(text, context)


# "usamos pnpm, não npm", "usa pnpm, no npm", "мы используем pnpm, а не npm", "pnpm verwenden,
# nicht npm": a "not" after the rule that only turns down the alternative (one or two words, to
# the end) does not negate the rule — read as a negated rule it became "Don't: usamos pnpm, não
# npm", the opposite of what was said. A rule that opens negated ("não use npm") is negated, and
# so is one whose verb comes last ("npm nicht verwenden", "в main не пушить"): the alternative
# turned down follows a comma or a "but"/"and", never a bare blank.
_BUT = r"(?:e|y|et|ed|und|и|а|ma|mais|mas|pero|aber|but|and)"
_TURNED_DOWN = _lazy(
    rf"(?:\s*[,，;；]\s*(?:{_BUT}\s+)?|\s+{_BUT}\s+)"
    r"(?:não|nao|no|nicht|не|pas|non|not|kein|keine|keinen)\s+[^\s,，;；.。!！?？]+"
    r"(?:\s+[^\s,，;；.。!！?？]+)?\s*[.。!！]?\s*$|"
    # Chinese: "用pnpm，不要用npm", "用pnpm，不用npm", "用pnpm而不是npm" — a tool in Latin letters
    r"(?:[，,；;]\s*|而)(?:不要|不用|别|別|不是|而不是)(?:再)?(?:用|使用)?\s*[A-Za-z][\w.@+#-]{0,40}\s*[。！!.]?\s*$",
    re.I,
)


def rule_negated(rule: str, context: str | None = None) -> bool:
    """Whether a rule is said negated (`negated`), leaving out an alternative turned down after
    it ("…, não npm": the rule is to use the first)."""
    # (only the end is looked at: a search over a long rule's every blank would be quadratic)
    cut = max(0, len(rule) - 80)
    head = rule[:cut] + _TURNED_DOWN.sub("", rule[cut:])
    return negated(head if head.strip() else rule, context)


# matched where a "no" ends, in place (not on a copy of the rest of the text per "no"); never
# from a blank after a blank, so a search is linear on a run of blanks too
BLANK_WORD = _lazy(r"(?<!\s)\s+\w")
