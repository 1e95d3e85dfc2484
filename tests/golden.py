"""An expensive starting state (a repository after `init` and a capture, with the home it was
built in) built once per test module, and a fresh copy of it for each test — at the very paths
it was built at, so the absolute paths it holds (the global repo's projects.json, the
transcript paths in .git/agent-memory/captured.log, the transcripts' own `cwd`) stay true.

Each test still gets a state nothing else has touched: the previous test's copy is deleted and
the saved one copied back before the test starts."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

import pytest

T = TypeVar("T")

# The variables conftest's isolated_env points into the test's home.
_HOME_VARS = ("HOME", "CLAUDE_CONFIG_DIR", "AGENT_MEMORY_HOME", "GIT_CONFIG_GLOBAL")


class Golden(Generic[T]):
    """`use` builds the state under `base/live` on its first call and saves a copy; every call
    after that replaces `base/live` with that copy. The build's return value (ids, say) is kept
    with it: it must depend only on what the copy holds."""

    def __init__(self, base: Path) -> None:
        self.live = base / "live"
        self.saved = base / "saved"
        self.value: T | None = None

    def use(self, home: Path, monkeypatch: pytest.MonkeyPatch, build: Callable[[Path], T]) -> tuple[Path, T]:
        live_home = self.live / "home"
        for var in _HOME_VARS:
            monkeypatch.setenv(var, os.environ[var].replace(str(home), str(live_home), 1))
        if self.live.exists():
            shutil.rmtree(self.live)
        if self.value is not None and self.saved.exists():
            shutil.copytree(self.saved, self.live, symlinks=True)
            return self.live, self.value
        shutil.rmtree(self.saved, ignore_errors=True)
        self.live.mkdir(parents=True)
        shutil.copytree(home, live_home, symlinks=True)
        value = build(self.live)
        shutil.copytree(self.live, self.saved, symlinks=True)
        self.value = value
        return self.live, value


def new_repo(path: Path) -> Path:
    """What conftest's `repo` fixture makes: a real git repository with one commit on main."""
    from conftest import git

    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("# proj\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path
