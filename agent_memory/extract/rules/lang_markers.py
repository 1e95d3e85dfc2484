"""The rule-table entries of the languages of Cyrillic and Latin script: Russian (never, no
longer, don't, always, remember, what the user has), the modal rules said in any of them
(where a kind of thing lives, what must always be so, what the user does not use), and the
Portuguese, Indonesian, French, Italian, Spanish and German markers. Three slices of
`languages.RULES`, kept in its order."""

from __future__ import annotations

import re

from agent_memory.extract.filters import PATH_WORD
from agent_memory.extract.rules.lang_words import (
    DE_IMP,
    ES_DO,
    ES_IMP,
    FR_IMP,
    ID_DO,
    ID_HERE,
    IT_IMP,
    OS_NAMES,
    POLITE,
    PT_IMP,
    RU_IMP,
    RU_IMP_END,
    TOOL2,
)
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

RU_RULES: list[tuple[re.Pattern[str], str, str, str]] = [
    # an imperative after "никогда не" ("никогда не пушь"), not "никогда не работало" (a report)
    (
        _lazy(
            rf"^(?:{POLITE})?никогда\s+не\s+\w+{RU_IMP_END}(?!\w)",
            re.I,
        ),
        "Never",
        "constraint",
        "ru_never",
    ),
    # "больше не используй X" (no longer): a standing change, unlike "не трогай" (this turn)
    (
        _lazy(rf"^(?:{POLITE})?больше\s+(?:никогда\s+)?не\s+{RU_IMP}(?!\w)", re.I),
        "Don't",
        "constraint",
        "ru_no_longer",
    ),
    # "no vuelvas a usar X" (never again)
    (
        _lazy(rf"^(?:{POLITE})?(?:no|nunca)\s+vuelvas\s+a\s+\w+", re.I),
        "Never",
        "constraint",
        "es_never_again",
    ),
    (
        _lazy(
            rf"^(?:{POLITE})?(?:не\s+{RU_IMP}\b|не\s+надо\s+\w+|не\s+нужно\s+\w+|нельзя\s+\w+)",
            re.I,
        ),
        "Don't",
        "constraint",
        "ru_dont",
    ),
    (
        # "всегда пиши тесты", and the imperative first: "пиши всегда тесты"
        _lazy(
            rf"^(?:{POLITE})?(?:всегда\s+\w+{RU_IMP_END}(?!\w)|{RU_IMP}\s+всегда(?!\w))", re.I
        ),
        "Always",
        "constraint",
        "ru_always",
    ),
    (
        _lazy(r"^(?:запомни|запомните|имей в виду|имейте в виду)\b[:,]?\s*\S", re.I),
        "Remember",
        "fact",
        "ru_remember",
    ),
    # "у меня сайт, а не мобилка", "у нас монорепозиторий", "у меня fish": what the user has, a
    # short fact — either set against something else or a thing of the setup. Not "у меня ошибка",
    # "у меня не работает", "у меня вопрос" (the state of the moment), nor "у меня есть агенты,
    # нужно посмотреть…" (the opening of a task).
    (
        _lazy(
            r"^(?:\w+,\s*)?у\s+(?:меня|нас)\s+(?:есть\s+)?"
            r"(?!(?:не|нет|ошибк|проблем|вопрос|иде[яи]|баг|такая|такой|такое|сейчас|опять|снова|"
            r"всё|все|что-то|ничего)(?:\w*)(?!\w))"
            r"(?:\S+(?:\s+\S+)?,?\s+а\s+не\s+\S+|"
            r"(?:мак\w*|линукс\w*|винд\w*|убунту|монорепо\w*|репозитори\w*|сайт\w*|приложени\w*|бот\w*|"
            rf"сервер\w*|кластер\w*|{OS_NAMES}|(?![A-Za-z]*(?:Error|Exception|error)\b){TOOL2}))"
            r"(?!.*(?<!\w)(?:нужно|надо|посмотри|сделай|помоги|проверь|почини|не работает|ошибк\w*)(?!\w))"
            r"(?=.{0,60}$)",
            re.I,
        ),
        "",
        "fact",
        "ru_i_have",
    ),
]


ANY_LANGUAGE_RULES: list[tuple[re.Pattern[str], str, str, str]] = [
    # Where a kind of thing must live, with a path: "i piani devono stare tutti in plans/todo",
    # "测试文件都放在 tests/unit", "hooks のテストはすべて test/hooks/ 配下にして".
    (
        _lazy(
            rf"\b(?:deve|devono)\s+(?:stare|essere|andare|finire)\s+(?:tutt[ie]\s+|sempre\s+)?"
            rf"(?:in|dentro|nella|nel|sotto)\s+{PATH_WORD}|"
            rf"\b(?:debe|deben)\s+(?:estar|ir|quedar)\s+(?:todos\s+|siempre\s+)?(?:en|dentro de|bajo)\s+"
            rf"{PATH_WORD}|"
            rf"\b(?:deve|devem)\s+(?:ficar|estar|ir)\s+(?:todos\s+|sempre\s+)?(?:em|no|na|dentro de)\s+"
            rf"{PATH_WORD}|"
            rf"\b(?:doit|doivent)\s+(?:être|aller|rester)\s+(?:tous\s+|toujours\s+)?(?:dans|sous)\s+{PATH_WORD}|"
            rf"\b(?:muss|müssen|gehört|gehören)\s+(?:immer\s+|alle\s+)?(?:in|nach|unter)\s+{PATH_WORD}|"
            rf"(?<!\w)(?:должен|должна|должно|должны)\s+(?:лежать|быть|находиться|храниться)\s+"
            rf"(?:всегда\s+)?в\s+{PATH_WORD}|"
            rf"(?:都|必须|必須|一律|统一|統一|应该|應該)(?:要)?(?:放在|放到|存在|存放在|保存在|位于|位於)\s*{PATH_WORD}|"
            rf"(?:すべて|全て|全部|常に|必ず)[、,]?\s*{PATH_WORD}\s*(?:配下|の中|以下)?に(?:して|置いて|配置して|入れて)",
            re.I,
        ),
        "Location",
        "constraint",
        "lives_in",
    ),
    # What must always be so, a modal with "always" anywhere in the sentence: "tabelle e bullet
    # point … devono sempre chiudere il task", "нужно всегда смотреть в интернете", "o deploy deve
    # sempre passar pelo CI" (not "muss immer noch", still; not "doit toujours pas", still not).
    (
        _lazy(
            r"(?<!\w)(?:devono|deve|dobbiamo|debe|deben|debemos|devem|devemos|precisa|precisam|"
            r"tem que|temos que|hay que|tienes que|il faut|doit|doivent|muss|müssen|soll|sollen)\s+"
            # (the modal right before "always": in "deshalb muss es sich immer … anpassen" the "es"
            # is a thing of the task, its requirement)
            r"(?:sempre|siempre|toujours|immer)\s+"
            r"(?!(?:noch|pas|plus|mehr)(?!\w))\w{3,}|"
            r"(?<!\w)(?:должен|должна|должно|должны|нужно|надо)\s+всегда\s+\w{3,}",
            re.I,
        ),
        "Always",
        "preference",
        "must_always",
    ),
    # "non uso elevenlabs", "no uso Docker", "я не использую Redux", "我不用 Docker":
    # what the user does not use, said of themselves.
    (
        _lazy(
            rf"^(?:io\s+|yo\s+|eu\s+)?(?:non|no|não)\s+(?:uso|utilizzo|utilizo)\s+(?:(?:il|el|o|la|a)\s+(?-i:(?=[A-Z])))?"
            rf"(?!(?:il|el|o|la|a|lo|los|las|os|as|un|una|um|uma|mai|más|mais|più)\b){TOOL2}|"
            rf"^(?:я|мы)\s+не\s+(?:использую|используем|пользуюсь|пользуемся)\s+{TOOL2}|"
            rf"^(?:我|我们|我們)(?:从来|從來|平时|平時)?(?:不用|不使用|没用|沒用)\s*{TOOL2}|"
            r"(?:^|[，,])\s*(?:我|我们|我們)?(?:从来|從來)(?:没有|沒有|没|沒)(?:使用|用)过|"
            rf"^(?:ich|wir)\s+(?:benutze|nutze|verwende|benutzen|nutzen|verwenden)\s+(?:kein(?:e|en)?\s+)?"
            rf"{TOOL2}\s+nicht\b|^je\s+n'utilise\s+(?:pas|jamais)\s+{TOOL2}",
            re.I,
        ),
        "Does not use",
        "fact",
        "i_dont_use",
    ),
]


LATIN_RULES: list[tuple[re.Pattern[str], str, str, str]] = [
    (_lazy(rf"^(?:{POLITE})?nunca\s+{PT_IMP}\b", re.I), "Never", "constraint", "pt_never"),
    # Indonesian: "jangan pernah pakai emoji" (never), "selalu gunakan pnpm" (always); not about the
    # thing at hand ("… file ini", "… itu", "di sini", "tadi")
    (
        _lazy(
            rf"^(?:tolong\s+)?{ID_HERE}(?:jangan\s+pernah|jangan\s+sekali-kali)\s+{ID_DO}\s+\w{{3,}}",
            re.I,
        ),
        "Never",
        "constraint",
        "id_never",
    ),
    (
        _lazy(rf"^(?:tolong\s+)?{ID_HERE}selalu\s+{ID_DO}\s+\S", re.I),
        "Always",
        "constraint",
        "id_always",
    ),
    (_lazy(rf"^(?:{POLITE})?não\s+{PT_IMP}\b", re.I), "Don't", "constraint", "pt_dont"),
    (
        # "sempre rode os testes", and the verb first: "use sempre pnpm"
        # ("sempre commit mesmo pequenos progressos": the English verb, said in Portuguese)
        _lazy(
            rf"^(?:{POLITE})?(?:sempre\s+(?:{PT_IMP}|commit|comit)|{PT_IMP}\s+sempre)\b", re.I
        ),
        "Always",
        "constraint",
        "pt_always",
    ),
    (
        _lazy(r"^(?:lembre-se|lembre|lembra|não esqueça|n[ãa]o se esque[çc]a)\b", re.I),
        "Remember",
        "fact",
        "pt_remember",
    ),
    (
        _lazy(
            rf"^(?:{POLITE})?(?:ne\s+(?:jamais\s+)?|n'){FR_IMP}\s+(?:\S+\s+){{0,2}}?(?:pas|jamais)\b",
            re.I,
        ),
        "Don't",
        "constraint",
        "fr_dont",
    ),
    (
        # an instruction after "jamais", not "jamais compris pourquoi" (a report)
        _lazy(rf"^(?:{POLITE})?(?:ne\s+{FR_IMP}\s+jamais|jamais\s+{FR_IMP})\b", re.I),
        "Never",
        "constraint",
        "fr_never",
    ),
    (
        # "toujours pas de réponse" (still no answer) is no rule: an imperative must follow
        _lazy(
            rf"^(?:{POLITE})?toujours\s+{FR_IMP}\b|^(?:{POLITE})?{FR_IMP}\s+toujours\b", re.I
        ),
        "Always",
        "constraint",
        "fr_always",
    ),
    (
        _lazy(r"^(?:souviens-toi|souvenez-vous|rappelle-toi|retiens|n'oublie pas)\b", re.I),
        "Remember",
        "fact",
        "fr_remember",
    ),
    (
        _lazy(
            rf"^(?:{POLITE})?non\s+{IT_IMP}\s+mai\b|^(?:{POLITE})?mai\s+{IT_IMP}\b", re.I
        ),
        "Never",
        "constraint",
        "it_never",
    ),
    (_lazy(rf"^(?:{POLITE})?non\s+{IT_IMP}\b", re.I), "Don't", "constraint", "it_dont"),
    (
        _lazy(
            rf"^(?:{POLITE})?(?:usa|fai|scrivi|metti)\s+sempre\b|^(?:{POLITE})?sempre\s+{IT_IMP}\b|"
            # the object first, the imperative with its pronoun: "X lascialo sempre nella root"
            r"^\S+(?:\s+\S+)?\s+(?:lascia|tieni|metti|usa|mantieni|esegui|aggiorna|scrivi)"
            r"(?:lo|la|li|le)\s+sempre\b",
            re.I,
        ),
        "Always",
        "constraint",
        "it_always",
    ),
    (
        _lazy(r"^(?:ricorda|ricordati|tieni a mente)\b", re.I),
        "Remember",
        "fact",
        "it_remember",
    ),
    # "siempre usa pnpm", "responde siempre en español", "siempre ejecutar los tests"
    (
        _lazy(
            rf"^(?:{POLITE})?(?:siempre\s+{ES_DO}|{ES_DO}\s+siempre)\b",
            re.I,
        ),
        "Always",
        "constraint",
        "es_always",
    ),
    (_lazy(rf"^(?:{POLITE})?no\s+{ES_IMP}\b", re.I), "Don't", "constraint", "es_dont"),
    (
        _lazy(rf"^(?:{POLITE})?(?:nunca|jamás)\s+{ES_IMP}\b", re.I),
        "Never",
        "constraint",
        "es_never",
    ),
    (
        _lazy(r"^(?:recuerda|recuérdalo|ten en cuenta)\b", re.I),
        "Remember",
        "fact",
        "es_remember",
    ),
    (
        _lazy(
            rf"^(?:{POLITE})?(?:niemals|nie)\s+(?:wieder\s+)?{DE_IMP}\b|"
            rf"^(?:{POLITE})?{DE_IMP}\s+(?:\S+\s+){{0,3}}?(?:niemals|nie|nicht)\b",
            re.I,
        ),
        "Don't",
        "constraint",
        "de_dont",
    ),
    (
        # "immer noch der gleiche Fehler" (still the same error) is no rule
        _lazy(rf"^(?:{POLITE})?immer\s+{DE_IMP}\b|^(?:{POLITE})?{DE_IMP}\s+immer\b", re.I),
        "Always",
        "constraint",
        "de_always",
    ),
    (
        _lazy(r"^(?:merk dir|merke dir|denk daran|vergiss nicht)\b", re.I),
        "Remember",
        "fact",
        "de_remember",
    ),
]
