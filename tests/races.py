"""A race staged at an exact point between real processes: a `git` shim in front of PATH runs
a competitor command ($COMPETE) once, at the git call the shim's script picks (a marker file in
$RACE_DIR makes it the only one), then execs the real git. Used by test_stage_race,
test_auto_memory_race and test_fork_capture_race; nothing of git or the store is mocked."""

from __future__ import annotations

import os
import shutil
import sys
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


def first_update_shim(ref: str) -> str:
    """A shim script for `raced_env`: at the first `update-ref` that names `ref` (a marker file
    makes it the only one), run $COMPETE first — another writer of `ref` while this process
    is about to write it."""
    return f"""#!/bin/sh
real={{real}}
case " $* " in
*" {ref} "*)
    if [ ! -e "$RACE_DIR/raced" ]; then
        : > "$RACE_DIR/raced"
        sh -c "$COMPETE" > "$RACE_DIR/competitor.out" 2>&1
    fi ;;
esac
exec "$real" "$@"
"""


def git_memory() -> str:
    """The installed `git-memory` next to this interpreter."""
    return str(Path(sys.executable).parent / "git-memory")


def background_capture(project: Path, transcript: Path, session: str) -> list[str]:
    """What the SessionEnd hook starts detached (claude/hooks.py `_spawn_capture`), run here
    to its end."""
    return [git_memory(), "hook", "background-capture", "--transcript", str(transcript), "--git-dir",
            str(project / ".git"), "--cwd", str(project), "--session", session]  # fmt: skip


def errors_log(project: Path) -> str:
    log = project / ".git" / "agent-memory" / "errors.log"
    return log.read_text() if log.exists() else ""
