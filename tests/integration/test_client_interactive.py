"""The full-screen client in a pseudo-terminal, as a person uses it: type, use shell mode,
quit with /exit (SessionEnd, reason `prompt_input_exit`).

Also here:
- A tool-rejection reason ("To tell you how to proceed, the user said: …") is written only
  when a person refuses a tool call the model made: test_client_denial.py makes one, with a
  scripted model whose tool call the person refuses in this same pseudo-terminal.
- A `#` memory note: 2.1.332 has no `#` shortcut any more. A line starting with `#` is sent to
  Claude as an ordinary prompt and recorded as a plain `user` record with the `#` kept (no
  `<user-memory-input>` wrapper), interactive or headless. The test below pins that, so the
  reader's treatment of `#` lines is a decision, not an accident: the line is read as a note the
  person asked to keep (people still type the old shortcut), so its fact passes the gate."""

from __future__ import annotations

import pytest

from .client import Workspace, typed_prompt_lines

pytestmark = pytest.mark.claude_client

NEVER_PUSH = "Never push directly to main"
HASH_NOTE = "# the staging database is read-only"
SHELL_RULE = "Always use yarn for installs"


def test_an_interactive_session_is_captured_when_the_person_quits(workspace: Workspace) -> None:
    session = workspace.interactive()
    try:
        session.prompt(NEVER_PUSH)
        # Shell mode: the command and its output are recorded as `user` records, but neither
        # is a statement the person made to Claude.
        session.shell(f"echo {SHELL_RULE}")
        session.prompt(HASH_NOTE)
        assert session.exit() == 0
    finally:
        session.close()
    workspace.wait_for_captures()

    records = session.records()
    contents = [r["message"]["content"] for r in records if r.get("type") == "user"]
    assert f"<bash-input>echo {SHELL_RULE}</bash-input>" in contents
    assert any(isinstance(c, str) and f"<bash-stdout>{SHELL_RULE}" in c for c in contents)
    assert HASH_NOTE in contents  # a plain prompt, `#` kept: no memory-note record in 2.1.332

    atoms = workspace.atoms()
    typed = typed_prompt_lines(records, (NEVER_PUSH, HASH_NOTE))
    sources = {
        (e["session"], int(e["source"].rpartition("#L")[2])) for a in atoms for e in a["evidence"]
    }
    assert sources and all(sid == session.session_id and line in typed for sid, line in sources)
    assert NEVER_PUSH in {a["claim"] for a in atoms}
    assert "The staging database is read-only" in {a["claim"] for a in atoms}
    assert not any("yarn" in a["claim"] for a in atoms)
    assert workspace.errors_log() == []


def test_a_session_quit_before_any_prompt_logs_no_error(workspace: Workspace) -> None:
    session = workspace.interactive()
    try:
        assert session.exit() == 0
    finally:
        session.close()
    workspace.wait_for_captures()

    assert not session.transcript.exists()  # the client writes nothing for an empty session
    assert workspace.errors_log() == []
