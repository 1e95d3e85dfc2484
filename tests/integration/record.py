"""Record the pinned client's transcripts as reader fixtures.

    python tests/integration/record.py [PYTEST ARGS…]

Runs the integration suite with AGENT_MEMORY_RECORD_TRANSCRIPTS=1 into a fresh
`tests/fixtures/transcripts/client-<version>/` — or, given pytest arguments (test files, `-k …`),
runs only those tests and adds or replaces their transcripts, keeping the others — then writes
beside them, for every transcript there:

- `SOURCES.txt`: one line per file in the format of `tests/fixtures/transcripts/SOURCES.txt`
  (path | bytes | records | versions | record types | cwd), to append there;
- `labels.txt`: one line per typed prompt (and refusal reason) in the format of
  `tests/fixtures/extraction/labels.jsonl` (what a careful reader keeps from it), to append
  there. A prompt the suite types that has no label below stops the script: label it first.

Moving to a new client: change `claude-code.version`, run this, append the two files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from integration.client import (  # noqa: E402
    FIXTURES,
    ROOT,
    fixture_dir,
    pinned_version,
    read_records,
)


def _expect(
    kinds: list[str], words: list[list[str]], negated: bool, note: str, optional: bool = False
) -> dict[str, Any]:
    return {"kind": kinds, "all_of": words, "negated": negated, "optional": optional, "note": note}


# Every prompt the suite types, with what a careful reader keeps from it (our own examples).
PROMPT_LABELS: dict[str, list[dict[str, Any]]] = {
    "Never push directly to main": [
        _expect(["constraint"], [["push"], ["main"]], True, "never push directly to main")
    ],
    "Do not use mocks in integration tests.": [
        _expect(["constraint"], [["mocks"]], True, "no mocks in integration tests")
    ],
    "Keep the public API backwards compatible.": [
        _expect(
            ["constraint"],
            [["backwards compatible", "backward compatible"]],
            False,
            "keep the public API backwards compatible",
        )
    ],
    "Use pnpm, not npm": [
        _expect(["preference", "constraint"], [["pnpm"]], True, "pnpm instead of npm")
    ],
    "# the staging database is read-only": [
        _expect(
            ["fact", "constraint"],
            [["staging"], ["read-only", "readonly"]],
            False,
            "a '#' note; 2.1.332 sends it as a plain prompt",
            optional=True,
        )
    ],
    "Summarise the README": [],
    "What does this repository do?": [],
    "Can I push this change to main now?": [],
    "Explain what a Fourier transform is": [],
    "Which package manager should I use to install dependencies?": [],
    # The scripted-model sessions (test_client_tools, _subagent, _compaction, _auto_memory).
    "Never commit generated files": [
        _expect(["constraint"], [["commit"], ["generated"]], True, "never commit generated files")
    ],
    "Always update the changelog when you release": [
        _expect(
            ["constraint", "preference"], [["changelog"]], False, "update the changelog on release"
        )
    ],
    "Remember that deploys go out from the release branch only.": [
        _expect(
            ["fact", "constraint"],
            [["deploy"], ["release branch"]],
            False,
            "deploys go out from the release branch",
        )
    ],
    "Add a line about rebasing to the README, then print a reminder": [],
    "Where is the version number defined?": [],
    "What do you remember about deploys?": [],
    "What does it say about tests?": [],
    "Clean the build folder": [],
    "Clean up the build and publish it": [],
}
# Every reason the suite types into a refused tool call (test_client_denial), labelled alike.
REASON_LABELS: dict[str, list[dict[str, Any]]] = {
    "Never delete the build folder": [
        _expect(["constraint"], [["delete"], ["build"]], True, "never delete the build folder")
    ],
}


def _refusal_reason(record: dict[str, Any]) -> str | None:
    """The reason a person typed into a refusal: 2.1.332 keeps it in `userFeedback` and marks
    the record `holdsPersonsWords`."""
    feedback = record.get("userFeedback")
    if record.get("type") == "user" and record.get("holdsPersonsWords") is True:
        return feedback if isinstance(feedback, str) else None
    return None


def _typed(record: dict[str, Any]) -> str | None:
    """The text of a prompt record (2.1.332 marks them with `promptSource`: "sdk" headless,
    "typed" interactive); shell-mode rows carry no promptSource, and a subagent's report comes
    back as `promptSource: "system"`."""
    message = record.get("message")
    if record.get("type") != "user" or record.get("promptSource") not in ("sdk", "typed"):
        return None
    content = message.get("content") if isinstance(message, dict) else None
    return content if isinstance(content, str) else None


def main() -> int:
    version = pinned_version()
    dest = fixture_dir(version)
    selected = sys.argv[1:]
    if not selected:
        shutil.rmtree(dest, ignore_errors=True)
    env = os.environ | {"AGENT_MEMORY_RECORD_TRANSCRIPTS": "1", "AGENT_MEMORY_REQUIRE_CLIENT": "1"}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "claude_client",
            *(selected or ["tests/integration"]),
        ],
        cwd=ROOT,
        env=env,
        check=True,
    )
    sources, labels, unlabelled = [], [], []
    for path in sorted(dest.rglob("*.jsonl")):
        rel = path.relative_to(FIXTURES).as_posix()
        records = read_records(path)
        types = Counter(
            r.get("type") if isinstance(r.get("type"), str) else "(none)" for r in records
        )
        versions = sorted({r["version"] for r in records if isinstance(r.get("version"), str)})
        cwds = sorted({r["cwd"] for r in records if isinstance(r.get("cwd"), str)})
        sources.append(
            f"  {rel} | {path.stat().st_size} | {len(records)} | "
            f"{', '.join(versions)} | {dict(types)} | {cwds}"
        )
        for line, record in enumerate(records, 1):
            text, known = _typed(record), PROMPT_LABELS
            if text is None:
                text, known = _refusal_reason(record), REASON_LABELS
            if text is None:
                continue
            if text not in known:
                unlabelled.append(text)
                continue
            labels.append(json.dumps({"transcript": rel, "line": line, "expected": known[text]}))
    if unlabelled:
        print(
            "label these in PROMPT_LABELS / REASON_LABELS first:",
            *sorted(set(unlabelled)),
            sep="\n  ",
        )
        return 1
    (dest / "SOURCES.txt").write_text("\n".join(sources) + "\n", "utf-8")
    (dest / "labels.txt").write_text("\n".join(labels) + "\n", "utf-8")
    print(f"recorded {len(sources)} transcripts, {len(labels)} labelled prompts in {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
