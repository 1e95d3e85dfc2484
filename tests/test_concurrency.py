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
