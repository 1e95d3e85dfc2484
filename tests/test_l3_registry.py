"""The global repo's registry under stress, through the real CLI, real repositories and real
git: projects moved after registration, entries synced from another machine, names that
collide, entries edited by hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json


def home() -> Path:
    return Path(os.environ["AGENT_MEMORY_HOME"])


def registry() -> list[dict[str, str]]:
    return json.loads((home() / "projects.json").read_text("utf-8"))["projects"]


def new_repo(path: Path, text: str) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text(text)
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path


def test_a_project_moved_after_registration_keeps_its_name(tmp_path: Path) -> None:
    """The old path is gone, so nothing there holds the name against the project: re-running
    init in the new folder used to rename the project (`app-6fb022`, "'app' is taken by another
    repository"), rewriting memory.project, so its committed atoms (project `app`) no longer
    counted for it at the L3 gate and its new atoms got other ids."""
    app = new_repo(tmp_path / "src" / "app", "# app\n")
    gm(app, "init", "--yes")
    assert git(app, "config", "memory.project").strip() == "app"
    moved = tmp_path / "src" / "app-moved"
    app.rename(moved)
    out = gm(moved, "init").stdout
    assert git(moved, "config", "memory.project").strip() == "app"
    assert "taken" not in out
    assert {e["name"] for e in registry()} == {"app"}


def test_a_clone_on_a_second_machine_keeps_the_name_the_other_machine_registered(tmp_path: Path) -> None:
    """The registry is synced between machines: an entry whose path does not exist here (the
    other machine's checkout) cannot hold the name against this machine's clone of it."""
    first = new_repo(tmp_path / "a" / "app", "# app\n")
    gm(first, "init", "--yes")
    entries = registry()
    # as a pull from the other machine leaves it: the same project at a path absent here
    entries[0]["path"] = str(tmp_path / "other-machine" / "app")
    (home() / "projects.json").write_text(
        '{"projects": [\n' + json.dumps(entries[0]) + "\n]}\n", "utf-8"
    )
    git(home(), "commit", "-qam", "sync")
    clone = tmp_path / "b" / "app"
    git(tmp_path, "clone", "-q", str(first), str(clone))
    git(clone, "remote", "remove", "origin")  # named by its folder alone
    gm(clone, "init")
    assert git(clone, "config", "memory.project").strip() == "app"


def test_an_unrelated_repository_present_here_still_gets_a_suffix(tmp_path: Path) -> None:
    one = new_repo(tmp_path / "x" / "app", "# one\n")
    gm(one, "init", "--yes")
    two = new_repo(tmp_path / "y" / "app", "# two\n")
    name = gm_json(two, "init")["project"]
    assert name.startswith("app-") and name != "app"


def test_a_registry_entry_with_an_empty_or_relative_path_is_skipped_not_read_from_the_cwd(
    tmp_path: Path,
) -> None:
    """`""` and `app` are not where any project is: they used to be looked up from the folder
    the verb ran in, so `promote --global` read the repository you stood in a second time,
    under the entry's name (a second "project" for the ≥ 2 projects gate)."""
    app = new_repo(tmp_path / "work" / "app", "# app\n")
    gm(app, "init", "--yes")
    (app / "sub").mkdir()
    new_repo(app / "sub" / "inner", "# inner\n")
    entries = registry() + [{"name": "ghost", "path": ""}, {"name": "rel", "path": "sub/inner"}]
    body = "".join(("" if i == 0 else ",") + json.dumps(e) + "\n" for i, e in enumerate(entries))
    (home() / "projects.json").write_text('{"projects": [\n' + body + "]}\n", "utf-8")
    skipped = {s["project"]: s for s in gm_json(app, "promote", "--global")["skipped_projects"]}
    assert set(skipped) == {"ghost", "rel"}
    assert all("not an absolute path" in s["reason"] for s in skipped.values())


def _init_at_once(paths: list[Path]) -> list[subprocess.CompletedProcess[str]]:
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    procs = [
        subprocess.Popen(["git", "memory", "init"], cwd=str(p), env=env, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for p in paths
    ]
    return [subprocess.CompletedProcess(p.args, p.wait(), *p.communicate()) for p in procs]


@pytest.mark.parametrize("global_repo_exists", [True, False])
def test_projects_initialised_at_the_same_time_are_all_set_up_and_registered(
    tmp_path: Path, global_repo_exists: bool
) -> None:
    """Each init read projects.json, added its line, wrote it and committed it with no lock:
    the others' `git commit` met the global repo's index.lock and init stopped half-way (exit
    3: registered in the work tree only, no memory/atoms, no git hooks), or an entry was lost."""
    if global_repo_exists:
        gm(new_repo(tmp_path / "first", "# first\n"), "init")
    paths = [new_repo(tmp_path / f"p{i}", f"# p{i}\n") for i in range(5)]
    results = _init_at_once(paths)
    assert [r.returncode for r in results] == [0] * 5, [r.stderr for r in results]
    names = {e["name"] for e in registry()}
    assert {f"p{i}" for i in range(5)} <= names
    assert git(home(), "status", "--porcelain").strip() == ""
    for p in paths:
        assert git(p, "rev-parse", "--verify", "-q", "refs/heads/memory/atoms").strip()


def test_a_relative_agent_memory_home_is_one_global_repo_not_one_inside_each_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AGENT_MEMORY_HOME=mem was taken from the folder each command ran in: every project got a
    global repo of its own nested in its work tree (an untracked `mem/` to commit by mistake),
    each registry held one project so L3 could never fire, and the user's CLAUDE.md imported
    the first project's. A relative value is now taken from the home
    directory, like `~/mem`."""
    monkeypatch.setenv("AGENT_MEMORY_HOME", "mem")
    one = new_repo(tmp_path / "one", "# one\n")
    two = new_repo(tmp_path / "two", "# two\n")
    gm(one, "init")
    gm(two, "init")
    assert not (one / "mem").exists() and not (two / "mem").exists()
    shared = Path(os.environ["HOME"]) / "mem"
    names = {e["name"] for e in json.loads((shared / "projects.json").read_text("utf-8"))["projects"]}
    assert names == {"one", "two"}


def test_a_global_repo_behind_a_link_to_an_empty_folder_is_made_there_and_the_link_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tmp_path / "synced" / "persona"
    real.mkdir(parents=True)
    link = tmp_path / "persona-link"
    link.symlink_to(real)
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(link))
    gm(new_repo(tmp_path / "app", "# app\n"), "init")
    assert link.is_symlink() and (real / ".git").is_dir() and (real / "projects.json").is_file()


def test_a_global_repo_behind_a_link_to_nothing_is_refused_with_its_target_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link whose target is gone (a drive not mounted, a folder moved) ended init in an
    internal error ("File exists"); now one line names the missing target, nothing is written,
    and once the folder exists the same init goes through."""
    target = tmp_path / "unmounted" / "persona"
    link = tmp_path / "persona-link"
    link.symlink_to(target)
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(link))
    app = new_repo(tmp_path / "app", "# app\n")
    refused = gm(app, "init", "--yes", check=False)
    assert refused.returncode == 3, refused.stderr
    first, hint = refused.stderr.strip().splitlines()
    assert f"is a link to {target}, which does not exist" in first and "internal error" not in first
    assert hint.startswith("hint: create that folder") and "nothing was written" in hint
    assert not target.exists() and git(app, "config", "--get", "memory.project", check=False) == ""
    target.mkdir(parents=True)
    gm(app, "init", "--yes")
    assert link.is_symlink() and [p["name"] for p in registry()] == ["app"]


@pytest.mark.parametrize("errno_name", ["EBUSY", "EXDEV"])
def test_a_global_repo_on_an_empty_mount_point_is_made_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, errno_name: str
) -> None:
    """AGENT_MEMORY_HOME an empty mount point (a container volume, a synced drive): the global
    repo built aside in its parent cannot be renamed onto it (EBUSY; EXDEV across file
    systems), and init ended in an internal error with a stray `.<name>.*` folder's worth of
    work thrown away. It is made in place there, as before the build-aside. (A real mount needs
    root: the kernel's refusal is what the patched rename gives.)"""
    import errno

    from agent_memory.committed import global_repo

    mount = tmp_path / "volume"
    mount.mkdir()
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(mount))
    real_rename = os.rename

    def rename(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        if Path(dst) == mount:
            raise OSError(getattr(errno, errno_name), os.strerror(getattr(errno, errno_name)), str(src), None, str(dst))
        real_rename(src, dst)

    monkeypatch.setattr(global_repo.os, "rename", rename)
    gm(new_repo(tmp_path / "app", "# app\n"), "init", "--yes")
    assert (mount / ".git").is_dir() and [p["name"] for p in registry()] == ["app"]
    assert git(mount, "status", "--porcelain").strip() == ""
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".volume.")] == []
