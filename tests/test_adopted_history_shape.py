"""The adopt lines on HEAD's history (adoption/reverts.adopted_on_head, kept in
`.git/agent-memory/adopted-history.json`) are read again when the history below the same HEAD
changes: `git fetch --unshallow` of a shallow clone brings the commit that adopted an item a
person later edited out of the log, and `git replace --graft` hides it. Kept with the HEAD
alone, the first walk's answer stood: the edited-out item was not seen as taken out (and was
offered again) after the unshallow, and still seen so once replaced away. Real clones, real
git; observed through `taken_out`, what `stage` records as a person's removal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json

from agent_memory.adoption.reverts import HISTORY_CACHE, taken_out
from agent_memory.gitio import repo as G


@pytest.fixture
def project(initialized: Path) -> Path:
    return initialized


def _adopt_then_edit_out(project: Path) -> str:
    """Two items adopted in one commit, then one edited out of the log by hand (the block
    re-rendered from the log) in the next: HEAD's own diff no longer names it."""
    keep = gm_json(project, "remember", "Use pnpm, not npm, for installs")["id"]
    gone = gm_json(project, "remember", "Run the linter before every push")["id"]
    gm(project, "adopt", "--yes", keep, gone)
    log = project / ".memory" / "adopted.log"
    log.write_text("".join(line for line in log.read_text().splitlines(keepends=True)
                           if json.loads(line)["atom"]["id"] != gone))  # fmt: skip
    gm(project, "validate", "--fix")
    git(project, "commit", "-q", "-am", "memory: drop an item by hand")
    return gone


def _taken_out(clone: Path) -> set[str]:
    return taken_out(G.find_repo(clone))


def test_unshallowing_reads_the_history_again(project: Path, tmp_path: Path) -> None:
    gone = _adopt_then_edit_out(project)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{project}", str(clone))
    head = git(clone, "rev-parse", "HEAD")
    # HEAD is the clone's only commit: nothing says the item was ever adopted
    assert _taken_out(clone) == set()
    assert (clone / ".git" / "agent-memory" / HISTORY_CACHE).is_file()  # kept with its HEAD
    git(clone, "fetch", "-q", "--unshallow")
    assert git(clone, "rev-parse", "HEAD") == head
    assert _taken_out(clone) == {gone}


def test_a_replace_ref_that_cuts_the_history_is_seen_and_so_is_its_removal(project: Path, tmp_path: Path) -> None:
    gone = _adopt_then_edit_out(project)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", f"file://{project}", str(clone))
    assert _taken_out(clone) == {gone}
    git(clone, "replace", "--graft", "HEAD")  # HEAD without parents: the adopt commit is gone
    assert _taken_out(clone) == set()
    git(clone, "replace", "-d", git(clone, "rev-parse", "HEAD").strip())
    assert _taken_out(clone) == {gone}
