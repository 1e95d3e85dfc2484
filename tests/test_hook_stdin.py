"""How the Claude Code hook reads its payload from a stdin its writer may keep open: up to a
whole JSON object (agent_memory/claude/hooks.py, `_read_stdin`). Real pipes, a writer thread
sending the payload in many small writes with pauses between them; no timing is asserted,
the parse attempts are counted."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from agent_memory.claude import hooks

PAUSE_S = 0.003


@contextmanager
def slow_pipe(pieces: list[bytes], *, close: bool) -> Iterator[Any]:
    """A pipe whose read end is yielded as a stream while a thread writes `pieces` one write at
    a time with a pause after each; it stays open until the reader is done unless `close`."""
    r, w = os.pipe()
    done = threading.Event()

    def writer() -> None:
        for piece in pieces:
            os.write(w, piece)
            time.sleep(PAUSE_S)
        if close:
            os.close(w)
        else:
            done.wait(30)
            os.close(w)

    thread = threading.Thread(target=writer)
    thread.start()
    with open(r, "rb", buffering=0) as stream:
        try:
            yield stream
        finally:
            done.set()
            thread.join()


def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the buffers a whole payload was tried on (each a join and a parse)."""
    sizes: list[int] = []
    real: Callable[[bytes], bool] = hooks._whole_object

    def counting(raw: bytes) -> bool:
        sizes.append(len(raw))
        return real(raw)

    monkeypatch.setattr(hooks, "_whole_object", counting)
    return sizes


def payload_object(fields: int) -> dict[str, Any]:
    return {"session_id": "s1", "hook_event_name": "UserPromptSubmit", "cwd": "/tmp/x",
            **{f"k{i}": f"value {i}" for i in range(fields)}}  # fmt: skip


def test_a_payload_sent_slowly_is_tried_only_when_it_ends_in_a_brace(monkeypatch: pytest.MonkeyPatch) -> None:
    """At every pause of the writer the reader joined all that had come and looked at it: in
    many small writes that is quadratic. Only data that ends in `}` (whitespace aside) can be
    the whole object, and only then is it joined and parsed: here once, at the end."""
    data = json.dumps(payload_object(80)).encode()
    pieces = [piece + b"," for piece in data.split(b",")[:-1]] + [data.split(b",")[-1]]
    assert b"".join(pieces) == data and all(not p.rstrip().endswith(b"}") for p in pieces[:-1])
    sizes = counted(monkeypatch)
    with slow_pipe(pieces, close=False) as stream:
        raw = hooks._read_stdin(stream)
    assert raw == data
    assert sizes == [len(data)]


def test_pieces_that_end_in_a_brace_are_the_only_ones_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nested objects: a piece ending in `}` may be tried (it could be the end); no other is."""
    data = json.dumps({"tool_input": {"a": {"b": 1}}, "x": [{"c": 2}], "prompt": "p"}).encode()
    pieces = [data[i:i + 5] for i in range(0, len(data), 5)]
    ends_in_brace = sum(1 for i in range(1, len(pieces) + 1) if b"".join(pieces[:i]).rstrip().endswith(b"}"))
    sizes = counted(monkeypatch)
    with slow_pipe(pieces, close=False) as stream:
        raw = hooks._read_stdin(stream)
    assert raw == data
    assert 1 <= len(sizes) <= ends_in_brace
    assert all(data[:size].rstrip().endswith(b"}") for size in sizes)


def _variants() -> dict[str, bytes]:
    plain = json.dumps(payload_object(5)).encode()
    return {
        "plain": plain,
        "trailing newline": plain + b"\n",
        "trailing whitespace": plain + b" \t\r\n \n",
        "crlf": json.dumps(payload_object(5), indent=2).replace("\n", "\r\n").encode() + b"\r\n",
        "bom": b"\xef\xbb\xbf" + plain,
        "not utf-8": plain[:-1] + b', "prompt": "caf\xe9 \xff\xfe"}',
        "brace in a string": json.dumps({"prompt": "}", "cwd": "/tmp/}"}).encode(),
    }


@pytest.mark.parametrize("name", list(_variants()))
@pytest.mark.parametrize("size", [1, 7, 1 << 16], ids=["bytewise", "chunked", "whole"])
def test_every_payload_reads_as_before(name: str, size: int) -> None:
    """The same object whether the writer closes stdin or keeps it open, byte by byte, in
    small pieces or whole: trailing whitespace, CRLF, a BOM, bytes that are not UTF-8."""
    data = _variants()[name]
    expected = hooks._payload_object(data)
    pieces = [data[i:i + size] for i in range(0, len(data), size)]
    for close in (True, False):
        with slow_pipe(pieces, close=close) as stream:
            raw = hooks._read_stdin(stream)
        # a pause right after the `}` ends the payload there: trailing whitespace may stay unread
        assert data.startswith(raw) and data[len(raw):].strip() == b""
        assert hooks._payload_object(raw) == expected


def test_whitespace_after_the_object_in_pieces_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whitespace-only writes after the `}` leave it the last byte that counts."""
    data = json.dumps(payload_object(3)).encode()
    sizes = counted(monkeypatch)
    with slow_pipe([data[:-1], data[-1:], b" ", b"\r\n"], close=True) as stream:
        raw = hooks._read_stdin(stream)
    assert hooks._payload_object(raw) == payload_object(3)
    assert all(size >= len(data) for size in sizes)
