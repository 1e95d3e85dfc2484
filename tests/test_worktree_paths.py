"""Where this clone lives never reaches committed memory: a path inside the repository's own
work tree is written relative to its top before an atom is written (redactor.redact), and the
commit guard refuses a memory line that still holds it (`worktree-path`), so a hand edit is
caught as well. The tests' repositories sit under tmp_path, outside the home folder (HOME is
a folder of its own): the home rules never saw such a path. Other absolute paths (`/usr/bin/env`,
`/etc/hosts`) stay as written. Through the real CLI, real git and the installed hooks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_installed, gm_json, write_session
from test_adopt import DAYS, NOW, SESSIONS

from agent_memory.model import checkout


@pytest.fixture
def project(initialized: Path) -> Path:
    return initialized


def test_a_claim_naming_a_path_of_this_checkout_is_committed_repo_relative(project: Path) -> None:
    top = str(project.resolve())
    claim = f"Always run {top}/scripts/check.sh before pushing"
    for session, day in zip(SESSIONS, DAYS, strict=True):
        write_session(project, session, day, [{"user": claim}])
    gm_installed(project, "capture", "--all", "--no-stage", env={"AGENT_MEMORY_NOW": NOW})
    atoms = gm_json(project, "inspect", "--tier", "L1", installed=True)["atoms"]
    (atom,) = [a for a in atoms if "check.sh" in a["claim"]]
    assert "scripts/check.sh" in atom["claim"]
    assert top not in json.dumps(atom)  # the claim and each evidence quote
    assert not atom["redacted"]  # nothing secret was removed: it may still be promoted
    staged = {c["atom"] for c in gm_json(project, "stage", installed=True, env={"AGENT_MEMORY_NOW": NOW})["commits"]}
    assert atom["id"] in staged
    gm_installed(project, "adopt", "--yes", atom["id"], env={"AGENT_MEMORY_NOW": NOW})
    block = (project / "CLAUDE.memory.md").read_text()
    assert "scripts/check.sh" in block and top not in block
    assert top not in (project / ".memory" / "adopted.log").read_text()


def test_the_background_capture_a_session_end_starts_writes_it_relative_too(project: Path) -> None:
    """The SessionEnd hook's detached capture runs in the git dir, never the work tree, and
    finds no repository of its own: it is handed the one its hook resolved (`--git-dir`,
    `--cwd`), and that checkout's place with it."""
    top = str(project.resolve())
    transcript = write_session(project, SESSIONS[0], DAYS[0], [{"user": f"Always run {top}/scripts/check.sh before pushing"}])
    proc = subprocess.run(["git-memory", "hook", "background-capture", "--transcript", str(transcript),
                           "--git-dir", str(project / ".git"), "--cwd", top],
                          cwd=project / ".git", capture_output=True, text=True, env={**os.environ, "AGENT_MEMORY_NOW": NOW})  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (atom,) = [a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if "check.sh" in a["claim"]]
    assert "scripts/check.sh" in atom["claim"] and top not in json.dumps(atom)


def test_remember_writes_the_top_itself_as_a_dot_and_leaves_other_paths(project: Path) -> None:
    top = str(project.resolve())
    said = gm_json(project, "remember", f"Run make from {top} and keep /usr/bin/env in the shebang",
                   installed=True)  # fmt: skip
    atom = next(a for a in gm_json(project, "inspect", "--tier", "L1", installed=True)["atoms"]
                if a["id"] == said["id"])  # fmt: skip
    assert atom["claim"] == "Run make from . and keep /usr/bin/env in the shebang"


def test_the_guard_refuses_a_hand_written_line_that_names_this_checkout(project: Path) -> None:
    top = str(project.resolve())
    gm_json(project, "remember", "Use pnpm, not npm, for installs", installed=True)
    gm_installed(project, "adopt", "--all")
    block = project / "CLAUDE.memory.md"
    text = block.read_text()
    fine = text.replace("### Recent\n", "### Recent\n- Keep /etc/hosts and /usr/bin/env as they are\n")
    block.write_text(fine)
    git(project, "commit", "-q", "-am", "other absolute paths are fine")
    block.write_text(fine.replace("### Recent\n", f"### Recent\n- The failing test is {top}/src/x.py\n"))
    git(project, "add", "CLAUDE.memory.md")
    proc = gm_installed(project, "scan", "--staged", check=False)
    assert proc.returncode != 0
    assert "CLAUDE.memory.md:6: worktree-path" in proc.stdout + proc.stderr
    assert "hint:" in proc.stderr
    # the installed pre-commit hook refuses the commit with it
    before = git(project, "rev-parse", "HEAD")
    commit = git(project, "commit", "-q", "-m", "hand edit", check=False)
    assert git(project, "rev-parse", "HEAD") == before, commit


def test_only_paths_of_this_checkout_are_rewritten(tmp_path: Path) -> None:
    top = tmp_path / "srv" / "app"
    try:
        checkout.set_work_tree(top)
        t = str(top)
        assert checkout.repo_relative(f"run {t}/scripts/check.sh.") == "run scripts/check.sh."
        assert checkout.repo_relative(f"cd {t} && make") == "cd . && make"
        assert checkout.repo_relative(f"`{t}/` is clean") == "`./` is clean"
        for other in (f"{t}2/x", f"{t}.old/x", f"/mnt{t}/x", "/usr/bin/env", "/etc/hosts", f"~{t}"):
            assert checkout.repo_relative(other) == other
        checkout.set_work_tree(None)  # a bare repository: no checkout
        assert checkout.repo_relative(f"{t}/x") == f"{t}/x"
    finally:
        checkout.clear_work_tree()


def test_inprocess_calls_hold_no_checkout_between_them(project: Path) -> None:
    gm(project, "status")
    assert checkout.work_tree_forms() == ()


def _adopted_before(project: Path, claim_of: Callable[[Path], str]) -> tuple[Path, str]:
    """A repository whose committed memory holds a claim naming its own checkout absolute, as
    the version before a path inside the checkout was written relative adopted it: the claim
    names the place the repository is moved to afterwards (for the CLI that adopts it, another
    folder), then the repository is moved there."""
    there = project.parent / "moved-here"
    said = gm_json(project, "remember", claim_of(there.resolve()), installed=True)
    gm_installed(project, "adopt", "--all")
    assert str(there.resolve()) in (project / "CLAUDE.memory.md").read_text()
    shutil.move(project, there)
    return there, said["id"]


def test_an_item_adopted_naming_this_checkout_before_the_upgrade_is_kept_and_shown_relative(project: Path) -> None:
    """Before the upgrade nothing wrote such a path relative: the item is held, the block is
    re-rendered with it relative, and every memory commit still passes — never a repository
    no adopt can commit in, never an item `validate --fix` forgets."""
    project, ident = _adopted_before(project, lambda top: f"Always run {top}/scripts/check.sh before pushing")
    top = str(project.resolve())
    status = gm_json(project, "status", installed=True)
    assert status["L2"]["refused_by_guard"] == {}
    start = subprocess.run(["git-memory", "hook", "session-start"], cwd=project, capture_output=True, text=True,
                           input=json.dumps({"session_id": "s", "cwd": top, "hook_event_name": "SessionStart",
                                             "source": "startup"}))  # fmt: skip
    assert "- Always run scripts/check.sh before pushing" in start.stdout
    # another item adopted: the re-rendered block passes the commit guard
    gm_json(project, "remember", "Use pnpm, not npm, for installs", installed=True)
    gm_installed(project, "adopt", "--all")
    block = (project / "CLAUDE.memory.md").read_text()
    assert "- Always run scripts/check.sh before pushing" in block and top not in block
    assert git(project, "status", "--porcelain", "--", "CLAUDE.memory.md", ".memory") == ""
    assert "ok" in gm_installed(project, "validate", "--fix").stdout
    held = {a["id"] for a in gm_json(project, "inspect", "--tier", "L2", installed=True)["atoms"]}
    assert ident in held


def test_validate_fix_writes_a_block_rendered_before_the_upgrade_relative(project: Path) -> None:
    project, ident = _adopted_before(project, lambda top: f"The entry point is {top}/src/main.py")
    before = gm_installed(project, "validate", check=False)
    assert before.returncode != 0 and "worktree-path" in before.stdout
    fixed = gm_installed(project, "validate", "--fix").stdout
    git(project, "commit", "-q", "-am", "memory paths relative")
    assert "- The entry point is src/main.py" in (project / "CLAUDE.memory.md").read_text()
    assert "ok" in gm_installed(project, "validate").stdout
    assert ident in {a["id"] for a in gm_json(project, "inspect", "--tier", "L2", installed=True)["atoms"]}
    assert "writes it relative" in before.stdout and "relative" in fixed  # what the hint said it would do


def test_a_checkout_at_a_top_of_one_folder_is_no_place_of_this_clone() -> None:
    """A container's conventional checkout (`/app`, `/workspace`) names the image's folder:
    memory says `WORKDIR /app` for the Dockerfile, not for where this clone lives. Rewritten,
    the rule said nothing ("WORKDIR is ."); judged, the guard refused it."""
    from agent_memory.redact import guard

    try:
        for top in ("/app", "/workspace/"):
            checkout.set_work_tree(top)
            name = top.rstrip("/")
            for said in (f"WORKDIR is {name}", f"COPY . {name} in the Dockerfile", f"logs go to {name}/logs"):
                assert checkout.repo_relative(said) == said
                assert not guard.scan_text("CLAUDE.memory.md", f"- {said}\n")
        checkout.set_work_tree("/srv/app")  # two folders: this clone's place, as before
        assert checkout.repo_relative("run /srv/app/scripts/check.sh") == "run scripts/check.sh"
    finally:
        checkout.clear_work_tree()


def test_an_item_adopted_naming_this_checkout_before_the_upgrade_can_still_be_pinned(project: Path) -> None:
    """Its id hashes from the claim, so a pin line repeats the claim as adopted (absolute):
    the guard does not refuse a claim the log already held for that atom. A claim new to the
    log that names this checkout is refused as before."""
    project, ident = _adopted_before(project, lambda top: f"Always run {top}/scripts/check.sh before pushing")
    gm_installed(project, "pin", ident)
    gm_installed(project, "unpin", ident)
    assert git(project, "log", "-1", "--format=%s").strip() == "memory: unpin Always run scripts/check.sh before pushing"
    assert git(project, "status", "--porcelain", "--", ".memory") == ""
    log = project / ".memory" / "adopted.log"
    entry = json.loads(log.read_text().splitlines()[-1])
    entry["atom"]["claim"] = entry["atom"]["claim"].replace("check.sh", "lint.sh")
    log.write_text(log.read_text() + json.dumps(entry) + "\n")
    git(project, "add", ".memory/adopted.log")
    scan = gm_installed(project, "scan", "--staged", check=False)
    assert scan.returncode != 0 and "worktree-path" in scan.stdout + scan.stderr


def test_a_path_in_another_worktree_of_this_repository_is_written_relative_and_refused(project: Path) -> None:
    """`capture --all` reads the sessions of the repository's linked worktrees too: their
    places are this clone's as much as the main work tree's."""
    other = project.parent / "feature-wt"
    git(project, "worktree", "add", "-q", str(other), "-b", "feature")
    there = str(other.resolve())
    said = gm_json(project, "remember", f"The flaky test is {there}/tests/test_io.py", installed=True)
    atom = next(a for a in gm_json(project, "inspect", "--tier", "L1", installed=True)["atoms"] if a["id"] == said["id"])
    assert atom["claim"] == "The flaky test is tests/test_io.py"
    # and from the linked worktree, a line naming the main work tree is refused
    (other / "CLAUDE.memory.md").write_text(f"- Build in {project.resolve()}/build\n")
    scan = gm_installed(other, "scan", "CLAUDE.memory.md", check=False)
    assert scan.returncode != 0 and "worktree-path" in scan.stdout + scan.stderr


def test_a_candidate_captured_naming_this_checkout_before_the_upgrade_is_refused_with_what_to_do(project: Path) -> None:
    """Its id hashes from the absolute claim, so no commit of it passes the guard: adopt and
    stage say the command that says it again relative, and that one is adopted."""
    there = project.parent / "moved-here"
    said = gm_json(project, "remember", f"Never edit {there.resolve()}/vendor by hand", installed=True)
    shutil.move(project, there)
    project = there
    adopt = gm_installed(project, "adopt", "--all", check=False)
    assert adopt.returncode != 0
    again = "git memory remember 'Never edit vendor by hand'"
    assert again in adopt.stderr
    stage = gm_installed(project, "stage", check=False)
    assert again in stage.stdout + stage.stderr
    assert said["id"] in {a["id"] for a in gm_json(project, "inspect", "--tier", "L1", installed=True)["atoms"]}
    gm_installed(project, "remember", "Never edit vendor by hand")
    gm_installed(project, "adopt", "--all")
    assert "- Never edit vendor by hand" in (project / "CLAUDE.memory.md").read_text()


def test_a_repeated_claim_does_not_let_a_new_path_of_this_checkout_through_elsewhere_in_its_line(project: Path) -> None:
    """The claim a log line repeats for its atom is let through (an item adopted before the
    upgrade); a path of this checkout anywhere else in that line is new, and refused."""
    project, ident = _adopted_before(project, lambda top: f"Always run {top}/scripts/check.sh before pushing")
    gm_installed(project, "pin", ident)
    log = project / ".memory" / "adopted.log"
    entry = json.loads(log.read_text().splitlines()[-1])
    assert entry["atom"]["id"] == ident
    kept = log.read_text()
    entry["atom"]["source"] = f"{project.resolve()}/notes/where-it-was-said.md"
    log.write_text(kept + json.dumps(entry) + "\n")
    git(project, "add", ".memory/adopted.log")
    scan = gm_installed(project, "scan", "--staged", check=False)
    assert scan.returncode != 0 and "worktree-path" in scan.stdout + scan.stderr
    # a claim key said twice: the one read is held, the other is new
    line = json.dumps(json.loads(kept.splitlines()[-1])).replace(
        '"claim": ', f'"claim": "Build in {project.resolve()}/out", "claim": ', 1)
    log.write_text(kept + line + "\n")
    git(project, "add", ".memory/adopted.log")
    scan = gm_installed(project, "scan", "--staged", check=False)
    assert scan.returncode != 0 and "worktree-path" in scan.stdout + scan.stderr


def test_a_checkout_inside_a_home_folder_is_written_relative_not_redacted() -> None:
    """Most clones live under a home folder (`/home/bob/src/app`): the user name in the top was
    redacted first (`/home/[REDACTED:home-user]/src/app/…`), so the path was never written
    relative and the atom was marked redacted, kept from promotion. The top is cut whole, the
    user name with it; the user name elsewhere is still redacted."""
    from agent_memory.redact import guard
    from agent_memory.redact.redactor import find, redact

    try:
        checkout.set_work_tree("/home/bob/src/app")
        text, findings = redact("Always run /home/bob/src/app/scripts/check.sh before pushing")
        assert (text, findings) == ("Always run scripts/check.sh before pushing", [])
        assert not guard.scan_text("CLAUDE.memory.md", f"- {text}\n")
        text, findings = redact("Run /home/bob/src/app/x.sh, not /home/bob/old/x.sh")
        assert text.startswith("Run x.sh, not /home/") and "bob" not in text
        assert [f.rule for f in findings] == ["home-user"]
        assert find(text) == []
        # a line of this clone's own errors.log keeps its paths: the user name is redacted there
        assert "bob" not in redact("failed in /home/bob/src/app/x.sh", memory=False)[0]
    finally:
        checkout.clear_work_tree()


def test_a_block_rendered_before_literal_naming_this_checkout_is_no_hand_edit(project: Path) -> None:
    """The renderer before `render.literal` wrote a claim as `inert(one_line(claim))`, paths as
    said: a block it rendered is read as it is, not taken for a hand edit. `context_claim`
    stood for it, but now writes this checkout's paths relative, and no longer matched."""
    from agent_memory.committed import render
    from agent_memory.committed.files import TierFiles

    project, _ident = _adopted_before(project, lambda top: f"Never put <details> tags in {top}/docs/index.md")
    log = (project / ".memory" / "adopted.log").read_text()
    try:
        checkout.set_work_tree(project.resolve())
        files = TierFiles("L2", "CLAUDE.memory.md", log, "")
        atoms = list(files.held().values())
        old = render.render_block(atoms, "L2", shown=lambda c: render.inert(render.one_line(c))).text
        assert str(project.resolve()) in old and "<details>" in old
        assert not TierFiles("L2", "CLAUDE.memory.md", log, old).hand_edited()
    finally:
        checkout.clear_work_tree()


@pytest.mark.parametrize(("said", "written"), [
    # at the very start of a claim (no character before it)
    ("/srv/app/config.yml holds the settings", "config.yml holds the settings"),
    ("/srv/app is the checkout", ". is the checkout"),
    # as a file URL
    ("Open file:///srv/app/coverage/index.html for the report", "Open coverage/index.html for the report"),
])  # fmt: skip
def test_a_path_of_this_checkout_opening_the_claim_or_in_a_file_url_is_written_relative(said: str, written: str) -> None:
    """Left absolute, the claim's id hashed from the absolute form and the guard refused its
    line in the block: an item no adopt could ever commit."""
    from agent_memory.redact import guard

    try:
        checkout.set_work_tree("/srv/app")
        assert checkout.repo_relative(said) == written
        assert [f.rule for f in guard.scan_text("CLAUDE.memory.md", f"{said}\n")] == ["worktree-path"]
        assert not guard.scan_text("CLAUDE.memory.md", f"- {written}\n")
    finally:
        checkout.clear_work_tree()
