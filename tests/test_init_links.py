"""`git memory init` in a cloned, untrusted repository never writes through the links it
commits: `.gitattributes -> ~/.gitconfig` or `.claude -> ~/.claude` would otherwise land our
lines and hooks in the user's own files. Init refuses with one line, a hint and exit 3 before
it writes anything; the links' targets (files under tmp_path, never the real home) stay as
they were."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import git
from sessions import gm

from agent_memory.claude.settings import exclude_memory_imports, install_claude_hooks
from agent_memory.committed import install
from agent_memory.model.errors import RepoStateError

OUTSIDE_GITCONFIG = "[user]\n\tname = Victim\n"
OUTSIDE_SETTINGS = '{"model": "opus"}\n'


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """What the links point at: a stand-in for the user's home, outside every repository."""
    home = tmp_path / "victim-home"
    (home / ".claude").mkdir(parents=True)
    (home / ".gitconfig").write_text(OUTSIDE_GITCONFIG)
    (home / ".claude" / "settings.json").write_text(OUTSIDE_SETTINGS)
    (home / "notes.md").write_text("# notes\n")
    return home


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _clone_with_links(tmp_path: Path, links: dict[str, Path]) -> Path:
    """A repository that commits `links` (relative links, as an attacker's clone would carry
    them), cloned the way a user gets it."""
    origin = tmp_path / "attacker"
    origin.mkdir()
    git(origin, "init", "-q", "-b", "main")
    (origin / "README.md").write_text("# innocent-looking project\n")
    for rel, target in links.items():
        where = origin / rel
        where.parent.mkdir(parents=True, exist_ok=True)
        where.symlink_to(os.path.relpath(target, (tmp_path / "victim" / rel).parent))
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "innocent-looking project")
    git(tmp_path, "clone", "-q", str(origin), "victim")
    return tmp_path / "victim"


def _nothing_written(repo: Path) -> None:
    assert git(repo, "branch", "--list", "memory/atoms") == ""
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    assert git(repo, "config", "--get", "memory.project", check=False) == ""
    assert not Path(os.environ["AGENT_MEMORY_HOME"]).exists()
    assert git(repo, "status", "--porcelain") == ""


def _refusal(proc: subprocess.CompletedProcess[str]) -> list[str]:
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint:"), lines
    assert "refusing to write through the work tree" in lines[0]
    return lines


def test_the_reported_attack_is_refused_and_the_users_files_are_untouched(tmp_path: Path, outside: Path) -> None:
    victim = _clone_with_links(tmp_path, {".gitattributes": outside / ".gitconfig", ".claude": outside / ".claude"})
    before = _snapshot(outside)
    proc = gm(victim, "init", "--yes", check=False)
    message, hint = _refusal(proc)
    assert ".gitattributes is a symbolic link" in message and ".claude is a symbolic link" in message
    assert "nothing was written" in hint
    assert _snapshot(outside) == before
    _nothing_written(victim)
    assert git(victim, "status").startswith("On branch main")  # git itself still works


@pytest.mark.parametrize("rel, target", [
    (".gitignore", ".gitconfig"),
    (".gitattributes", ".gitconfig"),
    ("CLAUDE.md", "notes.md"),
    (".claude", ".claude"),
    (".claude/settings.json", ".claude/settings.json"),
    (".claude/settings.local.json", ".claude/settings.json"),
])  # fmt: skip
def test_every_file_init_writes_is_refused_through_a_link(tmp_path: Path, outside: Path, rel: str, target: str) -> None:
    victim = _clone_with_links(tmp_path, {rel: outside / target})
    before = _snapshot(outside)
    message, _ = _refusal(gm(victim, "init", "--yes", check=False))
    assert f"{rel} is a symbolic link" in message
    assert _snapshot(outside) == before
    _nothing_written(victim)


def test_a_benign_link_inside_the_repository_is_not_written_through_either(tmp_path: Path) -> None:
    repo = tmp_path / "proj"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "AGENTS.md").write_text("# Agents\n\nRun the tests.\n")
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one file for every agent")
    message, hint = _refusal(gm(repo, "init", "--yes", check=False))
    assert "CLAUDE.md is a symbolic link (to AGENTS.md)" in message
    assert "@AGENTS.md" in hint  # the way to share it that init can write to
    assert (repo / "AGENTS.md").read_text() == "# Agents\n\nRun the tests.\n"
    _nothing_written(repo)


def test_only_claude_links_point_at_no_claude_hooks_which_then_sets_up_the_rest(tmp_path: Path, outside: Path) -> None:
    victim = _clone_with_links(tmp_path, {".claude": outside / ".claude"})
    before = _snapshot(outside)
    _, hint = _refusal(gm(victim, "init", check=False))
    assert "--no-claude-hooks" in hint
    gm(victim, "init", "--no-claude-hooks")
    assert ".memory/adopted.log merge=union" in (victim / ".gitattributes").read_text()
    assert _snapshot(outside) == before


def test_a_hooks_folder_reached_through_a_committed_link_is_refused(tmp_path: Path, outside: Path) -> None:
    (outside / "bin").mkdir()
    victim = _clone_with_links(tmp_path, {".husky": outside / "bin"})
    git(victim, "config", "core.hooksPath", ".husky/_")  # as a hook manager sets it
    message, _ = _refusal(gm(victim, "init", "--no-claude-hooks", check=False))
    assert ".husky is a symbolic link" in message
    assert list((outside / "bin").iterdir()) == []


def test_a_link_in_a_committed_hooks_folder_is_replaced_never_written_through(tmp_path: Path, outside: Path) -> None:
    # The old temporary file's name, and a foreign hook that is a link: both are renamed or
    # replaced, and what they point at keeps its bytes.
    victim = _clone_with_links(tmp_path, {".githooks/.pre-commit.agent-memory.tmp": outside / "notes.md",
                                          ".githooks/pre-push": outside / ".gitconfig"})  # fmt: skip
    git(victim, "config", "core.hooksPath", ".githooks")
    before = _snapshot(outside)
    gm(victim, "init", "--no-claude-hooks")
    assert _snapshot(outside) == before
    assert install.HOOK_MARKER in (victim / ".githooks" / "pre-commit").read_text()
    assert not (victim / ".githooks" / "pre-commit").is_symlink()
    assert (victim / ".githooks" / "pre-push.chained-by-agent-memory").is_symlink()


def test_a_work_tree_reached_through_the_users_own_link_is_fine(repo: Path, tmp_path: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(repo)
    gm(alias, "init", "--yes")
    assert json.loads((repo / ".claude" / "settings.json").read_text())["hooks"]
    assert git(repo, "status", "--porcelain") == ""


def test_a_file_where_init_needs_a_folder_is_refused_before_writing(repo: Path) -> None:
    (repo / ".claude").write_text("not a folder\n")
    message, _ = _refusal(gm(repo, "init", check=False))
    assert ".claude is not a folder" in message
    assert (repo / ".claude").read_text() == "not a folder\n"
    assert not (repo / ".gitignore").exists()


def test_each_writer_refuses_a_link_on_its_own(tmp_path: Path, outside: Path) -> None:
    """The writers check too, not only init's first look (other callers share them)."""
    work = tmp_path / "work"
    work.mkdir()
    (work / ".gitignore").symlink_to(outside / ".gitconfig")
    (work / ".gitattributes").symlink_to(outside / ".gitconfig")
    (work / "CLAUDE.md").symlink_to(outside / "notes.md")
    (work / ".claude").symlink_to(outside / ".claude")
    before = _snapshot(outside)
    writers = [
        lambda: install.install_ignore_rules(work),
        lambda: install.ignore_local_settings(work),
        lambda: install.install_import(work, install.MEMORY_FILE),
        lambda: install_claude_hooks(work),
        lambda: exclude_memory_imports(work),
    ]
    for write in writers:
        with pytest.raises(RepoStateError, match="is a symbolic link"):
            write()
    assert _snapshot(outside) == before
