"""A damaged object store: no verb hangs, every verb names the object and the way back.

A power cut after an unsynced write leaves a loose object cut short; libgit2 1.9 (every pygit2
wheel so far) never returns from reading one. Every verb and every hook must fail fast on it,
name the object, point at `git fsck` and the reflog — and the way back the hint gives must
work. A garbled commit, a missing blob and a ref to nothing get the same clear error, and
`validate` reports them. The detached jobs the hooks start run under an operating-system CPU
limit, since a Python alarm cannot interrupt a C library.

Everything runs through the installed CLI and real git. A command that, broken, never returns
runs in a process group of its own with a generous bound and is killed when it passes it:
the test fails instead of hanging the suite (never a timing assertion)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, write_session
from test_hooks import background_jobs, errors, wait_for

NEVER = 120  # seconds: a bound for a command that, broken, never returns

CLAIMS = [
    {"user": "Never push directly to main; always open a pull request."},
    {"user": "We use pnpm, not npm, in this repo."},
]
LATER = "cccccccc-0000-4000-8000-000000000003"


def _env(path_first: Path | None = None) -> dict[str, str]:
    path = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")
    if path_first is not None:
        path = str(path_first) + os.pathsep + path
    return {**os.environ, "PATH": path}


def bounded(cwd: Path, *argv: str, input_text: str | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """Run `argv` (the whole process group) with the NEVER bound: a hang fails the test."""
    proc = subprocess.Popen(list(argv), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env or _env(), start_new_session=True)  # fmt: skip
    try:
        out, err = proc.communicate(input_text, timeout=NEVER)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"`{' '.join(argv)}` did not return within {NEVER} s: it hangs")
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def memory(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return bounded(cwd, "git", "memory", *args)


def _captured(repo: Path) -> None:
    """Two sessions on two days, captured: their two atoms staged on memory/review."""
    write_session(repo, "aaaaaaaa-0000-4000-8000-000000000001", "2026-11-01", CLAIMS)
    write_session(repo, "bbbbbbbb-0000-4000-8000-000000000002", "2026-11-02", CLAIMS)
    gm(repo, "capture", "--all")


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A store with two atoms seen in two sessions on two days, staged on memory/review. Built
    once per module (the same commands, inputs and dates for every test); each test gets its
    own copy to damage (conftest.initialized_copy)."""
    repo = initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks",
                            now="2026-11-06T12:00:00Z", then=_captured)  # fmt: skip
    assert git(repo, "rev-parse", "--verify", "-q", "memory/review").strip()
    yield repo
    _end_jobs_of(repo)


def _end_jobs_of(repo: Path) -> None:
    """A detached job a failing test left spinning (before the fix it never ends) is ended:
    the processes whose command line names this test's repository."""
    proc = Path("/proc")
    if not proc.is_dir():
        return
    for pid_dir in proc.iterdir():
        if not pid_dir.name.isdigit() or int(pid_dir.name) == os.getpid():
            continue
        try:
            argv = (pid_dir / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"hook" in argv and any(str(repo).encode() in arg for arg in argv):
            try:
                os.kill(int(pid_dir.name), signal.SIGKILL)
            except OSError:
                pass


def rev(repo: Path, spec: str) -> str:
    return git(repo, "rev-parse", spec).strip()


def an_atom_blob(repo: Path) -> tuple[str, str]:
    """(path, blob id) of an atom on memory/atoms."""
    for line in git(repo, "ls-tree", "-r", "memory/atoms", "atoms").splitlines():
        meta, path = line.split("\t")
        return path, meta.split()[2]
    raise AssertionError("no atom on memory/atoms")


def loose_file(repo: Path, oid: str) -> Path:
    path = repo / ".git" / "objects" / oid[:2] / oid[2:]
    assert path.is_file(), f"{oid} is not a loose object"
    path.chmod(0o644)
    return path


def truncate(repo: Path, oid: str) -> None:
    """What a power cut after an unsynced write leaves: the first half of the file."""
    path = loose_file(repo, oid)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def damage_target(repo: Path, what: str) -> str:
    if what == "atom blob":
        return an_atom_blob(repo)[1]
    if what == "tip tree":
        return rev(repo, "memory/atoms^{tree}")
    return rev(repo, "memory/atoms")  # the tip commit


def assert_names_the_damage(proc: subprocess.CompletedProcess[str], oid: str) -> None:
    text = proc.stdout + proc.stderr
    assert oid in text, text
    assert "git fsck" in text and "git reflog" in text, text
    assert "internal error" not in text and "please report" not in text, text


def later_transcript(repo: Path) -> Path:
    return write_session(repo, LATER, "2026-11-03", [{"user": "Always run ruff before committing."}])


VERBS = {
    "validate": ("validate",),
    "status": ("status",),
    "show": ("show",),
    "capture": ("capture",),  # the transcript is added below
    "stage": ("stage",),
    "adopt": ("adopt", "--all"),
}


# --- item: a truncated loose object ------------------------------------------------------------


TRUNCATED = [(verb, what) for what in ("atom blob", "tip tree") for verb in VERBS] + [
    ("status", "tip commit"), ("capture", "tip commit")]  # fmt: skip


@pytest.mark.parametrize(("verb", "what"), TRUNCATED)
def test_a_truncated_object_fails_every_verb_fast_naming_it(project: Path, verb: str, what: str) -> None:
    args = list(VERBS[verb])
    if verb == "capture":
        args.append(str(later_transcript(project)))
    oid = damage_target(project, what)
    truncate(project, oid)
    proc = memory(project, *args)
    assert proc.returncode == (1 if verb == "validate" else 3), proc.stdout + proc.stderr
    assert_names_the_damage(proc, oid)
    if verb != "validate":
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 2 and lines[1].startswith("hint: "), proc.stderr
        assert "is corrupt" in lines[0] and "truncated" in lines[0]


def test_validate_json_reports_the_truncated_object(project: Path) -> None:
    path, oid = an_atom_blob(project)
    truncate(project, oid)
    proc = memory(project, "validate", "--output", "json")
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert report["ok"] is False
    named = [e for e in report["errors"] if oid in e]
    assert named and path in named[0] and "truncated" in named[0]
    assert any("git fsck" in e for e in report["errors"])


def test_the_session_end_job_on_a_truncated_object_ends_and_logs_one_line(project: Path) -> None:
    """The hook exits 0 with no output; the detached capture it starts ends (it spun at full
    CPU forever) and leaves one line naming the object in errors.log."""
    transcript = later_transcript(project)
    oid = rev(project, "memory/atoms^{tree}")
    truncate(project, oid)
    payload = json.dumps({"session_id": LATER, "transcript_path": str(transcript), "cwd": str(project),
                          "hook_event_name": "SessionEnd", "reason": "exit"})  # fmt: skip
    hook = bounded(project, "git", "memory", "hook", "session-end", input_text=payload)
    assert hook.returncode == 0 and hook.stdout == "" and hook.stderr == ""
    lines = wait_for(lambda: [ln for ln in errors(project) if oid in ln], "the background capture's log line", NEVER)
    assert len(lines) == 1 and "session-end" in lines[0] and "corrupt" in lines[0]
    assert wait_for(lambda: not background_jobs(project), "the background capture to end", NEVER)


def _lines(path: Path) -> list[str]:
    return path.read_text("utf-8").splitlines() if path.exists() else []


# --- the detached jobs run under a CPU limit the kernel enforces -------------------------------

PROBE = """
import resource, sys
sys.argv = ["git-memory", *sys.argv[1:]]
from agent_memory.cli.main import main
main()
print(resource.getrlimit(resource.RLIMIT_CPU))
"""


@pytest.mark.skipif(not hasattr(os, "posix_spawn"), reason="RLIMIT_CPU: POSIX only")
@pytest.mark.parametrize("event", ["background-capture", "rebuild-index"])
def test_a_detached_job_sets_an_os_cpu_limit_on_itself(project: Path, event: str) -> None:
    """The job's own process entry (what `python -m agent_memory hook …` runs) bounds its CPU
    time before it does anything."""
    args = ["hook", event, "--git-dir", str(project / ".git"), "--cwd", str(project)]
    if event == "background-capture":
        args += ["--transcript", str(later_transcript(project))]
    proc = bounded(project, sys.executable, "-c", PROBE, *args)
    assert proc.returncode == 0, proc.stderr
    soft, hard = (int(n) for n in proc.stdout.strip().splitlines()[-1].strip("()").split(","))
    assert 0 < soft <= hard < 3600, proc.stdout  # RLIM_INFINITY reads as -1


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs a POSIX shell's `ulimit -t`")
def test_the_job_session_end_starts_and_its_git_processes_are_cpu_limited(project: Path, tmp_path: Path) -> None:
    """Through the real chain: the SessionEnd hook as Claude Code runs it (`git-memory hook
    session-end`) starts the detached capture; the git it runs inherits the job's limit (a
    `git` on PATH records `ulimit -t` and hands over to the real one)."""
    real_git = shutil.which("git")
    assert real_git
    shim = tmp_path / "shim"
    shim.mkdir()
    record = tmp_path / "git-calls.log"
    (shim / "git").write_text(f'#!/bin/sh\necho "$(ulimit -t) $*" >> "{record}"\nexec "{real_git}" "$@"\n')
    (shim / "git").chmod(0o755)
    transcript = later_transcript(project)
    tip = rev(project, "memory/atoms")
    payload = json.dumps({"session_id": LATER, "transcript_path": str(transcript), "cwd": str(project),
                          "hook_event_name": "SessionEnd", "reason": "exit"})  # fmt: skip
    hook = bounded(project, "git-memory", "hook", "session-end", input_text=payload, env=_env(shim))
    assert hook.returncode == 0 and hook.stdout == ""
    wait_for(lambda: rev(project, "memory/atoms") != tip, "the background capture's commit", NEVER)
    calls = [ln for ln in _lines(record) if " update-ref " in f" {ln} "]
    assert calls, _lines(record)
    assert all(ln.split()[0].isdigit() and int(ln.split()[0]) <= 3600 for ln in calls), calls


# --- item: garbled, missing and dangling objects -------------------------------------------------


def _garble(repo: Path, oid: str) -> None:
    loose_file(repo, oid).write_bytes(os.urandom(64))


def _remove(repo: Path, oid: str) -> None:
    loose_file(repo, oid).unlink()


def _stats_blob(repo: Path) -> str:
    return rev(repo, "memory/atoms:index/stats.json")


def break_store(repo: Path, fault: str) -> str:
    """Damage the store as `fault` says; the id of the object a message must name."""
    if fault == "garbage tip commit":
        oid = rev(repo, "memory/atoms")
        _garble(repo, oid)
    elif fault == "commit that hashes to another id":
        oid = rev(repo, "memory/atoms")
        loose_file(repo, oid).write_bytes(zlib.compress(b"commit 12\0not a commit"))
    elif fault == "missing atom blob":
        oid = an_atom_blob(repo)[1]
        _remove(repo, oid)
    elif fault == "ref to a missing object":
        oid = "d" * 40
        ref = repo / ".git" / "refs" / "heads" / "memory" / "atoms"
        assert ref.is_file()
        ref.write_text(oid + "\n")
    elif fault == "garbage stats blob":
        oid = _stats_blob(repo)
        _garble(repo, oid)
    elif fault == "missing stats blob":
        oid = _stats_blob(repo)
        _remove(repo, oid)
    else:
        raise AssertionError(fault)
    return oid


FAULTS = ["garbage tip commit", "commit that hashes to another id", "missing atom blob",
          "ref to a missing object", "garbage stats blob", "missing stats blob"]  # fmt: skip


@pytest.mark.parametrize("fault", FAULTS)
def test_validate_reports_a_damaged_store(project: Path, fault: str) -> None:
    oid = break_store(project, fault)
    proc = memory(project, "validate")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "\nok" not in "\n" + proc.stdout
    assert_names_the_damage(proc, oid)


# Every fault through capture; stage and adopt, which fail on the same reads, on three of them.
DAMAGED = [("capture", fault) for fault in FAULTS] + [
    (verb, fault) for verb in ("stage", "adopt")
    for fault in ("garbage tip commit", "missing atom blob", "garbage stats blob")]  # fmt: skip


@pytest.mark.parametrize(("verb", "fault"), DAMAGED)
def test_a_damaged_store_is_a_clear_error_with_the_way_back(project: Path, verb: str, fault: str) -> None:
    args = list(VERBS[verb])
    if verb == "capture":
        args.append(str(later_transcript(project)))
    oid = break_store(project, fault)
    proc = memory(project, *args)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert_names_the_damage(proc, oid)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint: "), proc.stderr


# --- the way back the hint gives works ---------------------------------------------------------


def test_the_way_back_the_hint_gives_restores_the_store(project: Path) -> None:
    """A capture whose new atom's blob is cut: `git fsck` names it, the file is moved aside,
    memory/atoms goes back one step in its reflog, the ledger goes, `capture --all` learns
    the lost session again — and validate is clean, with the atom back."""
    before = rev(project, "memory/atoms")
    later_transcript(project)
    gm(project, "capture", "--all", "--no-stage")
    assert rev(project, "memory/atoms") != before
    new = [ln.split("\t")[1] for ln in git(project, "diff", "--name-status", before, "memory/atoms", "--", "atoms").splitlines()
           if ln.startswith("A")]  # fmt: skip
    assert len(new) == 1
    oid = rev(project, f"memory/atoms:{new[0]}")
    truncate(project, oid)
    failed = memory(project, "status")
    assert failed.returncode == 3 and oid in failed.stderr

    fsck = subprocess.run(["git", "fsck"], cwd=project, capture_output=True, text=True, timeout=NEVER)
    assert oid in fsck.stdout + fsck.stderr
    damaged = loose_file(project, oid)
    damaged.rename(project.parent / "damaged-object")
    reflog = git(project, "reflog", "show", "--format=%H", "memory/atoms").split()
    assert reflog[0] == rev(project, "memory/atoms") and reflog[1] == before
    git(project, "update-ref", "refs/heads/memory/atoms", reflog[1])
    (project / ".git" / "agent-memory" / "captured.log").unlink()
    recaptured = memory(project, "capture", "--all", "--no-stage")
    assert recaptured.returncode == 0, recaptured.stderr
    assert memory(project, "validate").returncode == 0
    assert rev(project, f"memory/atoms:{new[0]}")  # the lost atom is back


def test_the_ledger_the_damage_hint_names_is_there_in_a_linked_work_tree(project: Path, tmp_path: Path) -> None:
    """The way back from a damaged store ends by removing the capture ledger: the hint named
    `.git/agent-memory/captured.log`, which is no path in a linked work tree or a submodule
    (`.git` is a file there). It names the folder git prints for the common git dir."""
    linked = tmp_path / "linked"
    git(project, "worktree", "add", "-q", "--detach", str(linked))
    truncate(project, an_atom_blob(project)[1])
    hint = memory(linked, "status").stderr.split("hint: ", 1)[1]
    assert "git rev-parse --git-common-dir" in hint and ".git/agent-memory" not in hint, hint
    common = git(linked, "rev-parse", "--path-format=absolute", "--git-common-dir").strip()
    assert (Path(common) / "agent-memory" / "captured.log").is_file()
