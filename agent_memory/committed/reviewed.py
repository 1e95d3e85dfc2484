"""Which adopted atoms a reviewer was shown: the marker block is the reviewed state of a tier.

`.memory/adopted.log` is the machine-readable trail the block is rendered from, but a reviewer
reads the block: a commit that only appends a log line (no rendered line, no `Atom-Id`
trailer) shows a diff of JSON nobody reads as memory, and passes every hook. So nothing that
gives memory to Claude — the session start, `git memory context`, recall's "already adopted"
filter — trusts the log alone: an atom counts only when its line is in the tier's block as
it is in the work tree (what is committed, plus the user's own edits), in `CLAUDE.memory.md`
or the block of `CLAUDE.md` (`memory.target=claude-md`). Atoms outside the working set
(decayed, superseded) put no text into a context; they are only counted, and kept.

`git memory status` and `validate` report both halves of a disagreement (a log line no block
shows, a block line no log line holds); `validate --fix` drops an unshown line instead of
rendering it. On the cold session-start path: standard library and `render` only.
"""

from __future__ import annotations

import os

from agent_memory.committed.line_ends import md_lines, ours, without_bom
from agent_memory.committed.render import begin_marker, claim_forms, end_marker, in_working_set
from agent_memory.committed.tiers import BLOCK_FILES, held, read_inside
from agent_memory.model.policy import MAX_BLOCK_FILE_BYTES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from agent_memory.model.atom import Atom

_TAG_OPEN = "[contested — "
_REGION = "- region `"


def item_texts(atom: Atom) -> tuple[str, ...]:
    """What a block may show for `atom` (its line without `- ` and a contested tag): as
    rendered now, and as earlier renderers wrote it (`render.claim_forms`: before each part of
    the forge escapes of `render.literal`, before those of `render.inert`; the same claim a reviewer
    read, and the guard judges that line)."""
    return claim_forms(str(atom["claim"]))


def is_shown(atom: Atom, texts: set[str]) -> bool:
    return any(text in texts for text in item_texts(atom))


def block_items(file_text: str, tier: str) -> list[str] | None:
    """The item lines of the tier's block (without `- `), in order; None when the file has no
    well-formed block (no markers, or markers repeated or out of order: nothing is shown)."""
    begin, end = begin_marker(tier), end_marker(tier)
    # a marker after a bare CR, or after a byte-order mark (first in the file, or opening a
    # line of two files joined), is found (line_ends.py)
    lines = md_lines(without_bom(file_text))
    starts = [n for n, line in enumerate(lines) if ours(line) == begin]
    ends = [n for n, line in enumerate(lines) if ours(line) == end]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        return None
    body = lines[starts[0] + 1 : ends[0]]
    return [line[2:] for line in body if line.startswith("- ") and not line.startswith(_REGION)]


def texts_of(items: Iterable[str]) -> set[str]:
    """Each item as shown, and without a leading contested tag (the block renders the atom's
    own `contested` flag as one)."""
    out: set[str] = set()
    for item in items:
        out.add(item)
        if item.startswith(_TAG_OPEN):
            _, sep, rest = item.partition("] ")
            if sep:
                out.add(rest)
    return out


def file_items(root: str | os.PathLike[str], tier: str) -> list[str]:
    """The item lines of the tier's block in the memory files under `root`, never read through
    a link (tiers.open_inside). An absent or unreadable file shows nothing, nor does one over
    MAX_BLOCK_FILE_BYTES: the session start read a cloned 1.5 GB CLAUDE.md whole (zeros: its
    clone costs nothing), a MemoryError that lost the whole context."""
    items: list[str] = []
    for name in BLOCK_FILES:
        try:
            text = read_inside(root, name, MAX_BLOCK_FILE_BYTES)
        except (OSError, UnicodeDecodeError):
            continue
        items += block_items(text, tier) or []
    return items


def shown(atoms: Sequence[Atom], texts: set[str]) -> list[Atom]:
    """The atoms a block showing `texts` stands for: those in the working set whose line it
    shows, and those outside it (which only count)."""
    return [a for a in atoms if not in_working_set(a) or is_shown(a, texts)]


def reviewed_atoms(
    root: str | os.PathLike[str] | None, tier: str, held_atoms: Mapping[str, Atom] | None = None
) -> tuple[list[Atom], int]:
    """The held atoms of the tier whose work tree is `root` that its block shows (what may be
    given to Claude), and how many others it holds: those only count, as the block's own
    region line counts what it hides over the budget. `held_atoms`: what its log holds, when
    the caller has it (the recall hook's saved fold)."""
    if root is None:
        return [], 0
    atoms = list((held(root) if held_atoms is None else held_atoms).values())
    if not atoms:
        return [], 0
    found = shown(atoms, texts_of(file_items(root, tier)))
    return found, len(atoms) - len(found)


def disagreement(atoms: dict[str, Atom], items: Sequence[str], tier: str) -> tuple[list[str], list[str]]:
    """(ids of log lines the block would show but does not, block lines no held atom renders to).

    An atom the full rendering hides over budget is not missing: the block counts it in its
    region line. A decayed or superseded atom renders no line, so its text in the block is a
    block line without its log line."""
    from agent_memory.committed.render import render_block

    texts = texts_of(items)
    expected = render_block(list(atoms.values()), tier).shown if atoms else ()
    unrendered = [ident for ident in expected if not is_shown(atoms[ident], texts)]
    working = {text for a in atoms.values() if in_working_set(a) for text in item_texts(a)}
    unlogged = [item for item in items if not (texts_of([item]) & working)]
    return unrendered, unlogged
