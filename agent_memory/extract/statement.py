"""One user statement → candidate claims: the user's text prepared (prepare.py), cut into
sentences, each sentence's clause claims (sentence.py) finished and joined (finish.py), claims in
other languages (rules/languages.py) and the "use X" of a rejected tool call added, and a claim
kept only where it carries over beyond this turn (standing.py)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import replace

from agent_memory.extract import standing
from agent_memory.extract.canonical import third_person
from agent_memory.extract.dispatch import SCOPE
from agent_memory.extract.filters import made_standing, memory_note
from agent_memory.extract.finish import Candidate, finish, join_claims
from agent_memory.extract.hash_note import note_as_typed
from agent_memory.extract.kept_list import kept_list_items
from agent_memory.extract.prepare import (
    generated_prompt,
    prepared,
    users_text,
    without_quoted_latin,
)
from agent_memory.extract.remember_back import led_by_remember
from agent_memory.extract.rules.directives import Rule
from agent_memory.extract.rules.lang_ask import ask_when_unsure
from agent_memory.extract.rules.lang_words import non_english
from agent_memory.extract.rules.languages import language_claims
from agent_memory.extract.sentence import JUST_ASKING, sentence_claims
from agent_memory.extract.text import MAX_CLAIM, sentences, shorten, strip_lead, tidy, unmask
from agent_memory.model.atom import normalize
from agent_memory.model.tool_families import FAMILIES, KNOWN_TOOLS
from agent_memory.redact.regex import LazyCompiler
from agent_memory.transcripts.failures import command_program

# module-level patterns compile on first use (redact/regex.py): every capture and
# `remember` process imports these rules, and most of them never fire on its text
_lazy = LazyCompiler(globals())

__all__ = ["Candidate", "extract_claims"]


_FIX_REQUEST = _lazy(
    r"\b(?:(?:please|pls|can you|could you)\s+(?:\w+\s+)?(?:fix|debug|investigate|look into|check)|"
    r"fix (?:it|this|that)|any idea|what's going on|why (?:does|is|do)|help me)\b",
    re.I,
)


def extract_claims(
    text: str,
    *,
    origin: str = "prompt",
    rejected_command: str | None = None,
    users_words: bool = True,
) -> list[Candidate]:
    """Candidate claims in one user statement (pure, deterministic; no I/O, no clock).
    `users_words=False`: the text is the model's own (a memory file), whose "I"/"my" is Claude's
    and is left as written, never put in the user's third person."""
    if not text or not text.strip():
        return []
    # Sessions repeat themselves ("continue", "yes", the same instruction again): memoise.
    return list(_extract_cached(text, origin, rejected_command, users_words))


@functools.lru_cache(maxsize=4096)
def _extract_cached(
    text: str, origin: str, rejected_command: str | None, users_words: bool = True
) -> tuple[Candidate, ...]:
    return tuple(_extract(text, origin, rejected_command, users_words))


def _sentence_candidates(
    sentence: str,
    spans: list[str],
    origin: str,
    bug_report: bool,
    short: bool = True,
    keep: Callable[[Candidate], bool] = lambda c: True,
) -> list[Candidate]:
    """One sentence's claims (those `keep` accepts); adjacent clause claims joined into one
    memory line."""
    found: list[Candidate] = []
    group: list[Candidate] = []
    last = -2
    for claim, kind, index, rule in sentence_claims(sentence, origin, bug_report, short):
        cand = finish(claim, kind, spans, rule)
        if cand is None or not keep(cand):
            last = -2
            continue
        if group and any(normalize(p.claim) == normalize(cand.claim) for p in group):
            last = index  # "never X; never X; use Y": a clause said twice is said once
            continue
        if group and index == last + 1 and len(join_claims([*group, cand]).claim) <= MAX_CLAIM:
            group.append(cand)
        else:
            if group:
                found.append(join_claims(group))
            group = [cand]
        last = index
    if group:
        found.append(join_claims(group))
    return found


def _deduped(found: list[Candidate]) -> list[Candidate]:
    if any(c.rule.startswith("language.") for c in found):
        # An English rule reading a sentence of another language ("Use X em vez de Y") adds
        # nothing the language rule did not say better.
        found = [c for c in found if c.rule.startswith("language.") or not non_english(c.claim)]
    seen: set[str] = set()
    out = []
    for cand in found:
        key = normalize(cand.claim)
        if key not in seen and not any(
            key in s or s in key for s in seen if len(s) > 12 and len(key) > 12
        ):
            seen.add(key)
            out.append(cand)
    return out


def _language_candidates(masked: str, spans: list[str]) -> list[Candidate]:
    """Other languages: explicit markers only, the user's sentence kept (rules/languages.py)."""
    if not non_english(masked):
        return []
    return [
        Candidate(shorten(unmask(claim, spans)), kind, "stated", f"language.{sub}")
        for claim, kind, sub in language_claims(masked)
    ]


def _rejection_candidate(
    masked: str, origin: str, rejected_command: str | None, spans: list[str]
) -> Candidate | None:
    """The "use X" a rejected tool call was answered with."""
    special = _rejection_claim(masked, rejected_command) if origin == "rejection" else None
    return finish(special[0], special[1], spans, "rejection.use_tool") if special else None


def _extract(
    text: str, origin: str, rejected_command: str | None, users_words: bool = True
) -> list[Candidate]:
    if generated_prompt(text):
        return []
    typed = text
    text, asked_to_keep = users_text(text, origin)
    masked, spans = prepared(text)
    masked = led_by_remember(masked)  # "<statement>. Remember this.": the statement is kept
    found = _language_candidates(masked, spans) + kept_list_items(masked, spans)
    cand = _rejection_candidate(masked, origin, rejected_command, spans)
    if cand:
        found.append(cand)
    bug_report = bool(_FIX_REQUEST.search(masked))
    approval = bool(_APPROVAL.match(masked))
    asked = False
    said = _carry_back_references(
        _just_asking_joined(_scope_after_semicolon(sentences(without_quoted_latin(masked))))
    )
    around = standing.shape(said, masked)
    for index, sentence in enumerate(said):
        if approval and not _STANDING.search(sentence):
            continue  # "Plan approved. Proceed … Do NOT add new tools": how to carry out this plan
        if cand and sentence.strip() == masked.strip():
            continue  # the whole reason was the special "use X" shape
        if asked and _QUESTION_TAIL.match(sentence.strip()):
            continue  # "could you rewrite my config? using X and Y": the question goes on
        asked = sentence.rstrip().endswith("?")
        # A bare "note:"/"remember" is the user's framing in a short statement or at its start;
        # further into a long paste it is the pasted tool's ("Note: 100 rows shown").
        short = len(masked) <= 200 or index == 0
        # Each clause's claim is judged before clauses are joined ("use X, never Y"): a bound on
        # this work must not take a standing rule of the same sentence with it.
        keep = functools.partial(
            _standing,
            sentence=sentence,
            index=index,
            around=around,
            origin="memory" if asked_to_keep else origin,
        )
        found.extend(_sentence_candidates(sentence, spans, origin, bug_report, short, keep))
    # "when in doubt, ask", when no other rule read it ("se tiver dúvidas, sempre pergunte" is
    # already an "always" rule)
    asking = None if found else ask_when_unsure(masked)
    if asking:
        found.append(Candidate(asking[0], asking[1], "stated", f"language.{asking[2]}"))
    if not found and origin == "prompt" and memory_note(typed):
        note = note_as_typed(masked, spans)  # the note's own text ("#" cut by users_text)
        if note:
            found.append(note)
    return _deduped([_in_third_person(c) for c in found] if users_words else found)


def _in_third_person(cand: Candidate) -> Candidate:
    """A kept claim with the user's "I"/"me"/"my" in the third person, as a memory line reads
    (canonical.third_person); a claim in another language keeps the user's words."""
    if cand.rule.startswith("language."):
        return cand
    claim = third_person(cand.claim)
    return cand if claim == cand.claim else replace(cand, claim=shorten(claim))


def _just_asking_joined(said: list[str]) -> list[str]:
    """"I don't want you to edit the script! I just need to know how to run it.": the second
    sentence says what this turn is for, as a clause of the first does; read as one."""
    out: list[str] = []
    for sentence in said:
        if out and JUST_ASKING.match(strip_lead(sentence)):
            out[-1] = out[-1].rstrip(" .!") + ", " + sentence
            continue
        out.append(sentence)
    return out


def _scope_after_semicolon(said: list[str]) -> list[str]:
    """"go on with the upgrade; from now on, never edit the lockfile": the scope opens a sentence
    of its own after the semicolon, and bounds only that one (not this turn's request before it)."""
    out: list[str] = []
    for sentence in said:
        pieces = re.split(r";\s+", sentence)
        current = pieces[0]
        for piece in pieces[1:]:
            if SCOPE.match(piece):
                out.append(current + ";")
                current = piece
            else:
                current += "; " + piece
        out.append(current)
    return out


def _carry_back_references(said: list[str]) -> list[str]:
    """"request a Copilot review. Make that standard in your workflow.": the instruction said
    just before a back reference becomes a standing one (read as if "from now on" closed it);
    the back reference itself names nothing and is dropped."""
    out: list[str] = []
    for sentence in said:
        if out and made_standing(out[-1], sentence):
            if not SCOPE.search(out[-1]):  # a second back reference adds nothing more
                out[-1] = out[-1].rstrip(" .!") + " from now on."
            continue
        out.append(sentence)
    return out


def _standing(
    c: Candidate, sentence: str, index: int, around: standing.Shape, origin: str
) -> bool:
    # A "#" memory note is asked to be kept: every rule in it stands.
    return origin == "memory" or standing.carries_over(
        c.claim, c.kind, c.rule, sentence, index, around
    )


# "Approved. Proceed with implementation exactly as proposed. Rules: - …": the rules that follow
# bound the plan being approved; only a rule said to stand ("always", "from now on") is kept.
_APPROVAL = _lazy(
    r"^\W*(?:(?:the\s+)?plan\s+(?:is\s+)?approved|approved|lgtm|proceed with (?:the\s+)?"
    r"implementation)\b",
    re.I,
)
_STANDING = _lazy(
    r"\b(?:always|never|from now on|going forward|in (?:the )?future|every time|whenever)\b", re.I
)


# What follows a question without a capital or with a joining word still belongs to it.
_QUESTION_TAIL = _lazy(r"^(?:[a-z]+ing\b|(?i:using|with|without|via|by)\b)")


# Interchangeable tools: a rejected command of one and a reason naming another is a preference


def _rejection_claim(reason: str, rejected_command: str | None) -> Rule | None:
    s = tidy(strip_lead(reason.strip().split("\n", 1)[0]))
    m = re.match(
        r"^(?:please\s+)?(?:use|try|run it with|do it with|with)\s+([\w.@/\ue000\ue001-]+)$",
        s,
        re.I,
    ) or re.match(r"^([\w.@/-]+)\s+(?:please|instead|pls)$", s, re.I)
    if not m:
        bare = re.match(r"^([\w.@/-]+)$", s)
        if not bare or bare.group(1).lower() not in KNOWN_TOOLS:
            return None
        m = bare  # "pnpm" alone, on a rejected command: the tool to use instead
    tool = m.group(1)
    program = command_program(rejected_command).split(" ", 1)[0]
    for family in FAMILIES:
        if tool.lower() in family and program in family and program != tool.lower():
            return f"Use {tool}, not {program}", "preference"
    return f"Use {tool}", "preference"
