"""`git memory forget ID [--undo]`: remove an atom from L1 and leave a tombstone so the same
claim is not silently re-learned; an adopted (L2) atom is also removed from the block in a
commit on the current branch. `--undo` restores what it was: the L1 record from its tombstone,
and an atom forgotten out of the L2 block goes back into it (pinned stays pinned) in a commit."""

from __future__ import annotations

import argparse

from agent_memory.adoption.adopt import (
    commit_or_restore,
    require_clean,
    require_consistent,
    require_on_branch,
    work_files,
)
from agent_memory.cli.ids import NoMatch, find_atom, global_only, resolve
from agent_memory.cli.output import store_here, warm_session_start
from agent_memory.cli.report import Report
from agent_memory.committed import tiers
from agent_memory.committed.adopted_log import LogEntry, removed
from agent_memory.committed.install import target_file
from agent_memory.gitio import repo as git
from agent_memory.model.atom import Atom
from agent_memory.model.clock import now_utc
from agent_memory.model.trailers import format_message, one_line
from agent_memory.store.l1 import Change, L1Store, Snapshot, summarize


def run(args: argparse.Namespace) -> Report:
    repo, store = store_here()
    snap = store.snapshot()
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
    if args.undo:
        return _undo(args, repo, store, snap)

    held = tiers.l2_atoms(repo.workdir)
    try:
        atom = find_atom({**held, **snap.atoms}, args.id)
    except NoMatch as exc:
        gone = _already_forgotten(repo, snap, args.id)
        if gone is None:
            refusal = global_only(args.id, "forget")
            if refusal is None:
                raise
            raise refusal from exc
        # A rerun (or a second forget of the same claim): nothing to do, as adopt says of an
        # item already decided, rather than "no atom matches" for an atom the person just saw.
        return Report({"id": gone, "commit": None, "l2_commit": None, "already": True},
                      [f"{gone} is already forgotten; nothing to do", f"  undo: git memory forget --undo {gone}"])  # fmt: skip
    ident = atom["id"]
    l2_commit = None
    if ident in held:
        from agent_memory.adoption.lifecycle import apply_l2_op

        l2_commit = apply_l2_op(repo, ident, "forget")
        warm_session_start(repo)

    def forget(s: Snapshot) -> Change | None:
        current = s.atoms.get(ident)
        if current is None and ident in s.tombstones:
            return None
        stone = {"id": ident, "claim": atom["claim"], "forgotten_at": at, "atom": current}
        change = Change(
            subject=f"forget: {summarize(atom, 60)}",
            trailers=[("Op", "forget"), ("Atom-Id", ident)],
            tombstone_writes={ident: stone},
            body=[
                "Tombstoned: capture will not re-learn this claim. Undo: git memory forget --undo "
                + ident
            ],
        )
        if current is not None:
            change.deletes.add(ident)
        return change

    commit, _ = store.transact(forget)
    report = Report({"id": ident, "commit": commit, "l2_commit": l2_commit}, [f"forgot {ident}: {summarize(atom)}"])
    if l2_commit:
        report.say(f"  removed from the L2 block in {l2_commit[:10]}")
    return report.say(f"  undo: git memory forget --undo {ident}")


def _forgotten_claims(repo: git.Repo, snap: Snapshot) -> tuple[dict[str, Atom], dict[str, str]]:
    """What `forget --undo` can restore: the atoms a `forget` line took out of the block, and
    the claim of every forgotten atom (tombstoned on memory/atoms or out of the block)."""
    out_of_block = _forgotten_in_block(repo)
    claims = {i: str(a.get("claim", "")) for i, a in out_of_block.items()}
    claims.update({i: str(stone.get("claim", "")) for i, stone in snap.tombstones.items()})
    return out_of_block, claims


def _already_forgotten(repo: git.Repo, snap: Snapshot, key: str) -> str | None:
    """The forgotten atom `key` names when it names no live one, else None."""
    try:
        return resolve(key, _forgotten_claims(repo, snap)[1])
    except NoMatch:
        return None


def _forgotten_in_block(repo: git.Repo) -> dict[str, Atom]:
    """Each atom a `forget` line took out of the block and nothing brought back, as the block
    held it before that line (an atom held, never adopted here, or gone from the block another
    way is not here). In the order the block folds the log (`adopted_log.fold`): a union merge
    can land a teammate's older line after the forget, and a teammate's later pin of it
    changes nothing."""
    if repo.workdir is None:
        return {}
    entries, _ = tiers.read_log(repo.workdir)
    return {ident: atom for ident, (line, atom) in removed(entries).items() if line.op == "forget"}


def _restore_l2(repo: git.Repo, ident: str, atom: Atom) -> str:
    """Put the forgotten line back into the block as it was (pinned stays pinned): one
    `git commit` on the current branch, like every L2 change."""

    assert repo.workdir is not None
    target = target_file(repo)
    require_on_branch(repo, "git memory forget --undo")
    require_clean(repo, target, "git memory forget --undo")
    before = work_files(repo.workdir, "L2", target)
    require_consistent(before)
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
    after = before.append([LogEntry(op="adopt", atom=atom, at=at)])
    message = format_message(
        f"memory: unforget {one_line(str(atom['claim']), 68)}",
        ["Restored as it was before `git memory forget` (git memory forget --undo)."],
        [("Atom-Id", ident), ("Memory-Op", "unforget")],
    )
    return commit_or_restore(repo, before, after, message, refused=f"the commit restoring {ident} was refused",
                             hint="nothing was restored; fix what the hook reported and retry")


def _undo(args: argparse.Namespace, repo: git.Repo, store: L1Store, snap: Snapshot) -> Report:
    # Forgotten: tombstoned on memory/atoms, or taken out of the block by a `forget` line that
    # is its last word — a forget killed after its commit (or one pulled from a teammate) left
    # no tombstone, and is undone all the same.
    out_of_block, claims = _forgotten_claims(repo, snap)
    try:
        ident = resolve(args.id, claims)
    except NoMatch as exc:
        raise NoMatch(f"{args.id} is not forgotten", hint=f"see its history with `git memory log {args.id}`") from exc
    l2_atom = out_of_block.get(ident)
    l2_commit = _restore_l2(repo, ident, l2_atom) if l2_atom is not None else None
    if l2_commit:
        warm_session_start(repo)

    def restore(s: Snapshot) -> Change | None:
        stone = s.tombstones.get(ident)
        if stone is None:
            return None
        atom: Atom | None = stone.get("atom")
        change = Change(
            subject=f"unforget: restore {ident}",
            trailers=[("Op", "unforget"), ("Atom-Id", ident)],
            tombstone_deletes={ident},
        )
        if atom and ident not in s.atoms:
            change.writes[ident] = atom
            change.body.append(f"restored: {summarize(atom)}")
        return change

    commit, _ = store.transact(restore)
    result = {"id": ident, "restored": commit is not None or l2_commit is not None, "commit": commit,
              "l2_commit": l2_commit, "tier": "L2" if l2_commit else "L1"}
    if not result["restored"]:
        return Report(result, [f"{ident} was already restored"])
    return Report(result, [f"restored {ident}" + (f" to L2: back in the block in {l2_commit[:10]}" if l2_commit else " to L1")])
