"""What a new user reads: each message says what happened to them, through the CLI
and real git hooks on real repositories."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, gm_json

from agent_memory.model.atom import atom_id

EMAIL = "alice.smith@corp-example.com"


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now="2026-11-05T12:00:00Z")


def adopt_remembered(repo: Path, claim: str) -> str:
    ident = gm_json(repo, "remember", claim)["id"]
    gm(repo, "adopt", "--yes", ident)
    return str(ident)


# --- scan: where the findings are, and what removes them ---------------------------------------


def test_a_plain_scan_of_a_file_does_not_speak_of_a_commit(project: Path) -> None:
    notes = project / "notes.md"
    notes.write_text(f"- Mail {EMAIL} for keys\n")
    proc = gm(project, "scan", "notes.md", check=False)
    assert proc.returncode == 1 and proc.stdout == "notes.md:1: email\n"
    assert "nothing was committed" not in proc.stderr and "in the files scanned" in proc.stderr
    staged = gm(project, "scan", "--staged", check=False)
    assert staged.returncode == 0
    # inside a commit (the installed pre-commit hook) it is what happened
    (project / "CLAUDE.memory.md").write_text(f"- Mail {EMAIL} for keys\n")
    git(project, "add", "CLAUDE.memory.md")
    assert "in the staged memory files" in gm(project, "scan", "--staged", check=False).stderr
    commit = subprocess_commit(project)
    assert commit.returncode == 1 and "nothing was committed" in commit.stderr


def subprocess_commit(repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", "memory"],
                          capture_output=True, text=True, check=False)  # fmt: skip


def test_a_hand_added_line_is_not_sent_to_forget_an_id_it_does_not_have(project: Path) -> None:
    adopt_remembered(project, "Always run ruff before committing.")
    path = project / "CLAUDE.memory.md"
    path.write_text(path.read_text().replace("- Always run ruff", f"- Mail {EMAIL} for keys.\n- Always run ruff"))
    git(project, "add", "CLAUDE.memory.md")
    commit = subprocess_commit(project)  # through the installed pre-commit hook
    assert commit.returncode == 1, commit.stderr
    assert "forget" not in commit.stderr
    assert "no adopted atom renders to it (written by hand)" in commit.stderr
    assert "git memory validate --fix" in commit.stderr


def test_an_adopted_line_the_guard_refuses_is_named_by_its_id(project: Path) -> None:
    """An atom adopted before a rule refused its line (here: written past the hooks)."""
    adopt_remembered(project, "Always run ruff before committing.")
    old = atom_id("Always run ruff before committing.", "proj")
    claim = f"Always mail {EMAIL} before committing."
    new = atom_id(claim, "proj")
    for rel in ("CLAUDE.memory.md", ".memory/adopted.log"):
        path = project / rel
        path.write_text(path.read_text().replace("Always run ruff before committing", claim[:-1]).replace(old, new))
    git(project, "commit", "-q", "--no-verify", "-am", "past the hooks")
    proc = gm(project, "scan", "CLAUDE.memory.md", check=False)
    assert proc.returncode == 1 and "CLAUDE.memory.md:6: email" in proc.stdout, proc.stdout
    assert f"`git memory forget {new}`" in proc.stderr and "written by hand" not in proc.stderr
    assert json.loads(gm(project, "scan", "--output", "json", "CLAUDE.memory.md", check=False).stdout)["ok"] is False


# --- remember: what was redacted --------------------------------------------------------------


def test_remembering_a_home_path_is_not_called_a_secret(project: Path) -> None:
    proc = gm(project, "remember", "Config lives in /home/alice/project/config.yaml", check=False)
    assert proc.returncode == 1
    assert "secret" not in proc.stdout and "redacted (home-user)" in proc.stdout
    assert "without the home folder in the path" in proc.stdout
    email = gm_json(project, "remember", f"Mail {EMAIL} for keys", check=False)
    assert email["refused"] == ["redacted (email) — restate it without the personal data"]
    key = gm_json(project, "remember", "Use api_key=Xy9fK2mQ8vL3pR7tW1zB4nC6 for the staging API", check=False)
    assert key["refused"] == ["redacted (generic-secret) — restate it without the secret"]


# --- decay: Claude's context holds memory, not our jargon --------------------------------------


def test_after_decay_no_line_about_the_tool_reaches_claude(project: Path) -> None:
    from test_hooks import hook

    keep = adopt_remembered(project, "Always run ruff before committing.")
    gone = adopt_remembered(project, "Use tabs in Makefiles.")
    gm(project, "decay", gone)
    context = hook("session-start", project)  # the installed CLI, as Claude Code runs it
    assert context is not None and "Always run ruff before committing." in context
    lines = context.splitlines()[2:]  # after the opening tag and the one-line introduction
    assert lines and not [line for line in lines if "git memory" in line or "region" in line or "decayed" in line]
    assert gm_json(project, "context")["omitted"] == 1
    # The committed block keeps the pointer for a person, in a comment Claude Code drops.
    block = (project / "CLAUDE.memory.md").read_text()
    assert "<!-- 1 more adopted atom not shown (1 decayed): `git memory inspect --tier L2` -->\n" in block
    assert [line for line in block.splitlines() if line.startswith("- ")] == ["- Always run ruff before committing."]
    assert keep != gone


def test_a_block_with_the_earlier_region_line_is_not_a_hand_edit(project: Path) -> None:
    adopt_remembered(project, "Always run ruff before committing.")
    gone = adopt_remembered(project, "Use tabs in Makefiles.")
    gm(project, "decay", gone)
    path = project / "CLAUDE.memory.md"
    earlier = path.read_text().replace(
        "<!-- 1 more adopted atom not shown (1 decayed): `git memory inspect --tier L2` -->",
        "- region `git memory inspect --tier L2` → 1 more adopted atom (1 decayed)")  # fmt: skip
    assert earlier != path.read_text()
    path.write_text(earlier)
    git(project, "commit", "-q", "-am", "as an earlier agent-memory rendered it")
    assert gm_json(project, "validate")["ok"] is True
    # the next change re-renders it in today's form
    gm(project, "pin", gone)
    assert "- region" not in path.read_text() and "not shown" not in path.read_text()


# --- adopt, then pr ----------------------------------------------------------------------------


def test_adopt_says_when_memory_review_must_be_rebuilt_before_pr(project: Path) -> None:
    from sessions import write_session

    for n in (1, 2, 3):
        write_session(project, f"eeeeeeee-0000-4000-8000-00000000000{n}", f"2026-11-0{n}",
                      [{"user": "Never push directly to main; always open a pull request."},
                       {"user": "Use pnpm, not npm."}])  # fmt: skip
    gm(project, "capture", "--all")
    waiting = [s["atom"] for s in gm_json(project, "status")["staged"]]
    assert len(waiting) == 2
    adopted = gm(project, "adopt", "--yes", waiting[0])
    assert "before `git memory pr`, rebuild it with `git memory stage`" in adopted.stderr
    refused = gm(project, "pr", "--print", check=False)  # what the hint heads off
    assert refused.returncode == 1 and "already adopted" in refused.stderr
    gm(project, "stage")
    assert gm(project, "pr", "--print").returncode == 0
    # nothing left to rebuild for: no hint
    done = gm(project, "adopt", "--all")
    assert "hint" not in done.stderr and "decided_on_review" not in gm_json(project, "adopt", "--all")


# --- status and show count the same L1 atoms ---------------------------------------------------


def test_status_counts_l1_as_show_does(project: Path) -> None:
    from sessions import write_session

    for n in (1, 2, 3):
        write_session(project, f"eeeeeeee-0000-4000-8000-00000000000{n}", f"2026-11-0{n}",
                      [{"user": "Never push directly to main; always open a pull request."},
                       {"user": "Use pnpm, not npm."}, {"user": "Always run ruff before committing."}])  # fmt: skip
    # said once: a rule with a standing word (a candidate) and a plain one under the durability
    # gate's keep bar (pending: both verbs count it apart from the candidates)
    write_session(project, "eeeeeeee-0000-4000-8000-000000000004", "2026-11-04",
                  [{"user": "Always use tabs in Makefiles."}, {"user": "The default branch is dev."}])  # fmt: skip
    gm(project, "capture", "--all")
    gm(project, "adopt", "--yes", gm_json(project, "status")["staged"][0]["atom"])
    show = gm_json(project, "show")
    status = gm_json(project, "status")
    assert len(show["L1"]) == status["L1"]["candidates"] == 1
    assert len(show["pending"]) == status["L1"]["pending"] == 1
    assert sum(c["state"] == "eligible" for c in show["L1"]) == status["L1"]["eligible"] == 0
    assert status["L1"]["atoms"] == 5  # the records on memory/atoms, adopted and staged ones too
    text = gm(project, "status").stdout
    assert "  L1 1 candidate (0 eligible, 0 contested, 1 more pending until said again)" in text
    shown = gm(project, "show").stdout
    assert "L1 candidates: 1, 0 eligible" in shown
    assert "pending until said again in another session: 1" in shown


# --- validate --fix: what it fixed is no error, and it says to commit --------------------------


def test_validate_fix_exits_0_and_says_to_commit_until_the_person_does(project: Path) -> None:
    adopt_remembered(project, "Always run ruff before committing.")
    path = project / "CLAUDE.memory.md"
    path.write_text(path.read_text().replace("- Always run ruff", "- Never use tabs.\n- Always run ruff"))
    git(project, "commit", "-q", "--no-verify", "-am", "a hand edit inside the block")
    assert gm(project, "validate", check=False).returncode == 1
    fixed = gm(project, "validate", "--fix")
    assert "fixed: re-rendered the L2 block" in fixed.stdout and "error" not in fixed.stdout
    # run again before committing: still no error, and still the reminder to commit
    again = gm(project, "validate", "--fix")
    assert "error" not in again.stdout and "differs from HEAD: commit it" in again.stderr + again.stdout
    # a remembered atom cites no transcript: nothing is said to be missing from this machine
    assert "no longer on this machine" not in again.stdout + again.stderr
    git(project, "commit", "-q", "-am", "the re-rendered block")
    clean = gm(project, "validate")
    assert clean.returncode == 0 and "warning" not in clean.stdout + clean.stderr


# --- remember: a hand-authored claim has no transcript, and never had one -----------------------


def test_a_remembered_claim_is_not_shown_as_a_lost_transcript(project: Path) -> None:
    """`remember`'s atom points at `remembered-<id>.jsonl`, a name no transcript has: inspect
    --why and adopt (its item, and 'show more') marked it '(transcript gone)', as if a session
    file had been deleted. validate already knew it names no transcript; these now do too."""
    from test_adopt import choose, finish, next_item, spawn_adopt

    ident = gm_json(project, "remember", "Use vitest for unit tests.")["id"]
    why = gm(project, "inspect", "--why", ident).stdout
    assert "transcript gone" not in why and "written with git memory remember" in why, why
    [item] = gm_json(project, "inspect", "--why", ident)["evidence"]
    assert item["status"] in ("ok", "missing", "ambiguous") and item["line"], item  # the contract's values
    waiting = gm(project, "adopt", check=False)  # no terminal: the items are listed
    assert waiting.returncode == 1 and "transcript gone" not in waiting.stdout, waiting.stdout
    child = spawn_adopt(project)
    assert next_item(child) == ident
    choose(child, "show more")
    child.expect("What should happen to this item")
    choose(child, "adopt")
    assert finish(child) == 0
    shown = child.logfile_read.text()
    assert "written with git memory remember" in shown and "transcript gone" not in shown, shown


def test_extract_counts_in_words_that_agree_with_the_number(project: Path) -> None:
    """A transcript with one prompt read '…, 1 user statements, …'."""
    from sessions import write_session

    path = write_session(project, "ffffffff-0000-4000-8000-000000000001", "2026-11-04", [{"user": "Why is CI red?"}])
    first = gm(project, "extract", str(path)).stdout.splitlines()[0]
    assert ", 1 user statement, 0 unreadable lines skipped;" in first, first


def test_adopt_global_without_a_terminal_points_at_the_global_review(project: Path) -> None:
    """`adopt --global` with no terminal listed the global items, then said they wait 'on
    memory/review' and to 'adopt on a terminal with `git memory adopt`' — the project's
    review, where other items may wait. Both now name the global review and --global."""
    gm(project, "remember", "Use vitest for unit tests.")  # a project item waits too
    gm(project, "remember", "--global", "Prefer small, focused commits.")
    proc = gm(project, "adopt", "--global", check=False)
    assert proc.returncode == 1
    assert "waiting on the global memory repo's memory/review" in proc.stderr, proc.stderr
    assert "`git memory adopt --global`" in proc.stderr and "--all" in proc.stderr, proc.stderr
    assert "1 item waiting on" in proc.stderr, proc.stderr  # not "1 item(s)"
    # An id that is not waiting there: the hint's listing command is the global one too (it
    # named `git memory adopt`, which lists the project's review).
    proc = gm(project, "adopt", "--global", "--yes", "atm_00000000", check=False)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines()[-1] == ("hint: list waiting items with `git memory adopt --global` "
                                            "or `git memory status`"), proc.stderr  # fmt: skip
    gm(project, "adopt", "--global", "--all")
    done = gm(project, "adopt", "--global").stdout
    assert done.startswith("nothing is waiting on the global memory repo's memory/review"), done
    assert "`git memory stage --global`" in done, done
    # the project's own review is worded as before
    assert "1 item waiting on memory/review" in gm(project, "adopt", check=False).stderr


def test_verifying_an_adopted_atom_does_not_say_it_can_now_promote(project: Path) -> None:
    """`verify` on an atom already adopted said 'it can now promote on one observation: see
    `git memory promote`', which then listed it as 'already held at L2'."""
    ident = adopt_remembered(project, "Always run ruff before committing.")
    out = gm(project, "verify", ident, "--by", "true").stdout
    assert "can now promote" not in out and "adopted already" in out, out


def test_verifying_a_pending_claim_says_it_stays_pending_as_promote_does(project: Path) -> None:
    """`verify` of a claim said once (pending) said 'it can now promote on one observation';
    `promote` then blocked it as pending, as the gate always does (verify raises confidence,
    not the evidence that it lasts). verify asks the same gate and says what it says."""
    from sessions import write_session

    write_session(project, "eeeeeeee-0000-4000-8000-000000000009", "2026-11-04", [{"user": "Use tabs in Makefiles."}])
    gm(project, "capture", "--all", "--no-stage")
    [pending] = [a["id"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a.get("pending")]
    out = gm(project, "verify", pending, "--by", "true").stdout.splitlines()
    assert "can now promote" not in "\n".join(out), out
    assert out[1].startswith("it does not promote yet: pending: said once"), out
    [blocked] = [b for b in gm_json(project, "promote")["blocked"] if b["id"] == pending]
    assert "pending" in " ".join(blocked["reasons"])
    # one that the gate lets through on a verified observation still says so
    write_session(project, "eeeeeeee-0000-4000-8000-000000000008", "2026-11-04",
                  [{"user": "Always run the tests with pytest -x before committing."}])  # fmt: skip
    gm(project, "capture", "--all", "--no-stage")
    [rule] = [a["id"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if "pytest" in a["claim"]]
    out = gm(project, "verify", rule, "--by", "true").stdout.splitlines()
    assert out[1] == "it can now promote on one observation: see `git memory promote`", out
    assert rule in {e["id"] for e in gm_json(project, "promote")["eligible"]}


def test_promote_lists_an_adopted_atom_as_held_not_blocked(project: Path) -> None:
    """After adopt, `promote` listed each adopted atom in red as 'blocked … already held at
    L2', as if something stood in its way. It is 'held' now (the JSON keeps it under blocked
    with its reason: the contract's shape)."""
    ident = adopt_remembered(project, "Always run ruff before committing.")
    lines = gm(project, "promote").stdout.splitlines()
    [row] = [i for i, line in enumerate(lines) if ident in line]
    assert lines[row].startswith("held ") and "blocked" not in lines[row], lines
    assert lines[row + 1].strip() == "already held at L2: adopted, nothing to promote", lines
    [item] = [b for b in gm_json(project, "promote")["blocked"] if b["id"] == ident]
    assert item["reasons"] == ["already held at L2"]
