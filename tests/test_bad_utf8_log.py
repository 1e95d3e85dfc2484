"""One byte that is not UTF-8 in the committed `.memory/adopted.log` (a fast-forward pull brings
it in and runs no hook): the session start keeps what it can and logs one line; the CLI verbs
say where the byte is and how to restore the file (exit 3), never 'internal error'."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, gm_json


@pytest.fixture
def broken(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An adopted log with a byte that is not UTF-8 committed on its last line, and one claim
    waiting (its id in .git/waiting-id). Built once per module (the same commands and dates
    for every test); each test gets its own copy (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks",
                            now="2026-11-05T12:00:00Z", then=_break_the_log)  # fmt: skip


def _break_the_log(repo: Path) -> None:
    ident = gm_json(repo, "remember", "Always run ruff before committing.")["id"]
    gm(repo, "adopt", "--yes", ident)
    (repo / ".git" / "waiting-id").write_text(gm_json(repo, "remember", "Use tabs in Makefiles.")["id"])
    log = repo / ".memory" / "adopted.log"
    log.write_bytes(log.read_bytes() + b"\xff\n")
    git(repo, "commit", "-qam", "a pulled byte", "--no-verify")


def test_the_session_context_keeps_the_good_lines_and_logs_one_line(broken: Path) -> None:
    from test_hooks import hook

    context = hook("session-start", broken)
    assert context is not None and "Always run ruff before committing." in context
    errors = (broken / ".git" / "agent-memory" / "errors.log").read_text()
    assert "adopted.log: line 2 (byte offset" in errors and "not UTF-8" in errors


@pytest.mark.parametrize("verb", ["status", "adopt"])
def test_cli_verbs_name_the_byte_and_how_to_restore_it(broken: Path, verb: str) -> None:
    ident = (broken / ".git" / "waiting-id").read_text()
    proc = gm(broken, *([verb] if verb == "status" else [verb, "--yes", ident]), check=False)
    assert proc.returncode == 3, proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    assert "adopted.log: not UTF-8 at line 2 (byte offset" in proc.stderr
    assert "hint:" in proc.stderr and "checkout HEAD -- .memory/adopted.log" in proc.stderr


def test_validate_reports_it(broken: Path) -> None:
    proc = gm(broken, "validate", check=False)
    assert proc.returncode == 1 and "internal error" not in proc.stderr
    assert "adopted.log: not UTF-8 at line 2" in proc.stdout + proc.stderr


@pytest.mark.parametrize("verb", ["promote", "stage", "remember"])
def test_the_verbs_that_stage_name_the_byte_not_json(broken: Path, verb: str) -> None:
    """promote, stage and remember read the log on the base branch: decoded with U+FFFD, its
    line was refused as 'not JSON' (exit 1) with no way out. Now as adopt and status say it."""
    args = {"promote": ["promote"], "stage": ["stage"], "remember": ["remember", "Prefer pathlib over os.path."]}
    proc = gm(broken, *args[verb], check=False)
    assert proc.returncode == 3, proc.stderr
    first, hint = proc.stderr.splitlines()
    assert "not JSON" not in proc.stderr and "internal error" not in proc.stderr
    assert ".memory/adopted.log on main: not UTF-8 at line 2 (byte offset" in first
    assert hint.startswith("hint: repair it with `git memory validate --fix`")
    if verb == "remember":  # the claim is on memory/atoms: it does not say "nothing was changed"
        assert "was recorded but not staged" in first and "nothing was changed" not in first


def test_validate_fix_repairs_the_log_keeping_every_readable_line(broken: Path) -> None:
    log = broken / ".memory" / "adopted.log"
    good = log.read_bytes().split(b"\n")[0]
    # A second record with one Latin-1 letter in its claim: still readable, so kept.
    latin = good.replace(b"Always run ruff", b"Always run r\xe9ff")
    assert latin != good
    log.write_bytes(log.read_bytes() + latin + b"\n")
    before = log.read_bytes()
    proc = gm(broken, "validate", "--fix", "--output", "json", check=False)
    data = __import__("json").loads(proc.stdout)
    assert "internal error" not in proc.stderr, proc.stderr
    after = log.read_bytes()
    after.decode("utf-8")  # UTF-8 now
    lines = after.split(b"\n")
    assert lines[0] == good  # every UTF-8 line as it was
    assert lines[1] == latin.decode("utf-8", "replace").encode("utf-8")  # the readable record kept
    assert b"\xff" not in after  # only the unreadable line removed (the rest of --fix then
    # forgets the kept record, which no block ever showed a reviewer: a line appended after)
    assert all(b'"op":"forget"' in x for x in lines[2:] if x)
    [note] = [f for f in data["fixed"] if "UTF-8" in f]
    assert "removed line 2 (byte offset" in note and "kept line 3 (byte offset" in note
    backups = list((broken / ".git" / "agent-memory").glob("adopted.log.L2.*.not-utf8"))
    assert [b.read_bytes() for b in backups] == [before] and str(backups[0]) in note
    assert "validate --fix" in (broken / ".git" / "agent-memory" / "errors.log").read_text()
    git(broken, "commit", "-qam", "repaired")
    assert gm(broken, "promote", check=False).returncode == 0
    again = gm(broken, "validate", "--fix", "--output", "json", check=False)
    assert not [f for f in __import__("json").loads(again.stdout)["fixed"] if "UTF-8" in f]

def _global_log_with_a_bad_byte(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The global memory repo (returned) with one adopted L3 item and a committed log line that
    is not UTF-8 (as a pull could bring it)."""
    import os

    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-05T12:00:00Z")
    gm(repo, "init", "--yes", "--no-claude-hooks")
    gm(repo, "adopt", "--global", "--yes", gm_json(repo, "remember", "--global", "Always run ruff before committing.")["id"])
    home = Path(os.environ["AGENT_MEMORY_HOME"])
    log = home / ".memory" / "adopted.log"
    log.write_bytes(log.read_bytes() + b"\xff\n")
    git(home, "commit", "-qam", "a pulled byte", "--no-verify")
    return home



def test_remember_global_over_a_bad_global_log_says_the_claim_was_recorded(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`remember --global` records the candidate in the global memory repo before staging it;
    a byte that is not UTF-8 in that repo's adopted.log then stopped the staging with
    '…; nothing was changed' (exit 3), which was untrue: the candidate was kept and a later
    `stage --global` stages it. It now says the claim was recorded but not staged."""
    home = _global_log_with_a_bad_byte(repo, monkeypatch)
    proc = gm(repo, "remember", "--global", "Use tabs in Makefiles, always.", check=False)
    assert proc.returncode == 3, proc.stderr
    first = proc.stderr.splitlines()[0]
    assert "not UTF-8 at line 2" in first and "internal error" not in proc.stderr
    assert "was recorded but not staged" in first and "nothing was changed" not in first, first
    assert "the global memory repo's .memory/adopted.log on main" in first, first  # not the project's
    # what it says was recorded is staged once the log is repaired
    gm(repo, "validate", "--fix", check=False)
    git(home, "commit", "-qam", "repaired", "--no-verify")
    staged = gm_json(repo, "stage", "--global")["commits"]
    assert [c["atom"] for c in staged] == [first.split()[3]], (staged, first)


def test_validate_names_the_global_repo_in_the_git_commands_it_gives_for_l3(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """validate runs in a project and checks the global memory repo too; for its L3 files it
    said `git diff .memory/adopted.log`, `git commit .memory/adopted.log` and `git checkout --
    .memory/adopted.log`, which, run where validate was run, act on the project's log (the
    checkout would drop its uncommitted changes). Each now names the global repo (`git -C`)."""
    home = _global_log_with_a_bad_byte(repo, monkeypatch)
    data = gm_json(repo, "validate", "--fix", check=False)
    [fixed] = [f for f in data["fixed"] if "UTF-8" in f]
    assert f"`git -C {home} diff .memory/adopted.log`" in fixed, fixed
    [commit] = [w for w in data["warnings"] if "differs from HEAD" in w]
    assert f"`git -C {home} commit .memory/adopted.log`" in commit, commit
    data = gm_json(repo, "validate", check=False)
    [error] = [e for e in data["errors"] if "differs from HEAD" in e]
    assert f"`git -C {home} checkout -- .memory/adopted.log`" in error, error
