"""Provenance and recurrence of Claude Code's own memory (issue 27 §2, §3): the transcript line of
the tool call that last wrote or edited a memory file is its back-pointer, and each distinct
session that wrote or edited it with the same rule is one observation; loading is not one."""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_writes import edit, prompt, save, topic, write

from agent_memory.automemory.notes import read_folder
from agent_memory.automemory.writes import FolderMatch, WriteIndex, find_writes
from agent_memory.extract.memory_notes import extract_folder, write_sightings
from agent_memory.model.atom import atom_errors

SLUG = "-home-user-proj"
RULE = "Run the migrations before the tests, never after."
TEXT = topic("Migrations run before tests", RULE, session="s-one")


@pytest.fixture
def projects(isolated_env: Path) -> Path:
    return isolated_env / ".claude" / "projects"


@pytest.fixture
def folder(projects: Path) -> Path:
    path = projects / SLUG / "memory"
    path.mkdir(parents=True)
    return path


def test_writes_are_read_from_the_calls_and_their_results(projects: Path, folder: Path, tmp_path: Path) -> None:
    target = folder / "feedback_migrations.md"
    records = [
        prompt("s-one", "2026-11-02T09:00:00Z", "remember: migrations first"),
        *write("s-one", "2026-11-02T09:00:05Z", target, TEXT, call_id="toolu_1"),
        *write("s-one", "2026-11-02T09:00:06Z", tmp_path / "elsewhere.md", TEXT, call_id="toolu_2"),
        *write("s-one", "2026-11-02T09:00:07Z", folder / "feedback_denied.md", TEXT, call_id="toolu_3", error=True),
        *edit("s-one", "2026-11-02T09:01:00Z", target, TEXT, "it broke twice", "it broke three times", call_id="toolu_4"),
    ]
    transcript = save(projects / SLUG / "s-one.jsonl", records)
    found = find_writes(transcript, FolderMatch(folder))
    assert [(w.file, w.tool, w.line, w.session) for w in found] == [
        ("feedback_migrations.md", "Write", 2, "s-one"), ("feedback_migrations.md", "Edit", 8, "s-one")]
    assert all(w.rule == RULE for w in found)  # the Edit's result rebuilt from originalFile
    # A transcript recorded under another home still names this project's folder.
    moved = [dict(r) for r in records]
    other = str(target).replace(str(projects.parent.parent), "/home/someone-else")
    for record in moved:
        for block in (record.get("message") or {}).get("content") or []:
            if isinstance(block, dict) and block.get("type") == "tool_use":
                block["input"] = {**block["input"], "file_path": block["input"]["file_path"].replace(str(target), other)}
    assert [w.file for w in find_writes(save(tmp_path / "moved.jsonl", moved), FolderMatch(folder))][:1] == ["feedback_migrations.md"]


def test_each_session_that_wrote_the_rule_is_one_observation(projects: Path, folder: Path) -> None:
    target = folder / "feedback_migrations.md"
    edited = TEXT.replace("it broke twice", "the schema drifted").replace("s-one", "s-two")
    save(projects / SLUG / "s-one.jsonl", write("s-one", "2026-11-02T09:00:05Z", target, TEXT, call_id="t1"))
    save(projects / SLUG / "s-two.jsonl",
         [prompt("s-two", "2026-11-03T10:00:00Z", "fix the flaky test"),
          *edit("s-two", "2026-11-03T10:00:04Z", target, TEXT, "it broke twice", "the schema drifted", call_id="t2")])
    target.write_text(edited, "utf-8")
    transcripts = sorted((projects / SLUG).glob("*.jsonl"))
    writes = WriteIndex(projects.parent / "repo-git", folder).refresh(transcripts)
    [atom] = extract_folder(folder, "proj", SLUG, writes).atoms
    assert atom["sessions"] == ["s-one", "s-two"] and atom["observations"] == 2
    assert atom["first_source"] == f"~/.claude/projects/{SLUG}/s-one.jsonl#L1"
    assert atom["source"] == f"~/.claude/projects/{SLUG}/s-two.jsonl#L2"  # the edit's call, not its result
    assert atom["first_seen"] == "2026-11-02T09:00:05Z" and atom["last_seen"] == "2026-11-03T10:00:04Z"
    assert atom_errors(atom) == []


def test_a_rewrite_that_changes_the_rule_is_a_new_version(projects: Path, folder: Path) -> None:
    target = folder / "feedback_migrations.md"
    changed = TEXT.replace(RULE, "Run the migrations after the fixtures load.").replace("s-one", "s-two")
    save(projects / SLUG / "s-one.jsonl", write("s-one", "2026-11-02T09:00:05Z", target, TEXT, call_id="t1"))
    save(projects / SLUG / "s-two.jsonl", write("s-two", "2026-11-03T09:00:05Z", target, changed, call_id="t2"))
    target.write_text(changed, "utf-8")
    writes = WriteIndex(projects.parent / "repo-git", folder).refresh(sorted((projects / SLUG).glob("*.jsonl")))
    [atom] = extract_folder(folder, "proj", SLUG, writes).atoms
    assert atom["claim"] == "Run the migrations after the fixtures load" and atom["sessions"] == ["s-two"]


def test_the_stamped_session_counts_when_its_transcript_is_not_here(folder: Path) -> None:
    target = folder / "feedback_migrations.md"
    target.write_text(TEXT.replace("s-one", "s-gone"), "utf-8")
    notes = read_folder(folder).notes
    sightings = write_sightings(notes, [], SLUG)
    assert [(s.session, s.pointer) for s in sightings["feedback_migrations.md"]] == [
        ("s-gone", f"~/.claude/projects/{SLUG}/s-gone.jsonl#L0")]


def test_a_transcript_is_read_again_only_when_it_changed(projects: Path, folder: Path, tmp_path: Path) -> None:
    target = folder / "feedback_migrations.md"
    transcript = save(projects / SLUG / "s-one.jsonl", write("s-one", "2026-11-02T09:00:05Z", target, TEXT, call_id="t1"))
    common = tmp_path / "git"
    first = WriteIndex(common, folder)
    assert len(first.refresh([transcript])) == 1 and first.changed
    first.save()
    again = WriteIndex(common, folder)
    assert len(again.refresh([transcript])) == 1 and not again.changed  # from the cache, not read
    with transcript.open("a", encoding="utf-8") as fh:
        fh.write('{"type": "user", "message": {"content": "more"}}\n')
    grown = WriteIndex(common, folder)
    assert len(grown.refresh([transcript])) == 1 and grown.changed  # read again
    assert WriteIndex(common, folder / "other").entries == {}  # another folder: another cache
