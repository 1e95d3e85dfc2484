"""Recall on the prompts real people type, in their languages (benchmarks/recall_real.py measures
it on held-out sessions of real projects; every example here is our own):

- Chinese and Japanese are written without spaces, so a whole clause was one term and a prompt
  found a claim only by repeating it exactly; now Han text yields character bigrams (cut at
  function characters), katakana runs are words and hiragana separates;
- Korean words carry their particles ("서버를", "서버에서"), now cut off;
- the function words of Portuguese and Spanish typed without accents or missing from the list
  ("em", "os", "estoy", "en"), Russian ones, swearing, and the "User" the extractor writes
  claims about the user with are no terms: each made real prompts recall unrelated claims.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_recall import NOW, make_atom, one_adopted_claim

from agent_memory.store.recall import build as recall_build
from agent_memory.store.recall.adopted import ADOPTED_CACHE
from agent_memory.store.recall.adopted import adopted as adopted_memory
from agent_memory.store.recall.files import FORMAT_VERSION
from agent_memory.store.recall.score import recall
from agent_memory.store.recall.tokens import tokenize

STORE = [
    make_atom("以后回复都用简体中文", kind="preference"),
    make_atom("数据库迁移脚本放在 migrations 目录", kind="decision"),
    make_atom("デプロイの前に必ずステージング環境で動作を確かめる", kind="constraint"),
    make_atom("배포 전에 스테이징 서버에서 테스트를 돌린다", kind="constraint"),
    make_atom("Use pnpm, not npm", kind="constraint"),
    make_atom("Run ruff format before committing Python changes", kind="preference"),
    make_atom("The API server listens on port 8000 in development"),
    make_atom("Never push directly to main; open a pull request", kind="constraint"),
]


def claims(atoms: list[dict[str, Any]], prompt: str) -> list[str]:
    return [h.claim for h in recall(recall_build.build_index(atoms, ""), prompt, NOW)]


def test_han_text_yields_bigrams_cut_at_function_characters() -> None:
    assert tokenize("以后回复都用简体中文") == ["回复", "用简", "简体", "体中", "中文"]  # 以后: a stop word
    # 的 and 是 break a run; a run of one character left is no term
    assert tokenize("数据库的迁移是必须的") == ["数据", "据库", "迁移"]
    # Latin words inside a CJK run stay words
    assert tokenize("我用deepseek模型") == ["deepseek", "模型"]


def test_japanese_keeps_katakana_words_and_kanji_bigrams_not_hiragana() -> None:
    assert tokenize("ステージング環境でテストする") == ["ステージング", "環境", "テスト"]


def test_korean_words_lose_their_particles() -> None:
    assert tokenize("서버를 스테이징 서버에서") == ["서버", "스테이징", "서버"]


def test_a_chinese_prompt_finds_a_claim_sharing_words_not_the_whole_clause() -> None:
    assert claims(STORE, "请用简体中文回答") == ["以后回复都用简体中文"]
    assert claims(STORE, "帮我写一个新的数据库迁移脚本") == ["数据库迁移脚本放在 migrations 目录"]


def test_a_japanese_prompt_finds_its_claim() -> None:
    assert claims(STORE, "ステージング環境にデプロイして") == ["デプロイの前に必ずステージング環境で動作を確かめる"]


def test_a_korean_prompt_finds_its_claim_whatever_the_particles() -> None:
    assert claims(STORE, "스테이징 서버를 배포해줘") == ["배포 전에 스테이징 서버에서 테스트를 돌린다"]


def test_cjk_prompts_sharing_only_function_words_recall_nothing() -> None:
    assert claims(STORE, "我们现在可以开始了吗") == []
    assert claims(STORE, "これは何ですか") == []


def test_function_words_of_other_languages_are_no_terms() -> None:
    store = [
        make_atom("Environment: Estoy en macOS con zsh"),
        make_atom("Remember: os testes ficam em tests/unit e rodam com pytest"),
        make_atom("Convention: все ответы для клиента пиши кратко"),
        make_atom("Use pnpm, not npm", kind="constraint"),
    ]
    assert claims(store, "estoy pensando en el diseño") == []
    assert claims(store, "atualize os links em README") == []
    assert claims(store, "проверь все логи для сервера") == []
    assert claims(store, "os testes de pytest falham") == ["Remember: os testes ficam em tests/unit e rodam com pytest"]


def test_swearing_is_no_term() -> None:
    store = [make_atom("Never make fucking decisions without asking me", kind="constraint"),
             make_atom("Use pnpm, not npm", kind="constraint")]  # fmt: skip
    assert claims(store, "just fucking stop") == []
    assert claims(store, "ask me before big decisions") == ["Never make fucking decisions without asking me"]


def test_the_user_the_extractor_writes_claims_about_is_no_term() -> None:
    store = [
        make_atom("User is building a budgeting app for freelancers", quote="I'm building a budgeting app for freelancers"),
        make_atom("User's timezone is Europe/Lisbon", quote="my timezone is Europe/Lisbon"),
        make_atom("User does not want Claude to suggest options", quote="don't suggest options, just do it"),
        make_atom("Use pnpm, not npm", kind="constraint"),
    ]
    assert claims(store, "build the user signup form") == []
    assert claims(store, "add a user options menu") == []
    assert claims(store, "add a freelancers page to the budgeting app") == ["User is building a budgeting app for freelancers"]


def test_an_adopted_cache_holding_older_token_sets_is_not_used(tmp_path: Path) -> None:
    """Recall compares a candidate with what is adopted through `tokenize`'s token sets, kept
    in a cache: one written before this tokenizer (its key without the index format) held the
    whole Chinese clause as one token, and is read again rather than trusted."""
    import marshal

    state, roots = one_adopted_claim(tmp_path, "以后回复都用简体中文")
    adopted_memory(state, roots)
    cache = state / ADOPTED_CACHE
    key, ids, lines, _ = marshal.loads(cache.read_bytes())
    assert key[1] == FORMAT_VERSION
    without_format = (key[0], *key[2:])  # as the older code keyed it
    cache.write_bytes(marshal.dumps((without_format, ids, lines, (("以后回复都用简体中文",),))))
    # a candidate restating the adopted line in other words is found through the new bigrams
    assert adopted_memory(state, roots).restates("x", "以后回复都要用简体中文")


# A pasted status update: many topics, the backup tool named once in passing.
LONG_PROMPT = """Here are my notes from this week, can you turn them into a changelog entry?
Frontend: migrated the settings page to the new design tokens, fixed the flickering avatar on
Safari, added keyboard shortcuts to the kanban board, dropped the legacy carousel. Payments:
Stripe webhooks now verify signatures, refunds show in the ledger, the invoice PDF gets the VAT
number. Infra: moved the queue workers to spot instances, upgraded Postgres to 16, the restic
backup ran twice, rotated the Cloudflare tokens, trimmed Grafana dashboards. Mobile: Android
splash screen, iOS push certificates renewed, offline drafts sync on reconnect, crash in the
camera picker fixed. Docs: onboarding guide rewritten, architecture diagram redrawn. QA: flaky
checkout scenario quarantined, visual snapshots regenerated, accessibility audit found contrast
issues. Hiring: two interviews for the designer role, referral bonus announced in Slack."""


def test_a_long_prompt_needs_more_of_its_words_matched() -> None:
    store = [
        make_atom("Run the nightly backup with restic, never with rsync", kind="constraint"),
        make_atom("Use pnpm, not npm", kind="constraint"),
        make_atom("The API server listens on port 8000 in development"),
        make_atom("Never push directly to main; open a pull request", kind="constraint"),
    ]
    assert claims(store, "the restic backup failed last night") == ["Run the nightly backup with restic, never with rsync"]
    assert claims(store, LONG_PROMPT) == []
