"""Ctrl-C during `adopt --all` (SIGINT to the process group, as a terminal sends it): the items
before it are adopted, the rest wait on memory/review, and the command says which — in text and
as its one JSON object under `--output json` — and exits 130; a rerun finishes the rest once.
A `git` shim on PATH sends the signal at the k-th `git commit` adopt runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git
from sessions import gm
from test_adopt import held, stage_claims
from test_adopt_kill import CLAIMS

SHIM = """#!/bin/sh
real={real}
for arg in "$@"; do
    case $arg in -*|*=*) ;; "$KILL_VERB")
        n=$(( $(cat "$KILL_DIR/count" 2>/dev/null || echo 0) + 1 ))
        echo "$n" > "$KILL_DIR/count"
        if [ "$n" = "$KILL_AT" ]; then
            : > "$KILL_DIR/interrupted"
            kill -INT -$(ps -o pgid= $$ | tr -d ' ')
            sleep 5
        fi
        break ;;
    *) break ;; esac
done
exec "$real" "$@"
"""
NEVER = 300  # a bound for an adopt that, broken, never ends: never a timing assertion


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


def _interrupted(project: Path, tmp_path: Path, verb: str, at: int, *argv: str) -> subprocess.CompletedProcess[str]:
    """`git-memory ARGV` (the script: `git memory` would put git's exec-path ahead of the
    shim), sent SIGINT at the `at`-th `git VERB` it runs."""
    shim = tmp_path / "shim"
    shim.mkdir(exist_ok=True)
    (shim / "git").write_text(SHIM.format(real=shutil.which("git")))
    (shim / "git").chmod(0o755)
    kill_dir = tmp_path / "kill"
    shutil.rmtree(kill_dir, ignore_errors=True)
    kill_dir.mkdir()
    env = {**os.environ, "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}", "KILL_DIR": str(kill_dir),
           "KILL_AT": str(at), "KILL_VERB": verb}  # fmt: skip
    # a session of its own: the signal goes to adopt and its git processes, not to pytest
    proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), *argv],
                          cwd=project, env=env, capture_output=True, text=True, timeout=NEVER,
                          start_new_session=True, stdin=subprocess.DEVNULL)  # fmt: skip
    assert (kill_dir / "interrupted").exists(), proc.stdout + proc.stderr
    return proc


@pytest.mark.parametrize("output", ["text", "json"])
def test_ctrl_c_during_adopt_all_says_what_was_adopted_and_the_rerun_finishes(
    project: Path, tmp_path: Path, output: str
) -> None:
    ids = set(stage_claims(project, CLAIMS).values())
    base = git(project, "rev-parse", "HEAD").strip()
    json_flags = ["--output", "json"] if output == "json" else []
    proc = _interrupted(project, tmp_path, "commit", 4, "adopt", "--all", *json_flags)
    assert proc.returncode == 130, proc.stdout + proc.stderr
    assert "interrupted" in proc.stderr and "Traceback" not in proc.stderr
    landed = git(project, "rev-list", f"{base}..HEAD").split()
    assert len(landed) == 3
    adopted = set(held(project))
    assert len(adopted) == 3
    if output == "json":
        data = json.loads(proc.stdout)  # exactly one object
        assert {a["atom"] for a in data["adopted"]} == adopted
        assert set(data["not_adopted"]) == ids - adopted and data["error"] == "interrupted"
    else:
        for ident in adopted:
            assert f"adopted {ident} in " in proc.stdout, proc.stdout
        assert "3 items adopted (above), 7 not adopted and still waiting" in proc.stdout, proc.stdout
        assert all(ident in proc.stdout for ident in ids - adopted)
    assert git(project, "status", "--porcelain", "--", "CLAUDE.memory.md", ".memory") == ""
    gm(project, "adopt", "--all")
    assert sorted(held(project)) == sorted(ids)
    assert gm(project, "validate", check=False).returncode == 0


def test_ctrl_c_under_output_json_prints_one_json_object(project: Path, tmp_path: Path) -> None:
    """A verb interrupted before its report (`pr` at its `git push`): stdout still carries its
    one JSON object, the error form with exit 130 — it carried nothing."""
    stage_claims(project, CLAIMS)
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(project, "remote", "add", "origin", str(remote))
    proc = _interrupted(project, tmp_path, "push", 1, "pr", "--output", "json")
    assert proc.returncode == 130, proc.stdout + proc.stderr
    assert json.loads(proc.stdout) == {"error": "git memory pr: interrupted", "hint": None, "exit": 130}
