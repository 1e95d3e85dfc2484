"""Known token families: a value that starts with a vendor's documented prefix is
judged by that vendor's format, not by the generic rules.

- A value that matches one of the family's formats is the family's token: its token rule in
  R.TOKENS decides (entropy, documented samples). The rules cover the family's older and
  newer shapes too (other middle letters, other lengths), as the vendors document them.
- Anything else that starts with the prefix is a look-alike (`dapi…` with letters beyond f,
  `AIza…` of the wrong length, a Sentry token of 63 hex digits, `sgp_local_…` with a `G` in
  its hex): the generic rules (agent_memory.redact.generic, agent_memory.redact.assign) leave
  it alone. This is what keeps placeholders, truncated examples and other formats that
  share a prefix from being redacted.
- Except where a key says the value is a credential (`token=…`, `GITHUB_TOKEN=…`): there a
  look-alike that is the family's format but for a few characters too many or too few — a
  token mistyped, cut or padded in a paste — is still that family's secret
  (`near_miss`). A wrong alphabet stays a look-alike.

Built from R.TOKENS by the engine (`configure`), so a family the benchmark holds out
(agent_memory.redact.engine.exclude_rules) is unknown here too.
"""

from __future__ import annotations

import re

from agent_memory.redact import rules as R

# prefixes that are ordinary words: many things start so, they mark no family
_WORD_PREFIXES = frozenset({"test", "live", "secret", "ext", "pat", "sat", "scauth", "authress"})

_FAMILIES: list[tuple[str, re.Pattern[str]]] = []  # (lower-case prefix, format)
_RULES: list[tuple[str, float]] = []  # per family: its token rule and entropy floor
# How many characters a near miss may be off the family's length, either way.
NEAR_MISS_CHARS = 6
_PREFIX_INDEX: dict[str, list[int]] = {}  # first two characters -> indexes into _FAMILIES

EXACT, LOOKALIKE = "exact", "lookalike"


def configure(rows: list[tuple[str, tuple[str, ...], str, float, tuple[int, ...]]]) -> None:
    """The families of the token rules in use: rows of R.TOKENS whose keyword is the start of
    the token itself, except prefixes that are ordinary words (`test_`, `live_`)."""
    _FAMILIES.clear()
    _RULES.clear()
    _PREFIX_INDEX.clear()
    for rule, kws, pattern, ent, offsets in rows:
        if offsets != (0,) or rule in R.WORD_PREFIX_RULES:
            continue
        rx = re.compile(pattern)
        for kw in kws:
            if len(kw) < 4 or not kw[0].isalnum() or kw.strip("_.-") in _WORD_PREFIXES:
                continue
            _PREFIX_INDEX.setdefault(kw[:2], []).append(len(_FAMILIES))
            _FAMILIES.append((kw, rx))
            _RULES.append((rule, ent))


def _families_of(value: str) -> list[tuple[str, re.Pattern[str]]]:
    low = value[:40].lower()
    return [_FAMILIES[i] for i in _PREFIX_INDEX.get(low[:2], ()) if low.startswith(_FAMILIES[i][0])]


def _covers(rx: re.Pattern[str], value: str) -> bool:
    m = rx.match(value)
    return m is not None and m.end() >= len(value.rstrip("=")) - 1


def classify(value: str) -> str | None:
    """None when `value` starts with no known family's prefix; EXACT when it has one of the
    family's formats (its token rule decides), LOOKALIKE otherwise."""
    fams = _families_of(value)
    if not fams:
        return None
    return EXACT if any(_covers(rx, value) for _kw, rx in fams) else LOOKALIKE


def lookalike(value: str) -> bool:
    """Starts like a known family's token but is none of its formats (see the module)."""
    return classify(value) == LOOKALIKE


def near_miss(value: str) -> tuple[str, float] | None:
    """(rule, entropy floor) of the family whose format `value` has but for its length: a few
    characters (up to NEAR_MISS_CHARS) too many or too few in its body. None for anything else,
    a wrong alphabet included. Only where a key vouches for a credential (see the module)."""
    low = value[:40].lower()
    for i in _PREFIX_INDEX.get(low[:2], ()):
        kw, rx = _FAMILIES[i]
        body = value[len(kw) :]
        if not low.startswith(kw) or len(body) < 8:
            continue
        for k in range(1, NEAR_MISS_CHARS + 1):
            if _covers(rx, value[:-k]) or _covers(rx, value + body[-k:]):
                return _RULES[i]
    return None
