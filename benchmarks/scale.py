"""The issue-17 table in one run: how the costs of agent-memory grow with the store.

Installs the package under test like a wheel (`--package DIR`, default this checkout's
`agent_memory/`, so the same script measures an older tree too), then prints:

- per-prompt recall hook at 500 / 5,000 atoms through `git memory hook user-prompt-submit`
  (the `.claude/settings.json` command line), p50 ratio to `python -c pass`;
- session-start: warm cache, cold (cache removed before each run), and with a stale recall
  index (memory/atoms moved since the index was written) at 500 / 5,000 / 50,000 atoms;
- a 10-atom capture commit at 1k → 10k → 100k stored atoms (median of a few);
- backfill: 1,000 transcripts with 2 new statements each, one capture per file; the total and
  the per-file time per 100 files (the curve: flat, or rising with the store);
- `adopt --all` of 60 staged items (per item), in a store of 1,000 atoms;
- one atom's blob after 2,000 sessions, and the growth of `.git/objects`;
- `git memory recall --output json` vs the text form at the largest store.

Ratios, one run, nothing asserted (CONVENTIONS: benchmarks are not tests). Each section can be
run alone (`--only capture,backfill`); sizes shrink with `--quick`.

    python benchmarks/scale.py [--package DIR] [--only SECTIONS] [--quick] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import Spec, interleaved, isolated_env, scratch, summary, time_spawn  # noqa: E402
from scale_fixture import TOOLS, scale_atoms  # noqa: E402

from agent_memory.claude.settings import hook_command  # noqa: E402

SECTIONS = ("recall", "session-start", "capture", "backfill", "adopt", "evidence", "recall-json")
PROMPT = "fix the failing pytest run in the billing api and install the dependencies"
WORKER = HERE / "scale_worker.py"


# --- set-up -----------------------------------------------------------------------------------


def install(root: Path, package: Path) -> Path:
    """A venv with `package` copied into site-packages (no editable-install finder) and the
    `git-memory` launcher; dependencies come from this interpreter's site-packages."""
    import sysconfig

    venv = root / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True)
    bin_dir = venv / "bin"
    python = bin_dir / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())  # fmt: skip
    shutil.copytree(package, site / "agent_memory", ignore=shutil.ignore_patterns("__pycache__"))
    # What the wheel carries as data packages (pyproject's package-dir mapping).
    for folder, name in (("templates", "_templates"), ("git-hooks", "_git_hooks")):
        if (package.parent / folder).is_dir():
            shutil.copytree(package.parent / folder, site / "agent_memory" / name)
    (site / "agent_memory_bench_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    launcher_src = package.parent / "scripts" / "git-memory"
    if not launcher_src.exists():
        launcher_src = HERE.parent / "scripts" / "git-memory"
    script = bin_dir / "git-memory"
    script.write_text(launcher_src.read_text().replace("#!python", f"#!{python}", 1))
    script.chmod(0o755)
    return bin_dir


class Bench:
    def __init__(self, root: Path, package: Path) -> None:
        self.root = root
        self.bin = install(root, package)
        self.python = str(self.bin / "python")
        self.env = isolated_env(root, self.bin)
        self.env["AGENT_MEMORY_NOW"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self.rows: list[tuple[str, str]] = []

    @classmethod
    def started(cls, root: Path, package: Path) -> Bench:
        """A bench whose isolated environment this process takes on too (the sections run git
        and `git memory` in it), with the global memory repo created by a first `init`."""
        bench = cls(root, package.resolve())
        os.environ.update({k: bench.env[k] for k in ("HOME", "CLAUDE_CONFIG_DIR", "AGENT_MEMORY_HOME",
                                                    "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "PATH")})  # fmt: skip
        bench.repo("first")  # creates the global memory repo
        print(f"package {package.resolve()}", file=sys.stderr)
        return bench

    def print_table(self) -> None:
        print("| what | figure |")
        print("|---|---|")
        for what, figure in self.rows:
            print(f"| {what} | {figure} |")

    def run(self, *args: str, cwd: Path, check: bool = True, env: dict[str, str] | None = None) -> str:
        proc = subprocess.run(list(args), cwd=cwd, env=env or self.env, capture_output=True, text=True,
                              check=False)  # fmt: skip
        if check and proc.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
        return proc.stdout

    def worker(self, *args: str) -> dict[str, Any]:
        out = self.run(self.python, str(WORKER), *args, cwd=self.root)
        result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        return result

    def repo(self, name: str, claude_hooks: bool = False) -> Path:
        path = self.root / name
        path.mkdir(parents=True)
        self.run("git", "init", "-q", "-b", "main", cwd=path)
        self.run("git", "commit", "-q", "--allow-empty", "-m", "init", cwd=path)
        args = ["git", "memory", "init", "--yes"] + ([] if claude_hooks else ["--no-claude-hooks"])
        self.run(*args, cwd=path)
        return path

    def row(self, what: str, figure: str) -> None:
        self.rows.append((what, figure))
        print(f"  {what}: {figure}", file=sys.stderr, flush=True)

    def wait_quiet(self, repo: Path, limit: float = 600.0) -> None:
        """Wait until no detached job of ours (index rebuild, capture) runs for this repo, nor
        git's own housekeeping (a `git commit` in a repository of 50k loose objects starts a
        background `git gc --auto`, which otherwise runs during the timed spawns)."""
        deadline = time.monotonic() + limit
        marker = repo / ".git" / "agent-memory" / "rebuilding-recall-index"
        while time.monotonic() < deadline:
            if (not marker.exists() and not _running("agent_memory", str(repo))
                    and not _running("\0gc\0", str(repo)) and not _running("\0maintenance\0", str(repo))):  # fmt: skip
                return
            time.sleep(0.02)


def _running(*needles: str) -> bool:
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return False
    me = str(os.getpid())
    for pid in pids:
        if pid == me:
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmd = fh.read()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if needles[0].encode() in cmd and (len(needles) < 2 or cwd.startswith(needles[1])):
            return True
    return False


def hook_payload(repo: Path, event: str, **extra: str) -> bytes:
    names = {"user-prompt-submit": "UserPromptSubmit", "session-start": "SessionStart",
             "session-end": "SessionEnd"}  # fmt: skip
    return json.dumps({"session_id": "bench", "transcript_path": str(repo / "missing.jsonl"),
                       "cwd": str(repo), "hook_event_name": names[event], **extra}).encode()  # fmt: skip


def adopt_some(bench: Bench, repo: Path, count: int, seed: int = 7) -> None:
    """The first `count` stored atoms adopted at L2 (committed files written as adopt writes
    them), and 20 L3 atoms in the global repo once: session start does its real work."""
    sys.path.insert(0, str(HERE))
    from agent_memory.model.atom import to_committed
    from hooks import global_atoms, write_tier

    project = bench.run("git", "config", "memory.project", cwd=repo).strip()
    atoms = [dict(a, project=project) for a in scale_atoms(count, seed=seed, project=project)]
    for atom in atoms:
        for key in ("contested", "contested_by"):
            atom.pop(key, None)
    write_tier(repo, "L2", [to_committed(a, "L2", str(a["last_seen"])) for a in atoms])
    bench.run("git", "add", "-A", cwd=repo)
    bench.run("git", "commit", "-q", "-m", "adopt", cwd=repo)
    home = Path(bench.env["AGENT_MEMORY_HOME"])
    log = home / ".memory" / "adopted.log"
    if not log.exists() or not log.read_text().strip():
        write_tier(home, "L3", global_atoms(20))
        bench.run("git", "add", "-A", cwd=home)
        bench.run("git", "commit", "-q", "-m", "adopt L3", cwd=home)


def populate(bench: Bench, repo: Path, n: int, quiet: bool = False) -> None:
    project = bench.run("git", "config", "memory.project", cwd=repo).strip()
    if project != "bench":
        bench.run("git", "config", "memory.project", "bench", cwd=repo)
    out = bench.worker("populate", str(repo), str(n), *(["--quiet"] if quiet else []))
    print(f"  (populated {out['atoms']} atoms in {out['seconds']:.1f} s)", file=sys.stderr, flush=True)
    # The fixture's objects written to disk now, not by the kernel during the timed runs (at
    # 50k atoms the writeback of the populate slowed the first measurements by ~30 ms).
    os.sync()


def ratio(times: dict[str, list[float]], name: str) -> str:
    base = summary(times["python -c pass"])[0]
    p50 = summary(times[name])[0]
    return f"{p50 / base:.2f}× ({p50:.0f} ms; python -c pass {base:.0f} ms)"


def settings_command(event: str) -> list[str]:
    """What Claude Code runs for `event`: the command `git memory init` writes into
    .claude/settings.json, through the shell."""
    return ["/bin/sh", "-c", hook_command(event)]


# --- sections ---------------------------------------------------------------------------------


def recall_section(bench: Bench, sizes: list[int], runs: int) -> dict[int, Path]:
    repos = {}
    for n in sizes:
        repo = bench.repo(f"recall{n}")
        populate(bench, repo, n)
        adopt_some(bench, repo, 40)
        bench.wait_quiet(repo)
        repos[n] = repo
        data = hook_payload(repo, "user-prompt-submit", prompt=PROMPT)
        check = subprocess.run(["git", "memory", "hook", "user-prompt-submit"], input=data, cwd=repo,
                               env=bench.env, capture_output=True, check=False).stdout  # fmt: skip
        if not check.strip():
            print(f"  (warning: recall at {n} injected nothing for the benchmark prompt)", file=sys.stderr)
        commands: dict[str, Spec] = {
            "python -c pass": ([bench.python, "-c", "pass"], b""),
            "recall": (settings_command("UserPromptSubmit"), data),
            "dispatched": (["git", "memory", "hook", "user-prompt-submit"], data),
        }
        times = interleaved(commands, runs, bench.env, repo)
        bench.row(f"per-prompt recall hook @ {n} (the settings.json command, via sh -c)", ratio(times, "recall"))
        bench.row(f"per-prompt recall hook @ {n} (`git memory hook`, git's dispatcher)", ratio(times, "dispatched"))
    return repos


def _stale(bench: Bench, repo: Path) -> None:
    """Move memory/atoms to a new commit with the same tree: the recall index (built from the
    old tip) is stale, and the session-start cache (keyed on the tip) misses."""
    tip = bench.run("git", "rev-parse", "refs/heads/memory/atoms", cwd=repo).strip()
    new = bench.run("git", "commit-tree", f"{tip}^{{tree}}", "-p", tip, "-m", "bench: stale", cwd=repo).strip()
    bench.run("git", "update-ref", "refs/heads/memory/atoms", new, tip, cwd=repo)
    (repo / ".git" / "agent-memory" / "session-start.cache").unlink(missing_ok=True)


def session_start_section(bench: Bench, repos: dict[int, Path], sizes: list[int], stale_sizes: list[int],
                          runs: int) -> None:  # fmt: skip
    for n in sorted(set(sizes) | set(stale_sizes)):
        repo = repos.get(n)
        if repo is None:
            repo = repos[n] = bench.repo(f"recall{n}")
            populate(bench, repo, n)
            adopt_some(bench, repo, 40)
        bench.wait_quiet(repo)
        data = hook_payload(repo, "session-start", source="startup")
        argv = settings_command("SessionStart")
        subprocess.run(argv, input=data, cwd=repo, env=bench.env, capture_output=True, check=False)  # fills the cache
        subprocess.run(argv, input=data, cwd=repo, env=bench.env, capture_output=True, check=False)
        cache = repo / ".git" / "agent-memory" / "session-start.cache"
        commands: dict[str, Spec] = {"python -c pass": ([bench.python, "-c", "pass"], b"")}
        if n in sizes:
            # Interleaved with the stale runs (which move memory/atoms): each warm run is
            # preceded by an untimed start that fills the cache for the current tip, each cold
            # run by the index caught up and the cache removed.
            def fill(repo: Path = repo, data: bytes = data, argv: list[str] = argv) -> None:
                bench.wait_quiet(repo)
                subprocess.run(argv, input=data, cwd=repo, env=bench.env, capture_output=True, check=False)
                bench.wait_quiet(repo)

            def empty(repo: Path = repo, cache: Path = cache) -> None:
                fill(repo)
                cache.unlink(missing_ok=True)

            commands["warm"] = (argv, data, None, fill)
            commands["cold"] = (argv, data, None, empty)
        if n in stale_sizes:
            commands["stale"] = (argv, data, lambda repo=repo: bench.wait_quiet(repo),  # type: ignore[misc]
                                 lambda repo=repo: _stale(bench, repo))  # type: ignore[misc]
        k = runs if n <= 5000 else max(3, runs // 10)
        times = interleaved(commands, k, bench.env, repo, warmup=1)
        for name in ("warm", "cold", "stale"):
            if name in commands:
                bench.row(f"session-start {name} @ {n}", ratio(times, name))
        bench.wait_quiet(repo)


def capture_section(bench: Bench, sizes: list[int], runs: int) -> Path:
    repo = bench.repo("capture")
    medians = {}
    for n in sizes:
        populate(bench, repo, n)
        bench.wait_quiet(repo)
        out = bench.worker("capture", str(repo), str(runs))
        medians[n] = statistics.median(out["ms"])
        bench.row(f"10-atom capture commit @ {n} stored", f"{medians[n]:.0f} ms (runs: {', '.join(f'{t:.0f}' for t in out['ms'])})")
    first = medians[sizes[0]]
    bench.row("capture commit growth", " → ".join(f"{medians[n] / first:.2f}×" for n in sizes) + f" of {sizes[0]}")
    return repo


def _transcripts(bench: Bench, repo: Path, count: int) -> Path:
    import datetime as dt

    from agent_memory.cli.demo_run import transcript_records
    from agent_memory.model.paths import slug_for

    folder = Path(bench.env["CLAUDE_CONFIG_DIR"]) / "projects" / slug_for(repo.resolve())
    folder.mkdir(parents=True, exist_ok=True)
    modules = [f"{a} {c}" for a in ("billing", "search", "auth", "checkout", "reports")
               for c in ("api", "worker", "cli", "jobs")]  # fmt: skip
    start = dt.datetime.now(dt.UTC) - dt.timedelta(hours=count + 24)
    for n in range(count):
        tool = TOOLS[n % len(TOOLS)]
        module = modules[(n // len(TOOLS)) % len(modules)]
        turns = [{"user": f"Always run {tool} before committing changes to the {module} package {n}."},
                 {"user": f"Never edit the generated {module} client {n} by hand."},
                 {"user": "ok, now fix the test that fails"}]  # fmt: skip
        # One session an hour, ending before now: nothing expires on arrival (90 days).
        day = start + dt.timedelta(hours=n)
        records = transcript_records({"id": f"{n:08x}-1111-4222-8333-444455556666", "turns": turns},
                                     repo.resolve(), day)  # fmt: skip
        (folder / f"{n:08x}-1111-4222-8333-444455556666.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in records))
    return folder


def backfill_section(bench: Bench, files: int) -> None:
    repo = bench.repo("backfill")
    folder = _transcripts(bench, repo, files)
    out = bench.worker("backfill", str(repo), str(folder))
    times = out["ms"]
    step = max(1, len(times) // 10)
    curve = [statistics.mean(times[i : i + step]) for i in range(0, len(times), step)]
    bench.row(f"backfill of {files} sessions ({out['new']} new atoms)", f"{out['seconds']:.1f} s")
    bench.row(f"backfill per-file ms, mean per {step} files", " ".join(f"{c:.0f}" for c in curve))


def adopt_section(bench: Bench, items: int, store_size: int, runs: int = 5) -> None:
    """`adopt --all` of `items` staged items, `runs` times on copies of one staged repository
    (the wall time of one run moves ±20 % with this machine's noise: the median is reported,
    with the range and `python -c pass` measured alongside)."""
    repo = bench.repo("adopt")
    populate(bench, repo, store_size, quiet=True)  # none of these is eligible
    bench.worker("eligible", str(repo), str(items))
    bench.run("git", "memory", "stage", cwd=repo)
    bench.wait_quiet(repo)
    per_item, baseline = [], []
    for attempt in range(runs):
        copy = bench.root / f"adopt-run{attempt}"
        shutil.copytree(repo, copy, symlinks=True)
        baseline.append(time_spawn([bench.python, "-c", "pass"], bench.env, copy, b""))
        begun = time.perf_counter()
        bench.run("git", "memory", "adopt", "--all", cwd=copy)
        took = time.perf_counter() - begun
        adopted = len(json.loads(bench.run("git", "memory", "inspect", "--tier", "L2", "--output", "json", cwd=copy))["atoms"])
        per_item.append(took * 1000 / max(adopted, 1))
        bench.wait_quiet(copy)
    bench.row(f"adopt --all of {adopted} staged items in a {store_size}-atom store, {runs} runs",
              f"{statistics.median(per_item):.0f} ms per item (median; {min(per_item):.0f}–{max(per_item):.0f}); "
              f"python -c pass {statistics.median(baseline):.0f} ms")  # fmt: skip


def evidence_section(bench: Bench, sessions: int) -> None:
    repo = bench.repo("evidence")
    out = bench.worker("evidence", str(repo), str(sessions))
    bench.row(f"one atom after {sessions} sessions",
              f"{out['blob_bytes'] / 1024:.1f} KB blob ({out['quotes_kept']} quotes kept, {out['sessions']} session ids); "
              f".git/objects grew {out['git_growth_loose'] / 1024 / 1024:.1f} MB (after gc); {out['seconds']:.1f} s")  # fmt: skip


def recall_json_section(bench: Bench, repo: Path, runs: int) -> None:
    bench.wait_quiet(repo)
    bench.run("git", "memory", "recall", "--prompt", PROMPT, cwd=repo)  # a fresh index first
    commands: dict[str, Spec] = {
        "python -c pass": ([bench.python, "-c", "pass"], b""),
        "text": (["git", "memory", "recall", "--prompt", PROMPT], b""),
        "json": (["git", "memory", "recall", "--prompt", PROMPT, "--output", "json"], b""),
    }
    times = interleaved(commands, runs, bench.env, repo, warmup=1)
    text, js = summary(times["text"])[0], summary(times["json"])[0]
    count = (repo / ".git" / "bench-count").read_text()
    bench.row(f"recall --output json @ {count} atoms", f"{js:.0f} ms = {js / text:.1f}× the text form ({text:.0f} ms)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", type=Path, default=HERE.parent / "agent_memory")
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--keep", metavar="DIR")
    args = parser.parse_args()
    only = set(args.only.split(","))
    unknown = only - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections {', '.join(sorted(unknown))}")
    if args.quick:
        recall_sizes, stale_sizes, capture_sizes = [200, 1000], [200, 1000], [200, 1000, 4000]
        files, items, store_size, sessions, runs = 100, 10, 200, 200, min(args.runs, 10)
    else:
        recall_sizes, stale_sizes, capture_sizes = [500, 5000], [500, 5000, 50_000], [1000, 10_000, 100_000]
        files, items, store_size, sessions, runs = 1000, 60, 1000, 2000, args.runs
    with scratch(args.keep) as tmp:
        bench = Bench.started(Path(tmp), args.package)
        repos: dict[int, Path] = {}
        if "recall" in only:
            repos = recall_section(bench, recall_sizes, runs)
        if "session-start" in only:
            session_start_section(bench, repos, recall_sizes, stale_sizes, runs)
        capture_repo = None
        if "capture" in only:
            capture_repo = capture_section(bench, capture_sizes, 7)
        if "backfill" in only:
            backfill_section(bench, files)
        if "adopt" in only:
            adopt_section(bench, items, store_size)
        if "evidence" in only:
            evidence_section(bench, sessions)
        if "recall-json" in only:
            if capture_repo is None:
                capture_repo = bench.repo("recall-json")
                populate(bench, capture_repo, capture_sizes[-1])
            recall_json_section(bench, capture_repo, 5)
    bench.print_table()
    print(f"\npackage: {args.package.resolve()}; ratios are p50 spawn-to-exit against `python -c pass`, "
          "interleaved runs, regular (wheel-like) install, bytecode cached.")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
