"""Belt and braces: when `gitleaks` is on PATH, `git memory scan` may also run it over
the memory files and refuse what it reports. Never required, never slower when absent: the
only cost then is one PATH lookup, made once per process.

`gitleaks_scan(path, text)` returns one GuardFinding per gitleaks finding (rule
``gitleaks:<rule id>``, the line gitleaks reports), [] when gitleaks finds nothing, and None
when gitleaks is not installed or did not run (a crash, a timeout): the caller then relies on
our guard alone, which has already run.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import tempfile
from pathlib import Path

from agent_memory.model.programs import program
from agent_memory.redact.guard import GuardFinding


@functools.cache
def gitleaks_binary() -> str | None:
    """`gitleaks` in an absolute folder of PATH (model/programs.py: the scan runs in the work
    tree, where `.` or an empty PATH entry would find a `gitleaks` the repository commits),
    unless AGENT_MEMORY_GITLEAKS=0 turns the second opinion off."""
    if os.environ.get("AGENT_MEMORY_GITLEAKS", "1") == "0":
        return None
    return program("gitleaks")


def gitleaks_scan(path: str, text: str, timeout: float = 20.0) -> list[GuardFinding] | None:
    binary = gitleaks_binary()
    if binary is None:
        return None
    with tempfile.TemporaryDirectory(prefix="agent-memory-gitleaks-") as tmp:
        target = Path(tmp, "in")
        target.mkdir()
        # the file's own name, so gitleaks' path rules see what they would in the repository
        name = Path(path.replace("\\", "/")).name or "memory.txt"
        (target / name).write_text(text, "utf-8")
        report = Path(tmp, "report.json")
        try:
            proc = subprocess.run(
                [binary, "dir", str(target), "--no-banner", "--exit-code", "0", "-l", "error"]
                + ["--report-format", "json", "--report-path", str(report)],
                capture_output=True,
                timeout=timeout,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        if proc.returncode != 0 or not report.exists():
            return None
        try:
            found = json.loads(report.read_text("utf-8") or "[]")
        except ValueError:
            return None
    out = {
        GuardFinding(path, int(f.get("StartLine") or 1), f"gitleaks:{f.get('RuleID', 'unknown')}")
        for f in found
        if isinstance(f, dict)
    }
    return sorted(out, key=lambda f: (f.line, f.rule))
