"""Messages a new user read as false, through the CLI on a real repository: `log` of the
older side of a contradiction, `inspect --why` of either side, `stale` with nothing found."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, gm_json, write_session


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now="2026-11-05T12:00:00Z")


def test_the_session_that_contested_an_atom_is_not_logged_as_a_sighting(project: Path) -> None:
    """The capture that brought the newer claim changed the older atom's file (it is now
    contested), but the older claim was not said in that session: no "capture: seen in a session"."""
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


def test_why_of_a_contested_atom_says_it_is_contested_and_how_to_settle_it(project: Path) -> None:
    """`inspect --why` of either side of an open contradiction said "a candidate: recalled per
    prompt, promoted when it recurs", though neither side promotes while the pair is open."""
    write_session(project, "eeeeeeee-0000-4000-8000-000000000001", "2026-10-01",
                  [{"user": "Use uv for dependencies."}])
    write_session(project, "eeeeeeee-0000-4000-8000-000000000002", "2026-10-02",
                  [{"user": "Use poetry, not uv, for dependencies."}])
    gm(project, "capture", "--all", "--no-stage")
    atoms = {a["claim"]: a for a in gm_json(project, "inspect")["L1"]}
    older, newer = atoms["Use uv for dependencies"]["id"], atoms["Use poetry, not uv, for dependencies"]["id"]
    for ident, other in ((older, newer), (newer, older)):
        why = gm_json(project, "inspect", "--why", ident)
        assert why["contested_with"] == [{"older": older, "newer": newer, "rule": "same-subject"}]
        text = gm(project, "inspect", "--why", ident).stdout
        assert "promoted when it recurs" not in text
        assert f"contested with {other}" in text
        assert f"git memory resolve {older} --keep {newer}" in text
    gm(project, "resolve", older, "--keep", newer)
    why = gm_json(project, "inspect", "--why", newer)
    assert why["contested_with"] == []
    assert "contested with" not in gm(project, "inspect", "--why", newer).stdout


def test_stale_with_nothing_found_does_not_claim_every_named_path_exists(project: Path) -> None:
    """An atom naming a path this repository never had: `stale` reports nothing (the name may
    not be a path at all), and its message must not say the path exists at HEAD."""
    write_session(project, "eeeeeeee-0000-4000-8000-000000000001", "2026-10-01",
                  [{"user": "Remember: the API handlers live in src/api; keep them thin."}])
    gm(project, "capture", "--all", "--no-stage")
    assert [a["claim"] for a in gm_json(project, "inspect")["L1"]] == ["The API handlers live in src/api; keep them thin"]
    assert gm_json(project, "stale")["findings"] == []
    text = gm(project, "stale").stdout
    assert "exists at HEAD" not in text
    assert text.startswith("no stale atoms")


def test_why_of_a_candidate_says_whether_the_gate_lets_it_through_and_why_not(project: Path) -> None:
    """`inspect --why` said "promoted when it recurs" of every L1 candidate: of one that is
    eligible now (a verified claim, seen once) and of one that is not, without the reason."""
    write_session(project, "eeeeeeee-0000-4000-8000-000000000001", "2026-10-01",
                  [{"user": "Never run migrations against the production database."},
                   {"user": "Always run the tests with pytest -x before committing."}])
    gm(project, "capture", "--all", "--no-stage")
    atoms = {a["claim"]: a["id"] for a in gm_json(project, "inspect")["L1"]}
    blocked = atoms["Never run migrations against the production database"]
    verified = atoms["Always run the tests with pytest -x before committing"]
    gm(project, "verify", verified, "--by", "true")
    why = gm_json(project, "inspect", "--why", verified)
    assert (why["state"], why["eligible"], why["reasons"]) == ("candidate", True, [])
    text = gm(project, "inspect", "--why", verified).stdout
    assert "promoted when it recurs" not in text and "git memory stage" in text
    why = gm_json(project, "inspect", "--why", blocked)
    assert why["eligible"] is False and why["reasons"] == ["stated: 1 session, needs 2"]
    assert "stated: 1 session, needs 2" in gm(project, "inspect", "--why", blocked).stdout


@pytest.mark.parametrize(
    ("first", "second", "claim"),
    [
        ("Use pnpm, never npm.", "Use pnpm, not npm.", "Use pnpm, not npm"),
        # ruff and flake8 are linters of one family: the verb phrase adds nothing
        ("Lint with ruff, never flake8!", "Use ruff instead of flake8.", "Use ruff, not flake8"),
        ("Always use pnpm, never npm.", "Use pnpm instead of npm.", "Use pnpm, not npm"),
        ("Always use pnpm and never npm.", "Use pnpm, never npm.", "Use pnpm, not npm"),
    ],
)
def test_a_choice_with_never_before_the_refused_tool_is_the_same_contrast(
    project: Path, first: str, second: str, claim: str
) -> None:
    """"Use pnpm, never npm." yielded nothing at all, though "Use pnpm, not npm." is an atom:
    the stronger word lost the rule. Both are one claim now, seen in both sessions."""
    write_session(project, "eeeeeeee-0000-4000-8000-000000000001", "2026-10-01", [{"user": first}])
    write_session(project, "eeeeeeee-0000-4000-8000-000000000002", "2026-10-02", [{"user": second}])
    gm(project, "capture", "--all", "--no-stage")
    atoms = gm_json(project, "inspect")["L1"]
    assert [(a["claim"], a["sessions"]) for a in atoms] == [(claim, 2)]


def test_consolidate_of_an_auto_memory_folder_not_there_says_so(project: Path) -> None:
    """`consolidate --auto-memory` with no folder yet said "no near-duplicates in <folder>", as
    if it had read a folder that does not exist (extract and scan say there is none)."""
    proc = gm(project, "consolidate", "--auto-memory")
    assert "no near-duplicates" not in proc.stdout
    assert "no auto-memory folder at" in proc.stdout and "nothing to fold" in proc.stdout
    assert gm_json(project, "consolidate", "--auto-memory")["proposals"] == []


def test_a_failed_verify_that_printed_nothing_names_the_command(project: Path) -> None:
    """`verify --by false` said "the check failed (exit 1): " and nothing after the colon."""
    write_session(project, "eeeeeeee-0000-4000-8000-000000000001", "2026-10-01",
                  [{"user": "Never run migrations against the production database."}])
    gm(project, "capture", "--all", "--no-stage")
    [atom] = gm_json(project, "inspect")["L1"]
    proc = gm(project, "verify", atom["id"], "--by", "false", check=False)
    assert proc.returncode == 1
    first = proc.stdout.splitlines()[0]
    assert not first.rstrip().endswith(":")
    assert first == "the check `false` failed (exit 1), printing nothing"
    proc = gm(project, "verify", atom["id"], "--by", "sh -c 'echo boom >&2; exit 3'", check=False)
    assert proc.stdout.splitlines()[0].endswith("failed (exit 3): boom")


def test_log_dates_a_merged_review_pull_request_when_it_was_merged(project: Path) -> None:
    """After the review branch was merged (the pull-request path) and memory/review rebuilt
    empty, `log` dated the `merged` entry by the staging commit's evidence (days before its
    own captures) and listed it as the oldest event of the atom's life."""
    rules = ["Never push directly to main.", "Use pnpm, not npm.", "Never commit secrets to the repository."]
    for n, day in ((1, "2026-10-01"), (2, "2026-10-02")):
        write_session(project, f"eeeeeeee-0000-4000-8000-00000000000{n}", day,
                      [{"user": rule} for rule in rules])
    gm(project, "capture", "--all", "--no-stage")
    atoms = gm_json(project, "inspect")["L1"]
    assert len(atoms) == len(rules), atoms
    gm(project, "stage")  # one staging commit per atom: the pull request holds several
    env = {"GIT_COMMITTER_DATE": "2026-11-05T11:30:00+00:00", "GIT_AUTHOR_DATE": "2026-11-05T11:30:00+00:00"}
    subprocess.run(["git", "-C", str(project), "merge", "-q", "--no-ff", "-m", "Merge review", "memory/review"],
                   check=True, env={**os.environ, **env})
    gm(project, "stage")  # nothing left to stage: memory/review is rebuilt on the branch
    assert git(project, "branch", "--list", "memory/review").strip() == ""
    for atom in atoms:  # each by the merge, not by the next staging commit of the branch
        commits = gm_json(project, "log", atom["id"])["commits"]
        [merged] = [c for c in commits if c["op"] == "merged"]
        assert merged["date"] == "2026-11-05T11:30:00+00:00", (atom["claim"], merged)
        captures = [c for c in commits if c["op"] == "capture"]
        assert commits.index(merged) < min(commits.index(c) for c in captures)  # newest first


def test_never_comma_ever_is_the_rule_said_without_the_comma(project: Path) -> None:
    """"Never ever push to main." is "Never push to main"; "Never, ever push to main." gave
    nothing (the comma cut "Never" off as a clause of its own)."""
    write_session(project, "eeeeeeee-0000-4000-8000-000000000001", "2026-10-01",
                  [{"user": "Never, ever push to main."}])
    write_session(project, "eeeeeeee-0000-4000-8000-000000000002", "2026-10-02",
                  [{"user": "Never ever push to main."}])
    gm(project, "capture", "--all", "--no-stage")
    atoms = gm_json(project, "inspect")["L1"]
    assert [(a["claim"], a["sessions"]) for a in atoms] == [("Never push to main", 2)]


def test_capture_all_with_no_session_yet_says_where_it_looked(project: Path) -> None:
    """A new project with no Claude Code session yet (or one started elsewhere) heard
    "nothing new: 0 transcripts of this project, 0 unchanged since their last capture"."""
    from agent_memory.model.home import claude_projects_dir, slug_for

    proc = gm(project, "capture", "--all")
    assert "0 unchanged" not in proc.stdout
    assert "no Claude Code session of" in proc.stdout
    assert slug_for(project.resolve()) in proc.stdout or os.path.join(claude_projects_dir(), slug_for(project.resolve())) in proc.stdout
    write_session(project, "eeeeeeee-0000-4000-8000-000000000001", "2026-10-01",
                  [{"user": "Never push to main."}])
    gm(project, "capture", "--all")
    proc = gm(project, "capture", "--all", "--since", "2099-01-01")
    assert "0 unchanged" not in proc.stdout
    assert "no transcript of" in proc.stdout and "2099-01-01" in proc.stdout


def test_a_candidate_contesting_an_adopted_line_is_not_shown_eligible(project: Path) -> None:
    """`show` and `status` counted a candidate that contradicts an adopted (L2) line as
    eligible, while `promote` and `stage` blocked it: the adopted side's L1 record, which names
    the contest, was left out of the gate that `show` runs."""
    gm(project, "remember", "Use pnpm, not npm")
    gm(project, "adopt", "--all")
    proc = gm(project, "remember", "Use yarn, not pnpm", check=False)
    assert proc.returncode == 1  # recorded, not staged: it contests the adopted line
    # and says so, rather than a bare "not eligible"
    assert "not eligible" not in proc.stdout and "contests atm_" in proc.stdout
    assert "git memory inspect --why" in proc.stdout
    [item] = gm_json(project, "show")["L1"]
    assert item["claim"] == "Use yarn, not pnpm"
    blocked = {b["id"]: b["reasons"] for b in gm_json(project, "promote")["blocked"]}
    assert item["state"] == "blocked" and item["reasons"] == blocked[item["id"]]
    assert gm_json(project, "status")["L1"]["eligible"] == 0
    assert "eligible" not in next(line for line in gm(project, "show").stdout.splitlines() if item["id"] in line)


def test_inspect_contested_gives_resolve_commands_that_run_when_pasted(project: Path) -> None:
    """`inspect --contested` said `settle with: git memory resolve OLDER --keep <id>`: pasted,
    the shell reads `<id>` as a redirection from a file named id."""
    write_session(project, "eeeeeeee-0000-4000-8000-000000000001", "2026-10-01",
                  [{"user": "Use uv for dependencies."}])
    write_session(project, "eeeeeeee-0000-4000-8000-000000000002", "2026-10-02",
                  [{"user": "Use poetry, not uv, for dependencies."}])
    gm(project, "capture", "--all", "--no-stage")
    [pair] = gm_json(project, "inspect", "--contested")["pairs"]
    text = gm(project, "inspect", "--contested").stdout
    assert "<id>" not in text
    commands = [line.strip() for line in text.splitlines() if line.strip().startswith("git memory resolve")]
    assert commands == [f"git memory resolve {pair['older']} --keep {pair['newer']}",
                        f"git memory resolve {pair['older']} --keep {pair['older']}"]
    gm(project, *commands[0].split()[2:])
    assert gm_json(project, "inspect", "--contested")["pairs"] == []


def test_a_rejected_claim_said_again_is_shown_as_promote_judges_it(project: Path) -> None:
    """A claim rejected at adopt and then said in a new session is judged afresh by the gate
    (`promote` lists it eligible), but the candidates `show` and `status` count (l1_candidates,
    for a record no longer on memory/review) still called it rejected: they now agree."""
    from agent_memory.cli.inspect import l1_candidates
    from agent_memory.gitio.repo import find_repo
    from agent_memory.store.l1 import L1Store

    rule = "Never push directly to main."
    for n, day in ((1, "2026-10-01"), (2, "2026-10-02")):
        write_session(project, f"dddddddd-0000-4000-8000-00000000000{n}", day, [{"user": rule}])
    gm(project, "capture", "--all", "--no-stage")
    [atom] = gm_json(project, "inspect")["L1"]
    gm(project, "stage")
    gm(project, "adopt", "--reject", atom["id"])
    store = L1Store(find_repo(project))
    [(_, state, _)] = l1_candidates(store.atoms(), {}, set(), "proj")
    assert state == "rejected"  # no session said it since
    write_session(project, "dddddddd-0000-4000-8000-000000000003", "2026-10-05", [{"user": rule}])
    gm(project, "capture", "--all", "--no-stage")
    assert [a["id"] for a in gm_json(project, "promote")["eligible"]] == [atom["id"]]
    [(_, state, result)] = l1_candidates(L1Store(find_repo(project)).atoms(), {}, set(), "proj")
    assert state == "eligible" and result is not None and result.eligible
