"""A choice the user or team made, said in another language: "vamos usar MongoDB localmente",
"não vamos usar Tailwind", "decidimos usar Postgres", "on va utiliser pnpm", "abbiamo deciso di
usare Vite", "wir haben uns für Postgres entschieden", "будем использовать pnpm", "我们决定用
Postgres", "我们采用 Vercel AI SDK 作为 agent 框架", "Postgres を使うことにしました",
"Postgres를 사용하기로 했어" — the same choices the English decision rules read ("let's use X",
"we'll use X", "we decided to use X", "we won't use X").

The grammar that makes it a choice and not a step: the speaker is "we" (or "I decided"), the
verb is a future, a resolve or a decision ("vamos usar", "usaremos", "decidimos", "будем",
"决定", "ことにした"), and what is chosen is named — a tool written in Latin letters, not a
pointer ("essa abordagem", "the same one"), not an option offered this turn ("a opção 2",
"方案A"). Only the clause that says the choice is kept, in the user's words, behind an English
label ("Decided: …", "Decided not to use: …") so its polarity reads in any language."""

from __future__ import annotations

import re

from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

Hit = tuple[str, str, str]

# A clause starts the sentence or follows a comma / semicolon; a word of joining may open it
# ("também não vamos usar X", "altere, não vamos usar X, usaremos Y").
_OPEN = (
    r"(?:^|(?<=[,，;；:：])\s*)(?:(?:também|tambem|e|mas|então|entao|ok|y|pero|entonces|también|et|"
    r"mais|alors|donc|ma|allora|quindi|und|aber|dann|also|и|но|а|ну|так что)\s*,?\s+)*"
)
# The thing chosen: a name in Latin letters (with an article before a capitalised one), or a
# masked code span — never a function word, a pointer, a "same"/"other", or an option offered.
_NOT_NAMED = (
    r"(?!(?:o|a|os|as|um|uma|el|la|los|las|un|una|le|les|l'|une|il|lo|gli|i|der|die|das|den|ein|"
    r"eine|einen|isso|isto|esse|essa|este|esta|aquilo|eso|esto|ese|esa|ça|cela|ceci|questo|questa|"
    r"quello|quella|dies|diese|diesen|dieser|mesmo|mesma|mismo|misma|même|stesso|stessa|gleiche|"
    r"outro|outra|otro|otra|autre|altro|altra|andere|anderen|mais|más|plus|più|mehr|que|qué|quoi|"
    r"cosa|was|algo|alguma|algum|nada|tudo|todo|todos|tout|tutto|alles|op[cç][aã]o|opci[oó]n|"
    r"option|opzione|variante|solu[cç][aã]o|soluci[oó]n|solution|soluzione|lösung|abordagem|"
    r"enfoque|approche|approccio|ansatz|plano|plan|piano|it|this|that|the)\b)"
)
_ARTICLE = r"(?:(?:o|a|os|as|el|la|los|las|le|les|l'|il|lo|gli|i|den|die|das|der)\s*(?-i:(?=[A-Z\ue000])))?"
_NAME = (
    _NOT_NAMED + r"(?:[A-Za-z][A-Za-z0-9@+#_.-]*[A-Za-z0-9+#]|\ue000\d+\ue001)(?![\w\u00c0-\u024f])"
)
_CHOSEN = _ARTICLE + _NAME

# Latin-script languages and Russian: "we will use / we decided to use / let's use X".
_PT = (
    r"(?:(?:nós|a gente)\s+)?(?:(?P<pt_not>n[ãa]o)\s+)?(?:vamos\s+(?:mais\s+)?(?:usar|utilizar|adotar)|"
    r"usaremos|utilizaremos|adotaremos|decidimos\s+(?:(?P<pt_not2>n[ãa]o)\s+)?(?:usar|utilizar|adotar)|"
    r"optamos\s+por(?:\s+usar)?)\s+"
)
_ES = (
    r"(?:(?:nosotros)\s+)?(?:(?P<es_not>no)\s+)?(?:vamos\s+a\s+(?:usar|utilizar|adoptar)|usaremos|"
    r"utilizaremos|usemos|decidimos\s+(?:(?P<es_not2>no)\s+)?(?:usar|utilizar|adoptar))\s+"
)
_FR = (
    r"(?:on\s+(?:va|a\s+décidé\s+d')\s*(?:utiliser|prendre|adopter|partir\s+sur)|"
    r"nous\s+(?:allons|avons\s+décidé\s+d')\s*(?:utiliser|prendre|adopter)|on\s+utilisera|"
    r"nous\s+utiliserons|utilisons|on\s+part\s+sur|"
    r"(?P<fr_not>on\s+ne\s+va\s+pas|nous\s+n'allons\s+pas)\s+utiliser)\s+"
)
_IT = (
    r"(?:(?P<it_not>non)\s+)?(?:useremo|utilizzeremo|abbiamo\s+deciso\s+di\s+(?:usare|utilizzare|"
    r"adottare)|andiamo\s+con)\s+"
)
_RU = (
    r"(?:мы\s+)?(?:(?P<ru_not>не)\s+)?(?:будем\s+использовать|давай(?:те)?\s+использовать|"
    r"решили\s+(?:(?P<ru_not2>не)\s+)?использовать|переходим\s+на|перейд[её]м\s+на)\s+"
)
_LATIN_CHOICE = _lazy(
    rf"{_OPEN}(?P<at>)(?:{_PT}|{_ES}|{_FR}|{_IT}|{_RU}){_CHOSEN}",
    re.I,
)
# German says the verb last: "wir werden pnpm verwenden", "lass uns pnpm nehmen", "wir haben
# uns für Postgres entschieden", "wir nehmen Postgres".
_DE_CHOICE = _lazy(
    rf"{_OPEN}(?P<at>)(?:(?:wir\s+(?:werden|wollen)|lass(?:t)?\s+uns)\s+{_CHOSEN}(?:\s+[^\s,;]+){{0,3}}?\s+(?P<de_not>nicht\s+)?"
    rf"(?:verwenden|benutzen|nutzen|nehmen|einsetzen)\b|"
    rf"wir\s+nehmen\s+{_CHOSEN}|"
    rf"wir\s+haben\s+uns\s+(?:(?P<de_not2>gegen)|für)\s+{_CHOSEN}\s+entschieden)",
    re.I,
)
# Chinese, Japanese, Korean: the tool in Latin letters, the resolve around it. A name is at most
# 64 characters: unbounded, every start inside a long run of Latin words was scanned to the run's
# end before を/는 failed to follow (quadratic: 24,000 characters took 20 s).
_CJK_NAME = r"(?:[A-Za-z][A-Za-z0-9@+#_.\- ]{0,62}[A-Za-z0-9+#]|\ue000\d+\ue001)"
_CJK_CHOICE = _lazy(
    # "我们决定用 Postgres", "决定改用 pnpm", "我们决定不用 Redux 了"
    rf"(?:^|[，,；;])\s*(?:我们|我們|我)?(?:已经|已經|最终|最終)?(?:决定|決定)(?P<zh_not>不再?)?"
    rf"(?:用|使用|采用|採用|改用|换成|換成)\s*{_CJK_NAME}|"
    # "我们采用 Vercel AI SDK 作为 agent 框架": adopted as the thing it is for
    rf"(?:^|[，,；;])\s*(?:我们|我們)(?:统一|統一)?(?:采用|採用|使用|选用|選用)\s*{_CJK_NAME}\s*(?:作为|作為|来做|來做|做)|"
    # "Postgres を使うことにしました", "Vite を採用することにします", "X は使わないことにした"
    rf"{_CJK_NAME}\s*(?:を|は)\s*(?:使う|使用する|採用する|導入する|(?P<ja_not>使わない|使用しない))"
    rf"ことに(?:しました|します|した|する|決めました|決定しました)|"
    # "Postgres를 사용하기로 했어", "X는 쓰지 않기로 결정했어요"
    rf"{_CJK_NAME}\s*(?:를|을|은|는)\s*(?:사용하|쓰|도입하)(?P<ko_not>지\s*않)?기로\s*(?:했|결정)",
    re.I,
)
# A choice for this one case or this moment ("neste caso, vamos usar X", "for now") is no rule.
_THIS_CASE = _lazy(
    r"\b(?:neste|nesse|en\s+este|dans\s+ce|in\s+questo|in\s+diesem)\s+(?:caso|cas|fall)\b|"
    r"\b(?:por\s+enquanto|por\s+ahora|pour\s+l'instant|pour\s+le\s+moment|per\s+ora|"
    r"per\s+il\s+momento|vorerst|fürs\s+erste|erstmal|agora|ahora|maintenant|adesso|jetzt)\b|"
    r"(?<!\w)(?:пока|сейчас|в\s+этом\s+случае)(?!\w)|这次|這次|暂时|暫時|今回|とりあえず|이번",
    re.I,
)
# (a dash between blanks ends a clause too: "usaremos Astro - atualize a doc")
# A tool taken for one step ("… Playwright para testar esse fluxo", "… curl pour vérifier"): how
# this turn's check is done, not a choice that lasts.
_FOR_A_STEP = _lazy(
    r"\b(?:para|pour|per|um|чтобы|для)\s+(?:(?:o|a|le|la|il|lo|das|den|die)\s+)?(?:testar|verificar|"
    r"checar|conferir|depurar|debugar|tentar|probar|comprobar|tester|vérifier|essayer|déboguer|"
    r"testare|verificare|provare|controllare|testen|prüfen|debuggen|проверить|протестировать|"
    r"отладить|попробовать)\b|(?:来|去)(?:测试|验证|检查|调试|试)|(?:で|を使って)(?:テスト|確認|検証|デバッグ)",
    re.I,
)
_CLAUSE_END = _lazy(r"[,，;；]|\s[-–—]\s")
# The choice goes on as a list of names ("usaremos pnpm, bunjs, vite e sass", "react, threejs
# (visualização), d3"): one name per item, an "and" before the last; an item of words ends it
# ("vamos usar X, depois escalamos").
_AND = r"(?:e|y|et|ed|und|и|and|和|与|與|及)"
# Matched right after a comma; (?<!\s) keeps a search from trying it at each blank of a run.
_LIST_ITEM = _lazy(
    rf"(?<!\s)\s*(?:{_AND}\s+)?{_NAME}(?:\s*[(（][^()（）]{{0,40}}[)）])?(?:\s+{_AND}\s+{_NAME})?\s*(?=[,，;；]|$)",
    re.I,
)
_NOT_GROUPS = ("pt_not", "pt_not2", "es_not", "es_not2", "fr_not", "it_not", "ru_not", "ru_not2",
               "de_not", "de_not2", "zh_not", "ja_not", "ko_not")  # fmt: skip


def choice(body: str) -> Hit | None:
    """("Decided: <the user's clause>" or "Decided not to use: …", "decision", "choice") for a
    choice said as one clause of `body` (a sentence that is no question), else None."""
    for pattern in (_LATIN_CHOICE, _DE_CHOICE, _CJK_CHOICE):
        m = pattern.search(body)
        if not m:
            continue
        # (the claim starts at the choice, not at an "ok," or "também" before it)
        start = m.start("at") if "at" in pattern.groupindex else m.start()
        while start < len(body) and body[start] in " ,，;；:：":
            start += 1
        end = _CLAUSE_END.search(body, m.end())
        while end and body[end.start()] in ",，":
            item = _LIST_ITEM.match(body, end.end())
            if not item:
                break
            end = _CLAUSE_END.search(body, item.end())
        negated = any(m.groupdict().get(g) for g in _NOT_GROUPS)
        if negated and end and body[end.start()] in ",，":
            # "não usaremos Next.js, usaremos Astro": what is used instead is the next clause
            instead = pattern.match(body, end.end())
            if instead and not any(instead.groupdict().get(g) for g in _NOT_GROUPS):
                end = _CLAUSE_END.search(body, instead.end())
        clause = body[start : end.start() if end else len(body)].strip()
        if _THIS_CASE.search(body[: end.start() if end else len(body)]) or _FOR_A_STEP.search(body):
            return None
        label = "Decided not to use" if negated else "Decided"
        return f"{label}: {clause}", "decision", "choice"
    return None
