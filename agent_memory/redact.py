"""Redaction: secrets and personal data out of every claim before it is written (spec §4.1, §6).

Redaction is the only barrier between a transcript and a committed file (the `verified` fast
path reaches L2 on one observation), so this is a rule engine, not a short regex list:

- one pass over the text finds *keywords* (token prefixes such as ``ghp_``, key-name words such
  as ``token``/``password``, vendor names, ``://``, ``@``, ``-----BEGIN``); only the rules a
  keyword names run, and only at that position, so the cost does not grow with the rule count;
- token rules match documented vendor formats, with an entropy floor that rejects ``XXXX``
  placeholders;
- an assignment parser reads ``key = value`` in the shapes of config files and source code
  (INI, .env, JSON, YAML, XML, Go, Java, PHP, Makefile, CLI flags, HTTP headers, query
  strings, connection strings) and decides from the key's words whether the value is a secret,
  then from the value whether it is real (entropy, placeholder and template allow-lists);
- dedicated parsers cover PEM blocks, JWTs, Authorization headers, ``curl -u``, URI
  credentials, and personal data (e-mail, phone, card numbers with Luhn, national ids with
  their checksums, AWS account ids in ARNs, the user name in home-directory paths).

Every pattern has bounded quantifiers and runs anchored at a keyword, so the work is linear in
the input (binary data, 10 MB lines and long runs of one character included).

Public interface: `Finding`, `find(text)`, `redact(text)`. Replacement is
``[REDACTED:<rule>]``; the output of `redact` has no findings (`find(redact(t)[0]) == []`).
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from agent_memory import redact_rules as R


class _LazyPattern:
    """A regex compiled on first use, which then replaces itself in the module's globals:
    importing this module (the per-prompt hook does) compiles nothing."""

    __slots__ = ("_name", "_args", "_rx")

    def __init__(self, name: str, pattern: str, flags: int = 0) -> None:
        self._name = name
        self._args = (pattern, flags)
        self._rx: re.Pattern[str] | None = None

    def __getattr__(self, attr: str) -> object:
        rx = self._rx
        if rx is None:
            rx = self._rx = re.compile(*self._args)
            globals()[self._name] = rx
        return getattr(rx, attr)


def _lazy(name: str, pattern: str, flags: int = 0) -> re.Pattern[str]:
    return cast("re.Pattern[str]", _LazyPattern(name, pattern, flags))


@dataclass(frozen=True)
class Finding:
    rule: str
    start: int
    end: int


MARKER_PREFIX = "[REDACTED:"
_MARKER_RX: re.Pattern[str] = _lazy("_MARKER_RX", r"\[REDACTED:[a-z0-9-]{1,60}\]")

# Candidate: (start, end, rule, priority). Lower priority wins when spans overlap.
_Cand = tuple[int, int, str, int]
_P_TOKEN, _P_SPECIAL, _P_ASSIGN, _P_PII = 0, 1, 2, 3

_IDENT_CHARS = r"A-Za-z0-9_.\-"
_MAX_IDENT = 80


def find(text: str) -> list[Finding]:
    """Secrets and personal data in `text`: sorted, non-overlapping spans."""
    if not text:
        return []
    cands = _scan(text)
    if not cands:
        return []
    spans = _merge(cands)
    # Replacing a span can change what its neighbours look like (a token that followed a
    # secret now follows `]`). Re-examine the text around each replacement until nothing new
    # appears, so that `find(redact(t)[0]) == []` holds for every input.
    for _ in range(4):
        extra = _recheck(text, spans)
        if not extra:
            break
        spans = _merge([(s, e, r, p) for s, e, r, p in spans] + extra)
    return [Finding(r, s, e) for s, e, r, _p in spans]


def redact(text: str) -> tuple[str, list[Finding]]:
    """`text` with every finding replaced by ``[REDACTED:<rule>]``, and the findings."""
    findings = find(text)
    return _apply(text, findings), findings


def _apply(text: str, findings: list[Finding]) -> str:
    pieces: list[str] = []
    pos = 0
    for f in findings:
        pieces.append(text[pos : f.start])
        pieces.append(f"{MARKER_PREFIX}{f.rule}]")
        pos = f.end
    pieces.append(text[pos:])
    return "".join(pieces)


def _merge(cands: list[_Cand]) -> list[_Cand]:
    """Union overlapping spans, so that no part of a secret survives; the span keeps the rule
    of its most specific candidate (vendor token > dedicated parser > key = value > PII)."""
    out: list[_Cand] = []
    for s, e, rule, pri in sorted(cands, key=lambda c: (c[0], -c[1], c[3])):
        if out and s < out[-1][1]:
            ls, le, lrule, lpri = out[-1]
            out[-1] = (ls, max(le, e), rule if pri < lpri else lrule, min(pri, lpri))
        else:
            out.append((s, e, rule, pri))
    return out


def _recheck(text: str, spans: list[_Cand]) -> list[_Cand]:
    """Findings that appear only once the spans are replaced, mapped back to `text`."""
    findings = [Finding(r, s, e) for s, e, r, _p in spans]
    red = _apply(text, findings)
    # each marker: (start in red, end in red, end in text)
    markers: list[tuple[int, int, int]] = []
    shift = 0
    for f in findings:
        ms = f.start + shift
        me = ms + len(MARKER_PREFIX) + len(f.rule) + 1
        markers.append((ms, me, f.end))
        shift = me - f.end
    ends = [me for _ms, me, _te in markers]
    windows: list[tuple[int, int]] = []
    margin = 1200
    for ms, me, _te in markers:
        lo, hi = max(0, ms - margin), min(len(red), me + margin)
        if windows and lo <= windows[-1][1]:
            windows[-1] = (windows[-1][0], hi)
        else:
            windows.append((lo, hi))
    out: list[_Cand] = []
    for lo, hi in windows:
        sub = red[lo:hi]
        for s, e, rule, pri in _scan(sub):
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


# --------------------------------------------------------------------------------------------
# the engine


class _Ctx:
    __slots__ = ("text", "low", "out", "idents", "ident_end", "until", "pem_end")

    def __init__(self, text: str) -> None:
        self.text = text
        low = text.lower()
        if len(low) != len(text):  # a few non-ASCII letters lower-case to two characters
            low = text.translate(_ASCII_LOWER)
        self.low = low
        self.out: list[_Cand] = []
        self.idents: set[tuple[int, int]] = set()
        self.ident_end = -1
        # per parser: the end of the region it has already read, so a keyword repeated inside
        # that region is not read again (this keeps the work linear on repetitive input)
        self.until: dict[str, int] = {}
        self.pem_end: tuple[int, int] | None = None  # (searched from, END found at or -1)

    def seen(self, name: str, pos: int) -> bool:
        return pos < self.until.get(name, -1)

    def mark(self, name: str, end: int) -> None:
        if end > self.until.get(name, -1):
            self.until[name] = end

    def add(self, s: int, e: int, rule: str, pri: int) -> None:
        if e > s:
            self.out.append((s, e, rule, pri))


_ASCII_LOWER = {c: c + 32 for c in range(65, 91)}

_Handler = Callable[[_Ctx, int, str], None]


class _Engine:
    def __init__(self) -> None:
        handlers: dict[str, list[_Handler]] = {}

        def on(keywords: tuple[str, ...] | list[str], h: _Handler) -> None:
            for k in keywords:
                lst = handlers.setdefault(k, [])
                if h not in lst:
                    lst.append(h)

        for rule, kws, pattern, ent, offsets in R.TOKENS:
            on(kws, _token_handler(rule, pattern, ent, offsets))
        on(["-----begin"], _pem)
        on(["putty-user-key-file"], _putty)
        on(["eyj"], _jwt)
        on(["zxlk"], _jwt_b64)
        on(["authorization"], _auth_header)
        on(["bearer"], _bearer)
        on(["curl"], _curl)
        on(["://"], _uri)
        on(["@tcp(", "@unix("], _go_dsn)
        on(["sig=", "signature="], _url_signature)
        on(["@"], _email)
        on(["/home/", "/users/", "\\users\\", ":/users/", "/mnt/", "-home-", "-users-"], _home)
        on(["arn:aws"], _arn)
        on(["aws_account", "awsaccount", "aws-account", "aws account"], _aws_account)
        on(["kind:"], _k8s_secret)
        on(
            ["password", "passphrase", "passcode", "token", "secret", "api key", "access key"],
            _prose,
        )
        on(["ssn", "social security"], _keyed_pii(_SSN_KW, "us-ssn", _ssn_digits_ok))
        on(R.PHONE_WORDS, _keyed_pii(_PHONE_KW, "phone-number", _phone_ok))
        on(["nino", "national insurance", "ni number"], _keyed_pii(_NINO_KW, "uk-nino", _nino_ok))
        on(["dni", "nie", "nif"], _keyed_pii(_DNI_KW, "es-dni", _dni_ok))
        assign_words = list(R.KEY_WORDS)
        for q in R.KEY_QUALIFIERS:
            for sep in ("", "_", "-", "."):
                assign_words.append(f"{q}{sep}key")
        on(assign_words, _assign)
        for _rule, names in R.VENDORS:
            on([n.lower() for n in names], _assign)
        # a keyword found at a position also triggers the rules of every keyword it starts
        # with (the scan reports the longest keyword at each position)
        keys = sorted(handlers)
        self.handlers: dict[str, list[_Handler]] = {}
        for k in keys:
            hs: list[_Handler] = []
            for i in range(1, len(k) + 1):
                for h in handlers.get(k[:i], ()):
                    if h not in hs:
                        hs.append(h)
            self.handlers[k] = hs
        self.keywords = re.compile(_trie(keys))
        self.scans = [
            (rule, re.compile(p), ent, re.compile(b) if b else None) for rule, p, ent, b in R.SCANS
        ]
        self.vendor_shapes = {v: re.compile(p) for v, p in R.VENDOR_SHAPES.items()}
        self.vendor_of_name = {n: rule for rule, names in R.VENDORS for n in names}
        # longest names first, so "sumologic" is not read as "sumo" + "logic"
        by_len = sorted(self.vendor_of_name, key=len, reverse=True)
        self.vendor_rx = re.compile("|".join(re.escape(n) for n in by_len))
        grams7 = {q[i : i + 7] for q in R.SEQUENCES for i in range(len(q) - 6)}
        grams9 = {q[i : i + 9] for q in R.SEQUENCES for i in range(len(q) - 8)}
        self.seq7 = re.compile(_trie(sorted(grams7)))
        self.seq9 = re.compile(_trie(sorted(grams9)))


_ENGINE: _Engine | None = None


def _engine() -> _Engine:
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = _Engine()
    return _ENGINE


_TrieNode = dict[str, "_TrieNode"]


def _trie(words: list[str]) -> str:
    """A regex alternation factored into a trie: `re` then branches on one character per
    position instead of trying every keyword in turn."""
    root: _TrieNode = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: _TrieNode) -> str:
        alts = [re.escape(ch) + build(sub) for ch, sub in sorted(node.items()) if ch]
        end = "" in node
        if not alts:
            return ""
        if len(alts) == 1 and not end:
            return alts[0]
        body = "(?:" + "|".join(alts) + ")"
        return body + "?" if end else body

    return build(root)


def _scan(text: str) -> list[_Cand]:
    eng = _engine()
    ctx = _Ctx(text)
    handlers = eng.handlers
    for m in eng.keywords.finditer(ctx.low):
        kw = m.group()
        pos = m.start()
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
            if _entropy(tok) >= ent and not _sample(tok):
                ctx.add(start, m.end(), rule, _P_TOKEN)
    _pii_scans(ctx)
    if MARKER_PREFIX in text:
        # an earlier redaction is opaque: nothing that overlaps its marker is a finding
        marks = [m.span() for m in _MARKER_RX.finditer(text)]
        if marks:
            starts = [a for a, _b in marks]
            kept = []
            for c in ctx.out:
                i = bisect.bisect_right(starts, c[1] - 1) - 1  # last marker starting before c ends
                if i >= 0 and marks[i][1] > c[0]:
                    continue
                kept.append(c)
            return kept
    return ctx.out


# --------------------------------------------------------------------------------------------
# value tests


def _memo(fn: Callable[[str], bool]) -> Callable[[str], bool]:
    """Remember a value test: repetitive input (logs, generated files) repeats its values."""
    cache: dict[str, bool] = {}

    def wrapper(value: str) -> bool:
        hit = cache.get(value)
        if hit is None:
            if len(cache) > 4096:
                cache.clear()
            hit = cache[value] = fn(value)
        return hit

    wrapper.__doc__ = fn.__doc__
    return wrapper


def _entropy(s: str) -> float:
    if not s:
        return 0.0
    counts: dict[str, int] = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _sample(tok: str) -> bool:
    """A published sample key (vendor docs, SDK demos): known by hash, never stored in clear."""
    import hashlib  # here, not at the top: the module is imported by the per-prompt hook

    return hashlib.sha256(tok.encode("utf-8", "replace")).hexdigest()[:16] in R.KNOWN_SAMPLE_HASHES


_CASE_SPLIT: re.Pattern[str] = _lazy("_CASE_SPLIT", r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_VOWELS = frozenset("aeiouy")


def _words(s: str) -> list[str]:
    return [w.lower() for w in _CASE_SPLIT.findall(s)]


def _wordlike(w: str) -> bool:
    """A run of letters that reads like a word: vowels in proportion, no long consonant run."""
    if len(w) < 3 or not w.isalpha():
        return False
    v = sum(1 for c in w if c in _VOWELS)
    if v == 0 or v / len(w) > 0.75 or (len(w) >= 5 and v / len(w) < 0.2):
        return False
    run = 0
    for c in w:
        run = 0 if c in _VOWELS else run + 1
        if run >= 5:
            return False
    return True


_INTERLEAVED: re.Pattern[str] = _lazy("_INTERLEAVED", r"[A-Za-z]\d+(?=[A-Za-z])")


@_memo
def _wordy(value: str) -> bool:
    """Made of words (identifiers, prose, dotted names), not of random characters."""
    alnum = sum(1 for c in value if c.isalnum())
    if alnum == 0:
        return True
    if len(_INTERLEAVED.findall(value)) >= 2:
        return False  # letters and digits shuffled together: generated, not written
    parts = _CASE_SPLIT.findall(value)
    short = sum(1 for p in parts if len(p) <= 2 and not p.isdigit())
    if len(parts) >= 5 and short >= 0.3 * len(parts):
        return False  # `uvdAGputwdjoeuEQoaXjq`: case flips at random, not at word starts
    wordish = sum(len(p) for p in parts if _wordlike(p.lower()) or p.lower() in R.PLACEHOLDER_WORDS)
    digits = sum(len(p) for p in parts if p.isdigit())
    return wordish >= 0.7 * alnum and digits <= 0.25 * alnum


_TEMPLATE: re.Pattern[str] = _lazy(
    "_TEMPLATE",
    r"""^(?:\$\{.*\}|\$\(.*\)|\$[A-Za-z_][\w.]*|\{\{.*\}\}|\{%.*%\}|<%.*%>|<[^<>]*>|\[[^\[\]]*\]
       |%\(?[A-Za-z_]\w*\)?[sd]?%?|%[sdr]|@[A-Za-z_]\w*@|\#\{.*\}|\{[A-Za-z_0-9]*\})$""",
    re.X | re.S,
)
_REFERENCE: re.Pattern[str] = _lazy(
    "_REFERENCE",
    r"(?i)(?:process\.env|os\.environ|getenv|\benv\[|ENV\[|secrets\.|vault:|op://|\bref\+|"
    r"arn:aws:secretsmanager|keyvault|\$\{|\{\{|\$\(|<%=|#\{)",
)
_IDENTIFIER: re.Pattern[str] = _lazy(
    "_IDENTIFIER", r"[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|->)[A-Za-z_$][A-Za-z0-9_$]*)*"
)
_NUMBERISH: re.Pattern[str] = _lazy(
    "_NUMBERISH",
    r"[+-]?\d[\d.,:_ -]*[A-Za-z]{0,3}|v?\d+(?:\.\d+){1,3}(?:[-+.][\w.]+)?|0x[0-9a-fA-F]+",
)
_ARTIFACT: re.Pattern[str] = _lazy(
    "_ARTIFACT",
    r"[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z][A-Za-z0-9]*)*[-_.@:]v?\d+(?:\.\d+){1,3}(?:[-.+][A-Za-z0-9.]+)?",
)
_REPEAT: re.Pattern[str] = _lazy("_REPEAT", r"(.)\1{5,}")
_FILLER: re.Pattern[str] = _lazy("_FILLER", r"([^A-Za-z1-9])\1{5,}|([xX*#_.-])\2{3,}")
_CHUNKS: re.Pattern[str] = _lazy("_CHUNKS", r"([A-Za-z0-9]{4,8})[-_.:/]?\1[-_.:/]?\1")
_UUID_RX: re.Pattern[str] = _lazy(
    "_UUID_RX", r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)


@_memo
def _placeholder(value: str) -> bool:
    v = value.strip()
    low = v.lower()
    if not v or MARKER_PREFIX.lower() in low:
        return True
    if _TEMPLATE.match(v) or _REFERENCE.search(v):
        return True
    if (
        "xxxx" in low
        or "example" in low
        or "****" in v
        or "..." in v
        or "…" in v
        or "\u2022\u2022" in v
    ):
        return True
    if low.endswith("..") or low.startswith("."):
        return True
    if (_REPEAT.search(v) and _entropy(v) < 3.0) or _FILLER.search(v):
        return True
    if any(len(set(c.group(1))) > 1 for c in _CHUNKS.finditer(v)):
        return True
    if _engine().seq7.search(low):
        return True
    words = _words(v)
    letters = [w for w in words if not w.isdigit()]
    if letters and all(w in R.PLACEHOLDER_WORDS for w in letters):
        return True
    hits = sum(len(w) for w in letters if w in R.PLACEHOLDER_WORDS and len(w) >= 4)
    return hits >= 4 and hits >= 0.6 * sum(len(w) for w in letters)


def _classes(v: str) -> int:
    return (
        any(c.islower() for c in v)
        + any(c.isupper() for c in v)
        + any(c.isdigit() for c in v)
        + any(not c.isalnum() for c in v)
    )


def _token_like(value: str, min_len: int, min_entropy: float) -> bool:
    """A random-looking credential value (after the key already said it is a secret)."""
    v = value
    if len(v) < min_len or len(v) > 1000 or " " in v.strip():
        return False
    if _placeholder(v) or _wordy(v) or "://" in v:
        return False
    if _NUMBERISH.fullmatch(v) and not (v.isdigit() and len(v) >= 12):
        return False
    if _ARTIFACT.fullmatch(v):
        return False  # `jjwt-jackson-0.11.2`: a package and its version
    if v.startswith(("/", "./", "../", "~/")) or re.match(r"[A-Za-z]:[\\/]", v):
        return False
    if _classes(v) < 2 and not (v.isdigit() and len(v) >= 12):
        return False
    return _entropy(v) >= min_entropy


def _password_like(value: str, quoted: bool) -> bool:
    v = value
    if len(v) < 4 or len(v) > 200:
        return False
    if _placeholder(v) or "://" in v:
        return False
    if v.count(" ") >= 2:  # a sentence (validation message, prose), not a password
        return False
    if v.lower() in R.TYPE_WORDS or v in R.TYPE_WORDS:
        return False
    if not quoted and _IDENTIFIER.fullmatch(v) and (_wordy(v) or "." in v or "_" in v):
        return False
    if _NUMBERISH.fullmatch(v) and len(v) < 8:
        return False
    if len(v) < 6 and _classes(v) < 3:
        return False
    if _classes(v) < 2 and (len(v) < 12 or _wordy(v)):
        return False
    if _wordy(v) and " " not in v and _classes(v) < 3 and not any(c.isdigit() for c in v):
        return False
    return _entropy(v) >= 2.0


# --------------------------------------------------------------------------------------------
# token rules


_TOKEN_FILLER: re.Pattern[str] = _lazy(
    "_TOKEN_FILLER", r"[xX]{4}|\*{3}|#{3}|\.{3}|…|(\d{2,6})\1{2}|(.)\2{7}"
)


# rules whose prefix is an ordinary word of code: the rest must not read as words either
_COMMON_PREFIX_RULES = frozenset({"payment-client-key", "chieftools-token", "huggingface-token"})


def _token_placeholder(tok: str, rule: str) -> bool:
    """A vendor-shaped string that is visibly a placeholder: `ghp_xxxx…`, `GR1348941123123…`,
    runs of one character, documented sample keys. (A long structured token is otherwise
    taken as real even with little entropy: the prefix and length already say what it is.)"""
    if _sample(tok) or MARKER_PREFIX in tok:
        return True
    if rule == "aws-access-key" and tok.endswith("EXAMPLE"):
        return True
    m = _TOKEN_FILLER.search(tok)
    if m and not (rule == "twitter-bearer-token" and m.group(2) == "A"):
        return True
    if rule in _COMMON_PREFIX_RULES and _wordy(tok):
        return True  # `test_` + a long test name is not a Chargebee key
    low = tok.lower()
    return _engine().seq9.search(low) is not None


def _token_handler(rule: str, pattern: str, ent: float, offsets: tuple[int, ...]) -> _Handler:
    has_group = "(?P<s>" in pattern
    compiled: list[re.Pattern[str]] = []  # compiled on the first keyword hit: most never fire

    def handler(ctx: _Ctx, pos: int, kw: str) -> None:
        if not compiled:
            compiled.append(re.compile(pattern))
        rx = compiled[0]
        text = ctx.text
        for off in offsets:
            st = pos - off
            if st < 0:
                continue
            m = rx.match(text, st)
            if not m:
                continue
            s, e = m.span("s") if has_group else m.span()
            tok = text[s:e]
            if ent == 0.0:  # a prefix so specific that anything after it is a key
                if _sample(tok) or MARKER_PREFIX in tok:
                    return
            elif _token_placeholder(tok, rule) or _entropy(tok) < (
                min(ent, 2.0) if len(tok) >= 24 else ent
            ):
                return
            ctx.add(s, e, rule, _P_TOKEN)
            return

    return handler


# --------------------------------------------------------------------------------------------
# assignments: key = value


_IDENT_TAIL: re.Pattern[str] = _lazy(
    "_IDENT_TAIL", r"[" + _IDENT_CHARS + r"]{0," + str(_MAX_IDENT) + r"}\Z"
)
_IDENT_HEAD: re.Pattern[str] = _lazy(
    "_IDENT_HEAD", r"[" + _IDENT_CHARS + r"]{0," + str(_MAX_IDENT) + r"}"
)
_AFTER: re.Pattern[str] = _lazy(
    "_AFTER",
    r"""(?P<kq>\\{0,3}["'`])?\]?
        (?:[ \t]+(?:string|String|str|&str|char\*|const)\b)?
        [ \t]*
        (?P<op>:::=|::=|:=|\?\?=|\?=|\+=|\.=|\|\|=|=>|->|<-|={1,3}|:(?![:/\\])|,|\((?!\))|>|value[ \t]*=)
        [ \t]*""",
    re.X,
)
_PROSE_OP: re.Pattern[str] = _lazy("_PROSE_OP", r"[ \t]+(?P<op>is|was|=|:)[ \t]+")
_FLAG_OP: re.Pattern[str] = _lazy("_FLAG_OP", r"[ \t]+(?=[^\s-])")
_YAML_BLOCK: re.Pattern[str] = _lazy("_YAML_BLOCK", r"[|>][-+]?[ \t]*\r?\n[ \t]+")
_XML_GAP: re.Pattern[str] = _lazy("_XML_GAP", r"\s{0,80}")
_UNQUOTED: re.Pattern[str] = _lazy("_UNQUOTED", r"""[^\s'"`\\&>(){\[\]|]{1,512}""")
_UNQUOTED_CUT: re.Pattern[str] = _lazy(
    "_UNQUOTED_CUT", r"</|[,;](?=[ \t]*[\w.-]+[ \t]*[=:])|<(?=[A-Za-z/!?])"
)
_TYPE_THEN_ASSIGN: re.Pattern[str] = _lazy(
    "_TYPE_THEN_ASSIGN", r"[ \t]*(?:Optional\[)?[A-Za-z_][\w.\[\]|, ]{0,30}\]?[ \t]*=[ \t]*"
)


def _ident_words(ident: str) -> list[str]:
    return [w for w in _words(ident)]


def _vendor_of(ident: str, words: list[str]) -> str | None:
    """The vendor a key names, when one of its words starts with a vendor name."""
    joined = "".join(words)
    starts = set()
    i = 0
    for w in words:
        starts.add(i)
        i += len(w)
    eng = _engine()
    for m in eng.vendor_rx.finditer(joined):
        if m.start() not in starts:
            continue
        name = m.group()
        if name in R.CASE_SENSITIVE_VENDORS and not (
            name in ident or name.capitalize() in ident or name.upper() in ident
        ):
            continue
        return eng.vendor_of_name[name]
    return None


def _word_kind(w: str, prev: str) -> str | None:
    if w in R.PASSWORD_WORDS or w.endswith(("password", "passwd")):
        return "password"
    if w in R.SECRET_WORDS or w.endswith(_SECRET_SUFFIXES):
        return "token"
    if w == "pat" and prev:  # GITHUB_PAT, ado_pat (alone, "pat" is often a pattern)
        return "token"
    if w == "key" and prev in R.KEY_QUALIFIERS:
        return "token"
    if len(w) > 3 and w.endswith("key") and any(w[:-3].endswith(q) for q in _LONG_QUALIFIERS):
        return "token"  # apikey, secretkey, AccountKey written as one word
    return None


_SECRET_SUFFIXES = ("token", "secret", "apikey", "passphrase", "credential", "credentials")
_LONG_QUALIFIERS = tuple(q for q in R.KEY_QUALIFIERS if len(q) >= 3)


def _secret_kind(words: list[str]) -> str | None:
    """'password' or 'token' when a word of the key names a secret, None otherwise."""
    kind: str | None = None
    n = len(words)
    for i, w in enumerate(words):
        if w.isdigit():
            continue
        k = _word_kind(w, words[i - 1] if i else "")
        if k is None:
            continue
        if any(x in R.NEUTRAL_BEFORE for x in words[:i]):
            continue
        after = [x for x in words[i + 1 : n] if not x.isdigit()]
        if any(x in R.NEUTRAL_AFTER for x in after):
            continue
        if kind != "password":
            kind = k
    return kind


_QUERY_SECRETS = (["sig"], ["signature"], ["key"], ["code"], ["session"], ["sid"])
_CLASS_CACHE: dict[str, tuple[str, str | None, bool] | None] = {}


def _classify(ident: str) -> tuple[str, str | None, bool] | None:
    """(kind, vendor, the last word is the secret word) for a key, or None if it names no
    secret. Cached: the same keys recur all over a file."""
    if ident in _CLASS_CACHE:
        return _CLASS_CACHE[ident]
    words = _ident_words(ident)
    out: tuple[str, str | None, bool] | None = None
    if words:
        # `self.password.encode`, `config.api_key`: the last component is what is assigned
        tail = _ident_words(ident.rsplit(".", 1)[-1]) or words
        kind = _secret_kind(tail)
        vendor = _vendor_of(ident, words)
        if kind is not None or vendor is not None:
            last = tail[-1:] if not tail[-1].isdigit() else tail[-2:]
            last_is_secret = kind is not None and _secret_kind(last) is not None
            if kind is None:
                neutral = any(w in R.NEUTRAL_AFTER or w in R.NEUTRAL_BEFORE for w in words)
                kind = "vendor-strict" if neutral else "vendor"
            out = (kind, vendor, last_is_secret)
    if len(_CLASS_CACHE) > 8192:
        _CLASS_CACHE.clear()
    _CLASS_CACHE[ident] = out
    return out


def _assign(ctx: _Ctx, pos: int, kw: str) -> None:
    text = ctx.text
    if pos < ctx.ident_end:
        return  # inside a key already read
    t = _IDENT_TAIL.search(text, max(0, pos - _MAX_IDENT), pos)
    lft = t.start() if t else pos
    h = _IDENT_HEAD.match(text, pos)
    rgt = h.end() if h else pos
    ctx.ident_end = rgt
    if pos - lft >= _MAX_IDENT or rgt - pos >= _MAX_IDENT:
        return  # not an identifier (a long run of word characters)
    while rgt > pos and text[rgt - 1] in ".-":
        rgt -= 1
    if (lft, rgt) in ctx.idents:
        return
    ctx.idents.add((lft, rgt))
    raw = text[lft:rgt]
    is_flag = raw.startswith("--")
    ident = raw.lstrip("-.")
    if not ident:
        return
    cls = _classify(ident)
    if cls is None:
        # `?sig=…`, `&key=…`: in a query string these name credentials
        if not (lft > 0 and text[lft - 1] in "?&" and _words(ident)[-1:] in _QUERY_SECRETS):
            return
        cls = ("token", None, True)
    kind, vendor, last_is_secret = cls
    end = _read_value(ctx, lft, rgt, kind, vendor, is_flag, last_is_secret)
    if end > ctx.ident_end:
        ctx.ident_end = end  # keywords inside the value just read are not keys


def _read_value(
    ctx: _Ctx,
    lft: int,
    rgt: int,
    kind: str,
    vendor: str | None,
    is_flag: bool,
    last_is_secret: bool,
) -> int:
    """Read the value assigned to the key at [lft, rgt); record it if it is a secret. Returns
    the end of the text read (`rgt` when there is no assignment)."""
    text = ctx.text
    m = _AFTER.match(text, rgt)
    prose = False
    op = ""
    if m:
        op = m.group("op")
        if op == ">" and not (
            lft > 0 and text[lft - 1] == "<" and (lft < 2 or text[lft - 2] != "<")
        ):
            m = None
        elif op == ",":
            # `setProperty("KEY", "value")`, `getenv("KEY", "default")` or a CSV row; not an
            # argument list (`f(user, passwd, x=1)`) nor a list of strings
            if m.group("kq") is not None:
                q = lft - 1
                while q > 0 and text[q - 1] in " \t":
                    q -= 1
                if not (q > 0 and text[q - 1] == "("):
                    m = None
            elif not _looks_csv(text, lft):
                m = None
        elif op.startswith("value") and m.group("kq") is None:
            m = None  # `<add key="Password" value="…"/>` needs the quoted key
        elif op == "(" and not last_is_secret:
            m = None  # `password.encode(…)`, `LinearRegression(…)`: a call on something else
    if m is None:
        pm = _PROSE_OP.match(text, rgt)
        if pm:
            m, op, prose = pm, pm.group("op"), True
        elif is_flag:
            fm = _FLAG_OP.match(text, rgt)
            if not fm:
                return rgt
            m, op = fm, " "
        else:
            return rgt
    vpos = m.end()
    if op == ">":
        vpos = _XML_GAP.match(text, vpos).end()  # type: ignore[union-attr]
    elif op in (":", "=", "?=", ":=", "::=", ":::=", "+="):
        b = _YAML_BLOCK.match(text, vpos)
        if b:
            vpos = b.end()
    span = _value_span(text, vpos)
    if span is None:
        return rgt
    vs, ve, quoted = span
    value = text[vs:ve]
    # `token: str = "…"` (a type annotation, then the value)
    if op == ":" and not quoted and value in R.TYPE_WORDS:
        tm = _TYPE_THEN_ASSIGN.match(text, vpos)
        if tm:
            span = _value_span(text, tm.end())
            if span is None:
                return rgt
            vs, ve, quoted = span
            value = text[vs:ve]
    if not quoted:
        nxt = text[ve : ve + 1]
        if nxt in ("(", "["):
            return ve  # a call or an index: code, not a literal
        # connection strings: `Password=two words;`
        if nxt == " " and kind in ("password", "token") and op == "=":
            semi = text.find(";", ve, ve + 128)
            if (
                semi != -1
                and "\n" not in text[ve:semi]
                and "=" not in text[ve:semi]
                and '"' not in text[ve:semi]
            ):
                ve = semi
                value = text[vs:ve]
        while value and value[-1] in ".,:;!?)":
            ve -= 1
            value = value[:-1]
    if not value:
        return rgt
    if text.startswith(("...", "…", "..[", "[...", "<…"), ve):
        return ve  # an elided value in documentation: the real one is not here
    if prose and not (quoted or _classes(value) >= 3 or any(c.isdigit() for c in value)):
        return rgt
    if _is_secret_value(value, kind, vendor, quoted, prose):
        rule = (
            f"{vendor}-secret"
            if vendor
            else ("password" if kind == "password" else "generic-secret")
        )
        ctx.add(vs, ve, rule, _P_ASSIGN)
    return ve


def _looks_csv(text: str, lft: int) -> bool:
    """`name,value,` (a CSV row) rather than an argument list."""
    return lft == 0 or text[lft - 1] == "\n"


def _value_span(text: str, vpos: int) -> tuple[int, int, bool] | None:
    q = re.match(r"\\{0,3}[\"'`]", text[vpos : vpos + 4])
    if q:
        quote = q.group()
        vs = vpos + len(quote)
        end = text.find(quote, vs, vs + 1024)
        if end == -1:
            # an unterminated quote: take the token-looking run (a truncated line)
            u = _UNQUOTED.match(text, vs)
            if not u:
                return None
            return vs, u.end(), True
        if "\n" in text[vs:end]:
            return None
        return vs, end, True
    u = _UNQUOTED.match(text, vpos)
    if not u:
        return None
    end = u.end()
    cut = _UNQUOTED_CUT.search(text, vpos, end)
    if cut:
        end = cut.start()
    while end > vpos and text[end - 1] in ",;}":
        end -= 1
    return (vpos, end, False) if end > vpos else None


def _is_secret_value(value: str, kind: str, vendor: str | None, quoted: bool, prose: bool) -> bool:
    if MARKER_PREFIX in value or _sample(value):
        return False
    shape = _engine().vendor_shapes.get(vendor or "")
    if shape is not None and shape.fullmatch(value):
        return not _placeholder(value) and _entropy(value) >= 2.0
    if kind == "password":
        return _password_like(value, quoted) and not (prose and _wordy(value))
    if not quoted and _IDENTIFIER.fullmatch(value) and _wordy(value):
        return False
    if kind == "token":
        if _UUID_RX.fullmatch(value):
            return not _placeholder(value)
        return _token_like(value, 8 if vendor else 10, 2.5 if vendor else 2.75)
    if kind == "vendor":  # the key names a vendor but no secret: the value must look generated
        return "." not in value and _token_like(value, 14, 3.0) and not _wordy(value)
    return False  # vendor-strict: only the vendor's exact shapes


# "the staging db password for admin is x8!Kq2#m": a secret named a few words before its value,
# as people write it in a conversation (the claims this module protects come from transcripts)
_PROSE: re.Pattern[str] = _lazy(
    "_PROSE",
    r"(?i:pass(?:word|phrase|code)|token|secret|api key|access key)s?(?![A-Za-z])"
    r"[^\n.;:=`'\"]{0,40}?[ \t](?i:is|was|are|were)[ \t]+(?:now[ \t]+|still[ \t]+)?"
    r"(?P<q>[`'\"]?)(?P<s>[^\s`'\"]{4,128})",
)


def _prose(ctx: _Ctx, pos: int, kw: str) -> None:
    text = ctx.text
    if (pos > 0 and text[pos - 1].isalnum()) or ctx.seen("prose", pos):
        return
    m = _PROSE.match(text, pos)
    if not m:
        return
    ctx.mark("prose", m.end())
    v = m.group("s").rstrip(".,;:!?)")
    if not v or _wordy(v) or not (any(c.isdigit() for c in v) or _classes(v) >= 3):
        return
    ok = _password_like(v, True) if kw.startswith("pass") else _token_like(v, 12, 3.0)
    if ok:
        rule = "password" if kw.startswith("pass") else "generic-secret"
        ctx.add(m.start("s"), m.start("s") + len(v), rule, _P_ASSIGN)


# --------------------------------------------------------------------------------------------
# dedicated parsers

_PEM_BEGIN: re.Pattern[str] = _lazy(
    "_PEM_BEGIN", r"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----"
)
_PEM_END: re.Pattern[str] = _lazy(
    "_PEM_END", r"-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----"
)
_B64_RUN: re.Pattern[str] = _lazy(
    "_B64_RUN", r"(?:[A-Za-z0-9+/=]|\\[nr]|\s|[A-Za-z-]{1,40}: [^\n]{0,200}){0,100000}"
)


def _pem(ctx: _Ctx, pos: int, kw: str) -> None:
    text = ctx.text
    if ctx.seen("pem", pos):
        return
    m = _PEM_BEGIN.match(text, pos)
    if not m:
        return
    # the next END after this header: searched once, reused by the headers before it
    cached = ctx.pem_end
    if cached is None or cached[0] > m.end() or (cached[1] != -1 and cached[1] < m.end()):
        e = _PEM_END.search(text, m.end())
        cached = ctx.pem_end = (m.end(), e.start() if e else -1)
    end_at = cached[1]
    nxt = text.find("-----BEGIN", m.end(), end_at if end_at != -1 else len(text))
    if end_at != -1 and nxt == -1 and end_at - m.end() <= 200_000:
        e = _PEM_END.match(text, end_at)
        assert e is not None
        body, stop = text[m.end() : end_at], e.end()
    else:  # truncated (no END before the next header): the base64 that follows
        r = _B64_RUN.match(text, m.end())
        stop = r.end() if r else m.end()
        body = text[m.end() : stop]
    ctx.mark("pem", stop)
    body = body.replace("\\n", "").replace("\\r", "")
    if sum(1 for c in body if c.isalnum() or c in "+/") < 50:
        return  # `-----BEGIN PRIVATE KEY-----\nanything\n-----END…`: documentation
    ctx.add(m.start(), stop, "private-key", _P_SPECIAL)


_PUTTY: re.Pattern[str] = _lazy("_PUTTY", r"Private-Lines:[ \t]*(\d{1,3})\r?\n")


def _putty(ctx: _Ctx, pos: int, kw: str) -> None:
    text = ctx.text
    m = _PUTTY.search(text, pos, min(len(text), pos + 20_000))
    if not m:
        return
    n = int(m.group(1))
    stop = m.end()
    for _ in range(n):
        nl = text.find("\n", stop)
        stop = len(text) if nl == -1 else nl + 1
    ctx.add(m.end(), stop, "private-key", _P_SPECIAL)


_JWT: re.Pattern[str] = _lazy(
    "_JWT",
    r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,4000}\.ey[A-Za-z0-9_/\\-]{10,8000}(?:\.[A-Za-z0-9_/\\-]{8,2000}={0,2})?",
)


def _b64decode(s: str) -> bytes | None:
    import base64
    import binascii

    s = s.replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(s + "=" * (-len(s) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def _jsonish(b: bytes | None) -> bool:
    if not b or not b.startswith(b"{"):
        return False
    printable = sum(1 for c in b if 32 <= c < 127 or c in (9, 10, 13))
    return printable >= 0.7 * len(b)


def _jwt(ctx: _Ctx, pos: int, kw: str) -> None:
    text = ctx.text
    m = _JWT.match(text, pos)
    if not m:
        return
    head = m.group().split(".", 1)[0]
    if not _jsonish(_b64decode(head)):
        return
    ctx.add(m.start(), m.end(), "jwt", _P_SPECIAL)


_JWT_B64: re.Pattern[str] = _lazy(
    "_JWT_B64", r"(?<![A-Za-z0-9+/])ZXlK[A-Za-z0-9+/_-]{40,12000}={0,2}"
)


def _jwt_b64(ctx: _Ctx, pos: int, kw: str) -> None:
    m = _JWT_B64.match(ctx.text, pos)
    if not m:
        return
    raw = _b64decode(m.group().rstrip("="))
    if raw and re.match(rb"eyJ[A-Za-z0-9_-]{4,}\.ey[A-Za-z0-9_-]{10,}", raw):
        ctx.add(m.start(), m.end(), "jwt", _P_SPECIAL)


_AUTH: re.Pattern[str] = _lazy(
    "_AUTH",
    r"""(?i:authorization)\\{0,3}["']?[ \t]*[:=][ \t]*\\{0,3}["']?[ \t]*
        (?:(?P<scheme>[A-Za-z][A-Za-z0-9_-]{1,24})[ \t]+)?
        (?P<s>[A-Za-z0-9._~+/=:%-]{6,4096})""",
    re.X,
)


def _auth_header(ctx: _Ctx, pos: int, kw: str) -> None:
    if ctx.seen("auth", pos):
        return
    m = _AUTH.match(ctx.text, pos)
    if not m:
        return
    ctx.mark("auth", m.end())
    v = m.group("s").rstrip(".,:;")
    if not v or _placeholder(v) or len(v) < 8:
        return
    if ctx.text[m.end("s") : m.end("s") + 1] in ("(", "[") or (not m.group("scheme") and _wordy(v)):
        return  # `authorization = base64.decodebytes(…)`: code
    scheme = (m.group("scheme") or "").lower()
    if scheme == "basic":
        raw = _b64decode(v)
        if (raw is None or b":" not in raw) and _entropy(v) < 3.0:
            return
    elif _entropy(v) < 2.8 or (_wordy(v) and _classes(v) < 3):
        return
    ctx.add(m.start("s"), m.start("s") + len(v), "authorization-header", _P_SPECIAL)


_BEARER: re.Pattern[str] = _lazy(
    "_BEARER", r"(?<![A-Za-z0-9])(?i:bearer)[ \t]+(?P<s>[A-Za-z0-9._~+/=-]{16,4096})"
)


def _bearer(ctx: _Ctx, pos: int, kw: str) -> None:
    if ctx.seen("bearer", pos):
        return
    m = _BEARER.match(ctx.text, pos)
    if not m:
        return
    ctx.mark("bearer", m.end())
    v = m.group("s").rstrip(".")
    if _placeholder(v) or _wordy(v) or _entropy(v) < 3.0:
        return
    ctx.add(m.start("s"), m.start("s") + len(v), "authorization-header", _P_SPECIAL)


_CURL_USER: re.Pattern[str] = _lazy(
    "_CURL_USER",
    r"""(?:^|(?<=[ \t]))(?:-u|--user|--proxy-user|-U)(?:=|[ \t]+)(?P<c>(?:"[^"\n]{0,200}"|'[^'\n]{0,200}'|[^\s'"]){1,300})""",
)
_CURL_END: re.Pattern[str] = _lazy("_CURL_END", r"(?<!\\)\r?\n")
_CRED_PLACEHOLDERS = frozenset(
    {
        "pass",
        "password",
        "passwd",
        "pwd",
        "test",
        "token",
        "secret",
        "changeme",
        "changeit",
        "xxx",
        "yyy",
        "key",
        "apikey",
        "api_key",
        "pw",
        "user",
        "username",
    }
)


def _curl(ctx: _Ctx, pos: int, kw: str) -> None:
    text = ctx.text
    if ctx.seen("curl", pos) or (pos > 0 and (text[pos - 1].isalnum() or text[pos - 1] == "_")):
        return
    end_m = _CURL_END.search(text, pos, min(len(text), pos + 2000))
    end = end_m.start() if end_m else min(len(text), pos + 2000)
    ctx.mark("curl", end)
    for m in _CURL_USER.finditer(text, pos, end):
        raw = m.group("c")
        plain = raw.replace('"', "").replace("'", "")
        if ":" not in plain:
            continue
        # the first colon outside ${…} / $(…) / {{…}}
        depth, cut = 0, -1
        for i, ch in enumerate(raw):
            if ch in "{(":
                depth += 1
            elif ch in "})":
                depth = max(0, depth - 1)
            elif ch == ":" and depth == 0:
                cut = i
                break
        if cut == -1:
            continue
        pw_raw = raw[cut + 1 :]
        pw = pw_raw.strip("\"'")
        s, e = m.start("c") + cut + 1, m.end("c")
        if not pw:  # `-u KEY:` — an API key passed as the user name
            user = raw[:cut].strip("\"'{}")
            if (
                len(user) >= 12
                and _entropy(user) >= 3.0
                and not _placeholder(user)
                and not _wordy(user)
            ):
                s, e = m.start("c"), m.start("c") + cut
            else:
                continue
        else:
            inner = pw.strip("{}")
            if len(inner) < 3 or inner[0] in "$<[%*" or inner.lower() in _CRED_PLACEHOLDERS:
                continue
            if pw.startswith("{") and (_wordy(inner) or "." in inner or " " in inner):
                continue  # `{password}`, `{{ .Values.password }}`
            if _REPEAT.search(inner) or len(set(inner)) <= 2 or _placeholder(inner):
                continue
        while s < e and text[s] in "\"'":  # the quotes around the value stay
            s += 1
        while e > s and text[e - 1] in "\"'":
            e -= 1
        ctx.add(s, e, "curl-password", _P_SPECIAL)


_URI: re.Pattern[str] = _lazy(
    "_URI",
    r"""(?P<scheme>[A-Za-z][A-Za-z0-9+.-]{0,30})://(?P<user>[^\s:/@'"<>{}\[\]`]{0,128})
        (?::(?P<pw>[^\s@/'"<>{}\[\]`]{1,256}))?@(?P<host>[A-Za-z0-9_.-]{1,253}|\[[0-9a-fA-F:]{2,45}\])""",
    re.X,
)
_SCHEME_TAIL: re.Pattern[str] = _lazy("_SCHEME_TAIL", r"[A-Za-z][A-Za-z0-9+.-]{0,30}\Z")


def _uri(ctx: _Ctx, pos: int, kw: str) -> None:
    text = ctx.text
    t = _SCHEME_TAIL.search(text, max(0, pos - 31), pos)
    if not t:
        return
    m = _URI.match(text, t.start())
    if not m:
        return
    pw = m.group("pw")
    user = m.group("user")
    if pw is not None:
        if _placeholder(pw) or pw.lower() in _CRED_PLACEHOLDERS or pw[0] in "$<[{%*:":
            return
        if pw.isdigit() and len(pw) <= 5:
            return  # host:port, not a password
        ctx.add(m.start("pw"), m.end("pw"), "uri-password", _P_SPECIAL)
    elif user and len(user) >= 20 and _entropy(user) >= 3.5 and not _placeholder(user):
        ctx.add(m.start("user"), m.end("user"), "uri-credential", _P_SPECIAL)


_DSN_BACK: re.Pattern[str] = _lazy(
    "_DSN_BACK", r"(?<![\w/])[\w.-]{1,64}:(?P<pw>[^\s:@/'\"]{1,128})\Z"
)


def _go_dsn(ctx: _Ctx, pos: int, kw: str) -> None:
    m = _DSN_BACK.search(ctx.text, max(0, pos - 200), pos)
    if not m:
        return
    pw = m.group("pw")
    if _placeholder(pw) or pw.lower() in _CRED_PLACEHOLDERS:
        return
    ctx.add(m.start("pw"), m.end("pw"), "uri-password", _P_SPECIAL)


_SIG: re.Pattern[str] = _lazy("_SIG", r"(?i:sig|signature)=(?P<s>[A-Za-z0-9%+/=_-]{20,600})")


def _url_signature(ctx: _Ctx, pos: int, kw: str) -> None:
    text = ctx.text
    st = pos
    while (
        st > 0
        and text[st - 1] in "-_"
        or (
            st > 0
            and text[st - 1].isalnum()
            and text[st - 5 : st].lower().endswith(("x-amz", "amz-"))
        )
    ):
        st -= 1
    if st == 0 or text[st - 1] not in "?&;":
        return
    m = _SIG.match(text, pos)
    if m and _entropy(m.group("s")) >= 3.0:
        ctx.add(m.start("s"), m.end("s"), "url-signature", _P_SPECIAL)


# --------------------------------------------------------------------------------------------
# personal data

_FAKE_WORDS = frozenset({"fake", "example", "dummy", "sample", "placeholder", "test", "invalid"})
_LOCAL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-")
_DOMAIN: re.Pattern[str] = _lazy(
    "_DOMAIN",
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,8}(?P<tld>[A-Za-z]{2,24})(?![A-Za-z0-9-]|\.[A-Za-z0-9])",
)


def _email(ctx: _Ctx, pos: int, kw: str) -> None:
    text = ctx.text
    ls = pos
    while ls > 0 and pos - ls < 64 and text[ls - 1] in _LOCAL_CHARS:
        ls -= 1
    if ls == pos or pos - ls >= 64:
        return
    local = text[ls:pos]
    while local and local[0] in ".-+":
        local, ls = local[1:], ls + 1
    if not local or local.endswith("."):
        return
    if ls > 0 and text[ls - 1] in ":/\\@":
        return  # userinfo of a URI (`scheme://user:pass@host`) or a path
    d = _DOMAIN.match(text, pos + 1)
    if not d:
        return
    if d.group("tld").lower() in R.FILE_SUFFIXES:
        return  # `logo@2x.png`: a file name
    ll = local.lower()
    if ll in R.PLACEHOLDER_LOCALPARTS or ll.split("+", 1)[0] in R.PLACEHOLDER_LOCALPARTS:
        return
    if any(w in _FAKE_WORDS for w in re.split(r"[._+-]", ll)):
        return  # `james.fake@…`, `test.user@…`: says itself it is not a person's
    ctx.add(ls, d.end(), "email", _P_PII)


_HOME_USER = r"(?P<u>[^/\s'\"`:;,<>|*?\\{}()\[\]$%]{1,64})(?=[/\s'\"`:;,)\]}>]|\Z)"
_HOME_UNIX: re.Pattern[str] = _lazy("_HOME_UNIX", r"(?<![\w.~-])/(?:home|Users)/" + _HOME_USER)
_HOME_MNT: re.Pattern[str] = _lazy(
    "_HOME_MNT", r"(?<![\w.~-])/mnt/[a-zA-Z]/(?i:users)/" + _HOME_USER
)
_HOME_WIN: re.Pattern[str] = _lazy(
    "_HOME_WIN",
    r"(?<![A-Za-z0-9])[A-Za-z]:(?:\\\\|\\|/)(?i:users)(?:\\\\|\\|/)"
    r"(?P<u>[^/\s'\"`:;,<>|*?\\{}()\[\]$%]{1,64})(?=[\\/\s'\"`:;,)\]}>]|\Z)",
)
_HOME_SLUG: re.Pattern[str] = _lazy(
    "_HOME_SLUG",
    r"(?:(?<=[\s/\"'`=:(\[\\])|^|(?<=(?<![A-Za-z0-9])[A-Za-z]-))-(?:home|Users)-(?P<u>[A-Za-z0-9._]{1,64})(?=-)",
    re.M,
)
# keyword -> (pattern, offsets from the keyword where a match may start)
_HOME_BY_KEYWORD: dict[str, tuple[re.Pattern[str], tuple[int, ...]]] = {
    "/home/": (_HOME_UNIX, (0,)),
    "/users/": (_HOME_UNIX, (0,)),
    "/mnt/": (_HOME_MNT, (0,)),
    "\\users\\": (_HOME_WIN, (2, 3)),
    ":/users/": (_HOME_WIN, (1,)),
    "-home-": (_HOME_SLUG, (0,)),
    "-users-": (_HOME_SLUG, (0,)),
}


def _home(ctx: _Ctx, pos: int, kw: str) -> None:
    rx, offsets = _HOME_BY_KEYWORD[kw]
    for off in offsets:
        if pos - off < 0:
            continue
        m = rx.match(ctx.text, pos - off)
        if m:
            if not _non_personal_user(m.group("u")):
                ctx.add(m.start("u"), m.end("u"), "home-user", _P_PII)
            return


def _non_personal_user(u: str) -> bool:
    ul = u.lower()
    if (
        ul in R.NON_PERSONAL_USERS
        or u.startswith(("<", "$", "{", "%", "*", ".", "["))
        or MARKER_PREFIX in u
    ):
        return True
    return ul.startswith("redacted")


_ARN: re.Pattern[str] = _lazy("_ARN", r"arn:aws[\w-]{0,20}:[\w-]{1,40}:[\w-]{0,30}:(?P<s>\d{12}):")
_DOC_ACCOUNTS = frozenset(
    {"111122223333", "123456789012", "000000000000", "999999999999", "444455556666"}
)


def _arn(ctx: _Ctx, pos: int, kw: str) -> None:
    m = _ARN.match(ctx.text, pos)
    if m and m.group("s") not in _DOC_ACCOUNTS:
        ctx.add(m.start("s"), m.end("s"), "aws-account-id", _P_PII)


_AWS_ACCOUNT: re.Pattern[str] = _lazy(
    "_AWS_ACCOUNT",
    r"(?i:aws[_ .-]?account)[_ .-]?(?i:id|number|no)?\\{0,3}[\"']?[ \t]*[:=][ \t]*\\{0,3}[\"']?(?P<s>\d{12})(?!\d)",
)


def _aws_account(ctx: _Ctx, pos: int, kw: str) -> None:
    m = _AWS_ACCOUNT.match(ctx.text, pos)
    if m and m.group("s") not in _DOC_ACCOUNTS:
        ctx.add(m.start("s"), m.end("s"), "aws-account-id", _P_PII)


_K8S_KIND: re.Pattern[str] = _lazy(
    "_K8S_KIND", r"kind:[ \t]*[\"']?(?i:secret)[\"']?[ \t]*(?:#[^\n]*)?(?:\r?\n|\Z)"
)
_K8S_DATA_HEADER: re.Pattern[str] = _lazy("_K8S_DATA_HEADER", r"^[ \t]*data:[ \t]*$", re.M)
_K8S_DATA: re.Pattern[str] = _lazy(
    "_K8S_DATA",
    r"^(?P<ind>[ \t]+)[\w.-]+:[ \t]*(?:[|>][-+]?[ \t]*\r?\n[ \t]+)?[\"']?(?P<v>[A-Za-z0-9+/]{10,}={0,3})[\"']?[ \t]*$",
    re.M,
)


def _k8s_secret(ctx: _Ctx, pos: int, kw: str) -> None:
    text = ctx.text
    if ctx.seen("k8s", pos) or not _K8S_KIND.match(text, pos):
        return
    lo = max(0, pos - 5000)
    hi = min(len(text), pos + 5000)
    sep = text.rfind("\n---", lo, pos)
    lo = lo if sep == -1 else sep
    sep = text.find("\n---", pos, hi)
    hi = hi if sep == -1 else sep
    ctx.mark("k8s", hi)
    d = _K8S_DATA_HEADER.search(text, lo, hi)
    if not d:
        return
    for m in _K8S_DATA.finditer(text, d.end(), hi):
        if _entropy(m.group("v")) >= 2.5:
            ctx.add(m.start("v"), m.end("v"), "kubernetes-secret", _P_SPECIAL)


# phone numbers, card numbers, national ids. One pass finds runs of 7+ digits (at most two
# separators between digits); the precise patterns then run only inside those runs.
_DIGIT_RUN: re.Pattern[str] = _lazy("_DIGIT_RUN", r"\+?\d(?:[ .()/-]{0,2}\d){5,22}")
_UPPER: re.Pattern[str] = _lazy("_UPPER", r"[A-Z]{2}")
_PHONE_INTL: re.Pattern[str] = _lazy(
    "_PHONE_INTL", r"(?<![\w+/=.-])\+[1-9]\d{0,2}(?:[ .-]?\(?\d{1,5}\)?){1,6}(?![\w.-]?\d)"
)
_PHONE_NANP: re.Pattern[str] = _lazy(
    "_PHONE_NANP", r"(?<![\w+/=.:-])(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4}(?![\w.-]?\d)"
)
_PHONE_KW: re.Pattern[str] = _lazy(
    "_PHONE_KW",
    r"(?i:phone|tel|telephone|mobile|cell|fax|whatsapp|call me(?: at| on)?|text me(?: at)?)(?![A-Za-z])"
    r"[\w ]{0,12}?[:=#]?[ \t]*(?P<s>\(?\+?\d[\d ().-]{6,18}\d)(?![\w.-]?\d)",
)
_CARD: re.Pattern[str] = _lazy(
    "_CARD", r"(?<![\w.+/=-])(?:(?:\d{4}[ -]?){3}\d{1,7}|\d{4}[ -]\d{6}[ -]\d{4,5})(?![\w.-]?\d)"
)
_SSN: re.Pattern[str] = _lazy("_SSN", r"(?<![\w.+/=-])(?P<s>\d{3}-\d{2}-\d{4})(?![\w.-]?\d)")
_SSN_KW: re.Pattern[str] = _lazy(
    "_SSN_KW",
    r"(?i:ssn|social security(?: number| no\.?)?)(?![A-Za-z])[ \t]*[:=#]?[ \t]*(?P<s>\d{9}|\d{3}[ -]\d{2}[ -]\d{4})(?!\d)",
)
_AADHAAR: re.Pattern[str] = _lazy(
    "_AADHAAR", r"(?<![\w.+/=-])(?P<s>[2-9]\d{3}[ -]\d{4}[ -]\d{4})(?![\w.-]?\d)"
)
_NINO_SPACED: re.Pattern[str] = _lazy(
    "_NINO_SPACED",
    r"(?<![A-Za-z0-9])(?P<s>[A-CEGHJ-TW-Z][A-CEGHJ-TW-Z] \d{2} \d{2} \d{2} [A-D])(?![A-Za-z0-9])",
)
_NINO_KW: re.Pattern[str] = _lazy(
    "_NINO_KW",
    r"(?i:nino|national insurance(?: number| no\.?)?|ni number)(?![A-Za-z])[ \t]*[:=#]?[ \t]*"
    r"(?P<s>[A-CEGHJ-TW-Z][A-CEGHJ-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D])(?![A-Za-z0-9])",
)
_IBAN: re.Pattern[str] = _lazy(
    "_IBAN",
    r"(?<![A-Za-z0-9])(?P<s>[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?)(?![A-Za-z0-9])",
)
_DNI_KW: re.Pattern[str] = _lazy(
    "_DNI_KW",
    r"(?i:dni|nie|nif)(?![A-Za-z])[\w ]{0,12}?[:=#]?[ \t]*(?P<s>[XYZ]?\d{7,8}-?[A-Z])(?![A-Za-z0-9])",
)


def _digits(s: str) -> str:
    return "".join(c for c in s if c.isdigit())


def _luhn(num: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _card_brand(num: str) -> bool:
    n = len(num)
    if n < 13 or n > 19:
        return False
    p2, p4 = int(num[:2]), int(num[:4])
    if num[0] == "4":
        return n in (13, 16, 19)
    if 51 <= p2 <= 55 or 2221 <= p4 <= 2720:
        return n == 16
    if p2 in (34, 37):
        return n == 15
    if (
        num.startswith("6011")
        or num.startswith("65")
        or 644 <= int(num[:3]) <= 649
        or num.startswith("62")
    ):
        return 16 <= n <= 19
    if 3528 <= p4 <= 3589:
        return 16 <= n <= 19
    if p2 in (36, 38, 39) or 300 <= int(num[:3]) <= 305:
        return 14 <= n <= 19
    return False


def _phone_ok(s: str) -> bool:
    d = _digits(s)
    if not 8 <= len(d) <= 15 or len(set(d)) <= 2:
        return False
    groups = re.findall(r"\d+", s)
    if len(groups) >= 2 and len(groups[-1]) == 1:
        return False  # `+35236450.6`: a decimal number
    return not (len(groups) >= 3 and all(len(g) == 1 for g in groups[1:]))


def _ssn_ok(s: str) -> bool:
    d = _digits(s)
    area, group, serial = d[:3], d[3:5], d[5:]
    return not (area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000")


def _iban_ok(s: str) -> bool:
    v = s.replace(" ", "")
    if not 15 <= len(v) <= 34:
        return False
    r = v[4:] + v[:4]
    num = "".join(str(int(c, 36)) for c in r)
    return int(num) % 97 == 1


_VERHOEFF_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 2, 3, 4, 0, 6, 7, 8, 9, 5),
    (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7),
    (4, 0, 1, 2, 3, 9, 5, 6, 7, 8),
    (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2),
    (7, 6, 5, 9, 8, 2, 1, 0, 4, 3),
    (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_VERHOEFF_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 5, 7, 6, 2, 8, 3, 0, 9, 4),
    (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7),
    (9, 4, 5, 3, 1, 2, 6, 8, 7, 0),
    (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5),
    (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)


def _verhoeff(num: str) -> bool:
    c = 0
    for i, ch in enumerate(reversed(num)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][ord(ch) - 48]]
    return c == 0


def _dni_ok(s: str) -> bool:
    v = s.replace("-", "")
    body, letter = v[:-1], v[-1]
    body = body.replace("X", "0").replace("Y", "1").replace("Z", "2")
    if not body.isdigit():
        return False
    return "TRWAGMYFPDXBNJZSQVHLCKE"[int(body) % 23] == letter


def _pii_scans(ctx: _Ctx) -> None:
    text = ctx.text
    n = len(text)
    for run in _DIGIT_RUN.finditer(text):
        if run.end() < n and text[run.end()].isdigit():
            continue  # more than 23 digits: an id or a blob, not a number a person owns
        lo, hi = max(0, run.start() - 1), min(n, run.end() + 2)
        for rx in (_PHONE_INTL, _PHONE_NANP):
            for m in rx.finditer(text, lo, hi):
                if _phone_ok(m.group()):
                    ctx.add(m.start(), m.end(), "phone-number", _P_PII)
        for m in _CARD.finditer(text, lo, hi):
            num = _digits(m.group())
            if _card_brand(num) and _luhn(num) and len(set(num)) > 1:
                ctx.add(m.start(), m.end(), "card-number", _P_PII)
        for m in _SSN.finditer(text, lo, hi):
            if _ssn_ok(m.group("s")):
                ctx.add(m.start("s"), m.end("s"), "us-ssn", _P_PII)
        for m in _AADHAAR.finditer(text, lo, hi):
            if _verhoeff(_digits(m.group("s"))):
                ctx.add(m.start("s"), m.end("s"), "in-aadhaar", _P_PII)
        # IBAN and NINO start with letters: look for them just before the digits
        back = max(0, run.start() - 34)
        if _UPPER.search(text, back, run.start()):
            for iban in _IBAN.finditer(text, back, min(n, run.end() + 44)):
                if _iban_ok(iban.group("s")):
                    ctx.add(iban.start("s"), iban.end("s"), "iban", _P_PII)
            for nino in _NINO_SPACED.finditer(text, back, hi):
                if nino.group("s")[:2] not in _NINO_BAD:
                    ctx.add(nino.start("s"), nino.end("s"), "uk-nino", _P_PII)


_NINO_BAD = frozenset({"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"})


def _keyed_pii(rx: re.Pattern[str], rule: str, ok: Callable[[str], bool]) -> _Handler:
    """PII recognised by the word before it (`SSN: …`, `phone: …`, `DNI …`)."""

    def handler(ctx: _Ctx, pos: int, kw: str) -> None:
        text = ctx.text
        if pos > 0 and text[pos - 1].isalpha():
            return
        m = rx.match(text, pos)
        if m and ok(m.group("s")):
            ctx.add(m.start("s"), m.end("s"), rule, _P_PII)

    return handler


def _ssn_digits_ok(s: str) -> bool:
    return len(_digits(s)) == 9 and _ssn_ok(s)


def _nino_ok(s: str) -> bool:
    return s.replace(" ", "")[:2] not in _NINO_BAD
