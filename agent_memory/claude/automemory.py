"""Seed 002 for Claude Code's own auto-memory directory: where it is, and whether it is a
bounded working set in which every file stays reachable (`git memory validate --auto-memory`).

What Claude Code does (researched 2026; sources below):

- Location. Auto memory lives in `<config>/projects/<slug>/memory/`, `<config>` being
  `CLAUDE_CONFIG_DIR` or `~/.claude` and `<slug>` the *canonical git root* (the main work tree,
  so every worktree and subdirectory of a repository shares one directory; the project root
  outside git) with every character outside [A-Za-z0-9] replaced by `-`. The directory holds a
  `MEMORY.md` index plus one topic file per memory (frontmatter `name`/`description`/`type`).
  https://code.claude.com/docs/en/memory ("Storage location"); Claude Code `memdir/paths.ts`
  (`getAutoMemPath`, `getAutoMemBase` → `findCanonicalGitRoot`), as quoted in public source
  dumps, e.g. https://tangled.org/oppi.li/claude-code/blob/main/memdir/paths.ts
- Resolution order in `getAutoMemPath`: (1) env `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE` (absolute
  path, no `~`); (2) the `autoMemoryDirectory` setting, taken from the first *trusted* settings
  source that defines it: managed policy → `--settings` flag → local
  (`<project>/.claude/settings.local.json`) → user (`<config>/settings.json`). Project settings
  (`.claude/settings.json`, committed) are deliberately NOT read: a hostile repository could
  otherwise point memory writes at `~/.ssh` (the setting arrived in v2.1.74; changelog and
  https://github.com/anthropics/claude-code/issues/33709, #36636, #51394); (3) the default
  above, whose base is `CLAUDE_CODE_REMOTE_MEMORY_DIR` when set (remote sessions).
- `autoMemoryDirectory` values: `~/` (or `~\\`) is expanded to the home directory; bare `~`,
  `~/`, `~/..` are rejected; relative paths, near-root paths (< 3 chars), drive roots, UNC
  paths and NUL bytes are rejected (`validateMemoryPath`). A rejected value does not fall
  through to the next source: the chain picks the first *defined* value, then validates it,
  and an invalid one leaves the default in force. Relative paths are therefore ignored by
  Claude Code (issue #51394), and we ignore them too, with a note, rather than guess a base.
- Loading. "The first 200 lines of MEMORY.md, or the first 25KB, whichever comes first, are
  loaded at the start of every conversation" (docs, "Auto memory"); the code constants are
  `MAX_ENTRYPOINT_LINES = 200` and `MAX_ENTRYPOINT_BYTES = 25_000` (`memdir/memdir.ts`
  `truncateEntrypointContent`: line cap first, then byte cap). We budget 25,000 bytes, not
  25,600: an index of 25,300 bytes would pass a 25 KiB check yet be cut by Claude Code.

Decisions of ours (what an index reaches is what counts, not a list of every file):

- A file is reachable from an index by a markdown link to it (`[x](file.md)`, `[x]: file.md`;
  relative, URL-decoded, `#fragment` dropped, never escaping the directory), by its relative
  path written as a word (`file.md`, `sub/file.md`), or by a region pointer.
- A region pointer is any inline code span (outside fenced code blocks) whose whole content is
  a glob over bare file names: only `[A-Za-z0-9._-]` plus at least one `*` or `?`, no `/`, no
  space. It matches (case-sensitively) the non-dot files *in the index file's own directory*,
  never files in subdirectories; files in subdirectories are reachable by relative link or
  path only. A glob matching zero files is a stale cue and fails.
- Index files: `MEMORY.md`, and any reachable file whose name is `MEMORY*.md` (e.g.
  `MEMORY-archive.md`, an archive index); their links and regions count too.
- Dotfiles and everything under a dot-directory are exempt (`.memory-pressure.jsonl` lives
  there). A link to a file that does not exist is a warning, not an orphan.
"""

from __future__ import annotations

import datetime as _dt
import fnmatch
import json
import os
import posixpath
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

# Where the folder is lives one layer down (capture reads the folder too); re-exported here.
from agent_memory.automemory.location import (  # noqa: F401 - re-exported
    COWORK_OVERRIDE_ENV,
    INDEX_NAME,
    REMOTE_BASE_ENV,
    SETTING_KEY,
    AutoMemoryLocation,
    canonical_root,
    default_auto_memory_dir,
    is_index_file,
    managed_settings_path,
    resolve_auto_memory_dir,
)

MAX_INDEX_LINES = 200
MAX_INDEX_BYTES = 25_000
PRESSURE_THRESHOLD = 0.90
PRESSURE_FILE = ".memory-pressure.jsonl"


# ---------------------------------------------------------------- reading an index


@dataclass(frozen=True)
class RegionPointer:
    glob: str
    index: str  # relative path of the index file that declares it
    line: int
    matches: tuple[str, ...]


_INLINE_LINK_RE = re.compile(
    r"!?\[[^\]]*\]\(\s*(<[^>]*>|[^()\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
_REF_DEF_RE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
_CODE_SPAN_RE = re.compile(r"(`+)(.+?)\1")
_REGION_GLOB_RE = re.compile(r"[A-Za-z0-9._*?-]+")
_WORD_SPLIT_RE = re.compile(r"[\s`'\"()\[\]<>{},;|*!]+")
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _link_targets(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), 1):
        for match in _INLINE_LINK_RE.finditer(line):
            yield number, match.group(1)
        ref = _REF_DEF_RE.match(line)
        if ref:
            yield number, ref.group(1)


def _resolve_target(raw: str, index_dir: str, directory: Path) -> str | None:
    """A link target as a posix path relative to the memory dir, or None when it points out."""
    target = raw.strip().removeprefix("<").removesuffix(">").split("#", 1)[0].split("?", 1)[0]
    if not target or (_SCHEME_RE.match(target) and not re.match(r"^[A-Za-z]:[\\/]", target)):
        return None
    target = unquote(target).replace("\\", "/")
    if os.path.isabs(target) or re.match(r"^[A-Za-z]:/", target):
        try:
            target = Path(target).resolve().relative_to(directory.resolve()).as_posix()
        except ValueError:
            return None
    else:
        target = posixpath.join(index_dir, target) if index_dir else target
    normal = posixpath.normpath(target)
    if normal == "." or normal == ".." or normal.startswith("../"):
        return None
    return normal


def _mentions(text: str, index_dir: str, candidates: set[str]) -> set[str]:
    """Relative paths in `candidates` that the text names as a word (`file.md`, `sub/f.md`)."""
    found: set[str] = set()
    for word in _WORD_SPLIT_RE.split(text):
        word = word.strip(".,:;!?").removeprefix("./")
        if not word:
            continue
        rel = posixpath.normpath(posixpath.join(index_dir, word)) if index_dir else word
        if rel in candidates:
            found.add(rel)
    for rel in candidates - found:  # names the word split cannot see (spaces, brackets...)
        name = rel if not index_dir else posixpath.relpath(rel, index_dir)
        if _WORD_SPLIT_RE.search(name) and re.search(
            rf"(?<![\w./-]){re.escape(name)}(?![\w-])", text
        ):
            found.add(rel)
    return found


def _region_globs(text: str) -> Iterator[tuple[int, str]]:
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced:
            continue
        for match in _CODE_SPAN_RE.finditer(line):
            span = match.group(2).strip()
            if ("*" in span or "?" in span) and _REGION_GLOB_RE.fullmatch(span):
                yield number, span


def memory_files(directory: Path, problems: list[str] | None = None) -> list[str]:
    """Every non-dot file under `directory` (relative posix paths, sorted), dot-dirs skipped,
    as the one walk of the folder reads it (`automemory.notes.walk`: `MAX_DEPTH` folders deep,
    `MAX_FILES` entries, no link followed; why it stopped early is appended to `problems`).
    An unbounded `os.walk` here read whatever a setting pointed the folder at (`/usr`, a home
    directory) when validate or consolidate looked at it, where capture reads a bounded part."""
    import stat

    from agent_memory.automemory.notes import walk

    return sorted(rel for rel, st in walk(directory, problems)
                  if not (stat.S_ISLNK(st.st_mode) and os.path.isdir(directory / rel)))  # fmt: skip


# ---------------------------------------------------------------- validation


@dataclass
class AutoMemoryReport:
    directory: Path
    ok: bool = True
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    lines: int = 0
    bytes: int = 0
    utilisation: float = 0.0
    files: list[str] = field(default_factory=list)  # memory files other than MEMORY.md
    orphans: list[str] = field(default_factory=list)
    dead_regions: list[str] = field(default_factory=list)
    regions: list[RegionPointer] = field(default_factory=list)
    pressure_sample: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "errors": list(self.errors),
            "warnings": list(self.warnings),
            "directory": str(self.directory),
            "lines": self.lines,
            "bytes": self.bytes,
            "utilisation": round(self.utilisation, 4),
            "budget": {"lines": MAX_INDEX_LINES, "bytes": MAX_INDEX_BYTES},
            "files": list(self.files),
            "orphans": list(self.orphans),
            "dead_regions": list(self.dead_regions),
            "regions": [
                {"glob": r.glob, "index": r.index, "line": r.line, "matches": list(r.matches)}
                for r in self.regions
            ],
            "pressure_sample": self.pressure_sample,
        }


def _fail(report: AutoMemoryReport, message: str) -> AutoMemoryReport:
    report.errors.append(message)
    report.ok = False
    return report


# An index is read this far at most (40 times the budget Claude Code loads): its budget lines
# need its size, not its whole text, and a folder entry may be a huge file.
MAX_INDEX_READ = 40 * MAX_INDEX_BYTES


def _read_index(directory: Path, rel: str) -> tuple[bytes | None, str]:
    """(the first bytes of index `rel`, "") or (None, why it is not read). As capture reads a
    topic file (`walk.read_regular`): never through a symlink, never a FIFO or a device. An
    index read with `read_text` hung validate on a FIFO named `MEMORY-x.md`, ran it out of
    memory on a link to /dev/zero, and read a file outside the folder through a link."""
    from agent_memory.automemory.walk import NotRegularFile, is_link_refusal, read_regular

    try:
        return read_regular(directory / rel, MAX_INDEX_READ), ""
    except NotRegularFile:
        return None, f"{rel}: not read: not a regular file"
    except OSError as exc:
        if is_link_refusal(exc):
            return None, f"{rel}: not read: a symlink (nothing is read from outside the folder)"
        return None, f"{rel}: not read: {exc.strerror or exc}"


def validate_auto_memory(
    directory: Path, today: _dt.date | None = None, record_pressure: bool = True
) -> AutoMemoryReport:
    report = AutoMemoryReport(directory=directory)
    if not directory.is_dir():
        return _fail(report, f"auto-memory directory not found: {directory}")
    index_path = directory / INDEX_NAME
    if not os.path.lexists(index_path):
        return _fail(
            report, f"{INDEX_NAME} not found in {directory}: nothing is loaded at session start"
        )
    raw, why_not = _read_index(directory, INDEX_NAME)
    if raw is None:
        return _fail(report, why_not)
    size = len(raw) if len(raw) <= MAX_INDEX_READ else os.stat(index_path).st_size
    index_text = raw[:MAX_INDEX_READ].decode("utf-8", errors="replace")
    _check_budget(report, index_text, size)

    walked: list[str] = []
    all_files = memory_files(directory, walked)
    report.warnings += walked  # read no further than capture reads: the rest is not checked
    report.files = [f for f in all_files if f != INDEX_NAME]
    candidates = set(report.files)
    reachable = _reachable(report, directory, index_text, candidates)

    report.orphans = sorted(candidates - reachable)
    for orphan in report.orphans:
        report.errors.append(
            f"orphan: {orphan} is not reachable from {INDEX_NAME} (add an index line or a region pointer)"
        )
    report.ok = not report.errors

    if record_pressure and report.utilisation >= PRESSURE_THRESHOLD:
        try:
            report.pressure_sample = record_pressure_sample(
                directory, report, today or _dt.date.today()
            )
        except OSError as exc:
            report.warnings.append(f"could not record a pressure sample: {exc}")
    return report


def _check_budget(report: AutoMemoryReport, index_text: str, size: int) -> None:
    """The index against what Claude Code loads of it (its first lines and bytes): over the
    budget is an error, near it a warning."""
    report.lines = len(index_text.splitlines())
    report.bytes = size
    report.utilisation = max(report.lines / MAX_INDEX_LINES, report.bytes / MAX_INDEX_BYTES)
    if report.lines > MAX_INDEX_LINES:
        report.errors.append(
            f"{INDEX_NAME}: {report.lines} lines, over the {MAX_INDEX_LINES}-line budget "
            f"(Claude Code loads only the first {MAX_INDEX_LINES})"
        )
    if report.bytes > MAX_INDEX_BYTES:
        report.errors.append(
            f"{INDEX_NAME}: {report.bytes:,} bytes, over the {MAX_INDEX_BYTES:,}-byte budget "
            f"(Claude Code loads only the first {MAX_INDEX_BYTES:,})"
        )
    if PRESSURE_THRESHOLD <= report.utilisation <= 1.0:
        report.warnings.append(f"{INDEX_NAME} is at {report.utilisation:.1%} of its budget")


def _reachable(
    report: AutoMemoryReport, directory: Path, index_text: str, candidates: set[str]
) -> set[str]:
    """The memory files reachable from MEMORY.md: what its links, mentions and region pointers
    name, and on through every nested index they reach (each read once, so a cycle ends)."""
    reachable: set[str] = set()
    pending = [INDEX_NAME]
    seen_indexes: set[str] = set()
    while pending:
        index_rel = pending.pop()
        if index_rel in seen_indexes:
            continue
        seen_indexes.add(index_rel)
        if index_rel == INDEX_NAME:
            text = index_text
        else:
            nested, why_not = _read_index(directory, index_rel)
            if nested is None:
                report.errors.append(why_not)
                continue
            text = nested[:MAX_INDEX_READ].decode("utf-8", errors="replace")
        newly = _named_by(report, directory, index_rel, text, candidates)
        reachable |= newly
        pending.extend(
            sorted(rel for rel in newly if is_index_file(rel) and rel not in seen_indexes)
        )
    return reachable


def _named_by(
    report: AutoMemoryReport, directory: Path, index_rel: str, text: str, candidates: set[str]
) -> set[str]:
    """The memory files one index names: its links (a link to no file is a warning), the file
    names it mentions, and what its region pointers match (one matching nothing is an error)."""
    index_dir = posixpath.dirname(index_rel)
    newly: set[str] = set()
    for line, target in _link_targets(text):
        rel = _resolve_target(target, index_dir, directory)
        if rel is None:
            continue
        if rel in candidates:
            newly.add(rel)
        elif rel != INDEX_NAME and not any(part.startswith(".") for part in rel.split("/")):
            report.warnings.append(f"{index_rel}:{line} links to {rel}, which does not exist")
    newly |= _mentions(text, index_dir, candidates)
    siblings = [f for f in report.files if posixpath.dirname(f) == index_dir]
    for line, glob in _region_globs(text):
        matches = tuple(f for f in siblings if fnmatch.fnmatchcase(posixpath.basename(f), glob))
        report.regions.append(RegionPointer(glob, index_rel, line, matches))
        if not matches:
            report.dead_regions.append(glob)
            report.errors.append(
                f"region pointer `{glob}` ({index_rel}:{line}) matches no file"
            )
        newly.update(matches)
    return newly


# The samples file grows by one line a day at most: a larger one is not ours to read whole.
MAX_PRESSURE_READ = 1 << 20


def _sampled_dates(path: Path) -> set[str]:
    """The days `path` holds a sample of. Read as the topic files are (`walk.read_regular`):
    never through a link, never a FIFO or a device — `read_text` waited for ever on a FIFO
    there and read /dev/zero linked there until memory ran out (OSError: the caller's
    "could not record" warning)."""
    from agent_memory.automemory.walk import read_regular

    dates: set[str] = set()
    try:
        text = read_regular(path, MAX_PRESSURE_READ).decode("utf-8", errors="replace")
    except FileNotFoundError:
        return dates
    for line in text.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("date"), str):
            dates.add(entry["date"])
    return dates


def record_pressure_sample(
    directory: Path, report: AutoMemoryReport, today: _dt.date
) -> dict[str, Any] | None:
    """Append today's sample to `.memory-pressure.jsonl` (0600) unless today already has one.

    Seed 002 "Spill-rate instrumentation": at most one sample per calendar day, and only at
    ≥ 90 % of the budget, so the file measures how often the working set runs near its limit.
    Returns the sample written, or None.
    """
    path = directory / PRESSURE_FILE
    day = today.isoformat()
    if day in _sampled_dates(path):
        return None
    sample: dict[str, Any] = {
        "date": day,
        "lines": report.lines,
        "bytes": report.bytes,
        "utilisation": round(report.utilisation, 4),
    }
    # Never through a link (a folder the user points `--auto-memory` at may be a clone's): the
    # caller turns the refusal (ELOOP) into a warning, like any other failed sample.
    # Non-blocking: a FIFO with no reader fails to open (ENXIO) instead of waiting for one.
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags, 0o600)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(22, "not a regular file: no sample written", os.fspath(path))
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
        os.write(fd, (json.dumps(sample, sort_keys=True) + "\n").encode("utf-8"))
    finally:
        os.close(fd)
    return sample


# ---------------------------------------------------------------- human output


def render_report(report: AutoMemoryReport) -> str:
    from agent_memory.model.words import plural

    out = [f"auto-memory: {report.directory}"]
    if report.lines or report.bytes:
        out.append(
            f"{INDEX_NAME}: {plural(report.lines, 'line')}, {report.bytes:,} bytes — "
            f"{report.utilisation:.1%} of budget ({MAX_INDEX_LINES} lines, {MAX_INDEX_BYTES:,} bytes)"
        )
    if report.files or report.regions:
        via_region = {m for r in report.regions for m in r.matches}
        out.append(
            f"files: {len(report.files)} besides {INDEX_NAME}; {len(via_region)} covered by "
            f"{plural(len(report.regions), 'region pointer')}; {plural(len(report.orphans), 'orphan')}"
        )
    for region in report.regions:
        out.append(
            f"  region `{region.glob}` ({region.index}:{region.line}) → {plural(len(region.matches), 'file')}"
        )
    out.extend(f"error: {message}" for message in report.errors)
    out.extend(f"warning: {message}" for message in report.warnings)
    if report.pressure_sample is not None:
        sample = report.pressure_sample
        out.append(
            f"pressure sample recorded in {PRESSURE_FILE}: {json.dumps(sample, sort_keys=True)}"
        )
    out.append("ok" if report.ok else f"FAILED: {plural(len(report.errors), 'error')}")
    return "\n".join(out)
