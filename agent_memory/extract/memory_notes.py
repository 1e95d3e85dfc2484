"""Claude Code's own memory files → L1 atoms (the second L0 source, beside
what the user typed; README "Claude's own memory").

One note (automemory/notes.py) is one candidate atom:

- claim: the memory's own rule (the line its body leads with, else its description), spelled
  the way a typed claim is (`canonical`), so a rule the user also typed converges on one atom;
  stand-alone and ≤ 200 characters, redacted before anything is built;
- kind: follows the memory's `type` — feedback → constraint or preference, project → fact or
  decision, user → preference or fact, reference → fact (and an unknown or missing type →
  constraint or fact) — the shape of the rule picks one of the two;
- confidence: `observed`, always. The model wrote the file after reading tool output, files
  and web pages: its memory is never `stated` or `verified` by itself;
- `origin: "auto-memory"`, `memory_file` (relative to the folder), evidence rule
  `auto_memory.<type>`, and in the evidence quote the rule with its Why / How to apply lines.

Provenance (`Sighting`): one observation per distinct session that wrote or edited the file
with this claim — the transcript line of its last such tool call (automemory/writes.py finds
them; only these are sessions). A claim no transcript shows written is one observation in
all, however many files hold it: the session its first file's `originSessionId` names (line 0:
the session, not a line of it; only a session-id-like stamp, hex and dashes), else that file
itself, `~/.claude/projects/<slug>/memory/<file>#L<rule line>`, never an absolute path, at
the file's mtime (the model-written `modified` sets no day). Being loaded into a session is
not an observation.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from agent_memory.automemory.notes import FolderRead, MemoryNote, Skipped, read_folder
from agent_memory.automemory.writes import MemoryWrite, writes_by_file
from agent_memory.extract.canonical import canonical
from agent_memory.extract.statement import extract_claims
from agent_memory.extract.text import cap, mask, shorten, tidy, unmask
from agent_memory.model.atom import Atom, atom_id, iso_z, merge, merge_all, new_atom
from agent_memory.model.paths import canonical_pointer
from agent_memory.redact.regex import LazyCompiler
from agent_memory.redact.window import window
from agent_memory.transcripts.identity import Transcript

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

ORIGIN = "auto-memory"
RULE_FAMILY = "auto_memory"

# What a rule says decides which of its type's two kinds it is. Words, not phrases of the
# memory's text beyond these markers: the type is the memory's own classification.
_PROHIBITION = _lazy(
    r"\b(?:never|always|must|mustn't|must not|do not|don't|dont|should not|shouldn't|avoid|only|"
    r"no longer|stop|forbidden|not allowed|required|mandatory|zero tolerance)\b"
    r"|不要|不准|不得|不可|不允许|不允許|不用|禁止|绝不|絕不|绝对|絕對|必须|必須|永遠|永远|一律|别|別|勿"
    r"|금지|말 것|말것|않는다|안 된다|안된다|하지 마|절대|반드시|항상"
    r"|\b(?:nunca|siempre|sempre|jamais|toujours|nie|niemals|immer|prohibido|proibido)\b",
    re.I,
)
_DECISION = _lazy(
    r"\b(?:decided|decision|chose|chosen|choose|settled on|going with|go with|switch(?:ed)? to|"
    r"migrat(?:e|ed|ing) to|adopt(?:ed)?|will use|we use|standardi[sz]ed on|renamed? to|will be renamed)\b"
    r"|决定|決定|确定|確定|确立|確立|결정|확정|채택|\b(?:decidimos|decidido|decidiu|entschieden)\b",
    re.I,
)
_PREFERENCE = _lazy(
    r"\b(?:prefers?|preferred|preferences?|likes?|dislikes?|loves?|hates?|wants?|rather|favou?rite|enjoys?)\b"
    r"|偏好|喜欢|喜歡|不喜欢|希望|선호|좋아|싫어|원한다|\b(?:prefiere|prefere|gosta|mag|bevorzugt)\b",
    re.I,
)


def kind_for(note_type: str | None, claim: str, canonical_kind: str) -> str:
    """The kind a memory of this type and this rule is (see the module docstring)."""
    ruled = canonical_kind == "constraint" or bool(_PROHIBITION.search(claim))
    if note_type == "feedback":
        return "constraint" if ruled else "preference"
    if note_type == "project":
        return "decision" if canonical_kind == "decision" or _DECISION.search(claim) else "fact"
    if note_type == "user":
        return "preference" if canonical_kind == "preference" or _PREFERENCE.search(claim) else "fact"
    if note_type == "reference":
        return "fact"
    return "constraint" if ruled else "fact"


def claim_for(rule: str) -> tuple[str, str]:
    """(claim, the kind its spelling reads) of a memory's plain rule line: the claim the typed
    extractor reads in it when it reads exactly one (so the rule the user typed and the rule
    the model wrote down are one atom), else the line itself in canonical spelling. The
    model's own "I"/"my" is Claude's, left as written (never the user's third person)."""
    try:
        typed = extract_claims(rule, users_words=False)
    except Exception:  # noqa: BLE001 - a defect of the typed extractor on one note costs its
        typed = []  # reading only: the note is read as its line, the folder's other notes as ever
    if len(typed) == 1:
        return typed[0].claim, typed[0].kind
    # `tidy` cuts a line at a parenthesis it never closes: one that opens the line left nothing
    # (an empty claim fails the schema, and the memory was lost), so the line is read without it.
    tidied = tidy(rule) or tidy(rule.replace("(", " "))
    masked, spans = mask(tidied.rstrip("。！？．"))
    text, kind = canonical(masked, "fact", spans)
    return shorten(cap(unmask(text, spans))) or shorten(cap(" ".join(rule.split()))), kind


@dataclass(frozen=True)
class Sighting:
    """One session that wrote or edited the memory (or the file itself, when none is known)."""

    session: str
    pointer: str  # canonical L1 back-pointer
    at: str  # ISO-Z timestamp
    path: str | None = None  # where the transcript (or file) is on this machine, `~/`-relative
    record: str | None = None  # the call record's `uuid` (a fork's copy keeps it: automemory/writes.py)


_NAME_CHARS = _lazy(r"[^A-Za-z0-9._-]")


def _mtime_iso(mtime: float) -> str:
    """A file's modification time as an ISO-Z timestamp (the file's own `modified` field is
    the model's writing and never used)."""
    try:
        return iso_z(_dt.datetime.fromtimestamp(mtime or 0, tz=_dt.UTC))
    except (OverflowError, OSError, ValueError):
        return "1970-01-01T00:00:00Z"


_NOT_IN_A_LABEL = _lazy(r"[\x00-\x1f\x7f-\x9f\\\u2028\u2029]")


def memory_file_label(rel: str) -> str:
    """The file as an atom's `memory_file` names it (schema: no backslash or line break, not
    starting with a space or `/`, no `..` segment, at most 1024 characters): a control
    character or backslash becomes `-`. The name is the model's or anyone's: one with a
    newline in it made the atom fail the schema, and the memory was dropped at every capture."""
    label = _NOT_IN_A_LABEL.sub("-", rel)
    label = "/".join("-" if part == ".." else part for part in label.split("/"))
    if not label or label[0].isspace() or label[0] == "/":
        label = "-" + label[1:]
    return label[:1024]


def memory_pointer(slug: str, rel: str, line: int) -> str:
    """`~/.claude/projects/<slug>/memory/<rel>#L<line>`, each path segment in the characters a
    back-pointer allows (no segment may start with a dot, so none is `..`)."""
    parts = [_NAME_CHARS.sub("-", p).lstrip(".") or "-" for p in rel.split("/") if p]
    if not parts[-1].endswith(".md"):
        parts[-1] += ".md"
    if parts[-1] == ".md":
        parts[-1] = "-.md"
    return f"~/.claude/projects/{slug}/memory/{'/'.join(parts)}#L{max(int(line), 0)}"


_STAMP = _lazy(r"[0-9A-Fa-f-]{8,64}")


def stamped_session(note: MemoryNote) -> str | None:
    """The note's `originSessionId` when it looks like a Claude Code session id (hex and
    dashes, 8-64 characters, nothing a redaction rule reads as a secret); else None. The stamp
    is model-writable text: anything else in it is ignored, never stored."""
    from agent_memory.redact.redactor import redact

    stamp = note.origin_session
    if not isinstance(stamp, str) or not _STAMP.fullmatch(stamp) or not re.search(r"[0-9A-Fa-f]", stamp):
        return None
    if redact(stamp)[1]:
        return None
    return stamp.lower()


def fallback_sightings(note: MemoryNote, slug: str, folder: Path | None = None) -> list[Sighting]:
    """No transcript shows a write of this memory: the file is one observation of its own, in
    the session its `originSessionId` names (when it looks like a session id), else in the
    file itself. Its time is the file's mtime: the frontmatter's `modified` is the model's
    writing and never sets a day."""
    at = _mtime_iso(note.mtime)
    session = stamped_session(note)
    if session:
        return [Sighting(session, f"~/.claude/projects/{slug}/{session}.jsonl#L0", at)]
    name, hidden = shown_name(note.file)
    pointer = memory_pointer(slug, name, note.rule_line)
    # A session id of its own: the file, seen in some session nobody recorded.
    pseudo = "memory-" + re.sub(r"[^A-Za-z0-9]+", "-", name.removesuffix(".md")).strip("-")[:80]
    where = local_path(folder / note.file) if folder and not hidden else None
    return [Sighting(pseudo or "memory", pointer, at, where)]


def shown_name(rel: str) -> tuple[str, bool]:
    """(the file's name as an atom may spell it, whether redaction changed it). The name is
    the model's writing like its text: a back-pointer, a stand-in session or a `--why` path
    spelled from the raw name carried a key named as a file into the store, and the
    back-pointer on into what an adopt commits."""
    from agent_memory.redact.redactor import redact

    name, findings = redact(rel)
    return name, bool(findings)


def local_path(path: Path) -> str | None:
    """Where a file is on this machine for `--why` (`~/`-relative under the home directory,
    else absolute), or None when the path itself would need redaction."""
    from agent_memory.redact.redactor import redact

    try:
        resolved = path.expanduser().absolute()
    except (OSError, RuntimeError):
        return None
    home = Path(os.path.expanduser("~"))
    text = resolved.as_posix()
    if home != Path(home.anchor) and home in resolved.parents:
        text = "~/" + resolved.relative_to(home).as_posix()
    if len(text) > 4096 or redact(text.replace(home.as_posix(), "~"))[1]:
        return None
    return text


QUOTE_CHARS = 1990
# A memory's text is redacted before it is cut (cut first, a key that straddled the cut left its
# first part, which no rule reads as a secret any longer), but only a window of what is kept of
# it is read (`redact/window.py`): a topic file may be 256 KB on one line, and redaction is linear
# in what it reads (a folder of such files ran a capture past its time limit).


def quote_for(note: MemoryNote) -> str:
    """What a reviewer reads: the rule, then its Why and How to apply lines — redacted, then
    cut (each of the two to SECTION_CHARS, all to QUOTE_CHARS). Cut first, a key that
    straddled the cut left its first part, which no rule reads as a secret any longer."""
    from agent_memory.automemory.markdown import SECTION_CHARS
    from agent_memory.redact.redactor import redact

    lines = [window(note.rule, QUOTE_CHARS)]
    if note.why:
        lines.append(f"Why: {window(note.why, SECTION_CHARS)}")
    if note.how:
        lines.append(f"How to apply: {window(note.how, SECTION_CHARS)}")
    rule, *sections = redact("\n".join(lines))[0].split("\n")
    for at, line in enumerate(sections):
        label, _, text = line.partition(": ")
        if label in ("Why", "How to apply") and len(text) > SECTION_CHARS:
            sections[at] = f"{label}: {text[:SECTION_CHARS].rstrip()}…"
    return "\n".join([rule, *sections])[:QUOTE_CHARS]


def note_claim(note: MemoryNote) -> tuple[str, str, bool]:
    """(claim, kind, whether redaction changed it) of a note. The rule is redacted before its
    claim is read: a claim is cut to 200 characters, and a key that straddled the cut left its
    first part, which no rule reads as a secret any longer."""
    from agent_memory.redact.redactor import redact

    rule, in_rule = redact(window(note.rule, QUOTE_CHARS))
    raw_claim, read_kind = claim_for(rule)
    claim, findings = redact(raw_claim)
    return claim[:500], kind_for(note.type, raw_claim, read_kind), bool(findings or in_rule)


def memory_atom(note: MemoryNote, project: str, sightings: Sequence[Sighting],
                claimed: tuple[str, str, bool] | None = None) -> Atom:  # fmt: skip
    """One candidate atom for one memory note, with one evidence item per sighting (`claimed`:
    its `note_claim`, when the caller has it already)."""
    claim, kind, redacted = claimed or note_claim(note)
    memory_file = memory_file_label(shown_name(note.file)[0])
    quote = quote_for(note)
    rule = f"{RULE_FAMILY}.{note.type if note.known_type else 'untyped'}"
    records: list[Atom] = []
    for seen in sightings:
        evidence: dict[str, Any] = {"quote": quote, "rule": rule}
        if seen.path:
            evidence["path"] = seen.path
        if seen.record:
            evidence["record"] = seen.record
        records.append(new_atom(claim, kind, project=project, source=seen.pointer, at=seen.at,
                                session=seen.session, confidence="observed", redacted=redacted,
                                evidence=evidence, origin=ORIGIN, memory_file=memory_file))  # fmt: skip
    atom = merge_all(records)
    return merge(atom, atom)  # bounds the evidence like any merged atom (atom.select_evidence)


def memory_atoms(notes: Iterable[MemoryNote], project: str, slug: str, folder: Path | None = None,
                 sightings: dict[str, list[Sighting]] | None = None) -> list[Atom]:  # fmt: skip
    """The candidates of a folder's notes, merged per id (two files with one rule are one
    atom), sorted by first sighting then id. `sightings` maps a note's file to the sessions
    whose transcripts show them writing it with its current claim: only those are sessions.
    What the files themselves say is at most one observation of a claim (the folder's copy,
    `fallback_sightings` of its first file), and only for a claim no transcript shows
    written: a model that writes one rule into many files, or stamps them with made-up
    sessions and dates, still has one observation, never a recurrence."""
    return _memory_atoms(notes, project, slug, folder, sightings)[0]


def _memory_atoms(notes: Iterable[MemoryNote], project: str, slug: str, folder: Path | None,
                  sightings: dict[str, list[Sighting]] | None) -> tuple[list[Atom], set[str], set[str]]:  # fmt: skip
    """`memory_atoms`, the ids of those only the folder's copy shows (no transcript), and the
    files whose copy stands in for them."""
    written: dict[str, list[tuple[MemoryNote, list[Sighting]]]] = {}
    copies: dict[str, list[MemoryNote]] = {}
    claims: dict[str, tuple[str, str, bool]] = {}  # each note's claim, read once (redaction is the cost)
    for note in sorted(notes, key=lambda n: n.file):
        claims[note.file] = note_claim(note)
        ident = atom_id(claims[note.file][0], project)
        seen = (sightings or {}).get(note.file)
        if seen:
            written.setdefault(ident, []).append((note, seen))
        else:
            copies.setdefault(ident, []).append(note)
    found = {ident: _once_per_session(group, project, claims) for ident, group in written.items()}
    file_only: set[str] = set()
    stand_in_files: set[str] = set()
    for ident, group in copies.items():
        if ident not in found:  # the folder's copy of a claim no transcript shows: one observation
            first = group[0]
            found[ident] = [memory_atom(first, project, fallback_sightings(first, slug, folder), claims[first.file])]
            file_only.add(ident)
            stand_in_files.update(note.file for note in group)
    atoms = sorted((merge_all(atoms) for atoms in found.values()), key=lambda a: (a["first_seen"], a["id"]))
    return atoms, file_only, stand_in_files


def _once_per_session(group: Sequence[tuple[MemoryNote, list[Sighting]]], project: str,
                      claims: Mapping[str, tuple[str, str, bool]]) -> list[Atom]:  # fmt: skip
    """The atoms of the files that hold one claim, each session's sighting kept once: its
    latest write of the claim, whichever file it wrote (`write_sightings` keeps one per session
    and file). A session writing one rule into three files was three observations of it."""
    if len(group) == 1:
        return [memory_atom(group[0][0], project, group[0][1], claims[group[0][0].file])]
    latest: dict[str, tuple[tuple[str, int, str], int]] = {}
    for index, (_, seen) in enumerate(group):
        for sighting in seen:
            line = sighting.pointer.rsplit("#L", 1)[-1]
            order = (sighting.at, int(line) if line.isdigit() else 0, sighting.pointer)
            if sighting.session not in latest or order > latest[sighting.session][0]:
                latest[sighting.session] = (order, index)
    atoms = []
    for index, (note, seen) in enumerate(group):
        mine = [sighting for sighting in seen if latest[sighting.session][1] == index]
        if mine:
            atoms.append(memory_atom(note, project, mine, claims[note.file]))
    return atoms


# The forms a file-only sighting's pointer takes (`fallback_sightings`): the memory file's own
# line, or line 0 of the transcript its `originSessionId` names. A transcript line is never 0.
_STAND_IN = _lazy(r"(?:\.md#L[0-9]+|\.jsonl#L0)$")


def is_stand_in(item: Mapping[str, Any]) -> bool:
    """Whether an evidence item is the folder's copy of a memory (`fallback_sightings`): no
    transcript showed its write when it was read."""
    return str(item.get("rule") or "").startswith(RULE_FAMILY) and bool(_STAND_IN.search(str(item.get("source") or "")))


def without_stand_ins(stored: Atom, seen: Atom) -> Atom:
    """`stored` less its file-only sightings, now that `seen` (a transcript showing the claim
    written) is here: the folder's copy was read before the write's transcript, and the two
    are one write, one observation — as when both are read at once (`_memory_atoms`: a copy
    counts only for a claim no transcript shows written). Only the stand-in's evidence and
    its session leave (a stamped session only when nothing else of the atom may be in it);
    every other sighting, the review, the flags and the labels stay."""
    return _without(stored, seen, is_stand_in)


def without_replaced_writes(stored: Atom, seen: Atom) -> Atom:
    """`stored` less the earlier writes of the sessions `seen` shows writing the memory again:
    each session that wrote it is one observation, its last call the back-pointer — as when
    its transcript is read once, at its end. A session captured, then resumed (the same file,
    appended to) to edit its memory again, was one more observation at every capture."""
    latest: dict[str, str] = {}
    for item in seen.get("evidence") or []:
        if _written(item):
            session, at = str(item.get("session")), str(item.get("at", ""))
            latest[session] = max(at, latest.get(session, at))
    sources = {str(item.get("source")) for item in seen.get("evidence") or []}

    def replaced(item: Mapping[str, Any]) -> bool:
        session = str(item.get("session"))
        return (_written(item) and session in latest and str(item.get("at", "")) <= latest[session]
                and str(item.get("source")) not in sources)  # fmt: skip

    return _without(stored, seen, replaced)


def _written(item: Mapping[str, Any]) -> bool:
    """Whether an evidence item is a transcript's write of Claude's own memory (no stand-in)."""
    return str(item.get("rule") or "").startswith(RULE_FAMILY) and not is_stand_in(item)


def _without(stored: Atom, seen: Atom, gone_if: Callable[[Mapping[str, Any]], bool]) -> Atom:
    """`stored` less the evidence `gone_if` says `seen` makes obsolete (its sessions too, when
    nothing else of the atom may be in them), its counts and ends made to agree."""
    evidence = [dict(e) for e in stored.get("evidence") or [] if isinstance(e, dict)]
    gone = [e for e in evidence if gone_if(e)]
    if not gone:
        return stored
    kept = [e for e in evidence if not gone_if(e)]
    omitted = list(stored.get("evidence_omitted") or [])
    still = {e.get("session") for e in kept}
    dropped = {str(e.get("session")) for e in gone if e.get("session") not in still
               and (str(e.get("session")).startswith("memory") or not omitted)}  # fmt: skip
    out = cast("Atom", dict(stored))
    out["sessions"] = sorted(set(stored["sessions"]) - dropped)
    if kept:
        out["evidence"] = kept
    else:
        out.pop("evidence", None)
    out["observations"] = max(int(stored["observations"]) - len(gone), len(kept) + len(omitted))
    # A first or latest sighting that was the copy is now the earliest or latest one left (the
    # kept evidence holds both ends: atom.select_evidence), else the transcript's.
    order = sorted(kept, key=lambda e: (str(e.get("at", "")), str(e["source"])))
    first = (str(order[0]["at"]), str(order[0]["source"])) if order else (seen["first_seen"], seen["first_source"])
    latest = (str(order[-1]["at"]), str(order[-1]["source"])) if order else (seen["last_seen"], seen["source"])
    if any(stored["first_source"] == e["source"] for e in gone):
        out["first_seen"], out["first_source"] = first
    if any(stored["source"] == e["source"] for e in gone):
        out["last_seen"], out["source"] = latest
    if not out["sessions"]:  # the copy was all there was: the transcript's sighting is the atom's
        out["sessions"] = sorted(seen["sessions"])
    return out


@dataclass
class FolderExtract:
    """A folder read: its candidates, and every topic file that is not one, with why."""

    atoms: list[Atom]
    skipped: list[Skipped]
    notes: list[MemoryNote]
    problems: list[str] = field(default_factory=list)  # why the folder was not read in full
    # Ids of the atoms only the folder's copy shows (no transcript shows the rule written):
    # one observation in all, across captures too (`store/auto_memory.py`).
    file_only: set[str] = field(default_factory=set)
    # The files of those atoms: a transcript showing one of them written is news even while the
    # folder is unchanged (`store/auto_memory.py`).
    stand_in_files: set[str] = field(default_factory=set)

    def to_json(self) -> dict[str, Any]:
        return {"atoms": self.atoms, "skipped": [s.to_json() for s in self.skipped], "problems": list(self.problems)}


def extract_folder(folder: Path, project: str, slug: str,
                   writes: Sequence[MemoryWrite] | None = None) -> FolderExtract:  # fmt: skip
    """Schema-valid L1 atoms from every topic file of an auto-memory folder, observed in the
    sessions `writes` show writing them (automemory/writes.py). The folder is only read."""
    return extract_read(read_folder(folder), folder, project, slug, writes)


def extract_read(read: FolderRead, folder: Path, project: str, slug: str,
                 writes: Sequence[MemoryWrite] | None = None) -> FolderExtract:  # fmt: skip
    """`extract_folder` of the folder as already read: capture judges a forked session's
    copies of a write again in its transaction (store/auto_memory.py), the folder not read again."""
    atoms, file_only, stand_ins = _memory_atoms(read.notes, project, slug, folder,
                                                write_sightings(read.notes, writes or [], slug))  # fmt: skip
    return FolderExtract(atoms, read.skipped, read.notes, read.problems, file_only, stand_ins)


def write_sightings(notes: Iterable[MemoryNote], writes: Sequence[MemoryWrite], slug: str) -> dict[str, list[Sighting]]:
    """The observations of each note: the distinct sessions whose transcript shows a
    successful write or edit of its file that left this claim (the last such call of each
    session is the back-pointer, its time the transcript's). A write that left another claim
    is an earlier (or other) version: not this atom's observation. A write whose result shows
    no text counts. The `originSessionId` stamp is not a write: a session counts only when
    its transcript is here and shows the call."""
    by_file = writes_by_file(writes)
    out: dict[str, list[Sighting]] = {}
    transcripts: dict[str, Transcript] = {}  # one identity per transcript, however many writes it shows
    for note in notes:
        if note.file not in by_file:
            continue  # no transcript shows it written: its claim is not read here (the cost)
        claim = claim_for(note.rule)[0]
        last: dict[str, MemoryWrite] = {}
        for write in by_file.get(note.file, []):
            if write.rule is not None and claim_for(write.rule)[0] != claim:
                continue
            seen = last.get(write.session)
            if seen is None or (write.at, write.line) > (seen.at, seen.line):
                last[write.session] = write
        found = []
        for _, w in sorted(last.items()):
            key = os.fspath(w.transcript)
            where = transcripts.get(key) or transcripts.setdefault(key, Transcript.of(key))
            found.append(Sighting(w.session, where.at(w.line), w.at or _mtime_iso(note.mtime), where.local, w.record))
        if found:
            out[note.file] = found
    return out


def transcript_sighting(transcript: str | os.PathLike[str], line: int, session: str, at: str,
                        path: str | None) -> Sighting:  # fmt: skip
    return Sighting(session, canonical_pointer(transcript, line), at, path)


__all__ = ["ORIGIN", "FolderExtract", "is_stand_in", "without_replaced_writes", "without_stand_ins", "Sighting", "claim_for", "extract_folder", "extract_read", "write_sightings", "fallback_sightings", "kind_for", "memory_atom", "stamped_session",
           "memory_atoms", "memory_pointer", "shown_name", "transcript_sighting"]  # fmt: skip
