"""The Claude Code hooks that `git memory init` writes into `.claude/settings.json`, for people
who do not install the plugin (which ships the same three hooks in `hooks/hooks.json`).

Merging never clobbers: other keys, other events, other matcher groups and other handlers are
left exactly as they were (same values, same key order); ours go in a matcher group of their own.
A file that does not parse is refused, never overwritten. Contracts (timeouts, budgets, why
SessionEnd is synchronous) are documented with sources in docs/claude-code-integration.md.
No git here: plain file I/O, so `init`, `status` and uninstall can all share it. What `init`
adds is never written through a link (committed/worktree.py): a cloned `.claude -> ~/.claude`
would put our hooks into the user's global settings.
"""

from __future__ import annotations

import copy
import json
import os
import shlex
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from agent_memory.committed.line_ends import in_line_end, line_end, split_bom, without_bom
from agent_memory.committed.worktree import refuse_odd_paths
from agent_memory.gitio.state import atomic_write, current_umask, read_regular_file
from agent_memory.model.errors import RepoStateError
from agent_memory.model.policy import MAX_SETTINGS_BYTES
from agent_memory.model.programs import program

SETTINGS_RELPATH = Path(".claude") / "settings.json"
LOCAL_SETTINGS_RELPATH = Path(".claude") / "settings.local.json"  # personal: never committed

# Where our SessionStart hook runs, it carries the memory blocks (budgeted, global before
# project, guarded, contradictions marked); the client must not load the same lines again
# through the `@…CLAUDE.memory.md` imports. One pattern, in this machine's own settings file,
# matches the project's block and the global block (both files are named CLAUDE.memory.md)
# without naming a machine path; teammates without the hooks keep the imports.
MEMORY_IMPORTS_EXCLUDE = "**/CLAUDE.memory.md"

# Claude Code event name -> the `git memory hook <event>` argument.
HOOK_EVENTS: dict[str, str] = {
    "SessionStart": "session-start",
    "UserPromptSubmit": "user-prompt-submit",
    "SessionEnd": "session-end",
}

# Seconds (Claude Code's `timeout` unit). UserPromptSubmit runs before every prompt and blocks
# it, so 1 s is the hard ceiling around our own 100 ms budget (docs/claude-code-integration.md,
# "Timeouts, budgets, async").
# SessionStart loads L2+L3 once per session. SessionEnd hooks share a 1.5 s budget that a
# settings-file `timeout` raises (up to 60 s): 5 s is headroom for a slow interpreter start,
# while our hook itself only spawns a detached capture and returns in ~100 ms.
HOOK_TIMEOUTS: dict[str, int] = {
    "SessionStart": 5,
    "UserPromptSubmit": 1,
    "SessionEnd": 5,
}

# `git-memory`, not `git memory`: the same program (git finds `git-memory` on the PATH), without
# git's dispatcher, which reads the git config and costs ~3 ms — a tenth of the hook — on every
# prompt. Handlers written as `git memory hook` by earlier versions stay ours (the markers).
DEFAULT_COMMAND_PREFIX = "git-memory hook"

# Any spelling of our entry point: a command that holds one *mentions* our hook (is_our_command),
# which does not make it ours (is_exactly_ours: what init, status and deinit go by).
OUR_COMMAND_MARKERS: tuple[str, ...] = ("git memory hook", "git-memory hook", "agent-memory-hook")

# What runs our hook, as `init` writes it (DEFAULT_COMMAND_PREFIX), as earlier versions wrote it,
# and as the plugin's hooks/hooks.json runs it: `<entry point> <event>`, `|| exit 0` or not.
OUR_ENTRY_POINTS: tuple[str, ...] = ("git-memory hook", "git memory hook",
                                     'sh "${CLAUDE_PLUGIN_ROOT}/hooks/agent-memory-hook"')  # fmt: skip

# `|| exit 0`: when git-memory is missing from the PATH Claude Code gives hooks, `git memory`
# exits 1 and Claude Code would print a hook-error notice on every prompt. Fail open instead
# (valid in sh, Git Bash and PowerShell 7 alike). Installed, `git-memory hook` always exits 0.
_FAIL_OPEN_SUFFIX = " || exit 0"


def hook_command(event: str, command_prefix: str = DEFAULT_COMMAND_PREFIX) -> str:
    """The shell command for one Claude Code event, e.g. `git-memory hook session-end || exit 0`."""
    return f"{command_prefix} {HOOK_EVENTS[event]}{_FAIL_OPEN_SUFFIX}"


def desired_hooks(command_prefix: str = DEFAULT_COMMAND_PREFIX) -> dict[str, list[dict[str, Any]]]:
    """The `hooks` entries we want: one matcher group per event, no matcher (= every source /
    reason), one synchronous command handler each.

    SessionEnd is deliberately not `async`: Claude Code kills async hooks at teardown, so the
    detached capture might never be spawned. Synchronous, Claude Code waits the ~100 ms it takes
    our hook to detach the capture and return.
    """
    return {
        event: [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": hook_command(event, command_prefix),
                        "timeout": HOOK_TIMEOUTS[event],
                    }
                ]
            }
        ]
        for event in HOOK_EVENTS
    }


def is_our_command(command: object, extra_markers: Iterable[str] = ()) -> bool:
    """Whether `command` mentions our hook anywhere (not whether it is ours: is_exactly_ours)."""
    if not isinstance(command, str):
        return False
    normalized = " ".join(command.split())
    return any(marker in normalized for marker in (*OUR_COMMAND_MARKERS, *extra_markers))


def is_exactly_ours(command: object, event: str, extra_entry_points: Iterable[str] = ()) -> bool:
    """Whether `command` is our hook for the Claude Code `event` in one of the forms we write
    (whitespace aside), and nothing else: `curl … | sh; git-memory hook session-start`
    mentions ours and is not ours (what it runs first is someone else's). The one test init,
    status and deinit go by; `extra_entry_points`: a custom prefix init was given."""
    if not isinstance(command, str) or event not in HOOK_EVENTS:
        return False
    normalized = " ".join(command.split())
    forms = (HOOK_EVENTS[event], f"{HOOK_EVENTS[event]}{_FAIL_OPEN_SUFFIX}")
    if any(normalized == f"{entry} {form}" for entry in (*OUR_ENTRY_POINTS, *extra_entry_points) for form in forms):
        return True
    return _runs_our_program(command, event)


def _runs_our_program(command: str, event: str) -> bool:
    """`/…/.venv/bin/git-memory hook <event>[ || exit 0]`, quoted or not: what a person whose
    Claude Code PATH lacks the venv writes. Ours only when that path is our own `git-memory`
    (next to this interpreter, or the one on the PATH), not any program of that name."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if words[1:] not in (["hook", HOOK_EVENTS[event]], ["hook", HOOK_EVENTS[event], "||", "exit", "0"]):
        return False
    path = words[0] if words else ""
    names = ("git-memory", "git-memory.exe")  # the venv's `Scripts\\git-memory.exe` on Windows
    if not os.path.isabs(path) or os.path.basename(path) not in names:
        return False
    ours = [*(str(Path(sys.executable).parent / name) for name in names), program("git-memory")]
    return any(_same_file(path, candidate) for candidate in ours if candidate)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _handler_commands(group: object) -> list[object]:
    if not isinstance(group, dict):
        return []
    handlers = group.get("hooks")
    if not isinstance(handlers, list):
        return []
    return [h.get("command") for h in handlers if isinstance(h, dict)]


def _group_has_ours(group: object, event: str, entry_points: Iterable[str]) -> bool:
    return any(is_exactly_ours(c, event, entry_points) for c in _handler_commands(group))


def _markers_of(desired: dict[str, Any]) -> tuple[str, ...]:
    """Entry points of the desired entries (`… hook`), so a custom prefix is recognised too."""
    markers: list[str] = []
    for groups in desired.values():
        for group in groups if isinstance(groups, list) else []:
            for command in _handler_commands(group):
                if isinstance(command, str) and " hook " in f"{command} ":
                    head = command.split(" hook ", 1)[0] + " hook"
                    markers.append(" ".join(head.split()))
    return tuple(dict.fromkeys(markers))


def _checked_hooks(settings: dict[str, Any]) -> dict[str, Any] | None:
    hooks = settings.get("hooks")
    if hooks is None:
        return None
    if not isinstance(hooks, dict):
        raise RepoStateError(
            f'{SETTINGS_RELPATH}: "hooks" is a {type(hooks).__name__}, expected an object',
            hint="fix the file by hand, or run `git memory init --no-claude-hooks` to leave it alone",
        )
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            raise RepoStateError(
                f"{SETTINGS_RELPATH}: hooks.{event} is a {type(groups).__name__}, expected a list",
                hint="fix the file by hand, or run `git memory init --no-claude-hooks` to leave it alone",
            )
    return hooks


def installed_events(settings: dict[str, Any], extra_entry_points: Iterable[str] = ()) -> list[str]:
    """Which of our events already have a handler that is exactly ours."""
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return []
    found = []
    for event in HOOK_EVENTS:
        groups = hooks.get(event)
        if isinstance(groups, list) and any(_group_has_ours(g, event, extra_entry_points) for g in groups):
            found.append(event)
    return found


def merge_hooks(
    settings: dict[str, Any], desired: dict[str, Any], *, replace_ours: bool = False
) -> tuple[dict[str, Any], bool]:
    """Add the desired matcher groups to `settings` (a copy is returned; the input is untouched).

    For each event that already has a handler of ours (is_exactly_ours), nothing changes
    (idempotence) unless `replace_ours` (`init --force`): then our old handlers are dropped, groups
    that held only ours disappear, and the desired group is appended. Nothing else is ever removed
    or altered: a handler that only mentions ours is not ours, and ours goes in next to it.
    Raises RepoStateError when `hooks` has a shape Claude Code would not accept either.
    """
    _checked_hooks(settings)
    merged = copy.deepcopy(settings)
    markers = _markers_of(desired)
    changed = False
    for event, wanted_groups in desired.items():
        hooks = merged.get("hooks")
        existing: list[Any] = hooks.get(event, []) if isinstance(hooks, dict) else []
        has_ours = any(_group_has_ours(g, event, markers) for g in existing)
        if has_ours and not replace_ours:
            continue
        if has_ours:
            kept = _without_ours(existing, event, markers)
            if kept + list(wanted_groups) == existing:
                continue
            existing = kept
        if not isinstance(merged.get("hooks"), dict):
            merged["hooks"] = {}  # missing or null: Claude Code reads both as "no hooks"
        merged["hooks"][event] = [*existing, *copy.deepcopy(wanted_groups)]
        changed = True
    return merged, changed


def _without_ours(groups: list[Any], event: str, entry_points: Iterable[str]) -> list[Any]:
    """The groups with our handlers removed; a group left with no handlers is dropped."""
    kept: list[Any] = []
    for group in groups:
        if not _group_has_ours(group, event, entry_points):
            kept.append(group)
            continue
        handlers = [
            h
            for h in group["hooks"]
            if not (isinstance(h, dict) and is_exactly_ours(h.get("command"), event, entry_points))
        ]
        if handlers:
            kept.append({**group, "hooks": handlers})
    return kept


def unmerge_hooks(
    settings: dict[str, Any], extra_entry_points: Iterable[str] = ()
) -> tuple[dict[str, Any], bool]:
    """Remove our handlers (the inverse of merge_hooks): those exactly ours, never one that only
    mentions ours. Events and the `hooks` object are dropped only when our removal emptied them;
    everything else stays as it was."""
    hooks = _checked_hooks(settings)
    if not hooks:
        return copy.deepcopy(settings), False
    merged = copy.deepcopy(settings)
    changed = False
    new_hooks: dict[str, Any] = {}
    for event, groups in merged["hooks"].items():
        if not any(_group_has_ours(g, event, extra_entry_points) for g in groups):
            new_hooks[event] = groups
            continue
        changed = True
        kept = _without_ours(groups, event, extra_entry_points)
        if kept:
            new_hooks[event] = kept
    if not changed:
        return merged, False
    if new_hooks:
        merged["hooks"] = new_hooks
    else:
        del merged["hooks"]
    return merged, True


def settings_path(repo_root: Path) -> Path:
    return Path(repo_root) / SETTINGS_RELPATH


def read_settings(path: Path) -> dict[str, Any]:
    """`{}` for a missing or empty file; RepoStateError (file untouched) for anything unparsable."""
    try:
        raw = read_regular_file(path, MAX_SETTINGS_BYTES + 1)
        if len(raw) > MAX_SETTINGS_BYTES:
            raise RepoStateError(f"{path} is over {MAX_SETTINGS_BYTES >> 20} MB, larger than any settings file; "
                                 "not read, left unchanged",
                                 hint="fix the file, or run `git memory init --no-claude-hooks` to skip the Claude Code hooks")
        # A byte-order mark first (Windows PowerShell 5.1 writes one) is no JSON: `json.loads`
        # refused the file, and init with it. Claude Code's CLI reads such a file, so we do too;
        # write_settings keeps the mark (committed/line_ends.py).
        text = without_bom(raw.decode("utf-8"))
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise RepoStateError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise RepoStateError(f"{path} is not UTF-8 text ({exc.reason}); left unchanged") from exc
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # nested too deep for json's recursive scanner
        raise RepoStateError(
            f"{path} is not valid JSON ({exc}); left unchanged",
            hint="fix the file (Claude Code cannot read it either), or run "
            "`git memory init --no-claude-hooks` to skip the Claude Code hooks",
        ) from exc
    if not isinstance(data, dict):
        raise RepoStateError(
            f"{path} holds a JSON {type(data).__name__}, expected an object; left unchanged",
            hint="fix the file, or run `git memory init --no-claude-hooks` to skip the Claude Code hooks",
        )
    return data


def write_settings(path: Path, settings: dict[str, Any]) -> None:
    """2-space indent, key order kept, trailing newline; keeps an existing file's mode (the file
    is usually committed, so a new one is 0644, not our private 0600)."""
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644 & ~current_umask()
    text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"  # (a newline in a string is `\n`)
    try:
        # A CRLF file (a Windows editor's) is written back CRLF: in "\n" every line of the
        # person's file was a change in the diff; one opening with a byte-order mark keeps it
        # (committed/line_ends.py).
        bom, current = split_bom(read_regular_file(path, MAX_SETTINGS_BYTES).decode("utf-8", "replace"))
        end = line_end(current)
    except OSError:
        bom, end = "", "\n"
    atomic_write(path, bom + in_line_end(text, end), mode=mode)


def check_settings(repo_root: Path) -> None:
    """RepoStateError (file untouched) when `.claude/settings.json` cannot take our hooks:
    unparsable, or a `hooks` that is not an object of lists. `init` asks before it writes
    anything: found only by `install_claude_hooks`, its refusal came after the store, the git
    hooks and the ignore lines were in place, under a message that said the file was left
    unchanged."""
    _checked_hooks(read_settings(settings_path(repo_root)))


def install_claude_hooks(
    repo_root: Path, *, command_prefix: str = DEFAULT_COMMAND_PREFIX, force: bool = False
) -> str:
    """Merge our hooks into `<repo_root>/.claude/settings.json`: "added" or "unchanged"."""
    refuse_odd_paths(Path(repo_root), [SETTINGS_RELPATH.as_posix()])
    path = settings_path(repo_root)
    settings = read_settings(path)
    merged, changed = merge_hooks(settings, desired_hooks(command_prefix), replace_ours=force)
    if not changed:
        return "unchanged"
    write_settings(path, merged)
    return "added"


def remove_claude_hooks(repo_root: Path) -> str:
    """Remove our handlers from `.claude/settings.json`: "removed" or "unchanged"."""
    refuse_odd_paths(Path(repo_root), [SETTINGS_RELPATH.as_posix()])  # deinit skips such a file first
    path = settings_path(repo_root)
    if not path.exists():
        return "unchanged"
    merged, changed = unmerge_hooks(read_settings(path))
    if not changed:
        return "unchanged"
    write_settings(path, merged)
    return "removed"


def read_local_settings(repo_root: Path) -> tuple[dict[str, Any], list[Any]]:
    """`.claude/settings.local.json` and its `claudeMdExcludes` list; RepoStateError (file
    untouched) when either cannot be read as Claude Code reads it."""
    path = Path(repo_root) / LOCAL_SETTINGS_RELPATH
    settings = read_settings(path)
    current = settings.get("claudeMdExcludes", [])
    if not isinstance(current, list):
        raise RepoStateError(
            f"{path}: claudeMdExcludes is not a list; left unchanged",
            hint="fix the file (Claude Code cannot read it either), or run "
            "`git memory init --no-claude-hooks` to leave the memory imports to Claude Code",
        )
    return settings, current


def exclude_memory_imports(repo_root: Path) -> str:
    """Add MEMORY_IMPORTS_EXCLUDE to `claudeMdExcludes` in `.claude/settings.local.json`:
    "added" or "unchanged". Every other key and pattern is kept as it was."""
    refuse_odd_paths(Path(repo_root), [LOCAL_SETTINGS_RELPATH.as_posix()])
    path = Path(repo_root) / LOCAL_SETTINGS_RELPATH
    settings, current = read_local_settings(repo_root)
    if MEMORY_IMPORTS_EXCLUDE in current:
        return "unchanged"
    settings["claudeMdExcludes"] = [*current, MEMORY_IMPORTS_EXCLUDE]
    write_settings(path, settings)
    return "added"


def include_memory_imports(repo_root: Path) -> str:
    """The inverse (deinit): "removed" or "unchanged"; the key goes when it held only ours."""
    refuse_odd_paths(Path(repo_root), [LOCAL_SETTINGS_RELPATH.as_posix()])
    path = Path(repo_root) / LOCAL_SETTINGS_RELPATH
    if not path.exists():
        return "unchanged"
    settings, current = read_local_settings(repo_root)
    if MEMORY_IMPORTS_EXCLUDE not in current:
        return "unchanged"
    kept = [p for p in current if p != MEMORY_IMPORTS_EXCLUDE]
    if kept:
        settings["claudeMdExcludes"] = kept
    else:
        del settings["claudeMdExcludes"]
    write_settings(path, settings)
    return "removed"



def _commands_of(repo_root: Path) -> dict[str, list[object]]:
    """{Claude Code event: the commands of its handlers} in `.claude/settings.json`; an
    unreadable file has none."""
    try:
        hooks = read_settings(settings_path(repo_root)).get("hooks")
    except RepoStateError:
        return {}
    if not isinstance(hooks, dict):
        return {}
    return {event: [c for g in groups for c in _handler_commands(g)]
            for event, groups in hooks.items() if isinstance(groups, list)}  # fmt: skip


def claude_hooks_status(repo_root: Path) -> dict[str, bool]:
    """{event: installed?} for `git memory status`: a handler whose command is exactly ours
    (is_exactly_ours); an unreadable file counts as not installed."""
    return _installed(_commands_of(repo_root))


def _installed(commands: dict[str, list[object]]) -> dict[str, bool]:
    return {event: any(is_exactly_ours(c, event) for c in commands.get(event, [])) for event in HOOK_EVENTS}


def claude_hooks_report(repo_root: Path) -> tuple[dict[str, bool], dict[str, list[str]]]:
    """claude_hooks_status and claude_hooks_not_ours from one read of `.claude/settings.json`
    (status shows both; two reads could also disagree when the file changes in between)."""
    commands = _commands_of(repo_root)
    return _installed(commands), _not_ours(commands)


def claude_hooks_not_ours(repo_root: Path) -> dict[str, list[str]]:
    """{event: commands} of the handlers in `.claude/settings.json` that mention our hook (any
    spelling of it) without being exactly ours: Claude Code runs them, and they are not ours."""
    return _not_ours(_commands_of(repo_root))


def _not_ours(by_event: dict[str, list[object]]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for event, commands in by_event.items():
        for command in commands:
            ours = event in HOOK_EVENTS and is_exactly_ours(command, event)
            if isinstance(command, str) and is_our_command(command) and not ours:
                found.setdefault(event, []).append(command)
    return found


PLUGIN_NAME = "agent-memory"


def plugin_enabled(repo_root: Path, claude_config_dir: Path | None = None) -> bool:
    """True when a settings file enables our plugin (`enabledPlugins["agent-memory@…"]`).

    Claude Code runs a plugin's handler and an identical settings-file handler separately, so
    with both in place every hook would fire twice (double injection, double capture). `init`
    can use this to skip writing settings hooks. Precedence mirrors Claude Code's: local over
    project over user.
    """
    config_dir = claude_config_dir
    if config_dir is None:
        configured = os.environ.get("CLAUDE_CONFIG_DIR")
        config_dir = Path(configured).expanduser() if configured else Path.home() / ".claude"
    candidates = [
        Path(repo_root) / ".claude" / "settings.local.json",
        Path(repo_root) / SETTINGS_RELPATH,
        config_dir / "settings.json",
    ]
    installed = installed_plugins(config_dir, Path(repo_root), provides_our_hooks)
    for path in candidates:
        try:
            settings = read_settings(path)
        except RepoStateError:
            continue
        enabled = settings.get("enabledPlugins")
        if not isinstance(enabled, dict):
            continue
        for key, value in enabled.items():
            # Only a plugin the person installed runs: a committed settings.json can name any
            # "agent-memory@<marketplace>", and taken at its word, init wrote no hooks and said
            # the plugin provides them — nothing then ran at all.
            if isinstance(key, str) and key.split("@", 1)[0] == PLUGIN_NAME and key in installed:
                return bool(value)
    return False


def installed_plugins(config_dir: Path, project: Path | None = None,
                      check: Callable[[dict[str, Any]], bool] | None = None) -> frozenset[str]:  # fmt: skip
    """The "name@marketplace" keys of the plugins Claude Code installed
    (`<config dir>/plugins/installed_plugins.json`: `{"plugins": {key: [install, …]}}`, one
    install object in older versions); none when the file is missing or unreadable.

    With `project`, only installs that run there, as the client decides (2.1.332): scope "user"
    or "managed" (or none, in older files) everywhere, a "project" or "local" install only in
    the folder its `projectPath` names — one installed for another project runs nothing here.
    `check`: what an install record must also pass (`provides_our_hooks`)."""
    try:
        data = read_settings(config_dir / "plugins" / "installed_plugins.json")
    except RepoStateError:
        return frozenset()
    plugins = data.get("plugins")
    if not isinstance(plugins, dict):
        return frozenset()
    return frozenset(key for key, installs in plugins.items()
                     if any(_runs_in(install, project) and (check is None or (isinstance(install, dict) and check(install)))
                            for install in _installs(installs)))  # fmt: skip


# The command our plugin's hooks/hooks.json gives each event (the shim the plugin ships).
PLUGIN_HOOK = 'sh "${{CLAUDE_PLUGIN_ROOT}}/hooks/agent-memory-hook" {event}'


def provides_our_hooks(install: dict[str, Any]) -> bool:
    """Whether the installed plugin's folder (`installPath`) runs our hooks: its hooks/hooks.json
    gives each of our events our shim's command, and the shim is there. Any marketplace can
    publish a plugin named agent-memory; one that is not ours runs none of our hooks, and taken
    for ours, init wrote none either — nothing was captured or recalled."""
    root = install.get("installPath")
    if not isinstance(root, str) or not os.path.isabs(root):
        return False
    try:
        hooks = read_settings(Path(root) / "hooks" / "hooks.json").get("hooks")
    except RepoStateError:
        return False
    if not isinstance(hooks, dict) or not (Path(root) / "hooks" / "agent-memory-hook").is_file():
        return False
    return all(
        PLUGIN_HOOK.format(event=name) in _commands(hooks.get(event)) for event, name in HOOK_EVENTS.items()
    )


def _commands(groups: object) -> set[str]:
    """The commands of one event's hook groups in a hooks file, whitespace normalised."""
    found: set[str] = set()
    for group in groups if isinstance(groups, list) else []:
        for hook in group.get("hooks", []) if isinstance(group, dict) else []:
            if isinstance(hook, dict) and isinstance(hook.get("command"), str):
                found.add(" ".join(hook["command"].split()))
    return found


def _installs(value: object) -> list[object]:
    return value if isinstance(value, list) else [value] if isinstance(value, dict) and value else []


def _runs_in(install: object, project: Path | None) -> bool:
    """Whether one install record applies in `project` (None: anywhere it applies at all)."""
    if not isinstance(install, dict):
        return False
    scope = install.get("scope")
    if scope in (None, "user", "managed") or project is None:
        return True
    where = install.get("projectPath")
    if not isinstance(where, str) or not where:
        return False
    try:
        return os.path.realpath(where) == os.path.realpath(project)
    except (OSError, ValueError):
        return False
