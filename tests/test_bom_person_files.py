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
from test_crlf_person_files import BEGIN, blob, block_and_log_agree, session_start

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
    left = (repo / "CLAUDE.md").read_bytes()
    assert BEGIN not in left and left.startswith(BOM), left


def test_an_import_after_a_bom_that_opens_a_line_mid_file(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two files saved with a BOM and joined (`cat notes.md imports.md > CLAUDE.md`): the second
    mark opens the import's line mid-file, which Claude Code reads as whitespace. init added a
    second import; deinit left this one. Now it is ours, and goes with its mark."""
    text = BOM + b"# team notes\n" + BOM + b"@CLAUDE.memory.md\n"
    committed(repo, {"CLAUDE.md": text}, monkeypatch)
    gm(repo, "init", "--yes")
    assert (repo / "CLAUDE.md").read_bytes() == text
    assert "import line removed" in gm(repo, "deinit").stdout
    assert (repo / "CLAUDE.md").read_bytes() == BOM + b"# team notes\n"


def test_a_block_after_a_bom_that_opens_a_line_mid_file(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """memory.target=claude-md: the person joined their notes and CLAUDE.md (each saved with a
    BOM) into CLAUDE.md, the block's begin marker now after a mark mid-file. It was not found
    (0 begin, 1 end markers): validate, adopt and the session start refused the block. Now it
    is, the mark stays where it was, and purge takes the block out with it."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    git(repo, "config", "memory.target", "claude-md")
    gm(repo, "init", "--yes")
    ids = stage_claims(repo)
    gm(repo, "adopt", "--yes", ids["push"])
    block = (repo / "CLAUDE.md").read_bytes()
    assert block.startswith(BEGIN)
    committed(repo, {"CLAUDE.md": BOM + b"# team notes\n" + BOM + block}, monkeypatch)
    assert gm(repo, "validate", check=False).returncode == 0
    assert block_and_log_agree(repo)
    assert CLAIMS["push"].rstrip(".") in session_start(repo)
    gm(repo, "adopt", "--yes", ids["tabs"])
    after = (repo / "CLAUDE.md").read_bytes()
    assert after.startswith(BOM + b"# team notes\n" + BOM + BEGIN) and after.count(BEGIN) == 1, after
    assert CLAIMS["tabs"].rstrip(".").encode() in after
    assert blob(repo, "HEAD:CLAUDE.md") == after  # committed as written, guard and all
    assert CLAIMS["tabs"].rstrip(".") in session_start(repo)
    gm(repo, "deinit", "--purge", "--yes")
    assert (repo / "CLAUDE.md").read_bytes() == BOM + b"# team notes\n"


def test_a_bom_mid_file_in_ignore_and_attributes_files_is_not_skipped(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git skips a BOM only at the start of `.gitignore`/`.gitattributes`: a line of ours after
    one mid-file is none it reads, so init adds the line git does read (as it did)."""
    committed(repo, {".gitattributes": b"*.png binary\n" + BOM + b".memory/adopted.log merge=union\n"}, monkeypatch)
    gm(repo, "init", "--yes")
    assert git(repo, "check-attr", "merge", "--", ".memory/adopted.log") == ".memory/adopted.log: merge: union\n"


@pytest.mark.parametrize("name", ["CLAUDE.memory.md", ".memory/adopted.log"])
def test_a_memory_file_saved_with_a_bom(repo: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """CLAUDE.memory.md (its begin marker first) or .memory/adopted.log (its first entry
    "\\ufeff{…}": not JSON) hand-saved with a BOM and committed — the guard lets it through:
    the session start gave nothing, validate failed. Now both read as before, adopt appends
    and re-renders, and the mark stays first."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    gm(repo, "init", "--yes")
    ids = stage_claims(repo)
    gm(repo, "adopt", "--yes", ids["push"])
    resaved_with_bom(repo, name)
    assert CLAIMS["push"].rstrip(".") in session_start(repo)
    assert gm(repo, "validate", check=False).returncode == 0
    assert block_and_log_agree(repo)
    gm(repo, "adopt", "--yes", ids["tabs"])
    assert git(repo, "status", "--porcelain", "--", "CLAUDE.memory.md", ".memory") == ""
    assert (repo / name).read_bytes().startswith(BOM)
    memory = (repo / "CLAUDE.memory.md").read_bytes()
    assert memory.count(BEGIN) == 1 and CLAIMS["tabs"].rstrip(".").encode() in memory, memory
    assert blob(repo, f"HEAD:{name}") == (repo / name).read_bytes()  # committed as written, guard and all
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


def test_the_global_import_after_a_bom_in_the_users_claude_md(repo: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """~/.claude/CLAUDE.md saved with a BOM, the global import its first line: init added it
    again."""
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    gm(repo, "init", "--yes")
    user = isolated_env / ".claude" / "CLAUDE.md"
    text = user.read_bytes()
    assert text.startswith(b"@") and text.count(b"CLAUDE.memory.md") == 1, text
    user.write_bytes(BOM + text.replace(b"\n", b"\r\n") + b"\r\nAnswer in English.\r\n")
    before = user.read_bytes()
    gm(repo, "init", "--yes")
    assert user.read_bytes() == before


def test_a_bom_user_settings_file_enabling_our_plugin(repo: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """~/.claude/settings.json with a BOM enabling our installed plugin (Claude Code's CLI reads
    it, so the plugin's hooks run): it was unreadable to init, which wrote the same hooks into
    .claude/settings.json — every hook then ran twice."""
    from test_claude_settings import _install

    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    config = isolated_env / ".claude"
    _install(config, "agent-memory@agent-memory")
    settings = BOM + b'{\r\n  "enabledPlugins": {\r\n    "agent-memory@agent-memory": true\r\n  }\r\n}\r\n'
    (config / "settings.json").write_bytes(settings)
    gm(repo, "init", "--yes")
    assert not (repo / ".claude" / "settings.json").exists()
    assert (config / "settings.json").read_bytes() == settings


@pytest.mark.parametrize(("text", "expected"), [
    ("\ufeff", "\ufeff@CLAUDE.memory.md\n"),  # an empty file saved with a BOM
    ("\ufeff@CLAUDE.memory.md\r\n", "\ufeff@CLAUDE.memory.md\r\n"),
    ("\ufeff# a\r\n", "\ufeff# a\r\n\r\n@CLAUDE.memory.md\r\n"),
])
def test_the_import_after_a_bom(text: str, expected: str) -> None:
    from agent_memory.committed.render import IMPORT_LINE, ensure_import

    assert ensure_import(text, IMPORT_LINE) == expected


def test_a_block_in_a_file_of_only_a_bom_or_after_one() -> None:
    from agent_memory.committed.render import find_block, render_block, replace_block

    block = render_block([], "L2").text
    assert replace_block("\ufeff", block, "L2") == "\ufeff" + block
    assert find_block("\ufeff" + block, "L2") == (1, 1 + len(block))
    assert replace_block("\ufeff" + block + "tail\n", block, "L2") == "\ufeff" + block + "tail\n"


def test_a_union_of_logs_keeps_a_bom_first() -> None:
    """Two branches' logs merged (committed/log_conflict.py): the first entry after a BOM was
    "not JSON", kept at the end with the mark in the middle of the log."""
    from test_adopted_log import BASE, LINT

    from agent_memory.committed.adopted_log import LogEntry, format_entry, parse, union

    one = format_entry(LogEntry("adopt", LINT, "2026-03-01T00:00:00Z"))
    two = format_entry(LogEntry("adopt", BASE, "2026-03-02T00:00:00Z"))
    merged = union("\ufeff" + one, two)
    assert merged == "\ufeff" + one + two
    assert merged == union(two, "\ufeff" + one)
    entries, errors = parse(merged)
    assert len(entries) == 2 and errors == []


def test_validate_reads_an_atoms_file_with_a_bom(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`validate --atoms FILE` with a file PowerShell wrote: it was "not JSON"."""
    from test_adopted_log import BASE

    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    gm(repo, "init", "--yes")
    atoms = tmp_path / "atoms.json"
    atoms.write_bytes(BOM + json.dumps([BASE], indent=2).replace("\n", "\r\n").encode("utf-8"))
    proc = gm(repo, "validate", "--atoms", str(atoms), check=False)
    assert "not JSON" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_pinned_auto_memory_note_saved_with_a_bom(tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """`consolidate --auto-memory`: a note whose `---` came after a BOM was not pinned."""
    from test_consolidate_cmd import run_json, write_memory_dir

    directory = tmp_path / "memdir"
    write_memory_dir(directory)
    note = directory / "redis_a.md"
    note.write_bytes(BOM + note.read_bytes().replace(b"\n", b"\r\n"))
    (proposal,) = run_json(repo, monkeypatch, capsys, "--auto-memory", str(directory))["proposals"]
    assert proposal["pinned"] == ["redis_a.md"]
