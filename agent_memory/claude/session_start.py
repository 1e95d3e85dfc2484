"""The session-start context (spec §5.1): L3 + L2 rendered as one hook output line, cached in
`.git/agent-memory/session-start.cache` under a key of everything it is computed from (the L2
and L3 adopted.log contents, the recall index and the `memory/atoms` tip, the git config that
names the project, the code that renders it), so a warm start costs a few stats and reads.

A miss renders it like `git memory context`. Verbs that change the committed tiers call
`warm()` afterwards, and the background capture re-renders it, so the next session starts warm.
This module is on the hook path: stdlib imports only at the top; the renderer is imported on
a miss (measured: importing it costs more than a warm start).
"""

from __future__ import annotations

import os
import sys

from agent_memory.gitio.refs import ATOMS_REF, STATE_DIRNAME, read_ref
from agent_memory.model.home import memory_home_dir

CONTEXT_CACHE = "session-start.cache"
CONTEXT_CACHE_FORMAT = "1"
# The modules whose code decides the session-start text: editing one invalidates the cache.
_CONTEXT_CODE = ("__init__.py", "claude/context.py", "claude/session_start.py",
                 "committed/render.py", "store/contradictions.py", "committed/tiers.py",
                 "committed/adopted_log.py", "model/atom.py", "model/paths.py",
                 "store/recall.py")  # fmt: skip


def session_start_line(common: str, work: str | None, tip: str) -> str:
    """The hook's output line ('' for "nothing to inject"): from the cache when it is warm."""
    line = _cached_context(common, work, tip)
    return refresh_context(common, work) if line is None else line

def _file_sig(path: str, content: bool) -> str:
    """A file's identity for the cache key: its content's CRC (for small data files that may
    be rewritten within one timestamp tick) or its stat (for code)."""
    try:
        if not content:
            st = os.stat(path)
            return f"{st.st_size}:{st.st_mtime_ns}"
        import zlib

        with open(path, "rb") as fh:
            data = fh.read()
        return f"{len(data)}:{zlib.crc32(data):08x}"
    except OSError:
        return "-"


def _git_config_files(common: str) -> list[str]:
    """Where `git config memory.project` may be set (include.path files are not followed)."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    return [os.path.join(common, "config"), os.environ.get("GIT_CONFIG_GLOBAL") or os.path.join(home, ".gitconfig"),
            os.path.join(xdg, "git", "config"), os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"]  # fmt: skip


def context_key(common: str, work: str | None, tip: str) -> str:
    """Everything the session-start text is computed from, as one line."""
    from agent_memory import __version__
    from agent_memory.store import recall

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # agent_memory/
    state = os.path.join(common, STATE_DIRNAME)
    home = memory_home_dir()
    parts = [CONTEXT_CACHE_FORMAT, __version__, sys.implementation.cache_tag or "", tip,
             recall.indexed_oid(state) or "-", _file_sig(recall.index_path(state), False),
             work or "-", _file_sig(os.path.join(work, ".memory", "adopted.log"), True) if work else "-",
             home, _file_sig(os.path.join(home, ".memory", "adopted.log"), True)]  # fmt: skip
    parts += [_file_sig(path, True) for path in _git_config_files(common)]
    parts += [
        os.environ.get(name, "")
        for name in ("GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS")
    ]
    parts += [_file_sig(os.path.join(package, *name.split("/")), False) for name in _CONTEXT_CODE]
    return repr(parts)  # one line: repr escapes newlines in paths


def _cached_context(common: str, work: str | None, tip: str) -> str | None:
    """The cached hook output line ('' for "nothing to inject"), or None on a miss."""
    from agent_memory.store.recall import indexed_oid

    state = os.path.join(common, STATE_DIRNAME)
    if indexed_oid(state) != tip:
        return None  # a stale index may lack a contested tag: recompute
    try:
        with open(os.path.join(state, CONTEXT_CACHE), encoding="utf-8") as fh:
            key, _, line = fh.read().partition("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if key != context_key(common, work, tip):
        return None
    return line.rstrip("\n")


def refresh_context(common: str, work: str | None) -> str:
    """Render the session-start output line ('' when there is nothing to inject) exactly as
    `git memory context` renders the text, and cache it."""
    import json
    from pathlib import Path

    from agent_memory.claude import context
    from agent_memory.committed import tiers
    from agent_memory.gitio import repo as git
    from agent_memory.gitio.repo import project_of
    from agent_memory.gitio.state import atomic_write, log_error
    from agent_memory.model.policy import check_context_size
    from agent_memory.store import recall
    from agent_memory.store.l1 import rebuild_recall_index

    state = os.path.join(common, STATE_DIRNAME)
    tip = read_ref(common, ATOMS_REF)
    if tip is None:
        raise LookupError(f"agent-memory is not initialised in {work or common}")
    index = recall.load_index(state)
    if index is None or index.source_oid != tip:
        # The contested tags (spec §4.2) come from the index: rebuild it rather than show a
        # contested line as a plain assertion. Session start has seconds (spec §5.1). An
        # absent index (deleted, or a repository initialised before init wrote one) needs no
        # log line; one that is there but unreadable does.
        unreadable = index is None and os.path.exists(recall.index_path(state))
        rebuild_recall_index(work or common)
        if unreadable:
            log_error(
                "hook session-start: the recall index was unreadable: rebuilt it", work or common
            )
        tip = read_ref(common, ATOMS_REF) or tip
        index = recall.load_index(state)
        if index is None:
            raise LookupError(
                "the recall index could not be rebuilt, so contested atoms cannot be tagged"
            )
    key = context_key(common, work, tip)
    repo = git.find_repo(work or common)
    l2 = list(tiers.l2_atoms(repo.workdir).values())
    l3 = list(tiers.l3_atoms(Path(memory_home_dir())).values())
    ctx = context.build_context(l2, l3, recall.contested_dates(index), project_of(repo))
    line = ""
    if ctx.text:
        check_context_size(ctx.text)
        line = json.dumps(context.hook_output(ctx), ensure_ascii=False, separators=(",", ":"))
    if context_key(common, work, tip) == key:  # nothing changed while rendering
        atomic_write(Path(state) / CONTEXT_CACHE, f"{key}\n{line}\n", mode=0o600)
    return line




def warm(repo_common: str, repo_workdir: str | None) -> None:
    """Re-render the cached context after a change to the committed tiers, so the next session
    starts on the fast path. A cache: a failure is only logged."""
    if repo_workdir is None:
        return
    try:
        refresh_context(repo_common, repo_workdir)
    except Exception as exc:  # noqa: BLE001
        from agent_memory.gitio.state import log_error

        log_error(f"session-start context not refreshed: {type(exc).__name__}: {exc}", repo_workdir)
