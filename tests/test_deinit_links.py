"""`git memory deinit` never writes, renames or deletes through a symbolic link: a file that
is one, or is reached through one (`.claude -> ~/.claude`, `CLAUDE.md -> ~/notes.md`, a linked
`.memory` or hooks folder a pull brought in), is left alone with one line on stderr saying which
and why, and the rest of `init` is still undone (exit 0). The links point at files under
tmp_path, never the real home."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json
from test_adopt import stage_claims
from test_links_after_init import NOTES, _copy_memory_files, _pull_links, _snapshot, make_outside


@pytest.fixture
def outside(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """make_outside next to the repository the test works in (the links it reads are
    ../victim-home/…): the project's folder when the test has one, else tmp_path (`repo`'s)."""
    here = request.getfixturevalue("project").parent if "project" in request.fixturenames else tmp_path
    return make_outside(here)


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


def test_deinit_leaves_linked_files_alone_and_undoes_the_rest(project: Path, outside: Path) -> None:
    # What an older init wrote through the links: our import line and our hooks, outside.
    (outside / "notes.md").write_text(NOTES + "\n@CLAUDE.memory.md\n")
    shutil.copy(project / ".claude" / "settings.json", outside / ".claude" / "settings.json")
    _pull_links(project, {"CLAUDE.md": outside / "notes.md", ".claude": outside / ".claude"})
    before = _snapshot(outside)
    proc = gm(project, "deinit", check=False)
    assert proc.returncode == 0, proc.stderr
    notes = [ln for ln in proc.stderr.splitlines() if ln.startswith("left ")]
    assert notes == [
        "left .claude/settings.json alone: .claude is a symbolic link (to ../victim-home/.claude), "
        "and deinit writes nothing through a link",
        "left .claude/settings.local.json alone: .claude is a symbolic link (to ../victim-home/.claude), "
        "and deinit writes nothing through a link",
        "left CLAUDE.md alone: CLAUDE.md is a symbolic link (to ../victim-home/notes.md), "
        "and deinit writes nothing through a link",
    ]
    assert _snapshot(outside) == before
    # the rest is undone: git hooks, the registration
    assert not (project / ".git" / "hooks" / "pre-commit").exists()
    registry = json.loads((Path(os.environ["AGENT_MEMORY_HOME"]) / "projects.json").read_text())
    assert registry["projects"] == []
    again = gm_json(project, "deinit")
    assert set(again["left_alone"]) == {".claude/settings.json", ".claude/settings.local.json", "CLAUDE.md"}


def test_deinit_purge_leaves_a_linked_memory_folder_alone(project: Path, outside: Path) -> None:
    ids = stage_claims(project)
    gm(project, "adopt", "--yes", ids["tabs"])
    _copy_memory_files(project, outside)
    _pull_links(project, {".memory": outside / "mem", ".gitattributes": outside / "gitconfig"})
    before = _snapshot(outside)
    proc = gm(project, "deinit", "--purge", "--yes", check=False)
    assert proc.returncode == 0, proc.stderr
    assert "left .memory/adopted.log alone: .memory is a symbolic link (to ../victim-home/mem)" in proc.stderr
    assert "left .gitattributes alone: .gitattributes is a symbolic link" in proc.stderr
    assert _snapshot(outside) == before
    assert (project / ".memory").is_symlink()
    # the rest is purged
    assert git(project, "branch", "--list", "memory/atoms", "memory/review") == ""
    assert not (project / "CLAUDE.memory.md").exists()
    assert "agent-memory" not in (project / ".gitignore").read_text()


def test_deinit_leaves_hooks_in_a_linked_hooks_folder_alone(project: Path, outside: Path) -> None:
    (outside / "bin").mkdir()
    hook = outside / "bin" / "pre-commit"
    hook.write_text("#!/bin/sh\n# agent-memory: an older init wrote this through the link\n")
    _pull_links(project, {".husky": outside / "bin"})
    git(project, "config", "core.hooksPath", ".husky")
    before = _snapshot(outside)
    proc = gm(project, "deinit", check=False)
    assert proc.returncode == 0, proc.stderr
    assert "left .husky/ alone: .husky is a symbolic link (to ../victim-home/bin)" in proc.stderr
    assert _snapshot(outside) == before
