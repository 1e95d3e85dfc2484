"""Issue 17: a write costs what it changes, not what the store holds. Pinned by behaviour,
never by time: what a capture reads, which subtrees it rewrites, how many commits it makes,
how the recall index is updated (a frame appended, never a rebuild), how a flat store
migrates, and the stale ref lock."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from builders import l1_atom
from conftest import git

from agent_memory.gitio import repo as gitb
from agent_memory.gitio.refs import mark_initialised
from agent_memory.model.atom import atom_id, dump_atom, validate_atom
from agent_memory.store import contradictions, l1
from agent_memory.store.capture import Limits, capture_atoms, enforce_limits
from agent_memory.store.l1 import L1Store, StaleLockError, stale_lock
from agent_memory.store.recall import build as recall_build
from agent_memory.store.recall import writer as recall_writer
from agent_memory.store.recall.files import CONTESTED_FILENAME, contested_at_index, indexed_oid
from agent_memory.store.recall.index import contested_dates, load_index
from agent_memory.store.recall.score import recall

SLUG = "-home-dev-proj"


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-20T00:00:00Z")


def many(n: int, start: int = 0, day: str = "2026-11-01") -> list[dict[str, Any]]:
    """n distinct, realistic atoms (varied subjects, so few share a contradiction bucket)."""
    tools = ["pnpm", "ruff", "mypy", "vitest", "docker", "alembic", "black", "uv", "tox", "make"]
    areas = ["billing", "search", "auth", "checkout", "reports", "admin", "gateway", "jobs"]
    out = []
    for i in range(start, start + n):
        claim = f"Always run {tools[i % 10]} before committing changes to the {areas[(i // 10) % 8]} package {i}"
        out.append(l1_atom(claim, sessions=(f"s{i}",), days=(day,)))
    return out


def count_commits(repo: Path) -> int:
    return int(git(repo, "rev-list", "--count", "memory/atoms").strip())


class Reads:
    """Counts the blobs read from git and whole-store loads."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.blobs = 0
        self.loads = 0
        real_blob = gitb.read_blob
        real_load = l1.TreeMapping.load

        def read_blob(repo: gitb.Repo, oid: str, where: str | None = None) -> bytes:
            self.blobs += 1
            return real_blob(repo, oid, where)

        def load(mapping: l1.TreeMapping) -> dict[str, Any]:
            if not mapping._complete:
                self.loads += 1
            return real_load(mapping)

        monkeypatch.setattr(gitb, "read_blob", read_blob)
        monkeypatch.setattr(l1.TreeMapping, "load", load)


# --- a capture touches what it changes -------------------------------------------------------------


def test_a_capture_reads_only_the_atoms_it_changes(store: L1Store, monkeypatch: pytest.MonkeyPatch) -> None:
    capture_atoms(store, many(300), "bulk", None)
    reads = Reads(monkeypatch)
    merged = l1_atom(many(1, start=7)[0]["claim"], sessions=("s-new",), days=("2026-11-02",), line=9)
    result = capture_atoms(store, [*many(3, start=1000), merged], "one", None)
    assert result.commit and len(result.new) == 3 and result.merged == [merged["id"]]
    assert reads.loads == 0, "no full snapshot of the store"
    # The four atoms, their subject files, stats: a few dozen blobs at most, whatever the size.
    assert reads.blobs < 40, reads.blobs


def test_unchanged_subtrees_keep_their_oids(store: L1Store, repo: Path) -> None:
    capture_atoms(store, many(300), "bulk", None)
    before = dict(line.split("\t")[::-1] for line in git(repo, "ls-tree", "memory/atoms", "atoms/").splitlines())
    (one,) = many(1, start=5000)
    capture_atoms(store, [one], "one", None)
    after = dict(line.split("\t")[::-1] for line in git(repo, "ls-tree", "memory/atoms", "atoms/").splitlines())
    changed = {name for name in after if before.get(name) != after[name]}
    assert changed == {f"atoms/{one['id'][4:6]}"}
    assert git(repo, "cat-file", "-t", f"memory/atoms:atoms/{one['id'][4:6]}/{one['id']}.json").strip() == "blob"


def test_stats_count_follows_adds_and_deletes(store: L1Store) -> None:
    capture_atoms(store, many(20), "bulk", None)
    assert store.snapshot().stats == {**store.snapshot().stats, "count": 20}  # type: ignore[dict-item]
    gone = many(20)[:3]

    def drop(snap: l1.Snapshot) -> l1.Change:
        return l1.Change(subject="test: drop", deletes={a["id"] for a in gone})

    store.transact(drop)
    snap = store.snapshot()
    assert snap.stats is not None and snap.stats["count"] == 17 == len(snap.atoms)
    for atom in gone:  # their contradiction subjects went with them
        for key in contradictions.subject_keys(atom):
            assert atom["id"] not in snap.subject_members(key)


def test_contradictions_are_found_through_the_subject_index(store: L1Store) -> None:
    """What the subject index finds equals what detect() finds over the whole store."""
    capture_atoms(store, many(200), "bulk", None)
    older = l1_atom("The default branch is dev", sessions=("a",), days=("2026-10-01",))
    capture_atoms(store, [older], "a", None)
    capture_atoms(store, many(50, start=300), "more", None)
    newer = l1_atom("The default branch is main", sessions=("b",), days=("2026-11-03",))
    never = l1_atom("Never run the migrations by hand", sessions=("c",), days=("2026-11-03",))
    result = capture_atoms(store, [newer, never, l1_atom("Run the migrations by hand", sessions=("d",))], "b", None)
    atoms = store.atoms()
    expected = {c.older for c in contradictions.detect(atoms)}
    assert set(result.contested) == expected and older["id"] in expected
    by_id = {a["id"]: a for a in atoms}
    assert by_id[older["id"]]["contested_by"] == [newer["id"]]


def test_caps_and_expiry_run_in_the_capture_commit(store: L1Store, repo: Path) -> None:
    capture_atoms(store, many(6, day="2026-10-01") + many(4, start=50, day="2026-11-01"), "bulk", None)
    before = count_commits(repo)
    fresh = many(2, start=100, day="2026-11-05")
    result = capture_atoms(store, fresh, "s", None, limits=Limits(cap=8, max_age_days=90, held=frozenset()))
    assert count_commits(repo) == before + 1, "one transaction: capture, expiry and the cap together"
    assert sorted(result.new) == sorted(a["id"] for a in fresh)
    assert len(result.evicted) == 4 and not result.expired  # 12 atoms, cap 8: the oldest four
    message = git(repo, "log", "-1", "--format=%B", "memory/atoms")
    assert "4 dropped" in message.splitlines()[0] and "evicted: over the 8-atom cap" in message
    assert store.snapshot().stats["count"] == 8  # type: ignore[index]
    # Nothing over the cap and nothing old: enforce_limits reads no atom and writes nothing.
    assert enforce_limits(store, cap=8, held=()) is None


def test_an_evicted_atom_stays_gone_until_a_newer_sighting(store: L1Store, repo: Path) -> None:
    old = many(4, day="2026-10-01")
    capture_atoms(store, old + many(4, start=50, day="2026-11-01"), "bulk", None)
    rules = Limits(cap=6, max_age_days=90, held=frozenset())
    assert enforce_limits(store, cap=6, held=()) is not None
    kept = {a["id"] for a in store.atoms()}
    gone = [a for a in old if a["id"] not in kept]
    assert len(gone) == 2
    before = count_commits(repo)
    # The same old sessions read again (a re-capture, or an older transcript): nothing comes back.
    again = capture_atoms(store, old, "bulk", None, limits=rules)
    assert again.commit is None and count_commits(repo) == before
    assert sorted(again.evicted_before) == sorted(a["id"] for a in gone) and not again.new
    assert again.to_json()["skipped"]["evicted"] == again.evicted_before  # type: ignore[index]
    # A new session says one of them again: it is back, with the new sighting.
    ident = gone[0]["id"]
    back = capture_atoms(store, [l1_atom(gone[0]["claim"], sessions=("new",), days=("2026-11-10",))], "new", None,
                         limits=rules)  # fmt: skip
    assert ident in back.new and ident in {a["id"] for a in store.atoms()}
    # ... and once back, older evidence of it merges like any other.
    merged = capture_atoms(store, [gone[0]], "bulk", None, limits=rules)
    assert merged.merged == [ident]


def test_eviction_memory_forgets_what_has_expired_anyway(store: L1Store, repo: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    capture_atoms(store, many(3, day="2026-10-01") + many(3, start=50, day="2026-11-01"), "bulk", None)
    enforce_limits(store, cap=4, held=())
    tip = store.tip()
    assert git(repo, "ls-tree", "-r", "--name-only", f"{tip}", "--", "index/dropped")
    # 90 days on, an observation of October is expired on arrival: its eviction need not be
    # remembered, and the next write of that index file leaves it out.
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2027-02-01T00:00:00Z")
    gone = many(3, day="2026-10-01")[:2]
    fresh = [l1_atom(a["claim"], sessions=("late",), days=("2027-01-30",)) for a in gone]
    capture_atoms(store, fresh, "late", None)
    names = git(repo, "ls-tree", "-r", "--name-only", "memory/atoms", "--", "index/dropped").split()
    content = "".join(git(repo, "show", f"memory/atoms:{name}") for name in names)
    assert all(a["id"] not in content for a in gone)


def test_enforce_limits_under_the_cap_reads_nothing(store: L1Store, monkeypatch: pytest.MonkeyPatch) -> None:
    capture_atoms(store, many(30, day="2026-11-01"), "bulk", None, limits=Limits(held=frozenset()))
    reads = Reads(monkeypatch)
    assert enforce_limits(store, held=()) is None
    assert reads.loads == 0


def test_background_capture_is_one_commit(repo: Path) -> None:
    """SessionEnd's capture runs caps and expiry in its own commit, not a second transaction."""
    from sessions import gm, write_session

    gm(repo, "init", "--yes")
    before = count_commits(repo)
    transcript = write_session(repo, "aaaaaaaa-0000-4000-8000-000000000001", "2026-11-05",
                               [{"user": "Use pnpm, not npm."}, {"user": "Never push directly to main."}])  # fmt: skip
    from agent_memory.claude.hooks import run_event

    run_event("background-capture", {"transcript": str(transcript), "cwd": str(repo),
                                     "session": "aaaaaaaa-0000-4000-8000-000000000001"})  # fmt: skip
    assert count_commits(repo) == before + 1
    assert git(repo, "log", "-1", "--format=%s", "memory/atoms").startswith("capture: 2 new")


# --- the recall index follows the change -----------------------------------------------------------


def test_the_recall_index_is_appended_not_rebuilt(store: L1Store, monkeypatch: pytest.MonkeyPatch) -> None:
    capture_atoms(store, many(300), "bulk", None)

    def no_rebuild(*args: Any) -> None:
        raise AssertionError("the recall index was rebuilt for a small write")

    monkeypatch.setattr(recall_writer, "rebuild", no_rebuild)
    for k in range(3):
        capture_atoms(store, many(5, start=1000 + 5 * k), f"s{k}", None)
    index = load_index(store.repo.state)
    assert index is not None and len(index.frames) == 3 and index.source_oid == store.tip()
    full = recall_build.build_index(store.atoms(), store.tip() or "")
    assert sorted(index.ids()) == sorted(full.ids())
    now = time.time()
    for prompt in ("run pnpm in the billing package", "mypy for the search package 1003", "docker auth"):
        assert [h.id for h in recall(index, prompt, now)] == [h.id for h in recall(full, prompt, now)]


def test_the_index_catches_up_with_commits_it_did_not_see(store: L1Store, monkeypatch: pytest.MonkeyPatch) -> None:
    capture_atoms(store, many(100), "bulk", None)
    built_from = store.tip()
    monkeypatch.setattr(l1.L1Store, "_after_write", lambda *args, **kw: None)  # another writer
    capture_atoms(store, many(4, start=500), "x", None)
    capture_atoms(store, [l1_atom(many(1, start=3)[0]["claim"], sessions=("late",), days=("2026-11-04",))], "y", None)
    assert indexed_oid(store.repo.state) == built_from != store.tip()
    monkeypatch.setattr(recall_writer, "rebuild", lambda *a: (_ for _ in ()).throw(AssertionError("rebuilt")))
    recall_writer.refresh(store)  # what the detached `hook rebuild-index` runs
    index = load_index(store.repo.state)
    assert index is not None and index.source_oid == store.tip() and len(index.frames) == 1
    assert sorted(index.ids()) == sorted(recall_build.build_index(store.atoms(), "").ids())


def test_frames_are_compacted_into_a_new_base(store: L1Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recall_writer, "COMPACT_MIN", 8)
    capture_atoms(store, many(20), "bulk", None)
    for k in range(6):
        capture_atoms(store, many(2, start=100 + 2 * k), f"s{k}", None)
    index = load_index(store.repo.state)
    assert index is not None and index.source_oid == store.tip()
    assert len(index.frames) < 6 and index.n > 20  # rebuilt once past 8 atoms in frames



def test_the_contested_sidecar_follows_the_index_through_frames_and_rebuilds(store: L1Store) -> None:
    """The session start reads the contested map from the sidecar instead of loading the
    index (issue 17); after every kind of write it says what the index says, or nothing."""
    state = store.repo.state
    capture_atoms(store, many(50), "bulk", None)

    def agrees() -> None:
        index = load_index(state)
        assert index is not None
        assert contested_at_index(state) == (index.source_oid, contested_dates(index))

    agrees()
    capture_atoms(store, [l1_atom("The default branch is dev", sessions=("a",), days=("2026-10-01",))], "a", None)
    capture_atoms(store, [l1_atom("The default branch is main", sessions=("b",), days=("2026-11-03",))], "b", None)
    index = load_index(state)
    assert index is not None and index.frames and contested_dates(index)  # a frame carried it
    agrees()
    recall_writer.rebuild(store, store.tip() or "")
    agrees()
    # A sidecar left behind by another tip is not used: the index decides.
    (Path(state) / CONTESTED_FILENAME).write_bytes(
        (Path(state) / CONTESTED_FILENAME).read_bytes().replace(
            (store.tip() or "").encode(), b"f" * 40))
    assert contested_at_index(state) is None
    (Path(state) / CONTESTED_FILENAME).write_bytes(b"torn")
    assert contested_at_index(state) is None

# --- migration from the flat layout ----------------------------------------------------------------


def _flat_store(repo: Path, atoms: list[dict[str, Any]], files: dict[str, bytes] | None = None,
                message: str = "capture: an old store") -> str:  # fmt: skip
    """memory/atoms as versions before the fan-out wrote it: atoms/<id>.json, no index/ (and
    `files`, path → bytes, beside them). Returns the commit."""
    env = {**os.environ, "GIT_INDEX_FILE": str(repo / ".git" / "flat-index")}
    blobs = {f"atoms/{atom['id']}.json": dump_atom(atom).encode() for atom in atoms}
    for path, data in {**blobs, **(files or {})}.items():
        blob = subprocess.run(["git", "-C", str(repo), "hash-object", "-w", "--stdin"], input=data,
                              capture_output=True, check=True).stdout.decode().strip()  # fmt: skip
        subprocess.run(["git", "-C", str(repo), "update-index", "--add", "--cacheinfo",
                        f"100644,{blob},{path}"], env=env, check=True)  # fmt: skip
    tree = subprocess.run(["git", "-C", str(repo), "write-tree"], env=env, capture_output=True, check=True).stdout.decode().strip()
    commit = git(repo, "commit-tree", tree, "-m", message).strip()
    git(repo, "update-ref", "refs/heads/memory/atoms", commit)
    # set up by that version's init, as every store it wrote was (a store no init made here
    # came with the repository and is refused: L1Store.refuse_if_foreign)
    mark_initialised(str(repo / ".git"))
    return commit


def test_a_flat_store_migrates_in_a_commit_of_its_own(repo: Path) -> None:
    old = many(12)
    _flat_store(repo, old)
    store = L1Store(gitb.find_repo(repo))
    assert {a["id"] for a in store.atoms()} == {a["id"] for a in old}  # readable before
    result = capture_atoms(store, many(1, start=99), "s", None)
    subjects = git(repo, "log", "-2", "--format=%s", "memory/atoms").splitlines()
    assert subjects[0].startswith("capture: 1 new") and subjects[1].startswith("migrate: 12 atoms")
    assert result.commit
    names = git(repo, "ls-tree", "-r", "--name-only", "memory/atoms").split()
    assert not [n for n in names if n.count("/") == 1 and n.startswith("atoms/")]
    snap = store.snapshot()
    assert snap.stats is not None and snap.stats["count"] == 13 == len(snap.atoms)
    # The history of an atom spans both layouts.
    log = gitb.log_for_path(store.repo, gitb.ATOMS_REF, f"atoms/{old[0]['id']}.json")
    assert [e.subject.split(":")[0] for e in log] == ["migrate", "capture"]


OLD_README = {"README.md": b"# memory/atoms\n\nL1 candidate atoms of agent-memory.\n"}


def test_every_old_store_layout_is_read_and_migrated(repo: Path) -> None:
    """What `_migrate` exists for — flat atoms/<id>.json beside the README and tombstones/
    older versions wrote — is still a store; nothing of it is refused or lost."""
    old = many(3)
    stone = {"id": "atm_0000abcd", "claim": "gone", "forgotten_at": "2026-10-01T00:00:00Z"}
    _flat_store(repo, old, {**OLD_README, "tombstones/atm_0000abcd.json": json.dumps(stone).encode()})
    store = L1Store(gitb.find_repo(repo))
    assert {a["id"] for a in store.atoms()} == {a["id"] for a in old}
    capture_atoms(store, many(1, start=99), "s", None)
    assert git(repo, "log", "-2", "--format=%s", "memory/atoms").splitlines()[1].startswith("migrate: 3 atoms")
    assert len(store.atoms()) == 4 and "atm_0000abcd" in store.snapshot().tombstones


def test_an_old_init_with_nothing_captured_is_a_store(repo: Path) -> None:
    """An `init` before the fan-out wrote the README alone: its `Op: init` trailer says it is
    the store's (a project commit with a README alone has none)."""
    _flat_store(repo, [], OLD_README, message="init: create the L1 store\n\nOp: init")
    store = L1Store(gitb.find_repo(repo))
    assert store.atoms() == []
    assert capture_atoms(store, many(1), "s", None).commit
    assert len(store.atoms()) == 1


@pytest.mark.parametrize("files", [
    OLD_README,  # a project whose tree is a README alone
    {"atoms/hydrogen.json": b"{}", "src/model.py": b"x = 1\n"},  # a project with an atoms/ folder
    {"README.md": b"x", "index": b"a file where the store has a folder"},
], ids=["readme-alone", "atoms-folder-and-more", "index-file"])
def test_a_project_commit_is_never_read_as_a_store_nor_migrated(repo: Path, files: dict[str, bytes]) -> None:
    """memory/atoms naming a commit of the project's: every read and write raises (exit 3
    at the CLI); no "migrate" commit takes the project's tree into the store."""
    from agent_memory.model.errors import NotAStoreError

    commit = _flat_store(repo, [], files, message="initial")
    store = L1Store(gitb.find_repo(repo))
    for call in (store.atoms, store.exists, lambda: capture_atoms(store, many(1), "s", None)):
        with pytest.raises(NotAStoreError, match="no commit of the L1 store"):
            call()
    assert git(repo, "rev-parse", "memory/atoms").strip() == commit


# --- the stale ref lock (issue 14 §5) --------------------------------------------------------------


def test_a_stale_ref_lock_is_reported_at_once_with_the_command_that_removes_it(
    store: L1Store, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    capture_atoms(store, many(2), "s", None)
    lock = repo / ".git" / "refs" / "heads" / "memory" / "atoms.lock"
    lock.write_text("")
    assert stale_lock(store.repo) is None  # fresh: a live writer may hold it
    old = time.time() - 600
    os.utime(lock, (old, old))
    message = stale_lock(store.repo)
    assert message is not None and "stale" in message and f"rm {lock}" in message
    sleeps: list[float] = []
    monkeypatch.setattr(l1.time, "sleep", sleeps.append)

    def change(snap: l1.Snapshot) -> l1.Change:
        atom = dict(snap.atoms[many(1)[0]["id"]], pinned=True)
        return l1.Change(subject="test: pin", writes={atom["id"]: validate_atom(atom)})

    with pytest.raises(StaleLockError) as raised:
        store.transact(change)
    assert sleeps == [], "no retry loop against a stale lock"
    assert raised.value.hint == f"rm {lock}"
    # A capture keeps its atoms: queued, with the reason.
    result = capture_atoms(store, many(1, start=40), "q", None)
    assert result.queued and sleeps == []
    lock.unlink()
    assert capture_atoms(store, [], "next", None).commit  # the queue drains
    assert atom_id(many(1, start=40)[0]["claim"], "proj") in {a["id"] for a in store.atoms()}


# --- the review loop in one transaction ---------------------------------------------------------------


def test_record_decisions_is_one_commit_for_a_batch(store: L1Store, repo: Path) -> None:
    from agent_memory.store.decisions import record_decision, record_decisions

    atoms = many(5)
    capture_atoms(store, atoms, "s", None)
    before = count_commits(repo)
    oid = record_decisions(store, [(a["id"], "adopted", "c" * 40) for a in atoms[:3]]
                           + [(atoms[3]["id"], "rejected", None), ("atm_00000000", "adopted", None)])
    assert oid and count_commits(repo) == before + 1
    by_id = {a["id"]: a for a in store.atoms()}
    assert [by_id[a["id"]]["review"]["state"] for a in atoms[:4]] == ["adopted"] * 3 + ["rejected"]
    assert "review" not in by_id[atoms[4]["id"]]
    assert git(repo, "log", "-1", "--format=%s", "memory/atoms").startswith("review: 4 decisions")
    # Recorded again: nothing to write. One atom: its commit names it.
    assert record_decisions(store, [(a["id"], "adopted", "c" * 40) for a in atoms[:3]]) is None
    record_decision(store, atoms[4]["id"], "adopted", None)
    assert f"Atom-Id: {atoms[4]['id']}" in git(repo, "log", "-1", "--format=%B", "memory/atoms")


# --- bounded evidence through capture ------------------------------------------------------------------


def test_evidence_stays_bounded_however_often_a_claim_recurs(store: L1Store, repo: Path) -> None:
    from agent_memory.model.atom import EVIDENCE_DAYS, omitted_quotes

    claim = "Never push directly to main"
    sizes = []
    for n in range(40):
        day = f"2026-{10 + n // 28:02d}-{1 + n % 28:02d}"
        capture_atoms(store, [l1_atom(claim, sessions=(f"s{n:02d}",), days=(day,), line=n + 1)], f"s{n:02d}", None)
        blob = git(repo, "cat-file", "-s", f"memory/atoms:atoms/{atom_id(claim, 'proj')[4:6]}/{atom_id(claim, 'proj')}.json")
        sizes.append(int(blob))
    (atom,) = store.atoms()
    assert len(atom["sessions"]) == 40 and atom["observations"] == 40
    assert len(atom["evidence"]) <= EVIDENCE_DAYS + 2
    assert omitted_quotes(atom) == 40 - len(atom["evidence"])  # what `inspect --why` can say
    # Each new session adds an id and a fingerprint, never another quote.
    assert sizes[-1] - sizes[-2] < 120


def test_an_old_atom_is_bounded_on_its_next_write(store: L1Store) -> None:
    claim = "Never push directly to main"
    days = tuple(f"2026-10-{d:02d}" for d in range(1, 21))
    old = l1_atom(claim, sessions=tuple(f"s{i:02d}" for i in range(20)), days=days)

    def plant(snap: l1.Snapshot) -> l1.Change:  # as a version before the bound stored it
        return l1.Change(subject="test: an unbounded atom", writes={old["id"]: old})

    store.transact(plant)
    assert len(store.atoms()[0]["evidence"]) == 20
    capture_atoms(store, [l1_atom(claim, sessions=("new",), days=("2026-10-25",), line=99)], "new", None)
    (atom,) = store.atoms()
    assert len(atom["evidence"]) < 20 and atom["observations"] == 21 and len(atom["sessions"]) == 21
