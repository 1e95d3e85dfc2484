"""A merge conflict git left in `.memory/adopted.log`.

init writes `.memory/adopted.log merge=union` to .gitattributes, so git merges two clones'
appended lines by keeping both. Where the line is missing (a teammate's clone set up by an
older version, a .gitattributes edited by hand or merged away, an attributes file that
unsets it), two adopts on two branches both append at the end of the log and git stops on a
conflict there. The log is append-only: the resolution is the union of both sides' lines,
which is exactly what the attribute would have made — `union` gives it, from the index's
stages (not the marker lines a person may have started editing), for `validate --fix`."""

from __future__ import annotations

from pathlib import Path

from agent_memory.committed.tiers import LOG_RELPATH
from agent_memory.gitio import repo as git

MARKERS = ("<<<<<<<", "=======", ">>>>>>>", "|||||||")


def has_markers(text: str) -> bool:
    """Whether the log still holds a conflict's marker lines (a person has not resolved it)."""
    return any(line.startswith(MARKERS) for line in text.split("\n"))


def marker_line(error: str) -> bool:
    """A log finding about a marker line (`line N: not JSON`), said once by the conflict's own."""
    return ": not JSON" in error


def union(root: Path) -> str | None:
    """Both sides' lines of the unmerged log, ours first, each line once; None when the index
    holds the log merged or the result is not UTF-8 (then a person resolves it)."""
    data = git.union_of_unmerged(git.find_repo(root), LOG_RELPATH)
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    # Split on "\n" only, as adopted_log.parse does: a JSON string may hold U+2028, U+2029 or
    # U+0085 raw (a hand edit, another tool), and str.splitlines() would cut that line in two.
    lines = list(dict.fromkeys(line.rstrip("\r") for line in text.split("\n") if line.strip()))
    return "".join(line + "\n" for line in lines)


def lines_of_neither_side(worktree_text: str, merged: str) -> list[str]:
    """The work tree's lines (markers and blank lines aside) that the union of the index's
    stages does not hold: typed or pasted in by a person resolving the conflict. Writing the
    union over the file would drop them."""
    held = set(merged.split("\n"))
    lines = (line.rstrip("\r") for line in worktree_text.split("\n"))
    return [line for line in lines if line.strip() and not line.startswith(MARKERS) and line not in held]


def union_attribute_missing(root: Path) -> bool:
    """Whether git would merge the log other than as a union here (no `merge=union` for it)."""
    proc = git.run_git(root, "check-attr", "-z", "merge", "--", LOG_RELPATH, check=False)
    fields = proc.stdout.split("\0")
    return proc.returncode == 0 and len(fields) >= 3 and fields[2] != "union"
