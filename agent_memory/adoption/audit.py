"""Checks of committed memory after the fact (`git memory validate`), for what the hooks could
not stop: a `--no-verify`, a cherry-pick, two committers racing.

- `commit_errors`: every commit that carries an `Atom-Id:` trailer with `Adopted-From:` or
  `Memory-Op:` (what `adopt` and the lifecycle verbs write) must change `.memory/adopted.log`
  by exactly one added line, for that atom, and remove none — otherwise `git blame` on the
  block points at the wrong atom. In a shallow clone the commits at the boundary are not
  judged: git shows them as root commits that add every line.
- `drop_refused`: what `validate --fix` does with an adopted line the guard refuses: a
  `forget` line (its claim redacted, so the forget itself passes the guard) and a re-render,
  so the line is neither rendered nor injected again and block and log still agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agent_memory.committed import guarded
from agent_memory.committed.adopted_log import LOG_PATH, LogEntry, format_entry
from agent_memory.committed.files import TierFiles
from agent_memory.gitio import repo as git
from agent_memory.gitio.state import find_git_dirs
from agent_memory.model.atom import Atom
from agent_memory.model.clock import now_utc
from agent_memory.model.controls import replace_controls
from agent_memory.model.fastjson import loads_bounded
from agent_memory.model.policy import MAX_HISTORY_DIFF_BYTES
from agent_memory.redact import guard
from agent_memory.redact.fold import strip_invisible
from agent_memory.redact.redactor import redact

DROPPED_CLAIM = "[removed: the commit guard refuses this line]"
# What a `forget` line of a log line no block showed carries instead of its claim: the person
# committing the drop commits nothing of a text nobody reviewed.
UNSHOWN_CLAIM = "[removed: no memory block showed this line to a reviewer]"


# --- adopt commits change exactly the line their trailer names ------------------------------


@dataclass(frozen=True)
class CommitCheck:
    commits: int  # adopt and lifecycle commits checked
    errors: list[str]
    unknown: int = 0  # memory commits at a shallow clone's boundary: their parent is not here
    unread: bool = False  # the history is over MAX_HISTORY_DIFF_BYTES of diffs: not checked


def shallow_boundary(root: Path) -> set[str]:
    """The commits a shallow clone was cut at (`<git dir>/shallow`): git shows each as a root
    commit, whose diff "adds" every line of the files — what it changed is unknown here."""
    found = find_git_dirs(root)
    try:
        return set((found[1] / "shallow").read_text("ascii").split()) if found else set()
    except OSError:  # not a shallow clone
        return set()


def _trailers(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(": ")
        if sep and key and " " not in key:
            out.setdefault(key, value.strip())
    return out


def line_atom_id(line: str) -> str:
    try:
        obj = loads_bounded(line)
    except ValueError:
        return "?"
    atom = obj.get("atom") if isinstance(obj, dict) else None
    return str(atom.get("id", "?")) if isinstance(atom, dict) else "?"


def commit_errors(root: Path, rev: str = "HEAD") -> CommitCheck:
    """One error per memory commit whose change to the log is not exactly its own line."""
    # read up to a bound (a clone's history decides its size); a byte a pull brought in stays in
    # the history (validate --fix), read as U+FFFD
    out = git.git_output_within(
        root, "log", "--no-merges", "-p", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
        "--no-renames", "--format=%x1e%H%x1f%(trailers:only,unfold)%x1f", rev, "--", LOG_PATH,
        limit=MAX_HISTORY_DIFF_BYTES,
    )  # fmt: skip
    if out is None:
        return CommitCheck(0, [], unread=True)
    checked = unknown = 0
    errors: list[str] = []
    boundary = shallow_boundary(root)
    for chunk in out.split("\x1e"):
        if "\x1f" not in chunk:
            continue
        oid, trailer_text, patch = (chunk.split("\x1f", 2) + ["", ""])[:3]
        trailers = _trailers(trailer_text)
        ident = trailers.get("Atom-Id")
        if not ident or not ({"Adopted-From", "Memory-Op"} & set(trailers)):
            continue
        if oid in boundary:
            unknown += 1  # grafted: its diff against the missing parent cannot be known
            continue
        checked += 1
        added, removed = [], 0
        for line in patch.splitlines():
            if line.startswith("+++") or line.startswith("---"):
                continue
            if line.startswith("+"):
                added.append(line_atom_id(line[1:]))
            elif line.startswith("-"):
                removed += 1
        short = oid[:12]
        if added != [ident] or removed:
            what = ", ".join(added) if added else "no line"
            errors.append(
                f"commit {short} says Atom-Id {ident} but adds {what} to {LOG_PATH}"
                + (f" and removes {removed} line(s)" if removed else "")
                + ": `git blame` on the memory block points at the wrong atom "
                "(two committers raced?); `git show " + short + "` shows the change"
            )
    return CommitCheck(checked, errors, unknown)


# --- validate --fix: never re-render a line the guard refuses ------------------------------


def drop_refused(files: TierFiles) -> tuple[TierFiles, dict[str, list[str]]]:
    """`files` with every held atom whose line the guard refuses forgotten (one `forget` line
    each, its claim redacted) and the block re-rendered; and id → the refusing rules."""
    refused = guarded.refused(files.held().values())
    if not refused:
        return files, {}
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
    held = files.held()
    entries = []
    for ident in sorted(refused):
        atom: Atom = dict(held[ident])  # type: ignore[assignment]
        cleaned = replace_controls(strip_invisible(redact(str(atom["claim"]))[0]))
        probe = replace_claim(atom, cleaned)
        if guarded.line_rules(probe) or guard.scan_text(LOG_PATH, _log_line(probe, at)):
            probe = replace_claim(atom, DROPPED_CLAIM)
        entries.append(LogEntry(op="forget", atom=probe, at=at))
    return files.append(entries), refused


def replace_claim(atom: Atom, claim: str) -> Atom:
    out: Atom = dict(atom)  # type: ignore[assignment]
    out["claim"], out["redacted"] = claim, True
    return out


def _log_line(atom: Atom, at: str) -> str:
    return format_entry(LogEntry(op="forget", atom=atom, at=at))

