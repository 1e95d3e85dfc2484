"""`git memory stale`: atoms that name repository paths git says are gone or changed.

Staleness only a git-native store can see. A claim such as "the L1 store lives in
`agent_memory/store.py`" names a path; git knows whether that path exists at HEAD, whether it
was renamed (rename detection) and when it last changed. Two findings:

- "missing at HEAD": the path existed in HEAD's history but not at HEAD. When git's rename
  detection followed it (file by file, or a whole directory by majority vote of its files) to a
  path that exists at HEAD, `renamed_to` proposes the new name.
- "changed since the evidence": a file that exists at HEAD was last changed after the atom's
  `last_seen`, so the evidence predates the code it talks about.

A mention resolves by path-component suffix: `store.py` names every `…/store.py`. A mention
that matches nothing in history was probably not a path, and is not reported. Git cost is
bounded: one `git ls-tree` for HEAD and at most one `git log` over history, whatever the number
of atoms (both parsed from `-z` output).
"""

from __future__ import annotations

import re
import shlex
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from agent_memory.gitio import repo as git
from agent_memory.model.atom import atom_id
from agent_memory.model.clock import iso_z

MISSING = "missing at HEAD"
CHANGED = "changed since the evidence"

# Extensions that make `name.ext` a file rather than a dotted module name (`agent_memory.store.l1`).
_KNOWN_EXTENSIONS_TEXT = """py pyi pyx pxd md markdown rst txt json jsonl json5 toml yaml yml ini cfg conf lock env
    js mjs cjs ts mts cts tsx jsx css scss sass less html htm xml csv tsv sql sh bash zsh fish
    ps1 bat cmd go rs c h cc cpp cxx hpp hh java kt kts swift rb php pl pm lua r jl scala cs fs
    ex exs erl hrl hs ml mli clj cljs dart vue svelte proto graphql gql tf tfvars hcl nix mk
    cmake gradle tmpl tpl j2 jinja jinja2 png jpg jpeg gif svg ico webp pdf wasm so dll dylib
    patch diff log ipynb zip gz tar tgz whl xz bz2 dockerfile editorconfig gitignore
    gitattributes mod sum plist xcodeproj sln csproj in pem crt"""
KNOWN_EXTENSIONS = frozenset(_KNOWN_EXTENSIONS_TEXT.split())
# Top-level domains that are not also common file extensions: `example.com` is a host name.
_HOST_SUFFIXES_TEXT = "com org net edu gov io co uk de fr eu info biz app dev ai"
_HOST_SUFFIXES = frozenset(_HOST_SUFFIXES_TEXT.split())
# Slash idioms of English prose, not paths.
_SLASH_IDIOMS_TEXT = """and/or either/or w/o n/a i/o yes/no on/off true/false read/write input/output
    client/server pass/fail he/she his/her s/he before/after"""
_SLASH_IDIOMS = frozenset(_SLASH_IDIOMS_TEXT.split())

_BACKTICK_RE = re.compile(r"`([^`\n]+)`")
_TOKEN_RE = re.compile(r"\S+")
_LEAD_JUNK = "\"'([{<*"
_TRAIL_JUNK = "\"')]}>,;:!?.*"
_LINE_SUFFIX_RE = re.compile(r"(?::\d+)+$|#L?\d+(?:-L?\d+)?$")
_URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://|^(?:www\.|mailto:|data:)", re.IGNORECASE)
_VERSION_RE = re.compile(r"^[vV]?\d+(?:\.(?:\d+|[xX*]))+(?:[-+.]?[0-9A-Za-z.]*)?$")
_FORBIDDEN_CHARS = set("@*?[]{}<>|=\\$%&^~\"'`,;()!")
_IDENT = r"[a-z_][a-z0-9_]*"
_MODULE_RE = re.compile(rf"^{_IDENT}(?:\.{_IDENT})+$")
_PY_IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_EXTENSION_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_+-]{0,11}$")
_SEGMENT_RE = re.compile(r"^[A-Za-z0-9_.+-]+$")
_ACRONYM_RE = re.compile(r"^[A-Z0-9]{1,5}$")


@dataclass(frozen=True)
class Mention:
    """A stretch of a claim that may name a repository path: `text` is claim[start:end]."""

    text: str
    start: int
    end: int
    candidates: tuple[str, ...]  # repository paths it may name (path-component suffixes)
    module: bool = False  # written as a dotted module name (`agent_memory.store.l1`)


# ---------------------------------------------------------------- finding mentions


def _trim(token: str, start: int) -> tuple[str, int]:
    """Strip prose punctuation around a token, a `./` prefix and a `:12`/`#L12` line suffix."""
    lead = len(token) - len(token.lstrip(_LEAD_JUNK))
    token, start = token[lead:], start + lead
    while True:
        before = token
        token = token.rstrip(_TRAIL_JUNK)
        token = _LINE_SUFFIX_RE.sub("", token)
        if token.endswith("()"):
            token = token[:-2]
        if token == before:
            break
    while token.startswith("./"):
        token, start = token[2:], start + 2
    return token, start


def _is_abbreviation(text: str) -> bool:
    """`e.g`, `i.e`, `a.k.a`: every dotted part a single letter."""
    parts = text.split(".")
    return len(parts) > 1 and all(len(p) <= 1 for p in parts)


def _has_extension(name: str) -> bool:
    stem, dot, ext = name.rpartition(".")
    if not dot or not _EXTENSION_RE.match(ext):
        return False
    if not stem:
        return len(ext) >= 2  # a dotfile such as `.gitignore`
    if ext.casefold() in KNOWN_EXTENSIONS:
        return True
    # An unknown extension must look like one (`.dev`, `.orig`), not a class (`store.L1Store`).
    return ext.casefold() not in _HOST_SUFFIXES and ext.islower() and len(ext) <= 8


def _slash_candidate(core: str) -> bool:
    if core.casefold() in _SLASH_IDIOMS:
        return False
    parts = core.split("/")
    if any(not p or p in (".", "..") for p in parts) or not all(
        _SEGMENT_RE.match(p) for p in parts
    ):
        return False
    if all(p.isdigit() for p in parts):
        return False  # a date or a fraction
    if all(_ACRONYM_RE.match(p) for p in parts):
        return False  # TCP/IP, CI/CD, L1/L2
    first = parts[0]  # github.com/owner/repo without a scheme is no path
    return not ("." in first and first.rpartition(".")[2].casefold() in _HOST_SUFFIXES)


def _module_candidates(core: str) -> tuple[str, ...]:
    base = core.replace(".", "/")
    return (f"{base}.py", base)


def _candidates(core: str, quoted: bool) -> tuple[tuple[str, ...], bool]:
    """(candidate paths, written as a module) for one trimmed token; () when it is no path."""
    if not core or len(core) > 300 or _URL_RE.match(core) or core.startswith(("-", "/")):
        return (), False
    if any(ch in _FORBIDDEN_CHARS for ch in core) or ".." in core.replace("/", " ").split():
        return (), False
    if _VERSION_RE.match(core) or _is_abbreviation(core):
        return (), False
    is_dir = core.endswith("/")
    core = core.rstrip("/")
    if not core:
        return (), False
    if "/" in core:
        return ((core,), False) if _slash_candidate(core) else ((), False)
    if not _SEGMENT_RE.match(core):
        return (), False
    stem, _, last = core.rpartition(".")
    if stem and last.casefold() in _HOST_SUFFIXES - KNOWN_EXTENSIONS:
        return (), False  # example.com is a host
    if not is_dir and _MODULE_RE.match(core) and last not in KNOWN_EXTENSIONS:
        return _module_candidates(core), True
    if _has_extension(core):
        return (core,), False
    if (quoted or is_dir) and not core.isdigit():
        return (core,), False  # `Makefile`, `scripts`, tests/: a bare name only when marked
    return (), False


def _scan(text: str, offset: int, quoted: bool) -> list[Mention]:
    found = []
    words = list(_TOKEN_RE.finditer(text))
    # Inside backticks a lone word (`Makefile`) is a name; the words of a command are not.
    quoted = quoted and len(words) == 1
    for match in words:
        core, start = _trim(match.group(), offset + match.start())
        candidates, module = _candidates(core, quoted)
        if candidates:
            text_core = core.rstrip("/")
            found.append(Mention(text_core, start, start + len(text_core), candidates, module))
    return found


def mentions(claim: str) -> list[Mention]:
    """Every stretch of `claim` that may name a repository path, in claim order."""
    found: list[Mention] = []
    masked = list(claim)
    for match in _BACKTICK_RE.finditer(claim):
        found += _scan(match.group(1), match.start(1), quoted=True)
        masked[match.start() : match.end()] = " " * (match.end() - match.start())
    found += _scan("".join(masked), 0, quoted=False)
    return sorted(found, key=lambda m: m.start)


def path_mentions(claim: str) -> list[str]:
    """Candidate repository paths named in a claim (deduplicated, in claim order)."""
    out: dict[str, None] = {}
    for mention in mentions(claim):
        out.update(dict.fromkeys(mention.candidates))
    return list(out)


# ---------------------------------------------------------------- what git knows


def _parents(path: str) -> Iterable[str]:
    parts = path.split("/")
    for k in range(1, len(parts)):
        yield "/".join(parts[:k])


class _SuffixIndex:
    """Paths (files and the directories holding them) looked up by path-component suffix."""

    def __init__(self) -> None:
        self.by_name: dict[str, set[str]] = defaultdict(set)
        self.dirs: set[str] = set()
        self.files: set[str] = set()

    def add_file(self, path: str) -> None:
        if path in self.files:
            return
        self.files.add(path)
        self.by_name[path.rpartition("/")[2]].add(path)
        for parent in _parents(path):
            if parent not in self.dirs:
                self.dirs.add(parent)
                self.by_name[parent.rpartition("/")[2]].add(parent)

    def __contains__(self, path: str) -> bool:
        return path in self.files or path in self.dirs

    def matches(self, suffix: str) -> set[str]:
        return {
            p
            for p in self.by_name.get(suffix.rpartition("/")[2], ())
            if p == suffix or p.endswith("/" + suffix)
        }


@dataclass(frozen=True)
class _Event:
    order: int  # position in `git log --topo-order` output: 0 is the newest commit
    date: str  # committer date, UTC `YYYY-MM-DDTHH:MM:SSZ`
    status: str  # A C D M R T …
    old: str
    new: str  # == old unless renamed or copied


@dataclass
class History:
    """What one `git log -M --name-status` pass over HEAD's history says about paths."""

    head: _SuffixIndex
    seen: _SuffixIndex = field(default_factory=_SuffixIndex)
    last_touch: dict[str, str] = field(default_factory=dict)  # file → newest commit date
    gone: dict[str, _Event] = field(default_factory=dict)  # file → newest event removing it

    def last_change(self, path: str) -> str | None:
        if path in self.seen.files:
            return self.last_touch.get(path)
        prefix = path + "/"
        dates = [d for p, d in self.last_touch.items() if p.startswith(prefix)]
        return max(dates) if dates else None

    def follow(self, path: str) -> str | None:
        """Where renames took a file that is gone from HEAD; None when it was deleted."""
        seen = {path}
        cursor, after = path, None
        while cursor not in self.head.files:
            event = self.gone.get(cursor)
            if (
                event is None
                or event.status[:1] != "R"
                or (after is not None and event.order >= after)
            ):
                return None
            cursor, after = event.new, event.order
            if cursor in seen:
                return None
            seen.add(cursor)
        return cursor

    def follow_dir(self, path: str) -> str | None:
        """The directory most of a vanished directory's files were renamed into, at HEAD."""
        prefix = path + "/"
        votes: Counter[str] = Counter()
        for old in self.gone:
            if not old.startswith(prefix):
                continue
            rest = old[len(prefix) :]
            target = self.follow(old)
            if target and target.endswith("/" + rest):
                votes[target[: -len(rest) - 1]] += 1
        best = sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))
        return best[0][0] if best and best[0][0] in self.head.dirs else None


def head_index(repo: git.Repo) -> _SuffixIndex | None:
    """Files and directories at HEAD; None when HEAD has no commit."""
    proc = git.run_git(
        repo.cwd, "ls-tree", "-r", "-z", "--name-only", "--full-tree", "HEAD", check=False
    )
    if proc.returncode != 0:
        return None
    index = _SuffixIndex()
    for path in proc.stdout.split("\0"):
        if path:
            index.add_file(path)
    return index


_STATUS_RE = re.compile(r"^[ACDMRTUXB][0-9]*$")


def read_history(repo: git.Repo, head: _SuffixIndex) -> History:
    """One `git log` pass: renames (git's -M), deletions and each file's last change."""
    fmt = "%x1e%H%x1f%cI"
    proc = git.run_git(
        repo.cwd,
        "log",
        "HEAD",
        "-z",
        "--topo-order",
        "-M",
        "--name-status",
        f"--format={fmt}",
        check=False,
    )
    history = History(head=head)
    if proc.returncode != 0:
        return history
    tokens = proc.stdout.split("\0")
    order, date, k = -1, "", 0
    while k < len(tokens):
        token = tokens[k].lstrip("\n")
        k += 1
        if token.startswith("\x1e"):
            order += 1
            date = iso_z(token.partition("\x1f")[2])
            continue
        if not _STATUS_RE.match(token):
            continue  # trailing empty token; anything unexpected is skipped, not guessed
        old = tokens[k] if k < len(tokens) else ""
        k += 1
        new = old
        if token[0] in "RC":
            new = tokens[k] if k < len(tokens) else ""
            k += 1
        if not old or not new:
            continue
        event = _Event(order=order, date=date, status=token, old=old, new=new)
        touched = (old, new) if token[0] == "R" else (new,)
        for path in touched:
            history.seen.add_file(path)
            if date > history.last_touch.get(path, ""):
                history.last_touch[path] = date
        if token[0] in "RD":
            history.gone.setdefault(old, event)  # topo order: the first one seen is the newest
    return history


# ---------------------------------------------------------------- findings


@dataclass(frozen=True)
class Finding:
    atom_id: str
    tier: str
    claim: str
    mention: str  # as written in the claim
    path: str  # the repository path it resolved to
    reason: str  # MISSING | CHANGED
    renamed_to: str | None
    last_change: str | None  # date of the last commit touching `path`
    last_seen: str  # the atom's newest evidence
    suggestion: str  # the exact command(s) to turn the finding into a reviewable change
    new_claim: str | None = None
    new_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "atom_id": self.atom_id,
            "tier": self.tier,
            "claim": self.claim,
            "mention": self.mention,
            "path": self.path,
            "reason": self.reason,
            "renamed_to": self.renamed_to,
            "last_change": self.last_change,
            "last_seen": self.last_seen,
            "suggestion": self.suggestion,
            "new_claim": self.new_claim,
            "new_id": self.new_id,
        }


@dataclass(frozen=True)
class _Resolved:
    mention: Mention
    path: str
    reason: str
    renamed_to: str | None
    last_change: str | None


def _module_name(path: str) -> str | None:
    base = path.removesuffix("/__init__.py").removesuffix(".py")
    parts = base.split("/")
    return ".".join(parts) if all(_PY_IDENT_RE.match(p) for p in parts) else None


def _rewritten(mention: Mention, old_path: str, new_path: str) -> str:
    if mention.module:
        return _module_name(new_path) or new_path
    if mention.text == old_path:
        return new_path
    depth = mention.text.count("/") + 1  # a suffix mention stays a suffix of the same depth
    return "/".join(new_path.split("/")[-depth:])


def rewrite_claim(claim: str, renames: Iterable[_Resolved]) -> str:
    out, cursor = [], 0
    for item in sorted(renames, key=lambda r: r.mention.start):
        if item.renamed_to is None or item.mention.start < cursor:
            continue
        out += [
            claim[cursor : item.mention.start],
            _rewritten(item.mention, item.path, item.renamed_to),
        ]
        cursor = item.mention.end
    return "".join(out) + claim[cursor:]


def _resolve(mention: Mention, history: History, last_seen: str) -> _Resolved | None:
    at_head = sorted({p for c in mention.candidates for p in history.head.matches(c)})
    if at_head:
        # "Changed" only for one file: a directory changes with every commit under it, and a
        # bare name matching several files does not say which one the claim meant.
        if len(at_head) != 1 or at_head[0] not in history.head.files:
            return None
        changed = history.last_touch.get(at_head[0])
        if changed and changed > last_seen:
            return _Resolved(mention, at_head[0], CHANGED, None, changed)
        return None
    ever = {p for c in mention.candidates for p in history.seen.matches(c)}
    if not ever:
        return None  # never a path in this history: probably not a path at all
    dated = sorted(((history.last_change(p) or "", p) for p in ever), reverse=True)
    gone_at, path = dated[0]
    if gone_at and gone_at < last_seen:
        return None  # gone before the newest evidence: the claim was made knowing it
    renamed = history.follow(path) if path in history.seen.files else history.follow_dir(path)
    return _Resolved(mention, path, MISSING, renamed, gone_at or None)


def _quote(claim: str) -> str:
    # Single quotes: a claim with backticks inside double quotes would run as a command.
    return shlex.quote(claim)


def _suggestion(atom: Mapping[str, Any], new_claim: str | None, new_id: str | None) -> str:
    ident = str(atom["id"])
    if atom.get("tier") != "L2":
        return f"git memory forget {ident}"
    if new_claim is not None and new_id is not None:
        return (
            # the kind quoted too: a cloned repository's hand-written adopted.log line can hold
            # any text there (`fact$(touch${IFS}x)` ran when the line was pasted)
            f"git memory remember --kind {_quote(str(atom.get('kind', 'fact')))} {_quote(new_claim)}"
            f" && git memory adopt --yes {new_id}"
            f" && git memory supersede {ident} --by {new_id}"
        )
    if atom.get("pinned"):
        return f"git memory unpin {ident} && git memory decay {ident}"
    return f"git memory decay {ident}"


def _checked(atom: Mapping[str, Any]) -> bool:
    # Superseded and decayed atoms are already out of the working set.
    return (
        atom.get("tier") in ("L1", "L2")
        and not atom.get("superseded_by")
        and not atom.get("decayed")
    )


def find_stale(repo: git.Repo, atoms: Iterable[Mapping[str, Any]]) -> list[Finding]:
    """Findings for L1/L2 atoms naming paths that are gone from HEAD or changed since their
    evidence, sorted by tier, atom and path."""
    work = [(a, mentions(str(a["claim"]))) for a in atoms if _checked(a)]
    work = [(a, ms) for a, ms in work if ms]
    if not work:
        return []
    head = head_index(repo)
    if head is None:
        return []
    history = read_history(repo, head)
    findings: list[Finding] = []
    for atom, atom_mentions in work:
        last_seen = iso_z(str(atom["last_seen"]))
        resolved: dict[str, _Resolved] = {}
        for mention in atom_mentions:
            item = _resolve(mention, history, last_seen)
            if item is not None:
                resolved.setdefault(item.path, item)
        renames = [r for r in resolved.values() if r.renamed_to]
        new_claim = (
            rewrite_claim(str(atom["claim"]), _with_all_spans(renames, atom_mentions))
            if renames
            else None
        )
        project = atom.get("project") if atom.get("scope") == "project" else None
        new_id = atom_id(new_claim, project) if new_claim is not None else None
        for item in resolved.values():
            claim_for = new_claim if item.renamed_to else None
            findings.append(
                Finding(
                    atom_id=str(atom["id"]),
                    tier=str(atom["tier"]),
                    claim=str(atom["claim"]),
                    mention=item.mention.text,
                    path=item.path,
                    reason=item.reason,
                    renamed_to=item.renamed_to,
                    last_change=item.last_change,
                    last_seen=last_seen,
                    suggestion=_suggestion(atom, claim_for, new_id if claim_for else None),
                    new_claim=claim_for,
                    new_id=new_id if claim_for else None,
                )
            )
    return sorted(findings, key=lambda f: (f.tier, f.atom_id, f.path, f.reason))


def _with_all_spans(renames: list[_Resolved], atom_mentions: list[Mention]) -> list[_Resolved]:
    """Every occurrence of a renamed mention in the claim, so a path named twice is rewritten
    twice."""
    by_text = {r.mention.text: r for r in renames}
    out = []
    for mention in atom_mentions:
        known = by_text.get(mention.text)
        if known is not None:
            out.append(
                _Resolved(mention, known.path, known.reason, known.renamed_to, known.last_change)
            )
    return out
