"""Telling a ref that cannot be read from a ref that was never made.

`refs.read_ref` (the per-prompt path) and libgit2 both answer "absent" for a ref whose loose
file is empty or garbage (a power cut after an unsynced write) and for one whose line in
`packed-refs` is malformed — libgit2 even misses the *other* refs of such a file. Taken for
"never initialised", that sent people to `git memory init`, which made an empty store and a
new root commit over the ones that existed. Here the files are read the way git reads them,
strictly: a ref is an object id, absent (neither loose nor packed, the files well-formed), or
`UnreadableRef` naming the file and line git itself stops at. And `last_logged` reads a ref's
reflog, which outlives a ref lost this way. Only `os`: the hooks use it on their error path.
"""

import os

ZERO_OID = "0" * 40
_HEX = frozenset("0123456789abcdefABCDEF")
_PACKED_HEADER = "# pack-refs with:"


class UnreadableRef(Exception):
    """A ref git cannot read either: it exists in some form, so it is not "absent"."""

    def __init__(self, ref: str, reason: str) -> None:
        super().__init__(f"cannot read {ref}: {reason}")
        self.ref = ref
        self.reason = reason


def _is_hex_oid(text: str) -> bool:
    return len(text) in (40, 64) and all(c in _HEX for c in text)


def _leading_oid(text: str) -> str | None:
    """The object id a loose ref file holds, read as git reads it: the hex digits, then the end
    or whitespace (git ignores what follows a space)."""
    for size in (64, 40):
        head = text[:size]
        if _is_hex_oid(head) and (len(text) == size or text[size].isspace()):
            return head.lower()
    return None


def probe_ref(common_dir: "str | os.PathLike[str]", refname: str, _depth: int = 0) -> str | None:
    """The object id `refname` names, read strictly: None only when git too finds no such ref
    (no loose file, and a well-formed `packed-refs` without it); UnreadableRef otherwise."""
    base = os.fspath(common_dir)
    path = os.path.join(base, *refname.split("/"))
    try:
        with open(path, "rb") as fh:
            raw = fh.read(4096)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raw = None  # not loose: git looks in packed-refs
    except OSError as exc:
        raise UnreadableRef(refname, f"{_shown(base, path)}: {exc.strerror or exc}") from None
    if raw is not None:
        text = raw.decode("utf-8", "replace")
        if text.startswith("ref:"):
            target = text[4:].strip()
            if not target or _depth >= 5:
                raise UnreadableRef(refname, f"{_shown(base, path)} is a symbolic ref to nowhere")
            return probe_ref(common_dir, target, _depth + 1)
        oid = _leading_oid(text)
        if oid is None:
            what = "is empty" if not text.strip() else "holds no object id"
            raise UnreadableRef(
                refname, f"{_shown(base, path)} {what} (git reports it as a broken ref)"
            )
        return oid
    return _packed(base, refname)


def _packed(base: str, refname: str) -> str | None:
    path = os.path.join(base, "packed-refs")
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UnreadableRef(refname, f"{_shown(base, path)}: {exc.strerror or exc}") from None
    text = data.decode("utf-8", "replace")
    if text and not text.endswith("\n"):
        raise UnreadableRef(
            refname, "the last line of .git/packed-refs is cut off (git cannot read the file)"
        )
    found: str | None = None
    after_ref = False
    for number, line in enumerate(text.split("\n")[:-1], start=1):
        if number == 1 and line.startswith(_PACKED_HEADER):
            continue
        if line.startswith("^") and after_ref and _is_hex_oid(line[1:]):
            after_ref = False  # the peeled value of the tag on the line before
            continue
        oid, space, name = line.partition(" ")
        if not (_is_hex_oid(oid) and space and name and not name[0].isspace()):
            mine = refname in line
            raise UnreadableRef(refname, f"line {number} of .git/packed-refs is malformed"
                                         + ("" if mine else " (git cannot read the file)"))  # fmt: skip
        if name == refname:
            found = oid.lower()
        elif name.strip() == refname:
            # git ignores a ref whose name is broken: the store would look absent.
            raise UnreadableRef(
                refname, f"line {number} of .git/packed-refs names it with a broken name"
            )
        after_ref = True
    return found


def _shown(base: str, path: str) -> str:
    """`path` as the user knows it: `.git/…` for a repository's own git dir."""
    rel = os.path.relpath(path, base)
    return os.path.join(".git", rel) if os.path.basename(base) == ".git" else path


def last_logged(common_dir: "str | os.PathLike[str]", refname: str) -> str | None:
    """The object id `refname`'s reflog recorded last (None without a reflog, or when its last
    entry deleted the ref). git deletes a reflog with its ref (`branch -D`, `update-ref -d`),
    so a reflog that names a commit while the ref is missing says the ref was lost."""
    path = os.path.join(os.fspath(common_dir), "logs", *refname.split("/"))
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - 65536))
            tail = fh.read().decode("utf-8", "replace")
    except OSError:
        return None
    for line in reversed(tail.splitlines()):
        fields = line.split(" ", 2)
        if len(fields) == 3 and _is_hex_oid(fields[0]) and _is_hex_oid(fields[1]):
            new = fields[1].lower()
            return None if set(new) == {"0"} else new
    return None


def logged_oids(common_dir: "str | os.PathLike[str]", refname: str, limit: int = 200) -> list[str]:
    """The distinct object ids `refname`'s reflog names (each entry's new value, then its old
    one), newest first, at most `limit`: where the ref was, for finding its last good value
    after it was moved (`git branch -f`) to something else."""
    path = os.path.join(os.fspath(common_dir), "logs", *refname.split("/"))
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - (1 << 20)))
            tail = fh.read().decode("utf-8", "replace")
    except OSError:
        return []
    out: list[str] = []
    for line in reversed(tail.splitlines()):
        fields = line.split(" ", 2)
        if len(fields) < 3 or not (_is_hex_oid(fields[0]) and _is_hex_oid(fields[1])):
            continue
        for oid in (fields[1].lower(), fields[0].lower()):
            if set(oid) != {"0"} and oid not in out:
                out.append(oid)
        if len(out) >= limit:
            break
    return out[:limit]


def head_branch(git_dir: "str | os.PathLike[str]") -> str | None:
    """The branch HEAD names (`refs/heads/…`), None when HEAD is detached; UnreadableRef when
    HEAD holds neither."""
    path = os.path.join(os.fspath(git_dir), "HEAD")
    try:
        with open(path, "rb") as fh:
            text = fh.read(4096).decode("utf-8", "replace")
    except OSError as exc:
        raise UnreadableRef("HEAD", f"{path}: {exc.strerror or exc}") from None
    if text.startswith("ref:") and text[4:].strip():
        return text[4:].strip()
    if _leading_oid(text) is not None:
        return None
    raise UnreadableRef("HEAD", f"{path} holds neither a branch nor a commit")


def check_head(git_dir: "str | os.PathLike[str]", common_dir: "str | os.PathLike[str]") -> None:
    """Raise UnreadableRef when a commit on HEAD would not land on the branch's history: HEAD
    or its branch cannot be read, or the branch looks unborn while its reflog says it had
    commits (git would then make a new root commit)."""
    branch = head_branch(git_dir)
    if branch is None:
        return
    if probe_ref(common_dir, branch) is not None:
        return
    logged = last_logged(common_dir, branch)
    if logged is not None:
        raise UnreadableRef(branch, f"it is missing, but its reflog says it was at {logged[:12]}")


def why_absent(common_dir: "str | os.PathLike[str]", refname: str) -> str | None:
    """For a ref a quick reader found absent where it should exist: why, as one sentence —
    it cannot be read, or its reflog names where it was — or None when it was never made."""
    try:
        if probe_ref(common_dir, refname) is not None:
            return None
    except UnreadableRef as exc:
        return f"{exc} (the ref is damaged, not missing: see `git fsck`; `git memory status` says how to restore it)"
    logged = last_logged(common_dir, refname)
    if logged:
        return (f"{refname} is missing, but its reflog says it was at {logged[:12]} "
                "(`git memory status` says how to restore it)")  # fmt: skip
    return None
