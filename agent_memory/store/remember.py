"""Hand-authored atoms (`git memory remember "CLAIM"`): for what a person wants remembered
without waiting for it to recur, and for single-project users' L3. They are
redacted like any claim, carry `hand_authored: true` and a back-pointer that names no
transcript (`remembered-<id>.jsonl#L1`), and reach a committed file only through review."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent_memory.gitio import repo as git
from agent_memory.gitio.memory_lock import state_folder_lock
from agent_memory.gitio.state import atomic_write, read_regular_file
from agent_memory.model.atom import MAX_CLAIM_CHARS, Atom, atom_id, new_atom, validate_atom
from agent_memory.model.clock import stamp
from agent_memory.model.controls import argv_text, replace_controls
from agent_memory.model.errors import RepoStateError, UsageError
from agent_memory.model.paths import slug_for
from agent_memory.model.policy import MAX_GLOBAL_STATE_BYTES
from agent_memory.model.tags import SESSION_ORIGIN, SESSION_RULE
from agent_memory.redact.fold import invisible
from agent_memory.redact.redactor import redact

REMEMBERED = "remembered.jsonl"


def _clean(claim: str) -> tuple[str, bool]:
    try:
        # a UTF-8 terminal's bytes in a locale that is not UTF-8 (LC_ALL=C) are its characters
        flat = " ".join(argv_text(claim).split())
    except ValueError:
        # argv bytes that are not UTF-8 (Python keeps them as lone surrogates): not text to store
        raise UsageError("the claim holds bytes that are not UTF-8 text",
                         hint="type it again in a terminal whose encoding is UTF-8 (e.g. LANG=C.UTF-8)") from None
    if not flat:
        raise UsageError("the claim is empty", hint='git memory remember "Never push to main"')
    if len(flat) > MAX_CLAIM_CHARS:
        raise UsageError(
            f"the claim is longer than {MAX_CLAIM_CHARS} characters", hint="state one short, self-contained fact"
        )
    hidden = invisible(flat)
    if hidden:
        # The guard refuses it in every memory file: the claim would be recorded, never staged.
        raise UsageError(f"the claim holds an invisible character (U+{ord(flat[hidden[0]]):04X}) that a "
                         "reviewer would not see", hint="type the claim again without it")
    # Before redaction, so that what is judged is what is stored (new_atom does it too).
    clean = replace_controls(flat)
    if not any(ch.isalnum() for ch in clean):
        # Only control characters (each now U+FFFD), punctuation or symbols: no fact to keep.
        raise UsageError("the claim has no words", hint='git memory remember "Never push to main"')
    text, findings = redact(clean)
    if len(text) > MAX_CLAIM_CHARS:  # a masked secret ("[REDACTED:password]") is longer than the secret
        raise UsageError(f"the claim is longer than {MAX_CLAIM_CHARS} characters once the secret in it is masked",
                         hint="state one short, self-contained fact, without the secret")
    return text, bool(findings)


def _session(now: str) -> str:
    """A hand-authored atom's session: one a day, so atoms remembered on distinct days count
    as distinct sessions at the gates, like what a person said on distinct days."""
    return f"remembered-{now[:10].replace('-', '')}"


def _session_marks(in_session: bool) -> tuple[dict[str, Any], dict[str, str]]:
    """(the atom's optional fields, its evidence's rule) for a claim remembered in a session."""
    if not in_session:
        return {}, {}
    return {"origin": SESSION_ORIGIN}, {"rule": SESSION_RULE}


def project_atom(repo: git.Repo, project: str, claim: str, kind: str, in_session: bool = False) -> Atom:
    text, redacted = _clean(claim)
    now = stamp()
    slug = slug_for(repo.workdir or repo.common_dir)
    pointer = f"~/.claude/projects/{slug}/remembered-{atom_id(text, project)[4:]}.jsonl#L1"
    marks, rule = _session_marks(in_session)
    return validate_atom(new_atom(
        text, kind, project=project, source=pointer, at=now, session=_session(now),
        confidence="stated", redacted=redacted, hand_authored=True,
        evidence={"quote": f"(written with git memory remember) {text}", **rule}, **marks,
    ))  # fmt: skip


def global_atom(project: str, claim: str, kind: str, in_session: bool = False) -> Atom:
    text, redacted = _clean(claim)
    now = stamp()
    marks, _ = _session_marks(in_session)
    return validate_atom(new_atom(
        text, kind, project=None, source=f"remembered-{atom_id(text, None)[4:]}.jsonl#L1", at=now,
        session=_session(now), confidence="stated", redacted=redacted, tier="L3",
        promoted_from_projects=[project], promoted_at=now, hand_authored=True, **marks,
    ))  # fmt: skip


def _read_state_bytes(path: Path, holds: str) -> bytes | None:
    """The bytes of a local state file of the global repo that holds a person's decisions
    (`holds`: what, for the message), None when there is none. Read as the caches are, a
    regular file only and never past MAX_GLOBAL_STATE_BYTES (`read_text` waited for ever on a
    FIFO there and read /dev/zero until memory ran out), but anything else is refused, not read
    as empty: the next write would have put back the file without the person's rejections or
    remembered items."""
    try:
        data = read_regular_file(path, MAX_GLOBAL_STATE_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        why = "a directory" if isinstance(exc, IsADirectoryError) else (exc.strerror or str(exc))
        raise RepoStateError(f"cannot read {path}, where git memory keeps {holds}: {why.removesuffix(': not read')}",
                             hint=_aside(path)) from None  # fmt: skip
    if len(data) > MAX_GLOBAL_STATE_BYTES:
        raise RepoStateError(f"cannot read {path}, where git memory keeps {holds}: larger than "
                             f"{MAX_GLOBAL_STATE_BYTES >> 20} MB", hint=_aside(path))  # fmt: skip
    return data


def read_state_object(path: Path, holds: str) -> dict[str, Any]:
    """`_read_state_bytes`'s JSON object ({} when there is no file). Text that is not one (cut
    short, a hand edit gone wrong) is refused too, never read as empty: the next write put back
    only what it added, and adoption counts read as none pruned the candidates they guard."""
    raw = _read_state_bytes(path, holds)
    if raw is None:
        return {}
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        raise RepoStateError(f"cannot read {path}, where git memory keeps {holds}: not a JSON object",
                             hint=_aside(path))  # fmt: skip
    return data


def _aside(path: Path) -> str:
    return f"move it aside (mv '{path}' '{path}.bad'; git memory starts a new one), then run the command again"


def remembered_path(home_repo: git.Repo) -> Path:
    return home_repo.state / REMEMBERED


# Beside the candidates (each line of remembered.jsonl is an atom, and the schema takes no
# other field): for each candidate, how many adopt commits named its id on the base when the
# person last said it. One more since is its adoption — the candidate is done then, whatever
# becomes of the item afterwards (a `git revert`, a line edited out): a removal is the
# person's, and the tool does not stage the item again until they say it again.
ADOPTIONS_SEEN = "remembered-adoptions.json"


def _seen_path(home_repo: git.Repo) -> Path:
    return home_repo.state / ADOPTIONS_SEEN


def read_adoptions_seen(home_repo: git.Repo) -> dict[str, int]:
    """candidate id → the adoptions of it on the base when the person said it (none recorded:
    0, as for a candidate kept before this was recorded)."""
    data = read_state_object(_seen_path(home_repo), "the adoption counts of items remembered with --global")
    return {str(k): v for k, v in data.items() if type(v) is int and v >= 0}


def _write_seen(home_repo: git.Repo, seen: dict[str, int]) -> None:
    atomic_write(_seen_path(home_repo), json.dumps(seen, sort_keys=True, indent=2) + "\n")


def _write_candidates(home_repo: git.Repo, lines: list[Atom | bytes]) -> None:
    """Write the candidates back: each atom as JSON, each line that was not one (`bytes`, as
    `_read_candidate_lines` found it) as it was, in its place."""
    atomic_write(remembered_path(home_repo), b"".join(
        (line if isinstance(line, bytes) else json.dumps(line, sort_keys=True).encode("utf-8")) + b"\n"
        for line in lines))  # fmt: skip


def adopted_since(atom: Atom, adoptions: int, seen: dict[str, int]) -> bool:
    """Whether the candidate was adopted after the person said it (`adoptions`: the adopt
    commits naming its id on the base now)."""
    return adoptions > seen.get(str(atom["id"]), 0)


def add_global_candidate(home_repo: git.Repo, atom: Atom, adoptions: int) -> None:
    """Keep `atom` until it is adopted. `adoptions`: how many adopt commits name its id on the
    base now. A candidate still waiting is kept as it was (staging stays deterministic); one
    adopted since it was said is said anew — the person brings back an item they removed."""
    with state_folder_lock(home_repo, "remember it"):
        _add_global_candidate(home_repo, atom, adoptions)


def _add_global_candidate(home_repo: git.Repo, atom: Atom, adoptions: int) -> None:
    lines = _read_candidate_lines(home_repo)
    existing = _candidates(lines)
    seen = read_adoptions_seen(home_repo)
    old = next((a for a in existing if a["id"] == atom["id"]), None)
    if old is not None and not adopted_since(old, adoptions, seen):
        return
    if seen.get(str(atom["id"]), 0) != adoptions:
        # first: a count left without its candidate (killed between the two writes) is harmless
        _write_seen(home_repo, {**seen, str(atom["id"]): adoptions})
    _write_candidates(home_repo, [*(a for a in lines if isinstance(a, bytes) or a["id"] != atom["id"]), atom])


def prune_global_candidates(home_repo: git.Repo, held: set[str], adoptions: Mapping[str, int] | None) -> list[str]:
    """Drop the candidates that were adopted at L3 since the person said them (`adoptions`: the
    adopt commits naming each id on the base now; None: not counted), and those held there:
    the log holds them, or held them until a person took them out. Returns the ids dropped
    that are not held — the ones removed since, which stay removed until a person remembers
    them again."""
    # under the state folder's lock: a `remember --global` between this read and the write
    # below lost its new candidate
    with state_folder_lock(home_repo, "adopt or stage"):
        return _prune_global_candidates(home_repo, held, adoptions)


def _prune_global_candidates(home_repo: git.Repo, held: set[str], adoptions: Mapping[str, int] | None) -> list[str]:
    lines = _read_candidate_lines(home_repo)
    existing = _candidates(lines)
    seen = read_adoptions_seen(home_repo)
    unknown = {str(a["id"]): adoptions.get(str(a["id"]), 0) for a in existing
               if adoptions is not None and str(a["id"]) not in seen}  # fmt: skip
    if unknown:
        # kept before the counts were recorded (an older version): said with the adoptions
        # there are now, not dropped for an adoption that may be older than the saying
        seen = {**seen, **unknown}
        _write_seen(home_repo, seen)
    done = [a for a in existing if a["id"] in held
            or (adoptions is not None and adopted_since(a, adoptions.get(str(a["id"]), 0), seen))]  # fmt: skip
    if not done:
        return []
    gone = {str(a["id"]) for a in done}
    _write_candidates(home_repo, [a for a in lines if isinstance(a, bytes) or a["id"] not in gone])
    if gone & set(seen):
        _write_seen(home_repo, {k: v for k, v in seen.items() if k not in gone})
    return sorted(gone - held)


def read_global_candidates(home_repo: git.Repo) -> list[Atom]:
    """The candidates waiting to be staged; a line that is not one is passed over here (and
    kept by every rewrite)."""
    return _candidates(_read_candidate_lines(home_repo))


def _candidates(lines: list[Atom | bytes]) -> list[Atom]:
    """The atoms among `_read_candidate_lines`'s lines."""
    return [a for a in lines if not isinstance(a, bytes)]


def _read_candidate_lines(home_repo: git.Repo) -> list[Atom | bytes]:
    """remembered.jsonl line by line: each an atom, or — cut short, hand-edited, not UTF-8 —
    its bytes as they are. Those were skipped and the next rewrite (a `remember --global`, an
    adopt letting adopted candidates go) dropped the person's item for good; a rewrite puts
    them back untouched, for the person to mend."""
    data = _read_state_bytes(remembered_path(home_repo), "the items remembered with --global")
    out: list[Atom | bytes] = []
    for line in (data or b"").split(b"\n"):
        if not line.strip():
            continue
        try:
            out.append(validate_atom(json.loads(line.decode("utf-8"))))
        except Exception:  # noqa: BLE001 - any line that is no atom is kept as it is, never fatal
            out.append(line)
    return out
