"""The optional second opinion (issue 15): gitleaks, when installed, over a memory file.
Never required: absent, the scan returns None at the cost of one PATH lookup."""

from __future__ import annotations

import random
import shutil
import string
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_memory.redact import external


@pytest.fixture(autouse=True)
def _fresh_lookup() -> Iterator[None]:
    external.gitleaks_binary.cache_clear()
    yield
    external.gitleaks_binary.cache_clear()


def test_absent_gitleaks_is_none(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert external.gitleaks_scan("CLAUDE.memory.md", "- Use pnpm\n") is None
    monkeypatch.setenv("AGENT_MEMORY_GITLEAKS", "0")
    assert external.gitleaks_binary() is None


def test_a_gitleaks_the_repository_commits_is_never_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The scan runs in the work tree (the commit guard's): with `.` or an empty entry on PATH,
    `shutil.which` found a `gitleaks` the cloned repository commits (git keeps its mode)."""
    ran = tmp_path / "ran"
    fake = tmp_path / "gitleaks"
    fake.write_text(f"#!/bin/sh\ntouch '{ran}'\n")
    fake.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    for path in (".", "", f"{tmp_path / 'nothing-here'}:"):
        external.gitleaks_binary.cache_clear()
        monkeypatch.setenv("PATH", path)
        assert external.gitleaks_binary() is None
        assert external.gitleaks_scan("CLAUDE.memory.md", "- Use pnpm\n") is None
    assert not ran.exists()


def _gitleaks_dir() -> str | None:
    beside = Path(sys.executable).parent / "gitleaks"
    found = str(beside) if beside.exists() else shutil.which("gitleaks")
    return str(Path(found).parent) if found else None


@pytest.mark.skipif(_gitleaks_dir() is None, reason="gitleaks is not installed (optional)")
def test_gitleaks_findings_become_guard_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(_gitleaks_dir()))
    rng = random.Random(3)
    token = (
        "gh" + "p_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))
    )
    found = external.gitleaks_scan("CLAUDE.memory.md", f"- Use pnpm\n- Deploy with {token}\n")
    assert found is not None
    assert [(f.line, f.rule.startswith("gitleaks:")) for f in found] == [(2, True)]
    assert external.gitleaks_scan("CLAUDE.memory.md", "- Use pnpm\n") == []
