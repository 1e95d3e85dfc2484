"""The vocabulary the non-English rules share: the imperatives of each language (the verb forms
an instruction takes), the words of politeness and of "from now on" said before one, what a
tool's name looks like (`TOOL`), operating systems, the things of the code a language is chosen
for; and `non_english`, which says whether a statement is read by these rules at all."""

from __future__ import annotations

import re

from agent_memory.redact.regex import LazyCompiler

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

Hit = tuple[str, str, str]


ES_IMP = (
    r"(?:uses|usar|hagas|hacer|agregues|añadas|modifiques|toques|borres|elimines|escribas|crees|"
    r"instales|cambies|pongas|subas)"
)
# Spanish imperatives and infinitives of an instruction ("usa", "ejecutar").
ES_DO = (
    r"(?:usa|utiliza|haz|escribe|responde|ejecuta|corre|pon|añade|agrega|revisa|verifica|pregunta|"
    r"crea|comprueba|usar|utilizar|hacer|escribir|responder|ejecutar|poner|añadir|agregar|revisar|"
    r"verificar|preguntar|crear|comprobar)"
)


NON_ENGLISH = _lazy(
    r"[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]|[àâãáçéèêëíîïóôõöúùûüñß]|"
    # Vietnamese letters; a reply language named alone ("parla italiano", "odpowiadaj po polsku")
    r"[\u1ea0-\u1ef9ơưđ]|\bitaliano\b|\bpo\s+(?:polsku|angielsku)\b|"
    r"\b(?:não|nunca|sempre|jamais|toujours|n'|ne\s|non\s|mai\b|usa\b|utilise|ricord|lembr|"
    r"souviens|rappelle|recuerda|niemals|immer|verwende|benutze|nie\b|em vez de|ao invés|au lieu|"
    r"plutôt que|invece di|al posto di|en lugar de|en vez de|anstatt|statt\b|ab jetzt|ab sofort|von nun an|"
    r"künftig|in zukunft|keine?\b|nicht\b|bitte\b|désormais|dorénavant|a partir de|en adelante|"
    r"d'ora in poi|siempre\b|toujours\b|vuelvas\b|uso\b|estoy\b|je suis sous|je travaille|ich arbeite|devono|deve\b|deben|debe\b|devem|doivent|"
    r"ich bin auf|mein\b|mi editor|mi sistema|utilizo\b|j'utilise|nutze\b|"
    r"\b(?:sono|sou|soy)\s+(?:uno?a?\s+|um\s+)?[a-z]{4,}|je suis|ich bin\b|"
    r"\b(?:instal(?:ei|ad[oa])|installat[oa]|installiert)\b|"
    r"\b(?:usamos|usiamo|utilizamos|utilizziamo|trabalho com|trabajo con|lavoro con|ich arbeite|wir arbeiten)\b|"
    r"\b(?:meu|minha|quiero|preciso|gostaria|responda|m'appelle|chiamo|llamo|chamo|renomeie|renombra|renomme|rinomina|benenne|prefiro|prefiero|preferisco|bevorzuge|mi\s+(?=[a-z]+\s))\b|"
    r"\b(?:rispondi|rispondimi|antworte|sprich|habla|háblame|contéstame|respóndeme|retiens|merk dir|merke dir|"
    r"mémorise|memorizza|memorize|gedächtnis|speichere|speicher dir|notiere dir|notier dir|anote no|guarde na|"
    r"ajoute dans|ajoute au|"
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
    rf"\bno\s+{ES_IMP}\b|"
    # Indonesian: never / always / from now on / the reply language
    r"\b(?:jangan\s+pernah|jangan\s+sekali-kali|selalu\s+(?:gunakan|pakai|pake|jalankan|tulis|jawab|balas)|"
    r"mulai\s+sekarang|mulai\s+saat\s+ini|ke\s+depannya|untuk\s+seterusnya|bahasa\s+(?:indonesia|inggris))\b)",
    re.I,
)
POLITE = (
    r"(?:请|請|麻烦|麻煩|以后|以後|之后|之後|从现在开始|從現在開始|今后|今後|记得|記得|"
    r"пожалуйста,?|плиз,?|por favor,?|s'il (?:te|vous) plaît,?|per favore,?|bitte,?|"
    r"от?ныне|впредь|a partir de agora,?|désormais,?|d'ora in poi,?|de ahora en adelante,?|"
    r"ab jetzt,?|von nun an,?|künftig,?)\s*"
)

RU_IMP = (
    r"(?:используй|используйте|делай|делайте|трогай|трогайте|меняй|меняйте|добавляй|добавляйте|"
    r"пиши|пишите|удаляй|удаляйте|коммить|коммитьте|пушь|пушьте|ставь|ставьте|создавай|"
    r"создавайте|запускай|запускайте|ломай|ломайте|переименовывай|редактируй|правь|"
    r"правьте|комментируй|устанавливай|обновляй)"
)
# Indonesian: the verbs of an instruction, and the words that point at the thing at hand.
ID_DO = (
    r"(?:gunakan|pakai|pake|menggunakan|memakai|jalankan|tulis|buat|jawab|balas|cek|periksa|"
    r"tanyakan|tanya|tambahkan|commit|push|hapus|ubah|install|instal|uji|test)"
)
# (the thing at hand: "ini/itu/tersebut/sini/tadi", a noun with -nya "filenya"; a report or a
# question: "salah", "gagal", "error", "kenapa")
ID_HERE = (
    r"(?!.*\b(?:ini|itu|tersebut|sini|tadi|\w{3,}nya|salah|gagal|error|kenapa|mengapa|bagaimana|"
    r"sampai|hingga)\b)(?!.*\?)"
)
PT_IMP = (
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
FR_IMP = (
    r"(?:utilise|utilisez|fais|faites|ajoute|ajoutez|modifie|modifiez|touche|touchez|supprime|"
    r"supprimez|écris|écrivez|crée|créez|pousse|poussez|commite|committe|installe|installez|"
    r"lance|lancez|change|changez|mets|mettez|vérifie|vérifiez|teste|testez|réponds|répondez|"
    # the infinitive of written instructions ("Toujours lancer les tests …")
    r"utiliser|faire|ajouter|lancer|tester|vérifier|écrire|mettre|répondre|exécuter|pousser)"
)
IT_IMP = (
    r"(?:usare|fare|aggiungere|modificare|toccare|cancellare|eliminare|scrivere|creare|pushare|"
    r"committare|installare|lanciare|cambiare|mettere|usa|fai|aggiungi|modifica|tocca|cancella|"
    r"elimina|scrivi|crea|installa|lancia|cambia|metti)"
)
DE_IMP = (
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
TOOL = (
    # (a word with a letter of U+00C0–U+024F in it is read whole: "más", "più" were the tools
    # "m", "pi", cut at their first accented letter)
    r"((?<![A-Za-z0-9@/+#_\u00c0-\u024f-])[0-9@/+#_-]*[A-Za-z][A-Za-z0-9@/+#_\u00c0-\u024f-]*"
    r"(?:\.[A-Za-z0-9@/+#_-]+){0,15}(?![A-Za-z0-9\u00c0-\u024f])|\ue000\d+\ue001)"
)

# A tool of at least two characters ("我用A代替" names a placeholder, not a tool).
TOOL2 = r"(?=[A-Za-z0-9@/+#_.\ue000-]{2})" + TOOL

OS_NAMES = (
    r"windows(?:\s*1[01])?|win1[01]|macos|mac|macbook|linux|ubuntu|debian|fedora|arch(?:\s*linux)?|"
    r"nixos|manjaro|mint|wsl2?|popos|pop!_os|opensuse"
)

# A tool named after "my editor is …" in Latin script: written as a name (a capital or a digit)
# or one of the usual setup tools — "il mio editor è lento" says how it is, not which it is.
SETUP_NAMED = (
    r"(?=(?-i:[A-Z0-9])|(?:neovim|nvim|vim|emacs|vscode|cursor|zed|helix|wezterm|kitty|alacritty|"
    rf"iterm2?|ghostty|warp|zsh|fish|bash|nushell|{OS_NAMES})(?![\w-]))"
)

# Things of the code whose language is a standing convention (not documents: a README or a doc
# is this turn's), and the language said after "in".
ARTIFACT = (
    # (a singular "commit" is this turn's one, except after a plural article: "i commit", "die Commit")
    r"(?:commits|(?:i|gli|die|alle)\s+commit(?!\w)|mensagens\s+de\s+commit|mensajes\s+de\s+commit|messages\s+de\s+commit|"
    r"messaggi\s+di\s+commit|commit-nachrichten|commit-messages?|comentários|comentarios|commentaires|"
    r"commenti|kommentare|коммиты|сообщения\s+коммитов|комментарии(?:\s+в\s+коде)?|nomes\s+de\s+variáveis|"
    r"nombres\s+de\s+variables|noms\s+de\s+variables|nomi\s+delle\s+variabili|variablennamen|logs|"
    r"pull\s+requests|prs|branches)"
)
IN_LANG = (
    r"(?:(?:em|en|in|auf|на)\s+(?:inglês|português|inglés|español|castellano|anglais|français|inglese|"
    r"italiano|englisch|deutsch|английском|русском)|по-английски|по-русски)(?!\w)"
)


# The ending of a Russian imperative ("пиши", "делай", "старайся"); "-ли" is a past plural
# ("всегда были ошибки", "никогда не падали"), a report.
RU_IMP_END = r"(?:й|йте|(?<!л)и|ите|ь|ьте|йся|йтесь|ись|итесь)"


def non_english(text: str) -> bool:
    return bool(NON_ENGLISH.search(text))


# Kana: a sentence with them is Japanese, whose kanji the Chinese markers would misread.
KANA = _lazy(r"[\u3040-\u30ff]")
CJK = _lazy(r"[\u4e00-\u9fff]")
