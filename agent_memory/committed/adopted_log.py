"""`.memory/adopted.log`: the committed audit trail of L2/L3 material.

One JSON object per line (sorted keys, compact separators, UTF-8, trailing newline):
`{"at": ts, "atom": {full committed atom after the op}, "op": op, "review_commit": oid}`.
`review_commit` is present only when known (written by `git memory adopt`); lines staged on
`memory/review` omit it. Because every line carries the whole atom state, the currently held
atoms are a fold of the log, and the rendered marker block is a pure function of that fold.
Only an `adopt` line makes an atom held; the other setting ops change an atom only while it is
held (`fold`), so a teammate's pin of an atom forgotten meanwhile never brings it back.

The file is committed with `merge=union` (`GITATTRIBUTES_LINE`): git then concatenates both
sides' new lines instead of conflicting. `fold` orders entries by (`at`, file order) and
ignores exact duplicate lines, so two machines' union-merged logs fold to the same atoms as
long as no atom received two different ops within the same second on different machines;
`union` is the canonical, argument-order-independent merge for the global repo's sync.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from agent_memory.committed.line_ends import BOM
from agent_memory.model.atom import Atom, atom_errors, is_atom_id, without_local_fields
from agent_memory.model.fastjson import MAX_DEPTH, too_deep

LOG_PATH = ".memory/adopted.log"
GITATTRIBUTES_LINE = ".memory/adopted.log merge=union"

# Ops that leave the atom held (the line's atom is its new state) and ops that drop it.
SETTING_OPS = ("adopt", "pin", "unpin", "decay", "supersede", "resolve")
REMOVING_OPS = ("forget", "demote")  # demote: L2 cap overflow sends the atom back to L1
OPS = SETTING_OPS + REMOVING_OPS

_TS_RE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")
_ENTRY_KEYS = frozenset({"at", "atom", "op", "review_commit"})
# json.dumps(ensure_ascii=False) leaves these raw; str.splitlines() would break a line on them.
_LINE_BREAKERS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


@dataclass(frozen=True)
class LogEntry:
    op: str
    atom: Atom
    at: str
    review_commit: str | None = None

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(
                f"unknown adopted.log op {self.op!r} (expected one of {', '.join(OPS)})"
            )
        if not _TS_RE.match(self.at):
            raise ValueError(f"adopted.log timestamp {self.at!r} is not YYYY-MM-DDTHH:MM:SSZ")

    @property
    def atom_id(self) -> str:
        return str(self.atom.get("id", ""))


def format_entry(entry: LogEntry) -> str:
    """One log line, newline included. Deterministic: the same entry gives the same bytes."""
    obj: dict[str, Any] = {"at": entry.at, "atom": entry.atom, "op": entry.op}
    if entry.review_commit is not None:
        obj["review_commit"] = entry.review_commit
    line = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    for raw, escaped in _LINE_BREAKERS.items():
        line = line.replace(raw, escaped)  # only ever inside JSON strings, where \\uXXXX is equal
    return line + "\n"


def format_log(entries: Iterable[LogEntry]) -> str:
    return "".join(format_entry(e) for e in entries)


def _structural_errors(obj: Any) -> list[str]:
    if not isinstance(obj, dict):
        return ["not a JSON object"]
    errors = []
    op = obj.get("op")
    if op not in OPS:
        errors.append(f"unknown op {op!r}")
    at = obj.get("at")
    if not isinstance(at, str) or not _TS_RE.match(at):
        errors.append(f"at {at!r} is not a UTC timestamp YYYY-MM-DDTHH:MM:SSZ")
    if "review_commit" in obj and not (
        isinstance(obj["review_commit"], str) and obj["review_commit"]
    ):
        errors.append("review_commit must be a non-empty string when present")
    atom = obj.get("atom")
    if not isinstance(atom, dict):
        errors.append("atom is not a JSON object")
        return errors
    if not isinstance(atom.get("id"), str) or not isinstance(atom.get("claim"), str):
        errors.append("atom has no string id and claim")
    elif not is_atom_id(atom["id"]):
        # printed in commands to paste: `atm_0;touch${IFS}x` ran its writer's command
        errors.append(f"atom id {atom['id']!r} is not atm_ and 8 hex digits")
    if "superseded_by" in atom and not is_atom_id(atom["superseded_by"]):
        errors.append(f"superseded_by {atom['superseded_by']!r} is not an atom id")
    if atom.get("tier") not in ("L2", "L3"):
        errors.append(
            f"atom tier {atom.get('tier')!r} is not L2 or L3 (adopted.log holds committed tiers only)"
        )
    if op == "supersede" and not atom.get("superseded_by"):
        errors.append("supersede entry's atom carries no superseded_by")
    return errors


def _newer_keys(obj: dict[str, Any]) -> list[str]:
    return sorted(set(obj) - _ENTRY_KEYS)


# The last few texts parsed without validation: one adopt reads the same log several times
# per item (consistency, fold, render, append), ~1 ms each at 60 lines.
_PARSED: dict[str, tuple[list[LogEntry], list[str]]] = {}
_PARSED_KEEP = 4


def _copies(entries: list[LogEntry]) -> list[LogEntry]:
    """New entries with their own atom dicts: a caller that edits an atom edits its copy."""
    return [LogEntry(e.op, dict(e.atom), e.at, e.review_commit) for e in entries]  # type: ignore[arg-type]


def parse(text: str, *, validate: bool = False) -> tuple[list[LogEntry], list[str]]:
    """Entries in file order and one error per bad line (`line N: …`, 1-based).

    A bad line is reported and skipped; it never hides the lines around it (the previous
    implementation emptied its store on one corrupt line). Blank lines are ignored.
    `validate=True` also runs the full atom schema and invariants (`git memory validate`);
    the session-start path leaves it off because jsonschema is slow to import.
    """
    if not validate:
        hit = _PARSED.get(text)
        if hit is None:
            hit = _parse_extension(text) or _parse(text, validate=False)
            while len(_PARSED) >= _PARSED_KEEP:
                del _PARSED[next(iter(_PARSED))]
            _PARSED[text] = (_copies(hit[0]), list(hit[1]))
            return hit
        return _copies(hit[0]), list(hit[1])
    return _parse(text, validate=True)


def _parse_extension(text: str) -> tuple[list[LogEntry], list[str]] | None:
    """`text` parsed from a remembered text it extends by whole lines, only the new lines
    read: each adopted item appends a line to the log the item before it wrote, and parsing
    the whole log again made an item's cost grow with the log. Lines are parsed on their own,
    so this is what parsing `text` whole gives."""
    for prior in reversed(list(_PARSED)):  # the newest first
        if len(prior) < len(text) and prior.endswith("\n") and text.startswith(prior):
            entries, errors = _PARSED[prior]
            more, more_errors = _parse(
                text[len(prior) :], validate=False, first_line=prior.count("\n") + 1
            )
            return _copies(entries) + more, errors + more_errors
    return None


def _parse(text: str, *, validate: bool, first_line: int = 1) -> tuple[list[LogEntry], list[str]]:
    entries: list[LogEntry] = []
    errors: list[str] = []
    # Split on "\n" only: format_entry escapes every other character splitlines() breaks on,
    # but a hand-edited file might not, and a JSON string may legally contain them.
    for number, raw in enumerate(text.split("\n"), start=first_line):
        # a byte-order mark (a log saved by a Windows editor) is no part of the entry: as
        # tiers.entry_of reads it (committed/line_ends.py)
        line = raw.rstrip("\r").removeprefix(BOM)
        if not line.strip():
            continue
        if too_deep(line):  # json.loads would raise RecursionError, not ValueError
            errors.append(f"line {number}: not an entry: nested more than {MAX_DEPTH} levels deep")
            continue
        try:
            obj = json.loads(line)
        except ValueError as exc:
            errors.append(f"line {number}: not JSON: {exc}")
            continue
        problems = _structural_errors(obj)
        if not problems and validate and _newer_keys(obj):
            # A teammate's newer agent-memory may add a key: the line is read without it (it
            # stays held and shown; dropping it let an older `validate --fix` take a teammate's
            # adopted line out of the block), and validate names the keys.
            errors.append(f"line {number}: keys this version does not know ({', '.join(_newer_keys(obj))}), "
                          "from a newer agent-memory? the line is read without them; upgrade to check it")
        if not problems and validate:
            found = atom_errors(obj["atom"])
            if obj["op"] in REMOVING_OPS and obj["atom"].get("redacted"):
                # a removing line may carry its claim redacted (lifecycle.apply_l2_op): the id
                # names the atom it removes, so it no longer hashes from the text
                found = [e for e in found if "does not match its claim" not in e]
            problems = [f"atom {obj['atom']['id']}: {e}" for e in found]
        if problems:
            errors.extend(f"line {number}: {p}" for p in problems)
            continue
        entries.append(
            LogEntry(
                op=obj["op"], atom=without_local_fields(obj["atom"]),  # type: ignore[arg-type]
                at=obj["at"], review_commit=obj.get("review_commit"),
            )
        )
    return entries, errors


def _ordered_unique(entries: Iterable[LogEntry]) -> list[LogEntry]:
    listed = list(entries)
    # Two entries can only be identical if they share the stamp, the op and the atom id: the
    # (slow) canonical line is formatted only for those, not for every entry of every fold.
    stamps = [(e.at, e.op, e.atom_id) for e in listed]
    shared = {s for s, n in Counter(stamps).items() if n > 1}
    seen: set[str] = set()
    unique: list[LogEntry] = []
    for entry, stamp in zip(listed, stamps, strict=True):
        if stamp in shared:
            key = format_entry(entry)
            if key in seen:
                continue
            seen.add(key)
        unique.append(entry)
    # sorted() is stable: entries with the same `at` keep their file order (an adopt then a
    # pin in the same second stays in that order).
    return sorted(unique, key=lambda e: e.at)


def fold(entries: Iterable[LogEntry]) -> dict[str, Atom]:
    """The atoms currently held, by id (sorted by id).

    adopt sets the atom to the line's state; pin/unpin/decay/supersede/resolve do so only for
    an atom held at that point (on one that is not they change nothing: a teammate's pin of an
    atom forgotten meanwhile, union-merged after the forget, must not bring it back — only an
    adopt does); forget/demote remove it. Applied in (`at`, file order); identical duplicate
    lines count once.
    """
    held: dict[str, Atom] = {}
    for entry in effective(entries):
        if entry.op in REMOVING_OPS:
            del held[entry.atom_id]
        else:
            held[entry.atom_id] = entry.atom
    return {key: held[key] for key in sorted(held)}


def effective(entries: Iterable[LogEntry]) -> list[LogEntry]:
    """The entries that change what is held, in the order `fold` applies them: every adopt,
    and a setting or removing op only on an atom held at that point (`fold`)."""
    held: set[str] = set()
    out: list[LogEntry] = []
    for entry in _ordered_unique(entries):
        ident = entry.atom_id
        if entry.op == "adopt":
            held.add(ident)
        elif ident not in held:
            continue
        elif entry.op in REMOVING_OPS:
            held.discard(ident)
        out.append(entry)
    return out


def removed(entries: Iterable[LogEntry]) -> dict[str, tuple[LogEntry, Atom]]:
    """Each atom not held whose last effective line removed it: that line and the atom as
    held just before it (`forget --undo` restores that)."""
    before: dict[str, Atom] = {}
    out: dict[str, tuple[LogEntry, Atom]] = {}
    for entry in effective(entries):
        ident = entry.atom_id
        if entry.op in REMOVING_OPS:
            out[ident] = (entry, before.pop(ident))
        else:
            before[ident] = entry.atom
            out.pop(ident, None)
    return out


def held_ids(entries: Iterable[LogEntry]) -> set[str]:
    return set(fold(entries))


def ever_adopted(entries: Iterable[LogEntry]) -> set[str]:
    """Ids that were adopted at some point, held now or not: promotion feeds back through
    this so an adopted (or since forgotten) atom is not restaged forever."""
    return {e.atom_id for e in entries if e.op == "adopt"}


def _merge_same_second(a: list[str], b: list[str]) -> list[str]:
    """Symmetric merge of two logs' lines that share one `at` value.

    Each side's own order is causal (an adopt then a pin within one second) and is kept when
    one side already contains the other; otherwise the lexicographically smaller sequence goes
    first so that `union(a, b) == union(b, a)`.
    """
    set_a, set_b = set(a), set(b)
    if set_a == set_b:
        return min(a, b)
    if set_a <= set_b:
        return b
    if set_b <= set_a:
        return a
    first, second = (a, b) if a <= b else (b, a)
    return first + [line for line in second if line not in set(first)]


def _lines_by_at(text: str) -> tuple[dict[str, list[str]], list[str]]:
    groups: dict[str, list[str]] = {}
    unparseable: list[str] = []
    for raw in text.split("\n"):
        line = raw.rstrip("\r").removeprefix(BOM)  # the mark goes back first (union)
        if not line.strip():
            continue
        entries, errors = parse(line)
        if errors:
            unparseable.append(line)
            continue
        # a line with keys of a newer version is kept as written: formatting drops them
        canonical = line if _newer_keys(json.loads(line)) else format_entry(entries[0]).rstrip("\n")
        group = groups.setdefault(entries[0].at, [])
        if canonical not in group:
            group.append(canonical)
    return groups, unparseable


def union(text_a: str, text_b: str) -> str:
    """Merge two logs without conflicts: identical entries once, stable order by `at`.

    The result does not depend on argument order. Lines that do not parse are kept (sorted, at
    the end) rather than dropped, so a merge never loses data; `parse` still reports them.
    """
    groups_a, bad_a = _lines_by_at(text_a)
    groups_b, bad_b = _lines_by_at(text_b)
    out: list[str] = []
    for at in sorted(set(groups_a) | set(groups_b)):
        out.extend(_merge_same_second(groups_a.get(at, []), groups_b.get(at, [])))
    out.extend(sorted(set(bad_a) | set(bad_b)))
    # a log saved with a byte-order mark keeps it, first (whichever side had it: the result
    # does not depend on argument order)
    bom = BOM if text_a.startswith(BOM) or text_b.startswith(BOM) else ""
    return bom + "".join(line + "\n" for line in out)
