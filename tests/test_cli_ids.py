"""One rule names an atom for every verb that takes an ID (agent_memory/cli/ids.py): an id, a
unique `atm_` prefix, the claim, or words of the claim — and the help says exactly that. The
verbs run in-process (`main(argv)`) on real repositories with a real memory/atoms branch."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from builders import l1_atom

import agent_memory.gitio.repo as git_boundary
from agent_memory.cli.ids import ACCEPTED, NoMatch, resolve
from agent_memory.cli.main import main
from agent_memory.model.errors import AmbiguousError
from agent_memory.store.capture import capture_atoms
from agent_memory.store.l1 import L1Store

RUFF = "Format Python with ruff format before committing"
RUFF_CHECK = "Run ruff check on every pull request"
TABS = "Use tabs for indentation in the Makefile"


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-12-01T00:00:00Z")


@pytest.fixture
def store(repo: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Three L1 atoms on memory/atoms; claim → id. The verbs run in `repo`."""
    atoms = [l1_atom(c, days=("2026-11-20",)) for c in (RUFF, RUFF_CHECK, TABS)]
    l1 = L1Store(git_boundary.find_repo(repo))
    l1.init()
    assert capture_atoms(l1, atoms, "s1", None).commit is not None
    monkeypatch.chdir(repo)
    return {a["claim"]: a["id"] for a in atoms}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = run(capsys, *argv, "--output", "json")
    return code, json.loads(out)


# --- the rule ----------------------------------------------------------------------------------------

CLAIMS = {"atm_1a2b3c4d": RUFF, "atm_1a2b9999": RUFF_CHECK, "atm_77777777": TABS}


@pytest.mark.parametrize(
    ("key", "ident"),
    [
        ("atm_77777777", "atm_77777777"),  # the id
        ("atm_1a2b3", "atm_1a2b3c4d"),  # a unique prefix
        ("format python with ruff format before committing.", "atm_1a2b3c4d"),  # the claim
        ("ruff format", "atm_1a2b3c4d"),  # words of the claim
        ("makefile tabs", "atm_77777777"),  # in any order
        ("ruff pull", "atm_1a2b9999"),  # each word begins a word of the claim
    ],
)
def test_a_key_names_one_atom(key: str, ident: str) -> None:
    assert resolve(key, CLAIMS) == ident


def test_a_key_naming_several_lists_them_with_their_claims() -> None:
    with pytest.raises(AmbiguousError) as raised:
        resolve("ruff", CLAIMS)
    assert "atm_1a2b3c4d" in raised.value.message and "atm_1a2b9999" in raised.value.message
    assert "ruff format" in raised.value.message and raised.value.hint
    with pytest.raises(AmbiguousError):
        resolve("atm_1a2b", CLAIMS)  # a prefix of two ids


def test_a_key_naming_nothing_says_what_is_accepted() -> None:
    with pytest.raises(NoMatch) as raised:
        resolve("black", CLAIMS)
    assert raised.value.hint and ACCEPTED in raised.value.hint
    with pytest.raises(NoMatch):
        resolve("1a2b3c4d", CLAIMS)  # an id prefix needs its `atm_`


def test_a_review_commit_prefix_needs_seven_hex_digits() -> None:
    commits = {"0123456789abcdef0123456789abcdef01234567": "atm_77777777"}
    assert resolve("0123456", CLAIMS, commits) == "atm_77777777"
    with pytest.raises(NoMatch):
        resolve("012345", CLAIMS, commits)


# --- the verbs ---------------------------------------------------------------------------------------


def test_forget_takes_words_of_the_claim(store: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "forget", "ruff format")
    assert code == 0 and data["id"] == store[RUFF] and data["commit"]
    code, data = run_json(capsys, "inspect", "--tier", "L1")
    assert {a["id"] for a in data["atoms"]} == {store[RUFF_CHECK], store[TABS]}
    code, data = run_json(capsys, "forget", "--undo", "ruff format")  # a tombstone by its claim too
    assert code == 0 and data["id"] == store[RUFF] and data["restored"] is True


def test_forget_of_several_matches_refuses_and_lists_them(
    store: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "forget", "ruff")
    assert code == 2 and out == ""
    first, hint = err.strip().splitlines()
    assert store[RUFF] in first and store[RUFF_CHECK] in first and store[TABS] not in first
    assert hint.startswith("hint:")
    _, data = run_json(capsys, "inspect", "--tier", "L1")
    assert len(data["atoms"]) == 3  # nothing forgotten


@pytest.mark.parametrize("argv", [("inspect", "--why"), ("log",), ("verify", "--by", "true")])
def test_every_id_verb_takes_the_same_words(
    store: dict[str, str], capsys: pytest.CaptureFixture[str], argv: Sequence[str]
) -> None:
    verb, *rest = argv
    code, data = run_json(capsys, verb, "tabs makefile", *rest) if verb != "inspect" else run_json(
        capsys, verb, *rest, "tabs makefile")  # fmt: skip
    assert code == 0
    named = data.get("id") or data.get("atom", {}).get("id")
    assert named == store[TABS]


def test_an_id_that_names_nothing_gets_the_same_hint_from_every_verb(
    store: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """`log atm_<unknown>` said 'list atoms with `git memory inspect`' where every other verb
    (and `log` with words) says '`git memory show` lists the atoms'."""
    hints = set()
    for argv in (["log", "atm_00000000"], ["log", "no such words"], ["forget", "atm_00000000"],
                 ["inspect", "--why", "atm_00000000"]):  # fmt: skip
        code, out, err = run(capsys, *argv)
        lines = err.strip().splitlines()
        assert code == 2 and out == "" and len(lines) == 2, err
        hints.add(lines[1].removeprefix("hint: ").split("; ")[-1])
    assert hints == {"`git memory show` lists the atoms"}


def test_the_help_says_what_an_id_may_be(capsys: pytest.CaptureFixture[str]) -> None:
    for verb in ("forget", "pin", "log"):
        code, out, _ = run(capsys, "help", verb)
        assert code == 0 and "words of its claim" in " ".join(out.split())
