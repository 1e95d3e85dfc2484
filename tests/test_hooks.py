"""The three Claude Code hooks, driven as Claude Code drives them (issue 7, spec §5,
docs/claude-code-integration.md): the installed CLI run as `git memory hook <event>` (what
`.claude/settings.json` runs) or through the plugin shim, the JSON payload on stdin, real
repositories, real-format transcripts, and stdout read the way Claude Code reads it: output
that starts with `{` is JSON and must be the documented `hookSpecificOutput` form with an
`additionalContext` under 10,000 characters; anything else must be nothing at all.

No timing is asserted (CONVENTIONS); `benchmarks/hooks.py` measures. Where a detached
background job is involved, the tests poll for its effect with a generous deadline."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from builders import committed_atom
from conftest import git, initialized_copy, new_repo
from golden import Golden
from hypothesis import given, settings
from hypothesis import strategies as st
from sessions import gm, gm_json, write_session

from agent_memory.committed.adopted_log import LogEntry, format_entry
from agent_memory.committed.files import TierFiles
from agent_memory.model.atom import normalize

NOW = "2026-11-06T12:00:00Z"
EVENTS = {
    "session-start": "SessionStart",
    "user-prompt-submit": "UserPromptSubmit",
    "session-end": "SessionEnd",
}
DISABLE = {
    "session-start": "AGENT_MEMORY_SESSIONSTART",
    "user-prompt-submit": "AGENT_MEMORY_USERPROMPTSUBMIT",
    "session-end": "AGENT_MEMORY_SESSIONEND",
}
SHIM = Path(__file__).resolve().parent.parent / "hooks" / "agent-memory-hook"
PUSH = "Never push directly to main; always open a pull request."
LINT = "Always run the linter before committing."
PNPM = "Use pnpm, not npm, for everything in this repo."
VITEST = "Always run tests with vitest, not jest."  # a standing word: an atom on one mention
PORT = "The API server listens on port 8080 in development."
DEV = "Remember: the default branch is dev."  # a standing word: an atom on one mention
MAIN = "Remember: the default branch is main."
INSTALL_PROMPT = "please install the dependencies with the package manager"
BRANCH_PROMPT = "which branch is the default branch here?"


def sid(n: int, tag: str = "aaaaaaaa") -> str:
    return f"{tag}-0000-4000-8000-{n:012d}"


@pytest.fixture(autouse=True)
def claude_like_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # The hooks fall back to CLAUDE_PROJECT_DIR; a test run inside Claude Code must not leak it.
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes")


# --- driving a hook as Claude Code does --------------------------------------------------------


def payload(event: str, cwd: Path | str, **extra: Any) -> str:
    """A payload of the current shape (docs §1): common fields, per-event fields, and fields
    we do not use (they must be ignored)."""
    base: dict[str, Any] = {
        "session_id": sid(99),
        "transcript_path": "/nonexistent/t.jsonl",
        "cwd": str(cwd),
        "hook_event_name": EVENTS[event],
        "permission_mode": "default",
        "prompt_id": "p-1",
    }
    per_event: dict[str, dict[str, Any]] = {
        "session-start": {"source": "startup", "model": "claude-x"},
        "user-prompt-submit": {"prompt": ""},
        "session-end": {"reason": "prompt_input_exit"},
    }
    return json.dumps({**base, **per_event[event], **extra})


def hook_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {
        **os.environ,
        "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
    }
    env.update(extra or {})
    return env


def run_hook(
    event: str,
    stdin: str | bytes,
    cwd: Path,
    env: dict[str, str] | None = None,
    command: list[str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """`git memory hook <event>` with the payload on stdin, as the settings.json hook runs it."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    argv = command or ["git", "memory", "hook", event]
    return subprocess.run(
        argv, input=data, cwd=str(cwd), capture_output=True, env=hook_env(env), timeout=120
    )


def claude_reads(proc: subprocess.CompletedProcess[bytes], event: str) -> str | None:
    """What Claude Code makes of a hook's result: exit 0 always; stdout empty (nothing), or one
    line of JSON (it starts with `{`) in the documented form. Returns additionalContext."""
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode("utf-8")  # Claude Code reads UTF-8
    if not out.strip():
        assert out == "", repr(out)
        return None
    assert out.lstrip().startswith("{") and out.rstrip().endswith("}"), (
        "plain text is never emitted"
    )
    assert out.endswith("\n") and out.count("\n") == 1, "exactly one line"
    data = json.loads(out)
    assert list(data) == ["hookSpecificOutput"]
    specific = data["hookSpecificOutput"]
    assert specific["hookEventName"] == EVENTS[event]
    assert set(specific) == {"hookEventName", "additionalContext"}
    context = specific["additionalContext"]
    assert isinstance(context, str) and 0 < len(context) < 10_000
    return context


def hook(event: str, cwd: Path, env: dict[str, str] | None = None, **fields: Any) -> str | None:
    return claude_reads(run_hook(event, payload(event, cwd, **fields), cwd, env), event)


def errors(repo: Path) -> list[str]:
    path = repo / ".git" / "agent-memory" / "errors.log"
    return path.read_text("utf-8").splitlines() if path.exists() else []


def wait_for(condition: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def background_jobs(repo: Path) -> list[str]:
    """The detached jobs the hooks started for `repo` (`hook background-capture`, `hook
    rebuild-index`: their command line names its work tree) that are still running. Waiting
    for none, not for a while, is what tells that nothing else is coming, however slow the
    machine is."""
    top = str(repo.resolve())
    lines: list[list[str]] = []
    if Path("/proc/self/cmdline").exists():
        for entry in Path("/proc").iterdir():
            try:
                raw = (entry / "cmdline").read_bytes() if entry.name.isdigit() else b""
            except OSError:  # ended meanwhile
                continue
            lines.append(raw.decode("utf-8", "replace").split("\0"))
    else:  # no /proc (macOS): ps
        out = subprocess.run(["ps", "-axww", "-o", "args="], capture_output=True, text=True, check=True)
        lines = [line.split() for line in out.stdout.splitlines()]
    return [
        " ".join(argv)
        for argv in lines
        if "hook" in argv and top in argv and {"background-capture", "rebuild-index"} & set(argv)
    ]


def index_files(repo: Path) -> list[Path]:
    return sorted((repo / ".git" / "agent-memory").glob("recall-index*"))


def no_rebuild_running(repo: Path) -> bool:
    return not (repo / ".git" / "agent-memory" / "rebuilding-recall-index").exists()


def section(text: str, title: str) -> str:
    """The lines under a `## ` title, up to the next title or the closing tag."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line.startswith(title)
            if inside:
                out.append(line)
            continue
        if line == "</agent-memory>":
            inside = False
        if inside:
            out.append(line)
    return "\n".join(out).rstrip("\n")


def claims_in(text: str, claim: str) -> int:
    wanted = normalize(claim)
    return sum(1 for line in text.splitlines() if wanted in normalize(line))


# --- building memory the way users do ----------------------------------------------------------


def capture(repo: Path, sessions: list[tuple[str, str, list[str]]]) -> None:
    """Write real-format transcripts ((id, day, prompts)) and capture them (no staging)."""
    for session, day, prompts in sessions:
        write_session(repo, session, day, [{"user": p} for p in prompts])
    gm(repo, "capture", "--all", "--no-stage")


def adopt_all(repo: Path) -> None:
    gm(repo, "stage")
    gm(repo, "adopt", "--all")


def commit_tier(root: Path, tier: str, atoms: list[dict[str, Any]], message: str = "adopt") -> None:
    """Append adopt lines to root's .memory/adopted.log, re-render CLAUDE.memory.md, commit
    (for L3, root is the global repo: this is what `adopt --global` leaves behind)."""
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


def global_repo() -> Path:
    return Path(os.environ["AGENT_MEMORY_HOME"])


def l3(claim: str, **extra: Any) -> dict[str, Any]:
    return committed_atom(claim, tier="L3", **extra)


def l2(claim: str, **extra: Any) -> dict[str, Any]:
    return committed_atom(claim, tier="L2", project="proj", **extra)


def context_verb(repo: Path) -> str:
    return str(gm_json(repo, "context")["context"])


# --- session-start -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["CLAUDE.md", "CLAUDE.memory.md", ".memory/adopted.log"])
def test_session_start_never_reads_through_a_committed_link(project: Path, name: str) -> None:
    """A cloned repository may commit its memory files as links (git stores them): linked to
    /dev/zero, the cache key read the file forever (all memory; Claude Code's timeout killed
    git, and the hook ran on), where the readers refuse a link."""
    from conftest import commit_link_to_dev_zero, memory_capped

    capture(project, [(sid(1), "2026-11-01", [PUSH]), (sid(2), "2026-11-02", [PUSH]), (sid(3), "2026-11-03", [PUSH])])
    adopt_all(project)
    commit_link_to_dev_zero(project, name)
    try:
        proc = subprocess.run([sys.executable, "-m", "agent_memory", "hook", "session-start"],
                              input=payload("session-start", project).encode("utf-8"), cwd=str(project),
                              capture_output=True, env=hook_env(), timeout=120, preexec_fn=memory_capped)  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"the session-start hook did not return with {name} linked to /dev/zero")
    context = claude_reads(proc, "session-start")
    assert errors(project) == []  # (broken: a MemoryError, the context lost)
    if name == "CLAUDE.md":  # the block is in CLAUDE.memory.md: still injected
        assert context is not None and claims_in(context, "Never push directly to main") == 1


def test_session_start_never_reads_a_config_linked_to_dev_zero(project: Path) -> None:
    """The session start reads git's config files itself (the project name, the attributes
    files its cache key signs), the global memory repo's among them: one linked to /dev/zero
    (which git refuses as a bad line) was read for ever — all memory, then a MemoryError and
    the whole context lost. Such a file is left out; the project's block is still given."""
    from conftest import memory_capped

    capture(project, [(sid(1), "2026-11-01", [PUSH]), (sid(2), "2026-11-02", [PUSH]), (sid(3), "2026-11-03", [PUSH])])
    adopt_all(project)
    config = global_repo() / ".git" / "config"
    kept = config.read_bytes()
    config.unlink()
    config.symlink_to("/dev/zero")
    try:
        proc = subprocess.run([sys.executable, "-m", "agent_memory", "hook", "session-start"],
                              input=payload("session-start", project).encode("utf-8"), cwd=str(project),
                              capture_output=True, env=hook_env(), timeout=120, preexec_fn=memory_capped)  # fmt: skip
    finally:
        config.unlink()
        config.write_bytes(kept)
    context = claude_reads(proc, "session-start")
    assert errors(project) == []  # (broken: a MemoryError, the context lost)
    assert context is not None and claims_in(context, "Never push directly to main") == 1


def test_session_start_never_reads_a_huge_claude_md_whole(project: Path) -> None:
    """The cache key signed CLAUDE.md and CLAUDE.memory.md by their whole content, read at
    every start, warm ones too, and a miss read both whole for their blocks. A cloned CLAUDE.md
    of zeros costs its clone nothing (it compresses away): 300 MB of it cost each start 2.5 s
    and 1.3 GB, a bigger one a MemoryError (the whole context lost) or Claude Code's timeout.
    Here a sparse 1.5 GB one, under a 2 GB address space: the block in CLAUDE.memory.md is
    still given."""
    from conftest import memory_capped

    capture(project, [(sid(1), "2026-11-01", [PUSH]), (sid(2), "2026-11-02", [PUSH]), (sid(3), "2026-11-03", [PUSH])])
    adopt_all(project)
    with open(project / "CLAUDE.md", "ab") as fh:
        fh.truncate(1536 << 20)
    for start in ("cold", "warm"):
        proc = subprocess.run([sys.executable, "-m", "agent_memory", "hook", "session-start"],
                              input=payload("session-start", project).encode("utf-8"), cwd=str(project),
                              capture_output=True, env=hook_env(), timeout=120, preexec_fn=memory_capped)  # fmt: skip
        context = claude_reads(proc, "session-start")
        assert errors(project) == [], start
        assert context is not None and claims_in(context, "Never push directly to main") == 1, start


def test_session_start_injects_adopted_claims_exactly_as_git_memory_context(project: Path) -> None:
    capture(
        project,
        [
            (sid(1), "2026-11-01", [PUSH, PNPM]),
            (sid(2), "2026-11-02", [PUSH, PNPM]),
            (sid(3), "2026-11-03", [PUSH]),
        ],
    )
    adopt_all(project)
    context = hook("session-start", project)
    assert context is not None
    l2_part = section(context, "## Project memory (agent-memory) — proj")
    assert claims_in(l2_part, "Never push directly to main") == 1
    assert claims_in(l2_part, "Use pnpm, not npm") == 1
    assert context.startswith("<agent-memory>") and context.endswith("</agent-memory>")
    # `git memory context` prints the same thing for people, in both forms.
    assert context_verb(project) == context
    assert gm(project, "context").stdout == context + "\n"
    assert errors(project) == []
    # A second start (resume, /clear, compaction) says the same.
    assert hook("session-start", project, source="resume") == context


def test_pinned_atoms_come_first_then_the_newest(project: Path) -> None:
    capture(
        project,
        [
            (sid(1), "2026-11-01", [PUSH]),
            (sid(2), "2026-11-02", [PUSH]),
            (sid(3), "2026-11-03", [LINT]),
            (sid(4), "2026-11-04", [LINT, VITEST]),
            (sid(5), "2026-11-05", [VITEST]),
        ],
    )
    adopt_all(project)
    before = hook("session-start", project)
    assert before is not None
    lines = [line for line in before.splitlines() if line.startswith("- ")]

    def position(claim: str) -> int:
        return next(i for i, line in enumerate(lines) if normalize(claim) in normalize(line))

    # Newest last_seen first: vitest (11-05), the linter (11-04), push (11-02).
    assert (
        position("Use vitest, not jest") < position(LINT) < position("Never push directly to main")
    )
    push_id = next(
        a["id"]
        for a in gm_json(project, "inspect", "--tier", "L2")["atoms"]
        if "push" in a["claim"]
    )
    gm(project, "pin", push_id)
    after = hook("session-start", project)  # the cached context must not survive the pin
    assert after is not None and after != before
    lines = after.splitlines()
    pinned_at, recent_at = lines.index("### Pinned"), lines.index("### Recent")
    assert pinned_at < recent_at
    assert claims_in(lines[pinned_at + 1], "Never push directly to main") == 1
    assert claims_in("\n".join(lines[recent_at:]), "Never push directly to main") == 0
    assert after == context_verb(project)


def test_an_adopted_claim_contested_by_newer_evidence_is_tagged_with_the_newer_date(
    project: Path,
) -> None:
    capture(
        project,
        [
            (sid(1), "2026-11-01", [DEV]),
            (sid(2), "2026-11-02", [DEV]),
            (sid(3), "2026-11-03", [DEV]),
        ],
    )
    adopt_all(project)
    context = hook("session-start", project)
    assert context is not None and "[contested" not in context
    capture(project, [(sid(4), "2026-11-05", [MAIN])])
    context = hook("session-start", project)
    assert context is not None
    dev_lines = [line for line in context.splitlines() if "default branch is dev" in line]
    assert dev_lines == ["- [contested — newer evidence 2026-11-05] The default branch is dev"]
    # The newer L1 claim is recalled (the adopted one is already injected at start), tagged too.
    recalled = hook("user-prompt-submit", project, prompt=BRANCH_PROMPT)
    assert recalled is not None
    assert "The default branch is main [contested — newer evidence 2026-11-05]" in recalled
    assert "default branch is dev" not in recalled
    assert context_verb(project) == context


def test_a_contradicting_pair_kept_at_l1_is_recalled_tagged_and_not_injected_at_start(
    project: Path,
) -> None:
    capture(project, [(sid(1), "2026-11-01", [DEV]), (sid(2), "2026-11-02", [MAIN])])
    assert len(gm_json(project, "inspect", "--contested")["pairs"]) == 1
    assert hook("session-start", project) is None  # nothing adopted: nothing at session start
    recalled = hook("user-prompt-submit", project, prompt=BRANCH_PROMPT)
    assert recalled is not None
    tag = "[contested — newer evidence 2026-11-02]"  # the newer atom's day, on both sides
    assert f"The default branch is dev {tag}" in recalled
    assert f"The default branch is main {tag}" in recalled


def test_l3_from_the_global_repo_comes_first_and_collisions_are_never_two_plain_lines(
    project: Path,
) -> None:
    commit_tier(project, "L2", [l2("The PR base branch is dev."), l2(PUSH)])
    commit_tier(
        global_repo(), "L3", [l3("Answer concisely."), l3("The PR base branch is main."), l3(PUSH)]
    )
    context = hook("session-start", project)
    assert context is not None
    global_part = section(context, "## Global memory (agent-memory)")
    project_part = section(context, "## Project memory (agent-memory)")
    assert context.index("## Global memory") < context.index("## Project memory")
    assert claims_in(global_part, "Answer concisely") == 1
    # Contradiction: the user's own global line is never dropped for the project's; both are
    # shown, tagged contested with where each comes from.
    assert claims_in(global_part, "The PR base branch is main") == 1
    assert claims_in(project_part, "The PR base branch is dev") == 1
    assert "[contested — the user's own global memory; " in global_part
    assert "[contested — committed to this project; " in project_part
    assert "- 1 project line contradicts the user's own global memory" in project_part
    assert "A line tagged contested is disputed: ask the user before relying on it." in context
    # The same claim at both tiers is said once.
    assert claims_in(context, "Never push directly to main") == 1
    assert context_verb(project) == context


def test_over_budget_sets_are_counted_and_name_no_command(project: Path) -> None:
    filler = "when a change touches the billing, invoicing and settlement services together"
    commit_tier(
        project,
        "L2",
        [
            l2(
                f"Rule {i:02d}: run the full suite {filler}.",
                last_seen=f"2026-10-{1 + i % 28:02d}T10:00:00Z",
            )
            for i in range(80)
        ],
    )
    commit_tier(
        global_repo(),
        "L3",
        [l3(f"Habit {i:02d}: explain the trade-off {filler}.") for i in range(40)],
    )
    context = hook("session-start", project)
    assert context is not None and len(context) < 10_000
    for title, total, budget in (("## Project memory", 80, 4096), ("## Global memory", 40, 2048)):
        part = section(context, title)
        assert len((part + "\n").encode("utf-8")) <= budget
        shown = [line for line in part.splitlines() if line.startswith(("- Rule", "- Habit"))]
        assert shown and len(shown) < total and "git memory" not in part
    # The rest is counted, and listed by the command the committed block's comment names.
    assert gm_json(project, "context")["omitted"] == 80 + 40 - len(
        [line for line in context.splitlines() if line.startswith(("- Rule", "- Habit"))])
    assert len(gm_json(project, "inspect", "--tier", "L2")["atoms"]) == 80
    assert context_verb(project) == context


def test_empty_memory_injects_nothing_at_all(project: Path) -> None:
    assert hook("session-start", project) is None
    capture(project, [(sid(1), "2026-11-01", [PNPM])])  # L1 only: nothing adopted yet
    assert hook("session-start", project) is None
    assert errors(project) == []
    assert gm_json(project, "context")["context"] == ""


def test_session_start_follows_every_change_to_what_it_renders(project: Path) -> None:
    commit_tier(project, "L2", [l2(PUSH)])
    first = hook("session-start", project)
    assert first is not None and "## Project memory (agent-memory) — proj" in first
    commit_tier(project, "L2", [l2(LINT)])
    second = hook("session-start", project)
    assert second is not None and claims_in(second, LINT) == 1
    commit_tier(global_repo(), "L3", [l3("Answer concisely.")])
    third = hook("session-start", project)
    assert third is not None and claims_in(third, "Answer concisely") == 1
    git(project, "config", "memory.project", "renamed")
    fourth = hook("session-start", project)
    assert fourth is not None and "## Project memory (agent-memory) — renamed" in fourth
    # A damaged cache is recomputed, never shown.
    cache = project / ".git" / "agent-memory" / "session-start.cache"
    assert cache.exists()
    cache.write_bytes(b'\xff\xfegarbage\n{"not": "ours"}\n')
    assert hook("session-start", project) == fourth == context_verb(project)
    assert errors(project) == []


def bytes_read_probe(event: str) -> str:
    """A program that runs the hook `event` on the payload in argv[1] and prints on stderr how
    many bytes it read (/proc/self/io `rchar`): what a test counts instead of timing."""
    return (
        "import io, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))\n"
        "def rchar():\n"
        "    with open('/proc/self/io') as fh:\n"
        "        return int(next(l for l in fh if l.startswith('rchar:')).split()[1])\n"
        "from agent_memory.claude.hooks import run_event\n"
        "before = rchar()\n"
        f"run_event({event!r})\n"
        "print(rchar() - before, file=sys.stderr)\n"
    )


def _session_start_bytes(project: Path) -> tuple[int, str | None]:
    """(bytes the session-start hook read, the context it injected), counted in a process of its own."""
    proc = subprocess.run(
        [sys.executable, "-c", bytes_read_probe("session-start"), payload("session-start", project)],
        cwd=project, capture_output=True, env={**hook_env(), "PYTHONPATH": str(Path(__file__).parent.parent)},
        timeout=120,
    )  # fmt: skip
    out = proc.stdout.decode()
    return int(proc.stderr.decode().strip().splitlines()[-1]), (
        json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else None
    )


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts the bytes read in /proc/self/io")
def test_session_start_after_an_append_reads_the_tail_of_a_big_adopted_log(project: Path) -> None:
    """The miss that follows an adopt (a line appended to a big adopted.log) reads what was
    appended, from where the saved fold of the log stopped (the one the per-prompt hook keeps),
    not the whole file again (40 MB: 1.5–1.8 s); a rewrite is still read whole. Counted in
    bytes read (/proc/self/io `rchar`), never timed."""
    pnpm = PNPM
    commit_tier(project, "L2", [l2(PUSH), l2(pnpm)])
    log = project / ".memory" / "adopted.log"
    log.write_text(format_entry(LogEntry(op="adopt", atom=l2(PUSH), at="2026-03-02T00:00:00Z")))
    _grow_with_churn(log, 8 << 20)
    size = log.stat().st_size
    first, context = _session_start_bytes(project)
    assert first > size and context is not None and claims_in(context, pnpm) == 0  # nothing saved yet: read whole
    with log.open("ab") as fh:  # as adopt appends
        fh.write(format_entry(LogEntry(op="adopt", atom=l2(pnpm), at="2026-04-01T00:00:00Z")).encode())
    read, context = _session_start_bytes(project)
    # what is read besides the appended line: the cache key's and the fold's 64 KB windows
    # (~0.5 MB in all), the saved fold, and the modules a miss imports
    assert read < size // 4, read
    assert context is not None and claims_in(context, pnpm) == 1 and context == context_verb(project)
    # cut back (an adoption rolled back): not a tail, read whole, and right
    with log.open("r+b") as fh:
        fh.truncate(size)
    read, context = _session_start_bytes(project)
    assert read > size and context is not None and claims_in(context, pnpm) == 0
    assert errors(project) == []


def _grow_with_churn(log: Path, size: int) -> None:
    """Append pin/unpin lines of the PUSH atom to `log` until it holds `size` bytes (a big log
    whose held atoms do not change)."""
    churn = "".join(
        format_entry(LogEntry(op=op, atom={**l2(PUSH), "pinned": op == "pin"}, at=f"2026-03-{day:02d}T00:00:00Z"))
        for day in range(3, 28) for op in ("pin", "unpin")
    )  # fmt: skip
    with log.open("a") as fh:
        while log.stat().st_size < size:
            fh.write(churn * 100)
            fh.flush()


def test_a_log_too_long_for_one_hook_is_read_over_several_and_then_served(project: Path) -> None:
    """A clone's adopted.log longer than a hook can read in its time (66 MB: ~2 s on a fast
    machine, over the prompt hook's 1 s timeout, so every prompt was killed and saved nothing,
    for ever): each hook stops at its budget, saved, exits 0 with no output and one errors.log
    line saying how far it got; the next hook, prompt or start, goes on from there, and once
    the log is read whole the start injects what `git memory context` renders. Never timed:
    the budget is set so small (1 ms) that every hook stops after one chunk."""
    commit_tier(project, "L2", [l2(PUSH), l2(PNPM)])
    log = project / ".memory" / "adopted.log"
    _grow_with_churn(log, 3 << 20)
    env = {"AGENT_MEMORY_LOG_READ_BUDGET_MS": "1"}
    progress: list[float] = []
    for run in range(40):
        event = ("user-prompt-submit", "session-start")[run % 2]
        fields = {"prompt": "how do I install packages?"} if event == "user-prompt-submit" else {}
        context = claude_reads(run_hook(event, payload(event, project, **fields), project, env), event)
        if context is not None and event == "session-start":
            break
        assert context is None
        last = errors(project)[-1]
        assert f"hook {event}: FoldIncomplete: {log} is being read: " in last, last
        progress.append(float(last.split("is being read: ")[1].split(" of ")[0]))
    else:
        raise AssertionError(f"the log was never read to its end: {progress}")
    assert len(progress) >= 4 and progress == sorted(set(progress)), progress  # each went on from the last
    assert context == context_verb(project) and claims_in(context, PNPM) == claims_in(context, PUSH) == 1
    assert claude_reads(run_hook("session-start", payload("session-start", project), project, env), "session-start") == context
    assert len(errors(project)) == len(progress)  # and no more


@pytest.mark.parametrize("bad", [b'{"op": "adopt", "atom": {not json', b'{"op": "adopt", "at": "2026-03-0'])
def test_a_line_of_adopted_log_that_is_not_json_leaves_the_others_in_context(project: Path, bad: bytes) -> None:
    """One line of adopted.log that is not JSON (a hand edit, a line cut short mid-file) is
    left out and the start injects the others. The hooks parse without `import json`, and the
    C scanner raised SystemError for such a line (its error class was never loaded): the
    session start injected nothing."""
    commit_tier(project, "L2", [l2(PUSH), l2(PNPM)])
    log = project / ".memory" / "adopted.log"
    first, rest = log.read_bytes().split(b"\n", 1)
    log.write_bytes(first + b"\n" + bad + b"\n" + rest)
    context = claude_reads(run_hook("session-start", payload("session-start", project), project), "session-start")
    assert context is not None and claims_in(context, PUSH) == claims_in(context, PNPM) == 1, errors(project)
    assert not any("SystemError" in line for line in errors(project)), errors(project)


def test_a_saved_fold_left_half_written_by_a_killed_hook_is_deleted_by_the_next_save(project: Path) -> None:
    """A hook killed while it saved the fold of a big adopted.log (its client's timeout) left
    `<cache>.<pid>.tmp` behind, as big as the log, once per kill, for ever. The next save
    deletes such a file when its writer is gone and it is a minute old; a live writer's, or
    one just written, stays."""
    from agent_memory.store.recall.adopted import ADOPTED_LOGS_CACHE

    commit_tier(project, "L2", [l2(PUSH)])
    state = project / ".git" / "agent-memory"
    state.mkdir(exist_ok=True)
    gone = subprocess.Popen(["git", "--version"], stdout=subprocess.DEVNULL)
    gone.wait()
    old = time.time() - 3600
    left = {name: state / f"{ADOPTED_LOGS_CACHE}.{pid}.tmp" for name, pid in
            (("killed", gone.pid), ("writing", os.getpid()))}  # fmt: skip
    for path in left.values():
        path.write_bytes(b"x" * 1000)
        os.utime(path, (old, old))
    fresh = state / f"{ADOPTED_LOGS_CACHE}.{gone.pid + 1}.tmp"
    fresh.write_bytes(b"x")
    assert hook("user-prompt-submit", project, prompt="how do I push?") is None
    assert (state / ADOPTED_LOGS_CACHE).is_file()  # the fold was saved
    assert not left["killed"].exists() and left["writing"].exists() and fresh.exists()


def test_a_log_line_longer_than_any_entry_refuses_the_log_at_once_whatever_the_budget(project: Path) -> None:
    """A committed adopted.log ending in one line of many MB (100 MB packs to ~100 KB) was read
    whole by every hook whatever its budget (the read looked at the deadline only after a
    newline), past the prompt hook's 1 s timeout, killed, nothing saved: for ever. Stopped at
    the deadline instead, a line that never ends still gave nothing at every hook, the global
    memory included (tests/test_security_clone_data.py). No entry is that long (a claim has at
    most 500 characters): past log_fold.LONG_LINE the log is refused as one naming too many
    atoms is — at once, whatever the budget, logged once a day, the next hook stopping at the
    same line. Never timed: the budget is 1 ms or ten minutes."""
    commit_tier(project, "L2", [l2(PUSH)])
    log = project / ".memory" / "adopted.log"
    with log.open("ab") as fh:
        fh.write(b'{"op": "adopt", "note": "' + b"a" * (16 << 20) + b'"}\n')
    for budget in ("600000", "1", "1"):
        assert hook("user-prompt-submit", project, {"AGENT_MEMORY_LOG_READ_BUDGET_MS": budget},
                    prompt="how do I push?") is None  # fmt: skip
        context = hook("session-start", project, {"AGENT_MEMORY_LOG_READ_BUDGET_MS": budget})
        assert context is None or claims_in(context, PUSH) == 0
    assert len(errors(project)) == 1, errors(project)
    assert f"{log}: line 2 is longer than any entry" in errors(project)[0]


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts the bytes read in /proc/self/io")
def test_session_start_over_a_big_adopted_log_reads_a_bounded_part_and_is_never_stale(project: Path) -> None:
    """A cached start does not read adopted.log whole (a 40 MB log cost ~275 ms per start), yet
    an append, a same-size rewrite with its mtime restored, a truncation and a replacement each
    show at once. Counted in bytes read (/proc/self/io `rchar`), never timed."""
    pnpm, yarn = (PNPM, PNPM.replace("pnpm", "yarn"))
    line = {c: format_entry(LogEntry(op="adopt", atom=l2(c), at="2026-04-01T00:00:00Z")).encode() for c in (pnpm, yarn)}
    assert len(line[pnpm]) == len(line[yarn])
    # The block shows all three claims (a reviewer's view): the log alone decides which are held.
    commit_tier(project, "L2", [l2(PUSH), l2(pnpm), l2(yarn)])
    log = project / ".memory" / "adopted.log"
    log.write_text(format_entry(LogEntry(op="adopt", atom=l2(PUSH), at="2026-03-02T00:00:00Z")))
    _grow_with_churn(log, 8 << 20)
    base = log.read_bytes()

    def bytes_read() -> tuple[int, str | None]:
        return _session_start_bytes(project)

    def shows(context: str | None) -> set[str]:
        return {c for c in (PUSH, pnpm, yarn) if context and claims_in(context, c)}

    first, context = bytes_read()
    assert first > log.stat().st_size and shows(context) == {PUSH}  # a miss renders from the log
    read, again = bytes_read()
    assert again == context and read < log.stat().st_size // 8  # a hit does not read it whole
    # an append (as adopt writes)
    with log.open("ab") as fh:
        fh.write(line[pnpm])
    assert shows(hook("session-start", project)) == {PUSH, pnpm}
    # rewritten in place to the same length, its mtime restored
    st = log.stat()
    with log.open("r+b") as fh:
        fh.seek(len(base))
        fh.write(line[yarn])
    os.utime(log, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert log.stat().st_size == st.st_size and log.stat().st_mtime_ns == st.st_mtime_ns
    assert shows(hook("session-start", project)) == {PUSH, yarn}
    # cut short (an adoption rolled back)
    with log.open("r+b") as fh:
        fh.truncate(len(base))
    assert shows(hook("session-start", project)) == {PUSH}
    # replaced by another file (a checkout, a pull), of the same length and mtime as the last one
    with log.open("ab") as fh:
        fh.write(line[yarn])
    assert shows(hook("session-start", project)) == {PUSH, yarn}
    st = log.stat()
    other = log.with_name("adopted.log.new")
    other.write_bytes(base + line[pnpm])
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, log)
    assert shows(hook("session-start", project)) == {PUSH, pnpm}
    read, context = bytes_read()
    assert shows(context) == {PUSH, pnpm} and read < log.stat().st_size // 8
    assert context == context_verb(project)
    assert errors(project) == []


@pytest.mark.parametrize("damage", ["deleted", "truncated"])
def test_session_start_never_rebuilds_the_index_inline_and_heals_in_the_background(
    project: Path, damage: str
) -> None:
    """Issue 17: a missing or broken recall index is never rebuilt inside the hook (at 50k
    atoms that took 8.5 s, past the hook's timeout): session start answers from the committed
    files at once, starts one detached rebuild, and the contested tag is back for the next
    start."""
    capture(
        project,
        [
            (sid(1), "2026-11-01", [DEV]),
            (sid(2), "2026-11-02", [DEV]),
            (sid(3), "2026-11-03", [DEV]),
        ],
    )
    adopt_all(project)
    capture(project, [(sid(4), "2026-11-05", [MAIN])])
    for path in index_files(project):
        if damage == "deleted":
            path.unlink()
        else:
            path.write_bytes(path.read_bytes()[:100])
    context = hook("session-start", project)
    assert context is not None and "The default branch is dev" in context
    wait_for(lambda: index_files(project) and no_rebuild_running(project), "the detached rebuild")
    tagged = hook("session-start", project)
    assert tagged is not None and "[contested — newer evidence 2026-11-05] The default branch is dev" in tagged
    # Absent is the normal state after `init`; present but unreadable is logged.
    lines = errors(project)
    assert len(lines) == (0 if damage == "deleted" else 1)
    assert all("recall index was unreadable" in line for line in lines)
    assert (
        hook("user-prompt-submit", project, prompt=BRANCH_PROMPT) is not None
    )  # healed for recall too
    assert len(errors(project)) == len(lines)


def test_context_is_utf8_json_whatever_the_locale(project: Path) -> None:
    capture(project, [(sid(1), "2026-11-01", [DEV]), (sid(2), "2026-11-02", [MAIN])])
    commit_tier(
        project,
        "L2",
        [
            l2(f"Rule {i}: keep the changelog in sync with the release notes of every package.")
            for i in range(80)
        ],
    )
    for encoding in ("ascii", "cp1252", "latin-1"):
        env = {"PYTHONIOENCODING": encoding, "LC_ALL": "C", "LANG": "C"}
        context = hook("session-start", project, env)
        assert context is not None and "—" in context  # the project title's dash
        recalled = hook("user-prompt-submit", project, env, prompt=BRANCH_PROMPT)
        assert recalled is not None and "contested — newer evidence" in recalled
    assert errors(project) == []


# --- user-prompt-submit ------------------------------------------------------------------------


def _recall_project(project: Path) -> None:
    capture(
        project,
        [
            (sid(1), "2026-11-01", [PNPM, VITEST, PORT]),
            (sid(2), "2026-11-03", [LINT, "Keep the API handlers thin."]),
        ],
    )


@pytest.fixture(scope="module")
def recall_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[bool]:
    return Golden(tmp_path_factory.mktemp("hooks-recall"))


@pytest.fixture
def recall_project(recall_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`project` after `_recall_project(project)`: the init and capture (the same commands on
    the same transcripts each time) run once per module; each test gets its own copy."""

    def build(base: Path) -> bool:
        project = new_repo(base / "proj")
        gm(project, "init", "--yes")
        _recall_project(project)
        return True

    base, _ = recall_golden.use(isolated_env, monkeypatch, build)
    return base / "proj"


def test_recall_injects_relevant_atoms_within_one_kilobyte_like_the_recall_verb(
    recall_project: Path,
) -> None:
    project = recall_project  # _recall_project(project), built once per module
    recalled = hook("user-prompt-submit", project, prompt=INSTALL_PROMPT)
    assert recalled is not None
    assert recalled.startswith("<agent-memory recall>\n") and recalled.endswith("</agent-memory>")
    lines = recalled.splitlines()[1:-1]
    assert 1 <= len(lines) <= 5 and len(recalled.encode("utf-8")) <= 1024
    assert claims_in(recalled, "Use pnpm, not npm") == 1
    assert claims_in(recalled, "listens on port 8080") == 0
    assert gm(project, "recall", "--prompt", INSTALL_PROMPT).stdout == recalled + "\n"
    assert gm_json(project, "recall", "--prompt", INSTALL_PROMPT)["context"] == recalled
    # From a subdirectory (Claude `cd`-ed into it), the same repository answers.
    sub = project / "src" / "api"
    sub.mkdir(parents=True)
    assert hook("user-prompt-submit", sub, prompt=INSTALL_PROMPT) == recalled
    # A byte-order mark (a Windows shell in between) is not an error.
    bom = b"\xef\xbb\xbf" + payload("user-prompt-submit", project, prompt=INSTALL_PROMPT).encode()
    assert (
        claude_reads(run_hook("user-prompt-submit", bom, project), "user-prompt-submit") == recalled
    )
    # A prompt about nothing we know: no output at all, and no error.
    assert (
        hook("user-prompt-submit", project, prompt="what's the weather like in Paris today?")
        is None
    )
    assert hook("user-prompt-submit", project, prompt="") is None
    assert errors(project) == []


def test_recall_gives_the_top_five_within_one_kilobyte(project: Path) -> None:
    packages = [
        "billing",
        "invoices",
        "payments",
        "search",
        "checkout",
        "gateway",
        "reports",
        "admin",
        "auth",
        "mailer",
        "exports",
        "imports",
    ]
    rules = [
        f"Always install the dependencies of the {p} package with pnpm install --frozen-lockfile before "
        f"running its tests, so that the lockfile stays identical on every machine."
        for p in packages
    ]
    capture(project, [(sid(1), "2026-11-01", rules[:6]), (sid(2), "2026-11-02", rules[6:])])
    assert len(gm_json(project, "inspect", "--tier", "L1")["atoms"]) == 12
    recalled = hook("user-prompt-submit", project, prompt=INSTALL_PROMPT)
    assert recalled is not None
    # The tags, the "unreviewed candidates" line, and five candidates.
    assert len(recalled.splitlines()) == 3 + 5 and len(recalled.encode("utf-8")) <= 1024


def test_recall_with_the_index_missing_says_nothing_logs_once_and_heals(recall_project: Path) -> None:
    project = recall_project  # _recall_project(project), built once per module
    expected = hook("user-prompt-submit", project, prompt=INSTALL_PROMPT)
    assert expected is not None
    for path in index_files(project):
        path.unlink()
    assert hook("user-prompt-submit", project, prompt=INSTALL_PROMPT) is None
    assert len(errors(project)) == 1 and "recall index" in errors(project)[0]
    # A detached rebuild restores it: the next prompts are answered again.
    wait_for(lambda: index_files(project) and no_rebuild_running(project), "the index rebuild")
    assert hook("user-prompt-submit", project, prompt=INSTALL_PROMPT) == expected
    assert len(errors(project)) == 1


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "foreign header"])
def test_recall_with_a_corrupt_index_says_nothing_and_logs_once(recall_project: Path, damage: str) -> None:
    project = recall_project  # _recall_project(project), built once per module
    (index,) = index_files(project)
    data = index.read_bytes()
    damaged = {
        # Inside the base: a torn frame after a whole base still answers (stale), by design.
        "truncated": data[: min(len(data) // 2, 300)],
        "garbage": os.urandom(len(data)),
        "empty": b"",
        "foreign header": data.replace(b"agent-memory recall index", b"someone-else index file", 1),
    }[damage]
    index.write_bytes(damaged)
    proc = run_hook(
        "user-prompt-submit", payload("user-prompt-submit", project, prompt=INSTALL_PROMPT), project
    )
    assert claude_reads(proc, "user-prompt-submit") is None and proc.stderr == b""
    assert len(errors(project)) == 1
    wait_for(lambda: no_rebuild_running(project), "the index rebuild")
    assert hook("user-prompt-submit", project, prompt=INSTALL_PROMPT) is not None


def test_a_stale_index_still_answers_and_is_refreshed(recall_project: Path) -> None:
    project = recall_project  # _recall_project(project), built once per module
    (index,) = index_files(project)
    old = index.read_bytes()
    capture(
        project, [(sid(3), "2026-11-04", ["Use uv, not pip, to install the Python dependencies."])]
    )
    fresh = hook("user-prompt-submit", project, prompt=INSTALL_PROMPT)  # capture rewrote it
    assert fresh is not None and claims_in(fresh, "Use uv, not pip") == 1
    index.write_bytes(old)  # memory/atoms has moved on since this index was built
    stale = hook("user-prompt-submit", project, prompt=INSTALL_PROMPT)
    assert stale is not None and claims_in(stale, "Use pnpm, not npm") == 1
    assert claims_in(stale, "Use uv, not pip") == 0
    wait_for(lambda: index.read_bytes() != old and no_rebuild_running(project), "the index refresh")
    assert hook("user-prompt-submit", project, prompt=INSTALL_PROMPT) == fresh
    assert errors(project) == []


def test_recall_uses_the_project_dir_when_cwd_is_outside_any_repository(
    recall_project: Path, tmp_path: Path
) -> None:
    project = recall_project  # _recall_project(project), built once per module
    outside = tmp_path / "scratch"
    outside.mkdir()
    proc = run_hook(
        "user-prompt-submit",
        payload("user-prompt-submit", outside, prompt=INSTALL_PROMPT),
        outside,
        {"CLAUDE_PROJECT_DIR": str(project)},
    )
    recalled = claude_reads(proc, "user-prompt-submit")
    assert recalled is not None and claims_in(recalled, "Use pnpm, not npm") == 1


LINT_PROMPT = "should I run the linter before committing this?"


def adopted_caches(project: Path) -> list[Path]:
    return sorted((project / ".git" / "agent-memory").glob("recall-adopted*"))


def recall_as_a_whole_read_would(project: Path, prompt: str) -> str | None:
    """The hook's answer, checked against the answer of a hook that reads every log whole (its
    adopted-memory caches removed for that one call, then put back as they were, so the next
    call goes on from where this one left them)."""
    answer = hook("user-prompt-submit", project, prompt=prompt)
    kept = {path: path.read_bytes() for path in adopted_caches(project)}
    assert kept, "the hook keeps its adopted-memory caches"
    for path in kept:
        path.unlink()
    assert hook("user-prompt-submit", project, prompt=prompt) == answer
    for path, data in kept.items():
        path.write_bytes(data)
    return answer


def recalls(project: Path, claim: str, prompt: str = INSTALL_PROMPT) -> bool:
    answer = recall_as_a_whole_read_would(project, prompt)
    return answer is not None and claims_in(answer, claim) == 1


def test_recall_follows_the_adopted_log_through_appends_half_lines_bad_lines_and_rewrites(
    recall_project: Path,
) -> None:
    """The hook reads only what was appended to adopted.log since it last read it (the log
    can be tens of MB), and answers exactly as a hook reading it whole would, whatever
    happened to the file in between."""
    from agent_memory.gitio.state import overwrite

    project = recall_project  # _recall_project(project), built once per module
    log = project / ".memory" / "adopted.log"
    commit_tier(project, "L2", [l2(PUSH)])
    assert recalls(project, "Use pnpm, not npm") and recalls(project, LINT, LINT_PROMPT)
    # appended: an adopt (`commit_tier` writes the file over, as adopt does: same inode)
    commit_tier(project, "L2", [l2(PNPM)])
    assert not recalls(project, "Use pnpm, not npm")
    committed = log.read_bytes()
    # another process mid-line: the half line is nothing yet, and is read again when whole
    forget = format_entry(LogEntry(op="forget", atom=l2(PNPM), at="2026-03-03T00:00:00Z")).encode()
    with log.open("ab") as fh:
        fh.write(forget[:40])
    assert not recalls(project, "Use pnpm, not npm")
    with log.open("ab") as fh:
        fh.write(forget[40:])
    assert recalls(project, "Use pnpm, not npm")  # forgotten: recalled again
    # a line that is not UTF-8 is left out (and named once); the lines after it count
    adopt = format_entry(LogEntry(op="adopt", atom=l2(PNPM), at="2026-03-04T00:00:00Z")).encode()
    with log.open("ab") as fh:
        fh.write(b'{"op": "adopt", "at": "\xff\xfe"}\n' + adopt)
    assert not recalls(project, "Use pnpm, not npm")
    assert sum("not UTF-8" in line for line in errors(project)) == 2  # the hook, and the whole read
    # a line appended out of order (a union merge): applied where its stamp puts it
    with log.open("ab") as fh:
        fh.write(format_entry(LogEntry(op="forget", atom=l2(PNPM), at="2026-03-02T12:00:00Z")).encode())
    assert not recalls(project, "Use pnpm, not npm")
    # cut short (a reset to the last commit: a new file), then rewritten in place without its
    # last line (an adoption rolled back) and grown past its old length before the next prompt
    git(project, "checkout", "--", ".memory/adopted.log")
    assert log.read_bytes() == committed and not recalls(project, "Use pnpm, not npm")
    overwrite(log, committed[: committed.rstrip(b"\n").rfind(b"\n") + 1])  # the PNPM adopt
    git(project, "commit", "-q", "-am", "roll back")
    commit_tier(project, "L2", [l2(LINT), l2(VITEST)])
    assert log.stat().st_size > len(committed)
    assert recalls(project, "Use pnpm, not npm") and not recalls(project, LINT, LINT_PROMPT)
    # and the log gone
    git(project, "rm", "-q", ".memory/adopted.log")
    assert recalls(project, "Use pnpm, not npm") and recalls(project, LINT, LINT_PROMPT)


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts the bytes read in /proc/self/io")
def test_after_an_append_to_a_large_adopted_log_the_prompt_reads_only_the_new_line(recall_project: Path) -> None:
    """The per-prompt cost does not grow with adopted.log (issue: 42 MB took ~1 s, over the
    hook's 1 s timeout): after an append, the hook reads the new line, not the file. Counted
    in bytes read (/proc/self/io `rchar`), never timed."""
    project = recall_project  # _recall_project(project), built once per module
    commit_tier(project, "L2", [l2(PUSH)])
    log = project / ".memory" / "adopted.log"
    _grow_with_churn(log, 8 << 20)
    probe = bytes_read_probe("user-prompt-submit")

    def bytes_read() -> tuple[int, bytes]:
        proc = subprocess.run(
            [sys.executable, "-c", probe, payload("user-prompt-submit", project, prompt=INSTALL_PROMPT)],
            cwd=project, capture_output=True, env={**hook_env(), "PYTHONPATH": str(Path(__file__).parent.parent),
                                                   "AGENT_MEMORY_LOG_READ_BUDGET_MS": "600000"},
            timeout=120,
        )  # fmt: skip
        return int(proc.stderr.decode().strip().splitlines()[-1]), proc.stdout

    # the first prompt after the log was written reads it whole (in one go: the budget that
    # spreads a long read over a few prompts is lifted here)
    assert bytes_read()[0] > log.stat().st_size
    with log.open("a") as fh:
        fh.write(format_entry(LogEntry(op="pin", atom={**l2(PUSH), "pinned": True}, at="2026-04-01T00:00:00Z")))
    read, answer = bytes_read()
    assert read < log.stat().st_size // 8
    assert claims_in(json.loads(answer)["hookSpecificOutput"]["additionalContext"], "Use pnpm, not npm") == 1
    assert errors(project) == []


# --- session-end -------------------------------------------------------------------------------


def captured_sessions(repo: Path) -> set[str]:
    out = git(
        repo, "log", "--format=%(trailers:key=Session-Id,valueonly)", "memory/atoms", check=False
    )
    return {line.strip() for line in out.splitlines() if line.strip()}


def test_session_end_returns_at_once_and_captures_in_the_background(project: Path) -> None:
    transcript = write_session(project, sid(7), "2026-11-05", [{"user": PNPM}, {"user": VITEST}])
    proc = run_hook(
        "session-end",
        payload("session-end", project, session_id=sid(7), transcript_path=str(transcript)),
        project,
    )
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
    wait_for(lambda: sid(7) in captured_sessions(project), "the background capture's commit")
    claims = {a["claim"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    assert {"Use pnpm, not npm", "Use vitest, not jest"} <= claims
    # The recall index was rewritten with it, so the very next prompt can use it.
    wait_for(
        lambda: (project / ".git" / "agent-memory" / "session-start.cache").exists(),
        "the context refresh",
    )
    assert (
        claims_in(hook("user-prompt-submit", project, prompt=INSTALL_PROMPT) or "", "Use pnpm") == 1
    )
    assert errors(project) == []


def test_session_end_auto_stages_what_became_eligible(project: Path) -> None:
    capture(project, [(sid(1), "2026-11-01", [PUSH]), (sid(2), "2026-11-02", [PUSH])])
    transcript = write_session(project, sid(3), "2026-11-03", [{"user": PUSH}])
    assert hook("session-end", project, session_id=sid(3), transcript_path=str(transcript)) is None
    wait_for(
        lambda: git(project, "rev-parse", "--verify", "-q", "memory/review", check=False).strip(),
        "memory/review",
    )
    staged = git(project, "log", "--format=%B", "main..memory/review")
    assert "Never push directly to main" in staged


def test_a_failing_background_capture_logs_one_line(project: Path) -> None:
    broken = project.parent / "broken" / f"{sid(8)}.jsonl"
    broken.mkdir(parents=True)  # not a file: the capture fails, and says so
    assert hook("session-end", project, session_id=sid(8), transcript_path=str(broken)) is None
    lines = wait_for(lambda: errors(project), "the background capture's log line")
    assert len(lines) == 1 and "background capture" in lines[0] and broken.name in lines[0]
    assert sid(8) not in captured_sessions(project)


def test_a_session_without_a_transcript_is_nothing_to_capture(project: Path) -> None:
    """Issue 18: a session quit before any prompt has no transcript; no error is logged."""
    from agent_memory.claude import hooks as hooks_module

    missing = project.parent / "gone" / f"{sid(8)}.jsonl"
    tip = git(project, "rev-parse", "memory/atoms").strip()
    hooks_module.run_event("background-capture", {"transcript": str(missing), "cwd": str(project)})
    assert errors(project) == [] and git(project, "rev-parse", "memory/atoms").strip() == tip


def test_a_locked_ref_fails_the_background_capture_open_and_keeps_the_atoms(project: Path) -> None:
    lock = project / ".git" / "refs" / "heads" / "memory" / "atoms.lock"
    lock.write_text("")
    # As a killed git leaves it: found stale at once. (A fresh one is retried until it is
    # 10 s old or 20 s have passed, whichever a loaded machine reaches first.)
    os.utime(lock, (time.time() - 600, time.time() - 600))
    tip = git(project, "rev-parse", "memory/atoms").strip()
    transcript = write_session(project, sid(9), "2026-11-05", [{"user": PNPM}])
    proc = run_hook(
        "session-end",
        payload("session-end", project, session_id=sid(9), transcript_path=str(transcript)),
        project,
    )
    assert proc.returncode == 0 and proc.stdout == b""
    lines = wait_for(lambda: errors(project), "the background capture's log line", timeout=120)
    wait_for(lambda: not background_jobs(project), "the background capture to end")
    assert len(errors(project)) == 1, lines
    assert "stale" in lines[0]
    assert git(project, "rev-parse", "memory/atoms").strip() == tip
    # Not lost: queued, and written by the next capture once the lock is gone.
    assert list((project / ".git" / "agent-memory" / "queue").glob("*.json"))
    lock.unlink()
    gm(project, "capture", "--all", "--no-stage")
    assert "Use pnpm, not npm" in {
        a["claim"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]
    }


# --- fail open ---------------------------------------------------------------------------------

BAD_STDIN = {
    "empty": b"",
    "whitespace": b" \n\t",
    "not json": b"{not json",
    "json array": b"[1, 2]",
    "json string": b'"hello"',
    "binary": b"\xff\xfe\x00garbage",
}


@pytest.mark.parametrize("event", list(EVENTS))
def test_a_bad_payload_fails_open_with_one_log_line(project: Path, event: str) -> None:
    for name, stdin in BAD_STDIN.items():
        before = len(errors(project))
        proc = run_hook(event, stdin, project)
        assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b"", name
        assert len(errors(project)) == before + 1, name
        assert f"hook {event}:" in errors(project)[-1]


@pytest.mark.parametrize("event", list(EVENTS))
def test_cwd_outside_any_repository_fails_open_silently(tmp_path: Path, event: str) -> None:
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    proc = run_hook(event, payload(event, outside, prompt=INSTALL_PROMPT), outside)
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
    assert list(outside.iterdir()) == []  # nowhere to log, and nothing written


@pytest.mark.parametrize("event", list(EVENTS))
def test_an_uninitialised_repository_fails_open_with_one_log_line(repo: Path, event: str) -> None:
    proc = run_hook(event, payload(event, repo, prompt=INSTALL_PROMPT), repo)
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
    lines = errors(repo)
    assert len(lines) == 1 and "not initialised" in lines[0]
    assert git(repo, "status", "--porcelain") == ""  # the log lives under .git, not the work tree


@pytest.mark.parametrize("event", list(EVENTS))
def test_each_switch_disables_its_hook_entirely(project: Path, event: str) -> None:
    commit_tier(project, "L2", [l2(PUSH)])  # not PNPM: recall never restates adopted memory
    _recall_project(project)
    transcript = write_session(
        project, sid(5), "2026-11-05", [{"user": "Use ruff for linting, not flake8."}]
    )
    fields = {"prompt": INSTALL_PROMPT, "session_id": sid(5), "transcript_path": str(transcript)}
    off = {DISABLE[event]: "0"}
    assert (
        claude_reads(run_hook(event, payload(event, project, **fields), project, off), event)
        is None
    )
    # Even garbage on stdin is not read, let alone logged.
    assert claude_reads(run_hook(event, b"{not json", project, off), event) is None
    if event == "session-end":
        # Had a capture been started, this later one (which fails and logs) would not be alone.
        (project.parent / "not-a-file.jsonl").mkdir()
        hook(
            "session-end",
            project,
            session_id=sid(6),
            transcript_path=str(project.parent / "not-a-file.jsonl"),
        )
        wait_for(lambda: errors(project), "the enabled session-end's log line")
        wait_for(lambda: not background_jobs(project), "every background capture to end")
        assert sid(5) not in captured_sessions(project)
        assert len(errors(project)) == 1
    else:
        assert errors(project) == []
        assert (
            hook(event, project, None, **fields) is not None
        )  # the same call, switched on, injects
    # The other switches leave this hook alone.
    others = {var: "0" for name, var in DISABLE.items() if name != event}
    if event != "session-end":
        assert hook(event, project, others, **fields) is not None


def test_a_closed_stdout_still_exits_zero_and_logs(recall_project: Path) -> None:
    project = recall_project  # _recall_project(project), built once per module
    read_end, write_end = os.pipe()
    os.close(read_end)  # Claude Code gave up on the hook (timeout) before it wrote
    try:
        proc = subprocess.run(
            ["git", "memory", "hook", "user-prompt-submit"],
            cwd=project,
            env=hook_env(),
            input=payload("user-prompt-submit", project, prompt=INSTALL_PROMPT).encode(),
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert proc.returncode == 0 and proc.stderr == b""
    assert len(errors(project)) == 1 and "BrokenPipeError" in errors(project)[0]


def test_status_lists_the_errors_of_the_last_seven_days(project: Path) -> None:
    log = project / ".git" / "agent-memory" / "errors.log"
    log.parent.mkdir(exist_ok=True)
    log.write_text(
        "2026-10-20T10:00:00Z hook session-start: an old failure\n"
    )  # 17 days before NOW
    run_hook("user-prompt-submit", b"[]", project)
    data = gm_json(project, "status")
    assert len(data["errors"]) == 1 and "hook user-prompt-submit: ValueError" in data["errors"][0]
    text = gm(project, "status").stdout
    assert "errors in the last 7 days (1)" in text and "hook user-prompt-submit" in text
    assert "an old failure" not in text


def test_status_shows_an_internal_errors_line_without_its_traceback(project: Path) -> None:
    """An internal error's errors.log line carries its whole traceback (repr'd, up to 2,000
    characters); status printed all of it on one line. The text shows what failed and says
    where the tracebacks are; JSON keeps the whole line."""
    from agent_memory.gitio.state import log_exception

    try:
        int("not a number")
    except ValueError as exc:
        log_exception("git memory capture", exc, project)
    line = gm_json(project, "status")["errors"][-1]
    assert "Traceback (most recent call last)" in line and "git memory capture: ValueError" in line
    text = gm(project, "status").stdout.splitlines()
    at = text.index("  errors in the last 7 days (1):")
    assert text[at + 1:at + 3] == [
        f"    {line[:20]} git memory capture: ValueError: invalid literal for int() with base 10: 'not a number'",
        "    (tracebacks in .git/agent-memory/errors.log)"]
    assert not any("Traceback" in shown for shown in text)


# --- the plugin shim ---------------------------------------------------------------------------


def test_the_plugin_shim_runs_the_real_git_memory(project: Path, tmp_path: Path) -> None:
    commit_tier(project, "L2", [l2(PUSH)])
    _recall_project(project)
    for event, fields in (
        ("session-start", {}),
        ("user-prompt-submit", {"prompt": INSTALL_PROMPT}),
    ):
        data = payload(event, project, **fields)
        direct = claude_reads(run_hook(event, data, project), event)
        # hooks.json runs `sh "${CLAUDE_PLUGIN_ROOT}/hooks/agent-memory-hook" <event>`
        via_shim = claude_reads(
            run_hook(event, data, project, command=["sh", str(SHIM), event]), event
        )
        assert direct is not None and via_shim == direct
    transcript = write_session(
        project, sid(11), "2026-11-05", [{"user": "Use ruff for linting, not flake8."}]
    )
    proc = run_hook(
        "session-end",
        payload("session-end", project, session_id=sid(11), transcript_path=str(transcript)),
        project,
        command=["sh", str(SHIM), "session-end"],
    )
    assert proc.returncode == 0 and proc.stdout == b""
    wait_for(lambda: sid(11) in captured_sessions(project), "the capture started through the shim")
    # AGENT_MEMORY_BIN picks an install; without any git-memory the shim is silent.
    binary = shutil.which("git-memory", path=hook_env()["PATH"])
    assert binary
    env = {"AGENT_MEMORY_BIN": binary, "PATH": "/usr/bin:/bin"}
    data = payload("user-prompt-submit", project, prompt=INSTALL_PROMPT)
    assert (
        claude_reads(
            run_hook(
                "user-prompt-submit", data, project, env, ["sh", str(SHIM), "user-prompt-submit"]
            ),
            "user-prompt-submit",
        )
        is not None
    )
    nowhere = {"PATH": str(tmp_path / "empty-bin")}
    proc = subprocess.run(
        ["/bin/sh", str(SHIM), "user-prompt-submit"],
        input=data.encode(),
        cwd=project,
        capture_output=True,
        env={**os.environ, **nowhere},
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
    assert errors(project) == []


# --- in-process pieces -------------------------------------------------------------------------


def test_the_prompt_path_imports_no_pygit2_pathlib_or_subprocess(recall_project: Path) -> None:
    project = recall_project  # _recall_project(project), built once per module
    probe = (
        "import sys, io\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))\n"
        # What the launcher (scripts/git-memory) runs for a Claude Code hook.
        "from agent_memory.claude.hooks import run_event\n"
        "run_event('user-prompt-submit')\n"
        # `__future__` too: one more module (~0.3 ms) for annotations the path can quote.
        "heavy = {'pygit2', 'pathlib', 'subprocess', 'jsonschema', 'git', 'dataclasses', 'typing',\n"
        "         '__future__', 'agent_memory.model.checkout'}\n"
        "print(sorted(heavy & set(sys.modules)), file=sys.stderr)\n"
    )
    for _ in range(2):  # the first prompt also fills the adopted-memory cache: judge the next
        proc = subprocess.run(
            [sys.executable, "-S", "-c", probe,
             payload("user-prompt-submit", project, prompt=INSTALL_PROMPT)],
            cwd=project,
            capture_output=True,
            env={**hook_env(), "PYTHONPATH": str(Path(__file__).parent.parent)},
            timeout=120,
        )  # fmt: skip
    assert json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert proc.stderr.decode().strip() == "[]"


def test_a_claude_hook_process_leaves_without_finalization_and_loses_no_output(
    recall_project: Path,
) -> None:
    """`run_and_exit` skips interpreter finalization (issue 17: ~5 ms of a ~30 ms prompt) for
    the events Claude Code runs, after the whole answer is flushed; our background jobs exit
    normally."""
    project = recall_project  # _recall_project(project), built once per module
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write('finalized'))\n"
        "from agent_memory.claude.hooks import run_and_exit\n"
        "run_and_exit(sys.argv[1])\n"
    )
    env = {**hook_env(), "PYTHONPATH": str(Path(__file__).parent.parent)}

    def run(event: str, data: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-c", probe, event], input=data.encode(),
                              cwd=project, capture_output=True, env=env, timeout=120)  # fmt: skip

    prompt = run("user-prompt-submit", payload("user-prompt-submit", project, prompt=INSTALL_PROMPT))
    assert prompt.returncode == 0 and prompt.stderr == b""
    assert "pnpm" in json.loads(prompt.stdout)["hookSpecificOutput"]["additionalContext"]
    job = run("rebuild-index", "")
    assert job.returncode == 0 and job.stderr == b"finalized"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(
    value=JSON_VALUES,
    indent=st.sampled_from([None, 2]),
    ascii_only=st.booleans(),
    pad=st.sampled_from(["", " ", "\n", "\r\n\t "]),
)
def test_the_payload_reader_reads_json_exactly_as_json_loads(
    value: Any, indent: int | None, ascii_only: bool, pad: str
) -> None:
    from agent_memory.claude.hooks import loads

    text = pad + json.dumps(value, indent=indent, ensure_ascii=ascii_only) + pad
    assert loads(text) == json.loads(text)


@pytest.mark.parametrize(
    "text",
    ["", "  ", "{", '{"a": 1} x', "[1,]", "nul", '{"a": "\x01"}', '{"a" 1}', "[1] [2]", "\ufeff{}"],
)
def test_the_payload_reader_refuses_what_json_loads_refuses(text: str) -> None:
    from agent_memory.claude.hooks import loads

    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        loads(text)


# --- reported from here, since fixed in their modules (regression tests) ------------------------


def test_init_leaves_a_recall_index_for_the_first_prompt(project: Path) -> None:
    # Was: L1Store.init wrote no index, so a prompt before any capture logged a missing index.
    assert index_files(project)
    assert hook("user-prompt-submit", project, prompt=INSTALL_PROMPT) is None
    assert errors(project) == []


def test_git_memory_context_tags_a_contested_line_without_a_recall_index(project: Path) -> None:
    # Was: the verb read the index as it was and printed a contested line untagged without it.
    capture(
        project,
        [
            (sid(1), "2026-11-01", [DEV]),
            (sid(2), "2026-11-02", [DEV]),
            (sid(3), "2026-11-03", [DEV]),
        ],
    )
    adopt_all(project)
    capture(project, [(sid(4), "2026-11-05", [MAIN])])
    for path in index_files(project):
        path.unlink()
    assert "[contested — newer evidence 2026-11-05] The default branch is dev" in context_verb(
        project
    )


def test_a_worktree_shares_recall_and_has_its_own_project_memory(recall_project: Path) -> None:
    project = recall_project  # _recall_project(project), built once per module
    commit_tier(project, "L2", [l2(PUSH)])
    worktree = project.parent / "proj-feature"
    git(project, "worktree", "add", "-q", "-b", "feature", str(worktree))
    commit_tier(worktree, "L2", [l2(LINT)])  # adopted on the feature branch only
    recalled = hook("user-prompt-submit", project, prompt=INSTALL_PROMPT)
    assert recalled is not None
    assert hook("user-prompt-submit", worktree, prompt=INSTALL_PROMPT) == recalled  # one L1 store
    main_context, feature_context = hook("session-start", project), hook("session-start", worktree)
    assert main_context is not None and feature_context is not None
    assert claims_in(main_context, LINT) == 0 and claims_in(feature_context, LINT) == 1
    assert hook("session-start", project) == main_context  # the shared cache never crosses over
    assert errors(project) == []


def test_the_commands_init_writes_into_claude_settings_run_as_claude_code_runs_them(
    project: Path,
) -> None:
    """`.claude/settings.json` handlers run with `sh -c` in the project, CLAUDE_PROJECT_DIR set."""
    commit_tier(project, "L2", [l2(PUSH)])
    _recall_project(project)
    settings_hooks = json.loads((project / ".claude" / "settings.json").read_text())["hooks"]
    transcript = write_session(
        project, sid(12), "2026-11-05", [{"user": "Use ruff for linting, not flake8."}]
    )
    fields = {"prompt": INSTALL_PROMPT, "session_id": sid(12), "transcript_path": str(transcript)}
    results = {}
    for name, event in (
        ("SessionStart", "session-start"),
        ("UserPromptSubmit", "user-prompt-submit"),
        ("SessionEnd", "session-end"),
    ):
        (group,) = settings_hooks[name]
        (handler,) = group["hooks"]
        proc = run_hook(
            event,
            payload(event, project, **fields),
            project,
            {"CLAUDE_PROJECT_DIR": str(project)},
            ["sh", "-c", handler["command"]],
        )
        results[event] = claude_reads(proc, event)
    assert results["session-start"] is not None and claims_in(results["session-start"], PUSH) == 1
    assert (
        results["user-prompt-submit"] is not None
        and claims_in(results["user-prompt-submit"], "Use pnpm") == 1
    )
    assert results["session-end"] is None
    wait_for(
        lambda: sid(12) in captured_sessions(project), "the capture started by the settings hook"
    )
    assert errors(project) == []


def _hook_on_open_stdin(event: str, project: Path, data: bytes) -> tuple[int, bytes]:
    """The hook with `data` on a stdin its writer keeps open (never closed until the hook
    ended): its exit code and stdout. NEVER bounds a hook that waits for end of file."""
    proc = subprocess.Popen(["git", "memory", "hook", event], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=str(project), env=hook_env())  # fmt: skip
    assert proc.stdin is not None
    proc.stdin.write(data)
    proc.stdin.flush()
    result: list[bytes] = []
    reader = threading.Thread(target=lambda: result.append(proc.stdout.read() if proc.stdout else b""))
    reader.start()
    try:
        code = proc.wait(timeout=NEVER)
        reader.join(timeout=NEVER)
    finally:
        proc.kill()
        proc.stdin.close()
    return code, result[0] if result else b""


NEVER = 60  # a bound for a hook that, broken, waits for ever: never a timing assertion


def test_a_whole_payload_on_a_stdin_left_open_is_answered(recall_project: Path) -> None:
    """A writer that sends the payload and keeps stdin open: the hook answered only when the
    pipe closed (Claude Code's timeout killed it first, with nothing said or logged). A whole
    JSON object is the payload: the hook answers as it does on a closed stdin."""
    project = recall_project  # _recall_project(project), built once per module
    data = payload("user-prompt-submit", project, prompt=INSTALL_PROMPT).encode()
    code, out = _hook_on_open_stdin("user-prompt-submit", project, data)
    assert code == 0 and out.decode() == run_hook("user-prompt-submit", data, project).stdout.decode()
    assert "Use pnpm, not npm" in out.decode()
    assert errors(project) == []


def test_a_cut_payload_on_a_stdin_left_open_is_one_log_line(project: Path) -> None:
    """Half a payload and a stdin that never closes: the hook ends, exit 0, silent, one line."""
    data = payload("session-start", project).encode()
    code, out = _hook_on_open_stdin("session-start", project, data[: len(data) // 2])
    assert code == 0 and out == b""
    lines = errors(project)
    assert len(lines) == 1 and "stdin stayed open" in lines[0], lines
