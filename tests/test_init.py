"""`git memory init` on real repositories: idempotent, chains existing hooks, respects
core.hooksPath, writes the ignore/attributes lines, the CLAUDE.md import and the Claude Code
hooks, registers the project in the global repo; the pre-push hook refuses memory/atoms; the
pre-commit guard names the interpreter that ran init, so it runs outside the venv too."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest
from builders import SECRET
from conftest import git
from sessions import gm, gm_json


def test_init_sets_everything_up_and_a_second_run_changes_nothing(repo: Path) -> None:
    first = gm_json(repo, "init")
    assert first["project"] == "proj"
    assert "memory/atoms" in git(repo, "branch", "--list", "memory/atoms")
    assert (repo / ".gitignore").read_text().splitlines()[-3:] == [
        ".memory/*",
        "!.memory/adopted.log",
        ".claude/settings.local.json",
    ]
    assert ".memory/adopted.log merge=union" in (repo / ".gitattributes").read_text()
    assert "@CLAUDE.memory.md" in (repo / "CLAUDE.md").read_text().splitlines()
    settings = json.loads((repo / ".claude" / "settings.json").read_text())
    assert set(settings["hooks"]) == {"SessionStart", "UserPromptSubmit", "SessionEnd"}
    hooks = repo / ".git" / "hooks"
    for name in ("pre-commit", "pre-merge-commit", "pre-push"):
        assert os.access(hooks / name, os.X_OK), name
    home = Path(os.environ["AGENT_MEMORY_HOME"])
    registry = json.loads((home / "projects.json").read_text())["projects"]
    assert [p["name"] for p in registry] == ["proj"]
    assert "@" in (Path(os.environ["CLAUDE_CONFIG_DIR"]) / "CLAUDE.md").read_text()
    # The SessionStart hook carries memory on this machine: the client is told not to load the
    # memory files through the imports too, in the personal (ignored) settings file.
    local = json.loads((repo / ".claude" / "settings.local.json").read_text())
    assert local == {"claudeMdExcludes": ["**/CLAUDE.memory.md"]}
    assert git(repo, "check-ignore", ".claude/settings.local.json").strip()
    before = {
        p: p.read_bytes()
        for p in [repo / ".gitignore", repo / "CLAUDE.md", repo / ".claude/settings.json",
                  repo / ".claude/settings.local.json"]
    }  # fmt: skip
    second = gm_json(repo, "init")
    assert second["changed"] == {}
    assert {p: p.read_bytes() for p in before} == before


def _hinted_commit(out: str, lead: str) -> str:
    """The command a `next: …` line of init/deinit says to run."""
    line = next(line for line in out.splitlines() if line.startswith(lead))
    return line.removeprefix(lead)


def test_the_commit_init_says_to_make_leaves_out_what_the_person_had_staged(repo: Path) -> None:
    """`init` without --yes said `git add FILES && git commit -m …`: run as printed, the
    commit took along whatever the person had staged. `init --yes` leaves that out; so does
    the command it prints (pathspecs on the commit too)."""
    (repo / "mine.txt").write_text("work in progress\n")
    git(repo, "add", "mine.txt")
    command = _hinted_commit(gm(repo, "init").stdout, "next: commit the setup: ")
    subprocess.run(command, shell=True, cwd=repo, check=True, capture_output=True)
    assert git(repo, "show", "--format=", "--name-only", "HEAD").split() == [
        ".claude/settings.json", ".gitattributes", ".gitignore", "CLAUDE.md"]
    assert git(repo, "status", "--porcelain").splitlines() == ["A  mine.txt"]


def test_existing_claude_md_and_settings_are_kept(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("# House rules\n\nBe kind.\n")
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "model": "opus",
                "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]},
            }
        )
    )
    gm(repo, "init")
    assert (repo / "CLAUDE.md").read_text().startswith("# House rules\n\nBe kind.\n")
    settings = json.loads((repo / ".claude" / "settings.json").read_text())
    assert settings["model"] == "opus"
    commands = [h["command"] for g in settings["hooks"]["SessionStart"] for h in g["hooks"]]
    assert "echo hi" in commands and any("git-memory hook session-start" in c for c in commands)


def test_no_claude_hooks_skips_settings(repo: Path) -> None:
    gm(repo, "init", "--no-claude-hooks")
    assert not (repo / ".claude" / "settings.json").exists()
    # No hook of ours injects memory here: the client loads it through the imports.
    assert not (repo / ".claude" / "settings.local.json").exists()


def test_personal_settings_are_kept_and_the_exclusion_added_once(repo: Path) -> None:
    local = repo / ".claude" / "settings.local.json"
    local.parent.mkdir()
    local.write_text(json.dumps({"model": "opus", "claudeMdExcludes": ["**/vendor/CLAUDE.md"]}))
    gm(repo, "init", "--yes")
    gm(repo, "init", "--yes")
    assert json.loads(local.read_text()) == {
        "model": "opus",
        "claudeMdExcludes": ["**/vendor/CLAUDE.md", "**/CLAUDE.memory.md"],
    }
    assert ".claude/settings.local.json" not in git(repo, "ls-files")  # never committed


def test_an_unreadable_exclusion_list_stops_init_before_it_writes(repo: Path) -> None:
    local = repo / ".claude" / "settings.local.json"
    local.parent.mkdir()
    local.write_text(json.dumps({"claudeMdExcludes": "**/CLAUDE.memory.md"}))
    proc = gm(repo, "init", check=False)
    assert proc.returncode == 3
    assert "claudeMdExcludes is not a list" in proc.stderr and "hint:" in proc.stderr
    assert json.loads(local.read_text()) == {"claudeMdExcludes": "**/CLAUDE.memory.md"}
    assert not (repo / ".claude" / "settings.json").exists() and not (repo / "CLAUDE.md").exists()
    assert git(repo, "branch", "--list", "memory/atoms") == ""


@pytest.mark.parametrize(("hooks", "said"), [("weird", '"hooks" is a str, expected an object'),
                                          ({"SessionStart": {}}, "hooks.SessionStart is a dict, expected a list")])
def test_settings_whose_hooks_cannot_take_ours_stop_init_before_it_writes(repo: Path, hooks: object,
                                                                          said: str) -> None:  # fmt: skip
    """A settings.json that parses but whose `hooks` is not an object of lists was refused
    only when init came to write the Claude Code hooks: memory/atoms, the git hooks, the
    ignore lines and the CLAUDE.md import were in place by then (exit 3 all the same)."""
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": hooks}))
    proc = gm(repo, "init", "--yes", check=False)
    assert proc.returncode == 3 and said in proc.stderr and "--no-claude-hooks" in proc.stderr, proc.stderr
    assert json.loads(settings.read_text()) == {"hooks": hooks}
    assert git(repo, "branch", "--list", "memory/atoms") == ""
    assert not (repo / ".gitignore").exists() and not (repo / "CLAUDE.md").exists()
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    assert gm(repo, "init", "--yes", "--no-claude-hooks").returncode == 0  # the hint's way through


def test_a_foreign_hook_is_kept_and_chained(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    marker = repo / "foreign-ran"
    (hooks / "pre-commit").write_text(f"#!/bin/sh\necho ran > '{marker}'\nexit 0\n")
    (hooks / "pre-commit").chmod(0o755)
    gm(repo, "init")
    assert (hooks / "pre-commit.chained-by-agent-memory").exists()
    (repo / "x.txt").write_text("x")
    git(repo, "add", "x.txt")
    git(repo, "commit", "-qm", "x")
    assert marker.read_text().strip() == "ran"


def test_a_failing_foreign_hook_still_blocks_the_commit(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "pre-commit").write_text("#!/bin/sh\necho no >&2\nexit 1\n")
    (hooks / "pre-commit").chmod(0o755)
    gm(repo, "init")
    (repo / "x.txt").write_text("x")
    git(repo, "add", "x.txt")
    assert git(repo, "commit", "-qm", "x", check=False) == ""
    assert git(repo, "rev-list", "--count", "HEAD").strip() == "1"


def test_core_hooks_path_is_respected(repo: Path) -> None:
    custom = repo / ".githooks"
    custom.mkdir()
    git(repo, "config", "core.hooksPath", ".githooks")
    gm(repo, "init")
    assert (custom / "pre-commit").exists() and (custom / "pre-push").exists()
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()


def test_pre_push_refuses_memory_atoms_but_pushes_other_branches(
    repo: Path, tmp_path: Path
) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    gm(repo, "init", "--yes")
    git(repo, "push", "-q", "origin", "main")
    assert git(remote, "rev-parse", "main")
    import subprocess

    refused = subprocess.run(
        ["git", "-C", str(repo), "push", "origin", "memory/atoms"], capture_output=True, text=True
    )
    assert refused.returncode != 0 and "refusing to push memory/atoms" in refused.stderr
    assert git(remote, "branch", "--list", "memory/atoms") == ""


def test_two_repos_with_one_name_are_disambiguated(tmp_path: Path) -> None:
    a, b = tmp_path / "one" / "app", tmp_path / "two" / "app"
    for path in (a, b):  # two histories (another checkout of the same one shares its name)
        path.mkdir(parents=True)
        git(path, "init", "-q")
        (path / "f").write_text(path.parent.name)
        git(path, "add", "f")
        git(path, "commit", "-qm", "f")
    assert gm_json(a, "init")["project"] == "app"
    other = gm_json(b, "init")["project"]
    assert other.startswith("app-") and other != "app"
    assert git(b, "config", "memory.project").strip() == other


def test_init_outside_a_repository_is_exit_3_with_a_hint(tmp_path: Path) -> None:
    proc = gm(tmp_path, "init", check=False)
    assert proc.returncode == 3 and "not a git repository" in proc.stderr and "hint:" in proc.stderr


def test_init_in_a_bare_repository_creates_only_the_store(tmp_path: Path) -> None:
    bare = tmp_path / "b.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    out = gm_json(bare, "init")
    assert "bare repository" in out["changed"]
    assert git(bare, "rev-parse", "memory/atoms")


def test_hooks_are_executable_shims(repo: Path) -> None:
    gm(repo, "init")
    mode = (repo / ".git" / "hooks" / "pre-push").stat().st_mode
    assert mode & stat.S_IXUSR


# --- the pre-commit guard names the interpreter that ran init (B2) ----------------------------

BARE_PATH = "/usr/bin:/bin"  # no venv, so no git-memory: a commit from an IDE or a new shell
LEAK = "<!-- agent-memory:begin L2 -->\n- token " + SECRET + "\n<!-- agent-memory:end L2 -->\n"


def _interpreter_line(hook: Path) -> str:
    return next(ln for ln in hook.read_text().splitlines() if ln.startswith("AGENT_MEMORY_PYTHON="))


def _recorded_python(hook: Path) -> str:
    proc = subprocess.run(
        ["sh", "-c", _interpreter_line(hook) + '\nprintf %s "$AGENT_MEMORY_PYTHON"'],
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout


def _commit_outside_venv(repo: Path, rel: str, text: str) -> subprocess.CompletedProcess[str]:
    (repo / rel).write_text(text)
    git(repo, "add", rel)
    return subprocess.run(
        ["git", "-C", str(repo), "commit", "-qm", f"edit {rel}"],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": BARE_PATH},
    )


def test_the_guard_records_an_absolute_interpreter_that_imports_agent_memory(repo: Path) -> None:
    gm(repo, "init", "--no-claude-hooks")
    python = _recorded_python(repo / ".git" / "hooks" / "pre-commit")
    assert os.path.isabs(python) and os.access(python, os.X_OK)
    subprocess.run([python, "-c", "import agent_memory.cli.main"], check=True, cwd="/")
    # the pre-push scan and the merge guard need it too
    for name in ("pre-merge-commit", "pre-push"):
        assert _recorded_python(repo / ".git" / "hooks" / name) == python


def test_a_second_init_leaves_the_hooks_unchanged_and_another_interpreter_updates_them(
    repo: Path,
) -> None:
    gm(repo, "init", "--no-claude-hooks")
    hook = repo / ".git" / "hooks" / "pre-commit"
    installed = hook.read_bytes()
    assert gm_json(repo, "init", "--no-claude-hooks")["changed"] == {}
    assert hook.read_bytes() == installed

    hook.write_text(
        hook.read_text().replace(
            _interpreter_line(hook), "AGENT_MEMORY_PYTHON='/old/venv/bin/python'"
        )
    )
    changed = gm_json(repo, "init", "--no-claude-hooks")["changed"]
    assert changed == {"git hook pre-commit": "updated"}
    assert hook.read_bytes() == installed
    assert os.access(hook, os.X_OK)


def test_a_second_init_keeps_a_chained_foreign_hook(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "pre-commit").write_text("#!/bin/sh\nexit 0\n")
    (hooks / "pre-commit").chmod(0o755)
    first = gm_json(repo, "init", "--no-claude-hooks")["changed"]
    assert "kept the existing hook" in first["git hook pre-commit"]
    assert gm_json(repo, "init", "--no-claude-hooks")["changed"] == {}
    assert (hooks / "pre-commit.chained-by-agent-memory").read_text() == "#!/bin/sh\nexit 0\n"


def test_the_global_repo_guard_runs_outside_the_venv(repo: Path) -> None:
    gm(repo, "init", "--no-claude-hooks")
    home = Path(os.environ["AGENT_MEMORY_HOME"])
    assert _recorded_python(home / ".git" / "hooks" / "pre-commit") == _recorded_python(
        repo / ".git" / "hooks" / "pre-commit"
    )
    head = git(home, "rev-parse", "HEAD")
    refused = _commit_outside_venv(home, "CLAUDE.memory.md", LEAK)
    assert refused.returncode == 1 and "CLAUDE.memory.md:2: github" in refused.stderr
    assert git(home, "rev-parse", "HEAD") == head


def test_hooks_in_a_committed_folder_carry_no_path_and_still_guard(repo: Path) -> None:
    # core.hooksPath inside the work tree (a team's shared .githooks/): the hook may be
    # committed, so the interpreter goes to the local git config instead of into the file.
    (repo / ".githooks").mkdir()
    git(repo, "config", "core.hooksPath", ".githooks")
    gm(repo, "init", "--no-claude-hooks")
    hook = repo / ".githooks" / "pre-commit"
    assert _interpreter_line(hook) == "AGENT_MEMORY_PYTHON=''"
    python = git(repo, "config", "--get", "memory.python").strip()
    assert os.path.isabs(python) and python not in hook.read_text()
    git(repo, "add", ".githooks")
    git(repo, "commit", "-qm", "share the hooks")
    assert python not in git(repo, "show", "HEAD:.githooks/pre-commit")

    refused = _commit_outside_venv(repo, "CLAUDE.memory.md", LEAK)
    assert refused.returncode == 1 and "CLAUDE.memory.md:2: github" in refused.stderr
    git(repo, "reset", "-q")
    assert gm_json(repo, "init", "--no-claude-hooks")["changed"] == {}
    git(repo, "config", "memory.python", "/old/venv/bin/python")
    assert gm_json(repo, "init", "--no-claude-hooks")["changed"]["git hook pre-commit"].startswith(
        "updated"
    )
    assert git(repo, "config", "--get", "memory.python").strip() == python


def test_an_interpreter_path_with_quotes_and_spaces_survives_the_shell() -> None:
    from agent_memory.committed.install import render_hook

    odd = "/opt/it's a venv/bin/python"
    line = next(
        ln
        for ln in render_hook("pre-commit", odd).splitlines()
        if ln.startswith("AGENT_MEMORY_PYTHON=")
    )
    proc = subprocess.run(
        ["sh", "-c", line + '\nprintf %s "$AGENT_MEMORY_PYTHON"'], capture_output=True, text=True
    )
    assert proc.stdout == odd


def test_init_says_to_capture_the_sessions_the_project_already_has(repo: Path) -> None:
    """A newcomer runs init in a project Claude Code has worked in for weeks: init said to
    commit its files and stopped, and nothing said that the sessions so far were not read
    (status did, once asked). Init now names `capture --all` and how many there are."""
    from sessions import write_session

    for n, day in enumerate(("2026-11-02", "2026-11-03")):
        write_session(repo, f"dddddddd-0000-4000-8000-00000000000{n}", day, [{"user": "Never push to main."}])
    proc = gm(repo, "init")
    assert "git memory capture --all" in proc.stdout and "2 Claude Code sessions" in proc.stdout, proc.stdout
    lines = proc.stdout.splitlines()
    assert lines.index(next(x for x in lines if "capture --all" in x)) > lines.index(next(x for x in lines if x.startswith("next:")))
    assert gm_json(repo, "init")["transcripts_not_captured"] == 2
    gm(repo, "capture", "--all")
    again = gm(repo, "init").stdout
    assert "capture --all" not in again, again


def test_a_folder_name_longer_than_a_project_name_still_stores_memory(tmp_path: Path) -> None:
    """A folder may be named with up to 255 bytes; a project name holds 200 characters (the
    atom schema). init took the folder's 230-character name as it was, and every atom of the
    project failed the schema after: `remember` and the capture stored nothing, ever. The
    folder's name is cut to 200 characters; an explicit --project over 200 is refused."""
    path = tmp_path / ("p" * 230)
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    git(path, "commit", "-q", "--allow-empty", "-m", "initial")
    refused = gm(path, "init", "--yes", "--no-claude-hooks", "--project", "q" * 201, check=False)
    assert refused.returncode == 2 and "over 200" in refused.stderr, refused.stderr
    gm(path, "init", "--yes", "--no-claude-hooks")
    assert git(path, "config", "--get", "memory.project").strip() == "p" * 200
    gm(path, "remember", "Never force push to the main branch")
    [atom] = gm_json(path, "inspect", "--tier", "L1")["atoms"]
    assert atom["project"] == "p" * 200


def test_a_branch_named_memory_is_named_before_init_writes_anything(repo: Path) -> None:
    """git keeps a branch `memory` as a file where memory/atoms needs a folder: init made no
    store and said nothing, marked the repository set up, and every verb after refused it as a
    lost store ('find it with git fsck --lost-found'; init again did the same). init now names
    the branch (exit 3, nothing written); renamed as the hint says, init goes through."""
    git(repo, "branch", "memory")
    refused = gm(repo, "init", "--yes", check=False)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert "the branch memory takes the place git needs for memory/atoms" in refused.stderr, refused.stderr
    assert not (repo / ".git" / "agent-memory" / "initialised").exists() and git(repo, "status", "--porcelain") == ""
    git(repo, "branch", "-m", "memory", "memory-notes")  # as the hint says
    gm(repo, "init", "--yes")
    gm(repo, "remember", "Use pnpm for installs, never npm")


def test_init_yes_leaves_the_persons_own_untracked_setup_files_out_of_its_commit(repo: Path) -> None:
    """`init --yes` commits the setup: it committed a CLAUDE.md of the person's notes and a
    .claude/settings.json with a token in its env whole, files they had kept out of git, where it
    only meant to commit the lines it adds. Those stay uncommitted (with init's lines added) and
    it says so; the files init creates are committed, now or by a later `init --yes`."""
    (repo / "CLAUDE.md").write_text("# my notes\nthe staging password is in 1password\n")
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text('{"env": {"MY_TOKEN": "not-for-git"}}\n')
    out = gm_json(repo, "init", "--yes")
    tracked = set(git(repo, "ls-files").split())
    assert {".gitignore", ".gitattributes"} <= tracked, tracked
    assert "CLAUDE.md" not in tracked and ".claude/settings.json" not in tracked, tracked
    assert "@CLAUDE.memory.md" in (repo / "CLAUDE.md").read_text()  # init's line is there all the same
    left = out["changed"]["left uncommitted"]
    assert left.startswith("CLAUDE.md, .claude/settings.json: yours and not in git"), left
    assert "not-for-git" not in git(repo, "log", "-p")


def test_files_an_earlier_init_created_are_still_committed_by_init_yes(repo: Path) -> None:
    gm(repo, "init")  # creates CLAUDE.md, .gitignore, … and says to commit them
    assert "CLAUDE.md" not in git(repo, "ls-files").split()
    gm(repo, "init", "--yes")
    assert {"CLAUDE.md", ".gitignore", ".gitattributes", ".claude/settings.json"} <= set(git(repo, "ls-files").split())


def test_status_names_setup_files_left_uncommitted(repo: Path) -> None:
    """After `init` without --yes (or a file of the person's `init --yes` left out), status says
    which setup files are not committed and how to commit them: until then a teammate's Claude
    Code loads no project memory. Edits of the person's own to a committed file are not named."""
    gm(repo, "init")
    status = gm_json(repo, "status")
    assert {"CLAUDE.md", ".gitignore", ".claude/settings.json"} <= set(status["setup_uncommitted"]), status
    text = gm(repo, "status").stdout
    assert "setup not committed: " in text and "git commit -m 'Set up agent-memory' -- " in text, text
    gm(repo, "init", "--yes")
    assert gm_json(repo, "status")["setup_uncommitted"] == []
    with (repo / "CLAUDE.md").open("a") as fh:
        fh.write("\nA note of mine, not committed yet.\n")
    assert gm_json(repo, "status")["setup_uncommitted"] == []
    assert "setup not committed" not in gm(repo, "status").stdout
