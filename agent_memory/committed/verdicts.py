"""The guard's verdicts on committed memory lines, remembered so the session start can apply
the guard without loading it.

Nothing the commit guard refuses may be injected into Claude's context, even
when it reached `.memory/adopted.log` around the hooks. But the guard's rules cost a few
hundred milliseconds to import, and the session-start hook stays on the standard library.
So each line is judged once, by `guarded.line_rules`, and the verdict kept in
`.git/agent-memory/guard-verdicts`: lines the guard accepts verbatim (exact match, so no
collision can make a refused line pass), refused ones only by a CRC (a collision can only
leave a line out, and no secret is copied into the file). A line not judged yet is judged
inline — once, on the rare start after a pull brought new memory; the verbs that change the
tiers judge ahead (`warm()`). The file's first line signs the guard's code — every file of
`redact/` (`redact.signature`) and `guarded.py` — so a rule changed or added anywhere in them
judges every line again.
"""

from __future__ import annotations

import os

from agent_memory.committed.render import atom_line, context_claim
from agent_memory.gitio.state import replace_text
from agent_memory.model.controls import CLAIM_TEXT_CONTROLS, has_controls

TYPE_CHECKING = False
if TYPE_CHECKING:  # collections.abc and typing cost the cold session start ~3 ms at run time
    from collections.abc import Sequence

    from agent_memory.model.atom import Atom

VERDICTS_FILE = "guard-verdicts"
_ACCEPT, _REFUSE = "+", "-"


def _guard_signature() -> str:
    from agent_memory import __version__
    from agent_memory.redact.signature import rules_signature

    try:
        st = os.stat(os.path.join(os.path.dirname(os.path.abspath(__file__)), "guarded.py"))
        guarded = f"guarded.py:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        guarded = "guarded.py:-"
    return " ".join((__version__, guarded, rules_signature()))


def _crc(line: str) -> str:
    import zlib  # only for a line the guard has not accepted verbatim

    return f"{zlib.crc32(line.encode('utf-8')):08x}"


def _load(path: str, signature: str) -> tuple[set[str], set[str]]:
    """(accepted lines, refused CRCs) from the file; empty when absent or from other rules."""
    try:
        with open(path, encoding="utf-8") as fh:
            head, *rows = fh.read().split("\n")
    except (OSError, UnicodeDecodeError):
        return set(), set()
    if head != signature:
        return set(), set()
    accepted = {r[1:] for r in rows if r.startswith(_ACCEPT)}
    refused = {r[1:] for r in rows if r.startswith(_REFUSE)}
    return accepted, refused


def _save(path: str, signature: str, accepted: set[str], refused: set[str]) -> None:
    # A rendered line is one line; anything else is judged again next time rather than stored.
    rows = [signature, *sorted(_ACCEPT + a for a in accepted if "\n" not in a)]
    rows += sorted(_REFUSE + r for r in refused)
    replace_text(path, "\n".join(rows) + "\n")


def shown(state_dir: str, *groups: Sequence[Atom]) -> list[list[Atom]]:
    """Each group (a tier's atoms) cut to the atoms whose rendered line the guard accepts, in
    order. Judges (and remembers) the lines it has no verdict for; the verdicts kept are those
    of the lines in use across all groups. A verdict file that cannot be written costs speed."""
    path = os.path.join(state_dir, VERDICTS_FILE)
    signature = _guard_signature()
    accepted, refused = _load(path, signature)
    # A claim holding a control character is refused by the claim itself (guarded.line_rules):
    # its line shows the character escaped, the same line as a claim that spells the escape
    # out, so it must not share that line's verdict. It is never shown.
    groups = tuple([a for a in group if not has_controls(str(a["claim"]), keep=CLAIM_TEXT_CONTROLS)]
                   for group in groups)  # fmt: skip
    # Keyed by the line as the context says it: the file's line (render.literal of it) follows
    # from it, so one verdict covers both, which guarded.line_rules judges.
    lines = [[atom_line(atom, None, context_claim) for atom in group] for group in groups]
    in_use = {line for group in lines for line in group}
    unknown = [
        (atom, line)
        for group, group_lines in zip(groups, lines, strict=True)
        for atom, line in zip(group, group_lines, strict=True)
        if line not in accepted and _crc(line) not in refused
    ]
    if unknown:
        from agent_memory.committed.guarded import line_rules

        for atom, line in unknown:
            if line_rules(atom):
                refused.add(_crc(line))
            else:
                accepted.add(line)
        # Only the lines in use are kept: the file does not grow with every line ever shown.
        accepted &= in_use
        refused &= {_crc(line) for line in in_use}
        try:
            os.makedirs(state_dir, exist_ok=True)
            _save(path, signature, accepted, refused)
        except OSError:
            pass
    return [
        [atom for atom, line in zip(group, group_lines, strict=True) if line in accepted]
        for group, group_lines in zip(groups, lines, strict=True)
    ]
