"""The repository as a Claude Code plugin, checked by the real client: `claude plugin validate`
passes with no warning, and the plugin's own hooks (hooks/hooks.json and the shim) inject,
recall and capture when a session loads the plugin instead of the settings hooks."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .client import RUN_TIMEOUT, Client, Workspace, client_env, copy_plugin_root, hook_contexts

pytestmark = pytest.mark.claude_client

ADOPTED = "Use pnpm, not npm, for installs"
NEVER_PUSH = "Never push directly to main"


@pytest.fixture(scope="module")
def plugin_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_plugin_root(tmp_path_factory.mktemp("plugin") / "agent-memory")


def _validate(client: Client, root: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(client.binary), "plugin", "validate", *flags, "."],
        cwd=root,
        env=client_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )


def _report(client: Client, root: Path) -> dict[str, Any]:
    proc = _validate(client, root, "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return dict(json.loads(proc.stdout))


def test_plugin_validate_passes_with_no_warning(claude_client: Client, plugin_root: Path) -> None:
    report = _report(claude_client, plugin_root)

    assert report["success"] is True
    assert (report["manifest"]["errors"], report["manifest"]["warnings"]) == ([], [])
    # The plugin-directory checks (ICON_MISSING and the like) are reported apart from the
    # verdict; the issue asks for none of them either.
    assert report["directory"]["findings"] == [], report["directory"]["findings"]
    # --strict turns warnings into a failing exit status, as CI would run it.
    strict = _validate(claude_client, plugin_root, "--strict", "--profile", "directory")
    assert strict.returncode == 0, strict.stdout + strict.stderr


def test_plugin_validate_gives_no_advice(claude_client: Client, plugin_root: Path) -> None:
    assert _report(claude_client, plugin_root)["advice"] == []


def test_the_plugin_hooks_inject_recall_and_capture(
    bare_workspace: Workspace, plugin_root: Path
) -> None:
    ws = bare_workspace
    ws.git_memory("init", "--yes", "--no-claude-hooks")
    settings = ws.repo / ".claude" / "settings.json"
    assert not settings.exists() or "hooks" not in json.loads(settings.read_text("utf-8"))
    ws.adopt(ADOPTED)
    plugin = ("--plugin-dir", str(plugin_root))

    said = ws.run(NEVER_PUSH, args=plugin)
    assert hook_contexts(said.records(), "SessionStart") == [
        ws.git_memory_json("context")["context"]
    ]
    ws.wait_for_captures()
    assert NEVER_PUSH in {a["claim"] for a in ws.atoms()}  # the plugin's SessionEnd captured it

    asked = ws.run("Can I push this change to main now?", args=plugin)
    assert NEVER_PUSH in "\n".join(hook_contexts(asked.records(), "UserPromptSubmit"))
    assert ws.errors_log() == []


def _plugin_command(ws: Workspace, *args: str) -> None:
    proc = subprocess.run([str(ws.client.binary), "plugin", *args], cwd=ws.repo, env=ws.env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _settings_hooks(ws: Workspace) -> object:
    settings = ws.repo / ".claude" / "settings.json"
    return json.loads(settings.read_text("utf-8")).get("hooks") if settings.exists() else None


@pytest.mark.parametrize("ours", [True, False])
def test_init_leaves_the_hooks_to_our_installed_plugin_and_only_to_ours(
    bare_workspace: Workspace, plugin_root: Path, tmp_path: Path, ours: bool
) -> None:
    """The plugin installed by the real client from a marketplace (`claude plugin marketplace
    add`, `claude plugin install`, offline from a local folder): init writes no settings hooks
    (each event would run twice) and says the plugin provides them. A plugin published under
    the same name whose hooks are not ours runs none of ours: init writes its own."""
    ws = bare_workspace
    source = copy_plugin_root(tmp_path / "market" / "agent-memory")
    if not ours:
        hooks_file = source / "hooks" / "hooks.json"
        theirs = json.loads(hooks_file.read_text("utf-8"))
        theirs["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"] = "node ./their-memory.js prompt"
        hooks_file.write_text(json.dumps(theirs), "utf-8")
    _plugin_command(ws, "marketplace", "add", str(source))
    _plugin_command(ws, "install", "agent-memory@agent-memory")

    ws.git_memory("init", "--yes")
    written = _settings_hooks(ws)
    if ours:
        assert not written, written
    else:
        assert written and set(written) >= {"SessionStart", "UserPromptSubmit", "SessionEnd"}, written

