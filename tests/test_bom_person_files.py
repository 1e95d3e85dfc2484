"""Files of the person's that open with a UTF-8 byte-order mark (EF BB BF: Notepad, PowerShell
5.1's `Out-File`/`Set-Content -Encoding UTF8`, an editor set to "UTF-8 with BOM"): the mark is
an encoding signature, not text. It stood before the first line, so a line of ours there —
the `@CLAUDE.memory.md` import, a `.gitignore`/`.gitattributes` line, the block's begin marker
— was not recognised (init added a second import, purge left the header behind, adopt and
the session start found no block), and `json.loads` refused `.claude/settings.json` as
invalid JSON (Claude Code's CLI reads it). Now each reader sees past the mark, each writer
keeps it where it was, and the rest of the person's bytes are as they were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git
from sessions import gm, gm_json
from test_adopt import CLAIMS, NOW, stage_claims
from test_crlf_person_files import BEGIN, block_and_log_agree, blob, session_start

BOM = b"\xef\xbb\xbf"


def committed(repo: Path, files: dict[str, bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    """Commit `files` with their bytes as they are (core.autocrlf=false)."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    git(repo, "config", "core.autocrlf", "false")
    for name, data in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_bytes(data)
    git(repo, "add", *files)
    git(repo, "commit", "-q", "-m", "the person's files, saved with a byte-order mark")


def resaved_with_bom(repo: Path, *names: str) -> None:
    """The person opens our file in a Windows editor and saves it: a BOM before its first line
    (and commits it; the guard lets it through)."""
    for name in names:
        path = repo / name
        path.write_bytes(BOM + path.read_bytes())
    git(repo, "add", *names)
    git(repo, "commit", "-q", "-m", "saved in Notepad")


@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
def test_an_import_on_the_first_line_after_a_bom_is_recognised(repo: Path, monkeypatch: pytest.MonkeyPatch, end: bytes) -> None:
    """init added a second import (the first was "\\ufeff@CLAUDE.memory.md"); deinit left it."""
    text = BOM + b"@CLAUDE.memory.md" + end + end + b"# proj" + end
    committed(repo, {"CLAUDE.md": text}, monkeypatch)
    gm(repo, "init", "--yes")
    assert (repo / "CLAUDE.md").read_bytes() == text
    out = gm(repo, "deinit").stdout
    assert "import line removed" in out, out
    assert (repo / "CLAUDE.md").read_bytes() == BOM + end + b"# proj" + end  # the BOM stays first


def test_init_and_deinit_keep_the_bom_of_a_claude_md_init_wrote_into(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """init created CLAUDE.md; the person saved it with a BOM: init adds nothing, deinit
    deletes the file as before (the BOM is not content of the person's)."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    gm(repo, "init", "--yes")
    resaved_with_bom(repo, "CLAUDE.md")
    before = (repo / "CLAUDE.md").read_bytes()
    gm(repo, "init", "--yes")
    assert (repo / "CLAUDE.md").read_bytes() == before
    gm(repo, "deinit")
    assert not (repo / "CLAUDE.md").exists()


def test_ignore_and_attributes_lines_after_a_bom(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A line of ours first in a BOM file: init added it again; purge left it (with the BOM)."""
    attributes = BOM + b".memory/adopted.log merge=union\n*.png binary\n"
    committed(repo, {".gitattributes": attributes}, monkeypatch)
    gm(repo, "init", "--yes")
    assert (repo / ".gitattributes").read_bytes() == attributes
    # init wrote .gitignore, its header first; saved with a BOM
    resaved_with_bom(repo, ".gitignore")
    ignore = (repo / ".gitignore").read_bytes()
    gm(repo, "init", "--yes")
    assert (repo / ".gitignore").read_bytes() == ignore
    gm(repo, "deinit", "--purge", "--yes")
    assert (repo / ".gitattributes").read_bytes() == BOM + b"*.png binary\n"
    # the personal-settings line stays (right with or without agent-memory), after the BOM
    assert (repo / ".gitignore").read_bytes() == BOM + b".claude/settings.local.json\n"


def test_a_bom_claude_md_holding_the_block(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """memory.target=claude-md, CLAUDE.md made by adopt and saved with a BOM: the begin marker
    on its first line was not found (0 begin, 1 end markers), so adopt, validate and the
    session start refused the block; purge left it."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    git(repo, "config", "memory.target", "claude-md")
    gm(repo, "init", "--yes")
    ids = stage_claims(repo)
    gm(repo, "adopt", "--yes", ids["push"])
    assert (repo / "CLAUDE.md").read_bytes().startswith(BEGIN)
    resaved_with_bom(repo, "CLAUDE.md")
    assert gm(repo, "validate", check=False).returncode == 0
    assert block_and_log_agree(repo)
    assert CLAIMS["push"].rstrip(".") in session_start(repo)
    gm(repo, "adopt", "--yes", ids["tabs"])
    after = (repo / "CLAUDE.md").read_bytes()
    assert after.startswith(BOM + BEGIN) and after.count(BEGIN) == 1, after
    assert CLAIMS["tabs"].rstrip(".").encode() in after
    assert blob(repo, "HEAD:CLAUDE.md") == after  # committed as written, guard and all
    assert CLAIMS["tabs"].rstrip(".") in session_start(repo)
    gm(repo, "deinit", "--purge", "--yes")
    assert BEGIN not in (repo / "CLAUDE.md").read_bytes()


def test_a_bom_claude_memory_md_and_adopted_log(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CLAUDE.memory.md and .memory/adopted.log hand-saved with a BOM (and committed): the
    session start, validate, status, adopt and the guard read them as before."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    gm(repo, "init", "--yes")
    ids = stage_claims(repo)
    gm(repo, "adopt", "--yes", ids["push"])
    resaved_with_bom(repo, "CLAUDE.memory.md", ".memory/adopted.log")
    assert CLAIMS["push"].rstrip(".") in session_start(repo)
    assert gm(repo, "validate", check=False).returncode == 0
    assert block_and_log_agree(repo)
    gm(repo, "adopt", "--yes", ids["tabs"])
    assert git(repo, "status", "--porcelain", "--", "CLAUDE.memory.md", ".memory") == ""
    memory = (repo / "CLAUDE.memory.md").read_bytes()
    assert memory.startswith(BOM + BEGIN) and CLAIMS["tabs"].rstrip(".").encode() in memory, memory
    assert (repo / ".memory" / "adopted.log").read_bytes().startswith(BOM)
    assert block_and_log_agree(repo)
    assert gm(repo, "validate", check=False).returncode == 0
    assert CLAIMS["tabs"].rstrip(".") in session_start(repo)


SETTINGS = BOM + b'{\r\n  "permissions": {\r\n    "allow": [\r\n      "Bash(make:*)"\r\n    ]\r\n  }\r\n}\r\n'


def test_init_status_and_deinit_read_a_bom_settings_file(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`.claude/settings.json` saved with a BOM (Claude Code's CLI reads it): init refused it
    as not valid JSON. Now the hooks go in, the BOM stays, deinit gives the bytes back."""
    committed(repo, {".claude/settings.json": SETTINGS}, monkeypatch)
    gm(repo, "init", "--yes")
    after = (repo / ".claude" / "settings.json").read_bytes()
    assert after.startswith(BOM + b"{\r\n") and b" hook session-end" in after, after
    assert json.loads(after.decode("utf-8-sig"))["permissions"] == {"allow": ["Bash(make:*)"]}
    assert all(gm_json(repo, "status")["claude_hooks"].values())
    gm(repo, "deinit")
    assert (repo / ".claude" / "settings.json").read_bytes() == SETTINGS


def test_a_bom_local_settings_file(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`.claude/settings.local.json` (the person's own): init adds its exclude, deinit takes it
    out, the BOM and the person's keys stay."""
    local = BOM + b'{\n  "permissions": {\n    "allow": [\n      "Bash(ls:*)"\n    ]\n  }\n}\n'
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.local.json").write_bytes(local)
    gm(repo, "init", "--yes")
    after = (repo / ".claude" / "settings.local.json").read_bytes()
    assert after.startswith(BOM) and b"claudeMdExcludes" in after, after
    gm(repo, "deinit")
    assert (repo / ".claude" / "settings.local.json").read_bytes() == local
