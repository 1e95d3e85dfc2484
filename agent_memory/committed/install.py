"""What `git memory init` installs into a repository: the git hooks (chaining, never
clobbering, whatever was there), the `.gitignore`/`.gitattributes` lines (of `.memory/` only
`adopted.log` is tracked, merged by union), and the `@CLAUDE.memory.md` import. Each step is
idempotent and reports what it did.

The git hooks go where git runs them: `core.hooksPath` when it is set (husky's `.husky/_`, a
team's `.githooks/`), else the git dir's `hooks/`. `hook_states` tells whether each one is
the one git will run, so `git memory status` notices a `core.hooksPath` set after `init`,
which would otherwise disable the guard without a word."""

from __future__ import annotations

import filecmp
import os
import sys
from pathlib import Path

from agent_memory.committed.line_ends import appended, git_line_end, split_bom
from agent_memory.committed.render import IMPORT_LINE, ensure_import
from agent_memory.committed.templates import read_git_hook
from agent_memory.committed.tiers import read_inside
from agent_memory.committed.worktree import refuse_odd_paths
from agent_memory.gitio import repo as git
from agent_memory.gitio.refs import GIT_HOOK_MARKER
from agent_memory.gitio.state import atomic_write, current_umask, kept_mode, overwrite
from agent_memory.model.errors import RefusedError
from agent_memory.model.policy import MAX_HOOK_FILE_BYTES

HOOK_MARKER = GIT_HOOK_MARKER
CHAIN_SUFFIX = ".chained-by-agent-memory"
# pre-merge-commit: `git merge` runs no pre-commit hook when it makes a merge commit.
GIT_HOOKS = ("pre-commit", "pre-merge-commit", "pre-push")
# The template's interpreter line, replaced at install time (see `render_hook`).
PYTHON_LINE = "AGENT_MEMORY_PYTHON=''"
PYTHON_CONFIG = "memory.python"
GITIGNORE_LINES = (".memory/*", "!.memory/adopted.log")
GITATTRIBUTES_LINE = ".memory/adopted.log merge=union"
# Claude Code's personal settings file, where `init` excludes the memory imports for this
# machine (agent_memory/claude/settings.py): never committed, so teammates keep the imports.
# A plain ignore line that is right with or without agent-memory: `deinit --purge` keeps it.
LOCAL_SETTINGS_LINE = ".claude/settings.local.json"
MEMORY_FILE = "CLAUDE.memory.md"


# The files of the work tree `git memory init` writes, which `init --yes` commits.
SETUP_FILES = (".gitignore", ".gitattributes", "CLAUDE.md", ".claude/settings.json")


def hook_source(name: str) -> str:
    return read_git_hook(name)


def hook_python() -> str:
    """The interpreter running this `init`, as the hooks must call it. Not resolved: a venv's
    `bin/python` is a symlink whose target would not see the venv's site-packages."""
    if not sys.executable:
        return ""
    path = os.path.abspath(sys.executable)
    # Git for Windows runs hooks with its MSYS sh, which takes C:/… but mangles C:\….
    return path.replace("\\", "/") if os.name == "nt" else path


def render_hook(name: str, python: str) -> str:
    """The hook's text with `python` on its interpreter line (the guard must run for
    every commit of memory files, including commits made outside the venv, where `git-memory`
    is not on PATH). An empty `python` leaves the template's empty line."""
    source = hook_source(name)
    if PYTHON_LINE not in source.splitlines():
        return source
    quoted = "'" + python.replace("'", "'\\''") + "'"  # sh single quotes: only ' needs care
    lines = [
        f"AGENT_MEMORY_PYTHON={quoted}" if ln == PYTHON_LINE and python else ln
        for ln in source.splitlines()
    ]
    return "\n".join(lines) + ("\n" if source.endswith("\n") else "")


def install_git_hook(hooks: Path, name: str, python: str = "") -> str:
    """Install our hook; an existing foreign hook is renamed and chained (runs first)."""
    hooks.mkdir(parents=True, exist_ok=True)
    target = hooks / name
    wanted = render_hook(name, python)
    status = "installed"
    if target.exists() or target.is_symlink():
        current = hook_text(target)
        if HOOK_MARKER in current:
            if current == wanted:
                return "unchanged"
            # Our shims hold no user state: an older or edited copy of ours (or one that names
            # another interpreter) is replaced.
            status = "updated"
        else:
            chained = hooks / (name + CHAIN_SUFFIX)
            if chained.exists() and _same_bytes(chained, target):
                # A hook manager rewrote its shim over ours (husky does on every install): the
                # copy we chain is already that shim, so ours goes back in front of it.
                status = "reinstalled (the hook manager had replaced it; its hook still runs first)"
            elif chained.exists():
                raise RefusedError(
                    f"both {target.name} and {chained.name} exist in {hooks}",
                    hint="merge them by hand, then re-run `git memory init`",
                )
            else:
                os.replace(target, chained)
                status = f"installed (kept the existing hook as {chained.name}, run first)"
    # A fresh temporary file (never one found there: in a committed hooks folder, a link by
    # that name would have the hook's text written wherever it points), then renamed over.
    atomic_write(target, wanted, mode=(0o666 & ~current_umask()) | 0o111)  # executable by all, as before
    return status


def hook_text(path: Path) -> str:
    """The text of the hook file at `path`: "" when it is no file, or over MAX_HOOK_FILE_BYTES
    (no hook of ours is: it is another's, and is never read whole — a hooks folder of the work
    tree holds what a clone committed)."""
    if not path.is_file():
        return ""
    with open(path, "rb") as fh:
        data = fh.read(MAX_HOOK_FILE_BYTES + 1)
    return "" if len(data) > MAX_HOOK_FILE_BYTES else data.decode("utf-8", "replace")


def _same_bytes(a: Path, b: Path) -> bool:
    try:  # sizes first, then a block at a time: either may be a clone's file of any size
        return filecmp.cmp(a, b, shallow=False)
    except OSError:
        return False


def _without_python(text: str) -> str:
    return "\n".join(ln for ln in text.splitlines() if not ln.startswith("AGENT_MEMORY_PYTHON="))


def hook_states(repo: git.Repo) -> dict[str, dict[str, object]]:
    """Per git hook of ours: is it the one git runs? `state` is `active`, `outdated` (ours, from
    an older agent-memory: re-run `init`), `missing`, `foreign` (another hook is there and does
    not chain ours) or `not executable`; `note` says what to do when it is not active."""
    hooks = hooks_dir(repo)
    configured = git.config_get(repo.cwd, "core.hooksPath")
    default = repo.common_dir / "hooks"
    out: dict[str, dict[str, object]] = {}
    for name in GIT_HOOKS:
        path = hooks / name
        text = hook_text(path)
        if not path.exists():
            state = "missing"
        elif HOOK_MARKER not in text:
            state = "foreign"
        elif not os.access(path, os.X_OK):
            state = "not executable"
        elif _without_python(text) != _without_python(hook_source(name)):
            state = "outdated"
        else:
            state = "active"
        note = ""
        if state != "active":
            elsewhere = default / name
            if configured and elsewhere != path and HOOK_MARKER in hook_text(elsewhere):
                note = (f"installed in {elsewhere.parent}, but core.hooksPath={configured} makes git "
                        f"run hooks from {hooks}; re-run `git memory init` to install there (chained)")  # fmt: skip
            elif state == "outdated":
                note = "an older agent-memory's hook: re-run `git memory init` to update it"
            elif state == "foreign":
                note = ("another hook is there and does not run ours: re-run `git memory init` "
                        "(it keeps that hook and runs it first)")  # fmt: skip
            else:
                note = "re-run `git memory init` to install it"
        out[name] = {"active": state == "active", "state": state, "path": str(path), "note": note}
    return out


def hooks_dir(repo: git.Repo) -> Path:
    return git.hooks_dir(repo)


def hooks_may_be_committed(repo: git.Repo, hooks: Path) -> bool:
    """core.hooksPath may name a folder of the work tree (a team's shared `.githooks/`): a
    file there can be committed, and committed files never carry a machine path."""
    if repo.workdir is None:
        return False
    where = hooks.resolve()
    inside = (repo.git_dir.resolve(), repo.common_dir.resolve())
    if any(where == d or d in where.parents for d in inside):
        return False
    root = repo.workdir.resolve()
    return where == root or root in where.parents


def hooks_folder_in_worktree(repo: git.Repo) -> str | None:
    """The hooks folder relative to the work tree (slash-separated) when core.hooksPath names
    one in it (`.husky/_`, `.githooks`): a folder the repository may hold, links and all.
    None for the git dir's own hooks and for a folder outside the work tree (the user's)."""
    if repo.workdir is None:
        return None
    named = git.hooks_dir(repo, resolve=False)
    if any(named == d or d in named.parents for d in (repo.git_dir, repo.common_dir)):
        return None
    if repo.workdir not in named.parents:
        return None
    return named.relative_to(repo.workdir).as_posix()


def install_git_hooks(repo: git.Repo) -> dict[str, str]:
    """Install the hooks, naming this interpreter in the pre-commit guard: in the hook itself
    when the hooks folder is local (the git dir's, or a folder outside the work tree), else in
    the repository's local config (`memory.python`), which the hook reads."""
    inside = hooks_folder_in_worktree(repo)
    if inside is not None and repo.workdir is not None:
        # A committed `.husky -> ~/bin` would have the hooks written (and foreign files
        # renamed) outside the repository.
        refuse_odd_paths(repo.workdir, folders=[inside])
    hooks = hooks_dir(repo)
    python = hook_python()
    if not hooks_may_be_committed(repo, hooks):
        return {name: install_git_hook(hooks, name, python) for name in GIT_HOOKS}
    statuses = {name: install_git_hook(hooks, name) for name in GIT_HOOKS}
    if python and git.config_get(repo.cwd, PYTHON_CONFIG) != python:
        git.config_set(repo.cwd, PYTHON_CONFIG, python)
        for name in GIT_HOOKS:
            if statuses[name] == "unchanged":
                statuses[name] = f"updated (interpreter recorded in git config {PYTHON_CONFIG})"
    return statuses


def ensure_lines(path: Path, lines: tuple[str, ...] | list[str], header: str | None = None) -> bool:
    """Append the lines that are missing; never rewrites existing content. Read as stored and
    written with the file's own line end (a CRLF `.gitignore` stays CRLF: line_ends.py); a
    line of ours is recognised whatever its end. The file's lines are git's: it splits
    `.gitignore` and `.gitattributes` at LF only, so a line of ours after a bare CR is none it
    reads, and what is added starts on a line of its own to git (LF, also in a bare-CR file)."""
    try:
        text = read_inside(path.parent, path.name, newline="")  # never through a link, nor from a FIFO
    except FileNotFoundError:
        text = ""
    # a line of ours first in a file saved with a byte-order mark is recognised after it (as
    # git reads it), and the mark stays first
    bom, text = split_bom(text)
    present = {ln.strip() for ln in text.split("\n")}
    missing = [ln for ln in lines if ln not in present]
    if not missing:
        return False
    block = ([header] if header else []) + missing
    end = git_line_end(text)
    if text and not text.endswith("\n"):
        text += end  # after a trailing bare CR too: git would read our first line as part of its last
    overwrite(path, (bom + appended(text, block, end=end)).encode("utf-8"))  # refuses a link at open
    return True


def install_ignore_rules(workdir: Path) -> list[str]:
    refuse_odd_paths(workdir, [".gitignore", ".gitattributes"])  # never written through a link
    changed = []
    if ensure_lines(
        workdir / ".gitignore",
        GITIGNORE_LINES,
        "# agent-memory: local state stays local; the audit log is committed",
    ):
        changed.append(".gitignore")
    if ensure_lines(
        workdir / ".gitattributes",
        [GITATTRIBUTES_LINE],
        "# agent-memory: two branches' adoptions merge as a union",
    ):
        changed.append(".gitattributes")
    return changed


def ignore_local_settings(workdir: Path) -> bool:
    """The `.gitignore` line for Claude Code's personal settings file; True when added."""
    refuse_odd_paths(workdir, [".gitignore"])
    return ensure_lines(workdir / ".gitignore", [LOCAL_SETTINGS_LINE])


def target_file(repo: git.Repo) -> str:
    """Where the L2 block lives: `CLAUDE.memory.md`, or `CLAUDE.md` with memory.target=claude-md."""
    target = git.config_get(repo.cwd, "memory.target")
    return "CLAUDE.md" if target == "claude-md" else MEMORY_FILE


def install_import(workdir: Path, target: str) -> bool:
    """Add `@CLAUDE.memory.md` to CLAUDE.md (created if needed; content never clobbered)."""
    if target == "CLAUDE.md":
        return False

    refuse_odd_paths(workdir, ["CLAUDE.md"])  # `CLAUDE.md -> AGENTS.md` is not ours to edit
    path = workdir / "CLAUDE.md"
    try:
        # never through a link, nor from a FIFO; as stored: a CRLF file keeps its line ends
        text = read_inside(workdir, "CLAUDE.md", newline="")
    except FileNotFoundError:
        text = ""
    updated = ensure_import(text, IMPORT_LINE)
    if updated == text:
        return False
    # The person's file is replaced whole (a temporary file, then a rename), never truncated
    # and written in place: a write that failed or was killed half-way (a full disk, ^C) left
    # CLAUDE.md empty or cut short. The rename replaces a link swapped in since, never follows it.
    atomic_write(path, updated, mode=kept_mode(path))
    return True
