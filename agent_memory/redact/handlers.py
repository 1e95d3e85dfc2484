"""Dedicated parsers of the redaction engine: vendor tokens, private keys (PEM blocks,
PuTTY files), JWTs (also base64-wrapped), Kubernetes Secret manifests, and secrets named in
prose ("the staging password is …"). Credentials of HTTP requests and URLs are in
agent_memory.redact.http, key = value assignments in agent_memory.redact.assign.

Each parser is a handler the engine calls at a keyword: `parser(ctx, pos, keyword)`.
"""

from __future__ import annotations

import re

from agent_memory.redact.context import (
    MARKER_PREFIX,
    P_ASSIGN,
    P_SPECIAL,
    P_TOKEN,
    Handler,
    ScanContext,
)
from agent_memory.redact.regex import LazyCompiler
from agent_memory.redact.values import (
    base64_bytes,
    char_classes,
    entropy,
    is_token_placeholder,
    is_true_placeholder,
    known_sample,
    password_like,
    token_like,
    wordy,
)

_lazy = LazyCompiler(globals())


def token_handler(rule: str, pattern: str, ent: float, offsets: tuple[int, ...]) -> Handler:
    """The parser of one row of R.TOKENS: a vendor's documented token format."""
    has_group = "(?P<s>" in pattern
    compiled: list[re.Pattern[str]] = []  # compiled on the first keyword hit: most never fire

    def handler(ctx: ScanContext, pos: int, kw: str) -> None:
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
                if known_sample(tok) or MARKER_PREFIX in tok:
                    return
            elif is_token_placeholder(tok, rule) or entropy(tok) < (
                min(ent, 2.0) if len(tok) >= 24 else ent
            ):
                return
            ctx.add(s, e, rule, P_TOKEN)
            return

    return handler


# `q=a+AKIA…+b`: an AWS access key id inside a form-encoded value, which writes each space as
# `+`. Its token rule (rules.TOKENS) refuses a key with a `+` on both sides, where the prefix
# could be met by chance in a base64 blob's run. Here the value is read whole instead: from just
# after `name=` to its end, in the form encoding's own alphabet (letters, digits, `*-._%` and the
# `+` of a space: it writes `/` and `=` as %2F and %3D), ending where no base64 run could go on,
# and no word of it a blob's long alphanumeric run.
_AWS_KEY: re.Pattern[str] = _lazy(r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?=\+)")
_FORM_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._%+")
_BASE64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-]")
_FORM_REACH = 400  # characters read either way from the key
_WORD = 32  # an alphanumeric word longer than this is a blob's run


def form_aws_key(ctx: ScanContext, pos: int, kw: str) -> None:
    text = ctx.text
    if pos < 3 or text[pos - 1] != "+":
        return
    m = _AWS_KEY.match(text, pos)
    if not m:
        return
    start = pos - 1
    while start > 0 and pos - start < _FORM_REACH and text[start - 1] in _FORM_CHARS:
        start -= 1
    # the value begins right after `name=`
    if start < 2 or text[start - 1] != "=" or text[start - 2] not in _NAME_CHARS:
        return
    end = m.end()
    while end < len(text) and end - m.end() < _FORM_REACH and text[end] in _FORM_CHARS:
        end += 1
    if end < len(text) and text[end] in _BASE64_CHARS:
        return  # a `/` or `=` (or a value longer than read): a base64 run could go on
    words = text[start:m.start()].split("+") + text[m.end():end].split("+")
    if any(len(w) > _WORD and w.isalnum() for w in words):
        return
    tok = m.group()
    if is_token_placeholder(tok, "aws-access-key") or entropy(tok) < 3.0:
        return
    ctx.add(m.start(), m.end(), "aws-access-key", P_TOKEN)


# "the staging db password for admin is x8!Kq2#m": a secret named a few words before its value,
# as people write it in a conversation (the claims this module protects come from transcripts).
# "My private key is sk_h1.…" was read by no rule: its value has no known token shape.
_PROSE: re.Pattern[str] = _lazy(
    r"(?i:pass(?:word|phrase|code)|token|secret|api key|access key|private key|credential)s?"
    r"(?![A-Za-z])"
    r"[^\n.;:=`'\"]{0,40}?[ \t](?i:is|was|are|were)[ \t]+(?:now[ \t]+|still[ \t]+)?"
    r"(?P<q>[`'\"]?)(?P<s>[^\s`'\"]{4,128})",
)


def prose_secret(ctx: ScanContext, pos: int, kw: str) -> None:
    if pos > 0 and ctx.text[pos - 1].isalnum():
        return
    m = ctx.match_unread("prose", _PROSE, pos)
    if not m:
        return
    v = m.group("s").rstrip(".,;:!?)")
    if not v or wordy(v) or not (any(c.isdigit() for c in v) or char_classes(v) >= 3):
        return
    ok = password_like(v, True) if kw.startswith("pass") else token_like(v, 12, 3.0)
    if ok:
        rule = "password" if kw.startswith("pass") else "generic-secret"
        ctx.add(m.start("s"), m.start("s") + len(v), rule, P_ASSIGN)


_PEM_BEGIN: re.Pattern[str] = _lazy(r"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END: re.Pattern[str] = _lazy(r"-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_B64_RUN: re.Pattern[str] = _lazy(
    r"(?:[A-Za-z0-9+/=]|\\[nr]|\s|[A-Za-z-]{1,40}: [^\n]{0,200}){0,100000}"
)


def pem_block(ctx: ScanContext, pos: int, kw: str) -> None:
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
    ctx.add(m.start(), stop, "private-key", P_SPECIAL)


_PUTTY: re.Pattern[str] = _lazy(r"Private-Lines:[ \t]*(\d{1,3})\r?\n")


def putty_key(ctx: ScanContext, pos: int, kw: str) -> None:
    text = ctx.text
    m = _PUTTY.search(text, pos, min(len(text), pos + 20_000))
    if not m:
        return
    n = int(m.group(1))
    stop = m.end()
    for _ in range(n):
        nl = text.find("\n", stop)
        stop = len(text) if nl == -1 else nl + 1
    ctx.add(m.end(), stop, "private-key", P_SPECIAL)


_JWT: re.Pattern[str] = _lazy(
    r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,4000}\.ey[A-Za-z0-9_/\\-]{10,8000}(?:\.[A-Za-z0-9_/\\-]{8,2000}={0,2})?",
)


def _jsonish(b: bytes | None) -> bool:
    """A JWT header: a JSON object (one that does not parse is a made-up look-alike)."""
    if not b or not b.startswith(b"{"):
        return False
    import json  # here, not at the top: the per-prompt hook imports this module

    try:
        return isinstance(json.loads(b), dict)
    except ValueError:
        return False
    except RecursionError:  # an object nested deeper than json's scanner recurses: JSON's shape
        return True


def jwt(ctx: ScanContext, pos: int, kw: str) -> None:
    text = ctx.text
    m = _JWT.match(text, pos)
    if not m:
        return
    head = m.group().split(".", 1)[0]
    if not _jsonish(base64_bytes(head)):
        return
    ctx.add(m.start(), m.end(), "jwt", P_SPECIAL)


_JWT_B64: re.Pattern[str] = _lazy(r"(?<![A-Za-z0-9+/])ZXlK[A-Za-z0-9+/_-]{40,12000}={0,2}")


def jwt_base64(ctx: ScanContext, pos: int, kw: str) -> None:
    m = _JWT_B64.match(ctx.text, pos)
    if not m:
        return
    raw = base64_bytes(m.group().rstrip("="))
    if raw and re.match(rb"eyJ[A-Za-z0-9_-]{4,}\.ey[A-Za-z0-9_-]{10,}", raw):
        ctx.add(m.start(), m.end(), "jwt", P_SPECIAL)


_K8S_KIND: re.Pattern[str] = _lazy(
    r"""kind["']?:[ \t]*["']?(?i:secret)["']?[ \t]*(?:#[^\n]*)?(?:,|\r?\n|\Z|[ \t]*\})"""
)
_K8S_DATA_HEADER: re.Pattern[str] = _lazy(
    r"""^(?P<ind>[ \t]*)(?P<k>data|stringData):[ \t]*(?:#[^\n]*)?$|["'](?P<jk>data|stringData)["'][ \t]*:[ \t]*\{""",
    re.M,
)
_K8S_ENTRY: re.Pattern[str] = _lazy(
    r"""^(?P<ind>[ \t]+)["']?[\w.-]+["']?:[ \t]*(?P<block>[|>][-+]?[ \t]*$)?(?P<q>["']?)(?P<v>[^\n]*?)(?P=q)[ \t]*(?:\#[^\n]*)?$""",
    re.M,
)
_K8S_JSON_ENTRY: re.Pattern[str] = _lazy(r"""["'][\w.-]+["'][ \t]*:[ \t]*["'](?P<v>[^"'\n]*)["']""")
_K8S_TEMPLATE: re.Pattern[str] = _lazy(r"\{\{.*\}\}|\$\{[^}]*\}|<[^<>]*>")


def kubernetes_secret(ctx: ScanContext, pos: int, kw: str) -> None:
    """A Kubernetes `Secret` manifest: every value under `data:` (base64) and `stringData:`
    (plain text), in YAML or JSON, multi-line block values whole. Only templates
    (`{{ .Values.x }}`, `${VAR}`, `<password>`) are kept."""
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
    for d in _K8S_DATA_HEADER.finditer(text, lo, hi):
        if d.group("jk"):
            close = text.find("}", d.end(), hi)
            stop = hi if close == -1 else close
            for j in _K8S_JSON_ENTRY.finditer(text, d.end(), stop):
                _k8s_value(ctx, j.start("v"), j.end("v"))
            continue
        ind = len(d.group("ind"))
        pos2 = d.end() + 1
        while pos2 < hi:
            m = _K8S_ENTRY.match(text, pos2, hi)
            if m is None or len(m.group("ind")) <= ind:
                break
            entry_ind = len(m.group("ind"))
            if m.group("block"):
                # a block scalar: the lines indented deeper than its key are the value
                start = m.end() + 1
                end = start
                while end < hi:
                    nl = text.find("\n", end, hi)
                    line_end = hi if nl == -1 else nl
                    line = text[end:line_end]
                    if line.strip() and len(line) - len(line.lstrip()) <= entry_ind:
                        break
                    end = line_end + 1
                body_end = min(end, hi)
                while body_end > start and text[body_end - 1] in "\r\n":
                    body_end -= 1
                _k8s_value(ctx, start, body_end, block=True)
                pos2 = end
                continue
            _k8s_value(ctx, m.start("v"), m.end("v"))
            pos2 = m.end() + 1


def _k8s_value(ctx: ScanContext, s: int, e: int, block: bool = False) -> None:
    v = ctx.text[s:e]
    if block:
        # the indentation of a block value is layout, not secret
        while s < e and ctx.text[s] in " \t":
            s += 1
        v = ctx.text[s:e]
    if not v.strip() or _K8S_TEMPLATE.fullmatch(v.strip()) or MARKER_PREFIX in v:
        return
    ctx.add(s, e, "kubernetes-secret", P_SPECIAL)


# Bundler keeps the credentials of a gem server in `BUNDLE_<HOST>` (dots as `__`, dashes as
# `___`): `BUNDLE_GEMS__EXAMPLE__COM=user:password`, for any host.
_BUNDLER: re.Pattern[str] = _lazy(
    r"""BUNDLE_(?:[A-Z0-9-]+__)+[A-Z]{2,12}["']?[ \t]*(?:=|:)[ \t]*["']?(?P<v>[^\s"';&|]{3,300})"""
)


def bundler_credentials(ctx: ScanContext, pos: int, kw: str) -> None:
    m = _BUNDLER.match(ctx.text, pos)
    if m is None or (pos > 0 and (ctx.text[pos - 1].isalnum() or ctx.text[pos - 1] == "_")):
        return
    v = m.group("v")
    secret = v.split(":", 1)[1] if ":" in v else v
    if len(secret) < 3 or is_true_placeholder(secret) or secret.startswith("$"):
        return
    ctx.add(m.start("v"), m.end("v"), "registry-credential", P_SPECIAL)
