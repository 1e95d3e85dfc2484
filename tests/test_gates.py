"""Promotion gates and caps (spec §4.1, §4.1.1, §4.1.3, §4.3): every reason a gate can give is
pinned here, on schema-valid atoms."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.model.atom import Atom, atom_errors, atom_id, normalize, validate_atom
from agent_memory.model.policy import l1_evictions
from agent_memory.promote.gates import (
    NOT_LEARNED_FAILURE,
    GateResult,
    claim_days,
    evaluate_global,
    evaluate_l1,
    l2_overflow,
    merge_to_l3,
)
from agent_memory.redact.redactor import redact
from agent_memory.store.contradictions import detect, mark

PROJECT = "this-repo"
NOW = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.UTC)
DAY1, DAY2 = "2026-11-01", "2026-11-02"


def make_atom(
    claim: str,
    *,
    project: str = PROJECT,
    sessions: tuple[str, ...] = ("sess-a",),
    first_seen: str = f"{DAY1}T09:00:00Z",
    last_seen: str | None = None,
    kind: str = "constraint",
    confidence: str = "observed",
    tier: str = "L1",
    redacted: bool = False,
    **extra: Any,
) -> Atom:
    """A schema-valid L1 or L2 atom; back-pointer form follows the tier (§3.1.1)."""
    last_seen = last_seen or first_seen

    def pointer(session: str, line: int) -> str:
        name = f"{session}.jsonl#L{line}"
        return f"~/.claude/projects/-home-u-{project}/{name}" if tier == "L1" else name

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
        "source": pointer(sessions[-1], 40),
        "first_source": pointer(sessions[0], 4),
        "confidence": confidence,
        "tier": tier,
        "redacted": redacted,
    }
    if tier == "L2":
        atom["promoted_at"] = extra.pop("promoted_at", "2026-09-01T00:00:00Z")
    atom.update(extra)
    return validate_atom(atom)


def l1(atoms: list[Atom], **kwargs: Any) -> dict[str, GateResult]:
    return {r.atom_id: r for r in evaluate_l1(atoms, PROJECT, NOW, **kwargs)}


def reasons_of(atom: Atom, *others: Atom, **kwargs: Any) -> tuple[str, ...]:
    return l1([atom, *others], **kwargs)[atom["id"]].reasons


# --- L1 → L2 ------------------------------------------------------------------------------


def test_three_sessions_over_two_days_promote() -> None:
    atom = make_atom(
        "PR base branch is dev", sessions=("s1", "s2", "s3"), last_seen=f"{DAY2}T10:00:00Z"
    )
    (result,) = evaluate_l1([atom], PROJECT, NOW)
    assert result == GateResult(atom["id"], True, "L2", ())
    assert result.as_dict() == {"id": atom["id"], "to": "L2"}


@pytest.mark.parametrize(
    ("claim", "staged"),
    [
        ("`npm run build` fails: error", False),  # the code under edit, learned before 2026-12-06
        ("`ls` fails (exit 1): not found", False),  # a command failing on its arguments
        ("`cargo test` fails: build failed", False),
        ("`mkdir` fails (exit 127): command not found", True),  # the machine's PATH
        ("`npm run migrate` fails (exit 1): connection refused", True),
    ],
)
def test_an_observed_failure_this_version_would_not_learn_is_never_staged(claim: str, staged: bool) -> None:
    """A store keeps for 90 days what an earlier version learned; its recurrence does not stage it."""
    atom = make_atom(claim, kind="failure", sessions=("s1", "s2", "s3"), last_seen=f"{DAY2}T10:00:00Z")
    assert reasons_of(atom) == (() if staged else (NOT_LEARNED_FAILURE,))


@pytest.mark.parametrize(
    ("sessions", "reason"), [(("s1",), "1 session, needs 3"), (("s1", "s2"), "2 sessions, needs 3")]
)
def test_observed_needs_three_sessions(sessions: tuple[str, ...], reason: str) -> None:
    atom = make_atom("PR base branch is dev", sessions=sessions, last_seen=f"{DAY2}T10:00:00Z")
    assert reasons_of(atom) == (reason,)


def test_stated_needs_two_sessions() -> None:
    one = make_atom("Use pnpm", confidence="stated", last_seen=f"{DAY2}T10:00:00Z")
    two = make_atom(
        "Use uv", confidence="stated", sessions=("s1", "s2"), last_seen=f"{DAY2}T10:00:00Z"
    )
    results = l1([one, two])
    assert results[one["id"]].reasons == ("stated: 1 session, needs 2",)
    assert results[two["id"]].eligible


def test_the_day_rule_still_applies_to_stated() -> None:
    # §4.1: "one long working day could mint an L2 claim" otherwise.
    atom = make_atom(
        "Use pnpm", confidence="stated", sessions=("s1", "s2"), last_seen=f"{DAY1}T23:59:59Z"
    )
    assert reasons_of(atom) == (f"all sessions on {DAY1}",)


def test_three_sessions_on_one_day_are_not_enough() -> None:
    atom = make_atom("Use pnpm", sessions=("s1", "s2", "s3"), last_seen=f"{DAY1}T18:00:00Z")
    assert reasons_of(atom) == (f"all sessions on {DAY1}",)
    short = make_atom("Use uv", sessions=("s1", "s2"), last_seen=f"{DAY1}T18:00:00Z")
    assert reasons_of(short) == ("2 sessions, needs 3", f"all sessions on {DAY1}")


def test_verified_promotes_on_one_observation_the_only_day_exempt_path() -> None:
    atom = make_atom("pytest -q passes on main", confidence="verified", verified_by="pytest -q")
    assert l1([atom])[atom["id"]].eligible


def test_confidence_is_re_read_at_gate_time() -> None:
    # §4.1.3: observed for two sessions, stated in the third → judged on stated's 2-session bar.
    observed = make_atom("Use pnpm", sessions=("s1", "s2"), last_seen=f"{DAY2}T10:00:00Z")
    assert not l1([observed])[observed["id"]].eligible
    upgraded = dict(observed, confidence="stated")
    assert l1([upgraded])[observed["id"]].eligible


def test_a_verified_one_observation_atom_carrying_a_secret_never_promotes() -> None:
    # The spec's first behavioural test (§4.1): the shortest path from transcript to a
    # committed file, with redaction as the sole barrier.
    key = "AKIA" + "Z7Q4M2X9K3B8W5TR"
    claim, findings = redact(f"the staging key {key} works")
    assert findings and key not in claim
    atom = make_atom(claim, confidence="verified", redacted=True, verified_by="./check-staging")
    result = l1([atom])[atom["id"]]
    assert not result.eligible
    assert result.reasons == ("redacted — needs a restatement without the secret",)
    assert result.as_dict() == {"id": atom["id"], "reasons": list(result.reasons)}
    # The flag alone is what holds it: the same atom unredacted would go through.
    assert l1([dict(atom, redacted=False)])[atom["id"]].eligible


def test_other_projects_atoms_are_refused() -> None:
    atom = make_atom("Use pnpm", project="other", confidence="verified")
    assert reasons_of(atom) == (f"project other ≠ {PROJECT}",)


def test_held_atoms_are_not_eligible_again() -> None:
    atom = make_atom("Use pnpm", confidence="verified")
    assert reasons_of(atom, held={atom["id"]: atom}) == ("already held at L2",)


def test_a_rejection_blocks_until_new_sessions_arrive() -> None:
    review = {"state": "rejected", "at": "2026-11-05T08:00:00Z", "sessions": 3}
    atom = make_atom(
        "Use pnpm", sessions=("s1", "s2", "s3"), last_seen=f"{DAY2}T10:00:00Z", review=review
    )
    assert reasons_of(atom) == ("rejected on 2026-11-05; needs new sessions",)
    later = make_atom(
        "Use pnpm", sessions=("s1", "s2", "s3", "s4"), last_seen=f"{DAY2}T10:00:00Z", review=review
    )
    assert l1([later])[later["id"]].eligible
    adopted = dict(atom, review=dict(review, state="demoted"))
    assert l1([adopted])[atom["id"]].eligible


def test_both_sides_of_a_contradiction_are_blocked_by_the_reverse_join() -> None:
    three = {"sessions": ("s1", "s2", "s3"), "last_seen": f"{DAY2}T10:00:00Z"}
    old = make_atom("PR base branch is dev", first_seen="2026-10-30T09:00:00Z", **three)
    new = make_atom("PR base branch is main", **three)
    (marked,) = mark([old, new], detect([old, new]))
    assert "contested" not in new  # only the older side carries a flag (§4.2.1)
    results = l1([marked, new])
    assert results[old["id"]].reasons == (f"contested by {new['id']}",)
    assert results[new["id"]].reasons == (f"contests {old['id']}",)


def test_an_l1_atom_contesting_a_held_l2_atom_is_blocked() -> None:
    incumbent = make_atom("PR base branch is dev", tier="L2", contested=True, contested_by=[])
    newcomer = make_atom("PR base branch is main", confidence="verified")
    incumbent = dict(incumbent, contested_by=[newcomer["id"]])
    results = l1([newcomer], held={incumbent["id"]: incumbent})
    assert results[newcomer["id"]].reasons == (f"contests {incumbent['id']}",)
    assert list(results) == [newcomer["id"]]  # held atoms are not themselves judged


def test_a_contested_flag_without_a_partner_still_blocks() -> None:
    atom = make_atom("Use pnpm", confidence="verified", contested=True)
    assert reasons_of(atom) == ("contested — resolve at adopt",)


def test_superseded_atoms_do_not_promote() -> None:
    atom = make_atom("Use pnpm", confidence="verified", superseded_by="atm_0000abcd")
    assert reasons_of(atom) == ("superseded by atm_0000abcd",)


def test_expired_atoms_never_promote() -> None:
    atom = make_atom("Use pnpm", confidence="verified", first_seen="2026-01-02T10:00:00Z")
    assert reasons_of(atom) == ("expired (last seen 2026-01-02, 90-day limit)",)
    edge = make_atom("Use uv", confidence="verified", first_seen="2026-08-22T12:00:00Z")
    assert l1([edge])[edge["id"]].eligible  # exactly 90 days: not yet "more than 90"


def test_every_applicable_reason_is_listed() -> None:
    review = {"state": "rejected", "at": "2026-01-03T00:00:00Z", "sessions": 2}
    atom = make_atom(
        "Use pnpm",
        project="other",
        sessions=("s1", "s2"),
        first_seen="2026-01-02T09:00:00Z",
        redacted=True,
        contested=True,
        contested_by=["atm_0000abcd"],
        review=review,
    )
    assert reasons_of(atom, held={atom["id"]: atom}) == (
        f"project other ≠ {PROJECT}",
        "already held at L2",
        "rejected on 2026-01-03; needs new sessions",
        "redacted — needs a restatement without the secret",
        "contested by atm_0000abcd",
        "expired (last seen 2026-01-02, 90-day limit)",
        "2 sessions, needs 3",
        "all sessions on 2026-01-02",
    )


def test_results_cover_l1_atoms_only_sorted_by_id() -> None:
    atoms = [make_atom(f"claim number {i}") for i in range(6)] + [make_atom("an l2 one", tier="L2")]
    results = evaluate_l1(atoms, PROJECT, NOW)
    assert [r.atom_id for r in results] == sorted(a["id"] for a in atoms[:6])
    assert all(r.to == "L2" for r in results)


def test_claim_days_use_evidence_and_first_last_seen() -> None:
    evidence = [
        {
            "source": f"~/.claude/projects/-home-u-{PROJECT}/s{i}.jsonl#L{i}",
            "at": at,
            "session": f"s{i}",
        }
        for i, at in enumerate(
            ["2026-11-01T09:00:00Z", "2026-11-02T23:30:00Z", "2026-11-04T00:10:00Z"]
        )
    ]
    atom = make_atom(
        "Use pnpm", sessions=("s0", "s1", "s2"), last_seen="2026-11-04T00:10:00Z", evidence=evidence
    )
    assert claim_days(atom) == {"2026-11-01", "2026-11-02", "2026-11-04"}
    assert claim_days(make_atom("Use uv", last_seen="2026-11-03T01:00:00Z")) == {
        "2026-11-01",
        "2026-11-03",
    }


# --- L2 → L3 ------------------------------------------------------------------------------

OLD_ENOUGH = "2026-09-01T00:00:00Z"  # 80 days before NOW


def l2(claim: str, project: str, **kw: Any) -> Atom:
    kw.setdefault("promoted_at", OLD_ENOUGH)
    kw.setdefault("first_seen", "2026-08-01T09:00:00Z")
    kw.setdefault("last_seen", "2026-08-20T09:00:00Z")
    return make_atom(claim, project=project, tier="L2", **kw)


def glob(
    l2_by_project: dict[str, list[Atom]], l3: list[Atom] | None = None
) -> tuple[dict[str, GateResult], list[Atom]]:
    results, merged = evaluate_global(l2_by_project, NOW, l3 or [])
    return {r.atom_id: r for r in results}, merged


def gid(claim: str) -> str:
    return atom_id(claim, None)


def test_a_claim_held_in_two_projects_for_thirty_days_goes_to_l3() -> None:
    a = l2(
        "Use pnpm.",
        "proj-a",
        sessions=("s1", "s2"),
        confidence="stated",
        first_seen="2026-07-01T09:00:00Z",
    )
    b = l2(
        "use pnpm",
        "proj-b",
        sessions=("s3", "s4", "s5"),
        redacted=False,
        last_seen="2026-08-25T09:00:00Z",
    )
    results, merged = glob({"proj-a": [a], "proj-b": [b]})
    assert results == {gid("use pnpm"): GateResult(gid("use pnpm"), True, "L3", ())}
    (atom,) = merged
    assert atom_errors(atom) == []
    assert atom["id"] == gid("Use pnpm.") and atom["claim"] == "Use pnpm."
    assert atom["promoted_from_projects"] == ["proj-a", "proj-b"]
    assert atom["sessions"] == ["s1", "s2", "s3", "s4", "s5"] and atom["observations"] == 5
    assert (atom["first_seen"], atom["last_seen"]) == (
        "2026-07-01T09:00:00Z",
        "2026-08-25T09:00:00Z",
    )
    assert (atom["first_source"], atom["source"]) == ("s1.jsonl#L4", "s5.jsonl#L40")
    assert atom["confidence"] == "stated" and atom["scope"] == "global" and "project" not in atom
    assert atom["promoted_at"] == "2026-11-20T12:00:00Z"


def test_one_project_is_not_enough() -> None:
    results, merged = glob({"proj-a": [l2("Use pnpm", "proj-a")], "proj-b": []})
    assert results[gid("Use pnpm")].reasons == ("held in 1 project (proj-a), needs 2",)
    assert merged == []


def test_each_contributor_must_be_thirty_days_at_l2() -> None:
    # Age runs from promoted_at (entry into committed context), not first_seen.
    young = l2(
        "Use pnpm", "proj-b", promoted_at="2026-11-08T12:00:00Z", first_seen="2026-01-01T00:00:00Z"
    )
    results, _ = glob({"proj-a": [l2("Use pnpm", "proj-a")], "proj-b": [young]})
    assert results[gid("Use pnpm")].reasons == ("proj-b: at L2 for 12 days, needs 30",)


def test_contested_contributors_block_both_sides() -> None:
    old = l2("PR base branch is dev", "proj-a", first_seen="2026-07-01T09:00:00Z")
    new = l2("PR base branch is main", "proj-a")
    (marked,) = mark([old, new], detect([old, new]))
    by_project = {
        "proj-a": [marked, new],
        "proj-b": [l2("PR base branch is dev", "proj-b"), l2("PR base branch is main", "proj-b")],
    }
    results, merged = glob(by_project)
    assert results[gid("PR base branch is dev")].reasons == (f"proj-a: contested by {new['id']}",)
    assert results[gid("PR base branch is main")].reasons == (f"proj-a: contests {old['id']}",)
    assert merged == []


def test_an_l1_contester_in_the_project_blocks_too() -> None:
    incumbent = l2("PR base branch is dev", "proj-a", contested=True, contested_by=["atm_0000abcd"])
    results, _ = glob({"proj-a": [incumbent], "proj-b": [l2("PR base branch is dev", "proj-b")]})
    assert results[gid("PR base branch is dev")].reasons == ("proj-a: contested by atm_0000abcd",)


def test_kinds_must_agree() -> None:
    results, merged = glob(
        {
            "proj-a": [l2("Use pnpm", "proj-a", kind="preference")],
            "proj-b": [l2("Use pnpm", "proj-b")],
        }
    )
    assert results[gid("Use pnpm")].reasons == (
        "kind disagrees: constraint (proj-b), preference (proj-a)",
    )
    assert merged == []


def test_redacted_contributors_block() -> None:
    results, _ = glob(
        {"proj-a": [l2("Use pnpm", "proj-a", redacted=True)], "proj-b": [l2("Use pnpm", "proj-b")]}
    )
    assert results[gid("Use pnpm")].reasons == (
        "proj-a: redacted — needs a restatement without the secret",
    )


def l3_atom(claim: str) -> Atom:
    return merge_to_l3([l2(claim, "x-1"), l2(claim, "x-2")], "2026-10-01T00:00:00Z")


def test_groups_already_at_l3_are_not_reproposed() -> None:
    results, merged = glob(
        {"proj-a": [l2("Use pnpm", "proj-a")], "proj-b": [l2("Use pnpm", "proj-b")]},
        [l3_atom("Use pnpm")],
    )
    assert results[gid("Use pnpm")].reasons == ("already held at L3",)
    assert merged == []


ALWAYS_TESTS, PLAIN_TESTS, NO_ARTICLE = (
    "Always run the tests before committing", "Run the tests before committing", "run tests before committing")


def _spelled_three_ways() -> dict[str, list[Atom]]:
    """One rule adopted in three projects under three spellings; the "Always" one seen first
    (and read as a constraint, the others as preferences)."""
    return {
        "proj-a": [l2(ALWAYS_TESTS, "proj-a", first_seen="2026-07-01T09:00:00Z")],
        "proj-b": [l2(PLAIN_TESTS, "proj-b", first_seen="2026-07-02T09:00:00Z", kind="preference")],
        "proj-c": [l2(NO_ARTICLE, "proj-c", first_seen="2026-07-03T09:00:00Z", kind="preference")],
    }


def test_the_spellings_of_one_rule_are_one_group_under_the_one_seen_first() -> None:
    by_project = _spelled_three_ways()
    results, merged = glob(by_project)
    assert list(results) == [gid(ALWAYS_TESTS)] and results[gid(ALWAYS_TESTS)].eligible
    (atom,) = merged
    assert (atom["id"], atom["claim"], atom["kind"]) == (gid(ALWAYS_TESTS), ALWAYS_TESTS, "constraint")
    assert atom["promoted_from_projects"] == ["proj-a", "proj-b", "proj-c"]
    # read in any order, the same group
    for order in (["proj-c", "proj-b", "proj-a"], ["proj-b", "proj-c", "proj-a"]):
        assert glob({k: by_project[k] for k in order}) == (results, merged)
    # held at L3 under one spelling: the group is that atom, already held
    results, merged = glob(by_project, [l3_atom(NO_ARTICLE)])
    assert results == {gid(NO_ARTICLE): GateResult(gid(NO_ARTICLE), False, "L3", ("already held at L3",))}
    assert merged == []


def test_one_spelling_given_two_kinds_still_disagrees() -> None:
    by_project = _spelled_three_ways()
    by_project["proj-d"] = [l2(PLAIN_TESTS, "proj-d", kind="fact")]
    results, merged = glob(by_project)
    assert results[gid(ALWAYS_TESTS)].reasons == ("kind disagrees: fact (proj-d), preference (proj-b)",)
    assert merged == []


def test_the_l3_cap_refuses_inflow_and_never_demotes() -> None:
    full = [l3_atom(f"persona fact {i}") for i in range(30)]
    by_project = {"proj-a": [l2("Use pnpm", "proj-a")], "proj-b": [l2("Use pnpm", "proj-b")]}
    results, merged = glob(by_project, full)
    assert results[gid("Use pnpm")].reasons == ("L3 cap of 30 reached — prune L3 at adopt",)
    assert merged == []


def test_with_one_slot_left_the_oldest_evidence_goes_first() -> None:
    almost = [l3_atom(f"persona fact {i}") for i in range(29)]
    older = [l2("Use pnpm", p, first_seen="2026-06-01T00:00:00Z") for p in ("proj-a", "proj-b")]
    newer = [l2("Use uv", p, first_seen="2026-07-01T00:00:00Z") for p in ("proj-a", "proj-b")]
    results, merged = glob({"proj-a": [older[0], newer[0]], "proj-b": [older[1], newer[1]]}, almost)
    assert results[gid("Use pnpm")].eligible
    assert results[gid("Use uv")].reasons == ("L3 cap of 30 reached — prune L3 at adopt",)
    assert [a["id"] for a in merged] == [gid("Use pnpm")]


def test_several_group_reasons_are_all_listed() -> None:
    young = l2("Use pnpm", "proj-a", promoted_at="2026-11-19T12:00:00Z", redacted=True, kind="fact")
    results, _ = glob(
        {"proj-a": [young], "proj-b": []}, [l3_atom(f"persona fact {i}") for i in range(30)]
    )
    assert results[gid("Use pnpm")].reasons == (
        "held in 1 project (proj-a), needs 2",
        "proj-a: at L2 for 1 day, needs 30",
        "proj-a: redacted — needs a restatement without the secret",
        "L3 cap of 30 reached — prune L3 at adopt",
    )


def test_merge_to_l3_refuses_unmergeable_groups() -> None:
    with pytest.raises(ValueError, match="kind"):
        merge_to_l3([l2("Use pnpm", "a", kind="fact"), l2("Use pnpm", "b")], OLD_ENOUGH)
    with pytest.raises(ValueError, match="projects"):
        merge_to_l3([l2("Use pnpm", "a")], OLD_ENOUGH)
    with pytest.raises(ValueError, match="normalize"):
        merge_to_l3([l2("Use pnpm", "a"), l2("Use uv", "b")], OLD_ENOUGH)


timestamps = st.datetimes(
    min_value=dt.datetime(2026, 1, 1),
    max_value=dt.datetime(2026, 10, 1),
    timezones=st.just(dt.UTC),
).map(lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ"))
contributor = st.fixed_dictionaries(
    {
        "first_seen": timestamps,
        "span": st.integers(0, 40),
        "sessions": st.lists(
            st.sampled_from(["s1", "s2", "s3", "s4", "x-9"]), min_size=1, max_size=4, unique=True
        ),
        "confidence": st.sampled_from(["observed", "stated", "verified"]),
        "redacted": st.booleans(),
        "casing": st.sampled_from(["Use pnpm", "use PNPM.", "USE pnpm!"]),
    }
)


def build(spec: dict[str, Any], project: str) -> Atom:
    first = dt.datetime.strptime(spec["first_seen"], "%Y-%m-%dT%H:%M:%SZ")
    last = (first + dt.timedelta(days=spec["span"])).strftime("%Y-%m-%dT%H:%M:%SZ")
    return l2(
        spec["casing"],
        project,
        sessions=tuple(spec["sessions"]),
        first_seen=spec["first_seen"],
        last_seen=last,
        confidence=spec["confidence"],
        redacted=spec["redacted"],
    )


@settings(max_examples=80)
@given(st.lists(contributor, min_size=2, max_size=5), st.randoms())
def test_merge_to_l3_always_validates_and_ignores_contributor_order(
    specs: list[dict[str, Any]], rnd: random.Random
) -> None:
    contributors = [build(spec, f"proj-{i}") for i, spec in enumerate(specs)]
    merged = merge_to_l3(contributors, "2026-11-01T00:00:00Z")
    assert atom_errors(merged) == []
    shuffled = list(contributors)
    rnd.shuffle(shuffled)
    assert merge_to_l3(shuffled, "2026-11-01T00:00:00Z") == merged
    assert merged["observations"] == sum(c["observations"] for c in contributors)
    assert merged["redacted"] == any(c["redacted"] for c in contributors)
    assert normalize(merged["claim"]) == "use pnpm"
    assert merged["first_seen"] == min(c["first_seen"] for c in contributors)
    assert merged["last_seen"] == max(c["last_seen"] for c in contributors)


@settings(max_examples=30)
@given(st.lists(contributor, min_size=2, max_size=4), st.randoms())
def test_evaluate_global_ignores_project_and_atom_order(
    specs: list[dict[str, Any]], rnd: random.Random
) -> None:
    by_project = {f"proj-{i}": [build(spec, f"proj-{i}")] for i, spec in enumerate(specs)}
    keys = list(by_project)
    rnd.shuffle(keys)
    assert evaluate_global(by_project, NOW, []) == evaluate_global(
        {k: by_project[k] for k in keys}, NOW, []
    )


# --- caps and expiry ----------------------------------------------------------------------


def dated(i: int, day: int, tier: str = "L2", **kw: Any) -> Atom:
    stamp = f"2026-10-{day:02d}T00:00:00Z"
    return make_atom(f"fact number {i}", tier=tier, first_seen=stamp, last_seen=stamp, **kw)


def test_l2_overflow_demotes_the_oldest_unpinned_beyond_the_cap() -> None:
    atoms = [dated(i, 1 + i) for i in range(5)]
    atoms[0] = dated(0, 1, pinned=True)
    assert l2_overflow(atoms, cap=5) == []
    assert l2_overflow(atoms, cap=3) == [atoms[1]["id"], atoms[2]["id"]]
    assert l2_overflow([dated(i, 1, pinned=True) for i in range(4)], cap=2) == []


def test_l2_overflow_default_cap_is_sixty() -> None:
    atoms = [dated(i, 1 + i % 28) for i in range(61)]
    (demoted,) = l2_overflow(atoms)
    assert demoted == min(atoms, key=lambda a: (a["last_seen"], a["id"]))["id"]


def test_l1_evictions_expire_then_evict_oldest_and_spare_pins() -> None:
    expired = make_atom("ancient", first_seen="2026-08-01T00:00:00Z")
    pinned_old = make_atom("ancient but pinned", first_seen="2026-08-01T00:00:00Z", pinned=True)
    fresh = [dated(i, 1 + i, tier="L1") for i in range(4)]
    fresh[0] = dated(0, 1, tier="L1", pinned=True)
    assert l1_evictions([expired, pinned_old, *fresh], NOW, cap=3) == (
        [expired["id"]],
        [fresh[1]["id"], fresh[2]["id"]],
    )
    assert l1_evictions([expired, *fresh], NOW) == ([expired["id"]], [])


def test_l1_cap_default_is_five_hundred() -> None:
    atoms = [
        make_atom(f"claim {i}", first_seen=f"2026-11-{1 + i % 9:02d}T{i % 24:02d}:00:00Z")
        for i in range(501)
    ]
    expired, evicted = l1_evictions(atoms, NOW)
    assert expired == [] and len(evicted) == 1
    assert evicted[0] == min(atoms, key=lambda a: (a["last_seen"], a["id"]))["id"]
