"""adopt writes the memory files over their old bytes and cuts them to length (no truncation to
zero first: ext4 flushes such a file on close). The result must be exactly the new bytes, whatever
the old file held."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_memory.adoption.adopt import write_files
from agent_memory.committed.files import TierFiles


@pytest.mark.parametrize(
    ("old_log", "new_log"),
    [
        ("", "one\n"),  # a new file
        ("one\n", "one\ntwo\n"),  # the log grows
        ("one\ntwo\nthree\n", "uno\n"),  # shorter: the tail is cut
        ("é" * 5000, "a"),  # multi-byte, much longer before
    ],
)
def test_the_files_hold_exactly_the_new_bytes(tmp_path: Path, old_log: str, new_log: str) -> None:
    log = tmp_path / ".memory" / "adopted.log"
    if old_log:
        log.parent.mkdir()
        log.write_text(old_log, "utf-8")
    block = tmp_path / "CLAUDE.memory.md"
    block.write_text("x" * 10_000)
    write_files(tmp_path, TierFiles("L2", "CLAUDE.memory.md", new_log, "# memory\n"))
    assert log.read_bytes() == new_log.encode("utf-8")
    assert block.read_bytes() == b"# memory\n"
