"""README.md opens with the two commands CI runs (`.ci/run`), exactly as written."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text)[:2]


def test_the_readme_opens_with_the_demo_and_the_test_command() -> None:
    demo, tests = _readme_commands()
    assert demo.endswith("git memory demo") and "pip install ." in demo
    assert "pytest" in tests and "[test]" in tests
    # the two commands are the first code in the file
    assert (ROOT / "README.md").read_text().index("```") == (ROOT / "README.md").read_text().index("```sh\n" + demo)


def test_ci_runs_exactly_the_readme_commands() -> None:
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    for command in _readme_commands():
        assert command in ci, f".ci/run does not run the README command: {command}"
