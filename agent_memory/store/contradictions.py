"""Contradiction detection within one project. Pure functions, no I/O.

Two rules, both over the normalized claim text (atom.normalize), both deliberately NARROW.
Precision matters more than recall here: a false contradiction freezes two good claims (both
are blocked from promotion until a human resolves the pair), while a missed one is caught one
tier later by the human review at `adopt` ("detection is a filter, never a guarantee").

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
  shared prefix is ≥ 3 tokens ("PR base branch is", "the node version is");
- each trailing value is 1–3 tokens, the values differ, and neither value extends the other
  (token prefix, or a path under the other: "tests/" vs "tests/unit");
- a value may carry a trailing rejection ("dev, never main"); only its positive head ("dev")
  is compared, and a value with no positive head ("not dev") never fires here — that is the
  negation rule's job;
- for the descriptive copulas (`is`, `are`, `should be`, `lives in`, `:` …) the subject must
  name a setting (its last word is one of SETTING_NOUNS: branch, version, port, path, …) or
  both values must look like literals (a digit, a path or dotted name, backticks), and
  neither value may read as a property rather than a name (an `-ed`/`-ble`/`-ive`/`-ous`/
  `-ful`/`-less` word, a common descriptive word such as "slow" or "protected", or a value
  opened by "a"/"an" or an adverb such as "also"/"very"). Explicit assignments (`=`,
  `defaults to`, `is set to`, `set to`) need none of this. This is what keeps "The test suite
  is slow" vs "The test suite is flaky" and "Default branch is main" vs "Default branch is
  protected" (compatible descriptions) apart from "The default branch is main" vs "The
  default branch is dev" (one setting, two values).

Two more readings count as same-subject (store/slots.py reads them, as narrowly):
- one of the user's one-value slots with two values: their OS, shell, editor, the language to
  answer them in ("User is on macOS" vs "User is on Linux now", "Answer in English" vs
  "Language: Antworte auf Deutsch"); the subject must be the user ("Our CI runners are
  Ubuntu" is not), and values of one family agree (Ubuntu and Linux, vim and neovim);
- a tool refused against a choice of it: given up ("Never use poetry any more", "Don't: 不要再
  用 poetry 了") it meets every choice of poetry; refused for a job, a choice for that job;
  refused bare ("Never use print"), only a choice of it for no stated job.

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
- Only pairs within one project are compared (L3 atoms carry no project and are never
  reached).
"""

from __future__ import annotations

from agent_memory.model.atom import is_atom_id, is_pending, normalize
from agent_memory.model.clock import time_key
from agent_memory.model.tags import contested_tag  # noqa: F401 - re-exported
from agent_memory.model.tool_families import (
    FAMILIES,
    KNOWN_TOOLS,
    STYLE_NAMES,
    STYLE_RIVALS,
    TOGETHER,
)
from agent_memory.store import slots

# The session start runs detect() on its cold path (L2/L3 collisions, claude/context.py): only
# the clock is imported at the top; re, dataclasses, functools and typing are not needed.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence, Set
    from typing import Any

    from agent_memory.model.atom import Atom

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
# The same phrases by first word, longest first (as above): a claim is tried at each word, and
# only the phrases that can start there are compared (the session start analyses every line).
_COPULAS_BY_FIRST: dict[str, tuple[tuple[str, ...], ...]] = {}
for _phrase in _COPULAS:
    _COPULAS_BY_FIRST[_phrase[0]] = (*_COPULAS_BY_FIRST.get(_phrase[0], ()), _phrase)
SETTING_NOUNS = frozenset(
    {
        "branch", "version", "port", "path", "dir", "directory", "folder", "url", "host",
        "hostname", "endpoint", "manager", "runner", "command", "cmd", "target", "base",
        "formatter", "linter", "timeout", "limit", "length", "width", "encoding", "locale",
        "timezone", "registry", "region", "interpreter", "shell", "editor", "remote",
        "image", "database", "db", "framework", "language", "toolchain", "builder", "bundler",
        "runtime", "default", "file", "location", "root", "format",
    }
)  # fmt: skip
_LITERAL_CHARS = frozenset("0123456789/._@=`~\\")  # `[0-9/._@=`~\\]|^-`
# A setting's value is a name ("main", "pnpm", "postgres"); a property is a description
# ("protected", "slow", "a protected branch") and several descriptions hold at once. No POS
# tagger, so: adjective-like suffixes, a short list of common descriptive words, and a value
# opened by an article or a degree/frequency adverb.
_PROPERTY_SUFFIXES = ("ed", "ble", "ive", "ous", "ful", "less")
_PROPERTY_WORDS = frozenset(
    {
        "slow", "fast", "flaky", "stable", "unstable", "green", "red", "broken", "stale", "old",
        "new", "large", "small", "big", "huge", "tiny", "long", "short", "empty", "public",
        "private", "secure", "insecure", "clean", "dirty", "safe", "unsafe", "optional",
        "mandatory", "readonly", "read-only", "immutable", "mutable", "obsolete", "canonical",
        "experimental", "legacy", "minimal", "noisy", "quiet", "expensive", "cheap", "strict",
        "lenient", "important", "critical", "fine", "ok", "okay", "up-to-date", "wrong", "right",
        "correct", "incorrect", "shared", "global", "local", "internal", "external",
    }
)  # fmt: skip
_PROPERTY_OPENERS = frozenset(
    {
        "a", "an", "very", "too", "quite", "really", "fairly", "pretty", "usually", "often",
        "sometimes", "currently", "also", "still", "mostly", "rarely", "so",
    }
)  # fmt: skip
_EDGE_PUNCT = "\"'`()[]{}<>,;!?"
_MAX_VALUE_TOKENS = 3


class Contradiction:
    """One contradicting pair: the older atom, the newer one, and the rule that fired."""

    __slots__ = ("older", "newer", "rule")

    def __init__(self, older: str, newer: str, rule: str) -> None:
        self.older = older
        self.newer = newer
        self.rule = rule

    def _key(self) -> tuple[str, str, str]:
        return self.older, self.newer, self.rule

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Contradiction) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Contradiction(older={self.older!r}, newer={self.newer!r}, rule={self.rule!r})"

    def as_dict(self) -> dict[str, str]:
        """The `inspect --contested` shape (docs/cli.md)."""
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


class _Shape:
    __slots__ = ("tokens", "stem", "negative", "copulas", "choices", "settings", "chosen", "dropped")

    def __init__(self, tokens: tuple[str, ...], stem: tuple[str, ...], negative: bool,
                 copulas: Mapping[int, tuple[tuple[str, ...], int]],
                 choices: tuple[tuple[str, str, str], ...] = (), settings: Mapping[str, str] | None = None,
                 dropped: tuple[str, str, bool] | None = None, labelled: str | None = None) -> None:  # fmt: skip
        self.choices = choices  # the tool choices ("Use X[, not Y][, for Z]") among its parts
        self.settings = settings or {}  # what it says of the user's one-value slots (store/slots.py)
        self.dropped = dropped  # (tool, job or "", given up) it refuses ("Never use poetry any more")
        # (tool, job: "" for none, None for one not read) of every choice ("Use X for Z",
        # "Use: 用 poetry 管理依赖")
        self.chosen: frozenset[tuple[str, str | None]] = frozenset((c[0], c[2]) for c in choices) | (
            {(labelled, None)} if labelled else set())
        self.tokens = tokens
        self.stem = stem  # the claim with every polarity marker removed
        self.negative = negative  # odd number of negation markers
        self.copulas = copulas  # start → (phrase, end), precomputed

    @property
    def slot(self) -> tuple[str, ...] | None:
        """Subject + first copula, when the claim could take part in a same-subject conflict
        at all (≥ 2 subject content tokens, a 1–3-token value): the only split point
        _same_subject_conflict can use, so an exact bucket key for detect()."""
        if not self.copulas:
            return None
        start = min(self.copulas)
        end = self.copulas[start][1]
        subject = [t for t in self.tokens[:start] if t not in _DETERMINERS]
        if len(subject) < 2 or not 1 <= len(self.tokens) - end <= _MAX_VALUE_TOKENS:
            return None
        return self.tokens[:end]


_SHAPES: dict[str, _Shape] = {}


def _shape(claim: str) -> _Shape:
    """The analysed claim, cached (detect() asks once per distinct claim)."""
    found = _SHAPES.get(claim)
    if found is None:
        if len(_SHAPES) >= 4096:
            _SHAPES.clear()
        found = _SHAPES[claim] = _analyse(claim)
    return found


def _analyse(claim: str) -> _Shape:
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
    copulas: dict[int, tuple[tuple[str, ...], int]] = {}
    for start in range(1, len(tokens)):
        found = _copula_at(tokens, start)
        if found is not None:
            copulas[start] = found
    choices = tuple(c for part in claim.split(";") if (c := _choice(part) or _phrase_choice(part)) is not None)
    return _Shape(tokens, tuple(stem), negations % 2 == 1, copulas, choices,
                  slots.user_settings(claim), slots.tool_dropped(claim), slots.tool_chosen(claim))  # fmt: skip


def _negation_conflict(a: _Shape, b: _Shape) -> bool:
    return bool(a.stem) and a.stem == b.stem and a.negative != b.negative


def _copula_at(tokens: Sequence[str], start: int) -> tuple[tuple[str, ...], int] | None:
    for phrase in _COPULAS_BY_FIRST.get(tokens[start], ()):
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
    return any(tok.startswith("-") or not _LITERAL_CHARS.isdisjoint(tok) for tok in value)


def _looks_like_property(value: Sequence[str]) -> bool:
    if value[0] in _PROPERTY_OPENERS:
        return True
    return any(
        tok in _PROPERTY_WORDS or (len(tok) > 5 and tok.endswith(_PROPERTY_SUFFIXES))
        for tok in value
    )


def _same_subject_conflict(a: _Shape, b: _Shape) -> bool:
    ta, tb = a.tokens, b.tokens
    common = 0
    while common < min(len(ta), len(tb)) and ta[common] == tb[common]:
        common += 1
    for start in range(1, common):
        found, other = a.copulas.get(start), b.copulas.get(start)
        if found is None and other is None:
            continue
        if found is None or found != other or found[1] > common:
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
        if _looks_literal(ha) and _looks_literal(hb):
            return True
        return ta[start - 1] in SETTING_NOUNS and not (
            _looks_like_property(ha) or _looks_like_property(hb)
        )
    return False


# "Use X[, not Y][, for <purpose>]": the canonical spelling of a tool choice (extract.canonical).
# Read by hand, not by a regular expression: SessionStart judges L2/L3 lines for contradictions
# on its cold path, which stays off `re` (tests/test_hooks_recall_safety.py). A property test
# (tests/test_contradictions.py) holds this reader equal to CHOICE_PATTERN on words set off by
# spaces or commas.
CHOICE_PATTERN = (
    r"^(?:always\s+)?use\s+(?:only\s+)?({t})(?:\s*,?\s*not\s+({t}))?"
    r"(?:\s*,?\s+((?:for|in|on|to|when|with|across)\s+.+?))?\s*[.!]?$"
).format(t=r"[\w.@/+#`-]+")
_TOOL_CHARS = frozenset(".@/+#`-_")
_PURPOSE_WORDS = frozenset(("for", "in", "on", "to", "when", "with", "across"))


def _tool_end(text: str, start: int) -> int:
    end = start
    while end < len(text) and (text[end].isalnum() or text[end] in _TOOL_CHARS):
        end += 1
    return end


def _purpose(rest: str) -> str | None:
    """The purpose clause of `rest` (", for Z" / " for Z", optionally ending in . or !), "" when
    `rest` is only that ending, None when it is anything else."""
    body = rest.rstrip()
    if body[-1:] in (".", "!"):
        # the mark ends the claim, unless the clause is nothing without it ("for ." — the
        # pattern's lazy purpose then takes the mark)
        found = _purpose_clause(body[:-1].rstrip())
        if found is not None:
            return found
    return _purpose_clause(body)


def _purpose_clause(body: str) -> str | None:
    if not body:
        return ""
    stripped = body.lstrip()
    if stripped.startswith(","):
        if not stripped[1:2].isspace():
            return None
        clause = stripped[1:].strip()
    elif len(stripped) < len(body):
        clause = stripped
    else:
        return None  # the clause must be set off by a space or a comma
    word, _, tail = clause.partition(" ")
    tail = tail.strip()
    if word not in _PURPOSE_WORDS or not tail:
        return None
    return f"{word} {tail}".strip(" ,")


def _use_said(claim: str) -> str | None:
    """The claim normalized, from its "use …" on ("Always use pnpm" chooses pnpm as "Use pnpm"
    does), or None when it says no "use"."""
    text = " ".join(normalize(claim).split())
    text = text[7:] if text.startswith("always use ") else text
    return text if text.startswith("use ") else None


def _choice(claim: str) -> tuple[str, str, str] | None:
    """(chosen, rejected or "", purpose or "") of a canonical tool choice, lowercased."""
    text = _use_said(claim)
    if text is None:
        return None
    # "use only X …" reads X as the tool; when that reading fails, "only" itself may be the tool
    # ("use only, not use"), as the pattern's optional "only" backtracks.
    if text.startswith("only ", 4) and _tool_end(text, 9) > 9:
        found = _choice_at(text, 9)
        if found is not None:
            return found
    return _choice_at(text, 4)


def _choice_at(
    text: str, at: int, end_of: Callable[[str, int], int] = _tool_end
) -> tuple[str, str, str] | None:
    """`_choice` with the tool starting at `at`; `end_of` finds where a tool's name ends."""
    end = end_of(text, at)
    if end == at:
        return None
    chosen, rest = text[at:end], text[end:]
    clause = rest.lstrip()
    clause = clause[1:].lstrip() if clause.startswith(",") else clause
    if clause.startswith("not "):
        start = len(rest) - len(clause) + 4
        stop = end_of(rest, start)
        if stop > start:
            purpose = _purpose(rest[stop:])
            if purpose is not None:
                return chosen.strip("`"), rest[start:stop].strip("`"), purpose
    purpose = _purpose(rest)
    if purpose is None:
        return None
    # "use postgresql for the database, not mysql": the contrast said after the purpose
    job, comma, refused = purpose.rpartition(", not ")
    if comma and job and refused and end_of(refused, 0) == len(refused):
        return chosen.strip("`"), refused.strip("`"), job
    return chosen.strip("`"), "", purpose


# A tool named in two or three words ("GitHub Actions", "ruff format", "GitLab CI"): read only
# when the one-word reading finds no choice, and never past a purpose word or "not".
_PHRASE_WORDS = 3


def _phrase_end(text: str, start: int) -> int:
    """Where a tool named in up to _PHRASE_WORDS words from `start` ends (`start` if none)."""
    end = _tool_end(text, start)
    words = 1
    while end > start and words < _PHRASE_WORDS and text[end : end + 1] == " ":
        after = _tool_end(text, end + 1)
        word = text[end + 1 : after]
        if not word or word in _PURPOSE_WORDS or word == "not":
            break
        end, words = after, words + 1
    return end


def _phrase_choice(claim: str) -> tuple[str, str, str] | None:
    """`_choice` for tools named in several words: "Use GitLab CI for CI, not GitHub Actions",
    "Use ruff format, not black", "Use GitHub Actions for CI". None unless a choice reads, and
    unless each name of several words reads as a tool's (`_named_like_a_tool`)."""
    text = _use_said(claim)
    found = _choice_at(text, 4, _phrase_end) if text is not None else None
    if found is None:
        return None
    typed = " ".join(claim.split())
    return found if all(_named_like_a_tool(name, typed) for name in found[:2] if " " in name) else None


def _named_like_a_tool(name: str, claim: str) -> bool:
    """A name of several words is a tool's when it starts with a known tool ("ruff format") or
    every word is capitalised where the claim says it ("GitHub Actions", "GitLab CI"). Common
    nouns ("feature flags", "long-lived branches", "the REST API") are no tool: "Use feature
    flags, not long-lived branches" leaves "long-lived branches for releases" alone. A style's
    name ("single quotes", STYLE_NAMES) reads as one too."""
    if name.split()[0] in KNOWN_TOOLS or name in STYLE_NAMES:
        return True
    at = claim.casefold().find(name)
    return at >= 0 and all(word[:1].isupper() for word in claim[at : at + len(name)].split())


def _slot_conflict(a: _Shape, b: _Shape) -> bool:
    """Two values of one of the user's one-value slots: "User is on macOS" vs "User is on Linux
    now", "Answer in English" vs "Answer the user in German" (store/slots.py)."""
    return any(b.settings.get(slot, value) != value for slot, value in a.settings.items())


def _dropped_conflict(a: _Shape, b: _Shape) -> bool:
    """One claim gives up the tool the other chooses, for whatever job: "Use poetry for
    dependencies" vs "Never use poetry any more", "Use: 用 poetry 管理依赖" vs "Don't: 不要再用
    poetry 了"."""
    return _gives_up(a.dropped, b.chosen) or _gives_up(b.dropped, a.chosen)


def _gives_up(dropped: tuple[str, str, bool] | None, chosen: Set[tuple[str, str | None]]) -> bool:
    """A tool given up ("any more") meets every choice of it; refused for a job, a choice of it
    for that job ("Never use poetry for packaging anymore" leaves "Use poetry for
    dependencies"); refused bare ("Never use print"), only a choice of it for no job — the
    general rule beside an exception ("Use print for the CLI's output") is no contradiction."""
    if dropped is None:
        return False
    tool, job, given_up = dropped
    return any(
        tool == other and (purpose == job if job else given_up or purpose == "") for other, purpose in chosen
    )


def _alternative_conflict(a: _Shape, b: _Shape) -> bool:
    return any(_alternative(x, y) for x in a.choices for y in b.choices)


def _alternative(a: tuple[str, str, str], b: tuple[str, str, str]) -> bool:
    """One claim chooses X, the other chooses Y and names X as what not to use, for the same job:
    "Use uv for dependencies" vs "Use poetry, not uv, for dependencies" (one subject,
    the job; two values). A purpose on one side only still counts ("Use uv" vs "Use poetry,
    not uv, for dependencies"); two different purposes do not ("… for the frontend" vs "…
    for the backend")."""
    if a[0] == b[0]:
        return False
    if a[2] and b[2] and a[2] != b[2]:
        return False
    if b[1] == a[0] or a[1] == b[0]:
        return True
    # two tools of one family chosen for one job both name ("Use jest for tests" vs "Use vitest
    # for tests"); with no job named, "Use ruff" and "Use black" may both hold (lint, format)
    return bool(a[2]) and a[2] == b[2] and b[0] in _family_mates(a[0])


def _family_mates(tool: str) -> frozenset[str]:
    """The tools of `tool`'s families (agent_memory.model.tool_families) and the styles it rivals
    (STYLE_RIVALS), itself and those one job uses with it (TOGETHER: another name of it, its
    runner) excepted."""
    return frozenset(
        t for family in (*FAMILIES, *STYLE_RIVALS) if tool in family for t in family
        if t != tool and frozenset((tool, t)) not in TOGETHER
    )


def conflict_rule(
    claim_a: str, claim_b: str, kind_a: str | None = None, kind_b: str | None = None
) -> str | None:
    """The rule that says these two claims contradict ("negation" / "same-subject"),
    else None. Symmetric in its arguments. Same-subject needs equal kinds when both are given."""
    a, b = _shape(claim_a), _shape(claim_b)
    if a.tokens == b.tokens:
        return None
    if _negation_conflict(a, b):
        return NEGATION
    if _alternative_conflict(a, b) or _dropped_conflict(a, b):
        return SAME_SUBJECT  # a tool choice is a decision or a preference alike: kinds not compared
    if _slot_conflict(a, b):
        return SAME_SUBJECT  # one slot of the user's, said as a fact or a preference alike
    if kind_a is not None and kind_b is not None and kind_a != kind_b:
        return None
    if _same_subject_conflict(a, b):
        return SAME_SUBJECT
    return None


# --- over atoms ---------------------------------------------------------------------------


def _age_key(atom: Mapping[str, Any]) -> tuple[str, str]:
    return time_key(str(atom["first_seen"])), str(atom["id"])


def _record_key(atom: Mapping[str, Any]) -> tuple[str, str, str]:
    return time_key(str(atom["first_seen"])), str(atom["claim"]), str(atom.get("kind"))


def _candidate_keys(shape: _Shape) -> list[tuple[str, tuple[str, ...]]]:
    # Two claims can only fire if they share their negation-free stem (negation rule) or their
    # subject-and-copula slot (same-subject). Bucketing on these keys keeps detect() near-linear
    # on a real store; conflict_rule then runs only on real candidates.
    keys: list[tuple[str, tuple[str, ...]]] = []
    if shape.stem:
        keys.append(("stem", shape.stem))
    slot = shape.slot
    if slot is not None:
        keys.append(("slot", slot))
    # (an atom stored before these keys existed is filed under them when it is next written:
    # until then a capture does not find it here; `consolidate` and the promotion gate, which
    # judge the whole store, still do)
    keys.extend(("user", (slot,)) for slot in sorted(shape.settings))
    # a tool given up, and one chosen behind a label, meet the choices of it under its name
    named = {tool for tool, _ in shape.chosen} | ({shape.dropped[0]} if shape.dropped else set())
    keys.extend(("tool", (tool,)) for tool in sorted(named))
    for choice in shape.choices:
        keys.extend(("tool", (tool,)) for tool in choice[1:2] if tool)
        if choice[2]:
            # a family-mate chosen for the same job is filed under its own name: this choice
            # looks there too (an atom indexed before this key existed is found all the same)
            keys.extend(("tool", (mate,)) for mate in sorted(_family_mates(choice[0])))
    return keys


def detect(
    atoms: Sequence[Atom], involving: Set[str] | None = None, *, pending: bool = False
) -> list[Contradiction]:
    """Every contradicting pair among atoms of the same project, older by first_seen
    (tie: id). Atoms without a project (L3) are never compared; equal ids never pair.
    `involving`: only the pairs with at least one of these ids (the others are not judged).
    `pending`: pending claims take part too (the promotion gate's "said otherwise since")."""
    by_id: dict[str, Atom] = {}
    for atom in atoms:
        # A pending claim (said once, held by the durability gate) contradicts nothing until it
        # recurs: it is no atom yet, recall never shows it, and a tag it set on an adopted
        # line would outlive it. Once lifted it is written again and judged then.
        if not atom.get("project") or (is_pending(atom) and not pending):
            continue
        ident = str(atom["id"])
        # Two records of one atom (unmerged copies): keep the one the merge join would date
        # from, so the result does not depend on input order.
        if ident not in by_id or _record_key(atom) < _record_key(by_id[ident]):
            by_id[ident] = atom
    buckets: dict[tuple[str, str, tuple[str, ...]], list[str]] = {}
    for ident in sorted(by_id):
        atom = by_id[ident]
        project = str(atom["project"])
        for kind, key in _candidate_keys(_shape(str(atom["claim"]))):
            buckets.setdefault((project, kind, key), []).append(ident)
    age = {ident: _age_key(atom) for ident, atom in by_id.items()}
    seen: set[tuple[str, str]] = set()
    found: list[Contradiction] = []
    for members in buckets.values():
        for i, first in enumerate(members):
            for second in members[i + 1 :]:
                if involving is not None and first not in involving and second not in involving:
                    continue
                if age[second] < age[first]:
                    older, newer = by_id[second], by_id[first]
                else:
                    older, newer = by_id[first], by_id[second]
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


def subject_keys(atom: Mapping[str, Any]) -> list[str]:
    """The buckets detect() files an atom under, as short stable hashes (project included):
    two atoms can only contradict when they share one. `memory/atoms` keeps an index of them
    (store/l1.py), so a capture compares its claims with the few atoms that share a subject,
    never with the whole store. Stable for an id: they depend on the normalized claim only."""
    project = atom.get("project")
    if not project:
        return []
    out = []
    for kind, key in _candidate_keys(_shape(str(atom["claim"]))):
        import hashlib

        raw = "\x1f".join((str(project), kind, *key))
        out.append(hashlib.sha1(raw.encode("utf-8")).hexdigest()[:20])
    return out


def detect_involving(changed: Sequence[Atom], others: Mapping[str, Atom]) -> list[Contradiction]:
    """`detect()` over the whole store, restricted to the pairs that involve an atom of
    `changed`, given in `others` (at least) every stored atom that shares a subject key with
    one of them. `changed` wins over `others` for the same id."""
    pool = {str(a["id"]): a for a in others.values()}
    ids = set()
    for atom in changed:
        pool[str(atom["id"])] = atom
        ids.add(str(atom["id"]))
    # Pairs among the others were judged when they were written: a capture costs its own atoms
    # times the atoms sharing their subjects, not the square of a popular subject.
    return detect(list(pool.values()), involving=ids)


def mark(atoms: Sequence[Atom], found: Sequence[Contradiction]) -> list[Atom]:
    """The atoms that change: each older atom gets `contested: true` and the newer id in
    `contested_by` (sorted, unique). The newer atom is never modified — the gate finds it by
    the reverse join. Returns new dicts sorted by id; inputs are not mutated."""
    by_id = {str(a["id"]): a for a in atoms}
    additions: dict[str, set[str]] = {}
    for pair in found:
        if pair.older in by_id and pair.older != pair.newer:
            additions.setdefault(pair.older, set()).add(pair.newer)
    changed: list[Atom] = []
    for ident in sorted(additions):
        atom = by_id[ident]
        contested_by = sorted(set(atom.get("contested_by") or []) | additions[ident])
        if atom.get("contested") is True and list(atom.get("contested_by") or []) == contested_by:
            continue
        updated: Atom = dict(atom)  # type: ignore[assignment]
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
            if not is_atom_id(newer_id):
                # names no atom: a hand-written adopted.log line's `atm_0;touch${IFS}x` was
                # printed in `git memory resolve … --keep …`, the command to paste
                continue
            newer = by_id.get(str(newer_id))
            rule = None
            if newer is not None:
                rule = conflict_rule(
                    str(atom["claim"]), str(newer["claim"]), atom.get("kind"), newer.get("kind")
                )
            pairs.add(Contradiction(str(atom["id"]), str(newer_id), rule or RECORDED))
    return sorted(pairs, key=lambda c: (c.older, c.newer))
