"""Rule-based extraction (spec §9.2): real prompts pinned, the dev-set floor, generalisation over
phrasing, and the atoms' provenance, redaction, failure signatures, safe mode and CLI codes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from builders import benchmark
from conftest import TRANSCRIPTS, git
from hypothesis import given, settings
from hypothesis import strategies as st
from inprocess import run_main

from agent_memory.extract.pipeline import (
    Candidate,
    command_program,
    extract_claims,
    extract_transcript,
    failure_signature,
)
from agent_memory.extract.text import clauses
from agent_memory.model.atom import atom_errors, atom_id

REAL = TRANSCRIPTS / "real_projects"
ROOT = Path(__file__).resolve().parent.parent
NEGATIONS = ("don't", "never", "not", "no longer", "instead of")


def _atoms_at(path: Path, line: int) -> list[dict[str, Any]]:
    return [
        a for a in extract_transcript(path, "proj").atoms if a["first_source"].endswith(f"#L{line}")
    ]


def _kept_at(path: Path, line: int) -> list[dict[str, Any]]:
    """Atoms and pending claims (said once, held by the durability gate until they recur)."""
    result = extract_transcript(path, "proj")
    return [a for a in [*result.atoms, *result.pending] if a["first_source"].endswith(f"#L{line}")]


def _one(text: str, **kw: Any) -> Candidate:
    got = extract_claims(text, **kw)
    assert len(got) == 1, (text, got)
    return got[0]


def _negated(claim: str) -> bool:
    return any(n in claim.lower() for n in NEGATIONS)


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return path


def _user(text: str, ts: str = "2026-03-01T10:00:00Z", session: str = "s-1") -> dict[str, Any]:
    return {
        "type": "user",
        "sessionId": session,
        "timestamp": ts,
        "cwd": "/w/proj",
        "message": {"role": "user", "content": text},
    }


# --- real prompts, pinned ----------------------------------------------------------------------


def test_rejection_use_pnpm_becomes_a_pnpm_over_npm_preference() -> None:
    path = (
        REAL
        / "-Users-dain-workspace-JSSoundRecorder"
        / "7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl"
    )
    [atom] = _atoms_at(path, 77)
    assert (atom["claim"], atom["kind"], atom["confidence"]) == (
        "Use pnpm, not npm",
        "preference",
        "stated",
    )
    assert atom["first_seen"] == "2025-11-18T00:03:02Z"  # the record's timestamp, not the clock
    assert atom["evidence"][0]["quote"] == "use pnpm"


# (pending: said once, these decisions score under the durability gate's keep bar; they are
# stored and become atoms when said again in another session)
@pytest.mark.parametrize(
    ("rel", "line", "claim", "kind", "pending"),
    [
        (
            "-Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl",
            64,
            "Use vite",
            "decision",
            True,
        ),
        (
            "-Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl",
            59,
            "Never make it only work for the user or make assumptions about people's env",
            "constraint",
            False,
        ),
        (
            "-Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl",
            169,
            "Migrate to AudioWorklet",
            "decision",
            True,
        ),
        (
            "-Users-dain-workspace-claude-code-log-sample/fe869ecb-c176-478f-9734-7e4b8ef12cff.jsonl",
            48,
            "Run it on all push",
            "decision",
            True,
        ),
    ],
)
def test_pinned_real_prompts(rel: str, line: int, claim: str, kind: str, pending: bool) -> None:
    found = _kept_at(REAL / rel, line)
    assert [(a["claim"], a["kind"], a.get("pending", False)) for a in found] == [(claim, kind, pending)]


def test_constraints_inside_a_larger_request() -> None:
    # A "keep …"/"don't …" said inside a longer request for work bounds that work (on people
    # never read while writing the rules, ~50 such atoms were false for 7 true): without a
    # standing word ("always", "from now on", "in this project") it is not kept. Both these
    # requests' rules (labelled durable) are the known price.
    for rel, line in (
        (
            "-Users-dain-workspace-danieldemmel-me-next/f852ad25-1024-47da-964e-5eaae5bd6e6a.jsonl",
            4,
        ),
        ("-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl", 5),
    ):
        kinds = {a["kind"] for a in _atoms_at(REAL / rel, line)}
        assert "constraint" not in kinds, rel


def test_stated_failure_keeps_its_condition() -> None:
    path = (
        REAL
        / "-Users-dain-workspace-danieldemmel-me-next"
        / "5ed31c36-bca8-40fd-8d24-f1a1f0af7901.jsonl"
    )
    [atom] = _kept_at(path, 1)  # pending: said once, under the gate's keep bar
    assert atom["kind"] == "failure" and atom["confidence"] == "stated" and atom["pending"]
    assert atom["claim"].startswith(
        "Mysterious build errors when MDX files have URLs wrapped in angle brackets"
    )
    assert "how can I disable" not in atom["claim"]


def test_lines_labelled_empty_yield_nothing() -> None:
    for raw in (ROOT / "tests/fixtures/extraction/labels.jsonl").read_text("utf-8").splitlines():
        item = json.loads(raw)
        if not item["expected"]:
            assert _atoms_at(TRANSCRIPTS / item["transcript"], item["line"]) == [], item


def _bench() -> Any:
    return benchmark("extraction")


def test_dev_set_precision_and_recall_stay_above_the_floor() -> None:
    bench = _bench()
    corpus = bench.small_corpus()
    report = bench.score(corpus, bench.observations(corpus))
    assert report["precision"] >= 0.85, report["false_positive_atoms"]
    # 20 of 26 since claims said once under the durability gate's keep bar are pending (stored,
    # an atom when said again in another session), not atoms: 4 durable statements of this set
    assert report["recall"] >= 0.75, report["misses"]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("api 키는 1개만 발급하도록 막자", "ko"),  # Hangul with Latin words: Korean, not Chinese
        ("以后都用中文回答", "zh"),
        ("テストはJestを使う", "ja"),
        ("Всегда отвечай по-русски", "ru"),
        ("always answer in English", "en"),
    ],
)
def test_the_benchmark_reports_each_prompt_under_its_language(text: str, lang: str) -> None:
    assert _bench().language(text) == lang


def test_a_false_atom_whose_label_reads_another_kind_is_counted_apart(tmp_path: Path) -> None:
    """Labellers split a rule between preference and constraint differently; the benchmark keeps
    such an atom false (kinds count) and says how many of the false atoms are of that sort."""
    bench = _bench()
    entry = {"kind": ["preference"], "all_of": [["pnpm"]]}
    labels = {("ann/s.jsonl", 1): [entry], ("ann/s.jsonl", 2): []}
    corpus = bench.Corpus("extra people", tmp_path, labels, lambda rel: rel.split("/", 1)[0])
    obs = bench.Observation
    rep = bench.score(
        corpus,
        [
            obs("ann/s.jsonl", 1, "a", "Always use pnpm", "constraint", "directive.x", False),
            obs("ann/s.jsonl", 2, "b", "Always use pnpm", "constraint", "directive.x", False),
            obs("ann/s.jsonl", 1, "c", "Always use yarn", "constraint", "directive.x", False),
        ],
    )
    assert rep["false_positives"] == 3 and rep["hits"] == 0
    assert rep["false_other_kind"] == 1  # the pnpm atom on the labelled line only
    assert bench.pool(rep, rep)["false_other_kind"] == 2


def test_extra_louo_drops_a_rule_only_the_held_out_person_supports(tmp_path: Path) -> None:
    """The extra TUNE people's honest figure: a rule whose correct atoms all come from one
    person does not count for that person; support from another person (extra people or the
    real corpus) keeps it."""
    bench = _bench()
    entry = {"kind": ["constraint"], "all_of": [["pnpm"]]}
    labels = {("ann/s.jsonl", 1): [entry], ("bob/s.jsonl", 1): [entry], ("cy/s.jsonl", 1): [entry]}
    extra = bench.Corpus("extra people", tmp_path, labels, lambda rel: rel.split("/", 1)[0])
    real = bench.Corpus("real", tmp_path, {("dee/s.jsonl", 1): [entry]}, extra.user_of)
    obs = bench.Observation
    extra_obs = [
        obs("ann/s.jsonl", 1, "a", "Use pnpm", "constraint", "directive.only_ann", False),
        obs("bob/s.jsonl", 1, "b", "Use pnpm", "constraint", "directive.shared", False),
        obs("cy/s.jsonl", 1, "c", "Use pnpm", "constraint", "directive.with_real", False),
    ]
    real_obs = [obs("dee/s.jsonl", 1, "d", "Use pnpm", "constraint", "directive.with_real", False)]
    extra_obs.append(
        obs("ann/s.jsonl", 1, "e", "Use pnpm", "constraint", "directive.shared", False)
    )
    rep = bench.extra_louo(extra, extra_obs, {"ann", "bob", "cy"}, real, real_obs)
    assert rep["dropped_rules"] == {"ann": ["directive.only_ann"]}
    assert rep["hits"] == 3 and rep["required_hit"] == 3  # ann still found through "shared"
    assert rep["per_kind"]["constraint"]["hits"] == 3
    alone = bench.extra_louo(extra, extra_obs[2:3], {"cy"}, None, [])
    assert alone["hits"] == 0 and alone["dropped_rules"] == {"cy": ["directive.with_real"]}


# --- generalisation: shapes, not lines --------------------------------------------------------

DURABLE = [
    # (statement, acceptable kinds, words the claim must keep, negated)
    ("Always run the tests with `uv run pytest`.", {"constraint"}, ["`uv run pytest`"], False),
    ("never push directly to main", {"constraint"}, ["push", "main"], True),
    ("Please don't add comments to the code.", {"constraint"}, ["comments"], True),
    ("pls dont use lodash, we're trying to shrink the bundle", {"constraint"}, ["lodash"], True),
    ("Do not use mocks in integration tests.", {"constraint"}, ["mocks"], True),
    ("Avoid using `any` in TypeScript.", {"preference"}, ["`any`"], False),
    ("I prefer tabs over spaces.", {"preference"}, ["tabs"], False),
    ("i'd prefer if you didn't add emojis to the UI text", {"constraint"}, ["emojis"], True),
    ("Use yarn instead of npm.", {"preference"}, ["yarn", "npm"], True),
    ("use pytest, not unittest", {"preference"}, ["pytest"], True),
    ("No emojis in commit messages.", {"constraint"}, ["emojis"], True),
    ("I don't want any external dependencies.", {"preference"}, ["dependencies"], True),
    ("Keep the public API backwards compatible.", {"constraint"}, ["backwards compatible"], False),
    ("Make sure you never log user passwords.", {"constraint"}, ["passwords"], True),
    ("Whenever you edit Python files, run ruff format.", {"constraint"}, ["ruff"], False),
    # said to last as well as now; a fact said "for now" still holds
    ("For now and always, never push to main.", {"constraint"}, ["Never push to main"], True),
    ("For this PR, always use poetry going forward.", {"constraint", "preference"}, ["poetry"], False),
    ("For now, I use pnpm.", {"fact"}, ["User uses pnpm"], False),
    # an exception closing two verbs one "and" joins bounds both: cut apart, "Never commit" would
    # forbid what the user allows when asked
    ("Never commit and push without asking me.", {"constraint"},
     ["Never commit and push without asking the user"], True),  # fmt: skip
    # an "and" inside a condition joins a second requirement of the condition: cut, "Never merge
    # unless CI is green" would allow a merge the user has not approved
    ("Never merge into main unless CI is green and I approve.", {"constraint"},
     ["unless CI is green and the user approves"], True),  # fmt: skip
    ("Don't deploy on Fridays unless it's urgent and I'm online.", {"constraint"},
     ["unless it's urgent and"], True),  # fmt: skip
    # what narrows a rule after a comma stays with it: cut, the rule says more than the user did
    ("always run prettier, but not on the generated graphql types", {"constraint"},
     ["but not on the generated graphql types"], False),  # fmt: skip
    ("never store secrets in the repo, unless encrypted with sops", {"constraint"},
     ["unless encrypted with sops"], True),  # fmt: skip
    ("always lock the table when migrating, only when it's larger than 1M rows", {"constraint"},
     ["only when it's larger than 1M rows"], False),  # fmt: skip
    ("always run prettier but not on generated files", {"constraint"},
     ["but not on generated files"], False),  # fmt: skip
    # a first clause saying when or where the rule holds qualifies it
    ("during code freeze, never merge to main", {"constraint"}, ["during code freeze"], True),
    ("on prod, always use the read replica for reports", {"constraint"}, ["on prod"], False),
    ("except in the cli module, never print directly", {"constraint"},
     ["except in the cli module"], True),  # fmt: skip
    # ("prefer not to X" is no contrast of "not" with "X": it read "Use not, not use mocks")
    ("I'd rather not use mocks", {"preference"}, ["Prefer not to use mocks"], True),
    # "before we start" says when it is said, not what: it read the fact "Before we start"
    ("Just FYI before we start: I'm visually impaired.", {"fact"}, ["visually impaired"], False),
    ("Commits must always be signed.", {"constraint"}, ["signed"], False),
    ("The tests must run offline.", {"constraint"}, ["offline"], False),
    ("Let's go with PostgreSQL.", {"decision"}, ["PostgreSQL"], False),
    ("We'll use Redis for caching.", {"decision"}, ["Redis"], False),
    ("We decided to drop support for Python 3.8.", {"decision"}, ["Python 3.8"], False),
    ("Let's not use an ORM.", {"constraint"}, ["ORM"], True),
    ("We use poetry for dependency management.", {"preference"}, ["poetry"], False),
    ("We do container-first.", {"fact"}, ["container-first"], False),
    (
        "This repo manages the infrastructure for our Kubernetes clusters.",
        {"fact"},
        ["Kubernetes"],
        False,
    ),
    ("The base code is in src/core.", {"fact"}, ["src/core"], False),
    (
        "The keybindings file is at ~/.config/kitty/keys.conf",
        {"fact"},
        ["~/.config/kitty/keys.conf"],
        False,
    ),
    ("The frontend lives in `web/` and the backend in `api/`.", {"fact"}, ["`web/`"], False),
    ("The default branch is master, not main.", {"fact"}, ["master"], True),
    ("The dev server runs on localhost:3000.", {"fact"}, ["3000"], False),
    ("I'm on macOS.", {"fact"}, ["macOS"], False),
    ("Remember that the staging DB is read-only.", {"fact"}, ["staging"], False),
    ("From now on, write commit messages in English.", {"preference"}, ["commit messages"], False),
    ("Write commit messages in English from now on.", {"preference"}, ["commit messages"], False),
    (
        "Until told otherwise, don't touch the migrations folder.",
        {"constraint"},
        ["migrations"],
        True,
    ),
    ("Save in your memory that we deploy with fly.io", {"fact"}, ["fly.io"], False),
    ("The build fails when NODE_ENV is unset.", {"failure"}, ["NODE_ENV"], False),
    (
        "I keep getting a CORS error when calling the API from localhost.",
        {"failure"},
        ["CORS"],
        False,
    ),
    (
        "`npm run build` fails on Node 20 because of the old sass version.",
        {"failure"},
        ["`npm run build`"],
        False,
    ),
    ("It's `pnpm test`, not `npm test`.", {"preference"}, ["`pnpm test`"], True),
    ("To run the tests, use `make test`.", {"fact"}, ["`make test`"], False),
    ("Tests are run with `tox`.", {"fact"}, ["`tox`"], False),
    (
        "Since we use pnpm workspaces, how do I add a dependency to one package?",
        {"preference"},
        ["pnpm"],
        False,
    ),
    ("The `scripts/` folder is for one-off maintenance scripts.", {"fact"}, ["`scripts/`"], False),
    ("Every PR needs a changelog entry.", {"constraint"}, ["changelog"], False),
    ("Make sure every endpoint has an auth check.", {"constraint"}, ["auth"], False),
    (
        "We're migrating from Redux to Zustand, so new state goes in Zustand stores.",
        {"decision"},
        ["Zustand"],
        False,
    ),
    (
        "The seed script wipes the database, so never run it against prod.",
        {"constraint"},
        ["seed script"],
        True,
    ),
    (
        "Keep in mind that we use JWTs stored in httpOnly cookies, never localStorage.",
        {"constraint"},
        ["JWT"],
        True,
    ),
    (
        "Logging goes through `structlog`, not the stdlib logging module.",
        {"fact"},
        ["`structlog`"],
        True,
    ),
    ("Please keep all user-facing strings in the i18n files.", {"constraint"}, ["i18n"], False),
    (
        "Safari doesn't support the `:has()` selector in our target version, so avoid it.",
        {"fact"},
        ["Safari"],
        True,
    ),
    (
        "i need a helper to parse dates. btw we always store timestamps in UTC.",
        {"constraint"},
        ["UTC"],
        False,
    ),
    ("The API base URL in dev is http://localhost:8000/api.", {"fact"}, ["localhost:8000"], False),
    (
        "The integration tests hit a real Postgres; they fail if Docker isn't running.",
        {"failure"},
        ["Docker"],
        True,
    ),
    ("4 spaces for indentation please", {"preference"}, ["4 spaces"], False),
    ("Quit adding TODO comments everywhere.", {"constraint"}, ["TODO"], True),
    ("Please write all code comments in English.", {"constraint"}, ["English"], False),
    ("We're on Python 3.12.", {"fact"}, ["Python 3.12"], False),
    (
        "It's important that the API stays backwards compatible.",
        {"constraint"},
        ["backwards compatible"],
        False,
    ),
    (
        "Please be careful: the payments module is fragile and has no tests.",
        {"fact"},
        ["payments"],
        False,
    ),
    ("The config file is YAML, not JSON.", {"fact"}, ["YAML"], True),
    (
        "Instead of mocking, use the in-memory fake in tests/fakes.",
        {"preference"},
        ["tests/fakes"],
        True,
    ),
    ("We switched to uv.", {"decision"}, ["uv"], False),
    ("Claude, you keep forgetting to run the linter.", {"constraint"}, ["linter"], False),
    ("why do you keep adding semicolons? we don't use them", {"constraint"}, ["semicolons"], True),
    ("I'm a fan of small PRs.", {"preference"}, ["small PRs"], False),
    # Shapes seen in other projects' sessions (own paraphrases, not their words):
    # a run-on with no punctuation, a stack named as one list, a practice kept light.
    (
        "I don't want band-aid patches I am trying to keep this codebase healthy",
        {"preference"},
        ["band-aid"],
        True,
    ),
    ("ok lets go with Django + HTMX + Postgres for the backend", {"decision"}, ["HTMX"], False),
    ("sure, keep logging minimal", {"constraint"}, ["logging minimal"], False),
    ("Let's make sure no tabs in the YAML files.", {"constraint"}, ["no tabs"], False),
    (
        "Heads up: the `main` branch auto-deploys to production, so never push there directly.",
        {"constraint"},
        ["`main`", "production"],
        True,
    ),
]


@pytest.mark.parametrize(
    ("text", "kinds", "words", "negated"), DURABLE, ids=[d[0][:40] for d in DURABLE]
)
def test_durable_statement_shapes(
    text: str, kinds: set[str], words: list[str], negated: bool
) -> None:
    cand = _one(text)
    assert cand.kind in kinds and cand.confidence == "stated"
    for word in words:
        assert word in cand.claim, (word, cand.claim)
    if negated:  # a negated statement keeps its negation ("never X" never becomes "X")
        assert _negated(cand.claim), cand.claim


ONE_OFF = [
    "Implement it without adding any new dependencies.",  # how this piece of work is done
    "Can you fix the failing test in test_api.py?",
    "Run the tests again please.",
    "What does this function do?",
    "Don't worry about it.",
    "I don't know why it fails.",
    "Never mind, let's move on.",
    "Let's see what happens.",
    "Let's go with option 2.",
    "Use the debugger to find out why it crashes.",
    "Use the existing helper in utils.py for this.",
    "Use better names for these variables.",
    "It doesn't work.",
    "Keep going.",
    "Keep it short.",
    "Keep the answer under 200 words.",
    "Don't change anything yet, just tell me what you would do.",
    "Don't run it yet.",
    "Do not proceed until I confirm.",
    "Let's keep it simple for now.",
    "I like this approach.",
    "I don't like much this idea, and I struggled with it before.",
    "We always have this problem with the CI.",
    "You always add too many comments, but that's fine for now.",
    "The CI is red again.",
    "The login page returns a 500.",
    'ok I pulled and now `make build` fails with "undefined reference to main". any idea?',
    "I keep getting distracted, sorry. Where were we?",
    "Always the same error, no matter what I do.",
    "We use it in the checkout flow.",
    "I've decided to rewrite the parser.",
    "You should use the existing fixtures here.",
    "From now on it should work.",
    "Fair enough. Can you write a balanced opinion on this approach? Keep it same overall length as the pros or cons.",
    "Excellent work, thank you!",
    "The bug is in src/cache.py, line 42.",
    "Oh no, we lost the session navigation section from the combined transcript somehow :(",
    "I'd go with the simpler one.",
    "Let's use TypeScript for the new script.",
    "Keep the tests as they are.",
    "I like the idea of using a queue, let's explore that.",
    "The function should never return null, it should throw instead.",
    "We do have a staging environment, but it's broken right now.",
    "We use a lot of global state in the old code, please clean it up.",
    "Our old CI config is in `.travis.yml`, delete it.",
    "The app crashes when I click the save button twice. Please fix.",
    "Whenever I click save, nothing happens.",
    "Every time I run the tests, the database gets wiped. Is that expected?",
    "Can you make sure all the tests pass?",
    "remember to commit when you are done",
    "Use subagents to parallelize this",
    "The server is running on port 3000",
    "The token is expired.",
    "The key is to keep it simple.",
    'You said "always validate input at the boundary" - where exactly should that go?',
    "Is it true that we should never use `any`?",
    "No need to add tests for this.",
    "Friday, not Monday.",
    "No, the total is 42, not 40.",
    "We're on a tight deadline.",
    "We switched to the other branch.",
    "You forgot the semicolon.",
    "Instead of a modal, show an inline message.",
    "Why do you keep asking me that?",
    "Rename all the files to kebab-case.",
    "Write all the tests for the parser.",
    # Pasted build output, holds for this turn, upgrades to do now, options picked from a list.
    "14:02:11.532 Error: Build step must define a valid output directory",
    "Error: Module parse failed: the loader must return a string",
    "Refactor it without removing the current behaviour.",
    "Do not make any changes first, I want to review the plan.",
    "Please make sure all dependencies are up to date and fix the build.",
    "let's do 2 and 3",
    # a permission's ending makes no rule of a step of the task at hand, nor of the work itself
    # held back until asked; "until" / "till" wait for a signal in this task
    "Don't stop until I tell you to.",
    "Wait until I say so.",
    "Don't touch it unless I say so.",
    "Don't push till I say so.",
    "Don't deploy until told to.",
    "Don't make any changes unless I tell you to.",
    "Read the files. Don't respond unless I ask you to.",
    "Never merge PR 42 unless I approve it.",
    # "don't stall; push without asking": a permission, not one rule with an exception
    "Never stall and push without asking me.",
    # a first clause that bounds an instruction to the present
    "This time, never push to main.",
    "For now, always use pnpm.",  # the "always" of the present task
    "For now, never delete files.",
    "Today, don't deploy to production.",
    "Just for this task, don't install new packages.",
    # ... also where the framing reads the first clause off ("right now," as filler) or moves
    # it after the rule ("for the time being, …" as an event said first)
    "Right now, never merge to main.",
    "For the time being, don't commit unless CI is green.",
    # "always"/"never" before a remark, a description of a run, the speaker's own memory or a
    # thing pointed at in the conversation: no instruction
    "always fun debugging css",
    "always good to double check",
    "always fails on the second run, weird",
    "what does this regex do? I never remember lookbehind syntax.",
    "never import from there",
    "you always forget that my tests are in test/ not tests/",  # it read "Always that …"
    "remember I'm on vacation next week so Tom will review",  # true until next week is over
    # someone else's opinion, reported: no clause of it is the user's rule
    "Tom thinks we should never use ORMs for reporting queries and always write raw SQL.",
    "My colleague thinks we should always use tabs.",
    "I use mypy in strict mode but only for the new package",  # not "User uses mypy in strict mode"
    # "I'd rather" before a wish in the past form or nothing named: no "Prefer to did not …"
    "I'd rather you didn't run git push yourself",
    "I would rather we used rust",
    "I'd rather not say",
    "I'd rather we stick with what we have",
    # (a condition before a rule that points back gives nothing, as the rule alone does)
    "During the freeze, don't deploy unless I say so.",
    "Then if anything fails, never just skip it, tell me.",
    "always use the one from core",
    "Let's go with option a and c.",
]


@pytest.mark.parametrize("text", ONE_OFF, ids=[t[:40] for t in ONE_OFF])
def test_one_off_tasks_and_questions_yield_nothing(text: str) -> None:
    assert extract_claims(text) == []


POLITE_PREFIXES = [
    "",
    "please ",
    "Please, ",
    "ok so ",
    "Also, ",
    "btw ",
    "Hey Claude, ",
    "Oh and ",
    "Just ",
]
POLITE_SUFFIXES = ["", " please", ", thanks", "!", ".", " :)"]


@settings(max_examples=60, deadline=None)
@given(
    prefix=st.sampled_from(POLITE_PREFIXES),
    suffix=st.sampled_from(POLITE_SUFFIXES),
    core=st.sampled_from(
        [
            ("never push to main", "Never push to main"),
            ("don't use `any` in TypeScript", "Never use `any` in TypeScript"),
            (
                "always run `make lint` before committing",
                "Always run `make lint` before committing",
            ),
            ("use pnpm instead of npm", "Use pnpm, not npm"),
            ("avoid global state", "Avoid global state"),
        ]
    ),
)
def test_politeness_does_not_change_the_claim(
    prefix: str, suffix: str, core: tuple[str, str]
) -> None:
    cand = _one(prefix + core[0] + suffix)
    assert cand.claim == core[1]


@settings(max_examples=40, deadline=None)
@given(
    verb=st.sampled_from(["use", "import", "add", "call", "commit"]),
    thing=st.sampled_from(
        ["lodash", "`moment.js`", "print statements", "the `legacy` module", "secrets"]
    ),
    form=st.sampled_from(
        [
            "Never {v} {t}.",
            "Don't {v} {t}.",
            "Do not {v} {t}.",
            "You should never {v} {t}.",
            "Please never {v} {t}",
            "we must not {v} {t}",
            "Let's not {v} {t}.",
        ]
    ),
)
def test_negation_is_always_kept(verb: str, thing: str, form: str) -> None:
    cand = _one(form.format(v=verb, t=thing))
    assert _negated(cand.claim), cand.claim
    assert thing.split()[-1] in cand.claim
    assert cand.kind == "constraint"


@settings(max_examples=30, deadline=None)
@given(span=st.from_regex(r"`[a-z][a-z0-9_ .:/-]{0,20}[a-z0-9]`", fullmatch=True))
def test_code_spans_survive_verbatim(span: str) -> None:
    cand = _one(f"Always run {span} before pushing.")
    assert span in cand.claim


def test_tense_and_person_variants() -> None:
    assert (
        _one("We've decided on SQLite for local storage.").claim == "Use SQLite for local storage"
    )
    assert _one("We're switching to GitLab CI.").kind == "decision"
    assert _one("I always use black.").claim == "Always use black"
    assert _one("I usually use vim").claim == "User usually uses vim"
    assert _one("I hate magic numbers.").claim == "User does not like magic numbers"


def test_multi_sentence_prompt_keeps_only_the_durable_sentence() -> None:
    text = (
        "Please refactor the auth module and split it into two files. It's getting long. "
        "By the way, we always store timestamps in UTC. Let me know when you're done!"
    )
    assert [c.claim for c in extract_claims(text)] == ["Always store timestamps in UTC"]


def test_adjacent_clauses_of_one_sentence_make_one_claim() -> None:
    cand = _one("Our main branch is protected, so always open a PR.")
    assert (
        cand.claim == "Our main branch is protected; always open a PR" and cand.kind == "constraint"
    )


def test_claims_are_short_and_pasted_code_is_ignored() -> None:
    long = "Never " + " ".join(["touch the generated protobuf stubs"] * 20)
    assert len(_one(long).claim) <= 201
    pasted = 'Fix this:\n```python\n# never do this\nalways = 1\n```\nTraceback (most recent call last):\n  File "x.py"'
    assert extract_claims(pasted) == []


@pytest.mark.parametrize(
    ("reason", "command", "claim"),
    [
        ("use pnpm", "npm install", "Use pnpm, not npm"),
        ("  use bun ", "cd web && npm run build", "Use bun, not npm"),
        ("use uv", "pip install requests", "Use uv, not pip"),
        ("use ripgrep", "grep -r foo .", "Use ripgrep, not grep"),
        ("use jq", "python -c 'import json'", "Use jq"),
        ("pnpm please", None, "Use pnpm"),
        # a bare word is a tool to use only when a family names it (KNOWN_TOOLS)
        ("pnpm", "npm install", "Use pnpm, not npm"),
        ("ruff", "npm install", "Use ruff"),
    ],
)
def test_rejection_reasons(reason: str, command: str | None, claim: str) -> None:
    assert _one(reason, origin="rejection", rejected_command=command).claim == claim


def test_rejection_reason_that_is_a_one_off_correction_yields_nothing() -> None:
    assert extract_claims("no, put it in the other file", origin="rejection") == []


# --- atoms: identity, provenance, redaction -----------------------------------------------------


def test_atoms_are_schema_valid_for_every_fixture() -> None:
    count = 0
    for path in sorted(TRANSCRIPTS.rglob("*.jsonl")):
        for atom in extract_transcript(path, "proj").atoms:
            assert atom_errors(atom) == [], atom
            assert atom["confidence"] in ("stated", "observed")
            assert atom["observations"] == len(atom["evidence"])
            count += 1
    assert count >= 10


def test_pointer_is_canonical_whatever_the_os_path(tmp_path: Path) -> None:
    config = tmp_path / "Custom Claude"
    path = _write(
        config / "projects" / "C--Users-jane-proj" / "sess-1.jsonl", [_user("never push to main", session="sess-1")]
    )
    [atom] = extract_transcript(path, "proj").atoms
    assert atom["source"] == "~/.claude/projects/C--Users-jane-proj/sess-1.jsonl#L1"
    windows = r"C:\Users\jane\.claude\projects\C--Users-jane-proj\sess-1.jsonl"
    from agent_memory.extract.pipeline import statement_atoms
    from agent_memory.transcripts.reader import Statement

    [win] = statement_atoms(
        Statement(3, "never push to main", "2026-01-01T00:00:00Z", "sess-1", "prompt"),
        windows,
        "proj",
        "2026-01-01T00:00:00Z",
    )
    assert win["source"] == "~/.claude/projects/C--Users-jane-proj/sess-1.jsonl#L3"
    assert atom_errors(win) == []


def test_repeated_claims_merge_with_provenance(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "projects" / "-w-proj" / "abc.jsonl",
        [
            _user("Never push to main.", "2026-03-02T09:00:00Z"),
            _user("what now?", "2026-03-02T09:05:00Z"),
            _user("again: never push to main!", "2026-03-03T10:00:00Z"),
        ],
    )
    [atom] = extract_transcript(path, "my-proj").atoms
    assert atom["id"] == atom_id("Never push to main", "my-proj")
    assert (atom["first_seen"], atom["last_seen"]) == (
        "2026-03-02T09:00:00Z",
        "2026-03-03T10:00:00Z",
    )
    assert atom["first_source"].endswith("#L1") and atom["source"].endswith("#L3")
    assert atom["observations"] == 2 and atom["sessions"] == ["s-1"]
    assert [e["quote"] for e in atom["evidence"]] == [
        "Never push to main.",
        "again: never push to main!",
    ]


def test_redaction_runs_on_claims_and_quotes(tmp_path: Path) -> None:
    token = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    path = _write(tmp_path / "s.jsonl", [_user(f"Always use the token {token} for the registry")])
    [atom] = extract_transcript(path, "proj").atoms
    assert token not in json.dumps(atom)
    assert atom["redacted"] is True and "[REDACTED" in atom["claim"]
    assert atom["id"] == atom_id(atom["claim"], "proj")


def test_quote_is_windowed_around_the_claim_in_long_statements(tmp_path: Path) -> None:
    text = "Some context. " * 150 + "By the way, never commit the .env file. " + "More text. " * 20
    path = _write(tmp_path / "s.jsonl", [_user(text)])
    [atom] = extract_transcript(path, "proj").atoms
    quote = atom["evidence"][0]["quote"]
    assert len(quote) <= 2000 and "never commit the .env file" in quote


def test_extraction_is_deterministic_and_clock_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = REAL / "-experiments-worktrees" / "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"
    first = extract_transcript(path, "p").atoms
    import time

    monkeypatch.setattr(time, "time", lambda: 0.0)
    assert extract_transcript(path, "p").atoms == first


# --- failures from tool errors -------------------------------------------------------------------


def test_recurring_tool_error_becomes_an_observed_failure() -> None:
    path = (
        REAL
        / "-Users-dain-workspace-claude-code-log-sample"
        / "fe869ecb-c176-478f-9734-7e4b8ef12cff.jsonl"
    )
    failures = [a for a in extract_transcript(path, "p").atoms if a["confidence"] == "observed"]
    act = [a for a in failures if a["claim"].startswith("`act` fails")]
    assert len(act) == 1
    # Built from what ran and a fixed error class, never from the output's own words.
    assert act[0]["claim"] == "`act` fails: job failed"
    assert "Job 'test' failed" in act[0]["evidence"][0]["quote"]  # the raw output stays local
    assert act[0]["first_source"].endswith("#L31") and act[0]["observations"] == 2
    assert all(a["kind"] == "failure" for a in failures)


def test_a_single_tool_error_is_noise() -> None:
    path = REAL / "-src-deep-manifest" / "a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl"
    assert [a for a in extract_transcript(path, "p").atoms if a["confidence"] == "observed"] == []


@pytest.mark.parametrize(
    ("text", "signature"),
    [
        (
            "Exit code 127\n/bin/bash: line 1: pytest: command not found",
            "<path>: line N: pytest: command not found",
        ),
        (
            "Traceback (most recent call last):\n  File \"/home/u/x.py\", line 3\nModuleNotFoundError: No module named 'yaml'",
            "ModuleNotFoundError: No module named 'yaml'",
        ),
        ("===== test session starts =====\n3 failed, 10 passed in 2.1s", None),
        ("src/a.ts:3:5 - error TS2322: Type 'x' is not assignable to type 'y'.", None),
        ('Traceback (most recent call last):\n  File "x.py", line 1\nTypeError: bad operand', None),
        ("Exit code 1\nSIM115 Use a context manager for opening files", None),
        ("npm ERR! code EACCES", "npm ERR! code EACCES"),
        ("Error: connect ECONNREFUSED 127.0.0.1:5432", "Error: connect ECONNREFUSED N:N"),
        ("ok", None),
    ],
)
def test_failure_signature(text: str, signature: str | None) -> None:
    assert failure_signature(text) == signature


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("uv run pytest -x tests/", "uv run pytest"),
        ("cd web && npm run build", "npm run build"),
        ("FOO=1 python -m pytest", "python -m pytest"),
        ("act --container-architecture linux/amd64 -j test", "act"),
        ("(source .venv/bin/activate && ruff check src/)", "ruff"),
        ("npm start &", "npm start"),
        ("PGPASSWORD='a&b' psql -h db", "psql"),  # an `&` inside a word ends nothing
        ("npm run dev > dev.log 2>&1 & sleep 5", "npm run dev"),
        ("", ""),
    ],
)
def test_command_program(command: str, program: str) -> None:
    assert command_program(command) == program


# --- safe mode and bad input --------------------------------------------------------------------


def test_safe_mode_never_raises(tmp_path: Path) -> None:
    for bad in (tmp_path / "missing.jsonl", tmp_path):
        result = extract_transcript(bad, "p", strict=False)
        assert result.atoms == [] and result.error
    with pytest.raises(OSError):
        extract_transcript(tmp_path / "missing.jsonl", "p")


@settings(max_examples=40, deadline=None)
@given(blob=st.binary(max_size=2000))
def test_arbitrary_bytes_never_raise(tmp_path_factory: pytest.TempPathFactory, blob: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "x.jsonl"
    path.write_bytes(blob + b"\n" + json.dumps(_user("never push to main")).encode() + b"\n" + blob)
    result = extract_transcript(path, "p", strict=False)
    assert result.error is None
    assert [a["claim"] for a in result.atoms] == ["Never push to main"]


# --- the CLI -------------------------------------------------------------------------------------


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_main(cwd or Path.cwd(), ["extract", *args])


def test_cli_json_shape_and_exit_codes(tmp_path: Path) -> None:
    src = (
        REAL
        / "-Users-dain-workspace-JSSoundRecorder"
        / "7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl"
    )
    proc = _cli("--transcript", str(src), "--project", "jss", "--output", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data) >= {"atoms", "skipped_lines"} and data["skipped_lines"] == 0
    assert "Use pnpm, not npm" in [a["claim"] for a in data["atoms"]]
    assert all(a["project"] == "jss" and atom_errors(a) == [] for a in data["atoms"])

    partial = tmp_path / "partial.jsonl"
    partial.write_bytes(
        json.dumps(_user("never push to main")).encode() + b'\n\xff\xfe\n{"type":"us'
    )
    proc = _cli("--transcript", str(partial), "--project", "p", "--output", "json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["skipped_lines"] == 2

    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\x00\x00\nnot json\n")
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    for bad in (tmp_path / "missing.jsonl", tmp_path, garbage, empty):
        proc = _cli("--transcript", str(bad), "--output", "json")
        assert proc.returncode == 2, (bad, proc.stdout, proc.stderr)
        assert proc.stderr.startswith("git memory extract: ") and "\nhint: " in proc.stderr
        # --output json: the one JSON object on stdout is the error (docs/cli.md)
        line, hint = proc.stderr.splitlines()
        assert json.loads(proc.stdout) == {"error": line, "hint": hint.removeprefix("hint: "), "exit": 2}


def test_cli_default_project_is_the_repository(repo: Path) -> None:
    src = (
        REAL
        / "-Users-dain-workspace-JSSoundRecorder"
        / "7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl"
    )
    (repo / "sub").mkdir()
    proc = _cli("--transcript", str(src), "--output", "json", cwd=repo / "sub")
    assert {a["project"] for a in json.loads(proc.stdout)["atoms"]} == {"proj"}
    git(repo, "config", "memory.project", "renamed")
    proc = _cli("--transcript", str(src), "--output", "json", cwd=repo)
    assert {a["project"] for a in json.loads(proc.stdout)["atoms"]} == {"renamed"}


def test_cli_default_project_outside_a_repository_is_the_recorded_cwd(tmp_path: Path) -> None:
    src = (
        REAL
        / "-Users-dain-workspace-JSSoundRecorder"
        / "7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl"
    )
    proc = _cli("--transcript", str(src), "--output", "json", cwd=tmp_path)
    assert {a["project"] for a in json.loads(proc.stdout)["atoms"]} == {"JSSoundRecorder"}
    text = _cli("--transcript", str(src), cwd=tmp_path)
    assert text.returncode == 0 and "Use pnpm, not npm" in text.stdout


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        ("Never commit and push without asking me", 1),
        # an exception ending on "this" makes no claim: joined, the first rule would go too
        ("don't push code and make PRs unless I specify this", 2),
        # a rule of its own after the "and" keeps its own exception
        ("Never push to main and never force push unless I say so", 2),
        # a break before the exception: the exception is the last clause's only
        ("Never commit, and push without asking me", 2),
        # not a prohibition: two rules and a permission
        ("Always use pnpm and commit without asking me", 2),
        ("Fix the bug and push without asking me", 2),
    ],
)
def test_an_exception_shared_by_two_verbs_keeps_them_one_clause(sentence: str, parts: int) -> None:
    assert len(clauses(sentence)) == parts, clauses(sentence)


def test_a_joined_second_clause_keeps_its_lower_case() -> None:
    # "; Not npm" read as a sentence of its own in the middle of one memory line
    claims = [c.claim for c in extract_claims("Always use pnpm, but not npm")]
    assert claims == ["Always use pnpm; not npm"]
