"""Write real-format Claude Code transcripts (2.x records, as `git memory demo` does) into the
isolated CLAUDE_CONFIG_DIR, for end-to-end tests."""

from __future__ import annotations

import datetime as _dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from inprocess import INSTALLED_ENV, run_main

from agent_memory.cli.demo_run import transcript_records
from agent_memory.model.paths import slug_for


def write_session(repo: Path, session_id: str, day: str, turns: list[dict[str, str]]) -> Path:
    """One session on `day` (YYYY-MM-DD); turns are {"user": text} or {"reject": reason, "tool": cmd}."""
    folder = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects" / slug_for(repo.resolve())
    folder.mkdir(parents=True, exist_ok=True)
    records = transcript_records({"id": session_id, "turns": turns}, repo.resolve(), _dt.date.fromisoformat(day))
    path = folder / f"{session_id}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return path


def gm(repo: Path, *args: str, check: bool = True, input_text: str | None = None,
       env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`git memory ARGS` in `repo`, run in this process through `main(argv)` (a process per call
    cost ~0.6 s; see inprocess.py for what is isolated between calls). The end-to-end path —
    the installed launcher, git's dispatch of `git memory` — is `gm_installed`, and
    AGENT_MEMORY_TEST_INSTALLED=1 sends every call there."""
    if os.environ.get(INSTALLED_ENV) == "1":
        return gm_installed(repo, *args, check=check, input_text=input_text, env=env)
    proc = run_main(repo, list(args), input_text=input_text, env=env)
    if check and proc.returncode != 0:
        raise AssertionError(f"git memory {' '.join(args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc


def gm_installed(repo: Path, *args: str, check: bool = True, input_text: str | None = None,
                 env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed `git memory` CLI in `repo` as a user would: git finds `git-memory` on
    PATH and starts it as a process of its own."""
    full_env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    full_env.update(env or {})
    proc = subprocess.run(["git", "memory", *args], cwd=str(repo), capture_output=True, text=True,
                          input=input_text, env=full_env)
    if check and proc.returncode != 0:
        raise AssertionError(f"git memory {' '.join(args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc


def gm_json(repo: Path, *args: str, installed: bool = False, **kwargs: Any) -> Any:
    proc = (gm_installed if installed else gm)(repo, *args, "--output", "json", **kwargs)
    return json.loads(proc.stdout)
