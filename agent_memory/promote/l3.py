"""L2 → L3: read the adopted L2 atoms of every registered project (each repo's
committed `.memory/adopted.log` at its default branch), group them by the project-free id, and
stage the eligible merges on the global memory repo's own `memory/review`.

What the gate sees of a project is more than its committed log, because three facts live
elsewhere:
- *when* an atom entered L2: the commit that landed its adopt line on the default branch. The
  staged `promoted_at` is the atom's latest sighting (so staging is deterministic), which for
  old sessions adopted today would count weeks nobody held the claim at L2.
- *whether it is contested*: contradiction detection marks the L1 record of an adopted atom in
  the project's local `memory/atoms`; the committed L2 copy never carries the flag.
- *whether a person retired it*: a superseded or decayed L2 atom is not persona material.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_memory.committed import adopted_log
from agent_memory.committed.adopted_log import LOG_PATH, LogEntry
from agent_memory.committed.files import TierFiles
from agent_memory.committed.global_repo import GlobalRepo, entry_path, require_home
from agent_memory.committed.tiers import refuse_too_many_atoms
from agent_memory.gitio import repo as git
from agent_memory.gitio.memory_lock import state_folder_lock
from agent_memory.gitio.state import atomic_write
from agent_memory.model.atom import Atom, restated_ids
from agent_memory.model.clock import iso_z, now_utc, parse_ts, stamp
from agent_memory.model.errors import RefusedError, RepoStateError
from agent_memory.model.fastjson import loads_bounded
from agent_memory.model.home import git_in
from agent_memory.model.policy import (
    L2_MIN_AGE_DAYS,
    L3_CAP,
    MAX_HISTORY_DIFF_BYTES,
    MAX_LOG_BLOB_BYTES,
)
from agent_memory.model.tags import origin_label, unvouched_claude_memory
from agent_memory.model.trailers import format_message, one_line, plural
from agent_memory.promote import gates
from agent_memory.promote.gates import GateResult
from agent_memory.promote.review import (
    Proposal,
    StagePlan,
    base_files,
    base_refs,
    stage_retrying,
    staging_base,
    write_review_branch,
)
from agent_memory.store.l1 import L1Store
from agent_memory.store.remember import (
    prune_global_candidates,
    read_global_candidates,
    read_state_object,
)

L2_MIN_AGE = _dt.timedelta(days=L2_MIN_AGE_DAYS)
TARGET = "CLAUDE.memory.md"
CAP_REASON = f"L3 cap of {L3_CAP} reached — prune L3 at adopt"
# A hand-authored item's candidate, adopted since and taken out of L3 by a person: let go.
REMOVED_REASON = ("adopted at L3 before and removed since; not restaged "
                  "(re-add it with `git memory remember --global`)")


@dataclass
class ProjectsRead:
    """Every registered project's held L2 atoms (keyed by the atoms' own `project`, so two
    clones of one repository count once), plus the local L1 atoms that take part in the
    contradiction reverse join, and the registered projects that could not be read."""

    by_project: dict[str, list[Atom]] = field(default_factory=dict)
    skipped: list[dict[str, str]] = field(default_factory=list)
    # project → its L2 atom ids the person landed on its default branch themselves (as the
    # email git authors their commits with there), and → who else landed one (see gates.Adopters)
    adopters: dict[str, gates.Adopters] = field(default_factory=dict)


@dataclass
class Landings:
    """What a project's default branch says of its adopt lines: when each atom's first one
    reached it, and who landed each one (the author email of the first-parent commit that
    added it: the adopter, or the person who merged the adoption)."""

    times: dict[str, str] = field(default_factory=dict)
    by: dict[str, set[str]] = field(default_factory=dict)


def landing_times(repo: git.Repo, branch: str) -> Landings:
    """See `Landings` (committer date and author email, first-parent). RepoStateError when the
    log's history is over MAX_HISTORY_DIFF_BYTES of diffs (read_projects then skips the project,
    as it does an unreadable one): a registered clone's history decides its size."""
    out = git.git_output_within(
        repo.cwd,
        "log",
        "--first-parent",
        "--diff-merges=first-parent",
        "--reverse",
        "--format=%x00%ct %ae",
        "-p",
        "--unified=0",
        "--no-color",
        "--no-ext-diff",
        # `git log -p` runs the textconv program a diff driver names, and a project's committed
        # .gitattributes chooses the driver (`.memory/adopted.log diff=…`): none of ours runs one
        "--no-textconv",
        f"refs/heads/{branch}",
        "--",
        LOG_PATH,
        limit=MAX_HISTORY_DIFF_BYTES,
    )
    if out is None:
        raise RepoStateError(f"the history of {LOG_PATH} on {branch} is over {MAX_HISTORY_DIFF_BYTES >> 20} MB of diffs")
    landed = Landings()
    for chunk in out.split("\0")[1:]:
        head, _, diff = chunk.partition("\n")
        stamp_text, _, email = head.strip().partition(" ")
        if not stamp_text.isdigit():
            continue
        when = iso_z(_dt.datetime.fromtimestamp(int(stamp_text), _dt.UTC))
        for line in diff.splitlines():
            if not line.startswith("+{"):
                continue
            try:
                obj: Any = loads_bounded(line[1:])
                ident = str(obj["atom"]["id"]) if obj.get("op") == "adopt" else ""
            except (ValueError, KeyError, TypeError):
                continue
            if not ident:
                continue
            landed.times.setdefault(ident, when)
            landed.by.setdefault(ident, set()).add(email.strip().lower())
    return landed


def _l1_flags(repo: git.Repo) -> tuple[dict[str, Atom], list[Atom]]:
    """(L1 records by id, L1 atoms that contest something) from the project's local store.
    A contest only Claude's model made (a memory file no person adopted) is left out: it is
    reported for review in the project, but it holds nothing back from L3, as it tags no line
    in what Claude is told (store/recall/build.contested_map)."""

    store = L1Store(repo)
    if not store.exists():
        return {}, []
    atoms = store.snapshot().atoms
    unvouched = {ident for ident, atom in atoms.items() if unvouched_claude_memory(atom)}
    records = {ident: _without_contests_by(atom, unvouched) for ident, atom in atoms.items()}
    return records, [a for ident, a in records.items() if a.get("contested_by") and ident not in unvouched]


def _without_contests_by(atom: Atom, unvouched: set[str]) -> Atom:
    """`atom` as the gate reads it when the atoms in `unvouched` contest nothing."""
    listed = [str(other) for other in atom.get("contested_by") or []]
    if not listed or not set(listed) & unvouched:
        return atom
    kept = [other for other in listed if other not in unvouched]
    out: Atom = dict(atom)  # type: ignore[assignment]
    if kept:
        out["contested_by"] = kept
    else:
        out.pop("contested_by", None)
        out.pop("contested", None)
    return out


def _lines_of(text: str, project: str) -> str:
    """The lines of a repository's adopted.log that speak for the project registered for it: a
    line naming another project counts for none (one cloned repository could otherwise commit
    the same claim as L2 of two made-up projects, backdated, and pass the "held in 2 projects
    for 30 days" gate on its own). A line naming no project (it names an id) stays."""
    kept = []
    for line in text.splitlines():
        try:
            record = loads_bounded(line)  # a line nested too deep raised RecursionError
        except ValueError:
            kept.append(line)  # (the log's own parser judges what it cannot read)
            continue
        atom = record.get("atom") if isinstance(record, dict) else None
        named = atom.get("project") if isinstance(atom, dict) else None
        if named is None or str(named) == project:
            kept.append(line)
    return "\n".join(kept) + ("\n" if kept else "")


def read_projects(home: GlobalRepo) -> ProjectsRead:
    texts: list[str] = []
    landed: dict[str, str] = {}
    l1_records: dict[str, Atom] = {}
    contesting: dict[str, list[Atom]] = defaultdict(list)
    out = ProjectsRead()
    for entry in home.projects():
        name, where = str(entry["name"]), str(entry.get("path", ""))
        path = entry_path(entry)
        if path is None:
            out.skipped.append({"project": name, "path": where, "reason": "not an absolute path"})
            continue
        if not path.exists():
            out.skipped.append(
                {"project": name, "path": where, "reason": "not found on this machine"}
            )
            continue
        try:
            repo = git.find_repo(path)
            branch = git.default_branch(repo)
            if branch is None:
                out.skipped.append({"project": name, "path": where, "reason": "no default branch"})
                continue
            # its size from the object's header first: a committed log of zeros (a few KB in a
            # clone) was read whole, decoded and folded, for every promote --global anywhere
            size, data = git.read_blob_at_most(repo, f"refs/heads/{branch}", LOG_PATH, MAX_LOG_BLOB_BYTES) or (0, b"")
            if data is None:
                out.skipped.append({"project": name, "path": where,
                                    "reason": f"{LOG_PATH} on {branch} is {size} bytes, more than any log"})
                continue
            text = data.decode("utf-8", "replace")
            # one project's made-up log is skipped, unfolded (and its history not read)
            refuse_too_many_atoms(text, f"{path / LOG_PATH} on {branch}")
            landed_here = landing_times(repo, branch)
            me = git.author_email(repo.cwd)
            records, contesters = _l1_flags(repo)
        except Exception as exc:  # noqa: BLE001 - one broken project must not hide the others
            out.skipped.append({"project": name, "path": where, "reason": f"unreadable: {exc}"})
            continue
        texts.append(_lines_of(text, name))
        for ident, when in landed_here.times.items():
            landed[ident] = min(when, landed.get(ident, when))
        # (two clones of one project: whoever landed a line in either)
        adopters = out.adopters.setdefault(name, gates.Adopters())
        for ident, emails in landed_here.by.items():
            if me in emails:
                adopters.mine.add(ident)
            else:
                adopters.others.setdefault(ident, set()).update(emails)
        for ident, record in records.items():
            # Any clone that saw the contradiction is enough (conservative).
            if record.get("contested") or ident not in l1_records:
                l1_records[ident] = record
        for atom in contesters:
            contesting[str(atom.get("project") or name)].append(atom)
    # The union of every log (order-independent): clones of one project fold to one state.
    union = ""
    for text in texts:
        union = adopted_log.union(union, text)
    entries, _ = adopted_log.parse(union)
    for ident, atom in adopted_log.fold(entries).items():
        if atom.get("tier") != "L2":
            continue
        seen = atom.copy()
        stamps = [str(s) for s in (atom.get("promoted_at"), landed.get(ident)) if s]
        if stamps:
            seen["promoted_at"] = iso_z(max(parse_ts(s) for s in stamps))
        l1 = l1_records.get(ident)
        if l1 and (l1.get("contested") or l1.get("contested_by")):
            seen["contested"] = True
            if l1.get("contested_by"):
                seen["contested_by"] = sorted(set(l1["contested_by"]))
        out.by_project.setdefault(str(atom.get("project") or "?"), []).append(seen)
    for project, atoms in contesting.items():
        out.by_project.setdefault(project, []).extend(atoms)
    return out


def l2_by_project(home: GlobalRepo) -> dict[str, list[Atom]]:
    """Each registered project's adopted atoms at its default branch (what the team merged),
    as the L2 → L3 gate sees them (see the module docstring)."""
    return read_projects(home).by_project


def _retired(atom: Mapping[str, Any]) -> str | None:
    if atom.get("superseded_by"):
        return f"superseded by {atom['superseded_by']}"
    if atom.get("decayed"):
        return "decayed (out of the working set)"
    return None


@dataclass
class GlobalEvaluation:
    results: list[GateResult]
    by_project: dict[str, list[Atom]]  # what counts: retired atoms left out
    skipped: list[dict[str, str]]
    files: TierFiles
    base_branch: str
    base_oid: str


def adopt_commits(repo: git.Repo, refs: Sequence[str]) -> Counter[str]:
    """How many commits on `refs` adopted each atom: adopt's commits (`Atom-Id:` with
    `Adopted-From:`) and review commits merged in (`Atom-Id:` with `Promotion:` — adopt
    re-renders rather than cherry-picks, so a review commit on the base was merged: a pull
    request of `pr --global`). The history keeps an adoption a person undid since (a
    `git revert`, a line edited out): the commit stays."""
    present = [ref for ref in refs if git.ref_target(repo, ref) is not None]
    if not present:
        return Counter()
    proc = git.run_git(
        repo.cwd,
        "log",
        "--format=%x00%(trailers:key=Atom-Id,valueonly)"
        "%x00%(trailers:key=Adopted-From,valueonly)%(trailers:key=Promotion,valueonly)",
        *present,
        "--",
        check=False,
    )
    counts: Counter[str] = Counter()
    fields = proc.stdout.split("\0")[1:] if proc.returncode == 0 else []
    for idents, adopted in zip(fields[0::2], fields[1::2], strict=False):
        if adopted.strip():
            counts.update({ident.strip() for ident in idents.splitlines() if ident.strip()})
    return counts


def adoption_counts(repo: git.Repo) -> Counter[str]:
    """`adopt_commits` on the global repo's base branch and its remote-tracking copy (an item
    adopted by merging `pr --global` on the remote is adopted before it is pulled)."""
    return adopt_commits(repo, base_refs(repo))


def _removed_from_l3(repo: git.Repo, base: str, files: TierFiles) -> set[str]:
    """Ids adopted at L3 and no longer held: a person took them out (a forget line, or
    `git revert` of the adopt commit), so evidence alone does not bring them back — the
    rule that a person's removal outlives the evidence."""
    held = files.held()
    removed = adopted_log.ever_adopted(files.entries()) - set(held)
    # Adopt commits name their atom in trailers; one that is not held any more was undone.
    removed |= set(adopt_commits(repo, [f"refs/heads/{base}"])) - set(held)
    return removed


def evaluate(home: GlobalRepo, now: _dt.datetime) -> GlobalEvaluation:

    repo = home.repo()
    base = git.default_branch(repo)
    # On the remote's copy of the base when the global repo syncs through one and has nothing
    # unpushed (see review.py); with unpushed adoptions, on the local branch (`pr` says so).
    found = staging_base(repo) if base else None
    base_oid = (found.oid if found.unpushed == 0 else git.ref_target(repo, f"refs/heads/{base}")) if found else None
    if base is None or base_oid is None:
        raise RepoStateError(
            f"the global memory repo {home.path} has no commits", hint="run `git memory init` again"
        )
    files = base_files(repo, base_oid, "L3", TARGET, found.name if found else base)
    read = read_projects(home)
    notes: dict[str, list[str]] = defaultdict(list)
    removed = _removed_from_l3(repo, base, files)
    counted: dict[str, list[Atom]] = {}
    for project, atoms in sorted(read.by_project.items()):
        keep = []
        for atom in atoms:
            gid = gates.global_id(atom) if atom.get("tier") == "L2" else ""
            why = _retired(atom) if gid else None
            if gid and _removed_spelling(atom, removed):
                notes[gid] = [
                    "adopted at L3 before and removed since; not restaged on evidence "
                    "(re-add it with `git memory remember --global`)"
                ]
            elif why:
                notes[gid].append(f"{project}: {why}")
            else:
                keep.append(atom)
        counted[project] = keep
    results, _ = gates.evaluate_global(counted, now, list(files.held().values()), read.adopters)
    by_id = {r.atom_id: r for r in results}
    for gid, lines in notes.items():
        current = by_id.get(gid)
        if gid in removed or current is None:
            by_id[gid] = GateResult(gid, False, "L3", tuple(lines))
        elif not current.eligible:
            by_id[gid] = GateResult(gid, False, "L3", (*current.reasons, *lines))
    return GlobalEvaluation(
        [by_id[g] for g in sorted(by_id)], counted, read.skipped, files, base, base_oid
    )


def _removed_spelling(atom: Mapping[str, Any], removed: set[str]) -> bool:
    """Whether a person took the rule out of L3 under this claim or under another spelling of
    it (`restated_ids`): the groups join the spellings, so a removal holds back every one, as a
    forget does at L1."""
    return any(ident in removed for ident in (gates.global_id(atom), *restated_ids(str(atom["claim"]), None)))


def global_results() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, str]]]:
    """`promote --global`: (eligible, blocked, skipped projects)."""
    found = evaluate(require_home(), now_utc())
    eligible = [{"id": r.atom_id, "to": "L3"} for r in found.results if r.eligible]
    blocked = [
        {"id": r.atom_id, "reasons": list(r.reasons)} for r in found.results if not r.eligible
    ]
    return eligible, blocked, found.skipped


def merged_atoms(
    by_project: Mapping[str, Sequence[Atom]], eligible_ids: Iterable[str], l3_atoms: Iterable[Atom] = ()
) -> list[Atom]:
    """The L3 atoms for the eligible groups (`gates.global_groups`, as the gate grouped them),
    stamped deterministically: promoted when the group's last contributor completed its 30 days
    at L2, so re-staging gives the same commits."""

    wanted = set(eligible_ids)
    groups = gates.global_groups(by_project, l3_atoms)
    out = []
    for gid in sorted(wanted & set(groups)):
        contributors = [atom for _, atom in groups[gid]]
        ready = max(parse_ts(gates.l2_age_start(a)) for a in contributors) + L2_MIN_AGE
        out.append(gates.merge_to_l3(contributors, iso_z(ready)))
    return out


def l3_message(atom: Atom) -> str:
    projects = atom["promoted_from_projects"]
    return format_message(
        f"promote: {one_line(atom['claim'], 80)}",
        [
            f"Claim: {atom['claim']}",
            f"Kind: {atom['kind']}; confidence: {atom['confidence']}",
            f"Held at L2 in {len(projects)} projects for 30+ days: {', '.join(projects)}",
            f"Evidence: {plural(len(atom['sessions']), 'session')}, {plural(atom['observations'], 'observation')}",
            f"First source: {atom['first_source']}; latest: {atom['source']}",
        ],
        [
            ("Atom-Id", atom["id"]),
            ("Promotion", "L2->L3"),
            ("Projects", ", ".join(projects)),
            ("First-Source", atom["first_source"]),
        ],
    )


def remembered_message(atom: Atom) -> str:
    where = f"`git memory remember --global` in {atom['promoted_from_projects'][0]}"
    label = origin_label(atom)
    trailers = [("Atom-Id", atom["id"]), ("Promotion", "remember->L3")]
    if label:
        # run in a Claude Code session: the model's, as the project's review commit says
        body = [f"Origin: {label} — written by Claude Code's model, not typed by a person",
                f"Recorded with {where}: no transcript evidence; adopting it is the person's decision."]
        trailers.append(("Origin", str(atom["origin"])))
    else:
        body = [f"Hand-authored with {where}:", "no transcript evidence; adopting it is the person's decision."]
    return format_message(f"remember: {one_line(atom['claim'], 80)}",
                          [f"Claim: {atom['claim']}", f"Kind: {atom['kind']}", *body], trailers)


def _refuse_unsafe_base(found: GlobalEvaluation, home: GlobalRepo) -> None:
    files = found.files
    if files.log_errors():
        raise RefusedError(
            f"{home.path / LOG_PATH} on {found.base_branch} has unreadable lines: {files.log_errors()[0]}",
            hint=f"fix the line ({git_in(home.path)} log -p {LOG_PATH} shows its history), then stage again",
        )
    if files.hand_edited():
        raise RefusedError(
            f"the L3 block in {home.path / TARGET} on {found.base_branch} differs from {LOG_PATH} "
            "(edited by hand, or merged from another machine)",
            hint=f"re-render it with `git memory validate --fix`, commit it in {home.path}, then stage again",
        )


def stage_global(force: bool = False) -> StagePlan:
    """Rebuild the global repo's memory/review: one commit per L3 merge, then one per
    hand-authored item, all within the L3 cap (the cap refuses inflow, never demotes).
    Two projects' sessions ending together both stage it: a lost race stages again
    (stage_retrying)."""

    home = require_home()
    repo = home.repo()
    return stage_retrying(repo, lambda seen: (_stage_global_once(home, repo, force, seen), True),
                          "git memory stage --global")


def _stage_global_once(home: GlobalRepo, repo: git.Repo, force: bool, seen: str | None) -> StagePlan:
    """One stage against `seen`, where memory/review was read before the projects, the base
    and the hand-authored items were."""
    found = evaluate(home, now_utc())
    _refuse_unsafe_base(found, home)
    eligible = {r.atom_id for r in found.results if r.eligible}
    proposals = [
        Proposal(a["id"], LogEntry(op="adopt", atom=a, at=a["promoted_at"]), l3_message(a))
        for a in merged_atoms(found.by_project, eligible, found.files.held().values())
    ]
    held = found.files.held()
    # Hand-authored L3 items (`git memory remember --global`) wait in the global repo's local
    # state until adopted; redacted ones never go further (they need a restatement). One adopted
    # is done, held or not: adopt's commit, then a `git revert` of it or the line edited out,
    # with no stage in between, left it waiting, and the next stage offered it again.
    removed = prune_global_candidates(repo, set(held), adoption_counts(repo))
    plan = StagePlan(base_branch=found.base_branch, base_oid=found.base_oid, results=found.results)
    for ident in removed:
        plan.refused[ident] = [REMOVED_REASON]
    free = max(L3_CAP - len(held) - len(proposals), 0)
    for atom in read_global_candidates(repo):
        if atom["id"] in held or atom["redacted"] or atom["id"] in {p.atom_id for p in proposals}:
            continue
        if free <= 0:
            plan.refused[atom["id"]] = [CAP_REASON]
            continue
        free -= 1
        proposals.append(
            Proposal(
                atom["id"],
                LogEntry(op="adopt", atom=atom, at=atom["promoted_at"]),
                remembered_message(atom),
            )
        )
    rejected = read_global_rejections(repo)
    for proposal in list(proposals):
        why = rejection_reason(rejected, proposal.entry.atom)
        if why:
            proposals.remove(proposal)
            plan.refused[proposal.atom_id] = [why]
    staged, refused, _ = write_review_branch(repo, found.base_oid, found.files, proposals, force, seen)
    plan.staged = staged
    plan.refused.update(refused)
    for result in found.results:
        if not result.eligible and CAP_REASON in result.reasons:
            plan.refused.setdefault(result.atom_id, [CAP_REASON])
    return plan


REJECTED_FILE = "rejected-l3.json"


def _rejected_path(repo: git.Repo) -> Path:
    return repo.state / REJECTED_FILE


def read_global_rejections(repo: git.Repo) -> dict[str, dict[str, Any]]:
    """L3 proposals a person rejected at `adopt --global`, with the evidence they had then.
    Local state of the global repo (like L1's review marks): not committed, not synced."""
    data = read_state_object(_rejected_path(repo), "the L3 items a person rejected")
    return {k: v for k, v in data.items() if isinstance(v, dict)}


def record_global_rejection(repo: git.Repo, atom: Atom) -> None:
    # read, changed and written under the state folder's lock: a `remember --global` lifting
    # another rejection meanwhile wrote its copy back over this one (or this over its)
    with state_folder_lock(repo, "adopt"):
        rejected = read_global_rejections(repo)
        rejected[str(atom["id"])] = {"at": stamp(), "sessions": len(atom.get("sessions", []))}
        _write_rejections(repo, rejected)


def _write_rejections(repo: git.Repo, rejected: Mapping[str, Any]) -> None:
    atomic_write(_rejected_path(repo), json.dumps(rejected, sort_keys=True, indent=2) + "\n")


def _rejection_ids(atom: Mapping[str, Any]) -> list[str]:
    """The ids a rejection of `atom` may be kept under: its own, then its rule's other spellings
    (`restated_ids`) — a group keeps the spelling seen first, and that changes when its first
    contributor retires or an older one joins. `rejection_reason` reads them, and
    `lift_global_rejection` lifts them all."""
    return [str(atom["id"]), *restated_ids(str(atom["claim"]), None)]


def rejection_reason(rejected: dict[str, dict[str, Any]], atom: Atom) -> str | None:
    """Rejected, and no new sessions since: not proposed again (as at L1: only a new session
    saying it again brings a rejected claim back)."""
    mark = next((rejected[i] for i in _rejection_ids(atom) if i in rejected), None)
    if mark is None or len(atom.get("sessions", [])) > int(mark.get("sessions", 0)):
        return None
    return f"rejected on {str(mark.get('at', ''))[:10]}; needs new sessions"


def lift_global_rejection(repo: git.Repo, atom: Atom) -> bool:
    """`remember --global` of a claim a person rejected at `adopt --global --reject`: said again
    by the person, it is their newer decision, so the mark goes (under every spelling
    `rejection_reason` reads) and the next stage offers it. Evidence from projects never
    lifts it (only new sessions do). Returns whether a rejection in force was set aside."""
    spellings = set(_rejection_ids(atom))
    with state_folder_lock(repo, "remember it"):
        rejected = read_global_rejections(repo)
        if not spellings & set(rejected):
            return False
        standing = rejection_reason(rejected, atom) is not None
        _write_rejections(repo, {k: v for k, v in rejected.items() if k not in spellings})
    return standing
