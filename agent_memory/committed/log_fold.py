"""The fold of an `.memory/adopted.log` kept across processes, reading only what was appended.

The per-prompt hook needs the atoms a log holds whenever it changed; folding the whole file
again cost ~1 s at 40 MB, over the hook's budget. The log is append-only in the common case
(adopt, the lifecycle verbs, a union merge that lands after our lines), so the fold is saved
with how far it read and re-entered there: `held_since(root, saved)` reads only the bytes past
`saved`'s offset when the file still starts with what was read — the same inode, at least as
long, the same first and last WINDOW bytes of what was read, and an unchanged mtime when its
size is unchanged — and the whole file otherwise (cut short by an adoption roll-back,
rewritten in place, replaced by a checkout or a pull). What the windows cannot see is a line
edited in place to the same length between them while the file also grew; nothing of ours
writes that (adopt, `validate --fix` and the lifecycle verbs append; a roll-back cuts; git
writes a new file).

The saved fold is per atom id, which is what makes a tail enough. `tiers.fold_text` applies
the distinct lines in (`at`, file order): an adopt sets the id's atom, forget/demote remove
it, and any other op sets it only while it is held (it never brings an atom back). So an id
is held exactly when its last *deciding* line (an adopt or a removing op) in that order is an
adopt, and then holds the atom of its last line. An appended line is later in file order
than all before it: it is the id's last line when its `at` is the greatest (or equal and not
a copy of a line already there), and its last deciding line when it decides and its `at` is
at least that of the one before (equal: not a copy); an older line changes neither, whatever
order a union merge appended it in. Each id keeps the greatest `at`, the atom of the last
line (None for a removing op) and digests of its lines at that `at`, and the same `at`,
whether it is an adopt and digests for its deciding lines (tests/test_log_fold.py checks this
against `fold_text` on random logs and edits).

A log is read a chunk at a time, and the state of what was read so far is handed to the
caller's checkpoint as it goes and when a deadline passes (FoldIncomplete): a hook killed at
its client's timeout, or stopped at its own, leaves the next one a place to resume from, so a
log too long for one hook (a clone's 60 MB) is read over a few, not by none. A state saved
mid-log is the one a whole read of its first lines saves (tests/test_log_fold.py checks it).

Only whole lines are consumed: a last line without its newline (another process is writing
it) is read and counted for this answer as `fold_text` would count it, but the next read
starts at its first byte again. A line that is not UTF-8 or not an entry is skipped, as
`tiers.held` skips it. The state is a tuple of marshal-able values; the caller keeps it.
Standard library only (the per-prompt hook loads this on a change of the log).
"""

import os
import time

from agent_memory.committed.tiers import (
    LOG_RELPATH,
    LOG_WINDOW,
    REMOVING_OPS,
    entry_of,
    hashable_form,
    open_inside,
)
from agent_memory.model.policy import MAX_LOG_ATOMS, MAX_LOG_BLOB_BYTES, MAX_LOG_LINE_BYTES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn

    from agent_memory.model.atom import Atom

    # id → [greatest `at`, the atom of its last distinct line at that `at` (None for a
    # removing op), digests or entries of the distinct lines at that `at`, the greatest `at`
    # of a deciding line (adopt, forget, demote; "" for none), whether its last deciding line
    # at that `at` is an adopt, digests or entries of the deciding lines at that `at`; in
    # memory only: the digests of the first lines of each of those two lists (_copy_of)]
    Entries = dict[str, list[Any]]

STATE_VERSION = 2
# Bytes compared at the start of the log and just before the saved offset (tiers.LOG_WINDOW).
WINDOW = LOG_WINDOW
# Bytes read and folded at a time, and seconds of folding between two saves of the state
# (`held_since`'s checkpoint): a 60 MB log takes seconds to fold, longer than a hook is given,
# and a hook killed at its timeout must leave the next one a place to resume from.
CHUNK = 1 << 19
# A line read this far without its end is no entry (one adopt writes is a few KB: a claim of
# at most 500 characters): the log is refused as one naming too many atoms is (LineTooLong).
# A committed log of one 100 MB line (100 KB in a pack) was read whole by every hook, past its
# budget, and killed at its timeout having saved nothing; stopped at the deadline instead, a
# line that never ends (a GB of zeros) still gave nothing — the global memory included — at
# every start and prompt, each spending its whole budget on it.
LONG_LINE = MAX_LOG_LINE_BYTES  # 8 chunks
CHECKPOINT_S = 0.1


_BLAKE2B: "Any" = None


def _digest(entry: "dict[str, Any] | bytes") -> bytes:
    """What tells two lines apart for `fold_text`'s "identical lines count once": the digest of
    the entry's canonical form (types included: 1, 1.0 and true differ, key order does not)."""
    global _BLAKE2B
    if isinstance(entry, bytes):
        return entry
    if _BLAKE2B is None:
        try:
            from _blake2 import blake2b  # built in: hashlib loads OpenSSL (~6 ms)
        except ImportError:  # pragma: no cover - another Python
            from hashlib import blake2b
        _BLAKE2B = blake2b
    text = repr(hashable_form(entry)).encode("utf-8", "surrogatepass")
    return bytes(_BLAKE2B(text, digest_size=16).digest())


def _copy_of(obj: "dict[str, Any]", lines: "list[Any]", seen: "set[bytes]") -> bool:
    """Whether `obj` is a copy of one of `lines` (distinct, so `seen` holds the digests of the
    first len(seen) of them, and each line is digested once): a lookup, never a pass over
    them all (a hand-written log of 2,000 distinct lines of one id and `at` took ~40 s)."""
    for number in range(len(seen), len(lines)):
        lines[number] = _digest(lines[number])
        seen.add(lines[number])
    return _digest(obj) in seen


def _apply(entries: "Entries", obj: "dict[str, Any]") -> None:
    atom = obj["atom"]
    ident, at, op = atom["id"], obj["at"], obj["op"]
    deciding = op == "adopt" or op in REMOVING_OPS
    now = entries.get(ident)
    if now is None:
        now = entries[ident] = [at, None, [], "", False, [], set(), set()]
    elif at == now[0] and _copy_of(obj, now[2], now[6]):
        return  # a copy of a line at this `at`: it counts once, where it first was
    if at > now[0]:
        now[0], now[2], now[6] = at, [], set()
    if at == now[0]:  # its last line now
        now[1] = atom if op not in REMOVING_OPS else None
        now[2].append(obj)
    if not deciding or at < now[3]:
        return  # applied before the id's last deciding line: no effect on whether it is held
    if at > now[3]:
        now[3], now[5], now[7] = at, [], set()
    elif _copy_of(obj, now[5], now[7]):
        return
    now[4] = op == "adopt"
    now[5].append(obj)


class _TooManyAtoms(Exception):
    """A line names one atom more than MAX_LOG_ATOMS: `applied` lines of the call were applied,
    `length` bytes long (newlines included)."""

    def __init__(self, applied: int, length: int) -> None:
        super().__init__(applied, length)
        self.applied, self.length = applied, length


def _fold_lines(entries: "Entries", lines: "list[bytes]", number: int, offset: int, bad: list[str],
                touched: "set[str] | None" = None) -> None:  # fmt: skip
    """Apply `lines` (split on b"\n", the first being line `number` at byte `offset`); `bad`
    collects those that are not UTF-8, named as `tiers.decode_lines` names them; `touched` the
    ids of the entries applied. A line naming one atom more than MAX_LOG_ATOMS raises
    _TooManyAtoms, applying nothing of it or after it."""
    start = offset
    for applied, raw in enumerate(lines):
        try:
            line = raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError as exc:
            bad.append(f"line {number} (byte offset {offset + exc.start}): not UTF-8")
            line = ""
        obj = entry_of(line)
        if obj is not None and obj["atom"]["id"] not in entries and len(entries) >= MAX_LOG_ATOMS:
            raise _TooManyAtoms(applied, offset - start)
        number += 1
        offset += len(raw) + 1
        if obj is not None:
            _apply(entries, obj)
            if touched is not None:
                touched.add(obj["atom"]["id"])


def _resumable(saved: object, fd: int, st: os.stat_result) -> "tuple[int, int, bytes, bytes, Entries] | None":
    """(offset, lines read, head, tail, entries) of `saved` when the file behind `fd` still
    starts with what it read; None when it must be read whole (a state that is not one this
    module saved, too: never an error)."""
    if not (isinstance(saved, tuple) and len(saved) == 10 and saved[0] == STATE_VERSION):
        return None
    _, dev, ino, size, mtime, offset, lines, head, tail, entries = saved
    if not (isinstance(offset, int) and isinstance(lines, int) and isinstance(head, bytes)
            and isinstance(tail, bytes) and isinstance(entries, dict) and len(tail) <= offset):  # fmt: skip
        return None
    if (dev, ino) != (st.st_dev, st.st_ino) or st.st_size < offset:
        return None  # another file (a checkout, a pull), or cut short (a roll-back)
    if st.st_size == size and st.st_mtime_ns != mtime:
        return None  # rewritten in place to the same length
    if os.pread(fd, len(head), 0) != head or os.pread(fd, len(tail), offset - len(tail)) != tail:
        return None  # rewritten: a line dropped or added before the end moves what follows
    resumed: Entries = {}
    for ident, value in entries.items():
        if not (isinstance(value, tuple) and len(value) == 6 and isinstance(value[0], str)
                and isinstance(value[1], (dict, type(None))) and isinstance(value[2], tuple)
                and isinstance(value[3], str) and isinstance(value[4], bool)
                and isinstance(value[5], tuple)):  # fmt: skip
            return None
        resumed[ident] = [value[0], value[1], list(value[2]), value[3], value[4], list(value[5]), set(), set()]
    return offset, lines, head, tail, resumed


class FoldIncomplete(Exception):
    """The read stopped at its deadline before the end of the log: `state` is where it got (the
    `saved` to resume from, already handed to the checkpoint), `done` and `size` its bytes."""

    def __init__(self, path: str, done: int, size: int, state: "tuple[Any, ...]") -> None:
        mb = 1 << 20
        super().__init__(f"{path} is being read: {done / mb:.1f} of {size / mb:.1f} MB so far; "
                         "memory is served once it is read whole (each hook goes on from there)")  # fmt: skip
        self.done, self.size, self.state = done, size, state


class TooManyAtoms(Exception):
    """The log names more than MAX_LOG_ATOMS atoms: the hooks read no further (nothing of its
    tier is given to Claude). `state` is the fold up to the line that named one too many, so
    the next hook resumes there and stops at once, instead of reading the log again."""

    state: "tuple[Any, ...] | None"  # None: nothing read, nothing to resume from (LogTooLarge)

    def __init__(self, path: str, state: "tuple[Any, ...]") -> None:
        super().__init__(f"{path} names more than {MAX_LOG_ATOMS} atoms, more than anyone adopts: "
                         "nothing of it is given to Claude (`git log -p -- .memory/adopted.log` shows who wrote it)")  # fmt: skip
        self.state = state


class LineTooLong(TooManyAtoms):
    """A line runs past LONG_LINE bytes: no entry is that long, and only whole lines are read
    on from, so the hooks read no further (as for a log naming too many atoms, nothing of its
    tier is given to Claude). `state` is the fold up to that line: the next hook resumes there
    and reads LONG_LINE bytes, not the log."""

    def __init__(self, path: str, line: int, state: "tuple[Any, ...]") -> None:
        Exception.__init__(self, f"{path}: line {line} is longer than any entry ({LONG_LINE >> 20} MB and on): "
                           "nothing of it is given to Claude (`git log -p -- .memory/adopted.log` shows who wrote it)")  # fmt: skip
        self.state = state


class LogTooLarge(TooManyAtoms):
    """The log is larger than MAX_LOG_BLOB_BYTES: no real one is, so the hooks read none of it
    (as for a log naming too many atoms, nothing of its tier is given to Claude)."""

    def __init__(self, path: str, size: int) -> None:
        Exception.__init__(self, f"{path} is {size} bytes, more than any log ({MAX_LOG_BLOB_BYTES >> 20} MB): "
                           "nothing of it is given to Claude (`git log -p -- .memory/adopted.log` shows who wrote it)")  # fmt: skip
        self.state = None


def _state(st: os.stat_result, end: int, lines: int, head: bytes, tail: bytes, entries: "Entries",
           frozen: "dict[str, tuple[Any, ...]]", touched: "set[str]") -> "tuple[Any, ...]":  # fmt: skip
    """The saved form of a fold that read up to `end`. `frozen` holds the saved form of each
    id's entry as of the last call, `touched` the ids applied since: only those are frozen
    again (a checkpoint costs what was read since, not every id of the log again), and the
    lines they keep become their digests in `entries` too (what `_copy_of` compares either
    way), each digested once."""
    for ident in touched:
        value = entries[ident]
        for kept in (value[2], value[5]):
            kept[:] = [_digest(line) for line in kept]
        frozen[ident] = (value[0], value[1], tuple(value[2]), value[3], value[4], tuple(value[5]))
    touched.clear()
    return (STATE_VERSION, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, end, lines, head, tail, dict(frozen))


def _stop(root: "str | os.PathLike[str]", st: os.stat_result, offset: int, lines: int, head: bytes, tail: bytes,
          entries: "Entries", frozen: "dict[str, tuple[Any, ...]]", touched: "set[str]",
          checkpoint: "Callable[[tuple[Any, ...]], None] | None") -> "NoReturn":  # fmt: skip
    """Checkpoint what was read up to `offset` (the last whole line) and raise FoldIncomplete."""
    state = _state(st, offset, lines, head, tail, entries, frozen, touched)
    if checkpoint is not None:
        checkpoint(state)
    raise FoldIncomplete(os.path.join(os.fspath(root), LOG_RELPATH), offset, st.st_size, state)


def _too_many(root: "str | os.PathLike[str]", st: os.stat_result, offset: int, lines: int, head: bytes,
              tail: bytes, entries: "Entries", frozen: "dict[str, tuple[Any, ...]]", touched: "set[str]",
              ) -> "NoReturn":  # fmt: skip
    """Raise TooManyAtoms with the state of what was read up to `offset` (the line naming one
    atom too many)."""
    state = _state(st, offset, lines, head, tail, entries, frozen, touched)
    raise TooManyAtoms(os.path.join(os.fspath(root), LOG_RELPATH), state)


def held_since(
    root: "str | os.PathLike[str]",
    saved: object = None,
    deadline: "float | None" = None,
    checkpoint: "Callable[[tuple[Any, ...]], None] | None" = None,
    chunk: int = CHUNK,
) -> "tuple[dict[str, Atom], tuple[Any, ...] | None, list[str]]":
    """The atoms the log under `root` holds (as `tiers.held`: by id, sorted), the state to pass
    as `saved` next time (None when there is no log to read), and the lines not UTF-8 among
    those read now. Never follows a link (tiers.open_inside); an unreadable log holds nothing.

    The log is read `chunk` bytes at a time. `checkpoint` is handed the state of what was read
    so far every CHECKPOINT_S or so (less often when saving it is slow), so a process killed
    mid-read (a hook past its client's timeout) leaves the next one a place to resume from;
    past `deadline` (time.monotonic) with more to read, the state is checkpointed and
    FoldIncomplete raised."""
    try:
        fd = open_inside(root, LOG_RELPATH)
    except OSError:
        return {}, None, []
    with open(fd, "rb", closefd=True) as fh:
        st = os.fstat(fd)
        if st.st_size > MAX_LOG_BLOB_BYTES:
            raise LogTooLarge(os.path.join(os.fspath(root), LOG_RELPATH), st.st_size)
        resumed = _resumable(saved, fd, st)
        offset, lines, head, tail, entries = resumed or (0, 0, b"", b"", {})
        frozen = dict(saved[9]) if resumed else {}  # type: ignore[index]  # what _resumable checked
        touched: set[str] = set()
        fh.seek(offset)
        bad: list[str] = []
        # read past the last newline so far, in the pieces read (joined once: a line of 100 MB
        # grown by `+=` a chunk at a time copied ~10 GB)
        pieces: list[bytes] = []
        pending = 0  # their length
        # seconds between saves; when the last ended; what digesting cost per second of folding
        interval, since, ratio = CHECKPOINT_S, time.monotonic(), 0.0
        while True:
            data = fh.read(chunk)
            if not data:
                break
            cut = data.rfind(b"\n") + 1
            if not cut:  # a line longer than a chunk: read on, up to LONG_LINE
                pieces.append(data)
                pending += len(data)
                if pending >= LONG_LINE:
                    state = _state(st, offset, lines, head, tail, entries, frozen, touched)
                    raise LineTooLong(os.path.join(os.fspath(root), LOG_RELPATH), lines + 1, state)
                continue
            whole = b"".join((*pieces, data[:cut]))
            partial = data[cut:]
            pieces, pending = [partial], len(partial)
            complete = whole.split(b"\n")[:-1]
            try:
                _fold_lines(entries, complete, lines + 1, offset, bad, touched)
            except _TooManyAtoms as many:
                whole, complete, partial = whole[: many.length], complete[: many.applied], b""
                _too_many(root, st, offset + len(whole), lines + len(complete), (head + whole)[:WINDOW],
                          (tail + whole)[-WINDOW:], entries, frozen, touched)  # fmt: skip
            # The windows of what was read, from the bytes read (never read again: the file
            # may have changed since).
            if len(head) < WINDOW:
                head += whole[: WINDOW - len(head)]
            tail = whole[-WINDOW:] if len(whole) >= WINDOW else (tail + whole)[-WINDOW:]
            offset, lines = offset + len(whole), lines + len(complete)
            now = time.monotonic()
            # stopped when what is left to digest would end past the deadline
            late = deadline is not None and now + (now - since) * ratio >= deadline
            if late and offset + len(partial) < st.st_size:
                _stop(root, st, offset, lines, head, tail, entries, frozen, touched, checkpoint)
            if checkpoint is not None and now - since >= interval:
                # Often, so what is left to digest when the deadline comes is little (the
                # digests are the fold's own work, done once); less often when writing the
                # state is slow (a log of many ids): writing costs at most a fifth.
                state = _state(st, offset, lines, head, tail, entries, frozen, touched)
                digested = time.monotonic()
                ratio = (digested - now) / max(now - since, 1e-6)
                checkpoint(state)
                since = time.monotonic()
                interval = max(CHECKPOINT_S, 4 * (since - digested))
    state = _state(st, offset, lines, head, tail, entries, frozen, touched)
    partial = b"".join(pieces)
    if partial:
        # counted now, as a whole read would count it, and read again next time
        try:
            _fold_lines(entries, [partial], lines + 1, offset, bad)
        except _TooManyAtoms:
            raise TooManyAtoms(os.path.join(os.fspath(root), LOG_RELPATH), state) from None
    held = {k: v[1] for k, v in entries.items() if v[4] and v[1] is not None}
    return {k: held[k] for k in sorted(held)}, state, bad
