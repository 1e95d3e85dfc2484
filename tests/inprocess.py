"""Run `git memory` in the test process: `agent_memory.cli.main.main(argv)` with what a process
of its own would have had to itself, and nothing left behind for the next call or test.

Per call: the working directory, the environment (plus the caller's additions), empty or given
stdin, and stdout/stderr captured at the file-descriptor level, so the output of the git
processes and hooks a verb starts is captured as it would be from a real process. Afterwards
everything a process exit would have dropped is dropped: the cached pygit2 repositories and
GitPython repositories (keyed by path, holding file handles and `git cat-file` processes), the
checkout the call worked in (model/checkout.py), the cache of what is on PATH, a wall-clock alarm a background capture arms for itself, and the
signal handlers the CLI installs.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

# Set to 1 to send every `gm` through the installed launcher instead (a check of this module:
# the suite must pass both ways).
INSTALLED_ENV = "AGENT_MEMORY_TEST_INSTALLED"


def run_main(
    cwd: Path, argv: list[str], *, input_text: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`git memory ARGV` in `cwd`, as subprocess.run(..., capture_output=True, text=True) would
    report it."""
    proc = run_main_bytes(cwd, argv, stdin=(input_text or "").encode("utf-8"), env=env)
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, _text(proc.stdout), _text(proc.stderr)
    )


def run_main_bytes(
    cwd: Path | None, argv: list[str], *, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The same with bytes in and out, as subprocess.run(..., capture_output=True) reports it;
    `cwd` None: this process's."""
    from agent_memory.cli.main import main

    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_handlers = {sig: signal.getsignal(sig) for sig in _SIGNALS}
    out: list[bytes] = []
    _forget_repositories()  # as a new process starts: nothing opened by the test before
    try:
        os.environ.update(env or {})
        os.chdir(cwd or saved_cwd)
        with _captured(stdin, out):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse's usage errors and --help, a verb's sys.exit
                code = _exit_code(exc)
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        _drop_process_state(saved_handlers)
    return subprocess.CompletedProcess(["git", "memory", *argv], code, out[0], out[1])


_SIGNALS = tuple(
    s for s in (getattr(signal, "SIGALRM", None), signal.SIGINT, signal.SIGTERM) if s is not None
)


@contextlib.contextmanager
def _captured(stdin: bytes, out: list[bytes]) -> Iterator[None]:
    """fds 0, 1 and 2 pointed at temporary files for the duration, and sys.stdin/stdout/stderr
    at text streams over them (with `.buffer`, as the CLI writes bytes in places); what was
    written to fds 1 and 2 is appended to `out`."""
    streams = (sys.stdin, sys.stdout, sys.stderr)
    for stream in streams[1:]:
        stream.flush()
    with contextlib.ExitStack() as stack:
        files = [stack.enter_context(tempfile.TemporaryFile()) for _ in range(3)]
        files[0].write(stdin)
        files[0].seek(0)
        saved = [os.dup(fd) for fd in (0, 1, 2)]
        try:
            for fd, file in enumerate(files):
                os.dup2(file.fileno(), fd)
            sys.stdin = _stream(0, "rb")
            sys.stdout = _stream(1, "wb")
            sys.stderr = _stream(2, "wb")
            yield
        finally:
            for stream in (sys.stdin, sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
                with contextlib.suppress(Exception):
                    stream.close()
            sys.stdin, sys.stdout, sys.stderr = streams
            for fd, copy in enumerate(saved):
                os.dup2(copy, fd)
                os.close(copy)
            out.extend(_read(file) for file in files[1:])


def _stream(fd: int, mode: str) -> io.TextIOWrapper:
    """A text stream over a copy of `fd`. Unbuffered for output, as stderr is: what the verb
    prints interleaves with what its child processes write to the same descriptor in the order
    it happened."""
    return io.TextIOWrapper(open(os.dup(fd), mode), encoding="utf-8", write_through=True)  # noqa: SIM115


def _read(file: IO[bytes]) -> bytes:
    file.seek(0)
    return file.read()


def _text(data: bytes) -> str:
    # subprocess.run(text=True) decodes with universal newlines.
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


def _drop_process_state(handlers: dict[int, object]) -> None:
    if hasattr(signal, "SIGALRM"):
        signal.alarm(0)
    for sig, handler in handlers.items():
        if handler is not None:  # None: set outside Python, nothing of ours to undo
            signal.signal(sig, handler)  # type: ignore[arg-type]
    _forget_repositories()


def _forget_repositories() -> None:
    from agent_memory.gitio import repo as gitio_repo
    from agent_memory.model.checkout import clear_work_tree

    clear_work_tree()  # the checkout this "process" worked in (model/checkout.py)

    for pg in gitio_repo._REPO_CACHE.values():
        pg.free()
    gitio_repo._REPO_CACHE.clear()
    gitio_repo._SOUND.clear()  # objects checked, and object folders read, by this "process"
    gitio_repo._OBJECT_DIRS.clear()
    for porcelain in gitio_repo._GITPYTHON_REPOS.values():
        porcelain.close()
    gitio_repo._GITPYTHON_REPOS.clear()
