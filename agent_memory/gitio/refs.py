"""Reading `.git` without git, for the per-prompt hook path (a 100 ms budget, of which
an interpreter start is most): find the repository's git dirs, read a ref's object id
from the loose ref file or `packed-refs`. Only `os` is imported. Everything else that touches
git goes through `gitio.repo`; tests/test_refs.py checks these readers against `git` itself
(loose, packed, worktree, reftable).
"""

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    StrPath = str | os.PathLike[str]

ATOMS_REF = "refs/heads/memory/atoms"
REVIEW_REF = "refs/heads/memory/review"
STATE_DIRNAME = "agent-memory"  # <git common dir>/agent-memory: local state, never committed


def atom_path(ident: str) -> str:
    """Where an atom lives on `memory/atoms`: `atoms/<2 hex>/<id>.json`, fanned out by the
    first two hex digits of the id, so a write rebuilds one small subtree and reuses the other
    255 by oid (a flat `atoms/` of 100k entries would be rewritten whole on every commit)."""
    shard = ident[4:6] if len(ident) >= 6 else "__"
    return f"atoms/{shard}/{ident}.json"


def atom_paths(ident: str) -> tuple[str, str]:
    """Every path an atom's history may be under: the fanned-out one and the flat
    `atoms/<id>.json` of stores written before the fan-out (format 1)."""
    return atom_path(ident), f"atoms/{ident}.json"


def history_paths(ref: str, paths: list[str] | tuple[str, ...]) -> list[str]:
    """`paths` for a `git log` of `ref`; on `memory/atoms` an atom file named in either layout
    is looked up in both, so its history spans the move to the fan-out."""
    out = list(paths)
    if ref == ATOMS_REF:
        for one in paths:
            parts = one.split("/")
            if parts[0] == "atoms" and parts[-1].endswith(".json") and len(parts) in (2, 3):
                out += [p for p in atom_paths(parts[-1][: -len(".json")]) if p not in out]
    return out


def _looks_like_git_dir(path: str) -> bool:
    """The shape git itself accepts as a repository directory (HEAD, objects/, refs/)."""
    return (os.path.isfile(os.path.join(path, "HEAD")) and os.path.isdir(os.path.join(path, "objects"))
            and os.path.isdir(os.path.join(path, "refs")))  # fmt: skip


def _common_dir(git_dir: str) -> str:
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as fh:
            return os.path.normpath(os.path.join(git_dir, fh.read().strip()))
    except OSError:
        return git_dir


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _linked_work_tree(admin: str) -> str | None:
    """The work tree whose git dir is `admin` when that is a linked work tree's folder in the
    common dir (`.git/worktrees/NAME`: HEAD, commondir, and `gitdir` naming the work tree's
    `.git` file, absolute or relative to it), else None (a moved or deleted work tree too)."""
    if not (os.path.isfile(os.path.join(admin, "HEAD")) and os.path.isfile(os.path.join(admin, "commondir"))):
        return None
    try:
        with open(os.path.join(admin, "gitdir"), encoding="utf-8") as fh:
            dotgit = os.path.normpath(os.path.join(admin, fh.read().strip()))
    except OSError:
        return None
    return os.path.realpath(os.path.dirname(dotgit)) if os.path.isfile(dotgit) else None


def locate_git_dirs(start: str | os.PathLike[str] | None = None) -> tuple[str, str, str | None] | None:
    """(git dir, common dir, work tree) as strings for the repository containing `start`.

    Understands `.git` directories, `.git` files (worktrees, submodules) with a `commondir`,
    and bare repositories. Worktrees share the common dir, hence one store per repository.

    A directory that merely has a repository's layout (HEAD, objects/, refs/) *inside another
    repository's work tree* is that work tree's content, not a repository: anyone
    can commit such a folder, with a `config` and `hooks/` that would run programs, and a
    clone checks it out — while no clone can check out a `.git`. So such a folder is skipped
    and the enclosing repository is the answer, as git answers with `safe.bareRepository =
    explicit`; a bare repository outside any work tree, or a git dir inside a `.git` (a
    submodule's `.git/modules/x`), is still found. Started in a work tree's own `.git` (or a
    folder of it), the answer is that repository with its work tree, as from the work tree;
    in a linked work tree's folder there (`.git/worktrees/NAME`), that linked work tree's.
    """
    here = os.path.abspath(os.fspath(start) if start is not None else os.getcwd())
    here = os.path.realpath(here)
    embedded: tuple[str, str, str | None] | None = None  # a bare-looking folder met on the way up
    linked: tuple[str, str, str | None] | None = None  # a linked work tree's git dir met on the way up
    while True:
        dotgit = os.path.join(here, ".git")
        git_dir: str | None = None
        if os.path.isdir(dotgit):
            git_dir = dotgit
        elif os.path.isfile(dotgit):
            try:
                with open(dotgit, encoding="utf-8") as fh:
                    text = fh.read().strip()
            except OSError:
                return None
            if not text.startswith("gitdir:"):
                return None
            git_dir = os.path.normpath(os.path.join(here, text[len("gitdir:"):].strip()))
            if not os.path.isdir(git_dir):
                # A linked work tree whose main checkout was moved or deleted: git says "not a
                # git repository" here too. Never a repository made up at that path (a log
                # written there recreated the deleted checkout's `.git`).
                return None
        elif embedded is None and _looks_like_git_dir(here):
            embedded = (here, _common_dir(here), None)
        elif embedded is None and linked is None:
            work = _linked_work_tree(here)
            linked = (here, _common_dir(here), work) if work is not None else None
        if git_dir is not None:
            found = (git_dir, _common_dir(git_dir), here)
            common = os.path.realpath(found[1])
            if linked is not None and _inside(linked[0], common) and os.path.realpath(linked[1]) == common:
                # Started in `.git/worktrees/NAME` (a folder no clone checks out: it is in the
                # common dir): the linked work tree's repository, as from that work tree.
                return linked
            if embedded is not None and not any(
                _inside(embedded[0], os.path.realpath(d)) for d in found[:2]
            ):
                return found  # the bare-looking folder is checked-out content of this work tree
            if embedded is not None and embedded[0] == os.path.realpath(git_dir):
                # Started in this work tree's own `.git` (or a folder of it: `.git/refs`, a hook
                # run from `.git/hooks`): the same repository *with* its work tree, so every verb
                # reads and counts what it reads from the work tree (a bare answer here lost the
                # block, the settings and the staged items).
                return found
            return embedded or found
        parent = os.path.dirname(here)
        if parent == here:
            return embedded
        here = parent


class Location:
    """One repository, resolved once (at a hook's entry, or from a verb's Repo) and handed to
    everything below, so no later step can resolve the path to another repository (issue
    23): its git dir, its common dir (shared by worktrees: the store and the local state live
    there) and its work tree (None when bare). Strings and `os` only: the prompt path."""

    __slots__ = ("git_dir", "common", "work")

    def __init__(self, git_dir: str, common: str, work: "str | None") -> None:
        self.git_dir = git_dir
        self.common = common
        self.work = work

    @classmethod
    def of_git_dir(cls, git_dir: str, work: "str | None") -> "Location":
        """The repository whose git dir is `git_dir` (no discovery: a background job is
        handed the repository its hook resolved)."""
        git_dir = os.path.realpath(git_dir)
        return cls(git_dir, _common_dir(git_dir), os.path.realpath(work) if work else None)

    @property
    def top(self) -> str:
        """Where git runs for this repository: the work tree, else the git dir."""
        return self.work or self.git_dir

    @property
    def state(self) -> str:
        return os.path.join(self.common, STATE_DIRNAME)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Location) and (self.git_dir, self.common, self.work) == (
            other.git_dir, other.common, other.work)  # fmt: skip

    def __hash__(self) -> int:
        return hash((self.git_dir, self.common, self.work))

    def __repr__(self) -> str:
        return f"Location({self.git_dir!r}, {self.common!r}, {self.work!r})"


def locate(start: "str | os.PathLike[str] | None" = None) -> "Location | None":
    found = locate_git_dirs(start)
    return Location(*found) if found else None


# git's repository-selecting environment (git(1), "The Git Repository"): each one, set, makes
# a git process act on another repository, index, object store or ref namespace than the one
# it was started in. git exports some to its hooks, so a verb run from a hook of another
# repository inherits them (`adopt` staged into that repository's index).
REPOSITORY_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                  "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH", "GIT_NAMESPACE")  # fmt: skip


def _points_into(value: str, folders: "list[str]") -> bool:
    path = os.path.realpath(os.path.abspath(value))
    return any(_inside(path, os.path.realpath(folder)) for folder in folders)


def foreign_git_env(repo: "Location | None", environ: "dict[str, str] | os._Environ[str]") -> "list[str]":
    """The repository-selecting variables in `environ` that do not point at `repo` (all of
    them when there is no repository). What git sets for a hook of this very repository —
    GIT_DIR, GIT_INDEX_FILE inside its git dir, a push's quarantined objects — points at it."""
    out = []
    for name in REPOSITORY_ENV:
        value = environ.get(name)
        if value is None:
            continue
        if repo is None or name == "GIT_NAMESPACE":  # a namespace would hide memory/atoms
            out.append(name)
            continue
        private = [repo.git_dir, repo.common]
        if name in ("GIT_DIR", "GIT_COMMON_DIR"):
            ok = os.path.realpath(os.path.abspath(value)) in (
                os.path.realpath(repo.git_dir), os.path.realpath(repo.common))  # fmt: skip
        elif name == "GIT_WORK_TREE":
            ok = repo.work is not None and os.path.realpath(os.path.abspath(value)) == os.path.realpath(repo.work)
        elif name == "GIT_ALTERNATE_OBJECT_DIRECTORIES":
            ok = all(_points_into(part, private) for part in value.split(os.pathsep) if part)
        elif name == "GIT_INDEX_FILE":
            # An index file of this repository (a relative `.git/next-index-….lock` inherited
            # from another repository's hook names none here).
            ok = bool(value) and _points_into(value, private) and os.path.isfile(value)
        else:
            ok = bool(value) and _points_into(value, private)
        if not ok:
            out.append(name)
    return out


def drop_foreign_git_env(repo: "Location | None") -> "list[str]":
    """Remove from this process's environment (and so from every git it starts, GitPython's
    included) the repository-selecting variables that do not point at `repo`."""
    names = foreign_git_env(repo, os.environ)
    for name in names:
        os.environ.pop(name, None)
    return names


# --- the init marker ---------------------------------------------------------------------------
# `git memory init` leaves INIT_MARKER in <common dir>/agent-memory/: a file inside the git dir,
# which git never fills from a remote and no clone can check out. The Claude Code hooks act only
# on a repository that carries it.
INIT_MARKER = "initialised"
# The first line of each git hook of ours (committed/install.py reads it from here).
GIT_HOOK_MARKER = "agent-memory-hook:"


def mark_initialised(common: str) -> None:
    state = os.path.join(common, STATE_DIRNAME)
    os.makedirs(state, mode=0o700, exist_ok=True)
    path = os.path.join(state, INIT_MARKER)
    if not os.path.isfile(path):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, b"git memory init ran in this repository; the Claude Code hooks act here\n")
        finally:
            os.close(fd)


def unmark_initialised(common: str) -> None:
    try:
        os.unlink(os.path.join(common, STATE_DIRNAME, INIT_MARKER))
    except FileNotFoundError:
        pass


def is_initialised(common: str) -> bool:
    """Whether `git memory init` ran in this repository: its marker, or — for a repository
    set up before the marker existed — what that init left in the git dir alone: the local
    `memory/atoms` branch, `memory.project` in `.git/config` and one of our git hooks in the
    git dir (or `memory.python`, which init records when the hooks folder is committed). Such
    a repository is marked on the way, so the next call costs one stat."""
    if os.path.isfile(os.path.join(common, STATE_DIRNAME, INIT_MARKER)):
        return True
    if read_ref(common, ATOMS_REF) is None:
        return False
    keys = _memory_config_keys(os.path.join(common, "config"))
    if "project" not in keys:
        return False
    if "python" not in keys and not any(
        _holds(os.path.join(common, "hooks", name), GIT_HOOK_MARKER) for name in ("pre-commit", "pre-push")
    ):
        return False
    try:
        mark_initialised(common)
    except OSError:
        pass  # a read-only .git: recognised again next time
    return True


def _holds(path: str, needle: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return needle.encode() in fh.read(1 << 16)
    except OSError:
        return False


def _memory_config_keys(path: str) -> set[str]:
    """The keys set under `[memory]` in one git config file (lower case; anything this small
    reader does not follow simply is not found)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read(1 << 20)
    except OSError:
        return set()
    keys: set[str] = set()
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line[1:line.find("]")].strip().lower() if "]" in line else ""
            line = line[line.find("]") + 1:].strip() if "]" in line else ""
        if section == "memory" and line and line[0] not in "#;":
            keys.add(line.partition("=")[0].strip().lower())
    return keys


def _is_oid(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def read_ref(common_dir: "StrPath", refname: str, _depth: int = 0) -> str | None:
    """A ref's object id from the loose ref file, else `packed-refs`; None when absent or
    unreadable (including the reftable backend, which only git can read: the caller treats
    that as stale and falls back)."""
    base = os.fspath(common_dir)
    try:
        with open(os.path.join(base, *refname.split("/")), "rb") as fh:
            text = fh.read().decode("utf-8", "replace").strip()
    except OSError:
        text = None
    if text is not None:
        if text.startswith("ref:") and _depth < 5:
            return read_ref(common_dir, text[4:].strip(), _depth + 1)
        return text if _is_oid(text) else None
    try:
        with open(os.path.join(base, "packed-refs"), "rb") as fh:
            packed = fh.read().decode("utf-8", "replace")
    except OSError:
        return None
    for line in packed.splitlines():
        if line[:1] in ("#", "^", ""):
            continue
        oid, _, name = line.partition(" ")
        if name.strip() == refname and _is_oid(oid):
            return oid
    return None


