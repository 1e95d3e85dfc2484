"""`git memory init`: create memory/atoms, install the git hooks (chaining existing ones), the
.gitignore/.gitattributes lines and the CLAUDE.md import, the Claude Code hooks, and register
the project in the global memory repo. Idempotent: a second run changes nothing."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from pathlib import Path

from agent_memory.adoption.locks import memory_lock
from agent_memory.cli.output import repo_here
from agent_memory.cli.report import Report
from agent_memory.committed import install, worktree
from agent_memory.committed.global_repo import GlobalRepo, install_user_import
from agent_memory.committed.project_name import derived_name
from agent_memory.gitio import repo as git
from agent_memory.gitio.refs import mark_initialised
from agent_memory.model.controls import (
    MAX_PROJECT_CHARS,
    argv_text,
    plain_name,
)
from agent_memory.model.errors import RefusedError, RepoStateError, UsageError
from agent_memory.model.words import plural
from agent_memory.store.l1 import L1Store

SETUP_FILES = install.SETUP_FILES


def run(args: argparse.Namespace) -> Report:
    # Every refusal comes before the first write; then the global repo, the store and the git
    # hooks, the work tree's setup, its commit (--yes), and the report — one helper per step,
    # in this order (a refusal half way must leave nothing written).
    repo = repo_here()
    steps: dict[str, str] = {}
    not_ours: dict[str, list[str]] = {}
    _refuse_before_writing(repo, args)
    home = GlobalRepo.default()
    if home.exists():
        home.refuse_links()  # before the first write here too: it is pulled from a remote
    if args.project:
        try:  # a UTF-8 terminal's bytes in a locale that is not UTF-8 (LC_ALL=C) are its characters
            args.project = argv_text(args.project)
        except ValueError:
            pass  # bytes that are not UTF-8: refused below
        _refuse_another_name(repo, home, args.project)
    if not home.exists() and home.ensure():
        steps["global repo"] = f"created {home.path}"
    # From the registry's read to its commit, one init (or deinit, or adopt --global) at a time:
    # two projects set up together both read projects.json, and the second `git commit` met the
    # first's index.lock (init stopped half-way), or one name was given to two repositories.
    with memory_lock(home.repo(), what="register this project in the global memory repo"):
        name = _register(args, repo, home, steps)
    if install_user_import(home):
        steps["user CLAUDE.md"] = "imports the global memory block"
    _install_store_and_git_hooks(repo, steps)

    changed_files: list[str] = []
    persons, record_created = _persons_own_setup_files(repo)
    if repo.workdir is not None:
        changed_files += install.install_ignore_rules(repo.workdir)
        target = install.target_file(repo)
        if install.install_import(repo.workdir, target):
            changed_files.append("CLAUDE.md")
        if not args.no_claude_hooks:
            not_ours = _install_claude_setup(repo, repo.workdir, args.force, steps, changed_files)
        if changed_files:
            steps["files"] = ", ".join(changed_files)
        record_created()
        if args.yes:
            _commit_setup(repo, repo.workdir, persons, steps)
    else:
        steps["bare repository"] = "L1 store only: no work tree for CLAUDE.md, .gitignore or Claude Code hooks"
    if args.completion:
        _install_completion(args.completion, steps)
    return _report(repo, name, home, steps, not_ours, commit_next=bool(steps and changed_files and not args.yes),
                   changed_files=changed_files)  # fmt: skip


def _refuse_before_writing(repo: git.Repo, args: argparse.Namespace) -> None:
    """Refuse before writing anything where a store existed and cannot be read or is lost, and
    where the commit of --yes would start a new root over a branch git cannot read; where a
    setup file is a link or odd path, or a settings file cannot be read."""
    store = L1Store(repo)
    store.refuse_if_lost()
    store.refuse_if_foreign()
    from agent_memory.promote.review import refuse_foreign_review

    # and the author's memory/review come without their store (the clone's staged items)
    refuse_foreign_review(repo, store, "nothing was changed", "git memory init")
    _refuse_taken_ref_names(repo)
    if args.yes and repo.workdir is not None:
        git.check_head(repo.git_dir, repo.common_dir)
    if repo.workdir is not None:
        _refuse_unsafe_targets(repo, claude_hooks=not args.no_claude_hooks)
        _refuse_foreign_memory_paths(repo)
    if repo.workdir is not None and not args.no_claude_hooks:
        # Refuse before writing anything: a settings file we cannot read stops init whole.
        from agent_memory.claude.settings import check_settings, read_local_settings

        check_settings(repo.workdir)
        read_local_settings(repo.workdir)


def _install_store_and_git_hooks(repo: git.Repo, steps: dict[str, str]) -> None:
    """memory/atoms, the marker the Claude Code hooks act on, and the git hooks."""
    if L1Store(repo).init():
        steps["memory/atoms"] = "created (local only; the pre-push hook refuses to push it)"
    # The Claude Code hooks act only where this marker is (inside .git: no clone carries it).
    mark_initialised(str(repo.common_dir))
    for hook, status in install.install_git_hooks(repo).items():
        if status != "unchanged":
            steps[f"git hook {hook}"] = status


def _install_claude_setup(repo: git.Repo, workdir: Path, force: bool, steps: dict[str, str],
                          changed_files: list[str]) -> dict[str, list[str]]:  # fmt: skip
    """The Claude Code hooks (unless the plugin provides them), the ignore line of the local
    settings, and the claudeMdExcludes entry; returns the handlers that mention our hook and
    are not ours."""
    from agent_memory.claude.settings import (
        exclude_memory_imports,
        install_claude_hooks,
        plugin_enabled,
    )

    if plugin_enabled(workdir):
        # The plugin's hooks already run; identical settings hooks would fire twice.
        steps["Claude Code hooks"] = "provided by the agent-memory plugin (settings left alone)"
    elif install_claude_hooks(workdir, force=force) != "unchanged":
        changed_files.append(".claude/settings.json")
    not_ours = _not_ours(repo)
    # The SessionStart hook carries the memory blocks here: the client must not load
    # them a second time through the imports (docs/claude-code-integration.md §8).
    if install.ignore_local_settings(workdir):
        changed_files += [] if ".gitignore" in changed_files else [".gitignore"]
    from agent_memory.automemory.location import LOCAL_SETTINGS_REL, tracked_by_git

    if tracked_by_git(workdir, LOCAL_SETTINGS_REL):
        # The repository commits the "local" file: editing it would change a tracked file.
        steps["memory imports"] = (f"{LOCAL_SETTINGS_REL} is tracked by git: left unchanged "
                                   "(claudeMdExcludes not added; untrack it to let init add it)")
    elif exclude_memory_imports(workdir) == "added":
        steps["memory imports"] = ("left to the SessionStart hook on this machine "
                                   "(claudeMdExcludes in .claude/settings.local.json)")
    return not_ours


def _commit_setup(repo: git.Repo, workdir: Path, persons: set[str], steps: dict[str, str]) -> None:
    """--yes: commit every setup file that differs from HEAD, not only this run's (a run that
    was refused half-way, or `init` without --yes earlier, is completed here) — but never a
    file of the person's that was not in git before init."""
    states = git.porcelain_states(repo, [p for p in SETUP_FILES if (workdir / p).exists()])
    pending = [p for p in SETUP_FILES if p in states]
    own = [p for p in pending if p in persons]
    pending = [p for p in pending if p not in persons]
    if pending:
        git.commit_paths(workdir, pending, "Set up agent-memory")
        steps["committed"] = ", ".join(pending)
    if own:
        steps["left uncommitted"] = (f"{', '.join(own)}: yours and not in git before init "
                                     "(commit it yourself if it is to be shared)")


def _install_completion(shell: str, steps: dict[str, str]) -> None:
    """Only when asked: it writes into the user's home, not the repository."""
    from agent_memory.cli import completion

    where, changed = completion.install(shell)
    if changed:
        hint = completion.activation_hint(shell, where)
        steps[f"{shell} completion"] = f"installed in {where}" + (f" ({hint})" if hint else "")


def _report(repo: git.Repo, name: str, home: GlobalRepo, steps: dict[str, str], not_ours: dict[str, list[str]],
            commit_next: bool, changed_files: list[str]) -> Report:  # fmt: skip
    """What changed, the handlers not ours, and what comes next: the commit of the setup (when
    not --yes) and the backfill of the sessions Claude Code already recorded here."""
    from agent_memory.cli.status import not_captured, not_ours_lines

    backlog = not_captured(repo, L1Store(repo).atoms())
    report = Report({"project": name, "changed": steps, "global_repo": str(home.path),
                     "transcripts_not_captured": backlog, "claude_hooks_not_ours": not_ours})  # fmt: skip
    if not steps:
        report.say(f"agent-memory is already set up for {name}; nothing changed.")
    else:
        report.say(f"agent-memory set up for project {name}:", *(f"  {key}: {value}" for key, value in steps.items()))
    report.say(*not_ours_lines(not_ours, left="; left as it is, our own hook is its own handler"))
    if commit_next:
        # `-- paths` on the commit too: a change the person had staged stays out of it, as
        # `init --yes` leaves it out.
        paths = " ".join(changed_files)
        report.say(f"next: commit the setup: git add -- {paths} && git commit -m 'Set up agent-memory' -- {paths}")
    if backlog:
        # The sessions Claude Code already recorded here are read by a backfill, not by init.
        report.say(f"{'then' if commit_next else 'next'}: `git memory capture --all` reads the "
                   f"{plural(backlog, 'Claude Code session')} of this project so far")
    return report


_CREATED_RECORD = "setup-files-created.json"


def _persons_own_setup_files(repo: git.Repo) -> tuple[set[str], Callable[[], None]]:
    """The setup files the person had in the work tree, not in git, before any init wrote them:
    `init --yes` commits the setup, and committed them whole with it — a CLAUDE.md of private
    notes, a .claude/settings.json whose `env` holds a token — where it only meant to commit the
    lines it added. The files an init creates are recorded (in .git/agent-memory/), so a later
    `init --yes` still commits what an earlier run without --yes made."""
    import json

    from agent_memory.gitio.state import state_dir

    if repo.workdir is None:
        return set(), lambda: None
    record = state_dir(repo.common_dir) / _CREATED_RECORD
    try:
        created = set(json.loads(record.read_text("utf-8")))
    except (OSError, ValueError, TypeError):
        created = set()
    here = {p for p in SETUP_FILES if (repo.workdir / p).exists()}
    untracked = {p for p, state in git.porcelain_states(repo, here).items() if state == "??"}
    # (an empty file, or settings of `{}`, holds nothing of the person's to keep out)
    said = {p for p in untracked if _has_content(repo.workdir / p)}
    return said - created, lambda: _record_created(record, created, here, repo.workdir)


def _has_content(path: Path) -> bool:
    import stat

    from agent_memory.gitio.state import read_regular_file

    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return True  # a link or odd file: init leaves those alone (worktree.odd_component)
        return read_regular_file(path, limit=4096).strip() not in (b"", b"{}")
    except OSError:
        return True


def _record_created(record: Path, created: set[str], before: set[str], workdir: Path) -> None:
    """Record the setup files this run created (they were not in the work tree before it)."""
    import json

    from agent_memory.gitio.state import atomic_write

    made = {p for p in SETUP_FILES if p not in before and (workdir / p).exists()}
    if made - created:
        atomic_write(record, json.dumps(sorted(created | made)))


def _not_ours(repo: git.Repo) -> dict[str, list[str]]:
    """The handlers of .claude/settings.json that mention our hook and are not ours: left as they
    are (init writes its own next to them), and said."""
    from agent_memory.claude.settings import claude_hooks_not_ours

    return claude_hooks_not_ours(repo.workdir) if repo.workdir is not None else {}


def _register(args: argparse.Namespace, repo: git.Repo, home: GlobalRepo, steps: dict[str, str]) -> str:
    """The project's name (memory.project) and its registry entry, under the global repo's lock."""
    home.ensure()  # an existing one brought up to date (hooks, merge rules)
    # --project, else memory.project, else one name for every clone of this repository (the one
    # its committed adopted.log records, the remote's, the folder's: committed/project_name.py)
    configured = git.config_get(repo.cwd, "memory.project")
    wanted = args.project or (plain_name(configured) if configured else derived_name(repo))
    if any("\udc80" <= ch <= "\udcff" for ch in wanted):  # argv bytes that are not UTF-8
        raise UsageError(f"invalid project name {wanted!r}: it holds bytes that are not UTF-8 text",
                         hint="name it in UTF-8 (a terminal with LANG=C.UTF-8), e.g. --project my-app")
    if args.project and plain_name(wanted) != wanted:
        raise UsageError(f"invalid project name {wanted!r}: it holds a control character, a line break or an "
                         "invisible character", hint="use one line of plain text, e.g. --project my-app")
    if len(wanted) > MAX_PROJECT_CHARS and args.project:  # every atom of it would fail the schema
        raise UsageError(f"invalid project name: {len(wanted)} characters, over {MAX_PROJECT_CHARS}",
                         hint="use a shorter name, e.g. --project my-app")
    if any(ch in wanted for ch in "/\\") or not wanted.strip():
        raise UsageError(f"invalid project name {wanted!r}", hint="use a name without slashes, e.g. --project my-app")
    project_path = repo.workdir or repo.common_dir
    name = home.name_for(wanted, project_path)
    if git.config_get(repo.cwd, "memory.project") != name:
        git.config_set(repo.cwd, "memory.project", name, text=True)
        steps["project"] = f"{name}" + (f" ({wanted!r} is taken by another repository)" if name != wanted else "")
    if home.register(name, project_path):
        steps["registered"] = f"{name} in {home.path}"
    return name


def _refuse_another_name(repo: git.Repo, home: GlobalRepo, wanted: str) -> None:
    """A repository set up under one name is not renamed by `init --project OTHER`: atom ids
    and the promotion gate are per project name, so another name starts a separate memory,
    and that should be asked for, not a side effect of a re-run (which used to ignore it
    and say "nothing changed"). The same name, or the one init made of it when another
    repository held it, is the idempotent re-run."""
    project_path = repo.workdir or repo.common_dir
    current = git.config_get(repo.cwd, "memory.project") or home.registered_name(project_path)
    if not current or wanted == current or home.unregistered_name(wanted, project_path) == current:
        return
    raise RefusedError(f"this repository is set up as project {current!r}; --project {wanted!r} would start a "
                       "separate memory, so nothing changed",
                       hint=f"to start over as {wanted!r} on purpose (what was learned as {current!r} stays under "
                            f"that name): `git memory deinit`, `git config memory.project {wanted}`, "
                            "then `git memory init`")  # fmt: skip


def _refuse_unsafe_targets(repo: git.Repo, *, claude_hooks: bool) -> None:
    """Before the first write: a cloned repository may commit links (`.gitattributes ->
    ~/.gitconfig`, `.claude -> ~/.claude`) that would have init write outside it. Every file
    init writes in the work tree, and the hooks folder when the work tree holds it, must be
    plain (committed/worktree.py); all are checked at once, so a refusal leaves nothing
    half-done. The writers check again on their own."""
    from agent_memory.claude.settings import LOCAL_SETTINGS_RELPATH, SETTINGS_RELPATH

    assert repo.workdir is not None
    root = repo.workdir
    files = [".gitignore", ".gitattributes"]
    if install.target_file(repo) == install.MEMORY_FILE:
        files.append("CLAUDE.md")  # the import line goes there
    claude = [SETTINGS_RELPATH.as_posix(), LOCAL_SETTINGS_RELPATH.as_posix()] if claude_hooks else []
    hooks = install.hooks_folder_in_worktree(repo)
    odd = [rel for rel in files + claude if worktree.odd_component(root, rel)]
    if hooks is not None and worktree.odd_component(root, hooks, folder=True):
        odd.append(hooks)
    # before the first write: init reads each whole and writes it back with a line added
    worktree.refuse_too_large_to_rewrite(root, [rel for rel in files if rel not in odd], "init",
                                         "read it whole and write it back; nothing was written")
    if not odd:
        return
    hints = []
    if "CLAUDE.md" in odd and (root / "CLAUDE.md").is_symlink():
        hints.append(worktree.CLAUDE_MD_LINK_HINT)
    if all(rel in claude for rel in odd):
        hints.append("run `git memory init --no-claude-hooks` to leave .claude/ alone")
    hints.append(worktree.LINK_HINT)
    worktree.refuse_odd_paths(root, files + claude, folders=[hooks] if hooks else [],
                              hint="; or ".join(hints) + "; nothing was written")


def _refuse_taken_ref_names(repo: git.Repo) -> None:
    """git keeps a branch `memory` (or `memory/atoms/x`) as a file where memory/atoms and
    memory/review would need a folder (or the reverse): neither can be made next to it. init
    made no store there and said nothing, marked the repository set up, and every verb after
    refused it as a store lost ('find it with git fsck --lost-found'), init again the same.
    Refused before anything is written, naming the branch in the way."""
    for ref in (git.ATOMS_REF, git.REVIEW_REF):
        if git.ref_target(repo, ref) is not None:
            continue
        proc = git.run_git(repo.cwd, "for-each-ref", "--count=1", "--format=%(refname)", f"{ref}/", check=False)
        below = proc.stdout.strip()
        parent = ref.rsplit("/", 1)[0]
        taken = parent if git.ref_target(repo, parent) is not None else below
        if taken:
            name = taken.removeprefix("refs/heads/")
            raise RepoStateError(
                f"the branch {name} takes the place git needs for {ref.removeprefix('refs/heads/')} "
                "(a branch name cannot also be a folder of branches); nothing was changed",
                hint=f"rename it (git branch -m {shlex.quote(name)} NEW-NAME), then run git memory init again")


def _refuse_foreign_memory_paths(repo: git.Repo) -> None:
    """agent-memory writes `.memory/adopted.log` and the block's file: another tool's `.memory`
    file (or a link) in the work tree or on the branch memory is staged on would fail every
    staging later, so init refuses it now, before writing anything."""
    from agent_memory.committed.tiers import LOG_RELPATH
    from agent_memory.promote.review import odd_memory_path, staging_base

    assert repo.workdir is not None
    target = install.target_file(repo)
    writes = f"agent-memory writes {LOG_RELPATH} and {target}"
    again = "then run `git memory init` again; nothing was written"
    # In this order, the path that is odd is `rel` itself: `.memory` is a folder when its log
    # is checked.
    for rel, folder in ((".memory", True), (LOG_RELPATH, False), (target, False)):
        why = worktree.odd_component(repo.workdir, rel, folder=folder)
        if why:
            raise RepoStateError(f"cannot set up agent-memory here: {why} ({writes})",
                                 hint=f"move it out of the way (e.g. `git mv {rel} <another name>`, commit), {again}")
    if git.default_branch(repo) is None:
        return  # nothing committed yet: staging checks the base it builds on
    base = staging_base(repo)
    odd = odd_memory_path(repo, base.oid, target)
    if odd is not None:
        path, kind, wanted = odd
        pushed = ", push" if base.remote else ""
        raise RepoStateError(f"cannot set up agent-memory here: {path} on {base.name} is {kind}, not {wanted} ({writes})",
                             hint=f"move it out of the way on {base.branch} (e.g. `git mv {path} <another name>`, "
                                  f"commit{pushed}), {again}")  # fmt: skip
