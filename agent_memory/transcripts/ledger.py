"""Which transcripts of this project have been captured: `.git/agent-memory/captured.log`.

One line per capture, appended with O_APPEND (concurrent background captures lose no line):
`<size> <mtime_ns> <path>`. A transcript counts as captured when its current size and mtime
match its latest line: a session that went on after its capture is "not captured yet" again.
Local state, never committed. `git memory status` reports how many of this project's
transcripts are not captured yet (issue 16); a transcript whose session already appears in
`memory/atoms` counts as captured too, so a store captured before this ledger existed is not
reported as a backlog.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from agent_memory.gitio.state import atomic_write, state_dir
from agent_memory.transcripts.reader import is_subagent_file

LEDGER_NAME = "captured.log"
# Past this many lines the ledger is rewritten with the latest line per transcript.
_COMPACT_AT = 5000


def ledger_path(common_dir: str | os.PathLike[str]) -> Path:
    return state_dir(common_dir) / LEDGER_NAME


def _signature(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def captured(common_dir: str | os.PathLike[str]) -> dict[str, tuple[int, int]]:
    """path → (size, mtime_ns) at its latest capture."""
    path = state_dir(common_dir, create=False) / LEDGER_NAME
    try:
        text = path.read_text("utf-8", errors="replace")
    except OSError:
        return {}
    out: dict[str, tuple[int, int]] = {}
    for line in text.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit():
            out[parts[2]] = (int(parts[0]), int(parts[1]))
    return out


def mark_captured(common_dir: str | os.PathLike[str], transcript: str | os.PathLike[str]) -> None:
    """Record that `transcript` was captured as it is now. Never raises: a ledger is a report."""
    try:
        path = Path(transcript).absolute()
        sig = _signature(path)
        if sig is None or "\n" in str(path):
            return
        ledger = ledger_path(common_dir)
        fd = os.open(ledger, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, f"{sig[0]} {sig[1]} {path}\n".encode("utf-8", "surrogateescape"))
        finally:
            os.close(fd)
        if ledger.stat().st_size > _COMPACT_AT * 120:
            _compact(common_dir)
    except Exception:  # noqa: BLE001 - the capture itself succeeded; the ledger only reports
        return


def _compact(common_dir: str | os.PathLike[str]) -> None:
    latest = captured(common_dir)
    atomic_write(ledger_path(common_dir),
                 "".join(f"{s} {m} {p}\n" for p, (s, m) in sorted(latest.items())))  # fmt: skip


def not_captured(
    common_dir: str | os.PathLike[str], transcripts: Sequence[Path], known_sessions: Iterable[str]
) -> list[Path]:
    """The main session transcripts (not subagent files, whose prompts are never the user's)
    that no capture has read as they are now."""
    done = captured(common_dir)
    sessions = set(known_sessions)
    out = []
    for transcript in transcripts:
        if is_subagent_file(transcript):
            continue
        if done.get(str(transcript.absolute())) == _signature(transcript):
            continue
        if transcript.stem in sessions and str(transcript.absolute()) not in done:
            continue  # captured before the ledger existed: its session is in memory/atoms
        out.append(transcript)
    return out
