"""The layout the package is built on: the packages pyproject.toml lists are the folders on
disk, the top-level templates/ and git-hooks/ are the only copy of their texts, and an
installed wheel (not only the editable install the tests run from) reads them."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import git, install_wheel

from agent_memory.committed import render
from agent_memory.committed.templates import read_git_hook, read_template

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_lists_every_package_folder() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "agent_memory").rglob("__init__.py")
    }
    data_only = {".".join(d.relative_to(ROOT).parts) for d in (ROOT / "agent_memory" / "resources").rglob("*")
                 if d.is_dir() and d.name != "__pycache__"} | {"agent_memory.resources"}  # fmt: skip
    assert listed == on_disk | data_only | {"agent_memory._templates", "agent_memory._git_hooks"}


def test_top_level_folders_are_real_and_hold_the_texts() -> None:
    for folder in ("templates", "git-hooks"):
        assert not (ROOT / folder).is_symlink() and (ROOT / folder).is_dir()
    assert not (ROOT / "agent_memory" / "resources" / "git-hooks").exists()
    assert read_git_hook("pre-commit") == (ROOT / "git-hooks" / "pre-commit").read_text()
    frame = (ROOT / "templates" / "marker-block.md").read_text().splitlines()
    block = render.render_block([], "L2").text.splitlines()
    assert block[0] == frame[0].format(tier="L2") and block[-1] == frame[-1].format(tier="L2")
    assert render.GENERATED_NOTE in block


@pytest.fixture(scope="module")
def wheel_site(built_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """agent_memory installed from a wheel built from this tree (dependencies come from the
    test environment)."""
    return install_wheel(built_wheel, tmp_path_factory.mktemp("site"))


def test_an_installed_wheel_reads_templates_and_installs_the_git_hooks(
    wheel_site: Path, repo: Path
) -> None:
    env = {**os.environ, "PYTHONPATH": str(wheel_site)}
    probe = (
        "import agent_memory, sys\n"
        "from agent_memory.committed.templates import read_template, read_git_hook\n"
        "print(agent_memory.__file__)\n"
        "sys.stdout.write(read_template('pr-body.md'))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=repo, env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    first, _, rest = proc.stdout.partition("\n")
    assert Path(first).is_relative_to(wheel_site), first
    assert rest == read_template("pr-body.md")
    init = subprocess.run([sys.executable, "-m", "agent_memory", "init"], cwd=repo, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert init.returncode == 0, init.stderr
    hook = (repo / ".git" / "hooks" / "pre-push").read_text()
    assert read_git_hook("pre-push").splitlines()[1] in hook
    assert "memory/atoms" in git(repo, "branch", "--list", "memory/atoms")
