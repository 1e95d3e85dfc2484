"""`git memory adopt [--global] [--all | --yes ID…] [--reject ID…] [--pin ID…]`.

On a terminal with no selection flags: walk the staged items one at a time and ask
adopt / reject / skip / show more / quit. With flags: non-interactive, for scripts and CI.
Without a terminal and without flags: list what is waiting and exit 1 with a hint.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from agent_memory import git
from agent_memory.adopt import (
    Item,
    adopt_item,
    pending,
    record_decision,
    refusal,
    require_clean,
    work_files,
)
from agent_memory.atom import utc_day
from agent_memory.commands.common import emit_json, wants_json
from agent_memory.errors import EXIT_REFUSED, RepoStateError, UsageError
from agent_memory.evidence import evidence_for
from agent_memory.store import L1Store


def _context(global_: bool) -> tuple[git.Repo, str, str, L1Store | None]:
    if global_:
        from agent_memory.global_repo import GlobalRepo

        home = GlobalRepo.default()
        if not home.exists():
            raise RepoStateError("there is no global memory repo yet", hint="run `git memory init` in a project first")
        return home.repo(), "L3", "CLAUDE.memory.md", None
    from agent_memory.commands.common import store_here
    from agent_memory.install import target_file

    repo, store = store_here()
    if repo.workdir is None:
        raise RepoStateError("adopt needs a work tree", hint="run it in a clone with a work tree")
    return repo, "L2", target_file(repo), store


def _match(items: list[Item], wanted: list[str]) -> list[Item]:
    chosen = []
    for key in wanted:
        found = [i for i in items if i.atom_id == key or i.atom_id.startswith(key) or i.commit.startswith(key)]
        if not found:
            raise UsageError(f"{key} is not waiting on memory/review", hint="list waiting items with `git memory adopt` or `git memory status`")
        chosen.extend(f for f in found if f not in chosen)
    return chosen


def describe(item: Item, detail: bool = False) -> list[str]:
    atom = item.atom
    lines = [f"{item.atom_id}  [{atom['kind']}, {atom['confidence']}]  {atom['claim']}"]
    if item.entry.op != "adopt":
        lines.append(f"  {item.entry.op}: {item.promotion} (L2 holds more than its cap; the oldest goes back to L1)")
        return lines
    days = sorted({utc_day(atom["first_seen"]), utc_day(atom["last_seen"])})
    lines.append(f"  evidence: {len(atom['sessions'])} sessions, {atom['observations']} observations, {' … '.join(days)}")
    lines.append(f"  first source {atom['first_source']}, latest {atom['source']}")
    evidence = evidence_for(atom)
    shown = evidence if detail else evidence[:1]
    for ev in shown:
        note = {"ok": "", "missing": " (transcript gone)", "ambiguous": " (ambiguous)"}[ev["status"]]
        if ev["line"]:
            lines.append(f"  > {ev['line'][:300]}{note}")
    if detail:
        lines.append(f"  sessions: {', '.join(atom['sessions'])}")
        lines.append(f"  staged in {item.commit}")
    return lines


def run(args: argparse.Namespace) -> int:
    repo, tier, target, store = _context(args.global_)
    assert repo.workdir is not None
    files = work_files(repo.workdir, tier, target)
    items = pending(repo, files)
    flags = bool(args.all or args.yes or args.reject)
    if not flags:
        if not items:
            print("nothing is waiting on memory/review" + ("" if args.global_ else " (stage with `git memory stage`)"))
            return 0
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            for item in items:
                print("\n".join(describe(item)))
            print(f"{len(items)} item(s) waiting on memory/review", file=sys.stderr)
            print("hint: adopt on a terminal with `git memory adopt`, or use --all, --yes ID…, --reject ID…", file=sys.stderr)
            return EXIT_REFUSED
        require_clean(repo, target)
        return _interactive(repo, items, target, tier, store, set(args.pin))
    require_clean(repo, target)
    chosen = items if args.all else _match(items, args.yes)
    rejected = _match(items, args.reject) if args.reject else []
    chosen = [i for i in chosen if i not in rejected]
    pins = set(args.pin)
    report: dict[str, Any] = {"adopted": [], "rejected": [], "refused": {}}
    for item in chosen:
        why = refusal(item)
        if why:
            report["refused"][item.atom_id] = why
            continue
        commit = adopt_item(repo, item, target, pin=item.atom_id in pins, tier=tier)
        if store is not None and item.entry.op == "adopt":
            record_decision(store, item.atom_id, "adopted", commit)
        report["adopted"].append({"atom": item.atom_id, "commit": commit})
    for item in rejected:
        if store is not None:
            record_decision(store, item.atom_id, "rejected", None)
        report["rejected"].append(item.atom_id)
    if wants_json(args):
        emit_json(report)
    else:
        for done in report["adopted"]:
            print(f"adopted {done['atom']} in {done['commit'][:10]}")
        for ident in report["rejected"]:
            print(f"rejected {ident} (not restaged until new sessions add evidence)")
        for ident, why in report["refused"].items():
            print(f"refused {ident}: {why}")
    return EXIT_REFUSED if report["refused"] else 0


def _interactive(repo: git.Repo, items: list[Item], target: str, tier: str, store: L1Store | None, pins: set[str]) -> int:
    import questionary

    adopted = rejected = skipped = 0
    for number, item in enumerate(items, start=1):
        print(f"\n[{number}/{len(items)}]")
        print("\n".join(describe(item)))
        why = refusal(item)
        if why:
            print(f"  cannot adopt: {why}")
            choices = ["reject", "skip", "quit"]
        else:
            choices = ["adopt", "reject", "skip", "show more", "quit"]
        while True:
            answer = questionary.select("What should happen to this item?", choices=choices).ask()
            if answer == "show more":
                print("\n".join(describe(item, detail=True)))
                continue
            break
        if answer is None or answer == "quit":
            print("stopped; rerun `git memory adopt` to continue")
            break
        if answer == "adopt":
            commit = adopt_item(repo, item, target, pin=item.atom_id in pins, tier=tier)
            if store is not None and item.entry.op == "adopt":
                record_decision(store, item.atom_id, "adopted", commit)
            print(f"adopted in {commit[:10]}")
            adopted += 1
        elif answer == "reject":
            if store is not None:
                record_decision(store, item.atom_id, "rejected", None)
            print("rejected")
            rejected += 1
        else:
            skipped += 1
    print(f"\n{adopted} adopted, {rejected} rejected, {skipped} skipped")
    return 0
