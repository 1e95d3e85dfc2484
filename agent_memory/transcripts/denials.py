"""A refused tool use, recognised from the fields Claude Code sets for one: the reason
the person typed when they said no is their words; any tool's error text is not, whatever it
says — an MCP server, a hook or a failing command can write the denial sentence as well as the
client can.

A tool_result is the person's refusal only when all of these hold (docs/claude-client-records.md
has the recorded shapes):

1. the record: a trusted `type: user` record whose message holds exactly one `tool_result` block
   (and at most the images the person attached to the refusal), `is_error: true`, no `mcpMeta`;
2. the call: its `tool_use_id` answers a call of the latest assistant message of its chain, and
   `sourceToolAssistantUUID`, when the record has one, names that call's record (`ToolCalls`);
3. the client's denial marker, the first that applies:
   - `toolDenialKind` (2.1.202 on): `"user-rejected"` is the person; any other kind
     (`permission-rule`, `automode-blocked`, `cancelled`, `interrupted`) is not. From that
     version on every denial carries it, so a result without it is never a denial — nor is
     one whose record carries no client `version` to say which shapes apply;
   - `toolUseResult == "User rejected tool use"`: the client's own constant (2.1.x); no tool
     output can set it on an `is_error` result (a failure is written `"Error: …"`);
   - the older shape, `toolUseResult == "Error: " + content` (1.0.x–2.1.x), is the shape of
     every failed tool too. It counts only for the client's built-in tools, whose failures the
     client words itself, so they never open with the denial sentence: never an MCP or any
     unknown tool, never a shell tool before 2.0 (1.0.x wrote a failing command's raw output);
4. the text: the content starts with one of the client's fixed denial-with-reason sentences;
   the reason is what follows it.

Where the record says more (2.1.332), that must agree too: `permissionDecision` present means
`{decision: "reject", source: "user_reject"}` (a rule's or the headless client's own refusal
says `source: "config"`, a tool that ran says `decision: "accept"`), and `userFeedback`, the
reason as typed, must equal the text after the sentence.

A PreToolUse hook's deny reason has the older shape for any tool and is not told apart there: a
hook is a program the person installed and trusted, which could as well write memory itself.
"""

from __future__ import annotations

import re
from typing import Any

from agent_memory.transcripts.typed import block_text, is_user_record, message_of, sanitize

SHELL_TOOLS = frozenset({"Bash", "PowerShell", "Shell", "run_shell_command"})
# Tool calls kept per pending tool_use id (for rejection and failure context).
MAX_COMMAND_CHARS = 400

USER_REJECTED_KIND = "user-rejected"
USER_REJECT_SOURCE = "user_reject"
USER_REJECTED_RESULT = "User rejected tool use"
# The first version whose records carry `toolDenialKind` on every denial.
_KIND_FIELD_SINCE = (2, 1, 202)
# Shell failures start "Exit code N" from 2.0 (1.0.x wrote the command's raw output).
_SHELL_WORDED_SINCE = (2, 0, 0)
# The client's built-in tools of the clients that wrote the older shape: their failures are
# sentences of the client's (`File does not exist.`, `<tool_use_error>…`, `Exit code 1 …`).
_CLIENT_WORDED_TOOLS = frozenset(
    {
        "Agent",
        "AskUserQuestion",
        "BashOutput",
        "Edit",
        "EnterPlanMode",
        "ExitPlanMode",
        "Glob",
        "Grep",
        "KillBash",
        "KillShell",
        "LS",
        "MultiEdit",
        "NotebookEdit",
        "NotebookRead",
        "Read",
        "SlashCommand",
        "Skill",
        "Task",
        "TaskOutput",
        "TodoRead",
        "TodoWrite",
        "WebFetch",
        "WebSearch",
        "Write",
    }
)

# The denial Claude Code writes as the tool_result when the user refuses a tool use (1.0.x
# to 2.1.x), then the reason the user typed. Matched at the START of the content only.
_REJECTION = re.compile(
    r"\A\s*(?:The user doesn't want to proceed with this tool use\.|"
    r"Permission for this tool use was denied\.)"
    r"(?: The tool use was rejected \(eg\. if it was a file edit, the new_string was NOT written to "
    r"the file\)\.)?\s*"
    r"(?:The user provided the following reason for the rejection:|"  # up to 2.0.x
    r"To tell you how to proceed, the user said:|"  # 2.1.x
    r"The user said:)"  # 2.1.x subagent denial
    r"(?P<reason>.*)\Z",
    re.S,
)
_REJECTION_TAIL = re.compile(
    r"\n\s*Note: The user's next message may contain a correction.*\Z", re.S
)
_REJECTION_BOILERPLATE = ("the user wants to clarify these questions",)
_VERSION = re.compile(r"\A(\d+)\.(\d+)\.(\d+)")


def rejection_reason(text: str) -> str | None:
    """The reason typed after the client's fixed denial sentence at the START of `text`, or
    None. The text test only: `denial_reason` decides from the record's fields first."""
    m = _REJECTION.match(text)
    if not m:
        return None
    reason = _REJECTION_TAIL.sub("", m.group("reason")).strip()
    if not reason or reason.lower().startswith(_REJECTION_BOILERPLATE):
        return None
    return sanitize(reason)


def _version(data: dict[str, Any]) -> tuple[int, int, int] | None:
    value = data.get("version")
    m = _VERSION.match(value) if isinstance(value, str) else None
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def _only_result(data: dict[str, Any], block: dict[str, Any]) -> bool:
    """The record holds this one tool_result and nothing but images besides."""
    content = message_of(data).get("content")
    if not isinstance(content, list):
        return False
    others = [b for b in content if b is not block]
    return len(others) == len(content) - 1 and all(
        isinstance(b, dict) and b.get("type") == "image" for b in others
    )


def denial_marked(data: dict[str, Any], block: dict[str, Any], tool: str) -> bool:
    """Whether the record's own fields say the person refused this call (points 1 and 3 of the
    module docstring; the call linkage is `ToolCalls.answers`)."""
    if not is_user_record(data) or block.get("is_error") is not True or "mcpMeta" in data:
        return False
    content = block.get("content")
    if not isinstance(content, (str, list)) or not _only_result(data, block):
        return False
    decision = data.get("permissionDecision")
    if decision is not None and not (
        isinstance(decision, dict)
        and decision.get("decision") == "reject"
        and decision.get("source") == USER_REJECT_SOURCE
    ):
        return False  # the client says who decided (2.1.332): accepted, or a rule, not a person
    if "toolDenialKind" in data:
        return data.get("toolDenialKind") == USER_REJECTED_KIND
    version = _version(data)
    if version is None or version >= _KIND_FIELD_SINCE:
        return False  # no era to read the shape in, or a client that marks every denial
    result = data.get("toolUseResult")
    if result == USER_REJECTED_RESULT:
        return True
    if not isinstance(content, str) or result != f"Error: {content}":
        return False
    if tool in SHELL_TOOLS:
        return version >= _SHELL_WORDED_SINCE
    return tool in _CLIENT_WORDED_TOOLS


class ToolCalls:
    """The tool calls the assistant made: every unanswered one (tool name and shell command, for
    rejection and failure context) and, per conversation chain, the ids of the *latest*
    assistant message — the only calls a permission prompt can be answering."""

    def __init__(self) -> None:
        self.pending: dict[str, tuple[str, str]] = {}
        self.latest: dict[tuple[bool, str], tuple[str, set[str]]] = {}
        self.record_of: dict[str, str] = {}  # tool_use id -> uuid of the assistant record

    @staticmethod
    def _chain(data: dict[str, Any]) -> tuple[bool, str]:
        agent = data.get("agentId")
        return bool(data.get("isSidechain")), agent if isinstance(agent, str) else ""

    def note(self, data: dict[str, Any]) -> None:
        message = message_of(data)
        content = message.get("content")
        msg_id = message.get("id") or data.get("uuid") or ""
        chain = self._chain(data)
        current = self.latest.get(chain)
        if current is None or current[0] != msg_id or not msg_id:
            current = (str(msg_id), set())
            self.latest[chain] = current
        if not isinstance(content, list):
            return
        uuid = str(data.get("uuid") or "")
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("id"):
                ident = str(block["id"])
                name = str(block.get("name", ""))
                args = block.get("input")
                command = (
                    args.get("command") if name in SHELL_TOOLS and isinstance(args, dict) else ""
                )
                self.pending[ident] = (name, str(command or "")[:MAX_COMMAND_CHARS])
                current[1].add(ident)
                self.record_of[ident] = uuid
        if len(self.pending) > 10000:  # results that never came; keep memory bounded
            for key in list(self.pending)[:5000]:
                del self.pending[key]
                self.record_of.pop(key, None)

    def answers(self, data: dict[str, Any], tool_id: str) -> bool:
        """The result answers a call of the latest assistant message of its chain (and of the
        very record `sourceToolAssistantUUID` names, when the record names one)."""
        if not tool_id:
            return False
        current = self.latest.get(self._chain(data))
        if current is None or tool_id not in current[1]:
            return False
        source = data.get("sourceToolAssistantUUID")
        return source is None or source == self.record_of.get(tool_id)


def denial_reason(
    data: dict[str, Any], block: dict[str, Any], tool_id: str, tool: str, calls: ToolCalls
) -> str | None:
    """The reason the person typed when refusing this call, or None when the record is not the
    client's denial (by its fields) or carries no reason."""
    if not calls.answers(data, tool_id) or not denial_marked(data, block, tool):
        return None
    reason = rejection_reason(block_text(block.get("content")))
    feedback = data.get("userFeedback")
    if reason is not None and "userFeedback" in data:
        # 2.1.332 also records the reason as typed: both must say the same
        typed = sanitize(feedback.strip()) if isinstance(feedback, str) else ""
        return typed if typed and typed == reason else None
    return reason


def rejection_texts(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(tool_use_id, reason) for every refusal-with-reason in one record, judged from that record
    alone (for showing a back-pointer's line with `inspect --why`, never as a source)."""
    content = message_of(data).get("content")
    if not is_user_record(data) or not isinstance(content, list):
        return []
    out = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            reason = rejection_reason(block_text(block.get("content")))
            if reason and block.get("is_error") is True:
                out.append((str(block.get("tool_use_id", "")), reason))
    return out
