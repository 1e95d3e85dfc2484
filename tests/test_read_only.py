"""A repository this user may not write (`chmod -R a-w .git`, a checkout owned by someone else,
a read-only mount). Run as root, the test drops the capability that lets root write anyway
(setpriv), so the file system's refusal is real. Every command that writes says what the file
system refused, with a hint, and exit 3; nothing blames a transcript; the SessionEnd hook
exits 0 silently; nothing stored is lost, and a capture after the permissions are back takes
the transcript in."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json, write_session
from test_adopt import DAYS, SESSIONS, init_project

DROP = "-dac_override,-dac_read_search,-fowner"
CLAIM = "Never commit generated files in the dist folder."
OTHER = "Always run the linters with make lint before pushing."
LATER = "bbbbbbbb-0000-4000-8000-000000000004"


def _can_drop() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("setpriv") is not None


def as_unprivileged(repo: Path, *args: str, input_text: str | None = None) -> subprocess.CompletedProcess[str]:
    """`git memory ARGS` without the capabilities that let root write a read-only file."""
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    return subprocess.run(["setpriv", f"--inh-caps={DROP}", f"--bounding-set={DROP}", "git", "memory", *args],
                          cwd=str(repo), capture_output=True, text=True, env=env, input=input_text)  # fmt: skip


def _set_writable(root: Path, writable: bool) -> None:
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            if not path.is_symlink():
                mode = path.stat().st_mode
                path.chmod(mode | 0o200 if writable else mode & ~0o222)
    mode = root.stat().st_mode
    root.chmod(mode | 0o200 if writable else mode & ~0o222)


@pytest.fixture
def read_only(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    if not _can_drop():
        pytest.skip("needs root and setpriv: as root a read-only .git is written anyway unless a capability is dropped")
    init_project(repo, monkeypatch)
    yield repo
    _set_writable(repo / ".git", True)


def _refused(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 3, proc.stdout + proc.stderr
    first, hint = proc.stderr.strip().splitlines()[-2:]
    assert "Permission denied" in first and "internal error" not in first, proc.stderr
    assert hint.startswith("hint: check that you may write"), proc.stderr


def test_commands_in_a_read_only_repository_say_so_and_lose_nothing(read_only: Path) -> None:
    repo = read_only
    for session, day in zip(SESSIONS, DAYS, strict=True):
        write_session(repo, session, day, [{"user": CLAIM}])
    gm(repo, "capture", "--all", "--no-stage")  # eligible, not staged yet
    write_session(repo, LATER, "2026-11-04", [{"user": OTHER}])
    tip = git(repo, "rev-parse", "memory/atoms")
    _set_writable(repo / ".git", False)

    capture = as_unprivileged(repo, "capture", "--all")
    _refused(capture)  # it was "1 transcript could not be read … repair or remove it"
    assert "repair or remove" not in capture.stderr and "could not be read" not in capture.stderr
    _refused(as_unprivileged(repo, "remember", "Prefer ruff over flake8"))  # was an internal error
    as_json = as_unprivileged(repo, "remember", "Prefer ruff over flake8", "--output", "json")
    assert json.loads(as_json.stdout)["exit"] == 3
    _refused(as_unprivileged(repo, "stage"))

    payload = {"session_id": SESSIONS[0], "cwd": str(repo), "hook_event_name": "SessionEnd",
               "transcript_path": str(Path(os.environ["CLAUDE_CONFIG_DIR"]))}  # fmt: skip
    hook = as_unprivileged(repo, "hook", "session-end", input_text=json.dumps(payload))
    assert (hook.returncode, hook.stdout, hook.stderr) == (0, "", "")

    _set_writable(repo / ".git", True)
    assert git(repo, "rev-parse", "memory/atoms") == tip
    gm(repo, "capture", "--all", "--no-stage")  # nothing was remembered as unreadable: it is read now
    claims = {a["claim"] for a in gm_json(repo, "inspect", "--tier", "L1")["atoms"]}
    assert claims == {CLAIM.rstrip("."), OTHER.rstrip(".")}
    assert gm_json(repo, "stage")["commits"]


def test_init_with_a_home_folder_it_may_not_write_says_which_folder(repo: Path) -> None:
    """The global memory repo cannot be made: an internal error before; now what and where."""
    if not _can_drop():
        pytest.skip("needs root and setpriv: as root a read-only folder is written anyway unless a capability is dropped")
    home = Path(os.environ["HOME"])
    home.chmod(0o555)
    try:
        proc = as_unprivileged(repo, "init", "--yes")
    finally:
        home.chmod(0o755)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    first, hint = proc.stderr.strip().splitlines()[-2:]
    assert first == "git memory init: the file system refused: Permission denied (~/.claude); nothing more was written"
    assert hint == "hint: check that you may write to ~/.claude (ls -ld ~/.claude), then run the command again"
    assert git(repo, "status", "--porcelain") == "" and not (repo / ".git" / "agent-memory").exists()
    gm(repo, "init", "--yes")  # and once it may, init goes through


def test_a_transcript_refused_as_not_a_regular_file_is_not_the_object_store(tmp_path: Path) -> None:
    """capture --all stops at an error of the object store (every other transcript would meet
    it) but reports one transcript it cannot read and goes on: the reader's own refusal of a
    FIFO (NotRegularFile, an OSError without an errno) is the transcript's, not the store's."""
    from agent_memory.model.errors import from_object_store
    from agent_memory.transcripts.identity import NotRegularFile, open_regular_fd

    fifo = tmp_path / "session.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile) as refused:
        open_regular_fd(fifo)
    assert not from_object_store(refused.value)
    assert not from_object_store(PermissionError(13, "Permission denied", str(fifo)))
