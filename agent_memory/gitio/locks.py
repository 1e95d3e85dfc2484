"""Git's own lock files (`<name>.lock`): telling a leftover of a killed process from a live one.

Git holds a lock file for the milliseconds of one operation. One that is older than a given
age and that, where the platform lets us see it (Linux /proc), no process has open was left by
a killed git: every later command that needs it fails or waits until a person removes it. The
store (`memory/atoms.lock`) and the adopt verbs (`index.lock`, `HEAD.lock`) both ask here.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def open_anywhere(path: Path) -> bool | None:
    """Whether some process has `path` open (Linux /proc); None when that cannot be seen."""
    proc = Path("/proc")
    if not (proc / "self" / "fd").is_dir():
        return None
    target = os.path.realpath(path)
    for pid_dir in proc.iterdir():
        if not pid_dir.name.isdigit():
            continue
        try:
            for fd in (pid_dir / "fd").iterdir():
                try:
                    if os.readlink(fd) == target:
                        return True
                except OSError:
                    continue
        except OSError:
            continue
    return False


def stale_age(path: Path, min_age: float, now: float | None = None) -> float | None:
    """The age in seconds of the lock file `path` when it is stale — at least `min_age` old and
    open in no process — else None (absent, young, or held)."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return None
    age = (time.time() if now is None else now) - mtime
    if age < min_age or open_anywhere(path):
        return None
    return age
