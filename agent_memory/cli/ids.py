"""One rule for naming an atom on the command line, used by every verb that takes an ID
(adopt, forget, inspect --why, log, pin/unpin/decay/supersede, resolve, verify).

A key names the candidate that, trying these in order:
1. has that id;
2. has an id beginning with the key, when the key begins with `atm_`;
3. waits in a review commit whose oid begins with the key (7 or more hex digits; adopt only);
4. has that claim (compared as atoms are: whitespace collapsed, case folded, trailing
   punctuation dropped), or a claim whose line in a memory file is the key (a line copied from
   CLAUDE.memory.md, with the backslashes the file adds: `committed.render.claim_forms`);
5. has a claim in which every word of the key begins a word, in any order: `ruff format`
   names "Format Python with ruff format before committing".
The first step that finds anything decides: one atom is the answer, several are ambiguous (an
error naming them with their claims, exit 2), and a key no step matches is an error too (exit 2).
Verbs that remove or demote take the same keys: what they did is printed with the claim, and
each has its undo (`forget --undo`, `unpin`, a new adoption)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from agent_memory.committed.render import claim_forms
from agent_memory.model.atom import Atom, normalize
from agent_memory.model.errors import AmbiguousError, UsageError
from agent_memory.model.trailers import one_line

ACCEPTED = "an atom id, a unique atm_ prefix, or words of its claim"
_WORD = re.compile(r"\w+")
_SHOWN = 5


class NoMatch(UsageError):
    """No candidate matches the key (verbs with a narrower pool say what the pool is)."""


def resolve(key: str, claims: Mapping[str, str], commits: Mapping[str, str] | None = None) -> str:
    """The id `key` names among `claims` ({id: claim}); `commits` ({review commit oid: id})
    adds step 3. Raises AmbiguousError or NoMatch."""
    if key in claims:
        return key
    steps = (
        lambda: [i for i in claims if i.startswith(key)] if key.startswith("atm_") else [],
        lambda: _by_commit(key, commits or {}),
        lambda: [i for i, c in claims.items() if normalize(c) == normalize(key)]
        or [i for i, c in claims.items() if normalize(key) in map(normalize, claim_forms(c))],
        lambda: _by_words(key, claims),
    )
    for step in steps:
        found = sorted(set(step()))
        if len(found) == 1:
            return found[0]
        if found:
            raise _ambiguous(key, found, claims)
    raise NoMatch(f"no atom matches {key!r}",
                  hint=f"pass {ACCEPTED}; `git memory show` lists the atoms")  # fmt: skip


def find_atom(atoms: Mapping[str, Atom], key: str) -> Atom:
    """The atom `key` names among `atoms` ({id: atom})."""
    return atoms[resolve(key, {i: str(a.get("claim", "")) for i, a in atoms.items()})]


def global_only(key: str, verb: str) -> UsageError | None:
    """The refusal for a key that names no atom of this project's but one of the global memory
    (L3) — `show` lists them, `inspect --why` finds them, and `forget`/`pin`/… said "no atom
    matches" — with the way docs/global-memory.md gives to take one out; else None."""
    from agent_memory.committed import tiers
    from agent_memory.model.home import git_in, memory_home_dir, tilde_text

    l3 = tiers.l3_atoms()
    try:
        ident = resolve(key, {i: str(a.get("claim", "")) for i, a in l3.items()})
    except (NoMatch, AmbiguousError):
        return None
    git = git_in(memory_home_dir())
    revert = (f"revert its adopt commit there: `{git} log --format='%h %s' --grep 'Atom-Id: {ident}'`, "
              f"then `{git} revert <commit>` (agent-memory's docs/global-memory.md, Pruning L3)")
    hint = (f"to take it out of the global memory, {revert}" if verb in ("forget", "decay") else
            f"the global memory has no `{verb}`: an item comes in by `git memory adopt --global`; to take one out, {revert}")
    return UsageError(f"{ident} is in your global memory (L3); `git memory {verb}` acts on this project's memory",
                      hint=tilde_text(hint))


def _by_commit(key: str, commits: Mapping[str, str]) -> list[str]:
    if len(key) < 7 or not all(c in "0123456789abcdef" for c in key.lower()):
        return []
    return [ident for oid, ident in commits.items() if oid.startswith(key.lower())]


def _by_words(key: str, claims: Mapping[str, str]) -> list[str]:
    wanted = _WORD.findall(normalize(key))
    if not wanted:
        return []
    out = []
    for ident, claim in claims.items():
        words = _WORD.findall(normalize(claim))
        if all(any(w.startswith(k) for w in words) for k in wanted):
            out.append(ident)
    return out


def _ambiguous(key: str, found: list[str], claims: Mapping[str, str]) -> AmbiguousError:
    named = ", ".join(f"{i} ({one_line(claims.get(i, ''), 40)!r})" for i in found[:_SHOWN])
    more = f" and {len(found) - _SHOWN} more" if len(found) > _SHOWN else ""
    return AmbiguousError(f"{key!r} matches several atoms ({len(found)}): {named}{more}",
                          hint="pass one of these ids, or more words of the claim")  # fmt: skip
