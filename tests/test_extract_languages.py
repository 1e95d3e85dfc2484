"""Non-English rules (extract/rules/languages.py): a standing rule said with a clear marker
becomes one claim in the user's words behind an English label; the turn's own instructions,
questions, hedges and pasted documents yield nothing. Every sentence here is our own."""

from __future__ import annotations

import pytest

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


def test_remember_needs_what_is_remembered() -> None:
    assert extract_claims("记住这个数字，明天再看") == []
    claim, kind, _ = _one("记住：我们的服务器都在新加坡")
    assert claim == "Remember: 我们的服务器都在新加坡" and kind == "fact"


def test_someone_elses_confirmation_is_no_approval_rule() -> None:
    assert extract_claims("客户要我确认了再发货") == []
