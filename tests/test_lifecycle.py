"""Lifecycle verbs on adopted atoms (issue 9, seed 002) and the settling verbs (issue 6), through
the CLI on real repositories: `pin`/`unpin`/`decay`/`supersede`/`forget` are each one
reviewable commit on the current branch touching only the two memory files; `resolve` settles
a real contested pair; `validate` catches what a hand edit did and `validate --fix` re-renders.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import git, new_repo
from golden import Golden
from sessions import gm, gm_json, write_session
from test_adopt import (
    CLAIMS,
    NOW,
    assert_consistent,
    changed_files,
    held,
    init_project,
    l1_record,
    log_lines,
    memory_state,
    new_commits,
    stage_claims,
    trailers,
)

MEMORY_FILES = [".memory/adopted.log", "CLAUDE.memory.md"]


@pytest.fixture
def project(request: pytest.FixtureRequest) -> Path:
    """After `git memory init --yes` (conftest.initialized) or, for a test that asks for
    `adopted`, after adopting the three claims too: each built once per module, each test gets
    its own copy (golden.py)."""
    if "adopted" in request.fixturenames:
        return request.getfixturevalue("adopted_state")[0]
    return request.getfixturevalue("initialized")


@pytest.fixture(scope="module")
def adopted_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[dict[str, str]]:
    return Golden(tmp_path_factory.mktemp("lifecycle-adopted"))


@pytest.fixture
def adopted_state(
    adopted_golden: Golden[dict[str, str]], isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, dict[str, str]]:
    """init_project, stage_claims and `adopt --all` (the real CLI, fixed dates), run once per
    module; the project and key → id."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)

    def build(base: Path) -> dict[str, str]:
        project = init_project(new_repo(base / "proj"), monkeypatch)
        ids = stage_claims(project)
        gm(project, "adopt", "--all")
        return ids

    base, ids = adopted_golden.use(isolated_env, monkeypatch, build)
    return base / "proj", dict(ids)


@pytest.fixture
def adopted(adopted_state: tuple[Path, dict[str, str]]) -> dict[str, str]:
    """Three adopted atoms: key → id."""
    project, ids = adopted_state
    assert set(held(project)) == set(ids.values())
    return ids


def block(repo: Path) -> str:
    return (repo / "CLAUDE.memory.md").read_text()


def working_set(repo: Path) -> list[str]:
    """The claim lines the block shows (pinned and recent parts), without the region line."""
    return [
        line[2:]
        for line in block(repo).splitlines()
        if line.startswith("- ")
    ]


def region(repo: Path) -> str:
    """The pointer to what the block does not show: a comment for the person reading it."""
    return next((line for line in block(repo).splitlines() if "not shown" in line), "")


def pinned_part(repo: Path) -> str:
    text = block(repo)
    return text.split("### Pinned", 1)[1].split("### Recent", 1)[0] if "### Pinned" in text else ""


def claim(key: str) -> str:
    return CLAIMS[key].rstrip(".")


def one_commit(repo: Path, since: str, ident: str, op: str) -> str:
    """Exactly one new commit since `since`, touching only the two memory files, with trailers."""
    commits = new_commits(repo, since)
    assert len(commits) == 1, commits
    assert changed_files(repo, commits[0]) == MEMORY_FILES
    found = trailers(repo, commits[0])
    assert found["Atom-Id"] == ident and found["Memory-Op"] == op
    last = log_lines(repo)[-1]
    assert last["op"] == op and last["atom"]["id"] == ident
    assert_consistent(repo)
    return commits[0]


def head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").strip()


# --- pin / unpin / decay / supersede ----------------------------------------------------------------


def test_pin_and_unpin_are_each_one_commit(project: Path, adopted: dict[str, str]) -> None:
    ident = adopted["tabs"]
    start = head(project)
    gm(project, "pin", ident)
    one_commit(project, start, ident, "pin")
    assert held(project)[ident]["pinned"] is True
    assert claim("tabs") in pinned_part(project) and claim("push") not in pinned_part(project)

    again = gm(project, "pin", ident, check=False)
    assert again.returncode == 1 and "already pinned" in again.stderr
    start = head(project)
    gm(project, "unpin", ident)
    one_commit(project, start, ident, "unpin")
    assert "pinned" not in held(project)[ident]
    assert pinned_part(project) == "" and claim("tabs") in working_set(project)


def test_decay_leaves_the_working_set_but_stays_reachable(
    project: Path, adopted: dict[str, str]
) -> None:
    ident = adopted["pytest"]
    start = head(project)
    gm(project, "decay", ident)
    one_commit(project, start, ident, "decay")
    assert claim("pytest") not in working_set(project)
    assert region(project) == "<!-- 1 more adopted atom not shown (1 decayed): `git memory inspect --tier L2` -->"
    # still reachable: listed at L2, still in adopted.log, not injected at session start
    assert held(project)[ident]["decayed"] is True
    assert ident in {line["atom"]["id"] for line in log_lines(project)}
    context = gm_json(project, "context")["context"]
    assert claim("pytest") not in context and claim("push") in context
    memory = context.splitlines()[2:]  # after the opening tag and the one-line introduction
    assert not [line for line in memory if "git memory" in line or "decayed" in line]  # no jargon
    # pinning brings it back (pinned is decay-exempt), and a pinned atom cannot decay
    gm(project, "pin", ident)
    assert claim("pytest") in working_set(project) and region(project) == ""
    proc = gm(project, "decay", ident, check=False)
    assert proc.returncode == 2 and f"git memory unpin {ident}" in proc.stderr


def test_supersede_keeps_a_breadcrumb_and_stops_injecting_the_old(
    project: Path, adopted: dict[str, str]
) -> None:
    old, new = adopted["push"], adopted["pytest"]
    start = head(project)
    gm(project, "supersede", old, "--by", new)
    commit = one_commit(project, start, old, "supersede")
    assert trailers(project, commit)["Superseded-By"] == new
    assert claim("pytest") in git(
        project, "log", "-1", "--format=%B", commit
    )  # names the successor
    assert held(project)[old]["superseded_by"] == new
    assert claim("push") not in working_set(project) and claim("pytest") in working_set(project)
    assert "(1 superseded)" in region(project)
    assert claim("push") not in gm_json(project, "context")["context"]
    assert gm_json(project, "validate")["ok"] is True


@pytest.mark.parametrize("case", ["dangling", "cycle", "self", "two-step cycle"])
def test_supersede_to_a_dangling_target_or_into_a_cycle_is_refused(
    project: Path, adopted: dict[str, str], case: str
) -> None:
    a, b, c = adopted["push"], adopted["pytest"], adopted["tabs"]
    if case in ("cycle", "two-step cycle"):
        gm(project, "supersede", a, "--by", b)
    if case == "two-step cycle":
        gm(project, "supersede", b, "--by", c)
    before = memory_state(project)
    old, new = {
        "dangling": (a, "atm_00000000"),
        "cycle": (b, a),
        "self": (a, a),
        "two-step cycle": (c, a),
    }[case]
    proc = gm(project, "supersede", old, "--by", new, check=False)
    assert proc.returncode == 2, proc.stderr
    assert ("cycle" in proc.stderr) if "cycle" in case else True
    assert "hint:" in proc.stderr
    assert memory_state(project) == before


def test_a_lifecycle_verb_on_an_atom_that_is_not_adopted_is_a_usage_error(project: Path) -> None:
    ids = stage_claims(project)
    gm(project, "adopt", "--yes", ids["push"])
    for verb in ("pin", "unpin", "decay"):
        proc = gm(project, verb, ids["tabs"], check=False)
        assert proc.returncode == 2 and "not adopted" in proc.stderr and "--tier L2" in proc.stderr
    proc = gm(project, "supersede", ids["push"], "--by", ids["tabs"], check=False)
    assert proc.returncode == 2 and "not adopted" in proc.stderr


def test_lifecycle_verbs_refuse_dirty_or_hand_edited_memory_files(
    project: Path, adopted: dict[str, str]
) -> None:
    path = project / "CLAUDE.memory.md"
    original = path.read_text()
    path.write_text(original + "\nscratch note\n")
    before = memory_state(project)
    proc = gm(project, "pin", adopted["push"], check=False)
    assert proc.returncode == 3 and "uncommitted" in proc.stderr
    assert memory_state(project) == before
    path.write_text(original.replace(claim("push"), "Push to main whenever"))
    git(project, "commit", "-q", "-am", "hand edit inside the markers")
    before = memory_state(project)
    proc = gm(project, "decay", adopted["push"], check=False)
    assert proc.returncode == 1 and "validate --fix" in proc.stderr
    assert memory_state(project) == before


def test_the_dirty_memory_files_hint_names_the_command_that_was_refused(
    project: Path, adopted: dict[str, str]
) -> None:
    """Every memory commit refuses over an edit of the person's; the hint said "then adopt
    again" after `forget`, `pin` or `forget --undo` too. It names the command that stopped."""
    gm(project, "forget", adopted["tabs"])
    path = project / "CLAUDE.memory.md"
    path.write_text(path.read_text() + "\nscratch note\n")
    before = memory_state(project)
    for args, command in ((["forget", adopted["push"]], "git memory forget"),
                          (["pin", adopted["push"]], "git memory pin"),
                          (["forget", "--undo", adopted["tabs"]], "git memory forget --undo")):  # fmt: skip
        proc = gm(project, *args, check=False)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 3 and len(lines) == 2, proc.stderr
        assert lines[0].endswith("uncommitted changes to memory files: CLAUDE.memory.md"), proc.stderr
        assert lines[1].endswith(f"then run `{command}` again"), proc.stderr
        assert "adopt" not in proc.stderr
        assert memory_state(project) == before


# --- forget -------------------------------------------------------------------------------------------


def test_forget_removes_an_adopted_line_in_a_commit_and_tombstones_l1(
    project: Path, adopted: dict[str, str]
) -> None:
    ident = adopted["tabs"]
    start = head(project)
    result = gm_json(project, "forget", ident)
    commit = one_commit(project, start, ident, "forget")
    assert result["l2_commit"] == commit and result["commit"]
    assert claim("tabs") not in block(project)
    assert ident not in held(project) and region(project) == ""
    assert ident in {line["atom"]["id"] for line in log_lines(project)}  # the history stays
    assert ident not in {a["id"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    assert "forget" in {c["op"] for c in gm_json(project, "log", ident)["commits"]}
    # not re-learned from the same transcripts, not restaged
    gm(project, "capture", "--all", "--no-stage")
    assert ident not in {a["id"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    assert ident not in {c["atom"] for c in gm_json(project, "stage")["commits"]}


def test_forgetting_a_forgotten_atom_again_says_so_and_changes_nothing(
    project: Path, adopted: dict[str, str]
) -> None:
    """A second `forget` of the same atom said "no atom matches" (exit 2) for an atom the person
    had just seen; it says it is already forgotten, with its undo, and exits 0 as a rerun of
    adopt does. A key that names no atom, forgotten or not, is still exit 2."""
    ident = adopted["tabs"]
    gm(project, "forget", ident)
    start, atoms = head(project), git(project, "rev-parse", "memory/atoms")
    for key in (ident, ident[:8], claim("tabs")):
        proc = gm(project, "forget", key, check=False)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        assert proc.stdout.splitlines() == [f"{ident} is already forgotten; nothing to do",
                                            f"  undo: git memory forget --undo {ident}"]  # fmt: skip
    assert gm_json(project, "forget", ident) == {"id": ident, "commit": None, "l2_commit": None, "already": True}
    assert head(project) == start and git(project, "rev-parse", "memory/atoms") == atoms
    proc = gm(project, "forget", "atm_00000000", check=False)
    assert proc.returncode == 2 and "no atom matches" in proc.stderr
    proc = gm(project, "forget", "--undo", adopted["push"], check=False)  # held, not forgotten
    assert proc.returncode == 2 and f"`git memory log {adopted['push']}`" in proc.stderr
    gm(project, "forget", "--undo", ident)  # the undo it names works
    assert ident in held(project)


def test_forget_or_pin_of_a_global_item_says_where_it_is_and_how_it_goes(project: Path) -> None:
    """`show` lists the global (L3) items and `inspect --why` finds them, but `forget ID` said
    "no atom matches" and `pin ID` "not adopted in this branch". Both say it is global memory,
    which they do not change, and name the revert docs/global-memory.md gives; the hint's
    commands take it out."""
    gm(project, "remember", "--global", "Prefer small, focused commits.")
    gm(project, "adopt", "--global", "--all")
    [ident] = [a["id"] for a in gm_json(project, "inspect", "--tier", "L3")["atoms"]]
    for verb, key in (("forget", ident), ("pin", "small focused"), ("decay", ident[:9])):
        proc = gm(project, verb, key, check=False)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 2, proc.stderr
        assert lines[0] == (f"git memory {verb}: {ident} is in your global memory (L3); "
                            f"`git memory {verb}` acts on this project's memory")  # fmt: skip
        assert f"--grep 'Atom-Id: {ident}'" in lines[1] and "revert <commit>" in lines[1]
    assert gm(project, "forget", "atm_00000000", check=False).stderr.startswith("git memory forget: no atom matches")
    log, revert = [c for c in proc.stderr.split("`") if c.startswith("git -C ")]
    found = subprocess.run(log, shell=True, check=True, capture_output=True, text=True).stdout.split()
    subprocess.run(revert.replace("<commit>", found[0]), shell=True, check=True, capture_output=True)
    assert gm_json(project, "inspect", "--tier", "L3")["atoms"] == []


def test_forgetting_a_staged_item_withdraws_it_from_review(project: Path) -> None:
    ids = stage_claims(project)
    gm(project, "forget", ids["tabs"])
    report = gm_json(project, "adopt", "--all")
    assert {a["atom"] for a in report["adopted"]} == {ids["push"], ids["pytest"]}
    assert claim("tabs") not in block(project)


# --- resolve --------------------------------------------------------------------------------------


def contested_pair(project: Path) -> tuple[str, str]:
    write_session(
        project,
        "cccccccc-0000-4000-8000-000000000001",
        "2026-11-01",
        [{"user": "Remember: the default branch is dev."}],
    )
    write_session(
        project,
        "cccccccc-0000-4000-8000-000000000002",
        "2026-11-02",
        [{"user": "Remember: the default branch is main."}],
    )
    gm(project, "capture", "--all", "--no-stage")
    pairs = gm_json(project, "inspect", "--contested")["pairs"]
    assert len(pairs) == 1
    return pairs[0]["older"], pairs[0]["newer"]


def blocked(project: Path) -> dict[str, list[str]]:
    return {b["id"]: b["reasons"] for b in gm_json(project, "promote")["blocked"]}


@pytest.mark.parametrize("command", ["drop-then-keep", "keep-named-twice"])
def test_resolve_keeps_one_side_and_demotes_the_other(project: Path, command: str) -> None:
    older, newer = contested_pair(project)
    atoms_before = git(project, "rev-parse", "memory/atoms").strip()
    branch_before = head(project)
    keep, drop = (newer, older) if command == "drop-then-keep" else (older, newer)
    args = [drop, "--keep", keep] if command == "drop-then-keep" else [keep, "--keep", keep]
    result = gm_json(project, "resolve", *args)
    assert result["kept"] == keep and result["dropped"] == drop and result["l2_commit"] is None
    # recorded in one commit on memory/atoms, naming both sides
    assert git(project, "rev-list", "--count", f"{atoms_before}..memory/atoms").strip() == "1"
    message = git(project, "log", "-1", "--format=%B", "memory/atoms")
    assert f"Kept: {keep}" in message and f"Dropped: {drop}" in message
    assert head(project) == branch_before  # nothing was adopted, so nothing to change on the branch
    assert gm_json(project, "inspect", "--contested")["pairs"] == []
    kept = l1_record(project, keep)
    assert "contested" not in kept and "contested_by" not in kept
    assert l1_record(project, drop)["review"]["state"] == "rejected"
    reasons = blocked(project)
    assert not any("contest" in r for r in reasons.get(keep, []))
    assert any(r.startswith("rejected on") for r in reasons[drop])


def test_resolve_run_again_says_it_was_settled_and_changes_nothing(project: Path) -> None:
    """The command `inspect --contested` hints, run a second time, said "… are not a contested
    pair" (exit 2). It says the pair was settled that way already and exits 0, as a rerun of
    adopt or forget does; keeping the other side instead is still refused."""
    older, newer = contested_pair(project)
    gm(project, "resolve", older, "--keep", newer)
    atoms = git(project, "rev-parse", "memory/atoms")
    proc = gm(project, "resolve", older, "--keep", newer)
    assert proc.stdout == f"{older} and {newer} were settled already, keeping {newer}; nothing to do\n"
    assert proc.stderr == ""
    assert gm_json(project, "resolve", older, "--keep", newer) == {
        "kept": newer, "dropped": older, "commit": None, "l2_commit": None, "already": True}
    assert git(project, "rev-parse", "memory/atoms") == atoms
    other_way = gm(project, "resolve", newer, "--keep", older, check=False)
    assert other_way.returncode == 2 and "not a contested pair" in other_way.stderr


def test_resolve_can_forget_the_other(project: Path) -> None:
    older, newer = contested_pair(project)
    gm(project, "resolve", older, "--keep", newer, "--forget-other")
    l1 = {a["id"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    assert older not in l1 and newer in l1
    assert "resolve" in {c["op"] for c in gm_json(project, "log", older)["commits"]}
    assert gm_json(project, "inspect", "--contested")["pairs"] == []
    gm(project, "capture", "--all", "--no-stage")  # tombstoned: not re-learned, no new contest
    assert older not in {a["id"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    assert gm_json(project, "inspect", "--contested")["pairs"] == []


def test_resolve_against_an_adopted_atom_takes_it_out_of_the_block(project: Path) -> None:
    for n, day in enumerate(["2026-11-01", "2026-11-02", "2026-11-03"], 1):
        write_session(
            project,
            f"dddddddd-0000-4000-8000-00000000000{n}",
            day,
            [{"user": "Remember: the default branch is dev."}],
        )
    gm(project, "capture", "--all", "--no-stage")
    gm(project, "stage")
    gm(project, "adopt", "--all")
    write_session(
        project,
        "dddddddd-0000-4000-8000-000000000009",
        "2026-11-05",
        [{"user": "Remember: the default branch is main."}],
    )
    gm(project, "capture", "--all", "--no-stage")
    older, newer = contested_pair_ids(project)
    assert older in held(project)
    assert "[contested — newer evidence 2026-11-05]" in gm_json(project, "context")["context"]
    start = head(project)
    result = gm_json(project, "resolve", older, "--keep", newer)
    commit = one_commit(project, start, older, "demote")
    assert result["l2_commit"] == commit
    assert older not in held(project) and "default branch is dev" not in block(project)
    assert gm_json(project, "inspect", "--contested")["pairs"] == []
    assert "contested" not in gm_json(project, "context")["context"]


def contested_pair_ids(project: Path) -> tuple[str, str]:
    pairs = gm_json(project, "inspect", "--contested")["pairs"]
    assert len(pairs) == 1
    return pairs[0]["older"], pairs[0]["newer"]


def test_resolve_of_atoms_that_are_not_a_pair_is_a_usage_error(
    project: Path, adopted: dict[str, str]
) -> None:
    proc = gm(project, "resolve", adopted["push"], "--keep", adopted["tabs"], check=False)
    assert proc.returncode == 2 and "not a contested pair" in proc.stderr
    proc = gm(project, "resolve", adopted["push"], "--keep", adopted["push"], check=False)
    assert proc.returncode == 2 and "not in a contested pair" in proc.stderr


# --- validate -------------------------------------------------------------------------------------


def test_validate_reports_a_hand_edit_inside_the_markers_and_fix_re_renders(
    project: Path, adopted: dict[str, str]
) -> None:
    path = project / "CLAUDE.memory.md"
    path.write_text("# Notes kept by hand above the block\n\n" + path.read_text())
    git(project, "commit", "-q", "-am", "a note outside the block")
    assert gm_json(project, "validate")["ok"] is True  # outside the markers is the user's
    rendered = path.read_text()
    path.write_text(rendered.replace(claim("push"), "Push straight to main"))
    proc = gm(project, "validate", check=False)
    assert proc.returncode == 1
    assert "edited by hand" in proc.stdout and "git memory validate --fix" in proc.stdout
    report = gm_json(project, "validate", check=False)
    assert report["ok"] is False and any(
        "differs from .memory/adopted.log" in e for e in report["errors"]
    )
    fixed = gm(project, "validate", "--fix")
    assert "re-rendered" in fixed.stdout
    assert path.read_text() == rendered
    assert path.read_text().startswith("# Notes kept by hand above the block\n")
    assert gm_json(project, "validate")["ok"] is True


def test_validate_fix_restores_a_deleted_block(project: Path, adopted: dict[str, str]) -> None:
    path = project / "CLAUDE.memory.md"
    rendered = path.read_text()
    path.write_text("# my notes\n")
    assert gm(project, "validate", check=False).returncode == 1
    gm(project, "validate", "--fix")
    assert path.read_text().startswith("# my notes\n")
    assert path.read_text().count("<!-- agent-memory:end L2 -->") == 1
    assert gm_json(project, "validate")["ok"] is True
    assert all(claim(k) in path.read_text() for k in CLAIMS)
    assert rendered in path.read_text()


def test_broken_markers_are_reported_and_never_guessed_at(
    project: Path, adopted: dict[str, str]
) -> None:
    path = project / "CLAUDE.memory.md"
    broken = (
        path.read_text().replace("<!-- agent-memory:end L2 -->\n", "")
        + "\n# my notes after the block\n"
    )
    path.write_text(broken)
    for args in (["validate"], ["validate", "--fix"]):
        proc = gm(project, *args, check=False)
        assert proc.returncode == 1, proc.stderr
        assert (
            "markers are broken" in proc.stdout
            and "git checkout -- CLAUDE.memory.md" in proc.stdout
        )
    assert path.read_text() == broken
    git(project, "checkout", "--", "CLAUDE.memory.md")
    assert gm_json(project, "validate")["ok"] is True


def append_by_hand(repo: Path, op: str, atom: dict[str, Any]) -> None:
    line = {"at": "2026-11-06T13:00:00Z", "atom": atom, "op": op}
    with (repo / ".memory/adopted.log").open("a") as fh:
        fh.write(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n")


@pytest.mark.parametrize("case", ["dangling", "cycle"])
def test_validate_reports_a_supersede_written_by_hand(
    project: Path, adopted: dict[str, str], case: str
) -> None:
    atoms = held(project)
    a, b = adopted["push"], adopted["tabs"]
    if case == "dangling":
        append_by_hand(project, "supersede", {**atoms[a], "superseded_by": "atm_deadbeef"})
    else:
        append_by_hand(project, "supersede", {**atoms[a], "superseded_by": b})
        append_by_hand(project, "supersede", {**atoms[b], "superseded_by": a})
    fixed = gm(project, "validate", "--fix", check=False)  # the block follows the log
    assert "re-rendered" in fixed.stdout and fixed.returncode == 1  # the reference stays wrong
    report = gm_json(project, "validate", check=False)
    assert report["ok"] is False
    expected = (
        f"{a} is superseded by atm_deadbeef, which is not held"
        if case == "dangling"
        else "supersede cycle"
    )
    assert any(expected in e for e in report["errors"]), report["errors"]
