"""A secret in Claude's own memory is redacted whole, before any cut: the Why / How to apply
text is bounded (400 characters) and a claim too (200), and a cut made first left the part of
a key before it — which no rule reads as a secret any longer — in the atom's quote or claim,
in memory/atoms and on to the review commit. Tokens from the labelled corpus (base64)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import git
from secret_corpus import corpus_secrets
from sessions import gm

from agent_memory.automemory.location import resolve_auto_memory_dir
from agent_memory.redact.redactor import find

WORDS = "the staging deploy failed because the credential rotated overnight and nobody noticed it "


def _token(fits: Callable[[str], bool]) -> str:
    """The first `tp` secret of the corpus (one run of non-blank characters the redactor finds
    whole) that `fits`, and whose first two thirds alone it no longer finds."""
    for token in corpus_secrets():
        whole = [(f.start, f.end) for f in find(f"x {token} y")] == [(2, 2 + len(token))]
        if whole and fits(token) and not find(f"x {token[: len(token) * 2 // 3]}"):
            return token
    raise AssertionError("no such token in the corpus")


def _captured(repo: Path, body: str) -> str:
    """`body` as a topic file of the project's auto-memory folder, captured: everything the
    store's branch holds (every commit's message and diff)."""
    folder = resolve_auto_memory_dir(repo).path
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "feedback_deploy.md").write_text(body, "utf-8")
    gm(repo, "capture", "--all", "--no-stage")
    return git(repo, "log", "-p", "memory/atoms")


def test_a_secret_across_the_cut_of_a_why_line_is_redacted_whole(guarded: Path) -> None:
    token = _token(lambda t: 30 <= len(t) <= 120)
    before = (WORDS * 6)[: 400 - len(token) // 2 - 1].rstrip()  # the token straddles character 400
    body = (f"---\nname: deploy\ndescription: Deploy credential\ntype: feedback\n---\n\n"
            f"Always rotate the staging deploy credential before a release.\n\n"
            f"**Why:** {before} {token} was the value used\n**How to apply:** check it first\n")  # fmt: skip
    stored = _captured(guarded, body)
    assert "Always rotate the staging deploy credential before a release" in stored
    assert "Why: the staging deploy failed" in stored  # the quote is there, cut
    assert token[len(token) // 4 : len(token) // 2] not in stored


def test_a_secret_across_the_cut_of_a_claim_is_redacted_whole(guarded: Path) -> None:
    lead = "Always deploy with the staging credential "
    token = _token(lambda t: len(t) >= 220 - len(lead))  # begins before the cut at 200, ends after it
    body = (f"---\nname: deploy\ndescription: Deploy credential\ntype: feedback\n---\n\n"
            f"{lead}{token} and never with the production one.\n")  # fmt: skip
    stored = _captured(guarded, body)
    assert "Always deploy with the staging credential" in stored
    assert token[len(token) // 4 : len(token) // 2] not in stored
