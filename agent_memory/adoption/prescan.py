"""Let the pre-commit hook skip starting Python for a memory commit adopt has already guarded.

Each adopted item is one `git commit` of the memory files, and the installed pre-commit hook
starts Python to run the guard on them: most of an item's time (issue 17 asks ≤ 50 ms an item
for `adopt --all`). adopt has the guard loaded already, so just before each commit it judges
the content the hook would judge — the rendered block whole, the lines the commit appends to
`.memory/adopted.log` — and lists what it found clean in `.git/agent-memory/prescanned`, one
`<HEAD> <mode> <blob id> <path>` line per file. The hook lets the commit through in the shell
only when every staged memory file matches a line exactly (the same HEAD, a regular file, the
same bytes, the same path) and runs the whole guard otherwise: a clean/smudge filter that
changed the bytes, a symlink, an edit made meanwhile, another HEAD. The list is removed after
the commit; one left by a killed adopt names only content that passed the guard.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from agent_memory.committed.files import TierFiles
from agent_memory.gitio import repo as git
from agent_memory.gitio.state import state_dir
from agent_memory.redact import guard

PRESCANNED = "prescanned"
REGULAR_FILE = "100644"


def _appended(prior: str, text: str) -> str | None:
    """What an append-only log gains, or None when `text` does not extend `prior` by lines."""
    if text.startswith(prior) and (not prior or prior.endswith("\n")):
        return text[len(prior) :]
    return None


def clean_entries(repo: git.Repo, head: str | None, before: TierFiles, after: TierFiles) -> list[str]:
    """The hook's lines for `after`'s files, or [] when any file is not provably clean (then
    the hook judges the commit itself, with its own messages)."""
    if head is None:
        return []
    prior_texts = before.paths()
    entries = []
    for rel, text in sorted(after.paths().items()):
        prior = prior_texts.get(rel, "")
        if (git.read_blob_at(repo, head, rel) or b"") != prior.encode("utf-8"):
            return []  # the work tree differed from HEAD: the hook's diff is not ours
        part = _appended(prior, text) if rel.endswith(".memory/adopted.log") else None
        if "\n" in rel or "\t" in rel or guard.scan_text(rel, text if part is None else part):
            return []
        entries.append(f"{head} {REGULAR_FILE} {git.blob_oid(text.encode('utf-8'))} {rel}")
    return entries


@contextmanager
def prescanned(repo: git.Repo, head: str | None, before: TierFiles, after: TierFiles) -> Iterator[None]:
    """Around one `git commit` of `after`: the list exists while the commit runs."""
    path = state_dir(repo.common_dir) / PRESCANNED
    entries = clean_entries(repo, head, before, after)
    if entries:
        path.write_text("\n".join(entries) + "\n", "utf-8")
    try:
        yield
    finally:
        path.unlink(missing_ok=True)
