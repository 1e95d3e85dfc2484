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
    assert "memory/atoms: 1 atoms (schema, ids, back-pointers)" in proc.stdout


def test_a_pointer_to_a_session_the_atom_does_not_have_is_an_error(repo: Path, store: L1Store) -> None:
    atom = l1_atom("Never push to main", sessions=("s1", "s2"))
    atom["evidence"][0]["source"] = atom["evidence"][0]["source"].replace("/s1.jsonl", "/zz.jsonl")
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
