"""A writer killed mid-write leaves its temporary file. `replace_text`'s (the fold a hook saves)
was swept by the next save; `atomic_write`'s (the capture ledger, the recall index, errors.log,
a queued batch, the settings and git hooks init writes) stayed for ever, one per kill, as big as
what was being written. Killed for real here: the writer's file size limit (RLIMIT_FSIZE) ends
it with SIGXFSZ in the middle of its write."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sessions import gm

from agent_memory.gitio import repo as gitrepo
from agent_memory.store.l1 import L1Store

LIMIT = 64 << 10

KILLED_WRITER = """
import resource, signal, sys
from pathlib import Path
from agent_memory.gitio.state import atomic_write
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # Python ignores it: the kernel's kill, as for any program
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
atomic_write(Path(sys.argv[1]), b"x" * ({limit} * 4))
"""


def killed_mid_write(target: Path) -> Path:
    """The temporary file an atomic_write of `target` left when its process was killed in the
    middle of the write, made a minute old (what the sweep waits for)."""
    before = set(target.parent.iterdir()) if target.parent.is_dir() else set()
    proc = subprocess.run([sys.executable, "-c", KILLED_WRITER.format(limit=LIMIT), str(target)],
                          capture_output=True, check=False)  # fmt: skip
    assert proc.returncode == -signal.SIGXFSZ, proc
    left = [p for p in set(target.parent.iterdir()) - before if p.name != target.name]
    assert len(left) == 1 and left[0].stat().st_size == LIMIT, left
    old = time.time() - 3600
    os.utime(left[0], (old, old))
    return left[0]


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ") or os.name == "nt", reason="kills the writer with SIGXFSZ")
def test_the_temporary_files_of_killed_atomic_writes_are_swept_by_the_next_write(repo: Path) -> None:
    gm(repo, "init", "--yes", "--no-claude-hooks")
    state = repo / ".git" / "agent-memory"
    ledger = killed_mid_write(state / "captured.log")
    logged = killed_mid_write(state / "errors.log")
    store = L1Store(gitrepo.find_repo(repo))
    queued = killed_mid_write(store.enqueue([], "a first batch").parent / "0-1-deadbeef.json")
    # one whose writer is alive (this process), and one just written, stay
    live = state / f".recall-index.{os.getpid()}.abcdefgh.tmp"
    live.write_bytes(b"x")
    os.utime(live, (time.time() - 3600,) * 2)
    fresh = state / f".captured.log.{_gone_pid()}.abcdefgh.tmp"
    fresh.write_bytes(b"x")

    gm(repo, "remember", "Never push to main")  # writes the ledger and the recall index
    assert not ledger.exists() and not logged.exists()
    assert live.exists() and fresh.exists()
    store.enqueue([], "a second batch")  # a queue file's name is written once: the next batch sweeps
    assert not queued.exists()


def _gone_pid() -> int:
    gone = subprocess.Popen(["git", "--version"], stdout=subprocess.DEVNULL)
    gone.wait()
    return gone.pid
