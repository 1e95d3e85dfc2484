"""`git memory remember [--global] "CLAIM"`: a hand-authored atom, staged for review like any
other (see agent_memory/store/remember.py). With `--global` it is an L3 item for the global memory
repo: the documented way for a single-project user to build a persona (docs/global-memory.md), still
through review, the guard and the L3 cap."""

from __future__ import annotations

import argparse

from agent_memory.cli.output import project_of, repo_here
from agent_memory.cli.report import Report
from agent_memory.model.errors import FatalError
from agent_memory.model.tags import in_claude_code_session, origin_label
from agent_memory.store.capture import capture_atoms
from agent_memory.store.remember import (
    add_global_candidate,
    global_atom,
    project_atom,
)

# Why a rejected claim remembered in a Claude Code session stays held back (the model may be the one typing).
IN_SESSION_HINT = ("a person's rejection is set aside only by their own `git memory remember`, "
                   "typed in a terminal outside a Claude Code session")

# JSON `again` → what the person had done, in words
SET_ASIDE = {"rejected": "rejected", "forgotten": "forgotten", "taken_out": "taken out of the memory block"}


def redaction_reason(claim: str) -> str:
    """What was redacted from the claim, by name, and what to restate it without: a path
    under a home directory is not a secret, and "without the secret" sends a person looking
    for one."""
    from agent_memory.redact.context import P_PII
    from agent_memory.redact.engine import find_spans

    spans = find_spans(" ".join(claim.split())) or []
    rules = sorted({rule for _, _, rule, _ in spans})
    personal = {rule for _, _, rule, priority in spans if priority == P_PII}
    if rules and set(rules) <= {"home-user"}:
        what = "the home folder in the path (write the path relative to the repository)"
    elif set(rules) <= personal:
        what = "the personal data"
    elif not personal:
        what = "the secret"
    else:
        what = "the secret and the personal data"
    return f"redacted ({', '.join(rules)}) — restate it without {what}"


def _recorded_not_staged(ident: str, exc: FatalError) -> FatalError:
    """The refusal of the staging that followed a recorded claim: the claim was kept (on
    memory/atoms, or as the global repo's candidate, staged by a later `stage`), so not
    "nothing was changed"."""
    from agent_memory.promote.review import NOT_STAGED

    why = exc.message.removesuffix("; nothing was changed").removesuffix(f"; {NOT_STAGED}")
    return type(exc)(f"{ident} was recorded but not staged: {why}", hint=exc.hint)


def run(args: argparse.Namespace) -> Report:
    repo = repo_here()
    project = project_of(repo)
    held = False
    again: str | None = None  # the person's earlier decision against the claim, set aside
    in_session = in_claude_code_session()
    if args.global_:
        from agent_memory.committed.global_repo import require_home
        from agent_memory.committed.tiers import l3_atoms
        from agent_memory.promote.l3 import adoption_counts, stage_global

        home = require_home()
        atom = global_atom(project, args.claim, args.kind, in_session)
        held = atom["id"] in l3_atoms(home.path)
        recorded = not atom["redacted"] and not held
        if recorded and not in_session:
            from agent_memory.promote.l3 import lift_global_rejection

            # said again by the person: a newer decision than their `adopt --global --reject`
            # (run in a Claude Code session, the model may be the one saying it: not lifted)
            again = "rejected" if lift_global_rejection(home.repo(), atom) else None
        if recorded:
            # A redacted claim is never kept, not even as a local candidate: it needs restating.
            # Said again after an adoption a person undid, it is said anew: with the adoptions
            # seen now, the next stage does not take it for the candidate adopt used up.
            add_global_candidate(home.repo(), atom, adoption_counts(home.repo())[atom["id"]])
        try:
            plan = stage_global()
        except FatalError as exc:
            if not recorded:
                raise
            raise _recorded_not_staged(atom["id"], exc) from None
        staged = [c for c, ident in plan.staged if ident == atom["id"]]
        where = "the global memory repo's memory/review"
        adopt_hint = "git memory adopt --global"
    else:
        from agent_memory.cli.output import store_here
        from agent_memory.committed import tiers
        from agent_memory.committed.install import target_file
        from agent_memory.promote.review import stage_current
        from agent_memory.store.said_again import mark_said_again, unforget_for_remember

        repo, store = store_here()
        atom = project_atom(repo, project, args.claim, args.kind, in_session)
        # Said again by the person: a newer decision than their rejection, forget or undone
        # adoption of it, which would otherwise hold until new sessions (and a remembered claim
        # counts one session a day). A redacted claim needs restating, whatever was decided; run
        # in a Claude Code session, the model may be the one saying it: the person's word holds.
        lift = not atom["redacted"] and not in_session
        forgotten = lift and unforget_for_remember(store, atom["id"])
        capture_atoms(store, [atom], atom["sessions"][0], "git memory remember", refile_restated=False)
        if lift:
            again = mark_said_again(store, atom["id"], set(tiers.l2_atoms(repo.workdir)), forgotten)
        try:
            plan = stage_current(repo, store, project, target_file(repo))
        except FatalError as exc:  # the claim is on memory/atoms
            raise _recorded_not_staged(atom["id"], exc) from None
        staged = [c for c, ident in plan.staged if ident == atom["id"]]
        where = "memory/review"
        adopt_hint = "git memory adopt"
    refused = plan.refused.get(atom["id"])
    if atom["redacted"]:
        reasons = [redaction_reason(args.claim)]
    elif held:
        reasons = ["already held at L3"]
    elif refused:
        reasons = refused
    else:
        gate = next((r for r in plan.results if r.atom_id == atom["id"]), None)
        reasons = (list(gate.reasons) if gate and gate.reasons else ["not eligible"]) + [
            f"see `git memory inspect --why {atom['id']}`"]
    report = Report({"id": atom["id"], "claim": atom["claim"], "redacted": atom["redacted"],
                     "staged": staged[0] if staged else None, "refused": None if staged else reasons,
                     "again": again,
                     **({"origin": atom["origin"]} if "origin" in atom else {})})  # fmt: skip
    if in_session:
        # what a person adopting it must know, and why it is not in the next prompt's context
        report.say(f"remembered in a Claude Code session: labelled {origin_label(atom)}; "
                   "not recalled until a person adopts it")
    if staged:
        if again:
            report.say(f"{atom['id']} was {SET_ASIDE[again]} before; said again now, your newer decision: "
                       "staged for review again")  # fmt: skip
        return report.say(f"staged {atom['id']} on {where}: {atom['claim']}", f"review it with `{adopt_hint}`")
    kept = "was not kept" if args.global_ and atom["redacted"] else "was recorded but not staged"
    report.code = 1
    report.say(f"{atom['id']} {kept}: {'; '.join(reasons)}")
    if in_session and any("rejected on" in r for r in reasons):
        report.hint(IN_SESSION_HINT)
    return report
