"""Claude's own memory under review (issue 27 §4, §5): observed only, labelled as Claude's own
memory wherever it is shown (review commit, adopt, inspect, status), never recalled per prompt,
committed only through a person's adopt — and a rejection is remembered."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import git
from memory_writes import edit, prompt, save, topic, write
from sessions import gm, gm_json, write_session

from agent_memory.automemory.location import resolve_auto_memory_dir
from agent_memory.model.paths import slug_for

RULE = "Always run the database migrations before the test suite."
CLAIM = "Always run the database migrations before the test suite"
WHY = "the suite assumes the latest schema and fails on a stale one"
HOW = "run make migrate first whenever tests touch the database"


def _capture_folder(repo: Path) -> None:
    """The backfill: the transcripts, then Claude Code's own memory folder."""
    gm(repo, "capture", "--all", "--no-stage")


@pytest.fixture
def remembered(guarded: Path) -> tuple[Path, Path]:
    """The model wrote the memory in one session and edited it (same rule) in two more, over
    two days; the user never typed it."""
    folder = resolve_auto_memory_dir(guarded).path
    transcripts = folder.parent
    target = folder / "feedback_migrations.md"
    first = topic("Migrations run before tests", RULE, session="s-one", why=WHY, how=HOW)
    save(transcripts / "s-one.jsonl", [prompt("s-one", "2026-11-02T09:00:00Z", "why did CI fail?", cwd=str(guarded)),
                                       *write("s-one", "2026-11-02T09:00:05Z", target, first, call_id="t1", cwd=str(guarded))])
    text = first
    for session, day, old, new in (("s-two", "2026-11-02T15:00:00Z", "run make migrate first", "run `make migrate` first"),
                                   ("s-three", "2026-11-03T10:00:00Z", "fails on a stale one", "fails on a stale schema")):
        after = text.replace(old, new)
        save(transcripts / f"{session}.jsonl", edit(session, day, target, text, old, new, call_id=f"e-{session}", cwd=str(guarded)))
        text = after
    folder.mkdir(parents=True, exist_ok=True)
    target.write_text(text, "utf-8")
    return guarded, target


def _claude_atom(repo: Path) -> dict[str, object]:
    [atom] = [a for a in gm_json(repo, "inspect", "--tier", "L1")["atoms"] if a.get("origin") == "auto-memory"]
    return atom


def test_claude_memory_is_observed_labelled_and_reviewed(remembered: tuple[Path, Path]) -> None:
    repo, _ = remembered
    _capture_folder(repo)
    atom = _claude_atom(repo)
    assert atom["claim"] == CLAIM and atom["confidence"] == "observed" and atom["kind"] == "constraint"
    assert atom["sessions"] == ["s-one", "s-three", "s-two"] and atom["memory_file"] == "feedback_migrations.md"

    status = gm(repo, "status").stdout
    assert "1 from Claude's own memory" in status
    why = gm(repo, "inspect", "--why", str(atom["id"])).stdout
    assert "Claude's own memory (feedback_migrations.md): written by Claude Code's model" in why
    assert "s-three.jsonl#L1" in why and "Why: the suite assumes the latest schema" in why
    captures = [c for c in gm_json(repo, "log", str(atom["id"]))["commits"] if c["op"] == "capture"]
    assert [c["source"] for c in captures] == [atom["source"]]  # the last write's call line
    assert f"back-pointer {atom['source']}" in gm(repo, "log", str(atom["id"])).stdout
    overview = gm_json(repo, "inspect")
    assert [c["origin"] for c in overview["L1"] if c["id"] == atom["id"]] == ["auto-memory"]

    # Eligible like any observed atom (3 sessions, 2 days); staged with its label and reasons.
    staged = gm_json(repo, "stage")["commits"]
    assert [c["atom"] for c in staged] == [atom["id"]]
    message = git(repo, "log", "-1", "--format=%B", "memory/review")
    assert "Origin: Claude's own memory (feedback_migrations.md) — written by Claude Code's model" in message
    assert f"Why: {WHY.replace('stale one', 'stale schema')}" in message
    assert "How to apply: run `make migrate` first" in message and "Origin: auto-memory" in message

    listing = gm(repo, "adopt", check=False)  # no terminal: lists what waits, with the label
    assert listing.returncode == 1 and "Claude's own memory (feedback_migrations.md)" in listing.stdout
    assert "(1 from Claude's own memory)" in gm(repo, "status").stdout

    # Committed only through a person's adopt: the rule goes into CLAUDE.memory.md like any item.
    block = repo / "CLAUDE.memory.md"
    assert not block.exists() or CLAIM not in block.read_text("utf-8")
    gm(repo, "adopt", "--yes", str(atom["id"]))
    assert CLAIM in (repo / "CLAUDE.memory.md").read_text("utf-8")
    assert git(repo, "status", "--porcelain") == ""
    assert gm_json(repo, "validate")["ok"]  # its back-pointers, origin and file are valid at L1 and L2


def test_promote_labels_claude_memory_where_a_person_decides_to_stage_it(remembered: tuple[Path, Path]) -> None:
    """`promote` is where a person first sees what may be staged: it listed Claude's own
    memory as a bare claim, as if the user had typed it (inspect, stage and adopt label it)."""
    repo, _ = remembered
    _capture_folder(repo)
    atom = _claude_atom(repo)
    listing = gm(repo, "promote").stdout
    [line] = [ln for ln in listing.splitlines() if str(atom["id"]) in ln]
    assert line.startswith("eligible") and "Claude's own memory (feedback_migrations.md)" in line, listing


def test_claude_memory_is_never_recalled_per_prompt(remembered: tuple[Path, Path]) -> None:
    repo, _ = remembered
    write_session(repo, "typed-1", "2026-11-04", [{"user": "Always run the linter before the test suite."}])
    gm(repo, "capture", "--all")
    _capture_folder(repo)
    recalled = gm_json(repo, "recall", "--prompt", "run the test suite and the database migrations")
    claims = [a["claim"] for a in recalled["atoms"]]
    assert CLAIM not in claims and "migrations" not in recalled["context"]
    assert any("linter" in c for c in claims)  # the user's own typing is recalled as before


def test_a_rejection_is_remembered(remembered: tuple[Path, Path]) -> None:
    repo, _ = remembered
    _capture_folder(repo)
    atom = _claude_atom(repo)
    gm(repo, "stage")
    gm(repo, "adopt", "--reject", str(atom["id"]))
    target = remembered[1]
    os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 10**9))
    _capture_folder(repo)  # the same file again (touched, so it is read again)
    assert gm_json(repo, "stage")["commits"] == []
    assert [b for b in gm_json(repo, "promote")["blocked"] if b["id"] == atom["id"]][0]["reasons"][0].startswith("rejected")
    assert os.path.exists(remembered[1])  # the client's file is left as it is


def test_the_user_typing_the_same_rule_converges_on_one_atom(remembered: tuple[Path, Path]) -> None:
    repo, _ = remembered
    write_session(repo, "typed-1", "2026-11-04", [{"user": RULE}])
    gm(repo, "capture", "--all")
    _capture_folder(repo)
    atoms = [a for a in gm_json(repo, "inspect", "--tier", "L1")["atoms"] if a["claim"] == CLAIM]
    assert len(atoms) == 1
    [atom] = atoms
    assert atom["origin"] == "auto-memory" and "typed-1" in atom["sessions"]
    assert {e["rule"].split(".")[0] for e in atom["evidence"]} >= {"auto_memory"}
    assert any(not e["rule"].startswith("auto_memory") for e in atom["evidence"])  # the typed origin too
    assert slug_for(str(repo.resolve()))  # (the transcripts live under the project's slug)


def test_a_second_capture_over_an_unchanged_folder_writes_nothing(remembered: tuple[Path, Path]) -> None:
    repo, target = remembered
    first = gm_json(repo, "capture", "--all", "--no-stage")
    assert first["auto_memory"]["read"] == "read" and len(first["auto_memory"]["new"]) == 1
    assert first["auto_memory"]["skipped"] == [] and first["auto_memory"]["memories"] == 1
    tip = git(repo, "rev-parse", "memory/atoms")
    again = gm_json(repo, "capture", "--all", "--no-stage")
    assert again["commits"] == 0 and "auto_memory" not in again  # not even read
    assert "nothing new" in gm(repo, "capture", "--all").stdout
    assert git(repo, "rev-parse", "memory/atoms") == tip
    # A change the client makes is read; the same evidence adds nothing.
    os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 10**9))
    touched = gm_json(repo, "capture", "--all", "--no-stage")
    assert touched["auto_memory"]["read"] == "read" and touched["commits"] == 0
    assert git(repo, "rev-parse", "memory/atoms") == tip


def test_the_session_end_capture_reads_the_folder_after_the_transcript(remembered: tuple[Path, Path]) -> None:
    """What SessionEnd starts (`hook background-capture`): the session's transcript, then the
    folder, whose memory the transcripts show written in three sessions."""
    repo, target = remembered
    transcript = target.parent.parent / "s-three.jsonl"
    gm(repo, "hook", "background-capture", "--transcript", str(transcript), "--cwd", str(repo))
    atom = _claude_atom(repo)
    assert atom["sessions"] == ["s-one", "s-three", "s-two"]
    assert atom["source"].endswith("/s-three.jsonl#L1")
    assert not (repo / ".git" / "agent-memory" / "errors.log").exists()


def test_a_folder_of_every_variant_is_captured_and_valid(guarded: Path) -> None:
    """The fixture folder, with no transcript behind it: each memory is observed once, in the
    session its originSessionId names (line 0) or in the file itself."""
    import shutil

    from conftest import FIXTURES

    folder = resolve_auto_memory_dir(guarded).path
    shutil.copytree(FIXTURES / "auto-memory" / "folder", folder)
    report = gm_json(guarded, "capture", "--all", "--no-stage")["auto_memory"]
    assert report["memories"] == 9 and len(report["new"]) == 9
    assert {s["file"] for s in report["skipped"]} == {"empty.md", "notes.txt", "scratch.md", "template_profile.md"}
    assert gm_json(guarded, "validate")["ok"]
    atoms = {a["memory_file"]: a for a in gm_json(guarded, "inspect", "--tier", "L1")["atoms"]}
    slug = folder.parent.name
    assert atoms["team/feedback_reviews.md"]["source"] == f"~/.claude/projects/{slug}/memory/team/feedback_reviews.md#L8"
    why = gm_json(guarded, "inspect", "--why", atoms["team/feedback_reviews.md"]["id"])
    assert why["evidence"][0]["status"] == "ok" and "two approvals" in why["evidence"][0]["line"]
    stamped = gm_json(guarded, "inspect", "--why", atoms["feedback_release_branch.md"]["id"])["evidence"][0]
    assert stamped["source"].endswith("0b7c8a52-3f1e-4d5a-9c11-5e2f8b7d6a01.jsonl#L0") and stamped["status"] == "missing"
    assert "Deploy from the release branch" in stamped["line"]  # the kept quote, its transcript gone


def test_the_dry_run_names_the_sessions_that_wrote_it_and_writes_nothing(remembered: tuple[Path, Path]) -> None:
    repo, _ = remembered
    state = repo / ".git" / "agent-memory"
    before = sorted(p.name for p in state.iterdir()) if state.is_dir() else []
    [atom] = gm_json(repo, "extract", "--auto-memory")["atoms"]
    assert atom["sessions"] == ["s-one", "s-three", "s-two"] and atom["source"].endswith("/s-three.jsonl#L1")
    assert (sorted(p.name for p in state.iterdir()) if state.is_dir() else []) == before


@pytest.mark.parametrize("stamp", [None, "4e1f7a20-9b3c-4d8e-a5f6-0c2b7d9e1a34"])
def test_a_memory_seen_in_its_file_first_then_in_the_transcript_that_wrote_it_is_one_observation(
        guarded: Path, stamp: str | None) -> None:  # fmt: skip
    """One write of one memory is one observation, whichever was seen first. A capture that
    finds the file before the transcript writing it (the session still running, its transcript
    elsewhere) stores the folder's copy under a stand-in session (`memory-<name>`, or the
    file's originSessionId at line 0); once the transcript is here, the write it shows is
    that same observation, not a second session (or a second line) on top of the stand-in.
    What else the store holds of the atom (here: the user typing it) is kept."""
    folder = resolve_auto_memory_dir(guarded).path
    folder.mkdir(parents=True)
    target = folder / "feedback_migrations.md"
    session = stamp or "s-one"
    text = topic("Migrations run before tests", RULE, session=stamp, why=WHY, how=HOW)
    target.write_text(text, "utf-8")
    write_session(guarded, "typed-1", "2026-11-01", [{"user": RULE}])
    _capture_folder(guarded)
    first = _claude_atom(guarded)
    assert len(first["sessions"]) == 2 and "typed-1" in first["sessions"], first["sessions"]
    # The transcript of the session that wrote it arrives; the folder is read again.
    save(folder.parent / f"{session}.jsonl",
         [prompt(session, "2026-11-02T09:00:00Z", "why did CI fail?", cwd=str(guarded)),
          *write(session, "2026-11-02T09:00:05Z", target, text, call_id="t1", cwd=str(guarded))])
    os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 10**9))
    _capture_folder(guarded)
    atom = _claude_atom(guarded)
    assert atom["sessions"] == sorted([session, "typed-1"]), atom["sessions"]
    assert atom["observations"] == 2, atom
    assert atom["source"].endswith(f"/{session}.jsonl#L2") or atom["first_source"].endswith(f"/{session}.jsonl#L2")
    sources = [e["source"] for e in atom["evidence"]]
    assert not any(s.endswith((".md#L8", ".jsonl#L0")) or "/memory/" in s for s in sources), sources
    assert any(not e["rule"].startswith("auto_memory") for e in atom["evidence"])  # the typed sighting kept
    assert gm_json(guarded, "validate")["ok"]
    # Captured again, nothing changes.
    tip = git(guarded, "rev-parse", "memory/atoms")
    os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 10**9))
    _capture_folder(guarded)
    assert git(guarded, "rev-parse", "memory/atoms") == tip


def test_the_transcript_of_a_memory_read_from_its_file_alone_is_heard_with_the_folder_unchanged(
        guarded: Path) -> None:  # fmt: skip
    """The folder is not read again while nothing in it changed; but a memory read from its
    file alone (a stand-in session `memory-<name>`) waits for the transcript that wrote it, and
    that transcript arrives without touching the folder. Its write replaces the stand-in: one
    observation, in the transcript's session. A memory no transcript shows stays as it was, and
    a capture after that reads nothing and writes nothing."""
    folder = resolve_auto_memory_dir(guarded).path
    folder.mkdir(parents=True)
    target = folder / "feedback_migrations.md"
    text = topic("Migrations run before tests", RULE, why=WHY, how=HOW)
    target.write_text(text, "utf-8")
    other = "Never commit generated protobuf files."
    (folder / "feedback_protobuf.md").write_text(topic("Generated files", other), "utf-8")
    first = gm_json(guarded, "capture", "--all", "--no-stage")
    assert first["auto_memory"]["read"] == "read" and first["new"] == 2, first
    claude = {a["claim"]: a for a in gm_json(guarded, "inspect", "--tier", "L1")["atoms"] if a.get("origin") == "auto-memory"}
    assert claude[CLAIM]["sessions"] == ["memory-feedback-migrations"], claude[CLAIM]
    kept = claude[other.rstrip(".")]

    # A session that wrote no memory: the folder is not read again for it.
    write_session(guarded, "s-other", "2026-11-02", [{"user": "why is the build slow?"}])
    other_session = gm_json(guarded, "capture", "--all", "--no-stage")
    assert other_session["captured"] == 1 and other_session["auto_memory"]["read"] == "unchanged", other_session

    mtime = target.stat().st_mtime_ns
    save(folder.parent / "s-late.jsonl",
         [prompt("s-late", "2026-11-02T09:00:00Z", "why did CI fail?", cwd=str(guarded)),
          *write("s-late", "2026-11-02T09:00:05Z", target, text, call_id="t1", cwd=str(guarded))])
    assert target.stat().st_mtime_ns == mtime  # the folder did not change
    late = gm_json(guarded, "capture", "--all", "--no-stage")
    assert late["captured"] == 1 and late["auto_memory"]["read"] == "read", late
    claude = {a["claim"]: a for a in gm_json(guarded, "inspect", "--tier", "L1")["atoms"] if a.get("origin") == "auto-memory"}
    atom = claude[CLAIM]
    assert atom["sessions"] == ["s-late"] and atom["observations"] == 1, atom
    assert atom["source"].endswith("/s-late.jsonl#L2") and atom["first_source"].endswith("/s-late.jsonl#L2"), atom
    assert not any(e["source"].endswith(".md#L8") or "/memory/" in e["source"] for e in atom["evidence"]), atom
    assert claude[other.rstrip(".")] == kept  # no transcript shows it: untouched
    assert gm_json(guarded, "validate")["ok"]

    tip = git(guarded, "rev-parse", "memory/atoms")
    again = gm_json(guarded, "capture", "--all", "--no-stage")
    assert again.get("auto_memory", {}).get("read", "unchanged") == "unchanged", again  # not read
    assert (again["new"], again["merged"], again["captured"]) == (0, 0, 0), again
    assert git(guarded, "rev-parse", "memory/atoms") == tip


def test_claude_cannot_adopt_its_memory_file_from_its_own_session(remembered: tuple[Path, Path]) -> None:
    """Claude Code runs every command with CLAUDECODE=1, the model's Bash tool included: an
    `adopt` there could be the model committing its own memory file. It is left waiting, with
    the way for the person to adopt it."""
    repo, _ = remembered
    _capture_folder(repo)
    atom = _claude_atom(repo)
    gm(repo, "stage")
    for argv in (["--yes", str(atom["id"])], ["--all"]):
        proc = gm(repo, "adopt", *argv, check=False, env={"CLAUDECODE": "1"})
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert f"refused {atom['id']}: Claude's own memory (feedback_migrations.md): this adopt runs inside a " \
               "Claude Code session" in proc.stdout, proc.stdout
        assert "in your own terminal, outside Claude Code" in proc.stderr, proc.stderr
    block = repo / "CLAUDE.memory.md"
    assert not block.exists() or CLAIM not in block.read_text("utf-8")
