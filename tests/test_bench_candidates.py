"""benchmarks/candidates.py compares the kept candidates of two extractor versions: changes of
TUNE people are listed, a SCORE person's are only counted (their statements are never shown)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import benchmark


def _module() -> Any:
    return benchmark("candidates")


def test_score_changes_are_counted_never_listed() -> None:
    before = {
        "tune|ann|ann/a.jsonl|3": [],
        "tune|ann|ann/a.jsonl|9": [["Use pnpm", "preference", "preference.use"]],
        "score|bob|bob/b.jsonl|4": [["Secret-looking claim", "fact", "fact.x"]],
        "score|bob|bob/b.jsonl|5": [],
    }
    after = {
        "tune|ann|ann/a.jsonl|3": [["Keep your answers short", "preference", "situation.x"]],
        "tune|ann|ann/a.jsonl|9": [["Use pnpm", "preference", "preference.use"]],
        "score|bob|bob/b.jsonl|4": [],
        "score|bob|bob/b.jsonl|5": [],
    }
    counts, shown = _module().diff_rows(before, after)
    assert counts == {"tune": 1, "score": 1}
    text = "\n".join(shown)
    assert "tune|ann|ann/a.jsonl|3" in text and "Keep your answers short" in text
    assert "bob" not in text and "Secret-looking" not in text
    assert "ann/a.jsonl|9" not in text  # unchanged statements are not listed


def test_a_statement_only_one_version_read_is_a_change() -> None:
    counts, shown = _module().diff_rows({}, {"tune|ann|ann/a.jsonl|1": []})
    assert counts["tune"] == 1 and shown[0] == "tune|ann|ann/a.jsonl|1"


def test_a_checkout_that_holds_no_package_is_refused(tmp_path: Path) -> None:
    # "--checkout 142a999" (a commit name, no directory) once ran this checkout's own code and
    # reported "0 changed" for a diff of the code with itself
    with pytest.raises(SystemExit, match="holds no agent_memory"):
        _module()._load(tmp_path / "142a999")
