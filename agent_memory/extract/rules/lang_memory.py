"""Keeping something in memory, said in another language: what a "remember …" holds (a rule or
a fact, a step of this work, the situation at hand), and a message that asks for a rule to be
written to memory or CLAUDE.md ("…，写到Claude.md中", "Anote no CLAUDE.md que …") read for the
rule it asks to keep (`memory_request`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from agent_memory.extract.rules.lang_negation import (
    BLANK_WORD,
    NO,
    no_negates,
    rule_negated,
)
from agent_memory.extract.rules.lang_scope import HEAD, RULE_AFTER, task_bound
from agent_memory.extract.rules.lang_words import CJK, RU_IMP_END, Hit
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# What makes a remembered thing a rule rather than a fact: a modal, an imperative, a ban
# ("надо запускать через make", "коммиты пиши на английском", "英語で書いてください").
_REMEMBERED_RULE = _lazy(
    # (Korean "…하면 안 된다" / "…말아야 한다": must not; a function: RULE_AFTER's text is read
    # only when this compiles, so neither compiles at import)
    lambda: RULE_AFTER.pattern + r"|면\s*안\s*(?:된다|돼|됩니다)|말아야|"
    rf"(?<!\w)(?:нельзя|не\s+\w+{RU_IMP_END})(?!\w)|\b(?:não|non|ne|nicht)\s+\w+",
    re.I,
)


def remembered_rule(what: str, context: str) -> bool:
    """A remembered thing said as a rule: a modal, an imperative, a ban ("no" + a word only where
    it negates: "lembre que o deploy fica no Render" is a fact)."""
    if _REMEMBERED_RULE.search(what):
        return True
    followed = any(BLANK_WORD.match(what, m.end()) for m in NO.finditer(what))
    return followed and no_negates(what, context)


# A remembered fact said in the first person ("我们的服务器在阿里云上", "мы деплоим через docker").
REMEMBERED_FACT = _lazy(
    r"^(?:我们|我們|我的|我|私は|私の|僕|うちは|(?:мы|я|у нас|у меня|eu|nós|yo|nosotros|wir|ich|nous|je|noi|io)(?!\w))"
    r"(?!.*(?:要|必须|必須|不要|别|別|нужно|надо|должн|devo|debo|muss|dois|devi))",
    re.I,
)


JA_REMEMBER_TAIL = _lazy(r"(?:ことを|ことは|と|を)覚えて(?:おいて|て)(?:ください|ね)?$")
# Korean says the asking last as well: "…안 된다는 점을 메모리에 기억해", "…을 메모리에 저장해 줘".
KO_REMEMBER_TAIL = _lazy(
    r"(?:(?<=[다라])는\s*(?:점|것|사실|내용)(?:을|를)|\s*(?:을|를))\s*(?:꼭\s*)?"
    r"(?:메모리에\s*|기억에\s*)?(?:꼭\s*)?(?:기억|저장)해(?:\s*줘|\s*주세요|\s*둬|\s*두세요)?$"
)
JA_NOT_DOING = _lazy(r"(?:しない|しません|使わない|使いません|禁止)$")


# "…，写到Claude.md中", "сохрани это в постоянную память": the user asks for the rest of the
# sentence to be kept. The rule is the other clauses, with the asking (and "记住") taken out.
_SAVE_TO_MEMORY = _lazy(
    r"(?:写到|写入|寫入|写进|寫進|更新到|加到|加入|记录到|記錄到|记到|記到|记进|記進|存到|存入|保存到)\s*(?:你的)?\s*(?:全局|项目|項目)?\s*"
    r"(?:claude\.md|全局\s*md|md\s*文件|记忆|記憶|memory)(?:中|里|裡|文件)?|"
    r"(?<!\w)(?:сохран\w*|запиш\w*|добав\w*)\s+(?:это\s+)?(?:себе\s+)?в\s+"
    r"(?:постоянную\s+|долгосрочную\s+)?(?:память|claude\.md)|"
    r"\b(?:guarda|guarde|guárdalo|salva|salve|speichere|enregistre)\b[^,，]{0,20}?\b(?:memoria|memória|"
    r"gedächtnis|mémoire|claude\.md)\b|"
    # the asking said last, as its own clause: "…，把这一条规则记住", "…，记住这条"
    r"(?<=[，,])\s*(?:请|請)?(?:把|将|將)?(?:这|這)(?:一)?(?:条|條)(?:规则|規則)?(?:记住|記住|记下来|記下來)$|"
    r"(?<=[，,])\s*(?:请|請)?(?:记住|記住)(?:这|這)(?:一)?(?:条|條)(?:规则|規則)?$",
    re.I,
)
# What follows the asking to keep ("…加入记忆中 wsl下直接用 mv", "сохрани в память, что …") is the
# rule, unless it is the reason or the next step ("记录到记忆，方便其他对话理解", "…, потом …").
_SAVE_REASON = _lazy(
    r"^(?:方便|以便|便于|便於|这样|這樣|让|讓|以免|免得|下次|然后|然後|并|並|再|我(?:在|开|開|去)|"
    r"потом|затем|чтобы|и\s+(?:потом|дальше)|depois|para\s+que|luego|pour\s+que|puis|poi|dann)",
    re.I,
)
# What sets the rule said after the asking apart from it: a space or a colon, or "that" ("сохрани
# в память, что …"); after a bare comma the sentence goes on about the task ("更新到项目md文件，
# 尽量…" is how to write it, "写入记忆的颗粒度" a noun phrase).
_SAVE_GAP = _lazy(
    r"\s*[,，]?\s+(?:что|que|that|dass|che)\s+|\s+|\s*[：:]\s*|\s*[,，]\s*(?:что|que|that|dass|che)\s+",
    re.I,
)
# Asking first for a rule to be added, the rule after it: "md中再加一个规则，涉及到输出文件…",
# "把以下信息添加在md文件中：…", "добавь в CLAUDE.md правило: …", "CLAUDE.md에 추가해줘: …".
ADD_RULE_FIRST = _lazy(
    r"^(?:请|請)?(?:再)?(?:在|往)?[^，,：:。]{0,6}?(?:claude\.md|全局\s*md|md\s*文件|md|记忆|記憶)\s*"
    r"(?:中|里|裡)?\s*(?:再)?(?:加|添加|加上|增加|写上|寫上|加入|写入|寫入)(?:一个|一個|一条|一條)(?:新的)?"
    r"(?:规则|規則)[:：，,\s]*|"
    r"^(?:请|請)?把(?:以下|下面)(?:的)?(?:信息|内容|內容|规则|規則)?(?:添加|加|写|寫|加入|写入|寫入|记录|記錄)"
    r"(?:在|到|进|進)(?:全局)?\s*(?:claude\.md|md\s*文件|md|记忆|記憶)\s*(?:中|里|裡)?[:：，,\s]+|"
    r"^(?:добавь|запиши|пропиши|внеси)\s+в\s+(?:claude\.md|память|правила|инструкции)\s*"
    r"(?:правило|инструкцию)?\s*[:,]\s*(?:что\s+)?",
    re.I,
)
# Japanese and Korean say the memory file first and the asking last, the rule between:
# "CLAUDE.md に「コミットは英語で」と追記して", "AGENTS.md に X というルールを追加してください",
# "CLAUDE.md에 커밋은 영어로 쓰라고 추가해줘".
_SAVE_AROUND = _lazy(
    r"(?:claude\.md|agents\.md|gemini\.md|メモリー?|記憶|グローバルルール)\s*(?:ファイル)?に[、,]?\s*"
    r"(?P<ja>[^。]{4,80}?)(?:という|との|って|と)(?:ルール|こと|方針|内容|指示)?を?\s*"
    r"(?:設置|追加|追記|記載|記述|書い|書き込ん|書き込み|設定|入れ|保存|記録)|"
    r"(?:claude\.md|agents\.md|메모리|기억)에\s*(?P<ko>[^.。]{4,80}?(?:라고|이라고|다고|라는|는))\s*"
    r"(?:규칙을\s*)?(?:추가|작성|적어|기록|저장|넣어)",
    re.I,
)
SAVE_FIRST = _lazy(
    r"^(?:请|請)?(?:修改|更新|改一下|改|在)\s*(?:全局|项目|項目)?\s*(?:的)?\s*claude\.md\s*(?:中|里|裡|文件)?"
    r"\s*(?:加上|添加|写上|寫上|加入|写入|寫入)?[:：，,\s]*",
    re.I,
)
# "Modifie le claude.md pour utiliser trash au lieu de rm -rf", "ajoute à la mémoire de ce projet
# pour lui dire que…", "adicione na memória que…", "aggiungi al CLAUDE.md che…": the same asking
# first, in the languages of Latin script; what follows "to tell it (that)" is the rule itself.
SAVE_FIRST_LATIN = _lazy(
    r"^(?:modifie|mets à jour|ajoute|écris|note|adicione|adiciona|atualize|atualiza|coloque|coloca|"
    r"escreva|anote|añade|agrega|actualiza|escribe|anota|aggiungi|aggiorna|scrivi|modifica)\s+"
    r"(?:(?:à|a|dans|no|na|ao|en|nel|nella|al|alla)\s+)?(?:(?:le|la|l'|o|a|el|il)\s*)?"
    r"(?:claude\.md|m[ée]moire|memória|memoria)(?:\s+(?:de|do|da|di|del)\s+claude)?"
    r"(?:\s+(?:de\s+ce|du|deste|do|de\s+este|del|di\s+questo|del)\s+(?:projet|projeto|proyecto|progetto))?"
    r"\s*(?:(?P<tell>(?:pour|para|per)\s+(?:lui\s+|le\s+)?(?:dire|dizer|decir|dirgli|dire)\s*(?:que|qu'|che)?)|"
    r"pour|para|per|:|,)?\s*(?:que\s+|qu'|che\s+)?",
    re.I,
)
# Not a rule to keep: an item of a longer message ("2. …"), a task for now ("你学习一下…总结").
_MEMORY_NOT_A_RULE = _lazy(r"^\s*\d{1,2}[.)、]|一下|帮我|幫我|总结|總結|把(?:以上|上面|这|這)")
_MEMORY_FILLER = _lazy(r"^(?:记住|記住|记得|記得|запомни(?:те)?|и|e|y|und|et)?$", re.I)


# More ways to ask first, the rule after "that" or a colon: "Anote no CLAUDE.md que usamos X",
# "Mémorise que …", "Speichere in deinem Gedächtnis, dass …", "Schreib in die CLAUDE.md, dass …";
# Japanese and Korean naming the memory first and the rule after a colon ("メモリに保存して：…",
# "메모리에 저장해줘: …"). A note verb needs its target ("Note que o build falhou" is "notice").
SAVE_THAT = _lazy(
    r"^(?:(?:anote|anota|guarde|guarda|salve|salva|registre|registra|note|notez|speichere|speicher|"
    r"schreib|schreibe|notiere|trag|trage)\s+(?:(?:na|no|en|dans|in|nella|nel|ao|al|à|a|im)\s+)?"
    r"(?:(?:la|le|l'|o|a|el|il|die|das|den|deine|dein|deinem|deiner|ta|sua|tua)\s*)?"
    r"(?:claude\.md|memória|memoria|mémoire|gedächtnis|speicher)(?:\s+ein)?|"
    r"(?:mémorise|mémorisez|memorizza|memorize|memoriza)|"
    # "Notiere dir, dass …" (note for yourself): German names the one who keeps it, no file
    r"(?:notiere|notier|speichere|speicher)\s+dir)\s*,?\s*(?:que|qu'|che|dass)\s*(?=\S)|"
    r"^(?:notiere|notier|speichere|speicher)\s+dir(?:\s+(?:das|dies|folgendes))?\s*[:：]\s*(?=\S)|"
    r"^(?:claude\.md|agents\.md|メモリー?|記憶|메모리|기억)\s*(?:に|에)\s*"
    r"(?:保存|追記|追加|記録|書いて|저장|추가|기록)[^:：。]{0,12}[:：]\s*",
    re.I,
)


def _told_after(body: str, asked: re.Match[str]) -> Hit | None:
    """"Anote no CLAUDE.md que …", "加一个规则：…": the asking names what follows as the rule."""
    return _kept_after(body[asked.end() :], told=True)


def _after_latin_asking(body: str, asked: re.Match[str]) -> Hit | None:
    """"ajoute dans le CLAUDE.md que …", "… pour lui dire que …": what follows "that" or "to
    tell it" is told as the thing to keep; otherwise it must read as a rule."""
    that_said = re.search(r"(?:\bque|\bqu'|\bche)\s*$", body[: asked.end()], re.I)
    return _kept_after(body[asked.end() :], told=bool(asked.group("tell") or that_said))


def _rule_between(body: str, asked: re.Match[str]) -> Hit | None:
    """"CLAUDE.md に「…」と追記して": Japanese and Korean say the rule between file and asking."""
    rule = (asked.group("ja") or asked.group("ko")).strip(" 「」『』\"'")
    return None if task_bound(rule) or len(rule) < 4 else _kept_rule(rule)


def _rule_after_file(body: str, asked: re.Match[str]) -> Hit | None:
    """"修改CLAUDE.md：…": the rule follows, up to a clause about this turn."""
    after = [c.strip() for c in HEAD.split(body[asked.end() :]) if c.strip()]
    rules: list[str] = []
    for clause in after:
        if task_bound(clause):
            break
        rules.append(clause)
    rule = "，".join(rules)
    reads_as_rule = len(rule) >= 6 and RULE_AFTER.search(rule)
    if rules and reads_as_rule and not _MEMORY_NOT_A_RULE.search(rule):
        return _kept_rule(rule)
    return None


def _rule_around_save(body: str, asked: re.Match[str]) -> Hit | None:
    """"X，写到Claude.md中" or "加入记忆中 X": the rule said before the asking, or after it when
    what follows is not a reason or the next step."""
    gap = _SAVE_GAP.match(body, asked.end())
    said_after = body[gap.end() :].strip() if gap else ""
    if len(said_after) >= 6 and not _SAVE_REASON.match(said_after):
        # "帮这段问题加入记忆中 wsl情况下直接操作windows": the rule is said after the asking
        return _kept_after(said_after, told=True)
    # What is to be kept comes before the asking ("X，写到Claude.md中"); what follows it is the
    # reason or the next step ("记录到记忆，方便其他对话理解").
    before = body[: asked.start()]
    kept = [c.strip() for c in HEAD.split(before) if c.strip() and not _SAVE_TO_MEMORY.search(c)]
    kept = [c for c in kept if not _MEMORY_FILLER.match(c)]
    if not kept or _MEMORY_NOT_A_RULE.search(before) or not RULE_AFTER.search(before):
        return None
    kept = [re.sub(r"^(?:记得|記得)", "", REMEMBER_WORD.sub("", c, count=1)).strip() for c in kept]
    rule = ("，" if CJK.search(body) else ", ").join(c for c in kept if c)
    if len(rule) < 6 or task_bound(rule):
        return None  # "把这个规则写入全局md": what the rule is was said in another turn
    return _kept_rule(rule)


# The shapes of asking to keep a rule, in the order they are tried: how each finds its asking
# (its pattern, matched at the start or searched for), and how it reads the rule from the
# message once found. The first that finds one decides. (The patterns, not their bound methods:
# taking `.match` here would compile each at import.)
_ASKINGS: tuple[tuple[re.Pattern[str], bool, Callable[[str, re.Match[str]], Hit | None]], ...] = (
    (SAVE_THAT, True, _told_after),
    (SAVE_FIRST_LATIN, True, _after_latin_asking),
    (ADD_RULE_FIRST, True, _told_after),  # the asking names the rule as one ("加一个规则")
    (_SAVE_AROUND, False, _rule_between),
    (SAVE_FIRST, True, _rule_after_file),
    (_SAVE_TO_MEMORY, False, _rule_around_save),
)


def memory_request(body: str) -> Hit | None:
    """The rule a message asks to keep in memory, read by the first shape of asking it has."""
    for pattern, at_start, read in _ASKINGS:
        asked = pattern.match(body) if at_start else pattern.search(body)
        if asked:
            return read(body, asked)
    return None


# A clause that opens a new point ("另外…", "还有…"): the rule to keep ended before it.
_NEW_POINT = _lazy(r"^(?:另外|此外|还有|還有|然后|然後|顺便|順便)")


def _kept_after(rest: str, told: bool) -> Hit | None:
    """The rule said after a Latin-script asking to keep it, up to a clause about this turn."""
    rules: list[str] = []
    for clause in HEAD.split(rest):
        if task_bound(clause) or (rules and _NEW_POINT.match(clause.strip())):
            break
        rules.append(clause.strip())
    rule = ("，" if CJK.search(rest) else ", ").join(r for r in rules if r)
    if len(rule) < 6 or _MEMORY_NOT_A_RULE.search(rule) or not (told or RULE_AFTER.search(rule)):
        return None
    return _kept_rule(rule)


def _kept_rule(rule: str) -> Hit:
    """A rule the user asks to keep; a negated one says so in English too ("不要用npm，写到
    CLAUDE.md" is Don't: 不要用npm)."""
    if rule_negated(rule):
        return f"Don't: {rule}", "preference", "memory_request"
    return f"Remember: {rule}", "preference", "memory_request"


# "Remember to <verb>" in the languages of Latin script: the marker, then "de"/"di" and a verb.
REMIND_TO = _lazy(
    r"^(?:lembre(?:-se)?|lembra(?:-se)?|n[ãa]o\s+(?:se\s+)?esque[çc]a|recuerda|acuérdate|"
    r"no\s+olvides|n'oublie\s+pas|rappelle-toi|souviens-toi|ricorda(?:ti)?|non\s+dimenticare)"
    r"[\s,]+(?:de|di|d')(?:\s+|(?<=d'))(?!(?:que|che)\b)",
    re.I,
)
# Words that make a recalled step a habit: every time, always, before each commit, from now on.
HABIT_LATIN = _lazy(
    r"\b(?:sempre|siempre|toujours|nunca|jamais|jamás|mai|cada|chaque|ogni|toda\s+vez|todas\s+as\s+vezes|"
    r"todo\s+commit|antes\s+de|avant\s+de|prima\s+di|depois\s+de|después\s+de|après|dopo|"
    r"a\s+partir\s+de\s+agora|de\s+agora\s+em\s+diante|de\s+ahora\s+en\s+adelante|désormais|"
    r"d'ora\s+in\s+poi|no\s+futuro|en\s+el\s+futuro|à\s+l'avenir|in\s+futuro)\b",
    re.I,
)
# What is recalled is the situation of this work: what we need to do now ("precisamos fazer um
# clean install"), the problem at hand ("o pior problema é …"), what was said or done earlier in
# this conversation ("do que eu disse", "eu concordei com a edição anterior").
SITUATION_KEPT = _lazy(
    r"^(?:(?:que|do\s+que|lo\s+que|ce\s+que|quello\s+che)\s+)?(?:"
    r"precisamos|temos\s+(?:que|de)|necesitamos|tenemos\s+que|nous\s+devons|dobbiamo|"
    r"(?:o|a|el|la|le|il)\s+(?:(?:pior|maior|principal|peor|mayor|pire|plus\s+grand|peggior[ei]|"
    r"grande)\s+)?(?:problema|problème|erro|error|erreur|errore|bug)\s+(?:é|es|est|è)\b|"
    r"(?:eu\s+|yo\s+|je\s+|io\s+)?(?:disse|falei|expliquei|dije|expliqué|ai\s+dit|ho\s+detto)\b|"
    r"eu\s+\w+ei\b|"
    r".*\b(?:anterior|précédente?|precedente)\b)",
    re.I,
)
REMEMBER_WORD = _lazy(
    r"^(?:请|請)?(?:记住|記住|记得|記得|запомни(?:те)?|имей(?:те)? в виду|lembre-se|lembre|lembra|"
    r"não esqueça|n[ãa]o se esque[çc]a|souviens-toi|souvenez-vous|rappelle-toi|retiens|n'oublie pas|ricorda(?:ti)?|"
    r"tieni a mente|recuerda|recuérdalo|ten en cuenta|merke? dir|denk daran|vergiss nicht|"
    r"(?:꼭\s*)?기억해(?:\s*줘|\s*주세요|\s*둬|\s*두세요)?|(?:これを)?覚えて(?:おいて|て)?(?:ください|ね)?)"
    r"(?:[\s,，]+(?:que|che|dass|что|de|di)(?!\w))?[\s:：,，-]*",
    re.I,
)
