"""Explicit-marker rules in other languages: never / always / don't / I don't want / remember /
use X instead of Y / I have X, in Chinese, Japanese, Russian, Portuguese, French, Italian,
Spanish and German. Only the unambiguous forms: a marker at the start of a sentence (after politeness)
followed by an imperative, or a fixed "X instead of Y" frame. The claim keeps the user's own
sentence and language (no translation, nothing lost) behind an English polarity label —
"Never: …", "Don't: …", "Always: …", "Remember: …", "Use X, not Y" — so the negation is
explicit to everything downstream (contradictions, review) whatever the language."""

from __future__ import annotations

import re
from collections.abc import Callable

from agent_memory.extract.filters import PATH_WORD
from agent_memory.extract.rules.lang_choice import choice
from agent_memory.extract.rules.lang_habit import EVERY_TIME_RULES
from agent_memory.extract.rules.lang_topic import TOPIC_RULES
from agent_memory.extract.rules.lang_user import USER_RULES

Hit = tuple[str, str, str]

_ES_IMP = (
    r"(?:uses|usar|hagas|hacer|agregues|añadas|modifiques|toques|borres|elimines|escribas|crees|"
    r"instales|cambies|pongas|subas)"
)
# Spanish imperatives and infinitives of an instruction ("usa", "ejecutar").
_ES_DO = (
    r"(?:usa|utiliza|haz|escribe|responde|ejecuta|corre|pon|añade|agrega|revisa|verifica|pregunta|"
    r"crea|comprueba|usar|utilizar|hacer|escribir|responder|ejecutar|poner|añadir|agregar|revisar|"
    r"verificar|preguntar|crear|comprobar)"
)
# Sentence ends in these languages (CJK punctuation has no space after it).
_SPLIT = re.compile(r"(?<=[。！？；!?;])\s*|(?<=[.])\s+|\n+")
_NON_ENGLISH = re.compile(
    r"[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]|[àâãáçéèêëíîïóôõöúùûüñß]|"
    r"\b(?:não|nunca|sempre|jamais|toujours|n'|ne\s|non\s|mai\b|usa\b|utilise|ricord|lembr|"
    r"souviens|rappelle|recuerda|niemals|immer|verwende|benutze|nie\b|em vez de|ao invés|au lieu|"
    r"plutôt que|invece di|al posto di|en lugar de|en vez de|anstatt|statt\b|ab jetzt|ab sofort|"
    r"künftig|in zukunft|keine?\b|nicht\b|bitte\b|désormais|dorénavant|a partir de|en adelante|"
    r"d'ora in poi|siempre\b|toujours\b|vuelvas\b|uso\b|estoy\b|je suis sous|je travaille|ich arbeite|devono|deve\b|deben|debe\b|devem|doivent|"
    r"ich bin auf|mein\b|mi editor|mi sistema|utilizo\b|j'utilise|nutze\b|"
    r"\b(?:sono|sou|soy)\s+(?:uno?a?\s+|um\s+)?[a-z]{4,}|je suis|ich bin\b|"
    r"\b(?:instal(?:ei|ad[oa])|installat[oa]|installiert)\b|"
    r"\b(?:usamos|usiamo|utilizamos|utilizziamo|trabalho com|trabajo con|lavoro con|ich arbeite|wir arbeiten)\b|"
    r"\b(?:meu|minha|quiero|preciso|gostaria|responda|m'appelle|chiamo|llamo|chamo|renomeie|renombra|renomme|rinomina|benenne|prefiro|prefiero|preferisco|bevorzuge|mi\s+(?=[a-z]+\s))\b|"
    r"\b(?:rispondi|rispondimi|antworte|sprich|habla|háblame|contéstame|respóndeme|retiens|merk dir|merke dir|"
    r"mémorise|memorizza|memorize|gedächtnis|speichere|anote no|guarde na|ajoute dans|ajoute au|"
    # a choice made: "vamos usar X", "decidimos usar X", "on va utiliser X", "wir nehmen X"
    r"vamos\s+(?:a\s+)?(?:usar|utilizar|adotar|adoptar)|usaremos|utilizaremos|usemos|decidimos|"
    r"on va utiliser|nous allons utiliser|utilisons|useremo|abbiamo deciso|lass uns|wir nehmen|"
    r"entschieden|nous utilisons|schreib in|trag in|, dass|evite|évite|evita|vermeide|escreva|escribe|scrivi|schreib|"
    r"em inglês|en inglés|en anglais|in inglese|auf englisch|"
    r"não quero que|no quiero que|ne veux pas que|non voglio che|will nicht, dass|möchte nicht, dass)\b|"
    r"\b(?:toda vez que|sempre que|cada vez que|siempre que|chaque fois|ogni volta|jedes mal|immer wenn)\b|"
    r"\b(?:estou|trabalho no|trabalho na|sono su|lavoro su|il mio|mio editor|mio sistema|je suis sur)\b|"
    r"\b(?:dieses projekt|unser projekt|diesem projekt|unserem projekt|questo progetto|ce projet|este proyecto|"
    r"esse projeto|este projeto)\b|"
    r"\b(?:kommentare|commenti|comentarios|commentaires)\b|\b(?:en|in|auf)\s+(?:englisch|inglese|anglais)\b|"
    rf"\bno\s+{_ES_IMP}\b|"
    # Indonesian: never / always / from now on / the reply language
    r"\b(?:jangan\s+pernah|jangan\s+sekali-kali|selalu\s+(?:gunakan|pakai|pake|jalankan|tulis|jawab|balas)|"
    r"mulai\s+sekarang|mulai\s+saat\s+ini|ke\s+depannya|untuk\s+seterusnya|bahasa\s+(?:indonesia|inggris))\b)",
    re.I,
)
_POLITE = (
    r"(?:请|請|麻烦|麻煩|以后|以後|之后|之後|从现在开始|從現在開始|今后|今後|记得|記得|"
    r"пожалуйста,?|плиз,?|por favor,?|s'il (?:te|vous) plaît,?|per favore,?|bitte,?|"
    r"от?ныне|впредь|a partir de agora,?|désormais,?|d'ora in poi,?|de ahora en adelante,?|"
    r"ab jetzt,?|künftig,?)\s*"
)

_RU_IMP = (
    r"(?:используй|используйте|делай|делайте|трогай|трогайте|меняй|меняйте|добавляй|добавляйте|"
    r"пиши|пишите|удаляй|удаляйте|коммить|коммитьте|пушь|пушьте|ставь|ставьте|создавай|"
    r"создавайте|запускай|запускайте|ломай|ломайте|переименовывай|редактируй|правь|"
    r"правьте|комментируй|устанавливай|обновляй)"
)
# Indonesian: the verbs of an instruction, and the words that point at the thing at hand.
_ID_DO = (
    r"(?:gunakan|pakai|pake|menggunakan|memakai|jalankan|tulis|buat|jawab|balas|cek|periksa|"
    r"tanyakan|tanya|tambahkan|commit|push|hapus|ubah|install|instal|uji|test)"
)
# (the thing at hand: "ini/itu/tersebut/sini/tadi", a noun with -nya "filenya"; a report or a
# question: "salah", "gagal", "error", "kenapa")
_ID_HERE = (
    r"(?!.*\b(?:ini|itu|tersebut|sini|tadi|\w{3,}nya|salah|gagal|error|kenapa|mengapa|bagaimana|"
    r"sampai|hingga)\b)(?!.*\?)"
)
_PT_IMP = (
    r"(?:use|usar|faça|fazer|faz|coloque|colocar|adicione|adicionar|altere|alterar|mexa|mexer|"
    r"crie|criar|remova|remover|apague|apagar|mude|mudar|toque|tocar|escreva|escrever|commite|"
    r"envie|instale|instalar|rode|rodar|execute|executar|suba|subir|"
    # more of the written instruction: the imperative of -ar verbs ends in -e and that of -er/-ir
    # verbs in -a, so neither reads as a report ("sempre falha", "sempre desiste" are -a/-e of the
    # other kind); and the infinitive ("Nunca assumir …")
    r"utilize|teste|verifique|comite|atualize|salve|pergunte|documente|revise|valide|evite|"
    r"consulte|registre|priorize|explique|pesquise|implemente|confirme|traduza|inclua|assuma|"
    r"leia|siga|responda|mantenha|garanta|confira|peça|"
    r"utilizar|testar|verificar|comitar|commitar|atualizar|salvar|perguntar|documentar|revisar|"
    r"validar|evitar|consultar|registrar|pesquisar|traduzir|incluir|assumir|responder|seguir|"
    r"manter|garantir|confirmar)"
)
_FR_IMP = (
    r"(?:utilise|utilisez|fais|faites|ajoute|ajoutez|modifie|modifiez|touche|touchez|supprime|"
    r"supprimez|écris|écrivez|crée|créez|pousse|poussez|commite|committe|installe|installez|"
    r"lance|lancez|change|changez|mets|mettez|vérifie|vérifiez|teste|testez|réponds|répondez|"
    # the infinitive of written instructions ("Toujours lancer les tests …")
    r"utiliser|faire|ajouter|lancer|tester|vérifier|écrire|mettre|répondre|exécuter|pousser)"
)
_IT_IMP = (
    r"(?:usare|fare|aggiungere|modificare|toccare|cancellare|eliminare|scrivere|creare|pushare|"
    r"committare|installare|lanciare|cambiare|mettere|usa|fai|aggiungi|modifica|tocca|cancella|"
    r"elimina|scrivi|crea|installa|lancia|cambia|metti)"
)
_DE_IMP = (
    r"(?:verwende|benutze|nutze|mache|mach|ändere|füge|lösche|schreibe|schreib|pushe|committe|"
    r"führe|teste|prüfe|nimm|antworte|frag|frage|installiere|starte|erstelle|lies|lass|halte)"
)
# A tool or name as written in code: Latin letters, digits and @/+#.-_ (pnpm, uv, next.js, a
# masked code span). Chinese text next to a verb ("用了脚本推断", "应用到当前配置") is never one.
# (it starts where a run of these characters starts, and the part before its first letter holds
# no letter: one place to start and one way to split a 10,000-character word, not one per
# character, which took seconds; where it follows a blank, a quote or a CJK verb, as everywhere
# it is used, nothing changes, and an unanchored search finds its leftmost match at a run start)
# At most 16 dot-separated parts: each part after a dot is a start too, and an unbounded chain
# made a search scan the rest of "a.b.c.d…" from every one (quadratic; notes/28-leftover.md).
_TOOL = (
    r"((?<![A-Za-z0-9@/+#_-])[0-9@/+#_-]*[A-Za-z][A-Za-z0-9@/+#_-]*(?:\.[A-Za-z0-9@/+#_-]+){0,15}"
    r"(?![A-Za-z0-9])|\ue000\d+\ue001)"
)

# A tool of at least two characters ("我用A代替" names a placeholder, not a tool).
_TOOL2 = r"(?=[A-Za-z0-9@/+#_.\ue000-]{2})" + _TOOL

_OS = (
    r"windows(?:\s*1[01])?|win1[01]|macos|mac|macbook|linux|ubuntu|debian|fedora|arch(?:\s*linux)?|"
    r"nixos|manjaro|mint|wsl2?|popos|pop!_os|opensuse"
)

# A tool named after "my editor is …" in Latin script: written as a name (a capital or a digit)
# or one of the usual setup tools — "il mio editor è lento" says how it is, not which it is.
_SETUP_NAMED = (
    r"(?=(?-i:[A-Z0-9])|(?:neovim|nvim|vim|emacs|vscode|cursor|zed|helix|wezterm|kitty|alacritty|"
    rf"iterm2?|ghostty|warp|zsh|fish|bash|nushell|{_OS})(?![\w-]))"
)

# Things of the code whose language is a standing convention (not documents: a README or a doc
# is this turn's), and the language said after "in".
_ARTIFACT = (
    # (a singular "commit" is this turn's one, except after a plural article: "i commit", "die Commit")
    r"(?:commits|(?:i|gli|die|alle)\s+commit(?!\w)|mensagens\s+de\s+commit|mensajes\s+de\s+commit|messages\s+de\s+commit|"
    r"messaggi\s+di\s+commit|commit-nachrichten|commit-messages?|comentários|comentarios|commentaires|"
    r"commenti|kommentare|коммиты|сообщения\s+коммитов|комментарии(?:\s+в\s+коде)?|nomes\s+de\s+variáveis|"
    r"nombres\s+de\s+variables|noms\s+de\s+variables|nomi\s+delle\s+variabili|variablennamen|logs|"
    r"pull\s+requests|prs|branches)"
)
_IN_LANG = (
    r"(?:(?:em|en|in|auf|на)\s+(?:inglês|português|inglés|español|castellano|anglais|français|inglese|"
    r"italiano|englisch|deutsch|английском|русском)|по-английски|по-русски)(?!\w)"
)


# The ending of a Russian imperative ("пиши", "делай", "старайся"); "-ли" is a past plural
# ("всегда были ошибки", "никогда не падали"), a report.
_RU_IMP_END = r"(?:й|йте|(?<!л)и|ите|ь|ьте|йся|йтесь|ись|итесь)"

_RULES: list[tuple[re.Pattern[str], str, str, str]] = [
    # The language to be answered in: "用中文回答", "отвечай на русском", "responde en español".
    (
        re.compile(
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
            r"(?:\s+(?:ya|saja|aja|selalu|mulai\s+sekarang|seterusnya))?\s*[.!]?$",
            re.I,
        ),
        "Language",
        "preference",
        "answer_language",
    ),
    # The language of comments, commit messages and names: "注释用英文", "コミットメッセージは英語で",
    # "комментарии пиши на английском", "commits em inglês" (a document's language is the task's).
    (
        re.compile(
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
        re.compile(
            rf"^(?:(?:sempre|siempre|toujours|immer|всегда)\s+)?(?:escreva|escreve|faça|escribe|haz|écris|écrivez|"
            r"fais|rédige|scrivi|fai|schreib|schreibe|verfasse|пиши|пишите|делай|оформляй)\s+"
            rf"(?:(?:sempre|siempre|toujours|immer|всегда)\s+)?(?:(?:os|as|los|las|les|i|gli|le|die|todos\s+os|"
            rf"tous\s+les|alle)\s+)?{_ARTIFACT}\s+(?:(?:sempre|siempre|toujours|immer|всегда)\s+)?{_IN_LANG}|"
            rf"^(?:(?:os|as|los|las|les|i|gli|le|die|все)\s+)?{_ARTIFACT}(?:\s+(?:no|do|del|du|dans\s+le|im|nel|"
            r"в)\s+\S+)?\s+(?:(?:devem\s+ser|deben\s+ser|doivent\s+être|devono\s+essere|müssen|sollen|должны\s+быть|"
            r"sempre|siempre|toujours|immer|всегда|пиши\w*|escreva|escribe|écris|scrivi|schreib\w*)\s+)*"
            rf"{_IN_LANG}",
            re.I,
        ),
        "Convention",
        "preference",
        "artifact_language",
    ),
    # "注意全都用英文", "一律用中文", "全程中文": everything in one language, said with no subject (the
    # whole of the work; "以上三篇文档全部用中文输出" names this turn's documents).
    (
        re.compile(
            r"^(?:注意|请|請|记得|記得)?\s*(?:全部|全都|一律|统一|統一|全程|所有的?都)(?:都)?(?:要)?(?:用|使用|写|寫)?"
            r"(?:中文|英文|英语|英語|简体中文|繁體中文)(?:写|寫|输出|輸出)?$"
        ),
        "Convention",
        "preference",
        "all_in_language",
    ),
    # (pattern on the sentence, label, kind, sub-rule)
    (
        re.compile(
            rf"^(?:{_POLITE})?(?:永远不要|永遠不要|绝对不要|絕對不要|千万不要|千萬不要|千万别|千萬別|绝对别|絕對別|"
            r"严禁|嚴禁|绝不|絕不|从不|從不)\s*\S"
        ),
        "Never",
        "constraint",
        "zh_never",
    ),
    # "所有文件都使用绝对路径", "所有提交都要写英文": what every one of a kind must be or use
    # (not "所有测试都通过了", a status).
    (
        re.compile(
            r"^(?:所有|全部|任何|每个|每個)[^，,。]{1,15}?都(?:要|必须|必須|使用|用|采用|採用|写成|寫成|放在)\s*\S"
        ),
        "Always",
        "constraint",
        "zh_all_always",
    ),
    # "所有脚本都不要…", "任何提交都不能…": a ban on every one of a kind.
    (
        re.compile(
            r"^(?:所有|全部|任何|每个|每個|每一个|每一個)[^，,。]{1,15}?都(?:不要|别|別|不能|不许|不許|不准)\s*\S"
        ),
        "Never",
        "constraint",
        "zh_all_never",
    ),
    (
        re.compile(rf"^(?:我|我们|我們)?(?:{_POLITE})?(?:不希望|不想要|不想|不喜欢|不喜歡)\s*\S"),
        "Don't",
        "preference",
        "zh_dont_want",
    ),
    # "…，我不想每次都被弹窗打断": not wanting something every time is a standing preference
    # wherever the clause stands.
    (
        re.compile(
            r"(?:^|[，,])\s*(?:我|我们|我們)(?:不希望|不想要|不想|不喜欢|不喜歡)[^，,]{0,6}每次"
        ),
        "Don't",
        "preference",
        "zh_dont_want",
    ),
    # "每次只要中文版本回复", "每次都先跑测试": what to do every time.
    (
        # (not "每次都要等很久", how long it takes: a verb of the user's rule must follow)
        re.compile(
            r"^(?:你)?每次(?:都)?(?:只要|只用|都用|必须|必須|先|记得|記得|(?:都)?要(?:先|用|记得|記得|检查|檢查|跑|运行|執行|执行|更新|确认|確認|写|寫))\S"
        ),
        "Always",
        "constraint",
        "zh_every_time",
    ),
    (
        re.compile(
            rf"^(?:你)?(?:{_POLITE})?(?:不要|别|別|请勿|請勿|禁止|不准|不可以|不许|不許)\s*\S"
        ),
        "Don't",
        "constraint",
        "zh_dont",
    ),
    (
        re.compile(
            # ("你总是用英文回复" complains of what it keeps doing; "你总是要先…" asks)
            rf"^(?!你(?:总是|總是)(?!要|都要|必须|必須))(?:你)?(?:{_POLITE})?(?:一律|总是|總是|永远要|永遠要|始终|始終|每次都要)\s*"
            # "总是报错", "总是失败": how something keeps going wrong, not a rule
            r"(?!报错|報錯|失败|失敗|出错|出錯|出现|出現|卡|崩|不行|没|沒|不能|不会|不會|会|會|是|等|花|很|好久|"
            r"那么|那麼|这么|這麼)\S"
        ),
        "Always",
        "constraint",
        "zh_always",
    ),
    (
        # "记住：…" / "记住以后…": what is to be remembered is said, and is a standing thing
        # ("记住该信息，我明天…" keeps a note for tomorrow, "记住你" is a role's slogan).
        re.compile(
            r"^(?:请|請)?(?:记住|記住|记得|記得)(?:[:：]\s*\S|[，,]?\s*(?:以后|以後|今后|今後|往后|往後|"
            r"从现在|從現在|永远|永遠|每次|所有|我们|我們|我的|我用|我在用|我是))"
        ),
        "Remember",
        "fact",
        "zh_remember",
    ),
    # "使用大量工具时需要先经过我同意": something needs the user's consent first.
    (
        re.compile(
            r"(?:需要|必须|必須|须|須)(?:先)?(?:经过|經過|征得|徵得|得到)?(?:我|我们|我們)(?:的)?"
            r"(?:同意|审批|審批|确认|確認|批准|授权|授權)|(?:需要|必须|必須)(?:先)?(?:审批|審批|批准|授权|授權)"
        ),
        "Ask first",
        "constraint",
        "zh_needs_approval",
    ),
    # "后端服务使用uv管理": the tool a thing is managed, built or deployed with.
    (
        re.compile(
            rf"(?:使用|改用|用)\s*{_TOOL}\s*(?:来|來)?(?:管理|构建|構建|部署|打包|运行|運行|编译|編譯)"
        ),
        "Use",
        "preference",
        "zh_use_to",
    ),
    # Japanese: "必ず…" (always), "…しないでください" (don't), "…を使っています" (we use),
    # "…で作成したい / …を使ってデプロイしたい" (build / deploy it with), as the whole sentence:
    # "Vercelでデプロイする際の手順を教えて" asks for the steps of doing so.
    # a request or a rule ("…してください", "…すること"), not "いつもありがとう" or "必ずしも"
    (
        re.compile(
            # ("いつもの手順で…" is "the usual", a step of this turn)
            r"^(?:常に|いつも(?!の)|必ず|毎回)(?!しも)\S.*(?:ください|下さい|して|すること|こと|ように|しなさい|しろ|"
            r"お願いします|にする|にします)$"
        ),
        "Always",
        "constraint",
        "ja_always",
    ),
    # 決して is "never"; a sentence-initial 絶対に ("絶対に消さないでください") stresses this turn's
    # request, and a rule with a topic ("本番のデータは絶対に…") is lang_topic's
    (re.compile(r"^決して\S.*な(?:い|いで)"), "Never", "constraint", "ja_never"),
    # "main への直接 push は禁止です", "console.log を残すのは厳禁": a ban said as one
    (
        re.compile(r"^\S.{1,40}?(?:は|を)(?:禁止|厳禁)(?:です|とします|します|にします)?$"),
        "Never",
        "constraint",
        "ja_ban",
    ),
    (re.compile(r"\Sないで(?:ください|下さい|ね)?$"), "Don't", "constraint", "ja_dont"),
    (
        # a tool named in code letters, and the use is what the sentence says (it ends there):
        # "…側は X を使っているので合わせたい" is about the code, said on the way to a task;
        # "`…`こんな形のやつ使ってる" shows the shape of a value (a connection string), no tool;
        # after a particle or as a degree ("`vim`はそんなに好きじゃないけど") the tool is in use
        re.compile(
            rf"{_TOOL2}(?!\s*(?:こんな|こういう|そんな|そういう))[^。、,]{{0,20}}?(?:を|も|は)?(?:両方)?"
            r"(?:使って(?:い)?ます|使用して(?:い)?ます|使っている|使ってる)(?:よ|ね)?$"
        ),
        "Uses",
        "fact",
        "ja_we_use",
    ),
    # "npx を使わない", "yarnは使わないでください": a tool not to use, said as the whole sentence
    (
        re.compile(
            rf"^{_TOOL2}\s*(?:は|を)?\s*(?:使わない|使わないで|使用しない|使用しないで|使いません)"
            r"(?:ください|下さい|こと)?$"
        ),
        "Don't",
        "preference",
        "ja_dont_use",
    ),
    # "テストはVitestを使用したいです", "…したいのでDockerFileを使用したいです": a tool wanted for
    # a named part or purpose (not "Sonnetを使いたい", the model of this session), as the
    # whole sentence and not a member of the code ("storefront.value.isUSA を使いたい")
    (
        re.compile(
            r"(?:は|ので|から|には)[^。]*?(?<![A-Za-z0-9_.])(?![\w-]*\.[\w-]*\.)(?![\w-]*\.[a-z]+[A-Z])"
            rf"{_TOOL2}\s*を(?:使用し|使い)たい(?:です|と思います)$"
        ),
        "Use",
        "decision",
        "ja_want_use",
    ),
    # "実行はuv run を使ってモジュールとして実行したいです": how a part of the work is to be done,
    # with a tool (the part first, as the topic; not "この関数は…", a thing of the task)
    (
        re.compile(
            r"^(?!この|その|あの)[^。、]{1,12}?(?:は|には)\s*(?<![A-Za-z0-9_.])(?![\w-]*\.[\w-]*\.)"
            rf"{_TOOL2}(?:\s+[a-z][\w-]*)?\s*を(?:使って|使用して|用いて)[^。、]{{0,20}}?したい(?:です|と思います)$"
        ),
        "Use",
        "preference",
        "ja_part_with",
    ),
    # "覚えておいて：…", "…ことを覚えておいてください": what to remember is said with it
    (
        re.compile(
            r"^(?:これを)?覚えて(?:おいて|て)?(?:ください|ね)?[:：、,]\s*\S|"
            # four characters before it are enough to tell (only whether it matches is read);
            # "\S{4,}" scanned the rest of an unbroken run of text at every character
            r"\S{4}(?:ことを|ことは|と|を)覚えて(?:おいて|て)(?:ください|ね)?$"
        ),
        "Remember",
        "fact",
        "ja_remember",
    ),
    (
        re.compile(
            r"\S(?:で|を使って|を使用して)(?:作成|開発|構築|実装|デプロイ|管理)(?:したい|します|する)"
            r"(?:です|と思います|と思っています|ことにします)?$"
        ),
        "Use",
        "decision",
        "ja_build_with",
    ),
    # Korean: "항상 …" (always), "절대 …지 마세요" (never), "…하지 마세요" (don't, needs a durable word).
    (
        re.compile(
            # after a condition of when ("코드 수정 후에는 항상 …", "커밋하기 전에 항상 …")
            r"^(?:\S+\s+){0,3}?\S*(?:후에는|후에|후엔|다음에는|다음에|전에는|전에|때는|때마다|때)\s*,?\s*"
            r"(?:항상|언제나|매번)\s*\S.*(?:세요|주세요|해\s*줘|줘|해|하라|할\s*것|하십시오|합시다)$|"
            r"^(?:항상|언제나|매번)\s*\S.*(?:세요|주세요|해\s*줘|줘|해|하라|할\s*것|하십시오|합시다)$"
        ),
        "Always",
        "constraint",
        "ko_always",
    ),
    # "절대 …지 마세요/하지 말아/않도록/금지", not "절대 그렇지 않아" (not at all so)
    (
        re.compile(r"^절대(?:로)?\s*\S.*(?:지\s*마|말아|않도록|않게|금지)"),
        "Never",
        "constraint",
        "ko_never",
    ),
    (
        re.compile(r"\S\s*지\s*(?:마|마세요|말아요|말아\s*주세요|마십시오)$"),
        "Don't",
        "constraint",
        "ko_dont",
    ),
    (
        re.compile(r"^(?:꼭\s*)?기억해(?:\s*줘|\s*주세요|\s*둬|\s*두세요)?[:：,]?\s*\S"),
        "Remember",
        "fact",
        "ko_remember",
    ),
    # an imperative after "никогда не" ("никогда не пушь"), not "никогда не работало" (a report)
    (
        re.compile(
            rf"^(?:{_POLITE})?никогда\s+не\s+\w+{_RU_IMP_END}(?!\w)",
            re.I,
        ),
        "Never",
        "constraint",
        "ru_never",
    ),
    # "больше не используй X" (no longer): a standing change, unlike "не трогай" (this turn)
    (
        re.compile(rf"^(?:{_POLITE})?больше\s+(?:никогда\s+)?не\s+{_RU_IMP}(?!\w)", re.I),
        "Don't",
        "constraint",
        "ru_no_longer",
    ),
    # "no vuelvas a usar X" (never again)
    (
        re.compile(rf"^(?:{_POLITE})?(?:no|nunca)\s+vuelvas\s+a\s+\w+", re.I),
        "Never",
        "constraint",
        "es_never_again",
    ),
    (
        re.compile(
            rf"^(?:{_POLITE})?(?:не\s+{_RU_IMP}\b|не\s+надо\s+\w+|не\s+нужно\s+\w+|нельзя\s+\w+)",
            re.I,
        ),
        "Don't",
        "constraint",
        "ru_dont",
    ),
    (
        # "всегда пиши тесты", and the imperative first: "пиши всегда тесты"
        re.compile(
            rf"^(?:{_POLITE})?(?:всегда\s+\w+{_RU_IMP_END}(?!\w)|{_RU_IMP}\s+всегда(?!\w))", re.I
        ),
        "Always",
        "constraint",
        "ru_always",
    ),
    (
        re.compile(r"^(?:запомни|запомните|имей в виду|имейте в виду)\b[:,]?\s*\S", re.I),
        "Remember",
        "fact",
        "ru_remember",
    ),
    # "у меня сайт, а не мобилка", "у нас монорепозиторий", "у меня fish": what the user has, a
    # short fact — either set against something else or a thing of the setup. Not "у меня ошибка",
    # "у меня не работает", "у меня вопрос" (the state of the moment), nor "у меня есть агенты,
    # нужно посмотреть…" (the opening of a task).
    (
        re.compile(
            r"^(?:\w+,\s*)?у\s+(?:меня|нас)\s+(?:есть\s+)?"
            r"(?!(?:не|нет|ошибк|проблем|вопрос|иде[яи]|баг|такая|такой|такое|сейчас|опять|снова|"
            r"всё|все|что-то|ничего)(?:\w*)(?!\w))"
            r"(?:\S+(?:\s+\S+)?,?\s+а\s+не\s+\S+|"
            r"(?:мак\w*|линукс\w*|винд\w*|убунту|монорепо\w*|репозитори\w*|сайт\w*|приложени\w*|бот\w*|"
            rf"сервер\w*|кластер\w*|{_OS}|(?![A-Za-z]*(?:Error|Exception|error)\b){_TOOL2}))"
            r"(?!.*(?<!\w)(?:нужно|надо|посмотри|сделай|помоги|проверь|почини|не работает|ошибк\w*)(?!\w))"
            r"(?=.{0,60}$)",
            re.I,
        ),
        "",
        "fact",
        "ru_i_have",
    ),
    # Where a kind of thing must live, with a path: "i piani devono stare tutti in plans/todo",
    # "测试文件都放在 tests/unit", "hooks のテストはすべて test/hooks/ 配下にして".
    (
        re.compile(
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
        re.compile(
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
        re.compile(
            rf"^(?:io\s+|yo\s+|eu\s+)?(?:non|no|não)\s+(?:uso|utilizzo|utilizo)\s+(?:(?:il|el|o|la|a)\s+(?-i:(?=[A-Z])))?"
            rf"(?!(?:il|el|o|la|a|lo|los|las|os|as|un|una|um|uma|mai|más|mais|più)\b){_TOOL2}|"
            rf"^(?:я|мы)\s+не\s+(?:использую|используем|пользуюсь|пользуемся)\s+{_TOOL2}|"
            rf"^(?:我|我们|我們)(?:从来|從來|平时|平時)?(?:不用|不使用|没用|沒用)\s*{_TOOL2}|"
            r"(?:^|[，,])\s*(?:我|我们|我們)?(?:从来|從來)(?:没有|沒有|没|沒)(?:使用|用)过|"
            rf"^(?:ich|wir)\s+(?:benutze|nutze|verwende|benutzen|nutzen|verwenden)\s+(?:kein(?:e|en)?\s+)?"
            rf"{_TOOL2}\s+nicht\b|^je\s+n'utilise\s+(?:pas|jamais)\s+{_TOOL2}",
            re.I,
        ),
        "Does not use",
        "fact",
        "i_dont_use",
    ),
    # What the user is building: "我想做一个…系统", "…웹사이트를 만들꺼야" (the project).
    (
        re.compile(
            r"^(?:我|我们|我們)(?:现在|現在|目前)?(?:想要|想|要|正在|在)(?:做|开发|開發|写|寫|搭建|建|建立)一(?:个|個|款|套)"
            r"[^，,。?？]{2,40}?(?:系统|系統|网站|網站|应用|應用|app|平台|工具|小程序|插件|游戏|遊戲)|"
            r"(?:웹사이트|사이트|앱|서비스|시스템|플랫폼|툴|게임)(?:를|을)\s*만들(?:꺼야|거야|려고|고\s*있어|고\s*싶어)",
            re.I,
        ),
        "Project",
        "fact",
        "project_is",
    ),
    # The user's machine: "我的系统是 macOS", "estoy en Windows", "je suis sous Linux",
    # "ich arbeite unter Fedora", "я на маке", "mi editor es Neovim".
    (
        re.compile(
            rf"^(?:我的|我)?(?:系统|系統|电脑|電腦|操作系统|作業系統|编辑器|編輯器|终端|終端|shell|IDE|"
            rf"开发环境|開發環境|本地环境|本地環境)"
            rf"(?:是|用的是)\s*{_TOOL2}|"
            # "我用的编辑器是 Neovim", "我平时用的终端是 WezTerm"
            rf"^(?:我|我们|我們)(?:平时|平時|日常|一直)?(?:用的|使用的)(?:系统|系統|电脑|電腦|编辑器|編輯器|"
            rf"终端|終端|shell|IDE|操作系统)(?:是)\s*{_TOOL2}|"
            # "我在 Windows 上开发": where the user works, said as the whole clause
            rf"^(?:我|我们|我們)(?:平时|平時|一直|都|主要)?(?:是)?在\s*(?:{_OS})\s*(?:系统|系統)?(?:上|下|里|裡)"
            r"(?:开发|開發|工作|写代码|寫代碼|编程|編程)(?:的)?$|"
            # "私は Windows ユーザーです": the user's OS as what they are
            rf"^(?:私は|僕は|自分は)\s*(?:{_OS})\s*ユーザー(?:です)?$|"
            # "제 컴퓨터는 맥북입니다", "저는 윈도우에서 개발합니다"
            r"^(?:제|내)\s*(?:컴퓨터|노트북|PC)(?:는|은)\s*(?:맥북|맥|윈도우|리눅스|우분투)\s*(?:입니다|이에요|예요|야)?$|"
            r"^(?:저는|전|나는|난)\s*(?:맥|윈도우|리눅스|우분투)에서\s*(?:개발|작업)\s*(?:합니다|해요|하고\s*있어요|해)$|"
            rf"^(?:私の|僕の|うちの)?(?:開発)?(?:OS|環境|エディタ|ターミナル|シェル)は\s*{_TOOL2}(?:\s*\d[\w.]*)?\s*"
            r"(?:です|を使っています)?$|"
            rf"^(?:제|내)?\s*(?:OS|운영체제|에디터|터미널|개발\s*환경|환경)(?:는|은)\s*{_TOOL2}|"
            # "저는 맥을 써요", "윈도우 사용합니다": the OS named in Hangul, said as a state
            r"^(?:저는|전|나는|난)?\s*(?:맥북?|윈도우|리눅스|우분투)\s*(?:을|를)?\s*"
            r"(?:써요|씁니다|써|사용해요|사용합니다|사용하고\s*있어요|쓰고\s*있어요|사용\s*중이에요)$|"
            rf"^(?:я|мы)\s+(?:сижу\s+|работаю\s+)?(?:на|под)\s+(?:{_OS}|маке|макбуке|линуксе|винде|"
            rf"убунту)(?!\w)|"
            rf"^(?:мой|моя|мое|моё)\s+(?:редактор|терминал|ос|система|ноутбук|шелл)\s*(?:[—–-]\s*|это\s+)?{_SETUP_NAMED}{_TOOL2}|"
            rf"^(?:eu\s+|yo\s+)?(?:estoy|trabajo|estou|trabalho)\s+(?:en|con|no|na|em|com|usando|utilizando)\s+"
            rf"(?:{_OS})\b|"
            rf"^(?:mi|meu)\s+(?:sistema(?: operativo| operacional)?|editor|terminal|pc|ordenador|"
            rf"computador|computadora)\s+(?:es|é)\s+(?:(?:o|a|el|la)\s+(?-i:(?=[A-Z])))?{_SETUP_NAMED}{_TOOL2}|"
            rf"^je\s+(?:suis|travaille)\s+(?:sous|sur)\s+(?:un\s+|une\s+)?(?:{_OS})\b|"
            rf"^mon\s+(?:système|os|éditeur|terminal)\s+est\s+{_SETUP_NAMED}{_TOOL2}|"
            rf"^(?:io\s+)?(?:sono|lavoro)\s+(?:su|con)\s+(?:{_OS})\b|"
            rf"^(?:il\s+)?mio\s+(?:sistema(?: operativo)?|editor|terminale|pc|computer)\s+è\s+{_SETUP_NAMED}{_TOOL2}|"
            rf"^ich\s+(?:bin|arbeite)\s+(?:auf|unter|mit)\s+(?:{_OS})\b|"
            rf"^mein\s+(?:system|betriebssystem|editor|terminal)\s+ist\s+{_SETUP_NAMED}{_TOOL2}",
            re.I,
        ),
        "Environment",
        "fact",
        "user_env",
    ),
    # "I use X" with a tool named in code letters: "我一直用 neovim" (a habit; a bare "我用 X …" is
    # mostly what was just done with it), "я пользуюсь fish",
    # "eu já uso o Claude Code", "ich nutze WezTerm", "j'utilise Arch".
    (
        re.compile(
            rf"^(?:我|我们|我們)(?:一直|平时|平時|主要|日常|都|平常|习惯|習慣|一般|通常|向来|向來){{1,2}}(?:在)?(?:用|使用)\s*{_TOOL2}(?!\s*(?:代替|替代|替换|替換|取代))|"
            # "我们用的包管理器是 pnpm": the kind of tool, then which (a name in code letters)
            rf"^(?:我|我们|我們)(?:平时|平時|日常|一直|现在|現在)?(?:用的|使用的)"
            # (a value of the task is no tool: "用的版本是 v2", "用的分支是 dev", "用的端口是 8080")
            rf"(?!版本|方案|分支|文件|目录|目錄|端口|命令|参数|參數|账号|帳號|密码|密碼|路径|路徑|模板)[\u4e00-\u9fff]{{1,6}}是\s*{_TOOL2}|"
            # "我们团队用 GitLab", "我们公司使用 Jira": the team's tool
            rf"^(?:我们|我們)(?:团队|團隊|公司|组|組|这边|這邊)(?:一直|都|主要|目前)?(?:在)?(?:用|使用|采用|採用)"
            rf"(?:的是)?\s*{_TOOL2}|"
            rf"^(?:但是|不过|不過|其实|其實)?(?:我|我们|我們)(?:在用|用的是|使用的是)\s*"
            rf"(?:{_TOOL2}|[\u4e00-\u9fff]{{2,12}}(?:[，,。]|$))|"
            # "我是用fork，这个git可视化工具": the tool, and the clause ends with it ("我是用cmd打开的"
            # is how something was just done)
            rf"^(?:但是|不过|不過|其实|其實)?(?:我|我们|我們)(?:是用|是使用)\s*{_TOOL2}\s*(?:[，,]|$)|"
            rf"^(?:私は|うちは)?{_TOOL2}\s*(?:を|も)?(?:使っています|使っている|使用しています)|"
            rf"^(?:저는|전|우리는|저희는|(?:우리|저희)\s*(?:팀|회사)은)\s*{_TOOL2}\s*(?:을|를)?\s*(?:사용|써)|"
            rf"^(?:지금\s*)?(?:제가\s*|내가\s*)?(?:쓰는|사용하는)\s*(?:게|것은|건)\s*{_TOOL2}|"
            rf"^(?:я|мы)\s+(?:всегда\s+)?(?:использую|используем|пользуюсь|пользуемся|сижу на)\s+{_TOOL2}|"
            rf"^(?:eu\s*,?\s*(?:[^,]{{1,20}},\s*)?|yo\s+)?(?:já\s+|siempre\s+|sempre\s+)?(?:uso|utilizo)\s+"
            # an article only before a name ("o Obsidian"), not "el comando", "a versão"
            rf"(?:(?:o|a|el|la)\s+(?-i:(?=[A-Z])))?(?!(?:o|a|el|la|los|las|os|as|un|una|um|uma)\b){_TOOL2}|"
            rf"^(?:ich|wir)\s+(?:benutze|nutze|verwende|benutzen|nutzen|verwenden)\s+"
            # (not "ich benutze kein Windows": what is not used, read as the tool's name)
            rf"(?!(?:die|der|das|den|dem|des|ein|eine|einen|einem|kein|keine|keinen|keinem|nicht|nie|"
            rf"niemals|mehr)\b){_TOOL2}|"
            # the project named first: "in diesem Projekt verwenden wir X", "dans ce projet on utilise X"
            rf"^in\s+(?:diesem|unserem)\s+(?:projekt|repo|repository)\s*,?\s+(?:verwenden|nutzen|benutzen)\s+wir\s+"
            rf"(?!(?:die|der|das|den|dem|des|ein|eine|einen|einem|noch)\b){_TOOL2}|"
            rf"^(?:dans\s+(?:ce|notre)\s+(?:projet|dépôt|repo)\s*,?\s+)?(?:j'utilise|nous utilisons|on utilise)\s+"
            rf"(?!(?:le|la|les|un|une|des|du|encore)\b){_TOOL2}",
            re.I,
        ),
        "Uses",
        "fact",
        "i_use",
    ),
    # More ways to say what one works with: Russian without the pronoun ("пользуюсь fish",
    # "пишем на Go"), the plural of a team ("usamos Supabase", "usiamo Django"), working with a
    # tool ("trabalho com Flutter", "lavoro con Rails", "ich arbeite mit Nix"), the Korean and
    # Japanese ongoing forms ("Neovim 쓰고 있어요", "Rails で開発しています"), and an account's
    # name ("github用户名是 X").
    (
        re.compile(
            rf"^(?:пользуюсь|пользуемся|использую|используем|пишу\s+на|пишем\s+на|работаю\s+в|"
            rf"работаем\s+в)\s+{_TOOL2}|"
            rf"^(?:(?:en\s+este\s+proyecto|neste\s+projeto|nesse\s+projeto|in\s+questo\s+progetto)\s*,?\s+)?"
            rf"(?:nós\s+|nosotros\s+|noi\s+)?(?:usamos|utilizamos|usiamo|utilizziamo)\s+"
            rf"(?:(?:o|a|el|la|il)\s+(?-i:(?=[A-Z])))?(?!(?:o|a|el|la|il|los|las|os|as|un|una|um|uma|gli|i|le)\b)"
            rf"{_TOOL2}|"
            rf"^(?:eu\s+|yo\s+|io\s+)?(?:trabalho|trabajo|lavoro)\s+(?:com|con)\s+(?-i:(?=[A-Z])){_TOOL2}|"
            rf"^(?:je\s+travaille|ich\s+arbeite|wir\s+arbeiten)\s+(?:avec|mit)\s+(?-i:(?=[A-Z])){_TOOL2}|"
            rf"^(?:저는\s*|전\s*|우리는\s*)?{_TOOL2}\s*(?:을|를)?\s*(?:쓰고|사용하고)\s*(?:있어|있습니다|있음)|"
            rf"{_TOOL2}\s*(?:で|を使って|を使用して)(?:作成|開発|構築|実装|運用|管理)(?:しています|している|してます)"
            r"(?:よ|ね)?$",
            re.I,
        ),
        "Uses",
        "fact",
        "i_use",
    ),
    # The project's new name: "Переименуй проект в NUDGE", "把项目改名为 Nudge", "プロジェクト名を
    # Nudge に変更して", "renomeie o projeto para Nudge" (the project or its repository, not a
    # file or a function of the task).
    (
        re.compile(
            rf"^(?:{_POLITE})?(?:давай\s+)?переименуй(?:те)?\s+(?:наш\s+|мой\s+)?(?:проект|репозиторий|репо|"
            rf"приложение)\s+в\s+{_TOOL2}|"
            rf"^(?:{_POLITE})?(?:把)?(?:我的|我们的|我們的)?(?:项目|項目|仓库|倉庫)(?:名|名字|名称|名稱)?"
            rf"(?:改名|重命名|更名|改)(?:为|為|成|叫)\s*{_TOOL2}|"
            rf"^(?:プロジェクト|リポジトリ)(?:名|の名前)?を\s*{_TOOL2}\s*に(?:変更|リネーム)|"
            rf"^프로젝트\s*(?:이름|명)을\s*{_TOOL2}\s*(?:로|으로)\s*(?:바꿔|변경)|"
            rf"^(?:renomeie|renomear|renombra|renombrar|renomme|renommer|renommez|rinomina|rinominare)\s+"
            rf"(?:o|el|le|il)\s+(?:projeto|repositório|proyecto|repositorio|projet|dépôt|progetto)\s+"
            rf"(?:para|a|en|in)\s+{_TOOL2}|"
            rf"^benenne\s+das\s+(?:projekt|repository|repo)\s+in\s+{_TOOL2}\s+um",
            re.I,
        ),
        "Renamed",
        "decision",
        "rename_project",
    ),
    # The user's account name: "github用户名是 X", "我的账号是 X".
    (
        re.compile(
            rf"^(?:我的)?(?:github|gitlab|git)?\s*(?:用户名|用戶名|账号|帳號|账户|賬戶)(?:是|为|為)\s*"
            # (a server's login "用户名是root，密码是…" is no account of the user's)
            rf"(?!(?:root|admin|administrator|user|ubuntu|test|guest)\b){_TOOL2}",
            re.I,
        ),
        "Account",
        "fact",
        "account",
    ),
    (re.compile(rf"^(?:{_POLITE})?nunca\s+{_PT_IMP}\b", re.I), "Never", "constraint", "pt_never"),
    # Indonesian: "jangan pernah pakai emoji" (never), "selalu gunakan pnpm" (always); not about the
    # thing at hand ("… file ini", "… itu", "di sini", "tadi")
    (
        re.compile(
            rf"^(?:tolong\s+)?{_ID_HERE}(?:jangan\s+pernah|jangan\s+sekali-kali)\s+{_ID_DO}\s+\w{{3,}}",
            re.I,
        ),
        "Never",
        "constraint",
        "id_never",
    ),
    (
        re.compile(rf"^(?:tolong\s+)?{_ID_HERE}selalu\s+{_ID_DO}\s+\S", re.I),
        "Always",
        "constraint",
        "id_always",
    ),
    (re.compile(rf"^(?:{_POLITE})?não\s+{_PT_IMP}\b", re.I), "Don't", "constraint", "pt_dont"),
    (
        # "sempre rode os testes", and the verb first: "use sempre pnpm"
        # ("sempre commit mesmo pequenos progressos": the English verb, said in Portuguese)
        re.compile(
            rf"^(?:{_POLITE})?(?:sempre\s+(?:{_PT_IMP}|commit|comit)|{_PT_IMP}\s+sempre)\b", re.I
        ),
        "Always",
        "constraint",
        "pt_always",
    ),
    (
        re.compile(r"^(?:lembre-se|lembre|lembra|não esqueça|n[ãa]o se esque[çc]a)\b", re.I),
        "Remember",
        "fact",
        "pt_remember",
    ),
    (
        re.compile(
            rf"^(?:{_POLITE})?(?:ne\s+(?:jamais\s+)?|n'){_FR_IMP}\s+(?:\S+\s+){{0,2}}?(?:pas|jamais)\b",
            re.I,
        ),
        "Don't",
        "constraint",
        "fr_dont",
    ),
    (
        # an instruction after "jamais", not "jamais compris pourquoi" (a report)
        re.compile(rf"^(?:{_POLITE})?(?:ne\s+{_FR_IMP}\s+jamais|jamais\s+{_FR_IMP})\b", re.I),
        "Never",
        "constraint",
        "fr_never",
    ),
    (
        # "toujours pas de réponse" (still no answer) is no rule: an imperative must follow
        re.compile(
            rf"^(?:{_POLITE})?toujours\s+{_FR_IMP}\b|^(?:{_POLITE})?{_FR_IMP}\s+toujours\b", re.I
        ),
        "Always",
        "constraint",
        "fr_always",
    ),
    (
        re.compile(r"^(?:souviens-toi|souvenez-vous|rappelle-toi|retiens|n'oublie pas)\b", re.I),
        "Remember",
        "fact",
        "fr_remember",
    ),
    (
        re.compile(
            rf"^(?:{_POLITE})?non\s+{_IT_IMP}\s+mai\b|^(?:{_POLITE})?mai\s+{_IT_IMP}\b", re.I
        ),
        "Never",
        "constraint",
        "it_never",
    ),
    (re.compile(rf"^(?:{_POLITE})?non\s+{_IT_IMP}\b", re.I), "Don't", "constraint", "it_dont"),
    (
        re.compile(
            rf"^(?:{_POLITE})?(?:usa|fai|scrivi|metti)\s+sempre\b|^(?:{_POLITE})?sempre\s+{_IT_IMP}\b|"
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
        re.compile(r"^(?:ricorda|ricordati|tieni a mente)\b", re.I),
        "Remember",
        "fact",
        "it_remember",
    ),
    # "siempre usa pnpm", "responde siempre en español", "siempre ejecutar los tests"
    (
        re.compile(
            rf"^(?:{_POLITE})?(?:siempre\s+{_ES_DO}|{_ES_DO}\s+siempre)\b",
            re.I,
        ),
        "Always",
        "constraint",
        "es_always",
    ),
    (re.compile(rf"^(?:{_POLITE})?no\s+{_ES_IMP}\b", re.I), "Don't", "constraint", "es_dont"),
    (
        re.compile(rf"^(?:{_POLITE})?(?:nunca|jamás)\s+{_ES_IMP}\b", re.I),
        "Never",
        "constraint",
        "es_never",
    ),
    (
        re.compile(r"^(?:recuerda|recuérdalo|ten en cuenta)\b", re.I),
        "Remember",
        "fact",
        "es_remember",
    ),
    (
        re.compile(
            rf"^(?:{_POLITE})?(?:niemals|nie)\s+(?:wieder\s+)?{_DE_IMP}\b|"
            rf"^(?:{_POLITE})?{_DE_IMP}\s+(?:\S+\s+){{0,3}}?(?:niemals|nie|nicht)\b",
            re.I,
        ),
        "Don't",
        "constraint",
        "de_dont",
    ),
    (
        # "immer noch der gleiche Fehler" (still the same error) is no rule
        re.compile(rf"^(?:{_POLITE})?immer\s+{_DE_IMP}\b|^(?:{_POLITE})?{_DE_IMP}\s+immer\b", re.I),
        "Always",
        "constraint",
        "de_always",
    ),
    (
        re.compile(r"^(?:merk dir|merke dir|denk daran|vergiss nicht)\b", re.I),
        "Remember",
        "fact",
        "de_remember",
    ),
    *EVERY_TIME_RULES,
    *TOPIC_RULES,
]
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
        re.compile(
            r"(?:^|\s)(?:eu\s+|yo\s+|je\s+|io\s+|ich\s+|я\s+)?(?:prefiro|prefiero|préfère|preferisco|"
            r"bevorzuge|предпочитаю)\s+(?:usar\s+|utilizar\s+|utiliser\s+|usare\s+|использовать\s+)?"
            rf"{_NOT_A_TOOL}{_TOOL2}\s+(?:a|ao|à|al|en\s+lugar\s+de|en\s+vez\s+de|em\s+vez\s+de|ao\s+invés\s+de|plutôt\s+que|"
            r"invece\s+di|rispetto\s+a|statt|anstatt|gegenüber|вместо|а\s+не)\s+(?:o\s+|el\s+|le\s+|l'|"
            rf"il\s+|dem\s+)?{_NOT_A_TOOL}{_TOOL2}"
            r"(?=\s*(?:[,.;!]|$)|\s+(?:para|pour|per|für|для|en|em|in|no|na|nel|dans|bei|porque|parce|perché|weil)\b)",
            re.I,
        ),
        "prefer_over",
    ),
    (
        re.compile(
            rf"(?:用|使用|改用)\s*{_TOOL}\s*(?:而不是|而非|不要用|别用|別用|代替|取代)\s*{_TOOL}"
        ),
        "zh_instead",
    ),
    # "还是用status（不是phase）": the contrast in brackets.
    (
        re.compile(rf"(?:用|使用|改用)\s*{_TOOL}\s*[（(]\s*(?:而不是|不是|不用){_TOOL}\s*[）)]"),
        "zh_instead",
    ),
    (
        re.compile(
            rf"(?:используй|используйте|ставь)\s+{_TOOL}\s*,?\s*(?:вместо|а не)\s+{_TOOL}", re.I
        ),
        "ru_instead",
    ),
    (
        re.compile(
            rf"\b(?:use|usa|usar|utilize)\s+{_TOOL}\s*,?\s*(?:em vez de|ao invés de|no lugar de|e não)\s+"
            rf"(?:o\s+|a\s+)?{_TOOL}",
            re.I,
        ),
        "pt_instead",
    ),
    (
        re.compile(
            rf"\b(?:utilise|utilisez|prends)\s+{_TOOL}\s*,?\s*(?:au lieu de|plutôt que|et pas)\s+"
            rf"(?:d'|de\s+)?{_TOOL}",
            re.I,
        ),
        "fr_instead",
    ),
    (
        re.compile(
            rf"\b(?:usa|usate|utilizza)\s+{_TOOL}\s*,?\s*(?:invece di|al posto di|e non)\s+"
            rf"(?:usare\s+)?{_TOOL}",
            re.I,
        ),
        "it_instead",
    ),
    (
        re.compile(
            rf"\b(?:usa|utiliza)\s+{_TOOL}\s*,?\s*(?:en lugar de|en vez de|y no)\s+{_TOOL}", re.I
        ),
        "es_instead",
    ),
    (
        re.compile(
            rf"\b(?:verwende|benutze|nutze)\s+{_TOOL}\s*,?\s*(?:statt|anstatt|anstelle von|nicht)\s+"
            rf"{_TOOL}",
            re.I,
        ),
        "de_instead",
    ),
    # "pnpm statt npm verwenden": the same, the verb last
    (
        re.compile(
            rf"^{_TOOL}\s+(?:statt|anstatt|anstelle von)\s+{_TOOL}\s+(?:verwenden|benutzen|nutzen)"
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
        re.compile(
            rf"^{_TOOL}\s*(?:대신(?:에)?|말고)\s*,?\s*{_TOOL}\s*(?:을|를)?\s*"
            r"(?:써|사용해|사용하세요|사용해\s*주세요|사용해\s*줘|써\s*주세요|써\s*줘|쓰자|씁시다|사용합시다|써라)"
            r"(?=\s*(?:[.!。,]|$))"
        ),
        "ko_instead",
    ),
    (
        re.compile(
            rf"^{_TOOL}\s*(?:ではなく|じゃなくて|じゃなく|でなく|の代わりに)\s*、?\s*{_TOOL}\s*(?:を|で)?\s*"
            r"(?:使って|使用して)(?:ください|下さい|ほしい(?:です)?)?(?=\s*(?:[。！.!,、]|$))"
        ),
        "ja_instead",
    ),
]
_TOPIC_SUBS = frozenset(sub for _, _, _, sub in TOPIC_RULES)
_MAX = 160
# A long statement (a pasted brief, plan, document or reply) is read at its first and last
# lines only: the rules inside a pasted system prompt or a task's requirements list are that
# document's, not the user's standing rules ("禁止泛词：…", "1. 不要改变现有系统设计").
_LONG_CHARS = 300
_LONG_LINES = 5


def non_english(text: str) -> bool:
    return bool(_NON_ENGLISH.search(text))


def _spoken(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(text) <= _LONG_CHARS and len(lines) <= _LONG_LINES:
        return text
    if len(lines) <= 1:
        # One long paragraph, typed: its first and last sentences frame it ("X 始终放在根目录。
        # 另外……？"); the middle is the task's detail or a passage quoted.
        said = [x for x in _SPLIT.split(text) if x and x.strip()]
        # (one run-on sentence is read for its clauses about the user only: see language_claims)
        return said[0] + "\n" + said[-1] if len(said) > 1 else text
    # (an indented last line continues a pasted list or plan: "- 案B：…⏎    フロントエンドは…")
    last = lines[-1] if not re.match(r"^(?:\s{2,}|\t)", lines[-1]) else ""
    return lines[0] + "\n" + last


def language_claims(text: str) -> list[Hit]:
    """(claim, kind, sub-rule) for the explicit-marker sentences of a non-English statement."""
    out: list[Hit] = []
    # A plain don't closing a longer request ("…crie um relatório md com os erros. NÃO USE
    # SUBAGENTS PARA AS COMPARAÇÕES.") bounds that request, as in English (standing.py: a
    # constraint among more than two sentences needs a standing marker of its own); said first,
    # with its reason after it, it is the point of the statement ("Não use português no código.
    # Imagine alguém lendo isso daqui a dez anos…").
    pieces = [x.strip(" \t,，、:：-") for x in _SPLIT.split(text) if x.strip()]
    request = len(pieces) > 2
    for raw in _SPLIT.split(_spoken(text)):
        sentence = raw.strip(" \t,，、:：-")
        if sentence.startswith("#") and not _LIST_OR_HEADING.match(sentence):
            sentence = sentence.lstrip("#")  # "#всегда …": Claude Code's memory-note prefix
        if not sentence or not _NON_ENGLISH.search(sentence):
            continue
        if _LIST_OR_HEADING.match(sentence):
            continue  # "- **记住你**：…", "## 禁止…": a document's item, not the user talking
        # A long run-on sentence (typed by voice, "…, eu uso o kitty com zsh, …") holds no rule
        # the markers can bound, but a clause about the user stands on its own.
        # (a sentence that opens by asking for the rule to be kept is read whole however long)
        asked = (
            _SAVE_THAT.match(sentence)
            or _SAVE_FIRST_LATIN.match(sentence)
            or _SAVE_FIRST.match(sentence)
            or _ADD_RULE_FIRST.match(sentence)
        )
        hit = _sentence(sentence) if len(sentence) <= _MAX or asked else _about_the_user(sentence)
        closing = request and sentence != pieces[0] and not _DURABLE.search(sentence)
        if hit and closing and hit[2] in _PLAIN:
            continue
        if hit:
            out.append(hit)
    return out


_LIST_OR_HEADING = re.compile(r"^\s*(?:#+\s|[-*•|>]|\d{1,2}[.)、]\s*(?:\*\*|#))")

# Words that bind a sentence to the task at hand ("this", "now", "here", "above", "ask me"):
# "不要停下来问我" (don't stop to ask me), "не трогай это сейчас" (don't touch this now) are
# instructions for this turn, not standing rules. "This project" is the default scope, not deixis.
_PROJECT_SCOPE = re.compile(
    r"这个项目|這個項目|这个仓库|這個倉庫|本项目|本項目|"
    r"(?:в\s+)?(?:этом|этот)\s+(?:проекте|проект|репозитории|репо)|"
    r"(?:neste|nesse|este|esse)\s+(?:projeto|repositório|repo)|(?:en\s+)?este\s+(?:proyecto|repositorio)|"
    r"(?:dans\s+)?ce\s+(?:projet|dépôt|repo)|(?:in\s+)?questo\s+(?:progetto|repository|repo)|"
    r"(?:in\s+)?(?:diesem|dieses)\s+(?:projekt|repository|repo)",
    re.I,
)
_TASK_DEIXIS = re.compile(
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
    r"à l'avenir|d'ora in poi|da ora in poi|d'ora in avanti|ab jetzt|ab sofort|künftig|zukünftig|"
    r"in zukunft|mulai sekarang|mulai saat ini|mulai dari sekarang|ke depannya|untuk seterusnya"
)
_FROM_NOW_RE = re.compile(_FROM_NOW, re.I)
# Words that make a plain "don't …" a standing rule: from now on, ever, every time, all.
# (Japanese 必ず and 絶対 are not among them: they stress a request, "絶対に実行しないで", whatever
# its scope; a topic with は makes it a rule, which lang_topic reads.)
_DURABLE = re.compile(
    _FROM_NOW + r"|永远|永遠|任何时候|任何時候|每次|一律|始终|始終|总是|總是|所有|全部|都不|都别|"
    r"再也|常に|いつも|毎回|二度と|항상|절대|언제나|매번|"
    r"(?<!\w)(?:всегда|никогда|каждый раз|ни в коем случае)(?!\w)|"
    r"\b(?:sempre|nunca|jamais|jamás|siempre|toujours|jamais|mai|immer|nie|niemals|cada vez|"
    r"à chaque fois|jedes mal|em nenhum caso|en ningún caso)\b",
    re.I,
)
# "Don't use <tool>": a tool named in code letters is a standing preference even unmarked.
_USE_TOOL = re.compile(
    rf"(?:不要用|不要使用|别用|別用|不用|не\s+используй(?:те)?|não\s+(?:use|usar|utilize)|"
    rf"no\s+(?:uses|usar|utilices)|n'utilise(?:z)?\s+(?:pas|jamais)|non\s+usare|"
    rf"(?:verwende|benutze|nutze)\s+(?:kein(?:e|en)?|nicht))\s*{_TOOL}",
    re.I,
)
# The plain imperatives that are mostly about the turn at hand ("不要改代码", "你不要创建文件了",
# "não mexa no header"): kept only with a durability word or a tool to avoid.
_PLAIN = frozenset(
    (
        "zh_dont",
        "ja_dont",
        "ko_dont",
        "ru_dont",
        "pt_dont",
        "fr_dont",
        "it_dont",
        "es_dont",
        "de_dont",
    )
)
# Chinese questions without a question mark: a final particle (before trailing figures or marks
# typed after it, "…提醒我嗎60%") or a question word.
_ZH_QUESTION = re.compile(
    r"(?:吗|嗎|呢|么|麼|嘛)[\s\d%.,，、~～]*$|如何|怎么|怎麼|怎样|怎樣|为什么|為什麼|什么|什麼|是否|会不会|會不會|"
    r"能不能|可不可以|要不要|有没有|有沒有|哪"
)


# Chunks of a sentence: its clauses, and in Chinese the runs a space sets apart ("不要降低品质
# 不能降低标准 一定要精雕细琢所有的细节" is three exhortations, not one rule about all details).
_CHUNK = re.compile(r"[,，;；]|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")


def _plain_kept(body: str, pattern: re.Pattern[str]) -> bool:
    """A plain don't is kept with a tool to avoid, or a durability word in its own chunk."""
    if _USE_TOOL.search(body):
        return True
    return any(
        pattern.search(c.strip()) and _DURABLE.search(c) for c in _CHUNK.split(body)
    ) or bool(_DURABLE.search(_CHUNK.split(body, 1)[0]) and pattern.search(body))


def task_bound(sentence: str) -> bool:
    return bool(_TASK_DEIXIS.search(_FROM_NOW_RE.sub(" ", _PROJECT_SCOPE.sub(" ", sentence))))


def _question(sentence: str, body: str) -> bool:
    if sentence.rstrip().endswith(("?", "？")):
        return True
    if _KANA.search(body):
        return bool(re.search(r"(?:か|かな|でしょうか|ますか)$", body))
    return bool(_CJK.search(body) and _ZH_QUESTION.search(body))


# "组长说过"永远不要…"，所以…": another person's words in quotes after a verb of saying — the user
# reports them (the English reader leaves quoted speech out too), and the rest is the task's
_QUOTED_SPEECH = re.compile(r"(?:说|說|讲|講|表示|提到|告诉我|告訴我)(?:过|過)?\s*[:：]?\s*[“\"「『]")


def _switch(sentence: str) -> Hit | None:
    """"用 X 代替 Y", "不要 Y，用 X": one tool chosen over another is "Use X, not Y"."""
    for pattern, sub in _INSTEAD:
        m = pattern.search(sentence)
        if m and m.group(1).lower() != m.group(2).lower():
            return f"Use {m.group(1)}, not {m.group(2)}", "preference", sub
    for pattern, sub in _INSTEAD_REJECTED_FIRST:
        m = pattern.search(sentence.strip())
        if m and m.group(1).lower() != m.group(2).lower():
            return f"Use {m.group(2)}, not {m.group(1)}", "preference", sub
    return None


def _answer_language(body: str) -> Hit | None:
    """"中文回答，然后…", "…，回复必须是中文，为什么老是输出其他语言": the language to talk in is a
    clause of its own, whatever the rest asks."""
    for clause in _HEAD.split(body):
        if _ANSWER_IN.fullmatch(clause.strip()):
            return f"Language: {clause.strip()}", "preference", "answer_language"
    return None


def _ruled(body: str, sentence: str, japanese: bool, facts_only: bool) -> Hit | None:
    """The first of the rule table's patterns that reads the sentence and is not skipped for it
    (a question keeps only facts)."""
    # An "always"/"never" rule is bound to the task only by its own clause: "всегда пиши кратко,
    # длинно только если это попросили" keeps a deictic word in its condition, not in the rule.
    head = _HEAD.split(body, 1)[0]
    bound_head = task_bound(head)
    bound = bound_head or task_bound(body)
    # "我现在想做一个…系统": what the user builds now is what they build, not the task's now
    now_only = bound_head and not task_bound(_NOW.sub(" ", head))
    for pattern, label, kind, sub in _RULES:
        if _rule_skipped(body, pattern, label, sub, japanese, bound, bound_head, now_only):
            continue
        if facts_only and label not in _FACT_LABELS:
            continue
        m = pattern.search(body)
        if not m:
            continue
        if label == "Remember":
            remembered = _remembered(body, sentence, japanese, sub)
            if remembered:
                return remembered
            continue
        if sub in _FACT_CLAUSE_SUBS:
            body = _fact_clause(body, m.end(), japanese, sub)
        return (f"{label}: {body}" if label else body), kind, sub
    return None


def _sentence(sentence: str) -> Hit | None:
    # "1.我之前是…": the number of the user's point, not part of what is said
    body = _POINT_NUMBER.sub("", sentence).rstrip("。.!！?？;；")
    if _QUOTED_SPEECH.search(body):
        return None
    facts_only = _question(sentence, body)
    asked_last = sentence.rstrip().endswith(("?", "？"))
    # "为什么不直接用 X 代替 Y 呢？" asks about a switch (or proposes one); it rules nothing
    hit = (None if facts_only else _switch(sentence)) or _answer_language(body)
    if hit:
        return hit
    if len(body) < 4:
        return None
    hit = _about_the_user(body, asked_last=asked_last)
    if hit:
        return hit
    if _ADD_RULE_FIRST.match(body) and not asked_last:
        # "md中再加一个规则，…输出什么位置…": asking for a rule is no question, whatever words follow
        return _memory_request(body)
    if facts_only:
        body = _before_the_asking(body)
        if not body:
            return None
    hit = None if facts_only else (_from_now_on(body) or _memory_request(body))
    if hit:
        return hit
    japanese = bool(_KANA.search(body))
    hit = _ruled(body, sentence, japanese, facts_only)
    if hit:
        return hit
    if facts_only:
        # "我们采用 X 作为框架，…深度思考如何更新设计": a choice said before a question word that
        # asks nothing of the user (no question mark) still stands; "vamos usar X, o que acha?"
        # offers it for approval, so a question mark keeps it out
        return None if asked_last else _choice(body)
    return _always_clause(body) or _choice(body) or (None if japanese else _dont_use(body))


# The facts whose claim is their own clause: "我用的是 X，帮我配置…" goes on to a task.
_FACT_CLAUSE_SUBS = frozenset(("i_use", "i_dont_use", "project_is", "account", "rename_project"))


def _rule_skipped(
    body: str,
    pattern: re.Pattern[str],
    label: str,
    sub: str,
    japanese: bool,
    bound: bool,
    bound_head: bool,
    now_only: bool,
) -> bool:
    """Whether a rule of the table may not speak for this sentence, before it is tried."""
    if japanese and sub.startswith("zh_"):
        return True  # 別 (other) in "別の人から…" is Japanese, not 别 (don't)
    if (bound_head and not (now_only and label == "Project")) or (
        bound and label not in _HEAD_BOUND
    ):
        return True
    return bool(
        (sub in _PLAIN and not _plain_kept(body, pattern))
        # "если нужно всегда можешь …": a condition, not a rule
        or (sub in ("must_always", "want_always") and _HEDGE.search(body))
        # "如果有空，测试都要先跑一遍": the topic-first rule holds on a condition
        or (sub in _TOPIC_SUBS and _HEDGE.search(body))
        # "хочу, чтобы ты всегда проверял это": the wish is said after the first comma
        or (sub == "want_always" and bound)
    )


def _fact_clause(body: str, end: int, japanese: bool, sub: str) -> str:
    """The fact a fact rule matched, cut to its own clause (what it is goes on for a project)."""
    rest = _HEAD.split(body[end:])
    if japanese:
        # "nvimを使っているのですが、…できなくなりました": the fact ends where "but …"
        # turns to the problem (、 also lists things in Chinese, so only in Japanese)
        rest[0] = _JA_BUT.sub("", rest[0].split("、", 1)[0])
    fact = body[:end] + rest[0].rstrip()
    if sub == "project_is":  # "…系统，这个系统可以…，内容以…为主": what it is, fact on
        for clause in rest[1:]:
            if not _GOES_ON.match(clause.strip()) or len(fact) > 120:
                break
            fact += "，" + clause.strip()
    return fact


def _choice(body: str) -> Hit | None:
    """A choice made (lang_choice.py), unless the sentence points at the task at hand ("vamos
    usar Docker aqui", "будем использовать curl, чтобы проверить это")."""
    return None if task_bound(body) else choice(body)


# The always/never entries whose marker opens a clause: "Documente o que falta, sempre teste com
# vitest" holds a standing rule in its second clause, as "…，始终用中文回复" and "…, никогда не
# пушь в main" do. Only these: a plain don't in a later clause is mostly the task's.
_CLAUSE_RULES = frozenset(
    (
        "zh_never",
        "zh_always",
        "ja_never",
        "ko_always",
        "ko_never",
        "ru_never",
        "ru_always",
        "pt_never",
        "pt_always",
        "id_never",
        "id_always",
        "fr_never",
        "fr_always",
        "it_never",
        "it_always",
        "es_always",
        "es_never",
        "de_always",
    )
)
_AND = re.compile(
    r"^(?:(?:e|y|et|und|и|а|mas|pero|mais|ma|aber|но)\s+|(?:并且|並且|而且|但是|另外)\s*)", re.I
)
_CLAUSE_CUT = re.compile(r"[,，;；(（)）]|\s[-–—]\s")


# A first clause that says when, where or unless the rule after it holds: "如果是生产环境，永远不要…",
# "除了脚本目录，…", "si es producción, nunca …", "если это прод, никогда …", "em produção, sempre …".
# Cut off, the rule holds everywhere (the user allowed the rest).
_CONDITION_HEAD = re.compile(
    r"^(?:如果|假如|要是|除了|除非|当|當|在|对于|對於|もし|만약|"
    r"(?:si|excepto|salvo|cuando|durante|en|se|exceto|quando|em|no|na|nos|nas|sauf|quand|pendant|dans|"
    r"tranne|wenn|falls|außer|ausser|bei|während|im|если|кроме|при|когда|в|на|jika|kalau|kecuali|saat)"
    r"(?!\w))",
    re.I,
)


def _always_clause(body: str) -> Hit | None:
    """An always/never rule said as a later clause of a sentence (the first clause is the
    sentence's own, read by the rules above); a short condition said first goes with it."""
    pieces = _CLAUSE_CUT.split(body)
    head = pieces[0].strip()
    for n, clause in enumerate(pieces[1:], start=1):
        clause = _AND.sub("", clause.strip())
        if len(clause) < 6 or task_bound(clause) or _HEDGE.search(clause):
            continue
        for pattern, label, kind, sub in _RULES:
            if sub in _CLAUSE_RULES and pattern.search(clause):
                if n == 1 and _CONDITION_HEAD.match(head) and len(head) <= 30:
                    return f"{label}: {body[: body.find(clause) + len(clause)]}", kind, sub
                return f"{label}: {clause}", kind, sub
    return None


# "…，注意使用node_modules里的jest，不要用npm run test", "使用AppleScript重构，不再使用Swift": a
# tool not to use (any more), said as a clause of its own that ends with the tool's name — a
# clause going on after the name ("不要用test页面", "不要用 lastMsgTime 代理") names a thing of the
# task, not a tool; so does a name with an underscore ("不再使用 requires_skill_data", a field of
# the code in a pasted diff). A deictic word elsewhere in the sentence is the task's ("这个命令的-u
# 不好用").
_DONT_USE_CLAUSE = re.compile(
    r"^(?:注意|记得|記得|并且|並且|但是|另外|以后|以後|你)?\s*(?:不要|别|別|不再|不要再|别再|別再)"
    rf"(?:用|使用)\s*(?![\w.@/+#-]*_){_TOOL2}(?:\s+[A-Za-z][\w.:-]*){{0,3}}\s*(?:了)?$"
)


def _dont_use(body: str) -> Hit | None:
    for clause in _HEAD.split(body):
        clause = clause.strip()
        if _DONT_USE_CLAUSE.match(clause) and not task_bound(clause):
            return f"Don't: {clause}", "constraint", "dont_use_tool"
    return None


_NOW = re.compile(
    r"现在|現在|目前|当前|當前|현재|지금|(?<!\w)сейчас(?!\w)|\b(?:agora|ahora|maintenant|jetzt|adesso|ora)\b",
    re.I,
)
# Where a run-on goes on to the next thing to do ("… e depois veja …", "…然后帮我…").
_NEXT_THOUGHT = re.compile(
    r"\s+(?:e\s+(?:depois|então|veja|verifique)|y\s+(?:luego|después|mira|revisa)|et\s+(?:puis|ensuite)|"
    r"und\s+(?:dann|danach)|и\s+(?:потом|затем|посмотри)|e\s+poi)\b|然后|然後|并且|並且|但是",
    re.I,
)
# The tools named on after a stack part's first one ("React + Vite", "FastAPI和PostgreSQL").
_STACK_END = re.compile(
    r"(?:\s+\d[\w.]*)?(?:\s*(?:[+/、,，&]|和|与|與|и|e|y|et|und|and|with|com|con|mit|で|を使って)\s*"
    r"[A-Za-z][\w.+#/-]*(?:\s+\d[\w.]*)?)*"
)
_WORD_REST = re.compile(r"\S*")
_VENTING = re.compile(r"[啊呀啦嘛哇]$|!|！")


def _before_the_asking(body: str) -> str:
    """ "我们要做一个…系统，知道了吗", "我用的是 X，怎么配置?": a fact said before the question still
    stands; the clauses before the first one asking ("" when the first clause asks)."""
    said = []
    for clause in _HEAD.split(body)[:-1]:  # the last clause is the one asking
        if _question(clause, clause.strip()):
            break
        said.append(clause)
    return "，".join(said)


_CONCESSION = re.compile(
    r"\s+(?:(?:auch|selbst)\s+wenn|mesmo\s+que|aunque|même\s+si|anche\s+se|даже\s+если)\b.*$", re.I
)


def _preferred(clause: str, pattern: re.Pattern[str]) -> str:
    m = pattern.search(clause)
    start = m.start() if m else 0
    return _CONCESSION.sub("", clause[start:]).strip()


def _about_the_user(body: str, asked_last: bool = False) -> Hit | None:
    """Who the user is or what they work on, said in a clause of its own: "…，我是个编程小白，
    让我看懂" keeps the middle clause; a question or a task after it is another clause.
    asked_last: the sentence ended with a question mark, so its last clause is the asking one
    ("Esse projeto usa Next.js?")."""
    clauses = _HEAD.split(body)
    for i, clause in enumerate(clauses):
        clause = clause.strip()
        if asked_last and i == len(clauses) - 1:
            return None
        for pattern, label, kind, sub in USER_RULES:
            if not pattern.search(clause):
                continue
            # "现在安装了 X", "현재 X 설치했어": the tools installed are there now, and stay
            said = _NOW.sub(" ", clause) if label in ("Installed", "Has") else clause
            if label == "Prefers":  # "por isso eu prefiro usar X": from the user's words on, and
                # up to a concession ("…Ansatz, auch wenn es mehr Aufwand ist")
                said = clause = _preferred(clause, pattern)
            elif label == "Name":  # "…内 Lastname 인 Dallenger 를 페이지에 추가하자": the name only
                named = pattern.search(clause)
                said = clause = clause[named.start() : named.end()].strip() if named else clause
            if (
                label == "Location"
            ):  # "…は ../api であり、必要ならこれを参照して": the place, said first
                said = clause[: pattern.search(clause).end()]  # type: ignore[union-attr]
                clause = said
            if task_bound(said) or _HEDGE.search(clause) or _question(clause, clause):
                return None
            if _VENTING.search(clause):
                return None  # "我是小白啊，我不会啊": a sigh over the task at hand
            m = pattern.search(clause)
            assert m is not None
            if label in ("User", "Uses"):
                # "…帮我创建一个skills 我是一个投资经理", "… configure meu wezterm com fish e depois
                # veja …": from the user's words on, up to the run-on's next thing to do
                clause = _NEXT_THOUGHT.split(clause[m.start() :], 1)[0].strip()
            elif label == "Stack":
                # "前端用React写一个登录页": the part and its tools, not the task done with them
                clause = clause[: _STACK_END.match(clause, m.end()).end()]  # type: ignore[union-attr]
            elif label == "Installed":
                # "codex cli는 이미 설치되어있음 omc로 확인해줘": up to the end of its verb
                rest = _WORD_REST.match(clause, m.end())
                clause = clause[: rest.end() if rest else m.end()]
            if label == "User" and _negated(clause, body):
                label = "User (not)"
            return f"{label}: {clause}", kind, sub
    return None


def _remembered(body: str, sentence: str, japanese: bool, sub: str) -> Hit | None:
    """The claim of a "remember …" sentence: the marker says it already ("Remember: <what>"),
    and what is remembered may itself be a rule. None: nothing said to keep."""
    what = _REMEMBER_WORD.sub("", body, count=1).strip() or body
    what = _JA_REMEMBER_TAIL.sub("", what).strip() or what
    if len(what) < 5:
        return None  # nothing said to keep
    if _SITUATION_KEPT.match(what) and not _HABIT_LATIN.search(what):
        return None  # "não esqueça, o pior problema é …", "lembre-se que precisamos …": this work's
    if _REMIND_TO.match(body) and not _HABIT_LATIN.search(what):
        # "lembre-se de verificar o console", "n'oublie pas de relancer le build": a step of this
        # work recalled, as English "remember to …" (dispatch.REMIND) unless said as a habit
        return None
    inner = _sentence(what) if what != sentence else None
    # "记住往后回复都用中文", "lembre que usamos pnpm": what is remembered is itself a rule
    if inner:
        return inner
    if len(what.split()) < 3 and not (_CJK.search(what) or _KANA.search(what)):
        return None  # "запомни пароль": what is to be kept is not said
    if japanese and _JA_NOT_DOING.search(what):  # "…しないことを覚えて"
        return f"Don't: {what}", "constraint", sub
    if _remembered_rule(what, body) and not _REMEMBERED_FACT.match(what):
        # "запомни: не трогай папку legacy", "记住：提交信息用英文写": what is kept is a rule
        # (an imperative, a modal), so the kind is the rule's and a negation is said in English
        if _negated(what, body):
            return f"Don't: {what}", "constraint", sub
        return f"Remember: {what}", "constraint", sub
    return f"Remember: {what}", "fact", sub


# "以后回复都用中文", "a partir de agora, sempre rode os testes", "ab jetzt bitte immer …": a rule
# said to hold from now on. Read from the marker (at the start of the sentence or of a clause) to
# the end of the sentence; what comes before ("这次不需要…，以后都不…") is the task at hand.
_FROM_NOW_START = re.compile(
    # (after a Japanese "、" only a marker said as the topic: "了解、今後は…"; "…、今後どのような…" asks)
    rf"(?:^|[，,；;:：]\s*|、\s*(?=今後[はも]|これからは|以降は|今度から))(?:我的意思是?|我的意思)?(?:(?:你|我们|我們|请|請|и|e|y|et|und|bitte|por favor)\s*,?\s*)?"
    rf"(?P<marker>{_FROM_NOW})(?P<rest>.*)$",
    re.I,
)
# After the marker, a rule: a modal, an imperative, "every time", "always", a negation.
# After the marker, a rule: a modal, an imperative, "every time", "always". A bare negation is
# not one in the languages of Latin and Cyrillic script: "de ahora en adelante no hay errores",
# "ab jetzt funktioniert nicht…", "впредь не было ошибок" report how things are.
_RULE_AFTER = re.compile(
    r"都|要|必须|必須|请|請|不要|别|別|不|只|一律|统一|統一|默认|默認|"
    r"ください|して|しない|しないで|使って|常に|必ず|"
    r"세요|해|하지|마|줘|"
    rf"先|(?<!\w)(?:всегда|никогда|только|сначала|можешь|нужно|надо|должен|должны|не\s+{_RU_IMP}|"
    r"используй\w*|пиши\w*|делай\w*|отвечай\w*|ставь\w*|запускай\w*|добавляй\w*)(?!\w)|"
    rf"\b(?:{_PT_IMP}|{_ES_IMP}|{_FR_IMP}|{_DE_IMP}|{_IT_IMP})\b|"
    r"\b(?:sempre|nunca|siempre|toujours|jamais|immer|nie|niemals|kein|keine|keinen|mai|bitte|"
    r"quiero|quero|voglio|möchte|will|solo|só|seulement|nur|utiliza|responde|escribe|escreva|"
    r"debe|deben|deve|devem|doit|doivent|muss|müssen|tienes que|tem que|il faut)\b|je veux|"
    r"je voudrais|хочу|"
    r"\b(?:gunakan|pakai|pake|jangan|selalu|harus|tolong|jawab|balas|tulis|jalankan|buat)\b|"
    r"(?:me\s+)?(?:hables|fales|respondas|escribas|escrevas)\b",
    re.I,
)
_NEGATION = re.compile(
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
_NO = re.compile(r"\bno\b", re.I)
# The two look-aheads below are matched right after a "no" (never after a blank); the
# (?<![ \t]) keeps a search from trying them at each blank of a long run, which scans the rest
# of the run from every one (quadratic).
_NO_BEFORE_PLACE = re.compile(
    r"(?<![ \t])[ \t]+(?:(?-i:[A-Z_.~/\ue000])|(?:inicio|início|final|fim|topo|"
    r"começo|meio|lugar|caso|momento|projeto|arquivo|código|codigo|repositório|repositorio|diretório|"
    r"diretorio|terminal|servidor|chat|harness|site|app|git|github|banco|navegador|contexto)\b)",
    re.I,
)
_PT_ONLY = re.compile(
    r"ção|ções|ões|[ãõç]|\b(?:não|você|vocês|um|uma|uns|umas|em|com|do|dos|das|os|ao|aos|pelo|pela|"
    r"pelos|pelas|isso|isto|também|então|agora|depois|seu|sua|meu|minha|nosso|nossa|é|são)\b",
    re.I,
)
_ES_ONLY = re.compile(
    r"[ñ¿¡]|\b(?:el|los|las|del|al|y|con|es|pero|muy|siempre|ahora|también|hay|tú|usted|eso|esto)\b",
    re.I,
)
# where a clause opens: the text's start, punctuation, a conjunction or "please"
_CLAUSE_OPEN = re.compile(
    r"(?:[,;:.!?，；：。(]|\b(?:y|e|pero|mas|que|por\s+favor|please|porfa))$", re.I
)


# Spanish words that follow a negating "no" and never the Portuguese "no" (em + o): a clitic, an
# article or a preposition of a negated part ("no lo toques", "no en inglés"), "no hay", "no es".
_NO_SPANISH_NEXT = re.compile(
    r"(?<![ \t])[ \t]+(?:(?:en|el|los|las|la|lo|le|les|me|te|se|más|muy|tan|hay|es|son)\b|\w+(?:es|as)\b)",
    re.I,
)


def _no_negates(text: str, context: str | None = None) -> bool:
    """Whether a "no" in the text is a negation (Spanish, English) and not the Portuguese
    preposition "no" (em + o). context: the whole sentence the text is part of, whose words say
    its language (the text may be a clause of it)."""
    whole = context or text
    spanish = bool(_ES_ONLY.search(whole))
    portuguese = not spanish and bool(_PT_ONLY.search(whole))
    for m in _NO.finditer(text):
        if _NO_SPANISH_NEXT.match(text, m.end()):
            return True
        if portuguese or _NO_BEFORE_PLACE.match(text, m.end()):
            continue
        before = text[max(0, m.start() - 40) : m.start()].rstrip()[-12:]  # the words just before
        if spanish or not before or _CLAUSE_OPEN.search(before):
            return True
    return False


def _negated(text: str, context: str | None = None) -> bool:
    """A negation word in the text, in any of the languages read ("no" by its grammar; context:
    the sentence the text is part of)."""
    return bool(_NEGATION.search(text)) or _no_negates(text, context)


# What makes a remembered thing a rule rather than a fact: a modal, an imperative, a ban
# ("надо запускать через make", "коммиты пиши на английском", "英語で書いてください").
_REMEMBERED_RULE = re.compile(
    _RULE_AFTER.pattern + r"|(?:用|使用)\S{1,12}(?:写|寫|回复|回覆|回答|提交|命名)|"
    rf"(?<!\w)(?:нельзя|не\s+\w+{_RU_IMP_END})(?!\w)|\b(?:não|non|ne|nicht)\s+\w+",
    re.I,
)


# matched where a "no" ends, in place (not on a copy of the rest of the text per "no"); never
# from a blank after a blank, so a search is linear on a run of blanks too
_BLANK_WORD = re.compile(r"(?<!\s)\s+\w")


def _remembered_rule(what: str, context: str) -> bool:
    """A remembered thing said as a rule: a modal, an imperative, a ban ("no" + a word only where
    it negates: "lembre que o deploy fica no Render" is a fact)."""
    if _REMEMBERED_RULE.search(what):
        return True
    followed = any(_BLANK_WORD.match(what, m.end()) for m in _NO.finditer(what))
    return followed and _no_negates(what, context)


# A remembered fact said in the first person ("我们的服务器在阿里云上", "мы деплоим через docker").
_REMEMBERED_FACT = re.compile(
    r"^(?:我们|我們|我的|我|私は|私の|僕|うちは|(?:мы|я|у нас|у меня|eu|nós|yo|nosotros|wir|ich|nous|je|noi|io)(?!\w))"
    r"(?!.*(?:要|必须|必須|不要|别|別|нужно|надо|должн|devo|debo|muss|dois|devi))",
    re.I,
)

# "以后我可能需要…", "以后如果…": a maybe or a condition about the future, not a rule.
_HEDGE = re.compile(
    r"可能|也许|也許|或许|或許|如果|要是|假如|(?<!后续)(?<!後續)的话|(?<!后续)(?<!後續)的話|かもしれ|もし|만약|"
    r"(?<!\w)(?:может быть|возможно|если)(?!\w)|\b(?:talvez|quizás|tal vez|peut-être|vielleicht|"
    r"forse|si|wenn|falls)\b",
    re.I,
)


# What makes a bare Japanese 今後 "later": a reason, a time or a purpose of this change follows
_JA_PLAN = re.compile(r"ので|ときに|時に|たら|ように|予定")


def _from_now_on(body: str) -> Hit | None:
    m = _FROM_NOW_START.search(body)
    if not m:
        return None
    rest = m.group("rest").strip(" ,，:：")
    said = body[m.start("marker") :].strip()
    later = m.group("marker") == "今後" and not m.group("rest").startswith(("は", "も"))
    if later and _KANA.search(body) and _JA_PLAN.search(m.group("rest")):
        # Japanese 今後 with no は/も is "later, in future" ("今後、値をenvに書くので…",
        # "今後APIを追加したときに…ように"): a plan or a purpose of this change; 今後は/今後も is
        # "from now on". (Traditional Chinese 今後 is "from now on" either way.)
        return None
    if len(rest) < 6 or not _RULE_AFTER.search(rest) or task_bound(said) or _HEDGE.search(said):
        return None
    if _negated(rest, said):
        return f"From now on, don't: {said}", "constraint", "from_now_on"
    return f"From now on: {said}", "preference", "from_now_on"


_HEAD = re.compile(r"[,，;；]")
# Rules whose claim stands in the sentence's first clause: a deictic word further on ("我一直用
# vim，这个文件帮我改一下") belongs to the task that follows, not to the rule or fact.
_HEAD_BOUND = frozenset(
    ("Always", "Never", "Uses", "Does not use", "Environment", "Project", "Account", "Renamed")
)
# A clause that goes on describing the thing just named ("这个系统可以…", "内容主要以…为主").
_GOES_ON = re.compile(
    r"^(?:这个|這個|该|該|此|这款|這款)(?:系统|系統|网站|網站|应用|應用|平台|工具|项目|項目|app)|"
    r"^(?:它|内容|內容|主要|面向|针对|針對|用户|用戶|数据|數據)(?!.*(?:吗|嗎|呢|？|\?))",
    re.I,
)
_JA_BUT = re.compile(r"(?:のですが|んですが|んだけど|のだけど|けれども|けれど|けど|が)$")
_FACT_LABELS = frozenset(("Uses", "Does not use", "Environment", "Project", "Account"))
_POINT_NUMBER = re.compile(r"^\s*\d{1,2}\s*[.、)）]\s*(?=\S)")
_JA_REMEMBER_TAIL = re.compile(r"(?:ことを|ことは|と|を)覚えて(?:おいて|て)(?:ください|ね)?$")
_JA_NOT_DOING = re.compile(r"(?:しない|しません|使わない|使いません|禁止)$")
# The language to talk in, said as a clause of its own: "中文回答", "给我中文回复", "用中文讲给我",
# "回复用中文", "中文交互". Not "中文输出到 docs/": a document's language is the task's.
_ZH_LANG = r"(?:中文|简体中文|簡體中文|繁體中文|繁体中文|汉语|漢語|普通话)"
_ZH_TALK = r"(?:回答|回复|回覆|答复|答覆|交流|交互|對話|对话|讲|講|解释|解釋|说|說|沟通|溝通)"
_ANSWER_IN = re.compile(
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
# "…，写到Claude.md中", "сохрани это в постоянную память": the user asks for the rest of the
# sentence to be kept. The rule is the other clauses, with the asking (and "记住") taken out.
_SAVE_TO_MEMORY = re.compile(
    r"(?:写到|写入|寫入|写进|寫進|更新到|加到|加入|记录到|記錄到|记到|記到|记进|記進|存到|存入|保存到)\s*(?:全局|项目|項目)?\s*"
    r"(?:claude\.md|全局\s*md|md\s*文件|记忆|記憶|memory)(?:中|里|裡|文件)?|"
    r"(?<!\w)(?:сохран\w*|запиш\w*|добав\w*)\s+(?:это\s+)?(?:себе\s+)?в\s+"
    r"(?:постоянную\s+|долгосрочную\s+)?(?:память|claude\.md)|"
    r"\b(?:guarda|guárdalo|salva|salve|speichere|enregistre)\b[^,，]{0,20}?\b(?:memoria|memória|"
    r"gedächtnis|mémoire|claude\.md)\b|"
    # the asking said last, as its own clause: "…，把这一条规则记住", "…，记住这条"
    r"(?<=[，,])\s*(?:请|請)?(?:把|将|將)?(?:这|這)(?:一)?(?:条|條)(?:规则|規則)?(?:记住|記住|记下来|記下來)$|"
    r"(?<=[，,])\s*(?:请|請)?(?:记住|記住)(?:这|這)(?:一)?(?:条|條)(?:规则|規則)?$",
    re.I,
)
# What follows the asking to keep ("…加入记忆中 wsl下直接用 mv", "сохрани в память, что …") is the
# rule, unless it is the reason or the next step ("记录到记忆，方便其他对话理解", "…, потом …").
_SAVE_REASON = re.compile(
    r"^(?:方便|以便|便于|便於|这样|這樣|让|讓|以免|免得|下次|然后|然後|并|並|再|我(?:在|开|開|去)|"
    r"потом|затем|чтобы|и\s+(?:потом|дальше)|depois|para\s+que|luego|pour\s+que|puis|poi|dann)",
    re.I,
)
# What sets the rule said after the asking apart from it: a space or a colon, or "that" ("сохрани
# в память, что …"); after a bare comma the sentence goes on about the task ("更新到项目md文件，
# 尽量…" is how to write it, "写入记忆的颗粒度" a noun phrase).
_SAVE_GAP = re.compile(
    r"\s*[,，]?\s+(?:что|que|that|dass|che)\s+|\s+|\s*[：:]\s*|\s*[,，]\s*(?:что|que|that|dass|che)\s+",
    re.I,
)
# Asking first for a rule to be added, the rule after it: "md中再加一个规则，涉及到输出文件…",
# "把以下信息添加在md文件中：…", "добавь в CLAUDE.md правило: …", "CLAUDE.md에 추가해줘: …".
_ADD_RULE_FIRST = re.compile(
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
_SAVE_AROUND = re.compile(
    r"(?:claude\.md|agents\.md|gemini\.md|メモリー?|記憶|グローバルルール)\s*(?:ファイル)?に[、,]?\s*"
    r"(?P<ja>[^。]{4,80}?)(?:という|との|って|と)(?:ルール|こと|方針|内容|指示)?を?\s*"
    r"(?:設置|追加|追記|記載|記述|書い|書き込ん|書き込み|設定|入れ|保存|記録)|"
    r"(?:claude\.md|agents\.md|메모리|기억)에\s*(?P<ko>[^.。]{4,80}?(?:라고|이라고|다고|라는|는))\s*"
    r"(?:규칙을\s*)?(?:추가|작성|적어|기록|저장|넣어)",
    re.I,
)
_SAVE_FIRST = re.compile(
    r"^(?:请|請)?(?:修改|更新|改一下|改|在)\s*(?:全局|项目|項目)?\s*(?:的)?\s*claude\.md\s*(?:中|里|裡|文件)?"
    r"\s*(?:加上|添加|写上|寫上|加入|写入|寫入)?[:：，,\s]*",
    re.I,
)
# "Modifie le claude.md pour utiliser trash au lieu de rm -rf", "ajoute à la mémoire de ce projet
# pour lui dire que…", "adicione na memória que…", "aggiungi al CLAUDE.md che…": the same asking
# first, in the languages of Latin script; what follows "to tell it (that)" is the rule itself.
_SAVE_FIRST_LATIN = re.compile(
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
_MEMORY_NOT_A_RULE = re.compile(r"^\s*\d{1,2}[.)、]|一下|帮我|幫我|总结|總結|把(?:以上|上面|这|這)")
_MEMORY_FILLER = re.compile(r"^(?:记住|記住|记得|記得|запомни(?:те)?|и|e|y|und|et)?$", re.I)


# More ways to ask first, the rule after "that" or a colon: "Anote no CLAUDE.md que usamos X",
# "Mémorise que …", "Speichere in deinem Gedächtnis, dass …", "Schreib in die CLAUDE.md, dass …";
# Japanese and Korean naming the memory first and the rule after a colon ("メモリに保存して：…",
# "메모리에 저장해줘: …"). A note verb needs its target ("Note que o build falhou" is "notice").
_SAVE_THAT = re.compile(
    r"^(?:(?:anote|anota|guarde|guarda|salve|salva|registre|registra|note|notez|speichere|speicher|"
    r"schreib|schreibe|notiere|trag|trage)\s+(?:(?:na|no|en|dans|in|nella|nel|ao|al|à|a|im)\s+)?"
    r"(?:(?:la|le|l'|o|a|el|il|die|das|den|deine|dein|deinem|deiner|ta|sua|tua)\s*)?"
    r"(?:claude\.md|memória|memoria|mémoire|gedächtnis|speicher)(?:\s+ein)?|"
    r"(?:mémorise|mémorisez|memorizza|memorize|memoriza))\s*,?\s*(?:que|qu'|che|dass)\s*(?=\S)|"
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
    after = [c.strip() for c in _HEAD.split(body[asked.end() :]) if c.strip()]
    rules: list[str] = []
    for clause in after:
        if task_bound(clause):
            break
        rules.append(clause)
    rule = "，".join(rules)
    reads_as_rule = len(rule) >= 6 and _RULE_AFTER.search(rule)
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
    kept = [c.strip() for c in _HEAD.split(before) if c.strip() and not _SAVE_TO_MEMORY.search(c)]
    kept = [c for c in kept if not _MEMORY_FILLER.match(c)]
    if not kept or _MEMORY_NOT_A_RULE.search(before) or not _RULE_AFTER.search(before):
        return None
    kept = [re.sub(r"^(?:记得|記得)", "", _REMEMBER_WORD.sub("", c, count=1)).strip() for c in kept]
    rule = ("，" if _CJK.search(body) else ", ").join(c for c in kept if c)
    if len(rule) < 6 or task_bound(rule):
        return None  # "把这个规则写入全局md": what the rule is was said in another turn
    return _kept_rule(rule)


# The shapes of asking to keep a rule, in the order they are tried: how each finds its asking,
# and how it reads the rule from the message once found. The first that finds one decides.
_ASKINGS: tuple[
    tuple[Callable[[str], re.Match[str] | None], Callable[[str, re.Match[str]], Hit | None]], ...
] = (
    (_SAVE_THAT.match, _told_after),
    (_SAVE_FIRST_LATIN.match, _after_latin_asking),
    (_ADD_RULE_FIRST.match, _told_after),  # the asking names the rule as one ("加一个规则")
    (_SAVE_AROUND.search, _rule_between),
    (_SAVE_FIRST.match, _rule_after_file),
    (_SAVE_TO_MEMORY.search, _rule_around_save),
)


def _memory_request(body: str) -> Hit | None:
    """The rule a message asks to keep in memory, read by the first shape of asking it has."""
    for find, read in _ASKINGS:
        asked = find(body)
        if asked:
            return read(body, asked)
    return None


# A clause that opens a new point ("另外…", "还有…"): the rule to keep ended before it.
_NEW_POINT = re.compile(r"^(?:另外|此外|还有|還有|然后|然後|顺便|順便)")


def _kept_after(rest: str, told: bool) -> Hit | None:
    """The rule said after a Latin-script asking to keep it, up to a clause about this turn."""
    rules: list[str] = []
    for clause in _HEAD.split(rest):
        if task_bound(clause) or (rules and _NEW_POINT.match(clause.strip())):
            break
        rules.append(clause.strip())
    rule = ("，" if _CJK.search(rest) else ", ").join(r for r in rules if r)
    if len(rule) < 6 or _MEMORY_NOT_A_RULE.search(rule) or not (told or _RULE_AFTER.search(rule)):
        return None
    return _kept_rule(rule)


def _kept_rule(rule: str) -> Hit:
    """A rule the user asks to keep; a negated one says so in English too ("不要用npm，写到
    CLAUDE.md" is Don't: 不要用npm)."""
    if _negated(rule):
        return f"Don't: {rule}", "preference", "memory_request"
    return f"Remember: {rule}", "preference", "memory_request"


# Kana: a sentence with them is Japanese, whose kanji the Chinese markers would misread.
_KANA = re.compile(r"[\u3040-\u30ff]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
# "Remember to <verb>" in the languages of Latin script: the marker, then "de"/"di" and a verb.
_REMIND_TO = re.compile(
    r"^(?:lembre(?:-se)?|lembra(?:-se)?|n[ãa]o\s+(?:se\s+)?esque[çc]a|recuerda|acuérdate|"
    r"no\s+olvides|n'oublie\s+pas|rappelle-toi|souviens-toi|ricorda(?:ti)?|non\s+dimenticare)"
    r"[\s,]+(?:de|di|d')(?:\s+|(?<=d'))(?!(?:que|che)\b)",
    re.I,
)
# Words that make a recalled step a habit: every time, always, before each commit, from now on.
_HABIT_LATIN = re.compile(
    r"\b(?:sempre|siempre|toujours|nunca|jamais|jamás|mai|cada|chaque|ogni|toda\s+vez|todas\s+as\s+vezes|"
    r"todo\s+commit|antes\s+de|avant\s+de|prima\s+di|depois\s+de|después\s+de|après|dopo|"
    r"a\s+partir\s+de\s+agora|de\s+agora\s+em\s+diante|de\s+ahora\s+en\s+adelante|désormais|"
    r"d'ora\s+in\s+poi|no\s+futuro|en\s+el\s+futuro|à\s+l'avenir|in\s+futuro)\b",
    re.I,
)
# What is recalled is the situation of this work: what we need to do now ("precisamos fazer um
# clean install"), the problem at hand ("o pior problema é …"), what was said or done earlier in
# this conversation ("do que eu disse", "eu concordei com a edição anterior").
_SITUATION_KEPT = re.compile(
    r"^(?:(?:que|do\s+que|lo\s+que|ce\s+que|quello\s+che)\s+)?(?:"
    r"precisamos|temos\s+(?:que|de)|necesitamos|tenemos\s+que|nous\s+devons|dobbiamo|"
    r"(?:o|a|el|la|le|il)\s+(?:(?:pior|maior|principal|peor|mayor|pire|plus\s+grand|peggior[ei]|"
    r"grande)\s+)?(?:problema|problème|erro|error|erreur|errore|bug)\s+(?:é|es|est|è)\b|"
    r"(?:eu\s+|yo\s+|je\s+|io\s+)?(?:disse|falei|expliquei|dije|expliqué|ai\s+dit|ho\s+detto)\b|"
    r"eu\s+\w+ei\b|"
    r".*\b(?:anterior|précédente?|precedente)\b)",
    re.I,
)
_REMEMBER_WORD = re.compile(
    r"^(?:请|請)?(?:记住|記住|记得|記得|запомни(?:те)?|имей(?:те)? в виду|lembre-se|lembre|lembra|"
    r"não esqueça|n[ãa]o se esque[çc]a|souviens-toi|souvenez-vous|rappelle-toi|retiens|n'oublie pas|ricorda(?:ti)?|"
    r"tieni a mente|recuerda|recuérdalo|ten en cuenta|merke? dir|denk daran|vergiss nicht|"
    r"(?:꼭\s*)?기억해(?:\s*줘|\s*주세요|\s*둬|\s*두세요)?|(?:これを)?覚えて(?:おいて|て)?(?:ください|ね)?)"
    r"(?:[\s,，]+(?:que|che|dass|что|de|di)(?!\w))?[\s:：,，-]*",
    re.I,
)
