"""`git memory scan [--staged] [PATH…]`: the commit guard. Refuses memory content that carries a
secret, personal data, a back-pointer with a path prefix or a home-directory path,
and a memory file that is not a regular file. Installed as the pre-commit and
pre-merge-commit hooks by `git memory init` (they scan the staged memory files only) and
shipped as a pre-commit framework hook in `.pre-commit-hooks.yaml`. `pre_push` is the
pre-push hook: no memory/atoms commit leaves, and every pushed commit's memory files are
scanned.

`--staged` judges a commit on what it adds: the rendered blocks (`CLAUDE.memory.md`, the marker
blocks of `CLAUDE.md`) are scanned whole, since they are re-rendered on every change and a
forgotten line leaves them; `.memory/adopted.log` is an append-only audit trail, so only the
lines the commit adds to it are scanned. Otherwise one line that ever got in (a redaction gap,
a `--no-verify`) would refuse every later commit of the log, the `forget` that removes it
included. Explicit PATHs (the pre-commit framework entry) are scanned whole.

The pre-push path imports only the git boundary up front: the guard (whose rules take a
tenth of a second to import) is loaded when a pushed commit touches a memory file."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from agent_memory.cli.report import Report
from agent_memory.committed.tiers import open_inside, read_inside
from agent_memory.gitio import repo as git
from agent_memory.gitio.attributes import set_attributes
from agent_memory.model.errors import EXIT_REFUSED, CorruptObjectError, RepoStateError, UsageError

if TYPE_CHECKING:
    from agent_memory.redact.guard import GuardFinding

def is_memory_file(path: str) -> bool:
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if name == "adopted.log":
        return path.replace("\\", "/").endswith(".memory/adopted.log")
    return name in ("CLAUDE.memory.md", "CLAUDE.md")


def _is_whole_claude_md(path: str) -> bool:
    """CLAUDE.md, whose marker blocks only are memory content (CLAUDE.memory.md is judged whole)."""
    return path.replace("\\", "/").endswith("CLAUDE.md") and not path.endswith("CLAUDE.memory.md")


def _block_spans(path: str, text: str) -> list[tuple[int, int]] | None:
    """The parts of `text` the guard judges: None for the whole (a file other than CLAUDE.md,
    or a CLAUDE.md whose markers are malformed), else the spans of its marker blocks."""
    if not _is_whole_claude_md(path):
        return None

    from agent_memory.committed.render import MalformedBlockError, find_block

    spans = []
    for tier in ("L2", "L3"):
        try:
            span = find_block(text, tier)
        except MalformedBlockError:
            return None
        if span:
            spans.append(span)
    return sorted(spans)


def judged_pieces(path: str, text: str) -> list[tuple[bool, str]]:
    """`text` in order as (judged, piece): all of it judged but for a CLAUDE.md with marker
    blocks, where only those are (`_block_spans`): found once for memory_part and judged_size."""
    spans = _block_spans(path, text)
    if spans is None:
        return [(True, text)]
    out, at = [], 0
    for start, end in spans:
        if end > at:  # (a block inside the other is kept once)
            out += [(False, text[at:start]), (True, text[max(start, at):end])]
            at = end
    out.append((False, text[at:]))
    return out


def memory_part(path: str, text: str, pieces: list[tuple[bool, str]] | None = None) -> str:
    """CLAUDE.md is a person's file: only our marker blocks in it are memory content. Lines
    outside are blanked (not removed) so reported line numbers stay true."""
    parts = judged_pieces(path, text) if pieces is None else pieces
    return "".join(piece if judged else _blank(piece) for judged, piece in parts)


def _blank(text: str) -> str:
    """`text` with every character but the line breaks a space (a line at a time: a 60 MB
    CLAUDE.md was a list of one flag per character). A bare CR (a person's CLAUDE.md saved with
    classic Mac line ends) is a line break here as in markdown: the marker line after it is a
    line of its own to the guard's rules, not one with the person's text blanked before it."""
    if "\r" in text:
        text = text.replace("\r\n", " \n").replace("\r", "\n")  # the same length: offsets stay true
    return "\n".join(" " * len(line) for line in text.split("\n"))


def judged_size(path: str, text: str, pieces: list[tuple[bool, str]] | None = None) -> int:
    """The bytes of `text` the guard judges (memory_part): the marker blocks of a CLAUDE.md,
    however large the person's text around them, else the whole."""
    parts = judged_pieces(path, text) if pieces is None else pieces
    return sum(len(piece.encode("utf-8", "replace")) for judged, piece in parts if judged)


def too_large(path: str, size: int) -> GuardFinding | None:
    """The finding for a memory file whose judged part is over MAX_MEMORY_FILE_BYTES: never
    let through unjudged (a secret must not reach a committed file), never judged (a cloned
    60 MB CLAUDE.memory.md took the guard ~25 s and ~3 GB, at each adopt's commit)."""
    from agent_memory.model.policy import MAX_MEMORY_FILE_BYTES
    from agent_memory.redact.guard import GuardFinding

    if size <= MAX_MEMORY_FILE_BYTES:
        return None
    return GuardFinding(path, 1, f"too-large ({size} bytes; the guard judges at most {MAX_MEMORY_FILE_BYTES})")


def file_too_large(path: str, size: int) -> GuardFinding | None:
    """too_large for a file by its size, before it is read: CLAUDE.md's judged part is its
    blocks, but past MAX_BLOCK_FILE_BYTES the file is not read at all (the readers give Claude
    nothing of its blocks either: committed/reviewed.py); a cloned 1.5 GB one (zeros: nothing
    in a clone) was read whole, a MemoryError. Every other memory file by its judged size."""
    if not _is_whole_claude_md(path):
        return too_large(path, size)
    from agent_memory.model.policy import MAX_BLOCK_FILE_BYTES
    from agent_memory.redact.guard import GuardFinding

    if size <= MAX_BLOCK_FILE_BYTES:
        return None
    return GuardFinding(path, 1, f"too-large ({size} bytes; a CLAUDE.md over {MAX_BLOCK_FILE_BYTES} is not read)")


def log_too_large(path: str, fh: BinaryIO) -> GuardFinding | None:
    """The finding for a `.memory/adopted.log` (open in `fh`) naming more than MAX_LOG_ATOMS
    atoms: never judged (judging a cloned 87 MB log of 200,000 made-up ids took the guard
    84 s and 4.5 GB, to let it through), never let through (every reader refuses it:
    tiers.refuse_too_many_atoms). Counted as it is read, up to the line naming one too many
    (tiers.file_names_too_many_atoms): the log is never read whole here."""
    from agent_memory.committed.tiers import file_has_a_long_line, file_names_too_many_atoms
    from agent_memory.model.policy import MAX_LOG_BLOB_BYTES, MAX_LOG_LINE_BYTES
    from agent_memory.redact.guard import GuardFinding

    start = fh.tell()
    size = os.fstat(fh.fileno()).st_size
    if size > MAX_LOG_BLOB_BYTES:  # no real log is: every reader refuses it
        return GuardFinding(path, 1, f"too-large ({size} bytes; no log is over {MAX_LOG_BLOB_BYTES >> 20} MB)")
    if file_names_too_many_atoms(fh):
        return _too_many_atoms(path)
    fh.seek(start)
    line = file_has_a_long_line(fh)
    if line is not None:  # never read whole (a line of 1.5 GB: a MemoryError), never let through
        return GuardFinding(path, line, f"too-large (a line of {MAX_LOG_LINE_BYTES >> 20} MB and on; "
                                        "no entry is that long)")  # fmt: skip
    return None


def _adds_too_many_atoms(added: dict[int, str]) -> bool:
    """Whether the lines a commit (or merge) adds to a log name more than MAX_LOG_ATOMS atoms:
    no adoption adds that many (a real log names a few hundred), and judging a cloned log's
    200,000 made-up lines took the guard ~84 s, merged in or committed, before it let them
    through. Refused unjudged, as a work-tree scan refuses such a log (log_too_large)."""
    from agent_memory.committed.tiers import lines_name_too_many_atoms
    from agent_memory.model.policy import MAX_LOG_ATOMS

    return len(added) > MAX_LOG_ATOMS and lines_name_too_many_atoms(line.rstrip("\r") for line in added.values())


def _too_many_atoms(path: str) -> GuardFinding:
    from agent_memory.model.policy import MAX_LOG_ATOMS
    from agent_memory.redact.guard import GuardFinding

    return GuardFinding(path, 1, f"too-large (names more than {MAX_LOG_ATOMS} atoms; "
                                 f"the guard judges a log of at most {MAX_LOG_ATOMS})")  # fmt: skip


def is_memory_folder(path: str) -> bool:
    """A folder whose `adopted.log` is a memory file (`.memory`, `*.memory`): a link in its
    place makes every reader of the log read whatever it points to."""
    return path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].endswith(".memory")


def is_audit_log(path: str) -> bool:
    return path.replace("\\", "/").endswith(".memory/adopted.log")


@dataclass(frozen=True)
class ScanTarget:
    path: str
    text: str  # what the guard reads; lines it must not judge are blanked, never removed
    added_only: bool = False  # only the lines this commit adds are in `text`
    before: str | None = None  # the log's blob before this change (added_only): see `judge`


# `@@ -a[,b] +c[,d] @@`: b lines removed at a, d lines added from line c (a count defaults to 1).
_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def added_lines(diff: str) -> dict[int, str] | None:
    """Line number (in the new file) → text of every line a `git diff -U0` adds. None when the
    output does not add up line for line (counts that disagree with the hunk headers, e.g. a
    lone CR that text decoding split): the caller then scans the whole file, never less."""
    lines = diff.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    pos = next((i for i, ln in enumerate(lines) if ln.startswith("@@ ")), len(lines))
    added: dict[int, str] = {}
    while pos < len(lines):
        header = _HUNK.match(lines[pos])
        if not header:
            return None
        removed_n = int(header[1]) if header[1] is not None else 1
        number = int(header[2])
        added_n = int(header[3]) if header[3] is not None else 1
        pos += 1
        removed = plus = 0
        while pos < len(lines) and not lines[pos].startswith("@@ "):
            body = lines[pos]
            if body.startswith("-") and not plus:
                removed += 1
            elif body.startswith("+"):
                added[number + plus] = body[1:]
                plus += 1
            elif not body.startswith("\\"):  # "\ No newline at end of file"
                return None
            pos += 1
        if (removed, plus) != (removed_n, added_n):
            return None
    return added


def only_added(added: dict[int, str]) -> str:
    """The added lines at their own line numbers, every other line blank (so `path:line` in a
    finding is the line of the staged file)."""
    if not added:
        return ""
    lines = [""] * max(added)
    for number, text in added.items():
        lines[number - 1] = text
    return "\n".join(lines) + "\n"


MEMORY_PATHSPECS = (
    ":(glob)**/CLAUDE.memory.md",
    ":(glob)**/CLAUDE.md",
    ":(glob)**/*.memory/adopted.log",  # as is_memory_file and the pre-commit hook
    ":(glob)**/*.memory",  # the folder's own entry: only ever listed when it is a link (or a file)
)
# What a tree entry may be: a memory file must be a plain file. A symlink makes Claude read
# whatever it points to (`~/.ssh/id_rsa`, a file outside the repository) and hides from the
# guard what Claude will read; a submodule is not a file at all.
_NOT_A_FILE = {"120000": "symlink", "160000": "submodule"}
# --ignore-submodules=none: `ignore = all` in .gitmodules (or diff.ignoreSubmodules) leaves a
# gitlink in a memory file's place out of a diff or a log, and the guard never saw it.
_DIFF_PLAIN = ("--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--ignore-submodules=none")


@dataclass(frozen=True)
class Changed:
    path: str
    mode: str  # the new mode, e.g. 100644
    blob: str  # the new blob id
    old_blob: str = ""  # the old one (zeros: none)


def _blob_sizes(repo: git.Repo, blobs: list[str], env: bool) -> dict[str, int]:
    """blob id -> its size, from the object's header (never read): one `git cat-file
    --batch-check` for every blob a change names (a log's new and old blob, each block file's),
    where a `cat-file -s` each started a git per blob, at every commit that stages a memory
    file. A blob git cannot size (missing, ambiguous) is left out, as a failed `-s` was."""
    wanted = list(dict.fromkeys(b for b in blobs if b and not _is_zero(b)))
    found = git.object_headers(repo.cwd, wanted, keep_hook_env=env)
    return {blob: header[2] for blob, header in zip(wanted, found, strict=False) if header is not None}


def _log_blob_too_large(path: str, size: int | None) -> GuardFinding | None:
    """The too-large finding for a log blob of `size` bytes (_blob_sizes; None: unknown) over
    MAX_LOG_BLOB_BYTES, as the work-tree scan gives one (log_too_large)."""
    from agent_memory.model.policy import MAX_LOG_BLOB_BYTES
    from agent_memory.redact.guard import GuardFinding

    if size is None or size <= MAX_LOG_BLOB_BYTES:
        return None
    return GuardFinding(path, 1, f"too-large ({size} bytes; no log is over {MAX_LOG_BLOB_BYTES >> 20} MB)")


def _long_added_line(path: str, added: dict[int, str] | None) -> GuardFinding | None:
    """The too-large finding at the first added log line of MAX_LOG_LINE_BYTES or more: no
    entry is that long, every reader refuses the log (tiers.read_counted), and the work-tree
    scan names it so (log_too_large); the commit guard judged it instead and let it through."""
    from agent_memory.model.policy import MAX_LOG_LINE_BYTES
    from agent_memory.redact.guard import GuardFinding

    for number, text in sorted((added or {}).items()):
        if len(text) >= MAX_LOG_LINE_BYTES // 4 and len(text.encode("utf-8", "replace")) >= MAX_LOG_LINE_BYTES:
            return GuardFinding(path, number, f"too-large (a line of {MAX_LOG_LINE_BYTES >> 20} MB and on; "
                                              "no entry is that long)")  # fmt: skip
    return None


def _changed(raw: str) -> list[Changed]:
    """`git diff --raw -z` records: `:old new oldsha newsha status NUL path NUL`."""
    out = []
    fields = raw.split("\0")
    i = 0
    while i + 1 < len(fields):
        head, path = fields[i], fields[i + 1]
        i += 2
        parts = head.lstrip(":").split()
        if len(parts) < 5:
            continue
        out.append(Changed(path=path, mode=parts[1], blob=parts[3], old_blob=parts[2]))
    return out


def judge(repo: git.Repo, target: ScanTarget, keep_hook_env: bool = False) -> list[GuardFinding]:
    """The guard's findings in `target`, less one: a log line this change adds that says again
    the claim a line before it held for the same atom (a pin, a decay, a supersede of an item
    adopted earlier) is no `worktree-path`. A version before model/checkout.py adopted such a
    claim with this checkout's path absolute; the id hashes from the claim, so every later
    line of the item repeats it, and the block shows it relative (render.file_claim). Refused,
    the item could never be pinned or decayed again. A claim new to the log is judged."""
    from agent_memory.redact import guard

    found = guard.scan_text(target.path, target.text)
    if target.before is None or not any(f.rule == "worktree-path" for f in found):
        return found
    lines = target.text.split("\n")
    held = _claims(git.run_git(repo.cwd, "cat-file", "blob", target.before, check=False, keep_hook_env=keep_hook_env,
                               errors="replace").stdout.split("\n"))  # fmt: skip

    def said_before(line: int) -> bool:
        claims = _claims(lines[line - 1 : line])
        if not claims or not claims <= held:
            return False
        # Only the claim is excused: a path of this checkout elsewhere in the line is new.
        rest = _without_claim(lines[line - 1])
        return rest is not None and not any(f.rule == "worktree-path" for f in guard.scan_text(target.path, rest))

    return [f for f in found if not (f.rule == "worktree-path" and said_before(f.line))]


def _without_claim(line: str) -> str | None:
    """The log line with its atom's claim blanked, every other string as it was; None when a
    key repeats in it (the claim read is then not the only one the line holds)."""
    import json

    def no_repeats(pairs: list[tuple[str, object]]) -> dict[str, object]:
        if len({k for k, _ in pairs}) != len(pairs):
            raise ValueError("a key repeats")
        return dict(pairs)

    try:
        obj = json.loads(line, object_pairs_hook=no_repeats)  # _claims read it within bounds
    except (ValueError, RecursionError):
        return None
    obj["atom"]["claim"] = ""
    return json.dumps(obj, ensure_ascii=False)


def _claims(lines: list[str]) -> set[tuple[str, str]]:
    """(atom id, claim) of each log line that holds both."""
    from agent_memory.model.fastjson import loads_bounded

    out: set[tuple[str, str]] = set()
    for line in lines:
        try:
            obj = loads_bounded(line) if line.strip() else None
        except (ValueError, RecursionError):
            continue
        atom = obj.get("atom") if isinstance(obj, dict) else None
        if isinstance(atom, dict) and isinstance(atom.get("id"), str) and isinstance(atom.get("claim"), str):
            out.add((atom["id"], atom["claim"]))
    return out


def memory_targets(
    repo: git.Repo, commit: str | None = None, parent: str | None = None, keep_hook_env: bool = False
) -> tuple[list[ScanTarget], list[GuardFinding]]:
    """The memory files a change adds or modifies, as the guard must read them, and the ones
    that are not regular files. `commit=None`: the index against HEAD (a pre-commit or
    pre-merge-commit); else `commit` against `parent` (None: a root commit, every file new).

    The rendered blocks are scanned whole, since they are re-rendered on every change and a
    forgotten line leaves them; `.memory/adopted.log` is append-only, so only the lines the
    change adds are scanned (its old lines were judged when they were added).
    T is in the filter: a memory file replaced by a symlink is a type change."""
    env = keep_hook_env
    filt = "--diff-filter=ACMRT"
    # a path is bytes: one that is not UTF-8 is read as it is (surrogateescape, as the push's
    # listing reads it), never an internal error that refuses every commit of it
    raw_of = partial(git.run_git, repo.cwd, keep_hook_env=env, errors="surrogateescape")
    if commit is None:
        raw = raw_of("diff", "--cached", "--raw", "-z", filt, *_DIFF_PLAIN).stdout
    elif parent is None:
        raw = raw_of("diff-tree", "--root", "-r", "--no-commit-id", "--raw", "-z", filt, *_DIFF_PLAIN, commit).stdout
    else:
        raw = raw_of("diff-tree", "-r", "--raw", "-z", filt, *_DIFF_PLAIN, parent, commit).stdout
    changes = _changed(raw)
    diffed = commit is None or parent is not None
    sizes = _blob_sizes(repo, _sizes_wanted(changes, diffed), env)

    def read_text(blob: str) -> str | None:
        shown = git.run_git(repo.cwd, "cat-file", "blob", blob, check=False, keep_hook_env=env,
                            errors="replace")  # scanned as text all the same, never an internal error
        return shown.stdout if shown.returncode == 0 else None

    def log_added(change: Changed) -> dict[int, str] | None:
        return added_lines(_log_diff(repo, ["--cached"] if commit is None else [parent or "", commit],
                                     change.path, env))  # fmt: skip

    targets: list[ScanTarget] = []
    odd: list[GuardFinding] = []
    for change in changes:
        _change_targets(change, sizes, diffed, read_text, log_added, targets, odd)
    odd += filtered(repo, [t.path for t in targets], cached=True, keep_hook_env=env)
    return targets, odd


def _sizes_wanted(changes: list[Changed], diffed: bool) -> list[str]:
    """Every blob whose size _change_targets may ask for: a memory file's new blob (too large,
    it is not read), and a log's old one when only its added lines are judged (a diff)."""
    wanted: list[str] = []
    for change in changes:
        if is_memory_file(change.path) and change.mode not in _NOT_A_FILE:
            wanted += [change.blob, change.old_blob] if diffed and is_audit_log(change.path) else [change.blob]
    return wanted


def _log_diff(repo: git.Repo, span: list[str], path: str, env: bool) -> str:
    """`git diff SPAN -- PATH` as added_lines reads it. Plain, exact hunks whatever the user's
    diff config: no colour, no external diff or textconv, no merged neighbouring hunks, and a
    binary-looking file still diffed."""
    return git.run_git(repo.cwd, "diff", *span, "-U0", "--inter-hunk-context=0", "--text", *_DIFF_PLAIN,
                       "--", path, keep_hook_env=env,
                       errors="replace").stdout  # fmt: skip (a removed line may not be UTF-8: validate --fix)


def _change_targets(
    change: Changed,
    sizes: dict[str, int],
    diffed: bool,
    read_text: Callable[[str], str | None],
    log_added: Callable[[Changed], dict[int, str] | None],
    targets: list[ScanTarget],
    odd: list[GuardFinding],
) -> None:
    """What the guard reads of one changed memory file to `targets`, or its finding to `odd`
    (a link, a file too large to judge). `sizes`: blob -> size (_blob_sizes of _sizes_wanted);
    `diffed`: the change has a parent, so a log is judged by the lines it adds (`log_added`,
    None: the diff did not add up, the file is judged whole); `read_text`: a blob as text
    (None: git could not read it)."""
    from agent_memory.redact.guard import GuardFinding

    path = change.path
    if is_memory_folder(path) and change.mode in _NOT_A_FILE:
        odd.append(GuardFinding(path, 1, f"not-a-folder ({_NOT_A_FILE[change.mode]})"))
        return
    if not is_memory_file(path):
        return
    if change.mode in _NOT_A_FILE:
        odd.append(GuardFinding(path, 1, f"not-a-regular-file ({_NOT_A_FILE[change.mode]})"))
        return
    if is_audit_log(path):
        # A log no reader takes (over MAX_LOG_BLOB_BYTES) is refused by its size, never
        # diffed: the diff of a cloned log of zeros (300 MB, one line) was read whole, a
        # MemoryError in the merge and push hooks (refused, as an internal error).
        large = _log_blob_too_large(path, sizes.get(change.blob))
        if large is not None:
            odd.append(large)
            return
    if is_audit_log(path) and diffed and not _log_blob_too_large(
            path, sizes.get(change.old_blob)):  # a huge old log: the new one is judged whole
        added = log_added(change)
        if added is not None and _adds_too_many_atoms(added):
            odd.append(_too_many_atoms(path))
            return
        long_line = _long_added_line(path, added)
        if long_line is not None:
            odd.append(long_line)
            return
        if added is not None:
            targets.append(ScanTarget(path, only_added(added), added_only=True, before=change.old_blob))
            return
    if not is_audit_log(path):  # judged whole (CLAUDE.md: read whole): too large, it is not read
        size = sizes.get(change.blob)
        large = file_too_large(path, size) if size is not None else None
        if large is not None:
            odd.append(large)
            return
    text = read_text(change.blob)
    if text is not None:
        _judge(path, text, targets, odd)


def filtered(repo: git.Repo, paths: list[str], cached: bool, keep_hook_env: bool = False) -> list[GuardFinding]:
    """The memory files that git stores through a clean filter (`filter=lfs` in a committed
    .gitattributes, with git-lfs configured for every repository as its install does): the
    blob this guard judges is the filter's output — an LFS pointer — while the text goes to
    the filter's store, is what Claude reads, and is what nobody reviewing the diff sees.
    The attributes are the index's (`cached`: a commit, a push) or the work tree's."""
    attrs = _filters(repo, paths, cached, keep_hook_env)
    return _filter_findings(attrs, attrs)


def _filter_findings(attrs: dict[str, list[str]], paths: Iterable[str]) -> list[GuardFinding]:
    """A `filtered (<filter>)` finding for each clean filter `attrs` (_filters) sets on one of
    `paths`, each path once."""
    from agent_memory.redact.guard import GuardFinding

    return [GuardFinding(path, 1, f"filtered ({attr})") for path in dict.fromkeys(paths) for attr in attrs.get(path, [])]


def _not_a_regular_file(shown: str, mode: int) -> GuardFinding:
    """The finding for a memory file that is a link, a FIFO or a device: never read."""
    from agent_memory.redact.guard import GuardFinding

    kind = "symlink" if stat.S_ISLNK(mode) else "not a file"
    return GuardFinding(shown, 1, f"not-a-regular-file ({kind})")


def work_tree_files(repo: git.Repo) -> tuple[list[ScanTarget], list[GuardFinding]]:
    """The memory files of the work tree, tracked or not (ignored ones left out), each read
    whole; a memory file or `.memory` folder that is a link is a finding and is not followed."""
    from agent_memory.redact.guard import GuardFinding

    if repo.workdir is None:
        raise RepoStateError("a bare repository has no work tree to scan",
                             hint="pass memory files, or --staged to scan what is staged")  # fmt: skip
    listing = git.run_git(repo.workdir, "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                          "--deduplicate", "--", *MEMORY_PATHSPECS).stdout  # fmt: skip
    targets: list[ScanTarget] = []
    odd: list[GuardFinding] = []
    for rel in sorted(set(filter(None, listing.split("\0")))):
        path = repo.workdir / rel
        try:
            mode = path.lstat().st_mode
        except OSError:
            continue  # tracked but deleted from the work tree
        if is_memory_folder(rel) and not is_memory_file(rel):
            if stat.S_ISLNK(mode):
                odd.append(GuardFinding(rel, 1, "not-a-folder (symlink)"))
            continue
        if not stat.S_ISREG(mode):
            odd.append(_not_a_regular_file(rel, mode))
            continue
        try:
            if is_audit_log(rel):
                with open(open_inside(repo.workdir, rel), "rb") as fh:
                    large = log_too_large(rel, fh)
            else:
                large = file_too_large(rel, path.lstat().st_size)
            if large is not None:
                odd.append(large)
                continue
            text = read_inside(repo.workdir, rel)
        except (OSError, UnicodeDecodeError) as exc:
            odd.append(GuardFinding(rel, 1, f"unreadable ({type(exc).__name__})"))
            continue
        _judge(rel, text, targets, odd)
    odd += filtered(repo, [t.path for t in targets], cached=False)
    return targets, odd


def explicit_files(paths: list[str]) -> tuple[list[ScanTarget], list[GuardFinding]]:
    """The files named, each read whole, and those too large to judge (too_large). A file named
    that is a link, a FIFO or a device is a finding, as in the work tree (work_tree_files), and
    is never read: a clone's `CLAUDE.memory.md -> /dev/zero` (a CI job running `git memory scan
    CLAUDE.memory.md` on a pull request) was read until memory ran out (stat says 0 bytes), and
    a link to a FIFO or a terminal waited for ever. A folder on the way may be a link."""

    targets: list[ScanTarget] = []
    odd: list[GuardFinding] = []
    for raw in paths:
        try:
            mode = os.lstat(raw).st_mode
            if stat.S_ISLNK(mode) or not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):  # a folder: EISDIR below
                odd.append(_not_a_regular_file(raw, mode))
                continue
            # no link, no wait on a FIFO put there since; fstat says what was opened
            fd = os.open(raw, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
            with open(fd, "rb", closefd=True) as fh:
                opened = os.fstat(fd).st_mode
                if stat.S_ISDIR(opened):
                    raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), raw)
                if not stat.S_ISREG(opened):
                    odd.append(_not_a_regular_file(raw, opened))
                    continue
                if is_audit_log(raw):
                    large = log_too_large(raw, fh)
                    fh.seek(0)
                else:
                    large = file_too_large(raw, os.fstat(fd).st_size)
                if large is not None:
                    odd.append(large)
                    continue
                text = fh.read().decode("utf-8", "replace")
        except OSError as exc:
            raise UsageError(
                f"cannot read {raw}: {exc.strerror}", hint="pass existing files"
            ) from exc
        _judge(raw, text, targets, odd)
    return targets, odd


def _judge(path: str, text: str, targets: list[ScanTarget], odd: list[GuardFinding]) -> None:
    """What the guard reads of `text` to `targets`, or the finding to `odd` when that part is
    too large to judge."""
    if is_audit_log(path):
        from agent_memory.committed.tiers import names_too_many_atoms

        if names_too_many_atoms(text):
            odd.append(_too_many_atoms(path))
        else:
            targets.append(ScanTarget(path, text))
        return
    pieces = judged_pieces(path, text)
    large = too_large(path, judged_size(path, text, pieces))
    if large is not None:
        odd.append(large)
    else:
        targets.append(ScanTarget(path, memory_part(path, text, pieces)))


def refusal_hints(findings: list[GuardFinding], added_only: set[str],
                  owners: dict[tuple[str, int], str | None] | None = None) -> list[str]:
    """What to do, per kind of file. Never "forget the atom" for a log line the commit adds:
    a forget appends a line itself, and only a line that is new can be the problem. A block
    line is named by the adopted atom it shows (`owners`: (path, line) -> id), and a line no
    atom renders to (written by hand) has no id to forget."""
    odd = sorted({f.path for f in findings if f.rule.startswith(("not-a-regular-file", "not-a-folder"))})
    hints = [_link_hint(path) for path in odd]
    hints += [_filter_hint(f) for f in findings if f.rule.startswith("filtered")]
    hints += [_too_large_hint(f) for f in findings if f.rule.startswith("too-large")]
    # What is left is judged by its lines: which hint fits depends on where the line is
    findings = [f for f in findings if f.path not in odd and not f.rule.startswith(("filtered", "too-large"))]
    hints += _added_line_hints(findings, added_only)
    hints += _block_hints([f for f in findings if f.path not in added_only and not is_audit_log(f.path)],
                          owners or {})  # fmt: skip
    hints += _whole_log_hints(findings, added_only)
    return hints


def _link_hint(path: str) -> str:
    what = "a folder" if is_memory_folder(path) and not is_memory_file(path) else "a regular file"
    return (
        f"{path} must be {what}, not a link: a link makes Claude read whatever it "
        f"points to, unseen by the guard; restore it (`git checkout HEAD -- {path}`) "
        "or stage a plain copy"
    )


def _filter_hint(f: GuardFinding) -> str:
    return (
        f"{f.path} goes through a clean filter ({f.rule[10:-1]}, set in .gitattributes): git would store "
        "the filter's output, not the text the guard judges and Claude reads; remove that attribute for "
        "the memory files, then re-stage"
    )


def _too_large_hint(f: GuardFinding) -> str:
    """A file the guard does not judge (too large): an audit log is restored from history (no
    reader takes it), a rendered file can also be cut down to its re-rendered block."""
    if is_audit_log(f.path):
        what = ("holds a line longer than any entry" if "a line of" in f.rule
                else "is larger than any log" if "no log is over" in f.rule
                else "names more atoms than anyone adopts (a real log names a few hundred)")
        return (
            f"{f.path} {what}: every reader "
            "refuses it, and the guard does not judge it, so it is not let through; see who wrote it "
            f"(`git log --stat -- {f.path}`) and restore a good version (`git checkout <commit> -- {f.path}`)"
        )
    part = ("it is" if not _is_whole_claude_md(f.path) else "the file is" if "is not read" in f.rule
            else "its marker blocks are")
    return (
        f"{f.path}: {part} too large for the guard to judge, so not let through (a rendered block "
        "is a few KB): restore it (`git checkout HEAD -- " + f.path + "`, or find the last good version "
        f"with `git log --stat -- {f.path}`), or cut it down to the marker block, which "
        "`git memory validate --fix` re-renders from .memory/adopted.log"
    )


def _added_line_hints(findings: list[GuardFinding], added_only: set[str]) -> list[str]:
    """Log lines this commit adds (only those were judged): restate or drop them."""
    new_lines: dict[str, list[int]] = {}
    for f in findings:
        if f.path in added_only:
            new_lines.setdefault(f.path, []).append(f.line)
    hints = []
    for path, numbers in new_lines.items():
        unique = sorted(set(numbers))
        where = ("line " if len(unique) == 1 else "lines ") + ", ".join(map(str, unique))
        verb = "is" if len(unique) == 1 else "are"
        hints.append(
            f"{path} {where} {verb} added by this commit (older lines of the append-only log are "
            "not checked again): drop or restate that line, then re-stage; "
            f"`git memory redact --each-line < {path}` shows what would be removed"
        )
    return hints


def _whole_log_hints(findings: list[GuardFinding], added_only: set[str]) -> list[str]:
    """A log judged whole (not through the hook): only its uncommitted lines can still change."""
    whole_logs = sorted(
        {f.path for f in findings if f.path not in added_only and is_audit_log(f.path)}
    )
    return [
        f"the whole of {path} was checked: restate or drop a line that is not committed yet; a line "
        "already committed stays in git history, and the hook `git memory init` installs "
        "(`git memory scan --staged`) checks only the lines each commit adds to the log"
        for path in whole_logs
    ]


def _block_hints(findings: list[GuardFinding], owners: dict[tuple[str, int], str | None]) -> list[str]:
    hints = []
    adopted = sorted({ident for f in findings if (ident := owners.get((f.path, f.line)))})
    if adopted:
        hints.append(
            f"the memory block is rendered from .memory/adopted.log: remove {', '.join(adopted)} with "
            + " and ".join(f"`git memory forget {ident}`" for ident in adopted)
            + ", then re-stage; `git memory redact < FILE` shows what would be removed"
        )
    conflicted = sorted({f.path for f in findings if f.rule == "merge-conflict"})
    for path in conflicted:
        hints.append(
            f"{path} holds the conflict markers of a merge git could not resolve (two clones adopted different "
            "items): `git memory validate --fix` re-renders the block from .memory/adopted.log, which merges as "
            f"a union and keeps both sides' lines; then `git add {path} .memory/adopted.log` and commit"
        )
    by_hand: dict[str, list[int]] = {}
    for f in findings:
        if owners.get((f.path, f.line)) is None and f.rule != "merge-conflict":
            by_hand.setdefault(f.path, []).append(f.line)
    for path, numbers in by_hand.items():
        unique = sorted(set(numbers))
        where = ("line " if len(unique) == 1 else "lines ") + ", ".join(map(str, unique))
        hints.append(
            f"{path} {where}: no adopted atom renders to it (written by hand): delete or restate it, "
            "then re-stage; inside the marker block `git memory validate --fix` re-renders the block "
            "from .memory/adopted.log"
        )
    return hints


def _line_owners(findings: list[GuardFinding], targets: list[ScanTarget],
                 read_log: Callable[[str], str]) -> dict[tuple[str, int], str | None]:  # fmt: skip
    """(path, line) -> the id of the adopted atom each refused block line shows, read against
    the `.memory/adopted.log` beside the file (`read_log(path)` gives its text)."""
    from agent_memory.committed.files import atom_of_line

    texts = {t.path: t.text for t in targets if not t.added_only and not is_audit_log(t.path)}
    logs: dict[str, str] = {}
    owners: dict[tuple[str, int], str | None] = {}
    for f in findings:
        if f.path not in texts:
            continue
        log_path = _sibling_log(f.path)
        if log_path not in logs:
            logs[log_path] = read_log(log_path)
        lines = texts[f.path].split("\n")
        line = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
        owners[(f.path, f.line)] = atom_of_line(logs[log_path], line) if logs[log_path] else None
    return owners


def _sibling_log(path: str) -> str:
    folder = path.replace("\\", "/").rpartition("/")[0]
    return f"{folder}/.memory/adopted.log" if folder else ".memory/adopted.log"


def _log_reader(repo: git.Repo | None, staged: bool) -> Callable[[str], str]:
    """The adopted.log a scanned file is judged against: the staged one for --staged, the
    file on disk otherwise (beside an explicit PATH, or in the work tree).

    Read only to name the atom behind a refused block line (a hint), so never past the size no
    log reader takes (MAX_LOG_BLOB_BYTES; "" then: no line is named) and never through a link:
    a cloned log of zeros (600 MB, under 1 MB in the clone) was read whole by the pre-commit
    hook of a commit staging a block the guard refuses (1.9 GB), and `git memory scan` read a
    committed `.memory/adopted.log -> /dev/zero` until memory ran out."""
    from agent_memory.committed.tiers import LOG_RELPATH, read_at_most
    from agent_memory.model.policy import MAX_LOG_BLOB_BYTES

    def read(rel: str) -> str:
        if staged and repo is not None:
            found = git.object_headers(repo.cwd, [f":{rel}"], keep_hook_env=True)
            header = found[0] if found else None
            if header is None or header[1] != "blob" or header[2] > MAX_LOG_BLOB_BYTES:
                return ""
            blob = git.run_git(repo.cwd, "cat-file", "blob", header[0], check=False, keep_hook_env=True,
                               errors="replace")  # fmt: skip
            return blob.stdout if blob.returncode == 0 else ""
        base = repo.workdir if repo is not None and repo.workdir is not None else Path()
        # the folder the block file is in may be a link (the user's own layout, a PATH named
        # through one); `.memory/adopted.log` below it is followed through none (open_inside)
        folder = rel[: -len(LOG_RELPATH)] if rel.endswith(LOG_RELPATH) else None
        if folder is None:
            return ""
        try:
            with open(open_inside(base / (folder or "."), LOG_RELPATH), "rb", closefd=True) as fh:
                return read_at_most(fh, MAX_LOG_BLOB_BYTES, rel).decode("utf-8", "replace")
        except OSError:  # a link, not a file, or over the bound (EFBIG)
            return ""

    return read


def _outcome(staged: bool, paths: list[str]) -> str:
    """Where the findings are. "Nothing was committed" only inside a git commit hook (git sets
    GIT_INDEX_FILE for pre-commit and pre-merge-commit, the pre-commit framework's PATHs too):
    a scan run by hand committed nothing because it never commits."""
    import os

    if "GIT_INDEX_FILE" in os.environ and (staged or paths):
        return "in memory files; nothing was committed"
    if staged:
        return "in the staged memory files"
    return "in the files scanned" if paths else "in the memory files of the work tree"


def run(args: argparse.Namespace) -> Report:
    from agent_memory.redact import guard

    if getattr(args, "auto_memory", None) is not None:
        return _scan_auto_memory(args)
    odd: list[GuardFinding] = []
    repo: git.Repo | None = None
    if args.staged:
        repo = git.find_repo()
        targets, odd = memory_targets(repo, keep_hook_env=True)
    else:
        if args.paths:
            targets, odd = explicit_files(args.paths)
            with contextlib.suppress(RepoStateError):
                git.find_repo()  # run inside a checkout: its place is judged too (model/checkout.py)
        else:
            repo = git.find_repo()
            targets, odd = work_tree_files(repo)
    findings = list(odd)
    for target in targets:
        findings += judge(repo, target, keep_hook_env=True) if repo is not None else guard.scan_text(target.path, target.text)
    added_only = {t.path for t in targets if t.added_only}
    report = Report(
        {
            "ok": not findings,
            "findings": [
                {
                    "path": f.path,
                    "line": f.line,
                    "rule": f.rule,
                    "scope": "added" if f.path in added_only else "file",
                }
                for f in findings
            ],
        },
        [guard.format_finding(finding) for finding in findings],
        code=EXIT_REFUSED if findings else 0,
    )

    def notes(report: Report) -> None:  # which adopted atom shows each line: for people only
        from agent_memory.model.words import plural

        report.note(f"agent-memory guard: {plural(len(findings), 'finding')} {_outcome(args.staged, args.paths)}.")
        owners = _line_owners(findings, targets, _log_reader(repo, args.staged))
        for hint in refusal_hints(findings, added_only, owners):
            report.hint(hint)

    if findings:
        report.later.append(notes)
    elif not _in_git_hook():
        # A clean scan by hand says what it read (stdout stays the findings alone, empty here);
        # inside a commit hook it stays silent: a commit that passes prints nothing of ours.
        report.note(_all_clear(len(targets), args.staged, args.paths))
    return report


def _in_git_hook() -> bool:
    """git sets GIT_INDEX_FILE for the hooks of `git commit` and `git merge` (pre-commit,
    pre-merge-commit), the pre-commit framework's runs included (as `_outcome` reads it)."""
    import os

    return "GIT_INDEX_FILE" in os.environ


def _all_clear(count: int, staged: bool, paths: list[str]) -> str:
    from agent_memory.model.words import plural

    if staged:
        where = plural(count, "staged memory file") if count else "no staged memory file"
    elif paths:
        where = plural(count, "file")
    else:
        where = f"{plural(count, 'memory file')} of the work tree" if count else "no memory file in the work tree"
    if not count:
        return f"agent-memory guard: nothing to scan ({where})."
    return f"agent-memory guard: no secrets, personal data or machine paths in {where}."


def _scan_auto_memory(args: argparse.Namespace) -> Report:
    """`scan --auto-memory [DIR]`: the guard over Claude Code's own memory folder,
    one `path:line: rule` line per finding, exit 1 on findings; the folder is not changed."""
    from agent_memory.automemory.scan import scan_folder
    from agent_memory.cli.extract import auto_memory_folder
    from agent_memory.redact import guard

    if args.staged or args.paths:
        raise UsageError("--auto-memory scans a folder: not with --staged or PATHs",
                         hint="git memory scan --auto-memory [DIR]")
    folder, _ = auto_memory_folder(args.auto_memory or None, "scan")
    findings = scan_folder(folder)
    report = Report({"ok": not findings, "folder": str(folder),
                     "findings": [{"path": f.path, "line": f.line, "rule": f.rule} for f in findings]},
                    [guard.format_finding(finding) for finding in findings], code=EXIT_REFUSED if findings else 0)  # fmt: skip
    if findings:
        from agent_memory.model.words import plural

        report.note(f"agent-memory guard: {plural(len(findings), 'finding')} in Claude's own memory folder {folder}; "
                    "nothing was changed.")  # fmt: skip
        report.hint("Claude Code loads MEMORY.md into every session and may share the folder: "
                    "edit or delete those lines (a secret there must be rotated); "
                    "`git memory redact < FILE` shows what would be removed")  # fmt: skip
    else:
        report.note("agent-memory guard: no secrets, personal data or machine paths in Claude's own "
                    f"memory folder {folder}.")  # fmt: skip
    return report


# --- the pre-push hook ------------------------------------------------------------------------


@dataclass(frozen=True)
class PushUpdate:
    local_ref: str
    local_sha: str
    remote_ref: str
    remote_sha: str


def _is_zero(oid: str) -> bool:
    return not oid.strip("0")


def _types(repo: git.Repo, revs: list[str]) -> dict[str, str]:
    """rev → the type of the object it peels to (tags followed), one git process for all."""
    if not revs:
        return {}
    proc = git.run_git(repo.cwd, "cat-file", "--batch-check=%(objecttype)", check=False,
                       input_text="".join(f"{r}^{{}}\n" for r in revs))  # fmt: skip
    answers = proc.stdout.splitlines()
    return {
        rev: (answers[i].split()[-1] if i < len(answers) and answers[i] else "missing")
        for i, rev in enumerate(revs)
    }


def _rev_list(repo: git.Repo, tips: list[str], negs: list[str], *extra: str) -> list[str]:
    """Commits reachable from `tips` and from none of `negs` (revisions on stdin: a push of
    hundreds of tags stays under any command-line limit)."""
    if not tips:
        return []
    pathspecs: list[str] = []
    if "--" in extra:
        cut = extra.index("--")
        extra, pathspecs = extra[:cut], list(extra[cut + 1 :])
    revs = "".join(f"{t}\n" for t in tips) + "".join(f"^{n}\n" for n in negs)
    if pathspecs:
        revs += "--\n" + "".join(f"{p}\n" for p in pathspecs)
    proc = git.run_git(repo.cwd, "rev-list", "--stdin", *extra, input_text=revs)
    return proc.stdout.split()


def _excluded(repo: git.Repo, remote: str, updates: list[PushUpdate]) -> list[str]:
    """What the remote already has: the old values of the refs being updated (when this clone
    has them) and this remote's remote-tracking refs. Nothing else is assumed."""
    olds = [u.remote_sha for u in updates if not _is_zero(u.remote_sha)]
    kinds = _types(repo, olds)
    negs = [n for n in olds if kinds.get(n, "missing") != "missing"]
    if remote and git.config_get(repo.cwd, f"remote.{remote}.url"):
        proc = git.run_git(repo.cwd, "for-each-ref", "--format=%(objectname)",
                           f"refs/remotes/{remote}/", check=False)  # fmt: skip
        negs += proc.stdout.split()
    return sorted(set(negs))


def _store_tip(repo: git.Repo) -> str | None:
    """The commit whose history is L1: what memory/atoms names, or — when the branch was moved
    onto a commit of the project's (`git branch -f memory/atoms main`) — the store's last commit
    its reflog names. The project's commits are then neither refused as L1 nor left out of
    the guard's scan; the store's commits stay refused. Without such a reflog entry, the branch
    as it is (refusing too much, never too little)."""
    from agent_memory.store.shape import last_store_commit, not_a_store

    atoms = git.rev_parse(repo, git.ATOMS_REF)
    if atoms is None:
        return None
    try:
        if not_a_store(repo, atoms) is None:
            return atoms
        return last_store_commit(repo) or atoms
    except CorruptObjectError:
        return atoms


def atoms_leaks(repo: git.Repo, remote: str, updates: list[PushUpdate]) -> list[str]:
    """One message per pushed ref that would carry an object of memory/atoms (spec: L1 is never
    pushed). Objects, not names: a commit reachable from memory/atoms is refused whatever ref
    or sha names it, and so is a tree or blob of memory/atoms pushed on its own (a tag on it)."""
    atoms = _store_tip(repo)
    live = [u for u in updates if not _is_zero(u.local_sha)]
    if atoms is None or not live:
        return []
    negs = _excluded(repo, remote, live)
    types = _types(repo, [u.local_sha for u in live])
    atoms_commits = set(_rev_list(repo, [atoms], negs))
    if not atoms_commits:
        return []  # the remote has every one of them already
    atoms_objects: set[str] | None = None
    out = []
    for update in live:
        kind = types.get(update.local_sha)
        carried = 0
        if kind == "commit":
            carried = len(atoms_commits.intersection(_rev_list(repo, [update.local_sha], negs)))
        elif kind in ("tree", "blob"):
            if atoms_objects is None:
                listing = git.run_git(repo.cwd, "rev-list", "--objects", "--no-object-names", atoms)
                atoms_objects = set(listing.stdout.split())
            peeled = git.run_git(repo.cwd, "rev-parse", f"{update.local_sha}^{{}}", check=False)
            carried = int(peeled.stdout.strip() in atoms_objects)
        if carried:
            what = "object" if kind != "commit" else ("commit" if carried == 1 else "commits")
            count = "" if kind != "commit" else f"{carried} "
            out.append(
                f"refusing to push memory/atoms to {remote or 'the remote'}: "
                f"{update.local_ref} → {update.remote_ref} carries {count}{what} of memory/atoms "
                "(L1 candidate facts stay on this machine)"
            )
    return out


def pushed_memory_findings(
    repo: git.Repo, remote: str, updates: list[PushUpdate]
) -> list[tuple[str, GuardFinding]]:
    """(commit, finding) for every memory file the guard refuses in any commit being pushed:
    the check `git commit --no-verify`, a cherry-pick, a rebase or a fast-forward skipped."""
    live = [u for u in updates if not _is_zero(u.local_sha)]
    types = _types(repo, [u.local_sha for u in live])
    tips = [u.local_sha for u in live if types.get(u.local_sha) == "commit"]
    trees = [u.local_sha for u in live if types.get(u.local_sha) == "tree"]
    pushed = _pushed_trees(repo, trees)
    if tips:
        negs = _excluded(repo, remote, live)
        atoms = _store_tip(repo)
        if atoms:
            negs.append(atoms)  # refused whole above; its files are not memory files anyway
        pushed += _pushed_changes(repo, tips, negs)
    if not pushed:
        return []
    from agent_memory.model.policy import MAX_BLOCK_FILE_BYTES, MAX_LOG_BLOB_BYTES

    # Each commit is judged as memory_targets judges it alone, the work done once: the sizes
    # of every blob in one git, the blobs through one more, and a change judged already in
    # this push (the same file, mode and blob; for a log, the same blobs before and after)
    # not judged again — its findings are the same, and are reported for each commit again.
    sizes = _blob_sizes(repo, [b for p in pushed for b in _sizes_wanted(p.changes, bool(p.parents))], False)
    judged: dict[tuple[object, ...], tuple[list[str], list[GuardFinding], list[GuardFinding]]] = {}
    per_commit: list[tuple[str, list[str], list[GuardFinding], list[GuardFinding]]] = []
    with git.BlobReader(repo.cwd, max(MAX_LOG_BLOB_BYTES, MAX_BLOCK_FILE_BYTES)) as reader:
        reads = _PushReads(repo, reader)
        for p in pushed:
            paths: list[str] = []
            odd: list[GuardFinding] = []
            found: list[GuardFinding] = []
            for change in p.changes:
                diffed = bool(p.parents)
                key = (change, diffed) if is_audit_log(change.path) else (change.path, change.mode, change.blob)
                if key not in judged:
                    targets: list[ScanTarget] = []
                    odd_one: list[GuardFinding] = []
                    _change_targets(change, sizes, diffed, reads.text, partial(reads.log_added, p), targets, odd_one)
                    judged[key] = ([t.path for t in targets], odd_one,
                                   [f for t in targets for f in judge(repo, t)])  # fmt: skip
                paths += judged[key][0]
                odd += judged[key][1]
                found += judged[key][2]
            per_commit.append((p.commit, paths, odd, found))
    attrs = _filters(repo, list(dict.fromkeys(path for _, paths, _, _ in per_commit for path in paths)))
    out: list[tuple[str, GuardFinding]] = []
    for commit, paths, odd, found in per_commit:
        odd += _filter_findings(attrs, paths)  # as filtered() says it, per commit
        out += [(commit, f) for f in odd + found]
    return out


@dataclass(frozen=True)
class _Pushed:
    commit: str
    parents: tuple[str, ...]
    changes: list[Changed]


# `git log --format` opens each commit's record with this byte (_pushed_changes): a field
# read where a commit or a raw change may start is one or the other, never a path.
_COMMIT_MARK = "\x01"
_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def _pushed_changes(repo: git.Repo, tips: list[str], negs: list[str]) -> list[_Pushed]:
    """The commits being pushed that touch a memory file, oldest first, each with its parents
    and its memory files' changes (ACMRT) against its first parent, every file new for a root
    commit — as memory_targets lists one commit's. One `git log` for the whole push, where a
    `rev-parse` and a `diff-tree` per commit ran. --full-history: a merge that brings memory
    lines into a branch whose other parent the remote already has is listed too."""
    revs = "".join(f"{t}\n" for t in tips) + "".join(f"^{n}\n" for n in negs)
    revs += "--\n" + "".join(f"{p}\n" for p in MEMORY_PATHSPECS)
    # --encoding=UTF-8: i18n.logOutputEncoding re-encodes the whole --format line (UTF-16: a NUL
    # after each character, and no commit was read at all).
    proc = git.run_git(repo.cwd, "log", "--stdin", "--full-history", "--no-show-signature", "--format=%x01%H %P",
                       "--encoding=UTF-8", "--root", "--diff-merges=first-parent", "-r", "--raw", "-z",
                       "--no-abbrev", *_DIFF_PLAIN, input_text=revs,
                       errors="surrogateescape")  # fmt: skip (a path's bytes as they are: git reads them back)
    out: list[_Pushed] = []
    fields = proc.stdout.split("\0")
    at = 0
    while at < len(fields):
        field = fields[at].lstrip("\n")
        at += 1
        if field.startswith(_COMMIT_MARK):
            ids = field[1:].split()
            if not ids or not all(_OBJECT_ID.fullmatch(i) for i in ids):
                # Never a commit skipped unread: whatever changed git's output refuses the push.
                raise RepoStateError(f"git log listed a commit as {field[1:80]!r}, not as ids",
                                     hint="check this repository's log and i18n settings (git config --list)")  # fmt: skip
            out.append(_Pushed(ids[0], tuple(ids[1:]), []))
        elif field.startswith(":") and at < len(fields) and out:  # `:old new oldsha newsha status`, the path
            path = fields[at]
            at += 1
            parts = field[1:].split()
            if len(parts) != 5 or not _OBJECT_ID.fullmatch(parts[3]) or not parts[4][:1].isalpha():
                raise RepoStateError(f"git log listed a change as {field[:80]!r}",
                                     hint="check this repository's log and diff settings (git config --list)")  # fmt: skip
            if parts[4][:1] in "ACMRT":
                out[-1].changes.append(Changed(path=path, mode=parts[1], blob=parts[3], old_blob=parts[2]))
        elif field:  # neither a commit nor a change: git's output is not what was asked for
            raise RepoStateError(f"git log wrote {field[:80]!r} where a commit or a change was due",
                                 hint="check this repository's log and diff settings (git config --list)")  # fmt: skip
    out.reverse()
    return out


def _pushed_trees(repo: git.Repo, revs: list[str]) -> list[_Pushed]:
    """A ref may name a tree (`git push origin <tree>:refs/tags/t`, or a tag of one): its memory
    files leave as surely as a commit's. Each is listed as a root commit's would be (every file
    new), under the name pushed."""
    out: list[_Pushed] = []
    for rev in dict.fromkeys(revs):
        raw = git.run_git(repo.cwd, "ls-tree", "-r", "-z", "--full-tree", f"{rev}^{{tree}}",
                          errors="surrogateescape").stdout  # fmt: skip (as _pushed_changes reads a path)
        changes: list[Changed] = []
        for entry in raw.split("\0"):
            head, _, path = entry.partition("\t")
            parts = head.split()
            if len(parts) == 3 and (is_memory_file(path) or is_memory_folder(path)):
                changes.append(Changed(path=path, mode=parts[0], blob=parts[2], old_blob="0" * len(parts[2])))
        out.append(_Pushed(rev, (), changes))
    return out


def _filters(repo: git.Repo, paths: list[str], cached: bool = True, keep_hook_env: bool = False) -> dict[str, list[str]]:
    """path -> the clean filters the attributes (the index's when `cached`) set on it, asked
    once for all `paths` (a path that is not UTF-8 read as the listings read it)."""
    if not paths:
        return {}
    proc = git.run_git(repo.cwd, "check-attr", *(["--cached"] if cached else []), "-z", "filter", "--", *paths,
                       check=False, keep_hook_env=keep_hook_env, errors="surrogateescape")  # fmt: skip
    return set_attributes(proc.stdout)


class _PushReads:
    """A push's blobs through one BlobReader. `text`: a blob as `git cat-file blob` read in
    text mode gave it (UTF-8, errors replaced, line ends as Python reads a pipe: CRLF and a
    lone CR each a newline). `log_added`: a log's added lines from its two blobs when the new
    one only appends to the old (_appended), else from `git diff` as memory_targets asks it.
    The last few blobs are kept: a commit's new log is the next one's old log."""

    _KEEP = 4

    def __init__(self, repo: git.Repo, reader: git.BlobReader) -> None:
        self.repo, self.reader = repo, reader
        self.recent: dict[str, bytes | None] = {}

    def raw(self, blob: str) -> bytes | None:
        if blob not in self.recent:
            self.recent[blob] = self.reader.read(blob)
            if len(self.recent) > self._KEEP:
                del self.recent[next(iter(self.recent))]
        return self.recent[blob]

    def text(self, blob: str) -> str | None:
        data = self.raw(blob)
        if data is None:
            return None
        return data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")

    def log_added(self, pushed: _Pushed, change: Changed) -> dict[int, str] | None:
        old = b"" if _is_zero(change.old_blob) else self.raw(change.old_blob)
        new = self.raw(change.blob)
        added = _appended(old, new) if old is not None and new is not None else None
        if added is not None:
            return added
        return added_lines(_log_diff(self.repo, [pushed.parents[0], pushed.commit], change.path, False))


def _appended(old: bytes, new: bytes) -> dict[int, str] | None:
    """added_lines of `git diff -U0` from `old` to `new` when `new` is `old` with whole lines
    after it (what an adopt or a forget writes): the lines after it, numbered on from its end.
    None when git's answer could be another: `new` changes a line of `old`, `old` ends mid-line,
    an added line holds a CR (text mode would split it: added_lines gives up), or the last
    added line repeats `old`'s last (git may slide the hunk up over it)."""
    if not new.startswith(old) or (old and not old.endswith(b"\n")):
        return None
    tail = new[len(old) :]
    if b"\r" in tail:
        return None
    lines = tail.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    if lines and old:
        last_old = old[old.rfind(b"\n", 0, len(old) - 1) + 1 :]
        last_new = lines[-1] + (b"\n" if tail.endswith(b"\n") else b"")
        if last_new == last_old:
            return None
    first = old.count(b"\n") + 1
    return {first + i: line.decode("utf-8", "replace") for i, line in enumerate(lines)}


# The guard's rules for a path of this machine: a home folder, a user's name in one, this checkout.
_MACHINE_PATH_RULES = frozenset({"home-path", "home-user", "worktree-path"})


def pre_push(argv: list[str], updates_text: str) -> int:
    """The pre-push hook: `argv` is git's (remote name, url), `updates_text` its stdin (one
    `<local ref> <local sha> <remote ref> <remote sha>` line per ref). Exit 1 refuses the push."""
    # A push sends objects as they are: `git replace` (refs/replace/*) must not show the hook's
    # gits a clean stand-in for a commit or a blob that leaves with the leak (every git below
    # inherits this environment).
    os.environ["GIT_NO_REPLACE_OBJECTS"] = "1"
    remote = argv[0] if argv else ""
    updates = [
        PushUpdate(*parts)
        for parts in (line.split() for line in updates_text.splitlines())
        if len(parts) == 4
    ]
    repo = git.find_repo()
    leaks = atoms_leaks(repo, remote, updates)
    findings = pushed_memory_findings(repo, remote, updates)
    for message in leaks:
        print(f"agent-memory: {message}", file=sys.stderr)
    if leaks:
        print(
            "hint: push the reviewed branch instead (git memory pr), and leave memory/atoms and "
            "anything built on it out of the refspec",
            file=sys.stderr,
        )
    if findings:
        from agent_memory.redact import guard

        for commit, finding in findings:
            print(f"{commit[:12]} {guard.format_finding(finding)}", file=sys.stderr)
        first = findings[0][0]
        from agent_memory.model.words import plural

        print(
            f"agent-memory guard: {plural(len(findings), 'finding')} in the memory files of commits being "
            "pushed (made with --no-verify, a cherry-pick or a rebase?); nothing was pushed.",
            file=sys.stderr,
        )
        # only paths of this machine (a home, this checkout): nothing to rotate, a path to restate
        if all(f.rule in _MACHINE_PATH_RULES for _, f in findings):
            restate = "then write the path relative to the repository, or drop the line)"
        else:
            restate = "then drop or restate the line); a secret that already left this machine must be rotated"
        print(
            f"hint: rewrite those commits before pushing (e.g. `git rebase -i {first[:12]}^`, {restate}; "
            "`git push --no-verify` skips this check at your own risk",
            file=sys.stderr,
        )
    return EXIT_REFUSED if leaks or findings else 0
