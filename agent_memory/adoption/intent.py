"""A memory commit is all or nothing across a kill (`kill -9`, a power cut of the process).

Before `commit_or_restore` writes an item's files it records its intent in
`<git dir>/agent-memory/memory-commit.json`: the HEAD it applies to, the commit's subject and
Atom-Id, and for each memory file its text before (None: it did not exist) and the blob id of
the text written. The record is removed once the commit has landed, or once the files are
restored. Records are written and removed under the memory lock, which the kernel releases
when its holder dies, so one found by the next holder was left by a killed process, and
`recover` finishes or rolls back that item before anything else reads the memory files:

- landed: a commit on top of the recorded HEAD carries the item (its Atom-Id and subject, or
  exactly the files written: a person who committed them by hand finished it too) → whole;
  the caller records its L1 mark;
- not landed: each file that still holds what was written gets its old text back, its index
  entry too, after git's lock files that the killed commit left (`index.lock`,
  `next-index-*.lock`) are removed by the staleness check the store uses (`gitio.locks`);
- a file edited since, or changed by a commit since: nothing is touched, and RepoStateError
  says which file and what to do.

A `git commit` orphaned by the kill may still be running (its pre-commit hook): `recover`
waits for it before it judges.

`adopt --all` writes the L1 marks of a run as one memory/atoms commit at its end.
Until then each landed item is listed in `adopt-run-<pid>.log`, which the run holds locked; a
list whose lock can be taken belongs to a run that died, and the next adopt records its marks.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from agent_memory.adoption.locks import index_lock_problem, memory_lock_held, try_lock, unlock
from agent_memory.committed import render, worktree
from agent_memory.committed.files import TierFiles
from agent_memory.committed.line_ends import as_lf
from agent_memory.gitio import repo as git
from agent_memory.gitio.locks import INDEX_WRITERS, clear_stale, git_processes_in
from agent_memory.gitio.state import overwrite, replace_text, state_dir
from agent_memory.model.errors import RepoStateError
from agent_memory.model.policy import STALE_LOCK_SECONDS
from agent_memory.model.trailers import trailer

INTENT_NAME = "memory-commit.json"
RUN_PREFIX = "adopt-run-"
ORPHAN_WAIT_SECONDS = 120.0  # a killed adopt's `git commit` still running its hooks


@dataclass(frozen=True)
class Intent:
    head: str | None
    subject: str
    atom: str | None
    before: dict[str, str | None]  # path → text before (None: absent)
    after: dict[str, str]  # path → blob id of the text written


@dataclass(frozen=True)
class Recovered:
    atom: str | None
    subject: str
    commit: str | None  # the item's commit when it had landed; None when rolled back


def intent_path(repo: git.Repo) -> Path:
    # The git dir of this work tree (not the common dir): the index and HEAD it concerns are
    # this work tree's.
    return state_dir(repo.git_dir) / INTENT_NAME


def begin(repo: git.Repo, head: str | None, message: str, before: TierFiles, after: TierFiles,
          existed: dict[str, bool]) -> None:  # fmt: skip
    record = {
        "pid": os.getpid(),
        "head": head,
        "subject": message.split("\n", 1)[0],
        "atom": trailer(message, "Atom-Id"),
        "before": {rel: text if existed.get(rel, True) else None for rel, text in before.paths().items()},
        "after": {rel: git.blob_oid(text.encode("utf-8")) for rel, text in after.paths().items()},
    }
    replace_text(str(intent_path(repo)), json.dumps(record))


def end(repo: git.Repo) -> None:
    try:
        intent_path(repo).unlink()
    except FileNotFoundError:
        pass


def read(repo: git.Repo) -> Intent | None:
    try:
        data = json.loads(intent_path(repo).read_text("utf-8"))
        return Intent(head=data["head"], subject=str(data["subject"]), atom=data.get("atom"),
                      before=dict(data["before"]), after=dict(data["after"]))  # fmt: skip
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RepoStateError(
            f"{intent_path(repo)} is unreadable ({exc}): it records a memory commit a killed "
            "git memory command left half done",
            hint="compare the memory files with `git status` and `git diff`, restore or commit them, "
            "then remove that file",
        ) from exc


# --- recovery ---------------------------------------------------------------------------------


def recover(repo: git.Repo) -> Recovered | None:
    """Finish or roll back the memory commit a killed process left (see the module docstring).
    The caller holds the memory lock."""
    found = read(repo)
    if found is None:
        return None
    _wait_for_orphaned_commit(repo)
    commit = _landed(repo, found)
    if commit is None:
        _roll_back(repo, found)
    else:
        _clear_git_locks(repo)
    end(repo)
    return Recovered(atom=found.atom, subject=found.subject, commit=commit)


def _repo_dirs(repo: git.Repo) -> list[Path]:
    return [d for d in (repo.workdir, repo.git_dir) if d is not None]


def _wait_for_orphaned_commit(repo: git.Repo) -> None:
    """While `index.lock` exists and a git that writes the index runs in the repository, a
    commit is in flight (the killed adopt's, whose hooks run on): wait for it. Other git
    processes (an fsmonitor daemon, a pager's `git log`, `git cat-file --batch`) are no commit."""
    lock = repo.git_dir / "index.lock"
    deadline = time.monotonic() + ORPHAN_WAIT_SECONDS
    while lock.exists():
        running = git_processes_in(*_repo_dirs(repo), verbs=INDEX_WRITERS)
        if not running:
            return
        if time.monotonic() > deadline:
            raise RepoStateError(
                f"an interrupted memory commit cannot be finished: git (pid {running[0]}) is still "
                "running in this repository",
                hint="run the command again when that git command has finished",
            )
        time.sleep(0.1)


def _landed(repo: git.Repo, found: Intent) -> str | None:
    """The commit on top of the recorded HEAD that carries the item, if there is one."""
    spec = ["HEAD", f"^{found.head}"] if found.head else ["HEAD"]
    proc = git.run_git(repo.cwd, "rev-list", "--reverse", "--parents", *spec, check=False)
    for line in proc.stdout.splitlines():
        oid, *parents = line.split()
        if parents != ([found.head] if found.head else []):
            continue
        # A commit too large for any of ours (a pull's, of a huge message) is not the item's.
        message = git.message_within(repo, oid)
        if message is None:
            continue
        if found.atom and trailer(message, "Atom-Id") == found.atom and message.startswith(found.subject):
            return oid
        if all((git.entry_at(repo, oid, rel) or (0, ""))[1] == blob for rel, blob in found.after.items()):
            return oid
    return None


def _roll_back(repo: git.Repo, found: Intent) -> None:
    root = repo.workdir
    assert root is not None
    # Put back through no link a pull brought in meanwhile (committed/worktree.py).
    worktree.refuse_odd_paths(root, list(found.after), hint=f"{worktree.LINK_HINT}; then run the command again: "
                              "it rolls back the memory commit a killed git memory command left half done")  # fmt: skip
    head = git.head_commit(repo)
    for rel, blob in found.after.items():
        path = root / rel
        if head != found.head and _blob_at(repo, head, rel) != _blob_at(repo, found.head, rel):
            raise _cannot(rel, "a commit made since the interruption changed it")
        current = _read(path)
        prior = found.before.get(rel)
        if current is None or git.blob_oid(current) != blob:
            if current == (prior.encode("utf-8") if prior is not None else None):
                continue  # never written, or already put back
            raise _cannot(rel, "it was edited since")
    _clear_git_locks(repo)
    for rel in found.after:
        prior = found.before.get(rel)
        path = root / rel
        if prior is None:
            path.unlink(missing_ok=True)
        else:
            overwrite(path, prior.encode("utf-8"))
    proc = git.run_git(root, "reset", "-q", "--", *found.after, check=False)
    if proc.returncode != 0:
        problem = index_lock_problem(repo, wait=0.0)
        raise problem or RepoStateError(f"git reset failed: {proc.stderr.strip()}")


def _cannot(rel: str, why: str) -> RepoStateError:
    return RepoStateError(
        f"a killed git memory command left a memory commit half done, and {rel} cannot be "
        f"put back: {why}",
        hint=f"look at `git diff -- {rel}`, commit or restore the file, then run the command "
        "again (the item stays waiting on memory/review if it is not committed)",
    )


def _blob_at(repo: git.Repo, rev: str | None, rel: str) -> str | None:
    entry = git.entry_at(repo, rev, rel) if rev else None
    return entry[1] if entry else None


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _clear_git_locks(repo: git.Repo) -> list[Path]:
    """git's lock files a commit killed mid-way leaves, when no git runs in the repository."""
    locks = [repo.git_dir / "index.lock", repo.git_dir / "HEAD.lock", *repo.git_dir.glob("next-index-*.lock")]
    return clear_stale(locks, _repo_dirs(repo), STALE_LOCK_SECONDS, verbs=INDEX_WRITERS)


def interrupted(repo: git.Repo) -> Intent | None:
    """The record of a memory commit left half done, for `validate` (None when there is none,
    or when a live process is making it: it holds the memory lock)."""
    found = read(repo)
    return None if found is None or memory_lock_held(repo) else found


def uncommitted(repo: git.Repo, files: TierFiles) -> list[str]:
    """The memory files (of `files`, read from the work tree) whose memory content differs
    from HEAD: the log, and the tier's block of the target file (what is outside the markers
    is the person's). An adopt between writing an item and committing it leaves this for a
    moment; one that was killed there leaves it for good."""
    out = []
    for rel, text in files.paths().items():
        data = git.read_blob_at(repo, "HEAD", rel)
        committed = data.decode("utf-8", errors="replace") if data is not None else ""
        if rel == files.target_name:
            try:
                text, committed = render.block_of(text, files.tier) or "", render.block_of(committed, files.tier) or ""
            except render.MalformedBlockError:
                pass  # compared whole: the broken markers are reported on their own
        # CRLF in the work tree is not a change: core.autocrlf=true checks the committed LF
        # files out so, and `git status` calls them unchanged
        if as_lf(text) != as_lf(committed):
            out.append(rel)
    return out


# --- the L1 marks of a run that died ------------------------------------------------------------


class RunList:
    """The items one adopt run has landed whose L1 marks are not written yet: a file the run
    holds locked until the marks are on memory/atoms."""

    def __init__(self, repo: git.Repo) -> None:
        self.repo = repo
        self.path: Path | None = None
        self.fd: int | None = None

    def add(self, atom: str, state: str, commit: str) -> None:
        """Best effort: on a full disk the item is adopted all the same, and `stage` marks
        adopted atoms that lack their mark (store.decisions.mark_held)."""
        try:
            if self.fd is None:
                self.path = state_dir(self.repo.common_dir) / f"{RUN_PREFIX}{os.getpid()}.log"
                self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
                try_lock(self.fd)
            os.write(self.fd, f"{atom} {state} {commit}\n".encode())
        except OSError:
            pass

    def close(self, written: bool) -> None:
        """The list is removed once its marks are `written`; otherwise it is left, unlocked,
        for the next adopt to record."""
        if self.fd is None:
            return
        if written and self.path is not None:
            self.path.unlink(missing_ok=True)
        unlock(self.fd)
        os.close(self.fd)
        self.fd = None


def _read_all(fd: int) -> bytes:
    """The whole file behind `fd`, from its start (empty once its owner has unlinked it after
    writing its marks — nothing left to record)."""
    if os.fstat(fd).st_nlink == 0:
        return b""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks)


@contextmanager
def dead_runs(repo: git.Repo) -> Iterator[list[tuple[str, str, str]]]:
    """The (atom, state, commit) marks listed by runs that died, while their lists are held
    locked; once the caller has recorded them (the block ends without an exception) the lists
    are removed."""
    folder = state_dir(repo.common_dir, create=False)
    held: list[tuple[Path, int]] = []
    marks: list[tuple[str, str, str]] = []
    try:
        for path in sorted(folder.glob(f"{RUN_PREFIX}*.log")) if folder.is_dir() else []:
            try:
                fd = os.open(path, os.O_RDWR)
            except OSError:
                continue
            if not try_lock(fd):
                os.close(fd)  # a live run
                continue
            held.append((path, fd))
            # Read through the descriptor we hold: a run that finished between our open and our
            # lock has unlinked its list (its marks are written), and reading by path would fail.
            for line in _read_all(fd).decode("utf-8", errors="replace").splitlines():
                parts = line.split()
                if len(parts) == 3:
                    marks.append((parts[0], parts[1], parts[2]))
        yield marks
        for path, _ in held:
            path.unlink(missing_ok=True)
    finally:
        for _, fd in held:
            unlock(fd)
            os.close(fd)
