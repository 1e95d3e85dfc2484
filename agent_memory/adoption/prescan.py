"""Let the pre-commit hook skip starting Python for a memory commit adopt has already guarded.

Each adopted item is one `git commit` of the memory files, and the installed pre-commit hook
starts Python to run the guard on them: most of an item's time (`adopt --all` aims at ≤ 50 ms an
item). adopt has the guard loaded already, so just before each commit it judges
the content the hook would judge — the rendered block whole, the lines the commit appends to
`.memory/adopted.log` — and writes what it found clean to `<git dir>/agent-memory/prescanned`
(the folder of the index git hands the hook), as the exact lines the hook's
`git diff --cached --raw` prints for those files: old and new mode, old and new blob, status and
path. The hook lets the commit through in the shell only when every line of its diff is listed,
and runs the whole guard otherwise: a clean/smudge filter that changed the bytes, a symlink, an
edit made meanwhile, a HEAD whose files are not the ones adopt appended to (the old blob differs).
The list is removed after the commit; one left by a killed adopt names only content that passed
the guard.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from agent_memory.committed.files import TierFiles
from agent_memory.gitio import repo as git
from agent_memory.gitio.state import state_dir
from agent_memory.model.policy import MAX_MEMORY_FILE_BYTES
from agent_memory.redact import guard

PRESCANNED = "prescanned"
REGULAR_FILE = "100644"  # what adopt writes: never executable
REGULAR_MODES = (0o100644, 0o100755)
ABSENT = "0" * 40  # the old blob of a file HEAD does not have


def _appended(prior: str, text: str) -> str | None:
    """What an append-only log gains, or None when `text` does not extend `prior` by lines."""
    if text.startswith(prior) and (not prior or prior.endswith("\n")):
        return text[len(prior) :]
    return None


def clean_entries(repo: git.Repo, head: str | None, before: TierFiles, after: TierFiles) -> list[str]:
    """The hook's diff lines for `after`'s files, or [] when any file is not provably clean
    (then the hook judges the commit itself, with its own messages)."""
    if head is None:
        return []
    prior_texts = before.paths()
    entries = []
    for rel, text in sorted(after.paths().items()):
        prior = prior_texts.get(rel, "")
        old = git.entry_at(repo, head, rel)
        if (old[2] if old else b"") != prior.encode("utf-8"):
            return []  # the work tree differed from HEAD: the hook's diff is not ours
        if old is not None and old[0] not in REGULAR_MODES:
            return []  # a symlink in HEAD: the diff says T, and the guard has more to say
        part = _appended(prior, text) if rel.endswith(".memory/adopted.log") else None
        if part is None and len(text) > MAX_MEMORY_FILE_BYTES:
            return []  # too large to judge here (~25 s at 60 MB): the hook refuses it unread
        if "\n" in rel or "\t" in rel or guard.scan_text(rel, text if part is None else part):
            return []
        new_oid = git.blob_oid(text.encode("utf-8"))
        if old is None:
            entries.append(f":000000 {REGULAR_FILE} {ABSENT} {new_oid} A\t{rel}")
        elif old[1] != new_oid or old[0] != int(REGULAR_FILE, 8):
            entries.append(f":{old[0]:06o} {REGULAR_FILE} {old[1]} {new_oid} M\t{rel}")
    return entries


@contextmanager
def prescanned(repo: git.Repo, head: str | None, before: TierFiles, after: TierFiles) -> Iterator[None]:
    """Around one `git commit` of `after`: the list exists while the commit runs."""
    path = state_dir(repo.git_dir) / PRESCANNED  # this worktree's: next to its index
    entries = clean_entries(repo, head, before, after)
    if entries:
        path.write_text("\n".join(entries) + "\n", "utf-8")
    try:
        yield
    finally:
        path.unlink(missing_ok=True)
