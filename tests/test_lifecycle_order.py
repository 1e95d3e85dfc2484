"""Operations on an adopted atom always fold after the line they follow, whatever the clock
says: an adopt dated by its evidence, and a pin made while the clock is behind a transcript's
timestamps (review finding B1)."""

from __future__ import annotations

from builders import committed_atom

from agent_memory.committed.adopted_log import LogEntry
from agent_memory.committed.files import TierFiles


def _files() -> TierFiles:
    return TierFiles("L2", "CLAUDE.memory.md", "", "")


def test_a_pin_stamped_before_the_adopt_line_still_applies() -> None:
    atom = committed_atom("Never push to main", last_seen="2026-11-30T09:00:00Z")
    files = _files().append([LogEntry(op="adopt", atom=atom, at="2026-11-30T09:00:00Z")])
    pinned = {**atom, "pinned": True}
    files = files.append([LogEntry(op="pin", atom=pinned, at="2026-11-30T08:00:00Z")])
    assert files.held()[atom["id"]].get("pinned") is True
    assert "### Pinned" in files.target_text


def test_forget_undo_and_readopt_with_an_old_evidence_date_is_held_again() -> None:
    atom = committed_atom("Never push to main", last_seen="2026-11-01T09:00:00Z")
    files = _files().append([LogEntry(op="adopt", atom=atom, at="2026-11-01T09:00:00Z")])
    files = files.append([LogEntry(op="forget", atom=atom, at="2026-11-05T10:00:00Z")])
    assert atom["id"] not in files.held()
    files = files.append([LogEntry(op="adopt", atom=atom, at="2026-11-01T09:00:00Z")])
    assert atom["id"] in files.held()
    assert files.entries()[-1].at == "2026-11-05T10:00:01Z"
