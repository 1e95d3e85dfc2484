"""`git memory capture TRANSCRIPT | --transcript PATH | --all [--since DATE]`: L0 → L1, one
commit per transcript on memory/atoms; then L1 caps/expiry, and staging when something was
written and became eligible (`memory.autoStage`, default on).

Work done once: a transcript unchanged since its last capture is not read again,
one that grew is read from where that capture stopped (store/capture.capture_file, through the
ledger). So `capture --all` with nothing new reads no transcript, makes no commit, stages
nothing and costs a stat per transcript; this module imports what reads transcripts, git
objects and the review branch only when there is something to read.

Honest about what it did not do: an unreadable transcript is bad input (exit 2, as `extract`;
under `--all` after capturing the rest, every run until it changes or goes); a transcript
recorded in another repository is refused with whose it is; a backfill counts skipped lines
apart from what it captured, and says how many atoms it did not keep because their last
sighting is past the L1 expiry (model/policy.py), or dropped for the cap."""

from __future__ import annotations

import os
import shlex
import sys

from agent_memory.cli.report import Report
from agent_memory.model.errors import (
    EXIT_REPO_STATE,
    EXIT_USAGE,
    CorruptObjectError,
    DiskFullError,
    NotAStoreError,
    RefusedError,
    RepoStateError,
    UsageError,
    disk_full,
    from_object_store,
)
from agent_memory.model.home import git_in
from agent_memory.model.policy import L1_CAP, L1_MAX_AGE_DAYS
from agent_memory.model.words import plural

# A run with nothing new imports only `os` and modules of ours that import nothing more (no
# pathlib, re, json, dataclasses, typing): what it does costs less than those imports would.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from pathlib import Path
    from typing import Any

    from agent_memory.gitio.repo import Repo
    from agent_memory.store.capture import CaptureResult, TranscriptCapture
    from agent_memory.store.l1 import L1Store
    from agent_memory.transcripts.ledger import Ledger

HINT = "pass a Claude Code session file: git memory capture ~/.claude/projects/<slug>/<session>.jsonl"
UNREADABLE_HINT = "is this a Claude Code transcript (JSON lines)?"


class Dropped:
    """The atoms the limits dropped from the store in this run."""

    def __init__(self) -> None:
        self.expired: list[str] = []
        self.evicted: list[str] = []

    def to_json(self) -> dict[str, Any]:
        return {"expired": self.expired, "evicted": self.evicted}


def quick_all(argv: list[str]) -> int | None:
    """`git memory capture --all [--no-stage] [--since DAY] [--output json|text]` when nothing
    changed since the last capture, before argparse is imported: argparse and its first parser
    cost a re-run as much as everything else it does (a stat per transcript, the ledger). None
    when the command line says anything else or there is something to read: main parses it."""
    import types

    options = {"all": False, "no_stage": False, "since": None, "output": "text"}
    words = iter(argv)
    for word in words:
        name, _, value = word.partition("=")
        if name in ("--since", "--output"):
            value = value or next(words, "")
            if not value or (name == "--output" and value not in ("json", "text")):
                return None
            options[name[2:]] = value
        elif word in ("--all", "--no-stage") and not value:
            options[word[2:].replace("-", "_")] = True
        elif word == "--no-color":
            from agent_memory.cli import colour

            colour.disable()
        else:
            return None  # -h, a transcript, a typo …: argparse says what it means
    args = types.SimpleNamespace(**options)
    if not args.all:
        return None
    try:
        since = _since(args)  # type: ignore[arg-type]
    except UsageError:
        return None  # said by the full path, with its hint
    done = _nothing_new(args, since)  # type: ignore[arg-type]
    if done is None:
        return None
    from agent_memory.cli.report import emit

    return emit(done, args.output)


def run(args: argparse.Namespace) -> Report:
    transcript = None
    if getattr(args, "transcript", None) or getattr(args, "transcript_pos", None):
        from agent_memory.cli.output import flag_or_positional

        transcript = flag_or_positional(args, "transcript", "transcript_pos", HINT, required=False)
    if transcript and args.all:
        raise UsageError("give a transcript or --all, not both", hint=HINT)
    if args.since and not args.all:  # before "which transcript?": `capture --since DAY` means --all
        import re  # not at the top: the nothing-new path imports no `re` (above)

        day = args.since if re.fullmatch(r"\d{4}-\d{2}-\d{2}", args.since) else "YYYY-MM-DD"
        raise UsageError("--since only applies to --all", hint=f"git memory capture --all --since {day}")
    if not transcript and not args.all:
        raise UsageError("which transcript?", hint=HINT + ", or --all for every transcript of this project")
    if args.session and args.all:
        raise UsageError("--session names one transcript's session", hint="use it with a transcript: git memory capture FILE --session ID")
    since = _since(args)
    if args.all:
        done = _nothing_new(args, since)
        if done is not None:
            return done
    from agent_memory.gitio import repo as git

    repo = git.find_repo()
    _require_store(repo)
    project = git.project_of(repo)
    if transcript:
        from pathlib import Path

        return _capture_file(args, repo, project, Path(transcript).expanduser())
    return _capture_all(args, repo, project, since)


def _require_store(repo: Repo) -> None:
    """memory/atoms exists and names a store commit (a branch moved onto the project's history
    is refused here, even when no transcript is new: `L1Store.tip`)."""
    from agent_memory.store.l1 import L1Store

    L1Store(repo).require()


def _whose(path: Path, repo: Repo) -> tuple[str, str] | None:
    """(what to call it, where it belongs) when the transcript was recorded in another
    repository — outside this one, or in one nested inside it such as a submodule — (None:
    ours, or it does not say)."""
    from agent_memory.cli.extract import default_project
    from agent_memory.transcripts.owner import recorded_elsewhere
    from agent_memory.transcripts.reader import recorded_cwd

    other = recorded_elsewhere(path, repo)
    if other is None:
        return None
    cwd = recorded_cwd(path) or other
    name = default_project(path, None, cwd=other if os.path.isdir(other) else "/")
    return f"{cwd} (project {name})", other


def _limits(store: L1Store) -> Dropped:
    """Expiry and the cap, reported: which atoms the limits dropped in this run."""
    from agent_memory.gitio import repo as git
    from agent_memory.store.capture import enforce_limits

    dropped = Dropped()
    commit = enforce_limits(store)
    if commit:
        for line in git.commit_message(store.repo, commit).splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "-":
                (dropped.expired if parts[2] == "expired:" else dropped.evicted).append(parts[1])
    return dropped


def _stage(repo: Repo, store: L1Store, project: str) -> tuple[list[str], str | None]:
    """Stage what became eligible: (the atoms newly staged on memory/review, a warning)."""
    from agent_memory.promote.review import auto_stage, review_items

    before = {atom for _, atom, _ in review_items(repo)}
    staged, warning = auto_stage(repo, store, project)
    return [atom for _, atom in staged if atom not in before], warning


def _explain_dropped(dropped: Dropped, expired_on_arrival: int, evicted_before: int) -> list[str]:
    lines = []
    expired = len(dropped.expired) + expired_on_arrival
    if expired:
        lines.append(f"  {plural(expired, 'atom')} not kept: last seen more than {L1_MAX_AGE_DAYS} days ago "
                     f"(the L1 expiry; a claim said again in a new session comes back)")
    if dropped.evicted:
        lines.append(f"  {plural(len(dropped.evicted), 'atom')} evicted: memory/atoms holds at most {L1_CAP}, "
                     "the oldest last sighting goes first")
    if evicted_before:
        lines.append(f"  {plural(evicted_before, 'atom')} not brought back: evicted over the {L1_CAP}-atom cap "
                     "after a sighting as recent (a claim said again in a new session comes back)")
    return lines


def _staged_line(staged: list[str]) -> str:
    return f"  {plural(len(staged), 'promotion')} staged on memory/review: review with `git memory adopt`"


# --- one transcript ------------------------------------------------------------------------------


def _capture_file(args: argparse.Namespace, repo: Repo, project: str, path: Path) -> Report:
    from agent_memory.store.l1 import L1Store

    whose = _transcript_here(args, repo, project, path)
    if args.session:
        _check_session(path, args.session)
    store = L1Store(repo)
    done = _read_transcript(store, project, path, args.session)
    if done.unreadable:
        raise UsageError(f"nothing readable in {path}: {done.unreadable}", hint=UNREADABLE_HINT)
    result = done.result
    try:
        dropped = _limits(store) if done.read != "unchanged" else Dropped()
        staged, warning = ([], None) if args.no_stage or result.commit is None else _stage(repo, store, project)
    except Exception as exc:
        if not disk_full(exc):
            raise
        raise DiskFullError(f"no space left on device: {path.name} was captured "
                            f"({'commit ' + result.commit[:10] if result.commit else 'nothing new'}), but the "
                            "L1 limits and staging were not applied") from exc  # fmt: skip
    payload = {**result.to_json(), "read": done.read, "skipped_lines": done.skipped_lines, "staged": staged,
               "dropped": dropped.to_json()}
    if warning:
        payload["stage_warning"] = warning
    if done.failed_statements:
        payload["failed_statements"] = done.failed_statements
    out = Report(payload)
    for failed in done.failed_statements:
        out.warn(f"skipped a statement the extractor failed on ({failed}); the rest was captured, "
                 "and the next capture reads it again")  # fmt: skip
    if done.read == "unchanged":
        return out.say(f"captured {path.name}: nothing new (unchanged since its last capture)")
    _say_file_captured(out, path, done, whose, dropped, staged, warning)
    return out


def _transcript_here(args: argparse.Namespace, repo: Repo, project: str, path: Path) -> str | None:
    """Refuse what is not a transcript, or is another repository's without --force; the
    project it is recorded in when --force learns it here anyway."""
    if path.is_dir():
        raise UsageError(f"{path} is a directory, not a transcript", hint=HINT)
    if not path.exists():
        raise UsageError(f"no transcript at {path}", hint=HINT)
    found = _whose(path, repo)
    if found and not args.force:
        there = git_in(found[1]) if os.path.isdir(found[1]) else "git -C <that repository>"
        raise RefusedError(
            f"{path.name} is a transcript of {found[0]}, not of this repository ({project}): nothing captured",
            hint=f"capture it in its own repository ({there} memory capture {shlex.quote(str(path))}), "
                 "or pass --force to learn from it here")
    return found[0] if found else None


def _read_transcript(store: L1Store, project: str, path: Path, session: str | None) -> TranscriptCapture:
    """Capture one transcript; a full disk says whether the capture itself landed, an
    unreadable file is the user's to fix (not a crash)."""
    from agent_memory.store.capture import capture_file

    tip = store.tip()
    try:
        return capture_file(store, project, path, session)
    except Exception as exc:
        if disk_full(exc):  # say it, and whether the capture itself landed
            landed = store.tip()
            what = (f"nothing was captured from {path.name} (memory/atoms is unchanged)" if landed == tip
                    else f"{path.name} was captured (memory/atoms at {str(landed)[:10]}), but not noted as done")  # fmt: skip
            raise DiskFullError(f"no space left on device: {what}") from exc
        if isinstance(exc, OSError):
            raise UsageError(f"cannot read {path}: {exc.strerror or exc}", hint=UNREADABLE_HINT) from exc
        raise


def _say_file_captured(out: Report, path: Path, done: TranscriptCapture, whose: str | None, dropped: Dropped,
                       staged: list[str], warning: str | None) -> None:  # fmt: skip
    """What one capture added (or queued), and what the limits and staging did after it."""
    result = done.result
    # Queued (memory/atoms was busy): counted, not written yet — never "nothing new".
    where = f"commit {result.commit[:10]}" if result.commit else "queued" if result.queued else "nothing new"
    since = " since its last capture" if done.read == "resumed" else ""
    held = f", {len(result.pending)} pending until said again" if result.pending else ""
    out.say(f"captured {path.name}{since}: {len(result.new)} new, {len(result.merged)} merged{held} ({where})")
    if whose:
        out.say(f"  note: recorded in {whose}; learned here because of --force")
    if done.skipped_lines:
        out.say(f"  {plural(done.skipped_lines, 'unreadable line')} skipped")
    if result.forgotten:
        out.say(f"  {plural(len(result.forgotten), 'forgotten claim')} not re-learned (undo with `git memory forget --undo ID`)")
    for line in _explain_dropped(dropped, len(result.expired_on_arrival), len(result.evicted_before)):
        out.say(line)
    if result.queued:
        out.say("  memory/atoms was busy: the atoms are queued and the next capture writes them")
    if staged:
        out.say(_staged_line(staged))
    if warning:
        out.say(f"  {warning}")


def _check_session(path: Path, session: str) -> None:
    """`--session` names a transcript's session only when its records name none: one that
    contradicts them is refused (the atoms' sessions would disagree with their back-pointers,
    and the same session's lines would count as another session's). The session the file is
    named for is its own too: a resumed session's file opens with the earlier session's records."""
    from agent_memory.transcripts.identity import Transcript, safe_session

    transcript = Transcript.of(path)
    recorded, named = transcript.recorded, transcript.pointer.rpartition("/")[2].removesuffix(".jsonl")
    if recorded is not None and safe_session(session) not in (recorded, named):
        raise UsageError(f"{path.name} is a transcript of session {recorded}, not {session}: nothing captured",
                         hint=f"drop --session (its records name the session): git memory capture {path}")


# --- every transcript of the project -------------------------------------------------------------


class Backfill:
    """What `capture --all` did (its JSON report)."""

    def __init__(self) -> None:
        self.transcripts = 0  # listed (after --since), this repository's
        self.other_repositories = 0  # listed under this project's slug, recorded in another repository
        self.captured = 0  # read and captured in this run
        self.unchanged = 0  # not read: unchanged since their last capture
        self.resumed = 0  # of `captured`: read from where their last capture stopped
        self.new = self.merged = self.commits = self.skipped_lines = self.failed = 0
        self._pending: set[str] = set()  # still pending: said once, held by the gate until it recurs
        self._fresh: set[str] = set()  # pending records this run wrote first
        self.unreadable: list[dict[str, str]] = []
        self.skipped: dict[str, list[str]] = {"expired": [], "evicted": [], "forgotten": []}
        self.staged: list[str] = []
        self.dropped = Dropped()
        self.stage_warning: str | None = None
        self.auto_memory: dict[str, Any] | None = None  # Claude's own memory folder, when read
        self.failures: list[dict[str, Any]] = []  # {path, reason, logged}
        self.failed_statements: list[dict[str, str]] = []  # {path, statement}: skipped, the rest kept
        self.error: str | None = None  # what stopped the run (a full disk), with `not_captured` left
        self.not_captured = 0
        self.folder: str | None = None  # this project's transcript folder, for "no session yet"
        self.since: str | None = None  # --since, as given

    def add(self, result: CaptureResult) -> None:
        self.new += len(result.new)
        # A claim first stored as pending by an earlier transcript of this run and said again in
        # a later one became an atom here: new to the store, no longer pending. (One whose
        # record existed before the run is merged, as a single capture reports it.)
        lifted = [i for i in result.merged if i in self._fresh]
        self.new += len(lifted)
        self.merged += len(result.merged) - len(lifted)
        self._pending.difference_update(result.merged)
        self._pending.update(result.pending)
        self._fresh.update(result.pending_new)
        self.commits += 1 if result.commit else 0
        # An atom seen in several transcripts is skipped by each of them: each id once.
        for why, ids in (("expired", result.expired_on_arrival), ("evicted", result.evicted_before),
                         ("forgotten", result.forgotten)):  # fmt: skip
            listed = set(self.skipped[why])
            self.skipped[why] += [i for i in dict.fromkeys(ids) if i not in listed]

    @property
    def pending(self) -> int:
        return len(self._pending)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "transcripts": self.transcripts, "other_repositories": self.other_repositories,
            "captured": self.captured, "unchanged": self.unchanged,
            "resumed": self.resumed, "new": self.new, "merged": self.merged, "pending": self.pending,
            "commits": self.commits,
            "skipped_lines": self.skipped_lines, "failed": self.failed, "unreadable": self.unreadable,
            "skipped": self.skipped, "staged": len(self.staged), "dropped": self.dropped.to_json(),
        }  # fmt: skip
        if self.stage_warning:
            out["stage_warning"] = self.stage_warning
        if self.auto_memory is not None:
            out["auto_memory"] = self.auto_memory
        if self.failures:
            out["failures"] = self.failures
        if self.failed_statements:
            out["failed_statements"] = self.failed_statements
        if self.error:
            out["error"], out["not_captured"] = self.error, self.not_captured
        return out


def _since(args: argparse.Namespace) -> float | None:
    if not args.since:
        return None
    import datetime as _dt

    try:
        day = _dt.datetime.strptime(args.since, "%Y-%m-%d").replace(tzinfo=_dt.UTC)
    except ValueError as exc:
        raise UsageError(f"--since {args.since!r} is not a date", hint="use YYYY-MM-DD") from exc
    return day.timestamp()


def _require_listable_projects() -> None:
    """Claude Code's projects folder, when it exists, can be listed. Absent (no session on this
    machine yet) is nothing to capture; a file, or a folder this user may not read, made every
    `capture --all` say "nothing new: 0 transcripts" while no session was ever captured."""
    from agent_memory.model.home import claude_projects_dir

    base = claude_projects_dir()
    try:
        with os.scandir(base):
            pass
    except FileNotFoundError:
        return
    except OSError as exc:
        raise RepoStateError(
            f"cannot list Claude Code's sessions in {base}: {exc.strerror or exc}; nothing was captured",
            hint="Claude Code keeps them in ~/.claude/projects (CLAUDE_CONFIG_DIR=DIR moves it to DIR/projects): "
                 "make it a folder you can read, or point CLAUDE_CONFIG_DIR at the right one") from None


def _survey(root: str | os.PathLike[str], common: str | os.PathLike[str], since: float | None
            ) -> tuple[Backfill, list[str], Ledger]:  # fmt: skip
    """This project's transcripts (modified on or after `since`) against the ledger: the
    report so far (listed, unchanged, known unreadable) and the transcripts to read."""
    from agent_memory.model.home import claude_projects_dir, slug_for
    from agent_memory.transcripts.files import transcript_files
    from agent_memory.transcripts.ledger import TRANSCRIPT, Ledger, stat_signature, transcript_key

    _require_listable_projects()
    ledger = Ledger(common)
    report = Backfill()
    report.folder = os.path.join(claude_projects_dir(), slug_for(root))
    todo: list[str] = []
    ended: dict[str, int] = {}
    for path, st in transcript_files(root):  # absolute paths: the ledger's keys
        if since is not None and st.st_mtime < since:
            continue
        report.transcripts += 1
        # keyed as capture_file keys it, however the transcript was named there
        seen = ledger.seen(TRANSCRIPT, transcript_key(path), stat_signature(st))
        if seen is None:
            todo.append(path)
            ended[path] = st.st_mtime_ns
        elif seen:
            report.unreadable.append({"path": path, "reason": f"nothing readable in {path}: {seen}"})
        else:
            report.unchanged += 1
    if todo:
        # A slug folder is shared by paths that differ only in punctuation, and a submodule's
        # sessions sit under the superproject's slug: what would be read counts by its
        # recorded cwd. Read from its head only, and only when
        # something is to be read: a run with nothing new stays a stat per transcript.
        from agent_memory.transcripts.owner import Owner

        owner = Owner(root)
        ours = [path for path in todo if owner.owns(path)]
        report.other_repositories = len(todo) - len(ours)
        report.transcripts -= report.other_repositories
        # In the order their sessions ended (last written), as their SessionEnd captures ran:
        # a forked session's file opens with copies of the earlier session's lines, which
        # count as that earlier session's once it is captured (store.capture.copied_from).
        todo = sorted(ours, key=lambda path: (ended[path], path))
    return report, todo, ledger


def _queue_waiting(common: str | os.PathLike[str]) -> bool:
    """Atoms a capture queued when memory/atoms was busy (L1Store.queue_dir): the next write
    takes them, so a run with no new transcript still writes when some wait."""
    from agent_memory.gitio.refs import STATE_DIRNAME

    try:
        return any(name.endswith(".json") for name in os.listdir(os.path.join(common, STATE_DIRNAME, "queue")))
    except OSError:
        return False


def _nothing_new(args: argparse.Namespace, since: float | None) -> Report | None:
    """`capture --all` when no transcript changed since its capture: the report, from a stat
    of each transcript and the ledger, without git, the store or the extraction (None: there
    is something to read, or the repository needs the full checks)."""
    from agent_memory.gitio.refs import ATOMS_REF, STATE_DIRNAME, locate_git_dirs, read_ref
    from agent_memory.store.recall.files import index_is_stale

    found = locate_git_dirs()
    if found is None or read_ref(found[1], ATOMS_REF) is None:
        return None  # not a repository, not initialised, or refs git alone reads: said below
    _, common, work = found
    if index_is_stale(os.path.join(common, STATE_DIRNAME), common):
        # memory/atoms moved since a write of ours (every write brings the recall index to
        # its tip): the full path checks it is still a store commit before saying "nothing new".
        return None
    report, todo, ledger = _survey(work or common, common, since)
    report.since = args.since
    if todo or _queue_waiting(common) or _folder_changed(common, work or common, ledger):
        return None
    linked = _linked_folder(common, work or common)
    if linked is not None:  # never read, so never "changed": said here, or never at all
        report.auto_memory = {"folder": linked, "read": "symlink"}
    return _report(args, report, None)


def _linked_folder(common: str | os.PathLike[str], root: str | os.PathLike[str]) -> str | None:
    """Claude Code's own memory folder when it is a symlink (nothing is read through a link)."""
    from agent_memory.automemory.quick import project_folder

    folder = project_folder(common, root)
    return folder if os.path.islink(folder) else None


def _folder_changed(common: str | os.PathLike[str], root: str | os.PathLike[str], ledger: Ledger) -> bool:
    """Whether Claude Code's own memory folder changed since its last capture (a
    stat per entry of the folder, `os` only when no setting may move it)."""
    from agent_memory.automemory.quick import changed

    return changed(common, root, ledger)


def _capture_all(args: argparse.Namespace, repo: Repo, project: str, since: float | None) -> Report:
    root = repo.workdir or repo.common_dir
    report, todo, ledger = _survey(root, repo.common_dir, since)
    report.since = args.since
    if todo or _queue_waiting(repo.common_dir) or _folder_changed(repo.common_dir, root, ledger):
        from agent_memory.gitio.repo import deferred_maintenance

        # One commit per transcript, written with plumbing: git's automatic maintenance
        # runs once after the batch (as `adopt --all` does), or thousands of loose objects stay.
        with deferred_maintenance(repo.cwd):
            _read_all(args, repo, project, ledger, todo, report)
    return _report(args, report, project)


def _report(args: argparse.Namespace, report: Backfill, project: str | None) -> Report:
    out = Report(report.to_json())
    _backfill_text(out, report, project)
    out.code = _failure_exit(out, report) or _unreadable_exit(out, report)
    return out


def _read_all(args: argparse.Namespace, repo: Repo, project: str, ledger: Ledger, todo: list[str],
              report: Backfill) -> None:  # fmt: skip
    from agent_memory.gitio.repo import release_objects
    from agent_memory.gitio.state import log_error
    from agent_memory.store.capture import capture_atoms, capture_file
    from agent_memory.store.l1 import L1Store

    store = L1Store(repo)
    tty = sys.stderr.isatty() and getattr(args, "output", "text") != "json"
    for number, path in enumerate(todo, start=1):
        # Nothing of the transcript before is kept: each capture reads the few trees it
        # needs again, and the memory of a backfill does not grow with its length.
        release_objects(repo)
        if tty:
            width = 30
            done_width = int(width * number / max(len(todo), 1))
            sys.stderr.write(f"\r[{'#' * done_width}{'.' * (width - done_width)}] {number}/{len(todo)} {os.path.basename(path)[:40]:<40}")
            sys.stderr.flush()
        try:
            done = capture_file(store, project, path, ledger=ledger)
        except Exception as exc:  # noqa: BLE001 - one bad transcript must not stop a backfill
            if disk_full(exc):  # …but a full disk stops every other one too
                report.error, report.not_captured = "no space left on device", len(todo) - number + 1
                break
            if from_object_store(exc):
                raise  # writing the store failed (permissions, say): so would every other one
            if isinstance(exc, OSError):
                report.unreadable.append({"path": path, "reason": f"cannot read {path}: {exc.strerror or exc}"})
                continue
            if isinstance(exc, (CorruptObjectError, NotAStoreError)):
                raise  # every other transcript would meet the same damaged store
            reason = f"{os.path.basename(path)}: {type(exc).__name__}: {exc}"
            logged = log_error(f"capture --all: {reason}", repo.cwd)
            report.failed += 1
            report.failures.append({"path": path, "reason": reason, "logged": logged is not None})
            continue
        if done.unreadable:
            report.unreadable.append({"path": path, "reason": f"nothing readable in {path}: {done.unreadable}"})
            continue
        if done.read == "unchanged":  # captured meanwhile by another process
            report.unchanged += 1
            continue
        report.captured += 1
        report.failed_statements += [{"path": path, "statement": f} for f in done.failed_statements]
        report.resumed += done.read == "resumed"
        report.skipped_lines += done.skipped_lines
        report.add(done.result)
    if tty:
        sys.stderr.write("\r" + " " * 80 + "\r")
    if report.error:
        return  # nothing more can be written
    # After the transcripts: the sessions that wrote Claude's own memories are known by then.
    folder_wrote = _capture_folder(store, project, repo, ledger, report)
    if not todo and not folder_wrote:  # only atoms waiting in the retry queue: the next write takes them
        report.add(capture_atoms(store, [], None, None))
    report.dropped = _limits(store)
    wrote = report.commits or report.dropped.expired or report.dropped.evicted
    if wrote and not args.no_stage:
        report.staged, report.stage_warning = _stage(repo, store, project)


def _capture_folder(store: L1Store, project: str, repo: Repo, ledger: Ledger, report: Backfill) -> bool:
    """Capture Claude Code's own memory folder into the report; whether that wrote (or tried)."""
    from pathlib import Path

    from agent_memory.gitio.state import log_error
    from agent_memory.store.auto_memory import capture_auto_memory

    try:
        done = capture_auto_memory(store, project, Path(repo.workdir or repo.common_dir), ledger=ledger)
    except Exception as exc:  # noqa: BLE001 - the transcripts are captured; the folder is retried next run
        log_error(f"capture --all: Claude's own memory folder: {type(exc).__name__}: {exc}", repo.cwd)
        report.failed += 1
        return False
    if done.read == "absent":
        return False
    report.auto_memory = done.to_json()
    if done.result is None:
        return False
    report.add(done.result)
    return True


def _backfill_text(out: Report, report: Backfill, project: str | None) -> None:
    # One helper per part of the text, in this order: what was captured, what was left alone,
    # Claude's own memory, what could not be read or failed, what was dropped, what was staged.
    own = report.auto_memory or {}
    _say_captured(out, report, project, own)
    if report.skipped_lines:
        out.say(f"  {plural(report.skipped_lines, 'unreadable line')} skipped inside the captured transcripts")
    if report.other_repositories:
        out.say(f"  {plural(report.other_repositories, 'transcript')} of other repositories left alone (recorded "
              "in another repository, or in one nested here such as a submodule)")
    _say_own_memory(out, own)
    _say_not_captured(out, report)
    for line in _explain_dropped(report.dropped, len(report.skipped["expired"]), len(report.skipped["evicted"])):
        out.say(line)
    if report.staged:
        out.say(_staged_line(report.staged))
    if report.stage_warning:
        out.say(f"  {report.stage_warning}")


def _say_captured(out: Report, report: Backfill, project: str | None, own: dict[str, Any]) -> None:
    """The first line: nothing new since --since, no session yet, nothing new, or what was
    captured (with its counts)."""
    none_listed = not (report.transcripts or report.other_repositories or report.unreadable)
    # Claude's own memory is captured without a session of this project (its line is below):
    # then there was something to capture, and the first line does not say otherwise.
    learned = own.get("read") == "read" and bool(own.get("new") or own.get("merged"))
    if none_listed and report.since and not report.captured:
        out.say(f"nothing new: no transcript of {project or 'this project'} modified on or after {report.since}")
    elif none_listed and not report.captured:
        out.say(f"{'' if learned else 'nothing to capture: '}no Claude Code session of {project or 'this project'} "
                f"yet (looked in {report.folder}); a session run in this repository is captured when it ends")
    elif not report.captured and not report.commits and not report.error and not report.failed:
        out.say(f"nothing new: {plural(report.transcripts, 'transcript')} of {project or 'this project'}, "
              f"{report.unchanged} unchanged since their last capture")  # fmt: skip
    else:
        _say_counts(out, report, project)


def _say_counts(out: Report, report: Backfill, project: str | None) -> None:
    """What a capture that read something captured, and how many transcripts were pending,
    unchanged, or read from where their last capture stopped."""
    out.say(f"captured {report.captured} of {plural(report.transcripts, 'transcript')} of {project}: "
          f"{plural(report.new, 'new atom')}, {report.merged} merged, {plural(report.commits, 'commit')}")
    if report.pending:
        out.say(f"  {report.pending} pending: said once, an atom when said again in another session")
    if report.unchanged:
        out.say(f"  {report.unchanged} unchanged since their last capture (not read again)")
    if report.resumed:
        out.say(f"  {report.resumed} read from where their last capture stopped")


def _say_own_memory(out: Report, own: dict[str, Any]) -> None:
    """Claude's own memory folder: what was read of it, or that it is a link (not read)."""
    if own.get("read") == "read":
        count = own["memories"]
        out.say(f"  Claude's own memory: {count} {'memory' if count == 1 else 'memories'} in {own['folder']}, "
              f"{len(own['new'])} new, {len(own['merged'])} merged"
              + (f", {len(own['skipped'])} skipped (`git memory extract --auto-memory` says why)" if own["skipped"] else ""))
        for problem in own.get("problems") or []:
            out.say(f"  Claude's own memory not read in full: {problem}")
    elif own.get("read") == "symlink":
        out.say(f"  Claude's own memory: {own['folder']} is a symlink: not read (nothing is read through a link)")


def _say_not_captured(out: Report, report: Backfill) -> None:
    """The transcripts not captured (unreadable, or failed) and the statements the extractor
    failed on; the first ten unreadable and three failures are named."""
    if report.unreadable or report.failed:
        from agent_memory.cli import colour  # it imports re: only when there is something to paint
    if report.unreadable:
        out.say(colour.paint(f"  {plural(len(report.unreadable), 'transcript')} not captured (unreadable):", "refused"))
        for item in report.unreadable[:10]:
            out.say(f"    {item['reason']}")
        if len(report.unreadable) > 10:
            out.say(f"    … and {len(report.unreadable) - 10} more (--output json lists them all)")
    if report.failed:
        where = ("see git memory status" if all(f["logged"] for f in report.failures)
                 else "the error log could not be written either")  # fmt: skip
        out.say(colour.paint(f"  {report.failed} failed ({where}):", "refused"))
        for item in report.failures[:3]:
            out.say(f"    {item['reason']}")
    if report.failed_statements:
        first = report.failed_statements[0]
        out.say(f"  {plural(len(report.failed_statements), 'statement')} skipped, the extractor failed "
                f"(logged, read again next time): {os.path.basename(first['path'])} {first['statement']}")


def _failure_exit(out: Report, report: Backfill) -> int:
    """Exit 3 when a transcript could not be captured for a reason other than its own
    content: one line and a hint on stderr."""
    if report.error:
        out.warn(f"git memory capture: {report.error}; {plural(report.not_captured, 'transcript')} not captured "
              "(nothing of them was stored)")  # fmt: skip
        out.warn("hint: free some space on the disk that holds the repository, then run `git memory capture --all` "
              "again")  # fmt: skip
        return EXIT_REPO_STATE
    if report.failed:
        out.warn(f"git memory capture: {plural(report.failed, 'transcript')} failed; the rest were captured")  # fmt: skip
        out.warn("hint: the reasons are above; run the command again once they are dealt with")
        return EXIT_REPO_STATE
    return 0


def _unreadable_exit(out: Report, report: Backfill) -> int:
    """Exit 2 (bad input) while a transcript of the project cannot be read, after the rest
    were captured: one line and a hint on stderr, the report on stdout."""
    if not report.unreadable:
        return 0
    count = len(report.unreadable)
    out.warn(f"git memory capture: {plural(count, 'transcript')} of this project could not be read; the rest were captured")  # fmt: skip
    out.warn("hint: repair or remove " + ("it" if count == 1 else "them") + f" ({report.unreadable[0]['path']}"
          + (", …" if count > 1 else "") + "); unchanged, they are reported again without being read")  # fmt: skip
    return EXIT_USAGE
