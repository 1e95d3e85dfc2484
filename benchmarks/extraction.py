"""Extraction quality and speed (spec §9.2: can deterministic extraction work at all?).

Scores `agent_memory.extract.pipeline.extract_transcript` on two labelled corpora with the
rules of `tests/fixtures/extraction/README.md`:

- (a) the small dev set, `tests/fixtures/extraction/labels.jsonl` over `tests/fixtures/transcripts`;
- (b) the real dev corpus, `../shared/fixtures/extraction-real/` (15 people's sessions; the
  tarball is unpacked to a temporary directory at run time and never copied; override the
  location with `AGENT_MEMORY_REAL_CORPUS` or `--real DIR`). Its text is for measurement only:
  this script prints claims and label notes, never writes prompts anywhere.

Scoring, per observation (an atom's evidence line — a claim restated on three lines is three
observations, because every statement is labelled where it is said):

- an observation on a labelled line that satisfies one of its expected entries (kind in
  `kind`, a word of every `all_of` group in the claim, the negation kept when `negated`) is a
  hit; one matching only an `optional` entry is neutral (neither hit nor false positive);
- any other observation on a user-statement line (labelled `[]`, or not labelled at all) is a
  false positive; `failure` atoms minted from tool errors are reported separately;
- precision = hits / (hits + false positives); recall = non-optional entries hit /
  non-optional entries.

Reported: pooled figures, per kind and per language (detected per prompt from its text); for
TUNE people also per person, per rule family and per rule (the `rule` each evidence item
carries); and rule-support leave-one-person-out: each person scored without the rules that only
that person's lines support (a rule that exists only for one person's phrasing).

Then convergence: on the real corpus, how many distinct claims (atom ids) each durable
statement that is labelled more than once produced; on the bundled demo sessions, one atom
per rule with all the sessions that stated it (spec §4: a rule that comes out as three claims
never recurs).

Split (`benchmarks/extraction_split.json`, fixed from person ids before prompts were read; its
`method` says how): the 15 people of the real corpus are TUNE people (rules may be studied on
them: their misses and false atoms are listed with `--verbose`) or SCORE people (only ever
reported as figures — pooled, per kind, per language — never listed). The scored figures are the
measurement; the tune figures are printed separately, labelled as such. A person is the owner of
the repository the sessions come from (`<owner>__<repo>/` in the tarball). Whatever is fitted is
trained on TUNE people and the small dev set only.

More people (`--extra DIR`, or `AGENT_MEMORY_EXTRA_CORPUS`): a directory with `labels.jsonl` and
`transcripts/<person>/…`, labelled before the extractor was run on them, kept outside the
repository. The split file's `extra` section names its TUNE people (listed like the real
corpus's with `--verbose`); every other person is a SCORE person (figures only), reported on
its own and pooled with the SCORE people of the real corpus.

Then the speed: a ≥ 10 MB transcript made of the fixture transcripts' own lines, extracted end
to end, in MB/s (must stay ≥ 10 MB/s), and the worst case made of typed prompts only.
A benchmark, not a test: it prints, it never fails.

    python benchmarks/extraction.py [--json] [--verbose] [--no-speed] [--no-louo] [--real DIR]
        [--extra DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import tarfile
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
TRANSCRIPTS = FIXTURES / "transcripts"
LABELS = FIXTURES / "extraction" / "labels.jsonl"
# `../shared/…` next to the repository (or next to a worktree's parent directory).
REAL_DEFAULT = next(
    (
        p / "shared" / "fixtures" / "extraction-real"
        for p in ROOT.parents
        if (p / "shared" / "fixtures" / "extraction-real").is_dir()
    ),
    ROOT.parent / "shared" / "fixtures" / "extraction-real",
)
NEGATIONS = ("don't", "never", "not", "no longer", "instead of")
SPLIT = Path(__file__).resolve().parent / "extraction_split.json"

sys.path.insert(0, str(ROOT))

from agent_memory.extract.pipeline import extract_transcript  # noqa: E402
from agent_memory.transcripts.reader import iter_statements  # noqa: E402

Labels = dict[tuple[str, int], list[dict[str, Any]]]


# --- corpora ----------------------------------------------------------------------------------


@dataclass
class Corpus:
    name: str
    transcripts: Path
    labels: Labels
    user_of: Callable[[str], str]
    texts: dict[tuple[str, int], str] = field(default_factory=dict)  # statement text per line

    @property
    def files(self) -> list[str]:
        return sorted({t for t, _ in self.labels})

    @property
    def users(self) -> list[str]:
        return sorted({self.user_of(t) for t in self.files})


def person(user: str) -> str:
    """The person of a corpus user directory (`<owner>__<repo>`): the repository's owner."""
    return user.split("__", 1)[0]


def split_users(
    users: Iterable[str], path: Path = SPLIT, section: str | None = None
) -> tuple[set[str], set[str]]:
    """(TUNE, SCORE) user directories, as the committed split file assigns their people (its
    top level for the real corpus, its `section` for the extra people). A person the file does
    not name as TUNE is scored (never silently tuned on)."""
    split = json.loads(path.read_text("utf-8"))
    if section is not None:
        split = split.get(section, {"tune": []})
    tune = {u for u in users if side(person(u), split) == "tune"}
    return tune, set(users) - tune


def side(who: str, split: dict[str, Any]) -> str:
    """"tune" or "score". A person named in the section's lists keeps that side; any other
    person is placed by the section's `new_people` rule, from the person id alone (so the side
    is fixed before a single prompt is read): TUNE when the first hex digit of
    sha256(salt + person id) is one of `tune_digits`."""
    if who in split.get("tune", ()):
        return "tune"
    if who in split.get("score", ()):
        return "score"
    rule = split.get("new_people")
    if rule:
        digest = hashlib.sha256((rule["salt"] + who).encode("utf-8")).hexdigest()
        if digest[0] in rule["tune_digits"]:
            return "tune"
    return "score"


def load_labels(path: Path = LABELS) -> Labels:
    labels: Labels = {}
    for raw in path.read_text("utf-8").splitlines():
        if raw.strip():
            item = json.loads(raw)
            labels[(item["transcript"], int(item["line"]))] = item["expected"]
    return labels


def small_corpus() -> Corpus:
    def user(rel: str) -> str:
        parts = rel.split("/")
        return parts[1] if parts[0] == "real_projects" and len(parts) > 2 else parts[0]

    return Corpus("small dev set", TRANSCRIPTS, load_labels(LABELS), user)


def real_corpus(base: Path, tmp: Path) -> Corpus | None:
    tarball = base / "transcripts.tar.gz"
    if not tarball.is_file():
        return None
    with tarfile.open(tarball) as tar:
        try:
            tar.extractall(tmp, filter="data")
        except TypeError:  # Python < 3.12 without the filter argument
            tar.extractall(tmp)  # noqa: S202 - our own fixture
    return Corpus(
        "real dev corpus",
        tmp / "transcripts",
        load_labels(base / "labels.jsonl"),
        lambda rel: rel.split("/", 1)[0],
    )


def extra_corpus(base: Path) -> Corpus | None:
    """People outside the real corpus (`<base>/labels.jsonl`, `<base>/transcripts/<person>/…`),
    split into TUNE and SCORE by the split file's `extra` section."""
    if not (base / "labels.jsonl").is_file():
        return None
    return Corpus(
        "extra people",
        base / "transcripts",
        load_labels(base / "labels.jsonl"),
        lambda rel: rel.split("/", 1)[0],
    )


# --- language of a prompt ----------------------------------------------------------------------

_STOP = {
    "pt": "não você para com uma isso está também então usar sempre nunca porque mas como são fazer"
    " pode preciso quero",
    "fr": "ne pas vous nous est une les des avec pour toujours jamais utilise utiliser mais c'est"
    " dans sur fais faire",
    "it": "non sempre mai usa usare della delle perché questo sono anche fare il gli che è",
    "es": "no siempre nunca usa usar pero porque esto también hacer está para con una",
    "de": "nicht immer niemals verwende benutze und ist das die der mit für auch",
}
_STOP_SETS = {lang: frozenset(words.split()) for lang, words in _STOP.items()}


def language(text: str) -> str:
    """Per prompt, from its script (and, for Latin text, its function words)."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return "?"
    cjk = sum(1 for ch in letters if "\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af")
    cyr = sum(1 for ch in letters if "\u0400" <= ch <= "\u04ff")
    if cjk / len(letters) > 0.2:
        # Hangul is Korean (it was counted as Chinese); kana marks Japanese; Han alone, Chinese
        hangul = sum(1 for ch in letters if "\uac00" <= ch <= "\ud7af")
        if hangul * 2 >= cjk:
            return "ko"
        return "zh" if not re.search(r"[\u3040-\u30ff]", text) else "ja"
    if cyr / len(letters) > 0.3:
        return "ru"
    words = re.findall(r"[a-zà-ÿ']+", text.lower())
    best, best_n = "en", 0
    for lang, stop in _STOP_SETS.items():
        n = sum(1 for w in words if w in stop)
        if n > best_n:
            best, best_n = lang, n
    en = sum(1 for w in words if w in _EN_STOP)
    return best if best_n >= 3 and best_n > en else "en"


_EN_STOP = frozenset(
    [
        "the",
        "and",
        "to",
        "of",
        "is",
        "it",
        "in",
        "that",
        "you",
        "for",
        "this",
        "with",
        "not",
        "be",
        "are",
        "on",
        "do",
        "don't",
        "use",
        "can",
    ]
)


# --- observations and scoring ------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    transcript: str
    line: int
    atom_id: str
    claim: str
    kind: str
    rule: str
    failure: bool  # a failure atom minted from tool errors (reported separately)


def _line(pointer: str) -> int:
    return int(pointer.rsplit("#L", 1)[1])


Extracted = dict[Path, list[dict[str, Any]]]  # transcript → its atoms (or pending claims)


def as_captured(corpus: Corpus) -> tuple[Extracted, Extracted]:
    """(atoms, pending) of each transcript as capture would hold them once all the sessions of
    its store are in, from one extraction pass. Atoms: its own, plus the claims it holds as
    pending that are said again in another session of the same store (merged by id,
    `atom.merge` lifts them). Pending: the claims pending everywhere they are said — no atoms,
    not counted as such. A store is one person's one project folder (its transcripts'
    directory): each repository has its own, so nothing lifts across them."""
    from agent_memory.extract.pipeline import merge_observations
    from agent_memory.model.atom import is_pending

    results = {rel: extract_transcript(corpus.transcripts / rel, "dev") for rel in corpus.files}

    def store(rel: str) -> tuple[str, str]:
        return corpus.user_of(rel), str(Path(rel).parent)

    per_store: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for rel, result in results.items():
        per_store.setdefault(store(rel), []).extend([*result.atoms, *result.pending])
    lifted = {(key, a["id"]) for key, found in per_store.items()
              for a in merge_observations(found) if not is_pending(a)}  # fmt: skip
    atoms: Extracted = {}
    pending: Extracted = {}
    for rel, r in results.items():
        path = corpus.transcripts / rel
        atoms[path] = [*r.atoms, *(a for a in r.pending if (store(rel), a["id"]) in lifted)]
        pending[path] = [a for a in r.pending if (store(rel), a["id"]) not in lifted]
    return atoms, pending


def observations(
    corpus: Corpus, extract: Callable[[Path], list[dict[str, Any]]] | None = None
) -> list[Observation]:
    extract = extract or as_captured(corpus)[0].__getitem__
    out: list[Observation] = []
    for rel in corpus.files:
        path = corpus.transcripts / rel
        for st in iter_statements(path):
            corpus.texts.setdefault((rel, st.line), st.text)
        for atom in extract(path):
            failure = atom["kind"] == "failure" and atom["confidence"] == "observed"
            evidence = atom.get("evidence") or [{"source": atom["first_source"]}]
            for ev in evidence:
                out.append(
                    Observation(
                        rel,
                        _line(ev["source"]),
                        atom["id"],
                        atom["claim"],
                        atom["kind"],
                        str(ev.get("rule") or "?"),
                        failure,
                    )
                )
    return out


def satisfies(claim: str, kind: str, entry: dict[str, Any]) -> bool:
    low = claim.lower()
    if kind not in entry.get("kind", []):
        return False
    for group in entry.get("all_of", []):
        if not any(word.lower() in low for word in group):
            return False
    return not (entry.get("negated") and not any(n in low for n in NEGATIONS))


def _blank() -> dict[str, int]:
    return {"atoms": 0, "hits": 0, "fp": 0, "neutral": 0, "expected": 0, "expected_hit": 0}


def _pr(row: dict[str, int]) -> tuple[float, float]:
    counted = row["hits"] + row["fp"]
    p = row["hits"] / counted if counted else 1.0
    r = row["expected_hit"] / row["expected"] if row["expected"] else 1.0
    return p, r


def score(
    corpus: Corpus, obs: Iterable[Observation], users: set[str] | None = None
) -> dict[str, Any]:
    """Precision, recall and their breakdowns for `obs` (restricted to `users` if given)."""
    keep = (lambda rel: corpus.user_of(rel) in users) if users is not None else (lambda rel: True)
    labels = corpus.labels
    rows: dict[str, dict[str, dict[str, int]]] = {
        "user": defaultdict(_blank),
        "kind": defaultdict(_blank),
        "language": defaultdict(_blank),
        "rule": defaultdict(_blank),
        "rule_full": defaultdict(_blank),
        "all": defaultdict(_blank),
    }
    hit_entries: set[tuple[str, int, int]] = set()
    false_positives: list[dict[str, Any]] = []
    other_kind = 0  # false atoms a durable label of their line would take under its own kind
    tool_failures: list[dict[str, Any]] = []
    for o in obs:
        if not keep(o.transcript):
            continue
        if o.failure:
            tool_failures.append({"transcript": o.transcript, "line": o.line, "claim": o.claim})
            continue
        lang = language(corpus.texts.get((o.transcript, o.line), ""))
        family = o.rule.split(".", 1)[0]
        keys = {
            "user": corpus.user_of(o.transcript),
            "kind": o.kind,
            "language": lang,
            "rule": family,
            "rule_full": o.rule,
            "all": "all",
        }
        expected = labels.get((o.transcript, o.line), [])
        matched = [i for i, e in enumerate(expected) if satisfies(o.claim, o.kind, e)]
        required = [i for i in matched if not expected[i].get("optional")]
        outcome = "hits" if required else "neutral" if matched else "fp"
        for table, key in keys.items():
            rows[table][key]["atoms"] += 1
            rows[table][key][outcome] += 1
        if required:
            hit_entries.update((o.transcript, o.line, i) for i in required)
        elif not matched:
            # labellers split a user's rule between preference and constraint (or a choice between
            # fact and decision) differently: the claim is right, the kind read another way
            other_kind += any(
                satisfies(o.claim, e["kind"][0], e) for e in expected if not e.get("optional")
            )
            false_positives.append(
                {
                    "transcript": o.transcript,
                    "line": o.line,
                    "kind": o.kind,
                    "rule": o.rule,
                    "claim": o.claim,
                    "labelled": (o.transcript, o.line) in labels,
                }
            )
    misses = []
    for (rel, line), expected in sorted(labels.items()):
        if not keep(rel):
            continue
        lang = language(corpus.texts.get((rel, line), ""))
        for i, entry in enumerate(expected):
            if entry.get("optional"):
                continue
            hit = (rel, line, i) in hit_entries
            for table, key in {
                "user": corpus.user_of(rel),
                "kind": entry["kind"][0],
                "language": lang,
                "all": "all",
            }.items():
                rows[table][key]["expected"] += 1
                rows[table][key]["expected_hit"] += int(hit)
            if not hit:
                misses.append(
                    {
                        "transcript": rel,
                        "line": line,
                        "kind": entry["kind"],
                        "note": entry.get("note", ""),
                    }
                )
    total = rows["all"]["all"]
    precision, recall = _pr(total)
    return {
        "precision": precision,
        "recall": recall,
        "hits": total["hits"],
        "false_positives": total["fp"],
        "false_other_kind": other_kind,
        "neutral": total["neutral"],
        "required": total["expected"],
        "required_hit": total["expected_hit"],
        "per_user": {k: dict(v) for k, v in sorted(rows["user"].items())},
        "per_kind": {k: dict(v) for k, v in sorted(rows["kind"].items())},
        "per_language": {k: dict(v) for k, v in sorted(rows["language"].items())},
        "per_rule_family": {k: dict(v) for k, v in sorted(rows["rule"].items())},
        "per_rule": {k: dict(v) for k, v in sorted(rows["rule_full"].items())},
        "misses": misses,
        "false_positive_atoms": false_positives,
        "tool_failures": tool_failures,
    }


def convergence(corpus: Corpus, obs: list[Observation]) -> list[dict[str, Any]]:
    """Durable statements labelled on ≥ 2 lines of one user (same note, or same kind and keyword
    groups): the distinct claim ids their hits produced (1 = converged)."""
    groups: dict[tuple[str, str], list[tuple[str, int, dict[str, Any]]]] = defaultdict(list)
    for (rel, line), expected in corpus.labels.items():
        for entry in expected:
            if entry.get("optional"):
                continue
            # The same statement: the same note, or the same keyword groups (its words).
            words = json.dumps(sorted(sorted(w.lower() for w in g) for g in entry["all_of"]))
            for key in {entry.get("note") or words, words}:
                groups[(corpus.user_of(rel), key)].append((rel, line, entry))
    seen_sets: set[frozenset[tuple[str, int]]] = set()
    by_line: dict[tuple[str, int], list[Observation]] = defaultdict(list)
    for o in obs:
        by_line[(o.transcript, o.line)].append(o)
    out = []
    for (user, key), items in sorted(groups.items()):
        lines = frozenset((r, ln) for r, ln, _ in items)
        if len(lines) < 2 or lines in seen_sets:
            continue
        seen_sets.add(lines)
        ids: dict[str, str] = {}
        found = 0
        for rel, line, entry in items:
            hits = [o for o in by_line[(rel, line)] if satisfies(o.claim, o.kind, entry)]
            found += bool(hits)
            ids.update((o.atom_id, o.claim) for o in hits)
        out.append(
            {
                "user": user,
                "statement": items[0][2].get("note") or key,
                "mentions": len(items),
                "found": found,
                "distinct_claims": len(ids),
                "claims": sorted(ids.values()),
            }
        )
    return out


# --- leave one user out ------------------------------------------------------------------------


def rule_support_louo(
    corpus: Corpus,
    obs: list[Observation],
    extras: list[tuple[Corpus, list[Observation]]],
    users: set[str] | None = None,
) -> dict[str, Any]:
    """Leave-one-user-out for hand-written rules. The rules were written by people who read
    users of this corpus, so nothing is "fitted" and a plain LOUO equals the pooled score;
    what LOUO must catch is a rule that exists only because of the held-out user's phrasing.
    For each user (of `users`, default all), every rule (by full name) whose correct atoms all
    come from that user's lines (no other user of this corpus or of `extras` supports it) is
    switched off, and that user is scored without its atoms (no other rule steps in: a
    conservative estimate)."""
    support: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for c, c_obs in [(corpus, obs), *extras]:
        for o in c_obs:
            expected = c.labels.get((o.transcript, o.line), [])
            if any(satisfies(o.claim, o.kind, e) for e in expected):
                support[o.rule].add((c.name, c.user_of(o.transcript)))
    kept: list[Observation] = []
    dropped_rules: dict[str, list[str]] = {}
    chosen = set(corpus.users) if users is None else users
    for user in corpus.users:
        if user not in chosen:
            continue
        own = {(corpus.name, user)}
        only_here = {rule for rule, who in support.items() if who and who <= own}
        dropped_rules[user] = sorted(only_here)
        kept.extend(
            o for o in obs if corpus.user_of(o.transcript) == user and o.rule not in only_here
        )
    result = score(corpus, kept, users=chosen)
    result["dropped_rules"] = {u: r for u, r in dropped_rules.items() if r}
    return result


def extra_louo(
    extra: Corpus,
    extra_obs: list[Observation],
    tune: set[str],
    real: Corpus | None,
    real_obs: list[Observation],
) -> dict[str, Any]:
    """`rule_support_louo` for the extra TUNE people: a rule counts as supported when a correct
    atom of it comes from any other person, of the extra people or of the real corpus. Rules
    and gates were written while reading TUNE people, so this is the in-TUNE figure that
    does not credit a rule to the one person it was written for."""
    extras = [(real, real_obs)] if real is not None else []
    return rule_support_louo(extra, extra_obs, extras, users=tune)


# --- the demo sessions and speed ---------------------------------------------------------------


def demo_convergence() -> dict[str, Any]:
    """Atoms (claim → number of sessions) from the demo's sample sessions, merged by id as
    capture merges them: a claim pending in each session it was said in once (under the
    durability gate's keep bar) is an atom once said in two; one still pending is left out."""
    import datetime as dt

    from agent_memory.cli.demo_run import load_sessions, transcript_records
    from agent_memory.extract.pipeline import merge_observations
    from agent_memory.model.atom import is_pending

    observations_ = []
    statements = 0
    with tempfile.TemporaryDirectory() as tmp:
        for session in load_sessions():
            day = dt.date(2026, 3, 10) - dt.timedelta(days=int(session["days_ago"]))
            path = Path(tmp) / "projects" / "-demo" / f"{session['id']}.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            records = transcript_records(session, Path("/w/demo"), day)
            path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
            result = extract_transcript(path, "demo")
            statements += result.statements
            observations_.extend([*result.atoms, *result.pending])
    atoms = [a for a in merge_observations(observations_) if not is_pending(a)]
    return {
        "statements": statements,
        "observations": sum(a["observations"] for a in atoms),
        "atoms": {a["claim"]: len(a["sessions"]) for a in atoms},
    }


def synthetic_transcript(target_bytes: int, out: Path, sources: Iterable[Path]) -> int:
    """Concatenate real transcripts' lines (in order, repeated) until ≥ target_bytes."""
    lines: list[bytes] = []
    for path in sources:
        lines.extend(
            ln if ln.endswith(b"\n") else ln + b"\n"
            for ln in path.read_bytes().splitlines(keepends=True)
        )
    size = 0
    with out.open("wb") as fh:
        while size < target_bytes:
            for ln in lines:
                fh.write(ln)
                size += len(ln)
                if size >= target_bytes:
                    break
    return size


def speed(sources: list[Path], target_mb: float = 10.0, repeat: int = 3) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "projects" / "-bench" / "00000000-0000-0000-0000-000000000000.jsonl"
        path.parent.mkdir(parents=True)
        size = synthetic_transcript(int(target_mb * 1024 * 1024), path, sources)
        times = []
        atoms = 0
        for _ in range(repeat):
            start = time.perf_counter()
            result = extract_transcript(path, "bench")
            times.append(time.perf_counter() - start)
            atoms = len(result.atoms)
    best = min(times)
    return {"bytes": size, "seconds": best, "mb_per_s": size / 1024 / 1024 / best, "atoms": atoms}


def prompts_only_speed(sources: list[Path], target_mb: float = 10.0) -> dict[str, Any]:
    """Worst case: a transcript made of nothing but typed prompts (real ones hold a few hundred
    prompts among megabytes of tool traffic), built from real user statements."""
    texts = [s.text for p in sources for s in iter_statements(p)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "projects" / "-bench" / "11111111-0000-0000-0000-000000000000.jsonl"
        path.parent.mkdir(parents=True)
        size = prompts = 0
        with path.open("w", encoding="utf-8") as fh:
            while size < target_mb * 1024 * 1024:
                for i, text in enumerate(texts):
                    # A per-line marker keeps every prompt distinct (no help from the memo).
                    rec = {
                        "type": "user",
                        "sessionId": "s",
                        "timestamp": "2026-01-01T00:00:00Z",
                        "message": {"role": "user", "content": f"{text} (#{prompts}-{i})"},
                    }
                    line = json.dumps(rec) + "\n"
                    fh.write(line)
                    size += len(line.encode())
                    prompts += 1
        start = time.perf_counter()
        result = extract_transcript(path, "bench")
        seconds = time.perf_counter() - start
    return {
        "bytes": size,
        "prompts": prompts,
        "seconds": seconds,
        "mb_per_s": size / 1024 / 1024 / seconds,
        "atoms": len(result.atoms),
    }


# --- printing ----------------------------------------------------------------------------------


def _row(name: str, row: dict[str, int], width: int = 40) -> str:
    p, r = _pr(row)
    counted = row["hits"] + row["fp"]
    ps = f"{p:.2f}" if counted else "   -"
    rs = f"{r:.2f}" if row["expected"] else "   -"
    return (
        f"  {name[:width]:<{width}} atoms {row['atoms']:>4}  hit {row['hits']:>3}  fp {row['fp']:>3}"
        f"  opt {row['neutral']:>3}  | expected {row['expected']:>3}  found {row['expected_hit']:>3}"
        f"  | P {ps}  R {rs}"
    )


def _headline(name: str, rep: dict[str, Any]) -> str:
    # No atom counted: precision is undefined, not perfect.
    counted = rep["hits"] + rep["false_positives"]
    precision = f"{rep['precision']:.3f}" if counted else "  -  "
    return (
        f"{name}: precision {precision}  recall {rep['recall']:.3f}  "
        f"({rep['hits']} hits, {rep['false_positives']} false, {rep['neutral']} optional; "
        f"{rep['required_hit']}/{rep['required']} durable statements found)"
    )


def print_report(
    name: str,
    rep: dict[str, Any],
    verbose: int,
    show: Callable[[str], bool] = lambda rel: True,
    tables: tuple[str, ...] = ("per_user", "per_kind", "per_language", "per_rule_family"),
    texts: dict[tuple[str, int], str] | None = None,
) -> None:
    """`show(transcript)` says whose misses and false atoms may be listed (DEV users only);
    `texts` (verbose ≥ 2) prints the statement of a listed miss, for reading, never storing."""
    print(_headline(name, rep))
    if rep.get("false_other_kind"):
        print(
            f" of the {rep['false_positives']} false atoms, {rep['false_other_kind']} sit on a durable"
            " statement whose label reads the same claim as another kind"
        )
    for table in tables:
        print(f" {table.replace('_', ' ')}:")
        for key, row in rep[table].items():
            print(_row(key, row))
    if "tool_failures" not in rep:
        return  # figures only (SCORE people)
    print(f" failure atoms from tool errors (reported separately): {len(rep['tool_failures'])}")
    if verbose:
        for miss in rep["misses"]:
            if show(miss["transcript"]):
                print(
                    f"  MISS {_short(miss['transcript'])}#L{miss['line']} {miss['kind']}:"
                    f" {miss['note']}"
                )
                if verbose >= 2 and texts is not None:
                    text = texts.get((miss["transcript"], miss["line"]), "")
                    print("       | " + text[:2500].replace("\n", "\n       | "))
        for fp in rep["false_positive_atoms"]:
            if not show(fp["transcript"]):
                continue
            where = "" if fp["labelled"] else " (unlabelled line)"
            print(
                f"  FP   {_short(fp['transcript'])}#L{fp['line']} [{fp['kind']}] <{fp['rule']}>"
                f" {fp['claim']}{where}"
            )
        for tf in rep["tool_failures"]:
            if show(tf["transcript"]):
                print(f"  TOOL {_short(tf['transcript'])}#L{tf['line']} {tf['claim']}")


def _short(rel: str) -> str:
    head = rel.split("/", 1)[0]
    return f"{head}/…/{rel.rsplit('/', 1)[-1][:8]}"


_FIGURES = (
    "precision", "recall", "hits", "false_positives", "false_other_kind", "neutral", "required",
    "required_hit",
)  # fmt: skip
_FIGURE_TABLES = ("per_kind", "per_language")


def _figures_only(rep: dict[str, Any]) -> dict[str, Any]:
    """A report of SCORE people: figures and the per-kind / per-language tables, no texts."""
    return {k: v for k, v in rep.items() if k in _FIGURES or k in _FIGURE_TABLES}


def pool(*reports: dict[str, Any]) -> dict[str, Any]:
    """Sum of score() reports over disjoint people: figures and per-kind / per-language rows."""
    out: dict[str, Any] = {k: 0 for k in _FIGURES if k not in ("precision", "recall")}
    tables: dict[str, dict[str, dict[str, int]]] = {t: defaultdict(_blank) for t in _FIGURE_TABLES}
    for rep in reports:
        for k in out:
            out[k] += rep[k]
        for t in _FIGURE_TABLES:
            for key, row in rep[t].items():
                for field_, n in row.items():
                    tables[t][key][field_] += n
    counted = out["hits"] + out["false_positives"]
    out["precision"] = out["hits"] / counted if counted else 1.0
    out["recall"] = out["required_hit"] / out["required"] if out["required"] else 1.0
    for t in _FIGURE_TABLES:
        out[t] = {k: dict(v) for k, v in sorted(tables[t].items())}
    return out


def _real_report(
    real: Corpus, real_obs: list[Observation], tune: set[str], score_users: set[str], louo_: bool
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "tune_people": sorted({person(u) for u in tune}),
        "score_people": sorted({person(u) for u in score_users}),
        "score": _figures_only(score(real, real_obs, users=score_users)),
        "tune": score(real, real_obs, users=tune),
    }
    conv = convergence(real, real_obs)
    out["tune_convergence"] = [row for row in conv if row["user"] in tune]
    hidden = [row for row in conv if row["user"] in score_users]
    out["score_convergence"] = {
        "statements": len(hidden),
        "converged": sum(1 for row in hidden if row["distinct_claims"] <= 1),
    }
    if louo_:
        for name, users in (("score", score_users), ("tune", tune)):
            rep = rule_support_louo(real, real_obs, [], users=users)
            out[f"{name}_rule_louo"] = _figures_only(rep) if name == "score" else rep
    return out


def _print_real(rep: dict[str, Any], verbose: int, real: Corpus, tune: set[str]) -> None:
    print(
        f"split ({SPLIT.name}): SCORE {len(rep['score_people'])} people "
        f"({', '.join(rep['score_people'])}); TUNE {len(rep['tune_people'])} people"
    )
    print_report(
        "real corpus, SCORE people (the measurement)",
        rep["score"],
        0,
        lambda rel: False,
        _FIGURE_TABLES,
    )
    print_report(
        "real corpus, TUNE people (rules are studied on these; not a measurement)",
        rep["tune"],
        verbose,
        lambda rel: real.user_of(rel) in tune,
        ("per_user", "per_kind", "per_language", "per_rule_family", "per_rule"),
        real.texts,
    )
    for name in ("score", "tune"):
        key = f"{name}_rule_louo"
        if key in rep:
            print(
                _headline(
                    f"{name.upper()} people, each scored without the rules only they support",
                    rep[key],
                )
            )
    print("convergence (durable statements labelled on ≥ 2 lines of one TUNE person):")
    for row in rep["tune_convergence"]:
        print(
            f"  {row['user']}: {row['statement'][:60]!r} said {row['mentions']}x, found"
            f" {row['found']}x -> {row['distinct_claims']} distinct claim(s) {row['claims']}"
        )
    hidden = rep["score_convergence"]
    print(
        f"  (SCORE people: {hidden['statements']} repeated statements, "
        f"{hidden['converged']} at ≤ 1 claim; not listed)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--verbose",
        "-v",
        action="count",
        default=0,
        help="list misses and false atoms (TUNE people); -vv adds the statement text of a miss",
    )
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--no-louo", action="store_true")
    parser.add_argument(
        "--real",
        type=Path,
        default=Path(os.environ.get("AGENT_MEMORY_REAL_CORPUS", REAL_DEFAULT)),
        help="the real dev corpus directory (README.md, labels.jsonl, transcripts.tar.gz)",
    )
    parser.add_argument(
        "--extra",
        type=Path,
        default=Path(os.environ.get("AGENT_MEMORY_EXTRA_CORPUS", "/nonexistent")),
        help="more people (labels.jsonl, transcripts/<person>/…): TUNE as the split's extra"
        " section names, the rest SCORE (figures only)",
    )
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        small = small_corpus()
        report["small"] = score(small, observations(small))
        real = real_corpus(args.real, Path(tmp))
        tune: set[str] = set()
        real_obs: list[Observation] = []
        if real is not None:
            real_atoms, real_pending = as_captured(real)
            real_obs = observations(real, real_atoms.__getitem__)
            tune, score_users = split_users(real.users)
            report["real"] = _real_report(real, real_obs, tune, score_users, not args.no_louo)
        extra = extra_corpus(args.extra)
        extra_tune: set[str] = set()
        if extra is not None:
            extra_atoms, extra_pending = as_captured(extra)
            extra_obs = observations(extra, extra_atoms.__getitem__)
            extra_tune, extra_score = split_users(extra.users, section="extra")
            extra_scored = score(extra, extra_obs, users=extra_score)
            report["extra"] = _figures_only(extra_scored)
            report["extra"]["people"] = sorted(extra_score)
            report["extra_tune"] = score(extra, extra_obs, users=extra_tune)
            report["extra_tune"]["people"] = sorted(extra_tune)
            if not args.no_louo:
                report["extra_tune_rule_louo"] = extra_louo(
                    extra, extra_obs, extra_tune, real, real_obs
                )
            if real is not None:
                report["score_pooled"] = _figures_only(
                    pool(score(real, real_obs, users=score_users), extra_scored)
                )
                # What the gate holds as pending on the same people (an atom only once said
                # again in another session): how much recurrence could still bring, and at
                # what precision. Figures only, like every SCORE figure.
                report["score_pending"] = _figures_only(pool(
                    score(real, observations(real, real_pending.__getitem__), users=score_users),
                    score(extra, observations(extra, extra_pending.__getitem__),
                          users=extra_score)))  # fmt: skip
        report["demo_convergence"] = demo_convergence()
        if not args.no_speed:
            sources = sorted(TRANSCRIPTS.rglob("*.jsonl"))
            report["speed"] = speed(sources)
            report["speed_prompts_only"] = prompts_only_speed(sources)
            if real is not None:
                big = sorted(real.transcripts.rglob("*.jsonl"), key=lambda p: -p.stat().st_size)[:3]
                report["speed_real"] = speed(big, repeat=2)
        if args.json:
            print(json.dumps(report, indent=2, default=str))
            return 0
        print_report("small dev set", report["small"], args.verbose)
        if real is None:
            print(f"real dev corpus: not found at {args.real} (skipped)")
        else:
            _print_real(report["real"], args.verbose, real, tune)
        if report.get("extra_tune", {}).get("people") and extra is not None:
            print_report(
                f"extra TUNE people ({', '.join(report['extra_tune']['people'])}; not a"
                " measurement)",
                report["extra_tune"],
                args.verbose,
                lambda rel: extra.user_of(rel) in extra_tune,
                ("per_user", "per_kind", "per_language", "per_rule_family", "per_rule"),
                extra.texts,
            )
        if "extra_tune_rule_louo" in report:
            print_report(
                "extra TUNE people, each scored without the rules only they support",
                report["extra_tune_rule_louo"],
                0,
                lambda rel: False,
                ("per_kind",),
            )
        if "extra" in report:
            print_report(
                f"extra SCORE people ({', '.join(report['extra']['people'])})",
                report["extra"],
                0,
                lambda rel: False,
                _FIGURE_TABLES,
            )
        if "score_pooled" in report:
            print_report(
                "all SCORE people (real corpus + extra), pooled",
                report["score_pooled"],
                0,
                lambda rel: False,
                _FIGURE_TABLES,
            )
        if "score_pending" in report:
            print_report(
                "all SCORE people, claims said once the gate holds as pending (not atoms: an"
                " atom only when said again in another session)",
                report["score_pending"],
                0,
                lambda rel: False,
                ("per_kind",),
            )
    demo = report["demo_convergence"]
    print(
        f"demo sessions: {demo['statements']} statements, {demo['observations']} observations "
        f"-> {len(demo['atoms'])} atoms"
    )
    for claim, sessions in demo["atoms"].items():
        print(f"  {sessions} session(s)  {claim}")
    for key, label in (
        ("speed", "speed, fixture transcripts"),
        ("speed_real", "speed, the 3 largest real transcripts"),
        ("speed_prompts_only", "worst case, prompts only"),
    ):
        if key in report:
            sp = report[key]
            print(
                f"{label}: {sp['bytes'] / 1024 / 1024:.1f} MB in {sp['seconds']:.3f} s = "
                f"{sp['mb_per_s']:.1f} MB/s ({sp['atoms']} atoms)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
