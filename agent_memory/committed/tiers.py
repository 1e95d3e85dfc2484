"""Reading the committed tiers: the adopted L2 atoms of this repository and the L3 atoms of
the global memory repo, folded from their `.memory/adopted.log` files. Pure file reads (no
pygit2), so SessionStart can use it on its fast path."""

from __future__ import annotations

from pathlib import Path

from agent_memory.committed import adopted_log
from agent_memory.model.atom import Atom
from agent_memory.model.paths import memory_home


def read_log(root: Path | None) -> tuple[list[adopted_log.LogEntry], list[str]]:
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


def held(root: Path | None) -> dict[str, Atom]:
    """The atoms currently held in the tier whose work tree is `root` (all of them, including
    decayed and superseded ones, which stay reachable)."""
    entries, _ = read_log(root)
    return adopted_log.fold(entries)


def l2_atoms(workdir: Path | None) -> dict[str, Atom]:
    return held(workdir)


def l3_atoms(home: Path | None = None) -> dict[str, Atom]:
    return held(home or memory_home())
