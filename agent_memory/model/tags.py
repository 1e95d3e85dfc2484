"""Tags written next to an injected claim. Stdlib only: the per-prompt recall renders them."""


def contested_tag(newer: str) -> str:
    """Spec §4.2: a contested claim is still injected, tagged with the day of the NEWER
    evidence; `newer` is that day (YYYY-MM-DD) or a full timestamp of it."""
    day = newer.strip()
    if len(day) != 10:
        from agent_memory.model.clock import utc_day  # a timestamp: datetime only when needed

        day = utc_day(day)
    return f"[contested — newer evidence {day}]"
