"""The commit guard through real `git commit`s with the hook `git memory init` installs, and the
pre-commit framework entry run the way the framework runs it (entry + file names)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import git
from sessions import gm

SECRET = "ghp_" + "Xy7" * 12
BLOCK = "<!-- agent-memory:begin L2 -->\n## Project memory (agent-memory)\n\n### Recent\n- {line}\n<!-- agent-memory:end L2 -->\n"


@pytest.fixture
def guarded(repo: Path) -> Path:
    gm(repo, "init", "--yes", "--no-claude-hooks")
    return repo


def _commit(repo: Path, rel: str, text: str) -> subprocess.CompletedProcess[str]:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    git(repo, "add", rel)
    return subprocess.run(["git", "-C", str(repo), "commit", "-m", f"edit {rel}"], capture_output=True, text=True)


@pytest.mark.parametrize(("rel", "line", "rule"), [
    ("CLAUDE.memory.md", f"Deploy with {SECRET}", "github"),
    ("CLAUDE.memory.md", "See ~/.claude/projects/-home-alice-app/abc.jsonl#L3", "backpointer"),
    ("CLAUDE.memory.md", "Config lives in /home/alice/app/config.toml", "home"),
    ("CLAUDE.memory.md", "Ask jane.doe@corp.example.com before deploying", "email"),
])
def test_refused_commits(guarded: Path, rel: str, line: str, rule: str) -> None:
    head = git(guarded, "rev-parse", "HEAD")
    proc = _commit(guarded, rel, BLOCK.format(line=line))
    assert proc.returncode != 0
    assert f"{rel}:5:" in proc.stdout + proc.stderr
    assert rule in (proc.stdout + proc.stderr).lower()
    assert "hint:" in proc.stderr
    assert git(guarded, "rev-parse", "HEAD") == head


def test_a_path_prefixed_back_pointer_in_adopted_log_is_refused(guarded: Path) -> None:
    line = '{"at":"2026-11-01T00:00:00Z","atom":{"source":"~/.claude/projects/x/s1.jsonl#L4"},"op":"adopt"}\n'
    proc = _commit(guarded, ".memory/adopted.log", line)
    assert proc.returncode != 0 and ".memory/adopted.log:1:" in proc.stdout + proc.stderr


def test_clean_memory_content_is_allowed(guarded: Path) -> None:
    proc = _commit(guarded, "CLAUDE.memory.md", BLOCK.format(line="Never push to main (s1.jsonl#L3 is fine)"))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_claude_md_outside_the_marker_block_is_the_person_s_own(guarded: Path) -> None:
    text = "# Notes\nmy address: jane.doe@corp.example.com\n\n" + BLOCK.format(line="Never push to main")
    assert _commit(guarded, "CLAUDE.md", text).returncode == 0
    inside = "# Notes\n\n" + BLOCK.format(line="mail jane.doe@corp.example.com")
    assert _commit(guarded, "CLAUDE.md", inside).returncode != 0


def test_other_files_are_not_scanned(guarded: Path) -> None:
    assert _commit(guarded, "src/config.py", f"TOKEN = '{SECRET}'\n").returncode == 0


def test_pre_commit_framework_entry(guarded: Path) -> None:
    import re

    # The file is a flat YAML list of mappings; read the keys this test needs without PyYAML.
    text = (Path(__file__).parent.parent / ".pre-commit-hooks.yaml").read_text()
    entry = dict(re.findall(r"^\s*-?\s*(id|entry|files|language): (.+)$", text, re.MULTILINE))
    assert entry["id"] == "agent-memory-guard" and entry["language"] == "python"

    files = re.compile(entry["files"])
    assert files.search("CLAUDE.memory.md") and files.search("sub/.memory/adopted.log") and files.search("CLAUDE.md")
    assert not files.search("README.md")
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line=f"token {SECRET}"))
    (guarded / "ok.md").write_text("fine")
    proc = subprocess.run([*entry["entry"].split(), "CLAUDE.memory.md"], cwd=guarded, capture_output=True, text=True)
    assert proc.returncode == 1 and "CLAUDE.memory.md:5:" in proc.stdout
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line="Never push to main"))
    proc = subprocess.run([*entry["entry"].split(), "CLAUDE.memory.md"], cwd=guarded, capture_output=True, text=True)
    assert proc.returncode == 0
