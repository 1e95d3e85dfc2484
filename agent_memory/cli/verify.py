"""`git memory verify ID --by 'CMD'`: `verified` is minted only by a check that ran.
CMD runs in the repository; when it exits 0 the atom is raised to `verified` in a commit that
records the command and its exit status. Redaction still applies (no fast-path shortcut)."""

from __future__ import annotations

import argparse
import subprocess

from agent_memory.cli.ids import find_atom
from agent_memory.cli.output import project_of, store_here
from agent_memory.cli.report import Report
from agent_memory.committed import tiers
from agent_memory.gitio import repo as git
from agent_memory.model.clock import now_utc
from agent_memory.model.errors import EXIT_REFUSED, UsageError
from agent_memory.promote import gates
from agent_memory.redact.redactor import redact
from agent_memory.store.l1 import Change, L1Store, Snapshot, summarize


def run(args: argparse.Namespace) -> Report:
    if not args.by.strip():
        # `sh -c ''` exits 0: an empty command would mint `verified` without checking anything.
        raise UsageError("--by needs a command to run; an empty one checks nothing",
                         hint="git memory verify ID --by 'CMD' (e.g. --by 'pytest tests/test_x.py')")
    repo, store = store_here()
    atom = find_atom({a["id"]: a for a in store.atoms()}, args.id)
    ident = atom["id"]
    # The check's output is any bytes (a test binary's): only its last line is shown.
    proc = subprocess.run(args.by, shell=True, cwd=str(repo.cwd), capture_output=True, text=True, check=False,
                          encoding="utf-8", errors="replace")
    command, _ = redact(" ".join(args.by.split()))
    if proc.returncode != 0:
        tail = (proc.stderr.strip() or proc.stdout.strip()).splitlines()[-1:] or [""]
        said = f": {redact(tail[0])[0][:200]}" if tail[0].strip() else ", printing nothing"
        return Report({"id": ident, "verified": False, "exit_status": proc.returncode, "commit": None},
                      [f"the check `{command}` failed (exit {proc.returncode}){said}",
                       f"{ident} stays {atom['confidence']}"], code=EXIT_REFUSED)

    def compute(snap: Snapshot) -> Change | None:
        current = snap.atoms.get(ident)
        if current is None:
            return None
        if current["confidence"] == "verified" and current.get("verified_by") == command:
            return None
        updated = current.copy()
        updated["confidence"] = "verified"
        updated["verified_by"] = command
        return Change(subject=f"verify: {summarize(current, 60)}",
                      body=[f"`{command}` exited 0 in the repository; confidence {current['confidence']} → verified."],
                      trailers=[("Op", "verify"), ("Atom-Id", ident), ("Verified-By", command), ("Exit-Status", "0")],
                      writes={ident: updated})

    commit, _ = store.transact(compute)
    adopted = (atom.get("review") or {}).get("state") == "adopted"
    return Report({"id": ident, "verified": True, "exit_status": 0, "commit": commit},
                  [f"{ident} verified by `{command}`" + (f" ({commit[:10]})" if commit else " (already)"),
                   "it is adopted already: its L1 record says verified now; the committed line is unchanged"
                   if adopted else _next(repo, store, ident)])


def _next(repo: git.Repo, store: L1Store, ident: str) -> str:
    """What the verified atom can do now, as the gate `promote` runs says it: a claim still
    pending (said once), contested or redacted does not promote on one verified observation."""
    atoms = store.atoms()
    results = gates.evaluate_l1(atoms, project_of(repo), now_utc(), tiers.l2_atoms(repo.workdir))
    result = next((r for r in results if r.atom_id == ident), None)
    if result is None or result.eligible:
        return "it can now promote on one observation: see `git memory promote`"
    return f"it does not promote yet: {'; '.join(gates.reasons_for_people(list(result.reasons)))}"
