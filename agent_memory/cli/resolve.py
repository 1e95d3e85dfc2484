"""`git memory resolve ID --keep ID`: a person settles a contradiction (never
automatic). The kept atom loses its contest; the other is demoted (rejected at L1, and taken
out of the L2 block when adopted) or, with --forget-other, forgotten (tombstoned at L1, and
forgotten in the block). Recorded in commits: one on memory/atoms, plus one on the current
branch when the dropped atom was adopted."""

from __future__ import annotations

import argparse

from agent_memory.cli.ids import find_atom
from agent_memory.cli.output import store_here, warm_session_start
from agent_memory.cli.report import Report
from agent_memory.committed import tiers
from agent_memory.gitio import repo as git
from agent_memory.model.atom import Atom
from agent_memory.model.clock import now_utc
from agent_memory.model.errors import UsageError
from agent_memory.store.l1 import Change, Snapshot, summarize


def _linked(a: Atom, b: Atom) -> bool:
    return a["id"] in (b.get("contested_by") or []) or b["id"] in (a.get("contested_by") or [])


def _only_partner(pool: dict[str, Atom], keep: Atom) -> Atom:
    """`resolve ID --keep ID` (the same atom): the other side is the one atom it is contested
    with — so the `git memory resolve OLDER --keep <id>` hint works for keeping the older too."""
    partners = sorted(
        {a["id"] for a in pool.values() if a["id"] != keep["id"] and _linked(a, keep)}
    )
    if len(partners) != 1:
        raise UsageError(
            f"{keep['id']} is contested with {len(partners)} atoms"
            if partners
            else f"{keep['id']} is not in a contested pair",
            hint="name the atom to drop and the one to keep: git memory resolve DROP --keep KEEP",
        )
    return pool[partners[0]]


def _settled(repo: git.Repo, keep: str, other: str) -> bool:
    """Whether a resolve on memory/atoms kept `keep` and dropped `other` (its trailers)."""
    proc = git.run_git(repo.cwd, "log", git.ATOMS_REF, "--fixed-strings", f"--grep=Dropped: {other}",
                       "--format=%(trailers:key=Kept,valueonly,separator=%x20)%x09%(trailers:key=Dropped,valueonly,separator=%x20)",
                       check=False, errors="replace")  # fmt: skip
    return any(line.split("\t") == [keep, other] for line in proc.stdout.splitlines())


def run(args: argparse.Namespace) -> Report:
    repo, store = store_here()
    snap = store.snapshot()
    held = tiers.l2_atoms(repo.workdir)
    pool = {**held, **snap.atoms}
    first, keep = find_atom(pool, args.id), find_atom(pool, args.keep)
    other = first if first["id"] != keep["id"] else _only_partner(pool, keep)
    if not _linked(other, keep):
        if _settled(repo, keep["id"], other["id"]):
            # the same command again (the hint of `inspect --contested`, run twice): nothing to
            # do, as a rerun of adopt or forget says, not "not a contested pair"
            return Report({"kept": keep["id"], "dropped": other["id"], "commit": None, "l2_commit": None,
                           "already": True},
                          [f"{other['id']} and {keep['id']} were settled already, keeping {keep['id']}; nothing to do"])
        raise UsageError(
            f"{other['id']} and {keep['id']} are not a contested pair",
            hint="see open pairs with `git memory inspect --contested`",
        )
    l2_commit = None
    if other["id"] in held:
        # The committed side first: it checks the memory files are clean and consistent, so a
        # refusal there leaves memory/atoms untouched too.
        from agent_memory.adoption.lifecycle import apply_l2_op

        l2_commit = apply_l2_op(
            repo,
            other["id"],
            "forget" if args.forget_other else "demote",
            note=f"Contradiction resolved by a person in favour of {keep['id']}: {summarize(keep)}",
            verb="git memory resolve",
        )
        warm_session_start(repo)
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")

    def compute(s: Snapshot) -> Change | None:
        change = Change(
            subject=f"resolve: keep {summarize(keep, 50)}",
            body=[
                f"kept {keep['id']}: {summarize(keep)}",
                f"dropped {other['id']}: {summarize(other)}",
            ],
            trailers=[("Op", "resolve"), ("Kept", keep["id"]), ("Dropped", other["id"])],
        )
        kept = s.atoms.get(keep["id"])
        if kept is not None:
            cleaned = kept.copy()
            cleaned.pop("contested", None)
            cleaned.pop("contested_by", None)
            rest = [i for i in kept.get("contested_by", []) if i != other["id"]]
            if rest:
                cleaned["contested"] = True
                cleaned["contested_by"] = rest
            change.writes[keep["id"]] = cleaned
        dropped = s.atoms.get(other["id"])
        if dropped is not None:
            if args.forget_other:
                change.deletes.add(other["id"])
                change.tombstone_writes[other["id"]] = {
                    "id": other["id"],
                    "claim": other["claim"],
                    "forgotten_at": at,
                    "atom": dropped,
                }
            else:
                cleaned = dropped.copy()
                cleaned.pop("contested", None)
                cleaned.pop("contested_by", None)
                cleaned["review"] = {
                    "state": "rejected",
                    "at": at,
                    "sessions": len(dropped["sessions"]),
                }
                change.writes[other["id"]] = cleaned
        return change if not change.empty() else None

    commit, _ = store.transact(compute)
    return Report({"kept": keep["id"], "dropped": other["id"], "commit": commit, "l2_commit": l2_commit},
                  [f"kept {keep['id']}: {summarize(keep)}",
                   f"{'forgot' if args.forget_other else 'demoted'} {other['id']}: {summarize(other)}"])
