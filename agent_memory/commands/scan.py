"""`git memory scan [--staged] [PATH…]`: the commit guard. Refuses memory content that carries a
secret, personal data, a back-pointer with a path prefix or a home-directory path (spec §6).
Installed as the pre-commit hook by `git memory init` (it scans the staged memory files only)
and shipped as a pre-commit framework hook in `.pre-commit-hooks.yaml`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agent_memory import guard
from agent_memory.commands.common import emit_json, wants_json
from agent_memory.errors import EXIT_REFUSED, UsageError

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
    from agent_memory.render import MalformedBlockError, find_block

    keep = [False] * len(text)
    for tier in ("L2", "L3"):
        try:
            span = find_block(text, tier)
        except MalformedBlockError:
            return text
        if span:
            keep[span[0]:span[1]] = [True] * (span[1] - span[0])
    return "".join(ch if keep[i] or ch == "\n" else " " for i, ch in enumerate(text))


def staged_memory_files() -> list[tuple[str, str]]:
    from agent_memory import git

    repo = git.find_repo()
    proc = git.run_git(repo.cwd, "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMR", keep_hook_env=True)
    out = []
    for path in filter(None, proc.stdout.split("\0")):
        if not is_memory_file(path):
            continue
        blob = git.run_git(repo.cwd, "show", f":{path}", check=False, keep_hook_env=True)
        if blob.returncode == 0:
            out.append((path, blob.stdout))
    return out


def run(args: argparse.Namespace) -> int:
    if args.staged:
        targets = staged_memory_files()
    else:
        if not args.paths:
            raise UsageError("nothing to scan", hint="pass memory files, or --staged to scan what is staged")
        targets = []
        for raw in args.paths:
            try:
                targets.append((raw, Path(raw).read_text("utf-8", errors="replace")))
            except OSError as exc:
                raise UsageError(f"cannot read {raw}: {exc.strerror}", hint="pass existing files") from exc
    findings = []
    for name, text in targets:
        findings += guard.scan_text(name, memory_part(name, text))
    if wants_json(args):
        emit_json({"ok": not findings, "findings": [{"path": f.path, "line": f.line, "rule": f.rule} for f in findings]})
    else:
        for finding in findings:
            print(guard.format_finding(finding))
        if findings:
            print(f"agent-memory guard: {len(findings)} finding(s) in memory files; nothing was committed.", file=sys.stderr)
            print("hint: memory files must not carry secrets, personal data or machine paths: forget the atom "
                  "(git memory forget ID) or restate it without them, then re-stage; "
                  "`git memory redact < FILE` shows what would be removed", file=sys.stderr)
    return EXIT_REFUSED if findings else 0
