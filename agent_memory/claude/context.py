"""What SessionStart injects: L3 (≤ 2 KB) + L2 (≤ 4 KB) as one `<agent-memory>` block
(docs/claude-code-integration.md).

Each tier is laid out like its committed marker block (render.lay_out: pinned, then newest
first), without the HTML markers, which would only cost the model bytes, and without the
block's pointer to what is hidden: that comment names a command for a person, and Claude's
context holds memory, not instructions for our tool (the hidden atoms are counted in
`omitted`). A claim is written as Claude Code would take it from a memory file
(render.context_claim), not with the backslashes the files add so that a forge shows HTML as
text (render.literal): this context is never rendered as markdown.

L2/L3 collisions (never emit two contradictory lines unmarked): the contradiction detector
compares atoms of one project only, so this is the one place both tiers meet. A global line
with the same normalized claim as a shown project line is dropped (said once). A global line
that a project line contradicts (the rules of store/contradictions.py) is never dropped for
it: the project line is committed to a repository — in a clone, by someone else — while the
global line is the user's own. Both are shown, each tagged contested with where it comes from,
and a note asks the model to let the user decide. Neither atom is marked contested in its
store: a project's exception is not evidence that the user's own line is wrong.
"""

from __future__ import annotations

from agent_memory.committed.render import (
    L2_BUDGET,
    L3_BUDGET,
    TITLES,
    context_claim,
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

    __slots__ = ("text", "l2", "l3", "omitted", "crossed", "duplicates")

    def __init__(self, text: str, l2: int, l3: int, omitted: int, crossed: tuple[tuple[str, str], ...],
                 duplicates: tuple[str, ...] = ()) -> None:  # fmt: skip
        self.text = text
        self.l2 = l2  # L2 lines shown
        self.l3 = l3  # L3 lines shown
        self.omitted = omitted  # atoms counted in the region lines (over budget, decayed, superseded)
        self.crossed = crossed  # (L3 id, L2 id) pairs that contradict: both shown, tagged contested
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


# The tags a contradiction across the tiers puts on each side: where the line comes from, and
# that the other side disagrees.
GLOBAL_SIDE = "[contested — the user's own global memory; a line committed to this project disagrees]"
PROJECT_SIDE = "[contested — committed to this project; the user's own global memory disagrees]"


def crossed_note(count: int) -> str:
    pairs = "1 project line contradicts" if count == 1 else f"{count} project lines contradict"
    return (
        f"- {pairs} the user's own global memory: both sides are shown, tagged contested, and "
        "neither applies until the user says which does here (ask them)"
    )


def contradicted_by_project(l2_atoms: Sequence[Atom], l3_atoms: Sequence[Atom]) -> set[tuple[str, str]]:
    """(L3 id, L2 id) for each L3 atom an L2 atom contradicts (the rules of contradictions.py).

    contradictions.detect() compares only atoms of one project, and L3 atoms carry none;
    asking "would this global claim contradict the project's claims if it lived in the
    project" is exactly the question, so both sides are probed under one shared label. detect()
    buckets candidates, so this stays near-linear where an all-pairs loop would not.
    """
    label = "session-start-probe"
    l2_ids = {str(a["id"]) for a in l2_atoms}
    l3_ids = {str(a["id"]) for a in l3_atoms} - l2_ids
    probe: list[Atom] = [{**a, "project": label} for a in [*l2_atoms, *l3_atoms]]
    hit: set[tuple[str, str]] = set()
    for pair in detect(probe):
        for mine, theirs in ((pair.older, pair.newer), (pair.newer, pair.older)):
            if mine in l3_ids and theirs in l2_ids:
                hit.add((mine, theirs))
    return hit


def _duplicates(l2_working: Sequence[Atom], shown: set[str], l3_working: Sequence[Atom]) -> tuple[str, ...]:
    """Ids of the L3 atoms whose normalized claim a shown L2 line already says."""
    claims = {normalize(str(a["claim"])) for a in l2_working if str(a["id"]) in shown}
    return tuple(sorted(str(a["id"]) for a in l3_working if normalize(str(a["claim"])) in claims))


def build_context(
    l2: Sequence[Atom],
    l3: Sequence[Atom],
    contested_dates: Mapping[str, str],
    project: str | None,
    unshown: Mapping[str, int] | None = None,
) -> Context:
    """The SessionStart context. Empty text when neither tier has a working-set atom.
    `unshown` (tier → count): atoms a tier holds that its block does not show, counted in
    `omitted`, never given (committed/reviewed.py)."""
    extra = unshown or {}
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
    crossed: tuple[tuple[str, str], ...] = ()
    if l2_working:
        section = lay_out(l2_atoms, "L2", L2_BUDGET, _size([l2_title]), contested_dates, pointer=False,
                          shown=context_claim)  # fmt: skip
        shown = set(section.shown)
        # Computed once: in the comprehension's condition it was computed again for every L3
        # atom, normalizing every claim each time (800 L3 atoms beside 1,500 L2: 7 s).
        said = set(_duplicates(l2_working, shown, l3_working))
        crossing = contradicted_by_project(
            [a for a in l2_working if str(a["id"]) in shown],
            [a for a in l3_working if str(a["id"]) not in said],
        )
        note: list[str] = []
        if crossing:
            # Laid out again with the tags and the note in the budget: the tagged lines are
            # longer, so what is shown can only shrink (a prefix of the same order), and the
            # pairs kept are those whose project line is still shown.
            note = ["", crossed_note(len(crossing))]
            tags = {l2_id: PROJECT_SIDE for _, l2_id in crossing}
            section = lay_out(l2_atoms, "L2", L2_BUDGET, _size([l2_title, *note]), contested_dates,
                              pointer=False, tags=tags, shown=context_claim)  # fmt: skip
            crossed = tuple(sorted(pair for pair in crossing if pair[1] in section.shown))
            note = ["", crossed_note(len(crossed))] if crossed else []
        l2_lines = [l2_title, *section.lines, *note]
        l2_shown, omitted = section.shown, len(section.omitted) + extra.get("L2", 0)

    duplicates = _duplicates(l2_working, set(l2_shown), l3_working)
    dropped = set(duplicates)
    l3_rest = [a for a in l3_atoms if str(a["id"]) not in dropped]
    l3_lines: list[str] = []
    l3_shown: tuple[str, ...] = ()
    if any(in_working_set(a) for a in l3_rest):
        tags = {l3_id: GLOBAL_SIDE for l3_id, _ in crossed}
        section = lay_out(l3_rest, "L3", L3_BUDGET, _size([TITLES["L3"]]), contested_dates,
                          pointer=False, tags=tags, shown=context_claim)  # fmt: skip
        l3_lines = [TITLES["L3"], *section.lines]
        l3_shown, omitted = section.shown, omitted + len(section.omitted) + extra.get("L3", 0)

    parts = [OPEN_TAG, intro()]
    for lines in (l3_lines, l2_lines):  # global first, then the project lines that refine it
        if lines:
            parts += ["", *lines]
    text = "\n".join([*parts, CLOSE_TAG])
    # The per-tier byte budgets bound this far below the limit; a failure here is a bug.
    assert len(text) < MAX_CONTEXT_CHARS, len(text)
    return Context(text, len(l2_shown), len(l3_shown), omitted, crossed, duplicates)


def hook_output(ctx: Context) -> dict[str, Any]:
    """The documented SessionStart JSON form (print it only when `ctx.text` is non-empty)."""
    return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": ctx.text}}
