"""Adopting staged promotions: each chosen item becomes one commit on the current branch, made
with `git commit` so the user's hooks (our guard included) run. Items are applied as log
operations and the block is re-rendered from the result, never cherry-picked, so any subset in
any order leaves the block and `.memory/adopted.log` consistent, and a review branch built on
an older base still applies. An interrupted adopt leaves whole items only; rerunning continues,
and after a kill -9 the next memory commit first finishes or rolls back the item the killed
one left half done (`adoption/intent.py`).

No memory file is written through a link: a `git pull` can bring in `.memory -> ~/elsewhere`
or `CLAUDE.memory.md -> ~/.bashrc` after `init` (or `CLAUDE.md -> AGENTS.md` with
memory.target=claude-md), and writing the item would write whatever they point at. Every
writer here refuses first (`refuse_links`, committed/worktree.py), before the lock, the intent
record or a byte of the files, so a refusal leaves nothing half done.

Every commit of memory files made here (`commit_memory`: adopt, and the lifecycle verbs) is
serialised: it holds the repository's memory lock from reading the files to the
commit landing, re-checks inside the lock that the item is still waiting, and compares the new
commit's parent with the HEAD the files were read at. A commit made meanwhile by something
that does not take the lock (a person's own `git commit`) and that changed the memory files is
detected; ours, computed from stale files, is taken back and the item is applied again on top.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from agent_memory.adoption import intent
from agent_memory.adoption.locks import index_lock_problem, memory_lock
from agent_memory.adoption.prescan import prescanned
from agent_memory.adoption.reverts import reverted_adoptions
from agent_memory.committed import attributes, render, worktree
from agent_memory.committed.adopted_log import LOG_PATH, LogEntry
from agent_memory.committed.files import TierFiles
from agent_memory.committed.line_ends import as_lf
from agent_memory.gitio import repo as git
from agent_memory.gitio.state import overwrite
from agent_memory.model.atom import Atom
from agent_memory.model.clock import now_utc, utc_day
from agent_memory.model.errors import (
    CommitSetupError,
    DiskFullError,
    RefMovedError,
    RefusedError,
    RepoStateError,
)
from agent_memory.model.home import git_in
from agent_memory.model.paths import TranscriptIndex, resolve_pointer
from agent_memory.model.policy import MAX_BLOCK_FILE_BYTES, MAX_MEMORY_FILE_BYTES, MAX_RACES
from agent_memory.model.tags import (
    CLAUDE_MEMORY,
    in_claude_code_session,
    model_written,
    origin_label,
    unvouched_claude_memory,
)
from agent_memory.model.trailers import format_message, one_line, plural
from agent_memory.promote.review import base_files, review_items, staged_entry, staging_base
from agent_memory.store.l1 import Change, L1Store, Snapshot, summarize

# How often an item is applied again after a commit made outside agent-memory changed the
# memory files under it, before giving up.


class AlreadyApplied(Exception):
    """The item was applied (or withdrawn) by another committer while this one waited."""


@dataclass(frozen=True)
class Item:
    commit: str
    atom_id: str
    promotion: str
    entry: LogEntry

    @property
    def atom(self) -> Atom:
        return self.entry.atom


class BlockFileTooLarge(RepoStateError):
    """A block file (CLAUDE.md, CLAUDE.memory.md) over MAX_BLOCK_FILE_BYTES: not read."""


def work_files(root: Path, tier: str, target_name: str) -> TierFiles:
    """The tier's log and block as they are under `root`; RepoStateError (exit 3, one line
    naming the file, line and byte offset) when either is not UTF-8 — a pull brings it in
    without any hook — rather than an internal error; tiers.TooManyAtomsError (exit 3) when the
    log names more atoms than anyone adopts."""
    from agent_memory.committed.tiers import decode_utf8, read_counted

    restore = "git" if tier == "L2" else git_in(root)
    texts = []
    for rel in (LOG_PATH, target_name):
        path = root / rel
        # the log is counted before it is read whole (a cloned log of 200,000 made-up ids)
        read = (lambda fd: read_counted(fd, root / LOG_PATH, None if tier == "L2" else root)) if rel == LOG_PATH else None
        texts.append(decode_utf8(_regular_bytes(path, rel, restore, read), path, rel, restore))
    return TierFiles(tier=tier, target_name=target_name, log_text=texts[0], target_text=texts[1])


def _regular_bytes(path: Path, rel: str, restore: str, read: Callable[[int], bytes] | None = None) -> bytes:
    """`path`'s bytes (b"" when absent), a regular file only: a repository may commit the file
    as a link to /dev/zero (read forever: all memory) or to a FIFO (blocked). A link to a
    regular file is read as before (a CLAUDE.md linked to AGENTS.md). `read` reads the open
    descriptor (and closes it) instead of a plain read."""
    from agent_memory.transcripts.identity import NotRegularFile, open_regular_fd

    try:
        fd, _ = open_regular_fd(path)
    except FileNotFoundError:
        return b""
    except NotRegularFile:
        raise RepoStateError(f"{path} is not a regular file (a link to a device or a FIFO?); nothing was changed",
                             hint=f"look at it with `{restore} log -p -- {rel}`, restore it as a file, "
                                  "then run `git memory validate`") from None  # fmt: skip
    if read is not None:
        return read(fd)
    size = os.fstat(fd).st_size
    if size > MAX_BLOCK_FILE_BYTES:  # a cloned CLAUDE.md of zeros (nothing in a clone): never read whole
        os.close(fd)
        raise BlockFileTooLarge(
            f"{path} is {size} bytes, more than agent-memory reads ({MAX_BLOCK_FILE_BYTES}); nothing was changed",
            hint=f"see who wrote it (`{restore} log --stat -- {rel}`), cut it down or restore a good version, "
                 "then run `git memory validate`")  # fmt: skip
    with open(fd, "rb", closefd=True) as fh:
        return fh.read()


def refuse_links(root: Path, tier: str, target_name: str, outcome: str) -> None:
    """RepoStateError (exit 3) when `.memory/adopted.log` or the block's file under `root`, or a
    folder on the way to either, is a symbolic link or not a plain file or folder — one line
    naming each and where it points; `outcome` (what did not happen) ends the hint."""
    if tier == "L2":
        where, fix = "the work tree", worktree.LINK_HINT
    else:
        where = f"the global memory repo ({root})"
        fix = f"replace each with the real file or folder (delete it in {root} and commit a copy)"
    hints = []
    if target_name == "CLAUDE.md" and (root / "CLAUDE.md").is_symlink():
        hints.append(worktree.CLAUDE_MD_LINK_HINT)
    hints.append(fix)
    worktree.refuse_odd_paths(root, [LOG_PATH, target_name], where=where, hint="; or ".join(hints) + f"; {outcome}")


def refuse_converted(root: Path, tier: str, outcome: str) -> None:
    """RepoStateError (exit 3) when an attributes file puts a memory file under `root` through
    a filter or a `working-tree-encoding` (committed/attributes.py): git would commit other
    bytes than the text adopt writes and the guard judges (UTF-16 made every commit fail with
    git's own "BOM is required"), so nothing is written; the error names the attribute."""
    bad = attributes.converted(str(root))
    if not bad:
        return
    where = "" if tier == "L2" else f" in the global memory repo ({root})"
    raise RepoStateError(
        f"{attributes.describe(bad)}{where}: git stores a memory file with such an attribute other than as "
        "the work tree holds it, so what it commits is not the text reviewed",
        hint=f"{attributes.removal_hint(bad, 'git' if tier == 'L2' else git_in(root))}; {outcome}",
    )


def write_files(root: Path, files: TierFiles) -> None:
    refuse_links(root, files.tier, files.target_name, "nothing was written")
    for rel, text in files.paths().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        overwrite(path, text.encode("utf-8"))


def memory_paths(target_name: str) -> list[str]:
    """The memory files whose uncommitted edits stop adopt (CLAUDE.md included — it
    carries the import line or, with memory.target=claude-md, the block itself)."""
    return sorted({target_name, "CLAUDE.md", LOG_PATH})


def require_clean(repo: git.Repo, target_name: str, verb: str = "git memory adopt") -> None:
    """A dirty CLAUDE.md / CLAUDE.memory.md / adopted.log stops a memory commit (adopt, forget,
    pin, …: `verb`, which the hint names) before anything is written."""
    if git.unchanged_since_head(repo, memory_paths(target_name)):
        return  # proven clean in process; otherwise `git status` decides (and names the files)
    # Only the files a memory commit reads and writes: a CLAUDE.md that is not the target is
    # neither, and a person may keep local edits in it behind skip-worktree/assume-unchanged.
    problem = hidden_problem(repo.cwd, sorted({target_name, LOG_PATH}))
    if problem is not None:
        raise problem
    dirty = git.status_porcelain(repo, memory_paths(target_name))
    dirty = [d for d in dirty if not d.startswith("?? ")]
    if dirty:
        import shlex

        paths = sorted({d[3:] for d in dirty})
        # the command takes the paths apart, as a shell reads them (a comma made one pathspec
        # of `.memory/adopted.log,`, which matched nothing)
        raise RepoStateError(
            f"uncommitted changes to memory files: {', '.join(paths)}",
            hint=f"commit or stash them first (git stash push -- {shlex.join(paths)}), then run `{verb}` again",
        )


def hidden_problem(cwd: str | Path, paths: list[str], sparse_only: bool = False) -> RepoStateError | None:
    """Memory files `git status` does not look at (git.hidden_from_status): a clean status
    proves nothing for them. A sparse checkout without the file made adopt read it as empty
    and commit a log and block holding the new item alone; over an assume-unchanged file it
    committed the person's own edits. `sparse_only`: only the files a sparse checkout left out."""
    hidden = git.hidden_from_status(cwd, paths)
    if not hidden:
        return None
    # skip-worktree outside a sparse checkout was set by hand: `git sparse-checkout add` is
    # refused there ("no sparse-checkout to add to"); the mark itself is what to undo.
    if "skip-worktree" in hidden.values() and not git.sparse_checkout(cwd):
        hidden = {name: "skip-worktree by hand" if how == "skip-worktree" else how
                  for name, how in hidden.items()}  # fmt: skip
    if sparse_only:
        hidden = {name: how for name, how in hidden.items() if how == "skip-worktree"}
        if not hidden:
            return None
    sparse = sorted({name.split("/", 1)[0] for name, how in hidden.items() if how == "skip-worktree"})
    by_hand = sorted(name for name, how in hidden.items() if how == "skip-worktree by hand")
    assumed = sorted(name for name, how in hidden.items() if how == "assume-unchanged")
    undo = ([f"check them out (`git sparse-checkout add {' '.join(sparse)}`)"] if sparse else []) + (
        [f"let git see them (`git update-index --no-skip-worktree -- {' '.join(by_hand)}`)"] if by_hand else []) + (
        [f"let git see their edits (`git update-index --no-assume-unchanged -- {' '.join(assumed)}`)"]
        if assumed else [])  # fmt: skip
    shown = {"skip-worktree": "left out of this sparse checkout", "skip-worktree by hand": "skip-worktree"}
    return RepoStateError(
        "memory files git status does not look at: "
        + ", ".join(f"{name} ({shown.get(how, how)})" for name, how in sorted(hidden.items()))
        + "; nothing was changed",
        hint=f"{' and '.join(undo)}, then run the command again",
    )


def require_on_branch(repo: git.Repo, verb: str) -> None:
    """Memory commits land on the checked-out branch: during a rebase, merge, cherry-pick,
    revert or bisect, or on a detached HEAD, they would land where the next `--abort` or
    checkout leaves them behind. Refused (exit 3) before anything is written or recorded."""
    problem = git.branch_problem(repo)
    if problem is not None:
        state, leave = problem
        raise RepoStateError(f"{state}: {verb} commits on the current branch; nothing was changed",
                             hint=f"{leave}, then run {verb} again")


def _target_too_large(target_name: str, size: int) -> RefusedError | None:
    """The refusal of a block file too large for the commit guard: its commit would be refused."""
    if target_name == "CLAUDE.md":  # its blocks are judged, but over this it is not read at all
        if size > MAX_BLOCK_FILE_BYTES:
            return RefusedError(
                f"CLAUDE.md is {size} bytes, more than the commit guard reads ({MAX_BLOCK_FILE_BYTES}): "
                "its commit would be refused; nothing was changed",
                hint="cut it down (move long notes to a file it imports), commit, then retry",
            )
    elif size > MAX_MEMORY_FILE_BYTES:
        return RefusedError(
            f"{target_name} is {size} bytes, more than the commit guard judges ({MAX_MEMORY_FILE_BYTES}): "
            "its commit would be refused; nothing was changed",
            hint=f"restore a good version (`git log --stat -- {target_name}` in its repository finds it) or cut it down "
            "to the marker block, commit, then retry",
        )
    return None


def refuse_target_too_large(root: Path, target_name: str) -> None:
    """require_consistent's refusal of a block file too large for the commit guard, by the
    file's size before it is read (work_files refuses one over MAX_BLOCK_FILE_BYTES unread)."""
    try:
        size = (root / target_name).stat().st_size
    except OSError:
        return
    too_large = _target_too_large(target_name, size) if size > MAX_BLOCK_FILE_BYTES else None
    if too_large is not None:
        raise too_large


def require_consistent(files: TierFiles) -> None:
    """The block and adopted.log must agree before anything is appended: re-rendering from the
    log would otherwise silently overwrite a hand edit committed inside the markers. A block
    file (CLAUDE.memory.md) too large for the commit guard to judge is refused first: its
    commit would be refused, after seconds of reading it here (find_block on 60 MB: ~0.5 s a
    call, seven a commit)."""
    too_large = _target_too_large(files.target_name, len(files.target_text.encode("utf-8")))
    if too_large is not None:
        raise too_large
    errors = files.log_errors()
    if errors:
        raise RefusedError(
            f"{LOG_PATH} has unreadable lines ({errors[0]})",
            hint="fix the line (git log -p .memory/adopted.log shows its history), commit, then retry",
        )
    try:
        render.find_block(files.target_text, files.tier)
    except render.MalformedBlockError as exc:
        raise RefusedError(
            f"the memory block's markers in {files.target_name} are broken ({exc})",
            hint=f"restore them (git checkout -- {files.target_name}, or by hand), then retry",
        ) from exc
    # Whatever the log holds, as `stage` judges it: an empty log (its last lines taken out by
    # hand) under a block that still shows them is refused too, rather than adopt re-rendering
    # the block over it. hand_edited() is False where no block is present.
    if files.hand_edited():
        where = " in the global memory repo" if files.tier == "L3" else ""
        raise RefusedError(
            f"the memory block in {files.target_name}{where} differs from {LOG_PATH} (edited by hand?)",
            hint=f"re-render it with `git memory validate --fix` (or revert the edit), commit it{where}, then retry",
        )


def withdrawn_at_l1(repo: git.Repo, ids: Iterable[str]) -> set[str]:
    """Of `ids`, the atoms a person already decided against: rejected on memory/atoms with no
    new sessions since, forgotten (tombstoned), or adopted and then undone with `git revert` of
    the adopt commit (a reverted adoption counts as a rejection until new sessions
    say it again). Their staged items are no longer waiting. Reads those atoms by path, not
    the store."""
    store = L1Store(repo)
    if not store.exists():
        return set()
    snap = store.snapshot()
    reverted: dict[str, Any] | None = None
    out = set()
    for ident in set(ids):
        atom = snap.atoms.get(ident)
        if atom is None:
            if ident in snap.tombstones:
                out.add(ident)
            continue
        review = atom.get("review") or {}
        if int(review.get("sessions", 0)) < len(set(atom["sessions"])):
            continue  # new sessions since the decision: waiting again
        if review.get("state") == "adopted" and reverted is None:
            reverted = reverted_adoptions(repo.workdir) if repo.workdir else {}
        if review.get("state") == "rejected" or (review.get("state") == "adopted" and ident in (reverted or {})):
            out.add(ident)
    return out


def pending(repo: git.Repo, files: TierFiles, against: str = "HEAD",
            skipped: list[tuple[str, int]] | None = None) -> list[Item]:  # fmt: skip
    """Items on memory/review still waiting for a decision: not yet in HEAD, not already held
    (adopt re-renders rather than cherry-picks, so an adopted item's review commit is never an
    ancestor of HEAD), and not rejected or forgotten on memory/atoms since it was staged."""
    held = files.held()
    waiting = review_items(repo, against, skipped)
    withdrawn = withdrawn_at_l1(repo, [ident for _, ident, _ in waiting])
    rejected_l3: dict[str, dict[str, Any]] = {}
    if files.tier == "L3":
        from agent_memory.promote.l3 import read_global_rejections

        rejected_l3 = read_global_rejections(repo)
    items = []
    for commit, ident, promotion in waiting:
        entry = staged_entry(repo, commit, ident)
        if entry is None:
            continue
        if entry.op == "adopt" and (ident in held or ident in withdrawn):
            continue
        if entry.op == "adopt" and rejected_l3:
            from agent_memory.promote.l3 import rejection_reason

            if rejection_reason(rejected_l3, entry.atom):
                continue
        if entry.op == "demote" and ident not in held:
            continue
        items.append(Item(commit, ident, promotion, entry))
    return items


def decided_on_review(repo: git.Repo, tier: str, target_name: str) -> tuple[list[str], int]:
    """The items memory/review still carries though they were decided since it was staged
    (adopted or rejected: a pull request of it would adopt them again), and how many are
    still waiting, both judged as `git memory pr` judges them: against the base it stages on."""
    base = staging_base(repo)
    files = base_files(repo, f"refs/heads/{base.branch}", tier, target_name)
    waiting = {item.commit for item in pending(repo, files, against=base.ref)}
    decided = [ident for commit, ident, _ in review_items(repo, base.ref) if commit not in waiting]
    return decided, len(waiting)


def refusal(
    item: Item, transcripts: TranscriptIndex | None = None, own: Path | None = None
) -> str | None:
    """Why an item must not be adopted, or None: a redacted claim (a person restates it without
    the secret), or a back-pointer that matches more than one transcript (never guessed).
    A batch passes one `transcripts` for all its items: the transcripts are listed once.
    `own`: this project's transcript folder — of several files of one session, the one there
    is the project's own (a copy of the session under another project's folder is no rival:
    the atom was captured here), so one match there settles the citation."""
    atom = item.atom
    if item.entry.op != "adopt":
        return None
    if atom.get("redacted"):
        return "its claim was redacted — ask for a restatement without the secret"
    for pointer in sorted({atom["source"], atom["first_source"]}):
        status, matches, _ = transcripts.resolve(pointer) if transcripts else resolve_pointer(pointer)
        if status == "ambiguous" and not (own and len([m for m in matches if own in m.parents]) == 1):
            return f"its citation {pointer} is ambiguous ({len(matches)} transcripts match)"
    return None


# Why adopt in a Claude Code session commits none of Claude's own memory, and what to do instead.
IN_SESSION = ("this adopt runs inside a Claude Code session (CLAUDECODE=1), where Claude's model may be "
              "the one running it; only a person adopts Claude's own memory")  # fmt: skip


def in_session_hint(global_: bool) -> str:
    flag = " --global" if global_ else ""
    return f"adopt Claude's own memory in your own terminal, outside Claude Code: `git memory adopt{flag}`"


def claude_adopting(item: Item, l1: Atom | None = None) -> str | None:
    """Why this item may not be adopted by this process, or None: the process runs inside a
    Claude Code session (the client sets CLAUDECODE=1 for every command it runs, the model's
    Bash tool included) and the item is Claude's own memory — a memory file its model wrote, or
    a claim `remember` recorded in a session — that no person vouched for. Claude adopting it
    would commit its own words as the person's decision. Decided from the environment and the
    record (its origin, its evidence's rules; `l1`, the atom's local record, when there is one),
    never from the claim's words. A person's own items are adopted there as anywhere."""
    if item.entry.op != "adopt" or not in_claude_code_session():
        return None
    if not (model_written(item.atom) or model_written(l1)):
        return None
    record = l1 if model_written(l1) else item.atom
    if not unvouched_claude_memory(record):
        return None
    return f"{origin_label(record) or CLAUDE_MEMORY}: {IN_SESSION}"


def own_transcripts(repo: git.Repo, tier: str) -> Path | None:
    """This project's transcript folder (for `refusal`); None for the global tier, whose atoms
    come from many projects."""
    if tier != "L2" or repo.workdir is None:
        return None
    from agent_memory.model.home import project_folder_name
    from agent_memory.model.paths import projects_dir

    return projects_dir() / project_folder_name(repo.workdir)


def adopt_item(
    repo: git.Repo, item: Item, target_name: str, pin: bool = False, tier: str = "L2"
) -> str:
    """Apply one item as one commit; on any failure the files and index are restored.
    Raises AlreadyApplied when, once the lock is held, the item turns out to be decided."""
    atom = item.atom.copy()
    if pin:
        atom["pinned"] = True
    entry = replace(item.entry, atom=atom, review_commit=item.commit)
    verb = "adopt" if entry.op == "adopt" else entry.op

    def change(before: TierFiles) -> TierFiles:
        held = before.held()
        if (entry.op == "adopt" and item.atom_id in held) or (
            entry.op == "demote" and item.atom_id not in held
        ):
            raise AlreadyApplied(item.atom_id)
        return before.append([entry])

    sessions = ", ".join(atom.get("sessions", [])[:8])
    message = format_message(
        f"memory: {verb} {one_line(atom['claim'], 70)}",
        [
            f"{'Adopted' if verb == 'adopt' else 'Applied'} from memory/review {item.commit[:12]} ({item.promotion}).",
            f"Evidence: {plural(len(atom.get('sessions', [])), 'session')} ({sessions}); confidence {atom.get('confidence')};"
            f" first seen {utc_day(atom['first_seen'])}, last seen {utc_day(atom['last_seen'])}.",
        ],
        [("Atom-Id", item.atom_id), ("Adopted-From", item.commit)]
        + ([("Pinned", "yes")] if pin else []),
    )
    return commit_memory(
        repo,
        tier,
        target_name,
        change,
        message,
        refused=f"the commit for {item.atom_id} was refused",
        hint=_refusal_hint(item, atom, tier),
    )


def _refusal_hint(item: Item, atom: Atom, tier: str) -> str:
    """What to do when the hook refuses the commit. A claim captured before this checkout's
    paths were written relative (model/checkout.py) holds one absolute: its id hashes from the
    claim, so no commit of it passes, and "fix what the hook reported" named nothing anyone
    could fix."""
    from agent_memory.model.checkout import remember_again

    again = remember_again(str(atom["claim"]), tier == "L3") if item.entry.op == "adopt" else None
    return again or ("nothing was adopted for it (it stays waiting on memory/review); fix what the hook "
                     "reported and run git memory adopt again")  # fmt: skip


def commit_memory(
    repo: git.Repo,
    tier: str,
    target_name: str,
    change: Callable[[TierFiles], TierFiles],
    message: str,
    refused: str,
    hint: str,
    verb: str = "git memory adopt",
) -> str:
    """Read the memory files, apply `change`, and commit the result with `git commit` — under
    the memory lock, with a compare-and-set on the branch head (see the module docstring).
    Returns the new HEAD."""
    root = repo.workdir
    if root is None:
        raise RepoStateError("this needs a work tree", hint="run it in a clone with a work tree")
    require_on_branch(repo, verb)
    refuse_links(root, tier, target_name, "nothing was changed")
    with memory_lock(repo):
        intent.recover(repo)  # an item a killed process left half done: finished or undone
        for _attempt in range(MAX_RACES):
            problem = index_lock_problem(repo)
            if problem is not None:
                raise problem
            require_clean(repo, target_name, verb)
            old_head = git.head_commit(repo)
            before = work_files(root, tier, target_name)
            require_consistent(before)
            after = change(before)
            commit = commit_or_restore(repo, before, after, message, refused, hint)
            parents = git.commit_parents(repo, commit)
            parent = parents[0] if parents else None
            if parent == old_head or _same_files(_files_at(repo, parent, before), before.paths()):
                # Nothing moved, or what moved did not touch the memory files: this commit
                # changes exactly the lines `change` added.
                return commit
            _take_back(repo, commit, parent, before)
    raise RefusedError(
        f"{refused}: the memory files kept changing under it (commits made while it ran)",
        hint="nothing was applied for this item; run the command again when the other commits are done",
    )


def _files_at(repo: git.Repo, rev: str | None, like: TierFiles) -> dict[str, str]:
    out = {}
    for rel in like.paths():
        data = git.read_blob_at(repo, rev, rel) if rev else None
        out[rel] = data.decode("utf-8", errors="replace") if data is not None else ""
    return out


def _same_files(committed: dict[str, str], work: dict[str, str]) -> bool:
    """The blobs hold what the work tree holds, CRLF there and LF in the blob being the same
    text (core.autocrlf=true checks the memory files out CRLF)."""
    return {rel: as_lf(text) for rel, text in committed.items()} == {rel: as_lf(text) for rel, text in work.items()}


def _take_back(repo: git.Repo, ours: str, parent: str | None, before: TierFiles) -> None:
    """Our commit was computed from memory files that another commit changed meanwhile: move
    the branch back to that commit (only if it still points at ours) and put its memory files
    back in the index and work tree, so the item can be applied again on top of it."""
    root = repo.workdir
    assert root is not None
    if parent is None:
        raise RepoStateError("the branch moved while a memory commit was made", hint="check `git log`")
    try:
        git.cas_update_ref(repo, "HEAD", parent, ours, "agent-memory: take back a commit made from stale memory files")
    except RefMovedError as exc:
        raise RepoStateError(
            f"commit {ours[:12]} was made from memory files that changed while it ran, and the branch "
            "has moved again since, so it was left in place",
            hint="`git memory validate` shows whether it changed more than its own line",
        ) from exc
    current = _files_at(repo, parent, before)
    paths = list(current)
    write_files(root, replace(before, log_text=current[LOG_PATH], target_text=current[before.target_name]))
    git.run_git(root, "reset", "-q", parent, "--", *paths, check=False)


def commit_or_restore(
    repo: git.Repo, before: TierFiles, after: TierFiles, message: str, refused: str, hint: str
) -> str:
    """Write `after`, commit exactly its two files with `git commit` (the user's hooks run), and
    return the new HEAD. On a refusing hook, or an interrupt before the commit landed, the files
    and the index are put back as they were: no half-applied item."""
    root = repo.workdir
    assert root is not None
    refuse_links(root, after.tier, after.target_name, "nothing was changed")
    paths = list(after.paths())
    old_head = git.head_commit(repo)
    # What is about to happen, for the next memory commit to finish or undo after a kill.
    intent.begin(repo, old_head, message, before, after, {rel: (root / rel).exists() for rel in paths})
    try:
        write_files(root, after)
        with prescanned(repo, old_head, before, after):
            head = git.commit_paths(root, paths, message)
    except BaseException as exc:
        landed = git.head_commit(repo)
        if landed != old_head and landed is not None and isinstance(exc, KeyboardInterrupt):
            intent.end(repo)
            raise  # the commit landed before the interrupt: the item is whole; stop here
        # An interrupted `git commit` may still be exiting and holding .git/index.lock: wait
        # for it (briefly), or the reset below fails and leaves the item staged.
        index_lock_problem(repo, wait=10.0)
        git.run_git(root, "reset", "-q", "--", *paths, check=False)
        write_files(root, before)
        _drop_empty(root, before)
        intent.end(repo)
        # No identity, or a signing key that does not sign: git makes no commit here at all,
        # so it is said as it is (exit 3, git's setup in the hint), not as this item's refusal.
        if isinstance(exc, RepoStateError) and not isinstance(exc, (DiskFullError, CommitSetupError)):
            lock = index_lock_problem(repo, wait=0.0)
            if lock is not None:  # a killed git left .git/index.lock: say so plainly
                raise RefusedError(f"{refused}: {lock.message}", hint=lock.hint) from exc
            raise RefusedError(f"{refused}: {exc.message}", hint=hint) from exc
        raise
    intent.end(repo)
    return head


def _drop_empty(root: Path, before: TierFiles) -> None:
    """A file that did not exist before the attempt is removed again, not left empty."""
    for rel, text in before.paths().items():
        path = root / rel
        if text == "" and path.exists() and path.stat().st_size == 0:
            tracked = (
                git.run_git(root, "ls-files", "--error-unmatch", "--", rel, check=False).returncode
                == 0
            )
            if not tracked:
                path.unlink()


def resume_interrupted(repo: git.Repo, store: L1Store | None) -> list[str]:
    """Before adopt reads the memory files: the item a killed process left half
    done is finished or rolled back (`intent.recover`), and the L1 marks that killed runs owed
    for the items they landed are recorded. Returns what was done, one line each."""
    notes: list[str] = []
    marks: dict[str, tuple[str, str | None]] = {}
    with memory_lock(repo, what="adopt"):
        found = intent.recover(repo)
    if found is not None:
        what = found.atom or found.subject
        if found.commit is None:
            notes.append(f"rolled back {what}: a killed git memory command had written its files "
                         "but not committed them")  # fmt: skip
        else:
            notes.append(f"finished {what}: its commit {found.commit[:10]} had landed before the "
                         "git memory command that made it was killed")  # fmt: skip
            verb = found.subject.removeprefix("memory: ").split(" ", 1)[0]
            if found.atom and verb in ("adopt", "demote"):
                marks[found.atom] = ("adopted" if verb == "adopt" else "demoted", found.commit)
    if store is None:
        return notes
    with intent.dead_runs(repo) as owed:
        for ident, state, commit in owed:
            marks.setdefault(ident, (state, commit))
        record_decisions(store, marks)
    return notes


def record_decisions(store: L1Store, decisions: dict[str, tuple[str, str | None]]) -> str | None:
    """Note a batch of review decisions (atom id → (state, commit)) on their L1 records as ONE
    memory/atoms commit, so the recall index is updated once for the batch (one L1
    transaction per `adopt --all`, not one per item). Same rules as
    `store.decisions.record_decision`: adopted atoms are held, rejected ones are not restaged
    until new sessions add evidence; a decision already recorded is not written again."""
    if not decisions:
        return None
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")

    def compute(snap: Snapshot) -> Change | None:
        writes: dict[str, Atom] = {}
        for ident, (state, commit) in sorted(decisions.items()):
            current = snap.atoms.get(ident)
            if current is None:
                continue
            review: dict[str, Any] = {"state": state, "at": at, "sessions": len(current["sessions"])}
            if commit:
                review["commit"] = commit
            old = current.get("review") or {}
            if old.get("state") == state and old.get("sessions") == review["sessions"]:
                continue
            updated = current.copy()
            updated["review"] = review
            writes[ident] = updated
        if not writes:
            return None
        counts: dict[str, int] = {}
        for state, _ in decisions.values():
            counts[state] = counts.get(state, 0) + 1
        verbs = {"adopted": "held", "rejected": "reject", "demoted": "held"}
        head = verbs.get(next(iter(counts)), "review") if len(counts) == 1 else "review"
        subject = f"{head}: " + ", ".join(f"{n} {state}" for state, n in sorted(counts.items()))
        body = [
            f"{decisions[i][0]} {i}: {summarize(a, 60)}"
            + (f" in {decisions[i][1][:12]}" if decisions[i][1] else "")  # type: ignore[index]
            for i, a in sorted(writes.items())
        ]
        ops = {"adopted": "adopt", "rejected": "reject", "demoted": "adopt"}
        trailers = [("Op", ops.get(next(iter(counts)), "adopt") if len(counts) == 1 else "review")]
        trailers += [("Atom-Id", i) for i in sorted(writes)]
        return Change(subject=subject, body=body, trailers=trailers, writes=writes)

    oid, _ = store.transact(compute)
    return oid
