"""The L1 cap and expiry against an adopt landing while a capture runs (review of session 50):
capture read the adopted ids once, before its memory/atoms transaction, so an atom adopted
between that read and the write was evicted and the L1 record of an adopted line (its
provenance) lost. Real repositories, a real `git memory adopt` in a process of its own."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from builders import l1_atom
from sessions import gm_installed
from test_adopt import init_project, l1_record, log_lines, stage_claims

from agent_memory.gitio import repo as gitb
from agent_memory.store.capture import Limits, capture_atoms, enforce_limits
from agent_memory.store.l1 import L1Store


def _adopt_on_first_transact(monkeypatch: pytest.MonkeyPatch, repo: Path, ident: str) -> list[str]:
    """Make the first memory/atoms transaction of this process begin with a real adopt of
    `ident` from another process: the point after capture starts and before it writes."""
    real = L1Store.transact
    ran: list[str] = []

    def transact(self: L1Store, compute: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not ran:
            ran.append(gm_installed(repo, "adopt", "--yes", ident).stdout)
        return real(self, compute, *args, **kwargs)

    monkeypatch.setattr(L1Store, "transact", transact)
    return ran


def _staged(repo: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, str], L1Store]:
    """test_adopt's three claims staged (the real CLI), and the repository's store."""
    init_project(repo, monkeypatch)
    return stage_claims(repo), L1Store(gitb.find_repo(repo))


def test_an_atom_adopted_while_a_capture_runs_keeps_its_l1_record(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ids, store = _staged(repo, monkeypatch)
    target = ids["push"]
    ran = _adopt_on_first_transact(monkeypatch, repo, target)
    newer = l1_atom("Deploy only from the release branch", days=("2026-11-05",))
    # A cap of one: every atom that is not adopted goes (the adopted one counts toward the cap).
    result = capture_atoms(store, [newer], "s9", None, limits=Limits(cap=1))
    assert ran, "the adopt did not run"
    assert target in {e["atom"]["id"] for e in log_lines(repo)}  # the adopt landed
    assert result.commit is not None
    assert target not in result.evicted
    assert {a["id"] for a in store.atoms()} == {target}
    assert l1_record(repo, target)["review"]["state"] == "adopted"
    # the others, not adopted, were evicted over the cap as before
    assert set(result.evicted) == {ids["pytest"], ids["tabs"], newer["id"]}


def test_enforce_limits_spares_an_atom_adopted_after_it_was_called(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ids, store = _staged(repo, monkeypatch)
    target = ids["tabs"]
    ran = _adopt_on_first_transact(monkeypatch, repo, target)
    # A cap of none: every atom goes but the adopted one (which still counts toward the cap).
    assert enforce_limits(store, cap=0) is not None
    assert ran
    assert {a["id"] for a in store.atoms()} == {target}
    assert l1_record(repo, target)["review"]["state"] == "adopted"


def test_capture_leaves_the_limits_while_another_process_holds_the_memory_lock(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """An adopt committing holds the memory lock: capture does not wait for it (a session's
    end would), it writes what it captured and leaves the cap to a later write."""
    import subprocess
    import sys

    ids, store = _staged(repo, monkeypatch)
    lock = store.repo.state / "memory.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
         "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()", str(lock)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        newer = l1_atom("Deploy only from the release branch", days=("2026-11-05",))
        result = capture_atoms(store, [newer], "s9", None, limits=Limits(cap=1))
        assert result.commit is not None and result.new == [newer["id"]]
        assert result.evicted == [] and result.expired == []
        assert set(ids.values()) | {newer["id"]} <= {a["id"] for a in store.atoms()}
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait()
    # the lock free again, the next write applies the cap
    again = capture_atoms(store, [l1_atom("Tag releases as vX.Y.Z", days=("2026-11-05",))], "s10", None,
                          limits=Limits(cap=1))  # fmt: skip
    assert again.evicted
    json.dumps(again.to_json())
