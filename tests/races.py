"""A race staged at an exact point between real processes: a `git` shim in front of PATH runs
a competitor command ($COMPETE) once, at the git call the shim's script picks (a marker file in
$RACE_DIR makes it the only one), then execs the real git. Used by test_stage_race and
test_auto_memory_race; nothing of git or the store is mocked."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def raced_env(tmp_path: Path, shim: str, compete: str) -> tuple[dict[str, str], Path]:
    """(the environment whose `git` is `shim`, formatted with the real git's path; the race
    folder, which holds `raced` once the competitor ran and `competitor.out`, its output)."""
    folder = tmp_path / "shim"
    folder.mkdir()
    (folder / "git").write_text(shim.format(real=shutil.which("git")))
    (folder / "git").chmod(0o755)
    race = tmp_path / "race"
    race.mkdir()
    env = {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}", "RACE_DIR": str(race),
           "COMPETE": compete}  # fmt: skip
    return env, race
