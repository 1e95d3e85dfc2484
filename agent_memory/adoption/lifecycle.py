"""Lifecycle operations on adopted (L2) atoms, each one reviewable commit on the current branch
made with `git commit`: pin / unpin (decay-exempt), decay (out of the working set,
still reachable and still in adopted.log), supersede (stops being injected as live truth, keeps
a breadcrumb to its successor), forget (removed from the block), demote and resolve."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from agent_memory.adoption.adopt import commit_memory, refuse_converted, refuse_links, work_files
from agent_memory.committed.adopted_log import LogEntry
from agent_memory.committed.files import TierFiles
from agent_memory.committed.install import target_file
from agent_memory.gitio import repo as git
from agent_memory.model.atom import Atom
from agent_memory.model.checkout import repo_relative
from agent_memory.model.clock import now_utc
from agent_memory.model.controls import replace_controls
from agent_memory.model.errors import RefusedError, RepoStateError, UsageError
from agent_memory.model.trailers import format_message, one_line
from agent_memory.redact.fold import strip_invisible
from agent_memory.redact.redactor import redact

DESCRIPTIONS = {
    "pin": "pinned: decay-exempt, always in the working set",
    "unpin": "unpinned: back to the recency part of the working set",
    "decay": "decayed: out of the working set, still reachable with `git memory inspect --tier L2`",
    "supersede": "superseded: no longer injected as live truth",
    "forget": "forgotten: removed from the block (its history stays in git log)",
    "demote": "demoted to L1 (out of the block; can re-promote on new evidence)",
    "resolve": "resolved: the contradiction was settled by a person",
}


def apply_l2_op(
    repo: git.Repo,
    atom_id: str,
    op: str,
    fields: dict[str, Any] | None = None,
    remove_fields: tuple[str, ...] = (),
    note: str = "",
    verb: str = "",
) -> str:
    """Append an `op` line for an adopted atom, re-render the block, commit both files (under
    the memory lock, read and decided inside it: `adoption.adopt.commit_memory`)."""
    root = repo.workdir
    if root is None:
        raise RepoStateError("this needs a work tree", hint="run it in a clone with a work tree")
    target = target_file(repo)
    refuse_links(root, "L2", target, "nothing was changed")  # before the files are even read
    refuse_converted(root, "L2", "nothing was changed")
    decided: list[Atom] = []

    def change(before: TierFiles) -> TierFiles:
        held = before.held()
        if atom_id not in held:
            raise UsageError(
                f"{atom_id} is not adopted in this branch",
                hint="list adopted atoms with `git memory inspect --tier L2`",
            )
        atom = cast(Atom, {k: v for k, v in held[atom_id].items() if k not in remove_fields} | (fields or {}))
        if op in ("forget", "demote"):
            # A removing line must never re-add what it removes: if a secret slipped past the
            # guard into this claim, the line that forgets it carries the redacted text (the fold
            # only needs the id), so the guard lets the forget through.
            cleaned, findings = redact(str(atom["claim"]))
            cleaned = replace_controls(strip_invisible(cleaned))  # nor what a reviewer cannot see
            if findings or cleaned != atom["claim"]:
                atom["claim"], atom["redacted"] = cleaned, True
        if op not in ("forget", "demote") and atom == held[atom_id]:
            state = {
                "pin": "pinned",
                "unpin": "not pinned",
                "decay": "decayed",
                "resolve": "resolved",
                "supersede": f"superseded by {atom.get('superseded_by')}",
            }.get(op, op)
            raise RefusedError(f"{atom_id} is already {state}", hint="nothing to change")
        decided[:] = [atom]
        at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
        return before.append([LogEntry(op=op, atom=atom, at=at)])

    # The message names the claim as it is held now; the change re-reads it under the lock.
    current = work_files(root, "L2", target).held().get(atom_id)
    claim = str(current["claim"]) if current is not None else atom_id
    if op in ("forget", "demote"):
        claim = strip_invisible(redact(claim)[0])
    claim = repo_relative(claim)  # as the block shows it: an item adopted before 7254e98 may hold one absolute
    body = [DESCRIPTIONS.get(op, op)] + ([note] if note else [])
    trailers = [("Atom-Id", atom_id), ("Memory-Op", op)]
    successor = (fields or {}).get("superseded_by")
    if successor:
        trailers.append(("Superseded-By", str(successor)))
    message = format_message(f"memory: {op} {one_line(claim, 70)}", body, trailers)
    return commit_memory(
        repo,
        "L2",
        target,
        change,
        message,
        refused=f"the {op} commit was refused",
        hint="nothing changed; fix what the hook reported and retry",
        verb=verb or f"git memory {op}",
    )


def supersede_problem(held: Mapping[str, Atom], old: str, new: str) -> str | None:
    """A dangling target or a cycle makes a supersede invalid."""
    if new not in held:
        return f"{new} is not adopted, so it cannot supersede {old}"
    if old == new:
        return "an atom cannot supersede itself"
    seen: set[str] = {old}
    cursor: str | None = new
    while cursor:
        if cursor in seen:
            return f"superseding {old} by {new} would make a cycle"
        seen.add(cursor)
        following = held.get(cursor)
        successor = following.get("superseded_by") if following else None
        cursor = str(successor) if successor else None
    return None
