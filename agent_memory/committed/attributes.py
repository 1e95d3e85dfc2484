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


def sources(root: str, git_dir: str, global_file: str | None) -> list[tuple[str, str | None]]:
    """Every attributes file git reads for the memory files of the work tree `root`, as
    (path, root) — a path relative to `root` when it is inside it (opened without following a
    link, as git opens an in-tree .gitattributes), else (absolute path, None)."""
    found: list[tuple[str, str | None]] = [(rel, root) for rel in IN_TREE]
    found.append((os.path.join(git_dir, "info", "attributes"), None))
    if global_file:
        found.append((global_file, None))
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
            return fh.read(_MAX_READ)
    except OSError:
        return b""


def may_convert(found: list[tuple[str, str | None]]) -> bool:
    """Whether any attributes file could give a memory file a converting attribute: it names
    one (a macro that sets one names it too). GIT_ATTR_SOURCE reads them from a tree: ask."""
    if os.environ.get("GIT_ATTR_SOURCE"):
        return True
    return any(word in read_source(path, root).lower() for path, root in found for word in _SCREEN)


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
