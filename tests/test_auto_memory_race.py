"""Two captures of Claude Code's own memory folder at once (two sessions ending together, or a
session ending while `git memory capture --all` runs): nothing serialises them but memory/atoms'
compare-and-set. A `git` shim on PATH (ahead of the real git, so it sees the `update-ref` the
capture runs itself) lets the competitor capture at the exact point between this capture's
read of the folder and its ref update; this capture loses the race, re-reads the store and
merges again — and must judge its copy of the folder against what the competitor wrote."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest
from races import background_capture, errors_log, git_memory, raced_env
from sessions import gm, write_session

SHIM = """#!/bin/sh
# At the first `update-ref` of memory/atoms that names no session (the folder's capture; a
# transcript's names its session: "... from <session>"), run $COMPETE first (a marker file makes
# it the only one): another capture writing the store while this one is about to.
real={real}
case " $* " in
*" refs/heads/memory/atoms "*)
    case "$*" in
    *" from "*) ;;
    *) if [ ! -e "$RACE_DIR/raced" ]; then
           : > "$RACE_DIR/raced"
           sh -c "$COMPETE" > "$RACE_DIR/competitor.out" 2>&1
       fi ;;
    esac ;;
esac
exec "$real" "$@"
"""

RULE = "Never deploy the staging cluster on Fridays."
ONE, TWO = "aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000002"


@pytest.mark.parametrize("competitor", ["session-end", "capture-all"])
def test_a_memory_renamed_while_two_captures_run_is_not_a_recurrence(guarded: Path, tmp_path: Path,
                                                                     competitor: str) -> None:  # fmt: skip
    """Session one ends with `a.md` in the folder; its capture reads it (a stand-in session
    `memory-a`: no transcript shows the write). Before that capture's ref update, session two —
    which renamed the note to `b.md` — ends, or the person runs `capture --all`, and that
    capture stores the claim first (`memory-b`). Captured one after the other, the renamed copy
    is nothing new (test_auto_memory_reader: renamed or restamped between captures). Raced, the
    copy was judged against the store as it was before the competitor wrote: the claim became
    two sessions, one file counted twice."""
    from agent_memory.automemory.location import resolve_auto_memory_dir

    folder = resolve_auto_memory_dir(guarded).path
    folder.mkdir(parents=True)
    (folder / "a.md").write_text(f"---\ntype: feedback\n---\n{RULE}\n", "utf-8")
    first = write_session(guarded, ONE, "2026-12-01", [{"user": "Use pnpm, not npm, in this repo."}])
    second = write_session(guarded, TWO, "2026-12-01", [{"user": "Run the linter before every commit."}])
    rename = f"mv {shlex.quote(str(folder / 'a.md'))} {shlex.quote(str(folder / 'b.md'))}"
    if competitor == "session-end":
        compete = shlex.join(background_capture(guarded, second, TWO))
    else:
        compete = f"cd {shlex.quote(str(guarded))} && {shlex.quote(git_memory())}" \
                  " capture --all --no-stage"  # fmt: skip
    env, race = raced_env(tmp_path, SHIM, f"{rename} && {compete}")
    proc = subprocess.run(background_capture(guarded, first, ONE), cwd=guarded, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (race / "raced").exists(), errors_log(guarded)
    assert not (folder / "a.md").exists()  # the competitor ran: it read the renamed note
    atoms = json.loads(gm(guarded, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]
    [atom] = [a for a in atoms if "staging cluster" in a["claim"]]
    # The competitor stored it first, under b.md's stand-in; a.md's copy of it is nothing new.
    assert atom["sessions"] == ["memory-b"], atom["sessions"]
    # and this capture's transcript was captured all the same (the race lost nothing)
    assert any("pnpm" in a["claim"] for a in atoms), [a["claim"] for a in atoms]
    assert "auto-memory" not in errors_log(guarded) and "Claude's own memory" not in errors_log(guarded), errors_log(guarded)


NOTE_RULE = "Run the migrations before the tests, never after."
PARENT, FORK = "cccccccc-0000-4000-8000-000000000001", "cccccccc-0000-4000-8000-000000000002"


def test_a_forks_copy_of_a_memory_write_judged_while_its_parent_ends_is_one_session(guarded: Path,
                                                                                    tmp_path: Path) -> None:  # fmt: skip
    """The parent session wrote the note; the fork's file opens with a copy of that Write call
    (automemory/writes.py `without_copies`: one write, the session's the store holds it from,
    else the one whose transcript ended first). Neither captured yet: the fork's SessionEnd
    capture finds the parent ended first and keeps the parent's. Before its ref update the
    parent, resumed meanwhile, ends — now the later of the two — and its capture keeps the
    fork's and stores it. One after the other, the second capture finds the write held from the
    fork and keeps that (test_auto_memory_writes: a fork's copy is no second sighting). Raced,
    the fork's capture chose against the store it read before the parent's wrote: one write,
    two sessions."""
    import os

    from memory_writes import prompt, save, topic, write

    from agent_memory.automemory.location import resolve_auto_memory_dir

    folder = resolve_auto_memory_dir(guarded).path
    folder.mkdir(parents=True)
    target = folder / "feedback_migrations.md"
    text = topic("Migrations run before tests", NOTE_RULE)
    target.write_text(text, "utf-8")
    cwd = str(guarded)
    parent = save(folder.parent / f"{PARENT}.jsonl", [prompt(PARENT, "2026-11-02T09:00:00Z", "migrations first?", cwd=cwd),
                                                      *write(PARENT, "2026-11-02T09:00:05Z", target, text, call_id="t1", cwd=cwd)])  # fmt: skip
    copies = [{**json.loads(line), "sessionId": FORK} for line in parent.read_text("utf-8").splitlines()]
    own = {**prompt(FORK, "2026-11-03T10:00:00Z", "now something else entirely", cwd=cwd), "uuid": f"u-{FORK}"}
    fork = save(folder.parent / f"{FORK}.jsonl", [*copies, own])
    os.utime(parent, (1_790_000_000, 1_790_000_000))
    os.utime(fork, (1_790_086_400, 1_790_086_400))
    # the parent resumed (`claude --resume`: the same file, appended to), then ending
    resumed = json.dumps({**prompt(PARENT, "2026-11-04T09:00:00Z", "one more thing", cwd=cwd), "uuid": "u-resumed"})
    append = f"printf '%s\\n' {shlex.quote(resumed)} >> {shlex.quote(str(parent))}"
    env, race = raced_env(tmp_path, SHIM, f"{append} && {shlex.join(background_capture(guarded, parent, PARENT))}")
    proc = subprocess.run(background_capture(guarded, fork, FORK), cwd=guarded, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (race / "raced").exists(), errors_log(guarded)
    atoms = json.loads(gm(guarded, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]
    [atom] = [a for a in atoms if a.get("origin") == "auto-memory" and "migrations" in a["claim"]]
    assert (atom["sessions"], atom["observations"]) == ([FORK], 1), (atom["sessions"], (race / "competitor.out").read_text())
    assert "auto-memory" not in errors_log(guarded), errors_log(guarded)
