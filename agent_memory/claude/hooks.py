"""`git memory hook <event>`: what the Claude Code hooks run (docs/claude-code-integration.md).

Every event fails open: on any error the hook exits 0, prints nothing and appends one line to
`.git/agent-memory/errors.log`. Every event acts on one repository, resolved once at its entry
(`locate`: one with a work tree where `git memory init` left its marker; never a folder that
only looks like a repository inside a work tree — SECURITY.md, "Which repository, which
configuration") and handed to everything below, detached jobs included. Output is one line of the documented JSON form
(`hookSpecificOutput.hookEventName` + `additionalContext`), UTF-8, or nothing at all.

Speed: the interpreter start is most of a hook's cost, so the module imports
only `os`, `sys` and `time` up front, and each event imports what it uses. No hook ever
rebuilds the recall index: a stale one still answers, a missing one answers nothing (recall)
or the committed files alone (session start), and one detached `hook rebuild-index` (a
catch-up of the atoms changed since the index's tip) freshens it for the next call.
- user-prompt-submit (every prompt): the C JSON scanner for the payload and
  the reading side of `agent_memory.store.recall`, which reads the compact recall index writers keep current and
  the adopted L2/L3 claims their blocks show (a small cache keyed on the adopted.log and
  memory files; a log that changed is read from where the last prompt stopped,
  committed/log_fold.py, so a prompt's cost does not grow with it) so that nothing
  SessionStart already injects is recalled again. No pygit2, no pathlib, no subprocess.
- session-start: the rendered context is cached in `.git/agent-memory/session-start.cache`
  under a key of everything it is computed from (the L2 and L3 adopted.log and memory file
  contents, the recall index and the `memory/atoms` tip, the git config that names the project, the code
  that renders it), so a hit costs a few stats and reads; a miss renders from the committed
  files on the standard library (claude/session_start.py). The background capture renders it
  ahead of the next session.
- session-end: spawns a detached `hook background-capture` and returns. That capture reads
  only a regular file of at most MAX_TRANSCRIPT_BYTES, ends after BACKGROUND_CAPTURE_SECONDS,
  and applies the L1 caps and expiry in its one commit.
"""

import os
import sys
import time

from agent_memory.claude.error_lines import redact_error_lines
from agent_memory.gitio.refs import (
    ATOMS_REF,
    Location,
    drop_foreign_git_env,
    is_initialised,
    read_ref,
)
from agent_memory.gitio.refs import locate as locate_repository
from agent_memory.model.fastjson import loads
from agent_memory.model.policy import (
    MAX_PAYLOAD_BYTES,
    PAYLOAD_IDLE_S,
    check_context_size,
    log_read_budget_s,
    recall_budget_s,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from agent_memory.gitio.repo import Repo
    from agent_memory.store.l1 import L1Store

    Payload = dict[str, Any]

# Each hook is disabled by its own variable. The internal events run in the
# background on behalf of a public one and obey its switch.
DISABLE_ENV = {
    "session-start": "AGENT_MEMORY_SESSIONSTART",
    "user-prompt-submit": "AGENT_MEMORY_USERPROMPTSUBMIT",
    "session-end": "AGENT_MEMORY_SESSIONEND",
    "background-capture": "AGENT_MEMORY_SESSIONEND",
    "rebuild-index": "AGENT_MEMORY_USERPROMPTSUBMIT",
}
# What Claude Code runs (the settings.json commands); the others are our background jobs.
CLAUDE_EVENTS = ("session-start", "user-prompt-submit", "session-end")


def read_payload() -> "Payload":
    stream = sys.stdin
    raw = b"" if stream is None or stream.isatty() else _read_stdin(stream)
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise ValueError(f"hook payload over {MAX_PAYLOAD_BYTES} bytes")
    if not raw.strip():
        raise ValueError("empty hook payload on stdin")
    return _payload_object(raw)


def _payload_object(raw: bytes) -> "Payload":
    # A BOM is dropped by hand: the utf-8-sig codec is one more module to import.
    data = loads(raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace"))
    if not isinstance(data, dict):
        raise ValueError(f"hook payload is a JSON {type(data).__name__}, not an object")
    return data


def _read_stdin(stream: "Any") -> bytes:
    """The payload bytes: up to end of file — or, on a stdin its writer keeps open, up to the
    moment nothing more is waiting and what came is a whole JSON object. An incomplete payload
    with no byte for PAYLOAD_IDLE_S raises TimeoutError (logged), never a hook that waits
    until Claude Code kills it. Where `select` cannot wait on the stream (Windows), a plain read."""
    try:
        import select  # built in

        fd = stream.fileno()
        select.select([fd], [], [], 0)
    except (ImportError, OSError, ValueError, AttributeError):
        return bytes(stream.buffer.read(MAX_PAYLOAD_BYTES + 1))
    chunks: list[bytes] = []
    size = 0
    # The last byte before any trailing whitespace, kept chunk by chunk: a pause in the middle
    # of a payload costs nothing, where joining (and parsing) all that came so far at each one
    # was quadratic in a payload sent in many small writes.
    last = b""
    while size <= MAX_PAYLOAD_BYTES:
        if last == b"}" and not select.select([fd], [], [], 0)[0] and _whole_object(b"".join(chunks)):
            break  # the writer paused after a whole object: that is the payload
        if not select.select([fd], [], [], PAYLOAD_IDLE_S)[0]:
            raise TimeoutError(f"hook payload: stdin stayed open with {size} bytes and no whole JSON "
                               f"object after {PAYLOAD_IDLE_S:g} s of silence")  # fmt: skip
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        last = chunk.rstrip()[-1:] or last
    return b"".join(chunks)


def _whole_object(raw: bytes) -> bool:
    """Whether `raw` parses as the payload: tried only on data that ends in `}` (trailing
    whitespace aside), as a JSON object must."""
    try:
        _payload_object(raw)
    except ValueError:
        return False
    return True


def locate(payload: "Payload") -> Location:
    """The one repository the hook acts on, resolved here once and handed to everything below.
    Candidates: the payload's `cwd` (it follows Claude's `cd`), else
    `CLAUDE_PROJECT_DIR`, else the process cwd; each resolved by `gitio.refs.locate`, which
    takes a folder that merely looks like a repository inside a work tree for what it is —
    content. The first candidate whose repository has a work tree and carries the marker
    `git memory init` leaves inside its git dir wins; failing that, the first repository
    found is returned (the caller says why it is not acted on)."""
    cwd = payload.get("cwd")
    first: Location | None = None
    for start in (cwd, os.environ.get("CLAUDE_PROJECT_DIR"), os.getcwd()):
        if isinstance(start, str) and start:
            found = locate_repository(start)
            if found is None:
                continue
            if found.work is not None and is_initialised(found.common):
                return found
            first = first or found
    if first is not None:
        return first
    raise LookupError(
        f"{cwd if isinstance(cwd, str) else os.getcwd()} is not inside a git repository"
    )


def check_acts_on(repo: Location) -> str:
    """The `memory/atoms` tip of a repository the hooks may act on; LookupError otherwise."""
    if repo.work is None:
        raise LookupError(f"{repo.top} is a bare repository: the Claude Code hooks act only in a work tree")
    if not is_initialised(repo.common):
        raise LookupError(f"agent-memory is not initialised in {repo.top} (run `git memory init`)")
    tip = read_ref(repo.common, ATOMS_REF)
    if tip is None:
        # The marker says init ran: a store that cannot be read, or was lost, is logged as such
        # (init would refuse, and "run init" would send the user the wrong way).
        from agent_memory.gitio.refcheck import why_absent

        why = why_absent(repo.common, ATOMS_REF)
        if why is None:
            why = f"memory/atoms is missing though `git memory init` ran in {repo.top} (`git memory status` says more)"
        raise LookupError(why)
    return tip


def run_event(event: str, extra: dict[str, str | None] | None = None) -> int:
    """Run one hook event; never raises, always returns 0."""
    started = time.monotonic()
    redact_error_lines()
    where: str | None = None  # where the log line goes: a path inside the repository
    try:
        if event not in DISABLE_ENV:
            raise ValueError(f"unknown hook event {event!r}")
        if os.environ.get(DISABLE_ENV[event], "") == "0":
            return 0
        if event in ("background-capture", "rebuild-index"):
            where = (extra or {}).get("cwd")
            repo = job_repository(extra or {})
            where = repo.top
            _set_checkout(repo.work, repo.common)
            drop_foreign_git_env(repo)
            if event == "background-capture":
                try:
                    _background_capture(repo, extra or {})
                finally:
                    _disarm_wall_clock()  # an in-process caller (a test) lives on
            else:
                _rebuild_index_job(repo)
            return 0
        payload = read_payload()
        repo = locate(payload)
        where = repo.top
        if event != "user-prompt-submit":  # recall redacts nothing and judges no line
            _set_checkout(repo.work, repo.common)
        tip = check_acts_on(repo)
        drop_foreign_git_env(repo)  # the jobs started below inherit this environment
        if event == "user-prompt-submit":
            _recall(payload, repo, tip, started)
        elif event == "session-start":
            from agent_memory.claude.session_start import session_start_line

            line = session_start_line(repo, tip, started + log_read_budget_s(event))
            if line:
                _emit(line)
        else:
            _spawn_capture(payload, repo)
    except BaseException as exc:  # noqa: BLE001 - a hook never breaks a session, not even on ^C
        from agent_memory.gitio.state import log_error

        log_error(
            f"hook {event}: {type(exc).__name__}: {exc}",
            where or os.environ.get("CLAUDE_PROJECT_DIR"),
        )
    return 0


def _set_checkout(work: str | None, common: str) -> None:
    """This checkout, for redaction and the guard (model/checkout.py). Imported here: the
    per-prompt hook, which needs neither, counts every module it loads."""
    from agent_memory.model.checkout import set_repository

    set_repository(work, common)


def run_and_exit(event: str) -> "NoReturn":
    """The process entry of a Claude Code hook: run it, flush, and leave with `os._exit`.

    Interpreter finalization (module teardown, freeing the loaded recall index) costs a
    per-prompt hook about as much as the recall itself (~5 ms of ~30). Nothing is lost by
    skipping it: every file the hook writes is closed by `with` before this point, the only
    buffered stream is stdout (flushed here), and a spawned capture or index rebuild is its
    own detached process. Background jobs (long, pygit2) exit normally."""
    if event in CLAUDE_EVENTS:
        import gc  # built in

        gc.disable()  # a short process that never returns: collections are pure cost here
    code = run_event(event)
    if event not in CLAUDE_EVENTS:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass  # Claude Code stopped reading (a timeout): there is nothing left to lose
    os._exit(code)


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




# --- user-prompt-submit -----------------------------------------------------------------------


def _recall(payload: "Payload", repo: Location, tip: str, started: float) -> None:
    from agent_memory.model.home import memory_home_dir
    from agent_memory.store.recall.adopted import adopted
    from agent_memory.store.recall.index import load_index
    from agent_memory.store.recall.render import dump_hook_payload, render_recall
    from agent_memory.store.recall.score import recall

    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return
    state = repo.state
    index = load_index(state)
    if index is None:
        from agent_memory.claude.jobs import request_rebuild

        request_rebuild(repo)
        raise LookupError(
            "the recall index is missing or unreadable: recalled nothing; rebuilding it"
        )
    # What SessionStart injects already is never recalled again.
    # A log too long to read in this prompt's time: nothing now, the read saved where it got.
    deadline = started + log_read_budget_s("user-prompt-submit")
    held = adopted(state, [(repo.work, "L2"), (memory_home_dir(), "L3")], deadline)
    hits = recall(index, prompt, time.time(), deadline=started + recall_budget_s(), exclude=held)
    text = render_recall(hits)
    if text:
        check_context_size(text)
        _emit(dump_hook_payload(text))
    if index.source_oid != tip:
        # Stale (memory/atoms moved without a capture by this interpreter): still the best
        # answer in the budget; after answering, a detached rebuild freshens it for the next.
        from agent_memory.claude.jobs import request_rebuild

        request_rebuild(repo)


# --- the detached jobs -------------------------------------------------------------------------


def job_repository(extra: dict[str, str | None]) -> Location:
    """The repository a detached job was started for: the git dir and work tree its hook
    resolved (`--git-dir`, `--cwd`), taken as they are — never discovered again — and still
    one the hooks may act on."""
    git_dir, cwd = extra.get("git_dir"), extra.get("cwd")
    if git_dir:
        repo = Location.of_git_dir(git_dir, cwd)
    else:  # a job started by an older hook: the directory it was started in
        found = locate_repository(cwd or os.getcwd())
        if found is None:
            raise LookupError(f"{cwd or os.getcwd()} is not inside a git repository")
        repo = found
    check_acts_on(repo)
    return repo


def _rebuild_index_job(repo: Location) -> None:
    from agent_memory.claude.jobs import REBUILD_MARKER
    from agent_memory.gitio import repo as git
    from agent_memory.gitio.state import log_error
    from agent_memory.store.l1 import rebuild_recall_index

    try:
        rebuild_recall_index(git.repo_at(repo))
    except Exception as exc:  # noqa: BLE001 - logged; the next capture rewrites the index
        # every prompt starts one while the cause lasts (a replaced store): said once a day
        log_error(f"hook user-prompt-submit: background index rebuild: {type(exc).__name__}: {exc}", repo.top,
                  once_a_day=True)
    finally:
        try:
            os.unlink(os.path.join(repo.state, REBUILD_MARKER))
        except OSError:
            pass


# --- session-end ------------------------------------------------------------------------------


def _spawn_capture(payload: "Payload", repo: Location) -> None:
    from agent_memory.claude.jobs import spawn_detached

    transcript = payload.get("transcript_path")
    if not isinstance(transcript, str) or not transcript:
        raise ValueError("SessionEnd payload has no transcript_path")
    # Absolute: the capture runs in the git dir, not in the directory the hook started in.
    transcript = os.path.abspath(os.path.expanduser(transcript))
    args = ["hook", "background-capture", "--transcript", transcript, "--git-dir", repo.git_dir,
            "--cwd", repo.top]  # fmt: skip
    session = payload.get("session_id")
    if isinstance(session, str) and session:
        args += ["--session", session]
    spawn_detached(args, repo.git_dir)  # never the work tree (see spawn_detached)


def _background_capture(location: Location, extra: dict[str, str | None]) -> None:
    from pathlib import Path

    from agent_memory.adoption.reverts import record_reverted
    from agent_memory.claude.session_start import refresh_context
    from agent_memory.committed.tiers import TooManyAtomsError, log_too_many_atoms
    from agent_memory.gitio import repo as git
    from agent_memory.gitio.state import log_error
    from agent_memory.promote.review import auto_stage
    from agent_memory.store.capture import capture_transcript
    from agent_memory.store.l1 import L1Store
    from agent_memory.transcripts.owner import recorded_elsewhere

    cwd = location.top
    transcript = Path(str(extra.get("transcript") or ""))
    _limit_wall_clock(BACKGROUND_CAPTURE_SECONDS)
    try:
        _wait_until_quiet(str(transcript))
        if not os.path.lexists(transcript):
            # A session quit before any prompt: Claude Code never writes its transcript.
            # Nothing to capture is not an error.
            return
        _check_transcript(str(transcript))
        repo = git.repo_at(location)
        other = recorded_elsewhere(transcript, repo)
        if other:
            from agent_memory.model.home import git_in

            raise TranscriptRefused(
                f"recorded in {other}, not in this repository: not captured here "
                f"(`{git_in(other)} memory capture --all` learns it there)"
            )
        store = L1Store(repo)
        project = git.project_of(repo)
        # One commit: the capture and the L1 caps/expiry together.
        result, _ = capture_transcript(
            store, project, transcript, extra.get("session") or None, limits=True
        )
        wrote_memory = _capture_memory_folder(store, project, repo, cwd)
        if result.commit is not None or wrote_memory:
            # A `git revert` of an adopt commit is a rejection: recorded before the gates run,
            # so the reverted item is not staged again at once (as `git memory stage` does).
            try:
                record_reverted(repo, store)
                auto_stage(repo, store, project)
            except TooManyAtomsError as exc:  # the capture is made: said once a day, as it lasts
                log_too_many_atoms(exc, cwd)
    except Exception as exc:  # noqa: BLE001 - logged; `git memory capture --all` catches up
        log_error(
            f"hook session-end: background capture of {transcript.name}: {type(exc).__name__}: {exc}",
            cwd,
        )
        return
    try:  # ahead of the next session start (a cache, so a failure is only logged)
        refresh_context(location)
    except Exception as exc:  # noqa: BLE001
        log_error(
            f"hook session-end: session-start context not refreshed: {type(exc).__name__}: {exc}",
            cwd,
        )


def _capture_memory_folder(store: "L1Store", project: str, repo: "Repo", cwd: str) -> bool:
    """Claude Code's own memory folder, after the session that may have written to it (issue
    27): whether that made a commit. Its failure is logged apart: the transcript is captured."""
    from pathlib import Path

    from agent_memory.gitio.state import log_error
    from agent_memory.store.auto_memory import capture_auto_memory

    try:
        done = capture_auto_memory(store, project, Path(repo.workdir or repo.common_dir), limits=True)
    except Exception as exc:  # noqa: BLE001 - logged; `git memory capture --all` catches up
        log_error(f"hook session-end: Claude's own memory folder: {type(exc).__name__}: {exc}", cwd)
        return False
    return done.result is not None and done.result.commit is not None


# A SessionEnd payload names the transcript; nothing checks what is there: a
# FIFO, /dev/zero or a runaway file must not keep a detached process alive.
BACKGROUND_CAPTURE_SECONDS = 300
MAX_TRANSCRIPT_BYTES = 512 << 20


class TranscriptRefused(ValueError):
    """The payload's transcript is not a regular file of a sane size."""


def _check_transcript(path: str) -> None:
    """Only a regular file (after symlinks) of at most MAX_TRANSCRIPT_BYTES is read (checked
    on a descriptor opened without blocking, so a FIFO never stalls the check itself)."""
    from agent_memory.transcripts.reader import regular_file_size

    try:
        size = regular_file_size(path)
    except OSError as exc:
        raise TranscriptRefused(f"cannot read the transcript: {exc.strerror or exc}") from None
    if size > MAX_TRANSCRIPT_BYTES:
        raise TranscriptRefused(
            f"the transcript is {size >> 20} MB, over the {MAX_TRANSCRIPT_BYTES >> 20} MB"
            " limit of a background capture; run `git memory capture --transcript PATH`"
        )


def _limit_wall_clock(seconds: int) -> None:
    """End this (detached) process after `seconds`: SIGALRM raises in the main thread, so the
    capture is abandoned between writes (a transaction is never half-applied: the ref moves
    last) and the failure is logged like any other."""
    try:
        import signal
    except ImportError:  # pragma: no cover
        return
    if not hasattr(signal, "SIGALRM"):
        return  # Windows: the size and file-type limits still hold

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"background capture still running after {seconds} s; abandoned")

    signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)


def _disarm_wall_clock() -> None:
    try:
        import signal
    except ImportError:  # pragma: no cover
        return
    if hasattr(signal, "SIGALRM"):
        signal.alarm(0)


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


