"""`git memory capture TRANSCRIPT | --transcript PATH | --all [--since DATE]`: L0 → L1, one
commit per transcript on memory/atoms; then L1 caps/expiry, and staging when something became
eligible (`memory.autoStage`, default on).

Honest about what it did not do: an unreadable transcript is bad input (exit 2, as `extract`);
a transcript recorded in another repository is refused with whose it is; a backfill counts
unreadable files and skipped lines apart from what it captured, and says how many atoms it
dropped at once because their last sighting is past the L1 expiry (model/policy.py)."""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_memory.cli import colour
from agent_memory.cli.extract import default_project
from agent_memory.cli.output import (
    emit_json,
    flag_or_positional,
    project_of,
    store_here,
    wants_json,
)
from agent_memory.extract.pipeline import extract_transcript
from agent_memory.gitio import repo as git
from agent_memory.model.errors import RefusedError, UsageError
from agent_memory.model.policy import L1_CAP, L1_MAX_AGE_DAYS
from agent_memory.model.trailers import plural
from agent_memory.promote.review import auto_stage
from agent_memory.store.capture import CaptureResult, capture_extracted, enforce_limits
from agent_memory.store.l1 import L1Store
from agent_memory.transcripts.reader import (
    find_transcripts,
    is_under,
    recorded_cwd,
    repository_roots,
)

HINT = "pass a Claude Code session file: git memory capture ~/.claude/projects/<slug>/<session>.jsonl"


class Unreadable(Exception):
    """Nothing of the transcript could be read: the file, or every line of it."""


@dataclass
class Captured:
    result: CaptureResult
    skipped_lines: int
    records: int


@dataclass
class Dropped:
    expired: list[str] = field(default_factory=list)
    evicted: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"expired": self.expired, "evicted": self.evicted}


def capture_one(store: L1Store, project: str, path: Path, session: str | None = None) -> Captured:
    """Extract one transcript and merge its atoms in (store/capture.py does the merge)."""
    try:
        extracted = extract_transcript(path, project, session=session)
    except OSError as exc:
        raise Unreadable(f"cannot read {path}: {exc.strerror or exc}") from exc
    if extracted.stats.records == 0:
        what = (f"none of its {extracted.stats.lines} lines is a readable record" if extracted.stats.lines
                else "it is empty")
        raise Unreadable(f"nothing readable in {path}: {what}")
    result = capture_extracted(store, extracted, path, session)
    return Captured(result, extracted.skipped_lines, extracted.stats.records)


def _whose(path: Path, repo: git.Repo) -> str | None:
    """Where the transcript was recorded, when that is not this repository (None: ours, or
    it does not say)."""
    cwd = recorded_cwd(path)
    if not cwd or repo.workdir is None:
        return None
    roots = repository_roots(repo.workdir)

    if is_under(cwd, roots):
        return None

    name = default_project(path, None, cwd=cwd if Path(cwd).is_dir() else "/")
    return f"{cwd} (project {name})"


def _limits(store: L1Store) -> Dropped:
    """Expiry and the cap, reported: which atoms the limits dropped in this run."""
    dropped = Dropped()
    commit = enforce_limits(store)
    if commit:
        for line in git.commit_message(store.repo, commit).splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "-":
                (dropped.expired if parts[2] == "expired:" else dropped.evicted).append(parts[1])
    return dropped


def _explain_dropped(dropped: Dropped, expired_on_arrival: int) -> list[str]:
    lines = []
    expired = len(dropped.expired) + expired_on_arrival
    if expired:
        lines.append(f"  {plural(expired, 'atom')} not kept: last seen more than {L1_MAX_AGE_DAYS} days ago "
                     f"(the L1 expiry; a claim said again in a new session comes back)")
    if dropped.evicted:
        lines.append(f"  {plural(len(dropped.evicted), 'atom')} evicted: memory/atoms holds at most {L1_CAP}, "
                     "the oldest last sighting goes first")
    return lines


def run(args: argparse.Namespace) -> int:
    transcript = flag_or_positional(args, "transcript", "transcript_pos", HINT, required=False)
    if transcript and args.all:
        raise UsageError("give a transcript or --all, not both", hint=HINT)
    if not transcript and not args.all:
        raise UsageError("which transcript?", hint=HINT + ", or --all for every transcript of this project")
    if args.since and not args.all:
        raise UsageError("--since only applies to --all", hint="git memory capture --all --since YYYY-MM-DD")
    if args.session and args.all:
        raise UsageError("--session names one transcript's session", hint="use it with a transcript: git memory capture FILE --session ID")
    repo, store = store_here()
    project = project_of(repo)
    if transcript:
        return _capture_file(args, repo, store, project, Path(transcript).expanduser())
    return _capture_all(args, repo, store, project)


def _capture_file(args: argparse.Namespace, repo: git.Repo, store: L1Store, project: str, path: Path) -> int:
    if path.is_dir():
        raise UsageError(f"{path} is a directory, not a transcript", hint=HINT)
    if not path.exists():
        raise UsageError(f"no transcript at {path}", hint=HINT)
    whose = _whose(path, repo)
    if whose and not args.force:
        raise RefusedError(
            f"{path.name} is a transcript of {whose}, not of this repository ({project}): nothing captured",
            hint=f"capture it in its own repository (git -C <that repository> memory capture {path}), "
                 "or pass --force to learn from it here")
    try:
        captured = capture_one(store, project, path, args.session)
    except Unreadable as exc:
        raise UsageError(str(exc), hint="is this a Claude Code transcript (JSON lines)?") from exc
    result = captured.result
    dropped = _limits(store)
    staged, warning = ([], None) if args.no_stage or result.commit is None else auto_stage(repo, store, project)
    payload = {**result.to_json(), "skipped_lines": captured.skipped_lines, "staged": [a for _, a in staged],
               "dropped": dropped.to_json()}
    if warning:
        payload["stage_warning"] = warning
    if wants_json(args):
        emit_json(payload)
        return 0
    where = f"commit {result.commit[:10]}" if result.commit else "nothing new"
    print(f"captured {path.name}: {len(result.new)} new, {len(result.merged)} merged ({where})")
    if whose:
        print(f"  note: recorded in {whose}; learned here because of --force")
    if captured.skipped_lines:
        print(f"  {plural(captured.skipped_lines, 'unreadable line')} skipped")
    if result.forgotten:
        print(f"  {plural(len(result.forgotten), 'forgotten claim')} not re-learned (undo with `git memory forget --undo ID`)")
    for line in _explain_dropped(dropped, len(result.expired_on_arrival)):
        print(line)
    if result.queued:
        print("  memory/atoms was busy: the atoms are queued and the next capture writes them")
    if staged:
        print(f"  {len(staged)} promotion(s) staged on memory/review: review with `git memory adopt`")
    if warning:
        print(f"  {warning}")
    return 0


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
    totals: dict[str, Any] = {"transcripts": len(paths), "captured": 0, "new": 0, "merged": 0, "commits": 0,
                              "skipped_lines": 0, "failed": 0, "unreadable": [], "expired": 0}
    tty = sys.stderr.isatty() and not wants_json(args)
    for number, path in enumerate(paths, start=1):
        if tty:
            width = 30
            done = int(width * number / max(len(paths), 1))
            sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {number}/{len(paths)} {path.name[:40]:<40}")
            sys.stderr.flush()
        try:
            captured = capture_one(store, project, path)
        except Unreadable as exc:
            totals["unreadable"].append({"path": os.fspath(path), "reason": str(exc)})
            continue
        except Exception as exc:  # noqa: BLE001 - one bad transcript must not stop a backfill
            from agent_memory.gitio.state import log_error

            log_error(f"capture --all: {path.name}: {type(exc).__name__}: {exc}", repo.cwd)
            totals["failed"] += 1
            continue
        result = captured.result
        totals["captured"] += 1
        totals["new"] += len(result.new)
        totals["merged"] += len(result.merged)
        totals["commits"] += 1 if result.commit else 0
        totals["skipped_lines"] += captured.skipped_lines
        totals["expired"] += len(result.expired_on_arrival)
    if tty:
        sys.stderr.write("\r" + " " * 80 + "\r")
    dropped = _limits(store)
    staged, warning = ([], None) if args.no_stage else auto_stage(repo, store, project)
    totals["staged"] = len(staged)
    totals["dropped"] = dropped.to_json()
    if wants_json(args):
        emit_json({**totals, **({"stage_warning": warning} if warning else {})})
        return 0
    unreadable: list[dict[str, str]] = totals["unreadable"]
    print(f"captured {totals['captured']} of {plural(totals['transcripts'], 'transcript')} of {project}: "
          f"{totals['new']} new atoms, {totals['merged']} merged, {plural(totals['commits'], 'commit')}"
          + (f"; {len(staged)} promotion(s) staged" if staged else ""))
    if totals["skipped_lines"]:
        print(f"  {plural(totals['skipped_lines'], 'unreadable line')} skipped inside the captured transcripts")
    if unreadable:
        print(colour.paint(f"  {plural(len(unreadable), 'transcript')} not captured (unreadable):", "refused"))
        for item in unreadable[:10]:
            print(f"    {item['reason']}")
        if len(unreadable) > 10:
            print(f"    … and {len(unreadable) - 10} more (--output json lists them all)")
    if totals["failed"]:
        print(colour.paint(f"  {totals['failed']} failed (see git memory status)", "refused"))
    for line in _explain_dropped(dropped, totals["expired"]):
        print(line)
    if warning:
        print(f"  {warning}")
    return 0
