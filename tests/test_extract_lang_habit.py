"""Standing rules and setup facts written from each language's grammar (extract/rules/lang_habit.py
and the setup / project entries of languages.py and lang_user.py): what to do every time
something happens, "I want you to always …", an always/never rule said as a later clause, what
the project is built with, the user's machine. Look-alikes (reports, questions, conditions, the
task at hand) yield nothing. Every sentence here is our own."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims


def _rules(text: str) -> list[tuple[str, str, str]]:
    return [(c.claim, c.kind, c.rule) for c in extract_claims(text)]


def _one(text: str) -> tuple[str, str, str]:
    got = _rules(text)
    assert len(got) == 1, (text, got)
    return got[0]


@pytest.mark.parametrize(
    "text",
    [
        "每次改完接口之后，记得更新一下文档",
        "每次发版前请先跑完整的测试",
        "你每次新建组件以后都要先写单元测试",
        "Toda vez que mudar o schema, rode as migrations",
        "Sempre que criar uma rota nova, escreva um teste",
        "Cada vez que toques el esquema, ejecuta las migraciones",
        "Siempre que hagas un commit, escribe el mensaje en inglés",
        "Chaque fois que tu ajoutes une route, écris un test",
        "À chaque fois que vous modifiez le schéma, lancez les migrations",
        "Ogni volta che cambi lo schema, esegui le migrazioni",
        "Jedes Mal, wenn du das Schema änderst, führe die Migrationen aus",
        "Immer wenn du eine Komponente anlegst, schreibe einen Test dazu",
        "Каждый раз после правок прогоняй тесты",
        "Каждый раз, когда ты меняешь схему, обновляй миграции",
        "スキーマを変えるたびにマイグレーションを実行してください",
        "コンポーネントを追加したときは必ずテストを書くこと",
        "스키마를 바꿀 때마다 마이그레이션을 실행해줘",
    ],
)
def test_what_to_do_every_time_is_a_standing_rule(text: str) -> None:
    claim, kind, rule = _one(text)
    assert rule == "language.every_time" and kind == "constraint"
    assert claim.startswith("Every time: ")


@pytest.mark.parametrize(
    "text",
    [
        "每次发版之后都会报错",  # what happens, not what to do
        "每次启动之后都要等好几分钟",
        "每次运行后都要报错",  # what happens every time
        "每次启动后都要重新登录，好烦",  # a complaint, not an instruction
        "每次提交前都要跑一遍lint太慢了",
        "为什么每次改完接口之后，都要先重启服务？",  # a question
        "每次改完这个文件之后，先跑一下测试",  # this file: the task at hand
        "Toda vez que rodo o servidor, dá erro",  # a report in the first person
        "Sempre que abro o projeto, ele congela",
        "Cada vez que abro el editor, usa mucha memoria",  # "usa" here is a report
        "Cada vez que lanzo los tests, falla uno",
        "Chaque fois que je démarre, ça plante",
        "Ogni volta che apro il progetto, si blocca",
        "Jedes Mal, wenn ich baue, kommt ein Fehler",
        "Каждый раз после сборки всё ломается",
        "Каждый раз, когда я запускаю, падает",
        "ビルドするたびにエラーが出ます",
        "빌드할 때마다 에러가 나요",
        "Toda vez que mudar o schema, rode as migrations?",
        "Каждый раз, когда ты меняешь этот файл, обновляй документацию",  # this file
    ],
)
def test_a_report_or_question_about_every_time_is_no_rule(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.every_time"], text


@pytest.mark.parametrize(
    "text",
    [
        "quero que você sempre rode o lint antes de commitar",
        "quiero que siempre respondas con ejemplos cortos",
        "je veux que tu écrives toujours les tests en premier",
        "voglio che tu usi sempre pnpm",
        "Ich möchte, dass du immer zuerst die Tests schreibst",
        "хочу, чтобы ты всегда писал тесты первым делом",
        "我希望你始终先写测试再写实现",
    ],
)
def test_wanting_it_always_is_a_standing_preference(text: str) -> None:
    claim, kind, rule = _one(text)
    assert rule == "language.want_always" and kind == "preference" and claim.startswith("Always: ")


@pytest.mark.parametrize(
    "text",
    [
        "quero que você rode o lint agora",  # this turn
        "si quiero que siempre funcione, ¿qué hago?",  # a condition and a question
        "Ich möchte, dass du das immer noch prüfst",  # still, not always
        "хочу, чтобы ты всегда проверял это",  # this
        "我希望你一直在线",  # a state, not a rule
    ],
)
def test_a_wish_for_now_or_a_condition_is_no_preference(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.want_always"], text


@pytest.mark.parametrize(
    ("text", "rule", "said"),
    [
        (
            "Documente o que falta, sempre teste com vitest",
            "language.pt_always",
            "sempre teste com vitest",
        ),
        (
            "Corrige el login, y siempre ejecuta los tests",
            "language.es_always",
            "siempre ejecuta los tests",
        ),
        (
            "Arregla el login; nunca hagas push a main",
            "language.es_never",
            "nunca hagas push a main",
        ),
        ("Sistema il login, usa sempre pnpm", "language.it_always", "usa sempre pnpm"),
        ("Почини логин, никогда не пушь в main", "language.ru_never", "никогда не пушь в main"),
        ("好的，永远不要直接改main分支", "language.zh_never", "永远不要直接改main分支"),
        ("Repariere das Login, verwende immer pnpm", "language.de_always", "verwende immer pnpm"),
    ],
)
def test_an_always_rule_in_a_later_clause(text: str, rule: str, said: str) -> None:
    claim, _, got = _one(text)
    assert got == rule and claim.endswith(said)


@pytest.mark.parametrize(
    "text",
    [
        "Corrige el login, siempre falla",  # a report
        "Eu rodei, sempre dá erro",
        "修复这个问题，总是报错",
        "Arruma isso, sempre rode este script agora",  # this turn
        "Почини, всегда падает",
    ],
)
def test_a_report_in_a_later_clause_is_no_rule(text: str) -> None:
    assert _rules(text) == [], text


@pytest.mark.parametrize(
    "text",
    [
        "这个项目用的是Vue和Pinia",
        "项目使用MySQL作为数据库",
        "本项目基于Django",
        "이 프로젝트는 yarn을 사용해",
        "Esse projeto usa Remix",
        "O projeto usa Drizzle como ORM",
        "Este proyecto usa Laravel",
        "Ce projet utilise Symfony",
        "Questo progetto usa Flask",
        "Dieses Projekt nutzt Poetry",
        "Этот проект использует Flask",
        "В нашем проекте используется Kafka",
    ],
)
def test_what_the_project_is_built_with(text: str) -> None:
    claim, kind, rule = _one(text)
    assert rule == "language.project_uses" and kind == "fact" and claim.startswith("Uses: ")


@pytest.mark.parametrize(
    "text",
    [
        "用Vue重写这个项目",  # a task done with it
        "这个项目用Vue重写一下",
        "项目使用什么数据库？",
        "Esse projeto usa Remix?",  # a question
        "O projeto usa o banco antigo",  # no name
        "este proyecto usa mucha memoria",
        "Ce projet utilise trop de mémoire",
        "Dieses Projekt nutzt die alte API",
    ],
)
def test_a_task_or_question_about_the_project_is_no_fact(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.project_uses"], text


@pytest.mark.parametrize(
    "text",
    [
        "我用的编辑器是Helix",
        "我平时用的终端是Kitty",
        "我在Linux上开发",
        "我的IDE是Zed",
        "私の環境はUbuntu 24.04です",
        "저는 리눅스를 써요",
        "제 개발 환경은 Fedora입니다",
        "Мой редактор — Helix",
        "Estou no Linux",
        "Estou usando macOS",
        "Meu editor é o Zed",
        "Sono su Linux",
        "Il mio editor è Helix",
        "Je suis sur Linux",
        "mi editor es helix",
    ],
)
def test_the_users_machine(text: str) -> None:
    claim, kind, rule = _one(text)
    assert rule == "language.user_env" and kind == "fact" and claim.startswith("Environment: ")


@pytest.mark.parametrize(
    "text",
    [
        "我在Linux上运行这个脚本报错",  # what happened there
        "리눅스를 사용하면 에러가 나요",  # a condition
        "Estou no meio de uma migração",
        "Estou no Linux?",
        "Il mio editor è lento",  # how it is, not which
        "mi editor es lento",
        "mein Editor ist kaputt",
        "Мой редактор тормозит",
    ],
)
def test_how_the_machine_behaves_is_no_setup_fact(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.user_env"], text


def test_a_fact_asked_about_with_a_question_mark_is_no_fact() -> None:
    assert _rules("Eu uso Linux?") == []
    # (a fact said before the question still stands)
    assert [r[2] for r in _rules("我用的是Linux，怎么配置？")] == ["language.i_use"]


@pytest.mark.parametrize(
    "text",
    [
        "Não quero que você use o Redux",
        "não quero que use emojis nas respostas",
        "No quiero que uses jQuery",
        "Je ne veux pas que tu utilises Redux",
        "Non voglio che usi Moment",
        "Ich will nicht, dass du Mocks verwendest",
        "Я не хочу, чтобы ты использовал Redux",
    ],
)
def test_not_wanting_a_tool_used_is_a_dont(text: str) -> None:
    claim, kind, rule = _one(text)
    assert rule == "language.dont_want_use" and kind == "preference" and claim.startswith("Don't: ")


@pytest.mark.parametrize(
    "text",
    [
        "Não quero que você use a tabela antiga",  # a thing of the task (an article, no name)
        "Não quero que você use o Redux agora",  # now
        "No quiero que uses eso",  # a pointer
    ],
)
def test_not_wanting_a_thing_of_the_task_is_no_dont(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.dont_want_use"], text


@pytest.mark.parametrize(
    "text",
    [
        "Prefiro yarn ao npm",
        "Prefiero yarn en lugar de npm para los proyectos",
        "Je préfère yarn à npm, c'est plus rapide",
        "Preferisco yarn a npm",
        "Ich bevorzuge yarn statt npm",
        "Я предпочитаю yarn вместо npm",
    ],
)
def test_one_tool_preferred_over_another(text: str) -> None:
    assert _one(text)[::2] == ("Use yarn, not npm", "language.prefer_over")


@pytest.mark.parametrize(
    "text",
    [
        "Prefiro isso a aquilo",
        "Prefiro a opção 2 a opção 3",
        "Prefiro respostas curtas a longas explicações",
    ],
)
def test_a_pick_or_a_pointer_preferred_is_no_tool(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.prefer_over"], text


@pytest.mark.parametrize(
    "text",
    [
        "Habla en español conmigo",
        "Contéstame siempre en español",
        "Rispondi in italiano",
        "Antworte auf Deutsch",
        "Sprich Deutsch mit mir",
    ],
)
def test_the_answer_language_in_more_words(text: str) -> None:
    claim, _, rule = _one(text)
    assert rule == "language.answer_language" and claim.startswith("Language: ")


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("Lembre que usamos yarn", "Uses: usamos yarn"),
        ("Recuerda que usamos yarn", "Uses: usamos yarn"),
        ("Ricorda che usiamo yarn", "Uses: usiamo yarn"),
    ],
)
def test_a_short_fact_to_remember_is_read_as_itself(text: str, claim: str) -> None:
    assert _one(text)[0] == claim


@pytest.mark.parametrize("text", ["注意全都用英文。包括日志", "一律用中文", "全程中文"])
def test_everything_in_one_language(text: str) -> None:
    claim, kind, rule = _one(text)
    assert (
        rule == "language.all_in_language"
        and kind == "preference"
        and claim.startswith("Convention: ")
    )


@pytest.mark.parametrize("text", ["以上三篇文档全部用中文输出", "全部用英文吗", "这些全部用英文"])
def test_this_turns_documents_in_a_language_are_no_convention(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.all_in_language"], text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Anote no CLAUDE.md que usamos yarn", "usamos yarn"),
        ("Guarde na memória que o deploy é pela Netlify", "o deploy é pela Netlify"),
        ("Guarda en memoria que usamos yarn", "usamos yarn"),
        ("Ajoute dans le CLAUDE.md que nous utilisons yarn", "nous utilisons yarn"),
        ("Mémorise que nous utilisons yarn", "nous utilisons yarn"),
        ("Memorizza che usiamo yarn", "usiamo yarn"),
        ("Speichere in deinem Gedächtnis, dass wir yarn nutzen", "wir yarn nutzen"),
        ("Schreib in die CLAUDE.md, dass wir yarn nutzen", "wir yarn nutzen"),
        ("把这个写进CLAUDE.md：发版前必须跑测试", "发版前必须跑测试"),
        ("メモリに保存して：yarnを使う", "yarnを使う"),
        ("CLAUDE.mdに追記して：PRは日本語で書く", "PRは日本語で書く"),
        ("메모리에 저장해줘: yarn 사용", "yarn 사용"),
    ],
)
def test_asking_first_to_keep_what_follows(text: str, kept: str) -> None:
    claim, _, rule = _one(text)
    assert rule == "language.memory_request" and claim == f"Remember: {kept}"


@pytest.mark.parametrize(
    "text",
    [
        "Salve o arquivo na pasta docs",
        "Note que o build falhou",
        "Speichere die Datei",
        "Guarda el archivo",
    ],
)
def test_saving_a_file_or_noticing_is_no_memory_request(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.memory_request"], text


@pytest.mark.parametrize(
    "text",
    [
        "Evite usar Redux",
        "Evite emojis nas respostas",
        "Evita usar jQuery",
        "Évite d'utiliser Redux",
        "Evita di usare Moment",
        "Vermeide Mocks in Integrationstests",
        "Избегай использования Redux",
        "避免使用Redux",
    ],
)
def test_a_tool_or_kind_of_thing_to_avoid(text: str) -> None:
    claim, kind, rule = _one(text)
    assert rule == "language.avoid" and kind == "preference" and claim.startswith("Don't: ")


@pytest.mark.parametrize(
    "text",
    [
        "Evite mexer no header",  # a step of this turn
        "evite fazer isso agora",
        "Evita repetir el código",
        "Évite de casser le build",
        "Vermeide es, die Datei zu ändern",
        "避免使用这个函数",
    ],
)
def test_a_step_to_avoid_is_no_tool(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.avoid"], text


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("以降、テストは必ずvitestで書いてください", "language.from_now_on"),
        ("以降はPRの説明を英語にしてください", "language.from_now_on"),
        ("毎回プッシュ前にlintを実行してください", "language.ja_always"),
    ],
)
def test_japanese_from_now_on_and_every_time(text: str, rule: str) -> None:
    assert _one(text)[2] == rule


@pytest.mark.parametrize(
    "text", ["3行目以降は変更しないでください", "これ以降の処理を説明して", "毎回エラーになります"]
)
def test_japanese_after_a_line_or_a_report_is_no_rule(text: str) -> None:
    assert _rules(text) == [], text


@pytest.mark.parametrize(
    "text",
    [
        "Escreva os commits em inglês",
        "Escribe los mensajes de commit en inglés",
        "Écris les commentaires en anglais",
        "Scrivi i commit in inglese",
        "Schreib Kommentare immer auf Englisch",
        "Пиши коммиты на английском",
        "Os comentários no código devem ser em inglês",
        "Les commentaires du code en anglais, s'il te plaît",
    ],
)
def test_the_language_of_commits_and_comments(text: str) -> None:
    claim, _, rule = _one(text)
    assert rule == "language.artifact_language" and claim.startswith("Convention: ")


@pytest.mark.parametrize(
    "text",
    [
        "Faça o commit em inglês",  # this turn's one commit
        "Escreva este README em inglês",  # this document
        "Traduza esse arquivo para inglês",
        "Пиши этот документ на английском",
    ],
)
def test_this_turns_commit_or_document_is_no_convention(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.artifact_language"], text


@pytest.mark.parametrize(
    "text",
    [
        "Toda vez que o usuário fizer login, envie um e-mail",  # the product's behaviour
        "Sempre que alguém comentar, mande uma notificação",
        "Ogni volta che gli utenti cliccano, mostra un popup",
        "Каждый раз, когда пользователь входит, показывай баннер",
        "每次用户登录后，请记录日志",
        "ユーザーがログインするたびに通知を送ってください",
        "사용자가 로그인할 때마다 알림을 보내줘",
        "Cada vez que el usuario hace click, muestra un modal",
        "quero que ele sempre mostre o saldo",
    ],
)
def test_what_the_product_does_every_time_is_the_task(text: str) -> None:
    assert not [
        r for r in _rules(text) if r[2] in ("language.every_time", "language.want_always")
    ], text


@pytest.mark.parametrize(
    "text", ["了解、今後はテストを先に書いてください", "なるほど、以降はpnpmを使ってください"]
)
def test_japanese_from_now_on_after_a_reply_word(text: str) -> None:
    claim, _, rule = _one(text)
    assert rule == "language.from_now_on" and claim.startswith("From now on: ")


@pytest.mark.parametrize(
    "text",
    [
        "不具合について、今後どのような対策が必要かまとめてください",  # asks what to do from now on
        "この関数、今後は使わない予定です",  # a plan, no rule
    ],
)
def test_japanese_from_now_on_asked_or_planned_is_no_rule(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.from_now_on"], text
