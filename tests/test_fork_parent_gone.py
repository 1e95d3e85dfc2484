"""A forked session's copies of its parent's records are no sighting also once the parent's
transcript is gone: Claude Code deletes transcripts older than `cleanupPeriodDays`, and the fork
(`claude --resume <id> --fork-session`: `<new>.jsonl` opening with copies of the parent's records,
`uuid` and `timestamp` kept, `sessionId` rewritten; docs/claude-client-records.md) is then the
only file showing the parent's memory Write call. The store knows the call from the parent's
capture. Through the real SessionEnd capture (`git memory hook background-capture`) and
`git memory capture --all` on transcripts in the shapes the pinned client writes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from memory_writes import prompt, save, topic, write
from races import background_capture, errors_log
from sessions import gm, gm_json
from test_auto_memory_writes import TEXT, _migrations_note

PARENT = "dddddddd-0000-4000-8000-000000000001"
FORKS = ["dddddddd-0000-4000-8000-000000000002", "dddddddd-0000-4000-8000-000000000003"]
OTHER = "Never commit the generated files."


def _note(repo: Path) -> dict:
    [atom] = [a for a in gm_json(repo, "inspect", "--tier", "L1")["atoms"]
              if a.get("origin") == "auto-memory" and "migrations" in a["claim"].lower()]  # fmt: skip
    return atom


def _fork(parent: Path, fork_id: str, day: str, cwd: str) -> Path:
    """The fork's file: the parent's records copied, then the fork's own prompt and its own
    memory Write (another note: the folder changed, so the capture reads it again)."""
    copied = [{**json.loads(line), "sessionId": fork_id} for line in parent.read_text("utf-8").splitlines()]
    other = parent.parent / "memory" / f"feedback_{fork_id[-1]}.md"
    text = topic("Generated files", OTHER, session=fork_id)
    other.write_text(text, "utf-8")
    own = [{**prompt(fork_id, f"{day}T10:00:00Z", "now something else entirely", cwd=cwd), "uuid": f"u-{fork_id}"},
           *write(fork_id, f"{day}T10:00:05Z", other, text, call_id=f"w-{fork_id}", cwd=cwd)]  # fmt: skip
    return save(parent.with_name(f"{fork_id}.jsonl"), [*copied, *own])


@pytest.mark.parametrize("forks", [1, 2], ids=["one-fork-session-end", "two-forks-capture-all"])
def test_a_forks_copy_of_a_memory_write_whose_parent_transcript_is_gone_is_no_sighting(guarded: Path,
                                                                                       forks: int) -> None:  # fmt: skip
    """The parent wrote the memory and was captured; its transcript was then deleted. The fork's
    copy of the Write call was a group of one (or, two forks, of two sessions the store held it
    from neither of): `without_copies` compared only the sessions read now, so the fork counted
    as one more session that wrote the memory — a recurrence made of one write. The store holds
    the call from the parent: the copies are no sighting."""
    _folder, target, cwd = _migrations_note(guarded)
    parent = save(target.parent.parent / f"{PARENT}.jsonl",
                  [prompt(PARENT, "2026-11-02T09:00:00Z", "migrations first?", cwd=cwd),
                   *write(PARENT, "2026-11-02T09:00:05Z", target, TEXT, call_id="t1", cwd=cwd)])  # fmt: skip
    gm(guarded, "capture", "--all", "--no-stage")  # the parent's SessionEnd
    before = _note(guarded)
    assert (before["sessions"], before["observations"]) == ([PARENT], 1), before

    made = [_fork(parent, fork_id, f"2026-11-0{3 + n}", cwd) for n, fork_id in enumerate(FORKS[:forks])]
    parent.unlink()  # cleanupPeriodDays: the parent's transcript is gone, its memory stays
    if forks == 1:
        proc = subprocess.run(background_capture(guarded, made[0], FORKS[0]), cwd=guarded, capture_output=True,
                              text=True, timeout=300)  # fmt: skip
        assert proc.returncode == 0, proc.stdout + proc.stderr
    else:
        gm(guarded, "capture", "--all", "--no-stage")
    after = _note(guarded)
    assert (after["sessions"], after["observations"]) == (before["sessions"], before["observations"]), after
    # the forks' own writes are theirs: the capture read the folder and kept what is new
    [other] = [a for a in gm_json(guarded, "inspect", "--tier", "L1")["atoms"] if "generated files" in a["claim"].lower()]
    assert other["sessions"] == sorted(FORKS[:forks]), other
    assert "capture" not in errors_log(guarded), errors_log(guarded)


def test_a_fork_of_a_trimmed_memory_write_whose_parent_transcript_is_gone_is_no_sighting(guarded: Path) -> None:
    """Claude's own memory written in ten sessions on ten days: the third session's quote is not
    kept (only its record's fingerprint, `records_omitted`), and its transcript is gone. Its
    fork's copy of the Write call is known from that fingerprint, tried against the sessions of
    the store's atoms of Claude's own memory: the fork's session is none of them."""
    _folder, target, cwd = _migrations_note(guarded)
    sessions = [f"dddddddd-0000-4000-8000-0000000001{n:02d}" for n in range(10)]
    transcripts = []
    for n, session in enumerate(sessions):
        day = f"2026-11-{n + 1:02d}"
        transcripts.append(save(target.parent.parent / f"{session}.jsonl",
                                [prompt(session, f"{day}T09:00:00Z", "migrations first?", cwd=cwd),
                                 *write(session, f"{day}T09:00:05Z", target, TEXT, call_id=f"t{n}", cwd=cwd)]))  # fmt: skip
    gm(guarded, "capture", "--all", "--no-stage")
    before = _note(guarded)
    assert len(before["sessions"]) == 10 and sessions[2] not in {e["session"] for e in before["evidence"]}, before
    _fork(transcripts[2], FORKS[0], "2026-11-20", cwd)
    transcripts[2].unlink()
    gm(guarded, "capture", "--all", "--no-stage")
    after = _note(guarded)
    assert (after["sessions"], after["observations"]) == (before["sessions"], before["observations"]), after
    [other] = [a for a in gm_json(guarded, "inspect", "--tier", "L1")["atoms"] if "generated files" in a["claim"].lower()]
    assert other["sessions"] == [FORKS[0]], other


def test_extract_auto_memory_lists_what_capture_counts_once_the_parent_is_gone(guarded: Path) -> None:
    """The dry run left out the fork's copy of the Write call, as capture does, but then listed
    the note the copy was the only write of: capture takes such a note for the folder's copy of
    what the store already holds as Claude's own memory, and counts nothing of it. What the dry
    run lists is what capture then counts; the note is a skip, saying why."""
    _folder, target, cwd = _migrations_note(guarded)
    parent = save(target.parent.parent / f"{PARENT}.jsonl",
                  [prompt(PARENT, "2026-11-02T09:00:00Z", "migrations first?", cwd=cwd),
                   *write(PARENT, "2026-11-02T09:00:05Z", target, TEXT, call_id="t1", cwd=cwd)])  # fmt: skip
    gm(guarded, "capture", "--all", "--no-stage")
    held = _note(guarded)
    _fork(parent, FORKS[0], "2026-11-03", cwd)
    parent.unlink()
    dry = gm_json(guarded, "extract", "--auto-memory")
    listed = {a["id"] for a in dry["atoms"]}
    assert held["id"] not in listed, dry
    assert [s["file"] for s in dry["skipped"]] == [target.name], dry
    assert "already" in dry["skipped"][0]["reason"], dry
    captured = gm_json(guarded, "capture", "--all", "--no-stage")["auto_memory"]
    assert set(captured["new"]) | set(captured["merged"]) == listed and listed, captured
    assert _note(guarded)["observations"] == held["observations"]
