from __future__ import annotations

import json
from typing import Any

import pytest
from builders import l1_atom
from conftest import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.model.atom import (
    EVIDENCE_DAYS,
    atom_errors,
    atom_id,
    dump_atom,
    is_pending,
    load_atom,
    merge,
    merge_all,
    new_atom,
    normalize,
    omitted_quotes,
    restated_ids,
    review_is_valid,
    schema,
    to_committed,
    validate_atom,
)
from agent_memory.model.errors import InvalidAtomError

EXAMPLES = json.loads((FIXTURES / "schema_examples.json").read_text())


def test_spec_examples_validate_unchanged_and_ids_reproduce() -> None:
    assert [a["id"] for a in EXAMPLES] == ["atm_14a05266", "atm_961f033d", "atm_12cc1dc2"]
    for atom in EXAMPLES:
        assert atom_errors(atom) == []
        project = atom.get("project")
        assert atom_id(atom["claim"], project) == atom["id"]


def test_spec_l1_fixture_in_section_3_1_reproduces() -> None:
    # The §3.1 L1 snapshot of atm_961f033d: first sighting of the L2 example.
    l1 = {"id": "atm_961f033d", "claim": "PR base branch is dev, never main", "scope": "project",
          "project": "claude-skills", "kind": "constraint", "first_seen": "2026-07-02T09:11:04Z",
          "last_seen": "2026-07-02T09:11:04Z", "observations": 1, "sessions": ["01SESSIONAAAA11112222333"],
          "source": "~/.claude/projects/-home-user-claude-skills/01SESSIONAAAA11112222333.jsonl#L77",
          "first_source": "~/.claude/projects/-home-user-claude-skills/01SESSIONAAAA11112222333.jsonl#L77",
          "confidence": "observed", "tier": "L1", "redacted": False}
    assert atom_errors(l1) == []
    assert atom_id(l1["claim"], "claude-skills") == "atm_961f033d"


def test_new_atom_rebuilds_the_section_3_1_fixture_and_is_schema_valid_in_every_form() -> None:
    pointer = "~/.claude/projects/-home-user-claude-skills/01SESSIONAAAA11112222333.jsonl#L77"
    l1 = new_atom("PR base branch is dev, never main", "constraint", project="claude-skills",
                  source=pointer, at="2026-07-02T09:11:04Z", session="01SESSIONAAAA11112222333",
                  confidence="observed", redacted=False)  # fmt: skip
    assert l1["id"] == "atm_961f033d" and l1["first_source"] == l1["source"] == pointer
    assert atom_errors(l1) == []
    # the one sighting's evidence carries the atom's back-pointer, time and session
    seen = new_atom("Use pnpm", "preference", project="p", source=pointer, at="2026-07-02T09:11:04Z",
                    session="s1", confidence="stated", redacted=False,
                    evidence={"quote": "use pnpm", "rule": "directive.use"})  # fmt: skip
    assert seen["evidence"] == [{"source": pointer, "at": "2026-07-02T09:11:04Z", "session": "s1",
                                 "quote": "use pnpm", "rule": "directive.use"}]  # fmt: skip
    assert atom_errors(seen) == []
    # global: the project-free id, no project field, optional fields as given
    glob = new_atom("Python tooling stays stdlib-only; no third-party runtime deps", "constraint",
                    project=None, source="remembered-12cc1dc2.jsonl#L1", at="2026-07-02T09:11:04Z",
                    session="remembered-20260702", confidence="stated", redacted=False, tier="L3",
                    promoted_from_projects=["p"], promoted_at="2026-07-02T09:11:04Z",
                    hand_authored=True)  # fmt: skip
    assert glob["id"] == "atm_12cc1dc2" and glob["scope"] == "global" and "project" not in glob
    assert atom_errors(glob) == []


def test_normalize_is_exactly_the_spec_order() -> None:
    assert normalize("  PR   base\tbranch is DEV!! ") == "pr base branch is dev"
    # trailing punctuation is stripped after casefolding, inner punctuation kept
    assert normalize("Use pnpm, not npm.") == "use pnpm, not npm"
    assert normalize("Straße") == "strasse"


def test_global_id_hashes_the_claim_alone() -> None:
    assert atom_id("Python tooling stays stdlib-only; no third-party runtime deps", None) == "atm_12cc1dc2"
    assert atom_id("x", "a") != atom_id("x", "b") != atom_id("x", None)


# --- one rule, several spellings --------------------------------------------------------------

# words of made-up claims: plural nouns, words before them that say which ones, -s words that
# are no plural, and the article
_WORDS = st.sampled_from(["run", "the", "tests", "docs", "all", "my", "2", "before", "class", "uses",
                          "status", "commits", "always", "in", "English", "a"])


def _spellings(claim: str) -> set[str]:
    return {atom_id(claim, "p"), *restated_ids(claim, "p")}


@settings(max_examples=300, deadline=None)
@given(st.booleans(), st.lists(_WORDS, min_size=1, max_size=7))
def test_the_spellings_of_a_rule_find_each_other_and_are_few(always: bool, words: list[str]) -> None:
    """Each spelling of a claim names the claim among its own (so whichever is held, a sighting
    of the other finds it), and there are at most five: "Always" dropped or added, "the"
    dropped or added at one place, before its first plural noun or the word in front of it."""
    body = " ".join(words)
    if body.startswith("always"):
        return  # ("Always always X": a claim nobody says)
    claim = ("always " if always else "") + body
    others = restated_ids(claim, "p")
    assert len(others) <= 5 and len(set(others)) == len(others) and atom_id(claim, "p") not in others
    for other in others:
        spelled = next(t for t in _every_spelling(body) if atom_id(t, "p") == other)
        assert atom_id(claim, "p") in restated_ids(spelled, "p"), (claim, spelled)


def _every_spelling(body: str) -> list[str]:
    """Every claim `body` may be written as by adding or dropping "always " and any one "the"."""
    words = body.split(" ")
    bodies = [body] + [" ".join(words[:i] + words[i + 1:]) for i, w in enumerate(words) if w == "the"]
    bodies += [" ".join([*words[:i], "the", *words[i:]]) for i in range(len(words))]
    return [t for b in bodies for t in (b, "always " + b)]


@pytest.mark.parametrize(("said", "also"), [
    ("Always run the tests before committing.", "run tests before committing"),
    ("Run tests before committing", "Always run the tests before committing"),
    ("The migrations run in CI", "migrations run in CI"),
    ("Keep docs in sync with the code", "keep the docs in sync with the code"),
    ("Run the unit tests before pushing", "run unit tests before pushing"),
    ("Write commit messages in English", "Always write the commit messages in English"),
])  # fmt: skip
def test_a_plural_said_with_or_without_the_is_one_rule(said: str, also: str) -> None:
    assert atom_id(also, "p") in restated_ids(said, "p")
    assert atom_id(said, "p") in restated_ids(also, "p")


@pytest.mark.parametrize(("said", "other"), [
    ("Run all tests before committing", "run all the tests before committing"),  # "all" says which
    ("Use 2 spaces", "use the 2 spaces"),
    ("Use the very old fixtures", "use very old fixtures"),  # the article is two words off
    ("Run the tests and the builds", "run the tests and builds"),  # only the first plural's
])  # fmt: skip
def test_other_articles_are_other_claims(said: str, other: str) -> None:
    assert atom_id(other, "p") not in restated_ids(said, "p")
    assert atom_id(said, "p") not in restated_ids(other, "p")


def _mutated(index: int, **changes: Any) -> dict[str, Any]:
    atom = json.loads(json.dumps(EXAMPLES[index]))
    atom.update(changes)
    return atom


@pytest.mark.parametrize(("atom", "fragment"), [
    (_mutated(1, source="~/.claude/projects/-home-alice-x/01SESSIONCCCC11112222333.jsonl#L412"), "must be stripped"),
    (_mutated(0, source="01SESSIONBBBB11112222333.jsonl#L1043"), "not an L1 back-pointer"),
    (_mutated(0, first_seen="2026-09-01T00:00:00Z"), "is after last_seen"),
    (_mutated(0, sessions=["a", "a"]), "duplicate sessions"),
    (_mutated(0, claim="something else"), "does not match"),
    (_mutated(0, kind="opinion"), "kind"),
    (_mutated(0, scope="global"), "scope"),
    (_mutated(2, project="claude-skills"), "project"),
    (_mutated(1, promoted_at=None), "promoted_at"),
])
def test_invalid_atoms_are_reported(atom: dict[str, Any], fragment: str) -> None:
    if atom.get("promoted_at") is None and "promoted_at" in atom:
        del atom["promoted_at"]
    errors = atom_errors(atom)
    assert errors, atom
    assert any(fragment in e for e in errors), errors


def test_missing_required_field_and_unknown_field_rejected() -> None:
    atom = _mutated(0)
    del atom["redacted"]
    assert any("redacted" in e for e in atom_errors(atom))
    assert any("additional" in e.lower() for e in atom_errors(_mutated(0, colour="blue")))


def test_l3_requires_promoted_from_projects_and_forbids_it_elsewhere() -> None:
    l3 = _mutated(2)
    del l3["promoted_from_projects"]
    assert atom_errors(l3)
    assert atom_errors(_mutated(1, promoted_from_projects=["a", "b"]))


def test_dump_is_sorted_indented_with_trailing_newline_and_round_trips() -> None:
    text = dump_atom(EXAMPLES[0])
    assert text.endswith("}\n") and "\n  \"" in text
    keys = [line.split('"')[1] for line in text.splitlines()[1:-1] if line.startswith('  "')]
    assert keys == sorted(keys)
    assert load_atom(text) == EXAMPLES[0]
    with pytest.raises(InvalidAtomError):
        load_atom("{not json")


def test_merge_takes_min_max_union_and_never_downgrades() -> None:
    a = l1_atom("Never push to main", sessions=("s1",), days=("2026-11-01",), confidence="stated")
    b = l1_atom("never push to main.", sessions=("s2",), days=("2026-11-03",), confidence="observed", line=9)
    m = merge(a, b)
    assert m["sessions"] == ["s1", "s2"]
    assert m["first_seen"] == a["first_seen"] and m["last_seen"] == b["last_seen"]
    assert m["confidence"] == "stated"
    assert m["source"] == b["source"] and m["first_source"] == a["first_source"]
    assert m["claim"] == "Never push to main"  # the earliest sighting's wording
    assert m["observations"] == 2
    validate_atom(m)


def test_merging_different_atoms_is_refused() -> None:
    with pytest.raises(ValueError):
        merge(l1_atom("a b c"), l1_atom("d e f"))


def test_to_committed_strips_back_pointers_and_local_fields() -> None:
    a = l1_atom("Never push to main", sessions=("s1", "s2", "s3"))
    l2 = to_committed(a, "L2", "2026-11-05T00:00:00Z")
    assert l2["source"] == "s3.jsonl#L3" and l2["first_source"] == "s1.jsonl#L3"
    assert "evidence" not in l2 and l2["tier"] == "L2"
    validate_atom(l2)


# --- the join laws (hypothesis) ----------------------------------------------------------------

SESSIONS = st.sampled_from(["s1", "s2", "s3", "s4", "s5"])
DAYS = st.sampled_from(["2026-10-01", "2026-10-15", "2026-11-01", "2026-11-02"])
MANY_SESSIONS = st.sampled_from([f"s{i}" for i in range(1, 13)])
MANY_DAYS = st.sampled_from([f"2026-10-{d:02d}" for d in range(1, 13)])


def _one_line_one_time(atom: dict[str, Any], days: tuple[str, ...]) -> dict[str, Any]:
    """A back-pointer names one transcript line, and a line has one timestamp: give each
    (session, day) its own line, as real transcripts do."""
    for item in atom["evidence"]:
        line = 1 + sorted({f"2026-{m:02d}-{d:02d}" for m in (10, 11) for d in range(1, 32)}).index(item["at"][:10])
        item["source"] = item["source"].rsplit("#L", 1)[0] + f"#L{line}"
    by_time = sorted(atom["evidence"], key=lambda e: (e["at"], e["source"]))
    atom["first_source"], atom["source"] = by_time[0]["source"], by_time[-1]["source"]
    return validate_atom(atom)


@st.composite
def observations(draw: st.DrawFn, sessions_st: Any = SESSIONS, days_st: Any = DAYS, most: int = 3) -> dict[str, Any]:
    n = draw(st.integers(1, most))
    sessions = tuple(draw(st.lists(sessions_st, min_size=n, max_size=n, unique=True)))
    days = tuple(draw(st.lists(days_st, min_size=n, max_size=n)))
    claim = draw(st.sampled_from(["Use pnpm, not npm", "use pnpm, not npm.", "USE PNPM, NOT NPM"]))
    extra: dict[str, Any] = {}
    if draw(st.booleans()):
        extra["contested"] = True
        extra["contested_by"] = [draw(st.sampled_from(["atm_00000001", "atm_00000002"]))]
    if n == 1 and draw(st.booleans()):
        extra["pending"] = True  # said once, held by the durability gate (as the pipeline writes it)
    atom = l1_atom(claim, sessions=sessions, days=days, line=1,
                   confidence=draw(st.sampled_from(["observed", "stated", "verified"])),
                   kind=draw(st.sampled_from(["preference", "constraint"])),
                   redacted=draw(st.booleans()), **extra)
    return _one_line_one_time(atom, days)


@settings(max_examples=200, deadline=None)
@given(observations(), observations(), observations())
def test_merge_is_a_join(a: dict[str, Any], b: dict[str, Any], c: dict[str, Any]) -> None:
    assert merge(a, b) == merge(b, a)
    assert merge(merge(a, b), c) == merge(a, merge(b, c))
    assert merge(a, a) == merge(a, a) and merge(merge(a, b), b) == merge(a, b)
    m = merge_all([a, b, c])
    assert validate_atom(m)
    # pending only while every record is and all were said in one session
    records = (a, b, c)
    assert is_pending(m) == (all(is_pending(x) for x in records)
                             and len({s for x in records for s in x["sessions"]}) == 1)  # fmt: skip
    assert m.get("pending", False) == is_pending(m)
    order = {"observed": 0, "stated": 1, "verified": 2}
    assert order[m["confidence"]] == max(order[x["confidence"]] for x in (a, b, c))
    assert m["observations"] == len({e["source"] for x in (a, b, c) for e in x["evidence"]})


@settings(max_examples=100, deadline=None)
@given(observations())
def test_merge_is_idempotent(a: dict[str, Any]) -> None:
    once = merge(a, a)
    assert merge(once, a) == once
    assert once["observations"] == a["observations"]
    assert is_pending(once) == is_pending(a)


def _copy_reading(atom: dict[str, Any], folder: str, rename: bool) -> dict[str, Any]:
    """The record a copy of the same transcripts gives: same sessions and lines, read from
    `/tmp/<folder>/` (its pointer then named that folder) or renamed beside the original."""
    copy = json.loads(json.dumps(atom))

    def moved(pointer: str) -> str:
        body, _, line = pointer.rpartition("#L")
        name = body.rsplit("/", 1)[-1]
        return f"~/.claude/projects/{folder}/{'copy-of-' + name if rename else name}#L{line}"

    for item in copy["evidence"]:
        item["source"] = moved(item["source"])
        item["path"] = f"/tmp/{folder}/{item['source'].rsplit('/', 1)[-1].partition('#')[0]}"
    copy["source"], copy["first_source"] = moved(copy["source"]), moved(copy["first_source"])
    return validate_atom(copy)


@settings(max_examples=100, deadline=None)
@given(observations(), observations(), st.booleans())
def test_a_copy_of_the_same_lines_is_no_new_evidence(a: dict[str, Any], b: dict[str, Any], rename: bool) -> None:
    """Observations count distinct (session, line): the same lines read from a copy of the
    transcripts change nothing — not the count, not a pointer — in any order or grouping."""
    for record in (a, b):  # where a capture found them: the transcripts' own folder
        for item in record["evidence"]:
            item["path"] = item["source"].partition("#")[0]
    both = merge(a, b)
    copy = _copy_reading(a, "backup", rename)
    assert merge(both, copy) == both == merge(copy, both)
    assert merge(merge(a, copy), b) == both == merge(a, merge(copy, b))
    assert "backup" not in json.dumps(merge(both, copy))


def test_a_line_fingerprinted_before_the_identity_change_is_not_counted_twice() -> None:
    """A record written before evidence was keyed by (session, line) holds the pointers'
    fingerprints in `evidence_omitted`: reading one of those lines again adds nothing."""
    from agent_memory.model.atom import evidence_fingerprint

    days = tuple(f"2026-10-{d:02d}" for d in range(1, 21))
    atom = l1_atom("Never push to main", sessions=tuple(f"s{i}" for i in range(20)), days=days)
    atom = _one_line_one_time(atom, days)
    kept = {e["source"] for e in atom["evidence"][:2]}
    legacy = dict(atom, evidence=[e for e in atom["evidence"] if e["source"] in kept],
                  evidence_omitted=sorted(evidence_fingerprint(e["source"]) for e in atom["evidence"]
                                          if e["source"] not in kept))  # fmt: skip
    assert legacy["observations"] == 20
    again = next(e for e in atom["evidence"] if e["source"] not in kept)
    reread = l1_atom("Never push to main", sessions=(again["session"],), days=(again["at"][:10],))
    reread = _one_line_one_time(reread, (again["at"][:10],))
    assert reread["source"] == again["source"]
    merged = merge(legacy, reread)
    assert merged["observations"] == 20 == len(merged["evidence"]) + omitted_quotes(merged)


# --- bounded evidence (issue 17) ---------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(observations(MANY_SESSIONS, MANY_DAYS, 8), observations(MANY_SESSIONS, MANY_DAYS, 8),
       observations(MANY_SESSIONS, MANY_DAYS, 8))
def test_bounded_merge_is_still_a_join(a: dict[str, Any], b: dict[str, Any], c: dict[str, Any]) -> None:
    assert merge(a, b) == merge(b, a)
    assert merge(merge(a, b), c) == merge(a, merge(b, c))
    assert merge(merge(a, b), b) == merge(a, b)
    m = merge_all([a, b, c])
    validate_atom(m)
    sources = {e["source"] for x in (a, b, c) for e in x["evidence"]}
    # Every sighting is counted, every session kept; only quotes are bounded.
    assert m["observations"] == len(sources) == len(m["evidence"]) + omitted_quotes(m)
    assert m["sessions"] == sorted({s for x in (a, b, c) for s in x["sessions"]})
    assert len(m["evidence"]) <= EVIDENCE_DAYS + 2
    kept = {e["at"] for e in m["evidence"]}
    every = sorted(e["at"] for x in (a, b, c) for e in x["evidence"])
    assert every[0] in kept and every[-1] in kept  # the first and the latest sighting
    days = sorted({at[:10] for at in every}, reverse=True)[:EVIDENCE_DAYS]
    assert days == sorted({at[:10] for at in kept}, reverse=True)[:EVIDENCE_DAYS]


def test_two_thousand_sessions_keep_every_session_and_a_few_quotes() -> None:
    atom = l1_atom("Never push to main", sessions=("s0",), days=("2026-01-01",))
    for n in range(1, 2000):
        day = f"2026-{1 + (n // 28) % 12:02d}-{1 + n % 28:02d}"
        obs = l1_atom("Never push to main", sessions=(f"s{n}",), days=(day,), line=n)
        atom = merge(atom, obs)
    assert len(atom["sessions"]) == 2000 and atom["observations"] == 2000
    assert len(atom["evidence"]) <= EVIDENCE_DAYS + 2
    assert omitted_quotes(atom) == 2000 - len(atom["evidence"])
    assert len(json.dumps(atom["evidence"])) < 2000  # the quotes: a couple of KB, not 466 KB
    validate_atom(atom)


def test_an_old_unbounded_atom_is_bounded_by_its_next_merge() -> None:
    days = tuple(f"2026-10-{d:02d}" for d in range(1, 21))
    old = l1_atom("Never push to main", sessions=tuple(f"s{i}" for i in range(20)), days=days)
    assert len(old["evidence"]) == 20 and "evidence_omitted" not in old  # as stored before
    new = merge(old, l1_atom("Never push to main", sessions=("s99",), days=("2026-10-25",), line=7))
    assert len(new["evidence"]) <= EVIDENCE_DAYS + 2
    assert new["observations"] == 21 == len(new["evidence"]) + omitted_quotes(new)
    assert new["evidence"][-1]["session"] in {"s99", *new["sessions"]}


def test_omitted_evidence_is_local_only() -> None:
    days = tuple(f"2026-10-{d:02d}" for d in range(1, 21))
    atom = merge(*[l1_atom("Never push to main", sessions=tuple(f"s{i}" for i in range(20)), days=days)] * 2)
    assert omitted_quotes(atom) > 0
    committed = to_committed(atom, "L2", "2026-11-05T00:00:00Z")
    assert "evidence_omitted" not in committed and "evidence" not in committed
    validate_atom(committed)


# --- the review record checked by hand (store.l1 writes adopt's marks without the schema) ------

VALID_REVIEW = {"state": "adopted", "at": "2026-11-05T10:00:00Z", "sessions": 1, "commit": "a" * 40}
REVIEW_VALUES = ["adopted", "rejected", "demoted", "remembered", "held", "", "2026-11-05T10:00:00Z", "2026-11-05T10:00:00.25Z",
                 "2026-11-05T10:00:00Z\n", "2026-11-05T10:00:00Zx", "2026-11-05T10:00:00", "2026-11-05 10:00:00Z", "２026-11-05T10:00:00Z", "0" * 40, -1, 0, 2,
                 True, False, None, 1.0, 0.5, [1], {}]  # fmt: skip
NEAR_VALID_REVIEWS = (
    [{**VALID_REVIEW, key: value} for key in [*VALID_REVIEW, "by"] for value in REVIEW_VALUES]
    + [{k: v for k, v in VALID_REVIEW.items() if k != key} for key in VALID_REVIEW]
    + [value for value in REVIEW_VALUES if not isinstance(value, dict)]
)


@pytest.mark.parametrize("review", NEAR_VALID_REVIEWS)
def test_a_review_record_passed_by_hand_passes_the_schema(review: Any) -> None:
    """`review_is_valid` is sound: what it passes, the schema passes too (what it does not
    pass goes to the schema, so it may be stricter). Records one field away from a valid one."""
    atom = l1_atom("Never push to main")
    if review_is_valid(review):
        validate_atom({**atom, "review": review})


def test_the_review_check_passes_every_record_the_verbs_write_and_follows_the_schema() -> None:
    for review in ({"state": "adopted", "at": "2026-11-05T10:00:00Z", "sessions": 3, "commit": "a" * 40},
                   {"state": "rejected", "at": "2026-11-05T10:00:00Z", "sessions": 0},
                   {"state": "demoted", "at": "2026-11-05T10:00:00.5Z", "sessions": 2, "commit": "b" * 40},
                   {"state": "remembered", "at": "2026-11-05T10:00:00Z", "sessions": 1}):  # fmt: skip
        assert review_is_valid(review)
    # The rule it encodes; a change to the schema's review record must change review_is_valid.
    assert schema()["properties"]["review"] == {
        "$comment": "agent-memory extension, L1 only: the last human decision on this atom.",
        "type": "object",
        "required": ["state", "at", "sessions"],
        "additionalProperties": False,
        "properties": {
            "state": {"enum": ["adopted", "rejected", "demoted", "remembered"]},
            "at": {"$ref": "#/$defs/timestamp"},
            "sessions": {"type": "integer", "minimum": 0},
            "commit": {"type": "string"},
        },
    }
    assert schema()["$defs"]["timestamp"]["pattern"] == "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z$"


def test_the_length_limits_the_code_checks_are_the_schemas() -> None:
    import json
    from importlib.resources import files

    from agent_memory.model.atom import MAX_CLAIM_CHARS
    from agent_memory.model.controls import MAX_PROJECT_CHARS

    schema = json.loads(files("agent_memory").joinpath("resources/atom.schema.json").read_text("utf-8"))
    assert schema["properties"]["claim"]["maxLength"] == MAX_CLAIM_CHARS
    assert schema["$defs"]["projectName"]["maxLength"] == MAX_PROJECT_CHARS


@pytest.mark.parametrize(("said", "also"), [
    ("User is on Windows", "User uses Windows"),
    ("User works on macOS", "The user's OS is macOS"),
    ("The user's shell is fish", "User uses fish shell"),
    ("User is on zsh", "User uses zsh"),
    ("Answer in Italian", "Answer the user in Italian"),
])  # fmt: skip
def test_a_fact_of_the_users_in_another_spelling_is_one_fact(said: str, also: str) -> None:
    assert atom_id(also, "p") in restated_ids(said, "p")
    assert atom_id(said, "p") in restated_ids(also, "p")


@pytest.mark.parametrize(("said", "other"), [
    ("User is on Windows", "User is on Windows w/ PowerShell"),  # says more: its own fact
    ("User is on Linux", "User is on Ubuntu"),  # one family, not one name
    ("User uses vim", "User uses neovim"),
    ("User uses VS Code", "The user's editor is VS Code"),  # one of the editors used, not the one
    ("User uses tmux", "User is on tmux"),  # no slot's name
    ("Answer in Italian", "Write commit messages in Italian"),
])  # fmt: skip
def test_a_fact_of_the_users_said_with_more_or_another_name_is_another_fact(said: str, other: str) -> None:
    assert atom_id(other, "p") not in restated_ids(said, "p")
    assert atom_id(said, "p") not in restated_ids(other, "p")
