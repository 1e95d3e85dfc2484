"""Pasted blocks in a typed prompt are found in linear time (`typed.paste_spans`), exactly where
the one regex that defined them matched (it was quadratic on many unclosed `<context>` openers)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.transcripts.typed import clean_prompt, paste_spans

# The definition the linear scan replaces (was typed._PASTE_BLOCK; tags' attributes are now bounded
# at 400 characters, longer than any generated here).
_REFERENCE = re.compile(
    r"<(pasted[_-]?(?:content|text)|clipboard[_-]?(?:content|text)?|paste)\b[^>]*>"
    r"(?:.*</\1\b[^>]*>|.*\Z)|<(context|document|attachment)\b[^>]*>.*</\2\b[^>]*>",
    re.S | re.I,
)

_PIECES = ["<context>", "</context>", "<CONTEXT id=1>", "</context x>", "</contexts>", "<document>",
           "</document>", "<attachment a='b'>", "</attachment>", "<pasted_content id=\"1\">",
           "</pasted_content id=\"1\">", "<paste>", "</paste>", "<pasted>", "<clipboard>",
           "</clipboard>", "<pasted-text>", "</pasted-text>", "<", ">", "</", "x", " ", "\n",
           "remember this:", "ok"]  # fmt: skip


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14))
def test_the_spans_are_where_the_defining_regex_matches(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert paste_spans(text) == [m.span() for m in _REFERENCE.finditer(text)]


def test_many_unclosed_openers_are_read_once() -> None:
    # (the cost itself is measured in benchmarks/pathological.py; here: the result)
    text = "keep it short " + "<context>x " * 2000 + "</document>"
    assert paste_spans(text) == []
    assert clean_prompt(text) == text.strip()


def test_openers_without_a_closing_bracket_are_read_once() -> None:
    # "<context " with no ">" after it: each opener scanned to the end before its bound
    for opener in ("<context ", "<pasted_content ", "<system-reminder ", "</context "):
        text = "keep it short " + opener * 5000
        assert clean_prompt(text) == text.strip()


def test_a_closed_block_is_cut_and_the_typed_words_stay() -> None:
    text = "fix the header <document>pasted spec</document> and run the tests"
    assert clean_prompt(text) == "fix the header   and run the tests"
