"""`validate --fix`'s union of a conflict git left in .memory/adopted.log (committed/log_conflict.py)."""

from __future__ import annotations

import json
from pathlib import Path

from agent_memory.committed import log_conflict
from tests.conftest import git


def _line(claim: str, at: str) -> str:
    atom = {"id": "atm_00000000", "claim": claim}
    return json.dumps({"at": at, "atom": atom, "op": "adopt"}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False) + "\n"


def _conflicted_log(repo: Path, ours: str, theirs: str) -> None:
    log = repo / ".memory" / "adopted.log"
    log.parent.mkdir()
    log.write_text(_line("base", "2026-01-01T00:00:00Z"), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "side")
    with log.open("a", encoding="utf-8") as fh:
        fh.write(theirs)
    git(repo, "commit", "-qam", "theirs")
    git(repo, "checkout", "-q", "main")
    with log.open("a", encoding="utf-8") as fh:
        fh.write(ours)
    git(repo, "commit", "-qam", "ours")
    assert "CONFLICT" in git(repo, "merge", "side", check=False) or log_conflict.has_markers(log.read_text("utf-8"))


def test_the_union_keeps_a_line_whose_json_string_holds_a_raw_line_separator(repo: Path) -> None:
    """A line written by hand or by another tool may hold U+2028, U+2029 or U+0085 raw inside a
    JSON string (legal JSON; adopted_log.parse splits on "\\n" only for this reason). The union
    must not cut such a line in two: that dropped the adopted atom from the log it wrote."""
    ours = _line("Use pnpm\u2028not npm", "2026-01-02T00:00:00Z")
    theirs = _line("Wrap at 100\x85columns", "2026-01-03T00:00:00Z")
    _conflicted_log(repo, ours, theirs)
    merged = log_conflict.union(repo)
    assert merged is not None
    assert merged.endswith("\n")
    claims = [json.loads(line)["atom"]["claim"] for line in merged[:-1].split("\n")]  # each line whole
    assert claims == ["base", "Use pnpm\u2028not npm", "Wrap at 100\x85columns"]
