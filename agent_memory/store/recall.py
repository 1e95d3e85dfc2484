"""Per-prompt recall over L1 (spec §5.2): the fast path of the UserPromptSubmit hook.

This module runs on the critical path of every prompt, so it imports only stdlib modules that
an interpreter has loaded anyway (`os`, `time`, `marshal`); no pygit2, json, pathlib, typing or
dataclasses at import time (`python -X importtime -c "import agent_memory.store.recall"`).
Nor `__future__` (one more module): annotations that name typing-only types are quoted. What
writers need (which atoms are recallable, building the base and the frames) is in
`recall_build`, which the hook never loads.

Design:
- Writers keep a compact index (`<common dir>/agent-memory/recall-index.<tag>.marshal`) at the
  `memory/atoms` tip (store/recall_writer.py); the hook reads it lock-free (spec §5.4: a base
  is replaced by rename, a frame appended in one write, and a torn frame ends the chain).
- The base is a `marshal` head (what every prompt needs, one entry per atom, and the token
  directory) and a blob the reader leaves on disk: a prompt reads its own tokens' postings and
  its hits' claims (`os.pread`), so its cost follows the prompt, not the store. Marshal is
  Python-version specific, so the interpreter's cache tag is in the file name and the header;
  a mismatch reads as "missing" and the caller falls back.
- Scoring is BM25 over claim tokens (plus the redacted evidence quotes at a third weight),
  times kind, confidence, recency and pinned weights, over the postings of the prompt's tokens
  only (atoms sharing no token are never touched); only atoms that pass the relevance rule
  are scored and ranked (spec §5.2).
- Staleness is decided without git: the index stores the `memory/atoms` tip it was built
  from, and `read_ref` reads the loose ref file or `packed-refs` directly.
"""
import marshal
import os
import time

from agent_memory.model.policy import RECALL_BUDGET_BYTES, RECALL_TOP_K
from agent_memory.store.recall_files import (  # noqa: F401 - re-exported: recall's file format
    _TAG,
    CONTESTED_FILENAME,
    FORMAT_VERSION,
    INDEX_FILENAME,
    INDEX_MAGIC,
    STATE_DIRNAME,
    _frames,
    _header,
    _parse_header,
    apply_contested,
    contested_at_index,
    index_is_stale,
    index_path,
    index_tail,
    indexed_oid,
    read_contested,
    serialize_frame,
    write_contested,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `typing` costs ~2 ms to import, the hook cannot afford it
    from collections.abc import Iterable, Iterator, Mapping, Sequence
    from typing import Any

    Atom = Mapping[str, Any]
    StrPath = str | os.PathLike[str]

# BM25 (Robertson/Sparck Jones, Lucene's non-negative idf); the usual constants.
K1 = 1.2
B = 0.75
# Weights (spec §5.2 "kind weight"): a constraint is a rule the agent must not break, a decision
# explains why the code is shaped as it is, a preference steers style, a failure warns of a trap
# already hit, a fact is context. Ordered by the cost of the agent not knowing it.
KIND_WEIGHT = {"constraint": 1.3, "decision": 1.2, "preference": 1.1, "failure": 1.05, "fact": 1.0}
# Confidence (spec §3.1 total order observed < stated < verified).
CONFIDENCE_WEIGHT = {"verified": 1.2, "stated": 1.1, "observed": 1.0}
PINNED_BOOST = 1.25
# Recency: half-life 30 days on last_seen, floored at 0.5 so an old but exact match still beats
# a fresh vague one (L1 expires at 90 days anyway, spec §4.3).
HALF_LIFE_DAYS = 30.0
RECENCY_FLOOR = 0.5
# Hits scoring below this fraction of the best hit are noise (a single common token); dropping
# them keeps 1 KB of every prompt for what is actually relevant.
RELATIVE_FLOOR = 0.5
# Related-tool expansions of the prompt's tokens count at this weight (see _CONCEPTS).
EXPANSION_WEIGHT = 0.4
MAX_PROMPT_CHARS = 8000  # a pasted log is not a query; its head says what it is about
DEFAULT_K = RECALL_TOP_K
DEFAULT_BUDGET_BYTES = RECALL_BUDGET_BYTES
_SECONDS_PER_DAY = 86400.0

# --- tokenizer --------------------------------------------------------------------------------

# A compound is alphanumeric runs joined by single `_`, `-` or `.` (snake_case, kebab-case,
# file.names, v1.2); `/`, spaces and other punctuation separate compounds. Scanned by hand
# rather than with `re`: importing `re` alone costs about half a `python -c pass`, and this
# module is on the path of every prompt (tests pin equality with the regex forms
# `[^\W_]+(?:[._-][^\W_]+)*`, `[._-]` and `(?<=[a-z0-9])(?=[A-Z])`).
_JOINERS = "._-"
_LOWER_OR_DIGIT = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def compounds(text: str) -> list[str]:
    out: list[str] = []
    n, i = len(text), 0
    while i < n:
        if not text[i].isalnum():
            i += 1
            continue
        start = i
        while True:
            while i < n and text[i].isalnum():
                i += 1
            if i + 1 < n and text[i] in _JOINERS and text[i + 1].isalnum():
                i += 1
                continue
            break
        out.append(text[start:i])
    return out


def split_joiners(compound: str) -> list[str]:
    for joiner in "._":
        compound = compound.replace(joiner, "-")
    return compound.split("-")


def split_camel(piece: str) -> list[str]:
    parts, start = [], 0
    for k in range(1, len(piece)):
        if piece[k] in _UPPER and piece[k - 1] in _LOWER_OR_DIGIT:
            parts.append(piece[start:k])
            start = k
    parts.append(piece[start:])
    return parts

STOP_WORDS = frozenset(
    """
    a about above after again against all also am an and any are aren arent as at be because
    been before being below between both but by can cannot cant could couldn couldnt did didn
    didnt do does doesn doesnt doing don dont down during each few for from further had hadn
    hadnt has hasn hasnt have haven havent having he her here hers herself him himself his how
    i if in into is isn isnt it its itself just let lets me more most my myself no nor not now
    of off on once only or other our ours ourselves out over own same she should shouldn
    shouldnt so some such than that thats the their theirs them themselves then there these
    they this those through to too under until up very was wasn wasnt we were weren werent
    what when where which while who whom why will with won wont would wouldn wouldnt you your
    yours yourself yourselves im ive id youre youve ill weve thats theres
    please thanks thank ok okay hi hello hey yes yeah sure well really actually maybe perhaps
    also still yet already again always never ever use uses used using want wants wanted need
    needs needed like get gets got getting go going thing things something anything everything
    nothing way one ones lot lots bit much many can could might must shall may e.g i.e etc
    via per new know think see look let try tries tried
    """.split()  # noqa: SIM905 - a word list reads better as prose
)

# Deliberately light stemming: strip plural s / ies / sses, then -ing / -ed / -ly, undouble a
# final consonant (running → run), and drop a final e (cache/caching/cached → cach). Stems need
# not be words, only agree between prompt and claim. Tokens of ≤ 3 characters or containing a
# digit or joiner are kept as they are (pnpm, npm, py311, node_modules).
_STEM_EXCEPTIONS = frozenset(
    """
    string spring during anything everything nothing something apply reply supply family
    assembly anomaly only early news series species always
    """.split()  # noqa: SIM905
)


def stem(token: str) -> str:
    if len(token) <= 3 or not token.isalpha() or token in _STEM_EXCEPTIONS:
        return token
    if token.endswith("ies") and len(token) > 4:
        token = token[:-3] + "y"
    elif token.endswith("sses"):
        token = token[:-2]
    elif token.endswith("s") and not token.endswith(("ss", "us", "is")):
        token = token[:-1]
    for suffix in ("ing", "ed"):
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            token = token[: -len(suffix)]
            if len(token) >= 4 and token[-1] == token[-2] and token[-1] not in "lsz":
                token = token[:-1]
            break
    else:
        if token.endswith("ly") and len(token) - 2 >= 4:
            token = token[:-2]
    if token.endswith("e") and len(token) >= 4:
        token = token[:-1]
    return token


def _term(piece: str) -> str | None:
    folded = piece.casefold()
    if len(folded) < 2 or folded in STOP_WORDS:
        return None
    stemmed = stem(folded)
    return None if stemmed in STOP_WORDS else stemmed  # "what's" → whats → what


def tokenize(text: str) -> list[str]:
    """Casefolded, stop-word-free, lightly stemmed tokens, in order, with repeats.

    A compound (`node_modules`, `pre-commit`, `package.json`, `useEffect`) yields itself whole
    and then its parts, so a prompt naming the whole or a part both match.
    """
    out: list[str] = []
    for compound in compounds(text.replace("'", "").replace("\u2019", "")):
        pieces = split_joiners(compound)
        if not compound.islower() and not compound.isupper():
            pieces = [part for piece in pieces for part in split_camel(piece)]
        if len(pieces) > 1:
            whole = _term(compound)
            if whole is not None:
                out.append(whole)
        for piece in pieces:
            term = _term(piece)
            if term is not None:
                out.append(term)
    return out


# Related tools and concepts of everyday development: a prompt about "installing dependencies"
# should find "Use pnpm, not npm" although they share no word. Small, hand-written and
# deterministic (spec §5.2: lexical, no embeddings); expansions weigh EXPANSION_WEIGHT.
_CONCEPTS = (
    "install installation dependency deps package lockfile npm pnpm yarn bun pip pipx uv poetry "
    "cargo gem composer node_modules requirements",
    "test pytest unittest jest vitest mocha coverage fixture",
    "lint linter format formatter ruff eslint prettier black flake8 isort stylelint",
    "typecheck mypy pyright tsc",
    "build bundle compile vite webpack esbuild rollup turbopack makefile",
    "git commit push branch merge rebase squash pr cherry-pick",
    "ci pipeline workflow jenkins circleci",
    "database db migration postgres postgresql mysql sqlite sql orm alembic prisma",
    "deploy deployment release production prod staging docker kubernetes k8s helm",
    "env environment venv virtualenv dotenv",
    "docs documentation readme changelog",
    "http https api rest endpoint httpx requests axios fetch curl graphql",
)
# _CONCEPTS as `tokenize` normalises each word (whole words only: `node_modules` must not
# expand to its part `node`), written out because normalising them at every prompt cost
# ~0.4 ms; tests/test_recall.py derives it from _CONCEPTS and prints the new text on a change.
_CONCEPT_TERMS = (
    "install installation dependency dep packag lockfil npm pnpm yarn bun pip pipx uv "
    "poetry cargo gem composer node_modules requirement",
    "test pytest unittest jest vitest mocha coverag fixtur",
    "lint linter format formatter ruff eslint prettier black flake8 isort stylelint",
    "typecheck mypy pyright tsc",
    "build bundl compil vit webpack esbuild rollup turbopack makefil",
    "git commit push branch merg rebas squash pr cherry-pick",
    "ci pipelin workflow jenkin circleci",
    "databas db migration postgr postgresql mysql sqlit sql orm alembic prisma",
    "deploy deployment releas production prod stag docker kubernet k8s helm",
    "env environment venv virtualenv dotenv",
    "doc documentation readm changelog",
    "http api rest endpoint httpx request axio fetch curl graphql",
)
_CONCEPT_GROUPS = tuple(tuple(group.split()) for group in _CONCEPT_TERMS)
_concept_of: dict[str, tuple[int, ...]] = {}


def _concepts() -> "tuple[tuple[tuple[str, ...], ...], dict[str, tuple[int, ...]]]":
    """The normalised groups, and term → groups (built once per process)."""
    global _concept_of
    if not _concept_of:
        of: dict[str, list[int]] = {}
        for number, group in enumerate(_CONCEPT_GROUPS):
            for term in group:
                of.setdefault(term, []).append(number)
        _concept_of = {term: tuple(numbers) for term, numbers in of.items()}
    return _CONCEPT_GROUPS, _concept_of


def query_terms(prompt: str) -> dict[str, float]:
    """The prompt's distinct tokens (weight 1) and their concept expansions (weight < 1)."""
    terms = dict.fromkeys(tokenize(prompt[:MAX_PROMPT_CHARS]), 1.0)
    groups, concept_of = _concepts()
    for number in sorted({g for term in terms for g in concept_of.get(term, ())}):
        for other in groups[number]:
            terms.setdefault(other, EXPANSION_WEIGHT)
    return terms


# --- the index --------------------------------------------------------------------------------

# Kinds and confidences travel as one byte per atom (an index into these tuples).
KIND_CODES = ("constraint", "decision", "preference", "failure", "fact")
CONFIDENCE_CODES = ("observed", "stated", "verified")
_KIND_WEIGHTS = tuple(KIND_WEIGHT[k] for k in KIND_CODES)
_CONFIDENCE_WEIGHTS = tuple(CONFIDENCE_WEIGHT[c] for c in CONFIDENCE_CODES)
_HEAD_KEYS = frozenset(
    ["source_oid", "built_at", "n", "avgdl", "ids", "offsets", "kinds", "confidences", "pinned",
     "last_seen", "sessions", "doclen", "contested", "postings", "idf_max", "blob_len"]
)  # fmt: skip
_FRAME_KEYS = frozenset(
    ["ids", "claims", "kinds", "confidences", "pinned", "last_seen", "sessions", "doclen",
     "postings", "gone", "contested", "cum"]
)  # fmt: skip


class BytesBlob:
    """The index's blob in memory (a fresh build, or a platform without `os.pread`)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes | memoryview) -> None:
        self.data = data

    def __len__(self) -> int:
        return len(self.data)

    def read(self, at: int, size: int) -> bytes:
        if at < 0 or size < 0 or at + size > len(self.data):
            raise ValueError("a slice past the index's blob")
        return bytes(self.data[at : at + size])


class FileBlob:
    """The index's blob left on disk: a prompt reads the postings of its own terms and the
    claims of its hits (`os.pread`, a few KB), never the whole store. The file is only ever
    appended to or replaced by rename, so the open descriptor sees the bytes it was opened
    with for as long as it lives."""

    __slots__ = ("fd", "start", "size")

    def __init__(self, fd: int, start: int, size: int) -> None:
        self.fd, self.start, self.size = fd, start, size

    def __len__(self) -> int:
        return self.size

    def read(self, at: int, size: int) -> bytes:
        if at < 0 or size < 0 or at + size > self.size:
            raise ValueError("a slice past the index's blob")
        data = os.pread(self.fd, size, self.start + at)
        if len(data) != size:
            raise ValueError("the index file ends inside its blob")
        return data

    def __del__(self) -> None:
        try:
            os.close(self.fd)
        except OSError:
            pass


class RecallIndex:
    """The compact, load-optimised view of L1 the hook scores against: a base (a small head
    and a blob) and the delta frames appended after it.

    Base: atoms are numbered 0..n-1 in id order (so "tie-break by id" is "tie-break by
    number"). The head holds what every prompt needs, one entry per atom: `ids` (one string,
    newline-separated), `kinds`, `confidences` and `pinned` (a byte each), `last_seen` (epoch
    seconds), `sessions` (distinct sessions) and `doclen` (packed arrays), `offsets` (where
    each claim sits in the blob, UTF-8), `contested` (every contested id, §4.2.1, both sides,
    recallable or not, to the day of the newest evidence in its conflict, for the §4.2 tag),
    and `postings[token] = (idf, blob offset, claim atoms, quote atoms)`. The blob holds the
    claims, then per token its atom numbers (the atoms whose claim holds it, then those whose
    quotes only do, each ascending; packed uint32) and their impacts (packed float32): the
    term frequency (claim 1 per occurrence, evidence quote QUOTE_TF) saturated and
    length-normalised at build time (`bm25_impact`). A prompt reads only its tokens' postings
    and its hits' claims from the blob, so its cost follows the prompt, not the store.

    Frames (issue 17): a write appends one frame for the atoms it changed — their records and
    postings (raw term frequencies, impacts computed against the base's avgdl at query time)
    and the ids that left recall. An atom in a frame hides its base record and any earlier
    frame's. Numbers n.. are the frames' atoms, in order. `source_oid` is the tip of the last
    frame that chains on the one before it.
    """

    __slots__ = (
        "source_oid", "built_at", "n", "avgdl", "blob", "offsets", "kinds", "confidences",
        "pinned", "last_seen", "sessions", "doclen", "contested", "postings", "idf_max", "_head",
        "_ids", "_id_list", "base_oid", "changed", "x_ids", "x_claims", "x_kinds",
        "x_confidences", "x_pinned", "x_last_seen", "x_sessions", "x_doclen", "x_alive", "frames",
        "frame_docs",
    )  # fmt: skip

    def __init__(self, head: "dict[str, Any]", blob: BytesBlob | FileBlob) -> None:
        """Validate shape and types cheaply (never walks the postings); ValueError if wrong."""
        if not isinstance(head, dict) or set(head) != _HEAD_KEYS:
            raise ValueError("not a recall index head")
        n = head["n"]
        if not isinstance(n, int) or n < 0:
            raise ValueError("bad atom count")
        try:
            offsets = memoryview(head["offsets"]).cast("I")
            last_seen = memoryview(head["last_seen"]).cast("d")
            sessions = memoryview(head["sessions"]).cast("I")
            doclen = memoryview(head["doclen"]).cast("f")
        except TypeError as exc:
            raise ValueError(f"bad packed array: {exc}") from exc
        ids = head["ids"]
        if not isinstance(ids, str) or (ids.count("\n") + 1 if n else len(ids)) != n:
            raise ValueError("ids and the atom count disagree")
        if head["blob_len"] != len(blob) or len(offsets) != n + 1 or offsets[n] > len(blob):
            raise ValueError("blob and offsets disagree")
        for name in ("kinds", "confidences", "pinned"):
            if not isinstance(head[name], bytes) or len(head[name]) != n:
                raise ValueError(f"{name} is not {n} bytes")
        if len(last_seen) != n or len(doclen) != n or len(sessions) != n:
            raise ValueError("per-atom arrays disagree")
        # Deleting every valid code must leave nothing (C speed, no loop over the atoms).
        if head["kinds"].translate(None, bytes(range(len(KIND_CODES)))):
            raise ValueError("unknown kind code")
        if head["confidences"].translate(None, bytes(range(len(CONFIDENCE_CODES)))):
            raise ValueError("unknown confidence code")
        if not isinstance(head["contested"], dict) or not isinstance(head["postings"], dict):
            raise ValueError("bad contested or postings")
        avgdl = head["avgdl"]
        if not isinstance(avgdl, float) or avgdl <= 0 or not isinstance(head["source_oid"], str):
            raise ValueError("bad avgdl or source_oid")
        self._head = head
        self.blob = blob
        self.source_oid: str = head["source_oid"]
        self.base_oid: str = head["source_oid"]
        self.built_at: float = head["built_at"]
        self.n: int = n
        self.avgdl: float = avgdl
        self._ids: str = ids
        self._id_list: list[str] | None = None
        self.offsets = offsets
        self.kinds: bytes = head["kinds"]
        self.confidences: bytes = head["confidences"]
        self.pinned: bytes = head["pinned"]
        self.last_seen = last_seen
        self.sessions = sessions
        self.doclen = doclen
        self.contested: dict[str, str] = head["contested"]
        self.postings: dict[str, tuple[float, int, int, int]] = head["postings"]
        self.idf_max: float = float(head["idf_max"])
        self.changed: set[str] = set()  # base ids a frame replaced or removed
        self.x_ids: list[str] = []
        self.x_claims: list[str] = []
        self.x_kinds: list[int] = []
        self.x_confidences: list[int] = []
        self.x_pinned: list[int] = []
        self.x_last_seen: list[float] = []
        self.x_sessions: list[int] = []
        self.x_doclen: list[float] = []
        self.x_alive: list[bool] = []
        self.frames: list[tuple[int, dict[str, tuple[tuple[int, ...], tuple[float, ...]]]]] = []
        self.frame_docs = 0

    def apply_frame(self, frame: "dict[str, Any]", to_oid: str) -> None:
        """Layer one delta frame on top (ValueError when malformed; nothing applied then)."""
        if not isinstance(frame, dict) or set(frame) != _FRAME_KEYS:
            raise ValueError("not a recall index frame")
        ids, claims = frame["ids"], frame["claims"]
        count = len(ids)
        columns = ("claims", "kinds", "confidences", "pinned", "last_seen", "sessions", "doclen")
        if any(len(frame[name]) != count for name in columns):
            raise ValueError("frame columns disagree")
        if frame["kinds"].translate(None, bytes(range(len(KIND_CODES)))) or frame[
            "confidences"
        ].translate(None, bytes(range(len(CONFIDENCE_CODES)))):
            raise ValueError("unknown code in frame")
        if not isinstance(frame["postings"], dict) or not isinstance(frame["contested"], dict):
            raise ValueError("bad frame postings or contested")
        touched = set(ids) | set(frame["gone"])
        if self.x_ids and touched:
            for number, ident in enumerate(self.x_ids):
                if ident in touched:
                    self.x_alive[number] = False
        self.changed |= touched
        offset = len(self.x_ids)
        self.x_ids.extend(ids)
        self.x_claims.extend(claims)
        self.x_kinds.extend(frame["kinds"])
        self.x_confidences.extend(frame["confidences"])
        self.x_pinned.extend(frame["pinned"])
        self.x_last_seen.extend(frame["last_seen"])
        self.x_sessions.extend(frame["sessions"])
        self.x_doclen.extend(frame["doclen"])
        self.x_alive.extend([True] * count)
        self.frames.append((offset, frame["postings"]))
        apply_contested(self.contested, frame["contested"])
        self.frame_docs = frame["cum"] if isinstance(frame["cum"], int) else self.frame_docs + count
        self.source_oid = to_oid

    def __repr__(self) -> str:
        return (
            f"RecallIndex(n={self.n}, tokens={len(self.postings)}, frames={len(self.frames)}, "
            f"source_oid={self.source_oid!r})"
        )

    def to_payload(self) -> "dict[str, Any]":
        """The head; the offsets in it point into `blob`."""
        return self._head

    def base_ids(self) -> list[str]:
        """The base's ids by atom number (split once, when first asked)."""
        if self._id_list is None:
            self._id_list = self._ids.split("\n") if self.n else []
        return self._id_list

    # Per-atom accessors (what a Hit, a test or a debugging session needs). Numbers ≥ n are
    # the frames' atoms.
    def atom_id(self, doc: int) -> str:
        if doc >= self.n:
            return self.x_ids[doc - self.n]
        return self.base_ids()[doc]

    def claim(self, doc: int) -> str:
        if doc >= self.n:
            return self.x_claims[doc - self.n]
        start = self.offsets[doc]
        return self.blob.read(start, self.offsets[doc + 1] - start).decode("utf-8", "replace")

    def kind(self, doc: int) -> str:
        return KIND_CODES[self.x_kinds[doc - self.n] if doc >= self.n else self.kinds[doc]]

    def confidence(self, doc: int) -> str:
        code = self.x_confidences[doc - self.n] if doc >= self.n else self.confidences[doc]
        return CONFIDENCE_CODES[code]

    def is_pinned(self, doc: int) -> bool:
        return bool(self.x_pinned[doc - self.n] if doc >= self.n else self.pinned[doc])

    def seen_at(self, doc: int) -> float:
        return self.x_last_seen[doc - self.n] if doc >= self.n else self.last_seen[doc]

    def session_count(self, doc: int) -> int:
        return self.x_sessions[doc - self.n] if doc >= self.n else self.sessions[doc]

    def contested_day(self, doc: int) -> str:
        return self.contested.get(self.atom_id(doc), "")

    def live(self, doc: int) -> bool:
        if doc >= self.n:
            return self.x_alive[doc - self.n]
        return not self.changed or self.atom_id(doc) not in self.changed

    def ids(self) -> list[str]:
        """Every recallable id, base and frames, in number order."""
        return [self.atom_id(d) for d in range(self.n + len(self.x_ids)) if self.live(d)]

    def posting(
        self, entry: tuple[float, int, int, int]
    ) -> "tuple[memoryview[int], memoryview[float], int]":
        """(atom numbers, impacts, how many of them are claim matches) of a postings entry:
        the claim matches come first. ValueError/TypeError when the entry is malformed."""
        _, start, in_claims, in_quotes = entry
        count = in_claims + in_quotes
        raw = memoryview(self.blob.read(start, 8 * count))
        return raw[: 4 * count].cast("I"), raw[4 * count :].cast("f"), in_claims

    def postings_of(self, term: str) -> list[tuple[int, float]]:
        """(atom number, BM25 impact) pairs of `term` in the base, by atom number (empty when
        absent); the impact is negative when only the atom's quotes hold the token."""
        entry = self.postings.get(term)
        if entry is None:
            return []
        docs, impacts, in_claims = self.posting(entry)
        signed = [(d, i if at < in_claims else -i) for at, (d, i) in enumerate(zip(docs, impacts, strict=True))]
        return sorted(signed)


# What one read at the start of the file fetches: the header and, below a few thousand atoms,
# the whole head.
_FIRST_READ = 256 * 1024


def load_index(state_dir: "StrPath") -> RecallIndex | None:
    """The index with its frames applied, or None when missing, unreadable, of another
    version, or corrupt. Never raises. A torn or foreign frame ends the chain: the index then
    answers from the frames before it (and reads as stale).

    Reads the header, the head and the frames; the blob stays on disk (`FileBlob`) where
    `os.pread` exists, so a prompt reads the postings of its terms, not the store."""
    fd = -1
    try:
        fd = os.open(index_path(state_dir), os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        size = os.fstat(fd).st_size
        lazy = hasattr(os, "pread")
        first = os.pread(fd, _FIRST_READ, 0) if lazy else _read_all(fd)
        header = _parse_header(first)
        if header is None:
            return None
        oid, offset, length, _, head_len = header
        if size - offset < length:
            return None  # truncated
        end = offset + head_len
        if len(first) >= size:  # the whole file came with the first read
            whole = memoryview(first)
            head = marshal.loads(whole[offset:end])
            blob: BytesBlob | FileBlob = BytesBlob(whole[end : offset + length])
            rest, start = first, offset + length
        else:
            head = marshal.loads(first[offset:end] if end <= len(first) else os.pread(fd, head_len, offset))
            blob = FileBlob(fd, end, length - head_len)
            fd = -1  # the blob owns it now
            rest, start = os.pread(blob.fd, size - offset - length, offset + length), 0
        index = RecallIndex(head, blob)
        if index.source_oid != oid:
            return None
        view = memoryview(rest)
        for begin, stop, _, to_oid, _ in _frames(rest, start, oid):
            try:
                index.apply_frame(marshal.loads(view[begin:stop]), to_oid)
            except (ValueError, TypeError, EOFError):
                break
        return index
    except Exception:  # noqa: BLE001 - a broken cache reads as "missing"; the hook falls back
        return None
    finally:
        if fd >= 0:
            os.close(fd)


def _read_all(fd: int) -> bytes:
    with os.fdopen(os.dup(fd), "rb") as fh:
        return fh.read()


# --- adopted memory, for recall not to restate it (issue 18) --------------------------------------

ADOPTED_CACHE = f"recall-adopted.{_TAG}.marshal"
ADOPTED_LOG = os.path.join(".memory", "adopted.log")
# A candidate whose tokens mostly fall inside an adopted line's (or the reverse) says the same
# thing in other words: "Use pnpm, not npm" under "Use pnpm, not npm, for installs".
NEAR_DUPLICATE = 0.8


def normalize_claim(claim: str) -> str:
    """model.atom.normalize (spec §4.1) without importing `re`: whitespace runs → one space,
    casefold, trailing `.,;:!?` stripped (str.split and `\\s` agree on what is whitespace)."""
    return " ".join(claim.split()).casefold().rstrip(".,;:!?")


class Adopted:
    """What the committed tiers hold, in the forms recall compares candidates with."""

    __slots__ = ("ids", "claims", "token_sets", "_by_token")

    def __init__(self, ids: "Iterable[str]" = (), claims: "Iterable[str]" = (),
                 token_sets: "Iterable[Iterable[str]]" = ()) -> None:  # fmt: skip
        self.ids = frozenset(ids)
        self.claims = frozenset(claims)
        self.token_sets = tuple(frozenset(t) for t in token_sets)
        self._by_token: dict[str, list[int]] | None = None

    @classmethod
    def of(cls, atoms: "Sequence[Atom]") -> "Adopted":
        ids = [str(a.get("id")) for a in atoms]
        claims = [normalize_claim(str(a.get("claim", ""))) for a in atoms]
        return cls(ids, claims, [frozenset(tokenize(str(a.get("claim", "")))) for a in atoms])

    def restates(self, ident: str, claim: str) -> bool:
        if ident in self.ids or normalize_claim(claim) in self.claims:
            return True
        mine = set(tokenize(claim))
        if not mine or not self.token_sets:
            return False
        if self._by_token is None:  # token → the adopted lines holding it, built once
            self._by_token = {}
            for number, theirs in enumerate(self.token_sets):
                for token in theirs:
                    self._by_token.setdefault(token, []).append(number)
        shared: dict[int, int] = {}
        for token in mine:
            for number in self._by_token.get(token, ()):
                shared[number] = shared.get(number, 0) + 1
        for number, count in shared.items():
            smaller = min(len(mine), len(self.token_sets[number]))
            if count >= min(2, smaller) and count >= NEAR_DUPLICATE * smaller:
                return True
        return False


def _sig(path: str) -> tuple[str, int, int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (path, -1, -1, -1)
    return (path, st.st_size, st.st_mtime_ns, st.st_ino)


def adopted(state_dir: "StrPath", roots: "Sequence[str | None]") -> Adopted:
    """The atoms held in the L2/L3 tiers whose work trees are `roots` (this repository's, the
    global memory repo's), from a small cache keyed on the logs' stat signatures; a changed
    log is re-read (a few lines of JSON) and the cache rewritten. Never raises: unreadable
    logs hold nothing."""
    paths = [os.path.join(root, ADOPTED_LOG) for root in roots if root]
    sig = tuple(_sig(p) for p in paths)
    cache = os.path.join(os.fspath(state_dir), ADOPTED_CACHE)
    try:
        with open(cache, "rb") as fh:
            # loads(read()), not load(fh): marshal.load reads a file object item by item
            # through Python calls (~1 ms for this 5 KB file; this is ~0.02 ms).
            cached = marshal.loads(fh.read())
        if isinstance(cached, tuple) and len(cached) == 4 and cached[0] == sig:
            return Adopted(cached[1], cached[2], cached[3])
    except (OSError, ValueError, EOFError, TypeError):
        pass
    from agent_memory.committed.tiers import LOG_RELPATH, fold_text, open_inside

    atoms: list[Atom] = []
    for root, (_, size, _, _) in zip([r for r in roots if r], sig, strict=True):
        if size < 0:
            continue
        try:  # never through a linked `.memory` folder or log (issue 23)
            with open(open_inside(root, LOG_RELPATH), encoding="utf-8", errors="replace") as fh:
                atoms += fold_text(fh.read()).values()
        except OSError:
            continue
    found = Adopted.of(atoms)
    try:
        tmp = f"{cache}.{os.getpid()}.tmp"
        with open(tmp, "wb") as fh:
            marshal.dump((sig, tuple(found.ids), tuple(found.claims),
                          tuple(tuple(sorted(t)) for t in found.token_sets)), fh)  # fmt: skip
        os.replace(tmp, cache)
    except OSError:
        pass
    return found


# --- scoring ----------------------------------------------------------------------------------


class Hit:
    """One recalled atom, with what rendering and the `recall` verb need."""

    __slots__ = (
        "id",
        "claim",
        "kind",
        "confidence",
        "score",
        "last_seen",
        "pinned",
        "contested_day",
        "sessions",
    )

    def __init__(self, id: str, claim: str, kind: str, confidence: str, score: float,
                 last_seen: float, pinned: bool, contested_day: str, sessions: int = 1) -> None:  # fmt: skip
        self.id = id
        self.claim = claim
        self.kind = kind
        self.confidence = confidence
        self.score = score
        self.last_seen = last_seen
        self.pinned = pinned
        self.contested_day = contested_day
        self.sessions = sessions

    @property
    def contested(self) -> bool:
        return bool(self.contested_day)

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hit) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Hit({self.id}, {self.kind}, {self.score:.3f}, {self.claim!r})"


# Relevance (issue 14 §1: "a prompt with no relevant atom gets no context at all"). BM25 ranks
# whatever shares a token; this decides whether an atom is worth injecting at all:
# - only the atom's CLAIM counts (a quote-only match is vocabulary, not relevance), and only
#   content words: the generic verbs and nouns of requests (WEAK_WORDS: "add", "write",
#   "fix", "file" …) still rank but never make an atom relevant;
# - the claim's matched prompt terms (expansions at EXPANSION_RELEVANCE) must carry MIN_COVERAGE of
#   the idf mass of the prompt's content words, where a word no atom holds counts as the
#   rarest possible (`idf_max`): "how do I deploy to prod" against a store that knows nothing
#   of deploying is mostly unmatched, so a side match through a related tool stays out.
MIN_COVERAGE = 0.4
# A related tool in the claim ("pnpm" for "install") says more about relevance than about rank.
EXPANSION_RELEVANCE = 0.7
QUOTE_RELEVANCE = 0.5
# A word every atom holds still says what the prompt is about: relevance floors its idf.
IDF_FLOOR = 1.0
MIN_RELATED = 2  # without a content word of the prompt, a claim needs this many related tools
COVERAGE_TERMS = 3
UNKNOWN_WEIGHT = 1.0
WEAK_WORDS = """
    add adding added write writing make create run running fix fixing update change changes
    set get call show save store keep new file files code work working start stop help check
    try way thing stuff look want need let please can could would should do does done go
    put move remove delete give take tell explain show find see read open close now just
    still also again first last next whole every all some any one two three part bit
    convert generate
    """  # fmt: skip
# WEAK_WORDS as `tokenize` normalises them (written out, like _CONCEPT_TERMS, and checked
# against WEAK_WORDS by tests/test_recall.py).
_WEAK_TERMS = frozenset(
    """
    add call chang check clos cod convert creat delet every explain fil find first fix generat
    giv help keep last mak mov next open part put read remov run sav set show start stop stor
    stuff tak tell thre two updat whol work writ
    """.split()  # noqa: SIM905
)


def recall(
    index: RecallIndex,
    prompt: str,
    now_epoch: float,
    k: int = DEFAULT_K,
    budget_bytes: int = DEFAULT_BUDGET_BYTES,
    deadline: float | None = None,
    exclude: Adopted | None = None,
) -> list[Hit]:
    """The best ≤ k relevant atoms for `prompt`, best first, that render within
    `budget_bytes`; none that restates adopted memory (`exclude`).

    `deadline` is a `time.monotonic()` value (spec §5.2's 100 ms self-budget): once past it,
    scoring stops and what has been scored so far is ranked (rarest tokens are scored first,
    so a partial result is the most informative one). Never returns an atom scoring 0.
    """
    if k <= 0 or (index.n == 0 and not index.x_ids):
        return []
    if deadline is not None and time.monotonic() >= deadline:
        return []
    postings = index.postings
    frames = index.frames
    plan = []
    content: list[float] = []
    n_live = index.n + len(index.x_ids)
    for term, weight in query_terms(prompt).items():
        entry = postings.get(term)
        extra = [(off, f[term]) for off, f in frames if term in f] if frames else []
        strong = term not in _WEAK_TERMS
        if entry is None and not extra:
            if strong and weight >= 1.0:
                content.append(max(UNKNOWN_WEIGHT * index.idf_max, IDF_FLOOR))  # a word nothing here holds
            continue
        if entry is not None:
            idf = entry[0]
            df = entry[2] + entry[3]
        else:
            import math  # only for a token the base has never seen

            df = sum(len(e[0]) for _, e in extra)
            idf = math.log(1.0 + (n_live - df + 0.5) / (df + 0.5))
        if strong and weight >= 1.0:
            content.append(max(idf, IDF_FLOOR))
        plan.append((df, term, weight, idf, entry, extra, strong))
    plan.sort(key=lambda p: (p[0], p[1]))
    # Two passes (issue 17): relevance first, from the claim matches of the strong terms
    # only; then BM25 for the few relevant atoms, each term's postings met as a dict at C
    # speed. Most postings belong to atoms that share one common word with the prompt, which
    # the relevance rule drops anyway; they are never scored one by one.
    claim_gain: dict[int, float] = {}
    related: dict[int, int] = {}  # claim matches of expansions (strong), per atom
    direct: set[int] = set()  # atoms whose claim holds a content word of the prompt
    cget = claim_gain.get
    rget = related.get
    base_n = index.n
    avgdl = index.avgdl
    x_doclen = index.x_doclen
    norm = K1 * (1.0 - B)
    per_len = K1 * B / avgdl
    scored: list[tuple[float, Any, Any]] = []  # (gain, atom numbers, impacts) per posting list
    try:
        for _, _, weight, idf, entry, extra, strong in plan:
            if deadline is not None and time.monotonic() >= deadline:
                break
            is_direct = weight >= 1.0
            weight_idf = max(idf, IDF_FLOOR)
            relevance = (weight_idf if is_direct else EXPANSION_RELEVANCE * weight_idf) if strong else 0.0
            claim_docs: list[int] = []
            quote_docs: list[int] = []
            if entry is not None:
                docs, impacts, in_claims = index.posting(entry)
                scored.append((weight * idf, docs, impacts))
                if strong:
                    claim_docs = docs[:in_claims].tolist()
                    quote_docs = docs[in_claims:].tolist() if is_direct else []
            for offset, (docs_x, tfs) in extra:
                numbers = [base_n + offset + local for local in docs_x]
                scored.append((weight * idf, numbers, [
                    (K1 + 1.0) * tf / (tf + norm + per_len * x_doclen[doc - base_n])
                    for doc, tf in zip(numbers, tfs, strict=True)
                ]))  # fmt: skip
                for doc, tf in zip(numbers, tfs, strict=True):
                    (claim_docs if tf >= 1.0 else quote_docs).append(doc)
            if strong:
                for doc in claim_docs:
                    claim_gain[doc] = cget(doc, 0.0) + relevance
                if is_direct:
                    direct.update(claim_docs)
                    # The user's own words around the claim count, at a discount.
                    quoted = QUOTE_RELEVANCE * relevance
                    for doc in quote_docs:
                        claim_gain[doc] = cget(doc, 0.0) + quoted
                    direct.update(quote_docs)
                else:
                    for doc in claim_docs:
                        related[doc] = rget(doc, 0) + 1
        # Against the prompt's few most specific content words: a long prompt is not a worse
        # query. One related tool alone ("docker" for "deploy") is not relevance.
        bar = MIN_COVERAGE * sum(sorted(content, reverse=True)[:COVERAGE_TERMS])
        acc = dict.fromkeys(
            [doc for doc, gained in claim_gain.items()
             if gained >= bar and gained > 0.0 and (doc in direct or rget(doc, 0) >= MIN_RELATED)],
            0.0,
        )  # fmt: skip
        if not acc:
            return []
        for gain, docs, impacts in scored:
            impact_of = dict(zip(docs, impacts, strict=True))
            for doc in acc.keys() & impact_of.keys():
                acc[doc] += gain * impact_of[doc]
    except (TypeError, ValueError, IndexError):
        return []  # a corrupt posting list: recall nothing rather than fail the prompt

    # Ranked by (score desc, atom number asc). Only the relevant atoms are here (a few dozen
    # for a real prompt), so they are sorted outright; a few spares beyond k, so that a claim
    # too long for the byte budget, or one restating adopted memory, leaves room for the next.
    keep = k * 4
    ranked: list[tuple[float, int]] = []
    changed = index.changed
    decay = 1.0 - RECENCY_FLOOR
    per_half_life = 1.0 / (_SECONDS_PER_DAY * HALF_LIFE_DAYS)
    for doc, raw in acc.items():
        if doc >= base_n + len(index.x_ids):
            continue  # a corrupt posting list names an atom that is not there
        if doc < base_n:
            if changed and index.atom_id(doc) in changed:
                continue
            kind, conf, seen, pin = index.kinds[doc], index.confidences[doc], index.last_seen[doc], index.pinned[doc]  # fmt: skip
        else:
            j = doc - base_n
            if not index.x_alive[j]:
                continue
            kind, conf, seen, pin = index.x_kinds[j], index.x_confidences[j], index.x_last_seen[j], index.x_pinned[j]  # fmt: skip
        age = now_epoch - seen
        recency = RECENCY_FLOOR + decay * 0.5 ** (age * per_half_life) if age > 0 else 1.0
        score = raw * _KIND_WEIGHTS[kind] * _CONFIDENCE_WEIGHTS[conf] * recency
        if pin:
            score *= PINNED_BOOST
        if score > 0.0:
            ranked.append((-score, doc))
    ranked.sort()
    top = [(-negated, doc) for negated, doc in ranked[:keep]]
    if not top:
        return []
    floor = top[0][0] * RELATIVE_FLOOR

    def hits() -> "Iterator[Hit]":  # best first, made only as far as _fit takes them
        for score, doc in top:
            if score < floor:
                return
            try:
                ident, claim = index.atom_id(doc), index.claim(doc)
            except (ValueError, TypeError, OSError):
                continue  # a claim offset past the blob: that line is not recalled
            if exclude is not None and exclude.restates(ident, claim):
                continue
            yield Hit(ident, claim, index.kind(doc), index.confidence(doc), score, index.seen_at(doc),
                      index.is_pinned(doc), index.contested_day(doc), index.session_count(doc))  # fmt: skip

    return _fit(hits(), k, budget_bytes)


# --- rendering --------------------------------------------------------------------------------

OPEN_TAG = "<agent-memory recall>\n"
CLOSE_TAG = "</agent-memory>"
# What Claude is told about the lines below it (issue 14 §1): candidates, not rules.
PREAMBLE = (
    "Unreviewed candidates from earlier sessions (not adopted; weigh them accordingly):\n"
)


def contested_dates(index: RecallIndex) -> dict[str, str]:
    """id → `YYYY-MM-DD` of the newer evidence, for every contested atom of the store (both
    sides of a §4.2.1 pair, including atoms recall skips), so SessionStart can tag L2/L3 lines
    without pygit2."""
    return dict(index.contested)


def _safe(claim: str) -> str:
    # One line, and a claim cannot close (or open) our block early.
    text = " ".join(claim.split())
    return text.replace("</agent-memory", "<\\/agent-memory").replace(
        "<agent-memory", "<\\agent-memory"
    )


def render_line(hit: Hit) -> str:
    line = f"- [{hit.kind}] {_safe(hit.claim)}"
    if hit.contested_day:
        from agent_memory.model.tags import contested_tag  # rare: one module less per prompt

        line += " " + contested_tag(hit.contested_day)
    noun = "session" if hit.sessions == 1 else "sessions"
    return line + f" (seen in {hit.sessions} {noun}, not adopted)\n"


def _fit(hits: "Iterable[Hit]", k: int, budget_bytes: int) -> list[Hit]:
    """Best-first, whole lines only: a line that does not fit is dropped, never cut."""
    used = len((OPEN_TAG + PREAMBLE).encode("utf-8")) + len(CLOSE_TAG.encode("utf-8"))
    chosen: list[Hit] = []
    for hit in hits:
        if len(chosen) >= k:
            break
        size = len(render_line(hit).encode("utf-8"))
        if used + size <= budget_bytes:
            chosen.append(hit)
            used += size
    return chosen


def render_recall(hits: "Sequence[Hit]", budget_bytes: int = DEFAULT_BUDGET_BYTES) -> str:
    """`<agent-memory recall>`, the preamble, one `- [kind] claim (seen in N sessions, not
    adopted)` line per hit, `</agent-memory>`; ≤ budget_bytes of UTF-8; empty string when
    nothing fits or there are no hits (a prompt with nothing relevant gets no context)."""
    chosen = _fit(hits, len(hits), budget_bytes)
    if not chosen:
        return ""
    return OPEN_TAG + PREAMBLE + "".join(render_line(h) for h in chosen) + CLOSE_TAG


def dump_hook_payload(text: str) -> str:
    """`json.dumps(hook_payload(text), ensure_ascii=False)` without importing json (~1.2 ms)."""
    from agent_memory.model.fastjson import additional_context

    return additional_context("UserPromptSubmit", text)
