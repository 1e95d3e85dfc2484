"""Files of the person's that agent-memory edits keep their own line ends (CRLF: a Windows
editor with core.autocrlf=false, or a repository that commits CRLF): `init` adds the
`@CLAUDE.memory.md` import to CLAUDE.md and to ~/.claude/CLAUDE.md and its lines to
`.gitignore`/`.gitattributes`, `deinit` takes them out again (with `--purge` the lines and,
with memory.target=claude-md, the block inside CLAUDE.md), `adopt` writes that block.

Each file was read with universal newlines and written back with "\\n": every line of the
person's file changed in the diff (`init --yes` committed that), the lines we added were LF
amid CRLF. Now our lines are recognised in a CRLF file, the lines we write take the file's own
line end, and the person's lines keep their bytes. And CLAUDE.memory.md (ours, committed LF)
checked out CRLF by core.autocrlf=true still reads back: the session start, status, adopt,
validate and the guard."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json
from test_adopt import CLAIMS, NOW, stage_claims

CLAUDE_MD = b"# proj\r\n\r\nUse the Makefile.\r\nRun `make test` before pushing.\r\n"
GITIGNORE = b"node_modules/\r\n*.log\r\n"
GITATTRIBUTES = b"*.png binary\r\n*.sh text eol=lf\r\n"
BEGIN = b"<!-- agent-memory:begin L2 -->"


def only_crlf(data: bytes) -> bool:
    """Every line end of `data` is CRLF (no bare LF, no bare CR) and the file ends with one."""
    return b"\n" not in data.replace(b"\r\n", b"") and b"\r" not in data.replace(b"\r\n", b"") and data.endswith(b"\r\n")


def blob(repo: Path, spec: str) -> bytes:
    """`git show SPEC`'s bytes (conftest.git reads text: its universal newlines hide a CR)."""
    return subprocess.run(["git", "-C", str(repo), "show", spec], capture_output=True, check=True).stdout


def session_start(repo: Path) -> str:
    """What the SessionStart hook gives Claude."""
    out = gm(repo, "hook", "session-start", input_text=json.dumps(
        {"session_id": "s", "cwd": str(repo), "hook_event_name": "SessionStart", "source": "startup"})).stdout
    return str(json.loads(out)["hookSpecificOutput"]["additionalContext"])


def block_and_log_agree(repo: Path) -> bool:
    """`git memory status` finds every adopted line in the block and every block line logged."""
    tier = gm_json(repo, "status")["L2"]
    return tier["not_in_block"] == [] and tier["not_in_log"] == [] and tier["held"] > 0


def committed_as_is(repo: Path, files: dict[str, bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    """Commit `files` with their bytes as they are (core.autocrlf=false: git converts nothing,
    as on Windows with that setting): CRLF here, bare CR in test_bare_cr_person_files."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    git(repo, "config", "core.autocrlf", "false")
    for name, data in files.items():
        (repo / name).write_bytes(data)
    git(repo, "add", *files)
    git(repo, "commit", "-q", "-m", "the person's files, as saved")


def test_init_and_deinit_keep_a_crlf_claude_md(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    committed_as_is(repo, {"CLAUDE.md": CLAUDE_MD}, monkeypatch)
    gm(repo, "init", "--yes")
    after = (repo / "CLAUDE.md").read_bytes()
    # the person's lines byte for byte, the import after a blank line, CRLF like the rest
    assert after == CLAUDE_MD + b"\r\n@CLAUDE.memory.md\r\n", after
    # committed as such: the diff is the two added lines, no line of the person's changed
    diff = git(repo, "diff", "HEAD~1", "HEAD", "--numstat", "--", "CLAUDE.md").split()
    assert diff[:2] == ["2", "0"], diff
    gm(repo, "init", "--yes")  # recognised: no second import line
    assert (repo / "CLAUDE.md").read_bytes() == after
    out = gm(repo, "deinit").stdout
    assert "import line removed" in out, out
    assert (repo / "CLAUDE.md").read_bytes() == CLAUDE_MD


@pytest.mark.parametrize("eol", [b"\r\n", b"\r"], ids=["crlf", "bare-cr"])
def test_the_import_line_is_recognised_in_a_file_init_did_not_write(
    repo: Path, monkeypatch: pytest.MonkeyPatch, eol: bytes
) -> None:
    """The person put the import in themselves, in their own line ends: init adds none, deinit
    takes it out and leaves the rest in those line ends."""
    text = b"@CLAUDE.memory.md" + eol + eol + b"# proj" + eol
    committed_as_is(repo, {"CLAUDE.md": text}, monkeypatch)
    gm(repo, "init", "--yes")
    assert (repo / "CLAUDE.md").read_bytes() == text
    gm(repo, "deinit")
    assert (repo / "CLAUDE.md").read_bytes() == eol + b"# proj" + eol


def test_init_and_purge_keep_crlf_ignore_and_attributes_files(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    committed_as_is(repo, {".gitignore": GITIGNORE, ".gitattributes": GITATTRIBUTES}, monkeypatch)
    gm(repo, "init", "--yes")
    ignore, attributes = (repo / ".gitignore").read_bytes(), (repo / ".gitattributes").read_bytes()
    assert ignore.startswith(GITIGNORE) and only_crlf(ignore), ignore
    assert b".memory/*\r\n!.memory/adopted.log\r\n" in ignore
    assert attributes.startswith(GITATTRIBUTES) and only_crlf(attributes), attributes
    assert attributes.endswith(b".memory/adopted.log merge=union\r\n")
    gm(repo, "init", "--yes")  # recognised: nothing added twice
    assert (repo / ".gitignore").read_bytes() == ignore and (repo / ".gitattributes").read_bytes() == attributes
    gm(repo, "deinit", "--purge", "--yes")
    assert (repo / ".gitattributes").read_bytes() == GITATTRIBUTES
    # the personal-settings line stays (right with or without agent-memory), CRLF like the rest
    ignore = (repo / ".gitignore").read_bytes()
    assert ignore.startswith(GITIGNORE) and only_crlf(ignore) and b".memory" not in ignore, ignore


def test_init_keeps_a_crlf_user_claude_md(repo: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user = isolated_env / ".claude" / "CLAUDE.md"
    user.parent.mkdir(parents=True, exist_ok=True)
    mine = b"# me\r\n\r\nAnswer in English.\r\n"
    user.write_bytes(mine)
    committed_as_is(repo, {"CLAUDE.md": CLAUDE_MD}, monkeypatch)
    gm(repo, "init", "--yes")
    after = user.read_bytes()
    assert after.startswith(mine + b"\r\n@") and only_crlf(after), after
    assert after.count(b"CLAUDE.memory.md") == 1
    gm(repo, "init", "--yes")
    assert user.read_bytes() == after


def adopt_two_into(repo: Path, claude_md: bytes, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """memory.target=claude-md: the person's CLAUDE.md committed as saved, init (which adds no
    import line with this target), two claims adopted one at a time (the second adopt finds the
    block the first wrote); the file after."""
    committed_as_is(repo, {"CLAUDE.md": claude_md}, monkeypatch)
    git(repo, "config", "memory.target", "claude-md")
    gm(repo, "init", "--yes")
    assert (repo / "CLAUDE.md").read_bytes() == claude_md
    ids = stage_claims(repo)
    gm(repo, "adopt", "--yes", ids["push"])
    gm(repo, "adopt", "--yes", ids["tabs"])
    return (repo / "CLAUDE.md").read_bytes()


def block_round_trips(repo: Path, after: bytes, claude_md: bytes) -> None:
    """One block holding both claims, committed as written (the guard let it through), valid,
    given to Claude at the session start; purge gives the person's file back byte for byte."""
    assert after.count(BEGIN) == 1
    assert CLAIMS["push"].rstrip(".").encode() in after and CLAIMS["tabs"].rstrip(".").encode() in after
    assert blob(repo, "HEAD:CLAUDE.md") == after
    assert gm(repo, "validate", check=False).returncode == 0
    assert block_and_log_agree(repo)
    assert CLAIMS["tabs"].rstrip(".") in session_start(repo)
    gm(repo, "deinit", "--purge", "--yes")
    assert (repo / "CLAUDE.md").read_bytes() == claude_md


def test_the_block_in_a_crlf_claude_md_keeps_its_line_ends(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """memory.target=claude-md: adopt writes the block into the person's CRLF CLAUDE.md in CRLF
    (the guard accepts it), finds it again on the next adopt, and purge takes it out whole."""
    after = adopt_two_into(repo, CLAUDE_MD, monkeypatch)
    assert after.startswith(CLAUDE_MD) and only_crlf(after), after
    block_round_trips(repo, after, CLAUDE_MD)


def test_claude_memory_md_checked_out_crlf_reads_back(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """core.autocrlf=true: CLAUDE.memory.md (committed LF) is CRLF in the work tree. The session
    start gives its items, status and validate see no hand edit, adopt re-renders it and the
    guard lets the commit through."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    gm(repo, "init", "--yes")
    ids = stage_claims(repo)
    gm(repo, "adopt", "--yes", ids["push"])
    git(repo, "config", "core.autocrlf", "true")
    for name in ("CLAUDE.md", "CLAUDE.memory.md", ".memory/adopted.log"):
        (repo / name).unlink()
    git(repo, "checkout", "--", ".")
    memory = (repo / "CLAUDE.memory.md").read_bytes()
    assert only_crlf(memory), memory  # the checkout this test is about
    assert CLAIMS["push"].rstrip(".") in session_start(repo)
    assert gm(repo, "validate", check=False).returncode == 0
    assert block_and_log_agree(repo)
    gm(repo, "adopt", "--yes", ids["tabs"])
    assert git(repo, "status", "--porcelain", "--", "CLAUDE.memory.md", ".memory") == ""
    # what adopt wrote takes the checkout's line ends: no file of mixed ones in the work tree
    for name in ("CLAUDE.memory.md", ".memory/adopted.log"):
        assert only_crlf((repo / name).read_bytes()), name
    committed = blob(repo, "HEAD:CLAUDE.memory.md")
    assert b"\r" not in committed and CLAIMS["tabs"].rstrip(".").encode() in committed
    assert gm(repo, "validate", check=False).returncode == 0


def test_init_and_deinit_keep_a_crlf_claude_settings_file(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`.claude/settings.json` (committed, the team's) is written whole as JSON; a CRLF one
    was written back LF, every line a change."""
    settings = b'{\r\n  "permissions": {\r\n    "allow": [\r\n      "Bash(make:*)"\r\n    ]\r\n  }\r\n}\r\n'
    (repo / ".claude").mkdir()
    committed_as_is(repo, {".claude/settings.json": settings}, monkeypatch)
    gm(repo, "init", "--yes")
    after = (repo / ".claude" / "settings.json").read_bytes()
    assert only_crlf(after) and b" hook session-end" in after, after
    gm(repo, "deinit")
    assert (repo / ".claude" / "settings.json").read_bytes() == settings


@pytest.mark.parametrize(("text", "expected"), [
    ("", "@CLAUDE.memory.md\n"),  # a new file: LF, as before
    ("# a\n", "# a\n\n@CLAUDE.memory.md\n"),
    ("# a\r\n", "# a\r\n\r\n@CLAUDE.memory.md\r\n"),
    ("# a\r\n\r\n", "# a\r\n\r\n@CLAUDE.memory.md\r\n"),  # ends with a blank line already
    ("# a\r\nb", "# a\r\nb\r\n\r\n@CLAUDE.memory.md\r\n"),  # no final line end: one added
    ("# a\r\nb\nc\r\n", "# a\r\nb\nc\r\n\r\n@CLAUDE.memory.md\r\n"),  # mixed: mostly CRLF
    ("x\r\n  @CLAUDE.memory.md \r\n", "x\r\n  @CLAUDE.memory.md \r\n"),  # there already
])
def test_the_import_takes_the_files_line_end(text: str, expected: str) -> None:
    from agent_memory.committed.render import IMPORT_LINE, ensure_import

    assert ensure_import(text, IMPORT_LINE) == expected


def test_a_block_added_to_or_replaced_in_a_crlf_file_is_crlf() -> None:
    from agent_memory.committed.render import find_block, render_block, replace_block

    block = render_block([], "L2").text
    added = replace_block("# a\r\nb", block, "L2")
    assert added == "# a\r\nb\r\n\r\n" + block.replace("\n", "\r\n")
    assert find_block(added, "L2") == (len("# a\r\nb\r\n\r\n"), len(added))
    replaced = replace_block(added + "tail\r\n", block, "L2")
    assert replaced == added + "tail\r\n"
    assert replace_block("# a\n", block, "L2") == "# a\n\n" + block  # LF: as before
