"""`git memory stale`: atoms naming paths that git says are gone (following renames) or changed
since their evidence, on real repositories with real commits, `git mv` and `git rm`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from builders import l1_atom
from conftest import git
from sessions import gm

import agent_memory.gitio.repo as git_boundary
from agent_memory.cli.main import main
from agent_memory.committed.adopted_log import LogEntry, format_entry
from agent_memory.committed.tiers import l2_atoms
from agent_memory.model.atom import atom_id, to_committed
from agent_memory.store.capture import capture_atoms
from agent_memory.store.l1 import L1Store
from agent_memory.store.stale import CHANGED, MISSING, find_stale, mentions, path_mentions

EVIDENCE_DAY = "2026-11-05"  # every atom's evidence, unless a test says otherwise
PY_BODY = "".join(f"def f{i}() -> int:\n    return {i}\n\n" for i in range(12))


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-12-01T00:00:00Z")  # L1 expiry is 90 days


def at(monkeypatch: pytest.MonkeyPatch, day: str) -> None:
    """Commits from now on carry this date (git reads it from the environment)."""
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, f"{day}T12:00:00Z")


def write(repo: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        git(repo, "add", rel)


def commit(repo: Path, message: str) -> None:
    git(repo, "commit", "-q", "-m", message)


def l2_atom(claim: str, day: str = EVIDENCE_DAY, **extra: Any) -> dict[str, Any]:
    atom = to_committed(l1_atom(claim, days=(day,)), "L2", f"{day}T18:00:00Z")
    atom.update(extra)
    return atom


def adopt_l2(repo: Path, atoms: Sequence[dict[str, Any]]) -> None:
    log = repo / ".memory" / "adopted.log"
    log.parent.mkdir(exist_ok=True)
    log.write_text(
        "".join(
            format_entry(LogEntry(op="adopt", atom=a, at=f"{EVIDENCE_DAY}T18:00:00Z"))
            for a in atoms
        )
    )
    git(repo, "add", ".memory/adopted.log")
    commit(repo, "memory: adopt")


def capture_l1(repo: Path, atoms: Sequence[dict[str, Any]]) -> None:
    store = L1Store(git_boundary.find_repo(repo))
    store.init()
    result = capture_atoms(store, list(atoms), "s1", None)
    assert result.commit is not None and not result.invalid


def stale_json(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> list[dict[str, Any]]:
    monkeypatch.chdir(repo)
    capsys.readouterr()
    code = main(["stale", "--output", "json"])
    findings: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["findings"]
    assert code == (1 if findings else 0)  # exit 1 when there are findings (README exit codes)
    return findings


def by_atom(findings: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out = {f["atom_id"]: f for f in findings}
    assert len(out) == len(findings), "one finding per atom expected in this test"
    return out


# ---------------------------------------------------------------- mentions


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("The L1 store lives in `agent_memory/store.py`.", ["agent_memory/store.py"]),
        (
            "Import it from agent_memory.store, not elsewhere",
            ["agent_memory/store.py", "agent_memory/store"],
        ),
        ("Tests live under tests/ and run with `make test`", ["tests"]),
        ("Edit README.md, then pyproject.toml.", ["README.md", "pyproject.toml"]),
        ("`Makefile` holds the targets", ["Makefile"]),
        ("See src/app.py:12 and ./scripts/run.sh#L3", ["src/app.py", "scripts/run.sh"]),
        ("Keep __init__.py files empty; list them in .gitignore", ["__init__.py", ".gitignore"]),
        ("Config is read from (config/settings.toml)", ["config/settings.toml"]),
        ("Front end in app/, scratch in `dev`", ["app", "dev"]),
    ],
)
def test_path_mentions_finds_paths(claim: str, expected: list[str]) -> None:
    assert path_mentions(claim) == expected


@pytest.mark.parametrize(
    "claim",
    [
        "Docs are at https://example.com/docs/index.html and www.example.org/a.md",
        "Clone from github.com/owner/repo over ssh://git@host/x.git",
        "Requires Python 3.11, node v20.1.0 and pip 24.x",
        "Use one tool, e.g. ruff, i.e. not flake8, etc.",
        "It supports read/write and/or TCP/IP, L1/L2, CI/CD, 24/7 and 2026/11/05",
        "Mail user@example.com or check ~/notes/todo.md and /etc/hosts",
        "Run `make test` then `git commit --amend` with --output=json",
        "The ratio is 0.75 and the class is store.L1Store",
    ],
)
def test_path_mentions_skips_urls_versions_abbreviations_and_prose(claim: str) -> None:
    assert path_mentions(claim) == []


def test_mention_spans_point_at_the_text_in_the_claim() -> None:
    claim = "Run `./scripts/run.sh`, then edit agent_memory.store (or store.py)."
    found = mentions(claim)
    assert [claim[m.start : m.end] for m in found] == [
        "scripts/run.sh",
        "agent_memory.store",
        "store.py",
    ]
    assert [m.module for m in found] == [False, True, False]


# ---------------------------------------------------------------- a repository with history


@pytest.fixture
def history(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Files added on 11-02, then (11-10, after the atoms' evidence) renamed, deleted, edited."""
    at(monkeypatch, "2026-11-02")
    write(
        repo,
        {
            "agent_memory/store.py": PY_BODY,
            "src/legacy.py": PY_BODY + "# legacy\n",
            "lib/old_pkg/alpha.py": PY_BODY + "# alpha\n",
            "lib/old_pkg/beta.py": PY_BODY + "# beta\n",
            "config/settings.toml": "[timeouts]\nconnect = 5\n",
            "docs/guide.md": "# guide\n",
            "tools/gen.py": PY_BODY + "# gen\n",
        },
    )
    commit(repo, "add the code")
    at(monkeypatch, "2026-11-10")
    git(repo, "mv", "agent_memory/store.py", "agent_memory/l1store.py")
    git(repo, "mv", "lib/old_pkg", "lib/new_pkg")
    git(repo, "rm", "-q", "src/legacy.py")
    write(repo, {"config/settings.toml": "[timeouts]\nconnect = 10\n"})
    commit(repo, "rename the store, move the package, drop legacy, raise the timeout")
    return repo


def test_missing_paths_renames_and_changes(
    history: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    renamed_file = l2_atom("The L1 store lives in `agent_memory/store.py`")
    renamed_module = l2_atom("Import the store from agent_memory.store, never from utils")
    renamed_dir = l2_atom("Helpers live under lib/old_pkg/ in this repo")
    changed = l2_atom("Connection timeouts are set in config/settings.toml")
    unchanged = l2_atom("The guide is docs/guide.md")
    deleted_l1 = l1_atom("Never edit src/legacy.py by hand")
    adopt_l2(history, [renamed_file, renamed_module, renamed_dir, changed, unchanged])
    capture_l1(history, [deleted_l1])

    found = by_atom(stale_json(history, monkeypatch, capsys))
    assert set(found) == {
        renamed_file["id"],
        renamed_module["id"],
        renamed_dir["id"],
        changed["id"],
        deleted_l1["id"],
    }

    f = found[renamed_file["id"]]
    assert (f["tier"], f["path"], f["reason"], f["renamed_to"]) == (
        "L2",
        "agent_memory/store.py",
        MISSING,
        "agent_memory/l1store.py",
    )
    assert f["last_change"] == "2026-11-10T12:00:00Z"
    assert f["new_claim"] == "The L1 store lives in `agent_memory/l1store.py`"
    assert f["new_id"] == atom_id(f["new_claim"], "proj")
    assert f["suggestion"] == (
        "git memory remember --kind constraint 'The L1 store lives in `agent_memory/l1store.py`'"
        f" && git memory adopt --yes {f['new_id']} && git memory supersede {renamed_file['id']} --by {f['new_id']}"
    )

    f = found[renamed_module["id"]]
    assert (f["mention"], f["path"], f["renamed_to"]) == (
        "agent_memory.store",
        "agent_memory/store.py",
        "agent_memory/l1store.py",
    )
    assert f["new_claim"] == "Import the store from agent_memory.l1store, never from utils"

    f = found[renamed_dir["id"]]
    assert (f["path"], f["reason"], f["renamed_to"]) == ("lib/old_pkg", MISSING, "lib/new_pkg")
    assert f["new_claim"] == "Helpers live under lib/new_pkg/ in this repo"

    f = found[changed["id"]]
    assert (f["path"], f["reason"], f["renamed_to"], f["new_claim"]) == (
        "config/settings.toml",
        CHANGED,
        None,
        None,
    )
    assert (
        f["last_change"] == "2026-11-10T12:00:00Z" > f["last_seen"] == f"{EVIDENCE_DAY}T10:00:00Z"
    )
    assert f["suggestion"] == f"git memory decay {changed['id']}"

    f = found[deleted_l1["id"]]
    assert (f["tier"], f["path"], f["reason"], f["renamed_to"]) == (
        "L1",
        "src/legacy.py",
        MISSING,
        None,
    )
    assert f["suggestion"] == f"git memory forget {deleted_l1['id']}"


def test_text_output_one_line_per_finding_with_its_fix(
    history: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    atom = l2_atom("The L1 store lives in `agent_memory/store.py`")
    adopt_l2(history, [atom])
    monkeypatch.chdir(history)
    capsys.readouterr()
    assert main(["stale"]) == 1  # findings: exit 1, as the README's exit-code table says
    out = capsys.readouterr().out
    assert (
        f"{atom['id']} [L2] agent_memory/store.py: missing at HEAD (renamed to agent_memory/l1store.py)"
        in out
    )
    assert (
        "fix: git memory remember --kind constraint 'The L1 store lives in `agent_memory/l1store.py`'"
        in out
    )


def test_no_findings_for_non_paths_current_paths_and_claims_made_after_the_change(
    history: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    atoms = [
        l2_atom("Never create nonexistent/path.py or ghost.py"),  # never existed: not paths
        l2_atom("Docs: https://example.com/src/legacy.py, version 3.11, e.g. this"),
        l2_atom("The guide is docs/guide.md"),  # exists, unchanged since 11-02
        l2_atom(
            "src/legacy.py was removed; use tools/gen.py", day="2026-11-20"
        ),  # said after the removal
        l2_atom(
            "Timeouts are in config/settings.toml", day="2026-11-12"
        ),  # evidence newer than the edit
        l2_atom("Helpers are in lib/ and agent_memory/"),  # directories that still exist
        l2_atom(
            "The store was agent_memory/store.py", decayed=True
        ),  # already out of the working set
    ]
    adopt_l2(history, atoms)
    assert stale_json(history, monkeypatch, capsys) == []


def test_rename_chain_is_followed_and_a_later_delete_ends_it(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    at(monkeypatch, "2026-11-02")
    write(repo, {"a.py": PY_BODY + "# a\n", "x.py": PY_BODY + "# x\n"})
    commit(repo, "add")
    at(monkeypatch, "2026-11-08")
    git(repo, "mv", "a.py", "b.py")
    git(repo, "mv", "x.py", "y.py")
    commit(repo, "first renames")
    at(monkeypatch, "2026-11-09")
    git(repo, "mv", "b.py", "pkg_c.py")
    git(repo, "rm", "-q", "y.py")
    commit(repo, "second rename, and a delete")
    chained, dead_end = l2_atom("Start with `a.py`"), l2_atom("Start with `x.py`")
    adopt_l2(repo, [chained, dead_end])
    found = by_atom(stale_json(repo, monkeypatch, capsys))
    assert found[chained["id"]]["renamed_to"] == "pkg_c.py"
    assert found[chained["id"]]["new_claim"] == "Start with `pkg_c.py`"
    assert found[dead_end["id"]]["renamed_to"] is None
    assert found[dead_end["id"]]["suggestion"] == f"git memory decay {dead_end['id']}"


def test_bare_file_name_resolves_by_suffix_and_keeps_its_depth(
    history: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    atom = l2_atom("Both store.py and old_pkg/alpha.py hold helpers")
    adopt_l2(history, [atom])
    findings = stale_json(history, monkeypatch, capsys)
    assert sorted((f["path"], f["renamed_to"]) for f in findings) == [
        ("agent_memory/store.py", "agent_memory/l1store.py"),
        ("lib/old_pkg/alpha.py", "lib/new_pkg/alpha.py"),
    ]
    # Both renames land in one new claim, so either finding proposes the same successor.
    assert {f["new_claim"] for f in findings} == {
        "Both l1store.py and new_pkg/alpha.py hold helpers"
    }


def test_recreated_path_is_not_missing(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    at(monkeypatch, "2026-11-02")
    write(repo, {"app.py": PY_BODY})
    commit(repo, "add")
    at(monkeypatch, "2026-11-03")
    git(repo, "mv", "app.py", "main.py")
    commit(repo, "rename")
    write(repo, {"app.py": "print('new app')\n"})
    commit(repo, "a new app.py")
    atom = l2_atom("Entry point is app.py", day="2026-11-04")
    adopt_l2(repo, [atom])
    assert stale_json(repo, monkeypatch, capsys) == []


def test_pinned_atom_is_unpinned_before_decay(
    history: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    atom = l2_atom("Never import src/legacy.py", pinned=True)
    adopt_l2(history, [atom])
    (finding,) = stale_json(history, monkeypatch, capsys)
    assert (
        finding["suggestion"] == f"git memory unpin {atom['id']} && git memory decay {atom['id']}"
    )


def test_a_finding_turns_into_a_decay_commit(
    history: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    atom = l2_atom("Never import src/legacy.py")
    adopt_l2(history, [atom])
    (finding,) = stale_json(history, monkeypatch, capsys)
    argv = finding["suggestion"].split()
    assert argv[:2] == ["git", "memory"]
    assert main(argv[2:]) == 0
    assert git(history, "log", "-1", "--format=%s").startswith("memory: decay")
    assert l2_atoms(history)[atom["id"]].get("decayed") is True
    assert stale_json(history, monkeypatch, capsys) == []


def test_git_processes_do_not_grow_with_the_number_of_atoms(
    history: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, ...]] = []
    real_run_git = git_boundary.run_git

    def counting(cwd: Any, *args: str, **kwargs: Any) -> Any:
        calls.append(args)
        return real_run_git(cwd, *args, **kwargs)

    monkeypatch.setattr(git_boundary, "run_git", counting)
    atoms = [
        l2_atom(f"Rule {i}: see src/legacy.py and agent_memory/store.py and docs/guide.md")
        for i in range(40)
    ]
    findings = find_stale(git_boundary.find_repo(history), atoms)
    assert len(findings) == 80
    assert [args[0] for args in calls] == ["ls-tree", "log"]


def test_unborn_head_and_no_mentions(tmp_path: Path, repo: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q", "-b", "main")
    atoms = [l2_atom("Edit src/app.py")]
    assert find_stale(git_boundary.find_repo(empty), atoms) == []
    assert find_stale(git_boundary.find_repo(repo), [l2_atom("Use tabs everywhere")]) == []


def test_subprocess_prints_one_json_object(history: Path) -> None:
    atom = l1_atom("Never edit src/legacy.py by hand")
    capture_l1(history, [atom])
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.run(
        [sys.executable, "-m", "agent_memory", "stale", "--output", "json"],
        cwd=history,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr  # findings: exit 1
    data = json.loads(proc.stdout)
    assert [(f["atom_id"], f["reason"], f["path"]) for f in data["findings"]] == [
        (atom["id"], MISSING, "src/legacy.py")
    ]


def test_a_committed_kind_is_quoted_in_the_fix_to_paste(history: Path, tmp_path: Path) -> None:
    """The fix `stale` prints for a renamed path (`git memory remember --kind KIND '…' && …`)
    took KIND as it was from the adopted atom: a cloned repository's hand-written adopted.log
    line with kind `fact$(touch${IFS}FILE)` ran its writer's command in the shell of whoever
    pasted the line. KIND is quoted as the claim is."""
    planted = tmp_path / "pwned"
    adopt_l2(history, [l2_atom("The L1 store lives in `agent_memory/store.py`",
                               kind=f"fact$(touch${{IFS}}{planted})")])  # fmt: skip
    out = gm(history, "stale", check=False).stdout
    fix = next(line for line in out.splitlines() if "fix: " in line).split("fix: ", 1)[1]
    subprocess.run(["sh", "-c", "git() { :; }; " + fix], cwd=history, check=False, capture_output=True, timeout=60)
    assert not planted.exists(), fix
