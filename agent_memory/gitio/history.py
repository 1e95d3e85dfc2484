"""What, besides a commit, decides the history git shows below it: a shallow clone's boundary
(`<common dir>/shallow`), replacement objects (`refs/replace/*`, which `git replace --graft`
writes) and the legacy graft file (`info/grafts`). `git fetch --unshallow` (or `--deepen`), a
`git replace` or a graft line changes the history reachable from the same HEAD, so what was
read from that history and kept with the HEAD alone is stale (adoption/reverts.py).

`history_shape(common_dir)` is a digest of all of them, read from the files (no git process:
it is asked on every stage); None when one cannot be read, so nothing kept is trusted.
"""

from __future__ import annotations

import errno
import hashlib
import os

from agent_memory.gitio.regular import open_regular

# Variables with which git ignores replacement objects or reads them from elsewhere.
_ENV = ("GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_GRAFT_FILE", "GIT_SHALLOW_FILE")
_REF_FILE_MAX = 4096  # a loose ref is one object id; anything longer is no ref git reads whole


def history_shape(common_dir: str | os.PathLike[str]) -> str | None:
    common = os.fspath(common_dir)
    h = hashlib.sha256()
    try:
        for name in ("shallow", os.path.join("info", "grafts")):
            h.update(f"\0{name}\0".encode())
            _add_file(h, os.path.join(common, name))
        h.update(b"\0replace\0")
        _add_replace_refs(h, common)
    except OSError:
        return None
    for var in _ENV:
        h.update(f"\0{var}={os.environ.get(var, '')}".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _add_file(h: hashlib._Hash, path: str, limit: int | None = None) -> None:
    """The file's bytes into `h` (its first `limit`), or a mark that there is none."""
    try:
        fd = open_regular(path)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            h.update(b"-")
            return
        raise
    try:
        h.update(b"+")
        left = limit
        while left is None or left > 0:
            chunk = os.read(fd, 1 << 16 if left is None else min(left, 1 << 16))
            if not chunk:
                break
            h.update(chunk)
            left = None if left is None else left - len(chunk)
    finally:
        os.close(fd)


def _add_replace_refs(h: hashlib._Hash, common: str) -> None:
    """Each replace ref, loose (name and content) or packed (its line). In a reftable
    repository the table list, which every ref update rewrites: the digest changes more
    often than the replace refs do there, which only costs a walk of the history again."""
    if os.path.isdir(os.path.join(common, "reftable")):
        _add_file(h, os.path.join(common, "reftable", "tables.list"))
        return
    base = os.path.join(common, "refs", "replace")
    for folder, dirs, files in os.walk(base):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            h.update(os.path.relpath(path, base).encode("utf-8", "surrogateescape") + b"\0")
            _add_file(h, path, _REF_FILE_MAX)
    try:
        fd = open_regular(os.path.join(common, "packed-refs"))
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return
        raise
    with os.fdopen(fd, "rb") as fh:
        for line in fh:
            if b" refs/replace/" in line:
                h.update(line)
