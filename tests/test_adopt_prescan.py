"""adopt's own guard run stands in for the pre-commit hook's Python start, and only for the
exact content it judged (agent_memory/adoption/prescan.py, git-hooks/pre-commit): through real
`git commit`s with the installed hook, its interpreter replaced by a wrapper that counts starts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from builders import SECRET
from conftest import git
from sessions import gm_json
from test_adopt import held, log_lines, stage_claims

from agent_memory.gitio import repo as G


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


def count_guard_starts(repo: Path, tmp_path: Path) -> Path:
    calls = tmp_path / "guard-starts"
    wrapper = tmp_path / "python"
    wrapper.write_text(f'#!/bin/sh\necho run >> "{calls}"\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    hook = repo / ".git" / "hooks" / "pre-commit"
    lines = [
        f"AGENT_MEMORY_PYTHON='{wrapper}'" if ln.startswith("AGENT_MEMORY_PYTHON=") else ln
        for ln in hook.read_text().splitlines()
    ]
    hook.write_text("\n".join(lines) + "\n")
    return calls


def starts(calls: Path) -> int:
    return len(calls.read_text().splitlines()) if calls.exists() else 0


def prescanned_file(repo: Path) -> Path:
    return repo / ".git" / "agent-memory" / "prescanned"


def test_adopt_all_commits_each_item_without_starting_the_guard_again(project: Path, tmp_path: Path) -> None:
    ids = stage_claims(project)
    calls = count_guard_starts(project, tmp_path)
    report = gm_json(project, "adopt", "--all")
    assert len(report["adopted"]) == len(ids) == len(log_lines(project))
    assert set(held(project)) == set(ids.values())
    assert starts(calls) == 0  # judged in adopt's process, commit by commit
    assert not prescanned_file(project).exists()  # gone after the commits
    # The hook itself is intact: a hand-made memory commit starts the guard and is refused.
    head = git(project, "rev-parse", "HEAD")
    with (project / ".memory" / "adopted.log").open("a") as fh:
        fh.write(json.dumps({"op": "adopt", "claim": f"Deploy with {SECRET}"}) + "\n")
    git(project, "add", ".memory/adopted.log")
    proc = subprocess.run(["git", "-C", str(project), "commit", "-m", "by hand"], capture_output=True, text=True)
    assert proc.returncode == 1 and "github" in proc.stderr
    assert starts(calls) == 1 and git(project, "rev-parse", "HEAD") == head


def _stage_memory(repo: Path, text: str) -> tuple[str, str]:
    (repo / "CLAUDE.memory.md").write_text(text)
    git(repo, "add", "CLAUDE.memory.md")
    head = git(repo, "rev-parse", "HEAD").strip()
    return head, G.blob_oid(text.encode())


def _staged_diff_line(repo: Path) -> str:
    """The line the hook's own `git diff --cached --raw` prints for the staged block."""
    out = git(
        repo,
        "-c",
        "core.quotePath=false",
        "diff",
        "--cached",
        "--raw",
        "--no-abbrev",
        "--",
        "CLAUDE.memory.md",
    )
    lines = out.splitlines()
    assert len(lines) == 1, out
    return lines[0]


def _commit(repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(repo), "commit", "-m", "memory"], capture_output=True, text=True)


@pytest.mark.parametrize("mismatch", ["new blob", "old blob", "path", "mode", "status"])
def test_a_listed_entry_covers_only_the_exact_content_it_names(
    project: Path, tmp_path: Path, mismatch: str
) -> None:
    """A leftover or forged line never lets other content through: another blob on either
    side, path or file mode means the whole guard runs (and refuses the secret)."""
    calls = count_guard_starts(project, tmp_path)
    clean = "## Project memory\n\n- Never push to main\n"
    leaked = f"## Project memory\n\n- Deploy with {SECRET}\n"
    head, clean_oid = _stage_memory(project, clean)
    _, leaked_oid = _stage_memory(project, leaked)
    exact = _staged_diff_line(project)
    meta, path = exact.split("\t")
    old_mode, new_mode, old_oid, new_oid, status = meta.lstrip(":").split(" ")
    assert new_oid == leaked_oid
    entry = {
        "new blob": f":{old_mode} {new_mode} {old_oid} {clean_oid} {status}\t{path}",
        "old blob": f":{old_mode} {new_mode} {clean_oid} {new_oid} {status}\t{path}",
        "path": f":{old_mode} {new_mode} {old_oid} {new_oid} {status}\tdocs/{path}",
        "mode": f":{old_mode} 100755 {old_oid} {new_oid} {status}\t{path}",
        "status": f":{old_mode} {new_mode} {old_oid} {new_oid} T\t{path}",
    }[mismatch]
    assert entry != exact
    prescanned_file(project).write_text(entry + "\n")
    proc = _commit(project)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "github" in proc.stderr and starts(calls) == 1
    assert git(project, "rev-parse", "HEAD").strip() == head


@pytest.mark.parametrize("committed_before", [False, True])
def test_an_exact_entry_is_the_guards_verdict(
    project: Path, tmp_path: Path, committed_before: bool
) -> None:
    """adopt's line for a new file (status A) and for a changed one (M) is the hook's line."""
    from agent_memory.adoption.prescan import clean_entries
    from agent_memory.committed.files import TierFiles

    if committed_before:
        _stage_memory(project, "## Project memory\n")
        git(project, "commit", "-q", "--no-verify", "-m", "block")
    before_text = (project / "CLAUDE.memory.md").read_text() if committed_before else ""
    calls = count_guard_starts(project, tmp_path)
    text = "## Project memory\n\n- Never push to main\n"
    head, _oid = _stage_memory(project, text)
    repo = G.find_repo(project)
    log_file = project / ".memory" / "adopted.log"
    log = log_file.read_text() if log_file.exists() else ""
    files = (
        TierFiles("L2", "CLAUDE.memory.md", log, before_text),
        TierFiles("L2", "CLAUDE.memory.md", log, text),
    )
    entries = [e for e in clean_entries(repo, head, *files) if e.endswith("\tCLAUDE.memory.md")]
    assert entries == [_staged_diff_line(project)]
    assert entries[0].split(" ")[4].startswith("M" if committed_before else "A")
    prescanned_file(project).write_text("\n".join(entries) + "\n")
    assert _commit(project).returncode == 0
    assert starts(calls) == 0 and git(project, "rev-parse", "HEAD").strip() != head


def test_adopt_lists_nothing_when_the_work_tree_differs_from_head(project: Path) -> None:
    """An uncommitted edit of a memory file: the hook's diff is not adopt's, so no entry."""
    from agent_memory.adoption.prescan import clean_entries
    from agent_memory.committed.files import TierFiles

    repo = G.find_repo(project)
    head = G.rev_parse(repo, "HEAD")
    before = TierFiles("L2", "CLAUDE.memory.md", "", "edited, not committed\n")
    after = TierFiles("L2", "CLAUDE.memory.md", "", "edited, not committed\n- Never push to main\n")
    assert clean_entries(repo, head, before, after) == []
    committed = (project / "CLAUDE.memory.md").read_text() if (project / "CLAUDE.memory.md").exists() else ""
    before = TierFiles("L2", "CLAUDE.memory.md", "", committed)
    ok = TierFiles("L2", "CLAUDE.memory.md", "", committed + "- Never push to main\n")
    bad = TierFiles("L2", "CLAUDE.memory.md", "", committed + f"- Deploy with {SECRET}\n")
    assert len(clean_entries(repo, head, before, ok)) == len(ok.paths())
    assert clean_entries(repo, head, before, bad) == []


# --- the in-process "unchanged since HEAD" check that stands in for `git status` ---------------

MEMORY = ["CLAUDE.memory.md", "CLAUDE.md", ".memory/adopted.log"]


def _edit(repo: Path, how: str) -> None:
    block, log = repo / "CLAUDE.memory.md", repo / ".memory" / "adopted.log"
    if how == "worktree edit":
        block.write_text(block.read_text() + "- typed by hand\n")
    elif how == "same size edit":
        text = block.read_text()
        block.write_text(text[:-2] + ("x" if text[-2] != "x" else "y") + "\n")
    elif how == "staged, then put back":
        original = block.read_text()
        block.write_text(original + "- staged\n")
        git(repo, "add", "CLAUDE.memory.md")
        block.write_text(original)
    elif how == "executable bit":
        log.chmod(0o755)
    elif how == "symlink":
        target = repo / "elsewhere.md"
        target.write_text(block.read_text())
        block.unlink()
        block.symlink_to(target)
    elif how == "deleted":
        log.unlink()
    elif how == "crlf filter":
        (repo / ".gitattributes").write_text("*.md text eol=crlf\n")
        block.write_text(block.read_text().replace("\n", "\r\n"))
    elif how == "untracked CLAUDE.md":
        (repo / "CLAUDE.md").unlink(missing_ok=True)
        git(repo, "rm", "-q", "--cached", "--ignore-unmatch", "CLAUDE.md")
        git(repo, "commit", "-q", "-m", "drop CLAUDE.md")
        (repo / "CLAUDE.md").write_text("# notes\n")


@pytest.mark.parametrize(
    "how",
    ["nothing", "worktree edit", "same size edit", "staged, then put back", "executable bit",
     "symlink", "deleted", "crlf filter", "untracked CLAUDE.md"],
)  # fmt: skip
def test_the_in_process_clean_check_never_passes_what_git_status_reports(
    project: Path, how: str
) -> None:
    stage_claims(project)
    gm_json(project, "adopt", "--all")
    _edit(project, how)
    dirty = [d for d in G.status_porcelain(G.find_repo(project), MEMORY) if not d.startswith("?? ")]
    fast = G.unchanged_since_head(G.find_repo(project), MEMORY)
    assert not (fast and dirty), (how, dirty)
    if how in ("nothing", "untracked CLAUDE.md"):
        assert fast and not dirty  # the check does prove the common case
    else:
        assert not fast


def _maintenance_runs(project: Path, tmp_path: Path, *extra_config: str) -> int:
    """`adopt --all` of three items with git's trace on: how many `git maintenance` ran."""
    for setting in extra_config:
        git(project, "config", *setting.split("=", 1))
    stage_claims(project)
    trace = tmp_path / "trace.json"
    gm_json(project, "adopt", "--all", env={"GIT_TRACE2_EVENT": str(trace)})
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert sum(1 for e in events if e.get("event") == "cmd_name" and e.get("name") == "commit") >= 3
    return sum(1 for e in events if e.get("event") == "cmd_name" and e.get("name") == "maintenance")


def test_adopt_all_runs_gits_automatic_maintenance_once_for_the_batch(project: Path, tmp_path: Path) -> None:
    assert _maintenance_runs(project, tmp_path) == 1


def test_adopt_all_runs_no_maintenance_when_the_user_turned_it_off(project: Path, tmp_path: Path) -> None:
    assert _maintenance_runs(project, tmp_path, "maintenance.auto=false") == 0
