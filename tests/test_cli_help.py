"""Help and discovery (issue 16): the man page `git memory --help` opens, `git memory help`,
help text on every flag, "did you mean", positional arguments, completions, colour, and a quiet
second Ctrl-C — each through the installed CLI."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pexpect
import pytest
from conftest import TRANSCRIPTS, initialized_copy
from golden import Golden
from sessions import gm, gm_json, write_session

from agent_memory.cli import completion, manpage
from agent_memory.cli.main import GROUPS, build_parser, main, verb_parsers

ROOT = Path(__file__).resolve().parents[1]
VERBS = [v for _, names in GROUPS for v in names]


def test_the_committed_man_page_is_generated_from_the_parser() -> None:
    committed = (ROOT / "man" / "git-memory.1").read_text("utf-8")
    assert committed == manpage.roff(), (
        "man/git-memory.1 is out of date: python -m agent_memory.cli.manpage > man/git-memory.1"
    )
    for verb in VERBS:
        assert f"\\fBgit memory {verb}" in committed


def test_every_verb_and_flag_has_help_text() -> None:
    parser = build_parser()
    verbs = verb_parsers(parser)
    assert sorted(verbs) == sorted(VERBS), "a verb is missing from GROUPS (man page, completion)"
    for name, sub in verbs.items():
        assert sub.description, name
        for action in sub._actions:
            if action.help == argparse.SUPPRESS:
                continue
            assert action.help, f"git memory {name} {action.option_strings or action.dest} has no help text"


def test_help_prints_the_manual_without_man_and_one_verb_with_a_verb(tmp_path: Path) -> None:
    full = gm(tmp_path, "help", env={"PATH": _without_man(tmp_path)}).stdout
    for verb in VERBS:
        assert f"git memory {verb}" in full
    for section in ("DESCRIPTION", "TERMS", "EXIT STATUS", "ENVIRONMENT"):
        assert section in full
    adopt = gm(tmp_path, "help", "adopt").stdout
    assert "--reject ID" in adopt and "not restaged until new sessions" in adopt and "git memory init" not in adopt
    assert gm(tmp_path, "help", "show").stdout == gm(tmp_path, "help", "inspect").stdout
    # the alias is named once: the description says it, so no "(also: git memory show)" after it
    inspect = " ".join(gm(tmp_path, "help", "inspect").stdout.split())
    assert inspect.count("git memory show") == 1 and "(also:" not in inspect, inspect
    wrong = gm(tmp_path, "help", "adpot", check=False)
    assert wrong.returncode == 2 and "did you mean 'adopt'" in wrong.stderr


def _without_man(tmp_path: Path) -> str:
    """A PATH with git and this interpreter's git-memory, and no `man`."""
    bindir = tmp_path / "bin-without-man"
    bindir.mkdir()
    (bindir / "git").symlink_to(shutil.which("git") or "/usr/bin/git")
    return os.pathsep.join([str(Path(sys.executable).parent), str(bindir)])


def test_a_mistyped_verb_or_flag_says_did_you_mean(tmp_path: Path) -> None:
    proc = gm(tmp_path, "adpot", check=False)
    assert proc.returncode == 2 and "did you mean 'adopt'" in proc.stderr and "Traceback" not in proc.stderr
    proc = gm(tmp_path, "stauts", check=False)
    assert proc.returncode == 2 and "'status'" in proc.stderr
    proc = gm(tmp_path, "inspect", "--teir", "L1", check=False)
    assert proc.returncode == 2 and "did you mean '--tier'" in proc.stderr
    assert gm(tmp_path, "frobnicate", check=False).returncode == 2


def _deps_into(python: Path) -> None:
    """This environment's dependencies (pygit2 …) for the venv of `python`: no download."""
    site = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    deps = next(p for p in sys.path if p.endswith("site-packages") and Path(p, "pygit2").exists())
    Path(site, "zz-test-deps.pth").write_text(deps + "\n")


def _man_env(venv: Path) -> dict[str, str]:
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin", "MANPAGER": "cat",
           "PAGER": "cat", "MANWIDTH": "100"}
    for var in ("MANPATH", "PYTHONPATH"):
        env.pop(var, None)
    return env


def _pip_env() -> dict[str, str]:
    """pip run for the venv under test: a PYTHONPATH naming a checkout (a worktree's tests)
    would have it find agent-memory "already installed" and install nothing."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def test_man_page_from_a_wheel_install(tmp_path: Path, built_wheel: Path) -> None:
    """Non-editable: the wheel of this tree (conftest.built_wheel: built once per test process,
    as test_durability and test_layout use it; only read here), installed into a fresh venv,
    and git opens the page."""
    wheel = built_wheel
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith(".data/data/share/man/man1/git-memory.1") for n in names)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
                    "--no-deps", str(wheel)], check=True, capture_output=True, env=_pip_env())
    assert (venv / "share" / "man" / "man1" / "git-memory.1").is_file()
    _deps_into(venv / "bin" / "python")  # the wheel's code, this environment's dependencies
    env = _man_env(venv)
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import agent_memory; print(agent_memory.__file__)"],
                           capture_output=True, text=True, env=env, check=True, cwd=tmp_path).stdout
    assert where.startswith(str(venv)), "the test must run the wheel, not the editable checkout"
    text = subprocess.run(["git", "memory", "help"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert text.returncode == 0 and "git memory adopt" in text.stdout
    if shutil.which("man") is None:
        pytest.skip("no man on this machine: the page is installed, git cannot show it")
    proc = subprocess.run(["git", "memory", "--help"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "GIT-MEMORY(1)" in proc.stdout
    for verb in ("init", "capture", "inspect", "promote", "stage", "adopt", "pr", "deinit", "log"):
        assert f"git memory {verb}" in proc.stdout


def test_man_page_from_an_editable_install(tmp_path: Path) -> None:
    """`pip install -e` (the README's install) installed no data files (setuptools asks the
    distribution a `has_data()` it does not have; setup.py gives it one), so man had no page for
    `git memory --help` — git's own `man git-memory`, which runs nothing of ours — until a first
    `git memory` command linked the checkout's page. The install puts it there now: the very
    first call finds it."""
    if shutil.which("man") is None:
        pytest.skip("no man on this machine")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                              "-q", "--no-deps", "-e", str(ROOT)], capture_output=True, text=True, check=False,
                             env=_pip_env())
    if install.returncode != 0:
        pytest.skip(f"cannot install editable here: {install.stderr.strip().splitlines()[-1:]}")
    page = venv / "share" / "man" / "man1" / "git-memory.1"
    assert page.is_file() and page.read_bytes() == (ROOT / "man" / "git-memory.1").read_bytes()
    _deps_into(venv / "bin" / "python")
    env = _man_env(venv)
    # the first command of the install: nothing of ours has run yet
    proc = subprocess.run(["git", "memory", "--help"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "GIT-MEMORY(1)" in proc.stdout
    for verb in ("init", "capture", "inspect", "adopt", "deinit", "log"):
        assert f"git memory {verb}" in proc.stdout
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import agent_memory; print(agent_memory.__file__)"],
                           capture_output=True, text=True, env=env, check=True, cwd=tmp_path).stdout.strip()
    assert where == str(ROOT / "agent_memory" / "__init__.py"), "the test must run an editable install of this tree"
    help_text = subprocess.run(["git", "memory", "help"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert help_text.returncode == 0 and "git memory adopt" in help_text.stdout and help_text.stderr == ""
    assert page.is_file() and not page.is_symlink()  # the installed page is left alone (cli/manlink.py)


def test_the_page_is_linked_only_into_an_editable_install_of_the_running_checkout(tmp_path: Path) -> None:
    """What the first command of an editable install does (cli/manlink.py), and everything it
    leaves alone: a wheel's page, a file of someone else's, another environment's launcher, a
    package run from a checkout the environment did not install (PYTHONPATH)."""
    from agent_memory.cli.manlink import link_manual

    prefix, site = tmp_path / "venv", tmp_path / "venv" / "site-packages"
    (prefix / "bin").mkdir(parents=True)
    dist = site / "agent_memory-0.1.0.dist-info"
    dist.mkdir(parents=True)
    launcher = str(prefix / "bin" / "git-memory")
    page = prefix / "share" / "man" / "man1" / "git-memory.1"

    def installed_from(checkout: Path, editable: bool = True) -> None:
        record = {"url": checkout.as_uri(), "dir_info": {"editable": editable}}
        (dist / "direct_url.json").write_text(json.dumps(record))

    def link(argv0: str = launcher) -> str | None:
        return link_manual(argv0, str(prefix), str(site))

    installed_from(tmp_path / "another-checkout")
    assert link() is None and not page.parent.exists()  # this package runs from ROOT
    installed_from(ROOT, editable=False)
    assert link() is None and not page.parent.exists()  # a wheel from a checkout carries its page
    installed_from(ROOT)
    assert link(str(tmp_path / "elsewhere" / "bin" / "git-memory")) is None  # another environment
    assert link(str(prefix / "bin" / "python")) is None and not page.parent.exists()
    assert link() == str(page) and page.resolve() == (ROOT / "man" / "git-memory.1").resolve()
    assert link() is None  # once
    page.unlink()
    page.symlink_to(tmp_path / "a-checkout-since-moved" / "git-memory.1")
    assert link() == str(page) and page.resolve() == (ROOT / "man" / "git-memory.1").resolve()
    page.unlink()
    page.write_text("someone else's page")
    assert link() is None and page.read_text() == "someone else's page"
    shutil.rmtree(prefix / "share")
    (prefix / "share").write_text("not a folder")
    assert link() is None  # cannot write there: nothing, silently


# --- positional arguments ----------------------------------------------------------------------


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now="2026-11-05T12:00:00Z")


def test_positional_transcript_and_prompt_work_as_the_flags_do(project: Path) -> None:
    path = write_session(project, "aaaaaaaa-0000-4000-8000-000000000001", "2026-11-01",
                         [{"user": "Deploy with `make deploy`; never deploy on Fridays."}])
    by_flag = gm_json(project, "extract", "--transcript", str(path))
    by_position = gm_json(project, "extract", str(path))
    assert by_flag == by_position and by_flag["atoms"]
    captured = gm_json(project, "capture", str(path), "--no-stage")
    assert sorted(captured["new"]) == sorted(a["id"] for a in by_flag["atoms"])
    assert gm_json(project, "capture", "--transcript", str(path), "--no-stage")["commit"] is None
    one = gm_json(project, "recall", "how do I deploy on fridays")
    two = gm_json(project, "recall", "how", "do", "I", "deploy", "on", "fridays")
    three = gm_json(project, "recall", "--prompt", "how do I deploy on fridays")
    assert one == two == three and one["atoms"]
    both = gm(project, "capture", str(path), "--all", check=False)
    assert both.returncode == 2 and "not both" in both.stderr
    neither = gm(project, "capture", check=False)
    assert neither.returncode == 2 and "which transcript" in neither.stderr
    assert gm(project, "recall", check=False).returncode == 2
    differ = gm(project, "extract", str(path), "--transcript", str(TRANSCRIPTS / "hook_attachments.jsonl"), check=False)
    assert differ.returncode == 2


# --- completion --------------------------------------------------------------------------------


def _bash_complete(script: str, *words: str) -> list[str]:
    code = (f"source {script}\n"
            f"COMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}; COMPREPLY=()\n"
            "_git_memory_standalone; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
            f"words=(git memory {' '.join(repr(w) for w in words[1:])}); cword={len(words)}; COMPREPLY=()\n"
            "_git_memory; printf -- '--\\n'; printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    out = subprocess.run(["bash", "-c", code], capture_output=True, text=True, check=True).stdout
    standalone, _, through_git = out.partition("--\n")
    assert standalone.split() == through_git.split(), "git memory and git-memory complete alike"
    return standalone.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completion_generated_from_the_parser(tmp_path: Path) -> None:
    script = tmp_path / "git-memory.bash"
    script.write_text(gm(tmp_path, "completion", "bash").stdout)
    assert _bash_complete(str(script), "git-memory", "ado") == ["adopt"]
    assert set(_bash_complete(str(script), "git-memory", "sta")) == {"status", "stage", "stale"}
    assert _bash_complete(str(script), "git-memory", "inspect", "--tier", "") == ["L1", "L2", "L3"]
    assert "--reject" in _bash_complete(str(script), "git-memory", "adopt", "--")
    assert _bash_complete(str(script), "git-memory", "help", "dei") == ["deinit"]
    assert _bash_complete(str(script), "git-memory", "remember", "--kind", "fa") == ["fact", "failure"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_completions_name_every_verb_and_parse(shell: str, tmp_path: Path) -> None:
    text = gm(tmp_path, "completion", shell).stdout
    for spec in completion.spec():
        assert spec.name in text
        for flag in spec.flags:
            assert (flag.name if shell == "zsh" else f"-l {flag.name[2:]}") in text
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed: generated, not syntax-checked")
    script = tmp_path / f"git-memory.{shell}"
    script.write_text(text)
    assert subprocess.run([shell, "-n", str(script)], capture_output=True, check=False).returncode == 0
    if shell == "fish":
        out = subprocess.run(["fish", "-c", f"source {script}; complete -C 'git-memory inspect --tier '"],
                             capture_output=True, text=True, check=True).stdout
        assert [line.split("\t")[0] for line in out.splitlines()] == ["L1", "L2", "L3"]


def test_init_installs_completion_only_when_asked(repo: Path, isolated_env: Path) -> None:
    gm(repo, "init", "--no-claude-hooks")
    assert not (isolated_env / ".local").exists() and not (isolated_env / ".config" / "fish").exists()
    out = gm_json(repo, "init", "--no-claude-hooks", "--completion", "bash")
    path = isolated_env / ".local" / "share" / "bash-completion" / "completions" / "git-memory"
    assert path.read_text() == gm(repo, "completion", "bash").stdout
    assert str(path) in out["changed"]["bash completion"]
    gm(repo, "init", "--no-claude-hooks", "--completion", "fish")
    assert (isolated_env / ".config" / "fish" / "completions" / "git-memory.fish").is_file()


# --- colour ------------------------------------------------------------------------------------


def _in_a_terminal(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    full = {**os.environ, "TERM": "xterm", **(env or {})}
    full.pop("NO_COLOR", None) if "NO_COLOR" not in (env or {}) else None
    child = pexpect.spawn("git", ["memory", *args], cwd=str(cwd), env=full, encoding="utf-8", timeout=60)
    child.expect(pexpect.EOF)
    child.close()
    return str(child.before)


def test_colour_on_a_terminal_never_in_a_pipe_and_never_with_no_color(project: Path) -> None:
    path = write_session(project, "aaaaaaaa-0000-4000-8000-000000000002", "2026-11-01",
                         [{"user": "Never push directly to main."}])
    gm(project, "capture", str(path), "--no-stage")
    coloured = _in_a_terminal(project, "show")
    assert "\x1b[" in coloured and "L1" in coloured
    assert "\x1b[" not in gm(project, "show").stdout
    assert "\x1b[" not in _in_a_terminal(project, "show", env={"NO_COLOR": "1"})
    assert "\x1b[" not in _in_a_terminal(project, "show", "--no-color")
    assert "\x1b[" not in _in_a_terminal(project, "--no-color", "show")
    refused = _in_a_terminal(project, "forget", "nothing-like-this")
    assert "\x1b[1;31m" in refused and "hint:" in refused


# --- interrupts --------------------------------------------------------------------------------


def test_a_second_ctrl_c_while_reporting_the_first_exits_130_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import agent_memory.cli.status as status_verb

    class InterruptingStderr:
        def write(self, text: str) -> int:
            raise KeyboardInterrupt  # the second Ctrl-C lands while "interrupted" is printed

        def flush(self) -> None:
            pass

    def interrupted(args: argparse.Namespace) -> int:
        monkeypatch.setattr(sys, "stderr", InterruptingStderr())
        raise KeyboardInterrupt

    monkeypatch.setattr(status_verb, "run", interrupted)
    previous = signal.getsignal(signal.SIGINT)
    try:
        assert main(["status"]) == 130
        assert signal.getsignal(signal.SIGINT) not in (previous, signal.default_int_handler)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert "Traceback" not in capsys.readouterr().err


def _sleeping_in(group: int) -> bool:
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            name = stat.read_text().split("(", 1)[1].rsplit(")", 1)[0]
        except (OSError, IndexError):
            continue
        if name == "sleep" and int(fields[2]) == group:
            return True
    return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see the command start")
def test_ctrl_c_twice_through_the_installed_cli_is_exit_130_without_a_traceback(project: Path) -> None:
    path = write_session(project, "aaaaaaaa-0000-4000-8000-000000000003", "2026-11-01",
                         [{"user": "Never push directly to main."}])
    atom = gm_json(project, "capture", str(path), "--no-stage")["new"][0]
    # git-memory itself (under `git memory`, git is in the same process group and dies of the
    # signal too, which a shell reports as 130 as well).
    proc = subprocess.Popen(["git-memory", "verify", atom, "--by", "sleep 30"], cwd=project,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while not _sleeping_in(proc.pid) and time.monotonic() < deadline:  # the verb is running CMD
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "Traceback" not in err


def test_output_json_is_one_object_for_the_new_verbs(project: Path) -> None:
    overview = gm_json(project, "show")
    assert set(overview) >= {"L3", "L2", "staged", "L1", "contested"}
    assert json.loads(gm(project, "deinit", "--output", "json").stdout)["project"] == "proj"
