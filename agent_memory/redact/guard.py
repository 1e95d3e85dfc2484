"""The commit guard's rules: what memory material (L2/L3) may never carry.

Pure functions, no git: `scan_text(path, text)` checks the text of one memory file and returns
one `GuardFinding` per problem; `format_finding` renders it as ``path:line: rule``. The git
side (`git memory scan --staged`, the pre-commit hook) lives in `cli/scan.py`, which passes
each staged memory file here (for `CLAUDE.md`, only our marker blocks, other lines blanked).

Refused in the markdown memory files, for what Claude Code would make of them:
``memory-import`` (an ``@path`` import), ``html-comment`` (a comment opener or closer other than
a line that is one whole comment, as the block markers are), ``code-fence`` (a fence opening a
code block), ``merge-conflict`` (a conflict marker line git left in a block a merge could not
resolve). The block renderer writes none of them (`committed.render.inert`).

Refused in every memory file, for what a person reviewing it would not see: ``format-character``
(an invisible format character) and ``control-character`` (a C0 control other than a tab or a
line break, DEL or a C1 control, raw or in a decoded JSON string: a terminal acts on it —
``ESC [8m`` hides the text after it in `git diff`, `git log -p`, `cat`). The block renderer
shows any as ``\\x1b`` (`model.controls`).

Refused, each with its rule name:
- anything `redactor.find` reports (secrets and personal data), under the redaction rule's name;
- ``backpointer-path``: a back-pointer with a path prefix. Committed tiers carry only the bare
  ``<session>.jsonl#L<n>`` form; a prefix writes an OS user name into a tracked file;
- ``home-path``: the running user's own home wherever it is (``$HOME`` and its resolved form,
  as a path or a project slug, also once redacted), and a home-directory path (``/home/<u>/``, ``/Users/<u>/``, ``C:\\Users\\<u>\\``,
  ``/mnt/c/Users/<u>/``, ``~<u>/``, ``~/.claude/projects/``, the ``-home-<u>-`` project slug), even with
  the user name already redacted: the path is machine-specific either way;
- ``worktree-path``: a path inside this checkout's work tree, or its top, written absolute
  (``/srv/app/scripts/check.sh``; model/checkout.py): it says where this clone lives. Redaction
  writes such a path relative to the top, so only a hand edit or an older capture holds one.

JSON-lines files (``.memory/adopted.log``) are also checked string by string after decoding,
so that JSON escaping (``\\"``, ``\\\\``, ``\\u0040``) cannot hide a finding.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from agent_memory.model.checkout import work_tree_forms, work_tree_spans
from agent_memory.model.fastjson import too_deep
from agent_memory.redact import redactor as redact
from agent_memory.redact import rules as R
from agent_memory.redact.fold import fold, invisible
from agent_memory.redact.pii import own_home_spans, own_homes


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
    r"(?:(?<![\w.~-])|(?<=/var)|(?<=/usr)|(?<=/export))/(?:home|Users)/" + _USER
    + r"(?=[/\"'`\s:;,)\]}>]|\Z)"
    r"|(?:(?<![\w.~-])|(?<=/run))/media/" + _USER + r"(?=[/\"'`\s:;,)\]}>]|\Z)"
    r"|(?<![\\\w])\\\\[A-Za-z0-9.$-]{1,63}\\(?i:users|home)\\" + _USER
    + r"|(?<![\w.~-])/mnt/[A-Za-z]/(?i:users)/"
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
    # `~bob/`, `~bob\src`; not `\~\~make\~\~`, `~make\*` nor `a\~make/`: a backslash before
    # `~`, `*`, `_`, `<`, `&` or `]` is markdown's escape (render.literal writes one so), no path
    # separator, and the `~` it escapes follows what is before the backslash
    + r"|(?<![\w~$.%-])(?<![\w~$.%-]\\)~[A-Za-z_][A-Za-z0-9_.-]{0,31}(?=/|\\(?![~*_<&\]]))",
    re.M,
)
# A path whose user component is a placeholder documents a layout; it names no machine.
_PLACEHOLDER_USERS = frozenset(
    {"user", "username", "you", "yourname", "me", "name", "<user>", "shared"}
)


def scan_text(path: str, text: str) -> list[GuardFinding]:
    """Every finding in `text` (the content of memory file `path`), sorted by line.

    Judged as a reviewer reads it, not only as written: format characters are
    refused outright (``format-character``: nobody reviewing the diff can see them), and the
    rules also run on the text with invisible characters removed and look-alike letters folded
    (agent_memory.redact.fold; `redactor.find` does this itself), and on each claim with its
    lines joined, so a secret split across lines or glued with zero-width characters is still
    a secret. Base64 and percent-encoded secrets are decoded by `redactor.find`."""
    found: set[tuple[int, str]] = set()
    lines = _LineIndex(text)
    for off in invisible(text):
        found.add((lines.line_of(off), "format-character"))
    for m in _CONTROL.finditer(text):
        found.add((lines.line_of(m.start()), "control-character"))
    for f in redact.find(text):
        found.add((lines.line_of(f.start), f.rule))
    _path_rules(text, lines.line_of, found)
    folded = fold(text)
    if folded is not None:
        ftext, fmap, _changed = folded
        _path_rules(ftext, lambda off: lines.line_of(fmap[off]), found)
    # a claim's lines joined: only what spans a line break is new here
    for joined, origin in _joined_claims(text):
        for f in redact.find(joined):
            if lines.line_of(origin[f.start]) != lines.line_of(origin[f.end - 1]):
                found.add((lines.line_of(origin[f.start]), f.rule))
        _path_rules(joined, lambda off, o=origin: lines.line_of(o[off]), found)  # type: ignore[misc]
    if not _is_json_lines(path):
        _syntax_rules(text, lines.line_of, found)
    if _is_json_lines(path):
        for lineno, value in _json_strings(text):
            if value is None:  # its strings cannot be read, so they cannot be judged
                found.add((lineno, "json-too-deep"))
                continue
            found.update((lineno, rule) for rule in _string_rules(value))
    # `home-path` already says what `home-user` would on the same line
    homes = {ln for ln, rule in found if rule == "home-path"}
    found = {(ln, rule) for ln, rule in found if not (rule == "home-user" and ln in homes)}
    return [GuardFinding(path, ln, rule) for ln, rule in sorted(found)]


def _path_rules(text: str, line_of: Callable[[int], int], found: set[tuple[int, str]]) -> None:
    """Back-pointers with a path prefix and home-directory paths."""
    # Each pattern needs a literal to match at all: most text has none, and trying the
    # patterns at every offset was half of the guard's time.
    if ".jsonl#L" in text:
        for m in _BACKPOINTER.finditer(text):
            if m.group("prefix"):
                found.add((line_of(m.start()), "backpointer-path"))
    # the running user's own home, wherever it is (`/srv/users/bob`), also once redacted
    for start, _e, _a, _b in own_home_spans(text, redacted=True):
        found.add((line_of(start), "home-path"))
    # where this clone lives (`/srv/app/scripts/check.sh`): capture writes such a path
    # relative (redactor.redact), so a line still holding it was written by hand or before
    for start, _e in work_tree_spans(text):
        found.add((line_of(start), "worktree-path"))
    if not _may_hold_home_path(text):
        return
    for m in _HOME_PATH.finditer(text):
        user = re.split(r"[/\\]", m.group().rstrip("/\\-"))[-1].lstrip("-~").lower()
        if user in _PLACEHOLDER_USERS or (
            m.group().startswith("~") and user in R.NON_PERSONAL_USERS
        ):
            continue
        found.add((line_of(m.start()), "home-path"))


# What Claude Code interprets in a memory file (docs/claude-code-integration.md, "What
# Claude Code reads in a memory file"). The block renderer writes none of it (render.inert);
# a memory file holding one was written by hand or by someone else.
# `@path` after whitespace (JavaScript's \s, which has U+FEFF) is an import of that file.
_IMPORT = re.compile(r"(?:^|(?<=[\s\ufeff]))@(?=[^\s\ufeff])", re.M)
# Comment openers and closers; a line that is one whole comment hides only itself (our markers).
_COMMENT_TOKEN = re.compile(r"<!--|--!?>")
# (A byte-order mark may open the file: an encoding signature, not text before the comment.)
_ONE_COMMENT_LINE = re.compile(r"\ufeff?[ \t]{0,3}<!--(?:(?!<!--|--!?>).)*--!?>[ \t]*\r?")
# A fence opening a code block (a list item's too): the client finds no import inside code.
_FENCE = re.compile(r"^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:`{3,}|~{3,})", re.M)
# What git writes into a file a merge could not resolve (the ||||||| line with diff3): committed,
# the block shows both sides' lines around them, which no adopted.log renders to.
_CONFLICT = re.compile(r"^(?:(?:<{7}|\|{7}|>{7})(?:[ \t].*)?|={7}[ \t]*)\r?$", re.M)
# What a terminal acts on instead of showing (model/controls.py): C0 but tab and line feed, DEL,
# C1. In a file a carriage return before a line feed ends a line (CRLF); a decoded string
# (a claim) is never written with one.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")
_STRING_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _syntax_rules(text: str, line_of: Callable[[int], int], found: set[tuple[int, str]]) -> None:
    """``memory-import``, ``html-comment`` and ``code-fence`` in a markdown memory file."""
    if "@" in text:
        for m in _IMPORT.finditer(text):
            found.add((line_of(m.start()), "memory-import"))
    if "<!--" in text or "--" in text:
        pos = 0
        for line in text.split("\n"):
            if _COMMENT_TOKEN.search(line) and not _ONE_COMMENT_LINE.fullmatch(line):
                found.add((line_of(pos), "html-comment"))
            pos += len(line) + 1
    if "``" in text or "~~" in text:
        for m in _FENCE.finditer(text):
            found.add((line_of(m.start()), "code-fence"))
    if "<<<<<<<" in text or "=======" in text or ">>>>>>>" in text or "|||||||" in text:
        for m in _CONFLICT.finditer(text):
            found.add((line_of(m.start()), "merge-conflict"))


def _may_hold_home_path(text: str) -> bool:
    """False only when no alternative of _HOME_PATH can match: each needs `~`, `home`,
    `/media/` or `users` in any case (casefold: the regex's ignore-case also matches `ſ` for `s`)."""
    return "~" in text or "home" in text or "/media/" in text or "users" in text.casefold()


def _string_rules(value: str) -> frozenset[str]:
    return _string_rules_with(value, (own_homes(), work_tree_forms()))


@lru_cache(maxsize=8192)
def _string_rules_with(value: str, _machine: object) -> frozenset[str]:
    """The rules one decoded JSON string breaks, in any of its views. A pure function of the
    string, the running user's home and this checkout's place (`_machine`, the key), so kept
    per string: every log line repeats the same keys and most of the same values (one adopted
    item's guard run was ~40 scans)."""
    found: set[tuple[int, str]] = set()
    if invisible(value):
        found.add((0, "format-character"))
    if _STRING_CONTROL.search(value):  # `\u001b` in the file: the decoded claim holds an ESC
        found.add((0, "control-character"))
    for v in _views(value):
        for f in redact.find(v):
            found.add((0, f.rule))
        _path_rules(v, lambda _off: 0, found)
    return frozenset(rule for _, rule in found)


def _views(value: str) -> list[str]:
    """A JSON string as written, folded, and with its lines joined."""
    out = [value]
    folded = fold(value)
    if folded is not None:
        out.append(folded[0])
    if "\n" in value:
        out.append("".join(part.strip() for part in value.split("\n")))
    return out


_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")
_NOT_A_CLAIM = re.compile(r"[ \t]*(?:#|<!--|\||```)")  # heading, marker or comment, table, fence


def _joined_claims(text: str) -> Iterator[tuple[str, list[int]]]:
    """(claim with its lines joined, offset in `text` of each character, plus its end) for
    every claim that continues over more than one line. Joined without a separator, after
    trimming each line: that is how a secret split by a line break reads again."""
    group: list[tuple[int, int]] = []  # (start, end) of each trimmed line of the claim

    def flush(group: list[tuple[int, int]]) -> Iterator[tuple[str, list[int]]]:
        if len(group) < 2:
            return
        origin: list[int] = []
        for a, b in group:
            origin.extend(range(a, b))
        if origin:
            joined = "".join(text[a:b] for a, b in group)
            yield joined, origin + [origin[-1] + 1]

    pos = 0
    for raw in text.split("\n"):
        start = pos
        pos += len(raw) + 1
        body = raw.strip()
        if not body or _NOT_A_CLAIM.match(raw):
            yield from flush(group)
            group = []
            continue
        a = start + len(raw) - len(raw.lstrip())
        b = a + len(body)
        item = _LIST_ITEM.match(raw)
        if item:
            yield from flush(group)
            group = [(start + item.end(), b)]
        else:
            group.append((a, b))
    yield from flush(group)


class _LineIndex:
    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


def _is_json_lines(path: str) -> bool:
    p = path.replace("\\", "/")
    return p.endswith((".log", ".jsonl", ".ndjson"))


def _json_strings(text: str) -> Iterator[tuple[int, str | None]]:
    """(line number, string) for every string (keys included) of every JSON line; (line
    number, None) for a line nested too deep to parse (json would raise RecursionError)."""
    for lineno, line in enumerate(text.split("\n"), start=1):
        line = line.strip()
        if not line.startswith(("{", "[")):
            continue
        if too_deep(line):
            yield lineno, None
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
