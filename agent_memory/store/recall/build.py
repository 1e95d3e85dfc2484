"""The writing side of the recall index (`index` reads it): which atoms may be recalled, each
atom's BM25 document, and the base and delta frames writers put on disk. Kept apart from the
reading side so that the per-prompt hook never loads it (every module on that path costs every
prompt)."""

from __future__ import annotations

import calendar
import marshal
import os
import time
from array import array
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agent_memory.gitio.state import atomic_write
from agent_memory.model.atom import is_pending
from agent_memory.model.claim_labels import claim_body
from agent_memory.model.tags import SESSION_ORIGIN, SESSION_RULE, unvouched_claude_memory
from agent_memory.store.recall.files import INDEX_FILENAME, index_header, write_contested
from agent_memory.store.recall.index import CONFIDENCE_CODES, KIND_CODES, BytesBlob, RecallIndex
from agent_memory.store.recall.score import LENGTH_UNITS, QUOTE_TF, QUOTE_UNITS, idf_max_of, idf_of
from agent_memory.store.recall.tokens import tokenize

Atom = Mapping[str, Any]
StrPath = str | os.PathLike[str]

# Evidence quotes are what the user actually said; they widen the vocabulary a claim is found
# by ("freeze time, never sleep" under "Prefer the fake clock"). Real quotes are whole prompts
# or tool output, so they count about a third of a claim word (score.QUOTE_TF), and only
# their first 32 distinct tokens (tuned by eye on tests/fixtures/transcripts: more made noise,
# not recall).
MAX_QUOTE_TOKENS = 32

# --- what may be recalled -----------------------------------------------------------------------

# Extraction rules whose observations are not the user's typing: a failure atom
# is built from a tool's output. Decided from the evidence's recorded rule, never from text.
NON_TYPED_RULES = frozenset({"failure.tool", "auto_memory.feedback", "auto_memory.project", "auto_memory.user",
                             "auto_memory.reference", "auto_memory.untyped", SESSION_RULE})  # fmt: skip
# Review states a person set that keep an atom out of recall: adopted ones are injected at
# session start already; rejected ones were judged wrong.
NOT_RECALLED_REVIEWS = frozenset({"adopted", "rejected"})


def typed_by_user(atom: Atom) -> bool:
    """Whether the atom was built from what the user typed (or wrote with `remember`): some
    evidence names a rule that reads the user's words. Evidence recorded before rules were
    (no `rule`) falls back to the kind: failure atoms then came from tool output."""
    if atom.get("hand_authored") and atom.get("origin") != SESSION_ORIGIN:
        return True  # a person's `remember`; one run in a Claude Code session needs typed evidence
    evidence = atom.get("evidence")
    rules = [
        item.get("rule")
        for item in (evidence if isinstance(evidence, list) else [])
        if isinstance(item, dict) and isinstance(item.get("rule"), str) and item.get("rule")
    ]
    if rules:
        return any(rule not in NON_TYPED_RULES for rule in rules)
    return atom.get("kind") != "failure"


def recallable(atom: Atom) -> bool:
    """Per-prompt recall injects unreviewed candidates only: not decayed or superseded (out of
    the working set), not adopted (session start injects those) or rejected, not redacted (a
    secret was cut out of the claim), not from Claude's own memory files (the client already
    recalls those, and they are the model's words), not pending (said once, below the
    durability gate's keep bar), and typed by the user.
    Forgotten atoms are deleted from the store, so they never reach the index."""
    if atom.get("decayed") or atom.get("superseded_by") or atom.get("redacted"):
        return False
    if is_pending(atom):
        return False  # said once, held by the durability gate until it recurs
    if atom.get("origin") == "auto-memory":
        return False  # Claude's own memory: the client recalls it itself (no double injection)
    review = atom.get("review")
    if isinstance(review, dict) and review.get("state") in NOT_RECALLED_REVIEWS:
        return False
    return typed_by_user(atom)


def epoch_of(stamp: object) -> float:
    """`YYYY-MM-DDTHH:MM:SS(.f)Z` → epoch seconds; unreadable → 0 (oldest), never raises."""

    try:
        text = str(stamp)
        return float(calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")))
    except (ValueError, TypeError):
        return 0.0


def day_of(epoch: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(epoch))


def _quote_terms(atom: Atom) -> list[str]:
    seen: dict[str, None] = {}
    evidence = atom.get("evidence")
    items = evidence if isinstance(evidence, list) else []
    for item in sorted(
        items, key=lambda e: str(e.get("source", "")) if isinstance(e, dict) else ""
    ):
        quote = item.get("quote") if isinstance(item, dict) else None
        if isinstance(quote, str):
            for term in tokenize(quote):
                seen.setdefault(term)
                if len(seen) >= MAX_QUOTE_TOKENS:
                    return list(seen)
    return list(seen)


def _code(codes: tuple[str, ...], value: object, default: str) -> int:
    return codes.index(value) if value in codes else codes.index(default)


def term_frequencies(atom: Atom) -> tuple[dict[str, float], int]:
    """The atom's document for BM25: claim tokens (1 each) and quote tokens it lacks
    (QUOTE_TF each), and the document's length in LENGTH_UNITS (an integer: sums of lengths
    are then exact, whatever order the atoms are added in)."""
    claim = " ".join(str(atom.get("claim", "")).split())
    tf: dict[str, float] = {}
    words = 0
    for term in tokenize(claim_body(claim)):  # the extractor's label is not the user's word
        tf[term] = tf.get(term, 0.0) + 1.0
        words += 1
    quoted = 0
    for term in _quote_terms(atom):
        if term not in tf:
            tf[term] = QUOTE_TF
            quoted += 1
    return tf, max(words * LENGTH_UNITS + quoted * QUOTE_UNITS, LENGTH_UNITS)


def session_count(atom: Atom) -> int:
    sessions = atom.get("sessions")
    return min(len(set(sessions)), 0xFFFFFFFF) if isinstance(sessions, list) else 0


def contested_map(atoms: Sequence[Atom]) -> dict[str, str]:
    """Of two contradicting atoms, the older carries `contested` + `contested_by`; the newer one is found by the
    reverse join. Both render tagged, with the newest last_seen day of the conflict. The map
    covers every id in a conflict, recallable or not (an adopted atom's L2 twin, or an id known
    only from a `contested_by`), because SessionStart tags L2/L3 lines from it too."""
    seen_at = {str(a.get("id")): epoch_of(a.get("last_seen")) for a in atoms}
    # A conflict with an atom only Claude's model wrote (and no person adopted) is reported for
    # review, never injected: it tags neither side.
    unvouched = {str(a.get("id")) for a in atoms if unvouched_claude_memory(a)}
    partners: dict[str, set[str]] = {}
    for atom in atoms:
        ident = str(atom.get("id"))
        listed = [str(other) for other in atom.get("contested_by") or []]
        if atom.get("contested") and ident not in unvouched and (not listed or not set(listed) <= unvouched):
            partners.setdefault(ident, set())
        for other in listed:
            if ident in unvouched or other in unvouched:
                continue
            partners.setdefault(ident, set()).add(str(other))
            partners.setdefault(str(other), set()).add(ident)
    contested: dict[str, str] = {}
    for ident in sorted(partners):
        dates = [seen_at[i] for i in (ident, *partners[ident]) if i in seen_at]
        if dates:
            contested[ident] = day_of(max(dates))
    return contested


def conflict_mark(atom: Atom) -> tuple[str, ...] | None:
    """What `contested_map` reads of one atom: its `contested_by` (sorted), when it carries
    `contested` or `contested_by`; None when it takes no part in a conflict of its own."""
    listed = atom.get("contested_by") or []
    if not atom.get("contested") and not listed:
        return None
    return tuple(sorted({str(other) for other in listed}))


def conflict_marks(atoms: Sequence[Atom]) -> dict[str, tuple[str, ...]]:
    marks = {str(a.get("id")): conflict_mark(a) for a in atoms}
    return {ident: mark for ident, mark in marks.items() if mark is not None}


def build_index(atoms: Sequence[Atom], source_oid: str) -> RecallIndex:
    contested = contested_map(atoms)
    kept = sorted((a for a in atoms if recallable(a)), key=lambda a: str(a.get("id")))
    ids: list[str] = []
    blob = bytearray()
    offsets = array("I", [0])
    kinds = bytearray()
    confidences = bytearray()
    pinned = bytearray()
    last_seen = array("d")
    sessions = array("I")
    doclen = array("I")
    postings: dict[str, dict[int, float]] = {}
    for doc, atom in enumerate(kept):
        ids.append(" ".join(str(atom.get("id")).split()))  # one line: the ids are \n-separated
        blob += " ".join(str(atom.get("claim", "")).split()).encode("utf-8", "replace")
        offsets.append(len(blob))
        kinds.append(_code(KIND_CODES, atom.get("kind"), "fact"))
        confidences.append(_code(CONFIDENCE_CODES, atom.get("confidence"), "observed"))
        pinned.append(1 if atom.get("pinned") else 0)
        last_seen.append(epoch_of(atom.get("last_seen")))
        sessions.append(session_count(atom))  # capped at a uint32 by session_count
        tf, length = term_frequencies(atom)
        doclen.append(length)
        for term, count in tf.items():
            postings.setdefault(term, {})[doc] = count

    n = len(kept)
    packed: dict[str, tuple[float, int, int, int]] = {}
    for term in sorted(postings):
        docs = postings[term]
        df = len(docs)
        idf = idf_of(n, df)
        in_claims = sorted(d for d, count in docs.items() if count >= 1.0)
        in_quotes = sorted(d for d, count in docs.items() if count < 1.0)
        order = in_claims + in_quotes
        packed[term] = (idf, len(blob), len(in_claims), len(in_quotes))
        blob += array("I", order).tobytes()
        blob += array("f", [docs[d] for d in order]).tobytes()
    head = {
        "source_oid": source_oid,
        "built_at": time.time(),
        "n": n,
        "length_total": sum(doclen),
        "ids": "\n".join(ids),
        "offsets": offsets.tobytes(),
        "kinds": bytes(kinds),
        "confidences": bytes(confidences),
        "pinned": bytes(pinned),
        "last_seen": last_seen.tobytes(),
        "sessions": sessions.tobytes(),
        "doclen": doclen.tobytes(),
        "contested": contested,
        "postings": packed,
        # A prompt word no atom holds weighs as much as the rarest word of the store.
        "idf_max": idf_max_of(n),
        "blob_len": len(blob),
    }
    return RecallIndex(head, BytesBlob(bytes(blob)))


def build_frame(
    atoms: Sequence[Atom], gone: Sequence[str], contested: Mapping[str, str], cum: int
) -> dict[str, Any]:
    """A delta frame: the recallable `atoms` a write changed (their raw term frequencies;
    impacts are computed at query time against the base), the ids that left recall, and
    contested-map updates (day, or "" to drop). `cum`: atoms in frames since the base.
    Every value is what `build_index` would store for the same atom."""
    kept = sorted((a for a in atoms if recallable(a)), key=lambda a: str(a.get("id")))
    left = sorted({*gone, *(str(a.get("id")) for a in atoms if not recallable(a))})
    postings: dict[str, tuple[list[int], list[float]]] = {}
    doclen: list[int] = []
    for number, atom in enumerate(kept):
        tf, length = term_frequencies(atom)
        doclen.append(length)
        for term, count in tf.items():
            entry = postings.setdefault(term, ([], []))
            entry[0].append(number)
            entry[1].append(count)
    return {
        "ids": tuple(" ".join(str(a.get("id")).split()) for a in kept),
        "claims": tuple(" ".join(str(a.get("claim", "")).split()) for a in kept),
        "kinds": bytes(_code(KIND_CODES, a.get("kind"), "fact") for a in kept),
        "confidences": bytes(_code(CONFIDENCE_CODES, a.get("confidence"), "observed") for a in kept),
        "pinned": bytes(1 if a.get("pinned") else 0 for a in kept),
        "last_seen": tuple(epoch_of(a.get("last_seen")) for a in kept),
        "sessions": tuple(session_count(a) for a in kept),
        "doclen": tuple(doclen),
        "postings": {t: (tuple(d), tuple(f)) for t, (d, f) in sorted(postings.items())},
        "gone": tuple(left),
        "contested": dict(contested),
        "cum": cum + len(kept) + len(left),
    }  # fmt: skip


def serialize_index(index: RecallIndex) -> bytes:
    if not isinstance(index.blob, BytesBlob):
        raise TypeError("only a built index is serialised")
    head = marshal.dumps(index.to_payload())
    blob = bytes(index.blob.data)
    return index_header(index.source_oid, len(head) + len(blob), index.n, len(head)) + head + blob


def write_index(state_dir: StrPath, atoms: Sequence[Atom], source_oid: str) -> Path:
    """Build and atomically replace the index (temp file + os.replace, mode 0600), then the
    contested sidecar for the same tip."""
    target = Path(state_dir) / INDEX_FILENAME
    index = build_index(atoms, source_oid)
    atomic_write(target, serialize_index(index), mode=0o600)
    write_contested(state_dir, source_oid, index.contested, conflict_marks(atoms))
    return target
