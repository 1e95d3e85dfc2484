"""The texts agent-memory writes, from the top-level `templates/` and `git-hooks/` folders: the
marker block, the branch and repository READMEs, the PR body, the session-start intro and the
git hook scripts. A wheel carries the two folders as the data packages
`agent_memory._templates` and `agent_memory._git_hooks` (setuptools' package-dir mapping in
pyproject.toml); an editable install or a source checkout has no such packages (setuptools'
editable finder does not map a folder without `__init__.py`), so the folders are read where
they are, next to the package. Either way there is one copy of each text.

Read with plain `open` where the file is on disk (a wheel's data package, a checkout): the
cold session start reads its intro through here, and `importlib.resources` (with pathlib and
zipfile behind it) costs more than the rest of that path. `importlib.resources` remains the
fallback for a package that is not on disk (a zip)."""

from __future__ import annotations

import os

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # agent_memory/
_CHECKOUT = os.path.dirname(_PACKAGE)  # the folder holding agent_memory/
_CACHE: dict[tuple[str, str], str] = {}


def _read(package: str, folder: str, name: str) -> str:
    key = (package, name)
    if key in _CACHE:
        return _CACHE[key]
    data_dir = os.path.join(_PACKAGE, package.rsplit(".", 1)[-1])
    for path in (os.path.join(data_dir, name), os.path.join(_CHECKOUT, folder, name)):
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            break
    else:
        from importlib import resources

        text = resources.files(package).joinpath(name).read_text("utf-8")
    _CACHE[key] = text
    return text


def read_template(name: str) -> str:
    return _read("agent_memory._templates", "templates", name)


def read_git_hook(name: str) -> str:
    return _read("agent_memory._git_hooks", "git-hooks", name)
