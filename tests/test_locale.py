"""A terminal whose locale is not UTF-8 (LC_ALL=C without Python's UTF-8 mode, a latin-1 or
cp1252 console, PYTHONIOENCODING=ascii): every verb that prints, reads git or commits a claim
the locale cannot encode still works — through the installed `git memory`, real git, and the
installed git hooks at adopt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import git
from sessions import gm

CLAIM = "Prefer the café naming — 日本語 ok 🎉"


def run_in_locale(repo: Path, *args: str, **locale: str) -> subprocess.CompletedProcess[bytes]:
    """`git memory ARGS` as a process of its own in the locale `locale` names (bytes out)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "PYTHONUTF8", "LANG", "LC_ALL")}
    env.update(locale)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return subprocess.run(["git", "memory", *args], cwd=str(repo), capture_output=True, env=env)


def _ok(proc: subprocess.CompletedProcess[bytes], encoding: str = "ascii") -> str:
    assert proc.returncode == 0, proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")
    assert b"internal error" not in proc.stderr
    return proc.stdout.decode(encoding)  # nothing the locale cannot encode reached the stream raw


C_LOCALE = {"LC_ALL": "C", "PYTHONUTF8": "0"}  # Python's strict ASCII: argv, git's output, stdout


def test_verbs_print_read_and_commit_a_claim_the_locale_cannot_encode(repo: Path) -> None:
    gm(repo, "init", "--yes")
    gm(repo, "remember", CLAIM)
    [atom] = json.loads(gm(repo, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]
    ident = atom["id"]

    assert "caf\\u00e9 naming \\u2014" in _ok(run_in_locale(repo, "inspect", "--tier", "L1", **C_LOCALE))
    shown = json.loads(_ok(run_in_locale(repo, "inspect", "--tier", "L1", "--output", "json", **C_LOCALE)))
    assert [a["claim"] for a in shown["atoms"]] == [CLAIM]  # valid JSON, the same text
    _ok(run_in_locale(repo, "status", **C_LOCALE))
    _ok(run_in_locale(repo, "forget", "-h", **C_LOCALE))

    # adopt commits the claim through `git commit` and the installed guard: the message is UTF-8
    _ok(run_in_locale(repo, "adopt", "--all", **C_LOCALE))
    assert git(repo, "log", "-1", "--format=%s").strip() == f"memory: adopt {CLAIM}"
    assert CLAIM in (repo / "CLAUDE.memory.md").read_text("utf-8")
    history = _ok(run_in_locale(repo, "log", ident, **C_LOCALE))  # reads git's UTF-8 output
    assert "adopt" in history

    # forget names the claim in the memory/atoms reflog (`git update-ref -m` in argv)
    _ok(run_in_locale(repo, "forget", ident, **C_LOCALE))
    assert CLAIM not in (repo / "CLAUDE.memory.md").read_text("utf-8")
    assert CLAIM in git(repo, "reflog", "-1", "--format=%gs", "refs/heads/memory/atoms")


def test_an_ascii_stdout_in_a_utf8_locale_still_gets_valid_json(repo: Path) -> None:
    gm(repo, "init", "--yes")
    gm(repo, "remember", CLAIM)
    text = _ok(run_in_locale(repo, "show", PYTHONIOENCODING="latin-1"), "latin-1")
    assert "café naming \\u2014 \\u65e5\\u672c\\u8a9e" in text
    shown = json.loads(_ok(run_in_locale(repo, "promote", "--output", "json", PYTHONIOENCODING="ascii")))
    assert shown["eligible"] or shown["blocked"]
