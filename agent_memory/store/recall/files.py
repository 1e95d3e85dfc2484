"""The recall index's files on disk, without the index itself: where they are, the header
and the last bytes that say which `memory/atoms` tip the index stands at, and the contested
sidecar. The session start needs only these (importing the whole reading side was
~1.5 ms of a cold start)."""

import marshal
import os
import sys

from agent_memory.gitio.refs import ATOMS_REF, read_ref
from agent_memory.gitio.regular import open_regular as open_state_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    StrPath = str | os.PathLike[str]

FORMAT_VERSION = 7  # 6: claim labels and other languages' function words are not terms; 7: CJK
# bigrams, Korean particles cut, more function words, the extractor's "User" no term
CACHE_TAG = (
    sys.implementation.cache_tag
    or f"{sys.implementation.name}-{sys.version_info[0]}{sys.version_info[1]}"
)
INDEX_FILENAME = f"recall-index.{CACHE_TAG}.marshal"
INDEX_MAGIC = b"agent-memory recall index\n"
STATE_DIRNAME = "agent-memory"


def index_path(state_dir: "StrPath") -> str:
    return os.path.join(os.fspath(state_dir), INDEX_FILENAME)


def read_state_file(path: "StrPath") -> bytes:
    """The bytes of the regular file `path` (gitio.regular: never a FIFO or a device)."""
    with open(open_state_file(path), "rb", closefd=True) as fh:
        return fh.read()


def index_header(source_oid: str, payload_len: int, n: int, head_len: int) -> bytes:
    # Line 2: format version, interpreter tag, marshal version, byte order, source tip, payload
    # length, atoms, and the length of the payload's marshal head (the rest is the blob the
    # reader takes slices of). Readable with `head -2`; `index_tail` needs only these bytes
    # and the tail.
    fields = (FORMAT_VERSION, CACHE_TAG, marshal.version, sys.byteorder, source_oid or "-",
              payload_len, n, head_len)  # fmt: skip
    return INDEX_MAGIC + " ".join(map(str, fields)).encode("ascii") + b"\n"


def parse_index_header(data: bytes) -> tuple[str, int, int, int, int] | None:
    """(source_oid, payload offset, payload length, atoms, head length) when the header is
    ours, else None."""
    if not data.startswith(INDEX_MAGIC):
        return None
    end = data.find(b"\n", len(INDEX_MAGIC))
    if end < 0:
        return None
    fields = data[len(INDEX_MAGIC) : end].decode("ascii", "replace").split(" ")
    expected = [str(FORMAT_VERSION), CACHE_TAG, str(marshal.version), sys.byteorder]
    if len(fields) != 8 or fields[:4] != expected or not all(f.isdigit() for f in fields[5:]):
        return None
    oid = fields[4]
    length, head_len = int(fields[5]), int(fields[7])
    if head_len > length:
        return None
    return ("" if oid == "-" else oid), end + 1, length, int(fields[6]), head_len


def serialize_frame(frame: "dict[str, Any]", from_oid: str, to_oid: str) -> bytes:
    """`D <length> <from> <to>\\n` + marshal payload + `\\nE <to> <cum>\\n`: the trailer, a
    line of its own, lets a reader learn the index's tip from the file's last bytes."""
    payload = marshal.dumps(frame)
    head = f"D {len(payload)} {from_oid or '-'} {to_oid}\n".encode("ascii")
    return head + payload + f"\nE {to_oid} {frame['cum']}\n".encode("ascii")


# --- the contested sidecar ----------------------------------------------------------------------
# The session start needs only the index's `contested` map (for the contested tags on L2/L3 lines),
# but that map sits inside the index's one marshal payload, which grows with the store (~70 ms
# to load at 50k atoms). The writers keep a copy beside it, stamped with the tip it belongs to;
# a reader uses it only when that tip is the index's own (written after the index, so a reader
# in between sees a mismatch and loads the index instead).

CONTESTED_FILENAME = f"recall-contested.{CACHE_TAG}.marshal"


def apply_contested(contested: dict[str, str], changes: "Mapping[str, str]") -> None:
    """A frame's contested changes: a day sets the id's tag, an empty day clears it."""
    for ident, day in changes.items():
        if day:
            contested[ident] = day
        else:
            contested.pop(ident, None)


def write_contested(state_dir: "StrPath", tip: str, contested: "Mapping[str, str]",
                    marks: "Mapping[str, tuple[str, ...]]") -> None:  # fmt: skip
    """The sidecar: the contested map and the conflict marks it was derived from (id →
    its `contested_by`, for every atom carrying `contested` or `contested_by`), which a writer
    needs to update the map exactly when one side of a conflict changes."""
    from agent_memory.gitio.state import replace_text  # writers only: not on the prompt path

    try:
        replace_text(os.path.join(os.fspath(state_dir), CONTESTED_FILENAME),
                     marshal.dumps((FORMAT_VERSION, tip, dict(contested), dict(marks))))  # fmt: skip
    except OSError:
        pass  # readers fall back to the index itself; the next writer rebuilds it


def read_conflicts(state_dir: "StrPath") -> "tuple[str, dict[str, str], dict[str, tuple[str, ...]]] | None":
    """(tip, contested map, conflict marks) from the sidecar; None when missing, foreign or
    malformed."""
    try:
        value = marshal.loads(read_state_file(os.path.join(os.fspath(state_dir), CONTESTED_FILENAME)))
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not (isinstance(value, tuple) and len(value) == 4 and value[0] == FORMAT_VERSION
            and isinstance(value[1], str) and isinstance(value[2], dict) and isinstance(value[3], dict)):  # fmt: skip
        return None
    return value[1], value[2], value[3]


def read_contested(state_dir: "StrPath") -> tuple[str, dict[str, str]] | None:
    """(tip, contested map) from the sidecar; None when missing, foreign or malformed."""
    found = read_conflicts(state_dir)
    return None if found is None else (found[0], found[1])


def contested_at_index(state_dir: "StrPath") -> tuple[str, dict[str, str]] | None:
    """(the index's tip, its contested map) without loading the index: from the sidecar when
    it stands at the index's tip (header and tail reads); None otherwise (load the index)."""
    tip = indexed_oid(state_dir)
    found = read_contested(state_dir) if tip is not None else None
    return found if found is not None and found[0] == tip else None


def index_frames(data: bytes, start: int, base_oid: str) -> list[tuple[int, int, str, str, int]]:
    """(payload start, payload end, from, to, cum) of the frames after the base, as far as
    they are whole and chain (each starts where the one before ended)."""
    out = []
    current = base_oid
    pos = start
    size = len(data)
    while pos < size:
        nl = data.find(b"\n", pos, pos + 200)
        if nl < 0:
            break
        head = data[pos:nl].decode("ascii", "replace").split(" ")
        if len(head) != 4 or head[0] != "D" or not head[1].isdigit():
            break
        begin = nl + 1
        end = begin + int(head[1])
        tail = data.find(b"\n", end + 1, end + 200) if data[end : end + 1] == b"\n" else -1
        trailer = data[end + 1 : tail].decode("ascii", "replace").split(" ") if tail >= 0 else []
        if len(trailer) != 3 or trailer[0] != "E" or trailer[1] != head[3] or not trailer[2].isdigit():
            break
        if (head[2] if head[2] != "-" else "") != current:
            break
        out.append((begin, end, head[2], head[3], int(trailer[2])))
        current = head[3]
        pos = tail + 1
    return out


def index_tail(state_dir: "StrPath") -> tuple[str, str, int, int] | None:
    """(tip, base tip, atoms in frames, atoms in the base) from the header and the last
    bytes of the index file; None when missing, foreign or torn at the end."""
    try:
        with open(open_state_file(index_path(state_dir)), "rb", closefd=True) as fh:
            head = fh.read(512)
            header = parse_index_header(head)
            if header is None:
                return None
            base, offset, length, n, _ = header
            size = os.fstat(fh.fileno()).st_size
            if size < offset + length:
                return None
            if size == offset + length:
                return base, base, 0, n
            fh.seek(max(offset + length, size - 200))
            tail = fh.read()
    except OSError:
        return None
    if not tail.endswith(b"\n"):
        return None
    last = tail[:-1].rpartition(b"\n")[2].decode("ascii", "replace").split(" ")
    if len(last) != 3 or last[0] != "E" or not last[2].isdigit():
        return None
    return last[1], base, int(last[2]), n


def indexed_oid(state_dir: "StrPath") -> str | None:
    """The tip the index stands at (header and tail only); None when missing/foreign/torn."""
    found = index_tail(state_dir)
    return found[0] if found else None


def index_is_stale(state_dir: "StrPath", common_dir: "StrPath") -> bool:
    """True when the index is missing/foreign or stands at another `memory/atoms` tip."""
    built_from = indexed_oid(state_dir)
    if built_from is None:
        return True
    return built_from != (read_ref(common_dir, ATOMS_REF) or "")
