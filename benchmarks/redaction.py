"""Redaction figures (issue 3), measured in one run. Prints; asserts nothing.

- corpus: secrets caught and look-alikes flagged on the labelled lines of
  tests/fixtures/secrets/*.b64.jsonl (overall, by origin / plugin). A `tp` line is caught when
  something in it is redacted ("strict": when its longest credential-looking run is gone too);
  a `fp` line is flagged when anything in it is. "consistent" leaves out `fp` lines whose exact
  text the same corpus also labels `tp` (a line cannot be both);
- speed: MB/s of `find` on ordinary source text (this package and the standard library);
- latency: `redact` per claim, p50/p95 µs, on sentences of the real transcripts in
  tests/fixtures/transcripts (typical claims), and `python -c "import agent_memory.redact.redactor"`
  against `python -c pass`.

    python benchmarks/redaction.py [--mb 4] [--claims 2000]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import statistics
import subprocess
import sys
import sysconfig
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent_memory.redact.redactor import find, redact  # noqa: E402

SECRETS = ROOT / "tests" / "fixtures" / "secrets"
TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"
_RUN = re.compile(r"[A-Za-z0-9+/=_~.$@!%^*:;<,}?|-]{8,}")


def corpus(name: str) -> None:
    rows = [json.loads(line) for line in (SECRETS / name).read_text().splitlines() if line.strip()]
    for r in rows:
        r["text"] = base64.b64decode(r["text_b64"]).decode("utf-8", "replace")
        r["group"] = r.get("origin") or r.get("plugin") or "-"
    tp_texts = {r["text"] for r in rows if r["label"] == "tp"}
    totals: dict[str, list[int]] = defaultdict(
        lambda: [0, 0, 0, 0, 0]
    )  # tp, caught, strict, fp, flagged
    consistent = [0, 0]
    t0 = time.perf_counter()
    for r in rows:
        red, findings = redact(r["text"])
        for key in ("all", r["group"]):
            t = totals[key]
            if r["label"] == "tp":
                t[0] += 1
                t[1] += bool(findings)
                runs = _RUN.findall(r["text"])
                core = max(runs, key=len) if runs else r["text"]
                t[2] += bool(findings) and core not in red
            else:
                t[3] += 1
                t[4] += bool(findings)
        if r["label"] == "fp" and r["text"] not in tp_texts:
            consistent[0] += 1
            consistent[1] += bool(findings)
    elapsed = time.perf_counter() - t0
    print(f"\n{name}  ({len(rows)} lines, {elapsed * 1000:.0f} ms)")
    print(f"  {'':12s} {'caught':>22s} {'strict':>8s} {'flagged':>20s}")
    for key in ["all"] + sorted(k for k in totals if k != "all"):
        tp, caught, strict, fp, flagged = totals[key]
        c = f"{caught}/{tp} = {100 * caught / tp:6.2f}%" if tp else "-"
        s = f"{100 * strict / tp:6.2f}%" if tp else "-"
        f = f"{flagged}/{fp} = {100 * flagged / fp:5.2f}%" if fp else "-"
        print(f"  {key:12s} {c:>22s} {s:>8s} {f:>20s}")
    if consistent[0]:
        print(
            f"  consistent look-alikes flagged: {consistent[1]}/{consistent[0]} = "
            f"{100 * consistent[1] / consistent[0]:.2f}%  (fp lines not also labelled tp)"
        )


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


def speed(megabytes: float) -> None:
    text = source_text(megabytes)
    find("warm up")  # compile the rules once, as every long-lived caller does
    best = float("inf")
    n = 0
    for _ in range(3):
        t0 = time.perf_counter()
        n = len(find(text))
        best = min(best, time.perf_counter() - t0)
    print(
        f"\nspeed: {len(text) / 1e6:.1f} MB of source text (agent_memory + stdlib) in {best:.2f} s "
        f"= {len(text) / 1e6 / best:.1f} MB/s  ({n} findings: mostly author e-mails)"
    )


def claims(limit: int) -> list[str]:
    """Sentences users typed (real transcripts), 40–300 characters: the size of a claim."""
    out: list[str] = []
    for path in sorted(TRANSCRIPTS.rglob("*.jsonl")):
        for line in path.read_text("utf-8", errors="replace").splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
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
        f"\nimport: python -c 'import agent_memory.redact.redactor' {i * 1000:.0f} ms vs python -c pass "
        f"{b * 1000:.0f} ms (+{(i - b) * 1000:.0f} ms; rules compile on first use, "
        f"not at import)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--mb", type=float, default=4.0, help="MB of source text for the speed figure")
    ap.add_argument("--claims", type=int, default=2000)
    args = ap.parse_args()
    t0 = time.perf_counter()
    find("x")
    print(f"first call (compiles the rules): {(time.perf_counter() - t0) * 1000:.0f} ms")
    corpus("gitleaks_dev.b64.jsonl")
    corpus("detect_secrets.b64.jsonl")
    speed(args.mb)
    latency(args.claims)
    import_time()


if __name__ == "__main__":
    main()
