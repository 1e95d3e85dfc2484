"""The run lists of `adopt` (adoption/intent.py): a list left by a run that died is recorded by the
next run, and a list whose run finishes while the next run is opening it is no error.

Two `adopt --all` at once failed with "internal error: No such file or directory" under load: the
second run opened the first run's list, the first run wrote its marks, unlinked its list and
unlocked it, and the second — now holding the lock — read the list again by its path."""

from __future__ import annotations

import os
from pathlib import Path

from agent_memory.adoption.intent import RUN_PREFIX, RunList, _read_all, dead_runs
from agent_memory.gitio import repo as G
from agent_memory.gitio.state import state_dir


def test_a_dead_runs_list_is_recorded_then_removed(repo: Path) -> None:
    r = G.find_repo(repo)
    run = RunList(r)
    run.add("atm_0000aaaa", "adopted", "c0ffee")
    run.close(written=False)  # the run stopped before writing its marks: the list stays, unlocked
    lists = list(state_dir(r.common_dir).glob(f"{RUN_PREFIX}*.log"))
    assert len(lists) == 1
    with dead_runs(r) as marks:
        assert marks == [("atm_0000aaaa", "adopted", "c0ffee")]
    assert not lists[0].exists()


def test_a_list_unlinked_after_it_was_opened_reads_as_empty(tmp_path: Path) -> None:
    path = tmp_path / f"{RUN_PREFIX}1.log"
    path.write_text("atm_0000aaaa adopted c0ffee\n")
    fd = os.open(path, os.O_RDWR)
    try:
        assert _read_all(fd) == b"atm_0000aaaa adopted c0ffee\n"
        path.unlink()  # its run wrote the marks and removed it: nothing is left to record
        assert _read_all(fd) == b""
    finally:
        os.close(fd)
