"""Issue 14 §1 and issue 18 through the real hook (`git memory hook user-prompt-submit` /
`session-start` with a payload on stdin, in a real repository): recall injects only the
user's own, unreviewed, unredacted candidates, labelled as such, only when relevant, never
one that restates adopted memory; an empty tier puts nothing in context. Issue 17: no index
rebuild inside a hook; the cold session start stays on the standard library. Issue 14 §5:
the background capture reads only regular files, bounded in size and time."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from builders import l1_atom
from conftest import initialized_copy
from golden import Golden
from sessions import gm
from test_hooks import claims_in, commit_tier, errors, hook, l2, payload

from agent_memory.claude import hooks, jobs, session_start
from agent_memory.gitio import repo as gitb
from agent_memory.model.atom import atom_id
from agent_memory.store.capture import capture_atoms
from agent_memory.store.decisions import record_decision
from agent_memory.store.l1 import L1Store
from agent_memory.store.recall import build as recall_build
from agent_memory.store.recall import writer as recall_writer
from agent_memory.store.recall.files import index_is_stale

NOW = "2026-11-06T12:00:00Z"


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes")


def typed(claim: str, rule: str = "directive.always_never", **extra: Any) -> dict[str, Any]:
    atom = l1_atom(claim, sessions=("s1", "s2"), days=("2026-11-02", "2026-11-03"), **extra)
    for item in atom["evidence"]:
        item["rule"] = rule
    return atom


def store_of(project: Path) -> L1Store:
    return L1Store(gitb.find_repo(project))


def recalled(project: Path, prompt: str) -> str | None:
    return hook("user-prompt-submit", project, prompt=prompt)


# --- what may reach the context ----------------------------------------------------------------


def test_only_unreviewed_typed_unredacted_candidates_are_injected_and_labelled(project: Path) -> None:
    good = typed("Run the billing tests with pytest -x")
    rejected = typed("Run the billing tests with nose")
    forgotten = typed("Run the billing tests twice")
    redacted = typed("Run the billing tests with token [REDACTED]", redacted=True)
    from_tool = typed("`pytest` billing tests fail: exit status 1", rule="failure.tool", kind="failure")
    store = store_of(project)
    capture_atoms(store, [good, rejected, forgotten, redacted, from_tool], "s2", None)
    record_decision(store, rejected["id"], "rejected", None)
    gm(project, "forget", forgotten["id"])
    context = recalled(project, "run the billing tests")
    assert context is not None
    assert claims_in(context, good["claim"]) == 1
    for left_out in (rejected, forgotten, redacted, from_tool):
        assert claims_in(context, left_out["claim"]) == 0, left_out["claim"]
    assert "not adopted" in context.splitlines()[1]  # the preamble: unreviewed candidates
    assert f"{good['claim']} (seen in 2 sessions, not adopted)" in context


def test_a_prompt_with_nothing_relevant_gets_no_context(project: Path) -> None:
    capture_atoms(store_of(project), [
        typed("Format Python with black, line length 100", kind="preference"),
        typed("Use pnpm, not npm", kind="preference"),
        typed("The API server listens on port 8080 in development", kind="fact"),
    ], "s2", None)  # fmt: skip
    assert recalled(project, "how do I deploy to prod") is None
    assert recalled(project, "what's the weather like in Paris today?") is None
    context = recalled(project, "please install the dependencies")
    assert context is not None and claims_in(context, "Use pnpm, not npm") == 1
    assert claims_in(context, "black") == 0
    assert errors(project) == []


@pytest.mark.parametrize("how", ["same id", "same claim", "near duplicate"])
def test_a_candidate_restating_adopted_memory_is_never_recalled(project: Path, how: str) -> None:
    candidate = typed("Use pnpm, not npm", kind="preference")
    capture_atoms(store_of(project), [candidate, typed("Keep the lockfile committed")], "s2", None)
    adopted_claim = {
        "same id": "Use pnpm, not npm",
        "same claim": "use pnpm, NOT npm.",
        "near duplicate": "Use pnpm, not npm, for installs",
    }[how]
    before = recalled(project, "install the dependencies with pnpm")
    assert before is not None and claims_in(before, "Use pnpm, not npm") == 1
    commit_tier(project, "L2", [l2(adopted_claim)])
    if how == "same id":
        assert atom_id(adopted_claim, "proj") == candidate["id"]
    after = recalled(project, "install the dependencies with pnpm")
    assert after is None or "pnpm, not npm" not in after.split("\n", 2)[-1]


def test_a_candidate_restating_a_global_line_is_never_recalled(project: Path) -> None:
    from test_hooks import l3

    capture_atoms(store_of(project), [typed("Use pnpm, not npm", kind="preference")], "s2", None)
    assert recalled(project, "install the dependencies with pnpm") is not None
    commit_tier(Path(os.environ["AGENT_MEMORY_HOME"]), "L3", [l3("Use pnpm, not npm")])
    assert recalled(project, "install the dependencies with pnpm") is None


def test_an_empty_tier_puts_nothing_in_context(project: Path) -> None:
    assert hook("session-start", project) is None
    home = Path(os.environ["AGENT_MEMORY_HOME"])
    for path in (home / "CLAUDE.memory.md", project / "CLAUDE.memory.md"):
        if path.exists():
            text = path.read_text()
            lines = [line for line in text.splitlines() if line.strip()]
            assert all(line.startswith("<!--") and line.endswith("-->") for line in lines), text
            assert "_Nothing adopted yet" not in text


# --- no rebuild inside a hook (issue 17) -------------------------------------------------------------


def _fifty_thousand_atom_index(state: Path, source_oid: str) -> None:
    """A recall index of 50,000 atoms built from another tip: what a hook finds after memory/atoms
    moved on at scale (writing the store itself would take minutes)."""
    words = ["billing", "search", "auth", "checkout", "reports", "admin", "gateway", "jobs", "cache", "queue"]
    atoms = [
        {"id": f"atm_{i:08x}", "claim": f"Run {words[i % 10]} {words[(i // 10) % 10]} task {i}", "kind": "fact",
         "confidence": "stated", "last_seen": "2026-11-01T00:00:00Z", "sessions": ["s"],
         "evidence": [{"rule": "fact.is"}]}
        for i in range(50_000)
    ]  # fmt: skip
    recall_build.write_index(state, atoms, source_oid)


@pytest.mark.parametrize("event", ["session-start", "user-prompt-submit"])
def test_a_stale_index_at_50k_is_answered_from_and_rebuilt_detached(
    project: Path, event: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_of(project)
    capture_atoms(store, [typed("Run billing search task 7 first")], "s2", None)
    commit_tier(project, "L2", [l2("Never push directly to main")])
    state = store.repo.state
    _fifty_thousand_atom_index(state, "f" * 40)  # not the tip: stale
    assert index_is_stale(state, store.repo.common_dir)
    (state / session_start.CONTEXT_CACHE).unlink(missing_ok=True)
    spawned: list[list[str]] = []
    monkeypatch.setattr(jobs, "spawn_detached", lambda args, cwd: spawned.append(args))

    def inline(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the recall index was rebuilt inside the hook")

    monkeypatch.setattr(recall_writer, "rebuild", inline)
    monkeypatch.setattr(recall_writer, "refresh", inline)
    monkeypatch.setattr(recall_build, "write_index", inline)
    data = payload(event, project, prompt="run the billing search task")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode())))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    assert hooks.run_event(event) == 0
    sys.stdout.flush()
    out_bytes = sys.stdout.buffer.getvalue()  # type: ignore[attr-defined]
    assert out_bytes, "the stale index (or the committed files) still answered"
    context = json.loads(out_bytes)["hookSpecificOutput"]["additionalContext"]
    assert ("Never push directly to main" in context) if event == "session-start" else ("task" in context)
    assert [args[:2] for args in spawned] == [["hook", "rebuild-index"]], "one detached rebuild"
    assert spawned[0][2:] == ["--git-dir", str((project / ".git").resolve()), "--cwd", str(project.resolve())]
    assert errors(project) == []
    # A second prompt while it runs starts no other.
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode())))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    hooks.run_event(event)
    assert len(spawned) == 1


# --- the cold session start stays on the standard library ---------------------------------------------


HEAVY = {"jsonschema", "pygit2", "git", "json", "re", "dataclasses", "typing", "pathlib", "subprocess",
         "tempfile", "importlib.resources", "argparse", "hashlib",
         # ~3 ms each on the cold start (issue 17): stamps are sorted and dated as text, and
         # a line judged before is looked up verbatim, without its CRC.
         "datetime", "collections", "zlib"}  # fmt: skip


def session_start_in_a_fresh_process(project: Path, modules: set[str]) -> tuple[str, list[str]]:
    """Run the SessionStart hook in a new interpreter (no site, this checkout on the path):
    the context it injects, and which of `modules` it imported."""
    probe = (
        "import sys, io\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))\n"
        "from agent_memory.claude.hooks import run_event\n"
        "run_event('session-start')\n"
        f"print(sorted(set({sorted(modules)!r}) & set(sys.modules)), file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-S", "-c", probe, payload("session-start", project)],
        cwd=project, capture_output=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)},
    )  # fmt: skip
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    return context, json.loads(proc.stderr.decode().strip().replace("'", '"'))


def test_the_cold_session_start_imports_no_heavy_module(project: Path) -> None:
    from test_hooks import l3

    capture_atoms(store_of(project), [typed("The default branch is dev")], "s2", None)
    commit_tier(project, "L2", [l2("Never push directly to main"), l2("The default branch is main")])
    commit_tier(Path(os.environ["AGENT_MEMORY_HOME"]), "L3", [l3("Prefer small commits")])
    # What `adopt` does after a commit: re-render, which judges the new lines with the guard
    # (issue 14 §2). "Cold" is then the first start after that change, as issue 17 defines it.
    session_start.warm(store_of(project).repo.location)
    cache = project / ".git" / "agent-memory" / session_start.CONTEXT_CACHE
    for state in ("cold", "warm"):
        if state == "cold":
            cache.unlink(missing_ok=True)
        context, heavy = session_start_in_a_fresh_process(project, HEAVY)
        assert "Never push directly to main" in context and "Prefer small commits" in context
        assert heavy == [], state
        assert cache.exists()


def test_a_line_first_seen_at_session_start_is_judged_there_once(project: Path) -> None:
    """A pull can bring adopted lines no local verb has judged: the hook loads the guard for
    them once, remembers the verdicts, and the next cold start stays on the standard library."""
    commit_tier(project, "L2", [l2("Never push directly to main")])
    cache = project / ".git" / "agent-memory" / session_start.CONTEXT_CACHE
    loaded = []
    for _ in range(2):
        cache.unlink(missing_ok=True)
        context, guard = session_start_in_a_fresh_process(project, {"agent_memory.redact.guard"})
        assert "Never push directly to main" in context
        loaded.append(bool(guard))
    assert loaded == [True, False]


# --- the background capture (issue 14 §5) ---------------------------------------------------------------


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "directory", "too large"])
def test_the_background_capture_reads_only_a_regular_file_of_sane_size(
    project: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = project.parent / f"{kind}.jsonl"
    if kind == "dev-zero":
        target.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "directory":
        target.mkdir()
    else:
        target.write_text("{}\n" * 10)
        monkeypatch.setattr(hooks, "MAX_TRANSCRIPT_BYTES", 8)
    tip = store_of(project).tip()
    monkeypatch.setattr(hooks, "_wait_until_quiet", lambda path: None)
    monkeypatch.setattr(hooks, "_limit_wall_clock", lambda seconds: None)
    assert hooks.run_event("background-capture", {"transcript": str(target), "cwd": str(project)}) == 0
    (line,) = errors(project)
    assert "not a regular file" in line or "over the" in line
    assert store_of(project).tip() == tip


def test_the_background_capture_has_a_wall_clock_limit() -> None:
    if not hasattr(signal, "SIGALRM"):
        pytest.skip("no SIGALRM on this platform")
    previous = signal.getsignal(signal.SIGALRM)
    try:
        hooks._limit_wall_clock(1)
        with pytest.raises(TimeoutError, match="still running after 1 s"):
            for _ in range(100):
                time.sleep(0.1)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_session_end_on_dev_zero_ends(project: Path) -> None:
    """Through the real hook: the detached capture refuses /dev/zero and exits (it logs)."""
    from test_hooks import wait_for

    proc = subprocess.run(["git", "memory", "hook", "session-end"], cwd=project, capture_output=True, timeout=60,
                          input=payload("session-end", project, transcript_path="/dev/zero").encode())  # fmt: skip
    assert proc.returncode == 0 and proc.stdout == b""
    lines = wait_for(lambda: errors(project), "the background capture's log line")
    assert "not a regular file" in lines[0]
