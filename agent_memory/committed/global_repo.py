"""The global memory repo (L3): its own git repository at `$AGENT_MEMORY_HOME` (default
`~/.claude/agent-memory`) holding the L3 block, its adopted.log and the registry of projects
that ran `git memory init`. `~/.claude/CLAUDE.md` imports its `CLAUDE.memory.md`.

It is meant to be pushed to a private remote and pulled on other machines (docs/global-memory.md),
so every committed file merges without conflicts: `.memory/adopted.log` and `projects.json` with
git's built-in union driver (the readers take any union of lines), and the rendered block
with union too — a merged block is then re-rendered from the log (`git memory validate --fix`);
staging refuses until it is.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_memory.committed.install import (
    GITATTRIBUTES_LINE,
    MEMORY_FILE,
    ensure_lines,
    install_git_hooks,
)
from agent_memory.committed.project_name import another_repository
from agent_memory.committed.render import ensure_import, render_block
from agent_memory.committed.templates import read_template
from agent_memory.committed.tiers import read_inside
from agent_memory.committed.worktree import refuse_odd_paths
from agent_memory.gitio import repo as git
from agent_memory.gitio.state import atomic_write, find_git_dirs, kept_mode, overwrite
from agent_memory.model.errors import RepoStateError
from agent_memory.model.paths import claude_dir, memory_home

REGISTRY = "projects.json"
ADOPTED_LOG = ".memory/adopted.log"
# adopted.log: union by line, folded by atom id. projects.json: one entry per line, read line
# by line. CLAUDE.memory.md: a rendering, re-rendered after a merge.
MERGE_RULES = (GITATTRIBUTES_LINE, f"{REGISTRY} merge=union", f"{MEMORY_FILE} merge=union")
README = read_template("global-repo-README.md")


@dataclass(frozen=True)
class GlobalRepo:
    path: Path

    @classmethod
    def default(cls) -> GlobalRepo:
        return cls(memory_home())

    def exists(self) -> bool:
        return (self.path / ".git").exists()

    def repo(self) -> git.Repo:
        return git.find_repo(self.path)

    def ensure(self) -> bool:
        """Create the repository with its first commit (True), or bring an existing one — a
        clone from another machine, or one made by an older version — up to date: the guard
        hooks (a clone carries none) and the merge rules (False)."""
        if self.exists():
            self._refresh()
            return False
        if self.path.is_symlink() and not self.path.exists():
            # a link to nothing (a drive not mounted, a folder moved): never made for it, in a
            # place the link may not mean once the drive is back
            raise RepoStateError(
                f"the global memory repo {self.path} is a link to {os.readlink(self.path)}, which does not exist",
                f"create that folder (mkdir -p {os.readlink(self.path)}) or set AGENT_MEMORY_HOME to another, "
                "then run the command again; nothing was written",
            )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Built aside and moved into place in one rename, so two inits creating it at once (two
        # projects set up together) never write into one half-made repository: the one whose
        # rename loses uses the winner's. A folder that is there and not empty, or a link (never
        # replaced), is used in place.
        if self.path.is_symlink() or (self.path.exists() and (not self.path.is_dir() or any(self.path.iterdir()))):
            self._create(self.path)
            return True
        aside = Path(tempfile.mkdtemp(prefix=f".{self.path.name}.", dir=self.path.parent))
        try:
            GlobalRepo(aside)._create(aside)
            try:
                os.rename(aside, self.path)
            except OSError as exc:
                if self.exists():
                    self._refresh()
                    return False
                # An empty mount point (a container volume, a synced drive) cannot be renamed
                # onto (EBUSY; EXDEV across file systems): made in place there, as before.
                if exc.errno not in (errno.EBUSY, errno.EXDEV) or not self.path.is_dir():
                    raise
                self._create(self.path)
        finally:
            shutil.rmtree(aside, ignore_errors=True)
        return True

    def _create(self, where: Path) -> None:
        where.mkdir(parents=True, exist_ok=True)
        git.run_git(where, "init", "-q")
        (where / MEMORY_FILE).write_text(render_block([], "L3").text, "utf-8")
        (where / ".memory").mkdir(exist_ok=True)
        (where / ADOPTED_LOG).write_text("", "utf-8")
        (where / REGISTRY).write_text(format_registry([]), "utf-8")
        (where / "README.md").write_text(README, "utf-8")
        ensure_lines(where / ".gitattributes", MERGE_RULES)
        install_git_hooks(git.find_repo(where))
        GlobalRepo(where).commit(
            [MEMORY_FILE, ADOPTED_LOG, REGISTRY, "README.md", ".gitattributes"],
            "init: create the global memory repo",
        )

    def refuse_links(self, files: tuple[str, ...] = (".gitattributes", REGISTRY), outcome: str = "nothing was written") -> None:
        """RepoStateError when a file `init` writes here is a link, or on the way through one:
        the repository is pulled from a remote, which can bring one in (committed/worktree.py)."""
        refuse_odd_paths(self.path, files, where=f"the global memory repo ({self.path})",
                         hint=f"replace each with the real file or folder (delete it in {self.path} and "
                              f"commit a copy); {outcome}")  # fmt: skip

    def _refresh(self) -> None:
        self.refuse_links((".gitattributes",))
        install_git_hooks(self.repo())
        if ensure_lines(self.path / ".gitattributes", MERGE_RULES):
            self.commit([".gitattributes"], "init: merge rules for syncing between machines")

    def commit(self, paths: list[str], message: str) -> None:
        changed = git.run_git(self.path, "status", "--porcelain", "--", *paths).stdout.strip()
        if changed:
            git.commit_paths(self.path, paths, message, env=identity_env(self.path))

    # --- the registry -------------------------------------------------------------------------

    def projects(self) -> list[dict[str, Any]]:
        try:
            return parse_registry(read_inside(self.path, REGISTRY))  # no link followed
        except OSError:
            return []

    def name_for(self, wanted: str, project_path: Path) -> str:
        """The registered name of `project_path`, or `wanted` disambiguated when another
        repository already holds it."""
        return self.registered_name(project_path) or self.unregistered_name(wanted, project_path)

    def registered_name(self, project_path: Path) -> str | None:
        where = _portable(project_root(project_path))
        for entry in self.projects():
            if entry.get("path") == where:
                return str(entry["name"])
        return None

    def unregistered_name(self, wanted: str, project_path: Path) -> str:
        """`wanted`, or when another repository on this machine holds it, `wanted-<6 hex of the
        path>`. Another checkout of this same repository (a shared root commit) does not hold it
        against this one: the two are one project, and two names would count it twice at the L3
        gate. Nor does an entry whose path is not a repository here (the project moved, or the
        entry came from another machine): renaming would rewrite memory.project, and the
        project's committed atoms would stop counting for it."""
        where = _portable(project_root(project_path))
        holders = [e for e in self.projects() if e.get("path") != where and str(e["name"]) == wanted]
        if not any(another_repository(project_path, p) for p in map(entry_path, holders) if p is not None):
            return wanted
        return f"{wanted}-{hashlib.sha256(where.encode()).hexdigest()[:6]}"

    def register(self, name: str, project_path: Path) -> bool:
        where = _portable(project_root(project_path))
        registry = self.path / REGISTRY
        self.refuse_links((REGISTRY,))  # not even read through a link
        try:
            text = read_inside(self.path, REGISTRY)
        except FileNotFoundError:
            text = ""
        entries = parse_registry(text)
        entry = {"name": name, "path": where}
        at = next((i for i, e in enumerate(entries) if e["path"] == where), None)
        if at is None:
            entries.append(entry)
        else:
            entries[at] = entry
        updated = format_registry(entries)
        if updated == text:
            return False
        # The check above and this write are apart: a link swapped in between is refused at open.
        overwrite(registry, updated.encode("utf-8"))
        self.commit([REGISTRY], f"register: project {name}")
        return True


def _escape_bytes(line: str) -> str:
    """A path's bytes that are not UTF-8 (Python holds them as lone surrogates) written as JSON
    `\\udcXX` escapes: the file stays UTF-8 and `json.loads` gives the same path back."""
    if line.isascii():
        return line
    return "".join(f"\\u{ord(ch):04x}" if "\udc80" <= ch <= "\udcff" else ch for ch in line)


def format_registry(entries: list[dict[str, Any]]) -> str:
    """`{"projects": [...]}`, one entry per line in registration order, the separating comma at
    the start of each later line. Two machines that each register a project append one line
    each, and git's union merge of the two files is still valid JSON."""
    lines = [
        _escape_bytes(json.dumps({"name": str(e["name"]), "path": str(e.get("path", ""))}, ensure_ascii=False))
        for e in entries
    ]
    body = "".join(("" if i == 0 else ",") + line + "\n" for i, line in enumerate(lines))
    return '{"projects": [\n' + body + "]}\n"


def parse_registry(text: str) -> list[dict[str, Any]]:
    """The registry's entries in file order, one per path. Also reads what an unlucky merge
    leaves (a line without its comma, a path registered under two names on two machines:
    the first name in sort order wins, so both machines agree)."""
    try:
        data = json.loads(text)
        raw = data.get("projects", []) if isinstance(data, dict) else []
    except ValueError:
        raw = []
        for line in text.splitlines():
            try:
                raw.append(json.loads(line.strip().strip(",")))
            except ValueError:
                continue
    by_path: dict[str, dict[str, Any]] = {}
    for entry in raw if isinstance(raw, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        key = str(entry.get("path", ""))
        if key not in by_path or entry["name"] < by_path[key]["name"]:
            by_path[key] = {"name": entry["name"], "path": key}
    return list(by_path.values())


def project_root(path: Path) -> Path:
    """One path per repository: a linked worktree is registered as its main checkout (they
    share `memory.project`, so a second registration would rename the first)."""

    found = find_git_dirs(path)
    if not found:
        return path
    git_dir, common, work = (p.resolve() if p else None for p in found)
    if git_dir == common or common is None:  # not a linked worktree (submodules included)
        return work or path
    return common.parent if common.name == ".git" else path


def require_home() -> GlobalRepo:
    home = GlobalRepo.default()
    if not home.exists():
        raise RepoStateError(
            f"there is no global memory repo at {home.path} yet",
            hint="run `git memory init` in a project first",
        )
    return home


def _portable(path: Path) -> str:
    """Registry paths are written `~/…` when under the home directory."""
    text = str(path.resolve())
    home = str(Path.home().resolve())
    return "~" + text[len(home) :] if text == home or text.startswith(home + os.sep) else text


def expand(path: str) -> Path:
    return Path(os.path.expanduser(path))


def entry_path(entry: dict[str, Any]) -> Path | None:
    """Where a registry entry's project is on this machine, or None when its path says nowhere:
    empty or relative (hand-edited, or merged from elsewhere: init writes only `~/…` and
    absolute paths), which would otherwise be looked up from whatever folder a verb runs in."""
    path = expand(str(entry.get("path", "")))
    return path if path.is_absolute() else None


def identity_env(cwd: Path) -> dict[str, str]:
    """Use the person's git identity when they have one, else a fixed tool identity."""
    if git.config_get(cwd, "user.name") and git.config_get(cwd, "user.email"):
        return {}
    return {
        "GIT_AUTHOR_NAME": git.TOOL_NAME,
        "GIT_AUTHOR_EMAIL": git.TOOL_EMAIL,
        "GIT_COMMITTER_NAME": git.TOOL_NAME,
        "GIT_COMMITTER_EMAIL": git.TOOL_EMAIL,
    }


def install_user_import(home_repo: GlobalRepo) -> bool:
    """Add the import of the global block to `~/.claude/CLAUDE.md` (created if needed)."""

    target = claude_dir() / "CLAUDE.md"
    line = "@" + _portable(home_repo.path / MEMORY_FILE)
    text = ""
    if target.exists():
        # as stored (newline=""): a CRLF file keeps its line ends, the import added takes them
        with open(target, encoding="utf-8", newline="") as fh:
            text = fh.read()
    updated = ensure_import(text, line)
    if updated == text:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    # Replaced whole (a temporary file, then a rename), never truncated and written in place:
    # a write that failed half-way left the person's own CLAUDE.md empty or cut short. A link
    # (to a dotfiles folder) stays a link: the file it names is the one replaced, its mode kept.
    real = Path(os.path.realpath(target))
    atomic_write(real, updated, mode=kept_mode(real))
    return True
