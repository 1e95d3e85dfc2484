"""Which files are a repository's transcripts (`capture --all`, `status`): the slug folders of
its work trees under Claude Code's `projects/`, every subagent layout, regular files only.
Imports little (a re-run of `capture --all` with nothing new costs a stat per file and these
imports); the reader is imported only to settle an ambiguous slug folder by its recorded cwd.
"""

from __future__ import annotations

import os
import stat

from agent_memory.gitio.refs import locate_git_dirs
from agent_memory.model.checkout import linked_work_trees
from agent_memory.model.home import (
    claude_projects_dir,
    project_dir_name,
    slug_for,
    slug_scan_prefix,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path, PurePosixPath, PureWindowsPath

# Strings and `os.path`, not pathlib (whose import brings `re`, `fnmatch`, `urllib`): listing
# a thousand transcripts costs less than importing it.


def _pure(path: str) -> PurePosixPath | PureWindowsPath:
    import re
    from pathlib import PurePosixPath, PureWindowsPath

    return (
        PureWindowsPath(path)
        if ("\\" in path or re.match(r"^[A-Za-z]:", path))
        else PurePosixPath(path)
    )


def is_under(cwd: str, roots: list[str]) -> bool:
    """Whether `cwd` is one of `roots` or inside one (paths compared as written, lexically)."""
    here = _pure(cwd)
    for root in roots:
        base = _pure(root)
        if here == base or base in here.parents:
            return True
    return False


def repository_roots(project_root: str | os.PathLike[str]) -> list[str]:
    """The work trees of the repository containing `project_root`: its main work tree and every
    linked worktree (read from `<common dir>/worktrees/*/gitdir`, no git process needed)."""
    start = os.path.normpath(os.fspath(project_root))
    roots = [start]
    found = locate_git_dirs(start)
    if found:
        _git_dir, common, work = found
        if work is not None:
            roots.append(work)
        if os.path.basename(common) == ".git":
            roots.append(os.path.dirname(common))
        roots += linked_work_trees(common)
    out: list[str] = []
    for root in roots:
        for form in (os.path.normpath(root), os.path.realpath(root)):
            if form not in out:
                out.append(form)
    return out


def find_transcripts(project_root: str | os.PathLike[str]) -> list[Path]:
    """Every transcript of a repository (`transcript_files`, as paths)."""
    from pathlib import Path

    return [Path(path) for path, _ in transcript_files(project_root)]


def transcript_files(project_root: str | os.PathLike[str]) -> list[tuple[str, os.stat_result]]:
    """(path, its stat) of every transcript of a repository (for `capture --all`): the slug
    folders of its work tree, its linked worktrees and their subdirectories, with all subagent
    layouts; one stat a file, which says whether it changed since its capture.

    Only regular files are listed: a FIFO named *.jsonl blocks the open forever,
    and a symlink to /dev/zero is one endless line. stat, not lstat: a symlink to a real
    transcript is still a transcript. A slug folder whose name merely *starts* with a root's
    slug is ambiguous (`/a/proj-old` and `/a/proj/old` both slug to `-a-proj-old`), so it is
    included only when its recorded `cwd` lies under one of the roots. A root whose slug is
    cut (over 200 units: model/home.py) has every folder below it, and its own folder as an
    older client build named it, start with the cut part: settled the same way. The folder
    an honoured `CLAUDE_CODE_PROJECT_DIR_NAME` names is this project's too, as the client's
    own lookup takes it beside the slug folder (it may hold any path's sessions: capture
    still judges each by its recorded `cwd`, transcripts/owner.py)."""
    roots = repository_roots(project_root)
    slugs = {slug_for(r) for r in roots}
    prefixes = tuple(sorted({slug_scan_prefix(s) for s in slugs}))
    named = project_dir_name()
    if named is not None:
        slugs.add(named)
    base = os.path.abspath(claude_projects_dir())  # absolute paths: the ledger's keys as they are
    try:
        names = sorted(os.listdir(base))
    except OSError:
        return []
    out: list[tuple[str, os.stat_result]] = []
    for name in names:
        exact = name in slugs
        prefixed = not exact and name.startswith(prefixes)
        if not (exact or prefixed):
            continue
        files = _folder_transcripts(os.path.join(base, name))
        if prefixed:
            sample = next((f for f, _ in files if not os.path.basename(f).startswith("agent-")),
                          files[0][0] if files else None)  # fmt: skip
            from agent_memory.transcripts.reader import recorded_cwd

            cwd = recorded_cwd(sample) if sample else None
            if not cwd or not is_under(cwd, roots):
                continue
        out.extend(files)
    return out


def _folder_transcripts(folder: str) -> list[tuple[str, os.stat_result]]:
    """`<folder>/*.jsonl`, then `<folder>/*/subagents/*.jsonl` (as glob sees them: no dotfiles),
    regular files only, each sorted by name."""
    top: list[tuple[str, os.stat_result]] = []
    nested: list[tuple[str, str, os.stat_result]] = []
    for entry in _entries(folder):
        if entry.name.endswith(".jsonl"):
            found = _regular(entry)
            if found is not None:
                top.append((entry.path, found))
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        if is_dir:
            for sub in _entries(os.path.join(entry.path, "subagents")):
                found = _regular(sub) if sub.name.endswith(".jsonl") else None
                if found is not None:
                    nested.append((entry.name, sub.path, found))
    top.sort(key=lambda item: os.path.basename(item[0]))
    nested.sort(key=lambda item: (item[0], os.path.basename(item[1])))
    return top + [(path, found) for _, path, found in nested]


def _entries(folder: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            return [entry for entry in it if not entry.name.startswith(".")]
    except OSError:
        return []


def _regular(entry: os.DirEntry[str]) -> os.stat_result | None:
    try:
        found = entry.stat()
    except (OSError, ValueError):
        return None
    return found if stat.S_ISREG(found.st_mode) else None
