"""Issue 28, tried as a new user would, through the CLI on a real repository: rules
restated in other words converge to one atom each and recur; a rule naming another tool for
the same job contradicts the first; `consolidate` never folds the two sides of a contradiction
(that would forget one of them), it proposes `resolve`."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import initialized_copy
from golden import Golden
from sessions import gm, gm_json, write_session

# (first wording, second wording, the one claim both must become)
RESTATED = [
    ("Never pip install directly.", "Don't pip install anything.", "Never pip install"),
    ("Use pnpm instead of npm.", "We use pnpm, not npm.", "Use pnpm, not npm"),
    ("Never push to main.", "Please don't ever push to main.", "Never push to main"),
    (
        "From now on, always run the linter before committing.",
        "Always run the linter before committing, going forward.",
        "Always run the linter before committing",
    ),
    ("I prefer tabs to spaces.", "Prefer tabs over spaces.", "Use tabs, not spaces"),
    (
        "Do not add comments to the code.",
        "Never add comments to the code, ever.",
        "Never add comments to the code",
    ),
]


# Rules said once with their parts in one order and once in the other: the event before the
# rule, the refused tool before the chosen one.
REORDERED = [
    (
        "Before committing, always run the tests.",
        "Always run the tests before committing.",
        "Always run the tests before committing",
    ),
    ("When you push, never skip the hooks.", "Never skip the hooks when you push.",
     "Never skip the hooks when you push"),  # fmt: skip
    ("Don't use npm, use pnpm instead.", "Use pnpm, not npm.", "Use pnpm, not npm"),
    # the standing word said last (it was no rule at all: the sentence yielded nothing)
    ("Run pytest -x before you commit, always.", "Always run pytest -x before committing.",
     "Always run pytest -x before committing"),  # fmt: skip
]


# Issue 42, a new user's walkthrough: restatements that stayed two atoms.
RESTATED_42 = [
    # what to do in place of what is forbidden, said after it: the rule's other half, kept with it
    ("Never pip install directly; always add the dependency to pyproject.toml.",
     "Don't pip install anything, add it to pyproject.toml instead.",
     "Never pip install; always add the dependency to pyproject.toml"),  # fmt: skip
    # (as the demo keeps "Never push directly to main; always open a pull request")
    ("Never commit to main directly; open a pull request.",
     "Never commit directly to main; always open a pull request.",
     "Never commit directly to main; always open a pull request"),  # fmt: skip
    # a style rule said of its subject, and said as the thing to do
    ("Docstrings should always follow the Google style.",
     "Always write docstrings in Google style.",
     "Always write docstrings in Google style"),  # fmt: skip
    # a function named with and without its call parentheses
    ("Never use print(); always use the logger.", "Never use print, always use the logger.",
     "Never use print; always use the logger"),  # fmt: skip
]


# Issue 43, pairs a new user said in two sessions that stayed two atoms.
RESTATED_43 = [
    # the event said with "you" and as a gerund
    ("Always run the tests before committing.", "Run the tests before you commit, always.",
     "Always run the tests before committing"),  # fmt: skip
    # a request to the user after a prohibition is not its other half; "directly" stays
    ("Never touch prod directly; ask me first.", "Never touch prod directly.",
     "Never touch prod directly"),  # fmt: skip
    # "… use the logger instead" says what "… use the logger" says
    ("Never use print for debugging, use the logger.",
     "Don't use print for debugging; use the logger instead.",
     "Never use print for debugging; use the logger"),  # fmt: skip
]


# Issue 28 item 4: one rule said with its "always" and without it, in either order; the
# spelling said first is the one kept.
RESTATED_ALWAYS = [
    ("Always run the tests before committing.", "From now on, run the tests before committing.",
     "Always run the tests before committing"),
    ("Going forward, use pnpm to install packages.", "Please always use pnpm to install packages.",
     "Use pnpm to install packages"),
    ("Make sure to always run ruff before pushing.", "Run ruff before pushing from now on.",
     "Always run ruff before pushing"),
    ("Note: write commit messages in English from now on.", "Always write commit messages in English.",
     "Write commit messages in English"),
]  # fmt: skip


# Issue 28 item 4: one rule said with "the" before its plural noun and without it (and with
# its "always" and without it at once), in either order; the spelling said first is kept.
RESTATED_ARTICLE = [
    ("Always run the tests before committing.", "From now on, run tests before committing.",
     "Always run the tests before committing"),
    ("Never commit secrets.", "Never commit the secrets.", "Never commit secrets"),
    ("Going forward, keep docs in sync with the code.", "Always keep the docs in sync with the code.",
     "Keep docs in sync with the code"),
    ("Always run the unit tests before pushing.", "Run unit tests before pushing from now on.",
     "Always run the unit tests before pushing"),
]  # fmt: skip


# The event said as a noun ("before every push") and as a verb ("before pushing"), and "the test
# suite" for "the tests": one rule, the spelling said first kept.
RESTATED_EVENT_NOUN = [
    ("Always run the test suite before pushing.", "Run the tests before every push.",
     "Always run the tests before pushing"),
    ("Never force push after each rebase.", "Never force push after rebasing.",
     "Never force push after rebasing"),
]  # fmt: skip


# An emphasis word typed twice ("always always", "never, never") and the rule said plainly.
RESTATED_EMPHASIS = [
    ("Always always use pnpm for dependencies!", "Always use pnpm for dependencies.",
     "Always use pnpm for dependencies"),
    ("Never, never push to main.", "Never push to main.", "Never push to main"),
]  # fmt: skip


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now="2026-11-05T12:00:00Z")


def _say(repo: Path, n: int, day: str, *texts: str) -> None:
    write_session(repo, f"eeeeeeee-0000-4000-8000-{n:012d}", day, [{"user": t} for t in texts])


def _l1(repo: Path) -> dict[str, dict[str, object]]:
    return {str(a["claim"]): a for a in gm_json(repo, "inspect")["L1"]}


def _said_twice_is_one_atom_each(project: Path, rules: list[tuple[str, str, str]]) -> None:
    """Each first wording in one session, each second in the next: one atom per rule, seen in
    both sessions, and no other atom."""
    _say(project, 1, "2026-10-01", *(first for first, _, _ in rules))
    _say(project, 2, "2026-10-02", *(second for _, second, _ in rules))
    gm(project, "capture", "--all", "--no-stage")
    atoms = _l1(project)
    assert sorted(atoms) == sorted(claim for _, _, claim in rules)
    assert all(atom["sessions"] == 2 for atom in atoms.values()), atoms


def test_six_rules_said_in_other_words_become_six_atoms_that_recur(project: Path) -> None:
    _said_twice_is_one_atom_each(project, RESTATED)
    # A third session in yet other words: the rule has recurred enough to promote.
    _say(project, 3, "2026-10-03", "Do not ever pip install anything.")
    gm(project, "capture", "--all", "--no-stage")
    assert _l1(project)["Never pip install"]["sessions"] == 3
    promote = gm_json(project, "promote")
    eligible = {str(item["id"]) for item in promote["eligible"]}
    assert _l1(project)["Never pip install"]["id"] in eligible


def test_rules_a_new_user_restated_converge(project: Path) -> None:
    _said_twice_is_one_atom_each(project, RESTATED_42)


def test_pairs_a_new_user_restated_in_issue_43_converge(project: Path) -> None:
    _said_twice_is_one_atom_each(project, RESTATED_43)


def test_a_rule_said_with_and_without_its_always_is_one_atom_that_promotes(project: Path) -> None:
    _said_twice_is_one_atom_each(project, RESTATED_ALWAYS)
    # said by the person in two sessions on two days: eligible as one rule
    eligible = {str(item["id"]) for item in gm_json(project, "promote")["eligible"]}
    assert {str(atom["id"]) for atom in _l1(project).values()} <= eligible


def test_a_rule_tied_to_an_event_said_as_a_noun_or_a_verb_is_one_atom(project: Path) -> None:
    _said_twice_is_one_atom_each(project, RESTATED_EVENT_NOUN)


def test_a_rule_said_with_its_emphasis_doubled_and_plainly_is_one_atom(project: Path) -> None:
    _said_twice_is_one_atom_each(project, RESTATED_EMPHASIS)


def test_a_rule_said_with_and_without_the_article_of_its_plural_is_one_atom(project: Path) -> None:
    _said_twice_is_one_atom_each(project, RESTATED_ARTICLE)


def test_a_forgotten_rule_said_again_without_its_always_stays_forgotten(project: Path) -> None:
    _say(project, 1, "2026-10-01", "Always run the tests before committing.")
    gm(project, "capture", "--all", "--no-stage")
    [atom] = _l1(project).values()
    gm(project, "forget", str(atom["id"]))
    _say(project, 2, "2026-10-02", "From now on, run the tests before committing.")
    gm(project, "capture", "--all", "--no-stage")
    assert _l1(project) == {}


def test_a_spelling_forgotten_beside_the_one_kept_counts_for_the_one_kept(project: Path) -> None:
    """Both spellings held as two atoms (as before they converged; `remember` files what was
    typed), and the one without "Always" forgotten as `consolidate` folds them: saying it that
    way again is a sighting of the rule kept, not a word dropped."""
    _say(project, 1, "2026-10-01", "Always run the tests before committing.")
    gm(project, "capture", "--all", "--no-stage")
    plain = gm_json(project, "remember", "Run the tests before committing")["id"]
    gm(project, "forget", plain)
    _say(project, 2, "2026-10-02", "From now on, run the tests before committing.")
    gm(project, "capture", "--all", "--no-stage")
    atoms = _l1(project)
    assert list(atoms) == ["Always run the tests before committing"]
    assert atoms["Always run the tests before committing"]["sessions"] == 2


def test_remember_keeps_the_spelling_it_was_given_under_the_id_it_reports(project: Path) -> None:
    """`remember` reports the id of what was typed: a stored "Always …" spelling of the rule
    does not take the remembered one in."""
    _say(project, 1, "2026-10-01", "Always run the tests before committing.")
    gm(project, "capture", "--all", "--no-stage")
    report = gm_json(project, "remember", "Run the tests before committing")
    staged = {item["atom"]: item["claim"] for item in gm_json(project, "inspect")["staged"]}
    assert report["staged"] and staged[report["id"]] == "Run the tests before committing"


def test_a_route_forbidden_is_not_the_thing_forbidden(project: Path) -> None:
    """"Never edit the lockfile directly" allows editing it through the package manager;
    "Never edit the lockfile" does not: two rules, two atoms, neither said twice."""
    _two_atoms_said_once_each(project, "Never edit the lockfile directly.", "Never edit the lockfile.",
                              ["Never edit the lockfile", "Never edit the lockfile directly"])  # fmt: skip


def _two_atoms_said_once_each(project: Path, first: str, second: str, claims: list[str]) -> None:
    """`first` in one session, `second` in the next: two atoms (`claims`), neither recurred."""
    _say(project, 1, "2026-10-01", first)
    _say(project, 2, "2026-10-02", second)
    gm(project, "capture", "--all", "--no-stage")
    atoms = _l1(project)
    assert sorted(atoms) == claims
    assert all(atom["sessions"] == 1 for atom in atoms.values()), atoms


def test_rules_said_with_their_parts_reordered_converge(project: Path) -> None:
    _said_twice_is_one_atom_each(project, REORDERED)
    # the event stays part of the rule: said without it, it is another rule
    _say(project, 3, "2026-10-03", "Always run the tests.")
    gm(project, "capture", "--all", "--no-stage")
    assert _l1(project)["Always run the tests before committing"]["sessions"] == 2


@pytest.mark.parametrize(
    ("said", "claim"),
    [
        ("Use poetry, not uv, for dependencies.", "Use poetry, not uv, for dependencies"),
        # the refused tool first: the same contrast
        ("Don't use uv, use poetry instead.", "Use poetry, not uv"),
        # the refused tool after the job: two names of one family, the same contrast
        ("Use poetry for dependencies, not uv.", "Use poetry, not uv, for dependencies"),
        # two names the canonical form does not know as one family: contested all the same
        ("Use bazel for dependencies, not uv.", "Use bazel for dependencies, not uv"),
    ],
)
def test_another_tool_for_the_same_job_is_contested_and_consolidate_proposes_resolve(
    project: Path, said: str, claim: str
) -> None:
    for n, day in ((1, "2026-10-01"), (2, "2026-10-02"), (3, "2026-10-03")):
        _say(project, n, day, "Use uv for dependencies.")
    _say(project, 4, "2026-10-08", said)
    gm(project, "capture", "--all", "--no-stage")
    atoms = _l1(project)
    older, newer = atoms["Use uv for dependencies"], atoms[claim]
    contested = gm_json(project, "inspect", "--contested")
    pairs = {(p["older"], p["newer"]) for p in contested["pairs"]}
    assert pairs == {(older["id"], newer["id"])}
    # Neither side promotes while the pair is open, however often the older one was said.
    promote = gm_json(project, "promote")
    assert not {str(item["id"]) for item in promote["eligible"]} & {older["id"], newer["id"]}
    assert {str(item["id"]) for item in promote["blocked"]} >= {older["id"], newer["id"]}
    report = gm_json(project, "consolidate")
    assert not any({older["id"], newer["id"]} & set(p["members"]) for p in report["proposals"])
    [conflict] = report["contradictions"]
    assert (conflict["older"], conflict["newer"]) == (older["id"], newer["id"])
    assert conflict["apply"] == [
        f"git memory resolve {older['id']} --keep {newer['id']}",
        f"git memory resolve {older['id']} --keep {older['id']}",
    ]
    assert not any("forget" in step for step in conflict["apply"])
    text = gm(project, "consolidate").stdout
    assert "forget" not in text and f"git memory resolve {older['id']} --keep" in text
    # once a person has settled it, the pair is no open contradiction anywhere
    gm(project, "resolve", older["id"], "--keep", newer["id"])
    assert gm_json(project, "inspect", "--contested")["pairs"] == []
    assert gm_json(project, "consolidate")["contradictions"] == []


@pytest.mark.parametrize(
    ("older", "newer", "claims"),
    [
        # two tools of one family, each chosen for the job both name
        ("Use jest for tests.", "Use vitest for tests.", ("Use jest for tests", "Use vitest for tests")),
        # the standing word before the choice
        ("Always use pnpm for installs.", "Use yarn for installs, not pnpm.",
         ("Always use pnpm for installs", "Use yarn, not pnpm, for installs")),
        # two rival styles of one thing (model/tool_families.STYLE_RIVALS)
        ("Use single quotes for strings.", "Use double quotes for strings.",
         ("Use single quotes for strings", "Use double quotes for strings")),
    ],
)  # fmt: skip
def test_a_family_mate_chosen_for_the_same_job_is_contested(
    project: Path, older: str, newer: str, claims: tuple[str, str]
) -> None:
    """Issue 43: both said in two sessions each (atoms, not held pending), neither promotes while
    the pair is open, and consolidate proposes resolve, never a forget."""
    for n, day in ((1, "2026-10-01"), (2, "2026-10-02")):
        _say(project, n, day, older)
    for n, day in ((3, "2026-10-08"), (4, "2026-10-09")):
        _say(project, n, day, newer)
    gm(project, "capture", "--all", "--no-stage")
    atoms = _l1(project)
    assert sorted(atoms) == sorted(claims) and all(a["sessions"] == 2 for a in atoms.values()), atoms
    first, second = atoms[claims[0]], atoms[claims[1]]
    pairs = {(p["older"], p["newer"]) for p in gm_json(project, "inspect", "--contested")["pairs"]}
    assert pairs == {(first["id"], second["id"])}
    promote = gm_json(project, "promote")
    assert not {str(item["id"]) for item in promote["eligible"]} & {first["id"], second["id"]}
    [conflict] = gm_json(project, "consolidate")["contradictions"]
    assert all("resolve" in step and "forget" not in step for step in conflict["apply"])


def test_a_rule_contradicted_once_since_is_not_promoted_over_it(project: Path) -> None:
    """Issue 43: "use jest for tests" said twice, then "use vitest instead of jest" once (held
    pending, no atom yet): the older rule is not proposed for promotion over the person's
    later word; once the later one recurs the two are a contested pair."""
    for n, day in ((1, "2026-10-01"), (2, "2026-10-02")):
        _say(project, n, day, "Use jest for tests.")
    _say(project, 3, "2026-10-08", "Use vitest instead of jest.")
    gm(project, "capture", "--all", "--no-stage")
    atoms = _l1(project)
    older = atoms["Use jest for tests"]
    promote = gm_json(project, "promote")
    assert older["id"] not in {str(item["id"]) for item in promote["eligible"]}
    [blocked] = [item for item in promote["blocked"] if item["id"] == older["id"]]
    assert any(r.startswith("said otherwise since (once, pending): ") for r in blocked["reasons"])
    assert gm_json(project, "inspect", "--contested")["pairs"] == []
    # said again: an atom, and the pair is contested
    _say(project, 4, "2026-10-09", "Use vitest instead of jest.")
    gm(project, "capture", "--all", "--no-stage")
    pairs = gm_json(project, "inspect", "--contested")["pairs"]
    newer = _l1(project)["Use vitest, not jest"]
    assert [(p["older"], p["newer"]) for p in pairs] == [(older["id"], newer["id"])]


def test_a_rule_said_again_after_the_pending_word_against_it_is_promoted(project: Path) -> None:
    """"use jest for tests" said, then "use vitest instead of jest" once (held pending), then
    "use jest for tests" again: the person's latest word is the rule's, so the once-said
    word before it does not hold the rule back ('said otherwise since' means since the rule
    was last said)."""
    _say(project, 1, "2026-10-01", "Use jest for tests.")
    _say(project, 2, "2026-10-08", "Use vitest instead of jest.")
    _say(project, 3, "2026-10-09", "Use jest for tests.")
    gm(project, "capture", "--all", "--no-stage")
    older = _l1(project)["Use jest for tests"]
    promote = gm_json(project, "promote")
    blocked = [item for item in promote["blocked"] if item["id"] == older["id"]]
    assert not any(r.startswith("said otherwise since") for item in blocked for r in item["reasons"]), blocked


# Issue 28 item 4: one slot of the user's said with two values, and a tool given up after a
# rule chose it — each a contradiction the person settles with `resolve`.
ONE_SLOT_TWO_VALUES = [
    # the user's OS (a distribution counts for its family)
    ("I work on Windows.", "I'm on Fedora now.", "User works on Windows", "User is on Fedora now"),
    # their shell, said as "my shell is" and as "I use"
    ("My shell is fish.", "I use zsh.", "The user's shell is fish", "User uses zsh"),
    # their editor, said as the one ("I use emacs" and "I use helix" may both hold)
    ("My editor is emacs.", "My editor is helix.", "The user's editor is emacs", "The user's editor is helix"),
    # the language to answer them in
    ("Please always reply in Italian.", "Answer me in Spanish from now on.",
     "Answer in Italian", "Answer the user in Spanish"),
    # a tool chosen in one language-tagged claim, given up in another
    ("项目用 pdm 管理依赖。", "以后不要再用 pdm 了", "Uses: 项目用 pdm 管理依赖",
     "From now on, don't: 以后不要再用 pdm 了"),
    # a tool chosen for a job, then given up whole
    ("Always use pipenv for dependencies.", "Don't use pipenv anymore.",
     "Always use pipenv for dependencies", "Never use pipenv anymore"),
    # … or given up for that very job
    ("Use poetry for packaging.", "Don't use poetry for packaging anymore.",
     "Use poetry for packaging", "Never use poetry for packaging anymore"),
]  # fmt: skip


@pytest.mark.parametrize(("older", "newer", "older_claim", "newer_claim"), ONE_SLOT_TWO_VALUES)
def test_a_later_value_of_one_slot_is_contested_and_consolidate_proposes_resolve(
    project: Path, older: str, newer: str, older_claim: str, newer_claim: str
) -> None:
    _say(project, 1, "2026-10-01", older)
    _say(project, 2, "2026-10-02", newer)
    gm(project, "capture", "--all", "--no-stage")
    atoms = _l1(project)
    assert sorted(atoms) == sorted((older_claim, newer_claim)), atoms
    first, second = atoms[older_claim], atoms[newer_claim]
    pairs = {(p["older"], p["newer"]) for p in gm_json(project, "inspect", "--contested")["pairs"]}
    assert pairs == {(first["id"], second["id"])}
    [conflict] = gm_json(project, "consolidate")["contradictions"]
    assert conflict["apply"] == [
        f"git memory resolve {first['id']} --keep {second['id']}",
        f"git memory resolve {first['id']} --keep {first['id']}",
    ]


# Said in two sessions, none of these contradicts: another subject than the user, a value of
# the same family, a value qualified by where it holds, another job, another setting.
NO_SLOT_CONFLICT = [
    ("I work on Windows.", "Our build machines are on Debian."),
    ("I work on Windows.", "I'm on Windows with PowerShell."),
    ("I use zsh.", "I use emacs for org notes."),
    ("I use emacs.", "I use emacs for org notes."),
    ("I use emacs.", "I use helix."),  # two editors: many people use both
    ("Please always reply in Italian.", "Always write commit messages in English."),
    ("Use poetry for packaging.", "Don't use poetry for publishing anymore."),
]


@pytest.mark.parametrize(("first", "second"), NO_SLOT_CONFLICT)
def test_claims_of_other_slots_subjects_or_jobs_are_not_contested(project: Path, first: str, second: str) -> None:
    for n, day in ((1, "2026-10-01"), (2, "2026-10-02")):
        _say(project, n, day, first)
    for n, day in ((3, "2026-10-03"), (4, "2026-10-04")):
        _say(project, n, day, second)
    gm(project, "capture", "--all", "--no-stage")
    assert len(_l1(project)) == 2
    assert gm_json(project, "inspect", "--contested")["pairs"] == []


# Issue 28 item 4: one fact of the user's one-value slots said bare in two of the extractor's
# spellings ("I'm on X" / "I use X", "my shell is X" / "I use X"): one atom that recurs, kept
# as said first.
RESTATED_SLOT = [
    ("I'm on Windows.", "I use Windows.", "User is on Windows"),
    ("My shell is fish.", "I use fish.", "The user's shell is fish"),
    ("Please always reply in Italian.", "Answer me in Italian from now on.", "Answer in Italian"),
]


def test_a_fact_of_the_users_said_in_another_spelling_is_one_atom_that_recurs(project: Path) -> None:
    _said_twice_is_one_atom_each(project, RESTATED_SLOT)


def test_an_editor_said_as_the_one_is_not_a_sighting_of_one_the_user_uses(project: Path) -> None:
    """"I use emacs" may hold beside another editor; "My editor is emacs" says it is the one
    (store/slots.py). Filed as a sighting of "User uses emacs" it lost that, and "My editor is
    helix" said later contested nothing."""
    _two_atoms_said_once_each(project, "I use emacs.", "My editor is emacs.",
                              ["The user's editor is emacs", "User uses emacs"])  # fmt: skip
    _say(project, 3, "2026-10-03", "My editor is helix.")
    gm(project, "capture", "--all", "--no-stage")
    atoms = _l1(project)
    pairs = {(p["older"], p["newer"]) for p in gm_json(project, "inspect", "--contested")["pairs"]}
    assert pairs == {(atoms["The user's editor is emacs"]["id"], atoms["The user's editor is helix"]["id"])}


def test_a_slot_fact_said_with_more_stays_its_own_atom(project: Path) -> None:
    """"User is on Windows with PowerShell" says which shell too: filed as a sighting of "User is
    on Windows" it would lose that, so it is its own atom and the bare fact did not recur."""
    _two_atoms_said_once_each(project, "I'm on Windows.", "I'm on Windows with PowerShell.",
                              ["User is on Windows", "User is on Windows with PowerShell"])  # fmt: skip
