"""`git memory pin|unpin|decay ID` and `git memory supersede OLD --by NEW`: lifecycle verbs on
adopted atoms, each a reviewable commit on the current branch."""

from __future__ import annotations

import argparse

from agent_memory.adoption.lifecycle import DESCRIPTIONS, apply_l2_op, supersede_problem
from agent_memory.cli.ids import NoMatch, find_atom, global_only
from agent_memory.cli.output import memory_here, warm_session_start
from agent_memory.cli.report import Report
from agent_memory.committed import tiers
from agent_memory.model.atom import Atom
from agent_memory.model.errors import UsageError


def adopted_atom(held: dict[str, Atom], key: str, verb: str) -> Atom:
    """An adopted atom, named as every ID is (cli/ids.py); the lifecycle verbs act on L2 only."""
    try:
        return find_atom(held, key)
    except NoMatch as exc:
        raise global_only(key, verb) or NoMatch(
            f"{key} is not adopted in this branch (the lifecycle verbs act on adopted atoms)",
            hint="list adopted atoms with `git memory inspect --tier L2`; adopt with `git memory adopt`",
        ) from exc


def run(args: argparse.Namespace) -> Report:
    op = args.verb
    repo, _ = memory_here()  # not set up here: exit 3, before "ID is not adopted" (exit 2)
    held = tiers.l2_atoms(repo.workdir)
    atom = adopted_atom(held, args.old if op == "supersede" else args.id, op)
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
        try:
            new = adopted_atom(held, args.by, op)["id"]
        except NoMatch as exc:
            # A successor that is not held would leave a dangling breadcrumb.
            raise UsageError(
                f"{args.by} is not adopted, so it cannot supersede {ident}",
                hint="adopt the successor first, then supersede; `git memory inspect --tier L2` lists adopted atoms",
            ) from exc
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
    warm_session_start(repo)
    return Report({"id": ident, "op": op, "commit": commit}, [f"{ident} {DESCRIPTIONS[op]} ({commit[:10]})"])
