"""One transcript's identity, worked out once per transcript and handed to everything that
names it: the file read, the canonical back-pointer its atoms carry, where it
sits on this machine (kept next to the pointer in the local-only L1 evidence), and its session.

The session is the one its records name (`sessionId`, what Claude Code wrote): a transcript
renamed away from `<session>.jsonl`, or copied elsewhere, keeps it, and its back-pointer names
that session's file, so an atom's `sessions` and its back-pointers agree (`validate` checks
it, reading the cited line where a file holds more than one session's records). Only when the records name none does a caller's session (`capture --session`), else
the file name, say it. A subagent's file (`agent-*.jsonl`) keeps its own name, and so does a
file named as Claude Code names a session's (`<uuid>.jsonl`) whose records name a session
(then they are Claude Code's): a file that opens with an earlier session's records (their
`sessionId` the old one) and goes on under its own is cited by its own name, and the line
numbers a back-pointer carries are this file's, not the old one's. (Reported for some client
versions; 2.1.332 writes no such file: `--resume` and `--continue` append to the session's own
file, and `--fork-session` copies the earlier records under the new id —
tests/integration/test_client_resume.py.)
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from agent_memory.model.errors import NotRegularFile as NotRegularFile  # re-exported
from agent_memory.model.paths import (
    session_from_filename,
    slug_for,
    transcript_slug_and_name,
)

_SESSION_SAFE = re.compile(r"[^A-Za-z0-9._-]")
# How Claude Code names a session and its transcript (`<uuid>.jsonl`).
_SESSION_FILE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\.jsonl")


def safe_session(value: str) -> str:
    """A session id usable in `sessions` (schema: `[A-Za-z0-9._-]+`)."""
    return _SESSION_SAFE.sub("-", value.strip()) or "unknown"


@dataclass(frozen=True)
class Transcript:
    path: Path  # what is read, as given (absolute when it came from `of`)
    pointer: str  # `~/.claude/projects/<slug>/<file>.jsonl`, the back-pointer without `#L<n>`
    local: str | None  # where it is here: `~/`-relative under the home directory, else absolute
    session: str  # the records' session, else the caller's, else the file name's
    recorded: str | None = None  # the session its first records name (None: they name none)

    @classmethod
    def of(cls, path: str | os.PathLike[str] | Transcript, session: str | None = None) -> Transcript:
        """The identity of the transcript at `path`; `session` names it only when its records
        name no session (theirs wins: see `recorded` for a caller that must refuse a mismatch)."""
        if isinstance(path, Transcript):
            return path
        text = os.fspath(path)
        cwd, recorded = recorded_head(text)
        sid = recorded or (safe_session(session) if session and session.strip() else None)
        slug, name = transcript_slug_and_name(text)
        if "projects" not in Path(text.replace("\\", "/")).parts[:-1] and cwd is not None:
            # a copy outside any `projects/<slug>/` folder (an export, a backup): the folder it
            # sits in is no project folder Claude Code ever had
            slug = slug_for(cwd)
        if sid is not None and not name.startswith("agent-") and not (recorded and _SESSION_FILE.fullmatch(name)):
            name = f"{sid}.jsonl"  # renamed away from its session's name: cited by that name
        sid = sid or safe_session(session_from_filename(text))
        return cls(Path(text), f"~/.claude/projects/{slug}/{name}", _local_path(text), sid, recorded)

    def at(self, line: int) -> str:
        """The back-pointer to one line."""
        return f"{self.pointer}#L{int(line)}"




def open_regular_fd(path: str | os.PathLike[str]) -> tuple[int, int]:
    """(descriptor, size) of a transcript opened for reading only if it is a regular file,
    checked on the open file itself (no gap between a check and the open): a FIFO, a device
    such as /dev/zero or a directory raises NotRegularFile (an OSError) instead of blocking
    or spinning."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(f"{os.fspath(path)} is not a regular file")
        return fd, info.st_size
    except BaseException:
        os.close(fd)
        raise


def recorded_head(transcript: str | os.PathLike[str], max_lines: int = 200) -> tuple[str | None, str | None]:
    """(cwd, session) the first records of a transcript name, each None when they name none
    (or the file cannot be read: reading it then says why). The one reader of a transcript's
    head: where it was recorded (transcripts/owner.py, files.py) and whose session it is."""
    cwd = session = None
    try:
        # Not a plain open(): a FIFO would block it until a writer came (never), and the
        # extraction after this refuses anything but a regular file anyway.
        with os.fdopen(open_regular_fd(transcript)[0], "rb") as fh:
            for _ in range(max_lines):
                raw = fh.readline(1 << 20)
                if not raw:
                    break
                try:
                    record = json.loads(raw)
                except (ValueError, RecursionError):  # (nested deeper than json's scanner recurses)
                    continue  # a torn or oversized line: the next one may say
                if not isinstance(record, dict):
                    continue
                found = record.get("sessionId")
                if session is None and isinstance(found, str) and found.strip():
                    session = safe_session(found)
                if cwd is None and isinstance(record.get("cwd"), str) and record["cwd"]:
                    cwd = record["cwd"]
                if cwd is not None and session is not None:
                    break
    except OSError:
        pass
    return cwd, session


def _local_path(transcript: str) -> str | None:
    """None when the path itself would need redaction (a user name outside this home): the
    canonical pointer and CLAUDE_CONFIG_DIR still resolve it."""
    from agent_memory.redact.redactor import redact

    try:
        path = Path(transcript).expanduser().resolve()
    except (OSError, RuntimeError):
        return None
    home = Path(os.path.expanduser("~"))
    try:
        home = home.resolve()
    except (OSError, RuntimeError):
        pass
    text = path.as_posix()
    if home != Path(home.anchor) and home in path.parents:
        text = "~/" + path.relative_to(home).as_posix()
    # The slug and file name are in the canonical pointer already: only the rest is checked.
    slug, name = transcript_slug_and_name(text)
    prefix = text.replace(slug, "").replace(name, "")
    return None if len(text) > 4096 or redact(prefix)[1] else text
