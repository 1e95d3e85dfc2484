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


# The subject the extractor writes a claim about the user with ("User is building …", "User's
# timezone is …", "User does not want Claude to …"): ours as well. With "user" a term, any
# prompt about an app's users ("add a user settings page") found every such claim of a store.
_TEMPLATE_VERBS = frozenset(
    "is does has keeps uses cares deploys knows likes lives runs speaks studied".split()  # noqa: SIM905
)
_NOT_WANT_CLAUDE = "User does not want Claude to "


def claim_body(claim: str) -> str:
    """`claim` without the label the extractor put before it, nor the "User" it writes a claim
    about the user with (the claim itself otherwise)."""
    head, sep, body = claim.partition(": ")
    if sep and head in CLAIM_LABELS and body.strip():
        return body
    if claim.startswith(_NOT_WANT_CLAUDE):
        return "does not want to " + claim[len(_NOT_WANT_CLAUDE) :]
    if claim.startswith("User's "):
        return claim[len("User's ") :]
    if claim.startswith("User ") and claim[len("User ") :].split(" ", 1)[0] in _TEMPLATE_VERBS:
        return claim[len("User ") :]
    return claim
