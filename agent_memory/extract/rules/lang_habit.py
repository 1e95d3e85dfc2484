"""What to do every time something happens, said in another language: "每次改完代码，记得跑一遍
测试", "Toda vez que alterar o schema, rode as migrations", "Chaque fois que tu modifies l'API,
mets à jour la doc", "Jedes Mal, wenn du etwas änderst, führe die Tests aus", "Каждый раз после
изменений запускай линтер", "コミットするたびに lint を実行してください". A habit asked of the
assistant is a standing rule; the same words with a report in the main clause ("toda vez que
rodo, dá erro", "每次部署之后都会报错", "chaque fois que je lance, ça plante") are not one.

The grammar that tells them apart: the main clause opens with an imperative (or a modal of
obligation) and, where the language's imperative reads like a report (Spanish, Italian, French,
German), the clause of the occasion is said to "you" ("cada vez que hagas", "ogni volta che
modifichi", "chaque fois que tu", "wenn du")."""

from __future__ import annotations

import re

from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

# The occasion: "every time / whenever …" and its clause, up to the comma before the main clause.
# (the occasion has no third party as its subject: "toda vez que o usuário fizer login, envie um
# e-mail" specifies the product's behaviour, a task, not a habit of the assistant's)
_PT_WHEN = (
    r"^(?:toda\s+vez\s+que|sempre\s+que|cada\s+vez\s+que)\s+"
    r"(?!(?:o|a|os|as|um|uma|algu[eé]m|ele|ela|eles|elas|usuári[oa]s?|clientes?)\b)[^,;]{3,80}?,\s*"
)
# Portuguese instructions (subjunctive-imperative of "você": -ar verbs end in -e, -er/-ir in -a;
# never the present "roda", "usa", "dá" of a report).
_PT_DO = (
    r"(?:use|utilize|rode|execute|faça|crie|atualize|verifique|teste|confira|revise|adicione|"
    r"escreva|documente|registre|salve|commite|comite|rebuild|lembre-se\s+de|não\s+(?:se\s+)?\w+e|"
    r"não\s+\w+a|sempre\s+\w+e|pergunte|avise|mantenha|siga|leia|garanta|rode)\b"
)
# Spanish: the occasion said to "you" ("cada vez que hagas / cambies / termines") — the tú
# imperative "usa", "ejecuta" is also the present of a report ("cada vez que abro, usa mucha RAM").
_ES_WHEN = (
    r"^(?:cada\s+vez\s+que|siempre\s+que)\s+(?:\w+\s+){0,2}?(?!(?:las|les|más|veces|pruebas)\b)\w{2,}(?:es|as)\b"
    r"[^,;]{0,80}?,\s*"
)
_ES_DO = (
    r"(?:usa|utiliza|ejecuta|corre|haz|crea|actualiza|revisa|verifica|escribe|añade|agrega|"
    r"comprueba|pregunta|avisa|recuerda|pon|documenta|no\s+\w+(?:es|as))\b"
)
# French: the occasion said to "tu"/"vous".
_FR_WHEN = r"^(?:(?:à\s+)?chaque\s+fois\s+(?:que|qu')|toutes\s+les\s+fois\s+que)\s*(?:tu|vous)\s+[^,;]{2,80}?,\s*"
_FR_DO = (
    r"(?:utilise|utilisez|lance|lancez|exécute|exécutez|mets|mettez|fais|faites|vérifie|vérifiez|"
    r"ajoute|ajoutez|écris|écrivez|crée|créez|relance|pense\s+à|pensez\s+à|n'oublie\s+pas|"
    r"ne\s+\w+\s+(?:pas|jamais))\b"
)
# Italian: the occasion said to "tu" (2nd person in -i: "modifichi", "fai", "finisci").
_IT_WHEN = (
    r"^(?:ogni\s+volta\s+che|tutte\s+le\s+volte\s+che)\s+(?:lo\s+|la\s+|li\s+|le\s+|ne\s+|tu\s+)?"
    r"(?!(?:gli|il|lo|la|le|un|una|uno|qualcuno|utenti)\b)\w{2,}i\b[^,;]{0,80}?,\s*"
)
_IT_DO = (
    r"(?:usa|utilizza|esegui|lancia|aggiorna|controlla|verifica|scrivi|crea|aggiungi|fai|metti|"
    r"ricordati\s+di|non\s+\w+are)\b"
)
# German: the occasion said to "du"; the main clause opens with the verb (imperative).
_DE_WHEN = r"^(?:jedes\s+mal|immer)\s*,?\s*(?:wenn|nachdem|bevor)\s+du\s+[^,;]{2,80}?,\s*"
_DE_DO = (
    r"(?:führe|verwende|benutze|nutze|starte|prüfe|teste|aktualisiere|schreibe|schreib|erstelle|"
    r"füge|lass|denk\s+daran|vergiss\s+nicht|mach|mache)\b"
)
# Russian: any occasion ("каждый раз, когда …", "каждый раз после …"); the main clause opens with
# an imperative, which Russian marks ("запускай", "проверяй", "не коммить").
_RU_WHEN = (
    r"^(?:каждый\s+раз|всякий\s+раз)\s*,?\s*(?:когда|после|перед|как)\s+"
    r"(?!(?:пользовател|клиент|юзер|кто-то|кто-нибудь|посетител)\w*)[^,;]{2,80}?,?\s+"
)
_RU_DO = (
    r"(?:не\s+)?(?:запускай|проверяй|обновляй|пиши|делай|используй|добавляй|создавай|прогоняй|"
    r"коммить|сохраняй|смотри|спрашивай|сообщай|пересобирай|выполняй|удаляй|ставь|запускайте|"
    r"проверяйте|обновляйте|используйте)(?!\w)"
)
# Chinese: "每次<事>(之后/之前/时)，(你)(都)(记得/请/必须/先)<做>" — the main clause asks, by a word of
# asking or obligation ("都会报错", "都要等很久" say what happens, not what to do).
_ZH_EVERY = (
    r"^(?:以后|以後|今后|今後)?(?:你)?(?:每次|每一次|每当|每當)"
    r"(?!(?:有)?(?:用户|用戶|客户|客戶|访客|訪客|玩家|有人|别人|別人))[^，,。？?！!]{2,24}?"
    r"(?:之后|之後|以后|以後|后|後|之前|以前|前|的时候|的時候|时|時)\s*[，,]?\s*(?:你)?(?:都)?"
    r"(?:请|請|记得|記得|必须|必須|务必|務必|一定要|都要先|要先|先|需要先)\s*"
    r"(?!等|花|很|会|會|报错|報錯|失败|失敗)\S"
)
# Japanese: "…するたびに/ときは(必ず)…してください/すること".
_JA_EVERY = (
    r"^(?:今後は?|これからは)?(?!.*(?:ユーザー|お客|顧客|利用者)(?:が|は))[^。]{2,40}?"
    # 度に is "each time" only after a verb or の ("する度に", "ビルドの度に"): "制度により" is "by the system"
    r"(?:たびに|(?<=[るたうくすつぬむぐぶの])度に|ときは|時は|際は|ときには|時には)[、,]?\s*"
    r"(?:必ず|毎回|常に)?[^。]{2,60}?(?:てください|て下さい|でください|なさい|を忘れずに|[うくすつぬふむるぐぶ]こと)$"
)
# Korean: "…할 때마다 …해줘 / 해 주세요".
_KO_EVERY = r"^(?!.*(?:사용자|유저|고객)(?:가|이|는)).*?\S\s*때마다\s*\S.*(?:해\s*줘|해\s*주세요|하세요|해라|할\s*것|돌려\s*줘|실행해)$"

# "I want you to always …": the wish is for every time, so it is a standing preference — "quero
# que você sempre rode os testes", "quiero que siempre respondas en español", "je veux que tu
# utilises toujours pnpm", "voglio che tu usi sempre pnpm", "ich möchte, dass du immer Tests
# schreibst", "хочу, чтобы ты всегда писал тесты", "我希望你始终/每次…". (Not "immer noch", still.)
_WANT_ALWAYS = (
    r"(?<!\w)(?:eu\s+)?(?:quero|gostaria|queria)\s+que\s+(?:você\s+|vc\s+|tu\s+)?(?:(?!(?:ele|ela|o|a)\b)\w+\s+)?sempre\s+\w{3,}|"
    r"(?<!\w)(?:yo\s+)?(?:quiero|quisiera|me\s+gustaría)\s+que\s+(?:tú\s+)?(?:\w+\s+)?siempre\s+\w{3,}|"
    r"\bje\s+(?:veux|voudrais|souhaite)\s+que\s+(?:tu|vous)\s+(?:\w+\s+)?toujours\s+\w{3,}|"
    r"(?<!\w)(?:io\s+)?(?:voglio|vorrei)\s+che\s+(?:tu\s+)?(?:\w+\s+)?sempre\s+\w{3,}|"
    r"\bich\s+(?:möchte|will|wünsche\s+mir)\s*,?\s+dass\s+du\s+(?:\w+\s+){0,3}?immer\s+(?!noch\b)\w{3,}|"
    r"(?<!\w)(?:я\s+)?хочу\s*,?\s+чтобы\s+ты\s+(?:\w+\s+)?всегда\s+\w{3,}|"
    r"^(?:我|我们|我們)?(?:希望|想要|要)你(?:以后|以後|今后|今後)?(?:都)?(?:始终|始終|永远|永遠|总是|總是|一直)"
    r"(?!在|是|没|沒|不能|不会|不會)\S{2,}"
)

# "I don't want you to use X": a tool or a kind of thing not to use, said as a wish — "não quero
# que você use Docker", "no quiero que uses emojis", "je ne veux pas que tu utilises Redux", "non
# voglio che usi jQuery", "ich will nicht, dass du Mocks verwendest", "не хочу, чтобы ты использовал
# Redux". After an article only a name ("use o Docker"; "use a tabela antiga" is a thing of the task).
_THING = (
    r"(?:(?:o|a|os|as|el|la|los|las|le|les|l'|il|lo|gli|i|die|der|das|den)\s*(?-i:(?=[A-Z]))|"
    r"(?!(?:o|a|os|as|el|la|los|las|le|les|il|lo|gli|i|die|der|das|den|um|uma|un|une|una|ein|eine|"
    r"isso|isto|eso|esto|ça|questo|questa|dies|diese)\b))"
    r"[A-Za-z][A-Za-z0-9.+#_-]*"
)
_DONT_WANT_USE = (
    r"^(?:eu\s+)?não\s+quero\s+que\s+(?:você\s+|vc\s+|tu\s+)?(?:use|utilize|usa)\s+" + _THING + "|"
    r"^(?:yo\s+)?no\s+quiero\s+que\s+(?:tú\s+)?(?:uses|utilices)\s+" + _THING + "|"
    r"^je\s+ne\s+veux\s+(?:pas|plus)\s+que\s+(?:tu|vous)\s+(?:utilises|utilisiez)\s+" + _THING + "|"
    r"^(?:io\s+)?non\s+voglio\s+(?:più\s+)?che\s+(?:tu\s+)?(?:usi|utilizzi)\s+" + _THING + "|"
    r"^ich\s+(?:will|möchte)\s+nicht\s*,?\s+dass\s+du\s+"
    + _THING
    + r"\s+(?:verwendest|benutzt|nutzt|einsetzt)|"
    r"^(?:я\s+)?не\s+хочу\s*,?\s+чтобы\s+ты\s+(?:использовал|пользовался|применял)\w*\s+"
    r"[A-Za-z][A-Za-z0-9.+#_-]*"
)

# "Evite usar X", "évite d'utiliser X", "vermeide X", "избегай X", "避免使用X": a tool or kind of
# thing to keep away from. The thing is a name, or a bare word after "using" — not an infinitive
# ("evite mexer no header" is a step of this turn) and not a word going on in non-ASCII letters.
_BARE = r"(?![A-Za-z]+(?:ar|er|ir|are|ere|ire|re|en)\b)[A-Za-z][A-Za-z0-9.+#_-]*(?!\w)"
_NAME = r"(?-i:[A-Z0-9])[A-Za-z0-9.+#_-]*(?!\w)"
# a kind of thing said bare right after the verb: a plural noun ("evite emojis", "vermeide mocks")
_PLURAL = r"[A-Za-z][A-Za-z-]{2,}s(?!\w)"
_AVOID = (
    r"^(?:evite|evitar|evita|evitare|évite|évitez|éviter)\s+(?:"
    r"(?:usar|utilizar|usare|utilizzare|d'utiliser|di\s+usare|di\s+utilizzare)\s+"
    r"(?:(?:o|a|os|as|el|la|los|las|le|la|l'|il|lo|gli|i)\s*(?=(?-i:[A-Z])))?" + _BARE + "|"
    r"(?:(?:o|a|el|la|le|l'|il|lo)\s*)?" + _NAME + "|" + _PLURAL + ")|"
    r"^(?:vermeide|vermeidet)\s+(?:die\s+nutzung\s+von\s+|den\s+einsatz\s+von\s+)?"
    r"(?:" + _NAME + "|" + _PLURAL + ")|"
    r"^(?:избегай|избегайте)\s+(?:использования\s+)?[A-Za-z][A-Za-z0-9.+#_-]*(?!\w)|"
    r"^(?:请|請)?(?:尽量|盡量)?避免(?:使用|用)\s*[A-Za-z][A-Za-z0-9.+#_-]*(?![A-Za-z0-9])\s*$"
)

EVERY_TIME_RULES: list[tuple[re.Pattern[str], str, str, str]] = [
    (
        _lazy(
            rf"{_PT_WHEN}{_PT_DO}|{_ES_WHEN}{_ES_DO}|{_FR_WHEN}{_FR_DO}|{_IT_WHEN}{_IT_DO}|"
            rf"{_DE_WHEN}{_DE_DO}|{_RU_WHEN}{_RU_DO}|{_ZH_EVERY}|{_JA_EVERY}|{_KO_EVERY}",
            re.I,
        ),
        "Every time",
        "constraint",
        "every_time",
    ),
    (_lazy(_WANT_ALWAYS, re.I), "Always", "preference", "want_always"),
    (_lazy(_DONT_WANT_USE, re.I), "Don't", "preference", "dont_want_use"),
    (_lazy(_AVOID, re.I), "Don't", "preference", "avoid"),
]
