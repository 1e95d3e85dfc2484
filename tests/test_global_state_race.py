"""The global repo's local state files against two verbs at once (review of session 51):
`remembered.jsonl` / `remembered-adoptions.json` and `rejected-l3.json` were read, changed and
written back with no lock, so a `remember --global` between another verb's read and its write
was lost (its new candidate, or the rejection it lifted, put back). Real repositories; this
process is paused inside its read-modify-write while a real `git memory remember --global`
runs in a process of its own."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sessions import gm, gm_json
from test_l3 import DAY_X, TESTS_FIRST, at, make_project

from agent_memory.committed.global_repo import require_home
from agent_memory.promote import l3
from agent_memory.store import remember

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to see the waiter")

SMALL = "Prefer small, focused commits."
REVIEWED = "Review every dependency bump before merging it."
GUARD_S = 120.0  # only against a hang: neither finished nor waiting is a failure, said plainly


def _holds_open(folder: Path) -> bool:
    """Whether another process has `folder` itself open (the state folder's flock is taken on
    a descriptor of the folder: a process with it open is waiting for, or holding, that lock)."""
    target = os.path.realpath(folder)
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                    return True
            except OSError:
                continue
    return False


def _compete_on_first_call(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, repo: Path,
                           claim: str) -> list[subprocess.Popen[str]]:  # fmt: skip
    """Make the first call of `module.name` in this process (a read inside the step under test)
    start a real `git memory remember --global CLAIM`, and go on only once that process has
    finished (no lock: its write landed between this read and this write) or waits for the
    state folder's lock."""
    real: Callable[..., Any] = getattr(module, name)
    started: list[subprocess.Popen[str]] = []
    folder = require_home().repo().state

    def paused(*args: Any, **kwargs: Any) -> Any:
        value = real(*args, **kwargs)
        if not started:
            env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"],
                   **at(DAY_X)}  # fmt: skip
            proc = subprocess.Popen(["git", "memory", "remember", "--global", claim], cwd=str(repo), env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
            started.append(proc)
            deadline = time.monotonic() + GUARD_S
            while proc.poll() is None and not _holds_open(folder):
                assert time.monotonic() < deadline, "the competing remember neither finished nor waited"
                time.sleep(0.01)
        return value

    monkeypatch.setattr(module, name, paused)
    return started


def _finished(started: list[subprocess.Popen[str]]) -> None:
    assert started, "the competing remember did not run"
    out, _ = started[0].communicate(timeout=GUARD_S)
    assert started[0].returncode == 0, out


def test_a_rejection_lifted_while_adopt_records_another_stays_lifted(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    solo = make_project(tmp_path, "solo")
    first = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))
    gm(solo, "adopt", "--global", "--reject", first["id"], env=at(DAY_X))
    second = gm_json(solo, "remember", "--global", SMALL, env=at(DAY_X))
    home = require_home().repo()
    (atom,) = [a for a in remember.read_global_candidates(home) if a["id"] == second["id"]]
    started = _compete_on_first_call(monkeypatch, l3, "read_global_rejections", solo, TESTS_FIRST)
    # adopt --global --reject's step: the person's `remember --global` of the first claim (a
    # newer decision than its rejection) runs between its read and its write
    l3.record_global_rejection(home, atom)
    _finished(started)
    monkeypatch.undo()
    rejected = l3.read_global_rejections(home)
    assert second["id"] in rejected
    assert first["id"] not in rejected  # the lift was not written over


def test_a_candidate_remembered_while_adopt_prunes_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    solo = make_project(tmp_path, "solo")
    kept = gm_json(solo, "remember", "--global", SMALL, env=at(DAY_X))
    home = require_home().repo()
    started = _compete_on_first_call(monkeypatch, remember, "read_adoptions_seen", solo, REVIEWED)
    # adopt --global's step once `kept` landed: its candidate is done, and dropped
    assert remember.prune_global_candidates(home, {kept["id"]}, None) == []
    _finished(started)
    monkeypatch.undo()
    waiting = {a["claim"] for a in remember.read_global_candidates(home)}
    assert REVIEWED in waiting  # the new candidate was not written over
    assert SMALL not in waiting
