"""`git memory validate --atoms FILE` and `--auto-memory DIR` through the installed CLI."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import FIXTURES
from sessions import gm

EXAMPLES = json.loads((FIXTURES / "schema_examples.json").read_text())


def _validate(tmp_path: Path, data: object) -> tuple[int, dict]:  # type: ignore[type-arg]
    path = tmp_path / "atoms.json"
    path.write_text(json.dumps(data))
    proc = gm(tmp_path, "validate", "--atoms", str(path), "--output", "json", check=False)
    return proc.returncode, json.loads(proc.stdout)


def test_the_spec_examples_validate(tmp_path: Path) -> None:
    code, report = _validate(tmp_path, EXAMPLES)
    assert code == 0 and report["ok"] is True and report["errors"] == []


def test_one_atom_is_accepted_as_well_as_a_list(tmp_path: Path) -> None:
    assert _validate(tmp_path, EXAMPLES[0])[0] == 0


def test_each_defect_is_reported(tmp_path: Path) -> None:
    l2_with_l1_pointer = dict(EXAMPLES[1], source="~/.claude/projects/-home-alice-x/01SESSIONCCCC11112222333.jsonl#L412")
    wrong_id = dict(EXAMPLES[0], id="atm_00000000")
    backwards = dict(EXAMPLES[0], first_seen="2026-09-01T00:00:00Z")
    dup_sessions = dict(EXAMPLES[0], sessions=["a", "a"])
    code, report = _validate(tmp_path, [l2_with_l1_pointer, wrong_id, backwards, dup_sessions, EXAMPLES[2], EXAMPLES[2]])
    assert code == 1 and report["ok"] is False
    text = "\n".join(report["errors"])
    assert "must be stripped" in text           # an L2 atom with ~/.claude/projects/… fails
    assert "does not match its claim" in text   # id mismatch
    assert "is after last_seen" in text
    assert "duplicate sessions" in text
    assert "duplicate id atm_12cc1dc2" in text


def test_unreadable_atoms_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{nope")
    proc = gm(tmp_path, "validate", "--atoms", str(tmp_path / "bad.json"), check=False)
    assert proc.returncode == 2 and "hint:" in proc.stderr
    proc = gm(tmp_path, "validate", "--atoms", str(tmp_path / "missing.json"), check=False)
    assert proc.returncode == 2


def _memory_dir(tmp_path: Path, index: str, files: dict[str, str]) -> Path:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "MEMORY.md").write_text(index)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_auto_memory_valid_orphan_and_stale_region(tmp_path: Path) -> None:
    good = _memory_dir(tmp_path, "# Memory\n- [style](style.md)\n- region `lesson_*.md` → older lessons\n",
                       {"style.md": "x", "lesson_1.md": "y", "lesson_2.md": "z", ".hidden": "w"})
    proc = gm(tmp_path, "validate", "--auto-memory", str(good), "--output", "json", check=False)
    assert proc.returncode == 0 and json.loads(proc.stdout)["ok"] is True
    (good / "orphan.md").write_text("nobody links me")
    (good / "MEMORY.md").write_text("# Memory\n- [style](style.md)\n- region `lesson_*.md` → older\n- region `old_*.md` → gone\n")
    proc = gm(tmp_path, "validate", "--auto-memory", str(good), "--output", "json", check=False)
    report = json.loads(proc.stdout)
    assert proc.returncode == 1 and not report["ok"]
    assert any("orphan.md" in e for e in report["errors"])
    assert any("old_*.md" in e for e in report["errors"])
    # the text counts in words that agree with the number (it said "1 orphan(s)", "2 error(s)")
    text = gm(tmp_path, "validate", "--auto-memory", str(good), check=False).stdout.splitlines()
    assert "MEMORY.md: 4 lines" in text[1] and text[2].endswith("2 region pointers; 1 orphan"), text
    assert "  region `lesson_*.md` (MEMORY.md:3) → 2 files" in text and text[-1] == "FAILED: 2 errors", text
    assert not any("(s)" in line for line in text), text


def test_auto_memory_over_budget_and_pressure_sample(tmp_path: Path) -> None:
    over = _memory_dir(tmp_path, "\n".join(f"- line {i}" for i in range(201)) + "\n", {})
    proc = gm(tmp_path, "validate", "--auto-memory", str(over), check=False)
    assert proc.returncode == 1 and "200" in proc.stdout
    near = tmp_path / "near"
    near.mkdir()
    (near / "MEMORY.md").write_text("\n".join(f"- line {i}" for i in range(185)) + "\n")
    for _ in range(2):
        assert gm(tmp_path, "validate", "--auto-memory", str(near), check=False).returncode == 0
    samples = (near / ".memory-pressure.jsonl").read_text().splitlines()
    assert len(samples) == 1 and json.loads(samples[0])["lines"] == 185
