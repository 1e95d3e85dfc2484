"""`git memory context`: what SessionStart injects (L3 + L2 within 2 KB + 4 KB), for people."""

from __future__ import annotations

import argparse

from agent_memory.claude import context
from agent_memory.claude.session_start import attribute_trees
from agent_memory.cli.output import fresh_recall_index, memory_here, project_of
from agent_memory.cli.report import Report
from agent_memory.committed import attributes, verdicts
from agent_memory.committed.reviewed import reviewed_atoms
from agent_memory.gitio import repo as git
from agent_memory.model.paths import memory_home
from agent_memory.store.recall.adopted import held_logs
from agent_memory.store.recall.index import contested_dates


def contested_dates_here(repo: git.Repo) -> dict[str, str]:
    """Contested tags (with the newer evidence's date) come from the recall index."""

    index = fresh_recall_index(repo)
    return contested_dates(index) if index is not None else {}


def run(args: argparse.Namespace) -> Report:
    # Not set up here: exit 3, not an empty context (the SessionStart hook, which does not run
    # this, stays silent there).
    repo, _ = memory_here()
    # what the blocks show a reviewer, as the session start gives it (committed/reviewed.py),
    # each log read by the hooks' own reader (a log naming more atoms than anyone adopts holds
    # nothing there: committed/log_fold.py)
    work, home = repo.location.work, str(memory_home())
    logs = held_logs(repo.location.state, [root for root in (work, home) if root])
    l2, l2_unshown = reviewed_atoms(work, "L2", logs[work] if work else None)
    l3, l3_unshown = reviewed_atoms(home, "L3", logs[home])
    # A memory file git converts (a filter, an encoding) is not what a reviewer read: nothing
    # of its tier is given, as at the session start (committed/attributes.py).
    for tier, root, found in attribute_trees(repo.location, str(memory_home())):
        if attributes.converted(root, found) != {}:
            l2, l2_unshown = ([], 0) if tier == "L2" else (l2, l2_unshown)
            l3, l3_unshown = ([], 0) if tier == "L3" else (l3, l3_unshown)
    # Nothing the commit guard refuses, as at the session start: a line a teammate committed
    # without our hooks (a clone where `init` never ran) is in the block but never injected.
    l2, l3 = verdicts.shown(repo.location.state, l2, l3)
    unshown = {"L2": l2_unshown, "L3": l3_unshown}
    ctx = context.build_context(l2, l3, contested_dates_here(repo), project_of(repo), unshown)
    return Report({"context": ctx.text, "l2": ctx.l2, "l3": ctx.l3, "omitted": ctx.omitted,
                   "contested_across_tiers": [{"global": g, "project": p} for g, p in ctx.crossed]},
                  [ctx.text if ctx.text else "no adopted memory yet (L2 and L3 are empty)"])
