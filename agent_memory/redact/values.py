"""Value judgements of the redaction rules: is this string random enough to be a secret, or a
placeholder, a template, an identifier, a word, a version number (false positives
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
    if v == 0 or v / len(w) > 0.75 or (len(w) >= 5 and v / len(w) < (0.2 if len(w) < 6 else 0.14)):
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
_SEQUENCE_5: re.Pattern[str] = _lazy(lambda: "(?=(" + _ngram_trie(5) + "))")
_SEQUENCE_7: re.Pattern[str] = _lazy(lambda: _ngram_trie(7))
_SEQUENCE_9: re.Pattern[str] = _lazy(lambda: _ngram_trie(9))


@_memo
def is_placeholder(value: str) -> bool:
    """Stands for a secret instead of being one: a template (`${TOKEN}`), a reference
    (`os.environ[…]`), filler (`xxxx`, `****`, `...`), a typed sequence or pattern,
    placeholder words. The strict test, for values no key vouches for."""
    if is_true_placeholder(value):
        return True
    v = value.strip()
    if any(len(set(c.group(1))) > 1 for c in _CHUNKS.finditer(v)):
        return True
    if _SEQUENCE_7.search(v.lower()):
        return True
    letters = [w for w in split_words(v) if not w.isdigit()]
    if letters and all(w in R.PLACEHOLDER_WORDS for w in letters):
        return True
    hits = sum(len(w) for w in letters if w in R.PLACEHOLDER_WORDS and len(w) >= 4)
    return hits >= 4 and hits >= 0.6 * sum(len(w) for w in letters)


@_memo
def is_true_placeholder(value: str) -> bool:
    """Only stands for a secret: a template or reference, filler (`xxxx`, `****`, `…`, one
    character over and over), a typed sequence that is the whole value (`123456789`,
    `abcdefgh`), or words that say so (`changeme`, `<your-token-here>`, `example`). The test
    for a value an explicit key (`password:`, `api_token =`) vouches for: there a weak or
    patterned value (`hunter2hunter2`, `abcd1234abcd1234`) is still somebody's secret."""
    v = value.strip()
    low = v.lower()
    if not v or MARKER_PREFIX.lower() in low:
        return True
    if _TEMPLATE.match(v) or _REFERENCE.search(v):
        return True
    if _filler(v, low):
        return True
    if len(v) >= 6 and _sequence_share(low) >= 0.75:
        return True
    # a typed run repeated (`1234-1234-1234`, `abcdabcdabcd`): the run is itself a sequence
    if any(_is_run(c.group(1).lower()) for c in _CHUNKS.finditer(v)):
        return True
    return _says_placeholder(v)


def _filler(v: str, low: str) -> bool:
    """`xxxx`, `****`, `...`, `…`, `••`, `example`, a trailing `..`, one character over and
    over (with little else), or a run of filler characters."""
    if (
        "xxxx" in low
        or "example" in low
        or "****" in v
        or "..." in v
        or "…" in v
        or "\u2022\u2022" in v
    ):
        return True
    if low.endswith(".."):
        return True
    return bool((_REPEAT.search(v) and entropy(v) < 3.0) or _FILLER.search(v))


def _says_placeholder(v: str) -> bool:
    """Its words say it stands for a value: one says it is fake, or all are placeholder words
    (`changeme`, `your-token-here`)."""
    letters = [w for w in split_words(v) if not w.isdigit()]
    if any(w in R.FAKE_VALUE_WORDS for w in letters):
        return True  # `a-fake-tooshort-key`, `not_a_real_secret`: says so itself
    return bool(letters) and all(w in R.TRUE_PLACEHOLDER_WORDS for w in letters)


def _is_run(chunk: str) -> bool:
    """`1234`, `abcd`, `wxyz`, `0000`: one step along the digits, the alphabet or the keyboard
    (or none), all the way."""
    if len(set(chunk)) == 1:
        return True
    return any(chunk in seq for seq in R.SEQUENCES)


def _sequence_share(low: str) -> float:
    """How much of `low` is covered by runs of 5+ characters in a row of the alphabet, the
    digits or the keyboard."""
    covered = [False] * len(low)
    for m in _SEQUENCE_5.finditer(low):  # overlapping 5-grams: their union is the runs
        for i in range(m.start(1), m.end(1)):
            covered[i] = True
    return sum(covered) / len(low) if low else 0.0


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


def code_reference(v: str, config_line: bool = False) -> bool:
    """An unquoted value that names something instead of being a literal: an environment
    variable (`AIRTABLE_TOKEN`), a dotted name (`config.api_key`, `self.password`), a name that
    contains a secret's word (`newPassword`, `user_token`), a word of code (`input`, `data`).
    Outside a config line (`key: value` alone on its line, as in YAML, INI, .env) any
    identifier made of words (`creationTimestamp`, `userInput`) is a name too; in a config
    line it is the value (`password: correcthorse`)."""
    if _IDENTIFIER.fullmatch(v) is None:
        return False
    if v.lower() in R.CODE_WORDS:
        return True
    if v.isupper() and "_" in v and not any(c.isdigit() for c in v):
        return True
    parts = re.split(r"\.|::|->", v)
    if len(parts) > 1:
        return all(wordy(p) or len(p) <= 3 for p in parts)
    words = split_words(v)
    if len(words) > 1 and any(w in R.SECRET_WORDS or w in R.PASSWORD_WORDS for w in words):
        return True
    return not config_line and wordy(v)


def _is_path(v: str) -> bool:
    return v.startswith(("/", "./", "../", "~/")) or re.match(r"[A-Za-z]:[\\/]", v) is not None


def token_like(value: str, min_len: int = 8, min_entropy: float = 2.5, quoted: bool = True) -> bool:
    """A credential value after a key that says it is one (`api_token`, `client_secret`):
    anything of a credential's shape that is not a placeholder, a name in code, a number, a
    version, a path or a URL. Low entropy alone does not clear it (an explicit key
    vouches for the value)."""
    v = value
    n = len(v)
    if n < min_len or n > 1000 or " " in v.strip():
        return False
    if is_true_placeholder(v) or "://" in v or _is_path(v):
        return False
    if not quoted and code_reference(v):
        return False
    if _NUMBERISH.fullmatch(v):
        # an id of 12+ digits is a credential's shape (client ids, account keys); shorter
        # numbers are counts, ports, dates and versions
        return v.isdigit() and n >= 12 and len(set(v)) >= 4
    if _ARTIFACT.fullmatch(v):
        return False  # `jjwt-jackson-0.11.2`: a package and its version
    if wordy(v):
        return False
    if _SEQUENCE_9.search(v.lower()):
        return False  # `…123456789…` typed into a token: a made-up value
    if tampered_hex(v):
        return False
    if n < 24 and any(w in R.SECRET_WORDS for w in split_words(v)):
        return False  # `npm-token`, `github_secret`: the name of one, not one
    if char_classes(v) < 2 and not (n >= 16 and _HEXISH.fullmatch(v)):
        return False
    return entropy(v) >= min_entropy


_HEXISH: re.Pattern[str] = _lazy(r"[0-9a-f]+|[0-9A-F]+")


def password_like(value: str, quoted: bool, config_line: bool = False) -> bool:
    """A password after a key that says it is one: whatever its entropy (`hunter2hunter2`,
    `admin`), unless it only stands for one (`changeme`, `<password>`, `${DB_PASS}`, `****`),
    names something in code (`newPassword`, `self.password`), is a type, a short number or a
    sentence."""
    v = value
    n = len(v)
    if n < 4 or n > 200:
        return False
    if is_true_placeholder(v) or "://" in v:
        return False
    if v.count(" ") >= 2:  # a sentence (validation message, prose), not a password
        return False
    if v.lower() in R.TYPE_WORDS or v in R.TYPE_WORDS:
        return False
    if not quoted and (code_reference(v, config_line) or _is_path(v)):
        return False
    if _NUMBERISH.fullmatch(v) and n < 6:
        return False  # a port, a length, a year
    if n < 6 and char_classes(v) < 2 and not quoted and not config_line:
        return False
    return len(set(v)) >= 3


_LEADING_LABEL: re.Pattern[str] = _lazy(r"[A-Za-z]{0,7}[g-zG-Z][A-Za-z]{0,7}(?=[0-9a-fA-F])")


def tampered_hex(v: str) -> bool:
    """Hex digits but for one to three other letters (`acdeFf05b1…`, `…bfe2R21`, a `G` in
    `d45b6G86…`): an edited hex token, a look-alike. A random token of letters and digits is
    never that close to hex."""
    if len(v) < 24 or not v.isalnum():
        return False
    # a label of letters first (`dapi…`, `SK…`) is the vendor's, not part of the hex
    m = _LEADING_LABEL.match(v)
    if m:
        v = v[m.end() :]
        if len(v) < 20:
            return False
    low = v.lower()
    odd = sum(1 for c in low if c not in "0123456789abcdef")
    if odd == 0:
        mixed = any(c.isupper() for c in v) and any(c.islower() for c in v)
        # lower-case hex with a stray capital or two (`acdeFf05…`)
        caps = sum(1 for c in v if c.isupper())
        return mixed and (caps <= 2 or caps >= len([c for c in v if c.isalpha()]) - 2)
    return odd <= 3


def time_uuid(v: str) -> bool:
    """A version-1 UUID stamped between 2000 and 2100 (`743b294a-cd03-11ec-…`): made of a
    clock and a network address, an identifier nobody issues as a secret. (A random value
    that happens to look like one: about 1 in 2,000.)"""
    if len(v) != 36 or v[14] != "1" or v[19].lower() not in "89ab" or not _UUID_SHAPE.fullmatch(v):
        return False
    t = int(v[15:18] + v[9:13] + v[0:8], 16)  # 100 ns ticks since 1582-10-15
    seconds = t / 1e7 - 12219292800  # to the Unix epoch
    return 946684800 <= seconds <= 4102444800


def strong_value(v: str, min_len: int = 20, explicit: bool = False) -> bool:
    """Looks generated whatever names it: a UUID, whole bytes of hex (32+ digits, 16+ after
    a credential word), or a random run of `min_len`+ letters and digits. The test for a
    value whose key only hints at a secret (`HEROKU_KEY`, a vendor's name) and for tokens no
    key names. With `explicit` (a credential word vouches for the value) only true
    placeholders are refused, patterned values are not."""
    n = len(v)
    if n < min_len or n > 4000 or "://" in v or _is_path(v):
        return False
    if (is_true_placeholder(v) if explicit else is_placeholder(v)) or known_sample(v):
        return False
    if _UUID_SHAPE.fullmatch(v):
        return not time_uuid(v)
    if _HEXISH.fullmatch(v):
        return n >= (16 if min_len < 20 else 32) and entropy(v) >= 3.0
    if tampered_hex(v):
        return False
    core = v.strip("=")  # base64 padding
    return not _written(v, core) and _random_run(core)


def _written(v: str, core: str) -> bool:
    """Made by a person, not a generator: words, a package and its version, a number, or
    words and a date (`mid-conversation-tool-changes-2026-07-01`)."""
    if wordy(core) or _ARTIFACT.fullmatch(v) or _NUMBERISH.fullmatch(v):
        return True
    return bool(_DATEISH.search(core) and wordy(_DATEISH.sub("", core)))


def _random_run(core: str) -> bool:
    """Letters and digits (80 %+), with digits or both cases, not digits alone, and about the
    entropy of a random string of its length."""
    alnum = sum(c.isalnum() for c in core)
    if alnum < 0.8 * len(core):
        return False
    digits = sum(c.isdigit() for c in core)
    if digits == 0 and not (any(c.isupper() for c in core) and any(c.islower() for c in core)):
        return False
    if digits == len(core):
        return False
    return entropy(core) >= min(3.6, 0.78 * math.log2(len(core)))


_DATEISH: re.Pattern[str] = _lazy(r"(?<!\d)(?:19|20)\d\d[-_.]?[01]\d[-_.]?[0-3]\d(?!\d)")
_UUID_SHAPE: re.Pattern[str] = _lazy(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)


_TOKEN_FILLER: re.Pattern[str] = _lazy(r"[xX]{4}|\*{3}|#{3}|\.{3}|…|(\d{2,6})\1{2}|(.)\2{7}")


_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def checksum_ok(tok: str) -> bool:
    """GitHub's and npm's token formats end in a checksum: the CRC32 of the 30 random
    characters, in base62, six digits. A match (1 in 57 billion by chance) proves an issued
    token even when it looks typed."""
    import zlib  # here, not at the top: the per-prompt hook imports this module

    prefix, _, body = tok.partition("_")
    if len(body) != 36 or not body.isalnum():
        return False
    n = zlib.crc32(body[:30].encode())
    digits = ""
    for _ in range(6):
        n, r = divmod(n, 62)
        digits = _BASE62[r] + digits
    return digits == body[30:]


def is_token_placeholder(tok: str, rule: str) -> bool:
    """A vendor-shaped string that is visibly a placeholder: `ghp_xxxx…`, `GR1348941123123…`,
    runs of one character, documented sample keys. (A long structured token is otherwise
    taken as real even with little entropy: the prefix and length already say what it is.)"""
    if known_sample(tok) or MARKER_PREFIX in tok:
        return True
    if rule in ("github-token", "npm-token") and checksum_ok(tok):
        return False  # the CRC32 tail matches: issued by GitHub / npm, whatever it looks like
    if rule == "aws-access-key" and tok.endswith("EXAMPLE"):
        return True
    if rule == "openai-key" and "BlbkFJ" in tok and "T3BlbkFJ" not in tok:
        return True  # OpenAI keys carry `T3BlbkFJ` (base64 of "OpenAI"): an edited copy
    m = _TOKEN_FILLER.search(tok)
    if m and not (rule == "twitter-bearer-token" and m.group(2) == "A"):
        return True
    if rule in R.WORD_PREFIX_RULES and wordy(tok):
        return True  # `test_` + a long test name is not a Chargebee key
    low = tok.lower()
    return _SEQUENCE_9.search(low) is not None
