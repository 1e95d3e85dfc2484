"""`git memory deinit` undoes `init` (issue 16), through the CLI on a real repository:
git hooks (a chained hook restored), Claude Code settings entries, the CLAUDE.md import, the
global registration; memory/atoms and committed memory kept unless --purge (which asks)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pexpect
import pytest
from conftest import git, new_repo
from golden import Golden
from sessions import gm, gm_json
from test_adopt import NOW, init_project, stage_claims
from test_security_clone_data import files_under_512_kb

FOREIGN_HOOK = "#!/bin/sh\necho 'the team hook ran'\n"


@pytest.fixture(scope="module")
def project_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[bool]:
    return Golden(tmp_path_factory.mktemp("deinit-project"))


@pytest.fixture
def project(project_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with a CLAUDE.md, a team pre-commit hook and a committed settings file, after
    `git memory init --yes`. Built once per module (the same commands and dates for every
    test); each test gets its own copy of it and of the home (golden.py)."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)

    def build(base: Path) -> bool:
        _set_up_by_the_team(new_repo(base / "proj"))
        gm(base / "proj", "init", "--yes")
        return True

    base, _ = project_golden.use(isolated_env, monkeypatch, build)
    return base / "proj"


def _set_up_by_the_team(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("# proj\n\nUse the Makefile.\n")
    git(repo, "add", "CLAUDE.md")
    git(repo, "commit", "-q", "-m", "CLAUDE.md")
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(FOREIGN_HOOK)
    hook.chmod(0o755)
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"allow": ["Bash(make:*)"]}}))
    git(repo, "add", ".claude/settings.json")
    git(repo, "commit", "-q", "-m", "settings")


def _registered(home: Path) -> list[str]:
    text = (home / ".claude" / "agent-memory" / "projects.json").read_text()
    return [e["name"] for e in json.loads(text)["projects"]]


def test_deinit_undoes_init_and_keeps_memory(project: Path) -> None:
    home = Path.home()  # the copy's (golden.py)
    ids = stage_claims(project)
    gm(project, "adopt", "--yes", ids["push"])
    assert _registered(home) == ["proj"]
    hooks = project / ".git" / "hooks"
    assert (hooks / "pre-commit.chained-by-agent-memory").exists()
    local = project / ".claude" / "settings.local.json"
    local.write_text(json.dumps({**json.loads(local.read_text()), "model": "opus"}))

    out = gm(project, "deinit").stdout
    assert "restored the hook it chained" in out and "kept: memory/atoms" in out
    assert (hooks / "pre-commit").read_text() == FOREIGN_HOOK
    assert not (hooks / "pre-commit.chained-by-agent-memory").exists() and not (hooks / "pre-push").exists()
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    assert settings == {"permissions": {"allow": ["Bash(make:*)"]}}
    # Without our SessionStart hook the client loads memory through the imports again.
    assert json.loads(local.read_text()) == {"model": "opus"}
    assert (project / "CLAUDE.md").read_text() == "# proj\n\nUse the Makefile.\n"
    assert _registered(home) == []
    # kept: L1 and committed memory
    assert git(project, "rev-parse", "--verify", "memory/atoms").strip()
    assert "Never push directly to main" in (project / "CLAUDE.memory.md").read_text()
    assert (project / ".memory" / "adopted.log").exists()
    # the team's hook runs on its own again
    (project / "x.txt").write_text("x\n")
    git(project, "add", "x.txt")
    proc = git(project, "commit", "-m", "x")
    assert "memory" not in proc.lower()
    assert gm(project, "deinit").stdout.startswith("agent-memory is not set up here; nothing changed")
    # init again carries on where deinit left off
    again = gm_json(project, "init", "--no-claude-hooks")
    assert again["project"] == "proj" and _registered(home) == ["proj"]
    assert ids["push"] in {a["id"] for a in gm_json(project, "inspect", "--tier", "L2")["atoms"]}


def test_deinit_of_a_repository_init_created_everything_in(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    init_project(repo, monkeypatch)
    gm(repo, "deinit")
    assert not (repo / "CLAUDE.md").exists() and not (repo / ".claude").exists()
    hooks = repo / ".git" / "hooks"
    assert not (hooks / "pre-commit").exists() and not (hooks / "pre-push").exists()
    assert gm(repo, "deinit").stdout.startswith("agent-memory is not set up here")


def test_the_commit_deinit_says_to_make_leaves_out_what_the_person_had_staged(project: Path) -> None:
    """deinit said `git add -A -- FILES && git commit -m 'Remove agent-memory'`: run as
    printed, the commit took along whatever the person had staged. Pathspecs on the commit
    too: it holds deinit's files alone, and the staged change stays staged."""
    (project / "mine.txt").write_text("work in progress\n")
    git(project, "add", "mine.txt")
    out = gm(project, "deinit").stdout
    line = next(line for line in out.splitlines() if line.startswith("next: commit it: "))
    subprocess.run(line.removeprefix("next: commit it: "), shell=True, cwd=project, check=True, capture_output=True)
    assert sorted(git(project, "show", "--format=", "--name-only", "HEAD").split()) == [".claude/settings.json", "CLAUDE.md"]
    assert git(project, "status", "--porcelain").splitlines() == ["A  mine.txt"]


@pytest.mark.parametrize(("text", "said"), [('{"hooks": "weird"}', '"hooks" is a str, expected an object'),
                                         ("{ not json", "is not valid JSON")])
def test_settings_our_hooks_cannot_be_taken_out_of_stop_deinit_before_it_changes_anything(
    project: Path, text: str, said: str
) -> None:
    """deinit found such a settings.json only when it came to remove our hooks from it: the
    git hooks were gone and the repository marked removed, the CLAUDE.md import and the
    registration left, and the hint named `git memory init --no-claude-hooks`."""
    settings = project / ".claude" / "settings.json"
    settings.write_text(text)
    hooks = sorted(p.name for p in (project / ".git" / "hooks").iterdir())
    proc = gm(project, "deinit", check=False)
    assert proc.returncode == 3 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        next(line for line in proc.stderr.splitlines() if said in line),
        "hint: fix the file by hand, then run `git memory deinit` again"], proc.stderr
    assert proc.stderr.splitlines()[0].endswith("; nothing was changed") and "left unchanged;" not in proc.stderr
    assert sorted(p.name for p in (project / ".git" / "hooks").iterdir()) == hooks
    assert "@CLAUDE.memory.md" in (project / "CLAUDE.md").read_text() and settings.read_text() == text
    assert gm_json(project, "status")["set_up"] is True


def test_purge_asks_and_refuses_without_a_terminal(project: Path) -> None:
    proc = gm(project, "deinit", "--purge", check=False, input_text="")
    assert proc.returncode == 1 and "--purge --yes" in proc.stderr
    assert git(project, "rev-parse", "--verify", "memory/atoms").strip()  # nothing changed
    assert (project / ".git" / "hooks" / "pre-push").exists()


def test_purge_asks_on_a_terminal(project: Path) -> None:
    child = pexpect.spawn("git", ["memory", "deinit", "--purge"], cwd=str(project), env=dict(os.environ),
                          encoding="utf-8", timeout=60)
    child.expect(r"Delete\? \[y/N\]")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert git(project, "rev-parse", "--verify", "memory/atoms").strip()
    child = pexpect.spawn("git", ["memory", "deinit", "--purge"], cwd=str(project), env=dict(os.environ),
                          encoding="utf-8", timeout=60)
    child.expect(r"Delete\? \[y/N\]")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert git(project, "rev-parse", "--verify", "--quiet", "memory/atoms", check=False).strip() == ""


def test_purge_yes_deletes_memory_and_setup(project: Path) -> None:
    ids = stage_claims(project)
    gm(project, "adopt", "--yes", ids["push"])
    out = gm_json(project, "deinit", "--purge", "--yes")
    assert out["purged"] is True
    for ref in ("memory/atoms", "memory/review"):
        assert git(project, "rev-parse", "--verify", "--quiet", ref, check=False).strip() == ""
    assert not (project / "CLAUDE.memory.md").exists() and not (project / ".memory").exists()
    assert not (project / ".git" / "agent-memory").exists()
    assert not (project / ".gitignore").exists() or ".memory" not in (project / ".gitignore").read_text()
    assert git(project, "config", "--get", "memory.project", check=False).strip() == ""
    # the removal is left for the user to commit, like any change to tracked files
    status = git(project, "status", "--porcelain")
    assert "CLAUDE.memory.md" in status and ".memory/adopted.log" in status


def test_status_after_deinit_says_it_was_removed_not_that_the_hooks_broke(project: Path) -> None:
    """After `deinit` (which keeps memory/atoms), status listed each git hook as 'NOT ACTIVE
    (missing: …)' with 'hint: re-run `git memory init` to install it' three times, as if the
    setup had broken. It now says agent-memory was removed here and what is kept."""
    gm(project, "deinit")
    out = gm(project, "status").stdout
    assert "NOT ACTIVE" not in out and out.count("git memory init") == 1, out
    assert "removed" in out and "git memory deinit" in out, out
    assert gm_json(project, "status")["set_up"] is False
    gm(project, "init", "--yes")
    out = gm(project, "status").stdout
    assert "removed" not in out and "git hook pre-commit: active" in out, out
    assert gm_json(project, "status")["set_up"] is True


def test_init_after_deinit_takes_back_a_store_an_older_version_last_wrote(guarded: Path) -> None:
    """deinit keeps memory/atoms for init to take back, and init (and every verb) now takes a
    store only with the init marker or a `store` line of the capture ledger. A store last
    written by a version before that line existed had none, so after deinit `git memory init`
    refused the person's own store as 'someone else's, came with the clone' (exit 3). deinit,
    which knows the store is this repository's, now records it before unmarking."""
    gm(guarded, "remember", "Never push directly to main")
    ledger = guarded / ".git" / "agent-memory" / "captured.log"
    # the ledger as a version before the `store` line left it
    ledger.write_text("".join(line for line in ledger.read_text("utf-8").splitlines(True) if "\tstore\t" not in line))
    gm(guarded, "deinit")
    assert "Never push directly to main" in gm(guarded, "inspect", "--tier", "L1").stdout
    gm(guarded, "init", "--yes", "--no-claude-hooks")
    assert "Never push directly to main" in gm(guarded, "inspect", "--tier", "L1").stdout


def test_a_store_an_earlier_version_s_deinit_kept_is_refused_with_the_way_back(guarded: Path) -> None:
    """A store kept by `deinit` of a version before the ledger's `store` line has no mark of
    this repository left: init refuses it as one that came with a clone (it cannot tell). The
    hint named the marker 'if it is your own store' without saying when it is; it now names an
    earlier version's deinit, and following it takes the store back."""
    import shlex
    import subprocess

    gm(guarded, "remember", "Never push directly to main")
    ledger = guarded / ".git" / "agent-memory" / "captured.log"
    ledger.write_text("".join(line for line in ledger.read_text("utf-8").splitlines(True) if "\tstore\t" not in line))
    (guarded / ".git" / "agent-memory" / "initialised").unlink()  # what an earlier deinit left
    git(guarded, "config", "--unset", "memory.project")
    refused = gm(guarded, "init", "--yes", "--no-claude-hooks", check=False)
    assert refused.returncode == 3
    hint = refused.stderr.split("hint:", 1)[1]
    assert "`git memory deinit` of an earlier version" in hint, hint
    marker = next(part for part in hint.split("`") if part.startswith("mkdir -p "))
    subprocess.run(["sh", "-c", marker], check=True)
    assert shlex.split(marker)[0] == "mkdir"
    gm(guarded, "init", "--yes", "--no-claude-hooks")
    assert "Never push directly to main" in gm(guarded, "inspect", "--tier", "L1").stdout


def test_deinit_asks_git_about_every_file_it_changed_in_one_status(project: Path, tmp_path: Path) -> None:
    """The `next: commit it` line names each file deinit changed that git sees changed: one
    `git status` for all of them (it was one process per file)."""
    ids = stage_claims(project)
    gm(project, "adopt", "--yes", ids["push"])
    trace = tmp_path / "trace.json"
    out = gm(project, "deinit", "--purge", "--yes", env={"GIT_TRACE2_EVENT": str(trace)}).stdout
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    here = {e["sid"] for e in events if e.get("event") == "def_repo" and Path(e.get("worktree", "/")) == project.resolve()}
    statuses = [e for e in events if e.get("event") == "cmd_name" and e["name"] == "status" and e["sid"] in here]
    assert len(statuses) == 1, statuses  # (the global memory repo's own is another repository's)
    line = next(line for line in out.splitlines() if line.startswith("next: commit it: "))
    files = ".claude/settings.json CLAUDE.md CLAUDE.memory.md .memory/adopted.log .gitignore .gitattributes"
    assert line == f"next: commit it: git add -A -- {files} && git commit -m 'Remove agent-memory' -- {files}"
    subprocess.run(line.removeprefix("next: commit it: "), shell=True, cwd=project, check=True, capture_output=True)
    assert git(project, "status", "--porcelain") == ""


def test_deinit_never_leaves_claude_md_half_rewritten_when_its_write_fails(repo: Path) -> None:
    """deinit took its import line out of CLAUDE.md by writing the shorter text over the old one
    in place: a write that failed half-way (a full disk, a file-size limit) left the new text's
    head on the old text's tail — lines doubled, the person's notes garbled — wherever the line
    sat before the end (moved to the top here). The file is replaced whole (a temporary file,
    then a rename), as init writes it: a failed write leaves it as it was, its mode kept. The
    failure is the operating system's: a file-size limit (RLIMIT_FSIZE) under the file's size."""
    import stat

    notes = "".join(f"- note {n}: run make before a release.\n" for n in range(30000))
    gm(repo, "init", "--no-claude-hooks")
    claude = repo / "CLAUDE.md"
    claude.write_text("@CLAUDE.memory.md\n\n" + notes)  # the person moved the import to the top
    claude.chmod(0o640)
    before = claude.read_bytes()
    assert len(before) > 1 << 20

    failed = files_under_512_kb(repo, "deinit")
    assert failed.returncode != 0, failed
    assert claude.read_bytes() == before
    assert [p.name for p in repo.iterdir() if p.name.startswith(".CLAUDE.md")] == []
    gm(repo, "deinit")
    assert claude.read_text() == "\n" + notes  # the line out, the person's notes as they were
    assert stat.S_IMODE(claude.stat().st_mode) == 0o640
