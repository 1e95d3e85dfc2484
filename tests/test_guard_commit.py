"""The commit guard through real `git commit`s with the hook `git memory init` installs, and the
pre-commit framework entry run the way the framework runs it (entry + file names). The hook
fails closed outside the venv (B2) and judges the append-only adopted.log on the lines a
commit adds (B3)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from builders import BLOCK, SECRET
from conftest import git
from sessions import gm

from agent_memory.cli.scan import added_lines, only_added


def _commit(repo: Path, rel: str, text: str) -> subprocess.CompletedProcess[str]:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    git(repo, "add", rel)
    return subprocess.run(
        ["git", "-C", str(repo), "commit", "-m", f"edit {rel}"], capture_output=True, text=True
    )


@pytest.mark.parametrize(
    ("rel", "line", "rule"),
    [
        ("CLAUDE.memory.md", f"Deploy with {SECRET}", "github"),
        ("CLAUDE.memory.md", "See ~/.claude/projects/-home-alice-app/abc.jsonl#L3", "backpointer"),
        ("CLAUDE.memory.md", "Config lives in /home/alice/app/config.toml", "home"),
        ("CLAUDE.memory.md", "Ask jane.doe@corp.example.com before deploying", "email"),
    ],
)
def test_refused_commits(guarded: Path, rel: str, line: str, rule: str) -> None:
    head = git(guarded, "rev-parse", "HEAD")
    proc = _commit(guarded, rel, BLOCK.format(line=line))
    assert proc.returncode != 0
    assert f"{rel}:5:" in proc.stdout + proc.stderr
    assert rule in (proc.stdout + proc.stderr).lower()
    assert "hint:" in proc.stderr
    assert git(guarded, "rev-parse", "HEAD") == head


def test_the_refusal_counts_its_findings_in_words_that_agree_with_the_number(guarded: Path) -> None:
    """The guard's refusal said 'agent-memory guard: 1 finding(s) in memory files'."""
    proc = _commit(guarded, "CLAUDE.memory.md", BLOCK.format(line=f"Deploy with {SECRET}"))
    assert proc.returncode != 0
    assert "agent-memory guard: 1 finding in memory files; nothing was committed." in proc.stderr, proc.stderr
    two = BLOCK.format(line=f"Deploy with {SECRET}\n- Ask jane.doe@corp.example.com first")
    proc = _commit(guarded, "CLAUDE.memory.md", two)
    assert "agent-memory guard: 2 findings in memory files" in proc.stderr and "(s)" not in proc.stderr, proc.stderr


def test_a_path_prefixed_back_pointer_in_adopted_log_is_refused(guarded: Path) -> None:
    line = '{"at":"2026-11-01T00:00:00Z","atom":{"source":"~/.claude/projects/x/s1.jsonl#L4"},"op":"adopt"}\n'
    proc = _commit(guarded, ".memory/adopted.log", line)
    assert proc.returncode != 0 and ".memory/adopted.log:1:" in proc.stdout + proc.stderr


def test_clean_memory_content_is_allowed(guarded: Path) -> None:
    proc = _commit(
        guarded, "CLAUDE.memory.md", BLOCK.format(line="Never push to main (s1.jsonl#L3 is fine)")
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_claude_md_outside_the_marker_block_is_the_person_s_own(guarded: Path) -> None:
    text = "# Notes\nmy address: jane.doe@corp.example.com\n\n" + BLOCK.format(
        line="Never push to main"
    )
    assert _commit(guarded, "CLAUDE.md", text).returncode == 0
    inside = "# Notes\n\n" + BLOCK.format(line="mail jane.doe@corp.example.com")
    assert _commit(guarded, "CLAUDE.md", inside).returncode != 0


def test_other_files_are_not_scanned(guarded: Path) -> None:
    assert _commit(guarded, "src/config.py", f"TOKEN = '{SECRET}'\n").returncode == 0


def test_pre_commit_framework_entry(guarded: Path) -> None:
    import re

    # The file is a flat YAML list of mappings; read the keys this test needs without PyYAML.
    text = (Path(__file__).parent.parent / ".pre-commit-hooks.yaml").read_text()
    entry = dict(re.findall(r"^\s*-?\s*(id|entry|files|language): (.+)$", text, re.MULTILINE))
    assert entry["id"] == "agent-memory-guard" and entry["language"] == "python"

    files = re.compile(entry["files"])
    assert (
        files.search("CLAUDE.memory.md")
        and files.search("sub/.memory/adopted.log")
        and files.search("CLAUDE.md")
    )
    assert not files.search("README.md")
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line=f"token {SECRET}"))
    (guarded / "ok.md").write_text("fine")
    proc = subprocess.run(
        [*entry["entry"].split(), "CLAUDE.memory.md"], cwd=guarded, capture_output=True, text=True
    )
    assert proc.returncode == 1 and "CLAUDE.memory.md:5:" in proc.stdout
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line="Never push to main"))
    proc = subprocess.run(
        [*entry["entry"].split(), "CLAUDE.memory.md"], cwd=guarded, capture_output=True, text=True
    )
    assert proc.returncode == 0


def test_a_clean_scan_by_hand_says_what_it_read_and_a_clean_commit_stays_quiet(guarded: Path) -> None:
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line="Never push to main"))
    # By hand: stdout is the findings alone (none), and one line for the person says so.
    proc = gm(guarded, "scan")
    assert proc.stdout == ""
    assert proc.stderr.strip() == ("agent-memory guard: no secrets, personal data or machine paths "
                                   "in 2 memory files of the work tree.")  # fmt: skip
    proc = gm(guarded, "scan", "CLAUDE.memory.md")
    assert proc.stderr.strip().endswith("no secrets, personal data or machine paths in 1 file.")
    assert gm(guarded, "scan", "--staged").stderr.strip() == "agent-memory guard: nothing to scan (no staged memory file)."
    git(guarded, "add", "CLAUDE.memory.md")
    assert "in 1 staged memory file." in gm(guarded, "scan", "--staged").stderr
    assert json.loads(gm(guarded, "scan", "--output", "json").stdout) == {"ok": True, "findings": []}
    # The same scan run by git's pre-commit hook: a commit that passes prints nothing of ours.
    proc = subprocess.run(["git", "-C", str(guarded), "commit", "-m", "clean"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "agent-memory" not in proc.stdout + proc.stderr


# --- B2: the guard fails closed, with or without the venv on PATH -----------------------------

BARE_PATH = "/usr/bin:/bin"  # a shell or an IDE outside the venv: no git-memory here


def _commit_outside_venv(repo: Path, rel: str, text: str, keep_pythonpath: bool = True) -> subprocess.CompletedProcess[str]:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    git(repo, "add", rel)
    env = {**os.environ, "PATH": BARE_PATH}
    if not keep_pythonpath:
        env.pop("PYTHONPATH", None)  # a checkout named there (a worktree's tests) is importable by any python
    return subprocess.run(
        ["git", "-C", str(repo), "commit", "-m", f"edit {rel}"],
        capture_output=True,
        text=True,
        env=env,
    )


def _set_hook_python(repo: Path, python: str) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    lines = [
        f"AGENT_MEMORY_PYTHON='{python}'" if ln.startswith("AGENT_MEMORY_PYTHON=") else ln
        for ln in hook.read_text().splitlines()
    ]
    hook.write_text("\n".join(lines) + "\n")


def test_bare_path_has_no_git_memory() -> None:
    # The tests below mean something only if this PATH cannot reach the venv's script.
    assert shutil.which("git-memory", path=BARE_PATH) is None and shutil.which(
        "git", path=BARE_PATH
    )


def test_the_guard_runs_with_the_recorded_interpreter_when_git_memory_is_not_on_path(
    guarded: Path,
) -> None:
    head = git(guarded, "rev-parse", "HEAD")
    refused = _commit_outside_venv(
        guarded, "CLAUDE.memory.md", BLOCK.format(line=f"Deploy with {SECRET}")
    )
    assert refused.returncode == 1, refused.stderr
    assert "CLAUDE.memory.md:5: github" in refused.stderr and "hint:" in refused.stderr
    assert git(guarded, "rev-parse", "HEAD") == head
    clean = _commit_outside_venv(
        guarded, "CLAUDE.memory.md", BLOCK.format(line="Never push to main")
    )
    assert clean.returncode == 0, clean.stderr
    assert git(guarded, "rev-parse", "HEAD") != head


@pytest.mark.parametrize(
    "python", ["/nonexistent/agent-memory-venv/bin/python", "/usr/bin/python3"]
)
def test_without_agent_memory_a_memory_commit_is_refused_and_others_pass(
    guarded: Path, python: str
) -> None:
    # Gone (a deleted venv) or an interpreter that cannot import agent_memory (a rebuilt venv).
    if not Path(python).exists() and "nonexistent" not in python:
        pytest.skip(f"{python} is not on this machine")
    _set_hook_python(guarded, python)
    head = git(guarded, "rev-parse", "HEAD")
    for rel in ("CLAUDE.memory.md", "sub/CLAUDE.md", "pkg/.memory/adopted.log"):
        proc = _commit_outside_venv(guarded, rel, BLOCK.format(line="Never push to main"), keep_pythonpath=False)
        assert proc.returncode == 1, (rel, proc.stderr)
        message, hint = proc.stderr.strip().splitlines()[-2:]
        assert "not installed" in message and "cannot be checked" in message
        assert hint.startswith("hint:") and "git memory init" in hint and "--no-verify" in hint
        assert git(guarded, "rev-parse", "HEAD") == head
        git(guarded, "reset", "-q")
    other = _commit_outside_venv(guarded, "src/app.py", "print('hi')\n")
    assert other.returncode == 0 and other.stderr == ""


def test_with_the_recorded_interpreter_gone_git_memory_on_path_still_guards(guarded: Path) -> None:
    _set_hook_python(guarded, "/nonexistent/agent-memory-venv/bin/python")
    refused = _commit(guarded, "CLAUDE.memory.md", BLOCK.format(line=f"token {SECRET}"))
    assert refused.returncode == 1 and "CLAUDE.memory.md:5: github" in refused.stderr
    assert (
        _commit(guarded, "CLAUDE.memory.md", BLOCK.format(line="Never push to main")).returncode
        == 0
    )


def test_a_foreign_hook_runs_before_the_guard_outside_the_venv(guarded: Path) -> None:
    hooks = guarded / ".git" / "hooks"
    (hooks / "pre-commit.chained-by-agent-memory").write_text(
        "#!/bin/sh\necho 'foreign hook ran' >&2\n"
    )
    (hooks / "pre-commit.chained-by-agent-memory").chmod(0o755)
    proc = _commit_outside_venv(guarded, "CLAUDE.memory.md", BLOCK.format(line=f"token {SECRET}"))
    assert proc.returncode == 1
    assert proc.stderr.index("foreign hook ran") < proc.stderr.index("agent-memory guard:")
    (hooks / "pre-commit.chained-by-agent-memory").write_text(
        "#!/bin/sh\necho 'foreign says no' >&2\nexit 7\n"
    )
    git(guarded, "reset", "-q")
    blocked = _commit_outside_venv(guarded, "src/app.py", "print('hi')\n")
    assert blocked.returncode != 0 and "foreign says no" in blocked.stderr


# --- B3: the append-only log is judged on the lines a commit adds ----------------------------


def _log_line(claim: str, at: str = "2026-11-01T00:00:00Z") -> str:
    return (
        json.dumps(
            {
                "at": at,
                "atom": {"claim": claim, "id": "atm_0000000" + str(len(claim) % 10)},
                "op": "adopt",
            },
            sort_keys=True,
            separators=(",", ":"),
        )
        + "\n"
    )


@pytest.fixture
def leaked_log(guarded: Path) -> Path:
    """An adopted.log whose second line carries a secret, committed past the guard."""
    log = guarded / ".memory" / "adopted.log"
    log.parent.mkdir(exist_ok=True)
    log.write_text(_log_line("Never push to main") + _log_line(f"Deploy with {SECRET}"))
    git(guarded, "add", "-f", ".memory/adopted.log")
    git(guarded, "commit", "-q", "--no-verify", "-m", "leak past the guard")
    return log


def test_an_old_bad_log_line_does_not_block_a_clean_append(leaked_log: Path, guarded: Path) -> None:
    text = leaked_log.read_text() + _log_line("Run the tests with pytest -q")
    proc = _commit(guarded, ".memory/adopted.log", text)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_bad_appended_log_line_is_refused_by_its_own_line_number(
    leaked_log: Path, guarded: Path
) -> None:
    head = git(guarded, "rev-parse", "HEAD")
    text = (
        leaked_log.read_text()
        + _log_line("Run the tests with pytest -q")
        + _log_line("Mail jane.doe@corp.example.com")
    )
    proc = _commit(guarded, ".memory/adopted.log", text)
    assert proc.returncode == 1
    # line 4, the new one; not line 2, the old one that got past the guard
    assert ".memory/adopted.log:4: email" in proc.stderr and ":2:" not in proc.stderr
    assert "line 4 is added by this commit" in proc.stderr and "forget" not in proc.stderr
    assert git(guarded, "rev-parse", "HEAD") == head


def test_a_line_inserted_between_old_ones_is_checked(leaked_log: Path, guarded: Path) -> None:
    first, second = leaked_log.read_text().splitlines(keepends=True)
    proc = _commit(
        guarded, ".memory/adopted.log", first + _log_line("Mail jane.doe@corp.example.com") + second
    )
    assert (
        proc.returncode == 1
        and ".memory/adopted.log:2: email" in proc.stderr
        and ":3:" not in proc.stderr
    )


def test_the_rendered_block_is_still_scanned_whole(guarded: Path) -> None:
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line=f"Deploy with {SECRET}"))
    git(guarded, "add", "CLAUDE.memory.md")
    git(guarded, "commit", "-q", "--no-verify", "-m", "leak past the guard")
    text = (
        (guarded / "CLAUDE.memory.md")
        .read_text()
        .replace("### Recent\n", "### Recent\n- Never push to main\n")
    )
    proc = _commit(guarded, "CLAUDE.memory.md", text)
    assert proc.returncode == 1 and "CLAUDE.memory.md:6: github" in proc.stderr
    # no adopted.log line renders to it: nothing to forget, it is removed by hand or re-rendered
    assert "git memory forget" not in proc.stderr and "written by hand" in proc.stderr


def test_an_unreadable_diff_falls_back_to_the_whole_log(leaked_log: Path, guarded: Path) -> None:
    # A lone CR splits a line when git's output is decoded as text: the hunk no longer adds up,
    # and the guard scans the whole file rather than guess which lines are new.
    proc = _commit(guarded, ".memory/adopted.log", leaked_log.read_text() + "a hand-edited\rline\n")
    assert proc.returncode == 1 and ".memory/adopted.log:2: github" in proc.stderr


def test_scan_of_explicit_paths_still_reads_the_whole_log(leaked_log: Path, guarded: Path) -> None:
    proc = gm(guarded, "scan", ".memory/adopted.log", check=False)
    assert proc.returncode == 1 and proc.stdout.splitlines() == [
        ".memory/adopted.log:2: github-token"
    ]


def test_added_lines_reads_hunk_headers() -> None:
    diff = (
        "diff --git a/.memory/adopted.log b/.memory/adopted.log\n"
        "--- a/.memory/adopted.log\n+++ b/.memory/adopted.log\n"
        "@@ -0,0 +1 @@\n+first\n"
        "@@ -3 +3,2 @@\n-old\n+new three\n+new four\n"
        "@@ -9,2 +10,0 @@\n-gone\n-gone too\n"
        "@@ -20 +20 @@\n-x\n\\ No newline at end of file\n+y\n"
    )
    assert added_lines(diff) == {1: "first", 3: "new three", 4: "new four", 20: "y"}
    assert only_added({2: "b"}) == "\nb\n"
    assert added_lines("") == {}


@pytest.mark.parametrize(
    "diff",
    [
        "@@ -0,0 +1,2 @@\n+one\n",  # fewer lines than the header says
        "@@ -0,0 +1 @@\n+one\nstray\n",  # a line that belongs to no hunk
        "@@ -1 +1 @@\n+new\n-old\n",  # a removal after an addition: not git's order
    ],
)
def test_added_lines_refuses_what_does_not_add_up(diff: str) -> None:
    assert added_lines(diff) is None


def test_forgetting_a_leaked_atom_is_not_refused(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_adopt import held, init_project, stage_claims

    from agent_memory.model.atom import atom_id

    project = init_project(repo, monkeypatch)
    stage_claims(project)
    gm(project, "adopt", "--all")
    # A redaction gap: an adopted atom whose claim carries a secret got past the guard.
    atom = next(iter(held(project).values()))
    leaked = f"{atom['claim']} with {SECRET}"
    leaked_atom = {**atom, "claim": leaked, "id": atom_id(leaked, atom["project"])}
    line = {"at": "2026-11-06T13:00:00Z", "atom": leaked_atom, "op": "adopt"}
    with (project / ".memory/adopted.log").open("a") as fh:
        fh.write(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n")
    # rendered as adopt would have (`validate --fix` no longer renders a line the guard refuses)
    from agent_memory.adoption.adopt import work_files

    rendered = work_files(project, "L2", "CLAUDE.memory.md").rerendered()
    (project / "CLAUDE.memory.md").write_text(rendered.target_text)
    git(project, "add", ".memory/adopted.log", "CLAUDE.memory.md")
    git(project, "commit", "-q", "--no-verify", "-m", "leak past the guard")
    refused = _commit(
        project, "CLAUDE.memory.md", (project / "CLAUDE.memory.md").read_text() + "\n"
    )
    assert refused.returncode == 1 and "git memory forget" in refused.stderr  # what the hint says
    git(project, "reset", "-q", "--hard")

    proc = gm(project, "forget", leaked_atom["id"], check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert SECRET not in (project / "CLAUDE.memory.md").read_text()


@pytest.mark.parametrize(
    "rel", ["CLAUDE.memory.md", "CLAUDE.md", "docs/CLAUDE.md", "sub/.memory/adopted.log"]
)
def test_only_a_commit_that_stages_a_memory_file_starts_the_guard(
    guarded: Path, tmp_path: Path, rel: str
) -> None:
    """Most commits stage no memory file: the hook lets them through without starting Python
    (it costs ~0.2 s a commit). A commit that does stage one still gets the whole guard."""
    import sys

    calls = tmp_path / "calls"
    wrapper = tmp_path / "python"
    wrapper.write_text(f'#!/bin/sh\necho run >> "{calls}"\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    _set_hook_python(guarded, str(wrapper))

    plain = _commit(guarded, "src/app.py", "print('hello')\n")
    assert plain.returncode == 0, plain.stderr
    assert not calls.exists()  # decided in the shell

    text = BLOCK.format(line=f"Deploy with {SECRET}")
    if rel.endswith("adopted.log"):
        text = json.dumps({"op": "adopt", "claim": f"Deploy with {SECRET}"}) + "\n"
    head = git(guarded, "rev-parse", "HEAD")
    refused = _commit(guarded, rel, text)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert calls.read_text().splitlines() == ["run"]
    assert git(guarded, "rev-parse", "HEAD") == head


def test_the_guard_never_runs_a_git_memory_the_repository_commits(guarded: Path, tmp_path: Path) -> None:
    """With the recorded interpreter gone (a deleted venv), the guard falls back to `git-memory`
    on PATH, and git runs hooks in the work tree: with `.` (or an empty or relative entry) on
    PATH it ran a `git-memory` the repository commits, which could say every memory commit is
    clean (and ran whatever else it held). Only absolute PATH folders are looked at."""
    ran = tmp_path / "theirs-ran"
    theirs = guarded / "git-memory"
    theirs.write_text(f"#!/bin/sh\ntouch '{ran}'\nexit 0\n")
    theirs.chmod(0o755)
    git(guarded, "add", "git-memory")
    git(guarded, "commit", "-q", "--no-verify", "-m", "tools")
    _set_hook_python(guarded, "/nonexistent/agent-memory-venv/bin/python")
    path = guarded / "CLAUDE.memory.md"
    path.write_text(BLOCK.format(line=f"token {SECRET}"))
    git(guarded, "add", "CLAUDE.memory.md")
    env = {**os.environ, "PATH": f".::{BARE_PATH}"}
    env.pop("PYTHONPATH", None)
    proc = subprocess.run(["git", "commit", "-m", "memory"], cwd=guarded, capture_output=True, text=True, env=env)
    assert not ran.exists()
    assert proc.returncode == 1 and "not installed" in proc.stderr, proc.stderr
