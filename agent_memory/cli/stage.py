"""`git memory stage [--global]`: rebuild memory/review, one commit per promotion (with
`--global`, in the global memory repo: agent_memory/promote/l3.py)."""

from __future__ import annotations

import argparse

from agent_memory.adoption.reverts import record_reverted
from agent_memory.cli import colour
from agent_memory.cli.output import project_of, store_here
from agent_memory.cli.report import Report
from agent_memory.committed.install import target_file
from agent_memory.model.trailers import plural
from agent_memory.promote.review import StagePlan, stage_current


def run(args: argparse.Namespace) -> Report:
    if args.global_:
        from agent_memory.promote.l3 import stage_global

        plan = stage_global(force=args.force)
    else:
        repo, store = store_here()
        if repo.bare:
            from agent_memory.model.errors import RepoStateError

            raise RepoStateError(
                "a bare repository has no branch to review memory on",
                hint="run stage in a clone with a work tree",
            )
        # A `git revert` of an adopt commit is a rejection: record it before the gates run, so
        # the item is not restaged at once.
        record_reverted(repo, store)
        plan = stage_current(repo, store, project_of(repo), target_file(repo), force=args.force)
        from agent_memory.store.decisions import mark_held

        mark_held(store, plan.held)  # items adopted by merging the review PR
    commits = [{"oid": oid, "atom": ident} for oid, ident in plan.staged]
    report = Report({"branch": "memory/review", "base": plan.base_branch, "commits": commits,
                     "refused": plan.refused, "demoted": plan.demoted, "base_ref": plan.base_ref,
                     "unpushed": plan.unpushed})
    flag = " --global" if args.global_ else ""
    where = "the global memory repo's memory/review" if args.global_ else "memory/review"
    if not commits:
        report.say(f"nothing to stage: no atom is eligible (see `git memory promote{flag}`)")
    else:
        on = plan.base_ref.removeprefix("refs/remotes/").removeprefix("refs/heads/") or plan.base_branch
        report.say(f"staged {plural(len(commits), 'commit')} on {where} (on top of {on}):")
        for oid, ident in plan.staged:
            report.say(f"  {oid[:10]} {ident}")
        report.say(
            f"review with `git memory adopt{flag}`, or open a pull request with `git memory pr{flag}`"
        )
    for ident, reasons in plan.refused.items():
        report.say(f"{colour.paint('refused', 'refused')} {ident}: {'; '.join(reasons)}")
    if plan.unpushed and plan.base_ref.startswith("refs/remotes/"):
        report.say(f"note: {plan.base_branch} has {plural(plan.unpushed, 'commit')} that {on_remote(plan)} does not: "
              f"the review branch leaves them out (push {plan.base_branch} for them to reach the remote)")
    return report


def on_remote(plan: StagePlan) -> str:
    return plan.base_ref.removeprefix("refs/remotes/")
