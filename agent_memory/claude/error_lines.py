"""errors.log lines are redacted like every other write (gitio/state.log_error): the process
entry points (cli/main, the Claude Code hooks) hand the redactor down before anything can be
logged. Setting it imports nothing (the prompt hook's budget is spent on every prompt), and the
redactor itself is imported only when a line is written: an error is rare."""

import agent_memory.gitio as gitio_package


def redact_error_lines() -> None:
    gitio_package.redact_line = _redact


def _redact(text: str) -> str:
    from agent_memory.redact.redactor import redact

    return redact(text, memory=False)[0]  # local: its paths stay as they are
