"""Driving the real Claude Code client, offline, against a real repository.

The client is the npm package `@anthropic-ai/claude-code` at the version pinned in
`claude-code.version`, installed once into a cache directory outside the repository. It runs
headless (`claude -p`) or in a pseudo-terminal, with a placeholder API key and the API base URL
on a loopback port nothing listens on: the model call is refused at once, while everything
agent-memory depends on happens for real — CLAUDE.md and its imports are loaded, the hooks in
`.claude/settings.json` (or a `--plugin-dir` plugin) fire, and the transcript is written.
Within `Workspace.scripted(script)` the base URL is a scripted model instead
(`scripted_model.py`): the model's turns — tool calls, subagents, memory writes — happen too,
and every request the client sent is kept.

Nothing here imports agent_memory: the suite tests the installed `git memory` the way Claude
Code runs it, through the command line."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .scripted_model import Script, ScriptedModel

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VERSION_FILE = HERE / "claude-code.version"
PACKAGE = "@anthropic-ai/claude-code"
FIXTURES = ROOT / "tests" / "fixtures" / "transcripts"

# Offline and quiet: the API call goes to a loopback port nothing listens on (refused at once,
# no retry), and nothing else is attempted (telemetry, error reports, update checks).
OFFLINE_ENV = {
    "ANTHROPIC_API_KEY": "placeholder",
    "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",
    "CLAUDE_CODE_MAX_RETRIES": "0",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_AUTOUPDATER": "1",
}
# What the outer environment must not leak into the client: a developer's own Claude Code
# session (CLAUDECODE, CLAUDE_CODE_SESSION_ID, …), real credentials, and proxies that could
# turn the refused loopback call into a slow one.
_DROP_PREFIXES = ("CLAUDE", "ANTHROPIC_", "OTEL_")
_DROP_NAMES = {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"}

# Generous ceilings that only keep a broken run from hanging the suite; nothing is timed.
RUN_TIMEOUT = 120.0
CAPTURE_TIMEOUT = 120.0
SHELL_MODE_WAIT = 15.0  # per `!` typed; the switch is drawn within a frame when it takes

# Strings longer than this in a recorded fixture are Claude Code's own harness text (system
# prompt, tool schemas, skill and agent listings): not ours to redistribute, and the reader
# must decide from structure anyway, so the recorder keeps the key and elides the text.
ELIDE_OVER = 1500
ELIDED = "[Claude Code harness text, {n} characters, elided when this fixture was recorded]"
# Records that are nothing but harness text (tool schemas, the system prompt, listings): every
# string but the shortest (names, types, enum values) is elided.
HARNESS_KINDS = {
    "api-request-shape",
    "attachment/prompt_snapshot",
    "attachment/skill_listing",
    "attachment/agent_listing_delta",
    "attachment/deferred_tools_delta",
}
HARNESS_ELIDE_OVER = 80


def pinned_version() -> str:
    return VERSION_FILE.read_text("utf-8").strip()


def truthy(value: str | None) -> bool:
    return bool(value) and value.strip().lower() not in ("0", "false", "no", "off", "")


def client_required() -> bool:
    """CI (any CI sets CI) or an explicit request: a missing client is a failure, not a skip."""
    return truthy(os.environ.get("CI")) or truthy(os.environ.get("AGENT_MEMORY_REQUIRE_CLIENT"))


def cache_root() -> Path:
    """Outside the repository; survives between runs so the ~390 MB install happens once."""
    explicit = os.environ.get("AGENT_MEMORY_IT_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "agent-memory-it"


def slug_for(path: Path | str) -> str:
    """Claude Code's project directory name for a short ASCII path: every character outside
    [A-Za-z0-9] becomes '-'. Past 200 characters the client cuts the name and appends a hash,
    and it counts UTF-16 units: use `client_code.client_slugs`, the client's own function."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(path))


@dataclass(frozen=True)
class Client:
    binary: Path
    version: str
    prefix: Path  # the npm --prefix it was installed into


def find_binary(prefix: Path) -> Path | None:
    """The native executable from the platform package npm chose (`…-linux-x64/claude`, …).

    Run directly, so the install needs no postinstall script (`--ignore-scripts`) and no Node.js
    at run time; the wrapper's `bin/claude.exe` is a copy of the same file once its postinstall
    has run, and a stub before."""
    scope = prefix / "node_modules" / "@anthropic-ai"
    for candidate in sorted(scope.glob("claude-code-*/claude*")):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    fallback = prefix / "node_modules" / ".bin" / "claude"
    return fallback if fallback.exists() else None


def client_version(binary: Path) -> str | None:
    # Called before any test's isolation is in place: a throwaway home, never the real ~/.claude.
    with tempfile.TemporaryDirectory(prefix="claude-version-") as home:
        try:
            proc = subprocess.run(
                [str(binary), "--version"],
                env=client_env(
                    HOME=home, CLAUDE_CONFIG_DIR=str(Path(home) / ".claude"), TMPDIR=home
                ),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=RUN_TIMEOUT,
                check=False,
            )
        except OSError:
            return None
    match = re.match(r"\s*(\S+)", proc.stdout)
    return match.group(1) if proc.returncode == 0 and match else None


def installed_client(version: str, root: Path) -> Client | None:
    prefix = root / f"claude-code-{version}"
    binary = find_binary(prefix)
    if binary is not None and client_version(binary) == version:
        return Client(binary, version, prefix)
    return None


def install_client(version: str, root: Path, npm: str) -> Client:
    """`npm install --prefix` into a staging directory, renamed into place when complete, so an
    interrupted install is never mistaken for a cached one. Parallel test workers (xdist) take
    turns on a lock file; whoever comes second finds the first one's install and uses it."""
    import fcntl

    root.mkdir(parents=True, exist_ok=True)
    with open(root / f".claude-code-{version}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        client = installed_client(version, root)
        if client is None:
            client = _npm_install(version, root, npm)
    return client


def _npm_install(version: str, root: Path, npm: str) -> Client:
    final = root / f"claude-code-{version}"
    staging = root / f"claude-code-{version}.partial-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    proc = subprocess.run(
        [
            npm,
            "install",
            "--prefix",
            str(staging),
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--loglevel=error",
            f"{PACKAGE}@{version}",
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    if proc.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise RuntimeError(f"npm install {PACKAGE}@{version} failed: {proc.stderr.strip()[-2000:]}")
    shutil.rmtree(final, ignore_errors=True)  # a broken earlier install (we hold the lock)
    os.replace(staging, final)
    client = installed_client(version, root)
    if client is None:
        raise RuntimeError(f"{PACKAGE}@{version} installed in {final} but no working binary found")
    return client


def clean_env(base: Mapping[str, str]) -> dict[str, str]:
    return {
        k: v for k, v in base.items() if not k.startswith(_DROP_PREFIXES) and k not in _DROP_NAMES
    }


def client_env(**extra: str) -> dict[str, str]:
    """This process's environment (already isolated by tests/conftest.py), cleaned, offline."""
    return clean_env(os.environ) | OFFLINE_ENV | extra


# --- transcripts ---------------------------------------------------------------------------


def read_records(path: Path, *, growing: bool = False) -> list[dict[str, Any]]:
    """Every record. `growing`: the client may be writing the file right now, so a last line
    that does not parse yet is left for the next read."""
    lines = [line for line in path.read_text("utf-8").splitlines() if line.strip()]
    records = []
    for number, line in enumerate(lines, 1):
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            if growing and number == len(lines):
                break
            raise
    return records


def record_kind(record: Mapping[str, Any]) -> str:
    """`type`, refined by the attachment's type or the system record's subtype."""
    kind = str(record.get("type"))
    attachment = record.get("attachment")
    if kind == "attachment" and isinstance(attachment, Mapping):
        return f"attachment/{attachment.get('type')}"
    if kind == "system" and record.get("subtype"):
        return f"system/{record['subtype']}"
    return kind


def record_kinds(records: Sequence[Mapping[str, Any]]) -> Counter[str]:
    return Counter(record_kind(r) for r in records)


def attachments(records: Sequence[Mapping[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [
        r["attachment"]
        for r in records
        if r.get("type") == "attachment"
        and isinstance(r.get("attachment"), dict)
        and r["attachment"].get("type") == kind
    ]


def hook_contexts(records: Sequence[Mapping[str, Any]], event: str) -> list[str]:
    """What Claude Code added to the conversation from `additionalContext` of `event` hooks."""
    out: list[str] = []
    for item in attachments(records, "hook_additional_context"):
        if item.get("hookEvent") == event or item.get("hookName") == event:
            content = item.get("content")
            out.extend(content if isinstance(content, list) else [str(content)])
    return out


def typed_prompt_lines(records: Sequence[Mapping[str, Any]], prompts: Sequence[str]) -> set[int]:
    """1-based lines of the `user` records whose whole content is one of the prompts we typed."""
    lines = set()
    for number, record in enumerate(records, 1):
        message = record.get("message")
        is_user = record.get("type") == "user" and isinstance(message, Mapping)
        if is_user and message.get("content") in prompts:
            lines.add(number)
    return lines


def days_ago(days: int) -> dict[str, str]:
    """The environment of a session held `days` days ago: libfaketime (the `libfaketime` test
    dependency ships its preload library) shifts the clock of the client and of everything it
    starts — our hooks and their capture — so the transcript's timestamps, and with them the
    evidence's days, are that day's. Monotonic clocks are left alone (timeouts stay real)."""
    import importlib.util

    spec = importlib.util.find_spec("libfaketime")
    library = None
    if spec is not None and spec.submodule_search_locations:
        package = Path(next(iter(spec.submodule_search_locations)))
        library = package / "vendor" / "libfaketime" / "src" / "libfaketime.so.1"
    if library is None or not library.is_file() or not sys.platform.startswith("linux"):
        import pytest

        reason = "a session on another day needs libfaketime's preload library"
        if sys.platform.startswith("linux") and client_required():
            pytest.fail(f"{reason}: pip install -e '.[test]' installs it", pytrace=False)
        pytest.skip(f"{reason} (Linux only)")
    return {"LD_PRELOAD": str(library), "FAKETIME": f"-{days}d", "DONT_FAKE_MONOTONIC": "1"}


def evidence(atoms: Sequence[Mapping[str, Any]]) -> set[tuple[str, str, int]]:
    """(atom id, transcript stem = session id, line) for every piece of evidence the atoms
    hold."""
    out = set()
    for atom in atoms:
        for item in atom["evidence"]:
            path, _, line = str(item["source"]).rpartition("#L")
            out.add((str(atom["id"]), Path(path).stem, int(line)))
    return out


# --- one repository, one isolated home, driven by the client --------------------------------


@dataclass
class Run:
    session_id: str
    transcript: Path
    returncode: int
    stdout: str
    stderr: str

    def records(self) -> list[dict[str, Any]]:
        return read_records(self.transcript)


def wait_until(
    predicate: Callable[[], bool], what: str, timeout: float, idle: Callable[[], None] | None = None
) -> None:
    """Poll until `predicate()` holds. The timeout is a hang guard, not a measurement: it fails
    the test only when the awaited thing never happens."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {timeout:.0f} s waiting for {what}")
        if idle is not None:
            idle()
        else:
            time.sleep(0.05)


def _processes() -> Iterator[tuple[int, list[str]]]:
    """The id and argv of every process we can see (`/proc`, else `ps`)."""
    proc = Path("/proc")
    if proc.is_dir():
        for entry in proc.iterdir():
            if entry.name.isdigit():
                try:
                    raw = (entry / "cmdline").read_bytes()
                except OSError:
                    continue
                if raw:
                    yield int(entry.name), raw.decode("utf-8", "replace").rstrip("\0").split("\0")
        return
    out = subprocess.run(
        ["ps", "-A", "-ww", "-o", "pid=,args="], capture_output=True, text=True, check=False
    ).stdout
    for line in out.splitlines():
        pid, *argv = line.split()
        yield int(pid), argv


def _reported_session(stdout: str) -> str | None:
    """The `session_id` the client's JSON output (`--output-format json`, or the last line of
    `stream-json`) names, if any."""
    for line in reversed(stdout.strip().splitlines()):
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and isinstance(value.get("session_id"), str):
            return str(value["session_id"])
    return None


@dataclass
class Workspace:
    """A git repository after `git memory init --yes`, with HOME, CLAUDE_CONFIG_DIR,
    AGENT_MEMORY_HOME and TMPDIR in the test's tmp_path, and the client to drive it."""

    client: Client
    repo: Path
    home: Path
    tmp: Path
    name: str
    env: dict[str, str] = field(default_factory=dict)
    runs: list[Run] = field(default_factory=list)
    _count: int = 0

    def __post_init__(self) -> None:
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.env = client_env(
            HOME=str(self.home),
            CLAUDE_CONFIG_DIR=str(self.config_dir),
            # The client keeps per-session scratch files and sockets under TMPDIR.
            TMPDIR=str(self.tmp),
        )

    @property
    def config_dir(self) -> Path:
        return self.home / ".claude"

    # -- git memory ---------------------------------------------------------------------

    def git_memory(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(
            ["git", "-C", str(self.repo), "memory", *args],
            env=self.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )
        if check and proc.returncode != 0:
            raise AssertionError(
                f"git memory {' '.join(args)} exited {proc.returncode}: "
                f"{proc.stderr.strip() or proc.stdout.strip()}"
            )
        return proc

    def git_memory_json(self, *args: str) -> Any:
        return json.loads(self.git_memory(*args, "--output", "json").stdout)

    def atoms(self, tier: str = "L1") -> list[dict[str, Any]]:
        return list(self.git_memory_json("inspect", "--tier", tier)["atoms"])

    def adopt(self, claim: str, *, global_: bool = False) -> None:
        """A hand-authored item through the normal review path: remember, then adopt."""
        scope = ["--global"] if global_ else []
        staged = self.git_memory_json("remember", *scope, claim)
        assert staged["staged"] and not staged["refused"], staged
        adopted = self.git_memory_json("adopt", *scope, "--yes", staged["id"])
        assert [a["atom"] for a in adopted["adopted"]] == [staged["id"]], adopted

    def errors_log(self) -> list[str]:
        """The hooks fail open, so a swallowed error is only visible here."""
        path = self.repo / ".git" / "agent-memory" / "errors.log"
        return path.read_text("utf-8").splitlines() if path.exists() else []

    # -- the client -----------------------------------------------------------------------

    def new_session_id(self) -> str:
        """Deterministic per test, so re-recorded fixtures keep their file names."""
        self._count += 1
        return str(uuid.uuid5(uuid.NAMESPACE_URL, f"agent-memory-it:{self.name}:{self._count}"))

    def transcript_path(self, session_id: str) -> Path:
        found = sorted(self.config_dir.glob(f"projects/*/{session_id}.jsonl"))
        assert len(found) <= 1, found
        if found:
            return found[0]
        return self.config_dir / "projects" / slug_for(self.repo) / f"{session_id}.jsonl"

    @contextlib.contextmanager
    def scripted(self, script: Script | Mapping[str, Any]) -> Iterator[ScriptedModel]:
        """Sessions started inside talk to a scripted model (scripted_model.md) on a loopback
        port of this process; outside, the base URL is the dead port again."""
        with ScriptedModel(script) as model:
            self.env["ANTHROPIC_BASE_URL"] = model.url
            try:
                yield model
            finally:
                self.env["ANTHROPIC_BASE_URL"] = OFFLINE_ENV["ANTHROPIC_BASE_URL"]

    def run(
        self,
        prompts: str | Sequence[str],
        *,
        resume: str | None = None,
        continue_: bool = False,
        fork: bool = False,
        retries: int = 0,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
    ) -> Run:
        """One headless session (`claude -p`). Several prompts are sent in one session through
        `--input-format stream-json`, as an SDK host would.

        `resume` (`--resume <id>`) or `continue_` (`--continue`: the latest session in this
        folder) go on with an earlier session; with `fork` (`--fork-session`) the client starts
        a new session from it instead, given an id of ours (`--session-id`). The session is the
        one the client says it ran (its JSON output's `session_id`)."""
        cmd = [str(self.client.binary), "-p", *args]
        session_id: str | None = None if continue_ and not fork else resume
        if fork:
            session_id = self.new_session_id()
            cmd += ["--fork-session", "--session-id", session_id]
        if continue_:
            cmd.append("--continue")
        elif resume:
            cmd += ["--resume", resume]
        else:
            session_id = self.new_session_id()
            cmd += ["--session-id", session_id]
        stdin: str | None = None
        if isinstance(prompts, str):
            cmd += ["--output-format", "json"] if continue_ or fork else []
            cmd.append(prompts)
        else:
            cmd += ["--input-format", "stream-json", "--output-format", "stream-json", "--verbose"]
            stdin = "".join(
                json.dumps({"type": "user", "message": {"role": "user", "content": p}}) + "\n"
                for p in prompts
            )
        proc = subprocess.run(
            cmd,
            cwd=self.repo,
            env=self.env | {"CLAUDE_CODE_MAX_RETRIES": str(retries)} | dict(env or {}),
            input=stdin,
            stdin=subprocess.DEVNULL if stdin is None else None,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )
        said = _reported_session(proc.stdout)
        if session_id is None:
            assert said, f"the client named no session: exit {proc.returncode}, {proc.stderr[-500:]}"
            session_id = said
        assert said in (None, session_id), (said, session_id)
        run = Run(
            session_id, self.transcript_path(session_id), proc.returncode, proc.stdout, proc.stderr
        )
        # Exit status 1 is the refused API call (0 with a scripted model); the session itself
        # must have been recorded.
        assert run.transcript.is_file(), (
            f"no transcript for session {session_id}: exit {proc.returncode}, {proc.stderr[-500:]}"
        )
        self.runs.append(run)
        return run

    def interactive(self, args: Sequence[str] = ()) -> Interactive:
        return Interactive(self, args)

    def _captures(self) -> list[int]:
        """The detached `git memory hook background-capture` processes of this home's
        transcripts (their argv names the transcript, under this test's config dir)."""
        marker = str(self.config_dir)
        return [
            pid
            for pid, argv in _processes()
            if "background-capture" in argv and any(marker in a for a in argv)
        ]

    def wait_for_captures(self, timeout: float = CAPTURE_TIMEOUT) -> None:
        """Until no detached `git memory hook background-capture` of this home's transcripts
        is left. The SessionEnd hook starts it before it returns, and the client waits for the
        hook, so once the client has exited the capture is either running or done."""
        wait_until(
            lambda: not self._captures(), "the background capture started by SessionEnd", timeout
        )

    def end_captures(self, timeout: float = CAPTURE_TIMEOUT) -> None:
        """After the test: stop the captures it left running and wait until they are gone (one
        would write into a removed tmp_path, or into the next test's copy of the golden state).
        Nothing reads what they would still write — a test that checks a capture waits for it
        with `wait_for_captures` first — so letting the last session's capture finish (~1 s of
        imports, transcript settling and extraction, in ~20 tests) only spent the machine's
        time."""
        for pid in self._captures():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGTERM)
        self.wait_for_captures(timeout)


class Interactive:
    """The full-screen client in a pseudo-terminal (pexpect), synchronised on what it writes to
    the transcript rather than on screen contents or sleeps."""

    def __init__(self, ws: Workspace, args: Sequence[str] = ()) -> None:
        import pexpect
        import pyte

        self.ws = ws
        self.session_id = ws.new_session_id()
        self._trust(ws)
        self.child = pexpect.spawn(
            str(ws.client.binary),
            ["--session-id", self.session_id, *args],
            cwd=str(ws.repo),
            env=ws.env | {"TERM": "xterm-256color", "COLUMNS": "200", "LINES": "40"},
            encoding="utf-8",
            timeout=RUN_TIMEOUT,
            dimensions=(40, 200),
        )
        log = os.environ.get("AGENT_MEMORY_IT_TTY_LOG")  # debugging: what the client drew
        if log:
            self.child.logfile_read = open(log, "a", encoding="utf-8")  # noqa: SIM115
        # What a person sees: the client redraws only the cells that change, so a word on
        # screen need not be a word in the byte stream (CI saw "shell m\x1b[1Cde" once "mode"
        # shared its "o" with the previous frame). A terminal emulator keeps the screen.
        self.screen = pyte.Screen(200, 40)
        self._stream = pyte.Stream(self.screen)
        # The prompt box is drawn: input is accepted from here on.
        self._until_drawn("❯", "the prompt box", RUN_TIMEOUT)

    @staticmethod
    def _trust(ws: Workspace) -> None:
        """What a person does once by hand: finish onboarding, accept the API key and trust the
        folder. Without it the first start tries to reach api.anthropic.com for onboarding and
        exits, or waits on a dialog."""
        path = ws.config_dir / ".claude.json"
        ws.config_dir.mkdir(parents=True, exist_ok=True)
        state = json.loads(path.read_text("utf-8")) if path.exists() else {}
        state.update(
            {
                "hasCompletedOnboarding": True,
                "theme": "dark",
                "lastOnboardingVersion": ws.client.version,
            }
        )
        # The "use this API key?" question, answered yes (the client keys it by the last 20
        # characters of the key).
        key = OFFLINE_ENV["ANTHROPIC_API_KEY"][-20:]
        state["customApiKeyResponses"] = {"approved": [key], "rejected": []}
        projects = state.setdefault("projects", {})
        for folder in {str(ws.repo), os.path.realpath(ws.repo)}:
            projects.setdefault(folder, {}).update(
                {"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True}
            )
        path.write_text(json.dumps(state, indent=2), "utf-8")

    @property
    def transcript(self) -> Path:
        return self.ws.transcript_path(self.session_id)

    def records(self) -> list[dict[str, Any]]:
        return read_records(self.transcript, growing=True) if self.transcript.exists() else []

    def _read(self, timeout: float) -> None:
        """Whatever the client drew within `timeout`, applied to the screen."""
        import pexpect

        try:
            self._stream.feed(self.child.read_nonblocking(65536, timeout=timeout))
        except pexpect.TIMEOUT:
            pass

    def _drain(self) -> None:
        # Keep reading the terminal so the client never blocks on a full pty buffer.
        self._read(0.05)

    def drawn(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def _shows(self, text: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while text not in self.drawn():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            self._read(min(0.25, remaining))
        return True

    def _until_drawn(self, text: str, what: str, timeout: float) -> None:
        if not self._shows(text, timeout):
            raise AssertionError(f"{what} ({text!r}) never appeared; the screen:\n{self.drawn()}")

    def _type(self, text: str) -> None:
        self.child.send(text)
        # Once the whole text is on screen it is all in the input box.
        self._until_drawn(text, f"the typed {text!r}", RUN_TIMEOUT)
        self.child.send("\r")

    def _until_records(self, what: str, predicate: Callable[[list[dict[str, Any]]], bool]) -> None:
        wait_until(lambda: predicate(self.records()), what, RUN_TIMEOUT, idle=self._drain)

    def prompt(self, text: str) -> None:
        """Type a prompt and wait until the turn is over (the refused API call is recorded)."""
        before = len(self.records())
        self._type(text)
        self._until_records(
            f"the answer to {text!r}",
            lambda rs: any(r.get("type") == "assistant" for r in rs[before:]),
        )

    def refuse(self, reason: str) -> None:
        """Answer the permission prompt on screen as a person who says no and why: move to
        "No", Tab to amend it, type the reason, Enter; wait until the refusal is recorded."""
        self._until_drawn("Do you want to proceed?", "the permission prompt", RUN_TIMEOUT)
        for _ in range(8):
            chosen = [ln for ln in self.drawn().splitlines() if re.search(r"❯ \d+\. ", ln)]
            if chosen and re.search(r"❯ \d+\. No\b", chosen[-1]):
                break
            self.child.send("\x1b[B")  # down
            self._read(0.3)
        else:
            raise AssertionError(f"no 'No' option to choose; the screen:\n{self.drawn()}")
        self.child.send("\t")
        self._until_drawn("tell Claude what to do differently", "the amend field", RUN_TIMEOUT)
        before = len(self.records())
        self.child.send(reason)
        self._until_drawn(reason, f"the typed {reason!r}", RUN_TIMEOUT)
        self.child.send("\r")

        def answered(records: list[dict[str, Any]]) -> bool:
            kinds = [r.get("type") for r in records[before:]]
            marks = [i for i, r in enumerate(records[before:]) if r.get("toolDenialKind")]
            return bool(marks) and "assistant" in kinds[marks[0] :]

        self._until_records("the refusal and the model's next turn", answered)

    def shell(self, command: str) -> None:
        """`!` switches the prompt to shell mode: the command runs without the model, and its
        input and output are recorded as `user` records."""
        before = len(self.records())
        self._enter_shell_mode()
        self._type(command)
        self._until_records(
            f"the output of {command!r}",
            lambda rs: any(r.get("type") == "assistant" for r in rs[before:]),
        )

    def _enter_shell_mode(self, attempts: int = 5) -> None:
        """Type `!` until the prompt says it is in shell mode. A `!` typed while the client is
        still finishing the last turn can be taken as text, so it is taken back and typed
        again."""
        for _ in range(attempts):
            self.child.send("!")
            if self._shows("shell mode", SHELL_MODE_WAIT):
                return
            self.child.send("\x7f")  # backspace: the `!` did not switch modes
        raise AssertionError(f"the client never entered shell mode; the screen:\n{self.drawn()}")

    def exit(self) -> int:
        """`/exit`: SessionEnd fires with reason `prompt_input_exit`, as when a person quits."""
        import pexpect

        self._type("/exit")
        self.child.expect(pexpect.EOF)
        self.child.close()
        return int(self.child.exitstatus or 0)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


# --- recording fixtures ----------------------------------------------------------------------


def _elide(value: Any, limit: int) -> Any:
    if isinstance(value, str) and len(value) > limit:
        return ELIDED.format(n=len(value))
    if isinstance(value, list):
        return [_elide(v, limit) for v in value]
    if isinstance(value, dict):
        return {k: _elide(v, limit) for k, v in value.items()}
    return value


def sanitize(text: str, replacements: Sequence[tuple[str, str]]) -> str:
    for old, new in replacements:
        text = text.replace(old, new)
    return text


def record_fixture(ws: Workspace, transcript: Path, dest_root: Path) -> Path:
    """Copy one transcript into the fixtures: machine paths replaced by neutral ones (longest
    first), harness text elided, one JSON object per line exactly as the client wrote it."""
    neutral_home = "/home/user"
    neutral_repo = f"{neutral_home}/{ws.repo.name}"
    pairs: list[tuple[str, str]] = []
    # The pytest base directory last: anything else of ours under it (a plugin copy, the
    # TMPDIR a golden state's sessions had) too. A golden state's home is not directly in it.
    base = ws.tmp.parent.parent
    known = (
        (ws.repo, neutral_repo),
        (ws.home, neutral_home),
        (ws.tmp, "/tmp"),
        (ws.home.parent, "/tmp/work"),
        (base, "/tmp/work"),
    )
    for real, neutral in known:
        for form in {str(real), os.path.realpath(real)}:
            pairs.append((form, neutral))
            pairs.append((slug_for(form), slug_for(neutral)))
    pairs.sort(key=lambda p: len(p[0]), reverse=True)
    lines = []
    for raw in transcript.read_text("utf-8").splitlines():
        if raw.strip():
            record = json.loads(sanitize(raw, pairs))
            harness = record_kind(record) in HARNESS_KINDS
            record = _elide(record, HARNESS_ELIDE_OVER if harness else ELIDE_OVER)
            lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    text = "\n".join(lines) + "\n"
    machine = (str(ws.home.parent), str(base), f"{real_home()}/", str(ws.client.prefix))
    leaks = [s for s in machine if s in text]
    assert not leaks, f"machine paths left in {transcript.name}: {leaks}"
    # Where it sits under the client's project folder (a subagent's: `<session>/subagents/`).
    project = next(p for p in transcript.parents if p.parent.name == "projects")
    dest = dest_root / slug_for(neutral_repo) / transcript.relative_to(project)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(text, "utf-8")
    return dest


def real_home() -> str:
    """The account's home whatever HOME says (the tests point HOME at a temporary one)."""
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError):
        return os.path.expanduser("~")


def fixture_dir(version: str) -> Path:
    return FIXTURES / f"client-{version}"


def git_memory_next_to_python() -> Path:
    """The `git-memory` of the interpreter running the tests (CI installs the project into the
    venv before pytest); the Claude Code hooks find it on PATH."""
    name = "git-memory.exe" if os.name == "nt" else "git-memory"
    return Path(sys.executable).parent / name


# Not part of the plugin, and large or machine-specific: left out of the copy we validate.
_NOT_PLUGIN = (
    ".git",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    "*.egg-info",
    "build",
    "dist",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
)


def copy_plugin_root(dest: Path) -> Path:
    """The repository as a plugin directory (it is one: `.claude-plugin/` at the top), copied
    so that nothing the client does can touch the checkout."""
    shutil.copytree(ROOT, dest, symlinks=True, ignore=shutil.ignore_patterns(*_NOT_PLUGIN))
    return dest
