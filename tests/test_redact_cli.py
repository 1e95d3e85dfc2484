"""`git memory redact --each-line` (issue 15): exactly one output record per `\\n`-terminated
input line, whatever other line-breaking characters the line holds. Realistic tokens are built
at run time."""

from __future__ import annotations

import json
import random
import string

import pytest
from inprocess import run_main_bytes

from agent_memory.cli.redact import each_line

# every character `str.splitlines` breaks at, except `\n` itself
BREAKERS = ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


def _token() -> str:
    rng = random.Random(15)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def _cli(stdin: bytes, *args: str) -> bytes:
    proc = run_main_bytes(None, ["redact", "--each-line", *args], stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_each_line_splits_only_at_newline() -> None:
    assert each_line("") == []
    assert each_line("a") == ["a"]
    assert each_line("a\n") == ["a\n"]
    assert each_line("a\nb") == ["a\n", "b"]
    assert each_line("\n\n") == ["\n", "\n"]
    for ch in BREAKERS:
        assert each_line(f"a{ch}b\nc\n") == [f"a{ch}b\n", "c\n"]


@pytest.mark.parametrize("ch", BREAKERS, ids=[f"U+{ord(c):04X}" for c in BREAKERS])
def test_one_json_record_per_input_line(ch: str) -> None:
    secret = _token()
    data = f"first{ch}line {secret}\nsecond\n".encode()
    out = _cli(data, "--output", "json")
    # one record per input line, even for a reader that splits at every line break
    assert out.count(b"\n") == 2
    records = [json.loads(x) for x in out.decode().splitlines()]
    assert len(records) == 2
    assert records[0]["text"] == f"first{ch}line [REDACTED:github-token]"
    assert records[1] == {"text": "second", "findings": []}


@pytest.mark.parametrize("ch", BREAKERS, ids=[f"U+{ord(c):04X}" for c in BREAKERS])
def test_text_output_keeps_the_line_and_its_characters(ch: str) -> None:
    secret = _token()
    data = f"a{ch}{secret}\nb\n".encode()
    out = _cli(data).decode()
    assert out == f"a{ch}[REDACTED:github-token]\nb\n"
    assert out.count("\n") == 2


def test_crlf_ending_stays_an_ending_and_last_line_without_newline() -> None:
    out = _cli(b"a\r\nb\r\r\nc")
    assert out == b"a\r\nb\r\r\nc"
    records = [json.loads(x) for x in _cli(b"a\r\nb\r\r\nc", "--output", "json").splitlines()]
    assert [r["text"] for r in records] == ["a", "b\r", "c"]
