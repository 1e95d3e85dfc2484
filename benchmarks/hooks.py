"""Spawn-to-exit time of each Claude Code hook vs `python -c pass`, measured in one run, at 500
and 5,000 L1 atoms (issue 7 targets: recall p50 ≤ 1.5× at 500 and ≤ 2× at 5,000; session
start ≤ 2× at any size; session end returns in < 100 ms). Prints a table; asserts nothing.

Each hook is timed in the three forms Claude Code can run it:
- `git-memory hook E`: the console script itself (what the plugin shim execs);
- `sh agent-memory-hook E`: the plugin's `hooks/hooks.json` command (one `sh` + the above);
- `git memory hook E`: through git's dispatcher, what `git memory init` writes into
  `.claude/settings.json` (git itself starts first, then execs `git-memory`).

Every repository holds its L1 atoms on `memory/atoms` (with the recall index capture writes),
40 adopted L2 atoms and 20 adopted L3 atoms in the global repo, so session start does its
real work (both tiers, budgets, the L2/L3 collision check). Session end is given a transcript
path that is a directory: its detached capture refuses it fast and logs one line, and the
benchmark waits for that line after each run, so no background capture overlaps the next
measurement (and none turns the 5,000-atom store into a 500-atom one by enforcing the cap).

A last repository (`--big-log MB`, default 40; 0 skips it) holds 500 L1 atoms and an
adopted.log of that size (the 40 adopted atoms, a history of adopted-then-demoted atoms and
pin/unpin churn): the recall hook is timed with the log unchanged, and with one line
appended before each run (as an adopt does), so every prompt follows a change of the log;
then session start is timed on a cache hit over the unchanged log (its own `python -c pass`
baseline: the appends would make every start a miss), and on the miss that follows a line
appended before each run.

    python benchmarks/hooks.py [--runs 40] [--sizes 500,5000] [--big-log 40] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    Spec,
    interleaved,
    isolated_env,
    make_repo,
    scratch,
    summary,
    synthetic_atoms,
)
from scale import install  # noqa: E402 - a wheel-like install that carries the templates

SHIM = Path(__file__).resolve().parent.parent / "hooks" / "agent-memory-hook"
EVENTS = {
    "user-prompt-submit": "UserPromptSubmit",
    "session-start": "SessionStart",
    "session-end": "SessionEnd",
}
PROMPT = "how do I run the integration tests for the payments module?"
L2_ATOMS = 40
L3_ATOMS = 20


def write_tier(root: Path, tier: str, atoms: list[dict[str, object]]) -> None:
    """The committed files of a tier, written exactly as adopt writes them, then committed."""
    from agent_memory.committed.adopted_log import LogEntry
    from agent_memory.committed.files import TierFiles

    files = TierFiles(tier, "CLAUDE.memory.md", "", "").append(
        [LogEntry(op="adopt", atom=a, at=str(a["promoted_at"])) for a in atoms]
    )
    for rel, text in files.paths().items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")


def global_atoms(n: int) -> list[dict[str, object]]:
    from agent_memory.model.atom import atom_id, validate_atom

    out = []
    for i, atom in enumerate(synthetic_atoms(n, project="elsewhere", seed=11)):
        claim = f"Global habit {i}: {atom['claim']}"
        out.append(
            validate_atom(
                {
                    **{k: v for k, v in atom.items() if k not in ("project", "evidence")},
                    "id": atom_id(claim, None),
                    "claim": claim,
                    "scope": "global",
                    "tier": "L3",
                    "source": "s1.jsonl#L1",
                    "first_source": "s1.jsonl#L1",
                    "promoted_at": "2026-11-20T00:00:00Z",
                    "promoted_from_projects": ["alpha", "beta"],
                }
            )
        )
    return out


def populate(repo: Path, n: int, env: dict[str, str]) -> None:
    """n atoms straight through the store (the 500 cap is enforced by capture, not here: the
    5,000 case measures a store far over its cap on purpose), 40 of them adopted at L2."""
    from agent_memory.gitio import repo as git
    from agent_memory.model.atom import to_committed
    from agent_memory.store.capture import capture_atoms
    from agent_memory.store.l1 import L1Store

    store = L1Store(git.find_repo(repo))
    atoms = synthetic_atoms(n)
    capture_atoms(store, atoms, "bench", None)  # also writes the recall index
    write_tier(repo, "L2", [to_committed(a, "L2", str(a["last_seen"])) for a in atoms[:L2_ATOMS]])
    for cmd in (["git", "add", "-A"], ["git", "commit", "-q", "-m", "adopt"]):
        subprocess.run(cmd, cwd=repo, env=env, check=True)


def populate_global(env: dict[str, str]) -> None:
    home = Path(env["AGENT_MEMORY_HOME"])
    write_tier(home, "L3", global_atoms(L3_ATOMS))
    for cmd in (["git", "add", "-A"], ["git", "commit", "-q", "-m", "adopt L3"]):
        subprocess.run(cmd, cwd=home, env=env, check=True)


BIG_LOG_ATOMS = 500
BIG_LOG_START = 1_796_083_200  # 2026-12-01T00:00:00Z: after every line `populate` writes


def _stamp(seconds: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(BIG_LOG_START + seconds))


def grow_log(repo: Path, megabytes: int) -> Callable[[], None]:
    """Make the repository's adopted.log `megabytes` long without changing what it holds (the
    40 adopted atoms): 2,000 other atoms adopted then demoted, then pin/unpin churn over the
    held ones ending on an unpin. Returns what appends one more line (a pin), stamped after all
    the others, as the next adopt would."""
    from agent_memory.committed.adopted_log import LogEntry, fold, format_entry, parse
    from agent_memory.model.atom import to_committed

    log = repo / ".memory" / "adopted.log"
    held = list(fold(parse(log.read_text("utf-8"))[0]).values())
    others = synthetic_atoms(2_000, seed=23)[L2_ATOMS:]
    clock = 0
    lines: list[str] = []
    for atom in others:
        committed = to_committed(atom, "L2", _stamp(clock))
        lines.append(format_entry(LogEntry("adopt", committed, _stamp(clock))))
        lines.append(format_entry(LogEntry("demote", committed, _stamp(clock + 1))))
        clock += 2
    size = log.stat().st_size + sum(len(line.encode("utf-8")) for line in lines)
    with log.open("a", encoding="utf-8") as fh:
        fh.write("".join(lines))
        number = 0
        while size < megabytes << 20:
            atom = held[number % len(held)]
            chunk = "".join(
                format_entry(LogEntry(op, {**atom, "pinned": op == "pin"}, _stamp(clock + k)))
                for k, op in enumerate(("pin", "unpin"))
            )
            fh.write(chunk)
            size += len(chunk.encode("utf-8"))
            clock += 2
            number += 1
    state = {"clock": clock}

    def append() -> None:
        atom = held[state["clock"] % len(held)]
        with log.open("a", encoding="utf-8") as fh:
            fh.write(format_entry(LogEntry("pin", {**atom, "pinned": True}, _stamp(state["clock"]))))
        state["clock"] += 1

    return append


def running_with(marker: str) -> bool:
    """Whether a process whose command line contains `marker` is alive (Linux /proc; elsewhere
    False, and the caller's grace period stands in)."""
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return False
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    return True
        except OSError:
            continue
    return False


def wait_for_background_capture(repo: Path, transcript: str) -> Callable[[], None]:
    """After a session-end run: wait until its detached capture has logged its failure (the
    transcript is missing on purpose) and exited, then clear the log for the next run. A
    capture still tearing down would otherwise tax the next measurement."""
    log = repo / ".git" / "agent-memory" / "errors.log"

    def settle() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if "background capture" in log.read_text("utf-8"):
                    log.unlink()
                    break
            except FileNotFoundError:
                pass
            time.sleep(0.01)
        else:
            raise SystemExit("session-end: the detached capture never finished (see errors.log)")
        if not os.path.isdir("/proc"):
            time.sleep(0.5)
        while running_with(transcript) and time.monotonic() < deadline:
            time.sleep(0.01)

    return settle


def payloads(repo: Path, root: Path) -> dict[str, bytes]:
    common = {
        "session_id": "bench",
        "transcript_path": str(root / "missing.jsonl"),  # a directory: refused, logged
        "cwd": str(repo),
        "permission_mode": "default",
    }
    extra = {
        "user-prompt-submit": {"prompt": PROMPT},
        "session-start": {"source": "startup"},
        "session-end": {"reason": "other"},
    }
    return {
        event: json.dumps({**common, "hook_event_name": name, **extra[event]}).encode()
        for event, name in EVENTS.items()
    }


def forms(event: str) -> dict[str, list[str]]:
    return {
        "git-memory hook": ["git-memory", "hook", event],
        "sh agent-memory-hook": ["sh", str(SHIM), event],
        "git memory hook": ["git", "memory", "hook", event],
    }


def check_outputs(repo: Path, env: dict[str, str], data: dict[str, bytes]) -> None:
    """The hooks must do their real work in this setup, or the timings mean nothing."""
    for event in ("user-prompt-submit", "session-start"):
        out = subprocess.run(
            ["git-memory", "hook", event],
            input=data[event],
            cwd=repo,
            env=env,
            capture_output=True,
            check=True,
        ).stdout
        context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
        assert context, f"{event} printed no context"
    log = repo / ".git" / "agent-memory" / "errors.log"
    assert not log.exists(), log.read_text()


def big_log_rows(
    root: Path, env: dict[str, str], python: str, megabytes: int, runs: int
) -> list[tuple[int, str, float, float, float, float]]:
    repo = make_repo(root, env, "bench-big-log")
    if not (root / "home/.claude/agent-memory/.memory").exists():
        populate_global(env)
    populate(repo, BIG_LOG_ATOMS, env)
    append = grow_log(repo, megabytes)
    data = payloads(repo, root)
    argv = forms("user-prompt-submit")["git-memory hook"]

    def answers(run_env: dict[str, str] = env) -> bool:
        out = subprocess.run(argv, input=data["user-prompt-submit"], cwd=repo, env=run_env,
                             capture_output=True, check=True).stdout  # fmt: skip
        return bool(out.strip())

    # The first prompt after the log was written reads it whole: here in one go (a hook's own
    # budget would spread that read over a few prompts, each logging how far it got).
    answers({**env, "AGENT_MEMORY_LOG_READ_BUDGET_MS": "600000"})
    check_outputs(repo, env, data)
    append()
    # Over its budget, the hook answers nothing (and the prompt still waited).
    print(f"{megabytes} MB adopted.log, a line appended: the hook "
          f"{'answered' if answers() else 'answered NOTHING (over its budget)'}", file=sys.stderr)  # fmt: skip
    label = f"user-prompt-submit ({megabytes} MB adopted.log"
    commands: dict[str, Spec] = {
        "python -c pass": ([python, "-c", "pass"], b"", None),
        f"{label}, unchanged) | git-memory hook": (argv, data["user-prompt-submit"], None),
        f"{label}, a line appended before each run) | git-memory hook": (
            argv,
            data["user-prompt-submit"],
            None,
            append,
        ),
    }
    rows = []
    # Session start on its own: the appends above would make every start a cache miss. The
    # warm-up rounds render it once; every timed start is a cache hit over the unchanged log.
    starts: dict[str, Spec] = {
        "python -c pass": commands["python -c pass"],
        f"session-start (cached, {megabytes} MB adopted.log, unchanged) | git-memory hook": (
            forms("session-start")["git-memory hook"],
            data["session-start"],
            None,
        ),
    }
    # Session start after a change of the log (a cache miss every run): one line appended
    # before each start, as an adopt does, so what it costs is what a miss over a log that
    # grew costs.
    misses: dict[str, Spec] = {
        "python -c pass": commands["python -c pass"],
        f"session-start ({megabytes} MB adopted.log, a line appended before each run) | git-memory hook": (
            forms("session-start")["git-memory hook"],
            data["session-start"],
            None,
            append,
        ),
    }
    for group in (commands, starts, misses):
        times = interleaved(group, runs, env, repo)
        base50, base95 = summary(times["python -c pass"])
        for name, values in times.items():
            p50, p95 = summary(values)
            rows.append((BIG_LOG_ATOMS, name, p50, p95, p50 / base50, p95 / base95))
    print(f"measured the {megabytes} MB adopted.log ({runs} runs each)", file=sys.stderr)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--sizes", default="500,5000")
    parser.add_argument(
        "--keep", metavar="DIR", help="build the repositories in DIR and leave them"
    )
    parser.add_argument(
        "--install",
        choices=["regular", "editable"],
        default="regular",
        help="time a wheel-like install in a scratch venv (default) or this editable venv",
    )
    parser.add_argument(
        "--big-log",
        type=int,
        default=40,
        metavar="MB",
        help="also time recall and a cached session start over an adopted.log of this size (0: skip)",
    )
    args = parser.parse_args()
    rows = []
    with scratch(args.keep) as tmp:
        root = Path(tmp)
        package = Path(__file__).resolve().parent.parent / "agent_memory"
        bin_dir = install(root, package) if args.install == "regular" else Path(sys.executable).parent
        python = str(bin_dir / "python")
        env = isolated_env(root, bin_dir)
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
        for n in (int(s) for s in args.sizes.split(",") if s):
            repo = make_repo(root, env, f"bench{n}")
            if not (root / "home/.claude/agent-memory/.memory").exists():
                populate_global(env)  # the global repo exists once `git memory init` ran
            populate(repo, n, env)
            data = payloads(repo, root)
            check_outputs(repo, env, data)
            commands: dict[str, Spec] = {
                "python -c pass": ([python, "-c", "pass"], b"", None),
                # For reference: pip's generated console scripts start with `import re` (ours does not).
                "python -c 'import re'": ([python, "-c", "import re"], b"", None),
            }
            (root / "missing.jsonl").mkdir(exist_ok=True)
            settle = wait_for_background_capture(repo, str(root / "missing.jsonl"))
            for event in EVENTS:
                for form, argv in forms(event).items():
                    commands[f"{event} | {form}"] = (
                        argv,
                        data[event],
                        settle if event == "session-end" else None,
                    )
            cache = repo / ".git" / "agent-memory" / "session-start.cache"
            commands["session-start (cache miss) | git-memory hook"] = (
                forms("session-start")["git-memory hook"],
                data["session-start"],
                None,
                lambda cache=cache: cache.unlink(missing_ok=True),  # type: ignore[misc]
            )
            times = interleaved(commands, args.runs, env, repo)
            base50, base95 = summary(times["python -c pass"])
            for name, values in times.items():
                p50, p95 = summary(values)
                rows.append((n, name, p50, p95, p50 / base50, p95 / base95))
            print(f"measured {n} atoms ({args.runs} runs each)", file=sys.stderr)
        if args.big_log:
            rows += big_log_rows(root, env, python, args.big_log, args.runs)
    print("| atoms | hook | form | p50 ms | p95 ms | p50 × | p95 × |")
    print("|---:|---|---|---:|---:|---:|---:|")
    for n, name, p50, p95, r50, r95 in rows:
        event, _, form = name.partition(" | ")
        print(f"| {n} | {event} | {form or '—'} | {p50:.1f} | {p95:.1f} | {r50:.2f} | {r95:.2f} |")
    print(
        f"\n{args.install} install; × = ratio to `python -c pass` in the same run (same interpreter, "
        "bytecode cached), interleaved runs; spawn to exit with stdin written and stdout/stderr read to EOF."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
