"""errors.log is written, so it is redacted like every other write: a line can quote what the
user typed or configured. A hook command line that carries a token (a settings.json entry
written with a key pasted into it) put the token into errors.log, and `git memory status`
printed it on the terminal. Through the installed `git memory` and its hook entry points; the
token comes from the labelled corpus (base64, decoded here; never written in plain text)."""

from __future__ import annotations

from pathlib import Path

import pytest
from secret_corpus import corpus_secrets
from sessions import gm_installed


def _token() -> str:
    """A GitHub token of the corpus, as the redactor finds it whole."""
    return next(token for token in corpus_secrets() if token.startswith("gh"))


def _log(repo: Path) -> str:
    path = repo / ".git" / "agent-memory" / "errors.log"
    return path.read_text("utf-8") if path.exists() else ""


@pytest.mark.parametrize("args", [
    ("hook", "session-end", "--token={token}"),  # argparse: the bad arguments are logged
    ("hook", "{token}"),  # the hook fast path: an unknown event is logged
], ids=["bad-arguments", "unknown-event"])
def test_a_token_on_a_hook_command_line_is_redacted_in_errors_log(guarded: Path, args: tuple[str, ...]) -> None:
    token = _token()
    proc = gm_installed(guarded, *(a.format(token=token) for a in args), check=False, input_text="{}",
                        env={"CLAUDE_PROJECT_DIR": str(guarded)})  # fmt: skip
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout + proc.stderr
    logged = _log(guarded)
    assert logged.strip(), "the hook logged nothing"
    assert token not in logged and token[: len(token) // 2] not in logged, logged
    assert "[REDACTED" in logged, logged
    status = gm_installed(guarded, "status", check=False)
    assert token not in status.stdout + status.stderr


def test_status_shows_a_line_an_older_version_logged_unredacted_without_its_token(guarded: Path) -> None:
    """Lines logged before the log was redacted stay in errors.log as they were; `status`, which
    prints the week's errors, redacts them as it shows them."""
    token = _token()
    from agent_memory.model.clock import stamp

    log = guarded / ".git" / "agent-memory" / "errors.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(f"{stamp()} hook: bad arguments 'session-end --token={token}'\n", "utf-8")
    text = gm_installed(guarded, "status", check=False)
    listed = gm_installed(guarded, "status", "--output", "json", check=False)
    assert "bad arguments" in text.stdout and "bad arguments" in listed.stdout, text.stdout
    for out in (text.stdout + text.stderr, listed.stdout):
        assert token not in out and "[REDACTED" in out, out
