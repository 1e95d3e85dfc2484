"""`TranscriptIndex` lists the transcripts once for a batch of back-pointers (adopt checks two
per item) and answers exactly as `resolve_pointer`, which walks the folders for each one."""

from __future__ import annotations

import os
from pathlib import Path

from agent_memory.model.paths import TranscriptIndex, projects_dir, resolve_pointer

POINTERS = [
    "a.jsonl#L3", "b.jsonl#L1", "agent-x.jsonl#L2", "agent-y.jsonl#L9", ".c.jsonl#L1", "d.jsonl#L4",
    "e.jsonl#L5", "f.jsonl#L6", "g.jsonl#L7", "nowhere.jsonl#L1", "a.jsonl", "*.jsonl#L1", "[ab].jsonl#L1",
    "~/.claude/projects/p1/a.jsonl#L3", "~/.claude/projects/p1/agent-x.jsonl#L2", "notes.md#L2",
    "~/.claude/projects/p1/memory/notes.md#L2", "#L3", "s1#L1",
]  # fmt: skip


def _tree(root: Path, outside: Path) -> None:
    for rel in ("p1/a.jsonl", "p2/a.jsonl", "p1/s1/subagents/agent-x.jsonl", "p2/agent-x.jsonl",
                "p2/s9/subagents/agent-y.jsonl", ".hidden/b.jsonl", "p1/.c.jsonl", "p1/memory/notes.md",
                "p2/s2", "p2/s2x/subagents/g.jsonl"):  # fmt: skip
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("{}\n")
    (root / "p1" / "d.jsonl").mkdir()  # a folder, not a transcript
    (outside / "e.jsonl").write_text("{}\n")
    (root / "linked").symlink_to(outside, target_is_directory=True)  # a project folder through a link
    (root / "p1" / "f.jsonl").symlink_to(outside / "gone.jsonl")  # a broken link
    os.chmod(root / "p2" / "s2x", 0o000)  # unreadable: skipped by both


def test_the_index_answers_as_resolve_pointer_for_every_kind_of_pointer(tmp_path: Path) -> None:
    root = projects_dir()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    _tree(root, outside)
    try:
        index = TranscriptIndex()
        for pointer in POINTERS:
            assert index.resolve(pointer) == resolve_pointer(pointer), pointer
        assert index.resolve("a.jsonl#L3")[0] == "ambiguous" and index.resolve("e.jsonl#L5")[0] == "ok"
        # Listed once: a transcript removed since is no longer matched, as the walk would say.
        (root / "p2" / "a.jsonl").unlink()
        assert index.resolve("a.jsonl#L3") == resolve_pointer("a.jsonl#L3") == ("ok", [root / "p1" / "a.jsonl"], 3)
    finally:
        os.chmod(root / "p2" / "s2x", 0o755)


def test_without_a_projects_folder_everything_is_missing() -> None:
    assert not projects_dir().exists() or not any(projects_dir().iterdir())
    assert TranscriptIndex().resolve("a.jsonl#L3") == resolve_pointer("a.jsonl#L3") == ("missing", [], 3)
