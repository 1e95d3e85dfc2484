"""One view of all memory and provenance you can follow (issue 16), through the CLI:
`inspect`/`show` with no flag, `promote` with claims, `inspect --why` naming the current tier,
`log ID` across refs, `forget --undo` of an adopted atom, `stale` exiting 1 on findings."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json, write_session
from test_adopt import CLAIMS, Staged, stage_claims


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


def test_show_lists_every_tier_at_a_glance(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--pin", ids["push"])
    gm(project, "adopt", "--yes", ids["pytest"])
    write_session(project, "bbbbbbbb-0000-4000-8000-000000000001", "2026-11-04",
                  [{"user": "Remember: the API handlers live in src/handlers."}])
    gm(project, "capture", "--all", "--no-stage")
    text = gm(project, "inspect").stdout
    assert gm(project, "show").stdout == text
    lines = text.splitlines()
    heads = [ln for ln in lines if not ln.startswith("  ")]
    assert heads[0].startswith("L3 global memory: 0 atoms")
    assert heads[1] == "L2 proj: 2 adopted atoms (1 pinned)"
    assert heads[2].startswith("staged for review on memory/review: 1")
    assert heads[3].startswith("L1 candidates: 1")  # the staged item is listed once, above
    assert heads[4] == "contested pairs: 0"
    assert any(ids["push"] in ln and "(pinned)" in ln for ln in lines)
    assert any(ids["tabs"] in ln and "Use tabs" in ln for ln in lines)  # staged, with its claim
    handlers = next(ln for ln in lines if "src/handlers" in ln)
    assert "1s/1d stated" in handlers
    data = gm_json(project, "show")
    assert {i["id"] for i in data["L2"]} == {ids["push"], ids["pytest"]}
    assert [s["atom"] for s in data["staged"]] == [ids["tabs"]]
    assert [c["sessions"] for c in data["L1"]] == [1] and data["L1"][0]["days"] == 1


def test_promote_prints_claims_and_knows_what_is_staged(project: Path) -> None:
    for n, day in enumerate(("2026-11-01", "2026-11-02", "2026-11-03"), start=1):
        write_session(project, f"cccccccc-0000-4000-8000-00000000000{n}", day,
                      [{"user": "Never push directly to main."}])
    gm(project, "capture", "--all", "--no-stage")
    before = gm(project, "promote").stdout
    assert "Never push directly to main" in before and "stage it with `git memory stage`" in before
    eligible = next(ln for ln in before.splitlines() if ln.startswith("eligible"))
    assert "→ L2" in eligible and "Never push directly to main" in eligible
    gm(project, "stage")
    after = gm(project, "promote").stdout
    assert "stage it" not in after and "stage them" not in after
    assert "already staged" in after and "(staged)" in after


def test_why_names_the_current_tier_and_state(staged: Staged) -> None:
    project, ids = staged
    staged = gm_json(project, "inspect", "--why", ids["push"])
    assert (staged["tier"], staged["state"]) == ("L1", "staged")
    gm(project, "adopt", "--yes", ids["push"])
    adopted = gm_json(project, "inspect", "--why", ids["push"])
    assert adopted["tier"] == "L2" and adopted["state"] == "adopted" and adopted["atom"]["tier"] == "L2"
    assert [e["status"] for e in adopted["evidence"]] == ["ok", "ok", "ok"]  # the L1 record's evidence
    text = gm(project, "inspect", "--why", ids["push"]).stdout
    assert f"{ids['push']} [L2 " in text and "L2: adopted" in text and "[L1" not in text
    gm(project, "adopt", "--reject", ids["tabs"])
    assert gm_json(project, "inspect", "--why", ids["tabs"])["state"] == "rejected"


def test_log_shows_the_whole_life_across_refs(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):  # one clock for every ref, as in real use
        monkeypatch.setenv(var, "2026-11-06T12:00:00Z")
    ids = stage_claims(project)
    ident = ids["push"]
    gm(project, "adopt", "--yes", ident)
    gm(project, "forget", ident)
    gm(project, "forget", "--undo", ident)
    commits = gm_json(project, "log", ident)["commits"]
    ops = [c["op"] for c in commits]
    assert ops.count("capture") == 3 and "stage" in ops and "adopt" in ops and "held" in ops
    assert ops.count("forget") == 2 and ops.count("unforget") == 2  # on the branch and on memory/atoms
    refs = {c["op"]: c["ref"] for c in commits}
    assert refs["stage"] == "memory/review" and refs["adopt"] == "main" and refs["capture"] == "memory/atoms"
    adopt = next(c for c in commits if c["op"] == "adopt")
    assert git(project, "log", "-1", "--format=%(trailers:key=Atom-Id,valueonly)", adopt["oid"]).strip() == ident
    # every line names its commit, and the order is newest first with staging before adoption
    assert all(len(c["oid"]) == 40 for c in commits)
    assert ops.index("adopt") < ops.index("stage") < len(ops) - 1
    text = gm(project, "log", ident).stdout
    assert "stage: staged for review on memory/review" in text and "held: " in text
    # a rejection, and a revert of an adoption, are part of the life too
    gm(project, "adopt", "--reject", ids["tabs"])
    assert "reject" in [c["op"] for c in gm_json(project, "log", ids["tabs"])["commits"]]
    gm(project, "adopt", "--yes", ids["pytest"])
    adopted = git(project, "rev-parse", "HEAD").strip()
    git(project, "revert", "--no-edit", adopted)
    assert "revert" in [c["op"] for c in gm_json(project, "log", ids["pytest"])["commits"]]


def test_log_of_a_global_item_keeps_its_columns_aligned(project: Path) -> None:
    """A global item's refs (`global:memory/review`, 20 characters) overran the 14-character
    ref column, shifting the op and subject of that line only. The column is as wide as the
    widest ref shown."""
    gm(project, "remember", "--global", "Prefer small, focused commits.")
    gm(project, "adopt", "--global", "--all")
    commits = gm_json(project, "log", "small focused")["commits"]
    assert {c["ref"] for c in commits} >= {"global:memory/review", "global:main"}
    rows = [ln for ln in gm(project, "log", "small focused").stdout.splitlines() if not ln.startswith("  ")]
    assert len(rows) == len(commits)
    at = {row.split()[3]: row.index(f" {row.split()[3]} ", 33) for row in rows}  # the op column, after the date
    assert len(set(at.values())) == 1, rows


def test_forget_undo_of_an_adopted_atom_puts_it_back_as_it_was(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--pin", ids["pytest"])
    block_before = (project / "CLAUDE.memory.md").read_text()
    gm(project, "forget", ids["pytest"])
    assert "pytest -x" not in (project / "CLAUDE.memory.md").read_text()
    out = gm_json(project, "forget", "--undo", ids["pytest"])
    assert out["tier"] == "L2" and out["l2_commit"]
    assert (project / "CLAUDE.memory.md").read_text() == block_before
    held = {a["id"]: a for a in gm_json(project, "inspect", "--tier", "L2")["atoms"]}
    assert held[ids["pytest"]].get("pinned") is True
    assert gm_json(project, "validate")["ok"]
    assert ids["pytest"] not in [s["atom"] for s in gm_json(project, "status")["staged"]]
    # an L1-only atom comes back to L1
    gm(project, "forget", ids["tabs"])
    assert gm_json(project, "forget", "--undo", ids["tabs"])["tier"] == "L1"


def test_stale_exits_1_when_it_has_findings(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "src").mkdir()
    (project / "src" / "legacy.py").write_text("x = 1\n")
    git(project, "add", "src/legacy.py")
    git(project, "commit", "-q", "-m", "legacy")
    assert gm(project, "stale").returncode == 0
    for n, day in enumerate(("2026-11-01", "2026-11-02"), start=1):
        write_session(project, f"dddddddd-0000-4000-8000-00000000000{n}", day,
                      [{"user": "Never edit `src/legacy.py` by hand."}])
    gm(project, "capture", "--all", "--no-stage")
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):  # deleted after the sessions said it
        monkeypatch.setenv(var, "2026-11-05T12:00:00Z")
    git(project, "rm", "-q", "src/legacy.py")
    git(project, "commit", "-q", "-m", "drop legacy")
    proc = gm(project, "stale", check=False)
    assert proc.returncode == 1 and "src/legacy.py" in proc.stdout
    proc = gm(project, "stale", "--output", "json", check=False)
    assert proc.returncode == 1 and '"findings"' in proc.stdout


def test_claims_in_the_fixture_are_the_ones_tested() -> None:
    assert set(CLAIMS) == {"push", "pytest", "tabs"}
