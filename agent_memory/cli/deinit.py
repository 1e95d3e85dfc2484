"""`git memory deinit [--purge] [--yes]`: undo `git memory init`.

Removes our git hooks (a hook init had chained goes back in place), our entries in
`.claude/settings.json` and `.claude/settings.local.json`, the `@CLAUDE.memory.md` import line in CLAUDE.md and the project's
registration in the global memory repo. Keeps memory/atoms and the committed memory
(CLAUDE.memory.md, .memory/adopted.log), so a later `init` carries on where this left off.
`--purge` also deletes those (asking first on a terminal; `--yes` confirms without asking)
and the `.gitignore`/`.gitattributes` lines and local state. The global memory repo and the
import of its block in ~/.claude/CLAUDE.md stay: other projects use them.

A file that is a symbolic link, or reached through one (a committed `.claude -> ~/.claude`,
`CLAUDE.md -> AGENTS.md`, a `.memory` link a pull brought in), is left alone: deinit never
writes, renames or deletes through a link. It says so in one line per file — which, and why —
(`left_alone` in the JSON) and still undoes everything else; the exit code stays 0."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from agent_memory.adoption.locks import memory_lock
from agent_memory.cli import colour
from agent_memory.cli.output import project_of, repo_here
from agent_memory.cli.report import Report
from agent_memory.committed import uninstall, worktree
from agent_memory.committed.global_repo import REGISTRY, GlobalRepo
from agent_memory.committed.install import target_file
from agent_memory.gitio import repo as git
from agent_memory.gitio.refs import ATOMS_REF, is_initialised, read_ref, unmark_initialised
from agent_memory.model.errors import FatalError, RefUnreadableError, RefusedError, RepoStateError
from agent_memory.model.home import tilde_text

SETUP_FILES = ("CLAUDE.md", ".claude/settings.json")


def _confirm(what: list[str]) -> bool:
    print("git memory deinit --purge deletes:", file=sys.stderr)
    for item in what:
        print(f"  {tilde_text(item)}", file=sys.stderr)
    sys.stderr.write("This cannot be undone from agent-memory. Delete? [y/N] ")
    sys.stderr.flush()
    answer = sys.stdin.readline().strip().lower()
    return answer in ("y", "yes")


def _keep_store_ours(common: str) -> None:
    """The memory/atoms deinit keeps is this repository's own: record it in the capture ledger
    (its `store` line) when no write of this version did, so `init` (and every verb) takes it
    back once the marker is gone — a store last written by an older version had no such line,
    and was then refused as one that came with a clone (`L1Store.refuse_if_foreign`)."""
    from agent_memory.transcripts.ledger import record_store_tip, recorded_store_tip

    tip = read_ref(common, ATOMS_REF)
    if tip is not None and is_initialised(common) and recorded_store_tip(common, ATOMS_REF) is None:
        record_store_tip(common, ATOMS_REF, tip)


def _cloned_refs(repo: git.Repo) -> dict[str, str]:
    """memory/atoms and memory/review among this repository's branches that are not its own
    (ref → why): they came with a bare or mirror clone, or a fetch into refs/heads, as init and
    the verbs tell them (`L1Store.refuse_if_foreign`, `review.foreign_review`). `--purge`
    deleted them with the rest, the author's branches gone with no word; they are kept. Read
    before deinit takes the init marker away (what tells this repository's store its own)."""
    from agent_memory.promote.review import foreign_review
    from agent_memory.store.l1 import L1Store

    cloned: dict[str, str] = {}
    store = L1Store(repo)
    try:
        store.refuse_if_foreign()
    except RepoStateError:
        cloned[git.ATOMS_REF] = "`git memory init` never ran in this repository and agent-memory never wrote on it"
    try:
        # a review whose items the cloned store holds is no more this repository's than the store
        if foreign_review(repo, None if cloned else store):
            cloned[git.REVIEW_REF] = "no `git memory stage` of this repository wrote it"
    except FatalError:  # unreadable: deleted with the rest, as ever
        pass
    return cloned


def _refuse_unreadable_settings(root: Path) -> None:
    """A `.claude/settings.json` our hooks cannot be taken out of (unparsable, or a `hooks`
    that is not an object of lists) stops deinit before it changes anything: found when it came
    to remove them, the git hooks were gone and the repository was marked removed already,
    with the rest left in place and a hint naming `init --no-claude-hooks`."""
    from agent_memory.claude.settings import SETTINGS_RELPATH, check_settings

    if worktree.odd_component(root, SETTINGS_RELPATH.as_posix()):
        return  # a link or odd path: left alone below, and said so
    try:
        check_settings(root)
    except RepoStateError as exc:
        raise RepoStateError(f"{exc.message.removesuffix('; left unchanged')}; nothing was changed",
                             hint="fix the file by hand, then run `git memory deinit` again") from None


def run(args: argparse.Namespace) -> Report:
    # The steps run in init's reverse, each through a helper: refuse first (nothing changed),
    # then the marker, the git hooks, the Claude Code setup, the global registration, and what
    # is kept or purged — the order matters, a refusal half way must leave the rest in place.
    repo = repo_here()
    project = project_of(repo)
    target = target_file(repo)
    cloned = _cloned_refs(repo)
    if args.purge and not args.yes:
        _confirm_purge(repo, target, cloned)

    steps: dict[str, Any] = {}
    left: dict[str, str] = {}  # path → why it was left alone (a link, or reached through one)
    if repo.workdir is not None:
        _refuse_unrewritable(repo.workdir)
    _keep_store_ours(str(repo.common_dir))
    unmark_initialised(str(repo.common_dir))  # the Claude Code hooks stop acting here
    _remove_git_hooks(repo, steps, left)
    changed: list[str] = []
    not_ours: dict[str, list[str]] = {}
    if repo.workdir is not None:
        not_ours = _remove_claude_setup(repo.workdir, steps, left, changed)
    _unregister(repo, steps, left)
    if args.purge:
        gone, purge_left = uninstall.purge(repo, target, keep=set(cloned))
        left.update(purge_left)
        if gone:
            steps["purged"] = ", ".join(gone)
    else:
        _say_kept(repo, target, cloned, steps)
    if cloned:  # never deleted by --purge: not this repository's
        shown = ", ".join(ref.removeprefix("refs/heads/") for ref in cloned) + " (came with the clone)"
        steps["kept"] = f"{steps['kept']}; {shown}" if "kept" in steps else shown

    report = Report({"project": project, "changed": steps, "files": changed, "purged": bool(args.purge),
                     "left_alone": left, "claude_hooks_not_ours": not_ours,
                     "kept_cloned": {ref.removeprefix("refs/heads/"): why for ref, why in cloned.items()}})  # fmt: skip
    from agent_memory.cli.status import not_ours_lines

    warnings = not_ours_lines(not_ours, left="; left as it is, only ours was removed")
    _warn_left_alone(report, left, cloned if args.purge else {})
    if set(steps) <= {"kept"}:
        return report.say("agent-memory is not set up here; nothing changed."
                          + (f" Kept: {steps['kept']}" if steps else ""), *warnings)
    candidates = changed + ([target, ".memory/adopted.log", ".gitignore", ".gitattributes"] if args.purge else [])
    report.later.append(lambda report: _removed_text(report, repo, project, steps, warnings, candidates))
    return report


def _confirm_purge(repo: git.Repo, target: str, cloned: dict[str, str]) -> None:
    """Ask before `--purge` deletes anything (refused with no terminal to ask): the list names
    what goes, never the branches that came with a clone (those are kept)."""
    doomed = [what for ref, what in ((git.ATOMS_REF, "memory/atoms (every L1 candidate atom and its history)"),
                                     (git.REVIEW_REF, "memory/review")) if ref not in cloned]  # fmt: skip
    if repo.workdir is not None:
        doomed += [f"{target if target != 'CLAUDE.md' else 'the memory block in CLAUDE.md'}, "
                   ".memory/adopted.log (committed memory: the deletion is left for you to commit)",
                   "the agent-memory lines of .gitignore and .gitattributes"]
    doomed.append(".git/agent-memory/ (error log, caches) and the memory.* git config")
    if not sys.stdin.isatty():
        raise RefusedError("--purge deletes memory/atoms and the committed memory, and there is no terminal to ask",
                           hint="confirm with `git memory deinit --purge --yes`, or drop --purge to keep them")
    if not _confirm(doomed):
        raise RefusedError("nothing was changed", hint="without --purge, deinit keeps memory/atoms and committed memory")


def _plain(left: dict[str, str], root: Path, rel: str, shown: str | None = None) -> bool:
    """Whether `rel` under `root` is a plain path deinit may write; a link (or a path reached
    through one) is recorded in `left` with why, under `shown` or `rel`."""
    why = worktree.odd_component(root, rel)
    if why:
        left[shown or rel] = why
    return why is None


def _refuse_unrewritable(root: Path) -> None:
    """Stop before anything changes when a file deinit must rewrite cannot be: an unreadable
    `.claude/settings.json`, or a CLAUDE.md too large to read whole (to take the import line,
    or with --purge the block, out of it). A link is left alone below, unread."""
    _refuse_unreadable_settings(root)
    worktree.refuse_too_large_to_rewrite(
        root, [] if worktree.odd_component(root, "CLAUDE.md") else ["CLAUDE.md"],
        "deinit", "read it whole to take its import line out; nothing was changed")


def _remove_git_hooks(repo: git.Repo, steps: dict[str, Any], left: dict[str, str]) -> None:
    """Our git hooks out (a hook init chained goes back); a hooks folder that is a link is left
    alone, and then no hook is reported as removed."""
    linked_hooks = uninstall.linked_hooks_folder(repo)
    if linked_hooks is not None:
        left[linked_hooks[0] + "/"] = linked_hooks[1]
    for hook, status in uninstall.uninstall_git_hooks(repo).items():
        if status not in ("not installed", "left alone (not ours)") and linked_hooks is None:
            steps[f"git hook {hook}"] = status


def _remove_claude_setup(root: Path, steps: dict[str, Any], left: dict[str, str], changed: list[str],
                         ) -> dict[str, list[str]]:  # fmt: skip
    """Our Claude Code hooks, the claudeMdExcludes entry and CLAUDE.md's import line out of the
    work tree (a settings file left empty goes); the handlers that mention our hook and are not
    ours are returned, left as they are."""
    from agent_memory.claude.settings import (
        LOCAL_SETTINGS_RELPATH,
        SETTINGS_RELPATH,
        claude_hooks_not_ours,
        include_memory_imports,
        remove_claude_hooks,
    )

    not_ours = claude_hooks_not_ours(root) if _plain(left, root, SETTINGS_RELPATH.as_posix()) else {}
    if _plain(left, root, SETTINGS_RELPATH.as_posix()) and remove_claude_hooks(root) == "removed":
        steps["Claude Code hooks"] = "removed from .claude/settings.json"
        changed.append(".claude/settings.json")
        _drop_if_empty(root / ".claude" / "settings.json")
    if _plain(left, root, LOCAL_SETTINGS_RELPATH.as_posix()) and include_memory_imports(root) == "removed":
        # Without our SessionStart hook the imports are how memory reaches Claude again.
        steps["memory imports"] = "loaded by Claude Code again (claudeMdExcludes entry removed)"
        _drop_if_empty(root / ".claude" / "settings.local.json")
    done = uninstall.remove_import(root) if _plain(left, root, "CLAUDE.md") else None
    if done:
        steps["CLAUDE.md"] = "import line removed" if done == "removed" else "deleted (it held only the import)"
        changed.append("CLAUDE.md")
    return not_ours


def _unregister(repo: git.Repo, steps: dict[str, Any], left: dict[str, str]) -> None:
    """The project out of the global memory repo's registry (under its lock); the global repo
    itself stays, other projects use it."""
    home = GlobalRepo.default()
    if home.exists() and _plain(left, home.path, REGISTRY, shown=str(home.path / REGISTRY)):
        with memory_lock(home.repo(), what="unregister this project from the global memory repo"):
            name = uninstall.unregister(home, repo.workdir or repo.common_dir)
        if name:
            steps["global repo"] = f"unregistered {name} from {home.path}"


def _say_kept(repo: git.Repo, target: str, cloned: dict[str, str], steps: dict[str, Any]) -> None:
    """Without --purge: the branches and committed memory files kept, that --purge would delete
    (the branches that came with a clone are said apart)."""
    kept = [r.removeprefix("refs/heads/") for r in (git.ATOMS_REF, git.REVIEW_REF) if _kept(repo, r) and r not in cloned]
    if repo.workdir is not None:
        kept += [p for p in (target, ".memory/adopted.log") if (repo.workdir / p).exists()]
    if kept:
        steps["kept"] = ", ".join(kept) + " (delete them with --purge)"


def _warn_left_alone(report: Report, left: dict[str, str], cloned_kept: dict[str, str]) -> None:
    """One line per file left alone, whatever the output: a script must see what was not undone
    either. And, under --purge, each branch of someone else's kept (never deleted without a word)."""
    report.warn(*(f"left {rel} alone: {why}, and deinit writes nothing through a link" for rel, why in left.items()))
    for ref, why in cloned_kept.items():
        name = ref.removeprefix("refs/heads/")
        report.warn(f"kept {name}: it came with the clone or a fetch ({why}), so it is someone else's, "
                    "not deleted by --purge", f"hint: to delete it anyway: git branch -D {name}")  # fmt: skip


def _removed_text(report: Report, repo: git.Repo, project: str, steps: dict[str, Any], warnings: list[str],
                  candidates: list[str]) -> None:  # fmt: skip
    """The text of a deinit that changed something. It asks git about the files (one call), so
    it runs for people only (Report.later), not for JSON."""
    report.say(f"agent-memory removed from project {colour.paint(project, 'heading')}:")
    report.say(*(f"  {key}: {value}" for key, value in steps.items()), *warnings)
    states = git.porcelain_states(repo, dict.fromkeys(candidates)) if repo.workdir is not None else {}
    pending = [p for p in dict.fromkeys(candidates) if p in states]
    if pending:
        # `-- paths` on the commit too: a change the person had staged stays out of it.
        paths = " ".join(pending)
        report.say(f"{colour.paint('next:', 'hint')} commit it: git add -A -- {paths} && "
                   f"git commit -m 'Remove agent-memory' -- {paths}")
    report.say("the global memory repo and ~/.claude/CLAUDE.md's import of it stay (other projects use them)")


def _drop_if_empty(path: Path) -> None:
    """A settings file left as `{}` held only our hooks (init created it): delete it, and its
    folder when nothing else is there."""
    try:
        if json.loads(path.read_text("utf-8")) != {}:
            return
    except (OSError, ValueError):
        return
    path.unlink()
    try:
        path.parent.rmdir()
    except OSError:
        pass


def _kept(repo: git.Repo, ref: str) -> bool:
    """Whether `ref` is there to keep: a damaged one is (deinit reports, it never repairs)."""
    try:
        return git.ref_target(repo, ref) is not None
    except RefUnreadableError:
        return True
