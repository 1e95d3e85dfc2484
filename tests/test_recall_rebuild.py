"""The recall index kept up to date frame by frame and the same index rebuilt from scratch
(after corruption or deletion) answer every prompt alike at the same tip: the same atoms, in
the same order, with the same scores, kinds, session counts and contested tags.

A property test over random histories of real writes to a real repository: captures (with
caps and expiry in the same commit), forgets, accept/reject decisions, evictions, expiry as a
commit of its own, the clock moving on, commits the index did not see (another writer), and
compaction of the frames into a new base."""

from __future__ import annotations

import calendar
import contextlib
import os
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from builders import l1_atom
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.gitio import repo as gitb
from agent_memory.store.capture import Limits, capture_atoms, enforce_limits
from agent_memory.store.decisions import record_decisions
from agent_memory.store.l1 import Change, L1Store, Snapshot
from agent_memory.store.recall import build as recall_build
from agent_memory.store.recall import writer as recall_writer
from agent_memory.store.recall.index import contested_dates, load_index
from agent_memory.store.recall.render import render_recall
from agent_memory.store.recall.score import recall

TOOLS = ["pnpm", "npm", "ruff", "mypy", "docker", "alembic", "pytest", "uv"]
AREAS = ["billing", "search", "auth", "checkout", "reports", "gateway"]
VERBS = ["run", "use", "avoid", "pin", "cache"]
# Pairs the contradiction rules catch (negation, same subject with another value): a write
# of either side changes the other's contested tag.
RIVALS = [
    "The default branch is dev", "The default branch is main", "The default branch is release",
    "Never run the migrations by hand", "Run the migrations by hand",
    "The node version is 18", "The node version is 20",
]  # fmt: skip
KINDS = ["constraint", "decision", "preference", "failure", "fact"]
CONFIDENCES = ["observed", "stated", "verified"]
START = "2026-11-01T00:00:00Z"


def claim_of(number: int) -> str:
    if number < len(RIVALS):
        return RIVALS[number]
    k = number - len(RIVALS)
    tool, area, verb = TOOLS[k % 8], AREAS[(k // 8) % 6], VERBS[(k // 48) % 5]
    return f"{verb.capitalize()} {tool} for the {area} package"


N_CLAIMS = len(RIVALS) + 8 * 6 * 2

observation = st.tuples(
    st.integers(0, N_CLAIMS - 1),  # claim
    st.integers(0, 5),  # session
    st.integers(0, 120),  # days before the clock
    st.sampled_from(KINDS),
    st.sampled_from(CONFIDENCES),
    st.booleans(),  # pinned
)
operation = st.one_of(
    st.tuples(st.just("capture"), st.lists(observation, min_size=1, max_size=6),
              st.one_of(st.none(), st.integers(3, 12))),  # fmt: skip
    st.tuples(st.just("forget"), st.integers(0, 10**6)),
    st.tuples(st.just("decide"), st.integers(0, 10**6), st.sampled_from(["adopted", "rejected"])),
    st.tuples(st.just("expire"), st.integers(3, 12)),
    st.tuples(st.just("clock"), st.integers(1, 60)),
    st.tuples(st.just("unseen"), st.lists(observation, min_size=1, max_size=4)),
)
WORDS = [*TOOLS, *AREAS, *VERBS, "branch", "default", "main", "dev", "migrations", "hand", "node",
         "version", "package", "install", "deps", "lint", "tests", "deploy"]  # fmt: skip
prompt = st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join)


@contextlib.contextmanager
def _clock(stamp: str) -> Iterator[None]:
    before = os.environ.get("AGENT_MEMORY_NOW")
    os.environ["AGENT_MEMORY_NOW"] = stamp
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("AGENT_MEMORY_NOW", None)
        else:
            os.environ["AGENT_MEMORY_NOW"] = before


def _stamp(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


def _new_store(root: Path) -> L1Store:
    path = root / "proj"
    path.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    (path / "README.md").write_text("# proj\n")
    subprocess.run(["git", "-C", str(path), "add", "README.md"], check=True)
    subprocess.run(["git", "-C", str(path), "commit", "-q", "-m", "initial"], check=True)
    store = L1Store(gitb.find_repo(path))
    assert store.init()
    return store


def _atoms(observations: list[tuple[Any, ...]], now: float) -> list[dict[str, Any]]:
    out = []
    for number, session, age, kind, confidence, pinned in observations:
        day = time.strftime("%Y-%m-%d", time.gmtime(now - age * 86400))
        extra = {"pinned": True} if pinned else {}
        out.append(l1_atom(claim_of(number), sessions=(f"s{session}",), days=(day,), kind=kind,
                           confidence=confidence, **extra))  # fmt: skip
    return out


def _pick(store: L1Store, number: int) -> str | None:
    ids = sorted(store.snapshot().atoms.load())
    return ids[number % len(ids)] if ids else None


def _forget(store: L1Store, ident: str) -> None:
    def compute(snap: Snapshot) -> Change | None:
        current = snap.atoms.get(ident)
        if current is None:
            return None
        stone = {"id": ident, "claim": current["claim"], "forgotten_at": START, "atom": current}
        return Change(subject="forget: one", trailers=[("Op", "forget"), ("Atom-Id", ident)],
                      tombstone_writes={ident: stone}, deletes={ident})  # fmt: skip

    store.transact(compute)


def _apply(store: L1Store, op: tuple[Any, ...], now: float) -> float:
    name = op[0]
    if name == "capture":
        limits = Limits(cap=op[2], max_age_days=90, held=frozenset()) if op[2] is not None else False
        capture_atoms(store, _atoms(op[1], now), "s", None, limits=limits)
    elif name == "forget":
        ident = _pick(store, op[1])
        if ident:
            _forget(store, ident)
    elif name == "decide":
        ident = _pick(store, op[1])
        if ident:
            record_decisions(store, [(ident, op[2], None)])
    elif name == "expire":
        enforce_limits(store, cap=op[1], max_age_days=90, held=())
    elif name == "clock":
        now += op[1] * 86400
    elif name == "unseen":  # another writer's commit: the index does not follow it at once
        real = L1Store._after_write
        L1Store._after_write = lambda *args, **kw: None  # type: ignore[method-assign]
        try:
            capture_atoms(store, _atoms(op[1], now), "other", None)
        finally:
            L1Store._after_write = real  # type: ignore[method-assign]
    return now


def _answers(index: recall_build.RecallIndex, prompts: list[str], now: float) -> list[Any]:
    out: list[Any] = []
    for text in prompts:
        hits = recall(index, text, now)
        out.append((text, [(h.id, h.kind, h.confidence, h.score, h.last_seen, h.pinned,
                            h.contested_day, h.sessions) for h in hits], render_recall(hits)))  # fmt: skip
    return out


def _compare(store: L1Store, prompts: list[str], now: float) -> None:
    tip = store.tip() or ""
    recall_writer.refresh(store)  # what every reader of a stale index gets
    kept = load_index(store.repo.state)
    assert kept is not None and kept.source_oid == tip
    with tempfile.TemporaryDirectory() as other:  # the same index, rebuilt from nothing
        recall_build.write_index(other, list(store.snapshot(tip).atoms.load().values()), tip)
        rebuilt = load_index(other)
    assert rebuilt is not None
    assert sorted(kept.ids()) == sorted(rebuilt.ids())
    assert contested_dates(kept) == contested_dates(rebuilt)
    assert _answers(kept, prompts, now) == _answers(rebuilt, prompts, now)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=st.lists(operation, min_size=1, max_size=14), prompts=st.lists(prompt, min_size=3, max_size=6),
       compact_min=st.sampled_from([2, 6, 64]))  # fmt: skip
def test_the_kept_index_and_a_rebuilt_one_recall_the_same(
    history: list[tuple[Any, ...]], prompts: list[str], compact_min: int
) -> None:
    real_min = recall_writer.COMPACT_MIN
    recall_writer.COMPACT_MIN = compact_min
    now = float(calendar.timegm(time.strptime(START, "%Y-%m-%dT%H:%M:%SZ")))
    try:
        with tempfile.TemporaryDirectory() as root:
            with _clock(_stamp(now)):
                store = _new_store(Path(root))
            for op in history:
                with _clock(_stamp(now)):
                    now = _apply(store, op, now)
                with _clock(_stamp(now)):
                    _compare(store, prompts, now)
    finally:
        recall_writer.COMPACT_MIN = real_min
