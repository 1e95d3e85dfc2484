"""L0 → L1: merge extracted observations into `memory/atoms` as one commit (spec §5.3).

Each observation is joined into the stored atom with `atom.merge`, so re-capturing a
transcript changes nothing. Contradictions are detected at merge time within the project
(spec §4.2.1). Tombstoned (forgotten) claims are not silently re-learned. Caps and expiry
(spec §4.3, §5.2) run as commits of their own that say what was dropped and why.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from agent_memory.committed import tiers
from agent_memory.extract.pipeline import extract_transcript
from agent_memory.gitio.state import log_error
from agent_memory.model.atom import Atom, atom_errors, merge
from agent_memory.model.clock import now_utc
from agent_memory.model.paths import canonical_pointer
from agent_memory.model.policy import L1_CAP, L1_MAX_AGE_DAYS, is_expired, l1_evictions
from agent_memory.store.l1 import Change, L1Store, Snapshot, summarize


@dataclass
class CaptureResult:
    commit: str | None
    new: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    expired_on_arrival: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    contested: list[str] = field(default_factory=list)
    queued: bool = False

    def to_json(self) -> dict[str, object]:
        return {"commit": self.commit, "new": self.new, "merged": self.merged,
                "skipped": {"forgotten": self.forgotten, "expired": self.expired_on_arrival, "invalid": self.invalid},
                "contested": self.contested, "queued": self.queued}


def capture_atoms(store: L1Store, incoming: Sequence[Atom], session: str | None, source: str | None) -> CaptureResult:
    """Merge `incoming` (plus anything waiting in the retry queue) into the store."""
    queue_paths, queued = store.queued()
    result = CaptureResult(commit=None)

    def compute(snap: Snapshot) -> Change | None:
        result.new, result.merged, result.forgotten, result.expired_on_arrival, result.invalid = [], [], [], [], []
        result.contested = []
        now = now_utc()
        writes: dict[str, Atom] = {}
        for obs in [*queued, *incoming]:
            errors = atom_errors(obs)
            if errors:
                result.invalid.append(str(obs.get("id", "?")))
                log_error(f"capture: skipped an invalid atom {obs.get('id', '?')}: {errors[0]}", store.repo.cwd)
                continue
            ident = obs["id"]
            if ident in snap.tombstones:
                result.forgotten.append(ident)
                continue
            current = writes.get(ident) or snap.atoms.get(ident)
            combined = merge(current, obs) if current else obs.copy()
            if current is None and is_expired(combined, now):
                result.expired_on_arrival.append(ident)
                continue
            if current is not None and combined == current:
                continue
            writes[ident] = combined
        for ident in writes:
            (result.merged if ident in snap.atoms else result.new).append(ident)
        if not writes:
            return None
        writes.update(_contradictions(snap, writes, result))
        body = [f"+ {i} [{writes[i]['kind']}] {summarize(writes[i])}" for i in result.new]
        body += [f"~ {i} [{writes[i]['kind']}] {summarize(writes[i])} ({len(writes[i]['sessions'])} sessions)" for i in result.merged]
        body += [f"! {i} contested by {', '.join(writes[i].get('contested_by', []))}" for i in result.contested]
        trailers = [("Op", "capture")]
        if session:
            trailers.append(("Session-Id", session))
        if source:
            trailers.append(("Source", source))
        if len(writes) == 1:
            trailers.append(("Atom-Id", next(iter(writes))))
        where = f" from {session}" if session else ""
        subject = f"capture: {len(result.new)} new, {len(result.merged)} merged{where}"
        return Change(subject=subject, body=body, trailers=trailers, writes=writes)

    commit, change = store.transact(compute, queue_on_failure=[*queued, *incoming])
    result.commit = commit
    if commit is not None or (change is None or change.empty()):
        # Written (or nothing left to write): the queue has been absorbed.
        store.clear_queue(queue_paths)
    result.queued = store.last_queue_path is not None
    return result


def _contradictions(snap: Snapshot, writes: dict[str, Atom], result: CaptureResult) -> dict[str, Atom]:
    """Mark the older atom of each new contradiction involving a changed atom (§4.2.1)."""
    try:
        from agent_memory.store import contradictions
    except ImportError:  # pragma: no cover - the module ships with the package
        return {}
    everything = {**snap.atoms, **writes}
    found = [c for c in contradictions.detect(list(everything.values()))
             if c.older in writes or c.newer in writes]
    marked: dict[str, Atom] = {}
    for atom in contradictions.mark(list(everything.values()), found):
        if atom != everything.get(atom["id"]):
            marked[atom["id"]] = atom
            result.contested.append(atom["id"])
    return marked


def capture_transcript(store: L1Store, project: str, transcript: Path, session: str | None = None) -> tuple[CaptureResult, int]:
    """Extract one transcript and merge its atoms in: (the result, lines skipped as unreadable)."""
    result = extract_transcript(transcript, project, session=session)
    atoms: list[Atom] = list(result.atoms)
    sessions = sorted({s for a in atoms for s in a["sessions"]})
    session_id = session or (sessions[0] if len(sessions) == 1 else None)
    source = canonical_pointer(transcript, 1).rsplit("#", 1)[0]
    return capture_atoms(store, atoms, session_id, source), result.skipped_lines



def enforce_limits(store: L1Store, cap: int = L1_CAP, max_age_days: int = L1_MAX_AGE_DAYS,
                   held: Iterable[str] | None = None) -> str | None:
    """Drop expired atoms (not re-observed in 90 days) and evict the oldest `last_seen` beyond
    the cap, as one commit that names every dropped atom and why (spec §4.3, §5.2). Atoms
    held at L2 (`held`: ids adopted in the work tree's adopted.log; by default read from it)
    keep their L1 record: it is the provenance chain (spec §4.1.1 step 5)."""
    held_ids = set(held) if held is not None else _held_in_work_tree(store)

    def compute(snap: Snapshot) -> Change | None:
        expired, evicted = l1_evictions(snap.atoms.values(), now_utc(), held_ids, cap, max_age_days)
        expired.sort()
        if not expired and not evicted:
            return None
        body = [f"- {i} expired: last seen {snap.atoms[i]['last_seen'][:10]}, not re-observed in {max_age_days} days — {summarize(snap.atoms[i])}" for i in expired]
        body += [f"- {i} evicted: over the {cap}-atom cap, oldest last_seen {snap.atoms[i]['last_seen'][:10]} — {summarize(snap.atoms[i])}" for i in evicted]
        parts = []
        if expired:
            parts.append(f"{len(expired)} expired")
        if evicted:
            parts.append(f"{len(evicted)} evicted over the {cap}-atom cap")
        return Change(subject=f"expire: dropped {' and '.join(parts)}", body=body,
                      trailers=[("Op", "expire")], deletes=set(expired) | set(evicted))

    commit, _ = store.transact(compute)
    return commit


def _held_in_work_tree(store: L1Store) -> set[str]:

    return set(tiers.l2_atoms(store.repo.workdir))


