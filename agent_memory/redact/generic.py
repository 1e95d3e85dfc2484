"""Credentials no vendor rule names, judged by their shape, their context and their
character statistics together — so that a vendor nobody wrote a rule for is still covered.

- Prefixed tokens (`abc_live_8f3K…`, `xyz-9a8b…`, `vnd.AbC9…`): a short label, a separator and
  a random body. Most vendors issue tokens of this shape; the label differs, the shape does
  not. Without a credential word near it the body must be long (24+) and random; with one
  (`…Token = "…"`, `--api-key …`) shorter bodies count. Identifiers of well-known APIs that
  share the shape but are no secret (`toolu_…`, `msg_…`, `cus_…`, hash names) are left alone,
  and so is a value that starts like a known family's token without being one
  (agent_memory.redact.families).
- A self-declared key (`AGE-SECRET-KEY-1…`, `…-PRIVATE-KEY-…`): the value says what it is.
- A credential word followed, within a few words on the same line, by a value of a
  credential's shape (`-ClientSecret '…'`, `token for staging 3f9a…`, `API key abc…`): a UUID,
  whole bytes of hex, a random run of 20+ characters, a prefixed token. Words such as `sha`,
  `commit`, `id` in between say the value is something else.

One regex pass finds the candidate runs (also used for base64, agent_memory.redact.encoded);
the judgement is Python, only on runs that survive cheap tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agent_memory.redact import rules as R
from agent_memory.redact.assign import classify_key
from agent_memory.redact.context import P_ASSIGN, P_SPECIAL, ScanContext
from agent_memory.redact.encoded import Judge, base64_text
from agent_memory.redact.families import classify, lookalike
from agent_memory.redact.regex import LazyCompiler
from agent_memory.redact.values import (
    is_true_placeholder,
    strong_value,
    wordy,
)

_lazy = LazyCompiler(globals())

# a run of token characters, not inside a longer one, not right after a path separator
_RUN: re.Pattern[str] = _lazy(r"[A-Za-z0-9][A-Za-z0-9_+/.~=-]{15,6000}")
_SEP = "_.~-"
_SELF_DECLARED: re.Pattern[str] = _lazy(
    r"(?:[A-Z0-9]{2,12}-)?(?:SECRET|PRIVATE)[-_]KEY[-_](?P<b>[A-Z0-9]{20,200})"
)
_CREDENTIAL_WORD: re.Pattern[str] = _lazy(
    r"(?i:token|secret|passw|pwd|api[-_ ]?key|access[-_ ]?key|credential|bearer|auth)"
)


def scan_runs(ctx: ScanContext, depth: int, judge: Judge) -> None:
    """Prefixed tokens, self-declared keys and base64-encoded secrets anywhere in the text."""
    text = ctx.text
    n = len(text)
    has_digit = _DIGIT.search
    for m in _RUN.finditer(text):
        s = m.start()
        e = m.end()
        # a whole run only: not the tail of a path or a longer run (checked here, not by
        # look-arounds in the pattern, which would halve the speed of the search)
        if s and text[s - 1] in _RUN_CHARS or e < n and text[e] in _RUN_CHARS:
            continue
        run = m.group()
        # identifiers and dotted names: one case of letters, no digit (cheap C-level tests)
        if (run.islower() or run.isupper()) and has_digit(run) is None:
            continue
        if "=" in run.rstrip("="):
            # `KEY=value`: each side on its own (`=` inside base64, `…fQ=_x`, stays)
            pos = s
            for part in _ASSIGN_SPLIT.split(run):
                _judge_run(ctx, pos, pos + len(part), depth, judge)
                pos += len(part) + 1
        else:
            _judge_run(ctx, s, e, depth, judge)


def _judge_run(ctx: ScanContext, s: int, e: int, depth: int, judge: Judge) -> None:
    text = ctx.text
    while e > s and text[e - 1] in ".-_~":
        e -= 1
    if e - s < 16:
        return
    run = text[s:e]
    if e < len(text) and text[e] == "(" or _elided(text, e):
        return  # a call, or an example cut short (`ops_eyJzaWdu…`)
    hit = _prefixed(run, lambda: _keyword_near(ctx.low, s))
    if hit is not None:
        a, b, rule = hit
        ctx.add(s + a, s + b, rule, P_ASSIGN)
        return
    if "_" not in run and "." not in run and "~" not in run:
        _encoded(ctx, s, e, run, depth, judge)


_ASSIGN_SPLIT: re.Pattern[str] = _lazy(r"=(?=[A-Za-z0-9])")
_RUN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/.~=-\\")
_DIGIT: re.Pattern[str] = _lazy(r"\d")


def _encoded(ctx: ScanContext, s: int, e: int, run: str, depth: int, judge: Judge) -> None:
    from agent_memory.redact.encoded import MAX_DEPTH

    if depth >= MAX_DEPTH or run.islower() or run.isupper() or run.isdigit():
        return
    decoded = base64_text(run)
    if decoded is not None and decoded != run and judge(decoded, depth + 1):
        ctx.add(s, e, "encoded-secret", P_SPECIAL)


def _elided(text: str, e: int) -> bool:
    return text.startswith(("..", "…", "[...", "<…"), e)


def _keyword_near(low: str, pos: int) -> bool:
    """A credential word in the 60 characters before `pos`, on the same line."""
    lo = max(0, pos - 60)
    nl = low.rfind("\n", lo, pos)
    return _CREDENTIAL_WORD.search(low, nl + 1 if nl != -1 else lo, pos) is not None


def _prefixed(run: str, keyword: Callable[[], bool]) -> tuple[int, int, str] | None:
    """(start, end, rule) of the secret in `run` when it is a prefixed token or a self-declared
    key, None otherwise."""
    if "KEY" in run:
        sd = _SELF_DECLARED.match(run)
        if sd is not None:
            body = sd.group("b")
            if not is_true_placeholder(body) or len(set(body)) > 1:
                return 0, len(run), "prefixed-token"
    # the label: up to four short segments, starting with a letter, then a separator
    if not run[0].isalpha() or _LABEL_SEP.search(run, 1, 26) is None:
        return None
    if classify(run) is not None:
        return None  # a known family: its own rule decides, or a look-alike
    pos = 0
    for _ in range(4):
        cut = -1
        for i in range(pos, min(len(run), pos + 13)):
            if run[i] in _SEP:
                cut = i
                break
        if cut <= pos:
            return None
        label = run[:cut]
        body = run[cut + 1 :]
        first = re.split(r"[_.~-]", body, maxsplit=1)[0]
        # the random part starts the body (`sm_sat_rh3c…` is label `sm_sat`, not `sm`)
        # `sha256~…` (OpenShift) is a token; `sha256-…`, `sha256:…` are digests
        ok_label = _label_ok(label) or (run[cut] == "~" and label.isalnum())
        if (len(first) >= 8 or first == body) and ok_label and _body_ok(body, keyword):
            return 0, len(run), "prefixed-token"
        pos = cut + 1
    return None


_LABEL_SEP: re.Pattern[str] = _lazy(r"[_.~-]")
_LABEL_PART: re.Pattern[str] = _lazy(
    r"[a-z][a-z0-9]{0,9}|[A-Z][A-Z0-9]{0,11}|[A-Z][a-z]{1,9}\d{0,2}|v?\d{1,2}"
)


def _label_ok(label: str) -> bool:
    """A vendor's label: up to four short parts, each letters and digits of one case (or
    capitalised), or a version (`sk_live`, `dop_v1`, `FLWSECK_TEST`, `pscale_tkn`, `fm1a`) —
    not a random run of mixed case (`AIzaSyD3asb`), not an id prefix."""
    if len(label) > 24 or not label[0].isalpha():
        return False
    parts = re.split(r"[_.~-]", label)
    first = parts[0].lower()
    if first in R.ID_PREFIXES or first in R.PLACEHOLDER_LABELS or label.lower() in R.ID_PREFIXES:
        return False
    return all(_LABEL_PART.fullmatch(p) for p in parts) and any(
        sum(c.isalpha() for c in p) >= 2 for p in parts
    )


def _body_ok(body: str, keyword_near: Callable[[], bool]) -> bool:
    core = body.rstrip("=")
    if len(core) < 12:
        return False
    # a credential word near lets shorter bodies count; asked only when it decides
    keyword = len(core) < 32 and keyword_near()
    if len(core) < 24 and not (keyword and _DIGIT.search(core)):
        return False  # a short body needs a credential word near and a digit (not `scrollHeight`)
    if len(core) == 36 and _UUID_BODY.fullmatch(core) and not keyword_near():
        return False  # `hook-<uuid>`, `req-<uuid>`: ids, unless a credential word is near
    # a file name with a hash in it (`logo-3f9a….png`), a dotted name
    tail = core.rsplit(".", 1)
    if len(tail) == 2 and (tail[1].lower() in R.FILE_SUFFIXES or wordy(tail[1])):
        return False
    if core.count(".") > 2:
        return False
    if "/" in core and any(c in core for c in "_.~-"):
        return False  # a path (`org/repo-name`), not base64 (which has `/` but no `-`)
    if _HEX_BODY.fullmatch(core) and len(core) % 2:
        return False  # hex encodes whole bytes: an odd count is a look-alike (`sntryu_…63`)
    if core.startswith("eyJ") and not _json_payload(core):
        return False  # base64 of `{"…` that is no JSON: a made-up payload
    return strong_value(core, min_len=12 if keyword else 24)


_HEX_BODY: re.Pattern[str] = _lazy(r"[0-9a-f]+|[0-9A-F]+")
_UUID_BODY: re.Pattern[str] = _lazy(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)


def _json_payload(body: str) -> bool:
    """The base64 JSON that starts `body` (up to its first non-base64 character) parses.
    JSON nested deeper than fastjson.MAX_DEPTH is not parsed (json's scanner raised
    RecursionError, the guard an internal error on a line of `x_eyJ…` of 4 KB): not judged
    a made-up payload either, so the body's other checks decide, never less strict."""
    from agent_memory.model.fastjson import loads, too_deep

    m = _B64_HEAD.match(body)
    raw = base64_text(m.group()) if m else None
    if raw is None or too_deep(raw):
        return True  # not decodable as a whole, or too deep to parse: nothing to judge
    try:
        loads(raw)
    except ValueError:
        return False
    return True


_B64_HEAD: re.Pattern[str] = _lazy(r"[A-Za-z0-9+/]+={0,2}")


def near_keyword(ctx: ScanContext, pos: int, kw: str) -> None:
    """A credential word, then within a few words on the same line a value of a credential's
    shape (see the module)."""
    text = ctx.text
    if ctx.seen("near", pos):
        return
    end = text.find("\n", pos, pos + 120)
    end = min(len(text), pos + 120) if end == -1 else end
    ctx.mark("near", pos + len(kw))
    lft = pos
    while lft > 0 and pos - lft < 60 and (text[lft - 1].isalnum() or text[lft - 1] in "_-."):
        lft -= 1
    m = _AFTER_WORD.match(text, pos + len(kw))
    if m is None or classify_key(text[lft : m.end()].strip("_-.")) is None:
        return  # `authenticity_token`, `max_tokens`, `token_count`: not a credential's name
    i = m.end()
    for _ in range(4):
        w = _WORD.match(text, i, end)
        if w is None:
            return
        word = w.group("w")
        if word.endswith("..") or _elided(text, w.end("w")):
            return  # an example cut short (`ops_eyJzaWdu…`, `abc123..[Redacted]`)
        low = word.lower()
        if low in R.NOT_A_CREDENTIAL_AFTER:
            return  # `token sha 3f9a…`, `secret name foo`: about something else
        if len(word) >= 12 and _value_ok(word):
            ctx.add(w.start("w"), w.end("w"), "generic-secret", P_ASSIGN)
            ctx.mark("near", w.end("w"))
            return
        i = w.end()


# the rest of the keyword's identifier, then the separators before the first word
_AFTER_WORD: re.Pattern[str] = _lazy(r"[A-Za-z0-9_-]{0,30}")
_WORD: re.Pattern[str] = _lazy(
    r"""[\s"'`:=(),\[\]{}<>|-]{0,6}(?P<w>[A-Za-z0-9_+/=.~:@$-]{1,300})"""
)


def _value_ok(word: str) -> bool:
    w = word.rstrip(".,;:")
    if lookalike(w) or "://" in w or w.startswith("$"):
        return False
    hit = _prefixed(w, lambda: True)
    if hit is not None:
        return True
    return strong_value(w, min_len=16)
