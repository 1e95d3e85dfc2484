"""Canonical claims: restatements of one rule give one claim (one atom id, so it can recur and
promote, spec §4); different rules stay different; negation and code spans always survive."""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.cli.demo_run import load_sessions, transcript_records
from agent_memory.extract.canonical import canonical, same_family, third_person
from agent_memory.extract.pipeline import extract_claims, extract_transcript, merge_observations
from agent_memory.model.atom import atom_id

NEGATIONS = ("never", "don't", "not", "no longer", "avoid")


def _claims(text: str, **kw: Any) -> list[str]:
    return [c.claim for c in extract_claims(text, **kw)]


def _ids(text: str, **kw: Any) -> set[str]:
    return {atom_id(claim, "proj") for claim in _claims(text, **kw)}


def _one_id(variants: list[tuple[str, dict[str, Any]]]) -> tuple[set[str], list[list[str]]]:
    ids: set[str] = set()
    seen = []
    for text, kw in variants:
        got = _ids(text, **kw)
        assert len(got) == 1, (text, _claims(text, **kw))
        ids |= got
        seen.append(_claims(text, **kw))
    return ids, seen


# --- convergence: each set is one rule said many ways -----------------------------------------

P = {}  # a typed prompt
REJECT_NPM = {"origin": "rejection", "rejected_command": "npm install"}

CONVERGE: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "Use pnpm, not npm": [
        ("use pnpm instead of npm", P),
        ("Use pnpm, not npm", P),
        ("we use pnpm, not npm", P),
        ("remember that we use pnpm not npm", P),
        ("we use pnpm but not npm", P),  # it read "Use pnpm but, not npm"
        ("Remember that we use pnpm, not npm.", P),
        ("please always use pnpm rather than npm", P),
        ("prefer pnpm over npm", P),
        ("Use pnpm, not npm, for everything in this repo.", P),
        ("Going forward, use pnpm instead of npm in this project.", P),
        ("From now on we use pnpm here, not npm!", P),
        ("Keep in mind: pnpm rather than npm.", P),
        ("Set up the skeleton. Oh and pnpm, not npm, please.", P),
        ("Don't use npm, use pnpm.", P),
        ("Don't use npm; use pnpm instead.", P),
        ("Never use npm, just use pnpm.", P),
        ("use pnpm instead of npm please", REJECT_NPM),
        ("pnpm", REJECT_NPM),
        ("use pnpm", REJECT_NPM),
    ],
    "Use vitest, not jest": [
        ("Tests run with vitest, not jest.", P),
        ("We run the tests with vitest, not jest.", P),
        ("The tests are run with vitest, not jest.", P),
        ("Write tests with vitest instead of jest.", P),
        ("use vitest rather than jest", P),
    ],
    "Use uv, not pip": [
        ("Use uv, not pip.", P),
        ("We install packages with uv, not pip.", P),
        ("I'd prefer uv over pip.", P),
        ("no, use uv", {"origin": "rejection", "rejected_command": "pip install requests"}),
    ],
    "Use ruff, not black": [
        ("We format with ruff, not black.", P),
        ("Format the code with ruff instead of black from now on.", P),
        ("ruff over black please", P),
    ],
    "Never push to main": [
        ("Never push to main.", P),
        ("never push to main", P),
        ("Don't push to main.", P),
        ("Do not push to main!", P),
        ("Please don't ever push to main.", P),
        ("You should never push to main.", P),
        ("We must not push to main.", P),
        ("Remember: never push to main, ever.", P),
        ("Never ever push to main.", P),
        ("From now on, never push to main.", P),
    ],
    "Never commit directly to main; always open a pull request": [
        ("Never commit to main directly; open a pull request.", P),
        ("Never commit to main directly; open a pull request instead.", P),
        ("Never commit to main directly; always open a pull request.", P),
        ("Never commit directly to main; always open a pull request.", P),
    ],
    "Never push directly to the main branch": [
        ("Never push directly to the main branch.", P),
        ("Don't push to the main branch directly.", P),
    ],
    "Never pip install; always add the dependency to pyproject.toml": [
        ("Never pip install directly; always add the dependency to pyproject.toml.", P),
        ("Don't pip install anything, add it to pyproject.toml instead.", P),
    ],
    "Always rebase after pulling": [
        ("Always rebase after you pull.", P),
        ("Always rebase after pulling.", P),
    ],
    # "directly" after a tool's own command adds nothing ("never pip install directly")
    "Never npm install": [
        ("Never npm install directly.", P),
        ("Don't npm install anything.", P),
    ],
    # a route forbidden keeps its "directly" wherever it is said; a request to the user said
    # after it is not the rule's other half (it is no route to take instead)
    "Never touch prod directly": [
        ("Never touch prod directly.", P),
        ("Never touch prod directly; ask me first.", P),
        ("Don't touch prod directly, check with me first.", P),
    ],
    # the positive half's closing "instead" says no more
    "Never use print for debugging; use the logger": [
        ("Never use print for debugging, use the logger.", P),
        ("Don't use print for debugging; use the logger instead.", P),
    ],
    "Always write docstrings in Google style": [
        ("Docstrings should always follow the Google style.", P),
        ("Always write docstrings in Google style.", P),
        ("Always write docstrings in the Google style.", P),
        ("Always use Google style for docstrings.", P),
        ("Always follow the Google style for docstrings.", P),
    ],
    "Never use print; always use the logger": [
        ("Never use print(); always use the logger.", P),
        ("Never use print, always use the logger.", P),
    ],
    "Never force push": [
        ("Never force push.", P),
        ("please never force-push", P),
        ("Important: don't ever force push.", P),
    ],
    "Always add type hints to new functions": [
        ("Always add type hints to new functions.", P),
        ("Going forward, always add type hints to new functions.", P),
        ("From now on always add type hints to new functions please", P),
        ("Make sure to always add type hints to new functions.", P),
    ],
    "Always run the tests before committing": [
        # the event said with "you": one spelling
        ("Always run the tests before you commit.", P),
        ("Run the tests before you commit, always.", P),
        ("Always run the tests before committing.", P),
        ("Before committing, always run the tests.", P),
        ("Before committing, always run the tests!", P),
    ],
    "Never skip the hooks when you push": [
        ("Never skip the hooks when you push.", P),
        ("When you push, never skip the hooks.", P),
    ],
    "Use `rg`, not `grep`": [
        ("use `rg` instead of `grep`", P),
        ("Use `rg`, not `grep`.", P),
        ("I told you already: use `rg`, not `grep`!", P),
        ("Don't use `grep`, use `rg`.", P),
    ],
    "Use `pnpm install`, not `npm install`": [
        ("Use `pnpm install` instead of `npm install`.", P),
        ("Don't use `npm install`, use `pnpm install` instead.", P),
    ],
    "The database is Postgres 16": [
        ("The database is Postgres 16.", P),
        ("FYI the database is Postgres 16", P),
        ("Note that the database is Postgres 16.", P),
    ],
    "Use Tailwind, not CSS modules, for styling": [
        ("Use Tailwind, not CSS modules, for styling.", P),
        ("For styling, use Tailwind instead of CSS modules.", P),
        ("Use Tailwind rather than CSS modules for styling in this repo.", P),
    ],
}


@pytest.mark.parametrize("claim", list(CONVERGE), ids=list(CONVERGE))
def test_restatements_converge_to_one_claim(claim: str) -> None:
    ids, seen = _one_id(CONVERGE[claim])
    assert ids == {atom_id(claim, "proj")}, seen


# --- what must stay distinct -------------------------------------------------------------------

DISTINCT = [
    # different tools
    ("Use pnpm, not npm.", "Use pnpm, not yarn."),
    ("Use pnpm, not npm.", "Use yarn, not npm."),
    ("Use vitest, not jest.", "Use jest, not vitest."),
    ("Use httpx instead of requests.", "Use httpx for new code."),
    # negated vs not
    ("Use Docker for local dev.", "Don't use Docker for local dev."),
    ("Always run the linter before committing.", "Never run the linter before committing."),
    ("Never push to main.", "Push to main on Fridays."),
    ("Avoid global state.", "Never use global state."),
    # different subjects and objects
    ("Never push to main.", "Never push to the release branch."),
    ("Never run migrations on prod by hand.", "Never run migrations on staging by hand."),
    ("Use kebab-case for file names, not camelCase.", "File names are kebab-case, not camelCase."),
    ("Don't commit the .env file.", "Don't commit the lock file."),
    # the event a rule is tied to is part of it
    ("Always run the tests before committing.", "Always run the tests."),
    ("Before pushing, always run the linter.", "Before committing, always run the linter."),
    # a thing refused and a phrase said after it stay as said
    ("Don't use npm, use pnpm.", "Don't use npm, use the lockfile."),
    # one style for other things, or another style for the same things
    ("Always write docstrings in Google style.", "Always write comments in Google style."),
    ("Always write docstrings in Google style.", "Always write docstrings in NumPy style."),
    # a step asked for after a prohibition is this turn's work, no half of the rule
    ("Don't push to main, fix the tests.", "Never push to main; always fix the tests."),
    # a meaningful qualifier stays (consolidation is a reviewed, separate step)
    ("Never push directly to main.", "Never push to main."),
    ("Never commit to main directly.", "Never commit to main."),
    # after an object, "directly" names the route forbidden: another route is allowed (the
    # package manager edits the lockfile, the client calls the API)
    ("Never edit the lockfile directly.", "Never edit the lockfile."),
    ("Never call the API directly.", "Never call the API."),
    ("Don't modify the database directly, use migrations.", "Don't modify the database, use migrations."),
    # the event said with "you" keeps its verb
    ("Always run the tests before you commit.", "Always run the tests before you push."),
    ("Use pnpm, not npm, for the frontend.", "Use pnpm, not npm."),
]


@pytest.mark.parametrize(("a", "b"), DISTINCT, ids=[f"{a[:25]}|{b[:25]}" for a, b in DISTINCT])
def test_different_rules_stay_distinct(a: str, b: str) -> None:
    ids_a, ids_b = _ids(a), _ids(b)
    assert ids_a and not (ids_a & ids_b), (_claims(a), _claims(b))


def test_negation_is_never_dropped_by_canonicalisation() -> None:
    assert _claims("never push to main") == ["Never push to main"]
    assert _claims("Push to main on Fridays.") == []
    assert canonical("don't push to main", "constraint") == ("Never push to main", "constraint")
    assert canonical("Do not ever commit secrets", "preference")[0] == "Never commit secrets"
    assert canonical("Avoid global state", "preference")[0] == "Avoid global state"
    # a complaint keeps its own shape ("don't keep adding …" is not "never adding …")
    assert canonical("Don't keep adding TODO comments", "constraint")[0].startswith("Don't keep")


def test_contrast_bound_to_a_qualifier_is_left_alone() -> None:
    # "not the backend" contrasts the qualifier, not the tool: rewriting would change the rule.
    claim = "Use pnpm for the frontend, not the backend"
    assert canonical(claim, "preference")[0] == claim


def test_a_hyphenated_name_is_one_word_of_a_contrast() -> None:
    # "after" inside "sort-after-push" opens no qualifying tail
    assert canonical("Use merge-on-read instead of copy-after-write for big tables", "preference")[
        0
    ] == "Use merge-on-read, not copy-after-write, for big tables"


def test_an_event_moves_only_with_one_standing_rule() -> None:
    # one-off steps before an event, questions, pronouns and "never mind" are no rule
    for text in (
        "Before committing, delete the three TODO comments in main.go.",
        "Before pushing, revert my change to config.yaml.",
        "Before committing, let me check the diff.",
        "Before committing, should I run the tests?",
        "Before pushing, can you rebase onto main?",
        "Before committing, never mind the linter.",
        "Before committing, don't bother with the linter.",
    ):
        assert _claims(text) == [], text
    # not one rule, or a rule about the event itself: the event stays where it was said (the
    # sentence is read as it was before events were moved)
    for text, claim in (
        ("Before committing, always run the tests and never push to main.",
         "Always run the tests; never push to main"),
        ("Before committing, always run the tests and push.", "Always run the tests"),
        ("Before committing, never commit directly to main.", "Never commit directly to main"),
        ("After editing, always reformat the file you edited.", "Always reformat the file you edited"),
        ("Before committing, always run the tests if you changed Python files.",
         "Always run the tests if you changed Python files"),
    ):  # fmt: skip
        assert _claims(text) == [claim], text
    # the same thing refused and named again, or a pronoun in its place, is no contrast
    assert _claims("Don't use npm, use npm.") == ["Never use npm; use npm"]
    assert _claims("Don't use npm, use it instead.") == ["Never use npm"]


def test_one_off_choices_stay_out() -> None:
    for text in (
        "use a dict instead of a list here",
        "Can you use a set instead of a list in dedupe()?",
        "Write it in TypeScript, not JavaScript.",
        "Why did you use npm instead of pnpm there?",
        "What's the difference between pnpm and npm?",
        "Note that the test still fails after your change.",
        "keep in mind the deadline is friday",
        "Prefer the shorter version of that function.",
        "Let's use the old endpoint instead of the new one for now.",
    ):
        assert extract_claims(text) == [], text


def test_tool_families() -> None:
    assert same_family("pnpm", "npm") and same_family("vitest", "JEST")
    assert not same_family("pnpm", "pnpm") and not same_family("pnpm", "pytest")
    assert same_family("\ue0000\ue001", "grep", ["`rg`"])


# --- properties ---------------------------------------------------------------------------------

TOOLS = st.sampled_from(["pnpm", "yarn", "uv", "ruff", "vitest", "poetry", "`make test`", "Bazel"])
OTHERS = st.sampled_from(["npm", "pip", "black", "jest", "tox", "`npm test`", "Gradle"])
FORMS = st.sampled_from(
    [
        "use {x} instead of {y}",
        "Use {x}, not {y}.",
        "we use {x}, not {y}",
        "please always use {x} rather than {y}",
        "Prefer {x} over {y}.",
        "Remember that we use {x} instead of {y}.",
        "Use {x}, not {y}, in this repo from now on.",
        "Keep in mind: {x} rather than {y}",
    ]
)


@settings(max_examples=80, deadline=None)
@given(x=TOOLS, y=OTHERS, form=FORMS)
def test_every_contrast_form_gives_the_same_claim(x: str, y: str, form: str) -> None:
    assert _claims(form.format(x=x, y=y)) == [f"Use {x}, not {y}"]


CLAIMS = st.sampled_from(
    [
        "Use pnpm, not npm",
        "Never push directly to main; always open a pull request",
        "Docstrings should always follow the Google style",
        "Always use the Google style for docstrings",
        "Use Tailwind, not CSS modules, for styling",
        "Always run `make lint` before committing",
        "The database is Postgres 16",
        "Keep the public API backwards compatible",
        "Use pnpm for the frontend, not the backend",
        "Don't keep adding TODO comments",
        "Avoid `any` in TypeScript",
        "Use merge-on-read instead of copy-after-write for big tables",
        "Use bazel instead of plz",
        "Prefer bazel over plz for builds",
    ]
)


@settings(max_examples=40, deadline=None)
@given(claim=CLAIMS, kind=st.sampled_from(["constraint", "preference", "fact", "decision"]))
def test_canonical_is_idempotent(claim: str, kind: str) -> None:
    once = canonical(claim, kind)
    assert canonical(*once) == once


@settings(max_examples=60, deadline=None)
@given(
    head=st.sampled_from(["Never", "Don't", "Do not", "Please never", "You must not", "We never"]),
    verb=st.sampled_from(["use", "commit", "push", "import"]),
    obj=st.sampled_from(["`lodash`", "secrets", "the `legacy/` module", "to main"]),
    tail=st.sampled_from(["", " in this repo", " from now on", ", please", " ever"]),
)
def test_prohibitions_keep_negation_and_code_spans(
    head: str, verb: str, obj: str, tail: str
) -> None:
    [claim] = _claims(f"{head} {verb} {obj}{tail}.")
    assert claim.lower().startswith("never ") and obj in claim, claim


# --- end to end: the demo's sessions ------------------------------------------------------------


def test_demo_sessions_give_one_atom_per_rule(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "-w-invoice-service"
    folder.mkdir(parents=True)
    today = _dt.date(2026, 3, 10)
    observations = []
    for session in load_sessions():
        day = today - _dt.timedelta(days=int(session["days_ago"]))
        records = transcript_records(session, Path("/w/invoice-service"), day)
        path = folder / f"{session['id']}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
        result = extract_transcript(path, "invoice-service")
        observations.extend([*result.atoms, *result.pending])
    # The tool-rejection reason ("use pnpm instead of npm please") reads as the same claim.
    rejection = [
        a for a in observations
        if any("instead of npm" in e["quote"] for e in a["evidence"])
    ]  # fmt: skip
    assert [a["claim"] for a in rejection] == ["Use pnpm, not npm"]
    atoms = {a["claim"]: a for a in merge_observations(observations)}

    pnpm = [a for a in atoms.values() if "pnpm" in a["claim"]]
    assert [a["claim"] for a in pnpm] == ["Use pnpm, not npm"]
    assert len(pnpm[0]["sessions"]) == 3
    # Four sightings merged: quotes are kept for one per day (bounded evidence, issue 17), the
    # same-day rejection's as a fingerprint.
    assert len(pnpm[0]["evidence"]) + len(pnpm[0].get("evidence_omitted", [])) == 4

    vitest = [a for a in atoms.values() if "vitest" in a["claim"]]
    assert [(a["claim"], len(a["sessions"])) for a in vitest] == [("Use vitest, not jest", 2)]
    # pending in each session (said once there, under the gate's keep bar): said in two, an atom
    assert not vitest[0].get("pending")

    main = [a for a in atoms.values() if "main" in a["claim"]]
    assert len(main) == 1 and main[0]["claim"].startswith("Never push directly to main")
    assert len(main[0]["sessions"]) == 3
    assert len({e["at"][:10] for e in main[0]["evidence"]}) == 3  # three different days

    secret = [a for a in atoms.values() if a["redacted"]]
    assert len(secret) == 1 and "ghp_" not in json.dumps(secret[0])
    # plain task prompts and questions yield nothing
    assert not any("rounding" in a["claim"] or "queue" in a["claim"] for a in atoms.values())


# --- the user's first person, in the third person ------------------------------------------------

THIRD_PERSON = [
    # a claim about the user: "my" is "their", "I" "they", "you" asked of Claude "Claude"
    ("User uses Brave as my browser", "User uses Brave as their browser"),
    ("User is building a dashboard for my company", "User is building a dashboard for their company"),
    (
        "User does not want Claude to give them options when I ask you to do something",
        "User does not want Claude to give them options when they ask Claude to do something",
    ),
    ("User deploys our app to Fly", "User deploys their app to Fly"),
    ("User works late when I'm on call", "User works late when they're on call"),
    ("User wants you to keep your answers short", "User wants Claude to keep Claude's answers short"),
    # an imperative to Claude: the user named on first mention, then "they"/"them"
    ("Never tell me it's not medical advice", "Never tell the user it's not medical advice"),
    ("Explicitly call out when its using my subagents", "Explicitly call out when its using the user's subagents"),
    ("Always ask me before I push", "Always ask the user before they push"),
    ("Always run the tests before I commit", "Always run the tests before the user commits"),
    ("Always explain things to me like I'm five", "Always explain things to the user like they're five"),
    ("Never push to my fork without asking me", "Never push to the user's fork without asking them"),
    ("User is a beginner at Rust so explain my code", "User is a beginner at Rust so explain their code"),
    ("Never deploy while I'm away", "Never deploy while the user is away"),
    # an "and" that closes a clause, not one joining "I" to another subject ("you and I")
    ("Never merge unless CI is green and I approve", "Never merge unless CI is green and the user approves"),
    ("Never deploy unless it's urgent and I'm online", "Never deploy unless it's urgent and the user is online"),
    ("Never add new dependencies unless I ask", "Never add new dependencies unless the user asks"),
    ("Never add dependencies unless I really need them", "Never add dependencies unless the user really needs them"),
    ("Never rebase after I asked for a merge", "Never rebase after the user asked for a merge"),
    ("Let me run deploys myself", "Let the user run deploys themselves"),
    ("My laptop is a Mac", "The user's laptop is a Mac"),
    ("Never run `rm -rf ~/my` for me", "Never run `rm -rf ~/my` for the user"),
    # a first-person word right after "I'm" is a word of its own, not the verb "I" goes on with
    ("Never deploy when I'm my own reviewer", "Never deploy when the user is their own reviewer"),
    ("User says I'm me on GitHub", "User says they're them on GitHub"),
    # a verb ending in "-ly" is the verb, not an adverb before it
    ("Never break the scripts that I rely on", "Never break the scripts that the user relies on"),
    ("Never touch the patches I apply to vendor code", "Never touch the patches the user applies to vendor code"),
    ("Always wait until I reply", "Always wait until the user replies"),
    ("Always run the migrations I supply in order", "Always run the migrations the user supplies in order"),
    ("Always wait until I really reply", "Always wait until the user really replies"),
    # an irregular past is left as it is
    ("Never undo the fixes I brought in", "Never undo the fixes the user brought in"),
    ("Always follow the plan I drew up", "Always follow the plan the user drew up"),
    ("Never delete the comments I sat down to write", "Never delete the comments the user sat down to write"),
    ("Never drop the bugs I caught", "Never drop the bugs the user caught"),
    # a capital "I" that is a numeral or a letter is no one: the rest of the claim is rewritten
    ("Always read Part I of the spec before my review", "Always read Part I of the spec before the user's review"),
    ("Never ignore a Type I error in my code", "Never ignore a Type I error in the user's code"),
    ("Always keep the type I chose", "Always keep the type the user chose"),
    # "-oes" for go/do/echo/veto only: "demos", "autos"
    ("Never restart the server while I demo", "Never restart the server while the user demos"),
    ("Never push while I go through the diff", "Never push while the user goes through the diff"),
    ("Never push until I undo the stash", "Never push until the user undoes the stash"),
    # "and I" starting a clause of its own, its verb unchanged
    ("Always ask me and I'll answer", "Always ask the user and they'll answer"),
    ("Always ask me first and I will answer", "Always ask the user first and they will answer"),
    # a control's name only before the control: said to Claude, the words are the user's
    ("Never make assumptions about me", "Never make assumptions about the user"),
    ("Always contact me before deploying", "Always contact the user before deploying"),
    # an English claim with a name or a word that only looks foreign is English
    ("Always credit José in my commits", "Always credit José in the user's commits"),
    ("Never use non-blocking IO in my handlers", "Never use non-blocking IO in the user's handlers"),
    ("Always use EST for my timestamps", "Always use EST for the user's timestamps"),
    ("Use option I for my deploys", "Use option I for the user's deploys"),
    # "mine" is the user's only where it stands for a noun; the verb and the noun stay
    ("Never touch files that are mine", "Never touch files that are the user's"),
    ("Never touch that laptop of mine", "Never touch that laptop of the user's"),
    ("Never touch the laptop, it's mine", "Never touch the laptop, it's the user's"),
    ("Never mine crypto when I don't mine", "Never mine crypto when the user does not mine"),
    ("Never mine crypto on my server", "Never mine crypto on the user's server"),
    ("Always treat the logs as a gold mine for my reports", "Always treat the logs as a gold mine for the user's reports"),
]
LEFT_ALONE = [
    "Keep your language simple",  # "your" said to Claude, in an imperative to Claude
    "User is a beginner at Rust, so explain your code",  # the clause after is said to Claude
    # "you" the subject of its own verb stays, and then so does every "you" of the clause: never
    # "User wants Claude to ask them before you push"
    "User wants you to ask them before you push",
    "User wants you to tell them when you're done",
    'User wants "ask you first" on the banner',  # quoted
    "Our staging cluster is called blue-river",  # the team's
    "Avoid rolling our own auth",
    "We deploy our app to Fly",
    "User's my-app lives in ~/my/dir",  # a name, a path
    "Use My Files to browse",  # a capitalised name
    'Never show "Contact me" on the footer',  # quoted text
    "Never show 'Contact me' on the footer",  # in single quotes too
    "Never show “Contact me” or ‘About me’ on the footer",
    "Never touch `my_config.py`",  # a code span
    "Link to https://example.com/me/my",  # a URL
    "Never use i18n keys",
    "User uses oh my zsh with the agnoster theme",  # a tool's name: "oh my zsh", "oh my posh"
    "Never touch the oh my posh themes",
    "Never remove the remember me option",  # a control's name, the app's user's words
    "Always keep the about me section short",
    "Always add a forgot my password link",
    "Never enable the keep me logged in option by default",
    "Never push when I'd rather review",  # "I'd": would or had, not told
    "Never merge before my wife and I",  # "I" with no verb of its own
    "Always answer before I set it up",  # "set": now or before, not told
    "Whenever you and I disagree, ask me",  # "I" with another subject: the verb agrees with both
    "Never book meetings when my wife and I travel",
    "Never merge while Bob and I are away",
    "Never deploy when the team and I are offline",
    "No me hables en inglés",  # another language
    "Nunca me digas que no",
    "Für mich immer auf Deutsch",
    "Toujours me répondre en français",
]


@pytest.mark.parametrize(("claim", "want"), THIRD_PERSON)
def test_the_users_first_person_reads_in_the_third(claim: str, want: str) -> None:
    assert third_person(claim) == want
    assert third_person(want) == want  # idempotent: nothing written is first person


# Words the rewrite reads or writes, in any order: what it writes is never read again.
_PERSON_WORDS = ["I", "i", "I'm", "I've", "I'll", "me", "my", "mine", "our", "you", "your", "so",
                 "not", "it's", "and", "never", "use", "push", "rely", "the", "'q'", "`x`", "User"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(said=st.lists(st.sampled_from(_PERSON_WORDS), min_size=1, max_size=10))
def test_third_person_is_idempotent(said: list[str]) -> None:
    once = third_person(" ".join(said))
    assert third_person(once) == once


@pytest.mark.parametrize("claim", LEFT_ALONE)
def test_first_person_words_that_are_not_the_users_are_left_alone(claim: str) -> None:
    assert third_person(claim) == claim


@pytest.mark.parametrize(
    ("said", "claim"),
    [
        ("I use Brave as my browser.", "User uses Brave as their browser"),
        (
            "don't give me fucking options when I ask you to do something",
            "User does not want Claude to give them fucking options when they ask Claude to do"
            " something",
        ),
        ("Never tell me it's not medical advice.", "Never tell the user it's not medical advice"),
        (
            "Always add a remember me checkbox to my login forms.",
            "Always add a remember me checkbox to the user's login forms",
        ),
        (
            "Always keep the ‘Contact me’ button on my site.",
            "Always keep the 'Contact me' button on the user's site",
        ),
    ],
)
def test_kept_claims_are_in_the_third_person(said: str, claim: str) -> None:
    assert _claims(said) == [claim]


def test_a_third_person_claim_restated_converges_and_stays_put() -> None:
    # the same rule typed twice (or spelled in the third person already) is one atom
    ids, _ = _one_id(
        [
            ("Never tell me it's not medical advice.", P),
            ("Please never tell me it's not medical advice.", P),
            ("Never tell the user it's not medical advice.", P),
        ]
    )
    assert len(ids) == 1
    [claim] = _claims("Never tell me it's not medical advice.")
    assert canonical(claim, "constraint") == (claim, "constraint")


def test_a_negated_verb_of_the_user_converges_with_the_third_person_typed() -> None:
    # claims spell "doesn't" as "does not" (text.tidy); the rewrite must write the same, or "I
    # don't approve" and "the user doesn't approve" are two atoms of one rule
    assert third_person("Never deploy when I don't approve") == (
        "Never deploy when the user does not approve"
    )
    ids, seen = _one_id(
        [
            ("Never deploy when I don't approve.", P),
            ("Never deploy when the user doesn't approve.", P),
            ("Never deploy when the user does not approve.", P),
        ]
    )
    assert len(ids) == 1, seen


def test_the_user_named_at_the_end_still_reads_as_a_complaint() -> None:
    # the standing checks read the user's own words ("… to me"), before the rewrite
    assert _claims("Ah come on. Don't suggest junk to me.") == []


def test_an_event_said_with_you_is_a_gerund_only_for_a_plain_verb() -> None:
    assert _claims("Always run the tests before you commit.") == ["Always run the tests before committing"]
    assert _claims("Always lint before you ship.") == ["Always lint before shipping"]
    assert _claims("Always run make before you deploy.") == ["Always run make before deploying"]
    assert _claims("Always update the changelog before you merge.") == [
        "Always update the changelog before merging"
    ]
    # a verb whose "-ing" is no event ("before you are done", "before you can merge") stays
    assert _claims("Always check CI before you're done.") == ["Always check CI before you're done"]
    assert _claims("Always run the tests before you can merge.") == [
        "Always run the tests before you can merge"
    ]


@pytest.mark.parametrize(
    ("said", "claim"),
    [
        # a word between "you" and the verb is no verb: it was "before actuallying commit"
        ("Always run the tests before you actually commit.", "Always run the tests before you actually commit"),
        ("Always run the linter before you ever push.", "Always run the linter before you ever push"),
        ("Always run make check before you even push.", "Always run make check before you even push"),
        ("Always squash before you finally merge.", "Always squash before you finally merge"),
        ("Always rebase before you all push.", "Always rebase before you all push"),
        # a verb in -ply (or "rely") is still one; the u of "qu" is no vowel
        ("Always back up the database before you apply the migration.",
         "Always back up the database before applying the migration"),
        ("Always save the notes before you quit.", "Always save the notes before quitting"),
    ],
)
def test_an_event_said_with_you_and_a_word_before_its_verb_is_left_as_said(said: str, claim: str) -> None:
    assert _claims(said) == [claim]


def test_a_call_in_a_chain_keeps_its_parentheses() -> None:
    """An empty call is dropped only where it ends the name (`print()` is `print`): inside a
    chain the parentheses are part of the code named (`now().isoformat()` is not
    `now.isoformat()`, `super().__init__()` is not `super.init()`)."""
    assert canonical("Use datetime.now().isoformat()", "constraint")[0] == "Use datetime.now().isoformat()"
    assert canonical("Always call super().__init__() first.", "constraint")[0] == "Always call super().__init__() first"
    assert canonical("Never use print(); always use the logger", "constraint")[0] == "Never use print; always use the logger"


def test_the_command_run_in_place_of_an_install_is_not_called_the_dependency() -> None:
    """After an install forbidden, "add it to pyproject.toml" puts the package somewhere (it:
    the dependency); "run it through make" runs the install itself, which is no dependency."""
    claims = [c.claim for c in extract_claims("Never run npm install by hand; run it through make instead.")]
    assert claims and not any("dependency" in claim for claim in claims), claims
    claims = [c.claim for c in extract_claims("Don't pip install anything, add it to pyproject.toml instead.")]
    assert claims == ["Never pip install; always add the dependency to pyproject.toml"]
