"""The git boundary: the only module that imports pygit2 or runs `git`.

(Being filled in: L1 plumbing, review branch, porcelain commits.)
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from agent_memory.runtime import find_git_dirs


def clean_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a git subprocess: inherited GIT_DIR/GIT_INDEX_FILE/… from a hook are
    stripped (git sets them when it runs hooks), and git never prompts."""
    env = {k: v for k, v in os.environ.items() if not (k.startswith("GIT_") and k in _HOOK_VARS)}
    env["GIT_TERMINAL_PROMPT"] = "0"
    if extra:
        env.update(extra)
    return env


_HOOK_VARS = {
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_QUARANTINE_PATH",
}


def run_git(cwd: str | os.PathLike[str], *args: str, check: bool = True, input_text: str | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        ["git", *args], cwd=str(cwd), capture_output=True, text=True, input=input_text,
        env=env or clean_env(), check=False,
    )
    if check and proc.returncode != 0:
        from agent_memory.errors import RepoStateError

        raise RepoStateError(f"git {' '.join(args[:2])} failed: {proc.stderr.strip() or proc.stdout.strip()}")
    return proc


def config_get(cwd: str | os.PathLike[str], key: str) -> str | None:
    proc = run_git(cwd, "config", "--get", key, check=False)
    value = proc.stdout.strip()
    return value if proc.returncode == 0 and value else None


def project_name(start: str | os.PathLike[str] | None = None) -> str | None:
    """The repository's project name: `git config memory.project`, else the top-level directory
    name (worktrees and subdirectories of one repo share it). None outside a repository."""
    found = find_git_dirs(start)
    if not found:
        return None
    git_dir, common, work = found
    where = work or git_dir
    configured = config_get(where, "memory.project")
    if configured:
        return configured
    if (common.name == ".git") and common.parent.name:
        return common.parent.name
    top = work or common
    return top.name.removesuffix(".git") or "project"
