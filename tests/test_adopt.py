"""`git memory adopt` end to end (issue 6): the interactive walk through a real pseudo-terminal
(pexpect driving questionary), the non-interactive flags, the refusals, and the guarantees
around them — every adopted item is one `git commit` (our pre-commit guard runs) with
`Atom-Id:`/`Adopted-From:` trailers, the block and `.memory/adopted.log` agree whatever
subset is chosen in whatever order, and an interrupted or refused item leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest
from conftest import git
from sessions import gm, gm_json, write_session

NOW = "2026-11-06T12:00:00Z"
SESSIONS = [f"aaaaaaaa-0000-4000-8000-00000000000{n}" for n in (1, 2, 3)]
DAYS = ["2026-11-01", "2026-11-02", "2026-11-03"]
CLAIMS = {
    "push": "Never push directly to main; always open a pull request.",
    "pytest": "Always run the tests with pytest -x before committing.",
    "tabs": "Use tabs for indentation in the Makefile.",
}
MENU = ["adopt", "reject", "skip", "show more", "quit"]
DOWN, ENTER = "\x1b[B", "\r"


# --- setup shared with test_pr.py and test_lifecycle.py ------------------------------------------


def init_project(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    gm(repo, "init", "--yes")
    return repo


def stage_claims(repo: Path, claims: dict[str, str] | None = None) -> dict[str, str]:
    """Each claim stated in three sessions over three days, captured and staged; returns
    key → atom id for the claims that reached memory/review."""
    claims = claims or CLAIMS
    for session, day in zip(SESSIONS, DAYS, strict=True):
        write_session(repo, session, day, [{"user": text} for text in claims.values()])
    gm(repo, "capture", "--all", "--no-stage")
    staged = {c["atom"] for c in gm_json(repo, "stage")["commits"]}
    l1 = {a["id"]: a for a in gm_json(repo, "inspect", "--tier", "L1")["atoms"]}
    out = {}
    for key, text in claims.items():
        found = [i for i in staged if l1[i]["claim"].rstrip(".") == text.rstrip(".")]
        assert len(found) == 1, f"{text!r} was not staged: {sorted(staged)}"
        out[key] = found[0]
    return out


def waiting(repo: Path) -> list[str]:
    return [s["atom"] for s in gm_json(repo, "status")["staged"]]


def held(repo: Path) -> dict[str, dict[str, Any]]:
    return {a["id"]: a for a in gm_json(repo, "inspect", "--tier", "L2")["atoms"]}


def l1_record(repo: Path, ident: str) -> dict[str, Any]:
    atoms: list[dict[str, Any]] = gm_json(repo, "inspect", "--tier", "L1")["atoms"]
    return next(a for a in atoms if a["id"] == ident)


def log_lines(repo: Path) -> list[dict[str, Any]]:
    path = repo / ".memory/adopted.log"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def new_commits(repo: Path, since: str) -> list[str]:
    return git(repo, "rev-list", "--reverse", f"{since}..HEAD").split()


def trailers(repo: Path, oid: str) -> dict[str, str]:
    text = git(repo, "log", "-1", "--format=%(trailers:only,unfold)", oid)
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def changed_files(repo: Path, oid: str) -> list[str]:
    return sorted(git(repo, "diff-tree", "--no-commit-id", "--name-only", "-r", oid).split())


def assert_consistent(repo: Path) -> None:
    """The rendered block agrees with adopted.log, the memory files are committed as they are."""
    proc = gm(repo, "validate", check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (
        git(repo, "status", "--porcelain", "--", "CLAUDE.md", "CLAUDE.memory.md", ".memory") == ""
    )


def memory_state(repo: Path) -> tuple[str, str, str, str]:
    """HEAD, the staged index and the bytes of both memory files (absent → '')."""
    text = [
        (repo / name).read_text() if (repo / name).exists() else ""
        for name in ("CLAUDE.memory.md", ".memory/adopted.log")
    ]
    return git(repo, "rev-parse", "HEAD"), git(repo, "diff", "--cached", "--name-only"), *text  # type: ignore[return-value]


# --- the pseudo-terminal ------------------------------------------------------------------------


def spawn_adopt(repo: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "200", "LINES": "60"}
    child = pexpect.spawn(
        "git",
        ["memory", "adopt", *args],
        cwd=str(repo),
        env=env,
        encoding="utf-8",
        timeout=90,
        dimensions=(60, 200),
    )
    child.logfile_read = _Transcript()
    return child


class _Transcript:
    """Keeps what the terminal showed, for failure messages."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        return "".join(self.parts)


def next_item(child: pexpect.spawn) -> str:
    """Wait for the next item's question; returns the atom id it shows."""
    child.expect(r"\[\d+/\d+\]\r?\n(atm_[0-9a-f]{8})")
    ident = str(child.match.group(1))
    child.expect("What should happen to this item")
    child.expect(r"\(Use arrow keys\)")
    return ident


def choose(child: pexpect.spawn, answer: str, menu: list[str] = MENU) -> None:
    """Move down to `answer` one key at a time, checking the pointer follows, then Enter and
    check questionary echoed the answer: a lost or misread key fails here, not later."""
    for index in range(1, menu.index(answer) + 1):
        child.send(DOWN)
        child.expect(f"» {menu[index]}")
    child.send(ENTER)
    child.expect(f"What should happen to this item\\? \\S*{re.escape(answer)}")


def finish(child: pexpect.spawn) -> int:
    """The exit status; killed by a signal reads as 128 + signal (a Ctrl-C while the tty is in
    cooked mode also reaches `git`, the parent of `git-memory`, which then dies of SIGINT)."""
    child.expect(pexpect.EOF)
    child.close()
    if child.exitstatus is not None:
        return int(child.exitstatus)
    assert child.signalstatus is not None, child.logfile_read.text()
    return 128 + int(child.signalstatus)


@pytest.fixture
def project(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return init_project(repo, monkeypatch)


Staged = tuple[Path, dict[str, str]]


# --- interactive ----------------------------------------------------------------------------------


def test_interactive_adopt_one_reject_one_skip_one(staged: Staged) -> None:
    project, ids = staged
    before = git(project, "rev-parse", "HEAD").strip()
    child = spawn_adopt(project)
    decisions = {}
    for answer in ("adopt", "reject", "skip"):
        decisions[answer] = next_item(child)
        choose(child, answer)
    child.expect("1 adopted, 1 rejected, 1 skipped")
    assert finish(child) == 0
    assert set(decisions.values()) == set(ids.values())

    # exactly one new commit, with the two memory files and the provenance trailers
    commits = new_commits(project, before)
    assert len(commits) == 1
    found = trailers(project, commits[0])
    assert found["Atom-Id"] == decisions["adopt"]
    review_commit = found["Adopted-From"]
    assert git(project, "cat-file", "-t", review_commit).strip() == "commit"
    assert f"Atom-Id: {decisions['adopt']}" in git(
        project, "log", "-1", "--format=%B", review_commit
    )
    assert changed_files(project, commits[0]) == [".memory/adopted.log", "CLAUDE.memory.md"]
    assert set(held(project)) == {decisions["adopt"]}
    assert [(e["op"], e["atom"]["id"], e["review_commit"]) for e in log_lines(project)] == [
        ("adopt", decisions["adopt"], review_commit)
    ]
    assert_consistent(project)

    # the decisions are on memory/atoms; only the skipped item is still waiting
    assert l1_record(project, decisions["adopt"])["review"]["state"] == "adopted"
    assert l1_record(project, decisions["reject"])["review"]["state"] == "rejected"
    assert "review" not in l1_record(project, decisions["skip"])
    assert waiting(project) == [decisions["skip"]]


def test_show_more_then_adopt_shows_every_session_and_the_review_commit(staged: Staged) -> None:
    project = staged[0]
    child = spawn_adopt(project)
    first = next_item(child)
    choose(child, "show more")
    child.expect("sessions: " + ", ".join(SESSIONS))
    child.expect(r"staged in ([0-9a-f]{40})")
    staged_in = str(child.match.group(1))
    child.expect(r"\(Use arrow keys\)")
    choose(child, "adopt")
    child.expect("adopted in")
    next_item(child)
    choose(child, "quit")
    child.expect("2 items still waiting")
    assert finish(child) == 0
    assert set(held(project)) == {first}
    assert trailers(project, "HEAD")["Adopted-From"] == staged_in
    assert len(waiting(project)) == 2
    assert_consistent(project)


def test_quit_and_ctrl_c_between_items_leave_whole_items_and_a_rerun_continues(
    staged: Staged,
) -> None:
    project, ids = staged
    start = git(project, "rev-parse", "HEAD").strip()
    child = spawn_adopt(project)
    first = next_item(child)
    choose(child, "adopt")
    child.expect("adopted in")
    next_item(child)
    choose(child, "quit")
    assert finish(child) == 0
    assert len(new_commits(project, start)) == 1 and set(held(project)) == {first}
    assert_consistent(project)

    # the rerun continues with what is left; Ctrl-C at the question stops with 130
    child = spawn_adopt(project)
    second = next_item(child)
    assert second != first
    choose(child, "adopt")
    child.expect("adopted in")
    third = next_item(child)
    child.sendintr()
    child.expect("interrupted; 1 item still waiting")
    assert finish(child) == 130
    assert set(held(project)) == {first, second}
    assert len(new_commits(project, start)) == 2
    assert_consistent(project)
    assert waiting(project) == [third]

    child = spawn_adopt(project)
    assert next_item(child) == third
    choose(child, "adopt")
    child.expect("1 adopted, 0 rejected, 0 skipped")
    assert finish(child) == 0
    assert set(held(project)) == set(ids.values())
    assert waiting(project) == []
    assert_consistent(project)


def test_ctrl_c_while_the_commit_runs_leaves_no_half_applied_item(staged: Staged) -> None:
    project = staged[0]
    # A user's own pre-commit hook (chained by ours) that takes its time: Ctrl-C lands while
    # `git commit` is running, after adopt has written the two files.
    marker = project / "hook-started"
    chained = project / ".git/hooks/pre-commit.chained-by-agent-memory"
    chained.write_text(f"#!/bin/sh\ntouch '{marker}'\nsleep 60\n")
    chained.chmod(0o755)
    before = memory_state(project)
    child = spawn_adopt(project)
    next_item(child)
    choose(child, "adopt")
    deadline = time.monotonic() + 60
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists(), child.logfile_read.text()
    child.sendintr()
    assert finish(child) == 130
    assert memory_state(project) == before
    assert git(project, "status", "--porcelain", "--", "CLAUDE.memory.md", ".memory") == ""
    assert held(project) == {}
    chained.unlink()
    done = gm_json(project, "adopt", "--all")
    assert len(done["adopted"]) == 3
    assert_consistent(project)


def test_a_refused_item_is_offered_reject_but_not_adopt(staged: Staged) -> None:
    project, ids = staged
    make_unsettled(project, SESSIONS[0])
    child = spawn_adopt(project)
    next_item(child)
    assert "cannot adopt: its citation" in child.logfile_read.text()
    assert "ambiguous" in child.logfile_read.text()
    refused_menu = ["reject", "skip", "show more", "quit"]  # "adopt" is not offered
    child.expect(r"» reject")
    choose(child, "reject", refused_menu)
    child.expect("rejected")
    next_item(child)
    choose(child, "quit", refused_menu)
    child.expect("stopped")
    assert finish(child) == 0
    assert held(project) == {}
    assert (
        sum(
            l1_record(project, i).get("review", {}).get("state") == "rejected" for i in ids.values()
        )
        == 1
    )


# --- non-interactive --------------------------------------------------------------------------


def test_adopt_all_then_nothing_is_waiting(staged: Staged) -> None:
    project, ids = staged
    start = git(project, "rev-parse", "HEAD").strip()
    report = gm_json(project, "adopt", "--all")
    assert {a["atom"] for a in report["adopted"]} == set(ids.values())
    commits = new_commits(project, start)
    assert [trailers(project, c)["Atom-Id"] for c in commits] == [
        a["atom"] for a in report["adopted"]
    ]
    assert all(
        changed_files(project, c) == [".memory/adopted.log", "CLAUDE.memory.md"] for c in commits
    )
    assert set(held(project)) == set(ids.values())
    assert_consistent(project)
    assert waiting(project) == []
    assert gm_json(project, "stage")["commits"] == []


@pytest.mark.parametrize(
    "order", [("tabs", "push"), ("push", "tabs"), ("pytest",), ("tabs", "pytest", "push")]
)
def test_any_subset_in_any_order_keeps_block_and_log_consistent(
    staged: Staged, order: tuple[str, ...]
) -> None:
    project, ids = staged
    for key in order:  # one command per item, in the given order
        gm(project, "adopt", "--yes", ids[key])
        assert_consistent(project)
    assert set(held(project)) == {ids[k] for k in order}
    assert [e["atom"]["id"] for e in log_lines(project)] == [ids[k] for k in order]
    block = (project / "CLAUDE.memory.md").read_text()
    for key, text in CLAIMS.items():
        assert (text.rstrip(".") in block) == (key in order)
    assert sorted(waiting(project)) == sorted(ids[k] for k in CLAIMS if k not in order)


def test_adopting_one_subset_gives_the_same_block_whatever_the_order(staged: Staged) -> None:
    project, ids = staged
    blocks = {}
    for branch, order in (("first", ("tabs", "push")), ("second", ("push", "tabs"))):
        git(project, "checkout", "-q", "-b", branch, "main")
        for key in order:
            gm(project, "adopt", "--yes", ids[key])
        assert_consistent(project)
        blocks[branch] = (project / "CLAUDE.memory.md").read_text()
        assert set(held(project)) == {ids["tabs"], ids["push"]}
    assert blocks["first"] == blocks["second"]


def test_yes_with_prefixes_reject_and_an_interrupted_rerun(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["push"][:9], "--reject", ids["tabs"])
    assert set(held(project)) == {ids["push"]}
    assert l1_record(project, ids["tabs"])["review"]["state"] == "rejected"
    assert waiting(project) == [ids["pytest"]]
    # rerunning the same kind of command (as after an interrupt) continues with the rest
    report = gm_json(project, "adopt", "--yes", ids["push"], ids["pytest"])
    assert [a["atom"] for a in report["adopted"]] == [ids["pytest"]]
    assert report["already"] == [ids["push"]]
    assert_consistent(project)
    # a rejection is not restaged until new sessions add evidence
    assert ids["tabs"] not in {c["atom"] for c in gm_json(project, "stage")["commits"]}


def test_an_item_already_adopted_is_said_to_be_and_pin_named_for_one_to_pin(staged: Staged) -> None:
    """A rerun naming an adopted item said 'already decided (adopted or rejected)'; and
    `adopt --pin ID` of an item adopted earlier said that and nothing more, though it pinned
    nothing. It says which, and names `git memory pin ID`, whose command then pins it."""
    project, ids = staged
    gm(project, "adopt", "--yes", ids["push"], "--reject", ids["tabs"])
    head = git(project, "rev-parse", "HEAD")
    assert "Evidence: 3 sessions (" in git(project, "log", "-1", "--format=%b")
    proc = gm(project, "adopt", "--pin", ids["push"], "--reject", ids["tabs"])
    assert sorted(proc.stdout.splitlines()) == sorted([
        f"{ids['push']} was already adopted; nothing to do",
        f"{ids['tabs']} was already decided (adopted or rejected); nothing to do"])
    assert proc.stderr.splitlines() == [f"hint: to pin an adopted item: git memory pin {ids['push']}"]
    # named by words of its claim, as any ID may be: the same (it said "… is not waiting", exit 2)
    by_words = gm(project, "adopt", "--pin", "never push directly")
    assert by_words.stdout == f"{ids['push']} was already adopted; nothing to do\n" and by_words.stderr == proc.stderr
    assert git(project, "rev-parse", "HEAD") == head and not held(project)[ids["push"]].get("pinned")
    gm(project, *proc.stderr.split(": ", 2)[2].split()[2:])  # the hint's command
    assert held(project)[ids["push"]]["pinned"] is True
    proc = gm(project, "adopt", "--pin", ids["push"])  # pinned now: no hint
    assert proc.stdout.splitlines() == [f"{ids['push']} was already adopted; nothing to do"] and proc.stderr == ""
    proc = gm(project, "adopt", "--yes", ids["push"])  # named to adopt, not to pin: no hint
    assert proc.stderr == ""
    # the adopt commit counts its evidence in words that agree ("Evidence: 1 sessions")
    gm(project, "remember", "Prefer small, focused commits.")
    gm(project, "adopt", "--all")
    assert "Evidence: 1 session (" in git(project, "log", "-1", "--format=%b")


def test_unknown_or_conflicting_ids_are_usage_errors_that_change_nothing(staged: Staged) -> None:
    project, ids = staged
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", "--yes", "atm_00000000", check=False)
    assert proc.returncode == 2 and "not waiting" in proc.stderr and "hint:" in proc.stderr
    proc = gm(project, "adopt", "--yes", ids["push"], "--reject", ids["push"], check=False)
    assert proc.returncode == 2
    proc = gm(project, "adopt", "--yes", "atm_", check=False)
    assert proc.returncode == 2 and "several" in proc.stderr
    assert git(project, "rev-parse", "HEAD") == head
    assert len(waiting(project)) == 3


def test_all_with_ids_to_adopt_is_a_usage_error_and_all_but_rejected_still_works(staged: Staged) -> None:
    project, ids = staged
    head = git(project, "rev-parse", "HEAD")
    # `--all | --yes ID…`: the IDs would be ignored and every item adopted.
    for argv in (["--all", "--yes", ids["push"]], ["--yes", ids["push"], "--all"],
                 ["--all", "--yes", "atm_00000000"], ["--global", "--all", "--yes", ids["push"]]):
        proc = gm(project, "adopt", *argv, check=False)
        assert proc.returncode == 2, (argv, proc.stdout, proc.stderr)
        lines = proc.stderr.splitlines()
        assert len(lines) == 2 and "--all" in lines[0] and "--yes" in lines[0], lines
        assert lines[1].startswith("hint: ") and proc.stdout == ""
    # named to pin and to reject: a contradiction with --all as without it
    proc = gm(project, "adopt", "--all", "--pin", ids["tabs"], "--reject", ids["tabs"], check=False)
    assert proc.returncode == 2 and "both to adopt and to reject" in proc.stderr and "hint:" in proc.stderr
    assert git(project, "rev-parse", "HEAD") == head
    assert len(waiting(project)) == 3
    # `--all --reject ID` (the contract's `[--all | --yes ID…] [--reject ID…]`): every other item
    report = gm_json(project, "adopt", "--all", "--reject", ids["tabs"])
    assert sorted(a["atom"] for a in report["adopted"]) == sorted([ids["push"], ids["pytest"]])
    assert report["rejected"] == [ids["tabs"]]
    assert waiting(project) == []


def test_pin_marks_the_item_decay_exempt_as_it_is_adopted(staged: Staged) -> None:
    project, ids = staged
    report = gm_json(project, "adopt", "--all", "--pin", ids["tabs"])
    assert {a["atom"]: a["pinned"] for a in report["adopted"]} == {
        ids["push"]: False,
        ids["pytest"]: False,
        ids["tabs"]: True,
    }
    atoms = held(project)
    assert atoms[ids["tabs"]]["pinned"] is True
    assert not atoms[ids["push"]].get("pinned")
    pinned_commit = next(a["commit"] for a in report["adopted"] if a["atom"] == ids["tabs"])
    assert trailers(project, pinned_commit)["Pinned"] == "yes"
    block = (project / "CLAUDE.memory.md").read_text()
    pinned_part = block.split("### Pinned", 1)[1].split("### Recent", 1)[0]
    assert CLAIMS["tabs"].rstrip(".") in pinned_part
    assert CLAIMS["push"].rstrip(".") not in pinned_part
    assert_consistent(project)
    # pinned is decay-exempt
    proc = gm(project, "decay", ids["tabs"], check=False)
    assert proc.returncode == 2 and "unpin" in proc.stderr


def test_pin_alone_without_a_terminal_adopts_that_item_pinned(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--pin", ids["push"])
    assert {i: a.get("pinned") for i, a in held(project).items()} == {ids["push"]: True}
    assert sorted(waiting(project)) == sorted([ids["pytest"], ids["tabs"]])


def test_pin_on_a_terminal_pins_what_the_walk_adopts(staged: Staged) -> None:
    project, ids = staged
    child = spawn_adopt(project, "--pin", ids["pytest"])
    for _ in range(3):
        ident = next_item(child)
        choose(child, "adopt" if ident == ids["pytest"] else "skip")
    child.expect("1 adopted")
    assert finish(child) == 0
    assert held(project)[ids["pytest"]]["pinned"] is True


# --- refusals -------------------------------------------------------------------------------------


def make_ambiguous(repo: Path, session: str) -> Path:
    """A second transcript with the same file name under another project slug: a stripped
    back-pointer `<session>.jsonl#L<n>` now matches two files (spec §3.1.1: never guessed)."""
    projects = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects"
    original = next(projects.glob(f"*/{session}.jsonl"))
    twin = projects / "-home-someone-else-proj" / original.name
    twin.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(original, twin)
    return twin


def make_unsettled(repo: Path, session: str) -> None:
    """Two copies of a session, neither in this project's folder: nothing says which one a
    claim came from."""
    twin = make_ambiguous(repo, session)
    own = next(p for p in twin.parent.parent.glob(f"*/{twin.name}") if p != twin)
    third = twin.parent.parent / "-home-third-proj" / twin.name
    third.parent.mkdir(parents=True)
    shutil.move(str(own), third)


def test_an_ambiguous_citation_is_refused(staged: Staged) -> None:
    project, ids = staged
    make_unsettled(project, SESSIONS[0])  # every claim's first_source is in session 1
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", "--yes", ids["push"], "--output", "json", check=False)
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert report["adopted"] == [] and "ambiguous" in report["refused"][ids["push"]]
    assert "2 transcripts match" in report["refused"][ids["push"]]
    assert git(project, "rev-parse", "HEAD") == head
    assert ids["push"] in waiting(project)


def test_a_copy_of_the_session_under_another_project_leaves_the_citation_to_this_one(staged: Staged) -> None:
    # The same session file under another project's folder too (a backup, a test repository
    # fed the same sessions): the copy in this project's folder is the one it was captured from.
    project, ids = staged
    make_ambiguous(project, SESSIONS[0])
    report = gm_json(project, "adopt", "--yes", ids["push"])
    assert [a["atom"] for a in report["adopted"]] == [ids["push"]] and report["refused"] == {}


def rewrite_review_tip(repo: Path, change: Any) -> str:
    """Replace memory/review's tip with a commit whose adopted.log's last line was passed
    through `change` (plumbing only: a temporary index, write-tree, commit-tree, update-ref)."""
    tip = git(repo, "rev-parse", "memory/review").strip()
    lines = git(repo, "show", f"{tip}:.memory/adopted.log").splitlines()
    entry = json.loads(lines[-1])
    change(entry)
    lines[-1] = json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    env = {**os.environ, "GIT_INDEX_FILE": str(repo / ".git" / "tmp-index")}

    def plumb(*args: str, data: str | None = None) -> str:
        proc = subprocess.run(
            ["git", "-C", str(repo), *args],
            input=data,
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        return proc.stdout.strip()

    plumb("read-tree", tip)
    blob = plumb("hash-object", "-w", "--stdin", data="\n".join(lines) + "\n")
    plumb("update-index", "--cacheinfo", f"100644,{blob},.memory/adopted.log")
    tree = plumb("write-tree")
    message = git(repo, "log", "-1", "--format=%B", tip)
    new = plumb("commit-tree", tree, "-p", f"{tip}^", data=message)
    plumb("update-ref", "refs/heads/memory/review", new, tip)
    os.unlink(env["GIT_INDEX_FILE"])
    return entry["atom"]["id"]  # type: ignore[no-any-return]


def test_a_redacted_claim_is_never_adopted(staged: Staged) -> None:
    project = staged[0]

    def redact(entry: dict[str, Any]) -> None:
        entry["atom"]["claim"] = "Deploy with the token [REDACTED:github-token] from now on"
        entry["atom"]["redacted"] = True

    ident = rewrite_review_tip(project, redact)
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", "--all", "--output", "json", check=False)
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert "restatement" in report["refused"][ident]
    assert ident not in held(project) and len(report["adopted"]) == 2
    assert ident in waiting(project)
    assert "[REDACTED" not in (project / "CLAUDE.memory.md").read_text()
    assert len(new_commits(project, head.strip())) == 2
    assert_consistent(project)


def test_the_guard_hook_refusing_the_commit_leaves_files_and_index_as_before(staged: Staged) -> None:
    project = staged[0]
    secret = "AKIA" + "Q7ZXW4PL2MNB8RTY"

    def leak(entry: dict[str, Any]) -> None:
        entry["atom"]["claim"] = f"The deploy key is {secret} for staging"

    ident = rewrite_review_tip(project, leak)
    gm(project, "adopt", "--all", "--output", "json", check=False)  # the two clean items
    assert waiting(project) == [ident]
    before = memory_state(project)
    proc = gm(project, "adopt", "--yes", ident, "--output", "json", check=False)
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert report["adopted"] == [] and "refused" in report["refused"][ident]
    assert memory_state(project) == before
    assert secret not in (project / "CLAUDE.memory.md").read_text()
    assert secret not in (project / ".memory/adopted.log").read_text()
    assert git(project, "status", "--porcelain", "--", "CLAUDE.memory.md", ".memory") == ""
    assert ident not in held(project) and "review" not in l1_record(project, ident)
    assert_consistent(project)


def test_a_refused_first_adoption_creates_no_memory_file(staged: Staged) -> None:
    project = staged[0]
    secret = "AKIA" + "Q7ZXW4PL2MNB8RTY"
    ident = rewrite_review_tip(
        project, lambda e: e["atom"].update(claim=f"The deploy key is {secret}")
    )
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", "--yes", ident, check=False)
    assert proc.returncode == 1 and "git commit failed" in proc.stdout  # the guard hook said no
    assert git(project, "rev-parse", "HEAD") == head
    assert not (project / "CLAUDE.memory.md").exists()
    assert not (project / ".memory/adopted.log").exists()
    assert git(project, "status", "--porcelain") == ""


@pytest.mark.parametrize("name", ["CLAUDE.md", "CLAUDE.memory.md"])
def test_a_dirty_memory_file_stops_adopt_before_anything_is_written(
    staged: Staged, name: str
) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["push"])  # CLAUDE.memory.md exists (tracked) from here on
    path = project / name
    path.write_text(path.read_text() + "\nlocal note\n")
    before = memory_state(project)
    atoms_tip = git(project, "rev-parse", "memory/atoms")
    for args in (["--all"], ["--reject", ids["tabs"]], ["--pin", ids["pytest"]]):
        proc = gm(project, "adopt", *args, check=False)
        assert proc.returncode == 3, proc.stderr
        assert name in proc.stderr and "hint:" in proc.stderr
    assert memory_state(project) == before
    assert git(project, "rev-parse", "memory/atoms") == atoms_tip
    assert path.read_text().endswith("local note\n")
    assert sorted(waiting(project)) == sorted([ids["tabs"], ids["pytest"]])


def test_a_review_branch_built_on_an_older_base_still_adopts_cleanly(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["push"])
    (project / "src.py").write_text("print('unrelated work')\n")
    git(project, "add", "src.py")
    git(project, "commit", "-q", "-m", "unrelated work on main")
    # memory/review still sits on the base it was staged on, two commits behind main
    base = git(project, "merge-base", "HEAD", "memory/review").strip()
    assert base != git(project, "rev-parse", "HEAD").strip()
    gm(project, "adopt", "--yes", ids["tabs"], ids["pytest"])
    assert set(held(project)) == set(ids.values())
    assert (project / "src.py").exists()
    assert_consistent(project)


def test_a_hand_edit_inside_the_block_is_refused_with_the_fix(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["push"])
    path = project / "CLAUDE.memory.md"
    edited = path.read_text().replace(
        "Never push directly to main", "Push to main whenever you like"
    )
    path.write_text(edited)
    git(project, "commit", "-q", "-am", "edit the memory block by hand")
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", "--yes", ids["tabs"], check=False)
    assert proc.returncode == 1
    assert "edited by hand" in proc.stderr and "validate --fix" in proc.stderr
    assert git(project, "rev-parse", "HEAD") == head and path.read_text() == edited
    # the fix the hint names, then adopt goes through
    gm(project, "validate", "--fix")
    git(project, "commit", "-q", "-am", "re-render the memory block")
    gm(project, "adopt", "--yes", ids["tabs"])
    assert set(held(project)) == {ids["push"], ids["tabs"]}
    assert "Push to main whenever" not in path.read_text()
    assert_consistent(project)


# --- the loop closes ------------------------------------------------------------------------------


def test_blame_a_line_back_to_the_sessions_that_earned_it(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["pytest"], ids["push"])
    text = (project / "CLAUDE.memory.md").read_text()
    number = next(n for n, line in enumerate(text.splitlines(), 1) if "pytest -x" in line)
    blamed = git(
        project, "blame", "--porcelain", "-L", f"{number},{number}", "CLAUDE.memory.md"
    ).split()[0]
    ident = trailers(project, blamed)["Atom-Id"]
    assert ident == ids["pytest"]
    history = gm_json(project, "log", ident)["commits"]
    assert set(SESSIONS) <= {c["session"] for c in history}
    assert "held" in {c["op"] for c in history}  # the L1 record is marked held at L2
    assert ident in held(project)
    promote = gm_json(project, "promote")
    assert ident not in {e["id"] for e in promote["eligible"]}


def test_the_quoted_source_line_is_shown_redacted(project: Path) -> None:
    token = "ghp_" + "Ab1" * 12
    for session, day in zip(SESSIONS, DAYS, strict=True):
        write_session(
            project,
            session,
            day,
            [{"user": f"{CLAIMS['pytest']} The CI token is {token} if you need it."}],
        )
    gm(project, "capture", "--all", "--no-stage")
    staged = gm_json(project, "stage")["commits"]
    assert len(staged) == 1  # the token's own atom is redacted and never staged
    child = spawn_adopt(project)
    next_item(child)
    choose(child, "show more")
    child.expect(r"\(Use arrow keys\)")
    choose(child, "adopt")
    child.expect("1 adopted")
    assert finish(child) == 0
    shown = child.logfile_read.text()
    assert token not in shown
    assert shown.count("The CI token is [REDACTED:github-token]") >= 1 + len(
        SESSIONS
    )  # first, then every session
    assert token not in (project / "CLAUDE.memory.md").read_text()


def test_with_memory_target_claude_md_the_block_lives_in_claude_md(project: Path) -> None:
    git(project, "config", "memory.target", "claude-md")
    ids = stage_claims(project)
    start = git(project, "rev-parse", "HEAD").strip()
    gm(project, "adopt", "--yes", ids["push"], ids["tabs"])
    commits = new_commits(project, start)
    assert len(commits) == 2
    assert all(changed_files(project, c) == [".memory/adopted.log", "CLAUDE.md"] for c in commits)
    text = (project / "CLAUDE.md").read_text()
    assert "<!-- agent-memory:begin L2 -->" in text and CLAIMS["push"].rstrip(".") in text
    assert not (project / "CLAUDE.memory.md").exists()
    assert_consistent(project)
    (project / "CLAUDE.md").write_text(text + "\nmy own note\n")
    proc = gm(project, "adopt", "--yes", ids["pytest"], check=False)
    assert proc.returncode == 3 and "CLAUDE.md" in proc.stderr


def test_adopt_refuses_up_front_a_claude_md_target_too_large_for_the_guard(project: Path) -> None:
    """With memory.target=claude-md, a CLAUDE.md over MAX_BLOCK_FILE_BYTES is one the commit
    guard does not read (a too-large finding): adopt appended, committed, had the hook refuse
    and rolled back. It says so before anything is written."""
    git(project, "config", "memory.target", "claude-md")
    ids = stage_claims(project)
    gm(project, "adopt", "--yes", ids["push"])
    text = (project / "CLAUDE.md").read_text()
    (project / "CLAUDE.md").write_text(text + "my own long notes line\n" * 400_000)
    git(project, "commit", "-qam", "notes", "--no-verify")
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", "--yes", ids["tabs"], check=False)
    assert proc.returncode == 1 and "CLAUDE.md is 9" in proc.stderr and "more than the commit guard reads" in proc.stderr
    assert "hook" not in proc.stderr, proc.stderr  # refused by adopt, not by the commit it made
    assert git(project, "rev-parse", "HEAD") == head and git(project, "status", "--porcelain") == ""


def test_inspect_why_by_text_shows_the_evidence_of_an_adopted_line(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["pytest"])
    why = gm_json(project, "inspect", "--why", "pytest -x")
    assert why["atom"]["id"] == ids["pytest"]
    assert [e["status"] for e in why["evidence"]] == ["ok"] * len(SESSIONS)
    assert all(e["line"] == CLAIMS["pytest"] for e in why["evidence"])
    assert {e["source"].rsplit("/", 1)[-1].split(".jsonl")[0] for e in why["evidence"]} == set(
        SESSIONS
    )


def test_adopt_under_a_working_tree_encoding_names_the_attribute(staged: Staged) -> None:
    """A committed `.gitattributes` puts the memory files in UTF-16 in the work tree: every
    adopt failed cleanly, but its hint did not say why. It names the attribute now, and how to
    take it off; nothing is adopted."""
    project, ids = staged
    (project / ".gitattributes").write_text("CLAUDE.memory.md working-tree-encoding=UTF-16\n")
    git(project, "add", ".gitattributes")
    git(project, "commit", "-qm", "attributes")
    before = memory_state(project)
    proc = gm(project, "adopt", "--yes", ids["push"], check=False)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 2 and err[1].startswith("hint:"), err
    assert "working-tree-encoding=UTF-16" in err[0] and "CLAUDE.memory.md" in err[0]
    assert "delete the line of .gitattributes" in err[1]
    assert memory_state(project) == before
