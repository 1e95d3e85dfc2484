"""`git memory inspect [--tier L1|L2|L3 | --contested | --why ID-OR-TEXT]` (alias `show`).

With no flag: every tier at a glance — L3, L2 (adopted, pinned), staged for review, the L1
candidates with their sessions and days, the contested pairs."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from agent_memory.adoption.adopt import pending, work_files
from agent_memory.cli import colour
from agent_memory.cli.ids import find_atom
from agent_memory.cli.output import project_of, store_here
from agent_memory.cli.report import Report, problem_of
from agent_memory.committed import tiers
from agent_memory.committed.install import target_file
from agent_memory.gitio import repo as git
from agent_memory.model.atom import Atom, is_pending
from agent_memory.model.clock import now_utc, utc_day
from agent_memory.model.controls import show_controls
from agent_memory.model.tags import CLAUDE_MEMORY, model_written, origin_label
from agent_memory.model.trailers import one_line, plural
from agent_memory.promote import gates
from agent_memory.promote.review import foreign_review, foreign_review_error
from agent_memory.promote.withdrawn import WITHDRAWN, hold_withdrawn, withdrawn, withdrawn_note
from agent_memory.store import contradictions
from agent_memory.store.l1 import L1Store
from agent_memory.transcripts.evidence import evidence_for


def run(args: argparse.Namespace) -> Report:
    repo, store = store_here()
    if args.tier:
        atoms = _tier_atoms(args.tier, repo.workdir, store)
        return Report({"atoms": atoms}, _atom_lines(args.tier, atoms))
    if args.contested:
        pairs, by_id = _contested(repo, store)
        report = Report({"pairs": pairs}, [] if pairs else ["no open contradictions"])
        for pair in pairs:
            older, newer = by_id.get(pair["older"]), by_id.get(pair["newer"])
            report.say(f"{pair['older']} (older) {older['claim'] if older else '?'!r}",
                       f"  vs {pair['newer']} (newer) {newer['claim'] if newer else '?'!r}  [{pair['rule']}]",
                       "  settle it, keeping the newer or the older:",
                       f"    git memory resolve {pair['older']} --keep {pair['newer']}",
                       f"    git memory resolve {pair['older']} --keep {pair['older']}")
        return report
    if args.why:
        return _why(args, repo, store)
    return _overview(repo, store)


# --- --why ------------------------------------------------------------------------------------


def where_is(repo: git.Repo, store: L1Store, ident: str) -> tuple[str, str]:
    """(tier, state) of an atom now: L3/L2 when held (adopted or pinned, decayed, superseded),
    L1 `staged` while a review commit waits, `rejected` after a rejection with no new
    sessions, `pending` for a claim said once that waits to be said again, `candidate` otherwise;
    `forgotten` when only its tombstone is left."""
    l3 = tiers.l3_atoms()
    if ident in l3:
        return "L3", _held_state(l3[ident])
    l2 = tiers.l2_atoms(repo.workdir)
    if ident in l2:
        return "L2", _held_state(l2[ident])
    snap = store.snapshot()
    atom = snap.atoms.get(ident)
    if atom is None:
        return ("L1", "forgotten") if ident in snap.tombstones else ("", "unknown")
    if ident in {i["atom"] for i in _staged(repo, store)}:
        return "L1", "staged"
    review = atom.get("review") or {}
    if review.get("state") == "rejected" and int(review.get("sessions", 0)) >= len(atom["sessions"]):
        return "L1", "rejected"
    if review.get("state") == "demoted":
        return "L1", "demoted"
    return "L1", "pending" if is_pending(atom) else "candidate"


def _held_state(atom: Atom) -> str:
    if atom.get("superseded_by"):
        return f"superseded by {atom['superseded_by']}"
    if atom.get("decayed"):
        return "decayed"
    return "pinned" if atom.get("pinned") else "adopted"


STATE_TEXT = {
    "adopted": "adopted: in the block every session loads",
    "pinned": "adopted and pinned: in the block, exempt from decay",
    "decayed": "adopted, decayed: out of the working set, still reachable",
    "staged": "a candidate staged on memory/review, waiting for `git memory adopt`",
    "rejected": "a candidate you rejected: not staged again until new sessions say it",
    "demoted": "a candidate again: demoted from L2",
    "candidate": "a candidate: recalled per prompt, promoted when it recurs",
    "pending": gates.PENDING_FOR_PEOPLE,
    "forgotten": "forgotten: only its tombstone is left (`git memory forget --undo ID` restores it)",
}


def _why(args: argparse.Namespace, repo: git.Repo, store: L1Store) -> Report:
    snap = store.snapshot()
    l1 = snap.atoms
    # Committed tiers win: an adopted atom keeps its L1 record (provenance) but is L2 now.
    candidates: dict[str, Atom] = {**l1, **tiers.l2_atoms(repo.workdir), **tiers.l3_atoms()}
    atom = find_atom(candidates, args.why)
    ident = atom["id"]
    tier, state = where_is(repo, store, ident)
    evidence = evidence_for(atom, l1.get(ident) if atom["tier"] != "L1" else None)
    pairs, by_id = _contested(repo, store)
    open_pairs = [p for p in pairs if ident in (p["older"], p["newer"])]
    data: dict[str, Any] = {"atom": atom, "tier": tier, "state": state, "evidence": evidence,
                            "contested_with": open_pairs}
    gate = _gate(repo, store, ident) if state == "candidate" else None
    if gate is not None:
        data.update(eligible=gate.eligible, reasons=list(gate.reasons))
    # Claude's memory was its only source and no longer says it: a reviewer knows (a candidate's
    # gate says so too; one staged already waits for the person, who decides).
    gone = tier == "L1" and bool(withdrawn(repo, [l1.get(ident)]))
    if gone:
        data["withdrawn"] = True
    report = Report(data)
    report.say(f"{colour.paint(ident, 'id')} [{colour.tier(tier)} {atom['kind']}, {atom['confidence']}] {show_controls(atom['claim'])}")
    if open_pairs and state == "candidate":
        report.say(f"  {tier}: a candidate, {colour.paint('contested', 'contested')}: "
                   "neither side of the pair promotes until you settle it")
    elif gate is not None and gate.eligible:
        report.say(f"  {tier}: a candidate, {colour.paint('eligible', 'ok')} for {gate.to}: "
                   "`git memory stage` stages it for review")
    else:
        report.say(f"  {tier}: {STATE_TEXT.get(state, state)}")
        if gate is not None and gate.reasons and not open_pairs:
            report.say(f"    not yet: {'; '.join(gate.reasons)}")
    for pair in open_pairs:
        other = pair["newer"] if pair["older"] == ident else pair["older"]
        claim = by_id[other]["claim"] if other in by_id else "?"
        report.say(f"  {colour.paint('contested', 'contested')} with {colour.paint(other, 'id')} "
                   f"{show_controls(claim)!r}  [{pair['rule']}]",
                   f"    settle with: git memory resolve {pair['older']} --keep {pair['newer']}"
                   f"  (or --keep {pair['older']})")
    label = origin_label(atom)
    if label:
        report.say(f"  {label}: written by Claude Code's model, not typed by you; never recalled per prompt")
    if gone:
        note = withdrawn_note(atom, staged=state == "staged")
        report.say(f"  {colour.paint(WITHDRAWN, 'refused')}: {note}")
    days = sorted({utc_day(e["at"]) for e in (l1.get(ident) or atom).get("evidence", [])}
                  or {utc_day(atom["first_seen"]), utc_day(atom["last_seen"])})
    span = days[0] if len(days) == 1 else f"{days[0]} … {days[-1]}"
    report.say(f"  {plural(len(atom['sessions']), 'session')} over {plural(len(days), 'day')}, "
          f"{plural(atom['observations'], 'observation')}, seen {span}")
    for item in evidence:
        mark = {"ok": "", "missing": " (transcript gone)",
                "ambiguous": " (ambiguous: several transcripts match)"}[item["status"]]
        if item.get("remembered"):
            mark = ""  # typed with `git memory remember`: its quote says so, and there was no transcript
        report.say(f"  {item['source']}{colour.paint(mark, 'refused')}")
        shown = _shown_path(item["source"])
        if item.get("path") and shown != os.path.realpath(item["path"]):
            report.say(f"    at {item['path']}")
        if item.get("line"):
            report.say(f"    > {show_controls(item['line'])}")
    report.say(f"  history: git memory log {ident}")
    return report


def _gate(repo: git.Repo, store: L1Store, ident: str) -> gates.GateResult | None:
    """The L1 → L2 gate's verdict on one candidate, as `promote` and `show` reach it."""
    found = l1_candidates(store.atoms(), tiers.l2_atoms(repo.workdir), set(), project_of(repo), repo)
    return next((result for atom, _, result in found if atom["id"] == ident), None)


def _shown_path(pointer: str) -> str:
    """Where the canonical pointer names the file when read literally (`~/.claude/…`): when the
    transcript is elsewhere (CLAUDE_CONFIG_DIR, a copied file), --why says where."""
    return os.path.realpath(os.path.expanduser(pointer.partition("#")[0]))


# --- the overview -----------------------------------------------------------------------------


def _staged(repo: git.Repo, store: L1Store, foreign: bool | None = None) -> list[dict[str, str]]:
    """The person's items waiting on memory/review: none when the branch is not this
    repository's (`foreign`, else read: the author's, come with a clone or a fetch)."""
    if repo.workdir is None or not git.rev_parse(repo, "HEAD"):
        return []
    if foreign is None:
        foreign = bool(foreign_review(repo, store))
    if foreign:
        return []

    return [{"atom": i.atom_id, "commit": i.commit, "claim": str(i.atom.get("claim", "")),
             "op": i.entry.op, **_origin(i.atom)} for i in pending(repo, work_files(repo.workdir, "L2", target_file(repo)))]


def _contested(repo: git.Repo, store: L1Store) -> tuple[list[dict[str, str]], dict[str, Atom]]:
    by_id: dict[str, Atom] = {}
    for atom in [*store.atoms(), *tiers.l2_atoms(repo.workdir).values()]:
        by_id.setdefault(atom["id"], atom)
    pairs = [{"older": c.older, "newer": c.newer, "rule": c.rule}
             for c in contradictions.open_pairs(list(by_id.values()))]
    return pairs, by_id


def _days(atom: Atom) -> int:
    days = {utc_day(e["at"]) for e in atom.get("evidence", [])}
    return len(days or {utc_day(atom["first_seen"]), utc_day(atom["last_seen"])})


def l1_candidates(atoms: list[Atom], held: dict[str, Atom], staged: set[str], project: str,
                  repo: git.Repo | None = None) -> list[tuple[Atom, str, gates.GateResult | None]]:  # fmt: skip
    """The L1 candidates — records on memory/atoms neither adopted (held at L2) nor waiting on
    memory/review — each with its state (eligible, blocked, rejected) and gate result. One
    definition for `show` and `status`, so both count the same atoms. With `repo`, one that
    Claude's memory alone said and no longer says is blocked, as `stage` holds it back."""
    l1 = [a for a in atoms if a["id"] not in held]
    # every record, held ones too: the L1 record of an adopted atom names what contests it
    verdicts = gates.evaluate_l1(atoms, project, now_utc(), held)
    if repo is not None:
        verdicts = hold_withdrawn(repo, {a["id"]: a for a in atoms if a["id"] not in staged}, verdicts)
    results = {r.atom_id: r for r in verdicts}
    out = []
    for atom in (a for a in l1 if a["id"] not in staged):
        result = results.get(atom["id"])
        # rejected while no session said it since; said again, the gate judges it afresh (as
        # `promote` does), so it is eligible or blocked like any candidate
        state = "rejected" if gates.still_rejected(atom) else "eligible" if result and result.eligible else "blocked"
        out.append((atom, state, result))
    return out


def overview(repo: git.Repo, store: L1Store) -> dict[str, Any]:
    project = project_of(repo)
    l3 = tiers.l3_atoms()
    l2 = tiers.l2_atoms(repo.workdir)
    # The author's memory/review, come with a clone: said plainly (as status says it), none of
    # its items listed as the person's staged ones.
    foreign = foreign_review_error(repo, store, "none of them is listed as staged")
    staged = _staged(repo, store, foreign is not None)
    found = l1_candidates(store.atoms(), l2, {s["atom"] for s in staged}, project, repo)
    pairs, _ = _contested(repo, store)
    candidates: list[dict[str, Any]] = []
    waiting: list[dict[str, Any]] = []
    for atom, state, result in sorted(found, key=lambda c: (-len(c[0]["sessions"]), -_days(c[0]), c[0]["id"])):
        # a claim said once that the durability gate holds until it is said again: listed
        # apart, no candidate yet (`status` counts the same way)
        (waiting if is_pending(atom) else candidates).append({"id": atom["id"], "claim": atom["claim"], "kind": atom["kind"],
                           "confidence": atom["confidence"], "sessions": len(atom["sessions"]),
                           "days": _days(atom), "last_seen": atom["last_seen"], "state": state,
                           "reasons": list(result.reasons) if result and not result.eligible else [],
                           "contested": bool(atom.get("contested")), **_origin(atom)})

    def held(atoms: dict[str, Atom]) -> list[dict[str, Any]]:
        return [{"id": i, "claim": a["claim"], "kind": a["kind"], "state": _held_state(a), **_origin(a)}
                for i, a in sorted(atoms.items(), key=lambda kv: (not kv[1].get("pinned"), kv[0]))]

    return {"project": project, "L3": held(l3), "L2": held(l2), "staged": staged, "L1": candidates,
            "pending": waiting, "contested": pairs,
            "foreign_review": problem_of(foreign)}


def _origin(atom: Atom) -> dict[str, str]:
    """`{"origin": "auto-memory", "memory_file": …}` for Claude's own memory, else nothing."""
    return {k: str(atom[k]) for k in ("origin", "memory_file") if model_written(atom) and atom.get(k)}


def _claude(item: dict[str, Any]) -> str:
    return "  " + colour.paint(CLAUDE_MEMORY, "staged") if item.get("origin") else ""


def _overview(repo: git.Repo, store: L1Store) -> Report:
    data = overview(repo, store)
    report = Report(data)
    width = 72

    def line(ident: str, text: str, note: str = "") -> None:
        report.say(f"  {colour.paint(ident, 'id')}  {one_line(text, width)}{note}")

    report.say(f"{colour.tier('L3')} global memory: {plural(len(data['L3']), 'atom')}")
    for item in data["L3"]:
        line(item["id"], item["claim"], "" if item["state"] == "adopted" else f"  ({item['state']})")
    report.say(f"{colour.tier('L2')} {data['project']}: {plural(len(data['L2']), 'adopted atom')}"
          f" ({sum(1 for i in data['L2'] if i['state'] == 'pinned')} pinned)")
    for item in data["L2"]:
        line(item["id"], item["claim"], ("" if item["state"] == "adopted" else f"  ({item['state']})") + _claude(item))
    report.say(f"{colour.paint('staged', 'staged')} for review on memory/review: {len(data['staged'])}"
          + ("  (git memory adopt)" if data["staged"] else ""))
    if data["foreign_review"]:
        report.say_problem(data["foreign_review"])
    for item in data["staged"]:
        line(item["atom"], item["claim"], ("" if item["op"] == "adopt" else f"  ({item['op']})") + _claude(item))
    report.say(f"{colour.tier('L1')} candidates: {len(data['L1'])}"
          + (f", {sum(1 for c in data['L1'] if c['state'] == 'eligible')} eligible" if data["L1"] else ""))
    for item in data["L1"]:
        note = f"  {item['sessions']}s/{item['days']}d {item['confidence']}"
        if item["state"] in ("eligible", "rejected"):
            note += f", {colour.paint(item['state'], 'ok' if item['state'] == 'eligible' else 'staged')}"
        if item["contested"]:
            note += f", {colour.paint('contested', 'contested')}"
        line(item["id"], item["claim"], note + _claude(item))
    if data["pending"]:
        report.say(f"pending until said again in another session: {len(data['pending'])}")
        for item in data["pending"]:
            line(item["id"], item["claim"], f"  {item['days']}d {item['confidence']}")
    report.say(f"{colour.paint('contested', 'contested')} pairs: {len(data['contested'])}"
          + ("  (git memory inspect --contested)" if data["contested"] else ""))
    for pair in data["contested"]:
        report.say(f"  {pair['older']} (older) vs {pair['newer']} (newer)  [{pair['rule']}]")
    report.say(colour.paint("Ns/Md: seen in N sessions over M days. One atom: git memory inspect --why ID", "dim"))
    return report


# --- --tier -----------------------------------------------------------------------------------


def _tier_atoms(tier: str, workdir: Path | None, store: L1Store) -> list[Atom]:
    if tier == "L1":
        atoms: list[Atom] = store.atoms()
        return atoms
    held = tiers.l2_atoms(workdir) if tier == "L2" else tiers.l3_atoms()
    return [held[k] for k in sorted(held)]


def _atom_lines(tier: str, atoms: list[Atom]) -> list[str]:
    if not atoms:
        return [f"no {tier} atoms"]
    lines = []
    for atom in sorted(atoms, key=lambda a: (a["last_seen"], a["id"]), reverse=True):
        flags = ["pending"] if is_pending(atom) else []
        flags += [f for f in ("pinned", "decayed", "contested") if atom.get(f)]
        label = origin_label(atom)
        if label:
            flags.append(label)
        if atom.get("superseded_by"):
            flags.append(f"superseded by {atom['superseded_by']}")
        if (atom.get("review") or {}).get("state"):
            flags.append(atom["review"]["state"])
        extra = f" ({', '.join(flags)})" if flags else ""
        lines.append(f"{colour.paint(atom['id'], 'id')}  {atom['kind']:<10} {atom['confidence']:<8} {len(atom['sessions'])}s "
              f"{atom['last_seen'][:10]}  {show_controls(atom['claim'])}{extra}")
    waiting = sum(1 for atom in atoms if is_pending(atom))  # no atom yet (status counts them apart)
    total = f"{len(atoms) - waiting} {colour.tier(tier)} atom" + ("" if len(atoms) - waiting == 1 else "s")
    if waiting:
        total += f", {waiting} pending (said once; an atom when said again in another session)"
    return [*lines, total]
