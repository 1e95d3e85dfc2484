"""`git memory extract --transcript PATH [--project NAME] [--output json]` — dry run of L0 → L1.

Prints the L1 atoms a transcript would yield (docs/cli.md: `{"atoms": [...], "pending": [...],
"skipped_lines": N}`; `pending`: claims said once that the durability gate holds until they are
said again in another session, which capture stores but nothing recalls) and writes nothing. `--auto-memory [DIR]` reads Claude Code's own auto-memory folder instead
(DIR defaults to this project's, `automemory/location.py`): `{"atoms": [...], "skipped":
[{"file": …, "reason": …}], "problems": ["…"]}`, every topic file one candidate or one skip, and
why the walk stopped short of the folder's end (too deep, too many entries), one line each. Unreadable lines are skipped and counted; the exit code is 0 when anything
was readable and 2 (bad input) when nothing was: a missing file, a directory, an empty file or
one where no line parses.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path, PurePosixPath, PureWindowsPath

from agent_memory.cli.output import flag_or_positional
from agent_memory.cli.report import Report
from agent_memory.extract.pipeline import extract_transcript
from agent_memory.gitio.repo import project_name
from agent_memory.model.atom import Atom
from agent_memory.model.errors import UsageError
from agent_memory.model.words import plural
from agent_memory.transcripts.reader import recorded_cwd

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agent_memory.store.l1 import L1Store


def default_project(transcript: Path, explicit: str | None, cwd: str | None = None) -> str:
    """--project, else the repository here (`git config memory.project` or its top-level
    directory), else the repository at the transcript's recorded cwd when it exists on this
    machine, else that cwd's basename."""
    if explicit:
        return explicit

    here = project_name(cwd or os.getcwd())
    if here:
        return here
    recorded = recorded_cwd(transcript)
    if recorded:
        if Path(recorded).is_dir():
            there = project_name(recorded)
            if there:
                return there
        pure = PureWindowsPath(recorded) if "\\" in recorded else PurePosixPath(recorded)
        if pure.name:
            return pure.name
    return "unknown-project"


def run(args: argparse.Namespace) -> Report:
    if getattr(args, "auto_memory", None) is not None:
        if args.transcript or args.transcript_pos:
            raise UsageError("give a transcript or --auto-memory, not both",
                             hint="git memory extract --auto-memory [DIR] --output json")
        return run_auto_memory(args)
    hint = "pass a Claude Code session file: git memory extract ~/.claude/projects/<slug>/<session>.jsonl"
    args.transcript = flag_or_positional(args, "transcript", "transcript_pos", hint)
    path = Path(args.transcript).expanduser()
    if not path.exists():
        raise UsageError(f"no transcript at {args.transcript}", hint=hint)  # as capture says it
    if path.is_dir():
        raise UsageError(f"{args.transcript} is a directory, not a transcript", hint=hint)
    project = default_project(path, getattr(args, "project", None))
    copies: list[Atom] = []
    try:
        result = extract_transcript(path, project, copied=_copies_held_here(copies))
    except OSError as exc:
        raise UsageError(
            f"cannot read {args.transcript}: {exc.strerror or exc}", hint=hint
        ) from exc
    if result.stats.records == 0:
        what = (
            ("its only line is not a readable record" if result.stats.lines == 1
             else f"none of its {result.stats.lines} lines is a readable record")
            if result.stats.lines
            else "it is empty"
        )
        raise UsageError(
            f"nothing readable in {args.transcript}: {what}",
            hint="is this a Claude Code transcript (JSON lines)?",
        )
    data = result.to_json()
    # what capture would leave out: a forked session's copies of records the store holds from
    # the earlier session (docs/claude-client-records.md), one entry per copied line
    data["copies"] = sorted(({"id": o["id"], "claim": o["claim"], "line": _line_of(o)} for o in copies),
                            key=lambda c: (c["line"], c["id"]))  # fmt: skip
    report = Report(data)
    stats = result.stats
    report.say(
        f"{path.name}: {plural(stats.records, 'record')}, {plural(result.statements, 'user statement')}, "
        f"{plural(result.skipped_lines, 'unreadable line')} skipped; project {project}"
    )
    for failed in result.failed_statements:
        report.warn(f"skipped a statement the extractor failed on ({failed}); the rest was read")
    if not result.atoms:
        report.say("no atoms (most prompts are one-off tasks and questions)")
    for atom in result.atoms:
        line = atom["first_source"].rsplit("#", 1)[-1]
        report.say(
            f"{atom['id']}  {atom['kind']:<10} {atom['confidence']:<8} {line:>6}  {atom['claim']}"
        )
    if copies:
        report.say(f"left out as copies of an earlier session's lines (a forked session's file; capture "
                   f"adds no sighting for them): {len(data['copies'])}")  # fmt: skip
        for copy in data["copies"]:
            report.say(f"  {copy['id']}  {copy['line']:>6}  {copy['claim']}")
    if result.pending:
        report.say(f"pending until said again in another session: {len(result.pending)}")
        for atom in result.pending:
            line = atom["first_source"].rsplit("#", 1)[-1]
            report.say(f"  {atom['id']}  {atom['kind']:<10} {line:>6}  {atom['claim']}")
    return report


def _copies_held_here(found: list[Atom]) -> Callable[[Atom], bool] | None:
    """capture's test for a copy (store/capture.py `copied_from`: the record's uuid and time
    held from another session), on the store of the repository here, recording each copy in
    `found`; also a record held from another file under the same session (a file that opens
    with the earlier session's records under their old sessionId: capture counts that line
    once, as the evidence it holds). Both ask the store one way (store/capture.py
    `held_from`: the kept evidence, or the fingerprint of a trimmed quote's record). Re-reading
    the file the store read it from lists it as before. None where there is no store to ask
    (then nothing is known as a copy, as capture would know nothing either)."""
    from agent_memory.gitio.repo import find_repo
    from agent_memory.store.capture import copied_from, held_from
    from agent_memory.store.l1 import L1Store

    try:
        store = L1Store(find_repo())
        if not store.exists():
            return None
        snap = store.snapshot()
        copied = copied_from(snap)
    except Exception:  # noqa: BLE001 - a dry run over a store it cannot read lists everything
        return None

    def elsewhere(obs: Atom) -> bool:
        held = held_from(snap, obs)
        if held is None or held[0] not in held[1]:
            return False  # not held under this line's session (another session's: `copied`)
        session, _, atom = held
        mine = (obs.get("evidence") or [{}])[0]
        here = _file_of(mine.get("source"))
        kept = [_file_of(e.get("source")) for e in atom.get("evidence") or []
                if e.get("record") == mine.get("record") and e.get("at") == mine.get("at")
                and e.get("session") == session]  # fmt: skip
        # Its quote trimmed (`records_omitted`), the file the store read it from is not kept:
        # the session's own transcript, where Claude Code writes its records (or a subagent's
        # file of it): a line of that session in a file named for another is a copy's.
        return any(file != here for file in kept) if kept else not _own_file(here, session)

    def test(obs: Atom) -> bool:
        if copied(obs) or elsewhere(obs):
            found.append(obs)
            return True
        return False

    return test


def _file_of(source: object) -> str:
    """The transcript an evidence pointer names, without its `#L<line>`."""
    return str(source or "").rsplit("#", 1)[0]


def _own_file(pointer: str, session: str) -> bool:
    """Whether a transcript pointer names the session's own file (`<session>.jsonl`, or a
    subagent's `agent-*.jsonl`, which numbers its lines under its parent's session)."""
    name = pointer.rsplit("/", 1)[-1]
    return name == f"{session}.jsonl" or name.startswith("agent-")


def _line_of(atom: Atom) -> int:
    tail = str(atom.get("first_source", "")).rsplit("#L", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def auto_memory_hint(verb: str) -> str:
    return f"pass the folder: git memory {verb} --auto-memory ~/.claude/projects/<slug>/memory"


def refuse_a_linked_folder(folder: Path, verb: str) -> None:
    """A folder that is a symlink is bad input (exit 2) for a verb that reads it: nothing is
    read through a link (automemory/walk.py), and the verbs reported on the empty read they
    made — `scan` "no secrets" over a folder holding a key, `extract` "0 memories". The hint
    names the folder the link points to, for a person who means it."""
    if not folder.is_symlink():
        return
    import shlex

    real = shlex.quote(os.path.realpath(folder))
    raise UsageError(f"{folder} is a symlink: nothing is read through a link",
                     hint=f"pass the folder it points to: git memory {verb} --auto-memory {real}")  # fmt: skip


def auto_memory_folder(given: str | None, verb: str = "extract") -> tuple[Path, Path | None]:
    """(the folder, the repository root it belongs to when known): DIR when given, else the
    folder Claude Code uses for the repository here. `verb` is the command asking (its hint
    names it)."""
    from agent_memory.automemory.location import resolve_auto_memory_dir
    from agent_memory.gitio.repo import find_repo
    from agent_memory.model.errors import RepoStateError

    root = None
    try:
        repo = find_repo()
        root = repo.workdir or repo.common_dir
    except RepoStateError:
        if not given:
            raise RepoStateError("not a git repository, so there is no project folder to read",
                                 hint=auto_memory_hint(verb)) from None
    folder = Path(given).expanduser() if given else resolve_auto_memory_dir(root).path  # type: ignore[arg-type]
    refuse_a_linked_folder(folder, verb)
    if not folder.exists():
        raise UsageError(f"no auto-memory folder at {folder}", hint=auto_memory_hint(verb))
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder", hint=auto_memory_hint(verb))
    return folder, root


def _store_if_any() -> L1Store | None:
    """This repository's store when it has one a dry run can read, else None."""
    from agent_memory.gitio.repo import find_repo
    from agent_memory.store.l1 import L1Store

    try:
        store = L1Store(find_repo())
        return store if store.exists() else None
    except Exception:  # noqa: BLE001 - a dry run over a store it cannot read knows no session
        return None


def run_auto_memory(args: argparse.Namespace) -> Report:
    from agent_memory.automemory.location import memory_slug
    from agent_memory.extract.memory_notes import extract_folder
    from agent_memory.extract.pipeline import safe_project

    folder, root = auto_memory_folder(args.auto_memory or None)
    project = safe_project(getattr(args, "project", None) or project_name(os.getcwd()) or folder.parent.name)
    writes, store = None, None
    if root is not None:
        # Who wrote each memory, from this project's transcripts (read here, nothing cached:
        # a dry run writes nothing).
        from agent_memory.automemory.writes import WriteIndex
        from agent_memory.gitio.repo import find_repo
        from agent_memory.store.auto_memory import originals
        from agent_memory.transcripts.files import find_transcripts

        writes = WriteIndex(find_repo().common_dir, folder).refresh(find_transcripts(root))
        store = _store_if_any()
        writes = originals(writes, store)  # a fork's copies left out, as capture does
    result = extract_folder(folder, project, memory_slug(folder, root), writes)
    if store is not None:
        from agent_memory.store.auto_memory import as_capture_counts

        # what the store already holds of a note no write here shows is no candidate to capture
        result = as_capture_counts(result, store)
    report = Report(result.to_json())
    memories = f"{len(result.notes)} {'memory' if len(result.notes) == 1 else 'memories'}"
    report.say(f"{folder}: {memories} of Claude's own, {plural(len(result.atoms), 'candidate atom')}, "
          f"{len(result.skipped)} skipped; project {project}")
    for atom in result.atoms:
        report.say(f"{atom['id']}  {atom['kind']:<10} {atom['confidence']:<8} {atom['memory_file']}  {atom['claim']}")
    for skip in result.skipped:
        report.say(f"skipped {skip.file}: {skip.reason}")
    if result.problems:
        report.say("not read in full (what lies past this was neither read nor counted above):")
        for problem in result.problems:
            report.say(f"  {problem}")
    return report
