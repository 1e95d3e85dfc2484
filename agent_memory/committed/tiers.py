"""Reading the committed tiers: the adopted L2 atoms of this repository and the L3 atoms of
the global memory repo, folded from their `.memory/adopted.log` files. Pure file reads (no
pygit2), so SessionStart can use it on its fast path.

`held` is on the cold session-start path, so it folds the log with `fold_text` — the same
rules as `adopted_log.parse` + `adopted_log.fold` (tests/test_context.py checks they agree)
through the C JSON scanner, without importing `json`, `re`, `dataclasses` or `pathlib`.
"""

from __future__ import annotations

import errno
import io
import os
import stat

from agent_memory.committed.line_ends import BOM
from agent_memory.model.atom import is_atom_id, without_local_fields
from agent_memory.model.errors import RepoStateError
from agent_memory.model.fastjson import loads_bounded
from agent_memory.model.home import git_in, memory_home_dir
from agent_memory.model.policy import MAX_LOG_ATOMS, MAX_LOG_BLOB_BYTES, MAX_LOG_LINE_BYTES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from pathlib import Path
    from typing import Any, BinaryIO

    from agent_memory.committed import adopted_log
    from agent_memory.model.atom import Atom

LOG_PATH = os.path.join(".memory", "adopted.log")
LOG_RELPATH = ".memory/adopted.log"  # slash-separated, for open_inside
# Bytes at the start and the end of an adopted.log that tell a rewrite from an append
# (log_fold's resumed read, session start's cache key): a line dropped, added or reordered
# before the end moves them.
LOG_WINDOW = 64 << 10
# Where a tier's marker block may be (committed/reviewed.py): the sibling file CLAUDE.md
# imports, or CLAUDE.md itself (memory.target=claude-md).
BLOCK_FILES = ("CLAUDE.memory.md", "CLAUDE.md")
_SETTING_OPS = frozenset({"adopt", "pin", "unpin", "decay", "supersede", "resolve"})
REMOVING_OPS = frozenset({"forget", "demote"})


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO in place of the file must not block the open


class TooManyAtomsError(RepoStateError):
    """A log naming more than MAX_LOG_ATOMS atoms, refused before it is folded
    (refuse_too_many_atoms)."""


class LogLineTooLongError(TooManyAtomsError):
    """A log holding a line longer than MAX_LOG_LINE_BYTES, refused before it is read whole
    (read_counted), as one naming too many atoms is."""


class NotPlainError(OSError):
    """A component of a memory path is a link, or the file is not a regular file."""


def open_inside(root: str | os.PathLike[str], rel: str) -> int:
    """A read-only descriptor for the regular file `rel` (slash-separated) under `root`, opened
    one component at a time and following no link below `root`. A `.memory` folder linked
    elsewhere would have the session start read a log no commit showed a reviewer:
    it raises NotPlainError, as does a FIFO or a device in place of the file; an absent file
    raises FileNotFoundError. `root` itself may be a link (the user's own layout)."""
    parts = rel.split("/")
    if os.open not in os.supports_dir_fd:  # pragma: no cover - every POSIX CPython has it
        here = os.fspath(root)
        for part in parts:
            here = os.path.join(here, part)
            if os.path.islink(here):
                raise NotPlainError(f"{here} is a link")
        return os.open(here, os.O_RDONLY | _NONBLOCK)
    fd = os.open(root, os.O_RDONLY | _DIRECTORY)
    try:
        for part in parts[:-1]:
            try:
                inner = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):  # a link, or a file, in a folder's place
                    raise NotPlainError(f"{os.path.join(root, part)} is not a folder") from None
                raise
            os.close(fd)
            fd = inner
        try:
            leaf = os.open(parts[-1], os.O_RDONLY | _NOFOLLOW | _NONBLOCK, dir_fd=fd)
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # the file is a link
                raise NotPlainError(f"{os.path.join(root, rel)} is a link") from None
            raise
    finally:
        os.close(fd)
    if not stat.S_ISREG(os.fstat(leaf).st_mode):
        os.close(leaf)
        raise NotPlainError(f"{os.path.join(root, rel)} is not a regular file")
    return leaf


def read_inside(root: str | os.PathLike[str], rel: str, limit: int | None = None,
                newline: str | None = None) -> str:
    """The UTF-8 text of `rel` under `root` (open_inside: no link followed), its line ends made
    "\\n"; with `newline=""` as stored (a person's file that is written back keeps its CRLF:
    committed/line_ends.py). With `limit`, a file of more bytes is not read: OSError (EFBIG)."""
    with open(open_inside(root, rel), encoding="utf-8", newline=newline, closefd=True) as fh:
        if limit is None:
            return fh.read()
        if os.fstat(fh.fileno()).st_size > limit:
            raise OSError(errno.EFBIG, f"over {limit} bytes: not read", os.path.join(root, rel))
        text = fh.read(limit + 1)  # (characters: never more than its bytes)
        if len(text.encode("utf-8")) > limit:  # it grew meanwhile
            raise OSError(errno.EFBIG, f"over {limit} bytes: not read", os.path.join(root, rel))
        return text


def read_at_most(fh: BinaryIO, limit: int, where: str | os.PathLike[str]) -> bytes:
    """All of the open file `fh` when it holds at most `limit` bytes; a larger one is not read
    (OSError, EFBIG) — sized first, and again by what was read (it may grow meanwhile)."""
    if os.fstat(fh.fileno()).st_size > limit:
        raise OSError(errno.EFBIG, f"over {limit} bytes: not read", os.fspath(where))
    data = fh.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"over {limit} bytes: not read", os.fspath(where))
    return data


def linked_component(root: str | os.PathLike[str], rel: str) -> str | None:
    """The first path below `root` on the way to `rel` that is a link or not what it must be
    (a folder, then a regular file); None when the path is plain or absent."""
    here = os.fspath(root)
    parts = rel.split("/")
    for number, part in enumerate(parts, 1):
        here = os.path.join(here, part)
        try:
            st = os.lstat(here)
        except OSError:
            return None
        want = stat.S_ISREG if number == len(parts) else stat.S_ISDIR
        if not want(st.st_mode):
            return here
    return None


def names_too_many_atoms(text: str) -> bool:
    """Whether the entries of the log `text` name more than MAX_LOG_ATOMS distinct atoms (as
    the hooks' fold counts them, committed/log_fold.py). A log of no more lines than that
    cannot, and is not read here (a real one: a few hundred); a longer one is read up to the
    line that names one too many, a line at a time (no list of its 200,000 lines)."""
    if text.count("\n") < MAX_LOG_ATOMS:
        return False

    def lines() -> Iterator[str]:
        start = 0
        while start < len(text):
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            yield text[start:end].rstrip("\r")
            start = end + 1

    return lines_name_too_many_atoms(lines())


def lines_name_too_many_atoms(lines: Iterable[str]) -> bool:
    """Whether the log lines (their line ends taken off) name more than MAX_LOG_ATOMS distinct
    atoms, read no further than the line naming one too many."""
    seen: set[str] = set()
    for line in lines:
        obj = entry_of(line)
        if obj is not None:
            seen.add(obj["atom"]["id"])
            if len(seen) > MAX_LOG_ATOMS:
                return True
    return False


# Bytes read at a time when a log file is counted (file_names_too_many_atoms).
_COUNT_CHUNK = 1 << 16


def file_names_too_many_atoms(fh: BinaryIO) -> bool:
    """names_too_many_atoms for the log open (binary) in `fh`, read from where it stands and
    never whole: its newlines a chunk at a time until there are MAX_LOG_ATOMS of them (a log of
    fewer lines cannot name too many, and is not parsed), then, from the start again, its lines
    one at a time up to the one naming an atom too many, where the read stops (`fh` is left
    there). A line that is not UTF-8 names no atom, as in the readers (decode_lines). A cloned
    log of 200,000 made-up ids (87 MB) was read whole, then decoded, before it was counted:
    ~200 MB for a refusal that needs its first 5,001 lines."""
    start = fh.tell()
    lines = 0
    while lines < MAX_LOG_ATOMS:
        chunk = fh.read(_COUNT_CHUNK)
        if not chunk:
            return False
        lines += chunk.count(b"\n")
    fh.seek(start)

    def decoded_lines() -> Iterator[str]:
        # (the count stops at a line longer than any entry: read_counted refuses the log for it)
        for raw in bounded_lines(fh):
            try:
                yield raw.decode("utf-8").rstrip("\n").rstrip("\r")
            except UnicodeDecodeError:
                continue

    return lines_name_too_many_atoms(decoded_lines())


def bounded_lines(fh: BinaryIO) -> Iterator[bytes]:
    """The lines of the binary file `fh` from where it stands, up to the first longer than
    MAX_LOG_LINE_BYTES (no log entry is: that line is never read whole, nothing after it read)."""
    while (raw := fh.readline(MAX_LOG_LINE_BYTES + 1)) and len(raw) <= MAX_LOG_LINE_BYTES:
        yield raw


def too_many_atoms_error(where: str | os.PathLike[str],
                         root: str | os.PathLike[str] | None = None) -> TooManyAtomsError:  # fmt: skip
    """The refusal of the log of `where`, naming more than MAX_LOG_ATOMS atoms; the hint's git
    commands run in `root` (None: the current folder)."""
    return TooManyAtomsError(
        f"{os.fspath(where)} names more than {MAX_LOG_ATOMS} atoms, more than anyone adopts "
        "(a real log names a few hundred): it was not read; nothing was changed",
        hint=_restore_hint(root),
    )


def _restore_hint(root: str | os.PathLike[str] | None) -> str:
    """How to put back a good adopted.log (git commands run in `root`; None: the current folder)."""
    restore = "git" if root is None else git_in(root)
    return (f"see who wrote it: `{restore} log --stat -- {LOG_RELPATH}`; restore a good version "
            f"(`{restore} checkout <commit> -- {LOG_RELPATH}`) and commit it")  # fmt: skip


def refuse_too_many_atoms(text: str, where: str | os.PathLike[str],
                          root: str | os.PathLike[str] | None = None) -> None:  # fmt: skip
    """TooManyAtomsError (exit 3) when the log `text` (of `where`) names more than MAX_LOG_ATOMS
    atoms; the hint's git commands run in `root` (None: the current folder). The verbs read a
    log whole, into an entry per line and an atom per id: a cloned log of 200,000 made-up ids
    took `stage` and `status` ~20 s and over 1 GB, and the session end's capture as much. The
    hooks already give nothing of such a log (log_fold.TooManyAtoms). A log in a file is
    judged before it is read (read_counted)."""
    if names_too_many_atoms(text):
        raise too_many_atoms_error(where, root)


def file_has_a_long_line(fh: BinaryIO, limit: int = MAX_LOG_LINE_BYTES) -> int | None:
    """The number of the first line of the file open (binary) in `fh`, read from where it
    stands, that runs to `limit` bytes without its end; None when none does. Read a chunk at a
    time, never further than that line's first `limit` bytes."""
    run, lines = 0, 0
    while chunk := fh.read(_COUNT_CHUNK):
        first = chunk.find(b"\n")
        if first < 0:
            run += len(chunk)
        elif run + first >= limit:
            return lines + 1
        else:  # (a chunk is shorter than `limit`: no line inside one can run that long)
            lines += chunk.count(b"\n")
            run = len(chunk) - chunk.rfind(b"\n") - 1
        if run >= limit:
            return lines + 1
    return None


def line_too_long_error(where: str | os.PathLike[str], line: int,
                        root: str | os.PathLike[str] | None = None) -> LogLineTooLongError:  # fmt: skip
    return LogLineTooLongError(
        f"{os.fspath(where)}: line {line} is longer than any entry ({MAX_LOG_LINE_BYTES >> 20} MB and on; "
        "adopt writes a few KB): the log was not read; nothing was changed",
        hint=_restore_hint(root),
    )


def read_counted(fd: int, where: str | os.PathLike[str], root: str | os.PathLike[str] | None = None) -> bytes:
    """The bytes of the log open on `fd` (closed here), once it is known to name no more than
    MAX_LOG_ATOMS atoms (file_names_too_many_atoms; else TooManyAtomsError, as
    refuse_too_many_atoms), to hold no line longer than MAX_LOG_LINE_BYTES (else
    LogLineTooLongError) and to be no larger than MAX_LOG_BLOB_BYTES (else LogLineTooLongError
    naming its size): the refusals in that order, whatever else is wrong with the log.

    A log within MAX_LOG_BLOB_BYTES (its size from fstat) is read once and counted and scanned
    in memory: it was read three times (counted, scanned, then read), at every hook and verb
    that reads it. A larger one, the only kind the size refuses, is counted and scanned from
    the file, never read whole: the count stops at the line naming one atom too many, the scan
    at the first long line, so that it is refused for its atoms before its length or size. (A
    log within that size naming too many atoms is read whole before it is refused: no more
    than any log it accepts costs.)"""
    with open(fd, "rb", closefd=True) as fh:
        if os.fstat(fh.fileno()).st_size <= MAX_LOG_BLOB_BYTES:
            raw = fh.read()
            if len(raw) <= MAX_LOG_BLOB_BYTES:
                # The same scans of the same bytes, each skipped where it cannot refuse: fewer
                # lines than MAX_LOG_ATOMS name no more atoms; fewer bytes hold no long line.
                _refuse_counted(io.BytesIO(raw), where, root, raw.count(b"\n") >= MAX_LOG_ATOMS,
                                len(raw) >= MAX_LOG_LINE_BYTES)  # fmt: skip
                return raw
            fh.seek(0)  # it grew past any log meanwhile: judged as a larger one
        _refuse_counted(fh, where, root)
        size = os.fstat(fh.fileno()).st_size
        if size > MAX_LOG_BLOB_BYTES:
            raise LogLineTooLongError(
                f"{os.fspath(where)} is {size} bytes, more than any log ({MAX_LOG_BLOB_BYTES >> 20} MB): "
                "it was not read; nothing was changed",
                hint=_restore_hint(root))  # fmt: skip
        fh.seek(0)
        return fh.read()


def _refuse_counted(fh: BinaryIO, where: str | os.PathLike[str], root: str | os.PathLike[str] | None,
                    count: bool = True, scan: bool = True) -> None:  # fmt: skip
    """read_counted's first two refusals, of the log in `fh` read from its start: too many
    atoms (unless not `count`), then a line too long (unless not `scan`)."""
    if count and file_names_too_many_atoms(fh):
        raise too_many_atoms_error(where, root)
    fh.seek(0)
    long_line = file_has_a_long_line(fh) if scan else None
    if long_line is not None:
        raise line_too_long_error(where, long_line, root)


def decoded(raw: bytes) -> str:
    """`raw` as UTF-8 text with its line ends made "\n", as a file opened as text reads it
    (read_inside: universal newlines); UnicodeDecodeError when it is not UTF-8."""
    text = raw.decode("utf-8")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def log_too_many_atoms(exc: TooManyAtomsError, start: str | os.PathLike[str] | None) -> None:
    """errors.log's line for a refused log, once a day: a background job (the session end's
    capture) meets it at every session's end while the log lasts."""
    from agent_memory.gitio.state import log_error

    log_error(f"{exc.message} (hint: {exc.hint})", start, once_a_day=True)


def read_log(root: Path | None) -> tuple[list[adopted_log.LogEntry], list[str]]:
    from agent_memory.committed import adopted_log

    if root is None:
        return [], []
    path = root / adopted_log.LOG_PATH
    try:
        raw = read_counted(open_inside(root, adopted_log.LOG_PATH), path, root)
    except FileNotFoundError:
        return [], []
    except OSError as exc:
        return [], [f"{path}: unreadable: {exc}"]
    try:
        text = decoded(raw)
    except UnicodeDecodeError:
        # One bad byte (a pull runs no hook) costs its own line, not every entry of the log.
        text, bad = decode_lines(raw)
        entries, errors = adopted_log.parse(text)
        return entries, [f"{path}: {b}" for b in bad] + errors
    return adopted_log.parse(text)


def _utf8_lines(raw: bytes) -> Iterator[tuple[int, int, bytes, UnicodeDecodeError | None]]:
    """(number, offset in the file, bytes, why it is not UTF-8 or None) of each line of `raw`:
    what decode_lines (the readers) and repair_lines (`validate --fix`) go through."""
    offset = 0
    for number, line in enumerate(raw.split(b"\n"), 1):
        try:
            line.decode("utf-8")
            problem = None
        except UnicodeDecodeError as exc:
            problem = exc
        yield number, offset, line, problem
        offset += len(line) + 1


def decode_lines(raw: bytes) -> tuple[str, list[str]]:
    """`raw` as UTF-8, line by line: a line that is not UTF-8 is left out (blank) and named,
    `line N (byte offset O): not UTF-8`, O being the first bad byte's offset in the file."""
    lines, bad = [], []
    for number, offset, line, problem in _utf8_lines(raw):
        lines.append("" if problem else line.decode("utf-8"))
        if problem:
            bad.append(f"line {number} (byte offset {offset + problem.start}): not UTF-8")
    return "\n".join(lines), bad


def repair_lines(raw: bytes, readable: Callable[[str], bool]) -> tuple[str, list[str], list[str]]:
    """`raw` made UTF-8 for `validate --fix`, nothing readable lost: (text, repaired, removed).
    A line that is not UTF-8 but `readable` once its bad bytes are U+FFFD (a record with one
    Latin-1 letter in its claim) is kept so; any other is removed: `repaired` and `removed` name
    each (`line N (byte offset O)`). Every UTF-8 line is kept as it is."""
    lines: list[str] = []
    repaired: list[str] = []
    removed: list[str] = []
    for number, offset, line, problem in _utf8_lines(raw):
        if problem is None:
            lines.append(line.decode("utf-8"))
            continue
        where = f"line {number} (byte offset {offset + problem.start})"
        text = line.decode("utf-8", "replace")
        if readable(text):
            lines.append(text)
            repaired.append(where)
        else:
            removed.append(where)
    return "\n".join(lines), repaired, removed


def decode_utf8(raw: bytes, path: str | os.PathLike[str], rel: str, restore: str) -> str:
    """A memory file's bytes as text, or the one-line refusal (`utf8_error`) when not UTF-8:
    for the verbs that change memory (adopt, stage, remember, pr), which must not build on a
    file they cannot read whole."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise utf8_error(path, rel, raw, exc, restore) from None


def utf8_error(path: str | os.PathLike[str], rel: str, raw: bytes, exc: UnicodeDecodeError,
               restore: str) -> Exception:  # fmt: skip
    """The one-line refusal for a memory file that is not UTF-8: where, and how to get it back."""
    from agent_memory.committed.adopted_log import LOG_PATH
    from agent_memory.model.errors import RepoStateError

    line = raw.count(b"\n", 0, exc.start) + 1
    repair = ("repair it with `git memory validate --fix` (it keeps every readable line) and commit it, or "
              if rel == LOG_PATH else "")  # fmt: skip
    return RepoStateError(
        f"{os.fspath(path)}: not UTF-8 at line {line} (byte offset {exc.start}); nothing was changed",
        hint=f"{repair}restore it from history: `{restore} checkout HEAD -- {rel}` (or find the last good "
        f"version with `{restore} log -p -- {rel}`), then run `git memory validate`",
    )


def _is_stamp(value: object) -> bool:
    """`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$` (adopted_log._TS_RE)."""
    if not isinstance(value, str) or len(value) != 20 or not value.isascii():
        return False
    digits = value[0:4] + value[5:7] + value[8:10] + value[11:13] + value[14:16] + value[17:19]
    return digits.isdigit() and value[4] == value[7] == "-" and value[10] == "T" and value[13] == value[16] == ":" and value[19] == "Z"


def _valid_entry(obj: Any) -> bool:
    """adopted_log._structural_errors(obj) == [] (the checks the session start relies on)."""
    if not isinstance(obj, dict):  # keys of a newer version are read without them
        return False
    op = obj.get("op")
    if op not in _SETTING_OPS and op not in REMOVING_OPS:
        return False
    if not _is_stamp(obj.get("at")):
        return False
    if "review_commit" in obj and not (isinstance(obj["review_commit"], str) and obj["review_commit"]):
        return False
    atom = obj.get("atom")
    # An id is printed in commands to paste (`consolidate`'s steps, `resolve`, hints): one a
    # hand-written line made `atm_0;touch${IFS}x` ran a command of the log's writer.
    if not isinstance(atom, dict) or not is_atom_id(atom.get("id")) or not isinstance(atom.get("claim"), str):
        return False
    if atom.get("tier") not in ("L2", "L3"):
        return False
    if "superseded_by" in atom and not is_atom_id(atom["superseded_by"]):
        return False
    return not (op == "supersede" and not atom.get("superseded_by"))


def hashable_form(value: Any) -> Any:
    """A JSON value as nested tuples, each scalar with its type name: equal values (dict keys in
    any order) give equal, hashable forms, and 1 is not True is not "1"."""
    if isinstance(value, dict):
        return tuple(sorted((k, hashable_form(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(hashable_form(v) for v in value)
    return (type(value).__name__, value)


def entry_of(line: str) -> dict[str, Any] | None:
    """The log entry a line holds, or None for a blank line, one that is not JSON (or nested too
    deep: that line only) or not an entry (`git memory validate` reports those)."""
    if not line.strip():
        return None
    try:
        # The first line of a log saved with a byte-order mark (committed/line_ends.py) opens
        # with it; no entry does, so it is dropped wherever a line has one (a union merge may
        # have moved that line down).
        obj = loads_bounded(line.removeprefix(BOM))
    except ValueError:
        return None
    if not _valid_entry(obj) or not isinstance(obj, dict):
        return None
    obj["atom"] = without_local_fields(obj["atom"])
    return obj


def _counts(items: list[tuple[str, str, str]]) -> dict[tuple[str, str, str], int]:
    counts: dict[tuple[str, str, str], int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def fold_text(text: str) -> dict[str, Atom]:
    """The atoms an adopted.log holds, by id (sorted): `adopted_log.fold(adopted_log.parse(text)[0])`
    (only an adopt makes an atom held; another setting op changes a held one only). Bad lines
    are skipped (`git memory validate` reports them)."""
    parsed: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(text.split("\n")):
        obj = entry_of(raw.rstrip("\r"))
        if obj is not None:
            parsed.append((number, obj))
    # Identical lines count once. Two lines can only be identical if they share the stamp, the
    # op and the atom: the (slow) canonical form is computed only for lines that do.
    stamps = [(obj["at"], obj["op"], obj["atom"]["id"]) for _, obj in parsed]
    shared = {stamp for stamp, n in _counts(stamps).items() if n > 1}
    entries: list[tuple[str, int, str, Atom]] = []
    seen: set[Any] = set()
    for (number, obj), stamp in zip(parsed, stamps, strict=True):
        if stamp in shared:
            key = hashable_form(obj)
            if key in seen:
                continue
            seen.add(key)
        entries.append((obj["at"], number, obj["op"], obj["atom"]))
    held: dict[str, Atom] = {}
    for _, _, op, atom in sorted(entries, key=lambda e: (e[0], e[1])):
        if op in REMOVING_OPS:
            held.pop(atom["id"], None)
        elif op == "adopt" or atom["id"] in held:  # only an adopt (re)creates an atom
            held[atom["id"]] = atom
    return {key: held[key] for key in sorted(held)}


def held(root: str | os.PathLike[str] | None) -> dict[str, Atom]:
    """The atoms currently held in the tier whose work tree is `root` (all of them, including
    decayed and superseded ones, which stay reachable). An unreadable log holds nothing here
    (`git memory validate` reports it); one naming more than MAX_LOG_ATOMS atoms is refused
    (TooManyAtomsError), not folded."""
    if root is None:
        return {}
    where = os.path.join(os.fspath(root), LOG_RELPATH)
    try:
        raw = read_counted(open_inside(root, LOG_RELPATH), where, root)
    except OSError:
        return {}
    try:
        text = decoded(raw)
    except UnicodeDecodeError:
        # A line that is not UTF-8 (a pull brings it in without any hook) is left out; the
        # others are held, and one errors.log line names it (`git memory validate`: every one).
        text, bad = decode_lines(raw)
        from agent_memory.gitio.state import log_error

        log_error(f"{where}: {bad[0]}: that line was left out; "
                  "`git memory validate` names every bad line", root)  # fmt: skip
    return fold_text(text)


def l2_atoms(workdir: str | os.PathLike[str] | None) -> dict[str, Atom]:
    return held(workdir)


def l3_atoms(home: str | os.PathLike[str] | None = None) -> dict[str, Atom]:
    return held(home or memory_home_dir())
