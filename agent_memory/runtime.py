"""Local runtime state under `<git common dir>/agent-memory/`: the error log, the recall index,
the retry queue. Pure Python (no pygit2, no subprocess), because the Claude Code hooks find
their repository and log their failures through this on every prompt.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile
import traceback
from pathlib import Path

ERROR_LOG_LINES = 200
STATE_DIRNAME = "agent-memory"


def find_git_dirs(start: str | os.PathLike[str] | None = None) -> tuple[Path, Path, Path | None] | None:
    """(git dir, common dir, work tree) for the repository containing `start`, or None.

    Understands `.git` directories, `.git` files (worktrees, submodules) with a `commondir`,
    and bare repositories. Worktrees share the common dir, hence one store per repository.
    """
    here = Path(start or os.getcwd()).resolve()
    for folder in (here, *here.parents):
        dotgit = folder / ".git"
        git_dir: Path | None = None
        work: Path | None = folder
        if dotgit.is_dir():
            git_dir = dotgit
        elif dotgit.is_file():
            try:
                text = dotgit.read_text("utf-8").strip()
            except OSError:
                return None
            if text.startswith("gitdir:"):
                target = Path(text[len("gitdir:"):].strip())
                git_dir = (folder / target).resolve() if not target.is_absolute() else target
        elif (folder / "HEAD").is_file() and (folder / "objects").is_dir() and (folder / "refs").is_dir():
            git_dir, work = folder, None
        if git_dir is not None:
            common = git_dir
            commondir_file = git_dir / "commondir"
            if commondir_file.is_file():
                rel = Path(commondir_file.read_text("utf-8").strip())
                common = (git_dir / rel).resolve() if not rel.is_absolute() else rel
            return git_dir, common, work
    return None


def state_dir(common_dir: Path, create: bool = True) -> Path:
    path = common_dir / STATE_DIRNAME
    if create and not path.is_dir():
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def _now() -> str:
    return now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")


def error_log_path(start: str | os.PathLike[str] | None = None) -> Path | None:
    found = find_git_dirs(start)
    return state_dir(found[1]) / "errors.log" if found else None


def log_error(message: str, start: str | os.PathLike[str] | None = None, log_path: Path | None = None) -> Path | None:
    """Append one line to errors.log (0600, capped at the newest 200 lines). Never raises."""
    try:
        path = log_path or error_log_path(start)
        if path is None:
            return None
        line = f"{_now()} {' '.join(message.split())}"[:2000]
        lines: list[str] = []
        if path.exists():
            lines = path.read_text("utf-8", errors="replace").splitlines()
        lines = [*lines, line][-ERROR_LOG_LINES:]
        atomic_write(path, "\n".join(lines) + "\n", mode=0o600)
        return path
    except Exception:  # noqa: BLE001 - logging must never be the thing that fails
        return None


def log_exception(context: str, exc: BaseException, start: str | os.PathLike[str] | None = None) -> str:
    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    path = log_error(f"{context}: {type(exc).__name__}: {exc} | {trace!r}", start)
    return str(path) if path else "(no repository: traceback not saved)"


def recent_errors(common_dir: Path, days: int = 7) -> list[str]:
    path = state_dir(common_dir, create=False) / "errors.log"
    if not path.exists():
        return []
    cutoff = (now_utc() - _dt.timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return [ln for ln in path.read_text("utf-8", errors="replace").splitlines() if ln[:20] >= cutoff]


def atomic_write(path: Path, text: str, mode: int = 0o600) -> None:
    """Write via a temp file in the same directory + os.replace: readers see old or new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_json(path: Path) -> object | None:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None


def now_utc() -> _dt.datetime:
    """The current time, or `AGENT_MEMORY_NOW` (ISO 8601) when set: tests and reproducible
    demos pin the clock that expiry and ages are measured against."""
    pinned = os.environ.get("AGENT_MEMORY_NOW")
    if pinned:
        text = pinned.strip().replace("Z", "+00:00")
        value = _dt.datetime.fromisoformat(text)
        return value if value.tzinfo else value.replace(tzinfo=_dt.timezone.utc)
    return _dt.datetime.now(_dt.timezone.utc)
