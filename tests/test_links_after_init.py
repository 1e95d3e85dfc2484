"""A `git pull` after `init` can bring in symbolic links where agent-memory writes committed
memory (`.memory -> ~/elsewhere`, `CLAUDE.memory.md -> ~/notes.md`, `CLAUDE.md -> AGENTS.md`
with memory.target=claude-md), in the project or in the global memory repo. `adopt` (batch and
interactive), the lifecycle verbs and `forget` refuse before their first write (one line naming
the link and where it points, a hint, exit 3), leaving the work tree, HEAD, memory/review and
memory/atoms as they were; the Claude Code hooks still exit 0 and write nothing through them
(`deinit`: tests/test_deinit_links.py). The links point at files under tmp_path (a stand-in
for the user's home), never the real home."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json
from test_adopt import Staged, finish, spawn_adopt, stage_claims

from agent_memory.adoption import intent
from agent_memory.committed.files import TierFiles
from agent_memory.gitio import repo as G
from agent_memory.model.errors import RepoStateError

NOTES = "# my own notes\n\nnothing of agent-memory's\n"
OUTSIDE_LOG = '{"not": "an adopted.log"}\n'


@pytest.fixture
def outside(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """make_outside next to the repository the test works in (the links it reads are
    ../victim-home/…): the project's folder when the test has one, else tmp_path (`repo`'s)."""
    if "project" in request.fixturenames:
        here = request.getfixturevalue("project").parent
    elif "staged" in request.fixturenames:
        here = request.getfixturevalue("staged")[0].parent
    else:
        here = tmp_path
    return make_outside(here)


def make_outside(tmp_path: Path) -> Path:
    """What the links point at: a stand-in for the user's home, outside every repository."""
    home = tmp_path / "victim-home"
    (home / "mem").mkdir(parents=True)
    (home / "notes.md").write_text(NOTES)
    (home / "mem" / "adopted.log").write_text(OUTSIDE_LOG)
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text('{"model": "opus"}\n')
    (home / "gitconfig").write_text("[user]\n\tname = Victim\n")
    return home


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _pull_links(project: Path, links: dict[str, Path]) -> None:
    """A teammate's commit that replaces (or adds) `links` (relative links, as a repository
    carries them), fast-forwarded into `project` with `git pull`."""
    upstream = project.parent / f"upstream-{len(list(project.parent.glob('upstream-*')))}"
    git(project.parent, "clone", "-q", str(project), str(upstream))
    for rel, target in links.items():
        where = upstream / rel
        if where.is_dir() and not where.is_symlink():
            shutil.rmtree(where)
        elif where.is_symlink() or where.exists():
            where.unlink()
        where.parent.mkdir(parents=True, exist_ok=True)
        where.symlink_to(os.path.relpath(target, (project / rel).parent))
    git(upstream, "add", "-A")
    git(upstream, "commit", "-q", "--no-verify", "-m", "share our notes")
    git(project, "pull", "-q", "--ff-only", str(upstream), "main")
    for rel in links:
        assert (project / rel).is_symlink()


def _copy_memory_files(project: Path, outside: Path) -> None:
    """The link targets hold copies of the memory files (a team sharing them from elsewhere):
    every check that reads them passes, so only the link check stands between adopt and them."""
    shutil.copy(project / "CLAUDE.memory.md", outside / "notes.md")
    shutil.copy(project / ".memory" / "adopted.log", outside / "mem" / "adopted.log")


def _refs(project: Path) -> dict[str, str]:
    return {ref: git(project, "rev-parse", ref).strip() for ref in ("HEAD", "memory/review", "memory/atoms")}


def _refusal(proc: subprocess.CompletedProcess[str], where: str = "the work tree") -> tuple[str, str]:
    assert proc.returncode == 3, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint:"), lines
    assert f"refusing to write through {where}: " in lines[0], lines[0]
    return lines[0], lines[1]


def _untouched(project: Path, refs: dict[str, str]) -> None:
    assert _refs(project) == refs
    assert git(project, "status", "--porcelain") == ""
    assert not (project / ".git" / "agent-memory" / intent.INTENT_NAME).exists()


# --- adopt ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("rel, target, shown", [
    ("CLAUDE.memory.md", "notes.md", "CLAUDE.memory.md is a symbolic link (to ../victim-home/notes.md)"),
    (".memory", "mem", ".memory is a symbolic link (to ../victim-home/mem)"),
    (".memory/adopted.log", "mem/adopted.log", ".memory/adopted.log is a symbolic link (to ../../victim-home/mem/adopted.log)"),
])  # fmt: skip
@pytest.mark.parametrize("flags", [["--all"], ["--yes", "push"], ["--reject", "push"]])
def test_adopt_refuses_a_link_a_pull_brought_in_and_changes_nothing(
    staged: Staged, outside: Path, rel: str, target: str, shown: str, flags: list[str]
) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["tabs"])  # the memory files exist and are committed
    _copy_memory_files(project, outside)  # what the links point at reads as agent-memory's own
    _pull_links(project, {rel: outside / target})
    before, refs = _snapshot(outside), _refs(project)
    waiting = [s["atom"] for s in gm_json(project, "status")["staged"]]
    args = [ids.get(f, f) for f in flags]
    message, hint = _refusal(gm(project, "adopt", *args, check=False))
    assert shown in message
    assert "nothing was adopted or rejected" in hint and "replace each with the real file" in hint
    assert _snapshot(outside) == before
    _untouched(project, refs)
    assert [s["atom"] for s in gm_json(project, "status")["staged"]] == waiting
    # once the link is replaced by the real file, adopt carries on
    (project / rel).unlink()
    git(project, "checkout", "HEAD~1", "--", rel)
    git(project, "commit", "-q", "-m", "the real file again")
    assert gm_json(project, "adopt", "--all")["adopted"]


def test_adopt_refuses_before_the_listing_and_the_interactive_walk(staged: Staged, outside: Path) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["tabs"])
    _pull_links(project, {"CLAUDE.memory.md": outside / "notes.md"})
    before, refs = _snapshot(outside), _refs(project)
    # no terminal, no flags: the listing is refused as well (it reads the same files)
    _refusal(gm(project, "adopt", check=False))
    child = spawn_adopt(project)  # a real terminal: refused before the first question
    assert finish(child) == 3
    shown = child.logfile_read.text()
    assert "CLAUDE.memory.md is a symbolic link" in shown and "What should happen" not in shown
    assert _snapshot(outside) == before
    _untouched(project, refs)


def test_with_memory_target_claude_md_a_claude_md_link_is_refused(project: Path) -> None:
    git(project, "config", "memory.target", "claude-md")
    ids = stage_claims(project)
    gm(project, "adopt", "--yes", ids["tabs"])
    agents = (project / "CLAUDE.md").read_text()
    (project / "AGENTS.md").write_text(agents)
    git(project, "add", "AGENTS.md")
    git(project, "commit", "-q", "-m", "one file for every agent")
    _pull_links(project, {"CLAUDE.md": project / "AGENTS.md"})
    refs = _refs(project)
    message, hint = _refusal(gm(project, "adopt", "--all", check=False))
    assert "CLAUDE.md is a symbolic link (to AGENTS.md)" in message
    assert "@AGENTS.md" in hint
    assert (project / "AGENTS.md").read_text() == agents
    _untouched(project, refs)


def test_a_memory_folder_made_a_file_is_refused_too(staged: Staged) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["tabs"])
    git(project, "rm", "-q", "-r", ".memory")
    (project / ".memory").write_text("another tool's notes\n")
    git(project, "add", ".memory")
    git(project, "commit", "-q", "--no-verify", "-m", "notes")
    refs = _refs(project)
    message, _ = _refusal(gm(project, "adopt", "--all", check=False))
    assert ".memory is not a folder" in message
    assert (project / ".memory").read_text() == "another tool's notes\n"
    _untouched(project, refs)


# --- the lifecycle verbs and forget ---------------------------------------------------------------


@pytest.mark.parametrize("verb", [["pin"], ["decay"], ["forget"]])
def test_lifecycle_verbs_refuse_before_writing_anything(staged: Staged, outside: Path, verb: list[str]) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["tabs"], ids["push"])
    _copy_memory_files(project, outside)
    _pull_links(project, {"CLAUDE.memory.md": outside / "notes.md"})
    before, refs = _snapshot(outside), _refs(project)
    message, hint = _refusal(gm(project, *verb, ids["tabs"], check=False))
    assert "CLAUDE.memory.md is a symbolic link" in message and "nothing was changed" in hint
    assert _snapshot(outside) == before
    _untouched(project, refs)  # forget: not tombstoned on memory/atoms either


def test_the_rollback_of_a_killed_adopt_is_not_written_through_a_link(staged: Staged, outside: Path) -> None:
    """A half-done memory commit is put back only through plain files."""
    project, ids = staged
    gm(project, "adopt", "--yes", ids["tabs"])
    repo = G.find_repo(project)
    before = TierFiles("L2", "CLAUDE.memory.md", (project / ".memory" / "adopted.log").read_text(),
                       (project / "CLAUDE.memory.md").read_text())  # fmt: skip
    after = TierFiles("L2", "CLAUDE.memory.md", before.log_text + "\n", before.target_text + "x\n")
    intent.begin(repo, G.head_commit(repo), "memory: adopt x", before, after,
                 {rel: True for rel in after.paths()})  # fmt: skip
    _pull_links(project, {".memory": outside / "mem"})
    snapshot = _snapshot(outside)
    with pytest.raises(RepoStateError, match=r"\.memory is a symbolic link"):
        intent.recover(repo)
    assert _snapshot(outside) == snapshot
    intent.end(repo)


# --- the global memory repo -----------------------------------------------------------------------


def _commit_link_in(root: Path, rel: str, target: Path) -> None:
    (root / rel).unlink()
    (root / rel).symlink_to(target)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "pulled from my other machine")


def test_adopt_global_refuses_a_link_in_the_global_repo(project: Path, outside: Path) -> None:
    home = Path(os.environ["AGENT_MEMORY_HOME"])
    staged = gm_json(project, "remember", "--global", "Prefer small, focused commits.")["staged"]
    assert staged
    _commit_link_in(home, "CLAUDE.memory.md", outside / "notes.md")
    before, head = _snapshot(outside), git(home, "rev-parse", "HEAD")
    review = git(home, "rev-parse", "memory/review")
    message, hint = _refusal(gm(project, "adopt", "--global", "--all", check=False),
                             where="the global memory repo (~/.claude/agent-memory)")  # fmt: skip
    assert "CLAUDE.memory.md is a symbolic link" in message and "~/.claude/agent-memory" in hint
    assert _snapshot(outside) == before
    assert git(home, "rev-parse", "HEAD") == head and git(home, "rev-parse", "memory/review") == review
    assert git(home, "status", "--porcelain") == ""


def test_init_refuses_a_link_in_the_global_repo_before_writing(repo: Path, outside: Path, tmp_path: Path) -> None:
    first = tmp_path / "first"
    first.mkdir()
    git(first, "init", "-q", "-b", "main")
    gm(first, "init", "--no-claude-hooks")
    home = Path(os.environ["AGENT_MEMORY_HOME"])
    _commit_link_in(home, "projects.json", outside / "notes.md")
    before = _snapshot(outside)
    message, hint = _refusal(gm(repo, "init", "--yes", check=False), where="the global memory repo (~/.claude/agent-memory)")
    assert "projects.json is a symbolic link" in message and "nothing was written" in hint
    assert _snapshot(outside) == before
    assert git(repo, "branch", "--list", "memory/atoms") == ""
    assert git(repo, "config", "--get", "memory.project", check=False) == ""
    assert git(repo, "status", "--porcelain") == ""


# --- the Claude Code hooks ------------------------------------------------------------------------


def test_the_hooks_still_exit_0_and_write_nothing_through_the_links(staged: Staged, outside: Path) -> None:
    project, ids = staged
    gm(project, "adopt", "--yes", ids["tabs"])
    _pull_links(project, {".memory": outside / "mem", "CLAUDE.memory.md": outside / "notes.md"})
    before, refs = _snapshot(outside), _refs(project)
    payload = json.dumps({"session_id": "s1", "cwd": str(project), "hook_event_name": "SessionStart",
                          "source": "startup"})  # fmt: skip
    start = gm(project, "hook", "session-start", input_text=payload, check=False)
    assert start.returncode == 0 and start.stderr == ""
    assert NOTES.splitlines()[2] not in start.stdout and "an adopted.log" not in start.stdout
    prompt = json.dumps({"session_id": "s1", "cwd": str(project), "prompt": "run the tests"})
    assert gm(project, "hook", "user-prompt-submit", input_text=prompt, check=False).returncode == 0
    transcript = next((Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects").rglob("*.jsonl"))
    capture = gm(project, "hook", "background-capture", "--transcript", str(transcript), "--cwd", str(project),
                 check=False)  # fmt: skip
    assert capture.returncode == 0 and capture.stdout == ""
    assert _snapshot(outside) == before
    assert git(project, "status", "--porcelain") == ""
    assert git(project, "rev-parse", "HEAD").strip() == refs["HEAD"]


# --- the last writer: a link swapped in after the check ------------------------------------------


def test_the_memory_file_writer_never_writes_through_a_link(project: Path, outside: Path) -> None:
    """adopt, the lifecycle verbs, forget, the roll-back of a killed adopt and validate --fix
    check for links before they write, and then wrote with a plain open that follows one: a
    link put in place between the check and the write (another process, a `git pull` in
    another terminal) was written through, out of the repository. The writer they all use now
    opens without following a link, and refuses what is not a regular file."""
    import sys

    from agent_memory.gitio.state import overwrite

    target = outside / "notes.md"
    target.write_text("my own notes\n")
    link = project / "CLAUDE.memory.md"
    link.unlink(missing_ok=True)
    link.symlink_to(target)
    with pytest.raises(OSError):
        overwrite(link, b"memory block\n")
    assert target.read_text() == "my own notes\n" and link.is_symlink()

    fifo = project / ".memory" / "adopted.log"
    fifo.parent.mkdir(exist_ok=True)
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    code = f"from pathlib import Path; from agent_memory.gitio.state import overwrite; overwrite(Path({str(fifo)!r}), b'x')"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20)
    assert proc.returncode != 0 and "OSError" in proc.stderr, proc.stderr  # not blocked for ever


def test_the_registry_and_deinit_writers_never_write_through_a_link(
    project: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """init's registration, deinit's unregistration and its edits of CLAUDE.md, .gitignore and
    .gitattributes check for a link and then read and wrote with opens that follow one: a link
    swapped in between the check and the write (a `git pull` of the global memory repo in
    another terminal) was written through. Each now opens without following a link and
    refuses what is not a regular file (gitio.state.overwrite, tiers.read_inside)."""
    from agent_memory.committed import uninstall
    from agent_memory.committed.global_repo import REGISTRY, GlobalRepo
    from agent_memory.committed.worktree import refuse_odd_paths

    home = GlobalRepo.default()
    registry = home.path / REGISTRY
    assert registry.is_file()
    (outside / REGISTRY).write_text(registry.read_text())
    swaps = {registry: outside / REGISTRY}
    for name in ("CLAUDE.md", ".gitignore", ".gitattributes"):
        assert (project / name).is_file(), name
        (outside / name).write_text((project / name).read_text())
        swaps[project / name] = outside / name
    before = _snapshot(outside)

    def swap(path: Path) -> None:  # what lands right after the check
        path.unlink()
        path.symlink_to(swaps[path])

    real_refuse = GlobalRepo.refuse_links

    def check_then_swap(self: GlobalRepo, files: tuple[str, ...] = (".gitattributes", REGISTRY),
                        outcome: str = "nothing was written") -> None:
        real_refuse(self, files, outcome)
        if not registry.is_symlink():
            swap(registry)

    def odd_then_swap(root: Path, rels: list[str], **kwargs: str) -> None:
        refuse_odd_paths(root, rels, **kwargs)
        for rel in rels:
            if (root / rel) in swaps and not (root / rel).is_symlink():
                swap(root / rel)

    monkeypatch.setattr(GlobalRepo, "refuse_links", check_then_swap)
    monkeypatch.setattr(uninstall, "refuse_odd_paths", odd_then_swap)
    with pytest.raises(OSError):
        home.register("another", outside)  # a project not registered yet: the registry is rewritten
    registry.unlink()
    git(home.path, "checkout", "--", REGISTRY)
    with pytest.raises(OSError):
        uninstall.unregister(home, project)
    with pytest.raises(OSError):
        uninstall.remove_import(project)
    for name, line, header in ((".gitignore", uninstall.GITIGNORE_LINES, uninstall.IGNORE_HEADER),
                               (".gitattributes", (uninstall.GITATTRIBUTES_LINE,), uninstall.ATTRIBUTES_HEADER)):
        with pytest.raises(OSError):
            uninstall._remove_lines(project / name, line, header)
    from agent_memory.committed.install import ensure_lines

    with pytest.raises(OSError):  # init's (and the global repo's) appender: .gitattributes is a link now
        ensure_lines(project / ".gitattributes", ["*.bin binary"])
    assert _snapshot(outside) == before
