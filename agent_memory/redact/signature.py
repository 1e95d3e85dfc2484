"""One line that changes whenever a rule of the redactor or the guard can have changed.

What the guard accepted is remembered (`committed/verdicts.py`) and so is the session-start
text built from it (`claude/session_start.py`); both must be judged again when a rule changes,
wherever in this package the rule lives. So the signature covers every Python file of the
package, found by listing it (a rule module added later counts without being named anywhere),
by name, size and modification time.

Stats only, no file is read: the session start pays for this on every start, warm or cold
(about twenty `stat` calls, once per process: a cold start asks three times), and imports
nothing but `os` (and model/checkout, which imports only `os`).
"""

from __future__ import annotations

import os

from agent_memory.model.checkout import work_tree_forms

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_SIGNED: list[str] = []


def rules_signature() -> str:
    """This package's signature, computed once per process (a process does not outlive an
    upgrade of its own code), the home directory and this checkout's place: the running
    user's home and the work tree are rules of their own (`pii.own_homes`,
    `model.checkout`), so a verdict given under another $HOME, or before the clone moved, is
    given again."""
    if not _SIGNED:
        _SIGNED.append(signature_of(PACKAGE_DIR))
    top = ":".join(work_tree_forms())
    return f"{_SIGNED[0]} home={_text(os.environ.get('HOME', ''))} top={_text(top)}"


def _text(path: str) -> str:
    """A path as text that can be written: a folder name that is not UTF-8 (`caf\\xe9`) keeps
    its byte as an escape — the signature is stored, and a lone surrogate cannot be encoded."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def signature_of(package_dir: str) -> str:
    """`name:size:mtime_ns` of each Python file below `package_dir`, in name order."""
    parts: list[str] = []
    pending = [("", package_dir)]
    while pending:
        prefix, folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            parts.append(f"{prefix}-")
            continue
        for entry in entries:
            name = prefix + entry.name
            if entry.name.endswith(".py"):
                try:
                    st = entry.stat()
                except OSError:
                    parts.append(f"{name}:-")
                    continue
                parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
            elif entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):
                pending.append((name + "/", entry.path))
    return " ".join(sorted(parts))
