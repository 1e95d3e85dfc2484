"""The L1 store: one file per atom on the orphan branch `memory/atoms`.

Written only through plumbing (blob → tree → commit → compare-and-set ref update), never
touching the work tree or the index. Every write is a transaction: read the tip, compute the
change, commit on top, move the ref only if it did not move meanwhile; on a lost race,
re-read, re-merge and retry with jitter. When retries run out, the incoming atoms go to a
retry queue under `.git/agent-memory/queue/` that the next write drains — a writer never
drops an atom: it queues and retries rather than give up.
Readers never lock: a commit is immutable, so a reader sees one consistent tree.

Costs follow the change, not the store. The tree is laid out so that a write
touches only what it changes:

    atoms/<2 hex>/<id>.json        one file per atom, fanned out by the id's first two digits
    tombstones/<id>.json           forgotten claims (few)
    index/stats.json               atom count, a lower bound of the oldest movable last_seen
    index/subjects/<2 hex>/<key>   ids per contradiction subject (contradictions.subject_keys)
    index/dropped/<2 hex>          `id last_seen` of atoms the cap evicted: an observation no
                                   newer than that does not bring the atom back

A snapshot reads atoms by path when asked (`snap.atoms.get(id)`) and the whole store only
when iterated; a commit rebuilds the few subtrees it changed and reuses every other subtree's
oid; `index/` is maintained by every commit, so contradiction checks look up the atoms that
share a subject and caps/expiry start from counts instead of a scan. A store written before
this layout (flat `atoms/<id>.json`, no `index/`) is migrated by the first write, in a commit
of its own; a tip that is no store commit at all (the branch moved onto the project's history)
is refused by every reader and writer, never taken for an empty or old store (store/shape.py).
"""

from __future__ import annotations

import json
import os
import random
import shlex
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from agent_memory.committed.templates import read_template
from agent_memory.gitio import repo as git
from agent_memory.gitio.locks import stale_age
from agent_memory.gitio.refcheck import last_logged
from agent_memory.gitio.refs import INIT_MARKER, STATE_DIRNAME, atom_path
from agent_memory.gitio.state import atomic_write, log_error, read_regular_file
from agent_memory.model.atom import (
    Atom,
    dump_atom,
    read_stored_atom,
    review_is_valid,
    validate_atom,
)
from agent_memory.model.clock import now_utc
from agent_memory.model.errors import (
    InvalidAtomError,
    RefMovedError,
    RefUnreadableError,
    RepoStateError,
)
from agent_memory.model.policy import L1_MAX_AGE_DAYS
from agent_memory.model.trailers import format_message
from agent_memory.store.contradictions import subject_keys
from agent_memory.store.recall import writer as recall_writer
from agent_memory.store.shape import ATOMS_DIR, INDEX_DIR, STORE, TOMBSTONES_DIR, check_store_tip

if TYPE_CHECKING:
    from agent_memory.transcripts.ledger import Ledger

STATS_PATH = "index/stats.json"
SUBJECTS_DIR = "index/subjects"
DROPPED_DIR = "index/dropped"
FORMAT = 3
BRANCH_README = read_template("atoms-branch-README.md")

MAX_ATTEMPTS = 60
MAX_RETRY_SECONDS = 20.0
# `git update-ref` holds `<ref>.lock` for milliseconds. One older than this that no process
# has open was left by a killed process: say so at once instead of retrying.
STALE_LOCK_SECONDS = 10.0


# --- reading ----------------------------------------------------------------------------------


class TreeMapping(dict[str, Any]):
    """A read-only `{id: record}` view of one folder of a commit's tree, as a dict. `get`,
    `[]` and `in` read one file by path; iterating (`keys`/`values`/`items`, `len`, `dict()`,
    `{**…}`) reads the whole folder once. Unreadable files are absent here and listed in
    `bad`. Callers that used the eager dict of earlier versions keep working."""

    def __init__(self, repo: git.Repo, tree: str | None, folder: str,
                 path_of: Callable[[str], list[str]], parse: Callable[[str, bytes], Any]) -> None:  # fmt: skip
        super().__init__()
        self._repo = repo
        self._tree = tree
        self._folder = folder
        self._path_of = path_of
        self._parse = parse
        self._missing: set[str] = set()
        self._torn: set[str] = set()  # a file there that `parse` refused
        self._complete = False
        self.bad: list[tuple[str, str]] = []

    def _read_one(self, ident: str) -> Any:
        for path in self._path_of(ident):
            data = git.read_path(self._repo, self._tree, path, STORE)
            if data is None:
                continue
            try:
                return self._parse(ident, data)
            except InvalidAtomError:
                self._torn.add(ident)
                return None
        return None

    def get(self, ident: str, default: Any = None) -> Any:
        if dict.__contains__(self, ident):
            return dict.__getitem__(self, ident)
        if self._complete or ident in self._missing or not isinstance(ident, str):
            return default
        value = self._read_one(ident)
        if value is None:
            self._missing.add(ident)
            return default
        dict.__setitem__(self, ident, value)
        return value

    def __getitem__(self, ident: str) -> Any:
        value = self.get(ident)
        if value is None:
            raise KeyError(ident)
        return value

    def __contains__(self, ident: object) -> bool:
        return isinstance(ident, str) and self.get(ident) is not None

    def unreadable(self, ident: str) -> bool:
        """Whether `ident` has a file here that cannot be read as a record (`get` answers None
        for it as for an absent one): a writer must not take its path for a free one."""
        if self.get(ident) is not None:
            return False
        if ident in self._missing:  # looked up by path already: absent, or there and refused
            return ident in self._torn
        return any(git.read_path(self._repo, self._tree, path, STORE) is not None for path in self._path_of(ident))

    def load(self) -> dict[str, Any]:
        """Everything, read once (sorted by id), as a plain dict."""
        if not self._complete:
            found: dict[str, Any] = {}
            self.bad = []
            for path, oid in self._blobs():
                name = path.rsplit("/", 1)[-1]
                if not name.endswith(".json"):
                    continue
                ident = name[: -len(".json")]
                try:
                    found[ident] = self._parse(ident, git.read_blob(self._repo, oid, f"{path} in {STORE}"))
                except InvalidAtomError as exc:
                    # One bad file must not hide the others: skip it here, report it in validate.
                    self.bad.append((path, "; ".join(exc.errors[:3]) or str(exc)))
            dict.clear(self)
            for key in sorted(found):
                dict.__setitem__(self, key, found[key])
            self._complete = True
        return dict(dict.items(self))

    def _blobs(self) -> Iterator[tuple[str, str]]:
        for name, oid, is_tree in git.list_tree(self._repo, self._tree, self._folder, STORE):
            if not is_tree:
                yield f"{self._folder}/{name}", oid
                continue
            for sub, sub_oid, sub_is_tree in git.list_tree(self._repo, oid, where=f"{self._folder}/{name} in {STORE}"):
                if not sub_is_tree:
                    yield f"{self._folder}/{name}/{sub}", sub_oid

    def __iter__(self) -> Iterator[str]:
        return iter(self.load())

    def __len__(self) -> int:
        return len(self.load())

    def keys(self) -> Any:
        return self.load().keys()

    def values(self) -> Any:
        return self.load().values()

    def items(self) -> Any:
        return self.load().items()

    def copy(self) -> dict[str, Any]:
        return self.load()

    def __eq__(self, other: object) -> bool:
        return self.load() == other

    def __ne__(self, other: object) -> bool:
        return self.load() != other

    __hash__ = None  # type: ignore[assignment,unused-ignore]

    def __repr__(self) -> str:
        return f"TreeMapping({self._folder}, {len(self)} entries)"


def _review_only(stored: Atom | None, atom: Atom) -> bool:
    """A write that changes only the review record of a stored L1 atom (the marks `adopt`
    writes, one per item it landed) with a record that meets the schema: the rest of the atom
    was validated when it was written, so the whole schema — jsonschema's import and a run
    per atom, most of what recording a batch of marks cost — is not needed again."""
    if stored is None or atom.get("tier") != "L1" or not review_is_valid(atom.get("review")):
        return False
    return {k: v for k, v in atom.items() if k != "review"} == {k: v for k, v in stored.items() if k != "review"}


def _parse_atom(ident: str, data: bytes) -> Atom:
    atom = read_stored_atom(data)
    if atom["id"] != ident:
        raise InvalidAtomError(f"file name does not match id {atom['id']}", [f"file name does not match id {atom['id']}"])
    return atom


def _parse_tombstone(ident: str, data: bytes) -> dict[str, Any]:
    try:
        value = json.loads(data)
    except (ValueError, RecursionError) as exc:  # (nested past json's recursion)
        raise InvalidAtomError(f"unreadable tombstone: {exc}", [f"unreadable tombstone: {exc}"]) from exc
    if not isinstance(value, dict):
        raise InvalidAtomError("unreadable tombstone: not an object", ["unreadable tombstone: not an object"])
    return value


class Snapshot:
    """One commit of `memory/atoms`: `atoms` and `tombstones` read lazily (see TreeMapping),
    `stats` from `index/stats.json` (None before the fan-out layout)."""

    def __init__(self, repo: git.Repo, tip: str | None, tree: str | None = None) -> None:
        self.repo = repo
        self.tip = tip
        self.tree = tree if tree is not None or tip is None else git.commit_tree(repo, tip, f"the tip of {STORE}")
        self.atoms: TreeMapping = TreeMapping(repo, self.tree, ATOMS_DIR, lambda i: list(git.atom_paths(i)), _parse_atom)
        self.tombstones: TreeMapping = TreeMapping(repo, self.tree, TOMBSTONES_DIR,
                                                   lambda i: [f"{TOMBSTONES_DIR}/{i}.json"], _parse_tombstone)  # fmt: skip
        self._stats: dict[str, Any] | None | bool = False
        self._dropped: dict[str, dict[str, str]] = {}

    @property
    def bad(self) -> list[tuple[str, str]]:
        self.atoms.load()
        self.tombstones.load()
        return [*self.atoms.bad, *self.tombstones.bad]

    @property
    def stats(self) -> dict[str, Any] | None:
        if self._stats is False:
            data = git.read_path(self.repo, self.tree, STATS_PATH, STORE) if self.tree else None
            try:
                value = json.loads(data) if data is not None else None
            except (ValueError, RecursionError):
                value = None
            self._stats = value if isinstance(value, dict) and value.get("format") == FORMAT else None
        return self._stats if isinstance(self._stats, dict) else None

    @property
    def legacy(self) -> bool:
        """True when the tree predates the fan-out layout (or an older writer added flat files)."""
        if self.tree is None:
            return False
        if self.stats is None:
            return True
        return any(not is_tree for _, _, is_tree in git.list_tree(self.repo, self.tree, ATOMS_DIR, STORE))

    def subject_lines(self, path: str) -> list[str]:
        data = git.read_path(self.repo, self.tree, path, STORE) if self.tree else None
        return data.decode("utf-8").splitlines() if data else []

    def subject_members(self, key: str) -> list[str]:
        prefix = key + " "
        return [line[len(prefix) :] for line in self.subject_lines(subject_path(key)) if line.startswith(prefix)]

    def dropped_file(self, path: str) -> dict[str, str]:
        """{id: last_seen when evicted} of one `index/dropped/` file (read once per snapshot)."""
        if path not in self._dropped:
            found: dict[str, str] = {}
            for line in self.subject_lines(path):
                ident, _, seen = line.partition(" ")
                if seen:
                    found[ident] = seen
            self._dropped[path] = found
        return self._dropped[path]

    def evicted_at(self, ident: str) -> str | None:
        """The last_seen `ident` had when the cap evicted it, or None (never evicted, or
        back in the store since)."""
        return self.dropped_file(dropped_path(ident)).get(ident)


def subject_path(key: str) -> str:
    """The file that lists `key`'s atoms, as `key id` lines with every other key of the same
    first three hex digits: 4,096 small files in 256 folders of 16, so a new atom rewrites two
    files of a few KB and two 16-entry folders even at 100k atoms."""
    return f"{SUBJECTS_DIR}/{key[:2]}/{key[2]}"


def _subject_files(pairs: dict[str, set[str]]) -> dict[str, bytes | None]:
    """{path: content} for {key: ids}, grouped into their files."""
    files: dict[str, list[str]] = {}
    for key, ids in pairs.items():
        files.setdefault(subject_path(key), []).extend(f"{key} {ident}" for ident in ids)
    return {path: ("\n".join(sorted(lines)) + "\n").encode() if lines else None for path, lines in files.items()}


def dropped_path(ident: str) -> str:
    return f"{DROPPED_DIR}/{ident[4:6] if len(ident) >= 6 else '__'}"


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
    # Atoms the cap evicts: {id: its last_seen}, remembered in index/dropped/ (see Snapshot.evicted_at).
    evicted: dict[str, str] = field(default_factory=dict)
    # Set by a compute that read every atom (caps/expiry): the exact oldest last_seen of the
    # atoms expiry may drop, and when that was established.
    rescanned: tuple[str, str] | None = None

    def empty(self) -> bool:
        return not (self.writes or self.deletes or self.tombstone_writes or self.tombstone_deletes or self.raw_deletes)


class StoreRewoundError(RefUnreadableError):
    """memory/atoms no longer holds the last commit agent-memory wrote on it (exit 3)."""


class StaleLockError(RepoStateError):
    """`refs/heads/memory/atoms.lock` was left behind by a killed process."""


class L1Store:
    def __init__(self, repo: git.Repo) -> None:
        self.repo = repo
        # Set by the last `transact` whose retries ran out: where its atoms were queued.
        self.last_queue_path: Path | None = None
        # How many transactions this object committed (tests pin "one per capture").
        self.commits = 0
        self._rewind_checked = False  # refuse_if_rewound

    # --- reading ------------------------------------------------------------------------------

    def tip(self) -> str | None:
        """The store commit memory/atoms names, None when there is no such branch. A branch that
        names anything else raises NotAStoreError: read as an empty store it hid every atom,
        and a write "migrated" over it (`not_a_store`)."""
        tip = git.ref_target(self.repo, git.ATOMS_REF)
        if tip is not None:
            check_store_tip(self.repo, tip)
        return tip

    def exists(self) -> bool:
        return self.tip() is not None

    def snapshot(self, tip: str | None = None) -> Snapshot:
        return Snapshot(self.repo, tip if tip is not None else self.tip())

    def atoms(self) -> list[Atom]:
        snap = self.snapshot()
        return list(snap.atoms.load().values())

    def read_atoms(self, ids: Iterable[str], tip: str | None = None) -> dict[str, Atom]:
        """The named atoms that exist, read by path (never the whole store)."""
        snap = self.snapshot(tip)
        out: dict[str, Atom] = {}
        for ident in ids:
            atom = snap.atoms.get(ident)
            if atom is not None:
                out[ident] = atom
        return out

    # --- writing ------------------------------------------------------------------------------

    def refuse_if_lost(self) -> None:
        """Raise RefUnreadableError when `memory/atoms` cannot be read, or is missing while
        something says a store existed here: its reflog (git deletes a reflog with its branch,
        so one left over names a store lost by other means) or the marker `init` leaves. An
        empty store made then would hide the old one, whose atoms only reflogs still reach."""
        if self.exists():
            return
        logged = last_logged(self.repo.common_dir, git.ATOMS_REF)
        if logged:
            raise RefUnreadableError(
                f"memory/atoms is missing, but its reflog says it was at {logged[:12]} (a store existed "
                "here; nothing was changed)",
                hint=f"restore it: git update-ref {git.ATOMS_REF} {logged} (then `git fsck` checks the rest)")
        marker = self.repo.common_dir / STATE_DIRNAME / INIT_MARKER
        if marker.is_file():
            raise RefUnreadableError(
                f"memory/atoms is missing, but `git memory init` ran here before ({marker}); "
                "nothing was changed",
                hint="find it with `git fsck --lost-found` (its commits carry 'Op:' trailers); to start an empty "
                     f"store instead, delete {shlex.quote(str(marker))} and run `git memory init` again")

    def refuse_if_rewound(self) -> None:
        """Raise StoreRewoundError when memory/atoms does not hold the last commit agent-memory
        wrote on it here, as the capture ledger records it (`git update-ref`/`git branch -f`
        back to an older store commit, or to another store's): a write on top would leave that
        commit's atoms to the reflog alone, and the ledger would never read their transcripts
        again. A ledger deleted (every transcript is read again: docs/cli.md) takes the branch
        as it is. The record is read before the ref: a concurrent writer records its commit
        only after moving the ref, so a ref that does not hold it was moved back, not raced.
        Checked once per store object: its own writes keep the two in step. Nothing is written."""
        self._check_rewound()

    def _check_rewound(self) -> Ledger | None:
        """refuse_if_rewound, giving back the capture ledger it read (None when this object
        checked before): `transact` records its write's tip in it, so a write reads the ledger
        once, not once here and again to record (record_store_tip)."""
        from agent_memory.transcripts.ledger import LEDGER_NAME, STORE_TIP, Ledger

        if self._rewind_checked:
            return None
        captured = Ledger(self.repo.common_dir)
        entry = captured.get(STORE_TIP, git.ATOMS_REF)  # recorded_store_tip
        recorded = entry.signature if entry is not None else None
        tip = git.ref_target(self.repo, git.ATOMS_REF)
        if recorded and tip and recorded != tip and not self._holds(tip, recorded):
            # its real path: in a linked work tree or a submodule `.git` is a file, and
            # `.git/agent-memory/…` named nothing there
            ledger = shlex.quote(str(Path(self.repo.common_dir) / STATE_DIRNAME / LEDGER_NAME))
            keep = f"delete {ledger}: `git memory capture --all` then reads every transcript again"
            # A commit gone from the object database (pruned, or a ledger from another copy of
            # the repository) cannot be restored: the update-ref the hint named failed.
            restore = (f"restore it: git update-ref {git.ATOMS_REF} {recorded}; or, to keep memory/atoms as it is "
                       f"now, {keep}" if self._present(recorded) else
                       f"{recorded[:12]} is no longer in this repository's objects: to keep memory/atoms as it "
                       f"is now, {keep}")  # fmt: skip
            raise StoreRewoundError(
                f"memory/atoms was moved back or replaced: it is at {tip[:12]}, which does not hold "
                f"{recorded[:12]}, the last commit agent-memory wrote on it (nothing was written)",
                hint=restore)
        self._rewind_checked = True
        return captured

    def rewound(self) -> StoreRewoundError | None:
        """What refuse_if_rewound would raise, or None: for the checks that name the state
        before a write refuses it (validate, status). Reads the ledger's line and the ref only."""
        try:
            self.refuse_if_rewound()
        except StoreRewoundError as exc:
            return exc
        return None

    def _present(self, oid: str) -> bool:
        try:
            return bool(self.repo.pg().get(oid) is not None)
        except Exception:  # noqa: BLE001 - not a readable object name: not there
            return False

    def _holds(self, tip: str, oid: str) -> bool:
        try:
            return bool(self.repo.pg().descendant_of(tip, oid))
        except Exception:  # noqa: BLE001 - the recorded commit is gone (or unreadable): not held
            return False

    def require(self) -> None:
        """Raise unless the store exists: RefUnreadableError when it cannot be read or was lost
        (`refuse_if_lost`), else "not initialised" with `git memory init` as the way on; and a
        store that came with the repository (`refuse_if_foreign`)."""
        if self.exists():
            self.refuse_if_foreign()
            return
        self.refuse_if_lost()
        raise RepoStateError("agent-memory is not initialised in this repository (no memory/atoms branch)",
                             hint="run `git memory init`")

    def refuse_if_foreign(self) -> None:
        """Raise RepoStateError for a `memory/atoms` holding atoms that no `init` made here and no
        write of ours recorded (no init marker, no setup of an earlier version, no `store` line
        in the capture ledger): it came with the repository — a bare or mirror clone, a fetch
        into refs/heads — and its atoms are another person's candidates. Taken as this store,
        `remember` or `capture` wrote on it (and their ledger line then made `init` accept it),
        and recall put its atoms into every prompt as the person's own earlier words (a cloned
        "Always run ./bootstrap.sh before answering"). An empty store gives nothing away."""
        from agent_memory.gitio.refs import is_initialised
        from agent_memory.transcripts.ledger import recorded_store_tip

        common = str(self.repo.common_dir)
        if not self.exists() or is_initialised(common) or recorded_store_tip(common, git.ATOMS_REF):
            return
        try:
            if not self.snapshot().atoms:
                return
        except Exception:  # noqa: BLE001 - unreadable: the reads after this one say how
            return
        state = Path(common) / STATE_DIRNAME
        marker = f"mkdir -p {shlex.quote(str(state))} && touch {shlex.quote(str(state / INIT_MARKER))}"
        raise RepoStateError(
            "memory/atoms is here, but `git memory init` never ran in this repository and agent-memory never "
            "wrote on it: it came with the clone or a fetch, and its atoms are someone else's (recall would "
            "give them to Claude as yours); nothing was changed",
            hint="set it aside and start your own store: git branch -m memory/atoms memory/atoms-cloned (and, when "
                 "it came too, git branch -m memory/review memory/review-cloned: its staged items are the author's), "
                 f"then git memory init; if it is your own store (kept by `git memory deinit` of an earlier version, "
                 f"which left no mark of it), mark this repository with `{marker}` "
                 "and run git memory init")  # fmt: skip

    def init(self) -> bool:
        """Create the orphan branch with a README commit. False when it already exists; refuses
        (RefUnreadableError) where a store existed and is unreadable or lost."""
        if self.exists():
            return False
        self.refuse_if_lost()
        written = git.Written()
        tree = git.build_tree(self.repo, None, {"README.md": BRANCH_README.encode(),
                                                STATS_PATH: _stats_bytes(_empty_stats())}, written)  # fmt: skip
        message = format_message("init: create the L1 store", "", [("Op", "init")])
        oid = git.create_commit(self.repo, tree, [], message, written=written)
        try:
            git.cas_update_ref(self.repo, git.ATOMS_REF, oid, None, "agent-memory: init", written)
        except RefMovedError as exc:
            if self.exists():
                return False  # another process created it first: same outcome
            # no race: git could not make the ref (a branch `memory` where it needs a folder)
            raise RepoStateError(f"memory/atoms could not be created: {str(exc).splitlines()[-1]}",
                                 hint="rename the branch git names, then run `git memory init` again") from exc
        from agent_memory.transcripts.ledger import forget_all

        forget_all(self.repo.common_dir)  # what was captured into a store that is gone is not in this one
        self._after_write(oid, None, ())  # an (empty) recall index from the start: the hook never misses it
        return True

    def transact(self, compute: Callable[[Snapshot], Change | None], queue_on_failure: Iterable[Atom] = (),
                 guard: Callable[[], AbstractContextManager[object]] | None = None) -> tuple[str | None, Change | None]:
        """Run `compute` against the current tip and commit its change with a compare-and-set
        ref update, re-reading and recomputing after every lost race. Each attempt (read,
        compute, ref update) runs inside `guard()` when given: what `compute` reads besides the
        snapshot is read and held there (capture's adopted ids, under the memory lock).
        `queue_on_failure` is listed only after the last attempt lost its race (capture passes
        what its latest attempt judged worth keeping)."""
        self.require()
        ledger = self._check_rewound()  # read once: this write's tip is recorded in it
        start = time.monotonic()
        self.last_queue_path = None
        stale: str | None = None
        for attempt in range(MAX_ATTEMPTS):
            with guard() if guard is not None else nullcontext():
                snap = self.snapshot()
                if snap.legacy:
                    self._migrate(snap)
                    ledger = None  # the migration recorded its own tip: read afresh
                    continue
                change = compute(snap)
                if change is None or change.empty():
                    return None, change
                # The new objects are unreachable until the ref moves: the update restores any a
                # concurrent `git gc --prune=now` deleted (gitio.repo.Written).
                written = git.Written()
                oid = self._commit(snap, change, written)
                try:
                    git.cas_update_ref(self.repo, git.ATOMS_REF, oid, snap.tip, f"agent-memory: {change.subject}",
                                       written)  # fmt: skip
                    moved = False
                except RefMovedError:
                    moved = True
            if moved:
                stale = stale_lock(self.repo)
                if stale is not None or time.monotonic() - start > MAX_RETRY_SECONDS:
                    break
                # Jittered, growing back-off: concurrent SessionEnd captures spread out.
                time.sleep(random.uniform(0.002, 0.02) * min(attempt + 1, 10))
                continue
            self.commits += 1
            git.note_commit()
            self._after_write(oid, snap.tip, [*change.writes, *change.deletes], change.writes, ledger)
            return oid, change
        queued = list(queue_on_failure)
        if queued:
            path = self.last_queue_path = self.enqueue(queued, reason=stale or "ref kept moving")
            why = stale or "memory/atoms kept moving"
            log_error(f"capture: {why}; {len(queued)} atoms queued in {path.name}", self.repo.cwd)
            return None, None
        if stale is not None:
            raise StaleLockError(stale, hint=f"rm {shlex.quote(str(lock_path(self.repo)))}")
        raise RepoStateError("memory/atoms kept moving; gave up after retries",
                             hint="retry the command; if it persists, check for a runaway process writing memory/atoms")

    def _commit(self, snap: Snapshot, change: Change, written: git.Written) -> str:
        blobs: dict[str, bytes | None] = {}
        for ident, atom in change.writes.items():
            if not _review_only(snap.atoms.get(ident), atom):
                try:
                    validate_atom(atom)  # every atom is validated on write
                except InvalidAtomError as exc:
                    path = atom_path(ident)
                    raise InvalidAtomError(
                        exc.message, exc.errors,
                        hint=f"nothing was written; `git memory validate` names the stored records that fail the "
                             f"schema, and `git log -p memory/atoms -- {path}` has this one's history to restore it from",
                    ) from exc
            blobs[atom_path(ident)] = dump_atom(atom).encode("utf-8")
        for ident in change.deletes - set(change.writes):
            blobs[atom_path(ident)] = None
        for ident, stone in change.tombstone_writes.items():
            blobs[f"{TOMBSTONES_DIR}/{ident}.json"] = (json.dumps(stone, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()
        for ident in change.tombstone_deletes:
            blobs[f"{TOMBSTONES_DIR}/{ident}.json"] = None
        for path in change.raw_deletes:
            blobs[path] = None
        blobs.update(_index_changes(snap, change))
        tree = git.build_tree(self.repo, snap.tree, blobs, written)
        message = format_message(change.subject, change.body, change.trailers)
        return git.create_commit(self.repo, tree, [snap.tip] if snap.tip else [], message,
                                 written=written)

    def _migrate(self, snap: Snapshot) -> None:
        """One commit that moves a flat store to the fan-out layout and builds `index/`."""
        atoms = snap.atoms.load()
        blobs: dict[str, bytes | None] = {}
        for name, oid, is_tree in git.list_tree(self.repo, snap.tree, ATOMS_DIR):
            if not is_tree:
                blobs[f"{ATOMS_DIR}/{name}"] = None
                ident = name.removesuffix(".json")
                if ident not in atoms and name.endswith(".json"):
                    # Unreadable: moved as it is, never dropped (validate still reports it).
                    blobs[atom_path(ident)] = git.read_blob(self.repo, oid)
        for ident, atom in atoms.items():
            blobs[atom_path(ident)] = dump_atom(atom).encode("utf-8")
        members: dict[str, set[str]] = {}
        for ident, atom in atoms.items():
            for key in subject_keys(atom):
                members.setdefault(key, set()).add(ident)
        for path in _paths_under(self.repo, snap.tree, INDEX_DIR):
            blobs[path] = None  # an index/ of an older format goes whole
        blobs.update(_subject_files(members))
        stats = _empty_stats()
        stats["count"] = len(atoms)
        stats["oldest"] = min((str(a["last_seen"]) for a in atoms.values()), default="")
        blobs[STATS_PATH] = _stats_bytes(stats)
        written = git.Written()
        tree = git.build_tree(self.repo, snap.tree, blobs, written)
        message = format_message(
            f"migrate: {len(atoms)} atoms to atoms/<2 hex>/<id>.json, with index/",
            ["Atoms fan out into 256 folders so that a write rewrites one small tree, and",
             "index/ keeps the counts and contradiction subjects a write looks up."],
            [("Op", "migrate")])  # fmt: skip
        oid = git.create_commit(self.repo, tree, [snap.tip] if snap.tip else [], message,
                                written=written)
        try:
            git.cas_update_ref(self.repo, git.ATOMS_REF, oid, snap.tip, "agent-memory: migrate", written)
        except RefMovedError:
            return  # someone else wrote (or migrated) first: the caller re-reads
        self.commits += 1
        git.note_commit()
        self._after_write(oid, snap.tip, list(atoms))

    def _after_write(self, tip: str, parent: str | None, changed: Iterable[str],
                     known: Mapping[str, Atom] | None = None, ledger: Ledger | None = None) -> None:  # fmt: skip
        """Record `tip` as the last commit written here (`refuse_if_rewound`) — in `ledger`,
        the capture ledger as this write read it, when given — and bring the recall index the
        per-prompt hook reads up to it: the changed atoms only when it stood at `parent` (never
        fails the write)."""
        from agent_memory.transcripts.ledger import record_store_tip

        record_store_tip(self.repo.common_dir, git.ATOMS_REF, tip, ledger)
        try:
            from agent_memory.store.recall import writer as recall_writer

            recall_writer.after_commit(self, parent, tip, set(changed), known)
        except Exception as exc:  # noqa: BLE001 - the index is a cache; the hook falls back
            log_error(f"recall index not updated: {type(exc).__name__}: {exc}", self.repo.cwd)

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
                # never a plain read: a FIFO there held every capture for ever, /dev/zero
                # linked there was read for ever; either is set aside as unreadable
                data = json.loads(read_regular_file(path).decode("utf-8"))
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


# --- index/ maintenance -------------------------------------------------------------------------


def _empty_stats() -> dict[str, Any]:
    return {"format": FORMAT, "count": 0, "oldest": "", "scanned": ""}


def _stats_bytes(stats: Mapping[str, Any]) -> bytes:
    return (json.dumps(dict(stats), sort_keys=True, indent=2) + "\n").encode()


def _index_changes(snap: Snapshot, change: Change) -> dict[str, bytes | None]:
    """The `index/` files after `change`: the count and the oldest-last_seen lower bound in
    stats.json, and the subject files of atoms that appear or go. Reads only the subject
    files and old records of the atoms that change."""
    stats = dict(snap.stats or _empty_stats())
    written = set(change.writes)
    added = [i for i in sorted(written) if i not in snap.atoms]
    removed = [i for i in sorted(change.deletes - written) if i in snap.atoms]
    stats["count"] = max(0, int(stats.get("count", 0)) + len(added) - len(removed))
    # A lower bound of every movable atom's last_seen: expiry need not look unless it is old.
    bounds = [str(a["last_seen"]) for a in change.writes.values()]
    if change.rescanned is not None:
        oldest, stats["scanned"] = change.rescanned
        bounds += [oldest] if oldest else []
    elif stats.get("oldest"):
        bounds.append(str(stats["oldest"]))
    stats["oldest"] = min(bounds) if bounds else ""
    edits: dict[str, tuple[set[str], set[str]]] = {}
    for ident in added:
        for key in subject_keys(change.writes[ident]):
            edits.setdefault(key, (set(), set()))[0].add(ident)
    for ident in removed:
        old = snap.atoms.get(ident)
        for key in subject_keys(old) if old is not None else []:
            edits.setdefault(key, (set(), set()))[1].add(ident)
    out: dict[str, bytes | None] = {STATS_PATH: _stats_bytes(stats)}
    out.update(_dropped_changes(snap, change.evicted, added))
    by_file: dict[str, list[tuple[str, set[str], set[str]]]] = {}
    for key, (plus, minus) in edits.items():
        by_file.setdefault(subject_path(key), []).append((key, plus, minus))
    for path, changes in by_file.items():
        lines = set(snap.subject_lines(path))
        for key, plus, minus in changes:
            lines |= {f"{key} {ident}" for ident in plus}
            lines -= {f"{key} {ident}" for ident in minus}
        out[path] = ("\n".join(sorted(lines)) + "\n").encode() if lines else None
    return out


def _dropped_changes(snap: Snapshot, evicted: Mapping[str, str], added: Iterable[str]) -> dict[str, bytes | None]:
    """The `index/dropped/` files after the cap evicted `evicted` and `added` came back. An
    entry older than the L1 expiry goes when its file is rewritten: any observation that old
    is expired on arrival anyway, so the folder holds at most 90 days of evictions."""
    touched: dict[str, dict[str, str]] = {}
    for ident in added:
        path = dropped_path(ident)
        if ident in snap.dropped_file(path):
            touched.setdefault(path, dict(snap.dropped_file(path))).pop(ident, None)
    for ident, seen in evicted.items():
        path = dropped_path(ident)
        touched.setdefault(path, dict(snap.dropped_file(path)))[ident] = seen
    if not touched:
        return {}
    horizon = _stamp_days_ago(L1_MAX_AGE_DAYS)
    out: dict[str, bytes | None] = {}
    for path, entries in touched.items():
        lines = sorted(f"{i} {seen}" for i, seen in entries.items() if seen >= horizon)
        out[path] = ("\n".join(lines) + "\n").encode() if lines else None
    return out


def _stamp_days_ago(days: int) -> str:
    import datetime as _dt

    when = now_utc() - _dt.timedelta(days=days)
    return when.astimezone(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _paths_under(repo: git.Repo, tree: str | None, folder: str) -> list[str]:
    out = []
    for name, oid, is_tree in git.list_tree(repo, tree, folder):
        path = f"{folder}/{name}"
        if is_tree:
            out += [f"{path}/{sub}" for sub in _walk(repo, oid)]
        else:
            out.append(path)
    return out


def _walk(repo: git.Repo, tree: str) -> list[str]:
    out = []
    for name, oid, is_tree in git.list_tree(repo, tree):
        out += [f"{name}/{sub}" for sub in _walk(repo, oid)] if is_tree else [name]
    return out


# --- the stale ref lock -------------------------------------------------------------------------


def lock_path(repo: git.Repo) -> Path:
    return repo.common_dir / Path(*git.ATOMS_REF.split("/")).with_suffix(".lock")


def stale_lock(repo: git.Repo, older_than: float = STALE_LOCK_SECONDS) -> str | None:
    """A plain sentence when `refs/heads/memory/atoms.lock` is stale — older than any live
    writer holds it (`git update-ref` holds it for milliseconds) and open in no process — else
    None. For `status` and `validate` to report, with `lock_path` for the hint."""
    path = lock_path(repo)
    age = stale_age(path, older_than)
    if age is None:
        return None
    return (f"memory/atoms is locked by a stale {path.name} ({age:.0f} s old, no process holds it), "
            f"left by a killed git process; remove it with: rm {shlex.quote(str(path))}")  # fmt: skip


def summarize(atom: Mapping[str, Any], limit: int = 90) -> str:
    claim = " ".join(str(atom.get("claim", "")).split())
    return claim if len(claim) <= limit else claim[: limit - 1] + "…"


def rebuild_recall_index(repo: git.Repo) -> None:
    """Bring the recall index up to the `memory/atoms` tip: the atoms changed since the tip it
    was built from when that is known (a tree diff), else a full rebuild. What the detached
    `hook rebuild-index` runs (on the repository its hook resolved)."""
    store = L1Store(repo)
    if store.tip() is None:
        raise LookupError(f"agent-memory is not initialised in {repo.cwd}")
    # A store every write refuses is not read into recall either: one replaced by another
    # person's (a forced fetch of their memory/atoms) put their candidates into every prompt
    # as this person's own words. The index keeps what it had until the branch is restored.
    store.refuse_if_rewound()
    recall_writer.refresh(store)
