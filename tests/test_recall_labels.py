"""Recall matches a prompt on the user's words, not ours: the label the extractor puts before a
claim kept in the user's language ("Remember: …", "From now on: …") and the function words of
Portuguese, Spanish, French, German and Italian are no index terms. Before, "remember to run
the linter" brought every "Remember: …" candidate of a project, and a Portuguese remark
("o que você acha disso? para mim está bom") one that shared only "para" with it."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

from sessions import gm_json, write_session

import agent_memory.extract.rules as rules_pkg
from agent_memory.model.claim_labels import CLAIM_LABELS, claim_body

RULES_DIR = Path(rules_pkg.__file__).parent

TYPED = [
    "Lembre-se: o arquivo schema.sql é a fonte da verdade do banco.",
    "recuerda siempre que el entorno virtual está en .venv",
    "De agora em diante, vamos usar pnpm para instalar as dependências.",
    "Lembre-se, RFQ.md é a fonte da verdade dos requisitos.",
]
ABOUT_THEM = ["where is schema.sql?", "como instalar as dependências?", "activate the .venv entorno"]
ABOUT_NONE = ["remember this", "o que você acha disso? para mim está bom", "vamos testar isso agora"]


def _declared_labels() -> set[str]:
    """Every label a rule table declares (a (pattern, label, kind, sub) row) and every label
    an f-string of the rules writes before a claim (`f"Remember: {…}"`)."""
    found: set[str] = set()
    for info in pkgutil.iter_modules([str(RULES_DIR)]):
        module = importlib.import_module(f"agent_memory.extract.rules.{info.name}")
        for value in vars(module).values():
            if isinstance(value, list) and value and all(isinstance(r, tuple) and len(r) == 4 for r in value):
                found |= {r[1] for r in value if isinstance(r[1], str) and r[1]}
        source = (RULES_DIR / f"{info.name}.py").read_text("utf-8")
        found |= set(re.findall(r'f"([A-Z][A-Za-z ,\']{1,30}): \{', source))
        chosen = re.findall(r'label = "([A-Z][A-Za-z ]+)" if \w+ else "([A-Z][A-Za-z ]+)"', source)
        found |= {label for pair in chosen for label in pair}  # lang_choice: "Decided (not to use)"
    return found


def test_every_label_the_rules_write_is_known_to_recall() -> None:
    declared = _declared_labels()
    assert {"Remember", "Decided", "From now on", "Installed"} <= declared  # the scan reads them
    assert declared <= CLAIM_LABELS, sorted(declared - CLAIM_LABELS)


def test_claim_body() -> None:
    assert claim_body("Remember: siempre que el entorno está en .venv") == "siempre que el entorno está en .venv"
    assert claim_body("Deploy: run make release") == "Deploy: run make release"  # not ours
    assert claim_body("Use pnpm, not npm") == "Use pnpm, not npm"


def test_recall_reads_the_users_words_not_ours(guarded: Path) -> None:
    write_session(guarded, "5ec0aaaa-0000-4000-8000-000000000001", "2026-10-01", [{"user": t} for t in TYPED])
    gm_json(guarded, "capture", "--all", "--no-stage")
    for prompt in ABOUT_THEM:  # the positive controls
        assert gm_json(guarded, "recall", "--prompt", prompt)["atoms"], prompt
    brought = {p: [a["claim"] for a in gm_json(guarded, "recall", "--prompt", p)["atoms"]] for p in ABOUT_NONE}
    assert brought == dict.fromkeys(ABOUT_NONE, []), brought


def test_words_of_the_trade_stay_terms() -> None:
    """Other languages' function words that are also words of the trade stay terms."""
    from agent_memory.store.recall.tokens import tokenize

    assert "todo" in tokenize("add a todo list page")
    assert "bin" in tokenize("scripts live in bin/")
    assert "war" in tokenize("build the war file")
    assert "del" in tokenize("map the del key")
