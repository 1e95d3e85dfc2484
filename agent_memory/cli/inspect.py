"""`git memory inspect --tier L1|L2|L3 | --contested | --why ID-OR-TEXT`."""

from __future__ import annotations

import argparse
from typing import Any

from agent_memory.cli.output import emit_json, find_atom, store_here, wants_json
from agent_memory.committed import tiers
from agent_memory.model.atom import Atom
from agent_memory.model.clock import utc_day
from agent_memory.model.trailers import plural
from agent_memory.transcripts.evidence import evidence_for


def run(args: argparse.Namespace) -> int:
    repo, store = store_here()
    if args.tier:
        atoms = _tier_atoms(args.tier, repo.workdir, store)
        if wants_json(args):
            emit_json({"atoms": atoms})
        else:
            _print_atoms(args.tier, atoms)
        return 0
    if args.contested:
        from agent_memory.store import contradictions

        everything = [*store.atoms(), *tiers.l2_atoms(repo.workdir).values()]
        by_id: dict[str, Atom] = {}
        for atom in everything:
            by_id.setdefault(atom["id"], atom)
        pairs = [{"older": c.older, "newer": c.newer, "rule": c.rule} for c in contradictions.open_pairs(list(by_id.values()))]
        if wants_json(args):
            emit_json({"pairs": pairs})
        elif not pairs:
            print("no open contradictions")
        else:
            for pair in pairs:
                older, newer = by_id.get(pair["older"]), by_id.get(pair["newer"])
                print(f"{pair['older']} (older) {older['claim'] if older else '?'!r}")
                print(f"  vs {pair['newer']} (newer) {newer['claim'] if newer else '?'!r}  [{pair['rule']}]")
                print(f"  settle with: git memory resolve {pair['older']} --keep <id>")
        return 0
    candidates: dict[str, Atom] = {**tiers.l3_atoms(), **tiers.l2_atoms(repo.workdir),
                                   **{a["id"]: a for a in store.atoms()}}
    atom = find_atom(candidates, args.why)
    evidence = evidence_for(atom)
    if wants_json(args):
        emit_json({"atom": atom, "evidence": evidence})
        return 0
    print(f"{atom['id']} [{atom['tier']} {atom['kind']}, {atom['confidence']}] {atom['claim']}")
    days = sorted({utc_day(atom['first_seen']), utc_day(atom['last_seen'])})
    print(f"  {plural(len(atom['sessions']), 'session')}, {plural(atom['observations'], 'observation')}, seen {' … '.join(days)}")
    for item in evidence:
        mark = {"ok": "", "missing": " (transcript gone)", "ambiguous": " (ambiguous: several transcripts match)"}[item["status"]]
        print(f"  {item['source']}{mark}")
        if item.get("line"):
            print(f"    > {item['line']}")
    return 0


def _tier_atoms(tier: str, workdir: Any, store: Any) -> list[Atom]:
    if tier == "L1":
        atoms: list[Atom] = store.atoms()
        return atoms
    held = tiers.l2_atoms(workdir) if tier == "L2" else tiers.l3_atoms()
    return [held[k] for k in sorted(held)]


def _print_atoms(tier: str, atoms: list[Atom]) -> None:
    if not atoms:
        print(f"no {tier} atoms")
        return
    for atom in sorted(atoms, key=lambda a: (a["last_seen"], a["id"]), reverse=True):
        flags = [f for f in ("pinned", "decayed", "contested") if atom.get(f)]
        if atom.get("superseded_by"):
            flags.append(f"superseded by {atom['superseded_by']}")
        if (atom.get("review") or {}).get("state"):
            flags.append(atom["review"]["state"])
        extra = f" ({', '.join(flags)})" if flags else ""
        print(f"{atom['id']}  {atom['kind']:<10} {atom['confidence']:<8} {len(atom['sessions'])}s "
              f"{atom['last_seen'][:10]}  {atom['claim']}{extra}")
    print(f"{len(atoms)} {tier} atoms")
