"""The L2/L3 marker block: a deterministic rendering of the held atoms.

Shape of a bounded working set: a pinned part (decay-exempt), a recency part (the
rest, newest `last_seen` first), then ONE region line pointing at everything not shown, all
within a byte budget that counts the whole block, markers included. Overflow is never silent
("a memory system that silently drops is worse than none"): the region line states how
many atoms are hidden and the command that lists them.

What is shown is always a *prefix* of (pinned…, recent…): truncation drops the oldest first
(by last_seen, newest kept), and a recent atom is never shown while a pinned one is
hidden. Decayed and superseded atoms are outside the working set and only counted.

The session start renders from here on its cold path (claude/context.py), so the imports at
the top are the clock, the policy and the claim escapes (model/controls.py, model/wrapper.py,
which import nothing): `re`, `json`, `dataclasses` and the template files
are loaded by the functions that need them (the marker-block functions, not the layout).
"""

from __future__ import annotations

from agent_memory.model.checkout import repo_relative
from agent_memory.model.clock import time_key, utc_day
from agent_memory.model.controls import show_controls
from agent_memory.model.policy import L2_BUDGET_BYTES, L3_BUDGET_BYTES
from agent_memory.model.tags import contested_tag
from agent_memory.model.wrapper import escape_wrapper

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Mapping, Sequence

    from agent_memory.model.atom import Atom

L2_BUDGET = L2_BUDGET_BYTES
L3_BUDGET = L3_BUDGET_BYTES
BUDGETS = {"L2": L2_BUDGET, "L3": L3_BUDGET}
TITLES = {"L2": "## Project memory (agent-memory)", "L3": "## Global memory (agent-memory)"}
IMPORT_LINE = "@CLAUDE.memory.md"
PINNED_HEADING = "### Pinned"
RECENT_HEADING = "### Recent"


def _frame() -> list[str]:
    """The block's frame: begin marker, title, the generated-file note, {body}, end marker."""
    from agent_memory.committed.templates import read_template

    return read_template("marker-block.md").splitlines()


def __getattr__(name: str) -> str:
    if name == "GENERATED_NOTE":  # read from the template on first use
        return _frame()[2]
    raise AttributeError(name)


class MalformedBlockError(ValueError):
    """The file's markers for a tier are unbalanced or repeated: no safe place to write."""


class RenderedBlock:
    __slots__ = ("text", "shown", "omitted")

    def __init__(self, text: str, shown: tuple[str, ...], omitted: tuple[str, ...]) -> None:
        self.text = text
        self.shown = shown  # ids, in display order
        self.omitted = omitted  # ids counted in the region line: over budget, decayed, superseded

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RenderedBlock) and (self.text, self.shown, self.omitted) == (
            other.text, other.shown, other.omitted)  # fmt: skip

    def __hash__(self) -> int:
        return hash((self.text, self.shown, self.omitted))

    def __repr__(self) -> str:
        return f"RenderedBlock(text={self.text!r}, shown={self.shown!r}, omitted={self.omitted!r})"


def inspect_command(tier: str) -> str:
    return f"git memory inspect --tier {tier}"


def begin_marker(tier: str) -> str:
    return _frame()[0].format(tier=tier)


def end_marker(tier: str) -> str:
    return _frame()[-1].format(tier=tier)


def _check_tier(tier: str) -> None:
    if tier not in TITLES:
        raise ValueError(f"tier must be L2 or L3, not {tier!r}")


# --- ordering and lines -----------------------------------------------------------------------




def newest_first(atoms: Sequence[Atom]) -> list[Atom]:
    """`last_seen` descending, then id ascending: independent of input order."""
    by_id = sorted(atoms, key=lambda a: str(a["id"]))
    return sorted(by_id, key=lambda a: time_key(str(a["last_seen"])), reverse=True)  # stable


def unique_by_id(atoms: Sequence[Atom]) -> list[Atom]:
    """One record per id; when a caller passes two different states of one atom, the choice
    depends only on their content (not on input order)."""
    chosen: dict[str, Atom] = {}
    for atom in atoms:
        ident = str(atom["id"])
        current = chosen.get(ident)
        if current is None:
            chosen[ident] = atom
            continue
        import json  # only when two records of one id are given

        if json.dumps(atom, sort_keys=True) > json.dumps(current, sort_keys=True):
            chosen[ident] = atom
    return list(chosen.values())


def one_line(claim: str) -> str:
    """Claims render on one line: every whitespace run (newlines included) becomes a space.

    What a terminal would act on is shown, not acted on: a control character left by an older
    version or a hand-edited log is written `\\x1b` (model/controls.py); the guard refuses
    the raw character in a memory file.

    A claim also cannot open or close the `<agent-memory>` wrapper of the injected context
    (model/wrapper.py): the transcript reader strips that wrapper when Claude Code echoes it
    back, and a claim that closed it early would let memory learn from itself.
    """
    return escape_wrapper(show_controls(" ".join(claim.split())))


def inert(text: str) -> str:
    """One line of claim text written so that Claude Code interprets nothing in it when it
    loads a memory file (docs/claude-code-integration.md, "What Claude Code reads in
    a memory file", has what the pinned client was seen to do):

    - `@path` after whitespace is an import: the file is read into every session (`@.env`).
      `\\@` is markdown's escape for a literal `@` and no import; whitespace is JavaScript's
      (the client's), which also counts U+FEFF.
    - `<!--` opens an HTML comment: the client drops comments, and markdown viewers hide
      everything up to the next `-->`, so a reviewer and Claude would read different things.
      Openers and closers get a backslash (`<\\!--`, `--\\>`).
    - three backticks or tildes opening the claim would open a fenced code block in its list
      item, and the client finds no import inside code: the first one gets a backslash.
    """
    if "@" in text:
        out, before = [], " "
        for ch in text:
            if ch == "@" and (before.isspace() or before == "\ufeff"):
                out.append("\\")
            out.append(ch)
            before = ch
        text = "".join(out)
    if "<!--" in text or "--" in text:
        text = text.replace("<!--", "<\\!--").replace("--!>", "--!\\>").replace("-->", "--\\>")
    if text.startswith(("```", "~~~")):
        text = "\\" + text
    return text


# ASCII punctuation: what a CommonMark backslash escapes (a backslash before anything else is
# a backslash).
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# After `<`: what opens inline HTML (a tag `<details`, a closing tag `</`, a comment or
# declaration `<!`, a processing instruction `<?`) or an autolink (`<https:`, `<a@b.c>`).
_OPENS_HTML = frozenset("/!?abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ALNUM = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# An email autolink (`<1@a>`, `<=x@y>`) may also open with a digit or one of these.
_EMAIL_LOCAL = _ALNUM | frozenset(".!#$%&'*+/=?^_`{|}~-")
_EMAIL_DOMAIN = _ALNUM | frozenset(".-")
_HEX = frozenset("0123456789abcdefABCDEF")
# Opening a claim (right after `- `): `>` would make the item a block quote, `[` a link
# reference definition (`[x]: url`: the line renders as nothing), a footnote or a task box.
# (After a contested tag a space stands between its `]` and the claim: no definition.)
_LEADING = (">", "[")
_DIGITS = frozenset("0123456789")


def _entity_at(text: str, at: int) -> bool:
    """Whether `text[at]` (a `&`) opens what CommonMark reads as an entity or a numeric
    character reference (`&amp;`, `&#38;`, `&#x26;`), which a forge shows as the character."""
    i, n = at + 1, len(text)
    if i < n and text[i] == "#":
        i += 1
        digits = _HEX if i < n and text[i] in "xX" else frozenset("0123456789")
        i += 1 if digits is _HEX else 0
        start = i
        while i < n and text[i] in digits and i - start < 8:
            i += 1
        return start < i and i < n and text[i] == ";"
    start = i
    while i < n and text[i] in _ALNUM and i - start < 40:
        i += 1
    return start < i and not text[start].isdigit() and i < n and text[i] == ";"


def _opens_html(text: str, at: int) -> bool:
    """Whether the `<` at `at` may open inline HTML or an autolink: a tag, a comment, a
    declaration or a URI autolink after it, or an email autolink (`<local@domain>`) here."""
    i, n = at + 1, len(text)
    if i < n and text[i] in _OPENS_HTML:
        return True
    while i < n and text[i] in _EMAIL_LOCAL:
        i += 1
    if i == at + 1 or i >= n or text[i] != "@":
        return False
    i += 1
    start = i
    while i < n and text[i] in _EMAIL_DOMAIN:
        i += 1
    return start < i and i < n and text[i] == ">"


def _run_length(text: str, at: int) -> int:
    """How many times the character at `at` stands there in a row (a run of backticks, of
    emphasis markers, of tildes)."""
    end, ch = at, text[at]
    while end < len(text) and text[end] == ch:
        end += 1
    return end - at


def _backtick_runs(text: str) -> dict[int, list[int]]:
    """Where each maximal run of backticks starts, by its length (ascending): the closers a
    code span may have (inside a span a backslash escapes nothing, so a closer is always a
    whole run). One pass: looking each closer up again from every opener took ~30 s on an
    800 KB claim of runs of distinct lengths (a hand-written log line)."""
    runs: dict[int, list[int]] = {}
    at = text.find("`")
    while at >= 0:
        length = _run_length(text, at)
        runs.setdefault(length, []).append(at)
        at = text.find("`", at + length)
    return runs


def _code_span_end(runs: dict[int, list[int]], at: int, run: int) -> int | None:
    """Where the code span opened by the `run` backticks at `at` ends (after its closing
    backticks: the next run of exactly as many), or None when nothing closes it."""
    from bisect import bisect_right

    starts = runs.get(run, [])
    k = bisect_right(starts, at)
    return starts[k] + run if k < len(starts) else None


def _emphasis_run_acts(text: str, start: int, end: int) -> bool:
    """Whether the run of `*` or `_` at text[start:end] may open or close emphasis on a forge
    (CommonMark's left-/right-flanking delimiter runs; GFM's strong and emphasis alike), or,
    a `*` opening the claim, make the item a nested list. Told conservatively, so that no
    reading of "punctuation" (ASCII only, Unicode P, Unicode P and S: the spec changed) lets
    one through: a run is inert only between two whitespace characters (or the line's ends:
    flanking neither side), and an `_` also between two letters or digits (`snake_case`,
    `x_1`: intraword, which CommonMark never reads as `_` emphasis). Everything else gets its
    backslashes, even a lone `*` nothing could pair with (`2*x`): deciding pairs is the
    delimiter algorithm itself, and one backslash too many shows the same text."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    if text[start] == "*" and start == 0:
        return True
    if before.isspace() and after.isspace():
        return False
    return not (text[start] == "_" and before.isalnum() and after.isalnum())


def _ends_marker(text: str, at: int) -> bool:
    """Whether a block marker ending before `at` is one: a space or a tab follows it, or nothing."""
    return at >= len(text) or text[at] in " \t"


def _block_marker_at(text: str) -> int | None:
    """Where one backslash keeps the opening of a claim (right after `- `) from starting a block
    inside its list item, or None when it starts none. CommonMark's block starts:

    - `>` a block quote, `[` a link reference definition (`_LEADING`);
    - one to six `#` then a space or nothing: an ATX heading (`\\# Setup`; `#hashtag`, `#1`
      and seven `#` are text);
    - `-`, `+` or `*` then a space or nothing: a nested bullet list (`\\- foo`; `-x`, `+1` are
      text);
    - three or more of one of `-`, `*`, `_` and nothing else but spaces: a thematic break (`\\---`);
      two `-` already, with the item's own (the whole line `- --` is one, outside the list,
      which it ends);
    - one to nine ASCII digits, `.` or `)`, then a space or nothing: an ordered list, whatever the
      number (it is the item's first block): the backslash goes before the `.` (`1\\. Run`,
      `2024\\. was`), since one before a digit is a backslash; `1.5x faster` is text.

    Not here: ```` ``` ```` and `~~~` (a fence: `inert` escapes them, for Claude Code as well),
    an indented code block (four spaces: `one_line` leaves no space at the start), a setext
    heading or a table (each needs a second line; an item has one), HTML (`<` is escaped
    wherever it opens a tag)."""
    if text.startswith(_LEADING):
        return 0
    first = text[:1]
    if first in ("-", "+", "*") and _ends_marker(text, 1):
        return 0
    if first == "#":
        hashes = len(text) - len(text.lstrip("#"))
        return 0 if hashes <= 6 and _ends_marker(text, hashes) else None
    if first in ("-", "*", "_") and set(text) <= {first, " ", "\t"} and text.count(first) >= 3 - (first == "-"):
        return 0
    digits = 0
    while digits < len(text) and text[digits] in _DIGITS:
        digits += 1
    if 0 < digits <= 9 and digits < len(text) and text[digits] in ".)" and _ends_marker(text, digits + 1):
        return digits
    return None


def _struck_tildes(text: str) -> frozenset[int]:
    """Where the runs of `~` start that may open or close strikethrough on a forge (GFM; GitHub
    strikes a pair of `~~` and a pair of single `~`), outside code spans and escapes.

    A run opens when it is left-flanking and closes when it is right-flanking, as `*` does,
    and it acts only with a partner: an opener before a closer. Told conservatively, so that
    no renderer's reading of punctuation, of run lengths (the spec strikes `~~` only, GitHub
    also `~`, markdown-it splits `~~~`) or of which pairs match lets one through: a run may
    open unless a space (or the line's end) follows it, may close unless one precedes it, and
    pairs with any run. So a lone `~` stays as typed (`~/dotfiles`, `~5 min`, `a ~ b`, and
    `~/a and ~/b`: two openers, no closer), and `~~old~~`, `350~500 and 1~2` get backslashes."""
    runs: dict[int, list[int]] | None = None
    found: list[tuple[int, bool, bool]] = []  # (start, may open, may close)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in _PUNCTUATION:
            i += 2
        elif ch == "`":
            runs = _backtick_runs(text) if runs is None else runs
            run = _run_length(text, i)
            end = _code_span_end(runs, i, run)
            i = end if end is not None else i + run
        elif ch == "~":
            end = i + _run_length(text, i)
            found.append((i, not _ends_marker(text, end), i > 0 and text[i - 1] not in " \t"))
            i = end
        else:
            i += 1
    acting: set[int] = set()
    opened = False
    for start, opens, closes in found:
        if closes and opened:
            acting.add(start)
        opened = opened or opens
    closed = False
    for start, opens, closes in reversed(found):
        if opens and closed:
            acting.add(start)
        closed = closed or closes
    return frozenset(acting)


def literal(text: str, emphasis: bool = True, tildes_and_blocks: bool = True) -> str:
    """One line of claim text (after `inert`) written so that a forge (GitHub, GitLab: CommonMark
    and its GFM extensions) shows it as the text it is, in the file view and in a pull request's
    rich diff: what a reviewer approves is what Claude reads.

    Inline HTML is what a forge renders instead of showing: `<details>` folds the rest away,
    `<sub>` shrinks it, `<img>` and `<a>` show something else. So every `<` that could open HTML
    or an autolink gets a backslash (`\\<details>`), as does every `&` that opens an entity
    reference (`\\&amp;`, which a forge would show as `&`), and `](` / `][` (a link or an image
    shows its text, not where it goes), and a `>` or `[` opening the claim.

    A backslash, not an HTML entity (`&lt;details&gt;`): Claude Code reads CLAUDE.memory.md as
    plain text through CLAUDE.md's import (and the global file through ~/.claude/CLAUDE.md), so
    the raw file must stay the claim to the model, one character added where the markdown
    meant something, as `\\@` and `<\\!--` (`inert`) already are; an entity spells the
    character out. Only where markdown would act: `a < b`, `R&D`, `x<=y` stay as typed. Inside a
    code span (`` `Vec<String>` ``) a forge shows everything literally, backslashes too, so the
    span is kept as it is; a backslash that already escapes a character is kept with it.
    Emphasis markers (`__init__`, `*args`, `_private_`, `**kwargs`) would show bold or italic
    text with the markers gone: each `*` or `_` of a run that could open or close emphasis
    gets a backslash (`\\_\\_init\\_\\_`, `\\*args`), but not an `_` inside a word
    (`snake_case`, the common case, stays readable) nor a run between spaces (`a * b`); see
    `_emphasis_run_acts`. `emphasis=False` is how the version before that wrote a line.
    GFM's strikethrough (`~~old~~`, on GitHub also `~old~`) would show struck text with the
    tildes gone: each `~` of a run that could open or close it with a partner gets a backslash
    (`\\~\\~old\\~\\~`), but not a lone one (`~/dotfiles` stays readable); see `_struck_tildes`.
    And the opening of the claim starts no block inside its list item (a heading `# `, a
    nested list `- ` or `1. `, a thematic break `---`): one backslash (`\\# Setup`, `1\\. Run`);
    see `_block_marker_at`. `tildes_and_blocks=False` is how the version before those two
    wrote a line. Readers take this form and the earlier ones (`claim_forms`): a claim keeps
    its line's meaning, and its id is the claim's, never the line's.
    """
    at = _block_marker_at(text) if tildes_and_blocks else 0 if text.startswith(_LEADING) else None
    tildes = tildes_and_blocks and "~" in text
    if at is None and not _may_act(text, emphasis, tildes):
        return text  # the common claim: no character a forge could act on, nothing to scan
    scan = _LiteralScan(text, at, emphasis, tildes)
    out: list[str] = []
    i = 0
    while i < len(text):
        piece, i = scan.piece(i)
        out.append(piece)
    return "".join(out)


def _may_act(text: str, emphasis: bool, tildes: bool) -> bool:
    """Whether `text` holds any character `literal` may have to escape (a quick test first:
    most claims hold none, and are kept without a scan)."""
    if "<" in text or "&" in text or "](" in text or "][" in text or tildes:
        return True
    return emphasis and ("_" in text or "*" in text)


class _LiteralScan:
    """One `literal` pass over a line: `piece(i)` is what the line shows from `i` on (one
    character, an escape, a code span or a run of markers) and where the next piece starts."""

    __slots__ = ("text", "at", "emphasis", "tildes", "struck", "_runs")

    def __init__(self, text: str, at: int | None, emphasis: bool, tildes: bool) -> None:
        self.text, self.at, self.emphasis, self.tildes = text, at, emphasis, tildes
        self.struck = _struck_tildes(text) if tildes else frozenset()
        self._runs: dict[int, list[int]] | None = None  # backtick runs, found at the first one

    def piece(self, i: int) -> tuple[str, int]:
        text, ch = self.text, self.text[i]
        if i == self.at:
            return "\\" + ch, i + 1  # a block marker: the escape a forge shows as the character
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in _PUNCTUATION:
            return text[i : i + 2], i + 2  # already an escape: the forge shows the character
        if ch == "`":
            return self._code_span(i)
        if self.emphasis and ch in "_*":
            end = i + _run_length(text, i)
            return ("\\" + ch if _emphasis_run_acts(text, i, end) else ch) * (end - i), end
        if ch == "~" and self.tildes:
            end = i + _run_length(text, i)
            return ("\\~" if i in self.struck else "~") * (end - i), end
        return ("\\" + ch if self._opens_markup(i) else ch), i + 1

    def _code_span(self, i: int) -> tuple[str, int]:
        """A code span kept as it is (a forge shows it literally, backslashes too); a backtick
        run that closes nothing is kept as typed."""
        if self._runs is None:
            self._runs = _backtick_runs(self.text)
        run = _run_length(self.text, i)
        end = _code_span_end(self._runs, i, run)
        stop = end if end is not None else i + run
        return self.text[i:stop], stop

    def _opens_markup(self, i: int) -> bool:
        """`<` opening HTML or an autolink, `&` opening an entity, `](` / `][` of a link."""
        text, ch = self.text, self.text[i]
        if ch == "<":
            return _opens_html(text, i)
        if ch == "&":
            return _entity_at(text, i)
        return ch == "]" and i + 1 < len(text) and text[i + 1] in "(["


def file_claim(claim: str) -> str:
    """A claim as a memory file shows it (CLAUDE.memory.md, the marker block of CLAUDE.md):
    one line, nothing Claude Code or a forge would interpret, and a path inside this checkout
    relative to its top (model/checkout.py). A claim adopted before capture wrote such paths
    relative still holds one in its log line: written absolute, the re-rendered block is one
    the commit guard refuses (`worktree-path`), so no memory commit could pass."""
    return literal(inert(one_line(repo_relative(claim))))


def context_claim(claim: str) -> str:
    """A claim as the session start gives it to Claude: not markdown a forge renders, so
    without `literal`'s backslashes (`<details>` is `<details>`), the paths of this checkout
    relative as in the file."""
    return inert(one_line(repo_relative(claim)))


def file_claim_before_relative(claim: str) -> str:
    """A claim as the version before a path inside this checkout was written relative wrote
    it in a file."""
    return literal(inert(one_line(claim)))


def file_claim_before_blocks(claim: str) -> str:
    """A claim as the version before `literal` escaped strikethrough tildes and block markers
    opening the claim wrote it in a file."""
    return literal(inert(one_line(claim)), tildes_and_blocks=False)


def file_claim_before_emphasis(claim: str) -> str:
    """A claim as the version before `literal` escaped emphasis markers wrote it in a file."""
    return literal(inert(one_line(claim)), emphasis=False, tildes_and_blocks=False)


def file_claim_before_literal(claim: str) -> str:
    """A claim as the version before `literal` wrote it in a file (context_claim's form then;
    context_claim now writes this checkout's paths relative, which that version did not)."""
    return inert(one_line(claim))


# How earlier versions wrote a claim into a memory file, newest first: a block they rendered
# is theirs, not a hand edit (committed/files.py), read as it is until the next write.
EARLIER_FILE_CLAIMS: tuple[Callable[[str], str], ...] = (
    file_claim_before_relative, file_claim_before_blocks, file_claim_before_emphasis,
    file_claim_before_literal)  # fmt: skip


def claim_forms(claim: str) -> tuple[str, ...]:
    """Every line text a block may show for `claim` (without `- ` and a contested tag): as
    rendered now, as rendered before `literal` escaped strikethrough tildes and block markers,
    before it escaped emphasis markers, before `literal` (their lines are read until the next
    write re-renders the block), and as rendered before `inert` (the same claim a reviewer
    read; the guard judges that line). Each form is a function of the claim alone, and of
    this checkout's place: each is also as rendered before a path inside it was written
    relative (`file_claim`), the form a block of that version shows."""
    forms: list[str] = []
    for text in dict.fromkeys((repo_relative(claim), claim)):
        plain = one_line(text)
        escaped = inert(plain)
        now = literal(escaped)
        before_blocks = literal(escaped, tildes_and_blocks=False)
        before_emphasis = literal(escaped, emphasis=False, tildes_and_blocks=False)
        forms += (now, before_blocks, before_emphasis, escaped, plain)
    return tuple(dict.fromkeys(forms))


def is_superseded(atom: Atom) -> bool:
    return bool(atom.get("superseded_by"))


def is_decayed(atom: Atom) -> bool:
    # Pinned is decay-exempt: a pinned atom stays in the working set.
    return bool(atom.get("decayed")) and not atom.get("pinned")


def in_working_set(atom: Atom) -> bool:
    return not is_superseded(atom) and not is_decayed(atom)


def _day(value: str) -> str:
    text = value.strip()
    is_day = len(text) == 10 and text[4] == text[7] == "-" and (text[:4] + text[5:7] + text[8:]).isdigit()
    return text if is_day and text.isascii() else utc_day(text)


def contested_day(
    atom: Atom, contested_dates: Mapping[str, str], by_id: Mapping[str, Atom]
) -> str | None:
    """The date for the contested tag, or None when the atom is not contested.

    The NEWER atom's date: the caller's mapping first, else the newest `last_seen` among the
    `contested_by` atoms at hand, else the atom's own `last_seen` day.
    """
    ident = str(atom["id"])
    if ident in contested_dates:
        try:
            return _day(contested_dates[ident])
        except ValueError:
            return utc_day(str(atom["last_seen"]))
    if not atom.get("contested"):
        return None
    newer = [by_id[n] for n in atom.get("contested_by") or [] if n in by_id]
    if newer:
        return utc_day(max((str(n["last_seen"]) for n in newer), key=time_key))
    return utc_day(str(atom["last_seen"]))


def atom_line(atom: Atom, day: str | None, shown: Callable[[str], str] = file_claim) -> str:
    """The item line of `atom` in a memory file (or, with `shown=context_claim`, in the
    session-start context)."""
    tag = contested_tag(day) + " " if day else ""
    return f"- {tag}{shown(str(atom['claim']))}"


def tagged_line(atom: Atom, tag: str, shown: Callable[[str], str] = file_claim) -> str:
    return f"- {tag} {shown(str(atom['claim']))}"


def region_line(tier: str, hidden: int, decayed: int, superseded: int) -> str:
    """The pointer to what the block does not show, for the person reading the file: one
    whole-line HTML comment, which Claude Code drops when it loads the file (as it drops the
    generated-file note), so Claude's context holds memory, not instructions for our tool."""
    noun = "atom" if hidden == 1 else "atoms"
    parts = [f"{decayed} decayed"] if decayed else []
    parts += [f"{superseded} superseded"] if superseded else []
    detail = f" ({', '.join(parts)})" if parts else ""
    return f"<!-- {hidden} more adopted {noun} not shown{detail}: `{inspect_command(tier)}` -->"


def _legacy_region_re() -> re.Pattern[str]:
    import re

    return re.compile(r"^- region `git memory inspect --tier (L2|L3)` → (\d+) more adopted atoms?"
                      r"(?: \((?:(\d+) decayed)?(?:, )?(?:(\d+) superseded)?\))?$", re.MULTILINE)  # fmt: skip


def modern_region(block: str) -> str:
    """`block` with a region line written by an earlier version (a visible list item that
    Claude read as memory) in today's form: that rendering is not a hand edit."""
    if "- region `" not in block:
        return block
    return _legacy_region_re().sub(
        lambda m: region_line(m[1], int(m[2]), int(m[3] or 0), int(m[4] or 0)), block)  # fmt: skip


# --- layout -----------------------------------------------------------------------------------


def _size(lines: Sequence[str]) -> int:
    return sum(len(line.encode("utf-8")) + 1 for line in lines)


class Section:
    """The body of one tier (after its title): the lines chosen by `lay_out`."""

    __slots__ = ("lines", "shown", "omitted")

    def __init__(self, lines: tuple[str, ...], shown: tuple[str, ...], omitted: tuple[str, ...]) -> None:
        self.lines = lines
        self.shown = shown
        self.omitted = omitted


def lay_out(
    atoms: Sequence[Atom],
    tier: str,
    budget: int,
    frame_bytes: int,
    contested_dates: Mapping[str, str],
    pointer: bool = True,
    tags: Mapping[str, str] | None = None,
    shown: Callable[[str], str] = file_claim,
) -> Section:
    """Choose the longest prefix of (pinned…, recent…) whose lines, plus the region line for
    the rest, fit in `budget - frame_bytes`. Raises ValueError when not even the region line
    fits (the budget is smaller than the frame). Without `pointer` (the session-start context)
    there is no region line: the rest is only counted in `omitted`. `tags` (id → tag) replace
    an atom's contested tag: the session start's marks for a contradiction across the tiers.
    `shown` writes a claim into its line: `file_claim` for a memory file, `context_claim` for
    the session start."""
    atoms = unique_by_id(atoms)
    by_id = {str(a["id"]): a for a in atoms}
    working = [a for a in atoms if in_working_set(a)]
    ordered = newest_first([a for a in working if a.get("pinned")]) + newest_first(
        [a for a in working if not a.get("pinned")]
    )
    n_pinned = sum(1 for a in working if a.get("pinned"))
    superseded = newest_first([a for a in atoms if is_superseded(a)])
    decayed = newest_first([a for a in atoms if not is_superseded(a) and is_decayed(a)])
    lines = [
        tagged_line(a, tags[str(a["id"])], shown) if tags and str(a["id"]) in tags
        else atom_line(a, contested_day(a, contested_dates, by_id), shown)
        for a in ordered
    ]  # fmt: skip
    heading_bytes = _size(["", PINNED_HEADING])  # a blank line, then the heading
    room = budget - frame_bytes

    prefix_bytes = [0]
    for line in lines:
        prefix_bytes.append(prefix_bytes[-1] + _size([line]))

    def body_bytes(k: int) -> int:
        size = prefix_bytes[k]
        size += heading_bytes if min(k, n_pinned) else 0
        size += heading_bytes if k > n_pinned else 0
        hidden = len(ordered) - k + len(decayed) + len(superseded)
        if hidden and pointer:
            size += _size(["", region_line(tier, hidden, len(decayed), len(superseded))])
        return size

    # Not a binary search: the region line vanishes when everything fits, so size is not
    # monotonic in k at the very end.
    k = next((k for k in range(len(ordered), -1, -1) if body_bytes(k) <= room), None)
    if k is None:
        raise ValueError(
            f"budget {budget} bytes is too small for the {tier} block frame and its region line"
        )
    body: list[str] = []
    if min(k, n_pinned):
        body += ["", PINNED_HEADING, *lines[: min(k, n_pinned)]]
    if k > n_pinned:
        body += ["", RECENT_HEADING, *lines[n_pinned:k]]
    hidden_atoms = ordered[k:] + decayed + superseded
    if hidden_atoms and pointer:
        body += ["", region_line(tier, len(hidden_atoms), len(decayed), len(superseded))]
    return Section(
        lines=tuple(body),
        shown=tuple(str(a["id"]) for a in ordered[:k]),
        omitted=tuple(str(a["id"]) for a in hidden_atoms),
    )


def empty_note(tier: str) -> str:
    """What an empty block says to a person reading the file, inside an HTML comment: an empty
    tier puts no line in Claude's context, not even an instruction-like hint."""
    flag = " --global" if tier == "L3" else ""
    return f"<!-- Nothing adopted yet: `git memory promote{flag}` shows what is eligible. -->"


def render_block(
    atoms: Sequence[Atom],
    tier: str,
    budget: int | None = None,
    contested_dates: Mapping[str, str] | None = None,
    shown: Callable[[str], str] = file_claim,
) -> RenderedBlock:
    """The marker block for `tier` (markers included, trailing newline), ≤ `budget` bytes
    (default: L2 4096, L3 2048). Same atoms in any order → the same bytes. With no atoms the
    block is HTML comments only (no title): nothing of it is memory. `shown` writes each claim
    into its line (`file_claim`; `context_claim` is how the version before `literal` did)."""
    _check_tier(tier)
    limit = BUDGETS[tier] if budget is None else budget
    frame = _frame()
    head = [begin_marker(tier), TITLES[tier], frame[2]]
    foot = [end_marker(tier)]
    if not atoms:
        text = "\n".join([begin_marker(tier), frame[2], empty_note(tier), *foot]) + "\n"
        if len(text.encode("utf-8")) > limit:
            raise ValueError(f"budget {limit} bytes is too small for an empty {tier} block")
        return RenderedBlock(text, (), ())
    section = lay_out(atoms, tier, limit, _size(head + foot), contested_dates or {}, shown=shown)
    text = "\n".join([*head, *section.lines, *foot]) + "\n"
    return RenderedBlock(text, section.shown, section.omitted)


# --- the block inside a file ------------------------------------------------------------------


def _marker_re(marker: str) -> re.Pattern[str]:
    import re

    # At a line's start — after a bare CR too (a file saved with classic Mac line ends) —, or
    # just after the byte-order mark a file opens with (a block first in a CLAUDE.md or
    # CLAUDE.memory.md saved by a Windows editor) or that opens a line mid-file (two such
    # files joined): committed/line_ends.py. The span starts after the mark, so a writer keeps it.
    return re.compile(r"(?:^|(?<=\r)|(?<=\A\ufeff)|(?<=[\r\n]\ufeff))[ \t]*" + re.escape(marker)
                      + r"[ \t]*(?:\r\n|\n|\r|\Z)", re.MULTILINE)


def find_block(file_text: str, tier: str) -> tuple[int, int] | None:
    """(start, end) of the tier's block: from its begin marker to the end of its end-marker
    line (newline included). None when the file has no block; MalformedBlockError when the
    markers are unbalanced, repeated or out of order."""
    _check_tier(tier)
    begins = list(_marker_re(begin_marker(tier)).finditer(file_text))
    ends = list(_marker_re(end_marker(tier)).finditer(file_text))
    if not begins and not ends:
        return None
    if len(begins) != 1 or len(ends) != 1 or ends[0].start() < begins[0].end():
        raise MalformedBlockError(
            f"{len(begins)} begin and {len(ends)} end markers for {tier} (expected one pair, in order)"
        )
    return begins[0].start(), ends[0].end()


def block_of(file_text: str, tier: str) -> str | None:
    span = find_block(file_text, tier)
    return None if span is None else file_text[span[0] : span[1]]


def replace_block(file_text: str, block_text: str, tier: str) -> str:
    """Put `block_text` in place of the tier's block; everything outside the markers is kept
    byte for byte. Without a block, append it at the end after a blank line. The block (rendered
    with "\\n") takes the file's own line end: in a person's CRLF CLAUDE.md (memory.target=
    claude-md), or a CLAUDE.memory.md checked out CRLF (core.autocrlf=true), an LF block made
    the file's line ends mixed."""
    from agent_memory.committed.line_ends import appended, git_line_end, in_line_end, split_bom

    # A byte-order mark the file opens with stays first; a file of nothing else is empty.
    bom, file_text = split_bom(file_text)
    span = find_block(file_text, tier)
    # CRLF or LF, never a bare CR: the guard refuses a lone CR in the block (line_ends.py); in
    # a bare-CR file the blank line before a block appended is the file's own CR.
    end = git_line_end(file_text)
    block_text = in_line_end(block_text, end)
    if span is not None:
        return bom + file_text[: span[0]] + block_text + file_text[span[1] :]
    if not file_text:
        return bom + block_text
    return bom + appended(file_text, [block_text.removesuffix(end)], blank_line=True, end=end)


def _canonical(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # a CRLF checkout, a file resaved in bare CR
    return text if text.endswith("\n") else text + "\n"


def hand_edited(file_text: str, expected_block: str, tier: str) -> bool:
    """True when the file's block differs from what the adopted.log renders to — including a
    deleted or broken block. Line endings (a CRLF checkout) and a missing final newline at the
    end of the file are not edits."""
    try:
        current = block_of(file_text, tier)
    except MalformedBlockError:
        return True
    return current is None or _canonical(modern_region(current)) != _canonical(expected_block)


# --- the @import line in CLAUDE.md ------------------------------------------------------------


def ensure_import(claude_md_text: str, import_line: str) -> str:
    """`claude_md_text` with `import_line` present exactly once: appended at the end after a
    blank line when missing, the text returned unchanged when already there (idempotent)."""
    from agent_memory.committed.line_ends import appended, ours, split_bom

    wanted = import_line.strip()
    # a CRLF or bare-CR line is recognised too (splitlines, strip), and the line added takes
    # the file's own line end: the text is the file as stored; the import after a byte-order
    # mark — first in the file (the mark stays first), or opening a line mid-file (two files
    # joined) — is recognised after it (committed/line_ends.py)
    bom, text = split_bom(claude_md_text)
    if any(ours(line) == wanted for line in text.splitlines()):
        return claude_md_text
    return bom + appended(text, [wanted], blank_line=True)


