"""`git memory log ID`: an atom's history, from `git log` of its file on memory/atoms."""

from __future__ import annotations

import argparse

from agent_memory.cli.output import emit_json, find_atom, store_here, wants_json
from agent_memory.gitio import repo as git
from agent_memory.model.errors import UsageError
from agent_memory.model.trailers import subject_op, trailer


def history(repo: git.Repo, atom_id: str) -> list[dict[str, str]]:
    commits = []
    for path in (f"atoms/{atom_id}.json", f"tombstones/{atom_id}.json"):
        for entry in git.log_for_path(repo, git.ATOMS_REF, path):
            commits.append({"oid": entry.oid, "op": subject_op(entry.subject), "date": entry.date,
                            "session": trailer(entry.body, "Session-Id") or "", "subject": entry.subject})
    unique = {c["oid"]: c for c in commits}
    return sorted(unique.values(), key=lambda c: c["date"], reverse=True)


def run(args: argparse.Namespace) -> int:
    repo, store = store_here()
    snap = store.snapshot()
    key = args.id
    if key not in snap.atoms and key not in snap.tombstones:
        try:
            key = find_atom(snap.atoms, args.id)["id"]
        except UsageError:
            if not key.startswith("atm_"):
                raise
    commits = history(repo, key)
    if not commits:
        raise UsageError(f"no history for {args.id} on memory/atoms", hint="list atoms with `git memory inspect --tier L1`")
    if wants_json(args):
        emit_json({"id": key, "commits": commits})
        return 0
    for c in commits:
        session = f"  session {c['session']}" if c["session"] else ""
        print(f"{c['oid'][:10]}  {c['date'][:19]}  {c['op']:<8} {c['subject']}{session}")
    return 0
