"""`git memory validate` with no file checks the repository itself (issue 16): every atom on
memory/atoms (schema, id, back-pointers and the sessions they name), and says what it checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import l1_atom
from sessions import gm

from agent_memory.gitio import repo as G
from agent_memory.store.l1 import ATOMS_DIR, Change, L1Store, Snapshot


@pytest.fixture
def store(repo: Path) -> L1Store:
    gm(repo, "init", "--yes", "--no-claude-hooks")
    return L1Store(G.find_repo(repo))


def _write(store: L1Store, atom: dict[str, object]) -> None:
    def compute(_snap: Snapshot) -> Change:
        return Change(subject="test: write", writes={str(atom["id"]): atom})  # type: ignore[dict-item]

    store.transact(compute)


def _write_raw(store: L1Store, name: str, data: bytes) -> None:
    """A blob no writer would produce (a hand edit, a bad merge): bypasses validation."""
    tip = store.tip()
    assert tip is not None
    tree = G.build_tree(store.repo, G.commit_tree(store.repo, tip), {f"{ATOMS_DIR}/{name}": data})
    oid = G.create_commit(store.repo, tree, [tip], "test: raw write")
    G.cas_update_ref(store.repo, G.ATOMS_REF, oid, tip, "test")


def test_a_clean_store_validates_and_says_what_was_checked(repo: Path, store: L1Store) -> None:
    _write(store, l1_atom("Never push to main", sessions=("s1", "s2")))
    proc = gm(repo, "validate")
    assert proc.stdout.rstrip().endswith("ok")
    # counted in words that agree with the number (it said "1 atoms" and "1 adopt/lifecycle commit(s)")
    assert "memory/atoms: 1 atom (schema, ids, back-pointers), 0 tombstones" in proc.stdout
    assert "(guard, rendering), 0 adopt/lifecycle commits against their Atom-Id" in proc.stdout
    assert "(s)" not in proc.stdout


def test_a_pointer_to_a_session_the_atom_does_not_have_is_an_error(repo: Path, store: L1Store) -> None:
    atom = l1_atom("Never push to main", sessions=("s1", "s2"))
    atom["evidence"][0]["source"] = atom["evidence"][0]["source"].replace("/s1.jsonl", "/zz.jsonl")
    atom["evidence"][0]["session"] = "zz"  # the line is of session zz (a file holding two sessions is fine)
    _write(store, atom)
    proc = gm(repo, "validate", check=False)
    assert proc.returncode == 1
    assert f"atoms/{atom['id']}.json: back-pointer" in proc.stdout and "zz" in proc.stdout


@pytest.mark.parametrize(
    ("name", "data", "why"),
    [
        ("atm_00000000.json", b"{not json", "not JSON"),
        ("atm_11111111.json", None, "does not match"),
    ],
)
def test_unreadable_or_misfiled_atoms_are_errors(
    repo: Path, store: L1Store, name: str, data: bytes | None, why: str
) -> None:
    if data is None:
        data = json.dumps(l1_atom("Use tabs in the Makefile")).encode()
    _write_raw(store, name, data)
    proc = gm(repo, "validate", check=False)
    assert proc.returncode == 1 and name in proc.stdout and why in proc.stdout


def test_a_transcript_holding_two_sessions_captures_atoms_validate_accepts(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A continued or `--resume`d session can write a second sessionId into the same file: the
    back-pointer names the file (its first session), while an atom from a later line belongs to
    the later session. validate called that pointer a session the atom does not have. It now
    accepts a pointer whose line the atom's evidence ties to one of its sessions. Built from
    two real transcripts, the second appended to the first as Claude Code appends a
    continuation, both recorded in this repository (their `cwd`)."""
    import os

    from conftest import TRANSCRIPTS

    from agent_memory.model.paths import slug_for

    monkeypatch.setenv("AGENT_MEMORY_NOW", "2025-11-20T12:00:00Z")
    gm(repo, "init", "--yes", "--no-claude-hooks")
    real = TRANSCRIPTS / "real_projects"
    first = real / "-Users-dain-workspace-claude-code-log-sample" / "fe869ecb-c176-478f-9734-7e4b8ef12cff.jsonl"
    later = real / "-Users-dain-workspace-JSSoundRecorder" / "7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl"
    folder = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects" / slug_for(repo.resolve())
    folder.mkdir(parents=True, exist_ok=True)
    both = folder / first.name
    lines = [*first.read_text().splitlines(), *later.read_text().splitlines()]

    def here(line: str) -> str:  # recorded in this repository, as the project's own sessions are
        record = json.loads(line)
        if isinstance(record, dict) and "cwd" in record:
            record["cwd"] = str(repo)
        if isinstance(record, dict) and isinstance(record.get("timestamp"), str):  # the first, continued in November
            record["timestamp"] = record["timestamp"].replace("2025-06-", "2025-11-")
        return json.dumps(record)

    both.write_text("".join(here(line) + "\n" for line in lines if line.strip()))
    captured = json.loads(gm(repo, "capture", "--transcript", str(both), "--output", "json").stdout)
    assert len(captured["new"]) >= 2
    atoms = json.loads(gm(repo, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]
    sessions = {s for a in atoms for s in a["sessions"]}
    assert sessions == {"fe869ecb-c176-478f-9734-7e4b8ef12cff", "7acd37a8-2745-4b58-a8a9-46164b22ad9e"}
    assert all(a["source"].startswith(f"~/.claude/projects/{folder.name}/{first.name}#L") for a in atoms)
    proc = gm(repo, "validate", check=False)
    assert proc.returncode == 0, proc.stdout  # the lines themselves name the later session
    both.unlink()  # aged out (Claude Code cleans old transcripts): the L1 evidence still says
    proc = gm(repo, "validate", check=False)
    assert proc.returncode == 0 and "no longer on this machine" in proc.stdout, proc.stdout
    # a pointer whose line is of a session the atom does not have is still an error
    # (test_a_pointer_to_a_session_the_atom_does_not_have_is_an_error)
