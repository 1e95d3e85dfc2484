"""The recall index as the hook reads it: the base (a marshal head and a blob left on disk) with
its delta frames applied, loaded without locks (`load_index`). `files` knows where the file is
and how its header and frames are laid out; `build` writes it."""

import marshal
import os

from agent_memory.store.recall.files import (
    apply_contested,
    index_frames,
    index_path,
    open_state_file,
    parse_index_header,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `typing` costs ~2 ms to import, the hook cannot afford it
    from typing import Any

    StrPath = str | os.PathLike[str]

# Kinds and confidences travel as one byte per atom (an index into these tuples).
KIND_CODES = ("constraint", "decision", "preference", "failure", "fact")
CONFIDENCE_CODES = ("observed", "stated", "verified")
_HEAD_KEYS = frozenset(
    ["source_oid", "built_at", "n", "length_total", "ids", "offsets", "kinds", "confidences", "pinned",
     "last_seen", "sessions", "doclen", "contested", "postings", "idf_max", "blob_len"]
)  # fmt: skip
_FRAME_KEYS = frozenset(
    ["ids", "claims", "kinds", "confidences", "pinned", "last_seen", "sessions", "doclen",
     "postings", "gone", "contested", "cum"]
)  # fmt: skip


class BytesBlob:
    """The index's blob in memory (a fresh build, or a platform without `os.pread`)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes | memoryview) -> None:
        self.data = data

    def __len__(self) -> int:
        return len(self.data)

    def read(self, at: int, size: int) -> bytes:
        if at < 0 or size < 0 or at + size > len(self.data):
            raise ValueError("a slice past the index's blob")
        return bytes(self.data[at : at + size])


class FileBlob:
    """The index's blob left on disk: a prompt reads the postings of its own terms and the
    claims of its hits (`os.pread`, a few KB), never the whole store. The file is only ever
    appended to or replaced by rename, so the open descriptor sees the bytes it was opened
    with for as long as it lives."""

    __slots__ = ("fd", "start", "size")

    def __init__(self, fd: int, start: int, size: int) -> None:
        self.fd, self.start, self.size = fd, start, size

    def __len__(self) -> int:
        return self.size

    def read(self, at: int, size: int) -> bytes:
        if at < 0 or size < 0 or at + size > self.size:
            raise ValueError("a slice past the index's blob")
        data = os.pread(self.fd, size, self.start + at)
        if len(data) != size:
            raise ValueError("the index file ends inside its blob")
        return data

    def __del__(self) -> None:
        try:
            os.close(self.fd)
        except OSError:
            pass


class RecallIndex:
    """The compact, load-optimised view of L1 the hook scores against: a base (a small head
    and a blob) and the delta frames appended after it.

    Base: atoms are numbered 0..n-1 in id order (so "tie-break by id" is "tie-break by
    number"). The head holds what every prompt needs, one entry per atom: `ids` (one string,
    newline-separated), `kinds`, `confidences` and `pinned` (a byte each), `last_seen` (epoch
    seconds), `sessions` (distinct sessions) and `doclen` (packed arrays; lengths in
    LENGTH_UNITS, integers, so that a sum of them is exact in any order), `length_total`,
    `offsets` (where each claim sits in the blob, UTF-8), `contested` (every contested id, both
    sides, recallable or not, to the day of the newest evidence in its conflict, for the
    contested tag), and `postings[token] = (idf, blob offset, claim atoms, quote atoms)`. The
    blob holds the claims, then per token its atom numbers (the atoms whose claim holds it,
    then those whose quotes only do, each ascending; packed uint32) and their term frequencies
    (packed float32: a claim's count of the token; a quote's is QUOTE_TF). A prompt reads only
    its tokens' postings and its hits' claims from the blob, so its cost follows the prompt,
    not the store.

    Frames: a write appends one frame for the atoms it changed — their records and postings
    (term frequencies) and the ids that left recall. An atom in a frame hides its base
    record and any earlier frame's. Numbers n.. are the frames' atoms, in order. `source_oid`
    is the tip of the last frame that chains on the one before it.

    The statistics BM25 needs (live atoms, their total length, a token's document frequency)
    are those of the live atoms, base and frames together, and impacts are computed at query
    time for the relevant atoms only: an index kept by frames answers exactly as the same
    index rebuilt from scratch at the same tip.
    """

    __slots__ = (
        "source_oid", "built_at", "n", "length_total", "blob", "offsets", "kinds", "confidences",
        "pinned", "last_seen", "sessions", "doclen", "contested", "postings", "idf_max", "_head",
        "_ids", "_id_list", "base_oid", "changed", "x_ids", "x_claims", "x_kinds",
        "x_confidences", "x_pinned", "x_last_seen", "x_sessions", "x_doclen", "x_alive", "frames",
        "frame_docs", "_hidden", "_live",
    )  # fmt: skip

    def __init__(self, head: "dict[str, Any]", blob: BytesBlob | FileBlob) -> None:
        """Validate shape and types cheaply (never walks the postings); ValueError if wrong."""
        if not isinstance(head, dict) or set(head) != _HEAD_KEYS:
            raise ValueError("not a recall index head")
        n = head["n"]
        if not isinstance(n, int) or n < 0:
            raise ValueError("bad atom count")
        try:
            offsets = memoryview(head["offsets"]).cast("I")
            last_seen = memoryview(head["last_seen"]).cast("d")
            sessions = memoryview(head["sessions"]).cast("I")
            doclen = memoryview(head["doclen"]).cast("I")
        except TypeError as exc:
            raise ValueError(f"bad packed array: {exc}") from exc
        ids = head["ids"]
        if not isinstance(ids, str) or (ids.count("\n") + 1 if n else len(ids)) != n:
            raise ValueError("ids and the atom count disagree")
        if head["blob_len"] != len(blob) or len(offsets) != n + 1 or offsets[n] > len(blob):
            raise ValueError("blob and offsets disagree")
        for name in ("kinds", "confidences", "pinned"):
            if not isinstance(head[name], bytes) or len(head[name]) != n:
                raise ValueError(f"{name} is not {n} bytes")
        if len(last_seen) != n or len(doclen) != n or len(sessions) != n:
            raise ValueError("per-atom arrays disagree")
        # Deleting every valid code must leave nothing (C speed, no loop over the atoms).
        if head["kinds"].translate(None, bytes(range(len(KIND_CODES)))):
            raise ValueError("unknown kind code")
        if head["confidences"].translate(None, bytes(range(len(CONFIDENCE_CODES)))):
            raise ValueError("unknown confidence code")
        if not isinstance(head["contested"], dict) or not isinstance(head["postings"], dict):
            raise ValueError("bad contested or postings")
        total = head["length_total"]
        if not isinstance(total, int) or total < 0 or not isinstance(head["source_oid"], str):
            raise ValueError("bad length_total or source_oid")
        self._head = head
        self.blob = blob
        self.source_oid: str = head["source_oid"]
        self.base_oid: str = head["source_oid"]
        self.built_at: float = head["built_at"]
        self.n: int = n
        self.length_total: int = total
        self._ids: str = ids
        self._id_list: list[str] | None = None
        self.offsets = offsets
        self.kinds: bytes = head["kinds"]
        self.confidences: bytes = head["confidences"]
        self.pinned: bytes = head["pinned"]
        self.last_seen = last_seen
        self.sessions = sessions
        self.doclen = doclen
        self.contested: dict[str, str] = head["contested"]
        self.postings: dict[str, tuple[float, int, int, int]] = head["postings"]
        self.idf_max: float = float(head["idf_max"])
        self.changed: set[str] = set()  # base ids a frame replaced or removed
        self.x_ids: list[str] = []
        self.x_claims: list[str] = []
        self.x_kinds: list[int] = []
        self.x_confidences: list[int] = []
        self.x_pinned: list[int] = []
        self.x_last_seen: list[float] = []
        self.x_sessions: list[int] = []
        self.x_doclen: list[int] = []
        self.x_alive: list[bool] = []
        self.frames: list[tuple[int, dict[str, tuple[tuple[int, ...], tuple[float, ...]]]]] = []
        self.frame_docs = 0
        self._hidden: set[int] | None = None  # base numbers `changed` names (`hidden()`)
        self._live: tuple[int, int] | None = None

    def apply_frame(self, frame: "dict[str, Any]", to_oid: str) -> None:
        """Layer one delta frame on top (ValueError when malformed; nothing applied then)."""
        if not isinstance(frame, dict) or set(frame) != _FRAME_KEYS:
            raise ValueError("not a recall index frame")
        ids, claims = frame["ids"], frame["claims"]
        count = len(ids)
        columns = ("claims", "kinds", "confidences", "pinned", "last_seen", "sessions", "doclen")
        if any(len(frame[name]) != count for name in columns):
            raise ValueError("frame columns disagree")
        if frame["kinds"].translate(None, bytes(range(len(KIND_CODES)))) or frame[
            "confidences"
        ].translate(None, bytes(range(len(CONFIDENCE_CODES)))):
            raise ValueError("unknown code in frame")
        if not isinstance(frame["postings"], dict) or not isinstance(frame["contested"], dict):
            raise ValueError("bad frame postings or contested")
        touched = set(ids) | set(frame["gone"])
        if self.x_ids and touched:
            for number, ident in enumerate(self.x_ids):
                if ident in touched:
                    self.x_alive[number] = False
        self.changed |= touched
        self._hidden = self._live = None
        offset = len(self.x_ids)
        self.x_ids.extend(ids)
        self.x_claims.extend(claims)
        self.x_kinds.extend(frame["kinds"])
        self.x_confidences.extend(frame["confidences"])
        self.x_pinned.extend(frame["pinned"])
        self.x_last_seen.extend(frame["last_seen"])
        self.x_sessions.extend(frame["sessions"])
        self.x_doclen.extend(frame["doclen"])
        self.x_alive.extend([True] * count)
        self.frames.append((offset, frame["postings"]))
        apply_contested(self.contested, frame["contested"])
        self.frame_docs = frame["cum"] if isinstance(frame["cum"], int) else self.frame_docs + count
        self.source_oid = to_oid

    def __repr__(self) -> str:
        return (
            f"RecallIndex(n={self.n}, tokens={len(self.postings)}, frames={len(self.frames)}, "
            f"source_oid={self.source_oid!r})"
        )

    def to_payload(self) -> "dict[str, Any]":
        """The head; the offsets in it point into `blob`."""
        return self._head

    def base_ids(self) -> list[str]:
        """The base's ids by atom number (split once, when first asked)."""
        if self._id_list is None:
            self._id_list = self._ids.split("\n") if self.n else []
        return self._id_list

    # Per-atom accessors (what a Hit, a test or a debugging session needs). Numbers ≥ n are
    # the frames' atoms.
    def atom_id(self, doc: int) -> str:
        if doc >= self.n:
            return self.x_ids[doc - self.n]
        return self.base_ids()[doc]

    def claim(self, doc: int) -> str:
        if doc >= self.n:
            return self.x_claims[doc - self.n]
        start = self.offsets[doc]
        return self.blob.read(start, self.offsets[doc + 1] - start).decode("utf-8", "replace")

    def kind(self, doc: int) -> str:
        return KIND_CODES[self.x_kinds[doc - self.n] if doc >= self.n else self.kinds[doc]]

    def confidence(self, doc: int) -> str:
        code = self.x_confidences[doc - self.n] if doc >= self.n else self.confidences[doc]
        return CONFIDENCE_CODES[code]

    def is_pinned(self, doc: int) -> bool:
        return bool(self.x_pinned[doc - self.n] if doc >= self.n else self.pinned[doc])

    def seen_at(self, doc: int) -> float:
        return self.x_last_seen[doc - self.n] if doc >= self.n else self.last_seen[doc]

    def session_count(self, doc: int) -> int:
        return self.x_sessions[doc - self.n] if doc >= self.n else self.sessions[doc]

    def contested_day(self, doc: int) -> str:
        return self.contested.get(self.atom_id(doc), "")

    def live(self, doc: int) -> bool:
        if doc >= self.n:
            return self.x_alive[doc - self.n]
        return not self.changed or doc not in self.hidden()

    def hidden(self) -> set[int]:
        """The base's atom numbers a frame replaced or removed (found by bisection: the base
        is in id order)."""
        if self._hidden is None:
            found: set[int] = set()
            if self.changed:
                from bisect import bisect_left  # only once a frame changed something

                ids = self.base_ids()
                for ident in self.changed:
                    at = bisect_left(ids, ident)
                    if at < len(ids) and ids[at] == ident:
                        found.add(at)
            self._hidden = found
        return self._hidden

    def live_totals(self) -> tuple[int, int]:
        """(live atoms, their total length in LENGTH_UNITS), base and frames together: what
        a rebuild at the same tip would hold (integers, so exact whatever the order)."""
        if self._live is None:
            if not self.x_ids and not self.changed:
                self._live = (self.n, self.length_total)
            else:
                hidden = self.hidden()
                count = self.n - len(hidden) + self.x_alive.count(True)
                total = self.length_total - sum(self.doclen[d] for d in hidden)
                total += sum(length for length, alive in zip(self.x_doclen, self.x_alive, strict=True) if alive)
                self._live = (count, total)
        return self._live

    def ids(self) -> list[str]:
        """Every recallable id, base and frames, in number order."""
        return [self.atom_id(d) for d in range(self.n + len(self.x_ids)) if self.live(d)]

    def posting(
        self, entry: tuple[float, int, int, int]
    ) -> "tuple[memoryview[int], memoryview[float], int]":
        """(atom numbers, term frequencies, how many of them are claim matches) of a postings entry:
        the claim matches come first. ValueError/TypeError when the entry is malformed."""
        _, start, in_claims, in_quotes = entry
        count = in_claims + in_quotes
        raw = memoryview(self.blob.read(start, 8 * count))
        return raw[: 4 * count].cast("I"), raw[4 * count :].cast("f"), in_claims

    def postings_of(self, term: str) -> list[tuple[int, float]]:
        """(atom number, term frequency) pairs of `term` in the base, by atom number (empty
        when absent); negative when only the atom's quotes hold the token."""
        entry = self.postings.get(term)
        if entry is None:
            return []
        docs, tfs, in_claims = self.posting(entry)
        signed = [(d, f if at < in_claims else -f) for at, (d, f) in enumerate(zip(docs, tfs, strict=True))]
        return sorted(signed)


# What one read at the start of the file fetches: the header and, below a few thousand atoms,
# the whole head.
_FIRST_READ = 256 * 1024


def load_index(state_dir: "StrPath") -> RecallIndex | None:
    """The index with its frames applied, or None when missing, unreadable, of another
    version, or corrupt. Never raises. A torn or foreign frame ends the chain: the index then
    answers from the frames before it (and reads as stale).

    Reads the header, the head and the frames; the blob stays on disk (`FileBlob`) where
    `os.pread` exists, so a prompt reads the postings of its terms, not the store."""
    fd = -1
    try:
        fd = open_state_file(index_path(state_dir))
        size = os.fstat(fd).st_size
        lazy = hasattr(os, "pread")
        first = os.pread(fd, _FIRST_READ, 0) if lazy else _read_all(fd)
        header = parse_index_header(first)
        if header is None:
            return None
        oid, offset, length, _, head_len = header
        if size - offset < length:
            return None  # truncated
        end = offset + head_len
        if len(first) >= size:  # the whole file came with the first read
            whole = memoryview(first)
            head = marshal.loads(whole[offset:end])
            blob: BytesBlob | FileBlob = BytesBlob(whole[end : offset + length])
            rest, start = first, offset + length
        else:
            head = marshal.loads(first[offset:end] if end <= len(first) else os.pread(fd, head_len, offset))
            blob = FileBlob(fd, end, length - head_len)
            fd = -1  # the blob owns it now
            rest, start = os.pread(blob.fd, size - offset - length, offset + length), 0
        index = RecallIndex(head, blob)
        if index.source_oid != oid:
            return None
        view = memoryview(rest)
        for begin, stop, _, to_oid, _ in index_frames(rest, start, oid):
            try:
                index.apply_frame(marshal.loads(view[begin:stop]), to_oid)
            except (ValueError, TypeError, EOFError):
                break
        return index
    except Exception:  # noqa: BLE001 - a broken cache reads as "missing"; the hook falls back
        return None
    finally:
        if fd >= 0:
            os.close(fd)


def contested_dates(index: RecallIndex) -> dict[str, str]:
    """id → `YYYY-MM-DD` of the newer evidence, for every contested atom of the store (both
    sides of a contradiction, including atoms recall skips), so SessionStart can tag L2/L3 lines
    without pygit2."""
    return dict(index.contested)


def _read_all(fd: int) -> bytes:
    with os.fdopen(os.dup(fd), "rb") as fh:
        return fh.read()
