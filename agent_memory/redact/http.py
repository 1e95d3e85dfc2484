"""Credentials of HTTP requests and connection URLs: Authorization and Bearer
headers, `curl -u user:password`, URI userinfo (`scheme://user:password@host`), Go DSNs
(`user:password@tcp(host)`) and signed URLs (`?sig=…`, `X-Amz-Signature=…`).

Each parser is a handler the engine calls at a keyword: `parser(ctx, pos, keyword)`.
"""

from __future__ import annotations

import re

from agent_memory.redact import rules as R
from agent_memory.redact.context import P_SPECIAL, ScanContext
from agent_memory.redact.regex import LazyCompiler
from agent_memory.redact.values import (
    base64_bytes,
    char_classes,
    entropy,
    has_long_run,
    is_placeholder,
    wordy,
)

_lazy = LazyCompiler(globals())

_AUTH: re.Pattern[str] = _lazy(
    r"""(?i:authorization)\\{0,3}["']?[ \t]*[:=][ \t]*\\{0,3}["']?[ \t]*
        (?:(?P<scheme>[A-Za-z][A-Za-z0-9_-]{1,24})[ \t]+)?
        (?P<s>[A-Za-z0-9._~+/=:%-]{6,4096})""",
    re.X,
)


def authorization_header(ctx: ScanContext, pos: int, kw: str) -> None:
    m = ctx.match_unread("auth", _AUTH, pos)
    if not m:
        return
    v = m.group("s").rstrip(".,:;")
    if not v or is_placeholder(v) or len(v) < 8:
        return
    if ctx.text[m.end("s") : m.end("s") + 1] in ("(", "[") or (not m.group("scheme") and wordy(v)):
        return  # `authorization = base64.decodebytes(…)`: code
    scheme = (m.group("scheme") or "").lower()
    if scheme == "basic":
        raw = base64_bytes(v)
        if (raw is None or b":" not in raw) and entropy(v) < 3.0:
            return
    elif entropy(v) < 2.8 or (wordy(v) and char_classes(v) < 3):
        return
    ctx.add(m.start("s"), m.start("s") + len(v), "authorization-header", P_SPECIAL)


_BEARER: re.Pattern[str] = _lazy(
    r"(?<![A-Za-z0-9])(?i:bearer)[ \t]+(?P<s>[A-Za-z0-9._~+/=-]{16,4096})"
)


def bearer(ctx: ScanContext, pos: int, kw: str) -> None:
    m = ctx.match_unread("bearer", _BEARER, pos)
    if not m:
        return
    v = m.group("s").rstrip(".")
    if is_placeholder(v) or wordy(v) or entropy(v) < 3.0:
        return
    ctx.add(m.start("s"), m.start("s") + len(v), "authorization-header", P_SPECIAL)


_CURL_USER: re.Pattern[str] = _lazy(
    r"""(?:^|(?<=[ \t]))(?:-u|--user|--proxy-user|-U)(?:=|[ \t]+)(?P<c>(?:"[^"\n]{0,200}"|'[^'\n]{0,200}'|[^\s'"]){1,300})""",
)
_CURL_END: re.Pattern[str] = _lazy(r"(?<!\\)\r?\n")


def curl_user(ctx: ScanContext, pos: int, kw: str) -> None:
    text = ctx.text
    if ctx.seen("curl", pos) or (pos > 0 and (text[pos - 1].isalnum() or text[pos - 1] == "_")):
        return
    end_m = _CURL_END.search(text, pos, min(len(text), pos + 2000))
    end = end_m.start() if end_m else min(len(text), pos + 2000)
    ctx.mark("curl", end)
    for m in _CURL_USER.finditer(text, pos, end):
        found = _curl_secret(m)
        if found is None:
            continue
        s, e = found
        while s < e and text[s] in "\"'":  # the quotes around the value stay
            s += 1
        while e > s and text[e - 1] in "\"'":
            e -= 1
        ctx.add(s, e, "curl-password", P_SPECIAL)


def _curl_secret(m: re.Match[str]) -> tuple[int, int] | None:
    """The span of the secret in the credential of `-u user:password`: the password, or the
    user when the password is empty and the user is a key; None when it is a placeholder."""
    raw = m.group("c")
    plain = raw.replace('"', "").replace("'", "")
    if ":" not in plain:
        return None
    cut = _user_colon(raw)
    if cut == -1:
        return None
    pw = raw[cut + 1 :].strip("\"'")
    c = m.start("c")
    if not pw:  # `-u KEY:` — an API key passed as the user name
        return (c, c + cut) if _key_as_user(raw[:cut].strip("\"'{}")) else None
    return (c + cut + 1, m.end("c")) if _curl_password(pw) else None


def _user_colon(raw: str) -> int:
    """The first colon outside ${…} / $(…) / {{…}}, -1 when there is none: a colon inside
    them belongs to a template or a shell expansion, not the user:password split."""
    depth = 0
    for i, ch in enumerate(raw):
        if ch in "{(":
            depth += 1
        elif ch in "})":
            depth = max(0, depth - 1)
        elif ch == ":" and depth == 0:
            return i
    return -1


def _key_as_user(user: str) -> bool:
    """The user name of `-u KEY:` is an API key (long and random), not a name."""
    return len(user) >= 12 and entropy(user) >= 3.0 and not is_placeholder(user) and not wordy(user)


def _curl_password(pw: str) -> bool:
    """The password of `-u user:password` (quotes stripped) is one, not what stands for one."""
    inner = pw.strip("{}")
    if len(inner) < 3 or inner[0] in "$<[%*" or inner.lower() in R.CREDENTIAL_PLACEHOLDERS:
        return False
    if pw.startswith("{") and (wordy(inner) or "." in inner or " " in inner):
        return False  # `{password}`, `{{ .Values.password }}`
    return not (has_long_run(inner) or len(set(inner)) <= 2 or is_placeholder(inner))


def _placeholder_password(pw: str) -> bool:
    return is_placeholder(pw) or pw.lower() in R.CREDENTIAL_PLACEHOLDERS


_URI: re.Pattern[str] = _lazy(
    r"""(?P<scheme>[A-Za-z][A-Za-z0-9+.-]{0,30})://(?P<user>[^\s:/@'"<>{}\[\]`]{0,128})
        (?::(?P<pw>[^\s@/'"<>{}\[\]`]{1,256}))?@(?P<host>[A-Za-z0-9_.-]{1,253}|\[[0-9a-fA-F:]{2,45}\])""",
    re.X,
)
_SCHEME_TAIL: re.Pattern[str] = _lazy(r"[A-Za-z][A-Za-z0-9+.-]{0,30}\Z")


def uri_credentials(ctx: ScanContext, pos: int, kw: str) -> None:
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
        if _placeholder_password(pw) or pw[0] in "$<[{%*:":
            return
        if pw.isdigit() and len(pw) <= 5:
            return  # host:port, not a password
        ctx.add(m.start("pw"), m.end("pw"), "uri-password", P_SPECIAL)
    elif user and len(user) >= 20 and entropy(user) >= 3.5 and not is_placeholder(user):
        ctx.add(m.start("user"), m.end("user"), "uri-credential", P_SPECIAL)


_DSN_BACK: re.Pattern[str] = _lazy(r"(?<![\w/])[\w.-]{1,64}:(?P<pw>[^\s:@/'\"]{1,128})\Z")


def go_dsn(ctx: ScanContext, pos: int, kw: str) -> None:
    m = _DSN_BACK.search(ctx.text, max(0, pos - 200), pos)
    if not m:
        return
    pw = m.group("pw")
    if _placeholder_password(pw):
        return
    ctx.add(m.start("pw"), m.end("pw"), "uri-password", P_SPECIAL)


_SIG: re.Pattern[str] = _lazy(r"(?i:sig|signature)=(?P<s>[A-Za-z0-9%+/=_-]{20,600})")


def url_signature(ctx: ScanContext, pos: int, kw: str) -> None:
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
    if m and entropy(m.group("s")) >= 3.0:
        ctx.add(m.start("s"), m.end("s"), "url-signature", P_SPECIAL)
