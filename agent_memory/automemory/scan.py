"""The guard over Claude Code's own auto-memory folder (`git memory scan --auto-memory [DIR]`).

The client loads `MEMORY.md` into every session and can share a team folder, so what the
model wrote there is checked for what the commit guard refuses in committed memory: secrets,
personal data, machine paths (home directories, path-prefixed back-pointers). The rules are
the guard's (`redact/guard.scan_text`); the markdown syntax rules the committed block needs
(imports, comments, fences) are not applied — a topic file is the model's notes, not a
rendered block. Every regular file of the folder is read (dotfiles and binary files aside); a
symlink is a finding and is not followed, the folder itself being one included. Nothing is changed: the folder is the client's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from agent_memory.automemory.frontmatter import normalise_text
from agent_memory.automemory.notes import MAX_BYTES, walk
from agent_memory.automemory.quick import signature
from agent_memory.automemory.walk import read_regular
from agent_memory.gitio.state import atomic_write, read_regular_file, state_dir
from agent_memory.redact.guard import GuardFinding, scan_text

# The guard's rules for a rendered markdown block, not for notes (see the module docstring).
BLOCK_ONLY_RULES = frozenset({"memory-import", "html-comment", "code-fence", "format-character"})


def scan_folder(folder: Path) -> list[GuardFinding]:
    """Every finding in the folder's files, as `<folder>/<file>:<line>: <rule>`, sorted. A
    folder that is itself a symlink is one finding (nothing is read through it): counted as
    an empty read, it was "no findings" in `status` for a folder `scan` refuses."""
    import stat

    if folder.is_symlink():
        return [GuardFinding(str(folder), 1, "not-a-regular-file (symlink)")]
    findings: list[GuardFinding] = []
    for rel, st in walk(folder):
        shown = str(folder / rel)
        if stat.S_ISLNK(st.st_mode):
            findings.append(GuardFinding(shown, 1, "not-a-regular-file (symlink)"))
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        try:  # not `open`: an entry swapped for a link or a FIFO since the walk is not read
            raw = read_regular(folder / rel, MAX_BYTES * 4)[: MAX_BYTES * 4]
        except OSError:
            continue
        if b"\0" in raw:
            continue  # binary: nothing the client loads as text
        text = normalise_text(raw)
        findings += [GuardFinding(shown, f.line, f.rule) for f in scan_text(rel, text)
                     if f.rule not in BLOCK_ONLY_RULES]  # fmt: skip
    return sorted(findings, key=lambda f: (f.path, f.line, f.rule))


CACHE_NAME = "auto-memory-scan.json"


def findings_count(folder: Path, common_dir: str | os.PathLike[str]) -> int:
    """How many findings the folder has (`status`), scanned again only when it changed since
    the last count (`.git/agent-memory/auto-memory-scan.json`)."""
    state = signature(folder)
    cache = state_dir(common_dir, create=False) / CACHE_NAME
    try:  # not `read_text`: a FIFO in its place was waited on for ever (status hung)
        known = json.loads(read_regular_file(cache))
        if known.get("folder") == str(folder) and known.get("sig") == state:
            return int(known["findings"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        pass
    count = len(scan_folder(folder))
    try:
        state_dir(common_dir)
        atomic_write(cache, json.dumps({"folder": str(folder), "sig": state, "findings": count}))
    except OSError:
        pass
    return count


__all__ = ["BLOCK_ONLY_RULES", "findings_count", "scan_folder"]
