"""Serialising the verbs that commit memory files, and telling stale git locks from live ones.

`memory_lock(repo)`: every verb that commits `CLAUDE.memory.md` / `.memory/adopted.log`
through `adoption/` holds it from reading the files to the commit landing (two
`adopt --all` at once lost adoptions and mislabelled commits). An OS file lock on
`.git/agent-memory/memory.lock` (`flock`, `LockFileEx` on Windows): the kernel releases it
when the holder dies, so it can never go stale. Re-entrant within a process.

`stale_locks(repo)`: git's own lock files (`.git/index.lock`, `refs/heads/memory/atoms.lock`,
`HEAD.lock`) left behind by a killed process make every later command fail or wait. A lock is
reported when it is older than `STALE_LOCK_SECONDS` (git holds these for the milliseconds of
one operation) and, where the platform lets us see it, no process has it open.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from agent_memory.gitio import repo as git
from agent_memory.gitio.locks import stale_age
from agent_memory.model.errors import RepoStateError
from agent_memory.model.policy import LOCK_WAIT_SECONDS, STALE_LOCK_SECONDS

LOCK_NAME = "memory.lock"

_held: dict[str, tuple[int, int]] = {}  # lock path → (fd, depth) for this process


def try_lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def unlock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            pass
        return
    fcntl.flock(fd, fcntl.LOCK_UN)


def _holder(path: Path) -> str:
    try:
        text = path.read_text("utf-8", errors="replace").strip()
    except OSError:
        return ""
    return text.splitlines()[0][:200] if text else ""


@contextmanager
def memory_lock(repo: git.Repo, what: str = "commit memory files",
                wait: float = LOCK_WAIT_SECONDS) -> Iterator[None]:  # fmt: skip
    """Hold the repository's memory lock (waiting for another holder up to `wait` seconds)."""
    path = repo.state / LOCK_NAME
    key = str(path)
    if key in _held:
        fd, depth = _held[key]
        _held[key] = (fd, depth + 1)
        try:
            yield
        finally:
            fd, depth = _held[key]
            _held[key] = (fd, depth - 1)
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + wait
        delay = 0.01
        while not try_lock(fd):
            if time.monotonic() > deadline:
                holder = _holder(path)
                raise RepoStateError(
                    f"another git memory command is committing memory files ({holder or 'pid unknown'})",
                    hint=f"wait for it to finish, then {what} again",
                )
            time.sleep(delay)
            delay = min(delay * 1.5, 0.25)
        try:  # who holds it, for the message a waiter gives up with
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f"pid {os.getpid()}: {what}\n".encode())
        except OSError:
            pass
        _held[key] = (fd, 1)
        try:
            yield
        finally:
            del _held[key]
            unlock(fd)
    finally:
        os.close(fd)


def memory_lock_held(repo: git.Repo) -> bool:
    """Whether a live process (this one included) holds the memory lock: a memory commit is in
    progress, and the memory files may differ from HEAD for the moment."""
    if str(repo.state / LOCK_NAME) in _held:
        return True
    try:
        fd = os.open(repo.state / LOCK_NAME, os.O_RDWR)
    except OSError:
        return False
    try:
        if not try_lock(fd):
            return True
        unlock(fd)
        return False
    finally:
        os.close(fd)


# --- git's lock files -------------------------------------------------------------------------


@dataclass(frozen=True)
class StaleLock:
    path: Path
    age_seconds: float
    what: str

    @property
    def message(self) -> str:
        minutes = self.age_seconds / 60
        age = f"{minutes:.0f} minutes" if minutes >= 2 else f"{self.age_seconds:.0f} seconds"
        return (f"a stale lock {self.path} ({self.what}), {age} old and held by no running "
                "process: a git or git memory command was killed and left it behind")  # fmt: skip

    @property
    def hint(self) -> str:
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
    return [f for f in found if f is not None]


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
