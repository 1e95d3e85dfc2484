"""Git's own lock files (`<name>.lock`): telling a leftover of a killed process from a live one.

Git holds a lock file for the milliseconds of one operation. One that is older than a given
age and that, where the platform lets us see it (Linux /proc), no process has open was left by
a killed git: every later command that needs it fails or waits until a person removes it. The
store (`memory/atoms.lock`) and the adopt verbs (`index.lock`, `HEAD.lock`) both ask here.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def open_anywhere(path: Path) -> bool | None:
    """Whether some process has `path` open (Linux /proc); None when that cannot be seen."""
    proc = Path("/proc")
    if not (proc / "self" / "fd").is_dir():
        return None
    target = os.path.realpath(path)
    for pid_dir in proc.iterdir():
        if not pid_dir.name.isdigit():
            continue
        try:
            for fd in (pid_dir / "fd").iterdir():
                try:
                    if os.readlink(fd) == target:
                        return True
                except OSError:
                    continue
        except OSError:
            continue
    return False


def stale_age(path: Path, min_age: float, now: float | None = None) -> float | None:
    """The age in seconds of the lock file `path` when it is stale — at least `min_age` old and
    open in no process — else None (absent, young, or held)."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return None
    age = (time.time() if now is None else now) - mtime
    if age < min_age or open_anywhere(path):
        return None
    return age


# The git commands that write the index (and may hold `index.lock` closed while a hook runs:
# `git commit` does during pre-commit). Long-lived git processes that never lock the index —
# an fsmonitor daemon, `git log` or `git diff` in a pager, an editor's `git cat-file --batch` —
# are not a commit in progress; a brief index refresh by a reader holds the lock open, which
# `open_anywhere` sees.
INDEX_WRITERS = frozenset({
    "add", "am", "apply", "checkout", "checkout-index", "cherry-pick", "commit", "merge", "mv",
    "pull", "read-tree", "rebase", "reset", "restore", "revert", "rm", "sparse-checkout", "stash",
    "status", "submodule", "switch", "update-index", "worktree",
})
# Git commands known never to lock the index for long (readers, daemons, transport). A verb
# in neither list — an alias (`git ci` for commit, its hooks running), a command of a newer
# git, an external `git-foo` — counts as a writer: its lock is never taken for a stale one.
_NOT_INDEX_WRITERS = frozenset({
    "blame", "cat-file", "check-attr", "check-ignore", "cherry", "commit-graph", "config",
    "count-objects", "credential", "credential-cache--daemon", "daemon", "diff", "diff-files",
    "diff-index", "diff-tree", "fetch", "fetch-pack", "for-each-ref", "fsmonitor--daemon", "grep",
    "hash-object", "help", "http-backend", "index-pack", "log", "ls-files", "ls-remote", "ls-tree",
    "merge-base", "multi-pack-index", "name-rev", "pack-objects", "reflog", "remote", "rev-list",
    "rev-parse", "send-pack", "shortlog", "show", "show-branch", "show-ref", "symbolic-ref",
    "upload-pack", "var", "version", "whatchanged",
})
# git's own options that take the next argument as their value (`git -C dir commit`).
_VALUED = frozenset({"-c", "-C", "--git-dir", "--work-tree", "--namespace", "--config-env",
                     "--super-prefix", "--exec-path", "--list-cmds", "--attr-source"})  # fmt: skip


def git_verb(argv: list[str]) -> str | None:
    """The git command a `git …` command line runs (`commit` for `git -c x=y -C dir commit -q`)."""
    args = iter(argv[1:])
    for arg in args:
        if arg in _VALUED:
            next(args, None)
        elif not arg.startswith("-"):
            return arg
    return None


def git_processes_in(*dirs: Path, verbs: frozenset[str] | None = None) -> list[int] | None:
    """The ids of the git processes whose working directory lies in one of `dirs` (Linux
    /proc; git changes to the top of the work tree, or to the git dir of a bare repository,
    before it takes a lock), this process excepted; None when that cannot be seen. Git holds
    `index.lock` closed while `git commit` runs the pre-commit hook, so an open file is not
    the only sign of a live git: a git running in the repository is. `verbs`: the git
    commands that count (INDEX_WRITERS for the index's locks), and any git whose command is
    not known to leave the index alone (an alias names no command)."""
    proc = Path("/proc")
    if not (proc / "self" / "cwd").exists():
        return None
    roots = [os.path.realpath(d) for d in dirs]
    ours = _ancestors()  # `git memory …` runs this process under a git of its own
    found = []
    for pid_dir in proc.iterdir():
        if not pid_dir.name.isdigit() or int(pid_dir.name) in ours:
            continue
        try:
            if (pid_dir / "comm").read_text().strip() != "git":
                continue
            cwd = os.readlink(pid_dir / "cwd")
            argv = (pid_dir / "cmdline").read_bytes().decode("utf-8", "replace").split("\0")
        except OSError:
            continue
        verb = git_verb(argv)
        if verbs is not None and verb not in verbs and verb in _NOT_INDEX_WRITERS:
            continue
        if any(cwd == root or cwd.startswith(root + os.sep) for root in roots):
            found.append(int(pid_dir.name))
    return found


def _ancestors() -> set[int]:
    """This process and its parents (Linux /proc)."""
    out, pid = set(), os.getpid()
    while pid > 1 and pid not in out:
        out.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            pid = int(stat.rsplit(")", 1)[1].split()[1])  # the field after the state
        except (OSError, ValueError, IndexError):
            break
    return out


def clear_stale(paths: list[Path], repo_dirs: list[Path], min_age: float,
                verbs: frozenset[str] | None = None) -> list[Path]:
    """Remove those of git's lock files `paths` that a killed process left: stale by
    `stale_age` (as the store judges `memory/atoms.lock`), and — where /proc shows it — with
    no git process running in the repository, in which case no age is needed; where it cannot
    be seen, only locks older than `min_age` go; `verbs`: which git commands count (as for
    `git_processes_in`). Returns the paths removed."""
    running = git_processes_in(*repo_dirs, verbs=verbs)
    if running:
        return []
    removed = []
    for path in paths:
        if stale_age(path, 0.0 if running == [] else min_age) is None:
            continue
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        removed.append(path)
    return removed
