"""What the pre-push hook costs a fresh clone pushing a long history to a new remote: `git push`
of N commits, each re-rendering CLAUDE.memory.md's block (small and large) and appending a line
to `.memory/adopted.log`, with the hooks `git memory init` installs, against a push of the same
history with `--no-verify` (no hook), in one run. Every pushed commit touches a memory file, so
the hook checks all N (scan.pushed_memory_findings).

The history is written by `git fast-import` (a commit through the pre-commit hook each would
take longer than what is measured); the block is clean text, every line judged, and each commit
changes one line of it, as a re-render does. Each push goes to a new bare remote; hook and
no-hook pushes alternate, so the machine's load hits both alike. Prints a table; asserts nothing
(CONVENTIONS: benchmarks are not tests).

The hook runs from a wheel-like install of `--package` (default: this checkout's agent_memory),
so two versions can be measured on the same machine: `--package /tmp/old/agent_memory`.

    python benchmarks/pre_push.py [--package DIR] [--commits 1000] [--blocks 4,250] [--runs 1] [--keep DIR]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import isolated_env, make_repo, scratch, synthetic_atoms  # noqa: E402
from scale import install  # noqa: E402 - a wheel-like install that carries the templates

LINE = "- Run `make test-{k}` before merging module {k}; the payments service reads its config from env ({v})."


def block_text(kb: int, version: int) -> str:
    """A rendered-looking CLAUDE.memory.md of about `kb` KB whose line `version % lines` says
    `version`: each commit changes one line, as a re-render after an adopt does."""
    lines = []
    size = 0
    while size < kb * 1024:
        lines.append(LINE.format(k=len(lines), v=0))
        size += len(lines[-1]) + 1
    at = version % len(lines)
    lines[at] = LINE.format(k=at, v=version)
    return "# Project memory\n\n" + "\n".join(lines) + "\n"


def log_lines(n: int) -> list[str]:
    """`n` adopt entries the guard lets through: their back-pointers bare (`s3.jsonl#L41`, as
    capture writes them), not under a home folder."""
    import json

    from agent_memory.committed.adopted_log import LogEntry, format_entry

    out = []
    for atom in synthetic_atoms(n):
        text = json.dumps(atom).replace("~/.claude/projects/-home-dev-bench/", "")
        out.append(format_entry(LogEntry(op="adopt", atom=json.loads(text), at="2026-11-01T00:00:00Z")))
    return out


def build(repo: Path, env: dict[str, str], commits: int, kb: int) -> None:
    """`commits` commits on main through `git fast-import`: each writes the block anew and
    appends one adopted.log line (the whole file is given: fast-import has no append)."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, env=env, check=True, capture_output=True,
                          text=True).stdout.strip()  # fmt: skip
    entries = log_lines(commits)
    log = ""
    stream = bytearray()

    def data(text: str) -> None:
        raw = text.encode()
        stream.extend(b"data %d\n" % len(raw) + raw + b"\n")

    proc = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=repo, env=env, stdin=subprocess.PIPE)
    assert proc.stdin is not None
    for i in range(commits):
        log += entries[i]  # (format_entry ends the line)
        stream.extend(b"commit refs/heads/main\n")
        stream.extend(b"committer Bench <bench@example.invalid> %d +0000\n" % (1_700_000_000 + i))
        data(f"adopt item {i}")
        if i == 0:
            stream.extend(f"from {head}\n".encode())
        stream.extend(b"M 100644 inline CLAUDE.memory.md\n")
        data(block_text(kb, i))
        stream.extend(b"M 100644 inline .memory/adopted.log\n")
        data(log)
        proc.stdin.write(bytes(stream))
        stream.clear()
    proc.stdin.close()
    if proc.wait() != 0:
        raise SystemExit("git fast-import failed")
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=repo, env=env, check=True)


def push(repo: Path, env: dict[str, str], remote: Path, hook: bool) -> float:
    """Seconds of one `git push` of main to the new bare `remote`; refused or failed: exit."""
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], env=env, check=True)
    args = ["git", "push", "-q", str(remote), "main"] + ([] if hook else ["--no-verify"])
    begun = time.perf_counter()
    proc = subprocess.run(args, cwd=repo, env=env, capture_output=True, text=True, check=False)
    took = time.perf_counter() - begun
    if proc.returncode != 0:
        raise SystemExit(f"push failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default=str(Path(__file__).resolve().parent.parent / "agent_memory"))
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--blocks", default="4,250", help="block sizes in KB, comma-separated")
    parser.add_argument("--runs", type=int, default=1, help="pushes of each kind (alternated)")
    parser.add_argument("--keep", help="build the repositories here and leave them")
    args = parser.parse_args()
    print(f"{args.commits} commits, each changing the block and appending an adopted.log line; "
          f"push to a new bare remote, median of {args.runs}")  # fmt: skip
    print(f"{'block':>7} {'hook s':>8} {'no hook s':>10} {'ratio':>7} {'hook ms/commit':>15}")
    with scratch(args.keep) as tmp:
        root = Path(tmp)
        env = isolated_env(root, install(root, Path(args.package).resolve()))
        env.pop("PYTHONPATH", None)  # the installed copy, not a checkout on the path
        for kb in (int(b) for b in args.blocks.split(",")):
            repo = make_repo(root, env, f"push-{kb}k")
            build(repo, env, args.commits, kb)
            times: dict[bool, list[float]] = {True: [], False: []}
            for run in range(args.runs):
                for hook in (True, False):
                    times[hook].append(push(repo, env, root / f"remote-{kb}k-{run}-{int(hook)}.git", hook))
            with_hook, without = statistics.median(times[True]), statistics.median(times[False])
            per_commit = (with_hook - without) * 1000 / args.commits
            print(f"{kb:>5}KB {with_hook:>8.2f} {without:>10.2f} {with_hook / without:>6.1f}x {per_commit:>15.2f}",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
