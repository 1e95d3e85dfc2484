"""`git memory redact [--each-line] [--output json]`: stdin → redacted text on stdout (CLI.md).

A filter: it always exits 0 once the input was read, whether or not anything was redacted
(`git memory scan` is the verb that refuses). The input is read as bytes and decoded with
replacement characters, so binary input is redacted like text instead of crashing. JSON offsets
are in characters of the decoded text; with `--each-line`, of that line.

Imports only `agent_memory.redact.redactor` (no git, no store): it may run in a hook's time budget.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from agent_memory.redact.redactor import Finding, redact


def run(args: argparse.Namespace) -> int:
    data = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    as_json = getattr(args, "output", "text") == "json"
    out = sys.stdout
    if getattr(args, "each_line", False):
        for line in data.splitlines(keepends=True):
            body = line.rstrip("\r\n")
            ending = line[len(body) :]
            text, findings = redact(body)
            if as_json:
                out.write(json.dumps(_object(text, findings), ensure_ascii=False) + "\n")
            else:
                out.write(text + ending)
    else:
        text, findings = redact(data)
        if as_json:
            out.write(json.dumps(_object(text, findings), ensure_ascii=False) + "\n")
        else:
            out.write(text)
    out.flush()
    return 0


def _object(text: str, findings: list[Finding]) -> dict[str, Any]:
    return {
        "text": text,
        "findings": [{"rule": f.rule, "start": f.start, "end": f.end} for f in findings],
    }
