"""The suite's verdicts do not depend on how loaded the machine is: no wall-clock limit decides a
test (speed goes to benchmarks/ as ratios)."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

SLOW = 0.25  # over Hypothesis's default 200 ms deadline, as a loaded machine makes an example


@settings(max_examples=2, database=None)
@given(st.integers())
def test_a_property_example_that_runs_slowly_is_judged_on_its_result(n: int) -> None:
    time.sleep(SLOW)
    assert isinstance(n, int)


def test_no_property_test_carries_a_deadline_of_its_own() -> None:
    from pathlib import Path

    offenders = [
        f"{path.name}:{number}"
        for path in sorted(Path(__file__).parent.rglob("test_*.py"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if "deadline=" in line and "settings(" in line and "deadline=None" not in line
    ]
    assert offenders == [], "a Hypothesis deadline makes the verdict depend on machine load"
