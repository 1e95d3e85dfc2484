"""`git memory remember [--global] "CLAIM"`: a hand-authored atom, staged for review like any
other (see agent_memory/remember.py)."""

from __future__ import annotations

import argparse

from agent_memory.capture import capture_atoms
from agent_memory.commands.common import emit_json, project_of, repo_here, wants_json
from agent_memory.remember import add_global_candidate, global_atom, project_atom


def run(args: argparse.Namespace) -> int:
    repo = repo_here()
    project = project_of(repo)
    if args.global_:
        from agent_memory.global_repo import GlobalRepo
        from agent_memory.l3 import stage_global

        home = GlobalRepo.default()
        atom = global_atom(project, args.claim, args.kind)
        add_global_candidate(home.repo(), atom)
        plan = stage_global()
        staged = [c for c, ident in plan.staged if ident == atom["id"]]
        where = "the global memory repo's memory/review"
        adopt_hint = "git memory adopt --global"
    else:
        from agent_memory.commands.common import store_here
        from agent_memory.install import target_file
        from agent_memory.review import plan_and_stage
        from agent_memory.runtime import now_utc

        repo, store = store_here()
        atom = project_atom(repo, project, args.claim, args.kind)
        capture_atoms(store, [atom], atom["sessions"][0], "git memory remember")
        plan = plan_and_stage(repo, store.atoms(), project, now_utc(), target_file(repo))
        staged = [c for c, ident in plan.staged if ident == atom["id"]]
        where = "memory/review"
        adopt_hint = "git memory adopt"
    refused = plan.refused.get(atom["id"])
    if wants_json(args):
        emit_json({"id": atom["id"], "claim": atom["claim"], "redacted": atom["redacted"],
                   "staged": staged[0] if staged else None, "refused": refused})
        return 0 if staged else 1
    if staged:
        print(f"staged {atom['id']} on {where}: {atom['claim']}")
        print(f"review it with `{adopt_hint}`")
        return 0
    if refused:
        reasons = refused
    elif atom["redacted"]:
        reasons = ["redacted — restate it without the secret"]
    else:
        reasons = ["not eligible (see git memory promote)"]
    print(f"{atom['id']} was recorded but not staged: {'; '.join(reasons)}")
    return 1
