"""A cloned repository's own code never runs in agent-memory's processes. A project may commit
an `agent_memory/` package of its own (by accident or to attack): Python puts the working
folder first on the import path for `python -m` and `python -c`, so a job started in the work
tree imported the clone's package instead of the installed one (review 2 of session 39)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import write_session
from test_hooks import PNPM, captured_sessions, payload, run_hook, sid, wait_for

ROOT = Path(__file__).resolve().parent.parent


def _commit_package_of_its_own(repo: Path, marker: Path) -> None:
    package = repo / "agent_memory"
    (package / "cli").mkdir(parents=True)
    runs = f"open({str(marker)!r}, 'a').write('ran\\n')\n"
    for name in ("__init__.py", "__main__.py", "cli/__init__.py", "cli/main.py", "cli/scan.py"):
        (package / name).write_text(runs, "utf-8")
    git(repo, "add", "agent_memory")
    git(repo, "commit", "-q", "-m", "a package of the project's own")


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", now="2026-11-06T12:00:00Z")


def test_the_session_end_job_never_imports_the_clones_package(project: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    _commit_package_of_its_own(project, marker)
    transcript = write_session(project, sid(7), "2026-11-05", [{"user": PNPM}])
    proc = run_hook(
        "session-end",
        payload("session-end", project, session_id=sid(7), transcript_path=str(transcript)),
        project,
    )
    assert proc.returncode == 0
    # (either the clone's code ran, or the installed job captured the session)
    wait_for(lambda: marker.exists() or sid(7) in captured_sessions(project), "the background job")
    assert not marker.exists()


def _guard_script(hook: str) -> str:
    """The Python program a git hook hands its interpreter (`-c '…'`)."""
    text = (ROOT / "git-hooks" / hook).read_text("utf-8")
    found = re.search(r"\"\$AGENT_MEMORY_PYTHON\" -c '(.*?)'", text, re.S)
    assert found, hook
    return found.group(1)


@pytest.mark.parametrize("hook", ["pre-commit", "pre-merge-commit", "pre-push"])
def test_the_git_hooks_python_never_imports_the_clones_package(hook: str, project: Path, tmp_path: Path) -> None:
    # Run as the hook runs it, in the work tree, but without PYTHONSAFEPATH (Python 3.10 has
    # none): the program itself keeps the working folder off the import path.
    marker = tmp_path / "ran"
    _commit_package_of_its_own(project, marker)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONSAFEPATH", "PYTHONPATH")}
    subprocess.run([sys.executable, "-c", _guard_script(hook)], cwd=project, env=env, input=b"",
                   capture_output=True, timeout=60, check=False)  # fmt: skip
    assert not marker.exists()


def _commit_a_git_of_its_own(repo: Path, marker: Path) -> None:
    """`bin/git`, committed: it notes that it ran, then runs the real git (so nothing else of
    the session changes and only the marker tells)."""
    import shutil

    real = shutil.which("git")
    assert real
    (repo / "bin").mkdir()
    (repo / "bin" / "git").write_text(f'#!/bin/sh\necho "$*" >> "{marker}"\nexec "{real}" "$@"\n')
    (repo / "bin" / "git").chmod(0o755)
    # an attribute on a memory file: the session start asks `git check-attr` about it
    (repo / ".gitattributes").write_text("CLAUDE.memory.md filter=lfs\n")
    git(repo, "add", "bin", ".gitattributes")
    git(repo, "commit", "-q", "-m", "tools of the project's own")


def test_the_claude_code_hooks_never_run_a_git_the_repository_commits(project: Path, tmp_path: Path) -> None:
    """Claude Code runs `git-memory hook …` in the project's folder, with its own PATH (git's
    dispatcher, which puts its own folder first, is not in between): with a relative folder
    first on PATH (`bin`, `node_modules/.bin`, `.`), every `git` our processes started — the
    session start's `git check-attr`, the session end's capture — was the `git` a cloned
    repository commits there. Git is now looked for in the absolute folders of PATH only."""
    import shutil

    from test_hooks import hook_env

    marker = tmp_path / "ran"
    _commit_a_git_of_its_own(project, marker)
    binary = shutil.which("git-memory", path=hook_env()["PATH"])
    assert binary
    env = {"PATH": "bin" + os.pathsep + hook_env()["PATH"]}
    proc = run_hook("session-start", payload("session-start", project), project, env,
                    command=[binary, "hook", "session-start"])  # fmt: skip
    assert proc.returncode == 0
    transcript = write_session(project, sid(7), "2026-11-05", [{"user": PNPM}])
    proc = run_hook("session-end", payload("session-end", project, session_id=sid(7), transcript_path=str(transcript)),
                    project, env, command=[binary, "hook", "session-end"])  # fmt: skip
    assert proc.returncode == 0
    wait_for(lambda: sid(7) in captured_sessions(project), "the background job")
    assert not marker.exists(), marker.read_text()
