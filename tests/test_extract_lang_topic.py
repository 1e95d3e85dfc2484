"""A standing rule said topic first, with the word of standing time in the predicate
(extract/rules/lang_topic.py): "代码注释始终保持英文", "テストは必ず pytest で書いてください",
"테스트는 항상 pytest로 작성해 주세요". Look-alikes — reports ("页面总是显示空白", "常に差分が出る"),
complaints, the product's behaviour, this turn's edit, a reason or a condition — yield nothing.
Every sentence here is our own."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims


def _rules(text: str) -> list[tuple[str, str, str]]:
    return [(c.claim, c.kind, c.rule) for c in extract_claims(text)]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("代码注释始终保持英文", "language.zh_topic_always"),
        ("测试以后都用pytest来写", "language.zh_topic_always"),
        ("文档以后统一放在docs目录下", "language.zh_topic_always"),
        ("我们的数据库迁移每次都要先备份", "language.zh_topic_always"),
        ("每次修改完代码都要运行测试", "language.zh_topic_always"),
        ("前端的依赖一律用pnpm安装", "language.zh_topic_always"),
        ("部署脚本永远不要直接改生产库", "language.zh_topic_never"),
        ("密钥一律不能写进代码", "language.zh_topic_never"),
        ("テストは必ずpytestで書いてください", "language.ja_topic_always"),
        ("ファイルを削除する前に必ず確認してください", "language.ja_topic_always"),
        ("コミット前には必ずlintを実行すること", "language.ja_topic_always"),
        ("本番のデータは絶対に消さないこと", "language.ja_topic_never"),
        ("테스트는 항상 pytest로 작성해 주세요", "language.ko_topic_always"),
        ("운영 서버에서는 절대 직접 수정하지 말 것", "language.ko_topic_never"),
    ],
)
def test_a_rule_said_topic_first_is_standing(text: str, rule: str) -> None:
    got = _rules(text)
    assert len(got) == 1, (text, got)
    claim, kind, sub = got[0]
    assert sub == rule and kind == "constraint"
    assert claim == ("Never: " if rule.endswith("never") else "Always: ") + text


@pytest.mark.parametrize(
    "text",
    [
        "页面总是显示空白",  # a report: no verb of conduct
        "测试每次运行都很慢",
        "这个按钮总是不能点",
        "日志永远是空的",
        "结果每次都要等很久",
        "集成测试一直都要跑很久",  # how long it takes
        "缓存每次都要运行半天",
        "我每次都要手动点确认",  # the speaker's complaint
        "新用户永远要先完成引导",  # the product's behaviour
        "数据每天统一更新",  # the product's schedule
        "把所有接口统一用post",  # this turn's edit
        "生成完以后统一输出到一个文件",  # a step: then all at once
        "然后统一用新的命名",
        "截图都要放在这个目录里",  # this directory: the task at hand
        "如果有时间，测试每次都要先跑一遍",  # a condition
        "代码可以统一用英文注释吗",  # a question
        "我建议统一用新的命名",  # a suggestion
        "常に差分が出る",  # a report
        "ボタンは常に右上に表示してください",  # the product's screen
        "通知は必ず送信されるようにしてください",  # a behaviour of the product
        "ユーザーは必ずログインしてください",
        "今回は必ずテストを書いてください",  # this time
        "このファイルは必ず残してください",
        "エラーがいつも出るので直してください",  # a reason for this turn's request
        "いつもの手順でデプロイしてください",  # "the usual": a step of this turn
        "이번에는 항상 테스트해 주세요",  # this time
        "버튼은 항상 오른쪽에 표시해 주세요",  # the product's screen
    ],
)
def test_reports_complaints_specs_and_steps_are_not_rules(text: str) -> None:
    assert not [r for r in _rules(text) if "topic" in r[2]], (text, _rules(text))


def test_the_usual_procedure_is_a_step_of_this_turn() -> None:
    # "いつもの" is "the usual", not "always": the sentence-initial ja_always reads it no more
    assert _rules("いつもの手順でデプロイしてください") == []
    assert _rules("いつも最新版でテストしてください")[0][2] == "language.ja_always"


@pytest.mark.parametrize(
    "text",
    [
        "缩进统一用四个空格",
        "组件名都用PascalCase",
        "分支名必须用kebab-case",
        "表名用下划线命名",
        "インデントは4スペースでお願いします",
        "関数名はスネークケースにすること",
        "파일명은 케밥 케이스로 통일해 주세요",
    ],
)
def test_a_code_convention_said_of_its_kind_of_name(text: str) -> None:
    got = _rules(text)
    assert got == [(f"Convention: {text}", "preference", "language.code_convention")], got


@pytest.mark.parametrize(
    "text",
    [
        "文件名用report_v2",  # a name of this turn, not a style
        "这个文件的变量名用驼峰",  # this file
        "变量名用驼峰吗",  # a question
        "如果可以，缩进用两个空格",  # a condition
    ],
)
def test_a_name_of_this_turn_or_a_question_is_no_convention(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.code_convention"]


def test_a_written_rule_on_the_comments_language() -> None:
    assert _rules("コメントは英語にすること") == [
        ("Convention: コメントは英語にすること", "preference", "language.artifact_language")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "我的原则是能用现成的库就不自己写",
        "我们的规范就是：所有接口都返回统一的结构",
        "私の方針は、まず動くものを作ってから整えることです",
        "うちのルールは金曜日にはデプロイしないことです",
        "우리 팀의 원칙은 테스트 없이 머지하지 않는 것입니다",
    ],
)
def test_the_users_own_principle_said_as_one(text: str) -> None:
    assert _rules(text) == [(f"Principle: {text}", "preference", "language.principle")]


@pytest.mark.parametrize(
    "text",
    [
        "你给的规则是逐条读",  # the assistant's rule, reported
        "要记的规则实在太多了",  # talk about rules
        "我们的原则是什么",  # a question
        "我们现在的约定是先不动接口",  # now: the task at hand
    ],
)
def test_rules_talked_about_are_no_principle(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.principle"]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("我比较喜欢小而纯的函数", "Prefers"),
        ("比起Jest我更喜欢Vitest", "Prefers"),
        ("解释尽量简短", "Prefers"),
        ("僕は短い関数が好きです", "Prefers"),
        ("説明は手短にお願いします", "Prefers"),
        ("余計な前置きは不要です", "Don't"),
        ("저는 작은 커밋을 선호합니다", "Prefers"),
    ],
)
def test_what_the_user_likes_said_of_themselves(text: str, label: str) -> None:
    assert _rules(text) == [(f"{label}: {text}", "preference", "language.likes")]


@pytest.mark.parametrize(
    "text",
    [
        "我更喜欢第二种",  # a pick of this turn
        "我喜欢这个设计",
        "我喜欢你的回答",  # praise of the answer
        "我比较喜欢B",
        "我倾向于方案一",
        "这个组件的方案我更喜欢第一个",
        "このデザインの方が好きです",
    ],
)
def test_a_pick_or_praise_is_no_preference(text: str) -> None:
    assert not [r for r in _rules(text) if r[2] == "language.likes"]


@pytest.mark.parametrize(
    "text",
    ["写测试的时候都要加断言说明", "发版的时候都要先更新版本号", "合并的时候一律要先跑测试"],
)
def test_an_occasion_said_of_every_time_is_a_standing_rule(text: str) -> None:
    assert _rules(text) == [(f"Always: {text}", "constraint", "language.zh_topic_always")]


@pytest.mark.parametrize(
    "text",
    [
        "发版的时候记得打标签",  # no 都: may be this turn's release
        "构建的时候都要等很久",  # a report
        "用户注册的时候都要先验证邮箱",  # the product's behaviour
        "你总是用英文回复",  # a complaint of what it keeps doing
    ],
)
def test_an_occasion_reported_or_specified_is_no_rule(text: str) -> None:
    assert not [r for r in _rules(text) if "always" in r[2]], _rules(text)
