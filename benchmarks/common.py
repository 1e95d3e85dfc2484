"""Shared helpers for the benchmarks: an isolated environment, realistic synthetic atoms, and
spawn-to-exit timing of commands measured in one run against `python -c pass`."""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

SUBJECTS = [
    "pnpm",
    "vitest",
    "the API client",
    "database migrations",
    "the release script",
    "Docker images",
    "feature flags",
    "the CI pipeline",
    "error messages",
    "log lines",
    "the auth middleware",
    "TypeScript strict mode",
    "the payments module",
    "integration tests",
    "the cache layer",
    "environment variables",
    "the GraphQL schema",
    "commit messages",
    "the staging cluster",
    "lint rules",
]
VERBS = [
    "Always use",
    "Never edit",
    "Prefer",
    "Avoid",
    "Keep",
    "Run",
    "Document",
    "Review",
    "Pin",
    "Test",
]
TAILS = [
    "before merging",
    "in this repo",
    "for every service",
    "on the main branch",
    "with care",
    "when touching billing",
    "in pull requests",
    "across packages",
    "for new endpoints",
    "locally first",
]

# Variables that make a benchmark measure something other than what users run.
_UNSET = (
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONPROFILEIMPORTTIME",
    "PYTHONTRACEMALLOC",
    "PYTHONDEVMODE",
    "AGENT_MEMORY_SESSIONSTART",
    "AGENT_MEMORY_USERPROMPTSUBMIT",
    "AGENT_MEMORY_SESSIONEND",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
)


def synthetic_atoms(n: int, project: str = "bench", seed: int = 7) -> list[dict[str, Any]]:
    from agent_memory.model.atom import atom_id, validate_atom

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
        atom = {
            "id": ident,
            "claim": claim,
            "scope": "project",
            "project": project,
            "kind": rng.choice(["constraint", "preference", "fact", "decision", "failure"]),
            "first_seen": day,
            "last_seen": day,
            "observations": 1,
            "sessions": [session],
            "source": source,
            "first_source": source,
            "confidence": rng.choice(["observed", "stated"]),
            "tier": "L1",
            "redacted": False,
            "evidence": [{"source": source, "at": day, "session": session, "quote": claim}],
        }
        atoms.append(validate_atom(atom))
    return atoms


# What pip/distlib writes for `[project.scripts] git-memory = "agent_memory.cli.main:main"`.
def regular_install(root: Path) -> Path:
    """A venv with agent-memory installed as users get it from a wheel: the package copied into
    site-packages and a console script, no `.pth` import hook. The development venv's editable
    install runs a finder from a `.pth` file at every interpreter start (~13 ms here, pathlib
    and importlib.resources included), which inflates `python -c pass` and hides the cost of
    our own imports. The dependencies come from the development venv through a plain path
    `.pth` line (its own `.pth` files are not processed). Returns the venv's bin directory."""
    import shutil
    import sysconfig

    venv = root / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    source = Path(__file__).resolve().parent.parent / "agent_memory"
    shutil.copytree(source, site / "agent_memory", ignore=shutil.ignore_patterns("__pycache__"))
    (site / "agent_memory_bench_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    launcher = (Path(__file__).resolve().parent.parent / "scripts" / "git-memory").read_text()
    script = bin_dir / "git-memory"
    script.write_text(launcher.replace("#!python", f"#!{python}", 1))
    script.chmod(0o755)
    return bin_dir


def isolated_env(root: Path, bin_dir: Path | None = None) -> dict[str, str]:
    """The environment the hooks are measured in: a scratch HOME / CLAUDE_CONFIG_DIR / global
    memory repo, `bin_dir` (default: this interpreter's) first on PATH, and bytecode caching
    ON, as for users (this sandbox sets PYTHONDONTWRITEBYTECODE; without .pyc files every
    spawn would recompile the package)."""
    env = {k: v for k, v in os.environ.items() if k not in _UNSET}
    env.update(
        {
            "PYTHONPYCACHEPREFIX": str(root / "pycache"),
            "HOME": str(root / "home"),
            "CLAUDE_CONFIG_DIR": str(root / "home/.claude"),
            "AGENT_MEMORY_HOME": str(root / "home/.claude/agent-memory"),
            "GIT_CONFIG_GLOBAL": str(root / "gitconfig"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "AGENT_MEMORY_NOW": "2026-11-29T00:00:00Z",
            "PATH": str(bin_dir or Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""),
        }
    )
    (root / "home").mkdir(parents=True, exist_ok=True)
    (root / "gitconfig").write_text(
        "[user]\n\tname = Bench\n\temail = bench@example.invalid\n[init]\n\tdefaultBranch = main\n"
    )
    return env


def make_repo(root: Path, env: dict[str, str], name: str = "bench") -> Path:
    repo = root / name
    repo.mkdir(parents=True)
    for cmd in (["git", "init", "-q"], ["git", "commit", "-q", "--allow-empty", "-m", "init"]):
        subprocess.run(cmd, cwd=repo, env=env, check=True)
    subprocess.run(
        ["git", "memory", "init", "--yes", "--no-claude-hooks"],
        cwd=repo,
        env=env,
        check=True,
        capture_output=True,
    )
    return repo


def time_spawn(command: Sequence[str], env: dict[str, str], cwd: Path, stdin: bytes = b"") -> float:
    """Milliseconds from spawn to exit (stdin written, stdout/stderr drained to EOF, as Claude
    Code reads a hook's pipes)."""
    start = time.perf_counter()
    subprocess.run(list(command), cwd=cwd, env=env, input=stdin, capture_output=True, check=False)
    return (time.perf_counter() - start) * 1000


# (argv, stdin), (argv, stdin, settle) or (argv, stdin, settle, prepare): see `interleaved`.
Spec = (
    tuple[Sequence[str], bytes]
    | tuple[Sequence[str], bytes, "Callable[[], None] | None"]
    | tuple[Sequence[str], bytes, "Callable[[], None] | None", "Callable[[], None] | None"]
)


def interleaved(
    commands: dict[str, Spec], runs: int, env: dict[str, str], cwd: Path, warmup: int = 2
) -> dict[str, list[float]]:
    """Time each command `runs` times, interleaved so machine noise hits all of them alike.

    Optional, untimed: `settle` runs after each spawn and waits out work the command leaves
    behind (session-end's detached capture), so it never overlaps the next measurement;
    `prepare` runs before it (to time a cold path: remove a cache). `warmup` untimed rounds
    fill the bytecode cache first.
    """
    results: dict[str, list[float]] = {k: [] for k in commands}
    for round_no in range(warmup + runs):
        for name, spec in commands.items():
            command, stdin = spec[0], spec[1]
            settle = spec[2] if len(spec) > 2 else None
            prepare = spec[3] if len(spec) > 3 else None
            if prepare is not None:
                prepare()
            elapsed = time_spawn(command, env, cwd, stdin)
            if settle is not None:
                settle()
            if round_no >= warmup:
                results[name].append(elapsed)
    return results


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(values: list[float]) -> tuple[float, float]:
    return statistics.median(values), pct(values, 0.95)


@contextlib.contextmanager
def scratch(keep: str | None = None) -> Iterator[str]:
    """A scratch directory, removed afterwards unless `keep` names one to leave in place (for
    profiling the hooks against the same repositories)."""
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        yield str(Path(keep).resolve())
        return
    # ignore_cleanup_errors: a detached capture that outlived its wait may still be writing.
    with tempfile.TemporaryDirectory(
        prefix="agent-memory-bench-", ignore_cleanup_errors=True
    ) as tmp:
        yield tmp


def run_at_commit(
    root: Path, commit: str, runner: str, payload: str, tmp: Path, cached: Path | None = None
) -> str:
    """The stdout of `python -c runner <tree> <data>`, where <tree> holds `agent_memory` as it was
    at `commit` (a `git archive` into `tmp`) and <data> the text `payload`: what an earlier
    version of the package made of the same input. With `cached`, the output is kept in that
    file and read from it on the next run."""
    if cached is not None and cached.is_file():
        return cached.read_text("utf-8")
    tree = Path(tmp) / f"tree-{commit}"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(root), "archive", commit, "agent_memory"],
                             check=True, capture_output=True).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    data = Path(tmp) / "statements.json"
    data.write_text(payload, "utf-8")
    got = subprocess.run([sys.executable, "-c", runner, str(tree), str(data)], check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    data.unlink()
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(got, "utf-8")
    return got
