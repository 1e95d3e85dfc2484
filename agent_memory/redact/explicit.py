"""Passwords people state outright: the whole value after an explicit password word,
in any of the languages people write to Claude in, whatever characters the value holds.

- A password word (`password`, `Passwort`, `contraseña`, `пароль`, `密码` …), then `:` or `=`
  (or a full-width one), then the value. The value is the whole run up to the next blank —
  `&`, `|`, quotes and brackets included — or the whole quoted string, and a plain word counts
  whatever its entropy: the word before it says what it is. Only what merely stands for a
  password is kept (`<password>`, `${DB_PASS}`, `****`, `changeme`, `required`), and, after
  `=`, a name in code (a call, an attribute, another variable).
- The word, a few words or a verb (`is`, `ist`, `es`, `est`, `é`, `是` …), or nothing at all
  (`use the database password <value>`), then the value — here it must look like a password
  (a digit, or three kinds of characters), since prose goes on after the word as often as a
  password does.
- In a query string (`?password=x&next=…`) or a connection string (`Password=x;User=…`) the
  value ends where the next `name=` starts.

Keys in code (`db_password = …`) are read by agent_memory.redact.assign; this module adds the
whole-value rule for them, so a value with `&` or `)` in it is never cut in two.
"""

from __future__ import annotations

import re

from agent_memory.redact import rules as R
from agent_memory.redact.assign import classify_key
from agent_memory.redact.context import MARKER_PREFIX, P_ASSIGN, ScanContext
from agent_memory.redact.regex import LazyCompiler
from agent_memory.redact.values import (
    char_classes,
    code_reference,
    is_true_placeholder,
    split_words,
    wordy,
)

_lazy = LazyCompiler(globals())

# The word for "password" (lower case) in the languages people write prompts in. A word that
# also means something else everywhere (Italian `parola`, Korean `암호` "cipher") is left out.
ENGLISH_WORDS = ("password", "passwd", "passphrase", "passcode")
FOREIGN_WORDS = (
    "passwort", "kennwort",  # German
    "contraseña", "contrasena", "contrasenya",  # Spanish, Catalan
    "mot de passe",  # French
    "senha",  # Portuguese
    "wachtwoord",  # Dutch
    "parola d'ordine", "parola d’ordine",  # Italian (which mostly says "password")
    "lösenord", "losenord",  # Swedish
    "passord",  # Norwegian
    "adgangskode",  # Danish
    "salasana",  # Finnish
    "hasło", "haslo",  # Polish
    "heslo",  # Czech, Slovak
    "şifre", "sifre",  # Turkish
    "jelszó", "jelszo",  # Hungarian
    "parolă", "parola de acces",  # Romanian
    "пароль", "пароля", "паролем",  # Russian, Ukrainian
    "密码", "密碼", "口令",  # Chinese
    "パスワード",  # Japanese
    "비밀번호",  # Korean
    "סיסמה", "סיסמא",  # Hebrew
    "كلمة المرور", "كلمة السر",  # Arabic
    "पासवर्ड",  # Hindi
    "mật khẩu",  # Vietnamese
    "kata sandi",  # Indonesian
)
KEYWORDS = ENGLISH_WORDS + FOREIGN_WORDS
_CJK = frozenset("密碼码口令パスワード비밀번호")

# The separator of an explicit statement: `:` `=` and their full-width forms, or a dash.
_SEPARATOR: re.Pattern[str] = _lazy(r"[ \t]{0,3}(?P<op>:|=|：|＝|—|–|-(?=[ \t]))[ \t]*")
# A verb of being between the word and the value, in the languages above.
_VERB: re.Pattern[str] = _lazy(
    r"[ \t]+(?:is|was|ist|lautet|es|est|é|è|är|er|on|jest|je|то|это|—)[ \t]+(?:now[ \t]+|still[ \t]+)?"
    r"|[ \t]*(?:是|为|為|は|는|은)[ \t]*"
)
# A few words qualifying the password before its separator (`for the database`, `de la base`,
# `от базы`): letters, spaces, apostrophes, hyphens only.
_QUALIFIER: re.Pattern[str] = _lazy(r"[ \t]+[^\W\d_][\w' ’-]{0,40}?(?=[ \t]{0,3}(?::|=|：|＝))")
# The same words before a verb (`la contraseña de la base de datos es …`).
_QUALIFIER_VERB: re.Pattern[str] = _lazy(
    r"[ \t]+[^\W\d_][\w' ’-]{0,40}?(?=[ \t]+(?:is|was|ist|lautet|es|est|é|è|är|er|jest|je)[ \t])"
)
# The value: a quoted string, or everything to the next blank.
_QUOTED: re.Pattern[str] = _lazy(
    r"""(?:[bBrRuUfF]{1,2}(?=['"]))?(?P<q>[`'"])(?P<v>[^\n]{0,200}?)(?P=q)(?P<tail>[^\s]{0,200})"""
)
# What may follow a quoted value and still leave the quotes its bounds: `"x",` `'x')` `"x";`
_QUOTE_TAIL: re.Pattern[str] = _lazy(r"[,;)\]}>]*\Z")
# A value that starts as code: a (dotted) name called or indexed (`getpass.getpass(…`,
# `config.get(server,`, `self._users[`).
_CALL: re.Pattern[str] = _lazy(r"[&*]{0,2}[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*[(\[]")
_TOKEN: re.Pattern[str] = _lazy(r"[^\s]{1,256}")
_PHRASE: re.Pattern[str] = _lazy(r"[^\s][^\n]{0,120}?(?=[ \t]*(?:\n|\Z))|[^\s]{1,256}")
# Where a query or connection string's next field starts.
_NEXT_FIELD: re.Pattern[str] = _lazy(r"[&;,](?=[A-Za-z_][\w.-]{0,40}=)")
# A name in code where a value would be: an identifier, a call, an index, `&x`, `*x`.
_CODE: re.Pattern[str] = _lazy(
    r"[&*]{0,2}[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*(?:\([^\s]*\)|\[[^\s]*\])*[;,]?"
)


# Words that join their password word into compounds (`Datenbankpasswort`, `WLAN-Passwort`).
_COMPOUNDING = frozenset({"passwort", "kennwort", "wachtwoord", "lösenord", "losenord", "passord", "adgangskode"})
# A hash or an encoding named after the word, not a password.
_ALGORITHMS = frozenset({
    "sha1", "sha256", "sha384", "sha512", "md5", "bcrypt", "scrypt", "argon2", "argon2id",
    "pbkdf2", "base64", "utf8", "utf-8", "hmac", "sha-256", "sha-512", "crypt", "des", "aes256",
})
_ABOUT = R.NEUTRAL_AFTER | R.NOT_A_CREDENTIAL_AFTER


# Keywords of other parsers that swallow the start of a password word (`db_password`,
# `WLAN-Passwort`): the engine reports the longest keyword at a position, not the ones inside.
JOINED = ("_pass", "-pass", ".pass")


def explicit_password(ctx: ScanContext, pos: int, kw: str) -> None:
    text = ctx.text
    if kw in JOINED:
        joined = _joined_word(ctx.low, pos + 1)
        if joined is None:
            return
        pos, kw = joined
    if ctx.seen("explicit", pos):
        return
    end = _word_end(text, pos + len(kw), kw)
    if end is None or not _key_ok(text, pos, pos + len(kw), kw):
        return
    # the key may be quoted (`"password": …`, `'Passwort' => …`) or bracketed (`['password']`)
    while end < len(text) and text[end] in "\"'`]":
        end += 1
    sep, strict = _separator(text, end)
    if sep is not None:
        _after_separator(ctx, pos, kw, sep, strict)
    else:
        _after_words(ctx, pos, end)


def _joined_word(low: str, pos: int) -> tuple[int, str] | None:
    """(pos, the longest password word there) after a JOINED keyword's `_`, `-` or `.`."""
    found = [w for w in KEYWORDS if low.startswith(w, pos)]
    return (pos, max(found, key=len)) if found else None


def _separator(text: str, end: int) -> tuple[re.Match[str] | None, bool]:
    """The separator after the word (or after a few words qualifying it: then `strict`, as
    they may be a sentence's), None when there is none."""
    sep = _SEPARATOR.match(text, end)
    if sep is not None:
        return sep, False
    q = _QUALIFIER.match(text, end)
    if q is not None and not _about(q.group()):
        sep = _SEPARATOR.match(text, q.end())
        return sep, sep is not None
    return None, False


def _after_separator(ctx: ScanContext, pos: int, kw: str, sep: re.Match[str], strict: bool) -> None:
    """`password: value`, `Passwort = value`, `password — value`."""
    text = ctx.text
    op = sep.group("op")
    if op == "=" and text.startswith(("=", ">", "~"), sep.end()):
        return  # `==`, `=>`, `=~`: a comparison or an arrow, not an assignment
    if op in "=＝" and kw in FOREIGN_WORDS:
        op = ":"  # no code names its variables in German or Russian: a statement
    _value(ctx, pos, sep.end(), op, strict or op in "—–-", query=_in_query(text, pos))


def _after_words(ctx: ScanContext, pos: int, end: int) -> None:
    """`password is value` (a verb, maybe after a few words qualifying the password), or the
    value right after the word (`use the database password X`): prose, so strict."""
    text = ctx.text
    verb = _VERB.match(text, end)
    if verb is None:
        q = _QUALIFIER_VERB.match(text, end)
        if q is not None and not _about(q.group()):
            verb = _VERB.match(text, q.end())
    if verb is not None:
        _value(ctx, pos, verb.end(), "is", True, query=False)
    elif end < len(text) and text[end] in " \t" and not _about(text[end : end + 40]):
        _value(ctx, pos, end + 1, " ", True, query=False)  # `use the database password X`


def _word_end(text: str, end: int, kw: str) -> int | None:
    """Where the password word ends, with a plural or case ending (`passwords`, `пароля`,
    `hasła`, `Passworts`); None when it runs on into a longer word (`passwordless`)."""
    if kw[0] in _CJK:
        return end  # no spaces between words: 密码是…, パスワードは…
    n = 0
    while end + n < len(text) and text[end + n].isalpha() and n < 5:
        n += 1
    if n == 0:
        return end
    if kw in ENGLISH_WORDS:
        return end + 1 if n == 1 and text[end] in "sS" else None
    return end + n if n <= 3 else None


def _key_ok(text: str, pos: int, end: int, kw: str) -> bool:
    """The word is a key of its own, or ends a key that names the password itself
    (`db_password`, not `password_length`, `$PASSWORD`, `/etc/passwd`)."""
    if kw[0] in _CJK or pos == 0:
        return True
    before = text[pos - 1]
    if kw in ENGLISH_WORDS:
        start = pos
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_-."):
            start -= 1
        if start > 0 and text[start - 1] in "$%@/\\":
            return False
        ident = text[start:end].lstrip("-.")
        return ident.lower() == kw or (ident.isascii() and classify_key(ident) == "password")
    if before.isalpha():
        return kw in _COMPOUNDING
    return before not in "$%@/\\_"


def _about(words: str) -> bool:
    """The words after the password word say what they are about (`password hash`, `password
    manager`, `Passwort-Richtlinie` is not caught here, but needs a digit anyway)."""
    first = words.strip().split(" ", 1)[0].lower().strip(":=")
    return first in _ABOUT or first in _ALGORITHMS


def _in_query(text: str, pos: int) -> bool:
    """The key is a field of a query or connection string (`?password=`, `;Password=`)."""
    i = pos
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] in "_-."):
        i -= 1
    return i > 0 and text[i - 1] in "?&;"


def _value(ctx: ScanContext, kpos: int, vpos: int, op: str, strict: bool, query: bool) -> None:
    """Record the value that starts at `vpos` when it is a password."""
    text = ctx.text
    # a passphrase is words: after `passphrase:` it runs to the end of the line
    passphrase = op == ":" and not strict and ctx.low.startswith("passphrase:", kpos)
    found = _value_at(text, vpos, passphrase)
    if found is None:
        return
    vs, ve, core, quoted = found
    line_start = ctx.line_start(kpos)
    if ctx.backquotes(line_start, kpos) % 2:
        tick = text.find("`", vs, ve)  # the key is inside `inline code`: so is its value
        if tick != -1:
            ve = tick
            quoted = False
    if query or op in ("=", ":"):
        ve = _field_end(text, vs, ve, query)
    if not quoted:
        ve = _trim(text, vs, ve, kpos)
        core = text[vs:ve]
    if not core or MARKER_PREFIX in core:
        return
    ctx.mark("explicit", ve)
    if _is_password(core, quoted, op, strict):
        ctx.add(vs, ve, "password", P_ASSIGN)


def _value_at(text: str, vpos: int, passphrase: bool) -> tuple[int, int, str, bool] | None:
    """(start, end, the value, whether quotes bound it) of the value at `vpos`: a quoted
    string, or the run to the next blank (a passphrase's words to the end of the line); None
    when there is none."""
    q = _QUOTED.match(text, vpos)
    if q is not None:
        core = q.group("v")
        if not core or core.count(" ") >= 2 and not passphrase:
            return None  # empty, or a sentence in quotes (a message, a label): not a password
        quoted = _QUOTE_TAIL.match(q.group("tail")) is not None
        # a quoted value is what the quotes hold; quotes run on into more text are one value
        vs, ve = (q.start("v"), q.end("v")) if quoted else (q.start(), q.end())
        return vs, ve, core, quoted
    t = (_PHRASE if passphrase else _TOKEN).match(text, vpos)
    if t is not None and passphrase and any(c in t.group() for c in "(){}=;<>"):
        t = _TOKEN.match(text, vpos)  # code after the word, not words
    if t is None:
        return None
    return t.start(), t.end(), t.group(), False


def _field_end(text: str, vs: int, ve: int, query: bool) -> int:
    """In a query or connection string the value ends where the next `name=` starts (after a
    `,` only in a query: elsewhere a comma may be the password's)."""
    cut = _NEXT_FIELD.search(text, vs, ve)
    if cut is not None and (query or text[cut.start()] != ","):
        return cut.start()
    return ve


def _trim(text: str, vs: int, ve: int, kpos: int) -> int:
    """Sentence punctuation after an unquoted value, and a bracket that closes one opened before
    the key (`(password: x)`), are not the value."""
    while ve > vs:
        ch = text[ve - 1]
        if ch in ".,;:" or ch in "?!" and ve - vs > 1 and text[ve - 2] in ".?!":
            ve -= 1
            continue
        if ch in "\"'`" and text.count(ch, vs, ve) % 2:
            ve -= 1  # the close of a quotation the value sits in
            continue
        if ch in ")]}>":
            opener = "([{<"[")]}>".index(ch)]
            value = text[vs:ve]
            if value.count(ch) > value.count(opener) and opener in text[text.rfind("\n", 0, kpos) + 1 : kpos]:
                ve -= 1
                continue
        break
    return ve


def _is_password(value: str, quoted: bool, op: str, strict: bool) -> bool:
    bare = value.strip("`'\"")
    if not _could_be_password(value, bare):
        return False
    if not quoted and _names_code(value, bare, op):
        return False
    # prose: the word is followed by more prose as often as by a password
    return _prose_password(value, bare) if strict else True


def _could_be_password(value: str, bare: str) -> bool:
    """Not too short, too long or too plain to be one, nor what stands for one, a type, an
    algorithm or a URL."""
    if len(bare) < 4 or len(value) > 200 or len(set(bare)) < 3 or is_true_placeholder(bare):
        return False
    low = bare.lower()
    return not (low in R.TYPE_WORDS or bare in R.TYPE_WORDS or low in _ALGORITHMS or "://" in bare)


def _names_code(value: str, bare: str, op: str) -> bool:
    """An unquoted value that is a name in code, a variable, a template or a path."""
    if bare.lower() in R.CODE_WORDS or value.startswith(("$", "%", "{{", "<", "/", "~/", "./")):
        return True
    if _CALL.match(value):
        return True  # `getpass.getpass(…`, `self._users[…`: code
    # A name in code where a value would be: after `=` (an assignment) any identifier;
    # after `:` or in prose, a call, a dotted name or a name made of secret words — there
    # a plain word is the password itself
    return _CODE.fullmatch(value) is not None and (
        op == "=" or not bare.isalnum() or code_reference(bare, True)
    )


def _prose_password(value: str, bare: str) -> bool:
    """A value after the word in prose is a password only when it looks like one: a digit or
    three kinds of characters, not a parenthesis, a word, a number, a date or a time."""
    if value.startswith(("(", "[", "{")):
        return False  # a parenthesis in the sentence
    if not (any(c.isdigit() for c in bare) or char_classes(bare) >= 3):
        return False
    if wordy(bare) and not any(c.isdigit() for c in bare):
        return False
    if bare.replace(".", "").replace("-", "").replace(":", "").isdigit() and len(bare) < 8:
        return False  # a number, a date, a time
    if not any(c.isdigit() for c in bare):
        return not all(w in R.PLACEHOLDER_WORDS for w in split_words(bare))
    return True
