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
from agent_memory.model.errors import CorruptObjectError
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
    except (KeyError, ValueError, CorruptObjectError):  # gone or damaged: rebuilt from `new`
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
    conflicts = files.read_conflicts(store.repo.state)
    if conflicts is None or conflicts[0] != frm:
        # The conflict marks a frame's contested tags are computed from are not at hand.
        rebuild(store, to)
        return
    _, contested, marks = conflicts
    snap = store.snapshot(to)
    atoms: list[Atom] = []
    gone: list[str] = []
    for ident in sorted(ids):
        atom = known.get(ident) or snap.atoms.get(ident)
        if atom is None:
            gone.append(ident)
        else:
            atoms.append(atom)
    updates, marks = _contested_updates(snap, atoms, gone, marks)
    frame = build.build_frame(atoms, gone, updates, cum)
    data = files.serialize_frame(frame, frm, to)
    # never a plain open: a FIFO in the index's place (no reader) held the capture for ever
    fd = files.open_state_file(files.index_path(store.repo.state), os.O_WRONLY | os.O_APPEND)
    with open(fd, "ab", closefd=True) as fh:
        fh.write(data)
    # The sidecar follows the frame, as load_index applies it to the index's map.
    files.apply_contested(contested, updates)
    files.write_contested(store.repo.state, to, contested, marks)


def _contested_updates(snap: Any, atoms: list[Atom], gone: list[str],
                       marks: Mapping[str, tuple[str, ...]]) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:  # fmt: skip
    """The contested-tag days a write changes, exactly as a rebuild computes them
    (`build.contested_map`), and the conflict marks after it. A conflict is recorded on its
    older atom only (`contested_by`), so the marks say who lists whom: a day changes for the
    changed atoms and for their partners before and after the write, and nothing else."""
    changed = {str(a["id"]): a for a in atoms}
    after = dict(marks)
    for ident in gone:
        after.pop(ident, None)
    for ident, atom in changed.items():
        mark = build.conflict_mark(atom)
        if mark is None:
            after.pop(ident, None)
        else:
            after[ident] = mark
    touched = set(changed) | set(gone)
    affected = set(touched)
    for graph in (marks, after):
        for ident in touched:
            affected.update(graph.get(ident, ()))
        affected.update(ident for ident, listed in graph.items() if touched.intersection(listed))

    def at_tip(ident: str) -> Atom | None:
        return changed.get(ident) or (None if ident in touched else snap.atoms.get(ident))

    # As build.contested_map: a conflict with an unadopted atom only Claude's model wrote tags
    # neither side (it is reported for review, never injected).
    unvouched = {ident for ident in set(after).union(*after.values())
                 if build.unvouched_claude_memory(at_tip(ident))}
    partners: dict[str, set[str]] = {}
    for ident, listed in after.items():
        if ident not in unvouched and (not listed or not set(listed) <= unvouched):
            partners.setdefault(ident, set())
        for other in listed:
            if ident in unvouched or other in unvouched:
                continue
            partners.setdefault(ident, set()).add(other)
            partners.setdefault(other, set()).add(ident)

    def seen(ident: str) -> float | None:
        atom = at_tip(ident)
        return None if atom is None else build.epoch_of(atom.get("last_seen"))

    updates: dict[str, str] = {}
    for ident in sorted(affected):
        dates = [d for d in map(seen, (ident, *partners.get(ident, ()))) if d is not None]
        updates[ident] = build.day_of(max(dates)) if ident in partners and dates else ""
    return updates, after
