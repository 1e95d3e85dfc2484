"""The L0 reader over every real transcript layout (Claude Code 1.0.24 → 2.1.114) and bad input."""

from __future__ import annotations

import json
import os
import re
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import TRANSCRIPTS, git
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.model.paths import slug_for
from agent_memory.transcripts import reader as T
from agent_memory.transcripts.files import find_transcripts
from agent_memory.transcripts.reader import ReadStats, Statement, ToolError

LABELS = Path(__file__).parent / "fixtures" / "extraction" / "labels.jsonl"
ALL_FILES = sorted(TRANSCRIPTS.rglob("*.jsonl"))
REAL = TRANSCRIPTS / "real_projects"
JSS = REAL / "-Users-dain-workspace-JSSoundRecorder" / "7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl"


def _sources_table() -> dict[str, dict[str, int]]:
    """SOURCES.txt lists, per fixture file, its record types as counted when it was copied."""
    table = {}
    for line in (TRANSCRIPTS / "SOURCES.txt").read_text("utf-8").splitlines():
        m = re.match(r"^\s+(\S+\.jsonl) \| \d+ \| (\d+) \| [^|]+ \| (\{[^}]*\})", line)
        if m:
            table[m.group(1)] = json.loads(m.group(3).replace("'", '"'))
    return table


def _write(path: Path, records: list[Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write((rec if isinstance(rec, str) else json.dumps(rec)) + "\n")
    return path


def _user(text: Any, **extra: Any) -> dict[str, Any]:
    rec = {
        "type": "user",
        "sessionId": "s-1",
        "timestamp": "2026-03-01T10:00:00.123Z",
        "cwd": "/w/proj",
        "message": {"role": "user", "content": text},
    }
    rec.update(extra)
    return rec


def _tool_result(
    text: str, tool_use_id: str = "t1", is_error: bool = True, **extra: Any
) -> dict[str, Any]:
    return _user(
        [{"type": "tool_result", "tool_use_id": tool_use_id, "content": text, "is_error": is_error}],
        **extra,
    )


# The fields 2.1.x sets on a refusal (docs/claude-client-records.md).
REFUSED_2_1 = {"version": "2.1.120", "toolUseResult": "User rejected tool use"}
REFUSED_KIND = {"version": "2.1.250", "toolDenialKind": "user-rejected"}


def _tool_use(command: str, tool_use_id: str = "t1", name: str = "Bash") -> dict[str, Any]:
    return {
        "type": "assistant",
        "sessionId": "s-1",
        "timestamp": "2026-03-01T10:00:00Z",
        "message": {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": tool_use_id, "name": name, "input": {"command": command}}
            ],
        },
    }


def _tool_uses(*calls: tuple[str, str], name: str = "Bash") -> dict[str, Any]:
    """One assistant message making several tool calls (command, id)."""
    rec = _tool_use(calls[0][0], calls[0][1], name)
    rec["message"]["content"] = [
        {"type": "tool_use", "id": ident, "name": name, "input": {"command": command}}
        for command, ident in calls
    ]
    return rec


# --- every real fixture ------------------------------------------------------------------------


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name[:12])
def test_reader_counts_every_record_type_of_every_fixture(path: Path) -> None:
    stats = ReadStats()
    events = list(T.iter_events(path, stats))
    assert stats.skipped_lines == 0
    assert stats.records + stats.blank_lines == stats.lines
    assert sum(stats.types.values()) == stats.records
    expected = _sources_table()[str(path.relative_to(TRANSCRIPTS))]
    assert dict(stats.types) == expected
    for event in events:
        assert isinstance(event, (Statement, ToolError))
        assert event.timestamp and re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", event.timestamp)


def test_all_layouts_and_record_types_are_covered() -> None:
    seen: Counter[str] = Counter()
    for path in ALL_FILES:
        stats = ReadStats()
        for _ in T.iter_records(path, stats):
            pass
        seen.update(stats.types)
    for kind in (
        "user",
        "assistant",
        "summary",
        "attachment",
        "progress",
        "queue-operation",
        "file-history-snapshot",
        "system",
        "permission-mode",
        "last-prompt",
    ):
        assert seen[kind] > 0, kind
    names = [p.relative_to(TRANSCRIPTS).as_posix() for p in ALL_FILES]
    assert any(re.search(r"/agent-[0-9a-f]+\.jsonl$", n) and "/subagents/" not in n for n in names)
    assert any("/subagents/agent-" in n for n in names)


def test_statements_are_exactly_the_labelled_user_statements() -> None:
    """labels.jsonl has one line per genuine user statement (typed prompt or rejection reason)."""
    labelled: dict[str, set[int]] = {}
    for raw in LABELS.read_text("utf-8").splitlines():
        item = json.loads(raw)
        labelled.setdefault(item["transcript"], set()).add(item["line"])
    for path in ALL_FILES:
        rel = str(path.relative_to(TRANSCRIPTS))
        lines = {s.line for s in T.iter_statements(path)}
        assert lines == labelled.get(rel, set()), rel


def test_prompt_text_is_cleaned_of_ide_wrappers_and_sidechain_prompts_are_not_users() -> None:
    by_line = {s.line: s for s in T.iter_statements(JSS)}
    assert by_line[47].text.startswith("OK, so this was just so you know")
    assert "<ide_opened_file>" not in by_line[47].text
    assert by_line[169].text == "Let's also Migrate to AudioWorklet"
    sub = (
        REAL
        / "-src-experiments-claude_p"
        / "29ccd257-68b1-427f-ae5f-6524b7cb6f20"
        / "subagents"
        / "agent-a2271d1.jsonl"
    )
    assert list(T.iter_statements(sub)) == []  # the Task prompt was written by the parent agent
    hooks = list(T.iter_statements(TRANSCRIPTS / "hook_attachments.jsonl"))
    assert [s.text for s in hooks] == ["Run the test suite"]


def test_rejection_reason_up_to_2_0_carries_the_rejected_command() -> None:
    rejection = [s for s in T.iter_statements(JSS) if s.origin == "rejection"]
    assert len(rejection) == 1
    assert rejection[0].line == 77 and rejection[0].text == "use pnpm"
    assert rejection[0].rejected_tool == "Bash" and rejection[0].rejected_command == "npm install"
    assert rejection[0].timestamp == "2025-11-18T00:03:02Z"
    assert rejection[0].session_id == "7acd37a8-2745-4b58-a8a9-46164b22ad9e"


def test_rejection_formats_of_2_1_and_subagents(tmp_path: Path) -> None:
    rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file)."
    hint = "\n\nNote: The user's next message may contain a correction or preference. Pay close attention — if they explain what went wrong or how they'd prefer you to work, consider saving that to memory for future sessions."
    path = _write(
        tmp_path / "s.jsonl",
        [
            _tool_uses(("npm i", "t1"), ("npx x", "t2"), ("ls", "t3"), ("ls", "t4")),
            _tool_result(
                f"{rejected} To tell you how to proceed, the user said:\nuse bun{hint}",
                "t1",
                **REFUSED_2_1,
            ),
            _tool_result(
                "Permission for this tool use was denied. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). The user said:\nnever touch prod",
                "t2",
                **REFUSED_KIND,
            ),
            _tool_result(
                f"{rejected} To tell you how to proceed, the user said:\nThe user wants to clarify these questions.\n    This means ...",
                "t3",
                **REFUSED_2_1,
            ),
            _tool_result(
                f"{rejected} STOP what you are doing and wait for the user to tell you how to proceed.",
                "t4",
                **REFUSED_2_1,
            ),
        ],
    )
    got = [(s.line, s.origin, s.text, s.rejected_command) for s in T.iter_statements(path)]
    assert got == [
        (2, "rejection", "use bun", "npm i"),
        (3, "rejection", "never touch prod", "npx x"),
    ]
    assert list(T.iter_tool_errors(path)) == []  # cancellations are not command failures


@pytest.mark.parametrize(
    "text",
    [
        "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>",
        "<local-command-stdout>See ya!</local-command-stdout>",
        "<bash-input>ls</bash-input>",
        "<bash-stdout>x</bash-stdout>",
        "[Request interrupted by user for tool use]",
        "[Request interrupted by user]",
        "Caveat: The messages below were generated by the user while running local commands.",
        "<system-reminder>Always use pnpm</system-reminder>",
        "<agent-memory>\n- Never push to main\n</agent-memory>",
        "Implement the following plan:\n\n# Plan\n- always use X",
        "This session is being continued from a previous conversation that ran out of context.",
        # the desktop app's preview button writes this prompt
        "Detect my project's dev servers and save all their configurations to .claude/launch.json,"
        " then ask which ones to start.\n\nUse runtimeExecutable for the command.",
        "<task-notification><task-id>1</task-id></task-notification>",
        '<teammate-message teammate_id="bob">never push</teammate-message>',
    ],
)
def test_machine_text_is_never_a_statement(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path / "s.jsonl", [_user(text), _user([{"type": "text", "text": text}])])
    assert list(T.iter_statements(path)) == []


def test_meta_compact_and_hook_records_are_skipped_but_memory_notes_kept(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "s.jsonl",
        [
            _user("Always use tabs", isMeta=True),
            _user("Never use tabs", isCompactSummary=True),
            {
                "type": "attachment",
                "attachment": {"type": "hook_additional_context", "content": ["never push"]},
            },
            {
                "type": "system",
                "subtype": "informational",
                "content": "UserPromptSubmit hook success: always X",
            },
            _user("<user-memory-input>the staging DB is read-only</user-memory-input>"),
            _user(
                "use ruff <system-reminder>hook said: always use black</system-reminder> for linting"
            ),
            _user(
                [
                    {"type": "text", "text": "<ide_selection>The user selected x</ide_selection>"},
                    {"type": "text", "text": "keep it simple"},
                    {"type": "image", "source": {}},
                ]
            ),
        ],
    )
    got = [(s.line, s.origin, s.text) for s in T.iter_statements(path)]
    assert got == [
        (5, "memory", "the staging DB is read-only"),
        (6, "prompt", "use ruff   for linting"),
        (7, "prompt", "keep it simple"),
    ]


def test_tool_errors_come_from_shell_tools_with_their_command() -> None:
    path = (
        REAL
        / "-Users-dain-workspace-claude-code-log-sample"
        / "326189cf-5676-4237-8cde-1ce80aae4a9f.jsonl"
    )
    errors = list(T.iter_tool_errors(path))
    assert [(e.line, e.command) for e in errors] == [
        (35, "uv run ty check"),
        (42, "uv run ty check"),
    ]
    assert all(e.tool == "Bash" and "error[call-non-callable]" in e.text for e in errors)


def test_statement_text_for_inspect_why() -> None:
    lines = JSS.read_text("utf-8").splitlines()
    assert T.statement_text(json.loads(lines[76])) == "use pnpm"
    assert T.statement_text(json.loads(lines[63])) == "ok, fine, let's do vite"
    assert T.statement_text(json.loads(lines[0])) is None  # queue-operation
    assert T.statement_text("not a record") is None  # type: ignore[arg-type]


def test_session_and_timestamp_fallbacks(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "abc-123.jsonl",
        [
            {"type": "summary", "summary": "x"},
            {"type": "user", "message": {"role": "user", "content": "no timestamp, no session"}},
            _user("later", timestamp="2026-03-02T23:59:59+02:00"),
            {
                "type": "user",
                "message": {"role": "user", "content": "after"},
                "timestamp": "garbage",
            },
        ],
    )
    got = [(s.text, s.session_id, s.timestamp) for s in T.iter_statements(path)]
    assert got == [
        ("no timestamp, no session", "abc-123", None),
        ("later", "s-1", "2026-03-02T21:59:59Z"),
        ("after", "abc-123", "2026-03-02T21:59:59Z"),
    ]
    # a session given names the records that carry none; a record's own id wins
    assert [s.session_id for s in T.iter_statements(path, session="given/id")] == ["given-id", "s-1", "given-id"]


# --- bad input ----------------------------------------------------------------------------------


def test_bad_lines_are_skipped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    good = json.dumps(_user("never push to main")).encode()
    path.write_bytes(
        b"\n".join(
            [
                good,
                b'{"type": "user", "message": {"content": "\xff\xfe invalid utf-8"}}',
                b"\x00\x00\x00\x00",
                b'{"type":"user","message":{"content":"nul \x00 inside"}}',
                b"[1, 2, 3]",
                b"",
                json.dumps({"type": "from-the-future", "payload": {"x": 1}}).encode(),
                json.dumps({"type": "user", "message": "a string, not an object"}).encode(),
                json.dumps(
                    {
                        "type": "assistant",
                        "message": {"content": [{"type": "tool_use", "id": 5, "input": "x"}]},
                    }
                ).encode(),
                good[: len(good) // 2],  # truncated last line, no newline
            ]
        )
    )
    stats = ReadStats()
    statements = list(T.iter_statements(path, stats))
    assert [s.text for s in statements] == ["never push to main"]
    assert stats.skipped_lines == 5
    assert stats.blank_lines == 1 and stats.records == 4
    assert stats.types["from-the-future"] == 1


@pytest.mark.parametrize("uuid", [["x"], {"a": 1}])
def test_a_record_whose_uuid_is_no_string_is_read_and_the_rest_after_it(tmp_path: Path, uuid: object) -> None:
    """A damaged row's `uuid` (a list, an object) after a checkpoint row: looked up as a key it
    raised TypeError, and the whole transcript went unread."""
    path = tmp_path / "odd.jsonl"
    rows = [{"type": "file-history-snapshot", "messageId": "u1"}, {**_user("hi"), "uuid": uuid},
            _user("never push to main")]  # fmt: skip
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert [s.text for s in T.iter_statements(path)] == ["hi", "never push to main"]


def test_a_50_mb_line_is_skipped_with_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with path.open("wb") as fh:
        fh.write(json.dumps(_user("always use uv")).encode() + b"\n")
        fh.write(b'{"type":"user","message":{"content":"')
        chunk = b"x" * (1 << 20)
        for _ in range(50):
            fh.write(chunk)
        fh.write(b'"}}\n')
        fh.write(json.dumps(_user("never use pip")).encode() + b"\n")
    tracemalloc.start()
    try:
        stats = ReadStats()
        texts = [s.text for s in T.iter_statements(path, stats)]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert texts == ["always use uv", "never use pip"]
    assert stats.oversized_lines == 1 and stats.skipped_lines == 1
    assert peak < 2 * T.MAX_LINE_BYTES + (8 << 20)


def test_a_large_but_allowed_line_still_parses(tmp_path: Path) -> None:
    text = "keep it dependency free " + "y" * (3 << 20)
    path = _write(tmp_path / "big.jsonl", [_user(text)])
    assert [len(s.text) for s in T.iter_statements(path)] == [len(text)]


def test_missing_file_and_directory_raise_oserror(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        list(T.iter_records(tmp_path / "nope.jsonl"))
    with pytest.raises(OSError):
        list(T.iter_records(tmp_path))


def test_lone_surrogates_do_not_leak(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "s.jsonl", ['{"type":"user","message":{"content":"use uv \\ud800 always"}}']
    )
    [statement] = list(T.iter_statements(path))
    statement.text.encode("utf-8")


# --- finding a repository's transcripts ---------------------------------------------------------


def test_find_transcripts_covers_root_subdirs_worktrees_and_subagents(
    repo: Path, tmp_path: Path
) -> None:
    projects = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects"
    worktree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", str(worktree), "-b", "feature")
    sibling = Path(str(repo) + "-old")

    def put(folder: Path, name: str, cwd: Path) -> Path:
        return _write(projects / slug_for(folder) / name, [_user("hello", cwd=str(cwd))])

    expected = [
        put(repo, "a.jsonl", repo),
        put(repo, "agent-1234abcd.jsonl", repo),
        put(repo / "sub" / "dir", "b.jsonl", repo / "sub" / "dir"),
        put(repo / ".claude" / "worktrees" / "x", "c.jsonl", repo / ".claude" / "worktrees" / "x"),
        put(worktree, "d.jsonl", worktree),
        _write(
            projects / slug_for(repo) / "a" / "subagents" / "agent-ffff.jsonl",
            [_user("x", cwd=str(repo))],
        ),
    ]
    put(sibling, "e.jsonl", sibling)  # same slug prefix, different repository
    put(tmp_path / "elsewhere", "f.jsonl", tmp_path / "elsewhere")
    found = find_transcripts(repo / "sub")
    assert sorted(found) == sorted(expected)
    assert find_transcripts(tmp_path / "no-such-dir") == []


def test_find_transcripts_of_a_repository_whose_slug_is_cut(tmp_path: Path) -> None:
    """Past 200 units the client cuts the folder name and appends a hash of the whole path
    (tests/test_slug.py): the repository's own folder is found by its exact name; a folder of a
    directory below it, or one hashed otherwise, by the cut part when its recorded cwd is ours."""
    repo = tmp_path.joinpath(*(f"nested-level-{i:02d}" for i in range(16)), "proj")
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    sibling = Path(str(repo) + "-old")
    sibling.mkdir()
    projects = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects"
    own = slug_for(repo)
    assert len(own) > 200

    def put(folder_name: str, name: str, cwd: Path) -> Path:
        return _write(projects / folder_name / name, [_user("hello", cwd=str(cwd))])

    expected = [
        put(own, "a.jsonl", repo),
        put(slug_for(repo / "sub"), "b.jsonl", repo / "sub"),
        put(own[:200] + "-otherhash", "c.jsonl", repo),
    ]
    put(slug_for(sibling), "d.jsonl", sibling)  # the same 200 units, another repository
    assert slug_for(sibling)[:200] == own[:200]
    assert sorted(find_transcripts(repo)) == sorted(expected)


def test_prompts_typed_while_the_agent_works_are_statements(tmp_path: Path) -> None:
    """2.1.x folds a prompt typed mid-turn into an `attachment` (queued_command) with no user row;
    only one marked `origin.kind == "human"` is the user's; every other attachment is hook or
    harness output."""
    base = {"type": "attachment", "sessionId": "s-1", "timestamp": "2026-03-01T10:00:05Z"}
    path = _write(
        tmp_path / "s.jsonl",
        [
            {
                **base,
                "attachment": {
                    "type": "queued_command",
                    "commandMode": "prompt",
                    "origin": {"kind": "human"},
                    "prompt": "no, use pnpm for this repo",
                },
            },
            {
                **base,
                "attachment": {
                    "type": "queued_command",
                    "prompt": [{"type": "text", "text": "never push to main"}],
                },
            },
            {
                **base,
                "attachment": {
                    "type": "queued_command",
                    "commandMode": "task-notification",
                    "prompt": "<task-notification>done</task-notification>",
                },
            },
            {
                **base,
                "attachment": {
                    "type": "queued_command",
                    "origin": {"kind": "agent"},
                    "prompt": "always X",
                },
            },
            {
                **base,
                "attachment": {
                    "type": "queued_command",
                    "prompt": "<command-name>/clear</command-name>",
                },
            },
            {
                **base,
                "attachment": {"type": "hook_additional_context", "content": ["always use yarn"]},
            },
            {**base, "attachment": {"type": "hook_success", "stdout": "never use npm"}},
        ],
    )
    got = [(s.line, s.origin, s.text) for s in T.iter_statements(path)]
    # Line 2 has no `origin`: the harness may have queued it (issue 14 §1), so it is not trusted.
    assert got == [(1, "prompt", "no, use pnpm for this repo")]
    assert (
        T.statement_text(json.loads(path.read_text().splitlines()[0]))
        == "no, use pnpm for this repo"
    )


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_shapes = st.fixed_dictionaries(
    {"type": st.sampled_from(["user", "assistant", "attachment", "system", "summary", "x-future"])},
    optional={
        "message": st.one_of(
            _json,
            st.fixed_dictionaries(
                {
                    "content": st.one_of(
                        st.text(max_size=80),
                        st.lists(
                            st.one_of(
                                _json,
                                st.fixed_dictionaries(
                                    {
                                        "type": st.sampled_from(
                                            ["text", "tool_result", "tool_use", "image"]
                                        ),
                                        "text": st.one_of(st.text(max_size=60), _json),
                                        "content": _json,
                                        "is_error": _json,
                                        "tool_use_id": _json,
                                        "id": _json,
                                        "name": _json,
                                        "input": _json,
                                    }
                                ),
                            ),
                            max_size=3,
                        ),
                    )
                }
            ),
        ),
        "attachment": _json,
        "timestamp": st.one_of(st.text(max_size=30), _json),
        "sessionId": _json,
        "isMeta": _json,
        "isSidechain": _json,
        "toolUseResult": _json,
        "cwd": _json,
    },
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(records=st.lists(_shapes, max_size=8))
def test_any_record_shape_is_read_without_raising(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    from agent_memory.extract.pipeline import extract_transcript

    path = tmp_path / "shapes.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    stats = ReadStats()
    events = list(T.iter_events(path, stats))
    assert stats.records == len(records)
    for event in events:
        event.text.encode("utf-8")
    extract_transcript(path, "p")  # strict mode: raises only on I/O


# --- a pass that starts where the last one stopped (issue 25) -----------------------------------

REJECTED = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a "
            "file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n")


def _events(path: Path, start: T.Position | None = None) -> tuple[list[tuple[int, str]], ReadStats]:
    stats = ReadStats()
    got = [(e.line, e.text) for e in T.iter_events(path, stats, start=start) if isinstance(e, Statement)]
    return got, stats


def test_a_pass_resumes_after_the_last_complete_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "s.jsonl", [_user("first prompt"), _user("second prompt")])
    got, stats = _events(path)
    assert got == [(1, "first prompt"), (2, "second prompt")]
    end = stats.end
    assert (end.offset, end.line) == (path.stat().st_size, 2) and end.tail
    with path.open("a") as fh:
        fh.write(json.dumps(_user("third prompt")) + "\n" + json.dumps(_user("still typing"))[:30])
    got, stats = _events(path, end)
    assert stats.resumed and got == [(3, "third prompt")] and stats.lines == 2
    # the unfinished last line is not past the stop point: the next pass reads it once it is whole
    assert stats.end.line == 3 and stats.end.offset < path.stat().st_size
    with path.open("a") as fh:
        fh.write(json.dumps(_user("still typing"))[30:] + "\n")
    got, _ = _events(path, stats.end)
    assert got == [(4, "still typing")]
    # nothing new: nothing read
    _, again = _events(path, _events(path)[1].end)
    assert again.resumed and again.lines == 0


def test_a_rewritten_transcript_is_read_whole(tmp_path: Path) -> None:
    path = _write(tmp_path / "s.jsonl", [_user("first prompt"), _user("second prompt")])
    end = _events(path)[1].end
    _write(path, [_user("other prompt"), _user("and another one"), _user("and a third")])
    got, stats = _events(path, end)
    assert not stats.resumed and [line for line, _ in got] == [1, 2, 3]
    _write(path, [_user("short")])  # shorter than the stop point
    got, stats = _events(path, end)
    assert not stats.resumed and got == [(1, "short")]


def test_a_resumed_pass_knows_the_turns_just_before_it(tmp_path: Path) -> None:
    """A rejection answers the assistant's latest tool call, and assistant prose pasted back
    is not the user's: both are told from records before the stop point."""
    prose = "Always keep the generated client in src/gen and never edit it by hand."
    reply = {"type": "assistant", "sessionId": "s-1", "timestamp": "2026-03-01T10:00:00Z",
             "message": {"role": "assistant", "content": [{"type": "text", "text": prose}]}}  # fmt: skip
    path = _write(tmp_path / "s.jsonl", [_user("hello"), reply, _tool_use("npm i", "t9")])
    end = _events(path)[1].end
    with path.open("a") as fh:
        fh.write(json.dumps(_tool_result(REJECTED + "use bun", "t9", **REFUSED_KIND)) + "\n")
        fh.write(json.dumps(_user(f"{prose}\nok, thanks")) + "\n")
    got, stats = _events(path, end)
    assert stats.resumed and got == [(4, "use bun"), (5, "ok, thanks")]
    assert [(e.line, e.text) for e in T.iter_statements(path) if e.line > 3] == got  # as a whole pass sees it


def test_one_identity_names_the_transcript_everywhere(tmp_path: Path) -> None:
    """Pointer, local path and session are worked out once per transcript (Transcript.of) and
    every atom of it carries them: nothing recomputes them per atom."""
    from agent_memory.extract.pipeline import extract_transcript
    from agent_memory.transcripts.identity import Transcript

    path = _write(tmp_path / "projects" / "-w-proj" / "abc.jsonl",
                  [_user("Never push to main.", sessionId=None), _user("Use pnpm, not npm.", sessionId=None)])  # fmt: skip
    found = Transcript.of(path)
    assert found.pointer == "~/.claude/projects/-w-proj/abc.jsonl" and found.at(7) == found.pointer + "#L7"
    assert found.session == "abc" and found.local == str(path)
    named = Transcript(path, "~/.claude/projects/-elsewhere/abc.jsonl", "~/kept/abc.jsonl", "sess-9")
    atoms = extract_transcript(named, "proj").atoms
    assert len(atoms) == 2
    for atom in atoms:
        [evidence] = atom["evidence"]
        assert atom["source"].startswith(named.pointer + "#L") and evidence["path"] == named.local
        assert atom["sessions"] == ["sess-9"]


def test_a_transcript_outside_the_projects_folder_names_the_session_it_copies(tmp_path: Path) -> None:
    """A copy or an export sits in a folder Claude Code never filed it under: its pointer is
    the one of the transcript it copies — the slug of its recorded cwd and its recorded
    session — never `~/.claude/projects/<the folder it sits in>/…`. Inside a projects folder the
    folder is the slug (a file renamed there still names its recorded session), and where
    no cwd is recorded, the file's place is all there is to the slug."""
    from agent_memory.extract.pipeline import extract_transcript
    from agent_memory.transcripts.identity import Transcript

    records = [{"type": "summary", "summary": "x"}, _user("Never push to main.", sessionId="0b1c-2d", cwd="/w/my.app")]
    copy = _write(tmp_path / "backup" / "export.jsonl", records)
    assert Transcript.of(copy).pointer == "~/.claude/projects/-w-my-app/0b1c-2d.jsonl"
    [atom] = extract_transcript(copy, "proj").atoms
    assert atom["source"] == "~/.claude/projects/-w-my-app/0b1c-2d.jsonl#L2" and atom["evidence"][0]["path"] == str(copy)
    sub = _write(tmp_path / "backup" / "0b1c-2d" / "subagents" / "agent-a1.jsonl", records)
    assert Transcript.of(sub).pointer == "~/.claude/projects/-w-my-app/agent-a1.jsonl"
    filed = _write(tmp_path / "projects" / "-elsewhere" / "abc.jsonl", records)
    assert Transcript.of(filed).pointer == "~/.claude/projects/-elsewhere/0b1c-2d.jsonl"
    silent = _write(tmp_path / "backup" / "abc.jsonl", [_user("Never push to main.", cwd=None)])
    # no cwd recorded: the folder is the slug; the session its record names is still its name
    assert Transcript.of(silent).pointer == "~/.claude/projects/backup/s-1.jsonl"


def test_the_ledger_reads_its_first_format_and_keeps_the_latest_line(tmp_path: Path) -> None:
    from agent_memory.transcripts import ledger

    common = tmp_path / "git"
    (common / "agent-memory").mkdir(parents=True)
    log = common / "agent-memory" / "captured.log"
    log.write_text("10 20 /a b/c.jsonl\nnot a line\n")
    book = ledger.Ledger(common)
    assert book.unchanged(ledger.TRANSCRIPT, "/a b/c.jsonl", "10:20") is not None
    assert book.unchanged(ledger.TRANSCRIPT, "/a b/c.jsonl", "11:20") is None
    end = T.Position(10, 1, "10:0000abcd")
    book.record(ledger.Entry(ledger.TRANSCRIPT, "/a b/c.jsonl", "11:21", end))
    book.record(ledger.Entry("auto-memory", "/a b/memory", "digest"))  # another kind of source
    again = ledger.Ledger(common)
    assert again.get(ledger.TRANSCRIPT, "/a b/c.jsonl") == ledger.Entry(ledger.TRANSCRIPT, "/a b/c.jsonl", "11:21", end)
    assert again.unchanged("auto-memory", "/a b/memory", "digest") is not None
    for n in range(300):  # compacted to a line per source once it holds far more
        again.record(ledger.Entry(ledger.TRANSCRIPT, "/x.jsonl", f"{n}:0"))
    assert len(log.read_text().splitlines()) < 300
    assert ledger.Ledger(common).get(ledger.TRANSCRIPT, "/x.jsonl").signature == "299:0"  # type: ignore[union-attr]


def test_a_prompt_cut_inside_an_emoji_keeps_its_statement(repo: Path) -> None:
    """A client that cuts text inside an emoji writes half a surrogate pair (`\\ud83d`) in
    the JSON. It became "?" — "Always tag releases with a v prefix ? in this repo." reads as a
    question, and the user's statement was dropped without a word (skipped_lines 0). The half
    is dropped now; the claim merges with the same words typed without it."""
    from sessions import gm, gm_json, write_session

    gm(repo, "init", "--yes")
    write_session(repo, "aaaaaaaa-0000-4000-8000-000000000001", "2026-11-01",
                  [{"user": "Always tag releases with a v prefix \ud83d in this repo."}])
    write_session(repo, "aaaaaaaa-0000-4000-8000-000000000002", "2026-11-02",
                  [{"user": "Always tag releases with a v prefix \udc80in this repo."}])
    write_session(repo, "aaaaaaaa-0000-4000-8000-000000000003", "2026-11-03",
                  [{"user": "Always tag releases with a v prefix in this repo."}])
    gm(repo, "capture", "--all", "--no-stage")
    [atom] = gm_json(repo, "inspect", "--tier", "L1")["atoms"]
    assert atom["claim"] == "Always tag releases with a v prefix" and len(atom["sessions"]) == 3
