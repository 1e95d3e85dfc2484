"""What `git memory deinit` takes back of what `init` installed (committed/install.py): our git
hooks (a hook we chained is put back in its place), the `@CLAUDE.memory.md` import line, the
project's registration in the global memory repo; with purge, also memory/atoms,
memory/review, the committed memory files, the `.gitignore`/`.gitattributes` lines and the
local state under `.git/agent-memory/`. Each step is idempotent and reports what it did;
nothing that is not ours is touched.

Nothing is written, renamed or deleted through a link either (committed/worktree.py): a
repository can commit `.claude -> ~/.claude` or `CLAUDE.md -> AGENTS.md`, or bring one in with
a pull after `init`. Such a file is left alone — `purge` and `uninstall_git_hooks` say which
and why, `deinit` checks the others before it calls them — and the rest is still undone; each
writer here refuses on its own too."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from agent_memory.committed import global_repo
from agent_memory.committed.adopted_log import LOG_PATH
from agent_memory.committed.global_repo import REGISTRY, GlobalRepo, format_registry, parse_registry
from agent_memory.committed.install import (
    CHAIN_SUFFIX,
    GIT_HOOKS,
    GITATTRIBUTES_LINE,
    GITIGNORE_LINES,
    HOOK_MARKER,
    MEMORY_FILE,
    PYTHON_CONFIG,
    hook_text,
    hooks_folder_in_worktree,
)
from agent_memory.committed.line_ends import (
    BOM,
    closed,
    ends_a_line,
    git_line_end,
    line_end,
    ours,
    split_bom,
)
from agent_memory.committed.render import IMPORT_LINE, find_block
from agent_memory.committed.tiers import read_inside
from agent_memory.committed.worktree import odd_component, refuse_odd_paths
from agent_memory.gitio import repo as git
from agent_memory.gitio.state import atomic_write, kept_mode, overwrite

IGNORE_HEADER = "# agent-memory: local state stays local; the audit log is committed"
ATTRIBUTES_HEADER = "# agent-memory: two branches' adoptions merge as a union"


def uninstall_git_hook(hooks: Path, name: str) -> str:
    """Remove our hook; a foreign hook we had chained goes back under its own name."""
    target = hooks / name
    chained = hooks / (name + CHAIN_SUFFIX)
    if target.is_file() and HOOK_MARKER not in hook_text(target):
        return "left alone (not ours)"
    status = "not installed"
    if target.is_file() or target.is_symlink():
        target.unlink()
        status = "removed"
    if chained.exists() or chained.is_symlink():
        os.replace(chained, target)
        status = f"removed; restored the hook it chained ({name})"
    return status


def linked_hooks_folder(repo: git.Repo) -> tuple[str, str] | None:
    """(folder, why) when core.hooksPath names a folder in the work tree that is reached
    through a link (a committed `.husky -> ~/bin`): its hooks are not ours to remove or rename."""
    inside = hooks_folder_in_worktree(repo)
    if inside is None or repo.workdir is None:
        return None
    why = odd_component(repo.workdir, inside, folder=True)
    return (inside, why) if why else None


def uninstall_git_hooks(repo: git.Repo) -> dict[str, str]:
    """Each hook's status; a hooks folder reached through a link is left alone (each hook then
    says so: "left alone (<why>)")."""
    linked = linked_hooks_folder(repo)
    if linked is not None:
        statuses = {name: f"left alone ({linked[1]})" for name in GIT_HOOKS}
    else:
        hooks = git.hooks_dir(repo)
        statuses = {name: uninstall_git_hook(hooks, name) for name in GIT_HOOKS}
    if git.config_get(repo.cwd, PYTHON_CONFIG):
        git.run_git(repo.cwd, "config", "--local", "--unset", PYTHON_CONFIG, check=False)
    return statuses


def remove_import(workdir: Path) -> str | None:
    """Take the `@CLAUDE.memory.md` line out of CLAUDE.md: "removed", "deleted" (the file held
    nothing else, as when init created it), or None when it was not there. A link in its place
    (`CLAUDE.md -> AGENTS.md`) is not ours to edit."""
    return _take_lines_out(workdir / "CLAUDE.md", {IMPORT_LINE}, markdown=True)


def _take_lines_out(path: Path, drop: set[str], markdown: bool = False) -> str | None:
    """Take every line of `drop` (whatever its line end or the spaces around it) out of the
    person's file at `path`: "removed", "deleted" (nothing else was left in it), or None when
    none was there. The file is read as stored and written back whole with its own line ends;
    a byte-order mark it opens with stays first, and is no content to keep the file for (a
    line of ours first after it is found: line_ends.py). init added our lines after a blank
    line: that separator goes with them. The lines are the reader's: in `markdown` (CLAUDE.md)
    a bare CR ends one too, and a line of ours opening with a byte-order mark mid-file (two
    files joined) is ours, the mark going with it; git splits `.gitignore`/`.gitattributes`
    at LF only, and skips no mark but the file's first."""
    refuse_odd_paths(path.parent, [path.name])
    try:
        text = read_inside(path.parent, path.name, newline="")  # as stored: CRLF stays CRLF
    except FileNotFoundError:
        return None
    bom, text = split_bom(text)
    if markdown:
        every = text.splitlines(keepends=True)  # each line keeps its own end
        kept = [ln for ln in every if ours(ln) not in drop]
    else:
        every = text.split("\n")
        every = [ln + "\n" for ln in every[:-1]] + ([every[-1]] if every[-1] else [])
        kept = [ln for ln in every if ln.strip() not in drop]
    if len(kept) == len(every):
        return None
    if not any(ln.strip() for ln in kept):
        path.unlink()
        return "deleted"
    _replace_whole(path, bom + closed("".join(kept), line_end(text) if markdown else git_line_end(text)))
    return "removed"


def unregister(home: GlobalRepo, project_path: Path) -> str | None:
    """Remove the project from the global repo's registry (one commit); its name, or None."""
    registry = home.path / REGISTRY
    home.refuse_links((REGISTRY,), outcome="the project stays registered")
    where = global_repo._portable(global_repo.project_root(project_path))
    try:
        text = read_inside(home.path, REGISTRY)
    except FileNotFoundError:
        return None
    entries = parse_registry(text)
    gone = [e for e in entries if e.get("path") == where]
    if not gone:
        return None
    overwrite(registry, format_registry([e for e in entries if e.get("path") != where]).encode("utf-8"))
    name = str(gone[0].get("name", "?"))
    home.commit([REGISTRY], f"unregister: project {name}")
    return name


def _replace_whole(path: Path, text: str) -> None:
    """A file of the person's (CLAUDE.md, .gitignore, .gitattributes) becomes `text`, replaced
    whole as install.install_import writes it (a temporary file, then a rename; its mode kept):
    written over in place, a write that failed half-way (a full disk, a file-size limit) left
    the new text's head on the old text's tail. The rename replaces a link swapped in since,
    never follows it."""
    atomic_write(path, text.encode("utf-8"), mode=kept_mode(path))


def _remove_lines(path: Path, lines: tuple[str, ...], header: str) -> bool:
    return _take_lines_out(path, {*lines, header}) is not None


def purge(repo: git.Repo, target_name: str, keep: set[str] | frozenset[str] = frozenset()) -> tuple[list[str], dict[str, str]]:
    """Delete what agent-memory stored in this repository, but the branches in `keep` (those
    that came with the clone: not this repository's). Returns what went, and what was left
    alone because it is a link or on the way through one (path → why)."""
    gone = []
    left: dict[str, str] = {}
    for ref in (git.ATOMS_REF, git.REVIEW_REF):
        if ref not in keep and git.ref_target(repo, ref):
            git.delete_ref(repo, ref)
            gone.append(ref.removeprefix("refs/heads/"))
    if repo.workdir is not None:
        root = repo.workdir

        def plain(rel: str, folder: bool = False) -> bool:
            why = odd_component(root, rel, folder=folder)
            if why:
                left[rel] = why
            return why is None

        for rel in dict.fromkeys([MEMORY_FILE, LOG_PATH]):
            if (root / rel).exists() and plain(rel):
                (root / rel).unlink()
                gone.append(rel)
        if target_name == "CLAUDE.md" and (root / "CLAUDE.md").exists() and plain("CLAUDE.md"):
            text = read_inside(root, "CLAUDE.md", newline="")  # as stored: CRLF stays CRLF
            span = find_block(text, "L2")
            if span is not None:
                start, end = span
                if text[start - 1 : start] == BOM and start > 1:
                    start -= 1  # a mark opening the marker's line mid-file (two files joined) goes with it
                # what is left ends in the line end of the person's part (a bare-CR CLAUDE.md
                # holds an LF block: line_ends.py)
                head = text[:start]
                tail_end = line_end(head) if ends_a_line(head) else line_end(text)
                _replace_whole(root / "CLAUDE.md", closed(head, tail_end) + text[end:].lstrip("\r\n"))
                gone.append("the memory block in CLAUDE.md")
        memory_dir = root / ".memory"
        if odd_component(root, ".memory", folder=True) is None and memory_dir.is_dir() and not any(memory_dir.iterdir()):
            memory_dir.rmdir()
        if plain(".gitignore") and _remove_lines(root / ".gitignore", GITIGNORE_LINES, IGNORE_HEADER):
            gone.append(".gitignore lines")
        if plain(".gitattributes") and _remove_lines(root / ".gitattributes", (GITATTRIBUTES_LINE,), ATTRIBUTES_HEADER):
            gone.append(".gitattributes line")
    if repo.state.is_dir():
        shutil.rmtree(repo.state, ignore_errors=True)
        gone.append(".git/agent-memory/")
    for key in ("memory.project", "memory.target", "memory.base", "memory.autoStage", "memory.remote"):
        git.run_git(repo.cwd, "config", "--local", "--unset-all", key, check=False)
    return gone, left
