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
import sys
from pathlib import Path

import pytest
from races import raced_env
from sessions import gm, write_session

SHIM = """#!/bin/sh
# At the first `update-ref` of memory/atoms, run $COMPETE first (a marker makes it the only one).
real={real}
case " $* " in
*" refs/heads/memory/atoms "*)
    if [ ! -e "$RACE_DIR/raced" ]; then
        : > "$RACE_DIR/raced"
        sh -c "$COMPETE" > "$RACE_DIR/competitor.out" 2>&1
    fi ;;
esac
exec "$real" "$@"
"""

RULE = "Never push directly to main."
PARENT, FORK = "bbbbbbbb-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002"


def _git_memory() -> str:
    return str(Path(sys.executable).parent / "git-memory")


def _background_capture(project: Path, transcript: Path, session: str) -> list[str]:
    """What the SessionEnd hook starts detached (claude/hooks.py `_spawn_capture`), run to its end."""
    return [_git_memory(), "hook", "background-capture", "--transcript", str(transcript), "--git-dir",
            str(project / ".git"), "--cwd", str(project), "--session", session]  # fmt: skip


def _forked(parent: Path, session: str, own: Path) -> Path:
    """What `claude --resume <parent> --fork-session` writes (test_cli_capture `_forked`): the
    parent's records, `sessionId` rewritten, then the fork's own."""
    records = [json.loads(line) for line in parent.read_text().splitlines()]
    for record in records:
        record["sessionId"] = session
    fork = parent.with_name(f"{session}.jsonl")
    fork.write_text("".join(json.dumps(r) + "\n" for r in records) + own.read_text())
    return fork


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
        compete = shlex.join(_background_capture(guarded, parent, PARENT))
    else:
        compete = f"cd {shlex.quote(str(guarded))} && {shlex.quote(_git_memory())} capture --all --no-stage"
    env, race = raced_env(tmp_path, SHIM, compete)
    proc = subprocess.run(_background_capture(guarded, fork, FORK), cwd=guarded, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (race / "raced").exists(), _errors(guarded)
    atoms = json.loads(gm(guarded, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]
    [push] = [a for a in atoms if "push directly" in a["claim"]]
    assert push["sessions"] == [PARENT], (push["sessions"], (race / "competitor.out").read_text())
    # the fork's own line was captured all the same (the race lost nothing)
    assert any("pnpm" in a["claim"] and a["sessions"] == [FORK] for a in atoms), [a["claim"] for a in atoms]
    assert "capture" not in _errors(guarded), _errors(guarded)


def _errors(project: Path) -> str:
    log = project / ".git" / "agent-memory" / "errors.log"
    return log.read_text() if log.exists() else ""
