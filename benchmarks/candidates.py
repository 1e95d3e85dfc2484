"""What a change to the extractor does to real statements, without reading the scored people.

`dump` writes the gated candidates (what becomes an atom) of every labelled corpus statement —
the real corpus (unpacked to a temporary directory) and the extra people's directory
(`extra_corpus.py build`) — as JSON: {"<side>|<person>|<transcript>|<line>": [[claim, kind,
rule], ...]}. `--checkout DIR` runs another checkout's `agent_memory` (an older commit in a git
worktree) with this script's split file, so two versions are read the same way.

`diff A.json B.json` compares two dumps: it counts the statements whose candidates changed on
each side and lists the changes of TUNE people only. A SCORE person's statements are counted,
never printed (benchmarks/extraction_split.json: rules are studied on TUNE people only).

    python benchmarks/candidates.py dump OUT.json --extra /tmp/extra [--checkout DIR]
    python benchmarks/candidates.py diff BEFORE.json AFTER.json

A benchmark helper, not a test: it prints, it never fails.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
Rows = dict[str, list[list[str]]]


def _load(checkout: Path | None) -> tuple[Any, Any, Any]:
    """(iter_statements, extract_claims, durable) of `checkout`'s agent_memory (else this one's).
    A checkout is a directory (a worktree of the commit to run), never a commit name: a path that
    holds no agent_memory would silently run this checkout's code and diff it with itself."""
    root = (checkout or HERE.parent).resolve()
    if not (root / "agent_memory" / "__init__.py").is_file():
        raise SystemExit(
            f"error: {root} holds no agent_memory package\n"
            "hint: --checkout takes a directory; for a commit run "
            "`git worktree add --detach /tmp/old <commit>` and pass /tmp/old"
        )
    sys.path.insert(0, str(root))
    import agent_memory

    if not Path(agent_memory.__file__).resolve().is_relative_to(root):
        raise SystemExit(f"error: agent_memory was imported from {agent_memory.__file__}, not {root}")
    from agent_memory.extract.durability import durable
    from agent_memory.extract.statement import extract_claims
    from agent_memory.transcripts.reader import iter_statements

    return iter_statements, extract_claims, durable


def dump(extra: Path | None, real: Path | None, checkout: Path | None) -> Rows:
    # The code under test first: once `agent_memory` is imported, it is the one that runs.
    iter_statements, extract_claims, durable = _load(checkout)
    sys.path.insert(1, str(HERE))
    import extraction as bench  # this checkout's split and corpora, whichever code extracts

    real = real or bench.REAL_DEFAULT

    split = json.loads(bench.SPLIT.read_text("utf-8"))
    rows: Rows = {}

    def read(corpus: Any, section: dict[str, Any]) -> None:
        for rel in corpus.files:
            who = bench.person(corpus.user_of(rel))
            for st in iter_statements(corpus.transcripts / rel):
                found = extract_claims(
                    st.text, origin=st.origin, rejected_command=st.rejected_command
                )
                rows[f"{bench.side(who, section)}|{who}|{rel}|{st.line}"] = [
                    [c.claim, c.kind, c.rule] for c in found if durable(st.text, c.claim, c.rule)
                ]

    with tempfile.TemporaryDirectory() as tmp:
        corpus = bench.real_corpus(real, Path(tmp))
        if corpus is not None:
            read(corpus, split)
    corpus = bench.extra_corpus(extra) if extra is not None else None
    if corpus is not None:
        read(corpus, split.get("extra", {}))
    return rows


def diff_rows(before: Rows, after: Rows) -> tuple[dict[str, int], list[str]]:
    """(changed statements per side, printable lines for the TUNE side's changes only)."""
    counts = {"tune": 0, "score": 0}
    shown: list[str] = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        side = key.split("|", 1)[0]
        counts[side] = counts.get(side, 0) + 1
        if side == "tune":
            shown += [key, f"  - {old}", f"  + {new}"]
    return counts, shown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--extra", type=Path, default=os.environ.get("AGENT_MEMORY_EXTRA_CORPUS"))
    d.add_argument(
        "--real",
        type=Path,
        default=os.environ.get("AGENT_MEMORY_REAL_CORPUS"),
    )
    d.add_argument("--checkout", type=Path, default=None)
    c = sub.add_parser("diff")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.cmd == "dump":
        extra = Path(args.extra) if args.extra else None
        rows = dump(extra, Path(args.real) if args.real else None, args.checkout)
        args.out.write_text(json.dumps(rows, ensure_ascii=False), "utf-8")
        kept = sum(len(v) for v in rows.values())
        print(f"{len(rows)} statements, {kept} candidates kept -> {args.out}")
        return 0
    before = json.loads(args.before.read_text("utf-8"))
    after = json.loads(args.after.read_text("utf-8"))
    counts, shown = diff_rows(before, after)
    print("\n".join(shown))
    print(f"statements whose kept candidates changed: TUNE {counts['tune']}, SCORE "
          f"{counts['score']} (SCORE changes are counted, never listed)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
