"""Honest capture reporting and evidence that finds its transcript (issue 16), through the
CLI on real repositories and real transcripts (tests/fixtures/transcripts)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TRANSCRIPTS, git, initialized_copy
from golden import Golden
from sessions import gm, gm_json, write_session

from agent_memory.model.paths import slug_for

REAL = TRANSCRIPTS / "real_projects"
# A real transcript, recorded in another project (its cwd: "-experiments/worktrees").
FOREIGN = REAL / "-experiments-worktrees" / "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now="2026-11-05T12:00:00Z")


def _session(repo: Path, n: int, day: str, text: str) -> Path:
    return write_session(repo, f"eeeeeeee-0000-4000-8000-00000000000{n}", day, [{"user": text}])


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_capture_of_an_unreadable_transcript_says_so_and_exits_2(project: Path) -> None:
    path = _session(project, 1, "2026-11-01", "Never push directly to main.")
    path.chmod(0)
    try:
        proc = gm(project, "capture", str(path), check=False)
    finally:
        path.chmod(0o644)
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_capture_of_a_file_with_nothing_readable_exits_2_as_extract_does(project: Path, tmp_path: Path) -> None:
    garbage = tmp_path / "notes.jsonl"
    garbage.write_text("this is not json\n{also not\n")
    for verb in ("extract", "capture"):
        proc = gm(project, verb, str(garbage), check=False)
        assert proc.returncode == 2 and "nothing readable" in proc.stderr, verb
    one = tmp_path / "one.jsonl"
    one.write_text("not a record\n")
    for verb in ("extract", "capture"):  # said "none of its 1 lines is a readable record"
        proc = gm(project, verb, str(one), check=False)
        assert proc.returncode == 2 and "its only line is not a readable record" in proc.stderr, proc.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    proc = gm(project, "capture", str(empty), check=False)
    assert proc.returncode == 2 and "it is empty" in proc.stderr
    assert gm(project, "capture", str(tmp_path), check=False).returncode == 2  # a directory


def test_capture_and_extract_word_a_missing_transcript_alike_and_since_without_all(project: Path,
                                                                                 tmp_path: Path) -> None:  # fmt: skip
    """`extract` said 'no such transcript', `capture` 'no transcript at', each with its own
    hint wording; and `capture --since DAY` (no --all, no file) asked 'which transcript?'
    when --since only means anything with --all. One wording; --since is named."""
    missing = tmp_path / "gone.jsonl"
    for verb in ("extract", "capture"):
        proc = gm(project, verb, str(missing), check=False)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.splitlines() == [
            f"git memory {verb}: no transcript at {missing}",
            f"hint: pass a Claude Code session file: git memory {verb} ~/.claude/projects/<slug>/<session>.jsonl"]
    proc = gm(project, "capture", "--since", "2026-11-01", check=False)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == ["git memory capture: --since only applies to --all",
                                        "hint: git memory capture --all --since 2026-11-01"]  # fmt: skip
    gm(project, "capture", "--all", "--since", "2026-11-01")  # the hint's command runs


def test_capture_all_reports_unreadable_files_and_skipped_lines_apart(project: Path) -> None:
    good = _session(project, 1, "2026-11-01", "Never push directly to main.")
    with good.open("a") as fh:
        fh.write("{broken line\n")
    broken = good.with_name("eeeeeeee-0000-4000-8000-000000000009.jsonl")
    broken.write_text("not a transcript\n")
    proc = gm(project, "capture", "--all", "--no-stage", check=False)
    text = proc.stdout
    assert text.startswith("captured 1 of 2 transcripts of proj: 1 new atom,")
    assert "1 unreadable line skipped" in text
    assert "1 transcript not captured (unreadable)" in text and broken.name in text
    # bad input, as the README says: exit 2 with one line and a hint, after capturing the rest
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == "git memory capture: 1 transcript of this project could not be read; the rest were captured"
    assert proc.stderr.splitlines()[1].startswith("hint: repair or remove it") and len(proc.stderr.splitlines()) == 2
    # reported again on every run while it is there (not read again: it is unchanged)
    again = gm(project, "capture", "--all", "--no-stage", "--output", "json", check=False)
    data = json.loads(again.stdout)
    assert again.returncode == 2 and data["transcripts"] == 2
    assert data["captured"] == 0 and data["unchanged"] == 1 and data["commits"] == 0
    assert [Path(u["path"]).name for u in data["unreadable"]] == [broken.name]
    assert "nothing readable" in data["unreadable"][0]["reason"]
    broken.unlink()
    assert gm(project, "capture", "--all", "--no-stage").stdout.startswith("nothing new: 1 transcript of this project")


def _recorded_in(source: Path, cwd: Path, dest: Path) -> Path:
    """A copy of a real transcript whose records say they were made in `cwd`."""
    lines = []
    for line in source.read_text("utf-8").splitlines():
        record = json.loads(line)
        if "cwd" in record:
            record["cwd"] = str(cwd)
        lines.append(json.dumps(record))
    dest.write_text("\n".join(lines) + "\n", "utf-8")
    return dest


def test_capture_of_another_projects_transcript_says_whose_it_is(project: Path, tmp_path: Path) -> None:
    other = tmp_path / "worktrees"
    other.mkdir()
    git(other, "init", "-q")
    foreign = _recorded_in(FOREIGN, other, tmp_path / FOREIGN.name)
    proc = gm(project, "capture", str(foreign), check=False)
    assert proc.returncode == 1
    assert f"{other} (project worktrees)" in proc.stderr
    assert "not of this repository (proj)" in proc.stderr
    assert "--force" in proc.stderr and "nothing new" not in proc.stdout
    forced = gm(project, "capture", str(foreign), "--force", "--no-stage")
    assert "recorded in" in forced.stdout


def test_the_hint_to_capture_elsewhere_pastes_into_a_shell_with_spaces_in_paths(project: Path, tmp_path: Path) -> None:
    # A folder with a space (the common "My Projects"): the printed command must still name
    # that folder and that transcript when a person pastes it into a shell.
    other = tmp_path / "my work"
    other.mkdir()
    git(other, "init", "-q")
    foreign = _recorded_in(FOREIGN, other, tmp_path / f"copy of {FOREIGN.name}")
    proc = gm(project, "capture", str(foreign), check=False)
    assert proc.returncode == 1
    command = proc.stderr.split("capture it in its own repository (", 1)[1].split("), or pass", 1)[0]
    argv = shlex.split(command)
    assert argv[:3] == ["git", "-C", str(other)]
    assert argv[3:] == ["memory", "capture", str(foreign)]


def test_a_transcript_recorded_in_a_folder_this_machine_lacks_is_captured(project: Path) -> None:
    # A real session recorded on another machine (its cwd, "-experiments/worktrees", is no
    # folder here) and copied into this project's folder: no repository here claims it, so
    # where it was found decides, as `capture --all` finds it.
    folder = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects" / slug_for(project.resolve())
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / FOREIGN.name
    shutil.copy(FOREIGN, copy)
    report = gm_json(project, "capture", str(copy), "--no-stage")
    assert set(report) >= {"commit", "new", "merged"}
    assert gm_json(project, "capture", "--all", "--no-stage")["other_repositories"] == 0


def test_backfill_says_how_many_atoms_the_expiry_dropped_and_why(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _session(project, 1, "2026-06-01", "Never deploy on Fridays.")  # more than 90 days before NOW
    _session(project, 2, "2026-11-01", "Never push directly to main.")
    text = gm(project, "capture", "--all", "--no-stage").stdout
    assert "1 atom not kept: last seen more than 90 days ago" in text
    assert "Fridays" not in json.dumps(gm_json(project, "inspect", "--tier", "L1"))
    # an atom that expires in the store later is reported the same way
    _session(project, 3, "2026-11-02", "Use pnpm, not npm.")
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2027-03-01T12:00:00Z")
    late = gm(project, "capture", "--all", "--no-stage").stdout
    assert "not kept: last seen more than 90 days ago" in late


def test_evidence_finds_a_transcript_outside_the_config_dir(project: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # Transcripts copied elsewhere (another CLAUDE_CONFIG_DIR, a backup): captured from there.
    elsewhere = tmp_path / "elsewhere" / "projects" / slug_for(project.resolve())
    paths = [_session(project, n, f"2026-11-0{n}", "Never push directly to main.") for n in (1, 2)]
    elsewhere.mkdir(parents=True)
    for path in paths:
        shutil.move(str(path), elsewhere / path.name)
    for path in paths:
        gm(project, "capture", str(elsewhere / path.name), "--no-stage")
    atom = gm_json(project, "inspect", "--tier", "L1")["atoms"][0]
    assert all(Path(e["path"]).is_file() for e in atom["evidence"])
    why = gm_json(project, "inspect", "--why", atom["id"])
    assert [e["status"] for e in why["evidence"]] == ["ok", "ok"]
    assert all(e["line"] for e in why["evidence"])
    text = gm(project, "inspect", "--why", atom["id"]).stdout
    assert "transcript gone" not in text and f"at {elsewhere}" in text
    # …and with CLAUDE_CONFIG_DIR pointing there, the canonical pointer resolves too
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "elsewhere"))
    assert [e["status"] for e in gm_json(project, "inspect", "--why", atom["id"])["evidence"]] == ["ok", "ok"]
    # a transcript that is really gone is still reported as gone, with the kept quote
    for path in paths:
        (elsewhere / path.name).unlink()
    gone = gm_json(project, "inspect", "--why", atom["id"])["evidence"]
    assert [e["status"] for e in gone] == ["missing", "missing"] and gone[0]["line"]


def test_the_local_path_stays_local(project: Path) -> None:
    path = _session(project, 1, "2026-11-01", "Never push directly to main.")
    atom = gm_json(project, "capture", str(path), "--no-stage")
    stored = gm_json(project, "inspect", "--tier", "L1")["atoms"][0]
    # under the home directory the path is written ~/…: no user name in it
    home = os.environ["HOME"]  # the copied project's home (conftest.initialized_copy)
    assert stored["evidence"][0]["path"].startswith("~/") and home not in json.dumps(stored)
    assert atom["new"] == [stored["id"]]


# --- work done once (issue 25) -----------------------------------------------------------------


def _rules(first: int, count: int) -> list[dict[str, str]]:
    return [{"user": f"Always run ruff before committing changes to the billing package {n}."}
            for n in range(first, first + count)]  # fmt: skip


def _commits(repo: Path) -> int:
    return int(git(repo, "rev-list", "--count", "memory/atoms"))


def _l1_ids(repo: Path) -> set[str]:
    return {a["id"] for a in gm_json(repo, "inspect", "--tier", "L1")["atoms"]}


def test_a_second_capture_all_makes_no_commit_and_resurrects_nothing(project: Path) -> None:
    # 630 atoms over three days: the 500-atom cap evicts the 130 seen first.
    paths = [write_session(project, f"cccccccc-0000-4000-8000-00000000000{n}", day, _rules(210 * n, 210))
             for n, day in enumerate(("2026-10-01", "2026-10-02", "2026-10-03"))]  # fmt: skip
    first = gm_json(project, "capture", "--all", "--no-stage")
    assert first["captured"] == 3 and len(first["dropped"]["evicted"]) == 130
    kept, commits = _l1_ids(project), _commits(project)
    assert len(kept) == 500
    again = gm(project, "capture", "--all", "--no-stage")
    assert again.stdout.startswith("nothing new: 3 transcripts of this project, 3 unchanged since their last capture")
    assert _commits(project) == commits and _l1_ids(project) == kept
    # Read whole again (the ledger gone): still nothing evicted comes back.
    (project / ".git" / "agent-memory" / "captured.log").unlink()
    reread = gm_json(project, "capture", "--all", "--no-stage")
    assert reread["captured"] == 3 and reread["new"] == 0 and reread["commits"] == 0
    assert sorted(reread["skipped"]["evicted"]) == sorted(first["dropped"]["evicted"])
    assert _commits(project) == commits and _l1_ids(project) == kept
    # A new session says an evicted claim again: it comes back.
    claims = {a["id"]: a["claim"] for a in gm_json(project, "extract", str(paths[0]))["atoms"]}
    evicted = first["dropped"]["evicted"][0]
    write_session(project, "cccccccc-0000-4000-8000-000000000009", "2026-11-01", [{"user": claims[evicted]}])
    back = gm_json(project, "capture", "--all", "--no-stage")
    assert back["captured"] == 1 and back["unchanged"] == 3 and back["new"] == 1
    assert evicted in _l1_ids(project)


def test_nothing_new_stages_nothing_and_says_so(project: Path) -> None:
    for n, day in enumerate(("2026-11-01", "2026-11-02", "2026-11-03"), start=1):
        _session(project, n, day, "Never push directly to main; always open a pull request.")
    first = gm(project, "capture", "--all").stdout
    assert "1 promotion staged on memory/review" in first
    review = git(project, "rev-parse", "memory/review")
    again = gm(project, "capture", "--all")
    assert again.stdout == "nothing new: 3 transcripts of this project, 3 unchanged since their last capture\n"
    assert gm_json(project, "capture", "--all")["staged"] == 0
    assert git(project, "rev-parse", "memory/review") == review
    # something new that is not eligible: captured, and no promotion reported as staged again
    _session(project, 4, "2026-11-04", "Use pnpm, not npm.")
    more = gm(project, "capture", "--all").stdout
    assert more.startswith("captured 1 of 4 transcripts of proj: 1 new atom,") and "staged" not in more
    assert "3 unchanged since their last capture (not read again)" in more


def test_expired_atoms_are_reported_once_and_the_ledger_does_not_grow(project: Path) -> None:
    old = _session(project, 1, "2026-06-01", "Never deploy on Fridays.")  # more than 90 days before NOW
    _session(project, 2, "2026-11-01", "Never push directly to main.")
    data = gm_json(project, "capture", "--all", "--no-stage")
    fridays = gm_json(project, "extract", str(old))["atoms"][0]["id"]
    # one name for one thing: not kept on arrival (skipped), apart from dropped out of the store
    assert data["skipped"]["expired"] == [fridays] and data["dropped"] == {"expired": [], "evicted": []}
    ledger = project / ".git" / "agent-memory" / "captured.log"
    lines = ledger.read_text().splitlines()
    assert len([line for line in lines if "\ttranscript\t" in line]) == 2  # and the store's commits
    again = gm(project, "capture", "--all", "--no-stage").stdout
    assert "not kept" not in again and gm_json(project, "capture", "--all")["skipped"]["expired"] == []
    assert ledger.read_text().splitlines() == lines
    # --since reads what changed since the day, and says what it did not keep all the same
    old.write_text(old.read_text() + old.read_text().splitlines(keepends=True)[0])
    since = gm(project, "capture", "--all", "--no-stage", "--since", "2000-01-01").stdout
    assert since.startswith("captured 1 of 2 transcripts") and "1 atom not kept: last seen more than 90 days ago" in since


def test_an_atom_skipped_by_several_transcripts_is_listed_once(project: Path) -> None:
    """One expired claim in two transcripts of one backfill: `skipped.expired` names it once,
    and the text counts one atom."""
    for n, day in ((1, "2026-06-01"), (2, "2026-06-02")):  # both more than 90 days before NOW
        _session(project, n, day, "Never deploy on Fridays.")
    data = gm_json(project, "capture", "--all", "--no-stage")
    assert data["captured"] == 2 and len(data["skipped"]["expired"]) == 1, data["skipped"]
    (project / ".git" / "agent-memory" / "captured.log").unlink()
    text = gm(project, "capture", "--all", "--no-stage").stdout
    assert "1 atom not kept: last seen more than 90 days ago" in text


def test_a_copy_of_a_transcript_adds_no_observation_and_no_pointer(project: Path, tmp_path: Path) -> None:
    """The same session's lines read again from a copy — outside the projects folder, or beside
    the original under another name — are the same evidence: no observation, no commit, and
    no pointer naming a folder Claude Code never had (`~/.claude/projects/backup/…`)."""
    original = _session(project, 1, "2026-11-01", "Never push directly to main.")
    first = gm_json(project, "capture", str(original), "--no-stage")
    stored = gm_json(project, "inspect", "--tier", "L1")["atoms"]
    commits = _commits(project)
    (tmp_path / "backup").mkdir()
    copies = [tmp_path / "backup" / original.name, original.parent / "copy-of-session.jsonl"]
    for copy in copies:
        shutil.copy(original, copy)
        again = gm_json(project, "capture", str(copy), "--no-stage")
        assert again["commit"] is None and again["new"] == [] and again["merged"] == [], (copy, again)
    assert _commits(project) == commits and gm_json(project, "inspect", "--tier", "L1")["atoms"] == stored
    [atom] = stored
    assert atom["observations"] == 1 and first["new"] == [atom["id"]]
    pointers = {atom["source"], atom["first_source"], *(e["source"] for e in atom["evidence"])}
    assert pointers == {f"~/.claude/projects/{slug_for(project.resolve())}/{original.name}#L1"}
    # Read alone, the copy outside names the session's own transcript, not its folder.
    [dry] = gm_json(project, "extract", str(copies[0]))["atoms"]
    assert dry["source"] == atom["source"] and "backup" not in dry["source"]
    # A --session its records contradict does not make the copy another session's evidence.
    (tmp_path / "other").mkdir()
    third = shutil.copy(original, tmp_path / "other" / original.name)
    assert gm(project, "capture", str(third), "--session", "another-session", "--no-stage", check=False).returncode == 2
    assert gm_json(project, "inspect", "--tier", "L1")["atoms"] == stored


def test_a_transcript_that_grew_is_read_from_where_its_capture_stopped(project: Path) -> None:
    path = _session(project, 1, "2026-11-01", "Never push directly to main.")
    gm(project, "capture", "--all", "--no-stage")
    lines = len(path.read_text().splitlines())
    grown = write_session(project, "eeeeeeee-0000-4000-8000-000000000001", "2026-11-01",
                          [{"user": "Never push directly to main."}, {"user": "Use pnpm, not npm."}])  # fmt: skip
    assert grown == path and len(path.read_text().splitlines()) > lines
    # write_session rewrote the file with new record ids: it no longer matches where the
    # capture stopped, so it is read whole
    whole = gm_json(project, "capture", "--all", "--no-stage")
    assert whole["captured"] == 1 and whole["resumed"] == 0 and whole["new"] == 1
    # a session that goes on appends: only the new lines are read
    extra = write_session(project, "eeeeeeee-0000-4000-8000-0000000000ff", "2026-11-02", [{"user": "Always use vitest, not jest."}])
    appended = extra.read_text().replace("eeeeeeee-0000-4000-8000-0000000000ff", "eeeeeeee-0000-4000-8000-000000000001")
    extra.unlink()
    total = len(path.read_text().splitlines())
    with path.open("a") as fh:
        fh.write(appended)
    grew = gm_json(project, "capture", "--all", "--no-stage")
    assert grew["captured"] == 1 and grew["resumed"] == 1 and grew["new"] == 1 and grew["merged"] == 0
    vitest = next(a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if "vitest" in a["claim"])
    assert vitest["source"].endswith(f"eeeeeeee-0000-4000-8000-000000000001.jsonl#L{total + 1}")
    single = gm_json(project, "capture", str(path), "--no-stage")
    assert single["read"] == "unchanged" and single["commit"] is None


def test_a_new_store_starts_a_new_ledger(project: Path) -> None:
    _session(project, 1, "2026-11-01", "Never push directly to main.")
    gm(project, "capture", "--all", "--no-stage")
    git(project, "branch", "-D", "memory/atoms")
    # init refuses an empty store where one existed until the marker it left is gone
    assert gm(project, "init", "--yes", "--no-claude-hooks", check=False).returncode == 3
    (project / ".git" / "agent-memory" / "initialised").unlink()
    gm(project, "init", "--yes", "--no-claude-hooks")
    assert gm_json(project, "capture", "--all", "--no-stage")["new"] == 1


def test_nothing_new_is_known_from_a_stat_each(project: Path) -> None:
    """No transcript is read, and neither argparse, git objects nor the extraction load."""
    path = _session(project, 1, "2026-11-01", "Never push directly to main.")
    gm(project, "capture", "--all", "--no-stage")
    # same size and mtime, other bytes: were it read, it would now be unreadable
    st = path.stat()
    path.write_bytes(b"x" * st.st_size)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert gm(project, "capture", "--all").stdout.startswith("nothing new: 1 transcript of this project, 1 unchanged")
    probe = ("import sys\nfrom agent_memory.cli.main import main\ncode = main(['capture', '--all'])\n"
             "heavy = ['argparse', 'json', 'pygit2', 'git', 'jsonschema', 'agent_memory.store.l1', "
             "'agent_memory.extract.pipeline', 'agent_memory.transcripts.reader']\n"
             "print([m for m in heavy if m in sys.modules], code, file=sys.stderr)\n")  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", probe], cwd=project, capture_output=True, text=True, check=True)
    assert proc.stderr.strip() == "[] 0" and proc.stdout.startswith("nothing new")
    # anything the quick path does not know goes through argparse, as before
    bad = gm(project, "capture", "--all", "--since", "yesterday", check=False)
    assert bad.returncode == 2 and "--since 'yesterday' is not a date" in bad.stderr
    assert "usage: git memory capture" in gm(project, "capture", "--all", "-h").stdout


@pytest.mark.parametrize("first", ["by-session", "all"])
def test_a_session_captured_by_id_is_not_captured_again_by_all(project: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch, first: str) -> None:  # fmt: skip
    """`capture FILE --session ID` and `capture --all` are one capture of the same file, whichever
    ran first, however the file was named: here Claude Code's folder is a symlink (a dotfiles
    checkout), `--all` lists it through the link and the person names the file where it is. Keyed
    apart, the second run read the file whole again: a commit, and after `--session ID` a second
    session counted for the same statements."""
    real = Path(os.environ["CLAUDE_CONFIG_DIR"])
    real.mkdir(parents=True, exist_ok=True)
    link = tmp_path / "dotfiles-link"
    link.symlink_to(real, target_is_directory=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(link))
    listed = _session(project, 1, "2026-11-01", "Never push directly to main.")
    named = real / listed.relative_to(link)
    assert named.resolve() == listed.resolve() and str(named) != str(listed)
    by_id = ["capture", str(named), "--session", listed.stem, "--no-stage"]
    if first == "by-session":
        assert gm_json(project, *by_id)["new"]
        commits = _commits(project)
        again = gm_json(project, "capture", "--all", "--no-stage")
        assert again["captured"] == 0 and again["unchanged"] == 1 and again["commits"] == 0, again
        single = gm_json(project, "capture", str(listed), "--no-stage")
        assert single["read"] == "unchanged" and single["commit"] is None
    else:
        assert gm_json(project, "capture", "--all", "--no-stage")["new"] == 1
        commits = _commits(project)
        again = gm_json(project, *by_id)
        assert again["read"] == "unchanged" and again["commit"] is None, again
    assert _commits(project) == commits
    [atom] = gm_json(project, "inspect", "--tier", "L1")["atoms"]
    assert atom["observations"] == 1 and len(atom["sessions"]) == 1, atom


def _validate_errors(repo: Path) -> list[str]:
    """validate's errors about back-pointers, and its warning that a cited transcript is gone."""
    proc = gm(repo, "validate", "--output", "json", check=False)
    data = json.loads(proc.stdout)
    return ([e for e in data["errors"] if "back-pointer" in e]
            + [w for w in data.get("warnings", []) if "no longer on this machine" in w])  # fmt: skip


def test_a_transcript_renamed_away_from_its_session_is_stored_as_its_records_say(project: Path) -> None:
    """The session id in the records is the one Claude Code wrote: a transcript renamed away
    from it keeps that session, and its back-pointers name that session's file (the local path
    next to them still finds the renamed file), so `validate` has nothing to say."""
    original = _session(project, 1, "2026-11-01", "Never push directly to main.")
    renamed = original.rename(original.with_name("renamed-by-hand.jsonl"))
    gm_json(project, "capture", str(renamed), "--no-stage")
    [atom] = gm_json(project, "inspect", "--tier", "L1")["atoms"]
    assert atom["sessions"] == ["eeeeeeee-0000-4000-8000-000000000001"]
    pointers = {atom["source"], atom["first_source"], *(e["source"] for e in atom["evidence"])}
    assert pointers == {f"~/.claude/projects/{slug_for(project.resolve())}/{original.name}#L1"}
    assert _validate_errors(project) == []
    why = gm_json(project, "inspect", "--why", atom["id"])
    assert [e["status"] for e in why["evidence"]] == ["ok"]


def test_capture_refuses_a_session_its_records_contradict(project: Path) -> None:
    """`--session OTHER` on a transcript whose records name another session: exit 2 and a hint,
    nothing stored (it stored atoms whose sessions disagreed with their back-pointers). The
    records' own id, or a transcript that names none, is taken."""
    path = _session(project, 1, "2026-11-01", "Never push directly to main.")
    commits = _commits(project)
    proc = gm(project, "capture", str(path), "--session", "another-session", "--no-stage", check=False)
    assert proc.returncode == 2, proc
    lines = proc.stderr.splitlines()
    assert len(lines) == 2 and "eeeeeeee-0000-4000-8000-000000000001" in lines[0]
    assert lines[1].startswith("hint: ")
    assert _commits(project) == commits
    assert gm_json(project, "capture", str(path), "--session", "eeeeeeee-0000-4000-8000-000000000001",
                   "--no-stage")["new"]  # fmt: skip
    # records without a session id: --session names it, and the pointers follow
    bare = path.with_name("unnamed.jsonl")
    bare.write_text("".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "sessionId"}) + "\n"
                            for line in _session(project, 2, "2026-11-02", "Always use pnpm, not npm.")
                            .read_text().splitlines()))  # fmt: skip
    _session(project, 2, "2026-11-02", "x").unlink()
    gm_json(project, "capture", str(bare), "--session", "given-session", "--no-stage")
    pnpm = next(a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if "pnpm" in a["claim"])
    assert pnpm["sessions"] == ["given-session"] and pnpm["source"].endswith("/given-session.jsonl#L1"), pnpm
    assert _validate_errors(project) == []


@pytest.mark.parametrize("odd", ["file", "unreadable"])
def test_capture_all_says_when_the_sessions_folder_cannot_be_listed(repo: Path, odd: str) -> None:
    """~/.claude/projects a file (or CLAUDE_CONFIG_DIR pointing at one), or a folder this user
    may not read: every `capture --all` said "nothing new: 0 transcripts" while no session was
    ever captured. Now it says what it could not list, with a hint, exit 3; absent is still 0."""
    gm(repo, "init", "--yes")
    projects = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects"
    assert gm(repo, "capture", "--all").returncode == 0  # no session on this machine yet
    if odd == "file":
        projects.parent.mkdir(parents=True, exist_ok=True)
        projects.write_text("not a folder\n")
        proc = gm(repo, "capture", "--all", check=False)
    else:
        if os.geteuid() != 0 or not shutil.which("setpriv"):
            pytest.skip("needs root and setpriv to drop the capability that reads any folder")
        projects.mkdir(parents=True, exist_ok=True)
        projects.chmod(0)
        drop = "-dac_override,-dac_read_search,-fowner"
        env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]}
        try:
            proc = subprocess.run(["setpriv", f"--inh-caps={drop}", f"--bounding-set={drop}", "git", "memory",
                                   "capture", "--all"], cwd=repo, capture_output=True, text=True, env=env)
        finally:
            projects.chmod(0o755)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    first, hint = proc.stderr.strip().splitlines()
    assert first.startswith("git memory capture: cannot list Claude Code's sessions in ") and "nothing was captured" in first
    assert hint.startswith("hint: ") and "CLAUDE_CONFIG_DIR" in hint


def test_a_resumed_sessions_transcript_points_at_its_own_file(project: Path) -> None:
    """A `<new>.jsonl` that opens with the earlier session's records (their `sessionId` the old
    one) and goes on under the new id, as a public issue reports `claude --resume`/`--continue`
    writing (2.1.332 does not: tests/integration/test_client_resume.py). The
    back-pointers name the file read, whose line numbers they carry: named after the first
    record's session, they pointed into the old session's file, at a line it does not hold."""
    old = _session(project, 1, "2026-11-01", "Never push directly to main.")
    later = _session(project, 2, "2026-11-02", "Always use pnpm, not npm.")
    resumed = later.read_text().replace(later.stem, "eeeeeeee-0000-4000-8000-000000000003")
    new = later.with_name("eeeeeeee-0000-4000-8000-000000000003.jsonl")
    new.write_text(old.read_text() + resumed)
    later.unlink()
    # what the SessionEnd hook runs for the resumed session: its own id, never refused
    gm_json(project, "capture", str(new), "--session", new.stem, "--no-stage")
    pnpm = next(a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if "pnpm" in a["claim"])
    assert pnpm["sessions"] == [new.stem]
    line = len(old.read_text().splitlines()) + 1
    assert pnpm["source"] == f"~/.claude/projects/{slug_for(project.resolve())}/{new.name}#L{line}", pnpm
    why = gm_json(project, "inspect", "--why", pnpm["id"])
    assert [e["status"] for e in why["evidence"]] == ["ok"] and "pnpm" in why["evidence"][0]["line"]
    # the earlier session's lines are cited in this file too, and validate reads them as its
    assert _validate_errors(project) == []


def test_an_unchanged_transcript_is_not_opened_again(project: Path) -> None:
    """The SessionEnd capture of a transcript unchanged since its last capture is a stat: the
    ledger says so before anything is read. Its identity (the session its first records name)
    was worked out first, reading up to 200 lines of it for nothing."""
    path = _session(project, 1, "2026-11-01", "Never push directly to main.")
    gm_json(project, "capture", str(path), "--no-stage")
    code = (
        "import sys\n"
        "opened = []\n"
        f"sys.addaudithook(lambda e, a: opened.append(a) if e == 'open' and str(a[0]) == {str(path)!r} else None)\n"
        "from agent_memory.gitio import repo as g\n"
        "from agent_memory.store.capture import capture_file\n"
        "from agent_memory.store.l1 import L1Store\n"
        f"repo = g.find_repo({str(project)!r})\n"
        f"done = capture_file(L1Store(repo), g.project_of(repo), {str(path)!r}, {path.stem!r})\n"
        "print(done.read, len(opened))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True, env=env, timeout=120)
    assert proc.stdout.split() == ["unchanged", "0"], proc.stdout + proc.stderr


def test_a_session_given_names_a_transcript_whose_records_name_none(project: Path) -> None:
    """A file named as Claude Code names a session's keeps its name in the pointer only when its
    records name a session (a resumed one's do): with none, `--session` names the atoms'
    session and their pointers alike, so the two agree."""
    path = _session(project, 1, "2026-11-01", "Always use pnpm, not npm.")
    bare = path.with_name("eeeeeeee-0000-4000-8000-000000000009.jsonl")
    bare.write_text("".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "sessionId"}) + "\n"
                            for line in path.read_text().splitlines()))  # fmt: skip
    path.unlink()
    gm_json(project, "capture", str(bare), "--session", "given-session", "--no-stage")
    [atom] = gm_json(project, "inspect", "--tier", "L1")["atoms"]
    assert atom["sessions"] == ["given-session"] and atom["source"].endswith("/given-session.jsonl#L1"), atom
    assert _validate_errors(project) == []


def _forked(old: Path, new_id: str, own: Path) -> Path:
    """What `claude --resume <old> --fork-session` writes (2.1.332, tests/integration/
    test_client_resume.py): `<new>.jsonl` opening with copies of the earlier session's records,
    their `uuid` and `timestamp` kept and their `sessionId` rewritten to the new session's, then
    the new session's own records (`own`, a session written under the new id)."""
    records = [json.loads(line) for line in old.read_text().splitlines()]
    for record in records:
        record["sessionId"] = new_id
    fork = old.with_name(f"{new_id}.jsonl")
    fork.write_text("".join(json.dumps(r) + "\n" for r in records) + own.read_text())
    return fork


def test_a_forked_sessions_copy_of_the_earlier_lines_is_no_second_sighting(project: Path) -> None:
    """The rule typed once, before the fork, stays one observation in one session: the fork's
    copy of its line (same record uuid and time, the new session's id) was counted as a second
    sighting in a second session, toward the gate's distinct sessions. What the user types in
    the fork is the fork's, a rule typed again there included."""
    old = _session(project, 1, "2026-11-01", "Never push directly to main.")
    gm_json(project, "capture", str(old), "--session", old.stem, "--no-stage")  # its SessionEnd
    new_id = "eeeeeeee-0000-4000-8000-000000000004"
    own = write_session(project, new_id, "2026-11-02", [{"user": "Always use pnpm, not npm."}])
    fork = _forked(old, new_id, own)
    gm_json(project, "capture", str(fork), "--session", new_id, "--no-stage")  # the fork's
    atoms = {a["claim"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    push = atoms["Never push directly to main"]
    pnpm = next(a for claim, a in atoms.items() if "pnpm" in claim)
    folder = f"~/.claude/projects/{slug_for(project.resolve())}"
    assert (push["observations"], push["sessions"]) == (1, [old.stem]), push
    assert push["source"] == push["first_source"] == f"{folder}/{old.name}#L1"
    copied = len(old.read_text().splitlines())
    assert (pnpm["observations"], pnpm["sessions"]) == (1, [new_id]), pnpm
    assert pnpm["source"] == f"{folder}/{fork.name}#L{copied + 1}"
    assert _validate_errors(project) == []
    # Read again, from scratch too: nothing new.
    stored = gm_json(project, "inspect", "--tier", "L1")["atoms"]
    again = gm_json(project, "capture", "--all", "--no-stage")
    assert (again["new"], again["merged"]) == (0, 0), again
    (project / ".git" / "agent-memory" / "captured.log").unlink()
    again = gm_json(project, "capture", "--all", "--no-stage")
    assert (again["new"], again["merged"]) == (0, 0), again
    assert gm_json(project, "inspect", "--tier", "L1")["atoms"] == stored
    # The rule typed again after the fork is a sighting of the fork's.
    more = write_session(project, "eeeeeeee-0000-4000-8000-000000000005", "2026-11-02",
                         [{"user": "Never push directly to main."}])  # fmt: skip
    with fork.open("a") as fh:
        for line in more.read_text().splitlines():
            fh.write(json.dumps({**json.loads(line), "sessionId": new_id}) + "\n")
    more.unlink()
    gm_json(project, "capture", str(fork), "--session", new_id, "--no-stage")
    [push] = [a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a["id"] == push["id"]]
    assert (push["observations"], push["sessions"]) == (2, sorted([old.stem, new_id])), push


def test_a_forks_copy_of_a_rule_filed_under_its_other_spelling_is_no_second_sighting(project: Path) -> None:
    """"From now on, run the tests…" is held as the "Always run the tests…" said a session
    before; a fork's copy of that line is still known for a copy, under the atom it went to."""
    first = _session(project, 1, "2026-11-01", "Always run the tests before committing.")
    gm_json(project, "capture", str(first), "--session", first.stem, "--no-stage")
    old = _session(project, 2, "2026-11-02", "From now on, run the tests before committing.")
    gm_json(project, "capture", str(old), "--session", old.stem, "--no-stage")
    new_id = "eeeeeeee-0000-4000-8000-000000000004"
    own = write_session(project, new_id, "2026-11-03", [{"user": "Use pnpm, not npm."}])
    gm_json(project, "capture", str(_forked(old, new_id, own)), "--session", new_id, "--no-stage")
    atoms = {a["claim"]: a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    rule = atoms["Always run the tests before committing"]
    assert (rule["observations"], rule["sessions"]) == (2, sorted([first.stem, old.stem])), rule
    assert "Run the tests before committing" not in atoms


def test_a_backfill_reads_an_earlier_session_before_its_fork(project: Path) -> None:
    """Neither captured yet, and the fork's file named to be listed first: the backfill reads
    the transcripts in the order their sessions ended, as their SessionEnd captures would have,
    so the line typed before the fork is the earlier session's and its copy no sighting. In
    name order the copy came first and took the line for the fork's session."""
    old = write_session(project, "eeeeeeee-0000-4000-8000-000000000007", "2026-11-01",
                        [{"user": "Never push directly to main."}])  # fmt: skip
    new_id = "eeeeeeee-0000-4000-8000-000000000002"
    own = write_session(project, new_id, "2026-11-02", [{"user": "Always use pnpm, not npm."}])
    fork = _forked(old, new_id, own)
    os.utime(old, (1_790_000_000, 1_790_000_000))
    os.utime(fork, (1_790_090_000, 1_790_090_000))
    assert sorted([old.name, fork.name])[0] == fork.name
    data = gm_json(project, "capture", "--all", "--no-stage")
    assert data["captured"] == 2 and data["failed"] == 0, data
    [push] = [a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if "push" in a["claim"]]
    assert (push["observations"], push["sessions"]) == (1, [old.stem]), push
    assert push["source"].endswith(f"/{old.name}#L1")
    assert _validate_errors(project) == []


@pytest.mark.parametrize("ids", ["rewritten", "kept"])
def test_extract_of_a_forked_sessions_file_leaves_out_its_copies_as_capture_does(project: Path, ids: str) -> None:
    """`extract` (the dry run) listed the fork's copies of the earlier session's lines as the
    fork's own claims, where capture adds no sighting for them: now it leaves them out the same
    way and names them under `copies`. Both layouts: the sessionId rewritten to the fork's
    (2.1.332), or kept as the earlier session's (reported for some client versions)."""
    old = _session(project, 1, "2026-11-01", "Never push directly to main.")
    gm_json(project, "capture", str(old), "--session", old.stem, "--no-stage")
    new_id = "eeeeeeee-0000-4000-8000-000000000006"
    own = write_session(project, new_id, "2026-11-02", [{"user": "Always use pnpm, not npm."}])
    fork = _forked(old, new_id, own) if ids == "rewritten" else old.with_name(f"{new_id}.jsonl")
    if ids == "kept":
        fork.write_text(old.read_text() + own.read_text())

    listed = gm_json(project, "extract", "--transcript", str(fork))
    claims = [a["claim"] for a in listed["atoms"] + listed["pending"]]
    assert not any("push" in c for c in claims) and any("pnpm" in c for c in claims), listed
    assert [(c["claim"], c["line"]) for c in listed["copies"]] == [("Never push directly to main", 1)]
    said = gm(project, "extract", "--transcript", str(fork)).stdout
    assert "left out as copies of an earlier session's lines" in said and "Never push directly to main" in said

    before = {a["id"]: a["observations"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    gm_json(project, "capture", str(fork), "--session", new_id, "--no-stage")
    after = {a["id"]: a["observations"] for a in gm_json(project, "inspect", "--tier", "L1")["atoms"]}
    grew = {ident for ident, n in after.items() if n > before.get(ident, 0)}
    assert grew == {a["id"] for a in listed["atoms"] + listed["pending"]}  # what extract listed, no more
    # outside any repository (no store to ask) nothing is known as a copy, as for capture
    outside = gm_json(project.parent, "extract", "--transcript", str(fork), "--project", "proj")
    assert outside["copies"] == [] and any("push" in a["claim"] for a in outside["atoms"] + outside["pending"])
