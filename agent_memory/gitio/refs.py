"""Reading `.git` without git, for the per-prompt hook path (spec §5.2's 100 ms budget, of
which an interpreter start is most): find the repository's git dirs, read a ref's object id
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


def locate_git_dirs(start: str | os.PathLike[str] | None = None) -> tuple[str, str, str | None] | None:
    """(git dir, common dir, work tree) as strings for the repository containing `start`.

    Understands `.git` directories, `.git` files (worktrees, submodules) with a `commondir`,
    and bare repositories. Worktrees share the common dir, hence one store per repository.
    """
    here = os.path.abspath(os.fspath(start) if start is not None else os.getcwd())
    here = os.path.realpath(here)
    while True:
        dotgit = os.path.join(here, ".git")
        git_dir: str | None = None
        work: str | None = here
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
        elif (os.path.isfile(os.path.join(here, "HEAD")) and os.path.isdir(os.path.join(here, "objects"))
              and os.path.isdir(os.path.join(here, "refs"))):
            git_dir, work = here, None
        if git_dir is not None:
            common = git_dir
            try:
                with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as fh:
                    common = os.path.normpath(os.path.join(git_dir, fh.read().strip()))
            except OSError:
                pass
            return git_dir, common, work
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


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


