"""`git memory hook <event>`: what the Claude Code hooks run (spec §5, DESIGN "Claude Code
integration", docs/claude-code-integration.md).

Every event fails open: on any error the hook exits 0, prints nothing and appends one line to
`.git/agent-memory/errors.log`. The per-prompt and session-start paths import no pygit2: they
read the work tree's adopted.log files and the compact recall index that capture rewrites.
SessionEnd only spawns a detached background capture and returns.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from agent_memory.runtime import find_git_dirs, log_error

DISABLE_ENV = {
    "session-start": "AGENT_MEMORY_SESSIONSTART",
    "user-prompt-submit": "AGENT_MEMORY_USERPROMPTSUBMIT",
    "session-end": "AGENT_MEMORY_SESSIONEND",
    "background-capture": "AGENT_MEMORY_SESSIONEND",
}
RECALL_BUDGET_S = 0.100  # spec §5.2: the hook's own budget, on a monotonic clock
MAX_PAYLOAD_BYTES = 4_000_000


def read_payload() -> dict[str, Any]:
    raw = sys.stdin.buffer.read(MAX_PAYLOAD_BYTES) if not sys.stdin.isatty() else b""
    if not raw.strip():
        raise ValueError("empty hook payload on stdin")
    data = json.loads(raw.decode("utf-8", errors="replace"))
    if not isinstance(data, dict):
        raise ValueError("hook payload is not a JSON object")
    return data


def payload_cwd(payload: dict[str, Any]) -> str:
    cwd = payload.get("cwd") or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    return str(cwd)


def emit(output: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(output, ensure_ascii=False, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def run_event(event: str, extra: dict[str, str | None] | None = None) -> int:
    """Run one hook event; never raises, always returns 0."""
    started = time.monotonic()
    cwd_hint: str | None = None
    try:
        if os.environ.get(DISABLE_ENV.get(event, ""), "") == "0":
            return 0
        if event == "background-capture":
            _background_capture(extra or {})
            return 0
        payload = read_payload()
        cwd_hint = payload_cwd(payload)
        found = find_git_dirs(cwd_hint)
        if not found:
            raise LookupError(f"{cwd_hint} is not inside a git repository")
        _, common, work = found
        if not _initialised(common):
            raise LookupError(f"agent-memory is not initialised in {work or common} (run git memory init)")
        if event == "user-prompt-submit":
            _recall(payload, common, started)
        elif event == "session-start":
            _session_start(common, work)
        elif event == "session-end":
            _spawn_capture(payload, cwd_hint)
        else:
            raise ValueError(f"unknown hook event {event!r}")
    except Exception as exc:  # noqa: BLE001 - hooks never break a session
        log_error(f"hook {event}: {type(exc).__name__}: {exc}", cwd_hint)
    return 0


def _initialised(common: Path) -> bool:
    from agent_memory.recall import read_ref

    return read_ref(common, "refs/heads/memory/atoms") is not None


def _recall(payload: dict[str, Any], common: Path, started: float) -> None:
    from agent_memory import recall

    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return
    index = recall.load_index(common / "agent-memory")
    if index is None:
        raise FileNotFoundError("no recall index yet (written by the next capture)")
    hits = recall.recall(index, prompt, time.time(), deadline=started + RECALL_BUDGET_S)
    text = recall.render_recall(hits)
    if text:
        emit(recall.hook_payload(text))


def _session_start(common: Path, work: Path | None) -> None:
    from agent_memory import context, tiers
    from agent_memory.paths import memory_home

    l2 = list(tiers.l2_atoms(work).values())
    l3 = list(tiers.l3_atoms(memory_home()).values())
    contested = _contested_dates(common)
    project = None
    ctx = context.build_context(l2, l3, contested, project)
    if ctx.text:
        emit(context.hook_output(ctx))


def _contested_dates(common: Path) -> dict[str, str]:
    """id → date of the newer contesting evidence, from the recall index (no pygit2 here)."""
    from agent_memory import recall

    index = recall.load_index(common / "agent-memory")
    return recall.contested_dates(index) if index is not None else {}


def _spawn_capture(payload: dict[str, Any], cwd: str) -> None:
    transcript = payload.get("transcript_path")
    if not isinstance(transcript, str) or not transcript:
        raise ValueError("SessionEnd payload has no transcript_path")
    command = [sys.executable, "-m", "agent_memory", "hook", "background-capture",
               "--transcript", transcript, "--cwd", cwd]
    session = payload.get("session_id")
    if isinstance(session, str) and session:
        command += ["--session", session]
    # Fully detached: a new session, and no inherited stdin/stdout/stderr — Claude Code reads
    # the hook's pipes to EOF, so a child holding them would keep the hook "running".
    subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)


def _background_capture(extra: dict[str, str | None]) -> None:
    from agent_memory import git
    from agent_memory.capture import enforce_limits
    from agent_memory.commands.capture import auto_stage, capture_one
    from agent_memory.commands.common import project_of
    from agent_memory.store import L1Store

    cwd = extra.get("cwd") or os.getcwd()
    transcript = Path(str(extra.get("transcript") or ""))
    try:
        _wait_until_quiet(transcript)
        repo = git.find_repo(cwd)
        store = L1Store(repo)
        project = project_of(repo)
        result, _ = capture_one(store, project, transcript, extra.get("session") or None)
        enforce_limits(store)
        if result.commit is not None:
            auto_stage(repo, store, project)
    except Exception as exc:  # noqa: BLE001 - logged; the next capture --all catches up
        log_error(f"background capture of {transcript.name}: {type(exc).__name__}: {exc}", cwd)


def _wait_until_quiet(path: Path, settle: float = 0.5, limit: float = 5.0) -> None:
    """Claude Code writes the transcript asynchronously: wait until it stops growing."""
    deadline = time.monotonic() + limit
    last = -1
    while time.monotonic() < deadline:
        try:
            size = path.stat().st_size
        except OSError:
            return
        if size == last:
            return
        last = size
        time.sleep(settle)


def run(args: argparse.Namespace) -> int:
    return run_event(args.event, {"transcript": args.transcript, "cwd": args.cwd, "session": args.session})
