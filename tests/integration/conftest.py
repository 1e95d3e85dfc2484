"""The integration suite against the real Claude Code client (pytest marker `claude_client`).

The client version is pinned in `claude-code.version` (one line: moving to a new client is a
one-line change and a CI run). It is installed once into a cache directory outside the
repository (`$AGENT_MEMORY_IT_CACHE`, else `$XDG_CACHE_HOME/agent-memory-it`, else
`~/.cache/agent-memory-it`) with `npm install --prefix`, and reused while it is there.

Without a cached client and without npm the suite skips, with one line saying so. In CI (`CI`
set) or with `AGENT_MEMORY_REQUIRE_CLIENT=1` it fails instead: a suite that silently skips in
CI tests nothing.

`AGENT_MEMORY_RECORD_TRANSCRIPTS=1` copies every transcript the tests made, paths neutralised,
into `tests/fixtures/transcripts/client-<version>/` (see `record.py`)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from conftest import new_repo
from golden import Golden

from .client import (
    Client,
    Workspace,
    cache_root,
    client_required,
    fixture_dir,
    git_memory_next_to_python,
    install_client,
    installed_client,
    pinned_version,
    record_fixture,
    truthy,
)

_skip_reason: list[str] = []
T = TypeVar("T")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "claude_client: drives the real Claude Code client (installed with npm on first use)",
    )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _skip_reason:
        terminalreporter.write_line(f"claude_client tests skipped: {_skip_reason[0]}")


@pytest.fixture(scope="session")
def claude_client() -> Client:
    # Session scope runs before the per-test isolation in tests/conftest.py, so the cache and
    # npm see the real home, never a test's temporary one.
    version = pinned_version()
    root = cache_root()
    client = installed_client(version, root)
    if client is None:
        npm = shutil.which("npm")
        if npm is None:
            reason = (
                f"Claude Code {version} is not in {root} and npm is not on PATH "
                "(install Node.js to run tests/integration)"
            )
            if client_required():
                pytest.fail(
                    f"{reason}; required because CI or AGENT_MEMORY_REQUIRE_CLIENT is set",
                    pytrace=False,
                )
            _skip_reason.append(reason)
            pytest.skip(reason)
        try:
            client = install_client(version, root, npm)
        except RuntimeError as exc:
            pytest.fail(str(exc), pytrace=False)
    git_memory = git_memory_next_to_python()
    if not git_memory.exists():
        pytest.fail(
            f"{git_memory} is missing: install agent-memory into this interpreter's "
            "environment (pip install .) before running tests/integration",
            pytrace=False,
        )
    return client


def workspace_lifecycle(ws: Workspace) -> Iterator[Workspace]:
    try:
        yield ws
    finally:
        # No detached capture may outlive its test (see end_captures).
        ws.end_captures()
        if truthy(os.environ.get("AGENT_MEMORY_RECORD_TRANSCRIPTS")):
            # The sessions' transcripts and their subagents' (`<session>/subagents/…`).
            for transcript in sorted(ws.config_dir.glob("projects/*/**/*.jsonl")):
                record_fixture(ws, transcript, fixture_dir(ws.client.version))


@pytest.fixture
def bare_workspace(
    claude_client: Client,
    repo: Path,
    isolated_env: Path,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> Iterator[Workspace]:
    """The repository before `git memory init` (for a test that sets it up its own way)."""
    ws = Workspace(claude_client, repo, isolated_env, tmp_path / "tmp", request.node.name)
    yield from workspace_lifecycle(ws)


def golden_workspace(
    golden: Golden[T],
    client: Client,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
    then: Callable[[Workspace], T],
    key: str,
) -> tuple[Workspace, T]:
    """A fresh copy of the state `git memory init --yes` and then `then(workspace)` build on a
    one-commit repository `proj`, built on the golden's first use and copied at the very paths
    it was built at (tests/golden.py): the same commit ids, the same absolute paths in
    projects.json, the CLAUDE.md imports and the transcripts as a fresh build. `then` must do
    the same in every test that shares `golden` (the client's sessions are named by `key`,
    not by the test) and its value may depend only on what the copy holds."""

    def build(base: Path) -> T:
        repo = new_repo(base / "proj")
        # HOME and the rest point into base/home now (Golden.use), so the workspace does too.
        builder = Workspace(client, repo, base / "home", tmp_path / "golden-tmp", f"golden:{key}")
        builder.git_memory("init", "--yes")
        value = then(builder)
        builder.wait_for_captures()  # nothing may write into base while it is saved
        return value

    base, value = golden.use(home, monkeypatch, build, key)
    return Workspace(client, base / "proj", base / "home", tmp_path / "tmp", name), value


@pytest.fixture(scope="session")
def initialized_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[bool]:
    """This worker's saved state after `git memory init --yes` (see `workspace`)."""
    return Golden(tmp_path_factory.mktemp("it-initialized"))


@pytest.fixture
def workspace(
    claude_client: Client,
    initialized_golden: Golden[bool],
    isolated_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> Iterator[Workspace]:
    """The repository after `git memory init --yes`: hooks in `.claude/settings.json`, the
    global memory repo in the test's home, the imports in both CLAUDE.md files.

    The same command on the same one-commit repository with the same fixed dates in every
    test, so it runs once per worker (~1 s of `git memory init` a test, 37 tests) and each
    test gets a fresh copy of the repository and the home it wrote to, at the very paths they
    were built at (tests/golden.py): the same commit ids, the same absolute paths in
    projects.json and the CLAUDE.md imports as a fresh init. Nothing the client does is
    shared: its config, transcripts and captures start from the copy, and the previous test's
    copy is deleted (after its detached captures ended) before the next one is made."""

    ws, _ = golden_workspace(
        initialized_golden, claude_client, isolated_env, monkeypatch, tmp_path,
        request.node.name, lambda _: True, "init --yes",
    )  # fmt: skip
    yield from workspace_lifecycle(ws)
