"""Detached jobs the hooks start and return from: the background capture (SessionEnd) and the
recall-index rebuild (a stale or missing index, from any hook). On the hook path: `os`, `sys`
and `time` only; a job is started with `os.posix_spawn` where there is one (`subprocess`
alone costs a hook about 5 ms of imports)."""

from __future__ import annotations

import os
import sys
import time

from agent_memory.model.policy import JOB_CPU_GRACE_S, JOB_CPU_S, REBUILD_MARKER_TTL_S

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agent_memory.gitio.refs import Location

REBUILD_MARKER = "rebuilding-recall-index"


def limit_cpu(seconds: int = JOB_CPU_S, grace: int = JOB_CPU_GRACE_S) -> None:
    """Bound this process's CPU time by the operating system (RLIMIT_CPU; a lower limit
    already set is kept). A detached job calls it first: a Python alarm cannot interrupt code
    spinning in a C library (libgit2 on a damaged object did), the kernel can. At `seconds`
    SIGXCPU raises TimeoutError where Python code runs (the job logs it and ends); at
    `seconds + grace` the kernel kills the process, wherever it is. Children (the git
    processes a job runs) inherit the limit, each on its own CPU time. No-op without
    `resource` (Windows)."""
    try:
        import resource
        import signal
    except ImportError:  # pragma: no cover - Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    infinity = resource.RLIM_INFINITY
    new_hard = seconds + grace if hard == infinity else min(hard, seconds + grace)
    new_soft = min(seconds, new_hard) if soft == infinity else min(soft, seconds, new_hard)

    def spent(signum: int, frame: object) -> None:
        raise TimeoutError(f"used {seconds} s of CPU time; abandoned")

    if hasattr(signal, "SIGXCPU"):
        signal.signal(signal.SIGXCPU, spent)
    resource.setrlimit(resource.RLIMIT_CPU, (new_soft, new_hard))


def request_rebuild(repo: Location) -> None:
    """Start one detached index rebuild of `repo` (a marker file keeps prompts from starting
    more); the job is handed the repository, never left to find one."""
    state = repo.state
    marker = os.path.join(state, REBUILD_MARKER)
    try:
        if time.time() - os.stat(marker).st_mtime < REBUILD_MARKER_TTL_S:
            return
        os.unlink(marker)
    except FileNotFoundError:
        pass
    os.makedirs(state, mode=0o700, exist_ok=True)
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return
    try:
        spawn_detached(["hook", "rebuild-index", "--git-dir", repo.git_dir, "--cwd", repo.top], repo.git_dir)
    except BaseException:
        os.unlink(marker)
        raise


def spawn_detached(args: list[str], cwd: str) -> None:
    """`python -m agent_memory <args>` fully detached (docs/claude-code-integration.md §3): a
    new session, and no inherited stdin/stdout/stderr or other descriptors. Claude Code reads
    a hook's pipes to EOF, so a child holding one would keep the hook "running". Started with
    `os.posix_spawn` where there is one: `subprocess` alone costs a hook ~5 ms of imports.

    `cwd` is a folder the repository's content cannot name — its git dir, never the work tree:
    `python -m` puts its working folder first on the import path, so a cloned repository that
    commits an `agent_memory/` package would have its code run by every background job
    (`-P`, where Python has it, also keeps that folder off the path)."""
    if not sys.executable:
        raise RuntimeError(
            "no Python interpreter path (sys.executable) to start the background job with"
        )
    safe = ["-P"] if sys.version_info >= (3, 11) else []
    argv = [sys.executable, *safe, "-m", "agent_memory", *args]
    if os.name != "nt" and hasattr(os, "posix_spawn") and hasattr(os, "POSIX_SPAWN_OPEN"):
        devnull = os.devnull
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, devnull, os.O_WRONLY, 0),
        ]
        # Every other descriptor of ours is non-inheritable (PEP 446), so only 0-2 cross.
        here = os.getcwd()
        os.chdir(cwd)  # posix_spawn has no cwd argument; the hook process ends right after
        try:
            os.posix_spawn(sys.executable, argv, dict(os.environ), file_actions=actions, setsid=True)
        finally:
            os.chdir(here)
        return
    import subprocess

    options: dict[str, Any] = {}
    if os.name == "nt":
        flags = ("DETACHED_PROCESS", "CREATE_NEW_PROCESS_GROUP", "CREATE_NO_WINDOW")
        options["creationflags"] = sum(getattr(subprocess, flag, 0) for flag in flags)
    else:
        options["start_new_session"] = True
    subprocess.Popen(
        argv,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=True,
        **options,
    )
