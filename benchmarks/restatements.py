"""Restatements converge, alternatives conflict (issue 28 item 4), measured on pairs of prompts
through the installed CLI, as a person meets it: per pair a real repository, `git memory init`,
prompt A in one session, prompt B in a session the next day, `capture --all`, then `inspect`
and `inspect --contested`.

The pairs (`restatement_pairs/pairs.jsonl`) were written for this project by someone who had not
read the extractor: 70 rules said twice in other words ("same"), 35 contradictions ("conflict":
one job, another choice; a fact of the user's changed), 35 similar-looking different rules
("distinct": must stay apart); 15 of them non-English. `split.json` fixed, before anything was
measured, which pairs may be read and tuned on (`tune`, by sha256(id) parity) and which are
only counted (`score`): print only the score side's counts, never its pairs. Invented text, so
a development figure, not a measurement of people.

Outcomes: same → ok (one atom, seen in both sessions) | two | missing; conflict → ok (a
contested pair) | no-conflict | merged | missing; distinct → ok | merged | false-conflict |
missing. "missing": the extractor made nothing of a side (its recall, not convergence).

    python benchmarks/restatements.py [--side tune|score] [--jobs 2] [--show]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from agent_memory.cli.demo_run import transcript_records  # noqa: E402
from agent_memory.model.paths import slug_for  # noqa: E402

PAIRS = HERE / "restatement_pairs"
KINDS = ("same", "conflict", "distinct")


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "AGENT_MEMORY", "CLAUDE"))}
    env.update(
        HOME=str(home), CLAUDE_CONFIG_DIR=str(home / ".claude"), AGENT_MEMORY_HOME=str(home / ".claude/agent-memory"),
        GIT_CONFIG_GLOBAL=str(home / ".gitconfig"), GIT_CONFIG_NOSYSTEM="1", AGENT_MEMORY_NOW="2026-11-05T12:00:00Z",
        GIT_AUTHOR_DATE="2026-11-01T12:00:00Z", GIT_COMMITTER_DATE="2026-11-01T12:00:00Z", GIT_TERMINAL_PROMPT="0",
        PYTHONPATH=str(ROOT), PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
    )  # fmt: skip
    return env


def _memory(repo: Path, env: dict[str, str], *args: str) -> Any:
    proc = subprocess.run(["git", "memory", *args, "--output", "json"], cwd=repo, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(f"git memory {' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout) if proc.stdout.strip() else None


def _session(repo: Path, env: dict[str, str], n: int, day: str, text: str) -> None:
    folder = Path(env["CLAUDE_CONFIG_DIR"]) / "projects" / slug_for(repo.resolve())
    folder.mkdir(parents=True, exist_ok=True)
    sid = f"eeeeeeee-0000-4000-8000-{n:012d}"
    records = transcript_records({"id": sid, "turns": [{"user": text}]}, repo.resolve(), dt.date.fromisoformat(day))
    (folder / f"{sid}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")


def outcome(kind: str, first: list[str], claims: list[tuple[str, int]], contested: int) -> str:
    """The judgement of one pair from what A made (`first`), what both made (claim, sessions)
    and the contested pairs."""
    recurred = [c for c, sessions in claims if sessions >= 2]
    new = [c for c, _ in claims if c not in first]
    if not first or (not new and not recurred):
        return "missing"
    if kind == "same":
        return "ok" if recurred else "two"
    if kind == "conflict":
        return "ok" if contested else ("merged" if recurred else "no-conflict")
    return "merged" if recurred else ("false-conflict" if contested else "ok")


def run_pair(pair: dict[str, str], base: Path) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(dir=base))
    repo = home / "project"
    repo.mkdir()
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[user]\n\tname = T\n\temail = t@example.invalid\n")
    env = _env(home)
    for cmd in (["git", "init", "-q"], ["git", "commit", "-q", "--allow-empty", "-m", "start"]):
        subprocess.run(cmd, cwd=repo, env=env, check=True)
    _memory(repo, env, "init", "--yes", "--no-claude-hooks")
    _session(repo, env, 1, "2026-10-01", pair["a"])
    _memory(repo, env, "capture", "--all", "--no-stage")
    first = [str(a["claim"]) for a in _memory(repo, env, "inspect")["L1"]]
    _session(repo, env, 2, "2026-10-02", pair["b"])
    _memory(repo, env, "capture", "--all", "--no-stage")
    claims = [(str(a["claim"]), int(a["sessions"])) for a in _memory(repo, env, "inspect")["L1"]]
    contested = len(_memory(repo, env, "inspect", "--contested")["pairs"])
    shutil.rmtree(home, ignore_errors=True)
    return {"id": pair["id"], "kind": pair["kind"], "outcome": outcome(pair["kind"], first, claims, contested),
            "first": first, "claims": claims}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--side", choices=("tune", "score"), default="tune")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--show", action="store_true", help="print each pair not judged ok (tune side only)")
    args = ap.parse_args(argv)
    split = json.loads((PAIRS / "split.json").read_text("utf-8"))
    wanted = set(split[args.side])
    pairs = [p for p in map(json.loads, (PAIRS / "pairs.jsonl").read_text("utf-8").splitlines()) if p["id"] in wanted]
    with tempfile.TemporaryDirectory(prefix="restatements-") as tmp, ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: run_pair(p, Path(tmp)), pairs))
    print(f"{args.side} side, {len(results)} pairs (invented text: a development figure)")
    for kind in KINDS:
        counts = Counter(r["outcome"] for r in results if r["kind"] == kind)
        print(f"  {kind:9} {sum(counts.values()):3}  " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if args.show and args.side == "tune":
        for r in results:
            if r["outcome"] != "ok":
                print(json.dumps(r, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
