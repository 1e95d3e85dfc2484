"""A forked session's copy of an earlier session's record is no second sighting, also once
that session's evidence quote was trimmed from the atom (atom.select_evidence keeps the first,
the latest and one a day of the latest days; every session id stays). `claude --resume <id>
--fork-session` copies the records, `uuid` and `timestamp` kept, `sessionId` rewritten
(docs/claude-client-records.md). Through the real CLI on transcripts as the client writes them."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from sessions import gm, gm_json, write_session
from test_cli_capture import _forked

RULE = "Never push directly to main."
DAYS = [(dt.date(2026, 11, 1) + dt.timedelta(days=n)).isoformat() for n in range(10)]
SESSIONS = [f"cccccccc-0000-4000-8000-0000000000{n:02d}" for n in range(10)]


def _push(project: Path) -> dict:
    [atom] = [a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if "push directly" in a["claim"]]
    return atom


def test_a_fork_of_a_session_whose_evidence_was_trimmed_is_no_second_sighting(guarded: Path) -> None:
    """Ten sessions on ten days said the rule: the third one's quote is not kept (neither the
    first, the latest, nor one of the latest six days'). A fork of it was counted as an
    eleventh session — its copy was known only by the kept evidence."""
    transcripts = [write_session(guarded, s, d, [{"user": RULE}]) for s, d in zip(SESSIONS, DAYS, strict=True)]
    gm(guarded, "capture", "--all", "--no-stage")
    before = _push(guarded)
    parent = SESSIONS[2]
    assert len(before["sessions"]) == 10 and parent not in {e["session"] for e in before["evidence"]}, before
    fork_id = "cccccccc-0000-4000-8000-000000000099"
    own = write_session(guarded, fork_id, "2026-11-20", [{"user": "Always use pnpm, not npm."}])
    fork = _forked(transcripts[2], fork_id, own)
    gm(guarded, "capture", str(fork), "--session", fork_id, "--no-stage")
    after = _push(guarded)
    assert (after["sessions"], after["observations"]) == (before["sessions"], before["observations"]), after
    # the fork's own line is the fork's
    assert any("pnpm" in a["claim"] and a["sessions"] == [fork_id]
               for a in gm_json(guarded, "inspect", "--tier", "L1")["atoms"])  # fmt: skip


def test_a_fork_of_a_memory_write_whose_evidence_was_trimmed_is_no_second_sighting(guarded: Path) -> None:
    """Claude's own memory, written in ten sessions on ten days: the third session's quote is not
    kept. Its fork (the Write call copied, uuid and time kept) and the parent resumed after the
    fork (its transcript last written after the fork's): one call record in two sessions, and
    the store held it from neither as far as the kept evidence said — the session whose
    transcript ended first, the fork, was taken as the writer: an eleventh session."""
    import os

    from memory_writes import prompt, save, write
    from test_auto_memory_writes import RULE as NOTE_RULE
    from test_auto_memory_writes import TEXT, _migrations_note

    _folder, target, cwd = _migrations_note(guarded)
    transcripts = []
    for n, (session, day) in enumerate(zip(SESSIONS, DAYS, strict=True)):
        path = save(target.parent.parent / f"{session}.jsonl",
                    [prompt(session, f"{day}T09:00:00Z", "migrations first?", cwd=cwd),
                     *write(session, f"{day}T09:00:05Z", target, TEXT, call_id=f"t{n}", cwd=cwd)])  # fmt: skip
        os.utime(path, (1_790_000_000 + n * 86_400, 1_790_000_000 + n * 86_400))
        transcripts.append(path)
    gm(guarded, "capture", "--all", "--no-stage")

    def note() -> dict:
        [atom] = [a for a in gm_json(guarded, "inspect", "--tier", "L1")["atoms"]
                  if a.get("origin") == "auto-memory" and "migrations" in a["claim"].lower()]  # fmt: skip
        return atom

    before = note()
    parent = SESSIONS[2]
    assert len(before["sessions"]) == 10 and parent not in {e["session"] for e in before["evidence"]}, before
    fork_id = "cccccccc-0000-4000-8000-000000000099"
    records = [{**json.loads(line), "sessionId": fork_id} for line in transcripts[2].read_text("utf-8").splitlines()]
    own = prompt(fork_id, "2026-11-20T10:00:00Z", "now something else entirely", cwd=cwd)
    fork = save(transcripts[2].with_name(f"{fork_id}.jsonl"), [*records, {**own, "uuid": f"u-{fork_id}"}])
    os.utime(fork, (1_790_000_000 + 20 * 86_400, 1_790_000_000 + 20 * 86_400))
    os.utime(transcripts[2], (1_790_000_000 + 21 * 86_400, 1_790_000_000 + 21 * 86_400))  # resumed after
    # anything that makes the folder be read again (the fork's own note)
    (target.parent / "feedback_other.md").write_text(TEXT.replace(NOTE_RULE, "Never commit the generated files."))
    gm(guarded, "capture", "--all", "--no-stage")
    after = note()
    assert (after["sessions"], after["observations"]) == (before["sessions"], before["observations"]), after


def test_extract_of_a_file_copying_a_trimmed_line_under_its_old_session_lists_it_as_a_copy(guarded: Path) -> None:
    """A file that opens with the earlier session's records under their old sessionId (reported
    for some client versions; docs/claude-client-records.md), the earlier session's quote of the
    rule trimmed from the atom: capture adds no sighting for the copied line (its record is in
    `records_omitted`, its (session, line) in `evidence_omitted`), but `git memory extract`
    looked only at the kept evidence and listed it as the file's own claim. The dry run asks the
    store as capture does; the earlier session's own file is listed as before."""
    transcripts = [write_session(guarded, s, d, [{"user": RULE}]) for s, d in zip(SESSIONS, DAYS, strict=True)]
    gm(guarded, "capture", "--all", "--no-stage")
    before = _push(guarded)
    parent = transcripts[2]
    assert parent.stem not in {e["session"] for e in before["evidence"]}, before
    new_id = "cccccccc-0000-4000-8000-000000000098"
    own = write_session(guarded, new_id, "2026-11-20", [{"user": "Always use pnpm, not npm."}])
    fork = parent.with_name(f"{new_id}.jsonl")
    fork.write_text(parent.read_text("utf-8") + own.read_text("utf-8"), "utf-8")

    listed = gm_json(guarded, "extract", "--transcript", str(fork))
    claims = [a["claim"] for a in listed["atoms"] + listed["pending"]]
    assert not any("push" in c for c in claims) and any("pnpm" in c for c in claims), listed
    assert [c["claim"] for c in listed["copies"]] == [before["claim"]], listed["copies"]
    # what extract listed is what capture counts, no more
    observed = {a["id"]: a["observations"] for a in gm_json(guarded, "inspect", "--tier", "L1")["atoms"]}
    gm(guarded, "capture", str(fork), "--session", new_id, "--no-stage")
    after = {a["id"]: a["observations"] for a in gm_json(guarded, "inspect", "--tier", "L1")["atoms"]}
    assert {i for i, n in after.items() if n > observed.get(i, 0)} == {a["id"] for a in listed["atoms"] + listed["pending"]}
    assert _push(guarded)["sessions"] == before["sessions"]
    # the earlier session's own file, read again, lists its line as before
    again = gm_json(guarded, "extract", "--transcript", str(parent))
    assert again["copies"] == [] and any("push" in a["claim"] for a in again["atoms"] + again["pending"]), again
