"""Keeps the recall index (`index` reads it) at the `memory/atoms` tip, at a cost that
follows the change, not the store.

- After a commit whose parent the index stands at: one frame with the atoms the commit
  changed is appended (they are at hand; nothing else is read).
- Otherwise (another writer's commit, an older version, a detached catch-up): the atoms
  changed since the index's tip, from a tree diff that skips every subtree whose oid did not
  change, go into one frame.
- A full rebuild only when the index is missing, unreadable or of another version, its tip is
  unknown to the repository, or its frames hold more than a quarter of its base (compaction:
  the base is rebuilt after O(n) changed atoms, so rebuilding costs O(1) per changed atom).

Writers serialise on a lock file next to the index (flock: released if the writer dies); a
writer that cannot get it at once leaves the index behind, and the next one catches up.
Readers never lock: a frame is appended with one write, and a torn one ends the chain.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from agent_memory.gitio import repo as git
from agent_memory.model.atom import Atom
from agent_memory.store.recall import build, files

if TYPE_CHECKING:
    from typing import Protocol

    class L1Store(Protocol):
        """What this module needs of store.l1.L1Store (l1 imports this module)."""

        repo: git.Repo

        def tip(self) -> str | None: ...

        def snapshot(self, tip: str | None = None) -> Any: ...

COMPACT_MIN = 64
COMPACT_SHARE = 4
LOCK_NAME = "recall-writer.lock"
LOCK_WAIT_S = 0.5


@contextlib.contextmanager
def _locked(state: str | os.PathLike[str], wait: float = LOCK_WAIT_S) -> Iterator[bool]:
    os.makedirs(state, mode=0o700, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: best effort, unlocked
        yield True
        return
    fd = os.open(os.path.join(state, LOCK_NAME), os.O_CREAT | os.O_RDWR, 0o600)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.01)
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def after_commit(store: L1Store, parent: str | None, tip: str, changed: Iterable[str],
                 known: Mapping[str, Atom] | None = None) -> None:  # fmt: skip
    """Bring the index to `tip` after this process committed it on top of `parent`."""
    with _locked(store.repo.state) as got:
        if got:
            _update(store, tip, parent, set(changed), known or {})


def refresh(store: L1Store, wait: float = 30.0) -> None:
    """Bring the index to the current tip (the detached rebuild, `git memory recall`)."""
    tip = store.tip()
    if tip is None:
        return
    with _locked(store.repo.state, wait) as got:
        if got:
            _update(store, tip, None, None, {})


def _update(store: L1Store, tip: str, parent: str | None, changed: set[str] | None,
            known: Mapping[str, Atom]) -> None:  # fmt: skip
    state = store.repo.state
    tail = files.index_tail(state)
    if tail is None:
        rebuild(store, tip)
        return
    current, _, cum, base_n = tail
    if current == tip:
        return
    if changed is not None and current == (parent or ""):
        ids = changed
    else:
        found = changed_between(store, current, tip)
        if found is None:
            rebuild(store, tip)
            return
        ids, known = found, {}
    if cum + len(ids) > max(COMPACT_MIN, base_n // COMPACT_SHARE):
        rebuild(store, tip)
        return
    append(store, current, tip, ids, cum, known)


def changed_between(store: L1Store, old: str, new: str) -> set[str] | None:
    """Ids of the atoms that differ between two commits (None when `old` is unknown here)."""
    try:
        old_tree = git.commit_tree(store.repo, old) if old else None
    except (KeyError, ValueError):
        return None
    new_tree = git.commit_tree(store.repo, new)
    ids = set()
    for path, _, _ in git.diff_blobs(store.repo, old_tree, new_tree, "atoms"):
        name = path.rsplit("/", 1)[-1]
        if name.endswith(".json"):
            ids.add(name[: -len(".json")])
    return ids


def rebuild(store: L1Store, tip: str) -> None:
    atoms = list(store.snapshot(tip).atoms.load().values())
    build.write_index(store.repo.state, atoms, tip)


def append(store: L1Store, frm: str, to: str, ids: Iterable[str], cum: int,
           known: Mapping[str, Atom]) -> None:  # fmt: skip
    snap = store.snapshot(to)
    atoms: list[Atom] = []
    gone: list[str] = []
    for ident in sorted(ids):
        atom = known.get(ident) or snap.atoms.get(ident)
        if atom is None:
            gone.append(ident)
        else:
            atoms.append(atom)
    frame = build.build_frame(atoms, gone, _contested_updates(snap, atoms), cum)
    data = files.serialize_frame(frame, frm, to)
    before = files.read_contested(store.repo.state)
    with open(files.index_path(store.repo.state), "ab") as fh:
        fh.write(data)
    if before is not None and before[0] == frm:
        # The sidecar follows the frame, as load_index applies it to the index's map.
        contested = before[1]
        files.apply_contested(contested, frame["contested"])
        files.write_contested(store.repo.state, to, contested)


def _contested_updates(snap: Any, atoms: list[Atom]) -> dict[str, str]:
    """The contested-tag days of the conflicts the changed atoms carry (their partners read by path).
    A conflict is recorded on its older atom, which a write of the newer one does not touch:
    the newer atom's day catches up at the next write of the older one or the next rebuild."""
    involved = [a for a in atoms if a.get("contested") or a.get("contested_by")]
    if not involved:
        return {}
    pool: dict[str, Atom] = {str(a["id"]): a for a in involved}
    for atom in involved:
        for other in atom.get("contested_by") or []:
            if other not in pool:
                found = snap.atoms.get(other)
                if found is not None:
                    pool[other] = found
    full = build.contested_map(list(pool.values()))
    wanted = {str(a["id"]) for a in involved} | {str(o) for a in involved for o in a.get("contested_by") or []}
    return {ident: day for ident, day in full.items() if ident in wanted}
