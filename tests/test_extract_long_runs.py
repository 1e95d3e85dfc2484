"""Statements holding a long run of one character (a terminal paste padded with blanks, a ruler,
a wall of blank lines): the rules read them with the run bounded, so their time stays linear
in the statement's length (benchmarks/pathological.py measures it; no timing is asserted here)."""

from __future__ import annotations

from agent_memory.extract.paste import marks
from agent_memory.extract.prepare import MAX_BLANKS, MAX_BREAKS, bounded_runs, prepared
from agent_memory.extract.rules.languages import language_claims
from agent_memory.extract.statement import extract_claims
from agent_memory.extract.text import sentences

_RULE = "Always run the linter before you commit"
_FACT = "we deploy the docs site with netlify."


def test_a_padded_statement_is_read_as_the_same_statement_with_a_short_run() -> None:
    padded = f"{_RULE}{' ' * 3000}and {_FACT}"
    short = f"{_RULE}{' ' * MAX_BLANKS}and {_FACT}"
    # the rules see the bounded text, not the 3,000 blanks
    assert prepared(padded) == prepared(short)
    assert " " * (MAX_BLANKS + 1) not in prepared(padded)[0]
    assert extract_claims(padded) == extract_claims(short)
    assert extract_claims(padded)


def test_runs_of_tabs_odd_blanks_and_blank_lines_are_bounded() -> None:
    text = f"{_RULE}.{chr(9) * 500}{chr(0x3000) * 500}\n{'   ' + chr(10)}{chr(10) * 2000}{_FACT}"
    out = bounded_runs(text)
    assert f"{_RULE}.{chr(9) * MAX_BLANKS}\n" in out
    assert out.endswith("\n" * MAX_BREAKS + _FACT)
    assert extract_claims(text) == extract_claims(f"{_RULE}.\n\n{_FACT}")


def test_ordinary_layout_is_left_as_it_is() -> None:
    text = f"{_RULE}:\n\n    indented line\n\tname    value    note{' ' * 20}\n\n\n{_FACT}"
    assert bounded_runs(text) == text


def test_the_paste_detector_reads_padding_before_and_after_the_bound() -> None:
    # Column padding (6+ blanks inside a line) and padding to the terminal's width (20+ at its
    # end) are read on the raw text; the bound keeps more blanks than either threshold, so the
    # bounded text carries the same marks.
    rows = "\n".join(f"svc-{i}{' ' * 400}running{' ' * 600}" for i in range(6))
    assert marks(rows).padded == 6
    assert marks(bounded_runs(rows)).padded == 6
    assert marks(bounded_runs(rows.replace("running", ""))).padded == 6


def test_a_ruler_of_marks_is_split_as_before() -> None:
    said = sentences(f"{_RULE}{'.' * 4000} Then {_FACT}")
    assert len(said) == 2 and said[0].startswith(_RULE) and said[1] == f"Then {_FACT}"


def test_a_tool_after_a_ruler_of_dashes_is_still_read() -> None:
    # the tool name is read where its run of characters starts (not at every dash before it)
    assert language_claims("-" * 5000 + " pnpmを使っています") == [
        ("Uses: pnpmを使っています", "fact", "ja_we_use")
    ]


def test_a_wall_of_backticks_leaves_a_bounded_run_of_line_breaks() -> None:
    # every ``` pair is cut out as a line break; the breaks left are bounded again
    masked, _ = prepared(f"{_RULE}{'`' * 6000} and {_FACT}")
    assert "\n" * (MAX_BREAKS + 1) not in masked
    assert masked.startswith(_RULE) and masked.endswith(f"and {_FACT}")


# Patterns that a caller may search on a whole long text (not only the pipeline's bounded
# clauses). Each test states the structural property that keeps the search linear; the time is
# measured in benchmarks/pathological.py (--patterns), never here.


def test_an_emoticon_tail_is_never_tried_inside_a_run_of_emoji_or_smileys() -> None:
    from agent_memory.extract.text import _EMOTICON_TAIL, tidy

    # a tail starting right after an emoji, a blank or a whole smiley also starts one step
    # earlier: those starts are skipped, so a run is scanned once, from its first character
    assert _EMOTICON_TAIL.match("ok \U0001f600\U0001f600", 4) is None
    assert _EMOTICON_TAIL.match("ok :):)", 5) is None
    assert _EMOTICON_TAIL.match("ok  \U0001f600", 4) is None
    # what sub() removes is unchanged: the whole tail, blanks before it included
    assert _EMOTICON_TAIL.sub("", "Use tabs :) \U0001f600 :-P") == "Use tabs"
    assert _EMOTICON_TAIL.sub("", "Use tabs ^^^") == "Use tabs ^"
    assert tidy("Keep commits small \U0001f600\U0001f600 xD") == "Keep commits small"
    assert tidy(f"Use {chr(0x1F600) * 3000}x for {chr(0x1F600) * 2} y") == (
        f"Use {chr(0x1F600) * 3000}x for {chr(0x1F600) * 2} y"
    )


def test_a_tool_name_is_at_most_64_characters() -> None:
    from agent_memory.extract.rules.lang_user import USER_RULES

    installed = next(p for p, label, _, _ in USER_RULES if label == "Installed")
    assert installed.search("Docker Desktop ist bereits installiert")
    assert installed.search("codex cli는 이미 설치되어있음")
    assert installed.search("OrbStack は インストール済みです")
    # a word longer than any tool's name is not read from a start inside it (each such start
    # scanned to the end of the word: quadratic on a long token)
    assert installed.search("X" + "y" * 70 + " está instalado") is None


def test_the_answer_language_question_look_ahead_is_bounded() -> None:
    from agent_memory.extract.rules.lang_reply import ANSWER_IN

    # fullmatched (its only use) as before: a request, and the same words asked as a question
    assert ANSWER_IN.fullmatch("请用中文回答")
    assert ANSWER_IN.fullmatch("以后都说中文")
    assert not ANSWER_IN.fullmatch("你以后都说中文吗")
    assert ANSWER_IN.fullmatch("日本語で答えてください")
    # the look-ahead for a closing 吗 reads 30 characters, not the rest of a long text
    assert ANSWER_IN.match("以后都说中文" + "。" * 40 + "吗")


def test_a_dotted_tool_name_is_read_up_to_16_parts() -> None:
    import re

    from agent_memory.extract.rules.lang_words import TOOL

    tool = re.compile(TOOL)
    assert tool.match("next.js").group(1) == "next.js"  # type: ignore[union-attr]
    assert tool.match("@scope/pkg.core.v2").group(1) == "@scope/pkg.core.v2"  # type: ignore[union-attr]
    # each part after a dot is a start too: a longer chain is not scanned to its end from each
    assert tool.match("a." * 30 + "a").group(1) == "a." * 15 + "a"  # type: ignore[union-attr]


def test_a_tool_chosen_in_a_cjk_sentence_is_named_in_at_most_64_characters() -> None:
    from agent_memory.extract.rules.lang_choice import _CJK_CHOICE, choice

    assert choice("Vercel AI SDK を使うことにしました") == (
        "Decided: Vercel AI SDK を使うことにしました",
        "decision",
        "choice",
    )
    assert _CJK_CHOICE.search("我们决定用 " + "a" * 60)
    # the name read before を is at most 64 characters, however long the run of Latin words
    # before it: a start inside the run is not scanned to the run's end
    found = _CJK_CHOICE.search("ab cd " * 1000 + "を使うことにした")
    assert found is not None and len(found.group().split("を")[0].strip()) <= 64
    assert _CJK_CHOICE.search("ab cd " * 10 + "を使うことにした").start() == 0  # type: ignore[union-attr]


def test_a_dash_splice_is_read_from_the_first_blank_of_its_run() -> None:
    from agent_memory.extract.standing import _SPLICE, work_spliced

    assert _SPLICE.split("keep ids only  -  check the resolvers, then x") == [
        "keep ids only",
        "check the resolvers",
        "then x",
    ]
    # a dash's blanks are not tried from a blank inside their run (each such try scanned the
    # rest of the run: split() on a long run of blanks was quadratic)
    assert _SPLICE.match("ids   - check", 3)
    assert _SPLICE.match("ids   - check", 4) is None
    assert _SPLICE.match("ids   - check", 5) is None
    assert work_spliced(f"keep ids only{' ' * 3000}- check the resolvers")


def test_what_follows_a_no_is_not_tried_inside_a_run_of_blanks() -> None:
    from agent_memory.extract.rules.lang_choice import _LIST_ITEM, choice
    from agent_memory.extract.rules.lang_negation import (
        BLANK_WORD,
        NO_BEFORE_PLACE,
        NO_SPANISH_NEXT,
    )

    # matched right where a "no" ends, as the callers do
    assert NO_SPANISH_NEXT.match("no  lo toques", 2)
    assert NO_BEFORE_PLACE.match("no  GitHub", 2)
    # never from a blank after another blank: a search is not quadratic on a run of blanks
    assert NO_SPANISH_NEXT.match("no  lo toques", 3) is None
    assert NO_BEFORE_PLACE.match("no  GitHub", 3) is None
    assert NO_SPANISH_NEXT.search(" " * 3000 + "x") is None
    assert BLANK_WORD.match("no  toques", 2)
    assert BLANK_WORD.match("no  toques", 3) is None
    # a list item is matched right after its comma, not from a blank inside the blanks after it
    assert _LIST_ITEM.match("pnpm,  vite", 5)
    assert _LIST_ITEM.match("pnpm,  vite", 6) is None
    assert choice("usaremos pnpm,   vite e sass") == (
        "Decided: usaremos pnpm,   vite e sass",
        "decision",
        "choice",
    )


def test_not_only_is_never_tried_from_inside_a_run_of_blanks() -> None:
    from agent_memory.extract.rules.facts import _NOT_ONLY

    said = "the thumbnails are shown" + " " * 40 + "not only on staging"
    assert _NOT_ONLY.search(said)
    # from the second blank of the run on, no match starts: the run is scanned once, not once
    # per blank
    assert _NOT_ONLY.match(said, said.index(" " * 40) + 1) is None
