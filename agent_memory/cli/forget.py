"""`git memory forget ID [--undo]`: remove an atom from L1 and leave a tombstone so the same
claim is not silently re-learned; an adopted (L2) atom is also removed from the block in a
commit on the current branch. `--undo` restores the L1 record from its tombstone."""

from __future__ import annotations

import argparse

from agent_memory.cli.output import emit_json, find_atom, store_here, wants_json, warm_session_start
from agent_memory.committed import tiers
from agent_memory.model.atom import Atom
from agent_memory.model.clock import now_utc
from agent_memory.model.errors import UsageError
from agent_memory.store.l1 import Change, Snapshot, summarize


def run(args: argparse.Namespace) -> int:
    repo, store = store_here()
    snap = store.snapshot()
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
    if args.undo:
        ident = args.id
        if ident not in snap.tombstones:
            raise UsageError(
                f"{ident} is not forgotten", hint="see forgotten atoms with `git memory log ID`"
            )

        def restore(s: Snapshot) -> Change | None:
            stone = s.tombstones.get(ident)
            if stone is None:
                return None
            atom: Atom | None = stone.get("atom")
            change = Change(
                subject=f"unforget: restore {ident}",
                trailers=[("Op", "unforget"), ("Atom-Id", ident)],
                tombstone_deletes={ident},
            )
            if atom and ident not in s.atoms:
                change.writes[ident] = atom
                change.body.append(f"restored: {summarize(atom)}")
            return change

        commit, _ = store.transact(restore)
        result = {"id": ident, "restored": commit is not None, "commit": commit}
        if wants_json(args):
            emit_json(result)
        else:
            print(f"restored {ident}" if commit else f"{ident} was already restored")
        return 0


    held = tiers.l2_atoms(repo.workdir)
    atom = find_atom({**held, **snap.atoms}, args.id, strict=True)
    ident = atom["id"]
    l2_commit = None
    if ident in held:
        from agent_memory.adoption.lifecycle import apply_l2_op

        l2_commit = apply_l2_op(repo, ident, "forget")
        warm_session_start(repo)

    def forget(s: Snapshot) -> Change | None:
        current = s.atoms.get(ident)
        if current is None and ident in s.tombstones:
            return None
        stone = {"id": ident, "claim": atom["claim"], "forgotten_at": at, "atom": current}
        change = Change(
            subject=f"forget: {summarize(atom, 60)}",
            trailers=[("Op", "forget"), ("Atom-Id", ident)],
            tombstone_writes={ident: stone},
            body=[
                "Tombstoned: capture will not re-learn this claim. Undo: git memory forget --undo "
                + ident
            ],
        )
        if current is not None:
            change.deletes.add(ident)
        return change

    commit, _ = store.transact(forget)
    if wants_json(args):
        emit_json({"id": ident, "commit": commit, "l2_commit": l2_commit})
    else:
        print(f"forgot {ident}: {summarize(atom)}")
        if l2_commit:
            print(f"  removed from the L2 block in {l2_commit[:10]}")
        print(f"  undo: git memory forget --undo {ident}")
    return 0
