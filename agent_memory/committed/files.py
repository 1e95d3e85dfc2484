"""The committed material of a tier as one unit: `.memory/adopted.log` (the source of truth)
and the marker block rendered from it (in `CLAUDE.memory.md`, or `CLAUDE.md` with
`memory.target=claude-md`). Every change appends log lines and re-renders the block, so the
two never disagree whatever subset of items is adopted and in whatever order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from agent_memory.committed import adopted_log, line_ends, render
from agent_memory.committed.adopted_log import LOG_PATH, LogEntry
from agent_memory.model.atom import Atom
from agent_memory.model.clock import iso_z, parse_ts


@dataclass(frozen=True)
class TierFiles:
    tier: str  # "L2" or "L3"
    target_name: str
    log_text: str
    target_text: str

    def entries(self) -> list[LogEntry]:
        entries, _ = adopted_log.parse(self.log_text)
        return entries

    def log_errors(self, validate: bool = False) -> list[str]:
        """Unreadable lines; with `validate`, also atoms that fail the schema (slower)."""
        return adopted_log.parse(self.log_text, validate=validate)[1]

    def held(self) -> dict[str, Atom]:
        folded: dict[str, Atom] = _derived(
            ("held", self.log_text), lambda: adopted_log.fold(self.entries())
        )
        return {ident: atom.copy() for ident, atom in folded.items()}  # a caller may edit its copy

    def expected_block(self) -> str:
        block: str = _derived(
            (self.tier, self.log_text),
            lambda: render.render_block(list(self.held().values()), self.tier).text,
        )
        return block

    def hand_edited(self) -> bool:
        """The block differs from what adopted.log renders to (a missing block in a file that
        has content but never had one is not an edit: it is simply not rendered yet)."""
        try:
            present = render.block_of(self.target_text, self.tier)
        except render.MalformedBlockError:
            return True
        if present is None:
            return not (self.log_text.strip() == "" or self.target_text.strip() == "") and bool(self.held())
        if not render.hand_edited(self.target_text, self.expected_block(), self.tier):
            return False
        return all(render.hand_edited(self.target_text, earlier, self.tier) for earlier in self.earlier_blocks())

    def earlier_blocks(self) -> list[str]:
        """The block as each earlier renderer wrote it from the same log (before `render.literal`
        escaped strikethrough tildes and block markers, before it escaped emphasis markers,
        before `render.literal`: `render.EARLIER_FILE_CLAIMS`), for
        those under which some held claim renders differently than now. A file written then
        is no hand edit: it is read as it is, and the next write re-renders it (no rewrite
        just for this)."""
        atoms = list(self.held().values())
        blocks = []
        for shown in render.EARLIER_FILE_CLAIMS:
            if any(render.file_claim(str(a["claim"])) != shown(str(a["claim"])) for a in atoms):
                blocks.append(render.render_block(atoms, self.tier, shown=shown).text)
        return blocks

    def append(self, new_entries: Sequence[LogEntry]) -> TierFiles:
        """Append operations and re-render. The log folds in `at` order (so two machines'
        union-merged logs agree), so each new line is stamped after every earlier line for
        its atom: an adopt dated by its evidence, or a pin made while the clock is behind a
        transcript's timestamps, must not sort before the line it follows and be lost."""
        log_text = self.log_text
        if log_text and not log_text.endswith("\n"):
            log_text += line_ends.git_line_end(log_text)
        latest: dict[str, str] = {}
        for entry in self.entries():
            latest[entry.atom_id] = max(latest.get(entry.atom_id, ""), entry.at)
        stamped = []
        for entry in new_entries:
            prior = latest.get(entry.atom_id)
            if prior is not None and entry.at <= prior:
                entry = replace(entry, at=_one_second_after(prior))
            latest[entry.atom_id] = entry.at
            stamped.append(entry)
        # in the log's own line end: checked out CRLF (core.autocrlf=true), LF lines made it mixed
        log_text += line_ends.in_line_end("".join(adopted_log.format_entry(e) for e in stamped),
                                          line_ends.git_line_end(log_text))
        updated = replace(self, log_text=log_text)
        return updated.rerendered()

    def rerendered(self) -> TierFiles:
        block = self.expected_block()
        return replace(self, target_text=render.replace_block(self.target_text, block, self.tier))

    def paths(self) -> dict[str, str]:
        return {LOG_PATH: self.log_text, self.target_name: self.target_text}


def atom_of_line(log_text: str, line: str) -> str | None:
    """The id of the held atom that `line` of a rendered block shows, or None for a line that
    no adopted atom renders to (written by hand). The contested tag in front is ignored."""
    text = line.strip()
    if not text.startswith("- "):
        return None
    forms, longest = _shown_forms(log_text)
    found = [forms[text[2:]]] if text[2:] in forms else []
    if text.startswith("- ["):  # after a contested tag: the text after some "] " (only the last
        at = text.find("] ", max(0, len(text) - longest - 2))  # `longest` characters can be a form)
        while at >= 0:
            if text[at + 2 :] in forms:
                found.append(forms[text[at + 2 :]])
            at = text.find("] ", at + 1)
    return min(found)[1] if found else None  # the first held atom, as one walk of them found it


def _shown_forms(log_text: str) -> tuple[dict[str, tuple[int, str]], int]:
    """Every text a block line may show for a held atom of `log_text` — as rendered now or by an
    earlier version (render.claim_forms), whose files are read until the next write re-renders
    them — to (the atom's place among the held ones, its id); and the longest such text. Built
    once per log: the guard names the atom behind each block line it refuses, and walking every
    held atom's forms for each line took a cloned block of 3,000 refused lines over a log of
    5,000 atoms some 210 s, in the commit (and merge) hook of each commit of it."""

    def build() -> tuple[dict[str, tuple[int, str]], int]:
        forms: dict[str, tuple[int, str]] = {}
        for place, (ident, atom) in enumerate(TierFiles("L2", "", log_text, "").held().items()):
            for shown in render.claim_forms(str(atom["claim"])):
                forms.setdefault(shown, (place, ident))
        return forms, max(map(len, forms), default=0)

    built: tuple[dict[str, tuple[int, str]], int] = _derived(("shown", log_text), build)
    return built


# What a log text folds and renders to, for the last few texts: one adopted item reads the same
# log several times (consistency check, change, append), and the next item starts from the
# text this one wrote; folding and rendering it again was ~4 ms an item at 60 lines.
_DERIVED: dict[tuple[str, str], Any] = {}
_DERIVED_KEEP = 6


def _derived(key: tuple[str, str], compute: Callable[[], Any]) -> Any:
    if key not in _DERIVED:
        while len(_DERIVED) >= _DERIVED_KEEP:
            del _DERIVED[next(iter(_DERIVED))]
        _DERIVED[key] = compute()
    return _DERIVED[key]


def _one_second_after(stamp: str) -> str:


    return iso_z(parse_ts(stamp) + timedelta(seconds=1))
