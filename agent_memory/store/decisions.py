"""A person's review decisions, recorded on the L1 record of the atom: adopted atoms are held
(not restaged, exempt from expiry), rejected ones are not restaged until new sessions add
evidence. One `memory/atoms` commit per call: `record_decisions` records a whole batch (an
`adopt --all`) in one transaction, reading only the atoms it names."""

from __future__ import annotations

from collections.abc import Iterable

from agent_memory.model.atom import Atom
from agent_memory.model.clock import now_utc
from agent_memory.store.l1 import Change, L1Store, Snapshot, summarize


def _op(state: str) -> str:
    return "reject" if state == "rejected" else "adopt"


def record_decisions(store: L1Store, decisions: Iterable[tuple[str, str, str | None]]) -> str | None:
    """Note each `(atom id, state, commit)` on the atom's L1 record, all in one commit (None
    when nothing changed): adopted atoms are held (not restaged); rejected ones are not
    restaged until new sessions add evidence. States: adopted, rejected, demoted."""
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
    wanted = list(decisions)

    def compute(snap: Snapshot) -> Change | None:
        writes: dict[str, Atom] = {}
        lines: dict[str, str] = {}
        states: dict[str, str] = {}
        for atom_id, state, commit in wanted:
            current = writes.get(atom_id) or snap.atoms.get(atom_id)
            if current is None:
                continue
            review = {"state": state, "at": at, "sessions": len(current["sessions"])}
            if commit:
                review["commit"] = commit
            if (
                current.get("review", {}).get("state") == state
                and current["review"].get("sessions") == review["sessions"]
            ):
                continue
            updated = current.copy()
            updated["review"] = review
            writes[atom_id] = updated
            states[atom_id] = state
            lines[atom_id] = f"{state} at {at}" + (f" in {commit[:12]}" if commit else "")
        if not writes:
            return None
        if len(writes) == 1:
            ((atom_id, current),) = writes.items()
            state = states[atom_id]
            return Change(
                subject=f"{'reject' if state == 'rejected' else 'held'}: {summarize(current, 60)}",
                body=[lines[atom_id]],
                trailers=[("Op", _op(state)), ("Atom-Id", atom_id)],
                writes=writes,
            )
        ops = sorted({_op(s) for s in states.values()})
        verb = {"adopt": "held", "reject": "reject"}[ops[0]] if len(ops) == 1 else "review"
        return Change(
            subject=f"{verb}: {len(writes)} decisions recorded",
            body=[f"{ident} {lines[ident]} — {summarize(writes[ident], 60)}" for ident in writes],
            trailers=[("Op", ops[0] if len(ops) == 1 else "review")],
            writes=writes,
        )

    oid, _ = store.transact(compute)
    return oid


def record_decision(store: L1Store, atom_id: str, state: str, commit: str | None) -> str | None:
    """`record_decisions` for one atom (its commit names it in an `Atom-Id` trailer)."""
    return record_decisions(store, [(atom_id, state, commit)])


def mark_held(store: L1Store, held: dict[str, Atom]) -> str | None:
    """Items adopted by merging the review pull request reach the default branch without
    `git memory adopt`: mark their L1 records held, as adopt does, so recall and expiry treat
    them alike. One commit for all of them; nothing when they are already marked."""
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")

    def compute(snap: Snapshot) -> Change | None:
        writes: dict[str, Atom] = {}
        for ident, atom in snap.atoms.items():
            if ident in held and (atom.get("review") or {}).get("state") != "adopted":
                writes[ident] = atom.copy()
                writes[ident]["review"] = {"state": "adopted", "at": at, "sessions": len(atom["sessions"])}
        if not writes:
            return None
        return Change(subject=f"held: {len(writes)} atom(s) adopted through the default branch",
                      body=[f"~ {i} {summarize(a)}" for i, a in sorted(writes.items())],
                      trailers=[("Op", "adopt")], writes=writes)

    oid, _ = store.transact(compute)
    return oid
