"""Where Claude Code keeps its own auto-memory folder for a project (`resolve_auto_memory_dir`).

Moved here from `claude/automemory.py` (which keeps the seed-002 working-set validation and
re-exports these names) so that capture, below `claude/` in the layers, reaches the folder
without climbing. How Claude Code resolves it, with sources, is in that module's docstring:
`CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`, then `autoMemoryDirectory` from the first *trusted*
settings source (managed policy, `--settings`, local, user; never the committed project
settings, and never a `.claude/settings.local.json` that git tracks: a file the repository
commits is the repository's word, not the user's, whatever its name), then `<config>/projects/<slug>/memory/` (base `CLAUDE_CODE_REMOTE_MEMORY_DIR` when
set), `<slug>` being the canonical git root (every worktree shares one folder), or the value of
`CLAUDE_CODE_PROJECT_DIR_NAME` where the client honours it (`model.home.memory_folder_name`).
"""

from __future__ import annotations

import json
import ntpath
import os
import posixpath
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from agent_memory.gitio import state as runtime
from agent_memory.model import paths
from agent_memory.model.home import memory_folder_name
from agent_memory.model.policy import MAX_SETTINGS_BYTES

INDEX_NAME = "MEMORY.md"
SETTING_KEY = "autoMemoryDirectory"
COWORK_OVERRIDE_ENV = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"
REMOTE_BASE_ENV = "CLAUDE_CODE_REMOTE_MEMORY_DIR"


@dataclass(frozen=True)
class AutoMemoryLocation:
    path: Path
    source: str  # "env:<VAR>", "policy:<file>", "local:<file>", "user:<file>" or "default"
    notes: tuple[str, ...] = ()


def managed_settings_path() -> Path:
    """Claude Code's managed-policy settings file for this platform."""
    if sys.platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode/managed-settings.json")
    if sys.platform.startswith("win"):
        return Path(r"C:\Program Files\ClaudeCode\managed-settings.json")
    return Path("/etc/claude-code/managed-settings.json")


def canonical_root(repo_root: Path) -> Path:
    """The main work tree of `repo_root`'s repository (worktrees share it), else `repo_root`."""
    found = runtime.find_git_dirs(repo_root)
    if found is None:
        return repo_root.resolve()
    _git_dir, common, work = found
    if common.name == ".git":
        return common.parent
    return work if work is not None else repo_root.resolve()


def _valid_memory_path(raw: str, expand_tilde: bool) -> str | None:
    """Python twin of Claude Code's `validateMemoryPath`: the path it would use, or None."""
    candidate = raw
    if expand_tilde and (candidate.startswith("~/") or candidate.startswith("~\\")):
        rest = candidate[2:]
        rest_norm = posixpath.normpath(rest.replace("\\", "/") or ".")
        if rest_norm in (".", ".."):
            return None
        candidate = os.path.join(str(Path.home()), rest)
    windows = bool(re.match(r"^[A-Za-z]:", candidate)) or candidate.startswith("\\\\")
    normalized = (ntpath if windows else os.path).normpath(candidate).rstrip("/\\")
    is_abs = ntpath.isabs(normalized) if windows else os.path.isabs(normalized)
    if (
        not is_abs
        or len(normalized) < 3
        or re.fullmatch(r"[A-Za-z]:", normalized)
        or normalized.startswith("\\\\")
        or normalized.startswith("//")
        or "\0" in normalized
    ):
        return None
    return unicodedata.normalize("NFC", normalized)


def _setting_in(path: Path) -> tuple[bool, object]:
    """(file defines the key, value). Unreadable or malformed files define nothing."""
    try:
        raw = runtime.read_regular_file(path, MAX_SETTINGS_BYTES + 1)
        if len(raw) > MAX_SETTINGS_BYTES:  # no settings file is that large: it defines nothing
            return False, None
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # a FIFO in its place is refused, never waited on;
        return False, None  # a clone's file nested too deep for json's recursive scanner defines nothing
    if not isinstance(data, dict) or data.get(SETTING_KEY) is None:
        return False, None
    return True, data[SETTING_KEY]


LOCAL_SETTINGS_REL = ".claude/settings.local.json"


def tracked_by_git(repo_root: Path, rel: str) -> bool:
    """Whether the file at `rel` is the repository's: git tracks it in `repo_root`'s index
    (committed or staged), or a link on the way to it (a committed `.claude -> conf`: git then
    lists `.claude` and `conf/settings.local.json`, never `.claude/settings.local.json`), or
    the file that path resolves to inside the work tree. Through gitio's run_git, as every
    internal git call: another repository's GIT_DIR or GIT_INDEX_FILE is not taken, and
    `ls-files` reading the index runs no core.fsmonitor program (SECURITY.md, "The
    configuration git runs with")."""
    from agent_memory.gitio.repo import run_git

    parts = rel.split("/")
    wanted = {"/".join(parts[:n]) for n in range(1, len(parts) + 1)}
    try:
        real, top = (Path(repo_root) / rel).resolve(), Path(repo_root).resolve()
        if real.is_relative_to(top) and real != top:
            wanted.add(real.relative_to(top).as_posix())
    except (OSError, RuntimeError):  # a link loop: git is asked about the path as named
        pass
    specs = [f":(literal){path}" for path in sorted(wanted)]
    try:
        done = run_git(repo_root, "ls-files", "-z", "--", *specs, check=False, errors="replace")
    except OSError:
        return False
    # exactly one of the paths: `.claude` as a pathspec also lists a real folder's tracked files
    return done.returncode == 0 and any(name in wanted for name in done.stdout.split("\0"))


def resolve_auto_memory_dir(
    repo_root: Path, *, managed_settings: Path | None = None
) -> AutoMemoryLocation:
    """The auto-memory directory Claude Code would use for `repo_root`, and why."""
    notes: list[str] = []
    override = os.environ.get(COWORK_OVERRIDE_ENV)
    if override:
        valid = _valid_memory_path(override, expand_tilde=False)
        if valid:
            return AutoMemoryLocation(Path(valid), f"env:{COWORK_OVERRIDE_ENV}")
        notes.append(f"{COWORK_OVERRIDE_ENV}={override!r} is not an absolute path: ignored")

    project_file = repo_root / ".claude" / "settings.json"
    if _setting_in(project_file)[0]:
        notes.append(
            f"{SETTING_KEY} in {project_file} ignored: Claude Code does not read it from project settings"
        )

    sources = (
        ("policy", managed_settings or managed_settings_path()),
        ("local", repo_root / ".claude" / "settings.local.json"),
        ("user", paths.claude_dir() / "settings.json"),
    )
    for label, settings_file in sources:
        defined, value = _setting_in(settings_file)
        if not defined:
            continue
        if label == "local" and tracked_by_git(repo_root, LOCAL_SETTINGS_REL):
            notes.append(
                f"{SETTING_KEY} in {settings_file} ignored: git tracks the file, so the "
                "repository set it, not you"
            )
            continue
        valid = _valid_memory_path(value, expand_tilde=True) if isinstance(value, str) else None
        if valid:
            return AutoMemoryLocation(Path(valid), f"{label}:{settings_file}", tuple(notes))
        # First defined value wins even when invalid (Claude Code's `??` chain): default applies.
        notes.append(
            f"{SETTING_KEY}={value!r} in {settings_file} is not an absolute or ~/ path: "
            "Claude Code ignores it and uses the default directory"
        )
        break

    base_env = os.environ.get(REMOTE_BASE_ENV)
    base = Path(base_env) if base_env else paths.claude_dir()
    # The path as the OS gives it, not NFC: the client slugs the raw string (a decomposed "é"
    # is "e-", a composed one "-") and only normalizes the finished, ASCII-slugged path. An
    # honoured CLAUDE_CODE_PROJECT_DIR_NAME replaces the slug while the base is the config dir.
    slug = memory_folder_name(canonical_root(repo_root))
    return AutoMemoryLocation(base / "projects" / slug / "memory", "default", tuple(notes))


def default_auto_memory_dir(repo_root: Path, *, managed_settings: Path | None = None) -> Path:
    return resolve_auto_memory_dir(repo_root, managed_settings=managed_settings).path


def is_index_file(rel: str) -> bool:
    """`MEMORY.md` and its siblings (`MEMORY-archive.md`, …): indexes, never memories."""
    name = posixpath.basename(rel)
    return name.startswith("MEMORY") and name.endswith(".md")


def memory_slug(folder: Path, repo_root: Path | None = None) -> str:
    """The `<slug>` of the canonical back-pointer `~/.claude/projects/<slug>/memory/<file>`:
    the folder's own project directory when it sits at `…/projects/<slug>/memory`, else the
    slug of the repository's canonical root (an `autoMemoryDirectory` elsewhere), else of the
    folder's parent."""
    if folder.name == "memory" and folder.parent.parent.name == "projects":
        return folder.parent.name
    if repo_root is not None:
        return paths.slug_for(canonical_root(repo_root))
    return paths.slug_for(str(folder.parent))
