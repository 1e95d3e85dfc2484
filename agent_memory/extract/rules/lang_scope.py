"""What a non-English sentence holds for: bound to the task at hand (`task_bound`: "this",
"now", "here"), said to last ("from now on", "every time": `DURABLE`, `from_now_on`), hedged
("maybe", "if": `HEDGE`) or asked (`question`). The rules read these before they keep a claim."""

from __future__ import annotations

import re

from agent_memory.extract.rules.lang_negation import rule_negated
from agent_memory.extract.rules.lang_words import (
    CJK,
    DE_IMP,
    ES_IMP,
    FR_IMP,
    IT_IMP,
    KANA,
    PT_IMP,
    RU_IMP,
    Hit,
)
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# Words that bind a sentence to the task at hand ("this", "now", "here", "above", "ask me"):
# "不要停下来问我" (don't stop to ask me), "не трогай это сейчас" (don't touch this now) are
# instructions for this turn, not standing rules. "This project" is the default scope, not deixis.
_PROJECT_SCOPE = _lazy(
    r"这个项目|這個項目|这个仓库|這個倉庫|本项目|本項目|"
    r"(?:в\s+)?(?:этом|этот)\s+(?:проекте|проект|репозитории|репо)|"
    r"(?:neste|nesse|este|esse)\s+(?:projeto|repositório|repo)|(?:en\s+)?este\s+(?:proyecto|repositorio)|"
    r"(?:dans\s+)?ce\s+(?:projet|dépôt|repo)|(?:in\s+)?questo\s+(?:progetto|repository|repo)|"
    r"(?:in\s+)?(?:diesem|dieses)\s+(?:projekt|repository|repo)",
    re.I,
)
_TASK_DEIXIS = _lazy(
    r"这个|這個|这次|這次|这里|這裡|这些|這些|那个|那個|刚才|剛才|刚刚|剛剛|上面|下面|现在|現在|暂时|暫時|目前|"
    r"问我|問我|等我|先别|先不要|これ|ここ|さっき|今回|上記|この(?!プロジェクト|リポジトリ)|"
    # Korean "this time / just now / here / this <thing>" ("이 프로젝트" is the project's scope)
    r"(?<![\uac00-\ud7af])(?:이번|방금|여기)|(?<![\uac00-\ud7af])이\s+(?!프로젝트|저장소|레포|팀)|"
    r"(?<!\w)(?:это|этот|эту|этого|эти|этим|сейчас|пока что|здесь|тут|выше|ниже|меня спрашивать)(?!\w)|"
    r"\b(?:isso|isto|esse|essa|agora|aqui|acima|ainda|eso|esto|ese|esa|ahora|aquí|arriba|todavía|"
    r"ça|cela|ceci|maintenant|ici|ci-dessus|questo|questa|quello|quella|adesso|qui|sopra|"
    r"dies|diese|diesen|dieser|jetzt|hier|oben)\b",
    re.I,
)


# "From now on" and "ever" words are the opposite of the task at hand: "从现在开始" holds 现在
# (now), "a partir de agora" holds agora, "ab jetzt" holds jetzt; they are not deixis.
_FROM_NOW = (
    r"以后|以後(?!の)|今后|今後(?![のにで])|往后|往後|从现在开始|從現在開始|从现在起|從現在起|从今以后|從今以後|"
    r"从今往后|從今往後|(?:后续|後續)(?:的话|的話)?(?=\s*(?:都|你|我们|我們))|"
    r"これからは|今度から(?:は)?|今後(?:は|も)|(?<![^\s、。，,])以降(?:は|、|,)|앞으로(?:는)?|이제부터(?:는)?|"
    r"впредь|отныне|с этого момента|"
    r"a partir de (?:agora|ahora)|de (?:agora|ahora) en adelante|de agora em diante|"
    r"daqui (?:pra|para a) frente|en adelante|désormais|dorénavant|à partir de maintenant|"
    r"à l'avenir|d'ora in poi|da ora in poi|d'ora in avanti|ab jetzt|ab sofort|von nun an|"
    r"ab heute|künftig|zukünftig|"
    r"in zukunft|mulai sekarang|mulai saat ini|mulai dari sekarang|ke depannya|untuk seterusnya"
)
_FROM_NOW_RE = _lazy(_FROM_NOW, re.I)
# Words that make a plain "don't …" a standing rule: from now on, ever, every time, all.
# (Japanese 必ず and 絶対 are not among them: they stress a request, "絶対に実行しないで", whatever
# its scope; a topic with は makes it a rule, which lang_topic reads.)
DURABLE = _lazy(
    _FROM_NOW + r"|永远|永遠|任何时候|任何時候|每次|一律|始终|始終|总是|總是|所有|全部|都不|都别|"
    r"再也|常に|いつも|毎回|二度と|항상|절대|언제나|매번|"
    r"(?<!\w)(?:всегда|никогда|каждый раз|ни в коем случае)(?!\w)|"
    r"\b(?:sempre|nunca|jamais|jamás|siempre|toujours|jamais|mai|immer|nie|niemals|cada vez|"
    r"à chaque fois|jedes mal|em nenhum caso|en ningún caso)\b",
    re.I,
)


# Chinese questions without a question mark: a final particle (before trailing figures or marks
# typed after it, "…提醒我嗎60%") or a question word.
_ZH_QUESTION = _lazy(
    r"(?:吗|嗎|呢|么|麼|嘛)[\s\d%.,，、~～]*$|如何|怎么|怎麼|怎样|怎樣|为什么|為什麼|什么|什麼|是否|会不会|會不會|"
    r"能不能|可不可以|要不要|有没有|有沒有|哪"
)


def task_bound(sentence: str) -> bool:
    return bool(_TASK_DEIXIS.search(_FROM_NOW_RE.sub(" ", _PROJECT_SCOPE.sub(" ", sentence))))


def question(sentence: str, body: str) -> bool:
    if sentence.rstrip().endswith(("?", "？")):
        return True
    if KANA.search(body):
        return bool(re.search(r"(?:か|かな|でしょうか|ますか)$", body))
    return bool(CJK.search(body) and _ZH_QUESTION.search(body))


NOW = _lazy(
    r"现在|現在|目前|当前|當前|현재|지금|(?<!\w)сейчас(?!\w)|\b(?:agora|ahora|maintenant|jetzt|adesso|ora)\b",
    re.I,
)


# "以后回复都用中文", "a partir de agora, sempre rode os testes", "ab jetzt bitte immer …": a rule
# said to hold from now on. Read from the marker (at the start of the sentence or of a clause) to
# the end of the sentence; what comes before ("这次不需要…，以后都不…") is the task at hand.
_FROM_NOW_START = _lazy(
    # (after a Japanese "、" only a marker said as the topic: "了解、今後は…"; "…、今後どのような…" asks)
    rf"(?:^|[，,；;:：]\s*|、\s*(?=今後[はも]|これからは|以降は|今度から))(?:我的意思是?|我的意思)?(?:(?:你|我们|我們|请|請|и|e|y|et|und|bitte|por favor)\s*,?\s*)?"
    rf"(?P<marker>{_FROM_NOW})(?P<rest>.*)$",
    re.I,
)
# After the marker, a rule: a modal, an imperative, "every time", "always", a negation.
# After the marker, a rule: a modal, an imperative, "every time", "always". A bare negation is
# not one in the languages of Latin and Cyrillic script: "de ahora en adelante no hay errores",
# "ab jetzt funktioniert nicht…", "впредь не было ошибок" report how things are.
RULE_AFTER = _lazy(
    r"都|要|必须|必須|请|請|不要|别|別|不|只|一律|统一|統一|默认|默認|"
    # "提交信息用英文写": a thing written in a language, the way a rule of writing is said
    r"(?:用|使用)\S{1,12}(?:写|寫|回复|回覆|回答|提交|命名)|"
    r"ください|して|しない|しないで|使って|常に|必ず|"
    r"세요|해|하지|마|줘|"
    rf"先|(?<!\w)(?:всегда|никогда|только|сначала|можешь|нужно|надо|должен|должны|не\s+{RU_IMP}|"
    r"используй\w*|пиши\w*|делай\w*|отвечай\w*|ставь\w*|запускай\w*|добавляй\w*)(?!\w)|"
    rf"\b(?:{PT_IMP}|{ES_IMP}|{FR_IMP}|{DE_IMP}|{IT_IMP})\b|"
    r"\b(?:sempre|nunca|siempre|toujours|jamais|immer|nie|niemals|kein|keine|keinen|mai|bitte|"
    r"quiero|quero|voglio|möchte|will|solo|só|seulement|nur|utiliza|responde|escribe|escreva|"
    r"debe|deben|deve|devem|doit|doivent|muss|müssen|tienes que|tem que|il faut)\b|je veux|"
    r"je voudrais|хочу|"
    r"\b(?:gunakan|pakai|pake|jangan|selalu|harus|tolong|jawab|balas|tulis|jalankan|buat)\b|"
    r"(?:me\s+)?(?:hables|fales|respondas|escribas|escrevas)\b",
    re.I,
)


# "以后我可能需要…", "以后如果…": a maybe or a condition about the future, not a rule.
HEDGE = _lazy(
    r"可能|也许|也許|或许|或許|如果|要是|假如|(?<!后续)(?<!後續)的话|(?<!后续)(?<!後續)的話|かもしれ|もし|만약|"
    r"(?<!\w)(?:может быть|возможно|если)(?!\w)|\b(?:talvez|quizás|tal vez|peut-être|vielleicht|"
    r"forse|si|wenn|falls)\b",
    re.I,
)


# What makes a bare Japanese 今後 "later": a reason, a time or a purpose of this change follows
_JA_PLAN = _lazy(r"ので|ときに|時に|たら|ように|予定")


# Where a sentence is cut into clauses; the first of them is its head.
HEAD = _lazy(r"[,，;；]")


def from_now_on(body: str) -> Hit | None:
    m = _FROM_NOW_START.search(body)
    if not m:
        return None
    rest = m.group("rest").strip(" ,，:：")
    said = body[m.start("marker") :].strip()
    later = m.group("marker") == "今後" and not m.group("rest").startswith(("は", "も"))
    if later and KANA.search(body) and _JA_PLAN.search(m.group("rest")):
        # Japanese 今後 with no は/も is "later, in future" ("今後、値をenvに書くので…",
        # "今後APIを追加したときに…ように"): a plan or a purpose of this change; 今後は/今後も is
        # "from now on". (Traditional Chinese 今後 is "from now on" either way.)
        return None
    if len(rest) < 6 or not RULE_AFTER.search(rest) or task_bound(said) or HEDGE.search(said):
        return None
    if rule_negated(rest, said):
        return f"From now on, don't: {said}", "constraint", "from_now_on"
    return f"From now on: {said}", "preference", "from_now_on"
