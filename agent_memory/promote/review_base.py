"""What memory/review sits on, when the base branch no longer has it.

`git memory stage` builds memory/review on the base branch's tip. A person who then drops
that tip (`git reset --hard HEAD~1` of an adopt commit, a rebase that drops it, a force-push
of the remote's branch fetched here) leaves memory/review on commits the base branch does not
have. Stage took them for a person's work on memory/review ("did not make": refused, --force
hinted), though the person made nothing there; status and adopt listed a dropped adopt commit
as an item staged again — the reset is that item's rejection (adoption/reverts.py
`reset_away`).

Such commits are the stale base of the review: stage rebuilds it on the base branch as it
does when the base moved on, and the verbs that list its items leave them out. A commit counts
as one only on local evidence that it was the base branch's: an ancestor of the tip this
repository's stage last wrote on memory/review (the ledger's line: transcripts/ledger.py; a
stage builds only on the base branch's tip), or of a tip the base branch's reflog (local or
remote-tracking) recorded. A commit a person or teammate made on memory/review is neither: it
is still refused, never discarded.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_memory.gitio import repo as git
from agent_memory.model.errors import RefusedError
from agent_memory.model.policy import MAX_HISTORY_DIFF_BYTES
from agent_memory.model.trailers import trailer


def made_by_us(repo: git.Repo, oid: str, message: str | None = None) -> bool:
    """A commit agent-memory's stage made: its identity and a Promotion trailer. One too large
    for any of ours (unread) is not. `message`: its message, when read already."""
    message = message if message is not None else git.message_within(repo, oid)
    return (message is not None and git.commit_author(repo, oid)[1] == git.TOOL_EMAIL
            and trailer(message, "Promotion") is not None)  # fmt: skip


def dropped_base(repo: git.Repo, others: Sequence[str], base_refs: Sequence[str], ours: Sequence[str]) -> set[str]:
    """Of `others` (commits on memory/review that `base_refs` do not reach and agent-memory did
    not make), those the base branch had and dropped since: the stale base the review was
    built on. The rest are someone's work on memory/review. `ours`: the branch's commits a
    stage made — with any, the base is under them (a stage builds on the base branch's tip),
    and a commit on top of them is a person's, whatever the reflog says: memory/review merged
    into main and the merge reset away left it among main's tips."""
    from agent_memory.gitio import porcelain
    from agent_memory.transcripts.ledger import recorded_store_tip

    if not others:
        return set()
    negs = [f"^{ref}" for ref in base_refs]
    dropped: set[str] = set()
    recorded = recorded_store_tip(repo.common_dir, git.REVIEW_REF)
    if recorded:
        # What the stage wrote, and under it the base it wrote on: its commits and that base's.
        dropped |= set(git.rev_list(repo, recorded, *negs)) & set(others)
    left = [oid for oid in others if oid not in dropped]
    if left:
        # Staged by a version before the ledger's line, or the line lost: the base branch's
        # reflog shows the tips it had (read only here, on a branch that holds such commits).
        tips = list(dict.fromkeys(oid for ref in base_refs for oid, _ in porcelain.reflog(repo, ref)))
        if tips:
            out = git.git_output_within(repo.cwd, "rev-list", "--stdin", limit=MAX_HISTORY_DIFF_BYTES,
                                        revs=[*tips, *negs])  # fmt: skip
            dropped |= set((out or "").split()) & set(left)
    if dropped and ours:
        under = git.git_output_within(repo.cwd, "rev-list", "--stdin", limit=MAX_HISTORY_DIFF_BYTES,
                                      revs=[*ours, *negs])  # fmt: skip
        dropped &= set((under or "").split())  # past the limit: nothing known, nothing discarded
    return dropped


def foreign_commit_refusal(repo: git.Repo, commits: Sequence[str], others: Sequence[str],
                           base_refs: Sequence[str]) -> RefusedError:  # fmt: skip
    """The refusal of a stage over memory/review holding `others` (of `commits`, the branch's
    commits the base branch does not reach, oldest first): commits agent-memory did not make
    and `dropped_base` does not know as the base's. One on top of a commit a stage made was
    made on memory/review: named as such. One only under them (or with none of ours on the
    branch) is what the stage built on — the base branch's, dropped since, or a commit made on
    memory/review before that stage: nothing here records which (no ledger line, the reflog
    expired), and the message said only the second, to a person who had committed nothing."""
    ours = set(commits) - set(others)
    negs = [f"^{ref}" for ref in base_refs]
    above = next((oid for oid in others if ours and ours & set(git.rev_list(repo, oid, *negs))), None)
    if above is not None:
        return RefusedError(f"memory/review has commit {above[:10]} that agent-memory did not make",
                            hint="adopt or save that work first, or overwrite it with `git memory stage --force`")  # fmt: skip
    branch = git.default_branch(repo) or "the base branch"
    return RefusedError(f"memory/review has commit {others[0][:10]} that agent-memory did not make and {branch} "
                        f"does not have: a commit of {branch} it no longer has (a reset or a rebase dropped it), "
                        "or one made on memory/review — nothing here records which",
                        hint=f"if {branch} dropped it, rebuild the review on {branch} with `git memory stage --force`; "
                             "if it is work on memory/review, adopt or save it first")  # fmt: skip
