"""The hook path reads `.git` by hand (gitio/refs.py): checked here against `git` itself on
loose refs, packed refs, symbolic refs, a linked worktree and, where the installed git supports
it, a reftable repository (which the hand-rolled reader must never misread)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import git

from agent_memory.gitio.refs import locate_git_dirs, read_ref


def _rev(repo: Path, ref: str) -> str:
    return git(repo, "rev-parse", ref).strip()


def test_loose_then_packed_refs_read_as_git_reads_them(repo: Path) -> None:
    git(repo, "branch", "feature")
    common = str(repo / ".git")
    assert read_ref(common, "refs/heads/feature") == _rev(repo, "feature")
    git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "feature").exists()
    assert read_ref(common, "refs/heads/feature") == _rev(repo, "feature")
    # a loose ref written after packing wins over its packed copy, as in git
    (repo / "second.txt").write_text("2\n")
    git(repo, "add", "second.txt")
    git(repo, "commit", "-q", "-m", "second")
    git(repo, "update-ref", "refs/heads/feature", "HEAD")
    assert read_ref(common, "refs/heads/feature") == _rev(repo, "feature")
    assert read_ref(common, "HEAD") == _rev(repo, "HEAD")  # symbolic: ref: refs/heads/main
    assert read_ref(common, "refs/heads/absent") is None


def test_a_linked_worktree_shares_the_common_dir(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", str(other), "-b", "side")
    found = locate_git_dirs(other)
    assert found is not None
    git_dir, common, work = found
    assert Path(common).resolve() == (repo / ".git").resolve()
    assert Path(git_dir).resolve() == Path(git(other, "rev-parse", "--absolute-git-dir").strip()).resolve()
    assert work is not None and Path(work).resolve() == other.resolve()
    assert read_ref(common, "refs/heads/side") == _rev(other, "side")
    (other / "deep" / "er").mkdir(parents=True)
    assert locate_git_dirs(other / "deep" / "er") == locate_git_dirs(other)


def test_outside_any_repository_there_is_nothing(tmp_path: Path) -> None:
    lone = tmp_path / "lone"
    lone.mkdir()
    found = locate_git_dirs(lone)
    # tmp_path itself is not inside a repository (the tests' HOME is under it, with no .git)
    assert found is None or not Path(found[1]).resolve().is_relative_to(lone.resolve())


def _reftable_supported(tmp_path: Path) -> bool:
    probe = subprocess.run(["git", "init", "-q", "--ref-format=reftable", str(tmp_path / "probe")],
                           capture_output=True, text=True, check=False)  # fmt: skip
    return probe.returncode == 0


def test_a_reftable_repository_is_never_misread(tmp_path: Path) -> None:
    if not _reftable_supported(tmp_path):
        pytest.skip("the installed git has no reftable backend (git init --ref-format=reftable)")
    repo = tmp_path / "rt"
    git(tmp_path, "init", "-q", "-b", "main", "--ref-format=reftable", str(repo))
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "a")
    value = read_ref(str(repo / ".git"), "refs/heads/main")
    # the reader cannot parse reftable: it must say "unknown" (the hook then treats the
    # index as stale and falls back), never return some other object id
    assert value in (None, _rev(repo, "main"))
