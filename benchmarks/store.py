"""L1 store figures for the closing note of the foundation issue, measured in one run:

- write throughput: atoms/s for one 500-atom capture (validate + blobs + tree + commit + CAS),
- concurrency: 16 parallel `git memory capture` processes — atoms stored / expected, retries
  that ended in the queue,
- start-up: `git memory --help` spawn-to-exit vs `python -c pass`.

    python benchmarks/store.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import interleaved, isolated_env, make_repo, scratch, summary, synthetic_atoms  # noqa: E402

TOOLS = [
    "pnpm",
    "vitest",
    "ruff",
    "mypy",
    "black",
    "poetry",
    "docker",
    "terraform",
    "eslint",
    "prettier",
    "pytest",
    "cargo",
    "gradle",
    "maven",
    "bazel",
    "nix",
]


def throughput(repo: Path) -> tuple[int, float]:
    from agent_memory.gitio import repo as git
    from agent_memory.store.capture import capture_atoms
    from agent_memory.store.l1 import L1Store

    atoms = synthetic_atoms(500, project="tp")
    store = L1Store(git.find_repo(repo))
    start = time.perf_counter()
    result = capture_atoms(store, atoms, "bench", None)
    elapsed = time.perf_counter() - start
    assert result.commit and len(result.new) == 500
    return 500, elapsed


def concurrency(root: Path, env: dict[str, str]) -> dict[str, int]:
    import datetime as _dt

    from agent_memory.cli.demo_run import transcript_records
    from agent_memory.model.paths import slug_for

    repo = make_repo(root, env, "parallel")
    folder = Path(env["CLAUDE_CONFIG_DIR"]) / "projects" / slug_for(repo.resolve())
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, tool in enumerate(TOOLS):
        turns = [
            {"user": f"Always use {tool} for the unit tests."},
            {"user": f"Never run {tool} with sudo."},
            {"user": "Never push directly to main."},
        ]
        records = transcript_records(
            {"id": f"s{n:02d}", "turns": turns}, repo.resolve(), _dt.date(2026, 11, 1 + n % 4)
        )
        path = folder / f"s{n:02d}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        paths.append(path)
    expected: set[str] = set()
    for path in paths:
        out = subprocess.run(
            ["git", "memory", "extract", "--transcript", str(path), "--output", "json"],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        expected |= {a["id"] for a in json.loads(out)["atoms"]}
    procs = [
        subprocess.Popen(
            ["git", "memory", "capture", "--no-stage", "--output", "json", "--transcript", str(p)],
            cwd=repo,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in paths
    ]
    results = [json.loads(p.communicate()[0]) for p in procs]
    queued = sum(1 for r in results if r["queued"])
    stored_now = json.loads(
        subprocess.run(
            ["git", "memory", "inspect", "--tier", "L1", "--output", "json"],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )["atoms"]
    return {
        "writers": len(paths),
        "expected": len(expected),
        "stored": len(expected & {a["id"] for a in stored_now}),
        "queued_writers": queued,
    }


def main() -> int:
    with scratch() as tmp:
        root = Path(tmp)
        env = isolated_env(root)
        os.environ.update(
            {
                k: env[k]
                for k in (
                    "HOME",
                    "CLAUDE_CONFIG_DIR",
                    "AGENT_MEMORY_HOME",
                    "GIT_CONFIG_GLOBAL",
                    "GIT_CONFIG_NOSYSTEM",
                    "AGENT_MEMORY_NOW",
                    "PATH",
                )
            }
        )
        repo = make_repo(root, env, "throughput")
        n, elapsed = throughput(repo)
        print(
            f"write throughput: {n} atoms in one capture commit: {elapsed * 1000:.0f} ms = {n / elapsed:.0f} atoms/s"
        )
        stats = concurrency(root, env)
        print(
            f"concurrency: {stats['writers']} parallel `git memory capture`: {stats['stored']}/{stats['expected']} "
            f"atoms stored ({stats['queued_writers']} writers fell back to the retry queue)"
        )
        times = interleaved(
            {
                "python -c pass": ([sys.executable, "-c", "pass"], b""),
                "git-memory --help": (["git-memory", "--help"], b""),
                "git memory -h": (["git", "memory", "-h"], b""),
            },
            30,
            env,
            repo,
        )
        base = summary(times["python -c pass"])[0]
        for name, values in times.items():
            p50, p95 = summary(values)
            print(
                f"start-up: {name:<20} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  ({p50 / base:.2f}× python -c pass)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
