"""Sessions ending together stage at once. A `git` shim on PATH (ahead of the real git, so it
sees the `update-ref` the stage runs itself) lets a competing stager write memory/review at
the exact point between this stage's read of the branch and its compare-and-set: the stage
re-reads and stages again — it reports no error, and the branch ends holding the newest
view of what is eligible."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from races import errors_log, first_update_shim, git_memory, raced_env
from sessions import gm, gm_json
from test_stage import _eligible

# At the first `update-ref` of memory/review, another stager writes the branch first.
SHIM = first_update_shim("refs/heads/memory/review")


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now="2026-11-06T12:00:00Z")


def _raced(project: Path, tmp_path: Path, compete: str, *args: str) -> subprocess.CompletedProcess[str]:
    env, race = raced_env(tmp_path, SHIM, compete)
    proc = subprocess.run([git_memory(), *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert (race / "raced").exists(), proc.stdout + proc.stderr
    return proc


def test_a_stager_with_an_older_view_writing_first_is_staged_over(project: Path, tmp_path: Path) -> None:
    old = _eligible(project, "Never push to main")
    older_tip = gm_json(project, "stage")["commits"][-1]["oid"]  # what a stager that saw less writes
    git(project, "update-ref", "-d", "refs/heads/memory/review")
    new = _eligible(project, "Use pnpm, not npm")
    real = shutil.which("git")
    proc = _raced(project, tmp_path, f"'{real}' update-ref refs/heads/memory/review {older_tip}", "stage")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "moved" not in proc.stderr
    on_review = git(project, "log", "--format=%(trailers:key=Atom-Id,valueonly)", "main..memory/review")
    assert {line.strip() for line in on_review.splitlines() if line.strip()} == set(old + new)
    # Deterministic: staging the same evidence again changes nothing.
    tip = git(project, "rev-parse", "memory/review").strip()
    again = gm_json(project, "stage")
    assert again["commits"][-1]["oid"] == tip == git(project, "rev-parse", "memory/review").strip()


def test_a_lost_race_that_the_other_stager_covers_is_no_error(project: Path, tmp_path: Path) -> None:
    ids = _eligible(project, "Never push to main", "Use pnpm, not npm")
    # The competitor stages the same evidence (another session ending at the same time).
    compete = f"'{git_memory()}' stage"
    proc = _raced(project, tmp_path, compete, "stage", "--output", "json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "staged" in (tmp_path / "race" / "competitor.out").read_text()
    on_review = git(project, "log", "--format=%(trailers:key=Atom-Id,valueonly)", "main..memory/review")
    assert {line.strip() for line in on_review.splitlines() if line.strip()} == set(ids)
    assert "moved" not in errors_log(project)


def test_the_auto_stage_after_a_capture_that_loses_the_race_logs_no_error(project: Path, tmp_path: Path) -> None:
    """SessionEnd's capture stages on its own: another session's stage lands in between, from
    a store without this capture's atoms; this capture stages again and nothing is logged."""
    from sessions import write_session

    first = _eligible(project, "Never push to main")
    sessions = [("bbbbbbbb-0000-4000-8000-00000000000" + str(n), f"2026-11-0{n}") for n in (1, 2)]
    for session, day in sessions[:1]:
        write_session(project, session, day, [{"user": "Use pnpm, not npm, in this repo."}])
    gm(project, "capture", "--all", "--no-stage")
    last = write_session(project, sessions[1][0], sessions[1][1], [{"user": "Use pnpm, not npm, in this repo."}])
    real = shutil.which("git")
    older = gm_json(project, "stage")["commits"][-1]["oid"]  # what a stager that saw less writes
    git(project, "update-ref", "-d", "refs/heads/memory/review")
    proc = _raced(project, tmp_path, f"'{real}' update-ref refs/heads/memory/review {older}",
                  "capture", "--transcript", str(last), "--output", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "moved" not in errors_log(project) and "not staged" not in proc.stdout, errors_log(project) + proc.stdout
    on_review = git(project, "log", "--format=%(trailers:key=Atom-Id,valueonly)", "main..memory/review")
    staged = {line.strip() for line in on_review.splitlines() if line.strip()}
    assert set(first) < staged and len(staged) == 2, staged


def test_a_global_stage_that_loses_the_race_stages_again(project: Path, tmp_path: Path) -> None:
    """Two projects' sessions ending together both stage the global repo's memory/review: the
    competitor writes it (from fewer hand-authored items) just before this stage's update; this
    stage re-reads and stages again, with no error."""
    home = Path(os.environ["AGENT_MEMORY_HOME"])
    first = gm_json(project, "remember", "--global", "Prefer small, focused commits.")["id"]
    older = git(home, "rev-parse", "memory/review").strip()  # what a stager that saw less writes
    second = gm_json(project, "remember", "--global", "Write the test before the fix.")["id"]
    git(home, "update-ref", "-d", "refs/heads/memory/review")
    real = shutil.which("git")
    proc = _raced(project, tmp_path, f"'{real}' -C '{home}' update-ref refs/heads/memory/review {older}",
                  "stage", "--global", "--output", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "moved" not in proc.stderr + errors_log(project)
    on_review = git(home, "log", "--format=%(trailers:key=Atom-Id,valueonly)", "main..memory/review")
    assert {line.strip() for line in on_review.splitlines() if line.strip()} == {first, second}
    # Deterministic: staging the same again changes nothing.
    tip = git(home, "rev-parse", "memory/review").strip()
    assert gm_json(project, "stage", "--global")["commits"][-1]["oid"] == tip
    assert git(home, "rev-parse", "memory/review").strip() == tip
