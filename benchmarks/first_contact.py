"""First contact: how the rules did on each person the moment that person joined the corpus.

Every extra-corpus TUNE person is run through the extractor and its gate *as they were just
before the person's labels were committed* (the parent of the commit that first added
`benchmarks/extra_corpus/people/<person>.json`).
People are labelled blind, before the extractor runs on them, and rules are only ever studied
on a person after their labels land; so that version of the rules had never seen them. Pooled
over ~180 TUNE people this is a stranger measurement far larger than any single validation
round, of the rule-writing process rather than of today's rules: it says how precise a rule
family is on people it was not written from, which is the evidence a precision-first choice
(drop a rule, raise a bar) should rest on — TUNE people only, so it may be read and listed.

SCORE people are never loaded here (their first contact is the scored figure of
`benchmarks/extraction.py`, which is computed with today's rules).

    python benchmarks/extra_corpus.py build --mirrors /work/.mirror --out /tmp/extra
    python benchmarks/first_contact.py --extra /tmp/extra [--cache DIR] [--show]

Reported: pooled P/R of the kept (gated) candidates, what the gate dropped, per rule, per
language, by the path that kept a candidate (a standing word's exemption or the gate's
score), and by the day of the rules version. A benchmark, not a test: it prints figures and asserts
nothing (a failing git or old version stops it with that error).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import extraction as bench  # noqa: E402
from common import run_at_commit  # noqa: E402

from agent_memory.extract import durability  # noqa: E402
from agent_memory.transcripts.reader import iter_statements  # noqa: E402

PEOPLE = "benchmarks/extra_corpus/people/"

# Run inside a `git archive` of the old commit: its extract_claims and, where it had one, its
# gate (a version before the gate existed keeps every candidate; one before `exempt` existed
# still gates, and says how a candidate was kept only as "gate") and its gate's score.
_DUMP = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from agent_memory.extract.statement import extract_claims
try:
    from agent_memory.extract.durability import durable
except ImportError:
    durable = None
try:
    from agent_memory.extract.durability import candidate_features, exempt
except ImportError:
    exempt = None
try:
    from agent_memory.extract.durability import packaged_model, score
    model = packaged_model()
except ImportError:
    model = None
out = []
for text, origin, rejected in json.load(open(sys.argv[2], encoding="utf-8")):
    row = []
    for c in extract_claims(text, origin=origin, rejected_command=rejected):
        rule = getattr(c, "rule", "")
        kept, by = True, "no gate"
        if durable is not None:
            kept, by = durable(text, c.claim, rule), "gate"
            if exempt is not None:
                by = "exempt" if exempt(candidate_features(text, c.claim, rule)) else "score"
        p = score(text, c.claim, rule, model) if model is not None else None
        row.append([c.claim, c.kind, rule, kept, by, p])
    out.append(row)
json.dump(out, sys.stdout)
"""


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True).stdout  # fmt: skip


def first_versions(root: Path = ROOT) -> dict[str, tuple[str, str]]:
    """person -> (the commit they first met, its day): the parent of the commit that first added
    the person's labels file — the whole tree as it stood, rules, gate weights and reader alike.
    A file added by a root commit has no version before it and is left out."""
    added: dict[str, str] = {}
    commit = ""
    log = _git(root, "log", "--diff-filter=A", "--format=@%H", "--name-only", "--", PEOPLE)
    for line in log.splitlines():
        if line.startswith("@"):
            commit = line[1:]
        elif line.strip().endswith(".json"):
            added[Path(line.strip()).stem] = commit  # the oldest add wins (log is newest first)
    versions: dict[str, tuple[str, str]] = {}
    for who, add in added.items():
        parents = _git(root, "log", "-1", "--format=%P", add).split()
        if parents:  # a root commit has none
            day = _git(root, "log", "-1", "--format=%aI", parents[0]).strip()[:10]
            versions[who] = (parents[0], day)
    return versions


@dataclass
class Seen:
    """One labelled statement of a TUNE person, with the candidates of the rules they first met."""

    person: str
    day: str
    text: str
    expected: list[dict[str, Any]]
    cands: list[list[Any]]  # [claim, kind, rule, kept, by, score (None: no scoring gate)]


def run_version(
    commit: str, stmts: list[Any], tmp: Path, cache: Path | None, root: Path = ROOT
) -> list[Any]:
    """What the rules of `commit` kept of `stmts`: [[claim, kind, rule, kept, by, score], ...]
    each."""
    payload = json.dumps([[s.text, s.origin, s.rejected_command] for s in stmts])
    key = hashlib.sha256((_DUMP + payload).encode("utf-8")).hexdigest()[:16]
    cached = cache / f"first-{commit[:12]}-{key}.json" if cache is not None else None
    return json.loads(run_at_commit(root, commit, _DUMP, payload, tmp, cached))


def collect(extra: bench.Corpus, cache: Path | None) -> list[Seen]:
    tune, _ = bench.split_users(extra.users, section="extra")
    versions = first_versions()
    by_commit: dict[str, list[tuple[str, Any, list[dict[str, Any]]]]] = collections.defaultdict(list)
    for rel in extra.files:
        user = extra.user_of(rel)
        who = bench.person(user)
        if user not in tune or who not in versions:
            continue
        for st in iter_statements(extra.transcripts / rel):
            expected = extra.labels.get((rel, st.line))
            if expected is not None:
                by_commit[versions[who][0]].append((who, st, expected))
    out: list[Seen] = []
    with tempfile.TemporaryDirectory() as tmp:
        for commit, rows in sorted(by_commit.items()):
            found = run_version(commit, [st for _, st, _ in rows], Path(tmp), cache)
            for (who, st, expected), cands in zip(rows, found, strict=True):
                out.append(Seen(who, versions[who][1], st.text, expected, cands))
    return out


def outcome(claim: str, kind: str, expected: list[dict[str, Any]]) -> tuple[str, set[int]]:
    matched = [i for i, e in enumerate(expected) if bench.satisfies(claim, kind, e)]
    required = {i for i in matched if not expected[i].get("optional")}
    return ("hit" if required else "neutral" if matched else "fp"), required


# Today's keep bar (durability weights' keep_threshold): a candidate its version kept scoring
# under it would be pending now (an atom only when said again), unless exempt. Applied to each
# version's own gate score: what the bar does to the rules a person first met. So is today's
# hold for a second mention (durability.held_for_recurrence: a task's artifact named, a
# prohibition inside a longer request), shown on a row of its own.
KEEP_BAR = 0.80


def _held_today(text: str, claim: str, rule: str) -> bool:
    feats = durability.candidate_features(text, claim, rule)
    return durability.held_for_recurrence(text, claim, rule, feats)


def report(seen: list[Seen], show: bool) -> None:
    tables: dict[str, dict[str, collections.Counter[str]]] = collections.defaultdict(
        lambda: collections.defaultdict(collections.Counter)
    )
    required = found = 0
    for s in seen:
        lang = bench.language(s.text)
        got: set[int] = set()
        for claim, kind, rule, kept, by, *rest in s.cands:
            out, hits = outcome(claim, kind, s.expected)
            if not kept:
                tables["dropped by the gate"]["all"][out] += 1
                continue
            p = rest[0] if rest else None
            held = by != "exempt" and p is not None and p < KEEP_BAR
            row = "pending" if held else "atoms"
            if not held and _held_today(s.text, claim, rule):
                row = "pending (held for a second mention)"
            tables[f"at the keep bar {KEEP_BAR:.2f}"][row][out] += 1
            got |= hits
            for table, key in (("pooled", "all"), ("rule", rule or "?"), ("language", lang),
                               ("kept by", by), ("rules of", s.day)):  # fmt: skip
                tables[table][key][out] += 1
            if show:
                print(f"  {out:7} {s.person[:16]:16} [{kind} {rule}] {claim[:100]}")
        req = sum(1 for e in s.expected if not e.get("optional"))
        required += req
        found += len(got)
    people = len({s.person for s in seen})
    print(f"first contact: {people} TUNE people, {len(seen)} statements, {required} durable")
    print(f"  found {found}/{required} (R {found / required if required else 0:.3f})")
    for table in ("pooled", "dropped by the gate", f"at the keep bar {KEEP_BAR:.2f}", "kept by",
                  "rules of", "language", "rule"):
        print(f"{table}:")
        rows = sorted(tables[table].items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))
        for key, c in rows:
            scored = c["hit"] + c["fp"]
            p = f"P {c['hit'] / scored:.2f}" if scored else "P  -  "
            print(f"  {key[:40]:40} hit {c['hit']:>3}  fp {c['fp']:>3}  neutral "
                  f"{c['neutral']:>3}  {p}")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extra", type=Path, required=True, help="extra_corpus.py build output")
    parser.add_argument("--cache", type=Path, default=None, help="keep each version's output here")
    parser.add_argument("--show", action="store_true", help="list every kept candidate")
    args = parser.parse_args(argv)
    extra = bench.extra_corpus(args.extra)
    if extra is None:
        print(f"error: {args.extra} holds no labels.jsonl\nhint: run extra_corpus.py build first")
        return 2
    report(collect(extra, args.cache), args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
