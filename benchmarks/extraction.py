"""Extraction quality and speed (spec §9.2: can deterministic extraction work at all?).

Scores `agent_memory.extract.pipeline.extract_transcript` against `tests/fixtures/extraction/labels.jsonl`
with the rules of that directory's README:

- an atom whose back-pointer line is a labelled line and that satisfies one of its expected
  entries (kind in `kind`, a word of every `all_of` group in the claim, the negation kept when
  `negated`) is a hit; one matching only an `optional` entry is neither hit nor false positive;
- any other atom on a user-statement line (labelled `[]`, or not labelled at all) is a false
  positive; `failure` atoms minted from tool errors are reported separately;
- precision = hits / counted atoms; recall = non-optional entries hit / non-optional entries.

Then convergence: the bundled demo sessions state each rule in different words; canonical claims
must make each rule one atom whose sessions are all the sessions that stated it (spec §4: a
rule that comes out as three claims never recurs).

Then the speed: a ≥ 10 MB synthetic transcript made of the fixture transcripts' own lines,
extracted end to end, reported in MB/s. A benchmark, not a test: it prints, it never fails.

    python benchmarks/extraction.py [--json] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
TRANSCRIPTS = FIXTURES / "transcripts"
LABELS = FIXTURES / "extraction" / "labels.jsonl"
NEGATIONS = ("don't", "never", "not", "no longer", "instead of")

sys.path.insert(0, str(ROOT))

from agent_memory.extract.pipeline import extract_transcript  # noqa: E402


def load_labels(path: Path = LABELS) -> dict[tuple[str, int], list[dict[str, Any]]]:
    labels: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for raw in path.read_text("utf-8").splitlines():
        if raw.strip():
            item = json.loads(raw)
            labels[(item["transcript"], int(item["line"]))] = item["expected"]
    return labels


def satisfies(atom: dict[str, Any], entry: dict[str, Any]) -> bool:
    claim = atom["claim"].lower()
    if atom["kind"] not in entry.get("kind", []):
        return False
    for group in entry.get("all_of", []):
        if not any(word.lower() in claim for word in group):
            return False
    return not (entry.get("negated") and not any(n in claim for n in NEGATIONS))


def _line(pointer: str) -> int:
    return int(pointer.rsplit("#L", 1)[1])


def score(
    labels: dict[tuple[str, int], list[dict[str, Any]]] | None = None,
    transcripts: Path = TRANSCRIPTS,
) -> dict[str, Any]:
    labels = labels if labels is not None else load_labels()
    files = sorted({t for t, _ in labels})
    hits = fps = neutral = 0
    tool_failures: list[dict[str, Any]] = []
    hit_entries: set[tuple[str, int, int]] = set()
    false_positives: list[dict[str, Any]] = []
    per_kind: dict[str, dict[str, int]] = defaultdict(
        lambda: {"expected": 0, "hit": 0, "atoms": 0, "fp": 0}
    )
    for rel in files:
        result = extract_transcript(transcripts / rel, "dev")
        for atom in result.atoms:
            line = _line(atom["first_source"])
            if atom["kind"] == "failure" and atom["confidence"] == "observed":
                tool_failures.append({"transcript": rel, "line": line, "claim": atom["claim"]})
                continue
            expected = labels.get((rel, line), [])
            matched = [i for i, e in enumerate(expected) if satisfies(atom, e)]
            required = [i for i in matched if not expected[i].get("optional")]
            per_kind[atom["kind"]]["atoms"] += 1
            if required:
                hits += 1
                hit_entries.update((rel, line, i) for i in required)
            elif matched:
                neutral += 1
            else:
                fps += 1
                per_kind[atom["kind"]]["fp"] += 1
                false_positives.append(
                    {"transcript": rel, "line": line, "kind": atom["kind"], "claim": atom["claim"]}
                )
    misses = []
    total_required = 0
    for (rel, line), expected in sorted(labels.items()):
        for i, entry in enumerate(expected):
            if entry.get("optional"):
                continue
            total_required += 1
            for kind in entry["kind"][:1]:
                per_kind[kind]["expected"] += 1
            if (rel, line, i) in hit_entries:
                per_kind[entry["kind"][0]]["hit"] += 1
            else:
                misses.append({"transcript": rel, "line": line, "note": entry.get("note", "")})
    counted = hits + fps
    return {
        "precision": hits / counted if counted else 1.0,
        "recall": len(hit_entries) / total_required if total_required else 1.0,
        "hits": hits,
        "false_positives": fps,
        "neutral": neutral,
        "required": total_required,
        "required_hit": len(hit_entries),
        "per_kind": {k: dict(v) for k, v in sorted(per_kind.items())},
        "misses": misses,
        "false_positive_atoms": false_positives,
        "tool_failures": tool_failures,
    }


def demo_convergence() -> dict[str, Any]:
    """Atoms (claim → number of sessions) from the demo's sample sessions, merged by id."""
    import datetime as dt

    from agent_memory.cli.demo_run import load_sessions, transcript_records
    from agent_memory.extract.pipeline import merge_observations

    observations = []
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
            observations.extend(result.atoms)
    atoms = merge_observations(observations)
    return {
        "statements": statements,
        "observations": sum(a["observations"] for a in atoms),
        "atoms": {a["claim"]: len(a["sessions"]) for a in atoms},
    }


def synthetic_transcript(target_bytes: int, out: Path) -> int:
    """Concatenate the fixture transcripts' lines (in order, repeated) until ≥ target_bytes."""
    lines: list[bytes] = []
    for path in sorted(TRANSCRIPTS.rglob("*.jsonl")):
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


def speed(target_mb: float = 10.0, repeat: int = 3) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "projects" / "-bench" / "00000000-0000-0000-0000-000000000000.jsonl"
        path.parent.mkdir(parents=True)
        size = synthetic_transcript(int(target_mb * 1024 * 1024), path)
        times = []
        atoms = 0
        for _ in range(repeat):
            start = time.perf_counter()
            result = extract_transcript(path, "bench")
            times.append(time.perf_counter() - start)
            atoms = len(result.atoms)
    best = min(times)
    return {
        "bytes": size,
        "seconds": best,
        "mb_per_s": size / 1024 / 1024 / best,
        "atoms": atoms,
        "all_seconds": times,
    }


def prompts_only_speed(target_mb: float = 10.0) -> dict[str, Any]:
    """Worst case: a transcript made of nothing but typed prompts (real ones hold a few hundred
    prompts among megabytes of tool traffic), built from the fixtures' own user statements."""
    from agent_memory.transcripts.reader import iter_statements

    texts = [s.text for p in sorted(TRANSCRIPTS.rglob("*.jsonl")) for s in iter_statements(p)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "projects" / "-bench" / "11111111-0000-0000-0000-000000000000.jsonl"
        path.parent.mkdir(parents=True)
        size = prompts = 0
        with path.open("w", encoding="utf-8") as fh:
            while size < target_mb * 1024 * 1024:
                for i, text in enumerate(texts):
                    # A per-line marker keeps every prompt distinct (no help from repetition).
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--verbose", "-v", action="store_true", help="list misses and false positives"
    )
    parser.add_argument("--no-speed", action="store_true")
    args = parser.parse_args(argv)
    report = score()
    report["demo_convergence"] = demo_convergence()
    if not args.no_speed:
        report["speed"] = speed()
        report["speed_prompts_only"] = prompts_only_speed()
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"dev set: precision {report['precision']:.3f}  recall {report['recall']:.3f}  "
        f"({report['hits']} hits, {report['false_positives']} false positives, {report['neutral']} optional; "
        f"{report['required_hit']}/{report['required']} required entries)"
    )
    for kind, row in report["per_kind"].items():
        print(
            f"  {kind:<11} expected {row['expected']:>2}  hit {row['hit']:>2}  atoms {row['atoms']:>2}  fp {row['fp']:>2}"
        )
    print(f"  failure atoms from tool errors (reported separately): {len(report['tool_failures'])}")
    demo = report["demo_convergence"]
    print(
        f"demo sessions: {demo['statements']} statements, {demo['observations']} observations "
        f"-> {len(demo['atoms'])} atoms"
    )
    for claim, sessions in demo["atoms"].items():
        print(f"  {sessions} session(s)  {claim}")
    if args.verbose:
        for miss in report["misses"]:
            print(f"  MISS {miss['transcript'].rsplit('/', 1)[-1]}#L{miss['line']}: {miss['note']}")
        for fp in report["false_positive_atoms"]:
            print(
                f"  FP   {fp['transcript'].rsplit('/', 1)[-1]}#L{fp['line']} [{fp['kind']}] {fp['claim']}"
            )
        for tf in report["tool_failures"]:
            print(f"  TOOL {tf['transcript'].rsplit('/', 1)[-1]}#L{tf['line']} {tf['claim']}")
    if "speed" in report:
        sp = report["speed"]
        print(
            f"speed: {sp['bytes'] / 1024 / 1024:.1f} MB in {sp['seconds']:.3f} s = {sp['mb_per_s']:.1f} MB/s "
            f"({sp['atoms']} atoms)"
        )
        wp = report["speed_prompts_only"]
        print(
            f"worst case, prompts only: {wp['bytes'] / 1024 / 1024:.1f} MB ({wp['prompts']} prompts) in "
            f"{wp['seconds']:.2f} s = {wp['mb_per_s']:.1f} MB/s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
