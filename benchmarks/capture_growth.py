"""Growth: what a first `git memory capture --all` over many transcripts leaves behind, and
whether its memory stays flat in the number of transcripts.

For each size (default 500 and 2,000 realistic transcripts, ~40 KB each, two statements a
session), in a fresh repository: one `capture --all` in a child process whose peak RSS it
reports itself (`resource.getrusage(RUSAGE_SELF)`, the Python process only, not git's), then
the commits on memory/atoms, git's loose objects and the size of `.git` (`git count-objects
-v`), and whether git's maintenance packed them. The last column is the peak per transcript
above the smallest run: flat memory keeps it near zero.

Installs the package under test like a wheel (`--package DIR`, as `scale.py` does), so the same
script measures an older tree too. One run, nothing asserted (CONVENTIONS: benchmarks are
not tests).

    python benchmarks/capture_growth.py [--package DIR] [--sizes 500,2000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from capture_all import write_sessions  # noqa: E402
from common import scratch  # noqa: E402
from scale import Bench  # noqa: E402

# The child: the CLI in-process, then its own peak RSS (KB on Linux) on the last stderr line.
CHILD = (
    "import resource, sys\n"
    "from agent_memory.cli.main import main\n"
    "try:\n"
    "    code = main(sys.argv[1:])\n"
    "finally:\n"
    "    sys.stderr.write(f'\\nmaxrss_kb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n')\n"
    "raise SystemExit(code)\n"
)


def count_objects(bench: Bench, repo: Path) -> dict[str, int]:
    out = bench.run("git", "count-objects", "-v", cwd=repo)
    return {key: int(value) for key, value in (line.split(": ") for line in out.splitlines())}


def measure(bench: Bench, size: int) -> dict[str, float]:
    repo = bench.repo(f"growth-{size}")
    write_sessions(bench, repo, range(size), size)
    begun = time.perf_counter()
    proc = subprocess.run([bench.python, "-c", CHILD, "capture", "--all", "--output", "json"], cwd=repo,
                          env=bench.env, capture_output=True, text=True, check=False)  # fmt: skip
    if proc.returncode != 0:
        raise SystemExit(f"capture --all failed ({proc.returncode}): {proc.stderr[-2000:]}")
    took = time.perf_counter() - begun
    report = json.loads(proc.stdout)
    rss_kb = int(proc.stderr.rsplit("maxrss_kb=", 1)[1].split()[0])
    bench.wait_quiet(repo)  # a detached `git gc --auto` finishes before the objects are counted
    objects = count_objects(bench, repo)
    commits = int(bench.run("git", "rev-list", "--count", "refs/heads/memory/atoms", cwd=repo).strip())
    return {
        "transcripts": size, "captured": report["captured"], "seconds": took, "peak_mb": rss_kb / 1024,
        "commits": commits, "loose": objects["count"], "packs": objects["packs"],
        "git_mb": (objects["size"] + objects["size-pack"]) / 1024,
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", type=Path, default=HERE.parent / "agent_memory")
    parser.add_argument("--sizes", default="500,2000")
    parser.add_argument("--keep", metavar="DIR")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    with scratch(args.keep) as tmp:
        bench = Bench.started(Path(tmp), args.package)
        for size in sizes:
            row = measure(bench, size)
            rows.append(row)
            print(f"  {size}: {row}", file=sys.stderr, flush=True)
    first = rows[0]
    print("| transcripts | captured | peak RSS | KB per transcript over the first size | commits | loose objects | packs | .git | time |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        extra = row["transcripts"] - first["transcripts"]
        per = f"{(row['peak_mb'] - first['peak_mb']) * 1024 / extra:.1f}" if extra else "—"
        print(f"| {row['transcripts']:.0f} | {row['captured']:.0f} | {row['peak_mb']:.0f} MB | {per} | "
              f"{row['commits']:.0f} | {row['loose']:.0f} | {row['packs']:.0f} | {row['git_mb']:.0f} MB | "
              f"{row['seconds']:.0f} s |")  # fmt: skip
    print(f"\npackage: {args.package.resolve()}; one run per size; peak RSS of the capture process only.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
