"""Text → index terms, for prompts and claims alike: compounds split by hand (`re` alone costs
about half a `python -c pass`, and this runs on every prompt), stop words dropped, light
stemming, and the related-tool expansions of a prompt's terms (`query_terms`)."""

# Related-tool expansions of the prompt's tokens count at this weight (see _CONCEPTS).
EXPANSION_WEIGHT = 0.4
MAX_PROMPT_CHARS = 8000  # a pasted log is not a query; its head says what it is about

# A compound is alphanumeric runs joined by single `_`, `-` or `.` (snake_case, kebab-case,
# file.names, v1.2); `/`, spaces and other punctuation separate compounds. Scanned by hand
# rather than with `re`: importing `re` alone costs about half a `python -c pass`, and this
# module is on the path of every prompt (tests pin equality with the regex forms
# `[^\W_]+(?:[._-][^\W_]+)*`, `[._-]` and `(?<=[a-z0-9])(?=[A-Z])`).
_JOINERS = "._-"
_LOWER_OR_DIGIT = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def compounds(text: str) -> list[str]:
    out: list[str] = []
    n, i = len(text), 0
    while i < n:
        if not text[i].isalnum():
            i += 1
            continue
        start = i
        while True:
            while i < n and text[i].isalnum():
                i += 1
            if i + 1 < n and text[i] in _JOINERS and text[i + 1].isalnum():
                i += 1
                continue
            break
        out.append(text[start:i])
    return out


def split_joiners(compound: str) -> list[str]:
    for joiner in "._":
        compound = compound.replace(joiner, "-")
    return compound.split("-")


def split_camel(piece: str) -> list[str]:
    parts, start = [], 0
    for k in range(1, len(piece)):
        if piece[k] in _UPPER and piece[k - 1] in _LOWER_OR_DIGIT:
            parts.append(piece[start:k])
            start = k
    parts.append(piece[start:])
    return parts

STOP_WORDS = frozenset(
    """
    a about above after again against all also am an and any are aren arent as at be because
    been before being below between both but by can cannot cant could couldn couldnt did didn
    didnt do does doesn doesnt doing don dont down during each few for from further had hadn
    hadnt has hasn hasnt have haven havent having he her here hers herself him himself his how
    i if in into is isn isnt it its itself just let lets me more most my myself no nor not now
    of off on once only or other our ours ourselves out over own same she should shouldn
    shouldnt so some such than that thats the their theirs them themselves then there these
    they this those through to too under until up very was wasn wasnt we were weren werent
    what when where which while who whom why will with won wont would wouldn wouldnt you your
    yours yourself yourselves im ive id youre youve ill weve thats theres
    please thanks thank ok okay hi hello hey yes yeah sure well really actually maybe perhaps
    also still yet already again always never ever use uses used using want wants wanted need
    needs needed like get gets got getting go going thing things something anything everything
    nothing way one ones lot lots bit much many can could might must shall may e.g i.e etc
    via per new know think see look let try tries tried
    """.split()  # noqa: SIM905 - a word list reads better as prose
) | frozenset(
    # The function words of the other Latin-script languages the extractor reads (pt, es, fr,
    # de, it), and their "use": a Portuguese prompt matched candidates on "vamos" or "para".
    # Left out where a word is also a term of the trade (mit, es, dos, su, du, io, todo, bin, war,
    # del, des, die, con, sa, mon, plus, mach, est, usa); "em", "os" and "en" come below.
    """
    um uma uns umas da das no na nos nas por para com sem que se não sim são ser está estão
    estar foi isso isto esse essa este esta eu você vocês nós ele ela eles elas meu minha seu sua
    nosso nossa mais menos muito também já ainda só mas ou como quando onde porque qual quais
    então aqui ali vamos vai vou quero queria precisa preciso pode posso fazer faça usar
    usamos usaremos utilize utilizar sempre nunca agora tudo todas algo nada coisa
    el la los las un una unos unas al sin sí son fue eso esto ese esa yo tú usted
    ustedes nosotros él ellos mi mis sus nuestro más muy todavía solo pero cuando donde cuál
    entonces aquí voy quiero necesito puedo puede hacer haz utiliza siempre ahora cosa hay
    le les une de au aux dans par pour avec qui ne pas oui non sont être été ce cet
    cette ces je tu il nous vous ils ma mes ton ta son ses notre votre leur moins
    très aussi déjà encore seulement mais et comme où pourquoi quel quelle donc ici faire fais
    utiliser utilise utilisez toujours jamais maintenant tout tous rien chose
    der das den dem ein eine einen einem einer und oder aber nicht ist sind sein
    bist wir ihr sie er ich mein meine dein unser von zu zum zur auf für im am aus bei nach
    über unter wie wenn wo warum wer dann hier auch schon noch nur sehr mehr bitte immer nie
    jetzt alles etwas nichts machen verwenden verwende benutze benutzen
    il lo gli di della dei delle dal nel nella tra fra che sono essere era questo questa quello
    quella lui lei noi voi loro mio mia tuo suo nostro più molto anche già ancora dove perché
    quale quindi qui fare fai usare usiamo utilizzare mai adesso ora tutto tutti qualcosa niente
    """.split()  # noqa: SIM905
) | frozenset(
    # What real Portuguese and Spanish prompts add to the above: the same words typed without
    # their accents ("nao", "voce", "entao"), the verbs to be and to have, and "em", "os",
    # "ao", "en", which outnumber their English readings (a CSS unit, an OS, a locale) in
    # those prompts by far: one claim holding "em" and "os" came back on most of a project's
    # later prompts.
    """
    em os ao aos às pelo pela pelos pelas num numa nao voce voces entao tambem ja ate
    esta estou estamos estava tem temos tenho ter tinha sou somos era seja sejam sendo sido
    feito feita fez faz fazemos mesmo mesma depois antes qualquer precisamos pra tá ta
    aí assim agora isso aquele aquela aquilo cada outro outra outros outras
    en estoy estás estas estamos están estan estaba tengo tiene tienes tenemos tienen soy eres
    somos sea sido hecho hace hacemos mismo misma después despues antes cualquier para cada
    otro otra otros otras así asi ya hasta muy bien esto aquí aqui también tambien
    """.split()  # noqa: SIM905
) | frozenset(
    # Russian function words (the extractor keeps Russian claims in the user's words).
    """
    и в во не что он на я с со как а то все всё она так его но да ты к у же вы за бы по только
    ее её мне было вот от меня еще ещё нет о из ему теперь когда даже ну ли если уже или ни быть
    был него до вас опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней
    для мы тебя их чем была сам чтоб без чего раз тоже себе под будет ж тогда кто этот того
    потому этого какой совсем ним здесь этом один почти мой тем чтобы нее сейчас были куда
    зачем всех никогда можно при об другой хоть после над больше тот через эти нас про всего
    них какая много эту моя свою этой перед лучше том нельзя такой им более всегда конечно всю
    между это эти нужно давай сделай сделать делать пожалуйста используй использовать
    """.split()  # noqa: SIM905
) | frozenset(
    # Swearing says how the user feels, not what the prompt is about: "just fucking stop"
    # brought every claim the same user had sworn in.
    """
    fuck fucking fucked fuckin fucks shit shitty damn damned wtf ffs crap
    """.split()  # noqa: SIM905
) | frozenset(
    # Chinese and Japanese words of every request (bigrams, see _cjk_terms: "可以", "需要",
    # "使用" …) and Korean ones (pronouns, "좀", "지금" …).
    """
    可以 需要 什么 怎么 为什 如何 怎样 现在 然后 如果 因为 所以 但是 还是 已经 没有 不是 就是 一下 一个 一些
    问题 使用 以后 之后 之前 以前 时候 每次 一定 必须 不要 直接 只需 只要 其他 或者 以及 而且 并且 非常
    所有 全部 应该 能够 自己 进行 通过 谢谢 好的 明白 知道 觉得 希望 看看 目前 当前 继续 开始
    以下 以上 今回 場合 必要 可能 方法 確認 対応 お願 下さ 使用 説明
    이거 그거 저거 이것 그것 저것 지금 다시 그리고 그런데 하지만 그래서 근데 그냥 진짜 정말 너무 아주
    어떻게 무엇 어디 언제 있어 없어 있는 없는 같아 같은 우리 저희 제가 내가 너가 혹시 이제 계속 확인
    """.split()  # noqa: SIM905
)

# Deliberately light stemming: strip plural s / ies / sses, then -ing / -ed / -ly, undouble a
# final consonant (running → run), and drop a final e (cache/caching/cached → cach). Stems need
# not be words, only agree between prompt and claim. Tokens of ≤ 3 characters or containing a
# digit or joiner are kept as they are (pnpm, npm, py311, node_modules).
_STEM_EXCEPTIONS = frozenset(
    """
    string spring during anything everything nothing something apply reply supply family
    assembly anomaly only early news series species always
    """.split()  # noqa: SIM905
)


def stem(token: str) -> str:
    if len(token) <= 3 or not token.isalpha() or token in _STEM_EXCEPTIONS:
        return token
    if token.endswith("ies") and len(token) > 4:
        token = token[:-3] + "y"
    elif token.endswith("sses"):
        token = token[:-2]
    elif token.endswith("s") and not token.endswith(("ss", "us", "is")):
        token = token[:-1]
    for suffix in ("ing", "ed"):
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            token = token[: -len(suffix)]
            if len(token) >= 4 and token[-1] == token[-2] and token[-1] not in "lsz":
                token = token[:-1]
            break
    else:
        if token.endswith("ly") and len(token) - 2 >= 4:
            token = token[:-2]
    if token.endswith("e") and len(token) >= 4:
        token = token[:-1]
    return token


def _term(piece: str) -> str | None:
    folded = piece.casefold()
    if len(folded) < 2 or folded in STOP_WORDS:
        return None
    stemmed = stem(folded)
    return None if stemmed in STOP_WORDS else stemmed  # "what's" → whats → what


def tokenize(text: str) -> list[str]:
    """Casefolded, stop-word-free, lightly stemmed tokens, in order, with repeats.

    A compound (`node_modules`, `pre-commit`, `package.json`, `useEffect`) yields itself whole
    and then its parts, so a prompt naming the whole or a part both match. Chinese, Japanese
    and Korean text, written without spaces between words, yields the terms of `_cjk_terms`.
    """
    out: list[str] = []
    for compound in compounds(text.replace("'", "").replace("\u2019", "")):
        if compound.isascii() or not _has_cjk(compound):
            _compound_terms(compound, out)
            continue
        for script, run in _script_runs(compound):
            if script == _OTHER:
                for part in compounds(run):  # the Latin words around the CJK ones
                    _compound_terms(part, out)
            else:
                _cjk_terms(script, run, out)
    return out


def _compound_terms(compound: str, out: list[str]) -> None:
    pieces = split_joiners(compound)
    if not compound.islower() and not compound.isupper():
        pieces = [part for piece in pieces for part in split_camel(piece)]
    if len(pieces) > 1:
        whole = _term(compound)
        if whole is not None:
            out.append(whole)
    for piece in pieces:
        term = _term(piece)
        if term is not None:
            out.append(term)


# --- Chinese, Japanese, Korean ------------------------------------------------------------------
# `compounds` takes a run of letters as one word, which for scripts written without spaces is a
# whole clause: "以后回复都用中文" was one term, and a prompt matched a claim only by repeating it
# exactly. Instead (still lexical, no dictionary):
# - Han (Chinese, and the kanji of Japanese) is cut at its commonest function characters
#   (_HAN_BREAKS: particles, pronouns, "是", "在" …), and each piece left of ≥ 2 characters
#   yields its character bigrams, the usual unit of CJK retrieval: "回复" and "中文" above;
# - Japanese hiragana is grammar (particles, endings: "を", "します") and only separates;
#   katakana (loanwords: "エンジニア") is one term per run;
# - Korean is written in words with particles and endings attached ("파일을", "설정해줘"):
#   a word is a term once one such ending is cut off (_HANGUL_ENDINGS).
# Single characters are no terms (too common to say what a prompt is about).
_OTHER, _HAN, _KATAKANA, _HIRAGANA, _HANGUL = 0, 1, 2, 3, 4


def _script(ch: str) -> int:
    o = ord(ch)
    if o < 0x3005:
        return _OTHER
    if 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF or o == 0x3005:
        return _HAN
    if 0x3041 <= o <= 0x309F:
        return _HIRAGANA
    if 0x30A0 <= o <= 0x30FF or 0xFF66 <= o <= 0xFF9F:
        return _KATAKANA
    if 0xAC00 <= o <= 0xD7AF:
        return _HANGUL
    return _OTHER


def _has_cjk(text: str) -> bool:
    return any(_script(ch) != _OTHER for ch in text)


def _script_runs(text: str) -> list[tuple[int, str]]:
    runs: list[tuple[int, str]] = []
    start, current = 0, _script(text[0]) if text else _OTHER
    for k in range(1, len(text)):
        script = _script(text[k])
        if script != current:
            runs.append((current, text[start:k]))
            start, current = k, script
    if text:
        runs.append((current, text[start:]))
    return runs


_HAN_BREAKS = frozenset("的了吗呢吧啊呀嘛是在我你您他她它们这那哪么个也都就还很请把被给让和与或")
# Korean endings, longest first: particles (을 를 이 가 …) and the request and verb forms
# ("설정해줘" → 설정, "정리하기" → 정리).
_HANGUL_ENDINGS = tuple(sorted(
    """
    을 를 이 가 은 는 에 의 도 로 와 과 만 에서 으로 에게 까지 부터 하고 이랑 랑 처럼 보다 이나 나
    해줘 해주세요 해 해요 하기 하는 하고 해서 하면 합니다 했어 했어요 했다 하다 한 할 된 되는 됩니다
    """.split(),  # noqa: SIM905
    key=len, reverse=True))  # fmt: skip


def _cjk_terms(script: int, run: str, out: list[str]) -> None:
    if script == _HAN:
        # A stop word ("必须") breaks the run like a function character, so that "回复必须" is
        # "回复", not "回复" and "复必".
        last, k = "", 0
        while k < len(run):
            ch = run[k]
            if ch in _HAN_BREAKS:
                last, k = "", k + 1
                continue
            if run[k : k + 2] in STOP_WORDS:
                last, k = "", k + 2
                continue
            if last:
                out.append(last + ch)
            last, k = ch, k + 1
    elif script == _KATAKANA:
        if len(run) >= 2 and run not in STOP_WORDS:
            out.append(run)
    elif script == _HANGUL:
        for ending in _HANGUL_ENDINGS:
            if run.endswith(ending) and len(run) - len(ending) >= 2:
                run = run[: -len(ending)]
                break
        if len(run) >= 2 and run not in STOP_WORDS:
            out.append(run)


# Related tools and concepts of everyday development: a prompt about "installing dependencies"
# should find "Use pnpm, not npm" although they share no word. Small, hand-written and
# deterministic (lexical, no embeddings); expansions weigh EXPANSION_WEIGHT.
_CONCEPTS = (
    "install installation dependency deps package lockfile npm pnpm yarn bun pip pipx uv poetry "
    "cargo gem composer node_modules requirements",
    "test pytest unittest jest vitest mocha coverage fixture",
    "lint linter format formatter ruff eslint prettier black flake8 isort stylelint",
    "typecheck mypy pyright tsc",
    "build bundle compile vite webpack esbuild rollup turbopack makefile",
    "git commit push branch merge rebase squash pr cherry-pick",
    "ci pipeline workflow jenkins circleci",
    "database db migration postgres postgresql mysql sqlite sql orm alembic prisma",
    "deploy deployment release production prod staging docker kubernetes k8s helm",
    "env environment venv virtualenv dotenv",
    "docs documentation readme changelog",
    "http https api rest endpoint httpx requests axios fetch curl graphql",
)
# _CONCEPTS as `tokenize` normalises each word (whole words only: `node_modules` must not
# expand to its part `node`), written out because normalising them at every prompt cost
# ~0.4 ms; tests/test_recall.py derives it from _CONCEPTS and prints the new text on a change.
_CONCEPT_TERMS = (
    "install installation dependency dep packag lockfil npm pnpm yarn bun pip pipx uv "
    "poetry cargo gem composer node_modules requirement",
    "test pytest unittest jest vitest mocha coverag fixtur",
    "lint linter format formatter ruff eslint prettier black flake8 isort stylelint",
    "typecheck mypy pyright tsc",
    "build bundl compil vit webpack esbuild rollup turbopack makefil",
    "git commit push branch merg rebas squash pr cherry-pick",
    "ci pipelin workflow jenkin circleci",
    "databas db migration postgr postgresql mysql sqlit sql orm alembic prisma",
    "deploy deployment releas production prod stag docker kubernet k8s helm",
    "env environment venv virtualenv dotenv",
    "doc documentation readm changelog",
    "http api rest endpoint httpx request axio fetch curl graphql",
)
_CONCEPT_GROUPS = tuple(tuple(group.split()) for group in _CONCEPT_TERMS)
_concept_of: dict[str, tuple[int, ...]] = {}


def _concepts() -> "tuple[tuple[tuple[str, ...], ...], dict[str, tuple[int, ...]]]":
    """The normalised groups, and term → groups (built once per process)."""
    global _concept_of
    if not _concept_of:
        of: dict[str, list[int]] = {}
        for number, group in enumerate(_CONCEPT_GROUPS):
            for term in group:
                of.setdefault(term, []).append(number)
        _concept_of = {term: tuple(numbers) for term, numbers in of.items()}
    return _CONCEPT_GROUPS, _concept_of


def query_terms(prompt: str) -> dict[str, float]:
    """The prompt's distinct tokens (weight 1) and their concept expansions (weight < 1)."""
    terms = dict.fromkeys(tokenize(prompt[:MAX_PROMPT_CHARS]), 1.0)
    groups, concept_of = _concepts()
    for number in sorted({g for term in terms for g in concept_of.get(term, ())}):
        for other in groups[number]:
            terms.setdefault(other, EXPANSION_WEIGHT)
    return terms


def normalize_claim(claim: str) -> str:
    """model.atom.normalize without importing `re`: whitespace runs → one space,
    casefold, trailing `.,;:!?` stripped (str.split and `\\s` agree on what is whitespace)."""
    return " ".join(claim.split()).casefold().rstrip(".,;:!?")
