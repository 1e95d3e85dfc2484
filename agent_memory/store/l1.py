"""The L1 store: one file per atom at `atoms/<id>.json` on the orphan branch `memory/atoms`.

Written only through plumbing (blob → tree → commit → compare-and-set ref update), never
touching the work tree or the index. Every write is a transaction: read the tip, compute the
change, commit on top, move the ref only if it did not move meanwhile; on a lost race,
re-read, re-merge and retry with jitter. When retries run out, the incoming atoms go to a
retry queue under `.git/agent-memory/queue/` that the next write drains — a writer never
drops an atom (spec §5.4's "give up and drop" is replaced by "queue and retry").
Readers never lock: a commit is immutable, so a reader sees one consistent tree.
"""

from __future__ import annotations

import json
import os
import random
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from agent_memory.committed.templates import read_template
from agent_memory.gitio import repo as git
from agent_memory.gitio.state import atomic_write, log_error
from agent_memory.model.atom import Atom, dump_atom, read_stored_atom, validate_atom
from agent_memory.model.clock import now_utc
from agent_memory.model.errors import InvalidAtomError, RefMovedError, RepoStateError
from agent_memory.model.trailers import format_message
from agent_memory.store import recall

ATOMS_DIR = "atoms"
TOMBSTONES_DIR = "tombstones"
BRANCH_README = read_template("atoms-branch-README.md")

MAX_ATTEMPTS = 60
MAX_RETRY_SECONDS = 20.0


@dataclass
class Snapshot:
    tip: str | None
    atoms: dict[str, Atom] = field(default_factory=dict)
    tombstones: dict[str, dict[str, Any]] = field(default_factory=dict)
    bad: list[tuple[str, str]] = field(default_factory=list)
    tree: str | None = None


@dataclass
class Change:
    """What one transaction commits. Empty → nothing is written."""

    subject: str
    body: list[str] = field(default_factory=list)
    trailers: list[tuple[str, str]] = field(default_factory=list)
    writes: dict[str, Atom] = field(default_factory=dict)
    deletes: set[str] = field(default_factory=set)
    tombstone_writes: dict[str, dict[str, Any]] = field(default_factory=dict)
    tombstone_deletes: set[str] = field(default_factory=set)
    raw_deletes: set[str] = field(default_factory=set)

    def empty(self) -> bool:
        return not (self.writes or self.deletes or self.tombstone_writes or self.tombstone_deletes or self.raw_deletes)


class L1Store:
    def __init__(self, repo: git.Repo) -> None:
        self.repo = repo
        # Set by the last `transact` whose retries ran out: where its atoms were queued.
        self.last_queue_path: Path | None = None

    # --- reading ------------------------------------------------------------------------------

    def tip(self) -> str | None:
        return git.ref_target(self.repo, git.ATOMS_REF)

    def exists(self) -> bool:
        return self.tip() is not None

    def snapshot(self, tip: str | None = None) -> Snapshot:
        tip = tip if tip is not None else self.tip()
        snap = Snapshot(tip=tip)
        if tip is None:
            return snap
        snap.tree = git.commit_tree(self.repo, tip)
        for path, data in git.read_tree_blobs(self.repo, tip, [ATOMS_DIR, TOMBSTONES_DIR]).items():
            folder, name = path.split("/", 1)
            if not name.endswith(".json"):
                continue
            ident = name[: -len(".json")]
            if folder == TOMBSTONES_DIR:
                try:
                    snap.tombstones[ident] = json.loads(data)
                except ValueError as exc:
                    snap.bad.append((path, f"unreadable tombstone: {exc}"))
                continue
            try:
                atom = read_stored_atom(data)
            except InvalidAtomError as exc:
                # One bad file must not hide the others: skip it here, report it in validate.
                snap.bad.append((path, "; ".join(exc.errors[:3])))
                continue
            if atom["id"] != ident:
                snap.bad.append((path, f"file name does not match id {atom['id']}"))
                continue
            snap.atoms[ident] = atom
        return snap

    def atoms(self) -> list[Atom]:
        snap = self.snapshot()
        return [snap.atoms[k] for k in sorted(snap.atoms)]

    # --- writing ------------------------------------------------------------------------------

    def init(self) -> bool:
        """Create the orphan branch with a README commit. False when it already exists."""
        if self.exists():
            return False
        tree = git.build_tree(self.repo, None, {"README.md": BRANCH_README.encode()})
        message = format_message("init: create the L1 store", "", [("Op", "init")])
        oid = git.create_commit(self.repo, tree, [], message)
        try:
            git.cas_update_ref(self.repo, git.ATOMS_REF, oid, None, "agent-memory: init")
        except RefMovedError:
            return False  # another process created it first: same outcome
        self._after_write(oid)  # an (empty) recall index from the start: the hook never misses it
        return True

    def transact(self, compute: Callable[[Snapshot], Change | None], queue_on_failure: Iterable[Atom] = ()) -> tuple[str | None, Change | None]:
        """Run `compute` against the current tip and commit its change with a compare-and-set
        ref update, re-reading and recomputing after every lost race."""
        if not self.exists():
            raise RepoStateError("agent-memory is not initialised here (no memory/atoms branch)",
                                 hint="run `git memory init`")
        start = time.monotonic()
        self.last_queue_path = None
        for attempt in range(MAX_ATTEMPTS):
            snap = self.snapshot()
            change = compute(snap)
            if change is None or change.empty():
                return None, change
            oid = self._commit(snap, change)
            try:
                git.cas_update_ref(self.repo, git.ATOMS_REF, oid, snap.tip, f"agent-memory: {change.subject}")
            except RefMovedError:
                if time.monotonic() - start > MAX_RETRY_SECONDS:
                    break
                # Jittered, growing back-off: concurrent SessionEnd captures spread out.
                time.sleep(random.uniform(0.002, 0.02) * min(attempt + 1, 10))
                continue
            self._after_write(oid)
            return oid, change
        queued = list(queue_on_failure)
        if queued:
            path = self.last_queue_path = self.enqueue(queued, reason="ref kept moving")
            log_error(f"capture: memory/atoms kept moving; {len(queued)} atoms queued in {path.name}", self.repo.cwd)
            return None, None
        raise RepoStateError("memory/atoms kept moving; gave up after retries",
                             hint="retry the command; if it persists, check for a runaway process writing memory/atoms")

    def _commit(self, snap: Snapshot, change: Change) -> str:
        blobs: dict[str, bytes | None] = {}
        for ident, atom in change.writes.items():
            validate_atom(atom)  # every atom is validated on write
            blobs[f"{ATOMS_DIR}/{ident}.json"] = dump_atom(atom).encode("utf-8")
        for ident in change.deletes:
            blobs[f"{ATOMS_DIR}/{ident}.json"] = None
        for ident, stone in change.tombstone_writes.items():
            blobs[f"{TOMBSTONES_DIR}/{ident}.json"] = (json.dumps(stone, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()
        for ident in change.tombstone_deletes:
            blobs[f"{TOMBSTONES_DIR}/{ident}.json"] = None
        for path in change.raw_deletes:
            blobs[path] = None
        tree = git.build_tree(self.repo, snap.tree, blobs)
        message = format_message(change.subject, change.body, change.trailers)
        return git.create_commit(self.repo, tree, [snap.tip] if snap.tip else [], message,
                                 when=int(now_utc().timestamp()))

    def _after_write(self, tip: str) -> None:
        """Refresh the recall index the per-prompt hook reads (never fails the write)."""
        try:

            recall.write_index(self.repo.state, self.atoms_at(tip), tip)
        except Exception as exc:  # noqa: BLE001 - the index is a cache; the hook falls back
            log_error(f"recall index not rewritten: {type(exc).__name__}: {exc}", self.repo.cwd)

    def atoms_at(self, tip: str) -> list[Atom]:
        snap = self.snapshot(tip)
        return [snap.atoms[k] for k in sorted(snap.atoms)]

    # --- the retry queue ------------------------------------------------------------------------

    @property
    def queue_dir(self) -> Path:
        return self.repo.state / "queue"

    def enqueue(self, atoms: Iterable[Atom], reason: str) -> Path:
        self.queue_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        name = f"{int(time.time() * 1000)}-{os.getpid()}-{uuid.uuid4().hex[:8]}.json"
        path = self.queue_dir / name
        atomic_write(path, json.dumps({"reason": reason, "atoms": list(atoms)}, sort_keys=True) + "\n")
        return path

    def queued(self) -> tuple[list[Path], list[Atom]]:
        """Queued atoms waiting to be written; corrupt queue files are set aside, not deleted."""
        if not self.queue_dir.is_dir():
            return [], []
        paths, atoms = [], []
        for path in sorted(self.queue_dir.glob("*.json")):
            try:
                data = json.loads(path.read_text("utf-8"))
                batch = [a for a in data.get("atoms", []) if isinstance(a, dict)]
            except (OSError, ValueError, AttributeError) as exc:
                bad = self.queue_dir / "bad"
                bad.mkdir(exist_ok=True)
                try:
                    path.rename(bad / path.name)
                except OSError:
                    pass
                log_error(f"queue file {path.name} unreadable ({exc}); moved to queue/bad", self.repo.cwd)
                continue
            paths.append(path)
            atoms.extend(cast(list[Atom], batch))  # validated again when written
        return paths, atoms

    @staticmethod
    def clear_queue(paths: Iterable[Path]) -> None:
        for path in paths:
            try:
                path.unlink()
            except FileNotFoundError:
                pass


def summarize(atom: Mapping[str, Any], limit: int = 90) -> str:
    claim = " ".join(str(atom.get("claim", "")).split())
    return claim if len(claim) <= limit else claim[: limit - 1] + "…"


def rebuild_recall_index(start: str) -> None:
    """Rewrite the recall index from `memory/atoms` (what a capture does after each commit)."""
    repo = git.find_repo(start)
    store = L1Store(repo)
    tip = store.tip()
    if tip is None:
        raise LookupError(f"agent-memory is not initialised in {repo.cwd}")
    recall.write_index(repo.state, store.atoms_at(tip), tip)
