"""Undoing an adoption with `git revert` of its adopt commit: the reverted item counts
as a rejection until new sessions say it again, instead of being offered again at once.

`reverted_adoptions(root)` reads the branch's history: every revert commit ("This reverts
commit <sha>.", what `git revert` writes) of a commit carrying `Atom-Id:` and
`Adopted-From:` names an atom whose adoption was undone. `record_reverted` writes that down on
the atoms' L1 records as a rejection (state `rejected`, the session count at that moment, the
revert commit), one `memory/atoms` commit for all of them, so the promotion gates hold the
atom back until a new session adds evidence.

A `forget` line that is the last word on an atom in the branch's adopted.log is the same kind
of decision, and a firmer one: `git memory forget` writes it in a commit and then tombstones
the L1 record; killed between the two (or pulled from a teammate's forget) the L1 record stayed,
still marked adopted, and the gates staged the forgotten item again at once. Such an atom is
marked rejected with its session count kept current, so it is not restaged while that line
stands (`forget --undo` adds a line after it); its L1 record, and its recall, are kept, and
`git memory forget` finishes what was left.

An adopt line that reached the branch and that the committed log no longer has at all was
taken out by a person some other way: its line edited out and committed, a `git revert` of a
merged pull request of memory/review (whose merge commit names no atom). The same decision as a
revert, and recorded the same way (`taken_out`), or the next stage offered the item again.

An adopt commit dropped from the branch (`git reset --hard HEAD~1`, a rebase that drops it)
leaves no revert and no removed line on HEAD's history: what tells it is the branch's reflog,
which recorded the commit as a tip of this branch (`reset_away`). Only an atom whose record says
a person adopted it (state `adopted`) is judged so: the tool's own steps back are never adopted
ones — a killed adopt's item is rolled back before its commit lands, and a commit adopt made from
stale files and took back itself (adoption/adopt.py `_take_back`) was never marked; a branch the
commit never was on (another branch checked out) has no tip that reaches it, and a commit another
local branch still has was moved there, not dropped (its adoption stands on that branch).

None of these overrules the person's newer word: a record marked `remembered` (`git memory
remember` of the claim since: store/said_again.py) is not marked rejected again for the revert,
edit or forget it answers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agent_memory.committed import adopted_log, tiers
from agent_memory.committed.adopted_log import LOG_PATH
from agent_memory.gitio import porcelain
from agent_memory.gitio import repo as git
from agent_memory.gitio.history import history_shape
from agent_memory.gitio.state import atomic_write, read_regular_file, state_dir
from agent_memory.model.atom import Atom
from agent_memory.model.clock import now_utc
from agent_memory.model.errors import OversizedObjectError
from agent_memory.model.fastjson import loads_bounded
from agent_memory.model.policy import MAX_COMMIT_BYTES, MAX_HISTORY_DIFF_BYTES
from agent_memory.store.l1 import Change, L1Store, Snapshot
from agent_memory.store.said_again import SAID_AGAIN

_REVERTS = re.compile(r"^This reverts commit ([0-9a-f]{7,64})", re.MULTILINE)


def _trailer(message: str, key: str) -> str | None:
    for line in reversed(message.splitlines()):
        name, sep, value = line.partition(": ")
        if sep and name == key:
            return value.strip()
    return None


def reverted_adoptions(root: Path | None, rev: str = "HEAD") -> dict[str, str]:
    """atom id → the newest commit on `rev` that reverted its adopt commit."""
    if root is None:
        return {}
    # Ids first, then the messages of commits within MAX_COMMIT_BYTES only (`git revert` and
    # adopt write a few lines): a clone's commit of a 300 MB message, asked for whole, cost git
    # and us its size twice over. One larger is no revert of an adoption here, nor one's target.
    proc = git.run_git(root, "log", "--format=%H", "--grep=^This reverts commit ", rev, "--", LOG_PATH,
                       check=False)  # fmt: skip
    if proc.returncode != 0 or not proc.stdout.strip():
        return {}
    reverts: list[tuple[str, str]] = []
    for entry in git.log_entries(root, git.commits_within(root, proc.stdout.split(), MAX_COMMIT_BYTES)[0]):
        match = _REVERTS.search(entry.body)
        if match:
            reverts.append((entry.oid, match.group(1)))
    if not reverts:
        return {}
    targets = git.commits_within(root, [t for _, t in reverts], MAX_COMMIT_BYTES)[0]
    adopted: dict[str, str] = {}
    for entry in git.log_entries(root, targets):
        ident = _trailer(entry.body, "Atom-Id")
        if ident and _trailer(entry.body, "Adopted-From"):
            adopted[entry.oid] = ident
    out: dict[str, str] = {}
    for revert, target in reverts:  # newest first: keep the newest revert per atom
        full = next((oid for oid in adopted if oid.startswith(target)), None)
        if full is not None:
            out.setdefault(adopted[full], revert)
    return out


def forgotten_at_l2(root: Path | None) -> dict[str, str]:
    """The atoms a `forget` line took out of the work tree's adopted.log and nothing brought
    back (a teammate's pin merged after the forget does not: `adopted_log.fold`), each with
    that line's time."""
    entries, _ = tiers.read_log(root)
    return {ident: str(line.at) for ident, (line, _) in adopted_log.removed(entries).items() if line.op == "forget"}


def taken_out(repo: git.Repo) -> set[str]:
    """The atoms an adopt line on HEAD's history of adopted.log named and that no line of the
    committed log names now: a person removed the line (edited it out, reverted a merged pull
    request of memory/review). Nothing while the log has uncommitted changes (an edit in
    progress is judged once committed), nor while a line of it cannot be read, nor when its
    history is over MAX_HISTORY_DIFF_BYTES of diffs (a clone's history decides its size)."""
    root = repo.workdir
    if root is None:
        return set()
    if git.run_git(root, "diff", "--quiet", "HEAD", "--", LOG_PATH, check=False).returncode != 0:
        return set()
    ever = adopted_on_head(repo)
    if not ever:
        return set()
    entries, unreadable = tiers.read_log(root)
    if unreadable:
        # A line this version cannot read (a hand edit, a teammate's newer tool) may name any
        # of them: nothing is known to be taken out, and a person's adoption is not turned
        # into a rejection on a guess (stage refuses the log until the line is fixed).
        return set()
    return ever - {entry.atom_id for entry in entries}


# What `adopted_on_head` found, with the HEAD it is for and the shape of the history below it
# (gitio/history.py: a shallow boundary, replace refs, grafts — `git fetch --unshallow` brings
# commits under the same HEAD): in the work tree's own git dir (each work tree has its HEAD).
# A cache — anything unreadable in its place is none. (Version 1 kept no shape: rebuilt.)
HISTORY_CACHE = "adopted-history.json"
_HISTORY_VERSION = 2
_MAX_HISTORY_CACHE_BYTES = 4 << 20  # 5,000 ids (MAX_LOG_ATOMS) are some 80 KB


def adopted_on_head(repo: git.Repo) -> set[str]:
    """The atoms an adopt line on HEAD's history of adopted.log named (empty past
    MAX_HISTORY_DIFF_BYTES of diffs). Kept with the HEAD it is for: `stage` and each SessionEnd
    auto-stage walked the whole history (`git log -p`: 0.28 s over 500 adoptions in 5,000
    commits) though it changes only when HEAD does — the same HEAD reads nothing, a HEAD that
    moved on from it (its descendant) only the commits since. Any other HEAD (a reset, another
    branch) is walked whole: its history may lack lines the kept one had. So is the same HEAD
    over a history of another shape (deepened, unshallowed, replaced, grafted): commits below
    the kept walk's boundary may hold adopt lines it never saw."""
    root = repo.workdir
    head = _readable_head(repo)
    if root is None or head is None:
        return set()
    path = state_dir(repo.git_dir, create=False) / HISTORY_CACHE
    shape = history_shape(repo.common_dir)
    seen_head, seen_shape, seen = _read_history(path)
    if seen_head is not None and (shape is None or seen_shape != shape):
        seen_head = None  # read from another history: nothing of it is known to hold
    if seen_head == head:
        return seen
    if seen_head is not None and porcelain.is_ancestor(repo, seen_head, head):
        # "" from a walk of the commits since is none touching the log (git failing after the
        # ancestry it just read is not a case to plan for)
        out = _log_diff(root, f"{seen_head}..{head}")
        ever = seen | _adopt_ids(out) if out is not None else None
    else:
        # "" is no history of the log, or git failing: either way nothing is known, nothing kept
        out = _log_diff(root, head) or None
        ever = _adopt_ids(out) if out is not None else None
    if ever is None:
        return set()
    try:
        atomic_write(path, json.dumps({"version": _HISTORY_VERSION, "head": head, "history": shape,
                                       "ever": sorted(ever)}))  # fmt: skip
    except OSError:
        pass
    return ever


def _readable_head(repo: git.Repo) -> str | None:
    """HEAD's commit; None on an unborn branch or when the commit is too large to read (a
    cloned repository's doing): then nothing is known of its history, as when git fails, and
    the stage that follows refuses the commit in its own words."""
    try:
        return git.head_commit(repo)
    except OversizedObjectError:
        return None


def _log_diff(root: Path, *args: str, revs: Sequence[str] = ()) -> str | None:
    """`git log -p` of adopted.log over `args` (revisions, options), and `revs` given on stdin
    (`args` then hold `--stdin`); None past MAX_HISTORY_DIFF_BYTES."""
    return git.git_output_within(
        root, "log", "-p", "--unified=0", "--no-color", "--no-ext-diff",
        # a committed .gitattributes chooses the diff driver: none of ours runs its program
        "--no-textconv", "--format=%x00", *args, "--", LOG_PATH, limit=MAX_HISTORY_DIFF_BYTES, revs=revs,
    )  # fmt: skip


def _read_history(path: Path) -> tuple[str | None, str | None, set[str]]:
    """(HEAD, history shape, adopted ids) of the kept walk; Nones and nothing when unreadable."""
    try:
        data = json.loads(read_regular_file(path, _MAX_HISTORY_CACHE_BYTES + 1))
    except (OSError, ValueError, RecursionError):
        return None, None, set()
    if not isinstance(data, dict) or data.get("version") != _HISTORY_VERSION:
        return None, None, set()
    head, shape, ever = data.get("head"), data.get("history"), data.get("ever")
    if not isinstance(head, str) or not isinstance(shape, str) or not isinstance(ever, list) or not all(
        isinstance(i, str) for i in ever
    ):
        return None, None, set()
    return head, shape, set(ever)


def _adopt_ids(diff: str) -> set[str]:
    """The atoms the adopt lines added in a `git log -p --unified=0` of adopted.log name."""
    ever: set[str] = set()
    for line in diff.splitlines():
        if not line.startswith("+{"):
            continue
        try:
            record: Any = loads_bounded(line[1:])
            ident = str(record["atom"]["id"]) if record.get("op") == "adopt" else ""
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        if ident:
            ever.add(ident)
    return ever


def reset_away(repo: git.Repo) -> set[str]:
    """The atoms adopt lines name in commits the checked-out branch no longer has: reachable
    from a tip its reflog recorded, not from HEAD (`git reset --hard` past them, a rebase that
    dropped them) nor from another local branch (moved there, not dropped). Nothing on a
    detached HEAD, without a reflog (core.logAllRefUpdates off, or expired: a 30-day-old
    unreachable tip), or past MAX_HISTORY_DIFF_BYTES of diffs."""
    root = repo.workdir
    try:
        branch = git.head_branch(repo.git_dir)
    except git.UnreadableRef:
        return set()
    if root is None or branch is None:
        return set()
    head = _readable_head(repo)
    if head is None:
        return set()
    tips = [tip for tip in _left_tips(repo, branch) if tip != head]
    if not tips:  # every tip the branch had is on its history: nothing was dropped
        return set()
    # A commit another local branch still has was moved, not dropped (`git branch keep` then
    # `git reset --hard HEAD~1`): its adoption stands there. memory/review and memory/atoms are
    # no such branch — the review sits on the base it was built on, the dropped commit too.
    out = _log_diff(root, "--ignore-missing", "--stdin", "--not", "--exclude=memory/*", "--branches",
                    revs=[*tips, "^HEAD"])  # fmt: skip
    return _adopt_ids(out or "")


# The reflog messages of `git commit`: the branch moved onto a child of its tip, dropping nothing.
_FORWARD = ("commit:", "commit (initial):", "commit (merge):")


def _left_tips(repo: git.Repo, branch: str) -> list[str]:
    """Tips the branch's reflog recorded that its later tips need not reach: the tip each entry
    moved away from, but for `git commit`'s (its new tip's parent), and the newest tip. Every
    other tip is an ancestor of one of these, so nothing reachable from a tip is missed — read
    from the reflog file, without asking git for each of its thousands of entries (`git log
    -g`: 45 ms over 5,000). A branch whose reflog lives in a reftable: every tip git lists."""
    path = Path(repo.common_dir) / "logs" / branch
    try:
        raw = read_regular_file(path, MAX_HISTORY_DIFF_BYTES + 1)
    except FileNotFoundError:
        if (Path(repo.common_dir) / "reftable").is_dir():
            return list(dict.fromkeys(tip for tip, _ in porcelain.reflog(repo, branch)))
        return []
    except OSError:
        return []
    if len(raw) > MAX_HISTORY_DIFF_BYTES:
        return []  # (a reflog of some 500,000 entries)
    tips: list[str] = []
    previous: str | None = None
    for line in raw.decode("utf-8", "replace").splitlines():
        fields, _, message = line.partition("\t")
        old, _, rest = fields.partition(" ")
        new = rest.partition(" ")[0]
        if previous is not None and old != previous:
            tips.append(previous)  # a gap in the chain: that tip is not known to be reached
        if not message.startswith(_FORWARD) and old.strip("0"):
            tips.append(old)
        previous = new
    if previous is not None:
        tips.append(previous)
    # only object ids reach git's stdin: a hand-made line (`--all`) is no revision to pass on
    return [tip for tip in dict.fromkeys(tips) if _OBJECT_ID.fullmatch(tip)]


_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def record_reverted(repo: git.Repo, store: L1Store, held: set[str] | None = None) -> list[str]:
    """Mark every atom whose adoption was reverted or otherwise taken out of the committed log
    (`taken_out`), and that is not held again, as rejected on memory/atoms, unless a rejection
    or new sessions already say otherwise; and every atom a `forget` line took out of the block
    as rejected, its session count kept current. Returns their ids. `held`: the ids adopted in
    the work tree now (read from its adopted.log when not given)."""
    if held is None:
        held = set(tiers.l2_atoms(repo.workdir))
    reverted: dict[str, str | None] = {
        i: c for i, c in reverted_adoptions(repo.workdir).items() if i not in held}
    forgotten_at = {i: at for i, at in forgotten_at_l2(repo.workdir).items() if i not in held}
    forgotten = set(forgotten_at)
    # taken out some other way: no revert commit to name
    edited = taken_out(repo) - held - set(reverted) - forgotten
    reverted.update(dict.fromkeys(edited))
    # dropped from the branch: judged only on a record a person's adoption marked (below)
    dropped = reset_away(repo) - held - set(reverted) - forgotten
    reverted.update(dict.fromkeys(dropped))
    if not (reverted or forgotten) or not store.exists():
        return []
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
    marked: list[str] = []

    def compute(snap: Snapshot) -> Change | None:
        writes: dict[str, Atom] = {}
        for ident in sorted(forgotten):
            atom = snap.atoms.get(ident)
            if atom is None:
                continue  # tombstoned (the forget finished), or never here
            review = atom.get("review") or {}
            count = len(set(atom["sessions"]))
            if review.get("state") == "rejected" and int(review.get("sessions", 0)) >= count:
                continue
            if review.get("state") == SAID_AGAIN and str(review.get("at", "")) >= forgotten_at[ident]:
                continue  # the person said it again after this forget (`remember`): their newer word
            updated = atom.copy()
            updated["review"] = {"state": "rejected", "at": at, "sessions": count}
            writes[ident] = updated
        for ident, commit in sorted(reverted.items()):
            if ident in writes:
                continue
            atom = snap.atoms.get(ident)
            if atom is None:
                continue
            review = atom.get("review") or {}
            if not review and ident in edited:
                # adopted by merging memory/review, and no stage saw it held to mark it: its
                # sessions at the adoption are unknown, so those it has now are the ones judged
                review = {"state": "adopted", "sessions": len(set(atom["sessions"]))}
            if review.get("state") != "adopted":
                # already rejected, demoted, said again since or never marked (for one dropped
                # from the branch: never a person's adoption, as a take-back's): nothing to correct
                continue
            if int(review.get("sessions", 0)) < len(set(atom["sessions"])):
                continue  # new sessions since the adoption: judged afresh by the gates
            updated = atom.copy()
            updated["review"] = {"state": "rejected", "at": at, "sessions": len(set(atom["sessions"])),
                                 **({"commit": commit} if commit else {})}  # fmt: skip
            writes[ident] = updated
        marked[:] = sorted(writes)
        if not writes:
            return None
        return Change(
            subject=f"reject: {len(writes)} adoption(s) undone with git revert, forget or an edit",
            body=[_why(i, reverted.get(i), i in forgotten, i in dropped) for i in sorted(writes)],
            trailers=[("Op", "reject")] + [("Atom-Id", i) for i in sorted(writes)],
            writes=writes,
        )

    store.transact(compute)
    return marked


def _why(ident: str, revert: str | None, forgotten: bool, dropped: bool = False) -> str:
    """One line of the rejection commit's body: how the adoption was undone."""
    if forgotten:
        return f"- {ident} forgotten in the L2 block; `git memory forget {ident}` finishes it"
    if revert:
        return f"- {ident} reverted in {revert[:12]}"
    if dropped:
        return f"- {ident}'s adopt commit dropped from the branch (a reset; its reflog shows it was there)"
    return f"- {ident} taken out of {LOG_PATH} in a commit (no forget line, no revert)"
