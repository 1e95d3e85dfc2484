"""Plain durable statements in other languages, said the way a manual would say them: the words
the language rules had not read yet ("返信は…", "请用", "sur un Mac", a project named before
"usamos", a compound trade, "en vez de"). Look-alikes about the work at hand yield nothing.
Every sentence here is our own."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims


def _rules(text: str) -> list[str]:
    return [c.rule for c in extract_claims(text)]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("返信は日本語でお願いします", "language.answer_language"),
        ("代码注释请用英文写", "language.artifact_language"),
        ("Je travaille sur un Mac M1", "language.user_env"),
        ("En este proyecto usamos pnpm", "language.i_use"),
        ("In questo progetto usiamo Poetry", "language.i_use"),
        ("Ich bin Backend-Entwickler", "language.user_is"),
        ("我是一名前端开发，主要用 React 和 TypeScript", "language.user_is"),
        ("Prefiero Vitest en vez de Jest", "language.prefer_over"),
        ("prefiero usar Podman en vez de Docker", "language.prefer_over"),
        # the project named first, then the tool it uses
        ("このプロジェクトではbunを使います", "language.project_uses"),
        ("Dans ce projet on utilise Poetry", "language.i_use"),
        ("In diesem Projekt verwenden wir pnpm", "language.i_use"),
    ],
)
def test_a_plain_durable_statement_is_read(text: str, rule: str) -> None:
    assert rule in _rules(text), (text, _rules(text))


@pytest.mark.parametrize(
    "text",
    [
        "这个函数的注释请改成英文",  # this turn's edit of one function's comments
        "我是在前端开发的时候遇到这个问题的",  # when it happened, not who the user is
        "En este proyecto usamos el archivo viejo, bórralo",  # a thing of the task, with an article
        "Traduce este archivo al español",
        "このプロジェクトではこの関数を使います",  # "this function": a thing of the task
        "Dans ce projet on utilise le fichier config",  # an article and a file of the task
        "In diesem Projekt verwenden wir die alte Datei",
        "in diesem Projekt verwenden wir noch webpack, kannst du das auf vite migrieren",  # still: to go
    ],
)
def test_look_alikes_about_the_work_at_hand_yield_nothing(text: str) -> None:
    assert _rules(text) == [], (text, _rules(text))


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("jangan pernah menggunakan emoji", "language.id_never"),
        ("selalu gunakan pnpm untuk install", "language.id_always"),
        ("tolong selalu jawab dalam bahasa Indonesia", "language.answer_language"),
        ("mulai sekarang gunakan bun, bukan npm", "language.from_now_on"),
    ],
)
def test_indonesian_standing_rules_and_facts_are_read(text: str, rule: str) -> None:
    assert _rules(text) == [rule], (text, _rules(text))


@pytest.mark.parametrize(
    "text",
    [
        "jangan pernah hapus file ini",  # "this file": the thing at hand
        "mulai sekarang semuanya lancar",  # from now on, a report: all is fine
        "selalu error ketika build",  # "always errors on build": a report
        "coba gunakan ponytail pada project ini",  # try it on this project
        "saya pakai laptop ini",
        "aku pakai cara lain aja",  # "I'll use another way": no tool, a step
        "saya pakai VS Code tapi extension-nya tidak jalan",  # a report
        "jangan pernah berhenti sampai semua test lulus",  # "don't stop until the tests pass"
        "Jangan pernah hapus filenya, cukup perbaiki bug di fungsi login",  # -nya: the file at hand
        "Selalu tulis log yang salah, coba cek kenapa",  # a report and a question
        "tolong balas dalam bahasa Inggris untuk komentar PR-nya",  # a reply for one PR comment
    ],
)
def test_indonesian_look_alikes_yield_nothing(text: str) -> None:
    assert _rules(text) == [], (text, _rules(text))
