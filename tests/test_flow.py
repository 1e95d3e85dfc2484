"""The whole L0 → L1 → L2 loop on real repositories and real-format transcripts: init → capture →
promote → stage → adopt, and the refusals along the way. The loop that ends in `git blame` runs
end to end as a user would: the installed `git memory`, started by git, and the git hooks it
installs; the others drive the same CLI in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, gm_installed, gm_json, write_session

NOW = {"AGENT_MEMORY_NOW": "2026-11-06T12:00:00Z"}


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", now=NOW["AGENT_MEMORY_NOW"])


@pytest.fixture
def installed_project(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW["AGENT_MEMORY_NOW"])
    gm_installed(repo, "init", "--yes")
    return repo


def _three_sessions(repo: Path) -> None:
    write_session(repo, "aaaaaaaa-0000-4000-8000-000000000001", "2026-11-01",
                  [{"user": "Set up the build. Never push directly to main; always open a pull request."}])
    write_session(repo, "aaaaaaaa-0000-4000-8000-000000000002", "2026-11-02",
                  [{"user": "Never push directly to main; always open a pull request."},
                   {"user": "what does the parser return on empty input?"}])
    write_session(repo, "aaaaaaaa-0000-4000-8000-000000000003", "2026-11-03",
                  [{"user": "Fix the tests. Never push directly to main; always open a pull request."}])


def test_a_directive_in_three_sessions_over_two_days_is_staged_as_one_commit(project: Path) -> None:
    _three_sessions(project)
    captured = gm_json(project, "capture", "--all", "--no-stage")
    assert captured["transcripts"] == 3 and captured["new"] >= 1
    promote = gm_json(project, "promote")
    assert len(promote["eligible"]) >= 1
    eligible = [e["id"] for e in promote["eligible"]]
    l1 = {a["id"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    directive = [i for i in eligible if "push" in l1[i]["claim"].lower()]
    assert len(directive) == 1
    staged = gm_json(project, "stage")
    commits = [c for c in staged["commits"] if c["atom"] == directive[0]]
    assert len(commits) == 1
    oid = commits[0]["oid"]
    # exactly the two memory files change in that commit
    changed = git(project, "diff-tree", "--no-commit-id", "--name-only", "-r", oid).split()
    assert sorted(changed) == [".memory/adopted.log", "CLAUDE.memory.md"]
    message = git(project, "log", "-1", "--format=%B", oid)
    assert f"Atom-Id: {directive[0]}" in message and "Promotion: L1->L2" in message
    assert "Evidence-Sessions: aaaaaaaa-0000-4000-8000-000000000001" in message
    assert "First-Source: aaaaaaaa-0000-4000-8000-000000000001.jsonl#L" in message
    assert "~/.claude" not in message and "/home/" not in message
    # re-staging the same evidence is a no-op: same commits, same oids
    again = gm_json(project, "stage")
    assert [c["oid"] for c in again["commits"]] == [c["oid"] for c in staged["commits"]]


def test_adopt_all_closes_the_loop_and_blame_traces_a_line_to_its_sessions(installed_project: Path) -> None:
    project = installed_project
    _three_sessions(project)
    gm_installed(project, "capture", "--all", "--no-stage")
    staged = gm_json(project, "stage", installed=True)
    assert staged["commits"]
    adopted = gm_json(project, "adopt", "--all", installed=True)
    assert {a["atom"] for a in adopted["adopted"]} == {c["atom"] for c in staged["commits"]}
    block = (project / "CLAUDE.memory.md").read_text()
    assert "<!-- agent-memory:begin L2 -->" in block and "push directly to main" in block.lower()
    log_lines = [json.loads(line) for line in (project / ".memory/adopted.log").read_text().splitlines()]
    assert all(line["op"] == "adopt" and line["review_commit"] for line in log_lines)
    assert all(line["atom"]["tier"] == "L2" and "evidence" not in line["atom"] for line in log_lines)
    assert git(project, "status", "--porcelain") == ""
    # provenance: blame the claim line → commit → Atom-Id → git memory log
    line_no = next(i for i, text in enumerate(block.splitlines(), 1) if "push directly to main" in text.lower())
    blamed = git(project, "blame", "--porcelain", "-L", f"{line_no},{line_no}", "CLAUDE.memory.md").split()[0]
    trailer = git(project, "log", "-1", "--format=%(trailers:key=Atom-Id,valueonly)", blamed).strip()
    history = gm_json(project, "log", trailer, installed=True)
    sessions = {c["session"] for c in history["commits"]}
    assert {"aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000003"} <= sessions
    # L2 lists it; the L1 record is held, so nothing is staged again
    assert trailer in {a["id"] for a in gm_json(project, "inspect", "--tier", "L2", installed=True)["atoms"]}
    assert gm_json(project, "stage", installed=True)["commits"] == []
    assert gm_json(project, "adopt", "--all", installed=True)["adopted"] == []


def test_redacted_claims_are_blocked_with_a_reason(project: Path) -> None:
    token = "ghp_" + "Ab1" * 12
    for n, day in enumerate(["2026-11-01", "2026-11-02", "2026-11-03"], 1):
        write_session(project, f"bbbbbbbb-0000-4000-8000-00000000000{n}", day,
                      [{"user": f"Always deploy with the token {token} from now on."}])
    gm(project, "capture", "--all", "--no-stage")
    atoms = gm_json(project, "inspect", "--tier", "L1")["atoms"]
    assert atoms and all(token not in json.dumps(a) for a in atoms)
    redacted = [a for a in atoms if a["redacted"]]
    assert redacted
    blocked = {b["id"]: b["reasons"] for b in gm_json(project, "promote")["blocked"]}
    for atom in redacted:
        assert any("redacted" in r for r in blocked[atom["id"]])
    assert all(c["atom"] not in {a["id"] for a in redacted} for c in gm_json(project, "stage")["commits"])


def test_a_contradicting_pair_is_blocked_and_shown(project: Path) -> None:
    write_session(project, "cccccccc-0000-4000-8000-000000000001", "2026-11-01",
                  [{"user": "Remember: the default branch is dev."}])
    write_session(project, "cccccccc-0000-4000-8000-000000000002", "2026-11-02",
                  [{"user": "Remember: the default branch is main."}])
    gm(project, "capture", "--all", "--no-stage")
    pairs = gm_json(project, "inspect", "--contested")["pairs"]
    assert len(pairs) == 1
    blocked = {b["id"]: b["reasons"] for b in gm_json(project, "promote")["blocked"]}
    assert any(r.startswith("contested by") for r in blocked[pairs[0]["older"]])
    assert any(r.startswith("contests") for r in blocked[pairs[0]["newer"]])


def test_a_verified_one_observation_atom_with_a_secret_never_reaches_review(project: Path) -> None:
    key = "AKIA" + "Q7ZXW4PL2MNB8RTY"
    write_session(project, "dddddddd-0000-4000-8000-000000000001", "2026-11-01",
                  [{"user": f"The staging deploy key is {key} and it works."}])
    gm(project, "capture", "--all", "--no-stage")
    atoms = gm_json(project, "inspect", "--tier", "L1")["atoms"]
    target = next(a for a in atoms if "staging deploy key" in a["claim"].lower())
    assert key not in target["claim"] and target["redacted"]
    gm(project, "verify", target["id"], "--by", "true")
    verified = next(a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a["id"] == target["id"])
    assert verified["confidence"] == "verified"
    staged = gm_json(project, "stage")
    assert target["id"] not in {c["atom"] for c in staged["commits"]}
    review = git(project, "log", "--format=%B", "memory/review", check=False)
    assert key not in review


def test_without_a_terminal_and_flags_adopt_lists_what_waits_and_exits_1(project: Path) -> None:
    _three_sessions(project)
    gm(project, "capture", "--all")  # auto-stages
    proc = gm(project, "adopt", check=False)
    assert proc.returncode == 1
    assert "waiting on memory/review" in proc.stderr and "hint:" in proc.stderr


def test_a_dirty_memory_file_stops_adopt_before_anything_is_written(project: Path) -> None:
    _three_sessions(project)
    gm(project, "capture", "--all")
    (project / "CLAUDE.md").write_text("local edit\n")
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", "--all", check=False)
    assert proc.returncode == 3 and "uncommitted changes" in proc.stderr and "hint:" in proc.stderr
    assert git(project, "rev-parse", "HEAD") == head


def test_reject_is_recorded_and_not_restaged_until_new_sessions(project: Path) -> None:
    _three_sessions(project)
    gm(project, "capture", "--all")
    waiting = gm_json(project, "stage")["commits"]
    ident = waiting[0]["atom"]
    gm(project, "adopt", "--reject", ident)
    assert ident not in {c["atom"] for c in gm_json(project, "stage")["commits"]}
    reasons = {b["id"]: b["reasons"] for b in gm_json(project, "promote")["blocked"]}
    assert any(r.startswith("rejected on") for r in reasons[ident])
    write_session(project, "aaaaaaaa-0000-4000-8000-000000000009", "2026-11-05",
                  [{"user": "Never push directly to main; always open a pull request."}])
    gm(project, "capture", "--all")
    assert ident in {c["atom"] for c in gm_json(project, "stage")["commits"]}
