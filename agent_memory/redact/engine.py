"""The redaction engine: which parser runs where, one pass over the text, and
the merge of what the parsers found.

- One pass over the lower-cased text finds *keywords* (token prefixes such as ``ghp_``, key
  words such as ``token``/``password``, vendor names, ``://``, ``@``, ``-----begin``); only the
  parsers a keyword names run, and only at that position, so the cost does not grow with the
  number of rules. A few token formats without a usable keyword (R.SCANS) and the numbers of
  personal data (agent_memory.redact.pii) are searched over the whole text instead.
- Overlapping candidates are merged into one span, so that no part of a secret survives.
- Replacing a span can change what its neighbours look like, so the text around each
  replacement is scanned again until nothing new appears: `find(redact(t)[0]) == []`.

The parsers live in agent_memory.redact.handlers (tokens, keys, JWTs, prose),
agent_memory.redact.http (headers, curl, URIs), agent_memory.redact.assign (key = value) and
agent_memory.redact.pii (personal data). Everything compiles on the first scan, not at import.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from agent_memory.redact import rules as R
from agent_memory.redact.assign import assignment, assignment_keywords
from agent_memory.redact.context import (
    MARKER_PREFIX,
    P_PII,
    P_TOKEN,
    Candidate,
    Handler,
    ScanContext,
    marker,
)
from agent_memory.redact.encoded import encoded_spans
from agent_memory.redact.explicit import JOINED as EXPLICIT_JOINED
from agent_memory.redact.explicit import KEYWORDS as EXPLICIT_PASSWORD_WORDS
from agent_memory.redact.explicit import explicit_password
from agent_memory.redact.families import configure as configure_families
from agent_memory.redact.fold import OffsetMap, fold, map_span
from agent_memory.redact.generic import near_keyword, scan_runs
from agent_memory.redact.handlers import (
    bundler_credentials,
    form_aws_key,
    jwt,
    jwt_base64,
    kubernetes_secret,
    pem_block,
    prose_secret,
    putty_key,
    token_handler,
)
from agent_memory.redact.http import (
    authorization_header,
    bearer,
    curl_user,
    go_dsn,
    uri_credentials,
    url_signature,
)
from agent_memory.redact.pii import (
    HOME_KEYWORDS,
    arn_account,
    aws_account,
    dni_after_keyword,
    email,
    home_user,
    nino_after_keyword,
    own_home,
    phone_after_keyword,
    scan_numbers,
    ssn_after_keyword,
)
from agent_memory.redact.regex import LazyCompiler, trie
from agent_memory.redact.values import entropy, known_sample

_lazy = LazyCompiler(globals())

_MARKER_RX: re.Pattern[str] = _lazy(r"\[REDACTED:[a-z0-9-]{1,60}\]")


def find_spans(text: str, depth: int = 0) -> list[Candidate]:
    """Secrets and personal data in `text`: sorted, non-overlapping spans. `depth` counts the
    decodings (agent_memory.redact.encoded) that led to `text`."""
    if not text:
        return []
    folded = fold(text)
    cands = _scan_all(text, depth, folded, fold_it=False)
    if not cands:
        return []
    spans = _merge(cands)
    # Replacing a span can change what its neighbours look like (a token that followed a
    # secret now follows `]`). Re-examine the text around each replacement until nothing new
    # appears, so that `find(redact(t)[0]) == []` holds for every input.
    for _ in range(4):
        extra = _recheck(text, spans, depth, folded is not None)
        if not extra:
            break
        spans = _merge(spans + extra)
    return spans


def _scan_all(
    text: str,
    depth: int,
    folded: tuple[str, OffsetMap, list[int]] | None = None,
    fold_it: bool = True,
) -> list[Candidate]:
    """Every candidate in `text`: as written, as read (agent_memory.redact.fold: invisible
    characters and look-alike letters folded) and as decoded (base64, percent-encoding).
    `folded`: `fold(text)` when the caller has it already (then `fold_it=False`)."""
    out = _scan(text, depth)
    if folded is None and fold_it:
        folded = fold(text)
    if folded is None:
        out += encoded_spans(text, depth, find_spans)
        return out
    ftext, origin, changed = folded
    # only the text around what folding changed reads differently: scan windows there
    for lo, hi in _windows(changed, len(ftext), _FOLD_MARGIN):
        for s, e, rule, pri in _scan(ftext[lo:hi], depth):
            if (s == 0 and lo > 0) or (e == hi - lo and hi < len(ftext)):
                continue  # cut by the window's edge: seen whole in a wider window or not at all
            a, b = map_span(origin, s + lo, e + lo)
            out.append((a, b, rule, pri))
    for s, e, rule, pri in encoded_spans(ftext, depth, find_spans):
        a, b = map_span(origin, s, e)
        out.append((a, b, rule, pri))
    return out


_FOLD_MARGIN = 200


def _windows(points: list[int], size: int, margin: int) -> list[tuple[int, int]]:
    """Merged windows of `margin` characters on either side of each (sorted) point."""
    out: list[tuple[int, int]] = []
    for p in points:
        lo, hi = max(0, p - margin), min(size, p + margin)
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def replace_spans(text: str, spans: Iterable[tuple[int, int, str]]) -> str:
    """`text` with each (start, end, rule) span (sorted, non-overlapping) replaced by its
    marker."""
    pieces: list[str] = []
    pos = 0
    for start, end, rule in spans:
        pieces.append(text[pos:start])
        pieces.append(marker(rule))
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


class _Engine:
    def __init__(self, exclude: frozenset[str] = frozenset()) -> None:
        handlers: dict[str, list[Handler]] = {}

        def on(keywords: Iterable[str], h: Handler) -> None:
            for k in keywords:
                lst = handlers.setdefault(k, [])
                if h not in lst:
                    lst.append(h)

        # The order matters where two parsers share a keyword (`token`: the prose parser,
        # then the assignment parser): on equal spans the first candidate names the rule.
        for rule, kws, pattern, ent, offsets in R.TOKENS:
            if rule not in exclude:
                on(kws, token_handler(rule, pattern, ent, offsets))
        if "aws-access-key" not in exclude:
            on(["akia", "asia", "abia", "acca", "a3t"], form_aws_key)
        on(["-----begin"], pem_block)
        on(["putty-user-key-file"], putty_key)
        on(["eyj"], jwt)
        on(["zxlk"], jwt_base64)
        on(["authorization"], authorization_header)
        on(["bearer"], bearer)
        on(["curl"], curl_user)
        on(["://"], uri_credentials)
        on(["@tcp(", "@unix("], go_dsn)
        on(["sig=", "signature="], url_signature)
        on(["@"], email)
        on(HOME_KEYWORDS, home_user)
        on(["arn:aws"], arn_account)
        on(["aws_account", "awsaccount", "aws-account", "aws account"], aws_account)
        on(["kind:", 'kind":', "kind':"], kubernetes_secret)
        on(["bundle_"], bundler_credentials)
        on(
            ["password", "passphrase", "passcode", "token", "secret", "api key", "access key"]
            + ["private key", "credential"],
            prose_secret,
        )
        on(EXPLICIT_PASSWORD_WORDS + EXPLICIT_JOINED, explicit_password)
        on(["ssn", "social security"], ssn_after_keyword)
        on(R.PHONE_WORDS, phone_after_keyword)
        on(["nino", "national insurance", "ni number"], nino_after_keyword)
        on(["dni", "nie", "nif"], dni_after_keyword)
        on(assignment_keywords(exclude), assignment)
        on(
            ["token", "secret", "passw", "pwd", "apikey", "api_key", "api-key", "api key"]
            + ["access_key", "access key", "credential"],
            near_keyword,
        )
        configure_families([row for row in R.TOKENS if row[0] not in exclude])
        # a keyword found at a position also triggers the rules of every keyword it starts
        # with (the scan reports the longest keyword at each position)
        keys = sorted(handlers)
        self.handlers: dict[str, list[Handler]] = {}
        for k in keys:
            hs: list[Handler] = []
            for i in range(1, len(k) + 1):
                for h in handlers.get(k[:i], ()):
                    if h not in hs:
                        hs.append(h)
            self.handlers[k] = hs
        self.keywords = re.compile(trie(keys))
        self.scans = [
            (rule, re.compile(p), ent, re.compile(b) if b else None)
            for rule, p, ent, b in R.SCANS
            if rule not in exclude
        ]


_ENGINE: _Engine | None = None


def _engine() -> _Engine:
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = _Engine()
    return _ENGINE


def exclude_rules(rules: Iterable[str]) -> None:
    """Run without the vendor-specific rules named (token rules by their rule name, vendor
    keys by `<vendor>-secret`); the generic parsers stay. Only for measuring generalisation
    on vendors held out (benchmarks/redaction.py); `exclude_rules(())` restores everything."""
    global _ENGINE
    ex = frozenset(rules)
    _ENGINE = _Engine(ex)
    from agent_memory.redact.assign import exclude_vendors

    exclude_vendors(frozenset(r.removesuffix("-secret") for r in ex if r.endswith("-secret")))


def _scan(text: str, depth: int = 0) -> list[Candidate]:
    eng = _engine()
    ctx = ScanContext(text)
    handlers = eng.handlers
    # an earlier redaction's marker names a rule (`[REDACTED:api-token]`): its words are no
    # keywords, or the marker would make its neighbour look like the value of a `…token`
    marks = [m.span() for m in _MARKER_RX.finditer(text)] if MARKER_PREFIX in text else []
    mark_starts = [a for a, _b in marks]
    for m in eng.keywords.finditer(ctx.low):
        kw = m.group()
        pos = m.start()
        if marks:
            i = bisect.bisect_right(mark_starts, pos) - 1
            if i >= 0 and pos < marks[i][1]:
                continue
        for h in handlers[kw]:
            h(ctx, pos, kw)
    for rule, rx, ent, back in eng.scans:
        for m in rx.finditer(text):
            start = m.start()
            if back is not None:
                b = back.search(text, max(0, start - 40), start)
                if b is None:
                    continue
                start = b.start()
            tok = text[start : m.end()]
            if entropy(tok) >= ent and not known_sample(tok):
                ctx.add(start, m.end(), rule, P_TOKEN)
    scan_numbers(ctx)
    own_home(ctx)
    scan_runs(ctx, depth, find_spans)
    if marks:
        # an earlier redaction is opaque: nothing that overlaps its marker is a finding
        kept = []
        for c in ctx.out:
            i = bisect.bisect_right(mark_starts, c[1] - 1) - 1  # last marker starting before c ends
            if i >= 0 and marks[i][1] > c[0]:
                continue
            kept.append(c)
        return kept
    return ctx.out


def _merge(cands: list[Candidate]) -> list[Candidate]:
    """Union overlapping spans, so that no part of a secret survives; the span keeps the rule
    of its most specific candidate (vendor token > dedicated parser > key = value > PII)."""
    out: list[Candidate] = []
    for s, e, rule, pri in sorted(cands, key=lambda c: (c[0], -c[1], c[3])):
        if out and s < out[-1][1]:
            ls, le, lrule, lpri = out[-1]
            out[-1] = (ls, max(le, e), rule if pri < lpri else lrule, min(pri, lpri))
        else:
            out.append((s, e, rule, pri))
    return out


def _recheck(text: str, spans: list[Candidate], depth: int, fold_windows: bool) -> list[Candidate]:
    """Findings that appear only once the spans are replaced, mapped back to `text`."""
    red = replace_spans(text, [(s, e, rule) for s, e, rule, _p in spans])
    # each marker: (start in red, end in red, end in text)
    markers: list[tuple[int, int, int]] = []
    shift = 0
    for s, e, rule, _p in spans:
        ms = s + shift
        me = ms + len(marker(rule))
        markers.append((ms, me, e))
        shift = me - e
    ends = [me for _ms, me, _te in markers]
    windows: list[tuple[int, int]] = []
    for (ms, me, _te), (_s, _e, _rule, pri) in zip(markers, spans, strict=True):
        # how far a replacement can change what its neighbours look like: as far as a parser
        # reads around a keyword (an identifier, a value, a few words); personal data sits in
        # prose and paths, where that is short
        margin = 160 if pri == P_PII else 400
        lo, hi = max(0, ms - margin), min(len(red), me + margin)
        if windows and lo <= windows[-1][1]:
            windows[-1] = (windows[-1][0], hi)
        else:
            windows.append((lo, hi))
    out: list[Candidate] = []
    for lo, hi in windows:
        sub = red[lo:hi]
        # folding can only matter in a window when it mattered in the whole text
        for s, e, rule, pri in _scan_all(sub, depth, fold_it=fold_windows):
            # a cut at the window edge can fake a boundary; such spans were seen in full
            if (s == 0 and lo > 0) or (e == len(sub) and hi < len(red)):
                continue
            a, b = s + lo, e + lo
            i = bisect.bisect_right(ends, a)  # markers ending at or before a
            if i < len(markers) and markers[i][0] < b:
                continue  # overlaps a marker: nothing new
            offset = markers[i - 1][2] - markers[i - 1][1] if i else 0
            out.append((a + offset, b + offset, rule, pri))
    return out
