"""Human output writes a path under the home directory `~/…`; JSON keeps it whole, and a
path a shell would not expand as `~` (quoted, after `=`) keeps its full form."""

from __future__ import annotations

import json
from pathlib import Path

from sessions import gm

from agent_memory.model.home import tilde_text


def test_init_and_validate_show_the_global_repo_under_tilde(repo: Path, isolated_env: Path) -> None:
    home = str(isolated_env)
    proc = gm(repo, "init", "--no-claude-hooks")
    assert "global repo: created ~/.claude/agent-memory" in proc.stdout
    assert "registered: proj in ~/.claude/agent-memory" in proc.stdout
    assert home not in proc.stdout + proc.stderr
    proc = gm(repo, "validate")
    assert "checked L3 in ~/.claude/agent-memory:" in proc.stdout
    assert home not in proc.stdout + proc.stderr
    # JSON is for scripts: the full path, as before.
    data = json.loads(gm(repo, "init", "--no-claude-hooks", "--output", "json").stdout)
    assert data["global_repo"] == str(isolated_env / ".claude" / "agent-memory")


def test_an_error_names_the_path_under_tilde_and_json_keeps_it(repo: Path, isolated_env: Path) -> None:
    gm(repo, "init", "--no-claude-hooks")
    missing = isolated_env / "nowhere"
    proc = gm(repo, "validate", "--auto-memory", str(missing), check=False)
    assert proc.returncode == 2
    assert "no auto-memory folder at ~/nowhere" in proc.stderr
    assert str(isolated_env) not in proc.stderr
    proc = gm(repo, "validate", "--auto-memory", str(missing), "--output", "json", check=False)
    assert str(missing) in json.loads(proc.stdout)["error"]


def test_only_a_path_a_shell_expands_is_shortened(isolated_env: Path) -> None:
    home = str(isolated_env)
    assert tilde_text(f"created {home}/.claude/x") == "created ~/.claude/x"
    assert tilde_text(f"run `git -C {home}/p memory init`") == "run `git -C ~/p memory init`"
    assert tilde_text(f"in {home}.") == "in ~."
    # `~` does not expand inside quotes nor after `--flag=`: those keep the full path.
    assert tilde_text(f"rm '{home}/a b/.lock'") == f"rm '{home}/a b/.lock'"
    assert tilde_text(f"--dir={home}/x") == f"--dir={home}/x"
    # Another user's home that starts with the same letters is not this one.
    assert tilde_text(f"at {home}x/y") == f"at {home}x/y"
