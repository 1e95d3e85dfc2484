"""What a commit of `memory/atoms` is, told apart from anything else the branch may name.

`git branch -f memory/atoms main`, or a commit or merge made while the branch was checked out,
leaves it on a commit of the project's. Read as a store, that was an empty one, and the next
write "migrated" the project's tree into memory/atoms on top of the project's history. So
every reader and writer checks the tip first (`L1Store.tip`), and the pre-push hook finds the
store's commits through the branch's reflog when the branch no longer names them.
Imports only the git boundary and the model: the pre-push hook loads it.
"""

from __future__ import annotations

from agent_memory.gitio import repo as git
from agent_memory.gitio.refcheck import logged_oids
from agent_memory.model.errors import CorruptObjectError, NotAStoreError
from agent_memory.model.trailers import one_line, trailer

STORE = "memory/atoms"  # what a damaged object was reached from, in its message
ATOMS_DIR = "atoms"
TOMBSTONES_DIR = "tombstones"
INDEX_DIR = "index"
# What the tree of a store commit holds, in every layout our writers made (name → is a
# folder): the README `init` writes, `atoms/` (flat `<id>.json` before the fan-out,
# `<2 hex>/<id>.json` since), `tombstones/`, and `index/` since the fan-out.
STORE_ENTRIES = {"README.md": False, ATOMS_DIR: True, TOMBSTONES_DIR: True, INDEX_DIR: True}

# (common dir, commit) found to be store commits: a commit never changes, so each is judged once.
_STORE_COMMITS: set[tuple[str, str]] = set()


def not_a_store(repo: git.Repo, oid: str) -> str | None:
    """Why the object `oid` (what memory/atoms names) is no commit of the L1 store, or None when
    it is one. A store commit's tree holds nothing but STORE_ENTRIES — the flat layout `_migrate`
    converts included — and one that holds none of their folders (an old `init`'s README alone)
    carries the `Op:` trailer every store commit has. A branch moved onto a commit of the
    project's (`git branch -f`, a commit or merge made while it was checked out) fails this:
    read as a store, it looked empty, and the next write "migrated" the project's tree into
    memory/atoms on top of the project's history."""
    key = (str(repo.common_dir), oid)
    if key in _STORE_COMMITS:
        return None
    where = f"the tip of {STORE}"
    kind = git.object_kind(repo, oid, where)
    if kind != "commit":
        return f"{STORE} names a {kind} ({oid[:12]}), not a commit"
    entries = git.list_tree(repo, git.commit_tree(repo, oid, where), where=where)
    foreign = sorted(name for name, _, is_tree in entries if STORE_ENTRIES.get(name) is not is_tree)
    message = git.commit_message(repo, oid, where)
    subject = one_line(message.split("\n", 1)[0], 50)
    what = f"{STORE} points at {oid[:12]} ({subject!r}), which is no commit of the L1 store"
    if foreign:
        shown = ", ".join(foreign[:4]) + (f" and {len(foreign) - 4} more" if len(foreign) > 4 else "")
        return f"{what}: its tree holds {shown}"
    if not any(is_tree for _, _, is_tree in entries) and trailer(message, "Op") is None:
        return f"{what}: it holds no atoms/ and no index/, and its message has no Op: trailer"
    if len(_STORE_COMMITS) > 4096:
        _STORE_COMMITS.clear()
    _STORE_COMMITS.add(key)
    return None


def last_store_commit(repo: git.Repo) -> str | None:
    """The newest commit memory/atoms' reflog names that is a store commit (whose objects are
    all here): where the store was before the branch was moved."""
    for oid in logged_oids(repo.common_dir, git.ATOMS_REF):
        try:
            if not_a_store(repo, oid) is None:
                return oid
        except CorruptObjectError:
            continue  # pruned, or damaged: not a way back
    return None


def check_store_tip(repo: git.Repo, tip: str) -> None:
    """Raise NotAStoreError, with the way back in its hint, unless `tip` is a store commit. A
    tip that cannot be read is damage, not a move: whatever reads it says so, naming the
    object (and `validate` lists every damaged one)."""
    try:
        why = not_a_store(repo, tip)
    except CorruptObjectError:
        return
    if why is None:
        return
    found = last_store_commit(repo)
    if found is not None:
        hint = (f"its reflog says the store was last at {found[:12]}: restore it with "
                f"`git update-ref {git.ATOMS_REF} {found}`")  # fmt: skip
    else:
        hint = (f"`git reflog {STORE}` lists where it was: point it back at the store's last commit "
                f"(store commits carry an 'Op:' trailer) with `git update-ref {git.ATOMS_REF} <commit>`")  # fmt: skip
    raise NotAStoreError(f"{why}; nothing was read or changed", hint=hint)
