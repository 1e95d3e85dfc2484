"""Files of the person's saved with bare carriage returns ("\\r" alone: classic Mac OS, an
editor set to "CR" line ends). In markdown (CommonMark, and so Claude Code) a lone CR ends a
line; Python's `split("\\n")` and the line-start anchor of a multi-line regex see one line.
So the import added to such a CLAUDE.md was LF amid CR, deinit wrote its last line back LF,
and a block marker after a CR was not found (a second adopt into a bare-CR CLAUDE.md called
the block malformed). Now the import takes the file's own CR and the block is found.

Two readers see no line end in a lone CR, and what is written for them stays LF: git, which
splits `.gitignore` and `.gitattributes` at "\\n" only (a bare-CR `.gitignore` is one pattern
to it), and the pre-commit guard, which refuses a lone CR in a memory block (it overprints the
line in a terminal: a reviewer would not see what Claude reads) — the block is written LF
whatever the rest of the file."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import git
from sessions import gm
from test_adopt import CLAIMS, NOW, stage_claims
from test_crlf_person_files import (
    BEGIN,
    adopt_two_into,
    blob,
    block_and_log_agree,
    block_round_trips,
    committed_as_is,
    session_start,
)

CLAUDE_MD = b"# proj\r\rUse the Makefile.\rRun `make test` before pushing.\r"


def git_sees(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False)


def test_init_and_deinit_keep_a_bare_cr_claude_md(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    committed_as_is(repo, {"CLAUDE.md": CLAUDE_MD}, monkeypatch)
    gm(repo, "init", "--yes")
    after = (repo / "CLAUDE.md").read_bytes()
    assert after == CLAUDE_MD + b"\r@CLAUDE.memory.md\r", after  # after a blank line, in CR
    gm(repo, "init", "--yes")
    assert (repo / "CLAUDE.md").read_bytes() == after
    assert "import line removed" in gm(repo, "deinit").stdout
    assert (repo / "CLAUDE.md").read_bytes() == CLAUDE_MD


def test_init_keeps_a_bare_cr_user_claude_md(repo: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user = isolated_env / ".claude" / "CLAUDE.md"
    user.parent.mkdir(parents=True, exist_ok=True)
    mine = b"# me\r\rAnswer in English.\r"
    user.write_bytes(mine)
    committed_as_is(repo, {"CLAUDE.md": CLAUDE_MD}, monkeypatch)
    gm(repo, "init", "--yes")
    after = user.read_bytes()
    assert after.startswith(mine + b"\r@") and after.endswith(b"CLAUDE.memory.md\r") and b"\n" not in after, after
    gm(repo, "init", "--yes")
    assert user.read_bytes() == after


def test_the_block_in_a_bare_cr_claude_md(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """memory.target=claude-md: the block was glued to the person's last line ("\\r\\n", one
    line end: no blank line before it), and purge wrote that line back LF. The block itself is
    LF (the guard refuses a lone CR in it), after a blank line in the file's CR; it is found
    again after that CR, and purge gives the file back byte for byte."""
    after = adopt_two_into(repo, CLAUDE_MD, monkeypatch)
    assert after.startswith(CLAUDE_MD + b"\r" + BEGIN + b"\n"), after
    block = after[len(CLAUDE_MD) + 1 :]
    assert b"\r" not in block and block.endswith(b"\n"), block
    block_round_trips(repo, after, CLAUDE_MD)


def test_a_claude_memory_md_resaved_with_bare_cr_is_read_and_written_back_lf(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CLAUDE.memory.md resaved in CR and committed past the guard (--no-verify): its markers
    were not found after a CR, so adopt refused the block. It reads back (the session start,
    status), and adopt writes it LF again, which the guard accepts."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    gm(repo, "init", "--yes")
    ids = stage_claims(repo)
    gm(repo, "adopt", "--yes", ids["push"])
    memory = repo / "CLAUDE.memory.md"
    memory.write_bytes(memory.read_bytes().replace(b"\n", b"\r"))
    git(repo, "commit", "-q", "--no-verify", "-m", "saved on an old Mac", "--", "CLAUDE.memory.md")
    assert CLAIMS["push"].rstrip(".") in session_start(repo)
    assert block_and_log_agree(repo)
    gm(repo, "adopt", "--yes", ids["tabs"])
    after = memory.read_bytes()
    assert b"\r" not in after and after.count(BEGIN) == 1 and CLAIMS["tabs"].rstrip(".").encode() in after, after
    assert blob(repo, "HEAD:CLAUDE.memory.md") == after
    assert gm(repo, "validate", check=False).returncode == 0


def test_ignore_and_attributes_files_in_bare_cr_as_git_reads_them(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git splits these files at LF only. A header of ours written after a trailing CR was
    glued to the person's last line (git warned: "agent-memory:" is not a valid attribute
    name); our lines resaved in CR were taken for present, though git sees none of them."""
    committed_as_is(repo, {".gitignore": b"node_modules/\r", ".gitattributes": b"*.png binary\r"}, monkeypatch)
    gm(repo, "init", "--yes")

    def git_reads_ours() -> None:
        assert git_sees(repo, "check-ignore", "-q", ".memory/state.json").returncode == 0
        assert git_sees(repo, "check-ignore", "-q", ".claude/settings.local.json").returncode == 0
        assert git_sees(repo, "check-ignore", "-q", ".memory/adopted.log").returncode == 1
        attr = git_sees(repo, "check-attr", "merge", "--", ".memory/adopted.log")
        assert attr.stdout == ".memory/adopted.log: merge: union\n", attr.stdout

    git_reads_ours()
    # the person's line as git read it before, no warning about a line glued to it
    attr = git_sees(repo, "check-attr", "binary", "--", "a.png")
    assert (attr.stdout, attr.stderr) == ("a.png: binary: set\n", ""), attr
    assert (repo / ".gitignore").read_bytes().startswith(b"node_modules/\r\n# agent-memory")
    # the person's editor saves both files in CR again: ours are one line with theirs to git
    for name in (".gitignore", ".gitattributes"):
        path = repo / name
        path.write_bytes(path.read_bytes().replace(b"\r\n", b"\r").replace(b"\n", b"\r"))
    assert git_sees(repo, "check-ignore", "-q", ".memory/state.json").returncode == 1
    gm(repo, "init", "--yes")
    git_reads_ours()
    gm(repo, "init", "--yes")  # and nothing added twice
    assert (repo / ".gitignore").read_bytes().count(b"\n.memory/*") == 1
    gm(repo, "deinit", "--purge", "--yes")
    attributes = (repo / ".gitattributes").read_bytes()
    # what git reads as ours is gone; the person's line (with ours they saved into it) stays
    assert attributes.startswith(b"*.png binary\r") and b"\n.memory" not in attributes, attributes
    assert git_sees(repo, "check-attr", "merge", "--", ".memory/adopted.log").stdout.endswith("unspecified\n")


@pytest.mark.parametrize(("text", "expected"), [
    ("# a\r", "# a\r\r@CLAUDE.memory.md\r"),
    ("# a\rb", "# a\rb\r\r@CLAUDE.memory.md\r"),  # no final line end: one added, in CR
    ("# a\r\r", "# a\r\r@CLAUDE.memory.md\r"),  # ends with a blank line already
    ("x\r  @CLAUDE.memory.md \r", "x\r  @CLAUDE.memory.md \r"),  # there already
    ("x\n\ufeff@CLAUDE.memory.md\n", "x\n\ufeff@CLAUDE.memory.md\n"),  # after a mark opening its line
])
def test_the_import_in_a_bare_cr_file(text: str, expected: str) -> None:
    from agent_memory.committed.render import IMPORT_LINE, ensure_import

    assert ensure_import(text, IMPORT_LINE) == expected


def test_a_block_in_a_bare_cr_file_or_after_a_mark_mid_file() -> None:
    from agent_memory.committed.render import find_block, render_block, replace_block

    block = render_block([], "L2").text
    added = replace_block("# a\rb\r", block, "L2")
    assert added == "# a\rb\r\r" + block  # the block LF, after a blank line in CR
    assert find_block(added, "L2") == (len("# a\rb\r\r"), len(added))
    assert replace_block(added + "tail\r", block, "L2") == added + "tail\r"
    whole_cr = block.replace("\n", "\r")  # a CLAUDE.memory.md resaved in CR: written back LF
    assert find_block(whole_cr, "L2") == (0, len(whole_cr)) and replace_block(whole_cr, block, "L2") == block
    joined = "\ufeff# notes\n\ufeff" + block
    assert find_block(joined, "L2") == (len("\ufeff# notes\n\ufeff"), len(joined))  # the mark stays outside
