"""`git memory hook <event>`: what the Claude Code hooks run (spec §5, DESIGN "Claude Code
integration", docs/claude-code-integration.md).

Every event fails open: on any error the hook exits 0, prints nothing and appends one line to
`.git/agent-memory/errors.log`. Output is one line of the documented JSON form
(`hookSpecificOutput.hookEventName` + `additionalContext`), UTF-8, or nothing at all.

Speed (issue 7): the interpreter start is most of a hook's cost, so the module imports only
`os`, `sys` and `time` up front, and each event imports what it uses:
- user-prompt-submit (every prompt, spec §5.2): json's C scanner for the payload and
  `agent_memory.store.recall`, which reads the compact recall index capture rewrites. No pygit2, no
  pathlib, no subprocess. A missing or unreadable index recalls nothing and logs one line; a
  stale one still answers. Either way a detached process rebuilds it for the next prompt.
- session-start: the rendered context is cached in `.git/agent-memory/session-start.cache`
  under a key of everything it is computed from (the L2 and L3 adopted.log contents, the
  recall index and the `memory/atoms` tip, the git config that names the project, the code
  that renders it), so a hit costs a few stats and reads. A miss renders it like `git memory
  context` (and rebuilds a stale recall index first: the contested tags come from it). The
  background capture renders it ahead of the next session.
- session-end: spawns a detached `hook background-capture` and returns.
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    Payload = dict[str, Any]

# Each hook is disabled by its own variable (spec §5). The internal events run in the
# background on behalf of a public one and obey its switch.
DISABLE_ENV = {
    "session-start": "AGENT_MEMORY_SESSIONSTART",
    "user-prompt-submit": "AGENT_MEMORY_USERPROMPTSUBMIT",
    "session-end": "AGENT_MEMORY_SESSIONEND",
    "background-capture": "AGENT_MEMORY_SESSIONEND",
    "rebuild-index": "AGENT_MEMORY_USERPROMPTSUBMIT",
}
ATOMS_REF = "refs/heads/memory/atoms"
STATE_DIRNAME = "agent-memory"
RECALL_BUDGET_S = 0.100  # spec §5.2: the hook's own budget, on a monotonic clock
MAX_PAYLOAD_BYTES = 64 << 20  # a pasted log can be large; only a runaway stdin is refused
MAX_CONTEXT_CHARS = 10_000  # Claude Code replaces longer additionalContext with a file path
CONTEXT_CACHE = "session-start.cache"
CONTEXT_CACHE_FORMAT = "1"
REBUILD_MARKER = "rebuilding-recall-index"
REBUILD_MARKER_TTL_S = 300.0  # a rebuild that died leaves its marker; retry after this
# The modules whose code decides the session-start text: editing one invalidates the cache.
_CONTEXT_CODE = ("__init__.py", "claude/context.py", "committed/render.py", "store/contradictions.py",
                 "committed/tiers.py", "committed/adopted_log.py", "model/atom.py", "model/paths.py",
                 "store/recall.py", "cli/hook.py")  # fmt: skip


_JSON_SPACE = " \t\n\r"


class _ScanContext:
    """What `_json.make_scanner` reads off a JSONDecoder: json.loads' defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float  # NaN, Infinity, -Infinity, as json.loads reads them


def loads(text: str) -> object:
    """`json.loads(text)`, through the C scanner json itself uses when there is one.

    `import json` compiles half a dozen regular expressions that reading one object does not
    need: ~1 ms, an eighth of an interpreter start, on every prompt. Malformed input raises
    json's own JSONDecodeError (a ValueError); elsewhere than CPython this is json.loads."""
    try:
        from _json import make_scanner
    except ImportError:
        import json

        return json.loads(text)
    start = len(text) - len(text.lstrip(_JSON_SPACE))
    try:
        value, end = make_scanner(_ScanContext)(text, start)  # type: ignore[arg-type]
    except StopIteration as stop:  # what json.loads reports as "Expecting value"
        raise ValueError(f"expecting a JSON value at character {stop.value}") from None
    if text[end:].strip(_JSON_SPACE):
        raise ValueError(f"extra data after the JSON value at character {end}")
    return value


def read_payload() -> Payload:
    stream = sys.stdin
    raw = b"" if stream is None or stream.isatty() else stream.buffer.read(MAX_PAYLOAD_BYTES + 1)
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise ValueError(f"hook payload over {MAX_PAYLOAD_BYTES} bytes")
    if not raw.strip():
        raise ValueError("empty hook payload on stdin")
    # A BOM is dropped by hand: the utf-8-sig codec is one more module to import.
    data = loads(raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace"))
    if not isinstance(data, dict):
        raise ValueError(f"hook payload is a JSON {type(data).__name__}, not an object")
    return data


def locate(payload: Payload) -> tuple[str, str, str | None]:
    """(git dir, common dir, work tree) of the repository the hook is about: the payload's
    `cwd` (it follows Claude's `cd`), else `CLAUDE_PROJECT_DIR`, else the process cwd — the
    first of them that is inside a repository."""
    from agent_memory.gitio.state import locate_git_dirs

    cwd = payload.get("cwd")
    for start in (cwd, os.environ.get("CLAUDE_PROJECT_DIR"), os.getcwd()):
        if isinstance(start, str) and start:
            found = locate_git_dirs(start)
            if found:
                return found
    raise LookupError(
        f"{cwd if isinstance(cwd, str) else os.getcwd()} is not inside a git repository"
    )


def run_event(event: str, extra: dict[str, str | None] | None = None) -> int:
    """Run one hook event; never raises, always returns 0."""
    started = time.monotonic()
    where: str | None = None  # where the log line goes: a path inside the repository
    try:
        if event not in DISABLE_ENV:
            raise ValueError(f"unknown hook event {event!r}")
        if os.environ.get(DISABLE_ENV[event], "") == "0":
            return 0
        if event == "background-capture":
            where = (extra or {}).get("cwd")
            _background_capture(extra or {})
            return 0
        if event == "rebuild-index":
            _rebuild_index_job()
            return 0
        payload = read_payload()
        _, common, work = locate(payload)
        where = work or common
        from agent_memory.store.recall import read_ref

        tip = read_ref(common, ATOMS_REF)
        if tip is None:
            raise LookupError(f"agent-memory is not initialised in {where} (run `git memory init`)")
        if event == "user-prompt-submit":
            _recall(payload, common, work, tip, started)
        elif event == "session-start":
            _session_start(common, work, tip)
        else:
            _spawn_capture(payload, work or common)
    except BaseException as exc:  # noqa: BLE001 - a hook never breaks a session, not even on ^C
        from agent_memory.gitio.state import log_error

        log_error(
            f"hook {event}: {type(exc).__name__}: {exc}",
            where or os.environ.get("CLAUDE_PROJECT_DIR"),
        )
    return 0


def _emit(line: str) -> None:
    """One line on stdout, as UTF-8 whatever the locale (a cp1252 or C stdout would raise on
    the em dash of the contested tag and lose the whole context)."""
    try:
        sys.stdout.buffer.write((line + "\n").encode("utf-8"))
        sys.stdout.buffer.flush()
    except (OSError, ValueError):
        # Claude Code stopped reading (a timeout): point stdout at /dev/null so the
        # interpreter's final flush cannot turn exit 0 into exit 120.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        raise


def _check_size(text: str) -> None:
    if len(text) >= MAX_CONTEXT_CHARS:
        raise ValueError(
            f"context of {len(text)} characters is over Claude Code's {MAX_CONTEXT_CHARS}"
        )


# --- user-prompt-submit -----------------------------------------------------------------------


def _recall(payload: Payload, common: str, work: str | None, tip: str, started: float) -> None:
    from agent_memory.store import recall

    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return
    state = os.path.join(common, STATE_DIRNAME)
    index = recall.load_index(state)
    if index is None:
        _request_rebuild(state, work or common)
        raise LookupError(
            "the recall index is missing or unreadable: recalled nothing; rebuilding it"
        )
    hits = recall.recall(index, prompt, time.time(), deadline=started + RECALL_BUDGET_S)
    text = recall.render_recall(hits)
    if text:
        _check_size(text)
        _emit(recall.dump_hook_payload(text))
    if index.source_oid != tip:
        # Stale (memory/atoms moved without a capture by this interpreter): still the best
        # answer in the budget; after answering, a detached rebuild freshens it for the next.
        _request_rebuild(state, work or common)


def _request_rebuild(state: str, cwd: str) -> None:
    """Start one detached index rebuild (a marker file keeps prompts from starting more)."""
    marker = os.path.join(state, REBUILD_MARKER)
    try:
        if time.time() - os.stat(marker).st_mtime < REBUILD_MARKER_TTL_S:
            return
        os.unlink(marker)
    except FileNotFoundError:
        pass
    os.makedirs(state, mode=0o700, exist_ok=True)
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return
    try:
        _spawn_detached(["hook", "rebuild-index"], cwd)
    except BaseException:
        os.unlink(marker)
        raise


def rebuild_index(start: str) -> None:
    """Rewrite the recall index from `memory/atoms` (what capture does after each commit)."""
    from agent_memory.gitio import repo as git
    from agent_memory.store import recall
    from agent_memory.store.l1 import L1Store

    repo = git.find_repo(start)
    store = L1Store(repo)
    tip = store.tip()
    if tip is None:
        raise LookupError(f"agent-memory is not initialised in {repo.cwd}")
    recall.write_index(repo.state, store.atoms_at(tip), tip)


def _rebuild_index_job() -> None:
    from agent_memory.gitio.state import locate_git_dirs, log_error

    found = locate_git_dirs(os.getcwd())
    try:
        rebuild_index(os.getcwd())
    except Exception as exc:  # noqa: BLE001 - logged; the next capture rewrites the index
        log_error(f"hook user-prompt-submit: background index rebuild: {type(exc).__name__}: {exc}")
    finally:
        if found:
            try:
                os.unlink(os.path.join(found[1], STATE_DIRNAME, REBUILD_MARKER))
            except OSError:
                pass


# --- session-start ----------------------------------------------------------------------------


def memory_home() -> str:
    """`paths.memory_home()` without pathlib (the cache key needs it on the fast path)."""
    configured = os.environ.get("AGENT_MEMORY_HOME")
    if configured:
        return os.path.expanduser(configured)
    return os.path.join(os.path.expanduser("~"), ".claude", "agent-memory")


def _session_start(common: str, work: str | None, tip: str) -> None:
    line = _cached_context(common, work, tip)
    if line is None:
        line = refresh_context(common, work)
    if line:
        _emit(line)


def _file_sig(path: str, content: bool) -> str:
    """A file's identity for the cache key: its content's CRC (for small data files that may
    be rewritten within one timestamp tick) or its stat (for code)."""
    try:
        if not content:
            st = os.stat(path)
            return f"{st.st_size}:{st.st_mtime_ns}"
        import zlib

        with open(path, "rb") as fh:
            data = fh.read()
        return f"{len(data)}:{zlib.crc32(data):08x}"
    except OSError:
        return "-"


def _git_config_files(common: str) -> list[str]:
    """Where `git config memory.project` may be set (include.path files are not followed)."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    return [os.path.join(common, "config"), os.environ.get("GIT_CONFIG_GLOBAL") or os.path.join(home, ".gitconfig"),
            os.path.join(xdg, "git", "config"), os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"]  # fmt: skip


def context_key(common: str, work: str | None, tip: str) -> str:
    """Everything the session-start text is computed from, as one line."""
    from agent_memory import __version__
    from agent_memory.store import recall

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    state = os.path.join(common, STATE_DIRNAME)
    home = memory_home()
    parts = [CONTEXT_CACHE_FORMAT, __version__, sys.implementation.cache_tag or "", tip,
             recall.indexed_oid(state) or "-", _file_sig(recall.index_path(state), False),
             work or "-", _file_sig(os.path.join(work, ".memory", "adopted.log"), True) if work else "-",
             home, _file_sig(os.path.join(home, ".memory", "adopted.log"), True)]  # fmt: skip
    parts += [_file_sig(path, True) for path in _git_config_files(common)]
    parts += [
        os.environ.get(name, "")
        for name in ("GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS")
    ]
    parts += [_file_sig(os.path.join(package, *name.split("/")), False) for name in _CONTEXT_CODE]
    return repr(parts)  # one line: repr escapes newlines in paths


def _cached_context(common: str, work: str | None, tip: str) -> str | None:
    """The cached hook output line ('' for "nothing to inject"), or None on a miss."""
    from agent_memory.store.recall import indexed_oid

    state = os.path.join(common, STATE_DIRNAME)
    if indexed_oid(state) != tip:
        return None  # a stale index may lack a contested tag: recompute
    try:
        with open(os.path.join(state, CONTEXT_CACHE), encoding="utf-8") as fh:
            key, _, line = fh.read().partition("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if key != context_key(common, work, tip):
        return None
    return line.rstrip("\n")


def refresh_context(common: str, work: str | None) -> str:
    """Render the session-start output line ('' when there is nothing to inject) exactly as
    `git memory context` renders the text, and cache it."""
    import json
    from pathlib import Path

    from agent_memory.claude import context
    from agent_memory.committed import tiers
    from agent_memory.gitio import repo as git
    from agent_memory.gitio.repo import project_of
    from agent_memory.gitio.state import atomic_write, log_error
    from agent_memory.store import recall

    state = os.path.join(common, STATE_DIRNAME)
    tip = recall.read_ref(common, ATOMS_REF)
    if tip is None:
        raise LookupError(f"agent-memory is not initialised in {work or common}")
    index = recall.load_index(state)
    if index is None or index.source_oid != tip:
        # The contested tags (spec §4.2) come from the index: rebuild it rather than show a
        # contested line as a plain assertion. Session start has seconds (spec §5.1). An
        # absent index (deleted, or a repository initialised before init wrote one) needs no
        # log line; one that is there but unreadable does.
        unreadable = index is None and os.path.exists(recall.index_path(state))
        rebuild_index(work or common)
        if unreadable:
            log_error(
                "hook session-start: the recall index was unreadable: rebuilt it", work or common
            )
        tip = recall.read_ref(common, ATOMS_REF) or tip
        index = recall.load_index(state)
        if index is None:
            raise LookupError(
                "the recall index could not be rebuilt, so contested atoms cannot be tagged"
            )
    key = context_key(common, work, tip)
    repo = git.find_repo(work or common)
    l2 = list(tiers.l2_atoms(repo.workdir).values())
    l3 = list(tiers.l3_atoms(Path(memory_home())).values())
    ctx = context.build_context(l2, l3, recall.contested_dates(index), project_of(repo))
    line = ""
    if ctx.text:
        _check_size(ctx.text)
        line = json.dumps(context.hook_output(ctx), ensure_ascii=False, separators=(",", ":"))
    if context_key(common, work, tip) == key:  # nothing changed while rendering
        atomic_write(Path(state) / CONTEXT_CACHE, f"{key}\n{line}\n", mode=0o600)
    return line


# --- session-end ------------------------------------------------------------------------------


def _spawn_detached(args: list[str], cwd: str) -> None:
    """`python -m agent_memory <args>` fully detached (docs/claude-code-integration.md §3): a
    new session, and no inherited stdin/stdout/stderr or other descriptors. Claude Code reads
    a hook's pipes to EOF, so a child holding one would keep the hook "running"."""
    import subprocess

    if not sys.executable:
        raise RuntimeError(
            "no Python interpreter path (sys.executable) to start the background job with"
        )
    options: dict[str, Any] = {}
    if os.name == "nt":
        flags = ("DETACHED_PROCESS", "CREATE_NEW_PROCESS_GROUP", "CREATE_NO_WINDOW")
        options["creationflags"] = sum(getattr(subprocess, flag, 0) for flag in flags)
    else:
        options["start_new_session"] = True
    subprocess.Popen(
        [sys.executable, "-m", "agent_memory", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=True,
        **options,
    )


def _spawn_capture(payload: Payload, cwd: str) -> None:
    transcript = payload.get("transcript_path")
    if not isinstance(transcript, str) or not transcript:
        raise ValueError("SessionEnd payload has no transcript_path")
    # Absolute: the capture runs in the work tree, not in the directory the hook started in.
    transcript = os.path.abspath(os.path.expanduser(transcript))
    args = ["hook", "background-capture", "--transcript", transcript, "--cwd", cwd]
    session = payload.get("session_id")
    if isinstance(session, str) and session:
        args += ["--session", session]
    _spawn_detached(args, cwd)


def _background_capture(extra: dict[str, str | None]) -> None:
    from pathlib import Path

    from agent_memory.cli.capture import auto_stage, capture_one
    from agent_memory.cli.output import project_of
    from agent_memory.gitio import repo as git
    from agent_memory.gitio.state import log_error
    from agent_memory.store.capture import enforce_limits
    from agent_memory.store.l1 import L1Store

    cwd = extra.get("cwd") or os.getcwd()
    transcript = Path(str(extra.get("transcript") or ""))
    try:
        _wait_until_quiet(str(transcript))
        repo = git.find_repo(cwd)
        store = L1Store(repo)
        project = project_of(repo)
        result, _ = capture_one(store, project, transcript, extra.get("session") or None)
        enforce_limits(store)
        if result.commit is not None:
            auto_stage(repo, store, project)
    except Exception as exc:  # noqa: BLE001 - logged; `git memory capture --all` catches up
        log_error(
            f"hook session-end: background capture of {transcript.name}: {type(exc).__name__}: {exc}",
            cwd,
        )
        return
    try:  # ahead of the next session start (a cache, so a failure is only logged)
        refresh_context(str(repo.common_dir), str(repo.workdir) if repo.workdir else None)
    except Exception as exc:  # noqa: BLE001
        log_error(
            f"hook session-end: session-start context not refreshed: {type(exc).__name__}: {exc}",
            cwd,
        )


def _wait_until_quiet(
    path: str, settle: float = 0.5, limit: float = 5.0, appear: float = 2.0
) -> None:
    """Claude Code writes the transcript asynchronously: wait (boundedly) until it exists and
    stops growing. Re-capture is idempotent, so a late line is picked up by the next one."""
    begun = time.monotonic()
    last = -1
    while time.monotonic() - begun < limit:
        try:
            size = os.stat(path).st_size
        except OSError:
            if time.monotonic() - begun >= appear:
                return
            size = -1
        if size >= 0 and size == last:
            return
        last = size
        time.sleep(settle)


def run(args: argparse.Namespace) -> int:
    return run_event(
        args.event, {"transcript": args.transcript, "cwd": args.cwd, "session": args.session}
    )
