"""Non-English rules (extract/rules/languages.py): a standing rule said with a clear marker
becomes one claim in the user's words behind an English label; the turn's own instructions,
questions, hedges and pasted documents yield nothing. Every sentence here is our own."""

from __future__ import annotations

import pytest

from agent_memory.extract import durability
from agent_memory.extract.statement import extract_claims


def _one(text: str) -> tuple[str, str, str]:
    got = [(c.claim, c.kind, c.rule) for c in extract_claims(text)]
    assert len(got) == 1, (text, got)
    return got[0]


@pytest.mark.parametrize(
    ("text", "label", "words"),
    [
        ("以后提交信息都写英文", "From now on:", "提交信息"),
        ("这次先这样，今后都不要自动格式化整个文件。", "From now on, don't:", "自动格式化"),
        ("A partir de agora, sempre escreva os testes primeiro.", "From now on:", "testes"),
        ("Ab sofort bitte keine Kommentare auf Englisch.", "From now on, don't:", "Kommentare"),
        ("Désormais, lance toujours les tests avant de pousser.", "From now on:", "tests"),
    ],
)
def test_from_now_on_is_a_rule_in_the_users_words(text: str, label: str, words: str) -> None:
    claim, kind, rule = _one(text)
    assert claim.startswith(label) and words in claim and rule == "language.from_now_on"
    assert kind == ("constraint" if "don't" in label else "preference")


@pytest.mark.parametrize(
    "text",
    [
        "以后我可能要换一台电脑",  # a maybe about the future
        "以后要怎么同步这些配置",  # a question without a question mark
        "以后想用的时候随时可以打开",  # a possibility, no rule
        "从现在开始吗",  # a question particle
    ],
)
def test_future_talk_that_is_no_rule_yields_nothing(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "你不要再生成新文件了，直接贴出来",  # a correction of this turn
        "不要改接口，只改样式",  # the task's scope
        "Não mexa no rodapé.",  # the task's scope, in Portuguese
        "No toques el archivo de rutas.",  # and in Spanish
    ],
)
def test_plain_dont_without_a_durable_word_is_the_task_at_hand(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("不要用 yarn", "yarn"),  # a tool to avoid: a standing preference even unmarked
        ("所有脚本都不要依赖全局安装的包", "全局安装"),  # "all ... never": a durable word
        ("Nunca faça force push na main.", "force push"),
    ],
)
def test_plain_dont_with_a_tool_or_a_durable_word_is_kept(text: str, words: str) -> None:
    claim, kind, _ = _one(text)
    assert words in claim and ("Don't" in claim or "Never" in claim) and kind == "constraint"


def test_a_long_pasted_document_is_read_at_its_first_and_last_lines_only() -> None:
    pasted = "\n".join(
        [
            "下面是给另一个助手的说明，请帮我润色：",
            "## 规则",
            "1. 不要编造数据，所有数字都要有出处",
            "2. 永远不要在回复里使用表情",
            "3. 禁止使用营销套话",
            "## 输出",
            "按客户分组，每组不超过五条。",
            "谢谢",
        ]
    )
    assert extract_claims(pasted) == []


def test_a_chinese_verb_next_to_chinese_text_is_no_tool() -> None:
    # "用了脚本推断代替逐条阅读": 用 and 代替 around Chinese words, no tool named
    assert extract_claims("那次我用了脚本推断代替逐条阅读") == []
    assert _one("后端我们已经用ruff取代flake8了")[0] == "Use ruff, not flake8"


def test_a_switch_asked_about_is_no_rule() -> None:
    # "why not just use X instead of Y?": a question (mark, particle or question word) proposes
    # the switch; only the same switch said as a statement is a preference
    assert extract_claims("为什么我们不用pnpm代替npm呢？") == []
    assert extract_claims("要不要用vitest代替jest") == []
    assert _one("以后都用vitest代替jest")[0] == "Use vitest, not jest"


def test_a_final_particle_before_trailing_figures_still_asks() -> None:
    # "…都会提醒我吗 80%": the figure typed after 吗 does not turn the question into a rule
    assert extract_claims("以后每个会话都会自动保存进度吗 80%") == []
    assert _one("以后每个会话都自动保存进度 80%")[0].startswith("From now on:")


def test_remember_needs_what_is_remembered() -> None:
    assert extract_claims("记住这个数字，明天再看") == []
    claim, kind, _ = _one("记住：我们的服务器都在新加坡")
    assert claim == "Remember: 我们的服务器都在新加坡" and kind == "fact"


def test_someone_elses_confirmation_is_no_approval_rule() -> None:
    assert extract_claims("客户要我确认了再发货") == []


@pytest.mark.parametrize(
    ("text", "claim", "kind", "rule"),
    [
        # Korean: always / never / remember / from now on
        (
            "항상 한국어 주석을 달아 주세요",
            "Always: 항상 한국어 주석을 달아 주세요",
            "constraint",
            "language.ko_always",
        ),
        (
            "절대 운영 서버에서 마이그레이션을 돌리지 마세요",
            "Never: 절대 운영 서버에서 마이그레이션을 돌리지 마세요",
            "constraint",
            "language.ko_never",
        ),
        (
            "기억해 줘: 배포는 금요일에 안 해",
            "Don't: 배포는 금요일에 안 해",
            "constraint",
            "language.ko_remember",
        ),
        (
            "앞으로는 변수 이름을 영어로 지어 주세요",
            "From now on: 앞으로는 변수 이름을 영어로 지어 주세요",
            "preference",
            "language.from_now_on",
        ),
        # the language to answer in
        (
            "回答一律用简体中文",
            "Language: 回答一律用简体中文",
            "preference",
            "language.answer_language",
        ),
        (
            "日本語で返答してください",
            "Language: 日本語で返答してください",
            "preference",
            "language.answer_language",
        ),
        (
            "한국어로 대답해 주세요",
            "Language: 한국어로 대답해 주세요",
            "preference",
            "language.answer_language",
        ),
        # a memory note typed with Claude Code's "#" prefix
        (
            "#всегда пиши тесты на pytest",
            "Always: всегда пиши тесты на pytest",
            "constraint",
            "language.ru_always",
        ),
        (
            "всегда старайся отвечать кратко",
            "Always: всегда старайся отвечать кратко",
            "constraint",
            "language.ru_always",
        ),
    ],
)
def test_marker_entries_of_korean_and_more(text: str, claim: str, kind: str, rule: str) -> None:
    assert _one(text) == (claim, kind, rule)


@pytest.mark.parametrize(
    "text",
    [
        "这个文件不要修改",  # the file at hand
        "이 함수는 수정하지 마세요",  # the function at hand, in Korean
        "수정하지 마세요",  # a plain don't with no durable word
    ],
)
def test_korean_and_chinese_task_instructions_yield_nothing(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("我平时都用 helix 写代码", "helix"),
        ("我用的是 Fedora", "Fedora"),
        ("я пользуюсь kitty и zsh", "kitty"),
        ("Eu uso o Obsidian para as notas.", "Obsidian"),
        ("Ich verwende Podman für Container.", "Podman"),
        ("j'utilise Sway sur mon portable", "Sway"),
    ],
)
def test_i_use_a_tool_is_a_fact(text: str, tool: str) -> None:
    claim, kind, rule = _one(text)
    assert (
        claim.startswith("Uses: ") and tool in claim and kind == "fact" and rule == "language.i_use"
    )


@pytest.mark.parametrize(
    "text",
    [
        "我用 Selenium 跑了一遍，发现登录按钮没反应",  # what was just done, not a habit
        "我用X代替了原来的名字",  # a placeholder, not a tool
        "у меня есть три сервиса, нужно проверить логи каждого",  # the opening of a task
    ],
)
def test_what_was_just_done_with_a_tool_is_no_fact(text: str) -> None:
    assert extract_claims(text) == []


def test_deploying_with_a_tool_inside_a_request_is_no_decision() -> None:
    assert extract_claims("Netlifyでデプロイする時の注意点を教えてください") == []
    assert _one("社内ツールはSvelteで開発したいです")[2] == "language.ja_build_with"


def test_the_one_i_use_may_be_named_in_chinese() -> None:
    # "用的是" (the one I use is …) names the thing itself, in whatever script
    assert _one("我们用的是阿里云服务器")[:2] == ("Uses: 我们用的是阿里云服务器", "fact")
    assert extract_claims("我用的是哪个版本") == []  # a question without a mark


def test_an_always_rule_is_bound_to_the_task_only_by_its_own_clause() -> None:
    # the deictic word sits in the condition ("unless someone asked for it"), not in the rule
    text = "всегда пиши короткие коммиты, длинные только если это попросили"
    assert _one(text)[2] == "language.ru_always"
    assert extract_claims("всегда проверяй это перед коммитом") == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("如果是生产环境，永远不要跳过测试", "Never: 如果是生产环境，永远不要跳过测试"),
        ("si es producción, nunca borres datos sin backup", "Never: si es producción, nunca borres datos sin backup"),
        ("em produção, sempre use a réplica de leitura", "Always: em produção, sempre use a réplica de leitura"),
    ],
)
def test_a_condition_said_first_stays_with_the_rule(text: str, claim: str) -> None:
    # cut off, the rule held everywhere: what the user allowed elsewhere read as forbidden
    assert _one(text)[0] == claim


def test_anothers_words_quoted_after_a_verb_of_saying_are_no_rule() -> None:
    # (the clause after the quote is the task's: it was glued onto the quoted rule)
    assert extract_claims('我们经理说过"永远不要周五上线"，所以这个改动下周再发') == []
    assert _one("永远不要周五上线")[2] == "language.zh_never"


def test_what_is_not_used_is_no_tool_in_use() -> None:
    assert extract_claims("ich benutze kein Windows, sondern Linux") == []
    assert _one("ich benutze Neovim")[0] == "Uses: ich benutze Neovim"


def test_a_fact_of_use_is_its_own_clause() -> None:
    assert _one("我们用的是 Postgres，帮我把连接池调大")[0] == "Uses: 我们用的是 Postgres"


def test_what_is_remembered_may_itself_be_a_rule() -> None:
    assert _one("记住以后提交信息都用英文") == (
        "From now on: 以后提交信息都用英文",
        "preference",
        "language.from_now_on",
    )
    assert _one("记住：永远不要在周五发版")[2] == "language.zh_never"


def test_from_now_on_with_i_want_you_to() -> None:
    claim, kind, rule = _one("De ahora en adelante quiero que me escribas en catalán")
    assert claim.startswith("From now on: ") and kind == "preference"


def test_japanese_use_is_a_fact_only_when_the_sentence_says_it() -> None:
    assert _one("エディタはHelixを使ってます")[2] == "language.ja_we_use"
    # the code's state, said on the way to a request
    assert extract_claims("サーバー側は Zod のスキーマを使っているのでそれに合わせたい") == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("中文回复，然后看看日志里那个报错是什么", "Language: 中文回复"),
        ("给我中文回答", "Language: 给我中文回答"),
        ("回答都用简体中文", "Language: 回答都用简体中文"),
    ],
)
def test_the_language_to_talk_in_is_its_own_clause(text: str, claim: str) -> None:
    assert _one(text) == (claim, "preference", "language.answer_language")


def test_a_documents_language_is_the_tasks() -> None:
    assert extract_claims("这份说明用中文输出到 docs 目录") == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("提交前先跑 lint，写到Claude.md中", "提交前先跑 lint"),
        (
            "коммить только после тестов, сохрани это в постоянную память",
            "коммить только после тестов",
        ),
    ],
)
def test_a_rule_the_user_asks_to_keep_is_the_rest_of_the_sentence(text: str, words: str) -> None:
    assert _one(text) == (f"Remember: {words}", "preference", "language.memory_request")


def test_keeping_what_was_said_elsewhere_yields_nothing() -> None:
    assert extract_claims("把这个规则写入全局md文件") == []
    assert extract_claims("把上面的配置方法写入claude.md") == []


def test_japanese_next_is_not_from_now_on() -> None:
    assert extract_claims("これからログイン画面を作ってください") == []  # "next, build …"
    assert extract_claims("今後の方針をまとめてください") == []  # "the plan ahead"
    assert _one("これからは必ず型を付けてください")[2] == "language.from_now_on"


@pytest.mark.parametrize(
    "text",
    [
        "いつもお世話になっております",  # a greeting
        "必ずしも速くはない",  # "not necessarily"
        "항상 고마워요",  # thanks
        "toujours pas de logs côté serveur",  # "still no logs"
        "immer noch kein Build",  # "still no build"
        "nie wieder so ein Ärger",  # an exclamation
        "Nie wieder so etwas machen!",  # never again the thing that just happened
        "Immer noch den Build neu starten",  # "still restart the build"
        "Immer wieder neu starten",  # "keeps restarting"
        "Nie mehr so etwas machen",  # never again the thing that just happened
        # a noun made of the verb: a report of what happens ("errors when starting")
        "Immer Fehler beim Starten",
        "Nie Zeit zum Testen",
        "Nie Probleme beim Installieren",
        "Jamais vu ça",
        "Ne jamais tester. Voilà leur méthode.",  # a sneer at others, nothing said of what
        "总是报错",  # how it keeps failing
        "어제 항상 하던 대로 했는데 안 돼",  # "I did it the way I always do, it fails"
    ],
)
def test_always_and_never_words_that_make_no_rule(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Toujours vérifier les types avant de pousser",
        "Immer prüfe die Lizenz neuer Pakete",
        "常に型ヒントを付けてください",
        "항상 커밋 전에 린트를 돌려 주세요",
        # the always-word after a condition of when
        "코드 수정 후에는 항상 테스트를 돌려줘",
        "커밋하기 전에 항상 린트를 돌려주세요",
    ],
)
def test_always_with_an_instruction_is_a_rule(text: str) -> None:
    claim, kind, _ = _one(text)
    assert claim.startswith("Always: ") and kind == "constraint"


@pytest.mark.parametrize(
    ("text", "claim", "kind", "rule"),
    [
        (
            "覚えておいて：社内のnpmレジストリを使う",
            "Remember: 社内のnpmレジストリを使う",
            "fact",
            "language.ja_remember",
        ),
        (
            "本番では手動でマイグレーションしないことを覚えておいてください",
            "Don't: 本番では手動でマイグレーションしない",
            "constraint",
            "language.ja_remember",
        ),
        (
            "больше не используй lodash",
            "Don't: больше не используй lodash",
            "constraint",
            "language.ru_no_longer",
        ),
        (
            "No vuelvas a usar jQuery",
            "Never: No vuelvas a usar jQuery",
            "constraint",
            "language.es_never_again",
        ),
    ],
)
def test_remember_no_longer_and_never_again(text: str, claim: str, kind: str, rule: str) -> None:
    assert _one(text) == (claim, kind, rule)


def test_no_longer_touching_the_thing_at_hand_is_the_task() -> None:
    assert extract_claims("больше не трогай этот файл") == []


@pytest.mark.parametrize(
    "text",
    [
        "我的电脑是 ThinkPad",
        "estoy en macOS",
        "je travaille sous Windows",
        "ich bin auf NixOS",
        "я сижу на линуксе",
        "meu editor é Zed",
        "エディタはVSCodeです",
    ],
)
def test_the_users_machine_is_a_fact(text: str) -> None:
    claim, kind, rule = _one(text)
    assert claim == f"Environment: {text}" and kind == "fact" and rule == "language.user_env"


def test_being_on_a_branch_is_no_machine() -> None:
    assert extract_claims("estoy en la rama de desarrollo") == []


@pytest.mark.parametrize(
    "text",
    [
        "le migrazioni devono stare tutte in db/migrations",
        "los scripts deben ir en tools/scripts",
        "los scripts deben ir en C:\\tools\\scripts",
        "截图统一放在 docs/images",
        "Fixtures müssen immer unter tests/fixtures/ liegen",
    ],
)
def test_where_a_kind_of_thing_must_live_is_a_rule(text: str) -> None:
    assert _one(text) == (f"Location: {text}", "constraint", "language.lives_in")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("non uso Docker, solo Podman", "Docker"),
        ("я не пользуюсь VSCode", "VSCode"),
        ("我平时不用 Copilot", "Copilot"),
    ],
)
def test_what_the_user_does_not_use_is_a_negated_fact(text: str, words: str) -> None:
    claim, kind, rule = _one(text)
    assert claim.startswith("Does not use: ") and words in claim and kind == "fact"


def test_an_italian_always_may_follow_its_object() -> None:
    assert _one("il changelog lascialo sempre in fondo")[0].startswith("Always: ")


def test_one_long_typed_paragraph_is_read_at_its_first_and_last_sentences() -> None:
    text = (
        "La configurazione lasciala sempre nella cartella principale. "
        + "Poi controlla i test e guarda se qualcosa si rompe nel modulo dei pagamenti. " * 6
        + "Fammi sapere."
    )
    assert [c.rule for c in extract_claims(text)] == ["language.it_always"]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("每次都先跑 lint 再提交", "language.zh_every_time"),
        ("部署流程自动化，我不想每次都手动确认", "language.zh_dont_want"),
        ("后续你都用 uv 管理依赖", "language.from_now_on"),
    ],
)
def test_every_time_and_later_on_in_chinese(text: str, rule: str) -> None:
    assert _one(text)[2] == rule


def test_a_follow_up_task_is_not_later_on() -> None:
    assert extract_claims("后续任务是补文档") == []


@pytest.mark.parametrize(
    ("text", "claim", "kind", "rule"),
    [
        ("pip を使わない", "Don't: pip を使わない", "preference", "language.ja_dont_use"),
        (
            "テストはVitestを使用したいです",
            "Use: テストはVitestを使用したいです",
            "decision",
            "language.ja_want_use",
        ),
    ],
)
def test_japanese_tool_to_avoid_or_to_use(text: str, claim: str, kind: str, rule: str) -> None:
    assert _one(text) == (claim, kind, rule)


def test_japanese_what_if_not_using_is_a_question() -> None:
    assert extract_claims("pipを使わないとどうなる") == []


def test_a_rule_after_the_memory_file_named_first() -> None:
    text = "修改CLAUDE.md 提交信息一律用英文,所有脚本都用 bash,你刚刚那个提交写错了"
    assert _one(text) == (
        "Remember: 提交信息一律用英文，所有脚本都用 bash",
        "preference",
        "language.memory_request",
    )
    assert extract_claims("更新claude.md里的端口号") == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("日本語でお願いします。次にビルドして", "Language: 日本語でお願いします"),
        ("请用中文", "Language: 请用中文"),
    ],
)
def test_asking_for_a_language_politely(text: str, claim: str) -> None:
    assert _one(text) == (claim, "preference", "language.answer_language")


def test_every_one_of_a_kind_must_use() -> None:
    assert _one("所有接口都要写单元测试")[2] == "language.zh_all_always"
    assert extract_claims("所有测试都通过了") == []  # a status


def test_a_member_of_the_code_is_no_tool_to_use() -> None:
    assert extract_claims("config.value.isProd を使いたい") == []


def test_the_model_of_this_session_is_no_decision() -> None:
    assert extract_claims("なんか設定が変わってる。Haikuを使いたい") == []


def test_a_fact_in_the_first_clause_survives_the_task_after_it() -> None:
    assert _one("我平时用 Arch，这个报错帮我看看")[0] == "Uses: 我平时用 Arch"
    assert _one("我们想做一个记账小程序，这个页面先别管")[:2] == (
        "Project: 我们想做一个记账小程序",
        "fact",
    )
    assert _one("2.我从来没有用过官方的模型，这个不是原因")[0].startswith("Does not use: ")


def test_what_the_user_builds_in_korean() -> None:
    assert _one("Django로 사내 예약 사이트를 만들거야")[2] == "language.project_is"


@pytest.mark.parametrize(
    "text",
    [
        "у меня ошибка в тестах",  # the state of the moment
        "у меня не собирается проект",
        "у меня вопрос по хукам",
        "у меня TypeError при запуске",
        "никогда не падало раньше",  # a report, not an imperative
        "запомни пароль",  # what to keep is not said
    ],
)
def test_russian_reports_are_no_facts_or_rules(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("у нас монорепозиторий на pnpm", "language.ru_i_have"),
        ("у меня линукс, а не мак", "language.ru_i_have"),
        ("никогда не коммить секреты", "language.ru_never"),
    ],
)
def test_russian_setup_facts_and_never(text: str, rule: str) -> None:
    assert _one(text)[2] == rule


@pytest.mark.parametrize(
    "text",
    ["每次都要等很久", "每次要等半天", "jamais compris pourquoi", "절대 그렇지 않아"],
)
def test_always_and_never_said_of_how_things_go(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "De ahora en adelante no hay más avisos en la consola",
        "A partir de agora não tem mais aviso no log",
        "Ab jetzt läuft der Build nicht mehr",
        "Désormais on ne voit plus l'erreur",
        "впредь не было сбоев",
    ],
)
def test_from_now_on_before_a_report_is_no_rule(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "всегда были проблемы с кешем",
        "никогда не падали эти джобы",
        "в дальнейшем нужно будет добавить кеш",
    ],
)
def test_russian_past_plurals_and_later_plans_are_no_rules(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "uso el comando grep y no encuentra nada",  # a common noun after an article
        "uso a versão antiga do pacote",
        "ich nutze die Chance für eine Frage",
        "j'utilise la fonction reduce mais ça casse",
    ],
)
def test_using_a_thing_of_the_task_is_no_fact(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("отвечай по-русски, зачем тут этот флаг?", "Language: отвечай по-русски"),
        ("responde en español, ¿por qué falla el build?", "Language: responde en español"),
    ],
)
def test_the_language_to_talk_in_before_a_question(text: str, claim: str) -> None:
    assert _one(text) == (claim, "preference", "language.answer_language")


def test_a_bare_language_may_answer_a_question_about_a_document() -> None:
    assert extract_claims("на русском") == []
    assert extract_claims("en español") == []


@pytest.mark.parametrize(
    ("text", "claim", "kind"),
    [
        ("запомни: не трогай папку vendor", "Don't: не трогай папку vendor", "constraint"),
        (
            "запомни, что миграции надо запускать через make migrate",
            "Remember: миграции надо запускать через make migrate",
            "constraint",
        ),
        ("记住：发版前先跑测试", "Remember: 发版前先跑测试", "constraint"),
        (
            "recuerda: no subas el .env al repositorio",
            "Don't: no subas el .env al repositorio",
            "constraint",
        ),
        (
            "запомни, мы деплоим через docker compose",
            "Remember: мы деплоим через docker compose",
            "fact",
        ),
        ("记住，我们的数据库在阿里云上", "Remember: 我们的数据库在阿里云上", "fact"),
    ],
)
def test_what_is_remembered_gives_the_kind(text: str, claim: str, kind: str) -> None:
    got = _one(text)
    assert got[0] == claim and got[1] == kind


def test_a_negated_rule_to_keep_says_so_in_english() -> None:
    claim, kind, rule = _one("提交前不要跑全量测试，写到CLAUDE.md中")
    assert claim == "Don't: 提交前不要跑全量测试" and rule == "language.memory_request"


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("这些术语我看不懂，我是个编程小白，讲简单点", "User: 我是个编程小白"),
        ("我是一名后端工程师", "User: 我是一名后端工程师"),
        (
            "私は Rails エンジニアで、フロントは初心者です",
            "User: 私は Rails エンジニアで、フロントは初心者です",
        ),
        ("저는 iOS 개발자예요", "User: 저는 iOS 개발자예요"),
        ("я не программист, объясни проще", "User (not): я не программист"),
        ("sou desenvolvedora backend", "User: sou desenvolvedora backend"),
        ("No soy programador, explícalo fácil", "User (not): No soy programador"),
        ("Je suis développeur Python", "User: Je suis développeur Python"),
        ("Ich bin kein Entwickler", "User (not): Ich bin kein Entwickler"),
        ("io sono una sviluppatrice web", "User: io sono una sviluppatrice web"),
    ],
)
def test_who_the_user_is_is_a_fact(text: str, claim: str) -> None:
    assert _one(text)[:3] == (claim, "fact", "language.user_is")


@pytest.mark.parametrize(
    "text",
    [
        "如果我是新手，应该怎么学？",  # a hypothetical
        "我是说之前的旧方案",  # "I mean …"
        "我是这个项目的学生吗",  # a question
        "私はこのエンジニアの意見に反対です",  # not the user's trade
    ],
)
def test_talk_that_is_not_who_the_user_is(text: str) -> None:
    assert [c for c in extract_claims(text) if c.rule == "language.user_is"] == []


def test_the_users_machine_said_as_who_they_are() -> None:
    assert _one("另外，我是mac系统，能装这个吗？")[:3] == (
        "Environment: 我是mac系统",
        "fact",
        "language.user_env",
    )


def test_a_sigh_over_the_task_is_not_who_the_user_is() -> None:
    assert extract_claims("这个帐号啊，我是小白啊，我不会啊") == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("我装了ripgrep，帮我配一下别名", "Installed: 我装了ripgrep"),
        ("fzf已经安装了，你看一下", "Installed: fzf已经安装了"),
        ("Zellij はインストール済みです", "Installed: Zellij はインストール済みです"),
        ("uv 이미 설치되어 있어 그걸로 돌려줘", "Installed: uv 이미 설치되어 있어"),
        ("у меня уже установлен Podman", "Installed: у меня уже установлен Podman"),
        ("já tenho o Bun instalado", "Installed: já tenho o Bun instalado"),
        ("ya tengo Deno 2 instalado", "Installed: ya tengo Deno 2 instalado"),
        ("ich habe Colima installiert", "Installed: ich habe Colima installiert"),
    ],
)
def test_a_tool_the_user_has_installed_is_a_fact(text: str, claim: str) -> None:
    assert _one(text)[:3] == (claim, "fact", "language.installed")


@pytest.mark.parametrize(
    "text",
    [
        "这个模块封装了ssh连接",  # wrapped, not installed
        "npm安装了依赖",  # the installer, not a tool installed
        "instalé las dependencias",  # the task's packages
        "安装好了吗",  # a question
    ],
)
def test_installing_that_is_no_installed_tool(text: str) -> None:
    assert [c for c in extract_claims(text) if c.rule == "language.installed"] == []


def test_a_fact_said_before_a_question_stands() -> None:
    assert _one("我们要做一个跨境电商的库存管理系统，预算有限，明白吗")[:2] == (
        "Project: 我们要做一个跨境电商的库存管理系统",
        "fact",
    )
    assert _one("我用的是 fish，怎么配置？")[0] == "Uses: 我用的是 fish"
    assert extract_claims("以后都用pnpm吗") == []  # a rule asked about is no rule


def test_what_the_project_is_goes_on_in_its_describing_clauses() -> None:
    claim = _one(
        "我想做一个背单词的小程序，这个小程序主要面向高中生，内容以高考词汇为主，怎么设计？"
    )[0]
    assert claim.startswith("Project: 我想做一个背单词的小程序") and "高考" not in claim
    claim = _one("我想做一个背单词的系统，这个系统面向高中生，内容以高考词汇为主，怎么设计？")[0]
    assert "高中生" in claim and "高考词汇" in claim and "设计" not in claim


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("пользуюсь fish и zoxide", "fish"),  # Russian drops the pronoun
        ("пишем на Elixir, помоги с тестом", "Elixir"),
        ("usamos Supabase para o banco", "Supabase"),  # a team's plural
        ("usiamo Django e Postgres", "Django"),
        ("trabajo con Flutter", "Flutter"),  # working with a tool
        ("ich arbeite mit Nix", "Nix"),
        ("Helix 쓰고 있어요", "Helix"),  # Korean ongoing form
        ("Laravel で開発しています", "Laravel"),  # Japanese ongoing form
    ],
)
def test_more_ways_of_saying_what_one_works_with(text: str, tool: str) -> None:
    claim, kind, rule = _one(text)
    assert claim.startswith("Uses: ") and tool in claim and kind == "fact"
    assert rule == "language.i_use"


@pytest.mark.parametrize("text", ["trabalho com isso amanhã", "использую этот файл"])
def test_working_on_the_thing_at_hand_is_no_tool(text: str) -> None:
    assert extract_claims(text) == []


def test_the_users_account_name_is_a_fact_but_a_servers_login_is_not() -> None:
    assert _one("github用户名是 octo-dev，帮我配置一下")[:2] == (
        "Account: github用户名是 octo-dev",
        "fact",
    )
    assert extract_claims("服务器地址给你，用户名是root") == []


@pytest.mark.parametrize(
    ("text", "claim", "rule"),
    [
        ("我本地有Obsidian，笔记都在里面", "Has: 我本地有Obsidian", "language.has"),
        ("我有gitlab账号", "Has: 我有gitlab账号", "language.has"),
        (
            "远程仓库地址是 https://example.org/team/app.git 。帮我推上去",
            "Repository: 远程仓库地址是 https://example.org/team/app.git",
            "language.repository",
        ),
        (
            "리포지토리는 없고 저장소 URL은 https://example.org/me/site.git이야",
            "Repository: 리포지토리는 없고 저장소 URL은 https://example.org/me/site.git이야",
            "language.repository",
        ),
    ],
)
def test_what_the_user_has_and_where_the_repository_is(text: str, claim: str, rule: str) -> None:
    assert _one(text)[:3] == (claim, "fact", rule)


@pytest.mark.parametrize("text", ["我有个bug", "我有API key吗", "我有一个问题"])
def test_having_a_problem_is_no_fact(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "代码注释统一用中文",
        "commit message 用英文写",
        "コミットメッセージは英語で書いてください",
        "커밋 메시지는 영어로 작성해줘",
        "комментарии пиши на английском",
        "los commits siempre en inglés",
        "Kommentare immer auf Englisch",
    ],
)
def test_the_language_of_comments_and_commits_is_a_convention(text: str) -> None:
    claim, kind, rule = _one(text)
    assert claim == f"Convention: {text}" and kind == "preference"
    assert rule == "language.artifact_language"


@pytest.mark.parametrize("text", ["这个文件的注释用英文", "以上三篇文档全部用中文输出"])
def test_the_language_of_this_file_or_these_documents_is_the_task(text: str) -> None:
    assert extract_claims(text) == []


def test_the_language_to_talk_in_as_a_middle_clause() -> None:
    got = _one("我之前说过了，回复必须是中文，为什么又输出英文")
    assert got[:3] == ("Language: 回复必须是中文", "preference", "language.answer_language")


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("revisa mi neovim con LazyVim, por favor", "Uses: mi neovim con LazyVim"),
        ("configure meu alacritty com fish e starship", "Uses: meu alacritty com fish e starship"),
        ("我的zsh和starship配置有问题", "Uses: 我的zsh和starship配置有问题"),
    ],
)
def test_the_users_setup_named_with_a_possessive(text: str, claim: str) -> None:
    assert _one(text)[:3] == (claim, "fact", "language.my_tool")


@pytest.mark.parametrize(
    "text",
    ["aplique essas configurações no meu tmux https://example.org/theme.git", "мой tmux тормозит"],
)
def test_the_users_tool_as_the_target_of_this_turn_is_no_setup_fact(text: str) -> None:
    assert [c for c in extract_claims(text) if c.rule == "language.my_tool"] == []


def test_a_run_on_typed_paragraph_is_read_for_its_clauses_about_the_user() -> None:
    text = (
        "preciso que você me ajude a revisar tudo de forma correta e com calma porque quero "
        "deixar funcionando direito e minimalista sem nada sobrando no sistema que eu uso todo "
        "dia no trabalho e em casa também, configure meu wezterm abrindo com fish e starship "
        "e depois veja se o resto faz sentido para você também sem pressa nenhuma e sem mexer "
        "em nada que já funciona hoje"
    )
    got = [(c.claim, c.rule) for c in extract_claims(text)]
    assert ("Uses: meu wezterm abrindo com fish e starship", "language.my_tool") in got


def test_exhortations_set_apart_by_spaces_are_no_rule_about_all() -> None:
    # "所有" belongs to the last exhortation, not to the don't at the start
    assert extract_claims("不要降低产品的品质 不能降低我们的标准 一定要认真打磨所有的细节") == []
    claim, kind, _ = _one("不要每次都重新安装依赖")
    assert claim == "Don't: 不要每次都重新安装依赖" and kind == "constraint"


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("后端用的是 FastAPI 和 PostgreSQL", "Stack: 后端用的是 FastAPI 和 PostgreSQL"),
        ("前端用Svelte写一个登录页", "Stack: 前端用Svelte"),  # the part's tool, not the task
        ("バックエンドは Rails で動いています", "Stack: バックエンドは Rails"),
        ("백엔드는 Spring Boot로 되어 있어", "Stack: 백엔드는 Spring Boot"),
        ("бэкенд на Go, фронт на React", "Stack: бэкенд на Go"),
        ("o backend é em Node com Express", "Stack: o backend é em Node com Express"),
    ],
)
def test_the_projects_stack_part_by_part(text: str, claim: str) -> None:
    assert _one(text)[:3] == (claim, "fact", "language.stack")


def test_an_indented_last_line_continues_a_pasted_plan() -> None:
    pasted = "\n".join(
        [
            "我们选了方案A，下面是原来的两个方案，帮我确认部署步骤：",
            "- 方案A：迁移到 Next.js API Routes",
            "    把 Express 的处理逻辑改写成 API Routes。",
            "- 方案B：后端迁移到 Supabase",
            "    说明：这个方案的部署步骤比较多，需要分开处理。",
            "    前端用的是 Vercel，后端放到 Supabase。",
        ]
    )
    assert [c for c in extract_claims(pasted) if c.rule == "language.stack"] == []


def test_what_the_user_builds_now_is_what_they_build() -> None:
    assert _one("我现在想做一个记账的小程序，帮我列一下功能")[:2] == (
        "Project: 我现在想做一个记账的小程序",
        "fact",
    )
    assert extract_claims("我现在要做一个这个页面的按钮") == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "バックエンドのコードは ../shop_api であり、必要ならこれを参照して",
            "Location: バックエンドのコードは ../shop_api であり",
        ),
        ("设计文档都放在 docs/design/ 下", "Location: 设计文档都放在 docs/design/ 下"),
        ("конфиги лежат в ~/.config/nvim", "Location: конфиги лежат в ~/.config/nvim"),
        ("o código fica em src/app", "Location: o código fica em src/app"),
    ],
)
def test_where_a_part_of_the_work_lives(text: str, claim: str) -> None:
    assert _one(text)[:3] == (claim, "fact", "language.lives_at")


def test_where_this_files_code_is_is_the_task() -> None:
    assert extract_claims("这个文件的代码在 src/a.py") == []


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("siempre usa pnpm para instalar", "language.es_always"),
        ("Siempre ejecutar los tests antes de hacer commit", "language.es_always"),
        ("use sempre pnpm", "language.pt_always"),
        ("пиши всегда тесты к новым функциям", "language.ru_always"),
        ("#все инструкции для агента храни на английском языке", "language.artifact_language"),
    ],
)
def test_always_with_the_verb_first_and_spanish_always(text: str, rule: str) -> None:
    assert _one(text)[2] == rule


def test_spanish_always_of_how_things_go_is_no_rule() -> None:
    assert extract_claims("siempre falla el build") == []


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("main への直接 push は禁止です", "language.ja_ban"),
        ("매번 커밋 전에 테스트 돌려줘", "language.ko_always"),
    ],
)
def test_a_japanese_ban_and_korean_every_time(text: str, rule: str) -> None:
    claim, kind, got = _one(text)
    assert got == rule and kind == "constraint" and claim.split(":")[0] in ("Never", "Always")


def test_asking_whether_something_is_banned_is_no_rule() -> None:
    assert extract_claims("この変更は禁止ですか") == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("проект на Next.js и Prisma", "Stack: проект на Next.js и Prisma"),
        ("мы на Vue 3, помоги с роутером", "Stack: мы на Vue 3"),
    ],
)
def test_russian_stack_of_the_project_and_the_team(text: str, claim: str) -> None:
    assert _one(text)[:3] == (claim, "fact", "language.stack")


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("我只需要中文回复", "Language: 我只需要中文回复"),
        ("先跑一下测试，输出中文回复，有问题再问", "Language: 输出中文回复"),
        ("为什么又是英文，我需要输出中文回复。", "Language: 我需要输出中文回复"),
        (
            "你可以以后每次开新会话都自动说中文吗？",
            "Language: 你可以以后每次开新会话都自动说中文吗",
        ),
        # the language named alone after a verb of talking (Italian, Polish, Vietnamese: the
        # blind recall sample of the second stranger audit, 2026-12-05, missed such a line)
        ("parla italiano", "Language: parla italiano"),
        ("Rispondimi sempre italiano per favore.", "Language: Rispondimi sempre italiano per favore"),
        ("zawsze odpowiadaj do mnie po polsku", "Language: zawsze odpowiadaj do mnie po polsku"),
        ("Pisz po angielsku.", "Language: Pisz po angielsku"),
        ("trả lời bằng tiếng Việt", "Language: trả lời bằng tiếng Việt"),
        ("luôn nói bằng tiếng Anh nhé", "Language: luôn nói bằng tiếng Anh nhé"),
    ],
)
def test_the_language_the_user_needs_back_is_a_standing_preference(text: str, claim: str) -> None:
    assert _one(text) == (claim, "preference", "language.answer_language")


@pytest.mark.parametrize(
    "text",
    [
        "我不仅需要你这次输出中文回复，还要找出原因",  # this turn's answer, then a task
        "可以说中文吗？",  # asking whether it can, no standing wish
        "这份报告需要输出中文版本",  # a document's language is the task's
        # said of someone, or inside a request
        "il cliente parla italiano",
        "parla italiano e poi aggiorna il file",
        "mów po polsku co robi ten kod?",
        "the italiano font is broken",
    ],
)
def test_a_language_mentioned_for_this_turn_is_no_preference(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("不要使用yarn test，这个命令的缓存有问题，改用别的", "Don't: 不要使用yarn test"),
        ("先跑一次单测，注意用本地的vitest，不要用npx vitest", "Don't: 不要用npx vitest"),
        ("用Kotlin重写，不再使用Java", "Don't: 不再使用Java"),
    ],
)
def test_a_tool_not_to_use_is_a_clause_of_its_own(text: str, claim: str) -> None:
    assert _one(text) == (claim, "constraint", "language.dont_use_tool")


@pytest.mark.parametrize(
    "text",
    [
        "从真实页面测（不要用demo页面，也不要后台跑）",  # a thing of the task, not a tool
        "改成 null，不要用 lastSeen 代替",  # a field of the code
        "这些可以删掉吗，不再使用 legacy_flag",  # a pasted identifier
        "为什么不要用pnpm？",  # a question
    ],
)
def test_a_name_that_is_the_tasks_is_no_tool_to_avoid(text: str) -> None:
    assert extract_claims(text) == []


def test_the_tool_the_user_works_with_said_as_what_they_use() -> None:
    claim, kind, rule = _one("我是用sourcetree，一个git图形界面")
    assert claim.startswith("Uses: 我是用sourcetree") and (kind, rule) == ("fact", "language.i_use")
    # how something was just done, and a question, are not what the user works with
    assert extract_claims("我是用cmd打开的") == []
    assert extract_claims("我是用powershell可以吗") == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "Modifie le claude.md pour utiliser pnpm au lieu de npm dans tous les scripts",
            "Remember: utiliser pnpm au lieu de npm dans tous les scripts",
        ),
        (
            "ajoute à la mémoire de ce projet pour lui dire qu'il lise d'abord les fichiers voisins",
            "Remember: il lise d'abord les fichiers voisins",
        ),
        ("Adicione na memória que nunca devemos usar yarn", "Don't: nunca devemos usar yarn"),
        (
            "Aggiungi al CLAUDE.md che i test vanno sempre in tests/",
            "Remember: i test vanno sempre in tests/",
        ),
    ],
)
def test_a_rule_asked_to_be_kept_in_memory_in_latin_script(text: str, claim: str) -> None:
    assert _one(text) == (claim, "preference", "language.memory_request")


@pytest.mark.parametrize(
    "text",
    [
        "Modifie le claude.md",  # what to write is not said
        "Ajoute au claude.md ce qu'on vient de faire",  # the turn's work, said by deixis
    ],
)
def test_asking_to_keep_nothing_said_is_no_rule(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("i log di errore devono sempre finire in logs/errors.log", "devono sempre"),
        ("o deploy deve sempre passar pelo CI", "deve sempre"),
        ("les migrations doivent toujours être relues", "doivent toujours"),
        ("перед коммитом нужно всегда запускать линтер", "нужно всегда"),
    ],
)
def test_what_must_always_be_so_is_a_standing_rule(text: str, words: str) -> None:
    claim, kind, rule = _one(text)
    assert claim.startswith("Always: ") and words in claim
    assert (kind, rule) == ("preference", "language.must_always")


@pytest.mark.parametrize(
    "text",
    [
        "der Test muss immer noch angepasst werden",  # still, not always
        "le build doit toujours pas passer",  # still not
        "se possibile, deve sempre funzionare?",  # a question
        "если нужно всегда можешь спросить",  # a condition
    ],
)
def test_still_and_questions_with_a_modal_are_no_rule(text: str) -> None:
    assert extract_claims(text) == []


def test_a_requirement_of_a_thing_of_the_task_is_no_standing_rule() -> None:
    # "es" is the menu being built: the sentence states what it must do, a feature requirement
    assert (
        extract_claims("Man kann Einträge entfernen, deshalb muss es sich immer neu ausrichten")
        == []
    )


def test_asking_what_it_does_every_time_is_a_question_not_a_wish() -> None:
    assert extract_claims("你每次都说中文吗？") == []


def test_german_im_is_not_read_as_i_am() -> None:
    # "im" is "in the" in German; the claim keeps the user's words as written
    claims = [c.claim for c in extract_claims("Die Preise im Backoffice müssen immer netto sein.")]
    assert claims and all("i'm" not in c.lower() for c in claims), claims
    assert "im Backoffice" in claims[0]
    # English "im" still reads as "I'm"
    assert [c.claim for c in extract_claims("im on fedora and i always use fish")] == [
        "User is on fedora; always use fish"
    ]


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # the asking last, as a clause of its own
        ("提交说明都要写成英文，把这一条规则记住", "Remember: 提交说明都要写成英文"),
        # the asking first, naming the rule as one; the rule ends where a new point starts
        (
            "CLAUDE.md中再加一个规则，生成的脚本都放进 scripts 目录，另外刚才那个文件删掉",
            "Remember: 生成的脚本都放进 scripts 目录",
        ),
        ("把以下内容添加到md文件中：接口文档都用中文写", "Remember: 接口文档都用中文写"),
        # the rule after the asking, set apart by a space
        ("这个也加入记忆中 docker容器里直接用 pnpm 安装依赖", "Remember: docker容器里直接用 pnpm 安装依赖"),
        ("сохрани в память, что деплоим только через make", "Remember: деплоим только через make"),
        ("добавь в CLAUDE.md правило: тесты пиши на pytest", "Remember: тесты пиши на pytest"),
        # Japanese and Korean: the file first, the asking last, the rule between
        ("CLAUDE.md に「PR の説明は日本語で書く」と追記して", "Remember: PR の説明は日本語で書く"),
        ("AGENTS.mdにprefer uvというルールを追加してください", "Remember: prefer uv"),
        ("CLAUDE.md에 브랜치 이름은 영어로 쓰라고 추가해줘", "Remember: 브랜치 이름은 영어로 쓰라고"),
    ],
)
def test_a_rule_asked_to_be_kept_in_more_shapes(text: str, claim: str) -> None:
    assert _one(text) == (claim, "preference", "language.memory_request")


@pytest.mark.parametrize(
    "text",
    [
        # what follows the asking is the reason or how to write the note, not a rule
        "把刚才的结论记录到记忆，方便下次新对话理解",
        "架构说明更新到项目md文件，尽量写得简短一些",
        "确保写入记忆的颗粒度足够细",
        # the note is this turn's change, or the asking is a question
        "CLAUDE.md に今回の変更内容を追記して",
        "md中加一个规则吗？",
    ],
)
def test_keeping_the_turns_own_things_yields_no_rule(text: str) -> None:
    assert [c.rule for c in extract_claims(text) if c.rule == "language.memory_request"] == []


def test_a_negated_rule_asked_to_be_kept_first_says_so_in_english() -> None:
    claim, _, rule = _one("CLAUDE.md中加一条规则：不要直接推送到 main 分支")
    assert claim == "Don't: 不要直接推送到 main 分支" and rule == "language.memory_request"


@pytest.mark.parametrize(
    ("text", "claim", "rule"),
    [
        ("Sempre verifique os tipos antes de comitar", "Always: Sempre verifique os tipos", "pt_always"),
        ("Nunca inclua segredos no código", "Never: Nunca inclua segredos no código", "pt_never"),
        ("Nunca assumir que o build passou sem rodar", "Never: Nunca assumir", "pt_never"),
        ("Não se esqueça: documente cada endpoint novo", "Remember: documente", "pt_remember"),
    ],
)
def test_portuguese_written_instructions_with_always_or_never(
    text: str, claim: str, rule: str
) -> None:
    got, _, sub = _one(text)
    assert got.startswith(claim) and sub == f"language.{rule}"


@pytest.mark.parametrize(
    "text",
    # the -a of an -ar verb and the -e of an -er/-ir verb are the present tense: a report
    ["sempre falha quando abro o app", "o build sempre desiste no meio", "nunca testa direito"],
)
def test_portuguese_reports_with_always_are_no_rules(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # Portuguese "no" is "in the", no negation
        (
            "Lembre-se de sempre registrar as tarefas no harness",
            "Always: sempre registrar as tarefas no harness",
        ),
        (
            "Lembre-se de atualizar o changelog no README a cada release",
            "Remember: atualizar o changelog no README a cada release",
        ),
    ],
)
def test_portuguese_no_is_in_the(text: str, claim: str) -> None:
    assert _one(text)[0] == claim
    assert _one("recuerda: no toques la carpeta legacy")[0].startswith("Don't:")


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "o vscode trava bastante, por isso eu prefiro usar o terminal nativo, faz sentido?",
            "Prefers: eu prefiro usar o terminal nativo",
        ),
        (
            "Ich bevorzuge immer kleine Commits, auch wenn es länger dauert.",
            "Prefers: Ich bevorzuge immer kleine Commits",
        ),
        # ("… en vez de Docker" names the other tool: "Use Podman, not Docker", prefer_over)
        (
            "prefiero usar Podman para los contenedores",
            "Prefers: prefiero usar Podman para los contenedores",
        ),
        ("je préfère toujours les tests d'intégration", "Prefers: je préfère toujours les tests d'intégration"),
        ("я предпочитаю использовать Vue", "Prefers: я предпочитаю использовать Vue"),
    ],
)
def test_what_the_user_prefers_to_use_or_do(text: str, claim: str) -> None:
    assert _one(text) == (claim, "preference", "language.i_prefer")


@pytest.mark.parametrize(
    "text",
    [
        "prefiro que você faça isso agora",  # what this turn should do
        "ich bevorzuge die zweite Variante",  # a pick among options
        "я предпочитаю второй вариант",
        "我倾向于方案一",
    ],
)
def test_a_pick_or_this_turns_wish_is_no_preference(text: str) -> None:
    assert [c for c in extract_claims(text) if c.rule == "language.i_prefer"] == []


@pytest.mark.parametrize(
    "text",
    [
        "返答は常に日本語でお願いします",
        "これからは日本語で答えてください",
        "대답은 항상 한국어로 해줘",
        "всегда общайся со мной на русском",
        "responda sempre em pt-br",
    ],
)
def test_the_language_to_talk_in_said_in_more_ways(text: str) -> None:
    assert _one(text) == (f"Language: {text}", "preference", "language.answer_language")


@pytest.mark.parametrize(
    "text",
    [
        "この設計書は日本語で書いて",  # a document's language is the task's
        "要点を日本語で教えてください",  # this answer's
        "Em português, por favor",  # a bare language may answer a question
        "в этом файле пиши на русском",
    ],
)
def test_a_language_for_this_turn_is_no_answer_language(text: str) -> None:
    assert [c for c in extract_claims(text) if c.rule == "language.answer_language"] == []


@pytest.mark.parametrize(
    "text",
    [
        "Переименуй проект в ORBIT",
        "把项目改名为 orbit-app",
        "プロジェクト名を Orbit に変更して",
        "프로젝트 이름을 Orbit으로 바꿔",
        "renomeie o projeto para Orbit",
        "Benenne das Projekt in Orbit um",
    ],
)
def test_the_projects_new_name_is_a_decision(text: str) -> None:
    claim, kind, rule = _one(text)
    assert claim.startswith("Renamed: ") and "orbit" in claim.lower()
    assert (kind, rule) == ("decision", "language.rename_project")


@pytest.mark.parametrize(
    "text",
    ["переименуй команду agent-check в agent:check", "把这个文件改名为 main.py", "把函数改名为 load_all"],
)
def test_renaming_a_thing_of_the_task_is_no_decision(text: str) -> None:
    assert [c for c in extract_claims(text) if c.rule == "language.rename_project"] == []


def test_the_new_name_is_its_own_clause() -> None:
    claim, _, _ = _one("项目名称改为 orbit，然后把首页重写一遍")
    assert claim == "Renamed: 项目名称改为 orbit"


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("меня зовут Ирина, помоги настроить бота", "Name: меня зовут Ирина"),
        ("meu nome é Ana Souza", "Name: meu nome é Ana Souza"),
        ("me llamo Carlos y trabajo con Django", "Name: me llamo Carlos"),
        ("私の名前は Sato です", "Name: 私の名前は Sato"),
        ("페이지 하단에 내 Lastname 인 Kowalski 를 넣어줘", "Name: 내 Lastname 인 Kowalski"),
        ("我的名字是林伟", "Name: 我的名字是林伟"),
    ],
)
def test_the_users_own_name(text: str, claim: str) -> None:
    assert _one(text) == (claim, "fact", "language.user_name")


@pytest.mark.parametrize("text", ["我叫你做的不是这个", "меня зовут на созвон в пять", "mi nombre de usuario"])
def test_asking_or_a_lowercase_word_is_no_name(text: str) -> None:
    assert [c for c in extract_claims(text) if c.rule == "language.user_name"] == []


@pytest.mark.parametrize(
    "text", ["実行は uv run を使ってモジュールとして実行したいです", "ビルドは Vite を使って高速化したいです"]
)
def test_japanese_how_a_part_is_done_with_a_tool(text: str) -> None:
    assert _one(text) == (f"Use: {text}", "preference", "language.ja_part_with")


def test_japanese_a_thing_of_the_task_done_with_a_tool_is_no_preference() -> None:
    assert extract_claims("この関数はlodash を使って書き直したいです") == []


@pytest.mark.parametrize(
    "text", ["O problema é que instalei algumas extensões", "eu não lembro de onde instalei este", "instalé esos paquetes ayer"]
)
def test_installing_a_pointer_or_some_is_no_installed_tool(text: str) -> None:
    assert [c for c in extract_claims(text) if c.rule == "language.installed"] == []


def test_portuguese_always_commit_with_the_english_verb() -> None:
    assert _one("sempre commit mesmo pequenos ajustes") == (
        "Always: sempre commit mesmo pequenos ajustes",
        "constraint",
        "language.pt_always",
    )


def test_my_setup_tool_and_then_a_task_is_no_fact() -> None:
    assert [c for c in extract_claims("configure meu zshrc e implemente as melhorias") if c.rule == "language.my_tool"] == []
    assert _one("meu tmux e zsh")[0] == "Uses: meu tmux e zsh"


@pytest.mark.parametrize(
    "text",
    [
        # a step of this work recalled ("remember to …"), as in English, unless said as a habit
        "Lembre-se de conferir o log do servidor",
        "não esqueça de apagar a pasta temporária ao final",
        "n'oublie pas de relancer le serveur de dev",
        "ricordati di aggiornare il file di configurazione",
        "recuerda de revisar la consola del navegador",
        # the situation of this work: what we need now, the problem at hand, what was said before
        "Lembre-se que precisamos reinstalar as dependências por causa do cache",
        "Não esqueça, o maior problema é que o importador apagou os registros antigos!!",
        "Lembre-se, eu revisei a versão anterior e só acrescentei exemplos.",
        "Lembre-se do que eu disse no começo, as telas devem ficar iguais ao protótipo",
    ],
)
def test_a_recalled_step_or_situation_is_no_memory(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("não esqueça de escrever cada commit em inglês", "Remember: escrever cada commit"),
        ("Lembre-se de rodar o formatador antes de abrir um PR", "Remember: rodar o formatador"),
        ("Lembre-se, o arquivo SPEC.md é a referência principal do projeto", "Remember: o arquivo SPEC.md"),
    ],
)
def test_a_recalled_habit_or_fact_is_kept(text: str, claim: str) -> None:
    assert _one(text)[0].startswith(claim)


def test_a_plain_dont_closing_a_longer_request_bounds_it() -> None:
    closing = (
        "Estamos portando o módulo de faturas para o repositório novo. Compare cada arquivo com a"
        " versão original e liste as diferenças num relatório. NÃO USE SUBAGENTS NAS COMPARAÇÕES."
    )
    assert extract_claims(closing) == []
    first = (
        "Não use inglês nos nomes das telas. Os usuários são todos brasileiros. Imagine alguém"
        " procurando a tela de faturas."
    )
    assert [c.rule for c in extract_claims(first)] == ["language.pt_dont"]


# Portuguese "no" is "em + o" (in the), not a negation; Spanish "no" negates. Read by grammar:
# the sentence's language words, where the "no" stands, and what follows it.
@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "A partir de agora, escrever cada commit no imperativo.",
            "From now on: A partir de agora, escrever cada commit no imperativo",
        ),
        (
            "Salve na memória: sempre escrever os commits no modo imperativo",
            "Remember: sempre escrever os commits no modo imperativo",
        ),
        (
            "Lembre-se: o banco de dados roda no docker local.",
            "Remember: o banco de dados roda no docker local",
        ),
    ],
)
def test_portuguese_no_is_in_the_not_a_negation(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "De ahora en adelante no uses npm",
            "From now on, don't: De ahora en adelante no uses npm",
        ),
        ("Recuerda: no lo subas a main", "Don't: no lo subas a main"),
        (
            "A partir de ahora, el bot no responde en inglés",
            "From now on, don't: A partir de ahora, el bot no responde en inglés",
        ),
        (
            "De ahora en adelante, escribe los commits no en inglés",
            "From now on, don't: De ahora en adelante, escribe los commits no en inglés",
        ),
        ("D'ora in poi non usare emoji", "From now on, don't: D'ora in poi non usare emoji"),
        (
            "À partir de maintenant, ne touche pas au dossier legacy",
            "From now on, don't: À partir de maintenant, ne touche pas au dossier legacy",
        ),
    ],
)
def test_spanish_no_and_other_negations_still_negate(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # the reply as the subject, a modal, the language (own wording)
        ("回复内容只需要中文，不要夹英文", "Language: 回复内容只需要中文"),
        ("注意，回复话术都用中文", "Language: 回复话术都用中文"),
        ("我希望你给出的回答都是中文", "Language: 我希望你给出的回答都是中文"),
        # talking with the user, from now on, by default
        ("和我对话请用中文", "Language: 和我对话请用中文"),
        ("用中文跟我沟通", "Language: 用中文跟我沟通"),
        ("以后用中文", "Language: 以后用中文"),
        ("默认用中文回复", "Language: 默认用中文回复"),
        ("请说中文", "Language: 请说中文"),
        ("中文回复就行", "Language: 中文回复就行"),
        ("今後は日本語でお願いします", "Language: 今後は日本語でお願いします"),
    ],
)
def test_the_reply_language_said_in_more_ways(text: str, claim: str) -> None:
    got = [(c.claim, c.rule) for c in extract_claims(text)]
    assert (claim, "language.answer_language") in got, got


@pytest.mark.parametrize(
    "text",
    [
        "文档用中文",  # a document's language: the task's
        "报告要用中文写",
        "那份中文说明我读不懂",
        "网页是中文",
        "可以说中文吗？",  # a question
        "把这段翻译成中文",
    ],
)
def test_a_document_or_a_question_in_a_language_is_no_reply_preference(text: str) -> None:
    assert not [c for c in extract_claims(text) if c.rule == "language.answer_language"]


@pytest.mark.parametrize(
    ("text", "rule", "label"),
    [
        ("千万别把生产库的密码写进日志", "language.zh_never", "Never"),
        ("严禁在主分支上强推", "language.zh_never", "Never"),
        ("我习惯用neovim", "language.i_use", "Uses"),
        ("我一般用fish", "language.i_use", "Uses"),
        ("我们公司使用Jira", "language.i_use", "Uses"),
        ("我们用的构建工具是Bazel", "language.i_use", "Uses"),
        ("我的开发环境是Ubuntu", "language.user_env", "Environment"),
        ("我是在Linux上开发的", "language.user_env", "Environment"),
        ("私はmacユーザーです", "language.user_env", "Environment"),
        ("제 노트북은 맥북입니다", "language.user_env", "Environment"),
        ("저는 리눅스에서 개발합니다", "language.user_env", "Environment"),
        ("我本地装的是Node 20", "language.installed", "Installed"),
        ("这个项目是用Vue写的", "language.project_uses", "Uses"),
        ("このリポジトリはRustで書かれています", "language.project_uses", "Uses"),
    ],
)
def test_setup_and_bans_said_plainly(text: str, rule: str, label: str) -> None:
    claim, _kind, sub = _one(text)
    assert sub == rule and claim.startswith(label + ": ")


@pytest.mark.parametrize(
    "text",
    [
        "我们用的版本是v2",  # a value of the task, not a tool
        "我用的分支是dev",
        "我们团队用什么工具比较好",  # a question
        "这个项目是用什么写的",
        "这个项目用React写的话会不会更快",  # a condition
        "我是在mac上开发的吗",
        "私はWindowsユーザーですか",
    ],
)
def test_setup_questions_and_task_values_are_no_facts(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("我们项目的数据库是MongoDB", "Stack"),
        ("我们的CI用的是GitLab CI", "Stack"),
        ("项目的部署平台是Netlify", "Stack"),
        ("我们的测试框架是jest", "Stack"),
        ("我们的服务部署在GCP上", "Stack"),
        ("デプロイ先はNetlifyです", "Stack"),
        ("テストフレームワークはjestです", "Stack"),
        ("우리 데이터베이스는 MongoDB입니다", "Stack"),
        ("我的博客在~/sites/blog目录下", "Location"),
        ("私のメモは~/notesにあります", "Location"),
    ],
)
def test_the_projects_parts_and_places_said_plainly(text: str, label: str) -> None:
    claim, kind, _rule = _one(text)
    assert kind == "fact" and claim.startswith(label + ": ")


@pytest.mark.parametrize(
    "text",
    [
        "我们的数据库是不是该换成MongoDB？",  # a question
        "如果部署平台是Netlify会怎样",  # a condition
        "数据库是这个MongoDB吗",
        "我的博客在下面这个目录~/x/blog",  # pointing at the task's text
    ],
)
def test_parts_asked_about_or_supposed_are_no_facts(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "我们工程的样例数据在/srv/data/orders.csv",
        "我们项目的入口在app/server.py",
        "我们项目的静态资源在public/assets",
    ],
)
def test_a_part_of_the_users_project_at_a_path(text: str) -> None:
    claim, kind, rule = _one(text)
    assert (claim, kind, rule) == (f"Location: {text}", "fact", "language.lives_at")


@pytest.mark.parametrize(
    "text",
    [
        "项目的问题是CORS报错",  # what is wrong, no path
        "我们项目的数据库是不是在/var/lib/db？",  # a question
    ],
)
def test_what_is_wrong_or_asked_is_no_place(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("앞으로 커밋 메시지는 한국어로 써줘", "language.from_now_on"),
        ("이 프로젝트는 Django로 만들어졌어요", "language.project_uses"),
        ("우리 팀은 Jira를 사용해요", "language.i_use"),
    ],
)
def test_korean_from_now_on_built_with_and_team_tools(text: str, rule: str) -> None:
    assert _one(text)[2] == rule


@pytest.mark.parametrize(
    "text",
    [
        "앞으로 이 파일 고쳐줘",  # this file: the task at hand
        "이번에는 항상 테스트해 줘",  # this time
        "이 프로젝트는 Django로 만들어졌나요?",  # a question
    ],
)
def test_korean_this_time_and_questions_are_no_rules(text: str) -> None:
    assert extract_claims(text) == []


def test_a_japanese_tool_fact_ends_where_but_turns_to_the_problem() -> None:
    # "I use Helix, but since yesterday the formatter does not run": the fact is the tool
    text = "Helixを使っているのですが、昨日からフォーマッタが動かなくなりました"
    assert _one(text) == ("Uses: Helixを使っている", "fact", "language.i_use")


def test_a_korean_always_word_says_the_rule_lasts_as_other_languages_do() -> None:
    # "항상" (always) marks a rule meant to last, as 常に / 总是 / siempre do: the gate keeps it
    # however short the sentence is (it weighed a short Korean rule as a one-liner)
    text = "항상 pnpm을 사용해줘"
    [cand] = extract_claims(text)
    assert durability.exempt(durability.candidate_features(text, cand.claim, cand.rule))
    assert durability.durable(text, cand.claim, cand.rule)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("npm 대신 pnpm 써", "language.ko_instead"),
        ("npm 대신 pnpm을 사용해 주세요", "language.ko_instead"),
        ("npmではなくpnpmを使って", "language.ja_instead"),
        ("npmの代わりにpnpmを使ってください", "language.ja_instead"),
        ("pnpm statt npm verwenden", "language.de_instead"),
    ],
)
def test_one_tool_instead_of_another_with_the_rejected_one_first(text: str, rule: str) -> None:
    # the same rule as "use pnpm instead of npm", so the same claim (they converge on one atom)
    assert _one(text) == ("Use pnpm, not npm", "preference", rule)


@pytest.mark.parametrize(
    "text",
    [
        "npm 대신 pnpm 써도 돼?",  # may I use …? a question
        "npmではなくpnpmを使ってもいいですか？",
        "pnpm statt npm verwenden?",
    ],
)
def test_asking_whether_to_swap_tools_is_no_rule(text: str) -> None:
    assert extract_claims(text) == []



@pytest.mark.parametrize(
    "text",
    [
        "Verwende poetry nicht mehr.", "Benutze npm nicht mehr, nimm pnpm.", "Nutze yarn nicht länger.",
        "Use npm e não mais o yarn.", "Utilise npm et pas plus yarn.",
        # a word with a diacritic is a whole word: "más", "più" were the tools "m", "pi"
        "Usa npm y no más yarn.", "Usa npm e non più yarn.",
    ],
)  # fmt: skip
def test_a_tool_no_longer_used_is_never_read_as_a_choice_of_it(text: str) -> None:
    # "nicht mehr", "não mais", "no más" are "no longer": they were read as a tool turned down,
    # "Use poetry, not mehr" — the opposite of what was said. Dropped rather than guessed (the
    # gate keeps a bare "… nicht" out as it keeps "Verwende poetry nicht." out).
    assert [c.claim for c in extract_claims(text) if c.claim.startswith("Use ")] == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("Usa pnpm en lugar de npm.", "Use pnpm, not npm"),
        ("Utilise pnpm au lieu de npm.", "Use pnpm, not npm"),
        ("Verwende pnpm, nicht npm.", "Use pnpm, not npm"),
        ("Usa pnpm invece di npm.", "Use pnpm, not npm"),
    ],
)
def test_a_tool_turned_down_by_name_is_still_read(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]
