"""A secret the user typed is redacted whole, before any cut: a typed claim is cut to 200
characters (extract/text.shorten), and a cut made first left the part of a key before it —
which no rule reads as a secret any longer — in the claim (`redacted: false`), so it passed
the gates, reached memory/atoms and the review commit, and the commit guard did not know it
either. Tokens from the labelled corpus (base64, decoded here; never written in plain text)."""

from __future__ import annotations

import json
import random
import string
from collections.abc import Callable, Iterator
from pathlib import Path

from conftest import git
from secret_corpus import corpus_secrets
from sessions import gm, gm_json, write_session

from agent_memory.extract.pipeline import MAX_QUOTE, statement_atoms
from agent_memory.extract.text import MAX_TEXT
from agent_memory.redact.redactor import find, redact_within, secrets_of
from agent_memory.transcripts.reader import Statement

LEAD = "Always deploy with the staging credential "
TAIL = " and never with the production one."
# A claim read from `LEAD + token + TAIL` begins with LEAD: a token longer than this straddles
# the cut at 200 with no blank in the second half before it (the cut falls inside it).
STRADDLES = 200 - len(LEAD) + 20


def _corpus() -> Iterator[str]:
    """Each `tp` secret of the corpus the redactor finds whole: one run of non-blank characters."""
    return corpus_secrets(("gitleaks_dev", "detect_secrets"))


def _token(fits: Callable[[str], bool], kept: float = 2 / 3) -> str:
    """The first corpus secret that `fits`, found whole in a typed rule, and whose first `kept`
    part, at the end of the rule, the redactor no longer finds (what a cut used to leave)."""
    for token in _corpus():
        if fits(token) and _found_whole(LEAD + token + TAIL, token) and not find(LEAD + token[: int(len(token) * kept)]):
            return token
    raise AssertionError("no such token in the corpus")


def _found_whole(text: str, token: str) -> bool:
    at = text.index(token)
    return any(f.start <= at and f.end >= at + len(token) for f in find(text))


def _stored(repo: Path) -> str:
    """Everything the repository's refs hold (each commit's message and diff) and every file of
    the local store (.git/agent-memory: the L1 observations, pending ones included)."""
    local = repo / ".git" / "agent-memory"
    files = "".join(p.read_text("utf-8", "replace") for p in sorted(local.rglob("*")) if p.is_file())
    return git(repo, "log", "-p", "--all") + files


def _typed_twice(repo: Path, prompt: str) -> str:
    """`prompt` typed in two sessions (so its claim recurs), captured: everything stored."""
    for number, day in ((1, "2026-10-01"), (2, "2026-10-02")):
        write_session(repo, f"5ec0{number:04d}-0000-4000-8000-000000000000", day, [{"user": prompt}])
    gm(repo, "capture", "--all", "--no-stage")
    return _stored(repo)


def test_a_typed_secret_across_the_cut_of_a_claim_is_redacted_whole(guarded: Path) -> None:
    token = _token(lambda t: len(t) >= STRADDLES)
    stored = _typed_twice(guarded, f"{LEAD}{token}{TAIL}")
    assert "Always deploy with the staging credential" in stored  # the claim was captured
    assert token[len(token) // 4 : len(token) // 2] not in stored
    held = [atom for atom in _atoms(guarded) if str(atom.get("claim", "")).startswith(LEAD.strip())]
    assert held and all(atom["redacted"] for atom in held)  # a reviewer is told


def test_a_typed_secret_across_the_end_of_what_is_read_of_a_long_prompt_is_redacted_whole(guarded: Path) -> None:
    """Only MAX_TEXT characters of a prompt are read: a claim read from its last words held the
    part of a key before that cut."""
    token = _token(lambda t: 40 <= len(t) < STRADDLES, kept=1 / 2)
    notes = "We looked at the build logs together.\n\n" * (MAX_TEXT // 40)
    notes = notes[: notes.rfind("\n\n", 0, MAX_TEXT - len(LEAD) - len(token) // 2) + 2]
    pad = MAX_TEXT - len(LEAD) - len(token) // 2 - len(notes)
    notes += "Ok. " * (pad // 4) + " " * (pad % 4)  # the token straddles MAX_TEXT
    rule = "Never push to the main branch directly.\n\n"  # read: the prompt was captured
    stored = _typed_twice(guarded, f"{rule}{notes[len(rule):]}{LEAD}{token}{TAIL}")
    assert "push to the main branch" in stored
    assert token[len(token) // 4 : len(token) // 2] not in stored


def test_a_typed_secret_across_the_edge_of_a_quote_window_is_redacted_whole(guarded: Path) -> None:
    """A long prompt's quote is read from a window around the claim; redaction shortened the
    window (many long keys pasted after the claim), so the quote reached its cut edge, and
    the part of a key the edge cut in two."""
    pasted = _token(lambda t: len(t) >= 250)
    token = _token(lambda t: 40 <= len(t) < STRADDLES and t != pasted)
    head = "Always deploy with the staging credential from the vault.\n"
    edge = 4 * MAX_QUOTE  # the window's end, from the claim at 0
    lines = f"token: {pasted}\n" * ((edge - len(head) - len(token)) // (len(pasted) + 8))
    filler = "." * (edge - len(token) // 2 - len(head) - len(lines) - len("and: "))
    stored = _typed_twice(guarded, f"{head}{lines}{filler}and: {token} end.\n")
    assert "Always deploy with the staging credential from the vault" in stored
    assert pasted[len(pasted) // 4 : len(pasted) // 2] not in stored
    assert token[len(token) // 4 : len(token) // 2] not in stored


def test_a_typed_secret_across_the_cut_of_a_why_line_is_redacted_whole(guarded: Path) -> None:
    """`inspect --why` shows the first 600 characters of the statement behind an atom, read
    again from the transcript: cut before redaction, it showed the part of a key cut in two."""
    token = _token(lambda t: 40 <= len(t) < STRADDLES, kept=1 / 2)
    head = "Always deploy with the staging credential from the vault. "
    filler = "We looked at the build logs together. " * 20
    filler = filler[: 600 - len(head) - len(token) // 2 - len("It was ")]  # the token straddles 600
    write_session(guarded, "5ec00001-0000-4000-8000-000000000000", "2026-10-01",
                  [{"user": f"{head}{filler}It was {token} then."}])  # fmt: skip
    gm(guarded, "capture", "--all", "--no-stage")
    why = gm_json(guarded, "inspect", "--why", "Always deploy with the staging credential from the vault")
    lines = [item["line"] for item in why["evidence"] if item["status"] == "ok"]
    assert lines and lines[0].startswith("Always deploy with the staging credential")
    assert token[len(token) // 4 : len(token) // 2] not in json.dumps(why)


def _atoms(repo: Path) -> list[dict[str, object]]:
    """The atoms memory/atoms holds (one JSON file each)."""
    paths = git(repo, "ls-tree", "-r", "--name-only", "memory/atoms").split()
    return [json.loads(git(repo, "show", f"memory/atoms:{path}")) for path in paths if path.endswith(".json")]


def test_every_long_corpus_secret_across_the_cut_is_redacted_whole() -> None:
    """Each long secret of the corpus, typed where the claim's cut falls inside it: no part of
    it a reader could take back is in any atom, and each claim that held it says `redacted`."""
    leaked: list[str] = []
    checked = 0
    for token in _corpus():
        text = f"{LEAD}{token}{TAIL}"
        if len(token) < STRADDLES or not _found_whole(text, token):
            continue  # shorter: no cut inside it; not found whole: no cut's doing
        checked += 1
        statement = Statement(1, text, "2026-10-01T00:00:00Z", "5ec00001-0000-4000-8000-000000000000", "prompt")
        for atom in statement_atoms(statement, "/nowhere/5ec00001.jsonl", "project", "2026-10-01T00:00:00Z"):
            written = json.dumps(atom)
            middle = token[len(token) // 4 : len(token) // 2]
            if middle in written or (LEAD.strip() in atom["claim"] and not atom["redacted"]):
                leaked.append(token[:12])
    assert checked >= 20  # the corpus holds that many long secrets
    assert leaked == []


def _semicolon_secret(seed: int) -> str:
    """A made-up key with a `;` inside (as a typed private key may have), random per seed."""
    rng = random.Random(seed)
    pick = lambda n: "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))  # noqa: E731
    return f"sk_{pick(2)}.{pick(2)}!{pick(2)};{pick(6)}_){pick(2)}@{pick(10)}"


def test_a_typed_secret_cut_by_a_clause_split_is_redacted_in_the_claim(guarded: Path) -> None:
    """A claim cut out of a statement at a `;` inside a key held the key's first part, which no
    rule reads as a secret alone ("The user's private key is sk_q7.Rb!Zt"), though the
    statement holds the key whole: the claim is redacted against the whole statement."""
    secret = _semicolon_secret(7)
    first = secret.split(";")[0]
    assert not find(f"My private key is {first}")  # the piece alone: no secret to the rules
    stored = _typed_twice(guarded, f"My private key is {secret}")
    assert "private key is" in stored  # the claim was captured
    assert first[3:] not in stored
    held = [a for a in _atoms(guarded) if "private key" in str(a.get("claim", ""))]
    assert held and all(a["redacted"] for a in held)


def test_a_claim_keeps_its_words_when_the_statement_holds_no_secret_of_them() -> None:
    """Only runs that are pieces of a secret the statement holds are replaced."""
    secret = _semicolon_secret(8)
    source = f"Always run the linter before you push; my private key is {secret}"
    claim, findings = redact_within("Always run the linter before you push", secrets_of(source))
    assert claim == "Always run the linter before you push" and not findings
    claim, findings = redact_within(f"My key is {secret.split(';')[0]}", secrets_of(source))
    assert secret.split(";")[0][3:] not in claim and findings


def test_a_claim_word_inside_an_address_the_statement_holds_is_the_claims_own() -> None:
    """Only what a cut leaves — the start or the end of a secret — is replaced: a claim word
    that sits inside an address ("github" in a noreply domain) is not, and the rule stays
    promotable (a redacted atom never is)."""
    text = "My git email is 4821337+dana@users.noreply.github.com. Always push to github before asking for a review."
    statement = Statement(1, text, "2026-10-01T00:00:00Z", "5ec00001-0000-4000-8000-000000000000", "prompt")
    atoms = statement_atoms(statement, "/nowhere/5ec00001.jsonl", "project", "2026-10-01T00:00:00Z")
    pushed = [a for a in atoms if "before asking for a review" in a["claim"]]
    assert pushed and all("github" in a["claim"] and not a["redacted"] for a in pushed), pushed
