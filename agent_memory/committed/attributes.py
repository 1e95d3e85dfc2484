"""Memory files that git converts: a `filter` (`filter=lfs`) or `working-tree-encoding`
attribute on `CLAUDE.memory.md`, `CLAUDE.md` or `.memory/adopted.log`, from a committed
`.gitattributes` or any other attributes file.

Such a file is not what a reviewer read: through a filter git stores the filter's output (an
LFS pointer) and the work tree holds what the filter's store gave back; with an encoding the
work tree holds other bytes than the blob. The commit guard refuses to commit one
(cli/scan.py `filtered`); the session start injects nothing of a tier whose memory file has
one (it logs one line), `git memory context` leaves it out too, and `git memory validate`
reports it with the way to remove it.

The session start must not start `git` on a warm start: the attributes files are signed in
its cache key (`sources`), and on a miss git is asked only when one of them names a
converting attribute at all (`converted`). Standard library only (the session-start path).
"""

from __future__ import annotations

import mmap
import os
import stat

from agent_memory.committed.tiers import BLOCK_FILES, LOG_RELPATH, open_inside
from agent_memory.gitio.attributes import CONVERTING, check_attr

MEMORY_RELS = (*BLOCK_FILES, LOG_RELPATH)
# The attributes files inside a work tree that can name a memory file (git reads each
# folder's own; only the root and `.memory` hold memory files).
IN_TREE = (".gitattributes", ".memory/.gitattributes")
_SCREEN = tuple(name.encode().split(b"-")[-1] for name in CONVERTING)  # b"filter", b"encoding"
_MAX_READ = 1 << 20
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


# The root of a source this reader cannot screen (its path is then a signature of it, for the
# session start's cache key): an in-tree attributes file git reads from the index because the
# work tree lacks it, a core.attributesFile set where the config reader cannot follow. Git is
# asked (check-attr, which reads them all) whenever the tier's text is rendered.
UNSCREENED = ""


def sources(root: str, git_dir: str, global_file: str | list[str] | None,
            index_dir: str | None = None, unscreened: list[str] | None = None) -> list[tuple[str, str | None]]:
    """Every attributes file git reads for the memory files of the work tree `root`, as
    (path, root) — a path relative to `root` when it is inside it (opened without following a
    link, as git opens an in-tree .gitattributes), else (absolute path, None). `global_file`:
    the user's attributes file, or every file core.attributesFile may name (an included config
    file, a conditional one: all are read). `index_dir`: the git dir whose index git falls back
    to for an in-tree attributes file the work tree lacks (staged, or a sparse checkout);
    `unscreened`: signatures of sources known to exist and not readable here."""
    found: list[tuple[str, str | None]] = [(rel, root) for rel in IN_TREE]
    found.append((os.path.join(git_dir, "info", "attributes"), None))
    for path in [global_file] if isinstance(global_file, str) else global_file or []:
        found.append((path, None))
    if index_dir is not None:
        for rel in IN_TREE:
            held = staged_only(root, index_dir, rel)
            if held is not None:
                found.append((f"index:{rel}@{held}", UNSCREENED))
    found += [(sign, UNSCREENED) for sign in unscreened or []]
    if not os.environ.get("GIT_ATTR_NOSYSTEM"):
        found.append(("/etc/gitattributes", None))
    return found


def default_global_file() -> str:
    """Where git reads the user's attributes when core.attributesFile is not set."""
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(xdg, "git", "attributes")


def read_source(path: str, root: str | None) -> bytes:
    """An attributes file's bytes (b"" when absent, a link inside the work tree, not a regular
    file, or unreadable: git skips such a file too). Never blocks on a FIFO."""
    try:
        if root is not None:
            fd = open_inside(root, path)
        else:
            fd = os.open(path, os.O_RDONLY | _NONBLOCK)
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                return b""
        with open(fd, "rb", closefd=True) as fh:
            return fh.read(_MAX_READ + 1)  # one byte more: a longer file is not screened (may_convert)
    except OSError:
        return b""


def staged_only(root: str, git_dir: str, rel: str) -> str | None:
    """The blob id the index of `git_dir` holds for the in-tree attributes file `rel` when the
    work tree `root` has no regular file there (git then reads the index's: `git check-attr`
    falls back to it, a checkout applies it); `?<size>:<mtime>` when the index may hold it but
    is not one this reader parses (version 4, or no index at all; of a SHA-256 repository's
    index it gives the id's last 20 bytes, which still change with it); None when git reads no
    such file.
    Read from the index file directly: the session start runs no git on a warm start."""
    try:
        st = os.lstat(os.path.join(root, rel))
        if stat.S_ISREG(st.st_mode):
            return None  # the work tree's is the one git reads (and it is screened)
    except OSError:
        pass
    index = os.path.join(git_dir, "index")
    try:
        fd = os.open(index, os.O_RDONLY | _NONBLOCK)
    except OSError:
        return None
    with open(fd, "rb", closefd=True) as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
            return None
        try:
            # mapped, not read: a monorepo's index is 100+ MB and this runs on every session
            # start; the search then touches pages, not a copy (a third of the time)
            with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return _staged_blob(data, rel.encode(), f"?{st.st_size}:{st.st_mtime_ns}")
        except (OSError, ValueError):
            return None


def _staged_blob(data: mmap.mmap, name: bytes, unknown: str) -> str | None:
    if data[:4] != b"DIRC":
        return unknown
    version = int.from_bytes(data[4:8], "big")
    if version not in (2, 3):  # v4 compresses paths: only the file's own name is sure to be there
        return unknown if data.find(name.rsplit(b"/", 1)[-1] + b"\0") >= 0 else None
    at = data.find(name + b"\0", 12)
    while at >= 0:
        # the path follows the entry's flags (2 bytes; in v3 extended flags may follow them),
        # whose low 12 bits are the path's length; the 20 bytes before the flags are its id
        for flags_at in (at - 2, at - 4):
            flags = int.from_bytes(data[flags_at : flags_at + 2], "big")
            if flags_at >= 32 and flags & 0xFFF == len(name) and (flags_at == at - 2 or flags & 0x4000):
                return data[flags_at - 20 : flags_at].hex()
        at = data.find(name + b"\0", at + 1)
    return None


def may_convert(found: list[tuple[str, str | None]]) -> bool:
    """Whether any attributes file could give a memory file a converting attribute: it names
    one (a macro that sets one names it too), or it is one this reader cannot screen.
    GIT_ATTR_SOURCE reads them from a tree: ask."""
    if os.environ.get("GIT_ATTR_SOURCE") or any(root == UNSCREENED for _, root in found):
        return True
    for path, root in found:
        data = read_source(path, root)
        # Past the bytes read, a file is not screened: git reads attributes files up to 100 MB,
        # and a megabyte of comments hid `CLAUDE.memory.md filter=lfs` from this reader.
        if len(data) > _MAX_READ or any(word in data.lower() for word in _SCREEN):
            return True
    return False


def converted(root: str, found: list[tuple[str, str | None]] | None = None) -> dict[str, list[str]] | None:
    """memory file (relative to `root`) → its converting attributes; {} when none has one;
    None when git could not tell. With `found` (the attributes files), git is asked only when
    one of them names such an attribute."""
    if found is not None and not may_convert(found):
        return {}
    return check_attr(root, MEMORY_RELS)


def describe(bad: dict[str, list[str]]) -> str:
    """`CLAUDE.memory.md (filter=lfs)`, for a message."""
    return ", ".join(f"{rel} ({', '.join(attrs)})" for rel, attrs in sorted(bad.items()))


def removal_hint(bad: dict[str, list[str]], git: str = "git") -> str:
    """How to take the attributes off the memory files."""
    rel = sorted(bad)[0]
    names = sorted({a.split("=", 1)[0] for attrs in bad.values() for a in attrs})
    unset = " ".join(f"-{n}" for n in names)
    return (f"`{git} check-attr -a -- {rel}` shows it; delete the line of .gitattributes that sets "
            f"{' and '.join(names)} for the memory files (or add `{rel} {unset}` after it), then commit .gitattributes")
