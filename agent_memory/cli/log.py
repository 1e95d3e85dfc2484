"""`git memory log ID`: an atom's whole life across refs, one line per commit, newest first.

- memory/atoms (its file `atoms/<id>.json` and tombstone): each capture, the review decisions
  recorded on the L1 record (held, rejected), verify, resolve, expiry, forget and undo;
- memory/review, including the staging commits of earlier rebuilds (through the reflog);
- the branch (HEAD, the base branch and its remote-tracking ref): the adoption commit (or the
  merged pull request that carried the staging commit), demotions, pin/unpin/decay/supersede/
  forget of the adopted line, and `git revert` of an adoption;
- for a global atom, the same in the global memory repo."""

from __future__ import annotations

import argparse
from typing import Any

from agent_memory.cli import colour
from agent_memory.cli.ids import NoMatch, find_atom
from agent_memory.cli.output import store_here
from agent_memory.cli.report import Report
from agent_memory.committed import tiers
from agent_memory.committed.global_repo import GlobalRepo
from agent_memory.gitio import porcelain
from agent_memory.gitio import repo as git
from agent_memory.model.atom import is_atom_id
from agent_memory.model.errors import UsageError
from agent_memory.model.policy import MAX_COMMIT_BYTES
from agent_memory.model.tags import CLAUDE_MEMORY, is_claude_memory
from agent_memory.model.trailers import subject_op, trailer
from agent_memory.store.l1 import L1Store

# What each op means, said once per line in text output.
MEANING = {
    "capture": "seen in a session",
    "contested": "not seen: a claim captured in that session contradicts it",
    "held": "L1 record marked adopted: not staged again, kept past the L1 expiry",
    "reject": "rejected at review: not staged again until new sessions say it",
    "remember-again": "said again with git memory remember: the earlier rejection or forget set aside",
    "verify": "raised to verified by a command",
    "resolve": "a contradiction settled",
    "expire": "dropped from L1: not seen again within the expiry",
    "forget": "forgotten (tombstoned: capture will not re-learn it)",
    "unforget": "restored as it was (git memory forget --undo)",
    "stage": "staged for review on memory/review",
    "stage-demote": "demotion to L1 staged on memory/review (L2 cap)",
    "adopt": "adopted: committed into the memory block",
    "merged": "adopted by merging the review pull request",
    "demote": "demoted from L2 back to L1",
    "revert": "adoption reverted with git revert",
}


def _utc(date: str) -> str:
    """A date git printed (`%cI`, a reflog's iso-strict), in UTC: the streams of several refs
    are merged by comparing these strings, and commits made in other zones (the user's own,
    the L1 store's UTC) must compare as times."""
    from agent_memory.model.clock import parse_time

    try:
        return parse_time(date).isoformat(timespec="seconds")
    except (ValueError, OverflowError):
        return date


def _entry(entry: git.LogEntry, op: str, where: str) -> dict[str, str]:
    return {"oid": entry.oid, "op": op, "date": _utc(entry.date), "ref": where,
            "session": trailer(entry.body, "Session-Id") or "", "subject": entry.subject}


def _l1_history(repo: git.Repo, atom_id: str) -> list[dict[str, str]]:
    out = []
    for entry in porcelain.log_paths(repo, git.ATOMS_REF, [f"atoms/{atom_id}.json", f"tombstones/{atom_id}.json"]):
        op = trailer(entry.body, "Op") or subject_op(entry.subject)
        if op == "adopt":
            op = "held"
        item = _entry(entry, op, "memory/atoms")
        if op == "capture" and item["session"] and _contested_there(repo, atom_id, item):
            item["op"] = "contested"
        out.append(item)
    return out


def _atom_at(repo: git.Repo, rev: str, atom_id: str) -> dict[str, Any] | None:
    import json

    from agent_memory.gitio.refs import atom_paths

    for path in atom_paths(atom_id):
        blob = git.read_blob_at(repo, rev, path)
        if blob is not None:
            try:
                atom = json.loads(blob)
            except ValueError:
                return None
            return atom if isinstance(atom, dict) else None
    return None


def _contested_there(repo: git.Repo, atom_id: str, commit: dict[str, str]) -> bool:
    """A capture commit that changed the atom's file without a sighting of it: the session
    brought a claim that contradicts it (the file now names it in `contested_by`). Read only
    when the session is not among the atom's sessions as the commit left it."""
    atom = _atom_at(repo, commit["oid"], atom_id)
    if atom is None:
        return False
    return commit["session"] not in (atom.get("sessions") or []) and bool(atom.get("contested_by"))


def _branch_history(repo: git.Repo, atom_id: str, label: str = "", foreign_tip: str | None = None,
                    skipped: list[tuple[str, int]] | None = None) -> list[dict[str, str]]:  # fmt: skip
    """Staging commits (memory/review, past and present) and what happened on the branch; none
    that `foreign_tip` holds (a memory/review no stage here wrote: the author's, come with a
    clone or a fetch, whose staging is no part of an atom's life in this repository)."""
    base = git.default_branch(repo)
    branch_refs = ["HEAD"]
    if base:
        branch_refs.append(f"refs/heads/{base}")
        tracking = porcelain.tracking_ref(repo, base)
        if tracking:
            branch_refs.append(tracking)
    branch_refs = porcelain.existing_refs(repo, branch_refs)
    out = []
    needle = f"Atom-Id: {atom_id}"
    adopt_commits = []
    stagings = porcelain.reflog(repo, git.REVIEW_REF)
    for entry in porcelain.log_grep(repo, needle, [*branch_refs, git.REVIEW_REF], reflog=True, skipped=skipped):
        if trailer(entry.body, "Atom-Id") != atom_id:
            continue
        promotion = trailer(entry.body, "Promotion")
        on_branch = any(porcelain.is_ancestor(repo, entry.oid, ref) for ref in branch_refs)
        if promotion and not on_branch and foreign_tip and porcelain.is_ancestor(repo, entry.oid, foreign_tip):
            continue
        if promotion:
            op = "stage-demote" if promotion == "L2->L1" else "stage"
            where = "memory/review"
            if on_branch and op == "stage":
                op, where = "merged", branch_refs[0]
        else:
            if not on_branch:
                continue  # an adoption on another branch, or one undone by a reset
            op = trailer(entry.body, "Memory-Op") or (
                entry.subject.split(" ")[1] if entry.subject.startswith("memory: ") else subject_op(entry.subject))
            where = _branch_name(repo)
            if op == "adopt":
                adopt_commits.append(entry.oid)
        item = _entry(entry, op, label + where)
        if promotion:
            # A staging commit is dated by its evidence (deterministic re-staging): when it was
            # staged is the first reflog entry of memory/review that contains it.
            item["date"] = next((_utc(when) for tip, when in stagings
                                 if tip == entry.oid or porcelain.is_ancestor(repo, entry.oid, tip)), item["date"])
            if op == "merged":
                # merged when the commit that brought it onto the branch was made (a merge
                # commit); the staging date, or its evidence's, would put it before captures
                item["date"] = _merged_at(repo, entry.oid, branch_refs[0]) or item["date"]
        out.append(item)
    for oid in adopt_commits:
        for entry in porcelain.log_grep(repo, f"This reverts commit {oid}", branch_refs, skipped=skipped):
            out.append(_entry(entry, "revert", label + _branch_name(repo)))
    return out


def _merged_at(repo: git.Repo, oid: str, ref: str) -> str | None:
    """When `oid` reached `ref` through a merge: the date of the commit of `ref`'s first-parent
    line that brought it in (the merge; not the next staging commit of the merged branch, which
    also descends from it). None when `oid` was on that line already (a fast-forward)."""
    descendants = set(git.run_git(repo.cwd, "rev-list", "--ancestry-path", f"{oid}..{ref}", "--",
                                  check=False).stdout.split())  # fmt: skip
    line = git.run_git(repo.cwd, "rev-list", "--first-parent", "--reverse", f"{oid}..{ref}", "--",
                       check=False).stdout.split()  # fmt: skip
    first = next((commit for commit in line if commit in descendants), None)
    if first is None:
        return None
    if git.run_git(repo.cwd, "merge-base", "--is-ancestor", oid, f"{first}^1", check=False).returncode == 0:
        return None  # its line held it before: fast-forwarded, the staging commit's own date stands
    when = git.run_git(repo.cwd, "show", "-s", "--format=%cI", first, check=False).stdout.strip()
    return _utc(when) if when else None


def _branch_name(repo: git.Repo) -> str:
    proc = git.run_git(repo.cwd, "symbolic-ref", "--quiet", "--short", "HEAD", check=False)
    return proc.stdout.strip() or "HEAD"


# Among commits of one second (or a pinned clock), which came later in an atom's life.
_LATER = {"capture": 0, "verify": 1, "resolve": 1, "reject": 2, "stage": 3, "stage-demote": 3,
          "contested": 0, "adopt": 4, "merged": 4, "held": 5, "pin": 6, "unpin": 6, "decay": 6, "supersede": 6,
          "demote": 6, "revert": 6, "expire": 7, "unforget": 9}


def _rank(commit: dict[str, str]) -> int:
    if commit["op"] == "forget":  # the block's line goes first, then the L1 record
        return 8 if commit["ref"] == "memory/atoms" else 7
    if commit["op"] == "unforget":
        return 10 if commit["ref"] == "memory/atoms" else 9
    return _LATER.get(commit["op"], 5)


def _merge_newest_first(streams: list[list[dict[str, str]]]) -> list[dict[str, str]]:
    """Merge per-ref histories (each newest first, in its ref's own order) by date; equal dates
    are settled by the life cycle's order, never against a ref's own order."""
    heads = [list(s) for s in streams if s]
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    while heads:
        best = max(range(len(heads)), key=lambda i: (heads[i][0]["date"], _rank(heads[i][0])))
        commit = heads[best].pop(0)
        if not heads[best]:
            heads.pop(best)
        if commit["oid"] not in seen:
            seen.add(commit["oid"])
            out.append(commit)
    return out


def _with_sources(repo: git.Repo, atom_id: str, commits: list[dict[str, str]]) -> list[dict[str, str]]:
    """Each capture of Claude's own memory with the atom's back-pointer as that commit left it
    (the transcript line of the call that last wrote the memory file)."""
    import json

    from agent_memory.gitio.refs import atom_paths

    for commit in commits:
        if commit["op"] != "capture":
            continue
        for path in atom_paths(atom_id):
            blob = git.read_blob_at(repo, commit["oid"], path)
            if blob is not None:
                try:
                    commit["source"] = str(json.loads(blob)["source"])
                except (ValueError, KeyError, TypeError):
                    pass
                break
    return commits


def history(repo: git.Repo, atom_id: str, sources: bool = False, store: L1Store | None = None,
            skipped: list[tuple[str, int]] | None = None) -> list[dict[str, str]]:
    """`skipped`: (id, size) of each commit left out unread, over MAX_COMMIT_BYTES (log_grep)."""
    from agent_memory.promote.review import foreign_review

    l1 = _l1_history(repo, atom_id)
    streams = [_with_sources(repo, atom_id, l1) if sources else l1]
    if repo.workdir is not None:
        foreign = store is not None and bool(foreign_review(repo, store))
        branch = _branch_history(repo, atom_id, foreign_tip=git.ref_target(repo, git.REVIEW_REF) if foreign else None,
                                 skipped=skipped)
        streams += [[c for c in branch if c["ref"].endswith("memory/review")],
                    [c for c in branch if not c["ref"].endswith("memory/review") and c["op"] != "revert"],
                    [c for c in branch if c["op"] == "revert"]]
    streams.append(_global_history(atom_id, skipped))
    return _merge_newest_first([sorted(s, key=lambda c: c["date"], reverse=True) for s in streams])


def _global_history(atom_id: str, skipped: list[tuple[str, int]] | None = None) -> list[dict[str, str]]:
    home = GlobalRepo.default()
    if not home.exists() or atom_id not in _global_ids(home):
        return []
    return _branch_history(home.repo(), atom_id, label="global:", skipped=skipped)


def _global_ids(home: Any) -> set[str]:
    ids = set(tiers.l3_atoms(home.path))
    proc = git.run_git(home.path, "log", "--all", "--format=%(trailers:key=Atom-Id,valueonly)", check=False)
    ids.update(line.strip() for line in proc.stdout.splitlines() if line.strip())
    return ids


def run(args: argparse.Namespace) -> Report:
    repo, store = store_here()
    snap = store.snapshot()
    key = args.id
    # Only an id is looked up in the store by name: words of a claim are matched below (a
    # store path made of them, `Straße` in a C locale, was an internal error in pygit2).
    if not is_atom_id(key) or (key not in snap.atoms and key not in snap.tombstones):
        candidates = {**snap.atoms, **tiers.l2_atoms(repo.workdir), **tiers.l3_atoms()}
        try:
            key = find_atom(candidates, args.id)["id"]
        except NoMatch:
            if not is_atom_id(key):  # a well-formed id may have a history (a global one, gone)
                raise
    skipped: list[tuple[str, int]] = []
    commits = history(repo, key, sources=is_claude_memory(snap.atoms.get(key)), store=store, skipped=skipped)
    from agent_memory.promote.review import commits_unread

    # A commit over MAX_COMMIT_BYTES naming the atom (a clone's, of a 300 MB message) is said, unread.
    left_out = commits_unread(skipped, MAX_COMMIT_BYTES, "left out of this history")
    if not commits:
        if left_out:
            raise UsageError(f"no history for {args.id} but a commit left out: {left_out[0]}",
                             hint=f"see who wrote it: `git show --stat {skipped[0][0][:10]}`")
        raise UsageError(f"no history for {args.id}", hint="`git memory show` lists the atoms")  # as every ID's hint
    report = Report({"id": key, "commits": commits, "left_out": [{"oid": o, "bytes": n} for o, n in dict.fromkeys(skipped)]})
    report.warn(*left_out)
    width = max([14, *(len(c["ref"]) for c in commits)])  # `global:memory/review` is 20: columns stay aligned
    for c in commits:
        session = f"  session {c['session']}" if c["session"] else ""
        op = colour.paint(c["op"].ljust(12), _role(c["op"]))
        report.say(f"{colour.paint(c['oid'][:10], 'id')}  {c['date'][:19]}  {c['ref']:<{width}} {op} {c['subject']}{session}")
        if c.get("source"):
            report.say(f"{'':{width + 34}}{CLAUDE_MEMORY}, back-pointer {c['source']}")
    seen = list(dict.fromkeys(c["op"] for c in commits if c["op"] in MEANING))
    return report.say(colour.paint("\n".join(f"  {op}: {MEANING[op]}" for op in reversed(seen)), "dim"))


def _role(op: str) -> str:
    return {"adopt": "L2", "merged": "L2", "held": "L2", "stage": "staged", "reject": "refused",
            "forget": "refused", "revert": "refused", "capture": "L1",
            "contested": "refused"}.get(op, "")
