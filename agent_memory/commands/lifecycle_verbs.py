"""`git memory pin|unpin|decay ID` and `git memory supersede OLD --by NEW`: lifecycle verbs on
adopted atoms, each a reviewable commit on the current branch."""

from __future__ import annotations

import argparse

from agent_memory import tiers
from agent_memory.commands.common import emit_json, find_atom, repo_here, wants_json
from agent_memory.errors import UsageError
from agent_memory.lifecycle import DESCRIPTIONS, apply_l2_op, supersede_problem


def run(args: argparse.Namespace) -> int:
    op = args.verb
    repo = repo_here()
    held = tiers.l2_atoms(repo.workdir)
    atom = find_atom(held, args.old if op == "supersede" else args.id)
    ident = atom["id"]
    if op == "pin":
        commit = apply_l2_op(repo, ident, "pin", {"pinned": True}, remove_fields=("decayed",))
    elif op == "unpin":
        commit = apply_l2_op(repo, ident, "unpin", remove_fields=("pinned",))
    elif op == "decay":
        if atom.get("pinned"):
            raise UsageError(
                f"{ident} is pinned (decay-exempt)",
                hint=f"unpin it first: git memory unpin {ident}",
            )
        commit = apply_l2_op(repo, ident, "decay", {"decayed": True})
    else:
        new = find_atom(held, args.by)["id"]
        problem = supersede_problem(held, ident, new)
        if problem:
            raise UsageError(
                problem, hint="supersede by an adopted atom that does not lead back to this one"
            )
        commit = apply_l2_op(
            repo,
            ident,
            "supersede",
            {"superseded_by": new},
            remove_fields=("pinned",),
            note=f"Successor: {new} {held[new]['claim']}",
        )
    if wants_json(args):
        emit_json({"id": ident, "op": op, "commit": commit})
    else:
        print(f"{ident} {DESCRIPTIONS[op]} ({commit[:10]})")
    return 0
