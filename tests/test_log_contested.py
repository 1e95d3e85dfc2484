"""`git memory log` of the older side of a contradiction, as a new user reads it: the capture
that brought the newer claim changed the older atom's file (it is now contested), but the older
claim was not seen in that session, and the log must not say it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from sessions import gm, gm_json, write_session


@pytest.fixture
def project(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-05T12:00:00Z")
    gm(repo, "init", "--yes", "--no-claude-hooks")
    return repo


def test_the_session_that_contested_an_atom_is_not_logged_as_a_sighting(project: Path) -> None:
    first = "eeeeeeee-0000-4000-8000-000000000001"
    second = "eeeeeeee-0000-4000-8000-000000000002"
    write_session(project, first, "2026-10-01", [{"user": "Use uv for dependencies."}])
    write_session(project, second, "2026-10-02", [{"user": "Use poetry, not uv, for dependencies."}])
    gm(project, "capture", "--all", "--no-stage")
    atoms = {a["claim"]: a for a in gm_json(project, "inspect")["L1"]}
    older = atoms["Use uv for dependencies"]
    assert older["sessions"] == 1

    commits = gm_json(project, "log", older["id"])["commits"]
    sightings = [c for c in commits if c["op"] == "capture"]
    assert [c["session"] for c in sightings] == [first]
    [contest] = [c for c in commits if c["session"] == second]
    assert contest["op"] == "contested"

    text = gm(project, "log", older["id"]).stdout
    assert "contested: " in text  # the legend says what the op means
    line = next(row for row in text.splitlines() if second in row)
    assert " contested " in line and " capture " not in line
