"""Time, in one place: the pinnable clock (`AGENT_MEMORY_NOW`) and the one ISO 8601 parser every
module uses. Stored timestamps are UTC `YYYY-MM-DDTHH:MM:SSZ`; older records and transcripts may
carry fractions or offsets, which are kept at full precision when compared."""

from __future__ import annotations

import datetime as _dt
import os

UTC = _dt.timezone.utc


def parse_time(value: str) -> _dt.datetime:
    """An ISO 8601 timestamp as an aware UTC datetime, full precision ('Z' or an offset; a
    naive value is taken as UTC)."""
    text = value.strip()
    parsed = _dt.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def iso_z(value: str | _dt.datetime) -> str:
    """Canonical UTC timestamp `YYYY-MM-DDTHH:MM:SSZ` from an ISO string or datetime."""
    parsed = parse_time(value) if isinstance(value, str) else value
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_ts(value: str) -> _dt.datetime:
    """`parse_time` truncated to whole seconds, as the atom stores it."""
    return parse_time(value).replace(microsecond=0)


def utc_day(value: str) -> str:
    return iso_z(value)[:10]


def now_utc() -> _dt.datetime:
    """The current time, or `AGENT_MEMORY_NOW` (ISO 8601) when set: tests and reproducible
    demos pin the clock that expiry and ages are measured against."""
    pinned = os.environ.get("AGENT_MEMORY_NOW")
    if pinned:
        return parse_time(pinned)
    return _dt.datetime.now(UTC)


def stamp() -> str:
    return now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
