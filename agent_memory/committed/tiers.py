"""Reading the committed tiers: the adopted L2 atoms of this repository and the L3 atoms of
the global memory repo, folded from their `.memory/adopted.log` files. Pure file reads (no
pygit2), so SessionStart can use it on its fast path.

`held` is on the cold session-start path, so it folds the log with `fold_text` — the same
rules as `adopted_log.parse` + `adopted_log.fold` (tests/test_context.py checks they agree)
through the C JSON scanner, without importing `json`, `re`, `dataclasses` or `pathlib`.
"""

from __future__ import annotations

import os

from agent_memory.model.fastjson import loads
from agent_memory.model.home import memory_home_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from agent_memory.committed import adopted_log
    from agent_memory.model.atom import Atom

LOG_PATH = os.path.join(".memory", "adopted.log")
_SETTING_OPS = frozenset({"adopt", "pin", "unpin", "decay", "supersede", "resolve"})
_REMOVING_OPS = frozenset({"forget", "demote"})
_ENTRY_KEYS = frozenset({"at", "atom", "op", "review_commit"})


def read_log(root: Path | None) -> tuple[list[adopted_log.LogEntry], list[str]]:
    from agent_memory.committed import adopted_log

    if root is None:
        return [], []
    path = root / adopted_log.LOG_PATH
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return [], []
    except (OSError, UnicodeDecodeError) as exc:
        return [], [f"{path}: unreadable: {exc}"]
    return adopted_log.parse(text)


def _is_stamp(value: object) -> bool:
    """`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$` (adopted_log._TS_RE)."""
    if not isinstance(value, str) or len(value) != 20 or not value.isascii():
        return False
    digits = value[0:4] + value[5:7] + value[8:10] + value[11:13] + value[14:16] + value[17:19]
    return digits.isdigit() and value[4] == value[7] == "-" and value[10] == "T" and value[13] == value[16] == ":" and value[19] == "Z"


def _valid_entry(obj: Any) -> bool:
    """adopted_log._structural_errors(obj) == [] (the checks the session start relies on)."""
    if not isinstance(obj, dict) or not set(obj) <= _ENTRY_KEYS:
        return False
    op = obj.get("op")
    if op not in _SETTING_OPS and op not in _REMOVING_OPS:
        return False
    if not _is_stamp(obj.get("at")):
        return False
    if "review_commit" in obj and not (isinstance(obj["review_commit"], str) and obj["review_commit"]):
        return False
    atom = obj.get("atom")
    if not isinstance(atom, dict) or not isinstance(atom.get("id"), str) or not isinstance(atom.get("claim"), str):
        return False
    if atom.get("tier") not in ("L2", "L3"):
        return False
    return not (op == "supersede" and not atom.get("superseded_by"))


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _canonical(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_canonical(v) for v in value)
    return (type(value).__name__, value)


def _counts(items: list[tuple[str, str, str]]) -> dict[tuple[str, str, str], int]:
    counts: dict[tuple[str, str, str], int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def fold_text(text: str) -> dict[str, Atom]:
    """The atoms an adopted.log holds, by id (sorted): `adopted_log.fold(adopted_log.parse(text)[0])`.
    Bad lines are skipped (`git memory validate` reports them)."""
    parsed: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(text.split("\n")):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        try:
            obj = loads(line)
        except ValueError:
            continue
        if not _valid_entry(obj):
            continue
        assert isinstance(obj, dict)
        parsed.append((number, obj))
    # Identical lines count once. Two lines can only be identical if they share the stamp, the
    # op and the atom: the (slow) canonical form is computed only for lines that do.
    stamps = [(obj["at"], obj["op"], obj["atom"]["id"]) for _, obj in parsed]
    shared = {stamp for stamp, n in _counts(stamps).items() if n > 1}
    entries: list[tuple[str, int, str, Atom]] = []
    seen: set[Any] = set()
    for (number, obj), stamp in zip(parsed, stamps, strict=True):
        if stamp in shared:
            key = _canonical(obj)
            if key in seen:
                continue
            seen.add(key)
        entries.append((obj["at"], number, obj["op"], obj["atom"]))
    held: dict[str, Atom] = {}
    for _, _, op, atom in sorted(entries, key=lambda e: (e[0], e[1])):
        if op in _REMOVING_OPS:
            held.pop(atom["id"], None)
        else:
            held[atom["id"]] = atom
    return {key: held[key] for key in sorted(held)}


def held(root: str | os.PathLike[str] | None) -> dict[str, Atom]:
    """The atoms currently held in the tier whose work tree is `root` (all of them, including
    decayed and superseded ones, which stay reachable). An unreadable log holds nothing here
    (`git memory validate` reports it)."""
    if root is None:
        return {}
    try:
        with open(os.path.join(root, LOG_PATH), encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError):
        return {}
    return fold_text(text)


def l2_atoms(workdir: str | os.PathLike[str] | None) -> dict[str, Atom]:
    return held(workdir)


def l3_atoms(home: str | os.PathLike[str] | None = None) -> dict[str, Atom]:
    return held(home or memory_home_dir())
