"""The learned durability gate (agent_memory/extract/durability.py, issue 28): its weights ship
in the package as data, it scores deterministically, durable statements pass it and task chatter
does not (our own wordings), and weights that are missing or malformed open the gate instead of
breaking extraction — while a wheel without them is caught here as the packaging bug it is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from builders import typed_transcript
from conftest import install_wheel

from agent_memory.extract import durability
from agent_memory.extract.pipeline import extract_claims, extract_transcript
from agent_memory.extract.rules import registry

ROOT = Path(__file__).resolve().parent.parent

DURABLE = [
    "I'm on Fedora now and my terminal is WezTerm with fish.",
    "Never push straight to main, it deploys to production automatically.",
    "From now on always use pnpm instead of npm in my projects.",
    "I prefer tabs over spaces in every language.",
    "We host everything on Vercel and the database is Postgres on Neon.",
    "Please always write commit messages in the imperative mood.",
    # plain facts and conventions with no marker at all (issue 28: they fell under the
    # criterion's threshold while no feature said "fact" or "convention")
    "The default branch is dev.",
    "The PR base branch is main.",
    "Use tabs in Makefiles.",
    # a number in a short rule is no sign of task talk
    "Keep functions under 50 lines.",
]
# Chatter, scored as if a rule had made a candidate of the whole sentence (the shapes of
# false atoms on strangers: hypotheticals, corrections, code state, requests of this turn).
CHATTER = [
    "what if the config sat under src/ instead, would the loader still find it?",
    "no no, wrong file, fix the button in the header first",
    "I changed the parser yesterday and it still does not handle nested lists, can you check why?",
    "can you use the app to test that the modal closes?",
    "ok now run the tests again and tell me what failed",
]
RULES = ("directive.always_never", "preference.use", "fact.location")


def _model() -> durability.Model:
    model = durability.packaged_model()
    assert model is not None, "agent_memory/resources/durability_weights.json is missing or bad"
    return model


def test_the_weights_load_from_the_package() -> None:
    raw = durability.read_packaged()
    assert raw is not None
    model = durability.parse(raw)
    assert model is not None and 0.0 < model.threshold < 1.0
    assert "bias" in model.weights and len(model.weights) > 20
    # Data only: the file holds feature names and numbers, never a statement of the corpus.
    assert all(len(name) < 40 for name in model.weights)


@pytest.mark.parametrize("text", DURABLE)
def test_durable_statements_pass_the_gate(text: str) -> None:
    model = _model()
    cands = extract_claims(text)
    assert cands, text
    for cand in cands:
        assert durability.score(text, cand.claim, cand.rule, model) >= model.threshold, cand


@pytest.mark.parametrize("text", CHATTER)
def test_task_chatter_does_not_pass_the_gate(text: str) -> None:
    model = _model()
    for rule in RULES:
        assert not durability.keep(text, text, rule, model), (rule, text)


def test_scoring_is_deterministic_across_processes() -> None:
    model = _model()
    here = [durability.score(t, t, r, model) for t in DURABLE + CHATTER for r in RULES]
    assert here == [durability.score(t, t, r, model) for t in DURABLE + CHATTER for r in RULES]
    probe = (
        "import json, sys\n"
        "from agent_memory.extract import durability as d\n"
        "m = d.packaged_model()\n"
        "texts, rules = json.loads(sys.argv[1])\n"
        "print(json.dumps([d.score(t, t, r, m) for t in texts for r in rules]))\n"
    )
    arg = json.dumps([DURABLE + CHATTER, list(RULES)])
    runs = []
    for seed in ("1", "2"):  # set and dict orders vary with the hash seed; the sum must not
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run([sys.executable, "-c", probe, arg], env=env, capture_output=True,
                              text=True, check=True)  # fmt: skip
        runs.append(json.loads(proc.stdout))
    assert runs[0] == runs[1] == here


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "not json",
        "[]",
        json.dumps({"format": 99, "threshold": 0.5, "weights": {"bias": 1.0}}),
        json.dumps({"format": 1, "threshold": 1.5, "weights": {"bias": 1.0}}),
        json.dumps({"format": 1, "threshold": 0.5, "weights": {}}),
        json.dumps({"format": 1, "threshold": 0.5, "weights": {"bias": "x"}}),
        json.dumps({"format": 1, "threshold": 0.5, "weights": {"bias": True}}),
        '{"format": 1, "threshold": 0.5, "weights": {"bias": NaN}}',
    ],
)
def test_malformed_weights_open_the_gate(raw: str) -> None:
    # Fail-safe direction: no usable model keeps every candidate (the rules alone decide), so
    # a damaged data file never silences extraction.
    assert durability.parse(raw) is None
    assert all(durability.keep(t, t, r, None) for t in CHATTER for r in RULES)


# Between the drop threshold and the keep bar a candidate is pending: stored, but an atom only
# once the claim recurs in another session (durability.PENDING). Short rules said once sit
# there: "don't X" with no standing word was mostly a step of the task at hand on first
# contact, and plain short facts score under the bar too. Said with a standing word they are
# atoms at once.
PENDING_ON_ONE_MENTION = [
    "please don't ask again for the schema download",
    "Don't use semicolons.",
    "No emojis in commit messages.",
    "The default branch is dev.",
    "Use tabs in Makefiles.",
    "不要用 yarn",
]
KEPT_ON_ONE_MENTION = [
    # the new-user scenario says this once and expects an atom
    "Do not add comments to the code.",
    "Do not use mocks in integration tests.",
    "I'm on Fedora now and my terminal is WezTerm with fish.",
]


def test_the_keep_bar_sits_between_dropping_and_keeping() -> None:
    model = _model()
    assert model.threshold < model.keep_threshold == model.bar < 1.0
    for text in PENDING_ON_ONE_MENTION + KEPT_ON_ONE_MENTION:
        (cand,) = extract_claims(text)
        p = durability.score(text, cand.claim, cand.rule, model)
        # all of them clear the drop threshold: only the keep bar tells them apart
        assert p >= model.threshold, (text, p)
        want = durability.KEEP if text in KEPT_ON_ONE_MENTION else durability.PENDING
        assert durability.verdict(text, cand.claim, cand.rule, model) == want, (text, p)
        assert durability.keep(text, cand.claim, cand.rule, model) == (want == durability.KEEP)
    # a standing word exempts the same rule's candidate from any bar
    for text in ("From now on, don't use semicolons.", "Remember: no emojis in commit messages."):
        (cand,) = extract_claims(text)
        assert durability.verdict(text, cand.claim, cand.rule, model) == durability.KEEP, text


def test_chatter_is_dropped_not_pending() -> None:
    model = _model()
    for text in CHATTER:
        for rule in RULES:
            assert durability.verdict(text, text, rule, model) == durability.DROP, (rule, text)


def test_the_keep_bar_is_read_from_the_weights_file() -> None:
    weights = {"bias": 1.0}
    plain = durability.parse(json.dumps({"format": 1, "threshold": 0.6, "weights": weights}))
    assert plain is not None and plain.bar == 0.6  # absent: nothing is pending
    two = durability.parse(json.dumps(
        {"format": 1, "threshold": 0.6, "keep_threshold": 0.8, "weights": weights}))  # fmt: skip
    assert two is not None and two.bar == 0.8 and two.threshold == 0.6
    lower = durability.parse(json.dumps(
        {"format": 1, "threshold": 0.6, "keep_threshold": 0.3, "weights": weights}))  # fmt: skip
    assert lower is not None and lower.bar == 0.6  # never under the threshold
    for bad in (1.5, -0.1, "0.8", None, True):
        assert durability.parse(json.dumps(
            {"format": 1, "threshold": 0.6, "keep_threshold": bad, "weights": weights})) is None
        assert durability.parse(json.dumps(
            {"format": 1, "threshold": bad, "weights": weights})) is None


def test_a_model_scoring_between_the_bars_holds_the_candidate() -> None:
    # The three outcomes from the score alone, on a one-weight model: bias 0 scores 0.5.
    text = "Use tabs in Makefiles."
    (cand,) = extract_claims(text)
    feats = durability.candidate_features(text, cand.claim, cand.rule)
    assert not durability.exempt(feats)
    for threshold, bar, want in ((0.4, 0.6, durability.PENDING), (0.6, 0.8, durability.DROP),
                                 (0.3, 0.5, durability.KEEP)):  # fmt: skip
        model = durability.Model({"bias": 0.0}, threshold, bar)
        assert durability.verdict(text, cand.claim, cand.rule, model) == want


def test_the_pipeline_keeps_what_the_gate_passes(tmp_path: Path) -> None:
    result = extract_transcript(typed_transcript(tmp_path, *DURABLE), "proj")
    model = _model()

    def lines(atoms: list[dict[str, object]]) -> set[int]:
        return {int(str(a["first_source"]).rsplit("#L", 1)[1]) for a in atoms}

    # every durable statement is kept: as an atom, or pending when it scores under the keep bar
    assert lines(result.atoms) | lines(result.pending) == set(range(1, len(DURABLE) + 1))
    assert all(a.get("pending") is True for a in result.pending)
    assert not any("pending" in a for a in result.atoms)
    below = {i + 1 for i, t in enumerate(DURABLE)
             if all(durability.verdict(t, c.claim, c.rule, model) == durability.PENDING
                    for c in extract_claims(t))}  # fmt: skip
    assert lines(result.pending) == below and below


@pytest.fixture(scope="module")
def wheel_site(built_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """agent_memory installed from a wheel built from this tree (not the editable checkout)."""
    return install_wheel(built_wheel, tmp_path_factory.mktemp("site"))


_PROBE = """
import json, sys
import agent_memory
from agent_memory.extract import durability
from agent_memory.extract.pipeline import extract_transcript
model = durability.packaged_model()
atoms = extract_transcript(sys.argv[1], "proj").atoms
print(json.dumps({"file": agent_memory.__file__, "model": model is not None,
                  "threshold": model.threshold if model else None, "atoms": len(atoms)}))
"""


def test_an_installed_wheel_carries_the_weights_and_survives_losing_them(
    wheel_site: Path, tmp_path: Path
) -> None:
    path = tmp_path / "projects" / "-w-proj" / "s-1.jsonl"
    path.parent.mkdir(parents=True)
    record = {"type": "user", "sessionId": "s-1", "timestamp": "2026-03-01T10:00:00Z",
              "cwd": "/w/proj", "message": {"role": "user", "content": DURABLE[1]}}  # fmt: skip
    path.write_text(json.dumps(record) + "\n", "utf-8")
    env = {**os.environ, "PYTHONPATH": str(wheel_site)}

    def probe() -> dict[str, object]:
        proc = subprocess.run([sys.executable, "-c", _PROBE, str(path)], env=env, cwd=tmp_path,
                              capture_output=True, text=True, check=True)  # fmt: skip
        got: dict[str, object] = json.loads(proc.stdout)
        assert Path(str(got["file"])).is_relative_to(wheel_site), got
        return got

    installed = probe()
    assert installed["model"] is True, "the wheel does not ship durability_weights.json"
    assert installed["threshold"] == _model().threshold
    assert installed["atoms"] == 1
    weights = wheel_site / "agent_memory" / "resources" / durability.WEIGHTS_RESOURCE
    weights.write_text("{broken", "utf-8")
    assert probe() == {**installed, "model": False, "threshold": None}
    weights.unlink()
    assert probe() == {**installed, "model": False, "threshold": None}


def test_explicit_standing_words_and_rejection_tools_are_never_dropped() -> None:
    # A model that drops everything it scores: only the exemptions get through.
    closed = durability.Model({"bias": -50.0}, 0.5)
    long = "Some context here. " * 120 + "By the way, never commit the .env file."
    assert durability.keep(long, "Never commit the .env file", "directive.never", closed)
    assert durability.keep("from now on run the linter before you push", "Run the linter "
                           "before you push", "memory.imperative", closed)  # fmt: skip
    assert durability.keep("以后总是用中文回复", "Always: 以后总是用中文回复", "language.zh_always", closed)
    assert durability.keep("pnpm", "Use pnpm, not npm", "rejection.use_tool", closed)
    # "from now on" read by the rules in another language, as the English words above
    assert durability.keep("以后都用pnpm", "From now on: 以后都用pnpm", "language.from_now_on", closed)
    assert durability.keep(
        "앞으로 pnpm을 사용해줘", "From now on: 앞으로 pnpm을 사용해줘", "language.from_now_on", closed
    )
    # a scope the rules read ("in the future" before its reason, "until told otherwise")
    assert durability.keep("please use tabs in the future so that the diffs stay small",
                           "Use tabs so that the diffs stay small", "memory.imperative", closed)  # fmt: skip
    assert durability.keep("until told otherwise, keep the PRs small", "Keep the PRs small",
                           "directive.keep", closed)  # fmt: skip
    assert not durability.keep("fix it for all future releases by bumping the version pin",
                               "Fix it by bumping the version pin", "memory.imperative", closed)  # fmt: skip
    assert durability.keep("for all future projects, use pnpm", "Use pnpm", "memory.imperative",
                           closed)  # fmt: skip
    assert not durability.keep("does the cache have a ttl so we can tune it in the future?",
                               "The cache has a ttl", "memory.imperative", closed)  # fmt: skip
    # a scope that bounds a plan, a purpose or one change put off is no standing scope: the gate
    # and the rules' framing ask the same question (dispatch.lasting_scope)
    assert not durability.keep("write the report to csv so I can add more reports in the future",
                               "Write the report to csv", "memory.imperative", closed)  # fmt: skip
    assert not durability.keep("delete the old metadata to not get confused in the future",
                               "Delete the old metadata", "memory.imperative", closed)  # fmt: skip
    # the request's own "we will" is no plan: the scope still says it lasts
    assert durability.keep("We will use pnpm in all future projects.", "Use pnpm",
                           "decision.will_use", closed)  # fmt: skip
    assert not durability.keep("remove the v2 flag in the future because it breaks on v3",
                               "Remove the v2 flag", "memory.imperative", closed)  # fmt: skip
    # the memory shortcut and a memory request in words (test_extract_memory_shortcut)
    assert durability.keep("# we deploy on fly.io", "We deploy on fly.io", "fact.we_verb", closed)
    assert durability.keep(
        "add to your memory that we deploy on fly.io", "We deploy on fly.io", "fact.we_verb", closed
    )
    assert not durability.keep(CHATTER[1], CHATTER[1], "preference.use", closed)


def _cues(text: str) -> set[str]:
    parsed = durability.parse_statement(text)
    return set(durability.sentence_features(parsed, 0, None))


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        ("The default branch is dev.", True),
        ("The PR base branch is main.", True),
        ("Our API docs are in docs/api.", True),
        ("ok, the staging db is Postgres 16", True),
        ("Python is my main language.", True),
        ("this is broken", False),  # a pronoun for subject
        ("It is in the header.", False),
        ("Is the default branch dev?", False),  # a question
        ("The build is red again.", False),  # a passing state
        ("The login form is broken on mobile.", False),
        ("There is a typo in the title.", False),
    ],
)
def test_a_plain_copular_fact_has_its_cue(text: str, fires: bool) -> None:
    assert ("copula_fact" in _cues(text)) is fires, _cues(text)


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        ("Fix the file please", True),
        ("The test fails on CI", True),
        ("the tests pass now", True),
        ("Move the button to the footer.", True),
        # the artifact word only modifies the head noun of the phrase
        ("The PR base branch is main.", False),
        ("Write the commit message in English.", False),
        ("The default branch is dev.", False),
    ],
)
def test_the_artifact_is_read_on_the_head_noun(text: str, fires: bool) -> None:
    assert ("the_artifact" in _cues(text)) is fires, _cues(text)


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        ("fix this file", True),
        ("those tests are flaky", True),
        ("Note that the app runs on Fly.", False),  # "that" as a conjunction
        ("this is how we deploy", False),  # "this" as a pronoun
    ],
)
def test_a_demonstrative_counts_only_before_a_noun(text: str, fires: bool) -> None:
    assert ("deixis_np" in _cues(text)) is fires, _cues(text)


@pytest.mark.parametrize(
    "text",
    ["中文回答", "中文交互", "用中文回复", "日本語でお願い", "说中文", "用英文回答", "responde en español"],
)
def test_a_short_reply_language_passes_the_gate(text: str) -> None:
    # a reply language is about every reply, however short the sentence that says it
    assert durability.durable(text, f"Language: {text}", "language.answer_language")


def test_the_reply_language_exemption_needs_the_language_and_a_reply() -> None:
    # (the cue's words alone; a candidate of the reply-language rule carries it whatever its words)
    feats = durability.candidate_features("中文版本", "中文版本", "language.project_is")
    assert "ml_reply_language" not in feats


def test_lines_the_prose_splitter_skips_are_still_read_one_a_line() -> None:
    # Japanese lines with Latin names in them, which the English splitter does not take for
    # prose: the gate still scores the line a claim came from, not the statement as one sentence.
    text = "いまnodeのrestとrustを両方使ってます\nrustにmigrate中なので、まだ両方あります"
    parsed = durability.parse_statement(text)
    assert len(parsed.sents) == 2, parsed.sents
    assert durability.source_index(parsed.sents, "Uses: いまnodeのrestとrustを両方使ってます") == 0


def test_a_long_cjk_line_is_not_taken_for_code() -> None:
    # The English splitter drops a long line of Han characters as code; the gate reads it.
    text = "我用的是mac\n以后所有的提交信息都请用英文来写，并且在标题里写清楚改了哪个模块"
    parsed = durability.parse_statement(text)
    assert len(parsed.sents) == 2, parsed.sents
    assert durability.source_index(parsed.sents, "From now on: 以后所有的提交信息都请用英文来写") == 1


def test_an_english_paragraph_with_one_cjk_word_is_still_cut_into_sentences() -> None:
    # an always-word in one sentence must not exempt a claim of another sentence on the same line
    text = "Rename the title to 設定 in header.tsx and use Vitest for these tests. Always run lint before pushing."
    parsed = durability.parse_statement(text)
    assert len(parsed.sents) == 2, parsed.sents
    assert not durability.exempt(
        durability.candidate_features(text, "Use Vitest for these tests", "preference.use")
    )


@pytest.mark.parametrize(
    "text",
    [
        "In every session file, rename the field created to created_at.",
        "For every project in the list, run the build and report failures.",
        "In every project folder, delete the node_modules directory.",
        "For every session in the logs directory, count the errors.",
    ],
)
def test_every_x_naming_what_this_task_goes_through_is_no_scope(text: str) -> None:
    # "every session file", "every project in the list": the things gone through now, not a
    # scope; nothing from them is kept as a rule (and none exempt from the gate)
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "For every project you work on, use docker compose for local services.",
            "Use docker compose for local services",
        ),
        ("In every repo, run the linter before you commit.", "Run the linter before committing"),
    ],
)
def test_every_x_as_a_scope_still_keeps_the_rule(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("I use brave", "User uses brave"),
        ("im using xcode", "User uses xcode"),
        ("I'm on Fedora.", "User is on Fedora"),
    ],
)
def test_a_sentence_opening_with_the_persons_own_setup_is_kept_however_short(
    text: str, claim: str
) -> None:
    # The model's length cues held "I use brave" under the drop threshold; a sentence that opens
    # by saying what the person works with is a fact about them. A closed model shows that the
    # exemption, not the score, keeps it.
    (cand,) = extract_claims(text)
    assert cand.claim == claim
    closed = durability.Model({"bias": -50.0}, 0.5)
    assert durability.keep(text, cand.claim, cand.rule, closed)
    assert durability.durable(text, cand.claim, cand.rule)


def test_the_own_setup_exemption_needs_the_opening_and_a_setup_rule() -> None:
    closed = durability.Model({"bias": -50.0}, 0.5)
    # the same rule's claim from a sentence that does not open with it
    text = "Can you check why it fails, I use brave and the page is blank"
    assert not durability.keep(text, "User uses brave", "fact.user_uses", closed)
    # the opening, in a sentence that goes on past the setup (to a problem, to a change): the
    # model judges it, whatever the claim kept of the sentence
    for text in ("I use brave and my tabs vanish, can you fix it?",
                 "I use Jest but it was replaced by Vitest",
                 "I use Jest. It was replaced by Vitest last week.",
                 "I use Jest — it was replaced by Vitest",
                 "I use Chrome although it is slow",
                 "For this demo only. I use Firefox."):  # fmt: skip
        (cand,) = extract_claims(text)
        assert cand.rule in durability.OWN_SETUP_RULES, cand
        assert not durability.keep(text, cand.claim, cand.rule, closed), text
    # a list of what is used is no run-on
    assert durability.keep("I use vscode and zsh", "User uses vscode and zsh", "fact.user_uses",
                           closed)  # fmt: skip
    # the opening alone, with another rule's claim (a team's "we use X" is left to the model)
    assert not durability.keep("We use tabs in the Makefile here", "Use tabs in the Makefile",
                               "preference.use", closed)  # fmt: skip
    assert not durability.keep("We use GitLab.", "Use GitLab", "fact.we_verb", closed)
    # every rule named for it is a registered rule's label
    labels = {rule.label for rule in (*registry.CLAUSE_RULES, *registry.WHOLE_SENTENCE_RULES)}
    assert labels >= durability.OWN_SETUP_RULES
