"""Messages an SDK host marks as not typed by a person (`text_not_typed`, `client_composed`)
are written by the pinned client as plain `user` rows (no `isMeta`, no `origin`) with
`textNotTyped` / `queueSkipAttachments`: capture must learn nothing from them, while the typed
prompt beside them is still read (tests/test_provenance_not_typed.py has the shapes)."""

from __future__ import annotations

import json
import subprocess

import pytest

from .client import RUN_TIMEOUT, Workspace, read_records

pytestmark = pytest.mark.claude_client

TYPED = "Always use tabs for indentation."
COMPOSED = {
    "text_not_typed": "Always use pnpm, never npm.",
    "client_composed": "Always use bun, never npm.",
}


def test_host_composed_messages_make_no_atom(workspace: Workspace) -> None:
    session = workspace.new_session_id()
    lines = [{"type": "user", "message": {"role": "user", "content": TYPED}}] + [
        {"type": "user", "message": {"role": "user", "content": text}, mark: True}
        for mark, text in COMPOSED.items()
    ]
    subprocess.run(
        [str(workspace.client.binary), "-p", "--session-id", session, "--input-format",
         "stream-json", "--output-format", "stream-json", "--verbose"],
        cwd=workspace.repo,
        env=workspace.env | {"CLAUDE_CODE_MAX_RETRIES": "0"},
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )
    transcript = workspace.transcript_path(session)
    rows = {
        r["message"]["content"]: r
        for r in read_records(transcript)
        if r.get("type") == "user" and isinstance(r.get("message", {}).get("content"), str)
    }
    # The client wrote them as plain rows, told apart only by its marks.
    assert rows[COMPOSED["text_not_typed"]].get("textNotTyped") is True
    assert rows[COMPOSED["client_composed"]].get("queueSkipAttachments") is True
    for text in COMPOSED.values():
        assert not rows[text].get("isMeta") and "origin" not in rows[text]
    found = workspace.git_memory_json("extract", "--transcript", str(transcript))
    assert [a["claim"] for a in found["atoms"]] == ["Always use tabs for indentation"]


def test_a_commands_and_a_skills_text_make_no_atom(workspace: Workspace) -> None:
    """`/deploy` and `/pkg` expand to committed repository files (the client writes the echo,
    then the file's text as an `isMeta` row under it); a `# …` line typed as a prompt (2.1.332
    has no memory shortcut) is still the person's."""
    commands = workspace.repo / ".claude" / "commands"
    commands.mkdir(parents=True, exist_ok=True)
    (commands / "deploy.md").write_text("Always use pnpm, never npm. Deploy $ARGUMENTS now.\n")
    skill = workspace.repo / ".claude" / "skills" / "pkg"
    skill.mkdir(parents=True, exist_ok=True)
    (skill / "SKILL.md").write_text(
        "---\nname: pkg\ndescription: package manager rules\n---\nAlways use yarn, never npm.\n"
    )
    claims = []
    for prompt in ("/deploy staging", "/pkg", "# Always use bun, never npm."):
        run = workspace.run(prompt)
        found = workspace.git_memory_json("extract", "--transcript", str(run.transcript))
        claims += [a["claim"] for a in found["atoms"]]
        if prompt.startswith("/"):
            expanded = [
                r for r in read_records(run.transcript)
                if r.get("type") == "user" and "never npm" in json.dumps(r.get("message"))
            ]
            assert expanded and all(r.get("isMeta") for r in expanded), expanded
    assert claims == ["Use bun, not npm"], claims


def test_a_prompt_typed_after_a_slash_command_is_still_read(workspace: Workspace) -> None:
    """The row straight under a command's echo is the command's (f60a469): a prompt typed right
    after `/cost`, `/model`, a failed `/compact` or a custom command that expands to
    nothing hangs under the output or the answer, and 2.1.332 still makes an atom of each."""
    commands = workspace.repo / ".claude" / "commands"
    commands.mkdir(parents=True, exist_ok=True)
    (commands / "quiet.md").write_text("")
    typed = {
        "/cost": "Never commit generated files.",
        "/quiet": "Always run the linter before committing.",
        "/model": "Use uv for dependencies.",
        "/compact": "Always use tabs for indentation.",
    }
    run = workspace.run([line for pair in typed.items() for line in pair])
    found = workspace.git_memory_json("extract", "--transcript", str(run.transcript))
    claims = {a["claim"] for a in found["atoms"]}
    assert claims == {text.rstrip(".") for text in typed.values()}, claims
