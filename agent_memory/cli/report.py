"""What a verb did, printed in one place.

A verb's `run(args)` does its work and returns a `Report`: the JSON object (`data`), the lines
for people (`lines` on stdout, `notes` on stderr: warnings and `hint:` lines), the exit code,
and a failure that stopped it after some work had landed. `cli/main` prints it once: with
`--output json` the object alone on stdout (scripts parse it; the notes are for people and are
left out; `warnings` are printed either way), otherwise the text. So no verb decides between JSON and text, and a verb can be
driven in-process (`main(argv)`) and read back whole.

Live output that cannot wait for the end stays live: progress on stderr, the questions of the
interactive adopt. A filter (`redact`) hands over its output verbatim (`raw`);
text that needs more reading than the JSON is added `later`, only when text is printed."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from agent_memory.model.errors import FatalError


class Report:
    """A plain class, not a dataclass: `scan --staged` runs in the pre-commit hook and every
    import counts there."""

    def __init__(self, data: dict[str, Any] | None = None, lines: list[str] | None = None, *,
                 code: int = 0, raw: str | None = None) -> None:  # fmt: skip
        self.data: dict[str, Any] = data if data is not None else {}
        self.lines: list[str] = lines if lines is not None else []  # stdout, for people
        self.notes: list[str] = []  # stderr, for people: warnings and hints
        self.warnings: list[str] = []  # stderr whatever the output: what a script must see too
        self.code = code
        # Raised after the report is printed: the report says what landed before it, then
        # main maps the failure to its one line, hint and exit code as for any verb.
        self.failure: BaseException | None = None
        self.raw = raw  # verbatim stdout in both modes
        # Text that costs work the JSON does not need: each adds its lines when text is printed.
        self.later: list[Callable[[Report], object]] = []

    def say(self, *lines: str) -> Report:
        self.lines.extend(lines)
        return self

    def note(self, *lines: str) -> Report:
        self.notes.extend(lines)
        return self

    def warn(self, *lines: str) -> Report:
        self.warnings.extend(lines)
        return self

    def hint(self, text: str) -> Report:
        from agent_memory.cli import colour

        self.notes.append(f"{colour.paint('hint:', 'hint', sys.stderr)} {text}")
        return self

    def say_problem(self, problem: Mapping[str, Any], indent: str = "  ", hint_indent: str = "    ",
                    lead: str = "") -> Report:  # fmt: skip
        """A problem the verb reports and goes on (status, show, promote): its warning line and
        its hint line, on stdout with the rest of the text."""
        from agent_memory.cli import colour

        return self.say(f"{indent}{colour.paint('warning:', 'refused')} {lead}{problem['message']}",
                        f"{hint_indent}{colour.paint('hint:', 'hint')} {problem['hint']}")  # fmt: skip


def problem_of(error: FatalError | None) -> dict[str, Any] | None:
    """A refusal a verb reports rather than raises, as its JSON gives it: `{"message", "hint"}`,
    or None when there is none."""
    return None if error is None else {"message": error.message, "hint": error.hint}


# JSON escapes C0 itself; DEL and C1 it may write raw, which a terminal could act on. Their
# `\\u` escapes parse to the same string.
_JSON_RAW_CONTROLS = {c: f"\\u{c:04x}" for c in [0x7F, *range(0x80, 0xA0)]}


def emit_json(data: Any) -> None:
    import json

    text = json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False)
    sys.stdout.write(text.translate(_JSON_RAW_CONTROLS) + "\n")


def for_people(line: str, stream: Any) -> str:
    """A line of text for a terminal: a path under the home directory written `~/…`
    (model/home.tilde_text; the JSON keeps it whole), control characters in it (a claim's, say)
    shown as `\\x1b`, the colour codes we painted kept (cli/colour.shown)."""
    from agent_memory.model.home import tilde_text

    line = tilde_text(line)
    if line.isprintable():
        return line
    from agent_memory.cli import colour

    return colour.shown(line, stream)


def emit_error(line: str, hint: str | None, code: int) -> None:
    """A failure under `--output json` (no report was printed): stdout still carries one JSON
    object, saying what the lines on stderr say."""
    emit_json({"error": line, "hint": hint, "exit": code})


def emit(report: Report, output: str = "text") -> int:
    """Print `report` (text, or `json` for --output json) and return its exit code; a failure
    it carries is raised after the report is out."""
    if report.raw is not None:
        sys.stdout.write(report.raw)
        sys.stdout.flush()
    elif output == "json":
        emit_json(report.data)
    else:
        for add_lines in report.later:
            add_lines(report)
        for line in report.lines:
            print(for_people(line, sys.stdout))
        if report.notes:
            sys.stdout.flush()  # the text first, then what it leads to
            for note in report.notes:
                print(for_people(note, sys.stderr), file=sys.stderr)
    if report.warnings:
        sys.stdout.flush()
        for line in report.warnings:
            print(for_people(line, sys.stderr), file=sys.stderr)
    if report.failure is not None:
        raise report.failure
    return report.code

