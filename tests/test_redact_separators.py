"""A token is a token after a path separator, in a URL's path and after `=`, `:` or `_`.

An AWS access key id right after a `/` (`…/AKIA….md`, `s3://bucket/AKIA…`, a URL path) was
not found: its rule refused a start after `/` or `+`, to skip a prefix met by chance inside a
base64 blob. A `/` is a path separator first. The other families (GitHub `ghp_`, Slack `xox…`,
OpenAI `sk-`, Anthropic `sk-ant-`) are checked at the same boundaries.

Tokens come from the labelled corpora (decoded here, never written out) or, for families the
corpora hold back, from a seeded generator; no realistic token is written in this file.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from pathlib import Path

import pytest

from agent_memory.redact.redactor import find, redact

SECRETS = Path(__file__).parent / "fixtures" / "secrets"
AN = string.ascii_letters + string.digits


def _corpus_token(name: str, pattern: str) -> str:
    """The first `tp` token of `name` matching `pattern` that the redactor finds on its own."""
    for line in (SECRETS / name).read_text().splitlines():
        row = json.loads(line)
        if row["label"] != "tp":
            continue
        text = base64.b64decode(row["text_b64"]).decode("utf-8", "replace")
        for m in re.finditer(pattern, text):
            if [(f.start, f.end) for f in find(m.group())] == [(0, len(m.group()))]:
                return m.group()
    raise AssertionError(f"no {pattern} in {name}")


def _tok(n: int, alphabet: str, seed: int) -> str:
    rng = random.Random(f"separators-{seed}-{n}")
    return "".join(rng.choice(alphabet) for _ in range(n))


TOKENS = {
    # (the corpora's AWS samples are placeholders: the rule is held back from gitleaks_dev)
    "aws": lambda: "AKIA" + _tok(16, string.ascii_uppercase + "234567", 1),
    "aws-session": lambda: "ASIA" + _tok(16, string.ascii_uppercase + "234567", 2),
    # (the other families that shared the AWS boundary)
    "alibaba": lambda: "LTAI" + _tok(20, AN, 12),
    "artifactory": lambda: "AKCp" + _tok(69, AN, 13),
    "github": lambda: _corpus_token("gitleaks_dev.b64.jsonl", r"ghp_[A-Za-z0-9]{36}(?![A-Za-z0-9])"),
    "slack": lambda: _corpus_token("gitleaks_dev.b64.jsonl", r"xox[bp]-[0-9A-Za-z-]{20,}"),
    "openai": lambda: "sk-proj-" + _tok(20, AN, 3) + "T3BlbkFJ" + _tok(20, AN, 4),
    "anthropic": lambda: "sk-ant-api03-" + _tok(93, AN + "_-", 5) + "AA",
}
CONTEXTS = [
    "x {} y",
    "see notes/{}.md",
    "s3://bucket/{}",
    "s3://bucket/{}/object",
    "https://h.example.com/p/{}/q",
    "https://h.example.com/p?key={}&x=1",
    "key={}",
    "key:{}",
    "prefix_{}",
    r"C:\keys\{}.txt",
]


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("family", sorted(TOKENS))
def test_a_token_after_a_separator_is_found(family: str, context: str) -> None:
    token = TOKENS[family]()
    text = context.format(token)
    red, findings = redact(text)
    assert findings and token not in red, (family, red)
    assert find(red) == []


def test_inside_a_base64_blob_a_prefix_met_by_chance_is_still_not_a_token() -> None:
    # what the boundary was for: a blob's alphanumeric run around the prefix
    blob = _tok(40, AN + "+/", 6) + "AKIA" + _tok(16, string.ascii_uppercase, 7) + _tok(12, AN, 8)
    assert "aws-access-key" not in {f.rule for f in find(blob)}
    blob = _tok(40, AN, 9) + "+AKIA" + _tok(16, string.ascii_uppercase, 10) + "+" + _tok(12, AN, 11)
    assert "aws-access-key" not in {f.rule for f in find(blob)}


@pytest.mark.parametrize("context", ["q=my+aws+key+{}", "key+{}&x=1", "a+{}", "key+{} rest", "+{}"])
def test_a_key_after_a_plus_that_no_base64_run_goes_on_from_is_found(context: str) -> None:
    # form-encoded text writes a space as `+`; the base64 boundary left such a key unfound
    key = TOKENS["aws"]()
    red, findings = redact(context.format(key))
    assert [f.rule for f in findings] == ["aws-access-key"] and key not in red, red


@pytest.mark.parametrize("context", ["q=a+{}+b", "q=my+aws+key+{}+is+this&x=1", "https://h.example.com/s?q=key+{}+rest#top",
                                     'data "q=a+{}+b" sent', "q=caf%C3%A9+{}+b", "q=a+{}++b", "q=a+{}+b.c-d_e*f"])
def test_a_key_between_two_plus_signs_of_a_form_value_is_found(context: str) -> None:
    """`q=a+AKIA…+b`: a form-encoded value writes each space as `+`, so a key in the middle of one
    has a `+` on both sides, which the base64 boundary took for a blob's run and left unfound."""
    key = TOKENS["aws"]()
    red, findings = redact(context.format(key))
    assert [f.rule for f in findings] == ["aws-access-key"] and key not in red, red


@pytest.mark.parametrize("context", [
    "q=" + _tok(40, AN, 12) + "+{}+b",  # a value whose first piece is no word: a blob's run
    "q=a+{}+" + _tok(12, AN + "+", 13) + "/" + _tok(8, AN, 14) + "==",  # goes on as base64
    _tok(20, AN, 15) + "+{}+b",  # no `name=` before the run
    "q=a/b+{}+c",  # a `/` (form encoding writes %2F) on the way back ...
    "q=a+{}+b/c",  # ... or on the way on: a base64 run could go on there
])
def test_between_two_plus_signs_outside_a_form_value_it_is_still_a_blob(context: str) -> None:
    key = TOKENS["aws"]()
    assert "aws-access-key" not in {f.rule for f in find(context.format(key))}


def test_a_key_in_a_path_is_refused_by_the_installed_hook_and_never_stored(guarded: Path) -> None:
    import subprocess

    from builders import BLOCK
    from conftest import git
    from sessions import gm, gm_json

    key = TOKENS["aws"]()
    head = git(guarded, "rev-parse", "HEAD")
    (guarded / "CLAUDE.memory.md").write_text(BLOCK.format(line=f"Backups go to s3://backups/{key}/daily"))
    git(guarded, "add", "CLAUDE.memory.md")
    proc = subprocess.run(["git", "-C", str(guarded), "commit", "-m", "memory"], capture_output=True, text=True)
    assert proc.returncode != 0 and "CLAUDE.memory.md:5: aws-access-key" in proc.stdout + proc.stderr
    assert git(guarded, "rev-parse", "HEAD") == head
    gm(guarded, "remember", f"Read the deploy notes in keys/{key}.md before a release.", check=False)
    atoms = gm_json(guarded, "inspect", "--tier", "L1")["atoms"]
    assert atoms and all(key not in json.dumps(a) for a in atoms)
    assert key not in git(guarded, "log", "-p", "memory/atoms")
