"""Spawn-to-exit time of each Claude Code hook vs `python -c pass`, measured in one run, at 500
and 5,000 L1 atoms (issue 7 targets: recall p50 ≤ 1.5× at 500 and ≤ 2× at 5,000; session
start ≤ 2×; session end returns in < 100 ms). Prints a table; asserts nothing.

    python benchmarks/hooks.py [--runs 40]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import interleaved, isolated_env, make_repo, scratch, summary, synthetic_atoms  # noqa: E402


def populate(repo: Path, n: int) -> None:
    """Write n atoms straight through the store (the 500 cap is enforced by capture, not here:
    the 5,000 case measures a store far over its cap on purpose) and adopt a few at L2."""
    from agent_memory import git
    from agent_memory.adopted_log import LogEntry, format_entry
    from agent_memory.atom import to_committed
    from agent_memory.capture import capture_atoms
    from agent_memory.committed import TierFiles
    from agent_memory.store import L1Store

    store = L1Store(git.find_repo(repo))
    atoms = synthetic_atoms(n)
    capture_atoms(store, atoms, "bench", None)
    held = [to_committed(a, "L2", a["last_seen"]) for a in atoms[:40]]
    files = TierFiles("L2", "CLAUDE.memory.md", "", "").append(
        [LogEntry(op="adopt", atom=a, at=a["promoted_at"]) for a in held])
    for rel, text in files.paths().items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    assert format_entry  # the committed files are written like adopt writes them


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    rows = []
    with scratch() as tmp:
        root = Path(tmp)
        env = isolated_env(root)
        import os

        os.environ.update({k: env[k] for k in ("HOME", "CLAUDE_CONFIG_DIR", "AGENT_MEMORY_HOME", "GIT_CONFIG_GLOBAL",
                                                 "GIT_CONFIG_NOSYSTEM", "AGENT_MEMORY_NOW", "PATH")})
        for n in (500, 5000):
            repo = make_repo(root, env, f"bench{n}")
            populate(repo, n)
            payload = {"session_id": "bench", "transcript_path": str(root / "missing.jsonl"), "cwd": str(repo)}
            prompt = json.dumps({**payload, "hook_event_name": "UserPromptSubmit",
                                 "prompt": "how do I run the integration tests for the payments module?"}).encode()
            start = json.dumps({**payload, "hook_event_name": "SessionStart", "source": "startup"}).encode()
            end_env = {**env, "AGENT_MEMORY_SESSIONEND": "1"}
            end = json.dumps({**payload, "hook_event_name": "SessionEnd", "reason": "other"}).encode()
            commands = {
                "python -c pass": ([sys.executable, "-c", "pass"], b""),
                "user-prompt-submit": (["git-memory", "hook", "user-prompt-submit"], prompt),
                "session-start": (["git-memory", "hook", "session-start"], start),
                "session-end": (["git-memory", "hook", "session-end"], end),
            }
            times = interleaved(commands, args.runs, end_env, repo)
            base50, base95 = summary(times["python -c pass"])
            for name, values in times.items():
                p50, p95 = summary(values)
                rows.append((n, name, p50, p95, p50 / base50, p95 / base95))
    print(f"{'atoms':>6}  {'hook':<20} {'p50 ms':>8} {'p95 ms':>8} {'p50 ×':>7} {'p95 ×':>7}")
    for n, name, p50, p95, r50, r95 in rows:
        print(f"{n:>6}  {name:<20} {p50:8.1f} {p95:8.1f} {r50:7.2f} {r95:7.2f}")
    print("(× = ratio to `python -c pass` in the same run; the hooks run via the installed git-memory script)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
