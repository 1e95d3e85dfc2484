"""Writers never lose an atom: 16 `git memory capture` processes at once on one repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sessions import gm, gm_json, write_session

TOOLS = ["pnpm", "vitest", "ruff", "mypy", "black", "poetry", "docker", "terraform",
         "eslint", "prettier", "pytest", "cargo", "gradle", "maven", "bazel", "nix"]


def test_sixteen_parallel_captures_store_every_atom(repo: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-06T12:00:00Z")
    gm(repo, "init", "--yes", "--no-claude-hooks")
    paths = []
    for n, tool in enumerate(TOOLS):
        paths.append(write_session(repo, f"eeeeeeee-0000-4000-8000-{n:012d}", f"2026-11-0{1 + n % 4}", [
            {"user": f"Always use {tool} for the unit tests."},
            {"user": f"Never run {tool} with sudo."},
            {"user": "Never push directly to main."},  # the same atom from every session: merges race
        ]))
    expected: set[str] = set()
    for path in paths:
        expected |= {a["id"] for a in gm_json(repo, "extract", "--transcript", str(path))["atoms"]}
    assert len(expected) >= 2 * len(TOOLS)
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]}
    procs = [subprocess.Popen(["git", "memory", "capture", "--no-stage", "--output", "json", "--transcript", str(p)],
                              cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for p in paths]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outputs]
    queued = sum(json.loads(o[0])["queued"] for o in outputs)
    if queued:  # a writer that gave up queued its atoms: the next capture writes them
        gm(repo, "capture", "--no-stage", "--transcript", str(paths[0]))
    stored = {a["id"]: a for a in gm_json(repo, "inspect", "--tier", "L1")["atoms"]}
    assert expected <= set(stored), f"lost atoms: {expected - set(stored)}"
    shared = next(a for a in stored.values() if "push directly to main" in a["claim"].lower())
    assert len(shared["sessions"]) == len(TOOLS), "a concurrent merge dropped a session"
    assert gm_json(repo, "validate")["ok"]


def test_session_end_hooks_and_a_capture_of_one_transcript_at_once_count_it_once(repo: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Two SessionEnd hooks for one transcript (a resumed session ending twice, two clients) and
    a `git memory capture` of it, all at once, while it is still being written: every statement
    is stored, each counted once, and nothing is logged."""
    from test_hooks import background_jobs, errors, payload, run_hook, wait_for

    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-06T12:00:00Z")
    gm(repo, "init", "--yes")
    session = "eeeeeeee-0000-4000-8000-000000000099"
    turns = [{"user": f"Always use {tool} for the unit tests."} for tool in TOOLS]
    path = write_session(repo, session, "2026-11-05", turns)
    whole = path.read_bytes()
    half = whole[: len(whole) // 2].rsplit(b"\n", 1)[0] + b"\n"
    path.write_bytes(half)  # its first half, so far
    data = payload("session-end", repo, session_id=session, transcript_path=str(path))
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]}
    capture = subprocess.Popen(["git", "memory", "capture", "--no-stage", "--transcript", str(path)], cwd=repo,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    first = run_hook("session-end", data, repo)
    with path.open("ab") as fh:  # the rest lands while they run, appended as Claude Code does
        fh.write(whole[len(half) :])
    second = run_hook("session-end", data, repo)
    assert capture.wait(timeout=300) == 0, capture.communicate()
    for proc in (first, second):
        assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
    wait_for(lambda: not background_jobs(repo), "the background captures to end", timeout=300)
    gm(repo, "capture", "--all", "--no-stage")  # whatever a job left for later
    stored = [a for a in gm_json(repo, "inspect", "--tier", "L1")["atoms"] if "unit tests" in a["claim"]]
    assert len(stored) == len(TOOLS)
    assert all(a["sessions"] == [session] and a["observations"] == 1 for a in stored)
    assert errors(repo) == [] and gm_json(repo, "validate")["ok"]
