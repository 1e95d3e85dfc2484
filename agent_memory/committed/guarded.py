"""The guard applied to what committed memory *shows*, not only to what a commit adds.

A line the commit guard refuses can still reach `.memory/adopted.log` (a `--no-verify`, a
cherry-pick, a merge made before the hooks were installed). From then on nothing may render
or inject it: `git memory validate --fix` drops it (a `forget` line, so block and
log still agree), `git memory status` counts it, and the SessionStart context leaves it out.

`refused(atoms)` judges each atom by the line a block renders for it, with the same rules the
pre-commit hook applies to `CLAUDE.memory.md` (`redact.guard.scan_text`: secrets, personal
data, path-prefixed back-pointers, home paths, format characters). The session start applies
`line_rules` through remembered verdicts (`committed/verdicts.py`), so it rarely loads the guard.
"""

from __future__ import annotations

from collections.abc import Iterable

from agent_memory.committed.render import atom_line
from agent_memory.model.atom import Atom
from agent_memory.redact import guard

# The name the guard judges a rendered line under (a markdown memory file, not a JSON log).
_AS = "CLAUDE.memory.md"


def line_rules(atom: Atom) -> list[str]:
    """The guard's rules that refuse the line `atom` renders to ([] when it may be shown)."""
    line = atom_line(atom, None)
    return sorted({f.rule for f in guard.scan_text(_AS, line + "\n")})


def refused(atoms: Iterable[Atom]) -> dict[str, list[str]]:
    """atom id → the rules that refuse its rendered line, for the atoms that may not be shown."""
    out: dict[str, list[str]] = {}
    for atom in atoms:
        rules = line_rules(atom)
        if rules:
            out[str(atom["id"])] = rules
    return out
