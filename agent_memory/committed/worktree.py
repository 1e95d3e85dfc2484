"""Writing into a work tree that may not be trusted. A cloned repository can commit symbolic
links: with `.gitattributes -> ~/.gitconfig` or `.claude -> ~/.claude`, a plain write by `init`
lands outside the repository (every git command of the user then fails on the appended line;
the user's global Claude Code settings get our hooks), and even a benign `CLAUDE.md ->
AGENTS.md` has it edit a file it does not name. So no file written here, and no folder on the
way to it below the work tree, may be a link — nor anything else than a folder or a regular
file. The work tree itself may be a link (the user's own layout, not the repository's).

Checked before the first write (`init` checks every target at once, so a refusal leaves
nothing half-done) and again by each writer, which other verbs share. A `git pull` can bring
such a link in after `init`, so every verb that writes committed memory checks too: `adopt`
and the lifecycle verbs (`.memory/adopted.log` and the block's file, in the project and in the
global memory repo) refuse before their first write; `deinit` leaves a linked file alone and
says so, and still undoes the rest."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from agent_memory.model.errors import RepoStateError

# (when CLAUDE.md is the link: what the user most likely wanted instead)
CLAUDE_MD_LINK_HINT = ("to share another file with Claude, make CLAUDE.md a regular file that imports it "
                       "(a line `@AGENTS.md`)")  # fmt: skip
LINK_HINT = ("replace each with the real file or folder (delete it and commit a copy), or do not set up "
             "agent-memory in a repository you do not trust")  # fmt: skip


def odd_component(root: Path, rel: str, *, folder: bool = False) -> str | None:
    """What is wrong on the way from `root` to `rel` (slash-separated): the first path below
    `root` that is a link, or not a folder where one is needed, or a leaf that is not a regular
    file (a folder, with `folder`) — in a few words (`.claude is a symbolic link (to ../x)`).
    None when the way is plain, or ends at an absent path (which the writer creates)."""
    parts = [p for p in rel.split("/") if p]
    here = root
    for number, part in enumerate(parts, 1):
        here = here / part
        shown = "/".join(parts[:number])
        try:
            mode = os.lstat(here).st_mode
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"{shown} cannot be checked ({exc.strerror or exc})"
        if stat.S_ISLNK(mode):
            try:
                return f"{shown} is a symbolic link (to {os.readlink(here)})"
            except OSError:
                return f"{shown} is a symbolic link"
        if (number < len(parts) or folder) and not stat.S_ISDIR(mode):
            return f"{shown} is not a folder"
        if number == len(parts) and not folder and not stat.S_ISREG(mode):
            return f"{shown} is not a regular file"
    return None


def odd_paths(root: Path, files: Iterable[str] = (), folders: Iterable[str] = ()) -> list[str]:
    """What is odd on the way to each of `files` and `folders` (see `odd_component`), each
    said once, in order; [] when all are plain."""
    found = [odd_component(root, rel) for rel in files] + [odd_component(root, rel, folder=True) for rel in folders]
    return list(dict.fromkeys(bad for bad in found if bad))


def refuse_odd_paths(root: Path, files: Iterable[str] = (), folders: Iterable[str] = (),
                     hint: str = LINK_HINT, where: str = "the work tree") -> None:
    """RepoStateError naming every odd path on the way to `files` and `folders` (each
    relative to `root`, see `odd_component`); nothing when all are plain. `where` names what
    `root` is in the message (the global memory repo is not the work tree)."""
    odd = odd_paths(root, files, folders)
    if odd:
        raise RepoStateError(f"refusing to write through {where}: {'; '.join(odd)}", hint=hint)


def refuse_too_large_to_rewrite(root: Path, rels: Iterable[str], verb: str, would: str) -> None:
    """RepoStateError (exit 3), before `verb` changes anything, for the first of `rels` under
    `root` larger than MAX_BLOCK_FILE_BYTES: `verb` reads each whole to rewrite it (what it
    `would` do is said). A cloned CLAUDE.md of zeros (300 MB–1.5 GB: nothing in a clone) was a
    MemoryError half-way, the store, hooks or marker already changed; past the bound the readers
    give Claude nothing of the file's blocks anyway."""
    from agent_memory.model.policy import MAX_BLOCK_FILE_BYTES

    for rel in rels:
        try:
            size = (root / rel).lstat().st_size
        except OSError:
            continue
        if size > MAX_BLOCK_FILE_BYTES:
            raise RepoStateError(
                f"{rel} is {size} bytes, more than agent-memory reads ({MAX_BLOCK_FILE_BYTES}): {verb} would {would}",
                hint=f"see who wrote it (`git log --stat -- {rel}`), cut it down or restore a good version, "
                     f"then run `git memory {verb}` again")  # fmt: skip
