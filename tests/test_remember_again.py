"""Saying it again brings it back: a person's explicit `git memory remember` (or `remember
--global`) is a newer decision than their rejection, forget or revert of the same claim — even on
the same day, when the remembered claim adds no new session — and stages the item again, saying
so. Evidence from transcripts alone (capture) still does not bring such an item back without new
sessions: only the person's explicit word does. Through the real CLI and real git repositories."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json
from test_adopt import CLAIMS, held, stage_claims, waiting
from test_l3 import DAY_X, TESTS_FIRST, at, global_log, home, make_project, review_commits

DAY = {"AGENT_MEMORY_NOW": "2026-11-06T12:00:00Z"}
LATER = {"AGENT_MEMORY_NOW": "2026-11-06T15:00:00Z"}  # the same day: no new session
CLAIM = "Use pnpm, not npm, for installs"


@pytest.fixture
def project(initialized: Path) -> Path:
    return initialized


def _undo(project: Path, how: str, ident: str, commit: str | None) -> None:
    """The person's decision against the adopted/staged item `ident`."""
    if how == "reject":
        gm(project, "adopt", "--reject", ident, env=DAY)
    elif how == "revert":
        assert commit is not None
        git(project, "revert", "--no-edit", commit)
    else:
        gm(project, "forget", ident, env=DAY)


@pytest.mark.parametrize("how", ["reject", "revert", "forget"])
def test_remembering_a_claim_again_the_same_day_stages_it_again(project: Path, how: str) -> None:
    first = gm_json(project, "remember", CLAIM, env=DAY)
    assert first["staged"]
    commit = None
    if how != "reject":
        (adopted,) = gm_json(project, "adopt", "--yes", first["id"], env=DAY)["adopted"]
        commit = adopted["commit"]
    _undo(project, how, first["id"], commit)
    assert first["id"] not in held(project)
    assert gm_json(project, "stage", env=DAY)["commits"] == []  # the decision holds on its own
    again = gm(project, "remember", CLAIM, env=LATER, check=False)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"staged {first['id']}" in again.stdout
    # the output says the person's earlier decision was set aside by this one
    assert "said again" in again.stdout and "needs new sessions" not in again.stdout
    assert first["id"] in waiting(project)
    gm(project, "adopt", "--yes", first["id"], env=LATER)
    assert first["id"] in held(project)
    assert gm(project, "validate", check=False).returncode == 0


def test_remember_again_reports_it_in_json(project: Path) -> None:
    first = gm_json(project, "remember", CLAIM, env=DAY)
    gm(project, "adopt", "--reject", first["id"], env=DAY)
    again = gm_json(project, "remember", CLAIM, env=DAY)
    assert again["id"] == first["id"] and again["staged"] and again["refused"] is None
    assert again["again"] == "rejected"


def test_capture_does_not_bring_back_what_a_person_rejected(project: Path) -> None:
    """Transcript evidence from the sessions already counted is no new decision: the
    rejection holds; only `remember` (or a new session) lifts it."""
    ids = stage_claims(project)
    gm(project, "adopt", "--reject", ids["tabs"])
    # the same sessions captured again, and the claim's evidence re-read: still held back
    gm(project, "capture", "--all", "--no-stage")
    assert ids["tabs"] not in waiting(project)
    assert ids["tabs"] not in {c["atom"] for c in gm_json(project, "stage")["commits"]}
    blocked = {b["id"]: b["reasons"] for b in gm_json(project, "promote")["blocked"]}
    assert any("needs new sessions" in r for r in blocked[ids["tabs"]])
    # the person says it again: staged
    again = gm_json(project, "remember", CLAIMS["tabs"])
    assert again["staged"], again


def test_capture_after_a_remembered_claim_was_rejected_does_not_restage_it(project: Path) -> None:
    """A rejection of an item the person re-remembered holds against later capture of old
    evidence: the lift is for that one explicit decision, not for ever."""
    first = gm_json(project, "remember", CLAIM, env=DAY)
    gm(project, "adopt", "--reject", first["id"], env=DAY)
    assert gm_json(project, "remember", CLAIM, env=DAY)["staged"]
    gm(project, "adopt", "--reject", first["id"], env=DAY)
    gm(project, "capture", "--all", "--no-stage", env=DAY)
    assert gm_json(project, "stage", env=DAY)["commits"] == []


def test_forget_undo_after_remember_again_keeps_the_item(project: Path) -> None:
    """forget, remember again (staged anew), adopt: the item is held and `forget --undo` has
    nothing to restore that would duplicate it."""
    first = gm_json(project, "remember", CLAIM, env=DAY)
    gm(project, "adopt", "--yes", first["id"], env=DAY)
    gm(project, "forget", first["id"], env=DAY)
    assert gm_json(project, "remember", CLAIM, env=LATER)["again"] == "forgotten"
    gm(project, "adopt", "--yes", first["id"], env=LATER)
    assert first["id"] in held(project)
    undo = gm(project, "forget", "--undo", first["id"], env=LATER, check=False)
    assert undo.returncode != 0 or first["id"] in held(project)
    assert list(held(project)).count(first["id"]) == 1
    assert gm(project, "validate", check=False).returncode == 0


def test_remember_global_again_after_a_rejection_the_same_day_stages_it_again(tmp_path: Path) -> None:
    solo = make_project(tmp_path, "solo")
    out = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))
    assert out["staged"]
    gm(solo, "adopt", "--global", "--reject", out["id"], env=at(DAY_X))
    assert gm_json(solo, "stage", "--global", env=at(DAY_X))["commits"] == []
    again = gm(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X), check=False)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"staged {out['id']}" in again.stdout and "again" in again.stdout
    assert len(review_commits(home())) == 1
    gm(solo, "adopt", "--global", "--yes", out["id"], env=at(DAY_X))
    assert list(global_log()) == [out["id"]]


def test_a_global_rejection_holds_against_stage_without_remember(tmp_path: Path) -> None:
    """Re-remembered then rejected again: the second rejection holds at the next stage."""
    solo = make_project(tmp_path, "solo")
    out = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))
    gm(solo, "adopt", "--global", "--reject", out["id"], env=at(DAY_X))
    assert gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))["staged"]
    gm(solo, "adopt", "--global", "--reject", out["id"], env=at(DAY_X))
    assert gm_json(solo, "stage", "--global", env=at(DAY_X))["commits"] == []


def test_remember_after_a_revert_no_stage_has_seen_yet_stages_it_again(project: Path) -> None:
    """The revert is not yet written down as a rejection (no stage ran): the L1 record still
    says adopted; `remember` sets the undone adoption aside all the same, and no later stage
    turns the revert into a rejection over the person's newer word."""
    first = gm_json(project, "remember", CLAIM, env=DAY)
    (adopted,) = gm_json(project, "adopt", "--yes", first["id"], env=DAY)["adopted"]
    git(project, "revert", "--no-edit", adopted["commit"])
    again = gm_json(project, "remember", CLAIM, env=LATER)
    assert again["again"] == "taken_out" and again["staged"]
    assert first["id"] in {c["atom"] for c in gm_json(project, "stage", env=LATER)["commits"]}
    assert first["id"] in waiting(project)


def test_remember_in_a_claude_code_session_does_not_set_a_person_s_rejection_aside(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the person's explicit word is newer than their rejection: run where Claude's model
    may be the one typing (CLAUDECODE=1), `remember` stays refused and says why."""
    first = gm_json(project, "remember", CLAIM, env=DAY)
    gm(project, "adopt", "--reject", first["id"], env=DAY)
    monkeypatch.setenv("CLAUDECODE", "1")
    again = gm(project, "remember", CLAIM, env=LATER, check=False)
    assert again.returncode == 1 and "needs new sessions" in again.stdout
    assert "hint:" in again.stderr and "outside a Claude Code session" in again.stderr
    monkeypatch.delenv("CLAUDECODE")
    assert first["id"] not in waiting(project)
    assert gm_json(project, "remember", CLAIM, env=LATER)["again"] == "rejected"


def test_remember_global_in_a_claude_code_session_does_not_set_a_rejection_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solo = make_project(tmp_path, "solo")
    out = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))
    gm(solo, "adopt", "--global", "--reject", out["id"], env=at(DAY_X))
    monkeypatch.setenv("CLAUDECODE", "1")
    again = gm(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X), check=False)
    assert again.returncode == 1 and "needs new sessions" in again.stdout
    assert gm_json(solo, "stage", "--global", env=at(DAY_X))["commits"] == []


# --- adopt refuses the block an empty adopted.log no longer shows, as stage does ------------------


def _empty_the_log(root: Path) -> None:
    """Every line taken out of adopted.log by hand and committed, the block left as it was."""
    (root / ".memory" / "adopted.log").write_text("")
    git(root, "commit", "-qam", "take every item out of the memory log")


def test_adopt_refuses_a_block_its_empty_log_no_longer_shows_as_stage_does(project: Path) -> None:
    kept = gm_json(project, "remember", "Run the linter before pushing", env=DAY)
    gm(project, "adopt", "--yes", kept["id"], env=DAY)
    waiting_one = gm_json(project, "remember", CLAIM, env=DAY)
    assert waiting_one["staged"]
    _empty_the_log(project)
    head = git(project, "rev-parse", "HEAD")
    staged = gm(project, "stage", env=DAY, check=False)
    adopted = gm(project, "adopt", "--yes", waiting_one["id"], env=DAY, check=False)
    assert staged.returncode == adopted.returncode == 1, adopted.stdout + adopted.stderr
    (line,) = [ln for ln in adopted.stderr.splitlines() if not ln.startswith("hint:")]
    assert "differs from .memory/adopted.log" in line
    assert "hint:" in adopted.stderr and "validate --fix" in adopted.stderr
    assert git(project, "rev-parse", "HEAD") == head  # nothing committed
    # the fix the hint names, then adopt goes ahead
    gm(project, "validate", "--fix", env=DAY)
    git(project, "commit", "-qam", "re-render the memory block")
    gm(project, "adopt", "--yes", waiting_one["id"], env=DAY)
    assert list(held(project)) == [waiting_one["id"]]


def test_adopt_global_refuses_a_block_its_empty_log_no_longer_shows_as_stage_does(tmp_path: Path) -> None:
    solo = make_project(tmp_path, "solo")
    kept = gm_json(solo, "remember", "--global", "Prefer small, focused commits.", env=at(DAY_X))
    gm(solo, "adopt", "--global", "--yes", kept["id"], env=at(DAY_X))
    out = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))
    assert out["staged"]
    _empty_the_log(home())
    head = git(home(), "rev-parse", "HEAD")
    staged = gm(solo, "stage", "--global", env=at(DAY_X), check=False)
    adopted = gm(solo, "adopt", "--global", "--yes", out["id"], env=at(DAY_X), check=False)
    assert staged.returncode == adopted.returncode == 1, adopted.stdout + adopted.stderr
    assert "differs from .memory/adopted.log" in adopted.stderr and "validate --fix" in adopted.stderr
    assert "global memory repo" in adopted.stderr
    assert git(home(), "rev-parse", "HEAD") == head
    assert global_log() == {}


def test_remember_brings_back_a_claim_forgotten_before_it_was_adopted(project: Path) -> None:
    """Forgotten at L1 only (tombstoned: capture does not re-learn it): said again by the
    person, the tombstone goes and the claim is staged."""
    first = gm_json(project, "remember", CLAIM, env=DAY)
    gm(project, "forget", first["id"], env=DAY)
    assert first["id"] not in waiting(project)
    again = gm_json(project, "remember", CLAIM, env=LATER)
    assert again["again"] == "forgotten" and again["staged"]
    assert gm(project, "forget", "--undo", first["id"], env=LATER, check=False).returncode != 0  # nothing to undo


def test_forget_undo_after_remember_again_restores_the_line_once(project: Path) -> None:
    """Forgotten out of the block, said again (staged), then `forget --undo`: the line is back,
    held once, and the staged item no longer waits."""
    first = gm_json(project, "remember", CLAIM, env=DAY)
    gm(project, "adopt", "--yes", first["id"], env=DAY)
    gm(project, "forget", first["id"], env=DAY)
    assert gm_json(project, "remember", CLAIM, env=LATER)["staged"]
    gm(project, "forget", "--undo", first["id"], env=LATER)
    assert list(held(project)) == [first["id"]]
    assert first["id"] not in waiting(project)
    assert gm(project, "validate", check=False).returncode == 0


def test_a_rejection_says_how_to_bring_the_item_back(project: Path) -> None:
    """`adopt --reject` said the item waits for new sessions only; saying it again with
    `remember` brings it back too, and the rejection now says so."""
    first = gm_json(project, "remember", CLAIM, env=DAY)
    out = gm(project, "adopt", "--reject", first["id"], env=DAY).stdout
    assert "new sessions" in out and "git memory remember" in out, out
