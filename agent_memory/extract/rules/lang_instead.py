"""One tool chosen over another, said in another language: "用 X 代替 Y", "prefiro pnpm ao npm",
"npm 대신 pnpm을 사용해 주세요" read as "Use X, not Y" (`switch`)."""

from __future__ import annotations

import re

from agent_memory.extract.rules.lang_words import TOOL, TOOL2, Hit
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# Not a tool: a pointer, an article or a pick ("prefiro isso a aquilo", "prefiero la primera").
_NOT_A_TOOL = (
    r"(?!(?:isso|isto|aquilo|esse|essa|este|esta|eso|esto|aquello|ese|esa|ça|cela|ceci|celui|"
    r"questo|questa|quello|quella|das|dies|diese|dieser|this|that|o|a|os|as|el|la|los|las|le|les|"
    r"il|lo|gli|un|una|um|uma|une|ein|eine|einen|opção|opcion|opción|option|opzione)\b)"
)
_INSTEAD: list[tuple[re.Pattern[str], str]] = [
    # "prefiro pnpm ao npm", "je préfère pnpm à npm", "ich bevorzuge pnpm statt npm": one tool
    # preferred over another, the same as "use X instead of Y".
    (
        _lazy(
            r"(?:^|\s)(?:eu\s+|yo\s+|je\s+|io\s+|ich\s+|я\s+)?(?:prefiro|prefiero|préfère|preferisco|"
            r"bevorzuge|предпочитаю)\s+(?:usar\s+|utilizar\s+|utiliser\s+|usare\s+|использовать\s+)?"
            rf"{_NOT_A_TOOL}{TOOL2}\s+(?:a|ao|à|al|en\s+lugar\s+de|en\s+vez\s+de|em\s+vez\s+de|ao\s+invés\s+de|plutôt\s+que|"
            r"invece\s+di|rispetto\s+a|statt|anstatt|gegenüber|вместо|а\s+не)\s+(?:o\s+|el\s+|le\s+|l'|"
            rf"il\s+|dem\s+)?{_NOT_A_TOOL}{TOOL2}"
            r"(?=\s*(?:[,.;!]|$)|\s+(?:para|pour|per|für|для|en|em|in|no|na|nel|dans|bei|porque|parce|perché|weil)\b)",
            re.I,
        ),
        "prefer_over",
    ),
    (
        _lazy(
            rf"(?:用|使用|改用)\s*{TOOL}\s*(?:而不是|而非|不要用|别用|別用|代替|取代)\s*{TOOL}"
        ),
        "zh_instead",
    ),
    # "还是用status（不是phase）": the contrast in brackets.
    (
        _lazy(rf"(?:用|使用|改用)\s*{TOOL}\s*[（(]\s*(?:而不是|不是|不用){TOOL}\s*[）)]"),
        "zh_instead",
    ),
    (
        _lazy(
            rf"(?:используй|используйте|ставь)\s+{TOOL}\s*,?\s*(?:вместо|а не)\s+{TOOL}", re.I
        ),
        "ru_instead",
    ),
    (
        _lazy(
            rf"\b(?:use|usa|usar|utilize)\s+{TOOL}\s*,?\s*(?:em vez de|ao invés de|no lugar de|e não)\s+"
            rf"(?:o\s+|a\s+)?{TOOL}",
            re.I,
        ),
        "pt_instead",
    ),
    (
        _lazy(
            rf"\b(?:utilise|utilisez|prends)\s+{TOOL}\s*,?\s*(?:au lieu de|plutôt que|et pas)\s+"
            rf"(?:d'|de\s+)?{TOOL}",
            re.I,
        ),
        "fr_instead",
    ),
    (
        _lazy(
            rf"\b(?:usa|usate|utilizza)\s+{TOOL}\s*,?\s*(?:invece di|al posto di|e non)\s+"
            rf"(?:usare\s+)?{TOOL}",
            re.I,
        ),
        "it_instead",
    ),
    (
        _lazy(
            rf"\b(?:usa|utiliza)\s+{TOOL}\s*,?\s*(?:en lugar de|en vez de|y no)\s+{TOOL}", re.I
        ),
        "es_instead",
    ),
    (
        _lazy(
            rf"\b(?:verwende|benutze|nutze)\s+{TOOL}\s*,?\s*(?:statt|anstatt|anstelle von|nicht)\s+"
            rf"{TOOL}",
            re.I,
        ),
        "de_instead",
    ),
    # "pnpm statt npm verwenden": the same, the verb last
    (
        _lazy(
            rf"^{TOOL}\s+(?:statt|anstatt|anstelle von)\s+{TOOL}\s+(?:verwenden|benutzen|nutzen)"
            r"(?=\s*(?:[.!,;]|$))",
            re.I,
        ),
        "de_instead",
    ),
]
# The rejected tool first: "npm 대신 pnpm을 사용해 주세요", "npmではなくpnpmを使って",
# "npmの代わりにpnpmを使ってください" — said as the whole request, not asked ("… 써도 돼?").
_INSTEAD_REJECTED_FIRST: list[tuple[re.Pattern[str], str]] = [
    (
        _lazy(
            rf"^{TOOL}\s*(?:대신(?:에)?|말고)\s*,?\s*{TOOL}\s*(?:을|를)?\s*"
            # ("…사용할 것", "…쓸 것": the written rule's ending, as in a list of conventions)
            r"(?:써|사용해|사용하세요|사용해\s*주세요|사용해\s*줘|써\s*주세요|써\s*줘|쓰자|씁시다|사용합시다|써라|"
            r"사용할\s*것|쓸\s*것)"
            r"(?=\s*(?:[.!。,]|$))"
        ),
        "ko_instead",
    ),
    (
        _lazy(
            rf"^{TOOL}\s*(?:ではなく|じゃなくて|じゃなく|でなく|の代わりに)\s*、?\s*{TOOL}\s*(?:を|で)?\s*"
            r"(?:使って|使用して)(?:ください|下さい|ほしい(?:です)?)?(?=\s*(?:[。！.!,、]|$))"
        ),
        "ja_instead",
    ),
]


# "Verwende poetry nicht mehr", "use npm e não mais o yarn": "no longer"/"no more", never a tool
# turned down ("Use poetry, not mehr" says the opposite of what was said) — dropped, not guessed.
_NO_MORE = frozenset({"mehr", "länger", "mais", "más", "plus", "più"})


def switch(sentence: str) -> Hit | None:
    """"用 X 代替 Y", "不要 Y，用 X": one tool chosen over another is "Use X, not Y"."""
    for pattern, sub in _INSTEAD:
        m = pattern.search(sentence)
        if m and m.group(1).lower() != m.group(2).lower() and m.group(2).lower() not in _NO_MORE:
            return f"Use {m.group(1)}, not {m.group(2)}", "preference", sub
    for pattern, sub in _INSTEAD_REJECTED_FIRST:
        m = pattern.search(sentence.strip())
        if m and m.group(1).lower() != m.group(2).lower():
            return f"Use {m.group(2)}, not {m.group(1)}", "preference", sub
    return None
