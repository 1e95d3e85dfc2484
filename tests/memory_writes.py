"""Transcripts in which the model writes its own memory, in the shapes the pinned client records
(tests/fixtures/transcripts/client-2.1.332, docs/claude-client-records.md): an `assistant`
record with a Write / Edit `tool_use`, then the `user` record answering it with the file as
written in `toolUseResult`. Our own example text; the shapes are the client's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

VERSION = "2.1.332"


def _base(session: str, stamp: str, cwd: str) -> dict[str, Any]:
    return {"sessionId": session, "timestamp": stamp, "cwd": cwd, "version": VERSION,
            "userType": "external", "isSidechain": False, "gitBranch": "main"}  # fmt: skip


def prompt(session: str, stamp: str, text: str, cwd: str = "/home/user/proj") -> dict[str, Any]:
    return {**_base(session, stamp, cwd), "type": "user", "promptSource": "sdk",
            "message": {"role": "user", "content": text}, "uuid": f"u-{stamp}"}  # fmt: skip


def write(session: str, stamp: str, path: Path, content: str, *, call_id: str, error: bool = False,
          cwd: str = "/home/user/proj") -> list[dict[str, Any]]:  # fmt: skip
    """The Write call and its result (the client's `create` result, or an error)."""
    call = {**_base(session, stamp, cwd), "type": "assistant", "uuid": f"a-{call_id}",
            "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": call_id, "name": "Write",
                 "input": {"file_path": str(path), "content": content}}]}}  # fmt: skip
    if error:
        result: Any = "Error: EACCES: permission denied"
        block = {"tool_use_id": call_id, "type": "tool_result", "content": result, "is_error": True}
    else:
        result = {"type": "create", "filePath": str(path), "content": content, "structuredPatch": [],
                  "originalFile": None, "memdirStamped": True}  # fmt: skip
        block = {"tool_use_id": call_id, "type": "tool_result", "content": f"File created successfully at: {path}"}
    answer = {**_base(session, stamp, cwd), "type": "user", "uuid": f"r-{call_id}",
              "message": {"role": "user", "content": [block]}, "toolUseResult": result,
              "sourceToolAssistantUUID": f"a-{call_id}"}  # fmt: skip
    return [call, answer]


def edit(session: str, stamp: str, path: Path, original: str, old: str, new: str, *, call_id: str,
         cwd: str = "/home/user/proj") -> list[dict[str, Any]]:  # fmt: skip
    call = {**_base(session, stamp, cwd), "type": "assistant", "uuid": f"a-{call_id}",
            "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": call_id, "name": "Edit",
                 "input": {"file_path": str(path), "old_string": old, "new_string": new}}]}}  # fmt: skip
    answer = {**_base(session, stamp, cwd), "type": "user", "uuid": f"r-{call_id}",
              "message": {"role": "user", "content": [
                  {"tool_use_id": call_id, "type": "tool_result", "content": f"The file {path} has been updated."}]},
              "toolUseResult": {"filePath": str(path), "oldString": old, "newString": new, "originalFile": original,
                                "structuredPatch": [], "userModified": False, "replaceAll": False}}  # fmt: skip
    return [call, answer]


def save(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return path


def topic(description: str, rule: str, *, kind: str = "feedback", session: str | None = None,
          why: str = "it broke twice", how: str = "check before acting") -> str:
    """A topic file as the client writes it (frontmatter under `metadata:`)."""
    stamp = f"\n  originSessionId: {session}" if session else ""
    return (f"---\nname: {description.lower().replace(' ', '-')[:30]}\ndescription: {description}\n"
            f"metadata:\n  node_type: memory\n  type: {kind}{stamp}\n---\n\n{rule}\n\n"
            f"**Why:** {why}\n**How to apply:** {how}\n")
