"""Consolidation proposals (seed 002): near-duplicates cluster, distinct claims and negations stay
apart, the gist is a member's own text with provenance, and the bucketed search finds exactly
the pairs an all-pairs comparison finds."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.claude.consolidate import (
    NEGATION_TOKEN,
    Proposal,
    atom_items,
    auto_memory_items,
    overlap,
    propose,
    tokens,
)

CLAIMS = [
    ("atm_1a2b3c4d", "The test suite needs Redis running on port 6379"),
    ("atm_2b3c4d5e", "Tests require Redis on port 6379 to be running."),
    ("atm_3c4d5e6f", "Integration tests need a Redis server running on port 6379"),
    ("atm_4d5e6f70", "Use pnpm, not npm, to install packages"),
    ("atm_5e6f7081", "Install packages with pnpm, never with npm"),
    ("atm_6f708192", "Deploys go through the staging cluster before production"),
    ("atm_708192a3", "Never push directly to main"),
    ("atm_8192a3b4", "Push directly to main"),
    ("atm_92a3b4c5", "The API uses JWT tokens for authentication"),
    ("atm_a3b4c5d6", "Production deploys go through the staging cluster first"),
    ("atm_b4c5d6e7", "Redis cache keys expire after one hour"),
]


def test_tokens_casefold_strip_stop_words_and_stem() -> None:
    assert tokens("The Tests are RUNNING, and it's required!") == {"test", "run", "requir"}
    assert tokens("policies boxes stopped stops") == {"policy", "box", "stop"}
    assert tokens("") == frozenset()


def test_every_negation_is_one_token() -> None:
    for text in (
        "Don't push to main",
        "Never push to main",
        "do not push to main",
        "No pushing to main",
    ):
        assert tokens(text) == {NEGATION_TOKEN, "push", "main"}, text


def test_overlap_coefficient() -> None:
    a, b = frozenset({"x", "y", "z"}), frozenset({"x", "y", "z", "w", "v"})
    assert overlap(a, b) == 1.0  # a short claim contained in a longer one
    assert overlap(frozenset({"x", "y"}), frozenset({"y", "q"})) == 0.5
    assert overlap(a, frozenset()) == 0.0


def test_clusters_real_near_duplicates_and_leaves_distinct_claims_alone() -> None:
    proposals = propose(CLAIMS)
    assert [p.members for p in proposals] == [
        ("atm_1a2b3c4d", "atm_2b3c4d5e", "atm_3c4d5e6f"),
        ("atm_4d5e6f70", "atm_5e6f7081"),
        ("atm_6f708192", "atm_a3b4c5d6"),
    ]
    clustered = {m for p in proposals for m in p.members}
    # Distinct claims, including one sharing "Redis", stay out of every cluster.
    assert {"atm_92a3b4c5", "atm_b4c5d6e7"}.isdisjoint(clustered)


def test_a_claim_and_its_negation_are_not_duplicates() -> None:
    a, b = tokens("Never push directly to main"), tokens("Push directly to main")
    assert overlap(a, b) == 1.0  # bag of words alone would fold them
    assert propose([("atm_708192a3", CLAIMS[6][1]), ("atm_8192a3b4", CLAIMS[7][1])]) == []


def test_claims_about_different_commands_are_not_duplicates() -> None:
    """Failure atoms share their template's words: only the program tells them apart."""
    items = [
        ("atm_0a000001", "`python` fails (exit 127): command not found"),
        ("atm_0a000002", "`deploy.sh` fails (exit 127): command not found"),
        ("atm_0a000003", "`npm run build` fails: module not found"),
        ("atm_0a000004", "`npm install` fails: not found"),
        ("atm_0a000005", "`bun run build` fails (exit 127): not found"),
        ("atm_0a000006", "`bun run build` fails (exit 127): command not found"),
    ]
    assert [p.members for p in propose(items)] == [("atm_0a000005", "atm_0a000006")]


def test_gist_is_a_member_text_with_provenance() -> None:
    redis = propose(CLAIMS)[0]
    # "The test suite needs ..." shares 5+5 tokens with the other two, more than either of them.
    assert redis.gist_member == "atm_1a2b3c4d"
    assert redis.gist == "The test suite needs Redis running on port 6379"
    assert redis.gist in {text for _, text in CLAIMS}
    assert redis.consolidated_from == ("atm_2b3c4d5e", "atm_3c4d5e6f")
    assert set(redis.consolidated_from) | {redis.gist_member} == set(redis.members)
    assert redis.score == pytest.approx(5 / 6)
    assert redis.to_json()["consolidated_from"] == ["atm_2b3c4d5e", "atm_3c4d5e6f"]


def test_gist_tie_break_prefers_the_shorter_text_then_the_id() -> None:
    pnpm = propose(CLAIMS)[1]
    assert pnpm.gist == "Use pnpm, not npm, to install packages"  # both share 5 tokens
    same = propose([("b", "alpha beta gamma delta"), ("a", "alpha beta gamma delta")])
    assert same[0].gist_member == "a" and same[0].consolidated_from == ("b",)


def test_deterministic_whatever_the_input_order() -> None:
    expected = propose(CLAIMS)
    shuffled = list(CLAIMS)
    for seed in range(5):
        random.Random(seed).shuffle(shuffled)
        assert propose(shuffled) == expected


def test_one_broad_note_does_not_glue_unrelated_claims() -> None:
    broad = (
        "Onboarding notes: Redis runs on port 6379 for the test suite, install packages "
        "with pnpm, deploys go through staging, tokens are JWT, logs ship to Loki, "
        "dashboards live in Grafana, releases are tagged on Fridays"
    )
    items = [
        ("note", broad),
        ("redis", "Redis runs on port 6379 for the test suite"),
        ("pnpm", "Install packages with pnpm"),
    ]
    assert propose(items) == []
    # Without the Jaccard floor, single linkage would chain all three through the broad note.
    assert [p.members for p in propose(items, min_jaccard=0.0)] == [("note", "pnpm", "redis")]


def test_short_items_are_not_compared() -> None:
    assert propose([("a", "use pnpm"), ("b", "pnpm use")]) == []
    assert len(propose([("a", "use pnpm"), ("b", "pnpm use")], min_tokens=2)) == 1


def test_duplicate_ids_are_rejected() -> None:
    with pytest.raises(ValueError, match="atm_1a2b3c4d"):
        propose([CLAIMS[0], CLAIMS[0]])


def brute_force(
    items: list[tuple[str, str]], threshold: float, min_jaccard: float
) -> set[tuple[str, ...]]:
    """All pairs, same criteria, connected components: the reference the bucketing must match."""
    toks = {i: tokens(t) for i, t in items}
    ok = [i for i, _ in items if len(toks[i]) >= 3]
    groups = {i: {i} for i in ok}
    for a, b in itertools.combinations(ok, 2):
        ta, tb = toks[a], toks[b]
        shared = len(ta & tb)
        if (NEGATION_TOKEN in ta) != (NEGATION_TOKEN in tb):
            continue
        if shared / min(len(ta), len(tb)) >= threshold and shared / len(ta | tb) >= min_jaccard:
            merged = groups[a] | groups[b]
            for m in merged:
                groups[m] = merged
    return {tuple(sorted(g)) for g in groups.values() if len(g) > 1}


VOCAB = [
    "redis",
    "port",
    "test",
    "pnpm",
    "npm",
    "deploy",
    "stage",
    "main",
    "push",
    "not",
    "cache",
    "key",
]


@settings(max_examples=150, deadline=None)
@given(
    texts=st.lists(
        st.lists(st.sampled_from(VOCAB), min_size=1, max_size=7), min_size=2, max_size=25
    ),
    threshold=st.sampled_from([0.5, 0.8, 1.0]),
    min_jaccard=st.sampled_from([0.0, 0.3, 0.4, 0.7]),
)
def test_bucketed_search_finds_exactly_the_all_pairs_clusters(
    texts: list[list[str]], threshold: float, min_jaccard: float
) -> None:
    items = [(f"id{n:02d}", " ".join(words)) for n, words in enumerate(texts)]
    got = {p.members for p in propose(items, threshold=threshold, min_jaccard=min_jaccard)}
    assert got == brute_force(items, threshold, min_jaccard)


def test_atom_items_skip_superseded_atoms() -> None:
    atoms = [
        {"id": "atm_1a2b3c4d", "claim": "Use pnpm"},
        {"id": "atm_2b3c4d5e", "claim": "Use yarn", "superseded_by": "atm_1a2b3c4d"},
    ]
    assert atom_items(atoms) == [("atm_1a2b3c4d", "Use pnpm")]


# ------------------------------------------------------------------ auto-memory directories


def write(directory: Path, rel: str, text: str) -> None:
    path = directory / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def auto_memory(tmp_path: Path) -> Path:
    directory = tmp_path / "memory"
    write(directory, "MEMORY.md", "- [pnpm](feedback_pnpm.md)\n- region `*.md` → everything\n")
    write(directory, "MEMORY-archive.md", "- old_index_line.md\n")
    write(
        directory,
        "feedback_pnpm.md",
        "---\nname: pnpm only\ndescription: Use pnpm, never npm, in this repo\ntype: feedback\n---\n\n"
        "Use pnpm, not npm, for every install in this repo.\n\n"
        "**Why:** an npm install rewrote the lockfile and broke CI.\n\n"
        "**How to apply:** run `pnpm install`; never run `npm install`.\n",
    )
    write(
        directory,
        "feedback_pnpm_lockfile.md",
        "---\nname: lockfile\ndescription: npm breaks the lockfile\ntype: feedback\n---\n\n"
        "Always install dependencies with pnpm, never npm: npm rewrote the lockfile and CI broke.\n\n"
        "**How to apply:** `pnpm install` for every install.\n",
    )
    write(
        directory,
        "project_release.md",
        "---\nname: release freeze\ndescription: release freeze dates\ntype: project\n---\n\n"
        "Merge freeze begins 2026-03-05 for the mobile release cut; only fixes after that.\n\n"
        "**Why:** the mobile team is cutting a release branch.\n",
    )
    write(
        directory,
        "reference_dashboards.md",
        "---\ndescription: Grafana board for API latency\n---\n",
    )
    write(directory, "long_session_notes.md", "word " * 400)
    write(directory, ".memory-pressure.jsonl", '{"date": "2026-11-02"}\n')
    (directory / "diagram.bin").write_bytes(b"\x89PNG\x00\x01")
    return directory


def test_auto_memory_items_read_bodies_not_indexes_or_dotfiles(auto_memory: Path) -> None:
    items = dict(auto_memory_items(auto_memory))
    assert sorted(items) == [
        "feedback_pnpm.md",
        "feedback_pnpm_lockfile.md",
        "long_session_notes.md",
        "project_release.md",
        "reference_dashboards.md",
    ]
    assert items["feedback_pnpm.md"].startswith("Use pnpm, not npm, for every install")
    assert "**Why:**" not in items["feedback_pnpm.md"] and "name:" not in items["feedback_pnpm.md"]
    assert (
        items["reference_dashboards.md"] == "Grafana board for API latency"
    )  # description fallback
    assert 400 <= len(items["long_session_notes.md"]) <= 500


def test_consolidate_an_auto_memory_directory(auto_memory: Path) -> None:
    proposals = propose(auto_memory_items(auto_memory))
    assert proposals == [
        Proposal(
            members=("feedback_pnpm.md", "feedback_pnpm_lockfile.md"),
            gist="Always install dependencies with pnpm, never npm: npm rewrote the lockfile "
            "and CI broke. `pnpm install` for every install.",
            consolidated_from=("feedback_pnpm.md",),
            score=pytest.approx(8 / 9),
            gist_member="feedback_pnpm_lockfile.md",
        )
    ]


def test_two_sides_of_a_contradiction_are_never_folded_even_through_a_third_member() -> None:
    from agent_memory.claude.consolidate import propose

    items = [
        ("a", "use uv for python dependencies in this repo"),
        ("b", "use uv for python dependencies in this repo always"),
        ("c", "use uv for python dependencies in this repo please always"),
    ]
    assert [p.members for p in propose(items)] == [("a", "b", "c")]
    got = propose(items, apart=[frozenset(("a", "c"))])
    assert all(not {"a", "c"} <= set(p.members) for p in got)
