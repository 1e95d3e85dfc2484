"""Local runtime state under `<git common dir>/agent-memory/`: the error log, the recall index,
the retry queue. Pure Python with only `os` imported up front (datetime, tempfile, traceback
and pathlib are imported when used): the Claude Code hooks find their repository and log their
failures through this module on every prompt, inside a 100 ms budget.
"""

from __future__ import annotations

import errno
import os
import stat

import agent_memory.gitio as _package
from agent_memory.gitio.refs import STATE_DIRNAME, locate_git_dirs
from agent_memory.gitio.regular import open_regular
from agent_memory.model.clock import now_utc, stamp
from agent_memory.model.policy import ERROR_LOG_LINES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

# Redaction runs before every write, and errors.log is written: a line can quote what the user
# typed or configured (a hook's command line, a statement the extractor failed on). The
# redactor sits above gitio in the layers: the entry points hand it down (agent_memory.gitio's
# `redact_line`, set by claude/error_lines.py).


def _redacted(text: str) -> str:
    redact = _package.redact_line
    if redact is None:
        return text
    try:
        return redact(text)
    except Exception as exc:  # noqa: BLE001 - a line is never worth the secret it might hold
        return f"(a line the redactor failed on was left out: {type(exc).__name__})"


def find_git_dirs(start: str | os.PathLike[str] | None = None) -> tuple[Path, Path, Path | None] | None:
    """`locate_git_dirs` as Paths."""
    from pathlib import Path

    found = locate_git_dirs(start)
    if found is None:
        return None
    git_dir, common, work = found
    return Path(git_dir), Path(common), Path(work) if work else None


def state_dir(common_dir: str | os.PathLike[str], create: bool = True) -> Path:
    from pathlib import Path

    path = Path(common_dir) / STATE_DIRNAME
    if create and not path.is_dir():
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def error_log_path(start: str | os.PathLike[str] | None = None) -> Path | None:
    found = locate_git_dirs(start)
    return state_dir(found[1]) / "errors.log" if found else None


def log_error(message: str, start: str | os.PathLike[str] | None = None, log_path: Path | None = None,
              once_a_day: bool = False) -> Path | None:  # fmt: skip
    """Append one line to errors.log (0600, capped at the newest 200 lines). Never raises.

    The line is appended with O_APPEND (one write: concurrent hooks do not lose each other's
    lines); only when the file has grown past the cap is it rewritten, atomically. With
    `once_a_day` (an error every prompt's hook may meet again, as long as its cause lasts: a
    replaced store, a damaged ref), nothing is appended when the log already has the same line
    today: one line per prompt pushed every other error out of the newest 200."""
    try:
        path = log_path or error_log_path(start)
        if path is None:
            return None
        line = (f"{stamp()} {_redacted(' '.join(message.split()))}"[:2000] + "\n").encode("utf-8", "replace")
        if once_a_day and _logged_today(path, line):
            return path
        # Only into a regular file: a FIFO in its place (no reader) held every hook that had
        # something to log, and `status`, for ever.
        folder = os.path.dirname(path)
        shared = lock_folder(folder, exclusive=False)
        try:
            if not append_regular_file(path, line):
                return None
        finally:
            unlock_folder(shared)
        if len(read_regular_file(path).splitlines()) > ERROR_LOG_LINES:
            # Cut to the newest lines under the folder's exclusive lock, read again there: cut
            # from a read made before another writer's append, that line was lost (at the cap,
            # concurrent hooks lost most of their lines and older ones stayed).
            held = lock_folder(folder, exclusive=True)
            if held is not None:
                try:
                    lines = read_regular_file(path).splitlines(keepends=True)
                    if len(lines) > ERROR_LOG_LINES:
                        atomic_write(path, b"".join(lines[-ERROR_LOG_LINES:]), mode=0o600)
                finally:
                    unlock_folder(held)
        return path
    except Exception:  # noqa: BLE001 - logging must never be the thing that fails
        return None


# How long a log writer waits for the state folder's lock (held only to append one line, or to
# cut the log to its newest lines) before it goes on without it (append) or leaves the cut to
# the next writer: well inside the prompt hook's 1 s, whatever holds the lock.
_LOCK_WAIT_S = 0.2
_NO_FLOCK = -1  # a platform without flock (Windows): nothing is locked, as before


def lock_folder(folder: str, exclusive: bool, wait: float = _LOCK_WAIT_S) -> int | None:
    """An flock on the state folder itself (no file of its own to leave behind): shared to
    append a line (appends are atomic among themselves), exclusive to rewrite the log.
    The descriptor, _NO_FLOCK where there is no flock, None when it was not had in time."""
    try:
        import fcntl
        import time
    except ImportError:  # pragma: no cover - Windows
        return _NO_FLOCK
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    mode = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, mode)
            return fd
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                # a file system that locks no folder (NFS emulates flock with POSIX locks): as
                # without flock, never a log left uncut for ever
                os.close(fd)
                return _NO_FLOCK
            if time.monotonic() >= deadline:
                os.close(fd)
                return None
            time.sleep(0.002)


def unlock_folder(fd: int | None) -> None:
    if fd is not None and fd != _NO_FLOCK:
        os.close(fd)  # closing the descriptor releases its flock


_STAMPED = len("2026-01-01T00:00:00Z ")  # where a line's text starts, after its time stamp


def _logged_today(path: Path, line: bytes) -> bool:
    """Whether errors.log holds `line` (its text after the time stamp) stamped today."""
    day, text = line[:10], line[_STAMPED:]
    try:
        held = read_regular_file(path)
    except OSError:  # none yet, or not a regular file (which gets nothing anyway)
        return False
    return any(old.startswith(day) and old[_STAMPED:] == text for old in held.splitlines(keepends=True))


def log_exception(context: str, exc: BaseException, start: str | os.PathLike[str] | None = None) -> str:
    import traceback

    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    path = log_error(f"{context}: {type(exc).__name__}: {exc} | {trace!r}", start)
    return str(path) if path else "(no repository: traceback not saved)"


def recent_errors(common_dir: str | os.PathLike[str], days: int = 7) -> list[str]:
    import datetime as _dt

    path = state_dir(common_dir, create=False) / "errors.log"
    try:
        text = read_regular_file(path).decode("utf-8", errors="replace")
    except OSError:  # none yet, or not a regular file (never waited on)
        return []
    cutoff = (now_utc() - _dt.timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return [ln for ln in text.splitlines() if ln[:20] >= cutoff]


def replace_text(path: str, text: str | bytes) -> None:
    """Temp file + os.replace (readers see old or new), mode 0600, with `os` alone: the
    session-start path may not load tempfile (`atomic_write` below is for everything else)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        try:
            data = text.encode("utf-8") if isinstance(text, str) else text
            view, done = memoryview(data), 0
            while done < len(data):  # a short write on a nearly full disk is not the whole file
                done += os.write(fd, view[done:])
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:  # a full disk leaves no temporary file behind
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sweep_left_behind(path)


# A temporary file this old whose writer is gone was left by a process killed mid-write.
_LEFT_BEHIND_S = 60.0


def _sweep_left_behind(path: str) -> None:
    """Delete the temporary files of writers killed mid-write: `replace_text`'s
    `{path}.<pid>.tmp` (a hook killed at its client's timeout while it saved the fold of a big
    adopted.log left one as big as the log, each time, for ever), and `atomic_write`'s
    `.<name>.<pid>.<random>.tmp` of any file of the folder (a queue file's name is written
    once: a temporary file of its own would never meet a next write of it) — only one whose
    process is gone and that has not been written to for a minute (a writer in another pid
    namespace is not seen, but is not that slow). Never raises: the write it follows succeeded."""
    import time

    folder, name = os.path.split(path)
    prefix = f"{name}."
    try:
        for entry in os.scandir(folder or "."):
            pid = _writer_of(entry.name, prefix)
            if pid is None or pid == os.getpid() or _alive(pid):
                continue
            if time.time() - entry.stat(follow_symlinks=False).st_mtime >= _LEFT_BEHIND_S:
                os.unlink(entry.path)
    except (OSError, ValueError):
        pass


# atomic_write's temporary file: `.<name>.<pid>.` and tempfile's 8 random characters, `.tmp`.
_RANDOM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def _writer_of(entry: str, prefix: str) -> int | None:
    """The pid in a temporary file's name written by `replace_text` (for the target whose
    name is `prefix` without its dot) or by `atomic_write` (for any target), else None."""
    if not entry.endswith(".tmp"):
        return None
    if entry.startswith(prefix) and entry[len(prefix):-len(".tmp")].isdigit():
        return int(entry[len(prefix):-len(".tmp")])
    parts = entry[: -len(".tmp")].rsplit(".", 2)
    if (entry.startswith(".") and len(parts) == 3 and len(parts[0]) > 1 and parts[1].isdigit()
            and len(parts[2]) == 8 and set(parts[2]) <= _RANDOM):  # fmt: skip
        return int(parts[1])
    return None


def _alive(pid: int) -> bool:
    if os.name == "nt":
        return True  # os.kill(pid, 0) there ends the process: nothing is judged gone
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # another user's (EPERM), or not a pid: not ours to judge
    return True


def current_umask() -> int:
    """The process's umask (read by setting it, so set back at once)."""
    current = os.umask(0)
    os.umask(current)
    return current


def kept_mode(path: str | os.PathLike[str]) -> int:
    """The permission bits of the file at `path`, for a whole replacement (atomic_write) that
    keeps them; for a file not there yet, those a plain write would give it (0o666 less the
    umask)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return 0o666 & ~current_umask()


def atomic_write(path: Path, data: str | bytes, mode: int = 0o600) -> None:
    """Write via a temp file in the same directory + os.replace: readers see old or new, never
    half. Then the temporary files killed writers left in that folder are deleted."""
    import tempfile

    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    # named with its writer's pid: one a killed writer leaves is known by it (_sweep_left_behind)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sweep_left_behind(str(path))


def append_regular_file(path: str | os.PathLike[str], data: bytes, mode: int = 0o600) -> bool:
    """Append `data` in one write (O_APPEND: concurrent writers do not lose each other's lines)
    to `path`, created if missing — only when it is a regular file, opened non-blocking: a FIFO
    or a device in its place gets nothing (False) and never holds the writer. OSError as `open`."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), mode)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        os.write(fd, data)
        return True
    finally:
        os.close(fd)


def read_regular_file(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of the regular file `path` (its first `limit` bytes, when given) — through a
    symlink, as the program that owns the file reads it (a settings file linked from a dotfiles
    folder). A FIFO or a device in its place is opened non-blocking and refused (OSError, "not a
    regular file") before a byte is read: a plain `open` of a FIFO no one writes waits for ever."""
    fd = open_regular(path)
    try:
        chunks = []
        left = limit
        while (left is None or left > 0) and (chunk := os.read(fd, 1 << 16 if left is None else min(left, 1 << 16))):
            chunks.append(chunk)
            left = None if left is None else left - len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def overwrite(path: Path, data: bytes) -> None:
    """The file's bytes become `data`: written over the old bytes, then cut to length — not
    truncated to zero first. ext4 flushes a file truncated to zero when it is closed
    (auto_da_alloc: ~0.3 ms a file, two files an adopted memory item), and the append-only
    log, whose old bytes are rewritten unchanged, keeps them if the write is interrupted.

    Never through a link, nor into a FIFO or a device: the callers refuse those first
    (adoption.adopt.refuse_links), but a link swapped in after that check would otherwise be
    written through, out of the repository (ELOOP now; a FIFO without a reader is ENXIO)."""
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags, 0o666)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise IsADirectoryError(errno.EISDIR, "not a regular file: nothing was written", str(path))
        view, done = memoryview(data), 0
        while done < len(data):
            done += os.write(fd, view[done:])
        os.ftruncate(fd, len(data))
    finally:
        os.close(fd)
