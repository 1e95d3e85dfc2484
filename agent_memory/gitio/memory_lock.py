"""The repository's memory lock: every verb that commits `CLAUDE.memory.md` /
`.memory/adopted.log` holds it from reading the files to the commit landing (two `adopt --all`
at once lost adoptions and mislabelled commits), and capture holds it while it decides what the
L1 cap and expiry drop (`store/capture.py`: an atom adopted meanwhile is spared). An OS file
lock on `.git/agent-memory/memory.lock` (`flock`, `LockFileEx` on Windows): the kernel releases
it when the holder dies, so it can never go stale. Re-entrant within a process. Here, below
both `adoption` and `store`, so that both can take it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agent_memory.gitio import repo as git
from agent_memory.gitio.state import lock_folder, unlock_folder
from agent_memory.model.errors import RepoStateError
from agent_memory.model.policy import LOCK_WAIT_SECONDS

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
    fd = _open_lock(path, what)
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
        with _holding(key, fd, what):
            yield
    finally:
        os.close(fd)


@contextmanager
def _holding(key: str, fd: int, what: str) -> Iterator[None]:
    """The lock just taken on `fd`: who holds it written in the file (for the message a waiter
    gives up with), registered for re-entry, and released when the block ends."""
    try:
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


def _open_lock(path: Path, what: str) -> int:
    """The lock file, opened (created if missing); a path that cannot be one (a directory left
    there, no permission) is refused plainly, before anything is read or written."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except IsADirectoryError:
        raise RepoStateError(f"{path} is a directory, not the lock file git memory commits memory files under",
                             hint=f"remove it (rm -r '{path}'; git memory creates the file again), then {what} again") from None
    except OSError as exc:
        raise RepoStateError(f"cannot open the memory lock {path}: {exc.strerror or exc}",
                             hint=f"make it a writable file (or remove it: rm -r '{path}'), then {what} again") from None


@contextmanager
def memory_lock_if_free(repo: git.Repo, what: str) -> Iterator[bool]:
    """Hold the memory lock if no other process holds it, without waiting: yields True while
    it is held (already held by this process counts), False when another process holds it.
    For a writer that may skip what needs it (capture defers the L1 cap and expiry while an
    adopt commits: `store/capture.py`). Raises RepoStateError when the lock file cannot be
    opened (`_open_lock`)."""
    path = repo.state / LOCK_NAME
    key = str(path)
    if key in _held:
        with memory_lock(repo, what):
            yield True
        return
    fd = _open_lock(path, what)
    try:
        if not try_lock(fd):
            yield False
            return
        with _holding(key, fd, what):
            yield True
    finally:
        os.close(fd)


@contextmanager
def state_folder_lock(repo: git.Repo, what: str, wait: float = LOCK_WAIT_SECONDS) -> Iterator[None]:
    """The state folder's exclusive flock (gitio/state.py's, as errors.log's cut takes it), held
    for one read-modify-write of a state file there: the global repo's remembered candidates,
    their adoption counts, its rejections. Two verbs at once each read the file, and the later
    write put back a copy without the other's change. A leaf lock — nothing else is taken while
    it is held, so it cannot deadlock with the memory lock; the kernel releases it when its
    holder dies. Not re-entrant: a second flock on the folder in this process would wait."""
    folder = repo.state
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    held = lock_folder(str(folder), exclusive=True, wait=wait)
    if held is None:
        raise RepoStateError(f"another git memory command is writing {folder}",
                             hint=f"wait for it to finish, then {what} again")  # fmt: skip
    try:
        yield
    finally:
        unlock_folder(held)


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
