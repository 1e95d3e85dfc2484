"""PLACEHOLDER — being replaced by the full redaction engine (issue 3).

Interface (stable): `find(text) -> list[Finding]`, `redact(text) -> tuple[str, list[Finding]]`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    rule: str
    start: int
    end: int


_RULES = [
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b")),
    ("email", re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")),
]


def find(text: str) -> list[Finding]:
    out = [Finding(rule, m.start(), m.end()) for rule, rx in _RULES for m in rx.finditer(text)]
    return sorted(out, key=lambda f: (f.start, f.end))


def redact(text: str) -> tuple[str, list[Finding]]:
    findings = find(text)
    pieces, pos = [], 0
    for f in findings:
        if f.start < pos:
            continue
        pieces.append(text[pos:f.start])
        pieces.append(f"[REDACTED:{f.rule}]")
        pos = f.end
    pieces.append(text[pos:])
    return "".join(pieces), findings
