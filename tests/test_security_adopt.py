"""Issue 14 §4 and §5, issue 16 and 17 on adoption, through the CLI and real git:
two `adopt --all` at once, a commit made by something else between reading the memory files
and committing them, a killed git's `index.lock`, one L1 transaction per batch, and an
adoption undone with `git revert`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json, write_session
from test_adopt import CLAIMS, Staged, held, log_lines, stage_claims, trailers

from agent_memory.adoption.adopt import pending, work_files
from agent_memory.gitio import repo as G

TRIALS = 4


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


def _adopt_process(repo: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]}
    return subprocess.Popen(["git", "memory", "adopt", "--all", "--output", "json"], cwd=repo,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip


def _log_diff_ids(repo: Path, commit: str) -> list[str]:
    diff = git(repo, "show", "--format=", "-U0", commit, "--", ".memory/adopted.log")
    return [json.loads(ln[1:])["atom"]["id"] for ln in diff.splitlines()
            if ln.startswith("+") and not ln.startswith("+++")]  # fmt: skip


def test_two_concurrent_adopt_all_lose_nothing_and_label_every_commit(staged: Staged) -> None:
    project, ids = staged
    base = git(project, "rev-parse", "HEAD").strip()
    atoms_tip = git(project, "rev-parse", "memory/atoms").strip()
    for _trial in range(TRIALS):
        git(project, "reset", "-q", "--hard", base)
        git(project, "update-ref", "refs/heads/memory/atoms", atoms_tip)
        # the store moved back on purpose: taken as it is (else the rewind is refused)
        (project / ".git" / "agent-memory" / "captured.log").unlink(missing_ok=True)
        first, second = _adopt_process(project), _adopt_process(project)
        outs = [p.communicate(timeout=600) for p in (first, second)]
        assert [p.returncode for p in (first, second)] == [0, 0], outs
        reports = [json.loads(out) for out, _ in outs]
        by_process = [{a["atom"] for a in r["adopted"]} for r in reports]
        # every item adopted exactly once, and reported as such
        assert by_process[0] | by_process[1] == set(ids.values())
        assert not by_process[0] & by_process[1]
        assert set(held(project)) == set(ids.values())
        # each adopt commit changes exactly the line its Atom-Id names
        commits = git(project, "rev-list", "--reverse", f"{base}..HEAD").split()
        assert len(commits) == 3
        for oid in commits:
            assert _log_diff_ids(project, oid) == [trailers(project, oid)["Atom-Id"]]
        proc = gm(project, "validate", check=False)
        assert proc.returncode == 0, proc.stdout
        assert git(project, "status", "--porcelain", "--", "CLAUDE.memory.md", ".memory") == ""


def test_validate_names_a_commit_that_changes_another_atom_s_line(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["push"])
    # what two racing adopts produced before the lock: a commit whose Atom-Id names one atom
    # while the log line it adds is another's
    gm(project, "adopt", "--yes", ids["tabs"])
    message = git(project, "log", "-1", "--format=%B").replace(ids["tabs"], ids["pytest"])
    git(project, "commit", "-q", "--amend", "--no-verify", "-m", message)
    proc = gm(project, "validate", check=False)
    assert proc.returncode == 1
    assert f"says Atom-Id {ids['pytest']} but adds {ids['tabs']}" in proc.stdout


RACER = """#!/bin/sh
# post-index-change: runs after `git add` has staged adopt's change; commits another item's
# memory files first, as a person's own `git commit` racing the adopt would.
git diff --cached --quiet -- .memory/adopted.log && exit 0
[ -e "{done}" ] && exit 0
: > "{done}"
GIT_INDEX_FILE="{index}"; export GIT_INDEX_FILE
git read-tree HEAD
log=$(git hash-object -w "{log}")
block=$(git hash-object -w "{block}")
git update-index --add --cacheinfo 100644,"$log",.memory/adopted.log
git update-index --add --cacheinfo 100644,"$block",CLAUDE.memory.md
tree=$(git write-tree)
commit=$(git commit-tree "$tree" -p HEAD -m "racer: adopt another item by hand")
git update-ref HEAD "$commit"
"""


def test_a_commit_racing_the_adopt_is_detected_and_the_item_applied_on_top(
    staged: Staged, tmp_path: Path
) -> None:
    project, ids = staged
    repo = G.find_repo(project)
    items = {i.atom_id: i for i in pending(repo, work_files(project, "L2", "CLAUDE.memory.md"))}
    other = items[ids["pytest"]]
    racer = work_files(project, "L2", "CLAUDE.memory.md").append(
        [replace(other.entry, review_commit=other.commit)]
    )
    (tmp_path / "log").write_text(racer.log_text)
    (tmp_path / "block").write_text(racer.target_text)
    hook = project / ".git" / "hooks" / "post-index-change"
    hook.write_text(RACER.format(done=tmp_path / "done", index=tmp_path / "index",
                                 log=tmp_path / "log", block=tmp_path / "block"))  # fmt: skip
    hook.chmod(0o755)
    base = git(project, "rev-parse", "HEAD").strip()

    proc = gm(project, "adopt", "--yes", ids["push"], check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "done").exists()  # the racer did commit in the window
    # both adoptions are held: the racer's was not overwritten by a commit made from stale files
    assert set(held(project)) == {ids["push"], ids["pytest"]}
    commits = git(project, "rev-list", "--reverse", f"{base}..HEAD").split()
    assert [git(project, "log", "-1", "--format=%s", c).split(":")[0] for c in commits] == ["racer", "memory"]
    assert _log_diff_ids(project, commits[-1]) == [ids["push"]]
    assert gm(project, "validate", check=False).returncode == 0
    assert git(project, "status", "--porcelain", "--", "CLAUDE.memory.md", ".memory") == ""


def test_a_killed_git_s_index_lock_gets_a_plain_hint(staged: Staged) -> None:
    project, ids = staged
    lock = project / ".git" / "index.lock"
    lock.write_text("")  # what a git killed mid-commit leaves behind
    old = time.time() - 600
    os.utime(lock, (old, old))
    proc = gm(project, "adopt", "--yes", ids["push"], check=False)
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert "stale lock" in out and "killed" in out
    assert f"rm '{lock}'" in out
    assert ids["push"] not in held(project)
    lock.unlink()
    gm(project, "adopt", "--yes", ids["push"])
    assert ids["push"] in held(project)


def test_stale_git_locks_are_reported_by_status_and_validate(project: Path) -> None:
    lock = project / ".git" / "refs" / "heads" / "memory" / "atoms.lock"
    lock.write_text("")  # a capture killed during its ref update (or Ctrl-C in a backfill)
    old = time.time() - 3600
    os.utime(lock, (old, old))
    status = gm_json(project, "status")
    assert [s["path"] for s in status["stale_locks"]] == [str(lock)]
    assert "killed" in status["stale_locks"][0]["message"]
    text = gm(project, "status").stdout
    assert "stale lock" in text and f"rm '{lock}'" in text
    proc = gm(project, "validate", check=False)
    assert proc.returncode == 1 and "stale lock" in proc.stdout and "memory/atoms" in proc.stdout
    fresh = project / ".git" / "index.lock"
    fresh.write_text("")  # a git that is running right now: not stale
    assert [s["path"] for s in gm_json(project, "status")["stale_locks"]] == [str(lock)]
    fresh.unlink()


def test_adopt_all_makes_one_l1_transaction_for_the_batch(staged: Staged) -> None:
    project, ids = staged
    before = int(git(project, "rev-list", "--count", "memory/atoms"))
    report = gm_json(project, "adopt", "--all")
    assert len(report["adopted"]) == 3
    assert int(git(project, "rev-list", "--count", "memory/atoms")) == before + 1
    assert len(log_lines(project)) == 3  # still one commit per item on the branch
    for ident in ids.values():
        record = next(a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a["id"] == ident)
        assert record["review"]["state"] == "adopted"


def adopt_all_then_revert(project: Path, key: str) -> dict[str, str]:
    """Adopt every staged item, then `git revert` the adopt commit of `key`'s atom."""
    ids = stage_claims(project)
    gm(project, "adopt", "--all")
    adopt_commit = next(
        c for c in git(project, "rev-list", "HEAD").split()
        if trailers(project, c).get("Atom-Id") == ids[key]
    )  # fmt: skip
    git(project, "revert", "--no-edit", adopt_commit)
    return ids


def _rejected_until_said_again(project: Path, ident: str) -> None:
    """`ident` (test_adopt's "tabs" claim) is held back as rejected, and a new session that
    says it again makes it eligible again."""
    blocked = {b["id"]: b["reasons"] for b in gm_json(project, "promote")["blocked"]}
    assert any("rejected" in r for r in blocked[ident])
    write_session(project, "aaaaaaaa-0000-4000-8000-000000000004", "2026-11-05",
                  [{"user": CLAIMS["tabs"]}])  # fmt: skip
    gm(project, "capture", "--all", "--no-stage")
    assert ident in {e["id"] for e in gm_json(project, "promote")["eligible"]}


def test_a_reverted_adoption_counts_as_a_rejection_until_new_sessions(project: Path) -> None:
    ids = adopt_all_then_revert(project, "tabs")
    assert ids["tabs"] not in held(project)
    # not offered again at once
    proc = gm(project, "adopt", check=False)
    assert ids["tabs"] not in proc.stdout and "nothing is waiting" in proc.stdout
    assert gm_json(project, "status")["staged"] == []
    _rejected_until_said_again(project, ids["tabs"])


def test_the_session_end_capture_treats_a_revert_as_a_rejection_too(project: Path) -> None:
    """The background capture SessionEnd starts stages on its own (auto-stage): it must read a
    revert of an adopt commit as a rejection before its gates run, as `stage` and `adopt` do."""
    ids = adopt_all_then_revert(project, "tabs")
    later = write_session(project, "aaaaaaaa-0000-4000-8000-000000000009", "2026-11-06",
                          [{"user": "Always run the linter before a commit"}])  # fmt: skip
    assert gm_json(project, "status")["transcripts_not_captured"] >= 1
    gm(project, "hook", "background-capture", "--transcript", str(later), "--cwd", str(project))
    record = next(a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a["id"] == ids["tabs"])
    assert record["review"]["state"] == "rejected"
    assert ids["tabs"] not in {s["id"] for s in gm_json(project, "status")["staged"]}
    assert gm_json(project, "status")["transcripts_not_captured"] == 0
    assert not (project / ".git" / "agent-memory" / "errors.log").exists()


# --- an adoption a person took out some other way than `git revert` of its adopt commit ----------


def edit_out(project: Path, ident: str) -> None:
    """The atom's lines edited out of the log, committed, the block re-rendered and committed."""
    log = project / ".memory/adopted.log"
    log.write_text("".join(line + "\n" for line in log.read_text().splitlines() if ident not in line))
    git(project, "commit", "-qam", "take a line out of the project memory")
    gm(project, "validate", "--fix")
    git(project, "commit", "-qam", "re-render the memory block")


def test_an_adopt_line_this_version_cannot_read_is_no_rejection(staged: Staged) -> None:
    """A committed line the log reader refuses (here its time with a fraction of a second: a
    hand edit, a teammate's newer tool) named no atom on the current side of the comparison, so
    the atom counted as taken out and the person's adoption was overwritten as a rejection on
    memory/atoms — while `stage` refused the same log as unreadable."""
    project, ids = staged
    gm(project, "adopt", "--all")
    gm(project, "stage")  # a stage sees them held: their L1 records are marked adopted
    log = project / ".memory/adopted.log"
    lines = log.read_text().splitlines()
    odd = [json.loads(line) for line in lines]
    at = next(i for i, row in enumerate(odd) if row.get("atom", {}).get("id") == ids["tabs"])
    odd[at]["at"] = odd[at]["at"].replace("Z", ".5Z")
    lines[at] = json.dumps(odd[at])
    log.write_text("".join(line + "\n" for line in lines))
    git(project, "commit", "-qam", "a line edited by another tool")
    assert gm(project, "stage", check=False).returncode == 1
    record = next(a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a["id"] == ids["tabs"])
    assert record["review"]["state"] == "adopted", record["review"]


def test_an_adopted_line_edited_out_and_committed_counts_as_a_rejection_until_new_sessions(staged: Staged) -> None:
    """No revert commit names it, no forget line stands for it: the next stage offered it again."""
    project, ids = staged
    gm(project, "adopt", "--all")
    edit_out(project, ids["tabs"])
    assert ids["tabs"] not in held(project) and ids["push"] in held(project)
    assert gm_json(project, "stage")["commits"] == []
    _rejected_until_said_again(project, ids["tabs"])


def test_a_reverted_merge_of_the_review_branch_counts_as_a_rejection(staged: Staged) -> None:
    """Adopted by merging memory/review (a pull request), then that merge reverted: the merge
    commit names no atom, and no stage saw the items held to mark them adopted."""
    project, ids = staged
    git(project, "merge", "-q", "--no-ff", "-m", "Merge memory/review", "memory/review")
    assert set(ids.values()) <= set(held(project))
    git(project, "revert", "--no-edit", "-m", "1", "HEAD")
    assert not set(ids.values()) & set(held(project))
    assert gm_json(project, "stage")["commits"] == []
    assert gm_json(project, "promote")["eligible"] == []


def test_a_hand_authored_project_item_edited_out_is_not_staged_again(project: Path) -> None:
    """`git memory remember`, adopted, its line edited out: not staged again until the person
    says it again (the next day: a remembered claim's session is its day)."""
    claim, day = "Use pnpm, not npm, for installs", {"AGENT_MEMORY_NOW": "2026-11-06T12:00:00Z"}
    kept = gm_json(project, "remember", "Run the linter before pushing", env=day)
    out = gm_json(project, "remember", claim, env=day)
    gm(project, "adopt", "--yes", kept["id"], out["id"])
    edit_out(project, out["id"])
    assert gm_json(project, "stage")["commits"] == []
    again = gm_json(project, "remember", claim, env={"AGENT_MEMORY_NOW": "2026-11-07T12:00:00Z"})
    assert again["id"] == out["id"] and again["staged"]


# --- an adopt commit dropped from the branch (`git reset --hard`) ---------------------------------


def _adopt_alone(project: Path, ident: str) -> str:
    """Adopt `ident` on its own (adopt marks it adopted on memory/atoms); returns its commit."""
    gm(project, "adopt", "--yes", ident)
    commit = git(project, "rev-parse", "HEAD").strip()
    assert trailers(project, commit).get("Atom-Id") == ident
    return commit


def _review_state(project: Path, ident: str) -> str | None:
    record = next(a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a["id"] == ident)
    return (record.get("review") or {}).get("state")


def test_an_adopt_commit_reset_away_counts_as_a_rejection_until_new_sessions(project: Path) -> None:
    """`git reset --hard HEAD~1` of an adopt commit leaves no revert and no line removed on
    HEAD's history to see: the next stage offered the item again. The branch's reflog shows
    the commit was on it; dropped from it, the adoption was undone by the person."""
    ids = stage_claims(project)
    gm(project, "adopt", "--yes", ids["push"])
    _adopt_alone(project, ids["tabs"])
    git(project, "reset", "-q", "--hard", "HEAD~1")
    assert ids["tabs"] not in held(project) and ids["push"] in held(project)
    assert ids["tabs"] not in {c["atom"] for c in gm_json(project, "stage")["commits"]}
    assert _review_state(project, ids["tabs"]) == "rejected"
    _rejected_until_said_again(project, ids["tabs"])


def test_a_reflog_line_that_names_no_commit_is_not_handed_to_git(project: Path) -> None:
    """The reflog file is read directly: a hand-made line whose old tip is `--all` was passed
    on to git's stdin as a revision (git 2.39 refuses it, and the whole check with it: the
    reset below went unseen; a git reading options there would take it as one). Only object
    ids are passed on; the reset is still seen."""
    ids = stage_claims(project)
    _adopt_alone(project, ids["tabs"])
    git(project, "reset", "-q", "--hard", "HEAD~1")
    head = git(project, "rev-parse", "HEAD").strip()
    with (project / ".git" / "logs" / "refs" / "heads" / "main").open("a") as fh:
        fh.write(f"--all {head} A U Thor <a@example.com> 1764000000 +0000\treset: moving to HEAD\n")
    gm(project, "stage")
    assert _review_state(project, ids["tabs"]) == "rejected"


def test_a_branch_that_never_had_the_adopt_commit_records_no_rejection(project: Path) -> None:
    """Switching to a branch made before the adoption: the adopt commit is not on it, but it
    never was — no reset of this branch dropped it. Nothing is recorded; back on main it is
    held, and marked so. (The stage on main keeps main's history of adopt lines with its HEAD,
    `adopted_on_head`: side's HEAD is no descendant of it, so side's own history is read.)"""
    ids = stage_claims(project)
    git(project, "branch", "side")
    _adopt_alone(project, ids["tabs"])
    gm(project, "stage")
    git(project, "checkout", "-q", "side")
    gm(project, "stage")
    gm(project, "adopt", "--output", "json", check=False)
    assert _review_state(project, ids["tabs"]) == "adopted"
    git(project, "checkout", "-q", "main")
    assert ids["tabs"] in held(project)
    assert ids["tabs"] not in {b["id"] for b in gm_json(project, "promote")["blocked"]
                               if any("rejected" in r for r in b["reasons"])}  # fmt: skip
    assert _review_state(project, ids["tabs"]) == "adopted"


def test_an_adopt_commit_moved_to_another_branch_is_no_rejection(project: Path) -> None:
    """The adopt commit moved off main onto a branch of its own (`git branch keep` then `git
    reset --hard HEAD~1`, git's way to move a commit made on the wrong branch): main's reflog
    shows it dropped, but the adoption still stands on keep. The stage on main marked it
    rejected on memory/atoms (shared by every branch), and keep's adopted item read as one the
    person rejected; it stays adopted."""
    ids = stage_claims(project)
    _adopt_alone(project, ids["tabs"])
    git(project, "branch", "keep")
    git(project, "reset", "-q", "--hard", "HEAD~1")
    assert ids["tabs"] not in held(project)
    gm(project, "stage")
    assert _review_state(project, ids["tabs"]) == "adopted"
    git(project, "checkout", "-q", "keep")
    assert ids["tabs"] in held(project)
    gm(project, "stage")
    assert _review_state(project, ids["tabs"]) == "adopted"


def test_an_adopt_commit_the_tool_took_back_itself_is_no_rejection(project: Path, tmp_path: Path) -> None:
    """adopt's own step back: its commit was made from memory files another commit changed
    meanwhile, so adopt moved the branch back off it (`_take_back`: the reflog shows the commit
    dropped, as a reset would) — and the second try was refused by a pre-commit hook. The item
    was never adopted: it still waits, not rejected."""
    ids = stage_claims(project)
    repo = G.find_repo(project)
    items = {i.atom_id: i for i in pending(repo, work_files(project, "L2", "CLAUDE.memory.md"))}
    other = items[ids["pytest"]]
    racer = work_files(project, "L2", "CLAUDE.memory.md").append([replace(other.entry, review_commit=other.commit)])
    (tmp_path / "log").write_text(racer.log_text)
    (tmp_path / "block").write_text(racer.target_text)
    hooks = project / ".git" / "hooks"
    (hooks / "post-index-change").write_text(RACER.format(done=tmp_path / "done", index=tmp_path / "index",
                                                          log=tmp_path / "log", block=tmp_path / "block"))  # fmt: skip
    # the second `git commit` of the item (after the take-back) is refused
    (hooks / "pre-commit.chained-by-agent-memory").write_text(
        f'#!/bin/sh\n[ -e "{tmp_path}/tried" ] && {{ echo "not now" >&2; exit 1; }}\n: > "{tmp_path}/tried"\n')
    for hook in ("post-index-change", "pre-commit.chained-by-agent-memory"):
        (hooks / hook).chmod(0o755)
    proc = gm(project, "adopt", "--yes", ids["push"], check=False)
    assert proc.returncode == 1 and "not now" in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert "agent-memory: take back" in git(project, "reflog", "-3", "--format=%gs", "main")
    for hook in ("post-index-change", "pre-commit.chained-by-agent-memory"):
        (hooks / hook).unlink()
    assert ids["push"] not in held(project) and ids["pytest"] in held(project)
    assert ids["push"] in {c["atom"] for c in gm_json(project, "stage")["commits"]}
    assert _review_state(project, ids["push"]) is None
