"""`git memory demo` through the CLI (issue 16): its terms explained once, evidence
that points where its transcripts really are, and a last line that names no deleted folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sessions import gm, gm_installed

from agent_memory.cli.demo_run import Demo
from agent_memory.model.errors import RefusedError

TERMS = ("atom", "L1", "L2", "L3", "stated", "sessions", "held")


# Each demo runs the whole loop (~5 s): the module runs each form once and reads its output.
@pytest.fixture(scope="module")
def scratch_demo(tmp_path_factory: pytest.TempPathFactory) -> str:
    """What `git memory demo` printed (its scratch folder removed)."""
    return gm(tmp_path_factory.mktemp("scratch"), "demo").stdout


@pytest.fixture(scope="module")
def dir_demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The folder `git memory demo --dir` built, and what it printed."""
    home = tmp_path_factory.mktemp("kept")
    where = home / "demo"
    return where, gm(home, "demo", "--dir", str(where)).stdout


def test_demo_explains_its_terms_once_and_ends_honestly(scratch_demo: str) -> None:
    out = scratch_demo
    legend = out.split("$ git memory init", 1)[0]
    for term in TERMS:
        assert re.search(rf"^#\s+{re.escape(term)}\s", legend, re.MULTILINE), term
    assert out.count("# Terms, once:") == 1
    last = next(line for line in out.splitlines() if line.startswith("done:"))
    assert "removed" in last and "--keep" in last
    for folder in re.findall(r"(/\S*agent-memory-demo-\S*)", last):
        assert not Path(folder).exists()
    assert "transcript gone" not in out
    # its per-prompt recall step shows the fact said once (an atom, not a pending claim)
    recall = out.split("$ git memory recall", 1)[1].split("$ git memory", 1)[0]
    assert "The API handlers live in src/handlers" in recall, recall


def test_demo_in_a_directory_keeps_it_and_its_evidence_resolves(dir_demo: tuple[Path, str]) -> None:
    where, out = dir_demo
    assert "transcript gone" not in out
    shown = re.findall(r"^\s+at (\S+\.jsonl)$", out, re.MULTILINE)
    assert shown and all(Path(p).is_file() and str(where) in p for p in shown)
    last_lines = out.split("\ndone:", 1)[1].splitlines()[:2]
    assert str(where / "invoice-service") in last_lines[0] and Path(where / "invoice-service").is_dir()
    assert "CLAUDE_CONFIG_DIR=" in last_lines[1]


def test_demo_ends_with_what_to_run_in_a_repository_of_ones_own(
    scratch_demo: str, dir_demo: tuple[Path, str]
) -> None:
    """The demo ended on where its scratch folder went: a newcomer was not told what to run
    next. Its last lines now name the first commands in a repository of one's own."""
    for out in (scratch_demo, dir_demo[1]):
        after = out.split("\ndone:", 1)[1]
        steps = after[after.index("next"):]
        assert "git memory init" in steps and "git memory capture --all" in steps, after
        assert steps.index("git memory init") < steps.index("git memory capture --all")


def test_a_failed_step_keeps_the_scratch_directory_and_names_it(tmp_path: Path) -> None:
    """A step that fails (here git cannot sign the first commit: the user's environment asks
    for signing with a program that fails) used to remove the scratch directory on the way out,
    while the hint of a failing `git memory` step pointed at the errors.log inside it. The
    directory is now kept and named."""
    signing = {"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "commit.gpgsign", "GIT_CONFIG_VALUE_0": "true",
               "GIT_CONFIG_KEY_1": "gpg.program", "GIT_CONFIG_VALUE_1": "false", "TMPDIR": str(tmp_path)}
    proc = gm_installed(tmp_path, "demo", check=False, env=signing)
    assert proc.returncode == 1, proc.stderr
    first, hint = proc.stderr.strip().splitlines()[-2:]
    assert "demo step failed: git commit" in first
    kept = re.search(r"the scratch directory is kept in (\S+)$", hint)
    assert kept and hint.startswith("hint: ") and not hint.startswith("hint: hint:"), hint
    assert (Path(kept.group(1)).expanduser() / "invoice-service" / ".git").is_dir()
    assert [p.name.startswith("agent-memory-demo-kept-") for p in tmp_path.iterdir()] == [True]


def test_a_failed_git_memory_step_gives_its_own_hint_once(tmp_path: Path) -> None:
    """The failing step's last line is its own `hint: …`; the demo passed it on as the hint,
    so it read "hint: hint: …"."""
    with pytest.raises(RefusedError) as failed:
        Demo(tmp_path).sh("git", "memory", "show", show=False, cwd=tmp_path)
    assert failed.value.hint and failed.value.hint.strip(), failed.value.hint
    assert not failed.value.hint.startswith("hint:"), failed.value.hint
