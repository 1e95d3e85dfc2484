"""Which program a name on PATH runs, for the programs we start ourselves (git, gh, glab).

Git runs its commands and hooks, and Claude Code its hooks, in the work tree: there a relative
PATH folder (`.`, an empty entry, `bin`, `node_modules/.bin`) is a folder of the repository,
and a cloned repository can commit a `git` or a `gh` in it. A program of ours is looked for in
the absolute folders of PATH alone (SECURITY.md, "Which repository, which configuration")."""

from __future__ import annotations

import os


def absolute_path() -> str:
    """PATH with its absolute folders only."""
    return os.pathsep.join(e for e in os.environ.get("PATH", "").split(os.pathsep) if os.path.isabs(e))


def program(name: str) -> str | None:
    """The absolute path of `name` in the absolute folders of PATH (PATHEXT on Windows), or
    None when none holds it."""
    import shutil  # only the verbs that start a program pay for it

    return shutil.which(name, path=absolute_path())
