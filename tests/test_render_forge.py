"""A claim in a memory file renders on a forge as the text it is (render.literal): inline HTML
(`<!-- -->`, `<details>`, `<img>`), an entity (`&amp;`), a link or a block quote, emphasis,
GFM strikethrough (`~~old~~`) or a block opened by the claim (`# `, `- `, `1. `, `---`) would
show a reviewer something else than what Claude reads, in the file view and in a pull
request's rich diff. Rendered here as CommonMark with HTML on (markdown-it-py, as the forge's
renderer would; with its strikethrough and table rules for GFM), through the real CLI, `git
commit` with the installed hooks and the Claude Code hook command. Files written before the
escape are read as ever, until the next write re-renders them."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import git
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from sessions import gm, gm_json
from test_hooks import global_repo, hook, l2

from agent_memory.cli.ids import resolve
from agent_memory.committed.adopted_log import LogEntry, format_entry
from agent_memory.committed.files import atom_of_line
from agent_memory.committed.render import (
    claim_forms,
    context_claim,
    file_claim,
    inert,
    literal,
    one_line,
)
from agent_memory.model.atom import atom_id
from agent_memory.model.errors import AmbiguousError
from agent_memory.redact import guard

CLAIM = "Fold long CI logs in <details> blocks, never <!-- hidden --> notes; write &amp; for an ampersand"
# What the file holds for it: a backslash where CommonMark would act, nothing else changed.
FILE_FORM = "Fold long CI logs in \\<details> blocks, never <\\!-- hidden --\\> notes; write \\&amp; for an ampersand"
# What Claude is given at session start: the claim (its comment escaped as ever, render.inert).
CONTEXT_FORM = "Fold long CI logs in <details> blocks, never <\\!-- hidden --\\> notes; write &amp; for an ampersand"
# Each rendered by the renderer before render.literal: how a file written then reads.
OLD_FORM = CONTEXT_FORM
# Rendered HTML of markdown a forge would not show as text.
NOT_TEXT = {"html_inline", "html_block", "link_open", "image", "blockquote_open", "em_open", "strong_open"}


def forge() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True})


def inline_tokens(markdown: str, md: MarkdownIt | None = None) -> list[Any]:
    out = []
    for token in (md or forge()).parse(markdown):
        out.append(token)
        out += token.children or []
    return out


def shown_text(markdown: str, md: MarkdownIt | None = None) -> str:
    """The characters a reader of the rendered markdown sees (entities decoded)."""
    return "".join(t.content if t.type == "text" else t.markup + t.content + t.markup
                   for t in inline_tokens(markdown, md) if t.type in ("text", "code_inline"))


def item_line(path: Path, needle: str) -> str:
    [line] = [line for line in path.read_text("utf-8").splitlines() if needle in line]
    return line


# --- the escape itself ------------------------------------------------------------------------


def test_the_claim_is_written_with_a_backslash_where_markdown_would_act() -> None:
    assert file_claim(CLAIM) == FILE_FORM
    assert context_claim(CLAIM) == CONTEXT_FORM
    html = forge().render(f"- {FILE_FORM}\n")
    assert "<details>" not in html and "&lt;details&gt;" in html
    assert "&amp;amp;" in html  # the forge shows `&amp;`, not `&`
    assert "&lt;!-- hidden --&gt;" in html
    # before the escape, a forge showed the block as HTML and the entity as `&`
    old = forge().render(f"- {OLD_FORM}\n")
    assert "<details>" in old and "&amp;amp;" not in old


@pytest.mark.parametrize("claim", [
    "Use <sub>tiny</sub> text", "<img src=x onerror=alert(1)>", "See <a href=\"https://x\">docs</a>",
    "Mail <ops@example.com> first", "Mail <1@a> or <=x@y> or <x.y+z@example.com>", "Link <https://example.com>", "Close with </details> then",
    "Entities &#38; &#x26; &copy; show as text", "![badge](https://example.com/b.svg) in README",
    "[docs](https://example.com) or [docs][ref]", "> quoted, not a claim", "[x]: https://example.com",
    "[ ] a task box",
])  # fmt: skip
def test_no_claim_renders_as_markup_on_a_forge(claim: str) -> None:
    tokens = inline_tokens(f"- {file_claim(claim)}\n")
    assert not [t.type for t in tokens if t.type in NOT_TEXT]
    assert shown_text(f"- {file_claim(claim)}\n") == one_line(claim)


@pytest.mark.parametrize(("claim", "written"), [
    ("Define __init__ before __repr__", "Define \\_\\_init\\_\\_ before \\_\\_repr\\_\\_"),
    ("Accept *args and **kwargs", "Accept \\*args and \\*\\*kwargs"),
    ("Keep _private_ helpers in _impl.py", "Keep \\_private\\_ helpers in \\_impl.py"),
    ("super().__init__(*args, **kwargs) first", "super().\\_\\_init\\_\\_(\\*args, \\*\\*kwargs) first"),
    ("2*x*y, not 2 * x * y", "2\\*x\\*y, not 2 * x * y"),
    ("* a claim opening with a star", "\\* a claim opening with a star"),
    ("my_var_ and __dunder__ in snake_case", "my_var\\_ and \\_\\_dunder\\_\\_ in snake_case"),
])  # fmt: skip
def test_emphasis_markers_are_shown_as_typed(claim: str, written: str) -> None:
    assert file_claim(claim) == written
    markdown = f"- {written}\n"
    tokens = inline_tokens(markdown)
    assert not [t.type for t in tokens if t.type in NOT_TEXT]
    assert [t.type for t in tokens].count("bullet_list_open") == 1  # no nested list either
    assert shown_text(markdown) == claim
    # as the version before this escape wrote it, a forge showed emphasis (the markers gone)
    # or a nested list; `*args and **kwargs` alone pairs with nothing, yet is escaped
    before = literal(claim, emphasis=False, tildes_and_blocks=False)
    assert before == claim and before in claim_forms(claim)
    if claim != "Accept *args and **kwargs":
        assert shown_text(f"- {before}\n") != claim


# What GFM (strikethrough, tables) renders instead of text, and the blocks a list item's line
# could open (a nested list is told by counting `bullet_list_open`).
NOT_A_LINE = {"s_open", "heading_open", "ordered_list_open", "hr", "fence", "code_block", "table_open"}


def gfm() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}).enable(["strikethrough", "table"])


def gfm_tokens(markdown: str) -> list[Any]:
    return inline_tokens(markdown, gfm())


def gfm_text(markdown: str) -> str:
    return shown_text(markdown, gfm())


def assert_one_line_of_text(written: str, claim: str) -> None:
    """`- written` renders on a GFM forge as one list item showing `claim`, nothing else."""
    tokens = gfm_tokens(f"- {written}\n")
    assert not [t.type for t in tokens if t.type in NOT_TEXT | NOT_A_LINE], written
    assert [t.type for t in tokens].count("bullet_list_open") == 1, written  # no nested list
    assert gfm_text(f"- {written}\n") == claim


# (claim, as the file writes it, what the version before this escape made of it on a forge:
# a token, or None where markdown-it cannot tell — it strikes `~~` only, GitHub also `~`)
STRUCK_AND_BLOCKS = [
    ("~~old~~ flags are gone", "\\~\\~old\\~\\~ flags are gone", "s_open"),
    ("Write ~~deprecated~~ in the changelog", "Write \\~\\~deprecated\\~\\~ in the changelog", "s_open"),
    ("Use ~single~ tildes", "Use \\~single\\~ tildes", None),
    ("Takes 350~500 ms, then 1~2 s", "Takes 350\\~500 ms, then 1\\~2 s", None),
    ("Edit ~/x/ or foo~ first", "Edit \\~/x/ or foo\\~ first", None),
    ("~~~a~~ after a fence", "\\~\\~\\~a\\~\\~ after a fence", None),
    ("# Setup runs first", "\\# Setup runs first", "heading_open"),
    ("###### six hashes", "\\###### six hashes", "heading_open"),
    ("#", "\\#", "heading_open"),
    ("- a nested bullet", "\\- a nested bullet", "bullet_list_open"),
    ("+ a plus bullet", "\\+ a plus bullet", "bullet_list_open"),
    ("-", "\\-", "bullet_list_open"),
    ("1. Run the tests", "1\\. Run the tests", "ordered_list_open"),
    ("1) Run the tests", "1\\) Run the tests", "ordered_list_open"),
    ("2024. was the year of the rewrite", "2024\\. was the year of the rewrite", "ordered_list_open"),
    ("1.", "1\\.", "ordered_list_open"),
    ("---", "\\---", "hr"),
    ("--", "\\--", "hr"),  # `- --`: the item's `-` makes three
    ("- - -", "\\- - -", "hr"),
    ("_ _ _", "\\_ _ _", "hr"),
    ("___", "\\_\\_\\_", "hr"),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "written", "markup"), STRUCK_AND_BLOCKS)
def test_strikethrough_and_a_leading_block_marker_are_shown_as_typed(
    claim: str, written: str, markup: str | None
) -> None:
    assert file_claim(claim) == written
    assert_one_line_of_text(written, claim)
    assert literal(written) == written  # nothing is escaped twice
    # the version before this escape wrote the claim as typed (or with the fence's backslash):
    # its form is still read (claim_forms), and a forge showed struck text or a block
    before = literal(inert(one_line(claim)), tildes_and_blocks=False)
    assert before != written and before in claim_forms(claim) and claim_forms(claim)[0] == written
    if markup is not None:
        types = [t.type for t in gfm_tokens(f"- {before}\n")]
        assert markup in types and (markup != "bullet_list_open" or types.count(markup) == 2), types


# Each claim leaves what cannot act as typed (the first part) next to what can (the escape that
# follows): a lone `~` (paths, "about"), a `#` without a space, seven `#`, a marker without its
# space, a number too long for a list, `|` (a table needs a second line), a code span.
LEFT_AS_TYPED = [
    ("# Keep ~/dotfiles and ~/.config in sync", "\\# Keep ~/dotfiles and ~/.config in sync"),
    ("- about ~5 min; a ~ b and a ~~ b", "\\- about ~5 min; a ~ b and a ~~ b"),
    ("#hashtag and #1, not ~~struck~~", "#hashtag and #1, not \\~\\~struck\\~\\~"),
    ("####### seven, not ~~struck~~", "####### seven, not \\~\\~struck\\~\\~"),
    ("-x, +1 and *p stay; ~a~ not", "-x, +1 and \\*p stay; \\~a\\~ not"),
    ("1.5x faster, not ~~2x~~", "1.5x faster, not \\~\\~2x\\~\\~"),
    ("1234567890. ten digits, not ~~x~~", "1234567890. ten digits, not \\~\\~x\\~\\~"),
    ("| a | b | not ~~x~~", "| a | b | not \\~\\~x\\~\\~"),
    ("--- and more, not ~~x~~", "--- and more, not \\~\\~x\\~\\~"),
    ("`~~code~~` stays, ~~x~~ not", "`~~code~~` stays, \\~\\~x\\~\\~ not"),
    ("1. Copy ~/.ssh/config then ~/.gitconfig", "1\\. Copy ~/.ssh/config then ~/.gitconfig"),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "written"), LEFT_AS_TYPED)
def test_only_tildes_and_markers_that_would_act_are_escaped(claim: str, written: str) -> None:
    assert file_claim(claim) == written
    assert_one_line_of_text(written, claim)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="~#-+*_1.)|` ax", max_size=30))
def test_a_gfm_forge_shows_any_claim_as_one_line_of_text(claim: str) -> None:
    """From the claim's first character on: what opens a block, and tildes."""
    written = file_claim(claim)
    assert literal(written) == written
    tokens = gfm_tokens(f"- {written}\n")
    assert not [t.type for t in tokens if t.type in NOT_TEXT | NOT_A_LINE], written
    assert [t.type for t in tokens].count("bullet_list_open") == 1, written
    # a code span drops the spaces at its ends; a forge shows every other character
    assert gfm_text(f"- {written}\n").replace(" ", "") == one_line(claim).replace(" ", "")


def guard_rules(line: str) -> set[str]:
    return {f.rule for f in guard.scan_text("CLAUDE.memory.md", line + "\n")}


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["~", "~~", "make", "bob", "/", "\\", " ", "*", "_", "<b>", "](", "#", "1."]),
                max_size=10).map("".join))  # fmt: skip
def test_the_file_s_backslashes_add_no_guard_finding(claim: str) -> None:
    """The guard judges the file's line (and the session start's, committed/guarded.py): a
    backslash the file adds (`\\~\\~make\\~\\~`, `~make\\*`) must not read as a home path's
    separator, or a claim the guard accepts would be refused for its escapes."""
    assert guard_rules(f"- {file_claim(claim)}") <= guard_rules(f"- {context_claim(claim)}")


@pytest.mark.parametrize("claim", [
    "Return `Vec<String>` from parsers", "a < b and x<=y, R&D, & then", "``code with ` <b> inside``",
    "C:\\Users\\dev\\<b> stays", "tokens like a&b;c", "snake_case_names and x_1, y_2 stay", "a * b * c",
    "Return `__init__` and `*args` as code",
])  # fmt: skip
def test_only_what_markdown_would_act_on_is_escaped(claim: str) -> None:
    written = file_claim(claim)
    assert shown_text(f"- {written}\n").replace("\\", "") == one_line(claim).replace("\\", "")
    assert not [t.type for t in inline_tokens(f"- {written}\n") if t.type in NOT_TEXT]
    if "`" in claim and "<b>" not in claim:
        assert written == claim  # a code span is shown as it is: nothing added in it
    if "<" not in claim.replace("<=", "").replace("< ", "") and "&" not in claim.replace("& ", ""):
        assert written == claim  # `snake_case`, `a * b`: no emphasis could open there


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="<>&#;[]()!/:@=.` ab1x-_*", max_size=40))
def test_a_forge_shows_every_character_of_the_claim(tail: str) -> None:
    claim = "a " + tail  # a claim opening with a letter: its leading forms are tested above
    # render.inert writes `<\!--`, `--\>`, `\@` also inside a code span, where a forge shows
    # the backslash (the client's escapes come first): those are not this escape's to show
    assume(not ("`" in claim and ("--" in claim or "@" in claim)))
    markdown = f"- {file_claim(claim)}\n"
    assert not [t.type for t in inline_tokens(markdown) if t.type in NOT_TEXT]
    assert shown_text(markdown).replace(" ", "") == claim.replace(" ", "")


@given(st.text(alphabet="<>&#;[]()!/:@`\\ ab-_*", max_size=30))
@settings(max_examples=300, deadline=None)
def test_the_escape_is_kept_once_and_its_forms_are_the_claim_s(claim: str) -> None:
    written = file_claim(claim)
    assert literal(written) == written  # nothing is escaped twice
    assert not [t.type for t in inline_tokens(f"- {written}\n") if t.type in NOT_TEXT - {"blockquote_open"}]
    forms = claim_forms(claim)
    assert forms[0] == written and context_claim(claim) in forms and one_line(claim) in forms


def test_the_guard_names_the_atom_of_a_line_in_either_rendering() -> None:
    atom = l2(CLAIM)
    log = format_entry(LogEntry(op="adopt", atom=atom, at=atom["promoted_at"]))  # type: ignore[arg-type]
    for form in (FILE_FORM, OLD_FORM):
        assert atom_of_line(log, f"- {form}") == atom["id"]
        assert atom_of_line(log, f"- [contested — newer evidence 2026-11-02] {form}") == atom["id"]
    assert atom_of_line(log, f"- {FILE_FORM.replace('hidden', 'shown')}") is None


def test_a_line_copied_from_the_file_names_its_atom() -> None:
    claims = {"atm_00000001": "Use <b> tags", "atm_00000002": "Use b tags in <b> mode"}
    assert resolve("Use \\<b> tags", claims) == "atm_00000001"  # as CLAUDE.memory.md shows it
    assert resolve("use <b> tags", claims) == "atm_00000001"
    with pytest.raises(AmbiguousError):
        resolve("use b tags", claims)


def test_a_long_hand_written_claim_is_read_in_one_pass() -> None:
    """Every held claim's forms are computed at session start (committed/reviewed.py), a
    hand-written log line's too: backtick runs of a thousand distinct lengths took ~30 s."""
    claim, length = "", 1
    while len(claim) < 800_000:
        claim += "`" * length + "a<b>"
        length += 1
    started = time.monotonic()
    written = literal(claim)
    assert time.monotonic() - started < 5
    assert written.count("\\<b>") == length - 1  # no run is closed: every `<b>` is outside code


# --- through the CLI, the installed hooks and the session start --------------------------------


def adopt_claim(repo: Path, claim: str, *flags: str) -> str:
    ident: str = gm_json(repo, "remember", *flags, claim)["id"]
    gm(repo, "adopt", *flags, "--yes", ident)
    return ident


def shown_atoms(repo: Path, tier: str) -> dict[str, dict[str, Any]]:
    return {a["id"]: a for a in gm_json(repo, "show", "--tier", tier)["atoms"]}


def shown_claims(repo: Path, tier: str) -> dict[str, str]:
    return {ident: a["claim"] for ident, a in shown_atoms(repo, tier).items()}


def assert_read_back(repo: Path, ident: str, block_file: Path, tier: str) -> None:
    assert shown_claims(repo, tier)[ident] == CLAIM
    status = gm_json(repo, "status")
    assert status[tier]["not_in_block"] == [] and status[tier]["not_in_log"] == [], status[tier]
    assert gm(repo, "validate", check=False).returncode == 0, gm(repo, "validate", check=False).stdout
    assert gm(repo, "scan", check=False).returncode == 0
    context = hook("session-start", repo)
    assert context is not None and f"- {CONTEXT_FORM}" in context, context
    assert "\\<details>" not in context and "\\&amp;" not in context
    assert gm_json(repo, "context")["context"] == context
    assert block_file.exists()


def test_a_claim_with_html_is_adopted_committed_and_read_back_as_its_text(repo: Path) -> None:
    gm(repo, "init", "--yes")
    ident = adopt_claim(repo, CLAIM)
    path = repo / "CLAUDE.memory.md"
    assert item_line(path, "Fold long CI logs") == f"- {FILE_FORM}"
    # the adopt commit went through the installed guard, and left nothing uncommitted
    assert gm(repo, "status", check=False).returncode == 0
    assert not [t.type for t in inline_tokens(path.read_text("utf-8")) if t.type in NOT_TEXT - {"html_block"}]
    # the only HTML left in the file is our markers and notes: whole-line comments
    html_blocks = [t.content for t in inline_tokens(path.read_text("utf-8")) if t.type == "html_block"]
    assert all(line.startswith("<!--") for block in html_blocks for line in block.splitlines()), html_blocks
    assert CLAIM in shown_text(path.read_text("utf-8")).replace("\n", "")
    assert ident == atom_id(CLAIM, shown_atoms(repo, "L2")[ident]["project"])  # the claim's id, not the line's
    assert_read_back(repo, ident, path, "L2")
    # forget takes the line as the file shows it (copied from CLAUDE.memory.md) for that atom
    assert f"forgot {ident}" in gm(repo, "forget", FILE_FORM).stdout.replace("Forgot", "forgot")
    assert "Fold long CI logs" not in path.read_text("utf-8")


def test_the_global_persona_file_writes_the_claim_the_same_way(repo: Path) -> None:
    gm(repo, "init", "--yes")
    ident = adopt_claim(repo, CLAIM, "--global")
    path = global_repo() / "CLAUDE.memory.md"
    assert item_line(path, "Fold long CI logs") == f"- {FILE_FORM}"
    assert shown_claims(repo, "L3")[ident] == CLAIM
    status = gm_json(repo, "status")
    assert status["L3"]["not_in_block"] == [] and status["L3"]["not_in_log"] == [], status["L3"]
    context = hook("session-start", repo)
    assert context is not None and f"- {CONTEXT_FORM}" in context, context


# --- emphasis markers, through the CLI ----------------------------------------------------------

EMPHASIS_CLAIM = "Call super().__init__(*args, **kwargs) in <details> subclasses; keep _private_ helpers"
EMPHASIS_FILE = ("Call super().\\_\\_init\\_\\_(\\*args, \\*\\*kwargs) in \\<details> subclasses; keep "
                 "\\_private\\_ helpers")  # fmt: skip
# What the version before the emphasis escape wrote: `\<details>` escaped, the markers not.
EMPHASIS_BEFORE = "Call super().__init__(*args, **kwargs) in \\<details> subclasses; keep _private_ helpers"


def assert_typed_read_back(repo: Path, ident: str, claim: str, escapes: tuple[str, ...]) -> None:
    """`claim` reads back as typed everywhere: status and validate agree with the block, scan
    passes, and the session start and `context` give it without the file's escapes."""
    assert shown_claims(repo, "L2")[ident] == claim
    status = gm_json(repo, "status")
    assert status["L2"]["not_in_block"] == [] and status["L2"]["not_in_log"] == [], status["L2"]
    report = gm_json(repo, "validate", check=False)
    assert report["ok"] is True and report["errors"] == [], report
    assert gm(repo, "scan", check=False).returncode == 0
    context = hook("session-start", repo)
    assert context is not None and f"- {claim}" in context, context
    assert not [e for e in escapes if e in context]
    assert gm_json(repo, "context")["context"] == context


def assert_emphasis_read_back(repo: Path, ident: str) -> None:
    assert_typed_read_back(repo, ident, EMPHASIS_CLAIM, ("\\_", "\\*"))


def test_a_claim_with_emphasis_markers_is_adopted_and_read_back_as_typed(repo: Path) -> None:
    gm(repo, "init", "--yes")
    ident = adopt_claim(repo, EMPHASIS_CLAIM)
    assert ident == atom_id(EMPHASIS_CLAIM, shown_atoms(repo, "L2")[ident]["project"])
    path = repo / "CLAUDE.memory.md"
    assert item_line(path, "Call super()") == f"- {EMPHASIS_FILE}"
    assert git(repo, "status", "--porcelain") == ""  # committed through the installed guard
    text = path.read_text("utf-8")
    assert not [t.type for t in inline_tokens(text) if t.type in NOT_TEXT - {"html_block"}]
    assert EMPHASIS_CLAIM in shown_text(text).replace("\n", "")
    assert_emphasis_read_back(repo, ident)
    # the line as the file shows it names its atom
    assert gm_json(repo, "inspect", "--why", EMPHASIS_FILE)["atom"]["id"] == ident
    assert f"forgot {ident}" in gm(repo, "forget", EMPHASIS_FILE).stdout.replace("Forgot", "forgot")


# --- strikethrough and a leading block marker, through the CLI --------------------------------

BLOCKS_CLAIM = "1. Run ~~make~~ the helpers before <details> merges; keep ~5 min timeouts"
BLOCKS_FILE = "1\\. Run \\~\\~make\\~\\~ the helpers before \\<details> merges; keep ~5 min timeouts"
# What the version before this escape wrote: `\<details>` escaped, the list marker and tildes not.
BLOCKS_BEFORE = "1. Run ~~make~~ the helpers before \\<details> merges; keep ~5 min timeouts"


def assert_blocks_read_back(repo: Path, ident: str) -> None:
    assert_typed_read_back(repo, ident, BLOCKS_CLAIM, ("\\~", "1\\."))


def test_the_forms_of_a_struck_or_block_claim_name_its_atom() -> None:
    atom = l2(BLOCKS_CLAIM)
    assert file_claim(BLOCKS_CLAIM) == BLOCKS_FILE and BLOCKS_BEFORE in claim_forms(BLOCKS_CLAIM)
    log = format_entry(LogEntry(op="adopt", atom=atom, at=atom["promoted_at"]))  # type: ignore[arg-type]
    for form in (BLOCKS_FILE, BLOCKS_BEFORE):
        assert atom_of_line(log, f"- {form}") == atom["id"]
        assert atom_of_line(log, f"- [contested — newer evidence 2026-11-02] {form}") == atom["id"]
    assert atom_of_line(log, f"- {BLOCKS_FILE.replace('helpers', 'code')}") is None
    assert resolve(BLOCKS_FILE, {"atm_00000001": BLOCKS_CLAIM, "atm_00000002": "Run make"}) == "atm_00000001"


def test_a_struck_claim_opening_with_a_list_marker_is_adopted_and_read_back_as_typed(repo: Path) -> None:
    gm(repo, "init", "--yes")
    ident = adopt_claim(repo, BLOCKS_CLAIM)
    assert ident == atom_id(BLOCKS_CLAIM, shown_atoms(repo, "L2")[ident]["project"])
    path = repo / "CLAUDE.memory.md"
    assert item_line(path, "helpers before") == f"- {BLOCKS_FILE}"
    assert git(repo, "status", "--porcelain") == ""  # committed through the installed guard
    assert_one_line_of_text(BLOCKS_FILE, BLOCKS_CLAIM)
    text = path.read_text("utf-8")
    types = [t.type for t in gfm_tokens(text)]
    assert not [t for t in types if t in (NOT_TEXT | NOT_A_LINE) - {"html_block", "heading_open"}], types
    assert types.count("bullet_list_open") == 1  # the block's one list: no item nested in it
    assert BLOCKS_CLAIM in gfm_text(text).replace("\n", "")
    assert_blocks_read_back(repo, ident)
    # the line as the file shows it names its atom
    assert gm_json(repo, "inspect", "--why", BLOCKS_FILE)["atom"]["id"] == ident
    assert f"forgot {ident}" in gm(repo, "forget", BLOCKS_FILE).stdout.replace("Forgot", "forgot")


def _html_read_back(repo: Path, ident: str) -> None:
    assert_read_back(repo, ident, repo / "CLAUDE.memory.md", "L2")


# A file an earlier version rendered (before render.literal; before it escaped emphasis markers;
# before it escaped strikethrough tildes and a leading block marker):
# the claim, its line now, its line then, the words its line starts with, how it is read back.
EARLIER_RENDERINGS = [
    pytest.param(CLAIM, FILE_FORM, OLD_FORM, "Fold long CI logs", _html_read_back, id="before-literal"),
    pytest.param(EMPHASIS_CLAIM, EMPHASIS_FILE, EMPHASIS_BEFORE, "Call super()", assert_emphasis_read_back,
                 id="before-emphasis"),
    pytest.param(BLOCKS_CLAIM, BLOCKS_FILE, BLOCKS_BEFORE, "helpers before", assert_blocks_read_back,
                 id="before-tildes-and-blocks"),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "now", "before", "anchor", "read_back"), EARLIER_RENDERINGS)
def test_a_file_an_earlier_version_wrote_is_read_the_same_until_the_next_write(
    repo: Path, claim: str, now: str, before: str, anchor: str, read_back: Callable[[Path, str], None]
) -> None:
    gm(repo, "init", "--yes")
    ident = adopt_claim(repo, claim)
    path = repo / "CLAUDE.memory.md"
    path.write_text(path.read_text("utf-8").replace(now, before), "utf-8")
    assert item_line(path, anchor) == f"- {before}"
    gm(repo, "scan", "CLAUDE.memory.md")
    assert gm(repo, "validate", check=False).returncode == 1  # uncommitted: differs from HEAD
    git(repo, "commit", "-q", "-am", "memory as an older agent-memory rendered it")  # the installed guard
    read_back(repo, ident)
    assert item_line(path, anchor) == f"- {before}"  # read, not rewritten
    # the next write is no refusal ("edited by hand?"): it re-renders the whole block
    other = adopt_claim(repo, "Run the linters before every push")
    assert item_line(path, anchor) == f"- {now}"
    assert set(shown_claims(repo, "L2")) == {ident, other}
    read_back(repo, ident)


@pytest.mark.parametrize(("claim", "now", "before", "anchor", "read_back"), EARLIER_RENDERINGS)
def test_a_hand_edit_is_still_told_from_an_earlier_rendering(
    repo: Path, claim: str, now: str, before: str, anchor: str, read_back: Callable[[Path, str], None]
) -> None:
    gm(repo, "init", "--yes")
    adopt_claim(repo, claim)
    path = repo / "CLAUDE.memory.md"
    edited = before.replace("hidden", "shown").replace("helpers", "code")
    assert edited != before
    path.write_text(path.read_text("utf-8").replace(now, edited), "utf-8")
    git(repo, "commit", "-q", "--no-verify", "-am", "a hand edit")
    proc = gm(repo, "remember", "Tag releases from main", check=False)
    assert proc.returncode == 1 and "edited by hand" in proc.stderr, proc.stdout + proc.stderr
    assert gm(repo, "validate", check=False).returncode == 1
