"""Adopt under git states a real user has: the memory files left out of a sparse checkout, or
marked assume-unchanged over edits of the person's own. `git status` says nothing about such
files, so adopt must not take its silence as "clean": it refuses (exit 3, one line naming the
files, a `hint:` with the git command that undoes the state) before anything is written, and
the command the hint names lets the next adopt through with every held item kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git, staged_copy
from golden import Golden
from sessions import gm, gm_json
from test_adopt import (
    Staged,
    choose,
    finish,
    held,
    next_item,
    spawn_adopt,
    stage_claims,
    waiting,
)

CLAIMS = {"a": "Never push directly to main; always open a pull request.",
          "b": "Always run the tests with pytest -x before committing."}  # fmt: skip


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


@pytest.fixture
def staged(staged_golden: Golden[dict[str, str]], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Staged:
    """conftest.staged with this module's CLAIMS: built once per module, copied for each test."""
    return staged_copy(staged_golden, isolated_env, monkeypatch, CLAIMS)


def _log_at_head(project: Path) -> list[str]:
    return [json.loads(line)["atom"]["id"] for line in git(project, "show", "HEAD:.memory/adopted.log").splitlines()]


def _refused(proc_err: str, code: int, *words: str) -> list[str]:
    assert code == 3, proc_err
    lines = proc_err.strip().splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint:"), proc_err
    assert all(w in proc_err for w in words), proc_err
    return lines


def _one_adopted_and_a_src_folder(project: Path) -> dict[str, str]:
    """CLAIMS staged, the first adopted, and a `src/` folder committed for a sparse checkout
    to keep (the memory files then left out)."""
    ids = stage_claims(project, CLAIMS)
    gm(project, "adopt", "--yes", ids["a"])
    (project / "src").mkdir()
    (project / "src" / "x.py").write_text("x = 1\n")
    git(project, "add", "src")
    git(project, "commit", "-qm", "src")
    return ids


@pytest.mark.parametrize("cone", [False, True])
def test_adopt_refuses_in_a_sparse_checkout_without_the_memory_files(project: Path, cone: bool) -> None:
    ids = _one_adopted_and_a_src_folder(project)
    if cone:  # cone mode keeps the top-level files: only .memory/ is left out
        git(project, "sparse-checkout", "set", "--cone", "src")
    else:
        git(project, "sparse-checkout", "set", "--no-cone", "/src/")
        assert not (project / "CLAUDE.memory.md").exists()
    assert not (project / ".memory").exists()
    head = git(project, "rev-parse", "HEAD")
    for args in (["--yes", ids["b"]], ["--all"]):
        proc = gm(project, "adopt", *args, check=False)
        lines = _refused(proc.stderr, proc.returncode, ".memory/adopted.log (left out of this sparse checkout)", "sparse-checkout add")
        assert git(project, "rev-parse", "HEAD") == head
    assert _log_at_head(project) == [ids["a"]]
    # The hint's own command, then adopt: both items held, nothing lost.
    command = lines[1].split("`")[1]
    git(project, *command.split()[1:])
    gm(project, "adopt", "--yes", ids["b"])
    assert sorted(_log_at_head(project)) == sorted(ids.values())
    assert sorted(held(project)) == sorted(ids.values())
    assert waiting(project) == []
    assert gm(project, "validate", check=False).returncode == 0


def test_adopt_and_forget_refuse_over_assume_unchanged_edits(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["a"])
    block = project / "CLAUDE.memory.md"
    mine = block.read_text() + "\nmy own note, not ready to commit\n"
    block.write_text(mine)
    git(project, "update-index", "--assume-unchanged", "CLAUDE.memory.md")
    head = git(project, "rev-parse", "HEAD")
    for args in (["adopt", "--yes", ids["b"]], ["forget", ids["a"]]):
        proc = gm(project, *args, check=False)
        lines = _refused(proc.stderr, proc.returncode, "CLAUDE.memory.md (assume-unchanged)",
                         "--no-assume-unchanged")  # fmt: skip
        assert git(project, "rev-parse", "HEAD") == head
        assert block.read_text() == mine
    assert "my own note" not in git(project, "show", "HEAD:CLAUDE.memory.md")
    # Undone as the hint says, the edit shows and adopt refuses as for any edit of the person's.
    git(project, *lines[1].split("`")[1].split()[1:])
    proc = gm(project, "adopt", "--yes", ids["b"], check=False)
    assert proc.returncode == 3 and "uncommitted changes to memory files: CLAUDE.memory.md" in proc.stderr
    assert block.read_text() == mine


def test_the_stash_command_for_two_edited_memory_files_runs_as_given(project: Path) -> None:
    """Both memory files edited: the hint's `git stash push -- .memory/adopted.log,
    CLAUDE.memory.md` took `.memory/adopted.log,` for a pathspec, which matches nothing, and
    git refused it. The paths are apart now; the command stashes both and adopt goes on."""
    import re
    import subprocess

    ids = stage_claims(project, CLAIMS)
    gm(project, "adopt", "--yes", ids["a"])
    for rel in ("CLAUDE.memory.md", ".memory/adopted.log"):
        (project / rel).write_text((project / rel).read_text() + "\nmine\n")
    proc = gm(project, "adopt", "--yes", ids["b"], check=False)
    assert proc.returncode == 3
    assert "uncommitted changes to memory files: .memory/adopted.log, CLAUDE.memory.md" in proc.stderr
    found = re.search(r"\((git stash push -- [^)]*)\)", proc.stderr)
    assert found and found.group(1) == "git stash push -- .memory/adopted.log CLAUDE.memory.md", proc.stderr
    subprocess.run(found.group(1), shell=True, cwd=project, check=True, capture_output=True)
    gm(project, "adopt", "--yes", ids["b"])
    assert sorted(held(project)) == sorted(ids.values())


def test_validate_and_status_name_a_sparse_checkout_without_the_memory_files(project: Path) -> None:
    _one_adopted_and_a_src_folder(project)
    git(project, "sparse-checkout", "set", "--cone", "src")
    block = (project / "CLAUDE.memory.md").read_text()
    for args in (["validate"], ["validate", "--fix"]):
        proc = gm(project, *args, check=False)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        errors = [line for line in (proc.stdout + proc.stderr).splitlines() if line.startswith("error:")]
        # one finding, the real one — not "edited by hand?" nor "an adopt killed before its commit"
        assert len(errors) == 1 and "left out of this sparse checkout" in errors[0], errors
        assert "git sparse-checkout add .memory" in errors[0]
        assert (project / "CLAUDE.memory.md").read_text() == block and not (project / ".memory").exists()
        assert git(project, "status", "--porcelain") == ""
    text = gm(project, "status").stdout
    assert "left out of this sparse checkout" in text and "edited by hand" not in text
    assert gm_json(project, "status")["L2"]["sparse_left_out"] == [".memory/adopted.log"]
    git(project, "sparse-checkout", "add", ".memory")
    assert gm(project, "validate", check=False).returncode == 0


def _sign_with_a_missing_key(project: Path) -> None:
    git(project, "config", "commit.gpgsign", "true")
    git(project, "config", "user.signingkey", "0000000000000000DEADBEEF00000000DEADBEEF")
    git(project, "config", "gpg.program", str(project / "no-such-gpg"))


def _sign_with_a_program_that_fails(project: Path, tmp_path: Path) -> None:
    """A gpg.program that runs and fails, as gpg without the key does (no real key needed)."""
    program = tmp_path / "failing-gpg"
    program.write_text("#!/bin/sh\necho 'gpg: signing failed: No secret key' >&2\nexit 2\n")
    program.chmod(0o755)
    git(project, "config", "commit.gpgsign", "true")
    git(project, "config", "gpg.program", str(program))


def _sign_with_an_ssh_key_that_is_not_there(project: Path, tmp_path: Path) -> None:
    """gpg.format=ssh: git's own error names the key, not signing ("Couldn't load public key")."""
    git(project, "config", "commit.gpgsign", "true")
    git(project, "config", "gpg.format", "ssh")
    git(project, "config", "user.signingkey", str(tmp_path / "no-such-key.pub"))


SIGNERS = {"missing gpg": lambda project, _tmp: _sign_with_a_missing_key(project),
           "failing gpg": _sign_with_a_program_that_fails, "missing ssh key": _sign_with_an_ssh_key_that_is_not_there}


@pytest.mark.parametrize("signer", sorted(SIGNERS))
@pytest.mark.parametrize("args", [["--all"], ["--yes", "a"]])
def test_adopt_with_a_signing_key_that_does_not_sign_says_so(project: Path, tmp_path: Path, args: list[str],
                                                              signer: str) -> None:  # fmt: skip
    """commit.gpgsign=true and no working key: git makes no commit at all. Each item used to be
    'refused' with git's error and a hint to look at its evidence (inspect --why); now the
    batch stops at the first, exit 3, one line naming signing and a hint about git's setup."""
    ids = stage_claims(project, CLAIMS)
    SIGNERS[signer](project, tmp_path)
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", *[ids.get(a, a) for a in args], check=False)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 2 and "could not sign the commit" in err[0] and err[1].startswith("hint:"), proc.stderr
    assert "inspect --why" not in proc.stdout + proc.stderr and "signingkey" in err[1]
    assert git(project, "rev-parse", "HEAD") == head and git(project, "status", "--porcelain") == ""
    assert sorted(waiting(project)) == sorted(ids.values())
    git(project, "config", "commit.gpgsign", "false")
    gm(project, "adopt", "--all")
    assert sorted(held(project)) == sorted(ids.values())


def test_interactive_adopt_with_a_signing_key_that_does_not_sign_stops_and_says_so(staged: Staged) -> None:
    project, ids = staged
    _sign_with_a_missing_key(project)
    head = git(project, "rev-parse", "HEAD")
    child = spawn_adopt(project)
    next_item(child)
    choose(child, "adopt")
    child.expect("could not sign the commit")
    child.expect("hint:.*signingkey")
    assert finish(child) == 3, child.logfile_read.text()
    assert git(project, "rev-parse", "HEAD") == head and git(project, "status", "--porcelain") == ""
    assert sorted(waiting(project)) == sorted(ids.values())


def test_adopt_all_refused_by_the_persons_own_hook_says_to_fix_the_hook(staged: Staged, tmp_path: Path) -> None:
    """A pre-commit hook of the person's own (in core.hooksPath, our guard chained in by init)
    that fails: every item was refused with the hook's line and the only hint sent the person
    to the items' evidence (`inspect --why ID`). The hint now says to fix what the hook
    reported; nothing is committed and every item stays waiting."""
    project, ids = staged
    hooks = tmp_path / "my-hooks"
    hooks.mkdir()
    (hooks / "pre-commit").write_text("#!/bin/sh\necho 'lint: trailing whitespace' >&2\nexit 1\n")
    (hooks / "pre-commit").chmod(0o755)
    git(project, "config", "core.hooksPath", str(hooks))
    gm(project, "init", "--yes")
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", "--all", check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.count("lint: trailing whitespace") == len(ids), proc.stdout
    assert proc.stderr.strip().splitlines() == [
        "hint: nothing was adopted for it (it stays waiting on memory/review); fix what the hook reported "
        "and run git memory adopt again"], proc.stderr  # fmt: skip
    assert git(project, "rev-parse", "HEAD") == head and git(project, "status", "--porcelain") == ""
    assert sorted(waiting(project)) == sorted(ids.values())
    (hooks / "pre-commit.chained-by-agent-memory").write_text("#!/bin/sh\nexit 0\n")
    gm(project, "adopt", "--all")
    assert sorted(held(project)) == sorted(ids.values())


# a failing hook's words that git's own setup errors also use: signing, and the identity
# (git checks that before any hook runs, so a hook saying it is only a hook refusing)
HOOK_WORDS = {
    "signing": "echo 'error: gpg failed to sign the data' >&2\necho 'release check: gpg failed, no key' >&2\n",
    "identity": "echo '*** Please tell me who you are.' >&2\necho 'fatal: unable to auto-detect email address' >&2\n"
                "echo 'release check: gpg failed to sign the data' >&2\n",
}


@pytest.mark.parametrize("words", sorted(HOOK_WORDS))
@pytest.mark.parametrize("gpgsign", ["false", "true"])
def test_a_hook_that_prints_gpg_failed_to_sign_is_a_hook_refusal_not_a_signing_setup(
        project: Path, tmp_path: Path, gpgsign: str, words: str) -> None:  # fmt: skip
    """A pre-commit hook of the person's own that fails and prints "gpg failed to sign" (it
    checks signatures of its own, or relays another tool's words): git never reached signing.
    The whole `git commit` output was searched for those words, so adopt stopped the batch with
    exit 3 (CommitSetupError, "could not sign the commit"); only git's own last line ("fatal:
    failed to write commit object", under commit.gpgsign) says signing failed, so each item is
    refused by the hook (exit 1, the hook's hint) and the batch goes on item by item."""
    ids = stage_claims(project, CLAIMS)
    hooks = tmp_path / "my-hooks"
    hooks.mkdir()
    (hooks / "pre-commit").write_text(f"#!/bin/sh\n{HOOK_WORDS[words]}exit 1\n")
    (hooks / "pre-commit").chmod(0o755)
    git(project, "config", "core.hooksPath", str(hooks))
    gm(project, "init", "--yes")
    git(project, "config", "commit.gpgsign", gpgsign)
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", "--all", check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "could not sign" not in proc.stdout + proc.stderr and "no identity" not in proc.stdout + proc.stderr
    assert proc.stdout.count("gpg failed to sign the data") == len(ids), proc.stdout
    assert proc.stderr.strip().splitlines() == [
        "hint: nothing was adopted for it (it stays waiting on memory/review); fix what the hook reported "
        "and run git memory adopt again"], proc.stderr  # fmt: skip
    assert git(project, "rev-parse", "HEAD") == head and git(project, "status", "--porcelain") == ""
    assert sorted(waiting(project)) == sorted(ids.values())


@pytest.mark.parametrize("mark", ["--skip-worktree", "--assume-unchanged"])
def test_adopt_goes_on_over_a_claude_md_the_person_keeps_local_edits_in(staged: Staged, mark: str) -> None:
    """CLAUDE.md marked skip-worktree or assume-unchanged to keep a person's own edits out of
    git (no sparse checkout): adopt commits only CLAUDE.memory.md and adopted.log, so those
    hidden edits are neither read nor committed by it. It went on before the hidden-file check;
    it was then refused as 'left out of this sparse checkout' with a `git sparse-checkout add`
    that git refuses outside a sparse checkout."""
    project, ids = staged
    claude = project / "CLAUDE.md"
    mine = claude.read_text() + "\nmy own local instructions\n"
    claude.write_text(mine)
    git(project, "update-index", mark, "CLAUDE.md")
    gm(project, "adopt", "--yes", ids["a"])
    gm(project, "forget", ids["a"])
    assert claude.read_text() == mine
    assert "my own local instructions" not in git(project, "show", "HEAD:CLAUDE.md")


def test_a_block_marked_skip_worktree_outside_a_sparse_checkout_is_named_as_such(staged: Staged) -> None:
    """CLAUDE.memory.md marked skip-worktree by hand (no sparse checkout) over an edit of the
    person's: adopt refuses, as it must, but called it 'left out of this sparse checkout' with
    a `git sparse-checkout add` that git refuses outside one ("no sparse-checkout to add to").
    It now names the mark and the hint undoes it; after that, the edit shows as any edit."""
    project, ids = staged
    gm(project, "adopt", "--yes", ids["a"])
    block = project / "CLAUDE.memory.md"
    mine = block.read_text() + "\nmy own note\n"
    block.write_text(mine)
    git(project, "update-index", "--skip-worktree", "CLAUDE.memory.md")
    proc = gm(project, "adopt", "--yes", ids["b"], check=False)
    lines = _refused(proc.stderr, proc.returncode, "CLAUDE.memory.md (skip-worktree)", "--no-skip-worktree")
    assert "sparse" not in proc.stderr and block.read_text() == mine
    status = gm(project, "status").stdout  # status names the mark too, with the same way out
    assert "marked skip-worktree" in status and "sparse" not in status
    assert "git update-index --no-skip-worktree -- CLAUDE.memory.md" in status
    assert gm_json(project, "status")["L2"]["skip_worktree"] == ["CLAUDE.memory.md"]
    git(project, *lines[1].split("`")[1].split()[1:])
    assert gm_json(project, "status")["L2"]["skip_worktree"] == []
    proc = gm(project, "adopt", "--yes", ids["b"], check=False)
    assert proc.returncode == 3 and "uncommitted changes to memory files: CLAUDE.memory.md" in proc.stderr
    assert block.read_text() == mine


def test_adopt_without_a_git_identity_stops_and_says_so(project: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """No identity at all (none configured, user.useConfigOnly): git stops before any hook
    with its own `fatal:` line; adopt stops the batch with exit 3 and how to set one."""
    ids = stage_claims(project, CLAIMS)
    for key in ("user.name", "user.email"):
        git(project, "config", "--unset-all", key, check=False)
    git(project, "config", "user.useConfigOnly", "true")
    empty = tmp_path / "no-identity"
    empty.mkdir()
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty / "gitconfig"))
    for name in ("EMAIL", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(name, raising=False)
    head = git(project, "rev-parse", "HEAD")
    proc = gm(project, "adopt", "--all", check=False)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    err = proc.stderr.strip().splitlines()
    assert err[0].endswith("git has no identity to commit with") and "git config --global user.email" in err[1], err
    assert git(project, "rev-parse", "HEAD") == head and sorted(waiting(project)) == sorted(ids.values())
