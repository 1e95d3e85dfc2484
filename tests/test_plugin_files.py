"""The Claude Code plugin files: manifests parse and point at files that exist, the hook shim
fails open and passes event, stdin, stdout and exit code through, and the agent, command and
skill are well-formed and only drive `git memory` commands that really parse."""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agent_memory import __version__
from agent_memory.claude.settings import HOOK_EVENTS, HOOK_TIMEOUTS
from agent_memory.cli.main import build_parser

ROOT = Path(__file__).resolve().parent.parent
SHIM = ROOT / "hooks" / "agent-memory-hook"
PLUGIN_ROOT_VAR = "${CLAUDE_PLUGIN_ROOT}"
PAYLOAD = '{"session_id": "abc123", "hook_event_name": "UserPromptSubmit", "prompt": "héllo"}\n'

# Reserved by Anthropic (plugin-marketplaces docs); a marketplace with one of these never loads.
RESERVED_MARKETPLACE_NAMES = {
    "claude-code-marketplace", "claude-code-plugins", "claude-plugins-official",
    "claude-plugins-community", "claude-community", "anthropic-marketplace",
    "anthropic-plugins", "agent-skills", "anthropic-agent-skills", "knowledge-work-plugins",
    "life-sciences", "claude-for-legal", "claude-for-financial-services",
    "financial-services-plugins", "first-party-plugins", "healthcare",
}  # fmt: skip
KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def load_json(relpath: str) -> Any:
    return json.loads((ROOT / relpath).read_text("utf-8"))


def frontmatter(path: Path) -> dict[str, str]:
    """Flat `key: value` YAML frontmatter, the only shape our files use. Refuses anything a YAML
    parser could read differently (a `: ` or ` #` inside a plain value), so a value Claude Code
    would mis-parse fails here instead of silently dropping every field."""
    lines = path.read_text("utf-8").splitlines()
    assert lines and lines[0] == "---", f"{path}: frontmatter must open on the first line"
    end = lines.index("---", 1)
    fields: dict[str, str] = {}
    for line in lines[1:end]:
        key, sep, value = line.partition(": ")
        assert sep and re.fullmatch(r"[a-z][a-z-]*", key), (
            f"{path}: not a `key: value` line: {line!r}"
        )
        if value.startswith('"'):
            assert value.endswith('"') and len(value) >= 2, f"{path}: unbalanced quotes: {line!r}"
            value = json.loads(value)
        else:
            assert ": " not in value and " #" not in value, f"{path}: quote this value: {line!r}"
        assert key not in fields, f"{path}: duplicate key {key}"
        fields[key] = value
    assert "\n".join(lines[end + 1 :]).strip(), f"{path}: empty body"
    return fields


# --- hooks/hooks.json and the shim ----------------------------------------------------------


def plugin_hook_handlers() -> dict[str, dict[str, Any]]:
    config = load_json("hooks/hooks.json")
    hooks = config["hooks"]
    assert set(hooks) == set(HOOK_EVENTS)
    handlers = {}
    for event, groups in hooks.items():
        assert len(groups) == 1 and len(groups[0]["hooks"]) == 1
        handlers[event] = groups[0]["hooks"][0]
    return handlers


def test_hooks_json_runs_the_shim_for_each_event() -> None:
    for event, handler in plugin_hook_handlers().items():
        assert handler["type"] == "command"
        words = shlex.split(handler["command"])
        assert words[-1] == HOOK_EVENTS[event]
        script = next(w for w in words if PLUGIN_ROOT_VAR in w)
        assert script.startswith(PLUGIN_ROOT_VAR + "/"), "placeholder must start the path"
        assert (ROOT / script[len(PLUGIN_ROOT_VAR) + 1 :]) == SHIM
        # The placeholder sits inside double quotes: a plugin cache path with spaces still works.
        assert f'"{PLUGIN_ROOT_VAR}/hooks/agent-memory-hook"' in handler["command"]


def test_hooks_json_timeouts_match_the_settings_hooks() -> None:
    handlers = plugin_hook_handlers()
    assert handlers["UserPromptSubmit"]["timeout"] == 1
    for event, handler in handlers.items():
        assert handler["timeout"] == HOOK_TIMEOUTS[event]
        # SessionEnd stays synchronous: our hook detaches the capture itself within ~100 ms,
        # while an async hook can be killed at teardown before it does.
        assert "async" not in handler


def test_shim_is_an_executable_posix_script() -> None:
    assert SHIM.read_text("utf-8").startswith("#!/bin/sh\n")
    assert SHIM.stat().st_mode & stat.S_IXUSR
    assert b"\r\n" not in SHIM.read_bytes()


@pytest.fixture
def sh_only_bin(tmp_path: Path) -> Path:
    """A PATH directory holding only `sh`: Claude Code's shell is found, git-memory is not."""
    bin_dir = tmp_path / "sh-only"
    bin_dir.mkdir()
    (bin_dir / "sh").symlink_to("/bin/sh")
    return bin_dir


@pytest.fixture
def fake_git_memory(tmp_path: Path) -> Path:
    """Stands in for our own installed entry point, only to observe the shim's exec plumbing:
    it records argv and stdin, answers on stdout and exits 7 so pass-through is visible."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    record = tmp_path / "record"
    script = bin_dir / "git-memory"
    script.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n" "$@" > "{record}.argv"\n'
        f'/bin/cat > "{record}.stdin"\n'
        'printf \'{"hookSpecificOutput": {"hookEventName": "X"}}\'\n'
        "exit 7\n"
    )
    script.chmod(0o755)
    return bin_dir


def run_shim(
    args: list[str], path: str, extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {"PATH": path, "HOME": os.environ["HOME"], **(extra_env or {})}
    return subprocess.run(
        ["/bin/sh", str(SHIM), *args],
        input=PAYLOAD,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


@pytest.mark.parametrize("event", list(HOOK_EVENTS.values()))
def test_shim_fails_open_without_git_memory(event: str) -> None:
    proc = run_shim([event], "/nonexistent")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


@pytest.mark.parametrize("event", list(HOOK_EVENTS.values()))
def test_hooks_json_command_fails_open_as_claude_code_runs_it(
    event: str, sh_only_bin: Path
) -> None:
    """Run the exact command string through `sh -c`, as Claude Code does for shell-form hooks."""
    handler = next(h for e, h in plugin_hook_handlers().items() if HOOK_EVENTS[e] == event)
    env = {"PATH": str(sh_only_bin), "HOME": os.environ["HOME"], "CLAUDE_PLUGIN_ROOT": str(ROOT)}
    proc = subprocess.run(
        ["/bin/sh", "-c", handler["command"]],
        input=PAYLOAD,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_shim_passes_event_stdin_stdout_and_exit_code_through(
    fake_git_memory: Path, tmp_path: Path
) -> None:
    proc = run_shim(["user-prompt-submit"], f"{fake_git_memory}:/usr/bin:/bin")
    assert proc.returncode == 7
    assert proc.stdout == '{"hookSpecificOutput": {"hookEventName": "X"}}'
    assert (tmp_path / "record.argv").read_text() == "hook\nuser-prompt-submit\n"
    assert (tmp_path / "record.stdin").read_text("utf-8") == PAYLOAD


def test_hooks_json_command_reaches_git_memory(
    fake_git_memory: Path, sh_only_bin: Path, tmp_path: Path
) -> None:
    handler = plugin_hook_handlers()["SessionEnd"]
    env = {
        "PATH": f"{fake_git_memory}:{sh_only_bin}",
        "HOME": os.environ["HOME"],
        "CLAUDE_PLUGIN_ROOT": str(ROOT),
    }
    proc = subprocess.run(
        ["/bin/sh", "-c", handler["command"]],
        input=PAYLOAD,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 7
    assert (tmp_path / "record.argv").read_text() == "hook\nsession-end\n"
    assert (tmp_path / "record.stdin").read_text("utf-8") == PAYLOAD


def test_shim_prefers_agent_memory_bin(fake_git_memory: Path, tmp_path: Path) -> None:
    proc = run_shim(
        ["session-start"], "/nonexistent", {"AGENT_MEMORY_BIN": str(fake_git_memory / "git-memory")}
    )
    assert proc.returncode == 7
    assert (tmp_path / "record.argv").read_text() == "hook\nsession-start\n"


def test_shim_ignores_a_non_executable_agent_memory_bin(tmp_path: Path) -> None:
    not_exe = tmp_path / "git-memory"
    not_exe.write_text("#!/bin/sh\nexit 9\n")
    proc = run_shim(["session-start"], "/nonexistent", {"AGENT_MEMORY_BIN": str(not_exe)})
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


@pytest.mark.parametrize(
    "args", [[], ["background-capture"], ["--help"], ["session-start; rm -rf /"]]
)
def test_shim_ignores_unknown_events(
    args: list[str], fake_git_memory: Path, tmp_path: Path
) -> None:
    proc = run_shim(args, f"{fake_git_memory}:/usr/bin:/bin")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert not (tmp_path / "record.argv").exists()


# --- manifests ------------------------------------------------------------------------------


def test_plugin_manifest() -> None:
    manifest = load_json(".claude-plugin/plugin.json")
    assert manifest["name"] == "agent-memory"
    assert KEBAB.match(manifest["name"])
    assert manifest["version"] == __version__, "bump plugin.json with the package version"
    assert isinstance(manifest["author"]["name"], str) and manifest["author"]["name"]
    assert isinstance(manifest.get("keywords", []), list)
    # hooks/, commands/, agents/ and skills/ are found at their default places. Naming the
    # default hooks/hooks.json in the manifest as well would load it twice.
    for field in ("hooks", "commands", "agents", "skills"):
        assert field not in manifest
    for component in ("hooks/hooks.json", "commands", "agents", "skills"):
        assert (ROOT / component).exists()
    assert not (ROOT / ".claude-plugin" / "hooks").exists(), "components live at the plugin root"


def test_marketplace_lists_this_repository() -> None:
    market = load_json(".claude-plugin/marketplace.json")
    manifest = load_json(".claude-plugin/plugin.json")
    assert KEBAB.match(market["name"]) and market["name"] not in RESERVED_MARKETPLACE_NAMES
    assert market["owner"]["name"]
    [entry] = market["plugins"]
    assert entry["name"] == manifest["name"]
    source = entry["source"]
    assert isinstance(source, str) and source.startswith("./")
    # Relative sources resolve against the marketplace root: the directory holding .claude-plugin/.
    assert (ROOT / source / ".claude-plugin" / "plugin.json").is_file()


# --- agent, command, skill ------------------------------------------------------------------


def test_agents_have_required_frontmatter() -> None:
    agents = sorted((ROOT / "agents").glob("*.md"))
    assert [a.name for a in agents] == ["memory-curator.md"]
    fields = frontmatter(agents[0])
    assert fields["name"] == "memory-curator" and KEBAB.match(fields["name"])
    assert len(fields["description"]) > 40
    tools = {t.strip() for t in fields["tools"].split(",")}
    # The curator never edits stored atoms by hand: no file-writing tools at all.
    assert tools.isdisjoint({"Edit", "Write", "MultiEdit", "NotebookEdit"})
    assert "Bash" in tools
    # Plugin agents may not set these (the loader ignores them), so do not pretend to.
    assert not {"hooks", "mcpServers", "permissionMode"} & set(fields)


def test_command_has_frontmatter_and_avoids_builtin_memory() -> None:
    commands = sorted((ROOT / "commands").glob("*.md"))
    assert [c.stem for c in commands] == ["agent-memory"]
    # A plugin command or skill named `memory` can shadow Claude Code's built-in /memory.
    assert all(c.stem != "memory" for c in commands)
    fields = frontmatter(commands[0])
    assert fields["description"]
    assert fields["argument-hint"].startswith("[")
    assert fields["disable-model-invocation"] == "true"
    body = commands[0].read_text("utf-8")
    assert "$ARGUMENTS" in body
    for sub in ("status", "why", "contested", "adopt", "forget", "context"):
        assert f"`{sub}" in body, f"subcommand {sub} is not documented"
    for rule in re.findall(r"Bash\(([^)]*)\)", fields["allowed-tools"]):
        assert rule.startswith("git memory ") and rule.endswith(" *")
        verb = rule.split()[2]
        assert verb in {"status", "inspect", "log", "context", "recall", "promote"}, (
            f"{verb} changes memory and must not be pre-approved"
        )


def test_skill_frontmatter() -> None:
    skills = sorted((ROOT / "skills").glob("*/SKILL.md"))
    assert [s.parent.name for s in skills] == ["agent-memory"]
    fields = frontmatter(skills[0])
    name = fields["name"]
    assert KEBAB.match(name) and len(name) <= 64
    assert 0 < len(fields["description"]) <= 1024
    command_names = {c.stem for c in (ROOT / "commands").glob("*.md")}
    assert name not in command_names, "a skill and a command with one name shadow each other"
    assert name != "memory"


def documented_cli_calls() -> list[tuple[str, str]]:
    calls = []
    for path in [
        *ROOT.glob("agents/*.md"),
        *ROOT.glob("commands/*.md"),
        *ROOT.glob("skills/*/SKILL.md"),
    ]:
        for snippet in re.findall(r"`(git memory [^`]+)`", path.read_text("utf-8")):
            calls.append((path.relative_to(ROOT).as_posix(), snippet))
    return calls


def test_markdown_files_document_cli_calls() -> None:
    assert len(documented_cli_calls()) >= 20


@pytest.mark.parametrize(("where", "snippet"), documented_cli_calls())
def test_documented_cli_calls_parse(where: str, snippet: str) -> None:
    """Every `git memory …` the agent, command and skill tell Claude to run is accepted by the
    real argument parser (placeholders filled in), so the files cannot drift from CLI.md."""
    filled = snippet.replace("ID...", "atm_14a05266 atm_961f033d")
    for placeholder in ("ID-OR-TEXT", "TEXT", "CLAIM"):
        filled = filled.replace(placeholder, "some text")
    filled = re.sub(r"\bID\b", "atm_14a05266", filled)
    words = shlex.split(filled)
    alternatives = [w for w in words if "|" in w]
    for choice in alternatives[0].split("|") if alternatives else [None]:
        argv = [choice if (choice and "|" in w) else w for w in words][2:]
        try:
            build_parser().parse_args(argv)
        except SystemExit as exc:  # argparse reports errors by exiting
            pytest.fail(f"{where}: `{snippet}` does not parse as {argv}: exit {exc.code}")


def test_shim_never_runs_a_git_memory_the_project_commits(fake_git_memory: Path, tmp_path: Path) -> None:
    """Claude Code runs the plugin's hooks in the project's folder: a relative AGENT_MEMORY_BIN
    (`.venv/bin/git-memory`), or `.`, an empty entry or a relative folder on PATH, ran a
    `git-memory` the cloned repository commits, on every prompt. Only absolute paths are
    looked at; our own on PATH after them is run."""
    project = tmp_path / "project"
    ran = tmp_path / "theirs-ran"
    for rel in ("git-memory", ".venv/bin/git-memory", "bin/git-memory"):
        theirs = project / rel
        theirs.parent.mkdir(parents=True, exist_ok=True)
        theirs.write_text(f"#!/bin/sh\ntouch '{ran}'\n")
        theirs.chmod(0o755)
    env = {"PATH": f".::bin:.venv/bin:{fake_git_memory}:/usr/bin:/bin", "HOME": os.environ["HOME"],
           "AGENT_MEMORY_BIN": ".venv/bin/git-memory"}  # fmt: skip
    proc = subprocess.run(["/bin/sh", str(SHIM), "user-prompt-submit"], input=PAYLOAD, capture_output=True,
                          text=True, env=env, cwd=project, check=False)  # fmt: skip
    assert not ran.exists()
    assert proc.returncode == 7 and (tmp_path / "record.argv").read_text() == "hook\nuser-prompt-submit\n"
