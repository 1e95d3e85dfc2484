"""Adopting staged promotions: each chosen item becomes one commit on the current branch, made
with `git commit` so the user's hooks (our guard included) run. Items are applied as log
operations and the block is re-rendered from the result, never cherry-picked, so any subset in
any order leaves the block and `.memory/adopted.log` consistent, and a review branch built on
an older base still applies. An interrupted adopt leaves whole items only; rerunning continues.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from agent_memory.committed import render
from agent_memory.committed.adopted_log import LOG_PATH, LogEntry
from agent_memory.committed.files import TierFiles
from agent_memory.gitio import repo as git
from agent_memory.model.atom import Atom
from agent_memory.model.clock import utc_day
from agent_memory.model.errors import RefusedError, RepoStateError
from agent_memory.model.paths import resolve_pointer
from agent_memory.model.trailers import format_message, one_line
from agent_memory.promote.review import review_items, staged_entry
from agent_memory.store.l1 import L1Store


@dataclass(frozen=True)
class Item:
    commit: str
    atom_id: str
    promotion: str
    entry: LogEntry

    @property
    def atom(self) -> Atom:
        return self.entry.atom


def work_files(root: Path, tier: str, target_name: str) -> TierFiles:
    log_path, target_path = root / LOG_PATH, root / target_name
    return TierFiles(
        tier=tier,
        target_name=target_name,
        log_text=log_path.read_text("utf-8") if log_path.exists() else "",
        target_text=target_path.read_text("utf-8") if target_path.exists() else "",
    )


def write_files(root: Path, files: TierFiles) -> None:
    for rel, text in files.paths().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")


def memory_paths(target_name: str) -> list[str]:
    """The memory files whose uncommitted edits stop adopt (issue 6: CLAUDE.md included — it
    carries the import line or, with memory.target=claude-md, the block itself)."""
    return sorted({target_name, "CLAUDE.md", LOG_PATH})


def require_clean(repo: git.Repo, target_name: str) -> None:
    """A dirty CLAUDE.md / CLAUDE.memory.md / adopted.log stops adopt before anything is written."""
    dirty = git.status_porcelain(repo, memory_paths(target_name))
    dirty = [d for d in dirty if not d.startswith("?? ")]
    if dirty:
        names = ", ".join(sorted({d[3:] for d in dirty}))
        raise RepoStateError(
            f"uncommitted changes to memory files: {names}",
            hint=f"commit or stash them first (git stash push -- {names}), then adopt again",
        )


def require_consistent(files: TierFiles) -> None:
    """The block and adopted.log must agree before anything is appended: re-rendering from the
    log would otherwise silently overwrite a hand edit committed inside the markers."""
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
    if (files.held() or files.log_text.strip()) and files.hand_edited():
        raise RefusedError(
            f"the memory block in {files.target_name} differs from {LOG_PATH} (edited by hand?)",
            hint="re-render it with `git memory validate --fix` (or revert the edit), commit, then retry",
        )


def withdrawn_at_l1(repo: git.Repo) -> set[str]:
    """Atoms a person already decided against on memory/atoms: rejected with no new sessions
    since, or forgotten (tombstoned). Their staged items are no longer waiting."""
    store = L1Store(repo)
    if not store.exists():
        return set()
    snap = store.snapshot()
    out = set(snap.tombstones) - set(snap.atoms)
    for ident, atom in snap.atoms.items():
        review = atom.get("review") or {}
        if review.get("state") == "rejected" and int(review.get("sessions", 0)) >= len(
            set(atom["sessions"])
        ):
            out.add(ident)
    return out


def pending(repo: git.Repo, files: TierFiles, against: str = "HEAD") -> list[Item]:
    """Items on memory/review still waiting for a decision: not yet in HEAD, not already held
    (adopt re-renders rather than cherry-picks, so an adopted item's review commit is never an
    ancestor of HEAD), and not rejected or forgotten on memory/atoms since it was staged."""
    held = files.held()
    withdrawn = withdrawn_at_l1(repo)
    rejected_l3: dict[str, dict[str, Any]] = {}
    if files.tier == "L3":
        from agent_memory.promote.l3 import read_global_rejections

        rejected_l3 = read_global_rejections(repo)
    items = []
    for commit, ident, promotion in review_items(repo, against):
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


def refusal(item: Item) -> str | None:
    """Why an item must not be adopted (spec §4.1, seed 004 curator rules), or None."""
    atom = item.atom
    if item.entry.op != "adopt":
        return None
    if atom.get("redacted"):
        return "its claim was redacted — ask for a restatement without the secret"
    for pointer in {atom["source"], atom["first_source"]}:
        status, matches, _ = resolve_pointer(pointer)
        if status == "ambiguous":
            return f"its citation {pointer} is ambiguous ({len(matches)} transcripts match)"
    return None


def adopt_item(
    repo: git.Repo, item: Item, target_name: str, pin: bool = False, tier: str = "L2"
) -> str:
    """Apply one item as one commit; on any failure the files and index are restored."""
    root = repo.workdir
    if root is None:
        raise RepoStateError("adopt needs a work tree", hint="run it in a clone with a work tree")
    before = work_files(root, tier, target_name)
    atom = item.atom.copy()
    if pin:
        atom["pinned"] = True
    entry = replace(item.entry, atom=atom, review_commit=item.commit)
    after = before.append([entry])
    verb = "adopt" if entry.op == "adopt" else entry.op
    sessions = ", ".join(atom.get("sessions", [])[:8])
    message = format_message(
        f"memory: {verb} {one_line(atom['claim'], 70)}",
        [
            f"{'Adopted' if verb == 'adopt' else 'Applied'} from memory/review {item.commit[:12]} ({item.promotion}).",
            f"Evidence: {len(atom.get('sessions', []))} sessions ({sessions}); confidence {atom.get('confidence')};"
            f" first seen {utc_day(atom['first_seen'])}, last seen {utc_day(atom['last_seen'])}.",
        ],
        [("Atom-Id", item.atom_id), ("Adopted-From", item.commit)]
        + ([("Pinned", "yes")] if pin else []),
    )
    return commit_or_restore(
        repo,
        before,
        after,
        message,
        refused=f"the commit for {item.atom_id} was refused",
        hint="nothing was adopted for this item; fix what the hook reported and run adopt again",
    )


def commit_or_restore(
    repo: git.Repo, before: TierFiles, after: TierFiles, message: str, refused: str, hint: str
) -> str:
    """Write `after`, commit exactly its two files with `git commit` (the user's hooks run), and
    return the new HEAD. On a refusing hook, or an interrupt before the commit landed, the files
    and the index are put back as they were: no half-applied item."""
    root = repo.workdir
    assert root is not None
    paths = list(after.paths())
    old_head = git.rev_parse(repo, "HEAD")
    try:
        write_files(root, after)
        head = git.commit_paths(root, paths, message)
    except BaseException as exc:
        landed = git.rev_parse(repo, "HEAD")
        if landed != old_head and landed is not None and isinstance(exc, KeyboardInterrupt):
            raise  # the commit landed before the interrupt: the item is whole; stop here
        git.run_git(root, "reset", "-q", "--", *paths, check=False)
        write_files(root, before)
        _drop_empty(root, before)
        if isinstance(exc, RepoStateError):
            raise RefusedError(f"{refused}: {exc.message}", hint=hint) from exc
        raise
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
