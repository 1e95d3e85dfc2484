"""Issue 14 §2 through real `git commit`, `git merge` and the installed hooks: a memory file
replaced by a symlink, a merge (which runs no pre-commit hook), `core.hooksPath` set after
`init` (husky), and what `validate`, `validate --fix` and `status` do once a refused line got
past the hooks anyway."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from builders import BLOCK, SECRET, committed_atom
from conftest import git
from sessions import gm, gm_json
from test_adopt import held, stage_claims

from agent_memory.committed.adopted_log import LogEntry
from agent_memory.committed.files import TierFiles
from agent_memory.model.atom import atom_id


def commit(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(repo), "commit", *args], capture_output=True, text=True)


# --- a memory file replaced by a symlink ----------------------------------------------------


@pytest.mark.parametrize("existing", [True, False], ids=["type-change", "new-link"])
def test_a_memory_file_replaced_by_a_symlink_is_refused(guarded: Path, existing: bool) -> None:
    if existing:
        (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line="Never push to main"))
        git(guarded, "add", "CLAUDE.memory.md")
        assert commit(guarded, "-qm", "memory").returncode == 0
        (guarded / "CLAUDE.memory.md").unlink()
    head = git(guarded, "rev-parse", "HEAD")
    # Claude reads the link's target; git stores only the target's name, which looks clean.
    (guarded / "notes.txt").write_text(f"Deploy with {SECRET}\n")
    (guarded / "CLAUDE.memory.md").symlink_to("notes.txt")
    git(guarded, "add", "CLAUDE.memory.md")
    proc = commit(guarded, "-m", "memory as a link")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "CLAUDE.memory.md:1: not-a-regular-file (symlink)" in proc.stdout + proc.stderr
    assert "regular file" in proc.stderr and "hint:" in proc.stderr
    assert git(guarded, "rev-parse", "HEAD") == head


# --- a memory file stored through a clean filter (git-lfs) ------------------------------------

# What `git lfs install` puts in the global config, with a stand-in for git-lfs: the clean filter
# stores a pointer in git and keeps the text elsewhere.
POINTER_SCRIPT = "#!/bin/sh\ncat >/dev/null\nprintf 'version https://git-lfs.github.com/spec/v1\\noid sha256:0\\nsize 1\\n'\n"


def test_a_memory_file_stored_through_a_clean_filter_is_refused(guarded: Path) -> None:
    """A cloned repository commits `CLAUDE.memory.md filter=lfs` in .gitattributes; git-lfs is
    configured for every repository. The guard judged the staged blob — the pointer — so a
    block carrying a token was committed, and a push would send the text to the LFS store:
    unseen by the guard, by `git memory scan` of commits and by anyone reading the diff."""
    clean = Path(os.environ["HOME"]) / "fake-git-lfs-clean"
    clean.write_text(POINTER_SCRIPT)
    clean.chmod(0o755)
    gitconfig = Path(os.environ["GIT_CONFIG_GLOBAL"])
    gitconfig.write_text(gitconfig.read_text() + f'[filter "lfs"]\n\tclean = {clean}\n\tsmudge = cat\n\trequired = true\n')
    with (guarded / ".gitattributes").open("a") as fh:
        fh.write("CLAUDE.memory.md filter=lfs\n")
    git(guarded, "add", ".gitattributes")
    assert commit(guarded, "-qm", "attributes").returncode == 0
    head = git(guarded, "rev-parse", "HEAD")
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line=f"Deploy with {SECRET}"))
    git(guarded, "add", "CLAUDE.memory.md")
    assert "git-lfs" in git(guarded, "show", ":CLAUDE.memory.md")  # what the guard used to judge
    proc = commit(guarded, "-m", "memory through lfs")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "CLAUDE.memory.md:1: filtered (filter=lfs)" in proc.stdout + proc.stderr
    assert "clean filter" in proc.stderr and "hint:" in proc.stderr
    assert git(guarded, "rev-parse", "HEAD") == head
    scan = gm(guarded, "scan", check=False)  # the work tree, as Claude reads it
    assert scan.returncode == 1 and "CLAUDE.memory.md:1: filtered (filter=lfs)" in scan.stdout


# --- git merge runs pre-merge-commit, not pre-commit ---------------------------------------


def test_a_merge_that_brings_in_a_refused_line_is_stopped(guarded: Path) -> None:
    git(guarded, "checkout", "-q", "-b", "side")
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line=f"Deploy with {SECRET}"))
    git(guarded, "add", "CLAUDE.memory.md")
    assert commit(guarded, "-q", "--no-verify", "-m", "leak").returncode == 0
    git(guarded, "checkout", "-q", "main")
    (guarded / "app.py").write_text("print('hi')\n")
    git(guarded, "add", "app.py")
    assert commit(guarded, "-qm", "app").returncode == 0
    head = git(guarded, "rev-parse", "HEAD")
    proc = subprocess.run(["git", "-C", str(guarded), "merge", "--no-edit", "side"],
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "CLAUDE.memory.md:5: github" in proc.stdout + proc.stderr
    assert git(guarded, "rev-parse", "HEAD") == head
    # git leaves the merge waiting for `git commit`, which runs the pre-commit guard
    assert commit(guarded, "--no-edit").returncode != 0
    assert git(guarded, "rev-parse", "HEAD") == head


def test_a_clean_merge_goes_through(guarded: Path) -> None:
    git(guarded, "checkout", "-q", "-b", "side")
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line="Never push to main"))
    git(guarded, "add", "CLAUDE.memory.md")
    assert commit(guarded, "-qm", "memory").returncode == 0
    git(guarded, "checkout", "-q", "main")
    (guarded / "app.py").write_text("print('hi')\n")
    git(guarded, "add", "app.py")
    assert commit(guarded, "-qm", "app").returncode == 0
    git(guarded, "merge", "-q", "--no-edit", "side")
    assert len(git(guarded, "rev-parse", "HEAD^@").split()) == 2


# --- core.hooksPath set after init ----------------------------------------------------------

HUSKY_H = """#!/usr/bin/env sh
n=$(basename "$0")
s=$(dirname "$(dirname "$0")")/$n
[ ! -f "$s" ] && exit 0
sh -e "$s" "$@"
"""
HUSKY_SHIM = '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n'


def _husky(repo: Path, ran: Path) -> None:
    """husky v9's layout: `.husky/_/<hook>` shims that run `.husky/<hook>`, found from $0."""
    shims = repo / ".husky" / "_"
    shims.mkdir(parents=True)
    (shims / "h").write_text(HUSKY_H)
    for name in ("pre-commit", "pre-push"):
        (shims / name).write_text(HUSKY_SHIM)
        (shims / name).chmod(0o755)
    (repo / ".husky" / "pre-commit").write_text(f"echo husky-pre-commit >> '{ran}'\n")
    git(repo, "config", "core.hooksPath", ".husky/_")


def test_core_hooks_path_set_after_init_is_reported_and_init_installs_there_chained(
    guarded: Path, tmp_path: Path
) -> None:
    ran = tmp_path / "ran"
    _husky(guarded, ran)
    # The attack: the guard no longer runs, and nothing said so.
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line=f"Deploy with {SECRET}"))
    git(guarded, "add", "CLAUDE.memory.md")
    status = gm_json(guarded, "status")
    hooks = status["git_hooks"]
    assert set(hooks) == {"pre-commit", "pre-merge-commit", "pre-push"}
    assert not any(h["active"] for h in hooks.values())
    assert "core.hooksPath=.husky/_" in hooks["pre-commit"]["note"]
    text = gm(guarded, "status").stdout
    assert "git hook pre-commit: NOT ACTIVE" in text and "git memory init" in text
    # one cause, one hint: said once under the three hooks it moved, not three times
    assert text.count(hooks["pre-commit"]["note"]) == 1 and text.count("NOT ACTIVE") == 3

    gm(guarded, "init", "--no-claude-hooks")
    assert all(h["active"] for h in gm_json(guarded, "status")["git_hooks"].values())
    assert (guarded / ".husky" / "_" / "pre-commit.chained-by-agent-memory").read_text() == HUSKY_SHIM
    refused = commit(guarded, "-m", "leak")
    assert refused.returncode == 1 and "CLAUDE.memory.md:5: github" in refused.stderr
    assert ran.read_text().splitlines() == ["husky-pre-commit"]  # husky's own hook still ran first
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line="Never push to main"))
    git(guarded, "add", "CLAUDE.memory.md")
    assert commit(guarded, "-qm", "memory").returncode == 0
    assert ran.read_text().splitlines() == ["husky-pre-commit"] * 2


def test_a_hook_manager_rewriting_its_shim_over_ours_is_reported_and_reinstalled(
    guarded: Path, tmp_path: Path
) -> None:
    _husky(guarded, tmp_path / "ran")
    gm(guarded, "init", "--no-claude-hooks")
    (guarded / ".husky" / "_" / "pre-commit").write_text(HUSKY_SHIM)  # `npm install` reran husky
    hooks = gm_json(guarded, "status")["git_hooks"]
    assert hooks["pre-commit"]["state"] == "foreign" and not hooks["pre-commit"]["active"]
    out = gm_json(guarded, "init", "--no-claude-hooks")
    assert "reinstalled" in out["changed"]["git hook pre-commit"]
    assert gm_json(guarded, "status")["git_hooks"]["pre-commit"]["active"]


def test_an_outdated_hook_of_ours_is_reported(guarded: Path) -> None:
    hook = guarded / ".git" / "hooks" / "pre-push"
    hook.write_text("#!/bin/sh\n# agent-memory-hook: pre-push — an older agent-memory\nexit 0\n")
    state = gm_json(guarded, "status")["git_hooks"]["pre-push"]
    assert state["state"] == "outdated" and "git memory init" in state["note"]


# --- after a bypass: validate, validate --fix, status ---------------------------------------


def _bypass(repo: Path, leaked: str = f"Deploy with {SECRET}") -> dict[str, object]:
    """An adopted line carrying a secret, committed past the guard with --no-verify (the
    block rendered from the log, as adopt would have)."""
    stage_claims(repo)
    gm(repo, "adopt", "--all")
    atom = dict(next(iter(held(repo).values())))
    atom.update(claim=leaked, id=atom_id(leaked, str(atom["project"])))
    files = TierFiles("L2", "CLAUDE.memory.md", (repo / ".memory/adopted.log").read_text(),
                      (repo / "CLAUDE.memory.md").read_text())  # fmt: skip
    after = files.append([LogEntry(op="adopt", atom=atom, at="2026-11-06T13:00:00Z")])  # type: ignore[arg-type]
    for rel, text in after.paths().items():
        (repo / rel).write_text(text)
    git(repo, "add", ".memory/adopted.log", "CLAUDE.memory.md")
    assert commit(repo, "-q", "--no-verify", "-m", "leak past the guard").returncode == 0
    assert leaked in (repo / "CLAUDE.memory.md").read_text()
    return atom


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


def test_validate_runs_the_guard_and_fix_drops_the_refused_line(project: Path) -> None:
    atom = _bypass(project)
    proc = gm(project, "validate", check=False)
    assert proc.returncode == 1
    assert "CLAUDE.memory.md:" in proc.stdout and "github" in proc.stdout
    assert f"({atom['id']})" in proc.stdout  # the adopted.log line, by atom
    status = gm_json(project, "status")
    assert list(status["L2"]["refused_by_guard"]) == [atom["id"]]
    assert "refused by the guard" in gm(project, "status").stdout

    fixed = gm(project, "validate", "--fix", check=False)
    assert f"dropped {atom['id']}" in fixed.stdout
    assert SECRET not in (project / "CLAUDE.memory.md").read_text()
    lines = [json.loads(x) for x in (project / ".memory/adopted.log").read_text().splitlines()]
    assert lines[-1]["op"] == "forget" and lines[-1]["atom"]["id"] == atom["id"]
    assert SECRET not in json.dumps(lines[-1])
    assert f"dropped {atom['id']}" in (project / ".git/agent-memory/errors.log").read_text()
    # the fix commits through the guard: the forget line and the block pass
    git(project, "add", ".memory/adopted.log", "CLAUDE.memory.md")
    done = commit(project, "-qm", "drop the leaked line")
    assert done.returncode == 0, done.stdout + done.stderr
    assert gm_json(project, "status")["L2"]["refused_by_guard"] == {}
    after = gm(project, "validate", check=False)
    assert after.returncode == 0, after.stdout  # the old line is a warning now, not an error
    assert "warning:" in after.stdout and "rotate" in after.stdout


def test_validate_fix_never_rerenders_a_refused_line(project: Path) -> None:
    atom = _bypass(project)
    # A hand edit of the block: --fix re-renders it, and must not bring the secret back.
    (project / "CLAUDE.memory.md").write_text(BLOCK.format(line="Never push to main"))
    gm(project, "validate", "--fix", check=False)
    assert SECRET not in (project / "CLAUDE.memory.md").read_text()
    assert atom["id"] not in {a["id"] for a in gm_json(project, "inspect", "--tier", "L2")["atoms"]}


def test_the_refused_line_is_not_injectable() -> None:
    from agent_memory.committed import guarded as G  # new in this change: imported here

    ok = committed_atom("Never push to main")
    bad = committed_atom(f"Deploy with {SECRET}")
    home = committed_atom("Config lives in /home/alice/app/config.toml")
    assert set(G.refused([ok, bad, home])) == {bad["id"], home["id"]}


def test_session_start_never_injects_a_line_that_got_past_the_guard(project: Path) -> None:
    from test_hooks import hook

    from agent_memory.committed.verdicts import VERDICTS_FILE

    _bypass(project)
    state = project / ".git" / "agent-memory"
    (state / "session-start.cache").unlink(missing_ok=True)
    (state / VERDICTS_FILE).unlink(missing_ok=True)  # judged in the hook itself, not ahead
    for start in ("first", "cached"):
        context = hook("session-start", project)
        assert context is not None and SECRET not in context, start
        assert "Deploy with" not in context, start
        held_claims = [str(a["claim"]) for a in held(project).values() if a["claim"] != f"Deploy with {SECRET}"]
        assert held_claims and all(c in context for c in held_claims), (start, context)
    # The remembered verdicts keep accepted lines verbatim and refused ones only as a CRC.
    verdicts = (state / VERDICTS_FILE).read_text()
    assert SECRET not in verdicts and "Deploy with" not in verdicts
    assert any(line.startswith("-") for line in verdicts.splitlines()[1:])


def test_a_guard_verdict_from_other_rules_is_judged_again(project: Path) -> None:
    from agent_memory.committed import verdicts

    ok = committed_atom("Never push to main")
    bad = committed_atom(f"Deploy with {SECRET}")
    state = project / ".git" / "agent-memory"
    state.mkdir(exist_ok=True)
    # A file that claims the secret's line was accepted, written under another rule set.
    from agent_memory.committed.render import atom_line

    (state / verdicts.VERDICTS_FILE).write_text(f"older rules\n+{atom_line(bad, None)}\n")  # type: ignore[arg-type]
    assert verdicts.shown(str(state), [ok, bad]) == [[ok]]  # type: ignore[list-item]
    # Remembered now, for every group: the refused line stays out in either tier.
    assert verdicts.shown(str(state), [bad], [ok, bad]) == [[], [ok]]  # type: ignore[list-item]


def _session_start_with(package: Path, project: Path) -> str:
    """The context the SessionStart hook injects, run by the agent_memory copy in `package`."""
    from test_hooks import payload

    probe = ("import sys, io\n"
             "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))\n"
             "from agent_memory.claude.hooks import run_event\n"
             "run_event('session-start')\n")  # fmt: skip
    proc = subprocess.run([sys.executable, "-S", "-c", probe, payload("session-start", project)],
                          cwd=project, capture_output=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(package)})  # fmt: skip
    return str(json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"])


def test_a_rule_added_anywhere_in_redact_judges_the_remembered_verdicts_again(project: Path, tmp_path: Path) -> None:
    """The guard's verdicts and the session-start text built from them are signed with every
    file of redact/: a rule that was not there when a line was accepted refuses it at the next
    start, wherever it lives (here the e-mail rule of redact/pii.py, a file no list named)."""
    checkout = Path(__file__).resolve().parent.parent
    package = tmp_path / "installed"
    shutil.copytree(checkout / "agent_memory", package / "agent_memory",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    shutil.copytree(checkout / "templates", package / "templates")
    pii = package / "agent_memory" / "redact" / "pii.py"
    with_rule = pii.read_text()
    head = "def email(ctx: ScanContext, pos: int, kw: str) -> None:\n"
    pii.write_text(with_rule.replace(head, head + "    return\n", 1))  # the guard without the rule
    leaked = "Send the weekly report to jane.doe@acme-corp.io"
    _bypass(project, leaked)
    assert leaked in _session_start_with(package, project)  # accepted, and remembered so
    pii.write_text(with_rule)  # the rule is added
    assert leaked not in _session_start_with(package, project)
    assert leaked not in _session_start_with(package, project)  # and remembered so


def test_the_rules_signature_covers_every_file_of_the_package(tmp_path: Path) -> None:
    from agent_memory.redact import signature

    copy = tmp_path / "redact"
    shutil.copytree(signature.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = signature.signature_of(str(copy))
    assert before == signature.signature_of(str(copy))
    (copy / "house_rules.py").write_text("RULES = ()\n")  # a new rule module, named nowhere yet
    added = signature.signature_of(str(copy))
    (copy / "sub").mkdir()
    (copy / "sub" / "more.py").write_text("RULES = ()\n")  # a subpackage's file
    nested = signature.signature_of(str(copy))
    (copy / "house_rules.py").write_text("RULES = ('x',)\n")  # an edit
    assert len({before, added, nested, signature.signature_of(str(copy))}) == 4


def test_a_line_with_characters_a_reviewer_cannot_see_is_dropped_and_the_drop_commits(
    project: Path,
) -> None:
    hidden = "Always deploy from the re\u200blease branch."
    atom = _bypass(project, hidden)
    assert "format-character" in gm(project, "validate", check=False).stdout
    fixed = gm(project, "validate", "--fix", check=False)
    assert f"dropped {atom['id']}" in fixed.stdout and "format-character" in fixed.stdout
    assert "\u200b" not in (project / ".memory/adopted.log").read_text().splitlines()[-1]
    git(project, "add", ".memory/adopted.log", "CLAUDE.memory.md")
    done = commit(project, "-qm", "drop the hidden line")
    assert done.returncode == 0, done.stdout + done.stderr
