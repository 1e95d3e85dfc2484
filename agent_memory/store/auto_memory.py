"""L0 → L1 for the second source: the project's auto-memory folder, captured as one commit.

`capture` (SessionEnd, after the session's transcript, and `--all`, after the backfill) reads
the folder Claude Code uses for this repository (automemory/location.py: trusted settings
sources only), finds which sessions wrote each memory in this project's transcripts
(automemory/writes.py), and merges the candidates (extract/memory_notes.py) like any
observation: `atom.merge` is a join, so the same folder read again changes nothing.

Work done once, on the ledger the transcripts use (transcripts/ledger.py, kind
`auto-memory`, keyed by the folder, signed by every entry's path, size and mtime): a folder
unchanged since its last capture is not read at all, so a second capture makes no commit and
reads nothing but the folder's listing. A folder that changed is read whole (it is small); the
transcripts behind it are read again only when they changed (the writes cache).

One thing is news while the folder is unchanged: the transcript that wrote a memory last read
from its file alone (a stand-in session), arriving later. The writes cache keeps those files;
while there are any, an unchanged folder's capture looks for new or changed transcripts (a stat
each, the new ones read for memory writes only) and reads the folder again when one shows such
a file written, so its sighting replaces the stand-in. With no stand-in waiting, nothing more
than the listing is read.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agent_memory.automemory.location import memory_slug
from agent_memory.automemory.notes import Skipped, read_folder
from agent_memory.automemory.quick import LEDGER_KIND, folder_key, project_folder, signature
from agent_memory.automemory.writes import MemoryWrite, WriteIndex, without_copies
from agent_memory.extract.memory_notes import (
    FolderExtract,
    extract_read,
    without_replaced_writes,
    without_stand_ins,
)
from agent_memory.extract.pipeline import safe_project
from agent_memory.gitio.state import log_error
from agent_memory.model.atom import Atom, record_fingerprint
from agent_memory.model.tags import is_claude_memory
from agent_memory.store.capture import CaptureResult, Limits, capture_atoms
from agent_memory.store.l1 import L1Store, Snapshot
from agent_memory.transcripts.files import find_transcripts
from agent_memory.transcripts.ledger import Entry, Ledger


@dataclass
class FolderCapture:
    """What capturing the folder did: `read` is "absent" (no folder), "symlink" (not read:
    the folder is a link, one errors.log line), "unchanged" (not read: nothing changed since
    its last capture) or "read"."""

    folder: Path
    read: str
    result: CaptureResult | None = None
    memories: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # why the walk stopped short of the folder's end

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"folder": str(self.folder), "read": self.read}
        if self.result is not None:
            out.update({"commit": self.result.commit, "new": self.result.new, "merged": self.result.merged,
                        "memories": self.memories, "skipped": [s.to_json() for s in self.skipped],
                        "problems": list(self.problems)})  # fmt: skip
        return out


def capture_auto_memory(store: L1Store, project: str, root: Path, *, limits: Limits | bool = False,
                        ledger: Ledger | None = None, folder: Path | None = None) -> FolderCapture:  # fmt: skip
    """Capture the project's auto-memory folder (or `folder`) into memory/atoms: one commit
    when something is new, none when the folder is unchanged or adds nothing."""
    folder = folder or Path(project_folder(store.repo.common_dir, root))
    if folder.is_symlink():
        # SECURITY.md: never followed through a symlink — it could name any folder at all.
        log_error(f"auto-memory: {folder} is a symlink: not read (nothing is read through a link)", root)
        return FolderCapture(folder, "symlink")
    if not folder.is_dir():
        return FolderCapture(folder, "absent")
    ledger = ledger if ledger is not None else Ledger(store.repo.common_dir)
    key, state = folder_key(folder), signature(folder)
    if state is None:
        return FolderCapture(folder, "absent")
    unchanged = ledger.seen(LEDGER_KIND, key, state) is not None
    index = WriteIndex(store.repo.common_dir, folder)
    if unchanged and not index.stand_ins:
        return FolderCapture(folder, "unchanged")
    found = index.refresh(find_transcripts(root))
    if unchanged and not index.written_stand_ins():
        index.save()  # the transcripts read meanwhile are not read again for this
        return FolderCapture(folder, "unchanged")
    writes = originals(found, store)  # asks the store: not for a folder left unread
    slug = memory_slug(folder, root)
    read = read_folder(folder)
    extracted = extract_read(read, folder, safe_project(project), slug, writes)
    for problem in extracted.problems:
        log_error(f"auto-memory: {problem}", root)

    def rejudge(snap: Snapshot) -> list[Atom]:
        # A forked session's copies of a write judged again against the store this attempt
        # writes: judged before it, a capture that lost the race to one storing the write from
        # the other session (the parent ending meanwhile, now the later to end) kept its own
        # pick, and one write became two sessions. The folder is not read again. `file_only`
        # (which `known` and `supersede` use) is the same whichever copy is kept: a copy and the
        # write it copies are of one file.
        nonlocal writes, extracted
        again = without_copies(found, _held_in(lambda: snap), _ended)
        if again != writes:
            writes, extracted = again, extract_read(read, folder, safe_project(project), slug, again)
        return extracted.atoms

    result = capture_atoms(store, extracted.atoms, None, f"~/.claude/projects/{slug}/memory", limits,
                           supersede=_superseding(extracted), known=_known(extracted),
                           rejudge=rejudge)  # fmt: skip
    index.keep_stand_ins(extracted.stand_in_files)
    index.save()
    if not result.unreadable:  # else read again: a held-back observation waits for its record
        ledger.record(Entry(LEDGER_KIND, key, state))
    return FolderCapture(folder, "read", result, len(extracted.notes), extracted.skipped, extracted.problems)


def originals(writes: Sequence[MemoryWrite], store: L1Store | None) -> list[MemoryWrite]:
    """`writes` less a forked session's copies of them (automemory/writes.py `without_copies`),
    the store (when there is one) saying which session each write is held from."""
    return without_copies(writes, _held_in(store.snapshot) if store is not None else lambda _r, _a, _s: set(), _ended)


def _held_in(snapshot: Callable[[], Snapshot]) -> Callable[[str, str, set[str]], set[str]]:
    """`held(record, at, sessions)`: the sessions whose evidence of Claude's own memory in the
    store is that call record at that time — a kept quote's, or one trimmed from its atom
    (`records_omitted`: atom.record_fingerprint, tried for each of `sessions` and each session
    of the store's atoms of Claude's own memory, so a session whose transcript is gone is
    found too). The store (`snapshot()`) is read once, and only when asked."""
    known: dict[tuple[str, str], set[str]] | None = None
    omitted: set[str] = set()
    stored_sessions: set[str] = set()

    def held(record: str, at: str, sessions: set[str]) -> set[str]:
        nonlocal known
        if known is None:
            known = {}
            for atom in snapshot().atoms.values():
                for item in atom.get("evidence") or []:
                    if str(item.get("rule") or "").startswith("auto_memory") and item.get("record"):
                        known.setdefault((str(item["record"]), str(item.get("at"))), set()).add(str(item.get("session")))
                # (a typed line's record never is a Write call's: one set for every atom)
                omitted.update(atom.get("records_omitted") or [])
                if is_claude_memory(atom) and atom.get("records_omitted"):
                    stored_sessions.update(str(s) for s in atom.get("sessions") or [])
        found = set(known.get((record, at), set()))
        if omitted:
            found |= {s for s in (sessions | stored_sessions) - found if record_fingerprint(s, record, at) in omitted}
        return found

    return held


def _ended(transcript: str) -> float:
    """When a transcript was last written (its session ended), for `without_copies`."""
    try:
        return os.stat(transcript).st_mtime
    except OSError:
        return float("inf")


def _known(extracted: FolderExtract) -> Callable[[Atom, Atom | None], bool] | None:
    """`known(seen, stored)`: whether the folder's atom is a copy already observed. A claim no
    transcript shows written is one observation in all, but each capture read the copy afresh
    under a session spelled from the file's name or its model-written `originSessionId` stamp:
    a memory renamed or restamped on three days became three sessions on three days, a
    recurrence made of one file. Once the store holds the claim as Claude's own memory, the
    folder's copy of it says nothing new (the atom is there: nothing is lost). Judged in the
    capture's transaction, against the store it writes: two captures at once (two sessions
    ending together, one having renamed the note) each judged the store as it was before
    either wrote, and the claim became two sessions."""
    if not extracted.file_only:
        return None

    def known(seen: Atom, stored: Atom | None) -> bool:
        return known_copy(extracted, seen, stored)

    return known


def known_copy(extracted: FolderExtract, seen: Atom, stored: Atom | None) -> bool:
    """Capture's `known` (`_known`): `seen`, an atom of the folder no transcript shows written,
    is the folder's copy of `stored`, Claude's own memory the store holds — nothing new."""
    return seen["id"] in extracted.file_only and is_claude_memory(stored)


# The dry run's skip of an atom `known_copy` says capture counts nothing of.
KNOWN_REASON = ("already in memory/atoms as Claude's own memory, and no transcript here shows it written: "
                "capture counts nothing of it")  # fmt: skip


def as_capture_counts(extracted: FolderExtract, store: L1Store | None) -> FolderExtract:
    """`extracted` as capture counts it against `store` (`extract --auto-memory`, a dry run):
    each atom `known_copy` says is nothing new a skip, with its reason, not a candidate — the
    dry run listed a note whose only write was a fork's copy, which capture dropped."""
    if store is None or not extracted.file_only:
        return extracted
    atoms = store.snapshot().atoms
    known = [a for a in extracted.atoms if known_copy(extracted, a, atoms.get(str(a["id"])))]
    if not known:
        return extracted
    gone = {str(a["id"]) for a in known}
    return replace(extracted, atoms=[a for a in extracted.atoms if str(a["id"]) not in gone],
                   skipped=[*extracted.skipped, *(Skipped(str(a["memory_file"]), KNOWN_REASON) for a in known)])  # fmt: skip


def _superseding(extracted: FolderExtract) -> Callable[[Atom, Atom], Atom]:
    """The stored record a transcript-shown observation merges into: without the folder's copy
    of the claim an earlier capture stored when no transcript showed its write. Read first,
    the copy stood in for that write (a session `memory-<name>`, or the stamped one at line
    0); joined with the write it is still one observation, as when both are read at once. And
    without an earlier write of a session the observation shows writing it again (a session
    resumed after its capture): a session that wrote the memory is one observation."""

    def supersede(stored: Atom, seen: Atom) -> Atom:
        if seen["id"] in extracted.file_only or not is_claude_memory(seen):
            return stored
        return without_replaced_writes(without_stand_ins(stored, seen), seen)

    return supersede


__all__ = ["FolderCapture", "capture_auto_memory", "originals"]
