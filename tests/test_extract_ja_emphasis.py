"""Japanese words of emphasis are not words of standing time. 必ず ("be sure to") and 絶対(に)
("absolutely") stress a request whatever its scope; a rule has a topic ("テストは必ず…",
"本番のデータは絶対に…"), which extract/rules/lang_topic.py reads. Bare 今後 is "later" (a plan or
a purpose of this change), 今後は/今後も is "from now on"; 度に is "each time" only after a verb
or の. The durable forms still stand. Every sentence here is our own."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims


def _rules(text: str) -> list[str]:
    return [c.rule for c in extract_claims(text)]


@pytest.mark.parametrize(
    "text",
    [
        "分からないところがあったら必ず質問してください",  # a condition, then the stress
        "見出しの上に絶対来るように配置してください",  # where this turn's thing goes
        "絶対にテスト用のDBを消さないでください",  # stress on this turn's request
        "絶対に空欄にならないようにしてください",
        "今後、設定ファイルにキーを追加するので、読み込みやすい形にしておいて",  # a plan: later
        "今後ページを増やしたときに衝突しないようにしてください",  # a purpose of this change
        "保険制度により料金が変わるので、それも入力できるようにしてください",  # 制度により: "by the system"
        "今日は必ずリリースまで終わらせてください",  # a time of this work is no topic
        "次は必ずE2Eテストを実行してください",
    ],
)
def test_emphasis_plans_and_look_alikes_yield_nothing(text: str) -> None:
    assert _rules(text) == [], text


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("ドキュメントは必ず英語で書いてください", "language.ja_topic_always"),
        ("本番環境では絶対にマイグレーションを手で流さないこと", "language.ja_topic_never"),
        ("マージする前に必ずCIの結果を確認してください", "language.ja_topic_always"),
        ("決してmainに直接プッシュしないでください", "language.ja_never"),
        ("今後はPRの説明を日本語で書いてください", "language.from_now_on"),
        ("今後、PRのタイトルは英語で書いてください", "language.from_now_on"),  # 今後、 with no plan after it
        ("今後請把測試放在tests目錄下", "language.from_now_on"),  # traditional Chinese 今後: from now on
        ("プッシュする度にlintを走らせてください", "language.every_time"),
    ],
)
def test_the_durable_forms_still_stand(text: str, rule: str) -> None:
    assert _rules(text) == [rule], text
