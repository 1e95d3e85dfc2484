"""A commit that lands on the branch while adopt is between reading the memory files and
committing them (adopt.commit_memory): adopt's commit then has that commit as its parent, made
from files read before it. When the commit changed the memory files, adopt's commit would undo
the change (it writes the whole file as it read it plus its line), so adopt takes its commit
back and applies the item again on top; when the memory files are the same — CRLF in the work
tree (core.autocrlf=true) and LF in the blob being the same text — its commit stands.

The commit lands through a real hook: `post-index-change`, which git runs after adopt's
`git add` of the new `.memory/adopted.log` wrote the index, just before adopt's `git commit`
starts. It writes a teammate's commit onto the branch with git's plumbing (its own index, so
the one adopt staged into is untouched), as a `git pull` or a commit from another terminal
would land in that moment."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git
from sessions import gm
from test_adopt import CLAIMS, NOW, stage_claims
from test_crlf_person_files import blob

TEAMMATE = "Use pnpm, not npm."
TAKE_BACK = "take back a commit made from stale memory files"

# Acts while adopt's new log is staged and not committed, unless HEAD is a teammate's commit
# already: so once, not again inside adopt's `git commit` (whose HEAD it read before) nor after
# adopt took its commit back. `INTERLOPER` keeps the plumbing below (which writes an index of
# its own) from running it again.
HOOK = """#!/bin/sh
[ -n "$INTERLOPER" ] && exit 0
export INTERLOPER=1
git diff --cached --name-only --diff-filter=A | grep -qx '.memory/adopted.log' || exit 0
[ "$(git log -1 --format=%s HEAD)" = "a teammate's commit" ] && exit 0
export GIT_INDEX_FILE="$(git rev-parse --git-dir)/interloper-index"
git read-tree HEAD
{change}
tree=$(git write-tree)
commit=$(git commit-tree -p HEAD -m "a teammate's commit" "$tree")
git update-ref HEAD "$commit"
rm -f "$GIT_INDEX_FILE"
"""
# the teammate's line first in CLAUDE.md (the person's part of it, above the block)
EDIT_CLAUDE_MD = f"""b=$({{ echo '{TEAMMATE}'; git show HEAD:CLAUDE.md; }} | git hash-object -w --stdin)
git update-index --cacheinfo "100644,$b,CLAUDE.md\""""
# a file that is no memory file
ADD_NOTES = """b=$(echo "notes" | git hash-object -w --stdin)
git update-index --add --cacheinfo "100644,$b,NOTES.txt\""""


def claude_md_target(repo: Path, monkeypatch: pytest.MonkeyPatch, claude_md: bytes) -> dict[str, str]:
    """memory.target=claude-md over a committed CLAUDE.md, claims staged: the first adopt
    writes the block into CLAUDE.md and adds `.memory/adopted.log` (new: adopt `git add`s it)."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    (repo / "CLAUDE.md").write_bytes(claude_md)
    git(repo, "add", "CLAUDE.md")
    git(repo, "commit", "-qm", "CLAUDE.md")
    git(repo, "config", "memory.target", "claude-md")
    gm(repo, "init", "--yes")
    return stage_claims(repo)


def install_interloper(repo: Path, change: str) -> None:
    hook = Path(git(repo, "rev-parse", "--git-path", "hooks").strip()) / "post-index-change"
    hook = hook if hook.is_absolute() else repo / hook
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(HOOK.format(change=change))
    hook.chmod(0o755)


def test_a_commit_that_changed_claude_md_meanwhile_is_kept(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A teammate's line lands in CLAUDE.md while adopt writes its block there: adopt's commit,
    made from the CLAUDE.md it read before, took that line out again. Now adopt takes its
    commit back and adopts on top: the line and the block are both in HEAD."""
    ids = claude_md_target(repo, monkeypatch, b"# proj\n\nRun `make test` before pushing.\n")
    install_interloper(repo, EDIT_CLAUDE_MD)
    gm(repo, "adopt", "--yes", ids["push"])
    assert git(repo, "log", "-1", "--format=%s", "HEAD~1").strip() == "a teammate's commit"  # it did land mid-adopt
    head = blob(repo, "HEAD:CLAUDE.md")
    assert head.startswith(TEAMMATE.encode() + b"\n# proj\n"), head
    assert CLAIMS["push"].rstrip(".").encode() in head, head
    assert TAKE_BACK in git(repo, "reflog", "-3", "--format=%gs")
    assert (repo / "CLAUDE.md").read_bytes() == head
    assert git(repo, "status", "--porcelain", "--", "CLAUDE.md", ".memory") == ""
    assert gm(repo, "validate", check=False).returncode == 0


def test_a_crlf_checkout_of_the_memory_files_is_not_taken_for_a_change(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """core.autocrlf=true: CLAUDE.md is CRLF in the work tree, LF in the blob. A commit of
    another file lands during adopt's commit: adopt's commit stands on it (the memory files it
    read are the blob's, line ends aside). Compared byte for byte, the CRLF CLAUDE.md was a
    change: adopt took its commit back and made it again (the reflog says so)."""
    ids = claude_md_target(repo, monkeypatch, b"# proj\n\nRun `make test` before pushing.\n")
    git(repo, "config", "core.autocrlf", "true")
    (repo / "CLAUDE.md").unlink()
    git(repo, "checkout", "--", "CLAUDE.md")
    assert (repo / "CLAUDE.md").read_bytes() == b"# proj\r\n\r\nRun `make test` before pushing.\r\n"
    install_interloper(repo, ADD_NOTES)
    proc = gm(repo, "adopt", "--yes", ids["push"], check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert git(repo, "log", "-1", "--format=%s", "HEAD~1").strip() == "a teammate's commit"  # it did land mid-adopt
    assert TAKE_BACK not in git(repo, "reflog", "--format=%gs")
    head = blob(repo, "HEAD:CLAUDE.md")
    assert head.startswith(b"# proj\n\nRun `make test` before pushing.\n\n") and CLAIMS["push"].rstrip(".").encode() in head
    assert blob(repo, "HEAD:NOTES.txt") == b"notes\n"  # the teammate's file, kept
