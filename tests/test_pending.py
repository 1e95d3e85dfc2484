"""Pending claims (issue 28): a typed claim the durability gate scores between its drop threshold
and its keep bar is kept on `memory/atoms` with `pending: true` but is no atom yet — `extract`
reports it apart, `capture` lists it apart, recall never injects it — until the same claim is
said in another session, when it is an atom with both sightings. Through the CLI on real
repositories and real-format transcripts."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import l1_atom
from conftest import initialized_copy
from golden import Golden
from sessions import gm, gm_json, write_session

from agent_memory.extract import durability
from agent_memory.extract.pipeline import extract_claims
from agent_memory.model.atom import is_pending, merge, to_committed, validate_atom

# Said once, it scores between the bars (tests/test_durability.py pins the three outcomes).
SAID_ONCE = "Use tabs in Makefiles."
FIRST = "eeeeeeee-0000-4000-8000-000000000001"
SECOND = "eeeeeeee-0000-4000-8000-000000000002"


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", now="2026-11-06T12:00:00Z")


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
    why = gm_json(project, "inspect", "--why", pending_id)
    assert (why["tier"], why["state"]) == ("L1", "pending")
    shown = gm_json(project, "show")
    assert [c["id"] for c in shown["pending"]] == [pending_id]
    assert pending_id not in [c["id"] for c in shown["L1"]]
    assert "pending until said again in another session: 1" in gm(project, "show").stdout

    second = write_session(project, SECOND, "2026-11-02", [{"user": SAID_ONCE}])
    captured = gm_json(project, "capture", "--transcript", str(second), "--no-stage")
    assert captured["pending"] == [] and captured["merged"] == [pending_id]
    atom = {a["id"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}[pending_id]
    assert "pending" not in atom and atom["sessions"] == [FIRST, SECOND]
    recalled = gm_json(project, "recall", "--prompt", "tabs in the Makefiles")["atoms"]
    assert pending_id in [a["id"] for a in recalled]
    shown = gm_json(project, "show")
    assert pending_id in [c["id"] for c in shown["L1"]] and shown["pending"] == []
    assert gm_json(project, "inspect", "--why", pending_id)["state"] == "candidate"


def test_recapturing_a_pending_claim_adds_nothing(project: Path) -> None:
    first = write_session(project, FIRST, "2026-11-01", [{"user": SAID_ONCE}])
    gm_json(project, "capture", "--transcript", str(first), "--no-stage")
    before = {a["id"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    ledger = project / ".git" / "agent-memory" / "captured.log"
    assert ledger.is_file()
    ledger.unlink()  # forget that it was read: the whole file is read again
    again = gm_json(project, "capture", "--transcript", str(first), "--no-stage")
    assert again["read"] == "whole" and again["commit"] is None
    assert again["new"] == [] and again["merged"] == [] and again["pending"] == []
    assert {a["id"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]} == before


def test_the_capture_commit_names_what_is_pending(project: Path) -> None:
    first = write_session(project, FIRST, "2026-11-01", [{"user": SAID_ONCE}])
    gm_json(project, "capture", "--transcript", str(first), "--no-stage")
    from conftest import git

    message = git(project, "log", "-1", "--format=%B", "memory/atoms")
    assert message.startswith("capture: 0 new, 0 merged, 1 pending"), message
    assert "(pending: said once)" in message


def test_a_claim_said_once_in_each_of_two_sessions_of_one_backfill_is_one_new_atom(
    project: Path,
) -> None:
    write_session(project, FIRST, "2026-11-01", [{"user": SAID_ONCE}])
    write_session(project, SECOND, "2026-11-02", [{"user": SAID_ONCE}])
    done = gm_json(project, "capture", "--all", "--no-stage")
    assert (done["new"], done["merged"], done["pending"]) == (1, 0, 0)
    (atom,) = gm_json(project, "inspect", "--tier", "L1")["atoms"]
    assert atom["sessions"] == [FIRST, SECOND] and "pending" not in atom
    status = gm_json(project, "status")["L1"]
    assert (status["candidates"], status["pending"]) == (1, 0)


def test_a_backfill_that_lifts_a_pending_record_stored_before_it_reports_it_merged(
    project: Path,
) -> None:
    first = write_session(project, FIRST, "2026-11-01", [{"user": SAID_ONCE}])
    gm(project, "capture", "--transcript", str(first), "--no-stage")
    # the first session goes on and says it again (still one session: still pending), and a
    # second session says it: an atom, whose record existed before this run
    write_session(project, FIRST, "2026-11-01", [{"user": SAID_ONCE}, {"user": SAID_ONCE}])
    write_session(project, SECOND, "2026-11-02", [{"user": SAID_ONCE}])
    done = gm_json(project, "capture", "--all", "--no-stage")
    assert (done["new"], done["merged"], done["pending"]) == (0, 1, 0), done


def test_a_pending_claim_is_counted_apart_and_never_promoted_even_verified(project: Path) -> None:
    first = write_session(project, FIRST, "2026-11-01", [{"user": SAID_ONCE}])
    gm(project, "capture", "--transcript", str(first), "--no-stage")
    (atom,) = gm_json(project, "inspect", "--tier", "L1")["atoms"]
    status = gm_json(project, "status")["L1"]
    assert (status["candidates"], status["pending"]) == (0, 1)
    assert "1 more pending until said again" in gm(project, "status").stdout
    # `verify` raises its confidence, which skips the session count; pending still blocks it
    gm(project, "verify", atom["id"], "--by", "true")
    promote = gm_json(project, "promote")
    assert atom["id"] not in [e["id"] for e in promote["eligible"]]
    (blocked,) = [b for b in promote["blocked"] if b["id"] == atom["id"]]
    assert any(r.startswith("pending") for r in blocked["reasons"]), blocked
    assert gm_json(project, "stage")["commits"] == []


def test_a_pending_claim_is_explained_in_plain_words(project: Path) -> None:
    """`inspect --why` said "held by the durability gate", and `promote` gave two reasons for a
    pending claim ("pending — …; stated: 1 session, needs 2"): people read what pending means
    and the one reason that explains it; the JSON keeps every reason the gate gives."""
    first = write_session(project, FIRST, "2026-11-01", [{"user": SAID_ONCE}])
    gm(project, "capture", "--transcript", str(first), "--no-stage")
    (atom,) = gm_json(project, "inspect", "--tier", "L1")["atoms"]
    plain = ("pending: said once, and not in words that make it a standing rule (always, never, from now "
             "on…); it becomes a candidate when said again in another session")  # fmt: skip
    why = gm(project, "inspect", "--why", atom["id"]).stdout
    assert f"  L1: {plain}" in why.splitlines() and "durability gate" not in why
    lines = gm(project, "promote").stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if atom["id"] in line)
    assert lines[at + 1].strip() == plain, lines
    assert "needs" not in "\n".join(lines)
    (blocked,) = gm_json(project, "promote")["blocked"]
    assert blocked["reasons"][0] == "pending — said once; an atom when said again in another session"
    assert any("1 session, needs" in r for r in blocked["reasons"]), blocked


def test_a_claim_said_once_contests_nothing_until_it_is_said_again(project: Path) -> None:
    dev, main = "Remember: the default branch is dev.", "The default branch is main."
    for n, day in ((1, "2026-11-01"), (2, "2026-11-02"), (3, "2026-11-03")):
        write_session(project, f"ffffffff-0000-4000-8000-00000000000{n}", day, [{"user": dev}])
    gm(project, "capture", "--all", "--no-stage")
    gm(project, "stage")
    gm(project, "adopt", "--all")
    write_session(project, "ffffffff-0000-4000-8000-000000000004", "2026-11-04", [{"user": main}])
    done = gm_json(project, "capture", "--all", "--no-stage")
    assert done["pending"] == 1
    assert gm_json(project, "inspect", "--contested")["pairs"] == []
    assert "[contested" not in gm_json(project, "context")["context"]
    # said again in another session: an atom, and now the contradiction is there to settle
    write_session(project, "ffffffff-0000-4000-8000-000000000005", "2026-11-05", [{"user": main}])
    gm(project, "capture", "--all", "--no-stage")
    assert len(gm_json(project, "inspect", "--contested")["pairs"]) == 1
    assert "[contested — newer evidence 2026-11-05] The default branch is dev" in gm_json(
        project, "context")["context"]  # fmt: skip


def test_the_schema_refuses_pending_in_committed_material() -> None:
    from builders import committed_atom

    from agent_memory.model.atom import atom_errors

    atom = committed_atom("Use tabs in Makefiles")
    assert atom_errors(atom) == []
    assert atom_errors({**atom, "pending": True})


# --- the join (the property tests of tests/test_atom.py draw pending records too) --------------


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


def test_pending_never_reaches_committed_material() -> None:
    (record, *_) = _records()
    committed = to_committed(record, "L2", "2026-11-06T12:00:00Z")
    assert "pending" not in committed
    validate_atom(committed)


def test_inspect_tier_l1_marks_the_pending_claims(project: Path) -> None:
    """`inspect --tier L1` listed a pending claim as a row like any atom's, and counted it in
    'N L1 atoms', where status and show list it apart: a newcomer read 6 atoms against
    status's 2 candidates. Each pending row now says so, and the total counts them apart."""
    claim = _claim()
    first = write_session(project, FIRST, "2026-11-01",
                          [{"user": SAID_ONCE}, {"user": "Never force-push to main."}])  # fmt: skip
    gm(project, "capture", "--transcript", str(first), "--no-stage")
    out = gm(project, "inspect", "--tier", "L1").stdout.splitlines()
    [row] = [line for line in out if claim in line]
    assert row.endswith("(pending)"), row
    assert all("pending" not in line for line in out[:-1] if claim not in line), out
    assert out[-1] == "1 L1 atom, 1 pending (said once; an atom when said again in another session)", out[-1]
