"""L2 → L3 (spec §4.1.1): read the adopted L2 atoms of every registered project (each repo's
committed `.memory/adopted.log` at its default branch), group them by the project-free id, and
stage the eligible merges on the global memory repo's own `memory/review`."""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from typing import Any

from agent_memory import adopted_log, git
from agent_memory.adopted_log import LOG_PATH, LogEntry
from agent_memory.atom import Atom, iso_z, parse_ts
from agent_memory.errors import RepoStateError
from agent_memory.global_repo import GlobalRepo, expand
from agent_memory.review import Proposal, StagePlan, base_files, write_review_branch
from agent_memory.runtime import log_error, now_utc
from agent_memory.trailers import format_message, one_line

L2_MIN_AGE = _dt.timedelta(days=30)


def l2_by_project(home: GlobalRepo) -> dict[str, list[Atom]]:
    """Each registered project's adopted atoms at its default branch (what the team merged)."""
    out: dict[str, list[Atom]] = {}
    for entry in home.projects():
        name, path = str(entry["name"]), expand(str(entry.get("path", "")))
        try:
            repo = git.find_repo(path)
            branch = git.default_branch(repo)
            if branch is None:
                continue
            text = (git.read_blob_at(repo, f"refs/heads/{branch}", LOG_PATH) or b"").decode("utf-8", "replace")
        except (RepoStateError, OSError) as exc:
            log_error(f"promote --global: project {name} at {path} is unreadable: {exc}", home.path)
            continue
        entries, _ = adopted_log.parse(text)
        out[name] = [a for a in adopted_log.fold(entries).values() if a.get("tier") == "L2"]
    return out


def _home() -> GlobalRepo:
    home = GlobalRepo.default()
    if not home.exists():
        raise RepoStateError("there is no global memory repo yet", hint="run `git memory init` in a project first")
    return home


def global_results() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    from agent_memory import gates

    home = _home()
    l3 = list(_home_files(home).held().values())
    results, _ = gates.evaluate_global(l2_by_project(home), now_utc(), l3)
    eligible = [{"id": r.atom_id, "to": "L3"} for r in results if r.eligible]
    blocked = [{"id": r.atom_id, "reasons": list(r.reasons)} for r in results if not r.eligible]
    return eligible, blocked


def _home_files(home: GlobalRepo) -> Any:
    repo = home.repo()
    base = git.default_branch(repo)
    if base is None:
        raise RepoStateError(f"the global memory repo {home.path} has no commits", hint="run `git memory init` again")
    return base_files(repo, f"refs/heads/{base}", "L3", "CLAUDE.memory.md")


def merged_atoms(by_project: dict[str, list[Atom]], eligible_ids: set[str]) -> list[Atom]:
    """The L3 atoms for the eligible groups, stamped deterministically: promoted when the
    group's last contributor completed its 30 days at L2, so re-staging gives the same commits."""
    from agent_memory import gates

    groups: dict[str, list[Atom]] = defaultdict(list)
    for atoms in by_project.values():
        for atom in atoms:
            if atom.get("tier") == "L2" and gates.global_id(atom) in eligible_ids:
                groups[gates.global_id(atom)].append(atom)
    out = []
    for gid in sorted(groups):
        contributors = groups[gid]
        ready = max(parse_ts(gates.l2_age_start(a)) for a in contributors) + L2_MIN_AGE
        out.append(gates.merge_to_l3(contributors, iso_z(ready)))
    return out


def l3_message(atom: Atom) -> str:
    projects = atom["promoted_from_projects"]
    return format_message(
        f"promote: {one_line(atom['claim'], 80)}",
        [f"Claim: {atom['claim']}",
         f"Kind: {atom['kind']}; confidence: {atom['confidence']}",
         f"Held at L2 in {len(projects)} projects for 30+ days: {', '.join(projects)}",
         f"Evidence: {len(atom['sessions'])} sessions, {atom['observations']} observations",
         f"First source: {atom['first_source']}; latest: {atom['source']}"],
        [("Atom-Id", atom["id"]), ("Promotion", "L2->L3"), ("Projects", ", ".join(projects)),
         ("First-Source", atom["first_source"])],
    )


def remembered_message(atom: Atom) -> str:
    return format_message(
        f"remember: {one_line(atom['claim'], 80)}",
        [f"Claim: {atom['claim']}", f"Kind: {atom['kind']}",
         f"Hand-authored with `git memory remember --global` in {atom['promoted_from_projects'][0]}:",
         "no transcript evidence; adopting it is the person's decision."],
        [("Atom-Id", atom["id"]), ("Promotion", "remember->L3")],
    )


def stage_global(force: bool = False) -> StagePlan:
    from agent_memory import gates

    home = _home()
    repo = home.repo()
    base = git.default_branch(repo)
    base_oid = git.ref_target(repo, f"refs/heads/{base}") if base else None
    if base is None or base_oid is None:
        raise RepoStateError(f"the global memory repo {home.path} has no commits", hint="run `git memory init` again")
    files = base_files(repo, base_oid, "L3", "CLAUDE.memory.md")
    by_project = l2_by_project(home)
    results, _ = gates.evaluate_global(by_project, now_utc(), list(files.held().values()))
    eligible = {r.atom_id for r in results if r.eligible}
    proposals = [Proposal(a["id"], LogEntry(op="adopt", atom=a, at=a["promoted_at"]), l3_message(a))
                 for a in merged_atoms(by_project, eligible)]
    # Hand-authored L3 items (`git memory remember --global`) wait in the global repo's local
    # state until adopted; redacted ones never go further (they need a restatement).
    from agent_memory.remember import read_global_candidates

    held = files.held()
    proposals += [Proposal(a["id"], LogEntry(op="adopt", atom=a, at=a["promoted_at"]), remembered_message(a))
                  for a in read_global_candidates(repo) if a["id"] not in held and not a["redacted"]
                  and a["id"] not in {p.atom_id for p in proposals}]
    plan = StagePlan(base_branch=base, base_oid=base_oid, results=results)
    plan.staged, plan.refused, _ = write_review_branch(repo, base_oid, files, proposals, force)
    return plan
