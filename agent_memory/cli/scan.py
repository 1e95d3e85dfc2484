"""`git memory scan [--staged] [PATH…]`: the commit guard. Refuses memory content that carries a
secret, personal data, a back-pointer with a path prefix or a home-directory path (spec §6).
Installed as the pre-commit hook by `git memory init` (it scans the staged memory files only)
and shipped as a pre-commit framework hook in `.pre-commit-hooks.yaml`.

`--staged` judges a commit on what it adds: the rendered blocks (`CLAUDE.memory.md`, the marker
blocks of `CLAUDE.md`) are scanned whole, since they are re-rendered on every change and a
forgotten line leaves them; `.memory/adopted.log` is an append-only audit trail, so only the
lines the commit adds to it are scanned. Otherwise one line that ever got in (a redaction gap,
a `--no-verify`) would refuse every later commit of the log, the `forget` that removes it
included. Explicit PATHs (the pre-commit framework entry) are scanned whole."""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from agent_memory.cli.output import emit_json, wants_json
from agent_memory.committed.render import MalformedBlockError, find_block
from agent_memory.gitio import repo as git
from agent_memory.model.errors import EXIT_REFUSED, UsageError
from agent_memory.redact import guard

MEMORY_NAMES = ("CLAUDE.memory.md", "CLAUDE.md", "adopted.log")


def is_memory_file(path: str) -> bool:
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if name == "adopted.log":
        return path.replace("\\", "/").endswith(".memory/adopted.log")
    return name in ("CLAUDE.memory.md", "CLAUDE.md")


def memory_part(path: str, text: str) -> str:
    """CLAUDE.md is a person's file: only our marker blocks in it are memory content. Lines
    outside are blanked (not removed) so reported line numbers stay true."""
    if not path.replace("\\", "/").endswith("CLAUDE.md") or path.endswith("CLAUDE.memory.md"):
        return text

    keep = [False] * len(text)
    for tier in ("L2", "L3"):
        try:
            span = find_block(text, tier)
        except MalformedBlockError:
            return text
        if span:
            keep[span[0] : span[1]] = [True] * (span[1] - span[0])
    return "".join(ch if keep[i] or ch == "\n" else " " for i, ch in enumerate(text))


def is_audit_log(path: str) -> bool:
    return path.replace("\\", "/").endswith(".memory/adopted.log")


@dataclass(frozen=True)
class ScanTarget:
    path: str
    text: str  # what the guard reads; lines it must not judge are blanked, never removed
    added_only: bool = False  # only the lines this commit adds are in `text`


# `@@ -a[,b] +c[,d] @@`: b lines removed at a, d lines added from line c (a count defaults to 1).
_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def added_lines(diff: str) -> dict[int, str] | None:
    """Line number (in the new file) → text of every line a `git diff -U0` adds. None when the
    output does not add up line for line (counts that disagree with the hunk headers, e.g. a
    lone CR that text decoding split): the caller then scans the whole file, never less."""
    lines = diff.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    pos = next((i for i, ln in enumerate(lines) if ln.startswith("@@ ")), len(lines))
    added: dict[int, str] = {}
    while pos < len(lines):
        header = _HUNK.match(lines[pos])
        if not header:
            return None
        removed_n = int(header[1]) if header[1] is not None else 1
        number = int(header[2])
        added_n = int(header[3]) if header[3] is not None else 1
        pos += 1
        removed = plus = 0
        while pos < len(lines) and not lines[pos].startswith("@@ "):
            body = lines[pos]
            if body.startswith("-") and not plus:
                removed += 1
            elif body.startswith("+"):
                added[number + plus] = body[1:]
                plus += 1
            elif not body.startswith("\\"):  # "\ No newline at end of file"
                return None
            pos += 1
        if (removed, plus) != (removed_n, added_n):
            return None
    return added


def only_added(added: dict[int, str]) -> str:
    """The added lines at their own line numbers, every other line blank (so `path:line` in a
    finding is the line of the staged file)."""
    if not added:
        return ""
    lines = [""] * max(added)
    for number, text in added.items():
        lines[number - 1] = text
    return "\n".join(lines) + "\n"


def staged_memory_files() -> list[ScanTarget]:

    repo = git.find_repo()
    proc = git.run_git(
        repo.cwd, "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMR", keep_hook_env=True
    )
    out = []
    for path in filter(None, proc.stdout.split("\0")):
        if not is_memory_file(path):
            continue
        if is_audit_log(path):
            # Plain, exact hunks whatever the user's diff config: no colour, no external diff
            # or textconv, no merged neighbouring hunks, and a binary-looking file still diffed.
            diff = git.run_git(
                repo.cwd,
                "diff",
                "--cached",
                "-U0",
                "--inter-hunk-context=0",
                "--no-color",
                "--no-ext-diff",
                "--no-textconv",
                "--text",
                "--",
                path,
                keep_hook_env=True,
            )
            added = added_lines(diff.stdout)
            if added is not None:
                out.append(ScanTarget(path, only_added(added), added_only=True))
                continue
        blob = git.run_git(repo.cwd, "show", f":{path}", check=False, keep_hook_env=True)
        if blob.returncode == 0:
            out.append(ScanTarget(path, memory_part(path, blob.stdout)))
    return out


def explicit_files(paths: list[str]) -> list[ScanTarget]:
    targets = []
    for raw in paths:
        try:
            text = Path(raw).read_text("utf-8", errors="replace")
        except OSError as exc:
            raise UsageError(
                f"cannot read {raw}: {exc.strerror}", hint="pass existing files"
            ) from exc
        targets.append(ScanTarget(raw, memory_part(raw, text)))
    return targets


def refusal_hints(findings: list[guard.GuardFinding], added_only: set[str]) -> list[str]:
    """What to do, per kind of file. Never "forget the atom" for a log line the commit adds:
    a forget appends a line itself, and only a line that is new can be the problem."""
    hints = []
    new_lines: dict[str, list[int]] = {}
    for f in findings:
        if f.path in added_only:
            new_lines.setdefault(f.path, []).append(f.line)
    for path, numbers in new_lines.items():
        unique = sorted(set(numbers))
        where = ("line " if len(unique) == 1 else "lines ") + ", ".join(map(str, unique))
        verb = "is" if len(unique) == 1 else "are"
        hints.append(
            f"{path} {where} {verb} added by this commit (older lines of the append-only log are "
            "not checked again): drop or restate that line, then re-stage; "
            f"`git memory redact --each-line < {path}` shows what would be removed"
        )
    if any(f.path not in added_only and not is_audit_log(f.path) for f in findings):
        hints.append(
            "the memory block is rendered from .memory/adopted.log: remove the item with "
            "`git memory forget ID` (`git memory inspect --why 'TEXT'` finds the ID), or restate it "
            "without them, then re-stage; `git memory redact < FILE` shows what would be removed"
        )
    whole_logs = sorted(
        {f.path for f in findings if f.path not in added_only and is_audit_log(f.path)}
    )
    for path in whole_logs:
        hints.append(
            f"the whole of {path} was checked: restate or drop a line that is not committed yet; a line "
            "already committed stays in git history, and the hook `git memory init` installs "
            "(`git memory scan --staged`) checks only the lines each commit adds to the log"
        )
    return hints


def run(args: argparse.Namespace) -> int:
    if args.staged:
        targets = staged_memory_files()
    else:
        if not args.paths:
            raise UsageError(
                "nothing to scan", hint="pass memory files, or --staged to scan what is staged"
            )
        targets = explicit_files(args.paths)
    findings = []
    for target in targets:
        findings += guard.scan_text(target.path, target.text)
    added_only = {t.path for t in targets if t.added_only}
    if wants_json(args):
        emit_json(
            {
                "ok": not findings,
                "findings": [
                    {
                        "path": f.path,
                        "line": f.line,
                        "rule": f.rule,
                        "scope": "added" if f.path in added_only else "file",
                    }
                    for f in findings
                ],
            }
        )
    else:
        for finding in findings:
            print(guard.format_finding(finding))
        if findings:
            print(
                f"agent-memory guard: {len(findings)} finding(s) in memory files; nothing was committed.",
                file=sys.stderr,
            )
            for hint in refusal_hints(findings, added_only):
                print(f"hint: {hint}", file=sys.stderr)
    return EXIT_REFUSED if findings else 0
