"""One clause rule is one registry entry: a name, a family, a pattern, a check, a claim
template and a kind. `extract.rules.registry` declares their order once; the dispatcher tries
them in that order and the first entry whose pattern matches and whose check holds makes the
claim. The label an atom's evidence carries (`family.name`) is the entry's, never a function's
name, so a false atom is traced to one entry and the benchmark measures each family.

An entry of kind `veto` makes nothing and stops the clause: a shape known to be about the task
at hand ("write it in TypeScript, not JavaScript") must not fall through to a looser entry.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from agent_memory.extract.text import cap

Hit = tuple[str, str, str]  # (claim, kind, "family.name")
VETO = "veto"


@dataclass(frozen=True)
class Clause:
    """A clause as the rules read it (masked, lead words stripped) and where it was said."""

    text: str
    first_of_request: bool = False
    origin: str = "prompt"  # "prompt" | "rejection" | "memory"
    bug_report: bool = False  # the statement asks for a fix ("X crashes, please fix")


Check = Callable[[re.Match[str], Clause], bool]
Make = Callable[[re.Match[str], Clause], "str | None"]
__all__ = [
    "VETO",
    "Check",
    "Clause",
    "ClauseRule",
    "Hit",
    "KindOf",
    "Make",
    "always",
    "cap",
    "fill",
    "first_hit",
]
KindOf = Callable[[re.Match[str], Clause], str]


def always(m: re.Match[str], c: Clause) -> bool:
    return True


def fill(template: str, m: re.Match[str], c: Clause) -> str:
    """`{0}` the whole match, `{1}`… its groups ("" when a group did not take part), `{c}` the
    clause with a capital first letter."""
    groups = [m.group(0), *((g or "") for g in m.groups())]
    return template.format(*groups, c=cap(c.text))


@dataclass(frozen=True)
class ClauseRule:
    name: str
    family: str
    pattern: re.Pattern[str]
    claim: str | Make  # a `fill` template, or a function (None: no claim after all)
    kind: str | KindOf
    check: Check = always
    search: bool = False  # the shape may start inside the clause

    @property
    def label(self) -> str:
        return f"{self.family}.{self.name}"

    def apply(self, clause: Clause) -> Hit | None:
        find = self.pattern.search if self.search else self.pattern.match
        m = find(clause.text)
        if m is None or not self.check(m, clause):
            return None
        if self.kind == VETO:
            return "", VETO, self.label
        claim = (
            fill(self.claim, m, clause) if isinstance(self.claim, str) else self.claim(m, clause)
        )
        if not claim:
            return None
        kind = self.kind if isinstance(self.kind, str) else self.kind(m, clause)
        return claim, kind, self.label


def first_hit(rules: tuple[ClauseRule, ...], clause: Clause) -> Hit | None:
    """The first entry that makes a claim; a veto entry ends the clause with nothing."""
    for rule in rules:
        hit = rule.apply(clause)
        if hit is not None:
            return None if hit[1] == VETO else hit
    return None
