"""The guard over Claude Code's own memory folder (issue 27 §6): `git memory scan --auto-memory
[DIR]` prints `path:line: rule` for secrets, personal data and machine paths and exits 1; the
folder is never changed; `status` says in one line when the folder has findings."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

from conftest import FIXTURES
from sessions import gm

from agent_memory.automemory.location import resolve_auto_memory_dir

# Realistic values, kept encoded (CONVENTIONS: fixtures with realistic tokens are base64).
TOKEN = base64.b64decode("Z2hwX1JqOGtPZlZocGczQ2E3S0xyMEp3cXRoNXpYRmhjM1lOZFdwUQ==").decode()
EMAIL = base64.b64decode("bWFyaWEuc2lsdmFAY29udG9zby1tYWlsLmNvbQ==").decode()


def _folder(repo: Path) -> Path:
    folder = resolve_auto_memory_dir(repo).path
    shutil.copytree(FIXTURES / "auto-memory" / "folder", folder)
    return folder


def test_a_clean_folder_passes(guarded: Path) -> None:
    folder = _folder(guarded)
    proc = gm(guarded, "scan", "--auto-memory")
    assert proc.returncode == 0 and proc.stdout == ""
    assert gm(guarded, "scan", "--auto-memory", str(folder), "--output", "json").stdout.startswith("{")
    assert "guard finding" not in gm(guarded, "status").stdout


def test_findings_are_reported_by_line_and_the_folder_is_left_alone(guarded: Path, tmp_path: Path) -> None:
    folder = _folder(guarded)
    (folder / "reference_api.md").write_text(
        "---\ndescription: The deploy bot's token\ntype: reference\n---\n\n"
        f"The deploy bot uses `{TOKEN}`.\nAsk {EMAIL} for access.\nLogs are in /home/maria/work/logs.\n", "utf-8")
    (tmp_path / "elsewhere.md").write_text("x\n")
    (folder / "team" / "linked.md").symlink_to(tmp_path / "elsewhere.md")
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file() and not p.is_symlink()}
    proc = gm(guarded, "scan", "--auto-memory", check=False)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    # For people, the folder under the home directory reads `~/…` (the JSON below keeps it whole).
    shown = "~/" + folder.relative_to(Path.home()).as_posix()
    api = f"{shown}/reference_api.md"
    assert f"{api}:6: github-token" in lines and f"{api}:7: email" in lines and f"{api}:8: home-path" in lines
    assert f"{shown}/team/linked.md:1: not-a-regular-file (symlink)" in lines
    assert "hint:" in proc.stderr and "nothing was changed" in proc.stderr
    assert {p: p.read_bytes() for p in before} == before
    data = json.loads(gm(guarded, "scan", "--auto-memory", "--output", "json", check=False).stdout)
    full = str(folder / "reference_api.md")
    assert data["ok"] is False and {f["line"] for f in data["findings"] if f["path"] == full} == {6, 7, 8}
    status = gm(guarded, "status").stdout
    assert "Claude's own memory folder has" in status and "`git memory scan --auto-memory`" in status
    (folder / "reference_api.md").unlink()
    (folder / "team" / "linked.md").unlink()
    assert "guard finding" not in gm(guarded, "status").stdout  # counted again once it changed


def test_scan_auto_memory_bad_input(guarded: Path, tmp_path: Path) -> None:
    proc = gm(guarded, "scan", "--auto-memory", str(tmp_path / "none"), check=False)
    assert proc.returncode == 2 and "hint: pass the folder: git memory scan --auto-memory" in proc.stderr
    proc = gm(guarded, "scan", "--auto-memory", "--staged", check=False)
    assert proc.returncode == 2 and "not with --staged" in proc.stderr


def test_status_reports_a_linked_folder_as_a_finding(guarded: Path, tmp_path: Path) -> None:
    """scan, extract and validate --auto-memory refuse a memory folder that is a symlink (exit 2,
    naming the link): nothing is read through a link. status counted the empty read it made
    through the link as 0 findings, and said nothing. It now reports the link as a finding
    (JSON `symlink: true`, `findings` ≥ 1) and says in one line where it points, exit 0."""
    import os

    real = tmp_path / "real-memory"
    shutil.copytree(FIXTURES / "auto-memory" / "folder", real)
    (real / "reference_api.md").write_text(f"---\ndescription: token\ntype: reference\n---\n\nUse `{TOKEN}`.\n", "utf-8")
    folder = resolve_auto_memory_dir(guarded).path
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.symlink_to(real, target_is_directory=True)
    assert gm(guarded, "scan", "--auto-memory", check=False).returncode == 2
    proc = gm(guarded, "status", "--output", "json", check=False)
    assert proc.returncode == 0, proc.stderr
    state = json.loads(proc.stdout)["auto_memory"]
    assert state["folder"] == str(folder) and state["symlink"] is True and state["findings"] >= 1, state
    text = gm(guarded, "status").stdout
    assert "is a symlink" in text and os.path.realpath(folder).split("/")[-1] in text, text
    # A real folder says `symlink: false`.
    folder.unlink()
    shutil.copytree(real, folder)
    state = json.loads(gm(guarded, "status", "--output", "json", check=False).stdout)["auto_memory"]
    assert state["symlink"] is False and state["findings"] >= 1, state
