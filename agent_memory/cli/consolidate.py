"""`git memory consolidate [--auto-memory [DIR]] [--output json]`: clusters of near-duplicate
atoms (L1 and L2, each tier on its own) or auto-memory files, each with a proposed gist and
`consolidated_from` provenance.

Proposals only: nothing is written. Applying one is a person's decision made through the
usual reviewable commits, never an in-place rewrite, because the gist becomes the retrieved
truth and a wrong gist erases a detail (a cluster holding a pinned entry never
auto-applies; such proposals say so)."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agent_memory.claude.automemory import default_auto_memory_dir
from agent_memory.claude.consolidate import (
    Proposal,
    atom_items,
    auto_memory_items,
    contested_pairs,
    propose,
)
from agent_memory.cli.extract import refuse_a_linked_folder
from agent_memory.cli.output import memory_here, repo_here
from agent_memory.cli.report import Report
from agent_memory.committed import tiers
from agent_memory.model.atom import Atom
from agent_memory.model.errors import UsageError
from agent_memory.model.policy import L2_CAP

# No adopt leaves L2 far over its cap (each stage demotes the overflow), but a cloned log can
# name MAX_LOG_ATOMS atoms of one subject, and every pair of them was judged: 4,900 atoms,
# 12 million pairs, over half an hour. Such a tier is not analysed (the stages demote it first).
MAX_L2_ANALYSED = 4 * L2_CAP


def _apply_steps(tier: str, proposal: Proposal, kind: str | None) -> list[str]:
    gist, others = proposal.gist_member, proposal.consolidated_from
    if tier == "L2":
        # The gist is an adopted member already: superseding the others by it keeps each one
        # reachable with a breadcrumb, one reviewable commit per member.
        return [f"git memory supersede {member} --by {gist}" for member in others]
    if tier == "L1":
        # Single quotes: backticks inside double quotes would run as a command.
        remember = f"git memory remember --kind {shlex.quote(kind or 'fact')} {shlex.quote(proposal.gist)}"
        return [remember] + [f"git memory forget {member}" for member in others]
    listed = ", ".join(others)
    return [
        f"fold the details of {listed} into {gist} and add `consolidated_from: [{listed}]` to its frontmatter",
        f"take {listed} out of MEMORY.md: the files stay on disk, reachable through a region pointer",
    ]


def _entry(
    tier: str,
    proposal: Proposal,
    texts: Mapping[str, str],
    pinned: set[str],
    kinds: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    return {
        "tier": tier,
        **proposal.to_json(),
        "texts": {member: texts[member] for member in proposal.members},
        "pinned": [m for m in proposal.members if m in pinned],
        "apply": _apply_steps(tier, proposal, (kinds or {}).get(proposal.gist_member)),
    }


def _atom_proposals(
    tier: str, atoms: Sequence[Atom]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(near-duplicate clusters, contradictions to resolve) of one tier: two sides of a
    contradiction are never folded into one (that would forget one of them)."""
    items = atom_items(atoms)
    texts = dict(items)
    pinned = {str(a["id"]) for a in atoms if a.get("pinned")}
    kinds = {str(a["id"]): str(a["kind"]) for a in atoms}
    contested = contested_pairs(atoms)
    apart = [frozenset((c.older, c.newer)) for c in contested]
    clusters = [_entry(tier, p, texts, pinned, kinds) for p in propose(items, apart=apart)]
    resolve = [
        {"tier": tier, **c.to_json(), "texts": {c.older: texts[c.older], c.newer: texts[c.newer]}}
        for c in contested
    ]
    return clusters, resolve


def _frontmatter_pinned(path: Path) -> bool:
    try:
        # utf-8-sig: a note saved by a Windows editor opens with a byte-order mark, before its
        # `---` (automemory.frontmatter.normalise_text drops it too)
        lines = path.read_text("utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    if not lines or lines[0].strip() != "---":
        return False
    for line in lines[1:]:
        if line.strip() == "---":
            return False
        key, sep, value = line.partition(":")
        if sep and key.strip() == "pinned":
            return value.strip().strip("'\"").casefold() == "true"
    return False


def _auto_memory_dir(raw: str) -> Path:
    if raw:
        target = Path(raw).expanduser()
        refuse_a_linked_folder(target, "consolidate")
        if not target.is_dir():
            raise UsageError(
                f"no directory at {target}",
                hint="pass the auto-memory directory, or no DIR for this repository's default",
            )
        return target

    repo = repo_here()
    target = default_auto_memory_dir(repo.workdir or repo.common_dir)
    refuse_a_linked_folder(target, "consolidate")
    return target


def _text(report: Report, proposals: list[dict[str, Any]], scope: str) -> None:
    if not proposals:
        report.say(f"no near-duplicates in {scope}")
        return
    for entry in proposals:
        report.say(
            f"{entry['tier']} cluster of {len(entry['members'])} (overlap ≥ {entry['score']:.2f}):"
        )
        for member in [entry["gist_member"], *entry["consolidated_from"]]:
            role = "gist" if member == entry["gist_member"] else "also"
            report.say(f"  {role}  {member}  {entry['texts'][member]}")
        report.say(f"  consolidated_from: {', '.join(entry['consolidated_from'])}")
        if entry["pinned"]:
            report.say(
                f"  holds pinned {', '.join(entry['pinned'])}: check the gist keeps every load-bearing detail"
            )
        report.say("  to apply (each step a reviewable change):")
        for step in entry["apply"]:
            report.say(f"    {step}")
    report.say("proposals only: nothing was written")


def run(args: argparse.Namespace) -> Report:
    if args.auto_memory is not None:
        directory = _auto_memory_dir(args.auto_memory)
        items = auto_memory_items(directory) if directory.is_dir() else []
        texts = dict(items)
        pinned = {rel for rel, _ in items if _frontmatter_pinned(directory / rel)}
        proposals = [_entry("auto-memory", p, texts, pinned) for p in propose(items)]
        report = Report({"directory": str(directory), "proposals": proposals})
        if not directory.is_dir():
            return report.say(f"no auto-memory folder at {directory} yet (Claude Code has written no "
                              "memory for this project): nothing to fold")
        _text(report, proposals, str(directory))
        return report
    repo, store = memory_here()  # a clone's committed L2 without memory/atoms, not neither
    l1 = store.atoms() if store.exists() else []
    l2 = sorted(tiers.l2_atoms(repo.workdir).values(), key=lambda a: a["id"])
    l1_clusters, l1_resolve = _atom_proposals("L1", l1)
    unanalysed = len(l2) > MAX_L2_ANALYSED
    l2_clusters, l2_resolve = ([], []) if unanalysed else _atom_proposals("L2", l2)
    proposals, contradictions = l1_clusters + l2_clusters, l1_resolve + l2_resolve
    report = Report({"proposals": proposals, "contradictions": contradictions})
    if unanalysed:
        report.data["l2_not_analysed"] = len(l2)
        report.say(f"L2 holds {len(l2)} atoms, more than {MAX_L2_ANALYSED} (its cap is {L2_CAP}): not analysed; "
                   "`git memory stage` demotes the oldest over the cap")
    _text(report, proposals, "L1" if unanalysed else "L1 or L2")
    _contradictions_text(report, contradictions)
    return report


def _contradictions_text(report: Report, contradictions: list[dict[str, Any]]) -> None:
    for entry in contradictions:
        report.say(f"{entry['tier']} contradiction ({entry['rule']}): not folded, settle it instead:")
        for role in ("older", "newer"):
            report.say(f"  {role}  {entry[role]}  {entry['texts'][entry[role]]}")
        for step in entry["apply"]:
            report.say(f"    {step}")
