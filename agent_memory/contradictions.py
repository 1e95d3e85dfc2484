"""Contradiction detection within one project (spec §4.2, §4.2.1). Pure functions, no I/O.

Two rules, both over the normalized claim text (atom.normalize), both deliberately NARROW.
Precision matters more than recall here: a false contradiction freezes two good claims (both
are blocked from promotion until a human resolves the pair), while a missed one is caught one
tier later by the human review at `adopt` (§4.2.1: "detection is a filter, never a guarantee").

**negation** — the claims are the same once negation is taken out, and their negation
polarities differ. Negation markers: `not`, `never`, `no longer`, any `n't` contraction
(`isn't`, `don't`, `doesn't`, `can't`, `won't`, `cannot`, …, curly apostrophes too) and `avoid`
(as the negation of `use`; `avoid using X` = `don't use X`). `always` is a positive marker (so
"always X" vs "never X" fires) and the auxiliaries `do`/`does`/`did` are dropped (so "do X" /
"X" vs "don't X" fire). Polarity is the parity of the markers: "don't use X" vs "avoid X" agree,
"don't avoid X" vs "use X" agree.

**same-subject** — same `kind` (when both kinds are known), the claims share a leading subject
and a copula, and end in different short values: "PR base branch is dev" vs "PR base branch is
main". All of these must hold:
- the shared prefix contains a copula/assignment phrase (`is`, `are`, `was`, `=`, `:`, `should
  be`, `must be`, `defaults to`, `is set to`, `lives in`, `is at`, `points to`, …); the earliest
  one is the split point;
- the subject before it has ≥ 2 content tokens (articles/possessives not counted), so the
  shared prefix is ≥ 3 tokens as §4.2.1 asks ("PR base branch is", "the node version is");
- each trailing value is 1–3 tokens, the values differ, and neither value extends the other
  (token prefix, or a path under the other: "tests/" vs "tests/unit");
- a value may carry a trailing rejection ("dev, never main"); only its positive head ("dev")
  is compared, and a value with no positive head ("not dev") never fires here — that is the
  negation rule's job;
- for the descriptive copulas (`is`, `are`, `should be`, `lives in`, `:` …) the subject must
  name a setting (its last word is one of SETTING_NOUNS: branch, version, port, path, …) or
  both values must look like literals (a digit, a path or dotted name, backticks). Explicit
  assignments (`=`, `defaults to`, `is set to`, `set to`) need neither. This is what keeps
  "The test suite is slow" vs "The test suite is flaky" (two compatible properties) apart
  from "The default branch is main" vs "The default branch is dev" (one setting, two values).

Decisions and stated limits:
- "Run tests with pytest -x" vs "Run tests with pytest -q" does NOT fire: there is no copula,
  and flags are usually additive options, not rival values. Likewise "Use pnpm for installs"
  vs "Use pnpm for scripts".
- Semantic contradictions ("always squash-merge" vs "keep merge commits") are not caught.
- Bare `no` is not a negation marker ("No force pushes" vs "Force pushes" does not fire): it is
  too often a determiner inside compatible claims.
- Negation inside a relative clause still counts: "tests that do not touch the network run in
  CI" vs "tests that touch the network run in CI" fires although both may hold. Rare in
  practice; the human resolves it at `adopt`.
- Double negation is treated by parity, not grammar.
- Only pairs within one project are compared (§4.2: L3 atoms carry no project and are never
  reached).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import functools
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from agent_memory.atom import Atom, normalize, utc_day

NEGATION = "negation"
SAME_SUBJECT = "same-subject"
RECORDED = "recorded"

# Contractions whose stem is not simply the word minus "n't".
_IRREGULAR_NT = {"can't": "can", "won't": "will", "shan't": "shall", "ain't": "is"}
_AUXILIARIES = frozenset({"do", "does", "did"})
_DETERMINERS = frozenset(
    {"the", "a", "an", "our", "this", "that", "these", "those", "its", "their", "my", "your"}
)
# Copulas after which the rest is a plain assignment: the values are values by construction.
_ASSIGNMENTS: tuple[tuple[str, ...], ...] = (
    ("is", "set", "to"),
    ("are", "set", "to"),
    ("defaults", "to"),
    ("default", "to"),
    ("set", "to"),
    ("=",),
)
# Descriptive copulas: "X is slow" and "X is flaky" can both hold, so these need a setting-like
# subject or literal-looking values before a difference counts as a conflict.
_DESCRIPTIVE: tuple[tuple[str, ...], ...] = (
    ("should", "be"),
    ("must", "be"),
    ("is", "at"),
    ("is", "in"),
    ("are", "in"),
    ("lives", "in"),
    ("live", "in"),
    ("lives", "at"),
    ("points", "to"),
    ("is",),
    ("are",),
    ("was",),
    ("were",),
    (":",),
)
_COPULAS = tuple(sorted(_ASSIGNMENTS + _DESCRIPTIVE, key=len, reverse=True))
SETTING_NOUNS = frozenset(
    {
        "branch", "version", "port", "path", "dir", "directory", "folder", "url", "host",
        "hostname", "endpoint", "manager", "runner", "command", "cmd", "target", "base",
        "formatter", "linter", "timeout", "limit", "length", "width", "encoding", "locale",
        "timezone", "registry", "region", "interpreter", "shell", "editor", "remote",
        "image", "database", "db", "framework", "language", "toolchain", "builder", "bundler",
        "runtime", "default", "file", "location", "root",
    }
)  # fmt: skip
_LITERAL_RE = re.compile(r"[0-9/._@=`~\\]|^-|\w-\w")
_EDGE_PUNCT = "\"'`()[]{}<>,;!?"
_MAX_VALUE_TOKENS = 3


@dataclasses.dataclass(frozen=True)
class Contradiction:
    older: str
    newer: str
    rule: str

    def as_dict(self) -> dict[str, str]:
        """The `inspect --contested` shape (CLI.md)."""
        return {"older": self.older, "newer": self.newer, "rule": self.rule}


# --- claim analysis (cached: detect() calls it once per distinct claim) ------------------------


def _tokens(claim: str) -> tuple[str, ...]:
    text = normalize(claim).replace("\u2019", "'").replace("\u2018", "'")
    out: list[str] = []
    for raw in text.split(" "):
        trailing_colon = raw.endswith(":") and len(raw) > 1
        word = raw.strip(_EDGE_PUNCT).rstrip(".:").strip(_EDGE_PUNCT)
        if word:
            out.append(word)
        if trailing_colon or raw == ":":
            out.append(":")
    return tuple(out)


def _expand(tokens: Iterable[str]) -> list[str]:
    out: list[str] = []
    for tok in tokens:
        if tok in _IRREGULAR_NT:
            out += [_IRREGULAR_NT[tok], "not"]
        elif tok == "cannot":
            out += ["can", "not"]
        elif tok.endswith("n't") and len(tok) > 3:
            out += [tok[:-3], "not"]
        else:
            out.append(tok)
    return out


@dataclasses.dataclass(frozen=True)
class _Shape:
    tokens: tuple[str, ...]
    stem: tuple[str, ...]  # the claim with every polarity marker removed
    negative: bool  # odd number of negation markers


@functools.lru_cache(maxsize=4096)
def _shape(claim: str) -> _Shape:
    tokens = _tokens(claim)
    words = _expand(tokens)
    stem: list[str] = []
    negations = 0
    i = 0
    while i < len(words):
        word = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if word in ("not", "never"):
            negations += 1
        elif word == "no" and nxt == "longer":
            negations += 1
            i += 1
        elif word == "avoid":
            negations += 1
            stem.append("use")
            if nxt == "using":
                i += 1
        elif word == "always" or word in _AUXILIARIES:
            pass
        else:
            stem.append(word)
        i += 1
    return _Shape(tokens, tuple(stem), negations % 2 == 1)


def _negation_conflict(a: _Shape, b: _Shape) -> bool:
    return bool(a.stem) and a.stem == b.stem and a.negative != b.negative


def _copula_at(tokens: Sequence[str], start: int) -> tuple[tuple[str, ...], int] | None:
    for phrase in _COPULAS:
        if tuple(tokens[start : start + len(phrase)]) == phrase:
            return phrase, start + len(phrase)
    return None


def _positive_head(value: Sequence[str]) -> tuple[str, ...]:
    words = _expand(value)
    head: list[str] = []
    for i, word in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if word in ("not", "never", "avoid") or (word == "no" and nxt == "longer"):
            break
        if word != "always":
            head.append(word)
    return tuple(head)


def _extends(short: Sequence[str], long: Sequence[str]) -> bool:
    if tuple(long[: len(short)]) == tuple(short):
        return True
    a, b = " ".join(short), " ".join(long)
    return b.startswith(a.rstrip("/") + "/")


def _looks_literal(value: Sequence[str]) -> bool:
    return any(_LITERAL_RE.search(tok) for tok in value)


def _same_subject_conflict(a: _Shape, b: _Shape) -> bool:
    ta, tb = a.tokens, b.tokens
    common = 0
    while common < min(len(ta), len(tb)) and ta[common] == tb[common]:
        common += 1
    for start in range(1, common):
        found = _copula_at(ta, start)
        if found is None and _copula_at(tb, start) is None:
            continue
        if found is None or found != _copula_at(tb, start) or found[1] > common:
            # The copulas differ ("is" vs "is set to"): not one subject, one slot.
            return False
        phrase, end = found
        subject = [t for t in ta[:start] if t not in _DETERMINERS]
        if len(subject) < 2:
            return False
        va, vb = ta[end:], tb[end:]
        if not (1 <= len(va) <= _MAX_VALUE_TOKENS and 1 <= len(vb) <= _MAX_VALUE_TOKENS):
            return False
        ha, hb = _positive_head(va), _positive_head(vb)
        if not ha or not hb or ha == hb or _extends(ha, hb) or _extends(hb, ha):
            return False
        if phrase in _ASSIGNMENTS:
            return True
        return ta[start - 1] in SETTING_NOUNS or (_looks_literal(ha) and _looks_literal(hb))
    return False


def conflict_rule(
    claim_a: str, claim_b: str, kind_a: str | None = None, kind_b: str | None = None
) -> str | None:
    """The §4.2.1 rule that says these two claims contradict ("negation" / "same-subject"),
    else None. Symmetric in its arguments. Same-subject needs equal kinds when both are given."""
    a, b = _shape(claim_a), _shape(claim_b)
    if a.tokens == b.tokens:
        return None
    if _negation_conflict(a, b):
        return NEGATION
    if kind_a is not None and kind_b is not None and kind_a != kind_b:
        return None
    if _same_subject_conflict(a, b):
        return SAME_SUBJECT
    return None


# --- over atoms ---------------------------------------------------------------------------


def _when(ts: str) -> _dt.datetime:
    # Full precision (atom.parse_ts drops fractional seconds), so "…:04.5Z" sorts after "…:04Z".
    text = ts.strip()
    parsed = _dt.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=_dt.timezone.utc)
    return parsed


def _age_key(atom: Mapping[str, Any]) -> tuple[_dt.datetime, str]:
    return _when(str(atom["first_seen"])), str(atom["id"])


def _candidate_keys(shape: _Shape) -> list[tuple[str, tuple[str, ...]]]:
    # Two claims can only fire if they share their negation-free stem (negation rule) or their
    # first three tokens (same-subject: ≥ 2 subject tokens + a copula). Bucketing on these keys
    # keeps detect() near-linear; conflict_rule then runs only on real candidates.
    keys: list[tuple[str, tuple[str, ...]]] = []
    if shape.stem:
        keys.append(("stem", shape.stem))
    if len(shape.tokens) >= 4:
        keys.append(("head", shape.tokens[:3]))
    return keys


def detect(atoms: Sequence[Atom]) -> list[Contradiction]:
    """Every contradicting pair among atoms of the same project (§4.2.1), older by first_seen
    (tie: id). Atoms without a project (L3) are never compared; equal ids never pair."""
    by_id: dict[str, Atom] = {}
    buckets: dict[tuple[str, str, tuple[str, ...]], list[str]] = defaultdict(list)
    for atom in atoms:
        project = atom.get("project")
        if not project:
            continue
        ident = str(atom["id"])
        if ident in by_id:
            continue
        by_id[ident] = atom
        for kind, key in _candidate_keys(_shape(str(atom["claim"]))):
            buckets[(str(project), kind, key)].append(ident)
    seen: set[tuple[str, str]] = set()
    found: list[Contradiction] = []
    for members in buckets.values():
        for i, first in enumerate(members):
            for second in members[i + 1 :]:
                older, newer = sorted((by_id[first], by_id[second]), key=_age_key)
                pair = (str(older["id"]), str(newer["id"]))
                if pair in seen:
                    continue
                seen.add(pair)
                rule = conflict_rule(
                    str(older["claim"]), str(newer["claim"]), older.get("kind"), newer.get("kind")
                )
                if rule is not None:
                    found.append(Contradiction(pair[0], pair[1], rule))
    return sorted(found, key=lambda c: (c.older, c.newer))


def mark(atoms: Sequence[Atom], found: Sequence[Contradiction]) -> list[Atom]:
    """The atoms that change: each older atom gets `contested: true` and the newer id in
    `contested_by` (sorted, unique). The newer atom is never modified — the gate finds it by
    the reverse join (§4.2.1). Returns new dicts sorted by id; inputs are not mutated."""
    by_id = {str(a["id"]): a for a in atoms}
    additions: dict[str, set[str]] = defaultdict(set)
    for pair in found:
        if pair.older in by_id and pair.older != pair.newer:
            additions[pair.older].add(pair.newer)
    changed: list[Atom] = []
    for ident in sorted(additions):
        atom = by_id[ident]
        contested_by = sorted(set(atom.get("contested_by") or []) | additions[ident])
        if atom.get("contested") is True and list(atom.get("contested_by") or []) == contested_by:
            continue
        updated = dict(atom)
        updated["contested"] = True
        updated["contested_by"] = contested_by
        changed.append(updated)
    return changed


def open_pairs(atoms: Sequence[Atom]) -> list[Contradiction]:
    """The pairs recorded in `contested_by` (for `inspect --contested`). The rule is recomputed
    when both atoms are present and still conflict, else "recorded" (e.g. the newer atom
    expired, or a human recorded the pair)."""
    by_id = {str(a["id"]): a for a in atoms}
    pairs: set[Contradiction] = set()
    for atom in atoms:
        for newer_id in atom.get("contested_by") or []:
            newer = by_id.get(str(newer_id))
            rule = None
            if newer is not None:
                rule = conflict_rule(
                    str(atom["claim"]), str(newer["claim"]), atom.get("kind"), newer.get("kind")
                )
            pairs.add(Contradiction(str(atom["id"]), str(newer_id), rule or RECORDED))
    return sorted(pairs, key=lambda c: (c.older, c.newer))


def contested_tag(newer_date: str) -> str:
    """§4.2 rendering tag; the date is the NEWER atom's (a full timestamp or YYYY-MM-DD)."""
    day = newer_date if len(newer_date.strip()) == 10 else utc_day(newer_date)
    return f"[contested — newer evidence {day.strip()}]"
