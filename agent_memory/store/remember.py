"""Hand-authored atoms (`git memory remember "CLAIM"`): for what a person wants remembered
without waiting for it to recur, and for single-project users' L3 (spec §9 (4)). They are
redacted like any claim, carry `hand_authored: true` and a back-pointer that names no
transcript (`remembered-<id>.jsonl#L1`), and reach a committed file only through review."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent_memory.gitio import repo as git
from agent_memory.gitio.state import atomic_write
from agent_memory.model.atom import Atom, atom_id, validate_atom
from agent_memory.model.clock import stamp
from agent_memory.model.errors import UsageError
from agent_memory.model.paths import slug_for
from agent_memory.redact.redactor import redact

REMEMBERED = "remembered.jsonl"


def _clean(claim: str) -> tuple[str, bool]:
    flat = " ".join(claim.split())
    if not flat:
        raise UsageError("the claim is empty", hint='git memory remember "Never push to main"')
    if len(flat) > 500:
        raise UsageError(
            "the claim is longer than 500 characters", hint="state one short, self-contained fact"
        )
    text, findings = redact(flat)
    return text, bool(findings)


def project_atom(repo: git.Repo, project: str, claim: str, kind: str) -> Atom:
    text, redacted = _clean(claim)
    ident = atom_id(text, project)
    now = stamp()
    session = f"remembered-{now[:10].replace('-', '')}"
    slug = slug_for(repo.workdir or repo.common_dir)
    pointer = f"~/.claude/projects/{slug}/remembered-{ident[4:]}.jsonl#L1"
    atom: dict[str, Any] = {
        "id": ident,
        "claim": text,
        "scope": "project",
        "project": project,
        "kind": kind,
        "first_seen": now,
        "last_seen": now,
        "observations": 1,
        "sessions": [session],
        "source": pointer,
        "first_source": pointer,
        "confidence": "stated",
        "tier": "L1",
        "redacted": redacted,
        "hand_authored": True,
        "evidence": [
            {
                "source": pointer,
                "at": now,
                "session": session,
                "quote": f"(written with git memory remember) {text}",
            }
        ],
    }
    return validate_atom(atom)


def global_atom(project: str, claim: str, kind: str) -> Atom:
    text, redacted = _clean(claim)
    ident = atom_id(text, None)
    now = stamp()
    pointer = f"remembered-{ident[4:]}.jsonl#L1"
    atom: dict[str, Any] = {
        "id": ident,
        "claim": text,
        "scope": "global",
        "kind": kind,
        "first_seen": now,
        "last_seen": now,
        "observations": 1,
        "sessions": [f"remembered-{now[:10].replace('-', '')}"],
        "source": pointer,
        "first_source": pointer,
        "confidence": "stated",
        "tier": "L3",
        "redacted": redacted,
        "promoted_from_projects": [project],
        "promoted_at": now,
        "hand_authored": True,
    }
    return validate_atom(atom)


def remembered_path(home_repo: git.Repo) -> Path:
    return home_repo.state / REMEMBERED


def add_global_candidate(home_repo: git.Repo, atom: Atom) -> None:
    path = remembered_path(home_repo)
    existing = read_global_candidates(home_repo)
    if any(a["id"] == atom["id"] for a in existing):
        return
    lines = [json.dumps(a, sort_keys=True) for a in [*existing, atom]]
    atomic_write(path, "\n".join(lines) + "\n")


def prune_global_candidates(home_repo: git.Repo, adopted: set[str]) -> None:
    """Drop the candidates that were adopted at L3: the log holds them now, and one removed
    later stays removed until a person remembers it again."""
    existing = read_global_candidates(home_repo)
    keep = [a for a in existing if a["id"] not in adopted]
    if len(keep) != len(existing):
        atomic_write(
            remembered_path(home_repo), "".join(json.dumps(a, sort_keys=True) + "\n" for a in keep)
        )


def read_global_candidates(home_repo: git.Repo) -> list[Atom]:
    path = remembered_path(home_repo)
    if not path.exists():
        return []
    out = []
    for line in path.read_text("utf-8").splitlines():
        try:
            out.append(validate_atom(json.loads(line)))
        except Exception:  # noqa: BLE001 - a bad line is skipped, never fatal
            continue
    return out
