"""The global memory repo (L3): its own git repository at `$AGENT_MEMORY_HOME` (default
`~/.claude/agent-memory`) holding the L3 block, its adopted.log and the registry of projects
that ran `git memory init`. `~/.claude/CLAUDE.md` imports its `CLAUDE.memory.md`."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_memory import git
from agent_memory.install import GITATTRIBUTES_LINE, MEMORY_FILE, ensure_lines, install_git_hooks
from agent_memory.paths import claude_dir, memory_home

REGISTRY = "projects.json"
ADOPTED_LOG = ".memory/adopted.log"
README = """# agent-memory — global memory (L3)

The cross-project persona Claude Code loads in every session (`~/.claude/CLAUDE.md` imports
`CLAUDE.memory.md` here). Items arrive only through review: `git memory stage --global`
proposes, `git memory adopt --global` adopts. `projects.json` lists the projects that ran
`git memory init`. Push this repository to a private remote to carry it to another machine;
`.memory/adopted.log` merges as a union.
"""


@dataclass(frozen=True)
class GlobalRepo:
    path: Path

    @classmethod
    def default(cls) -> GlobalRepo:
        return cls(memory_home())

    def exists(self) -> bool:
        return (self.path / ".git").exists()

    def repo(self) -> git.Repo:
        return git.find_repo(self.path)

    def ensure(self) -> bool:
        """Create the repository with its first commit. False when it already existed."""
        if self.exists():
            return False
        self.path.mkdir(parents=True, exist_ok=True)
        git.run_git(self.path, "init", "-q")
        from agent_memory.render import render_block

        (self.path / MEMORY_FILE).write_text(render_block([], "L3").text, "utf-8")
        (self.path / ".memory").mkdir(exist_ok=True)
        (self.path / ADOPTED_LOG).write_text("", "utf-8")
        (self.path / REGISTRY).write_text(json.dumps({"projects": []}, indent=2) + "\n", "utf-8")
        (self.path / "README.md").write_text(README, "utf-8")
        ensure_lines(self.path / ".gitattributes", [GITATTRIBUTES_LINE])
        repo = self.repo()
        install_git_hooks(repo)
        self.commit([MEMORY_FILE, ADOPTED_LOG, REGISTRY, "README.md", ".gitattributes"],
                    "init: create the global memory repo")
        return True

    def commit(self, paths: list[str], message: str) -> None:
        changed = git.run_git(self.path, "status", "--porcelain", "--", *paths).stdout.strip()
        if changed:
            git.commit_paths(self.path, paths, message, env=identity_env(self.path))

    # --- the registry -------------------------------------------------------------------------

    def projects(self) -> list[dict[str, Any]]:
        try:
            data = json.loads((self.path / REGISTRY).read_text("utf-8"))
            return [p for p in data.get("projects", []) if isinstance(p, dict) and "name" in p]
        except (OSError, ValueError, AttributeError):
            return []

    def name_for(self, wanted: str, project_path: Path) -> str:
        """The registered name of `project_path`, or `wanted` disambiguated when another
        repository already holds it."""
        where = _portable(project_path)
        for entry in self.projects():
            if entry.get("path") == where:
                return str(entry["name"])
        taken = {str(e["name"]) for e in self.projects()}
        if wanted not in taken:
            return wanted
        return f"{wanted}-{hashlib.sha256(where.encode()).hexdigest()[:6]}"

    def register(self, name: str, project_path: Path) -> bool:
        where = _portable(project_path)
        entries = self.projects()
        if any(e.get("name") == name and e.get("path") == where for e in entries):
            return False
        entries = [e for e in entries if e.get("path") != where]
        entries.append({"name": name, "path": where})
        entries.sort(key=lambda e: (str(e["name"]), str(e.get("path"))))
        (self.path / REGISTRY).write_text(json.dumps({"projects": entries}, indent=2) + "\n", "utf-8")
        self.commit([REGISTRY], f"register: project {name}")
        return True


def _portable(path: Path) -> str:
    """Registry paths are written `~/…` when under the home directory."""
    text = str(path.resolve())
    home = str(Path.home().resolve())
    return "~" + text[len(home):] if text == home or text.startswith(home + os.sep) else text


def expand(path: str) -> Path:
    return Path(os.path.expanduser(path))


def identity_env(cwd: Path) -> dict[str, str]:
    """Use the person's git identity when they have one, else a fixed tool identity."""
    if git.config_get(cwd, "user.name") and git.config_get(cwd, "user.email"):
        return {}
    return {"GIT_AUTHOR_NAME": git.TOOL_NAME, "GIT_AUTHOR_EMAIL": git.TOOL_EMAIL,
            "GIT_COMMITTER_NAME": git.TOOL_NAME, "GIT_COMMITTER_EMAIL": git.TOOL_EMAIL}


def install_user_import(home_repo: GlobalRepo) -> bool:
    """Add the import of the global block to `~/.claude/CLAUDE.md` (created if needed)."""
    from agent_memory.render import ensure_import

    target = claude_dir() / "CLAUDE.md"
    line = "@" + _portable(home_repo.path / MEMORY_FILE)
    text = target.read_text("utf-8") if target.exists() else ""
    updated = ensure_import(text, line)
    if updated == text:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(updated, "utf-8")
    return True
