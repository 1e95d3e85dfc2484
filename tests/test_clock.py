"""The clock's text fast paths (issue 17: the cold session start sorts and dates stamps without
importing datetime) agree with the datetime parser on every form a record may carry."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from agent_memory.model.clock import is_canonical, iso_z, parse_time, time_key, utc_day

MOMENTS = st.datetimes(
    min_value=dt.datetime(1970, 1, 2), max_value=dt.datetime(9998, 12, 30),
    timezones=st.sampled_from([dt.UTC, dt.timezone(dt.timedelta(hours=5, minutes=30)),
                               dt.timezone(dt.timedelta(hours=-8))]),
)  # fmt: skip


def forms(moment: dt.datetime) -> list[str]:
    """The spellings of one moment a record may hold: canonical, with a fraction, with an
    offset, naive."""
    utc = moment.astimezone(dt.UTC)
    return [
        utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
        utc.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        moment.isoformat(),
        utc.replace(tzinfo=None).isoformat(),
    ]


@given(MOMENTS, MOMENTS)
def test_time_key_orders_as_the_parser_does(a: dt.datetime, b: dt.datetime) -> None:
    for x in forms(a):
        for y in forms(b):
            by_parser = (parse_time(x) > parse_time(y)) - (parse_time(x) < parse_time(y))
            by_key = (time_key(x) > time_key(y)) - (time_key(x) < time_key(y))
            assert by_key == by_parser, (x, y)


@given(MOMENTS)
def test_utc_day_agrees_with_the_parser(moment: dt.datetime) -> None:
    for form in forms(moment):
        assert utc_day(form) == iso_z(form)[:10]


def test_only_the_exact_stored_form_is_read_as_text() -> None:
    assert is_canonical("2026-12-01T09:30:00Z")
    for other in ("2026-12-01T09:30:00.5Z", "2026-12-01T09:30:00+00:00", "2026-12-01 09:30:00Z",
                  "2026-12-01T09:30:00z", "2026-1a-01T09:30:00Z", "2026-12-01", " 2026-12-01T09:30:00Z"):  # fmt: skip
        assert not is_canonical(other), other
    # Not canonical, so parsed: an offset moves the day.
    assert utc_day("2026-12-01T23:30:00-02:00") == "2026-12-02"


def test_importing_the_clock_does_not_import_datetime() -> None:
    probe = "import sys, agent_memory.model.clock as c; c.utc_day('2026-12-01T09:30:00Z'); print('datetime' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
