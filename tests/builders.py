"""Builders for schema-valid atoms in tests (real atoms, validated by the real schema), and for
a transcript of typed prompts in Claude Code's record format."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from agent_memory.model.atom import atom_id, validate_atom

# A token of GitHub's shape (not a live one): what the guard must refuse in a memory file.
SECRET = "ghp_" + "Xy7" * 12
# A rendered L2 block with one line, for hand-made memory commits.
BLOCK = "<!-- agent-memory:begin L2 -->\n## Project memory (agent-memory)\n\n### Recent\n- {line}\n<!-- agent-memory:end L2 -->\n"

SLUG = "-home-dev-proj"


def l1_atom(claim: str, project: str = "proj", *, sessions: tuple[str, ...] = ("s1",), kind: str = "constraint",
            confidence: str = "stated", days: tuple[str, ...] | None = None, line: int = 3,
            redacted: bool = False, **extra: Any) -> dict[str, Any]:
    """An L1 atom observed once in each session; session i on days[i] (default 2026-11-01…)."""
    days = days or tuple(f"2026-11-{i + 1:02d}" for i in range(len(sessions)))
    evidence = [
        {"source": f"~/.claude/projects/{SLUG}/{s}.jsonl#L{line}", "at": f"{d}T10:00:00Z", "session": s,
         "quote": claim}
        for s, d in zip(sessions, days, strict=True)
    ]
    atom: dict[str, Any] = {
        "id": atom_id(claim, project), "claim": claim, "scope": "project", "project": project, "kind": kind,
        "first_seen": min(e["at"] for e in evidence), "last_seen": max(e["at"] for e in evidence),
        "observations": len(evidence), "sessions": sorted(set(sessions)),
        "source": max(evidence, key=lambda e: e["at"])["source"],
        "first_source": min(evidence, key=lambda e: e["at"])["source"],
        "confidence": confidence, "tier": "L1", "redacted": redacted, "evidence": evidence,
    }
    atom.update(extra)
    return validate_atom(atom)


def committed_atom(claim: str, tier: str = "L2", last_seen: str = "2026-03-01T10:00:00Z",
                   project: str = "demo-project", **extra: Any) -> dict[str, Any]:
    """A committed (L2 or L3) atom: stripped back-pointers, promoted_at, project or projects."""
    atom: dict[str, Any] = {
        "id": atom_id(claim, project if tier == "L2" else None),
        "claim": claim,
        "scope": "project" if tier == "L2" else "global",
        "kind": "constraint",
        "first_seen": "2026-01-01T00:00:00Z",
        "last_seen": last_seen,
        "observations": 3,
        "sessions": ["sessA", "sessB", "sessC"],
        "source": "sessC.jsonl#L12",
        "first_source": "abc.jsonl#L3",
        "confidence": "stated",
        "tier": tier,
        "promoted_at": "2026-03-02T00:00:00Z",
        "redacted": False,
        **extra,
    }
    if tier == "L2":
        atom["project"] = project
    else:
        atom["promoted_from_projects"] = ["alpha", "beta"]
    return validate_atom(atom)


def block(*lines: str) -> str:
    """A minimal L2 marker block holding `lines`."""
    return "\n".join(
        [
            "<!-- agent-memory:begin L2 -->",
            "## Project memory",
            *lines,
            "<!-- agent-memory:end L2 -->",
            "",
        ]
    )


def typed_transcript(folder: Path, *prompts: str) -> Path:
    """`projects/-w-proj/s-1.jsonl` under `folder`: one typed user record per prompt."""
    path = folder / "projects" / "-w-proj" / "s-1.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    records = [
        {"type": "user", "sessionId": "s-1", "timestamp": "2026-03-01T10:00:00Z", "cwd": "/w/proj",
         "message": {"role": "user", "content": text}}  # fmt: skip
        for text in prompts
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return path


def benchmark(name: str) -> Any:
    """The script `benchmarks/<name>.py` as a module (benchmarks are scripts, not a package),
    registered in sys.modules as `bench_<name>` so that its dataclasses can look their module up."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[f"bench_{name}"] = mod
    spec.loader.exec_module(mod)
    return mod


def dated_commit(repo: Path, day: str, files: dict[str, str], message: str) -> str:
    """Write `files` into `repo` and commit them as authored and committed on `day` (the
    benchmarks read which tree stood before a day's commit). Returns the full commit id."""
    for rel, text in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        subprocess.run(["git", "-C", str(repo), "add", rel], check=True)
    stamp = f"{day}T12:00:00+00:00"
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", message], check=True, env=env)
    out = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True,
                         capture_output=True, text=True)  # fmt: skip
    return out.stdout.strip()
