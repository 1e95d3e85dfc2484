"""L3, the global memory repo (spec §3, §4.1.1, §4.3, §5.1, §9.4, §9.6), end to end: real project
repositories, real-format transcripts, the `git memory` CLI, real `git commit`s through
the installed guard, and a real bare remote for the sync between two machines.

The clock: `AGENT_MEMORY_NOW` pins what the gates measure against and `GIT_COMMITTER_DATE` what
git stamps on the adopt commits; `at(day)` sets both, so "adopted at day X, promoted at X+31"
reads as it is written."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import git
from golden import Golden
from sessions import gm, gm_json, write_session

from agent_memory.committed import adopted_log
from agent_memory.committed.adopted_log import LogEntry
from agent_memory.committed.files import TierFiles
from agent_memory.model.atom import atom_id, normalize

DAY_X = "2026-11-06T12:00:00Z"
X_PLUS_10 = "2026-11-16T12:00:00Z"
X_PLUS_31 = "2026-12-07T12:00:00Z"
PUSH_RULE = "Never push directly to main; always open a pull request."
BASE_DEV = "The PR base branch is dev."
BASE_MAIN = "The PR base branch is main."


def at(when: str) -> dict[str, str]:
    return {"AGENT_MEMORY_NOW": when, "GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when}


def home() -> Path:
    return Path(os.environ["AGENT_MEMORY_HOME"])


def sid(tag: str, n: int) -> str:
    """A session id (the transcript's file name), unique across projects as real ones are."""
    return f"{tag}-0000-4000-8000-{n:012d}"


def make_project(
    tmp_path: Path, name: str, parent: str = "work", env: dict[str, str] | None = None
) -> Path:
    path = tmp_path / parent / name
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    # one history per folder: with the fixed commit dates, two alike would be one repository
    (path / "README.md").write_text(f"# {name}\n" if parent == "work" else f"# {name} ({parent})\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    gm(path, "init", "--yes", env=env)
    return path


def adopt_at_l2(
    repo: Path, sessions: list[tuple[str, str, str]], when: str = DAY_X, verify: str | None = None
) -> dict[str, Any]:
    """Capture `sessions` ((id, day, prompt)), stage and adopt everything eligible at `when`;
    returns the adopted.log on main folded to {claim: atom}."""
    for session, day, prompt in sessions:
        write_session(repo, session, day, [{"user": prompt}])
    gm(repo, "capture", "--all", "--no-stage", env=at(when))
    if verify:
        gm(repo, "verify", verify, "--by", "true", env=at(when))
    gm(repo, "stage", env=at(when))
    gm(repo, "adopt", "--all", env=at(when))
    return {a["claim"]: a for a in held_at_main(repo).values()}


def held_at_main(repo: Path) -> dict[str, Any]:
    entries, errors = adopted_log.parse(git(repo, "show", "main:.memory/adopted.log"))
    assert not errors
    return adopted_log.fold(entries)


def l2_atom(
    project: str,
    claim: str,
    kind: str = "constraint",
    promoted_at: str = "2026-11-03T09:00:00Z",
    **extra: Any,
) -> dict[str, Any]:
    tag = hashlib.sha256(f"{project}\0{claim}".encode()).hexdigest()[:8]
    return {
        "id": atom_id(claim, project),
        "claim": claim,
        "scope": "project",
        "project": project,
        "kind": kind,
        "first_seen": "2026-11-01T09:00:00Z",
        "last_seen": promoted_at,
        "observations": 2,
        "sessions": [sid(tag, 1), sid(tag, 2)],
        "source": f"{sid(tag, 2)}.jsonl#L1",
        "first_source": f"{sid(tag, 1)}.jsonl#L1",
        "confidence": "stated",
        "tier": "L2",
        "redacted": False,
        "promoted_at": promoted_at,
        **extra,
    }


def l3_atom(claim: str, n: int) -> dict[str, Any]:
    stamp = f"2026-10-{1 + n % 28:02d}T08:00:00Z"
    return {
        "id": atom_id(claim, None),
        "claim": claim,
        "scope": "global",
        "kind": "preference",
        "first_seen": stamp,
        "last_seen": stamp,
        "observations": 2,
        "sessions": [sid("cafecafe", n)],
        "source": f"{sid('cafecafe', n)}.jsonl#L1",
        "first_source": f"{sid('cafecafe', n)}.jsonl#L1",
        "confidence": "stated",
        "tier": "L3",
        "redacted": False,
        "promoted_from_projects": ["old-one", "old-two"],
        "promoted_at": stamp,
    }


def commit_adopted(root: Path, tier: str, atoms: list[dict[str, Any]], message: str) -> None:
    """Append adopt lines for `atoms` to root's adopted.log, re-render its block and commit
    both with `git commit` (the installed guard runs)."""
    log_path, target = root / ".memory" / "adopted.log", root / "CLAUDE.memory.md"
    files = TierFiles(
        tier=tier,
        target_name="CLAUDE.memory.md",
        log_text=log_path.read_text() if log_path.exists() else "",
        target_text=target.read_text() if target.exists() else "",
    )
    files = files.append([LogEntry(op="adopt", atom=a, at=a["promoted_at"]) for a in atoms])
    log_path.parent.mkdir(exist_ok=True)
    log_path.write_text(files.log_text)
    target.write_text(files.target_text)
    git(root, "add", ".memory/adopted.log", "CLAUDE.memory.md")
    git(root, "commit", "-q", "-m", message)


def session_start(repo: Path) -> str:
    proc = gm(
        repo,
        "hook",
        "session-start",
        input_text=json.dumps(
            {
                "session_id": "s",
                "cwd": str(repo),
                "hook_event_name": "SessionStart",
                "source": "startup",
            }
        ),
    )
    out = proc.stdout.strip()
    return str(json.loads(out)["hookSpecificOutput"]["additionalContext"]) if out else ""


def mentions(text: str, claim: str) -> int:
    wanted = normalize(claim)
    return sum(1 for line in text.splitlines() if wanted in normalize(line))


def global_log() -> dict[str, Any]:
    entries, errors = adopted_log.parse((home() / ".memory" / "adopted.log").read_text())
    assert not errors
    return adopted_log.fold(entries)


def review_commits(root: Path) -> list[str]:
    return git(root, "rev-list", "--reverse", "memory/review", "^main").split()


# --- the scenario ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_projects_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[bool]:
    return Golden(tmp_path_factory.mktemp("l3-two-projects"))


@pytest.fixture
def two_projects(
    two_projects_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    """alpha and beta hold PUSH_RULE at L2, adopted on day X: alpha's is verified and seen first,
    beta's was stated in three sessions and seen last, with its own capitalisation. Built once
    per module (the same commands on the same inputs at fixed dates each time); each test gets
    its own copy, alpha and beta under `work/` of a folder of their own."""
    base, _ = two_projects_golden.use(isolated_env, monkeypatch, _build_two_projects)
    return base / "work" / "alpha", base / "work" / "beta"


@pytest.fixture(scope="module")
def alpha_beta_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[bool]:
    return Golden(tmp_path_factory.mktemp("l3-alpha-beta"))


@pytest.fixture
def alpha_beta(alpha_beta_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """`make_project(tmp_path, "alpha"), make_project(tmp_path, "beta")`: two fresh projects
    after `git memory init`, built once per module; each test gets its own copy."""

    def build(base: Path) -> bool:
        make_project(base, "alpha")
        make_project(base, "beta")
        return True

    base, _ = alpha_beta_golden.use(isolated_env, monkeypatch, build)
    return base / "work" / "alpha", base / "work" / "beta"


def _build_two_projects(tmp_path: Path) -> bool:
    alpha, beta = make_project(tmp_path, "alpha"), make_project(tmp_path, "beta")
    a = adopt_at_l2(
        alpha,
        [
            (sid("aaaaaaaa", 1), "2026-11-01", PUSH_RULE),
            (sid("aaaaaaaa", 2), "2026-11-03", f"Thanks. {PUSH_RULE}"),
        ],
        verify=atom_id(PUSH_RULE.rstrip("."), "alpha"),
    )
    b = adopt_at_l2(
        beta,
        [
            (
                sid("bbbbbbbb", 1),
                "2026-11-02",
                "Never push directly to main; always open a Pull Request.",
            ),
            (
                sid("bbbbbbbb", 2),
                "2026-11-04",
                "Never push directly to main; always open a Pull Request.",
            ),
            (
                sid("bbbbbbbb", 3),
                "2026-11-05",
                "Never push directly to main; always open a Pull Request.",
            ),
        ],
    )
    assert len(a) == 1 and len(b) == 1
    return True


def test_the_same_claim_at_l2_in_two_projects_for_31_days_becomes_one_l3_atom_injected_once(
    two_projects: tuple[Path, Path]
) -> None:
    alpha, beta = two_projects
    (a,), (b,) = held_at_main(alpha).values(), held_at_main(beta).values()
    assert a["confidence"] == "verified" and b["confidence"] == "stated"
    assert a["claim"] != b["claim"] and normalize(a["claim"]) == normalize(b["claim"])
    gid = atom_id(a["claim"], None)

    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == [{"id": gid, "to": "L3"}]
    assert promote["blocked"] == []

    staged = gm_json(beta, "stage", "--global", env=at(X_PLUS_31))
    assert [c["atom"] for c in staged["commits"]] == [gid]
    oid = staged["commits"][0]["oid"]
    assert review_commits(home()) == [oid]
    changed = git(home(), "diff-tree", "--no-commit-id", "--name-only", "-r", oid).split()
    assert sorted(changed) == [".memory/adopted.log", "CLAUDE.memory.md"]
    message = git(home(), "log", "-1", "--format=%B", oid)
    assert (
        f"Atom-Id: {gid}" in message
        and "Promotion: L2->L3" in message
        and "Projects: alpha, beta" in message
    )

    added = [
        line
        for line in git(home(), "diff", "main", oid, "--", ".memory/adopted.log").splitlines()
        if line.startswith("+{")
    ]
    assert len(added) == 1
    entry = json.loads(added[0][1:])
    merged = entry["atom"]
    # §4.1.1's table, field by field
    assert merged["id"] == gid == atom_id(merged["claim"], None)
    assert merged["claim"] == a["claim"]  # the earliest contributor's raw text
    assert merged["scope"] == "global" and merged["tier"] == "L3" and "project" not in merged
    assert merged["kind"] == a["kind"] == b["kind"]
    assert merged["sessions"] == sorted(set(a["sessions"]) | set(b["sessions"]))
    assert merged["observations"] == a["observations"] + b["observations"] == 5
    assert merged["first_seen"] == min(a["first_seen"], b["first_seen"]) == a["first_seen"]
    assert merged["last_seen"] == max(a["last_seen"], b["last_seen"]) == b["last_seen"]
    assert merged["first_source"] == a["first_source"]
    assert merged["source"] == b["source"]
    assert merged["confidence"] == "verified"
    assert merged["redacted"] is False
    assert merged["promoted_from_projects"] == ["alpha", "beta"]
    for pointer in (merged["source"], merged["first_source"]):  # stripped (§3.1.1)
        assert re.fullmatch(r"[A-Za-z0-9._-]+\.jsonl#L[0-9]+", pointer), pointer
    assert set(merged) <= {
        "id",
        "claim",
        "scope",
        "kind",
        "first_seen",
        "last_seen",
        "observations",
        "sessions",
        "source",
        "first_source",
        "confidence",
        "tier",
        "redacted",
        "promoted_from_projects",
        "promoted_at",
    }

    # re-staging the same evidence gives the same commits
    again = gm_json(alpha, "stage", "--global", env=at(X_PLUS_31))
    assert again["commits"] == staged["commits"]
    text = gm(beta, "stage", "--global", env=at(X_PLUS_31)).stdout
    assert "the global memory repo's memory/review" in text and "git memory adopt --global" in text
    assert review_commits(home()) == [oid]

    adopted = gm_json(alpha, "adopt", "--global", "--all", env=at(X_PLUS_31))
    assert [x["atom"] for x in adopted["adopted"]] == [gid]
    head = git(home(), "rev-parse", "main").strip()
    assert adopted["adopted"][0]["commit"] == head
    assert f"Adopted-From: {oid}" in git(home(), "log", "-1", "--format=%B", head)
    assert git(home(), "status", "--porcelain") == ""
    assert list(global_log()) == [gid]
    assert PUSH_RULE.rstrip(".") in (home() / "CLAUDE.memory.md").read_text()
    assert gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))["eligible"] == []

    # injected once in both projects (it is L2 and L3 there), and from L3 in a third one
    gamma = make_project(alpha.parent.parent, "gamma")  # beside alpha and beta
    for project in (alpha, beta, gamma):
        context = gm_json(project, "context")
        assert mentions(context["context"], PUSH_RULE) == 1, context["context"]
        assert mentions(session_start(project), PUSH_RULE) == 1
    assert gm_json(alpha, "context")["l3"] == 0 and gm_json(gamma, "context")["l3"] == 1
    assert gm_json(alpha, "validate")["ok"]


def test_an_adopt_commit_in_the_global_repo_runs_its_guard(two_projects: tuple[Path, Path]) -> None:
    alpha, _ = two_projects
    hook = home() / ".git" / "hooks" / "pre-commit"
    assert hook.exists() and "agent-memory-hook" in hook.read_text()
    memory = home() / "CLAUDE.memory.md"
    memory.write_text(memory.read_text() + "\n- deploy key AKIA" + "Q3EGRTWVXC5ZQ7KA" + "\n")
    git(home(), "add", "CLAUDE.memory.md")
    refused = subprocess.run(
        ["git", "-C", str(home()), "commit", "-qm", "leak"], capture_output=True, text=True
    )
    assert refused.returncode != 0 and "CLAUDE.memory.md" in refused.stderr
    git(home(), "reset", "-q", "--hard")


# --- refusals -------------------------------------------------------------------------------------


def test_less_than_30_days_at_l2_is_refused(two_projects: tuple[Path, Path]) -> None:
    alpha, _ = two_projects
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_10))
    assert promote["eligible"] == []
    (blocked,) = promote["blocked"]
    assert any(
        r.startswith("alpha: at L2 for") and r.endswith("needs 30") for r in blocked["reasons"]
    )
    assert any(r.startswith("beta: at L2 for") for r in blocked["reasons"])
    assert gm_json(alpha, "stage", "--global", env=at(X_PLUS_10))["commits"] == []


def test_age_at_l2_counts_from_the_adoption_not_from_old_sessions(alpha_beta: tuple[Path, Path]) -> None:
    """Sessions two months old, adopted today in both projects: the claim has not been held at
    L2 for 30 days, so it is not yet persona material (§4.1: held at L2 … ≥ 30 days)."""
    alpha, beta = alpha_beta  # make_project alpha and beta, built once per module
    for repo, tag in ((alpha, "aaaaaaaa"), (beta, "bbbbbbbb")):
        adopt_at_l2(
            repo,
            [(sid(tag, 1), "2026-09-01", PUSH_RULE), (sid(tag, 2), "2026-09-03", PUSH_RULE)],
            when="2026-11-20T12:00:00Z",
        )
    promote = gm_json(alpha, "promote", "--global", env=at("2026-11-21T12:00:00Z"))
    assert promote["eligible"] == []
    assert any("at L2 for 1 day" in r for r in promote["blocked"][0]["reasons"])
    later = gm_json(alpha, "promote", "--global", env=at("2026-12-21T12:00:00Z"))
    assert [e["to"] for e in later["eligible"]] == ["L3"]


def test_a_claim_held_in_only_one_project_is_refused(tmp_path: Path) -> None:
    alpha = make_project(tmp_path, "alpha")
    make_project(tmp_path, "beta")
    adopt_at_l2(
        alpha,
        [
            (sid("aaaaaaaa", 1), "2026-11-01", PUSH_RULE),
            (sid("aaaaaaaa", 2), "2026-11-03", PUSH_RULE),
        ],
    )
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == []
    assert promote["blocked"][0]["reasons"] == ["held in 1 project (alpha), needs 2"]


def test_one_repository_cannot_speak_for_two_projects(tmp_path: Path) -> None:
    # A repository whose committed log holds the claim as L2 of two made-up projects, both
    # backdated (a clone of someone else's repository): it is one project, its own.
    alpha = make_project(tmp_path, "alpha")
    forged = [l2_atom(name, PUSH_RULE, promoted_at="2026-09-01T09:00:00Z") for name in ("ghost", "phantom")]
    commit_adopted(alpha, "L2", forged, "memory")
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == []
    assert not any("ghost" in json.dumps(b) or "phantom" in json.dumps(b) for b in promote["blocked"])


def test_kind_disagreement_is_refused_and_nothing_is_staged(alpha_beta: tuple[Path, Path]) -> None:
    alpha, beta = alpha_beta  # make_project alpha and beta, built once per module
    claim = "Use pnpm for installs"
    commit_adopted(alpha, "L2", [l2_atom("alpha", claim, "constraint")], "adopt as a constraint")
    commit_adopted(beta, "L2", [l2_atom("beta", claim, "preference")], "adopt as a preference")
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == []
    assert promote["blocked"] == [
        {
            "id": atom_id(claim, None),
            "reasons": ["kind disagrees: constraint (alpha), preference (beta)"],
        }
    ]
    assert gm_json(alpha, "stage", "--global", env=at(X_PLUS_31))["commits"] == []
    assert git(home(), "branch", "--list", "memory/review") == ""


def test_a_claim_contested_in_one_project_is_refused(alpha_beta: tuple[Path, Path]) -> None:
    alpha, beta = alpha_beta  # make_project alpha and beta, built once per module
    for repo, tag in ((alpha, "aaaaaaaa"), (beta, "bbbbbbbb")):
        held = adopt_at_l2(
            repo, [(sid(tag, 1), "2026-11-01", BASE_DEV), (sid(tag, 2), "2026-11-03", BASE_DEV)]
        )
        assert list(held) == [BASE_DEV.rstrip(".")]
    assert [
        e["to"] for e in gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))["eligible"]
    ] == ["L3"]
    # a later session in beta says the opposite: beta's L2 claim is now contested (§4.2.1)
    # (with a standing word: said plainly once it would be pending, and contest nothing)
    write_session(beta, sid("bbbbbbbb", 3), "2026-11-10", [{"user": "Remember: " + BASE_MAIN}])
    gm(beta, "capture", "--all", "--no-stage", env=at("2026-11-10T18:00:00Z"))
    assert gm_json(beta, "inspect", "--contested")["pairs"]
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == []
    (blocked,) = [b for b in promote["blocked"] if b["id"] == atom_id(BASE_DEV, None)]
    assert any(r.startswith("beta: contested by atm_") for r in blocked["reasons"]), blocked
    assert gm_json(alpha, "stage", "--global", env=at(X_PLUS_31))["commits"] == []


def test_claude_memory_alone_does_not_hold_a_claim_back_from_l3(alpha_beta: tuple[Path, Path]) -> None:
    """Claude's own memory is model-written: it may contradict an adopted claim in a project
    (the pair is reported for review), but without a person it does not block the L2 → L3
    gate, as it tags no line in what Claude is told."""
    from memory_writes import topic

    from agent_memory.automemory.location import resolve_auto_memory_dir

    alpha, beta = alpha_beta  # make_project alpha and beta, built once per module
    for repo, tag in ((alpha, "aaaaaaaa"), (beta, "bbbbbbbb")):
        adopt_at_l2(repo, [(sid(tag, 1), "2026-11-01", BASE_DEV), (sid(tag, 2), "2026-11-03", BASE_DEV)])
    folder = resolve_auto_memory_dir(beta).path
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "project_pr_base.md").write_text(topic("PR base branch", BASE_MAIN, kind="project"), "utf-8")
    gm(beta, "capture", "--all", "--no-stage", env=at("2026-11-10T18:00:00Z"))
    pairs = gm_json(beta, "inspect", "--contested")["pairs"]
    assert pairs, "the contradiction is still reported for review"
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert [e["id"] for e in promote["eligible"]] == [atom_id(BASE_DEV, None)], promote


def test_a_redacted_contributor_is_refused(alpha_beta: tuple[Path, Path]) -> None:
    alpha, beta = alpha_beta  # make_project alpha and beta, built once per module
    claim = "The staging password is [REDACTED:password]"
    commit_adopted(alpha, "L2", [l2_atom("alpha", claim, "fact", redacted=True)], "adopt")
    commit_adopted(beta, "L2", [l2_atom("beta", claim, "fact")], "adopt")
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == []
    assert promote["blocked"][0]["reasons"] == [
        "alpha: redacted — needs a restatement without the secret"
    ]


def test_the_l3_cap_of_30_refuses_inflow_and_never_demotes(two_projects: tuple[Path, Path]) -> None:
    alpha, _ = two_projects
    commit_adopted(
        home(), "L3", [l3_atom(f"Persona rule number {n}", n) for n in range(30)], "thirty L3 atoms"
    )
    before_log = (home() / ".memory" / "adopted.log").read_text()
    before_head = git(home(), "rev-parse", "main")
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == []
    (blocked,) = promote["blocked"]
    assert blocked["reasons"] == ["L3 cap of 30 reached — prune L3 at adopt"]
    staged = gm_json(alpha, "stage", "--global", env=at(X_PLUS_31))
    assert staged["commits"] == [] and staged["refused"] == {blocked["id"]: [blocked["reasons"][0]]}
    assert "L3 cap of 30 reached" in gm(alpha, "stage", "--global", env=at(X_PLUS_31)).stdout
    # a hand-authored item is inflow too
    remembered = gm(
        alpha, "remember", "--global", "Prefer small commits.", check=False, env=at(X_PLUS_31)
    )
    assert remembered.returncode == 1 and "cap" in remembered.stdout
    # nothing left L3, nothing was written
    assert (home() / ".memory" / "adopted.log").read_text() == before_log
    assert git(home(), "rev-parse", "main") == before_head
    assert len(global_log()) == 30
    assert git(home(), "branch", "--list", "memory/review") == ""
    text = gm(alpha, "promote", "--global", env=at(X_PLUS_31)).stdout
    assert "L3 cap of 30 reached" in text


def test_a_superseded_or_decayed_l2_atom_does_not_count(alpha_beta: tuple[Path, Path]) -> None:
    alpha, beta = alpha_beta  # make_project alpha and beta, built once per module
    claim = "Use pnpm for installs"
    newer = l2_atom("beta", "Use bun for installs")
    commit_adopted(alpha, "L2", [l2_atom("alpha", claim)], "adopt")
    commit_adopted(
        beta, "L2", [l2_atom("beta", claim, superseded_by=newer["id"]), newer], "adopt, superseded"
    )
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    (blocked,) = [b for b in promote["blocked"] if b["id"] == atom_id(claim, None)]
    assert f"beta: superseded by {newer['id']}" in blocked["reasons"]
    assert promote["eligible"] == []


# --- L2 against L3 at session start (§5.1, §9.6 (a)) ------------------------------------------------


def test_an_l3_line_a_project_contradicts_is_contested_there_and_plain_elsewhere(
    tmp_path: Path,
) -> None:
    gamma, delta = make_project(tmp_path, "gamma"), make_project(tmp_path, "delta")
    gm(delta, "remember", "--global", BASE_DEV, "--kind", "fact", env=at(DAY_X))
    gm(delta, "adopt", "--global", "--all", env=at(DAY_X))
    gid = atom_id(BASE_DEV, None)
    assert list(global_log()) == [gid]
    adopt_at_l2(
        gamma,
        [
            (sid("cccccccc", 1), "2026-11-01", BASE_MAIN),
            (sid("cccccccc", 2), "2026-11-03", BASE_MAIN),
        ],
    )

    here = gm_json(gamma, "context")
    [pair] = here["contested_across_tiers"]
    assert pair["global"] == gid
    # the user's own line stays, next to the project's, both tagged contested
    assert mentions(here["context"], BASE_MAIN) == 1 and mentions(here["context"], BASE_DEV) == 1
    assert "1 project line contradicts the user's own global memory" in here["context"]
    assert session_start(gamma) == here["context"]

    there = gm_json(delta, "context")
    assert there["contested_across_tiers"] == [] and mentions(there["context"], BASE_DEV) == 1
    assert "[contested" not in there["context"]
    assert mentions(session_start(delta), BASE_DEV) == 1
    # the L3 atom is not marked contested in its store by a project's exception
    assert "contested" not in global_log()[gid]


# --- hand-authored L3 (§9.4) ----------------------------------------------------------------------


def test_a_single_project_user_hand_authors_l3_through_review(tmp_path: Path) -> None:
    solo = make_project(tmp_path, "solo")
    out = gm_json(solo, "remember", "--global", "Prefer small, focused commits.", env=at(DAY_X))
    gid = atom_id("Prefer small, focused commits.", None)
    assert out["id"] == gid and out["staged"] and out["redacted"] is False
    assert review_commits(home()) == [out["staged"]]
    message = git(home(), "log", "-1", "--format=%B", out["staged"])
    assert "Promotion: remember->L3" in message
    assert global_log() == {}  # staged, not adopted
    # staging is deterministic: remembering it again changes nothing
    assert (
        gm_json(solo, "remember", "--global", "Prefer small, focused commits.", env=at(DAY_X))[
            "staged"
        ]
        == out["staged"]
    )
    adopted = gm_json(solo, "adopt", "--global", "--all", env=at(DAY_X))
    assert [x["atom"] for x in adopted["adopted"]] == [gid]
    atom = global_log()[gid]
    assert (
        atom["tier"] == "L3"
        and atom["promoted_from_projects"] == ["solo"]
        and atom["hand_authored"] is True
    )
    assert mentions(gm_json(solo, "context")["context"], "Prefer small, focused commits") == 1
    assert gm_json(solo, "stage", "--global", env=at(DAY_X))["commits"] == []


def test_a_hand_authored_claim_with_a_secret_is_redacted_and_never_staged(tmp_path: Path) -> None:
    solo = make_project(tmp_path, "solo")
    secret = "ghp_" + "Zq9" * 12
    proc = gm(
        solo,
        "remember",
        "--global",
        f"Deploy with the token {secret}",
        "--output",
        "json",
        check=False,
        env=at(DAY_X),
    )
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["redacted"] is True and out["staged"] is None and secret not in out["claim"]
    assert git(home(), "branch", "--list", "memory/review") == ""
    candidates = home() / ".git" / "agent-memory" / "remembered.jsonl"
    assert (
        not candidates.exists() or out["id"] not in candidates.read_text()
    )  # not even kept locally
    assert secret not in git(home(), "log", "--all", "-p")
    text = gm(
        solo, "remember", "--global", f"Deploy with the token {secret}", check=False, env=at(DAY_X)
    )
    assert text.returncode == 1 and "redacted" in text.stdout and secret not in text.stdout


def take_out_of_l3(project: Path, how: str, adopt_commit: str, gid: str) -> None:
    """A person takes an item out of L3 in the global repo: docs/global-memory.md's "Pruning
    L3" (`git revert` of its adopt commit), or its line edited out of the log, the block
    re-rendered and committed, or the adopt commit reset away."""
    if how == "revert":
        merge = len(git(home(), "rev-list", "--parents", "-1", adopt_commit).split()) > 2
        git(home(), "revert", "--no-edit", *(["-m", "1"] if merge else []), adopt_commit)
    elif how == "reset":
        assert git(home(), "rev-parse", "HEAD").strip() == adopt_commit
        git(home(), "reset", "-q", "--hard", "HEAD~1")
    else:
        log = home() / ".memory" / "adopted.log"
        log.write_text("".join(line + "\n" for line in log.read_text().splitlines() if gid not in line))
        git(home(), "commit", "-qam", "take an item out of L3")
        gm(project, "validate", "--fix")  # (run in any project)
        git(home(), "commit", "-qam", "re-render the L3 block")


TESTS_FIRST = "Write the tests first."


@pytest.mark.parametrize("how", ["revert", "edit", "reset"])
def test_a_hand_authored_l3_item_a_person_took_out_is_not_staged_again(tmp_path: Path, how: str) -> None:
    """Adopted, then taken out by the person with no stage in between: its local candidate was
    let go only by a stage that saw it held, so the next stage offered it again. Said again
    (`remember --global`), it is staged again."""
    solo = make_project(tmp_path, "solo")
    kept = gm_json(solo, "remember", "--global", "Prefer small, focused commits.", env=at(DAY_X))
    gm(solo, "adopt", "--global", "--yes", kept["id"], env=at(DAY_X))
    out = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))
    (adopted,) = gm_json(solo, "adopt", "--global", "--yes", out["id"], env=at(DAY_X))["adopted"]
    take_out_of_l3(solo, how, adopted["commit"], out["id"])
    assert list(global_log()) == [kept["id"]]
    assert gm_json(solo, "stage", "--global", env=at(X_PLUS_10))["commits"] == []
    # the person says it again, at the very time they first did: staged again, and adopted
    again = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))
    assert again["staged"] and review_commits(home()) == [again["staged"]]
    gm(solo, "adopt", "--global", "--yes", out["id"], env=at(DAY_X))
    assert sorted(global_log()) == sorted([kept["id"], out["id"]])


def test_a_remembered_l3_item_kept_by_an_older_version_is_not_dropped_for_an_earlier_adoption(
    tmp_path: Path,
) -> None:
    """A candidate an older version kept has no adoption count beside it: read as 0, one adopt
    commit of its id from before the person said it again (adopted, reverted, remembered again)
    made the next stage drop the person's pending item as "removed since"."""
    solo = make_project(tmp_path, "solo")
    out = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))
    (adopted,) = gm_json(solo, "adopt", "--global", "--yes", out["id"], env=at(DAY_X))["adopted"]
    take_out_of_l3(solo, "revert", adopted["commit"], out["id"])
    again = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(X_PLUS_10))
    assert again["staged"]
    # as an older version left it: the candidate, and no count beside it
    (home() / ".git" / "agent-memory" / "remembered-adoptions.json").unlink()
    assert [c["atom"] for c in gm_json(solo, "stage", "--global", env=at(X_PLUS_10))["commits"]] == [out["id"]]
    gm(solo, "adopt", "--global", "--yes", out["id"], env=at(X_PLUS_10))
    assert list(global_log()) == [out["id"]]


def test_the_only_l3_item_edited_out_by_hand_is_re_rendered_and_not_staged_again(tmp_path: Path) -> None:
    """The last line taken out of the log leaves an empty log and a block that still shows it:
    `stage --global` refuses that block naming `validate --fix`, which must then re-render it."""
    solo = make_project(tmp_path, "solo")
    out = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))
    gm(solo, "adopt", "--global", "--yes", out["id"], env=at(DAY_X))
    take_out_of_l3(solo, "edit", "", out["id"])
    assert global_log() == {} and "tests first" not in (home() / "CLAUDE.memory.md").read_text()
    assert gm_json(solo, "stage", "--global", env=at(X_PLUS_10))["commits"] == []


@pytest.mark.parametrize("how", ["revert", "edit"])
def test_a_hand_authored_l3_item_merged_from_review_and_taken_out_is_not_staged_again(
    tmp_path: Path, how: str
) -> None:
    """Adopted by merging the global memory/review (a pull request of `pr --global`), no adopt
    run saw it: the merged review commit is its adoption, and a person's removal after it holds."""
    solo = make_project(tmp_path, "solo")
    kept = gm_json(solo, "remember", "--global", "Prefer small, focused commits.", env=at(DAY_X))
    gm(solo, "adopt", "--global", "--yes", kept["id"], env=at(DAY_X))
    out = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))
    git(home(), "merge", "-q", "--no-ff", "-m", "Merge memory/review", "memory/review")
    assert sorted(global_log()) == sorted([kept["id"], out["id"]])
    take_out_of_l3(solo, how, git(home(), "rev-parse", "HEAD").strip(), out["id"])
    assert list(global_log()) == [kept["id"]]
    staged = gm_json(solo, "stage", "--global", env=at(X_PLUS_10))
    assert staged["commits"] == []
    assert staged["refused"] == {out["id"]: [
        "adopted at L3 before and removed since; not restaged (re-add it with `git memory remember --global`)"]}
    again = gm_json(solo, "remember", "--global", TESTS_FIRST, env=at(DAY_X))
    assert again["staged"] and review_commits(home()) == [again["staged"]]


# --- the registry and the user import -------------------------------------------------------------


def test_init_creates_the_global_repo_once_registers_and_imports_without_clobbering(
    tmp_path: Path,
) -> None:
    user_claude = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "CLAUDE.md"
    user_claude.parent.mkdir(parents=True, exist_ok=True)
    user_claude.write_text("# My rules\n\nBe terse.\n")
    first = make_project(tmp_path, "app", parent="one")
    root_commit = git(home(), "rev-list", "--max-parents=0", "main").strip()
    second = make_project(tmp_path, "app", parent="two")
    third = make_project(tmp_path, "tools")
    assert git(home(), "rev-list", "--max-parents=0", "main").strip() == root_commit  # created once
    names = [p["name"] for p in json.loads((home() / "projects.json").read_text())["projects"]]
    assert "app" in names and "tools" in names and len(names) == 3
    other = git(second, "config", "memory.project").strip()
    assert other.startswith("app-") and other in names
    assert git(first, "config", "memory.project").strip() == "app"
    text = user_claude.read_text()
    assert text.startswith("# My rules\n\nBe terse.\n")
    imports = [line for line in text.splitlines() if line.startswith("@")]
    assert len(imports) == 1 and imports[0].endswith("agent-memory/CLAUDE.memory.md")
    gm(third, "init")  # idempotent
    assert user_claude.read_text() == text
    assert len(json.loads((home() / "projects.json").read_text())["projects"]) == 3


def test_a_second_worktree_is_the_same_project(tmp_path: Path) -> None:
    main = make_project(tmp_path, "app")
    extra = tmp_path / "app-feature"
    git(main, "worktree", "add", "-q", "-b", "feature", str(extra))
    gm(extra, "init")
    assert git(main, "config", "memory.project").strip() == "app"
    assert [p["name"] for p in json.loads((home() / "projects.json").read_text())["projects"]] == [
        "app"
    ]


def test_the_user_import_is_created_when_there_is_no_user_claude_md(repo: Path) -> None:
    user_claude = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "CLAUDE.md"
    assert not user_claude.exists()
    gm(repo, "init")
    assert user_claude.read_text().strip().startswith("@")


# --- sync between two machines (a real bare remote) -----------------------------------------------


def test_two_machines_sync_the_global_repo_through_a_private_remote(tmp_path: Path) -> None:
    remote = tmp_path / "persona.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    alpha = make_project(tmp_path, "alpha")
    git(home(), "remote", "add", "origin", str(remote))
    git(home(), "push", "-q", "-u", "origin", "main")

    # machine B: another AGENT_MEMORY_HOME, cloned from the private remote
    home_b = tmp_path / "machine-b" / "agent-memory"
    git(tmp_path, "clone", "-q", str(remote), str(home_b))
    b_env = {"AGENT_MEMORY_HOME": str(home_b)}
    beta = make_project(tmp_path, "beta", parent="machine-b", env=b_env)
    assert (
        "agent-memory-hook" in (home_b / ".git" / "hooks" / "pre-commit").read_text()
    )  # the guard, in the clone too
    make_project(tmp_path, "gamma")  # machine A registers another project meanwhile

    # different items adopted on each machine (A's is the newer, so a line union mis-orders the block)
    gm(
        beta,
        "remember",
        "--global",
        "Use pnpm, not npm.",
        env={**at("2026-11-07T12:00:00Z"), **b_env},
    )
    gm(beta, "adopt", "--global", "--all", env={**at("2026-11-07T12:00:00Z"), **b_env})
    gm(
        alpha,
        "remember",
        "--global",
        "Prefer small, focused commits.",
        env=at("2026-11-08T12:00:00Z"),
    )
    gm(alpha, "adopt", "--global", "--all", env=at("2026-11-08T12:00:00Z"))

    git(home(), "push", "-q", "origin", "main")
    pulled = subprocess.run(
        ["git", "-C", str(home_b), "pull", "-q", "--no-rebase", "--no-edit", "origin", "main"],
        capture_output=True,
        text=True,
        env={**os.environ, **at("2026-11-09T12:00:00Z")},
    )
    assert pulled.returncode == 0, pulled.stderr  # no conflict in any file
    assert git(home_b, "diff", "--name-only", "--diff-filter=U") == ""
    assert git(home_b, "status", "--porcelain") == ""

    def folded(root: Path) -> set[str]:
        entries, errors = adopted_log.parse((root / ".memory" / "adopted.log").read_text())
        assert not errors
        return set(adopted_log.fold(entries))

    expected = {
        atom_id("Prefer small, focused commits.", None),
        atom_id("Use pnpm, not npm.", None),
    }
    assert folded(home_b) == expected
    registry = {p["name"] for p in json.loads((home_b / "projects.json").read_text())["projects"]}
    assert registry == {"alpha", "beta", "gamma"}
    # the union merge of the block shows both lines, so both are injected at once; the merged
    # block is re-rendered (in order) before anything else is staged on top of it
    context = gm_json(beta, "context", env=b_env)["context"]
    assert (
        mentions(context, "Prefer small, focused commits") == 1
        and mentions(context, "Use pnpm, not npm") == 1
    )
    check = gm_json(beta, "validate", check=False, env=b_env)
    assert not check["ok"] and any("L3 block differs" in e for e in check["errors"])
    refused = gm(beta, "stage", "--global", check=False, env=b_env)
    assert refused.returncode == 1 and "validate --fix" in refused.stderr
    gm(beta, "validate", "--fix", env=b_env)
    git(home_b, "commit", "-qam", "re-render the L3 block after the merge")  # through the guard
    assert gm_json(beta, "validate", env=b_env)["ok"]

    git(home_b, "push", "-q", "origin", "main")
    git(home(), "pull", "-q", "--ff-only", "origin", "main")
    assert folded(home()) == folded(home_b) == expected
    assert (home() / "CLAUDE.memory.md").read_text() == (home_b / "CLAUDE.memory.md").read_text()
    assert gm_json(alpha, "validate")["ok"]
    for project, env in ((alpha, {}), (beta, b_env)):
        context = gm_json(project, "context", env=env)["context"]
        assert (
            mentions(context, "Prefer small, focused commits") == 1
            and mentions(context, "Use pnpm, not npm") == 1
        )


def test_a_machine_that_already_had_a_global_repo_joins_the_remote(tmp_path: Path) -> None:
    """Machine B ran `init` before it knew of the remote: its own global repo pulls the remote
    with --allow-unrelated-histories, and still nothing conflicts."""
    remote = tmp_path / "persona.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    alpha = make_project(tmp_path, "alpha")
    gm(
        alpha,
        "remember",
        "--global",
        "Prefer small, focused commits.",
        env=at("2026-11-08T12:00:00Z"),
    )
    gm(alpha, "adopt", "--global", "--all", env=at("2026-11-08T12:00:00Z"))
    git(home(), "remote", "add", "origin", str(remote))
    git(home(), "push", "-q", "-u", "origin", "main")

    home_b = tmp_path / "machine-b" / "agent-memory"
    b_env = {"AGENT_MEMORY_HOME": str(home_b)}
    beta = make_project(tmp_path, "beta", parent="machine-b-work", env=b_env)
    assert [p["name"] for p in json.loads((home() / "projects.json").read_text())["projects"]] == [
        "alpha"
    ]
    b_at = {**at("2026-11-07T12:00:00Z"), **b_env}
    gm(beta, "remember", "--global", "Use pnpm, not npm.", env=b_at)
    gm(beta, "adopt", "--global", "--all", env=b_at)
    git(home_b, "remote", "add", "origin", str(remote))
    pulled = subprocess.run(
        [
            "git",
            "-C",
            str(home_b),
            "pull",
            "-q",
            "--no-rebase",
            "--no-edit",
            "--allow-unrelated-histories",
            "origin",
            "main",
        ],
        capture_output=True,
        text=True,
    )
    assert pulled.returncode == 0, pulled.stderr
    from agent_memory.committed.global_repo import GlobalRepo

    assert {p["name"] for p in GlobalRepo(home_b).projects()} == {"alpha", "beta"}
    gm(beta, "validate", "--fix", env=b_env)
    git(home_b, "commit", "-qam", "re-render the L3 block after the merge")
    gm(beta, "init", env=b_env)  # rewrites the merged registry in its canonical form
    assert {p["name"] for p in json.loads((home_b / "projects.json").read_text())["projects"]} == {
        "alpha",
        "beta",
    }
    assert gm_json(beta, "validate", env=b_env)["ok"]
    assert set(global_log_at(home_b)) == {
        atom_id("Prefer small, focused commits.", None),
        atom_id("Use pnpm, not npm.", None),
    }
    assert git(home_b, "status", "--porcelain") == ""


def global_log_at(root: Path) -> dict[str, Any]:
    entries, errors = adopted_log.parse((root / ".memory" / "adopted.log").read_text())
    assert not errors
    return adopted_log.fold(entries)


def test_the_union_of_two_machines_logs_is_order_independent_and_folds_alike() -> None:
    one = l3_atom("Prefer small commits", 1)
    two = l3_atom("Use pnpm, not npm", 2)
    base = adopted_log.format_entry(LogEntry(op="adopt", atom=one, at=one["promoted_at"]))
    a = base + adopted_log.format_entry(
        LogEntry(op="pin", atom={**one, "pinned": True}, at="2026-11-09T00:00:00Z")
    )
    b = base + adopted_log.format_entry(LogEntry(op="adopt", atom=two, at=two["promoted_at"]))
    assert adopted_log.union(a, b) == adopted_log.union(b, a)
    merged, errors = adopted_log.parse(adopted_log.union(a, b))
    assert not errors
    held = adopted_log.fold(merged)
    assert set(held) == {one["id"], two["id"]} and held[one["id"]].get("pinned") is True


# --- removal, rejection, and the edges of the global verbs ---------------------------------------


def test_an_l3_item_a_person_removed_is_not_restaged_on_evidence(
    two_projects: tuple[Path, Path],
) -> None:
    alpha, _ = two_projects
    gm(alpha, "stage", "--global", env=at(X_PLUS_31))
    (adopted,) = gm_json(alpha, "adopt", "--global", "--all", env=at(X_PLUS_31))["adopted"]
    gid = adopted["atom"]
    # pruning L3 by hand (the cap asks for it): revert the adopt commit in the global repo
    git(home(), "revert", "--no-edit", adopted["commit"])
    assert global_log() == {}
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == []
    assert promote["blocked"] == [
        {
            "id": gid,
            "reasons": [
                "adopted at L3 before and removed since; not restaged on evidence "
                "(re-add it with `git memory remember --global`)"
            ],
        }
    ]
    assert gm_json(alpha, "stage", "--global", env=at(X_PLUS_31))["commits"] == []
    # a person can still bring it back on purpose
    back = gm_json(
        alpha, "remember", "--global", PUSH_RULE, "--kind", "constraint", env=at(X_PLUS_31)
    )
    assert back["id"] == gid and back["staged"]


def test_a_rejected_l3_proposal_is_not_proposed_again(two_projects: tuple[Path, Path]) -> None:
    alpha, _ = two_projects
    (commit,) = gm_json(alpha, "stage", "--global", env=at(X_PLUS_31))["commits"]
    gm(alpha, "adopt", "--global", "--reject", commit["atom"], env=at(X_PLUS_31))
    assert gm_json(alpha, "stage", "--global", env=at(X_PLUS_31))["commits"] == []


def test_a_registered_project_missing_on_this_machine_is_skipped_and_said(
    two_projects: tuple[Path, Path]
) -> None:
    alpha, beta = two_projects
    gone = make_project(alpha.parent.parent, "gone")  # beside alpha and beta
    subprocess.run(["rm", "-rf", str(gone)], check=True)
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert [e["to"] for e in promote["eligible"]] == ["L3"]
    assert promote["skipped_projects"] == [
        {"project": "gone", "path": str(gone.resolve()), "reason": "not found on this machine"}
    ]
    assert "skipped   project gone" in gm(alpha, "promote", "--global", env=at(X_PLUS_31)).stdout


def test_two_clones_of_one_project_count_once(tmp_path: Path) -> None:
    """The project identity is the `project` its committed atoms carry: a second clone of the
    same repository (registered under another name) is not a second project."""
    alpha = make_project(tmp_path, "alpha")
    adopt_at_l2(
        alpha,
        [
            (sid("aaaaaaaa", 1), "2026-11-01", PUSH_RULE),
            (sid("aaaaaaaa", 2), "2026-11-03", PUSH_RULE),
        ],
    )
    clone = tmp_path / "elsewhere" / "alpha"
    git(tmp_path, "clone", "-q", str(alpha), str(clone))
    gm(clone, "init")
    # the same name (the one its adopted.log records), registered twice: still one project
    assert git(clone, "config", "memory.project").strip() == "alpha"
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == []
    assert promote["blocked"][0]["reasons"] == ["held in 1 project (alpha), needs 2"]


def test_the_registry_reads_what_a_union_merge_leaves() -> None:
    from agent_memory.committed.global_repo import format_registry, parse_registry

    one = format_registry([{"name": "alpha", "path": "~/a"}])
    assert json.loads(one) == {"projects": [{"name": "alpha", "path": "~/a"}]}
    two = format_registry([{"name": "alpha", "path": "~/a"}, {"name": "beta", "path": "~/b"}])
    assert json.loads(two)["projects"][1] == {"name": "beta", "path": "~/b"}
    # both machines started empty and registered one project each: a comma is missing
    merged = (
        '{"projects": [\n{"name": "beta", "path": "~/b"}\n{"name": "alpha", "path": "~/a"}\n]}\n'
    )
    assert {e["name"] for e in parse_registry(merged)} == {"alpha", "beta"}
    # one path, two names (registered on two machines): both read the same one
    clash = '{"projects": [\n{"name": "app-1", "path": "~/app"}\n,{"name": "app", "path": "~/app"}\n]}\n'
    assert parse_registry(clash) == [{"name": "app", "path": "~/app"}]


def test_the_global_verbs_without_a_global_repo_say_how_to_make_one(repo: Path) -> None:
    git(repo, "branch", "memory/atoms")  # initialised enough for the verbs to start
    for args in (("promote", "--global"), ("stage", "--global"), ("remember", "--global", "x y z")):
        proc = gm(repo, *args, check=False)
        assert proc.returncode == 3, (args, proc.stderr)
        assert "no global memory repo" in proc.stderr and "git memory init" in proc.stderr


def test_pr_global_prints_the_push_and_the_body_for_the_global_review_branch(
    two_projects: tuple[Path, Path],
) -> None:
    alpha, _ = two_projects
    gm(alpha, "stage", "--global", env=at(X_PLUS_31))
    out = gm_json(alpha, "pr", "--global", "--print", env=at(X_PLUS_31))
    assert out["items"] == [atom_id(PUSH_RULE, None)]
    assert "memory/review" in out["commands"][0]
    assert "stage --global" in out["body"] and "Never push directly to main" in out["body"]


def test_a_hand_authored_project_claim_is_staged_for_review_at_once(tmp_path: Path) -> None:
    """`remember` (no --global): review is its gate, not recurrence. The flag must survive the
    store's merge, which rebuilds every record field by field."""
    solo = make_project(tmp_path, "solo")
    out = gm_json(solo, "remember", "Use pnpm, not npm, for installs", env=at(DAY_X))
    assert out["staged"] and out["refused"] is None, out
    record = next(a for a in gm_json(solo, "inspect", "--tier", "L1")["atoms"] if a["id"] == out["id"])
    assert record["hand_authored"] is True
    adopted = gm_json(solo, "adopt", "--yes", out["id"], env=at(DAY_X))
    assert [x["atom"] for x in adopted["adopted"]] == [out["id"]]


# --- whose adoption: L3 is the person's -------------------------------------------------------


STRANGER = "stranger@example.invalid"


def commit_adopted_as(
    monkeypatch: pytest.MonkeyPatch, root: Path, email: str, atoms: list[dict[str, Any]]
) -> None:
    """`commit_adopted`, authored by `email` (a commit someone else made: in a repository the
    person cloned, its authors' adopt lines)."""
    with monkeypatch.context() as m:
        m.setenv("GIT_AUTHOR_EMAIL", email)
        commit_adopted(root, "L2", atoms, "memory: adopt")


def test_a_claim_only_others_adopted_in_two_cloned_projects_is_not_persona_material(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two repositories whose authors committed the same claim as L2 (the person cloned both and
    # set them up): "held in 2 projects for 30 days", and nothing the person ever decided.
    for name in ("alpha", "beta"):
        project = make_project(tmp_path, name)
        commit_adopted_as(monkeypatch, project, STRANGER, [l2_atom(name, PUSH_RULE)])
    promote = gm_json(project, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == []
    (blocked,) = promote["blocked"]
    assert blocked["reasons"] == [
        f"adopted at L2 only by others ({STRANGER}): L3 holds what you adopted yourself — adopt it "
        "in one of your projects, or add it with `git memory remember --global`"
    ]
    gm(project, "stage", "--global", env=at(X_PLUS_31))
    assert not git(home(), "rev-list", "memory/review", "^main", check=False).split()


def test_a_claim_the_person_adopted_in_one_of_the_projects_is_promoted(
    alpha_beta: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha, beta = alpha_beta  # make_project alpha and beta, built once per module
    commit_adopted(alpha, "L2", [l2_atom("alpha", PUSH_RULE)], "memory: adopt")  # the person's own
    commit_adopted_as(monkeypatch, beta, STRANGER, [l2_atom("beta", PUSH_RULE)])
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert [e["to"] for e in promote["eligible"]] == ["L3"] and promote["blocked"] == []


def test_an_adoption_the_person_merged_is_theirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A teammate's adoption on a branch, merged into main by the person (the pull request's
    # merge commit): landing it on the default branch was the person's decision.
    for name in ("alpha", "beta"):
        project = make_project(tmp_path, name)
        git(project, "checkout", "-q", "-b", "memory/teammate")
        commit_adopted_as(monkeypatch, project, STRANGER, [l2_atom(name, PUSH_RULE)])
        git(project, "checkout", "-q", "main")
        git(project, "merge", "-q", "--no-ff", "-m", "Merge the teammate's adoption", "memory/teammate")
    promote = gm_json(project, "promote", "--global", env=at(X_PLUS_31))
    assert [e["to"] for e in promote["eligible"]] == ["L3"]


# --- one rule, two spellings ------------------------------------------------------------------


ALWAYS_TESTS = "Always run the tests before committing."
PLAIN_TESTS = "From now on, run the tests before committing."


def test_a_rule_adopted_with_always_in_one_project_and_without_in_another_is_one_l3_group(
    alpha_beta: tuple[Path, Path],
) -> None:
    """The extractor keeps "Always" where the person said it, so one rule adopted in two
    projects can be two claims ("Always run the tests…" / "Run the tests…"): the L2 → L3 gate
    counts them as one rule held in two projects, under the spelling held first."""
    alpha, beta = alpha_beta  # make_project alpha and beta, built once per module
    a = adopt_at_l2(alpha, [(sid("aaaaaaaa", 1), "2026-11-01", ALWAYS_TESTS),
                            (sid("aaaaaaaa", 2), "2026-11-03", ALWAYS_TESTS)])
    b = adopt_at_l2(beta, [(sid("bbbbbbbb", 1), "2026-11-02", PLAIN_TESTS),
                           (sid("bbbbbbbb", 2), "2026-11-04", PLAIN_TESTS)])
    (first,), (second,) = a.values(), b.values()
    assert normalize(first["claim"]) == "always " + normalize(second["claim"])  # two spellings
    gid = atom_id(first["claim"], None)  # alpha's was seen first

    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == [{"id": gid, "to": "L3"}] and promote["blocked"] == [], promote
    (commit,) = gm_json(beta, "stage", "--global", env=at(X_PLUS_31))["commits"]
    assert commit["atom"] == gid
    gm(alpha, "adopt", "--global", "--all", env=at(X_PLUS_31))
    (merged,) = global_log().values()
    assert merged["claim"] == first["claim"] and merged["promoted_from_projects"] == ["alpha", "beta"]
    assert merged["kind"] == first["kind"] != second["kind"]  # "Always" read as a constraint
    assert merged["sessions"] == sorted(first["sessions"] + second["sessions"])
    # held at L3 under one spelling, the other is held too: nothing more to stage
    again = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert again["eligible"] == [] and again["blocked"] == [{"id": gid, "reasons": ["already held at L3"]}]


def test_a_rule_removed_from_l3_under_one_spelling_is_not_restaged_under_the_other(
    alpha_beta: tuple[Path, Path],
) -> None:
    """A person took "Always run the tests…" out of L3: the same rule adopted as "Run the
    tests…" in two projects is that rule, and evidence does not bring it back."""
    alpha, beta = alpha_beta  # make_project alpha and beta, built once per module
    rule = ALWAYS_TESTS.rstrip(".")
    gm(alpha, "remember", "--global", rule, "--kind", "constraint", env=at(DAY_X))
    (adopted,) = gm_json(alpha, "adopt", "--global", "--all", env=at(DAY_X))["adopted"]
    gm(alpha, "stage", "--global", env=at(DAY_X))  # (the remembered candidate, adopted, is let go)
    git(home(), "revert", "--no-edit", adopted["commit"])
    assert global_log() == {}
    for repo, tag in ((alpha, "aaaaaaaa"), (beta, "bbbbbbbb")):
        held = adopt_at_l2(repo, [(sid(tag, 1), "2026-11-01", PLAIN_TESTS), (sid(tag, 2), "2026-11-03", PLAIN_TESTS)])
        assert [normalize(c) for c in held] == [normalize(rule)[len("always "):]]
    promote = gm_json(alpha, "promote", "--global", env=at(X_PLUS_31))
    assert promote["eligible"] == []
    assert any("removed since" in r for b in promote["blocked"] for r in b["reasons"]), promote
    assert gm_json(alpha, "stage", "--global", env=at(X_PLUS_31))["commits"] == []


def test_an_l3_rejection_holds_back_the_rule_under_its_other_spelling() -> None:
    """The person rejected "Always run the tests…" (its projects' spelling seen first); one of
    those projects retires its copy and the group is kept under "Run the tests…" now, with
    fewer sessions than were rejected: still the rejected rule, not proposed again."""
    from agent_memory.promote.l3 import rejection_reason

    rule, plain = ALWAYS_TESTS.rstrip("."), "Run the tests before committing"
    rejected = {atom_id(rule, None): {"at": "2026-12-07T12:00:00Z", "sessions": 4}}
    later = {**l3_atom(plain, 1), "sessions": [sid("cafecafe", n) for n in range(3)]}
    assert rejection_reason(rejected, later) == "rejected on 2026-12-07; needs new sessions"
    said_again = {**later, "sessions": [sid("cafecafe", n) for n in range(5)]}
    assert rejection_reason(rejected, said_again) is None
    assert rejection_reason(rejected, l3_atom("Run ruff before pushing", 1)) is None
