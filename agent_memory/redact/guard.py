"""The commit guard's rules: what memory material (L2/L3) may never carry (spec §3.1.1, §6).

Pure functions, no git: `scan_text(path, text)` checks the text of one memory file and returns
one `GuardFinding` per problem; `format_finding` renders it as ``path:line: rule``. The git
side (`git memory scan --staged`, the pre-commit hook) lives in `commands/scan.py`, which passes
each staged memory file here (for `CLAUDE.md`, only our marker blocks, other lines blanked).

Refused, each with its rule name:
- anything `redact.find` reports (secrets and personal data), under the redaction rule's name;
- ``backpointer-path``: a back-pointer with a path prefix. Committed tiers carry only the bare
  ``<session>.jsonl#L<n>`` form; a prefix writes an OS user name into a tracked file (§4.1.1);
- ``home-path``: a home-directory path (``/home/<u>/``, ``/Users/<u>/``, ``C:\\Users\\<u>\\``,
  ``/mnt/c/Users/<u>/``, ``~<u>/``, ``~/.claude/projects/``, the ``-home-<u>-`` project slug), even with
  the user name already redacted: the path is machine-specific either way.

JSON-lines files (``.memory/adopted.log``) are also checked string by string after decoding,
so that JSON escaping (``\\"``, ``\\\\``, ``\\u0040``) cannot hide a finding.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from agent_memory.redact import redactor as redact
from agent_memory.redact import rules as R


@dataclass(frozen=True)
class GuardFinding:
    path: str
    line: int  # 1-based
    rule: str


def format_finding(f: GuardFinding) -> str:
    return f"{f.path}:{f.line}: {f.rule}"


# `<session>.jsonl#L<n>` is the only committed form; anything glued in front of the session
# name (a directory, `~`, a drive) is a path prefix.
_BACKPOINTER = re.compile(r"(?P<prefix>[^\s\"'`()<>\[\]{},;|]*[/\\~:])?[\w.-]+\.jsonl#L\d+")
_SEP = r"(?:\\\\|\\|/)"
_USER = r"(?!\$|<|\{|%)[^/\\\s\"'`:;,<>|*?]{1,64}"
_HOME_PATH = re.compile(
    r"(?<![\w.~-])/(?:home|Users)/" + _USER + r"(?=[/\"'`\s:;,)\]}>]|\Z)"
    r"|(?<![\w.~-])/mnt/[A-Za-z]/(?i:users)/"
    + _USER
    + r"|(?<![A-Za-z0-9])[A-Za-z]:"
    + _SEP
    + r"(?i:users)"
    + _SEP
    + _USER
    + r"|~"
    + _SEP
    + r"\.claude"
    + _SEP
    + r"projects"
    + _SEP
    + r"|(?:(?<=[\s/\"'`=:(\[\\])|^|(?<=(?<![A-Za-z0-9])[A-Za-z]-))-(?:home|Users)-[A-Za-z0-9._]{1,64}-"
    + r"|(?<![\w~$.%-])~[A-Za-z_][A-Za-z0-9_.-]{0,31}(?=[/\\])",
    re.M,
)
# A path whose user component is a placeholder documents a layout; it names no machine.
_PLACEHOLDER_USERS = frozenset(
    {"user", "username", "you", "yourname", "me", "name", "<user>", "shared"}
)


def scan_text(path: str, text: str) -> list[GuardFinding]:
    """Every finding in `text` (the content of memory file `path`), sorted by line."""
    found: set[tuple[int, str]] = set()
    lines = _LineIndex(text)
    for f in redact.find(text):
        found.add((lines.line_of(f.start), f.rule))
    for m in _BACKPOINTER.finditer(text):
        if m.group("prefix"):
            found.add((lines.line_of(m.start()), "backpointer-path"))
    for m in _HOME_PATH.finditer(text):
        user = re.split(r"[/\\]", m.group().rstrip("/\\-"))[-1].lstrip("-~").lower()
        if user in _PLACEHOLDER_USERS or (
            m.group().startswith("~") and user in R.NON_PERSONAL_USERS
        ):
            continue
        found.add((lines.line_of(m.start()), "home-path"))
    if _is_json_lines(path):
        for lineno, value in _json_strings(text):
            for f in redact.find(value):
                found.add((lineno, f.rule))
            if any(m.group("prefix") for m in _BACKPOINTER.finditer(value)):
                found.add((lineno, "backpointer-path"))
            if _HOME_PATH.search(value):
                found.add((lineno, "home-path"))
    # `home-path` already says what `home-user` would on the same line
    homes = {ln for ln, rule in found if rule == "home-path"}
    found = {(ln, rule) for ln, rule in found if not (rule == "home-user" and ln in homes)}
    return [GuardFinding(path, ln, rule) for ln, rule in sorted(found)]


class _LineIndex:
    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


def _is_json_lines(path: str) -> bool:
    p = path.replace("\\", "/")
    return p.endswith((".log", ".jsonl", ".ndjson"))


def _json_strings(text: str) -> Iterator[tuple[int, str]]:
    """(line number, string) for every string (keys included) of every JSON line."""
    for lineno, line in enumerate(text.split("\n"), start=1):
        line = line.strip()
        if not line.startswith(("{", "[")):
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        for s in _strings(obj):
            yield lineno, s


def _strings(obj: object) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)
