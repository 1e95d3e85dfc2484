"""The scripted model's standalone mode, as scripted_model.md documents it: started as a
subprocess, it prints its base URL first and answers the Messages API from the script —
streamed events, a plain JSON message, token counts — and logs every request it received.
The last test drives the pinned client against it, as a person would by hand.

All but the last run without the client (in the main suite)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .client import RUN_TIMEOUT, Client, client_env

SERVER = Path(__file__).resolve().parent / "scripted_model.py"
SCRIPT = {
    "steps": [
        {
            "when": {"nth_with_tools": 1},
            "content": [
                {"type": "text", "text": "Reading it."},
                {"type": "tool_use", "name": "Read", "input": {"file_path": "/w/README.md"}},
            ],
        },
        {
            "when": {"last_user_contains": "plain please"},
            "content": [{"type": "text", "text": "A plain answer."}],
        },
    ],
    "fallback": "Nothing scripted.",
}
TOOLS = [{"name": "Read", "input_schema": {"type": "object"}}]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT), "utf-8")
    log = tmp_path / "requests.jsonl"
    proc = subprocess.Popen(
        [sys.executable, str(SERVER), "--script", str(script), "--requests", str(log)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()  # the documented first line
        yield url, log
    finally:
        proc.terminate()
        proc.wait(timeout=RUN_TIMEOUT)


def _post(url: str, path: str, body: dict[str, Any]) -> tuple[str, str]:
    request = urllib.request.Request(
        url + path, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=RUN_TIMEOUT) as response:
        return response.headers["content-type"], response.read().decode()


def _events(stream: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for chunk in stream.strip().split("\n\n"):
        name, data = chunk.split("\n")
        out.append((name.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return out


def test_the_first_line_is_the_base_url_and_streaming_follows_the_script(
    server: tuple[str, Path],
) -> None:
    url, log = server
    assert url.startswith("http://127.0.0.1:")
    body = {"model": "m", "stream": True, "tools": TOOLS,
            "messages": [{"role": "user", "content": "Read the README"}]}  # fmt: skip

    kind, stream = _post(url, "/v1/messages?beta=true", body)

    assert kind == "text/event-stream"
    events = _events(stream)
    assert [name for name, _ in events] == [
        "message_start",
        *["content_block_start", "content_block_delta", "content_block_stop"] * 2,
        "message_delta",
        "message_stop",
    ]
    assert events[2][1]["delta"] == {"type": "text_delta", "text": "Reading it."}
    opened, filled = events[4][1]["content_block"], events[5][1]["delta"]
    assert (opened["type"], opened["name"], opened["input"]) == ("tool_use", "Read", {})
    assert json.loads(filled["partial_json"]) == {"file_path": "/w/README.md"}
    assert events[7][1]["delta"]["stop_reason"] == "tool_use"
    [logged] = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert (logged["path"], logged["step"], logged["body"]) == ("/v1/messages?beta=true", 1, body)


def test_plain_messages_token_counts_and_unscripted_requests(server: tuple[str, Path]) -> None:
    url, log = server
    plain = {"model": "m", "messages": [{"role": "user", "content": "plain please"}]}

    kind, text = _post(url, "/v1/messages", plain)
    assert kind == "application/json"
    message = json.loads(text)
    assert message["content"] == [{"type": "text", "text": "A plain answer."}]
    assert message["stop_reason"] == "end_turn"
    # Spent: the same request again gets the fallback.
    assert json.loads(_post(url, "/v1/messages", plain)[1])["content"][0]["text"] == (
        "Nothing scripted."
    )
    # Structured output (the client's title query) gets JSON its schema accepts.
    schema = {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}
    titled = {**plain, "output_config": {"format": {"type": "json_schema", "schema": schema}}}
    reply = json.loads(_post(url, "/v1/messages", titled)[1])["content"][0]["text"]
    assert json.loads(reply) == {"title": "Nothing scripted."}
    counted = json.loads(_post(url, "/v1/messages/count_tokens", plain)[1])
    assert counted["input_tokens"] > 0
    with pytest.raises(urllib.error.HTTPError) as missing:
        _post(url, "/v1/elsewhere", {})
    assert missing.value.code == 404
    hello = urllib.request.Request(url + "/api/hello", method="HEAD")  # the client's check
    with urllib.request.urlopen(hello, timeout=RUN_TIMEOUT) as response:
        assert response.status == 200
    logged = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert [(r["path"], r["step"]) for r in logged] == [
        ("/v1/messages", 2),
        ("/v1/messages", None),
        ("/v1/messages", None),
        ("/v1/messages/count_tokens", None),
        ("/v1/elsewhere", None),
        ("/api/hello", None),
    ]


@pytest.mark.parametrize(
    "script",
    [
        "not json",
        '{"steps": [{"content": [{"type": "text", "text": "x"}]}]}',
        '{"steps": [{"when": {"nth_with_tools": 1}, "content": [{"type": "image"}]}]}',
    ],
)
def test_a_bad_script_is_one_line_and_a_hint(tmp_path: Path, script: str) -> None:
    path = tmp_path / "script.json"
    path.write_text(script, "utf-8")

    proc = subprocess.run(
        [sys.executable, str(SERVER), "--script", str(path)],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )

    assert proc.returncode == 2 and proc.stdout == ""
    error, hint = proc.stderr.splitlines()
    assert error.startswith("scripted_model.py: ") and hint.startswith("hint: ")


@pytest.mark.claude_client
def test_the_pinned_client_runs_against_the_standalone_server(
    claude_client: Client, server: tuple[str, Path], tmp_path: Path
) -> None:
    url, log = server
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    env = client_env(
        HOME=str(home), CLAUDE_CONFIG_DIR=str(home / ".claude"), TMPDIR=str(tmp_path),
        ANTHROPIC_BASE_URL=url,
    )  # fmt: skip

    # The first request offers tools and gets the Read call; the file is not there, so the
    # client reports the error back and the fallback ends the turn.
    proc = subprocess.run(
        [str(claude_client.binary), "-p", "Read the README"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )

    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Nothing scripted."
    logged = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert [(r["step"], r["nth_with_tools"]) for r in logged] == [(1, 1), (None, 2)]
    result = logged[1]["body"]["messages"][-1]["content"][-1]
    assert result["type"] == "tool_result" and result["is_error"] is True
