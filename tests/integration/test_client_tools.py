"""A session in which the model works, through the real client and a scripted model: it reads a
file, edits it and runs a command. Only what the person typed becomes an atom — never the
file's text, the edit, the command or its output, nor the assistant's prose, however much they
read like rules."""

from __future__ import annotations

import pytest

from .client import Workspace, evidence, typed_prompt_lines

pytestmark = pytest.mark.claude_client

STATED = "Never commit generated files"
TASK = "Add a line about rebasing to the README, then print a reminder"
# Rule-shaped text the model brings in: in the file it writes, in the command and its output,
# in its own answer.
IN_FILE = "Always rebase before merging."
IN_OUTPUT = "Never deploy on Fridays"
IN_ANSWER = "Done. Always run the linter before pushing."


def test_tool_calls_and_their_output_never_become_atoms(workspace: Workspace) -> None:
    readme = str(workspace.repo / "README.md")
    script = {
        "steps": [
            # The statement is answered by the fallback; the task by the steps below.
            {
                "when": {"last_user_contains": TASK},
                "content": [
                    {"type": "text", "text": "Reading the README first."},
                    {"type": "tool_use", "name": "Read", "input": {"file_path": readme}},
                ],
            },
            {
                "when": {"nth_with_tools": 3},
                "content": [
                    {
                        "type": "tool_use",
                        "name": "Edit",
                        "input": {
                            "file_path": readme,
                            "old_string": "# proj",
                            "new_string": f"# proj\n\n{IN_FILE}",
                        },
                    }
                ],
            },
            {
                "when": {"nth_with_tools": 4},
                "content": [
                    {
                        "type": "tool_use",
                        "name": "Bash",
                        "input": {"command": f"echo {IN_OUTPUT}", "description": "Print it"},
                    }
                ],
            },
            {"when": {"nth_with_tools": 5}, "content": [{"type": "text", "text": IN_ANSWER}]},
        ]
    }
    allowed = ("--allowedTools", "Edit,Bash(echo:*)")  # headless: nothing asks a person

    with workspace.scripted(script) as model:
        run = workspace.run([STATED, TASK], args=allowed)
    workspace.wait_for_captures()

    assert model.unanswered_steps() == []
    assert [r.step for r in model.model_requests()] == [None, 1, 2, 3, 4]
    # The tools really ran: the file changed on disk, the output went back to the model.
    assert IN_FILE in (workspace.repo / "README.md").read_text("utf-8")
    assert IN_OUTPUT in model.model_requests()[4].last_user_text()
    records = run.records()
    results = [
        block
        for r in records
        if r.get("type") == "user" and isinstance(r["message"]["content"], list)
        for block in r["message"]["content"]
        if block.get("type") == "tool_result"
    ]
    assert len(results) == 3 and not any(b.get("is_error") for b in results), results

    assert len(typed_prompt_lines(records, (STATED, TASK))) == 2  # two prompts, two turns
    atoms = workspace.atoms()
    assert [a["claim"] for a in atoms] == [STATED]
    typed = typed_prompt_lines(records, (STATED,))
    assert {(sid, line) for _, sid, line in evidence(atoms)} == {
        (run.session_id, line) for line in typed
    }
    assert workspace.errors_log() == []
