"""Issue 24 §6: `validate` in a shallow clone. CI clones with `--depth 1`; when the commit the
clone was cut at is an adopt commit, git shows it as a root commit whose diff adds every line
of `.memory/adopted.log`. That is not a mislabelled commit: its parent is simply not here, so
validate leaves it unjudged (a warning says so) and still judges the commits it can see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git
from sessions import gm
from test_adopt import init_project, stage_claims


@pytest.fixture
def adopted(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    project = init_project(repo, monkeypatch)
    stage_claims(project)
    gm(project, "adopt", "--all")
    return project


def _shallow_clone(origin: Path, into: Path, depth: int) -> Path:
    git(origin.parent, "clone", "-q", "--depth", str(depth), f"file://{origin}", str(into))
    gm(into, "init", "--yes", "--no-claude-hooks")
    return into


def test_a_depth_1_clone_cut_at_an_adopt_commit_validates(adopted: Path, tmp_path: Path) -> None:
    tip = git(adopted, "rev-parse", "HEAD").strip()
    assert "Atom-Id:" in git(adopted, "log", "-1", "--format=%B")  # the clone is cut at an adopt commit
    clone = _shallow_clone(adopted, tmp_path / "ci", depth=1)
    assert (clone / ".git" / "shallow").read_text().split() == [tip]

    proc = gm(clone, "validate", "--output", "json", check=False)
    report = json.loads(proc.stdout)
    assert proc.returncode == 0, report["errors"]
    assert report["ok"] is True
    assert any("shallow clone" in w and "not checked" in w for w in report["warnings"])


def test_a_deeper_shallow_clone_still_judges_the_commits_it_has(adopted: Path, tmp_path: Path) -> None:
    # the newest adopt commit relabelled: in a depth-2 clone it is not at the boundary, and it is judged
    message = git(adopted, "log", "-1", "--format=%B")
    first = git(adopted, "log", "-1", "--format=%(trailers:key=Atom-Id,valueonly)", "HEAD~1").strip()
    wrong = message.replace(git(adopted, "log", "-1", "--format=%(trailers:key=Atom-Id,valueonly)").strip(), first)
    git(adopted, "commit", "-q", "--amend", "--no-verify", "-m", wrong)
    clone = _shallow_clone(adopted, tmp_path / "ci", depth=2)

    proc = gm(clone, "validate", check=False)
    assert proc.returncode == 1
    assert f"says Atom-Id {first}" in proc.stdout
    assert proc.stdout.count("says Atom-Id") == 1  # the boundary commit below it is not blamed
