"""`slug_for` against Claude Code's own function: tests/fixtures/claude_slugs.json holds
paths and the folder names the pinned client's code gave them, run in Node.js
(`python -m tests.integration.client_code <client>`; tests/integration/test_client_slug.py
checks the file against the installed client, and that a session really lands there)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agent_memory.model.home import SLUG_MAX, slug_for, slug_scan_prefix

FIXTURE = Path(__file__).parent / "fixtures" / "claude_slugs.json"
CASES = json.loads(FIXTURE.read_text("utf-8"))["cases"]


@pytest.mark.parametrize(("path", "expected"), CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_slug_is_the_clients(path: str, expected: str) -> None:
    assert slug_for(path) == expected


def test_fixture_covers_the_cut_and_non_ascii() -> None:
    slugs = dict(CASES)
    assert any(len(s) > SLUG_MAX for s in slugs.values())
    assert any(len(s) == SLUG_MAX for s in slugs.values())
    assert slugs["/x/😀"] == "-x---"  # two UTF-16 units, two dashes


def test_slug_takes_a_path_object_like_a_string() -> None:
    long = Path("/srv") / "/".join(f"level-{i:03d}" for i in range(40))
    assert slug_for(long) == slug_for(os.fspath(long))
    assert len(slug_for(long)) > SLUG_MAX


def test_scan_prefix_of_a_cut_name_is_its_cut_part() -> None:
    short = slug_for("/home/user/proj")
    assert slug_scan_prefix(short) == short + "-"
    root = "/srv/" + "deep/" * 50
    cut = slug_for(root)
    below = slug_for(root + "sub")
    assert cut != below and below.startswith(slug_scan_prefix(cut))
