"""benchmarks/restatements.py judges each pair of prompts from what the installed CLI kept; the
judgement is what the figures rest on, and the fixed split is what keeps the score side unread."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from builders import benchmark


def _module() -> Any:
    return benchmark("restatements")


@pytest.mark.parametrize(
    ("kind", "first", "claims", "contested", "expected"),
    [
        ("same", ["Never push to main"], [("Never push to main", 2)], 0, "ok"),
        ("same", ["Never push to main"], [("Never push to main", 1), ("Don't push to main ever", 1)], 0, "two"),
        ("same", [], [("Never push to main", 1)], 0, "missing"),  # A made nothing
        ("same", ["Never push to main"], [("Never push to main", 1)], 0, "missing"),  # B made nothing
        ("conflict", ["Use uv"], [("Use uv", 1), ("Use poetry, not uv", 1)], 1, "ok"),
        ("conflict", ["Use uv"], [("Use uv", 1), ("Use poetry, not uv", 1)], 0, "no-conflict"),
        ("conflict", ["Use uv"], [("Use uv", 2)], 0, "merged"),
        ("distinct", ["Never push to main"], [("Never push to main", 1), ("Never push to staging", 1)], 0, "ok"),
        ("distinct", ["Never push to main"], [("Never push to main", 2)], 0, "merged"),
        ("distinct", ["Never push to main"], [("Never push to main", 1), ("Never push to staging", 1)], 1,
         "false-conflict"),
    ],
)  # fmt: skip
def test_a_pair_is_judged_from_what_was_kept(
    kind: str, first: list[str], claims: list[tuple[str, int]], contested: int, expected: str
) -> None:
    assert _module().outcome(kind, first, claims, contested) == expected


def test_the_split_is_the_one_fixed_before_measuring() -> None:
    folder = Path(__file__).resolve().parent.parent / "benchmarks" / "restatement_pairs"
    split = json.loads((folder / "split.json").read_text("utf-8"))
    ids = [json.loads(line)["id"] for line in (folder / "pairs.jsonl").read_text("utf-8").splitlines()]
    assert len(ids) == len(set(ids)) == len(split["tune"]) + len(split["score"])
    for pair_id in ids:
        side = "score" if int(hashlib.sha256(pair_id.encode()).hexdigest(), 16) % 2 else "tune"
        assert pair_id in split[side]
