"""The clause rules are a registry of small named entries (issue 28): an atom's evidence names
the entry that made it (`family.name`), the order is declared once, a veto entry ends a
clause, and a new rule is one entry."""

from __future__ import annotations

import re

import pytest

from agent_memory.extract.pipeline import extract_claims
from agent_memory.extract.rules import registry
from agent_memory.extract.rules.base import VETO, Clause, ClauseRule, first_hit

FAMILIES = {"situation", "directive", "failure", "preference", "decision", "fact"}


def test_every_entry_is_named_and_labelled_by_its_family() -> None:
    for rule in registry.CLAUSE_RULES:
        assert rule.family in FAMILIES, rule
        assert re.fullmatch(r"[a-z_]+", rule.name), rule
        assert rule.label == f"{rule.family}.{rule.name}"


def test_the_evidence_label_is_the_entry_that_fired() -> None:
    [cand] = extract_claims("The site is hosted on Netlify.")
    assert cand.rule == "situation.hosted"
    [cand] = extract_claims("I hate magic numbers.")
    assert cand.rule == "preference.like"


def test_the_first_entry_in_the_declared_order_wins_and_a_veto_ends_the_clause() -> None:
    loose = ClauseRule("loose", "fact", re.compile(r"^use (\S+)"), "Use {1}", "preference")
    veto = ClauseRule("at_hand", "preference", re.compile(r"^use (?:it|this)\b"), "", VETO)
    assert first_hit((loose,), Clause("use it")) == ("Use it", "preference", "fact.loose")
    assert first_hit((veto, loose), Clause("use it")) is None
    assert first_hit((veto, loose), Clause("use ruff")) == ("Use ruff", "preference", "fact.loose")


def test_a_new_rule_is_one_entry(monkeypatch: object) -> None:
    # An entry placed in the registry is read by the pipeline with no other change.
    shell = ClauseRule(
        "user_shell",
        "situation",
        re.compile(r"^my shell is (\w+)$", re.I),
        "User's shell is {1}",
        "fact",
    )

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(registry, "CLAUSE_RULES", (shell, *registry.CLAUSE_RULES))
        from agent_memory.extract import statement

        statement._extract_cached.cache_clear()
        got = extract_claims("my shell is nushell")
    finally:
        mp.undo()
        statement._extract_cached.cache_clear()
    assert [(c.claim, c.kind, c.rule) for c in got] == [
        ("User's shell is nushell", "fact", "situation.user_shell")
    ]


@pytest.mark.parametrize(
    ("text", "claim", "rule"),
    [
        ("my terminal is WezTerm", "User's terminal is WezTerm", "situation.user_env"),
        ("My timezone is CET.", "User's timezone is CET", "situation.user_env"),
        ("I live in Berlin", "User lives in Berlin", "situation.user_place"),
        ("please respond in english", "Answer in English", "situation.answer_language"),
        ("用中文回答", "Language: 用中文回答", "language.answer_language"),
        ("Отвечай на русском", "Language: Отвечай на русском", "language.answer_language"),
        # how much the user knows, how wary they are, what they type on
        (
            "im not too familiar with kafka",
            "User is not too familiar with kafka",
            "situation.user_skill",
        ),
        (
            "i dont know much about terraform, explain the plan",
            "User does not know much about terraform",
            "situation.user_skill",
        ),
        (
            "I'm just wary of caching layers",
            "User is wary about caching layers",
            "situation.user_wary",
        ),
        (
            "i have a split ergonomic keyboard",
            "User has a split ergonomic keyboard",
            "situation.user_machine",
        ),
        (
            "im totally new to this, so walk me through it",
            "User is a beginner (new to this)",
            "situation.user_beginner",
        ),
        (
            "I'm a data engineer at Globex with a physics background",
            "User is a data engineer at Globex",
            "situation.user_role",
        ),
        (
            "there is a jre in /opt/jre-17",
            "There is a jre in /opt/jre-17",
            "fact.have_at",
        ),
        (
            "on linux I have a ~/bin folder",
            "User has a folder at ~/bin on linux",
            "fact.have_at",
        ),
        ("I keep my scripts in ~/scripts", "User keeps scripts in ~/scripts", "fact.have_at"),
        ("there is a file in ~/Downloads/a.csv", None, None),
        # a state of the moment, not the environment: nothing
        ("my laptop is broken", None, None),
        ("i dont know much about this", None, None),
        ("my browser is slow", None, None),
    ],
)
def test_plain_facts_about_the_user_are_one_entry_each(
    text: str, claim: str | None, rule: str | None
) -> None:
    got = [(c.claim, c.rule) for c in extract_claims(text)]
    assert got == ([(claim, rule)] if claim else [])


@pytest.mark.parametrize(
    ("text", "claim", "kind", "rule"),
    [
        # Chinese: consent first; the tool a thing is managed with; a contrast in brackets
        (
            "调用很多工具之前需要先经过我同意",
            "Ask first: 调用很多工具之前需要先经过我同意",
            "constraint",
            "language.zh_needs_approval",
        ),
        (
            "部署服务改用poetry管理",
            "Use: 部署服务改用poetry管理",
            "preference",
            "language.zh_use_to",
        ),
        ("字段还是用code（不是name）", "Use code, not name", "preference", "language.zh_instead"),
        # Japanese: always / don't / we use / build it with
        (
            "必ずテストを書いてから実装してください",
            "Always: 必ずテストを書いてから実装してください",
            "constraint",
            "language.ja_always",
        ),
        (
            "本番のデータベースは二度と触らないでください",
            "Don't: 本番のデータベースは二度と触らないでください",
            "constraint",
            "language.ja_dont",
        ),
        (
            "うちはpnpmとvitestを使っています",
            "Uses: うちはpnpmとvitestを使っています",
            "fact",
            "language.ja_we_use",
        ),
        (
            "ブログはAstroで作成したいです",
            "Use: ブログはAstroで作成したいです",
            "decision",
            "language.ja_build_with",
        ),
    ],
)
def test_marker_entries_of_chinese_and_japanese(
    text: str, claim: str, kind: str, rule: str
) -> None:
    assert [(c.claim, c.kind, c.rule) for c in extract_claims(text)] == [(claim, kind, rule)]


@pytest.mark.parametrize(
    "text",
    [
        "需要确认一下这个接口",  # "need to confirm": no one's consent asked
        "このファイルは触らないで",  # bound to this file
        "pnpmを使っていますか",  # a question without a question mark
    ],
)
def test_marker_entries_leave_the_task_at_hand_alone(text: str) -> None:
    assert extract_claims(text) == []
