"""`git memory validate [--atoms FILE] [--auto-memory [DIR]] [--fix]`: schema, ids and store
invariants; the rendered blocks against adopted.log; supersede references; working sets.

With no file, it checks this repository as it is: every atom
on `memory/atoms` (schema, id, back-pointers and the sessions they name), the guard over the
memory files (whatever got past the hooks: `--no-verify`, a cherry-pick), every adopt and
lifecycle commit against its `Atom-Id` trailer, and stale git locks. `--fix` re-renders the
blocks, and never re-renders a line the guard refuses: that atom is forgotten (a `forget` line
with its claim redacted), logged in errors.log, and reported."""

from __future__ import annotations

import argparse
import json
import os
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent_memory.adoption import audit, intent
from agent_memory.adoption.adopt import hidden_problem, work_files
from agent_memory.adoption.locks import memory_lock_held, stale_locks
from agent_memory.claude import automemory
from agent_memory.cli import colour
from agent_memory.cli.output import store_here
from agent_memory.cli.report import Report
from agent_memory.cli.scan import judged_pieces, judged_size, memory_part, too_large
from agent_memory.committed import attributes, log_conflict, reviewed, tiers
from agent_memory.committed.adopted_log import REMOVING_OPS, LogEntry
from agent_memory.committed.files import TierFiles
from agent_memory.committed.global_repo import GlobalRepo
from agent_memory.committed.install import target_file
from agent_memory.committed.render import MalformedBlockError, block_of, find_block
from agent_memory.gitio import repo as git
from agent_memory.gitio.state import log_error, overwrite
from agent_memory.model.atom import Atom, atom_errors
from agent_memory.model.clock import now_utc
from agent_memory.model.errors import CORRUPT_HINT, EXIT_REFUSED, RepoStateError, UsageError
from agent_memory.model.home import git_in
from agent_memory.model.paths import is_memory_pointer, projects_dir
from agent_memory.model.policy import MAX_HISTORY_DIFF_BYTES
from agent_memory.model.trailers import plural
from agent_memory.redact import guard
from agent_memory.store.l1 import STORE, L1Store
from agent_memory.transcripts.evidence import names_no_transcript, session_at


def validate_atoms_file(path: Path) -> list[str]:
    try:
        # utf-8-sig: a file written by Windows PowerShell 5.1 (`ConvertTo-Json | Out-File`)
        # opens with a byte-order mark, which json.loads refuses as "not JSON".
        data = json.loads(path.read_text("utf-8-sig"))
    except FileNotFoundError as exc:
        raise UsageError(
            f"no file at {path}", hint="pass a JSON file holding one atom or a list of atoms"
        ) from exc
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise UsageError(
            f"{path} is not JSON: {exc}",
            hint="pass a JSON file holding one atom or a list of atoms",
        ) from exc
    atoms = data if isinstance(data, list) else [data]
    errors = []
    for index, atom in enumerate(atoms):
        label = f"[{index}] {atom.get('id', '?')}" if isinstance(atom, dict) else f"[{index}]"
        errors += [f"{label}: {e}" for e in atom_errors(atom)]
    counts = Counter(a.get("id") for a in atoms if isinstance(a, dict))
    errors += [
        f"duplicate id {ident} ({n} records): an id collision is a merge, never a second record"
        for ident, n in sorted(counts.items(), key=lambda kv: str(kv[0]))
        if ident and n > 1
    ]
    return errors


def _git(tier: str, root: Path) -> str:
    """`git` as the command to give for a tier's files: validate runs in a project, so a
    command about the global memory repo's (L3) must name it, or it acts on the project's."""
    return "git" if tier == "L2" else git_in(root)


def _block_problem(
    files: Any, tier: str, target_path: Path, fix: bool, fixed: list[str]
) -> list[str]:
    """A block that differs from what adopted.log renders to: reported, or re-rendered with
    --fix. Broken markers are reported and left alone: where a lost end marker was cannot be
    known, and guessing could swallow the person's own text after the block."""

    try:
        find_block(files.target_text, tier)
    except MalformedBlockError as exc:
        return [
            f"{target_path}: the {tier} block's markers are broken ({exc}); restore them "
            f"(`{_git(tier, target_path.parent)} checkout -- {target_path.name}` for an uncommitted edit, or by hand), "
            "then re-render with `git memory validate --fix`"
        ]
    if not fix:
        return [
            f"{target_path}: the {tier} block differs from .memory/adopted.log (edited by hand?); "
            "re-render it with `git memory validate --fix`"
        ]
    overwrite(target_path, files.rerendered().target_text.encode("utf-8"))  # never through a link
    fixed.append(
        f"re-rendered the {tier} block in {target_path} from .memory/adopted.log (commit it)"
    )
    return []


def supersede_errors(atoms: Mapping[str, Atom]) -> list[str]:
    """Dangling `superseded_by` targets and cycles."""
    errors = []
    for ident in sorted(atoms):
        target = atoms[ident].get("superseded_by")
        if target and target not in atoms:
            errors.append(f"{ident} is superseded by {target}, which is not held")
        seen = [ident]
        while target and target in atoms:
            if target in seen:
                loop = seen[seen.index(target) :]
                start = loop.index(
                    min(loop)
                )  # one message per cycle, whichever atom it is met from
                loop = loop[start:] + loop[:start]
                errors.append(f"supersede cycle: {' → '.join([*loop, loop[0]])}")
                break
            seen.append(target)
            target = atoms[target].get("superseded_by")
    return sorted(set(errors))


def run(args: argparse.Namespace) -> Report:
    report: dict[str, Any] = {"ok": True, "errors": []}
    if args.atoms:
        report["errors"] += validate_atoms_file(Path(args.atoms))
    if args.auto_memory is not None:
        folder = _auto_memory(args.auto_memory)
        # Added to, not replacing, what --atoms found: both were asked for.
        folder["errors"] = report["errors"] + folder["errors"]
        report.update(folder)
    if not args.atoms and args.auto_memory is None:
        report["errors"] += _repository(fix=args.fix, report=report)
    report["ok"] = not report["errors"]
    out = Report(report, code=0 if report["ok"] else EXIT_REFUSED)  # JSON keeps --auto-memory's "text"
    said: set[str] = set()  # the auto-memory report's own lines: each error is said once
    if args.auto_memory is not None and "text" in report:
        out.say(report["text"])
        said = set(report["text"].splitlines())
    out.say(*(f"{colour.paint('error:', 'error')} {error}" for error in report["errors"] if f"error: {error}" not in said))
    out.say(*(f"{colour.paint('warning:', 'hint')} {warning}" for warning in report.get("warnings", [])
              if f"warning: {warning}" not in said))
    out.say(*(f"fixed: {fixed}" for fixed in report.get("fixed", [])))
    out.say(*(f"checked {checked}" for checked in report.get("checked", [])))
    if report["ok"] and "ok" not in said:
        out.say("ok")
    return out


def _auto_memory(directory: str) -> dict[str, Any]:

    if directory:
        target = Path(directory)
    else:
        from agent_memory.cli.output import repo_here

        repo = repo_here()
        target = automemory.default_auto_memory_dir(repo.workdir or repo.common_dir)
    # No folder to check is bad input (exit 2), as for extract, scan and consolidate: not a
    # validation finding (exit 1, `ok: false`).
    hint = "pass the folder: git memory validate --auto-memory ~/.claude/projects/<slug>/memory"
    from agent_memory.cli.extract import refuse_a_linked_folder

    refuse_a_linked_folder(target, "validate")
    if not target.exists():
        raise UsageError(f"no auto-memory folder at {target}", hint=hint)
    if not target.is_dir():
        raise UsageError(f"{target} is not a folder", hint=hint)
    result = automemory.validate_auto_memory(target)
    data = result.to_json()
    data["text"] = automemory.render_report(result)
    data["errors"] = list(data.get("errors", []))
    return data


def merge_conflict(root: Path | str, target: str) -> tuple[list[str], str, str] | None:
    """(the memory files git left unmerged, the operation, how to leave it) when a merge, a
    `pull --rebase` or a cherry-pick stopped on a conflict in them — two clones adopted
    different items and both rendered their line into the block; None otherwise."""
    if not (Path(root) / ".git").exists():  # no repository of its own: never one found above it
        return None
    repo = git.find_repo(root)
    found = git.unmerged_paths(repo, [target, tiers.LOG_RELPATH])
    if not found:
        return None
    what, leave = git.branch_problem(repo) or ("a merge is in progress", "finish it (`git commit`)")
    return found, what, leave


def _conflict_report(root: Path, tier: str, target: str, conflict: tuple[list[str], str, str],
                     fix: bool, warnings: list[str], log_markers: bool = False) -> list[str]:
    found, what, leave = conflict
    add = f"`{_git(tier, root)} add {target} {tiers.LOG_RELPATH}`"
    if log_markers:  # not merged as a union (the attribute was missing), and --fix could not
        how = ("keep every line of both sides and delete only the <<<<<<< ======= >>>>>>> lines, then "
               "`git memory validate --fix`" if fix else
               "`git memory validate --fix` resolves it as the union of both sides' lines (the log is "
               "append-only: every adopted line is kept) and re-renders the block")  # fmt: skip
        return [f"{root / tiers.LOG_RELPATH}: an unresolved merge conflict ({what}: git merged the log line by "
                f"line, not as the union its merge=union attribute asks for); {how}; then {add} and {leave}"]
    if fix:
        warnings.append(f"{root / target}: the {tier} block was re-rendered over an unresolved merge conflict "
                        f"({what}); mark it resolved with {add}, then {leave}")  # fmt: skip
        return []
    return [f"{root / target}: an unresolved merge conflict in the {tier} block ({what}: a teammate's memory "
            f"commit met yours); `git memory validate --fix` re-renders it from {tiers.LOG_RELPATH}, which git "
            f"merges as a union and which keeps both sides' adopted lines; then {add} and {leave}"]  # fmt: skip


def _another_project(repo: git.Repo) -> list[str]:
    """A clone set up under another project name than the one its committed adopted.log
    records (set up before anything was adopted, or by a version that named a project after its
    folder): the same claim adopted here is another atom (another id), shown twice, and the L3
    gate counts the repository as two projects. Not an error: what was learned under this
    name stays under it; the way to join the recorded name is said."""
    from agent_memory.committed.project_name import recorded_name

    recorded, here = recorded_name(repo), git.project_of(repo)
    if not recorded or recorded == here or repo.workdir is None:
        return []
    return [f"{repo.workdir / tiers.LOG_RELPATH}: its adopted lines are of project {recorded!r} (the name the first "
            f"one records), this clone is set up as {here!r}: a claim adopted here is another atom than the same "
            f"claim adopted in the other clones, shown twice, and counted as another project for L3; to use "
            f"{recorded!r} (what was learned as {here!r} stays under that name): `git memory deinit`, "
            f"`git config memory.project {recorded}`, then `git memory init`"]  # fmt: skip


def _log_bytes(log_path: Path) -> bytes:
    """The work tree's adopted.log for --fix's repairs (the folder and file were checked for
    links: _unchecked), never over MAX_LOG_BLOB_BYTES: OSError (EFBIG) then, as every reader
    refuses such a log (the checks after the repairs say so). Read whole, a cloned log of
    zeros (1.2 GB, some 1 MB in the clone) cost `validate --fix` twice its size, a MemoryError."""
    from agent_memory.model.policy import MAX_LOG_BLOB_BYTES

    with log_path.open("rb") as fh:
        return tiers.read_at_most(fh, MAX_LOG_BLOB_BYTES, log_path)


def _log_markers(log_path: Path) -> bool:
    try:
        return log_conflict.has_markers(_log_bytes(log_path).decode("utf-8", "replace"))
    except OSError:
        return False


def _union_log(root: Path, tier: str, log_path: Path, fixed: list[str], warnings: list[str]) -> bool:
    """--fix for a conflict in the log: both sides' lines, as `merge=union` would have merged
    them (committed/log_conflict.py), and why git did not."""
    merged = log_conflict.union(root)
    if merged is None:
        return False
    try:
        here = _log_bytes(log_path).decode("utf-8", "replace")
    except OSError:
        return False
    extra = log_conflict.lines_of_neither_side(here, merged)
    if extra:  # a resolution in progress: the union of the stages would drop what was added
        warnings.append(f"{log_path}: not merged by --fix: {plural(len(extra), 'line')} in it that neither side "
                        "of the merge has (added while resolving?) would be lost; finish it by hand")  # fmt: skip
        return False
    overwrite(log_path, merged.encode("utf-8"))
    fixed.append(f"merged {log_path} as the union of both sides' lines (the log is append-only: every "
                 "adopted line of both is kept; commit it)")  # fmt: skip
    if log_conflict.union_attribute_missing(root):
        warnings.append(f"{root}: `{tiers.LOG_RELPATH} merge=union` is not in effect here (.gitattributes lacks "
                        f"the line init writes, or an attributes file unsets it), so git merged the log line "
                        f"by line; `git memory init`{' (in any project)' if tier == 'L3' else ''} adds it back "
                        "and the next merge keeps both sides without a conflict")  # fmt: skip
    return True


def _other_tier(files: TierFiles, tier: str, log_path: Path) -> list[str]:
    """A held atom whose line claims the other committed tier: no command of ours writes one
    (a hand edit, or a line copied between the project's log and the global one); it is held,
    and shown, as this tier's."""
    where = "the project's log (L2)" if tier == "L2" else "the global memory repo's log (L3)"
    return [f"{log_path}: {ident} claims tier {atom.get('tier')} in {where}: a hand-edited or copied line, "
            f"held and shown as {tier}; `git memory forget {ident}` removes it"
            for ident, atom in files.held().items() if atom.get("tier") != tier]  # fmt: skip


def _repository(fix: bool, report: dict[str, Any]) -> list[str]:

    warnings: list[str] = []
    checked: list[str] = []
    repo, store = store_here()
    errors = _store_errors(repo, store, checked, warnings)
    fixed: list[str] = []
    for tier, root, target in _places(repo):
        errors += _tier_errors(tier, root, target, fix, fixed, warnings, checked)
    if repo.workdir is not None:
        warnings += _another_project(repo)
    report["fixed"] = fixed
    report["warnings"] = warnings
    report["checked"] = checked
    return errors


def _store_errors(repo: git.Repo, store: L1Store, checked: list[str], warnings: list[str]) -> list[str]:
    """memory/atoms: stale locks, a damaged or rewound store, then (when it can be read) its atoms."""
    errors = [f"{lock.message}; {lock.hint}" for lock in stale_locks(repo)]
    damage = _store_damage(repo, store.tip())
    errors += damage
    rewound = store.rewound()  # every write refuses it: the check says so before one does
    if rewound is not None:
        errors.append(f"{rewound.message}; {rewound.hint}")
    if not damage:
        errors += _store_atoms(store, checked, warnings)
    return errors


def _places(repo: git.Repo) -> list[tuple[str, Path, str]]:
    """The tiers to check: this work tree's (L2), and the global memory repo's (L3) if there is one."""
    places = []
    if repo.workdir is not None:
        places.append(("L2", repo.workdir, target_file(repo)))
    home = GlobalRepo.default()
    if home.exists():
        places.append(("L3", home.path, "CLAUDE.memory.md"))
    return places


def _unchecked(tier: str, root: Path, target: str) -> list[str] | None:
    """Why a tier's memory files cannot be checked at all (a link in their place, left out of a
    sparse checkout), or None."""
    # Not followed: a linked `.memory` folder or file makes Claude read what no commit showed.
    odd = [bad for bad in (tiers.linked_component(root, rel) for rel in (tiers.LOG_RELPATH, target)) if bad]
    if odd:
        return [f"{p} is not a {'regular file' if p.endswith(('.log', '.md')) else 'folder'} "
                "(a link makes Claude read whatever it points to); replace it with the real one"
                for p in dict.fromkeys(odd)]  # fmt: skip
    # Left out of a sparse checkout, a memory file reads as empty: every finding below would
    # be about that absence (and --fix would act on it), not about the memory.
    left_out = hidden_problem(root, [tiers.LOG_RELPATH, target], sparse_only=True)
    if left_out is not None:
        return [f"{tier}: {left_out.message.removesuffix('; nothing was changed')} — not checked; "
                f"{left_out.hint}"]  # fmt: skip
    return None


def _tier_errors(tier: str, root: Path, target: str, fix: bool, fixed: list[str], warnings: list[str],
                 checked: list[str]) -> list[str]:  # fmt: skip
    """One tier's memory files: the log, the block, the guard, a merge left half done, the history."""
    log_path, target_path = root / ".memory/adopted.log", root / target
    unchecked = _unchecked(tier, root, target)
    if unchecked is not None:
        return unchecked
    errors = _converted(root, tier)
    if fix:
        _repair_utf8(root, tier, fixed)
    # A conflict git left in the block is neither a hand edit nor a killed adopt: say what it
    # is and how to finish it (the block is re-rendered by --fix all the same). One in the
    # log (merged without its union attribute) --fix resolves as the union first.
    conflict = merge_conflict(root, target)
    log_markers = conflict is not None and tiers.LOG_RELPATH in conflict[0] and _log_markers(log_path)
    if fix and log_markers and _union_log(root, tier, log_path, fixed, warnings):
        log_markers = False
    try:
        files = work_files(root, tier, target)
    except RepoStateError as exc:  # a file that is not UTF-8: a finding, not a crash
        errors.append(f"{exc.message}; {exc.hint}")
        return errors
    # its marker lines are not records: the conflict's own finding says what they are
    errors += [f"{log_path}: {e}" for e in files.log_errors(validate=True)
               if not (log_markers and log_conflict.marker_line(e))]
    errors += _other_tier(files, tier, log_path)
    if fix:
        files = _drop_refused(files, tier, root, fixed)
    files, problems = _unshown(files, tier, root, target_path, log_path, fix, fixed, warnings)
    errors += problems
    files, problems = _hand_edits(files, tier, target_path, fix, fixed, conflict is not None)
    errors += problems
    if fix and not conflict:
        files = _relative_paths(files, tier, target_path, fixed)
    found = _guard_errors(files, log_path, target_path, warnings)
    # the conflict's own finding says what its marker lines are and how to finish
    errors += [e for e in found if not conflict or ": merge-conflict:" not in e]
    if conflict:
        errors += _conflict_report(root, tier, target, conflict, fix, warnings, log_markers)
    else:
        errors += _half_done(root, tier, target, fix, warnings)
    return errors + _history_errors(tier, root, target, warnings, checked)


def _hand_edits(files: TierFiles, tier: str, target_path: Path, fix: bool, fixed: list[str],
                conflict: bool) -> tuple[TierFiles, list[str]]:  # fmt: skip
    """A block edited by hand (re-rendered by --fix: then the guard judges the new block). An
    empty log counts too: its last line taken out by hand leaves a block that still shows it,
    which `stage` refuses, naming --fix."""
    if not files.hand_edited():
        return files, []
    problem = _block_problem(files, tier, target_path, fix, fixed) if fix or not conflict else []
    if fix and not problem:  # the guard judges the block --fix wrote, not the old one
        files = files.rerendered()
    return files, problem


def _relative_paths(files: TierFiles, tier: str, target_path: Path, fixed: list[str]) -> TierFiles:
    """A block an earlier version rendered (not a hand edit) that still shows a path of this
    checkout absolute: the version before render.file_claim wrote it relative. The guard
    refuses the block as it is (`worktree-path`), and the rendering is the same claims, so
    --fix writes the block again; nothing is forgotten."""
    try:
        block = block_of(files.target_text, tier) or ""
    except MalformedBlockError:
        return files
    if files.hand_edited() or not any(f.rule == "worktree-path" for f in guard.scan_text(target_path.name, block)):
        return files
    after = files.rerendered()
    if after.target_text == files.target_text:
        return files
    overwrite(target_path, after.target_text.encode("utf-8"))  # never through a link
    fixed.append(f"re-rendered the {tier} block in {target_path} with this checkout's paths relative (commit it)")
    return after


def _history_errors(tier: str, root: Path, target: str, warnings: list[str], checked: list[str]) -> list[str]:
    """The tier's atoms against their supersedes, and its adopt/lifecycle commits against their Atom-Id."""
    errors = [f"{tier}: {e}" for e in supersede_errors(tiers.held(root))]
    commits = audit.commit_errors(root)
    errors += [f"{tier}: {e}" for e in commits.errors]
    if commits.unread:
        warnings.append(f"{tier}: the history of .memory/adopted.log is over {MAX_HISTORY_DIFF_BYTES >> 20} MB of "
                        "diffs: its adopt and lifecycle commits were not checked against their Atom-Id")
    checked.append(f"{tier} in {root}: {target} and .memory/adopted.log (guard, rendering), "
                   f"{plural(commits.commits, 'adopt/lifecycle commit')} against their Atom-Id")  # fmt: skip
    if commits.unknown:
        warnings.append(f"{tier}: {plural(commits.unknown, 'adopt/lifecycle commit')} at the boundary "
                        "of this shallow clone not checked (its parent was not fetched; "
                        "`git fetch --deepen=1` lets validate check it)")  # fmt: skip
    return errors


def _converted(root: Path, tier: str) -> list[str]:
    """Memory files git puts through a filter or an encoding (committed/attributes.py): not
    what a reviewer read, so the session start leaves the tier out."""
    bad = attributes.converted(str(root)) or {}
    return [f"{root / rel}: {', '.join(attrs)} is set for it (an attributes file): git stores other than the "
            f"text Claude reads, so the session start does not inject the {tier} memory; "
            f"{attributes.removal_hint({rel: attrs}, _git(tier, root))}" for rel, attrs in sorted(bad.items())]  # fmt: skip


def _store_damage(repo: git.Repo, tip: str | None) -> list[str]:
    """Every damaged or missing object of the store's tip and its tree (a truncated loose
    file, a ref to nothing), named with the way back once."""
    found = git.damaged_objects(repo, tip, STORE) if tip else []
    if not found:
        return []
    return [exc.message for exc in found] + [
        f"{STORE}: {plural(len(found), 'damaged object')} (nothing else on {STORE} was checked): {CORRUPT_HINT}"
    ]


def _store_atoms(store: L1Store, checked: list[str], warnings: list[str]) -> list[str]:
    errors: list[str] = []
    snap = store.snapshot()
    errors += [f"memory/atoms:{path}: {why}" for path, why in snap.bad]
    gone = 0
    for ident, atom in sorted(snap.atoms.items()):
        where = f"memory/atoms:atoms/{ident}.json"
        errors += [f"{where}: {e}" for e in atom_errors(atom)]
        errors += [f"{where}: {e}" for e in _pointer_errors(atom)]
        gone += not (_transcript_exists(str(atom.get("source", ""))) or _evidence_here(atom))
    checked.append(f"memory/atoms: {plural(len(snap.atoms), 'atom')} (schema, ids, back-pointers), "
                   f"{plural(len(snap.tombstones), 'tombstone')}")  # fmt: skip
    if gone:
        warnings.append(f"{plural(gone, 'atom')} {'cites' if gone == 1 else 'cite'} a transcript that is no longer on this machine "
                        "(their evidence cannot be shown; the atoms stay valid)")  # fmt: skip
    return errors


def _half_done(root: Path, tier: str, target: str, fix: bool, warnings: list[str]) -> list[str]:
    """Memory files that differ from HEAD while no git memory command is committing them:
    what an adopt killed between writing an item and committing it leaves.
    With --fix, only an interrupted memory commit is an error: what --fix writes is for a
    person to commit, so an uncommitted memory file is a reminder to commit it (a warning)."""
    repo = git.find_repo(root)
    files = work_files(root, tier, target)
    if memory_lock_held(repo):
        return []  # an adopt (or a lifecycle verb) is between its write and its commit
    try:
        found = intent.read(repo)
    except RepoStateError as exc:
        return [f"{exc.message}; {exc.hint}"]
    if found is not None:
        what = found.atom or repr(found.subject)
        return [f"{root}: a git memory command was killed while committing {what}, and left the "
                "memory files half done; `git memory adopt` finishes or rolls it back"]  # fmt: skip
    if fix:
        warnings += [f"{root / rel} differs from HEAD: commit it (`{_git(tier, root)} commit {rel}`) once you have "
                     "read the change" for rel in intent.uncommitted(repo, files)]  # fmt: skip
        return []
    return [f"{root / rel}: its memory content differs from HEAD while no git memory command is "
            "committing it (an adopt killed before its commit, or an uncommitted edit); commit it, or "
            f"restore it with `{_git(tier, root)} checkout -- {rel}`" for rel in intent.uncommitted(repo, files)]  # fmt: skip


def _pointer_errors(atom: Atom) -> list[str]:
    """Each back-pointer names one of the atom's sessions (the file is `<session>.jsonl`), or
    the record at its line, read on this machine, does: a file that opens with an earlier
    session's records cites them in that file (transcripts/identity.py; not written by 2.1.332)."""
    sessions = set(atom.get("sessions", []))
    pointers = [str(atom.get("source", "")), str(atom.get("first_source", ""))]
    evidence = [e for e in atom.get("evidence", []) if isinstance(e, dict)]
    pointers += [str(e.get("source", "")) for e in evidence]
    out = []
    for pointer in sorted(set(pointers)):
        if is_memory_pointer(pointer):
            continue  # a line of an auto-memory file: it names no session
        name = pointer.partition("#L")[0].replace("\\", "/").rsplit("/", 1)[-1]
        session = name.removesuffix(".jsonl")
        # subagent files, and `remember`'s hand-authored atoms (source remembered-<id>, session
        # remembered-<day>), name no session of their own
        if pointer and sessions and session not in sessions and not session.startswith(("agent-", "remembered-")):
            if _line_session(atom, pointer) in sessions:
                continue  # a file holding another session's lines too
            out.append(f"back-pointer {pointer} names session {session}, which is not in its sessions")
    return out


def _line_session(atom: Atom, pointer: str) -> str | None:
    """The session of the line `pointer` names, when known: a file may hold another session's
    records too (transcripts/identity.py), and capture gives an atom the session of its
    line's record. The line itself says when the transcript is here (evidence.session_at);
    else the session capture kept beside the pointer in the L1 evidence (the transcript may
    have aged out: the atom stays valid)."""
    items = [e for e in atom.get("evidence", []) if isinstance(e, dict) and e.get("source") == pointer]
    local = next((str(e["path"]) for e in items if isinstance(e.get("path"), str)), None)
    found = session_at(pointer, local)
    if found is not None:
        return found
    return next((str(e["session"]) for e in items if isinstance(e.get("session"), str)), None)


def _evidence_here(atom: Atom) -> bool:
    """Whether a transcript the L1 evidence says is on this machine (`path`, kept at capture
    beside the pointer) is there: a transcript renamed away from `<session>.jsonl` is cited by
    its session's name, and still found (as `inspect --why` finds it)."""
    for item in atom.get("evidence", []):
        local = item.get("path") if isinstance(item, dict) else None
        if isinstance(local, str) and local and os.path.isfile(os.path.expanduser(local)):
            return True
    return False


def _transcript_exists(pointer: str) -> bool:
    body = pointer.partition("#L")[0]
    if not body.startswith("~/.claude/projects/") or is_memory_pointer(pointer):
        return True  # not an L1 pointer: its form is reported by the schema check
    if names_no_transcript(pointer):
        return True  # `remember`'s hand-authored atom: its pointer names no transcript file
    return (projects_dir() / body.removeprefix("~/.claude/projects/")).is_file()


def _guard_errors(files: TierFiles, log_path: Path, target_path: Path, warnings: list[str]) -> list[str]:
    """The guard over the memory files as they are: whatever got past the hooks. A log line
    of an atom no longer held (forgotten since) stays in the file and in history: a warning,
    since a new line cannot remove it; rotating the secret is what helps."""
    errors = []
    pieces = judged_pieces(target_path.name, files.target_text)
    large = too_large(target_path.name, judged_size(target_path.name, files.target_text, pieces))
    if large is not None:  # too large to judge (~25 s, 3 GB at 60 MB), so never "ok"
        errors.append(f"{target_path}: {large.rule}: too large for the guard to judge; restore a good version "
                      f"or cut it down to the marker block (`git memory validate --fix` re-renders it)")  # fmt: skip
    block = "" if large is not None else memory_part(target_path.name, files.target_text, pieces)
    for f in guard.scan_text(target_path.name, block):
        does = "writes it relative" if f.rule == "worktree-path" else "drops it"  # _relative_paths
        errors.append(f"{target_path}:{f.line}: {f.rule}: the guard refuses this line; "
                      f"`git memory validate --fix` {does} (then commit)")  # fmt: skip
    held = files.held()
    ids = {n: audit.line_atom_id(line) for n, line in enumerate(files.log_text.split("\n"), start=1)}
    removed_later = {e.atom_id for e in files.entries() if e.op in REMOVING_OPS}
    for f in guard.scan_text(".memory/adopted.log", files.log_text):
        if f.rule == "worktree-path":
            # A line adopted before capture wrote this checkout's paths relative: no secret,
            # and the block and the session start show it relative (render.file_claim). An
            # append-only line cannot be rewritten; forgetting the item would lose it.
            continue
        ident = ids.get(f.line, "?")
        where = f"{log_path}:{f.line}: {f.rule} ({ident})"
        if ident in held:
            errors.append(f"{where}: the guard refuses this adopted line; `git memory validate --fix` "
                          "forgets it (then commit), and a secret in it must be rotated")  # fmt: skip
        elif ident in removed_later:
            warnings.append(f"{where}: a line of an atom forgotten since; it stays in the file and in "
                            "history: rotate the secret, or rewrite the line by hand")  # fmt: skip
        else:
            errors.append(f"{where}: the guard refuses this line")
    return errors


def _history_items(root: Path, tier: str) -> list[str] | None:
    """The item lines the tier's block showed in any commit of HEAD's history (each commit's
    version of the memory files, from one `git log`): what a reviewer was shown at some point,
    an adopt commit's rendering among them. None when that history is over
    MAX_HISTORY_DIFF_BYTES (not read further: each commit's versions come whole, and a cloned
    1 MB CLAUDE.md edited in 2,000 commits was 2 GB of it, 52 s and 6.5 GB); [] when git cannot
    say (no commit yet)."""
    out = git.git_output_within(
        root, "log", "-m", "-p", "--unified=1000000", "--no-color", "--no-ext-diff", "--no-textconv",
        "--no-renames", "--format=%x1e", "HEAD", "--", *tiers.BLOCK_FILES, limit=MAX_HISTORY_DIFF_BYTES,
    )  # fmt: skip
    if out is None:
        return None
    items: list[str] = []
    for chunk in out.split("\x1e"):
        for diff in chunk.split("\ndiff --git ")[1:]:
            after = [ln[1:] for ln in diff.split("\n") if ln[:1] in (" ", "+") and not ln.startswith("+++ ")]
            items += reviewed.block_items("\n".join(after), tier) or []
    return items


def _unshown(files: TierFiles, tier: str, root: Path, target_path: Path, log_path: Path, fix: bool,
             fixed: list[str], warnings: list[str]) -> tuple[TierFiles, list[str]]:  # fmt: skip
    """The block is what a reviewer saw (committed/reviewed.py). A log line no block ever
    showed — not the work tree's, not one in the history (an adopt commit renders its line;
    a hand edit since is re-rendered) — is reported, and --fix drops it rather than render what
    nobody reviewed: a `forget` line (its claim replaced, so the drop commits nothing of it),
    logged, and said. A block line without its log line is reported; --fix re-renders the
    block without it."""
    held = files.held()
    here = reviewed.file_items(root, tier)
    history = _history_items(root, tier)
    if history is None:
        # Unread, a line a block showed long ago would look unshown, and --fix would drop it:
        # none is reported. (What a session is given is checked against the work tree's block.)
        warnings.append(f"{tier}: the history of its block files is over {MAX_HISTORY_DIFF_BYTES >> 20} MB of diffs: "
                        "log lines were not checked against every block a reviewer was shown")
    unrendered, _ = reviewed.disagreement(held, here + history, tier) if history is not None else ([], [])
    _, unlogged = reviewed.disagreement(held, here, tier)
    problems: list[str] = []
    if not fix:
        problems += [f"{log_path}: {ident} has no rendered line in the {tier} block: a log line no "
                     "reviewer was shown, never injected; `git memory validate --fix` drops it (then commit)"
                     for ident in unrendered]  # fmt: skip
        problems += [f"{target_path}: the {tier} block shows {line!r}, which no line of "
                     ".memory/adopted.log holds; `git memory validate --fix` re-renders the block without it"
                     for line in unlogged]  # fmt: skip
        return files, problems
    if not unrendered:
        return files, problems
    at = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
    entries = [LogEntry(op="forget", atom=audit.replace_claim(held[ident], audit.UNSHOWN_CLAIM), at=at)
               for ident in unrendered]  # fmt: skip
    after = files.append(entries)
    for rel, text in after.paths().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        overwrite(path, text.encode("utf-8"))
    for ident in unrendered:
        log_error(f"validate --fix: dropped {ident} from {tier}: its log line has no rendered line in the block", root)
        fixed.append(f"dropped {ident} from .memory/adopted.log ({tier}): no block showed its line to a "
                     "reviewer, so it was never rendered or injected; commit both files")  # fmt: skip
    return after, problems


def _repair_utf8(root: Path, tier: str, fixed: list[str]) -> None:
    """--fix for an adopted.log that is not UTF-8 (a pull brings a byte in without any hook):
    every UTF-8 line is kept as it is, a line still a readable record with its bad bytes as
    U+FFFD is kept so, and any other is removed (no reader could use it: the readers leave it
    out). The file as it was is saved under the git dir's agent-memory folder first, logged,
    and said: what --fix did to the file is for a person to read and commit."""
    from agent_memory.committed.adopted_log import LOG_PATH, parse
    from agent_memory.gitio.state import state_dir

    path = root / LOG_PATH
    try:
        raw = _log_bytes(path)
        raw.decode("utf-8")
        return
    except UnicodeDecodeError:
        pass
    except OSError:
        return  # reported by the checks that follow

    def readable(line: str) -> bool:
        entries, errors = parse(line + "\n")
        return bool(entries) and not errors

    text, repaired, removed = tiers.repair_lines(raw, readable)
    stamp = now_utc().strftime("%Y%m%dT%H%M%SZ")
    backup = state_dir(git.find_repo(root).common_dir) / f"adopted.log.{tier}.{stamp}.not-utf8"
    backup.write_bytes(raw)
    overwrite(path, text.encode("utf-8"))
    what = "; ".join(
        [f"kept {where} with its bad bytes as U+FFFD" for where in repaired]
        + [f"removed {where}, not a readable record" for where in removed]
    )
    log_error(f"validate --fix: {path} was not UTF-8: {what}; the file as it was is in {backup}", root)
    fixed.append(f"made {path} UTF-8 ({tier}): {what}; the file as it was is saved in {backup}; "
                 f"read the change (`{_git(tier, root)} diff {LOG_PATH}`) and commit it")  # fmt: skip


def _drop_refused(files: TierFiles, tier: str, root: Path, fixed: list[str]) -> TierFiles:
    """--fix never re-renders a line the guard refuses: forget it, log it, say so."""
    after, refused = audit.drop_refused(files)
    if not refused:
        return files
    for rel, text in after.paths().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        overwrite(path, text.encode("utf-8"))
    for ident, rules in sorted(refused.items()):
        note = f"validate --fix: dropped {ident} from the {tier} block: the guard refuses its line ({', '.join(rules)})"
        log_error(note, root)
        fixed.append(f"dropped {ident} from the {tier} block and forgot it in .memory/adopted.log: "
                     f"the guard refuses its line ({', '.join(rules)}); commit both files")  # fmt: skip
    return after
