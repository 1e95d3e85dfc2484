"""Exit codes and the exceptions that map onto them (docs/cli.md).

0 ok · 1 refused / validation failed / findings · 2 usage or bad input ·
3 repository state · 130 interrupted. Anything unexpected is 3 with a traceback in the log.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_REPO_STATE = 3
EXIT_INTERRUPTED = 130


class FatalError(RuntimeError):
    """An expected failure: printed as one line plus an optional hint, no traceback."""

    exit_code = EXIT_REFUSED

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class NotRegularFile(OSError):
    """A path opened for reading that is a FIFO, a device or a directory (or a link to one):
    refused before a byte is read (a FIFO would block, /dev/zero never end). One class for the
    transcript reader and the auto-memory walk; here because the walk's fast path may not load
    the reader's imports."""


class RefusedError(FatalError):
    exit_code = EXIT_REFUSED


class UsageError(FatalError):
    exit_code = EXIT_USAGE


class AmbiguousError(UsageError):
    """A name matches several things (atoms, review items): the user must pick one."""


class RepoStateError(FatalError):
    exit_code = EXIT_REPO_STATE


class RefUnreadableError(RepoStateError):
    """A ref that exists but cannot be read (a broken loose ref file, a malformed line of
    `packed-refs`), or a branch lost while its reflog remembers it. Never "not initialised":
    the hint points at the file to repair, `git fsck` and the reflog; nothing is written."""


class NotAStoreError(RefUnreadableError):
    """`memory/atoms` names something that is no commit of the L1 store: a blob, or a commit of
    the project's (`git branch -f memory/atoms main`, a commit or merge made while it was
    checked out). Never read as an empty store nor migrated over: the hint names the store's
    last commit in the branch's reflog; nothing is written."""


class InvalidAtomError(FatalError):
    """An atom that fails the schema or a store invariant."""

    exit_code = EXIT_REFUSED

    def __init__(self, message: str, errors: list[str] | None = None, hint: str | None = None) -> None:
        super().__init__(message, hint)
        self.errors = errors or [message]


class RefMovedError(RuntimeError):
    """The compare-and-set ref update lost a race; callers re-read, re-merge and retry."""


# What the operating system says when a file system is full, over quota, or a file would grow
# past the process's size limit (RLIMIT_FSIZE): git and libgit2 print the same strerror text.
DISK_FULL_TEXTS = ("No space left on device", "Disk quota exceeded", "File too large")


def disk_full(exc: BaseException | str) -> bool:
    """Whether `exc` (an exception, or a git's stderr) says the disk is full."""
    import errno

    if isinstance(exc, DiskFullError):
        return True
    if isinstance(exc, OSError) and exc.errno in {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", -1)}:
        return True
    text = exc if isinstance(exc, str) else f"{exc} {getattr(exc, 'message', '')}"
    return any(t in text for t in DISK_FULL_TEXTS)


# What the operating system says when a file or folder may not be written (permissions, a
# read-only mount); libgit2 reports it as an OSError without an errno, with this text.
NO_PERMISSION_TEXTS = ("Permission denied", "Read-only file system", "Operation not permitted")
PERMISSION_HINT = ("check that you may write to the repository's memory files and its .git folder "
                   "(ls -ld .memory .git .git/objects), then run the command again")


def no_permission(exc: BaseException) -> bool:
    """Whether `exc` is the file system refusing a write (or read) for permissions."""
    import errno

    if not isinstance(exc, OSError):
        return False
    if exc.errno in {errno.EACCES, errno.EPERM, errno.EROFS}:
        return True
    return exc.errno is None and any(t in str(exc) for t in NO_PERMISSION_TEXTS)


def from_object_store(exc: BaseException) -> bool:
    """An OSError raised by libgit2 (pygit2 raises a plain OSError with no errno and no file
    name): the repository's files, never a transcript or a memory file, which are read and
    written with `os` (whose errors carry an errno) or refused with a subclass of OSError."""
    return type(exc) is OSError and exc.errno is None and exc.filename is None


class CommitSetupError(RepoStateError):
    """`git commit` cannot make any commit here, whatever it commits: no identity to commit
    with, or commit.gpgsign set with a key that does not sign. Not one item's fault: a batch
    stops at the first, with git's own setup named in the hint."""


class DiskFullError(RepoStateError):
    """The file system has no room for what a command writes. The message says what was done
    and what was not; nothing half-written is left."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message, hint or "free some space on the disk that holds the repository, "
                                          "then run the command again")  # fmt: skip


# The way back from a damaged object store: what git itself checks, then the reflog and a
# re-capture (memory/atoms is rebuilt from the transcripts; the ledger would skip them).
CORRUPT_HINT = ("`git fsck` lists the damage; move the damaged file aside, point the branch that holds it "
                "(usually memory/atoms) back at a sound commit from `git reflog <branch>` "
                "(`git update-ref refs/heads/<branch> <commit>`), then remove agent-memory/captured.log in the "
                "folder `git rev-parse --git-common-dir` prints (`.git`, but not in a linked work tree or a "
                "submodule) and run `git memory capture --all` to re-capture")  # fmt: skip


class CorruptObjectError(RepoStateError):
    """A git object that is damaged (a truncated or garbled loose file, a packed object git
    cannot read) or missing although a ref or a tree names it: which object, what reached it,
    what is wrong, and the way back."""

    def __init__(self, oid: str, damage: str | None = None, where: str | None = None,
                 path: str | None = None) -> None:  # fmt: skip
        self.oid, self.damage, self.where, self.path = oid, damage, where, path
        reached = f" ({where})" if where else ""
        what = f"corrupt: {damage}" if damage else "missing"
        stored = f" [{path}]" if path else ""
        super().__init__(f"git object {oid}{reached} is {what}{stored}", CORRUPT_HINT)

    @property
    def missing(self) -> bool:
        return self.damage is None


class OversizedObjectError(RepoStateError):
    """A commit (or annotated tag) larger than any agent-memory reads (MAX_COMMIT_OBJECT_BYTES), sized
    from its object header and not read: a cloned repository's commit of a huge message cost
    libgit2 its size twice over. Not damage: git reads it; we do not."""

    def __init__(self, oid: str, kind: str, size: int, limit: int, where: str | None = None) -> None:
        self.oid, self.kind, self.size, self.where = oid, kind, size, where
        reached = f" ({where})" if where and where != oid else ""
        super().__init__(
            f"{kind} {oid}{reached} is {size} bytes, more than the {limit} agent-memory reads of a {kind}: "
            "not read",
            "a message this large is no one's work note (a cloned repository's, most likely): point the "
            "branch that names it at a commit before it, or stage on another branch "
            "(`git config memory.base BRANCH`)")  # fmt: skip
