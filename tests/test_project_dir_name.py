"""`CLAUDE_CODE_PROJECT_DIR_NAME` (Claude Code 2.1.332): with `CLAUDE_CONFIG_DIR` set, a valid
value replaces the project's folder name under `projects/` outright, for the transcripts and
for the auto-memory folder (docs/claude-client-records.md). agent-memory must look where the
client writes: `capture --all`, `init`'s count of sessions not captured yet, the auto-memory
folder. Through the CLI on real repositories; the client itself is checked in
tests/integration/test_client_slug.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sessions import gm_json, write_session

from agent_memory.automemory.location import resolve_auto_memory_dir
from agent_memory.automemory.quick import project_folder
from agent_memory.model.home import (
    memory_folder_name,
    project_dir_name,
    project_folder_name,
    slug_for,
)

NAME = "host-proj_1"
TOPIC = """---
name: release-branch
description: Deploys go out from the release branch only
metadata:
  type: feedback
---

Deploy from the release branch, never from main.
"""


def _projects() -> Path:
    return Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects"


def _move_to(folder_name: str, transcript: Path) -> Path:
    dest = _projects() / folder_name / transcript.name
    dest.parent.mkdir(parents=True, exist_ok=True)
    transcript.rename(dest)
    transcript.parent.rmdir()
    return dest


@pytest.mark.parametrize(("value", "honoured"), [
    (NAME, True), ("A", True), ("x" * 64, True), ("con1", True), ("COM10", True), ("lpt", True),
    ("", False), ("x" * 65, False), ("a.b", False), ("a b", False), (" host", False), ("host\n", False),
    ("caf\u00e9", False), ("../up", False), ("con", False), ("NUL", False), ("Com0", False), ("lpt9", False),
])  # fmt: skip
def test_the_name_is_validated_as_the_client_validates_it(value: str, honoured: bool, repo: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_PROJECT_DIR_NAME", value)
    assert project_dir_name() == (value if honoured else None)
    assert project_folder_name(repo) == (value if honoured else slug_for(repo))


def test_the_name_counts_only_while_the_config_dir_is_set(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_PROJECT_DIR_NAME", NAME)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "")
    assert project_dir_name() is None and project_folder_name(repo) == slug_for(repo)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    assert project_dir_name() is None and memory_folder_name(repo) == slug_for(repo)


def test_the_memory_folder_takes_the_name_only_under_the_config_dir(repo: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_PROJECT_DIR_NAME", NAME)
    root = repo.resolve()
    assert resolve_auto_memory_dir(root).path == _projects() / NAME / "memory"
    assert project_folder(root / ".git", root) == str(_projects() / NAME / "memory")
    # the client compares the remote base with its config dir as given: equal, the name holds
    monkeypatch.setenv("CLAUDE_CODE_REMOTE_MEMORY_DIR", os.environ["CLAUDE_CONFIG_DIR"])
    assert resolve_auto_memory_dir(root).path == _projects() / NAME / "memory"
    # another base: the path's own slug there
    monkeypatch.setenv("CLAUDE_CODE_REMOTE_MEMORY_DIR", str(tmp_path / "remote"))
    expected = tmp_path / "remote" / "projects" / slug_for(root) / "memory"
    assert resolve_auto_memory_dir(root).path == expected
    assert project_folder(root / ".git", root) == str(expected)


def test_sessions_filed_under_the_name_are_found_counted_and_captured(repo: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-05T12:00:00Z")
    monkeypatch.setenv("CLAUDE_CODE_PROJECT_DIR_NAME", NAME)
    session = "eeeeeeee-0000-4000-8000-000000000001"
    transcript = _move_to(NAME, write_session(repo, session, "2026-11-02", [{"user": "Never push directly to main"}]))
    memory = _projects() / NAME / "memory"
    memory.mkdir()
    (memory / "release-branch.md").write_text(TOPIC, "utf-8")

    init = gm_json(repo, "init", "--yes", "--no-claude-hooks")
    assert init["transcripts_not_captured"] == 1, init
    backfill = gm_json(repo, "capture", "--all", "--no-stage")
    assert (backfill["captured"], backfill["new"], backfill["failed"]) == (1, 2, 0), backfill  # a session, a memory
    atoms = gm_json(repo, "inspect", "--tier", "L1")["atoms"]
    [typed] = [a for a in atoms if a.get("origin") != "auto-memory"]
    assert typed["source"] == f"~/.claude/projects/{NAME}/{transcript.name}#L{typed['source'].rsplit('#L', 1)[1]}"
    [noted] = [a for a in atoms if a.get("origin") == "auto-memory"]
    assert noted["claim"].startswith("Deploy from the release branch")
    again = gm_json(repo, "capture", "--all", "--no-stage")
    assert (again["new"], again["merged"], again["failed"]) == (0, 0, 0), again


def test_an_ignored_name_leaves_the_slug_folder_in_use(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-05T12:00:00Z")
    monkeypatch.setenv("CLAUDE_CODE_PROJECT_DIR_NAME", "con")  # a device name: the client ignores it
    write_session(repo, "eeeeeeee-0000-4000-8000-000000000002", "2026-11-02", [{"user": "Never push directly to main"}])
    (_projects() / "con").mkdir()
    assert gm_json(repo, "init", "--yes", "--no-claude-hooks")["transcripts_not_captured"] == 1
    assert gm_json(repo, "capture", "--all", "--no-stage")["captured"] == 1
