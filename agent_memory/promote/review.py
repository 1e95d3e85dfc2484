"""`memory/review`: staged promotions, one commit per promoted atom, on top of the default
branch as the remote has it (`origin/main` when fetched, so a pull request carries only the
staged items), else the local branch. Built only with plumbing and a fixed identity and dates taken
from the evidence, so the same evidence gives the same commits (same oids) and re-staging is
a no-op. Each commit touches only the marker block and `.memory/adopted.log`."""

from __future__ import annotations

import datetime as _dt
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from agent_memory.committed import adopted_log, render
from agent_memory.committed.adopted_log import LOG_PATH, LogEntry
from agent_memory.committed.files import TierFiles
from agent_memory.committed.install import target_file
from agent_memory.committed.tiers import TooManyAtomsError, log_too_many_atoms
from agent_memory.gitio import porcelain
from agent_memory.gitio import repo as git
from agent_memory.gitio.state import log_error
from agent_memory.model.atom import Atom, to_committed
from agent_memory.model.checkout import remember_again
from agent_memory.model.clock import now_utc, parse_ts, utc_day
from agent_memory.model.errors import FatalError, RefMovedError, RefusedError, RepoStateError
from agent_memory.model.home import git_in
from agent_memory.model.policy import L2_CAP
from agent_memory.model.tags import memory_reasons, origin_label
from agent_memory.model.trailers import format_message, one_line, plural, trailer
from agent_memory.promote import gates
from agent_memory.promote.gates import GateResult, l2_overflow
from agent_memory.promote.review_base import dropped_base, foreign_commit_refusal, made_by_us
from agent_memory.promote.withdrawn import hold_withdrawn
from agent_memory.redact import guard
from agent_memory.store.decisions import mark_held
from agent_memory.store.l1 import L1Store


@dataclass
class StagePlan:
    base_branch: str
    base_oid: str
    results: list[GateResult]
    staged: list[tuple[str, str]] = field(default_factory=list)  # (commit, atom id)
    refused: dict[str, list[str]] = field(default_factory=dict)
    demoted: list[str] = field(default_factory=list)
    held: dict[str, Atom] = field(default_factory=dict)  # adopted at the base branch
    base_ref: str = ""  # what the commits sit on: refs/remotes/origin/main, else refs/heads/main
    unpushed: int = 0  # commits of the local base branch that its remote does not have


@dataclass(frozen=True)
class Base:
    """What memory/review is built on. When the base branch has a remote-tracking ref
    (`origin/main`), that: a pull request of memory/review must carry the staged items and
    nothing else, not the local branch's unpushed commits ("Set up agent-memory", adoptions).
    `unpushed` counts those, so the verbs can say so."""

    branch: str
    ref: str
    oid: str
    unpushed: int = 0
    behind: int = 0

    @property
    def name(self) -> str:
        return self.ref.removeprefix("refs/remotes/").removeprefix("refs/heads/")

    @property
    def remote(self) -> bool:
        return self.ref.startswith("refs/remotes/")


def staging_base(repo: git.Repo) -> Base:
    branch = git.default_branch(repo)
    if branch is None:
        raise RepoStateError("no default branch to stage promotions on",
                             hint="make a first commit on main, or set one with `git config memory.base <branch>`")
    local = f"refs/heads/{branch}"
    local_oid = git.ref_target(repo, local)
    assert local_oid is not None
    tracking = porcelain.tracking_ref(repo, branch)
    tracking_oid = git.ref_target(repo, tracking) if tracking else None
    if tracking is None or tracking_oid is None:
        return Base(branch, local, local_oid)
    unpushed, behind = porcelain.ahead_behind(repo, local, tracking)
    return Base(branch, tracking, tracking_oid, unpushed, behind)


def base_refs(repo: git.Repo) -> list[str]:
    """The base branch and its remote-tracking ref: commits reachable from them are on the
    base already (a merged pull request), never items waiting on memory/review."""
    branch = git.default_branch(repo)
    if branch is None:
        return []
    refs = [f"refs/heads/{branch}"]
    tracking = porcelain.tracking_ref(repo, branch)
    return refs + ([tracking] if tracking else [])


def base_files(repo: git.Repo, rev: str, tier: str, target_name: str, where: str | None = None) -> TierFiles:
    """The tier's log and block on `rev` (the base branch), read as adopt reads the work tree's
    (tiers.decode_utf8): a byte that is not UTF-8 — a pull brings it in without any hook — is
    exit 3 naming the line and byte offset, with how to repair it. Decoded with U+FFFD, its
    line was refused as "not JSON" with no way out (promote, stage, remember: exit 1). A log
    naming more atoms than anyone adopts is tiers.TooManyAtomsError (exit 3), never folded."""
    from agent_memory.committed.tiers import TooManyAtomsError, decode_utf8, refuse_too_many_atoms
    from agent_memory.model.policy import MAX_BLOCK_FILE_BYTES, MAX_LOG_BLOB_BYTES

    restore = "git" if repo.workdir is None or tier == "L2" else git_in(repo.workdir)
    name = where or rev.removeprefix("refs/heads/")
    # Read from a project, the global repo's file is named as its (`restore` says `git -C` too).
    whose = "" if tier == "L2" else "the global memory repo's "
    # Never a blob larger than either file can be read whole (its size from the object's
    # header): a committed log of 300 MB of zeros (300 KB in a clone) cost promote 650 MB and
    # a MemoryError. Refused as a log naming too many atoms is (exit 3, one line and a hint).
    # Both are sized before either is read; the blob ids found on the way read them with no
    # second walk of the tree.
    blobs: dict[str, str] = {}
    for rel, bound in ((LOG_PATH, MAX_LOG_BLOB_BYTES), (target_name, MAX_BLOCK_FILE_BYTES)):
        found = git.blob_header_at(repo, rev, rel)
        if found is None:
            continue
        blob, size = found
        if size > bound:
            raise TooManyAtomsError(
                f"{whose}{rel} on {name} is {size} bytes, more than agent-memory reads ({bound}): "
                "it was not read; nothing was changed",
                hint=f"see who wrote it: `{restore} log --stat {name} -- {rel}`; restore a good version "
                     f"and commit it")  # fmt: skip
        blobs[rel] = blob
    texts = [decode_utf8(git.read_blob(repo, blobs[rel], f"{rel} in {rev}") if rel in blobs else b"",
                         f"{whose}{rel} on {name}", rel, restore)
             for rel in (LOG_PATH, target_name)]  # fmt: skip
    refuse_too_many_atoms(texts[0], f"{whose}{LOG_PATH} on {name}", None if restore == "git" else repo.workdir)
    return TierFiles(tier=tier, target_name=target_name, log_text=texts[0], target_text=texts[1])


# What a review commit writes, and what each must be on the base branch to be written there.
_KINDS = {"folder": "a folder", "file": "a file", "link": "a symbolic link", "submodule": "a submodule"}


def odd_memory_path(repo: git.Repo, rev: str, target_name: str) -> tuple[str, str, str] | None:
    """(path, what it is, what it must be) for the first of `.memory`, `.memory/adopted.log`
    and the block's file that `rev` holds as something else than agent-memory writes there (a
    `.memory` file of another tool, a link); None when each is absent or as expected."""
    for path, wanted in ((".memory", "folder"), (LOG_PATH, "file"), (target_name, "file")):
        kind = git.path_kind(repo, rev, path)
        if kind is not None and kind != wanted:
            return path, _KINDS[kind], _KINDS[wanted]
    return None


def refuse_odd_base(repo: git.Repo, base: Base, target_name: str) -> None:
    """Staging writes `.memory/adopted.log` and the block on top of the base branch: a base
    that holds something else there is refused with what to do, before anything is written
    (memory/atoms keeps every captured atom meanwhile)."""
    odd = odd_memory_path(repo, base.oid, target_name)
    if odd is not None:
        path, kind, wanted = odd
        pushed = ", push" if base.remote else ""
        raise RepoStateError(
            f"cannot stage memory on {base.name}: {path} there is {kind}, not {wanted} "
            f"(agent-memory writes {LOG_PATH} and {target_name})",
            hint=f"move it out of the way on {base.branch} (e.g. `git mv {path} <another name>`, commit{pushed}), "
                 "then run `git memory stage`; the captured atoms stay in memory/atoms meanwhile")  # fmt: skip


def promotion_message(atom: Atom, l2: Atom) -> str:
    sessions = sorted(atom["sessions"])
    days = sorted({utc_day(e["at"]) for e in atom.get("evidence", [])} or {utc_day(atom["first_seen"]), utc_day(atom["last_seen"])})
    body = [
        f"Claim: {atom['claim']}",
        f"Kind: {atom['kind']}; confidence: {atom['confidence']}",
        f"Evidence: {plural(len(sessions), 'session')} over {plural(len(days), 'day')} ({', '.join(days)}), {plural(atom['observations'], 'observation')}",
        f"First source: {l2['first_source']} ({utc_day(atom['first_seen'])})",
        f"Latest source: {l2['source']} ({utc_day(atom['last_seen'])})",
    ]
    if atom.get("verified_by"):
        body.append(f"Verified by: {atom['verified_by']}")
    trailers = [("Atom-Id", atom["id"]), ("Promotion", "L1->L2"), ("Evidence-Sessions", ", ".join(sessions)),
                ("Evidence-Days", str(len(days))), ("First-Source", l2["first_source"])]  # fmt: skip
    label = origin_label(atom)
    if label:
        # Claude's own memory: the model wrote it itself; a reviewer sees so, with its reasons.
        # The quote lines travel with memory/review to a pull request: only lines the commit
        # guard accepts are written.
        body.insert(1, f"Origin: {label} — written by Claude Code's model, not typed by a person")
        body += [line for line in memory_reasons(atom) if not guard.scan_text("review", line)]
        trailers.append(("Origin", str(atom["origin"])))
    return format_message(f"promote: {one_line(atom['claim'], 80)}", body, trailers)


def staged_l2_atom(atom: Atom) -> Atom:
    """The committed form: stripped back-pointers, local-only fields dropped, and `promoted_at`
    taken from the evidence (its latest sighting) so staging stays deterministic."""
    l2 = to_committed(atom, "L2", atom["last_seen"])
    l2.pop("contested", None)
    l2.pop("contested_by", None)
    return l2


def _when(ts: str) -> int:
    return int(parse_ts(ts).timestamp())


_UNREAD = "unread"  # write_review_branch reads memory/review itself


class ReviewMovedError(RepoStateError):
    """memory/review is not where this stage read it: another stager wrote it meanwhile."""


# Each staged commit renders the whole log again (O(its lines)). No adopt leaves L2 far over its
# cap (each stage demotes the overflow its promotions make), but a cloned log can: 4,900 atoms
# (2 MB, within MAX_LOG_ATOMS) made `stage`, and every session end's auto-stage, write 4,840
# demotions at ~0.35 s each (~30 min; the background capture is killed at 300 s, having staged
# nothing). The oldest L2_CAP are demoted a stage at a time; the next stage after they are
# adopted demotes the next ones.
MAX_DEMOTIONS = L2_CAP


def plan_and_stage(repo: git.Repo, atoms: Sequence[Atom], project: str, now: _dt.datetime,
                   target_name: str, force: bool = False, dry_run: bool = False,
                   review_seen: str | None = _UNREAD) -> StagePlan:

    base = staging_base(repo)
    if not dry_run:  # a dry run writes nothing there: it still reports the gates
        refuse_odd_base(repo, base, target_name)
    base_branch, base_oid = base.branch, base.oid
    where = base.name
    files = base_files(repo, base_oid, "L2", target_name, where)
    if files.log_errors():
        raise RefusedError(f"{LOG_PATH} on {where} has unreadable lines: {files.log_errors()[0]}",
                           hint="fix the line (git log -p .memory/adopted.log shows its history), then stage again")
    if files.hand_edited():
        raise RefusedError(f"the memory block in {target_name} on {where} was edited by hand",
                           hint="re-render it from .memory/adopted.log with `git memory validate --fix`, commit, then stage again")
    held = files.held()
    if base.remote:
        # Adopted here and not pushed yet: held all the same (not staged a second time).
        local = base_files(repo, f"refs/heads/{base_branch}", "L2", target_name)
        if not local.log_errors():
            held = {**local.held(), **held}
    results = gates.evaluate_l1(list(atoms), project, now, held)
    # Claude's memory no longer says it, and said nothing else of it: not staged. One staged
    # already stays (a rebuild would drop it unseen): its review says so, a person decides.
    results = hold_withdrawn(repo, {a["id"]: a for a in atoms}, results,
                             lambda: {ident for _, ident, _ in review_items(repo, base.ref)})
    plan = StagePlan(base_branch=base_branch, base_oid=base_oid, results=results, held=held,
                     base_ref=base.ref, unpushed=base.unpushed)
    by_id = {a["id"]: a for a in atoms}
    eligible = sorted((by_id[r.atom_id] for r in results if r.eligible), key=lambda a: (a["last_seen"], a["id"]))
    if dry_run:
        return plan
    proposals: list[Proposal] = []
    for atom in eligible:
        l2 = staged_l2_atom(atom)
        proposals.append(Proposal(atom["id"], LogEntry(op="adopt", atom=l2, at=l2["promoted_at"]),
                                  promotion_message(atom, l2)))
    # L2 cap: what would be held after these promotions decides the demotions.
    after = files.append([p.entry for p in proposals]).held()
    overflow = _l2_overflow(after)[:MAX_DEMOTIONS]
    if overflow:
        when = max(a["promoted_at"] for a in after.values())
        proposals += [Proposal(ident, LogEntry(op="demote", atom=after[ident], at=when),
                               format_message(f"demote: {one_line(after[ident]['claim'], 80)}",
                                              [f"L2 holds more than {L2_CAP} atoms: the oldest last_seen goes back to L1,",
                                               "where it re-enters the 90-day expiry and can re-promote if still live."],
                                              [("Atom-Id", ident), ("Promotion", "L2->L1")]))
                      for ident in overflow]
        plan.demoted = list(overflow)
    plan.staged, plan.refused, _ = write_review_branch(repo, base_oid, files, proposals, force, review_seen)
    return plan


STAGE_ATTEMPTS = 8
NOT_STAGED = "nothing was staged"  # what a stage refused before it wrote says it did not do


def stage_current(repo: git.Repo, store: L1Store, project: str, target_name: str,
                  force: bool = False) -> StagePlan:
    """Stage what memory/atoms holds now (see stage_retrying); memory/atoms moving under a
    stage (a capture landing) is staged again too."""

    # The author's memory/review, come with a clone or a fetch: a stage rebuilt it as if it
    # were the person's earlier staging, replacing it (deleting it when nothing was eligible)
    # and recording the result as ours. Refused as adopt refuses it: set aside, it is kept.
    refuse_foreign_review(repo, store, NOT_STAGED)

    def once(seen: str | None) -> tuple[StagePlan, bool]:
        tip = store.tip()
        atoms = list(store.snapshot(tip).atoms.load().values())
        plan = plan_and_stage(repo, atoms, project, now_utc(), target_name, force, review_seen=seen)
        return plan, store.tip() == tip

    return stage_retrying(repo, once, "git memory stage")


def stage_retrying(repo: git.Repo, once: Callable[[str | None], tuple[StagePlan, bool]],
                   command: str) -> StagePlan:
    """Sessions ending together stage at once. `once(seen)` reads what it stages and stages it
    against `seen`, where memory/review was read before that: a stager that wrote the branch
    after that read (it may have seen less) makes this one's compare-and-set fail, and this one
    stages again from fresh reads; `once` returns False as well when its inputs moved under it.
    Staging is deterministic, so a stager whose race a later one covered writes nothing new
    and is no error. Bounded: only a review branch that keeps moving is reported."""
    plan: StagePlan | None = None
    for attempt in range(STAGE_ATTEMPTS):
        seen = git.ref_target(repo, git.REVIEW_REF)
        try:
            plan, settled = once(seen)
        except ReviewMovedError:
            time.sleep(random.uniform(0.01, 0.05) * (attempt + 1))
            continue
        if settled:
            return plan
    if plan is not None:
        return plan  # staged from inputs that have since grown: whoever added them stages them
    raise RepoStateError("memory/review kept moving while staging (other sessions are staging)",
                         hint=f"run `{command}` again")


@dataclass(frozen=True)
class Proposal:
    atom_id: str
    entry: LogEntry
    message: str


def write_review_branch(repo: git.Repo, base_oid: str, files: TierFiles, proposals: Sequence[Proposal],
                        force: bool, review_seen: str | None = _UNREAD,
                        ) -> tuple[list[tuple[str, str]], dict[str, list[str]], TierFiles]:
    """Rebuild memory/review: one commit per proposal on top of `base_oid`, dated by the
    proposal itself (deterministic), each checked by the guard first. Returns the staged
    (commit, atom id) pairs, the refused atoms with reasons, and the resulting files.
    `review_seen`: where memory/review was read before the atoms were (stage_current); the
    update is made against it, so a stage from atoms older than the branch's fails."""
    existing = git.ref_target(repo, git.REVIEW_REF) if review_seen == _UNREAD else review_seen
    if existing and not force:
        _refuse_hand_edits(repo, existing)
    tip, tree = base_oid, git.commit_tree(repo, base_oid)
    written = git.Written()  # restored if a concurrent prune deletes them before the ref names them
    staged: list[tuple[str, str]] = []
    refused: dict[str, list[str]] = {}
    for proposal in proposals:
        entry = proposal.entry
        # The guard runs on what this promotion adds (the base was guarded when committed):
        # redaction is the only barrier on the verified fast path, so it is checked again here.
        # The block is judged by the line it will show (render.inert writes no import or
        # comment into it), the log by the line it gains.
        findings = guard.scan_text(LOG_PATH, adopted_log.format_entry(entry)) + guard.scan_text(
            files.target_name, render.atom_line(entry.atom, None) + "\n")
        if findings:
            refused[proposal.atom_id] = [f"guard: {guard.format_finding(f)}" for f in findings[:3]]
            again = remember_again(str(entry.atom["claim"]), files.tier == "L3")
            if again and all(f.rule == "worktree-path" for f in findings):
                refused[proposal.atom_id].append(again)  # the one thing that helps (model/checkout.py)
            continue
        files = files.append([entry])
        tree = git.build_tree(repo, tree, {p: t.encode("utf-8") for p, t in files.paths().items()}, written)
        tip = git.create_commit(repo, tree, [tip], proposal.message, when=_when(entry.at), written=written)
        staged.append((tip, proposal.atom_id))
    moved = ReviewMovedError("memory/review moved while staging", hint="run the stage command again")
    # Read before the atoms (stage_current): writing nothing is only right if it is still there.
    unchanged_matters = review_seen != _UNREAD
    if not staged:
        if existing:
            try:
                git.delete_ref(repo, git.REVIEW_REF, existing)
            except RepoStateError:
                if git.ref_target(repo, git.REVIEW_REF) != existing:
                    raise moved from None
                raise
        elif unchanged_matters and git.ref_target(repo, git.REVIEW_REF) is not None:
            raise moved
        return staged, refused, files
    if tip != existing:
        try:
            git.cas_update_ref(repo, git.REVIEW_REF, tip, existing, "agent-memory: stage", written)
        except RefMovedError as exc:
            raise moved from exc
    elif unchanged_matters and git.ref_target(repo, git.REVIEW_REF) != existing:
        raise moved
    _record_ours(repo, tip)
    return staged, refused, files


def _record_ours(repo: git.Repo, tip: str) -> None:
    """Note in the capture ledger (its `store` line for memory/review) that this repository
    staged memory/review at `tip`: what `foreign_review` takes as ours."""
    from agent_memory.transcripts.ledger import record_store_tip

    record_store_tip(repo.common_dir, git.REVIEW_REF, tip)


def foreign_review(repo: git.Repo, store: L1Store | None) -> list[str]:
    """The atom ids staged on memory/review that no stage of this repository's put there: []
    when the branch is ours (or absent). A bare or mirror clone, or a fetch into refs/heads,
    brings the author's memory/review without their memory/atoms (which `L1Store.
    refuse_if_foreign` refuses), and adopt then offered the author's staged items as the
    person's own to commit. Decided as for the store, from local records no clone carries:
    ours when the ledger's memory/review line (every stage writes one) is its tip or one it
    holds; else when every item's atom is one this store holds or forgot (stage proposes only
    atoms of the store: a branch staged by a version before that line) — or one its history
    held (expired or evicted from it since: `ever_held`). `store` None: no store of this
    repository's to vouch for the items (one that came with the clone too), only the ledger."""
    from agent_memory.transcripts.ledger import recorded_store_tip

    tip = git.ref_target(repo, git.REVIEW_REF)
    if tip is None:
        return []
    recorded = recorded_store_tip(repo.common_dir, git.REVIEW_REF)
    if recorded and (recorded == tip or porcelain.is_ancestor(repo, recorded, tip)):
        return []
    known: set[str] = set()
    if store is not None and store.exists():
        snap = store.snapshot()
        known = set(snap.atoms) | set(snap.tombstones)
    against = [f"^{ref}" for ref in base_refs(repo)] + (["^HEAD"] if git.head_commit(repo) else [])
    # A commit too large for any of ours names no item of ours: passed over, unread.
    ids = {trailer(git.message_within(repo, oid) or "", "Atom-Id") for oid in git.rev_list(repo, tip, *against)}
    unknown = sorted(str(ident) for ident in ids if ident and ident not in known)
    # An item staged then dropped from the store (expired, evicted over the cap) is still ours:
    # read from the store's history, on this path only (a branch staged before the ledger line).
    held = ever_held(repo, unknown) if unknown and store is not None and store.exists() else set()
    return [ident for ident in unknown if ident not in held]


def ever_held(repo: git.Repo, ids: Sequence[str]) -> set[str]:
    """The ids among `ids` whose atom file some commit of memory/atoms added or removed, in
    either layout (`git log --name-only` over their paths: one walk of the store's history)."""
    from agent_memory.gitio.refs import ATOMS_REF, atom_paths

    paths = [path for ident in ids for path in atom_paths(ident)]
    proc = git.run_git(repo.cwd, "log", "--format=", "--name-only", "--no-renames", ATOMS_REF, "--", *paths,
                       check=False)  # fmt: skip
    if proc.returncode != 0:
        return set()
    touched = {line.rsplit("/", 1)[-1].removesuffix(".json") for line in proc.stdout.splitlines() if line}
    return touched & set(ids)


# What adopt, pr and status say to do with a memory/review that is not this repository's.
FOREIGN_REVIEW_THEN = "stage your own with `git memory stage`"


def foreign_review_error(repo: git.Repo, store: L1Store, outcome: str,
                         then: str = FOREIGN_REVIEW_THEN) -> RepoStateError | None:  # fmt: skip
    """The refusal (exit 3) of a memory/review that is not this repository's
    (`foreign_review`), or None when it is ours or absent; `outcome` says what did not happen,
    `then` the command to run once it is set aside. adopt and pr raise it, status shows it."""
    foreign = foreign_review(repo, store)
    if not foreign:
        return None
    shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
    return RepoStateError(
        "memory/review is here, but no `git memory stage` of this repository wrote it: it came with the clone "
        f"or a fetch, and its staged {plural(len(foreign), 'item')} ({shown}) {'is' if len(foreign) == 1 else 'are'} "
        "someone else's (adopting one "
        f"would commit it as your decision); {outcome}",
        hint=f"set it aside with git branch -m memory/review memory/review-cloned, then {then}")


def refuse_foreign_review(repo: git.Repo, store: L1Store, outcome: str, then: str = FOREIGN_REVIEW_THEN) -> None:
    """Raise `foreign_review_error` when there is one, before anything is read from
    memory/review as the person's."""
    error = foreign_review_error(repo, store, outcome, then)
    if error is not None:
        raise error


def _l2_overflow(held: dict[str, Atom]) -> list[str]:

    return list(l2_overflow(list(held.values()), cap=L2_CAP))


def _refuse_hand_edits(repo: git.Repo, tip: str) -> None:
    """A review branch a person has edited (a commit not made by agent-memory, or without our
    trailers) is not overwritten without --force. The base it was built on, once the base
    branch dropped it (a reset of an adopt commit), is no edit: rebuilt (promote/review_base).
    The refusal says what is known of the commit it names (review_base.foreign_commit_refusal)."""
    refs = base_refs(repo)
    commits = git.rev_list(repo, tip, *[f"^{ref}" for ref in refs])
    others = [oid for oid in commits if not made_by_us(repo, oid)]
    theirs = set(others)
    dropped = dropped_base(repo, others, refs, [oid for oid in commits if oid not in theirs])
    others = [oid for oid in others if oid not in dropped]
    if others:
        raise foreign_commit_refusal(repo, commits, others, refs)


def review_items(repo: git.Repo, against: str = "HEAD",
                 skipped: list[tuple[str, int]] | None = None) -> list[tuple[str, str, str]]:  # fmt: skip
    """(commit, atom id, promotion) for each commit on memory/review not yet in `against`. One
    too large for any of ours (a clone's or a pull's, of a huge message) is no item: passed
    over unread, (id, size) in `skipped` — where it refused every verb that lists the items."""
    tip = git.ref_target(repo, git.REVIEW_REF)
    if tip is None:
        return []
    refs = base_refs(repo)
    negs = [f"^{against}", *[f"^{ref}" for ref in refs]]
    commits = git.rev_list(repo, tip, *negs)
    out: list[tuple[str, str, str]] = []
    others: list[str] = []
    for oid in commits:
        message = git.message_within(repo, oid, skipped)
        if message is None:
            continue
        ident = trailer(message, "Atom-Id")
        if ident:
            out.append((oid, ident, trailer(message, "Promotion") or "L1->L2"))
            if not made_by_us(repo, oid, message):
                others.append(oid)
    # One of someone else's naming an atom: the base the review was built on, when the branch
    # dropped it since (an adopt commit reset away), is no staged item (promote/review_base.py).
    theirs = set(others)
    dropped = dropped_base(repo, others, refs, [oid for oid, _, _ in out if oid not in theirs])
    return [item for item in out if item[0] not in dropped]


def commits_unread(skipped: Sequence[tuple[str, int]], limit: int, outcome: str) -> list[str]:
    """One warning line for each commit (id, size) left unread over `limit`, saying `outcome`."""
    return [f"commit {oid[:10]} is {size} bytes, more than agent-memory reads of a commit ({limit}): {outcome}"
            for oid, size in dict.fromkeys(skipped)]  # fmt: skip


def passed_over(skipped: Sequence[tuple[str, int]], where: str = "memory/review") -> list[str]:
    """The warning lines for the commits review_items passed over (`skipped`), one each."""
    from agent_memory.model.policy import MAX_COMMIT_OBJECT_BYTES

    return commits_unread(skipped, MAX_COMMIT_OBJECT_BYTES, f"none of ours, passed over on {where}")


def staged_entry(repo: git.Repo, commit: str, atom_id: str) -> LogEntry | None:
    """The adopted.log line a review commit added for `atom_id`."""
    after = (git.read_blob_at(repo, commit, LOG_PATH) or b"").decode("utf-8", "replace")
    parents = git.commit_parents(repo, commit)
    before = (git.read_blob_at(repo, parents[0], LOG_PATH) or b"").decode("utf-8", "replace") if parents else ""
    seen = set(before.splitlines())
    entries, _ = adopted_log.parse("\n".join(line for line in after.splitlines() if line not in seen) + "\n")
    for entry in entries:
        if entry.atom_id == atom_id:
            return entry
    return None


def auto_stage(repo: git.Repo, store: L1Store, project: str) -> tuple[list[tuple[str, str]], str | None]:
    """Stage promotions when something is eligible (memory.autoStage, default on). The capture
    is already committed, so a refusal to stage (no default branch yet, a hand-edited block)
    is returned as a warning, never raised: it must not turn a good capture into a failure."""
    setting = (git.config_get(repo.cwd, "memory.autoStage") or "true").lower()
    if setting in ("false", "no", "off", "0") or repo.bare:
        return [], None
    try:
        plan = plan_and_stage(repo, store.atoms(), project, now_utc(), target_file(repo), dry_run=True)
        mark_held(store, plan.held)  # items adopted by merging the review PR
        if not any(r.eligible for r in plan.results):
            return [], None
        return stage_current(repo, store, project, target_file(repo)).staged, None
    except TooManyAtomsError as exc:  # the line every other reader of the session's end gives
        log_too_many_atoms(exc, repo.cwd)
        return [], f"not staged: {exc.message}"
    except FatalError as exc:
        warning = f"not staged: {exc.message.removesuffix('; ' + NOT_STAGED)}" + (
            f" (hint: {exc.hint})" if exc.hint else "")
        # Its cause lasts (a foreign memory/review, a hand-edited block): every session's end
        # meets it again, said once a day so it does not push every other error out of the log.
        log_error(f"auto-stage after capture: {warning}", repo.cwd, once_a_day=True)
        return [], warning
