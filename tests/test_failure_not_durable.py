"""A failed command is an observed `failure` atom only when its failure says something about the
machine or the project's setup: `ls`, `cat`, `grep`, `rm`, a shell loop … fail because of the
path or pattern they were given, which recurs in any session that looks around ("`ls` fails
(exit 1): not found" was the first promotion a real 1,758-session project staged into
CLAUDE.memory.md), and a build or test run failing with no named cause is the code under edit.
The transcript is written in Claude Code 2.1's shape: an assistant `Bash` tool_use, then the
user-role tool_result the client records with `is_error`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_memory.extract.pipeline import extract_transcript

SID = "5ec0fa11-0000-4000-8000-000000000000"


def _record(kind: str, n: int, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/w/proj",
            "sessionId": SID, "version": "2.1.90", "gitBranch": "main", "type": kind,
            "message": message, "uuid": f"00000000-0000-4000-8000-{n:012d}",
            "timestamp": f"2026-10-01T10:{n // 60:02d}:{n % 60:02d}.000Z", **extra}  # fmt: skip


def _failed_call(n: int, command: str, output: str) -> list[dict[str, Any]]:
    """The assistant runs `command` in Bash; the client records its error `output`."""
    tool_id = f"toolu_{n:04d}"
    call = {"id": f"msg_{n:04d}", "role": "assistant", "type": "message",
            "content": [{"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": command}}]}  # fmt: skip
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id,
                                           "content": output, "is_error": True}]}  # fmt: skip
    return [_record("assistant", n, call), _record("user", n + 1, result, toolUseResult=f"Error: {output}")]


def _failures(tmp_path: Path, calls: list[tuple[str, str]]) -> list[str]:
    records: list[dict[str, Any]] = []
    for i, (command, output) in enumerate(calls):
        records += _failed_call(10 + 2 * i, command, output)
    path = tmp_path / "projects" / "-w-proj" / f"{SID}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return [a["claim"] for a in extract_transcript(path, "proj").atoms if a["kind"] == "failure"]


MISSING_TOOL = ("bun run build", "Exit code 127\n/bin/bash: line 1: bun: command not found")


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("ls -la src/missing/", "Exit code 2\nls: cannot access 'src/missing/': No such file or directory"),
        ("cat notes/plan.md", "Exit code 1\ncat: notes/plan.md: No such file or directory"),
        ("grep -rn TODO lib/ | head", "Exit code 2\ngrep: lib/: No such file or directory"),
        ("rm build/out.o", "Exit code 1\nrm: cannot remove 'build/out.o': Permission denied"),
        ("for f in *.md; do wc -l $f done", "Exit code 2\n/bin/bash: -c: line 1: syntax error: unexpected end of file"),
    ],
)
def test_a_command_failing_on_its_arguments_is_no_failure_atom(tmp_path: Path, command: str, output: str) -> None:
    claims = _failures(tmp_path, [(command, output), MISSING_TOOL, (command, output), MISSING_TOOL])
    # the missing tool, failing twice the same way, is still learned (the positive control)
    assert claims == ["`bun run build` fails (exit 127): command not found"], claims


def test_an_argument_bound_program_that_cannot_run_at_all_is_still_a_failure(tmp_path: Path) -> None:
    """`mkdir: command not found` is about the machine's PATH, not the path it was given."""
    broken = ("mkdir -p out", "Exit code 127\n/bin/bash: line 1: mkdir: command not found")
    assert _failures(tmp_path, [broken, broken]) == ["`mkdir` fails (exit 127): command not found"]


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("npm run build", "Exit code 1\nnpm error Lifecycle script `build` failed with error:\nnpm error code 1"),
        ("cargo test", "Exit code 101\nerror: test failed, to rerun pass `--lib`"),
        ("xcodebuild -scheme App build", "Exit code 65\n** BUILD FAILED **"),
        ("npm run build", "Failed to compile.\n\n./src/app/page.tsx:60:41\nType error: Property 'items' does not exist on type 'Api'."),
        ("npm run build", "Failed to compile.\n\n./src/lib/engine.ts:760:28\nType error: Object is possibly 'undefined'."),
        ("npx tsc --noEmit", "Exit code 2\nsrc/app.ts(3,5): error TS2304: Cannot find name 'foo'."),
        ("python -m app.main", "Exit code 1\nTraceback (most recent call last):\n  File \"app/main.py\", line 3\napp.errors.ParseError: bad header"),
    ],
)
def test_the_code_under_edit_failing_is_no_failure_atom(tmp_path: Path, command: str, output: str) -> None:
    claims = _failures(tmp_path, [(command, output), MISSING_TOOL, (command, output), MISSING_TOOL])
    assert claims == ["`bun run build` fails (exit 127): command not found"], claims


def test_a_failure_about_the_machine_is_still_learned(tmp_path: Path) -> None:
    """A named cause outside the code — here the database not listening — is kept."""
    down = ("npm run migrate", "Exit code 1\nError: connect ECONNREFUSED 127.0.0.1:5432")
    assert _failures(tmp_path, [down, down]) == ["`npm run migrate` fails (exit 1): connection refused"]


@pytest.mark.parametrize(
    "output",
    [
        "Exit code 1\n/usr/bin/bash: line 3: /tmp/claude-6da5-cwd: No such file or directory",
        "zsh:1: permission denied: /var/folders/zz/T/claude-a029-cwd",
        "/k/tools/shell-snapshots/snapshot-bash-1755674611710-7adgnj.sh: No such file or directory",
    ],
)
def test_claude_codes_shell_wrapper_failing_is_not_the_commands_failure(tmp_path: Path, output: str) -> None:
    """The client's own cwd file and shell snapshot: "`git log` fails: permission denied"."""
    call = ("git log --oneline -n 5", output)
    assert _failures(tmp_path, [call, MISSING_TOOL, call, MISSING_TOOL]) == [
        "`bun run build` fails (exit 127): command not found"
    ]


def test_a_tool_dash_cannot_find_is_a_command_not_found(tmp_path: Path) -> None:
    """dash says "sh: 1: tsc: not found": the project's tools are not installed."""
    call = ("npm run build", "sh: 1: tsc: not found\n\n> client@0.0.0 build\n> tsc -b && vite build")
    assert _failures(tmp_path, [call, call]) == ["`npm run build` fails: command not found"]
