"""A backfill leaves the repository as git would keep it: `capture --all` writes one plumbing
commit per transcript, which runs none of git's automatic maintenance, so it runs that once
after the batch (as `adopt --all` does) — never when the user turned it off
(`maintenance.auto=false`), and what it does is git's own policy (`gc.auto`,
`gc.autoPackLimit`). And it keeps nothing of a transcript once that transcript is
captured, so its memory does not grow with the number of transcripts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json, write_session

SESSIONS = 12


@pytest.fixture
def project(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-05T12:00:00Z")
    gm(repo, "init", "--yes", "--no-claude-hooks")
    for n in range(SESSIONS):
        write_session(repo, f"dddddddd-0000-4000-8000-{n:012d}", "2026-11-01",
                      [{"user": f"Always run ruff before committing changes to the billing package {n}."},
                       {"user": f"Never edit the generated client {n} by hand."}])  # fmt: skip
    return repo


def _loose(repo: Path) -> int:
    counts = dict(line.split(": ") for line in git(repo, "count-objects", "-v").splitlines())
    return int(counts["count"])


def _capture_all(repo: Path, trace: Path) -> list[dict[str, object]]:
    """`capture --all` with git's trace on: the git commands it ran, as trace2 events."""
    report = gm_json(repo, "capture", "--all", "--no-stage", env={"GIT_TRACE2_EVENT": str(trace)})
    assert report["captured"] == SESSIONS and report["commits"] == SESSIONS
    return [json.loads(line) for line in trace.read_text().splitlines()] if trace.exists() else []


def _maintenance(events: list[dict[str, object]]) -> list[list[str]]:
    """The `git maintenance run` commands among the events (their argv after `git`'s own options)."""
    runs = []
    for event in events:
        argv = [str(a) for a in event.get("argv") or []]  # type: ignore[attr-defined]
        if event.get("event") == "start" and "maintenance" in argv:
            runs.append(argv[argv.index("maintenance"):])
    return runs


def test_capture_all_runs_gits_automatic_maintenance_once_after_the_batch(project: Path, tmp_path: Path) -> None:
    runs = _maintenance(_capture_all(project, tmp_path / "trace.json"))
    assert len(runs) == 1 and runs[0][:3] == ["maintenance", "run", "--auto"]
    # Nothing new: nothing written, no maintenance.
    (tmp_path / "again.json").unlink(missing_ok=True)
    gm(project, "capture", "--all", "--no-stage", env={"GIT_TRACE2_EVENT": str(tmp_path / "again.json")})
    events = [json.loads(line) for line in (tmp_path / "again.json").read_text().splitlines()] \
        if (tmp_path / "again.json").exists() else []  # fmt: skip
    assert _maintenance(events) == []


def test_the_maintenance_packs_the_loose_objects_under_gits_own_thresholds(project: Path) -> None:
    """Two packs over `gc.autoPackLimit=1` make `git gc --auto` pack everything (a
    threshold git checks exactly, unlike `gc.auto`'s sample of one fan-out folder); in the
    foreground (`gc.autoDetach=false`), so the count is final when the command returns. The
    `gc` strategy names the task those thresholds belong to: git 2.54 made `geometric` the
    default, whose loose-objects task packs them in one run and deletes them in the next (a git
    older than 2.52 knows no strategy of that name and runs the gc task anyway)."""
    for n in range(2):
        git(project, "commit", "-q", "--allow-empty", "--no-verify", "-m", f"pack {n}")
        git(project, "repack", "-q", "-d")
    git(project, "config", "gc.autoPackLimit", "1")
    git(project, "config", "gc.autoDetach", "false")
    git(project, "config", "maintenance.strategy", "gc")
    gm(project, "capture", "--all", "--no-stage")
    assert _loose(project) == 0, "every object of the backfill packed"
    assert git(project, "fsck", "--no-progress", "--connectivity-only").strip() == ""


def test_capture_all_runs_no_maintenance_when_the_user_turned_it_off(project: Path, tmp_path: Path) -> None:
    for n in range(2):
        git(project, "commit", "-q", "--allow-empty", "--no-verify", "-m", f"pack {n}")
        git(project, "repack", "-q", "-d")
    git(project, "config", "gc.autoPackLimit", "1")
    git(project, "config", "gc.autoDetach", "false")
    git(project, "config", "maintenance.auto", "false")
    assert _maintenance(_capture_all(project, tmp_path / "trace.json")) == []
    assert _loose(project) > 10 * SESSIONS  # left as they were written


# The child: capture --all in-process over the transcripts of the current directory's
# project, then how many bytes of git objects it still holds in memory (libgit2's object
# cache, which keeps parsed trees across reads): a measure of what the run keeps alive,
# without timing anything.
_CHILD = """
import sys
import pygit2
from agent_memory.cli.main import main
code = main(["capture", "--all", "--no-stage", "--output", "json"])
sys.stderr.write(f"\\ncached={pygit2.settings.cached_memory[0]}\\n")
raise SystemExit(code)
"""


def _held_after_capture(repo: Path, sessions: int, first: int) -> int:
    for n in range(first, first + sessions):
        write_session(repo, f"ffffffff-0000-4000-8000-{n:012d}", "2026-11-02",
                      [{"user": f"Always run mypy before committing changes to the search package {n}."}])  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", _CHILD], cwd=repo, capture_output=True, text=True,
                          env={**os.environ}, check=True)  # fmt: skip
    assert json.loads(proc.stdout)["captured"] == sessions
    return int(proc.stderr.rsplit("cached=", 1)[1].split()[0])


def test_a_backfill_keeps_no_transcripts_git_objects(repo: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """What `capture --all` holds of git objects at its end does not grow with the transcripts
    it read: the trees of every capture before the last are let go (kept, they grew by
    ~10 KB a transcript, up to libgit2's 256 MB default)."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-05T12:00:00Z")
    large = tmp_path / "large"
    large.mkdir()
    git(large, "init", "-q", "-b", "main")
    git(large, "commit", "-q", "--allow-empty", "-m", "initial")
    for where in (repo, large):
        gm(where, "init", "--yes", "--no-claude-hooks")
    few = _held_after_capture(repo, 5, 0)
    many = _held_after_capture(large, 45, 100)
    assert many < few + 40 * 1024, (few, many)
