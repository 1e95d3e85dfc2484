"""Shared plumbing for verb modules: locating the repository and the store (what a verb did is
printed by cli/report.py)."""

from __future__ import annotations

import argparse
from typing import Any

from agent_memory.claude import session_start
from agent_memory.committed.install import target_file
from agent_memory.committed.tiers import LOG_RELPATH
from agent_memory.gitio import repo as git
from agent_memory.model.errors import RepoStateError, UsageError
from agent_memory.store.l1 import L1Store
from agent_memory.store.recall.build import write_index
from agent_memory.store.recall.files import index_is_stale
from agent_memory.store.recall.index import load_index


def repo_here() -> git.Repo:
    return git.find_repo()


def store_here(require_init: bool = True) -> tuple[git.Repo, L1Store]:
    repo = repo_here()
    store = L1Store(repo)
    if require_init:
        store.require()
    return repo, store


def memory_here() -> tuple[git.Repo, L1Store]:
    """The repository and its L1 store, for the verbs that also work on committed memory
    (stale, consolidate, context, pin/unpin/decay/supersede). A clone has the committed L2
    tier without memory/atoms (that branch is never pushed), and they work there as well;
    with neither, agent-memory is not set up here: "not initialised", exit 3, as every verb
    that needs the store says (an empty answer would read as "nothing found")."""
    repo, store = store_here(require_init=False)
    if not store.exists() and not (repo.workdir is not None and (repo.workdir / LOG_RELPATH).is_file()):
        store.require()  # raises: not initialised, or a store that is lost or unreadable
    return repo, store


project_of = git.project_of


def fresh_recall_index(repo: git.Repo) -> Any:
    """The recall index, rebuilt first when it is missing or stale: people can wait for that;
    the per-prompt hook cannot, and uses what is there."""

    state = repo.state
    if load_index(state) is None or index_is_stale(state, repo.common_dir):
        store = L1Store(repo)
        if store.exists():
            write_index(state, store.atoms(), store.tip() or "")
    return load_index(state)


def tier_context(global_: bool) -> tuple[git.Repo, str, str, L1Store | None]:
    """(repository, tier, block file, L1 store) for the review verbs: this project's L2, or
    with --global the global memory repo's L3 (which has no L1 store)."""
    if global_:
        from agent_memory.committed.global_repo import GlobalRepo

        home = GlobalRepo.default()
        if not home.exists():
            raise RepoStateError("there is no global memory repo yet",
                                 hint="run `git memory init` in a project first")
        return home.repo(), "L3", "CLAUDE.memory.md", None

    repo, store = store_here()
    if repo.workdir is None:
        raise RepoStateError("this needs a work tree", hint="run it in a clone with a work tree")
    return repo, "L2", target_file(repo), store


def warm_session_start(repo: git.Repo) -> None:
    """After a verb changed the committed L2 tier: re-render the session-start cache so the
    next session starts on the fast path."""
    session_start.warm(repo.location)


def flag_or_positional(args: argparse.Namespace, flag: str, positional: str, hint: str,
                       required: bool = True) -> str | None:
    """The value given either as `--flag VALUE` or as the positional argument (newcomers type
    `git memory capture FILE`; scripts keep `--transcript FILE`). Both, differing: usage error."""
    by_flag = getattr(args, flag, None)
    by_position = getattr(args, positional, None)
    if isinstance(by_position, list):
        by_position = " ".join(by_position) or None
    if by_flag and by_position and by_flag != by_position:
        raise UsageError(f"--{flag} and the positional {flag} name different things", hint=hint)
    value = by_flag or by_position
    if value is None and required:
        raise UsageError(f"which {flag}?", hint=hint)
    return value
