"""The project name `git memory init` gives a repository that has none yet.

Atom ids, adopted.log lines and the L2→L3 gate are keyed by the project name, so every clone
of one repository must arrive at the same one — a teammate's clone in a folder of another
name, or one person's second checkout. The folder's name alone (what init used to take) made
two clones two projects: a teammate's adopted line was not "already held" for the other
(the same claim adopted twice, shown twice), and the L3 gate counted one repository as two
projects. In order: the name the committed `.memory/adopted.log` already records (whoever
adopted first fixed it), the remote's repository name, the folder's name. `init --project`
and an existing `memory.project` come before all of these (cli/init.py)."""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

from agent_memory.committed.tiers import bounded_lines
from agent_memory.gitio import repo as git
from agent_memory.model.atom import atom_id
from agent_memory.model.controls import MAX_PROJECT_CHARS, plain_name
from agent_memory.model.fastjson import loads_bounded
from agent_memory.model.policy import MAX_LOG_BLOB_BYTES

LOG_RELPATH = ".memory/adopted.log"


def derived_name(repo: git.Repo) -> str:
    return recorded_name(repo) or remote_name(repo) or git.default_project_name(repo.common_dir, repo.workdir)


def recorded_name(repo: git.Repo) -> str | None:
    """The project named by the first line of the committed adopted.log (HEAD's, else the work
    tree's) whose id is that of its claim in that project: a line someone edited to name
    another project without its id does not decide. Read a line at a time up to that line (a
    cloned log of 87 MB was read whole, decoded and split into a list of its lines)."""
    data: bytes | None = None
    try:
        # HEAD's log is read whole only up to MAX_LOG_BLOB_BYTES: a cloned log of 700 MB of
        # zeros (1 MB in the clone) cost init 1.5 GB before a line of it was read. A larger
        # one is read from the work tree, a bounded line at a time, as an uncommitted log is.
        found = git.read_blob_at_most(repo, "HEAD", LOG_RELPATH, MAX_LOG_BLOB_BYTES)
        data = found[1] if found else None
    except Exception:  # noqa: BLE001 - an unborn or unreadable HEAD: the work tree's copy, or none
        data = None
    if data is not None:
        return _first_name(bounded_lines(io.BytesIO(data)))
    if repo.workdir is None:
        return None
    path = repo.workdir / LOG_RELPATH
    try:
        if not path.is_file() or path.is_symlink():
            return None
        with path.open("rb") as fh:
            return _first_name(bounded_lines(fh))
    except OSError:
        return None


def _first_name(lines: Iterable[bytes]) -> str | None:
    """recorded_name's answer from the log's `lines` (split at "\n" and, once decoded, at
    every line break `str.splitlines` knows, as the whole text split was)."""
    for raw in lines:
        for line in raw.decode("utf-8", "replace").splitlines():
            try:
                record = loads_bounded(line)  # a line nested too deep raised RecursionError
            except ValueError:
                continue
            atom = record.get("atom") if isinstance(record, dict) else None
            if not isinstance(atom, dict) or atom.get("scope") != "project":
                continue
            project, claim = atom.get("project"), atom.get("claim")
            if not isinstance(project, str) or not isinstance(claim, str) or atom.get("id") != atom_id(claim, project):
                continue
            name = _usable(project)
            if name:
                return name
    return None


def remote_name(repo: git.Repo) -> str | None:
    """The repository name in the URL of the remote the current branch tracks, else `origin`'s,
    else the only remote's: `git@host:team/app.git`, `https://host/team/app`, `/srv/app.git`
    all give `app`."""
    cwd = repo.cwd
    remotes = git.run_git(cwd, "remote", check=False).stdout.split()
    if not remotes:
        return None
    branch = git.run_git(cwd, "symbolic-ref", "-q", "--short", "HEAD", check=False).stdout.strip()
    tracked = git.config_get(cwd, f"branch.{branch}.remote") if branch else None
    if tracked in remotes:
        chosen = tracked
    elif "origin" in remotes:
        chosen = "origin"
    elif len(remotes) == 1:
        chosen = remotes[0]
    else:
        return None
    url = git.config_get(cwd, f"remote.{chosen}.url") or ""
    tail = url.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return _usable(tail.removesuffix(".git"))


def _roots(path: Path) -> set[str]:
    if not path.is_dir():
        return set()
    proc = git.run_git(path, "rev-list", "--max-parents=0", "HEAD", check=False)
    return set(proc.stdout.split()) if proc.returncode == 0 else set()


def another_repository(one: Path, other: Path) -> bool:
    """`other` is a repository on this machine with a history of its own (no root commit in
    common with `one`'s). A path that is not here — the project was moved or deleted, or the
    entry came from another machine through the synced registry — or holds no history is no
    evidence of another repository."""
    theirs = _roots(other)
    return bool(theirs) and not (_roots(one) & theirs)


def _usable(name: str) -> str | None:
    # over the atom schema's limit, every atom captured here would be cut to another name, and
    # promote blocked each one for ever (`project X ≠ Y`)
    name = plain_name(name).strip()
    if not name or any(ch in name for ch in "/\\") or name in (".", "..") or len(name) > MAX_PROJECT_CHARS:
        return None
    return name
