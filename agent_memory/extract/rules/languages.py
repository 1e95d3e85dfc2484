"""Explicit-marker rules in other languages: never / always / don't / I don't want / remember /
use X instead of Y / I have X, in Chinese, Japanese, Russian, Portuguese, French, Italian,
Spanish and German. Only the unambiguous forms: a marker at the start of a sentence (after politeness)
followed by an imperative, or a fixed "X instead of Y" frame. The claim keeps the user's own
sentence and language (no translation, nothing lost) behind an English polarity label —
"Never: …", "Don't: …", "Always: …", "Remember: …", "Use X, not Y" — so the negation is
explicit to everything downstream (contradictions, review) whatever the language."""

from __future__ import annotations

import re

Hit = tuple[str, str, str]

_ES_IMP = (
    r"(?:uses|usar|hagas|hacer|agregues|añadas|modifiques|toques|borres|elimines|escribas|crees|"
    r"instales|cambies|pongas|subas)"
)
# Sentence ends in these languages (CJK punctuation has no space after it).
_SPLIT = re.compile(r"(?<=[。！？；!?;])\s*|(?<=[.])\s+|\n+")
_NON_ENGLISH = re.compile(
    r"[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff]|[àâãáçéèêëíîïóôõöúùûüñß]|"
    r"\b(?:não|nunca|sempre|jamais|toujours|n'|ne\s|non\s|mai\b|usa\b|utilise|ricord|lembr|"
    r"souviens|rappelle|recuerda|niemals|immer|verwende|benutze|nie\b|em vez de|ao invés|au lieu|"
    r"plutôt que|invece di|al posto di|en lugar de|en vez de|anstatt|statt\b|"
    rf"\bno\s+{_ES_IMP}\b)",
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
_PT_IMP = (
    r"(?:use|usar|faça|fazer|faz|coloque|colocar|adicione|adicionar|altere|alterar|mexa|mexer|"
    r"crie|criar|remova|remover|apague|apagar|mude|mudar|toque|tocar|escreva|escrever|commite|"
    r"envie|instale|instalar|rode|rodar|execute|executar|suba|subir)"
)
_FR_IMP = (
    r"(?:utilise|utilisez|fais|faites|ajoute|ajoutez|modifie|modifiez|touche|touchez|supprime|"
    r"supprimez|écris|écrivez|crée|créez|pousse|poussez|commite|committe|installe|installez|"
    r"lance|lancez|change|changez|mets|mettez)"
)
_IT_IMP = (
    r"(?:usare|fare|aggiungere|modificare|toccare|cancellare|eliminare|scrivere|creare|pushare|"
    r"committare|installare|lanciare|cambiare|mettere|usa|fai|aggiungi|modifica|tocca|cancella|"
    r"elimina|scrivi|crea|installa|lancia|cambia|metti)"
)
_DE_IMP = r"(?:verwende|benutze|nutze|mache|mach|ändere|füge|lösche|schreibe|pushe|committe)"
_TOOL = r"([\w@/+#-]+(?:\.[\w@/+#-]+)*|\ue000\d+\ue001)"

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
            r"^(?:rispondi|rispondimi|rispondete)\s+(?:sempre\s+)?in\s+(?:italiano|inglese)",
            re.I,
        ),
        "Language",
        "preference",
        "answer_language",
    ),
    # (pattern on the sentence, label, kind, sub-rule)
    (
        re.compile(
            rf"^(?:{_POLITE})?(?:永远不要|永遠不要|绝对不要|絕對不要|千万不要|千萬不要|绝不|絕不|从不|從不)\s*\S"
        ),
        "Never",
        "constraint",
        "zh_never",
    ),
    (
        re.compile(rf"^(?:我|我们|我們)?(?:{_POLITE})?(?:不希望|不想要|不想|不喜欢|不喜歡)\s*\S"),
        "Don't",
        "preference",
        "zh_dont_want",
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
            rf"^(?:你)?(?:{_POLITE})?(?:一律|总是|總是|永远要|永遠要|始终|始終|每次都要|务必|務必|一定要)\s*\S"
        ),
        "Always",
        "constraint",
        "zh_always",
    ),
    (
        re.compile(r"^(?:请|請)?(?:记住|記住|记得|記得)[:：，,]?\s*\S"),
        "Remember",
        "fact",
        "zh_remember",
    ),
    # "使用大量工具时需要先经过我同意": something needs the user's consent first.
    (
        re.compile(
            r"(?:需要|必须|必須|须|須|要)(?:先)?(?:经过|經過|征得|徵得|得到)?(?:我|我们|我們)(?:的)?"
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
    # "…で作成したい / …を使ってデプロイしたい" (build / deploy it with).
    (re.compile(r"^(?:常に|いつも|必ず)\S"), "Always", "constraint", "ja_always"),
    (re.compile(r"^(?:絶対に|決して)\S.*な(?:い|いで)"), "Never", "constraint", "ja_never"),
    (re.compile(r"\Sないで(?:ください|下さい|ね)?$"), "Don't", "constraint", "ja_dont"),
    (
        re.compile(r"\S(?:を|も|は)?(?:両方)?(?:使って(?:い)?ます|使用して(?:い)?ます|使っている)"),
        "Uses",
        "fact",
        "ja_we_use",
    ),
    (
        re.compile(
            r"\S(?:で|を使って|を使用して)(?:作成|開発|構築|実装|デプロイ|管理)(?:したい|します|する)"
        ),
        "Use",
        "decision",
        "ja_build_with",
    ),
    (re.compile(rf"^(?:{_POLITE})?никогда\s+не\s+\w+", re.I), "Never", "constraint", "ru_never"),
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
        re.compile(rf"^(?:{_POLITE})?всегда\s+\w+(?:й|йте|и|ите)\b", re.I),
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
    (re.compile(r"^(?:\w+,\s*)?у\s+(?:меня|нас)\s+(?:есть\s+)?\S+", re.I), "", "fact", "ru_i_have"),
    (re.compile(rf"^(?:{_POLITE})?nunca\s+{_PT_IMP}\b", re.I), "Never", "constraint", "pt_never"),
    (re.compile(rf"^(?:{_POLITE})?não\s+{_PT_IMP}\b", re.I), "Don't", "constraint", "pt_dont"),
    (
        re.compile(rf"^(?:{_POLITE})?sempre\s+{_PT_IMP}\b", re.I),
        "Always",
        "constraint",
        "pt_always",
    ),
    (
        re.compile(r"^(?:lembre-se|lembre|lembra|não esqueça)\b", re.I),
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
        re.compile(rf"^(?:{_POLITE})?(?:ne\s+{_FR_IMP}\s+jamais|jamais)\b", re.I),
        "Never",
        "constraint",
        "fr_never",
    ),
    (
        re.compile(rf"^(?:{_POLITE})?toujours\s+\w+|^(?:{_POLITE})?{_FR_IMP}\s+toujours\b", re.I),
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
            rf"^(?:{_POLITE})?(?:usa|fai|scrivi|metti)\s+sempre\b|^(?:{_POLITE})?sempre\s+{_IT_IMP}\b",
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
            rf"^(?:{_POLITE})?(?:niemals|nie)\s+\w+|^(?:{_POLITE})?{_DE_IMP}\s+(?:\S+\s+){{0,3}}?(?:niemals|nie|nicht)\b",
            re.I,
        ),
        "Don't",
        "constraint",
        "de_dont",
    ),
    (
        re.compile(rf"^(?:{_POLITE})?immer\s+\w+|^(?:{_POLITE})?{_DE_IMP}\s+immer\b", re.I),
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
]
_INSTEAD: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(rf"(?:用|使用|改用){_TOOL}\s*(?:而不是|而非|不要用|别用|別用|代替|取代){_TOOL}"),
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
]
_MAX = 160


def non_english(text: str) -> bool:
    return bool(_NON_ENGLISH.search(text))


def language_claims(text: str) -> list[Hit]:
    """(claim, kind, sub-rule) for the explicit-marker sentences of a non-English statement."""
    out: list[Hit] = []
    for raw in _SPLIT.split(text):
        sentence = raw.strip(" \t,，、:：-")
        if not sentence or len(sentence) > _MAX or not _NON_ENGLISH.search(sentence):
            continue
        hit = _sentence(sentence)
        if hit:
            out.append(hit)
    return out


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
    r"这个|這個|这次|這次|这里|這裡|这些|這些|那个|那個|刚才|剛才|上面|下面|现在|現在|暂时|暫時|目前|"
    r"问我|問我|等我|先别|先不要|これ|ここ|さっき|今回|上記|この(?!プロジェクト|リポジトリ)|"
    r"(?<!\w)(?:это|этот|эту|этого|эти|этим|сейчас|пока что|здесь|тут|выше|ниже|меня спрашивать)(?!\w)|"
    r"\b(?:isso|isto|esse|essa|agora|aqui|acima|ainda|eso|esto|ese|esa|ahora|aquí|arriba|todavía|"
    r"ça|cela|ceci|maintenant|ici|ci-dessus|questo|questa|quello|quella|adesso|qui|sopra|"
    r"dies|diese|diesen|dieser|jetzt|hier|oben)\b",
    re.I,
)


def task_bound(sentence: str) -> bool:
    return bool(_TASK_DEIXIS.search(_PROJECT_SCOPE.sub(" ", sentence)))


def _sentence(sentence: str) -> Hit | None:
    for pattern, sub in _INSTEAD:
        m = pattern.search(sentence)
        if m and m.group(1).lower() != m.group(2).lower():
            return f"Use {m.group(1)}, not {m.group(2)}", "preference", sub
    body = sentence.rstrip("。.!！?？;；")
    if sentence.rstrip().endswith(("?", "？")) or len(body) < 4 or task_bound(body):
        return None
    if _KANA.search(body) and re.search(r"(?:か|かな|でしょうか|ますか)$", body):
        return None  # a Japanese question without a question mark
    japanese = bool(_KANA.search(body))
    for pattern, label, kind, sub in _RULES:
        if japanese and sub.startswith("zh_"):
            continue  # 別 (other) in "別の人から…" is Japanese, not 别 (don't)
        m = pattern.search(body)
        if m:
            if label == "Remember":  # the marker says it already: "Remember: <what>"
                body = _REMEMBER_WORD.sub("", body, count=1).strip() or body
            return (f"{label}: {body}" if label else body), kind, sub
    return None


# Kana: a sentence with them is Japanese, whose kanji the Chinese markers would misread.
_KANA = re.compile(r"[\u3040-\u30ff]")
_REMEMBER_WORD = re.compile(
    r"^(?:请|請)?(?:记住|記住|记得|記得|запомни(?:те)?|имей(?:те)? в виду|lembre-se|lembre|lembra|"
    r"não esqueça|souviens-toi|souvenez-vous|rappelle-toi|retiens|n'oublie pas|ricorda(?:ti)?|"
    r"tieni a mente|recuerda|recuérdalo|ten en cuenta|merke? dir|denk daran|vergiss nicht)"
    r"(?:\s+(?:que|que|che|dass|что|de|di))?[\s:：,，-]*",
    re.I,
)
