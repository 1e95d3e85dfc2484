"""The in-process half of `benchmarks/scale.py`: run by the interpreter of the install under
test (so the same script measures this checkout or an older one), one command per call, one
JSON object on stdout. Uses only APIs every version has: `L1Store`, `capture_atoms`,
`capture_transcript`.

    python scale_worker.py populate REPO TARGET
    python scale_worker.py capture REPO RUNS [BATCH]
    python scale_worker.py backfill REPO FOLDER
    python scale_worker.py evidence REPO SESSIONS
    python scale_worker.py eligible REPO COUNT
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale_fixture import make_atom, scale_atoms, stamp  # noqa: E402

BATCH = 25000
NOW = time.time()


def _store(repo: str) -> Any:
    from agent_memory.gitio import repo as git
    from agent_memory.store.l1 import L1Store

    return L1Store(git.find_repo(repo))


def _slug(repo: str) -> str:
    from agent_memory.model.paths import slug_for

    return str(slug_for(Path(repo).resolve()))


def _with_slug(atoms: list[dict[str, Any]], slug: str) -> list[dict[str, Any]]:
    text = json.dumps(atoms).replace("-home-dev-bench", slug)
    out: list[dict[str, Any]] = json.loads(text)
    return out


def _one_sighting(atom: dict[str, Any]) -> dict[str, Any]:
    """Seen once, observed: never eligible for promotion (the store behind a review batch)."""
    first = min(atom["evidence"], key=lambda e: (e["at"], e["source"]))
    atom.update(sessions=[first["session"]], evidence=[first], observations=1, confidence="observed",
                first_seen=first["at"], last_seen=first["at"], source=first["source"],
                first_source=first["source"])  # fmt: skip
    return atom


def populate(repo: str, target: int, quiet: bool = False) -> dict[str, Any]:
    from agent_memory.store.capture import capture_atoms

    store = _store(repo)
    marker = Path(repo) / ".git" / "bench-count"
    have = int(marker.read_text()) if marker.exists() else 0
    begun = time.perf_counter()
    todo = scale_atoms(max(0, target - have), start=have, now=NOW)
    if quiet:
        todo = [_one_sighting(a) for a in todo]
    for first in range(0, len(todo), BATCH):
        batch = todo[first : first + BATCH]
        result = capture_atoms(store, batch, "bench", None)
        if not result.commit:
            raise SystemExit(f"populate: nothing written at {have}")
        have += len(batch)
        marker.write_text(str(have))
    return {"atoms": have, "seconds": time.perf_counter() - begun}


def capture(repo: str, runs: int, size: int) -> dict[str, Any]:
    """`runs` capture commits of `size` new atoms each (fresh claims of another seed), after
    one untimed capture (the worker's own imports would otherwise be the first run)."""
    from agent_memory.store.capture import capture_atoms

    store = _store(repo)
    marker = Path(repo) / ".git" / "bench-capture-count"
    done = int(marker.read_text()) if marker.exists() else 0
    times = []
    for run in range(runs + 1):  # the first, untimed, pays this process's imports
        batch = scale_atoms(size, seed=99, start=done, now=NOW)
        begun = time.perf_counter()
        result = capture_atoms(store, batch, "bench-capture", None)
        if run:
            times.append((time.perf_counter() - begun) * 1000)
        assert result.commit and len(result.new) + len(result.merged) == size, result.to_json()
        done += size
    marker.write_text(str(done))
    return {"ms": times}


def backfill(repo: str, folder: str) -> dict[str, Any]:
    """What `capture --all` does per transcript, timed per file (one commit per transcript)."""
    from agent_memory.gitio import repo as git
    from agent_memory.store.capture import capture_transcript

    store = _store(repo)
    project = git.project_of(store.repo)
    paths = sorted(Path(folder).glob("*.jsonl"))
    times, new = [], 0
    begun = time.perf_counter()
    for path in paths:
        start = time.perf_counter()
        result, _ = capture_transcript(store, project, path)
        times.append((time.perf_counter() - start) * 1000)
        new += len(result.new)
    return {"ms": times, "new": new, "seconds": time.perf_counter() - begun}


def _git_bytes(repo: str) -> int:
    objects = Path(repo) / ".git" / "objects"
    return sum(p.stat().st_size for p in objects.rglob("*") if p.is_file())


def evidence(repo: str, sessions: int) -> dict[str, Any]:
    """One claim observed once in each of `sessions` sessions, a day apart in groups: the size
    of its blob afterwards and how much `.git/objects` grew."""
    from agent_memory.store.capture import capture_atoms

    store = _store(repo)
    slug = _slug(repo)
    rng = random.Random(5)
    claim = "Always run the formatter before committing changes to the billing api"
    before = _git_bytes(repo)
    ident = None
    begun = time.perf_counter()
    for number in range(sessions):
        atom = make_atom("constraint", claim, rng, NOW, slug=slug)
        session = f"{number:08x}-0000-4000-8000-{rng.getrandbits(48):012x}"
        at = stamp(NOW - (sessions - number) * 3600)  # one an hour: all within the 90 days
        source = f"~/.claude/projects/{slug}/{session}.jsonl#L{rng.randint(1, 900)}"
        atom.update(first_seen=at, last_seen=at, sessions=[session], source=source,
                    first_source=source, observations=1)  # fmt: skip
        atom["evidence"] = [{"source": source, "at": at, "session": session, "rule": "directive.always_never",
                             "quote": f"{claim}, as I said in session {number}: " + "x" * 160}]  # fmt: skip
        atom.pop("pinned", None)
        capture_atoms(store, [atom], session, None)
        ident = atom["id"]
    took = time.perf_counter() - begun
    tip = store.tip()
    from agent_memory.gitio import repo as git

    blob = None
    for path in (f"atoms/{ident}.json", f"atoms/{ident[4:6]}/{ident}.json"):
        blob = git.read_blob_at(store.repo, tip, path)
        if blob is not None:
            break
    subprocess.run(["git", "gc", "-q", "--prune=now"], cwd=repo, check=False)
    stored = json.loads(blob or b"{}")
    return {"blob_bytes": len(blob or b""), "git_growth_loose": _git_bytes(repo) - before,
            "quotes_kept": len(stored.get("evidence", [])), "sessions": len(stored.get("sessions", [])),
            "seconds": took}  # fmt: skip


def eligible(repo: str, count: int) -> dict[str, Any]:
    """`count` atoms that pass the L1 → L2 gate (3 sessions over 2 days, observed)."""
    from agent_memory.gitio import repo as git
    from agent_memory.store.capture import capture_atoms

    store = _store(repo)
    project = git.project_of(store.repo)
    slug = _slug(repo)
    rng = random.Random(3)
    atoms = []
    for n, atom in enumerate(scale_atoms(count, seed=5, now=NOW, project=project)):
        sessions = [f"{n:04x}{k}-elig" for k in range(3)]
        evidence = []
        for k, session in enumerate(sessions):
            at = stamp(NOW - (10 - k * 2) * 86400 - rng.randint(0, 3600))
            src = f"~/.claude/projects/{slug}/{session}.jsonl#L{k + 1}"
            evidence.append({"source": src, "at": at, "session": session, "quote": atom["claim"],
                             "rule": "directive.always_never"})  # fmt: skip
        atom.update(sessions=sessions, evidence=evidence, observations=3, confidence="observed",
                    first_seen=evidence[0]["at"], last_seen=evidence[-1]["at"],
                    first_source=evidence[0]["source"], source=evidence[-1]["source"])  # fmt: skip
        for key in ("contested", "contested_by", "pinned"):
            atom.pop(key, None)
        atoms.append(atom)
    result = capture_atoms(store, atoms, "bench-eligible", None)
    return {"new": len(result.new)}


def main(argv: list[str]) -> int:
    command, repo, *rest = argv
    os.environ.setdefault("AGENT_MEMORY_RECALL_BUDGET_MS", "100")
    if command == "populate":
        out = populate(repo, int(rest[0]), quiet="--quiet" in rest)
    elif command == "capture":
        out = capture(repo, int(rest[0]), int(rest[1]) if len(rest) > 1 else 10)
    elif command == "backfill":
        out = backfill(repo, rest[0])
    elif command == "evidence":
        out = evidence(repo, int(rest[0]))
    elif command == "eligible":
        out = eligible(repo, int(rest[0]))
    else:
        raise SystemExit(f"unknown command {command}")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
