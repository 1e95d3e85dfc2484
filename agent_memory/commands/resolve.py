"""`git memory resolve ID --keep ID`: a person settles a contradiction (spec §4.2: never
automatic). The kept atom loses its contest; the other is demoted (rejected at L1, and taken
out of the L2 block when adopted) or, with --forget-other, forgotten. Recorded in commits."""

from __future__ import annotations

import argparse

from agent_memory import tiers
from agent_memory.commands.common import emit_json, find_atom, store_here, wants_json
from agent_memory.errors import UsageError
from agent_memory.runtime import now_utc
from agent_memory.store import Change, Snapshot, summarize


def run(args: argparse.Namespace) -> int:
    repo, store = store_here()
    snap = store.snapshot()
    held = tiers.l2_atoms(repo.workdir)
    pool = {**held, **snap.atoms}
    first, keep = find_atom(pool, args.id), find_atom(pool, args.keep)
    if first["id"] == keep["id"]:
        raise UsageError(
            "ID and --keep name the same atom", hint="pass the two atoms of the contested pair"
        )
    other = first
    linked = (other["id"] in (keep.get("contested_by") or [])) or (
        keep["id"] in (other.get("contested_by") or [])
    )
    if not linked:
        raise UsageError(
            f"{other['id']} and {keep['id']} are not a contested pair",
            hint="see open pairs with `git memory inspect --contested`",
        )
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")

    def compute(s: Snapshot) -> Change | None:
        change = Change(
            subject=f"resolve: keep {summarize(keep, 50)}",
            body=[
                f"kept {keep['id']}: {summarize(keep)}",
                f"dropped {other['id']}: {summarize(other)}",
            ],
            trailers=[("Op", "resolve"), ("Kept", keep["id"]), ("Dropped", other["id"])],
        )
        kept = s.atoms.get(keep["id"])
        if kept is not None:
            cleaned = {k: v for k, v in kept.items() if k not in ("contested", "contested_by")}
            rest = [i for i in kept.get("contested_by", []) if i != other["id"]]
            if rest:
                cleaned.update(contested=True, contested_by=rest)
            change.writes[keep["id"]] = cleaned
        dropped = s.atoms.get(other["id"])
        if dropped is not None:
            if args.forget_other:
                change.deletes.add(other["id"])
                change.tombstone_writes[other["id"]] = {
                    "id": other["id"],
                    "claim": other["claim"],
                    "forgotten_at": at,
                    "atom": dropped,
                }
            else:
                cleaned = {
                    k: v for k, v in dropped.items() if k not in ("contested", "contested_by")
                }
                cleaned["review"] = {
                    "state": "rejected",
                    "at": at,
                    "sessions": len(dropped["sessions"]),
                }
                change.writes[other["id"]] = cleaned
        return change if not change.empty() else None

    commit, _ = store.transact(compute)
    l2_commit = None
    if other["id"] in held:
        from agent_memory.lifecycle import apply_l2_op

        l2_commit = apply_l2_op(
            repo, other["id"], "demote", note=f"Contradiction resolved in favour of {keep['id']}."
        )
    if wants_json(args):
        emit_json(
            {"kept": keep["id"], "dropped": other["id"], "commit": commit, "l2_commit": l2_commit}
        )
    else:
        print(f"kept {keep['id']}: {summarize(keep)}")
        print(f"{'forgot' if args.forget_other else 'demoted'} {other['id']}: {summarize(other)}")
    return 0
