"""Train the durability gate (`agent_memory/extract/durability.py`) on TUNE people only, measure
it by leave-one-person-out, and write its weights into the package.

Examples: every prose sentence of every labelled statement of a TUNE person (the real corpus's
TUNE people, the small dev set, the extra corpus's TUNE people), labelled from the statement's
labels — a sentence holding the words of a non-optional expected entry is durable (a one-sentence
statement with such an entry is durable even when its keywords are translations); every other
sentence is not durable, including one holding only an optional entry's words (borderline:
a task's requirements, "for now" choices — precision first; `--optional-skip` leaves those
out instead). The rule family a sentence feeds is the family of the extractor's candidate
found in it (no family feature if the rules make nothing of it). Hard examples: the
candidates every earlier version of the rules (each commit of agent_memory/extract) makes of
the same TUNE statements — rule output before it was tuned to these people.

Leave-one-person-out: for each TUNE person, the gate is trained on everyone else and applied
to that person's candidates (the extractor's claims, scored as benchmarks/extraction.py scores
them: a candidate satisfying a non-optional entry of its line is a hit, one satisfying only an
optional entry is neutral, any other is false). Pooled P/R with and without the gate, per
threshold, for the current rules' candidates and for those of every rule version; the shipped
threshold is chosen on those out-of-fold scores only (see KEEP_RECALL).

Also reported: the gate out of fold on rule output no one had yet fitted to the person — for each
extra-corpus TUNE person, the candidates of the rule versions reachable from the tree they first
met (first_contact.py) — the nearest thing to strangers TUNE holds, and what a bar can do there.

SCORE people are never read here: their statements are not even loaded.

    python benchmarks/extra_corpus.py build --mirrors /work/.mirror --out /tmp/extra
    python benchmarks/train_durability.py --extra /tmp/extra [--write] [--threshold T] [--show]
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import importlib
import json
import math
import os
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
import first_contact  # noqa: E402
from common import run_at_commit  # noqa: E402

from agent_memory.extract import durability  # noqa: E402
from agent_memory.extract.statement import extract_claims  # noqa: E402
from agent_memory.transcripts.reader import iter_statements  # noqa: E402

OUT = ROOT / "agent_memory" / "resources" / durability.WEIGHTS_RESOURCE


@dataclass
class Cand:
    """One extractor candidate of a TUNE statement, scored as the benchmark scores it."""

    feats: list[str]
    outcome: str  # "hit" | "fp" | "neutral"
    hits: frozenset[int]  # indices of the non-optional entries of its line it satisfies
    claim: str = ""
    # today's hold for a second mention (durability.held_for_recurrence): were the gate to keep
    # it on one mention, it would be pending instead
    held: bool = False


@dataclass
class Line:
    group: str  # the person (leave-one-person-out unit)
    required: int  # non-optional expected entries
    cands: list[Cand]


@dataclass
class Example:
    group: str
    feats: list[str]
    label: int
    has_candidate: bool


def _words_of(entry: dict[str, Any], text: str) -> bool:
    low = text.lower()
    return all(any(w.lower() in low for w in group) for group in entry.get("all_of", []))


@dataclass
class Stmt:
    group: str
    expected: list[dict[str, Any]]
    text: str
    origin: str
    rejected_command: str | None


def statements(corpus: bench.Corpus, users: set[str], group_of: Any) -> list[Stmt]:
    """The labelled statements of `users` (TUNE people only: a SCORE person's are never read)."""
    out: list[Stmt] = []
    for rel in corpus.files:
        user = corpus.user_of(rel)
        if user not in users:
            continue
        for st in iter_statements(corpus.transcripts / rel):
            expected = corpus.labels.get((rel, st.line))
            if expected is not None:
                out.append(Stmt(group_of(user), expected, st.text, st.origin, st.rejected_command))
    return out


Claims = list[tuple[str, str, str]]  # (claim, kind, rule) of one statement


def _cand(st: Stmt, claim: str, kind: str, rule: str) -> Cand:
    matched = [k for k, e in enumerate(st.expected) if bench.satisfies(claim, kind, e)]
    required = frozenset(k for k in matched if not st.expected[k].get("optional"))
    outcome = "hit" if required else "neutral" if matched else "fp"
    feats = durability.candidate_features(st.text, claim, rule)
    held = durability.held_for_recurrence(st.text, claim, rule, feats)
    return Cand(feats, outcome, required, f"<{rule}> {claim}", held)


def candidate_lines(
    stmts: list[Stmt], claims: list[Claims], memo: dict[tuple[int, str, str, str], Cand]
) -> list[Line]:
    """Only the scored candidates of statements (an earlier rule version's: its sentence
    examples would be the current rules' ones again). `memo` keeps each (statement, claim,
    kind, rule) scored once across versions: most versions repeat most candidates."""
    lines: list[Line] = []
    for n, (st, found) in enumerate(zip(stmts, claims, strict=True)):
        cands = []
        for claim, kind, rule in found:
            key = (n, claim, kind, rule)
            if key not in memo:
                memo[key] = _cand(st, claim, kind, rule)
            cands.append(memo[key])
        lines.append(Line(st.group, sum(1 for e in st.expected if not e.get("optional")), cands))
    return lines


def collect(
    stmts: list[Stmt], claims: list[Claims], optional_negative: bool = False
) -> tuple[list[Example], list[Line]]:
    """Sentence examples and scored candidates of statements, given each one's claims. A
    sentence holding only an optional (borderline) entry is left out, or with
    `optional_negative` counted as not durable (a task's requirements, "for now" choices)."""
    examples: list[Example] = []
    lines: list[Line] = []
    for st, found in zip(stmts, claims, strict=True):
        parsed = durability.parse_statement(st.text)
        sents = parsed.sents
        family: dict[int, str] = {}
        for claim, _kind, rule in found:
            i = durability.source_index(sents, claim)
            family.setdefault(i, rule.split(".", 1)[0] if rule else "")
        required_entries = [e for e in st.expected if not e.get("optional")]
        lines.append(Line(st.group, len(required_entries), [_cand(st, *c) for c in found]))
        optional_entries = [e for e in st.expected if e.get("optional")]
        for i, sent in enumerate(sents):
            if any(_words_of(e, sent) for e in required_entries) or (
                len(sents) == 1 and required_entries
            ):
                label = 1
            elif not optional_negative and (
                any(_words_of(e, sent) for e in optional_entries)
                or (len(sents) == 1 and optional_entries)
            ):
                continue
            else:
                label = 0
            feats = durability.sentence_features(parsed, i, family.get(i))
            examples.append(Example(st.group, feats, label, i in family))
    return examples, lines


def current_claims(stmts: list[Stmt]) -> list[Claims]:
    return [
        [(c.claim, c.kind, c.rule) for c in extract_claims(
            st.text, origin=st.origin, rejected_command=st.rejected_command)]  # fmt: skip
        for st in stmts
    ]


_DUMP = """
import json, sys
sys.path.insert(0, sys.argv[1])
from agent_memory.extract.statement import extract_claims
data = json.load(open(sys.argv[2], encoding="utf-8"))
out = [[[c.claim, c.kind, getattr(c, "rule", "")] for c in extract_claims(t, origin=o, rejected_command=r)]
       for t, o, r in data]
json.dump(out, sys.stdout)
"""


def historical_claims(
    stmts: list[Stmt], commit: str, tmp: Path, cache: Path | None = None
) -> list[Claims]:
    """The claims an earlier version of the rules (`commit`) made of the same statements: false
    atoms the current rules were since tuned out of, the shapes rules produce on people they
    were not fitted to. Run from a `git archive` of that commit in a temporary directory; with
    `cache`, kept there per (commit, statements) so that a rerun (feature work) skips them."""
    payload = json.dumps([[s.text, s.origin, s.rejected_command] for s in stmts])
    key = hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]
    cached = cache / f"{commit}-{key}.json" if cache is not None else None
    got = run_at_commit(ROOT, commit, _DUMP, payload, tmp, cached)
    return [[(c[0], c[1], c[2]) for c in one] for one in json.loads(got)]


# --- logistic regression, plain Python ----------------------------------------------------------


def _numpy() -> Any:
    """numpy when installed (optional: the trainer runs without it, only slower)."""
    try:
        return importlib.import_module("numpy")
    except ImportError:
        return None


def train(
    examples: list[Example], l2: float = 1.0, iters: int = 400, cand_weight: float = 3.0
) -> dict[str, float]:
    """L2-regularised logistic regression by full-batch gradient descent (deterministic: fixed
    order, no sampling). Classes are balanced; sentences that gave a candidate (what the gate
    sees at run time) weigh `cand_weight` times more."""
    names = sorted({f for ex in examples for f in ex.feats})
    index = {n: i for i, n in enumerate(names)}
    rows = [[index[f] for f in ex.feats] for ex in examples]
    ys = [ex.label for ex in examples]
    base = [cand_weight if ex.has_candidate else 1.0 for ex in examples]
    pos = sum(b for b, y in zip(base, ys, strict=True) if y) or 1.0
    neg = sum(b for b, y in zip(base, ys, strict=True) if not y) or 1.0
    total = pos + neg
    sw = [b * (total / (2 * pos) if y else total / (2 * neg)) for b, y in zip(base, ys, strict=True)]
    # Examples with the same features and label add the same gradient term: one row each with
    # their weights summed (in first-seen order, so the sums stay deterministic) — far fewer rows.
    merged: dict[tuple[tuple[int, ...], int], float] = {}
    for row, y, s in zip(rows, ys, sw, strict=True):
        key = (tuple(row), y)
        merged[key] = merged.get(key, 0.0) + s
    u_rows = [list(k[0]) for k in merged]
    u_ys = [k[1] for k in merged]
    u_sw = list(merged.values())
    n = float(len(examples)) or 1.0
    lr = 0.5
    np = _numpy()
    if np is not None:
        # The same updates as the loop below, as matrix products: a leave-one-person-out run
        # (one training per person) takes minutes instead of a quarter of an hour; weights
        # equal the loop's to ~1e-15.
        x = np.zeros((len(u_rows), len(names)))
        for r, row in enumerate(u_rows):
            x[r, row] = 1.0
        y_v, s_v = np.array(u_ys, dtype=float), np.array(u_sw)
        reg_v = np.array([0.0 if name == "bias" else l2 for name in names])
        w_v = np.zeros(len(names))
        for _ in range(iters):
            p_v = 1.0 / (1.0 + np.exp(-np.clip(x @ w_v, -60.0, 60.0)))
            w_v = w_v - lr * ((x.T @ (s_v * (p_v - y_v))) / n + reg_v * w_v / n)
        return {name: float(w_v[i]) for i, name in enumerate(names)}
    w = [0.0] * len(names)
    for _ in range(iters):
        grad = [0.0] * len(names)
        for row, y, s in zip(u_rows, u_ys, u_sw, strict=True):
            z = sum(w[j] for j in row)
            p = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))
            g = s * (p - y)
            for j in row:
                grad[j] += g
        for j in range(len(w)):
            reg = 0.0 if names[j] == "bias" else l2 * w[j]
            w[j] -= lr * (grad[j] / n + reg / n)
    return {name: w[i] for i, name in enumerate(names)}


def _prob(weights: dict[str, float], feats: list[str]) -> float:
    return durability.Model(weights, 0.5).probability(feats)


# --- evaluation ----------------------------------------------------------------------------------


def pr(lines: list[Line], keep: Any) -> dict[str, float]:
    """Pooled precision/recall of the candidates `keep(cand)` lets through."""
    hits = fp = req = found = 0
    for line in lines:
        kept = [c for c in line.cands if keep(c)]
        hits += sum(1 for c in kept if c.outcome == "hit")
        fp += sum(1 for c in kept if c.outcome == "fp")
        req += line.required
        found += len(frozenset().union(*(c.hits for c in kept))) if kept else 0
    return {
        "hits": hits,
        "fp": fp,
        "P": hits / (hits + fp) if hits + fp else 1.0,
        "R": found / req if req else 1.0,
        "found": found,
        "required": req,
    }


def dump_oof(
    path: Path, pools: dict[str, list[Line]], evaluated: set[str], scores: dict[int, float]
) -> None:
    """The held-out candidates of each pool with their out-of-fold gate scores, per line (so
    that other keep policies — a stricter threshold for one rule, say — can be scored later
    without retraining). Claims and rule names only: TUNE people's, never a SCORE person's."""
    out = {
        name: [
            {"group": ln.group, "required": ln.required, "cands": [
                {"claim": c.claim, "outcome": c.outcome, "hits": sorted(c.hits),
                 "score": scores[id(c)], "exempt": durability.exempt(c.feats), "held": c.held}
                for c in ln.cands]}  # fmt: skip
            for ln in pool_ if ln.group in evaluated
        ]
        for name, pool_ in pools.items()
    }
    path.write_text(json.dumps(out, ensure_ascii=False), "utf-8")


def auc(scored: list[tuple[float, int]]) -> float:
    pos = [s for s, y in scored if y]
    neg = [s for s, y in scored if not y]
    if not pos or not neg:
        return float("nan")
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    return wins / (len(pos) * len(neg))


# Earlier versions of the rules (every commit of agent_memory/extract) whose candidates on the
# same TUNE statements serve as hard examples: what rules say before they are tuned to a person.
def rule_history() -> list[str]:
    out = subprocess.run(["git", "-C", str(ROOT), "log", "--format=%h", "--", "agent_memory/extract"],
                         check=True, capture_output=True, text=True).stdout  # fmt: skip
    return out.split()


def unfitted_versions(commits: list[str], root: Path = ROOT) -> dict[str, set[str]]:
    """Extra-corpus TUNE group ("extra:<person>") -> the rule versions of `commits` no one had
    yet read that person with: those reachable from the tree the person first met
    (first_contact.first_versions) — what the rules said of them as a stranger. A person
    without such a version (labelled in a root commit) is left out."""
    wanted = {c[:7]: c for c in commits}
    reach: dict[str, set[str]] = {}
    out: dict[str, set[str]] = {}
    for who, (met, _day) in first_contact.first_versions(root).items():
        if met not in reach:
            log = subprocess.run(["git", "-C", str(root), "rev-list", met, "--", "agent_memory/extract"],
                                 check=True, capture_output=True, text=True).stdout  # fmt: skip
            reach[met] = {wanted[c[:7]] for c in log.split() if c[:7] in wanted}
        if reach[met]:
            out[f"extra:{who}"] = reach[met]
    return out


def unfitted_pool(
    lines: list[Line], made_by: dict[int, set[str]], versions: dict[str, set[str]]
) -> list[Line]:
    """The candidates of `lines` (the union of every version's) that a version not yet fitted
    to the line's person made, one per claim (a renamed rule gives the same claim twice)."""
    pool: list[Line] = []
    for line in lines:
        allowed = versions.get(line.group)
        if not allowed:
            continue
        claims: dict[str, Cand] = {}
        for c in line.cands:
            if made_by.get(id(c), set()) & allowed:
                claims.setdefault(c.claim.split("> ", 1)[-1], c)
        pool.append(Line(line.group, line.required, list(claims.values())))
    return pool


# The threshold (fixed before the 61-people retrain, /work notes 28-gate2): precision on
# strangers is what the extractor lacks now. Admissible thresholds (0.05 steps) keep, out of
# fold, at least this share of the durable statements the current rules' candidates find
# ungated; of those, the one with the highest precision on every rule version's candidates
# (rule output not yet tuned to these people, the nearest thing to strangers), the higher
# threshold on a tie (within 0.005).
KEEP_RECALL = 0.90


def choose_threshold(
    current: tuple[dict[str, float], dict[float, dict[str, float]]],
    every: dict[float, dict[str, float]],
) -> float:
    base, rows = current
    ok = [t for t, row in rows.items() if row["found"] >= KEEP_RECALL * base["found"]]
    if not ok:
        return 0.0
    best = max(every[t]["P"] for t in ok)
    return max(t for t in ok if every[t]["P"] >= best - 0.005)


def _strip(feats: list[str], drop: tuple[str, ...]) -> list[str]:
    return [f for f in feats if not f.startswith(drop)] if drop else feats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--real", type=Path, default=Path(os.environ.get(
        "AGENT_MEMORY_REAL_CORPUS", bench.REAL_DEFAULT)))  # fmt: skip
    parser.add_argument("--extra", type=Path, default=Path(os.environ.get(
        "AGENT_MEMORY_EXTRA_CORPUS", "/nonexistent")))  # fmt: skip
    parser.add_argument("--write", action="store_true", help="write the package's weights file")
    parser.add_argument("--threshold", type=float, default=None, help="ship this threshold")
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--cand-weight", type=float, default=3.0)
    parser.add_argument("--history", default="all", help="commits, comma-separated ('' for none)")
    parser.add_argument("--drop", default="", help="leave out features by prefix (comma list)")
    parser.add_argument("--optional-skip", action="store_true",
                        help="leave sentences of optional entries out (default: not durable)")
    parser.add_argument("--no-lopo", action="store_true")
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep earlier rule versions' claims here (reruns skip them)")
    parser.add_argument("--folds", type=int, default=0,
                        help="people in this many folds instead of one per person (quick runs)")
    parser.add_argument("--show", action="store_true", help="list TUNE candidates the gate drops")
    parser.add_argument("--keep-threshold", type=float, default=None,
                        help="ship this keep bar (an atom on one mention; default: the shipped one)")
    parser.add_argument("--dump-oof", type=Path, default=None,
                        help="write every held-out candidate's out-of-fold score here (JSON)")
    args = parser.parse_args(argv)
    # Every rule version's candidates come from the same statements: parse each one once (the
    # package's cache is sized for a session's stream, not for this).
    durability.parse_statement = functools.lru_cache(maxsize=None)(  # type: ignore[assignment]
        durability.parse_statement.__wrapped__
    )
    sources: list[tuple[str, list[Stmt], bool]] = []
    with tempfile.TemporaryDirectory() as tmp:
        small = bench.small_corpus()
        sources.append(("small dev set", statements(small, set(small.users),
                                                    lambda u: f"small:{u}"), False))  # fmt: skip
        real = bench.real_corpus(args.real, Path(tmp))
        if real is not None:
            tune, _ = bench.split_users(real.users)
            sources.append(("real corpus TUNE", statements(real, tune, bench.person), True))
        extra = bench.extra_corpus(args.extra)
        if extra is not None:
            tune_x, _ = bench.split_users(extra.users, section="extra")
            sources.append(("extra TUNE", statements(
                extra, tune_x, lambda u: f"extra:{bench.person(u)}"), True))  # fmt: skip
        stmts = [st for _, group, _ in sources for st in group]
        commits = rule_history() if args.history == "all" else [
            c for c in args.history.split(",") if c
        ]
        history = [historical_claims(stmts, c, Path(tmp), args.cache) for c in commits]
    examples, lines = collect(stmts, current_claims(stmts), not args.optional_skip)
    # Per statement, the distinct candidates of every version of the rules (current ones
    # included): the pool the gate is judged on besides the current rules' own candidates.
    union = [Line(ln.group, ln.required, list(ln.cands)) for ln in lines]
    hard: list[Example] = []
    memo: dict[tuple[int, str, str, str], Cand] = {}
    # The candidate of `union` that stands for each (statement, features, outcome) — a key seen
    # before adds nothing — and the versions that made it, for the stranger pool below.
    first_of = {(n, tuple(c.feats), c.outcome): c for n, ln in enumerate(lines) for c in ln.cands}
    made_by: dict[int, set[str]] = {}
    for commit, claims in zip(commits, history, strict=True):
        h_lines = candidate_lines(stmts, claims, memo)
        for n, line in enumerate(h_lines):
            for c in line.cands:
                key = (n, tuple(c.feats), c.outcome)
                rep = first_of.get(key)
                if rep is None:
                    first_of[key] = rep = c
                    union[n].cands.append(c)
                    if c.outcome != "neutral" or not args.optional_skip:
                        hard.append(Example(line.group, c.feats, int(c.outcome == "hit"), True))
                made_by.setdefault(id(rep), set()).add(commit)
    hist_lines = union
    drop = tuple(p for p in args.drop.split(",") if p)
    for ex in [*examples, *hard]:
        ex.feats = _strip(ex.feats, drop)
    for line in [*lines, *hist_lines]:
        for c in line.cands:
            c.feats = _strip(c.feats, drop)
    train_set = [*examples, *hard]
    shipped = durability.packaged_model()  # the weights in the package now (None: unreadable)
    evaluated = {st.group for name, group, ev in sources if ev for st in group}
    print("training set:")
    for name, group, _ in sources:
        ids = {st.group for st in group}
        ex = [e for e in examples if e.group in ids]
        print(f"  {name}: {len(ids)} people, {len(group)} statements, {len(ex)} sentences "
              f"({sum(e.label for e in ex)} durable, {sum(e.has_candidate for e in ex)} "
              f"giving a candidate)")  # fmt: skip
    print(f"  earlier rules ({len(commits)} commits): {len(hard)} more distinct candidates "
          f"({sum(e.label for e in hard)} hits, {sum(1 - e.label for e in hard)} false)")
    kw = {"l2": args.l2, "cand_weight": args.cand_weight}
    threshold = args.threshold
    lopo_rows: dict[str, Any] = {}
    if not args.no_lopo:
        people = sorted({e.group for e in train_set})
        # One fold per person, or (--folds K) people dealt round-robin in a fixed hashed order.
        order = sorted(people, key=lambda g: hashlib.sha256(g.encode()).hexdigest())
        fold_of = {g: (i % args.folds if args.folds else i) for i, g in enumerate(order)}
        groups = sorted(set(fold_of.values()))
        cand_scores: dict[int, float] = {}
        sent_scores: list[tuple[float, int]] = []
        for g in groups:
            weights = train([ex for ex in train_set if fold_of[ex.group] != g], **kw)
            for line in [*lines, *hist_lines]:
                if fold_of.get(line.group) == g:
                    for c in line.cands:
                        cand_scores[id(c)] = _prob(weights, c.feats)
            sent_scores.extend((_prob(weights, ex.feats), ex.label)
                               for ex in examples if fold_of[ex.group] == g)  # fmt: skip
        print(f"LOPO over {len(evaluated)} TUNE people ({len(groups)} folds incl. the small dev"
              f" set's users); sentence AUC {auc(sent_scores):.3f}")  # fmt: skip
        for name, pool_ in (("current rules", lines), ("rules of every version", hist_lines)):
            held = [ln for ln in pool_ if ln.group in evaluated]
            base = pr(held, lambda c: True)
            c_auc = auc([(cand_scores[id(c)], int(c.outcome == "hit")) for ln in held
                         for c in ln.cands if c.outcome != "neutral"])  # fmt: skip
            print(f" candidates of the {name} (hit vs false AUC {c_auc:.3f}):")
            print(f"  no gate:      P {base['P']:.3f}  R {base['R']:.3f}  "
                  f"({base['hits']} hits, {base['fp']} fp, {base['found']}/{base['required']})")
            if args.show:
                for ln in held:
                    for c in ln.cands:
                        if c.outcome == "fp" or cand_scores[id(c)] < 0.6:
                            print(f"    {c.outcome:7} {cand_scores[id(c)]:.2f} {c.claim[:110]}")
            rows = {}
            for t in [i / 20 for i in range(1, 19)]:
                row = pr(held, lambda c, t=t: durability.exempt(c.feats) or cand_scores[id(c)] >= t)
                rows[t] = row
                print(f"  gate >= {t:.2f}: P {row['P']:.3f}  R {row['R']:.3f}  "
                      f"({row['hits']} hits, {row['fp']} fp, {row['found']}/{row['required']})")
            lopo_rows[name] = (base, rows)
        if args.dump_oof is not None:
            dump_oof(args.dump_oof, {"current rules": lines, "rules of every version": hist_lines},
                     evaluated, cand_scores)
        chosen = choose_threshold(lopo_rows["current rules"], lopo_rows["rules of every version"][1])
        # What narrower exemptions would give (the same out-of-fold scores, other EXEMPT sets).
        for label, ex_set in (("no English standing word", durability.EXEMPT - {"standing"}),
                              ("rejection only", frozenset({"family=rejection"}))):  # fmt: skip
            alt: dict[str, Any] = {}
            for name, pool_ in (("current rules", lines), ("rules of every version", hist_lines)):
                held = [ln for ln in pool_ if ln.group in evaluated]
                alt[name] = (pr(held, lambda c: True), {
                    t: pr(held, lambda c, t=t, e=ex_set: not e.isdisjoint(c.feats)
                          or cand_scores[id(c)] >= t)
                    for t in [i / 20 for i in range(1, 19)]})  # fmt: skip
            t_alt = choose_threshold(alt["current rules"], alt["rules of every version"][1])
            for name, (_, rows) in alt.items():
                row = rows[t_alt]
                print(f"exempt {label}: at {t_alt:.2f}, {name}: P {row['P']:.3f}  R {row['R']:.3f}"
                      f"  ({row['hits']} hits, {row['fp']} fp, {row['found']}/{row['required']})")
        # The keep bar (durability.Model.keep_threshold: an atom on one mention; between the
        # drop threshold and it, pending until the claim recurs), out of fold: what is an atom
        # on one mention at each bar — the "gate >=" rows above (exempt, or scored at the bar),
        # side by side for the bars a keep bar is chosen among.
        base_t = shipped.threshold if shipped else chosen
        for bar in (base_t, 0.7, 0.75, 0.8, 0.85, 0.9):
            for name, (_, rows) in lopo_rows.items():
                row = next(r for t, r in rows.items() if round(t, 2) == round(bar, 2))
                print(f"keep bar {bar:.2f}, {name}: P {row['P']:.3f}  R {row['R']:.3f}  "
                      f"({row['hits']} hits, {row['fp']} fp, {row['found']}/{row['required']})")
        # The same, with today's hold for a second mention: what is an atom on one mention now.
        keep_bar_now = shipped.keep_threshold if shipped else 0.8
        for name, pool_ in (("current rules", lines), ("rules of every version", hist_lines)):
            held_ = [ln for ln in pool_ if ln.group in evaluated]
            row = pr(held_, lambda c: not c.held and (durability.exempt(c.feats)
                                                       or cand_scores[id(c)] >= keep_bar_now))
            print(f"keep bar {keep_bar_now:.2f} and the hold, {name}: P {row['P']:.3f}  R "
                  f"{row['R']:.3f}  ({row['hits']} hits, {row['fp']} fp, {row['found']}/"
                  f"{row['required']})")  # fmt: skip
        # Rule output no one had yet fitted to the person (the versions reachable from the tree
        # each extra TUNE person first met), scored by today's gate out of fold: the nearest
        # thing to strangers TUNE holds, and what a bar can do for them.
        strangers = unfitted_pool(hist_lines, made_by, unfitted_versions(commits))
        if strangers:
            base = pr(strangers, lambda c: True)
            print(f"rule output not yet fitted to the person ({len({ln.group for ln in strangers})}"
                  f" people; {base['hits']} hits, {base['fp']} fp ungated, {base['found']}/"
                  f"{base['required']} found):")  # fmt: skip
            for bar in (base_t, 0.7, 0.8, 0.9, 0.95):
                row = pr(strangers, lambda c, b=bar: durability.exempt(c.feats)
                         or cand_scores[id(c)] >= b)  # fmt: skip
                print(f"  gate >= {bar:.2f}: P {row['P']:.3f}  R {row['R']:.3f}  ({row['hits']} "
                      f"hits, {row['fp']} fp, {row['found']}/{row['required']})")  # fmt: skip
            row = pr(strangers, lambda c: not c.held and (durability.exempt(c.feats)
                                                           or cand_scores[id(c)] >= keep_bar_now))
            print(f"  gate >= {keep_bar_now:.2f} and the hold: P {row['P']:.3f}  R {row['R']:.3f}"
                  f"  ({row['hits']} hits, {row['fp']} fp, {row['found']}/{row['required']})")
        for name, (_, rows) in lopo_rows.items():
            row = rows[chosen]
            print(f"at {chosen:.2f}, {name}: P {row['P']:.3f}  R {row['R']:.3f}  ({row['hits']} "
                  f"hits, {row['fp']} fp, {row['found']}/{row['required']})")  # fmt: skip
        if threshold is None:
            threshold = chosen
            print(f"chosen threshold {threshold:.2f} (current rules keep >= {KEEP_RECALL:.0%} of"
                  " their ungated durable statements; highest every-version precision)")  # fmt: skip
    threshold = 0.5 if threshold is None else threshold
    keep_bar = args.keep_threshold
    if keep_bar is None:  # keep the shipped bar: a retrain must not drop it silently
        if shipped is None:
            print(f"error: {OUT.name} is missing or unreadable, so its keep_threshold is unknown"
                  "\nhint: pass --keep-threshold")  # fmt: skip
            return 2
        keep_bar = shipped.keep_threshold
    if not 0.0 <= keep_bar <= 1.0:
        print(f"error: --keep-threshold {keep_bar} is not a probability\nhint: pass 0..1")
        return 2
    if keep_bar <= threshold:
        print(f"warning: the keep bar {keep_bar} is not above the threshold {threshold}:"
              " nothing is pending")  # fmt: skip
    weights = train(train_set, **kw)
    print(f"final model: {len(weights)} features, threshold {threshold}, keep bar {keep_bar}")
    top = sorted(weights.items(), key=lambda kv: -abs(kv[1]))[:30]
    print("  strongest: " + ", ".join(f"{k} {v:+.2f}" for k, v in top))
    if args.write:
        data = {
            "format": durability.FORMAT,
            "about": "Weights of agent_memory/extract/durability.py, trained by "
            "benchmarks/train_durability.py on TUNE people only (no statement text inside).",
            "threshold": threshold,
            "keep_threshold": keep_bar,
            "training": {
                "statements": len(stmts),
                "sentences": len(examples),
                "earlier_rule_candidates": len(hard),
                "rule_versions": len(commits),
                "l2": args.l2,
                "cand_weight": args.cand_weight,
                "optional": "skipped" if args.optional_skip else "not durable",
            },
            "weights": {k: round(v, 6) for k, v in sorted(weights.items())},
        }
        OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", "utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
