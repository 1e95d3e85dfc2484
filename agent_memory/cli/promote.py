"""`git memory promote [--global] --output json`: dry run of the gates, writes nothing."""

from __future__ import annotations

import argparse
from typing import Any

from agent_memory.cli.output import emit_json, project_of, store_here, wants_json
from agent_memory.committed.install import target_file
from agent_memory.model.clock import now_utc
from agent_memory.promote.review import plan_and_stage


def run(args: argparse.Namespace) -> int:
    skipped: list[dict[str, Any]] = []
    if args.global_:
        from agent_memory.promote.l3 import global_results

        eligible, blocked, skipped = global_results()
    else:
        repo, store = store_here()
        plan = plan_and_stage(
            repo, store.atoms(), project_of(repo), now_utc(), target_file(repo), dry_run=True
        )
        eligible = [{"id": r.atom_id, "to": r.to} for r in plan.results if r.eligible]
        blocked = [
            {"id": r.atom_id, "reasons": list(r.reasons)} for r in plan.results if not r.eligible
        ]
    if wants_json(args):
        report: dict[str, Any] = {"eligible": eligible, "blocked": blocked}
        if args.global_:
            report["skipped_projects"] = skipped
        emit_json(report)
        return 0
    if not eligible and not blocked:
        print("nothing to promote yet")
    for item in eligible:
        print(f"eligible  {item['id']} → {item['to']}")
    for item in blocked:
        print(f"blocked   {item['id']}: {'; '.join(item['reasons'])}")
    for project in skipped:
        # Registered on another machine, moved or deleted: its L2 atoms do not count here.
        print(f"skipped   project {project['project']} ({project['path']}): {project['reason']}")
    if eligible:
        print(f"stage them with `git memory stage{' --global' if args.global_ else ''}`")
    return 0
