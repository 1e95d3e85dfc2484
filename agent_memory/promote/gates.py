"""Promotion gates and caps. Pure decisions over atom dicts:
no git, no I/O, deterministic (no LLM). The commands (`promote`, `stage`, `capture`,
`promote --global`) read the stores, call these, and write what they decide.

Reasons are human-readable lines, all of them listed when several apply, so `promote` can
say exactly what an atom still lacks.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from agent_memory.model.atom import (
    CONFIDENCE_ORDER,
    Atom,
    atom_id,
    contested_ids,
    is_pending,
    restated_ids,
    strip_pointer,
    validate_atom,
)
from agent_memory.model.clock import iso_z, parse_time, time_key, utc_day
from agent_memory.model.policy import (
    L1_MAX_AGE_DAYS,
    L1_TO_L2_DAYS,
    L1_TO_L2_SESSIONS,
    L1_TO_L2_STATED_SESSIONS,
    L2_CAP,
    L2_MIN_AGE_DAYS,
    L3_CAP,
    L3_MIN_PROJECTS,
    is_expired,
)
from agent_memory.store.contradictions import detect
from agent_memory.transcripts.failures import still_learned

# `verified`: 1 observation, day-exempt
L1_SESSIONS_NEEDED = {"observed": L1_TO_L2_SESSIONS, "stated": L1_TO_L2_STATED_SESSIONS}

# Why a pending claim is blocked: the reason `promote --output json` lists (scripts keep it), and
# what a person reads for it (`promote`, `inspect --why`): what pending means, in their terms.
PENDING_REASON = "pending — said once; an atom when said again in another session"
PENDING_FOR_PEOPLE = ("pending: said once, and not in words that make it a standing rule (always, never, "
                      "from now on…); it becomes a candidate when said again in another session")  # fmt: skip


@dataclasses.dataclass(frozen=True)
class GateResult:
    atom_id: str
    eligible: bool
    to: str
    reasons: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """`promote --output json` entries: eligible → {id, to}, blocked → {id, reasons}."""
        if self.eligible:
            return {"id": self.atom_id, "to": self.to}
        return {"id": self.atom_id, "reasons": list(self.reasons)}




def _utc(now: _dt.datetime) -> _dt.datetime:
    return now.replace(tzinfo=_dt.UTC) if now.tzinfo is None else now


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def claim_days(atom: Mapping[str, Any]) -> set[str]:
    """The UTC calendar days the claim was seen on: every evidence item's `at`, plus the days of
    `first_seen` and `last_seen` (both are real sightings, and are all we have when an atom
    carries no evidence list, e.g. one merged in from a clone)."""
    days = {utc_day(str(atom["first_seen"])), utc_day(str(atom["last_seen"]))}
    for item in atom.get("evidence") or []:
        if item.get("at"):
            days.add(utc_day(str(item["at"])))
    return days


# --- L1 → L2 ------------------------------------------------------------------------------


def _recurrence_reasons(atom: Mapping[str, Any]) -> list[str]:
    # Confidence is re-read here, at gate time, not frozen at extraction.
    confidence = str(atom["confidence"])
    if confidence == "verified":
        return []  # 1 observation (schema minimum), the only day-exempt path
    if atom.get("hand_authored"):
        return []  # a person wrote it with `git memory remember`: review is its gate, not recurrence
    sessions = len(set(atom["sessions"]))
    needed = L1_SESSIONS_NEEDED.get(confidence, L1_SESSIONS_NEEDED["observed"])
    reasons = []
    if sessions < needed:
        prefix = "stated: " if confidence == "stated" else ""
        reasons.append(f"{prefix}{_plural(sessions, 'session')}, needs {needed}")
    days = claim_days(atom)
    # With a single session one day is inevitable; the day rule is only news from two on.
    if len(days) < L1_TO_L2_DAYS and sessions >= 2:
        reasons.append(f"all sessions on {min(days)}")
    return reasons


def reasons_for_people(reasons: Sequence[str]) -> list[str]:
    """A blocked atom's reasons as `promote` shows them to a person. A pending claim is held
    for that alone: the session count it also falls short of (`stated: 1 session, needs 2`,
    from `_recurrence_reasons`) says the same in the gate's terms, so only the pending reason
    is shown, in plain words. The JSON lists every reason as the gate gives it."""
    if PENDING_REASON not in reasons:
        return list(reasons)
    import re

    count = re.compile(r"(?:stated: )?\d+ sessions?, needs \d+")
    return [PENDING_FOR_PEOPLE if r == PENDING_REASON else r for r in reasons if not count.fullmatch(r)]


def still_rejected(atom: Mapping[str, Any]) -> bool:
    """A person's rejection still stands: no session has said the claim since (said again, it
    is judged afresh, as any candidate)."""
    return _rejection_reason(atom) is not None


def _rejection_reason(atom: Mapping[str, Any]) -> str | None:
    review = atom.get("review") or {}
    if review.get("state") != "rejected":
        return None
    if int(review.get("sessions", 0)) < len(set(atom["sessions"])):
        return None  # new sessions since the rejection: judged afresh
    return f"rejected on {utc_day(str(review['at']))}; needs new sessions"


def _contest_reasons(atom: Mapping[str, Any], contesters: Mapping[str, list[str]]) -> list[str]:
    # The contradiction reverse join: blocked by its own flag (older side) or by being named in
    # another atom's contested_by (newer side).
    reasons = []
    own = sorted(set(atom.get("contested_by") or []))
    if own:
        reasons += [f"contested by {other}" for other in own]
    elif atom.get("contested"):
        reasons.append("contested — resolve at adopt")
    reasons += [f"contests {other}" for other in contesters.get(str(atom["id"]), [])]
    return reasons


def _contesters(atoms: Iterable[Mapping[str, Any]]) -> dict[str, list[str]]:
    """newer id → the older ids whose contested_by names it."""
    out: dict[str, set[str]] = defaultdict(set)
    for atom in atoms:
        for newer in atom.get("contested_by") or []:
            out[str(newer)].add(str(atom["id"]))
    return {k: sorted(v) for k, v in out.items()}


# An observed failure an earlier version learned and this one does not: the code under edit
# failing, or a command failing on its arguments (transcripts/failures.still_learned).
NOT_LEARNED_FAILURE = "a failure of the code under edit or of a command's arguments — no longer learned"


def l1_reasons(
    atom: Mapping[str, Any],
    project: str,
    now: _dt.datetime,
    contesters: Mapping[str, list[str]],
    held: Mapping[str, Atom],
) -> list[str]:
    reasons: list[str] = []
    if atom.get("project") != project:
        reasons.append(f"project {atom.get('project')} ≠ {project}")
    if str(atom["id"]) in held:
        reasons.append("already held at L2")
    rejected = _rejection_reason(atom)
    if rejected:
        reasons.append(rejected)
    if atom.get("redacted"):
        # Redaction altered the text — positive evidence the source was sensitive, and
        # recurrence cannot substitute for a human. No fast path skips this.
        reasons.append("redacted — needs a restatement without the secret")
    reasons += _contest_reasons(atom, contesters)
    if is_pending(atom):
        # said once under the durability gate's keep bar: no atom until said again, whatever
        # else it has (`verify` raises its confidence, not the evidence that it lasts)
        reasons.append(PENDING_REASON)
    if atom.get("superseded_by"):
        reasons.append(f"superseded by {atom['superseded_by']}")
    if atom.get("kind") == "failure" and atom.get("confidence") == "observed" and not still_learned(str(atom["claim"])):
        reasons.append(NOT_LEARNED_FAILURE)
    if is_expired(atom, now):
        reasons.append(
            f"expired (last seen {utc_day(str(atom['last_seen']))}, {L1_MAX_AGE_DAYS}-day limit)"
        )
    reasons += _recurrence_reasons(atom)
    return reasons


def evaluate_l1(
    atoms: Sequence[Atom],
    project: str,
    now: _dt.datetime,
    held: Mapping[str, Atom] | None = None,
) -> list[GateResult]:
    """The L1 → L2 gate for every L1 atom in `atoms`, sorted by id. Non-L1 atoms in `atoms` and
    the `held` L2 atoms take part only in the contradiction reverse join (L1↔L2)."""
    held = dict(held or {})
    contesters = _contesters([*atoms, *held.values()])
    since = said_otherwise_since(atoms)
    results = []
    for atom in sorted((a for a in atoms if a.get("tier") == "L1"), key=lambda a: str(a["id"])):
        reasons = l1_reasons(atom, project, now, contesters, held)
        reasons += [f"{SAID_OTHERWISE} {other}" for other in since.get(str(atom["id"]), [])]
        results.append(GateResult(str(atom["id"]), not reasons, "L2", tuple(reasons)))
    return results


# Why a claim waits when the person has since said the opposite once (held pending): "Use jest
# for tests" said twice, then "use vitest instead of jest" once. The later word is no atom yet
# and marks nothing (a tag it set would outlive it), but the earlier claim is not promoted over
# it: it waits until the later one recurs (then the pair is contested and resolved at adopt) or
# expires.
SAID_OTHERWISE = "said otherwise since (once, pending):"


def said_otherwise_since(atoms: Sequence[Atom]) -> dict[str, list[str]]:
    """{id of a live L1 claim: the ids of pending claims, first seen after it was last said,
    that contradict it}. A rule said again after the once-said word against it is the
    person's latest word: that word does not hold it back."""
    live = [a for a in atoms if a.get("tier") == "L1"]
    waiting = {str(a["id"]) for a in live if is_pending(a)}
    if not waiting:
        return {}
    by_id = {str(a["id"]): a for a in live}
    out: dict[str, list[str]] = defaultdict(list)
    for pair in detect(live, involving=waiting, pending=True):
        if pair.newer in waiting and pair.older not in waiting and pair.older in by_id \
                and _said_after(by_id[pair.newer], by_id[pair.older]):
            out[pair.older].append(pair.newer)
    return {ident: sorted(others) for ident, others in out.items()}


def _said_after(pending: Atom, rule: Atom) -> bool:
    try:
        return time_key(str(pending["first_seen"])) > time_key(str(rule["last_seen"]))
    except (KeyError, ValueError):
        return True  # undated: as before, the pending word holds the rule back


# --- L2 → L3 ------------------------------------------------------------------------------


def global_id(atom: Mapping[str, Any]) -> str:
    """The project-free id an L2 atom groups under: one claim in several projects is one id."""
    return atom_id(str(atom["claim"]), None)


def global_groups(
    l2_by_project: Mapping[str, Sequence[Atom]], l3_atoms: Iterable[Mapping[str, Any]] = ()
) -> dict[str, list[tuple[str, Atom]]]:
    """The L2 → L3 groups: {group id: [(project, L2 atom)]}. One claim in several projects is
    one group, and so is one rule under its several spellings (`restated_ids`: "Always run the
    tests…" adopted in one project, "Run the tests…" or "Run tests…" in another), or they would
    be two rules each held in one project and never reach the "held in 2 projects" gate.

    The group's id is its kept spelling's: the one already held at L3 when one is (the group
    is then "already held at L3", not a second global copy of the rule); else the spelling seen
    first (`_earliest`), whose claim `merge_to_l3` keeps, as L1's merge keeps the first
    sighting's words, so the id the gate reports is the id of the atom it stages."""
    exact: dict[str, list[tuple[str, Atom]]] = defaultdict(list)
    for project, atoms in l2_by_project.items():
        for atom in atoms:
            if atom.get("tier") == "L2":
                exact[global_id(atom)].append((project, atom))
    global_atoms = list(l3_atoms)
    held = {global_id(a): str(a["id"]) for a in global_atoms}
    claims = {global_id(a): str(a["claim"]) for a in global_atoms}
    claims.update({gid: str(members[0][1]["claim"]) for gid, members in exact.items()})
    out: dict[str, list[tuple[str, Atom]]] = {}
    for component in _spellings_linked([*exact, *held], claims):
        members = [m for gid in sorted(component) for m in exact.get(gid, [])]
        if not members:
            continue
        at_l3 = sorted(held[gid] for gid in component if gid in held)
        key = at_l3[0] if at_l3 else global_id(_earliest([atom for _, atom in members]))
        out[key] = members
    return out


def _spellings_linked(ids: Iterable[str], claims: Mapping[str, str]) -> list[set[str]]:
    """`ids` in sets of one rule: two ids are linked when one is a restated spelling of the
    other's claim (either way round, and through a third: "Always X" – "X" – its article
    variant), so the grouping does not depend on the order atoms are read in."""
    nodes = set(ids)
    edges: dict[str, set[str]] = {gid: set() for gid in nodes}
    for gid in nodes:
        for other in restated_ids(claims[gid], None) if gid in claims else []:
            if other in nodes and other != gid:
                edges[gid].add(other)
                edges[other].add(gid)
    seen: set[str] = set()
    out = []
    for start in sorted(nodes):
        if start in seen:
            continue
        component, todo = set(), [start]
        while todo:
            gid = todo.pop()
            if gid not in component:
                component.add(gid)
                todo.extend(edges[gid] - component)
        seen |= component
        out.append(component)
    return out


def l2_age_start(atom: Mapping[str, Any]) -> str:
    """Age at L2 runs from `promoted_at` — the day the claim entered committed context, which
    is what "held at L2 for 30 days" means. `first_seen` would count L1 time too, so it
    is only the fallback for an L2 record without the (schema-required) stamp."""
    return str(atom.get("promoted_at") or atom["first_seen"])


def _earliest(contributors: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    # Total order, so the choice does not depend on contributor order.
    return min(
        contributors,
        key=lambda a: (
            parse_time(str(a["first_seen"])),
            str(a["first_source"]),
            str(a["claim"]),
            str(a.get("project", "")),
        ),
    )


def _latest(contributors: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    return max(
        contributors,
        key=lambda a: (
            parse_time(str(a["last_seen"])),
            strip_pointer(str(a["source"])),
            str(a.get("project", "")),
        ),
    )


def merge_to_l3(contributors: Sequence[Atom], promoted_at: str) -> Atom:
    """One global L3 atom from ≥ 2 projects' L2 atoms (docs/global-memory.md, "How a claim gets
    to L3").

    Every required field is accounted for; optional fields (pins, decay, contest flags,
    supersession, verified_by) are not carried over — L3 standing is a human decision at
    `adopt --global`. Raises ValueError when the group is not mergeable (claims that are not one
    rule, i.e. neither alike once normalized nor linked by `restated_ids`; disagreeing kinds;
    fewer than two projects). The merged atom keeps the earliest contributor's claim."""
    if not contributors:
        raise ValueError("merge_to_l3 needs contributors")
    claims = {atom_id(str(a["claim"]), None): str(a["claim"]) for a in contributors}
    if len(_spellings_linked(claims, claims)) != 1:
        raise ValueError("contributors' claims do not normalize alike, nor are they spellings of one rule")
    kinds = _kind_disagreements(contributors)
    if kinds:
        raise ValueError(f"contributors disagree on kind: {', '.join(sorted({k for k, _ in kinds}))}")
    projects = sorted({str(a["project"]) for a in contributors if a.get("project")})
    if len(projects) < L3_MIN_PROJECTS:
        raise ValueError(f"L3 needs ≥ {L3_MIN_PROJECTS} projects, got {len(projects)}")
    earliest, latest = _earliest(contributors), _latest(contributors)
    merged: Atom = {
        "id": atom_id(str(earliest["claim"]), None),
        "claim": earliest["claim"],
        "scope": "global",
        "kind": earliest["kind"],
        "first_seen": earliest["first_seen"],
        "last_seen": latest["last_seen"],
        "observations": sum(int(a["observations"]) for a in contributors),
        "sessions": sorted({str(s) for a in contributors for s in a["sessions"]}),
        "source": strip_pointer(str(latest["source"])),
        "first_source": strip_pointer(str(earliest["first_source"])),
        "confidence": max(
            (str(a["confidence"]) for a in contributors), key=CONFIDENCE_ORDER.__getitem__
        ),
        "tier": "L3",
        "redacted": any(bool(a["redacted"]) for a in contributors),
        "promoted_from_projects": projects,
        "promoted_at": iso_z(promoted_at),
    }
    return validate_atom(merged)


def _kind_disagreements(contributors: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """(kind, project) of the contributors whose one claim was given two kinds (empty when they
    agree). Compared within a spelling, not across: the extractor reads the word a rule is said
    with ("Always X" a constraint, "From now on, X" a preference), so two spellings of one rule
    differ in kind as they differ in words — L1's merge keeps the first sighting's kind with its
    claim (model/atom.merge), and so does `merge_to_l3`."""
    by_claim: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for atom in contributors:
        by_claim[global_id(atom)].add((str(atom["kind"]), str(atom.get("project", ""))))
    return sorted(pair for pairs in by_claim.values() if len({k for k, _ in pairs}) > 1 for pair in pairs)


@dataclasses.dataclass
class Adopters:
    """Who landed a project's adopt lines on its default branch: `mine` the atom ids the person
    landed (adopted, or merged the adoption of) there, `others` every other id with the emails
    that landed it."""

    mine: set[str] = dataclasses.field(default_factory=set)
    others: dict[str, set[str]] = dataclasses.field(default_factory=dict)


def _adopted_by_others_only(
    members: Sequence[tuple[str, Atom]], adopters: Mapping[str, Adopters]
) -> str | None:
    """The reason a group is no persona material when no project holds it by the person's own
    adoption: L3 is the person's, and a repository they cloned holds what its authors adopted
    (committed `adopted.log` lines, landed by them) — two such clones would otherwise pass the
    "held in 2 projects" gate with nothing the person ever decided."""
    found = [(project, str(atom["id"])) for project, atom in members]
    if any(ident in adopters.get(project, Adopters()).mine for project, ident in found):
        return None
    who = sorted({e for p, i in found for e in adopters.get(p, Adopters()).others.get(i, set())})
    by = f" ({', '.join(who)})" if who else ""
    return (
        f"adopted at L2 only by others{by}: L3 holds what you adopted yourself — adopt it in one "
        "of your projects, or add it with `git memory remember --global`"
    )


def _group_reasons(
    members: Sequence[tuple[str, Atom]],
    now: _dt.datetime,
    blockers: Mapping[str, tuple[set[str], dict[str, list[str]]]],
    adopters: Mapping[str, Adopters] | None = None,
) -> list[str]:
    reasons: list[str] = []
    projects = sorted({project for project, _ in members})
    if len(projects) < L3_MIN_PROJECTS:
        reasons.append(
            f"held in {_plural(len(projects), 'project')} ({', '.join(projects)}), needs {L3_MIN_PROJECTS}"
        )
    others_only = _adopted_by_others_only(members, adopters) if adopters is not None else None
    if others_only:
        reasons.append(others_only)
    kinds = _kind_disagreements([atom for _, atom in members])
    if kinds:
        reasons.append("kind disagrees: " + ", ".join(f"{kind} ({project})" for kind, project in kinds))
    for project, atom in sorted(members, key=lambda m: (m[0], str(m[1]["id"]))):
        age = _utc(now) - parse_time(l2_age_start(atom))
        if age < _dt.timedelta(days=L2_MIN_AGE_DAYS):
            reasons.append(
                f"{project}: at L2 for {_plural(max(age.days, 0), 'day')}, needs {L2_MIN_AGE_DAYS}"
            )
        marked, contesters = blockers[project]
        ident = str(atom["id"])
        if atom.get("contested") or ident in marked:
            reasons += [f"{project}: {line}" for line in _contest_reasons(atom, contesters)]
        if atom.get("redacted"):
            reasons.append(f"{project}: redacted — needs a restatement without the secret")
    return reasons


def evaluate_global(
    l2_by_project: Mapping[str, Sequence[Atom]],
    now: _dt.datetime,
    l3_atoms: Sequence[Atom],
    adopters: Mapping[str, Adopters] | None = None,
) -> tuple[list[GateResult], list[Atom]]:
    """The L2 → L3 gate. `l2_by_project` maps each registered project to its adopted
    atoms; only `tier: L2` ones contribute, any others (L1) just take part in that project's
    contradiction reverse join. Returns one result per project-free group (sorted by id, the
    L3 id) and the merged L3 atoms of the eligible groups.

    With `adopters` (who landed each project's adopt lines), a group no project holds by the
    person's own adoption is refused (`_adopted_by_others_only`).

    The L3 cap (30) counts existing L3 atoms and blocks inflow, never demotes. When only
    some eligible groups fit, the ones with the oldest evidence go first (first_seen, then id)."""
    blockers = {
        project: (contested_ids(atoms), _contesters(atoms))
        for project, atoms in l2_by_project.items()
    }
    groups = global_groups(l2_by_project, l3_atoms)
    at_l3 = {str(a["id"]) for a in l3_atoms} | {global_id(a) for a in l3_atoms}
    stamp = iso_z(_utc(now))
    reasons: dict[str, list[str]] = {}
    candidates: list[str] = []
    for gid, members in groups.items():
        if gid in at_l3:
            reasons[gid] = ["already held at L3"]
            continue
        reasons[gid] = _group_reasons(members, now, blockers, adopters)
        if not reasons[gid]:
            candidates.append(gid)
    cap_reason = f"L3 cap of {L3_CAP} reached — prune L3 at adopt"
    free = max(L3_CAP - len(l3_atoms), 0)
    candidates.sort(key=lambda g: (min(parse_time(str(a["first_seen"])) for _, a in groups[g]), g))
    admitted = set(candidates[:free])
    merged = []
    for gid in sorted(groups):
        if gid in admitted:
            merged.append(merge_to_l3([a for _, a in groups[gid]], stamp))
        elif gid in candidates or (free == 0 and reasons[gid] != ["already held at L3"]):
            reasons[gid].append(cap_reason)
    results = [
        GateResult(gid, gid in admitted, "L3", tuple(reasons[gid])) for gid in sorted(groups)
    ]
    return results, merged


# --- caps and expiry ----------------------------------------------------------------------


def _oldest_first(atoms: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return sorted(atoms, key=lambda a: (parse_time(str(a["last_seen"])), str(a["id"])))


def l2_overflow(l2_atoms: Sequence[Atom], cap: int = L2_CAP) -> list[str]:
    """Ids of the oldest-`last_seen` non-pinned L2 atoms beyond the per-project cap, oldest
    first: to be demoted to L1 by a staged commit (never dropped). Pinned atoms are exempt and
    still count toward the cap."""
    over = len(l2_atoms) - cap
    if over <= 0:
        return []
    movable = _oldest_first(a for a in l2_atoms if not a.get("pinned"))
    return [str(a["id"]) for a in movable[:over]]
