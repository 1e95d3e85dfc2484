"""The §4.2.1 detector: it fires on reversals and value swaps, and — because a false
contradiction freezes two good claims — stays silent on compatible claims."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.model.atom import Atom, atom_errors, atom_id, validate_atom
from agent_memory.store.contradictions import (
    Contradiction,
    conflict_rule,
    contested_tag,
    detect,
    detect_involving,
    mark,
    open_pairs,
)

PROJECT = "this-repo"


def make_atom(
    claim: str,
    *,
    project: str = PROJECT,
    kind: str = "fact",
    tier: str = "L1",
    first_seen: str = "2026-10-01T09:00:00Z",
    last_seen: str | None = None,
    sessions: tuple[str, ...] = ("sess-a",),
    **extra: Any,
) -> Atom:
    last_seen = last_seen or first_seen
    if tier == "L1":
        pointer = f"~/.claude/projects/-tmp-{project}/{sessions[0]}.jsonl#L7"
    else:
        pointer = f"{sessions[0]}.jsonl#L7"
    atom: Atom = {
        "id": atom_id(claim, project),
        "claim": claim,
        "scope": "project",
        "project": project,
        "kind": kind,
        "first_seen": first_seen,
        "last_seen": last_seen,
        "observations": len(sessions),
        "sessions": sorted(sessions),
        "source": pointer,
        "first_source": pointer,
        "confidence": "observed",
        "tier": tier,
        "redacted": False,
    }
    if tier == "L2":
        atom["promoted_at"] = last_seen
    atom.update(extra)
    return validate_atom(atom)


# --- conflict_rule ------------------------------------------------------------------------

REVERSALS = [
    ("PR base branch is dev", "PR base branch is not dev", "negation"),
    ("PR base branch isn't dev", "PR base branch is dev", "negation"),
    ("PR base branch is dev", "PR base branch is main", "same-subject"),
    ("PR base branch is dev, never main", "PR base branch is main", "same-subject"),
    ("Always run ruff before committing", "Never run ruff before committing", "negation"),
    ("Run ruff before committing", "Never run ruff before committing", "negation"),
    ("Use pnpm for installs", "Avoid pnpm for installs", "negation"),
    ("Avoid using pnpm", "Use pnpm", "negation"),
    ("Do squash-merge feature branches", "Don't squash-merge feature branches", "negation"),
    ("Push to main directly", "Don't push to main directly", "negation"),
    ("The API client does retry on 503", "The API client doesn't retry on 503", "negation"),
    ("Tests can't hit the network", "Tests can hit the network", "negation"),
    ("Tests cannot hit the network", "Tests can hit the network", "negation"),
    ("The build won't run offline", "The build will run offline", "negation"),
    ("We no longer use tox", "We use tox", "negation"),
    ("Migrations aren’t reversible", "Migrations are reversible", "negation"),
    ("The Node version is 20", "The Node version is 18", "same-subject"),
    ("The default branch is main", "The default branch is dev.", "same-subject"),
    ("Package manager: pnpm", "Package manager: npm", "same-subject"),
    ("Line length limit is 100", "Line length limit is 120", "same-subject"),
    ("Request timeout defaults to 30s", "Request timeout defaults to 10s", "same-subject"),
    ("Log level is set to debug", "Log level is set to warning", "same-subject"),
    (
        "The config file lives in pyproject.toml",
        "The config file lives in setup.cfg",
        "same-subject",
    ),
    ("Dev server port is 8080", "Dev server port is 3000", "same-subject"),
    ("The deploy target is staging", "The deploy target is production", "same-subject"),
    ("Output format is json", "Output format is yaml", "same-subject"),
    (
        "The docs build target is `make docs`",
        "The docs build target is `mkdocs build`",
        "same-subject",
    ),
]


@pytest.mark.parametrize(("a", "b", "rule"), REVERSALS)
def test_reversals_fire_with_their_rule_in_either_order(a: str, b: str, rule: str | None) -> None:
    assert conflict_rule(a, b) == rule
    assert conflict_rule(b, a) == rule


# Realistic pairs that can both hold. A fire here would freeze two good claims.
COMPATIBLE = [
    ("Use pnpm for installs", "Use pnpm for scripts"),
    # Decision: option flags are additive choices, not rival values; no copula, no fire.
    ("Run tests with pytest -x", "Run tests with pytest -q"),
    ("The test suite is slow", "The test suite is flaky"),
    ("The CI pipeline is green", "The CI pipeline is required"),
    ("PR base branch is dev, never main", "PR base branch is dev"),
    ("Tests live in tests/", "Tests live in tests/unit"),
    (
        "The fixtures directory is tests/fixtures",
        "The fixtures directory is tests/fixtures/transcripts",
    ),
    ("Never push to main", "Never force-push to main"),
    ("Always run ruff before committing", "Always run mypy before committing"),
    ("Use pnpm", "Never use npm"),
    ("Avoid global installs", "Avoid network calls in tests"),
    ("Python version is 3.12", "Node version is 20"),
    ("Commit messages use imperative mood", "Commit messages use trailers"),
    ("Do not edit generated files", "Do not commit generated files"),
    ("Prefer small commits", "Prefer small PRs"),
    ("Don't use print for logging", "Don't use print in tests"),
    ("Use uv to install dependencies", "Use uv to run scripts"),
    ("Never commit secrets", "Never commit .env files"),
    ("The staging database is not reachable from CI", "The staging database is not postgres"),
    ("PR base branch is not dev", "PR base branch is not main"),
    ("The default branch is main", "the default branch is main."),
    ("The API is stable", "The API is documented"),
    ("Integration tests are slow", "Integration tests are skipped on Windows"),
    (
        "The release branch is cut on Fridays by the on-call engineer",
        "The release branch is frozen",
    ),
    ("Run the linter before pushing", "Run the tests before pushing"),
    ("The deploy script must be run from the repo root", "The deploy script must be idempotent"),
    ("Error messages should be short", "Error messages should be actionable"),
    ("The default branch is main", "The default branch is protected"),
    ("The default branch is main", "The default branch is also protected"),
    ("The default branch is main", "The default branch is a protected branch"),
    ("The output directory is dist", "The output directory is gitignored"),
    ("The staging database is postgres", "The staging database is slow"),
]


@pytest.mark.parametrize(("a", "b"), COMPATIBLE)
def test_compatible_claims_never_fire(a: str, b: str) -> None:
    assert conflict_rule(a, b) is None
    assert conflict_rule(b, a) is None


def test_at_least_fifteen_compatible_pairs_are_pinned() -> None:
    assert len(COMPATIBLE) >= 15


def test_same_subject_needs_the_same_kind_but_negation_does_not() -> None:
    a, b = "Line length limit is 100", "Line length limit is 120"
    assert conflict_rule(a, b, "preference", "fact") is None
    assert conflict_rule(a, b, "preference", "preference") == "same-subject"
    assert conflict_rule(a, b, None, "fact") == "same-subject"
    assert conflict_rule("Run ruff", "Never run ruff", "preference", "constraint") == "negation"


def test_a_subject_of_one_word_is_too_vague_to_fire() -> None:
    # "the default" or "tests" could mean anything; §4.2.1 wants a ≥ 3-token shared prefix.
    assert conflict_rule("The default is main", "The default is dev") is None
    assert conflict_rule("Tests live in tests/", "Tests live in spec/") is None


def test_stated_limit_inflections_are_not_matched() -> None:
    # Lexical rule: "doesn't retry" vs "retries" differ by more than negation. Not caught.
    assert (
        conflict_rule("The API client doesn't retry on 503", "The API client retries on 503")
        is None
    )
    assert (
        conflict_rule("Always squash-merge", "Keep merge commits") is None
    )  # semantic: out of scope


def test_values_longer_than_three_tokens_do_not_fire() -> None:
    assert (
        conflict_rule(
            "PR base branch is dev", "PR base branch is whatever the release manager picks"
        )
        is None
    )


def test_different_copulas_are_not_one_slot() -> None:
    assert conflict_rule("Log level is set to debug", "Log level is debug-ish") is None
    assert conflict_rule("Log level is debug-ish", "Log level is set to debug") is None


# --- properties ---------------------------------------------------------------------------

WORDS = ["pr", "base", "branch", "is", "dev", "main", "use", "pnpm", "run", "tests", "with",
         "pytest", "the", "version", "20", "18", "not", "never", "always", "avoid", "don't",
         "=", "defaults", "to", "lives", "in", "src/", "port"]  # fmt: skip
claims = st.lists(st.sampled_from(WORDS), min_size=1, max_size=7).map(" ".join)
kinds = st.sampled_from([None, "fact", "constraint"])
PLAIN = ["pr", "base", "branch", "dev", "main", "pnpm", "run", "tests", "with", "pytest", "port"]
plain_claims = st.lists(st.sampled_from(PLAIN), min_size=1, max_size=6).map(" ".join)


@given(claims, claims, kinds, kinds)
def test_conflict_rule_is_symmetric(a: str, b: str, ka: str | None, kb: str | None) -> None:
    assert conflict_rule(a, b, ka, kb) == conflict_rule(b, a, kb, ka)


@given(claims)
def test_a_claim_never_contradicts_itself(a: str) -> None:
    assert conflict_rule(a, a) is None
    assert conflict_rule(a, a + ".") is None


@given(plain_claims)
def test_prefixing_never_always_fires_negation(a: str) -> None:
    assert conflict_rule(a, "never " + a) == "negation"
    assert conflict_rule("always " + a, "never " + a) == "negation"


# --- detect -------------------------------------------------------------------------------


def test_detect_orders_by_first_seen_and_keeps_projects_apart() -> None:
    old = make_atom("PR base branch is dev", first_seen="2026-09-01T00:00:00Z")
    new = make_atom("PR base branch is main", first_seen="2026-10-01T00:00:00Z")
    elsewhere = make_atom(
        "PR base branch is main", project="other", first_seen="2026-08-01T00:00:00Z"
    )
    found = detect([new, elsewhere, old])
    assert found == [Contradiction(older=old["id"], newer=new["id"], rule="same-subject")]


def test_detect_breaks_first_seen_ties_by_id() -> None:
    a = make_atom("Run ruff before committing")
    b = make_atom("Never run ruff before committing")
    lower, higher = sorted([a["id"], b["id"]])
    assert detect([a, b]) == [Contradiction(lower, higher, "negation")]


def test_fractional_seconds_order_correctly() -> None:
    a = make_atom("Run ruff before committing", first_seen="2026-10-01T09:00:00.500Z")
    b = make_atom("Never run ruff before committing", first_seen="2026-10-01T09:00:00Z")
    assert detect([a, b]) == [Contradiction(b["id"], a["id"], "negation")]


def test_equal_ids_never_pair_and_l3_is_out_of_reach() -> None:
    a = make_atom("PR base branch is dev")
    l3 = validate_atom(
        {
            "id": atom_id("PR base branch is main", None),
            "claim": "PR base branch is main",
            "scope": "global",
            "kind": "fact",
            "first_seen": "2026-10-01T09:00:00Z",
            "last_seen": "2026-10-01T09:00:00Z",
            "observations": 2,
            "sessions": ["s1", "s2"],
            "source": "s2.jsonl#L1",
            "first_source": "s1.jsonl#L1",
            "confidence": "observed",
            "tier": "L3",
            "redacted": False,
            "promoted_from_projects": ["p1", "p2"],
            "promoted_at": "2026-10-05T00:00:00Z",
        }
    )
    assert detect([a, dict(a), l3]) == []


def test_detect_covers_l1_against_l2_in_one_project() -> None:
    incumbent = make_atom(
        "The default branch is main", tier="L2", first_seen="2026-07-01T00:00:00Z"
    )
    newcomer = make_atom("The default branch is trunk")
    assert detect([newcomer, incumbent]) == [
        Contradiction(incumbent["id"], newcomer["id"], "same-subject")
    ]


def test_detect_at_store_cap_finds_exactly_the_planted_pairs() -> None:
    rng = random.Random(7)
    topics = ["cache", "queue", "parser", "router", "logger", "mailer", "scheduler", "uploader"]
    verbs = ["retries", "batches", "compresses", "validates", "streams", "signs"]
    atoms = []
    for i in range(496):
        claim = f"The {rng.choice(topics)} {rng.choice(verbs)} payloads of tenant {i}"
        atoms.append(make_atom(claim, first_seen=f"2026-10-01T09:{i // 60:02d}:{i % 60:02d}Z"))
    planted = [
        make_atom("Staging deploy branch is release", first_seen="2026-09-01T00:00:00Z"),
        make_atom("Staging deploy branch is main", first_seen="2026-09-02T00:00:00Z"),
        make_atom("Format code with black", first_seen="2026-09-03T00:00:00Z"),
        make_atom("Never format code with black", first_seen="2026-09-04T00:00:00Z"),
    ]
    atoms += planted
    rng.shuffle(atoms)
    assert detect(atoms) == sorted(
        [
            Contradiction(planted[0]["id"], planted[1]["id"], "same-subject"),
            Contradiction(planted[2]["id"], planted[3]["id"], "negation"),
        ],
        key=lambda c: (c.older, c.newer),
    )


pool = [
    "PR base branch is dev",
    "PR base branch is main",
    "PR base branch is not dev",
    "Use pnpm for installs",
    "Use pnpm for scripts",
    "Avoid pnpm for installs",
    "Node version is 20",
    "Node version is 18",
]


@settings(max_examples=50)
@given(
    st.lists(
        st.tuples(st.sampled_from(pool), st.integers(0, 3), st.sampled_from(["a", "b"])), max_size=8
    ),
    st.randoms(),
)
def test_detect_does_not_depend_on_argument_order(
    specs: list[tuple[str, int, str]], rnd: random.Random
) -> None:
    atoms = [make_atom(c, project=p, first_seen=f"2026-10-0{d + 1}T00:00:00Z") for c, d, p in specs]
    shuffled = list(atoms)
    rnd.shuffle(shuffled)
    assert detect(atoms) == detect(shuffled)


@given(
    st.lists(
        st.tuples(st.sampled_from(pool), st.integers(0, 3), st.sampled_from(["a", "b"])), max_size=10
    ),
    st.sets(st.integers(0, 9), max_size=4),
)
def test_detect_involving_is_detect_restricted_to_the_changed_atoms(
    specs: list[tuple[str, int, str]], changed_at: set[int]
) -> None:
    """Issue 17: a capture judges only the pairs with one of its atoms (pairs among the stored
    atoms were judged when they were written) and finds what detect() over everything finds."""
    atoms = {a["id"]: a for a in (make_atom(c, project=p, first_seen=f"2026-10-0{d + 1}T00:00:00Z")
                                  for c, d, p in specs)}  # fmt: skip
    ordered = sorted(atoms.values(), key=lambda a: a["id"])
    changed = [a for n, a in enumerate(ordered) if n in changed_at]
    ids = {a["id"] for a in changed}
    others = {a["id"]: a for a in ordered if a["id"] not in ids}
    expected = [c for c in detect(ordered) if c.older in ids or c.newer in ids]
    assert detect_involving(changed, others) == expected


# --- mark / open_pairs / tag --------------------------------------------------------------


def test_mark_flags_only_the_older_atom_and_is_idempotent() -> None:
    old = make_atom(
        "PR base branch is dev", first_seen="2026-09-01T00:00:00Z", contested_by=["atm_ffffffff"]
    )
    new = make_atom("PR base branch is main")
    neg = make_atom("PR base branch is not dev")
    found = detect([old, new, neg])
    assert {c.newer for c in found} == {new["id"], neg["id"]}
    changed = mark([old, new, neg], found)
    assert [a["id"] for a in changed] == [old["id"]]
    marked = changed[0]
    assert marked["contested"] is True
    assert marked["contested_by"] == sorted({"atm_ffffffff", new["id"], neg["id"]})
    assert atom_errors(marked) == []
    assert "contested" not in old and "contested" not in new  # inputs untouched
    assert mark([marked, new, neg], found) == []


def test_open_pairs_recomputes_the_rule_or_says_recorded() -> None:
    old = make_atom("PR base branch is dev", first_seen="2026-09-01T00:00:00Z")
    new = make_atom("PR base branch is main")
    (marked,) = mark([old, new], detect([old, new]))
    assert [p.as_dict() for p in open_pairs([marked, new])] == [
        {"older": old["id"], "newer": new["id"], "rule": "same-subject"}
    ]
    assert open_pairs([marked]) == [Contradiction(old["id"], new["id"], "recorded")]
    assert open_pairs([old, new]) == []


def test_contested_tag_uses_the_newer_date() -> None:
    assert contested_tag("2026-11-03") == "[contested — newer evidence 2026-11-03]"
    assert contested_tag("2026-11-03T23:59:59Z") == "[contested — newer evidence 2026-11-03]"
    assert contested_tag("2026-11-03T23:30:00-02:00") == "[contested — newer evidence 2026-11-04]"


@settings(max_examples=60)
@given(
    st.lists(
        st.tuples(
            st.one_of(claims, st.sampled_from([c for a, b, _ in REVERSALS for c in (a, b)])),
            st.sampled_from(["fact", "constraint"]),
        ),
        max_size=12,
    )
)
def test_bucketing_finds_exactly_what_a_brute_force_scan_finds(
    specs: list[tuple[str, str]],
) -> None:
    atoms: dict[str, Atom] = {}
    for n, (claim, kind) in enumerate(specs):
        atom = make_atom(claim, kind=kind, first_seen=f"2026-10-01T09:00:{n:02d}Z")
        atoms.setdefault(atom["id"], atom)
    ordered = sorted(atoms.values(), key=lambda a: (a["first_seen"], a["id"]))
    expected = []
    for i, older in enumerate(ordered):
        for newer in ordered[i + 1 :]:
            rule = conflict_rule(older["claim"], newer["claim"], older["kind"], newer["kind"])
            if rule:
                expected.append(Contradiction(older["id"], newer["id"], rule))
    assert detect(list(atoms.values())) == sorted(expected, key=lambda c: (c.older, c.newer))


@pytest.mark.parametrize(
    ("a", "b", "rule"),
    [
        ("Use uv for dependencies", "Use poetry, not uv, for dependencies", "same-subject"),
        ("Use uv", "Use poetry, not uv, for dependencies", "same-subject"),
        ("Use uv for dependencies; never pip install", "Use poetry, not uv", "same-subject"),
        # the contrast said after the job ("Use X for Z, not Y")
        ("Use PostgreSQL for the database, not MySQL", "Use MySQL for the database, not PostgreSQL",
         "same-subject"),  # fmt: skip
        ("Use uv for dependencies", "Use poetry for dependencies, not uv", "same-subject"),
        ("Use PostgreSQL for the database, not MySQL", "Use MySQL for the cache", None),
        # Two jobs, two tools: compatible.
        ("Use pnpm for the frontend", "Use npm, not pnpm, for the backend", None),
        # A restatement, and a choice that names nothing the other chose.
        ("Use pnpm, not npm", "Use pnpm", None),
        ("Use pnpm, not npm", "Use yarn, not npm", None),
        ("Use uv for dependencies", "Use uv sync to install them", None),
        # "Always use X" chooses X as "Use X" does
        ("Always use pnpm", "Use npm, not pnpm", "same-subject"),
        ("Always use uv for installs", "Use pip, not uv", "same-subject"),
        # two tools of one family chosen for the job both name: one job, two values
        ("Use jest for tests", "Use vitest for tests", "same-subject"),
        ("Use black for formatting", "Always use ruff for formatting", "same-subject"),
        # ... not for two jobs, nor with no job named (ruff lints and black formats), nor two
        # tools of no family (pytest and hypothesis are used together)
        ("Use ruff for linting", "Use black for formatting", None),
        ("Always use ruff", "Always use black", None),
        ("Use pytest for tests", "Use hypothesis for tests", None),
        ("Use npm for the docs site", "Use pnpm for the app", None),
        # ... nor two names of one tool, nor a tool and the runner that drives it
        ("Use pytest for tests", "Use tox for tests", None),
        ("Use unittest for tests", "Always use nox for tests", None),
        ("Use pip for installs", "Use pip3 for installs", None),
        ("Use rg for searches", "Use ripgrep for searches", None),
        ("Use npm for scripts", "Use npx for scripts", None),
        ("Use pnpm for scripts", "Use npx for scripts", "same-subject"),
        ("Use tox for tests", "Use nox for tests", "same-subject"),
        # tools named in several words
        ("Use GitHub Actions for CI", "Use GitLab CI for CI, not GitHub Actions", "same-subject"),
        ("Use black for formatting", "Use ruff format, not black", "same-subject"),
        ("Use ruff format for formatting", "Use black, not ruff format", "same-subject"),
        ("Use GitHub Actions for CI", "Use GitLab CI for the docs site", None),
        ("Use GitHub Actions for CI", "Use GitHub Actions for releases", None),
        # rival styles of one thing chosen for one job (model/tool_families.STYLE_RIVALS)
        ("Use single quotes for strings", "Use double quotes for strings", "same-subject"),
        ("Always use double quotes for strings", "Use single quotes, not double quotes", "same-subject"),
        ("Use tabs for indentation", "Use spaces for indentation", "same-subject"),
        ("Use snake_case for names", "Use camelCase for names", "same-subject"),
        ("Use single quotes for strings", "Use double quotes for docstrings", None),
        ("Use spaces for indentation", "Use tabs in Makefiles", None),
        # ... but common nouns of several words are no tool's name
        ("Use feature flags, not long-lived branches", "Use long-lived branches for releases", None),
        ("Use soft tabs, not hard tabs", "Use hard tabs in Makefiles", None),
        ("Use the REST API, not the GraphQL API", "Use the GraphQL API for search", None),
    ],
)
def test_a_rule_naming_another_tool_for_the_same_job_contradicts(
    a: str, b: str, rule: str | None
) -> None:
    from agent_memory.store.contradictions import conflict_rule

    assert conflict_rule(a, b, "preference", "decision") == rule
    assert conflict_rule(b, a, "decision", "preference") == rule


# --- the tool-choice reader is the pattern, without `re` on the cold path -------------------------

_CHOICE_WORDS = ["use", "only", "not", "uv", "poetry", "pip", "npm", "for", "in", "with", "deps",
                 "the", "backend", "node.js", "@scope/pkg", "c++", "`ruff`", "nothing", "to", "."]


@given(st.lists(st.sampled_from(_CHOICE_WORDS), min_size=1, max_size=9),
       st.lists(st.sampled_from([" ", ", ", " , "]), min_size=10, max_size=10),
       st.sampled_from(["", ".", "!"]), st.sampled_from(["", "always ", "Always  "]))  # fmt: skip
def test_the_tool_choice_reader_equals_its_pattern(words: list[str], gaps: list[str], end: str,
                                                   standing: str) -> None:  # fmt: skip
    import re

    from agent_memory.model.atom import normalize
    from agent_memory.store.contradictions import CHOICE_PATTERN, _choice

    claim = standing + "".join(w + g for w, g in zip(["use", *words], gaps[: len(words) + 1], strict=True)).strip() + end
    m = re.match(CHOICE_PATTERN, " ".join(normalize(claim).split()))
    expected = None if m is None else (
        m.group(1).strip("`"), (m.group(2) or "").strip("`"), (m.group(3) or "").strip(" ,"))  # fmt: skip
    assert _choice(claim) == expected


def test_use_only_is_the_tool_when_reading_it_as_a_marker_fails() -> None:
    # found by the property test above: the pattern's optional "only" backtracks, the reader must too
    from agent_memory.store.contradictions import _choice

    assert _choice("use only not use") == ("only", "use", "")
    assert _choice("Use only pnpm, not npm") == ("pnpm", "npm", "")
    assert _choice("use only pnpm for installs") == ("pnpm", "", "for installs")
    # a purpose that is only a mark keeps it, as the pattern's lazy purpose does
    assert _choice("use uv for . .") == ("uv", "", "for .")


def test_a_tool_named_in_several_words_is_read_only_where_one_word_reads_nothing() -> None:
    from agent_memory.store.contradictions import _choice, _phrase_choice

    assert _choice("Use GitLab CI for CI, not GitHub Actions") is None
    assert _phrase_choice("Use GitLab CI for CI, not GitHub Actions") == ("gitlab ci", "github actions", "for ci")
    assert _phrase_choice("Use ruff format, not black") == ("ruff format", "black", "")
    assert _phrase_choice("Use poetry, not uv pip, for dependencies") == ("poetry", "uv pip", "for dependencies")
    # never past a purpose word or "not", never more than three words
    assert _phrase_choice("Use GitHub Actions to run the tests") == ("github actions", "", "to run the tests")
    assert _phrase_choice("Use feature flags, not long-lived branches") is None  # common nouns
    assert _phrase_choice("Use the new shiny build tool") is None
    assert _phrase_choice("Run the tests") is None


# Issue 28 item 4: the user's one-value slots and a tool given up (store/slots.py).
SLOT_FIRES = [
    ("User is on macOS", "User is on Arch now; use pacman, not brew"),
    ("User works on Windows", "The user's laptop is a Mac"),
    ("User uses bash", "The user's shell is nushell"),
    ("The user's editor is neovim", "User's editor is VS Code"),
    ("The user's editor is neovim", "User uses VS Code now"),
    ("Answer in Korean", "Answer the user in Japanese"),
    ("Answer in English", "Language: Antworte bitte auf Deutsch"),
    ("Environment: Je suis sur Windows", "User is on Debian"),
    ("Use ruff for linting", "Never use ruff any more"),
    ("Use: 用 hatch 构建", "Don't: 别再用 hatch 了"),
    ("Use bun, not npm", "Don't: No uses bun nunca más"),
    ("Use pnpm, not yarn", "Never use pnpm"),  # refused bare: meets a choice for no job
]
SLOT_SILENT = [
    # another subject, another slot, a value of the same family, a value qualified
    ("User is on macOS", "Our deploy hosts are Ubuntu"),
    ("User is on macOS", "User uses zsh"),
    ("User is on Linux", "User is on Ubuntu 22.04"),
    ("User uses vim", "User uses nvim"),
    ("User uses neovim", "User uses VS Code"),  # two editors: many people use both
    ("User uses pwsh", "User uses PowerShell"),
    ("User is on Windows", "User is on Linux at home"),
    ("User uses vim", "User uses VS Code with vim keybindings"),
    ("User is on Windows with WSL", "User is on Ubuntu"),
    ("User uses emacs", "User uses emacs for org notes"),
    ("Answer in English", "Answer in English only"),
    ("Answer in French", "Write commit messages in English"),
    ("Answer in French", "Language: 用中文回答，代码注释用英文"),
    # a tool given up for another job, or one not chosen; a scope the label leaves said
    ("Use poetry for dependencies", "Never use poetry for publishing anymore"),
    ("Use pnpm, not npm", "Never use npm any more"),
    ("Use: 用 hatch 构建", "Don't: 不要再用 hatch 发布了"),
    ("Use poetry in the api service", "Use uv in the ml-pipeline repo"),
    # refused bare, not given up: the general rule beside an exception
    ("Use print for the CLI output", "Never use print"),
    ("Use: 用 hatch 构建", "Don't: 不要用 hatch"),
]


@pytest.mark.parametrize(("older", "newer"), SLOT_FIRES)
def test_two_values_of_one_user_slot_or_a_tool_given_up_contradict(older: str, newer: str) -> None:
    assert conflict_rule(older, newer, "fact", "preference") == "same-subject"
    assert conflict_rule(newer, older) == "same-subject"
    found = detect([make_atom(older), make_atom(newer, first_seen="2026-10-02T09:00:00Z")])
    assert found == [Contradiction(atom_id(older, PROJECT), atom_id(newer, PROJECT), "same-subject")]


@pytest.mark.parametrize(("first", "second"), SLOT_SILENT)
def test_compatible_user_facts_and_tool_rules_do_not_contradict(first: str, second: str) -> None:
    assert conflict_rule(first, second) is None
    assert detect([make_atom(first), make_atom(second, first_seen="2026-10-02T09:00:00Z")]) == []
