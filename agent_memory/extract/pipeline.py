"""L0 → L1: candidate atoms from a transcript, rule-based (no LLM, no network).

Only the user's own words are read (`transcripts.reader.iter_events`): typed prompts, `#` memory
notes and tool-rejection reasons. Most prompts are one-off tasks and questions and yield
nothing; rules fire on statement *shapes* that carry something durable:

- directives: always/never/don't/must not/avoid/only/stop …-ing/"no X", and "keep it …";
- preferences: prefer/I'd rather/I like/use X instead of Y/use X, not Y/bare "use X";
- decisions: let's use/go with/switch to …, we'll use …, we decided …, we should + policy verb;
- facts: where things live, what this repo is/uses, which tool does a job ("tests run with
  vitest, not jest"), we use/deploy/do …, the base branch is …;
- explicit memory requests: remember (that) …, save in your memory …, from now on …,
  until told otherwise …, whenever X, Y;
- failures: "X fails when Y", "I keep getting X", and shell errors whose signature recurs.

Adjacent claims of one sentence become one line ("main auto-deploys, so never push there");
a pasted structured document is read only at its framing paragraphs; conversation-bound text
("these variables", "for now", "the simpler one", "use it here") is dropped, because a memory
line must stand alone. Every claim is then canonicalised (`canonical.py`) so that
restatements of one rule are one atom and can recur.

Claims keep their negation (`Never`, `not`), keep code spans verbatim, drop politeness and
first-person framing, name the user in the third person once kept ("User uses Brave as their
browser", "Never tell the user …": `canonical.third_person`), and stay ≤ 200 characters. `confidence` is `stated` for the user's words
and `observed` for inferred failures; never `verified`. Redaction runs on every
claim and quote before an atom exists.

Where things are:

- `text.py`: masking code spans/URLs, sentences, clauses, lead words, tidying;
- `filters.py`: what is vague, transient or bound to the conversation;
- `rules/`: the clause rules (`directives`, `preferences`, `facts`, `situation`, `languages`),
  tried in the order `rules/registry.py` declares;
- `dispatch.py`: which rule reads a clause, and the explicit-memory framing;
- `statement.py`: one statement → `Candidate`s (`extract_claims`), through `prepare.py` (the
  user's text, normalised and masked), `sentence.py` (one sentence's clause claims, with
  `mode.py`, `framed.py` and `clause_split.py`) and `finish.py` (each claim tidied, refused
  or canonicalised, adjacent ones joined);
- `durability.py`: the learned last gate on every candidate (does its sentence read as durable?);
- `canonical.py`: one rule, one spelling; `transcripts/failures.py`: tool errors and tool
  families; `memory_notes.py`: Claude Code's own memory files → candidates;
- this module: atoms (provenance, quotes, redaction) and the transcript pass.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_memory.extract.durability import DROP, PENDING, gate
from agent_memory.extract.statement import Candidate, extract_claims
from agent_memory.extract.text import MAX_TEXT, at_blanks
from agent_memory.model.atom import Atom, is_pending, merge, new_atom
from agent_memory.transcripts.failures import command_program, failure_signature, recurring_failures
from agent_memory.transcripts.identity import Transcript
from agent_memory.transcripts.reader import Position, ReadStats, Statement, ToolError, iter_events

MAX_QUOTE = 2000


@dataclass
class ExtractResult:
    atoms: list[Atom]  # what the transcript teaches on its own
    skipped_lines: int
    stats: ReadStats
    statements: int = 0
    tool_errors: int = 0
    error: str | None = None  # safe mode: why the transcript could not be read
    # claims said once, in one session, that the gate holds until they recur (`pending: true`):
    # stored by capture, never recalled, an atom when said again in another session
    pending: list[Atom] = field(default_factory=list)
    # statements the extractor failed on ("L<line>: <error>"): skipped, the rest still read
    failed_statements: list[str] = field(default_factory=list)
    # every single sighting, before `copied` left any out and before the join per id: capture
    # judges a fork's copies again against the store its transaction reads (`sightings_of`)
    observations: list[Atom] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"atoms": self.atoms, "pending": self.pending, "skipped_lines": self.skipped_lines}


def _failure_atoms(errors: list[ToolError], transcript: Transcript, project: str, fallback_ts: str) -> list[Atom]:
    atoms: list[Atom] = []
    for claim, items in recurring_failures(errors):
        for err in items:
            quote = f"$ {err.command}\n{err.text}" if err.command else err.text
            atoms.append(
                _atom(
                    claim,
                    "failure",
                    "observed",
                    project,
                    transcript,
                    err.line,
                    err.timestamp or fallback_ts,
                    err.session_id,
                    quote,
                    None,
                    "failure.tool",
                    err.record,
                )
            )
    return atoms


# --- atoms ------------------------------------------------------------------------------------


def _anchor(text: str, focus: str | None) -> int:
    """Where in the statement the claim came from (best effort), for the quote window."""
    if not focus:
        return -1
    low = text.lower()
    at = low.find(focus.lower()[:40])
    if at >= 0:
        return at
    words = sorted(re.findall(r"[\w`.-]{5,}", focus), key=len, reverse=True)
    for word in words[:3]:
        at = low.find(word.lower())
        if at >= 0:
            return at
    return -1


def _quote(text: str, focus: str | None) -> str:
    """The redacted statement, ≤ MAX_QUOTE characters, centred on the claim's source. A long
    statement is cut to a generous window *before* redaction (bounded cost) and trimmed after,
    so a secret straddling the window's edge never reaches the quote."""
    from agent_memory.redact.redactor import redact

    if len(text) <= MAX_QUOTE:
        return redact(text)[0]
    at = max(_anchor(text, focus), 0)
    # The window is cut at blanks: a key cut in two at its edge left a part no rule reads as a
    # secret any longer, and the quote reaches that edge when redaction shortened the window
    # (a pasted config of many long keys between the claim and the edge).
    lo, hi = at_blanks(text, max(0, at - 3 * MAX_QUOTE), at + 4 * MAX_QUOTE)
    window = redact(text[lo:hi])[0]
    # The claim sits 3 quotes into the window, so the quote (centred on it) never touches the
    # window's cut edges. Redaction may shift offsets a little; the centre stays close.
    centre = min(at - lo, len(window))
    begin = max(0, min(centre - MAX_QUOTE // 3, len(window) - MAX_QUOTE + 2))
    piece = window[begin : begin + MAX_QUOTE - 2]
    head = "\u2026" if lo + begin > 0 else ""
    tail = "\u2026" if lo + begin + len(piece) < len(text) else ""
    return head + piece + tail


def _atom(
    claim: str,
    kind: str,
    confidence: str,
    project: str,
    transcript: Transcript,
    line: int,
    at: str,
    session: str,
    quote_text: str,
    focus: str | None,
    rule: str,
    record: str | None = None,
    secrets: list[tuple[str, str]] | None = None,
) -> Atom:
    from agent_memory.redact.context import MARKER_PREFIX
    from agent_memory.redact.redactor import redact_within

    # A long claim was redacted before it was cut (text.shorten): its marker says so. A piece
    # of a secret the statement holds whole is redacted too (a clause cut can split a key).
    redacted_claim, findings = redact_within(claim, secrets or [])
    redacted_claim = redacted_claim[:500]
    evidence: dict[str, Any] = {"quote": _quote(quote_text, focus), "rule": rule or "unknown"}
    if record:
        evidence["record"] = record  # a fork's copy of the line keeps it (store/capture.py)
    if transcript.local:
        # Where the transcript is on this machine, next to the canonical back-pointer in the
        # (local-only) L1 evidence, so `--why` finds it wherever it lives.
        evidence["path"] = transcript.local
    return new_atom(redacted_claim, kind, project=project, source=transcript.at(line), at=at,
                    session=session, confidence=confidence, redacted=bool(findings) or MARKER_PREFIX in claim,
                    evidence=evidence)  # fmt: skip


# How far past what the rules read (MAX_TEXT) a secret is looked for whole: a key a claim's
# cut could end inside is no longer than this.
SECRET_MARGIN = 4096


def statement_atoms(
    statement: Statement, transcript: Transcript | str | os.PathLike[str], project: str, fallback_ts: str
) -> list[Atom]:
    """L1 observations (one per claim) from one user statement; those the durability gate holds
    as pending carry `pending: true` (an atom only once the claim recurs: `atom.merge`)."""
    from agent_memory.redact.redactor import secrets_of

    transcript = Transcript.of(transcript)
    out = []
    at = statement.timestamp or fallback_ts
    secrets: list[tuple[str, str]] | None = None
    for cand in extract_claims(
        statement.text, origin=statement.origin, rejected_command=statement.rejected_command
    ):
        verdict = gate(statement.text, cand.claim, cand.rule)
        if verdict == DROP:
            continue  # the learned last gate: task chatter the rules mistook for a rule
        if secrets is None:
            # once per statement, over what the rules read (and a key's length past it)
            secrets = secrets_of(statement.text[: MAX_TEXT + SECRET_MARGIN])
        atom = _atom(
            cand.claim,
            cand.kind,
            cand.confidence,
            project,
            transcript,
            statement.line,
            at,
            statement.session_id,
            statement.text,
            cand.claim[:40],
            cand.rule,
            statement.record,
            secrets,
        )
        if verdict == PENDING:
            atom["pending"] = True
        out.append(atom)
    return out


def merge_observations(observations: Iterable[Atom]) -> list[Atom]:
    """Join observations per id (`atom.merge`), sorted by first sighting then id."""
    by_id: dict[str, Atom] = {}
    for obs in observations:
        current = by_id.get(obs["id"])
        by_id[obs["id"]] = obs if current is None else merge(current, obs)
    return sorted(
        by_id.values(), key=lambda a: (a["first_seen"], _line_of(a["first_source"]), a["id"])
    )


def _line_of(pointer: str) -> int:
    tail = pointer.rsplit("#L", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def safe_project(name: str) -> str:
    """A project name the schema accepts (no slashes, no leading blank)."""
    cleaned = re.sub(r"[/\\]+", "-", name.strip()).strip("-") or "project"
    return cleaned[:200]


def _fallback_timestamp(path: str | os.PathLike[str], stats: ReadStats) -> str:
    if stats.first_timestamp:
        return stats.first_timestamp
    try:
        import datetime as _dt

        from agent_memory.model.atom import iso_z

        return iso_z(_dt.datetime.fromtimestamp(Path(path).stat().st_mtime, tz=_dt.UTC))
    except (OSError, ValueError, OverflowError):
        return "1970-01-01T00:00:00Z"


def extract_transcript(
    path: str | os.PathLike[str] | Transcript,
    project: str,
    session: str | None = None,
    *,
    strict: bool = True,
    start: Position | None = None,
    copied: Callable[[Atom], bool] | None = None,
) -> ExtractResult:
    """Schema-valid L1 atoms from one transcript, merged per id, sorted deterministically;
    from `start` (where an earlier pass stopped) when the file still matches it there.
    `copied` says of one observation (a single sighting) that it is a copy of a line already
    held from another session (a forked session's file opens with such copies): left out.

    strict=True raises OSError when the file cannot be opened; strict=False (the SessionEnd
    path) never raises: it returns what it could read and says why in `error`."""
    transcript = Transcript.of(path, session)  # a Transcript given was named with its session
    stats = ReadStats()
    project = safe_project(project)
    statements: list[Statement] = []
    errors: list[ToolError] = []
    error: str | None = None
    try:
        for event in iter_events(transcript, stats, session, start):
            if isinstance(event, Statement):
                statements.append(event)
            else:
                errors.append(event)
    except OSError as exc:
        if strict:
            raise
        error = f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # noqa: BLE001 - the SessionEnd path must never raise
        if strict:
            raise
        error = f"{type(exc).__name__}: {exc}"
    observations: list[Atom] = []
    failed: list[str] = []
    try:
        fallback = _fallback_timestamp(transcript.path, stats)
        for statement in statements:
            try:
                observations.extend(statement_atoms(statement, transcript, project, fallback))
            except Exception as exc:  # noqa: BLE001
                # A defect of the extractor on one statement ("I'm on 3.11" raised once) must
                # not cost the transcript's other memories: that statement is skipped and named.
                failed.append(f"L{statement.line}: {type(exc).__name__}: {exc}")
        observations.extend(_failure_atoms(errors, transcript, project, fallback))
        atoms, pending = sightings_of(observations, copied)
    except Exception as exc:  # noqa: BLE001
        if strict:
            raise
        error = error or f"{type(exc).__name__}: {exc}"
        atoms, pending = [], []
    return ExtractResult(atoms, stats.skipped_lines, stats, len(statements), len(errors), error,
                         pending, failed, observations)


def sightings_of(observations: Sequence[Atom], copied: Callable[[Atom], bool] | None = None
                 ) -> tuple[list[Atom], list[Atom]]:  # fmt: skip
    """(atoms, pending) from single sightings: those `copied` says are copies left out, the
    rest joined per id (`merge_observations`)."""
    kept = [obs for obs in observations if copied is None or not copied(obs)]
    merged = merge_observations(kept)
    return [a for a in merged if not is_pending(a)], [a for a in merged if is_pending(a)]


__all__ = [
    "Candidate",
    "ExtractResult",
    "command_program",
    "extract_claims",
    "extract_transcript",
    "failure_signature",
    "merge_observations",
    "safe_project",
    "sightings_of",
    "statement_atoms",
]
