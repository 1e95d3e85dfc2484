"""The running user's own home is a machine-specific path wherever it is.

The redactor and the guard knew the usual layouts (`/home/<u>`, `/Users/<u>`, `/var/home/<u>`
…). A home elsewhere — `/srv/users/bob`, `/opt/people/bob`, `/tmp/xyz/home` — reached a claim
whole from a prompt or from Claude's own memory file, and a commit of a memory file naming it
passed the guard. The home as $HOME says it and as it resolves (and its project slug) is now
redacted like the usual ones (its user part becomes `[REDACTED:home-user]`) and refused by the
guard (`home-path`), through the redactor, a real `git commit` through the installed hook,
`remember`, and a capture of a prompt and of a Claude memory file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from builders import BLOCK
from conftest import git
from sessions import gm, gm_json, write_session

from agent_memory.redact.guard import scan_text
from agent_memory.redact.redactor import find, redact

GONE = "[REDACTED:home-user]"


@pytest.mark.parametrize(
    ("home", "redacted"),
    [
        ("/srv/users/bob", f"/srv/users/{GONE}"),
        ("/opt/people/bob", f"/opt/people/{GONE}"),
        # the last folder names nobody: from the first folder that is not a layout's
        ("/tmp/xyz/home", f"/tmp/{GONE}"),
    ],
)
def test_a_home_outside_the_known_layouts_loses_its_user_part(
    monkeypatch: pytest.MonkeyPatch, home: str, redacted: str
) -> None:
    monkeypatch.setenv("HOME", home)
    assert redact(f"the config is in {home}/app/config.toml")[0] == (
        f"the config is in {redacted}/app/config.toml"
    )
    assert redact(f"cd {home}")[0] == f"cd {redacted}"
    assert redact(f"it lives in {home}.")[0] == f"it lives in {redacted}."
    assert redact(f'"{home}/x"')[0] == f'"{redacted}/x"'
    # Claude Code's project slug of a folder in it
    slug, red_slug = home.replace("/", "-"), redacted.replace("/", "-")
    assert redact(f"see ~/.claude/projects/{slug}-app/m.md")[0] == (
        f"see ~/.claude/projects/{red_slug}-app/m.md"
    )
    # another folder that starts with the same letters is not this home
    for other in (f"{home}by/x", f"{home}_old/x", f"{home}.bak/x", f"/data{home}/x", f"x{home}"):
        assert find(other) == [], other


def test_the_resolved_home_is_redacted_too(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = tmp_path / "disk1" / "bobsmith"
    real.mkdir(parents=True)
    link = tmp_path / "homes" / "bob"
    link.parent.mkdir()
    link.symlink_to(real)
    monkeypatch.setenv("HOME", str(link))
    assert redact(f"at {real}/src")[0] == f"at {real.parent}/{GONE}/src"
    assert redact(f"at {link}/src")[0] == f"at {link.parent}/{GONE}/src"


@pytest.mark.parametrize("home", ["/", "/b", "/root", "/tmp", "/home/runner", "/var/lib/jenkins", "",
                                  "/workspace", "/config", "/github/home"])
def test_a_home_that_names_nobody_redacts_nothing_new(monkeypatch: pytest.MonkeyPatch, home: str) -> None:
    monkeypatch.setenv("HOME", home)
    text = ("read /b/c, /root/x, /tmp/a, /srv/x, /var/lib/jenkins/workspace and /home/runner/work,"
            " /workspace/app/src, /config/settings.json, /github/home/.cache")
    assert redact(text)[0] == text


def test_without_home_the_password_database_says_and_nothing_breaks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOME")
    text = "read /b/c and /srv/x"
    assert redact(text)[0] == text


def test_the_guard_refuses_the_home_and_its_redacted_form(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/srv/users/bob")
    for line in ("Config is in /srv/users/bob/app", f"Config is in /srv/users/{GONE}/app",
                 "See ~/x/-srv-users-bob-app/y"):  # fmt: skip
        rules = {f.rule for f in scan_text("CLAUDE.memory.md", BLOCK.format(line=line))}
        assert "home-path" in rules, line
        log = json.dumps({"op": "adopt", "atom": {"claim": line}})
        assert "home-path" in {f.rule for f in scan_text(".memory/adopted.log", log)}, line
    assert scan_text("CLAUDE.memory.md", BLOCK.format(line="Config is in /srv/users/bobby/app")) == []
    # the verdict of a string is kept per home, not per string alone
    log = json.dumps({"op": "adopt", "atom": {"claim": "Config is in /opt/people/bob/app"}})
    assert scan_text(".memory/adopted.log", log) == []
    monkeypatch.setenv("HOME", "/opt/people/bob")
    assert "home-path" in {f.rule for f in scan_text(".memory/adopted.log", log)}


def _commit(repo: Path, rel: str, text: str) -> tuple[int, str]:
    import subprocess

    (repo / rel).write_text(text)
    git(repo, "add", rel)
    proc = subprocess.run(["git", "-C", str(repo), "commit", "-m", f"edit {rel}"], capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def test_a_commit_naming_the_home_is_refused_by_the_installed_hook(
    guarded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = git(guarded, "rev-parse", "HEAD")
    # the test's own home (`…/pytest-N/home0`) is outside every known layout
    home = os.environ["HOME"]
    code, out = _commit(guarded, "CLAUDE.memory.md", BLOCK.format(line=f"Config is in {home}/app/config.toml"))
    assert code != 0 and "CLAUDE.memory.md:5: home-path" in out, out
    monkeypatch.setenv("HOME", "/srv/users/bob")
    code, out = _commit(guarded, "CLAUDE.memory.md", BLOCK.format(line="Config is in /srv/users/bob/app"))
    assert code != 0 and "CLAUDE.memory.md:5: home-path" in out, out
    assert git(guarded, "rev-parse", "HEAD") == head
    # another user's folder beside it is no path of this machine's user
    code, out = _commit(guarded, "CLAUDE.memory.md", BLOCK.format(line="Config is in /srv/users/bobby/app"))
    assert code == 0, out


def test_remember_and_capture_store_no_home(guarded: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agent_memory.automemory.location import resolve_auto_memory_dir

    home = os.environ["HOME"]
    gm(guarded, "remember", f"Keep the build cache in {home}/cache/build, never in the repo.", check=False)
    write_session(guarded, "eeeeeeee-0000-4000-8000-000000000001", "2026-11-01",
                  [{"user": f"Always read the deploy settings from {home}/deploy/settings.toml."}])  # fmt: skip
    folder = resolve_auto_memory_dir(guarded).path
    folder.mkdir(parents=True)
    (folder / "feedback_logs.md").write_text(
        f"---\ntype: feedback\n---\nAlways write the logs to {home}/logs/app, not the repo.\n", "utf-8"
    )
    gm(guarded, "capture", "--all", "--no-stage")
    atoms = gm_json(guarded, "inspect", "--tier", "L1")["atoms"]
    claims = [a["claim"] for a in atoms]
    for what in ("build cache", "deploy settings", "logs"):
        claim = next(c for c in claims if what in c)
        assert home not in claim and GONE in claim, claim
    assert home not in git(guarded, "log", "-p", "memory/atoms")
