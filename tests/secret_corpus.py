"""Realistic secrets for tests, from the labelled corpus (tests/fixtures/secrets/*.b64.jsonl:
base64, decoded here, so no token is ever written in plain text in the repository)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator

from conftest import FIXTURES

from agent_memory.redact.redactor import find


def corpus_secrets(names: tuple[str, ...] = ("gitleaks_dev",)) -> Iterator[str]:
    """Each `tp` secret of the named corpora that the redactor finds as one run of non-blank
    characters, once, in the corpora's order."""
    seen: set[str] = set()
    for name in names:
        for line in (FIXTURES / "secrets" / f"{name}.b64.jsonl").read_text().splitlines():
            row = json.loads(line)
            if row["label"] != "tp":
                continue
            text = base64.b64decode(row["text_b64"]).decode("utf-8", "replace")
            for found in find(text):
                token = text[found.start : found.end]
                if token not in seen and not any(c.isspace() for c in token):
                    seen.add(token)
                    yield token
