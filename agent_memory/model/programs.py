"""Which program a name on PATH runs, for the programs we start ourselves (git, gh, glab).

Git runs its commands and hooks, and Claude Code its hooks, in the work tree: there a relative
PATH folder (`.`, an empty entry, `bin`, `node_modules/.bin`) is a folder of the repository,
and a cloned repository can commit a `git` or a `gh` in it. A program of ours is looked for in
the absolute folders of PATH alone, and started by that absolute path (SECURITY.md, "Which
repository, which configuration")."""

from __future__ import annotations

import os

_FOUND: dict[tuple[str, str], str | None] = {}  # (name, PATH) → where: a verb starts git often


def absolute_path() -> str:
    """PATH with its absolute folders only."""
    return os.pathsep.join(e for e in os.environ.get("PATH", "").split(os.pathsep) if os.path.isabs(e))


def program(name: str) -> str | None:
    """The absolute path of `name` in the absolute folders of PATH (PATHEXT on Windows), or
    None when none holds it."""
    key = (name, os.environ.get("PATH", ""))
    if key not in _FOUND:
        import shutil  # only the processes that start a program pay for it

        if len(_FOUND) > 32:
            _FOUND.clear()
        _FOUND[key] = shutil.which(name, path=absolute_path())
    return _FOUND[key]


def git_program() -> str:
    """The `git` we run, by its absolute path; FileNotFoundError (as starting a missing `git`
    raises) when no absolute PATH folder holds one."""
    found = program("git")
    if found is None:
        raise FileNotFoundError("git is not in any absolute folder of PATH (a relative one is never searched)")
    return found
