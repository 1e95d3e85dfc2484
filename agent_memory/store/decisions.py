"""A person's review decisions, recorded on the L1 record of the atom: adopted atoms are held
(not restaged, exempt from expiry), rejected ones are not restaged until new sessions add
evidence. Each recording is one `memory/atoms` commit."""

from __future__ import annotations

from agent_memory.model.atom import Atom
from agent_memory.model.clock import now_utc
from agent_memory.store.l1 import Change, L1Store, Snapshot, summarize


def record_decision(store: L1Store, atom_id: str, state: str, commit: str | None) -> str | None:
    """Note the decision on the atom's L1 record: adopted atoms are held (not restaged);
    rejected ones are not restaged until new sessions add evidence."""
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")

    def compute(snap: Snapshot) -> Change | None:
        current = snap.atoms.get(atom_id)
        if current is None:
            return None
        review = {"state": state, "at": at, "sessions": len(current["sessions"])}
        if commit:
            review["commit"] = commit
        if (
            current.get("review", {}).get("state") == state
            and current["review"].get("sessions") == review["sessions"]
        ):
            return None
        updated = current.copy()
        updated["review"] = review
        return Change(
            subject=f"{'reject' if state == 'rejected' else 'held'}: {summarize(current, 60)}",
            body=[f"{state} at {at}" + (f" in {commit[:12]}" if commit else "")],
            trailers=[("Op", "reject" if state == "rejected" else "adopt"), ("Atom-Id", atom_id)],
            writes={atom_id: updated},
        )

    oid, _ = store.transact(compute)
    return oid


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
