"""`git memory status`: tier counts, what is staged, recent errors, hook state.

Also what silently weakens the guard or stalls the pipeline:
whether each git hook of ours is the one git runs (a `core.hooksPath` set after `init`
disables them without a word), adopted lines the guard refuses (never rendered or injected),
stale git lock files left by a killed process, and transcripts not captured yet."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable
from typing import Any

from agent_memory.adoption import intent
from agent_memory.adoption.adopt import BlockFileTooLarge, pending, work_files
from agent_memory.adoption.locks import stale_locks
from agent_memory.cli import colour
from agent_memory.cli.inspect import l1_candidates
from agent_memory.cli.output import project_of, repo_here
from agent_memory.cli.report import Report, problem_of
from agent_memory.cli.validate import merge_conflict
from agent_memory.committed import guarded, reviewed, tiers
from agent_memory.committed.install import hook_states, target_file
from agent_memory.gitio import repo as git
from agent_memory.gitio.refs import is_initialised
from agent_memory.gitio.state import recent_errors
from agent_memory.model.atom import is_pending
from agent_memory.model.errors import RepoStateError
from agent_memory.model.home import memory_home_dir
from agent_memory.model.tags import CLAUDE_MEMORY, is_claude_memory, model_written
from agent_memory.model.trailers import plural
from agent_memory.promote.review import foreign_review_error
from agent_memory.promote.review import passed_over as passed_over_lines
from agent_memory.redact.redactor import redact
from agent_memory.store.l1 import L1Store
from agent_memory.transcripts import ledger
from agent_memory.transcripts.files import find_transcripts
from agent_memory.transcripts.owner import transcripts_of

HOOK_ENV = {"SessionStart": "AGENT_MEMORY_SESSIONSTART", "UserPromptSubmit": "AGENT_MEMORY_USERPROMPTSUBMIT",
            "SessionEnd": "AGENT_MEMORY_SESSIONEND"}


def collect(repo: git.Repo) -> dict[str, Any]:
    # The keys are set in the order JSON lists them, and each part is read in the order it was:
    # a helper per part keeps both (a status read in another order is a status that changed).
    store = L1Store(repo)
    initialised = store.exists()
    if not initialised:
        store.refuse_if_lost()  # a store that cannot be read, or was lost, is no uninitialised one
    data: dict[str, Any] = {"initialised": initialised, "project": project_of(repo)}
    data["stale_locks"] = [{"path": str(lock.path), "age_seconds": int(lock.age_seconds),
                            "message": lock.message, "hint": lock.hint} for lock in stale_locks(repo)]  # fmt: skip
    if not initialised:
        return data
    # memory/atoms outlives `deinit`: whether init's setup is here now is its marker.
    data["set_up"] = is_initialised(str(repo.common_dir))
    data["interrupted"] = _interrupted(repo)
    rewound = store.rewound()  # what validate names, and every write refuses
    data["store_rewound"] = problem_of(rewound)
    data["git_hooks"] = hook_states(repo)
    snap = store.snapshot()
    atoms = list(snap.atoms.values())

    # A log naming more atoms than anyone adopts is not read (tiers.refuse_too_many_atoms):
    # said, its tier counted as holding nothing, and status goes on.
    refused: dict[str, tiers.TooManyAtomsError] = {}
    held = _held(lambda: tiers.l2_atoms(repo.workdir), "L2", refused)
    passed_over: list[tuple[str, int]] = []  # a commit on memory/review too large to be an item
    # The author's memory/review, come with a clone: said plainly, its items never listed as staged.
    foreign = foreign_review_error(repo, store, "status lists none of them as staged")
    data["foreign_review"] = problem_of(foreign)
    waiting = _waiting(repo, readable=foreign is None and "L2" not in refused, passed_over=passed_over)
    data["L1"] = _l1_counts(snap, atoms, held, {item.atom_id for item in waiting}, data["project"], repo)
    data["L2"] = {"held": len(held), "pinned": sum(1 for a in held.values() if a.get("pinned"))}
    l3 = _held(tiers.l3_atoms, "L3", refused)
    data["L3"] = {"held": len(l3)}
    _tier_findings(repo, data, held, l3, refused)
    data["transcripts_not_captured"] = not_captured(repo, atoms)
    data["staged"] = [{"commit": item.commit, "atom": item.atom_id,
                       **({"origin": item.atom["origin"]} if model_written(item.atom) else {})} for item in waiting]
    data["staged_passed_over"] = [{"oid": oid, "bytes": size} for oid, size in dict.fromkeys(passed_over)]
    queue = store.queue_dir
    data["queued_batches"] = len(list(queue.glob("*.json"))) if queue.is_dir() else 0
    # redacted as shown: a line an older version wrote went to the log unredacted
    data["errors"] = [redact(line)[0] for line in recent_errors(repo.common_dir, days=7)[-20:]]
    data["claude_hooks"], data["claude_hooks_not_ours"] = _claude_hooks(repo)
    data["auto_memory"] = _auto_memory(repo)
    data.update(_path_state())
    data["setup_uncommitted"] = _setup_uncommitted(repo)
    return data


def _waiting(repo: git.Repo, readable: bool, passed_over: list[tuple[str, int]]) -> list[Any]:
    """The items staged on memory/review (the commits too large to be one go to `passed_over`),
    or none when memory/review is not ours to list (`readable` false: a foreign review branch, or
    an L2 log not read), there is no work tree, or HEAD is unborn."""
    if not (readable and repo.workdir is not None and git.rev_parse(repo, "HEAD")):
        return []
    try:
        return pending(repo, work_files(repo.workdir, "L2", target_file(repo)), skipped=passed_over)
    except BlockFileTooLarge:  # not read: validate and scan name it; status goes on
        return []


def _l1_counts(snap: Any, atoms: list[Any], held: dict[str, Any], staged: set[str], project: str,
               repo: git.Repo | None = None) -> dict[str, int]:  # fmt: skip
    """L1 counted as `show` counts it: the candidates, not the adopted or staged atoms' records;
    the claims pending until said again (`show` lists them under "pending") apart."""
    found = l1_candidates(atoms, held, staged, project, repo)
    candidates = [atom for atom, _, _ in found if not is_pending(atom)]
    return {"atoms": len(atoms), "candidates": len(candidates),
            "pending": sum(1 for atom, _, _ in found if is_pending(atom)),
            "eligible": sum(1 for _, state, _ in found if state == "eligible"),
            "contested": sum(1 for a in candidates if a.get("contested")), "unreadable": len(snap.bad),
            "forgotten": len(snap.tombstones),
            "claude_memory": sum(1 for a in candidates if is_claude_memory(a))}  # fmt: skip


def _tier_findings(repo: git.Repo, data: dict[str, Any], held: dict[str, Any], l3: dict[str, Any],
                   refused: dict[str, tiers.TooManyAtomsError]) -> None:  # fmt: skip
    """What makes L2's and L3's counts or injection not what a reviewer saw, added to
    data["L2"] and data["L3"]: a log refused, lines the guard refuses, the block's findings."""
    for tier in ("L2", "L3"):
        data[tier]["log_refused"] = problem_of(refused.get(tier))
    # Adopted lines the guard refuses (a --no-verify, a cherry-pick): never rendered by
    # `validate --fix` nor injected at session start; `validate --fix` drops them.
    data["L2"]["refused_by_guard"] = guarded.refused(held.values())
    data["L3"]["refused_by_guard"] = guarded.refused(l3.values())
    for tier, tier_atoms, root in (("L2", held, repo.workdir), ("L3", l3, memory_home_dir())):
        data[tier].update(_block_findings(repo, tier, tier_atoms, root, tier in refused))


def _block_file(repo: git.Repo, tier: str) -> str:
    """The file a tier's block is rendered in (L2's is configurable: target_file)."""
    return target_file(repo) if tier == "L2" else "CLAUDE.memory.md"


def _block_findings(repo: git.Repo, tier: str, tier_atoms: dict[str, Any], root: Any, log_refused: bool,
                    ) -> dict[str, list[str]]:  # fmt: skip
    """The block against its log, a merge conflict in the memory files, and the files git does
    not see (sparse checkout, or skip-worktree set by hand)."""
    # The block is what a reviewer saw: a log line it does not show is never injected, and a
    # block line without its log line is not memory agent-memory holds (committed/reviewed.py).
    items = reviewed.file_items(root, tier) if root is not None and not log_refused else []
    unrendered, unlogged = reviewed.disagreement(tier_atoms, items, tier)
    out: dict[str, list[str]] = {"not_in_block": unrendered, "not_in_log": unlogged}
    # A pull that stopped on a conflict in the memory files: say so, not only "edited by hand".
    conflict = merge_conflict(root, _block_file(repo, tier)) if root else None
    out["unmerged"] = conflict[0] if conflict else []
    # Left out of a sparse checkout: read as empty, so the counts above say nothing.
    left_out = git.hidden_from_status(root, [tiers.LOG_RELPATH, _block_file(repo, tier)]) if root and os.path.exists(
        os.path.join(root, ".git")) else {}  # fmt: skip
    skipped = sorted(p for p, how in left_out.items() if how == "skip-worktree")
    # skip-worktree outside a sparse checkout was set by hand (adoption/adopt.hidden_problem):
    # `git sparse-checkout add` is refused there, the mark itself is what to undo
    sparse = bool(skipped) and root is not None and git.sparse_checkout(root)
    out["sparse_left_out"] = skipped if sparse else []
    out["skip_worktree"] = [] if sparse else skipped
    return out


def _claude_hooks(repo: git.Repo) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Each Claude Code hook event of ours: installed, and switched off by its variable; and the
    handlers that mention our hook and are not ours (`curl … | sh; git-memory hook …`)."""
    if repo.workdir is None:
        return {}, {}
    from agent_memory.claude.settings import claude_hooks_report

    installed, not_ours = claude_hooks_report(repo.workdir)
    hooks = {event: {"installed": bool(on), "disabled_by_env": os.environ.get(HOOK_ENV[event]) == "0"}
             for event, on in installed.items() if event in HOOK_ENV}
    return hooks, not_ours


def _path_state() -> dict[str, Any]:
    """Claude Code runs `git memory hook …` from its own PATH: off PATH, the hooks do nothing.
    It runs them in the project's folder: a PATH entry that is not absolute (`.`, an empty one,
    `.venv/bin`) finds a `git-memory` a cloned repository commits before ours, on every prompt."""
    from agent_memory.model.programs import program

    entries = os.environ.get("PATH", "").split(os.pathsep)
    return {"path_not_absolute": list(dict.fromkeys(e for e in entries if not os.path.isabs(e))),
            "on_path": program("git-memory") is not None}


def _setup_uncommitted(repo: git.Repo) -> list[str]:
    """The setup files init wrote that are not in git (init without --yes, or a file of the
    person's that `init --yes` left out), and a CLAUDE.md whose committed version lacks the
    import init added: until they are committed, a teammate's Claude Code loads no
    CLAUDE.memory.md and runs none of the hooks. (Other edits of these files are the person's
    business: not said.)"""
    from agent_memory.committed.install import MEMORY_FILE, SETUP_FILES
    from agent_memory.gitio.state import read_regular_file
    from agent_memory.model.policy import MAX_BLOCK_FILE_BYTES

    if repo.workdir is None:
        return []
    states = git.porcelain_states(repo, [rel for rel in SETUP_FILES if (repo.workdir / rel).exists()])
    out = []
    for rel in SETUP_FILES:
        if states.get(rel) == "??":
            out.append(rel)
        elif rel == "CLAUDE.md" and rel in states:
            path = repo.workdir / rel
            if path.is_symlink():
                continue  # a link (a clone's, to /dev/zero?) is validate's to report
            import_line = f"@{MEMORY_FILE}".encode()
            try:
                here = read_regular_file(path, limit=1 << 20)
            except OSError:
                continue
            if import_line not in here:
                continue
            # HEAD's copy is sized first: a committed CLAUDE.md of zeros (nothing in a clone) was
            # read whole. Over MAX_BLOCK_FILE_BYTES it is not read (the work tree's is read no
            # further than its first megabyte): nothing said, scan and validate name it.
            _, data = git.read_blob_at_most(repo, "HEAD", rel, MAX_BLOCK_FILE_BYTES) or (0, b"")
            if data is None:
                continue
            if import_line not in data:
                out.append(rel)
    return out


def _held(read: Callable[[], dict[str, Any]], tier: str, refused: dict[str, tiers.TooManyAtomsError],
          ) -> dict[str, Any]:  # fmt: skip
    """What `read` gives, or nothing when it refuses a log naming more atoms than anyone adopts
    (kept in `refused` under `tier`)."""
    try:
        return read()
    except tiers.TooManyAtomsError as exc:
        refused[tier] = exc
        return {}


def not_ours_lines(not_ours: dict[str, list[str]], left: str = "", next_step: str = "") -> list[str]:
    """The warning (and its hint) for each `.claude/settings.json` handler that mentions our hook
    and is not ours (claude_hooks_not_ours): status, init and deinit say it alike, each adding
    what it did with it (`left`) or what comes next (`next_step`)."""
    hint = "read what it runs, and take it out of .claude/settings.json if it is not yours" + next_step
    lines: list[str] = []
    for event, commands in not_ours.items():
        for command in commands:
            shown = command if len(command) <= 200 else command[:200] + "…"
            lines.append(f"  {colour.paint('warning:', 'refused')} .claude/settings.json: a {event} hook mentions "
                         f"ours but is not ours (Claude Code runs it as written{left}): {shown!r}")  # fmt: skip
            lines.append(f"    {colour.paint('hint:', 'hint')} {hint}")
    return lines


def _interrupted(repo: git.Repo) -> dict[str, Any] | None:
    """The memory commit a killed command left half done in THIS work tree (its record is in
    the work tree's own git dir; a linked work tree's is its own): the counts below read its
    half-written files."""
    try:
        found = intent.interrupted(repo)
    except RepoStateError as exc:
        return {"atom": None, "subject": None, "error": exc.message, "hint": exc.hint}
    return None if found is None else {"atom": found.atom, "subject": found.subject}


def _auto_memory(repo: git.Repo) -> dict[str, Any] | None:
    """Claude Code's own memory folder for this project, and how many guard findings it holds
    (the client loads its MEMORY.md every session)."""
    from agent_memory.automemory.location import resolve_auto_memory_dir
    from agent_memory.automemory.scan import findings_count

    try:
        folder = resolve_auto_memory_dir(repo.workdir or repo.common_dir).path
        if not folder.is_dir():
            return None
        linked = folder.is_symlink()  # a finding: capture, scan and extract read nothing through it
        return {"folder": str(folder), "findings": findings_count(folder, repo.common_dir), "symlink": linked}
    except OSError:
        return None


def not_captured(repo: git.Repo, atoms: Any) -> int:
    """This project's transcripts no capture has read (`capture --all`'s backlog)."""
    root = repo.workdir or repo.common_dir
    known = {s for a in atoms for s in a.get("sessions", [])}
    # A transcript another repository recorded under this one's slug is never its backlog.
    return len(transcripts_of(root, ledger.not_captured(repo.common_dir, find_transcripts(root), known)))


def run(args: argparse.Namespace) -> Report:
    repo = repo_here()
    data = collect(repo)
    if not data["initialised"]:
        _not_initialised(repo, data)
    report = Report(data)
    _text(report, data)
    return report


_TRACEBACK = re.compile(r" \| ['\"]Traceback \(most recent call last\)")


def _not_initialised(repo: git.Repo, data: dict[str, Any]) -> None:
    """No memory/atoms: exit 3 with `git memory init` as the way on (CLI.md: "not initialised"
    is repository state), as every verb that needs the store says it; JSON gets the error
    object. It said so with exit 0 and `initialised: false`, which a script took for a set-up
    repository. A stale lock (a first capture or init killed during its ref update: what the
    next init trips on) is named in the hint, removing it first (a verb returns its report or
    raises; it prints nothing itself)."""
    try:
        L1Store(repo).require()
    except RepoStateError as err:
        locks = data["stale_locks"]
        if type(err) is not RepoStateError or not locks:
            raise
        raise RepoStateError(err.message, hint=f"{locks[0]['hint']}; then run `git memory init`") from None


def _text(report: Report, data: dict[str, Any]) -> None:
    # The lines come in the order a reader acts on them: what is wrong with the store, the
    # counts, the tiers' warnings, what waits, the hooks, then the machine's setup and errors.
    report.say(f"project {data['project']}")
    _say_removed_and_problems(report, data)
    _say_counts(report, data)
    for tier in ("L2", "L3"):
        _say_tier_warnings(report, tier, data[tier])
    _say_backlog(report, data)
    _say_staged(report, data)
    _say_hooks(report, data)
    _say_auto_memory(report, data.get("auto_memory") or {})
    _say_path(report, data)
    _say_errors(report, data["errors"])


def _say_removed_and_problems(report: Report, data: dict[str, Any]) -> None:
    """A `deinit` here, the store's own problems (stale locks, a rewound store, a foreign
    review branch), and a memory commit a killed command left half done."""
    if not data["set_up"]:
        report.say("  agent-memory was removed here (`git memory deinit`): no hook captures, guards or injects; "
                   "memory/atoms and the committed memory are kept")  # fmt: skip
        report.say(f"    {colour.paint('hint:', 'hint')} `git memory init` sets it up again")
    for problem in [*data["stale_locks"], data["store_rewound"], data["foreign_review"]]:
        if problem:
            report.say_problem(problem)
    half = data.get("interrupted")
    if half:
        what = half.get("error") or (f"a git memory command was killed while committing {half['atom'] or half['subject']} "
                                     "in this work tree: its memory files are half done (the counts below read them)")  # fmt: skip
        report.say(f"  {colour.paint('warning:', 'refused')} {what}")
        # an unreadable record is not one adopt can finish: the way out is the error's own
        report.say(f"    {colour.paint('hint:', 'hint')} {half.get('hint') or '`git memory adopt` here finishes or rolls it back'}")


def _say_counts(report: Report, data: dict[str, Any]) -> None:
    """One line per tier: L1's candidates with what qualifies them, L2's and L3's adopted."""
    l1, l2 = data["L1"], data["L2"]
    report.say(f"  L1 {plural(l1['candidates'], 'candidate')} ({l1['eligible']} eligible, {l1['contested']} contested"
          + (f", {l1['claude_memory']} from {CLAUDE_MEMORY}" if l1["claude_memory"] else "")
          + (f", {l1['pending']} more pending until said again" if l1["pending"] else "")
          + (f", {l1['unreadable']} unreadable — run `git memory validate`" if l1["unreadable"] else "") + ")")
    report.say(f"  L2 {l2['held']} adopted ({l2['pinned']} pinned)")
    report.say(f"  L3 {data['L3']['held']} adopted (global)")


def _say_tier_warnings(report: Report, tier: str, found: dict[str, Any]) -> None:
    """What makes a tier's count or its injection not what a reviewer saw: a refused log, lines
    the guard refuses, log and block that disagree, a merge conflict, files git does not see.
    Of the last three, only the first that applies is said: each explains the next."""
    if found["log_refused"]:
        report.say_problem(found["log_refused"], lead=f"{tier}: ")
    refused = found["refused_by_guard"]
    if refused:
        report.say(f"  {colour.paint('warning:', 'refused')} {len(refused)} {tier} line(s) refused by the guard ({', '.join(sorted(refused))}): "
              "not rendered or injected — `git memory validate --fix` drops them (then commit)")  # fmt: skip
    if found["not_in_block"]:
        report.say(f"  {colour.paint('warning:', 'refused')} {len(found['not_in_block'])} {tier} log line(s) "
              f"without a rendered line in the block ({', '.join(found['not_in_block'])}): never shown "
              "to a reviewer, so never injected — `git memory validate --fix` drops them (then commit)")  # fmt: skip
    if found["unmerged"]:
        report.say(f"  {colour.paint('warning:', 'refused')} {tier}: an unresolved merge conflict in "
              f"{' and '.join(found['unmerged'])} — `git memory validate --fix` re-renders the block "
              "from .memory/adopted.log (both sides' lines), then `git add` both files and finish the merge")  # fmt: skip
    if found["sparse_left_out"]:
        report.say(f"  {colour.paint('warning:', 'refused')} {tier}: {', '.join(found['sparse_left_out'])} "
                   "left out of this sparse checkout, so its counts are not what HEAD holds — "
                   f"`git sparse-checkout add {' '.join(sorted({p.split('/')[0] for p in found['sparse_left_out']}))}`")  # fmt: skip
    elif found["skip_worktree"]:
        report.say(f"  {colour.paint('warning:', 'refused')} {tier}: {', '.join(found['skip_worktree'])} "
                   "marked skip-worktree, so git and its counts do not see what HEAD holds — "
                   f"`git update-index --no-skip-worktree -- {' '.join(found['skip_worktree'])}`")  # fmt: skip
    elif found["not_in_log"]:
        report.say(f"  {colour.paint('warning:', 'refused')} {len(found['not_in_log'])} {tier} block line(s) "
              "without a line in .memory/adopted.log (edited by hand?) — `git memory validate` lists them")  # fmt: skip


def _say_backlog(report: Report, data: dict[str, Any]) -> None:
    """What is not done yet outside the store: transcripts not captured, setup not committed."""
    if data["transcripts_not_captured"]:
        report.say(f"  {plural(data['transcripts_not_captured'], 'transcript')} of this project not captured yet "
              "— `git memory capture --all`")  # fmt: skip
    if data.get("setup_uncommitted"):
        import shlex

        paths = " ".join(shlex.quote(p) for p in data["setup_uncommitted"])
        report.say(f"  setup not committed: {', '.join(data['setup_uncommitted'])} (a teammate's Claude Code "
                   "loads no project memory and runs no hook until it is)")  # fmt: skip
        report.say(f"    {colour.paint('hint:', 'hint')} git add -- {paths} && "
                   f"git commit -m 'Set up agent-memory' -- {paths}")  # fmt: skip


def _say_staged(report: Report, data: dict[str, Any]) -> None:
    """What waits on memory/review, the commits too large to be an item, the queued batches."""
    own = sum(1 for item in data["staged"] if item.get("origin"))
    report.say(f"  staged on memory/review: {len(data['staged'])}" + (f" ({own} from {CLAUDE_MEMORY})" if own else "")
          + (" — review with `git memory adopt`" if data["staged"] else ""))
    skipped = [(c["oid"], c["bytes"]) for c in data["staged_passed_over"]]
    for line in passed_over_lines(skipped):
        report.say(f"  {colour.paint('warning:', 'refused')} {line}")
    if data["queued_batches"]:
        report.say(f"  {data['queued_batches']} queued capture batch(es): written by the next capture")


def _say_hooks(report: Report, data: dict[str, Any]) -> None:
    """Each git hook and Claude Code hook of ours (only while set up: after `deinit` they are
    gone on purpose), then the handlers that mention ours and are not ours."""
    hooks = list(data["git_hooks"].items()) if data["set_up"] else []
    for number, (name, hook) in enumerate(hooks):
        word = colour.paint("active", "ok") if hook["active"] else colour.paint(
            f"NOT ACTIVE ({hook['state']}: {hook['path']})", "refused")
        report.say(f"  git hook {name}: {word}")
        # a hint the next hook repeats word for word (core.hooksPath moves them all) is said
        # once, under the last hook it concerns
        following = hooks[number + 1][1]["note"] if number + 1 < len(hooks) else None
        if hook["note"] and hook["note"] != following:
            report.say(f"    {colour.paint('hint:', 'hint')} {hook['note']}")
    for event, state in data["claude_hooks"].items() if data["set_up"] else ():
        word = "installed" if state["installed"] else "not installed"
        if state["disabled_by_env"]:
            word += f" (disabled by {HOOK_ENV[event]}=0)"
        report.say(f"  hook {event}: {word}")
    report.say(*not_ours_lines(data["claude_hooks_not_ours"], next_step=" (init installs our own hook next to it)"))


def _say_auto_memory(report: Report, folder_state: dict[str, Any]) -> None:
    """Claude Code's own memory folder: a symlink (nothing read through it), else its findings."""
    if folder_state.get("symlink"):
        import shlex

        real = shlex.quote(os.path.realpath(folder_state["folder"]))
        report.say(f"  {colour.paint('warning:', 'refused')} {CLAUDE_MEMORY} folder {folder_state['folder']} is a symlink: "
                   "nothing is read through a link (capture, scan and extract leave it alone)")  # fmt: skip
        report.say(f"    {colour.paint('hint:', 'hint')} to check what it points to: git memory scan --auto-memory {real}")
    elif folder_state.get("findings"):
        report.say(f"  {colour.paint('warning:', 'refused')} {CLAUDE_MEMORY} folder has {folder_state['findings']} guard finding(s) "
              "(secrets, personal data, machine paths) — `git memory scan --auto-memory`")  # fmt: skip


def _say_path(report: Report, data: dict[str, Any]) -> None:
    """PATH entries a hook could be hijacked through (said only while a hook is installed), and
    a git-memory the hooks cannot find."""
    if data["path_not_absolute"] and any(state["installed"] for state in data["claude_hooks"].values()):
        shown = ", ".join(repr(e) if e else "'' (empty: the current folder)" for e in data["path_not_absolute"])
        report.say(f"  {colour.paint('warning:', 'refused')} PATH holds {shown}, not absolute: Claude Code runs "
                   "the hooks in the project's folder, where a git-memory the repository commits there runs "
                   "in place of ours")  # fmt: skip
        report.say(f"    {colour.paint('hint:', 'hint')} make those PATH entries absolute (or drop them) in the "
                   "shell Claude Code starts from")  # fmt: skip
    if not data["on_path"]:
        report.say("  warning: git-memory is not on PATH, so Claude Code's hooks cannot run it "
              "(hint: install agent-memory where your shell and Claude Code find it, e.g. pipx install .)")


def _say_errors(report: Report, errors: list[str]) -> None:
    """The last five errors of the week, each cut before its traceback."""
    if not errors:
        return
    report.say(f"  errors in the last 7 days ({len(errors)}):")
    shown = errors[-5:]
    # An internal error's line carries its whole traceback (one repr'd string, thousands
    # of characters): the text shows what failed; the log keeps the rest (JSON: whole lines).
    short = [_TRACEBACK.split(line, maxsplit=1)[0] for line in shown]
    for line in short:
        report.say(f"    {line}")
    if short != shown:
        report.say("    (tracebacks in .git/agent-memory/errors.log)")
