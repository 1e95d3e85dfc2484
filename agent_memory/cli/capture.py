"""`git memory capture --transcript PATH | --all [--since DATE]`: L0 → L1, one commit per
transcript on memory/atoms; then L1 caps/expiry, and staging when something became eligible
(`memory.autoStage`, default on)."""

from __future__ import annotations

import argparse
import datetime as _dt
import sys
from pathlib import Path

from agent_memory.cli.output import emit_json, project_of, store_here, wants_json
from agent_memory.gitio import repo as git
from agent_memory.model.errors import UsageError
from agent_memory.promote.review import auto_stage
from agent_memory.store.capture import capture_transcript, enforce_limits
from agent_memory.store.l1 import L1Store
from agent_memory.transcripts.reader import find_transcripts


def run(args: argparse.Namespace) -> int:
    if args.since and not args.all:
        raise UsageError("--since only applies to --all", hint="git memory capture --all --since YYYY-MM-DD")
    if args.session and args.all:
        raise UsageError("--session names one transcript's session", hint="use it with --transcript PATH")
    repo, store = store_here()
    project = project_of(repo)
    if args.transcript:
        path = Path(args.transcript)
        if not path.is_file():
            raise UsageError(f"no transcript at {path}", hint="pass a Claude Code session file (~/.claude/projects/<slug>/<session>.jsonl)")
        result, skipped = capture_transcript(store, project, path, args.session)
        enforce_limits(store)
        staged, warning = ([], None) if args.no_stage or result.commit is None else auto_stage(repo, store, project)
        payload = {**result.to_json(), "skipped_lines": skipped, "staged": [a for _, a in staged]}
        if warning:
            payload["stage_warning"] = warning
        if wants_json(args):
            emit_json(payload)
        else:
            where = f"commit {result.commit[:10]}" if result.commit else "nothing new"
            print(f"captured {path.name}: {len(result.new)} new, {len(result.merged)} merged ({where})")
            if result.queued:
                print("  memory/atoms was busy: the atoms are queued and the next capture writes them")
            if staged:
                print(f"  {len(staged)} promotion(s) staged on memory/review: review with `git memory adopt`")
            if warning:
                print(f"  {warning}")
        return 0
    return _capture_all(args, repo, store, project)


def _capture_all(args: argparse.Namespace, repo: git.Repo, store: L1Store, project: str) -> int:

    since = None
    if args.since:
        try:
            since = _dt.datetime.strptime(args.since, "%Y-%m-%d").replace(tzinfo=_dt.timezone.utc)
        except ValueError as exc:
            raise UsageError(f"--since {args.since!r} is not a date", hint="use YYYY-MM-DD") from exc
    root = repo.workdir or repo.common_dir
    paths = [p for p in find_transcripts(root) if since is None or
             _dt.datetime.fromtimestamp(p.stat().st_mtime, _dt.timezone.utc) >= since]
    totals = {"transcripts": len(paths), "new": 0, "merged": 0, "commits": 0, "skipped_lines": 0, "failed": 0}
    tty = sys.stderr.isatty() and not wants_json(args)
    for number, path in enumerate(paths, start=1):
        if tty:
            width = 30
            done = int(width * number / max(len(paths), 1))
            sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {number}/{len(paths)} {path.name[:40]:<40}")
            sys.stderr.flush()
        try:
            result, skipped = capture_transcript(store, project, path)
        except Exception as exc:  # noqa: BLE001 - one bad transcript must not stop a backfill
            from agent_memory.gitio.state import log_error

            log_error(f"capture --all: {path.name}: {type(exc).__name__}: {exc}", repo.cwd)
            totals["failed"] += 1
            continue
        totals["new"] += len(result.new)
        totals["merged"] += len(result.merged)
        totals["commits"] += 1 if result.commit else 0
        totals["skipped_lines"] += skipped
    if tty:
        sys.stderr.write("\n")
    enforce_limits(store)
    staged, warning = ([], None) if args.no_stage else auto_stage(repo, store, project)
    totals["staged"] = len(staged)
    if wants_json(args):
        emit_json({**totals, **({"stage_warning": warning} if warning else {})})
    else:
        print(f"captured {totals['transcripts']} transcripts of {project}: {totals['new']} new atoms, "
              f"{totals['merged']} merged, {totals['commits']} commits"
              + (f", {totals['failed']} failed (see git memory status)" if totals["failed"] else "")
              + (f"; {len(staged)} promotion(s) staged" if staged else ""))
        if warning:
            print(f"  {warning}")
    return 0
