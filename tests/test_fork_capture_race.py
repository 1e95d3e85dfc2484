"""A forked session's capture racing its parent's (typed prompts): `claude --resume <id>
--fork-session` opens the fork's file with copies of the parent's records, which are no second
sighting once the parent's line is stored (store/capture.py `copied_from`). Two captures at once
(the parent's and the fork's SessionEnd captures, or the fork's and `git memory capture --all`)
are serialised by nothing but memory/atoms' compare-and-set; a `git` shim (tests/races.py) runs
the competitor at this capture's ref update, so this one loses the race and merges again — and
must judge its copies against what the competitor wrote, not the store it read before."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest
from races import background_capture, errors_log, first_update_shim, git_memory, raced_env
from sessions import gm, write_session
from test_cli_capture import _forked

SHIM = first_update_shim("refs/heads/memory/atoms")

RULE = "Never push directly to main."
PARENT, FORK = "bbbbbbbb-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002"


@pytest.mark.parametrize("competitor", ["session-end", "capture-all"])
def test_a_forks_copy_captured_while_its_parent_is_is_no_second_sighting(guarded: Path, tmp_path: Path,
                                                                         competitor: str) -> None:  # fmt: skip
    """Neither session captured yet; the fork's capture reads its file (the parent's line is not
    in the store: the copy looks like a sighting), and before its ref update the parent's capture
    (its SessionEnd, or `capture --all`, which reads the parent first) stores the line from the
    parent. Captured one after the other, in either order, the rule is one session
    (test_cli_capture: a forked session's copy is no second sighting). Raced, the copy was judged
    against the store as it was before the parent's capture wrote: one typed line, two sessions."""
    parent = write_session(guarded, PARENT, "2026-12-01", [{"user": RULE}])
    own = write_session(guarded, FORK, "2026-12-02", [{"user": "Always use pnpm, not npm."}])
    fork = _forked(parent, FORK, own)
    if competitor == "session-end":
        compete = shlex.join(background_capture(guarded, parent, PARENT))
    else:
        compete = f"cd {shlex.quote(str(guarded))} && {shlex.quote(git_memory())} capture --all --no-stage"
    env, race = raced_env(tmp_path, SHIM, compete)
    proc = subprocess.run(background_capture(guarded, fork, FORK), cwd=guarded, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (race / "raced").exists(), errors_log(guarded)
    atoms = json.loads(gm(guarded, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]
    [push] = [a for a in atoms if "push directly" in a["claim"]]
    assert push["sessions"] == [PARENT], (push["sessions"], (race / "competitor.out").read_text())
    # the fork's own line was captured all the same (the race lost nothing)
    assert any("pnpm" in a["claim"] and a["sessions"] == [FORK] for a in atoms), [a["claim"] for a in atoms]
    assert "capture" not in errors_log(guarded), errors_log(guarded)
