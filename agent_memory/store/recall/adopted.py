"""What the committed tiers already hold, so that recall never restates it: the ids,
normalised claims and token sets of the adopted L2/L3 lines, from a small cache keyed on the
adopted.log files' stat signatures."""

import marshal
import os

from agent_memory.store.recall.files import CACHE_TAG, FORMAT_VERSION, read_state_file
from agent_memory.store.recall.tokens import normalize_claim, tokenize

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `typing` costs ~2 ms to import, the hook cannot afford it
    from collections.abc import Iterable, Mapping, Sequence
    from typing import Any

    from agent_memory.model.atom import Atom as StoredAtom

    Atom = Mapping[str, Any]
    StrPath = str | os.PathLike[str]

ADOPTED_CACHE = f"recall-adopted.{CACHE_TAG}.marshal"
# Where each log's fold was left (committed/log_fold.py), read only when a log or block changed.
ADOPTED_LOGS_CACHE = f"recall-adopted-logs.{CACHE_TAG}.marshal"
ADOPTED_LOG = os.path.join(".memory", "adopted.log")
# committed.tiers.BLOCK_FILES (tests/test_recall.py checks): importing it would load
# `__future__` and more on the per-prompt path's cache hit.
BLOCK_FILES = ("CLAUDE.memory.md", "CLAUDE.md")
# committed.log_fold.STATE_VERSION (tests/test_recall.py checks), part of the cache key: when
# the rules of the fold change (version 2: a pin after a forget no longer revives), a cache
# written by the older code would keep its answer until a log or block changed.
FOLD_VERSION = 2
# A candidate whose tokens mostly fall inside an adopted line's (or the reverse) says the same
# thing in other words: "Use pnpm, not npm" under "Use pnpm, not npm, for installs".
NEAR_DUPLICATE = 0.8


class Adopted:
    """What the committed tiers hold, in the forms recall compares candidates with."""

    __slots__ = ("ids", "claims", "token_sets", "_by_token")

    def __init__(self, ids: "Iterable[str]" = (), claims: "Iterable[str]" = (),
                 token_sets: "Iterable[Iterable[str]]" = ()) -> None:  # fmt: skip
        self.ids = frozenset(ids)
        self.claims = frozenset(claims)
        self.token_sets = tuple(frozenset(t) for t in token_sets)
        self._by_token: dict[str, list[int]] | None = None

    @classmethod
    def of(cls, atoms: "Sequence[Atom]") -> "Adopted":
        ids = [str(a.get("id")) for a in atoms]
        claims = [normalize_claim(str(a.get("claim", ""))) for a in atoms]
        return cls(ids, claims, [frozenset(tokenize(str(a.get("claim", "")))) for a in atoms])

    def restates(self, ident: str, claim: str) -> bool:
        if ident in self.ids or normalize_claim(claim) in self.claims:
            return True
        mine = set(tokenize(claim))
        if not mine or not self.token_sets:
            return False
        if self._by_token is None:  # token → the adopted lines holding it, built once
            self._by_token = {}
            for number, theirs in enumerate(self.token_sets):
                for token in theirs:
                    self._by_token.setdefault(token, []).append(number)
        shared: dict[int, int] = {}
        for token in mine:
            for number in self._by_token.get(token, ()):
                shared[number] = shared.get(number, 0) + 1
        for number, count in shared.items():
            smaller = min(len(mine), len(self.token_sets[number]))
            if count >= min(2, smaller) and count >= NEAR_DUPLICATE * smaller:
                return True
        return False


def _sig(path: str) -> tuple[str, int, int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (path, -1, -1, -1)
    return (path, st.st_size, st.st_mtime_ns, st.st_ino)


def _read_cache(path: str) -> object:
    try:
        # loads(read()), not load(fh): marshal.load reads a file object item by item
        # through Python calls (~1 ms for this 5 KB file; this is ~0.02 ms).
        return marshal.loads(read_state_file(path))
    except (OSError, ValueError, EOFError, TypeError):
        return None


def _write_cache(path: str, value: "Any") -> None:
    """Owner-only (0o600) as the rest of the state folder; a failure (a full disk) leaves the
    old cache and no temporary file."""
    from agent_memory.gitio.state import replace_text

    try:
        replace_text(path, marshal.dumps(value))
    except (OSError, ValueError):
        pass


def adopted(state_dir: "StrPath", roots: "Sequence[tuple[str | None, str]]", deadline: "float | None" = None,
            ) -> Adopted:  # fmt: skip
    """The atoms held in the committed tiers whose work trees and tiers are `roots` (this
    repository's L2, the global memory repo's L3) that their blocks show a reviewer
    (committed/reviewed.py: a log line alone is nothing), from a small cache keyed on the logs'
    and the memory files' stat signatures. When one changed, the blocks are read again and
    each log from where the last read stopped (committed/log_fold.py: only what was appended,
    unless the log was rewritten), and the caches are rewritten. Unreadable files hold nothing;
    a log not read whole by `deadline` raises log_fold.FoldIncomplete (held_logs)."""
    present = [(root, tier) for root, tier in roots if root]
    paths = [os.path.join(root, name) for root, _ in present for name in (ADOPTED_LOG, *BLOCK_FILES)]
    # The token sets are `tokenize`'s, which changes with the index format.
    sig = (FOLD_VERSION, FORMAT_VERSION, *(_sig(p) for p in paths))
    state = os.fspath(state_dir)
    cache = os.path.join(state, ADOPTED_CACHE)
    cached = _read_cache(cache)
    if isinstance(cached, tuple) and len(cached) == 4 and cached[0] == sig:
        try:
            return Adopted(cached[1], cached[2], cached[3])
        except TypeError:
            pass
    from agent_memory.committed.reviewed import reviewed_atoms

    logs = held_logs(state, [root for root, _ in present], deadline)
    atoms: list[Atom] = []
    for root, tier in present:
        # never through a linked `.memory` folder, log or memory file
        atoms += reviewed_atoms(root, tier, logs[root])[0]
    found = Adopted.of(atoms)
    _write_cache(cache, (sig, tuple(found.ids), tuple(found.claims),
                         tuple(tuple(sorted(t)) for t in found.token_sets)))  # fmt: skip
    return found


def held_logs(state_dir: "StrPath", roots: "Sequence[str]", deadline: "float | None" = None,
              ) -> "dict[str, dict[str, StoredAtom]]":  # fmt: skip
    """What the adopted.log under each of `roots` holds (as `tiers.held`), each read from
    where the fold saved in `state_dir` stopped (committed/log_fold.py: only what was appended
    since, unless the log was rewritten), and the folds saved again. Shared by the per-prompt
    hook and session start, so a log that grew is read whole at most once by either. A line
    that is not UTF-8 is left out and logged, once (when it is read).

    A long read saves where it got as it goes (a hook killed at its client's timeout leaves
    the next one a place to resume from, so a clone's 60 MB log is read over a few hooks, not
    never); past `deadline` (time.monotonic) it stops, saved, and raises
    log_fold.FoldIncomplete, which says how far it got. Raises nothing else: a log naming more
    atoms than anyone adopts (log_fold.TooManyAtoms) holds nothing here, said once a day, and
    the other logs are read as ever (a clone's made-up log never hides the user's own memory)."""
    from agent_memory.committed.log_fold import TooManyAtoms, held_since

    folds_path = os.path.join(os.fspath(state_dir), ADOPTED_LOGS_CACHE)
    saved = _read_cache(folds_path)
    if not isinstance(saved, dict):
        saved = {}
    folds: dict[str, object] = {}
    out: dict[str, dict[str, StoredAtom]] = {}
    for root in roots:

        def checkpoint(state: object, root: str = root) -> None:
            # the other logs as last saved or folded now, this one as far as it got
            _write_cache(folds_path, {**{r: saved.get(r) for r in roots}, **folds, root: state})

        try:
            out[root], folds[root], bad = held_since(root, saved.get(root), deadline, checkpoint)
        except TooManyAtoms as exc:
            from agent_memory.gitio.state import log_error

            out[root], folds[root], bad = {}, exc.state, []
            log_error(str(exc), root, once_a_day=True)
        if bad:
            from agent_memory.gitio.state import log_error

            log_error(f"{os.path.join(root, ADOPTED_LOG)}: {bad[0]}: that line was left out; "
                      "`git memory validate` names every bad line", root)  # fmt: skip
    if folds != saved:
        _write_cache(folds_path, folds)
    return out
