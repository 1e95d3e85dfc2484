"""Loose objects checked before libgit2 reads them.

libgit2 1.9 (what every pygit2 wheel bundles up to 1.21) never returns from reading a loose
object whose compressed stream ends early — what a power cut after an unsynced write leaves:
its inflate loop makes no progress and spins at full CPU in C code, where no Python signal
handler runs (libgit2 issue 7342, fixed on its main branch after 1.9.7). So every object id
the git boundary hands to libgit2 is looked at here first: when its loose file exists it is
inflated with zlib, which does fail on a short stream, and must be a whole object — a
`<type> <size>\\0` header, exactly `size` bytes after it, hashing to its own name. A packed or
absent object has no loose file and is left to libgit2, which fails fast on those.
"""

from __future__ import annotations

import os

# The object types git writes as loose objects.
_TYPES = (b"blob", b"tree", b"commit", b"tag")


def loose_path(objects_dir: str, oid: str) -> str:
    return os.path.join(objects_dir, oid[:2], oid[2:])


def object_dirs(common_dir: str) -> list[str]:
    """The repository's object directory and its alternates (`objects/info/alternates`, one
    level: what a `git clone --shared` or `--reference` leaves)."""
    main = os.path.join(common_dir, "objects")
    dirs = [main]
    try:
        with open(os.path.join(main, "info", "alternates"), encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return dirs
    for line in lines:
        line = line.strip()
        if line and not line.startswith("#"):
            dirs.append(os.path.normpath(os.path.join(main, line)))
    return dirs


class Loose:
    """A loose object's file as read here: its path and, when it is whole, its type and
    content (`damage` None), else what is wrong with it."""

    __slots__ = ("path", "damage", "kind", "body")

    def __init__(self, path: str, damage: str | None, kind: bytes = b"", body: bytes = b"") -> None:
        self.path, self.damage, self.kind, self.body = path, damage, kind, body


def read_loose(dirs: list[str], oid: str) -> Loose | None:
    """`oid`'s loose file in one of `dirs`, inflated and checked; None when it has none
    (packed, or missing: libgit2 says which)."""
    if len(oid) not in (40, 64):
        return None
    for objects_dir in dirs:
        path = loose_path(objects_dir, oid)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            continue
        except OSError as exc:
            return Loose(path, f"cannot be read ({exc.strerror or exc})")
        return _inflate(path, data, oid)
    return None


def loose_problem(dirs: list[str], oid: str) -> tuple[str, str] | None:
    """(file, what is wrong) when `oid` has a loose file in one of `dirs` that is not a whole
    object; None when it is sound or has no loose file."""
    found = read_loose(dirs, oid)
    return (found.path, found.damage) if found is not None and found.damage else None


def _inflate(path: str, data: bytes, oid: str) -> Loose:
    import hashlib
    import zlib

    if not data:
        return Loose(path, "empty file")
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(data)
    except zlib.error as exc:
        return Loose(path, f"not a zlib stream ({exc})")
    if not inflater.eof:
        return Loose(path, f"truncated: its compressed data ends early ({len(data)} bytes on disk)")
    head, nul, body = raw.partition(b"\0")
    kind, _, size = head.partition(b" ")
    if not nul or kind not in _TYPES or not size.isdigit():
        return Loose(path, "no object header")
    if int(size) != len(body):
        return Loose(path, f"its header says {int(size)} bytes, it holds {len(body)}")
    digest = (hashlib.sha1 if len(oid) == 40 else hashlib.sha256)(raw).hexdigest()
    if digest != oid:
        return Loose(path, f"its content hashes to {digest}, not to its name")
    return Loose(path, None, kind, body)
