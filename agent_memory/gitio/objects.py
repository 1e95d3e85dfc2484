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
from typing import BinaryIO

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
    """A loose object's file as read here: its path and, when it is whole, its type, size and
    content (`damage` None), else what is wrong with it. `body` is empty when it was not kept
    (loose_problem), and when the object was left unchecked for its size (`read_loose`'s
    `limit`): then `kind` and `size` are its header's."""

    __slots__ = ("path", "damage", "kind", "body", "size")

    def __init__(self, path: str, damage: str | None, kind: bytes = b"", body: bytes = b"", size: int = 0) -> None:
        self.path, self.damage, self.kind, self.body, self.size = path, damage, kind, body, size


# What is read of a loose file, and inflated from it, at a time: a loose object is checked in
# memory of this order whatever its size (a cloned commit of a 300 MB message, ~300 KB on disk,
# was inflated whole, and read_loose's caller asks for the body only of what it bounds itself).
_CHUNK = 1 << 20
# Longer than any header git writes (`commit 18446744073709551615\0` is 28 bytes).
_HEADER_MAX = 64
# The types whose object is a message (a commit's, an annotated tag's): read_loose's `limit`.
_MESSAGES = (b"commit", b"tag")


def read_loose(dirs: list[str], oid: str, keep: bool = True, limit: int | None = None) -> Loose | None:
    """`oid`'s loose file in one of `dirs`, inflated and checked a chunk at a time; None when it
    has none (packed, or missing: libgit2 says which). `keep`: its body is kept (else only
    checked). `limit`: a commit or tag whose header says it is larger is not inflated further
    (its type and size are returned, unchecked: the caller refuses it)."""
    if len(oid) not in (40, 64):
        return None
    for objects_dir in dirs:
        path = loose_path(objects_dir, oid)
        try:
            with open(path, "rb") as fh:
                return _inflate(path, fh, oid, keep, limit)
        except FileNotFoundError:
            continue
        except OSError as exc:
            return Loose(path, f"cannot be read ({exc.strerror or exc})")
    return None


def loose_problem(dirs: list[str], oid: str) -> tuple[str, str] | None:
    """(file, what is wrong) when `oid` has a loose file in one of `dirs` that is not a whole
    object; None when it is sound or has no loose file. Nothing of it is kept (read_loose)."""
    found = read_loose(dirs, oid, keep=False)
    return (found.path, found.damage) if found is not None and found.damage else None


def _inflate(path: str, fh: BinaryIO, oid: str, keep: bool, limit: int | None) -> Loose:
    import hashlib
    import zlib

    stream = _Stream(fh)
    digest = hashlib.sha1() if len(oid) == 40 else hashlib.sha256()
    head = b""  # the inflated bytes until the header's NUL is among them
    header: tuple[bytes, int] | None = None
    body: list[bytes] = []
    length = 0  # of the body inflated so far
    while not stream.inflater.eof:
        try:
            raw = stream.more()
        except zlib.error as exc:
            return Loose(path, f"not a zlib stream ({exc})")
        if raw is None:
            break  # nothing more comes of it: the stream ends early (said below)
        digest.update(raw)
        if header is None:
            head += raw
            try:
                found = _header(head)
            except ValueError:
                return Loose(path, "no object header")
            if found is None:
                continue
            name, size, raw = found
            header = (name, size)
            if limit is not None and name in _MESSAGES and size > limit:
                return Loose(path, None, name, b"", size)
        length += len(raw)
        if keep and length <= header[1]:  # past its header's size it is damaged: counted, not kept
            body.append(raw)
    return _verdict(path, oid, stream.on_disk, stream.inflater.eof, header, length, digest.hexdigest(), body)


class _Stream:
    """A loose file inflated a chunk at a time: at most _CHUNK read, and at most _CHUNK out
    for any input (a small file may inflate to gigabytes)."""

    __slots__ = ("fh", "inflater", "on_disk", "pending", "at_end")

    def __init__(self, fh: BinaryIO) -> None:
        import zlib

        self.fh = fh
        self.inflater = zlib.decompressobj()
        self.on_disk = 0  # bytes read of the file
        self.pending = b""  # compressed input zlib has not consumed yet (max_length stopped it)
        self.at_end = False  # of the file

    def more(self) -> bytes | None:
        """The next inflated bytes; None when nothing more comes of the file though the stream
        has not ended (it is cut short). Raises zlib.error when it is not a zlib stream."""
        if not self.pending and not self.at_end:
            self.pending = self.fh.read(_CHUNK)
            self.on_disk += len(self.pending)
            self.at_end = not self.pending
        pending = self.pending
        raw = self.inflater.decompress(pending, _CHUNK)
        stuck = not raw and pending and len(self.inflater.unconsumed_tail) == len(pending)
        self.pending = self.inflater.unconsumed_tail
        if not raw and (stuck or (not self.pending and self.at_end)):
            return None
        return raw


def _header(head: bytes) -> tuple[bytes, int, bytes] | None:
    """(type, size, the body bytes after it) from the start of an inflated object, once it
    holds the whole `<type> <size>\\0` header; None while more of it may still come. Raises
    ValueError when it is no header (a header runs no longer than _HEADER_MAX)."""
    kind, nul, rest = head.partition(b"\0")
    if not nul:
        if len(head) > _HEADER_MAX:
            raise ValueError(head[:_HEADER_MAX])
        return None
    name, _, digits = kind.partition(b" ")
    if name not in _TYPES or not digits.isdigit():
        raise ValueError(kind)
    return name, int(digits), rest


def _verdict(
    path: str,
    oid: str,
    on_disk: int,
    whole: bool,
    header: tuple[bytes, int] | None,
    length: int,
    hexdigest: str,
    body: list[bytes],
) -> Loose:
    """The object once its stream is read (`whole`: to its end), or the first thing wrong with
    it: no bytes, a stream cut short, no header, a size other than its header's, another hash."""
    if not on_disk:
        return Loose(path, "empty file")
    if not whole:
        return Loose(path, f"truncated: its compressed data ends early ({on_disk} bytes on disk)")
    if header is None:
        return Loose(path, "no object header")
    name, size = header
    if size != length:
        return Loose(path, f"its header says {size} bytes, it holds {length}")
    if hexdigest != oid:
        return Loose(path, f"its content hashes to {hexdigest}, not to its name")
    return Loose(path, None, name, b"".join(body), size)
