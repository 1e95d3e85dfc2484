"""A stage after the person dropped an adopt commit from the base branch (`git reset --hard`)
while memory/review sat on it: the review branch is built on a base the branch no longer has
(promote/review_base.py). Through the real CLI and real git."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json
from test_adopt import held, stage_claims


def _staged(project: Path) -> set[str]:
    return {s["atom"] for s in gm_json(project, "status")["staged"]}


def _review_log(project: Path) -> list[str]:
    return git(project, "rev-list", "memory/review").split()


def _stage_then_reset(project: Path) -> tuple[dict[str, str], str]:
    """Adopt one item, stage (memory/review is rebuilt on the adopt commit), then drop the
    adopt commit with `git reset --hard HEAD~1`; returns the ids and the dropped commit."""
    ids = stage_claims(project)
    gm(project, "adopt", "--yes", ids["push"])
    dropped = git(project, "rev-parse", "HEAD").strip()
    gm(project, "stage")
    assert dropped in _review_log(project)  # memory/review sits on the adopt commit
    git(project, "reset", "-q", "--hard", "HEAD~1")
    return ids, dropped


@pytest.mark.parametrize("evidence", ["ledger", "reflog"])
def test_a_review_built_on_an_adopt_commit_reset_away_is_rebuilt(initialized: Path, evidence: str) -> None:
    """stage refused: "memory/review has commit … that agent-memory did not make" (the dropped
    adopt commit), hinting --force though the person made no commit there; status counted the
    dropped adopt commit as an item staged again. It is the base the review was built on:
    status lists only the staged items, stage rebuilds on main, and the dropped item is not
    offered again (the reset is its rejection). Known from the ledger's line of the last
    stage, or without it (staged by a version before that line) from main's reflog."""
    project = initialized
    ids, dropped = _stage_then_reset(project)
    if evidence == "reflog":
        (project / ".git" / "agent-memory" / "captured.log").unlink()
    assert _staged(project) == {ids["pytest"], ids["tabs"]}
    proc = gm(project, "stage", check=False)
    assert proc.returncode == 0 and "did not make" not in proc.stderr, proc.stderr
    main = git(project, "rev-parse", "main").strip()
    assert dropped not in _review_log(project)
    assert git(project, "merge-base", "memory/review", "main").strip() == main
    assert _staged(project) == {ids["pytest"], ids["tabs"]}
    adopted = gm_json(project, "adopt", "--all")
    assert {a["atom"] for a in adopted["adopted"]} == {ids["pytest"], ids["tabs"]}, adopted
    assert ids["push"] not in held(project)


def test_a_persons_commit_on_a_review_with_a_dropped_base_is_still_refused(initialized: Path) -> None:
    """The stale base is no licence to discard: a commit a person made on memory/review on top
    of it is refused as before (exit 1, --force to overwrite) and the branch is left as it is."""
    project = initialized
    _stage_then_reset(project)
    theirs = _commit_on_review(project)
    proc = gm(project, "stage", check=False)
    assert proc.returncode == 1, proc.stderr
    assert f"memory/review has commit {theirs[:10]} that agent-memory did not make" in proc.stderr, proc.stderr
    assert git(project, "rev-parse", "memory/review").strip() == theirs


def test_a_dropped_base_nothing_local_vouches_for_is_still_refused(initialized: Path) -> None:
    """Neither the ledger's line nor main's reflog (expired) says the commit under the staged
    ones was main's: nothing tells it from a commit a person made there, so stage refuses as
    before and leaves memory/review as it is (`--force` rebuilds it). The refusal says what is
    known — a commit of main that main no longer has, or one made on memory/review — where it
    read as if the person had committed on memory/review."""
    project = initialized
    _ids, dropped = _stage_then_reset(project)
    _forget_the_base(project)
    tip = git(project, "rev-parse", "memory/review").strip()
    proc = gm(project, "stage", check=False)
    assert proc.returncode == 1 and f"memory/review has commit {dropped[:10]}" in proc.stderr, proc.stderr
    said = " ".join(proc.stderr.split())
    assert "a commit of main it no longer has" in said and "or one made on memory/review" in said, said
    assert "hint: if main dropped it, rebuild the review on main with `git memory stage --force`" in said, said
    assert git(project, "rev-parse", "memory/review").strip() == tip
    assert gm(project, "stage", "--force").returncode == 0
    assert dropped not in _review_log(project)


def _commit_on_review(project: Path) -> str:
    """A person's own commit on memory/review (then back on main): its id."""
    git(project, "checkout", "-q", "memory/review")
    (project / "notes.txt").write_text("a person's change\n")
    git(project, "add", "notes.txt")
    git(project, "commit", "-qm", "hand edit")
    theirs = git(project, "rev-parse", "HEAD").strip()
    git(project, "checkout", "-q", "main")
    return theirs


def _forget_the_base(project: Path) -> None:
    """Nothing local vouches for the dropped base: no ledger line, main's reflog expired."""
    (project / ".git" / "agent-memory" / "captured.log").unlink()
    git(project, "reflog", "expire", "--expire=now", "--expire-unreachable=now", "--all")


def test_a_persons_commit_over_a_base_nothing_vouches_for_is_named_as_theirs(initialized: Path) -> None:
    """A commit on top of the staged ones was made on memory/review, whatever lies under them:
    the refusal names it, not the unvouched base under the staged commits (the oldest of the
    commits agent-memory did not make, which the refusal named before)."""
    project = initialized
    _ids, dropped = _stage_then_reset(project)
    _forget_the_base(project)
    theirs = _commit_on_review(project)
    proc = gm(project, "stage", check=False)
    assert proc.returncode == 1, proc.stderr
    assert f"memory/review has commit {theirs[:10]} that agent-memory did not make\n" in proc.stderr, proc.stderr
    assert dropped[:10] not in proc.stderr and "--force" in proc.stderr, proc.stderr
    assert git(project, "rev-parse", "memory/review").strip() == theirs


def test_a_persons_commit_merged_into_main_and_reset_away_is_still_refused(initialized: Path) -> None:
    """A person's commit on memory/review that main once had — memory/review merged into main
    (a fast-forward), then the merge undone with `git reset --hard ORIG_HEAD` — is the person's
    work, not the base the review was built on: it sits on top of the staged commits, and a
    stage builds only under them. main's reflog vouched for it as a dropped base, and stage
    rebuilt memory/review without it, no --force asked."""
    project = initialized
    stage_claims(project)
    theirs = _commit_on_review(project)
    git(project, "merge", "-q", "--ff-only", "memory/review")
    git(project, "reset", "-q", "--hard", "ORIG_HEAD")
    proc = gm(project, "stage", check=False)
    assert proc.returncode == 1, proc.stderr
    assert f"memory/review has commit {theirs[:10]} that agent-memory did not make" in proc.stderr, proc.stderr
    assert git(project, "rev-parse", "memory/review").strip() == theirs
