"""Tags written next to an injected claim. Stdlib only: the per-prompt recall renders them."""

import os


def contested_tag(newer: str) -> str:
    """A contested claim is still injected, tagged with the day of the NEWER
    evidence; `newer` is that day (YYYY-MM-DD) or a full timestamp of it."""
    day = newer.strip()
    if len(day) != 10:
        from agent_memory.model.clock import utc_day  # a timestamp: datetime only when needed

        day = utc_day(day)
    return f"[contested — newer evidence {day}]"


AUTO_MEMORY_ORIGIN = "auto-memory"
CLAUDE_MEMORY = "Claude's own memory"
# `git memory remember` run inside a Claude Code session: its process carries the `CLAUDECODE=1`
# the client sets for every command it runs (the model's Bash tool; a person's `!` command too).
# Told apart by that environment, never by the claim's words: as far as agent-memory can tell the
# model wrote it — perhaps because a file it read told it to — so it is labelled as Claude's and
# recalled only once a person adopted it, or typed the claim in a prompt themselves.
SESSION_ORIGIN = "claude-code-session"
SESSION_RULE = "remember.claude_code_session"  # its evidence's rule: no typed words
_IN_SESSION = f"{CLAUDE_MEMORY} (git memory remember, run in a Claude Code session)"


def in_claude_code_session() -> bool:
    """Whether this process runs inside a Claude Code session: the client sets CLAUDECODE=1 for
    every command it runs (its Bash tool's, a `!` command's). What is remembered there is
    labelled as Claude's (SESSION_ORIGIN), and adopt there commits none of Claude's own memory
    (adoption.adopt.claude_adopting)."""
    return os.environ.get("CLAUDECODE") == "1"


def is_claude_memory(atom: object) -> bool:
    """Whether the atom came from a memory file Claude Code's model wrote (untrusted: never
    recalled per prompt, labelled wherever shown, committed only through a person's adopt)."""
    return isinstance(atom, dict) and atom.get("origin") == AUTO_MEMORY_ORIGIN


def model_written(atom: object) -> bool:
    """A memory file Claude's model wrote (is_claude_memory) or a claim `git memory remember`
    recorded from inside a Claude Code session (SESSION_ORIGIN)."""
    return isinstance(atom, dict) and atom.get("origin") in (AUTO_MEMORY_ORIGIN, SESSION_ORIGIN)


def unvouched_claude_memory(atom: object) -> bool:
    """Whether the atom's only evidence is a memory file Claude's model wrote and no person has
    adopted it: such an atom may be reported as contradicting another (inspect --contested,
    consolidate), but it never makes any atom's line contested in what Claude is told."""
    if not model_written(atom) or not isinstance(atom, dict):
        return False
    if atom.get("hand_authored") and atom.get("origin") != SESSION_ORIGIN:
        return False  # a person's own `remember` of the claim vouches for it
    review = atom.get("review")
    if isinstance(review, dict) and review.get("state") == "adopted":
        return False
    evidence = atom.get("evidence")
    rules = [str(e.get("rule") or "") for e in (evidence if isinstance(evidence, list) else [])
             if isinstance(e, dict)]
    return all(rule.startswith("auto_memory") or rule == SESSION_RULE for rule in rules)


def origin_label(atom: object) -> str | None:
    """`Claude's own memory (feedback_x.md)` for such an atom (and its remember-in-a-session
    form), else None."""
    if isinstance(atom, dict) and atom.get("origin") == SESSION_ORIGIN:
        return _IN_SESSION
    if not is_claude_memory(atom):
        return None
    name = atom.get("memory_file") if isinstance(atom, dict) else None
    return f"{CLAUDE_MEMORY} ({name})" if name else CLAUDE_MEMORY


def memory_reasons(atom: object) -> list[str]:
    """The `Why: …` and `How to apply: …` lines of the memory's latest evidence quote."""
    if not is_claude_memory(atom) or not isinstance(atom, dict):
        return []
    items = [e for e in atom.get("evidence") or [] if isinstance(e, dict)
             and str(e.get("rule", "")).startswith("auto_memory") and isinstance(e.get("quote"), str)]
    if not items:
        return []
    latest = max(items, key=lambda e: (str(e.get("at", "")), str(e.get("source", ""))))
    return [line for line in latest["quote"].split("\n") if line.startswith(("Why: ", "How to apply: "))]
