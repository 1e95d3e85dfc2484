"""Claude's own memory (auto-memory, model-written) contradicting an atom: the pair is
reported for review (`inspect --contested`), but no line is tagged contested in what is
injected (SessionStart's contested map, recall), through frames and rebuilds alike."""

from __future__ import annotations

from typing import Any

import pytest
from builders import l1_atom

from agent_memory.store import contradictions
from agent_memory.store.capture import capture_atoms
from agent_memory.store.l1 import L1Store
from agent_memory.store.recall import writer as recall_writer
from agent_memory.store.recall.files import contested_at_index
from agent_memory.store.recall.index import contested_dates, load_index


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-20T00:00:00Z")


def claude_memory(claim: str, **extra: Any) -> dict[str, Any]:
    atom = l1_atom(claim, sessions=("m",), days=("2026-11-10",), origin="auto-memory",
                   memory_file="fp.md", **extra)
    for item in atom["evidence"]:
        item["rule"] = "auto_memory.feedback"
    return atom


def adopted(claim: str) -> dict[str, Any]:
    atom = l1_atom(claim, sessions=("a", "b", "c"), days=("2026-10-01", "2026-10-02", "2026-10-03"),
                   review={"state": "adopted", "at": "2026-10-04T00:00:00Z", "sessions": 3})
    for item in atom["evidence"]:
        item["rule"] = "imperative"
    return atom


def injected(store: L1Store) -> dict[str, str]:
    state = store.repo.state
    index = load_index(state)
    assert index is not None
    found = contested_at_index(state)
    assert found == (index.source_oid, contested_dates(index))
    return found[1] if found else {}


def test_claude_memory_never_tags_an_adopted_line_but_the_pair_is_reported(store: L1Store) -> None:
    rule = adopted("Never force push to main")
    capture_atoms(store, [rule], "a", None)
    capture_atoms(store, [claude_memory("Always force push to main")], "m", None)
    # reported for review (inspect --contested reads these)
    assert [(p.older, p.rule) for p in contradictions.open_pairs(store.atoms())] == [
        (rule["id"], contradictions.NEGATION)]
    assert injected(store) == {}  # the incremental frame
    recall_writer.rebuild(store, store.tip() or "")
    assert injected(store) == {}  # a rebuild


def test_typed_atoms_still_tag_each_other(store: L1Store) -> None:
    rule = adopted("Never force push to main")
    capture_atoms(store, [rule], "a", None)
    typed = l1_atom("Always force push to main", sessions=("t",), days=("2026-11-10",))
    capture_atoms(store, [typed], "t", None)
    assert set(injected(store)) == {rule["id"], typed["id"]}
    recall_writer.rebuild(store, store.tip() or "")
    assert set(injected(store)) == {rule["id"], typed["id"]}


def test_claude_memory_a_person_typed_too_or_adopted_does_tag(store: L1Store) -> None:
    rule = adopted("Never force push to main")
    capture_atoms(store, [rule], "a", None)
    vouched = claude_memory("Always force push to main",
                            review={"state": "adopted", "at": "2026-11-11T00:00:00Z", "sessions": 1})
    capture_atoms(store, [vouched], "m", None)
    assert set(injected(store)) == {rule["id"], vouched["id"]}
    recall_writer.rebuild(store, store.tip() or "")
    assert set(injected(store)) == {rule["id"], vouched["id"]}
