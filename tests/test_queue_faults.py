"""The retry queue (`.git/agent-memory/queue/`, store/l1.py) under faults: observations a capture
queued (memory/atoms locked) live only there — their transcript is marked captured — so a
drain of the queue must never drop one it could not write, and no file in the queue folder may
hold a capture."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, gm_json, write_session
from test_store_unreadable_record import _atoms, _path_of, _set_blob

PUSH = "Never push directly to main; always open a pull request."
PNPM = "We use pnpm, not npm, in this repo."
RUFF = "Always run ruff before committing."
EARLY = "aaaaaaaa-0000-4000-8000-000000000001"
QUEUED = "bbbbbbbb-0000-4000-8000-000000000002"
DRAIN = "cccccccc-0000-4000-8000-000000000003"


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now="2026-10-10T12:00:00Z")


def _queue(project: Path) -> list[Path]:
    return sorted((project / ".git" / "agent-memory" / "queue").glob("*.json"))


def test_a_queued_observation_of_an_unreadable_record_waits_for_the_record(project: Path, tmp_path: Path) -> None:
    """Queued while memory/atoms was locked, then drained while its stored record could not be
    read: the observation was dropped with the queue file, and once the record was restored no
    capture brought it back (its transcript was marked captured when it was queued)."""
    write_session(project, EARLY, "2026-10-01", [{"user": PUSH}])
    gm(project, "capture", "--all", "--no-stage")
    [(ident, _)] = _atoms(project).items()

    lock = project / ".git" / "refs" / "heads" / "memory" / "atoms.lock"
    lock.write_text("")
    os.utime(lock, (time.time() - 600, time.time() - 600))  # as a killed git leaves it: stale
    queued = write_session(project, QUEUED, "2026-10-02", [{"user": PUSH}, {"user": PNPM}])
    assert gm_json(project, "capture", "--transcript", str(queued), "--no-stage", check=False)["queued"]
    assert _queue(project)
    lock.unlink()

    path = _path_of(project, ident)
    good = git(project, "show", f"refs/heads/memory/atoms:{path}").encode()
    _set_blob(project, path, good[: len(good) // 2], tmp_path)  # a torn record
    drain = write_session(project, DRAIN, "2026-10-03", [{"user": RUFF}])
    result = gm_json(project, "capture", "--transcript", str(drain), "--no-stage")
    assert ident in result["skipped"]["unreadable"]
    assert any("pnpm" in str(a["claim"]).lower() for a in _atoms(project).values())  # the rest is written

    _set_blob(project, path, good, tmp_path)  # restored from its history
    gm(project, "capture", "--all", "--no-stage")
    assert set(_atoms(project)[ident]["sessions"]) == {EARLY, QUEUED}  # type: ignore[arg-type]
    assert _queue(project) == []


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_fifo_or_device_in_the_queue_is_set_aside_not_waited_on(project: Path, kind: str) -> None:
    """Every capture reads the queue folder: a FIFO named like a queue file held the capture
    (the CLI, `remember`, SessionEnd's background job) until a writer came — never; /dev/zero
    linked there was read for ever. It is set aside in queue/bad like any unreadable file."""
    import subprocess
    import sys

    queue = project / ".git" / "agent-memory" / "queue"
    queue.mkdir(parents=True, exist_ok=True)
    trap = queue / "1000-1-deadbeef.json"
    if kind == "fifo":
        os.mkfifo(trap)
    else:
        trap.symlink_to("/dev/zero")
    later = write_session(project, DRAIN, "2026-10-03", [{"user": RUFF}])
    proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), "capture", "--transcript", str(later),
                           "--no-stage"], cwd=project, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert any("ruff" in str(a["claim"]).lower() for a in _atoms(project).values())
    assert not os.path.lexists(trap) and os.path.lexists(queue / "bad" / trap.name)
