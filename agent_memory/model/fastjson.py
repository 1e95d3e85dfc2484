"""JSON for the hook paths without `import json` (which compiles regular expressions and
imports `re`: about a tenth of an interpreter start). `loads` drives the C scanner `json`
itself uses; `dumps_string` writes one JSON string. Elsewhere than CPython, `json` is used.
Everything else in the package uses `json`."""

_JSON_SPACE = " \t\n\r"


class _ScanContext:
    """What `_json.make_scanner` reads off a JSONDecoder: json.loads' defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float  # NaN, Infinity, -Infinity, as json.loads reads them


_scanner = None


def loads(text: str) -> object:
    """`json.loads(text)`. Malformed input raises a ValueError (json's own JSONDecodeError
    from inside a value)."""
    global _scanner
    if _scanner is None:
        try:
            from _json import make_scanner
        except ImportError:
            import json

            return json.loads(text)
        _scanner = make_scanner(_ScanContext)  # type: ignore[arg-type]
    start = len(text) - len(text.lstrip(_JSON_SPACE))
    try:
        value, end = _scanner(text, start)
    except StopIteration as stop:  # what json.loads reports as "Expecting value"
        raise ValueError(f"expecting a JSON value at character {stop.value}") from None
    except SystemError:
        # The C scanner raises its error class from `json.decoder` only if that module is
        # loaded already (CPython 3.11: looked up in sys.modules, never imported), and the hook
        # path never loads it: malformed text ("{not json", a line cut short) became a
        # SystemError, and one such line in adopted.log lost the whole session-start context.
        # Loaded now, on the error path alone, the scan raises json's own ValueError.
        import json.decoder  # noqa: F401

        value, end = _scanner(text, start)
    if text[end:].strip(_JSON_SPACE):
        raise ValueError(f"extra data after the JSON value at character {end}")
    return value


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def dumps_string(text: str) -> str:
    """`json.dumps(text, ensure_ascii=False)`, also escaping U+2028/U+2029."""
    try:
        from _json import encode_basestring  # json's own C encoder (json.dumps uses it)
    except ImportError:
        return _dumps_string(text)
    return str(encode_basestring(text)).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _dumps_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch < " " or ch in "\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def additional_context(event: str, text: str) -> str:
    """The documented hook output line: `{"hookSpecificOutput": {"hookEventName": EVENT,
    "additionalContext": TEXT}}`."""
    return ('{"hookSpecificOutput": {"hookEventName": ' + dumps_string(event)
            + ', "additionalContext": ' + dumps_string(text) + "}}")  # fmt: skip


# Arrays and objects nested deeper than this are refused before parsing: json's scanner
# recurses once per level, so a line of a few thousand `[` raised RecursionError from every
# reader of `.memory/adopted.log` — the session start injected nothing and `validate` crashed.
# The deepest line we write nests four levels (entry → atom → list → evidence).
MAX_DEPTH = 32


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """True when the JSON text nests arrays and objects more than `limit` levels deep.
    Brackets inside strings do not count; text with at most `limit` brackets in all is
    answered by two C-speed counts without walking it."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def loads_bounded(text: str, limit: int = MAX_DEPTH) -> object:
    """`loads(text)`, refusing (ValueError) a value nested more than `limit` levels deep."""
    if too_deep(text, limit):
        raise ValueError(f"nested more than {limit} levels deep")
    return loads(text)
