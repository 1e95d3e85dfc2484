"""The texts agent-memory writes, from the top-level `templates/` and `git-hooks/` folders: the
marker block, the branch and repository READMEs, the PR body, the session-start intro and the
git hook scripts. A wheel carries the two folders as the data packages
`agent_memory._templates` and `agent_memory._git_hooks` (setuptools' package-dir mapping in
pyproject.toml); an editable install or a source checkout has no such packages (setuptools'
editable finder does not map a folder without `__init__.py`), so the folders are read where
they are, next to the package. Either way there is one copy of each text."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]  # the folder holding agent_memory/


def _read(package: str, folder: str, name: str) -> str:
    try:
        return resources.files(package).joinpath(name).read_text("utf-8")
    except ModuleNotFoundError:
        return (_CHECKOUT / folder / name).read_text("utf-8")


@functools.cache
def read_template(name: str) -> str:
    return _read("agent_memory._templates", "templates", name)


@functools.cache
def read_git_hook(name: str) -> str:
    return _read("agent_memory._git_hooks", "git-hooks", name)
