"""Issue 14 §2 and §3 through real `git push`es with the hooks `git memory init` installs:
nothing of memory/atoms leaves under any name (objects are checked, not ref names), and every
pushed commit's memory files are scanned — the check `--no-verify`, a cherry-pick and a
rebase skip at commit time."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from builders import BLOCK, SECRET
from conftest import git, new_repo
from golden import Golden
from sessions import gm


@pytest.fixture(scope="module")
def pushing_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[bool]:
    return Golden(tmp_path_factory.mktemp("pushing"))


@pytest.fixture
def pushing(pushing_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """An initialised project (memory/atoms exists) whose main is on a bare remote. Built once
    per module (the same commands for every test); each test gets its own copy of both
    (golden.py)."""

    def build(base: Path) -> bool:
        remote = base / "remote.git"
        git(base, "init", "-q", "--bare", str(remote))
        repo = new_repo(base / "proj")
        git(repo, "remote", "add", "origin", str(remote))
        gm(repo, "init", "--yes", "--no-claude-hooks")
        git(repo, "push", "-q", "origin", "main")
        return True

    base, _ = pushing_golden.use(isolated_env, monkeypatch, build)
    return base / "proj", base / "remote.git"


def push(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(repo), "push", *args], capture_output=True, text=True)


def remote_has_atoms(repo: Path, remote: Path) -> bool:
    """Whether any commit of the local memory/atoms is in the remote (under any name)."""
    atoms = set(git(repo, "rev-list", "memory/atoms").split())
    listed = git(remote, "rev-list", "--all").split()
    return bool(atoms & set(listed))


@pytest.mark.parametrize(
    "how",
    ["renamed", "raw-sha", "tag", "annotated-tag", "all-tags", "detached-head", "merged-in"],
)
def test_memory_atoms_is_refused_under_any_name(pushing: tuple[Path, Path], how: str) -> None:
    repo, remote = pushing
    atoms = git(repo, "rev-parse", "memory/atoms").strip()
    if how == "renamed":
        proc = push(repo, "origin", "memory/atoms^0:refs/heads/x")
    elif how == "raw-sha":
        proc = push(repo, "origin", f"{atoms}:refs/heads/x")
    elif how == "tag":
        git(repo, "tag", "t", "memory/atoms")
        proc = push(repo, "origin", "t")
    elif how == "annotated-tag":
        git(repo, "tag", "-a", "-m", "release", "v1", "memory/atoms")
        proc = push(repo, "origin", "v1")
    elif how == "all-tags":
        git(repo, "tag", "t", "memory/atoms")
        proc = push(repo, "--tags", "origin")
    elif how == "detached-head":
        git(repo, "checkout", "-q", "--detach", "memory/atoms")
        proc = push(repo, "origin", "HEAD:refs/heads/y")
    else:  # the L1 history merged into a branch that is then pushed
        git(repo, "checkout", "-q", "-b", "feature")
        git(repo, "merge", "-q", "--allow-unrelated-histories", "--no-edit", "-s", "ours", "memory/atoms")
        proc = push(repo, "origin", "feature")
    assert proc.returncode != 0, proc.stderr
    assert "refusing to push memory/atoms" in proc.stderr and "hint:" in proc.stderr
    assert not remote_has_atoms(repo, remote)


def test_ordinary_pushes_still_go_through(pushing: tuple[Path, Path]) -> None:
    repo, remote = pushing
    (repo / "app.py").write_text("print('hi')\n")
    git(repo, "add", "app.py")
    git(repo, "commit", "-qm", "app")
    git(repo, "tag", "v1")
    assert push(repo, "origin", "main").returncode == 0
    assert push(repo, "--tags", "origin").returncode == 0
    assert git(remote, "rev-parse", "v1") == git(repo, "rev-parse", "v1")
    # deleting a remote branch sends no objects
    assert push(repo, "origin", "main:refs/heads/tmp").returncode == 0
    assert push(repo, "origin", ":refs/heads/tmp").returncode == 0


def test_without_memory_atoms_the_fast_path_still_scans_memory_files(
    pushing: tuple[Path, Path],
) -> None:
    repo, remote = pushing
    git(repo, "update-ref", "-d", "refs/heads/memory/atoms")
    (repo / "app.py").write_text("print('hi')\n")
    git(repo, "add", "app.py")
    git(repo, "commit", "-qm", "app")
    assert push(repo, "origin", "main").returncode == 0
    (repo / "CLAUDE.memory.md").write_text(BLOCK.format(line=f"Deploy with {SECRET}"))
    git(repo, "add", "CLAUDE.memory.md")
    git(repo, "commit", "-q", "--no-verify", "-m", "leak")
    assert push(repo, "origin", "main").returncode != 0


def test_a_store_branch_moved_onto_main_leaves_main_pushable_and_the_store_refused(
    pushing: tuple[Path, Path],
) -> None:
    """`git branch -f memory/atoms main`: main's commits are the project's, not L1 — pushing
    main goes through and is still scanned; the store's commits, found through the branch's
    reflog, are still refused under any name."""
    repo, remote = pushing
    gm(repo, "remember", "We use tabs for indentation in this repository")
    store = git(repo, "rev-parse", "memory/atoms").strip()
    git(repo, "branch", "-f", "memory/atoms", "main")
    (repo / "app.py").write_text("print('hi')\n")
    git(repo, "add", "app.py")
    git(repo, "commit", "-qm", "app")
    assert push(repo, "origin", "main").returncode == 0
    proc = push(repo, "origin", f"{store}:refs/heads/x")
    assert proc.returncode != 0 and "refusing to push memory/atoms" in proc.stderr, proc.stderr
    assert not set(git(repo, "rev-list", store).split()) & set(git(remote, "rev-list", "--all").split())
    _leak_commit(repo)
    assert push(repo, "origin", "main").returncode != 0  # main's memory files are scanned all the same


def _leak_commit(repo: Path, rel: str = "CLAUDE.memory.md", line: str = f"Deploy with {SECRET}") -> str:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(BLOCK.format(line=line))
    git(repo, "add", "-f", rel)
    git(repo, "commit", "-q", "--no-verify", "-m", f"edit {rel}")
    return git(repo, "rev-parse", "HEAD").strip()


def test_a_no_verify_commit_is_refused_at_push(pushing: tuple[Path, Path]) -> None:
    repo, remote = pushing
    before = git(remote, "rev-parse", "main")
    leak = _leak_commit(repo)
    proc = push(repo, "origin", "main")
    assert proc.returncode != 0
    assert f"{leak[:12]} CLAUDE.memory.md:5: github" in proc.stderr
    assert "hint:" in proc.stderr and "rotate" in proc.stderr
    assert git(remote, "rev-parse", "main") == before


@pytest.mark.parametrize("rel", [".memory/adopted.log", "team.memory/adopted.log"])
def test_a_log_the_commit_guard_treats_as_memory_is_scanned_at_push_too(
    pushing: tuple[Path, Path], rel: str
) -> None:
    """The pre-push hook and `scan` select the same adopted.log paths as the pre-commit hook
    (`*.memory/adopted.log`): a path one of them scans is never skipped by the other."""
    repo, remote = pushing
    git(repo, "update-ref", "-d", "refs/heads/memory/atoms")  # the hook's fast path decides
    before = git(remote, "rev-parse", "main")
    _leak_commit(repo, rel=rel)
    assert push(repo, "origin", "main").returncode != 0
    assert git(remote, "rev-parse", "main") == before


def test_every_pushed_commit_is_scanned_not_only_the_tip(pushing: tuple[Path, Path]) -> None:
    repo, remote = pushing
    leak = _leak_commit(repo, "docs/CLAUDE.md", "mail jane.doe@corp.example.com")
    (repo / "docs" / "CLAUDE.md").write_text(BLOCK.format(line="Never push to main"))
    git(repo, "commit", "-qam", "clean it up")  # the tip is clean; the history is not
    proc = push(repo, "origin", "main:refs/heads/feature")
    assert proc.returncode != 0 and f"{leak[:12]} docs/CLAUDE.md:5: email" in proc.stderr
    assert git(remote, "branch", "--list", "feature") == ""


def test_a_cherry_picked_leak_is_refused_at_push(pushing: tuple[Path, Path]) -> None:
    repo, remote = pushing
    git(repo, "checkout", "-q", "-b", "side")
    _leak_commit(repo)
    git(repo, "checkout", "-q", "main")
    # cherry-pick runs no pre-commit hook
    git(repo, "cherry-pick", "side")
    proc = push(repo, "origin", "main")
    assert proc.returncode != 0 and "CLAUDE.memory.md:5: github" in proc.stderr


def test_an_appended_log_line_is_judged_by_the_commit_that_adds_it(
    pushing: tuple[Path, Path],
) -> None:
    repo, remote = pushing
    log = repo / ".memory" / "adopted.log"
    log.parent.mkdir(exist_ok=True)
    ok = '{"at":"2026-11-01T00:00:00Z","atom":{"claim":"Never push to main","id":"atm_00000001"},"op":"adopt"}\n'
    bad = '{"at":"2026-11-02T00:00:00Z","atom":{"claim":"Mail jane.doe@corp.example.com","id":"atm_00000002"},"op":"adopt"}\n'
    log.write_text(ok)
    git(repo, "add", "-f", ".memory/adopted.log")
    git(repo, "commit", "-qm", "one")
    first = git(repo, "rev-parse", "HEAD").strip()
    log.write_text(ok + bad)
    git(repo, "commit", "-q", "--no-verify", "-am", "two")
    second = git(repo, "rev-parse", "HEAD").strip()
    proc = push(repo, "origin", "main")
    assert proc.returncode != 0
    assert f"{second[:12]} .memory/adopted.log:2: email" in proc.stderr
    assert first[:12] not in proc.stderr


def test_a_memory_file_turned_into_a_symlink_is_refused_at_push(pushing: tuple[Path, Path]) -> None:
    repo, remote = pushing
    (repo / "notes.txt").write_text(f"token {SECRET}\n")
    (repo / "CLAUDE.memory.md").symlink_to("notes.txt")
    git(repo, "add", "notes.txt", "CLAUDE.memory.md")
    git(repo, "commit", "-q", "--no-verify", "-m", "link")
    proc = push(repo, "origin", "main")
    assert proc.returncode != 0 and "CLAUDE.memory.md:1: not-a-regular-file" in proc.stderr


def test_a_foreign_pre_push_hook_still_runs_after_ours(repo: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    seen = tmp_path / "seen"
    (hooks / "pre-push").write_text(f"#!/bin/sh\ncat > '{seen}'\necho \"$1\" >> '{seen}'\n")
    (hooks / "pre-push").chmod(0o755)
    gm(repo, "init", "--yes", "--no-claude-hooks")
    assert push(repo, "origin", "main").returncode == 0
    lines = seen.read_text().splitlines()
    assert lines[0].startswith("refs/heads/main ") and lines[-1] == "origin"


BARE_PATH = "/usr/bin:/bin"  # a shell or an IDE outside the venv: no git-memory here


def _hook_python(repo: Path, python: str) -> None:
    hook = repo / ".git" / "hooks" / "pre-push"
    lines = [f"AGENT_MEMORY_PYTHON='{python}'" if ln.startswith("AGENT_MEMORY_PYTHON=") else ln
             for ln in hook.read_text().splitlines()]  # fmt: skip
    hook.write_text("\n".join(lines) + "\n")


def test_without_agent_memory_the_push_is_refused_while_memory_atoms_exists(
    pushing: tuple[Path, Path],
) -> None:
    repo, remote = pushing
    _hook_python(repo, "/nonexistent/agent-memory-venv/bin/python")
    (repo / "app.py").write_text("print('hi')\n")
    git(repo, "add", "app.py")
    git(repo, "commit", "-qm", "app")
    env = {**os.environ, "PATH": BARE_PATH}
    proc = subprocess.run(["git", "-C", str(repo), "push", "origin", "main"],
                          capture_output=True, text=True, env=env)  # fmt: skip
    assert proc.returncode == 1 and "cannot be checked" in proc.stderr and "hint:" in proc.stderr
    # the fast path (no memory/atoms, no memory file pushed) needs no Python at all
    git(repo, "update-ref", "-d", "refs/heads/memory/atoms")
    proc = subprocess.run(["git", "-C", str(repo), "push", "origin", "main"],
                          capture_output=True, text=True, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert git(remote, "rev-parse", "main") == git(repo, "rev-parse", "main")


# --- the hook's work done once per push (scan.pushed_memory_findings) -------------------------


def _log_commit(repo: Path, text: str, block: str = "Never push to main") -> str:
    """A --no-verify commit writing `.memory/adopted.log` as `text` and the block line `block`."""
    (repo / ".memory").mkdir(exist_ok=True)
    (repo / ".memory" / "adopted.log").write_text(text)
    (repo / "CLAUDE.memory.md").write_text(BLOCK.format(line=block))
    git(repo, "add", "-f", ".memory/adopted.log", "CLAUDE.memory.md")
    git(repo, "commit", "-q", "--no-verify", "-m", "memory")
    return git(repo, "rev-parse", "HEAD").strip()


def _entry(n: int, claim: str) -> str:
    return f'{{"at":"2026-11-0{n % 9 + 1}T00:00:00Z","atom":{{"claim":"{claim}","id":"atm_0000000{n}"}},"op":"adopt"}}\n'


def test_a_block_pushed_again_is_refused_in_each_commit_that_carries_it(pushing: tuple[Path, Path]) -> None:
    """A change judged once in a push is reported for every commit that makes it: the leaked
    block, cleaned up, then brought back byte for byte (the same blob) is refused twice."""
    repo, remote = pushing
    before = git(remote, "rev-parse", "main")
    first = _log_commit(repo, _entry(1, "Never push to main"), f"Deploy with {SECRET}")
    _log_commit(repo, _entry(1, "Never push to main") + _entry(2, "Use tabs"))
    again = _log_commit(repo, _entry(1, "Never push to main") + _entry(2, "Use tabs") + _entry(3, "Use pnpm"),
                        f"Deploy with {SECRET}")  # fmt: skip
    proc = push(repo, "origin", "main")
    assert proc.returncode != 0
    refused = [line for line in proc.stderr.splitlines() if ": github" in line]
    assert refused == [f"{first[:12]} CLAUDE.memory.md:5: github-token", f"{again[:12]} CLAUDE.memory.md:5: github-token"]
    assert "2 findings" in proc.stderr
    assert git(remote, "rev-parse", "main") == before


@pytest.mark.parametrize("rewritten", [False, True], ids=["appended", "rewritten"])
def test_a_log_line_added_late_in_a_long_push_is_refused_at_its_commit_and_line(
    pushing: tuple[Path, Path], rewritten: bool
) -> None:
    """Only the commit that adds the bad log line is refused, at that line of the log: whether
    the log grows by appends only (read from its blobs) or a commit also rewrites an older
    line (git's diff)."""
    repo, remote = pushing
    log = ""
    for n in range(1, 5):
        log += _entry(n, f"Rule number {n} holds")
        _log_commit(repo, log)
    if rewritten:
        log = log.replace("Rule number 2 holds", "Rule number 2 still holds")
    leak = _log_commit(repo, log + _entry(5, "Mail jane.doe@corp.example.com"))
    _log_commit(repo, log + _entry(5, "Mail jane.doe@corp.example.com") + _entry(6, "Use pnpm"))
    proc = push(repo, "origin", "main")
    assert proc.returncode != 0
    findings = [line for line in proc.stderr.splitlines() if line[:12] in {c[:12] for c in [leak]}]
    assert findings == [f"{leak[:12]} .memory/adopted.log:5: email"]
    assert "1 finding " in proc.stderr


def _gits_started(repo: Path, *args: str) -> int:
    """How many git processes a `git push ARGS` (its pre-push hook included) starts: GIT_TRACE's
    `built-in:` lines, one for each git command run."""
    trace = repo.parent / "trace.txt"
    trace.unlink(missing_ok=True)
    env = dict(os.environ, GIT_TRACE=str(trace))
    proc = subprocess.run(["git", "-C", str(repo), "push", *args], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    return sum("trace: built-in: git" in line for line in trace.read_text().splitlines())


def test_the_hook_starts_as_many_gits_for_a_long_push_as_for_a_short_one(pushing: tuple[Path, Path]) -> None:
    """Every pushed commit that touches a memory file is checked, by a fixed number of git
    processes for the whole push: a fresh clone pushing a long history paid a `rev-parse`, a
    `diff-tree`, a `cat-file` or two and a `diff` per commit."""
    repo, _ = pushing
    log = ""
    for n in range(1, 9):
        log += _entry(n, f"Rule number {n} holds")
        _log_commit(repo, log, f"Rule {n} of the block")
    short = _gits_started(repo, "origin", "HEAD~6:refs/heads/short")  # 2 commits
    long = _gits_started(repo, "origin", "HEAD:refs/heads/long")  # 8 commits, 6 of them new
    assert short == long


# --- what the repository's own git config cannot change (an adversarial review of 4577f42) -----

# Settings that change what `git log` writes, set in the repository as a person might.
_LOG_CONFIG = [("log.showSignature", "true"), ("log.decorate", "full"), ("format.pretty", "fuller"),
               ("color.ui", "always"), ("diff.renames", "copies"), ("diff.noprefix", "true"),
               ("core.quotepath", "true"), ("log.showRoot", "false"), ("format.notes", "true")]


@pytest.mark.parametrize("encoding", ["UTF-16BE", "UTF-32LE"])
def test_a_log_output_encoding_does_not_hide_the_pushed_commits(pushing: tuple[Path, Path], encoding: str) -> None:
    """i18n.logOutputEncoding re-encodes all of `git log --format`'s output: in UTF-16BE each
    commit's line came out with a NUL byte after every character, the hook's listing read no
    commit at all and the push went through with the leak."""
    repo, remote = pushing
    for key, value in [*_LOG_CONFIG, ("i18n.logOutputEncoding", encoding)]:
        git(repo, "config", key, value)
    before = git(remote, "rev-parse", "main")
    leak = _leak_commit(repo)
    proc = push(repo, "origin", "main")
    assert proc.returncode != 0
    assert f"{leak[:12]} CLAUDE.memory.md:5: github" in proc.stderr
    assert git(remote, "rev-parse", "main") == before


def test_a_memory_file_turned_into_a_submodule_git_is_told_to_ignore_is_refused_at_push(
    pushing: tuple[Path, Path],
) -> None:
    """`ignore = all` in .gitmodules (a file of the repository, which a clone brings) hides a
    submodule's changes from git's diffs and logs: the gitlink in CLAUDE.memory.md's place
    was never listed, and pushed."""
    repo, remote = pushing
    before = git(remote, "rev-parse", "main")
    (repo / ".gitmodules").write_text('[submodule "m"]\n\tpath = CLAUDE.memory.md\n\turl = ./m\n\tignore = all\n')
    git(repo, "add", ".gitmodules")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{before.strip()},CLAUDE.memory.md")
    git(repo, "commit", "-q", "--no-verify", "-m", "a submodule")
    proc = push(repo, "origin", "main")
    assert proc.returncode != 0 and "CLAUDE.memory.md:1: not-a-regular-file (submodule)" in proc.stderr
    assert git(remote, "rev-parse", "main") == before


def test_a_submodule_git_is_told_to_ignore_is_refused_in_a_memory_files_place_at_commit(
    pushing: tuple[Path, Path],
) -> None:
    """The pre-commit hook's staged listing (`git diff --cached`) hid it the same way."""
    repo, _ = pushing
    head = git(repo, "rev-parse", "HEAD").strip()
    (repo / ".gitmodules").write_text('[submodule "m"]\n\tpath = CLAUDE.memory.md\n\turl = ./m\n\tignore = all\n')
    git(repo, "add", ".gitmodules")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{head},CLAUDE.memory.md")
    proc = subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", "a submodule"], capture_output=True, text=True)
    assert proc.returncode != 0 and "CLAUDE.memory.md:1: not-a-regular-file (submodule)" in proc.stderr, proc.stderr
    assert git(repo, "rev-parse", "HEAD").strip() == head


@pytest.mark.parametrize("how", ["lightweight", "annotated", "fast-path"])
def test_a_tree_pushed_under_a_tag_has_its_memory_files_judged(pushing: tuple[Path, Path], how: str) -> None:
    """A ref may name a tree: `git push origin <tree>:refs/tags/t` sends its CLAUDE.memory.md
    to the remote as surely as a commit does. Only commits were listed, so it went unjudged
    (and the hook's shell listing, without memory/atoms, found no commit and let it through)."""
    repo, remote = pushing
    if how == "fast-path":
        git(repo, "update-ref", "-d", "refs/heads/memory/atoms")
    leak = _leak_commit(repo)
    tree = git(repo, "rev-parse", f"{leak}^{{tree}}").strip()
    git(repo, "reset", "-q", "--hard", "HEAD~1")  # no commit of the leak is pushed
    if how == "annotated":
        git(repo, "tag", "-a", "-m", "a tree", "t", tree)
        pushed = git(repo, "rev-parse", "t").strip()  # the tag: reported under the name pushed
        proc = push(repo, "origin", "refs/tags/t")
    else:
        pushed = tree
        proc = push(repo, "origin", f"{tree}:refs/tags/t")
    assert proc.returncode != 0
    assert f"{pushed[:12]} CLAUDE.memory.md:5: github" in proc.stderr
    assert git(remote, "tag", "--list") == ""


def test_a_memory_file_in_a_folder_whose_name_is_not_utf8_is_judged_not_an_internal_error(
    pushing: tuple[Path, Path],
) -> None:
    """A path is bytes: git log's listing was decoded strictly, and a pushed commit touching
    `<byte 0xff>/CLAUDE.md` refused every push with a UnicodeDecodeError, clean or not."""
    repo, remote = pushing
    folder = "\udcffdocs"  # the byte 0xff, as Python names it (surrogateescape)
    _commit_block(repo, f"{folder}/CLAUDE.md", "Never push to main")
    proc = push(repo, "origin", "main")
    assert proc.returncode == 0, proc.stderr
    leak = _commit_block(repo, f"{folder}/CLAUDE.md", f"Deploy with {SECRET}")
    proc = push(repo, "origin", "main")
    assert proc.returncode != 0 and "Error" not in proc.stderr
    assert f"{leak[:12]} \\udcffdocs/CLAUDE.md:5: github" in proc.stderr
    assert git(remote, "rev-parse", "main") != leak


def _commit_block(repo: Path, rel: str, line: str) -> str:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(BLOCK.format(line=line))
    git(repo, "add", "-f", "--", str(path))
    git(repo, "commit", "-q", "--no-verify", "-m", "edit")
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.mark.parametrize("replaced", ["blob", "commit", "commit-fast-path"])
def test_a_replacement_object_does_not_hide_what_is_pushed(pushing: tuple[Path, Path], replaced: str) -> None:
    """`git replace` makes git read another object in one's place, but a push sends the object
    itself: the hook judged the clean stand-in (a blob's, or a whole commit's, whose history
    touched no memory file) and the leak went out."""
    repo, remote = pushing
    before = git(remote, "rev-parse", "main").strip()
    if replaced == "commit-fast-path":
        git(repo, "update-ref", "-d", "refs/heads/memory/atoms")  # the hook's shell listing decides
    leak = _leak_commit(repo)
    if replaced == "blob":
        (repo / "clean.txt").write_text(BLOCK.format(line="Never push to main"))
        stand_in = git(repo, "hash-object", "-w", "clean.txt").strip()
        git(repo, "replace", git(repo, "rev-parse", f"{leak}:CLAUDE.memory.md").strip(), stand_in)
    else:
        git(repo, "reset", "-q", "--hard", before)
        (repo / "app.py").write_text("print('hi')\n")
        git(repo, "add", "app.py")
        git(repo, "commit", "-qm", "app")
        git(repo, "replace", leak, "HEAD")
        git(repo, "reset", "-q", "--hard", leak)
    proc = push(repo, "origin", "main")
    assert proc.returncode != 0
    assert f"{leak[:12]} CLAUDE.memory.md:5: github" in proc.stderr
    assert git(remote, "rev-parse", "main").strip() == before


def test_a_memory_file_in_a_folder_whose_name_is_not_utf8_is_judged_at_commit(pushing: tuple[Path, Path]) -> None:
    """The pre-commit hook lists the staged memory files from `git diff --cached --raw -z`, a
    listing of bytes: decoded strictly, a memory file under `<byte 0xff>/` ended every commit
    of it in an internal error (refused, clean or not, with no finding to act on)."""
    repo, _remote = pushing
    path = repo / "\udcffdocs" / "CLAUDE.md"
    path.parent.mkdir(parents=True)
    path.write_text(BLOCK.format(line="Never push to main"))
    git(repo, "add", "-f", "--", str(path))
    clean = subprocess.run(["git", "commit", "-q", "-m", "docs"], cwd=repo, capture_output=True, text=True,
                           errors="replace", check=False)  # fmt: skip
    assert clean.returncode == 0, clean.stderr
    path.write_text(BLOCK.format(line=f"Deploy with {SECRET}"))
    git(repo, "add", "-f", "--", str(path))
    leak = subprocess.run(["git", "commit", "-q", "-m", "leak"], cwd=repo, capture_output=True, text=True,
                          errors="replace", check=False)  # fmt: skip
    assert leak.returncode != 0 and "Error" not in leak.stderr, leak.stderr
    assert "CLAUDE.md:5: github" in leak.stderr


@pytest.mark.parametrize("leak", ["checkout-path", "secret"])
def test_the_push_hint_says_to_restate_a_path_and_to_rotate_a_secret(pushing: tuple[Path, Path], leak: str) -> None:
    """A path of this machine is no secret: the hint said to rotate one, which nobody can do
    for `/srv/app/scripts/check.sh`; it says to write the path relative. A secret still says
    rotate."""
    repo, remote = pushing
    before = git(remote, "rev-parse", "main").strip()
    line = f"Run {repo.resolve()}/scripts/check.sh before pushing" if leak == "checkout-path" else f"Deploy with {SECRET}"
    _commit_block(repo, "CLAUDE.memory.md", line)
    proc = push(repo, "origin", "main")
    assert proc.returncode != 0, proc.stderr
    hint = [text for text in proc.stderr.splitlines() if text.startswith("hint:")][-1]
    if leak == "checkout-path":
        assert "worktree-path" in proc.stderr and "relative to the repository" in hint and "rotated" not in hint
    else:
        assert "rotated" in hint and "relative to the repository" not in hint
    assert git(remote, "rev-parse", "main").strip() == before
