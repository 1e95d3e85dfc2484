"""What an item of `adopt --all` costs, pinned as counts (never as times; the times are in
benchmarks/adopt_cost.py): the git processes an item starts, and the work a batch does once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sessions import gm_json
from test_adopt import l1_record, stage_claims

CLAIMS = {f"rule{n}": f"Always run the {word} check before committing." for n, word in enumerate(
    ["lint", "type", "format", "license", "spelling"])}  # fmt: skip


@pytest.fixture
def project(initialized: Path) -> Path:
    """After `git memory init --yes`, built once per module; each test gets its own copy
    (conftest.initialized)."""
    return initialized


def git_processes(trace: Path) -> list[str]:
    """The git commands a GIT_TRACE2_EVENT file saw start, by name."""
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    return [e["name"] for e in events if e.get("event") == "cmd_name"]


def test_each_item_starts_its_git_commit_and_the_hooks_diff_and_nothing_else(project: Path, tmp_path: Path) -> None:
    ids = list(stage_claims(project, CLAIMS).values())
    gm_json(project, "adopt", "--yes", ids[0])  # the first item creates the files (`git add` them)
    # the first adopt over a history with an adopt line keeps that history with its HEAD
    # (adoption/reverts.adopted_on_head): from then on each run reads the commits since
    gm_json(project, "adopt", "--yes", ids[1])
    counts = []
    for batch, chosen in enumerate((ids[2:3], ids[3:])):
        trace = tmp_path / f"trace{batch}.json"
        report = gm_json(project, "adopt", "--yes", *chosen, env={"GIT_TRACE2_EVENT": str(trace)})
        assert len(report["adopted"]) == len(chosen)
        counts.append(git_processes(trace))
    one, three = counts
    extra = list(three)
    for name in one:
        assert name in extra, (one, three)
        extra.remove(name)
    assert sorted(extra) == ["commit", "diff"]  # what the one item more started


def test_adopt_all_records_its_marks_without_loading_the_schema_validator(project: Path) -> None:
    """The L1 marks of a batch change only each atom's review record: checked by hand, not by
    jsonschema (whose import and per-atom run were a tenth of a 60-item adopt)."""
    ids = stage_claims(project, CLAIMS)
    code = (
        "import sys\nfrom agent_memory.cli.main import main\nstatus = main(['adopt', '--all'])\n"
        "print('jsonschema' in sys.modules, file=sys.stderr)\nsys.exit(status)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True, env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "False"
    for ident in ids.values():
        assert l1_record(project, ident)["review"]["state"] == "adopted"
