"""What SessionStart injects: L3 (≤ 2 KB) + L2 (≤ 4 KB) as one `<agent-memory>` block
(docs/claude-code-integration.md).

Each tier is laid out like its committed marker block (render.lay_out: pinned, then newest
first), without the HTML markers, which would only cost the model bytes, and without the
block's pointer to what is hidden: that comment names a command for a person, and Claude's
context holds memory, not instructions for our tool (the hidden atoms are counted in
`omitted`).

L2/L3 collisions (§5.1 "never emit two contradictory lines unmarked", §9.6): the detector of
§4.2.1 never compares L3 with L2, so this is the one place both meet. A global line with the
same normalized claim as a shown project line is dropped (said once). A global line that a
project line contradicts (the §4.2.1 rules of contradictions.py) is left out and counted in a note —
specificity wins for the project (§9.6 (a)); the L3 atom is not contested, because a local
override is not evidence that the global claim is wrong.
"""

from __future__ import annotations

from agent_memory.committed.render import (
    L2_BUDGET,
    L3_BUDGET,
    TITLES,
    in_working_set,
    lay_out,
    one_line,
    unique_by_id,
)
from agent_memory.model.atom import normalize
from agent_memory.model.policy import MAX_CONTEXT_CHARS
from agent_memory.store.contradictions import detect

# On the cold session-start path: no dataclasses or typing at run time (tests/test_context.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from agent_memory.model.atom import Atom

OPEN_TAG = "<agent-memory>"
CLOSE_TAG = "</agent-memory>"


def intro() -> str:
    from agent_memory.committed.templates import read_template

    return read_template("session-start-intro.txt").strip()


def __getattr__(name: str) -> str:
    if name == "INTRO":
        return intro()
    raise AttributeError(name)


class Context:
    """The SessionStart context and what went into it."""

    __slots__ = ("text", "l2", "l3", "omitted", "shadowed", "duplicates")

    def __init__(self, text: str, l2: int, l3: int, omitted: int, shadowed: tuple[str, ...],
                 duplicates: tuple[str, ...] = ()) -> None:  # fmt: skip
        self.text = text
        self.l2 = l2  # L2 lines shown
        self.l3 = l3  # L3 lines shown
        self.omitted = omitted  # atoms counted in the region lines (over budget, decayed, superseded)
        self.shadowed = shadowed  # L3 ids left out because a project atom contradicts them
        self.duplicates = duplicates  # L3 ids left out because a shown L2 line says the same

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Context) and all(
            getattr(self, n) == getattr(other, n) for n in self.__slots__)  # fmt: skip

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in self.__slots__))

    def __repr__(self) -> str:
        return "Context(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__) + ")"


def _size(lines: Sequence[str]) -> int:
    return sum(len(line.encode("utf-8")) + 1 for line in lines)


def shadow_note(count: int) -> str:
    if count == 1:
        subject, pronoun = "1 global atom is", "it"
    else:
        subject, pronoun = f"{count} global atoms are", "them"
    # No command in it: Claude's context holds memory, not instructions for our tool.
    return f"- {subject} shadowed here: project memory contradicts {pronoun} and applies in this project"


def contradicted_by_project(l2_atoms: Sequence[Atom], l3_atoms: Sequence[Atom]) -> set[str]:
    """Ids of the L3 atoms that some L2 atom contradicts (§4.2.1 rules).

    contradictions.detect() compares only atoms of one project, and L3 atoms carry none
    (§4.2); asking "would this global claim contradict the project's claims if it lived in the
    project" is exactly the question, so both sides are probed under one shared label. detect()
    buckets candidates, so this stays near-linear where an all-pairs loop would not.
    """
    label = "session-start-probe"
    l2_ids = {str(a["id"]) for a in l2_atoms}
    l3_ids = {str(a["id"]) for a in l3_atoms} - l2_ids
    probe: list[Atom] = [{**a, "project": label} for a in [*l2_atoms, *l3_atoms]]
    hit: set[str] = set()
    for pair in detect(probe):
        for mine, theirs in ((pair.older, pair.newer), (pair.newer, pair.older)):
            if mine in l3_ids and theirs in l2_ids:
                hit.add(mine)
    return hit


def build_context(
    l2: Sequence[Atom],
    l3: Sequence[Atom],
    contested_dates: Mapping[str, str],
    project: str | None,
) -> Context:
    """The SessionStart context. Empty text when neither tier has a working-set atom."""
    l2_atoms = unique_by_id(l2)
    l3_atoms = unique_by_id(l3)
    l2_working = [a for a in l2_atoms if in_working_set(a)]
    l3_working = [a for a in l3_atoms if in_working_set(a)]
    if not l2_working and not l3_working:
        return Context("", 0, 0, 0, ())

    l2_title = TITLES["L2"] + (f" — {one_line(project)}" if project else "")
    l2_lines: list[str] = []
    l2_shown: tuple[str, ...] = ()
    omitted = 0
    if l2_working:
        section = lay_out(l2_atoms, "L2", L2_BUDGET, _size([l2_title]), contested_dates, pointer=False)
        l2_lines = [l2_title, *section.lines]
        l2_shown, omitted = section.shown, len(section.omitted)

    shown_claims = {normalize(str(a["claim"])) for a in l2_working if str(a["id"]) in l2_shown}
    duplicates = tuple(
        sorted(str(a["id"]) for a in l3_working if normalize(str(a["claim"])) in shown_claims)
    )
    candidates = [a for a in l3_working if str(a["id"]) not in duplicates]
    shadowed = tuple(sorted(contradicted_by_project(l2_working, candidates)))
    left_out = set(duplicates) | set(shadowed)
    l3_rest = [a for a in l3_atoms if str(a["id"]) not in left_out]
    l3_lines: list[str] = []
    l3_shown: tuple[str, ...] = ()
    if any(in_working_set(a) for a in l3_rest) or shadowed:
        note = ["", shadow_note(len(shadowed))] if shadowed else []
        frame = _size([TITLES["L3"], *note])
        section = lay_out(l3_rest, "L3", L3_BUDGET, frame, contested_dates, pointer=False)
        l3_lines = [TITLES["L3"], *section.lines, *note]
        l3_shown, omitted = section.shown, omitted + len(section.omitted)

    parts = [OPEN_TAG, intro()]
    for lines in (l3_lines, l2_lines):  # global first, then the project lines that refine it
        if lines:
            parts += ["", *lines]
    text = "\n".join([*parts, CLOSE_TAG])
    # The per-tier byte budgets bound this far below the limit; a failure here is a bug.
    assert len(text) < MAX_CONTEXT_CHARS, len(text)
    return Context(text, len(l2_shown), len(l3_shown), omitted, shadowed, duplicates)


def hook_output(ctx: Context) -> dict[str, Any]:
    """The documented SessionStart JSON form (print it only when `ctx.text` is non-empty)."""
    return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": ctx.text}}
