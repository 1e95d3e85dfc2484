"""Teammates sharing L2 through a real bare remote: clones with their own HOME,
CLAUDE_CONFIG_DIR and global memory repo, real `git` commits, pulls and merges through the
installed hooks. What each person's verbs say after a teammate's memory commit arrives."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from golden import Golden
from sessions import gm, gm_json

from agent_memory.committed import adopted_log
from agent_memory.model.atom import atom_id

BLOCK_END = "<!-- agent-memory:end L2 -->"


def person_env(tmp_path: Path, who: str) -> dict[str, str]:
    home = tmp_path / f"home-{who}"
    home.mkdir(exist_ok=True)
    (home / ".gitconfig").write_text(
        f"[init]\n\tdefaultBranch = main\n[user]\n\tname = {who}\n\temail = {who}@example.invalid\n"
    )
    return {
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "AGENT_MEMORY_HOME": str(home / ".claude" / "agent-memory"),
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
    }


def run_git(repo: Path, *args: str, env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          env={**os.environ, **env}, check=False)  # fmt: skip
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc


class Team:
    """A bare remote, Alice's repository (set up with `git memory init --yes`, pushed) and
    clones of it in folders of the same name, each person with their own home."""

    def __init__(self, tmp_path: Path, *, set_up: bool = True) -> None:
        """`set_up` False: the team already set up in `tmp_path` (a copy of one, golden.py)."""
        self.tmp = tmp_path
        self.remote = tmp_path / "proj.git"  # named as the project, as a forge names it
        self.env: dict[Path, dict[str, str]] = {}
        alice_env = person_env(tmp_path, "alice")
        self.alice = tmp_path / "alice" / "proj"
        self.env[self.alice] = alice_env
        if not set_up:
            return
        run_git(tmp_path, "init", "-q", "--bare", "-b", "main", str(self.remote), env=alice_env)
        self.alice.mkdir(parents=True)
        self.git(self.alice, "init", "-q", "-b", "main")
        (self.alice / "README.md").write_text("# proj\n")
        self.git(self.alice, "add", "README.md")
        self.git(self.alice, "commit", "-q", "-m", "initial")
        self.gm(self.alice, "init", "--yes")
        self.git(self.alice, "remote", "add", "origin", str(self.remote))
        self.git(self.alice, "push", "-q", "-u", "origin", "main")

    def clone(self, who: str, *, init: bool = True) -> Path:
        env = person_env(self.tmp, who)
        path = self.tmp / who / "proj"
        path.parent.mkdir()
        run_git(self.tmp, "clone", "-q", str(self.remote), str(path), env=env)
        self.env[path] = env
        if init:
            self.gm(path, "init", "--yes")
        return path

    def git(self, repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return run_git(repo, *args, env=self.env[repo], check=check)

    def gm(self, repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return gm(repo, *args, check=check, env=self.env[repo])

    def gm_json(self, repo: Path, *args: str, check: bool = True) -> Any:
        return gm_json(repo, *args, check=check, env=self.env[repo])

    def adopt_new(self, repo: Path, claim: str) -> str:
        ident: str = self.gm_json(repo, "remember", claim)["id"]
        self.gm(repo, "adopt", "--yes", ident)
        return ident


@pytest.fixture(scope="module")
def team_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[bool]:
    return Golden(tmp_path_factory.mktemp("team"))


@pytest.fixture
def team(team_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Team:
    """The remote and Alice's repository, set up once per module (the same commands for every
    test); each test gets its own copy of the remote, the repository and Alice's home, at the
    paths they were set up at (golden.py)."""
    base, _ = team_golden.use(isolated_env, monkeypatch, lambda base: Team(base) is not None)
    return Team(base, set_up=False)


def hand_adopted(repo: Path, claim: str, at: str, **atom: Any) -> str:
    """Append a hand-made adopt line (a copy of the log's first, with `claim`) and its block
    line, as a teammate's editor would; returns the id it claims."""
    log = repo / ".memory" / "adopted.log"
    entry = json.loads(log.read_text().splitlines()[0])
    ident = atom.pop("id", atom_id(claim, "proj"))
    entry["atom"].update(claim=claim, id=ident, **atom)
    entry["atom"] = {k: v for k, v in entry["atom"].items() if v is not None}  # None: leave the key out
    entry["at"] = at
    with log.open("a") as fh:
        fh.write(json.dumps(entry, sort_keys=True, separators=(",", ":")) + "\n")
    block = repo / "CLAUDE.memory.md"
    block.write_text(block.read_text().replace(BLOCK_END, f"- {claim}\n{BLOCK_END}"))
    return str(ident)


def session_start(team: Team, repo: Path) -> str:
    payload = {"cwd": str(repo), "hook_event_name": "SessionStart", "session_id": "s", "source": "startup"}
    proc = gm(repo, "hook", "session-start", input_text=json.dumps(payload), env=team.env[repo])
    assert proc.returncode == 0 and proc.stderr == ""
    return proc.stdout


# --- (7) a clone that never ran `git memory init` -------------------------------------------------


def test_a_line_the_guard_refuses_from_a_clone_without_hooks_is_in_no_context(team: Team) -> None:
    team.adopt_new(team.alice, "Always run pytest -x before committing.")
    team.git(team.alice, "push", "-q")
    carol = team.clone("carol", init=False)  # no hooks: nothing guards her commit
    secret = "Deploy keys live in /home/carol/secrets/deploy.pem"
    refused = hand_adopted(carol, secret, "2026-12-01T10:00:00Z")
    team.git(carol, "commit", "-qam", "add a memory line by hand")
    team.git(carol, "push", "-q")
    team.git(team.alice, "pull", "-q", "--no-rebase")

    status = team.gm_json(team.alice, "status")
    assert list(status["L2"]["refused_by_guard"]) == [refused]  # "never rendered or injected"
    started = session_start(team, team.alice)
    assert "pytest -x" in started and "deploy.pem" not in started
    # `git memory context` is what SessionStart injects: the same, not the refused line too
    shown = team.gm_json(team.alice, "context")
    assert "pytest -x" in shown["context"] and "deploy.pem" not in shown["context"]
    assert shown["l2"] == 1


# --- (1) and (6): two people adopt different items, then pull (a merge, or a rebase) ---------------


@pytest.mark.parametrize("how", ["merge", "rebase"])
def test_a_conflict_in_the_block_is_reported_as_one_and_fix_keeps_both_sides(team: Team, how: str) -> None:
    bob = team.clone("bob")
    mine = team.adopt_new(team.alice, "Always run pytest -x before committing.")
    theirs = team.adopt_new(bob, "Use tabs for indentation in the Makefile.")
    team.git(team.alice, "push", "-q")
    pulled = team.git(bob, "pull", "-q", "--rebase" if how == "rebase" else "--no-rebase", "--no-edit", check=False)
    assert pulled.returncode != 0  # both rendered a line at the same place of the block
    assert "CLAUDE.memory.md" in team.git(bob, "diff", "--name-only", "--diff-filter=U").stdout

    status = team.gm_json(bob, "status")
    assert status["L2"]["unmerged"] == ["CLAUDE.memory.md"]
    assert "unresolved merge conflict in CLAUDE.memory.md" in team.gm(bob, "status").stdout
    check = team.gm_json(bob, "validate", check=False)
    assert not check["ok"]
    assert len(check["errors"]) == 1, check["errors"]  # one finding, not three misleading ones
    (error,) = check["errors"]
    assert "unresolved merge conflict" in error and "validate --fix" in error
    assert "git add CLAUDE.memory.md .memory/adopted.log" in error
    assert ("git rebase --continue" if how == "rebase" else "git commit") in error
    assert "edited by hand" not in error and "killed" not in error

    fixed = team.gm_json(bob, "validate", "--fix")
    assert fixed["ok"] and any("git add CLAUDE.memory.md" in w for w in fixed["warnings"])
    assert "<<<<<<<" not in (bob / "CLAUDE.memory.md").read_text()
    team.git(bob, "add", "CLAUDE.memory.md", ".memory/adopted.log")
    if how == "rebase":
        team.git(bob, "-c", "core.editor=true", "rebase", "--continue")
    else:
        team.git(bob, "commit", "-q", "--no-edit")  # through the installed pre-commit guard
    assert team.gm_json(bob, "validate")["ok"]
    assert team.gm_json(bob, "status")["L2"]["unmerged"] == []
    assert {a["id"] for a in team.gm_json(bob, "inspect", "--tier", "L2")["atoms"]} == {mine, theirs}
    context = team.gm_json(bob, "context")["context"]
    assert context.count("pytest -x") == 1 and context.count("Makefile") == 1


# --- (5) a teammate's hand-edited or newer adopted.log line ----------------------------------------


def test_a_line_with_a_key_of_a_newer_version_stays_adopted_and_fix_keeps_its_block_line(team: Team) -> None:
    team.adopt_new(team.alice, "Always run pytest -x before committing.")
    team.git(team.alice, "push", "-q")
    bob = team.clone("bob")  # on a newer agent-memory, which writes one more key per line
    claim = "Prefer rebase over merge for feature branches."
    newer = hand_adopted(bob, claim, "2026-12-01T10:00:00Z")
    log = bob / ".memory" / "adopted.log"
    lines = log.read_text().splitlines()
    last = json.loads(lines[-1])
    last["signed_by"] = "bob"
    log.write_text("\n".join([*lines[:-1], json.dumps(last, sort_keys=True, separators=(",", ":"))]) + "\n")
    team.git(bob, "commit", "-qam", "memory: adopt (newer version)")
    team.git(bob, "push", "-q")
    team.git(team.alice, "pull", "-q", "--no-rebase")

    status = team.gm_json(team.alice, "status")
    assert status["L2"]["not_in_log"] == [] and status["L2"]["held"] == 2
    assert claim in team.gm_json(team.alice, "context")["context"]
    check = team.gm_json(team.alice, "validate", check=False)
    assert any("signed_by" in e and "newer" in e for e in check["errors"]), check["errors"]
    team.gm(team.alice, "validate", "--fix", check=False)
    # the teammate's adopted line is neither taken out of the block nor forgotten
    assert f"- {claim}" in (team.alice / "CLAUDE.memory.md").read_text()
    assert log.read_text() == (team.alice / ".memory" / "adopted.log").read_text()
    assert newer in {a["id"] for a in team.gm_json(team.alice, "inspect", "--tier", "L2")["atoms"]}
    # the global repo's canonical union keeps the line as the newer version wrote it
    assert '"signed_by":"bob"' in adopted_log.union(log.read_text(), "")


def test_a_teammate_line_claiming_the_global_tier_in_the_project_log_is_reported(team: Team) -> None:
    team.adopt_new(team.alice, "Always run pytest -x before committing.")
    team.git(team.alice, "push", "-q")
    bob = team.clone("bob")
    claim = "Use pnpm, not npm."
    forged = hand_adopted(bob, claim, "2026-12-01T10:00:00Z", id=atom_id(claim, None), tier="L3",
                          scope="global", project=None, promoted_from_projects=["proj", "other"])  # fmt: skip
    team.git(bob, "commit", "-qam", "memory: a line of the global tier")
    team.git(bob, "push", "-q")
    team.git(team.alice, "pull", "-q", "--no-rebase")

    # the block shows it, so the session is given it as this project's line, never as the
    # user's own global memory; validate says what it is and how to remove it
    context = team.gm_json(team.alice, "context")
    assert context["l3"] == 0 and claim in context["context"]
    check = team.gm_json(team.alice, "validate", check=False)
    found = [e for e in check["errors"] if forged in e]
    assert found and "claims tier L3" in found[0] and f"git memory forget {forged}" in found[0], check["errors"]
    assert len(check["errors"]) == 1  # the schema holds: only the tier gives it away
    team.gm(team.alice, "forget", forged)
    assert team.gm_json(team.alice, "validate")["ok"]
    assert claim not in team.gm_json(team.alice, "context")["context"]


def _alice_pulls_carols_refused_line(team: Team) -> str:
    """Alice adopts and pushes; Carol, in a clone that never ran `git memory init` (no hooks),
    commits a memory line the guard refuses by hand and pushes; Alice pulls it. Returns what
    `hand_adopted` returned for Carol's line."""
    team.adopt_new(team.alice, "Always run pytest -x before committing.")
    team.git(team.alice, "push", "-q")
    carol = team.clone("carol", init=False)
    refused = hand_adopted(carol, "Deploy keys live in /home/carol/secrets/deploy.pem", "2026-12-01T10:00:00Z")
    team.git(carol, "commit", "-qam", "add a memory line by hand")
    team.git(carol, "push", "-q")
    team.git(team.alice, "pull", "-q", "--no-rebase")
    return refused


def test_adopt_says_a_teammates_refused_line_stops_it_and_how_to_recover(team: Team) -> None:
    refused = _alice_pulls_carols_refused_line(team)
    head = team.git(team.alice, "rev-parse", "HEAD").stdout
    mine = team.gm_json(team.alice, "remember", "Never push directly to main.")["id"]

    proc = team.gm(team.alice, "adopt", "--all", check=False)
    assert proc.returncode == 1
    assert f"refused {mine}: the L2 block already holds 1 adopted line the commit guard refuses ({refused} (home-path))" in proc.stdout
    assert "hint: `git memory validate --fix` forgets that line" in proc.stderr
    assert team.git(team.alice, "rev-parse", "HEAD").stdout == head  # nothing committed
    team.gm(team.alice, "validate", "--fix")
    team.git(team.alice, "commit", "-qam", "forget a line the guard refuses")  # through the hooks
    assert [a["atom"] for a in team.gm_json(team.alice, "adopt", "--all")["adopted"]] == [mine]
    assert team.gm_json(team.alice, "validate")["ok"]


def test_the_guard_refuses_to_commit_a_block_with_conflict_markers(team: Team) -> None:
    bob = team.clone("bob")
    team.adopt_new(team.alice, "Always run pytest -x before committing.")
    team.adopt_new(bob, "Use tabs for indentation in the Makefile.")
    team.git(team.alice, "push", "-q")
    assert team.git(bob, "pull", "-q", "--no-rebase", "--no-edit", check=False).returncode != 0
    team.git(bob, "add", "-A")  # "resolved" by staging the file as git left it
    committed = team.git(bob, "commit", "--no-edit", check=False)  # the installed pre-commit guard
    assert committed.returncode != 0
    said = committed.stdout + committed.stderr
    assert "CLAUDE.memory.md:6: merge-conflict" in said and "git memory validate --fix" in said
    assert "written by hand" not in said
    team.gm(bob, "validate", "--fix")
    team.git(bob, "add", "CLAUDE.memory.md", ".memory/adopted.log")
    team.git(bob, "commit", "-q", "--no-edit")
    assert team.gm_json(bob, "validate")["ok"]
    team.git(bob, "push", "-q")
    team.git(team.alice, "pull", "-q", "--ff-only")
    assert team.gm_json(team.alice, "validate")["ok"]
    assert "<<<<<<<" not in (team.alice / "CLAUDE.memory.md").read_text()


def test_interactive_adopt_offers_no_adopt_while_a_teammates_refused_line_blocks_every_commit(team: Team) -> None:
    import pexpect
    from test_adopt import choose, finish

    refused = _alice_pulls_carols_refused_line(team)
    mine = team.gm_json(team.alice, "remember", "Never push directly to main.")["id"]
    env = {**os.environ, **team.env[team.alice], "TERM": "xterm", "COLUMNS": "200", "LINES": "60"}
    child = pexpect.spawn("git", ["memory", "adopt"], cwd=str(team.alice), env=env, encoding="utf-8",
                          timeout=90, dimensions=(60, 200))  # fmt: skip
    child.expect(f"already holds 1 adopted line the commit guard refuses \\({refused}")
    child.expect("validate --fix")
    child.expect(mine)
    child.expect("cannot adopt: the L2 block already holds")
    child.expect(r"\(Use arrow keys\)")
    choose(child, "skip", ["reject", "skip", "show more", "quit"])
    assert finish(child) == 0
    assert mine in [s["atom"] for s in team.gm_json(team.alice, "status")["staged"]]  # still waiting


# --- scenarios that held: kept as regression tests ------------------------------------------------


def test_both_adopt_the_same_item_and_merge_it_is_held_and_shown_once(team: Team) -> None:
    bob = team.clone("bob")
    ident = team.adopt_new(team.alice, "Always run pytest -x before committing.")
    assert team.adopt_new(bob, "Always run pytest -x before committing.") == ident
    team.git(team.alice, "push", "-q")
    team.git(bob, "pull", "-q", "--no-rebase", "--no-edit")  # no conflict: the same block line
    assert 1 <= len((bob / ".memory" / "adopted.log").read_text().splitlines()) <= 2  # one per clone at most
    assert [a["id"] for a in team.gm_json(bob, "inspect", "--tier", "L2")["atoms"]] == [ident]
    assert team.gm_json(bob, "context")["context"].count("pytest -x") == 1
    assert team.gm_json(bob, "validate")["ok"]


def test_a_forget_survives_a_teammates_merge_and_undo_works_after_it(team: Team) -> None:
    bob = team.clone("bob")
    gone = team.adopt_new(team.alice, "Always run pytest -x before committing.")
    team.git(team.alice, "push", "-q")
    team.git(bob, "pull", "-q", "--no-rebase")
    team.gm(team.alice, "forget", gone)
    team.adopt_new(bob, "Use tabs for indentation in the Makefile.")
    team.git(team.alice, "push", "-q")
    team.git(bob, "pull", "-q", "--no-rebase", "--no-edit", check=False)
    team.gm(bob, "validate", "--fix")
    team.git(bob, "add", "CLAUDE.memory.md", ".memory/adopted.log")
    team.git(bob, "commit", "-q", "--no-edit")
    assert gone not in {a["id"] for a in team.gm_json(bob, "inspect", "--tier", "L2")["atoms"]}
    assert "pytest -x" not in team.gm_json(bob, "context")["context"]
    team.gm(bob, "forget", "--undo", gone)
    assert "pytest -x" in team.gm_json(bob, "context")["context"]
    assert team.gm_json(bob, "validate")["ok"]


@pytest.mark.parametrize("how", ["rebase", "squash"])
def test_a_review_branch_merged_by_rebase_or_squash_is_not_adopted_again(team: Team, how: str) -> None:
    bob = team.clone("bob")
    ids = {team.gm_json(team.alice, "remember", c)["id"] for c in ("Never push directly to main.", "Prefer small commits.")}
    assert "gh pr create --base main --head memory/review" in team.gm(team.alice, "pr", "--print").stdout
    team.git(team.alice, "push", "-q", "origin", "memory/review")
    team.git(bob, "fetch", "-q")
    if how == "rebase":  # what a forge's "rebase and merge" does
        team.git(bob, "rebase", "-q", "main", "origin/memory/review")
        team.git(bob, "checkout", "-q", "-B", "main")
    else:
        team.git(bob, "merge", "-q", "--squash", "origin/memory/review")
        team.git(bob, "commit", "-q", "-m", "agent-memory promotions (#7)")
    team.git(bob, "push", "-q", "origin", "main")
    team.git(team.alice, "pull", "-q", "--no-rebase")
    assert {a["id"] for a in team.gm_json(team.alice, "inspect", "--tier", "L2")["atoms"]} == ids
    assert team.gm_json(team.alice, "adopt", "--all")["adopted"] == []
    assert team.gm_json(team.alice, "stage")["commits"] == []
    assert len((team.alice / ".memory" / "adopted.log").read_text().splitlines()) == 2
    assert team.gm_json(team.alice, "validate")["ok"] and team.gm_json(bob, "validate")["ok"]


# --- a teammate's later setting op on an atom forgotten meanwhile ---------------------------------


def _later(seconds: int) -> str:
    import datetime as dt

    return (dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.parametrize("op", ["pin", "decay"])
def test_a_teammates_later_pin_or_decay_does_not_revive_an_atom_forgotten_meanwhile(team: Team, op: str) -> None:
    """Alice forgets X; Bob, before pulling, pins (or decays) X with a later stamp. The union
    merge puts his line after her forget in the fold's order: a setting op on an atom no longer
    held changes nothing (only an adopt brings an atom back), in both clones, in every reader."""
    bob = team.clone("bob")
    gone = team.adopt_new(team.alice, "Always run pytest -x before committing.")
    kept = team.adopt_new(team.alice, "Use tabs for indentation in the Makefile.")
    team.git(team.alice, "push", "-q")
    team.git(bob, "pull", "-q", "--no-rebase")
    session_start(team, bob)  # the hooks' saved folds now hold both
    team.gm(team.alice, "forget", gone)
    team.git(team.alice, "push", "-q")
    team.env[bob]["AGENT_MEMORY_NOW"] = _later(120)  # after Alice's forget, whatever the clocks say
    team.gm(bob, op, gone)
    del team.env[bob]["AGENT_MEMORY_NOW"]
    log = (bob / ".memory" / "adopted.log").read_text()
    assert f'"op":"{op}"' in log
    team.git(bob, "pull", "-q", "--no-rebase", "--no-edit", check=False)
    team.gm(bob, "validate", "--fix", check=False)
    team.git(bob, "add", "CLAUDE.memory.md", ".memory/adopted.log")
    team.git(bob, "commit", "-q", "-m", "Merge Alice's forget", check=False)  # whether or not it conflicted
    assert team.git(bob, "status", "--porcelain").stdout == ""
    log = (bob / ".memory" / "adopted.log").read_text()
    assert '"op":"forget"' in log and f'"op":"{op}"' in log  # both lines kept by the union merge
    team.git(bob, "push", "-q")
    team.git(team.alice, "pull", "-q", "--no-rebase")
    for repo in (bob, team.alice):
        assert {a["id"] for a in team.gm_json(repo, "inspect", "--tier", "L2")["atoms"]} == {kept}, repo
        assert "pytest -x" not in team.gm_json(repo, "context")["context"]
        start = session_start(team, repo)
        assert "pytest -x" not in start and "Makefile" in start
        assert "pytest -x" not in (repo / "CLAUDE.memory.md").read_text()
        assert team.gm_json(repo, "status")["L2"]["held"] == 1
        assert team.gm_json(repo, "validate")["ok"], team.gm_json(repo, "validate")
        team.gm(repo, "validate", "--fix")
        assert "pytest -x" not in (repo / "CLAUDE.memory.md").read_text()  # --fix does not re-render it in
    assert team.gm_json(team.alice, "adopt", "--all")["adopted"] == []
    # the forget is still the last word on it: Bob (no tombstone of his own) can undo it
    team.gm(bob, "forget", "--undo", gone)
    assert {a["id"] for a in team.gm_json(bob, "inspect", "--tier", "L2")["atoms"]} == {gone, kept}
    assert "pytest -x" in session_start(team, bob) and team.gm_json(bob, "validate")["ok"]


# --- one project name for every clone of the repository --------------------------------------------


def clone_into(team: Team, who: str, folder: str, *, init: bool = True) -> Path:
    env = person_env(team.tmp, who)
    path = team.tmp / who / folder
    path.parent.mkdir(exist_ok=True)
    run_git(team.tmp, "clone", "-q", str(team.remote), str(path), env=env)
    team.env[path] = env
    if init:
        team.gm(path, "init", "--yes")
    return path


def test_a_clone_in_a_folder_of_another_name_takes_the_project_name_its_adopted_log_records(team: Team) -> None:
    claim = "Always run pytest -x before committing."
    ident = team.adopt_new(team.alice, claim)
    team.git(team.alice, "push", "-q")
    bob = clone_into(team, "bob", "proj-bob")

    assert team.gm_json(bob, "status")["project"] == "proj"
    # the same claim is Alice's atom, already held: not adopted a second time, shown once
    remembered = team.gm_json(bob, "remember", claim, check=False)
    assert remembered["id"] == ident and remembered["staged"] is None  # held at L2 already
    assert team.gm_json(bob, "adopt", "--all")["adopted"] == []
    assert team.gm_json(bob, "context")["context"].count("pytest -x") == 1
    assert len((bob / ".memory" / "adopted.log").read_text().splitlines()) == 1


def test_two_checkouts_of_one_repository_are_one_project_in_the_global_registry(team: Team) -> None:
    team.adopt_new(team.alice, "Always run pytest -x before committing.")
    team.git(team.alice, "push", "-q")
    first = clone_into(team, "bob", "proj")
    env = team.env[first]
    second = team.tmp / "bob" / "elsewhere" / "proj"
    second.parent.mkdir()
    run_git(team.tmp, "clone", "-q", str(team.remote), str(second), env=env)
    team.env[second] = env
    team.gm(second, "init", "--yes")

    # one name, not proj and proj-<hash>: the L3 gate counts projects by name
    assert team.gm_json(first, "status")["project"] == team.gm_json(second, "status")["project"] == "proj"
    registry = json.loads((Path(env["AGENT_MEMORY_HOME"]) / "projects.json").read_text())["projects"]
    assert sorted(e["name"] for e in registry) == ["proj", "proj"]


def test_a_repository_of_the_same_folder_name_but_another_history_still_gets_its_own_name(team: Team) -> None:
    team.adopt_new(team.alice, "Always run pytest -x before committing.")
    team.git(team.alice, "push", "-q")
    assert team.gm_json(clone_into(team, "bob", "proj"), "status")["project"] == "proj"
    env = team.env[team.tmp / "bob" / "proj"]
    other = team.tmp / "bob" / "other" / "proj"
    other.mkdir(parents=True)
    run_git(other, "init", "-q", "-b", "main", env=env)
    (other / "README.md").write_text("another project\n")
    run_git(other, "add", "README.md", env=env)
    run_git(other, "commit", "-q", "-m", "unrelated", env=env)
    team.env[other] = env
    team.gm(other, "init", "--yes")
    assert team.gm_json(other, "status")["project"].startswith("proj-")


def test_without_adopted_lines_the_remotes_name_is_the_project_and_an_explicit_name_wins(team: Team) -> None:
    bob = clone_into(team, "bob", "checkout")  # nothing adopted yet: the remote is proj.git
    assert team.gm_json(bob, "status")["project"] == "proj"
    team.git(team.alice, "remote", "set-url", "origin", f"{team.remote.parent}/./proj.git/")
    carol = clone_into(team, "carol", "work", init=False)
    team.git(carol, "remote", "set-url", "origin", "git@forge.invalid:team/tool.git")
    team.gm(carol, "init", "--yes")
    assert team.gm_json(carol, "status")["project"] == "tool"
    dave = clone_into(team, "dave", "work", init=False)
    team.gm(dave, "init", "--yes", "--project", "named")
    assert team.gm_json(dave, "status")["project"] == "named"
    # a repository set up already keeps its name (its atoms are keyed by it), whatever is adopted
    team.adopt_new(dave, "Always run pytest -x before committing.")
    team.git(dave, "push", "-q")
    team.git(bob, "pull", "-q", "--no-rebase")
    team.gm(bob, "init", "--yes")
    assert team.gm_json(bob, "status")["project"] == "proj"


# --- a conflict in adopted.log itself (merged without its merge=union attribute) --------------------


def test_a_conflict_in_the_log_without_its_union_attribute_is_one_finding_and_fix_keeps_both_sides(team: Team) -> None:
    bob = team.clone("bob")
    (bob / ".gitattributes").write_text("")  # edited away (or a clone set up without it)
    team.git(bob, "commit", "-qam", "no attributes")
    mine = team.adopt_new(team.alice, "Always run pytest -x before committing.")
    theirs = team.adopt_new(bob, "Use tabs for indentation in the Makefile.")
    team.git(team.alice, "push", "-q")
    assert team.git(bob, "pull", "-q", "--no-rebase", "--no-edit", check=False).returncode != 0
    assert ".memory/adopted.log" in team.git(bob, "diff", "--name-only", "--diff-filter=U").stdout

    check = team.gm_json(bob, "validate", check=False)
    assert not check["ok"]
    (error,) = check["errors"]  # one finding, not one per marker line
    assert "adopted.log: an unresolved merge conflict" in error and "merge=union" in error
    assert "validate --fix" in error and "union of both sides" in error

    fixed = team.gm_json(bob, "validate", "--fix")
    assert fixed["ok"], fixed
    assert any("union of both sides" in f for f in fixed["fixed"])
    assert any("merge=union" in w and "git memory init" in w for w in fixed["warnings"])
    log = (bob / ".memory" / "adopted.log").read_text()
    assert "<<<<<<<" not in log and "=======" not in log
    assert len(log.splitlines()) == 2
    team.git(bob, "add", "CLAUDE.memory.md", ".memory/adopted.log")
    team.git(bob, "commit", "-q", "--no-edit")  # through the installed pre-commit guard
    assert team.gm_json(bob, "validate")["ok"]
    assert {a["id"] for a in team.gm_json(bob, "inspect", "--tier", "L2")["atoms"]} == {mine, theirs}
    context = team.gm_json(bob, "context")["context"]
    assert context.count("pytest -x") == 1 and context.count("Makefile") == 1
    team.gm(bob, "init", "--yes")  # the way out the warning names: the attribute is back
    assert ".memory/adopted.log merge=union" in (bob / ".gitattributes").read_text()


def test_validate_names_a_clone_set_up_under_another_name_than_its_adopted_log_records(team: Team) -> None:
    """A clone set up before anything was adopted (its remote's name), or by a version that took
    the folder's, keeps its name (its atoms are keyed by it); validate says the adopted lines are
    of another project, what that costs and how to join it — a warning, not a failure."""
    bob = clone_into(team, "bob", "bob-proj", init=False)
    team.git(bob, "remote", "set-url", "origin", "git@forge.invalid:team/renamed.git")
    team.gm(bob, "init", "--yes")
    team.git(bob, "remote", "set-url", "origin", str(team.remote))
    assert team.gm_json(bob, "status")["project"] == "renamed"
    team.adopt_new(team.alice, "Always run pytest -x before committing.")
    team.git(team.alice, "push", "-q")
    team.git(bob, "pull", "-q", "--no-rebase")
    check = team.gm_json(bob, "validate")
    assert check["ok"]
    (said,) = [w for w in check["warnings"] if "adopted lines are of project 'proj'" in w]
    assert "set up as 'renamed'" in said and "git config memory.project proj" in said
    team.gm(bob, "deinit")
    team.git(bob, "config", "memory.project", "proj")
    team.gm(bob, "init", "--yes")
    assert team.gm_json(bob, "status")["project"] == "proj"
    assert not any("adopted lines are of project" in w for w in team.gm_json(bob, "validate")["warnings"])


def test_fix_leaves_a_log_conflict_alone_when_the_work_tree_holds_a_line_neither_side_has(team: Team) -> None:
    """--fix resolves a log conflict from the index's stages, and wrote that over the work
    tree's file: a line a person had added while resolving (in neither side) was dropped. Now
    --fix leaves such a file to the person, says why, and keeps the line."""
    bob = team.clone("bob")
    (bob / ".gitattributes").write_text("")
    team.git(bob, "commit", "-qam", "no attributes")
    team.adopt_new(team.alice, "Always run pytest -x before committing.")
    team.adopt_new(bob, "Use tabs for indentation in the Makefile.")
    team.git(team.alice, "push", "-q")
    assert team.git(bob, "pull", "-q", "--no-rebase", "--no-edit", check=False).returncode != 0
    log = bob / ".memory" / "adopted.log"
    first = next(line for line in log.read_text().split("\n") if line.startswith("{"))
    entry = json.loads(first)
    entry["atom"]["claim"] = "Run the linter before pushing."
    entry["atom"]["id"] = atom_id("Run the linter before pushing.", "proj")
    mine = json.dumps(entry, sort_keys=True, separators=(",", ":"))
    with log.open("a") as fh:  # typed in while resolving
        fh.write(mine + "\n")

    fixed = team.gm_json(bob, "validate", "--fix", check=False)
    assert mine in log.read_text().split("\n")  # still there
    assert "<<<<<<<" in log.read_text()  # left to the person
    assert not fixed["ok"] and not any("union of both sides" in f for f in fixed["fixed"])
    assert any("neither side" in w for w in fixed["warnings"]), fixed
