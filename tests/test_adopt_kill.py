"""Issue 24 §3: `kill -9` during `adopt --all` leaves no half item. A `git` shim on PATH (ahead
of the real git, so it sees every git command adopt runs itself) kills the adopt process with
SIGKILL at the k-th `git commit` — before it runs (the files are written, nothing committed),
after it landed (the commit is there, adopt never learnt it), while it runs on as an orphan,
or as a killed git would leave it (`index.lock` and `next-index-*.lock` behind). The next
`adopt --all` must finish or roll back the interrupted item: every item whole, once, in a commit
whose Atom-Id names the one line it adds; no git lock left; and `validate` in between must not
say ok about memory files that differ from HEAD."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json
from test_adopt import held, log_lines, stage_claims, trailers

CLAIMS = {f"k{n}": text for n, text in enumerate([
    "Never push directly to main; always open a pull request.",
    "Always run the tests with pytest -x before committing.",
    "Use tabs for indentation in the Makefile.",
    "Always use ruff for linting Python code.",
    "Never commit generated files under build/.",
    "Use black to format the Python sources.",
    "Always write type hints on public functions.",
    "Never use print for logging in the service code.",
    "Use poetry to manage the dependencies.",
    "Always squash commits before merging a branch.",
])}  # fmt: skip

SHIM = """#!/bin/sh
# Counts the git commands whose first argument is $KILL_VERB; at the $KILL_AT-th one the
# `git-memory adopt` process above it gets SIGKILL — when depends on $KILL_WHEN.
real={real}
verb=
for arg in "$@"; do  # the git command, after git's own options
    case $arg in -*|*=*) ;; *) verb=$arg; break ;; esac
done
if [ "$verb" = "$KILL_VERB" ]; then
    n=$(( $(cat "$KILL_DIR/count" 2>/dev/null || echo 0) + 1 ))
    echo "$n" > "$KILL_DIR/count"
    if [ "$n" = "$KILL_AT" ]; then
        pid=$PPID target=
        while [ -n "$pid" ] && [ "$pid" -gt 1 ]; do
            if tr '\\0' ' ' < /proc/$pid/cmdline | grep -q 'git-memory adopt'; then target=$pid; break; fi
            pid=$(awk '{{print $4}}' /proc/$pid/stat)
        done
        [ -n "$target" ] || exit 99
        : > "$KILL_DIR/killed"
        case $KILL_WHEN in
        before)  # the item's files are written; its commit never starts
            kill -9 "$target"; exit 137 ;;
        after)   # the commit landed; adopt dies before it hears so
            "$real" "$@"; status=$?; kill -9 "$target"; exit $status ;;
        orphan)  # adopt dies; its git commit runs on to the end (then says so: the test waits)
            kill -9 "$target"; "$real" "$@"; status=$?; : > "$KILL_DIR/orphan-ended"; exit $status ;;
        git)     # adopt and its git die mid-commit: git's locks stay behind. They are made
                 # before the kill: made after it, they raced the test's next `git status`,
                 # whose own index.lock the `:>` truncated mid-write (an index of zeros).
            gitdir=$("$real" rev-parse --absolute-git-dir)
            : > "$gitdir/index.lock"; : > "$gitdir/next-index-$$.lock"
            kill -9 "$target"
            exit 137 ;;
        esac
    fi
fi
exec "$real" "$@"
"""

# (when, which commit of the ten): every side of an item's `git commit`, first, middle, last.
KILLS = [("before", 1), ("before", 6), ("after", 3), ("after", 10), ("orphan", 5), ("git", 2), ("git", 10)]


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


def _killed_adopt(project: Path, shim: Path, kill_dir: Path, when: str, at: int) -> subprocess.CompletedProcess[str]:
    """`adopt --all` run as the `git-memory` script (git puts its exec-path first on PATH for a
    `git memory` subcommand, which would hide the shim), killed at the `at`-th commit."""
    shutil.rmtree(kill_dir, ignore_errors=True)
    kill_dir.mkdir()
    env = {**os.environ, "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}", "KILL_DIR": str(kill_dir),
           "KILL_VERB": "commit", "KILL_AT": str(at), "KILL_WHEN": when}  # fmt: skip
    proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), "adopt", "--all"], cwd=project,
                          env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert (kill_dir / "killed").exists(), proc.stdout + proc.stderr
    assert proc.returncode == -9, proc.stdout + proc.stderr
    if when == "orphan":  # adopt is gone, its git commit is not: the pipes it held died with adopt
        deadline = time.monotonic() + 120
        while not (kill_dir / "orphan-ended").exists():
            assert time.monotonic() < deadline, "the orphaned git commit never ended"
            time.sleep(0.05)
    return proc


def _commit_lines(project: Path, oid: str) -> list[str]:
    diff = git(project, "show", "--format=", "-U0", oid, "--", ".memory/adopted.log")
    return [json.loads(ln[1:])["atom"]["id"] for ln in diff.splitlines()
            if ln.startswith("+") and not ln.startswith("+++")]  # fmt: skip


def _shim(tmp_path: Path) -> Path:
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "git").write_text(SHIM.format(real=shutil.which("git")))
    (shim / "git").chmod(0o755)
    return shim


def test_kill_9_during_adopt_all_leaves_whole_items_and_the_rerun_finishes(project: Path, tmp_path: Path) -> None:
    ids = set(stage_claims(project, CLAIMS).values())
    assert len(ids) == 10
    shim = _shim(tmp_path)
    base = git(project, "rev-parse", "HEAD").strip()
    atoms_tip = git(project, "rev-parse", "memory/atoms").strip()
    failures = []
    for when, at in KILLS:
        state = project / ".git" / "agent-memory"
        for left in [*(project / ".git").glob("*.lock"), *state.glob("memory-commit.json"), *state.glob("adopt-run-*")]:
            left.unlink()  # what the previous case left, if it failed
        git(project, "reset", "-q", "--hard", base)
        git(project, "update-ref", "refs/heads/memory/atoms", atoms_tip)
        (state / "captured.log").unlink(missing_ok=True)  # the store as it was, taken as it is
        _killed_adopt(project, shim, tmp_path / "kill", when, at)  # an orphaned commit has ended
        case = f"kill {when} commit {at}"

        dirty = git(project, "status", "--porcelain", "--", "CLAUDE.md", "CLAUDE.memory.md", ".memory")
        check = gm(project, "validate", check=False)
        if dirty and check.returncode == 0:
            failures.append(f"{case}: validate says ok while memory files differ from HEAD:\n{dirty}")

        rerun = gm(project, "adopt", "--all", check=False)
        if rerun.returncode != 0:
            failures.append(f"{case}: the rerun exited {rerun.returncode}: {rerun.stdout}{rerun.stderr}")
            continue
        commits = git(project, "rev-list", "--reverse", f"{base}..HEAD").split()
        for oid in commits:
            added, atom = _commit_lines(project, oid), trailers(project, oid).get("Atom-Id")
            if added != [atom]:
                failures.append(f"{case}: commit {oid[:10]} says Atom-Id {atom} but adds {added}")
        adopted = [line["atom"]["id"] for line in log_lines(project)]
        if sorted(adopted) != sorted(ids) or len(commits) != 10:
            failures.append(f"{case}: {len(adopted)} lines, {len(commits)} commits for 10 items")
        if set(held(project)) != ids:
            failures.append(f"{case}: held {len(held(project))} of 10")
        left = sorted(p.name for p in (project / ".git").glob("*.lock"))
        if left:
            failures.append(f"{case}: git locks left behind: {left}")
        if git(project, "status", "--porcelain", "--", "CLAUDE.md", "CLAUDE.memory.md", ".memory"):
            failures.append(f"{case}: memory files still differ from HEAD after the rerun")
        check = gm(project, "validate", check=False)
        if check.returncode != 0:
            failures.append(f"{case}: validate after the rerun: {check.stdout}")
        record = {a["id"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
        if any(record[i].get("review", {}).get("state") != "adopted" for i in ids):
            failures.append(f"{case}: an adopted item is not marked adopted on memory/atoms")
    assert not failures, "\n".join(failures)


def test_a_half_item_committed_by_hand_is_taken_as_finished(project: Path, tmp_path: Path) -> None:
    ids = stage_claims(project)
    base = git(project, "rev-parse", "HEAD").strip()
    _killed_adopt(project, _shim(tmp_path), tmp_path / "kill", "before", 2)
    check = gm(project, "validate", check=False)
    assert check.returncode == 1 and "was killed while committing atm_" in check.stdout
    assert "`git memory adopt` finishes or rolls it back" in check.stdout
    # what the old hint said to do: commit the memory files by hand
    git(project, "commit", "-q", "-m", "commit what adopt left", "--", "CLAUDE.memory.md", ".memory/adopted.log")
    rerun = gm(project, "adopt", "--all")
    assert "finished atm_" in rerun.stdout
    commits = git(project, "rev-list", "--reverse", f"{base}..HEAD").split()
    assert len(commits) == 3
    assert sorted(line["atom"]["id"] for line in log_lines(project)) == sorted(ids.values())
    assert all(len(_commit_lines(project, oid)) == 1 for oid in commits)
    record = {a["id"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    assert all(record[i]["review"]["state"] == "adopted" for i in ids.values())
    assert gm(project, "validate", check=False).returncode == 0


def test_a_half_item_edited_since_is_left_alone_with_a_plain_message(project: Path, tmp_path: Path) -> None:
    stage_claims(project)
    _killed_adopt(project, _shim(tmp_path), tmp_path / "kill", "before", 1)
    log = project / ".memory" / "adopted.log"
    edited = log.read_text() + "\n"
    log.write_text(edited)
    rerun = gm(project, "adopt", "--all", check=False)
    assert rerun.returncode == 3
    assert ".memory/adopted.log cannot be put back: it was edited since" in rerun.stderr
    assert log.read_text() == edited  # a person's edit is never overwritten


def test_a_git_that_commits_nothing_does_not_hold_up_the_recovery(project: Path, tmp_path: Path) -> None:
    """A killed adopt left `index.lock` behind; a long-lived git in the repository that never
    locks the index (an editor's `git cat-file --batch`; an fsmonitor daemon or a pager's
    `git log` alike) is no commit in flight: the rerun recovers the item at once, not after
    waiting for that git to end and then giving up."""
    ids = set(stage_claims(project).values())
    base = git(project, "rev-parse", "HEAD").strip()
    _killed_adopt(project, _shim(tmp_path), tmp_path / "kill", "git", 2)
    assert (project / ".git" / "index.lock").exists()
    reader = subprocess.Popen(["git", "cat-file", "--batch"], cwd=project, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        rerun = gm(project, "adopt", "--all", check=False)
        assert reader.poll() is None  # it ran alongside the whole time
    finally:
        reader.communicate(b"", timeout=60)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert sorted(line["atom"]["id"] for line in log_lines(project)) == sorted(ids)
    commits = git(project, "rev-list", "--reverse", f"{base}..HEAD").split()
    assert all(len(_commit_lines(project, oid)) == 1 for oid in commits) and len(commits) == len(ids)
    assert not list((project / ".git").glob("*.lock"))


def test_a_git_run_through_an_alias_still_holds_up_the_recovery(project: Path, tmp_path: Path) -> None:
    """Which git commands write the index is told from their command line, and an alias (`git
    ci` for commit, with its hooks running) names none of them: it counts as a git that may
    hold `index.lock`, so the recovery waits for it instead of removing the lock under it."""
    stage_claims(project)
    _killed_adopt(project, _shim(tmp_path), tmp_path / "kill", "git", 2)
    lock = project / ".git" / "index.lock"
    assert lock.exists()
    seen = tmp_path / "seen"
    # Still there when the aliased git ends: nothing removed it while it ran.
    alias = f"!sleep 5; if test -e {lock}; then echo kept > {seen}; else echo removed > {seen}; fi"
    aliased = subprocess.Popen(["git", "-c", f"alias.ci={alias}", "ci"], cwd=project)
    try:
        rerun = gm(project, "adopt", "--all", check=False)
    finally:
        aliased.wait(timeout=120)
    assert seen.read_text().strip() == "kept"
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert not lock.exists()
