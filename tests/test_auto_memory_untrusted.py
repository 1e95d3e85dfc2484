"""A repository cannot point agent-memory at a folder of its choosing, and the folder read is
bounded: a committed `.claude/settings.local.json` is not the user's setting, a symlinked memory
folder is not read, and the walk stops at `MAX_DEPTH` / `MAX_FILES` with one errors.log line."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from conftest import git
from sessions import gm

import agent_memory.gitio.repo as git_boundary
from agent_memory.automemory import quick
from agent_memory.automemory.location import resolve_auto_memory_dir
from agent_memory.automemory.notes import MAX_DEPTH, MAX_FILES, read_folder
from agent_memory.store.auto_memory import capture_auto_memory
from agent_memory.store.l1 import L1Store

NOTE = "---\nname: n{i}\ndescription: Always run the linter before committing change {i}\ntype: feedback\n---\n"


def _local(repo: Path, value: str) -> Path:
    local = repo / ".claude" / "settings.local.json"
    local.parent.mkdir(exist_ok=True)
    local.write_text(json.dumps({"autoMemoryDirectory": value}))
    return local


def test_a_committed_local_settings_file_does_not_name_the_folder(repo: Path, tmp_path: Path) -> None:
    _local(repo, str(tmp_path / "chosen-by-the-repo"))
    git(repo, "add", "-f", ".claude/settings.local.json")
    git(repo, "commit", "-qm", "ship local settings")
    location = resolve_auto_memory_dir(repo, managed_settings=tmp_path / "none.json")
    assert location.source == "default"
    assert location.path != tmp_path / "chosen-by-the-repo"
    assert any("git tracks the file" in note for note in location.notes)


def test_a_local_settings_file_reached_through_a_committed_link_does_not_name_the_folder(
        tmp_path: Path) -> None:
    """A clone that commits `.claude -> conf` and `conf/settings.local.json`: git lists `.claude`
    and `conf/settings.local.json`, never `.claude/settings.local.json`, so asking git about that
    path alone took the repository's file for the person's own, and `capture --all` read the
    folder the repository chose (another project's auto-memory folder, here) into memory/atoms."""
    chosen = tmp_path / "chosen-by-the-repo"
    chosen.mkdir()
    (chosen / "rule.md").write_text(NOTE.format(i=7))
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    git(upstream, "init", "-q", "-b", "main")
    (upstream / "conf").mkdir()
    (upstream / "conf" / "settings.local.json").write_text(json.dumps({"autoMemoryDirectory": str(chosen)}))
    (upstream / ".claude").symlink_to("conf", target_is_directory=True)
    git(upstream, "add", "-A")
    git(upstream, "commit", "-qm", "settings of the project's own")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(upstream), str(clone))
    gm(clone, "init", "--yes", "--no-claude-hooks")  # (the plugin's hooks: init leaves .claude/ alone)

    location = resolve_auto_memory_dir(clone, managed_settings=tmp_path / "none.json")
    assert location.path != chosen and location.source == "default"
    assert any("git tracks the file" in note for note in location.notes)
    out = gm(clone, "capture", "--all", "--output", "json")
    assert str(chosen) not in out.stdout
    store = L1Store(git_boundary.find_repo(clone))
    assert not [a for a in store.atoms() if "change 7" in a["claim"]]


def test_the_users_own_untracked_local_settings_still_count(repo: Path, tmp_path: Path) -> None:
    _local(repo, str(tmp_path / "mine"))
    location = resolve_auto_memory_dir(repo, managed_settings=tmp_path / "none.json")
    assert location.path == tmp_path / "mine" and location.source.startswith("local:")


def test_init_leaves_a_tracked_local_settings_file_unchanged(repo: Path, tmp_path: Path) -> None:
    local = _local(repo, str(tmp_path / "x"))
    git(repo, "add", "-f", ".claude/settings.local.json")
    git(repo, "commit", "-qm", "ship local settings")
    before = local.read_text()
    out = gm(repo, "init", "--yes")
    assert local.read_text() == before
    assert git(repo, "status", "--porcelain", "--", ".claude/settings.local.json").strip() == ""
    assert "tracked by git" in out.stdout


def test_a_symlinked_memory_folder_is_not_read(repo: Path, tmp_path: Path) -> None:
    real = tmp_path / "elsewhere"
    real.mkdir()
    (real / "rule.md").write_text(NOTE.format(i=1))
    link = tmp_path / "memory"
    link.symlink_to(real, target_is_directory=True)
    read = read_folder(link)
    assert read.notes == [] and any("symlink" in p for p in read.problems)
    assert quick.signature(link) is None
    gm(repo, "init", "--yes")
    done = capture_auto_memory(L1Store(git_boundary.find_repo(repo)), "p", repo, folder=link)
    assert done.read == "symlink" and done.result is None
    assert "is a symlink" in (repo / ".git" / "agent-memory" / "errors.log").read_text()


def test_the_walk_is_bounded_in_depth_and_files(repo: Path, tmp_path: Path) -> None:
    wide = tmp_path / "wide"
    wide.mkdir()
    for i in range(MAX_FILES + 5):
        (wide / f"f{i:05}.md").write_text(NOTE.format(i=i))
    read = read_folder(wide)
    assert len(read.notes) == MAX_FILES and any(f"more than {MAX_FILES} files" in p for p in read.problems)

    deep = tmp_path / "deep"
    here = deep
    for level in range(MAX_DEPTH + 2):
        here.mkdir(parents=True)
        (here / "rule.md").write_text(NOTE.format(i=level))
        here = here / f"d{level}"
    read = read_folder(deep)
    assert len(read.notes) == MAX_DEPTH + 1
    assert any(f"more than {MAX_DEPTH} levels" in p for p in read.problems)

    gm(repo, "init", "--yes")
    capture_auto_memory(L1Store(git_boundary.find_repo(repo)), "p", repo, folder=wide)
    log = (repo / ".git" / "agent-memory" / "errors.log").read_text()
    assert f"more than {MAX_FILES} files" in log and log.count("auto-memory:") == 1


def test_a_folder_of_too_many_entries_is_not_listed_whole(tmp_path: Path) -> None:
    """The walk sorts each folder's listing; a folder of millions of entries (a setting naming
    a cache or a mail spool) was held in memory whole before the file bound applied. Past
    MAX_LISTED entries the folder is not read, and the walk says so."""
    from agent_memory.automemory.walk import MAX_LISTED

    huge = tmp_path / "huge"
    (huge / "spool").mkdir(parents=True)
    (huge / "rule.md").write_text(NOTE.format(i=0))
    for i in range(MAX_LISTED + 1):
        (huge / "spool" / f"m{i}").touch()
    read = read_folder(huge)
    assert [n.file for n in read.notes] == ["rule.md"]
    assert any(f"more than {MAX_LISTED} entries in spool" in p for p in read.problems), read.problems


def test_an_edit_to_a_note_the_walk_reads_is_never_taken_for_an_unchanged_folder(guarded: Path) -> None:
    """`quick.signature` (does capture read the folder again?) walked the folder on its own,
    with bounds of its own: it counted folders against `MAX_FILES` and stopped, where the
    reader's walk counts files. A folder with more than `MAX_FILES` subfolders before the one
    holding a note: capture read the note, and an edit of it (same size, folder untouched)
    was then 'nothing new' forever. The signature now covers exactly what the walk reads."""
    folder = resolve_auto_memory_dir(guarded).path
    for i in range(MAX_FILES + 1):
        (folder / f"d{i:05}").mkdir(parents=True)
    (folder / "zz").mkdir()
    note = folder / "zz" / "rule.md"
    note.write_text(NOTE.format(i=1))
    gm(guarded, "capture", "--all", "--no-stage")
    before = {a["claim"] for a in json.loads(gm(guarded, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]}
    assert any("change 1" in claim for claim in before), before
    stamp = note.stat().st_mtime_ns
    note.write_text(NOTE.format(i=2))  # the same size: a rewrite of the note, its folder untouched
    os.utime(note, ns=(stamp + 10**9, stamp + 10**9))
    gm(guarded, "capture", "--all", "--no-stage")
    after = {a["claim"] for a in json.loads(gm(guarded, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]}
    assert any("change 2" in claim for claim in after), after


def _git_memory(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`git memory ARGS` as a process of its own, stopped after 20 s: a read that blocks (a
    FIFO) must fail the test, not hang the run."""
    return subprocess.run(["git", "memory", *args], cwd=repo, capture_output=True, text=True, timeout=20)


def _links_out_of_the_folder(folder: Path, secret_file: Path) -> None:
    """A folder whose entries lead out of it: a link to a file of the user's (`~/.ssh`), a
    link loop, a link to /dev/zero, and a FIFO — each named like a memory and like an index
    MEMORY.md links to."""
    secret_file.parent.mkdir(parents=True, exist_ok=True)
    secret_file.write_text("Never share the deploy key [x](outside-only-words.md) with anyone at all today\n")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rule.md").write_text("---\ntype: feedback\n---\nNever share the deploy key with anyone at all today.\n")
    (folder / "ssh.md").symlink_to(secret_file)
    (folder / "MEMORY-ssh.md").symlink_to(secret_file)
    (folder / "MEMORY-loop.md").symlink_to("MEMORY-loop.md")
    (folder / "MEMORY-zero.md").symlink_to("/dev/zero")
    os.mkfifo(folder / "MEMORY-fifo.md")
    os.mkfifo(folder / "fifo.md")
    (folder / "MEMORY.md").write_text("- [rule](rule.md)\n- [ssh](ssh.md)\n- [a](MEMORY-ssh.md) [b](MEMORY-loop.md)\n"
                                      "- [c](MEMORY-zero.md) [d](MEMORY-fifo.md) [e](fifo.md)\n")


def test_validate_reads_no_index_through_a_link_nor_blocks_on_a_fifo(repo: Path, tmp_path: Path) -> None:
    """validate read every index MEMORY.md reached with `read_text`, which follows links and
    blocks: a FIFO named `MEMORY-x.md` hung it for ever, a link to /dev/zero ran it out of
    memory, a link loop was an internal error (exit 3), and a link to a file of the user's
    was read and its links reported. Now such an index is a finding, not read."""
    folder = tmp_path / "memory"
    _links_out_of_the_folder(folder, tmp_path / "home" / ".ssh" / "notes")
    done = _git_memory(repo, "validate", "--auto-memory", str(folder), "--output", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    said = "\n".join(report["errors"] + report["warnings"])
    assert "outside-only-words" not in said
    for name in ("MEMORY-ssh.md", "MEMORY-loop.md", "MEMORY-zero.md", "MEMORY-fifo.md"):
        assert f"{name}: not read" in said, said


def test_a_symlinked_or_special_memory_md_is_not_read_by_validate(repo: Path, tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    outside = tmp_path / "outside.md"
    outside.write_text("- [x](outside-only-words.md)\n")
    (folder / "MEMORY.md").symlink_to(outside)
    done = _git_memory(repo, "validate", "--auto-memory", str(folder), "--output", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert "outside-only-words" not in done.stdout
    assert any("MEMORY.md" in e and "symlink" in e for e in report["errors"]), report


def test_consolidate_reads_no_memory_through_a_link_nor_blocks_on_a_fifo(repo: Path, tmp_path: Path) -> None:
    """consolidate --auto-memory read every file of the walk with `read_bytes`: a link's
    target (a file under ~/.ssh) was read and printed as a proposal's text, and a FIFO hung
    it. Only the folder's regular files are read now, as capture reads them."""
    folder = tmp_path / "memory"
    _links_out_of_the_folder(folder, tmp_path / "home" / ".ssh" / "notes")
    (folder / "same.md").write_text("---\ntype: feedback\n---\nNever share the deploy key with anyone at all, today.\n")
    done = _git_memory(repo, "consolidate", "--auto-memory", str(folder), "--output", "json")
    assert done.returncode == 0, done.stderr
    assert "outside-only-words" not in done.stdout
    members = {m for p in json.loads(done.stdout)["proposals"] for m in p["members"]}
    assert members == {"rule.md", "same.md"}


def test_a_symlinked_folder_named_on_the_command_line_is_refused_not_reported_clean(repo: Path, tmp_path: Path) -> None:
    """The folder given is a link: nothing is read through it, and the verbs said so to no
    one — `scan` printed "no secrets … in Claude's own memory folder" over a folder holding a
    key, `extract` "0 memories", `consolidate` no duplicates, and validate called every file an
    orphan of an index it did read through the link. Each now refuses it (exit 2) and names
    the folder it points to."""
    real = tmp_path / "real"
    real.mkdir()
    (real / "MEMORY.md").write_text("- [r](rule.md)\n")
    (real / "rule.md").write_text(NOTE.format(i=1))
    link = tmp_path / "memory"
    link.symlink_to(real, target_is_directory=True)
    for verb in ("scan", "extract", "validate", "consolidate"):
        done = _git_memory(repo, verb, "--auto-memory", str(link))
        assert done.returncode == 2, (verb, done.stdout, done.stderr)
        assert "symlink" in done.stderr and f"--auto-memory {real}" in done.stderr, (verb, done.stderr)


def test_a_memory_holding_the_readers_own_placeholder_characters_is_read(repo: Path) -> None:
    """The reader stands private-use characters (U+E000 n U+E001) in for code spans while it
    unwraps a line's markdown; a memory holding those characters itself (icon-font glyphs
    are private-use too) raised IndexError, and no memory of the folder was captured, at any
    capture, while that file was there. They are dropped from the text like the emoji
    markers: not a claim's words."""
    gm(repo, "init", "--yes")
    folder = resolve_auto_memory_dir(repo).path
    folder.mkdir(parents=True)
    (folder / "icons.md").write_text("---\ntype: feedback\n---\n\nAlways show the \ue0007\ue001 branch glyph "
                                     "in the `prompt` line.\n", "utf-8")  # fmt: skip
    (folder / "rule.md").write_text(NOTE.format(i=3), "utf-8")
    gm(repo, "capture", "--all", "--no-stage")
    claims = {a["claim"] for a in L1Store(git_boundary.find_repo(repo)).atoms() if a.get("origin") == "auto-memory"}
    assert claims == {"Always run the linter before committing change 3",
                      "Always show the 7 branch glyph in the `prompt` line"}  # fmt: skip


def test_a_memory_whose_claim_would_be_empty_is_still_captured(repo: Path) -> None:
    """A rule led by punctuation alone (`!! Never …`: its first "sentence" was `!!`) or opening
    a parenthesis it never closes (the claim is cut at an unclosed `(`) became an empty claim:
    the atom failed the schema ("skipped an invalid atom" in errors.log), the folder was
    recorded as captured, and the memory was lost for good. Both are claims now."""
    gm(repo, "init", "--yes")
    folder = resolve_auto_memory_dir(repo).path
    folder.mkdir(parents=True)
    (folder / "push.md").write_text("---\ntype: feedback\n---\n\n!! Never force-push to the main branch.\n", "utf-8")
    (folder / "tests.md").write_text("---\ntype: feedback\n---\n\n(Always run the tests before pushing\n", "utf-8")
    gm(repo, "capture", "--all", "--no-stage")
    atoms = [a for a in L1Store(git_boundary.find_repo(repo)).atoms() if a.get("origin") == "auto-memory"]
    assert sorted(a["claim"] for a in atoms) == ["Always run the tests before pushing",
                                                 "Never force push to the main branch"]  # fmt: skip
    log = repo / ".git" / "agent-memory" / "errors.log"
    assert not log.exists() or "invalid atom" not in log.read_text("utf-8")
