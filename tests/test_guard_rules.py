"""The commit guard's rules (`agent_memory.redact.guard`, spec §3.1.1, §4.1.1, §6): what memory
material may not carry, with line numbers. Pure functions; the git side (`scan --staged`) is
tested with the scan verb. Realistic tokens are generated at run time, never written here."""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path

import pytest
from builders import block
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.redact.guard import GuardFinding, format_finding, scan_text

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).resolve().parent.parent
MD = "CLAUDE.memory.md"
LOG = ".memory/adopted.log"
SESSION = "7acd37a8-2745-4b58-a8a9-46164b22ad9e"


def tok(n: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


def found(path: str, text: str) -> set[tuple[int, str]]:
    return {(f.line, f.rule) for f in scan_text(path, text)}


def test_a_clean_block_passes() -> None:
    text = block(
        f"- Use pnpm, never npm ({SESSION}.jsonl#L12)",
        f"- PRs target dev; commit 3f2a9c1b7e4d5a6f8091b2c3d4e5f60718293a4b ({SESSION}.jsonl#L40)",
        "- Run the server on port 8080 with Node 20.11.1",
    )
    assert scan_text(MD, text) == []


def test_finding_format_and_type() -> None:
    f = GuardFinding("CLAUDE.memory.md", 3, "github-token")
    assert format_finding(f) == "CLAUDE.memory.md:3: github-token"
    with pytest.raises(AttributeError):
        f.line = 4  # type: ignore[misc]


def test_secrets_and_personal_data_are_refused_on_their_line() -> None:
    token = "ghp_" + tok(36, 1)
    text = block(
        "- Use pnpm", f"- Deploy with {token}", "- Ask jane.roe@acme-corp.io before releases"
    )
    assert found(MD, text) == {(4, "github-token"), (5, "email")}


@pytest.mark.parametrize(
    "pointer",
    [
        f"~/.claude/projects/-home-bob-proj/{SESSION}.jsonl#L3",
        f"/home/bob/.claude/projects/x/{SESSION}.jsonl#L3",
        f"projects/x/{SESSION}.jsonl#L3",
        f"C:\\Users\\bob\\.claude\\projects\\x\\{SESSION}.jsonl#L3",
        f"~{SESSION}.jsonl#L3",
    ],
)
def test_a_back_pointer_with_a_path_prefix_is_refused(pointer: str) -> None:
    rules = {rule for _line, rule in found(MD, block(f"- Use pnpm ({pointer})"))}
    assert "backpointer-path" in rules


def test_bare_back_pointers_pass() -> None:
    assert (
        found(MD, block(f"- Use pnpm ({SESSION}.jsonl#L3)", f"source: {SESSION}.jsonl#L120"))
        == set()
    )


@pytest.mark.parametrize(
    "path",
    [
        "/home/alice/src/app",
        "/Users/alice/src/app",
        "C:\\Users\\alice\\src",
        "C:/Users/alice/src",
        "/mnt/c/Users/alice/src",
        "/var/home/alice/src",  # Fedora Atomic
        "/usr/home/alice/src",  # FreeBSD
        "/media/alice/USB",
        "/run/media/alice/disk",
        "\\\\corp-fs01\\users\\alice\\logs",  # a Windows share's user folder
        "~/.claude/projects/",
        "-home-alice-src-app",
        "-Users-alice-src-app",
        "/home/[REDACTED:home-user]/src",  # still a machine path once the name is gone
    ],
)
def test_home_directory_paths_are_refused(path: str) -> None:
    assert (3, "home-path") in found(MD, block(f"- Build from {path} first"))


@pytest.mark.parametrize(
    "text",
    ["/home/<user>/src", "/Users/$USER/src", "~/src/app", "/root/.cache", "/usr/local/bin",
     "/media/user/USB", "/var/lib/home/x", "/usr/share/media/x"],  # fmt: skip
)
def test_placeholder_and_system_paths_pass(text: str) -> None:
    assert found(MD, block(f"- Build from {text}")) == set()


def test_one_rule_per_line_for_home_paths() -> None:
    # `home-path` says what `home-user` would on the same line
    assert found(MD, block("- logs in /home/alice/logs")) == {(3, "home-path")}


def test_adopted_log_lines_are_checked_after_json_decoding() -> None:
    entry = {
        "at": "2026-11-01T12:00:00Z",
        "op": "adopt",
        "atom": {
            "id": "atm_14a05266",
            "claim": "ask jane.roe@acme-corp.io before releases",
            "source": f"{SESSION}.jsonl#L3",
            "sessions": [SESSION],
        },
    }
    # valid JSON that spells "@" as an escape: only the decoded string shows the address
    line = json.dumps(entry, sort_keys=True, separators=(",", ":")).replace("@", "\\u0040")
    assert "@" not in line and json.loads(line)["atom"]["claim"].count("@") == 1
    first = '{"at":"2026-11-01T00:00:00Z","op":"adopt","atom":{}}\n'
    assert found(LOG, first + line + "\n") == {(2, "email")}
    assert found(MD, first + line + "\n") == set()  # Markdown is not decoded
    escaped = json.dumps({"atom": {"claim": "logs in C:\\Users\\alice\\app"}})
    assert (1, "home-path") in found(LOG, escaped + "\n")


def test_schema_examples_committed_tiers_pass_and_l1_is_refused() -> None:
    atoms = json.loads((FIXTURES / "schema_examples.json").read_text())
    by_tier = {a["tier"]: a for a in atoms}
    for tier in ("L2", "L3"):
        assert scan_text(LOG, json.dumps(by_tier[tier]) + "\n") == [], tier
    # an L1 atom carries the ~/.claude/projects/… pointer: never committed as is
    assert "backpointer-path" in {f.rule for f in scan_text(LOG, json.dumps(by_tier["L1"]) + "\n")}


def test_multi_line_findings_report_their_first_line() -> None:
    body = "\n".join(tok(64, 10 + i) for i in range(4))
    text = block(
        "- keep this", "-----BEGIN PRIVATE KEY-----", *body.split("\n"), "-----END PRIVATE KEY-----"
    )
    assert found(MD, text) == {(4, "private-key")}


def test_pre_commit_hook_definition() -> None:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert re.search(r"^- id: agent-memory-guard$", text, re.M)
    assert re.search(r"^  entry: git-memory scan$", text, re.M)
    assert re.search(r"^  language: python$", text, re.M)
    files = re.search(r"^  files: (.+)$", text, re.M)
    assert files
    rx = re.compile(files.group(1))
    for path in (
        "CLAUDE.memory.md",
        "CLAUDE.md",
        ".memory/adopted.log",
        "pkg/CLAUDE.md",
        "a/b/CLAUDE.memory.md",
    ):
        assert rx.search(path), path
    for path in (
        "README.md",
        "NOTCLAUDE.md",
        "memory/adopted.log",
        ".memory/adopted.log.bak",
        "CLAUDE.md.orig",
    ):
        assert not rx.search(path), path


@pytest.mark.parametrize(
    "line",
    [
        "- Ask [Jane](mailto:jane.roe@acme-corp.io) before releases",
        "- Release notes go to mailto:rel.team.lead@acme-corp.io",
    ],
)
def test_mailto_addresses_are_refused(line: str) -> None:
    assert (3, "email") in found(MD, block(line))


def test_tilde_home_paths_are_refused_but_not_root_or_own_home() -> None:
    assert (3, "home-path") in found(MD, block("- Build from ~bob/src/app first"))
    assert found(MD, block("- Keep caches in ~root/.cache and ~/src")) == set()


def test_a_markdown_escape_after_a_tilde_name_is_no_home_path() -> None:
    """render.literal writes a backslash before what a forge would act on: one after `~make`
    (or before its `~`) is no path separator, and these lines name no home (nor do the claims
    as typed); a backslash separator still is one, and so is an escaped `~` opening a path."""
    for line in (
        "- Run \\~\\~make\\~\\~ then \\~single\\~ steps",  # `~~make~~ then ~single~`
        "- Keep ~make\\* and ~make\\_ too",  # `~make*`, `~make_`: emphasis markers escaped
        "- Keep a\\~make\\~make/ as typed",  # `a~make~make/`: the second `~` follows `e`
    ):
        assert found(MD, block(line)) == set(), line
    assert (3, "home-path") in found(MD, block("- Build from ~bob\\src first"))
    assert (3, "home-path") in found(MD, block("- Build from \\~bob/src first"))


# --- the path rules' literal pre-checks (issue 17: half of the guard's time went to trying the
# patterns at every offset of text that could not match) --------------------------------------

_PATH_PIECES = [
    "/home/", "/Users/", "/mnt/c/", "USERS", "uſers", "users", "C:", "\\", "/", "~", "~/", ".claude",
    "projects", "-home-", "-Users-", "alice", "bob", "x-", " ", "\n", "\"", ":", "=", "(", "ſ", "K",
    ".jsonl#L", "abc.jsonl#L12", "7", "-", ".", "/media/", "/var", "/run", "\\\\", "srv",
]  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_PATH_PIECES), max_size=12))
def test_the_path_rules_pre_check_never_skips_text_a_pattern_matches(pieces: list[str]) -> None:
    from agent_memory.redact import guard

    text = "".join(pieces)
    if guard._HOME_PATH.search(text):
        assert guard._may_hold_home_path(text), text
    if guard._BACKPOINTER.search(text):
        assert ".jsonl#L" in text


def test_the_pre_check_finds_what_the_patterns_find_in_the_fixture_lines() -> None:
    """Every home-path line of the guard's own fixtures still reaches the pattern."""
    from agent_memory.redact import guard

    texts = ["/home/alice/x", "C:\\Users\\bob\\", "/mnt/c/USERS/carol/", "~/.claude/projects/", "-home-dave-",
             "~erin/notes", "C:/uſers/frank/"]  # fmt: skip
    for text in texts:
        assert guard._HOME_PATH.search(text), text
        assert guard._may_hold_home_path(text), text
