"""Regex helpers of the redaction modules: patterns compiled on first use, and keyword tries.

The per-prompt hook imports the redaction engine, so importing it must compile nothing
(tests/test_redact.py::test_import_compiles_nothing); the rules compile on the first scan.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Source = str | Callable[[], str]


class _LazyPattern:
    """A regex compiled on first use, which then replaces itself in its module's globals, so
    that later uses are plain global lookups. The source may be a function when building the
    pattern's text is itself work (a trie of many words). A pattern held elsewhere (a rule
    table, a name imported by another module) stays this object: each attribute it is asked
    for is kept on it once read (the compiled pattern's bound `search`, say), so only the first
    use of each goes through `__getattr__` — through it every time, the rules' worst case (a
    transcript of nothing but typed prompts) made 1.6 M extra calls a MB."""

    __slots__ = ("_namespace", "_source", "_flags", "_rx", "__dict__")

    def __init__(self, namespace: dict[str, object], source: Source, flags: int) -> None:
        self._namespace = namespace
        self._source = source
        self._flags = flags
        self._rx: re.Pattern[str] | None = None

    def __getattr__(self, attr: str) -> object:
        rx = self._rx
        if rx is None:
            source = self._source
            rx = self._rx = re.compile(source if isinstance(source, str) else source(), self._flags)
            for name, value in list(self._namespace.items()):
                if value is self:
                    self._namespace[name] = rx
        value = getattr(rx, attr)
        self.__dict__[attr] = value  # found by plain lookup from now on (`rx` never changes)
        return value


class LazyCompiler:
    """`_lazy = LazyCompiler(globals())`, then `_RX: re.Pattern[str] = _lazy(r"…", re.X)`:
    the module's patterns compile on first use."""

    __slots__ = ("_namespace",)

    def __init__(self, namespace: dict[str, object]) -> None:
        self._namespace = namespace

    def __call__(self, source: Source, flags: int = 0) -> re.Pattern[str]:
        # stands in for the pattern it compiles (not importing `typing` for a cast: the
        # per-prompt hook pays for every module imported here)
        return _LazyPattern(self._namespace, source, flags)  # type: ignore[return-value]


_TrieNode = dict[str, "_TrieNode"]


def trie(words: list[str]) -> str:
    """A regex alternation factored into a trie: `re` then branches on one character per
    position instead of trying every keyword in turn."""
    root: _TrieNode = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: _TrieNode) -> str:
        alts = [re.escape(ch) + build(sub) for ch, sub in sorted(node.items()) if ch]
        end = "" in node
        if not alts:
            return ""
        if len(alts) == 1 and not end:
            return alts[0]
        body = "(?:" + "|".join(alts) + ")"
        return body + "?" if end else body

    return build(root)
