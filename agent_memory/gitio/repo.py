"""The git boundary: the only module that imports pygit2 or runs `git`.

pygit2 does the object plumbing (blobs, trees, commits: fast, no work tree, no index);
the `git` CLI does what must honour the user's configuration and hooks (`git commit` on the
user's branch) and the compare-and-set ref update, which pygit2 does not bind
(`git update-ref <ref> <new> <old>` is atomic under git's ref lock).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NewType

from agent_memory.gitio import objects
from agent_memory.gitio.refcheck import UnreadableRef, head_branch, last_logged, probe_ref
from agent_memory.gitio.refcheck import check_head as refcheck_head
from agent_memory.gitio.refs import (  # noqa: F401 - re-exported: git.ATOMS_REF
    ATOMS_REF,
    REPOSITORY_ENV,
    REVIEW_REF,
    Location,
    atom_paths,
    history_paths,
)
from agent_memory.gitio.state import find_git_dirs, state_dir
from agent_memory.model.checkout import set_repository
from agent_memory.model.controls import folder_project_name, plain_name
from agent_memory.model.errors import (
    NO_PERMISSION_TEXTS,
    PERMISSION_HINT,
    CommitSetupError,
    CorruptObjectError,
    DiskFullError,
    OversizedObjectError,
    RefMovedError,
    RefUnreadableError,
    RepoStateError,
    disk_full,
)
from agent_memory.model.programs import git_program

if TYPE_CHECKING:
    import pygit2

Oid = NewType("Oid", str)
ZERO_OID = "0" * 40
TOOL_NAME = "agent-memory"
TOOL_EMAIL = "agent-memory@localhost"

_HOOK_VARS = {*REPOSITORY_ENV, "GIT_PREFIX"}

# Which configuration a git process of ours runs with (SECURITY.md, "Which repository, which
# configuration"): it is started in a repository `gitio.refs` resolved — never a folder checked
# out inside another repository's work tree — with the repository-selecting variables removed,
# so git reads the system, global and that repository's own config, which no clone writes.
# On top of that, no internal call runs a program the config names for an event: nothing we
# run needs a hook (`update-ref` would run reference-transaction, `maintenance` pre-auto-gc)
# or the file-system monitor (`status`), and without optional locks our `status` never
# rewrites the user's index. Aliases never apply: we run git's own commands, which no alias
# can shadow. The processes that must run the user's hooks — `git commit` of adopt and init,
# `git push` of pr — are not started here (commit_paths, porcelain.push).
_NO_PROGRAMS = ("--no-optional-locks", "-c", f"core.hooksPath={os.devnull}", "-c", "core.fsmonitor=false")


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a git subprocess: variables git exports to hooks (GIT_DIR,
    GIT_INDEX_FILE, …) are stripped so a nested git acts on the repository we name, and git
    never prompts for credentials."""
    env = {k: v for k, v in os.environ.items() if k not in _HOOK_VARS}
    env["GIT_TERMINAL_PROMPT"] = "0"
    if extra:
        env.update(extra)
    return env


def run_git(cwd: str | os.PathLike[str], *args: str, check: bool = True, input_text: str | None = None,
            env: Mapping[str, str] | None = None, keep_hook_env: bool = False,
            reads_hooks_path: bool = False, errors: str = "strict") -> subprocess.CompletedProcess[str]:
    """`git ARGS`; its output is decoded as UTF-8 (what git writes of commit messages, refs and
    our files, whatever the locale's encoding) with `errors` (`replace` where history may hold a byte that is
    not UTF-8 and a U+FFFD in its place is harmless, as in a patch read for its trailers)."""
    base = dict(os.environ) if keep_hook_env else clean_env()
    if env:
        base.update(env)
    # `git config` runs nothing, and must report the user's own core.hooksPath.
    isolation = () if args[:1] == ("config",) or reads_hooks_path else _NO_PROGRAMS
    proc = subprocess.run(
        [git_program(), *isolation, *args], cwd=str(cwd), capture_output=True, text=True, input=input_text,
        env=base, check=False, encoding="utf-8", errors=errors,
    )
    if check and proc.returncode != 0:
        detail = (proc.stderr.strip() or proc.stdout.strip()).splitlines()
        refused = any(t in proc.stderr for t in NO_PERMISSION_TEXTS)
        raise RepoStateError(f"git {' '.join(args[:2])} failed: {detail[-1] if detail else proc.returncode}",
                             hint=PERMISSION_HINT if refused else None)
    return proc


def git_output_within(cwd: str | os.PathLike[str], *args: str, limit: int, revs: Sequence[str] = ()) -> str | None:
    """`git ARGS`'s output (run as run_git runs it, decoded with `replace`) when it is at most
    `limit` bytes, "" when git fails; None when it is longer — git is stopped there, nothing
    more is read. For output whose size a cloned repository's history decides: `git log -p`
    over a 1 MB CLAUDE.md edited in 2,000 commits (an 815 KB pack) is 2 GB. `revs`: given
    on stdin, one a line (ARGS then hold `--stdin`: a reflog's commits are too many for argv);
    git reads them all before it writes a byte."""
    proc = subprocess.Popen(
        [git_program(), *_NO_PROGRAMS, *args], cwd=str(cwd), stdin=subprocess.PIPE if revs else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=clean_env(),
    )
    with proc:
        if revs:
            assert proc.stdin is not None
            try:
                proc.stdin.write("".join(f"{rev}\n" for rev in revs).encode())
                proc.stdin.close()
            except BrokenPipeError:  # git gave up on its arguments: it fails below
                pass
        assert proc.stdout is not None
        data = proc.stdout.read(limit + 1)
        if len(data) > limit:
            proc.kill()
            return None
        if proc.wait() != 0:
            return ""
    return data.decode("utf-8", "replace")


def _utf8_arg(arg: str) -> str:
    """Text (not a path) as the str whose argv bytes are its UTF-8 — a claim in a reflog
    message: Python encodes argv in the locale's encoding, which need not hold its characters
    (LC_ALL=C, latin-1); decoded back through surrogateescape, the UTF-8 bytes pass as they are."""
    return arg if arg.isascii() else os.fsdecode(arg.encode("utf-8", "surrogateescape"))


def config_get(cwd: str | os.PathLike[str], key: str) -> str | None:
    # A value is text to us: a byte that is not UTF-8 (a folder name written there) reads as U+FFFD.
    proc = run_git(cwd, "config", "--get", key, check=False, errors="replace")
    value = proc.stdout.strip()
    return value if proc.returncode == 0 and value else None


def author_email(cwd: str | os.PathLike[str]) -> str | None:
    """The email git would author a commit here with (environment, then config), lower-cased;
    None when git has none."""
    proc = run_git(cwd, "var", "GIT_AUTHOR_IDENT", check=False, errors="replace")
    start, end = proc.stdout.find("<"), proc.stdout.find(">")
    if proc.returncode != 0 or start < 0 or end <= start + 1:
        return None
    return proc.stdout[start + 1 : end].strip().lower()


def config_set(cwd: str | os.PathLike[str], key: str, value: str, text: bool = False) -> None:
    """`text`: the value is text (a project's name), not a path: written as UTF-8 whatever the
    locale's encoding (a path keeps the bytes the file system gave)."""
    run_git(cwd, "config", "--local", key, _utf8_arg(value) if text else value)


# --- the repository ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Repo:
    """A repository located from a start path: its git dir, common dir (shared by worktrees),
    work tree (None when bare) and the directory to run git in."""

    git_dir: Path
    common_dir: Path
    workdir: Path | None

    @property
    def cwd(self) -> Path:
        return self.workdir or self.git_dir

    @property
    def bare(self) -> bool:
        return self.workdir is None

    @property
    def state(self) -> Path:
        return state_dir(self.common_dir)

    @property
    def location(self) -> Location:
        """This repository as the hook path's Location (the same repository, no discovery)."""
        return Location(str(self.git_dir), str(self.common_dir), str(self.workdir) if self.workdir else None)

    def pg(self) -> Any:
        """The pygit2 repository (typed Any: pygit2's object model is dynamic)."""
        return _pygit2_repo(str(self.git_dir))


_REPO_CACHE: dict[str, pygit2.Repository] = {}


def _pygit2_repo(path: str) -> pygit2.Repository:
    import pygit2

    repo = _REPO_CACHE.get(path)
    if repo is None:
        if not _REPO_CACHE:
            # libgit2 caches parsed trees up to 4 KB by default; the fanned-out folders of
            # `memory/atoms` are larger, and every read by path walks them.
            pygit2.settings.cache_object_limit(pygit2.enums.ObjectType.TREE, 1 << 20)
        try:
            repo = pygit2.Repository(path)
        except pygit2.GitError as exc:
            if "object format" not in str(exc):
                raise
            # extensions.objectFormat=sha256: libgit2 reads SHA-1 repositories only. Said before
            # anything is read or written, never an internal error.
            raise RepoStateError(
                f"this repository names its objects with {_object_format(path)} (extensions.objectFormat), "
                "which agent-memory's git library (libgit2) cannot read: nothing was read or changed",
                hint="agent-memory works in repositories with git's default SHA-1 object names") from None
        _REPO_CACHE[path] = repo
    return repo


def _object_format(git_dir: str) -> str:
    proc = run_git(git_dir, "config", "--get", "extensions.objectformat", check=False)
    return (proc.stdout.strip() or "another hash").upper().replace("SHA", "SHA-")


def release_objects(repo: Repo) -> None:
    """Drop libgit2's cache of the objects read so far in `repo` (parsed trees and commits,
    up to 256 MB by default, kept across reads): a loop of thousands of writes would otherwise
    keep every version of every tree it touched. The next read opens the database again."""
    cached = _REPO_CACHE.get(str(repo.git_dir))
    if cached is not None:
        cached.free()


def _gitfile_target_gone(start: str) -> tuple[str, str] | None:
    """The nearest `.git` file above `start` and the git dir it names, when that is missing."""
    here = os.path.realpath(start)
    while True:
        dotgit = os.path.join(here, ".git")
        if os.path.isdir(dotgit):
            return None
        if os.path.isfile(dotgit):
            try:
                with open(dotgit, encoding="utf-8") as fh:
                    text = fh.read(4096).strip()
            except OSError:
                return None
            target = os.path.normpath(os.path.join(here, text.removeprefix("gitdir:").strip()))
            return (dotgit, target) if text.startswith("gitdir:") and not os.path.isdir(target) else None
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def find_repo(start: str | os.PathLike[str] | None = None) -> Repo:
    found = find_git_dirs(start)
    if not found:
        where = os.fspath(start) if start else os.getcwd()
        gone = _gitfile_target_gone(where)
        if gone is not None:
            dotgit, target = gone
            raise RepoStateError(
                f"not a git repository: {dotgit} points at {target}, which does not exist (the main "
                "checkout of this linked work tree was moved or deleted)",
                hint="from the main checkout, `git worktree repair` reconnects this work tree; "
                     "nothing was read or written")  # fmt: skip
        raise RepoStateError(f"not a git repository: {where}", hint="run this inside a git repository, or use `git -C DIR memory …`")
    git_dir, common, work = found
    if start is None:  # the repository this process works in (model/checkout.py)
        set_repository(work, common)
    return Repo(git_dir=git_dir.resolve(), common_dir=common.resolve(), workdir=work.resolve() if work else None)


def repo_at(location: Location) -> Repo:
    """The Repo of a Location resolved earlier (a hook's entry): no discovery again."""
    work = Path(location.work).resolve() if location.work else None
    return Repo(git_dir=Path(location.git_dir).resolve(), common_dir=Path(location.common).resolve(), workdir=work)


def project_name(start: str | os.PathLike[str] | None = None) -> str | None:
    """The repository's project name: `git config memory.project`, else the top-level directory
    name (worktrees and subdirectories of one repo share it). None outside a repository."""
    found = find_git_dirs(start)
    if not found:
        return None
    git_dir, common, work = found
    configured = config_get(work or git_dir, "memory.project")
    if configured:
        return plain_name(configured)
    return default_project_name(common, work)


def project_of(repo: Repo) -> str:
    """This repository's project name (`memory.project`, set by `init`, else the default)."""
    configured = config_get(repo.cwd, "memory.project")
    return plain_name(configured) if configured else default_project_name(repo.common_dir, repo.workdir)


def default_project_name(common: Path, work: Path | None) -> str:
    """The folder's name, as one line of text (model.controls.plain_name): a byte of it that is
    not UTF-8 (a folder unpacked from an old archive) is U+FFFD, as `config_get` reads the name
    back once `init` stored it; a control character a space."""
    if common.name == ".git" and common.parent.name:
        name = common.parent.name
    else:
        name = (work or common).name.removesuffix(".git") or "project"
    return folder_project_name(name)


# --- reading objects --------------------------------------------------------------------------
# Every object libgit2 reads for us is asked for through `load`: its loose file, when it has
# one, is checked first (gitio/objects.py: libgit2 1.9 never returns from a truncated one), and
# what libgit2 then reports — a missing object, a broken pack — is a CorruptObjectError that
# names the object, never a bare KeyError. Paths inside trees are walked one folder at a time
# for the same reason: libgit2 reading the folders on the way itself would skip the check.

_SOUND: set[tuple[str, str]] = set()  # (common dir, oid) checked in this process (immutable)
_SOUND_MAX = 1 << 16  # bounded: a backfill of thousands of transcripts stays flat in memory
_OBJECT_DIRS: dict[str, list[str]] = {}


def load(repo: Repo, oid: Any, where: str | None = None) -> Any:
    """The pygit2 object `oid`, checked first (see above). `where` names what reached it (a
    path, a ref) for the message. CorruptObjectError when it is damaged or missing."""
    import pygit2

    key = str(oid)
    common = str(repo.common_dir)
    if (common, key) not in _SOUND:
        _check(repo, common, key, where)
    try:
        obj = repo.pg()[key]
    except KeyError:
        raise CorruptObjectError(key, None, where) from None
    except pygit2.GitError as exc:
        raise CorruptObjectError(key, str(exc).replace(key, "").strip(" :") or "unreadable", where) from None
    _remember(common, key)
    return obj


def _check(repo: Repo, common: str, key: str, where: str | None) -> None:
    """What `load` checks before libgit2 reads `key`: its loose file whole (objects.py), and a
    commit's or tag's size from its header — libgit2 reads an object whole, and a cloned commit
    of a 300 MB message (~300 KB packed) cost 624 MB to find its tree. Over MAX_COMMIT_OBJECT_BYTES it
    is refused unread (OversizedObjectError); a loose one is inflated no further than its header."""
    from agent_memory.model.policy import MAX_COMMIT_OBJECT_BYTES

    found = objects.read_loose(_object_dirs(common), key, keep=False, limit=MAX_COMMIT_OBJECT_BYTES)
    if found is not None:
        if found.damage:
            raise CorruptObjectError(key, found.damage, where, _shown(repo, found.path))
        kind, size = found.kind.decode(), found.size
    else:
        try:
            number, size = repo.pg().odb.read_header(key)
        except Exception:  # noqa: BLE001 - missing or unreadable: libgit2's read says which
            return
        kind = _TYPE_NAMES.get(int(number), "")
    if kind in ("commit", "tag") and size > MAX_COMMIT_OBJECT_BYTES:
        raise OversizedObjectError(key, kind, size, MAX_COMMIT_OBJECT_BYTES, where)


def _object_dirs(common: str) -> list[str]:
    dirs = _OBJECT_DIRS.get(common)
    if dirs is None:
        dirs = _OBJECT_DIRS[common] = objects.object_dirs(common)
    return dirs


def _remember(common: str, key: str) -> None:
    if len(_SOUND) >= _SOUND_MAX:
        _SOUND.clear()
    _SOUND.add((common, key))


def _write_blob(repo: Repo, data: bytes, where: str | None = None) -> Any:
    """Write a blob; its id. libgit2 writes nothing when the object exists already — a damaged
    loose file of the same id stays — and then reads that file's header when a tree names the
    object, which also never returns when it is cut: an existing loose file is checked first
    (a new object costs one stat more)."""
    key = blob_oid(data)
    common = str(repo.common_dir)
    if (common, key) not in _SOUND:
        dirs = _object_dirs(common)
        if any(os.path.exists(objects.loose_path(d, key)) for d in dirs):
            problem = objects.loose_problem(dirs, key)
            if problem is not None:
                raise CorruptObjectError(key, problem[1], where, _shown(repo, problem[0]))
    oid = repo.pg().create_blob(data)
    _remember(common, key)
    return oid


def _shown(repo: Repo, path: str) -> str:
    """A loose object's file as the user would type it: relative to the work tree when inside."""
    top = str(repo.workdir) if repo.workdir else None
    if top and path.startswith(top + os.sep):
        return path[len(top) + 1 :]
    return path


def ref_target(repo: Repo, ref: str) -> Oid | None:
    """The object id `ref` names; None only when the ref does not exist. A ref that exists but
    cannot be read raises RefUnreadableError: taken for absent, it would read as an
    uninitialised store, and `init` would make a new one over it."""
    pg = repo.pg()
    try:
        reference = pg.references.get(ref)
        if reference is not None:
            return Oid(str(reference.resolve().target))
    except Exception:  # noqa: BLE001 - libgit2 fails on a broken ref: the strict reader says why
        pass
    # libgit2 says "absent" for a broken ref, and misses good ones in a malformed packed-refs.
    try:
        found = probe_ref(repo.common_dir, ref)
    except UnreadableRef as exc:
        raise unreadable_error(repo.common_dir, exc) from None
    return Oid(found) if found else None


def unreadable_error(common_dir: str | os.PathLike[str], exc: UnreadableRef) -> RefUnreadableError:
    """The one-line error for a ref git cannot read either, with the way back in its hint."""
    short = exc.ref.removeprefix("refs/heads/")
    logged = last_logged(common_dir, exc.ref) if exc.ref.startswith("refs/") else None
    if logged:
        hint = (f"its reflog last recorded {logged[:12]}: repair or remove what is named above, then "
                f"`git update-ref {exc.ref} {logged}` restores it; `git fsck` checks the rest")
    else:
        hint = "repair or remove what is named above; `git fsck` checks the repository and `git reflog` lists where refs were"
    return RefUnreadableError(f"cannot read {short}: {exc.reason} (the ref is damaged, not missing)", hint=hint)


# What git leaves in the (per-worktree) git dir while an operation waits to be finished, with
# how to finish it and how to abort it; the first found names the state.
_IN_PROGRESS = (
    ("rebase-merge", "a rebase", "git rebase --continue", "git rebase --abort"),
    ("rebase-apply/applying", "a `git am`", "git am --continue", "git am --abort"),
    ("rebase-apply", "a rebase", "git rebase --continue", "git rebase --abort"),
    ("MERGE_HEAD", "a merge", "git commit", "git merge --abort"),
    ("CHERRY_PICK_HEAD", "a cherry-pick", "git cherry-pick --continue", "git cherry-pick --abort"),
    ("REVERT_HEAD", "a revert", "git revert --continue", "git revert --abort"),
    ("BISECT_LOG", "a bisect", "", "git bisect reset"),
)


def branch_problem(repo: Repo) -> tuple[str, str] | None:
    """(the state, how to leave it) when a commit made now would not land on a checked-out
    branch the way a person expects: an operation in progress (its abort drops the commit, or
    it becomes part of a merge / the rebased history) or a detached HEAD (the next checkout
    orphans it). None on a branch with nothing in progress."""
    for name, what, finish, abort in _IN_PROGRESS:
        if os.path.exists(os.path.join(repo.git_dir, name)):
            leave = f"finish it (`{finish}`) or abort it (`{abort}`)" if finish else f"end it (`{abort}`)"
            return f"{what} is in progress", leave
    try:
        branch = head_branch(repo.git_dir)
    except UnreadableRef:
        return None  # check_head says what is wrong with HEAD
    if branch is None:
        return "HEAD is detached", "check out a branch (`git switch <branch>`)"
    return None


def unmerged_paths(repo: Repo, paths: Iterable[str]) -> list[str]:
    """Those of `paths` (relative to the work tree) that the index holds unmerged: a merge, a
    `pull --rebase` or a cherry-pick stopped on a conflict in them and waits to be resolved."""
    wanted = list(paths)
    if repo.workdir is None or not wanted:
        return []
    out = run_git(repo.workdir, "ls-files", "-u", "-z", "--", *wanted, check=False).stdout
    found = {record.split("\t", 1)[1] for record in out.split("\0") if "\t" in record}
    return [p for p in wanted if p in found]


def union_of_unmerged(repo: Repo, path: str) -> bytes | None:
    """What `merge=union` would have made of an unmerged `path` (relative to the work tree):
    git's own line merge of the index's stages (base, ours, theirs; a side that is absent is
    empty) with every conflicting hunk resolved to both sides' lines, ours first. None when
    the index holds `path` merged."""
    if repo.workdir is None:
        return None
    out = run_git(repo.workdir, "ls-files", "-u", "-z", "--", path, check=False).stdout
    stages: dict[str, str] = {}
    for record in out.split("\0"):
        head, _, name = record.partition("\t")
        fields = head.split()
        if name == path and len(fields) == 3:
            stages[fields[2]] = fields[1]
    if not stages:
        return None
    with tempfile.TemporaryDirectory(prefix="agent-memory-union-") as scratch:
        files = []
        for stage in ("2", "1", "3"):  # git merge-file takes current, base, other
            where = Path(scratch) / stage
            where.write_bytes(read_blob(repo, stages[stage], f":{stage}:{path}") if stage in stages else b"")
            files.append(str(where))
        proc = subprocess.run([git_program(), "merge-file", "-p", "--union", *files], capture_output=True,
                              env=clean_env(), check=False)  # fmt: skip
    if proc.returncode < 0 or proc.returncode > 127:
        raise RepoStateError(f"git merge-file failed on {path}: {proc.stderr.decode('utf-8', 'replace').strip()}")
    return proc.stdout


def check_head(git_dir: str | os.PathLike[str], common_dir: str | os.PathLike[str]) -> None:
    """Refuse (RefUnreadableError) when a commit on HEAD would not extend the branch's history:
    HEAD or its branch cannot be read, or the branch looks unborn while its reflog says it had
    commits — `git commit` would then start a new root commit."""
    try:
        refcheck_head(git_dir, common_dir)
    except UnreadableRef as exc:
        raise unreadable_error(common_dir, exc) from None


def _walk(repo: Repo, tree: Any, path: str, where: str | None) -> Any:
    """The entry at `path` in a loaded tree, each folder on the way loaded through `load`;
    None when absent (or a blob stands where a folder was expected)."""
    parts = [p for p in path.split("/") if p]
    if not parts:
        return None
    for depth, name in enumerate(parts):
        try:
            entry = tree[name]
        except (KeyError, ValueError, TypeError):
            # TypeError: a name the file-system encoding cannot hold (`Straße` typed in a C
            # locale, looked up as an atom id) is no entry of ours: pygit2 cannot even encode it
            return None
        if depth == len(parts) - 1:
            return entry
        if entry.type_str != "tree":
            return None
        tree = load(repo, entry.id, _at(where, "/".join(parts[: depth + 1])))
    return None


def _at(where: str | None, path: str) -> str:
    return f"{path} in {where}" if where else path


def tree_entry(repo: Repo, tree_oid: str | None, path: str, where: str | None = None) -> tuple[str, bool] | None:
    """(object id, is a tree) of `path` inside a tree, or None when absent: a lookup by path,
    never a walk of the folders around it."""
    if tree_oid is None:
        return None
    try:
        tree = load(repo, tree_oid, where)
    except ValueError:  # not an object id
        return None
    entry = _walk(repo, tree, path, where)
    if entry is None:
        return None
    return str(entry.id), entry.type_str == "tree"


def read_blob(repo: Repo, oid: str, where: str | None = None) -> bytes:
    """A blob's bytes. A loose blob is inflated and checked here once, and its content is the
    answer (libgit2 would inflate it a second time); a packed one is libgit2's to read."""
    key = str(oid)
    common = str(repo.common_dir)
    if (common, key) not in _SOUND:
        found = objects.read_loose(_object_dirs(common), key)
        if found is not None:
            if found.damage:
                raise CorruptObjectError(key, found.damage, where, _shown(repo, found.path))
            if found.kind == b"blob":
                _remember(common, key)
                return found.body
    data: bytes = load(repo, key, where).data
    return data


def read_path(repo: Repo, tree_oid: str | None, path: str, where: str | None = None) -> bytes | None:
    """The blob at `path` in a tree (None when absent or not a blob)."""
    found = tree_entry(repo, tree_oid, path, where)
    if found is None or found[1]:
        return None
    return read_blob(repo, found[0], _at(where, path))


def list_tree(repo: Repo, tree_oid: str | None, path: str = "", where: str | None = None) -> list[tuple[str, str, bool]]:
    """(name, oid, is a tree) of the entries directly inside `path` of a tree (empty when
    absent)."""
    if tree_oid is None:
        return []
    tree = load(repo, tree_oid, where)
    if path:
        entry = _walk(repo, tree, path, where)
        if entry is None or entry.type_str != "tree":
            return []
        tree = load(repo, entry.id, _at(where, path))
    return [(e.name, str(e.id), e.type_str == "tree") for e in tree]


def damaged_objects(repo: Repo, commit: str, where: str, limit: int = 50) -> list[CorruptObjectError]:
    """The damaged or missing objects of `commit` and of everything in its tree (at most
    `limit`), each read through `load`: what `validate` reports. The commit's history is
    not read (`git fsck` does that)."""
    try:
        root = str(load(repo, commit, f"the tip of {where}").tree_id)
    except CorruptObjectError as exc:
        return [exc]
    out: list[CorruptObjectError] = []
    stack = [(root, "")]
    while stack and len(out) < limit:
        oid, path = stack.pop()
        try:
            obj = load(repo, oid, _at(where, path) if path else where)
        except CorruptObjectError as exc:
            out.append(exc)
            continue
        if obj.type_str == "tree":
            # A submodule's commit (a gitlink) is another repository's object: not read.
            stack += [(str(e.id), f"{path}/{e.name}" if path else e.name) for e in obj if e.type_str != "commit"]
    return out


def diff_blobs(repo: Repo, old_tree: str | None, new_tree: str | None, path: str) -> list[tuple[str, str | None, str | None]]:
    """(path, old blob oid, new blob oid) of every blob under `path` that differs between two
    trees. Subtrees with the same oid are skipped without being read, so two nearby commits of
    a fanned-out store compare in time proportional to what changed."""
    out: list[tuple[str, str | None, str | None]] = []
    old = tree_entry(repo, old_tree, path) if path else ((old_tree, True) if old_tree else None)
    new = tree_entry(repo, new_tree, path) if path else ((new_tree, True) if new_tree else None)
    _diff(repo, path, old, new, out)
    return out


def _diff(repo: Repo, path: str, old: tuple[str, bool] | None, new: tuple[str, bool] | None,
          out: list[tuple[str, str | None, str | None]]) -> None:
    if old == new:
        return
    old_tree = old[0] if old and old[1] else None
    new_tree = new[0] if new and new[1] else None
    if old and not old[1]:
        if new and not new[1]:
            out.append((path, old[0], new[0]))
            return
        out.append((path, old[0], None))
    if new and not new[1] and not (old and not old[1]):
        out.append((path, None, new[0]))
    if old_tree is None and new_tree is None:
        return
    olds = {name: (oid, is_tree) for name, oid, is_tree in (list_tree(repo, old_tree) if old_tree else [])}
    news = {name: (oid, is_tree) for name, oid, is_tree in (list_tree(repo, new_tree) if new_tree else [])}
    for name in sorted(set(olds) | set(news)):
        _diff(repo, f"{path}/{name}" if path else name, olds.get(name), news.get(name), out)


def _rev_oid(repo: Repo, rev: str) -> str | None:
    """The object id `rev` names, from the refs alone (no object is read): a full id, HEAD or
    a ref name; anything else is asked of `git rev-parse`, which fails fast on damage. None
    when it names nothing (an unborn HEAD, an unknown name)."""
    if len(rev) in (40, 64) and all(c in "0123456789abcdef" for c in rev):
        return rev
    pg = repo.pg()
    try:
        reference = pg.references.get(rev)
        if reference is not None:
            return str(reference.resolve().target)
    except Exception:  # noqa: BLE001 - an unborn HEAD, a dangling symbolic ref
        return None
    return rev_parse(repo, rev)


def _peel_tree(repo: Repo, oid: str, where: str) -> Any:
    """The tree of the commit (or tag, or tree) `oid`, each object loaded through `load`;
    None when it names a blob."""
    obj = load(repo, oid, where)
    for _ in range(8):  # a tag of a tag of …: git bounds it too
        kind = obj.type_str
        if kind == "tree":
            return obj
        if kind == "commit":
            obj = load(repo, obj.tree_id, f"the tree of {where}")
        elif kind == "tag":
            obj = load(repo, obj.target, where)
        else:
            return None
    return None


def read_blob_at(repo: Repo, rev: str, path: str) -> bytes | None:
    found = entry_at(repo, rev, path)
    return found[2] if found else None


def blob_header_at(repo: Repo, rev: str, path: str) -> tuple[str, int] | None:
    """(blob id, size) of the blob at `path` in `rev`'s tree, its size from the object's header
    (never inflated whole); None where entry_at finds no blob. The id reads the blob with no
    second walk of the tree (read_blob_at_most)."""
    oid = _rev_oid(repo, rev)
    if oid is None:
        return None
    tree = _peel_tree(repo, oid, rev)
    entry = _walk(repo, tree, path, rev) if tree is not None else None
    if entry is None or entry.type_str != "blob":
        return None
    return str(entry.id), int(repo.pg().odb.read_header(entry.id)[1])


def read_blob_at_most(repo: Repo, rev: str, path: str, limit: int) -> tuple[int, bytes | None] | None:
    """(size, bytes) of the blob at `path` in `rev`'s tree, its bytes None (never read) when it
    is larger than `limit`; None where entry_at finds no blob. One walk of the tree, where sizing the blob
    and then reading it (read_blob_at) walked it twice."""
    found = blob_header_at(repo, rev, path)
    if found is None:
        return None
    blob, size = found
    return size, (read_blob(repo, blob, _at(rev, path)) if size <= limit else None)


def entry_at(repo: Repo, rev: str, path: str) -> tuple[int, str, bytes] | None:
    """`path` in `rev`'s tree as (file mode, blob id, bytes); None when absent, when `rev`
    names nothing (an unborn HEAD, an id this repository does not have) or a tree stands at
    `path`. A damaged object on the way is a CorruptObjectError, never "absent"."""
    oid = _rev_oid(repo, rev)
    if oid is None:
        return None
    try:
        tree = _peel_tree(repo, oid, rev)
    except CorruptObjectError as exc:
        if exc.missing and exc.oid == oid and oid == rev:
            return None  # an id remembered from elsewhere (an intent, a log), not a ref of ours
        raise
    entry = _walk(repo, tree, path, rev) if tree is not None else None
    if entry is None or entry.type_str != "blob":
        return None
    data: bytes = load(repo, entry.id, _at(rev, path)).data
    return int(entry.filemode), str(entry.id), data


# git's file modes, as `path_kind` names them (a submodule is a commit in a tree).
_LINK_MODE = 0o120000


def path_kind(repo: Repo, rev: str, path: str) -> str | None:
    """What stands at `path` in `rev`'s tree: "folder", "file", "link" or "submodule"; None
    when nothing does (or `rev` names nothing, or a file stands where a folder is on the way)."""
    oid = _rev_oid(repo, rev)
    tree = _peel_tree(repo, oid, rev) if oid is not None else None
    entry = _walk(repo, tree, path, rev) if tree is not None else None
    if entry is None:
        return None
    if entry.type_str == "tree":
        return "folder"
    if entry.type_str == "commit":
        return "submodule"
    return "link" if int(entry.filemode) == _LINK_MODE else "file"


def unchanged_since_head(repo: Repo, paths: Iterable[str]) -> bool:
    """True when every path (relative to the work tree) is a non-executable regular file whose
    bytes are HEAD's blob and whose index entry is that blob too — or is in neither HEAD nor
    the index (untracked or absent). Then `git status` has nothing to report for them; False
    means "ask git" (a filter or line-ending conversion, a staged change, a symlink, an edit).
    In process: one `git status` less per adopted item (adopt's per-item budget)."""
    import stat

    pg = repo.pg()
    if pg.workdir is None:
        return False
    head = _rev_oid(repo, "HEAD")
    if head is None:  # unborn HEAD: let git say
        return False
    tree = _peel_tree(repo, head, "HEAD")
    if tree is None:
        return False
    index = pg.index
    index.read()
    for rel in paths:
        head_entry = _walk(repo, tree, rel, "HEAD")
        in_head = head_entry is not None
        in_index = rel in index
        if not in_head and not in_index:
            continue
        if not (in_head and in_index):
            return False
        index_entry = index[rel]
        regular = 0o100644
        if head_entry.id != index_entry.id or head_entry.filemode != regular or index_entry.mode != regular:
            return False
        try:
            st = os.lstat(os.path.join(pg.workdir, rel))
            if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o111:
                return False
            with open(os.path.join(pg.workdir, rel), "rb") as fh:
                data = fh.read()
        except OSError:
            return False
        if blob_oid(data) != str(head_entry.id):
            return False
    return True


def blob_oid(data: bytes) -> str:
    """The id git gives `data` stored as a blob (`git hash-object`), without writing it."""
    import pygit2

    return str(pygit2.hash(data))


def object_kind(repo: Repo, oid: str, where: str | None = None) -> str:
    """"commit", "tree", "blob" or "tag": what `oid` is (a ref may name any of them)."""
    kind: str = load(repo, oid, where).type_str
    return kind


def commit_message(repo: Repo, oid: str, where: str | None = None) -> str:
    msg: str = load(repo, oid, where).message
    return msg


def message_within(repo: Repo, oid: str, skipped: list[tuple[str, int]] | None = None) -> str | None:
    """The message of `oid`, or None for a commit over MAX_COMMIT_OBJECT_BYTES (sized from its
    header, unread; (id, size) added to `skipped`). For loops over a range of history a clone
    chose: such a commit is none of ours (ours are a few KB), so it is passed over, where one of
    them refused the whole verb. Where the commit must be ours (the tip of memory/atoms), call
    commit_message: it refuses."""
    try:
        return commit_message(repo, oid)
    except OversizedObjectError as exc:
        if skipped is not None:
            skipped.append((exc.oid, exc.size))
        return None


def commit_parents(repo: Repo, oid: str, where: str | None = None) -> list[str]:
    return [str(p) for p in load(repo, oid, where).parent_ids]


def commit_tree(repo: Repo, oid: str, where: str | None = None) -> str:
    return str(load(repo, oid, where).tree_id)


# --- writing objects --------------------------------------------------------------------------


def tool_signature(when: int | None = None) -> pygit2.Signature:
    import pygit2

    return pygit2.Signature(TOOL_NAME, TOOL_EMAIL, int(when if when is not None else committer_time()), 0)


def committer_time(cwd: str | os.PathLike[str] = ".") -> int:
    """When git would date a commit made now: `GIT_COMMITTER_DATE` when it is set (as git
    reads it), else the wall clock. Never `AGENT_MEMORY_NOW`: the commits of memory/atoms are
    dated by the clock that dates the commits `git commit` makes on the branch, so an atom's
    history (`git memory log`) reads in one clock, pinned or not."""
    value = os.environ.get("GIT_COMMITTER_DATE", "").strip()
    if not value:
        return int(time.time())
    raw = value.removeprefix("@").split()
    if raw and raw[0].isdigit() and (len(raw) == 1 or (len(raw) == 2 and raw[1][:1] in "+-")):
        return int(raw[0])  # git's internal form, `<seconds> <zone>` or `@<seconds>`
    if value.endswith("Z") or (len(value) > 6 and value[-6] in "+-" and value[-3] == ":"):
        from agent_memory.model.clock import parse_time

        try:
            return int(parse_time(value).timestamp())
        except (ValueError, OverflowError):
            pass
    # any other form git takes (RFC 2822, a date without a zone, "yesterday"): as git reads it
    proc = run_git(cwd, "var", "GIT_COMMITTER_IDENT", check=False)
    parts = proc.stdout.split()
    if proc.returncode == 0 and len(parts) >= 2 and parts[-2].isdigit():
        return int(parts[-2])
    return int(time.time())


# git's object type numbers, as libgit2's object database takes them.
_TYPE_NUMBERS = {b"commit": 1, b"tree": 2, b"blob": 3, b"tag": 4}
_TYPE_NAMES = {number: kind.decode() for kind, number in _TYPE_NUMBERS.items()}


class Written:
    """The objects one write made (id → type and bytes), kept until the ref that names them
    has moved. Until then they are unreachable, and a `git gc --prune=now` running meanwhile
    deletes them (git documents `--prune=now` as unsafe with concurrent writers): whatever is
    gone is written again, under the same ids, just before and just after the ref update
    (`cas_update_ref`) — after, once a `git gc` in progress has ended (it may have listed the
    refs before the update). What remains is git's own window: a `git prune` run on its own,
    or a gc that outlasts GC_WAIT_SECONDS, deleting them after the last check."""

    __slots__ = ("objects",)

    def __init__(self) -> None:
        self.objects: dict[str, tuple[int, bytes]] = {}

    def add(self, repo: Repo, oid: Any, data: bytes | None = None) -> str:
        """Record `oid` (a blob's `data` as given; a tree's or commit's bytes read back)."""
        key = str(oid)
        if key not in self.objects:
            if data is None:
                # Read back through the check: an object that existed already is not rewritten,
                # and a damaged loose file of it would never come back from libgit2.
                found = objects.read_loose(_object_dirs(str(repo.common_dir)), key)
                if found is not None and found.damage:
                    raise CorruptObjectError(key, found.damage, None, _shown(repo, found.path))
                if found is not None:
                    self.objects[key] = (_TYPE_NUMBERS[found.kind], found.body)
                    return key
                kind, data = repo.pg().odb.read(oid)
                self.objects[key] = (int(kind), data)
            else:
                self.objects[key] = (3, data)  # git's object type number of a blob
        return key


# How long a write waits, after its ref update, for a `git gc` in progress to end before it
# checks its objects once more: the prune step of a gc that listed the refs before the update
# deletes them as unreachable.
GC_WAIT_SECONDS = 30.0


def gc_running(common_dir: Path) -> bool:
    """Whether a `git gc` holds this repository's `gc.pid` now: git's own test (the file is
    younger than 12 hours and its process is alive, or it was written on another host)."""
    path = common_dir / "gc.pid"
    try:
        age = time.time() - path.stat().st_mtime
        pid, _, host = path.read_text("utf-8", "replace").strip().partition(" ")
    except OSError:
        return False
    if age > 12 * 3600 or not pid.isdigit():
        return False
    import socket

    if host and host != socket.gethostname():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # alive, another user's
    return True


def restore_missing(repo: Repo, written: Written) -> int:
    """Write again whichever of `written` the object store no longer holds; how many. A stat
    per object; only one whose loose file is gone is looked up in the packs, through a fresh
    object database (libgit2's cache still answers for an object deleted under it)."""
    objects = repo.common_dir / "objects"
    gone = [oid for oid in written.objects if not (objects / oid[:2] / oid[2:]).is_file()]
    if not gone:
        return 0
    import pygit2

    fresh = pygit2.Odb(str(objects))
    gone = [oid for oid in gone if not fresh.exists(oid)]
    odb = repo.pg().odb
    for oid in gone:
        kind, data = written.objects[oid]
        odb.write(kind, data)
    return len(gone)


def build_tree(repo: Repo, base_tree: str | None, changes: Mapping[str, bytes | None],
               written: Written | None = None) -> str:
    """A new tree from `base_tree` with `changes` applied (`None` deletes; a folder left
    empty goes). Paths may nest to any depth; a subtree no change touches keeps its oid (it is
    neither read nor rewritten), so the cost follows the changed folders, not the tree. The
    objects it writes are recorded in `written` (see `Written`)."""
    pg = repo.pg()
    base = load(repo, base_tree) if base_tree else None
    by_folder: dict[str, dict[str, bytes | None]] = {}
    top: dict[str, bytes | None] = {}
    for path, data in changes.items():
        if "/" in path:
            folder, name = path.split("/", 1)
            if "/" in name:
                folder2, name2 = name.split("/", 1)
                by_folder.setdefault(folder, {})[f"{folder2}/{name2}"] = data
            else:
                by_folder.setdefault(folder, {})[name] = data
        else:
            top[path] = data
    builder = pg.TreeBuilder(base) if base is not None else pg.TreeBuilder()
    import pygit2

    for name, data in top.items():
        if data is None:
            if base is not None and name in base:
                builder.remove(name)
        else:
            blob = _write_blob(repo, data, name)
            if written is not None:
                written.add(repo, blob, data)
            builder.insert(name, blob, pygit2.GIT_FILEMODE_BLOB)
    for folder, sub_changes in by_folder.items():
        sub_base: str | None = None
        if base is not None and folder in base:
            if base[folder].type_str != "tree":
                # A file, link or submodule of that name (another tool's `.memory`): writing the
                # folder would replace it, and libgit2 cannot build on it. The callers say
                # what to do; this keeps it from being an internal error anywhere else.
                raise RepoStateError(f"{folder} is not a folder in the tree the commit builds on",
                                     hint=f"move {folder} out of the way (`git mv {folder} <another name>`, commit), "
                                          "then run the command again")  # fmt: skip
            sub_base = str(base[folder].id)
        sub_oid = build_tree(repo, sub_base, sub_changes, written)
        sub = load(repo, sub_oid, folder)
        if len(sub) == 0:
            if base is not None and folder in base:
                builder.remove(folder)
        else:
            builder.insert(folder, sub.id, pygit2.GIT_FILEMODE_TREE)
    tree = builder.write()
    if written is not None:
        written.add(repo, tree)
    return str(tree)


def create_commit(repo: Repo, tree: str, parents: list[str], message: str, when: int | None = None,
                  author: tuple[str, str, int] | None = None, written: Written | None = None) -> Oid:
    """A commit object (no ref moves), recorded in `written`. The tool identity is used unless
    `author` is given."""
    import pygit2

    pg = repo.pg()
    sig = tool_signature(when) if author is None else pygit2.Signature(author[0], author[1], author[2], 0)
    # libgit2 reads the headers of the tree and the parents to validate them: loaded first.
    oid = pg.create_commit(None, sig, sig, message, load(repo, tree).id, [load(repo, p).id for p in parents])
    if written is not None:
        written.add(repo, oid)
    return Oid(str(oid))


def cas_update_ref(repo: Repo, ref: str, new: str, old: str | None, reason: str,
                   written: Written | None = None) -> None:
    """Move `ref` to `new` only if it still points at `old` (None: must not exist). `written`:
    the objects `new` brings, written again if a concurrent prune deleted them — checked just
    before the update (the ref never names an object already gone) and just after (a prune
    that listed the refs before the update deletes what it then found unreachable)."""
    if written is not None:
        restore_missing(repo, written)
    proc = run_git(repo.cwd, "update-ref", "-m", _utf8_arg(reason), ref, new, old or ZERO_OID, check=False)
    if proc.returncode == 0 and written is not None:
        deadline = time.monotonic() + GC_WAIT_SECONDS
        while gc_running(repo.common_dir) and time.monotonic() < deadline:
            time.sleep(0.05)
        restore_missing(repo, written)
    if proc.returncode != 0:
        # A lock file git could not write is no race: retrying cannot help (git says
        # "couldn't write '<ref>.lock'" without the reason, so the disk is asked).
        if disk_full(proc.stderr) or ("couldn't write" in proc.stderr and _no_room(repo.common_dir)):
            raise DiskFullError(f"no space left on device: {ref} was not updated")
        if "couldn't write" in proc.stderr:
            raise RepoStateError(f"{ref} was not updated: {proc.stderr.strip().splitlines()[-1]}")
        raise RefMovedError(proc.stderr.strip() or f"{ref} moved")


def _no_room(path: Path) -> bool:
    try:
        return os.statvfs(path).f_bavail == 0
    except (OSError, AttributeError):  # AttributeError: no statvfs on Windows
        return False


def delete_ref(repo: Repo, ref: str, old: str | None = None) -> None:
    args = ["update-ref", "-d", ref] + ([old] if old else [])
    run_git(repo.cwd, *args)


# --- history ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogEntry:
    oid: str
    subject: str
    date: str
    body: str


def log_for_path(repo: Repo, ref: str, path: str, *more: str) -> list[LogEntry]:
    """Commits of `ref` that touched `path` (or any of `more`), newest first (`git log` with a
    stable format). An atom file of `memory/atoms` named in either layout
    (`atoms/<id>.json`, `atoms/<2 hex>/<id>.json`) matches its history in both."""
    paths = history_paths(ref, [path, *more])
    proc = run_git(repo.cwd, "log", f"--format={LOG_FORMAT}", ref, "--", *paths, check=False)
    return parse_log(proc.stdout) if proc.returncode == 0 else []


# One commit per record: id, subject, committer date, message; fields split by \x1f, records
# by \x1e.
LOG_FORMAT = "%H%x1f%s%x1f%cI%x1f%B%x1e"


def parse_log(stdout: str) -> list[LogEntry]:
    """`git log --format=LOG_FORMAT` output as entries, in its order."""
    out = []
    for record in stdout.split("\x1e"):
        record = record.strip("\n")
        if not record:
            continue
        oid, subject, date, body = (record.split("\x1f") + ["", "", "", ""])[:4]
        out.append(LogEntry(oid=oid, subject=subject, date=date, body=body))
    return out


def object_headers(cwd: str | os.PathLike[str], revs: Sequence[str],
                   keep_hook_env: bool = False) -> list[tuple[str, str, int] | None]:  # fmt: skip
    """(full id, type, size) of each object `revs` names, in their order, from the objects'
    headers (never inflated) by one `git cat-file --batch-check`; None for a rev that names
    none (missing, ambiguous). `keep_hook_env`: as run_git (a git hook's own repository)."""
    if not revs:
        return []
    # (a rev naming a path that is not UTF-8 — `:<byte 0xff>docs/x` — is passed as its bytes)
    proc = run_git(cwd, "cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)", check=False,
                   keep_hook_env=keep_hook_env, input_text="".join(f"{rev}\n" for rev in revs),
                   errors="surrogateescape")  # fmt: skip
    out: list[tuple[str, str, int] | None] = []
    for line in proc.stdout.splitlines():  # one answer a line, in the order asked
        oid, kind, size = (line.split() + ["", "", ""])[:3]
        out.append((oid, kind, int(size)) if size.isdigit() else None)  # `<rev> missing` / `ambiguous`
    return out


class BlobReader:
    """Blobs read one at a time through one `git cat-file --batch` (started as run_git starts
    git), where a `git cat-file blob` each started a git per blob: the pre-push hook reads the
    memory files of every pushed commit. Size blobs first (object_headers) and ask only for
    those within a bound: a blob is never kept past `limit` bytes (read and dropped a chunk at
    a time, None), since its bytes come whole once asked for. Use as a context manager."""

    _CHUNK = 1 << 20

    def __init__(self, cwd: str | os.PathLike[str], limit: int, keep_hook_env: bool = False) -> None:
        self.limit = limit
        self.proc = subprocess.Popen(
            [git_program(), *_NO_PROGRAMS, "cat-file", "--batch"], cwd=str(cwd), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(os.environ) if keep_hook_env else clean_env(),
        )  # fmt: skip

    def read(self, oid: str) -> bytes | None:
        """The bytes of blob `oid`; None when it is no blob (missing, another type) or is over
        the limit, or when git has stopped answering."""
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        if not oid or any(c.isspace() for c in oid):  # one request a line
            return None
        try:
            stdin.write(f"{oid}\n".encode())
            stdin.flush()
        except (BrokenPipeError, OSError):
            return None
        header = stdout.readline().split()  # `<oid> <type> <size>`, or `<rev> missing`
        if len(header) != 3 or not header[2].isdigit():
            return None
        size = int(header[2])
        if size > self.limit:
            while size > 0:  # never kept: git writes it all the same
                chunk = stdout.read(min(size, self._CHUNK))
                if not chunk:
                    return None
                size -= len(chunk)
            stdout.read(1)
            return None
        body = stdout.read(size)
        stdout.read(1)  # the newline after each object
        return body if header[1] == b"blob" and len(body) == size else None

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc: object) -> None:
        with suppress(OSError):
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        self.proc.kill()
        self.proc.wait()
        assert self.proc.stdout is not None
        self.proc.stdout.close()


def commits_within(cwd: str | os.PathLike[str], revs: Sequence[str], limit: int) -> tuple[list[str], list[tuple[str, int]]]:
    """Of the commits `revs` names (full or abbreviated ids), in their order: the full ids of
    those whose object is at most `limit` bytes, and (id, size) of the larger ones — sized from
    the object's header (object_headers), never inflated. A rev that names no commit (missing,
    ambiguous, another type) is in neither. For history a clone chose: ask git for the messages
    of the first only (log_entries)."""
    within: list[str] = []
    over: list[tuple[str, int]] = []
    for found in object_headers(cwd, revs):
        if found is None or found[1] != "commit":
            continue
        oid, _, size = found
        if size <= limit:
            within.append(oid)
        else:
            over.append((oid, size))
    return list(dict.fromkeys(within)), over


def log_entries(cwd: str | os.PathLike[str], oids: Sequence[str]) -> list[LogEntry]:
    """The commits `oids` (full ids) as entries (LOG_FORMAT), in that order."""
    if not oids:
        return []
    proc = run_git(cwd, "log", "--no-walk=unsorted", "--stdin", f"--format={LOG_FORMAT}", check=False,
                   input_text="".join(f"{oid}\n" for oid in oids))  # fmt: skip
    return parse_log(proc.stdout) if proc.returncode == 0 else []


def rev_list(repo: Repo, spec: str, *more: str) -> list[str]:
    proc = run_git(repo.cwd, "rev-list", "--reverse", spec, *more, check=False)
    return proc.stdout.split() if proc.returncode == 0 else []


def head_commit(repo: Repo) -> str | None:
    """The commit HEAD names (None on an unborn branch), read by libgit2 from the ref files as
    they are now: no `git` process (adopt asks once or twice per item)."""
    pg = repo.pg()
    try:
        if pg.head_is_unborn:
            return None
        target = str(pg.head.target)  # the refs alone: no object is read yet
    except Exception:  # noqa: BLE001 - a detached or broken HEAD: ask git, which explains it
        return rev_parse(repo, "HEAD")
    obj = load(repo, target, "HEAD")
    while obj.type_str == "tag":
        obj = load(repo, obj.target, "HEAD")
    return str(obj.id)


def rev_parse(repo: Repo, rev: str) -> str | None:
    proc = run_git(repo.cwd, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
    return proc.stdout.strip() or None if proc.returncode == 0 else None


def hooks_dir(repo: Repo, resolve: bool = True) -> Path:
    """Where git looks for hooks (honours core.hooksPath). With `resolve=False` the path as
    named, links not followed (only `.`/`..` folded): what `init` checks for links."""
    proc = run_git(repo.cwd, "rev-parse", "--git-path", "hooks", reads_hooks_path=True)
    path = Path(proc.stdout.strip())
    if not resolve:
        return Path(os.path.normpath(repo.cwd / path))  # an absolute path stays itself
    return path if path.is_absolute() else (repo.cwd / path).resolve()


def default_branch(repo: Repo) -> str | None:
    """The branch promotions are staged on top of: `memory.base`, else origin's HEAD, else
    init.defaultBranch, main or master (whichever exists), else the current branch. Never one
    of ours (`memory/…`): a remote whose HEAD names `memory/atoms` (its author's choice, which
    a clone copies) made the person's own L1 store the base — memory/review staged on the
    remote's memory/atoms, `pr` opened against it, and both said to push memory/atoms."""
    configured = config_get(repo.cwd, "memory.base")
    candidates = [configured] if configured else []
    proc = run_git(repo.cwd, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD", check=False)
    if proc.returncode == 0 and proc.stdout.strip():
        candidates.append(proc.stdout.strip().split("/", 1)[-1])
    init_default = config_get(repo.cwd, "init.defaultBranch")
    candidates += [c for c in (init_default, "main", "master") if c]
    for name in candidates:
        if not name.startswith("memory/") and ref_target(repo, f"refs/heads/{name}"):
            return name
    head = run_git(repo.cwd, "symbolic-ref", "--quiet", "--short", "HEAD", check=False).stdout.strip()
    if head and ref_target(repo, f"refs/heads/{head}") and not head.startswith("memory/"):
        return head
    return None


def commit_author(repo: Repo, oid: str) -> tuple[str, str]:
    commit = load(repo, oid)
    return str(commit.committer.name), str(commit.committer.email)


def hidden_from_status(cwd: str | os.PathLike[str], paths: Iterable[str]) -> dict[str, str]:
    """Those of `paths` whose index entry tells `git status` to look away: "skip-worktree" (a
    sparse checkout leaves the file out of the work tree) or "assume-unchanged" (a person's
    `git update-index --assume-unchanged`). For them a clean status proves nothing: the work
    tree may lack the file or hold edits that status does not show."""
    proc = run_git(cwd, "ls-files", "-v", "-z", "--", *paths, check=False)
    out = {}
    for record in proc.stdout.split("\0"):
        tag, _, name = record.partition(" ")
        if not name:
            continue
        if tag == "S" or tag == "s":
            out[name] = "skip-worktree"
        elif tag.islower():
            out[name] = "assume-unchanged"
    return out


def sparse_checkout(cwd: str | os.PathLike[str]) -> bool:
    """Whether this work tree is a sparse checkout (core.sparseCheckout): a skip-worktree mark
    outside one was set by hand (`git update-index --skip-worktree`), not by `git sparse-checkout`."""
    proc = run_git(cwd, "config", "--bool", "--get", "core.sparseCheckout", check=False)
    return proc.returncode == 0 and proc.stdout.strip() == "true"


def status_porcelain(repo: Repo, paths: Iterable[str]) -> list[str]:
    proc = run_git(repo.cwd, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", *paths, check=False)
    return [item for item in proc.stdout.split("\0") if item.strip()]


def porcelain_states(repo: Repo, paths: Iterable[str]) -> dict[str, str]:
    """Path (from the work tree's root) → its two-letter `git status --porcelain` code ("??" not
    in git, " M" changed, …), for each of `paths` git has something to say of: one git call for
    them all."""
    paths = list(paths)
    if not paths:
        return {}
    items = status_porcelain(repo, paths)
    states: dict[str, str] = {}
    i = 0
    while i < len(items):
        item = items[i]
        i += 1
        states[item[3:]] = item[:2]
        if item[:1] in ("R", "C"):
            i += 1  # (-z: the source path of a rename or copy follows as an entry of its own)
    return states


# While `deferred_maintenance` runs (depth > 0), commit_paths' commits skip git's automatic
# maintenance; `commits` counts the commits this process made (commit_paths, and the plumbing
# commits that report themselves through `note_commit`).
_BATCH = {"depth": 0, "commits": 0}


def note_commit() -> None:
    """A commit made without `git commit` (plumbing: blob → tree → commit → ref), which
    runs no maintenance of its own: inside `deferred_maintenance`, it asks for git's
    automatic maintenance after the batch like any other commit."""
    _BATCH["commits"] += 1


@contextmanager
def deferred_maintenance(cwd: str | os.PathLike[str]) -> Iterator[None]:
    """A batch of commits (`adopt --all`, `capture --all`): `git commit` runs `git maintenance
    run --auto` after every commit (~5 ms each, a tenth of an adopted item), and plumbing
    commits never do (thousands of captures leave every object loose); here it runs once,
    after the batch, and only when the user has not turned it off (`maintenance.auto=false`).
    Git's own thresholds decide what it does (`gc.auto`, `gc.autoPackLimit`, ...)."""
    _BATCH["depth"] += 1
    before = _BATCH["commits"]
    try:
        yield
    finally:
        _BATCH["depth"] -= 1
        if _BATCH["commits"] > before:
            auto = run_git(cwd, "config", "--type=bool", "--get", "maintenance.auto", check=False)
            if auto.stdout.strip() != "false":
                run_git(cwd, "maintenance", "run", "--auto", "--quiet", check=False)


def _without_auto_maintenance(env: dict[str, str]) -> dict[str, str]:
    """`env` plus `-c maintenance.auto=false` in the GIT_CONFIG_COUNT form (after any entries
    the user's environment already carries)."""
    count = os.environ.get("GIT_CONFIG_COUNT", "0")
    n = int(count) if count.isdigit() else 0
    return {**env, "GIT_CONFIG_COUNT": str(n + 1), f"GIT_CONFIG_KEY_{n}": "maintenance.auto",
            f"GIT_CONFIG_VALUE_{n}": "false"}  # fmt: skip


_GITPYTHON_REPOS: dict[str, Any] = {}


_GITPYTHON_EXECUTABLE = "GIT_PYTHON_GIT_EXECUTABLE"


def import_gitpython() -> Any:
    """GitPython, set to run the `git` of an absolute PATH folder (model/programs.py): by name it
    runs the first `git` on PATH in the directory of each call — the work tree, where a relative
    PATH folder holds whatever the repository commits — and its import already runs `git
    version` (in the work tree a verb runs in) unless GIT_PYTHON_GIT_EXECUTABLE names one."""
    executable = git_program()
    saved = os.environ.get(_GITPYTHON_EXECUTABLE)
    os.environ[_GITPYTHON_EXECUTABLE] = executable
    try:
        import git as gitpython
    finally:
        if saved is None:
            os.environ.pop(_GITPYTHON_EXECUTABLE, None)
        else:
            os.environ[_GITPYTHON_EXECUTABLE] = saved
    gitpython.Git.GIT_PYTHON_GIT_EXECUTABLE = executable  # imported before, with another PATH
    return gitpython


@contextmanager
def without_repository_env() -> Iterator[None]:
    """GitPython's git processes inherit this process's environment, with no way to unset a
    variable: for their duration, git's repository-selecting variables are out of it, so the
    repository is the one named by the directory (a GIT_INDEX_FILE kept for the project would
    otherwise stage an `adopt --global` into the project's index)."""
    saved = {name: os.environ.pop(name) for name in REPOSITORY_ENV if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def commit_paths(cwd: str | os.PathLike[str], paths: Iterable[str], message: str,
                 env: Mapping[str, str] | None = None) -> str:
    """Stage exactly `paths` and commit them on the current branch with the porcelain
    (GitPython over the `git` CLI), so the user's config, identity and hooks — our guard
    among them — apply. Returns the new HEAD. A refusing hook raises RepoStateError."""
    gitpython = import_gitpython()  # deferred: ~80 ms of imports only the committing verbs pay for

    paths = list(paths)
    with without_repository_env():
        return _commit_paths(gitpython, cwd, paths, message, env)


def _commit_paths(gitpython: Any, cwd: str | os.PathLike[str], paths: list[str], message: str,
                  env: Mapping[str, str] | None) -> str:
    repo = _GITPYTHON_REPOS.get(str(cwd))
    if repo is None:  # ~0.6 ms to locate and read the config: once per batch, not per item
        if len(_GITPYTHON_REPOS) > 8:
            _GITPYTHON_REPOS.clear()
        repo = _GITPYTHON_REPOS[str(cwd)] = gitpython.Repo(str(cwd), search_parent_directories=False)
    extra = {"GIT_TERMINAL_PROMPT": "0", **(env or {})}
    if _BATCH["depth"]:
        extra = _without_auto_maintenance(extra)
    # `git commit -- <paths>` stages and commits tracked paths in one run (the hooks see the
    # same staged content); only a path git does not know yet needs a `git add` first. One
    # git process fewer per adopted item.
    new = _untracked(str(repo.git_dir), cwd, paths)
    check_head(repo.git_dir, repo.common_dir)  # never a new root commit over a branch git cannot read
    try:
        with repo.git.custom_environment(**extra), tempfile.TemporaryFile() as stdin:
            if new:
                repo.git.add("--", *new)
            # The message as UTF-8 on stdin, not in argv: argv is encoded in the locale's
            # encoding, which a claim's characters need not fit (LC_ALL=C, latin-1).
            stdin.write(message.encode("utf-8"))
            stdin.seek(0)
            repo.git.commit("-q", "-F", "-", "--", *paths, istream=stdin)
    except gitpython.GitCommandError as exc:
        # Leave the index as it was: nothing half-staged after a refusal.
        run_git(cwd, "reset", "-q", "--", *paths, check=False)
        raise _commit_error(exc, cwd) from exc
    # libgit2 reads the new HEAD (GitPython's `head.commit` would start a `git cat-file`).
    _BATCH["commits"] += 1
    return str(_pygit2_repo(str(repo.git_dir)).head.target)


def _untracked(git_dir: str, cwd: str | os.PathLike[str], paths: list[str]) -> list[str]:
    """The paths (relative to `cwd`) that are not in the index."""
    pyrepo = _pygit2_repo(git_dir)
    if pyrepo.workdir is None:
        return paths
    index = pyrepo.index
    index.read()
    top, here = os.path.realpath(pyrepo.workdir), os.path.realpath(cwd)
    return [p for p in paths
            if os.path.relpath(os.path.join(here, p), top).replace(os.sep, "/") not in index]  # fmt: skip


# git's own last word when it could not make the commit object: under commit.gpgsign, the
# signature (gpg, x509 or ssh: "gpg failed to sign the data", "Couldn't load public key …").
_NO_COMMIT_OBJECT = "fatal: failed to write commit object"


def _commit_error(exc: Any, cwd: str | os.PathLike[str]) -> RepoStateError:
    """One readable line from a failed `git commit` (GitPython quotes stderr), plus a hint."""
    raw = str(getattr(exc, "stderr", "") or getattr(exc, "stdout", "") or exc)
    lines = [ln.strip().strip("'").removeprefix("stderr: ").strip("'") for ln in raw.strip().splitlines()]
    # The output holds the person's own hooks' words too: a pre-commit hook that fails saying
    # "gpg failed to sign" is a hook refusal (git stops there, silent, before any signing).
    # Signing failed only when git's own last line says no commit object was written.
    said = [ln for ln in lines if ln]
    unsigned = bool(said) and said[-1] == _NO_COMMIT_OBJECT and _gpgsign(cwd)
    lines = [ln for ln in lines if ln and not ln.startswith(("hint:", "*** Please tell me", "Run", "git config"))]
    text = " ".join(lines)
    if disk_full(raw):
        return DiskFullError("no space left on device: git commit failed, nothing was committed")
    # Git checks its identity before any hook runs, and stops on its own `fatal:` line; the
    # same words earlier in the output are a hook's.
    if said and said[-1].startswith("fatal:") and any(words in said[-1] for words in _NO_IDENTITY):
        return CommitSetupError("git has no identity to commit with",
                                hint='set one: git config --global user.name "Your Name" && '
                                     'git config --global user.email you@example.com')
    if unsigned:  # commit.gpgsign with a key that does not sign
        return CommitSetupError(f"git could not sign the commit (commit.gpgsign is set): {text[:200]}",
                                hint="make signing work (a `git commit --allow-empty -m test` shows git's "
                                     "own error; user.signingkey, gpg.format, gpg.program), then run the "
                                     "command again; nothing was committed")  # fmt: skip
    return RepoStateError(f"git commit failed: {text[:300] or 'unknown error'}",
                          hint="nothing was committed; fix what the hook or git reported and run the command again")


# git's last line when it has no identity to commit with (ident.c: no email, or an empty name)
_NO_IDENTITY = ("unable to auto-detect email", "empty ident", "no email was given", "no name was given")


def _gpgsign(cwd: str | os.PathLike[str]) -> bool:
    proc = run_git(cwd, "config", "--bool", "--get", "commit.gpgsign", check=False)
    return proc.returncode == 0 and proc.stdout.strip() == "true"
