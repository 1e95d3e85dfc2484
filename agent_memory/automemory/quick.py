"""The auto-memory folder's place and state with `os` only, for `capture --all` with nothing
new (on a budget of a stat per transcript and little else) and the capture ledger.

`default_folder` is `location.resolve_auto_memory_dir` for the common case — no override in
the environment, no settings file that names `autoMemoryDirectory`, an ASCII repository path
(the slug then needs no Unicode normalisation) — and None whenever any of that may not hold,
so the caller asks `location.py`. `signature` says whether anything in the folder changed:
every entry the one walk of the folder reads (`walk.walk`, with its bounds), its name, size,
mtime and type, and every folder's mtime (a rename or a deletion changes its folder's), folded
into a few sums.
"""

from __future__ import annotations

import os
import sys

from agent_memory.automemory.walk import MAX_DEPTH, MAX_FILES, walk
from agent_memory.gitio.state import read_regular_file
from agent_memory.model.home import claude_config_dir, memory_folder_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agent_memory.transcripts.ledger import Ledger

LEDGER_KIND = "auto-memory"  # its kind of source in the capture ledger (transcripts/ledger.py)
SETTING = b"autoMemoryDirectory"
COWORK_OVERRIDE_ENV = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"
REMOTE_BASE_ENV = "CLAUDE_CODE_REMOTE_MEMORY_DIR"


def _managed_settings() -> str:
    if sys.platform == "darwin":
        return "/Library/Application Support/ClaudeCode/managed-settings.json"
    if sys.platform.startswith("win"):
        return r"C:\Program Files\ClaudeCode\managed-settings.json"
    return "/etc/claude-code/managed-settings.json"


def _names_setting(path: str) -> bool:
    from agent_memory.model.policy import MAX_SETTINGS_BYTES

    try:
        data = read_regular_file(path, MAX_SETTINGS_BYTES + 1)  # a FIFO in its place is refused, never waited on
    except OSError:
        return False
    return len(data) <= MAX_SETTINGS_BYTES and SETTING in data  # a larger one defines nothing (location.py)


def default_folder(common: str, work: str | None) -> str | None:
    """The folder Claude Code uses for the repository whose git common dir is `common`, when
    it is certainly the default one; None when `location.py` must decide."""
    if os.environ.get(COWORK_OVERRIDE_ENV):
        return None
    top = work or common
    settings = (_managed_settings(), os.path.join(top, ".claude", "settings.local.json"),
                os.path.join(claude_config_dir(), "settings.json"))  # fmt: skip
    if any(_names_setting(path) for path in settings):
        return None
    common = os.path.realpath(common)
    root = os.path.dirname(common) if os.path.basename(common) == ".git" else os.path.realpath(work or common)
    if not root.isascii():
        return None
    base = os.environ.get(REMOTE_BASE_ENV) or claude_config_dir()
    return os.path.join(base, "projects", memory_folder_name(root), "memory")


def folder_key(folder: str | os.PathLike[str]) -> str:
    """The capture ledger's key for a folder."""
    return os.path.abspath(folder)


def signature(folder: str | os.PathLike[str]) -> str | None:
    """What says the folder is unchanged (None when it is not a folder, or a symlink: the
    walk reads nothing through a link)."""
    try:
        top = os.stat(folder)
    except OSError:
        return None
    if os.path.islink(folder):
        return None
    count = size = names = kinds = 0
    stamps = top.st_mtime_ns
    for rel, st in walk(folder, folders=True):
        count += 1
        size += st.st_size
        stamps += st.st_mtime_ns
        names += sum(map(ord, rel[rel.rfind("/") + 1 :]))  # the entry's name, as before
        kinds += st.st_mode
    return f"am1:{count}:{size}:{stamps}:{names}:{kinds}"


def project_folder(common: str | os.PathLike[str], root: str | os.PathLike[str]) -> str:
    """The repository's auto-memory folder: the `os`-only answer when it is certain, else
    `location.py`'s."""
    quick = default_folder(os.fspath(common), os.fspath(root))
    if quick is not None:
        return quick
    from pathlib import Path

    from agent_memory.automemory.location import resolve_auto_memory_dir

    return os.fspath(resolve_auto_memory_dir(Path(root)).path)


def changed(common: str | os.PathLike[str], root: str | os.PathLike[str], ledger: Ledger) -> bool:
    """Whether the folder holds anything its last capture did not read."""
    folder = project_folder(common, root)
    state = signature(folder)
    return state is not None and ledger.seen(LEDGER_KIND, folder_key(folder), state) is None


__all__ = ["LEDGER_KIND", "MAX_DEPTH", "MAX_FILES", "changed", "default_folder", "folder_key", "project_folder", "signature"]
