"""Scoring: which atoms are relevant to a prompt at all, then BM25 over claim tokens
(the redacted evidence quotes at a third weight) times kind, confidence, recency and pinned
weights, over the postings of the prompt's own tokens only — atoms sharing no token are never
touched — within the hook's time budget."""

import time

from agent_memory.model.policy import RECALL_TOP_K
from agent_memory.store.recall.index import CONFIDENCE_CODES, KIND_CODES, RecallIndex
from agent_memory.store.recall.render import DEFAULT_BUDGET_BYTES, Hit, fit
from agent_memory.store.recall.tokens import query_terms

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `typing` costs ~2 ms to import, the hook cannot afford it
    from collections.abc import Iterator
    from typing import Any

    from agent_memory.store.recall.adopted import Adopted

# BM25 (Robertson/Sparck Jones, Lucene's non-negative idf); the usual constants.
K1 = 1.2
B = 0.75
# An evidence quote's token counts about a third of a claim word (build.MAX_QUOTE_TOKENS).
# Document lengths are kept in twentieths of a claim word, integers: the total length of the
# live atoms is then exact whatever order they were added in, so an index kept by frames and
# the same index rebuilt from scratch divide the same numbers.
LENGTH_UNITS = 20
QUOTE_UNITS = 7
QUOTE_TF = QUOTE_UNITS / LENGTH_UNITS


def idf_of(n: int, df: int) -> float:
    import math  # not on the path of an index without frames (the build stored these)

    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def idf_max_of(n: int) -> float:
    """A prompt word no atom holds weighs as much as the rarest word of the store."""
    import math

    return math.log(1.0 + (n - 0.5) / 1.5)


def impact(tf: float, length: int, n: int, total: int) -> float:
    """BM25's saturated, length-normalised term frequency of a token in an atom of `length`
    (LENGTH_UNITS), among `n` live atoms of `total` length; score = Σ weight · idf · impact."""
    return (K1 + 1.0) * tf / (tf + K1 * (1.0 - B + B * (length * n / total)))

# Kind weights: a constraint is a rule the agent must not break, a decision
# explains why the code is shaped as it is, a preference steers style, a failure warns of a trap
# already hit, a fact is context. Ordered by the cost of the agent not knowing it.
KIND_WEIGHT = {"constraint": 1.3, "decision": 1.2, "preference": 1.1, "failure": 1.05, "fact": 1.0}
# Confidence, in its order observed < stated < verified.
CONFIDENCE_WEIGHT = {"verified": 1.2, "stated": 1.1, "observed": 1.0}
PINNED_BOOST = 1.25
# Recency: half-life 30 days on last_seen, floored at 0.5 so an old but exact match still beats
# a fresh vague one (L1 expires at 90 days anyway).
HALF_LIFE_DAYS = 30.0
RECENCY_FLOOR = 0.5
# Hits scoring below this fraction of the best hit are noise (a single common token); dropping
# them keeps 1 KB of every prompt for what is actually relevant.
RELATIVE_FLOOR = 0.5
DEFAULT_K = RECALL_TOP_K
_SECONDS_PER_DAY = 86400.0

_KIND_WEIGHTS = tuple(KIND_WEIGHT[k] for k in KIND_CODES)
_CONFIDENCE_WEIGHTS = tuple(CONFIDENCE_WEIGHT[c] for c in CONFIDENCE_CODES)


# Relevance ("a prompt with no relevant atom gets no context at all"). BM25 ranks
# whatever shares a token; this decides whether an atom is worth injecting at all:
# - the atom's CLAIM counts, its evidence quotes at QUOTE_RELEVANCE, and only content words: the generic verbs and nouns of requests (WEAK_WORDS: "add", "write",
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
# ... but a long prompt (a pasted log, a plan, a document) shares two or three words with many
# claims by chance: on real projects (benchmarks/recall_real.py), of what prompts of 300+
# characters got injected a fifth was relevant, of what shorter ones got half. Each
# LONG_PROMPT_WORDS of its content words count one more of its most specific words in the bar.
LONG_PROMPT_WORDS = 30
MAX_COVERAGE_TERMS = 6
UNKNOWN_WEIGHT = 1.0
WEAK_WORDS = """
    add adding added write writing make create run running fix fixing update change changes
    set get call show save store keep new file files code work working start stop help check
    try way thing stuff look want need let please can could would should do does done go
    put move remove delete give take tell explain show find see read open close now just
    still also again first last next whole every all some any one two three part bit
    convert generate
    文件 代码 修改 添加 创建 删除 更新 检查 运行 执行 输出 保存 生成 解释 查看 打开 完成 处理 实现 修复 分析
    内容 信息 结果 方案 对话 帮助 ファイル コード 修正 追加 作成 削除 更新 実行 実装 変更 生成 保存
    """  # fmt: skip
# WEAK_WORDS as `tokenize` normalises them (written out, like _CONCEPT_TERMS, and checked
# against WEAK_WORDS by tests/test_recall.py).
_WEAK_TERMS = frozenset(
    """
    add call chang check clos cod convert creat delet every explain fil find first fix generat
    giv help keep last mak mov next open part put read remov run sav set show start stop stor
    stuff tak tell thre two updat whol work writ
    文件 代码 修改 添加 创建 删除 更新 检查 运行 执行 输出 保存 生成 解释 查看 打开 完成 处理 实现 修复 分析
    内容 信息 结果 方案 对话 帮助 ファイル コード 修正 追加 作成 削除 実行 実装 変更
    """.split()  # noqa: SIM905
)


def recall(
    index: RecallIndex,
    prompt: str,
    now_epoch: float,
    k: int = DEFAULT_K,
    budget_bytes: int = DEFAULT_BUDGET_BYTES,
    deadline: float | None = None,
    exclude: "Adopted | None" = None,
) -> list[Hit]:
    """The best ≤ k relevant atoms for `prompt`, best first, that render within
    `budget_bytes`; none that restates adopted memory (`exclude`).

    `deadline` is a `time.monotonic()` value (the hook's 100 ms self-budget): once past it,
    scoring stops and what has been scored so far is ranked (rarest tokens are scored first,
    so a partial result is the most informative one). Never returns an atom scoring 0.
    """
    if k <= 0 or index.live_totals()[0] == 0:
        return []
    if deadline is not None and time.monotonic() >= deadline:
        return []
    # Two passes: relevance first, from the claim matches of the strong terms
    # only; then BM25 for the few relevant atoms, each term's postings met as a dict at C
    # speed. Most postings belong to atoms that share one common word with the prompt, which
    # the relevance rule drops anyway; they are never scored one by one.
    try:
        plan, content = _plan(index, prompt)
        gains, related, direct, scored = _matches(index, plan, deadline)
        acc = _relevant(gains, related, direct, content)
        if not acc:
            return []
        _add_bm25(index, acc, scored)
    except (TypeError, ValueError, IndexError):
        return []  # a corrupt posting list: recall nothing rather than fail the prompt
    # A few spares beyond k, so that a claim too long for the byte budget, or one restating
    # adopted memory, leaves room for the next.
    top = _ranked(index, acc, now_epoch, k * 4)
    return fit(_hits(index, top, exclude), k, budget_bytes) if top else []


def _plan(index: RecallIndex, prompt: str) -> "tuple[list[tuple[Any, ...]], list[float]]":
    """The prompt's terms that live atoms hold, rarest first, each as (document frequency,
    term, weight, idf, base posting, frames' postings, strong); and the idf of each of the
    prompt's content words, those no live atom holds at the rarest possible. Frequencies
    count live atoms only (base and frames), so they are a rebuilt index's."""
    postings = index.postings
    frames = index.frames
    hidden = index.hidden() if index.changed else None
    alive = index.x_alive
    n_live = index.live_totals()[0]
    same_n = n_live == index.n
    plan = []
    content: list[float] = []
    for term, weight in query_terms(prompt).items():
        entry = postings.get(term)
        extra = [(off, f[term]) for off, f in frames if term in f] if frames else []
        strong = term not in _WEAK_TERMS
        posting = None
        df = 0
        if entry is not None:
            df = entry[2] + entry[3]
            if hidden:
                posting = index.posting(entry)
                df -= len(hidden.intersection(posting[0]))
        for offset, (docs_x, _) in extra:
            df += sum(1 for local in docs_x if alive[offset + local])
        if df <= 0:
            if strong and weight >= 1.0:  # a word nothing here holds
                idf_max = index.idf_max if same_n else idf_max_of(n_live)
                content.append(max(UNKNOWN_WEIGHT * idf_max, IDF_FLOOR))
            continue
        # The build stored the idf of the base's own statistics; anything else is computed.
        idf = entry[0] if entry is not None and same_n and df == entry[2] + entry[3] else idf_of(n_live, df)
        if strong and weight >= 1.0:
            content.append(max(idf, IDF_FLOOR))
        plan.append((df, term, weight, idf, entry, posting, extra, strong))
    plan.sort(key=lambda p: (p[0], p[1]))
    return plan, content


def _matches(
    index: RecallIndex, plan: "list[tuple[Any, ...]]", deadline: float | None
) -> "tuple[dict[int, float], dict[int, int], set[int], list[tuple[float, dict[int, float]]]]":
    """One walk over the plan's postings (until the deadline): per atom, the relevance its
    claim gains (and its quotes, at a discount, for the prompt's own words); per atom, how
    many related tools its claim matches; the atoms a content word of the prompt matched;
    and each posting list as (BM25 gain, {atom number: term frequency})."""
    claim_gain: dict[int, float] = {}
    related: dict[int, int] = {}  # claim matches of expansions (strong), per atom
    direct: set[int] = set()  # atoms whose claim holds a content word of the prompt
    cget = claim_gain.get
    rget = related.get
    base_n = index.n
    scored: list[tuple[float, dict[int, float]]] = []  # (gain, {atom number: tf}) per posting list
    for _, _, weight, idf, entry, posting, extra, strong in plan:
        if deadline is not None and time.monotonic() >= deadline:
            break
        is_direct = weight >= 1.0
        weight_idf = max(idf, IDF_FLOOR)
        relevance = (weight_idf if is_direct else EXPANSION_RELEVANCE * weight_idf) if strong else 0.0
        claim_docs: list[int] = []
        quote_docs: list[int] = []
        if entry is not None:
            docs, tfs, in_claims = posting if posting is not None else index.posting(entry)
            claims = docs[:in_claims].tolist()
            quotes = docs[in_claims:].tolist()
            tf_of = dict(zip(claims, tfs[:in_claims].tolist(), strict=True))
            tf_of.update(dict.fromkeys(quotes, QUOTE_TF))
            scored.append((weight * idf, tf_of))
            if strong:
                claim_docs = claims
                quote_docs = quotes if is_direct else []
        for offset, (docs_x, tfs_x) in extra:
            numbers = [base_n + offset + local for local in docs_x]
            scored.append((weight * idf, dict(zip(numbers, tfs_x, strict=True))))
            for doc, tf in zip(numbers, tfs_x, strict=True):
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
                # ... and can make an atom relevant alone, at that discount: a claim kept in
                # short form ("Language: …") is found through the words it was said in. Taken
                # out once (tuned on 17 people's judged recalls), it lost 6 of 11 relevant
                # recalls on 28 people that tuning never saw, for no precision.
                direct.update(quote_docs)
            else:
                for doc in claim_docs:
                    related[doc] = rget(doc, 0) + 1
    return claim_gain, related, direct, scored


def _relevant(
    claim_gain: "dict[int, float]", related: "dict[int, int]", direct: "set[int]", content: "list[float]"
) -> "dict[int, float]":
    """The relevant atoms, each with a BM25 score of 0 to add to. Judged against the prompt's
    few most specific content words (a long prompt is not a worse query, though it needs a few
    more of them matched); one related tool alone ("docker" for "deploy") is not relevance."""
    terms = min(COVERAGE_TERMS + len(content) // LONG_PROMPT_WORDS, MAX_COVERAGE_TERMS)
    bar = MIN_COVERAGE * sum(sorted(content, reverse=True)[:terms])
    rget = related.get
    return dict.fromkeys(
        [doc for doc, gained in claim_gain.items()
         if gained >= bar and gained > 0.0 and (doc in direct or rget(doc, 0) >= MIN_RELATED)],
        0.0,
    )  # fmt: skip


def _add_bm25(index: RecallIndex, acc: "dict[int, float]", scored: "list[tuple[float, dict[int, float]]]") -> None:
    """BM25 of the relevant atoms, term by term in the plan's order (the same additions, in the
    same order, whichever way the index was built), against the live atoms' statistics."""
    n_live, total = index.live_totals()
    base_n = index.n
    doclen, x_doclen = index.doclen, index.x_doclen
    for gain, tf_of in scored:
        for doc in acc.keys() & tf_of.keys():
            length = doclen[doc] if doc < base_n else x_doclen[doc - base_n]
            acc[doc] += gain * impact(tf_of[doc], length, n_live, total)


def _ranked(index: RecallIndex, acc: "dict[int, float]", now_epoch: float, keep: int) -> "list[tuple[float, int]]":
    """The best `keep` of the scored atoms as (score, atom number), by score then id, once
    kind, confidence, recency and pinning weigh in. Only the relevant atoms are here (a few
    dozen for a real prompt), so they are sorted outright."""
    ranked: list[tuple[float, int]] = []
    base_n = index.n
    hidden = index.hidden() if index.changed else None
    decay = 1.0 - RECENCY_FLOOR
    per_half_life = 1.0 / (_SECONDS_PER_DAY * HALF_LIFE_DAYS)
    for doc, raw in acc.items():
        if doc >= base_n + len(index.x_ids):
            continue  # a corrupt posting list names an atom that is not there
        if doc < base_n:
            if hidden and doc in hidden:
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
    if index.x_ids and any(a[0] == b[0] for a, b in zip(ranked, ranked[1:], strict=False)):
        # A tie among frame atoms: their numbers are in write order, not id order.
        ranked.sort(key=lambda item: (item[0], index.atom_id(item[1])))
    return [(-negated, doc) for negated, doc in ranked[:keep]]


def _hits(index: RecallIndex, top: "list[tuple[float, int]]", exclude: "Adopted | None") -> "Iterator[Hit]":
    """The ranked atoms as hits, best first, made only as far as `fit` takes them: none
    below RELATIVE_FLOOR of the best, none whose claim cannot be read, none restating
    adopted memory."""
    floor = top[0][0] * RELATIVE_FLOOR
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
