"""Claude Code's own memory as a source: the reader over a tree of auto-memory folders.

Prints issue 27's acceptance figures, measured in one run, nothing asserted (benchmarks are
not tests):

- accounted: every topic file (every file under a memory folder that is not an index
  `MEMORY*.md` and not a dotfile) is exactly one candidate or one skip;
- candidates: the share of topic files with a known `type` (user, feedback, project,
  reference) that become candidates (target ≥ 90 %);
- kinds follow the type: feedback → constraint|preference, project → fact|decision,
  user → preference|fact, reference → fact;
- residue: claims with markdown left in them (emphasis, links, wikilinks, list markers,
  headings, quotes, HTML tags, "Why:" / "How to apply:");
- redaction: string fields of the atoms in which the redactor still finds something (it ran
  before the atoms were built, so anything it would remove must be gone);
- skip reasons with counts.

A memory folder is a directory named `memory` or holding a `MEMORY.md`, none of whose
ancestors below the root is one (a nested folder with its own index belongs to the folder
above it), or one given with `--folder`. The real folders (`../shared/fixtures/auto-memory-real/folders`) are found next to
the worktree when no root is given; they are read in place, never copied.

    python benchmarks/auto_memory.py [ROOT] [--folder DIR …] [--list] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from agent_memory.automemory.location import is_index_file, memory_slug  # noqa: E402
from agent_memory.automemory.notes import KNOWN_TYPES, read_folder  # noqa: E402
from agent_memory.extract.memory_notes import memory_atoms  # noqa: E402
from agent_memory.redact.redactor import redact  # noqa: E402

KINDS_OF_TYPE = {"feedback": {"constraint", "preference"}, "project": {"fact", "decision"},
                 "user": {"preference", "fact"}, "reference": {"fact"}}  # fmt: skip
RESIDUE = re.compile(
    r"\*\*|__|~~|\[\[|\]\]|\]\(|^\s*#|^\s*[-*+]\s|^\s*\d+[.)]\s|^\s*>|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?>"
    r"|\bWhy\s*:|How to apply\s*:|^\s*\||\|\s*$"
)


def find_folders(root: Path) -> list[Path]:
    found = []
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(dirs)
        if "MEMORY.md" in files or Path(here).name == "memory":
            found.append(Path(here))
            dirs[:] = []  # its nested folders are its own
    return found


def topic_files(folder: Path) -> list[str]:
    """Independently of the reader: every non-dot file (symlinks too) that is not an index."""
    out = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        rel_dir = Path(here).relative_to(folder).as_posix()
        names = list(files) + [d for d in dirs if os.path.islink(os.path.join(here, d))]
        for name in sorted(names):
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            if not name.startswith(".") and not is_index_file(rel):
                out.append(rel)
    return out


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def measure(folders: list[Path], listing: bool) -> dict[str, Any]:
    totals: Counter[str] = Counter()
    skips: Counter[str] = Counter()
    kinds: Counter[tuple[str, str]] = Counter()
    problems: list[str] = []
    for folder in folders:
        read = read_folder(folder)
        expected = topic_files(folder)
        seen = [n.file for n in read.notes] + [s.file for s in read.skipped]
        totals["topic files"] += len(expected)
        duplicates = {f for f in seen if seen.count(f) > 1}
        missing, extra = set(expected) - set(seen), set(seen) - set(expected)
        if duplicates or missing or extra:
            problems.append(f"{folder}: accounted twice {sorted(duplicates)}, missing {sorted(missing)}, "
                            f"extra {sorted(extra)}")  # fmt: skip
        totals["accounted once"] += len(set(expected) & set(seen) - duplicates)
        for skip in read.skipped:
            skips[skip.reason] += 1
        known = [n for n in read.notes if n.known_type]
        typed_skips = _typed_skips(folder, read.skipped)
        totals["known type"] += len(known) + typed_skips
        totals["known type → candidate"] += len(known)
        project = folder.parent.name or "project"
        atoms = memory_atoms(read.notes, project, memory_slug(folder), folder)
        for note in read.notes:
            [atom] = memory_atoms([note], project, memory_slug(folder), folder)
            if note.known_type:
                kinds[(str(note.type), atom["kind"])] += 1
            if listing:
                print(f"{note.type or '-':9} {atom['kind']:10} {note.rule_from[:4]} {folder.parent.name[:18]:18} "
                      f"{note.file[:34]:34} | {atom['claim']}")  # fmt: skip
        totals["atoms"] += len(atoms)
        for atom in atoms:
            prose = re.sub(r"`[^`]*`", "code", atom["claim"])  # code spans stay verbatim, as typed claims do
            if RESIDUE.search(prose) or "`" in prose:
                totals["claims with residue"] += 1
                problems.append(f"residue: {atom['memory_file']}: {atom['claim']}")
            leaks = [s for s in strings(atom) if redact(s)[1]]
            if leaks:
                totals["atoms with redactable text"] += 1
                problems.append(f"redactable: {atom['memory_file']}: {leaks[0][:120]!r}")
            totals["redacted claims"] += bool(atom["redacted"])
    wrong = sum(n for (t, k), n in kinds.items() if k not in KINDS_OF_TYPE[t])
    return {
        "folders": len(folders), "topic_files": totals["topic files"], "accounted_once": totals["accounted once"],
        "known_type": totals["known type"], "known_type_candidates": totals["known type → candidate"],
        "candidate_share": round(totals["known type → candidate"] / max(totals["known type"], 1), 4),
        "kinds": {f"{t}→{k}": n for (t, k), n in sorted(kinds.items())}, "kinds_not_following_type": wrong,
        "atoms": totals["atoms"], "claims_with_residue": totals["claims with residue"],
        "atoms_with_redactable_text": totals["atoms with redactable text"], "redacted_claims": totals["redacted claims"],
        "skipped": dict(skips.most_common()), "problems": problems,
    }  # fmt: skip


def _typed_skips(folder: Path, skipped: list[Any]) -> int:
    """Skipped files whose frontmatter names a known type (they count against the share)."""
    count = 0
    for skip in skipped:
        path = folder / skip.file
        if path.is_symlink() or not path.is_file():
            continue
        try:
            head = path.read_bytes()[:2000].decode("utf-8", "replace")
        except OSError:
            continue
        if re.search(rf"^\s*type:\s*[\"']?(?:{'|'.join(KNOWN_TYPES)})\b", head, re.M):
            count += 1
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", nargs="?", help="a tree of auto-memory folders")
    parser.add_argument("--folder", action="append", default=[], help="one auto-memory folder (repeatable)")
    parser.add_argument("--list", action="store_true", help="print every note: type, kind, claim")
    parser.add_argument("--json", action="store_true", help="the figures as one JSON object")
    args = parser.parse_args()
    folders = [Path(f) for f in args.folder]
    root = Path(args.root) if args.root else None
    if root is None and not folders:
        for up in (HERE.parent.parent, HERE.parent.parent.parent):
            candidate = up / "shared" / "fixtures" / "auto-memory-real" / "folders"
            if candidate.is_dir():
                root = candidate
                break
    if root is not None:
        folders += find_folders(root)
    if not folders:
        print("no auto-memory folder found: pass ROOT or --folder DIR", file=sys.stderr)
        return 2
    figures = measure(folders, args.list)
    if args.json:
        print(json.dumps(figures, indent=2, ensure_ascii=False))
        return 0
    print(f"{figures['folders']} folders, {figures['topic_files']} topic files")
    print(f"accounted for exactly once: {figures['accounted_once']} of {figures['topic_files']}")
    print(f"known type → candidate: {figures['known_type_candidates']} of {figures['known_type']} "
          f"({figures['candidate_share']:.1%}; target ≥ 90 %)")  # fmt: skip
    print(f"kinds: {', '.join(f'{k} {n}' for k, n in figures['kinds'].items())}; "
          f"not following the type: {figures['kinds_not_following_type']}")  # fmt: skip
    print(f"atoms: {figures['atoms']}; claims with markdown residue: {figures['claims_with_residue']}; "
          f"atoms with text the redactor would remove: {figures['atoms_with_redactable_text']} "
          f"({figures['redacted_claims']} claims redacted)")  # fmt: skip
    print("skipped: " + (", ".join(f"{reason} {n}" for reason, n in figures["skipped"].items()) or "none"))
    for problem in figures["problems"][:30]:
        print(f"  {problem}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
