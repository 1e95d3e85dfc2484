"""CLI behaviour that is not one capability: lazy imports, exit codes, the error log, forget,
idempotent backfill, evidence that outlives its transcript."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json, write_session

from agent_memory.gitio.state import ERROR_LOG_LINES, log_error


def _modules_after(argv: list[str], stdin: str = "") -> set[str]:
    code = ("import sys\nfrom agent_memory.cli.main import main\n"
            f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
            "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, input=stdin)
    return set(proc.stderr.split())


@pytest.mark.parametrize("argv", [["--help"], ["hook", "user-prompt-submit"], ["hook", "session-start"],
                                  ["hook", "session-end"]])
def test_help_and_hook_fast_paths_import_no_pygit2(argv: list[str], tmp_path: Path) -> None:
    modules = _modules_after(argv, stdin=json.dumps({"cwd": str(tmp_path), "prompt": "x"}))
    assert "agent_memory.cli.main" in modules
    for heavy in ("pygit2", "jsonschema", "git", "questionary"):
        assert heavy not in modules, f"{argv} imported {heavy}"


def test_no_verb_and_unknown_verb_are_usage_errors(tmp_path: Path) -> None:
    assert gm(tmp_path, check=False).returncode == 2
    assert gm(tmp_path, "frobnicate", check=False).returncode == 2


def test_not_initialised_is_exit_3_with_a_hint(repo: Path) -> None:
    proc = gm(repo, "inspect", "--tier", "L1", check=False)
    assert proc.returncode == 3 and "not initialised" in proc.stderr and "hint: run `git memory init`" in proc.stderr


def test_the_error_log_is_private_and_capped(repo: Path) -> None:
    for i in range(ERROR_LOG_LINES + 25):
        log_error(f"failure number {i}", repo)
    path = repo / ".git" / "agent-memory" / "errors.log"
    lines = path.read_text().splitlines()
    assert len(lines) == ERROR_LOG_LINES and lines[-1].endswith(f"failure number {ERROR_LOG_LINES + 24}")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_an_internal_error_is_exit_3_with_the_traceback_in_the_log(repo: Path) -> None:
    gm(repo, "init", "--no-claude-hooks")
    # a memory/atoms ref that points at a blob, not a commit: nothing a user can fix by flags
    blob = subprocess.run(["git", "-C", str(repo), "hash-object", "-w", "--stdin"], input=b"x",
                          capture_output=True, check=True).stdout.decode().strip()
    (repo / ".git" / "refs" / "heads" / "memory" / "atoms").write_text(blob + "\n")
    proc = gm(repo, "inspect", "--tier", "L1", check=False)
    assert proc.returncode in (1, 3) and "hint:" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 2


@pytest.fixture
def captured(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-06T12:00:00Z")
    gm(repo, "init", "--yes", "--no-claude-hooks")
    write_session(repo, "ffffffff-0000-4000-8000-000000000001", "2026-11-01",
                  [{"user": "Never force-push to the release branch."}, {"user": "what time is it?"}])
    write_session(repo, "ffffffff-0000-4000-8000-000000000002", "2026-11-02",
                  [{"user": "Never force-push to the release branch."}])
    return repo


def test_capture_all_is_idempotent(captured: Path) -> None:
    first = gm_json(captured, "capture", "--all", "--no-stage")
    assert first["new"] >= 1 and first["commits"] == 2
    tip = git(captured, "rev-parse", "memory/atoms")
    again = gm_json(captured, "capture", "--all", "--no-stage")
    assert again["new"] == 0 and again["merged"] == 0 and again["commits"] == 0
    assert git(captured, "rev-parse", "memory/atoms") == tip


def test_forget_tombstones_so_recapture_does_not_relearn_and_undo_restores(captured: Path) -> None:
    gm(captured, "capture", "--all", "--no-stage")
    (atom,) = [a for a in gm_json(captured, "inspect", "--tier", "L1")["atoms"] if "release branch" in a["claim"]]
    gm(captured, "forget", atom["id"])
    assert atom["id"] not in {a["id"] for a in gm_json(captured, "inspect", "--tier", "L1")["atoms"]}
    write_session(captured, "ffffffff-0000-4000-8000-000000000003", "2026-11-03",
                  [{"user": "Never force-push to the release branch."}])
    result = gm_json(captured, "capture", "--all", "--no-stage")
    assert result["new"] == 0
    assert atom["id"] not in {a["id"] for a in gm_json(captured, "inspect", "--tier", "L1")["atoms"]}
    gm(captured, "forget", "--undo", atom["id"])
    restored = {a["id"]: a for a in gm_json(captured, "inspect", "--tier", "L1")["atoms"]}
    assert atom["id"] in restored and len(restored[atom["id"]]["sessions"]) == 2
    ops = [c["op"] for c in gm_json(captured, "log", atom["id"])["commits"]]
    assert ops[:2] == ["unforget", "forget"] and "capture" in ops


def test_evidence_outlives_the_transcript(captured: Path) -> None:
    gm(captured, "capture", "--all", "--no-stage")
    (atom,) = [a for a in gm_json(captured, "inspect", "--tier", "L1")["atoms"] if "release branch" in a["claim"]]
    why = gm_json(captured, "inspect", "--why", atom["id"])
    assert {e["status"] for e in why["evidence"]} == {"ok"}
    assert all("force-push" in e["line"] for e in why["evidence"])
    for path in (Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects").rglob("*.jsonl"):
        path.unlink()
    gone = gm_json(captured, "inspect", "--why", atom["claim"])
    assert {e["status"] for e in gone["evidence"]} == {"missing"}
    assert all("force-push" in e["line"] for e in gone["evidence"])
    assert "transcript gone" in gm(captured, "inspect", "--why", atom["id"]).stdout


def test_inspect_why_text_that_matches_nothing_is_exit_2(captured: Path) -> None:
    gm(captured, "capture", "--all", "--no-stage")
    proc = gm(captured, "inspect", "--why", "something nobody said", check=False)
    assert proc.returncode == 2 and "hint:" in proc.stderr


def test_init_refuses_an_unreadable_settings_file_before_writing_anything(repo: Path) -> None:
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text("{ not json")
    proc = gm(repo, "init", "--yes", check=False)
    assert proc.returncode == 3 and "hint:" in proc.stderr
    assert not (repo / ".gitignore").exists() and not (repo / "CLAUDE.md").exists()
    (repo / ".claude" / "settings.json").write_text("{}\n")
    gm(repo, "init", "--yes")
    assert git(repo, "status", "--porcelain") == ""
    tracked = git(repo, "ls-files").split()
    assert {".gitignore", ".gitattributes", "CLAUDE.md", ".claude/settings.json"} <= set(tracked)


def test_init_yes_completes_an_earlier_init_without_yes(repo: Path) -> None:
    gm(repo, "init")
    assert git(repo, "status", "--porcelain")
    out = gm_json(repo, "init", "--yes")
    assert set(out["changed"]["committed"].split(", ")) == {".gitignore", ".gitattributes", "CLAUDE.md",
                                                            ".claude/settings.json"}
    assert git(repo, "status", "--porcelain") == ""


def test_a_commit_without_a_git_identity_is_one_line_and_a_hint(repo: Path, tmp_path: Path) -> None:
    gm(repo, "init")
    empty_config = tmp_path / "empty-gitconfig"
    empty_config.write_text("")
    env = {"GIT_CONFIG_GLOBAL": str(empty_config), "GIT_AUTHOR_NAME": "", "GIT_AUTHOR_EMAIL": "",
           "GIT_COMMITTER_NAME": "", "GIT_COMMITTER_EMAIL": "", "EMAIL": ""}
    git(repo, "config", "--unset", "user.name", check=False)
    proc = gm(repo, "init", "--yes", check=False, env=env)
    if proc.returncode == 0:  # git found an identity elsewhere on this machine (e.g. /etc/mailname)
        pytest.skip("git derived an identity from the system")
    assert proc.returncode == 3 and "no identity" in proc.stderr and "git config --global user.email" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 2
    assert git(repo, "diff", "--cached", "--name-only") == ""


def test_concurrent_error_log_writers_lose_no_line(repo: Path) -> None:
    script = ("import sys\nfrom agent_memory.gitio.state import log_error\n"
              "for i in range(20):\n    log_error(f'writer {sys.argv[1]} line {i}', sys.argv[2])\n")
    procs = [subprocess.Popen([sys.executable, "-c", script, str(n), str(repo)]) for n in range(6)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    lines = (repo / ".git" / "agent-memory" / "errors.log").read_text().splitlines()
    assert len(lines) == 120 and len(set(lines)) == 120


def test_concurrent_error_log_writers_at_the_cap_keep_the_newest_lines(repo: Path) -> None:
    """errors.log at its cap (ERROR_LOG_LINES): each writer appends, then cuts the log to its
    newest lines. Cut from a read made before another writer's append, that line was lost:
    six writers at once lost most of their lines, while the oldest lines stayed. The log now
    ends as the newest lines, in each writer's order, none missing."""
    from agent_memory.model.policy import ERROR_LOG_LINES

    log = repo / ".git" / "agent-memory" / "errors.log"
    log.parent.mkdir()
    log.write_text("".join(f"2026-01-01T00:00:00Z old line {i}\n" for i in range(ERROR_LOG_LINES)))
    script = ("import sys\nfrom agent_memory.gitio.state import log_error\n"
              "for i in range(50):\n    log_error(f'writer {sys.argv[1]} line {i}', sys.argv[2])\n")
    procs = [subprocess.Popen([sys.executable, "-c", script, str(n), str(repo)]) for n in range(6)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    lines = log.read_text().splitlines()
    assert len(lines) == ERROR_LOG_LINES and not [line for line in lines if "old line" in line]
    for n in range(6):  # what is left of each writer: its newest lines, none missing
        mine = [int(line.rsplit(" ", 1)[1]) for line in lines if f"writer {n} " in line]
        assert mine == list(range(50 - len(mine), 50)), (n, mine)


def test_capture_flag_combinations_that_mean_nothing_are_usage_errors(repo: Path) -> None:
    gm(repo, "init", "--no-claude-hooks")
    assert gm(repo, "capture", "--transcript", "x.jsonl", "--since", "2026-01-01", check=False).returncode == 2
    assert gm(repo, "capture", "--all", "--session", "abc", check=False).returncode == 2
    assert gm(repo, "capture", "--all", "--since", "yesterday", check=False).returncode == 2


def test_log_reads_one_clock_when_the_clock_is_pinned(captured: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With AGENT_MEMORY_NOW pinned (2026-11-06) and git's clock another (GIT_COMMITTER_DATE
    2026-11-01, as conftest pins it), memory/atoms' commits were dated by the pinned clock and
    the branch's by git's: `log` listed the captures after the adoption they led to. Every
    commit now carries git's clock, and dates of other zones are compared as times."""
    write_session(captured, "ffffffff-0000-4000-8000-000000000003", "2026-11-03",
                  [{"user": "Never force-push to the release branch."}])
    gm(captured, "capture", "--all")
    (atom,) = [a for a in gm_json(captured, "inspect", "--tier", "L1")["atoms"] if "release branch" in a["claim"]]
    gm(captured, "adopt", "--all")
    gm(captured, "pin", atom["id"])
    commits = gm_json(captured, "log", atom["id"])["commits"]
    assert [c["op"] for c in commits] == ["pin", "held", "adopt", "stage", "capture", "capture", "capture"], commits
    assert {c["date"] for c in commits} == {"2026-11-01T12:00:00+00:00"}
    for c in commits:
        assert c["op"] == "stage" or c["date"] == git(captured, "show", "-s", "--format=%cI", c["oid"]).strip().replace("Z", "+00:00")
    # a branch commit dated in another zone, then a capture later in time (earlier as a string)
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-11-02T01:00:00+09:00")
    gm(captured, "unpin", atom["id"])
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-11-01T20:00:00Z")
    write_session(captured, "ffffffff-0000-4000-8000-000000000004", "2026-11-04",
                  [{"user": "Never force-push to the release branch."}])
    gm(captured, "capture", "--all", "--no-stage")
    commits = gm_json(captured, "log", atom["id"])["commits"]
    assert [(c["op"], c["date"]) for c in commits[:2]] == [
        ("capture", "2026-11-01T20:00:00+00:00"), ("unpin", "2026-11-01T16:00:00+00:00")], commits
