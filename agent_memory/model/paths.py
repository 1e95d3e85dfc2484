"""Where things live: Claude Code's config dir, transcript slugs, canonical back-pointers,
the global memory repo. Pure functions over paths and the environment (no git, no I/O
beyond `os.environ`), so the hook fast paths can import this cheaply."""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath

from agent_memory.model.home import claude_config_dir, memory_home_dir
from agent_memory.model.home import slug_for as slug_for  # re-exported: one definition, in home

_SESSION_FILE_RE = re.compile(r"[^A-Za-z0-9._-]")


def claude_dir() -> Path:
    """`CLAUDE_CONFIG_DIR` or `~/.claude`."""
    return Path(claude_config_dir())


def projects_dir() -> Path:
    return claude_dir() / "projects"


def memory_home() -> Path:
    """The global (L3) memory repo: `AGENT_MEMORY_HOME` or `~/.claude/agent-memory`."""
    return Path(memory_home_dir())


def _pure(path: str) -> PurePath:
    return PureWindowsPath(path) if ("\\" in path or re.match(r"^[A-Za-z]:", path)) else PurePosixPath(path)


def transcript_slug_and_name(path: str | os.PathLike[str]) -> tuple[str, str]:
    """(slug, file name) of a transcript, whatever the OS path looked like.

    Layouts: `<slug>/<session>.jsonl`, `<slug>/agent-<id>.jsonl` (2.0.x subagents) and
    `<slug>/<session>/subagents/agent-<id>.jsonl` (2.1.x): the slug is the directory under
    `projects/` in every case.
    """
    pure = _pure(os.fspath(path))
    parts = list(pure.parts)
    name = parts[-1] if parts else "transcript.jsonl"
    slug = parts[-2] if len(parts) >= 2 else "unknown"
    if "projects" in parts[:-1]:
        idx = len(parts) - 2 - parts[:-1][::-1].index("projects")
        if idx + 1 < len(parts) - 1:
            slug = parts[idx + 1]
    elif len(parts) >= 4 and parts[-2] == "subagents":
        slug = parts[-4]
    name = _SESSION_FILE_RE.sub("-", name)
    if not name.endswith(".jsonl"):
        name = name + ".jsonl"
    slug = slug.replace("/", "-").replace("\\", "-") or "unknown"
    return slug, name


def canonical_pointer(transcript: str | os.PathLike[str], line: int) -> str:
    """The L1 back-pointer `~/.claude/projects/<slug>/<file>.jsonl#L<n>`."""
    slug, name = transcript_slug_and_name(transcript)
    return f"~/.claude/projects/{slug}/{name}#L{int(line)}"


def session_from_filename(transcript: str | os.PathLike[str]) -> str:
    _, name = transcript_slug_and_name(transcript)
    return name[: -len(".jsonl")]


def resolve_pointer(pointer: str) -> tuple[str, list[Path], int]:
    """Resolve an L1 or stripped back-pointer against this machine's transcripts.

    Returns (status, matches, line) with status `ok` (exactly one match), `missing` (none)
    or `ambiguous` (two or more: never guessed).
    """
    body, _, line_part = pointer.partition("#L")
    line = int(line_part) if line_part.isdigit() else 0
    name = body.replace("\\", "/").rsplit("/", 1)[-1]
    root = projects_dir()
    if name in ("", ".", ".."):
        return "missing", [], line
    if name.endswith(".md"):
        return _resolve_memory_file(body, name, line)
    if body.startswith("~/.claude/projects/"):
        slug = body.split("/")[3]
        if slug in ("", ".", ".."):  # a pointer names a file of one project's folder, no other
            return "missing", [], line
        candidates = [root / slug / name, *sorted((root / slug).glob(f"*/subagents/{_literal(name)}"))]
        matches = [p for p in candidates if p.is_file()]
    else:
        matches = sorted({*root.glob(f"*/{_literal(name)}"), *root.glob(f"*/*/subagents/{_literal(name)}")})
        matches = [p for p in matches if p.is_file()]
    return _verdict(matches, line)


def _literal(name: str) -> str:
    """`name` as a glob pattern that matches that name only (glob.escape). A pointer comes from
    an atom, and a committed atom from whoever wrote the repository's adopted.log: its `*.jsonl`
    resolved to the one transcript of any project here, whose line `inspect --why` printed."""
    return re.sub(r"([*?[])", r"[\1]", name)


class TranscriptIndex:
    """`resolve_pointer` for many back-pointers in a row (adopt checks two per item): the
    transcript files under projects/ — each project folder's own and its sessions'
    `subagents/` — are listed once, on the first stripped pointer, instead of two folder walks
    per pointer (tens of milliseconds each with a few thousand sessions). Same answers; a
    file gone since the listing is not matched, one added since is not seen."""

    def __init__(self) -> None:
        self._by_name: dict[str, list[str]] | None = None

    def resolve(self, pointer: str) -> tuple[str, list[Path], int]:
        body, _, line_part = pointer.partition("#L")
        name = body.replace("\\", "/").rsplit("/", 1)[-1]
        if (not name or name.endswith(".md") or body.startswith("~/.claude/projects/")
                or os.name == "nt" or any(c in name for c in "*?[")):  # fmt: skip
            return resolve_pointer(pointer)  # one folder, a glob pattern, or case-blind names
        if self._by_name is None:
            self._by_name = _list_transcripts(str(projects_dir()))
        line = int(line_part) if line_part.isdigit() else 0
        return _verdict(sorted(p for p in map(Path, self._by_name.get(name, ())) if p.is_file()), line)


def _list_transcripts(root: str) -> dict[str, list[str]]:
    """name → paths of what `<root>/*/*` and `<root>/*/*/subagents/*` match (as pathlib's
    glob does: hidden names too, folders through symlinks, unreadable folders skipped)."""
    by_name: dict[str, list[str]] = {}

    def entries(folder: str) -> list[os.DirEntry[str]]:
        try:
            with os.scandir(folder) as it:
                return list(it)
        except OSError:
            return []

    def is_dir(entry: os.DirEntry[str]) -> bool:
        try:
            return entry.is_dir()
        except OSError:
            return False

    for project in entries(root):
        if not is_dir(project):
            continue
        for entry in entries(project.path):
            by_name.setdefault(entry.name, []).append(entry.path)
            if is_dir(entry):
                for agent in entries(os.path.join(entry.path, "subagents")):
                    by_name.setdefault(agent.name, []).append(agent.path)
    return by_name


def _verdict(matches: list[Path], line: int) -> tuple[str, list[Path], int]:
    if not matches:
        return "missing", [], line
    if len(matches) > 1:
        return "ambiguous", matches, line
    return "ok", matches, line


def is_memory_pointer(pointer: str) -> bool:
    """A back-pointer to a line of an auto-memory file (`…/memory/<file>.md#L<n>`, stripped
    `<file>.md#L<n>`), not to a transcript line."""
    return pointer.partition("#L")[0].endswith(".md")


def _resolve_memory_file(body: str, name: str, line: int) -> tuple[str, list[Path], int]:
    """`~/.claude/projects/<slug>/memory/<rel>` under CLAUDE_CONFIG_DIR; a stripped
    `<file>.md` in any project's memory folder (top level or one folder down)."""
    root = projects_dir()
    if body.startswith("~/.claude/projects/"):
        parts = body.split("/")
        rel = parts[5:]
        if len(parts) < 6 or parts[4] != "memory" or any(p in ("", ".", "..") for p in [parts[3], *rel]):
            return "missing", [], line
        matches = [root.joinpath(parts[3], "memory", *rel)]
    else:
        matches = sorted({*root.glob(f"*/memory/{_literal(name)}"), *root.glob(f"*/memory/*/{_literal(name)}")})
    return _verdict([p for p in matches if p.is_file() and not p.is_symlink()], line)
