"""A claim a person decided against, said again with `git memory remember`: the person's latest
explicit decision wins. A rejection (`adopt --reject`), a reverted or edited-out adoption and a
`forget` each hold until new sessions say the claim again — evidence from transcripts does not
overrule the person. But `remember` is the person too, and newer: it must not be refused with
"needs new sessions" because a remembered claim counts one session a day.

What it leaves on the atom's L1 record is a review mark of its own, state `remembered` (the
schema's `review.state`): the gates and adopt treat it as no decision against the claim, and the
undo detection (adoption/reverts.record_reverted) does not turn it back into a rejection for the
revert, edit or forget line it answers. A later decision (a new `--reject`, an adoption) writes
its own mark over it, so capture alone never brings back an item rejected after this."""

from __future__ import annotations

from collections.abc import Collection

from agent_memory.model.atom import Atom
from agent_memory.model.clock import now_utc
from agent_memory.store.l1 import Change, L1Store, Snapshot, summarize

SAID_AGAIN = "remembered"
# what `remember` reports it set aside (JSON `again`)
REJECTED, FORGOTTEN, TAKEN_OUT = "rejected", "forgotten", "taken_out"


def set_aside(atom: Atom | None, held: Collection[str]) -> str | None:
    """The person's decision against `atom` (its L1 record) that still holds, else None: a
    rejection no new session has lifted, or an adoption no longer held at L2 (reverted or
    edited out, and no stage has turned it into a rejection yet)."""
    if atom is None or str(atom["id"]) in held:
        return None
    review = atom.get("review") or {}
    if review.get("state") == "rejected" and int(review.get("sessions", 0)) >= len(set(atom["sessions"])):
        return REJECTED
    if review.get("state") == "adopted":
        return TAKEN_OUT
    return None


def unforget_for_remember(store: L1Store, ident: str) -> bool:
    """Before `remember` files a forgotten claim (capture does not re-learn a tombstoned one):
    take the tombstone away and put back the record it kept, marked said again. Returns whether
    the claim was forgotten."""
    at = _now()
    forgotten = [False]

    def compute(snap: Snapshot) -> Change | None:
        forgotten[0] = ident in snap.tombstones
        if not forgotten[0]:
            return None
        stone = snap.tombstones.get(ident) or {}
        change = Change(subject=f"remember again: {ident}, forgotten before",
                        body=["said again with `git memory remember`: the forget is set aside"],
                        trailers=[("Op", "remember-again"), ("Atom-Id", ident)], tombstone_deletes={ident})  # fmt: skip
        kept = stone.get("atom")
        if isinstance(kept, dict) and ident not in snap.atoms:
            change.writes[ident] = _marked(kept, at)  # type: ignore[arg-type]
        return change

    store.transact(compute)
    return forgotten[0]


def mark_said_again(store: L1Store, ident: str, held: Collection[str], forgotten: bool) -> str | None:
    """After `remember` filed the claim: mark its record said again when a decision of the
    person's against it stood (or it was `forgotten`). Returns what was set aside."""
    at = _now()
    found: list[str | None] = [None]

    def compute(snap: Snapshot) -> Change | None:
        atom = snap.atoms.get(ident)
        what = set_aside(atom, held)
        if atom is None or ident in held:
            found[0] = None
            return None
        if what is None and forgotten:
            what = FORGOTTEN
        found[0] = what
        if what is None or (atom.get("review") or {}).get("state") == SAID_AGAIN:
            return None
        return Change(subject=f"remember again: {summarize(atom, 60)}",
                      body=[f"said again with `git memory remember` after it was {what.replace('_', ' ')}: "
                            "the person's newer decision; staged for review again"],
                      trailers=[("Op", "remember-again"), ("Atom-Id", ident)],
                      writes={ident: _marked(atom, at)})  # fmt: skip

    store.transact(compute)
    return found[0]


def _marked(atom: Atom, at: str) -> Atom:
    out: Atom = atom.copy()
    out["review"] = {"state": SAID_AGAIN, "at": at, "sessions": len(set(atom["sessions"]))}
    return out


def _now() -> str:
    return now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
