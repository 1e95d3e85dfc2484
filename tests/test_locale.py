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
from sessions import gm, gm_json

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


# --- bytes that are not UTF-8: a folder's name, an argument ---------------------------------------


def test_a_repository_in_a_folder_whose_name_is_not_utf8(tmp_path: Path) -> None:
    """A folder unpacked from an old archive (`café` in latin-1): init failed half-way (an
    internal error writing the global registry, after storing the raw byte in memory.project),
    and from then on every verb ended in an internal error reading that config value."""
    folder = tmp_path / os.fsdecode(b"caf\xe9")
    folder.mkdir()
    git(folder, "init", "-q")
    git(folder, "commit", "-q", "--allow-empty", "-m", "init")
    gm(folder, "init", "--yes")
    assert git(folder, "config", "memory.project").strip() == "caf\ufffd"  # stored as UTF-8 text
    gm(folder, "status")
    gm(folder, "remember", "Prefer ruff over flake8 here")
    gm(folder, "adopt", "--all")
    assert "Prefer ruff over flake8 here" in gm(folder, "context").stdout
    registry = Path(os.environ["AGENT_MEMORY_HOME"]) / "projects.json"
    [entry] = json.loads(registry.read_bytes().decode("utf-8"))["projects"]  # a UTF-8 file
    assert Path(entry["path"]) == folder.resolve()  # the same bytes back


def test_a_memory_project_written_as_raw_bytes_is_read_as_text(repo: Path) -> None:
    gm(repo, "init", "--yes")
    config = repo / ".git" / "config"
    config.write_bytes(config.read_bytes().replace(b"project = proj", b"project = pr\xf6j"))
    assert gm_json(repo, "status")["project"] == "pr\ufffdj"
    gm(repo, "remember", "Prefer ruff over flake8 here")


def test_arguments_that_are_not_utf8_are_bad_input(repo: Path) -> None:
    """`git memory remember $'caf\\xff'`: an internal error; init --project stored the raw byte."""
    proc = gm(repo, "init", "--yes", "--project", "p\udcff", check=False)
    assert proc.returncode == 2 and "not UTF-8" in proc.stderr and "hint:" in proc.stderr, proc.stderr
    assert git(repo, "config", "--get", "memory.project", check=False).strip() == ""
    gm(repo, "init", "--yes")
    proc = gm(repo, "remember", "caf\udcff rules", check=False)
    assert proc.returncode == 2 and "not UTF-8" in proc.stderr and "hint:" in proc.stderr, proc.stderr
    assert gm_json(repo, "inspect", "--tier", "L1")["atoms"] == []


def test_utf8_typed_in_a_c_locale_is_the_text_typed(tmp_path: Path) -> None:
    """LC_ALL=C without Python's UTF-8 mode: Python holds the bytes of a UTF-8 terminal's `über`
    as lone surrogates. `remember "… über …"` was refused as "bytes that are not UTF-8 text"
    (they are), and `init` in a folder named `日本` (or with `--project 日本語`) ended in an
    internal error writing memory.project. Both are the text typed now."""
    folder = tmp_path / "日本"
    folder.mkdir()
    git(folder, "init", "-q")
    git(folder, "commit", "-q", "--allow-empty", "-m", "init")
    _ok(run_in_locale(folder, "init", "--yes", **C_LOCALE))
    assert git(folder, "config", "memory.project").strip() == "日本"
    _ok(run_in_locale(folder, "remember", CLAIM, **C_LOCALE))
    [atom] = gm_json(folder, "inspect", "--tier", "L1")["atoms"]
    assert atom["claim"] == CLAIM and atom["project"] == "日本"
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    git(other, "commit", "-q", "--allow-empty", "-m", "init")
    _ok(run_in_locale(other, "init", "--yes", "--project", "日本語", **C_LOCALE))
    assert git(other, "config", "memory.project").strip() == "日本語"


def test_words_typed_in_a_c_locale_find_their_atom(repo: Path) -> None:
    """`inspect --why über` and `recall über` in LC_ALL=C without Python's UTF-8 mode matched
    the surrogates Python held for the bytes typed: "no atom matches '\\udcc3\\udcbcber'"."""
    from sessions import write_session

    gm(repo, "init", "--yes")
    write_session(repo, "eeeeeeee-0000-4000-8000-000000000001", "2026-11-01",
                  [{"user": "Always format the Straße module with black before committing."}])
    gm(repo, "capture", "--all", "--no-stage")
    [atom] = gm_json(repo, "inspect", "--tier", "L1")["atoms"]
    found = json.loads(_ok(run_in_locale(repo, "inspect", "--why", "Straße module", "--output", "json", **C_LOCALE)))
    assert found["atom"]["id"] == atom["id"]
    recalled = json.loads(_ok(run_in_locale(repo, "recall", "--prompt", "Straße black", "--output", "json", **C_LOCALE)))
    assert [a["id"] for a in recalled["atoms"]] == [atom["id"]]
    words = json.loads(_ok(run_in_locale(repo, "recall", "Straße", "black", "--output", "json", **C_LOCALE)))
    assert [a["id"] for a in words["atoms"]] == [atom["id"]]
    # every verb that takes an ID takes words of the claim the same way (log, forget, …
    # matched the surrogates: "no atom matches")
    history = json.loads(_ok(run_in_locale(repo, "log", "Straße module", "--output", "json", **C_LOCALE)))
    assert history["id"] == atom["id"]
    forgot = json.loads(_ok(run_in_locale(repo, "forget", "Straße module", "--output", "json", **C_LOCALE)))
    assert forgot["id"] == atom["id"]
    # words no atom has are a usage error, never an internal one (a store path made of them
    # was one pygit2 could not encode; so was `git log --grep` of an id-like one)
    for argv in (["adopt", "--yes", "Straße"], ["adopt", "--reject", "atm_ßü"], ["log", "atm_ßü"], ["log", "Straße"]):
        proc = run_in_locale(repo, *argv, **C_LOCALE)
        assert proc.returncode == 2 and b"internal error" not in proc.stderr, proc.stderr
