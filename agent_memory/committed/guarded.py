"""The guard applied to what committed memory *shows*, not only to what a commit adds.

A line the commit guard refuses can still reach `.memory/adopted.log` (a `--no-verify`, a
cherry-pick, a merge made before the hooks were installed). From then on nothing may render
or inject it: `git memory validate --fix` drops it (a `forget` line, so block and
log still agree), `git memory status` counts it, and the SessionStart context leaves it out.

`refused(atoms)` judges each atom by the line a block renders for it, with the same rules the
pre-commit hook applies to `CLAUDE.memory.md` (`redact.guard.scan_text`: secrets, personal
data, path-prefixed back-pointers, home paths, format characters) and a control character in the
claim, which the line shows escaped. The session start applies
`line_rules` through remembered verdicts (`committed/verdicts.py`), so it rarely loads the guard.
"""

from __future__ import annotations

from collections.abc import Iterable

from agent_memory.committed.render import atom_line, context_claim
from agent_memory.model.atom import MAX_CLAIM_CHARS, Atom
from agent_memory.model.controls import CLAIM_TEXT_CONTROLS, has_controls
from agent_memory.redact import guard

# The name the guard judges a rendered line under (a markdown memory file, not a JSON log).
_AS = "CLAUDE.memory.md"


def line_rules(atom: Atom) -> list[str]:
    """The guard's rules that refuse the line `atom` renders to ([] when it may be shown).

    A control character is judged in the claim itself: the line shows it escaped (`\\x1b`,
    render.one_line), but the adopted.log line holds it raw and the guard refuses that one."""
    if len(str(atom["claim"])) > MAX_CLAIM_CHARS:
        # No adopt writes one (the atom schema's maximum); a hand-written log line of 800 KB
        # kept the guard's rules busy for seconds on every session start, past the hook's
        # timeout, so the start never gave Claude any memory. Refused unread.
        return ["claim-too-long"]
    line = atom_line(atom, None)
    rules = {f.rule for f in guard.scan_text(_AS, line + "\n")}
    # The session start gives the claim without the file's forge escapes (render.literal): a
    # backslash the file adds must not be what keeps a finding out of Claude's context.
    said = atom_line(atom, None, context_claim)
    if said != line:
        rules |= {f.rule for f in guard.scan_text(_AS, said + "\n")}
    if has_controls(str(atom["claim"]), keep=CLAIM_TEXT_CONTROLS):
        rules.add("control-character")
    return sorted(rules)


def refused(atoms: Iterable[Atom]) -> dict[str, list[str]]:
    """atom id → the rules that refuse its rendered line, for the atoms that may not be shown."""
    out: dict[str, list[str]] = {}
    for atom in atoms:
        rules = line_rules(atom)
        if rules:
            out[str(atom["id"])] = rules
    return out
