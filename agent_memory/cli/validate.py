"""`git memory validate [--atoms FILE] [--auto-memory [DIR]] [--fix]`: schema, ids and store
invariants; the rendered blocks against adopted.log; supersede references; working sets."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent_memory.claude import automemory
from agent_memory.cli.output import emit_json, store_here, wants_json
from agent_memory.committed import tiers
from agent_memory.committed.files import TierFiles
from agent_memory.committed.global_repo import GlobalRepo
from agent_memory.committed.install import target_file
from agent_memory.committed.render import MalformedBlockError, find_block
from agent_memory.model.atom import Atom, atom_errors
from agent_memory.model.errors import EXIT_REFUSED, UsageError


def validate_atoms_file(path: Path) -> list[str]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError as exc:
        raise UsageError(
            f"no file at {path}", hint="pass a JSON file holding one atom or a list of atoms"
        ) from exc
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise UsageError(
            f"{path} is not JSON: {exc}",
            hint="pass a JSON file holding one atom or a list of atoms",
        ) from exc
    atoms = data if isinstance(data, list) else [data]
    errors = []
    for index, atom in enumerate(atoms):
        label = f"[{index}] {atom.get('id', '?')}" if isinstance(atom, dict) else f"[{index}]"
        errors += [f"{label}: {e}" for e in atom_errors(atom)]
    counts = Counter(a.get("id") for a in atoms if isinstance(a, dict))
    errors += [
        f"duplicate id {ident} ({n} records): an id collision is a merge, never a second record"
        for ident, n in sorted(counts.items(), key=lambda kv: str(kv[0]))
        if ident and n > 1
    ]
    return errors


def _block_problem(
    files: Any, tier: str, target_path: Path, fix: bool, fixed: list[str]
) -> list[str]:
    """A block that differs from what adopted.log renders to: reported, or re-rendered with
    --fix. Broken markers are reported and left alone: where a lost end marker was cannot be
    known, and guessing could swallow the person's own text after the block."""

    try:
        find_block(files.target_text, tier)
    except MalformedBlockError as exc:
        return [
            f"{target_path}: the {tier} block's markers are broken ({exc}); restore them "
            f"(`git checkout -- {target_path.name}` for an uncommitted edit, or by hand), "
            "then re-render with `git memory validate --fix`"
        ]
    if not fix:
        return [
            f"{target_path}: the {tier} block differs from .memory/adopted.log (edited by hand?); "
            "re-render it with `git memory validate --fix`"
        ]
    target_path.write_text(files.rerendered().target_text, "utf-8")
    fixed.append(
        f"re-rendered the {tier} block in {target_path} from .memory/adopted.log (commit it)"
    )
    return []


def supersede_errors(atoms: Mapping[str, Atom]) -> list[str]:
    """Dangling `superseded_by` targets and cycles (seed 002)."""
    errors = []
    for ident in sorted(atoms):
        target = atoms[ident].get("superseded_by")
        if target and target not in atoms:
            errors.append(f"{ident} is superseded by {target}, which is not held")
        seen = [ident]
        while target and target in atoms:
            if target in seen:
                loop = seen[seen.index(target) :]
                start = loop.index(
                    min(loop)
                )  # one message per cycle, whichever atom it is met from
                loop = loop[start:] + loop[:start]
                errors.append(f"supersede cycle: {' → '.join([*loop, loop[0]])}")
                break
            seen.append(target)
            target = atoms[target].get("superseded_by")
    return sorted(set(errors))


def run(args: argparse.Namespace) -> int:
    report: dict[str, Any] = {"ok": True, "errors": []}
    if args.atoms:
        report["errors"] += validate_atoms_file(Path(args.atoms))
    if args.auto_memory is not None:
        report.update(_auto_memory(args.auto_memory))
    if not args.atoms and args.auto_memory is None:
        report["errors"] += _repository(fix=args.fix, report=report)
    report["ok"] = not report["errors"]
    if wants_json(args):
        emit_json(report)
    else:
        if args.auto_memory is not None and "text" in report:
            print(report.pop("text"))
        for error in report["errors"]:
            print(f"error: {error}")
        for fixed in report.get("fixed", []):
            print(f"fixed: {fixed}")
        if report["ok"]:
            print("ok")
    report.pop("text", None)
    return 0 if report["ok"] else EXIT_REFUSED


def _auto_memory(directory: str) -> dict[str, Any]:

    if directory:
        target = Path(directory)
    else:
        from agent_memory.cli.output import repo_here

        repo = repo_here()
        target = automemory.default_auto_memory_dir(repo.workdir or repo.common_dir)
    result = automemory.validate_auto_memory(target)
    data = result.to_json()
    data["text"] = automemory.render_report(result)
    data["errors"] = list(data.get("errors", []))
    return data


def _repository(fix: bool, report: dict[str, Any]) -> list[str]:

    errors: list[str] = []
    repo, store = store_here()
    snap = store.snapshot()
    errors += [f"memory/atoms:{path}: {why}" for path, why in snap.bad]
    for ident, atom in sorted(snap.atoms.items()):
        errors += [f"memory/atoms:atoms/{ident}.json: {e}" for e in atom_errors(atom)]
    fixed: list[str] = []
    places = []
    if repo.workdir is not None:
        places.append(("L2", repo.workdir, target_file(repo)))
    home = GlobalRepo.default()
    if home.exists():
        places.append(("L3", home.path, "CLAUDE.memory.md"))
    for tier, root, target in places:
        log_path, target_path = root / ".memory/adopted.log", root / target
        files = TierFiles(
            tier=tier,
            target_name=target,
            log_text=log_path.read_text("utf-8") if log_path.exists() else "",
            target_text=target_path.read_text("utf-8") if target_path.exists() else "",
        )
        errors += [f"{log_path}: {e}" for e in files.log_errors(validate=True)]
        if (files.held() or files.log_text.strip()) and files.hand_edited():
            errors += _block_problem(files, tier, target_path, fix, fixed)
        errors += [f"{tier}: {e}" for e in supersede_errors(tiers.held(root))]
    report["fixed"] = fixed
    return errors
