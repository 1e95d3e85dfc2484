"""The L1 store on memory/atoms, against real repositories."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from builders import l1_atom
from conftest import git

from agent_memory.gitio import repo as gitb
from agent_memory.model.errors import InvalidAtomError
from agent_memory.store import l1 as store_mod
from agent_memory.store.capture import capture_atoms, enforce_limits
from agent_memory.store.l1 import Change, L1Store, Snapshot


def test_init_creates_an_orphan_branch_without_touching_work_tree_or_index(repo: Path) -> None:
    index_before = (repo / ".git" / "index").read_bytes()
    s = L1Store(gitb.find_repo(repo))
    assert s.init() is True
    assert s.init() is False  # idempotent
    assert git(repo, "rev-list", "--count", "memory/atoms").strip() == "1"
    assert git(repo, "rev-list", "--max-parents=0", "memory/atoms").strip() == git(repo, "rev-parse", "memory/atoms").strip()
    assert git(repo, "merge-base", "main", "memory/atoms", check=False) == ""
    assert (repo / ".git" / "index").read_bytes() == index_before
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "rev-parse", "--abbrev-ref", "HEAD").strip() == "main"


def test_capture_writes_one_commit_with_trailers_and_sorted_files(store: L1Store, repo: Path) -> None:
    a = l1_atom("Never push to main", sessions=("s1",))
    b = l1_atom("Use pnpm, not npm", sessions=("s1",), kind="preference")
    result = capture_atoms(store, [a, b], "s1", "~/.claude/projects/-home-dev-proj/s1.jsonl")
    assert result.commit and sorted(result.new) == sorted([a["id"], b["id"]])
    files = git(repo, "ls-tree", "-r", "--name-only", "memory/atoms", "atoms/").split()
    assert files == sorted([f"atoms/{a['id'][4:6]}/{a['id']}.json", f"atoms/{b['id'][4:6]}/{b['id']}.json"])
    text = git(repo, "show", f"memory/atoms:atoms/{a['id'][4:6]}/{a['id']}.json")
    assert text.endswith("}\n") and json.loads(text) == a
    message = git(repo, "log", "-1", "--format=%B", "memory/atoms")
    assert message.startswith("capture: 2 new, 0 merged from s1")
    assert "Session-Id: s1" in message and "Source: ~/.claude/projects/-home-dev-proj/s1.jsonl" in message
    assert git(repo, "log", "-1", "--format=%an <%ae>", "memory/atoms").strip() == "agent-memory <agent-memory@localhost>"
    assert git(repo, "status", "--porcelain") == ""


def test_single_atom_commit_names_it_and_recapture_changes_nothing(store: L1Store, repo: Path) -> None:
    a = l1_atom("Never push to main")
    first = capture_atoms(store, [a], "s1", None)
    assert f"Atom-Id: {a['id']}" in git(repo, "log", "-1", "--format=%B", "memory/atoms")
    again = capture_atoms(store, [a], "s1", None)
    assert again.commit is None and again.new == [] and again.merged == []
    assert git(repo, "rev-parse", "memory/atoms").strip() == first.commit


def test_new_sessions_merge_into_the_stored_atom(store: L1Store) -> None:
    capture_atoms(store, [l1_atom("Never push to main", sessions=("s1",))], "s1", None)
    result = capture_atoms(store, [l1_atom("never push to main!", sessions=("s2",), days=("2026-11-04",))], "s2", None)
    assert result.merged and not result.new
    (atom,) = store.atoms()
    assert atom["sessions"] == ["s1", "s2"] and atom["observations"] == 2
    assert atom["claim"] == "Never push to main"


def _write_raw(repo: Path, path: str, data: bytes) -> None:
    """Put a raw blob on memory/atoms with plain git plumbing (as a bug or a person might)."""
    blob = subprocess.run(["git", "-C", str(repo), "hash-object", "-w", "--stdin"], input=data,
                          capture_output=True, check=True).stdout.decode().strip()
    tip = git(repo, "rev-parse", "memory/atoms").strip()
    env = {**os.environ, "GIT_INDEX_FILE": str(repo / ".git" / "tmp-index")}
    subprocess.run(["git", "-C", str(repo), "read-tree", tip], env=env, check=True)
    subprocess.run(["git", "-C", str(repo), "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}"], env=env, check=True)
    tree = subprocess.run(["git", "-C", str(repo), "write-tree"], env=env, capture_output=True, check=True).stdout.decode().strip()
    commit = git(repo, "commit-tree", tree, "-p", tip, "-m", "corrupt").strip()
    git(repo, "update-ref", "refs/heads/memory/atoms", commit)


def test_a_corrupt_atom_file_is_skipped_reported_and_never_hides_others(store: L1Store, repo: Path) -> None:
    good = l1_atom("Never push to main")
    capture_atoms(store, [good], "s1", None)
    _write_raw(repo, "atoms/de/atm_deadbeef.json", b"{ this is not json")
    snap = store.snapshot()
    assert list(snap.atoms) == [good["id"]]
    assert snap.bad and snap.bad[0][0] == "atoms/de/atm_deadbeef.json"
    # a later capture keeps working and does not drop the unreadable file
    other = l1_atom("Use pnpm, not npm")
    assert capture_atoms(store, [other], "s2", None).commit
    assert "atoms/de/atm_deadbeef.json" in git(repo, "ls-tree", "-r", "--name-only", "memory/atoms")
    assert {a["id"] for a in store.atoms()} == {good["id"], other["id"]}


def test_a_ref_moved_mid_write_is_reread_and_remerged(store: L1Store, repo: Path) -> None:
    mine = l1_atom("Never push to main", sessions=("s1",))
    theirs = l1_atom("Never push to main", sessions=("s2",), days=("2026-11-05",))
    other_store = L1Store(gitb.find_repo(repo))
    calls = {"n": 0}

    def compute(snap: Snapshot) -> Change | None:
        calls["n"] += 1
        if calls["n"] == 1:
            # another writer commits between our read and our ref update
            capture_atoms(other_store, [theirs], "s2", None)
        current = snap.atoms.get(mine["id"])
        from agent_memory.model.atom import merge

        merged = merge(current, mine) if current else mine
        return Change(subject="test: race", writes={mine["id"]: merged})

    oid, _ = store.transact(compute)
    assert oid and calls["n"] == 2
    (atom,) = store.atoms()
    assert atom["sessions"] == ["s1", "s2"]


def test_when_retries_run_out_atoms_are_queued_and_written_by_the_next_capture(store: L1Store, repo: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_mod, "MAX_ATTEMPTS", 3)
    rival = L1Store(gitb.find_repo(repo))
    counter = {"n": 0}
    real_snapshot = L1Store.snapshot

    def racing_snapshot(self: L1Store, tip: str | None = None) -> Snapshot:
        snap = real_snapshot(self, tip)
        if self is store:
            # a real concurrent writer moves the ref after every read
            counter["n"] += 1
            capture_atoms(rival, [l1_atom(f"Rival claim number {counter['n']} here")], "r", None)
        return snap

    monkeypatch.setattr(L1Store, "snapshot", racing_snapshot)
    mine = l1_atom("Never push to main")
    result = capture_atoms(store, [mine], "s1", None)
    assert result.commit is None and result.queued
    assert list(store.queue_dir.glob("*.json"))
    monkeypatch.setattr(L1Store, "snapshot", real_snapshot)
    nxt = capture_atoms(store, [l1_atom("Use pnpm, not npm")], "s2", None)
    assert nxt.commit
    ids = {a["id"] for a in store.atoms()}
    assert mine["id"] in ids and not list(store.queue_dir.glob("*.json"))
    assert "queued" in (repo / ".git" / "agent-memory" / "errors.log").read_text()


def test_expiry_and_cap_are_commits_that_say_what_was_dropped(store: L1Store, repo: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-10T00:00:00Z")
    atoms = [l1_atom(f"Claim number {i} about the build", days=(f"2026-11-{(i % 9) + 1:02d}",)) for i in range(6)]
    old = l1_atom("An old claim nobody repeated", days=("2026-08-01",))
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-08-02T00:00:00Z")
    capture_atoms(store, [old], "s0", None)
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-10T00:00:00Z")
    capture_atoms(store, atoms, "s1", None)
    commit = enforce_limits(store, cap=4)
    assert commit
    message = git(repo, "log", "-1", "--format=%B", "memory/atoms")
    assert message.startswith("expire: dropped 1 expired and 2 evicted over the 4-atom cap")
    assert f"{old['id']} expired: last seen 2026-08-01" in message
    remaining = {a["id"] for a in store.atoms()}
    assert len(remaining) == 4 and old["id"] not in remaining
    assert enforce_limits(store, cap=4) is None


def test_an_observation_already_past_expiry_is_not_stored(store: L1Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2027-06-01T00:00:00Z")
    result = capture_atoms(store, [l1_atom("Never push to main")], "s1", None)
    assert result.commit is None and result.expired_on_arrival


def test_write_without_init_is_a_clear_error(repo: Path) -> None:
    from agent_memory.model.errors import RepoStateError

    with pytest.raises(RepoStateError, match="not initialised"):
        capture_atoms(L1Store(gitb.find_repo(repo)), [l1_atom("Never push to main")], "s1", None)


def test_repo_without_commits_bare_repo_and_worktree(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    git(tmp_path, "init", "-q", str(empty))
    s = L1Store(gitb.find_repo(empty))
    assert s.init() and capture_atoms(s, [l1_atom("Never push to main")], "s1", None).commit

    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    b = L1Store(gitb.find_repo(bare))
    assert b.init() and capture_atoms(b, [l1_atom("Never push to main")], "s1", None).commit
    assert len(b.atoms()) == 1

    main = tmp_path / "main"
    git(tmp_path, "init", "-q", str(main))
    (main / "f").write_text("x")
    git(main, "add", "f")
    git(main, "commit", "-qm", "c")
    git(main, "worktree", "add", "-q", str(tmp_path / "wt"), "-b", "feature")
    in_main = L1Store(gitb.find_repo(main))
    in_main.init()
    in_wt = L1Store(gitb.find_repo(tmp_path / "wt"))
    capture_atoms(in_wt, [l1_atom("Never push to main")], "s1", None)
    assert [a["claim"] for a in in_main.atoms()] == ["Never push to main"]  # one store per repository


KILL_SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[2])
from builders import l1_atom
from agent_memory.gitio import repo as git
from agent_memory.store.capture import capture_atoms
from agent_memory.store.l1 import L1Store
store = L1Store(git.find_repo(sys.argv[1]))
i = 0
while True:
    capture_atoms(store, [l1_atom(f"Claim number {i} keeps the build green", sessions=(f"s{i}",))], f"s{i}", None)
    i += 1
"""


def test_kill_9_at_random_points_never_loses_stored_atoms(store: L1Store, repo: Path) -> None:
    tests_dir = str(Path(__file__).parent)
    seen: set[str] = set()
    for delay in (0.0, 0.05, 0.13, 0.21):
        before = store.tip()
        proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(repo), tests_dir])
        # The kill lands at a different point of a write in each round: counted from the
        # writer's first commit of the round, not from its start, so load cannot make it
        # land before the writer ever wrote.
        give_up = time.monotonic() + 120
        while store.tip() == before and proc.poll() is None and time.monotonic() < give_up:
            time.sleep(0.01)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        snap = store.snapshot()
        assert snap.bad == []
        ids = set(snap.atoms)
        assert seen <= ids, "a stored atom disappeared after kill -9"
        seen = ids
        fsck = subprocess.run(["git", "-C", str(repo), "fsck", "--connectivity-only", "--no-dangling"],
                              capture_output=True, text=True)
        assert fsck.returncode == 0, fsck.stderr
    assert seen, "the writer never committed anything"


REVIEW = {"state": "adopted", "at": "2026-11-05T10:00:00Z", "sessions": 1, "commit": "0" * 40}


def _mark(ident: str, review: object, **other: object) -> Any:
    """A transaction writing the stored atom back with `review` (and `other` fields) set."""

    def compute(snap: Snapshot) -> Change:
        return Change(subject="held: 1 adopted", writes={ident: {**snap.atoms[ident], **other, "review": review}})

    return compute


def test_a_write_of_a_review_record_alone_is_checked_and_every_other_write_validated_whole(
    store: L1Store,
) -> None:
    """adopt marks each item it landed on the atom's L1 record; a write that changes only that
    record is checked against the schema's rule for it without running the whole schema — and
    a bad record, or any other field changed with it, still meets the whole schema."""
    atom = l1_atom("Never push to main")
    capture_atoms(store, [atom], "s1", None)
    store.transact(_mark(atom["id"], REVIEW))
    assert store.snapshot().atoms[atom["id"]]["review"] == REVIEW
    for bad in ({**REVIEW, "state": "held"}, {**REVIEW, "sessions": -1}, {**REVIEW, "by": "me"}, "adopted"):
        with pytest.raises(InvalidAtomError):
            store.transact(_mark(atom["id"], bad))
    with pytest.raises(InvalidAtomError):
        store.transact(_mark(atom["id"], REVIEW, kind="opinion"))  # another field: the schema runs
    with pytest.raises(InvalidAtomError):
        store.transact(_mark(atom["id"], REVIEW, tier="L2"))  # no review record outside L1
    assert store.snapshot().atoms[atom["id"]]["review"] == REVIEW
