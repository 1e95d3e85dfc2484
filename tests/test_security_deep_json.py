"""A cloned repository's JSON nested deeper than Python's parser recurses (session 47's review).

`json.loads` recurses once per array or object level and raises RecursionError, which is no
ValueError, on a few thousand `[`. A clone can commit such a `.claude/settings.json`,
`.claude/settings.local.json` or `.memory/adopted.log` line: each reader that caught only
ValueError crashed — `init` and `status` with an internal error, every `capture` (the session
end's too, so no session of that repository was captured again), `validate`, and
`promote --global` in *every* repository of the person (it reads each registered project's log).
A transcript holds records other programs shaped (an MCP server's structured result): one
nested that deep made `capture --all` crash on the head of the file, so no session of the
project was captured, and `validate` on the sessions of its evidence. And a JWT-shaped
token's base64 header of 1,500 nested arrays (4 KB of text, in a cloned CLAUDE.memory.md or a
typed prompt) crashed the redaction rules that check the header is JSON: the commit guard,
`scan` and `validate` with an internal error, the capture of that statement for ever. Through the real CLI and
hooks on real clones and real-format transcripts."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json, write_session
from test_hooks import PNPM, errors, payload, run_hook, sid, wait_for

DEEP = "[" * 200_000


def cloned(tmp_path: Path, files: dict[str, str], init: bool = True) -> Path:
    """A clone of someone else's repository that commits `files`, set up with `git memory init`."""
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    git(upstream, "init", "-q", "-b", "main")
    (upstream / "README.md").write_text("hello\n")
    for rel, text in files.items():
        (upstream / rel).parent.mkdir(parents=True, exist_ok=True)
        (upstream / rel).write_text(text + "\n")
    git(upstream, "add", "-A")
    git(upstream, "commit", "-q", "--no-verify", "-m", "theirs")
    here = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(upstream), str(here))
    if init:
        gm(here, "init", "--yes", "--no-claude-hooks")
    return here


def deep_record(session: str) -> str:
    """A transcript line whose record nests DEEP arrays (an MCP server's structured result)."""
    return '{"type": "progress", "sessionId": "' + session + '", "data": ' + DEEP + "]" * len(DEEP) + "}\n"


def json_of(data: object) -> str:
    import json

    return json.dumps(data)


def internal_error(proc: object) -> bool:
    return "internal error" in str(getattr(proc, "stderr", ""))


def captured_sessions(repo: Path) -> set[str]:
    out = git(repo, "log", "--format=%(trailers:key=Session-Id,valueonly)", "memory/atoms", check=False)
    return {line.strip() for line in out.splitlines() if line.strip()}


@pytest.mark.parametrize("rel", [".claude/settings.json", ".claude/settings.local.json"])
def test_a_deep_settings_file_stops_no_capture_and_no_status(tmp_path: Path, rel: str) -> None:
    here = cloned(tmp_path, {rel: '{"autoMemoryDirectory": ' + DEEP})
    write_session(here, sid(1), "2026-11-01", [{"user": PNPM}])
    proc = gm(here, "capture", "--all", check=False)
    assert proc.returncode == 0 and not internal_error(proc), proc.stderr
    assert sid(1) in captured_sessions(here)
    status = gm(here, "status", check=False)
    assert status.returncode == 0 and not internal_error(status), status.stderr
    assert gm_json(here, "status")["initialised"] is True


def test_the_session_end_still_captures_beside_a_deep_local_settings_file(tmp_path: Path) -> None:
    here = cloned(tmp_path, {".claude/settings.local.json": '{"autoMemoryDirectory": ' + DEEP})
    transcript = write_session(here, sid(2), "2026-11-02", [{"user": PNPM}])
    proc = run_hook("session-end", payload("session-end", here, session_id=sid(2),
                                            transcript_path=str(transcript)), here)  # fmt: skip
    assert proc.returncode == 0 and proc.stdout == b""
    wait_for(lambda: sid(2) in captured_sessions(here), "the background capture")
    assert not [line for line in errors(here) if "RecursionError" in line]


def test_init_refuses_a_deep_settings_file_in_one_line(tmp_path: Path) -> None:
    here = cloned(tmp_path, {".claude/settings.json": DEEP}, init=False)
    proc = gm(here, "init", "--yes", check=False)
    assert proc.returncode != 0 and not internal_error(proc), proc.stderr
    assert "not valid JSON" in proc.stderr and "hint:" in proc.stderr
    assert (here / ".claude" / "settings.json").read_text() == DEEP + "\n"  # left unchanged
    gm(here, "init", "--yes", "--no-claude-hooks")  # the way out the hint names


def test_a_deep_first_log_line_neither_names_the_project_nor_stops_init_or_validate(tmp_path: Path) -> None:
    here = cloned(tmp_path, {".memory/adopted.log": DEEP}, init=False)
    proc = gm(here, "init", "--yes", "--no-claude-hooks", check=False)
    assert proc.returncode == 0, proc.stderr
    assert git(here, "config", "memory.project").strip() == "upstream"  # the remote's name
    checked = gm(here, "validate", check=False)
    assert not internal_error(checked), checked.stderr
    assert "nested more than 32 levels deep" in checked.stdout + checked.stderr


def test_one_clone_s_deep_log_line_leaves_promote_global_working_everywhere(tmp_path: Path, repo: Path) -> None:
    gm(repo, "init", "--yes", "--no-claude-hooks")
    cloned(tmp_path, {".memory/adopted.log": DEEP}).resolve()
    proc = gm(repo, "promote", "--global", check=False)
    assert proc.returncode == 0 and not internal_error(proc), proc.stderr


def test_a_transcript_record_nested_too_deep_costs_that_record_only(repo: Path) -> None:
    gm(repo, "init", "--yes", "--no-claude-hooks")
    for n in (1, 2, 3):
        path = write_session(repo, sid(n), f"2026-11-0{n}", [{"user": PNPM}])
        deep = deep_record(sid(n))
        path.write_text(deep + path.read_text())
    proc = gm(repo, "capture", "--all", check=False)
    assert proc.returncode == 0 and not internal_error(proc), proc.stderr
    assert {sid(1), sid(2), sid(3)} <= captured_sessions(repo)
    checked = gm(repo, "validate", check=False)
    assert not internal_error(checked), checked.stderr


def test_validate_reads_a_resumed_transcript_past_a_record_nested_too_deep(repo: Path) -> None:
    """A transcript that opens with an earlier session's records (a resumed session) cites
    them under that session; validate reads the sessions of its lines, the deep one too."""
    gm(repo, "init", "--yes", "--no-claude-hooks")
    earlier = write_session(repo, sid(1), "2026-11-01", [{"user": PNPM}])
    copied = earlier.read_text()
    earlier.unlink()
    later = write_session(repo, sid(2), "2026-11-02", [{"user": "thanks"}])
    deep = deep_record(sid(2))
    later.write_text(deep + copied + later.read_text())
    gm(repo, "capture", "--all")
    atoms = gm_json(repo, "inspect", "--tier", "L1")["atoms"]
    assert any(a["sessions"] == [sid(1)] and sid(2) in a["source"] for a in atoms), atoms
    checked = gm(repo, "validate", check=False)
    assert not internal_error(checked), checked.stderr


def deep_jwt() -> str:
    """A JWT's shape whose header is base64 of JSON nested 1,490 arrays deep (the rule reads a
    header of up to 4,000 characters)."""
    def part(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")
    header = part(('{"a":' + "[" * 1490 + "]" * 1490 + "}").encode())
    claims = part(b'{"sub":"1234567890"}')
    return f"{header}.{claims}.{part(bytes(range(32)))}"


def test_the_guard_refuses_a_token_whose_header_nests_too_deep_and_capture_keeps_the_statement(repo: Path) -> None:
    gm(repo, "init", "--yes", "--no-claude-hooks")
    token = deep_jwt()
    (repo / "CLAUDE.memory.md").write_text(f"Notes.\n\nThe staging token is {token}\n")
    scan = gm(repo, "scan", "CLAUDE.memory.md", check=False)
    assert scan.returncode == 1 and not internal_error(scan), scan.stderr
    assert "CLAUDE.memory.md:3: jwt" in scan.stdout, scan.stdout
    git(repo, "add", "CLAUDE.memory.md")
    commit = subprocess.run(["git", "commit", "-q", "-m", "notes"], cwd=repo, capture_output=True, text=True)
    assert commit.returncode != 0 and "jwt" in commit.stdout + commit.stderr, commit
    assert "internal error" not in commit.stderr
    git(repo, "reset", "-q", "--", "CLAUDE.memory.md")
    write_session(repo, sid(5), "2026-11-05", [{"user": f"Always use the staging token {token} for the API tests."}])
    proc = gm(repo, "capture", "--all", check=False)
    assert proc.returncode == 0 and "extractor failed" not in proc.stdout + proc.stderr, proc
    assert "staging token" in json_of(gm_json(repo, "inspect", "--tier", "L1"))  # the statement is kept


def test_the_guard_judges_a_prefixed_token_whose_base64_body_nests_too_deep(repo: Path) -> None:
    """A prefixed token (`acme_` then base64) whose body starts `eyJ` is checked to be base64
    JSON (else it is a made-up payload): json's scanner raised RecursionError on a body of
    3,000 nested arrays (4 KB, in one run), and `scan` and the commit guard ended in an
    internal error on it. Too deep to parse, it is judged as any other body."""
    gm(repo, "init", "--yes", "--no-claude-hooks")
    body = base64.b64encode(('{"a":' + "[" * 3000).encode()).decode()
    assert body.startswith("eyJ") and len(body) < 6000
    (repo / "CLAUDE.memory.md").write_text(f"Notes.\n\nThe key is acme_{body}\n")
    scan = gm(repo, "scan", "CLAUDE.memory.md", check=False)
    assert scan.returncode in (0, 1) and not internal_error(scan), scan.stderr
    git(repo, "add", "CLAUDE.memory.md")
    commit = subprocess.run(["git", "commit", "-q", "-m", "notes"], cwd=repo, capture_output=True, text=True)
    assert "internal error" not in commit.stdout + commit.stderr, commit
    assert commit.returncode == scan.returncode, (commit, scan)
