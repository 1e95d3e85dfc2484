"""The atom: identity, schema validation, serialisation and the merge join.

Everything that writes an atom goes through `validate_atom()`; everything that combines two
observations of one claim goes through `merge()`, which is a true join (commutative,
associative, idempotent) so that re-capturing a transcript changes nothing and two clones'
`memory/atoms` branches merge without conflicts.

The cold session start imports this module for `normalize` and the `Atom` type, so nothing
heavier than the clock is imported at the top (json, re, typing, importlib.resources and
jsonschema are imported by the functions that use them; tests/test_context.py pins it).
"""

from __future__ import annotations

from agent_memory.model.clock import iso_z, parse_ts, utc_day  # noqa: F401 - iso_z, utc_day re-exported
from agent_memory.model.controls import replace_controls
from agent_memory.model.errors import InvalidAtomError
from agent_memory.model.user_slots import slot_spellings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any, TypedDict

    class _AtomOptional(TypedDict, total=False):
        """Fields an atom may carry (by scope and tier, the lifecycle flags, local L1 state)."""

        project: str
        contested: bool
        contested_by: list[str]
        promoted_at: str
        promoted_from_projects: list[str]
        hand_authored: bool
        evidence: list[dict[str, Any]]  # local only: stripped by to_committed
        evidence_omitted: list[str]  # local only: fingerprints of the evidence whose quotes were not kept
        records_omitted: list[str]  # local only: fingerprints of the records of those (record_fingerprint)
        pinned: bool
        decayed: bool
        superseded_by: str
        consolidated_from: list[str]
        verified_by: str
        review: dict[str, Any]  # local only: the person's decision on it
        rule: str  # local only: the extraction rule that produced it
        origin: str  # "auto-memory": Claude Code's own memory file (untrusted, adopt-only)
        pending: bool  # local only: said once, held by the durability gate until it recurs
        memory_file: str  # that file, relative to the auto-memory folder


    class Atom(_AtomOptional):
        """One atom: the 13 required fields; JSON Schema validation on every write
        checks values, this type checks keys."""

        id: str
        claim: str
        scope: str
        kind: str
        first_seen: str
        last_seen: str
        observations: int
        sessions: list[str]
        source: str
        first_source: str
        confidence: str
        tier: str
        redacted: bool
else:
    Atom = dict  # at run time an Atom is a dict; `typing` stays out of the cold session start


KINDS = ("constraint", "preference", "fact", "decision", "failure")
CONFIDENCE_ORDER = {"observed": 0, "stated": 1, "verified": 2}
REQUIRED_FIELDS = (
    "id", "claim", "scope", "kind", "first_seen", "last_seen", "observations", "sessions",
    "source", "first_source", "confidence", "tier", "redacted",
)
# The longest claim an atom holds (`claim.maxLength` in resources/atom.schema.json).
MAX_CLAIM_CHARS = 500
# Fields that only make sense locally (L1) and must never reach committed material.
LOCAL_ONLY_FIELDS = ("evidence", "evidence_omitted", "records_omitted", "review", "pending")


def without_local_fields(atom: dict[str, Any]) -> dict[str, Any]:
    """`atom` without LOCAL_ONLY_FIELDS (the same object when it has none). Adopt never commits
    them, so a committed log line that holds them was written by hand: its `evidence` paths
    made `inspect --why` read and print a line of any file of the person who cloned the repository."""
    if not any(field in atom for field in LOCAL_ONLY_FIELDS):
        return atom
    return {k: v for k, v in atom.items() if k not in LOCAL_ONLY_FIELDS}
# Bounded evidence: every session id is kept (the gates count them), but quotes only
# for the first and the latest sighting and the first sighting of each of the latest
# EVIDENCE_DAYS distinct days; the rest are kept as EVIDENCE_FINGERPRINT-digit fingerprints of
# their identity (`evidence_identity`: session and line) in `evidence_omitted`, so
# `observations` stays the exact count of distinct evidence and `inspect --why` can say how
# many quotes were not kept.
EVIDENCE_DAYS = 6
EVIDENCE_FINGERPRINT = 10

# A back-pointer names a transcript line; an atom from Claude Code's auto-memory folder whose
# writing session is unknown names the memory file's line instead (`…/memory/<file>.md#L<n>`,
# automemory/provenance in extract/memory_notes.py). Neither form ever holds a `..` segment.
L1_POINTER_PATTERN = (r"^~/\.claude/projects/[^/]+/(?:[A-Za-z0-9._-]+\.jsonl"
                      r"|memory/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*/)*[A-Za-z0-9_-][A-Za-z0-9._-]*\.md)#L[0-9]+$")
STRIPPED_POINTER_PATTERN = r"^(?:[A-Za-z0-9._-]+\.jsonl|[A-Za-z0-9_-][A-Za-z0-9._-]*\.md)#L[0-9]+$"
_HEX = frozenset("0123456789abcdef")


def is_atom_id(value: object) -> bool:
    """`^atm_[0-9a-f]{8}$` without `re`."""
    return isinstance(value, str) and len(value) == 12 and value.startswith("atm_") and set(value[4:]) <= _HEX


def normalize(claim: str) -> str:
    """Collapse whitespace, then casefold, then strip trailing punctuation, in that order: two
    claims are one atom when these forms are equal. (`str.split()` and `\\s+` agree on what
    whitespace is, and `re` stays out of the cold session start.)"""
    return " ".join(claim.split()).casefold().rstrip(".,;:!?")


def atom_id(claim: str, project: str | None) -> str:
    """Project-scoped id; `project=None` gives the project-free (global, L3) id."""
    key = normalize(claim) if project is None else normalize(claim) + "\0" + project
    import hashlib  # deferred: SessionStart imports this module

    return "atm_" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:8]


# A positive rule is said with its "always" or without it ("Always run the tests before
# committing" / "From now on, run the tests before committing"): the extractor keeps the word
# where the person said it, so the two spellings are two ids of one rule. So is a plural noun
# said with its "the" or without it ("Run the tests…" / "Run tests…", "Run the unit tests…" /
# "Run unit tests…"): what the rule is about is the same. Ids stay hashes of the claim as said
# (the spec's example ids do not move): the other spellings are ids to look up, and a few at
# most — the article at one place only, before the claim's first word that reads as a plural
# noun or before the word in front of it, so a sighting costs at most five more lookups, not
# one per noun (a bare fact of the user's slots, model/user_slots.py, three more at most).
_ALWAYS = "always "
# Before the plural, a word that already says which ones: "all tests" is not "all the tests"
# said without its article (and "all the tests" has no article-free spelling, so the relation
# stays symmetric).
_DETERMINERS = frozenset((
    "the", "a", "an", "all", "any", "some", "no", "none", "my", "our", "your", "their", "his", "her", "its",
    "these", "those", "this", "that", "both", "each", "every", "many", "few", "several", "more", "most",
    "other", "such", "same", "own", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
))
# Words ending in -s that are no plural noun and open many rules ("always", "uses", "runs").
_NOT_PLURAL = frozenset((
    "always", "sometimes", "perhaps", "unless", "whereas", "across", "towards", "afterwards", "besides",
    "does", "goes", "uses", "runs", "makes", "takes", "gets", "needs", "means", "keeps", "lets", "says",
    "works", "seems", "looks",
))


def _plural_at(words: list[str]) -> int:
    """Where the first word that reads as a plural noun is (-1 for none): ASCII letters ending
    in a plain -s ("tests", "migrations"; not "class", "status", "analysis")."""
    for i, word in enumerate(words):
        core = word.rstrip(",;:.!?)\"'")
        if (len(core) >= 4 and core.isascii() and core.isalpha() and core.endswith("s")
                and not core.endswith(("ss", "us", "is")) and core not in _NOT_PLURAL):
            return i
    return -1


def _article_spellings(text: str) -> list[str]:
    """`text` (normalized) with the "the" of its first plural noun dropped, or added — before
    the noun ("run the tests") or before the one word in front of it ("run the unit tests") —
    kept only where the spelling's own article spellings lead back to `text`, so that whichever
    spelling is held, a sighting of the other finds it."""
    return [other for other in _article_candidates(text) if text in _article_candidates(other)]


def _article_candidates(text: str) -> list[str]:
    words = text.split(" ")
    i = _plural_at(words)
    if i < 0:
        return []
    # the nearest "the": before the noun, or before the one word in front of it
    the = next((at for at in (i - 1, i - 2) if at >= 0 and words[at] == "the"), -1)
    return _without_the(words, the, i) if the >= 0 else _with_the(words, i)


def _without_the(words: list[str], the: int, noun: int) -> list[str]:
    """"the" at `the` dropped; none when a word in front of it or between it and the noun says
    which ones ("all the tests", "the two tests")."""
    if (the >= 1 and _says_which(words[the - 1])) or any(_says_which(w) for w in words[the + 1 : noun]):
        return []
    return [" ".join(words[:the] + words[the + 1 :])]


def _with_the(words: list[str], noun: int) -> list[str]:
    """"the" added before the noun ("run the tests") and before the word in front of it ("run
    the unit tests"), where no word around it says which ones."""
    return [" ".join([*words[:at], "the", *words[at:]]) for at in (noun, noun - 1)
            if at >= 0 and not any(_says_which(w) for w in words[max(at - 1, 0) : at] + words[at:noun])]


def _says_which(word: str) -> bool:
    """A word in front of a plural that already says which ones ("all", "my", "2")."""
    return word in _DETERMINERS or word.isdigit()


def restated_ids(claim: str, project: str | None) -> list[str]:
    """The ids of `claim`'s other spellings — its opening "Always" dropped or added, the "the"
    of its first plural noun dropped or added (`_article_spellings`), and both; a fact of the
    user's one-value slots said bare in another spelling (`user_slots.slot_spellings`) — the one rule
    as it may be held (capture files a sighting under whichever is held; L3 groups them)."""
    text = normalize(claim)
    body = text[len(_ALWAYS) :] if text.startswith(_ALWAYS) else text
    if not body.strip():
        return []
    bodies = [body, *_article_spellings(body)]
    # the "Always" spelling first (the one looked up before the article spellings existed)
    ids = [atom_id(spelling, project) for one in bodies for spelling in (one, _ALWAYS + one) if spelling != text]
    # one fact of the user's said in another of the extractor's spellings ("User uses Windows" /
    # "User is on Windows"), last: the lookups above came first
    return ids + [atom_id(spelling, project) for spelling in slot_spellings(text)]


def expected_id(atom: Mapping[str, Any]) -> str:
    project = atom.get("project") if atom.get("scope") == "project" else None
    return atom_id(str(atom.get("claim", "")), project)


def strip_pointer(pointer: str) -> str:
    """What promotion keeps of a back-pointer: only `<session>.jsonl#L<n>` (a path prefix would
    write an OS user name into a tracked file); the line number is untouched."""
    return pointer.replace("\\", "/").rsplit("/", 1)[-1]


def new_atom(
    claim: str,
    kind: str,
    *,
    project: str | None,
    source: str,
    at: str,
    session: str,
    confidence: str,
    redacted: bool,
    tier: str = "L1",
    evidence: Mapping[str, Any] | None = None,
    **optional: Any,
) -> Atom:
    """An atom of one sighting, the one place the required fields are filled in: `claim`
    (already redacted; `redacted` says whether redaction changed it) seen in `session` at `at`,
    its back-pointer `source`. A `project` scopes the atom (and its id) to that project; None
    makes it global, with the project-free id. `evidence` is the sighting's quote, rule and
    local path, whose back-pointer, time and session are the atom's. `optional` carries the
    schema's optional fields (hand_authored, origin, promoted_from_projects, …).

    Later sightings join it through `merge`. Nothing is validated here: the store validates
    every atom it writes, and a caller that keeps an atom elsewhere calls `validate_atom`.

    Every claim is built here, so here it loses its control characters (model/controls.py):
    a terminal would act on them — `ESC [ 8 m` hides what follows from the person reviewing
    the claim — and whoever wrote the source (Claude's own memory files, say) is untrusted."""
    claim = replace_controls(claim)
    atom: dict[str, Any] = {
        "id": atom_id(claim, project),
        "claim": claim,
        "scope": "global" if project is None else "project",
        "kind": kind,
        "first_seen": at,
        "last_seen": at,
        "observations": 1,
        "sessions": [session],
        "source": source,
        "first_source": source,
        "confidence": confidence,
        "tier": tier,
        "redacted": redacted,
    }
    if project is not None:
        atom["project"] = project
    if evidence is not None:
        atom["evidence"] = [{"source": source, "at": at, "session": session, **evidence}]
    atom.update(optional)
    return _as_atom(atom)


# --- schema -------------------------------------------------------------------------------


_CACHE: dict[str, Any] = {}


def _schema() -> dict[str, Any]:
    if "schema" not in _CACHE:
        import json
        from importlib import resources

        text = resources.files("agent_memory").joinpath("resources/atom.schema.json").read_text("utf-8")
        _CACHE["schema"] = json.loads(text)
    schema: dict[str, Any] = _CACHE["schema"]
    return schema


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with its internal `#/$defs/…` references inlined: the same constraints,
    but jsonschema no longer resolves a reference per field (about a third of the cost)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1:
            return _inline_refs(defs[ref[len("#/$defs/"):]], defs)
        return {k: _inline_refs(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


def _validator() -> Any:
    if "validator" not in _CACHE:
        import jsonschema  # deferred: the hook fast paths never validate

        full = _schema()
        cls = jsonschema.validators.validator_for(full)
        _CACHE["validator"] = cls(_inline_refs(full, full.get("$defs", {})))
    return _CACHE["validator"]


def schema() -> dict[str, Any]:
    return _schema()


def schema_errors(atom: Any) -> list[str]:
    """Every schema violation, as `path: message` lines (empty when valid)."""
    errors = []
    for err in sorted(_validator().iter_errors(atom), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in err.absolute_path) or "(atom)"
        errors.append(f"{where}: {err.message}")
    return errors


def invariant_errors(atom: Mapping[str, Any]) -> list[str]:
    """Invariants JSON Schema cannot express."""
    import re
    errors = []
    try:
        if parse_ts(atom["first_seen"]) > parse_ts(atom["last_seen"]):
            errors.append(f"first_seen {atom['first_seen']} is after last_seen {atom['last_seen']}")
    except (KeyError, ValueError, TypeError):
        pass  # reported by the schema
    claim = atom.get("claim")
    if isinstance(claim, str) and atom.get("id") and atom.get("id") != expected_id(atom):
        errors.append(f"id {atom.get('id')} does not match its claim and project (expected {expected_id(atom)})")
    sessions = atom.get("sessions")
    if isinstance(sessions, list) and len(set(map(str, sessions))) != len(sessions):
        dupes = sorted({s for s in sessions if sessions.count(s) > 1})
        errors.append(f"duplicate sessions: {', '.join(map(str, dupes))}")
    tier = atom.get("tier")
    for field in ("source", "first_source"):
        pointer = atom.get(field)
        if not isinstance(pointer, str):
            continue
        if tier == "L1" and not re.match(L1_POINTER_PATTERN, pointer):
            errors.append(f"{field} {pointer!r} is not an L1 back-pointer (~/.claude/projects/<slug>/<session>.jsonl#L<n>)")
        if tier in ("L2", "L3") and not re.match(STRIPPED_POINTER_PATTERN, pointer):
            errors.append(f"{field} {pointer!r} at {tier} must be stripped to <session>.jsonl#L<n> (no path prefix)")
    evidence = atom.get("evidence")
    if (isinstance(evidence, list) and evidence and isinstance(atom.get("observations"), int)
            and atom["observations"] < len(evidence)):
        errors.append(f"observations {atom['observations']} is less than the {len(evidence)} distinct evidence back-pointers")
    return errors


def atom_errors(atom: Any) -> list[str]:
    if not isinstance(atom, dict):
        return ["(atom): not a JSON object"]
    return schema_errors(atom) + invariant_errors(atom)


def validate_atom(atom: Any) -> Atom:
    errors = atom_errors(atom)
    if errors:
        ident = atom.get("id", "?") if isinstance(atom, dict) else "?"
        raise InvalidAtomError(f"atom {ident} is invalid: {errors[0]}", errors)
    return atom


# "remembered": said again with `git memory remember` after a decision against it (store/said_again.py)
REVIEW_STATES = ("adopted", "rejected", "demoted", "remembered")


def review_is_valid(review: Any) -> bool:
    """True only when `review` meets the schema's rules for an L1 atom's `review` record
    (`properties.review` of atom.schema.json: state, at and sessions required, commit
    optional, nothing else), checked without jsonschema. A write that changes only that
    record of a stored atom needs no whole-schema run (`store.l1`); False means "run the
    schema", never "invalid". tests/test_atom.py holds this to the schema."""
    import re

    if type(review) is not dict or not {"state", "at", "sessions"} <= set(review) <= {"state", "at", "sessions", "commit"}:
        return False
    at, sessions = review["at"], review["sessions"]
    return (
        review["state"] in REVIEW_STATES
        and type(at) is str
        and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z", at, re.ASCII) is not None
        and type(sessions) is int
        and sessions >= 0
        and type(review.get("commit", "")) is str
    )


def dump_atom(atom: Mapping[str, Any]) -> str:
    """The stored form: sorted keys, indented, trailing newline (diffable in git)."""
    import json
    return json.dumps(atom, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def load_atom(text: str | bytes) -> Atom:
    import json
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:  # (nested past json's recursion)
        raise InvalidAtomError(f"not JSON: {exc}") from exc
    return validate_atom(data)


def read_stored_atom(text: str | bytes) -> Atom:
    """A stored atom for reading: parsed and checked for the shape every reader relies on.
    Full schema validation happens on every write (and in `git memory validate`), so reads —
    status, recall index rebuilds, each retry of a transaction — do not pay for it again."""
    import json
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:  # (nested past json's recursion)
        raise InvalidAtomError(f"not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise InvalidAtomError("not a JSON object")
    missing = [f for f in REQUIRED_FIELDS if f not in data]
    if missing:
        raise InvalidAtomError(f"missing {', '.join(missing)}")
    if not isinstance(data["sessions"], list) or not isinstance(data["claim"], str) or not is_atom_id(data["id"]):
        raise InvalidAtomError("malformed id, claim or sessions")
    return _as_atom(data)  # keys checked above; values by the schema on write


# --- the merge join -----------------------------------------------------------------------


def _as_atom(value: Any) -> Atom:
    """A dict known to carry an atom's keys, as the Atom type (what `typing.cast` does,
    without importing `typing` on the cold session-start path)."""
    return value  # type: ignore[no-any-return,unused-ignore]


def _max_conf(a: str, b: str) -> str:
    return a if CONFIDENCE_ORDER.get(a, -1) >= CONFIDENCE_ORDER.get(b, -1) else b


def evidence_fingerprint(key: str) -> str:
    import hashlib

    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:EVIDENCE_FINGERPRINT]


def record_fingerprint(session: str, record: str, at: str) -> str:
    """The fingerprint `records_omitted` keeps of a piece of evidence whose quote was not kept:
    its session, the transcript record it was read from (`uuid`) and that record's time. A
    fork's copy of the record keeps the uuid and the time under another session: tried against
    the atom's sessions (all kept), it names the session the line is held from."""
    return evidence_fingerprint(f"{session}\0{record}\0{at}")


def record_fingerprint_of(item: Mapping[str, Any]) -> str | None:
    """`record_fingerprint` of an evidence item, or None when it names no record or session."""
    record, session = item.get("record"), item.get("session")
    if not isinstance(record, str) or not record or not isinstance(session, str) or not session:
        return None
    return record_fingerprint(session, record, str(item.get("at", "")))


def held_records(atom: Mapping[str, Any], record: str, at: str, sessions: Iterable[str]) -> set[str]:
    """Those of `sessions` whose evidence in `atom` is the transcript record `record` at `at`:
    a kept quote's, or one whose quote was trimmed (`records_omitted`)."""
    candidates = set(sessions)
    found = {str(e.get("session")) for e in atom.get("evidence") or []
             if isinstance(e, dict) and e.get("record") == record and e.get("at") == at} & candidates  # fmt: skip
    omitted = set(atom.get("records_omitted") or [])
    if omitted:
        found |= {s for s in candidates - found if record_fingerprint(s, record, at) in omitted}
    return found


def evidence_identity(item: Mapping[str, Any]) -> str:
    """What makes two pieces of evidence one: the session and the line (observations count
    distinct (session, line)), never the path the transcript was read from — a copy of it in
    another folder or under another name is the same evidence, and counting it again inflated
    `observations` and let a made-up pointer in. A subagent's file numbers its own lines under
    its parent's session, so its name stays in; a line of a memory file, or evidence with no
    session, is known by its pointer alone."""
    source = str(item["source"])
    body, _, line = source.rpartition("#L")
    name = body.rsplit("/", 1)[-1]
    session = item.get("session")
    if not isinstance(session, str) or not session or not name.endswith(".jsonl") or not line:
        return source
    return f"{session}\0{name if name.startswith('agent-') else ''}#L{line}"


def _the_transcripts_own(item: Mapping[str, Any]) -> tuple[bool, bool]:
    """Of two readings of one line, which is the transcript's own rather than a copy's: the
    file read sits where its pointer says (in a `projects/<slug>/` folder), and the pointer
    names the file after the evidence's session, as Claude Code names a session's transcript."""
    parts = str(item["source"]).partition("#")[0].split("/")
    slug, name = (parts[-2] if len(parts) > 1 else ""), parts[-1]
    path = str(item.get("path") or "").replace("\\", "/")
    at_pointer = f"/projects/{slug}/" in path and path.endswith("/" + name)
    return at_pointer, name == f"{item.get('session')}.jsonl"


def _evidence_key(item: Mapping[str, Any]) -> tuple[str, str]:
    # A line has one timestamp: (at, identity) orders sightings, and two readings of one line
    # (a quote redacted differently, a copy of the transcript) rank alike.
    return str(item.get("at", "")), evidence_identity(item)


def select_evidence(items: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The evidence whose quotes are kept: the first and the latest sighting, and the first
    sighting of each of the latest EVIDENCE_DAYS distinct UTC days, sorted by back-pointer.
    Each is a minimum or maximum over a set (or the largest days of a set), so selecting
    from the selections of two sets gives the selection of their union: merge stays a join."""
    pool = list(items)
    if not pool:
        return []
    chosen = {_evidence_key(min(pool, key=_evidence_key)), _evidence_key(max(pool, key=_evidence_key))}
    by_day: dict[str, tuple[str, str]] = {}
    for item in pool:
        key = _evidence_key(item)
        day = key[0][:10]
        if day not in by_day or key < by_day[day]:
            by_day[day] = key
    for day in sorted(by_day, reverse=True)[:EVIDENCE_DAYS]:
        chosen.add(by_day[day])
    kept = [dict(item) for item in pool if _evidence_key(item) in chosen]
    return sorted(kept, key=lambda e: str(e["source"]))


def _merge_evidence(a: Mapping[str, Any], b: Mapping[str, Any]
                    ) -> tuple[list[dict[str, Any]], list[str], dict[str, dict[str, Any]], list[str]]:  # fmt: skip
    """(kept evidence, fingerprints of the rest, {identity: the reading chosen for it}, the
    rest's record fingerprints) of the union of two records' evidence, one reading per
    `evidence_identity`."""
    import json

    def rank(item: Mapping[str, Any]) -> tuple[tuple[bool, bool], str]:
        # One line read twice (a copy of the transcript): the transcript's own reading first,
        # then the larger, so the choice is independent of merge order.
        return _the_transcripts_own(item), json.dumps(item, sort_keys=True)

    by_identity: dict[str, dict[str, Any]] = {}
    for item in [*a.get("evidence", []), *b.get("evidence", [])]:
        key = evidence_identity(item)
        current = by_identity.get(key)
        if current is None or rank(item) > rank(current):
            by_identity[key] = dict(item)
    kept = select_evidence(by_identity.values())
    every = {evidence_fingerprint(k) for k in by_identity}
    every.update(a.get("evidence_omitted", []), b.get("evidence_omitted", []))
    # Records written before evidence was keyed by (session, line) fingerprinted the pointer:
    # such a fingerprint of a line read again here is that same line, not another sighting.
    every.difference_update(evidence_fingerprint(str(e["source"])) for e in by_identity.values()
                            if evidence_identity(e) != e["source"])
    every.difference_update(evidence_fingerprint(evidence_identity(e)) for e in kept)
    # Every reading of a line whose quote goes: a fork's copy of it is known by its record
    # (`copied_from`), which the quote's evidence was the only place to keep.
    records = {fp for e in [*a.get("evidence", []), *b.get("evidence", [])]
               if (fp := record_fingerprint_of(e)) is not None}  # fmt: skip
    records.update(a.get("records_omitted", []), b.get("records_omitted", []))
    records.difference_update(fp for e in kept if (fp := record_fingerprint_of(e)) is not None)
    return kept, sorted(every), by_identity, sorted(records)


def _sighting(record: Mapping[str, Any], pointer: str, at: str) -> str:
    """The identity of the line `pointer` (seen `at`) names in `record`: its evidence says
    whose session it is; a record without that evidence has the pointer alone."""
    for item in record.get("evidence", []):
        if item["source"] == pointer and item.get("at") == at:
            return evidence_identity(item)
    return pointer


def omitted_quotes(atom: Mapping[str, Any]) -> int:
    """How many of the atom's distinct sightings have no quote kept (`inspect --why`)."""
    return len(atom.get("evidence_omitted") or [])


def merge(a: Mapping[str, Any], b: Mapping[str, Any]) -> Atom:
    """Join two records of the same atom.

    sessions ∪, first_seen min, last_seen max, confidence max (never down), redacted OR,
    source = newest, first_source = oldest, observations = distinct evidence. Every field is
    chosen by a total order or a set union, so the result does not depend on argument order
    or grouping, and merging a record into itself changes nothing.
    """
    _same_atom(a, b)
    out = _as_atom({})  # filled field by field below
    keys = set(a) | set(b)
    # Sightings are ordered by (time, line seen), not by the path a line was read from: a
    # copy's reading of a line ranks with the transcript's own, and gives way to it below.
    first = min((a["first_seen"], _sighting(a, a["first_source"], a["first_seen"]), a["claim"], a["kind"]),
                (b["first_seen"], _sighting(b, b["first_source"], b["first_seen"]), b["claim"], b["kind"]))
    latest = max((a["last_seen"], _sighting(a, a["source"], a["last_seen"])),
                 (b["last_seen"], _sighting(b, b["source"], b["last_seen"])))
    out["id"] = a["id"]
    out["scope"] = a["scope"]
    out["tier"] = a["tier"]
    if "project" in keys:
        out["project"] = a.get("project", b.get("project"))
    out["first_seen"], first_line, out["claim"], out["kind"] = first
    out["last_seen"], latest_line = latest
    out["sessions"] = sorted(set(a["sessions"]) | set(b["sessions"]))
    out["confidence"] = _max_conf(a["confidence"], b["confidence"])
    out["redacted"] = bool(a["redacted"] or b["redacted"])
    evidence, omitted, readings, records = _merge_evidence(a, b)
    out["first_source"] = _pointer(readings, first_line)
    out["source"] = _pointer(readings, latest_line)
    if evidence:
        out["evidence"] = evidence
    if omitted:
        out["evidence_omitted"] = omitted
    if records:
        out["records_omitted"] = records
    out["observations"] = max(len(evidence) + len(omitted), int(a["observations"]), int(b["observations"]))
    # Pending (said once, below the gate's keep bar) only while every record is pending and all
    # were said in one session: a second session, or one sighting that cleared the bar, makes
    # it an atom. (An AND of the records' flags with a bound on the sessions' union: still a
    # join — commutative, associative, idempotent.) A record from Claude's own memory files
    # lifts it too: the merged atom then carries that origin, so it is still never recalled and
    # reaches a committed tier only through a person's adopt.
    if a.get("pending") and b.get("pending") and len(out["sessions"]) < 2:
        out["pending"] = True
    # the optional fields, after the rest as before: a record's keys keep their order
    _join_flags(out, a, b, keys)
    _join_labels(out, a, b)
    return out


def _same_atom(a: Mapping[str, Any], b: Mapping[str, Any]) -> None:
    """Only two records of one atom in one tier merge."""
    if a.get("id") != b.get("id"):
        raise ValueError(f"cannot merge different atoms {a.get('id')} and {b.get('id')}")
    if a.get("tier") != b.get("tier"):
        raise ValueError(f"cannot merge {a.get('id')} across tiers {a.get('tier')}/{b.get('tier')}")


def _pointer(readings: Mapping[str, Mapping[str, Any]], line: str) -> str:
    """The pointer of the reading the evidence keeps for `line` (not a copy's): capturing a
    copy of a transcript changes no pointer. Without evidence, the identity is the pointer."""
    return str(readings[line]["source"]) if line in readings else line


def _join_flags(out: Atom, a: Mapping[str, Any], b: Mapping[str, Any], keys: set[str]) -> None:
    """The flags (OR) and the listed ids (union) either record has."""
    for flag in ("contested", "pinned", "decayed", "hand_authored"):
        if flag in keys:
            out[flag] = bool(a.get(flag) or b.get(flag))
    for listed in ("contested_by", "consolidated_from", "promoted_from_projects"):
        if listed in keys:
            out[listed] = sorted(set(a.get(listed, [])) | set(b.get(listed, [])))


def _join_labels(out: Atom, a: Mapping[str, Any], b: Mapping[str, Any]) -> None:
    """The single-valued fields either record has, each by a total order: origin and memory
    file the least, superseded_by and verified_by the greatest, promoted_at the earliest, the
    latest review."""
    import json

    # Claude Code's own memory stays labelled as such once any record of the atom came from it
    # (an atom the user typed too keeps both origins: its typed evidence says the rest).
    for labelled in ("origin", "memory_file"):
        values = sorted(str(v) for v in (a.get(labelled), b.get(labelled)) if v)
        if values:
            out[labelled] = values[0]  # type: ignore[literal-required,unused-ignore]
    for latest_wins in ("superseded_by", "verified_by"):
        values = [v for v in (a.get(latest_wins), b.get(latest_wins)) if v]
        if values:
            out[latest_wins] = max(values)
    stamps = [v for v in (a.get("promoted_at"), b.get("promoted_at")) if v]
    if stamps:
        out["promoted_at"] = min(stamps)
    reviews: list[dict[str, Any]] = [dict(r) for r in (a.get("review"), b.get("review")) if r]
    if reviews:
        out["review"] = max(reviews, key=lambda r: json.dumps(
            [r.get("at"), r.get("state"), r.get("sessions"), r.get("commit", "")]))


def is_pending(atom: Mapping[str, Any]) -> bool:
    """Said once and held by the durability gate until it recurs (`pending`; see `merge`)."""
    sessions = atom.get("sessions")
    return atom.get("pending") is True and isinstance(sessions, list) and len(set(sessions)) < 2


def merge_all(records: Iterable[Mapping[str, Any]]) -> Atom:
    it = iter(records)
    acc = _as_atom(dict(next(it)))
    for rec in it:
        acc = merge(acc, rec)
    return acc


# --- tier transforms ----------------------------------------------------------------------


def to_committed(atom: Mapping[str, Any], tier: str, promoted_at: str) -> Atom:
    """The form an atom takes in committed material (L2/L3): back-pointers stripped,
    local-only fields dropped, `promoted_at` set."""
    out = _as_atom({k: v for k, v in atom.items() if k not in LOCAL_ONLY_FIELDS})
    out["tier"] = tier
    out["source"] = strip_pointer(str(atom["source"]))
    out["first_source"] = strip_pointer(str(atom["first_source"]))
    out.setdefault("promoted_at", promoted_at)
    return out


def contested_ids(atoms: Iterable[Mapping[str, Any]]) -> set[str]:
    out: set[str] = set()
    for atom in atoms:
        out.update(atom.get("contested_by", []) or [])
    return out
