"""Explicit asks to keep something, in the shapes people use across languages (issue 28: the
explicit rules are the statements a strict labeller surely keeps, and were missed most outside
English). Every sentence is our own. Each look-alike — a question before the asking, an asking
with nothing before it, a pointer at the task's own code — yields nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import typed_transcript

from agent_memory.extract import durability
from agent_memory.extract.pipeline import extract_transcript
from agent_memory.extract.remember_back import led_by_remember
from agent_memory.extract.statement import extract_claims

# "<statement>. Remember this.": the closing asking makes the statement before it a kept one.
REMEMBERED_BEFORE = [
    ("배포 서버는 fly.io에 있어. 이를 메모리에 기억해줘.", "배포 서버는 fly.io에 있어"),
    ("테스트는 docker 안에서 실행해. 이것을 기억해.", "테스트는 docker 안에서 실행해"),
    ("テストはdocker内で実行する。これを覚えておいて。", "テストはdocker内で実行する"),
    ("测试在docker里运行。记住这一点。", "测试在docker里运行"),
    ("Тесты запускаются в docker. Запомни это.", "Тесты запускаются в docker"),
    ("Os testes rodam no docker. Lembre-se disso.", "Os testes rodam no docker"),
    # asked to be written into memory or CLAUDE.md after it
    ("テストはdocker内で実行する。これをCLAUDE.mdに追加してください。", "テストはdocker内で実行する"),
    ("测试在docker里运行。把这个记到记忆里。", "测试在docker里运行"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "kept"), REMEMBERED_BEFORE)
def test_a_closing_remember_this_keeps_the_statement_before_it(text: str, kept: str) -> None:
    claims = [c.claim for c in extract_claims(text)]
    assert claims == [f"Remember: {kept}"]


def test_the_asking_alone_is_never_a_claim_of_its_own() -> None:
    # once read as the fact "For the future"
    claims = [c.claim for c in extract_claims("never touch the legacy folder. Remember this for the future.")]
    assert claims == ["Never touch the legacy folder"]


@pytest.mark.parametrize(
    "text",
    [
        "does the deploy still work? remember that",  # a question is no thing to keep
        "Remember that.",  # nothing before it
        "이것을 기억해.",
        "これを覚えておいて。",
    ],
)
def test_a_remember_this_with_no_statement_before_it_is_left_as_it_is(text: str) -> None:
    assert led_by_remember(text) == text
    assert extract_claims(text) == []


def test_only_a_closing_asking_moves() -> None:
    text = "Remember that the API is slow. Then fix the test."
    assert led_by_remember(text) == text


# Korean says the asking last, in the same sentence.
KO_ASKED_LAST = [
    # a ban kept is a rule: its kind is the rule's, the negation said in English
    ("이 저장소의 코드는 절대 수정하면 안 된다는 점을 메모리에 기억해.", "Don't: 이 저장소의 코드는 절대 수정하면 안 된다", "constraint"),
    ("배포는 항상 fly.io로 한다는 점을 기억해줘", "Remember: 배포는 항상 fly.io로 한다", "fact"),
    ("API 문서는 docs 폴더에 있다는 사실을 메모리에 저장해 줘", "Remember: API 문서는 docs 폴더에 있다", "fact"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "claim", "kind"), KO_ASKED_LAST)
def test_korean_asking_to_keep_said_last(text: str, claim: str, kind: str) -> None:
    assert [(c.claim, c.kind) for c in extract_claims(text)] == [(claim, kind)]


def test_korean_remember_pointing_at_the_tasks_code_is_nothing() -> None:
    assert extract_claims("이 코드를 기억해") == []


# A tool not to use, said as the whole clause, in Japanese and Korean; the tool first.
DONT_USE = [
    ("graphite cli は使わないで。gh で", "Don't: graphite cli は使わないで"),
    ("yarnはもう使わないでください", "Don't: yarnはもう使わないでください"),
    ("yarn은 사용하지 마", "Don't: yarn은 사용하지 마"),
    ("moment.js를 더 이상 쓰지 마세요.", "Don't: moment.js를 더 이상 쓰지 마세요"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "claim"), DONT_USE)
def test_a_tool_not_to_use(text: str, claim: str) -> None:
    assert [(c.claim, c.kind) for c in extract_claims(text)] == [(claim, "constraint")]


@pytest.mark.parametrize(
    "text",
    [
        "このファイルでは lodash を使わないで",  # about a file of the task
        "Reactを使わないで実装して",  # how to build this one thing
        "이 파일에서 lodash를 사용하지 마",
        "그 함수는 사용하지 마",  # a thing of the code, pointed at
    ],
)
def test_a_tool_not_to_use_here_is_the_tasks(text: str) -> None:
    assert extract_claims(text) == []


def test_korean_written_rule_ending_picks_a_tool() -> None:
    claims = [(c.claim, c.kind) for c in extract_claims("npm 대신 pnpm을 사용할 것")]
    assert claims == [("Use pnpm, not npm", "preference")]


def test_chinese_from_now_on_a_thing_written_in_a_language() -> None:
    claims = [c.claim for c in extract_claims("从现在开始，提交信息用英文写")]
    assert claims == ["From now on: 从现在开始，提交信息用英文写"]
    # a way of working on this piece, said with a suggestion, stays out
    assert extract_claims("从现在开始，我们用这个方法写测试吧") == []


def test_a_subjects_fact_is_not_read_as_two_names() -> None:
    # once "Use project uses pnpm, not npm"
    claims = [c.claim for c in extract_claims("remember that this project uses pnpm, not npm")]
    assert claims == ["Project uses pnpm, not npm"]


# A "#" memory note typed without its space, as the shortcut was typed.
def test_a_memory_note_without_the_space_is_a_note() -> None:
    claims = [c.claim for c in extract_claims("#never push to main without asking")]
    assert claims == ["Never push to main without asking"]


@pytest.mark.parametrize("text", ["#hashtag", "#fix-123 broken", "#!/bin/bash"])
def test_a_tag_or_an_issue_is_no_memory_note(text: str) -> None:
    assert extract_claims(text) == []


def test_an_exception_asked_for_is_part_of_the_rule() -> None:
    claims = [c.claim for c in extract_claims("never add co-authorship to commit messages unless asked for")]
    assert claims == ["Never add co-authorship to commit messages unless asked for"]


# How a kind of text the work leaves behind is written: said of the kind, it holds for each one.
ARTIFACT_RULES = [
    ("commit messages should not contain emojis", "Commit messages should not contain emojis", "constraint"),
    ("Commits should never include generated files", "Commits should never include generated files", "constraint"),
    ("commit messages must follow conventional commits", "Commit messages must follow conventional commits", "constraint"),
    ("PR descriptions should be brief", "PR descriptions should be brief", "preference"),
    ("branch names should start with the ticket id", "Branch names should start with the ticket id", "preference"),
    # said as the user's wish, kept as the rule it asks for
    ("going forward, I want PR titles to start with the ticket number", "PR titles should start with the ticket number", "preference"),
    ("I want commit messages to not mention Claude", "Commit messages should not mention Claude", "constraint"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "claim", "kind"), ARTIFACT_RULES)
def test_a_rule_for_a_kind_of_text_the_work_leaves(text: str, claim: str, kind: str) -> None:
    assert [(c.claim, c.kind) for c in extract_claims(text)] == [(claim, kind)]


@pytest.mark.parametrize(
    "text",
    [
        "the commit message should mention #12",  # this commit's
        "the PR description should link the issue",
        "I want the commit message to mention the ticket",
    ],
)
def test_the_one_at_hand_is_this_turns(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("statement", "claim", "rule"),
    [
        ("The staging DB is read-only. Remember that.", "The staging DB is read-only", "fact.lexicon"),
        ("テストはdocker内で実行する。これを覚えておいて。", "Remember: テストはdocker内で実行する", "language.ja_remember"),
    ],
)
def test_asked_to_keep_after_it_is_an_atom_on_one_mention(statement: str, claim: str, rule: str) -> None:
    # the gate reads the closing asking as the "remember" said of the sentence before it
    assert durability.gate(statement, claim, rule) == durability.KEEP


# A step owed whenever a kind of event happens, said with "you must / need to / have to".
MUST_ON_EVENT = [
    ("you have to activate the venv before running tests", "Activate the venv before running tests"),
    ("you must run make gen after changing the proto files", "Run make gen after changing the proto files"),
    ("you need to restart the server after changing the config", "Restart the server after changing the config"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "claim"), MUST_ON_EVENT)
def test_a_step_owed_on_every_event_of_a_kind(text: str, claim: str) -> None:
    assert [(c.claim, c.kind) for c in extract_claims(text)] == [(claim, "constraint")]
    assert durability.gate(text, claim, "directive.must_on_event") == durability.KEEP


@pytest.mark.parametrize(
    "text",
    [
        "you need to fix the tests before merging",  # mending what is broken now
        "so you need to run it before testing",  # "it" was named elsewhere
    ],
)
def test_a_step_of_this_work_is_no_rule(text: str) -> None:
    assert extract_claims(text) == []


# Asked to be written into CLAUDE.md or memory, said as an update of it: what it is to say is kept
# (once read as the preference "Say that we use pnpm workspaces").
@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("update CLAUDE.md so that it says the tests run in docker", "The tests run in docker"),
        ("update CLAUDE.md to say that the tests run in docker", "The tests run in docker"),
        ("update your memory with the fact that the tests run in docker", "The tests run in docker"),
        ("add a note to CLAUDE.md that the tests run in docker", "The tests run in docker"),
        ("document in CLAUDE.md that the tests run in docker", "The tests run in docker"),
    ],
)
def test_asked_to_update_memory_with_a_fact(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


@pytest.mark.parametrize("text", ["update CLAUDE.md with the new endpoints", "update the memory table schema"])
def test_an_update_of_the_file_itself_is_this_turns_work(text: str) -> None:
    assert extract_claims(text) == []


def test_noted_in_claude_md_after_it() -> None:
    text = "the API is rate limited to 100 requests a minute. Note this in your own claude.md"
    assert [c.claim for c in extract_claims(text)] == ["The API is rate limited to 100 requests a minute"]


@pytest.mark.parametrize(
    "text",
    [
        "remember: fix the login bug",  # a to-do of this work, as "remember to fix it" is
        "note: investigate the flaky test",
        "fix the login bug. add that to your memory",
    ],
)
def test_a_to_do_asked_to_be_remembered_is_this_works(text: str) -> None:
    assert extract_claims(text) == []


# What the user does by their own hand stays the user's habit: as an order to Claude ("Always
# run the tests myself") it would say the opposite of what was meant.
@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("I always run the tests myself", "The user always runs the tests themselves"),
        ("I always keep the dev server running", "The user always keeps the dev server running"),
        ("I always run migrations by hand", "The user always runs migrations by hand"),
        # the same practice asked of Claude converges with the order ("always use pnpm")
        ("I always use pnpm", "Always use pnpm"),
    ],
)
def test_the_users_own_habit_stays_theirs(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


# Asking to be asked when something is unclear, said to hold on: one preference, in any
# language, one claim.
@pytest.mark.parametrize(
    "text",
    [
        "分からないことがあればいつも聞いてください",
        "以后如果不确定，请先问我",
        "앞으로 모르는 게 있으면 물어봐",
        "wenn du unsicher bist, frag mich immer",
        "When in doubt, ask me first.",
        # closing a request, said to hold on
        "このページを追加してください。分からないことがあればいつも聞いてください。",
    ],
)
def test_ask_when_unsure_in_any_language(text: str) -> None:
    claims = [(c.claim, c.kind) for c in extract_claims(text)]
    assert ("Ask the user when something is unclear", "preference") in claims


@pytest.mark.parametrize(
    "text",
    [
        "增加一个 alias；有不清楚的问我",  # how to do this piece of work
        "Add the login page. If anything is unclear, ask me.",
        "分からないところがあったら必ず質問してください",  # 必ず stresses this request
        "如果构建失败，请先问我",  # a case of this work
        "分からないことがあればいつも聞いてもいいですか？",  # a question
    ],
)
def test_ask_when_unsure_not_said_to_hold_on_is_this_requests(text: str) -> None:
    assert extract_claims(text) == []


# A list asked to be kept in CLAUDE.md, in another language: each item is one of the person's
# rules or facts, read by the language rules or kept as written.
def test_a_list_asked_to_be_kept_in_claude_md_keeps_each_item(tmp_path: Path) -> None:
    text = (
        "CLAUDE.mdを作成してください。以下のルールを含めてください：\n"
        "- このプロジェクトはExpressのTODOアプリ\n"
        "- エラーハンドリングは必ず実装する\n"
    )
    want = [
        ("Remember: このプロジェクトはExpressのTODOアプリ", "fact"),
        ("Remember: エラーハンドリングは必ず実装する", "constraint"),
    ]
    assert [(c.claim, c.kind) for c in extract_claims(text)] == want
    # atoms on one mention: the person asked for each to be kept
    atoms = extract_transcript(typed_transcript(tmp_path, text), "proj").atoms
    assert sorted(a["claim"] for a in atoms) == sorted(c for c, _ in want)


@pytest.mark.parametrize(
    "text",
    [
        # a list of this turn's steps, no asking to keep it
        "以下の手順で進めてください：\n- src/ を確認する\n- テストを実行する\n",
        # the asking names no memory file
        "以下のファイルを追加してください：\n- index.html\n- app.js\n",
    ],
)
def test_a_list_not_asked_to_be_kept_gives_nothing(text: str) -> None:
    assert extract_claims(text) == []


def test_a_short_list_asked_to_be_kept_is_kept_not_read_as_steps(tmp_path: Path) -> None:
    text = (
        "Please update CLAUDE.md with the following:\n"
        "- The backend is a FastAPI app under api/\n"
        "- Never commit .env files\n"
    )
    want = ["The backend is a FastAPI app under api/", "Never commit .env files"]
    assert [c.claim for c in extract_claims(text)] == want
    atoms = extract_transcript(typed_transcript(tmp_path, text), "proj").atoms
    assert sorted(a["claim"] for a in atoms) == sorted(want)
    # the same list after a request naming a file of the code is that request's steps
    steps = text.replace("CLAUDE.md with the following", "watch.js to")
    assert extract_claims(steps) == []


def test_a_long_paragraph_naming_claude_md_is_no_asking_to_keep_a_list() -> None:
    # an asking is one short line; a paragraph that mentions CLAUDE.md and a colon is somebody's
    paragraph = "CLAUDE.mdの説明です。" * 30 + "以下のルールを含めてください："
    assert extract_claims(paragraph + "\n- エラーハンドリングは必ず実装する\n") == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # asked to be written into memory, what it is to say after "saying" / "where" / "that says"
        ("add a line to your memory saying the staging db is read-only", "The staging db is read-only"),
        ("put something in CLAUDE.md that says the tests run in docker", "The tests run in docker"),
        # a case and its rule, asked to be kept (said plainly, "when you …, …" is as often this turn's)
        ("remember: when you deploy, run the smoke tests", "When you deploy, run the smoke tests"),
        ("from now on, when you add an endpoint, document it in docs/api.md",
         "When you add an endpoint, document it in docs/api.md"),
    ],
)  # fmt: skip
def test_what_memory_is_asked_to_say(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


@pytest.mark.parametrize(
    "text",
    [
        "remember where the config lives",  # once kept as the fact "Where the config lives"
        "remember how the cache works",
        "when you deploy, run the smoke tests",  # not asked to be kept
        "have something in the README about setup",  # no memory named
    ],
)
def test_a_thing_pointed_at_or_a_case_not_asked_to_keep_gives_nothing(text: str) -> None:
    assert extract_claims(text) == []


# "Remember the following. <statement>": the asking said first, as a sentence of its own, keeps
# the one statement after it (it was dropped: read alone, the short fact scored under the gate).
REMEMBERED_AFTER = [
    ("Please remember the following. Tests run with pytest.", "Tests run with pytest", "fact.tool_run"),
    ("Save this in your memory. We deploy with Fly.io.", "We deploy with Fly.io", "fact.we_verb"),
    ("今後のために覚えておいてください。テストはpytestで実行します。", "Remember: テストはpytestで実行します",
     "language.ja_remember"),
    ("以下を覚えておいて。テストはdocker内で実行する。", "Remember: テストはdocker内で実行する", "language.ja_remember"),
    ("请记住以下内容。我们用 pnpm，不用 npm。", "Remember: 我们用 pnpm，不用 npm", "language.zh_remember"),
    ("Запомни следующее. Мы деплоим через docker.", "Remember: Мы деплоим через docker", "language.ru_remember"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "claim", "rule"), REMEMBERED_AFTER)
def test_an_opening_remember_the_following_keeps_the_statement_after_it(text: str, claim: str, rule: str) -> None:
    found = [(c.claim, c.rule) for c in extract_claims(text)]
    assert found == [(claim, rule)]
    assert durability.gate(text, claim, rule) == durability.KEEP


@pytest.mark.parametrize(
    "text",
    [
        "Remember this. Does it work?",  # a question after it is no thing to keep
        "Remember this. Now fix the bug.",  # a step of this work, as "remember: fix the bug" is
    ],
)
def test_what_follows_an_opening_asking_must_be_a_statement_to_keep(text: str) -> None:
    assert extract_claims(text) == []


def test_with_more_than_one_statement_after_it_none_is_kept_on_one_mention() -> None:
    """Which of them the asking means is not said: each is left to the gate as if unasked."""
    text = "Please remember the following. Tests run with pytest. Deploys go through Fly.io."
    assert led_by_remember(text) == text
    claim = "Tests run with pytest"
    assert claim in [c.claim for c in extract_claims(text)]
    assert durability.gate(text, claim, "fact.tool_run") != durability.KEEP


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # when the thing is to be used is no part of it (it was "Tests run with pytest for next time")
        ("Remember for next time: tests run with pytest.", "Tests run with pytest"),
        ("Remember for later: we deploy with Fly.io.", "We deploy with Fly.io"),
        # said to be kept for later, as "remember" says (it was pending: an atom only when said again)
        ("For future reference, the staging DB is on port 5433.", "The staging DB is on port 5433"),
        ("Note for the future: tests run with pytest.", "Tests run with pytest"),
    ],
)
def test_kept_for_later_says_when_not_what(text: str, claim: str) -> None:
    found = [c for c in extract_claims(text)]
    assert [c.claim for c in found] == [claim]
    assert durability.gate(text, claim, found[0].rule) == durability.KEEP


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("我们的测试用pytest跑。记录到记忆里。", "Remember: 我们的测试用pytest跑"),  # the asking after it
        ("记到你的记忆里：部署用 fly.io。", "Remember: 部署用 fly.io"),  # "your memory" before the rule
        ("请记录到你的记忆中：部署用 fly.io。", "Remember: 部署用 fly.io"),
        ("Notiere dir, dass wir pnpm verwenden.", "Remember: wir pnpm verwenden"),  # note for yourself
        # (read as German by its asking alone: no other word of the sentence said so)
        ("Speicher dir das: wir deployen mit Fly.io.", "Remember: wir deployen mit Fly.io"),
        ("Guarde na memória: usamos pnpm, não npm.", "Remember: usamos pnpm, não npm"),
    ],
)
def test_more_ways_to_ask_for_memory(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # was the rule "That the prod DB is read-only"
        ("Always remember that the prod DB is read-only.", "The prod DB is read-only"),
        # was nothing
        ("Don't forget that we use pnpm.", "Use pnpm"),
        ("Do not forget that the API is rate limited to 100 requests per minute.",
         "The API is rate limited to 100 requests per minute"),
        # "always remember to …" stays the standing step it was
        ("Always remember to run the linter.", "Always remember to run the linter"),
    ],
)
def test_always_remember_and_dont_forget_that_ask_to_keep(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


def test_dont_forget_to_is_still_a_step_of_this_work() -> None:
    assert extract_claims("Don't forget to run the tests.") == []
