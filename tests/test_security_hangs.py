"""Issue 14 §5 and issue 16 on reading transcripts: `capture --all` reads only regular files (a
FIFO blocked it forever, a symlink to /dev/zero spun it forever), and `status` says how many
of this project's transcripts are not captured yet."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, gm_json, write_session

from agent_memory.model.paths import slug_for
from agent_memory.transcripts.files import find_transcripts

# A bound for a command that, broken, never returns: generous, never a timing assertion.
NEVER = 120


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now="2026-11-06T12:00:00Z")


def _projects() -> Path:
    return Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects"


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
@pytest.mark.parametrize("where", ["slug", "slug-sub"])
def test_capture_all_reads_only_regular_files(project: Path, kind: str, where: str) -> None:
    write_session(project, "aaaaaaaa-0000-4000-8000-000000000001", "2026-11-01",
                  [{"user": "Never push directly to main; always open a pull request."}])  # fmt: skip
    slug = slug_for(project.resolve())
    # `<slug>-<sub>` folders are read to find their recorded cwd: the sample file was opened
    # before the regular-file check.
    folder = _projects() / (slug if where == "slug" else f"{slug}-sub")
    folder.mkdir(parents=True, exist_ok=True)
    trap = folder / "bbbbbbbb-0000-4000-8000-000000000002.jsonl"
    if kind == "fifo":
        os.mkfifo(trap)
    else:
        trap.symlink_to("/dev/zero")
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]}
    try:
        proc = subprocess.run(["git", "memory", "capture", "--all", "--output", "json"], cwd=project,
                              env=env, capture_output=True, text=True, timeout=NEVER)  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"capture --all did not return with a {kind} under {folder.name}")
    assert proc.returncode == 0, proc.stderr
    assert trap not in find_transcripts(project)
    assert gm_json(project, "status")["L1"]["atoms"] == 1


def test_status_counts_transcripts_not_captured_yet(project: Path) -> None:
    first = write_session(project, "aaaaaaaa-0000-4000-8000-000000000001", "2026-11-01",
                          [{"user": "Never push directly to main; always open a pull request."}])  # fmt: skip
    write_session(project, "aaaaaaaa-0000-4000-8000-000000000002", "2026-11-02",
                  [{"user": "Use tabs for indentation in the Makefile."}])  # fmt: skip
    assert gm_json(project, "status")["transcripts_not_captured"] == 2
    gm(project, "capture", "--transcript", str(first), "--no-stage")
    status = gm_json(project, "status")
    assert status["transcripts_not_captured"] == 1
    assert "1 transcript of this project not captured yet" in gm(project, "status").stdout
    gm(project, "capture", "--all", "--no-stage")
    assert gm_json(project, "status")["transcripts_not_captured"] == 0


def test_the_ledger_tells_a_transcript_that_grew_after_its_capture(project: Path) -> None:
    from agent_memory.transcripts import ledger  # new in this change: imported here

    path = write_session(project, "aaaaaaaa-0000-4000-8000-000000000001", "2026-11-01",
                         [{"user": "Hello there."}])  # fmt: skip
    common = project / ".git"
    assert ledger.not_captured(common, [path], []) == [path]
    key = ledger.transcript_key(path)
    ledger.Ledger(common).record(ledger.Entry(ledger.TRANSCRIPT, key, ledger.file_signature(path) or ""))
    assert ledger.not_captured(common, [path], []) == []
    with path.open("a") as fh:
        fh.write("{}\n")
    assert ledger.not_captured(common, [path], [path.stem]) == [path]


@pytest.mark.parametrize("verb", ["capture", "extract"])
def test_a_fifo_named_outside_the_projects_folder_is_refused_not_waited_on(project: Path, tmp_path: Path,
                                                                           verb: str) -> None:  # fmt: skip
    """`capture --transcript` / `extract --transcript` of a path outside `projects/` first read
    it for the cwd and session it records (a copy's origin): that read opened a FIFO blocking
    and waited forever for a writer, while /dev/zero was refused as not a regular file."""
    trap = tmp_path / "export.jsonl"
    os.mkfifo(trap)
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]}
    try:
        proc = subprocess.run(["git", "memory", verb, "--transcript", str(trap), "--output", "json"],
                              cwd=project, env=env, capture_output=True, text=True, timeout=NEVER)  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"{verb} --transcript FIFO did not return")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "not a regular file" in proc.stdout + proc.stderr


def test_evidence_at_a_path_that_became_a_fifo_is_missing_not_waited_on(tmp_path: Path) -> None:
    """`inspect --why` re-reads the line an atom came from at the path its record kept: a FIFO
    there now (a plain open waits for a writer) reads as no line."""
    trap = tmp_path / "s.jsonl"
    os.mkfifo(trap)
    code = f"from agent_memory.transcripts.evidence import statement_at; print(statement_at({str(trap)!r}, 1))"
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=NEVER)
    except subprocess.TimeoutExpired:
        pytest.fail("reading evidence from a FIFO did not return")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "None"


@pytest.mark.parametrize("name", [".memory/adopted.log", "CLAUDE.memory.md"])
def test_show_and_adopt_never_read_a_committed_link_to_a_device(project: Path, name: str) -> None:
    """A repository may commit its memory files as links (git stores them): linked to
    /dev/zero, `show` and `adopt` read the work tree's copy forever (all memory, then an
    internal error). Refused now, exit 3, naming the file."""
    from conftest import commit_link_to_dev_zero, memory_capped

    commit_link_to_dev_zero(project, name)
    for verb in (["show"], ["adopt", "--all"]):
        try:
            proc = subprocess.run([sys.executable, "-m", "agent_memory", *verb], cwd=project, capture_output=True,
                                  text=True, timeout=NEVER, preexec_fn=memory_capped)  # fmt: skip
        except subprocess.TimeoutExpired:
            pytest.fail(f"{verb} did not return with {name} linked to /dev/zero")
        assert "internal error" not in proc.stderr, proc.stderr
        assert proc.returncode in (0, 3), proc.stderr
        if proc.returncode == 3:
            assert "not a regular file" in proc.stderr or "symbolic link" in proc.stderr, proc.stderr


@pytest.mark.parametrize("which", ["project", "local", "user"])
@pytest.mark.parametrize("verb", [["status"], ["capture", "--all"], ["validate"]], ids=["status", "capture", "validate"])
def test_a_fifo_in_place_of_a_settings_file_is_not_waited_on(project: Path, which: str, verb: list[str]) -> None:
    """Claude Code's settings files are read for `autoMemoryDirectory` and the hooks: a FIFO in
    the place of one (no writer) held `status` and `capture --all` for ever. It is refused as
    not a regular file — a settings file that defines nothing — and the verb goes on."""
    write_session(project, "d6b1f7e2-6666-4666-8666-666666666666", "2026-11-02",
                  [{"user": "Always run the linter with ruff before committing."}])  # fmt: skip
    path = {"project": project / ".claude" / "settings.json",
            "local": project / ".claude" / "settings.local.json",
            "user": Path(os.environ["CLAUDE_CONFIG_DIR"]) / "settings.json"}[which]  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), *verb], cwd=project,
                          capture_output=True, text=True, timeout=NEVER, stdin=subprocess.DEVNULL)  # fmt: skip
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    assert "internal error" not in proc.stderr


def test_a_fifo_in_place_of_the_error_log_is_not_waited_on(project: Path) -> None:
    """`.git/agent-memory/errors.log` a FIFO (no reader): a hook with something to log, and
    `status` (which shows recent errors), waited on it for ever. Neither writes nor reads it."""
    from test_hooks import run_hook

    log = project / ".git" / "agent-memory" / "errors.log"
    log.unlink(missing_ok=True)
    os.mkfifo(log)
    proc = run_hook("session-start", b"not json", project)  # its own bound detects a hang
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
    status = subprocess.run([str(Path(sys.executable).parent / "git-memory"), "status"], cwd=project,
                            capture_output=True, text=True, timeout=NEVER, stdin=subprocess.DEVNULL)  # fmt: skip
    assert status.returncode == 0, status.stdout + status.stderr


@pytest.mark.parametrize("verb", [["remember", "Never force push to the main branch"], ["status"],
                                  ["capture", "--all", "--no-stage"]])  # fmt: skip
def test_a_fifo_in_place_of_the_capture_ledger_is_not_waited_on(project: Path, verb: list[str]) -> None:
    """`.git/agent-memory/captured.log` a FIFO (no reader): every store write reads the ledger's
    `store` line, and status and capture read it, with a plain open that waited for ever. A
    FIFO there is read as no ledger and never written to."""
    ledger = project / ".git" / "agent-memory" / "captured.log"
    ledger.unlink(missing_ok=True)
    os.mkfifo(ledger)
    proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), *verb], cwd=project,
                          capture_output=True, text=True, timeout=NEVER, stdin=subprocess.DEVNULL)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("name", ["settings.json", "settings.local.json"])
def test_a_huge_committed_settings_file_is_not_read(project: Path, name: str) -> None:
    """A cloned `.claude/settings.json` or `settings.local.json` of 1.5 GB (zeros: nothing in a
    clone; sparse here) was read whole, and parsed, by every capture (where Claude's own memory
    folder is) and by status: 8 s and 3 GB. A settings file over MAX_SETTINGS_BYTES defines
    nothing; the commands run as without it, under a 2 GB address space."""
    import json

    from conftest import memory_capped

    settings = project / ".claude" / name
    settings.parent.mkdir(exist_ok=True)
    with open(settings, "ab") as fh:
        fh.truncate(1536 << 20)
    write_session(project, "aaaaaaaa-0000-4000-8000-000000000001", "2026-11-01",
                  [{"user": "Use pnpm, not npm, for everything in this repo."}])  # fmt: skip
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]}
    for verb in (["capture", "--all"], ["status", "--output", "json"]):
        proc = subprocess.run(["git", "memory", *verb], cwd=project, capture_output=True, text=True, env=env,
                              preexec_fn=memory_capped, timeout=NEVER)  # fmt: skip
        assert proc.returncode == 0, (verb, proc.stderr)
    assert json.loads(proc.stdout)["initialised"] is True


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
@pytest.mark.parametrize("name", ["recall-index.*", "recall-adopted.*", "recall-contested.*", "session-start.cache"])
def test_a_fifo_or_device_in_place_of_a_hook_cache_is_not_waited_on(project: Path, name: str, kind: str) -> None:
    """The caches the hooks read in `.git/agent-memory/` (the recall index, the adopted claims
    and the contested sidecar a prompt reads, the session start's rendered context): a FIFO in
    the place of one blocked the session start, every prompt and every capture on a plain
    open until a writer came — never; /dev/zero linked there was read for ever. Each is read
    as a cache that is missing: the hooks exit 0 with nothing on stderr, and a capture lands."""
    from test_hooks import claude_reads, payload, run_hook

    write_session(project, "aaaaaaaa-0000-4000-8000-000000000001", "2026-11-05",
                  [{"user": "We use pnpm, not npm, in this repo."}])  # fmt: skip
    gm(project, "capture", "--all", "--no-stage")
    for event in ("session-start", "user-prompt-submit"):  # each cache written once
        run_hook(event, payload(event, project, prompt="which package manager, pnpm?"), project)
    state = project / ".git" / "agent-memory"
    [cache] = state.glob(name)
    cache.unlink()
    if kind == "fifo":
        os.mkfifo(cache)
    else:
        cache.symlink_to("/dev/zero")
    for event in ("session-start", "user-prompt-submit"):
        proc = run_hook(event, payload(event, project, prompt="which package manager, pnpm?"), project)
        assert proc.returncode == 0 and proc.stderr == b"", proc
        claude_reads(proc, event)  # nothing, or one line of the documented form
    later = write_session(project, "bbbbbbbb-0000-4000-8000-000000000002", "2026-11-06",
                          [{"user": "Always run ruff before committing."}])  # fmt: skip
    proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), "capture", "--transcript", str(later),
                           "--no-stage"], cwd=project, capture_output=True, text=True, timeout=NEVER,
                          stdin=subprocess.DEVNULL)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert any("ruff" in a["claim"].lower() for a in gm_json(project, "inspect", "--tier", "L1")["atoms"])


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
@pytest.mark.parametrize("name", ["auto-memory-writes.json", "auto-memory-scan.json"])
def test_a_fifo_or_device_in_place_of_an_auto_memory_cache_is_not_waited_on(project: Path, name: str, kind: str) -> None:
    """The caches kept for Claude Code's own memory folder in `.git/agent-memory/` (who wrote
    each memory, per transcript; the guard's count of the folder's findings) were read with a
    plain open: a FIFO in the place of one hung every capture of the folder (`capture --all`,
    the SessionEnd capture until its time limit) and `status`, and /dev/zero linked there was
    read for ever. Each is read as a cache that is missing."""
    from conftest import memory_capped

    from agent_memory.automemory.location import resolve_auto_memory_dir

    folder = resolve_auto_memory_dir(project).path
    folder.mkdir(parents=True)
    (folder / "feedback_lint.md").write_text("---\ntype: feedback\n---\n\nAlways run the linter before committing.\n")
    write_session(project, "aaaaaaaa-0000-4000-8000-000000000001", "2026-11-05",
                  [{"user": "We use pnpm, not npm, in this repo."}])  # fmt: skip
    gm(project, "capture", "--all", "--no-stage")
    gm(project, "status")
    cache = project / ".git" / "agent-memory" / name
    assert cache.is_file()
    cache.unlink()
    if kind == "fifo":
        os.mkfifo(cache)
    else:
        cache.symlink_to("/dev/zero")
    (folder / "feedback_tabs.md").write_text("---\ntype: feedback\n---\n\nNever use tabs in Python files.\n")
    for verb in (["capture", "--all", "--no-stage"], ["status"]):
        proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), *verb], cwd=project,
                              capture_output=True, text=True, timeout=NEVER, stdin=subprocess.DEVNULL,
                              preexec_fn=memory_capped)  # fmt: skip
        assert proc.returncode == 0, proc.stdout + proc.stderr
    claims = {a["claim"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    assert "Never use tabs in Python files" in claims


def test_a_transcript_line_too_long_to_hold_is_not_read_for_memory_writes(project: Path) -> None:
    """The transcripts are read for the tool calls that wrote Claude's own memory line by
    line, but a line was held whole however long: one line of 1.5 GB (NULs; sparse here) ran
    every capture of the folder out of memory (exit 3 under a 2 GB address space, the folder
    never captured while that transcript was there). As the reader of typed lines does
    (MAX_LINE_BYTES), a longer line is skipped without being held; the lines after it count.
    Scaled down, as the capture reads the line through several times (1.5 GB cost ~11 s): 384 MB
    under a 512 MB address space. The capture needs under 128 MB; the old whole-line read failed
    the folder at 384 MB and still passed at 192 MB."""
    import json

    from memory_writes import save, topic, write

    from agent_memory.automemory.location import resolve_auto_memory_dir

    folder = resolve_auto_memory_dir(project).path
    folder.mkdir(parents=True)
    text = topic("Lint first", "Always run the linter before committing.", session="s-one")
    (folder / "feedback_lint.md").write_text(text, "utf-8")
    transcript = folder.parent / "aaaaaaaa-0000-4000-8000-000000000001.jsonl"
    with open(transcript, "ab") as fh:
        fh.write(b'{"type": "assistant", "message": {"content": [{"type": "tool_use"}]}, "x": "memory ')
        fh.truncate(_LONG_LINE)
        fh.seek(0, os.SEEK_END)
        fh.write(b'"}\n')
    records = write("s-one", "2026-11-02T09:00:05Z", folder / "feedback_lint.md", text, call_id="t1", cwd=str(project))
    with open(transcript, "ab") as fh:
        fh.write(save(project / "calls.jsonl", records).read_bytes())
    proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), "capture", "--all", "--no-stage",
                           "--output", "json"], cwd=project, capture_output=True, text=True, timeout=NEVER,
                          stdin=subprocess.DEVNULL, preexec_fn=_capped_at_512_mb)  # fmt: skip
    assert (json.loads(proc.stdout).get("auto_memory") or {}).get("read") == "read", proc.stdout + proc.stderr
    [atom] = [a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a.get("origin") == "auto-memory"]
    assert atom["sessions"] == ["s-one"] and atom["source"].endswith(f"/{transcript.name}#L2")


@pytest.mark.parametrize(("name", "kind"), [("remembered.jsonl", "fifo"), ("remembered-adoptions.json", "fifo"),
                                            ("rejected-l3.json", "fifo"), ("remembered.jsonl", "dev-zero"),
                                            ("rejected-l3.json", "huge")])  # fmt: skip
def test_a_global_state_file_that_is_not_one_is_refused_not_waited_on(project: Path, name: str, kind: str) -> None:
    """The global repo's local state (`.git/agent-memory/` there: the items remembered with
    --global, their adoption counts, the L3 rejections) was read with `read_text`: a FIFO in
    the place of one hung `stage --global`, `adopt --global` and `remember --global` for ever,
    /dev/zero linked there was read until memory ran out. They hold a person's decisions, so
    such a file is not read as empty either (a rejected item staged again, the next write
    putting back a file without them): each verb refuses, exit 3, one line naming the file and
    a hint, before anything is staged, adopted or recorded."""
    import json

    from conftest import memory_capped

    home = Path(os.environ["AGENT_MEMORY_HOME"])
    rejected = gm_json(project, "remember", "--global", "Prefer small, focused commits.")
    gm(project, "adopt", "--global", "--reject", rejected["id"])
    waiting = gm_json(project, "remember", "--global", "Write the tests first.")
    assert waiting["staged"]
    trap = home / ".git" / "agent-memory" / name
    trap.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(trap)
    elif kind == "dev-zero":
        trap.symlink_to("/dev/zero")
    else:
        with open(trap, "ab") as fh:  # sparse: 1.5 GB of zeros
            fh.truncate(1536 << 20)
    review, head = git(home, "rev-parse", "memory/review"), git(home, "rev-parse", "HEAD")
    for verb in (["stage", "--global"], ["adopt", "--global", "--all"], ["adopt", "--global", "--output", "json"],
                 ["remember", "--global", "Keep functions short."]):  # fmt: skip
        try:
            proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), *verb], cwd=project,
                                  capture_output=True, text=True, timeout=NEVER, stdin=subprocess.DEVNULL,
                                  preexec_fn=memory_capped)  # fmt: skip
        except subprocess.TimeoutExpired:
            pytest.fail(f"{verb} did not return with a {kind} in place of {name}")
        assert proc.returncode == 3, (verb, proc.stdout, proc.stderr)
        said = proc.stderr.splitlines()
        assert len(said) == 2 and f"/.git/agent-memory/{name}" in said[0] and said[1].startswith("hint: "), said
        if verb[-1] == "json":
            assert json.loads(proc.stdout)["error"].startswith("git memory adopt: cannot read "), proc.stdout
        assert (git(home, "rev-parse", "memory/review"), git(home, "rev-parse", "HEAD")) == (review, head)


@pytest.mark.parametrize("name", ["rejected-l3.json", "remembered-adoptions.json"])
def test_a_global_state_file_that_is_not_json_is_refused_not_read_as_empty(project: Path, name: str) -> None:
    """The same files cut short or hand-edited into text that is not JSON were read as empty:
    the rejected item was staged again and the next rejection wrote the file back holding only
    itself; adoption counts read as none made every adopted candidate look adopted since, and
    pruned. Refused as a FIFO there is (exit 3, one line and a hint), the file left as it is."""
    home = Path(os.environ["AGENT_MEMORY_HOME"])
    rejected = gm_json(project, "remember", "--global", "Prefer small, focused commits.")
    gm(project, "adopt", "--global", "--reject", rejected["id"])
    assert gm_json(project, "remember", "--global", "Write the tests first.")["staged"]
    path = home / ".git" / "agent-memory" / name
    damaged = path.read_text("utf-8").rstrip()[:-1]  # its closing brace gone
    path.write_text(damaged, "utf-8")
    review = git(home, "rev-parse", "memory/review")
    proc = gm(project, "stage", "--global", check=False)
    assert proc.returncode == 3, (proc.stdout, proc.stderr)
    said = proc.stderr.splitlines()
    assert len(said) == 2 and f"/.git/agent-memory/{name}" in said[0] and said[1].startswith("hint: "), said
    assert git(home, "rev-parse", "memory/review") == review
    assert path.read_text("utf-8") == damaged


@pytest.mark.parametrize("damage", [b'{"id": "g-cut short', b"\xff\xfe not utf-8"])
def test_a_remembered_candidate_line_that_cannot_be_read_survives_the_rewrites(project: Path, damage: bytes) -> None:
    """remembered.jsonl holds a person's items, one a line: a line cut short or hand-edited was
    skipped, and the next rewrite — `adopt --global` letting the adopted candidate go, another
    `remember --global` — wrote the file back without it, the item gone for good. Kept as it
    is, in its place, byte for byte; the candidates around it go on as before."""
    home = Path(os.environ["AGENT_MEMORY_HOME"])
    first = gm_json(project, "remember", "--global", "Prefer small, focused commits.")
    path = home / ".git" / "agent-memory" / "remembered.jsonl"
    path.write_bytes(path.read_bytes() + damage + b"\n")
    second = gm_json(project, "remember", "--global", "Write the tests first.")
    assert second["staged"] and damage + b"\n" in path.read_bytes()
    gm(project, "adopt", "--global", "--yes", first["id"])
    kept = path.read_bytes()
    assert kept.startswith(damage + b"\n") and second["id"].encode() in kept and first["id"].encode() not in kept
    gm(project, "adopt", "--global", "--yes", second["id"])
    assert path.read_bytes() == damage + b"\n"


def test_a_fifo_or_device_in_place_of_the_adopt_history_cache_is_not_waited_on(project: Path) -> None:
    """`.git/agent-memory/adopted-history.json` (the adopt lines on HEAD's history, kept with
    that HEAD by `stage`): a FIFO or /dev/zero in its place is no cache — the history is read
    again and the file written back as a regular one. A guard for the file this change adds."""
    from conftest import memory_capped

    gm(project, "remember", "Use pnpm, not npm, for installs")
    gm(project, "adopt", "--all")
    gm(project, "stage")
    cache = project / ".git" / "agent-memory" / "adopted-history.json"
    assert cache.is_file()
    for kind in ("fifo", "dev-zero"):
        cache.unlink()
        if kind == "fifo":
            os.mkfifo(cache)
        else:
            cache.symlink_to("/dev/zero")
        try:
            proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), "stage"], cwd=project,
                                  capture_output=True, text=True, timeout=NEVER, stdin=subprocess.DEVNULL,
                                  preexec_fn=memory_capped)  # fmt: skip
        except subprocess.TimeoutExpired:
            pytest.fail(f"stage did not return with a {kind} in place of {cache.name}")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert cache.is_file() and not cache.is_symlink()


# The long line and the address space it is read under: held whole, the line needs more than
# the space left beside the capture; skipped in MAX_LINE_BYTES chunks, it fits.
_LONG_LINE = 384 << 20


def _capped_at_512_mb() -> None:
    """A subprocess's preexec_fn: conftest.memory_capped, at 512 MB of address space."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))


def test_a_failing_command_s_output_never_holds_the_capture(project: Path) -> None:
    """A failing command's output is read for its signature (the error line, its paths and
    numbers collapsed). The output is the repository's to choose — its test script prints
    what it likes — and the path pattern restarted at every dot of a line without a slash,
    time growing with the square of the line: "Error: connection refused by " and 20,000
    dots (a tool result's cut) cost 6 s a failing command, 20 of them `capture --all` 126 s,
    48 the session end's whole capture. Only the line's first SIGNATURE_SCAN characters are
    normalised. Never timed: the capture of 60 such failures returns, as it must, with
    the failure learnt (before the fix it ran for some 6 minutes)."""
    import json

    folder = _projects() / slug_for(project.resolve())
    folder.mkdir(parents=True, exist_ok=True)
    session = "aaaaaaaa-0000-4000-8000-000000000001"

    def record(kind: str, n: int, content: object) -> dict[str, object]:
        return {"type": kind, "sessionId": session, "timestamp": f"2026-11-01T10:{n // 60:02d}:{n % 60:02d}Z",
                "cwd": str(project.resolve()), "uuid": f"u-{n}", "version": "2.1.120",
                "message": {"role": kind, "content": content}}  # fmt: skip

    records = [record("user", 0, "Always run the tests with npm test before committing.")]
    for call in range(60):
        records.append(record("assistant", 2 * call + 1, [{"type": "tool_use", "id": f"t{call}", "name": "Bash",
                                                           "input": {"command": "npm test"}}]))  # fmt: skip
        records.append(record("user", 2 * call + 2, [{"type": "tool_result", "tool_use_id": f"t{call}", "is_error": True,
                                                      "content": "Error: connection refused by " + "." * 20000}]))  # fmt: skip
    (folder / f"{session}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    try:
        proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), "capture", "--all"], cwd=project,
                              capture_output=True, text=True, timeout=NEVER, stdin=subprocess.DEVNULL)  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail("capture --all did not return with 60 failing commands' long output lines")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    claims = {a["claim"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a["kind"] == "failure"}
    assert any(claim.startswith("`npm test` fails") for claim in claims), claims
