"""`git memory adopt [--global] [--all | --yes ID…] [--reject ID…] [--pin ID…]`.

On a terminal with no selection flags: walk the staged items one at a time and ask
adopt / reject / skip / show more / quit (`--pin ID` pins ID if it is adopted in the walk).
With flags: non-interactive, for scripts and CI; `--pin ID` adopts ID pinned. Without a
terminal and without flags: list what is waiting and exit 1 with a hint. IDs are atom ids,
unique `atm_` prefixes or review-commit prefixes; an ID already adopted or rejected is
reported and skipped, so rerunning an interrupted command continues with the rest; after a
kill -9 the rerun first finishes or rolls back the item that was half done and records the L1
marks the killed run owed, and says so.

Two adopts at once serialise on the memory lock: an item the other one applied
meanwhile is reported as already decided. The L1 marks of a whole run are one memory/atoms
commit, written when the run ends, and the session-start cache is warmed once.
An adoption undone with `git revert` counts as a rejection.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from agent_memory.adoption.adopt import (
    AlreadyApplied,
    Item,
    adopt_item,
    pending,
    record_decisions,
    refusal,
    require_clean,
    require_consistent,
    resume_interrupted,
    withdrawn_at_l1,
    work_files,
)
from agent_memory.adoption.intent import RunList
from agent_memory.adoption.locks import memory_lock
from agent_memory.adoption.reverts import record_reverted
from agent_memory.cli.output import emit_json, tier_context, wants_json, warm_session_start
from agent_memory.gitio import repo as git
from agent_memory.model.atom import Atom, strip_pointer
from agent_memory.model.clock import utc_day
from agent_memory.model.errors import (
    EXIT_INTERRUPTED,
    EXIT_REFUSED,
    DiskFullError,
    RefusedError,
    UsageError,
    disk_full,
)
from agent_memory.model.tags import memory_reasons, origin_label
from agent_memory.model.trailers import plural
from agent_memory.store.l1 import L1Store
from agent_memory.transcripts.evidence import evidence_for


def _match(items: list[Item], wanted: list[str], done: set[str]) -> tuple[list[Item], list[str]]:
    """The waiting items named by id, unique id prefix or review-commit prefix (≥ 7 hex), and
    the names that were already decided (held or rejected): a rerun of the same command after
    an interrupt continues with the rest instead of failing on what already happened."""
    chosen: list[Item] = []
    already: list[str] = []
    for key in wanted:
        found = [i for i in items if i.atom_id == key]
        if not found:
            found = [
                i
                for i in items
                if (key.startswith("atm_") and i.atom_id.startswith(key))
                or (len(key) >= 7 and i.commit.startswith(key))
            ]
        if len({i.atom_id for i in found}) > 1:
            names = ", ".join(sorted({i.atom_id for i in found}))
            raise UsageError(
                f"{key!r} names several waiting items: {names}", hint="pass one full atom id"
            )
        if not found:
            if key in done:
                already.append(key)
                continue
            raise UsageError(
                f"{key} is not waiting on memory/review",
                hint="list waiting items with `git memory adopt` or `git memory status`",
            )
        chosen.extend(f for f in found if f not in chosen)
    return chosen, already


def describe(item: Item, detail: bool = False, l1: Atom | None = None) -> list[str]:
    """What a person needs to decide: the claim, kind and confidence, how much evidence over
    how many days, and the user's own words at the source (redacted, re-read from the
    transcript as `inspect --why` does). `l1` is the atom's local record, whose per-session
    evidence the committed form no longer carries; without it the two back-pointers are used."""
    atom = item.atom
    lines = [f"{item.atom_id}  [{atom['kind']}, {atom['confidence']}]  {atom['claim']}"]
    label = origin_label(atom)
    if label:
        # Claude's own memory: the model wrote it itself, after reading tool output and files.
        lines.append(f"  {label}: written by Claude Code's model, not typed by you")
        lines += [f"  {line}" for line in memory_reasons(l1 if l1 is not None else atom)]
    if item.entry.op != "adopt":
        lines.append(
            f"  {item.entry.op}: {item.promotion} "
            "(L2 holds more than its cap; the oldest goes back to L1)"
        )
        return lines
    source = l1 if l1 is not None and l1.get("evidence") else atom
    days = sorted({utc_day(e["at"]) for e in source.get("evidence", [])}) or sorted(
        {utc_day(atom["first_seen"]), utc_day(atom["last_seen"])}
    )
    span = days[0] if len(days) == 1 else f"{days[0]} … {days[-1]}"
    lines.append(
        f"  evidence: {plural(len(atom['sessions']), 'session')} over {plural(len(days), 'day')} ({span}), "
        f"{plural(atom['observations'], 'observation')}"
    )
    lines.append(f"  first source {atom['first_source']}, latest {atom['source']}")
    evidence = evidence_for(source)
    notes = {"ok": "", "missing": " (transcript gone)", "ambiguous": " (ambiguous: not shown)"}
    for ev in evidence if detail else evidence[:1]:
        where = strip_pointer(ev["source"]) if detail else ""
        quote = f"> {ev['line'][:300]}" if ev["line"] else ""
        if detail or quote:
            lines.append("  " + "  ".join(x for x in (where, quote) if x) + notes[ev["status"]])
    if detail:
        lines.append(f"  sessions: {', '.join(atom['sessions'])}")
        lines.append(f"  staged in {item.commit}")
    return lines


class Decisions:
    """The review decisions of one run, written to memory/atoms as one commit at the end."""

    def __init__(self, repo: git.Repo, tier: str, store: L1Store | None) -> None:
        self.repo, self.tier, self.store = repo, tier, store
        self.marks: dict[str, tuple[str, str | None]] = {}
        self.owed = RunList(repo)  # the marks of landed items, for the next adopt if this one dies

    def adopted(self, item: Item, commit: str) -> None:
        if self.store is not None and item.entry.op in ("adopt", "demote"):
            # A demoted atom is L1 again: recalled per prompt and back on the expiry path.
            state = "adopted" if item.entry.op == "adopt" else "demoted"
            self.marks[item.atom_id] = (state, commit)
            self.owed.add(item.atom_id, state, commit)

    def rejected(self, item: Item) -> None:
        if self.store is not None:
            self.marks[item.atom_id] = ("rejected", None)
        else:
            from agent_memory.promote.l3 import record_global_rejection

            record_global_rejection(self.repo, item.atom)

    def write(self) -> None:
        """After the commits: an interrupt before this leaves the items applied (the log says
        so) with only their L1 marks missing, never half-applied."""
        if self.store is not None and self.marks:
            try:
                record_decisions(self.store, self.marks)
            except BaseException:
                self.owed.close(written=False)
                raise
        self.owed.close(written=True)
        if self.tier == "L2" and any(state != "rejected" for state, _ in self.marks.values()):
            warm_session_start(self.repo)


def run(args: argparse.Namespace) -> int:
    repo, tier, target, store = tier_context(args.global_)
    assert repo.workdir is not None
    git.check_head(repo.git_dir, repo.common_dir)  # no adopt commit may start a new root
    resumed = resume_interrupted(repo, store)  # what a killed adopt left half done
    for note in resumed if not wants_json(args) else []:
        print(note)
    files = work_files(repo.workdir, tier, target)
    if store is not None:
        record_reverted(repo, store, set(files.held()))
    items = pending(repo, files)
    named = [*args.yes, *args.pin, *args.reject]  # what `_match` may find already decided
    done = set(files.held()) | withdrawn_at_l1(repo, named)
    pinned, _ = _match(items, args.pin, done)
    pins = {i.atom_id for i in pinned}
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    # --pin alone on a terminal pins those items if they are adopted in the walk; without a
    # terminal, naming an item to pin is choosing it (scripts: `adopt --pin ID`).
    if not (args.all or args.yes or args.reject or (args.pin and not terminal)):
        if not items:
            print(
                "nothing is waiting on memory/review"
                + ("" if args.global_ else " (stage with `git memory stage`)")
            )
            return 0
        if not terminal:
            local = store.snapshot().atoms if store is not None else {}
            for item in items:
                print("\n".join(describe(item, l1=local.get(item.atom_id))))
            print(f"{len(items)} item(s) waiting on memory/review", file=sys.stderr)
            print(
                "hint: adopt on a terminal with `git memory adopt`, or use --all, --yes ID…, --reject ID…",
                file=sys.stderr,
            )
            return EXIT_REFUSED
        _check(repo, tier, target)
        return _interactive(repo, items, target, tier, store, pins)
    _check(repo, tier, target)
    # --pin ID adopts ID too (pinned): naming an item to pin is choosing it.
    chosen, already = (list(items), []) if args.all else _match(items, [*args.yes, *args.pin], done)
    rejected, already_rejected = _match(items, args.reject, done)
    overlap = sorted({i.atom_id for i in chosen} & {i.atom_id for i in rejected})
    if overlap and not args.all:
        raise UsageError(
            f"{', '.join(overlap)} named both to adopt and to reject",
            hint="name each item in only one of --yes/--pin and --reject",
        )
    chosen = [i for i in chosen if i not in rejected]
    report: dict[str, Any] = {
        "adopted": [],
        "rejected": [],
        "refused": {},
        "already": sorted(set(already + already_rejected)),
        "resumed": resumed,
    }
    decisions = Decisions(repo, tier, store)
    failure: Exception | None = None
    with git.deferred_maintenance(repo.cwd):  # once for the batch, not per commit
        try:
            _apply(repo, chosen, rejected, target, tier, pins, decisions, report)
        except Exception as exc:  # noqa: BLE001 - reported below with what had landed before it
            failure = exc
        finally:
            try:
                decisions.write()
            except Exception as exc:  # noqa: BLE001 - the marks stay owed; the next adopt writes them
                failure = failure or exc
    if failure is not None:
        landed = {a["atom"] for a in report["adopted"]}
        report["not_adopted"] = [i.atom_id for i in chosen if i.atom_id not in landed
                                 and i.atom_id not in report["refused"] and i.atom_id not in report["already"]]  # fmt: skip
        report["error"] = "no space left on device" if disk_full(failure) else str(failure)
    if wants_json(args):
        emit_json(report)
    else:
        _print_report(report, items, store)
    if failure is not None:
        _raise_after(failure, report)
    return EXIT_REFUSED if report["refused"] else 0


def _apply(repo: git.Repo, chosen: list[Item], rejected: list[Item], target: str, tier: str, pins: set[str],
           decisions: Decisions, report: dict[str, Any]) -> None:  # fmt: skip
    """Adopt `chosen` and reject `rejected`, one item at a time, noting each in `report`."""
    for item in chosen:
        why = refusal(item)
        if why:
            report["refused"][item.atom_id] = why
            continue
        try:
            commit = adopt_item(repo, item, target, pin=item.atom_id in pins, tier=tier)
        except AlreadyApplied:
            report["already"] = sorted({*report["already"], item.atom_id})
            continue
        except RefusedError as exc:
            report["refused"][item.atom_id] = exc.message
            if exc.hint and "stale lock" in exc.message:
                report.setdefault("hints", []).append(exc.hint)
            continue
        report["adopted"].append(
            {"atom": item.atom_id, "commit": commit, "pinned": item.atom_id in pins}
        )
        decisions.adopted(item, commit)
    for item in rejected:
        decisions.rejected(item)
        report["rejected"].append(item.atom_id)


def _print_report(report: dict[str, Any], items: list[Item], store: L1Store | None) -> None:
    if not items and not report["already"]:
        print("nothing is waiting on memory/review")
    for adopted in report["adopted"]:
        print(
            f"adopted {adopted['atom']} in {adopted['commit'][:10]}"
            + (" (pinned)" if adopted["pinned"] else "")
        )
    for ident in report["rejected"]:
        print(f"rejected {ident} ({_rejection_note(store)})")
    for ident in report["already"]:
        print(f"{ident} was already decided (adopted or rejected); nothing to do")
    for ident, why in report["refused"].items():
        print(f"refused {ident}: {why}")
    for hint in sorted(set(report.get("hints", []))):
        print(f"hint: {hint}", file=sys.stderr)
    if report["refused"]:
        print(
            "hint: a refused item stays on memory/review; `git memory inspect --why ID` shows its evidence",
            file=sys.stderr,
        )
    if "error" in report:
        print(f"stopped: {report['error']}; {plural(len(report['adopted']), 'item')} adopted (above), "
              f"{len(report['not_adopted'])} not adopted and still waiting: {', '.join(report['not_adopted']) or 'none'}")  # fmt: skip


def _raise_after(failure: Exception, report: dict[str, Any]) -> None:
    """The batch stopped on `failure` after the report said what had landed: exit as main
    maps it; a full disk is said plainly."""
    if disk_full(failure):
        raise DiskFullError(f"no space left on device: {plural(len(report['adopted']), 'item')} adopted, "
                            f"{len(report['not_adopted'])} not (they stay waiting on memory/review)") from failure  # fmt: skip
    raise failure


def _check(repo: git.Repo, tier: str, target: str) -> None:
    """Clean, consistent memory files before anything is written — checked under the memory
    lock, so another adopt's item between its write and its commit is not taken for an edit."""
    assert repo.workdir is not None
    with memory_lock(repo, what="adopt"):
        require_clean(repo, target)
        require_consistent(work_files(repo.workdir, tier, target))


def _rejection_note(store: L1Store | None) -> str:
    if store is None:
        return "recorded in the global repo's local state; not proposed again until new sessions add evidence"
    return "recorded on memory/atoms; not restaged until new sessions add evidence"


def _ask(questionary: Any, choices: list[str], item: Item, l1: Atom | None) -> str:
    while True:
        answer = questionary.select(
            "What should happen to this item?", choices=choices
        ).unsafe_ask()
        if answer != "show more":
            return str(answer)
        print("\n".join(describe(item, detail=True, l1=l1)))


def _interactive(
    repo: git.Repo, items: list[Item], target: str, tier: str, store: L1Store | None, pins: set[str]
) -> int:
    import questionary

    decisions = Decisions(repo, tier, store)
    try:
        return _walk(repo, items, target, tier, store, pins, questionary, decisions)
    finally:
        decisions.write()


def _walk(
    repo: git.Repo, items: list[Item], target: str, tier: str, store: L1Store | None, pins: set[str],
    questionary: Any, decisions: Decisions,
) -> int:  # fmt: skip
    adopted = rejected = skipped = 0
    local = store.snapshot().atoms if store is not None else {}
    for number, item in enumerate(items, start=1):
        print(f"\n[{number}/{len(items)}]")
        print("\n".join(describe(item, l1=local.get(item.atom_id))))
        if item.atom_id in pins:
            print("  (--pin: pinned if adopted)")
        why = refusal(item)
        if why:
            print(f"  cannot adopt: {why}")
            choices = ["reject", "skip", "show more", "quit"]
        else:
            choices = ["adopt", "reject", "skip", "show more", "quit"]
        try:
            answer = _ask(questionary, choices, item, local.get(item.atom_id))
        except KeyboardInterrupt:
            # Ctrl-C at the question, between items: every earlier item is whole (one commit
            # each); this one and the rest stay waiting.
            print(
                f"\ninterrupted; {len(items) - number + 1} item(s) still waiting — rerun `git memory adopt` to continue"
            )
            print(f"\n{adopted} adopted, {rejected} rejected, {skipped} skipped")
            return EXIT_INTERRUPTED
        if answer == "quit":
            print(
                f"stopped; {len(items) - number + 1} item(s) still waiting — rerun `git memory adopt` to continue"
            )
            break
        if answer == "adopt":
            try:
                commit = adopt_item(repo, item, target, pin=item.atom_id in pins, tier=tier)
            except AlreadyApplied:
                print("already decided by another git memory command meanwhile; nothing to do")
                skipped += 1
                continue
            except RefusedError as exc:
                print(f"not adopted: {exc.message}")
                if exc.hint:
                    print(f"hint: {exc.hint}")
                skipped += 1
                continue
            decisions.adopted(item, commit)
            print(f"adopted in {commit[:10]}" + (" (pinned)" if item.atom_id in pins else ""))
            adopted += 1
        elif answer == "reject":
            decisions.rejected(item)
            print(f"rejected ({_rejection_note(store)})")
            rejected += 1
        else:
            skipped += 1
    print(f"\n{adopted} adopted, {rejected} rejected, {skipped} skipped")
    return 0
