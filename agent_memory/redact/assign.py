"""Secrets assigned to a key: `key = value` in the shapes of config files and source
code (INI, .env, JSON, YAML, XML, Go, Java, PHP, Makefile, CLI flags, HTTP headers, query
strings, connection strings).

The key's words say whether the value is a secret (`db_password`, `GITHUB_PAT`, a vendor's
name) or something about one (`password_length`, `csrf_token`); the value then has to look
real (agent_memory.redact.values).
"""

from __future__ import annotations

import functools
import re

from agent_memory.redact import rules as R
from agent_memory.redact.context import MARKER_PREFIX, P_ASSIGN, ScanContext
from agent_memory.redact.families import lookalike, near_miss
from agent_memory.redact.regex import LazyCompiler
from agent_memory.redact.values import (
    char_classes,
    code_reference,
    entropy,
    is_identifier,
    is_placeholder,
    is_true_placeholder,
    known_sample,
    password_like,
    split_words,
    strong_value,
    time_uuid,
    token_like,
    wordy,
)

_lazy = LazyCompiler(globals())

_IDENT_CHARS = r"A-Za-z0-9_.\-"
_MAX_IDENT = 80


def assignment_keywords(exclude: frozenset[str] = frozenset()) -> list[str]:
    """Where the parser starts: the key words, their qualified forms (`api_key`, `secret-key`;
    bare `key` is too frequent) and the vendor names (R.VENDORS)."""
    words = list(R.KEY_WORDS)
    for q in R.KEY_QUALIFIERS:
        for sep in ("", "_", "-", "."):
            words.append(f"{q}{sep}key")
    for rule, names in R.VENDORS:
        if f"{rule}-secret" not in exclude:
            words.extend(n.lower() for n in names)
    return words


_IDENT_TAIL: re.Pattern[str] = _lazy(r"[" + _IDENT_CHARS + r"]{0," + str(_MAX_IDENT) + r"}\Z")
_IDENT_HEAD: re.Pattern[str] = _lazy(r"[" + _IDENT_CHARS + r"]{0," + str(_MAX_IDENT) + r"}")
_AFTER: re.Pattern[str] = _lazy(
    r"""(?P<kq>\\{0,3}["'`])?\]?
        (?:[ \t]+(?:string|String|str|&str|char\*|const)\b)?
        [ \t]*
        (?P<op>:::=|::=|:=|\?\?=|\?=|\+=|\.=|\|\|=|=>|->|<-|={1,3}|:(?![:/\\])|,|\((?!\))|>|value[ \t]*=)
        [ \t]*""",
    re.X,
)
_PROSE_OP: re.Pattern[str] = _lazy(r"[ \t]+(?P<op>is|was|=|:)[ \t]+")
_FLAG_OP: re.Pattern[str] = _lazy(r"[ \t]+(?=[^\s-])")
_YAML_BLOCK: re.Pattern[str] = _lazy(r"[|>][-+]?[ \t]*\r?\n[ \t]+")
_XML_GAP: re.Pattern[str] = _lazy(r"\s{0,80}")
_UNQUOTED: re.Pattern[str] = _lazy(r"""[^\s'"`\\&>(){\[\]|]{1,512}""")
_UNQUOTED_CUT: re.Pattern[str] = _lazy(r"</|[,;](?=[ \t]*[\w.-]+[ \t]*[=:])|<(?=[A-Za-z/!?])")
_TYPE_THEN_ASSIGN: re.Pattern[str] = _lazy(
    r"[ \t]*(?:Optional\[)?[A-Za-z_][\w.\[\]|, ]{0,30}\]?[ \t]*=[ \t]*"
)
_UUID: re.Pattern[str] = _lazy(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)


_VENDOR_OF_NAME = {n: rule for rule, names in R.VENDORS for n in names}
# longest names first, so "sumologic" is not read as "sumo" + "logic"
_VENDOR_NAME: re.Pattern[str] = _lazy(
    lambda: "|".join(re.escape(n) for n in sorted(_VENDOR_OF_NAME, key=len, reverse=True))
)


def exclude_vendors(vendors: frozenset[str]) -> None:
    """Forget the names of `vendors` (their rules as R.VENDORS names them). Only for measuring
    how the generic rules do on vendors they were not written for (benchmarks/redaction.py)."""
    global _VENDOR_NAME
    _VENDOR_OF_NAME.clear()
    _VENDOR_OF_NAME.update(
        {n: rule for rule, names in R.VENDORS if rule not in vendors for n in names}
    )
    _VENDOR_NAME = re.compile(
        "|".join(re.escape(n) for n in sorted(_VENDOR_OF_NAME, key=len, reverse=True)) or "(?!)"
    )
    _CLASS_CACHE.clear()


@functools.cache
def _vendor_shape(vendor: str) -> re.Pattern[str] | None:
    """The exact format of the vendor's secrets, when it has one (R.VENDOR_SHAPES)."""
    source = R.VENDOR_SHAPES.get(vendor)
    return None if source is None else re.compile(source)


def _vendor_of(ident: str, words: list[str]) -> str | None:
    """The vendor a key names, when one of its words starts with a vendor name."""
    joined = "".join(words)
    starts = set()
    i = 0
    for w in words:
        starts.add(i)
        i += len(w)
    for m in _VENDOR_NAME.finditer(joined):
        if m.start() not in starts:
            continue
        name = m.group()
        if name in R.CASE_SENSITIVE_VENDORS and not (
            name in ident or name.capitalize() in ident or name.upper() in ident
        ):
            continue
        return _VENDOR_OF_NAME[name]
    return None


def _word_kind(w: str, prev: str) -> str | None:
    if w in R.PASSWORD_WORDS or w.endswith(("password", "passwd")):
        return "password"
    if w in R.SECRET_WORDS or w.endswith(R.SECRET_SUFFIXES):
        return "token"
    if w == "pat" and prev:  # GITHUB_PAT, ado_pat (alone, "pat" is often a pattern)
        return "token"
    if w == "key" and prev in R.KEY_QUALIFIERS:
        return "token"
    if len(w) > 3 and w.endswith("key") and any(w[:-3].endswith(q) for q in _LONG_QUALIFIERS):
        return "token"  # apikey, secretkey, AccountKey written as one word
    return None


_LONG_QUALIFIERS = tuple(q for q in R.KEY_QUALIFIERS if len(q) >= 3)


def _secret_kind(words: list[str]) -> str | None:
    """'password' or 'token' when a word of the key names a secret, 'key' when only a bare
    `key` does (`HEROKU_KEY`, `stripeKey`: a credential whose vendor we may not know), None
    otherwise. A word about the secret right before it (`csrf_token`, `max_tokens`,
    `public_api_key`) or anywhere after it (`token_length`) makes the key a name about a
    secret, not a secret."""
    kind: str | None = None
    n = len(words)
    last = n - 1 if not words[-1].isdigit() else n - 2
    for i, w in enumerate(words):
        if w.isdigit():
            continue
        k = _word_kind(w, words[i - 1] if i else "")
        if k is None and w == "key" and i == last and i > 0:
            k = "key"
        if k is None:
            continue
        # the words that qualify this one: the word before it, and for a qualified key the
        # word before the qualifier (`public` in `public_api_key`)
        before = words[max(0, i - 2) : i] if w == "key" and k == "token" else words[i - 1 : i]
        neutral = R.NEUTRAL_BEFORE if k != "key" else R.NEUTRAL_BEFORE | R.NEUTRAL_KEY_BEFORE
        if any(x in neutral for x in before) or any(x in R.NEGATING_BEFORE for x in words[:i]):
            continue
        if any(x in R.NEUTRAL_AFTER for x in words[i + 1 : n] if not x.isdigit()):
            continue
        if kind is None or kind == "key" or (kind == "token" and k == "password"):
            kind = k
    return kind


_QUERY_SECRETS = (["sig"], ["signature"], ["key"], ["code"], ["session"], ["sid"])
_CLASS_CACHE: dict[str, tuple[str, str | None, bool] | None] = {}


def _classify(ident: str) -> tuple[str, str | None, bool] | None:
    """(kind, vendor, the last word is the secret word) for a key, or None if it names no
    secret. Cached: the same keys recur all over a file."""
    if ident in _CLASS_CACHE:
        return _CLASS_CACHE[ident]
    words = split_words(ident)
    out: tuple[str, str | None, bool] | None = None
    if words:
        # `self.password.encode`, `config.api_key`: the last component is what is assigned
        tail = split_words(ident.rsplit(".", 1)[-1]) or words
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


def classify_key(ident: str) -> str | None:
    """'password', 'token', 'key', 'vendor' or 'vendor-strict' when the key `ident` names a
    credential, None when it names none or something about one (`csrf_token`)."""
    if not ident:
        return None
    cls = _classify(ident)
    return None if cls is None else cls[0]


def assignment(ctx: ScanContext, pos: int, kw: str) -> None:
    text = ctx.text
    if pos < ctx.ident_end:
        return  # inside a key already read
    if kw in ("_pat", "-pat") and ctx.low[pos + 4 : pos + 5].isalpha():
        return  # `_path`, `-pattern`: not a personal access token
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
        if not (lft > 0 and text[lft - 1] in "?&" and split_words(ident)[-1:] in _QUERY_SECRETS):
            return
        cls = ("token", None, True)
    kind, vendor, last_is_secret = cls
    end = _read_value(ctx, lft, rgt, kind, vendor, is_flag, last_is_secret)
    if end > ctx.ident_end:
        ctx.ident_end = end  # keywords inside the value just read are not keys


def _read_value(
    ctx: ScanContext,
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
    found = _operator(text, lft, rgt, is_flag, last_is_secret)
    if found is None:
        return rgt
    vpos, op, prose = found
    start = _value_start(text, lft, rgt, vpos, op)
    span = None if start is None else _typed_value_span(text, start, op)
    if span is None:
        return rgt
    vs, ve, quoted = span
    if _is_code(text, vs, ve, quoted):
        return ve
    if not quoted:
        ve = _unquoted_end(text, vs, ve, kind, op)
    value = text[vs:ve]
    if not value:
        return rgt
    if text.startswith(("...", "…", "..[", "[...", "<…"), ve):
        return ve  # an elided value in documentation: the real one is not here
    if prose and not (quoted or char_classes(value) >= 3 or any(c.isdigit() for c in value)):
        return rgt  # prose goes on after `password is` as often as a password does
    config_line = not quoted and _config_line(text, lft, ve)
    if _is_secret_value(value, kind, vendor, quoted, prose, config_line):
        ctx.add(vs, ve, _assign_rule(kind, vendor), P_ASSIGN)
    return ve


def _operator(
    text: str, lft: int, rgt: int, is_flag: bool, last_is_secret: bool
) -> tuple[int, str, bool] | None:
    """(where the value starts, the operator, whether it is prose's `is`/`was`) after the key
    at [lft, rgt); None when nothing assigns to it. A code operator is tried first, then
    prose (`password is …`), then, for a `--flag`, the blank before its argument."""
    m = _AFTER.match(text, rgt)
    if m and _operator_ok(text, lft, m, last_is_secret):
        return m.end(), m.group("op"), False
    pm = _PROSE_OP.match(text, rgt)
    if pm:
        return pm.end(), pm.group("op"), True
    if is_flag:
        fm = _FLAG_OP.match(text, rgt)
        if fm:
            return fm.end(), " ", False
    return None


def _operator_ok(text: str, lft: int, m: re.Match[str], last_is_secret: bool) -> bool:
    """Whether the operator _AFTER matched assigns to the key: the ambiguous ones (`>`, `,`,
    `value=`, `(`) do only in the shapes below."""
    op = m.group("op")
    if op == ">":
        # the key names an element: `<password>` (after `<<` it is a shift or a heredoc)
        return lft > 0 and text[lft - 1] == "<" and (lft < 2 or text[lft - 2] != "<")
    if op == ",":
        # `setProperty("KEY", "value")`, `getenv("KEY", "default")` or a CSV row; not an
        # argument list (`f(user, passwd, x=1)`) nor a list of strings
        if m.group("kq") is not None:
            return _first_argument(text, lft)
        return _looks_csv(text, lft)
    if op.startswith("value"):
        return m.group("kq") is not None  # `<add key="Password" value="…"/>` needs the quoted key
    if op == "(":
        return last_is_secret  # `password.encode(…)`, `LinearRegression(…)`: a call on something else
    return True


def _first_argument(text: str, lft: int) -> bool:
    """The quoted key starting at `lft` opens an argument list: `f("KEY", "value")` or a pair
    `("password", "value")`; the values that are names (`("github-token", "npm-token")`) are
    refused by the value tests."""
    q = lft - 1
    while q > 0 and text[q - 1] in " \t":
        q -= 1
    return q > 0 and text[q - 1] == "("


def _value_start(text: str, lft: int, rgt: int, vpos: int, op: str) -> int | None:
    """Where the value after the operator starts, past an XML element's blank or a YAML
    block scalar's indicator; None for an XML tag that no element closes."""
    if op == ">":
        # an element only when it closes (`<password>…</password>`); `<password>` alone is a
        # placeholder in a URL or a template
        close = text.find("</", vpos, vpos + 1200)
        if close == -1 or not text.startswith(text[lft:rgt], close + 2):
            return None
        return _XML_GAP.match(text, vpos).end()  # type: ignore[union-attr]
    if op in (":", "=", "?=", ":=", "::=", ":::=", "+="):
        b = _YAML_BLOCK.match(text, vpos)
        if b:
            return b.end()
    return vpos


def _typed_value_span(text: str, vpos: int, op: str) -> tuple[int, int, bool] | None:
    """_value_span, past a type annotation: `token: str = "…"`."""
    span = _value_span(text, vpos)
    if span is not None and op == ":" and not span[2] and text[span[0] : span[1]] in R.TYPE_WORDS:
        tm = _TYPE_THEN_ASSIGN.match(text, vpos)
        if tm:
            span = _value_span(text, tm.end())
    return span


def _is_code(text: str, vs: int, ve: int, quoted: bool) -> bool:
    """The value at [vs, ve) is code, not a literal: a name in backticks (`self.password` named
    in prose), or an unquoted name called or indexed."""
    if quoted:
        return vs > 0 and text[vs - 1] == "`" and code_reference(text[vs:ve])
    return text[ve : ve + 1] in ("(", "[")


def _unquoted_end(text: str, vs: int, ve: int, kind: str, op: str) -> int:
    """The end of an unquoted value at [vs, ve): a connection string's value runs on to its `;`
    (`Password=two words;`), and sentence punctuation after it is not the value."""
    if text[ve : ve + 1] == " " and kind in ("password", "token") and op == "=":
        semi = text.find(";", ve, ve + 128)
        if (
            semi != -1
            and "\n" not in text[ve:semi]
            and "=" not in text[ve:semi]
            and '"' not in text[ve:semi]
        ):
            ve = semi
    while ve > vs and text[ve - 1] in ".,:;!?)":
        ve -= 1
    return ve


def _assign_rule(kind: str, vendor: str | None) -> str:
    if vendor:
        return f"{vendor}-secret"
    return "password" if kind == "password" else "generic-secret"


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


_LINE_HEAD: re.Pattern[str] = _lazy(
    r"[ \t]*(?:export[ \t]+|set[ \t]+|-[ \t]+|ENV[ \t]+|ARG[ \t]+)?\Z"
)
_LINE_TAIL: re.Pattern[str] = _lazy(r"[ \t]*(?:[#;].*)?(?:\r?\n|\Z)")


def _config_line(text: str, lft: int, ve: int) -> bool:
    """`key: value` or `key=value` alone on its line (YAML, INI, .env, a Dockerfile ENV)."""
    nl = text.rfind("\n", 0, lft)
    return (
        _LINE_HEAD.match(text[nl + 1 : lft]) is not None and _LINE_TAIL.match(text, ve) is not None
    )


def _is_secret_value(
    value: str,
    kind: str,
    vendor: str | None,
    quoted: bool,
    prose: bool,
    config_line: bool = False,
) -> bool:
    if MARKER_PREFIX in value or known_sample(value):
        return False
    shape = _vendor_shape(vendor or "")
    if shape is not None and shape.fullmatch(value):
        return not is_placeholder(value) and entropy(value) >= 2.0
    if kind == "password":
        return password_like(value, quoted, config_line) and not (prose and wordy(value))
    if not quoted and is_identifier(value) and wordy(value) and not config_line:
        return False
    if lookalike(value) and kind in ("token", "key", "vendor"):
        # starts like a known family's token without being one: a look-alike, unless it is
        # the family's format but for a few characters (a mistyped or cut token)
        miss = near_miss(value)
        return miss is not None and entropy(value) >= miss[1] and not is_placeholder(value)
    if kind == "token":
        if _UUID.fullmatch(value):
            return not is_true_placeholder(value) and not time_uuid(value)
        return token_like(value, 8, 2.5, quoted)
    if kind in ("key", "vendor"):  # the key only hints at a secret: the value must look generated
        return strong_value(value)
    return False  # vendor-strict: only the vendor's exact shapes
