"""L0 → L1: merge extracted observations into `memory/atoms` as one commit.

Each observation is joined into the stored atom with `atom.merge`, so re-capturing a
transcript changes nothing. Contradictions are detected at merge time within the project,
against the atoms that share a subject (the store's `index/subjects`), never
the whole store. Tombstoned (forgotten) claims are not silently re-learned, and an atom the
cap evicted comes back only with an observation newer than its last sighting (re-reading old
sessions never resurrects it: `index/dropped/`, Snapshot.evicted_at). Caps and expiry
(model/policy.l1_evictions decides) run in the same commit when the caller
asks (`limits=True`), starting from the counts `index/stats.json` holds: the store is read
whole only when the cap is exceeded or something may have expired. `enforce_limits` does the
same as a commit of its own.

A transcript is captured once (`capture_file`): the ledger (transcripts/ledger.py) says when
it is unchanged since its last capture (not read at all) or grew (read from where that capture
stopped).
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_memory.committed import tiers
from agent_memory.extract.pipeline import extract_transcript, sightings_of
from agent_memory.gitio.memory_lock import memory_lock_if_free
from agent_memory.gitio.refs import atom_path
from agent_memory.gitio.state import log_error
from agent_memory.model.atom import Atom, atom_errors, held_records, is_pending, merge, restated_ids
from agent_memory.model.clock import iso_z, now_utc, parse_time
from agent_memory.model.errors import InvalidAtomError, RepoStateError
from agent_memory.model.policy import L1_CAP, L1_MAX_AGE_DAYS, is_expired, l1_evictions
from agent_memory.store import contradictions
from agent_memory.store.l1 import Change, L1Store, Snapshot, summarize
from agent_memory.store.shape import TOMBSTONES_DIR
from agent_memory.transcripts.identity import Transcript
from agent_memory.transcripts.ledger import (
    TRANSCRIPT,
    Entry,
    Ledger,
    file_signature,
    transcript_key,
)

# A full scan for expiry at least this often, even when the stored lower bound says nothing
# can have expired: an atom that stopped being held (un-adopted) is not in that bound.
RESCAN_AFTER = _dt.timedelta(days=1)


@dataclass
class CaptureResult:
    commit: str | None
    new: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    expired_on_arrival: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    # observed again, but the stored record cannot be read: left as it is, not merged
    unreadable: list[str] = field(default_factory=list)
    evicted_before: list[str] = field(default_factory=list)  # evicted by the cap, nothing newer seen since
    contested: list[str] = field(default_factory=list)
    # written but still pending (said once, held by the durability gate until it recurs): not
    # in `new` or `merged`, which list what became or stays an atom
    pending: list[str] = field(default_factory=list)
    # of `pending`, those the store did not hold before (a backfill counts one of these that a
    # later transcript of the same run lifts as new; a record that existed is merged)
    pending_new: list[str] = field(default_factory=list)
    queued: bool = False
    expired: list[str] = field(default_factory=list)  # dropped by limits=True in the same commit
    evicted: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "commit": self.commit, "new": self.new, "merged": self.merged,
            "skipped": {"forgotten": self.forgotten, "expired": self.expired_on_arrival, "invalid": self.invalid,
                        "evicted": self.evicted_before, "unreadable": self.unreadable},
            "contested": self.contested, "pending": self.pending, "queued": self.queued,
        }  # fmt: skip
        if self.expired or self.evicted:
            out["dropped"] = {"expired": self.expired, "evicted": self.evicted}
        return out


@dataclass(frozen=True)
class Limits:
    """Caps and expiry to apply in a capture's commit: `held` are the ids adopted
    at L2 (default: read from the work tree's adopted.log)."""

    cap: int = L1_CAP
    max_age_days: int = L1_MAX_AGE_DAYS
    held: frozenset[str] | None = None


def capture_atoms(store: L1Store, incoming: Sequence[Atom], session: str | None, source: str | None,
                  limits: Limits | bool = False,
                  supersede: Callable[[Atom, Atom], Atom] | None = None,
                  refile_restated: bool = True,
                  known: Callable[[Atom, Atom | None], bool] | None = None,
                  rejudge: Callable[[Snapshot], Sequence[Atom]] | None = None) -> CaptureResult:  # fmt: skip
    """Merge `incoming` (plus anything waiting in the retry queue) into the store, as one
    commit; with `limits`, caps and expiry are applied in that same commit. `supersede`
    (stored, observation) gives the stored record an observation of `incoming` is merged
    into: what the observation makes obsolete of it left out (store/auto_memory.py: the
    folder's copy of a memory whose write a transcript now shows), read in the transaction.
    `known` (observation, the record stored under its id or None) says an observation of
    `incoming` is nothing new, judged in the transaction too (store/auto_memory.py: the
    folder's copy of a claim the store holds as Claude's own memory): judged before it, a
    capture that lost the race to one storing the same copy under another name counted it twice.
    With `refile_restated`, a sighting of a rule the store holds under another spelling
    (with or without the opening "Always", or the "the" of its first plural noun:
    `restated_ids`) is merged into that atom
    (`remember` files exactly what was typed, under the id it reports). `rejudge(snap)` gives
    `incoming` again as judged against the store each attempt reads (capture_file: a forked
    session's copies of lines the store holds from another session are left out — judged
    before the transaction, a capture that lost the race to the earlier session's counted the
    copy as a second session)."""
    queue_paths, queued = store.queued()
    result = CaptureResult(commit=None)
    rules = Limits() if limits is True else limits or None
    held = _Held()
    guard = _limits_guard(store, rules, held) if rules is not None else None
    # Validated once, not on every retry of the transaction (again only when `rejudge` changed them).
    latest = list(incoming)  # as `rejudge` gave them last
    problems = [atom_errors(obs) for obs in [*queued, *latest]]
    fresh = {id(obs) for obs in latest}  # `supersede` and `known` judge these, never a queued record
    nothing_new: set[int] = set()  # those `known` left out, in the latest attempt

    def compute(snap: Snapshot) -> Change | None:
        result.new, result.merged, result.forgotten, result.expired_on_arrival, result.invalid = [], [], [], [], []
        result.evicted_before, result.unreadable = [], []
        result.contested, result.expired, result.evicted, result.pending = [], [], [], []
        result.pending_new = []
        nothing_new.clear()
        if rejudge is not None:
            judged = list(rejudge(snap))
            if judged != latest:
                latest[:] = judged
                problems[:] = [atom_errors(obs) for obs in [*queued, *latest]]
                fresh.clear()
                fresh.update(id(obs) for obs in latest)
        now = now_utc()
        writes: dict[str, Atom] = {}
        for obs, errors in zip([*queued, *latest], problems, strict=True):
            if errors:
                result.invalid.append(str(obs.get("id", "?")))
                log_error(f"capture: skipped an invalid atom {obs.get('id', '?')}: {errors[0]}", store.repo.cwd)
                continue
            fresh_one = id(obs) in fresh
            if fresh_one and known is not None and known(obs, snap.atoms.get(str(obs["id"]))):
                nothing_new.add(id(obs))
                continue
            ident = _filed_under(snap, writes, obs) if refile_restated else str(obs["id"])
            if ident != obs["id"]:
                refiled.add(ident)
            if ident in snap.tombstones:
                result.forgotten.append(ident)
                continue
            if snap.tombstones.unreadable(ident):
                # A forget whose tombstone cannot be read: taken for none, the claim was
                # learned again as new. Held back like an unreadable record, until restored.
                result.unreadable.append(ident)
                torn_tombstones.add(ident)
                continue
            current = writes.get(ident) or snap.atoms.get(ident)
            if ident in stored_invalid or (current is None and snap.atoms.unreadable(ident)):
                # The only copy of its evidence and review state: never written over with a
                # fresh atom. This observation waits (the transcript is read again next time).
                result.unreadable.append(ident)
                continue
            if current is None and _evicted_since(snap, obs):
                result.evicted_before.append(ident)
                continue
            if current is not None and ident != obs["id"]:
                obs = {**obs, "id": ident, "claim": current["claim"]}
            stored = current
            if current is not None and supersede is not None and fresh_one:
                current = supersede(current, obs)
            # merge(obs, obs) bounds a new atom's evidence like any merged one (atom.select_evidence).
            combined = merge(current, obs) if current else merge(obs, obs)
            if current is None and is_expired(combined, now):
                result.expired_on_arrival.append(ident)
                continue
            if stored is not None and combined == stored:
                continue
            writes[ident] = combined
        if not writes:
            return None
        for ident in writes:
            if is_pending(writes[ident]):
                result.pending.append(ident)
                if ident not in snap.atoms:
                    result.pending_new.append(ident)
            else:
                (result.merged if ident in snap.atoms else result.new).append(ident)
        writes.update(_contradictions(snap, writes, result, unmarked))
        deletes: set[str] = set()
        rescanned = None
        evicted_seen: dict[str, str] = {}
        if rules is not None and held.ids is not None:
            expired, evicted_seen, rescanned = _apply_limits(snap, writes, now, held.ids, rules)
            evicted = list(evicted_seen)
            result.expired, result.evicted = expired, evicted
            deletes = set(expired) | set(evicted)
            for ident in deletes:
                writes.pop(ident, None)
            result.new = [i for i in result.new if i not in deletes]
            result.merged = [i for i in result.merged if i not in deletes]
            result.contested = [i for i in result.contested if i not in deletes]
            result.pending = [i for i in result.pending if i not in deletes]
            result.pending_new = [i for i in result.pending_new if i not in deletes]
        body = [f"+ {i} [{writes[i]['kind']}] {summarize(writes[i])}" for i in result.new]
        body += [f"~ {i} [{writes[i]['kind']}] {summarize(writes[i])} ({len(writes[i]['sessions'])} sessions)" for i in result.merged]
        body += [f"? {i} [{writes[i]['kind']}] {summarize(writes[i])} (pending: said once)" for i in result.pending]
        body += [f"! {i} contested by {', '.join(writes[i].get('contested_by', []))}" for i in result.contested]
        if rules is not None:
            body += _dropped_lines(snap, writes, result.expired, result.evicted, rules)
        trailers = [("Op", "capture")]
        if session:
            trailers.append(("Session-Id", session))
        if source:
            trailers.append(("Source", source))
        if len(writes) == 1:
            trailers.append(("Atom-Id", next(iter(writes))))
        where = f" from {session}" if session else ""
        held_back = f", {len(result.pending)} pending" if result.pending else ""
        subject = f"capture: {len(result.new)} new, {len(result.merged)} merged{held_back}{where}"
        if deletes:
            subject += f", {len(deletes)} dropped"
        return Change(subject=subject, body=body, trailers=trailers, writes=writes, deletes=deletes,
                      rescanned=rescanned, evicted=evicted_seen)  # fmt: skip

    stored_invalid: set[str] = set()  # stored records that read but fail the schema
    torn_tombstones: set[str] = set()  # observations held back by a tombstone that cannot be read
    unmarked: set[str] = set()  # such records a contradiction would have marked contested
    refiled: set[str] = set()  # stored ids a sighting of the rule's other spelling went to
    while True:
        try:
            # Queued only if every attempt lost the race: without what the latest one judged
            # nothing new (read from the queue later, `known` no longer judges it). A
            # generator: `transact` lists it after its last attempt.
            to_queue = (obs for obs in [*queued, *latest] if id(obs) not in nothing_new)
            commit, change = store.transact(compute, queue_on_failure=to_queue, guard=guard)
            break
        except InvalidAtomError:
            # A merge into a stored record that fails the schema (a hand edit, a newer version's
            # field) fails the whole commit: hold back those observations alone, as for an
            # unreadable record, and capture the rest.
            snap = store.snapshot()
            found = {str(obs.get("id")) for obs in [*queued, *latest] if isinstance(obs, dict)} | refiled
            bad = {i for i in found - stored_invalid if (stored := snap.atoms.get(i)) is not None and atom_errors(stored)}
            if not bad:
                raise
            stored_invalid |= bad
    for ident in sorted(unmarked - set(result.unreadable)):
        path = atom_path(ident)
        log_error(f"capture: memory/atoms:{path} fails the atom schema, so it was not checked for contradictions "
                  f"with this capture (left as it is; `git memory validate` says why, "
                  f"`git log -p memory/atoms -- {path}` has its history)", store.repo.cwd)  # fmt: skip
    for ident in sorted(torn_tombstones & set(result.unreadable)):
        path = f"{TOMBSTONES_DIR}/{ident}.json"
        log_error(f"capture: memory/atoms:{path} (the tombstone of a forgotten claim) cannot be read; {ident} "
                  f"not learned again (`git memory validate` says why; restore it from "
                  f"`git log -p memory/atoms -- {path}`)", store.repo.cwd)  # fmt: skip
    for ident in sorted(set(result.unreadable) - torn_tombstones):
        path = atom_path(ident)
        log_error(f"capture: memory/atoms:{path} cannot be read as an atom; left as it is and {ident} not merged "
                  f"(`git memory validate` says why; restore it from `git log -p memory/atoms -- {path}`)",
                  store.repo.cwd)  # fmt: skip
    result.commit = commit
    if commit is not None or (change is None or change.empty()):
        # Written (or nothing left to write): the queue has been absorbed — except a queued
        # observation held back by an unreadable record. The queue is its only copy (its
        # transcript was marked captured when it was queued): queued again, before the old
        # file goes, so the capture after the record is restored merges it.
        waiting = set(result.unreadable)
        kept = [obs for obs in queued if str(obs.get("id")) in waiting] if store.last_queue_path is None else []
        if kept:
            store.enqueue(kept, reason="held back: the stored record cannot be read")
        store.clear_queue(queue_paths)
    result.queued = store.last_queue_path is not None
    return result


def _live_under(snap: Snapshot, writes: Mapping[str, Atom], ident: str) -> bool:
    """Whether the store (or this capture) holds a record under `ident`, or a file there that
    cannot be read as one."""
    return ident in writes or ident in snap.atoms or snap.atoms.unreadable(ident)


def _forgotten_under(snap: Snapshot, ident: str) -> bool:
    return ident in snap.tombstones or snap.tombstones.unreadable(ident)


def _filed_under(snap: Snapshot, writes: Mapping[str, Atom], obs: Atom) -> str:
    """The id a sighting is merged under. The rule may be held under another spelling (with
    or without the opening "Always", or the "the" of its first plural noun, or a fact of the
    user's said in another spelling, "User uses Windows" / "User is on Windows": `restated_ids`):
    so "Always X" and "X" said in two sessions are one atom that recurs, not two that never
    do. A record held live comes first (its own id, then the other spellings', in that order:
    after `consolidate` folded two spellings into one, a sighting of the forgotten one counts
    for the one kept); then a forget (its own, then the others': a forget of the rule holds
    back every spelling); else its own id. Atoms stored under two spellings before they
    converged keep their own ids."""
    ident = str(obs["id"])
    if _live_under(snap, writes, ident):
        return ident
    project = obs.get("project") if obs.get("scope") == "project" else None
    others = restated_ids(str(obs["claim"]), project)
    for other in others:
        if _live_under(snap, writes, other):
            return other
    if _forgotten_under(snap, ident):
        return ident
    return next((other for other in others if _forgotten_under(snap, other)), ident)


def _contradictions(snap: Snapshot, writes: dict[str, Atom], result: CaptureResult,
                    unmarked: set[str]) -> dict[str, Atom]:  # fmt: skip
    """Mark the older atom of each new contradiction involving a changed atom,
    comparing the changed atoms with the stored atoms that share a subject key. A stored
    record that fails the schema (a hand edit, a newer version's kind) cannot be written:
    marked, it failed the whole commit. Its pairs are left unmarked (on both sides, so no
    half pair) and it is named in `unmarked`."""
    others: dict[str, Atom] = {}
    for atom in writes.values():
        for key in contradictions.subject_keys(atom):
            for member in snap.subject_members(key):
                if member not in writes and member not in others:
                    found = snap.atoms.get(member)
                    if found is not None:
                        others[member] = found
    found_pairs = contradictions.detect_involving(list(writes.values()), others)
    invalid = {p_id for pair in found_pairs for p_id in (pair.older, pair.newer)
               if p_id in others and atom_errors(others[p_id])}  # fmt: skip
    if invalid:
        unmarked |= invalid
        found_pairs = [pair for pair in found_pairs if pair.older not in invalid and pair.newer not in invalid]
    if not found_pairs:
        return {}
    pool = {**others, **writes}
    marked: dict[str, Atom] = {}
    for atom in contradictions.mark(list(pool.values()), found_pairs):
        if atom != pool.get(atom["id"]):
            marked[atom["id"]] = atom
            result.contested.append(atom["id"])
    return marked


def _evicted_since(snap: Snapshot, obs: Atom) -> bool:
    """Whether the cap evicted this atom after a sighting at least as recent as any in `obs`:
    then `obs` is old evidence read again (a re-read or older session), not a new sighting."""
    evicted = snap.evicted_at(str(obs["id"]))
    return evicted is not None and iso_z(str(obs["last_seen"])) <= evicted


@dataclass
class _Held:
    """The adopted ids the cap and expiry spare, read in the current attempt of the
    transaction; None when they could not be read safely (the limits wait for a later write)."""

    ids: frozenset[str] | None = None
    said: bool = False  # the errors.log line for a memory lock that cannot be opened


def _limits_guard(store: L1Store, rules: Limits, held: _Held) -> Callable[[], AbstractContextManager[object]]:
    """Each attempt of a transaction that applies the cap and expiry reads the adopted ids under
    the memory lock, held until its ref update: `adopt` writes `.memory/adopted.log` under that
    lock, so no adoption lands between the read and the write. Read once before the transaction,
    an atom adopted meanwhile was evicted and its L1 record (the provenance of the adopted line)
    lost. The lock is only tried: while another process holds it (an adopt committing), the
    limits are left to a later write rather than make a session's capture wait."""

    @contextmanager
    def guard() -> Iterator[None]:
        if rules.held is not None:
            held.ids = rules.held
            yield
            return
        stack = ExitStack()
        try:
            free = stack.enter_context(memory_lock_if_free(store.repo, "capture"))
        except RepoStateError as exc:
            if not held.said:
                held.said = True
                log_error(f"capture: the L1 cap and expiry were not applied: {exc.message} ({exc.hint})",
                          store.repo.cwd)  # fmt: skip
            free = False
        with stack:
            held.ids = frozenset(_held_in_work_tree(store)) if free else None
            yield

    return guard


def _stamp(when: _dt.datetime) -> str:
    return when.astimezone(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _apply_limits(snap: Snapshot, writes: Mapping[str, Atom], now: _dt.datetime, held: frozenset[str],
                  rules: Limits) -> tuple[list[str], dict[str, str], tuple[str, str] | None]:  # fmt: skip
    """(expired, {evicted: its last_seen}, rescanned) for the store after `writes`, evicted
    oldest first. Reads every atom only when
    the count after the writes is over the cap, the oldest-last_seen bound is within a day of
    expiring, or the last full scan is older than RESCAN_AFTER; else nothing can be dropped."""
    stats = snap.stats or {}
    added = sum(1 for ident in writes if ident not in snap.atoms)
    count = int(stats.get("count", 0)) + added
    bound = min([b for b in (str(stats.get("oldest") or ""), *(str(a["last_seen"]) for a in writes.values())) if b],
                default="")  # fmt: skip
    margin = now - _dt.timedelta(days=rules.max_age_days) + _dt.timedelta(days=1)
    try:
        scanned_recently = now - parse_time(str(stats.get("scanned") or "")) < RESCAN_AFTER
    except ValueError:
        scanned_recently = False
    bound_ok = not bound or parse_time(bound) > margin
    if count <= rules.cap and bound_ok and scanned_recently:
        return [], {}, None
    view: dict[str, Any] = dict(snap.atoms.load())
    view.update(writes)
    expired, evicted = l1_evictions(view.values(), now, held, rules.cap, rules.max_age_days)
    gone = set(expired) | set(evicted)
    movable = [str(a["last_seen"]) for i, a in view.items()
               if i not in gone and i not in held and not a.get("pinned")]  # fmt: skip
    evicted_seen = {ident: iso_z(str(view[ident]["last_seen"])) for ident in evicted}
    return sorted(expired), evicted_seen, (min(movable, default=""), _stamp(now))


def _dropped_lines(snap: Snapshot, writes: Mapping[str, Atom], expired: Iterable[str], evicted: Iterable[str],
                   rules: Limits) -> list[str]:  # fmt: skip
    def atom(ident: str) -> Mapping[str, Any]:
        return writes.get(ident) or snap.atoms.get(ident) or {"last_seen": "?", "claim": ident}

    lines = [f"- {i} expired: last seen {str(atom(i)['last_seen'])[:10]}, not re-observed in {rules.max_age_days} days — {summarize(atom(i))}" for i in expired]
    lines += [f"- {i} evicted: over the {rules.cap}-atom cap, oldest last_seen {str(atom(i)['last_seen'])[:10]} — {summarize(atom(i))}" for i in evicted]
    return lines


@dataclass
class TranscriptCapture:
    """What capturing one transcript did: `read` is "whole", "resumed" (from where its last
    capture stopped) or "unchanged" (not read: nothing new since its last capture)."""

    result: CaptureResult
    read: str
    skipped_lines: int = 0
    records: int = 0
    unreadable: str | None = None  # nothing in it could be read, and why (nothing was written)
    failed_statements: list[str] = field(default_factory=list)  # skipped: the extractor failed


def capture_file(store: L1Store, project: str, path: str | Path, session: str | None = None,
                 limits: Limits | bool = False, ledger: Ledger | None = None) -> TranscriptCapture:  # fmt: skip
    """Capture what is new in one transcript: nothing when it is unchanged since its last
    capture, the lines after where that capture stopped when it grew, else the whole file;
    then note it in the ledger. Raises OSError when the file cannot be opened. With `limits`,
    caps and expiry run in the same commit (what a single capture wants; a backfill applies
    them once at the end with `enforce_limits`, so an atom seen early and again late in the
    history is not evicted in between)."""
    absolute = os.path.abspath(path)
    key = transcript_key(path)
    ledger = ledger if ledger is not None else Ledger(store.repo.common_dir)
    signature = file_signature(absolute)
    before = ledger.get(TRANSCRIPT, key)
    if before is not None and ledger.unchanged(TRANSCRIPT, key, signature) is not None:
        # a stat, and not a byte of the file read (its identity reads its first records)
        return TranscriptCapture(CaptureResult(commit=None), "unchanged", unreadable=before.unreadable)
    # read as named; its records' session, else `session`, names it (pointers and sessions agree)
    transcript = Transcript.of(absolute, session)
    start = before.position if before is not None and before.unreadable is None else None
    # A forked session's copies of the earlier session's lines are judged in capture_atoms'
    # transaction (`sightings`), against the store it writes: judged before it, two captures at
    # once (the fork's and its parent's, or `capture --all`) each read the store before either
    # wrote, and the line typed once became two sessions.
    extracted = extract_transcript(transcript, project, session=session, start=start)
    stats = extracted.stats
    read = "resumed" if stats.resumed else "whole"
    if not stats.resumed and stats.records == 0:
        why = ("it is empty" if not stats.lines else "its only line is not a readable record" if stats.lines == 1
               else f"none of its {stats.lines} lines is a readable record")
        if signature is not None:
            ledger.record(Entry(TRANSCRIPT, key, signature, unreadable=why))
        return TranscriptCapture(CaptureResult(commit=None), read, stats.skipped_lines, 0, why)

    def sightings(snap: Snapshot) -> list[Atom]:
        atoms, pending = sightings_of(extracted.observations, copied_from(snap))
        return [*atoms, *pending]

    incoming = sightings(store.snapshot())
    sessions = sorted({s for a in incoming for s in a["sessions"]})
    session_id = sessions[0] if len(sessions) == 1 else transcript.session if not sessions else None
    result = capture_atoms(store, incoming, session_id, transcript.pointer, limits, rejudge=sightings)
    for failed in extracted.failed_statements:
        log_error(f"capture {transcript.pointer}: skipped a statement the extractor failed on: "
                  f"{failed}", store.repo.cwd)  # fmt: skip
    if signature is not None and not extracted.failed_statements and not result.unreadable:
        # (not when a statement failed, or an observation met an unreadable record: a later
        # run, a fixed extractor or a restored record, reads it again; what was captured now
        # adds no observation then)
        ledger.record(Entry(TRANSCRIPT, key, signature, stats.end))
    return TranscriptCapture(result, read, stats.skipped_lines, stats.records,
                             failed_statements=extracted.failed_statements)  # fmt: skip


def copied_from(snap: Snapshot) -> Callable[[Atom], bool]:
    """Whether one observation is a copy of a line the store holds from another session, not a
    sighting. `claude --resume <id> --fork-session` (2.1.332) writes the new session's file
    opening with copies of the earlier session's records, their `uuid` kept and their
    `sessionId` rewritten to the new session's: counted, the rule typed once became two
    observations in two sessions, and every fork of that session one more session toward the
    gate's distinct sessions (spec §4.1: a rule said in two sessions on two days passed the
    3-session gate once one of them was forked). The copy is known by the record's `uuid` and
    its time, both kept in the evidence (`record`, `at`), or, once that quote was trimmed (an
    atom's evidence is bounded: atom.select_evidence), in `records_omitted` under one of the
    atom's sessions (every one is kept): atom.held_records. Reads only the atoms the
    transcript names."""

    def copied(obs: Atom) -> bool:
        found = held_from(snap, obs)
        if found is None:
            return False
        # the same record (a copy keeps its uuid and its time) held from another session
        seen = found[1]
        return bool(seen) and found[0] not in seen

    return copied


def held_from(snap: Snapshot, obs: Atom) -> tuple[str, set[str], Atom] | None:
    """(the observation's session, the sessions the store holds its transcript record from —
    its `uuid` and time, kept in the evidence or fingerprinted in `records_omitted`:
    atom.held_records —, the stored atom), or None when the observation names no one record
    or the store holds no atom for it (under the rule's other spelling too). `copied_from`'s
    test, and `git memory extract`'s (cli/extract.py), one check for both."""
    items = obs.get("evidence") or []
    record = items[0].get("record") if len(items) == 1 else None
    if not record:
        return None
    session, at = str(items[0].get("session")), items[0].get("at")
    try:
        held = snap.atoms.get(_filed_under(snap, {}, obs))  # under the rule's other spelling too
    except Exception:  # noqa: BLE001 - an unreadable record: capture_atoms says why
        return None
    if not held:
        return None
    return session, held_records(held, str(record), str(at), held.get("sessions", [])), held


def capture_transcript(store: L1Store, project: str, transcript: Path, session: str | None = None,
                       limits: Limits | bool = False) -> tuple[CaptureResult, int]:  # fmt: skip
    """`capture_file`, as (the result, lines skipped as unreadable)."""
    done = capture_file(store, project, transcript, session, limits)
    return done.result, done.skipped_lines


def enforce_limits(store: L1Store, cap: int = L1_CAP, max_age_days: int = L1_MAX_AGE_DAYS,
                   held: Iterable[str] | None = None) -> str | None:
    """Drop expired atoms (not re-observed in 90 days) and evict the oldest `last_seen` beyond
    the cap, as one commit that names every dropped atom and why. Atoms held at L2 (`held`:
    ids adopted in the work tree's adopted.log; by default read from it) keep their L1 record:
    it is the provenance chain of an adopted line. Starts from the
    counts in `index/stats.json`: when nothing can be over the cap or expired, no atom is read
    and nothing is written."""
    rules = Limits(cap, max_age_days, frozenset(held) if held is not None else None)
    held_now = _Held()

    def compute(snap: Snapshot) -> Change | None:
        if held_now.ids is None:
            return None  # an adopt is committing: the limits wait for a later write
        expired, evicted_seen, _ = _apply_limits(snap, {}, now_utc(), held_now.ids, rules)
        evicted = list(evicted_seen)
        if not expired and not evicted:
            return None
        body = _dropped_lines(snap, {}, expired, evicted, rules)
        parts = []
        if expired:
            parts.append(f"{len(expired)} expired")
        if evicted:
            parts.append(f"{len(evicted)} evicted over the {cap}-atom cap")
        return Change(subject=f"expire: dropped {' and '.join(parts)}", body=body,
                      trailers=[("Op", "expire")], deletes=set(expired) | set(evicted), evicted=evicted_seen)

    commit, _ = store.transact(compute, guard=_limits_guard(store, rules, held_now))
    return commit


def _held_in_work_tree(store: L1Store) -> set[str]:
    """The ids adopted in the work tree (exempt from the L1 cap); none when its log names more
    atoms than anyone adopts (not read: it cost the session end's capture ~20 s and 1 GB),
    said once a day, and the capture goes on."""
    try:
        return set(tiers.l2_atoms(store.repo.workdir))
    except tiers.TooManyAtomsError as exc:
        tiers.log_too_many_atoms(exc, store.repo.cwd)
        return set()
