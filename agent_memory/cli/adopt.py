"""`git memory adopt [--global] [--all | --yes ID…] [--reject ID…] [--pin ID…]`.

On a terminal with no selection flags: walk the staged items one at a time and ask
adopt / reject / skip / show more / quit (`--pin ID` pins ID if it is adopted in the walk).
With flags: non-interactive, for scripts and CI; `--pin ID` adopts ID pinned. Without a
terminal and without flags: list what is waiting and exit 1 with a hint. IDs are atom ids,
unique `atm_` prefixes or review-commit prefixes; an ID already adopted or rejected is
reported and skipped, so rerunning an interrupted command continues with the rest; after a
kill -9 the rerun first finishes or rolls back the item that was half done and records the L1
marks the killed run owed, and says so. When a memory file, or `.memory`, is a symbolic link
(a pull can bring one in), adopt refuses before anything (exit 3; `adoption.adopt.refuse_links`).
Inside a Claude Code session (CLAUDECODE=1) Claude's own memory is left waiting, whichever path
(`adoption.adopt.claude_adopting`): only a person adopts it, from their own terminal.

Two adopts at once serialise on the memory lock: an item the other one applied
meanwhile is reported as already decided. The L1 marks of a whole run are one memory/atoms
commit, written when the run ends, and the session-start cache is warmed once.
An adoption undone with `git revert` counts as a rejection.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agent_memory.adoption.adopt import (
    AlreadyApplied,
    Item,
    adopt_item,
    claude_adopting,
    decided_on_review,
    in_session_hint,
    own_transcripts,
    pending,
    record_decisions,
    refusal,
    refuse_converted,
    refuse_links,
    refuse_target_too_large,
    require_clean,
    require_consistent,
    require_on_branch,
    resume_interrupted,
    withdrawn_at_l1,
    work_files,
)
from agent_memory.adoption.intent import RunList
from agent_memory.adoption.locks import memory_lock
from agent_memory.adoption.reverts import record_reverted
from agent_memory.cli.ids import NoMatch, resolve
from agent_memory.cli.output import tier_context, warm_session_start
from agent_memory.cli.report import Report, for_people
from agent_memory.committed import guarded
from agent_memory.gitio import repo as git
from agent_memory.model.atom import Atom, strip_pointer
from agent_memory.model.clock import utc_day
from agent_memory.model.controls import show_controls
from agent_memory.model.errors import (
    EXIT_INTERRUPTED,
    EXIT_REFUSED,
    AmbiguousError,
    DiskFullError,
    RefusedError,
    UsageError,
    disk_full,
)
from agent_memory.model.paths import TranscriptIndex
from agent_memory.model.tags import in_claude_code_session, memory_reasons, origin_label
from agent_memory.model.trailers import plural
from agent_memory.promote.review import passed_over, refuse_foreign_review
from agent_memory.promote.withdrawn import WITHDRAWN, withdrawn, withdrawn_note
from agent_memory.store.l1 import L1Store
from agent_memory.transcripts.evidence import evidence_for


def _match(items: list[Item], wanted: list[str], done: set[str], flag: str = "",
           held: Mapping[str, Atom] | None = None) -> tuple[list[Item], list[str]]:  # fmt: skip
    """The waiting items named (as every ID is named: cli/ids.py, with a review-commit prefix
    as well), and the names that were already decided (held or rejected): a rerun of the same
    command after an interrupt continues with the rest instead of failing on what already
    happened. `flag` is ` --global` for the global review, which the hint's commands need;
    `held`, the adopted atoms, whose claims name them too (`--pin 'ruff format'` of an item
    adopted earlier is already decided, not "not waiting")."""
    claims = {i.atom_id: str(i.atom.get("claim", "")) for i in items}
    commits = {i.commit: i.atom_id for i in items}
    chosen: list[Item] = []
    already: list[str] = []
    for key in wanted:
        try:
            ident = resolve(key, claims, commits)
        except NoMatch:
            decided = [d for d in done if d == key or (key.startswith("atm_") and d.startswith(key))]
            if not decided and held:
                try:
                    decided = [resolve(key, {i: str(a.get("claim", "")) for i, a in held.items()})]
                except (NoMatch, AmbiguousError):
                    pass
            if len(decided) == 1:
                already.append(decided[0])
                continue
            raise NoMatch(f"{key} is not waiting on memory/review",
                          hint=f"list waiting items with `git memory adopt{flag}` or `git memory status`") from None  # fmt: skip
        chosen.extend(i for i in items if i.atom_id == ident and i not in chosen)
    return chosen, already


def describe(item: Item, detail: bool = False, l1: Atom | None = None, gone: bool = False) -> list[str]:
    """What a person needs to decide: the claim, kind and confidence, how much evidence over
    how many days, and the user's own words at the source (redacted, re-read from the
    transcript as `inspect --why` does). `l1` is the atom's local record, whose per-session
    evidence the committed form no longer carries; without it the two back-pointers are used.
    `gone`: Claude's memory, its only source, no longer says it (promote/withdrawn.py)."""
    atom = item.atom
    lines = [f"{item.atom_id}  [{atom['kind']}, {atom['confidence']}]  {atom['claim']}"]
    label = origin_label(atom)
    if label:
        # Claude's own memory: the model wrote it itself, after reading tool output and files.
        lines.append(f"  {label}: written by Claude Code's model, not typed by you")
        if gone:
            lines.append(f"  {WITHDRAWN}: {withdrawn_note(l1 if l1 is not None else atom, staged=True)}")
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
            note = "" if ev.get("remembered") else notes[ev["status"]]  # `remember`: no transcript, ever
            lines.append("  " + "  ".join(x for x in (where, quote) if x) + note)
    if detail:
        lines.append(f"  sessions: {', '.join(atom['sessions'])}")
        lines.append(f"  staged in {item.commit}")
    # The claim and the quotes are other people's text (a clone's review branch, Claude's own
    # memory, a paste): a control character in them is shown, not acted on.
    return [show_controls(line) for line in lines]


class Decisions:
    """The review decisions of one run, written to memory/atoms as one commit at the end."""

    def __init__(self, repo: git.Repo, tier: str, store: L1Store | None) -> None:
        self.repo, self.tier, self.store = repo, tier, store
        self.marks: dict[str, tuple[str, str | None]] = {}
        self.owed = RunList(repo)  # the marks of landed items, for the next adopt if this one dies
        self.landed: set[str] = set()  # L3: the ids adopted in this run

    def adopted(self, item: Item, commit: str) -> None:
        if self.store is None:
            self.landed.add(item.atom_id)
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
        if self.landed:
            from agent_memory.store.remember import prune_global_candidates

            # A hand-authored L3 item's local candidate is done once adopted: a person who then
            # takes the adoption back out (a `git reset` of it leaves no adopt commit for the
            # next stage to count) has decided, and no stage offers the item again.
            prune_global_candidates(self.repo, self.landed, None)
        if self.tier == "L2" and any(state != "rejected" for state, _ in self.marks.values()):
            warm_session_start(self.repo)


@dataclass
class Review:
    """What one adopt works on: the tier's repository and files, the items waiting on its
    review branch, and the ids already decided."""

    repo: git.Repo
    tier: str
    target: str
    store: L1Store | None
    resumed: list[str]  # what this run finished or rolled back of a killed adopt
    items: list[Item]
    done: set[str]
    held: dict[str, Atom]  # adopted in the tier's files now (a part of `done`)
    passed_over: list[str]  # warning lines: commits on the review branch too large to be items

    @classmethod
    def open(cls, args: argparse.Namespace) -> Review:
        repo, tier, target, store = tier_context(args.global_)
        assert repo.workdir is not None
        git.check_head(repo.git_dir, repo.common_dir)  # no adopt commit may start a new root
        # Nor land on a rebase's or a detached HEAD (an abort or checkout would leave it behind).
        require_on_branch(repo, "git memory adopt" + (" --global" if args.global_ else ""))
        # A pull may have brought in `.memory -> ~/elsewhere` or `CLAUDE.memory.md -> ~/.bashrc`:
        # refused before anything is read, resumed, written or recorded on memory/atoms.
        refuse_links(repo.workdir, tier, target, "nothing was adopted or rejected")
        refuse_converted(repo.workdir, tier, "nothing was adopted or rejected")
        if store is not None:  # the author's memory/review, come with a clone: never listed as yours
            refuse_foreign_review(repo, store, "nothing was adopted or rejected")
        else:
            from agent_memory.store.remember import read_adoptions_seen, read_global_candidates

            # read after the commits to let adopted candidates go: a file there that cannot be
            # read (a FIFO, a device, too large) is refused now, before anything is adopted
            read_global_candidates(repo)
            read_adoptions_seen(repo)
        resumed = resume_interrupted(repo, store)  # what a killed adopt left half done
        refuse_target_too_large(repo.workdir, target)  # adopt's own refusal: work_files' is an exit 3
        files = work_files(repo.workdir, tier, target)
        if store is not None:
            record_reverted(repo, store, set(files.held()))
        named = [*args.yes, *args.pin, *args.reject]  # what `_match` may find already decided
        held = dict(files.held())
        done = set(held) | withdrawn_at_l1(repo, named)
        skipped: list[tuple[str, int]] = []  # a commit too large for any of ours: no item, said
        items = pending(repo, files, skipped=skipped)
        return cls(repo, tier, target, store, resumed, items, done, held, passed_over(skipped))

    def check(self) -> None:
        """Clean, consistent memory files before anything is written — checked under the
        memory lock, so another adopt's item between its write and its commit is not taken
        for an edit."""
        assert self.repo.workdir is not None
        with memory_lock(self.repo, what="adopt"):
            require_clean(self.repo, self.target, "git memory adopt" + self.flag)
            require_consistent(work_files(self.repo.workdir, self.tier, self.target))

    @property
    def flag(self) -> str:
        """` --global` in the commands a hint names for the global review, else ''."""
        return " --global" if self.tier == "L3" else ""

    def outcome(self) -> dict[str, Any]:
        """The JSON object every path fills in."""
        return {"adopted": [], "rejected": [], "refused": {}, "already": [], "resumed": self.resumed}


def run(args: argparse.Namespace) -> Report:
    if args.all and args.yes:
        # `--all | --yes ID…` (CLI.md): IDs beside --all would be ignored, so the person who
        # meant only those would adopt every item. Said before the review is read.
        raise UsageError("--all adopts every staged item; --yes names some: give one or the other",
                         hint="git memory adopt --all, or git memory adopt --yes ID…")  # fmt: skip
    review = Review.open(args)
    pins = {i.atom_id for i in _match(review.items, args.pin, review.done, review.flag, review.held)[0]}
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    # --pin alone on a terminal pins those items if they are adopted in the walk; without a
    # terminal, naming an item to pin is choosing it (scripts: `adopt --pin ID`).
    if args.all or args.yes or args.reject or (args.pin and not terminal):
        return _batch(args, review, pins)
    if review.items and terminal:
        review.check()
        return _interactive(review, pins, json_out=args.output == "json")
    return _waiting(review, args.global_)


def _waiting(review: Review, global_: bool) -> Report:
    """No selection: say what waits. Without a terminal that is a refusal (exit 1) with the
    flags that choose."""
    report = Report(review.outcome(), list(review.resumed)).warn(*review.passed_over)
    # The global review is another repository's: name it, and --global in each command.
    where, flag = ("the global memory repo's memory/review", " --global") if global_ else ("memory/review", "")
    if not review.items:
        return report.say(f"nothing is waiting on {where} (stage with `git memory stage{flag}`)")
    local = review.store.snapshot().atoms if review.store is not None else {}
    gone = _withdrawn(review, local)
    for item in review.items:
        report.say(*describe(item, l1=local.get(item.atom_id), gone=item.atom_id in gone))
    report.data["waiting"] = [i.atom_id for i in review.items]
    if gone:
        report.data["withdrawn"] = sorted(gone)  # Claude's memory, their only source, no longer says them
    report.note(f"{plural(len(review.items), 'item')} waiting on {where}")
    claudes = [i.atom_id for i in review.items if claude_adopting(i, local.get(i.atom_id))]
    if claudes:
        report.data["claude_memory"] = claudes
        report.note(f"{plural(len(claudes), 'item')} of Claude's own memory cannot be adopted in this "
                    "Claude Code session (CLAUDECODE=1)")  # fmt: skip
        report.hint(in_session_hint(global_))
    report.hint(f"adopt on a terminal with `git memory adopt{flag}`, or use --all, --yes ID…, --reject ID…")
    report.code = EXIT_REFUSED
    return report


def _batch(args: argparse.Namespace, review: Review, pins: set[str]) -> Report:
    """--all, --yes, --reject, --pin: every named item at once, one commit each; the L1 marks
    in one commit at the end."""
    review.check()
    items = review.items
    # --pin ID adopts ID too (pinned): naming an item to pin is choosing it.
    named, already = _match(items, [*args.yes, *args.pin], review.done, review.flag, review.held)
    chosen, already = (list(items), []) if args.all else (named, already)
    rejected, already_rejected = _match(items, args.reject, review.done, review.flag, review.held)
    # `--all --reject ID` adopts every other item; an item named to pin and to reject is a
    # contradiction, with or without --all.
    overlap = sorted({i.atom_id for i in named} & {i.atom_id for i in rejected})
    if overlap:
        raise UsageError(
            f"{', '.join(overlap)} named both to adopt and to reject",
            hint="name each item in only one of --yes/--pin and --reject",
        )
    chosen = [i for i in chosen if i not in rejected]
    outcome = review.outcome()
    outcome["already"] = sorted(set(already + already_rejected))
    decisions = Decisions(review.repo, review.tier, review.store)
    failure: BaseException | None = None
    with git.deferred_maintenance(review.repo.cwd):  # once for the batch, not per commit
        try:
            _apply(review, chosen, rejected, pins, decisions, outcome)
        except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - reported with what had landed before it
            failure = exc  # Ctrl-C too: the items before it are adopted, and the report says which
        finally:
            try:
                decisions.write()
            except Exception as exc:  # noqa: BLE001 - the marks stay owed; the next adopt writes them
                failure = failure or exc
    if failure is not None:
        landed = {a["atom"] for a in outcome["adopted"]}
        outcome["not_adopted"] = [i.atom_id for i in chosen if i.atom_id not in landed
                                  and i.atom_id not in outcome["refused"] and i.atom_id not in outcome["already"]]  # fmt: skip
        outcome["error"] = ("no space left on device" if disk_full(failure)
                            else "interrupted" if isinstance(failure, KeyboardInterrupt) else str(failure))
    report = _batch_text(Report(outcome, list(review.resumed)).warn(*review.passed_over), items, review, set(_match(items, args.pin, review.done, review.flag, review.held)[1]))
    # Claude's own memory skipped in a Claude Code session is a refusal only when nothing else
    # was adopted: `adopt --all` there adopts the person's items and says what it left.
    others = set(outcome["refused"]) - set(outcome.get("claude_memory", []))
    report.code = EXIT_REFUSED if others or (outcome["refused"] and not outcome["adopted"]) else 0
    report.failure = _failure_after(failure, outcome) if failure is not None else None
    return _stale_review(review, report) if failure is None else report


def _stale_review(review: Review, report: Report) -> Report:
    """After decisions, memory/review still carries the decided items while others wait: a
    pull request of it would carry them again, and `git memory pr` refuses it. Say so here,
    with the command that rebuilds it, rather than leave the refusal to `pr`."""
    if not (report.data["adopted"] or report.data["rejected"]):
        return report
    decided, waiting = decided_on_review(review.repo, review.tier, review.target)
    if decided and waiting:
        flag = " --global" if review.tier == "L3" else ""
        report.data["decided_on_review"] = decided
        report.hint(f"memory/review still carries {plural(len(decided), 'decided item')} next to "
                    f"the {plural(waiting, 'item')} still waiting; before `git memory pr{flag}`, rebuild "
                    f"it with `git memory stage{flag}`")  # fmt: skip
    return report


def _blocking_lines(review: Review) -> str:
    """Why no item can be committed: the tier already holds adopted lines the commit guard
    refuses (a teammate's commit made around the hooks, e.g. from a clone where `git memory
    init` never ran). Every adopt re-renders the block with them, so the guard refuses each
    commit; blamed on the item, that read as the item's own problem. '' when none."""
    root = review.repo.workdir
    if root is None:
        return ""
    found = guarded.refused(work_files(root, review.tier, review.target).held().values())
    if not found:
        return ""
    named = ", ".join(f"{ident} ({', '.join(rules)})" for ident, rules in sorted(found.items()))
    return (f"the {review.tier} block already holds {plural(len(found), 'adopted line')} the commit guard refuses "
            f"({named}), committed around the hooks (a clone without `git memory init`, or --no-verify); "
            "no memory commit passes the guard until it is gone")  # fmt: skip


def _apply(review: Review, chosen: list[Item], rejected: list[Item], pins: set[str], decisions: Decisions,
           report: dict[str, Any]) -> None:  # fmt: skip
    """Adopt `chosen` and reject `rejected`, one item at a time, noting each in `report`."""
    transcripts = TranscriptIndex()
    own = own_transcripts(review.repo, review.tier)
    blocking = _blocking_lines(review) if chosen else ""
    local = review.store.snapshot().atoms if review.store is not None and chosen and in_claude_code_session() else {}
    if blocking:
        report.setdefault("hints", []).append(
            "`git memory validate --fix` forgets that line (then commit both memory files); run git memory adopt again")
    for item in chosen:
        claude = claude_adopting(item, local.get(item.atom_id))
        if claude:  # before anything else: no person is there to act on another refusal
            report["refused"][item.atom_id] = claude
            report.setdefault("claude_memory", []).append(item.atom_id)
            report.setdefault("hints", []).append(in_session_hint(review.tier == "L3"))
            continue
        why = refusal(item, transcripts, own)
        if why:
            report["refused"][item.atom_id] = why
            continue
        if blocking:  # not this item's fault: say what stops every memory commit here
            report["refused"][item.atom_id] = blocking
            continue
        try:
            commit = adopt_item(review.repo, item, review.target, pin=item.atom_id in pins, tier=review.tier)
        except AlreadyApplied:
            report["already"] = sorted({*report["already"], item.atom_id})
            continue
        except RefusedError as exc:
            # Its commit was refused (a hook of the person's, a stale lock): the way out is
            # what the refusal says, not the item's evidence.
            report["refused"][item.atom_id] = exc.message
            report.setdefault("refused_at_commit", []).append(item.atom_id)
            if exc.hint:
                report.setdefault("hints", []).append(exc.hint)
            continue
        report["adopted"].append(
            {"atom": item.atom_id, "commit": commit, "pinned": item.atom_id in pins}
        )
        decisions.adopted(item, commit)
    for item in rejected:
        decisions.rejected(item)
        report["rejected"].append(item.atom_id)


def _batch_text(report: Report, items: list[Item], review: Review, pin_named: set[str]) -> Report:
    """`pin_named`: the already-decided items --pin named (adopt pins only what it adopts)."""
    outcome = report.data
    store = review.store
    if not items and not outcome["already"]:
        report.say("nothing is waiting on memory/review")
    for adopted in outcome["adopted"]:
        report.say(f"adopted {adopted['atom']} in {adopted['commit'][:10]}" + (" (pinned)" if adopted["pinned"] else ""))
    for ident in outcome["rejected"]:
        report.say(f"rejected {ident} ({_rejection_note(store)})")
    for ident in outcome["already"]:
        if ident not in review.held:
            report.say(f"{ident} was already decided (adopted or rejected); nothing to do")
            continue
        report.say(f"{ident} was already adopted; nothing to do")
        if ident in pin_named and review.tier == "L2" and not review.held[ident].get("pinned"):
            # `--pin ID` pins what this adopt adopts; an item adopted earlier is pinned by `pin`.
            report.hint(f"to pin an adopted item: git memory pin {ident}")
    for ident, why in outcome["refused"].items():
        report.say(f"refused {ident}: {why}")
    for hint in sorted(set(outcome.get("hints", []))):
        report.hint(hint)
    if set(outcome["refused"]) - set(outcome.get("refused_at_commit", [])) - set(outcome.get("claude_memory", [])):
        report.hint("a refused item stays on memory/review; `git memory inspect --why ID` shows its evidence")
    if "error" in outcome:
        report.say(f"stopped: {outcome['error']}; {plural(len(outcome['adopted']), 'item')} adopted (above), "
                   f"{len(outcome['not_adopted'])} not adopted and still waiting: {', '.join(outcome['not_adopted']) or 'none'}")  # fmt: skip
    return report


def _failure_after(failure: BaseException, outcome: dict[str, Any]) -> BaseException:
    """What the batch stopped on, raised after the report said what had landed: main maps it
    as for any verb; a full disk is said plainly."""
    if disk_full(failure):
        error = DiskFullError(f"no space left on device: {plural(len(outcome['adopted']), 'item')} adopted, "
                              f"{len(outcome['not_adopted'])} not (they stay waiting on memory/review)")  # fmt: skip
        error.__cause__ = failure
        return error
    return failure


def _rejection_note(store: L1Store | None) -> str:
    if store is None:
        return ("recorded in the global repo's local state; not proposed again until new sessions add "
                "evidence or you say it again with `git memory remember --global`")
    return ("recorded on memory/atoms; not restaged until new sessions add evidence or you say it again "
            "with `git memory remember`")


def _ask(questionary: Any, choices: list[str], item: Item, l1: Atom | None, say: Callable[[str], None],
         gone: bool = False) -> str:  # fmt: skip
    while True:
        answer = questionary.select("What should happen to this item?", choices=choices).unsafe_ask()
        if answer != "show more":
            return str(answer)
        say("\n".join(describe(item, detail=True, l1=l1, gone=gone)))


def _withdrawn(review: Review, local: Mapping[str, Atom]) -> set[str]:
    return withdrawn_items(review.repo, review.store, review.items, local)


def withdrawn_items(repo: git.Repo, store: L1Store | None, items: Sequence[Item],
                    local: Mapping[str, Atom] | None = None) -> set[str]:  # fmt: skip
    """The waiting items Claude's memory alone said and no longer says, judged on their L1
    records (`local`, else read from `store`) — this repository's review only: the global
    one's atoms come from many projects' folders. Adopt and `pr` mark the same ones."""
    if store is None:
        return set()
    adopts = [i.atom_id for i in items if i.entry.op == "adopt"]
    records = local if local is not None else store.read_atoms(adopts)
    return withdrawn(repo, [records.get(ident) for ident in adopts])


def _interactive(review: Review, pins: set[str], json_out: bool) -> Report:
    """The walk on a terminal: each item is shown and decided as it comes (that conversation
    is live; with --output json it goes to stderr), the report is the tally at the end."""
    import questionary

    def say(text: str) -> None:
        # the walk is printed live, not through the report: its claims are shown the same way
        stream = sys.stderr if json_out else sys.stdout
        print(for_people(text, stream), file=stream, flush=True)

    for note in review.resumed:
        say(note)
    decisions = Decisions(review.repo, review.tier, review.store)
    outcome = review.outcome()
    try:
        code, tally = _walk(review, pins, questionary, decisions, outcome, say)
    finally:
        decisions.write()
    return _stale_review(review, Report(outcome, [tally], code=code).warn(*review.passed_over))


def _walk(review: Review, pins: set[str], questionary: Any, decisions: Decisions, outcome: dict[str, Any],
          say: Callable[[str], None]) -> tuple[int, str]:  # fmt: skip
    """(exit code, the tally line) after asking about each item in turn."""
    items, store = review.items, review.store
    skipped = 0

    def tally() -> str:
        return f"\n{len(outcome['adopted'])} adopted, {len(outcome['rejected'])} rejected, {skipped} skipped"

    local = store.snapshot().atoms if store is not None else {}
    gone = _withdrawn(review, local)
    blocking = _blocking_lines(review) if items else ""
    if blocking:  # no item can be committed: say why once, and offer no adopt
        say(f"{blocking}\nhint: `git memory validate --fix` forgets that line (then commit both memory files); "
            "run git memory adopt again")  # fmt: skip
    for number, item in enumerate(items, start=1):
        say(f"\n[{number}/{len(items)}]")
        say("\n".join(describe(item, l1=local.get(item.atom_id), gone=item.atom_id in gone)))
        if item.atom_id in pins:
            say("  (--pin: pinned if adopted)")
        claude = claude_adopting(item, local.get(item.atom_id))
        why = claude or refusal(item, own=own_transcripts(review.repo, review.tier)) or blocking
        if why:
            say(f"  cannot adopt: {why}" + (f"\n  hint: {in_session_hint(review.tier == 'L3')}" if claude else ""))
            choices = ["reject", "skip", "show more", "quit"]
        else:
            choices = ["adopt", "reject", "skip", "show more", "quit"]
        try:
            answer = _ask(questionary, choices, item, local.get(item.atom_id), say, item.atom_id in gone)
        except KeyboardInterrupt:
            # Ctrl-C at the question, between items: every earlier item is whole (one commit
            # each); this one and the rest stay waiting.
            say(f"\ninterrupted; {plural(len(items) - number + 1, 'item')} still waiting — rerun `git memory adopt{review.flag}` to continue")
            return EXIT_INTERRUPTED, tally()
        if answer == "quit":
            say(f"stopped; {plural(len(items) - number + 1, 'item')} still waiting — rerun `git memory adopt{review.flag}` to continue")
            break
        if answer == "adopt":
            try:
                commit = adopt_item(review.repo, item, review.target, pin=item.atom_id in pins, tier=review.tier)
            except AlreadyApplied:
                say("already decided by another git memory command meanwhile; nothing to do")
                outcome["already"].append(item.atom_id)
                skipped += 1
                continue
            except RefusedError as exc:
                say(f"not adopted: {exc.message}" + (f"\nhint: {exc.hint}" if exc.hint else ""))
                outcome["refused"][item.atom_id] = exc.message
                skipped += 1
                continue
            decisions.adopted(item, commit)
            outcome["adopted"].append({"atom": item.atom_id, "commit": commit, "pinned": item.atom_id in pins})
            say(f"adopted in {commit[:10]}" + (" (pinned)" if item.atom_id in pins else ""))
        elif answer == "reject":
            decisions.rejected(item)
            outcome["rejected"].append(item.atom_id)
            say(f"rejected ({_rejection_note(store)})")
        else:
            skipped += 1
    return 0, tally()
