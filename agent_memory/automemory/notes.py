"""Read an auto-memory folder: every topic file becomes one `MemoryNote` or one `Skipped`.

What is walked: every file under the folder, nested folders included (`team/`, per-topic
subfolders with their own `MEMORY.md`), dotfiles and dot-folders excepted (the client's and
our own bookkeeping, e.g. `.memory-pressure.jsonl`). Index files (`MEMORY.md`, `MEMORY*.md`)
are not memories and are neither. Nothing is followed out of the folder: a symlink (to a file
or a folder) is skipped, not read, as is anything that is not a regular file, and a folder
that is itself a symlink is not read at all. The walk is bounded: `MAX_DEPTH` folders deep and
`MAX_FILES` entries; past either it stops and says so (`FolderRead.problems`, which capture
writes as one errors.log line) — a settings file naming `/usr` must not make a capture read it.

Skip reasons (`SKIP_REASONS`): a symlink, not a regular file, not markdown, not text, not
UTF-8 (a byte that does not decode: nothing lossy becomes a claim), too large, empty, and a
file with no frontmatter and no rule to take, or frontmatter with neither a description nor a
body that states something. Everything else is a note, with the rule the
body leads with, its Why / How to apply lines, and the frontmatter fields read tolerantly
(`frontmatter.py`): `type` at top level or under `metadata:`, any value kept as written.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from agent_memory.automemory.frontmatter import normalise_text, parse
from agent_memory.automemory.location import is_index_file
from agent_memory.automemory.markdown import is_template, split_body, statement
from agent_memory.automemory.walk import (  # the one walk of the folder, and its one way to read a file
    MAX_DEPTH,
    MAX_FILES,
    NotRegularFile,
    is_link_refusal,
    read_regular,
    walk,
)

KNOWN_TYPES = ("user", "feedback", "project", "reference")
MAX_BYTES = 256 * 1024  # a topic file is a paragraph or two; a bigger one is not a memory

SYMLINK = "a symlink: not followed (nothing is read from outside the folder)"
NOT_REGULAR = "not a regular file"
NOT_MARKDOWN = "not markdown"
NOT_TEXT = "not text (binary content)"
NOT_UTF8 = "not UTF-8 text (undecodable bytes): nothing of it is guessed"
TOO_LARGE = f"larger than {MAX_BYTES // 1024} KB"
EMPTY = "empty"
NO_RULE = "no frontmatter and no rule to take"
NOTHING_STATED = "frontmatter but no description or rule to take"
TEMPLATE = "a template never filled in (placeholders only)"
SKIP_REASONS = (SYMLINK, NOT_REGULAR, NOT_MARKDOWN, NOT_TEXT, NOT_UTF8, TOO_LARGE, EMPTY, NO_RULE, NOTHING_STATED, TEMPLATE)


@dataclass(frozen=True)
class MemoryNote:
    file: str  # path relative to the folder, `/`-separated
    type: str | None  # as written, lowercased (`feedback`, …, or anything else)
    name: str | None
    description: str | None
    origin_session: str | None  # `originSessionId`: the session that last wrote it, as stamped
    modified: str | None  # the client's `modified` stamp, as written
    rule: str  # the memory's own rule, plain text (not yet a claim: extract/ makes that)
    rule_from: str  # "description" or "body"
    rule_line: int  # 1-based line of the file the rule was taken from
    why: str | None
    how: str | None
    frontmatter: bool
    mtime: float
    digest: str  # sha256 of the bytes, so a rewrite is told from a touch

    @property
    def known_type(self) -> bool:
        return self.type in KNOWN_TYPES


@dataclass(frozen=True)
class Skipped:
    file: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"file": self.file, "reason": self.reason}


@dataclass
class FolderRead:
    folder: Path
    notes: list[MemoryNote]
    skipped: list[Skipped]
    indexes: list[str]
    problems: list[str] = field(default_factory=list)  # why the walk stopped early, one line each


def read_folder(folder: Path) -> FolderRead:
    """Every topic file of `folder`, read: notes and skips, sorted by path."""
    out = FolderRead(folder, [], [], [])
    for rel, st in walk(folder, out.problems):
        if stat.S_ISLNK(st.st_mode):
            out.skipped.append(Skipped(rel, SYMLINK))
            continue
        if not stat.S_ISREG(st.st_mode):
            out.skipped.append(Skipped(rel, NOT_REGULAR))
            continue
        if is_index_file(rel):
            out.indexes.append(rel)
            continue
        found = read_note(folder, rel, st)
        (out.notes if isinstance(found, MemoryNote) else out.skipped).append(found)  # type: ignore[arg-type]
    return out


def read_note(folder: Path, rel: str, st: os.stat_result | None = None) -> MemoryNote | Skipped:
    """One topic file, read (no symlink is opened: O_NOFOLLOW where the OS has it)."""
    if not rel.lower().endswith((".md", ".markdown")):
        return Skipped(rel, NOT_MARKDOWN)
    path = folder / rel
    try:
        st = st or os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            return Skipped(rel, SYMLINK)
        if st.st_size > MAX_BYTES:
            return Skipped(rel, TOO_LARGE)
        raw = read_regular(path, MAX_BYTES)
    except NotRegularFile:
        return Skipped(rel, NOT_REGULAR)
    except OSError as exc:
        if is_link_refusal(exc):
            return Skipped(rel, SYMLINK)
        return Skipped(rel, f"unreadable: {exc.strerror or exc}")
    return note_from_bytes(rel, raw, st.st_mtime)


def note_from_bytes(rel: str, raw: bytes, mtime: float = 0.0) -> MemoryNote | Skipped:
    """A topic file's content as a note (also used for a version seen in a transcript)."""
    if len(raw) > MAX_BYTES:
        return Skipped(rel, TOO_LARGE)
    if b"\0" in raw:
        return Skipped(rel, NOT_TEXT)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        # Replaced, the bytes became U+FFFD inside the rule and a lossy reading of the model's
        # text was a claim. A transcript line that is not UTF-8 is skipped (transcripts/
        # reader.py); a memory is one file, so the file is.
        return Skipped(rel, NOT_UTF8)
    text = normalise_text(raw)
    if not text.strip():
        return Skipped(rel, EMPTY)
    front = parse(text)
    parts = split_body(front.body)
    description = front.get("description")
    kind = (front.get("type") or "").lower() or None
    said = statement(description)
    if is_template(front.body):
        return Skipped(rel, TEMPLATE)  # its description names what the template is for
    # The client's format leads a feedback or project body with the rule or fact itself; when
    # the body leads with something else (a heading, a list, a lead-in, a label) the
    # description sums it up. A user or reference memory's description is its summary first.
    choices = [("body", parts.lead, parts.lead_line), ("description", said, 0),
               ("body", parts.first, parts.first_line)]  # fmt: skip
    if kind in ("user", "reference"):
        choices[0], choices[1] = choices[1], choices[0]
    rule_from, rule, at = next(((w, t, n) for w, t, n in choices if t), ("", None, 0))
    if rule is None:
        if not front.present:
            return Skipped(rel, NO_RULE)
        if not front.body.strip() and not description:
            return Skipped(rel, EMPTY)
        return Skipped(rel, NOTHING_STATED)
    line = front.body_line + at if rule_from == "body" else _field_line(text, "description")
    return MemoryNote(
        file=rel, type=kind, name=front.get("name"), description=description,
        origin_session=front.get("originSessionId"), modified=front.get("modified"),
        rule=rule, rule_from=rule_from, rule_line=line, why=parts.why, how=parts.how,
        frontmatter=front.present, mtime=mtime, digest=hashlib.sha256(raw).hexdigest(),
    )  # fmt: skip


def _field_line(text: str, key: str) -> int:
    for number, line in enumerate(text.split("\n"), start=1):
        if line.lstrip().startswith(f"{key}:"):
            return number
    return 1


__all__ = ["KNOWN_TYPES", "MAX_DEPTH", "MAX_FILES", "NOT_UTF8", "SKIP_REASONS", "FolderRead", "MemoryNote", "Skipped", "note_from_bytes",
           "read_folder", "read_note", "walk"]  # fmt: skip
