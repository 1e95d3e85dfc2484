"""The labels the extractor puts before a claim it keeps in the user's own words ("Remember:
lembre que …", "Decided: usaremos pnpm", "Language: 说中文"): our wording, not the user's.

Recall must not match a prompt on them: with "Remember" indexed, "remember to run the linter"
brought every "Remember: …" candidate of a project, whatever it said. tests/test_recall_labels.py
checks this list against every label the extraction rules declare."""

from __future__ import annotations

CLAIM_LABELS: frozenset[str] = frozenset(
    {
        "Account", "Always", "Ask first", "Convention", "Decided", "Decided not to use",
        "Does not use", "Don't", "Environment", "Every time", "From now on", "Name", "Stack",
        "From now on, don't", "Has", "Installed", "Language", "Location", "Never", "Prefers",
        "Principle", "Project", "Remember", "Renamed", "Repository", "Use", "User", "Uses",
    }
)
_LONGEST = max(map(len, CLAIM_LABELS))


def claim_body(claim: str) -> str:
    """`claim` without the label the extractor put before it (the claim itself otherwise)."""
    head, sep, body = claim.partition(": ")
    if sep and len(head) <= _LONGEST and head in CLAIM_LABELS and body.strip():
        return body
    return claim
