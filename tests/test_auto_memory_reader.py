"""Claude Code's own auto-memory folder as a source (issue 27 §1): every topic file one candidate
or one skip, frontmatter read tolerantly, the claim the memory's own rule without markdown, the
kind following the type, `observed` only, labelled with its origin and file, redacted first.

The folder is `tests/fixtures/auto-memory/folder` (our own paraphrases of every variant seen in
real folders); a BOM, CRLF line ends and symlinks are added here, where git cannot mangle them."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIXTURES, git
from sessions import gm

from agent_memory.automemory import notes as reader
from agent_memory.automemory.frontmatter import normalise_text, parse
from agent_memory.automemory.location import memory_slug
from agent_memory.automemory.markdown import first_sentence, plain, split_body
from agent_memory.extract.memory_notes import claim_for, extract_folder, kind_for, memory_atoms
from agent_memory.model.atom import atom_errors, merge
from agent_memory.redact.redactor import redact

FOLDER = FIXTURES / "auto-memory" / "folder"
KINDS_OF_TYPE = {"feedback": {"constraint", "preference"}, "project": {"fact", "decision"},
                 "user": {"preference", "fact"}, "reference": {"fact"}}  # fmt: skip


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The fixture folder plus what git does not carry: BOM + CRLF, symlinks in and out."""
    out = tmp_path / "projects" / "-home-user-proj" / "memory"
    shutil.copytree(FOLDER, out)
    text = (FOLDER / "feedback_no_force_push.md").read_text("utf-8").replace("\n", "\r\n")
    (out / "feedback_crlf_bom.md").write_bytes(
        "\ufeff".encode() + text.replace("Never force-push", "Never rebase").replace(
            "No force pushes", "No rebases").encode("utf-8"))  # fmt: skip
    outside = tmp_path / "outside.md"
    outside.write_text("---\ndescription: Secrets live in the vault\ntype: reference\n---\n", "utf-8")
    (out / "linked.md").symlink_to(outside)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "feedback_far.md").write_text("---\ndescription: x y z\ntype: feedback\n---\n")
    (out / "linked_dir").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    return out


# --- frontmatter and markdown -------------------------------------------------------------------


def test_frontmatter_is_read_tolerantly() -> None:
    raw = ("\ufeff---\r\nname: Deploys\r\ndescription: Deploys: use the script: it tags first\r\n"
           "metadata: \r\n  node_type: memory\r\n  type: Feedback\r\n  originSessionId: abc\r\n"
           "notes: >\r\n  folded\r\n  text\r\n---\r\nBody line\r\n").encode()  # fmt: skip
    front = parse(normalise_text(raw))
    assert front.present and front.body == "Body line\n" and front.body_line == 12
    assert front.get("description") == "Deploys: use the script: it tags first"  # colons kept
    assert front.get("type") == "Feedback" and front.get("originSessionId") == "abc"
    assert front.fields["notes"] == "folded text"
    assert parse('---\ndescription: "quoted \\"and\\" escaped"\ntype: \'user\'\n---\n').get("description") == 'quoted "and" escaped'
    assert not parse("---\nname: never closed\n\nbody").present  # no closing fence: all body
    assert not parse("# Title\n\nbody").present


def test_markdown_comes_off_a_rule_line() -> None:
    line = "- **Never** push to [main](https://x.invalid/main) or [[release-notes|the release]] 🚨 <br/> ~~now~~ `keep **this**`"
    assert plain(line) == "Never push to main or the release now `keep **this**`"
    assert plain("## Heading text") == "Heading text" and plain("> quoted *word*") == "quoted word"
    assert first_sentence("Use uv, e.g. for tests. Then commit.") == "Use uv, e.g. for tests."
    assert first_sentence("Version 1.2 is out. 다음 문장.") == "Version 1.2 is out."
    assert first_sentence("先执行。再报告。") == "先执行。"


def test_the_body_leads_with_the_rule_or_the_description_sums_it_up() -> None:
    parts = split_body("\n**CRITICAL:** All ids must be unique.\n\n**Why:** data corruption.\n**How to apply:**\n- check\n- test\n")
    assert (parts.lead, parts.why, parts.how) == ("All ids must be unique.", "data corruption.", "check; test")
    listed = split_body("## Rules\n\n1. Delete to the recycle bin, never with rm.\n")
    assert listed.lead is None and listed.first == "Delete to the recycle bin, never with rm."
    lead_in = split_body("Strong visual preferences:\n\n- **Corners:** small\n")
    assert lead_in.lead is None and lead_in.first is None


# --- the folder ---------------------------------------------------------------------------------


def test_every_topic_file_is_one_candidate_or_one_skip(folder: Path) -> None:
    read = reader.read_folder(folder)
    notes = {n.file: n for n in read.notes}
    skipped = {s.file: s.reason for s in read.skipped}
    assert not set(notes) & set(skipped)
    assert set(read.indexes) == {"MEMORY.md", "team/MEMORY.md"}  # indexes are neither
    assert skipped == {
        "empty.md": reader.EMPTY, "notes.txt": reader.NOT_MARKDOWN, "scratch.md": reader.NO_RULE,
        "template_profile.md": reader.TEMPLATE, "linked.md": reader.SYMLINK, "linked_dir": reader.SYMLINK,
    }  # fmt: skip
    assert set(notes) == {
        "feedback_release_branch.md", "feedback_no_force_push.md", "feedback_crlf_bom.md",
        "project_billing_freeze.md", "user_terse.md", "reference_dashboards.md", "deploy_script.md",
        "lesson_flaky_clock.md", "staging_notes.md", "team/feedback_reviews.md",
    }  # fmt: skip
    assert ".memory-pressure.jsonl" not in notes | skipped  # dotfiles are bookkeeping
    assert notes["feedback_release_branch.md"].type == "feedback"  # under `metadata: ` (trailing space)
    assert notes["feedback_crlf_bom.md"].rule == "Never rebase to a branch someone else may have pulled — use a revert commit instead."
    assert notes["feedback_crlf_bom.md"].name == "No rebases"  # a title; the others are slugs
    assert notes["lesson_flaky_clock.md"].type == "lesson" and not notes["lesson_flaky_clock.md"].known_type
    assert not notes["staging_notes.md"].frontmatter
    assert notes["deploy_script.md"].description == "Deploys: use ./deploy.sh, not kubectl apply: the script tags the image first"


def test_atoms_follow_the_type_and_carry_no_markdown(folder: Path) -> None:
    result = extract_folder(folder, "proj", memory_slug(folder))
    by_file = {a["memory_file"]: a for a in result.atoms}
    assert by_file["feedback_release_branch.md"]["claim"] == "Deploy from the release branch, never from `main`"
    assert by_file["feedback_release_branch.md"]["kind"] == "constraint"
    assert by_file["project_billing_freeze.md"]["kind"] == "decision"
    assert by_file["user_terse.md"]["claim"] == "Prefer short answers that start with the result"  # as if typed
    assert by_file["user_terse.md"]["kind"] == "preference"
    assert by_file["reference_dashboards.md"]["kind"] == "fact"
    assert by_file["lesson_flaky_clock.md"]["kind"] == "fact"  # an unknown type: fact unless a rule
    assert by_file["staging_notes.md"]["kind"] == "constraint"
    read = {n.file: n for n in result.notes}
    for atom in result.atoms:
        assert atom_errors(atom) == []
        assert atom["confidence"] == "observed" and atom["origin"] == "auto-memory"
        assert "**" not in atom["claim"] and "Why" not in atom["claim"] and not atom["claim"].startswith(("-", "#"))
        note = read[atom["memory_file"]]
        if note.known_type:
            assert atom["kind"] in KINDS_OF_TYPE[str(note.type)]
    # Why / How to apply travel in the evidence quote, for the review.
    quote = by_file["feedback_no_force_push.md"]["evidence"][0]["quote"]
    assert "Why: a teammate lost a morning" in quote and "How to apply: `git push --force` only" in quote


def test_provenance_without_a_transcript(folder: Path) -> None:
    """No transcript shows the write: the session `originSessionId` names (line 0: the session,
    not one of its lines), else the memory file itself in canonical `~/.claude/projects/` form."""
    by_file = {a["memory_file"]: a for a in extract_folder(folder, "proj", "-home-user-proj").atoms}
    stamped = by_file["feedback_release_branch.md"]
    assert stamped["sessions"] == ["0b7c8a52-3f1e-4d5a-9c11-5e2f8b7d6a01"]
    assert stamped["source"] == "~/.claude/projects/-home-user-proj/0b7c8a52-3f1e-4d5a-9c11-5e2f8b7d6a01.jsonl#L0"
    assert stamped["first_seen"] != "2026-10-05T09:12:44Z"  # the file's mtime: `modified` is model-written
    plain_file = by_file["team/feedback_reviews.md"]
    assert plain_file["source"] == "~/.claude/projects/-home-user-proj/memory/team/feedback_reviews.md#L8"
    for atom in by_file.values():
        assert not atom["source"].startswith("/") and str(folder) not in atom["source"]


def test_the_models_own_first_person_is_not_read_as_the_users() -> None:
    # a memory file is the model's writing: its "I" is Claude, never the user (a typed prompt's
    # "before I commit" is "before the user commits"; the model's is before Claude commits)
    assert claim_for("Always run the tests before I commit")[0] == "Always run the tests before I commit"
    assert claim_for("My notes live in docs/notes")[0] == "My notes live in docs/notes"
    # the rule the user typed and the rule the model wrote down are still one claim
    assert claim_for("Never tell the user it's not medical advice")[0] == (
        "Never tell the user it's not medical advice"
    )


def test_kind_follows_type_and_the_rule_shape() -> None:
    assert kind_for("feedback", "Never deploy on Fridays", "fact") == "constraint"
    assert kind_for("feedback", "Short commit subjects read better", "fact") == "preference"
    assert kind_for("feedback", "不要直接永久删除", "fact") == "constraint"
    assert kind_for("project", "We switched to uv for installs", "fact") == "decision"
    assert kind_for("project", "The API runs on port 8080", "fact") == "fact"
    assert kind_for("user", "Prefers dark themes", "fact") == "preference"
    assert kind_for("user", "Works in Berlin", "fact") == "fact"
    assert kind_for("reference", "Never edit generated files", "constraint") == "fact"
    assert kind_for(None, "Always run the linter", "fact") == "constraint"


def test_a_secret_in_a_memory_never_reaches_an_atom(tmp_path: Path) -> None:
    token = base64.b64decode("Z2hwX1JqOGtPZlZocGczQ2E3S0xyMEp3cXRoNXpYRmhjM1lOZFdwUQ==").decode()
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "feedback_token.md").write_text(
        f"---\ndescription: Use the token {token} for the API\ntype: feedback\n---\n\n"
        f"Call the API with {token} in the header.\n\n**Why:** it is the bot's token {token}.\n", "utf-8")
    [atom] = extract_folder(tmp_path / "memory", "proj", "-p").atoms
    text = json.dumps(atom)
    assert token not in text and atom["redacted"] is True
    assert all(not redact(s)[1] for s in (atom["claim"], atom["evidence"][0]["quote"]))


def test_two_files_with_one_rule_are_one_atom_and_merge_is_a_join(folder: Path) -> None:
    shutil.copy(folder / "user_terse.md", folder / "user_terse_copy.md")
    read = reader.read_folder(folder)
    atoms = memory_atoms(read.notes, "proj", "-p", folder)
    [terse] = [a for a in atoms if a["claim"].startswith("Prefer short answers")]
    # no transcript shows either write: the folder's copy is one observation, not one a file
    assert terse["memory_file"] == "user_terse.md" and len(terse["sessions"]) == 1
    a, b = (memory_atoms([n], "proj", "-p", folder)[0] for n in read.notes if n.file.startswith("user_terse"))
    assert merge(a, b) == merge(b, a) == merge(merge(a, b), b)


# --- the CLI ------------------------------------------------------------------------------------


def _gm(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return gm(cwd, *args, check=False)


def test_extract_auto_memory_is_a_dry_run_of_the_project_folder(repo: Path, isolated_env: Path) -> None:
    from agent_memory.model.paths import slug_for

    folder = isolated_env / ".claude" / "projects" / slug_for(str(repo.resolve())) / "memory"
    shutil.copytree(FOLDER, folder)
    before = sorted(p.name for p in folder.rglob("*"))
    refs = git(repo, "for-each-ref")
    proc = _gm(repo, "extract", "--auto-memory", "--output", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data) == {"atoms", "skipped", "problems"} and data["problems"] == []
    assert {s["file"] for s in data["skipped"]} == {"empty.md", "notes.txt", "scratch.md", "template_profile.md"}
    assert all(a["project"] == "proj" and a["origin"] == "auto-memory" for a in data["atoms"])
    assert len(data["atoms"]) == 9
    assert sorted(p.name for p in folder.rglob("*")) == before and git(repo, "for-each-ref") == refs  # wrote nothing
    text = _gm(repo, "extract", "--auto-memory", str(folder))
    assert text.returncode == 0 and "skipped notes.txt: not markdown" in text.stdout
    assert "9 candidate atoms, 4 skipped; project proj" in text.stdout.splitlines()[0]
    # one memory, one candidate: counted in words that agree ("1 memories", "1 candidate atoms")
    one = isolated_env / "one"
    one.mkdir()
    (one / "testing.md").write_text("---\nname: testing\ndescription: how to test\ntype: feedback\n---\n"
                                    "Always run pytest -x before committing.\n")  # fmt: skip
    first = _gm(repo, "extract", "--auto-memory", str(one)).stdout.splitlines()[0]
    assert first.endswith("/one: 1 memory of Claude's own, 1 candidate atom, 0 skipped; project proj"), first


def test_extract_auto_memory_bad_input(repo: Path, tmp_path: Path) -> None:
    proc = _gm(repo, "extract", "--auto-memory", str(tmp_path / "nowhere"))
    assert proc.returncode == 2 and "no auto-memory folder" in proc.stderr and "hint:" in proc.stderr
    proc = _gm(tmp_path, "extract", "--auto-memory")
    assert proc.returncode == 3 and "hint:" in proc.stderr  # outside a repository: which folder?
    proc = _gm(repo, "extract", "--auto-memory", str(repo), "--transcript", str(repo / "README.md"))
    assert proc.returncode == 2 and "not both" in proc.stderr


def test_a_memory_file_back_pointer(isolated_env: Path) -> None:
    """The file form validates at L1 (canonical) and L2 (stripped), never with a `..` segment,
    and resolves to the file under CLAUDE_CONFIG_DIR."""
    from builders import l1_atom

    from agent_memory.model.atom import to_committed
    from agent_memory.model.paths import is_memory_pointer, resolve_pointer

    pointer = "~/.claude/projects/-home-user-proj/memory/team/feedback_reviews.md#L8"
    atom = {**l1_atom("Always ask for two approvals"), "source": pointer, "first_source": pointer,
            "origin": "auto-memory", "memory_file": "team/feedback_reviews.md"}  # fmt: skip
    atom.pop("evidence", None)
    assert atom_errors(atom) == [] and is_memory_pointer(pointer)
    committed = to_committed(atom, "L2", "2026-11-01T00:00:00Z")
    assert committed["source"] == "feedback_reviews.md#L8" and atom_errors(committed) == []
    for bad in ("~/.claude/projects/p/memory/../../etc/passwd.md#L1", "~/.claude/projects/p/memory/.x.md#L1"):
        assert atom_errors({**atom, "source": bad}), bad
    assert atom_errors({**atom, "memory_file": "../outside.md"})
    target = isolated_env / ".claude" / "projects" / "-home-user-proj" / "memory" / "team" / "feedback_reviews.md"
    assert resolve_pointer(pointer)[0] == "missing"
    target.parent.mkdir(parents=True)
    target.write_text("x\n")
    assert resolve_pointer(pointer) == ("ok", [target], 8)
    assert resolve_pointer("feedback_reviews.md#L8") == ("ok", [target], 8)


def test_a_memory_file_with_a_newline_in_its_name_is_captured(repo: Path, isolated_env: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A file name is anyone's: one with a newline (or a tab, a backslash, a leading space) went
    into the atom's `memory_file` as it was, the atom failed the schema, and capture dropped the
    memory at every run (one errors.log line each time). The name is made what the schema
    allows where it enters the atom; the memory is kept, and the run and the store stay valid."""
    from agent_memory.model.paths import slug_for

    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-05T12:00:00Z")
    gm(repo, "init", "--yes", "--no-claude-hooks")
    folder = isolated_env / ".claude" / "projects" / slug_for(str(repo.resolve())) / "memory"
    folder.mkdir(parents=True)
    odd = {"feedback_no\nforce_push.md": "feedback_no-force_push.md",
           " project_billing\\freeze.md": "-project_billing-freeze.md"}  # fmt: skip
    sources = ["feedback_no_force_push.md", "project_billing_freeze.md"]
    for name, source in zip(odd, sources, strict=True):
        shutil.copy(FOLDER / source, folder / name)
    assert sorted(p.name for p in folder.iterdir()) == sorted(odd)
    proc = gm(repo, "capture", "--all", "--output", "json", check=False)
    assert proc.returncode == 0, proc.stderr
    done = json.loads(proc.stdout)["auto_memory"]
    assert done["memories"] == 2 and len(done["new"]) == 2 and done["commit"], done
    atoms = json.loads(gm(repo, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]
    assert sorted(a["memory_file"] for a in atoms) == sorted(odd.values())
    assert all(atom_errors(a) == [] for a in atoms)
    errors = repo / ".git" / "agent-memory" / "errors.log"
    assert not errors.exists() or "invalid atom" not in errors.read_text()
    assert gm(repo, "validate", check=False).returncode == 0


def test_capture_all_of_claude_memory_alone_does_not_say_nothing_to_capture(repo: Path, isolated_env: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A project with Claude's own memory and no session yet: `capture --all` said "nothing to
    capture: no Claude Code session …" and, on the next line, that it captured the memory."""
    from agent_memory.model.paths import slug_for

    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-11-05T12:00:00Z")
    gm(repo, "init", "--yes", "--no-claude-hooks")
    folder = isolated_env / ".claude" / "projects" / slug_for(str(repo.resolve())) / "memory"
    folder.mkdir(parents=True)
    shutil.copy(FOLDER / "feedback_no_force_push.md", folder / "feedback_no_force_push.md")
    lines = gm(repo, "capture", "--all").stdout.splitlines()
    assert lines[0].startswith("no Claude Code session of proj yet"), lines
    assert lines[1].startswith("  Claude's own memory: 1 memory in ") and lines[1].endswith(", 1 new, 0 merged"), lines
    again = gm(repo, "capture", "--all").stdout  # nothing new now: said so
    assert again.startswith("nothing to capture: no Claude Code session"), again


def test_a_secret_in_a_memory_files_name_reaches_no_atom(guarded: Path) -> None:
    """A file's name is the model's (or anyone's) writing. `memory_file` was redacted, but the
    file's back-pointer, its stand-in session (`memory-<name>`) and its `--why` path were
    spelled from the raw name: an access key named as a file sat in `sessions`, `source`
    and the evidence of the L1 store — and `source` is what an adopt commits (stripped to
    `<file>#L<n>`). Every one of them is now spelled from the redacted name."""
    from agent_memory.automemory.location import resolve_auto_memory_dir

    key = "AKIA" + base64.b64decode("UVlMUE1ONUhKM1VPNlhXMg==").decode()  # an access key id's shape
    folder = resolve_auto_memory_dir(guarded).path
    folder.mkdir(parents=True)
    (folder / f"{key}.md").write_text("---\ntype: feedback\n---\nNever commit the build folder.\n", "utf-8")
    gm(guarded, "capture", "--all", "--no-stage")
    [atom] = json.loads(gm(guarded, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]
    assert atom["claim"] == "Never commit the build folder"
    assert key not in json.dumps(atom), atom
    assert key not in git(guarded, "log", "-p", "memory/atoms")


def test_a_memory_renamed_or_restamped_between_captures_is_not_a_recurrence(guarded: Path) -> None:
    """No transcript shows the rule written: the folder's copy is one observation in all. That
    held within one read only: each capture read the copy afresh, under a session spelled from
    the file's name (`memory-<name>`) or its `originSessionId` stamp, so a memory renamed (or
    restamped) on three days became three sessions on three days, eligible for L2 with no
    evidence but the file. A copy whose claim the store already holds as Claude's own memory
    is now nothing new."""
    import os

    from agent_memory.automemory.location import resolve_auto_memory_dir

    folder = resolve_auto_memory_dir(guarded).path
    folder.mkdir(parents=True)
    text = "---\ntype: feedback\n{stamp}---\nNever deploy the staging cluster on Fridays.\n"
    stamps = ["", "originSessionId: 0b7c8a52-3f1e-4d5a-9c11-5e2f8b7d6a01\n",
              "originSessionId: 1c8d9b63-4a2f-4e6b-8d22-6f3a9c8e7b12\n", ""]  # fmt: skip
    previous = None
    for day, (name, stamp) in enumerate(zip(("a.md", "b.md", "c.md", "d.md"), stamps, strict=True), start=1):
        if previous is not None:
            previous.unlink()
        note = folder / name
        note.write_text(text.format(stamp=stamp), "utf-8")
        when = _dt_stamp(f"2026-10-0{day}T10:00:00")
        os.utime(note, (when, when))
        gm(guarded, "capture", "--all", "--no-stage")
        previous = note
    [atom] = json.loads(gm(guarded, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]
    assert len(atom["sessions"]) == 1, atom["sessions"]
    promote = json.loads(gm(guarded, "promote", "--output", "json").stdout)
    assert promote["eligible"] == [], promote


def _dt_stamp(text: str) -> float:
    import datetime as dt

    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC).timestamp()


def test_a_folder_read_short_of_its_end_says_so(repo: Path, isolated_env: Path) -> None:
    """The walk stops past `MAX_DEPTH` folders (and `MAX_FILES` entries) and says why; the
    files past the bound are neither notes nor skips. `extract --auto-memory` printed "N
    memories" as if that were the folder, and capture's report said nothing (one errors.log
    line only): a partial read looked whole. Both now say where the read stopped and why."""
    from agent_memory.automemory.walk import MAX_DEPTH
    from agent_memory.model.paths import slug_for

    gm(repo, "init", "--yes", "--no-claude-hooks")
    folder = isolated_env / ".claude" / "projects" / slug_for(str(repo.resolve())) / "memory"
    deep = folder / "/".join(f"d{n}" for n in range(MAX_DEPTH + 1))
    deep.mkdir(parents=True)
    shutil.copy(FOLDER / "feedback_no_force_push.md", folder / "feedback_no_force_push.md")
    shutil.copy(FOLDER / "project_billing_freeze.md", deep / "project_billing_freeze.md")
    data = json.loads(_gm(repo, "extract", "--auto-memory", "--output", "json").stdout)
    assert len(data["atoms"]) == 1
    [problem] = data["problems"]
    assert f"more than {MAX_DEPTH} levels deep not read" in problem, problem
    text = _gm(repo, "extract", "--auto-memory").stdout
    assert "not read in full" in text and f"more than {MAX_DEPTH} levels deep not read" in text, text
    done = json.loads(gm(repo, "capture", "--all", "--no-stage", "--output", "json").stdout)["auto_memory"]
    assert done["problems"] == [problem], done
    touched = folder / "feedback_no_force_push.md"
    touched.write_text(touched.read_text() + "\n")
    text = gm(repo, "capture", "--all", "--no-stage").stdout
    assert "not read in full" in text and f"more than {MAX_DEPTH} levels deep not read" in text, text


def test_capture_says_a_linked_folder_was_not_read(repo: Path, isolated_env: Path, tmp_path: Path) -> None:
    """capture --all over a memory folder that is a symlink logged one errors.log line and
    printed nothing about the folder: its JSON said `"read": "symlink"`, its text nothing."""
    from agent_memory.model.paths import slug_for

    gm(repo, "init", "--yes", "--no-claude-hooks")
    real = tmp_path / "real-memory"
    shutil.copytree(FOLDER, real)
    folder = isolated_env / ".claude" / "projects" / slug_for(str(repo.resolve())) / "memory"
    folder.parent.mkdir(parents=True)
    folder.symlink_to(real, target_is_directory=True)
    text = gm(repo, "capture", "--all", "--no-stage").stdout
    assert f"{folder.parent.name}/memory is a symlink: not read" in text, text
    done = json.loads(gm(repo, "capture", "--all", "--no-stage", "--output", "json").stdout)
    assert done["auto_memory"] == {"folder": str(folder), "read": "symlink"}, done


def test_a_memory_file_that_is_not_utf8_is_skipped_not_guessed(repo: Path, isolated_env: Path) -> None:
    """Undecodable bytes were replaced with U+FFFD and the rule around them became a claim: a
    lossy reading of the model's text, stored and staged as if it had written it. A transcript
    line that is not UTF-8 is skipped (transcripts/reader.py), and so is such a memory file,
    with its reason; its sound neighbours are read as ever."""
    from agent_memory.model.paths import slug_for

    gm(repo, "init", "--yes", "--no-claude-hooks")
    folder = isolated_env / ".claude" / "projects" / slug_for(str(repo.resolve())) / "memory"
    folder.mkdir(parents=True)
    shutil.copy(FOLDER / "feedback_no_force_push.md", folder / "feedback_no_force_push.md")
    (folder / "feedback_latin1.md").write_bytes(
        b"---\ntype: feedback\n---\nNever deploy the caf\xe9 service on Fridays.\n")  # Latin-1, not UTF-8
    data = json.loads(_gm(repo, "extract", "--auto-memory", "--output", "json").stdout)
    assert "\ufffd" not in json.dumps(data, ensure_ascii=False)
    assert {s["file"]: s["reason"] for s in data["skipped"]} == {"feedback_latin1.md": reader.NOT_UTF8}, data["skipped"]
    assert len(data["atoms"]) == 1
    gm(repo, "capture", "--all", "--no-stage")
    atoms = json.loads(gm(repo, "inspect", "--tier", "L1", "--output", "json").stdout)["atoms"]
    assert len(atoms) == 1 and "\ufffd" not in json.dumps(atoms, ensure_ascii=False)


def test_a_transcript_write_of_unencodable_text_does_not_stop_the_folder_read(tmp_path: Path) -> None:
    """A Write whose JSON content holds a lone surrogate (`\\ud800`, valid JSON, not encodable
    as UTF-8) raised UnicodeEncodeError in the writes reader, and the whole folder capture
    failed. Its rule is unknown, as for a write whose result shows no text."""
    from agent_memory.automemory.writes import FolderMatch, find_writes

    folder = tmp_path / "projects" / "-p" / "memory"
    folder.mkdir(parents=True)
    target = folder / "feedback_x.md"
    content = "---\\ntype: feedback\\n---\\nNever \\ud800 deploy on Fridays.\\n"
    call = {"type": "assistant", "sessionId": "s1", "timestamp": "2026-11-02T09:00:00Z", "message": {"content": [
        {"type": "tool_use", "id": "t1", "name": "Write", "input": {"file_path": str(target), "content": "x"}}]}}
    answer = ('{"type": "user", "sessionId": "s1", "timestamp": "2026-11-02T09:00:01Z", "message": {"content": '
              '[{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}, "toolUseResult": {"type": "create", '
              f'"content": "{content}"}}}}')
    transcript = tmp_path / "s1.jsonl"
    transcript.write_text(json.dumps(call) + "\n" + answer + "\n", "utf-8")
    [found] = find_writes(transcript, FolderMatch(folder))
    assert found.file == "feedback_x.md" and found.rule is None
