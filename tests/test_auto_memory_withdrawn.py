"""Claude taking back its own memory (promote/withdrawn.py): a memory whose only source is the
auto-memory folder, deleted or rewritten there, is not staged while the folder does not say it,
and one already waiting on memory/review stays there with its review saying so. Nothing stored
is dropped; a claim the user also typed is judged as before."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import git
from memory_writes import edit, prompt, save, topic, write
from sessions import gm, gm_json, write_session

from agent_memory.automemory.location import resolve_auto_memory_dir

RULE = "Always run the database migrations before the test suite."
CLAIM = "Always run the database migrations before the test suite"
TYPED_RULE = "Never commit generated protobuf files."
WITHDRAWN = "Claude's memory no longer says this"


@pytest.fixture
def claude_memories(guarded: Path) -> tuple[Path, Path]:
    """Claude wrote two memories: the migrations rule (written, then edited in two more
    sessions over two days; the user never typed it) and the protobuf rule (written once, and
    typed by the user in a session of their own)."""
    folder = resolve_auto_memory_dir(guarded).path
    transcripts, cwd = folder.parent, str(guarded)
    mine, theirs = folder / "feedback_migrations.md", folder / "feedback_protobuf.md"
    text = topic("Migrations run before tests", RULE, session="s-one")
    typed = topic("Generated files", TYPED_RULE, session="s-one")
    save(transcripts / "s-one.jsonl", [prompt("s-one", "2026-11-02T09:00:00Z", "why did CI fail?", cwd=cwd),
                                       *write("s-one", "2026-11-02T09:00:05Z", mine, text, call_id="t1", cwd=cwd),
                                       *write("s-one", "2026-11-02T09:00:09Z", theirs, typed, call_id="t2", cwd=cwd)])
    for session, day, old, new in (("s-two", "2026-11-02T15:00:00Z", "it broke twice", "it broke three times"),
                                   ("s-three", "2026-11-03T10:00:00Z", "check before acting", "check first")):
        save(transcripts / f"{session}.jsonl", edit(session, day, mine, text, old, new, call_id=f"e-{session}", cwd=cwd))
        text = text.replace(old, new)
    folder.mkdir(parents=True, exist_ok=True)
    mine.write_text(text, "utf-8")
    theirs.write_text(typed, "utf-8")
    (folder / "MEMORY.md").write_text("- [Migrations](feedback_migrations.md)\n- [Protobuf](feedback_protobuf.md)\n", "utf-8")
    write_session(guarded, "typed-1", "2026-11-04", [{"user": TYPED_RULE}])
    gm(guarded, "capture", "--all", "--no-stage")
    return guarded, folder


def _atoms(repo: Path) -> dict[str, dict[str, object]]:
    return {str(a["claim"]): a for a in gm_json(repo, "inspect", "--tier", "L1")["atoms"]}


def _captured_again(repo: Path, folder: Path) -> None:
    """A capture after Claude changed its folder (the folder's time moved, so it is read)."""
    st = folder.stat()
    os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    gm(repo, "capture", "--all", "--no-stage")


def test_a_memory_claude_deleted_is_not_staged_and_says_why(claude_memories: tuple[Path, Path]) -> None:
    repo, folder = claude_memories
    before = _atoms(repo)
    mine, typed = before[CLAIM], before[TYPED_RULE.rstrip(".")]
    assert {e["rule"].split(".")[0] for e in mine["evidence"]} == {"auto_memory"}  # Claude's memory alone
    assert any(not e["rule"].startswith("auto_memory") for e in typed["evidence"])  # the user typed it too
    eligible = {e["id"] for e in gm_json(repo, "promote")["eligible"]}
    assert {mine["id"], typed["id"]} <= eligible

    (folder / "feedback_migrations.md").unlink()
    (folder / "feedback_protobuf.md").unlink()
    _captured_again(repo, folder)
    assert _atoms(repo) == before  # nothing stored is dropped or changed

    promote = gm_json(repo, "promote")
    blocked = {b["id"]: b["reasons"] for b in promote["blocked"]}
    assert blocked[mine["id"]] == [WITHDRAWN], promote
    assert typed["id"] in {e["id"] for e in promote["eligible"]}  # the user's own words stand
    text = gm(repo, "promote").stdout
    assert f"blocked   {mine['id']}" in text and WITHDRAWN in text

    why = gm_json(repo, "inspect", "--why", str(mine["id"]))
    assert why["withdrawn"] is True and why["eligible"] is False and why["reasons"] == [WITHDRAWN]
    said = gm(repo, "inspect", "--why", str(mine["id"])).stdout
    assert f"{WITHDRAWN}: feedback_migrations.md was deleted or rewritten" in said, said
    assert "withdrawn" not in gm_json(repo, "inspect", "--why", str(typed["id"]))
    shown = {c["id"]: c for c in gm_json(repo, "inspect")["L1"]}
    assert shown[mine["id"]]["state"] == "blocked" and WITHDRAWN in shown[mine["id"]]["reasons"]

    staged = [c["atom"] for c in gm_json(repo, "stage")["commits"]]
    assert staged == [typed["id"]], staged

    # Claude writes it back: said again, it is a candidate like before.
    (folder / "feedback_migrations.md").write_text(topic("Migrations run before tests", RULE), "utf-8")
    assert mine["id"] in {e["id"] for e in gm_json(repo, "promote")["eligible"]}
    # A folder that is gone altogether (another machine, a moved folder) tells nothing.
    (folder / "feedback_migrations.md").unlink()
    shutil.rmtree(folder)
    assert mine["id"] in {e["id"] for e in gm_json(repo, "promote")["eligible"]}


def test_a_staged_memory_claude_rewrote_stays_for_review_and_says_so(claude_memories: tuple[Path, Path]) -> None:
    repo, folder = claude_memories
    mine = _atoms(repo)[CLAIM]
    assert mine["id"] in [c["atom"] for c in gm_json(repo, "stage")["commits"]]
    target = folder / "feedback_migrations.md"
    target.write_text(target.read_text("utf-8").replace(RULE, "Run the unit tests with pytest -x."), "utf-8")
    _captured_again(repo, folder)
    assert CLAIM in _atoms(repo)  # the store keeps it

    # Staged again: still waiting (a person decides it), not dropped from memory/review.
    assert mine["id"] in [c["atom"] for c in gm_json(repo, "stage")["commits"]]
    listing = gm(repo, "adopt", check=False)
    assert listing.returncode == 1 and mine["id"] in listing.stdout
    assert (f"{WITHDRAWN}: feedback_migrations.md was deleted or rewritten since it was captured, and no "
            "note in the folder says it now; nothing else said it; adopt it only if you hold it yourself, "
            "else reject it") in listing.stdout, listing.stdout
    waiting = gm_json(repo, "adopt", check=False)
    assert waiting["withdrawn"] == [mine["id"]] and mine["id"] in waiting["waiting"]
    why = gm(repo, "inspect", "--why", str(mine["id"])).stdout
    assert "staged on memory/review" in why and f"{WITHDRAWN}: feedback_migrations.md" in why, why
    # The other staged item, which the user typed, is reviewed as before.
    typed = _atoms(repo)[TYPED_RULE.rstrip(".")]
    (folder / "feedback_protobuf.md").unlink()
    assert gm_json(repo, "adopt", check=False)["withdrawn"] == [mine["id"]]
    assert typed["id"] in gm_json(repo, "adopt", check=False)["waiting"]

    # The pull request's body says it too: merging it adopts every row.
    git(repo.parent, "init", "-q", "--bare", "-b", "main", str(repo.parent / "remote.git"))
    git(repo, "remote", "add", "origin", str(repo.parent / "remote.git"))
    git(repo, "push", "-q", "origin", "HEAD:main")
    body = gm(repo, "pr", "--print").stdout.split("# PR_BODY.md", 1)[1]
    [row] = [line for line in body.splitlines() if "database migrations" in line]
    assert WITHDRAWN in row, body
    assert not any(WITHDRAWN in line for line in body.splitlines() if "protobuf" in line), body

    gm(repo, "adopt", "--reject", str(mine["id"]))  # the person decides
    assert mine["id"] not in gm_json(repo, "adopt", check=False)["waiting"]


def test_a_memory_claude_rewrote_into_another_spelling_of_the_rule_still_says_it(
    claude_memories: tuple[Path, Path]
) -> None:
    """Claude rewrote "Always run the migrations…" as "Run the migrations…": capture files that
    sighting under the atom it holds (the rule's other spelling), so the folder still says the
    rule — the check looked for the atom's exact id and called it withdrawn."""
    repo, folder = claude_memories
    mine = _atoms(repo)[CLAIM]
    note = folder / "feedback_migrations.md"
    note.write_text(note.read_text("utf-8").replace(RULE, RULE.removeprefix("Always r").join(["R", ""])), "utf-8")
    assert RULE not in note.read_text("utf-8") and "Run the database migrations" in note.read_text("utf-8")
    _captured_again(repo, folder)
    assert mine["id"] in {e["id"] for e in gm_json(repo, "promote")["eligible"]}
    assert "withdrawn" not in gm_json(repo, "inspect", "--why", str(mine["id"]))
