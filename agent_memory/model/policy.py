"""Every threshold, cap, TTL and budget agent-memory applies, in one place, and the one function
that decides L1 expiry and eviction.

The README's numbers are checked against these constants by tests/test_policy.py, so the docs
cannot drift from what the code does. Stdlib only: the hook fast paths import this module.
"""

import os

# Only names for the type checker: the hooks import this module, and `typing` costs them time.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime as _dt
    from collections.abc import Collection, Iterable, Mapping
    from typing import Any

# --- L1 → L2 ---------------------------------------------------------------------------------
L1_TO_L2_SESSIONS = 3  # distinct sessions for an observed claim
L1_TO_L2_STATED_SESSIONS = 2  # a claim the user stated
L1_TO_L2_DAYS = 2  # distinct UTC calendar days (verified claims are exempt)

# --- caps and expiry -------------------------------------------------------------------------
L1_CAP = 500  # atoms on memory/atoms; the oldest last_seen is evicted beyond it
L1_MAX_AGE_DAYS = 90  # an L1 atom not re-observed for this long is dropped
L2_CAP = 60  # adopted atoms per project; overflow is demoted to L1 (pinned atoms exempt)
L3_CAP = 30  # global atoms; inflow is refused at the cap, never auto-demoted
# Distinct atoms an adopted.log may name for the hooks to read it (committed/log_fold.py): a
# person adopts each, so a real log names a few hundred over years. The hooks' saved fold holds
# every one: a cloned log of 200,000 made-up ids (80 MB) cost each prompt's hook seconds
# before reading a byte, past its timeout, for ever.
MAX_LOG_ATOMS = 5000
# The longest line of an adopted.log any reader takes (adopt writes a few KB: a claim has at
# most 500 characters). A longer one refuses the log as MAX_LOG_ATOMS does: a clone's log of
# one line of zeros that never ends (1.5 GB: nothing in a clone) was read whole by status,
# show and validate (3 GB, a MemoryError) and by every hook up to its deadline.
MAX_LOG_LINE_BYTES = 4 << 20
# The largest adopted.log any reader takes, from a commit (the base branch's, HEAD's) or the
# work tree: MAX_LOG_ATOMS atoms of a few lines of a few KB each is tens of MB at the very
# most, a real log a few MB. A committed log of zeros (1 MB in a clone) read whole cost
# `promote` and `init` its size twice over (a MemoryError); 1 GB of one valid line repeated
# (as small in a clone) held every hook to its budget, serving nothing, for some 40 s of them.
MAX_LOG_BLOB_BYTES = 64 << 20
# The most of a `git log -p` over the memory files' history a reader takes (validate's checks,
# the L3 gate's landing times): its size is the history's, which a clone chooses — a 1 MB
# CLAUDE.md edited in 2,000 commits is 2 GB of diff in an 815 KB pack. A real one is a few MB.
MAX_HISTORY_DIFF_BYTES = 64 << 20
# Bytes of a memory file the commit guard judges (cli/scan.py): CLAUDE.memory.md whole, the
# marker blocks of CLAUDE.md. A rendered block is at most L2_BUDGET_BYTES (4 KB: L2_CAP lines
# at most, within that budget; L3 2 KB), so a real file is a few KB; this leaves 64 times that
# for text a person adds around the block. A larger one is refused unjudged, never let through:
# a cloned 60 MB CLAUDE.memory.md took the guard ~25 s and ~3 GB at every adopt's commit.
MAX_MEMORY_FILE_BYTES = 256 << 10
# A file holding a block (CLAUDE.memory.md, CLAUDE.md) larger than this gives Claude nothing
# from its block (committed/reviewed.py): 32 times what the guard judges, room for a person's
# long CLAUDE.md around the block; past it the readers of each session start and prompt would
# read a cloned file of any size whole.
MAX_BLOCK_FILE_BYTES = 32 * MAX_MEMORY_FILE_BYTES
# A Claude Code settings file larger than this (a cloned `.claude/settings.json` or
# `settings.local.json`; a real one is a few KB) is not read: it defines nothing for us, and
# `init` refuses it. 1.5 GB of zeros (nothing in a clone) cost `status` 8 s and 3 GB, and each
# capture the same.
MAX_SETTINGS_BYTES = 8 << 20
# The largest local state file of the global memory repo any verb reads (`.git/agent-memory/`:
# the `remember --global` candidates, their adoption counts, the L3 rejections): an atom is a
# few KB, so thousands of candidates fit. A larger one is refused, never read as empty — it
# holds a person's decisions — and never read whole: /dev/zero linked there ran out of memory.
MAX_GLOBAL_STATE_BYTES = 8 << 20
# A git hook file larger than this is not read (committed/install.py): one of ours is a few KB,
# so a larger one is another's. core.hooksPath may name a folder of the work tree (a team's
# `.githooks/`) whose files a clone commits: `status` and `init` read a 300 MB one of zeros
# whole (650 MB).
MAX_HOOK_FILE_BYTES = 1 << 20
# The largest commit (its object: the message, mostly) whose message a history reader asks git
# for (`git memory log ID`'s searches, the reverts reader): ours carry a claim and a few
# trailers, a few KB. A clone's commit of a 300 MB message matching a search cost git its size
# twice over (%B) and us as much again: it is sized from the object's header and left out.
MAX_COMMIT_BYTES = 1 << 20
# The largest commit (or annotated tag) agent-memory's git library reads at all — to find its
# tree, its parents, its message (gitio/repo.py `load`, sized from the object header first): a
# clone's base-branch tip of a 300 MB message cost libgit2 624 MB to find its tree. Larger than
# MAX_COMMIT_BYTES because our own commits are read back this way: the expiry/eviction commit
# of memory/atoms says a line (~200 bytes) per atom dropped, a MB or two after a backfill of
# thousands of atoms, and is the store's tip that every verb reads. Reading one of this size
# costs some 100 MB.
MAX_COMMIT_OBJECT_BYTES = 32 << 20

# --- L2 → L3 ---------------------------------------------------------------------------------
L3_MIN_PROJECTS = 2  # held at L2 in this many distinct projects
L2_MIN_AGE_DAYS = 30  # each for at least this long

# --- what reaches Claude's context -----------------------------------------------------------
L2_BUDGET_BYTES = 4096  # the L2 block of the session-start context
L3_BUDGET_BYTES = 2048  # the L3 block of the session-start context
RECALL_TOP_K = 5  # atoms recalled per prompt
RECALL_BUDGET_BYTES = 1024  # size of what one prompt's recall injects
RECALL_BUDGET_S = 0.100  # the per-prompt hook's own time budget, on a monotonic clock
RECALL_BUDGET_ENV = "AGENT_MEMORY_RECALL_BUDGET_MS"  # a slower machine may widen it
# How long a hook may spend reading an adopted.log that changed (seconds from its start), under
# the client's timeouts (claude/settings.HOOK_TIMEOUTS: 1 s a prompt, 5 s a session start). A
# longer read (a clone's 60 MB log) stops there, saved, and the hook answers nothing; the next
# hook goes on from where it stopped (committed/log_fold.py).
LOG_READ_BUDGET_S = {"user-prompt-submit": 0.5, "session-start": 3.0}
LOG_READ_BUDGET_ENV = "AGENT_MEMORY_LOG_READ_BUDGET_MS"  # a slower machine may narrow it
MAX_CONTEXT_CHARS = 10_000  # Claude Code replaces longer additionalContext with a file path

# --- locks ------------------------------------------------------------------------------------
LOCK_WAIT_SECONDS = 600.0  # a second committer waits this long for the first (their hooks run)
STALE_LOCK_SECONDS = 60.0  # a git lock file older than this is not a live git's
MAX_RACES = 5  # times an adopt item is re-applied after a commit raced it

# --- hook plumbing ----------------------------------------------------------------------------
MAX_PAYLOAD_BYTES = 64 << 20  # a pasted log can be large; only a runaway stdin is refused
# A hook's stdin that stays open: Claude Code writes the payload whole and closes it, so a
# complete JSON object is taken at once; an incomplete one with no byte for this long is given
# up on (logged), before Claude Code's own hook timeout kills the hook with no word said.
PAYLOAD_IDLE_S = 0.5
REBUILD_MARKER_TTL_S = 300.0  # a recall-index rebuild that died leaves its marker; retry after
ERROR_LOG_LINES = 200  # .git/agent-memory/errors.log keeps this many lines
# A detached job (background capture, index rebuild) ends after this much CPU time, enforced by
# the operating system (RLIMIT_CPU): code spinning inside a C library never reaches a Python
# signal handler. At the soft limit the job logs and ends; JOB_CPU_GRACE_S later the kernel
# kills it whatever it is doing.
JOB_CPU_S = 300
JOB_CPU_GRACE_S = 10


def recall_budget_s() -> float:
    """The per-prompt recall budget in seconds: `RECALL_BUDGET_S`, or the milliseconds in
    `AGENT_MEMORY_RECALL_BUDGET_MS` when that is a positive number."""
    raw = os.environ.get(RECALL_BUDGET_ENV, "")
    try:
        value = float(raw) / 1000.0
    except ValueError:
        return RECALL_BUDGET_S
    return value if value > 0 else RECALL_BUDGET_S


def log_read_budget_s(event: str) -> float:
    """How long the hook `event` may read an adopted.log that changed: LOG_READ_BUDGET_S, or
    the milliseconds in `AGENT_MEMORY_LOG_READ_BUDGET_MS` when that is a positive number."""
    try:
        value = float(os.environ.get(LOG_READ_BUDGET_ENV, "")) / 1000.0
    except ValueError:
        return LOG_READ_BUDGET_S[event]
    return value if value > 0 else LOG_READ_BUDGET_S[event]


def check_context_size(text: str) -> None:
    """Refuse a context Claude Code would not inject as text."""
    if len(text) >= MAX_CONTEXT_CHARS:
        raise ValueError(
            f"context of {len(text)} characters is over Claude Code's {MAX_CONTEXT_CHARS}"
        )


def is_expired(
    atom: "Mapping[str, Any]", now: "_dt.datetime", max_age_days: int = L1_MAX_AGE_DAYS
) -> bool:
    """An L1 atom not re-observed for more than `max_age_days` days is dropped."""
    # Imported here: the hooks import this module for its budgets, and datetime costs 3 ms.
    import datetime as _dt

    from agent_memory.model.clock import parse_time

    if now.tzinfo is None:
        now = now.replace(tzinfo=_dt.UTC)
    return (now - parse_time(str(atom["last_seen"]))).total_seconds() > max_age_days * 86400


def _oldest_first(atoms: "Iterable[Mapping[str, Any]]") -> "list[Mapping[str, Any]]":
    return sorted(atoms, key=lambda a: (str(a["last_seen"]), str(a["id"])))


def l1_evictions(
    atoms: "Iterable[Mapping[str, Any]]",
    now: "_dt.datetime",
    held: "Collection[str]" = (),
    cap: int = L1_CAP,
    max_age_days: int = L1_MAX_AGE_DAYS,
) -> tuple[list[str], list[str]]:
    """(expired ids, evicted ids) for the L1 store, oldest first (evicted: pending ones first).

    Expired: last seen more than `max_age_days` ago. Evicted: of the rest, beyond `cap`, the
    pending claims first (said once and held by the durability gate: no atom yet), then the
    oldest `last_seen`. Exempt from both, though they count toward the cap: pinned atoms
    (a human's explicit keep) and atoms held at L2 (`held`), whose L1 record is the
    provenance chain of an adopted line."""
    everything = list(atoms)

    def movable(atom: "Mapping[str, Any]") -> bool:
        return not atom.get("pinned") and str(atom["id"]) not in held

    expired = [
        str(a["id"])
        for a in _oldest_first(everything)
        if movable(a) and is_expired(a, now, max_age_days)
    ]
    gone = set(expired)
    remaining = [a for a in everything if str(a["id"]) not in gone]
    over = len(remaining) - cap
    evicted: list[str] = []
    if over > 0:
        # (imported here: the hooks import this module, and only a store over the cap gets here)
        from agent_memory.model.atom import is_pending

        order = _oldest_first(filter(movable, remaining))
        order = [a for a in order if is_pending(a)] + [a for a in order if not is_pending(a)]
        evicted = [str(a["id"]) for a in order[:over]]
    return expired, evicted
