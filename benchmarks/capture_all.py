"""Work done once: what `git memory capture --all` costs when there is little or nothing new.

Installs the package under test like a wheel (`--package DIR`, as `scale.py` does, so the same
script measures an older tree too), then prints, in one run:

- re-capture: `capture --all` over 1,000 transcripts that were all captured before (nothing
  new), p50 spawn-to-exit as a ratio to `python -c pass`, and what the re-run wrote (commits
  on memory/atoms, atoms it called new). Target: ≤ 3×, no commit, nothing new.
- backfill in runs: 400 sessions arriving 100 at a time, `capture --all` after each 100; the
  time of each run and the last run's ratio to the first. Target: ≤ 1.6×.

The transcripts are realistic in size (assistant replies and tool output around the two
statements each carries, ~40 KB), so reading them again shows as what it costs. Ratios, one
run, nothing asserted (CONVENTIONS: benchmarks are not tests).

    python benchmarks/capture_all.py [--package DIR] [--only recapture,backfill] [--quick]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import Spec, interleaved, scratch, time_spawn  # noqa: E402
from scale import Bench  # noqa: E402
from scale_fixture import TOOLS  # noqa: E402

SECTIONS = ("recapture", "backfill")
MODULES = [f"{a} {c}" for a in ("billing", "search", "auth", "checkout", "reports") for c in ("api", "worker", "cli", "jobs")]
# Filler that a real session carries around the user's few statements: replies, tool output.
REPLY = "I read the module and ran the tests; here is what changed and why. " * 40
OUTPUT = "".join(f"tests/test_module_{k}.py::test_case_{k} PASSED\n" for k in range(300))


def session_records(n: int, cwd: Path, start: dt.datetime) -> list[dict[str, object]]:
    from agent_memory.cli.demo_run import transcript_records

    tool = TOOLS[n % len(TOOLS)]
    module = MODULES[(n // len(TOOLS)) % len(MODULES)]
    turns = [{"user": f"Always run {tool} before committing changes to the {module} package {n}."},
             {"user": f"Never edit the generated {module} client {n} by hand."},
             {"user": "ok, now fix the test that fails"}]  # fmt: skip
    records = transcript_records({"id": session_id(n), "turns": turns}, cwd, start + dt.timedelta(hours=n))
    filler: list[dict[str, object]] = []
    for k in range(6):
        tool_id = f"toolu_{n:08x}{k:04x}"
        filler.append({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": REPLY},
            {"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": "pytest -q"}}]}})
        filler.append({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool_id, "content": OUTPUT}]}})  # fmt: skip
    for record in filler:
        record.update({k: records[0][k] for k in ("cwd", "sessionId", "version", "timestamp")})
    return records[:2] + filler + records[2:]


def session_id(n: int) -> str:
    return f"{n:08x}-1111-4222-8333-444455556666"


def write_sessions(bench: Bench, repo: Path, numbers: range, total: int) -> Path:
    """Sessions `numbers` of `total`, one an hour, the last ending a day before now (nothing
    expires on arrival)."""
    from agent_memory.model.paths import slug_for

    folder = Path(bench.env["CLAUDE_CONFIG_DIR"]) / "projects" / slug_for(repo.resolve())
    folder.mkdir(parents=True, exist_ok=True)
    start = dt.datetime.now(dt.UTC) - dt.timedelta(hours=total + 24)
    for n in numbers:
        records = session_records(n, repo.resolve(), start)
        (folder / f"{session_id(n)}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


def commits(bench: Bench, repo: Path) -> int:
    return int(bench.run("git", "rev-list", "--count", "refs/heads/memory/atoms", cwd=repo).strip())


def capture_all(bench: Bench, repo: Path) -> tuple[float, dict[str, object]]:
    """One `capture --all --output json`: (ms, its report)."""
    begun = time.perf_counter()
    out = bench.run("git", "memory", "capture", "--all", "--output", "json", cwd=repo)
    took = (time.perf_counter() - begun) * 1000
    bench.wait_quiet(repo)
    report: dict[str, object] = json.loads(out)
    return took, report


def recapture_section(bench: Bench, files: int, runs: int) -> None:
    repo = bench.repo("recapture")
    folder = write_sessions(bench, repo, range(files), files)
    size = sum(p.stat().st_size for p in folder.glob("*.jsonl"))
    first, report = capture_all(bench, repo)
    bench.row(f"first capture --all of {files} transcripts ({size / 1e6:.0f} MB)",
              f"{first / 1000:.1f} s, {report.get('new')} new atoms")  # fmt: skip
    before = commits(bench, repo)
    took, again = capture_all(bench, repo)  # untimed by the ratio: what one re-run writes
    bench.row("re-run with nothing new: commits on memory/atoms, atoms reported new",
              f"{commits(bench, repo) - before} commits, {again.get('new')} new, {took:.0f} ms")  # fmt: skip
    commands: dict[str, Spec] = {
        "python -c pass": ([bench.python, "-c", "pass"], b""),
        "capture --all": (["git", "memory", "capture", "--all"], b"", lambda: bench.wait_quiet(repo)),
    }
    times = interleaved(commands, runs, bench.env, repo, warmup=1)
    base, p50 = statistics.median(times["python -c pass"]), statistics.median(times["capture --all"])
    bench.row(f"re-run capture --all over {files} captured transcripts ({runs} runs, p50)",
              f"{p50 / base:.2f}× python -c pass ({p50:.0f} ms; python -c pass {base:.0f} ms)")  # fmt: skip


def backfill_section(bench: Bench, total: int, step: int) -> None:
    repo = bench.repo("backfill-runs")
    ms: list[float] = []
    base = []
    for first in range(0, total, step):
        write_sessions(bench, repo, range(first, min(first + step, total)), total)
        base.append(time_spawn([bench.python, "-c", "pass"], bench.env, repo))
        took, report = capture_all(bench, repo)
        ms.append(took)
        print(f"    run {len(ms)}: {took / 1000:.2f} s, {report.get('captured')} captured, "
              f"{report.get('new')} new, {report.get('commits')} commits", file=sys.stderr, flush=True)
    bench.row(f"backfill of {total} sessions, capture --all after each {step}",
              " / ".join(f"{t / 1000:.2f} s" for t in ms) + f"; last ÷ first {ms[-1] / ms[0]:.2f}×")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", type=Path, default=HERE.parent / "agent_memory")
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    parser.add_argument("--runs", type=int, default=15, help="timed re-runs of capture --all")
    parser.add_argument("--keep", metavar="DIR")
    args = parser.parse_args()
    only = set(args.only.split(","))
    if only - set(SECTIONS):
        parser.error(f"unknown sections {', '.join(sorted(only - set(SECTIONS)))}")
    files, total, step = (100, 40, 10) if args.quick else (1000, 400, 100)
    with scratch(args.keep) as tmp:
        bench = Bench.started(Path(tmp), args.package)
        if "recapture" in only:
            recapture_section(bench, files, args.runs)
        if "backfill" in only:
            backfill_section(bench, total, step)
    bench.print_table()
    print(f"\npackage: {args.package.resolve()}; one run, spawn-to-exit, regular (wheel-like) install.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
