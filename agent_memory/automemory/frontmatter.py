"""A memory file's frontmatter, read tolerantly.

Claude Code writes YAML-looking frontmatter between `---` lines, but the files are often not
valid YAML: unquoted values with colons (`description: Fix: use scp`), a trailing space after
`metadata:`, a UTF-8 BOM, CRLF line ends, hand edits. A YAML parser would reject or misread
those, so this reads the shape the client writes, line by line, and never fails:

- `key: value` at the left margin; the value is everything after the first `: ` (colons
  inside it kept), a `"…"` or `'…'` value unquoted, `|`/`>` block scalars and indented
  continuation lines joined;
- `key:` with nothing after it (trailing blanks allowed) opens a mapping whose indented
  `key: value` lines are one level down (`metadata:` → `{"type": …, "originSessionId": …}`);
- list items (`- x`) and anything else unrecognised are ignored.

No closing `---` (or `...`) means no frontmatter: the whole text is body.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

_KEY = re.compile(r"^(?P<indent>[ \t]*)(?P<key>[A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(?P<value>.*?))?[ \t]*$")
_FENCE = ("---",)
_CLOSE = ("---", "...")


@dataclass(frozen=True)
class Frontmatter:
    fields: dict[str, object] = field(default_factory=dict)
    present: bool = False
    body: str = ""
    body_line: int = 1  # the file's 1-based line number where the body starts

    def get(self, key: str) -> str | None:
        """A top-level string field, else the same key under `metadata:` (newer clients)."""
        for where in (self.fields, self.fields.get("metadata")):
            if isinstance(where, dict):
                value = where.get(key)
                if isinstance(value, str) and value.strip():
                    return value.strip()
        return None


def normalise_text(raw: bytes) -> str:
    """UTF-8 (invalid bytes replaced), without a BOM, with `\\n` line ends."""
    text = raw.decode("utf-8", errors="replace")
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        try:
            decoded = json.loads(value)
        except ValueError:
            return value[1:-1]
        return decoded if isinstance(decoded, str) else value[1:-1]
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    return value


def parse(text: str) -> Frontmatter:
    lines = text.split("\n")
    if not lines or lines[0].strip() not in _FENCE:
        return Frontmatter(body=text)
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in _CLOSE), None)
    if end is None:
        return Frontmatter(body=text)
    fields: dict[str, object] = {}
    parent: dict[str, object] | None = None  # the mapping a `key:` line opened
    last: tuple[dict[str, object], str] | None = None  # where a continuation line goes
    block = False  # inside a `|`/`>` block scalar
    for line in lines[1:end]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indented = line[:1] in (" ", "\t")
        match = _KEY.match(line)
        if match and not (block and indented):
            block = False
            key, value = match.group("key"), match.group("value") or None
            target = parent if indented and parent is not None else fields
            if not indented:
                parent = None
            if value is None:
                if not indented:
                    parent = {}
                    fields[key] = parent
                last = None
                continue
            if value in ("|", ">", "|-", ">-", "|+", ">+"):
                target[key] = ""
                last, block = (target, key), True
                continue
            target[key] = _unquote(value)
            last = (target, key)
            continue
        if indented and last is not None and not line.lstrip().startswith("- "):
            where, key = last  # a continuation of the previous value (block or plain scalar)
            previous = where.get(key)
            piece = line.strip()
            where[key] = f"{previous} {piece}".strip() if isinstance(previous, str) else piece
    body = "\n".join(lines[end + 1 :])
    return Frontmatter(fields=fields, present=True, body=body, body_line=end + 2)


__all__ = ["Frontmatter", "normalise_text", "parse"]
