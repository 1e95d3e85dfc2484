"""Per-prompt recall over L1 (spec §5.2): the fast path of the UserPromptSubmit hook.

This module runs on the critical path of every prompt, so it imports only stdlib modules that
an interpreter has loaded anyway (`os`, `sys`, `re`, `time`, `marshal`); no pygit2, json,
pathlib, typing or dataclasses at import time (`python -X importtime -c "import
agent_memory.store.recall"`). Writers (capture) pay for the rest lazily inside `write_index`.

Design:
- Capture rewrites a compact index (`<common dir>/agent-memory/recall-index.<tag>.marshal`)
  atomically after every commit on `memory/atoms`; the hook reads it lock-free (spec §5.4:
  readers see the old file or the new one, never half).
- The format is `marshal` of plain tuples/dicts: it loads several times faster than JSON and
  needs no import. Marshal is Python-version specific, so the interpreter's cache tag is in
  the file name and the header; a mismatch reads as "missing" and the caller falls back.
- Scoring is BM25 over claim tokens (plus the redacted evidence quotes at a third weight),
  times kind, confidence, recency and pinned weights, over the postings of the prompt's tokens
  only (atoms sharing no token are never touched), kept in a bounded top-k (spec §5.2).
- Staleness is decided without git: the index stores the `memory/atoms` tip it was built
  from, and `read_ref` reads the loose ref file or `packed-refs` directly.
"""

from __future__ import annotations

import marshal
import os
import sys
import time

from agent_memory.gitio.refs import ATOMS_REF, read_ref
from agent_memory.model.policy import RECALL_BUDGET_BYTES, RECALL_TOP_K
from agent_memory.model.tags import contested_tag

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `typing` costs ~2 ms to import, the hook cannot afford it
    from collections.abc import Mapping, Sequence
    from pathlib import Path
    from typing import Any

    Atom = Mapping[str, Any]
    StrPath = str | os.PathLike[str]

FORMAT_VERSION = 2
_TAG = (
    sys.implementation.cache_tag
    or f"{sys.implementation.name}-{sys.version_info[0]}{sys.version_info[1]}"
)
INDEX_FILENAME = f"recall-index.{_TAG}.marshal"
INDEX_MAGIC = b"agent-memory recall index\n"
STATE_DIRNAME = "agent-memory"

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
RELATIVE_FLOOR = 0.3
# Evidence quotes are what the user actually said; they widen the vocabulary a claim is found
# by ("freeze time, never sleep" under "Prefer the fake clock"). Real quotes are whole prompts
# or tool output, so they count about a third of a claim word, and only their first 32
# distinct tokens (tuned by eye on tests/fixtures/transcripts: more made noise, not recall).
QUOTE_TF = 0.35
MAX_QUOTE_TOKENS = 32
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
)
_concept_groups: tuple[tuple[str, ...], ...] = ()
_concept_of: dict[str, tuple[int, ...]] = {}


def _concepts() -> tuple[tuple[tuple[str, ...], ...], dict[str, tuple[int, ...]]]:
    """The groups normalised like any token (once per process, ~0.05 ms), and term → groups."""
    global _concept_groups, _concept_of
    if not _concept_groups:
        groups = []
        of: dict[str, list[int]] = {}
        for number, group in enumerate(_CONCEPTS):
            # Whole words only: `node_modules` must not expand to its part `node`.
            terms = tuple(dict.fromkeys(t for t in map(_term, group.split()) if t is not None))
            groups.append(terms)
            for term in terms:
                of.setdefault(term, []).append(number)
        _concept_of = {term: tuple(numbers) for term, numbers in of.items()}
        _concept_groups = tuple(groups)
    return _concept_groups, _concept_of


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
_PAYLOAD_KEYS = frozenset(
    [
        "source_oid",
        "built_at",
        "n",
        "avgdl",
        "records",
        "offsets",
        "kinds",
        "confidences",
        "pinned",
        "last_seen",
        "doclen",
        "contested",
        "postings",
    ]
)


class RecallIndex:
    """The compact, load-optimised view of L1 the hook scores against.

    Atoms are numbered 0..n-1 in id order (so "tie-break by id" is "tie-break by number").
    Per atom: `records[offsets[d]:offsets[d+1]]` is `id TAB claim`; `kinds`, `confidences`
    and `pinned` are one byte each; `last_seen` (epoch seconds) and `doclen` are packed
    floats; `contested` maps every contested id (§4.2.1, both sides, recallable or not) to the
    day of the newest evidence in its conflict, for the §4.2 tag. `postings[token] =
    (idf, packed atom numbers, packed impacts)`: the term frequency (claim 1 per occurrence,
    evidence quote QUOTE_TF) is saturated and length-normalised at build time (`bm25_impact`), so
    the reader needs neither `math` nor per-posting Python objects: the index is a handful of
    `bytes`/`str` objects that marshal loads with a memcpy each, and `memoryview.cast` reads.
    """

    __slots__ = (
        "source_oid", "built_at", "n", "avgdl", "records", "offsets", "kinds", "confidences",
        "pinned", "last_seen", "doclen", "contested", "postings", "_payload",
    )  # fmt: skip

    def __init__(self, payload: dict[str, Any]) -> None:
        """Validate shape and types cheaply (never walks the postings); ValueError if wrong."""
        if not isinstance(payload, dict) or set(payload) != _PAYLOAD_KEYS:
            raise ValueError("not a recall index payload")
        n = payload["n"]
        if not isinstance(n, int) or n < 0:
            raise ValueError("bad atom count")
        try:
            offsets = memoryview(payload["offsets"]).cast("I")
            last_seen = memoryview(payload["last_seen"]).cast("d")
            doclen = memoryview(payload["doclen"]).cast("f")
        except TypeError as exc:
            raise ValueError(f"bad packed array: {exc}") from exc
        records = payload["records"]
        if not isinstance(records, str) or len(offsets) != n + 1 or offsets[n] != len(records):
            raise ValueError("records and offsets disagree")
        for name in ("kinds", "confidences", "pinned"):
            if not isinstance(payload[name], bytes) or len(payload[name]) != n:
                raise ValueError(f"{name} is not {n} bytes")
        if len(last_seen) != n or len(doclen) != n:
            raise ValueError("per-atom arrays disagree")
        # Deleting every valid code must leave nothing (C speed, no loop over the atoms).
        if payload["kinds"].translate(None, bytes(range(len(KIND_CODES)))):
            raise ValueError("unknown kind code")
        if payload["confidences"].translate(None, bytes(range(len(CONFIDENCE_CODES)))):
            raise ValueError("unknown confidence code")
        if not isinstance(payload["contested"], dict) or not isinstance(payload["postings"], dict):
            raise ValueError("bad contested or postings")
        avgdl = payload["avgdl"]
        if not isinstance(avgdl, float) or avgdl <= 0 or not isinstance(payload["source_oid"], str):
            raise ValueError("bad avgdl or source_oid")
        self._payload = payload
        self.source_oid: str = payload["source_oid"]
        self.built_at: float = payload["built_at"]
        self.n: int = n
        self.avgdl: float = avgdl
        self.records: str = records
        self.offsets = offsets
        self.kinds: bytes = payload["kinds"]
        self.confidences: bytes = payload["confidences"]
        self.pinned: bytes = payload["pinned"]
        self.last_seen = last_seen
        self.doclen = doclen
        self.contested: dict[str, str] = payload["contested"]
        self.postings: dict[str, tuple[float, bytes, bytes]] = payload["postings"]

    def __repr__(self) -> str:
        return (
            f"RecallIndex(n={self.n}, tokens={len(self.postings)}, source_oid={self.source_oid!r})"
        )

    def to_payload(self) -> dict[str, Any]:
        return self._payload

    # Per-atom accessors (what a Hit, a test or a debugging session needs).
    def atom_id(self, doc: int) -> str:
        return self.records[self.offsets[doc] : self.offsets[doc + 1]].partition("\t")[0]

    def claim(self, doc: int) -> str:
        return self.records[self.offsets[doc] : self.offsets[doc + 1]].partition("\t")[2]

    def kind(self, doc: int) -> str:
        return KIND_CODES[self.kinds[doc]]

    def confidence(self, doc: int) -> str:
        return CONFIDENCE_CODES[self.confidences[doc]]

    def is_pinned(self, doc: int) -> bool:
        return bool(self.pinned[doc])

    def contested_day(self, doc: int) -> str:
        return self.contested.get(self.atom_id(doc), "")

    def ids(self) -> list[str]:
        return [self.atom_id(d) for d in range(self.n)]

    def postings_of(self, term: str) -> list[tuple[int, float]]:
        """(atom number, BM25 impact) pairs of `term` (empty when absent)."""
        entry = self.postings.get(term)
        if entry is None:
            return []
        return list(
            zip(memoryview(entry[1]).cast("I"), memoryview(entry[2]).cast("f"), strict=True)
        )


def _epoch(stamp: object) -> float:
    """`YYYY-MM-DDTHH:MM:SS(.f)Z` → epoch seconds; unreadable → 0 (oldest), never raises."""
    import calendar  # build side only

    try:
        text = str(stamp)
        return float(calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")))
    except (ValueError, TypeError):
        return 0.0


def _day(epoch: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(epoch))


def _recallable(atom: Atom) -> bool:
    """Decayed and superseded atoms are out of the working set (seed 002); adopted ones are
    already injected at every session start as L2, so recalling them would say it twice."""
    if atom.get("decayed") or atom.get("superseded_by"):
        return False
    review = atom.get("review")
    return not (isinstance(review, dict) and review.get("state") == "adopted")


def _quote_terms(atom: Atom) -> list[str]:
    seen: dict[str, None] = {}
    evidence = atom.get("evidence")
    items = evidence if isinstance(evidence, list) else []
    for item in sorted(
        items, key=lambda e: str(e.get("source", "")) if isinstance(e, dict) else ""
    ):
        quote = item.get("quote") if isinstance(item, dict) else None
        if isinstance(quote, str):
            for term in tokenize(quote):
                seen.setdefault(term)
                if len(seen) >= MAX_QUOTE_TOKENS:
                    return list(seen)
    return list(seen)


def bm25_impact(tf: float, doclen: float, avgdl: float) -> float:
    """BM25's saturated, length-normalised term frequency; score = Σ idf · impact."""
    return (K1 + 1.0) * tf / (tf + K1 * (1.0 - B + B * doclen / avgdl))


def _code(codes: tuple[str, ...], value: object, default: str) -> int:
    return codes.index(value) if value in codes else codes.index(default)


def build_index(atoms: Sequence[Atom], source_oid: str) -> RecallIndex:
    import math  # build side only: the reader gets idf precomputed
    from array import array

    seen_at = {str(a.get("id")): _epoch(a.get("last_seen")) for a in atoms}
    # §4.2.1: the older atom carries `contested` + `contested_by`; the newer one is found by the
    # reverse join. Both render tagged, with the newest last_seen day of the conflict (for the
    # older atom that is the newest contesting atom's day, as contradictions.contested_tag says).
    # The map covers every id in a conflict, recallable or not (an adopted atom's L2 twin, or an
    # id known only from a `contested_by`), because SessionStart tags L2/L3 lines from it too.
    partners: dict[str, set[str]] = {}
    for atom in atoms:
        ident = str(atom.get("id"))
        if atom.get("contested"):
            partners.setdefault(ident, set())
        for other in atom.get("contested_by") or []:
            partners.setdefault(ident, set()).add(str(other))
            partners.setdefault(str(other), set()).add(ident)
    contested: dict[str, str] = {}
    for ident in sorted(partners):
        dates = [seen_at[i] for i in (ident, *partners[ident]) if i in seen_at]
        if dates:
            contested[ident] = _day(max(dates))

    kept = sorted((a for a in atoms if _recallable(a)), key=lambda a: str(a.get("id")))
    records: list[str] = []
    offsets = array("I", [0])
    kinds = bytearray()
    confidences = bytearray()
    pinned = bytearray()
    last_seen = array("d")
    doclen = array("f")
    postings: dict[str, dict[int, float]] = {}
    for doc, atom in enumerate(kept):
        ident = " ".join(str(atom.get("id")).split())
        claim = " ".join(str(atom.get("claim", "")).split())  # one line, no tabs
        records.append(f"{ident}\t{claim}")
        offsets.append(offsets[-1] + len(records[-1]))
        kinds.append(_code(KIND_CODES, atom.get("kind"), "fact"))
        confidences.append(_code(CONFIDENCE_CODES, atom.get("confidence"), "observed"))
        pinned.append(1 if atom.get("pinned") else 0)
        last_seen.append(seen_at.get(ident, 0.0))
        tf: dict[str, float] = {}
        for term in tokenize(claim):
            tf[term] = tf.get(term, 0.0) + 1.0
        length = float(sum(tf.values()))
        for term in _quote_terms(atom):
            if term not in tf:
                tf[term] = QUOTE_TF
                length += QUOTE_TF
        doclen.append(max(length, 1.0))
        for term, count in tf.items():
            postings.setdefault(term, {})[doc] = count

    n = len(kept)
    avgdl = float(sum(doclen) / n) if n else 1.0
    packed: dict[str, tuple[float, bytes, bytes]] = {}
    for term in sorted(postings):
        docs = postings[term]
        df = len(docs)
        idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
        order = sorted(docs)
        impacts = [bm25_impact(docs[d], doclen[d], avgdl) for d in order]
        packed[term] = (idf, array("I", order).tobytes(), array("f", impacts).tobytes())
    return RecallIndex(
        {
            "source_oid": source_oid,
            "built_at": time.time(),
            "n": n,
            "avgdl": avgdl,
            "records": "".join(records),
            "offsets": offsets.tobytes(),
            "kinds": bytes(kinds),
            "confidences": bytes(confidences),
            "pinned": bytes(pinned),
            "last_seen": last_seen.tobytes(),
            "doclen": doclen.tobytes(),
            "contested": contested,
            "postings": packed,
        }
    )


def index_path(state_dir: StrPath) -> str:
    return os.path.join(os.fspath(state_dir), INDEX_FILENAME)


def _header(source_oid: str, payload_len: int) -> bytes:
    # Line 2: format version, interpreter tag, marshal version, byte order, source tip, payload
    # length. Readable with `head -2`; `index_is_stale` needs only these bytes.
    fields = (FORMAT_VERSION, _TAG, marshal.version, sys.byteorder, source_oid or "-", payload_len)
    return INDEX_MAGIC + " ".join(map(str, fields)).encode("ascii") + b"\n"


def _parse_header(data: bytes) -> tuple[str, int, int] | None:
    """(source_oid, payload offset, payload length) when the header is ours, else None."""
    if not data.startswith(INDEX_MAGIC):
        return None
    end = data.find(b"\n", len(INDEX_MAGIC))
    if end < 0:
        return None
    fields = data[len(INDEX_MAGIC) : end].decode("ascii", "replace").split(" ")
    expected = [str(FORMAT_VERSION), _TAG, str(marshal.version), sys.byteorder]
    if len(fields) != 6 or fields[:4] != expected or not fields[5].isdigit():
        return None
    oid = fields[4]
    return ("" if oid == "-" else oid), end + 1, int(fields[5])


def serialize_index(index: RecallIndex) -> bytes:
    payload = marshal.dumps(index.to_payload())
    return _header(index.source_oid, len(payload)) + payload


def write_index(state_dir: StrPath, atoms: Sequence[Atom], source_oid: str) -> Path:
    """Build and atomically replace the index (temp file + os.replace, mode 0600)."""
    from pathlib import Path

    from agent_memory.gitio.state import atomic_write

    target = Path(state_dir) / INDEX_FILENAME
    atomic_write(target, serialize_index(build_index(atoms, source_oid)), mode=0o600)
    return target


def load_index(state_dir: StrPath) -> RecallIndex | None:
    """The index, or None when missing, unreadable, of another version, or corrupt. Never raises."""
    try:
        with open(index_path(state_dir), "rb") as fh:
            data = fh.read()
        header = _parse_header(data)
        if header is None:
            return None
        oid, offset, length = header
        if len(data) - offset != length:
            return None  # truncated or trailing garbage
        index = RecallIndex(marshal.loads(memoryview(data)[offset:]))  # no copy of the payload
        if index.source_oid != oid:
            return None
        return index
    except Exception:  # noqa: BLE001 - a broken cache reads as "missing"; the hook falls back
        return None


def indexed_oid(state_dir: StrPath) -> str | None:
    """The tip the index was built from (reads the header only); None when missing/foreign."""
    try:
        with open(index_path(state_dir), "rb") as fh:
            head = fh.read(512)
    except OSError:
        return None
    header = _parse_header(head)
    return header[0] if header else None


def index_is_stale(state_dir: StrPath, common_dir: StrPath) -> bool:
    """True when the index is missing/foreign or was built from another `memory/atoms` tip."""
    built_from = indexed_oid(state_dir)
    if built_from is None:
        return True
    return built_from != (read_ref(common_dir, ATOMS_REF) or "")


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
    )

    def __init__(self, id: str, claim: str, kind: str, confidence: str, score: float,
                 last_seen: float, pinned: bool, contested_day: str) -> None:  # fmt: skip
        self.id = id
        self.claim = claim
        self.kind = kind
        self.confidence = confidence
        self.score = score
        self.last_seen = last_seen
        self.pinned = pinned
        self.contested_day = contested_day

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


def _rank(item: tuple[float, int]) -> tuple[float, int]:
    return -item[0], item[1]


# The largest product of the static weights: an atom whose raw BM25 times this cannot reach
# the current k-th best score is skipped without computing its weights.
_MAX_BOOST = max(KIND_WEIGHT.values()) * max(CONFIDENCE_WEIGHT.values()) * PINNED_BOOST


def recall(
    index: RecallIndex,
    prompt: str,
    now_epoch: float,
    k: int = DEFAULT_K,
    budget_bytes: int = DEFAULT_BUDGET_BYTES,
    deadline: float | None = None,
) -> list[Hit]:
    """The best ≤ k atoms for `prompt`, best first, that render within `budget_bytes`.

    `deadline` is a `time.monotonic()` value (spec §5.2's 100 ms self-budget): once past it,
    scoring stops and what has been scored so far is ranked (rarest tokens are scored first,
    so a partial result is the most informative one). Never returns an atom scoring 0.
    """
    if k <= 0 or index.n == 0 or (deadline is not None and time.monotonic() >= deadline):
        return []
    postings = index.postings
    plan = []
    for term, weight in query_terms(prompt).items():
        entry = postings.get(term)
        if entry is not None:
            plan.append((len(entry[1]), term, weight, entry))
    plan.sort(key=lambda p: (p[0], p[1]))
    acc: dict[int, float] = {}
    get = acc.get
    try:
        for _, _, weight, (idf, docs, impacts) in plan:
            if deadline is not None and time.monotonic() >= deadline:
                break
            gain = weight * idf
            for doc, impact in zip(
                memoryview(docs).cast("I"), memoryview(impacts).cast("f"), strict=True
            ):
                acc[doc] = get(doc, 0.0) + gain * impact
    except (TypeError, ValueError):
        return []  # a corrupt posting list: recall nothing rather than fail the prompt

    # Bounded top-k by (score desc, atom number = id asc), never sorting everything (§5.2).
    # A few spares, so that a claim too long for the byte budget leaves room for the next.
    keep = k * 4
    top: list[tuple[float, int]] = []
    worst = 0.0
    kinds = index.kinds
    confidences = index.confidences
    last_seen = index.last_seen
    pinned = index.pinned
    n = index.n
    decay = 1.0 - RECENCY_FLOOR
    per_half_life = 1.0 / (_SECONDS_PER_DAY * HALF_LIFE_DAYS)
    for doc, raw in acc.items():
        if doc >= n or (len(top) == keep and raw * _MAX_BOOST < worst):
            continue
        age = now_epoch - last_seen[doc]
        recency = RECENCY_FLOOR + decay * 0.5 ** (age * per_half_life) if age > 0 else 1.0
        score = raw * _KIND_WEIGHTS[kinds[doc]] * _CONFIDENCE_WEIGHTS[confidences[doc]] * recency
        if pinned[doc]:
            score *= PINNED_BOOST
        if score <= 0.0:
            continue
        if len(top) < keep:
            top.append((score, doc))
        elif score > worst or (score == worst and doc < top[-1][1]):
            top[-1] = (score, doc)
        else:
            continue
        top.sort(key=_rank)
        worst = top[-1][0]
    if not top:
        return []
    floor = top[0][0] * RELATIVE_FLOOR
    hits = [
        Hit(
            index.atom_id(doc),
            index.claim(doc),
            index.kind(doc),
            index.confidence(doc),
            score,
            last_seen[doc],
            index.is_pinned(doc),
            index.contested_day(doc),
        )  # fmt: skip
        for score, doc in top
        if score >= floor
    ]
    return _fit(hits, k, budget_bytes)


# --- rendering --------------------------------------------------------------------------------

OPEN_TAG = "<agent-memory recall>\n"
CLOSE_TAG = "</agent-memory>"


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
        line += " " + contested_tag(hit.contested_day)
    return line + "\n"


def _fit(hits: Sequence[Hit], k: int, budget_bytes: int) -> list[Hit]:
    """Best-first, whole lines only: a line that does not fit is dropped, never cut."""
    used = len(OPEN_TAG.encode("utf-8")) + len(CLOSE_TAG.encode("utf-8"))
    chosen: list[Hit] = []
    for hit in hits:
        if len(chosen) >= k:
            break
        size = len(render_line(hit).encode("utf-8"))
        if used + size <= budget_bytes:
            chosen.append(hit)
            used += size
    return chosen


def render_recall(hits: Sequence[Hit], budget_bytes: int = DEFAULT_BUDGET_BYTES) -> str:
    """`<agent-memory recall>` + one `- [kind] claim` line per hit + `</agent-memory>`,
    ≤ budget_bytes of UTF-8; empty string when nothing fits or there are no hits."""
    chosen = _fit(hits, len(hits), budget_bytes)
    if not chosen:
        return ""
    return OPEN_TAG + "".join(render_line(h) for h in chosen) + CLOSE_TAG


_JSON_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}


def _json_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in _JSON_ESCAPES:
            out.append(_JSON_ESCAPES[ch])
        elif ch < " " or ch in "\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def dump_hook_payload(text: str) -> str:
    """`json.dumps(hook_payload(text), ensure_ascii=False)` without importing json (~1.2 ms)."""
    return (
        '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": '
        + _json_string(text)
        + "}}"
    )


# --- the whole fast path ----------------------------------------------------------------------


