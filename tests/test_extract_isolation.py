"""A defect of the extractor on one statement costs that statement only: the transcript's other
statements are still read (`extract_transcript`), captured into a real store, the skip is named
in errors.log, and the transcript is read again by a later capture (a fixed extractor picks the
statement up). The defect is injected: the extractor raising on the second prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import typed_transcript
from inprocess import run_main

from agent_memory.extract import pipeline
from agent_memory.extract.statement import extract_claims
from agent_memory.gitio import repo as gitb
from agent_memory.store.capture import capture_file
from agent_memory.store.l1 import L1Store

REAL_STATEMENT_ATOMS = pipeline.statement_atoms
PROMPTS = ("Never push to main.", "Always run ruff before committing.", "I use Fish shell, not zsh.")


@pytest.fixture
def failing_second(monkeypatch: pytest.MonkeyPatch) -> None:
    real = pipeline.statement_atoms

    def statement_atoms(statement, *args, **kwargs):  # type: ignore[no-untyped-def]
        if statement.text == PROMPTS[1]:
            raise IndexError("list index out of range")
        return real(statement, *args, **kwargs)

    monkeypatch.setattr(pipeline, "statement_atoms", statement_atoms)


def _claims(atoms: list[dict[str, object]]) -> set[str]:
    return {str(a["claim"]) for a in atoms}


def test_one_failing_statement_costs_only_itself(tmp_path: Path, failing_second: None) -> None:
    path = typed_transcript(tmp_path, *PROMPTS)
    result = pipeline.extract_transcript(path, "proj")
    assert _claims(result.atoms) == {"Never push to main", "User uses Fish shell, not zsh"}
    assert result.failed_statements == ["L2: IndexError: list index out of range"]


def test_capture_keeps_the_rest_logs_the_skip_and_reads_it_again_later(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing_second: None
) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-03-02T12:00:00Z")  # the transcript's next day
    store = L1Store(gitb.find_repo(repo))
    assert store.init()
    path = typed_transcript(tmp_path, *PROMPTS)
    capture_file(store, "proj", path)
    assert _claims(store.atoms()) == {"Never push to main", "User uses Fish shell, not zsh"}
    log = (repo / ".git" / "agent-memory" / "errors.log").read_text()
    assert "skipped a statement the extractor failed on: L2: IndexError" in log
    monkeypatch.setattr(pipeline, "statement_atoms", REAL_STATEMENT_ATOMS)  # the extractor fixed
    # the same transcript is read again, not skipped as unchanged
    done = capture_file(store, "proj", path)
    assert done.read == "whole"
    assert "Always run ruff before committing" in _claims(store.atoms())
    assert capture_file(store, "proj", path).read == "unchanged"


def test_a_bare_version_where_a_runtime_is_named_raises_nothing() -> None:
    # "I'm on 3.11" (an answer to "which Python?") raised IndexError in the runtime check
    # (and "İm on it", "Doeſnt work": informal spellings matched under re.I that lower to no key)
    for text in ("I'm on 3.11", "I'm on v18", "we're on 2.0", "İm on it", "Doeſnt work", "can you ;",
                 "Could you —", "Never push to main. Can you —"):  # fmt: skip
        extract_claims(text)
    assert [c.claim for c in extract_claims("I'm on Python 3.12")] == ["User is on Python 3.12"]


def test_extract_names_the_skipped_statement_and_prints_the_rest(
    tmp_path: Path, failing_second: None
) -> None:
    path = typed_transcript(tmp_path, *PROMPTS)
    proc = run_main(tmp_path, ["extract", "--transcript", str(path), "--output", "json"])
    assert proc.returncode == 0, proc.stderr
    assert _claims(json.loads(proc.stdout)["atoms"]) == {
        "Never push to main",
        "User uses Fish shell, not zsh",
    }
    assert "skipped a statement the extractor failed on (L2: IndexError" in proc.stderr


def test_capture_names_the_skipped_statement(
    repo: Path, tmp_path: Path, failing_second: None
) -> None:
    env = {"AGENT_MEMORY_NOW": "2026-03-02T12:00:00Z"}
    assert run_main(repo, ["init", "--yes", "--no-claude-hooks"], env=env).returncode == 0
    path = typed_transcript(tmp_path, *PROMPTS)
    # (--force: the transcript was recorded in another folder, /w/proj)
    argv = ["capture", "--transcript", str(path), "--force", "--no-stage", "--output", "json"]
    proc = run_main(repo, argv, env=env)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert len(out["new"]) == 2 and out["failed_statements"] == [
        "L2: IndexError: list index out of range"
    ]
    assert "skipped a statement the extractor failed on (L2: IndexError" in proc.stderr


def test_a_memory_note_the_typed_extractor_fails_on_is_read_as_its_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agent_memory.extract import memory_notes

    def broken(*args: object, **kwargs: object) -> list[object]:
        raise IndexError("list index out of range")

    assert memory_notes.claim_for("Never push to main.")[0] == "Never push to main"
    monkeypatch.setattr(memory_notes, "extract_claims", broken)
    assert memory_notes.claim_for("Never push to main.")[0] == "Never push to main"
    assert memory_notes.claim_for("The staging URL is staging.example.com")[0].startswith(
        "The staging URL is staging.example.com"
    )
