"""`git memory stale [--output json]`: L1/L2 atoms naming repository paths that are gone from
HEAD (with git's rename detection proposing the new name) or changed since their evidence.
Exit 1 when there are findings (1 = findings, as `scan`), 0 when there are none, so
a script or CI step can act on it; the findings stay advice: nothing is changed."""

from __future__ import annotations

import argparse

from agent_memory.cli.output import memory_here
from agent_memory.cli.report import Report
from agent_memory.committed import tiers
from agent_memory.gitio import repo as git
from agent_memory.model.atom import Atom, is_pending
from agent_memory.store.stale import MISSING, Finding, find_stale


def _atoms() -> tuple[git.Repo, list[Atom]]:
    # A clone has the committed L2 atoms but no memory/atoms branch (it is never pushed), so a
    # missing L1 store is not an error here; neither (not set up) is.
    repo, store = memory_here()
    # (pending claims are no atoms yet: a path they name is nothing to fix)
    l1 = [a for a in store.atoms() if not is_pending(a)] if store.exists() else []
    l2 = sorted(tiers.l2_atoms(repo.workdir).values(), key=lambda a: a["id"])
    return repo, [*l1, *l2]


def _line(finding: Finding) -> str:
    where = f"{finding.atom_id} [{finding.tier}] {finding.path}: {finding.reason}"
    if finding.reason == MISSING and finding.renamed_to:
        where += f" (renamed to {finding.renamed_to})"
    elif finding.last_change:
        where += f" ({finding.last_change[:10]}; evidence {finding.last_seen[:10]})"
    return f"{where}\n  fix: {finding.suggestion}"


def run(args: argparse.Namespace) -> Report:
    repo, atoms = _atoms()
    findings = find_stale(repo, atoms)
    lines = [_line(f) for f in findings] or [
        "no stale atoms: no path they name is gone from HEAD or changed since their evidence"
        " (a name this repository's history never had is not taken for a path)"
    ]
    return Report({"findings": [f.to_json() for f in findings]}, lines, code=1 if findings else 0)
