"""What one item of `git memory adopt --all` costs: wall time, CPU time and git processes per
item, for one package or two compared in the same run.

A repository with a store of `--store` atoms and `--items` staged promotions is prepared once
(with the first package); every run adopts everything on a fresh copy of it. With `--old DIR`
the runs of the two packages alternate (old, new, old, new, …), so the machine's load hits both
alike. Reported per item (the run's total divided by the items adopted), median over the runs:

- wall: spawn to exit of `git memory adopt --all`;
- CPU: user + system time of the process and every process it waited for (`git commit`, the
  pre-commit hook and its `git diff`), from `getrusage(RUSAGE_CHILDREN)` around the spawn —
  steadier than wall time on a loaded machine;
- git processes: `execve` of git counted by `strace -f` in one extra run of each package
  (when strace is installed), and every process started.

Ratios and figures, nothing asserted (CONVENTIONS: benchmarks are not tests).

    python benchmarks/adopt_cost.py [--package DIR] [--old DIR] [--runs N] [--items N] [--store N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import scratch, time_spawn  # noqa: E402
from scale import Bench, install, populate  # noqa: E402


def _adopt(bench: Bench, copy: Path, bin_dir: Path) -> tuple[float, float, int]:
    """(wall ms, CPU ms of the children, items adopted) of one `adopt --all` on `copy`."""
    env = dict(bench.env, PATH=str(bin_dir) + os.pathsep + bench.env["PATH"])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    begun = time.perf_counter()
    proc = subprocess.run(["git", "memory", "adopt", "--all", "--output", "json"], cwd=copy, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    wall = (time.perf_counter() - begun) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"adopt failed ({proc.returncode}): {proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu, len(json.loads(proc.stdout)["adopted"])


def _processes(bench: Bench, copy: Path, bin_dir: Path) -> tuple[int, int, int] | None:
    """(git processes, all processes, items) of one `adopt --all` under `strace -f`."""
    if shutil.which("strace") is None:
        return None
    env = dict(bench.env, PATH=str(bin_dir) + os.pathsep + bench.env["PATH"])
    with tempfile.NamedTemporaryFile("r", suffix=".strace") as out:
        proc = subprocess.run(["strace", "-f", "-qq", "-e", "trace=execve", "-o", out.name,
                               "git", "memory", "adopt", "--all", "--output", "json"],
                              cwd=copy, env=env, capture_output=True, text=True, check=False)  # fmt: skip
        if proc.returncode != 0:
            print(f"  (strace run failed: {proc.stderr[-300:]})", file=sys.stderr)
            return None
        calls = [m.group(1) for m in re.finditer(r'execve\("([^"]*)".*= 0$', out.read(), re.M)]
    gits = [path for path in calls if os.path.basename(path) == "git"]
    return len(gits), len(calls), len(json.loads(proc.stdout)["adopted"])


def prepare(bench: Bench, name: str, bin_dir: Path, args: argparse.Namespace) -> Path:
    """A repository of `args.store` atoms and `args.items` staged promotions, made with the
    package installed in `bin_dir`."""
    saved = bench.env["PATH"], bench.python
    bench.env["PATH"] = str(bin_dir) + os.pathsep + saved[0]
    bench.python = str(bin_dir / "python")
    try:
        repo = bench.repo(f"adopt-{name}")
        populate(bench, repo, args.store, quiet=True)  # none of these is eligible
        bench.worker("eligible", str(repo), str(args.items))
        bench.run("git", "memory", "stage", cwd=repo)
        bench.wait_quiet(repo)
    finally:
        bench.env["PATH"], bench.python = saved
    return repo


def add_transcripts(projects: Path, count: int) -> None:
    """`count` empty transcripts over 40 project folders, a quarter of the sessions with a
    `subagents/` folder (the layouts a back-pointer is resolved against)."""
    for n in range(count):
        folder = projects / f"-home-dev-project{n % 40}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"bench-{n:05d}.jsonl").touch()
        if n % 4 == 0:
            (folder / f"bench-{n:05d}" / "subagents").mkdir(parents=True, exist_ok=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", type=Path, default=HERE.parent / "agent_memory")
    parser.add_argument("--old", type=Path, help="a second package (an older tree's agent_memory/)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each package")
    parser.add_argument("--items", type=int, default=60)
    parser.add_argument("--store", type=int, default=1000, help="atoms in the store")
    parser.add_argument(
        "--sessions",
        type=int,
        default=0,
        help="transcript files under ~/.claude/projects (40 projects; each item's back-pointers are checked against them)",
    )
    parser.add_argument("--keep", metavar="DIR")
    args = parser.parse_args()
    with scratch(args.keep) as tmp:
        root = Path(tmp)
        bench = Bench.started(root, args.package)
        packages = {"new": bench.bin}
        if args.old is not None:
            old_root = root / "old"
            old_root.mkdir()
            packages = {"old": install(old_root, args.old.resolve()), "new": bench.bin}
        # Each package adopts from a repository it prepared itself: the same atoms (fixed seeds
        # and clock), and the local state (recall index, caches) in that package's own format.
        repos = {name: prepare(bench, name, bin_dir, args) for name, bin_dir in packages.items()}
        add_transcripts(Path(bench.env["CLAUDE_CONFIG_DIR"]) / "projects", args.sessions)
        figures: dict[str, dict[str, list[float]]] = {
            name: {"wall": [], "cpu": []} for name in packages
        }
        baseline: list[float] = []
        for attempt in range(args.runs):
            baseline.append(time_spawn([bench.python, "-c", "pass"], bench.env, root, b""))
            for name, bin_dir in packages.items():
                copy = root / f"run-{name}-{attempt}"
                shutil.copytree(repos[name], copy, symlinks=True)
                bench.wait_quiet(copy)
                wall, cpu, items = _adopt(bench, copy, bin_dir)
                figures[name]["wall"].append(wall / max(items, 1))
                figures[name]["cpu"].append(cpu / max(items, 1))
                bench.wait_quiet(copy)
                print(f"  {name} run {attempt}: {items} items, {wall / max(items, 1):.1f} ms wall, "
                      f"{cpu / max(items, 1):.1f} ms CPU per item", file=sys.stderr, flush=True)  # fmt: skip
                shutil.rmtree(copy, ignore_errors=True)
        for name, bin_dir in packages.items():
            copy = root / f"strace-{name}"
            shutil.copytree(repos[name], copy, symlinks=True)
            counted = _processes(bench, copy, bin_dir)
            bench.wait_quiet(copy)
            wall, cpu = figures[name]["wall"], figures[name]["cpu"]
            bench.row(f"{name}: wall per item, median of {len(wall)}",
                      f"{statistics.median(wall):.1f} ms ({min(wall):.1f}–{max(wall):.1f})")  # fmt: skip
            bench.row(f"{name}: CPU per item (user+sys, with children), median of {len(cpu)}",
                      f"{statistics.median(cpu):.1f} ms ({min(cpu):.1f}–{max(cpu):.1f})")  # fmt: skip
            if counted is not None:
                gits, calls, items = counted
                bench.row(f"{name}: processes per item ({items} items)",
                          f"{gits / items:.2f} git, {calls / items:.2f} in all ({gits} git, {calls} in all)")  # fmt: skip
        if "old" in figures:
            # Each new run against the old run just before it: the load changes over minutes.
            for measure in ("wall", "cpu"):
                pairs = [
                    n / o
                    for n, o in zip(figures["new"][measure], figures["old"][measure], strict=True)
                ]
                bench.row(f"new / old {measure}, run by run (median of {len(pairs)})",
                          f"{statistics.median(pairs):.2f} ({min(pairs):.2f}–{max(pairs):.2f})")  # fmt: skip
        bench.row("python -c pass (reference)", f"{statistics.median(baseline):.1f} ms")
    bench.print_table()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
