"""Seed 002 on real auto-memory directories: budget, reachability, region pointers, pressure
samples, and where Claude Code keeps the directory (settings, CLAUDE_CONFIG_DIR, worktrees)."""

from __future__ import annotations

import datetime as dt
import json
import os
import stat
from pathlib import Path

import pytest
from conftest import git

from agent_memory.claude import automemory
from agent_memory.claude.automemory import (
    MAX_INDEX_BYTES,
    default_auto_memory_dir,
    render_report,
    resolve_auto_memory_dir,
    validate_auto_memory,
)
from agent_memory.model import paths

DAY = dt.date(2026, 11, 2)

VALID_INDEX = """\
# Project memory

## Pinned
- [Build commands](build_commands.md) — `make dev` then `make test`; never `npm run build`
- CC hooks read tool input from stdin, see hooks_stdin.md

## Recent
- [Flaky login test](feedback_flaky_login.md) — retry once, then look at the clock skew

## Regions
- region `lesson_*.md` → older lessons; grep the memory dir
- region `session_summary_2026-??-??.md` → past session records; grep by date
"""


def write_dir(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def memory_file(description: str, body: str) -> str:
    return f"---\nname: x\ndescription: {description}\ntype: feedback\n---\n\n{body}\n"


@pytest.fixture
def valid_dir(tmp_path: Path) -> Path:
    return write_dir(
        tmp_path / "memory",
        {
            "MEMORY.md": VALID_INDEX,
            "build_commands.md": memory_file("how to build", "Run `make dev`, then `make test`."),
            "hooks_stdin.md": memory_file("hooks", "Hooks get their payload on stdin."),
            "feedback_flaky_login.md": memory_file("flaky", "Retry the login test once."),
            "lesson_2026-01-04.md": memory_file("lesson", "Pin the Node version."),
            "lesson_2026-02-11.md": memory_file("lesson", "Check the lockfile first."),
            "session_summary_2026-03-01.md": memory_file("summary", "Worked on the release."),
            ".DS_Store": "junk",
            ".scratch/notes.md": "a dot-directory is exempt",
        },
    )


def test_valid_directory_passes(valid_dir: Path) -> None:
    report = validate_auto_memory(valid_dir, today=DAY)
    assert report.ok, report.errors
    assert report.errors == [] and report.orphans == [] and report.dead_regions == []
    assert report.files == [
        "build_commands.md",
        "feedback_flaky_login.md",
        "hooks_stdin.md",
        "lesson_2026-01-04.md",
        "lesson_2026-02-11.md",
        "session_summary_2026-03-01.md",
    ]
    regions = {r.glob: r.matches for r in report.regions}
    assert regions == {
        "lesson_*.md": ("lesson_2026-01-04.md", "lesson_2026-02-11.md"),
        "session_summary_2026-??-??.md": ("session_summary_2026-03-01.md",),
    }
    assert report.lines == len(VALID_INDEX.splitlines())
    assert report.bytes == len(VALID_INDEX.encode())
    assert report.pressure_sample is None
    assert not (valid_dir / ".memory-pressure.jsonl").exists()
    payload = json.loads(json.dumps(report.to_json()))
    assert payload["ok"] is True and payload["errors"] == []
    assert render_report(report).splitlines()[-1] == "ok"


def test_orphan_fails_and_is_named(valid_dir: Path) -> None:
    (valid_dir / "stray_note.md").write_text("a memory nobody indexed\n")
    report = validate_auto_memory(valid_dir, today=DAY)
    assert not report.ok
    assert report.orphans == ["stray_note.md"]
    assert len(report.errors) == 1 and "stray_note.md" in report.errors[0]
    assert report.to_json()["ok"] is False
    assert "stray_note.md" in render_report(report)


def test_file_on_disk_alone_is_not_reachable(tmp_path: Path) -> None:
    """A name that merely contains another file's name does not index it."""
    directory = write_dir(
        tmp_path / "m", {"MEMORY.md": "- see data.md\n", "data.md": "x", "a.md": "y"}
    )
    report = validate_auto_memory(directory, today=DAY)
    assert report.orphans == ["a.md"]


def test_stale_region_pointer_fails_naming_the_glob(valid_dir: Path) -> None:
    index = VALID_INDEX + "- region `outage_recovery_*.md` → outage notes\n"
    (valid_dir / "MEMORY.md").write_text(index)
    report = validate_auto_memory(valid_dir, today=DAY)
    assert not report.ok
    assert report.dead_regions == ["outage_recovery_*.md"]
    line = len(index.splitlines())
    assert report.errors == [
        f"region pointer `outage_recovery_*.md` (MEMORY.md:{line}) matches no file"
    ]
    assert report.orphans == []


def test_over_budget_by_lines(tmp_path: Path) -> None:
    lines = [f"- note {n}: see note_{n}.md" for n in range(201)]
    files = {f"note_{n}.md": f"note {n}\n" for n in range(201)}
    directory = write_dir(tmp_path / "m", {"MEMORY.md": "\n".join(lines) + "\n", **files})
    report = validate_auto_memory(directory, today=DAY, record_pressure=False)
    assert not report.ok
    assert report.lines == 201
    assert report.errors == [
        "MEMORY.md: 201 lines, over the 200-line budget (Claude Code loads only the first 200)"
    ]
    assert report.utilisation == pytest.approx(201 / 200)


def test_exactly_200_lines_is_within_budget(tmp_path: Path) -> None:
    directory = write_dir(tmp_path / "m", {"MEMORY.md": "- line\n" * 200})
    report = validate_auto_memory(directory, today=DAY, record_pressure=False)
    assert report.ok and report.lines == 200 and report.utilisation == 1.0


def test_over_budget_by_bytes(tmp_path: Path) -> None:
    line = "- " + "x" * 260 + "\n"  # 263 bytes a line
    text = line * 101  # 26,563 bytes in 101 lines: the byte budget is the one broken
    directory = write_dir(tmp_path / "m", {"MEMORY.md": text})
    report = validate_auto_memory(directory, today=DAY, record_pressure=False)
    assert not report.ok
    assert report.bytes == len(text) > 26 * 1024 - 1024
    assert len(report.errors) == 1 and "26,563 bytes" in report.errors[0]
    assert "25,000-byte budget" in report.errors[0]


def test_byte_budget_edge_is_claude_codes_25000(tmp_path: Path) -> None:
    directory = tmp_path / "m"
    directory.mkdir()
    (directory / "MEMORY.md").write_bytes(b"x" * (MAX_INDEX_BYTES - 1) + b"\n")
    assert validate_auto_memory(directory, record_pressure=False).ok
    (directory / "MEMORY.md").write_bytes(b"x" * MAX_INDEX_BYTES + b"\n")
    report = validate_auto_memory(directory, record_pressure=False)
    assert not report.ok and "25,001 bytes" in report.errors[0]


def test_pressure_sample_at_90_percent_once_a_day(tmp_path: Path) -> None:
    directory = write_dir(tmp_path / "m", {"MEMORY.md": "- a working-set line\n" * 180})
    samples = directory / ".memory-pressure.jsonl"

    first = validate_auto_memory(directory, today=DAY)
    assert first.ok  # pressure is instrumentation, not a failure
    assert first.utilisation == pytest.approx(0.9)
    assert first.pressure_sample == {
        "date": "2026-11-02",
        "lines": 180,
        "bytes": 21 * 180,
        "utilisation": 0.9,
    }
    assert stat.S_IMODE(samples.stat().st_mode) == 0o600
    assert [json.loads(x) for x in samples.read_text().splitlines()] == [first.pressure_sample]
    assert "pressure sample recorded" in render_report(first)

    again = validate_auto_memory(directory, today=DAY)
    assert again.pressure_sample is None
    assert len(samples.read_text().splitlines()) == 1

    next_day = validate_auto_memory(directory, today=DAY + dt.timedelta(days=1))
    assert next_day.pressure_sample is not None and next_day.pressure_sample["date"] == "2026-11-03"
    assert [json.loads(x)["date"] for x in samples.read_text().splitlines()] == [
        "2026-11-02",
        "2026-11-03",
    ]
    # The sample file is a dotfile: it never shows up as an orphan.
    assert validate_auto_memory(directory, today=DAY).orphans == []


def test_no_sample_below_90_percent_or_when_disabled(tmp_path: Path) -> None:
    directory = write_dir(tmp_path / "m", {"MEMORY.md": "- line\n" * 179})
    assert validate_auto_memory(directory, today=DAY).pressure_sample is None
    (directory / "MEMORY.md").write_text("- line\n" * 190)
    assert validate_auto_memory(directory, today=DAY, record_pressure=False).pressure_sample is None
    assert not (directory / ".memory-pressure.jsonl").exists()


def test_over_budget_still_records_pressure(tmp_path: Path) -> None:
    directory = write_dir(tmp_path / "m", {"MEMORY.md": "- line\n" * 230})
    report = validate_auto_memory(directory, today=DAY)
    assert not report.ok
    assert report.pressure_sample is not None and report.pressure_sample["utilisation"] == 1.15


def test_link_forms(tmp_path: Path) -> None:
    index = """\
- [spaced](./notes%20on%20ci.md)
- [angle](<release process.md>)
- [anchor](deploy.md#rollback "how to roll back")
- [ref][r]
- [outside](../elsewhere.md)
- [web](https://example.com/page.md)
- [gone](missing_file.md)
- [nested](archive/2025/old_decision.md)

[r]: reference_target.md
"""
    directory = write_dir(
        tmp_path / "m",
        {
            "MEMORY.md": index,
            "notes on ci.md": "ci",
            "release process.md": "release",
            "deploy.md": "deploy",
            "reference_target.md": "ref",
            "archive/2025/old_decision.md": "old",
            "page.md": "only linked by an absolute URL: not reachable",
        },
    )
    report = validate_auto_memory(directory, today=DAY)
    assert report.orphans == ["page.md"]
    assert report.warnings == ["MEMORY.md:7 links to missing_file.md, which does not exist"]


def test_subdirectory_files_need_a_path_not_a_region(tmp_path: Path) -> None:
    """Region globs match bare names in the index's own directory, never deeper."""
    directory = write_dir(
        tmp_path / "m",
        {
            "MEMORY.md": "- region `lesson_*.md` → lessons\n- older: archive/lesson_b.md\n",
            "lesson_a.md": "a",
            "archive/lesson_b.md": "b",
            "archive/lesson_c.md": "c",
        },
    )
    report = validate_auto_memory(directory, today=DAY)
    assert report.orphans == ["archive/lesson_c.md"]
    assert report.regions[0].matches == ("lesson_a.md",)


def test_archive_index_extends_reachability(tmp_path: Path) -> None:
    directory = write_dir(
        tmp_path / "m",
        {
            "MEMORY.md": "- [archive](MEMORY-archive.md) — everything older\n",
            "MEMORY-archive.md": "- region `old_*.md` → cooled lessons\n- region `gone_*.md` → nothing\n",
            "old_1.md": "one",
            "old_2.md": "two",
        },
    )
    report = validate_auto_memory(directory, today=DAY)
    assert report.orphans == []
    assert report.errors == ["region pointer `gone_*.md` (MEMORY-archive.md:2) matches no file"]


def test_globs_in_code_blocks_and_non_globs_are_not_regions(tmp_path: Path) -> None:
    index = """\
Run `pytest -k 'lesson_*'` to filter; paths like `docs/*.md` are not regions.
```
- region `example_*.md` → an example inside a fence
```
"""
    directory = write_dir(tmp_path / "m", {"MEMORY.md": index, "example_1.md": "x"})
    report = validate_auto_memory(directory, today=DAY)
    assert report.regions == []
    assert report.orphans == ["example_1.md"]


def test_missing_directory_and_missing_index(tmp_path: Path) -> None:
    missing = validate_auto_memory(tmp_path / "nope", today=DAY)
    assert not missing.ok and missing.errors == [
        f"auto-memory directory not found: {tmp_path / 'nope'}"
    ]
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "note.md").write_text("x")
    no_index = validate_auto_memory(tmp_path / "empty", today=DAY)
    assert not no_index.ok and no_index.errors[0].startswith("MEMORY.md not found in")
    assert "FAILED" in render_report(no_index)


# ------------------------------------------------------------------ locating the directory


def test_default_dir_uses_claude_config_dir_and_repo_slug(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "custom-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    location = resolve_auto_memory_dir(repo, managed_settings=tmp_path / "none.json")
    assert location.source == "default"
    assert location.path == config / "projects" / paths.slug_for(str(repo.resolve())) / "memory"
    assert default_auto_memory_dir(repo, managed_settings=tmp_path / "none.json") == location.path


def test_default_dir_is_shared_by_subdirectories_and_worktrees(repo: Path, tmp_path: Path) -> None:
    none = tmp_path / "none.json"
    (repo / "src" / "pkg").mkdir(parents=True)
    git(repo, "worktree", "add", "-q", str(tmp_path / "wt"), "-b", "feature")
    main_dir = default_auto_memory_dir(repo, managed_settings=none)
    assert default_auto_memory_dir(repo / "src" / "pkg", managed_settings=none) == main_dir
    assert default_auto_memory_dir(tmp_path / "wt", managed_settings=none) == main_dir


def test_outside_git_the_directory_itself_is_the_project(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    expected = paths.claude_dir() / "projects" / paths.slug_for(str(plain.resolve())) / "memory"
    assert default_auto_memory_dir(plain, managed_settings=tmp_path / "none.json") == expected


def write_settings(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"autoMemoryDirectory": value, "model": "opus"}))


def test_user_setting_with_tilde(repo: Path, tmp_path: Path) -> None:
    write_settings(paths.claude_dir() / "settings.json", "~/sync/project-memory")
    location = resolve_auto_memory_dir(repo, managed_settings=tmp_path / "none.json")
    assert location.path == Path.home() / "sync" / "project-memory"
    assert location.source.startswith("user:")


def test_precedence_policy_then_local_then_user_never_project(repo: Path, tmp_path: Path) -> None:
    none = tmp_path / "none.json"
    write_settings(repo / ".claude" / "settings.json", str(tmp_path / "from-project"))
    write_settings(paths.claude_dir() / "settings.json", str(tmp_path / "from-user"))
    location = resolve_auto_memory_dir(repo, managed_settings=none)
    assert location.path == tmp_path / "from-user"
    assert any("not read it from project settings" in note for note in location.notes)

    write_settings(repo / ".claude" / "settings.local.json", str(tmp_path / "from-local"))
    assert default_auto_memory_dir(repo, managed_settings=none) == tmp_path / "from-local"

    policy = tmp_path / "managed-settings.json"
    write_settings(policy, str(tmp_path / "from-policy"))
    location = resolve_auto_memory_dir(repo, managed_settings=policy)
    assert location.path == tmp_path / "from-policy" and location.source == f"policy:{policy}"


def test_project_setting_alone_leaves_the_default(repo: Path, tmp_path: Path) -> None:
    none = tmp_path / "none.json"
    write_settings(repo / ".claude" / "settings.json", "~/.ssh")
    location = resolve_auto_memory_dir(repo, managed_settings=none)
    assert location.source == "default"
    assert location.path.parent.parent == paths.claude_dir() / "projects"


@pytest.mark.parametrize("value", ["./.claude/memory", "memory", "~", "~/", "~/..", "/a", ""])
def test_unusable_values_are_ignored_like_claude_code_does(
    repo: Path, tmp_path: Path, value: str
) -> None:
    """The first defined value wins even when invalid: the user setting is not consulted."""
    none = tmp_path / "none.json"
    write_settings(repo / ".claude" / "settings.local.json", value)
    write_settings(paths.claude_dir() / "settings.json", str(tmp_path / "from-user"))
    location = resolve_auto_memory_dir(repo, managed_settings=none)
    assert location.source == "default"
    assert (
        location.path.name == "memory"
        and location.path.parent.parent == paths.claude_dir() / "projects"
    )
    assert any("ignores it" in note for note in location.notes)


def test_malformed_settings_file_is_skipped(repo: Path, tmp_path: Path) -> None:
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.local.json").write_text("{not json")
    write_settings(paths.claude_dir() / "settings.json", str(tmp_path / "from-user"))
    assert (
        default_auto_memory_dir(repo, managed_settings=tmp_path / "none.json")
        == tmp_path / "from-user"
    )


def test_cowork_env_override_wins(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_settings(repo / ".claude" / "settings.local.json", str(tmp_path / "from-local"))
    monkeypatch.setenv(automemory.COWORK_OVERRIDE_ENV, str(tmp_path / "cowork"))
    location = resolve_auto_memory_dir(repo, managed_settings=tmp_path / "none.json")
    assert location.path == tmp_path / "cowork"
    assert location.source == f"env:{automemory.COWORK_OVERRIDE_ENV}"


def test_remote_memory_base(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(automemory.REMOTE_BASE_ENV, str(tmp_path / "remote"))
    path = default_auto_memory_dir(repo, managed_settings=tmp_path / "none.json")
    assert path == tmp_path / "remote" / "projects" / paths.slug_for(str(repo.resolve())) / "memory"


def test_validate_the_resolved_default_directory(repo: Path, tmp_path: Path) -> None:
    directory = default_auto_memory_dir(repo, managed_settings=tmp_path / "none.json")
    write_dir(directory, {"MEMORY.md": "- [a](a.md)\n", "a.md": "a"})
    assert validate_auto_memory(directory, today=DAY).ok
    assert os.fspath(directory).startswith(os.fspath(paths.claude_dir()))


def test_validation_walks_the_folder_no_further_than_capture_reads_it(repo: Path, tmp_path: Path) -> None:
    """`git memory validate --auto-memory DIR` (and consolidate) walked the folder with an
    unbounded os.walk: a setting naming /usr or a home directory made them read all of it,
    where capture stops at MAX_DEPTH folders and MAX_FILES entries. The same walk now, which
    says where it stopped."""
    from sessions import gm

    from agent_memory.automemory.quick import MAX_DEPTH, MAX_FILES
    from agent_memory.claude.consolidate import auto_memory_items

    folder = tmp_path / "memory"
    deep = folder / "/".join(f"d{n}" for n in range(MAX_DEPTH + 2))
    deep.mkdir(parents=True)
    (deep / "too_deep.md").write_text(memory_file("deep", "Never read this far down."), encoding="utf-8")
    (folder / "MEMORY.md").write_text("- `lesson_*.md`\n", encoding="utf-8")
    for n in range(MAX_FILES + 200):
        (folder / f"lesson_{n:05d}.md").write_text(memory_file("lesson", f"Lesson {n}."), encoding="utf-8")
    proc = gm(repo, "validate", "--auto-memory", str(folder), "--output", "json", check=False)
    data = json.loads(proc.stdout)
    assert len(data["files"]) < MAX_FILES and not any("too_deep" in f for f in data["files"]), len(data["files"])
    assert any(f"more than {MAX_FILES} files" in w for w in data["warnings"]), data["warnings"]
    assert len(auto_memory_items(folder)) < MAX_FILES
    # depth alone: the deep file is not read, and the report says why
    for extra in folder.glob("lesson_*.md"):
        extra.unlink()
    (folder / "MEMORY.md").write_text("the index\n", encoding="utf-8")
    data = json.loads(gm(repo, "validate", "--auto-memory", str(folder), "--output", "json", check=False).stdout)
    assert data["files"] == [] and any(f"more than {MAX_DEPTH} levels deep" in w for w in data["warnings"])


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_fifo_or_device_as_the_pressure_file_is_not_waited_on(tmp_path: Path, kind: str) -> None:
    """`validate --auto-memory DIR` (any folder a person points it at, a clone's included) at
    90 % of its budget reads and appends `.memory-pressure.jsonl`: a FIFO there was read with
    `read_text` and opened for writing without O_NONBLOCK, both waiting for a writer or a
    reader that never came; /dev/zero linked there was read for ever. Neither is read or
    written: the report says the sample was not recorded, and validate answers."""
    import subprocess
    import sys

    from conftest import memory_capped

    directory = write_dir(tmp_path / "m", {"MEMORY.md": "- a working-set line\n" * 180})
    samples = directory / ".memory-pressure.jsonl"
    if kind == "fifo":
        os.mkfifo(samples)
    else:
        samples.symlink_to("/dev/zero")
    proc = subprocess.run([str(Path(sys.executable).parent / "git-memory"), "validate", "--auto-memory",
                           str(directory), "--output", "json"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL, preexec_fn=memory_capped)  # fmt: skip
    report = json.loads(proc.stdout)
    assert report["ok"] and report["pressure_sample"] is None, proc.stdout + proc.stderr
    assert any("could not record a pressure sample" in w for w in report["warnings"])
    assert stat.S_ISFIFO(samples.lstat().st_mode) if kind == "fifo" else samples.is_symlink()
