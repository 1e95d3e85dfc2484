"""Refs a power cut or a hand edit damaged, and `git gc --prune=now` during a write.

A ref that cannot be read is not a ref that was never made: every verb says which file is
damaged and points at `git fsck` and the reflog (exit 3, one line and a hint), the hooks log
the same and stay silent, and `init` never makes an empty store, nor `init --yes`/`adopt` a
new root commit, over a store or branch that existed. A prune racing a write never leaves
`memory/atoms` naming objects that are gone. Real repositories and real git; `init` and
`adopt` over damage, and the writes a prune races, run through the installed launcher.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, gm_installed, write_session
from test_hooks import (
    background_jobs,
    errors,
    hook,
    no_rebuild_running,
    payload,
    run_hook,
    wait_for,
)

ATOMS = "refs/heads/memory/atoms"
CLAIM = "We use tabs for indentation in this repository"


@pytest.fixture
def stored(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An initialised repository whose store holds one atom. Built once per module (the same
    commands for every test); each test gets its own copy (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", then=_remember_the_claim)


def _remember_the_claim(repo: Path) -> None:
    gm(repo, "remember", CLAIM)


def _packed_line_broken(repo: Path, ref: str) -> tuple[bytes, bytes]:
    """Pack every ref, then damage `ref`'s line in packed-refs (one stray character after the
    object id, as a bad sector or a careless edit leaves it). Returns (good, damaged) bytes."""
    git(repo, "pack-refs", "--all")
    path = repo / ".git" / "packed-refs"
    good = path.read_bytes()
    lines = good.decode().splitlines(keepends=True)
    for n, line in enumerate(lines):
        if line.rstrip("\n").endswith(" " + ref):
            lines[n] = line.replace(" ", "X ", 1)
            break
    else:
        raise AssertionError(f"{ref} is not packed")
    damaged = "".join(lines).encode()
    path.write_bytes(damaged)
    return good, damaged


def _loose_file_broken(repo: Path, ref: str, content: bytes) -> tuple[bytes, bytes]:
    """`ref` as a loose file holding `content` (empty: what a power cut after an unsynced
    write leaves)."""
    path = repo / ".git" / Path(*ref.split("/"))
    good = path.read_bytes()
    path.write_bytes(content)
    return good, content


DAMAGES = {
    "packed-refs line": lambda repo: _packed_line_broken(repo, ATOMS),
    "empty loose ref": lambda repo: _loose_file_broken(repo, ATOMS, b""),
    "garbage loose ref": lambda repo: _loose_file_broken(repo, ATOMS, b"\x00\x17garbage\n"),
}


def _tree_state(repo: Path) -> dict[str, bytes]:
    """Every file under .git that names or records a ref, with its bytes."""
    git_dir = repo / ".git"
    out: dict[str, bytes] = {}
    for base in (git_dir / "refs", git_dir / "logs"):
        for path in sorted(base.rglob("*")):
            if path.is_file():
                out[str(path.relative_to(git_dir))] = path.read_bytes()
    for name in ("packed-refs", "HEAD"):
        if (git_dir / name).exists():
            out[name] = (git_dir / name).read_bytes()
    return out


def _says_damaged(proc: subprocess.CompletedProcess[str], words: tuple[str, ...] = ()) -> None:
    """Exit 3, one line and a hint that points at `git fsck`; never "not initialised"."""
    text = proc.stdout + proc.stderr
    assert proc.returncode == 3, text
    lines = proc.stderr.splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint: "), proc.stderr
    assert "git fsck" in lines[1], proc.stderr
    assert "not initialised" not in text and "run `git memory init`" not in text, text
    for word in words:
        assert word in lines[0], proc.stderr


# --- every verb -------------------------------------------------------------------------------


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_store_ref_is_reported_as_damaged_by_every_verb(stored: Path, damage: str) -> None:
    tip = git(stored, "rev-parse", ATOMS).strip()
    DAMAGES[damage](stored)
    where = "packed-refs" if "packed" in damage else "memory/atoms"
    for verb in (["status"], ["inspect", "--tier", "L1"], ["validate"], ["capture", "--all"],
                 ["remember", "Run the linter before every commit"]):  # fmt: skip
        proc = gm(stored, *verb, check=False)
        _says_damaged(proc, ("cannot read memory/atoms", where))
        # the way back is named: the reflog's last commit, and the command that restores it
        assert f"git update-ref {ATOMS} {tip}" in proc.stderr, proc.stderr


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_init_over_a_damaged_store_refuses_and_changes_nothing(stored: Path, damage: str) -> None:
    tip = git(stored, "rev-parse", ATOMS).strip()
    main = git(stored, "rev-parse", "main").strip()
    good, _ = DAMAGES[damage](stored)
    before = _tree_state(stored)
    _says_damaged(gm_installed(stored, "init", "--yes", check=False), ("cannot read memory/atoms",))
    assert _tree_state(stored) == before  # no ref, no reflog entry, no new root commit
    # repaired, the store and the branch are what they were: nothing was made over them
    if damage == "packed-refs line":
        (stored / ".git" / "packed-refs").write_bytes(good)
    else:
        (stored / ".git" / "refs" / "heads" / "memory" / "atoms").write_bytes(good)
    assert git(stored, "rev-parse", ATOMS).strip() == tip
    assert git(stored, "rev-parse", "main").strip() == main
    assert git(stored, "rev-list", "--max-parents=0", "main").split() == [
        git(stored, "rev-list", "--max-parents=0", main).strip()]  # fmt: skip
    assert CLAIM in gm(stored, "inspect", "--tier", "L1").stdout


def test_a_lost_store_its_reflog_remembers_is_not_replaced_by_init(stored: Path) -> None:
    """The loose ref file is gone (its reflog is not: git deletes a reflog only with its
    branch). `init` names the commit to restore; following the hint brings every atom back."""
    tip = git(stored, "rev-parse", ATOMS).strip()
    (stored / ".git" / "refs" / "heads" / "memory" / "atoms").unlink()
    for verb in (["init", "--yes"], ["status"], ["remember", "Run the linter before every commit"]):
        proc = gm(stored, *verb, check=False)
        assert proc.returncode == 3 and "memory/atoms is missing, but its reflog says it was at" in proc.stderr, proc.stderr
        assert f"hint: restore it: git update-ref {ATOMS} {tip}" in proc.stderr and "not initialised" not in proc.stderr
    assert not (stored / ".git" / "refs" / "heads" / "memory" / "atoms").exists()
    git(stored, "update-ref", ATOMS, tip)  # as the hint says
    assert CLAIM in gm(stored, "inspect", "--tier", "L1").stdout


def test_a_store_lost_without_a_reflog_is_known_by_the_init_marker(stored: Path) -> None:
    git(stored, "update-ref", "-d", ATOMS)  # the ref and its reflog: only the marker is left
    proc = gm_installed(stored, "init", "--yes", check=False)
    assert proc.returncode == 3 and "memory/atoms is missing, but `git memory init` ran here before" in proc.stderr
    assert "git fsck --lost-found" in proc.stderr and "/.git/agent-memory/initialised and run" in proc.stderr
    assert git(stored, "rev-parse", "--verify", "-q", ATOMS, check=False) == ""
    # a deliberate fresh start, as the hint says
    (stored / ".git" / "agent-memory" / "initialised").unlink()
    gm(stored, "init", "--yes")
    assert CLAIM not in gm(stored, "inspect", "--tier", "L1").stdout


# --- HEAD's branch ----------------------------------------------------------------------------


def test_init_yes_never_makes_a_root_commit_over_an_unreadable_branch(repo: Path) -> None:
    """main's line in packed-refs is malformed: git itself then takes main for unborn, and a
    `git commit` starts a new root. `init --yes` refuses before writing anything."""
    main = git(repo, "rev-parse", "main").strip()
    good, _ = _packed_line_broken(repo, "refs/heads/main")
    before = _tree_state(repo)
    proc = gm_installed(repo, "init", "--yes", check=False)
    _says_damaged(proc, ("packed-refs",))
    assert _tree_state(repo) == before
    (repo / ".git" / "packed-refs").write_bytes(good)
    assert git(repo, "rev-parse", "main").strip() == main
    assert not (repo / ".claude").exists() and git(repo, "status", "--porcelain") == ""


def test_init_yes_never_makes_a_root_commit_over_a_lost_branch(repo: Path) -> None:
    """main's loose ref file is gone while its reflog says where it was."""
    main = git(repo, "rev-parse", "main").strip()
    (repo / ".git" / "refs" / "heads" / "main").unlink()
    proc = gm_installed(repo, "init", "--yes", check=False)
    _says_damaged(proc, ("cannot read main", "reflog says it was at"))
    assert f"git update-ref refs/heads/main {main}" in proc.stderr
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    git(repo, "update-ref", "refs/heads/main", main)
    assert git(repo, "rev-list", "main").split() == [main]


def test_adopt_never_makes_a_root_commit_over_a_lost_branch(stored: Path) -> None:
    main = git(stored, "rev-parse", "main").strip()
    status = git(stored, "status", "--porcelain")
    (stored / ".git" / "refs" / "heads" / "main").unlink()
    proc = gm_installed(stored, "adopt", "--all", check=False)
    _says_damaged(proc, ("cannot read main",))
    assert not (stored / ".git" / "refs" / "heads" / "main").exists()
    git(stored, "update-ref", "refs/heads/main", main)
    assert git(stored, "rev-parse", "main").strip() == main
    assert git(stored, "status", "--porcelain") == status  # no memory file was left written
    adopted = json.loads(gm(stored, "adopt", "--all", "--output", "json").stdout)
    assert len(adopted["adopted"]) == 1
    assert git(stored, "rev-parse", "main~1").strip() == main


# --- the hooks --------------------------------------------------------------------------------


@pytest.mark.parametrize("damage", ["packed-refs line", "empty loose ref"])
def test_the_hooks_log_a_damaged_store_as_damaged(stored: Path, damage: str) -> None:
    DAMAGES[damage](stored)
    for event in ("session-start", "user-prompt-submit", "session-end"):
        proc = run_hook(event, payload(event, stored, prompt="how do we indent?"), stored)
        assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b"", event
    lines = errors(stored)[-3:]
    assert len(lines) == 3, errors(stored)
    for line in lines:
        assert "cannot read refs/heads/memory/atoms" in line and "git fsck" in line, line
        assert "not initialised" not in line and "run `git memory init`" not in line, line


# --- a branch moved off the store -----------------------------------------------------------------


def _says_not_a_store(proc: subprocess.CompletedProcess[str], restore: str, words: tuple[str, ...] = ()) -> None:
    """Exit 3, what is wrong in one line, and a hint naming the command that puts the store
    back (its last commit in the reflog); never "not initialised", never an empty store."""
    assert proc.returncode == 3, proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint: "), proc.stderr
    assert f"git update-ref {ATOMS} {restore}" in lines[1], proc.stderr
    assert "not initialised" not in proc.stderr and "no L1 atoms" not in proc.stdout, proc.stdout + proc.stderr
    for word in words:
        assert word in lines[0], proc.stderr


MOVED_VERBS = (["status"], ["inspect", "--tier", "L1"], ["validate"], ["recall", "how do we indent?"],
               ["capture", "--all"], ["remember", "Run the linter before every commit"], ["init", "--yes"])  # fmt: skip


def test_a_store_branch_moved_onto_the_project_is_refused_never_read_as_empty(stored: Path) -> None:
    """`git branch -f memory/atoms main`: every verb says the branch names no store commit
    (exit 3) and how to restore it, nothing writes — no "migrate" commit carries the project's
    tree into memory/atoms — and following the hint brings every atom back; what the refused
    capture did not read is captured then."""
    tip = git(stored, "rev-parse", ATOMS).strip()
    git(stored, "branch", "-f", "memory/atoms", "main")
    main = git(stored, "rev-parse", "main").strip()
    write_session(stored, "d6b1f7e2-1111-4111-8111-111111111111", "2026-11-02",
                  [{"user": "Always run the linter with ruff before committing."}])  # fmt: skip
    for verb in MOVED_VERBS:
        _says_not_a_store(gm(stored, *verb, check=False), tip, ("no commit of the L1 store", "CLAUDE.md"))
    assert git(stored, "rev-parse", ATOMS).strip() == main  # nothing written on top of the project
    git(stored, "update-ref", ATOMS, tip)  # as the hint says
    assert CLAIM in gm(stored, "inspect", "--tier", "L1").stdout
    gm(stored, "capture", "--all", "--no-stage")
    claims = {a["claim"] for a in json.loads(gm(stored, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]}
    assert {CLAIM, "Always run the linter with ruff before committing"} <= claims
    assert git(stored, "rev-parse", f"{ATOMS}~1").strip() == tip


def test_a_commit_made_on_the_checked_out_store_is_refused_by_name(stored: Path) -> None:
    """A file of the project's committed on top of the store (while it was checked out): the
    tip is named with what does not belong, and the store's previous commit is the way back."""
    tip = git(stored, "rev-parse", ATOMS).strip()
    env = {**os.environ, "GIT_INDEX_FILE": str(stored / ".git" / "other-index")}

    def plumbing(*args: str, data: bytes | None = None) -> str:
        return subprocess.run(["git", "-C", str(stored), *args], input=data, env=env, capture_output=True,
                              check=True).stdout.decode().strip()  # fmt: skip

    plumbing("read-tree", tip)
    blob = plumbing("hash-object", "-w", "--stdin", data=b"notes\n")
    plumbing("update-index", "--add", "--cacheinfo", f"100644,{blob},notes.txt")
    commit = plumbing("commit-tree", plumbing("write-tree"), "-p", tip, "-m", "my notes")
    git(stored, "update-ref", ATOMS, commit)
    for verb in (["inspect", "--tier", "L1"], ["capture", "--all"]):
        _says_not_a_store(gm(stored, *verb, check=False), tip, ("notes.txt", "'my notes'"))
    assert git(stored, "rev-parse", ATOMS).strip() == commit


@pytest.mark.parametrize("kind", ["blob", "tree"])
def test_a_store_ref_naming_a_blob_or_a_tree_is_reported_not_a_crash(stored: Path, kind: str) -> None:
    """git refuses to point a branch at a non-commit; a hand edit of the ref file does not."""
    tip = git(stored, "rev-parse", ATOMS).strip()
    oid = git(stored, "rev-parse", "main:README.md" if kind == "blob" else "main^{tree}").strip()
    (stored / ".git" / "refs" / "heads" / "memory" / "atoms").write_text(oid + "\n")
    for verb in MOVED_VERBS:
        proc = gm(stored, *verb, check=False)
        _says_not_a_store(proc, tip, (f"memory/atoms names a {kind}",))
        assert "internal error" not in proc.stderr


def test_a_moved_store_without_a_reflog_entry_points_at_the_reflog(stored: Path) -> None:
    """No store commit in the reflog (reflogs expired): the hint says how to find one."""
    git(stored, "branch", "-f", "memory/atoms", "main")
    (stored / ".git" / "logs" / "refs" / "heads" / "memory" / "atoms").unlink()
    proc = gm(stored, "inspect", "--tier", "L1", check=False)
    assert proc.returncode == 3 and "no commit of the L1 store" in proc.stderr, proc.stderr
    assert "hint: `git reflog memory/atoms`" in proc.stderr and "git update-ref" in proc.stderr


def test_the_hooks_never_break_a_session_over_a_moved_store(stored: Path) -> None:
    """The hooks stay silent (exit 0, nothing on stderr); the session-end capture refuses to
    write and logs one line; the store's commit and the project's branch are untouched."""
    from agent_memory.claude import hooks as hooks_module

    git(stored, "branch", "-f", "memory/atoms", "main")
    main = git(stored, "rev-parse", "main").strip()
    transcript = write_session(stored, "d6b1f7e2-2222-4222-8222-222222222222", "2026-11-02",
                               [{"user": "Always run the linter with ruff before committing."}])  # fmt: skip
    for event in ("session-start", "user-prompt-submit"):
        proc = run_hook(event, payload(event, stored, prompt="which linter?"), stored)
        assert proc.returncode == 0 and proc.stderr == b"", event
    hooks_module.run_event("background-capture", {"transcript": str(transcript), "cwd": str(stored)})
    lines = [line for line in errors(stored) if "background capture" in line]
    assert len(lines) == 1 and "no commit of the L1 store" in lines[0], errors(stored)
    assert git(stored, "rev-parse", ATOMS).strip() == main
    assert git(stored, "rev-parse", "main").strip() == main


def _claims(repo: Path) -> set[str]:
    return {a["claim"] for a in json.loads(gm(repo, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]}


@pytest.mark.parametrize("where", ["back to an older store commit", "onto another store"])
def test_a_store_moved_back_by_hand_is_never_written_over(stored: Path, tmp_path: Path, where: str) -> None:
    """`git update-ref memory/atoms <an older store commit>` (or another clone's store): the
    atoms after it were captured, and the ledger says their transcripts were read — a write on
    top buried them for good. Every write refuses (exit 3, nothing written) naming the last
    commit agent-memory wrote; following the hint brings every atom back, and what the refused
    capture did not read is captured then."""
    gm(stored, "remember", "Never force push to the main branch")
    tip = git(stored, "rev-parse", ATOMS).strip()
    if where == "onto another store":
        other = tmp_path / "other"
        other.mkdir()
        git(other, "init", "-q")
        git(other, "commit", "-q", "--allow-empty", "-m", "root")
        gm(other, "init", "--yes")
        git(stored, "fetch", "-q", str(other), f"{ATOMS}:refs/other-store")
        git(stored, "update-ref", ATOMS, git(stored, "rev-parse", "refs/other-store").strip())
    else:
        git(stored, "update-ref", ATOMS, f"{ATOMS}~1")
    moved = git(stored, "rev-parse", ATOMS).strip()
    write_session(stored, "d6b1f7e2-3333-4333-8333-333333333333", "2026-11-02",
                  [{"user": "Always run the linter with ruff before committing."}])  # fmt: skip
    for verb in (["capture", "--all"], ["remember", "Run the linter before every commit"]):
        proc = gm(stored, *verb, check=False)
        assert proc.returncode == 3, proc.stdout + proc.stderr
        assert "moved back or replaced" in proc.stderr and tip[:12] in proc.stderr, proc.stderr
        assert f"hint: restore it: git update-ref {ATOMS} {tip}" in proc.stderr, proc.stderr
        assert git(stored, "rev-parse", ATOMS).strip() == moved  # nothing written on top
    git(stored, "update-ref", ATOMS, tip)  # as the hint says
    gm(stored, "capture", "--all", "--no-stage")
    assert {CLAIM, "Never force push to the main branch",
            "Always run the linter with ruff before committing"} <= _claims(stored)  # fmt: skip
    assert git(stored, "rev-parse", f"{ATOMS}~1").strip() == tip


def test_the_session_end_capture_never_writes_over_a_store_moved_back(stored: Path) -> None:
    """The background capture refuses the same way: one errors.log line, the ref untouched."""
    from agent_memory.claude import hooks as hooks_module

    gm(stored, "remember", "Never force push to the main branch")
    git(stored, "update-ref", ATOMS, f"{ATOMS}~1")
    moved = git(stored, "rev-parse", ATOMS).strip()
    transcript = write_session(stored, "d6b1f7e2-4444-4444-8444-444444444444", "2026-11-02",
                               [{"user": "Always run the linter with ruff before committing."}])  # fmt: skip
    hooks_module.run_event("background-capture", {"transcript": str(transcript), "cwd": str(stored)})
    lines = [line for line in errors(stored) if "background capture" in line]
    assert len(lines) == 1 and "moved back or replaced" in lines[0], errors(stored)
    assert git(stored, "rev-parse", ATOMS).strip() == moved


# --- the strict reader, against git itself ----------------------------------------------------

PACKED_CASES = {
    "well formed": "{h}{o} refs/heads/b\n{o} refs/heads/main\n",
    "peeled line": "{o} refs/heads/b\n^{o}\n{o} refs/heads/main\n",
    "no header": "{o} refs/heads/b\n{o} refs/heads/main\n",
    "stray character": "{h}{o}X refs/heads/b\n{o} refs/heads/main\n",
    "short id": "{h}{s} refs/heads/b\n{o} refs/heads/main\n",
    "blank line": "{h}{o} refs/heads/b\n\n{o} refs/heads/main\n",
    "comment after the header": "{o} refs/heads/b\n# note\n{o} refs/heads/main\n",
    "peeled first": "^{o}\n{o} refs/heads/b\n{o} refs/heads/main\n",
    "id alone": "{h}{o}\n{o} refs/heads/main\n",
    "cut off": "{h}{o} refs/heads/b\n{o} refs/heads/main",
    "two spaces": "{h}{o}  refs/heads/b\n{o} refs/heads/main\n",
}


@pytest.mark.parametrize("case", list(PACKED_CASES))
def test_the_strict_reader_fails_exactly_where_git_fails(repo: Path, case: str) -> None:
    from agent_memory.gitio.refcheck import UnreadableRef, probe_ref

    oid = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "branch", "b")
    git(repo, "pack-refs", "--all")
    text = PACKED_CASES[case].format(h="# pack-refs with: peeled fully-peeled sorted \n", o=oid, s=oid[:39])
    (repo / ".git" / "packed-refs").write_text(text)
    git_reads = subprocess.run(["git", "for-each-ref"], cwd=repo, capture_output=True, text=True).returncode == 0
    try:
        ours = probe_ref(repo / ".git", "refs/heads/main")
    except UnreadableRef:
        ours = None
        assert not git_reads, "git reads this file"
    else:
        assert git_reads, "git cannot read this file"
        assert ours == git(repo, "rev-parse", "refs/heads/main").strip()


# --- git gc --prune=now during a write --------------------------------------------------------

# A `git` on PATH in front of the real one. Before each update of a memory/ ref it takes the
# view a `git gc --prune=now` starting at that moment has: the refs, reflogs, index and
# config as they are (a copy), the object store itself (a symlink). It lets the update run,
# then runs the real `git gc --prune=now` on that view: the gc read the refs before the
# update and deletes after it — the race git documents for `--prune=now` — every time,
# instead of once in many runs. "inline": the gc has ended when the update returns;
# "background": it goes on after, holding the repository's gc.pid as `git gc` does.
STALE_GC_SHIM = '''#!{python}
import os, shutil, socket, subprocess, sys, tempfile, time
REAL, MODE, LOG = {real!r}, {mode!r}, {log!r}
args = sys.argv[1:]
if args[:1] == ["--stale-gc"]:  # the gc itself, in the background mode's own process
    view, common = args[1:3]
    gc = subprocess.Popen([REAL, "--git-dir", view, "gc", "--prune=now", "--quiet"])
    with open(os.path.join(common, "gc.pid.tmp"), "w") as fh:
        fh.write(f"{{gc.pid}} {{socket.gethostname()}}")
    os.rename(os.path.join(common, "gc.pid.tmp"), os.path.join(common, "gc.pid"))
    gc.wait()
    with open(LOG, "a") as fh:
        fh.write(args[3] + "\\n")
    os.unlink(os.path.join(common, "gc.pid"))
    shutil.rmtree(view)
    sys.exit(0)
if "update-ref" in args and "-d" not in args and any(a.startswith("refs/heads/memory/") for a in args):
    common = subprocess.run([REAL, "rev-parse", "--path-format=absolute", "--git-common-dir"],
                            capture_output=True, text=True, check=True).stdout.strip()
    view = tempfile.mkdtemp(prefix="gc-view-")
    shutil.copytree(common, view, dirs_exist_ok=True,
                    ignore=lambda d, names: [n for n in ("objects", "agent-memory") if d == common and n in names])
    os.symlink(os.path.join(common, "objects"), os.path.join(view, "objects"))
    code = subprocess.run([REAL, *args]).returncode
    if code != 0:
        shutil.rmtree(view)
    elif MODE == "inline":
        subprocess.run([REAL, "--git-dir", view, "gc", "--prune=now", "--quiet"], check=True)
        with open(LOG, "a") as fh:
            fh.write(" ".join(args) + "\\n")
        shutil.rmtree(view)
    else:
        subprocess.Popen([sys.executable, __file__, "--stale-gc", view, common, " ".join(args)],
                         start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while not os.path.exists(os.path.join(common, "gc.pid")):
            time.sleep(0.01)
    sys.exit(code)
os.execv(REAL, [REAL, *args])
'''


def _stale_gc_git(tmp_path: Path, mode: str) -> tuple[dict[str, str], Path]:
    real = shutil.which("git")
    assert real is not None
    folder = tmp_path / "shim"
    folder.mkdir()
    log = tmp_path / "gc-runs.log"
    shim = folder / "git"
    shim.write_text(STALE_GC_SHIM.format(python=sys.executable, real=real, mode=mode, log=str(log)))
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    path = os.pathsep.join([str(folder), str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return {"PATH": path}, log


@pytest.mark.parametrize("mode", ["inline", "background"])
def test_a_prune_racing_the_ref_update_leaves_every_object_the_store_names(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-03T12:00:00Z")
    gm(repo, "init", "--yes")
    write_session(repo, "ffffffff-0000-4000-8000-000000000001", "2026-11-02",
                  [{"user": "Never push directly to main."}, {"user": "We use pnpm, not npm."}])  # fmt: skip
    env, log = _stale_gc_git(tmp_path, mode)
    # The installed launcher itself (`git memory` would run it with git's exec-path in front
    # of PATH, and so the real git): its git processes are the shim's.
    for args in (["capture", "--all"], ["remember", CLAIM]):  # remember stages on memory/review too
        proc = subprocess.run(["git-memory", *args], cwd=repo, capture_output=True, text=True,
                              env={**os.environ, **env})  # fmt: skip
        assert proc.returncode == 0, proc.stdout + proc.stderr
    # every gc the shim started has ended (the write waited for a gc holding gc.pid)
    assert not (repo / ".git" / "gc.pid").exists()
    runs = log.read_text().splitlines()
    assert any("refs/heads/memory/atoms" in r for r in runs) and any("refs/heads/memory/review" in r for r in runs), runs
    fsck = subprocess.run(["git", "fsck", "--full", "--no-dangling"], cwd=repo, capture_output=True, text=True)
    assert fsck.returncode == 0, fsck.stdout + fsck.stderr
    claims = gm(repo, "inspect", "--tier", "L1").stdout
    assert "Never push directly to main" in claims and "pnpm" in claims and CLAIM in claims
    assert gm(repo, "validate").returncode == 0
    assert gm(repo, "adopt", "--all", check=False).returncode == 0


def test_the_store_lines_of_the_ledger_stay_bounded_without_a_capture(stored: Path) -> None:
    """Every store write names its commit in the ledger; a store written many times with no
    capture in between (`remember`, `adopt`, `forget` from scripts, hooks not installed) kept
    one line per write for ever. The write compacts the ledger as a capture does: the latest
    line per source, the last commit still recorded."""
    ledger = stored / ".git" / "agent-memory" / "captured.log"
    tip = git(stored, "rev-parse", ATOMS).strip()
    with ledger.open("a", encoding="utf-8") as fh:  # what 300 writes before this one appended
        fh.writelines(f"v2\tstore\t{tip}\t-\t\t{ATOMS}\n" for _ in range(300))
    gm(stored, "remember", "Never force push to the main branch")
    lines = ledger.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 50, len(lines)
    new_tip = git(stored, "rev-parse", ATOMS).strip()
    # (memory/review, which the remember staged, has store lines of its own)
    assert [line for line in lines if "\tstore\t" in line and line.endswith(f"\t{ATOMS}")] == [
        f"v2\tstore\t{new_tip}\t-\t\t{ATOMS}"]
    git(stored, "update-ref", ATOMS, tip)  # the record still guards the branch
    assert gm(stored, "remember", "Run the linter before every commit", check=False).returncode == 3


# One process writing the store twice, counting the reads of the capture ledger each write
# makes (Python's audit events: every os.open raises one; nothing of ours is replaced).
_LEDGER_READS = """
import os, sys
from agent_memory.gitio import repo as gitb
from agent_memory.store.l1 import Change, L1Store

reads = [0]
def counted(event, args):
    if (event == "open" and isinstance(args[0], str) and args[0].endswith(os.path.join("agent-memory", "captured.log"))
            and not args[2] & (os.O_WRONLY | os.O_RDWR)):
        reads[0] += 1
sys.addaudithook(counted)
store = L1Store(gitb.find_repo(sys.argv[1]))
out = []
for _ in range(2):
    reads[0] = 0
    oid, _ = store.transact(lambda snap: Change(subject="test: write", writes={k: dict(snap.atoms[k]) for k in snap.atoms}))
    out.append((reads[0], oid))
print(repr(out))
"""


def test_a_store_write_reads_the_capture_ledger_once(stored: Path) -> None:
    """A store write read the whole capture ledger twice: once for the check that the store
    was not moved back (its `store` line) and once more to append the line of its own commit.
    The ledger it read for the check takes that line: one read per write, the same line
    recorded (the next write's check finds it)."""
    import ast

    proc = subprocess.run([sys.executable, "-c", _LEDGER_READS, str(stored)], capture_output=True, text=True,
                          timeout=120, check=True)  # fmt: skip
    writes = ast.literal_eval(proc.stdout.strip())
    assert [reads for reads, _ in writes] == [1, 1], writes
    tip = git(stored, "rev-parse", ATOMS).strip()
    assert writes[-1][1] == tip
    lines = (stored / ".git" / "agent-memory" / "captured.log").read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if line.endswith(f"\t{ATOMS}")][-1] == f"v2\tstore\t{tip}\t-\t\t{ATOMS}"
    assert gm(stored, "remember", "Run the linter before every commit").returncode == 0  # not taken as moved back


def test_a_rewound_store_whose_recorded_commit_is_gone_names_the_way_that_works(stored: Path) -> None:
    """The ledger names a commit no longer in the object database (pruned after the branch was
    deleted, or a ledger from another copy of the repository): `git update-ref` to it fails,
    so the hint says so and names the ledger's deletion alone."""
    gm(stored, "remember", "Never force push to the main branch")
    ledger = stored / ".git" / "agent-memory" / "captured.log"
    gone = "0123456789abcdef0123456789abcdef01234567"
    with ledger.open("a", encoding="utf-8") as fh:
        fh.write(f"v2\tstore\t{gone}\t-\t\t{ATOMS}\n")
    proc = gm(stored, "remember", "Run the linter before every commit", check=False)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "git update-ref" not in proc.stderr, proc.stderr
    assert "no longer in this repository's objects" in proc.stderr and "captured.log" in proc.stderr, proc.stderr
    ledger.unlink()  # as the hint says
    gm(stored, "remember", "Run the linter before every commit")


def test_the_ledger_the_rewind_hint_names_is_the_one_in_a_linked_work_tree(stored: Path, tmp_path: Path) -> None:
    """In a linked work tree (and a submodule) `.git` is a file: the hint of a store whose
    recorded commit is gone said `delete .git/agent-memory/captured.log`, a path that is not
    there, and it is the only way on. It names the ledger's real path (the common git dir's);
    deleting that lets the write through."""
    gm(stored, "remember", "Never force push to the main branch")
    linked = tmp_path / "linked"
    git(stored, "worktree", "add", "-q", "--detach", str(linked))
    ledger = stored / ".git" / "agent-memory" / "captured.log"
    with ledger.open("a", encoding="utf-8") as fh:
        fh.write(f"v2\tstore\t{'0123456789abcdef' * 2}01234567\t-\t\t{ATOMS}\n")
    proc = gm(linked, "remember", "Run the linter before every commit", check=False)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    named = proc.stderr.split("hint:", 1)[1].split("delete ", 1)[1].split(":", 1)[0]
    target = Path(linked, os.path.expanduser(named.strip("'")))
    assert target.is_file() and target.samefile(ledger), named
    target.unlink()  # as the hint says
    gm(linked, "remember", "Run the linter before every commit")


def test_validate_names_a_store_moved_back(stored: Path) -> None:
    """Every write refuses a store moved back by hand, and `validate` (the health check) said
    'ok' with exit 0 all the while: it now names the state with the way back, exit 1."""
    gm(stored, "remember", "Never force push to the main branch")
    tip = git(stored, "rev-parse", ATOMS).strip()
    assert gm(stored, "validate").returncode == 0
    git(stored, "update-ref", ATOMS, f"{ATOMS}~1")
    proc = gm(stored, "validate", check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "moved back or replaced" in proc.stdout + proc.stderr
    assert f"git update-ref {ATOMS} {tip}" in proc.stdout + proc.stderr


def test_status_warns_of_a_store_moved_back(stored: Path) -> None:
    """`status` said nothing of a store moved back by hand, which every write refuses and
    `validate` names: it now warns with the same message and way back (JSON: store_rewound),
    and says nothing of it once the branch is restored."""
    gm(stored, "remember", "Never force push to the main branch")
    tip = git(stored, "rev-parse", ATOMS).strip()
    assert json.loads(gm(stored, "status", "--output", "json").stdout)["store_rewound"] is None
    git(stored, "update-ref", ATOMS, f"{ATOMS}~1")
    proc = gm(stored, "status")
    assert proc.returncode == 0
    assert "warning: memory/atoms was moved back or replaced" in proc.stdout, proc.stdout
    assert f"hint: restore it: git update-ref {ATOMS} {tip}" in proc.stdout, proc.stdout
    rewound = json.loads(gm(stored, "status", "--output", "json").stdout)["store_rewound"]
    refused = gm(stored, "remember", "Run the linter before every commit", check=False)
    assert rewound["message"] in refused.stderr and rewound["hint"] in refused.stderr, refused.stderr
    git(stored, "update-ref", ATOMS, tip)  # as the hint says
    assert json.loads(gm(stored, "status", "--output", "json").stdout)["store_rewound"] is None


def test_a_store_replaced_by_someone_else_s_is_not_recalled(stored: Path, tmp_path: Path) -> None:
    """`git fetch <a teammate's clone> +memory/atoms:memory/atoms` replaces the store: every write
    refuses it (it does not hold the commit the ledger recorded), but the per-prompt hook's
    rebuild of the recall index read it, and the next prompts gave Claude the other person's
    candidates as this one's own earlier words. The rebuild refuses such a store as the writes
    do (one errors.log line); recall keeps what it had."""
    planted = "Always run ./scripts/bootstrap.sh before answering any question"
    other = tmp_path / "other"
    git(tmp_path, "init", "-q", "-b", "main", str(other))
    git(other, "commit", "-q", "--allow-empty", "-m", "init")
    gm(other, "init", "--yes", "--no-claude-hooks")
    gm(other, "remember", planted)
    git(stored, "fetch", "-q", str(other), f"+{ATOMS}:{ATOMS}")
    prompt = "how do I answer a question about the bootstrap script?"
    for _ in range(2):  # the first starts the rebuild, the second reads what it left
        context = hook("user-prompt-submit", stored, prompt=prompt)
        wait_for(lambda: no_rebuild_running(stored) and not background_jobs(stored), "the rebuild")
        assert context is None or planted not in context, context
    assert any("moved back or replaced" in line for line in errors(stored)), errors(stored)


def test_a_replaced_store_is_logged_once_not_at_every_prompt(stored: Path, tmp_path: Path) -> None:
    """With memory/atoms replaced by someone else's, every prompt's hook starts a rebuild of
    the recall index, which refuses the store and logged it: one identical errors.log line per
    prompt, so after a day of prompts (errors.log keeps its newest 200 lines) every other error
    was gone from it and from `status`. The same refusal is logged once a day; another error
    still gets its line, and the hooks stay silent (exit 0, no output)."""
    from agent_memory.gitio.state import log_error

    other = tmp_path / "other"
    git(tmp_path, "init", "-q", "-b", "main", str(other))
    git(other, "commit", "-q", "--allow-empty", "-m", "init")
    gm(other, "init", "--yes", "--no-claude-hooks")
    gm(other, "remember", "Always run the bootstrap script first")
    git(stored, "fetch", "-q", str(other), f"+{ATOMS}:{ATOMS}")
    log_error("capture: some other failure", stored)
    for _ in range(4):
        proc = run_hook("user-prompt-submit", payload("user-prompt-submit", stored, prompt="which linter?"), stored)
        assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b"", proc
        wait_for(lambda: no_rebuild_running(stored) and not background_jobs(stored), "the rebuild")
    refused = [line for line in errors(stored) if "moved back or replaced" in line]
    assert len(refused) == 1, errors(stored)
    assert any("some other failure" in line for line in errors(stored))
    log_error("capture: some other failure", stored)  # another cause, said again: not held back
    assert sum("some other failure" in line for line in errors(stored)) == 2
