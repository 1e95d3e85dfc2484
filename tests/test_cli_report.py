"""Verbs return a Report that `cli/main` prints in one place (agent_memory/cli/report.py): with
`--output json` the data alone on stdout, otherwise the lines on stdout and the notes on
stderr; warnings on stderr either way; a failure after some work is raised once the report
is out. Verbs run in-process (`main(argv)`) here, on real repositories."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sessions import gm

import agent_memory.cli as cli_package
from agent_memory.cli.main import main
from agent_memory.cli.report import Report, emit
from agent_memory.model.errors import RefusedError


def test_json_is_the_data_alone_and_text_is_the_lines_then_the_notes(capsys: pytest.CaptureFixture[str]) -> None:
    def report() -> Report:
        out = Report({"n": 1}, ["one line"]).note("a note").hint("do this").warn("a warning")
        out.later.append(lambda r: r.say("read only for text"))
        out.code = 1
        return out

    assert emit(report(), "json") == 1
    printed = capsys.readouterr()
    assert json.loads(printed.out) == {"n": 1}
    assert printed.err == "a warning\n"  # notes are for people; warnings reach scripts too
    assert emit(report(), "text") == 1
    printed = capsys.readouterr()
    assert printed.out == "one line\nread only for text\n"
    assert printed.err == "a note\nhint: do this\na warning\n"


def test_a_failure_is_raised_after_the_report_is_out(capsys: pytest.CaptureFixture[str]) -> None:
    out = Report({"adopted": ["atm_1"]}, ["adopted atm_1"])
    out.failure = RefusedError("stopped", hint="rerun")
    with pytest.raises(RefusedError):
        emit(out, "text")
    assert capsys.readouterr().out == "adopted atm_1\n"


def test_a_filter_hands_over_its_output_verbatim(capsys: pytest.CaptureFixture[str]) -> None:
    assert emit(Report({"ignored": True}, raw="no newline"), "json") == 0
    assert capsys.readouterr().out == "no newline"


def test_adopt_answers_json_on_every_path(repo: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    gm(repo, "init", "--yes")
    monkeypatch.chdir(repo)
    capsys.readouterr()
    # Nothing waiting, no selection flag, no terminal: the JSON object, not a sentence.
    assert main(["adopt", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "adopted": [], "rejected": [], "refused": {}, "already": [], "resumed": []}  # fmt: skip
    assert main(["adopt"]) == 0
    assert capsys.readouterr().out.startswith("nothing is waiting on memory/review")


# Modules that talk to a person while they work, and why: the report is still printed by main.
LIVE = {
    "adopt.py": "the interactive walk asks about each item as it comes",
    "capture.py": "the progress bar of capture --all",
    "deinit.py": "--purge asks before it deletes",
    "demo_run.py": "the demo narrates each step as it runs it",
    "scan.py": "the pre-push hook (not a verb) says why a push is refused",
    "main.py": "usage errors and the failure line of every verb",
    "manpage.py": "python -m agent_memory.cli.manpage writes the page",
    "report.py": "the printer",
}


def test_verb_modules_return_reports_instead_of_printing() -> None:
    folder = Path(cli_package.__file__).parent
    for module in sorted(folder.glob("*.py")):
        if module.name == "report.py":
            continue
        source = module.read_text()
        assert "wants_json" not in source and "emit_json" not in source, module.name
        if module.name not in LIVE:
            assert not re.search(r"\bprint\(|sys\.std(out|err)\.write", source), module.name
