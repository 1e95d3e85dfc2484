"""Claude taking back its own memory: a claim whose only source is the auto-memory folder, which
no longer says it (Claude deleted the note, or rewrote it to say something else).

Capture only adds: what the folder stops saying stays on memory/atoms as it was (an observation
made is not unmade, and nothing stored is dropped). But the folder was the claim's only
witness, so a reviewer must know it has withdrawn it: `stage` does not stage such a claim while
the folder does not say it (the reason `WITHDRAWN`), and one already waiting on memory/review
stays there, its review (`adopt`, `inspect --why`) saying so — a person decides it.

Only an atom no person vouched for is judged here (`unvouched_claude_memory`: origin
auto-memory, every kept evidence item Claude's memory, not adopted, not `remember`ed by a
person): a claim the user also typed stands on their words whatever the folder says. The
folder is read as capture reads it (`read_folder`, the same claims and ids), and only when
there is such an atom to judge. "No longer says it" is said only when that is known: a folder
that is absent or a link (another machine, a moved folder), read short (the walk's bound), or
holding a file that could not be read (unreadable, too large) says nothing about a claim it
does not show — the atom is left as it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from agent_memory.model.atom import atom_id, restated_ids
from agent_memory.model.tags import is_claude_memory, unvouched_claude_memory

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agent_memory.automemory.notes import FolderRead, MemoryNote
    from agent_memory.gitio.repo import Repo
    from agent_memory.promote.gates import GateResult

# The gate's reason (`promote`, `stage`, `inspect --why`) and the review's line (`adopt`).
WITHDRAWN = "Claude's memory no longer says this"


def only_claude_memory(atom: object) -> bool:
    """Whether the atom's only witness is Claude's memory folder (see the module docstring).
    Its kept evidence is bounded (`atom.select_evidence`): a typed sighting may be among the
    omitted ones, but a claim the user stated, or `verify` ran, is not `observed` any longer —
    Claude's memory alone never raises it (extract/memory_notes.py)."""
    return (is_claude_memory(atom) and unvouched_claude_memory(atom)
            and isinstance(atom, dict) and atom.get("confidence") == "observed")  # fmt: skip


class FolderNow:
    """What the auto-memory folder says now, read once and only when first asked."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._read: FolderRead | None = None
        self._known = True  # False: some of the folder could not be read
        self._claims: dict[str, str] = {}  # note file → its claim (the cost: redaction)
        self._labels: dict[str, str] | None = None  # note file → its atoms' `memory_file`

    def _notes(self) -> Sequence[MemoryNote] | None:
        if self.folder is None or self.folder.is_symlink() or not self.folder.is_dir():
            return None  # nothing read: no claim is known to be gone
        if self._read is None:
            from agent_memory.automemory.notes import NOT_REGULAR, TOO_LARGE, read_folder

            self._read = read_folder(self.folder)
            unread = {TOO_LARGE, NOT_REGULAR}
            self._known = not self._read.problems and not any(
                s.reason in unread or s.reason.startswith("unreadable") for s in self._read.skipped)
        return self._read.notes

    def _claim(self, note: MemoryNote) -> str:
        if note.file not in self._claims:
            from agent_memory.extract.memory_notes import note_claim

            self._claims[note.file] = note_claim(note)[0]
        return self._claims[note.file]

    def says(self, atom: Mapping[str, Any]) -> bool | None:
        """Whether a note of the folder yields this atom (its id, from its claim and project, as
        capture builds it); None when that cannot be told."""
        notes = self._notes()
        if notes is None:
            return None
        if self._labels is None:
            from agent_memory.extract.memory_notes import memory_file_label, shown_name

            self._labels = {n.file: memory_file_label(shown_name(n.file)[0]) for n in notes}
        project, ident = atom.get("project"), atom.get("id")
        # Its own file first: most often it still says it, and one claim is read, not all.
        named = [n for n in notes if self._labels[n.file] == atom.get("memory_file")]
        first = {n.file for n in named}
        rest = [n for n in notes if n.file not in first]
        # under the atom's id or another spelling of the rule (`restated_ids`: "Always X" /
        # "X", the article of a plural): capture files a note's sighting under whichever
        # spelling the store holds, so a note rewritten into another spelling still says it
        for note in [*named, *rest]:
            claim = self._claim(note)
            if atom_id(claim, project) == ident or ident in restated_ids(claim, project):
                return True
        return False if self._known else None


def withdrawn_note(atom: Mapping[str, Any], staged: bool = False) -> str:
    """What a reviewer reads after `WITHDRAWN`: where it was said, that nothing else said it,
    and (`staged`: it waits on memory/review) what the choice is."""
    where = atom.get("memory_file") or "its note"
    note = (f"{where} was deleted or rewritten since it was captured, and no note in the folder says it "
            "now; nothing else said it")
    return note + ("; adopt it only if you hold it yourself, else reject it" if staged else "")


def folder_of(repo: Repo) -> Path | None:
    """The repository's auto-memory folder as capture finds it, or None without a work tree."""
    if repo.workdir is None:
        return None
    from agent_memory.automemory.quick import project_folder

    return Path(project_folder(repo.common_dir, repo.workdir))


def withdrawn(repo: Repo, atoms: Iterable[Mapping[str, Any] | None], folder: FolderNow | None = None) -> set[str]:
    """The ids of those `atoms` whose only witness, Claude's memory folder, no longer says them."""
    judged = [a for a in atoms if a is not None and only_claude_memory(a)]
    if not judged:
        return set()
    folder = folder or FolderNow(folder_of(repo))
    return {str(a["id"]) for a in judged if folder.says(a) is False}


def hold_withdrawn(repo: Repo, atoms: Mapping[str, Mapping[str, Any]], results: Sequence[GateResult],
                   keep: Collection[str] | Callable[[], Collection[str]] = ()) -> list[GateResult]:  # fmt: skip
    """`results` with each eligible atom Claude's memory no longer says held back (`WITHDRAWN`).
    `keep`: the ids already waiting on memory/review (or how to read them, read only when an
    atom is withdrawn): left eligible, so a stage keeps them there for a person to decide —
    their review says the memory is gone."""
    eligible = [atoms[r.atom_id] for r in results if r.eligible and r.atom_id in atoms]
    gone = withdrawn(repo, eligible)
    if gone:
        gone -= set(keep() if callable(keep) else keep)
    if not gone:
        return list(results)
    return [dataclasses.replace(r, eligible=False, reasons=(*r.reasons, WITHDRAWN)) if r.atom_id in gone else r
            for r in results]  # fmt: skip


__all__ = ["WITHDRAWN", "FolderNow", "folder_of", "hold_withdrawn", "only_claude_memory", "withdrawn", "withdrawn_note"]
