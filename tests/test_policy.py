"""The README's limits are the code's: each row of its Limits table against model/policy.py,
and the one expiry/eviction rule on atoms (pinned and held atoms exempt, but counted)."""

from __future__ import annotations

import datetime as _dt
import re
from pathlib import Path

from agent_memory.model import policy

ROOT = Path(__file__).resolve().parent.parent
NOW = _dt.datetime(2026, 11, 30, 12, tzinfo=_dt.UTC)


def _limits_table() -> dict[str, list[int]]:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Limits") :]
    section = section[: section.index("\n## ", 1)]
    rows = re.findall(r"^\| ([^|]+?) \| ([^|]+?) \|$", section, re.M)
    return {name: [int(n) for n in re.findall(r"\d+", value)] for name, value in rows[1:]}


def test_the_readme_limits_are_the_policy_constants() -> None:
    table = _limits_table()
    expected = {
        "L1 → L2: distinct sessions (observed / stated)": [policy.L1_TO_L2_SESSIONS, policy.L1_TO_L2_STATED_SESSIONS],
        "L1 → L2: distinct UTC days": [policy.L1_TO_L2_DAYS],
        "L1 cap (pending claims, then the oldest last seen, are evicted)": [policy.L1_CAP],
        "L1 expiry (not seen again)": [policy.L1_MAX_AGE_DAYS],
        "L2 cap per project (overflow goes back to L1)": [policy.L2_CAP],
        "L2 → L3: projects / days held at L2": [policy.L3_MIN_PROJECTS, policy.L2_MIN_AGE_DAYS],
        "L3 cap (inflow refused)": [policy.L3_CAP],
        "session-start context: L2 / L3": [policy.L2_BUDGET_BYTES, policy.L3_BUDGET_BYTES],
        "per-prompt recall: atoms / size / time": [
            policy.RECALL_TOP_K, policy.RECALL_BUDGET_BYTES, round(policy.RECALL_BUDGET_S * 1000)
        ],
    }  # fmt: skip
    assert table == expected


def _atom(ident: str, last_seen: str, **extra: object) -> dict[str, object]:
    return {"id": ident, "last_seen": last_seen, **extra}


def test_expiry_and_eviction_spare_pinned_and_held_atoms_but_count_them() -> None:
    atoms = [
        _atom("old", "2026-08-01T00:00:00Z"),
        _atom("old-pinned", "2026-08-01T00:00:00Z", pinned=True),
        _atom("old-held", "2026-08-01T00:00:00Z"),
        _atom("a", "2026-11-01T00:00:00Z"),
        _atom("b", "2026-11-02T00:00:00Z"),
        _atom("c", "2026-11-03T00:00:00Z"),
    ]
    expired, evicted = policy.l1_evictions(atoms, NOW, held={"old-held"}, cap=3)
    assert expired == ["old"]
    # five remain, two over the cap: the oldest movable ones go, never the pinned or held
    assert evicted == ["a", "b"]


def test_pending_claims_are_evicted_before_atoms_however_recent() -> None:
    # said once and held by the durability gate: no atom yet, so the first to make room
    atoms = [
        _atom("old", "2026-11-01T00:00:00Z", sessions=["s1", "s2"]),
        _atom("pending-new", "2026-11-05T00:00:00Z", sessions=["s3"], pending=True),
        _atom("newer", "2026-11-03T00:00:00Z", sessions=["s4"]),
        _atom("pending-newest", "2026-11-06T00:00:00Z", sessions=["s5"], pending=True),
    ]
    _, evicted = policy.l1_evictions(atoms, NOW, cap=2)
    assert evicted == ["pending-new", "pending-newest"]
    _, evicted = policy.l1_evictions(atoms, NOW, cap=1)
    assert evicted == ["pending-new", "pending-newest", "old"]


def test_expiry_is_strictly_past_the_limit() -> None:
    edge = (NOW - _dt.timedelta(days=policy.L1_MAX_AGE_DAYS)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert not policy.is_expired(_atom("x", edge), NOW)
    past = (NOW - _dt.timedelta(days=policy.L1_MAX_AGE_DAYS, seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert policy.is_expired(_atom("x", past), NOW)


def test_the_recall_budget_can_be_widened_but_not_broken(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(policy.RECALL_BUDGET_ENV, "250")
    assert policy.recall_budget_s() == 0.25
    for bad in ("", "nonsense", "-5", "0"):
        monkeypatch.setenv(policy.RECALL_BUDGET_ENV, bad)
        assert policy.recall_budget_s() == policy.RECALL_BUDGET_S
