"""The one walk of an auto-memory folder, and its bounds, with `os` only: the reader
(`notes.read_folder`), the guard's scan, validation and capture's "did the folder change?"
(`quick.signature`, on the session-end path) all list the folder through `walk`, so what one
of them reads is what the others see.

Nothing is followed out of the folder: a folder that is itself a symlink is not walked, and a
symlinked entry is yielded (for the reader to skip), never entered. Dot entries are not
listed. The walk stops at `MAX_DEPTH` folders deep and after `MAX_FILES` entries, and says why
— a settings file naming `/usr` must not make a capture read it.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator

from agent_memory.model.errors import NotRegularFile

MAX_DEPTH = 4  # folders below the memory folder that are walked (`team/topic/…` is 2)
MAX_FILES = 1000  # entries read from one folder, in all; the client's own index holds ~200
# Entries of one folder listed at most: the walk sorts a folder's listing (the same first
# MAX_FILES whatever order the file system gives), so a folder of millions of entries would be
# held in memory whole before the bound above applies. Past this, that folder is not read.
MAX_LISTED = 10 * MAX_FILES


def walk(folder: str | os.PathLike[str], problems: list[str] | None = None, *,
         folders: bool = False) -> Iterator[tuple[str, os.stat_result]]:  # fmt: skip
    """(relative path, lstat) of every entry that is not a dot entry or a real folder,
    sorted; symlinked folders are yielded (to be skipped), never entered. Nothing when the
    folder itself is a symlink; at most `MAX_FILES` entries, `MAX_DEPTH` folders deep — the
    reason the walk stopped is appended to `problems`. With `folders`, every real folder
    listed is yielded too (not counted against `MAX_FILES`): its mtime changes when an entry
    in it is added, renamed or removed."""
    said = problems if problems is not None else []
    top = os.fspath(folder)
    try:
        if stat.S_ISLNK(os.lstat(top).st_mode):
            said.append(f"{folder}: the memory folder is a symlink: not read (nothing is read through a link)")
            return
    except OSError:
        return
    stack = [""]
    count = 0
    deep = False
    while stack:
        rel_dir = stack.pop()
        if rel_dir and rel_dir.count("/") + 1 > MAX_DEPTH:
            if not deep:
                said.append(f"{folder}: folders more than {MAX_DEPTH} levels deep not read ({rel_dir}/…)")
                deep = True
            continue
        entries = _listing(os.path.join(top, rel_dir) if rel_dir else top)
        if entries is None:
            said.append(f"{folder}: more than {MAX_LISTED} entries in {rel_dir or 'the folder'}: not read "
                        "(is this Claude's memory folder?)")  # fmt: skip
            return
        subdirs = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                subdirs.append(rel)
                if folders:
                    yield rel, st
                continue
            count += 1
            if count > MAX_FILES:
                said.append(f"{folder}: more than {MAX_FILES} files: the rest not read (is this Claude's memory folder?)")
                return
            yield rel, st
        stack.extend(reversed(subdirs))


def _listing(path: str) -> list[os.DirEntry[str]] | None:
    """The entries of the folder `path`, sorted by name; [] when it cannot be listed; None
    when it holds more than MAX_LISTED."""
    listed: list[os.DirEntry[str]] = []
    try:
        with os.scandir(path) as it:
            for entry in it:
                if len(listed) == MAX_LISTED:
                    return None
                listed.append(entry)
    except OSError:
        return []
    return sorted(listed, key=lambda e: e.name)


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most `limit` + 1 bytes of the regular file `path` (one more than `limit` says it is
    larger). Never through a symlink (`OSError` ELOOP, where the OS has O_NOFOLLOW) and never
    blocking: a FIFO or a device is opened non-blocking and refused (`NotRegularFile`) before
    a byte is read. The walk's lstat is not enough: an entry can be swapped for a link or a
    FIFO between the listing and the read, and an index file reached by a link is a path the
    folder's owner chose, not an entry the walk vetted."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(f"{os.fspath(path)} is not a regular file")
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def is_link_refusal(exc: OSError) -> bool:
    """Whether `read_regular` refused `exc`'s path for being a symlink."""
    return exc.errno == errno.ELOOP


__all__ = ["MAX_DEPTH", "MAX_FILES", "MAX_LISTED", "NotRegularFile", "is_link_refusal", "read_regular", "walk"]
