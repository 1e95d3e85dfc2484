"""`git memory hook <event>`: what the Claude Code hooks run (spec §5, DESIGN "Claude Code
integration", docs/claude-code-integration.md).

Every event fails open: on any error the hook exits 0, prints nothing and appends one line to
`.git/agent-memory/errors.log`. The per-prompt path is on the critical path of every prompt:
it imports only `os`, `sys`, `time`, `json` and `agent_memory.recall` up front (no pygit2, no
pathlib, no subprocess) and reads the compact recall index capture rewrites. Session start
reads the work tree's adopted.log files. SessionEnd only spawns a detached capture.
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

DISABLE_ENV = {
    "session-start": "AGENT_MEMORY_SESSIONSTART",
    "user-prompt-submit": "AGENT_MEMORY_USERPROMPTSUBMIT",
    "session-end": "AGENT_MEMORY_SESSIONEND",
    "background-capture": "AGENT_MEMORY_SESSIONEND",
}
RECALL_BUDGET_S = 0.100  # spec §5.2: the hook's own budget, on a monotonic clock
MAX_PAYLOAD_BYTES = 4_000_000


def read_payload() -> dict[str, Any]:
    import json

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
        if event not in DISABLE_ENV:
            raise ValueError(f"unknown hook event {event!r}")
        payload = read_payload()
        cwd_hint = payload_cwd(payload)
        from agent_memory.recall import read_ref
        from agent_memory.runtime import locate_git_dirs

        found = locate_git_dirs(cwd_hint)
        if not found:
            raise LookupError(f"{cwd_hint} is not inside a git repository")
        _, common, work = found
        if read_ref(common, "refs/heads/memory/atoms") is None:
            raise LookupError(f"agent-memory is not initialised in {work or common} (run git memory init)")
        if event == "user-prompt-submit":
            _recall(payload, common, started)
        elif event == "session-start":
            _session_start(common, work)
        else:
            _spawn_capture(payload, cwd_hint)
    except Exception as exc:  # noqa: BLE001 - hooks never break a session
        from agent_memory.runtime import log_error

        log_error(f"hook {event}: {type(exc).__name__}: {exc}", cwd_hint)
    return 0


def _recall(payload: dict[str, Any], common: str, started: float) -> None:
    from agent_memory import recall

    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return
    index = recall.load_index(os.path.join(common, "agent-memory"))
    if index is None:
        raise FileNotFoundError("no recall index yet (written by the next capture)")
    # A stale index (a capture committed since it was built) is still used: the hook cannot
    # afford a rebuild, and the next capture rewrites it.
    hits = recall.recall(index, prompt, time.time(), deadline=started + RECALL_BUDGET_S)
    text = recall.render_recall(hits)
    if text:
        sys.stdout.write(recall.dump_hook_payload(text) + "\n")


def _session_start(common: str, work: str | None) -> None:
    import json

    from agent_memory import context, recall, tiers
    from agent_memory.paths import memory_home

    workdir = None
    if work:
        from pathlib import Path

        workdir = Path(work)
    l2 = list(tiers.l2_atoms(workdir).values())
    l3 = list(tiers.l3_atoms(memory_home()).values())
    index = recall.load_index(os.path.join(common, "agent-memory"))
    contested = recall.contested_dates(index) if index is not None else {}
    ctx = context.build_context(l2, l3, contested, None)
    if ctx.text:
        sys.stdout.write(json.dumps(context.hook_output(ctx), ensure_ascii=False, separators=(",", ":")) + "\n")


def _spawn_capture(payload: dict[str, Any], cwd: str) -> None:
    import subprocess

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
    from pathlib import Path

    from agent_memory import git
    from agent_memory.capture import enforce_limits
    from agent_memory.commands.capture import auto_stage, capture_one
    from agent_memory.commands.common import project_of
    from agent_memory.runtime import log_error
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


def _wait_until_quiet(path: Any, settle: float = 0.5, limit: float = 5.0) -> None:
    """Claude Code writes the transcript asynchronously: wait until it stops growing."""
    deadline = time.monotonic() + limit
    last = -1
    while time.monotonic() < deadline:
        try:
            size = os.stat(path).st_size
        except OSError:
            return
        if size == last:
            return
        last = size
        time.sleep(settle)


def run(args: argparse.Namespace) -> int:
    return run_event(args.event, {"transcript": args.transcript, "cwd": args.cwd, "session": args.session})
