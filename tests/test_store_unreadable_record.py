"""An atom record on memory/atoms that cannot be read (a torn write, a hand edit, a bad merge)
is the only copy of that atom's evidence and review state. A capture that observed its claim
again read the path as empty and wrote a fresh one-session atom over it, reported as `new`:
the record was gone from the store, nothing was logged, and `validate` said ok afterwards. A
record that reads but fails the schema (a newer version's `kind`) made the merge fail the whole
commit instead: nothing else said in that session was captured, by any capture, until it was
mended.

Now the record is left as it is, that one observation is held back (logged, `skipped.unreadable`
in the JSON), everything else of the transcript is captured, and the transcript is not marked
captured: once the record is restored, the next capture merges the held-back observation."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, gm_json, write_session
from test_auto_memory_review import remembered  # noqa: F401 - a fixture

PUSH = "Never push directly to main; always open a pull request."
PNPM = "We use pnpm, not npm, in this repo."
EARLY = [(f"aaaaaaaa-0000-4000-8000-00000000000{n}", f"2026-10-0{n}") for n in (1, 2, 3)]
LATER = "dddddddd-0000-4000-8000-000000000004"


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now="2026-10-10T12:00:00Z")


def _atoms(repo: Path) -> dict[str, dict[str, object]]:
    return {a["id"]: a for a in gm_json(repo, "inspect", "--tier", "L1")["atoms"]}


def _path_of(repo: Path, ident: str) -> str:
    names = git(repo, "ls-tree", "-r", "--name-only", "refs/heads/memory/atoms").split()
    return next(n for n in names if n.endswith(f"/{ident}.json") and n.startswith("atoms/"))


def _set_blob(repo: Path, path: str, data: bytes, tmp: Path) -> None:
    """Replace one file of memory/atoms's tip with `data`, in a commit on top (plumbing)."""
    env = {**os.environ, "GIT_INDEX_FILE": str(tmp / "index")}

    def run(*args: str, stdin: bytes | None = None) -> str:
        return subprocess.run(["git", "-C", str(repo), *args], input=stdin, env=env, capture_output=True,
                              check=True).stdout.decode().strip()  # fmt: skip

    blob = run("hash-object", "-w", "--stdin", stdin=data)
    run("read-tree", "refs/heads/memory/atoms")
    run("update-index", "--cacheinfo", f"100644,{blob},{path}")
    tree = run("write-tree")
    commit = run("commit-tree", tree, "-p", "refs/heads/memory/atoms", "-m", "hand edit")
    run("update-ref", "refs/heads/memory/atoms", commit)


def _damaged(good: bytes, damage: str) -> bytes:
    if damage == "torn":
        return good[: len(good) // 2]
    if damage == "nested":  # JSON nested deeper than json's scanner recurses: RecursionError
        return b'{"id": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    record = json.loads(good)
    record["kind"] = "habit"  # a kind this version's schema does not know (a newer version's)
    return (json.dumps(record, sort_keys=True, indent=2) + "\n").encode()


@pytest.mark.parametrize("damage", ["torn", "foreign-kind", "nested"])
def test_a_capture_never_writes_over_an_unreadable_record(project: Path, tmp_path: Path, damage: str) -> None:
    for session, day in EARLY:
        write_session(project, session, day, [{"user": PUSH}])
    gm(project, "capture", "--all", "--no-stage")
    [(ident, atom)] = _atoms(project).items()
    assert len(atom["sessions"]) == 3  # type: ignore[arg-type]
    path = _path_of(project, ident)
    good = git(project, "show", f"refs/heads/memory/atoms:{path}").encode()
    torn = _damaged(good, damage)
    _set_blob(project, path, torn, tmp_path)

    later = write_session(project, LATER, "2026-10-05", [{"user": PUSH}, {"user": PNPM}])
    result = gm_json(project, "capture", "--transcript", str(later))
    # The record is untouched, and said so; the rest of the transcript is captured.
    shown = subprocess.run(["git", "-C", str(project), "show", f"refs/heads/memory/atoms:{path}"],
                           capture_output=True, check=True).stdout  # fmt: skip
    assert shown == torn
    assert ident not in result["new"] and ident not in result["merged"]
    assert result["skipped"]["unreadable"] == [ident]
    assert any("pnpm" in str(a["claim"]).lower() for a in _atoms(project).values())
    log = (project / ".git" / "agent-memory" / "errors.log").read_text()
    assert ident in log and path in log
    for verb in (["status"], ["show"], ["validate"]):  # each reads the store whole
        proc = gm(project, *verb, check=False)
        assert "internal error" not in proc.stderr and proc.returncode in (0, 1), proc

    # Restored from its history, the record takes the held-back observation at the next capture.
    _set_blob(project, path, good, tmp_path)
    gm(project, "capture", "--all", "--no-stage")
    restored = _atoms(project)[ident]
    assert set(restored["sessions"]) == {s for s, _ in EARLY} | {LATER}  # type: ignore[arg-type]
    assert json.loads(gm(project, "validate", "--output", "json").stdout)["ok"]


def test_claude_memory_folder_is_read_again_while_its_atom_record_cannot_be_read(
    remembered: tuple[Path, Path], tmp_path: Path  # noqa: F811 - the imported fixture
) -> None:
    """The same for Claude Code's own memory folder: it was marked captured although the
    observation of its note was held back, so it was never read again once the record was
    restored."""
    repo, target = remembered
    gm(repo, "capture", "--all", "--no-stage")
    [ident] = [i for i, a in _atoms(repo).items() if a.get("origin") == "auto-memory"]
    path = _path_of(repo, ident)
    good = git(repo, "show", f"refs/heads/memory/atoms:{path}").encode()
    _set_blob(repo, path, good[: len(good) // 2], tmp_path)
    target.write_text(target.read_text("utf-8") + "\nAlso before a release build.\n", "utf-8")
    first = gm_json(repo, "capture", "--all", "--no-stage")["auto_memory"]
    assert first["read"] == "read" and ident not in first["new"] + first["merged"]

    _set_blob(repo, path, good, tmp_path)
    again = gm_json(repo, "capture", "--all", "--no-stage")["auto_memory"]
    assert again["read"] == "read"  # not "unchanged": the held-back observation is merged now
    assert ident in _atoms(repo)


RUFF = "Always run ruff before committing."
NO_RUFF = "Never run ruff before committing."


def test_a_contradiction_with_a_record_that_fails_the_schema_leaves_that_record_unmarked(
        project: Path, tmp_path: Path) -> None:  # fmt: skip
    """A capture whose new claim contradicts a stored record that fails the schema (not one this
    capture observes) would mark that record contested — a write that fails validation, so the
    whole capture failed. Now that record is not marked (one errors.log line, the record left
    as it is) and everything the transcript said is captured."""
    for session, day in EARLY:
        write_session(project, session, day, [{"user": RUFF}])
    gm(project, "capture", "--all", "--no-stage")
    [(ident, _atom)] = _atoms(project).items()
    path = _path_of(project, ident)
    bad = _damaged(git(project, "show", f"refs/heads/memory/atoms:{path}").encode(), "foreign-kind")
    _set_blob(project, path, bad, tmp_path)

    later = write_session(project, LATER, "2026-10-05", [{"user": NO_RUFF}, {"user": PNPM}])
    result = gm_json(project, "capture", "--transcript", str(later))
    assert result["commit"], result
    claims = {str(a["claim"]).lower(): a for a in _atoms(project).values()}
    assert any("pnpm" in c for c in claims) and any(c.startswith("never run ruff") for c in claims)
    shown = subprocess.run(["git", "-C", str(project), "show", f"refs/heads/memory/atoms:{path}"],
                           capture_output=True, check=True).stdout  # fmt: skip
    assert shown == bad
    log = (project / ".git" / "agent-memory" / "errors.log").read_text()
    assert sum(ident in line for line in log.splitlines()) == 1, log


def test_a_torn_tombstone_never_lets_the_forgotten_claim_be_learned_again(project: Path, tmp_path: Path) -> None:
    """A forgotten claim's tombstone that cannot be read (a torn write, a hand edit) read as no
    tombstone: the next capture that saw the claim again wrote it back as a new atom, silently
    undoing the forget (and recalling it). The observation is held back like one whose record
    is unreadable, the tombstone named in the log; restored, the tombstone holds again."""
    for session, day in EARLY:
        write_session(project, session, day, [{"user": PUSH}])
    gm(project, "capture", "--all", "--no-stage")
    [ident] = _atoms(project)
    gm(project, "forget", ident)
    path = f"tombstones/{ident}.json"
    good = git(project, "show", f"refs/heads/memory/atoms:{path}").encode()
    _set_blob(project, path, good[: len(good) // 2], tmp_path)

    later = write_session(project, LATER, "2026-10-05", [{"user": PUSH}, {"user": PNPM}])
    result = gm_json(project, "capture", "--transcript", str(later), "--no-stage")
    assert ident not in result["new"] and ident not in _atoms(project)
    assert result["skipped"]["unreadable"] == [ident]
    assert any("pnpm" in str(a["claim"]).lower() for a in _atoms(project).values())  # the rest is captured
    assert path in (project / ".git" / "agent-memory" / "errors.log").read_text()
    checked = gm(project, "validate", check=False)
    assert checked.returncode == 1 and path in checked.stdout + checked.stderr

    _set_blob(project, path, good, tmp_path)  # restored: forgotten, as before
    result = gm_json(project, "capture", "--all", "--no-stage")
    assert ident not in _atoms(project)
