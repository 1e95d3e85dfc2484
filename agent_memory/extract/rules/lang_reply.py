"""The language to talk or write in, said in another language: the rule-table entries for the
language of the replies and of comments, commit messages and names ("用中文回答", "коммиты пиши на
английском"), and the clause that asks for the reply language whatever the rest of the sentence
asks ("…，回复必须是中文")."""

from __future__ import annotations

import re

from agent_memory.extract.rules.lang_scope import HEAD
from agent_memory.extract.rules.lang_words import ARTIFACT, IN_LANG, Hit
from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

REPLY_LANGUAGE_RULES: list[tuple[re.Pattern[str], str, str, str]] = [
    # The language to be answered in: "用中文回答", "отвечай на русском", "responde en español".
    (
        _lazy(
            r"^(?:(?:请|請)?(?:一律|总是|總是|始终|始終)?(?:用|使用)(?:中文|汉语|漢語|简体中文|繁體中文|繁体中文|日文|英文)"
            r"(?:回答|回复|回覆|答复|交流|对话|對話))|"
            r"^(?:всегда\s+)?(?:отвечай|отвечайте|пиши|пишите)\s+(?:мне\s+)?(?:только\s+)?"
            r"(?:на|по-)\s*(?:русском|русски|английском|украинском)|"
            r"^(?:siempre\s+)?(?:responde|respóndeme|contesta)\s+(?:siempre\s+)?en\s+(?:español|inglés)|"
            r"^(?:sempre\s+)?(?:responda|responde|fale)\s+(?:sempre\s+)?em\s+(?:português|inglês)|"
            r"^(?:toujours\s+)?(?:réponds|répondez|parle|parlez)(?:-moi)?\s+(?:toujours\s+)?en\s+"
            r"(?:français|anglais)|"
            r"^(?:antworte|antworten sie|sprich)\s+(?:immer\s+)?(?:auf|in)\s+(?:deutsch|englisch)|"
            r"^(?:rispondi|rispondimi|rispondete|parla|parlami|scrivimi)\s+(?:sempre\s+)?in\s+(?:italiano|inglese)|"
            r"^(?:siempre\s+)?(?:habla|háblame|contéstame|respóndeme|escríbeme)\s+(?:siempre\s+)?en\s+"
            r"(?:español|castellano|inglés)|"
            r"^sprich\s+(?:immer\s+)?(?:deutsch|englisch)(?:\s+mit\s+mir)?$|"
            r"^(?:你的|你)?(?:回复|回答|回覆|答复|输出|輸出)[^，,。]{0,6}?(?:必须|必須|都|要|一律|请|請)?"
            r"(?:是|用|使用)(?:中文|简体中文|繁體中文|繁体中文|英文)|"
            r"^(?:常に|必ず|いつも)?日本語で(?:回答|返答|答え|返事|話し|書い|お願い|頼む|よろしく)|"
            r"^(?:항상\s*)?(?:한국어|한글)로\s*(?:답|대답|응답|말|작성)|"
            r"^(?:tolong\s+)?(?:selalu\s+)?(?:jawab|balas|respon|bicara)(?:lah)?\s+(?:selalu\s+)?"
            r"(?:dengan|dalam|pakai|menggunakan)\s+bahasa\s+(?:indonesia|inggris)"
            r"(?:\s+(?:ya|saja|aja|selalu|mulai\s+sekarang|seterusnya))?\s*[.!]?$|"
            # the language alone after a verb of talking, the whole statement: "parla italiano",
            # "odpowiadaj po polsku", "trả lời bằng tiếng Việt"
            r"^(?:parla|parlami|rispondi|rispondimi|scrivimi)\s+(?:sempre\s+)?italiano"
            r"(?:\s+per\s+favore)?\s*[.!]?$|"
            r"^(?:zawsze\s+)?(?:odpowiadaj|odpowiedz|mów|pisz)(?:\s+do\s+mnie)?\s+(?:zawsze\s+)?"
            r"po\s+(?:polsku|angielsku)(?:\s+proszę)?\s*[.!]?$|"
            r"^(?:hãy\s+)?(?:luôn\s+)?(?:trả\s+lời|nói|viết)(?:\s+tôi)?\s+(?:luôn\s+)?bằng\s+tiếng\s+"
            r"(?:việt|anh)(?:\s+nhé)?\s*[.!]?$",
            re.I,
        ),
        "Language",
        "preference",
        "answer_language",
    ),
    # The language of comments, commit messages and names: "注释用英文", "コミットメッセージは英語で",
    # "комментарии пиши на английском", "commits em inglês" (a document's language is the task's).
    (
        _lazy(
            r"^(?:代码|代碼)?(?:的)?(?:注释|註釋|提交信息|提交说明|提交說明|commit(?:\s*message|\s*信息)?|"
            r"变量名|變數名|函数名|函數名|日志|日誌)\s*(?:都|一律|统一|統一|全部|必须|必須|要|请|請)*"
            r"(?:用|使用|写成|寫成|采用|採用|是)\s*(?:中文|英文|英语|英語|简体中文|繁體中文|日文)|"
            r"^(?:コード)?(?:の)?(?:コメント|コミットメッセージ|コミット|変数名|ログ)(?:は|も)\s*"
            # ("…は英語にすること", the written rule; "…は英語にして" may be this turn's edit)
            r"(?:すべて|全て|必ず|常に)?(?:日本語|英語)(?:で|にすること)|"
            r"^(?:주석|커밋\s*메시지|커밋|변수명)(?:은|는|도)\s*(?:항상\s*|모두\s*)?(?:영어|한국어|한글)로|"
            r"^(?:все\s+)?(?:комментарии|коммиты|сообщения\s+коммитов|названия\s+переменных|инструкции|"
            r"промпты)(?:\s+для\s+\S+)?\s+(?:(?:всегда|только)\s+)?(?:пиши\w*\s+|делай\w*\s+|храни\w*\s+|"
            r"веди\w*\s+)?(?:(?:всегда|только)\s+)?"
            r"(?:на\s+(?:английском|русском)|по-английски|по-русски)|"
            r"^(?:os\s+|los\s+|les\s+|die\s+|i\s+)?(?:comentários|comentarios|commentaires|kommentare|commenti|"
            r"commits|mensagens\s+de\s+commit|mensajes\s+de\s+commit|messages\s+de\s+commit|"
            r"commit-nachrichten|messaggi\s+di\s+commit)\s+(?:(?:sempre|siempre|toujours|immer)\s+)?"
            r"(?:em|en|auf|in)\s+(?:inglês|português|inglés|español|anglais|français|englisch|deutsch|"
            r"inglese|italiano)\b",
            re.I,
        ),
        "Convention",
        "preference",
        "artifact_language",
    ),
    # The same in the languages of Latin and Cyrillic script, the verb first or the things first:
    # "Escreva os commits em inglês", "Écris les messages de commit en anglais", "Пиши коммиты на
    # английском", "Os comentários no código devem ser em inglês" (not "este README": this turn's).
    (
        _lazy(
            rf"^(?:(?:sempre|siempre|toujours|immer|всегда)\s+)?(?:escreva|escreve|faça|escribe|haz|écris|écrivez|"
            r"fais|rédige|scrivi|fai|schreib|schreibe|verfasse|пиши|пишите|делай|оформляй)\s+"
            rf"(?:(?:sempre|siempre|toujours|immer|всегда)\s+)?(?:(?:os|as|los|las|les|i|gli|le|die|todos\s+os|"
            rf"tous\s+les|alle)\s+)?{ARTIFACT}\s+(?:(?:sempre|siempre|toujours|immer|всегда)\s+)?{IN_LANG}|"
            rf"^(?:(?:os|as|los|las|les|i|gli|le|die|все)\s+)?{ARTIFACT}(?:\s+(?:no|do|del|du|dans\s+le|im|nel|"
            r"в)\s+\S+)?\s+(?:(?:devem\s+ser|deben\s+ser|doivent\s+être|devono\s+essere|müssen|sollen|должны\s+быть|"
            r"sempre|siempre|toujours|immer|всегда|пиши\w*|escreva|escribe|écris|scrivi|schreib\w*)\s+)*"
            rf"{IN_LANG}",
            re.I,
        ),
        "Convention",
        "preference",
        "artifact_language",
    ),
    # "注意全都用英文", "一律用中文", "全程中文": everything in one language, said with no subject (the
    # whole of the work; "以上三篇文档全部用中文输出" names this turn's documents).
    (
        _lazy(
            r"^(?:注意|请|請|记得|記得)?\s*(?:全部|全都|一律|统一|統一|全程|所有的?都)(?:都)?(?:要)?(?:用|使用|写|寫)?"
            r"(?:中文|英文|英语|英語|简体中文|繁體中文)(?:写|寫|输出|輸出)?$"
        ),
        "Convention",
        "preference",
        "all_in_language",
    ),
]


# The language to talk in, said as a clause of its own: "中文回答", "给我中文回复", "用中文讲给我",
# "回复用中文", "中文交互". Not "中文输出到 docs/": a document's language is the task's.
_ZH_LANG = r"(?:中文|简体中文|簡體中文|繁體中文|繁体中文|汉语|漢語|普通话)"
_ZH_TALK = r"(?:回答|回复|回覆|答复|答覆|交流|交互|對話|对话|讲|講|解释|解釋|说|說|沟通|溝通)"
ANSWER_IN = _lazy(
    rf"(?:请|請)?(?:你)?(?:都|一律|始终|始終|总是|總是)?(?:给我|給我|跟我|和我)?(?:用|使用)?{_ZH_LANG}"
    rf"(?:来|來)?{_ZH_TALK}(?:我|给我|給我)?|"
    rf"(?:你的)?{_ZH_TALK}(?:都|请|請|一律|必须|必須|要)?(?:用|使用|是)?{_ZH_LANG}|"
    rf"(?:请|請)(?:都|一律)?(?:用|使用){_ZH_LANG}(?:吧)?|"
    # what the user needs back ("我只需要中文回复", "我需要输出中文回复", "输出中文回复"), and the
    # same asked for every time ("你能不能每次压缩回来自动说中文？" is a request, not a question)
    rf"(?:我)?(?:只|就)?(?:需要|要|希望)?(?:你)?(?:给我|給我)?(?:输出|輸出){_ZH_LANG}{_ZH_TALK}|"
    rf"我(?:只|就)?(?:需要|要|希望)(?:你)?(?:给我|給我)?(?:用)?{_ZH_LANG}{_ZH_TALK}|"
    # what is said back, then what it must be in: "回复话术一定要是中文", "你给出的回复都用中文",
    # "输出的内容只需要中文" — the reply (or what is output of it) as the subject, a modal, the
    # language; not a document ("文档用中文", "报告要用中文": the task's)
    rf"(?:但是|不过|不過|并且|並且|而且|另外|注意|要求)?(?:我)?(?:希望|需要|要求)?(?:你)?"
    rf"(?:给出的|給出的|输出的|輸出的|给我的|給我的)?(?:{_ZH_TALK}|输出|輸出)(?:的)?(?:话术|話術|内容|內容|语言|語言)?"
    rf"(?:输出|輸出)?(?:都|也)?(?:必须|必須|一定要|一定|一律|统一|統一|只需要|只要|需要|要|只能|请|請|默认|默認)?"
    rf"(?:是|用|使用|为|為)?{_ZH_LANG}(?:的)?|"
    # talking with the user in it, or from now on / by default: "和我对话请用中文",
    # "用中文跟我交流", "以后用中文", "默认用中文回复", "请说中文", "中文回复就行"
    rf"(?:和我|跟我|與我|与我)(?:的)?{_ZH_TALK}(?:时|時)?(?:都|请|請|要)?(?:用|使用){_ZH_LANG}|"
    rf"(?:用|使用){_ZH_LANG}(?:和我|跟我|與我|与我){_ZH_TALK}|"
    rf"(?:以后|以後|今后|今後|往后|往後|默认|默認)(?:都|也|请|請)?(?:用|使用){_ZH_LANG}(?:{_ZH_TALK})?(?:我)?|"
    rf"(?:请|請)(?:你)?(?:说|說|讲|講){_ZH_LANG}|"
    rf"{_ZH_LANG}{_ZH_TALK}(?:我)?就(?:行|好|可以)(?:了)?|"
    # ("你每次都说中文吗" without a word of asking is a question about what it does). The pattern
    # is only fullmatched, where what follows the look-ahead is <= 23 characters: ".{0,30}" reads
    # the same, and a search no longer scans to the end from every start (quadratic).
    rf"(?:你)?(?:能不能|可不可以|能否|可以|(?!.{{0,30}}(?:吗|嗎)$))"
    rf"(?:以后|以後|今后|今後|每次|一直|永远|永遠)(?:都)?"
    rf"[^，,。]{{0,10}}?(?:自动|自動)?(?:用)?(?:说|說|讲|講|回复|回覆|回答){_ZH_LANG}(?:吗|嗎)?|"
    # the language with a verb of talking, as its own clause ("отвечай по-русски, что это?"):
    # a bare "на русском" / "en español" may answer "which language for the README?"
    r"(?:отвечай|отвечайте|говори|пиши)\s+(?:мне\s+)?(?:на\s+русском|по-русски)|"
    r"(?:responde|contesta|háblame|respóndeme)\s+(?:siempre\s+)?en\s+(?:español|castellano)|"
    r"(?:responda|fale|responde)\s+(?:sempre\s+)?em\s+português|"
    r"(?:réponds|répondez|parle|parlez)(?:-moi)?\s+en\s+français|"
    r"(?:antworte|antworten sie|sprich)\s+(?:immer\s+)?auf\s+deutsch|"
    r"한국어로\s*(?:답해|대답해|말해)(?:\s*줘|\s*주세요)?|"
    # the same said as a whole clause in more ways: what is answered, then the language
    # ("回答は日本語でお願いします", "답변은 한국어로 해줘"), or talking with the user in it ("общайся со
    # мной на русском", "responda em pt-br"); a bare "em português" may answer a question
    r"(?:回答|返答|返信|返事|応答|会話|やり取り|レスポンス)(?:は|も)\s*(?:すべて|全て|常に|必ず|基本的に)?\s*日本語で"
    r"(?:お願いします|お願い|して(?:ください)?|行って(?:ください)?|頼む|書いて(?:ください)?)?|"
    # (blanks only after the adverb: the clause is stripped, and a bare "\s*" tried at every blank
    # of a run made a search quadratic)
    # ("今後は日本語で", "以降は日本語でお願いします": from now on, the language alone)
    r"(?:今後は?|これからは|以降は)\s*日本語で(?:お願いします|お願い)?|"
    r"(?:(?:常に|いつも|必ず|今後は?|これからは)\s*)?日本語で(?:答えて|回答して|返答して|返事して|話して|会話して|"
    r"やり取りして)(?:ください|下さい|ね)?|"
    r"(?:답변|대답|응답|대화)(?:은|는|도)\s*(?:항상\s*)?(?:한국어|한글)로\s*(?:해\s*줘|해\s*주세요|부탁(?:해|합니다|해요)?|"
    r"해)?|"
    r"(?:всегда\s+)?(?:общайся|разговаривай|говори)(?:\s+со\s+мной)?\s+(?:всегда\s+|только\s+)?"
    r"(?:на\s+русском(?:\s+языке)?|по-русски)|"
    r"(?:sempre\s+)?(?:responda|responde|fale|escreva|converse)(?:\s+comigo)?\s+(?:sempre\s+)?em\s+"
    r"(?:pt-br|pt_br|português(?:\s+do\s+brasil|\s+brasileiro)?)",
    re.I,
)


def answer_language(body: str) -> Hit | None:
    """"中文回答，然后…", "…，回复必须是中文，为什么老是输出其他语言": the language to talk in is a
    clause of its own, whatever the rest asks."""
    for clause in HEAD.split(body):
        if ANSWER_IN.fullmatch(clause.strip()):
            return f"Language: {clause.strip()}", "preference", "answer_language"
    return None
