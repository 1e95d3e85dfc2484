"""Shared helpers for the benchmarks: an isolated environment, realistic synthetic atoms, and
spawn-to-exit timing of commands measured in one run against `python -c pass`."""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SUBJECTS = ["pnpm", "vitest", "the API client", "database migrations", "the release script", "Docker images",
            "feature flags", "the CI pipeline", "error messages", "log lines", "the auth middleware",
            "TypeScript strict mode", "the payments module", "integration tests", "the cache layer",
            "environment variables", "the GraphQL schema", "commit messages", "the staging cluster", "lint rules"]
VERBS = ["Always use", "Never edit", "Prefer", "Avoid", "Keep", "Run", "Document", "Review", "Pin", "Test"]
TAILS = ["before merging", "in this repo", "for every service", "on the main branch", "with care",
         "when touching billing", "in pull requests", "across packages", "for new endpoints", "locally first"]


def synthetic_atoms(n: int, project: str = "bench", seed: int = 7) -> list[dict[str, Any]]:
    from agent_memory.atom import atom_id, validate_atom

    rng = random.Random(seed)
    atoms, seen = [], set()
    i = 0
    while len(atoms) < n:
        claim = f"{rng.choice(VERBS)} {rng.choice(SUBJECTS)} {rng.choice(TAILS)} (rule {i})"
        i += 1
        ident = atom_id(claim, project)
        if ident in seen:
            continue
        seen.add(ident)
        day = f"2026-11-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:00:00Z"
        session = f"s{rng.randint(1, 400)}"
        source = f"~/.claude/projects/-home-dev-{project}/{session}.jsonl#L{rng.randint(1, 900)}"
        atom = {"id": ident, "claim": claim, "scope": "project", "project": project,
                "kind": rng.choice(["constraint", "preference", "fact", "decision", "failure"]),
                "first_seen": day, "last_seen": day, "observations": 1, "sessions": [session],
                "source": source, "first_source": source,
                "confidence": rng.choice(["observed", "stated"]), "tier": "L1", "redacted": False,
                "evidence": [{"source": source, "at": day, "session": session, "quote": claim}]}
        atoms.append(validate_atom(atom))
    return atoms


def isolated_env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    # Measure what users run: bytecode cached (this sandbox sets PYTHONDONTWRITEBYTECODE).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update({"PYTHONPYCACHEPREFIX": str(root / "pycache"),"HOME": str(root / "home"), "CLAUDE_CONFIG_DIR": str(root / "home/.claude"),
                "AGENT_MEMORY_HOME": str(root / "home/.claude/agent-memory"),
                "GIT_CONFIG_GLOBAL": str(root / "gitconfig"), "GIT_CONFIG_NOSYSTEM": "1",
                "AGENT_MEMORY_NOW": "2026-11-29T00:00:00Z",
                "PATH": str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")})
    (root / "home").mkdir(parents=True, exist_ok=True)
    (root / "gitconfig").write_text("[user]\n\tname = Bench\n\temail = bench@example.invalid\n[init]\n\tdefaultBranch = main\n")
    return env


def make_repo(root: Path, env: dict[str, str], name: str = "bench") -> Path:
    repo = root / name
    repo.mkdir(parents=True)
    for cmd in (["git", "init", "-q"], ["git", "commit", "-q", "--allow-empty", "-m", "init"]):
        subprocess.run(cmd, cwd=repo, env=env, check=True)
    subprocess.run(["git", "memory", "init", "--yes", "--no-claude-hooks"], cwd=repo, env=env, check=True,
                   capture_output=True)
    return repo


def time_spawn(command: Sequence[str], runs: int, env: dict[str, str], cwd: Path, stdin: bytes = b"") -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(list(command), cwd=cwd, env=env, input=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        out.append((time.perf_counter() - start) * 1000)
    return out


def interleaved(commands: dict[str, tuple[Sequence[str], bytes]], runs: int, env: dict[str, str], cwd: Path) -> dict[str, list[float]]:
    """Time each command `runs` times, interleaved so machine noise hits all of them alike."""
    results: dict[str, list[float]] = {k: [] for k in commands}
    for _ in range(runs):
        for name, (command, stdin) in commands.items():
            results[name] += time_spawn(command, 1, env, cwd, stdin)
    return results


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(values: list[float]) -> tuple[float, float]:
    return statistics.median(values), pct(values, 0.95)


def scratch() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="agent-memory-bench-")
