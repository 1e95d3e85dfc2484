"""The in-process `git memory` of the tests (tests/inprocess.py) reports what the installed
command reports and leaves the test process as it found it: cwd, environment, signal handlers,
no alarm armed."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from sessions import gm, gm_installed


def _process_state() -> tuple[object, ...]:
    return (os.getcwd(), dict(os.environ), signal.getsignal(signal.SIGINT),
            signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGALRM), signal.alarm(0))  # fmt: skip


def test_a_call_leaves_cwd_environment_and_signals_as_they_were(tmp_path: Path) -> None:
    before = _process_state()
    # --no-color writes NO_COLOR into the environment; outside a repository the verb fails.
    proc = gm(tmp_path, "--no-color", "status", check=False, env={"EXTRA_FOR_THIS_CALL": "1"})
    assert proc.returncode == 3 and "not a git repository" in proc.stderr
    assert _process_state() == before


def test_exit_codes_and_output_are_those_of_the_installed_command(tmp_path: Path) -> None:
    for argv in (["--version"], ["frobnicate"], ["inspect", "--tier", "L9"], ["status", "--help"],
                 ["status"]):  # fmt: skip
        here, installed = gm(tmp_path, *argv, check=False), gm_installed(tmp_path, *argv, check=False)
        assert (here.returncode, here.stdout, here.stderr) == (
            installed.returncode, installed.stdout, installed.stderr), argv

