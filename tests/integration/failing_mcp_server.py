"""A stdio MCP server with one tool, `fail`, whose call fails with whatever text it is given:
an MCP tool can return any error text, so the suite uses it to make the pinned client record a
tool error that imitates Claude Code's denial sentence (test_client_denial.py).

Newline-delimited JSON-RPC 2.0 on stdin/stdout, standard library only: `initialize`,
`tools/list`, `tools/call`; notifications are read and ignored."""

from __future__ import annotations

import json
import sys
from typing import Any

TOOL = {
    "name": "fail",
    "description": "Fails with the given text.",
    "inputSchema": {
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
    },
}


def answer(request: dict[str, Any]) -> dict[str, Any]:
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        result: dict[str, Any] = {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "fail", "version": "1"},
        }
    elif method == "tools/list":
        result = {"tools": [TOOL]}
    elif method == "tools/call":
        text = str((params.get("arguments") or {}).get("text", ""))
        result = {"content": [{"type": "text", "text": text}], "isError": True}
    else:
        error = {"code": -32601, "message": f"method not found: {method}"}
        return {"jsonrpc": "2.0", "id": request.get("id"), "error": error}
    return {"jsonrpc": "2.0", "id": request.get("id"), "result": result}


def main() -> int:
    for line in sys.stdin:
        request = json.loads(line)
        if "id" in request:  # a request; notifications get no answer
            sys.stdout.write(json.dumps(answer(request)) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
