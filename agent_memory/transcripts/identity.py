"""One transcript's identity, worked out once per transcript and handed to everything that
names it: the file read, the canonical back-pointer its atoms carry, where it
sits on this machine (kept next to the pointer in the local-only L1 evidence), and the session
its file name gives (a record's own `sessionId`, or a caller's override, still wins).
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from agent_memory.model.paths import (
    canonical_pointer,
    session_from_filename,
    slug_for,
    transcript_slug_and_name,
)

_SESSION_SAFE = re.compile(r"[^A-Za-z0-9._-]")


def safe_session(value: str) -> str:
    """A session id usable in `sessions` (schema: `[A-Za-z0-9._-]+`)."""
    return _SESSION_SAFE.sub("-", value.strip()) or "unknown"


@dataclass(frozen=True)
class Transcript:
    path: Path  # what is read, as given (absolute when it came from `of`)
    pointer: str  # `~/.claude/projects/<slug>/<file>.jsonl`, the back-pointer without `#L<n>`
    local: str | None  # where it is here: `~/`-relative under the home directory, else absolute
    session: str  # from the file name

    @classmethod
    def of(cls, path: str | os.PathLike[str] | Transcript) -> Transcript:
        if isinstance(path, Transcript):
            return path
        text = os.fspath(path)
        pointer = _origin_pointer(text) or canonical_pointer(text, 1).rpartition("#")[0]
        return cls(Path(text), pointer, _local_path(text), safe_session(session_from_filename(text)))

    def at(self, line: int) -> str:
        """The back-pointer to one line."""
        return f"{self.pointer}#L{int(line)}"




class NotRegularFile(OSError):
    """The path opened is a FIFO, a device or a directory (or a link to one)."""


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


def _origin_pointer(transcript: str, max_lines: int = 200) -> str | None:
    """For a transcript outside any `projects/<slug>/` folder (a copy, an export): the pointer of
    the file it is a copy of, `~/.claude/projects/<slug of its recorded cwd>/<its recorded
    session>.jsonl` (a subagent's file keeps its name), from its first records. Taken from the
    folder it sits in, the pointer named a project folder that never existed
    (`~/.claude/projects/backup/…`). None inside a `projects/` folder, or when nothing is
    recorded (the folder is then all there is to go by)."""
    parts = Path(transcript.replace("\\", "/")).parts
    if "projects" in parts[:-1]:
        return None
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
                except ValueError:
                    continue  # a torn or oversized line: the next one may say
                if not isinstance(record, dict):
                    continue
                if isinstance(record.get("cwd"), str) and record["cwd"]:
                    cwd = record["cwd"]
                    found = record.get("sessionId")
                    session = safe_session(found) if isinstance(found, str) and found.strip() else None
                    break
    except OSError:
        return None
    if cwd is None:
        return None
    _, name = transcript_slug_and_name(transcript)
    if session is not None and not name.startswith("agent-"):
        name = f"{session}.jsonl"
    return f"~/.claude/projects/{slug_for(cwd)}/{name}"


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
