"""Extraction time on statements holding one long run of a single character or token.

A statement the capture hook reads can hold a terminal paste padded with thousands of blanks,
a ruler of dashes, a wall of newlines. Every pattern the sentence rules run must stay linear in
such a run, or one statement stalls the hook (issue 28, notes/28-hang.md: 11,000 spaces took
~96 s). This probe feeds `statement_atoms` (the rules and the durability gate, as the pipeline
runs them) statements of the shape ``<rule sentence> <run> <rule sentence>`` for each run kind
and size, and prints seconds per KB and the ratio of the largest size's s/KB to the smallest's:
a ratio well above 1 is time growing faster than the text (superlinear). Timings are printed,
never asserted (the machine is shared).

    .venv/bin/python benchmarks/pathological.py [--sizes 1000,5000,20000] [--kinds spaces,tabs]

--patterns times instead a search of single patterns on the whole probe text: patterns the
pipeline runs on bounded clauses only, kept linear so that no other caller can stall on them.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable

from agent_memory.extract.pipeline import statement_atoms
from agent_memory.extract.rules.lang_choice import _LIST_ITEM
from agent_memory.extract.rules.lang_negation import NO_BEFORE_PLACE, NO_SPANISH_NEXT
from agent_memory.extract.rules.lang_reply import ANSWER_IN
from agent_memory.extract.rules.lang_user import USER_RULES
from agent_memory.extract.rules.languages import RULES
from agent_memory.extract.standing import _SPLICE
from agent_memory.extract.text import _EMOTICON_TAIL, MAX_TEXT
from agent_memory.transcripts.reader import Statement

_HEAD = "I always use pnpm for installs in this repo and we run the tests with pytest"
_TAIL = "never push to main without a review, and I prefer short commit messages."

# kind -> run of about n characters
RUNS: dict[str, Callable[[int], str]] = {
    "spaces": lambda n: " " * n,
    "tabs": lambda n: "\t" * n,
    "dots": lambda n: "." * n,
    "dashes": lambda n: "-" * n,
    "equals": lambda n: "=" * n,
    "commas": lambda n: "," * n,
    "long-word": lambda n: "x" * n,
    "short-words": lambda n: "a " * (n // 2),
    "cjk": lambda n: "\u6f22" * n,
    "emoji": lambda n: "\U0001f600" * n,
    "newlines": lambda n: "\n" * n,
    "backticks": lambda n: "`" * n,  # every ``` pair is cut out as a line break
    "smileys": lambda n: ":)" * (n // 2),
    "dotted": lambda n: "a." * (n // 2),
    # an English run with many sentence ends after a CJK character (prepare.without_quoted_latin)
    "cjk-sentences": lambda n: "\u6f22" + "A b. " * (n // 5),
}


def statement(kind: str, n: int) -> str:
    return f"{_HEAD}{RUNS[kind](n)}{_TAIL}"


# patterns searched whole by --patterns (each was quadratic on some run kind: notes/28-leftover.md)
PATTERNS: dict[str, re.Pattern[str]] = {
    "answer_in": ANSWER_IN,
    "installed": next(p for p, label, _, _ in USER_RULES if label == "Installed"),
    "emoticon_tail": _EMOTICON_TAIL,
    "ja_we_use": next(p for p, _, _, sub in RULES if sub == "ja_we_use"),  # a dotted tool name
    "splice": _SPLICE,  # split() on a whole sentence: blanks before a dash
    "no_spanish_next": NO_SPANISH_NEXT,  # the next three: blank runs (matched at one place)
    "no_before_place": NO_BEFORE_PLACE,
    "list_item": _LIST_ITEM,
}


def pattern_seconds(pattern: re.Pattern[str]) -> Callable[[str], float]:
    def run(text: str) -> float:
        start = time.perf_counter()
        pattern.search(text)
        return time.perf_counter() - start

    return run


def seconds(text: str) -> float:
    st = Statement(line=1, text=text, timestamp=None, session_id="s", origin="prompt")
    start = time.perf_counter()
    statement_atoms(st, "probe.jsonl", "probe", "2026-01-01T00:00:00Z")
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,5000,20000")
    ap.add_argument("--kinds", default=",".join(RUNS))
    ap.add_argument("--patterns", action="store_true", help="time the PATTERNS, searched whole")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    kinds = args.kinds.split(",")
    if args.patterns:
        for name, pattern in PATTERNS.items():
            print(f"== {name} (search on the whole text)")
            table(kinds, sizes, pattern_seconds(pattern), cut=None)
        return
    seconds(statement("spaces", 10))  # warm up: imports, the gate's model
    table(kinds, sizes, seconds, cut=MAX_TEXT)


def table(
    kinds: list[str], sizes: list[int], timed: Callable[[str], float], cut: int | None
) -> None:
    """cut: the length the timed call reads (a statement is cut at MAX_TEXT; a pattern is
    searched on the whole text)."""
    print(f"{'run':<12}" + "".join(f"{f'{n} s/KB':>14}" for n in sizes) + f"{'ratio':>8}")
    worst = ("", 0.0, 0.0)
    for kind in kinds:
        per_kb = []
        for n in sizes:
            text = statement(kind, n)
            # per KB read
            per_kb.append(timed(text) / (len(text[:cut].encode()) / 1024))
        ratio = per_kb[-1] / per_kb[0] if per_kb[0] else 0.0
        flag = "  superlinear" if ratio > 3 else ""
        print(f"{kind:<12}" + "".join(f"{v:>14.4f}" for v in per_kb) + f"{ratio:>8.1f}{flag}")
        if per_kb[-1] > worst[1]:
            read = statement(kind, sizes[-1])[:cut]
            worst = (kind, per_kb[-1], per_kb[-1] * len(read.encode()) / 1024)
    print(
        f"worst at {sizes[-1]}: {worst[0]} {worst[1]:.4f} s/KB ({worst[2]:.2f} s for the statement)"
    )


if __name__ == "__main__":
    main()
