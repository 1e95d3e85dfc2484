"""Which files are a repository's transcripts (`capture --all`, `status`): the slug folders of
its work trees under Claude Code's `projects/`, every subagent layout, regular files only.
Imports little (a re-run of `capture --all` with nothing new costs a stat per file and these
imports); the reader is imported only to settle an ambiguous slug folder by its recorded cwd.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path, PurePosixPath, PureWindowsPath

from agent_memory.model.paths import projects_dir, slug_for


def _pure(path: str) -> PurePosixPath | PureWindowsPath:
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
    from agent_memory.gitio.state import find_git_dirs

    start = Path(project_root)
    roots: list[Path] = [start]
    found = find_git_dirs(start)
    if found:
        _git_dir, common, work = found
        if work is not None:
            roots.append(work)
        if common.name == ".git":
            roots.append(common.parent)
        linked = common / "worktrees"
        if linked.is_dir():
            for entry in sorted(linked.iterdir()):
                try:
                    target = Path((entry / "gitdir").read_text("utf-8").strip())
                except OSError:
                    continue
                roots.append(target.parent)
    out: list[str] = []
    for root in roots:
        for form in (str(root), os.path.realpath(root)):
            if form not in out:
                out.append(form)
    return out


def find_transcripts(project_root: str | os.PathLike[str]) -> list[Path]:
    """Every transcript of a repository (for `capture --all`): the slug directories of its work
    tree, its linked worktrees and their subdirectories, with all subagent layouts.

    A slug directory whose name merely *starts* with a root's slug is ambiguous (`/a/proj-old`
    and `/a/proj/old` both slug to `-a-proj-old`), so it is included only when its recorded
    `cwd` lies under one of the roots."""
    def regular(path: Path) -> bool:
        # Only regular files are ever opened (issue 14 §5): a FIFO named *.jsonl blocks the
        # open forever, and a symlink to /dev/zero is one endless line. stat, not lstat: a
        # symlink to a real transcript is still a transcript.
        try:
            return stat.S_ISREG(os.stat(path).st_mode)
        except (OSError, ValueError):
            return False

    roots = repository_roots(project_root)
    slugs = {slug_for(r) for r in roots}
    base = projects_dir()
    try:
        entries = sorted(p for p in base.iterdir() if p.is_dir())
    except OSError:
        return []
    out: list[Path] = []
    for folder in entries:
        name = folder.name
        exact = name in slugs
        prefixed = not exact and any(name.startswith(s + "-") for s in slugs)
        if not (exact or prefixed):
            continue
        found = sorted(folder.glob("*.jsonl")) + sorted(folder.glob("*/subagents/*.jsonl"))
        files = [f for f in found if regular(f)]
        if prefixed:
            sample = next(
                (f for f in files if not f.name.startswith("agent-")), files[0] if files else None
            )
            from agent_memory.transcripts.reader import recorded_cwd

            cwd = recorded_cwd(sample) if sample else None
            if not cwd or not is_under(cwd, roots):
                continue
        out.extend(files)
    return out
