"""`git memory consolidate`: proposals over real L1 atoms (memory/atoms), real L2 atoms
(committed adopted.log) and real auto-memory directories; each tier on its own; nothing written."""

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

import agent_memory.gitio.repo as git_boundary
from agent_memory.claude.automemory import default_auto_memory_dir
from agent_memory.cli.main import main
from agent_memory.committed.adopted_log import LogEntry, format_entry
from agent_memory.model.atom import to_committed
from agent_memory.store.capture import capture_atoms
from agent_memory.store.l1 import L1Store

REDIS = [
    "The test suite needs Redis running on port 6379",
    "Tests require Redis on port 6379 to be running.",
    "Integration tests need a Redis server running on port 6379",
]
PNPM = ["Use pnpm, not npm, to install packages", "Install packages with pnpm, never with npm"]
OTHERS = ["Never push directly to main", "The API uses JWT tokens for authentication"]
DEPLOY = [
    "Deploys go through the staging cluster before production",
    "Production deploys go through the staging cluster first",
]


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-12-01T00:00:00Z")


def capture_l1(repo: Path, claims: Sequence[str]) -> L1Store:
    store = L1Store(git_boundary.find_repo(repo))
    store.init()
    result = capture_atoms(store, [l1_atom(c) for c in claims], "s1", None)
    assert result.commit is not None and not result.invalid
    return store


def l2_atom(claim: str, **extra: Any) -> dict[str, Any]:
    atom = to_committed(l1_atom(claim), "L2", "2026-11-06T00:00:00Z")
    atom.update(extra)
    return atom


def adopt_l2(repo: Path, atoms: Sequence[dict[str, Any]]) -> None:
    log = repo / ".memory" / "adopted.log"
    log.parent.mkdir(exist_ok=True)
    log.write_text(
        "".join(
            format_entry(LogEntry(op="adopt", atom=a, at="2026-11-06T00:00:00Z")) for a in atoms
        )
    )
    git(repo, "add", ".memory/adopted.log")
    git(repo, "commit", "-q", "-m", "memory: adopt")


def ids(claims: Sequence[str]) -> list[str]:
    return sorted(l1_atom(c)["id"] for c in claims)


def run_json(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str
) -> dict[str, Any]:
    monkeypatch.chdir(repo)
    capsys.readouterr()
    assert main(["consolidate", *argv, "--output", "json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_l1_and_l2_proposals_are_per_tier_with_gist_provenance_and_apply_steps(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    capture_l1(repo, [*REDIS, *PNPM, *OTHERS, DEPLOY[0]])
    # L2 holds the other DEPLOY claim: a duplicate of an L1 atom across tiers is not a cluster.
    l2 = [
        l2_atom(DEPLOY[1], pinned=True),
        l2_atom("Deploys go through the staging cluster before production!"),
        l2_atom("Redis cache keys expire after one hour"),
    ]
    adopt_l2(repo, l2)

    proposals = run_json(repo, monkeypatch, capsys)["proposals"]
    by_tier = {(p["tier"], tuple(p["members"])) for p in proposals}
    l2_deploy = tuple(sorted([l2[0]["id"], l2[1]["id"]]))
    assert by_tier == {("L1", tuple(ids(REDIS))), ("L1", tuple(ids(PNPM))), ("L2", l2_deploy)}

    redis = next(p for p in proposals if p["members"] == ids(REDIS))
    assert redis["gist"] in REDIS and redis["gist_member"] in redis["members"]
    assert sorted([redis["gist_member"], *redis["consolidated_from"]]) == redis["members"]
    assert set(redis["texts"].values()) == set(REDIS)
    assert redis["pinned"] == []
    assert redis["apply"][0] == f"git memory remember --kind constraint '{redis['gist']}'"
    assert redis["apply"][1:] == [f"git memory forget {m}" for m in redis["consolidated_from"]]

    deploy = next(p for p in proposals if p["tier"] == "L2")
    assert deploy["pinned"] == [l2[0]["id"]]
    assert deploy["apply"] == [
        f"git memory supersede {m} --by {deploy['gist_member']}"
        for m in deploy["consolidated_from"]
    ]


def test_proposals_only_nothing_is_written(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = capture_l1(repo, [*REDIS, *PNPM])
    adopt_l2(repo, [l2_atom(DEPLOY[0]), l2_atom(DEPLOY[1])])
    before = (
        store.tip(),
        git(repo, "rev-parse", "HEAD"),
        git(repo, "for-each-ref"),
        git(repo, "status", "--porcelain"),
    )
    monkeypatch.chdir(repo)
    assert main(["consolidate"]) == 0
    out = capsys.readouterr().out
    assert (
        store.tip(),
        git(repo, "rev-parse", "HEAD"),
        git(repo, "for-each-ref"),
        git(repo, "status", "--porcelain"),
    ) == before
    assert "L1 cluster of 3" in out and "L2 cluster of 2" in out
    assert "consolidated_from: " in out and "  gist  atm_" in out and "  also  atm_" in out
    assert "git memory supersede atm_" in out
    assert out.rstrip().endswith("proposals only: nothing was written")


def test_superseded_atoms_are_out_and_no_duplicates_says_so(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    keep = l2_atom(DEPLOY[0])
    adopt_l2(repo, [keep, l2_atom(DEPLOY[1], superseded_by=keep["id"]), l2_atom(OTHERS[0])])
    # No memory/atoms branch: a clone holds L2 without L1, and consolidate still works.
    assert run_json(repo, monkeypatch, capsys) == {"proposals": [], "contradictions": []}
    assert main(["consolidate"]) == 0
    assert "no near-duplicates in L1 or L2" in capsys.readouterr().out


def write_memory_dir(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "MEMORY.md").write_text(
        "- [redis](redis_a.md)\n- region `feedback_*.md` → feedback\n"
    )
    (directory / "redis_a.md").write_text(
        "---\nname: redis\ndescription: redis for tests\npinned: true\n---\n"
        "The test suite needs Redis running on port 6379.\n**Why:** flaky tests otherwise\n"
    )
    (directory / "feedback_redis.md").write_text(
        "---\nname: redis again\n---\nThe test suite needs a Redis server running on port 6379\n"
    )
    (directory / "feedback_pnpm.md").write_text("Install packages with pnpm, never with npm\n")
    (directory / ".memory-pressure.jsonl").write_text('{"lines": 190}\n')


def test_auto_memory_directory_proposals(
    tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "memdir"
    write_memory_dir(directory)
    data = run_json(repo, monkeypatch, capsys, "--auto-memory", str(directory))
    assert data["directory"] == str(directory)
    (proposal,) = data["proposals"]
    assert proposal["tier"] == "auto-memory"
    assert proposal["members"] == ["feedback_redis.md", "redis_a.md"]
    assert proposal["pinned"] == ["redis_a.md"]
    other = proposal["consolidated_from"][0]
    assert f"consolidated_from: [{other}]" in proposal["apply"][0]
    assert "MEMORY.md" in proposal["apply"][1]
    assert sorted(os.listdir(directory)) == [
        ".memory-pressure.jsonl",
        "MEMORY.md",
        "feedback_pnpm.md",
        "feedback_redis.md",
        "redis_a.md",
    ]


def test_auto_memory_without_dir_uses_this_repositorys_default(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = default_auto_memory_dir(repo)
    assert str(directory).startswith(
        os.environ["CLAUDE_CONFIG_DIR"]
    )  # isolated, never the real ~/.claude
    monkeypatch.chdir(repo)
    assert main(["consolidate", "--auto-memory", "--output", "json"]) == 0
    assert (
        json.loads(capsys.readouterr().out)["proposals"] == []
    )  # no directory yet: nothing to fold
    write_memory_dir(directory)
    data = run_json(repo, monkeypatch, capsys, "--auto-memory")
    assert data["directory"] == str(directory)
    assert [p["members"] for p in data["proposals"]] == [["feedback_redis.md", "redis_a.md"]]
    assert main(["consolidate", "--auto-memory"]) == 0
    out = capsys.readouterr().out
    assert "auto-memory cluster of 2" in out and "holds pinned redis_a.md" in out


def test_auto_memory_dir_that_does_not_exist_is_a_usage_error(
    tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(repo)
    assert main(["consolidate", "--auto-memory", str(tmp_path / "nope")]) == 2
    assert "no directory at" in capsys.readouterr().err


def test_subprocess_prints_one_json_object(repo: Path) -> None:
    capture_l1(repo, [*PNPM, OTHERS[1]])
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.run(
        [sys.executable, "-m", "agent_memory", "consolidate", "--output", "json"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert [(p["tier"], p["members"]) for p in json.loads(proc.stdout)["proposals"]] == [
        ("L1", ids(PNPM))
    ]
