"""Serialising the verbs that commit memory files, and telling stale git locks from live ones.

`memory_lock(repo)`: every verb that commits `CLAUDE.memory.md` / `.memory/adopted.log`
through `adoption/` holds it from reading the files to the commit landing (gitio/memory_lock.py,
re-exported here).

`stale_locks(repo)`: git's own lock files (`.git/index.lock`, `refs/heads/memory/atoms.lock`,
`HEAD.lock`) left behind by a killed process make every later command fail or wait. A lock is
reported when it is older than `STALE_LOCK_SECONDS` (git holds these for the milliseconds of
one operation) and, where the platform lets us see it, no process has it open.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from agent_memory.gitio import repo as git
from agent_memory.gitio.locks import stale_age
from agent_memory.gitio.memory_lock import LOCK_NAME as LOCK_NAME
from agent_memory.gitio.memory_lock import memory_lock as memory_lock
from agent_memory.gitio.memory_lock import memory_lock_held as memory_lock_held
from agent_memory.gitio.memory_lock import memory_lock_if_free as memory_lock_if_free
from agent_memory.gitio.memory_lock import try_lock as try_lock
from agent_memory.gitio.memory_lock import unlock as unlock
from agent_memory.model.errors import RepoStateError
from agent_memory.model.policy import STALE_LOCK_SECONDS

# --- git's lock files -------------------------------------------------------------------------


@dataclass(frozen=True)
class StaleLock:
    path: Path
    age_seconds: float
    what: str
    # Not a lock file at all (memory.lock left as a directory, say): named as what it is.
    not_a_file: str = ""

    @property
    def message(self) -> str:
        if self.not_a_file:
            return f"{self.path} is {self.not_a_file}, not a lock file: {self.what}"
        minutes = self.age_seconds / 60
        age = f"{minutes:.0f} minutes" if minutes >= 2 else f"{self.age_seconds:.0f} seconds"
        return (f"a stale lock {self.path} ({self.what}), {age} old and held by no running "
                "process: a git or git memory command was killed and left it behind")  # fmt: skip

    @property
    def hint(self) -> str:
        if self.not_a_file:
            return f"remove it (rm -r '{self.path}'); git memory creates the file again"
        return f"if no git command is running in this repository, remove it: rm '{self.path}'"


def lock_files(repo: git.Repo) -> list[tuple[Path, str]]:
    """The git lock files whose leftovers stop memory commands, with what each one guards."""
    return [
        (repo.common_dir / "refs" / "heads" / "memory" / "atoms.lock",
         "memory/atoms: every capture, adopt mark and forget waits on it, then gives up"),
        (repo.git_dir / "index.lock", "the index: every git commit, so every adopt, fails"),
        (repo.git_dir / "HEAD.lock", "HEAD: every commit on the current branch fails"),
    ]  # fmt: skip


def stale_lock(path: Path, what: str, now: float | None = None,
               min_age: float = STALE_LOCK_SECONDS) -> StaleLock | None:  # fmt: skip
    age = stale_age(path, min_age, now)
    return None if age is None else StaleLock(path, age, what)


def stale_locks(repo: git.Repo, now: float | None = None) -> list[StaleLock]:
    found = [stale_lock(path, what, now) for path, what in lock_files(repo)]
    return [f for f in [*found, _memory_lock_not_a_file(repo, now)] if f is not None]


_NOT_REGULAR = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
                (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))  # fmt: skip


def _memory_lock_not_a_file(repo: git.Repo, now: float | None) -> StaleLock | None:
    """`.git/agent-memory/memory.lock` in a shape no lock can be taken on (a directory left
    there by hand or by a tool): every verb that commits memory files refuses to start, and
    each capture goes on without the L1 cap — where `status` and `validate` look for locks."""
    path = repo.state / LOCK_NAME
    try:
        info = os.stat(path)
    except OSError:
        return None  # absent (created on first use), or a dangling link: the open says so
    shape = next((name for test, name in _NOT_REGULAR if test(info.st_mode)), None)
    if shape is None:
        return None
    age = max(0.0, (time.time() if now is None else now) - info.st_mtime)
    return StaleLock(path, age, "adopt, pin, decay, supersede and forget refuse to run while it is there, "
                     "and captures go on without the L1 cap", not_a_file=shape)


def index_lock_problem(repo: git.Repo, wait: float = 5.0) -> RepoStateError | None:
    """A `.git/index.lock` that stops `git commit`: wait a moment for a live git to finish,
    then say plainly what it is and how to remove it (a killed adopt leaves one)."""
    path = repo.git_dir / "index.lock"
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            age = time.time() - path.stat().st_mtime
        except OSError:
            break
        if age > wait:
            break  # not a git that is about to finish
        time.sleep(0.1)
    if not path.exists():
        return None
    stale = stale_lock(path, "the index", min_age=0.0)
    if stale is None:
        return RepoStateError(
            f"{path} exists and a running process has it open: another git command is using the index",
            hint="wait for it to finish, then run the command again",
        )
    return RepoStateError(
        f"{path} exists: a stale lock from a killed git or git memory process (held by no running process)",
        hint=f"if no git command is running in this repository, remove it (rm '{path}') and run the command again",
    )
