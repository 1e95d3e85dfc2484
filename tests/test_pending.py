"""Pending claims (issue 28): a typed claim the durability gate scores between its drop threshold
and its keep bar is kept on `memory/atoms` with `pending: true` but is no atom yet — `extract`
reports it apart, `capture` lists it apart, recall never injects it — until the same claim is
said in another session, when it is an atom with both sightings. Through the CLI on real
repositories and real-format transcripts."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from builders import l1_atom
from sessions import gm, gm_json, write_session

from agent_memory.extract import durability
from agent_memory.extract.pipeline import extract_claims
from agent_memory.model.atom import is_pending, merge, to_committed, validate_atom

# Said once, it scores between the bars (tests/test_durability.py pins the three outcomes).
SAID_ONCE = "Use tabs in Makefiles."
FIRST = "eeeeeeee-0000-4000-8000-000000000001"
SECOND = "eeeeeeee-0000-4000-8000-000000000002"


@pytest.fixture
def project(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-06T12:00:00Z")
    gm(repo, "init", "--yes")
    return repo


def _claim() -> str:
    (cand,) = extract_claims(SAID_ONCE)
    model = durability.packaged_model()
    assert durability.verdict(SAID_ONCE, cand.claim, cand.rule, model) == durability.PENDING
    return cand.claim


def test_a_claim_said_once_is_pending_and_an_atom_once_said_again(project: Path) -> None:
    claim = _claim()
    first = write_session(project, FIRST, "2026-11-01",
                          [{"user": SAID_ONCE}, {"user": "Never force-push to main."}])  # fmt: skip
    extracted = gm_json(project, "extract", "--transcript", str(first))
    assert [a["claim"] for a in extracted["pending"]] == [claim]
    assert claim not in [a["claim"] for a in extracted["atoms"]]
    assert extracted["atoms"], "the rule said with a standing word is an atom at once"
    (pending_id,) = [a["id"] for a in extracted["pending"]]

    captured = gm_json(project, "capture", "--transcript", str(first), "--no-stage")
    assert captured["pending"] == [pending_id]
    assert pending_id not in captured["new"] and captured["new"]
    stored = {a["id"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    assert stored[pending_id]["pending"] is True and stored[pending_id]["sessions"] == [FIRST]
    recalled = gm_json(project, "recall", "--prompt", "tabs in the Makefiles")["atoms"]
    assert pending_id not in [a["id"] for a in recalled]
    shown = {c["id"]: c for c in gm_json(project, "show")["L1"]}
    assert shown[pending_id]["pending"] is True and shown[pending_id]["state"] == "blocked"
    assert "pending until said again" in gm(project, "show").stdout

    second = write_session(project, SECOND, "2026-11-02", [{"user": SAID_ONCE}])
    captured = gm_json(project, "capture", "--transcript", str(second), "--no-stage")
    assert captured["pending"] == [] and captured["merged"] == [pending_id]
    atom = {a["id"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}[pending_id]
    assert "pending" not in atom and atom["sessions"] == [FIRST, SECOND]
    recalled = gm_json(project, "recall", "--prompt", "tabs in the Makefiles")["atoms"]
    assert pending_id in [a["id"] for a in recalled]
    assert "pending" not in {c["id"]: c for c in gm_json(project, "show")["L1"]}[pending_id]


def test_recapturing_a_pending_claim_adds_nothing(project: Path) -> None:
    first = write_session(project, FIRST, "2026-11-01", [{"user": SAID_ONCE}])
    gm_json(project, "capture", "--transcript", str(first), "--no-stage")
    before = {a["id"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    ledger = project / ".git" / "agent-memory" / "captured.log"
    assert ledger.is_file()
    ledger.unlink()  # forget that it was read: the whole file is read again
    again = gm_json(project, "capture", "--transcript", str(first), "--no-stage")
    assert again["new"] == [] and again["merged"] == [] and again["pending"] == []
    assert {a["id"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]} == before


def test_the_capture_commit_names_what_is_pending(project: Path) -> None:
    first = write_session(project, FIRST, "2026-11-01", [{"user": SAID_ONCE}])
    gm_json(project, "capture", "--transcript", str(first), "--no-stage")
    from conftest import git

    message = git(project, "log", "-1", "--format=%B", "memory/atoms")
    assert message.startswith("capture: 0 new, 0 merged, 1 pending"), message
    assert "(pending: said once)" in message


# --- the join ----------------------------------------------------------------------------------


def _records() -> list[dict[str, object]]:
    claim = "Use tabs in Makefiles"
    return [
        l1_atom(claim, sessions=("s1",), pending=True),
        l1_atom(claim, sessions=("s1",), pending=True, line=7),
        l1_atom(claim, sessions=("s2",), pending=True),
        l1_atom(claim, sessions=("s1",)),
    ]


def test_pending_survives_a_merge_only_within_one_session_of_pending_records() -> None:
    same, same_again, other, cleared = _records()
    assert is_pending(merge(same, same_again))
    assert not is_pending(merge(same, other))  # said again in another session
    assert not is_pending(merge(same, cleared))  # one sighting cleared the keep bar
    assert "pending" not in merge(same, other) and "pending" not in merge(same, cleared)


def test_the_merge_with_pending_is_still_a_join() -> None:
    records = _records()
    for a, b in itertools.product(records, repeat=2):
        assert merge(a, b) == merge(b, a)
        assert merge(a, a) == merge(merge(a, a), a)
    for a, b, c in itertools.product(records, repeat=3):
        assert merge(merge(a, b), c) == merge(a, merge(b, c))


def test_pending_never_reaches_committed_material() -> None:
    (record, *_) = _records()
    committed = to_committed(record, "L2", "2026-11-06T12:00:00Z")
    assert "pending" not in committed
    validate_atom(committed)
