"""Honest capture reporting and evidence that finds its transcript (issue 16), through the
installed CLI on real repositories and real transcripts (tests/fixtures/transcripts)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import TRANSCRIPTS
from sessions import gm, gm_json, write_session

from agent_memory.model.paths import slug_for

REAL = TRANSCRIPTS / "real_projects"
# A real transcript, recorded in another project (its cwd: "-experiments/worktrees").
FOREIGN = REAL / "-experiments-worktrees" / "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"


@pytest.fixture
def project(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-05T12:00:00Z")
    gm(repo, "init", "--yes", "--no-claude-hooks")
    return repo


def _session(repo: Path, n: int, day: str, text: str) -> Path:
    return write_session(repo, f"eeeeeeee-0000-4000-8000-00000000000{n}", day, [{"user": text}])


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_capture_of_an_unreadable_transcript_says_so_and_exits_2(project: Path) -> None:
    path = _session(project, 1, "2026-11-01", "Never push directly to main.")
    path.chmod(0)
    try:
        proc = gm(project, "capture", str(path), check=False)
    finally:
        path.chmod(0o644)
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_capture_of_a_file_with_nothing_readable_exits_2_as_extract_does(project: Path, tmp_path: Path) -> None:
    garbage = tmp_path / "notes.jsonl"
    garbage.write_text("this is not json\n{also not\n")
    for verb in ("extract", "capture"):
        proc = gm(project, verb, str(garbage), check=False)
        assert proc.returncode == 2 and "nothing readable" in proc.stderr, verb
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    proc = gm(project, "capture", str(empty), check=False)
    assert proc.returncode == 2 and "it is empty" in proc.stderr
    assert gm(project, "capture", str(tmp_path), check=False).returncode == 2  # a directory


def test_capture_all_reports_unreadable_files_and_skipped_lines_apart(project: Path) -> None:
    good = _session(project, 1, "2026-11-01", "Never push directly to main.")
    with good.open("a") as fh:
        fh.write("{broken line\n")
    broken = good.with_name("eeeeeeee-0000-4000-8000-000000000009.jsonl")
    broken.write_text("not a transcript\n")
    text = gm(project, "capture", "--all", "--no-stage").stdout
    assert text.startswith("captured 1 of 2 transcripts of proj: 1 new atoms")
    assert "1 unreadable line skipped" in text
    assert "1 transcript not captured (unreadable)" in text and broken.name in text
    data = gm_json(project, "capture", "--all", "--no-stage")
    assert data["captured"] == 1 and data["transcripts"] == 2 and data["skipped_lines"] == 1
    assert [Path(u["path"]).name for u in data["unreadable"]] == [broken.name]


def test_capture_of_another_projects_transcript_says_whose_it_is(project: Path) -> None:
    proc = gm(project, "capture", str(FOREIGN), check=False)
    assert proc.returncode == 1
    assert "experiments/worktrees (project worktrees)" in proc.stderr
    assert "not of this repository (proj)" in proc.stderr
    assert "--force" in proc.stderr and "nothing new" not in proc.stdout
    forced = gm(project, "capture", str(FOREIGN), "--force", "--no-stage")
    assert "recorded in -experiments/worktrees" in forced.stdout


def test_backfill_says_how_many_atoms_the_expiry_dropped_and_why(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _session(project, 1, "2026-06-01", "Never deploy on Fridays.")  # more than 90 days before NOW
    _session(project, 2, "2026-11-01", "Never push directly to main.")
    text = gm(project, "capture", "--all", "--no-stage").stdout
    assert "1 atom not kept: last seen more than 90 days ago" in text
    assert "Fridays" not in json.dumps(gm_json(project, "inspect", "--tier", "L1"))
    # an atom that expires in the store later is reported the same way
    _session(project, 3, "2026-11-02", "Use pnpm, not npm.")
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2027-03-01T12:00:00Z")
    late = gm(project, "capture", "--all", "--no-stage").stdout
    assert "not kept: last seen more than 90 days ago" in late


def test_evidence_finds_a_transcript_outside_the_config_dir(project: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # Transcripts copied elsewhere (another CLAUDE_CONFIG_DIR, a backup): captured from there.
    elsewhere = tmp_path / "elsewhere" / "projects" / slug_for(project.resolve())
    paths = [_session(project, n, f"2026-11-0{n}", "Never push directly to main.") for n in (1, 2)]
    elsewhere.mkdir(parents=True)
    for path in paths:
        shutil.move(str(path), elsewhere / path.name)
    for path in paths:
        gm(project, "capture", str(elsewhere / path.name), "--no-stage")
    atom = gm_json(project, "inspect", "--tier", "L1")["atoms"][0]
    assert all(Path(e["path"]).is_file() for e in atom["evidence"])
    why = gm_json(project, "inspect", "--why", atom["id"])
    assert [e["status"] for e in why["evidence"]] == ["ok", "ok"]
    assert all(e["line"] for e in why["evidence"])
    text = gm(project, "inspect", "--why", atom["id"]).stdout
    assert "transcript gone" not in text and f"at {elsewhere}" in text
    # …and with CLAUDE_CONFIG_DIR pointing there, the canonical pointer resolves too
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "elsewhere"))
    assert [e["status"] for e in gm_json(project, "inspect", "--why", atom["id"])["evidence"]] == ["ok", "ok"]
    # a transcript that is really gone is still reported as gone, with the kept quote
    for path in paths:
        (elsewhere / path.name).unlink()
    gone = gm_json(project, "inspect", "--why", atom["id"])["evidence"]
    assert [e["status"] for e in gone] == ["missing", "missing"] and gone[0]["line"]


def test_the_local_path_stays_local(project: Path, isolated_env: Path) -> None:
    path = _session(project, 1, "2026-11-01", "Never push directly to main.")
    atom = gm_json(project, "capture", str(path), "--no-stage")
    stored = gm_json(project, "inspect", "--tier", "L1")["atoms"][0]
    # under the home directory the path is written ~/…: no user name in it
    assert stored["evidence"][0]["path"].startswith("~/") and str(isolated_env) not in json.dumps(stored)
    assert atom["new"] == [stored["id"]]
