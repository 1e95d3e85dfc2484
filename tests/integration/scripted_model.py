"""A scripted model for the real Claude Code client: a local HTTP server that answers the
Anthropic Messages API from a script, so whole sessions run offline.

    python tests/integration/scripted_model.py --script FILE [--port N] [--requests FILE]

prints its base URL (`http://127.0.0.1:<port>`) as the first line of stdout and serves until
it is killed; drive the client with `ANTHROPIC_BASE_URL=<url> ANTHROPIC_API_KEY=placeholder
claude -p …`. `--requests FILE` appends every request it received to FILE, one JSON object a
line (method, path, body, which step answered it). The script format is described in
`scripted_model.md` next to this file.

What it answers (what the pinned client asks for, see the suite's closing notes):
- `POST /v1/messages` — streamed as server-sent events when the body says `"stream": true`
  (`message_start`, `content_block_start` / `content_block_delta` / `content_block_stop` per
  block, `message_delta`, `message_stop`), else one JSON message;
- `POST /v1/messages/count_tokens` — `{"input_tokens": <about a quarter of the body's size>}`;
- anything else — a 404 in the API's error shape, recorded like every request.

Standard library only, and nothing from agent_memory: the suite tests the installed tool from
the outside."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

FALLBACK_TEXT = "OK."
_TOKENS_PER_BYTE = 0.25  # a rough count, only so the client's context accounting moves


class ScriptError(ValueError):
    """The script is not in the documented format (scripted_model.md)."""


@dataclass(frozen=True)
class Step:
    """One scripted reply and the request it answers."""

    content: tuple[dict[str, Any], ...]
    nth_with_tools: int | None = None  # the n-th request (1-based) whose body offers tools
    last_user_contains: str | None = None  # the first request whose last user turn has this
    stop_reason: str | None = None  # default: "tool_use" when a block is one, else "end_turn"
    usage: Mapping[str, int] = field(default_factory=dict)  # merged into the reported usage

    def matches(self, nth_with_tools: int | None, last_user: str) -> bool:
        if self.nth_with_tools is not None:
            return self.nth_with_tools == nth_with_tools
        return self.last_user_contains is not None and self.last_user_contains in last_user


@dataclass(frozen=True)
class Script:
    steps: tuple[Step, ...]
    fallback: str = FALLBACK_TEXT  # the reply to every request no step names

    @classmethod
    def load(cls, data: Any) -> Script:
        """From the JSON form (a path, a JSON text or the parsed object)."""
        if isinstance(data, Path):
            data = json.loads(data.read_text("utf-8"))
        elif isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, Mapping) or not isinstance(data.get("steps", []), list):
            raise ScriptError('a script is a JSON object with a "steps" list')
        fallback = data.get("fallback", FALLBACK_TEXT)
        if not isinstance(fallback, str):
            raise ScriptError('"fallback" is the text of the reply to unnamed requests')
        return cls(tuple(_step(i, s) for i, s in enumerate(data.get("steps", []), 1)), fallback)


def _step(number: int, raw: Any) -> Step:
    where = f"step {number}"
    if not isinstance(raw, Mapping):
        raise ScriptError(f"{where} is not an object")
    when = raw.get("when")
    if not isinstance(when, Mapping) or len(when) != 1:
        raise ScriptError(
            f'{where}: "when" names one of "nth_with_tools" (an integer) or '
            '"last_user_contains" (a string)'
        )
    nth, contains = when.get("nth_with_tools"), when.get("last_user_contains")
    if not (isinstance(nth, int) and nth >= 1) and not (isinstance(contains, str) and contains):
        raise ScriptError(f'{where}: "when" names no request it answers')
    content = raw.get("content")
    if not isinstance(content, list) or not content:
        raise ScriptError(f'{where}: "content" is a non-empty list of blocks')
    blocks = []
    for block in content:
        kind = block.get("type") if isinstance(block, Mapping) else None
        if kind == "text" and isinstance(block.get("text"), str):
            blocks.append({"type": "text", "text": block["text"]})
        elif kind == "tool_use" and isinstance(block.get("name"), str):
            tool_input = block.get("input", {})
            if not isinstance(tool_input, Mapping):
                raise ScriptError(f'{where}: a tool_use "input" is an object')
            tool = {"type": "tool_use", "name": block["name"], "input": dict(tool_input)}
            if isinstance(block.get("id"), str):
                tool["id"] = block["id"]
            blocks.append(tool)
        else:
            raise ScriptError(
                f'{where}: a block is {{"type": "text", "text": …}} or '
                '{"type": "tool_use", "name": …, "input": {…}}'
            )
    usage = raw.get("usage", {})
    if not isinstance(usage, Mapping) or not all(isinstance(v, int) for v in usage.values()):
        raise ScriptError(f'{where}: "usage" maps token counters to integers')
    stop = raw.get("stop_reason")
    if stop is not None and not isinstance(stop, str):
        raise ScriptError(f'{where}: "stop_reason" is a string')
    return Step(
        tuple(blocks),
        nth if isinstance(nth, int) else None,
        contains if isinstance(contains, str) else None,
        stop,
        dict(usage),
    )


# --- what was asked -----------------------------------------------------------------------


@dataclass
class Received:
    """One request as the server received it, and how it was answered."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, else the raw text ('' for none)
    number: int = 0  # 1-based, in the order requests arrived
    step: int | None = None  # 1-based index of the script step that answered, else None
    nth_with_tools: int | None = None  # its rank among the requests that offer tools

    @property
    def is_message(self) -> bool:
        return self.method == "POST" and self.path.split("?")[0] == "/v1/messages"

    @property
    def streaming(self) -> bool:
        return isinstance(self.body, Mapping) and self.body.get("stream") is True

    @property
    def offers_tools(self) -> bool:
        return isinstance(self.body, Mapping) and bool(self.body.get("tools"))

    def messages(self) -> list[dict[str, Any]]:
        raw = self.body.get("messages") if isinstance(self.body, Mapping) else None
        return [m for m in raw if isinstance(m, dict)] if isinstance(raw, list) else []

    def system_text(self) -> str:
        system = self.body.get("system") if isinstance(self.body, Mapping) else None
        return system if isinstance(system, str) else "\n".join(_texts(system))

    def text(self) -> str:
        """Every text the model is shown: the system prompt and each message's texts, in
        order (tool results included), one string."""
        return "\n".join([self.system_text(), *(t for m in self.messages() for t in _texts(m))])

    def last_user_text(self) -> str:
        users = [m for m in self.messages() if m.get("role") == "user"]
        return "\n".join(_texts(users[-1])) if users else ""

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "method": self.method,
            "path": self.path,
            "body": self.body,
            "step": self.step,
            "nth_with_tools": self.nth_with_tools,
        }


def _texts(value: Any) -> Iterator[str]:
    """The strings of a message or content tree, in order: `text`, `content`, `input` values."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, Mapping):
        if isinstance(value.get("text"), str):
            yield value["text"]
        if "content" in value:
            yield from _texts(value["content"])
        if isinstance(value.get("input"), Mapping):
            yield json.dumps(value["input"], ensure_ascii=False)


# --- the server -------------------------------------------------------------------------------


class ScriptedModel:
    """The server, in a thread of this process (`with ScriptedModel(script) as model: …`) or
    on its own (`main`). `requests` holds every request received, in order."""

    def __init__(self, script: Script | Mapping[str, Any] | Path | str, port: int = 0) -> None:
        self.script = script if isinstance(script, Script) else Script.load(script)
        self.requests: list[Received] = []
        self._spent: set[int] = set()
        self._with_tools = 0
        self._lock = threading.Lock()
        self._listeners: list[Any] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", port), _handler_for(self))
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> ScriptedModel:
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> ScriptedModel:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def serve_forever(self) -> None:
        self._server.serve_forever()

    def on_request(self, listener: Any) -> None:
        """`listener(received)` for each request, before it is answered (the standalone log)."""
        self._listeners.append(listener)

    # -- what the tests read --------------------------------------------------------------

    def model_requests(self) -> list[Received]:
        """The `POST /v1/messages` requests, in the order they arrived."""
        with self._lock:
            return [r for r in self.requests if r.is_message]

    def unanswered_steps(self) -> list[int]:
        """1-based numbers of the script steps no request has matched (yet)."""
        with self._lock:
            return [i for i in range(1, len(self.script.steps) + 1) if i not in self._spent]

    # -- answering ------------------------------------------------------------------------

    def _answer(self, received: Received) -> Step | None:
        """The step that answers this request (spent from now on), or None for the fallback."""
        with self._lock:
            self.requests.append(received)
            received.number = len(self.requests)
            if not received.is_message:
                return None
            if received.offers_tools:
                self._with_tools += 1
                received.nth_with_tools = self._with_tools
            last_user = received.last_user_text()
            for number, step in enumerate(self.script.steps, 1):
                if number not in self._spent and step.matches(received.nth_with_tools, last_user):
                    self._spent.add(number)
                    received.step = number
                    return step
            return None

    def _notify(self, received: Received) -> None:
        for listener in self._listeners:
            listener(received)


def _handler_for(model: ScriptedModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the client's HTTP library expects

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass  # the requests are kept, not logged

        def _received(self) -> Received:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            try:
                body: Any = json.loads(raw) if raw else ""
            except json.JSONDecodeError:
                body = raw
            headers = {k.lower(): v for k, v in self.headers.items()}
            return Received(self.command, self.path, headers, body)

        def _send(self, status: int, content_type: str, payload: bytes) -> None:
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(payload)))
            self.send_header("request-id", "req_scripted")
            self.end_headers()
            if self.command != "HEAD":  # a HEAD answer has headers only
                self.wfile.write(payload)

        def _serve(self) -> None:
            received = self._received()
            step = model._answer(received)
            model._notify(received)  # logged before it is answered: the log is never behind
            path = received.path.split("?")[0]
            if path == "/api/hello":  # the client's reachability check, when it makes one
                self._send(200, "application/json", b"{}")
            elif received.method == "POST" and path == "/v1/messages/count_tokens":
                tokens = {"input_tokens": _estimate_tokens(received)}
                self._send(200, "application/json", json.dumps(tokens).encode())
            elif received.is_message:
                message = _message(model, received, step)
                if received.streaming:
                    self._send(200, "text/event-stream", _events(message).encode())
                else:
                    self._send(200, "application/json", json.dumps(message).encode())
            else:
                error = {"type": "error", "error": {"type": "not_found_error", "message": path}}
                self._send(404, "application/json", json.dumps(error).encode())

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _serve  # noqa: N815

    return Handler


def _estimate_tokens(received: Received) -> int:
    return max(1, int(len(json.dumps(received.body)) * _TOKENS_PER_BYTE))


def _message(model: ScriptedModel, received: Received, step: Step | None) -> dict[str, Any]:
    """The assistant message answering `received` (ids are deterministic per request)."""
    number = received.number
    body = received.body if isinstance(received.body, Mapping) else {}
    if step is None:
        content: list[dict[str, Any]] = [{"type": "text", "text": _fallback_text(model, body)}]
    else:
        content = [dict(block) for block in step.content]
    for index, block in enumerate(content):
        if block["type"] == "tool_use":
            block.setdefault("id", f"toolu_scripted_{number:03d}_{index}")
    has_tool = any(block["type"] == "tool_use" for block in content)
    stop = (step.stop_reason if step else None) or ("tool_use" if has_tool else "end_turn")
    usage = {
        "input_tokens": _estimate_tokens(received),
        "output_tokens": max(1, len(json.dumps(content)) // 4),
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }
    usage.update(step.usage if step else {})
    return {
        "id": f"msg_scripted_{number:03d}",
        "type": "message",
        "role": "assistant",
        "model": str(body.get("model") or "scripted"),
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }


def _fallback_text(model: ScriptedModel, body: Mapping[str, Any]) -> str:
    """The fixed reply, or, when the request asks for structured output (the client's session
    title query does), the smallest JSON its schema accepts: a reply the client can parse."""
    config = body.get("output_config")
    form = config.get("format") if isinstance(config, Mapping) else None
    if isinstance(form, Mapping) and form.get("type") == "json_schema":
        return json.dumps(_instance(form.get("schema"), model.script.fallback))
    return model.script.fallback


def _instance(schema: Any, text: str) -> Any:
    """A minimal value of a JSON schema: required properties only, first enum value, `text`
    for strings."""
    if not isinstance(schema, Mapping):
        return text
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        properties = schema.get("properties")
        properties = properties if isinstance(properties, Mapping) else {}
        return {name: _instance(properties.get(name), text) for name in schema.get("required", [])}
    return {"array": [], "integer": 0, "number": 0, "boolean": False, "null": None}.get(
        str(kind), text
    )


def _events(message: Mapping[str, Any]) -> str:
    """The message as the streaming API sends it: every block opened empty, filled by one
    delta (text, or the tool input as one JSON fragment), closed."""
    start = {**message, "content": [], "stop_reason": None}
    start["usage"] = {**message["usage"], "output_tokens": 1}
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            opened: dict[str, Any] = {"type": "text", "text": ""}
            delta: dict[str, Any] = {"type": "text_delta", "text": block["text"]}
        else:
            opened = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": opened},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": message["usage"]["output_tokens"]},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events)


# --- standalone --------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripted_model.py",
        description="Answer the Anthropic Messages API from a script, on 127.0.0.1 "
        "(format: scripted_model.md). Prints the base URL as the first line.",
    )
    parser.add_argument("--script", required=True, type=Path, help="the script (JSON)")
    parser.add_argument("--port", type=int, default=0, help="port (default: any free one)")
    parser.add_argument(
        "--requests", type=Path, help="append every request received to this file (JSON lines)"
    )
    args = parser.parse_args(argv)
    try:
        model = ScriptedModel(Script.load(args.script), args.port)
    except (OSError, ValueError) as exc:  # unreadable, not JSON, not a script, port taken
        print(f"scripted_model.py: {exc}", file=sys.stderr)
        print(
            "hint: see tests/integration/scripted_model.md for the script format", file=sys.stderr
        )
        return 2
    if args.requests is not None:
        log = args.requests

        def append(received: Received) -> None:
            with log.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(received.as_json(), ensure_ascii=False) + "\n")

        model.on_request(append)
    print(model.url, flush=True)
    try:
        model.serve_forever()
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
