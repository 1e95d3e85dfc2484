"""What in a `user` record is the person's typing: prompts and `#` memory notes, decided from the
record's structure and the client's own wrappers, never from a phrase.

The client writes much that is not typing into `user` records, each time inside one of its own
wrapper elements (`CLIENT_WRAPPERS`: shell-mode output, slash-command echoes, IDE context,
reminders, notifications, pastes …). Such text is cut out of a prompt whole: from a wrapper's
opening tag to the *last* closing tag of the same name in the block (an unclosed one to the
block's end), so text inside a wrapper cannot close it early and leak out as typing.

A memory note (`<user-memory-input>`, the `#` shortcut of 1.0.x–2.0.x) counts only in the shape
the client writes it: a record of its own whose whole content is that one element
(`memory_note`). The same element anywhere else — inside command output, an IDE selection, a
paste, a reminder, next to other text — is not a note, and is cut out like any wrapper."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Every element the client wraps around text it did not take from the keyboard: Claude Code's
# `constants/xml.ts` vocabulary, the IDE and hook wrappers, and those seen in the recorded
# transcripts (docs/claude-client-records.md lists them with what each holds).
CLIENT_WRAPPERS = (
    "bash-input",
    "bash-stdout",
    "bash-stderr",
    "bash-exit-code",
    "local-command-stdout",
    "local-command-stderr",
    "local-command-caveat",
    "command-name",
    "command-message",
    "command-args",
    "command-contents",
    "task-notification",
    "teammate-message",
    "channel-message",
    "channel",
    "cross-session-message",
    "fork-boilerplate",
    "forked-skill-launch",
    "ultraplan",
    "remote-review",
    "remote-review-progress",
    "mcp-resource-update",
    "mcp-polling-update",
    "system-reminder",
    "system-notification",
    "environment_context",
    "turn_aborted",
    "user-prompt-submit-hook",
    "session-start-hook",
    "post-tool-use-hook",
    "ide_opened_file",
    "ide_selection",
    "ide_diagnostics",
    "user-memory-input",
)

# Text that is the harness, a command, a hook or another agent talking, never the user: a
# block starting with one of these yields nothing at all.
_MACHINE_PREFIXES = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<command-contents>",
    "<local-command-",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<bash-exit-code>",
    "caveat: the messages below",
    "[request interrupted",
    "<task-notification",
    "<teammate-message",
    "<mcp-resource-update",
    "<mcp-polling-update",
    "<channel",
    "<cross-session",
    "<environment_context",
    "<turn_aborted",
    "<system-notification",
    "<fork-boilerplate",
    "<forked-skill-launch",
    "<ultraplan",
    "<remote-review",
    "[tool result missing",
    "(no content)",
    "no response requested.",
    "<session-start-hook>",
    "<user-prompt-submit-hook>",
    "<post-tool-use-hook>",
    "<agent-memory",
    # a memory plugin's observer session (claude-mem): the primary session's tool calls,
    # replayed to a second agent as its "prompt" by a program
    "<observed_from_primary_session",
)
_MACHINE_ANYWHERE = (
    "<command-message>",
    "<command-name>",
    "<bash-input>",
    "<local-command-caveat>",
    "<task-notification",
    "<mcp-resource-update",
    "<mcp-polling-update",
    "<teammate-message",
)
# Prompts the harness writes on the user's behalf (plan mode, compaction, /init, the desktop
# app's preview button ...).
_HARNESS_PROMPTS = (
    "implement the following plan",
    "detect my project's dev servers and save all their configurations",
    "this session is being continued from a previous conversation",
    "please analyze this codebase and create a claude.md",
    "your task is to create a detailed summary of the conversation",
)
# Our own hooks' wrapper too, in any case: model/wrapper.py escapes every spelling of it that
# this matches in a claim we inject, so a claim can neither end it early nor open one.
_WRAPPER_NAMES = "|".join(re.escape(t) for t in CLIENT_WRAPPERS) + r"|agent-memory[\w-]*"
# A tag's attributes, bounded: unbounded, every "<tag" with no ">" after it scanned to the end of
# the text, so a prompt of many such openers took quadratic time (96 KB of "<context ": 0.56 s).
_ATTRS = r"[^>]{0,400}"
# A wrapper element, from its opening tag to the LAST closing tag of its name (greedy): the
# client writes its own closer after whatever it wraps, so a closer inside the wrapped text can
# only lengthen the cut, never end it early. No closer: to the end of the block.
_WRAPPER_BLOCK = re.compile(
    rf"<({_WRAPPER_NAMES})(?=[\s>/]){_ATTRS}>(?:.*</\1\s*>|.*\Z)",
    re.S | re.I,
)
# Text the user pasted rather than typed: 2.1.x wraps a long paste as
# `<pasted_content id="…">…</pasted_content id="…">`; other clients attach files and documents
# the same way (`<context>`, `<document>`, `<attachment>`, which count only when closed). It
# yields nothing unless the typed words around it ask to keep it. Greedy to the last closer of
# the same name, as above (`paste_spans`).
_PASTE_FRAMED = re.compile(
    r"^\W*(?:please\s+|pls\s+|also\s+|and\s+)*(?:remember|memori[sz]e|note|keep in mind|"
    r"save|store|add|put|write|record)\b[^\n]{0,80}?\b(?:this|these|that|the following|it|them|"
    r"rules?|preferences?|memory|claude\.md)\b[\s:.,!-]*$",
    re.I,
)
_PASTE_INNER = re.compile(rf"</?[\w-]+\b{_ATTRS}>")
# (Found in linear time: one regex tried at each opener scanned to the text's end for the last
# closer, so a text of many unclosed `<context>` openers took time quadratic in its length,
# 96 KB: 0.44 s, four times that at twice the size.)
_PASTE_OPENER = re.compile(
    r"<(?:(pasted[_-]?(?:content|text)|clipboard[_-]?(?:content|text)?|paste)|"
    rf"(context|document|attachment))\b{_ATTRS}>",
    re.I,
)
_PASTED_FROM = re.compile(
    rf"<(pasted[_-]?(?:content|text)|clipboard[_-]?(?:content|text)?|paste)\b{_ATTRS}>"
    rf"(?:.*</\1\b{_ATTRS}>|.*\Z)",
    re.S | re.I,
)
_CLOSER = re.compile(rf"</(context|document|attachment)\b{_ATTRS}>", re.I)


def paste_spans(text: str) -> list[tuple[int, int]]:
    """The pasted blocks of `text`, left to right: each from its opener, greedy to the last
    closer of the same name; a `<pasted…>` block left unclosed runs to the end, a `<context>`,
    `<document>` or `<attachment>` one is no block."""
    last: dict[str, tuple[int, int]] = {}
    for c in _CLOSER.finditer(text):
        last[c.group(1).lower()] = (c.start(), c.end())
    spans: list[tuple[int, int]] = []
    pos = 0
    while True:
        m = _PASTE_OPENER.search(text, pos)
        if m is None:
            return spans
        if m.group(1):
            block = _PASTED_FROM.match(text, m.start())
            end = block.end() if block else m.end()
        else:
            closer = last.get(m.group(2).lower())
            if closer is None or closer[0] < m.end():
                pos = m.start() + 1
                continue
            end = closer[1]
        spans.append((m.start(), end))
        pos = end if end > m.start() else m.start() + 1


_PLACEHOLDERS = re.compile(r"\[(?:Image|Pasted text|Pasted image)\b[^\]]{0,60}\]", re.I)
# The one shape of a `#` note: the element is the whole text, holding no second marker.
_MEMORY_NOTE = re.compile(
    r"\A\s*<user-memory-input>(?P<note>(?:(?!</?user-memory-input\b).)*)</user-memory-input>\s*\Z",
    re.S,
)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def sanitize(text: str) -> str:
    # Lone surrogates (from `\ud800` escapes: a client cut text inside an emoji) cannot be
    # written as UTF-8: each half of an emoji is dropped, as NULs are (noise). Not made "?"
    # (what encoding with "replace" gives): "use a v prefix ? in tags." reads as a question,
    # and the user's statement was lost; nor U+FFFD, which would keep a claim from merging
    # with the same words said without it.
    if "\x00" in text:
        text = text.replace("\x00", "")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = _LONE_SURROGATE.sub("", text)
    return text


def message_of(data: dict[str, Any]) -> dict[str, Any]:
    message = data.get("message")
    return message if isinstance(message, dict) else {}


def has_block(content: Any, kind: str) -> bool:
    """Whether a message `content` is a list holding a block of type `kind` ("tool_use",
    "tool_result", …)."""
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == kind for b in content
    )


def block_text(content: Any) -> str:
    """The text of a message or tool_result `content`: a string, or its text blocks joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text", ""))
            for b in content
            if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def _strip_pastes(text: str) -> str:
    """The typed words without pasted blocks; a paste the typed words frame ("remember this:")
    is kept, unwrapped, because the user asked for it to be kept."""
    spans = paste_spans(text) if "<" in text else []
    if not spans:
        return text
    typed = _joined_around(text, spans, lambda _block: " ")
    if _PASTE_FRAMED.match(typed.strip()):
        return _joined_around(text, spans, lambda block: "\n" + _PASTE_INNER.sub("", block) + "\n")
    return typed


def _joined_around(text: str, spans: list[tuple[int, int]], put: Callable[[str], str]) -> str:
    out, pos = [], 0
    for start, end in spans:
        out.append(text[pos:start])
        out.append(put(text[start:end]))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def clean_prompt(text: str) -> str | None:
    """A typed prompt's text with the client's wrappers and pastes cut out; None when it is not
    the user's."""
    head = text.lstrip()[:200].lower()
    if not head or head.startswith(_MACHINE_PREFIXES) or any(m in text for m in _MACHINE_ANYWHERE):
        return None
    cleaned = _WRAPPER_BLOCK.sub(" ", _strip_pastes(text)) if "<" in text else text
    cleaned = _PLACEHOLDERS.sub(" ", cleaned).strip()
    if not cleaned:
        return None
    low = cleaned[:200].lower()
    if low.startswith(_HARNESS_PROMPTS) or low.startswith(_MACHINE_PREFIXES):
        return None
    return sanitize(cleaned)


def is_user_record(data: dict[str, Any]) -> bool:
    """A `type: user` record carrying a user-role message that the harness did not mark as its
    own (meta, compaction, transcript-only) nor as coming from something other than a human."""
    if data.get("type") != "user":
        return False
    message = data.get("message")
    if not isinstance(message, dict) or message.get("role", "user") != "user":
        return False
    origin = data.get("origin")
    if origin is not None and (not isinstance(origin, dict) or origin.get("kind") != "human"):
        return False
    return not (
        data.get("isMeta") or data.get("isCompactSummary") or data.get("isVisibleInTranscriptOnly")
    )


def is_subagent_file(path: str | Any) -> bool:
    """A subagent's transcript, by layout: `<slug>/agent-*.jsonl` (2.0.x) or
    `<slug>/<session>/subagents/agent-*.jsonl` (2.1.x). Its "prompts" are the parent agent
    writing to the subagent, whether or not the records say `isSidechain`."""
    p = Path(path)
    return p.name.startswith("agent-") or "subagents" in p.parts[:-1]


# Fields 2.1.x writes on a prompt row, or on a `queued_command` attachment, whose text no
# person typed in this session; the client's own test for a typed row (`isMeta`,
# `textNotTyped`, `handedOff`, `queueSkipAttachments`, `queueTranscriptOnly`) refuses them too:
# - `textNotTyped`: an SDK host sent the message with `text_not_typed` ("a server or an app
#   composed it");
# - `queueSkipAttachments`: sent with `client_composed` (the host app wrote it), or queued by
#   the harness;
# - `handedOff`: history a host handed over from elsewhere, not typed here;
# - `queueTranscriptOnly`: written for the record only, never sent as a turn;
# - `promptRewritten`: a hook replaced the typed text with its own;
# - `fromAnotherSession`, `fromConnector`, `verifiedSlackHumanTurn`, `emailSenderTurn`: a
#   message relayed from elsewhere (another session, a connector, a Slack thread, an email's
#   sender), not typed at this session's keyboard;
# - `wakeupSource`, `scheduledTaskId`, `scheduledFireId`: a prompt a schedule fired (`/loop`,
#   or one the model set up with its Cron tools).
_NOT_TYPED_FLAGS = (
    "textNotTyped",
    "handedOff",
    "queueSkipAttachments",
    "queueTranscriptOnly",
    "promptRewritten",
    "fromAnotherSession",
    "fromConnector",
    "verifiedSlackHumanTurn",
    "isVirtual",
    "noPersonArrived",
)
# (`foreignWord`: a teammate's reply, a relay's words, delivered as a prompt.)
_NOT_TYPED_PRESENT = (
    "emailSenderTurn",
    "wakeupSource",
    "scheduledTaskId",
    "scheduledFireId",
    "foreignWord",
)
# `promptSource`/`inputSource`: "system" (the client's notices), "suggestion_accepted" (the
# model's suggested next prompt, accepted with a key: the model's words). `rowSource`: "hook"
# (a hook's text or rows a hook made), "harness" (the client's own).
_NOT_TYPED_SOURCES = {
    "promptSource": ("system", "suggestion_accepted"),
    "inputSource": ("system", "suggestion_accepted"),
    "rowSource": ("hook", "harness"),
}


# `turnOrigin`: what started the turn. The client's own finder of the person's last prompt
# (2.1.332) takes only these; "task_notification", "host_synthetic", "hook", "peer", "loop",
# "scheduled", "channel", "remote" … are something else starting it.
_PERSONS_TURNS = ("human", "sdk", "unknown")


def not_typed(fields: dict[str, Any]) -> bool:
    """Whether a user row's (or a queued command's) own fields say nobody typed its text."""
    if any(fields.get(flag) for flag in _NOT_TYPED_FLAGS):
        return True
    if any(fields.get(key) is not None for key in _NOT_TYPED_PRESENT):
        return True
    turn = fields.get("turnOrigin")
    if turn is not None and turn not in _PERSONS_TURNS:
        return True
    return any(fields.get(key) in values for key, values in _NOT_TYPED_SOURCES.items())


def _typed_blocks(data: dict[str, Any]) -> list[str] | None:
    """The text blocks of a record that may hold typing, or None when its structure says it
    holds none (not the user's, a sidechain, a tool result, a row marked as not typed)."""
    if not is_user_record(data) or data.get("isSidechain") or not_typed(data):
        # Sidechain "prompts" are written by the parent agent, not by the user.
        return None
    if data.get("toolUseResult") is not None or "sourceToolUseID" in data:
        return None  # a tool's result, or a skill's text a tool call put there (reader._submitted)
    content = data["message"].get("content")
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list) or has_block(content, "tool_result"):
        return None
    return [
        str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text"
    ]


def memory_note(data: dict[str, Any]) -> str | None:
    """The text of a `#` memory note, only in the shape the client writes one (1.0.x–2.0.x
    `processUserInput`, memory mode): a user record of its own whose entire content — a string,
    or a single text block and nothing else — is one `<user-memory-input>…</user-memory-input>`
    element. None for any other record."""
    blocks = _typed_blocks(data)
    if blocks is None or len(blocks) != 1:
        return None
    content = data["message"].get("content")
    if isinstance(content, list) and len(content) != 1:
        return None  # a note record holds nothing else (no image, no second block)
    match = _MEMORY_NOTE.match(blocks[0])
    note = match.group("note").strip() if match else ""
    return sanitize(note) if note else None


def prompt_texts(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(origin, text) for the typed words in a user record: [("memory", note)] for a `#` note
    record, [("prompt", text)] for a prompt, [] for anything else."""
    note = memory_note(data)
    if note is not None:
        return [("memory", note)]
    blocks = _typed_blocks(data)
    if not blocks:
        return []
    kept = [c for c in (clean_prompt(b) for b in blocks) if c]
    return [("prompt", "\n".join(kept))] if kept else []


def queued_prompt(data: dict[str, Any]) -> str | None:
    """A prompt typed while the agent was working. 2.1.x folds it into the running turn as an
    `attachment` of type `queued_command` and writes no `user` row for it; only one that says
    `origin.kind == "human"` is trusted. Every other attachment (hook output, context, skill
    listings, reminders, snapshots) is not the user's."""
    attachment = data.get("attachment")
    if data.get("type") != "attachment" or not isinstance(attachment, dict):
        return None
    if attachment.get("type") != "queued_command" or attachment.get("isMeta") or data.get("isMeta"):
        return None
    if data.get("isSidechain"):
        return None  # queued into a subagent's turn: the parent agent's writing, not the user's
    if attachment.get("commandMode", "prompt") != "prompt" or not_typed(attachment):
        return None
    origin = attachment.get("origin")
    if not isinstance(origin, dict) or origin.get("kind") != "human":
        return None  # no origin: the harness may have queued it
    prompt = attachment.get("prompt")
    text = prompt if isinstance(prompt, str) else block_text(prompt)
    return clean_prompt(text) if text else None
