"""`git memory consolidate`: proposals for folding near-duplicate memories.

Proposals only. Nothing here writes: applying a proposal goes through `memory/review` like any
promotion, because the gist becomes the retrieved truth and a wrong gist erases a detail.

- Similarity is the overlap coefficient |A∩B| / min(|A|,|B|) on claim tokens (casefolded,
  punctuation stripped, a small stop-word list dropped, light suffix stemming). Overlap rather
  than Jaccard so that a short claim restated inside a longer memory still scores high.
- Two guards keep that from over-merging. (1) Polarity: every negation word becomes the token
  `not`, and two texts of which exactly one is negated never pair — "never push to main" is a
  contradiction of "push to main", not a duplicate of it. (2) A Jaccard floor
  (`min_jaccard`, default 0.4): a five-word claim contained in a sixty-word note shares all its
  words, but one broad note would otherwise glue unrelated claims into one cluster. (3) Two
  texts that both name code (`…` spans) pair only when they share a span: "`python` fails
  (exit 127): command not found" and "`deploy.sh` fails (exit 127): …" share every word but the
  program, and folding them would forget that the other program is missing too.
- Clustering is single-linkage (connected components of qualifying pairs); the guards above
  bound the chaining it allows. Candidate pairs come from prefix filtering on rare tokens, so
  the search is not all-pairs yet misses nothing: tokens are ordered by document frequency,
  and two sets sharing at least α tokens must share one among the first |x| - α + 1 of each.
  Sets are visited smallest first; each probes the index with the prefix its Jaccard bound
  allows (α = ⌈min_jaccard·|x|⌉) and is indexed under the shorter prefix it needs as the
  smaller set of any later pair (α = ⌈max(threshold, min_jaccard)·|x|⌉).
- The gist is the member text sharing the most tokens with the other members (ties: the
  shorter text, then the smaller id): a real sentence someone wrote, never a synthesized one.
  `consolidated_from` lists the other members, so the gist's own atom keeps its id (same claim,
  same project) and gains the provenance of what folds into it.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_memory.automemory.notes import MAX_BYTES
from agent_memory.automemory.walk import read_regular
from agent_memory.claude.automemory import is_index_file, memory_files
from agent_memory.model.atom import is_pending

# Written as text so the lists stay readable; split once at import.
_STOP_WORDS_TEXT = """a an the and or but of to in on at for with by from as into onto over via per about
    is are was were be been being am it its this that these those there here then than
    i me my we us our you your he she they them their his her
    do does did has have had will would should can could may might must shall
    so if else when where which who whom what how also just only very too
    any all some each every such own same other more most much many both either etc
    always please"""
_NEGATIONS_TEXT = """not no never none nothing nobody nowhere cannot without
    dont doesnt didnt cant couldnt wont wouldnt shouldnt mustnt isnt arent wasnt werent
    hasnt havent hadnt neednt"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())
NEGATIONS = frozenset(_NEGATIONS_TEXT.split())
NEGATION_TOKEN = "not"
ITEM_TEXT_CHARS = 500

_APOSTROPHES_RE = re.compile(r"[\u2019'`]")
_CODE_SPAN_RE = re.compile(r"`([^`\n]{1,200})`")
_WORD_RE = re.compile(r"[^\W_]+")


def _sibilant_plural(word: str) -> bool:
    return word.endswith("es") and (word[-3] in "sxz" or word[-4:-2] in ("ch", "sh"))


def _stem(word: str) -> str:
    """Light suffix stripping: plurals, -ing, -ed, a final -e; doubled consonants collapse."""
    stem = word
    if stem.endswith("ies") and len(stem) > 4:
        stem = stem[:-3] + "y"
    elif stem.endswith("ing") and len(stem) > 5:
        stem = stem[:-3]
    elif len(stem) > 4 and (stem.endswith("ed") or _sibilant_plural(stem)):
        stem = stem[:-2]
    elif stem.endswith("s") and not stem.endswith(("ss", "us", "is")) and len(stem) > 3:
        stem = stem[:-1]
    if stem != word and len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
        stem = stem[:-1]  # running → runn → run, stopped → stopp → stop
    if len(stem) > 4 and stem.endswith("e"):
        stem = stem[:-1]  # require / requires / required → requir
    return stem


def tokens(text: str) -> frozenset[str]:
    words = _WORD_RE.findall(_APOSTROPHES_RE.sub("", text.casefold()))
    out: set[str] = set()
    for word in words:
        if word in NEGATIONS:
            out.add(NEGATION_TOKEN)
        elif word in STOP_WORDS or (len(word) < 2 and not word.isdigit()):
            continue
        else:
            out.add(_stem(word))
    return frozenset(out)


def code_spans(text: str) -> frozenset[str]:
    """The `…` spans a text names (a command, a file, a flag), blank-normalised."""
    return frozenset(" ".join(span.split()).casefold() for span in _CODE_SPAN_RE.findall(text))


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


@dataclass(frozen=True)
class Proposal:
    members: tuple[str, ...]  # every id in the cluster, sorted
    gist: str  # the text of `gist_member`, verbatim (stripped)
    consolidated_from: tuple[str, ...]  # the members other than `gist_member`, sorted
    score: float  # the lowest overlap between the gist and another member
    gist_member: str

    def to_json(self) -> dict[str, Any]:
        return {
            "members": list(self.members),
            "gist": self.gist,
            "gist_member": self.gist_member,
            "consolidated_from": list(self.consolidated_from),
            "score": round(self.score, 4),
        }


class _Components:
    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, k: int) -> int:
        while self.parent[k] != k:
            self.parent[k] = self.parent[self.parent[k]]
            k = self.parent[k]
        return k

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _prefix_length(size: int, min_shared_fraction: float) -> int:
    """Tokens of a set (rarest first) that must include one shared token, when any qualifying
    pair shares at least `min_shared_fraction` of this set's size."""
    needed = math.ceil(min_shared_fraction * size - 1e-9)
    return max(1, min(size, size - needed + 1))


def propose(
    items: Sequence[tuple[str, str]],
    threshold: float = 0.8,
    min_tokens: int = 3,
    min_jaccard: float = 0.4,
    apart: Collection[frozenset[str]] = (),
) -> list[Proposal]:
    """Clusters of near-duplicates among `items` (id or file name, text); deterministic.
    `apart`: pairs of ids that contradict each other. They are never folded into
    one cluster, not even through a third member: folding would forget one side of a
    contradiction, which only `resolve` may settle."""
    ids = [item_id for item_id, _ in items]
    duplicates = sorted(i for i, n in Counter(ids).items() if n > 1)
    if duplicates:
        raise ValueError(f"duplicate item ids: {', '.join(duplicates)}")
    token_sets = [tokens(text) for _, text in items]
    eligible = [k for k, toks in enumerate(token_sets) if len(toks) >= min_tokens]
    frequency = Counter(tok for k in eligible for tok in token_sets[k])
    negated = [NEGATION_TOKEN in toks for toks in token_sets]
    spans = [code_spans(text) for _, text in items]

    pairs: list[tuple[int, int]] = []
    index: dict[str, list[int]] = defaultdict(list)
    # Smallest first, so every earlier (indexed) set is no larger than the one probing.
    for k in sorted(eligible, key=lambda k: (len(token_sets[k]), ids[k])):
        mine = token_sets[k]
        ordered = sorted(mine, key=lambda tok: (frequency[tok], tok))
        # Probing as the larger set: shared ≥ min_jaccard·|mine|. Indexed as the smaller set
        # of every later pair: shared ≥ max(threshold, min_jaccard)·|mine|, a shorter prefix.
        candidates: set[int] = set()
        for tok in ordered[: _prefix_length(len(mine), min_jaccard)]:
            candidates.update(index[tok])
        for tok in ordered[: _prefix_length(len(mine), max(threshold, min_jaccard))]:
            index[tok].append(k)
        for other in candidates:
            theirs = token_sets[other]
            if negated[other] != negated[k] or len(theirs) < min_jaccard * len(mine) - 1e-9:
                continue
            if spans[k] and spans[other] and not spans[k] & spans[other]:
                continue  # different commands or files: distinct facts, however alike the words
            shared = len(mine & theirs)
            if shared / min(len(mine), len(theirs)) < threshold:
                continue
            if shared / (len(mine) + len(theirs) - shared) < min_jaccard:
                continue
            pairs.append((k, other))

    components = _Components(len(items))
    for k, other in pairs:
        # Single linkage, except where joining would put two sides of a contradiction together.
        if not _joins_apart(components, k, other, ids, apart):
            components.union(k, other)

    clusters: dict[int, list[int]] = defaultdict(list)
    for k in eligible:
        clusters[components.find(k)].append(k)
    proposals = [
        _proposal(members, ids, items, token_sets)
        for members in clusters.values()
        if len(members) > 1
    ]
    return sorted(proposals, key=lambda p: (-len(p.members), p.members))


def _joins_apart(
    components: _Components, a: int, b: int, ids: list[str], apart: Collection[frozenset[str]]
) -> bool:
    if not apart:
        return False
    ra, rb = components.find(a), components.find(b)
    if ra == rb:
        return False
    left = {ids[k] for k in range(len(ids)) if components.find(k) == ra}
    right = {ids[k] for k in range(len(ids)) if components.find(k) == rb}
    return any(len(pair) == 2 and pair & left and pair & right for pair in apart)


@dataclass(frozen=True)
class Contested:
    """Two atoms that contradict: a consolidation never folds them, it proposes `resolve`."""

    older: str
    newer: str
    rule: str

    def steps(self) -> list[str]:
        return [
            f"git memory resolve {self.older} --keep {self.newer}",
            f"git memory resolve {self.older} --keep {self.older}",
        ]

    def to_json(self) -> dict[str, Any]:
        return {"older": self.older, "newer": self.newer, "rule": self.rule, "apply": self.steps()}


def contested_pairs(atoms: Sequence[Mapping[str, Any]]) -> list[Contested]:
    """The contradictions among live atoms: those detection finds now and those
    recorded on the atoms (`contested_by`), older first."""
    from agent_memory.store.contradictions import detect

    # (not a side a person has already dropped: `resolve` rejects it, and a contradiction it
    # settled is no open one, though detection would find the pair again)
    live = [
        a
        for a in atoms
        if not a.get("superseded_by") and (a.get("review") or {}).get("state") != "rejected"
    ]
    ids = {str(a["id"]) for a in live}
    found = {(c.older, c.newer): c.rule for c in detect(live)}  # type: ignore[arg-type]
    for atom in live:
        for newer in atom.get("contested_by") or []:
            if str(newer) in ids:
                found.setdefault((str(atom["id"]), str(newer)), "recorded")
    return [Contested(o, n, rule) for (o, n), rule in sorted(found.items())]


def _proposal(
    members: list[int],
    ids: list[str],
    items: Sequence[tuple[str, str]],
    token_sets: list[frozenset[str]],
) -> Proposal:
    def shared_with_others(k: int) -> int:
        return sum(len(token_sets[k] & token_sets[m]) for m in members if m != k)

    gist_k = min(members, key=lambda k: (-shared_with_others(k), len(items[k][1].strip()), ids[k]))
    others = [m for m in members if m != gist_k]
    return Proposal(
        members=tuple(sorted(ids[m] for m in members)),
        gist=items[gist_k][1].strip(),
        consolidated_from=tuple(sorted(ids[m] for m in others)),
        score=min(overlap(token_sets[gist_k], token_sets[m]) for m in others),
        gist_member=ids[gist_k],
    )


# ---------------------------------------------------------------- inputs


def atom_items(atoms: Iterable[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """(id, claim) of each live atom: superseded atoms are out of consolidation, and so are
    pending claims (said once, no atom yet: never a gist to remember, never one to forget)."""
    return [(str(a["id"]), str(a["claim"])) for a in atoms
            if not a.get("superseded_by") and not is_pending(a)]  # fmt: skip


_BOLD_LABEL_RE = re.compile(r"\*\*[^*\n]{1,40}:\*\*")


def _split_frontmatter(text: str) -> tuple[str, str]:
    """(body, frontmatter description) of a memory file; `---` fenced frontmatter is optional."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return text, ""
    for end in range(1, len(lines)):
        if lines[end].strip() == "---":
            description = ""
            for line in lines[1:end]:
                key, sep, value = line.partition(":")
                if sep and key.strip() == "description":
                    description = value.strip().strip("'\"")
            return "\n".join(lines[end + 1 :]), description
    return text, ""


def _clip(text: str, limit: int = ITEM_TEXT_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > limit * 0.8 else limit].rstrip()


def auto_memory_items(directory: Path) -> list[tuple[str, str]]:
    """(relative file name, text) for each memory file of an auto-memory directory.

    Index files (`MEMORY*.md`), dotfiles and non-text files are skipped. The text is the body
    after the frontmatter (its `description` when the body is empty), with the `**Why:**` /
    `**How to apply:**` labels of Claude Code's memory template removed (they would make every
    feedback memory look alike), whitespace collapsed, clipped to ~500 characters.
    """
    items: list[tuple[str, str]] = []
    for rel in memory_files(directory):
        if is_index_file(rel):
            continue
        try:
            # As capture reads a memory (`walk.read_regular`): never through a symlink (its
            # text was printed as a proposal's), never a FIFO (it hung), never past the size
            # a memory has (a link to /dev/zero ran out of memory).
            data = read_regular(directory / rel, MAX_BYTES)
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if len(data) > MAX_BYTES:
            continue
        if "\0" in text:
            continue
        body, description = _split_frontmatter(text)
        body = " ".join(_BOLD_LABEL_RE.sub(" ", body).split())
        chosen = body or description
        if chosen:
            items.append((rel, _clip(chosen)))
    return items
