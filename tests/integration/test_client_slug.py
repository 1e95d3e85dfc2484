"""A repository at a long path, or at a path with a decomposed accent, through the real client:
Claude Code names its folder under `projects/` with a cut name and a hash past 200 UTF-16
units, from the path as the OS gives it (docs/claude-client-records.md), and agent-memory must
find that folder — its transcripts (`capture --all`, the SessionEnd hook) and its auto-memory
folder alike.

The folder name is also computed by the client's own function, cut out of the executable and
run in Node.js (`client_code.py`); tests/fixtures/claude_slugs.json, which the unit tests
hold `slug_for` to, is checked here to be that function's output."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from .client import Client, Workspace, slug_for
from .client_code import client_slugs

pytestmark = pytest.mark.claude_client

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "claude_slugs.json"
TYPED = "Never push directly to main"
RULE = "Deploy from the release branch, never from main."
TOPIC = f"""---
name: release-branch
description: Deploys go out from the release branch only
metadata:
  type: feedback
---

{RULE}
"""
INDEX = "- [Release branch](release-branch.md) — deploys go out from release\n"

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True)


@pytest.fixture(params=["long", "decomposed"])
def repo(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """A repository whose path is well over 200 characters (each name short: the OS limits a
    name, not the path) with a character outside the BMP in it; or one whose name holds a
    decomposed "é" (NFD, as macOS HFS+ stores names), which the client slugs unnormalized."""
    if request.param == "long":
        path = tmp_path.joinpath(*(f"nested-level-{i:02d}" for i in range(14)), "proj-😀-deep")
    else:
        path = tmp_path / "cafe\u0301"
    path.mkdir(parents=True)
    _git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("# proj\n")
    _git(path, "add", "README.md")
    _git(path, "commit", "-q", "-m", "initial")
    return path.resolve()


@pytest.fixture
def ws(claude_client: Client, repo: Path, isolated_env: Path, tmp_path: Path,
       request: pytest.FixtureRequest) -> Iterator[Workspace]:
    """`bare_workspace` without recording: fixtures are recorded under neutral paths, and a
    cut name has no neutral form (its hash is of the machine's path)."""
    workspace = Workspace(claude_client, repo, isolated_env, tmp_path / "tmp", request.node.name)
    try:
        yield workspace
    finally:
        workspace.wait_for_captures()


@needs_node
def test_the_slug_fixture_is_the_clients_own_output(claude_client: Client) -> None:
    cases = json.loads(FIXTURE.read_text("utf-8"))["cases"]
    paths = [path for path, _ in cases]
    assert client_slugs(claude_client.binary, paths) == [slug for _, slug in cases]


@needs_node
def test_a_repository_is_found_where_the_client_files_it(ws: Workspace, claude_client: Client) -> None:
    [slug] = client_slugs(claude_client.binary, [str(ws.repo)])
    if ws.repo.name.endswith("-deep"):
        assert len(ws.repo.as_posix()) > 220 and len(slug) > 200 and not slug.endswith("-deep")
    else:
        assert slug.endswith("-cafe-")  # "e" and the combining accent: not NFC's "caf-"

    # Before `init`: no hooks, so only `capture --all` can find this session.
    before = ws.run(TYPED)
    assert before.transcript.parent.name == slug
    assert before.transcript.parent.parent == ws.config_dir / "projects"
    init = ws.git_memory_json("init", "--yes")
    assert init["transcripts_not_captured"] == 1, init
    backfill = ws.git_memory_json("capture", "--all")
    assert backfill["new"] == 1 and backfill["failed"] == 0, backfill
    [typed] = ws.atoms()
    assert typed["source"].startswith(f"~/.claude/projects/{slug}/{before.session_id}.jsonl#L")

    _a_memory_the_model_writes_is_captured_from(ws, slug)  # the same cut name


HOST_NAME = "host-proj_1"


@pytest.fixture
def named_ws(claude_client: Client, isolated_env: Path, tmp_path: Path,
             request: pytest.FixtureRequest) -> Iterator[Workspace]:
    """A plain repository whose sessions run with `CLAUDE_CODE_PROJECT_DIR_NAME` set, as a host
    that embeds the client sets it."""
    path = tmp_path / "proj"
    path.mkdir()
    _git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("# proj\n")
    _git(path, "add", "README.md")
    _git(path, "commit", "-q", "-m", "initial")
    workspace = Workspace(claude_client, path.resolve(), isolated_env, tmp_path / "tmp", request.node.name)
    workspace.env["CLAUDE_CODE_PROJECT_DIR_NAME"] = HOST_NAME
    try:
        yield workspace
    finally:
        workspace.wait_for_captures()


def test_a_project_dir_name_is_honoured_where_the_client_honours_it(named_ws: Workspace) -> None:
    """With CLAUDE_CONFIG_DIR set the client files the session, and its auto-memory folder,
    under the name itself; agent-memory, run with the same environment, looks there. Without
    CLAUDE_CONFIG_DIR, or with a name the client refuses, the path's slug names the folder."""
    ws = named_ws
    slug = slug_for(ws.repo)
    ignored = ws.run("A prompt in a session whose name is a device name", env={"CLAUDE_CODE_PROJECT_DIR_NAME": "con"})
    assert ignored.transcript.parent.name == slug
    unset = dict(ws.env)
    del unset["CLAUDE_CONFIG_DIR"]  # HOME/.claude is the same config dir
    bare = subprocess.run([str(ws.client.binary), "-p", "--session-id", ws.new_session_id(), "hello"],
                          cwd=ws.repo, env=unset, capture_output=True, text=True, timeout=120, check=False)
    assert sorted(p.parent.name for p in ws.config_dir.glob("projects/*/*.jsonl")) == [slug, slug], bare.stderr[-500:]

    before = ws.run(TYPED)
    assert before.transcript.parent == ws.config_dir / "projects" / HOST_NAME
    init = ws.git_memory_json("init", "--yes")
    assert init["transcripts_not_captured"] == 3, init
    backfill = ws.git_memory_json("capture", "--all")
    assert backfill["captured"] == 3 and backfill["failed"] == 0, backfill
    [typed] = [a for a in ws.atoms() if TYPED.casefold() in a["claim"].casefold()]
    assert typed["source"].startswith(f"~/.claude/projects/{HOST_NAME}/{before.session_id}.jsonl#L")

    _a_memory_the_model_writes_is_captured_from(ws, HOST_NAME)


def _a_memory_the_model_writes_is_captured_from(ws: Workspace, name: str) -> None:
    """With the hooks: the model writes an auto-memory note into the project folder the client
    names (`name`), and the SessionEnd capture reads it from there, once."""
    folder = ws.config_dir / "projects" / name / "memory"
    topic, index = folder / "release-branch.md", folder / "MEMORY.md"
    script = {"steps": [
        {"when": {"nth_with_tools": 1},
         "content": [{"type": "tool_use", "name": "Write", "input": {"file_path": str(topic), "content": TOPIC}}]},
        {"when": {"nth_with_tools": 2},
         "content": [{"type": "tool_use", "name": "Write", "input": {"file_path": str(index), "content": INDEX}}]},
        {"when": {"nth_with_tools": 3}, "content": [{"type": "text", "text": "Noted."}]},
    ]}  # fmt: skip
    with ws.scripted(script):
        hooked = ws.run("Please keep a note about how we ship.")
    ws.wait_for_captures()
    assert hooked.transcript.parent.name == name
    assert topic.is_file(), f"the client did not write its auto-memory under {name}"
    [memory] = [a for a in ws.atoms() if a.get("origin") == "auto-memory"]
    assert memory["sessions"] == [hooked.session_id]
    assert memory["source"].startswith(f"~/.claude/projects/{name}/{hooked.session_id}.jsonl#L")
    again = ws.git_memory_json("capture", "--all")
    assert (again["new"], again["merged"], again["failed"]) == (0, 0, 0), again
    assert ws.errors_log() == []
