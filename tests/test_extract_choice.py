"""A choice the user or team made, said in another language (extract/rules/lang_choice.py): "we
will use / we won't use / we decided to use / let's use <a named tool>" becomes one decision in
the user's words behind an English label; a pick among offered options, a pointer, a choice for
this one case and a question yield no decision. Every sentence here is our own."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims


def _decisions(text: str) -> list[tuple[str, str]]:
    return [(c.claim, c.kind) for c in extract_claims(text) if c.rule == "language.choice"]


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("Beleza, vamos usar Supabase para a autenticação.", "Supabase"),
        ("Decidimos usar pnpm no monorepo inteiro.", "pnpm"),
        ("Usaremos vitest nos testes e seguimos com o plano.", "vitest"),
        ("Vamos a usar Redis para las colas de trabajos.", "Redis"),
        ("Nous avons décidé d'utiliser Caddy comme serveur web.", "Caddy"),
        ("On va utiliser SQLite pour les tests locaux.", "SQLite"),
        ("Abbiamo deciso di usare Astro per il sito.", "Astro"),
        ("Wir haben uns für Hetzner entschieden.", "Hetzner"),
        ("Lass uns Biome statt ESLint verwenden.", "Biome"),
        ("Будем использовать Caddy вместо nginx.", "Caddy"),
        ("Мы решили использовать uv для зависимостей.", "uv"),
        ("我们决定用 Drizzle 做 ORM", "Drizzle"),
        ("我们采用 Hono 作为后端框架", "Hono"),
        ("Svelte を使うことにしました。", "Svelte"),
    ],
)
def test_a_choice_in_another_language_is_a_decision(text: str, tool: str) -> None:
    got = _decisions(text)
    assert len(got) == 1, (text, got)
    claim, kind = got[0]
    assert kind == "decision" and claim.startswith("Decided: ") and tool in claim
    assert "not" not in claim.split(":", 1)[0]


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("Não vamos usar Docker nesse projeto de jeito nenhum.", "Docker"),
        ("Altere o plano, não usaremos Kafka, a fila fica no Postgres.", "Kafka"),
        ("No vamos a usar Firebase.", "Firebase"),
        ("Wir haben uns gegen Kubernetes entschieden.", "Kubernetes"),
        ("Мы решили не использовать Redux.", "Redux"),
        ("我们决定不再用 Jenkins", "Jenkins"),
    ],
)
def test_a_choice_not_to_use_says_not_in_english(text: str, tool: str) -> None:
    got = _decisions(text)
    assert len(got) == 1, (text, got)
    claim, kind = got[0]
    assert kind == "decision" and claim.startswith("Decided not to use: ") and tool in claim


def test_only_the_clause_of_the_choice_is_kept() -> None:
    # the request and the next step around it are the turn's, not the decision
    got = _decisions("Atualize a tarefa, vamos usar Postgres localmente, depois vemos o deploy")
    assert got == [("Decided: vamos usar Postgres localmente", "decision")]


@pytest.mark.parametrize(
    "text",
    [
        "vamos usar a opção 2",  # a pick among the options offered this turn
        "vamos usar essa abordagem então",  # a pointer at what was just said
        "vamos usar o mesmo padrão da outra tela",  # "the same" as something at hand
        "Neste caso, vamos usar Jest mesmo.",  # this one case
        "Por enquanto vamos usar Mockoon.",  # for now
        "vamos usar a tabela antiga",  # a thing of the task, not a named tool
        "Vamos usar Postgres ou MySQL?",  # a question
        "我们决定用什么数据库？",  # a question, nothing named
        "usamos Postgres aqui",  # a present report (another rule's), no choice made
        "vamos usar Cypress para testar esse fluxo",  # a tool for one step of this turn
        "On va utiliser httpie pour vérifier la route.",  # the same, in French
        "Будем использовать curl, чтобы проверить ответ.",  # the same, in Russian
        "vamos usar Docker aqui",  # here: the task at hand
    ],
)
def test_no_decision_without_a_named_standing_choice(text: str) -> None:
    assert _decisions(text) == []


def test_a_list_of_names_chosen_stays_whole() -> None:
    # one name per item, "e" before the last: the whole stack is the choice
    got = _decisions("ok, usaremos bun, hono, drizzle e zod. Depois vemos o deploy")
    assert got == [("Decided: usaremos bun, hono, drizzle e zod", "decision")]
    # an item of several words is the next thing said, not a name chosen
    got = _decisions("vamos usar Redis, depois pensamos no cache")
    assert got == [("Decided: vamos usar Redis", "decision")]


def test_a_choice_before_a_question_word_that_asks_nothing_stands() -> None:
    # "…, 想想怎么做迁移" goes on to a task with a question word in it, no question asked
    got = _decisions("我们决定用 Drizzle 做 ORM，然后想想怎么做迁移")
    assert got == [("Decided: 我们决定用 Drizzle 做 ORM", "decision")]
    # with a question mark the choice is offered for approval, or asked about
    assert _decisions("我们决定用 Drizzle 做 ORM，怎么做迁移？") == []
    assert _decisions("Vamos usar Drizzle, o que acha?") == []


def test_a_tool_dropped_keeps_the_one_chosen_instead() -> None:
    got = _decisions("Mudança: não usaremos Jest, usaremos Vitest - atualize a doc")
    assert got == [("Decided not to use: não usaremos Jest, usaremos Vitest", "decision")]
    # the next clause says something else: only the drop is kept
    got = _decisions("não usaremos Kafka, a fila fica no banco")
    assert got == [("Decided not to use: não usaremos Kafka", "decision")]
