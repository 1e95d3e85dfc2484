"""Issue 24 §4: a full disk. The repository lives on a small tmpfs mounted for the test (this
needs root, or CAP_SYS_ADMIN: elsewhere the tests skip and say so); the transcripts stay on
the ordinary disk. Filling it leaves every command unable to write. Each must say "no space
left on device" with what it did and did not do, exit non-zero when anything failed (hooks:
exit 0, silent, as always), leave no temporary file, and keep what was stored."""

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
from sessions import gm, write_session
from test_adopt import CLAIMS, DAYS, SESSIONS, held, log_lines, stage_claims

MOUNT_SIZE = "24m"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / "small"
    where.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={MOUNT_SIZE}", "tmpfs", str(where)],
                          capture_output=True, text=True)  # fmt: skip
    if proc.returncode != 0:
        pytest.skip(f"a size-limited file system is needed and this machine will not mount one "
                    f"(mount -t tmpfs: {proc.stderr.strip() or proc.returncode}; it needs root)")  # fmt: skip
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


@pytest.fixture
def project(small_disk: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-06T12:00:00Z")
    path = small_disk / "proj"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("# proj\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    gm(path, "init", "--yes")
    return path


def fill(disk: Path) -> Path:
    """Write a file until the file system has no room left; returns it (remove it to free)."""
    filler = disk / "filler"
    chunk = b"\0" * (1 << 16)
    with open(filler, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(chunk)
        except OSError:
            pass
    for size in (4096, 512, 1):  # the last partial blocks too
        try:
            with open(filler, "ab", buffering=0) as fh:
                while True:
                    fh.write(b"\0" * size)
        except OSError:
            continue
    return filler


def temporary_files(repo: Path) -> list[str]:
    """Temporary files, and git's lock files (agent-memory's own `*.lock` are kept: held by
    flock). Not git's own `objects/??/tmp_obj_*`, which a `git commit` that ran out of room
    leaves and `git gc` prunes."""
    state = repo / ".git" / "agent-memory"
    return sorted(str(p.relative_to(repo)) for p in (repo / ".git").rglob("*") if p.is_file() and (
        p.name.endswith(".tmp") or p.name.startswith(".tmp") or
        (p.name.startswith("tmp_") and not p.name.startswith("tmp_obj_")) or
        (p.name.endswith(".lock") and p.parent != state)))  # fmt: skip


def sessions(repo: Path) -> list[Path]:
    return [write_session(repo, s, d, [{"user": text} for text in CLAIMS.values()])
            for s, d in zip(SESSIONS, DAYS, strict=True)]  # fmt: skip


def test_capture_all_on_a_full_disk_says_so_and_exits_non_zero(project: Path, small_disk: Path) -> None:
    sessions(project)
    tip = git(project, "rev-parse", "memory/atoms")
    filler = fill(small_disk)
    proc = gm(project, "capture", "--all", check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert "no space left on device" in out
    assert "captured 0 of 3 transcripts" in out  # what was done, and what was not
    assert "internal error" not in out and "kept moving" not in out
    assert git(project, "rev-parse", "memory/atoms") == tip  # nothing half-stored
    assert temporary_files(project) == []
    filler.unlink()  # with room again, the same command captures everything
    gm(project, "capture", "--all")
    assert len(json.loads(gm(project, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]) == 3


def test_capture_of_one_transcript_on_a_full_disk_is_not_an_internal_error(project: Path, small_disk: Path) -> None:
    first = sessions(project)[0]
    tip = git(project, "rev-parse", "memory/atoms")
    fill(small_disk)
    proc = gm(project, "capture", str(first), check=False)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "no space left on device" in proc.stderr and "nothing was captured" in proc.stderr
    assert "internal error" not in proc.stderr and "please report" not in proc.stderr
    assert git(project, "rev-parse", "memory/atoms") == tip
    assert temporary_files(project) == []


COUNT_UPDATE_REF = """#!/bin/sh
# Counts the `git update-ref` commands run under it (after git's own options), then runs git.
for arg in "$@"; do
    case $arg in -*|*=*) ;; update-ref) echo >> "{log}"; break ;; *) break ;; esac
done
exec {real} "$@"
"""


def test_a_full_disk_at_the_ref_update_is_not_taken_for_a_race(project: Path, small_disk: Path, tmp_path: Path) -> None:
    first = sessions(project)[0]
    tip = git(project, "rev-parse", "memory/atoms").strip()
    gm(project, "capture", str(first), "--no-stage")
    # The same capture again from the same tip (a fixed clock: the same commit object): every
    # object it writes is already there, so the first write the full disk refuses is the ref's.
    git(project, "update-ref", "refs/heads/memory/atoms", tip)
    (project / ".git" / "agent-memory" / "captured.log").unlink(missing_ok=True)  # read it again
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "git").write_text(COUNT_UPDATE_REF.format(log=tmp_path / "update-ref.log", real=shutil.which("git")))
    (shim / "git").chmod(0o755)
    fill(small_disk)
    # `git-memory` itself: `git memory` would put git's exec-path ahead of the shim
    proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), "capture", str(first), "--no-stage"],
                          cwd=project, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}"})  # fmt: skip
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "no space left on device" in proc.stderr
    assert "kept moving" not in proc.stderr + proc.stdout
    # one attempt, not a minute of retries as if another writer kept moving the ref
    assert (tmp_path / "update-ref.log").read_text().count("\n") == 1
    assert git(project, "rev-parse", "memory/atoms").strip() == tip
    assert temporary_files(project) == []


def test_prompts_on_a_full_disk_leave_no_temporary_files(project: Path, small_disk: Path) -> None:
    sessions(project)
    gm(project, "capture", "--all")
    fill(small_disk)
    for n in range(3):
        hook = {"session_id": f"s{n}", "transcript_path": "/nonexistent/t.jsonl", "cwd": str(project),
                "hook_event_name": "UserPromptSubmit", "prompt": "how do I run pytest before committing?"}  # fmt: skip
        proc = subprocess.run(["git", "memory", "hook", "user-prompt-submit"], input=json.dumps(hook).encode(),
                              cwd=project, capture_output=True, timeout=120)  # fmt: skip
        assert proc.returncode == 0 and proc.stderr == b""
    start = {"session_id": "s9", "transcript_path": "/nonexistent/t.jsonl", "cwd": str(project),
             "hook_event_name": "SessionStart", "source": "startup"}  # fmt: skip
    proc = subprocess.run(["git", "memory", "hook", "session-start"], input=json.dumps(start).encode(),
                          cwd=project, capture_output=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0 and proc.stderr == b""
    assert temporary_files(project) == []


FILL_ON_SECOND_COMMIT = """#!/bin/sh
# A person's own pre-commit hook (chained by agent-memory's): the second commit it sees is
# the one during which the disk fills up.
count="$(cat "{count}" 2>/dev/null || echo 0)"
echo $((count + 1)) > "{count}"
[ "$count" = 1 ] && {{ dd if=/dev/zero of="{filler}" bs=64k 2>/dev/null; dd if=/dev/zero of="{filler}2" bs=512 2>/dev/null; }}
exit 0
"""


def test_adopt_that_fills_the_disk_lists_what_it_adopted_and_what_it_did_not(
    project: Path, small_disk: Path, tmp_path: Path
) -> None:
    ids = stage_claims(project)
    base = git(project, "rev-parse", "HEAD").strip()
    chained = project / ".git" / "hooks" / "pre-commit.chained-by-agent-memory"
    chained.write_text(FILL_ON_SECOND_COMMIT.format(count=tmp_path / "count", filler=small_disk / "filler"))
    chained.chmod(0o755)
    proc = gm(project, "adopt", "--all", check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 3, out
    landed = git(project, "rev-list", f"{base}..HEAD").split()
    assert len(landed) == 1
    first = [line["atom"]["id"] for line in log_lines(project)]
    assert len(first) == 1 and f"adopted {first[0]} in {landed[0][:10]}" in proc.stdout
    assert "no space left on device: 1 item adopted, 2 not" in proc.stderr
    rest = sorted(set(ids.values()) - set(first))
    assert all(ident in proc.stdout for ident in rest)  # named as not adopted
    assert temporary_files(project) == []
    for filler in small_disk.glob("filler*"):
        filler.unlink()  # (git status itself needs room to refresh the index)
    assert git(project, "status", "--porcelain", "--", "CLAUDE.memory.md", ".memory") == ""
    gm(project, "adopt", "--all")  # with room again the rest goes through
    assert set(held(project)) == set(ids.values())
