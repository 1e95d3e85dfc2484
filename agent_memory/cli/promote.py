"""`git memory promote [--global] --output json`: dry run of the gates, writes nothing."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from agent_memory.adoption.adopt import pending, work_files
from agent_memory.cli import colour
from agent_memory.cli.output import project_of, store_here
from agent_memory.cli.report import Report, problem_of
from agent_memory.committed import tiers
from agent_memory.committed.install import target_file
from agent_memory.gitio import repo as git
from agent_memory.model.clock import now_utc
from agent_memory.model.tags import origin_label
from agent_memory.model.trailers import one_line
from agent_memory.promote import gates
from agent_memory.promote.review import foreign_review_error, plan_and_stage


def run(args: argparse.Namespace) -> Report:
    skipped: list[dict[str, Any]] = []
    foreign: dict[str, Any] | None = None
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
        # The author's memory/review, come with a clone: said as status says it, and none of
        # its items is taken for one of the person's already staged.
        foreign = problem_of(foreign_review_error(repo, store, "none of them is taken as staged"))
    data: dict[str, Any] = {"eligible": eligible, "blocked": blocked}
    if args.global_:
        data["skipped_projects"] = skipped
    else:
        data["foreign_review"] = foreign
    report = Report(data)
    # The claims and what is staged are for people: read only for text.
    report.later.append(lambda r: _text(r, args.global_, eligible, blocked, skipped, foreign))
    return report


def _text(report: Report, global_: bool, eligible: list[dict[str, Any]], blocked: list[dict[str, Any]],
          skipped: list[dict[str, Any]], foreign: dict[str, Any] | None = None) -> None:  # fmt: skip
    claims, staged = _claims_and_staged(global_, foreign is not None)
    if foreign:
        report.say_problem(foreign, indent="", hint_indent="")
    if not eligible and not blocked:
        report.say("nothing to promote yet")
    for item in eligible:
        note = "  (staged)" if item["id"] in staged else ""
        report.say(f"{colour.paint('eligible', 'ok')}  {colour.paint(item['id'], 'id')} → "
              f"{colour.tier(item['to'])}  {claims.get(item['id'], '?')}{note}")
    for item in blocked:
        # An adopted atom is not held back by anything: it is where promotion leads.
        held = item["reasons"] and all(r.startswith("already held at ") for r in item["reasons"])
        label = colour.paint("held", "ok") + "      " if held else colour.paint("blocked", "refused") + "   "
        report.say(f"{label}{colour.paint(item['id'], 'id')}  {claims.get(item['id'], '?')}")
        reasons = gates.reasons_for_people(item["reasons"])
        report.say(f"            {'; '.join(reasons)}" + (": adopted, nothing to promote" if held else ""))
    for project in skipped:
        # Registered on another machine, moved or deleted: its L2 atoms do not count here.
        report.say(f"skipped   project {project['project']} ({project['path']}): {project['reason']}")
    flag = " --global" if global_ else ""
    waiting = [i["id"] for i in eligible if i["id"] not in staged]
    if foreign:
        return  # its hint, said above, is the way: set the branch aside, then stage
    if waiting:
        report.say(f"{colour.paint('hint:', 'hint')} stage {'it' if len(waiting) == 1 else 'them'} with `git memory stage{flag}`")
    elif eligible:
        report.say(f"{colour.paint('hint:', 'hint')} already staged on memory/review: review with "
              f"`git memory adopt{flag}` or open a pull request with `git memory pr{flag}`")


def _shown(atom: Mapping[str, Any]) -> str:
    """An atom's claim as a person reads it here: one line, and labelled when Claude's model
    wrote it (its own memory file), as inspect, stage and adopt label it. `promote` is where a
    person first sees what may be staged; a bare claim read as if the user had typed it."""
    label = origin_label(atom)
    claim = one_line(str(atom["claim"]), 70)
    return f"{claim} ({label})" if label else claim


def _claims_and_staged(global_: bool, foreign: bool = False) -> tuple[dict[str, str], set[str]]:
    """Each atom's claim by id, and the ids already waiting on memory/review (none when it is
    not this repository's: `foreign`)."""

    if global_:
        from agent_memory.committed.global_repo import require_home
        from agent_memory.promote.l3 import l2_by_project

        home = require_home()
        claims = {gates.global_id(a): _shown(a) for atoms in l2_by_project(home).values() for a in atoms}
        claims.update({i: _shown(a) for i, a in tiers.l3_atoms().items()})
        repo, root, tier, target = home.repo(), home.path, "L3", "CLAUDE.memory.md"
    else:
        repo, store = store_here()
        claims = {a["id"]: _shown(a) for a in store.atoms()}
        if repo.workdir is None or foreign:
            return claims, set()
        root, tier, target = repo.workdir, "L2", target_file(repo)
    if not git.rev_parse(repo, "HEAD"):
        return claims, set()
    return claims, {i.atom_id for i in pending(repo, work_files(root, tier, target))}
