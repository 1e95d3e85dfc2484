"""`git memory redact [--each-line] [--output json]`: stdin → redacted text on stdout.

A filter: it always exits 0 once the input was read, whether or not anything was redacted
(`git memory scan` is the verb that refuses). The input is read as bytes and decoded with
replacement characters, so binary input is redacted like text instead of crashing. JSON offsets
are in characters of the decoded text; with `--each-line`, of that line. With `--each-line`
there is exactly one output record per input line, a line being what ends with `\n` (a `\r`
before it belongs to the line ending; any other `\r`, `\x1c`-`\x1e`, `\x85`, `\u2028`,
`\u2029` stays inside the line).

Imports only `agent_memory.redact.redactor` and the report (no git, no store): it may run in a hook's time budget.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from agent_memory.cli.report import Report
from agent_memory.redact.redactor import Finding, redact


def run(args: argparse.Namespace) -> Report:
    """A filter's output is handed over verbatim (`raw`): the redacted text, or JSON lines
    (one object per input line with --each-line) that the report's printer must not re-indent."""
    data = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    as_json = getattr(args, "output", "text") == "json"
    out: list[str] = []
    if getattr(args, "each_line", False):
        for line in each_line(data):
            body = line[:-1] if line.endswith("\n") else line
            if body.endswith("\r"):
                body = body[:-1]
            ending = line[len(body) :]
            text, findings = redact(body)
            out.append(_json_line(_object(text, findings)) if as_json else text + ending)
    else:
        text, findings = redact(data)
        out.append(_json_line(_object(text, findings)) if as_json else text)
    return Report(raw="".join(out))


def each_line(data: str) -> list[str]:
    """The lines of `data`, each with its `\n` (the last one may lack it). Only `\n` ends a
    line: `str.splitlines` would also split at `\r`, `\x1c`-`\x1e`, `\x85`, `\u2028` and
    `\u2029`, so one input line could become several output records."""
    lines = data.split("\n")
    out = [ln + "\n" for ln in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def _json_line(obj: dict[str, Any]) -> str:
    """One JSON line. Characters that some readers take for a line break stay escaped, so a
    reader that splits at them still sees one record per line."""
    text = json.dumps(obj, ensure_ascii=False)
    for ch in _LINE_BREAKS:
        text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text + "\n"


_LINE_BREAKS = ("\x85", "\u2028", "\u2029")


def _object(text: str, findings: list[Finding]) -> dict[str, Any]:
    return {
        "text": text,
        "findings": [{"rule": f.rule, "start": f.start, "end": f.end} for f in findings],
    }
