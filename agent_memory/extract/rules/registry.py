"""The order the clause rules are tried in, declared once: the first entry that makes a claim
wins. Specific shapes come before loose ones — what a session is about (`situation`), then
directives, stated failures, preferences, decisions and facts. A new rule is one entry in its
family's tuple (and one test); its place in that tuple is its priority."""

from __future__ import annotations

from agent_memory.extract.rules import directives, facts, preferences, situation, user_facts
from agent_memory.extract.rules.base import Clause, ClauseRule, Hit, first_hit

CLAUSE_RULES: tuple[ClauseRule, ...] = (
    *situation.RULES,
    *user_facts.RULES,
    *directives.RULES,
    *facts.FAILURE_RULES,
    *preferences.PREFERENCE_RULES,
    *preferences.DECISION_RULES,
    *facts.RULES,
)
WHOLE_SENTENCE_RULES: tuple[ClauseRule, ...] = (
    *situation.WHOLE_SENTENCE,
    *user_facts.WHOLE_SENTENCE,
)


def clause_hit(clause: Clause) -> Hit | None:
    return first_hit(CLAUSE_RULES, clause)


def whole_sentence_hit(sentence: str) -> Hit | None:
    return first_hit(WHOLE_SENTENCE_RULES, Clause(sentence))
