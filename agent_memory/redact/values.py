"""Value judgements of the redaction rules: is this string random enough to be a secret, or a
placeholder, a template, an identifier, a word, a version number (spec §6: false positives
cost a claim, so a value must also *look* generated)?

Pure functions of a value; the two that every rule asks (`wordy`, `is_placeholder`) are
memoised, since repetitive input (logs, generated files) repeats its values.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from agent_memory.redact import rules as R
from agent_memory.redact.context import MARKER_PREFIX
from agent_memory.redact.regex import LazyCompiler, trie

_lazy = LazyCompiler(globals())


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


def entropy(s: str) -> float:
    if not s:
        return 0.0
    counts: dict[str, int] = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def known_sample(tok: str) -> bool:
    """A published sample key (vendor docs, SDK demos): known by hash, never stored in clear."""
    import hashlib  # here, not at the top: the module is imported by the per-prompt hook

    return hashlib.sha256(tok.encode("utf-8", "replace")).hexdigest()[:16] in R.KNOWN_SAMPLE_HASHES


_CASE_SPLIT: re.Pattern[str] = _lazy(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_VOWELS = frozenset("aeiouy")


def split_words(s: str) -> list[str]:
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


_INTERLEAVED: re.Pattern[str] = _lazy(r"[A-Za-z]\d+(?=[A-Za-z])")


@_memo
def wordy(value: str) -> bool:
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
    r"""^(?:\$\{.*\}|\$\(.*\)|\$[A-Za-z_][\w.]*|\{\{.*\}\}|\{%.*%\}|<%.*%>|<[^<>]*>|\[[^\[\]]*\]
       |%\(?[A-Za-z_]\w*\)?[sd]?%?|%[sdr]|@[A-Za-z_]\w*@|\#\{.*\}|\{[A-Za-z_0-9]*\})$""",
    re.X | re.S,
)
_REFERENCE: re.Pattern[str] = _lazy(
    r"(?i)(?:process\.env|os\.environ|getenv|\benv\[|ENV\[|secrets\.|vault:|op://|\bref\+|"
    r"arn:aws:secretsmanager|keyvault|\$\{|\{\{|\$\(|<%=|#\{)",
)
_IDENTIFIER: re.Pattern[str] = _lazy(
    r"[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|->)[A-Za-z_$][A-Za-z0-9_$]*)*"
)
_NUMBERISH: re.Pattern[str] = _lazy(
    r"[+-]?\d[\d.,:_ -]*[A-Za-z]{0,3}|v?\d+(?:\.\d+){1,3}(?:[-+.][\w.]+)?|0x[0-9a-fA-F]+",
)
_ARTIFACT: re.Pattern[str] = _lazy(
    r"[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z][A-Za-z0-9]*)*[-_.@:]v?\d+(?:\.\d+){1,3}(?:[-.+][A-Za-z0-9.]+)?",
)
_REPEAT: re.Pattern[str] = _lazy(r"(.)\1{5,}")
_FILLER: re.Pattern[str] = _lazy(r"([^A-Za-z1-9])\1{5,}|([xX*#_.-])\2{3,}")
_CHUNKS: re.Pattern[str] = _lazy(r"([A-Za-z0-9]{4,8})[-_.:/]?\1[-_.:/]?\1")


def _ngram_trie(n: int) -> str:
    grams = {q[i : i + n] for q in R.SEQUENCES for i in range(len(q) - n + 1)}
    return trie(sorted(grams))


# n characters in a row of the alphabet, the digits or the keyboard: typed, not generated
_SEQUENCE_7: re.Pattern[str] = _lazy(lambda: _ngram_trie(7))
_SEQUENCE_9: re.Pattern[str] = _lazy(lambda: _ngram_trie(9))


@_memo
def is_placeholder(value: str) -> bool:
    """Stands for a secret instead of being one: a template (`${TOKEN}`), a reference
    (`os.environ[…]`), filler (`xxxx`, `****`, `...`), a typed sequence, placeholder words."""
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
    if (_REPEAT.search(v) and entropy(v) < 3.0) or _FILLER.search(v):
        return True
    if any(len(set(c.group(1))) > 1 for c in _CHUNKS.finditer(v)):
        return True
    if _SEQUENCE_7.search(low):
        return True
    words = split_words(v)
    letters = [w for w in words if not w.isdigit()]
    if letters and all(w in R.PLACEHOLDER_WORDS for w in letters):
        return True
    hits = sum(len(w) for w in letters if w in R.PLACEHOLDER_WORDS and len(w) >= 4)
    return hits >= 4 and hits >= 0.6 * sum(len(w) for w in letters)


def base64_bytes(s: str) -> bytes | None:
    """What a base64 or base64url value decodes to (padding optional), None if it is not one."""
    import base64  # here, not at the top: the module is imported by the per-prompt hook
    import binascii

    s = s.replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(s + "=" * (-len(s) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def is_identifier(v: str) -> bool:
    """A name in code (`config.api_key`, `Foo::BAR`), as opposed to a literal."""
    return _IDENTIFIER.fullmatch(v) is not None


def has_long_run(v: str) -> bool:
    """One character six times in a row."""
    return _REPEAT.search(v) is not None


def char_classes(v: str) -> int:
    return (
        any(c.islower() for c in v)
        + any(c.isupper() for c in v)
        + any(c.isdigit() for c in v)
        + any(not c.isalnum() for c in v)
    )


def token_like(value: str, min_len: int, min_entropy: float) -> bool:
    """A random-looking credential value (after the key already said it is a secret)."""
    v = value
    if len(v) < min_len or len(v) > 1000 or " " in v.strip():
        return False
    if is_placeholder(v) or wordy(v) or "://" in v:
        return False
    if _NUMBERISH.fullmatch(v) and not (v.isdigit() and len(v) >= 12):
        return False
    if _ARTIFACT.fullmatch(v):
        return False  # `jjwt-jackson-0.11.2`: a package and its version
    if v.startswith(("/", "./", "../", "~/")) or re.match(r"[A-Za-z]:[\\/]", v):
        return False
    if char_classes(v) < 2 and not (v.isdigit() and len(v) >= 12):
        return False
    return entropy(v) >= min_entropy


def password_like(value: str, quoted: bool) -> bool:
    v = value
    if len(v) < 4 or len(v) > 200:
        return False
    if is_placeholder(v) or "://" in v:
        return False
    if v.count(" ") >= 2:  # a sentence (validation message, prose), not a password
        return False
    if v.lower() in R.TYPE_WORDS or v in R.TYPE_WORDS:
        return False
    if not quoted and _IDENTIFIER.fullmatch(v) and (wordy(v) or "." in v or "_" in v):
        return False
    if _NUMBERISH.fullmatch(v) and len(v) < 8:
        return False
    if len(v) < 6 and char_classes(v) < 3:
        return False
    if char_classes(v) < 2 and (len(v) < 12 or wordy(v)):
        return False
    if wordy(v) and " " not in v and char_classes(v) < 3 and not any(c.isdigit() for c in v):
        return False
    return entropy(v) >= 2.0


_TOKEN_FILLER: re.Pattern[str] = _lazy(r"[xX]{4}|\*{3}|#{3}|\.{3}|…|(\d{2,6})\1{2}|(.)\2{7}")


def is_token_placeholder(tok: str, rule: str) -> bool:
    """A vendor-shaped string that is visibly a placeholder: `ghp_xxxx…`, `GR1348941123123…`,
    runs of one character, documented sample keys. (A long structured token is otherwise
    taken as real even with little entropy: the prefix and length already say what it is.)"""
    if known_sample(tok) or MARKER_PREFIX in tok:
        return True
    if rule == "aws-access-key" and tok.endswith("EXAMPLE"):
        return True
    m = _TOKEN_FILLER.search(tok)
    if m and not (rule == "twitter-bearer-token" and m.group(2) == "A"):
        return True
    if rule in R.WORD_PREFIX_RULES and wordy(tok):
        return True  # `test_` + a long test name is not a Chargebee key
    low = tok.lower()
    return _SEQUENCE_9.search(low) is not None
