"""How much does per-prompt recall inject on real people's prompts? (the measure
benchmarks/relevance.py cannot give: its atoms and prompts are our own, in English)

For each project given (its Claude Code transcripts, one file a session), the sessions are
sorted by their first timestamp; the first `--split` of them are captured into a fresh store
(a real repository in a scratch directory, `git memory init` + `capture --all --no-stage`
with the clock pinned at the split), and every prompt the person typed in the later sessions
is put to `score.recall` (the hook's code) against an index built in this process, at the
prompt's own time. Nothing is written into this repository; the scratch directory is kept
only with `--work`.

Prints, per project and overall: the recallable atoms, the held-out prompts, the share of
prompts that got nothing injected (silence) and the atoms injected per prompt. Whether an
injected atom is relevant needs a person's judgment: `--dump FILE` writes every (prompt,
injected claims) to a JSON-lines file outside the repository for that.

    python benchmarks/recall_real.py PROJECTS.json [--min-sessions 30] [--only SUBSTR ...]
        [--work DIR] [--dump FILE] [-v]

PROJECTS.json maps a project name to the list of its transcript files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agent_memory.gitio.repo import find_repo
from agent_memory.model.clock import parse_time
from agent_memory.store.l1 import L1Store
from agent_memory.store.recall import build as recall_build
from agent_memory.store.recall.score import recall
from agent_memory.transcripts.reader import iter_statements

_STAMP = re.compile(rb'"timestamp"\s*:\s*"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)')


def first_stamp(path: str) -> str | None:
    """The first record timestamp of a transcript (`YYYY-MM-DDTHH:MM:SS`), or None."""
    try:
        with open(path, "rb") as fh:
            for line in fh:
                found = _STAMP.search(line)
                if found:
                    return found.group(1).decode()
    except OSError:
        return None
    return None


def split_sessions(files: Sequence[str], share: float) -> tuple[list[str], list[str], str] | None:
    """(captured sessions, held-out sessions, split time) by first timestamp."""
    dated = sorted((stamp, f) for f in files if (stamp := first_stamp(f)) is not None)
    if len(dated) < 4:
        return None
    cut = max(1, min(len(dated) - 1, round(len(dated) * share)))
    return [f for _, f in dated[:cut]], [f for _, f in dated[cut:]], dated[cut][0] + "Z"


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=3600, check=False)


def make_store(root: Path, files: Sequence[str], now: str) -> Path:
    """A repository under `root` whose store holds what `files` teach, captured at `now`;
    reused when `root` already holds a finished one."""
    proj = root / "project"
    if (root / "done").exists():
        return proj
    shutil.rmtree(root, ignore_errors=True)
    home = root / "home"
    proj.mkdir(parents=True)
    home.mkdir()
    (home / "gitconfig").write_text("[user]\n name = T\n email = t@example.com\n[init]\n defaultBranch = main\n")
    env = {**os.environ, "HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"),
           "AGENT_MEMORY_HOME": str(home / "am"), "GIT_CONFIG_GLOBAL": str(home / "gitconfig"),
           "AGENT_MEMORY_NOW": now}  # fmt: skip
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    _run(["git", "init", "-q"], proj, env)
    (proj / "README.md").write_text("x\n")
    _run(["git", "add", "."], proj, env)
    _run(["git", "commit", "-qm", "init"], proj, env)
    cli = [sys.executable, "-m", "agent_memory"]
    done = _run([*cli, "init", "--yes"], proj, env)
    if done.returncode != 0:
        raise RuntimeError(f"init failed: {done.stderr.strip()[-300:]}")
    slug = str(proj).replace("/", "-").replace(".", "-")
    target = home / ".claude" / "projects" / slug
    target.mkdir(parents=True)
    for f in files:
        if not (target / Path(f).name).exists():
            shutil.copy(f, target)
    done = _run([*cli, "capture", "--all", "--no-stage"], proj, env)
    if done.returncode != 0:
        raise RuntimeError(f"capture failed: {done.stderr.strip()[-300:]}")
    (root / "done").write_text(now + "\n")
    return proj


def held_out_prompts(files: Sequence[str], limit: int) -> list[tuple[str, float]]:
    """The typed prompts of the held-out sessions, (text, epoch), at most `limit` evenly
    spread over them."""
    prompts: list[tuple[str, float]] = []
    seen: set[str] = set()
    for f in files:
        for statement in iter_statements(f):
            if statement.origin != "prompt" or not statement.text.strip() or statement.text in seen:
                continue
            seen.add(statement.text)
            epoch = parse_time(statement.timestamp).timestamp() if statement.timestamp else time.time()
            prompts.append((statement.text, epoch))
    if len(prompts) > limit:
        step = len(prompts) / limit
        prompts = [prompts[int(i * step)] for i in range(limit)]
    return prompts


def store_dirname(name: str) -> str:
    readable = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")[:60]
    return f"{readable}-{hashlib.sha1(name.encode()).hexdigest()[:8]}"


def measure(name: str, files: Sequence[str], args: argparse.Namespace, work: Path, dump: Any) -> dict[str, float] | None:
    split = split_sessions(files, args.split)
    if split is None:
        return None
    captured, held, now = split
    root = work / store_dirname(name)
    proj = make_store(root, captured, now)
    atoms = L1Store(find_repo(proj)).atoms()
    index = recall_build.build_index(atoms, "")
    prompts = held_out_prompts(held, args.max_prompts)
    silent = injected = 0
    for text, epoch in prompts:
        hits = recall(index, text, epoch)
        silent += not hits
        injected += len(hits)
        if dump is not None:
            dump.write(json.dumps({"project": name, "prompt": text[:2000],
                                   "hits": [{"id": h.id, "kind": h.kind, "claim": h.claim} for h in hits]},
                                  ensure_ascii=False) + "\n")  # fmt: skip
        if args.verbose and hits:
            print(f"  > {' '.join(text.split())[:160]}")
            for h in hits:
                print(f"      [{h.kind}] {h.claim[:160]}")
    return {"atoms": index.n, "prompts": len(prompts), "silent": silent, "injected": injected}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", help="JSON file: project name → list of transcript files")
    parser.add_argument("--min-sessions", type=int, default=30)
    parser.add_argument("--only", nargs="*", default=[], help="keep projects whose name contains one of these")
    parser.add_argument("--split", type=float, default=0.7, help="share of sessions captured (the rest are asked)")
    parser.add_argument("--max-prompts", type=int, default=200, help="held-out prompts per project, at most")
    parser.add_argument("--work", help="scratch directory for the stores (kept, and reused on the next run)")
    parser.add_argument("--dump", help="JSON-lines file for every prompt and what it got (outside the repo)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    projects: dict[str, list[str]] = json.loads(Path(args.projects).read_text())
    chosen = {name: files for name, files in sorted(projects.items())
              if len(files) >= args.min_sessions and (not args.only or any(s in name for s in args.only))}  # fmt: skip
    scratch = None if args.work else tempfile.mkdtemp(prefix="recall-real-")
    work = Path(args.work or scratch or ".")
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None  # noqa: SIM115 - closed below
    totals = {"atoms": 0, "prompts": 0, "silent": 0, "injected": 0}
    try:
        for name, files in chosen.items():
            if args.verbose:
                print(name)
            try:
                got = measure(name, files, args, work, dump)
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                print(f"{name}: skipped ({exc})")
                continue
            if got is None or not got["prompts"]:
                continue
            for key in totals:
                totals[key] += got[key]
            print(f"{name}: {int(got['atoms'])} atoms, {int(got['prompts'])} prompts, "
                  f"silence {got['silent'] / got['prompts']:.2f}, injected/prompt {got['injected'] / got['prompts']:.2f}")  # fmt: skip
    finally:
        if dump is not None:
            dump.close()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    if totals["prompts"]:
        print(f"all: {totals['atoms']} atoms, {totals['prompts']} prompts, "
              f"silence {totals['silent'] / totals['prompts']:.2f}, "
              f"injected/prompt {totals['injected'] / totals['prompts']:.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
