"""An expensive starting state (a repository after `init` and a capture, with the home it was
built in) built once per test module, and a fresh copy of it for each test — at the very paths
it was built at, so the absolute paths it holds (the global repo's projects.json, the
transcript paths in .git/agent-memory/captured.log, the transcripts' own `cwd`) stay true.

Each test still gets a state nothing else has touched: the previous test's copy is deleted and
the saved one copied back before the test starts."""

from __future__ import annotations

import os
import shutil
import time
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
        self.key: str | None = None

    def use(self, home: Path, monkeypatch: pytest.MonkeyPatch, build: Callable[[Path], T],
            key: str = "") -> tuple[Path, T]:  # fmt: skip
        """`key` names what `build` builds: a module whose fixtures share this golden state
        must all build the same thing, or the second would be handed the first's copy."""
        if self.key is not None and self.key != key:
            raise AssertionError(f"one golden state, two builds: {self.key!r} and {key!r}")
        self.key = key
        live_home = self.live / "home"
        # One saved state per test: a second would move HOME from under the first's copy.
        assert os.environ["HOME"] == str(home), "a test can use one golden state only"
        for var in _HOME_VARS:
            monkeypatch.setenv(var, os.environ[var].replace(str(home), str(live_home), 1))
        if self.live.exists():
            _wait_for_jobs_in(self.live)
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


def _wait_for_jobs_in(folder: Path, bound_s: float = 120.0) -> None:
    """A detached job the previous test's hook started (`hook rebuild-index --git-dir …`) may
    still run: copied back under it, the next test's state would be written to by it. Wait
    for every process naming `folder` in its arguments to end (bounded; never a timing check)."""
    needle = os.fsencode(str(folder))
    deadline = time.monotonic() + bound_s
    while True:
        running = []
        for pid in filter(str.isdigit, os.listdir("/proc") if os.path.isdir("/proc") else []):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    if needle in fh.read():
                        running.append(pid)
            except OSError:
                continue
        if not running:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"processes {running} still run in {folder}: its copy cannot be restored")
        time.sleep(0.05)
