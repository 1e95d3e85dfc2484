"""`git memory forget` of an adopted atom is two writes: a `git commit` that takes the line out
of the L2 block (a `forget` line in adopted.log), then the tombstone on memory/atoms. A forget
killed between them (`kill -9`, a closed terminal) left the L1 atom untombstoned and marked
adopted though the block no longer held it: the gates found it eligible and the very next
`stage` (or SessionEnd's auto-stage) put the forgotten item back on memory/review, where
`adopt --all` would adopt it again. The same holds for a forget a teammate committed and the
user pulled. A `forget` line that is the last word on an atom now holds it back like a
rejection: never restaged, never offered by adopt, its L1 record (and recall) kept."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json
from test_adopt import Staged, held, stage_claims, waiting

# Kills the `git-memory forget` process above this hook once its commit has landed: what a
# kill -9 between the L2 commit and the L1 tombstone leaves.
POST_COMMIT = """#!/bin/sh
pid=$PPID
while [ -n "$pid" ] && [ "$pid" -gt 1 ]; do
    if tr '\\0' ' ' < /proc/$pid/cmdline | grep -q 'git-memory forget'; then
        kill -9 "$pid"; exit 0
    fi
    pid=$(awk '{print $4}' /proc/$pid/stat)
done
exit 0
"""


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


def _installed(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]}
    return subprocess.run(["git", "memory", *args], cwd=repo, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def _tombstoned(repo: Path, ident: str) -> bool:
    names = git(repo, "ls-tree", "-r", "--name-only", "refs/heads/memory/atoms").split()
    return f"tombstones/{ident}.json" in names


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="the hook finds its process in /proc")
def test_a_forget_killed_after_its_l2_commit_is_not_staged_again(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--all")
    ident = ids["tabs"]
    hook = Path(git(project, "rev-parse", "--git-path", "hooks/post-commit").strip())
    hook = hook if hook.is_absolute() else project / hook
    hook.write_text(POST_COMMIT)
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    proc = _installed(project, "forget", ident)
    assert proc.returncode == -9 or proc.returncode == 137, proc.stdout + proc.stderr
    hook.unlink()
    # The kill landed where it should: the L2 commit is there, the tombstone is not.
    assert ident not in held(project)
    assert "memory: forget" in git(project, "log", "-1", "--format=%s")
    assert not _tombstoned(project, ident)

    assert ident not in {c["atom"] for c in gm_json(project, "stage")["commits"]}
    assert ident not in waiting(project)
    assert ident not in {a["atom"] for a in gm_json(project, "adopt", "--all")["adopted"]}
    assert ident not in held(project)
    # Nothing was destroyed: the L1 record is still there, and running forget again finishes it.
    assert ident in {a["id"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    gm(project, "forget", ident)
    assert _tombstoned(project, ident)


def test_a_forget_pulled_from_a_teammate_is_not_staged_again(staged: Staged, tmp_path: Path) -> None:
    project, ids = staged
    gm(project, "adopt", "--all")
    ident = ids["tabs"]
    mate = tmp_path / "mate"
    git(tmp_path, "clone", "-q", str(project), str(mate))
    gm(mate, "init", "--yes", "--no-claude-hooks")
    gm(mate, "forget", ident)
    git(project, "pull", "-q", "--ff-only", str(mate), "main")
    assert ident not in held(project)

    assert ident not in {c["atom"] for c in gm_json(project, "stage")["commits"]}
    assert ident not in waiting(project)
    assert ident in {a["id"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="the hook finds its process in /proc")
def test_a_forget_killed_after_its_l2_commit_is_undone_by_forget_undo(staged: Staged) -> None:
    """The killed forget left no tombstone; its `forget` line is the last word on the atom, so
    `forget --undo` takes it back all the same: the line returns to the block (one unforget
    commit), the L1 record is as it was, and nothing is restaged."""
    project, ids = staged
    gm(project, "adopt", "--all")
    ident = ids["tabs"]
    before = held(project)[ident]
    hook = Path(git(project, "rev-parse", "--git-path", "hooks/post-commit").strip())
    hook = hook if hook.is_absolute() else project / hook
    hook.write_text(POST_COMMIT)
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    proc = _installed(project, "forget", ident)
    assert proc.returncode in (-9, 137), proc.stdout + proc.stderr
    hook.unlink()
    assert ident not in held(project) and not _tombstoned(project, ident)

    undo = gm_json(project, "forget", "--undo", ident)
    assert undo["restored"] and undo["tier"] == "L2" and undo["l2_commit"], undo
    assert held(project)[ident] == before
    assert "memory: unforget" in git(project, "log", "-1", "--format=%s")
    assert ident in {a["id"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    assert ident not in {c["atom"] for c in gm_json(project, "stage")["commits"]}
    assert gm(project, "validate", check=False).returncode == 0
    # Undone once: a second undo says it is not forgotten.
    again = gm(project, "forget", "--undo", ident, check=False)
    assert again.returncode != 0 and "is not forgotten" in again.stderr


def test_forget_undo_reads_the_log_in_the_order_the_block_does(project: Path) -> None:
    """The block folds adopted.log by (`at`, file order); a union merge can land a teammate's
    older adopt line after our forget. `forget --undo` took the last line in file order for the
    last word, found no forget there, and left the item out of the block while it undid the
    tombstone (and said nothing of L2)."""
    import json

    ids = stage_claims(project)
    gm(project, "adopt", "--all")
    ident = ids["tabs"]
    gm(project, "forget", ident)
    log = project / ".memory" / "adopted.log"
    lines = log.read_text("utf-8").splitlines()
    adopt_line = next(json.loads(ln) for ln in lines if ln.strip() and json.loads(ln)["atom"]["id"] == ident)
    adopt_line["at"] = "2020-01-01T00:00:00Z"  # adopted on a teammate's branch, long before
    log.write_text("\n".join([*lines, json.dumps(adopt_line)]) + "\n", "utf-8")
    git(project, "commit", "-q", "--no-verify", "-am", "merge a teammate's branch (union)")
    assert ident not in held(project)  # the forget is still the last word
    gm(project, "forget", "--undo", ident)
    assert ident in held(project)
