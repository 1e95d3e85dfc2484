"""Which repository a transcript belongs to.

Claude Code files a session under a slug of the directory it started in, and a slug is not a
path: `/x/my.app`, `/x/my-app` and `/x/my/app` share one folder. What a transcript records is
its `cwd`, so that decides: a session belongs to the innermost repository containing its
recorded `cwd`, found the way the hooks find one (`gitio.refs.locate_git_dirs`: a folder that
merely looks like a repository inside a work tree is that work tree's content). A session
recorded in a submodule, or in any repository nested inside this one's work tree, is that
repository's, not this one's. A transcript that records no `cwd`, or one this machine does not
have, says nothing against being ours; the callers decide from where it was found.
"""

from __future__ import annotations

import os
from pathlib import Path

from agent_memory.gitio.refs import locate_git_dirs
from agent_memory.transcripts.files import is_under, repository_roots
from agent_memory.transcripts.reader import recorded_cwd

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agent_memory.gitio.repo import Repo


class Owner:
    """This repository, as recorded `cwd`s are judged against it."""

    def __init__(self, project_root: str | os.PathLike[str]) -> None:
        self.roots = repository_roots(project_root)
        found = locate_git_dirs(project_root)
        self.common = os.path.realpath(found[1]) if found else None
        self._seen: dict[str, str | None] = {}  # many sessions record the same cwd

    def elsewhere(self, cwd: str | None) -> str | None:
        """None when a session recorded in `cwd` is this repository's (or `cwd` is unknown);
        else where it belongs: the work tree (or git dir) of the repository nested inside
        ours that contains it, or `cwd` itself when it lies outside this repository."""
        if not cwd:
            return None
        if cwd not in self._seen:
            self._seen[cwd] = self._elsewhere(cwd)
        return self._seen[cwd]

    def _elsewhere(self, cwd: str) -> str | None:
        if not is_under(cwd, self.roots):
            # A folder this machine does not have (a session recorded elsewhere and copied
            # here, a project since moved or deleted) is no repository that could claim the
            # session: it says nothing against being ours, and where it was found decides.
            return cwd if os.path.lexists(cwd) else None
        found = locate_git_dirs(cwd)  # a cwd that is gone: looked up from what is left of it
        if found is None or self.common is None or os.path.realpath(found[1]) == self.common:
            return None
        return found[2] or found[0]

    def owns(self, transcript: str | os.PathLike[str], unknown: bool = True) -> bool:
        """Whether a transcript file is this repository's (`unknown`: the answer when it
        records no `cwd`)."""
        cwd = recorded_cwd(transcript)
        return unknown if not cwd else self.elsewhere(cwd) is None


def recorded_elsewhere(transcript: str | os.PathLike[str], repo: Repo) -> str | None:
    """Where a transcript was recorded when that is not `repo` (None: ours, or it does not
    say; a bare repository has no work tree to record a session in, so it judges nothing)."""
    if repo.workdir is None:
        return None
    return Owner(repo.workdir).elsewhere(recorded_cwd(transcript))


def transcripts_of(project_root: str | os.PathLike[str], candidates: list[Path]) -> list[Path]:
    """The candidates (transcripts found by their folder's slug) that belong to this
    repository by their recorded `cwd`; one that records none stays with its folder."""
    owner = Owner(project_root)
    return [path for path in candidates if owner.owns(path)]
