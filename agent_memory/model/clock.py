"""Time, in one place: the pinnable clock (`AGENT_MEMORY_NOW`) and the one ISO 8601 parser every
module uses. Stored timestamps are UTC `YYYY-MM-DDTHH:MM:SSZ`; older records and transcripts may
carry fractions or offsets, which are kept at full precision when compared.

`datetime` (with `math` and `operator`, ~3 ms) is imported by the functions that need it: the
cold session start sorts and dates canonical stamps with `time_key` and `utc_day`, which read
the canonical form as text and parse anything else."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime as _dt

_DIGITS = (0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18)
_SEPARATORS = ((4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z"))


def is_canonical(value: str) -> bool:
    """`YYYY-MM-DDTHH:MM:SSZ` exactly (the form every stored timestamp is written in)."""
    return (
        len(value) == 20
        and all(value[i] == sep for i, sep in _SEPARATORS)
        and all("0" <= value[i] <= "9" for i in _DIGITS)
    )


def parse_time(value: str) -> _dt.datetime:
    """An ISO 8601 timestamp as an aware UTC datetime, full precision ('Z' or an offset; a
    naive value is taken as UTC)."""
    import datetime as _dt

    text = value.strip()
    parsed = _dt.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=_dt.UTC)
    return parsed.astimezone(_dt.UTC)


def time_key(value: str) -> str:
    """A sort key that orders ISO 8601 timestamps as `parse_time` does (full precision, UTC):
    `YYYY-MM-DDTHH:MM:SS.ffffffZ`. Canonical stamps are keyed without parsing."""
    if is_canonical(value):
        return f"{value[:19]}.000000Z"
    return parse_time(value).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def iso_z(value: str | _dt.datetime) -> str:
    """Canonical UTC timestamp `YYYY-MM-DDTHH:MM:SSZ` from an ISO string or datetime."""
    import datetime as _dt

    parsed = parse_time(value) if isinstance(value, str) else value
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=_dt.UTC)
    return parsed.astimezone(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_ts(value: str) -> _dt.datetime:
    """`parse_time` truncated to whole seconds, as the atom stores it."""
    return parse_time(value).replace(microsecond=0)


def utc_day(value: str) -> str:
    """`YYYY-MM-DD` of a timestamp, in UTC."""
    return value[:10] if is_canonical(value) else iso_z(value)[:10]


def now_utc() -> _dt.datetime:
    """The current time, or `AGENT_MEMORY_NOW` (ISO 8601) when set: tests and reproducible
    demos pin the clock that expiry and ages are measured against."""
    pinned = os.environ.get("AGENT_MEMORY_NOW")
    if pinned:
        return parse_time(pinned)
    import datetime as _dt

    return _dt.datetime.now(_dt.UTC)


def stamp() -> str:
    return now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
