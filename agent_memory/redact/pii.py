"""Personal data: e-mail addresses, the user name in home-directory paths, AWS
account ids, and numbers a person owns (phone, card, IBAN, US SSN, Indian Aadhaar, UK NINO,
Spanish DNI), each confirmed by its check digits or valid ranges (agent_memory.redact.pii_checks).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from agent_memory.model.home import home_dirs, slug_for
from agent_memory.redact import rules as R
from agent_memory.redact.context import MARKER_PREFIX, P_PII, Handler, ScanContext, marker
from agent_memory.redact.pii_checks import (
    card_brand,
    digits,
    dni_ok,
    iban_ok,
    luhn,
    nino_ok,
    phone_ok,
    ssn_digits_ok,
    ssn_ok,
    verhoeff,
)
from agent_memory.redact.regex import LazyCompiler

_lazy = LazyCompiler(globals())


def _keyed(
    rx: re.Pattern[str], rule: str, ok: Callable[[str], bool], word_start: bool = True
) -> Handler:
    """A parser for data that `rx` matches at its keyword (group `s`), when `ok` accepts it;
    with `word_start`, the keyword must not continue a word."""

    def handler(ctx: ScanContext, pos: int, kw: str) -> None:
        text = ctx.text
        if word_start and pos > 0 and text[pos - 1].isalpha():
            return
        m = rx.match(text, pos)
        if m and ok(m.group("s")):
            ctx.add(m.start("s"), m.end("s"), rule, P_PII)

    return handler


def _not_documented_account(account: str) -> bool:
    return account not in R.DOCUMENTED_AWS_ACCOUNTS


_LOCAL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-")
_DOMAIN: re.Pattern[str] = _lazy(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,8}(?P<tld>[A-Za-z]{2,24})(?![A-Za-z0-9-]|\.[A-Za-z0-9])",
)


def email(ctx: ScanContext, pos: int, kw: str) -> None:
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
    if ls > 0 and text[ls - 1] in ":/\\@" and not _after_mailto(ctx.low, ls):
        return  # userinfo of a URI (`scheme://user:pass@host`) or a path
    d = _DOMAIN.match(text, pos + 1)
    if not d:
        return
    if d.group("tld").lower() in R.FILE_SUFFIXES:
        return  # `logo@2x.png`: a file name
    ll = local.lower()
    if ll in R.PLACEHOLDER_LOCALPARTS or ll.split("+", 1)[0] in R.PLACEHOLDER_LOCALPARTS:
        return
    if any(w in R.FAKE_EMAIL_WORDS for w in re.split(r"[._+-]", ll)):
        return  # `james.fake@…`, `test.user@…`: says itself it is not a person's
    ctx.add(ls, d.end(), "email", P_PII)


def _after_mailto(low: str, ls: int) -> bool:
    """`mailto:jane@…`, `[Jane](mailto:jane@…)`: an address, not URI userinfo."""
    return low.endswith("mailto:", max(0, ls - 7), ls) or low.endswith(
        "mailto://", max(0, ls - 9), ls
    )


_HOME_USER = r"(?P<u>[^/\s'\"`:;,<>|*?\\{}()\[\]$%]{1,64})(?=[/\s'\"`:;,)\]}>]|\Z)"
# (also the homes of Fedora Atomic `/var/home/<u>`, FreeBSD `/usr/home/<u>`, Solaris
# `/export/home/<u>`, and removable media mounted per user, `/media/<u>`, `/run/media/<u>`)
_HOME_UNIX: re.Pattern[str] = _lazy(
    r"(?:(?<![\w.~-])|(?<=/var)|(?<=/usr)|(?<=/export))/(?:home|Users)/" + _HOME_USER
)
_HOME_MEDIA: re.Pattern[str] = _lazy(r"(?:(?<![\w.~-])|(?<=/run))/media/" + _HOME_USER)
# a Windows share's user folder, `\\fileserver\users\<u>\`: matched from its `\users\` (the
# keyword) with the share's `\\server` checked before it (keywords found one at a time: a `\\`
# keyword of its own would hide the `\users\` inside an escaped `C:\\Users\\…`)
_HOME_UNC: re.Pattern[str] = _lazy(
    r"\\(?i:users|home)\\(?P<u>[^/\s'\"`:;,<>|*?\\{}()\[\]$%]{1,64})(?=[\\/\s'\"`:;,)\]}>]|\Z)"
)
_UNC_SHARE = re.compile(r"(?<![\\\w])\\\\[A-Za-z0-9.$-]{1,63}\Z")
_HOME_MNT: re.Pattern[str] = _lazy(r"(?<![\w.~-])/mnt/[a-zA-Z]/(?i:users)/" + _HOME_USER)
_HOME_WIN: re.Pattern[str] = _lazy(
    r"(?<![A-Za-z0-9])[A-Za-z]:(?:\\\\|\\|/)(?i:users)(?:\\\\|\\|/)"
    r"(?P<u>[^/\s'\"`:;,<>|*?\\{}()\[\]$%]{1,64})(?=[\\/\s'\"`:;,)\]}>]|\Z)",
)
_HOME_SLUG: re.Pattern[str] = _lazy(
    r"(?:(?<=[\s/\"'`=:(\[\\])|^|(?<=(?<![A-Za-z0-9])[A-Za-z]-))-(?:home|Users)-(?P<u>[A-Za-z0-9._]{1,64})(?=-)",
    re.M,
)
# `~bob/src`: the shell's home of user bob (`~/`, `HEAD~1`, `a~b` are not, nor `\~\~make\~\~`,
# `~make\*` and `a\~make/`: a backslash before `~`, `*`, `_`, `<`, `&` or `]` is markdown's
# escape, which render.literal writes, no path separator, and the `~` it escapes follows what
# is before the backslash)
_HOME_TILDE: re.Pattern[str] = _lazy(
    r"(?<![\w~$.%-])(?<![\w~$.%-]\\)~(?P<u>[A-Za-z_][A-Za-z0-9_.-]{0,31})(?=/|\\(?![~*_<&\]]))"
)
# keyword -> (pattern, offsets from the keyword where a match may start)
_HOME_BY_KEYWORD: dict[str, tuple[re.Pattern[str], tuple[int, ...]]] = {
    "/home/": (_HOME_UNIX, (0,)),
    "/users/": (_HOME_UNIX, (0,)),
    "/mnt/": (_HOME_MNT, (0,)),
    "/media/": (_HOME_MEDIA, (0,)),
    "\\home\\": (_HOME_UNC, ()),  # (only after a share: see home_user)
    "\\users\\": (_HOME_WIN, (2, 3)),
    ":/users/": (_HOME_WIN, (1,)),
    "-home-": (_HOME_SLUG, (0,)),
    "-users-": (_HOME_SLUG, (0,)),
    "~": (_HOME_TILDE, (0,)),
}
HOME_KEYWORDS = tuple(_HOME_BY_KEYWORD)


def home_user(ctx: ScanContext, pos: int, kw: str) -> None:
    rx, offsets = _HOME_BY_KEYWORD[kw]
    tries = [(rx, pos - off) for off in offsets if pos - off >= 0]
    if kw in ("\\users\\", "\\home\\") and _UNC_SHARE.search(ctx.text, max(0, pos - 66), pos):
        tries.append((_HOME_UNC, pos))
    for pattern, start in tries:
        m = pattern.match(ctx.text, start)
        if m:
            if not _non_personal_user(m.group("u")):
                ctx.add(m.start("u"), m.end("u"), "home-user", P_PII)
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


# --- the running user's own home, wherever it is ------------------------------------------------
# The patterns above know the usual layouts (`/home/<u>`, `/Users/<u>` …); a home elsewhere
# (`/srv/users/bob`, `/opt/people/bob`, `/tmp/xyz/home`) is known only on this machine, from
# $HOME (or the password database) and its resolved form. So the same text may redact
# differently on another machine (SECURITY.md).

# Homes that are the same on every machine of their kind and name nobody.
_SHARED_HOMES = frozenset(
    {"/", "/root", "/tmp", "/var/tmp", "/nonexistent", "/var/empty", "/dev/null", "/home",
     "/Users", "/var", "/usr", "/opt", "/srv", "/var/lib", "/usr/local", "/run", "/mnt",
     "/github/home"}  # (a GitHub Actions job container's home)
)
# Folder names of a layout, never the user's own part of a home.
_LAYOUT_DIRS = frozenset(
    {"home", "homes", "users", "user", "var", "usr", "opt", "srv", "tmp", "mnt", "media", "run",
     "export", "data", "local", "private", "lib", "people", "staff", "u", "net", "nfs"}
)

# (form as written, start and end in it of the part replaced, slug form?)
OwnHome = tuple[str, int, int, bool]
_OWN_HOMES: dict[str | None, tuple[OwnHome, ...]] = {}


def own_homes() -> tuple[OwnHome, ...]:
    """The running user's home as it may appear in text: as $HOME says it, as it resolves, and
    as Claude Code's project slug of each (`-srv-users-bob-…`), each with the part that names
    the user. Kept per value of $HOME (os.path.expanduser reads it; without it, the password
    database, fixed for the process)."""
    key = os.environ.get("HOME")
    forms = _OWN_HOMES.get(key)
    if forms is None:
        forms = _OWN_HOMES[key] = _home_forms(home_dirs())
    return forms


def _personal(component: str) -> bool:
    c = component.lower()
    return (
        len(c) >= 2
        and not c.startswith(".")
        and c not in R.NON_PERSONAL_USERS
        and c not in _LAYOUT_DIRS
    )


def _login_name() -> str | None:
    try:
        import pwd  # built in; only where a home's last folder does not name the user

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError, AttributeError, OSError):
        return None


def _home_forms(homes: list[str]) -> tuple[OwnHome, ...]:
    out: list[OwnHome] = []
    for home in homes:
        if not home.startswith("/") or len(home) < 4 or home in _SHARED_HOMES:
            continue  # `/`, a one-letter home, `/root`: a home every machine has is no path of this one
        parts = home[1:].split("/")
        offsets = [1]
        for part in parts[:-1]:
            offsets.append(offsets[-1] + len(part) + 1)
        spans = [(o, o + len(p)) for o, p in zip(offsets, parts, strict=True)]
        span: tuple[int, int] | None = None
        if len(parts) == 1 and parts[0] != _login_name():
            continue  # `/workspace`, `/config`, `/app`: a container's home, the same in every copy of its image
        if _personal(parts[-1]):
            span = spans[-1]  # `/srv/users/bob`: the user name, as `/home/<u>` loses it
        else:
            login = _login_name()
            if login and _personal(login) and login in parts:
                span = spans[len(parts) - 1 - parts[::-1].index(login)]
            else:
                personal = [i for i, p in enumerate(parts) if _personal(p)]
                if personal:  # `/tmp/xyz/home`: from the first folder that is not a layout's
                    span = (spans[personal[0]][0], len(home))
        if span is None:
            continue  # `/home/runner`, `/var/lib/jenkins`: the same on every such machine
        out.append((home, span[0], span[1], False))
        if len(parts) >= 2:
            out.append((slug_for(home), span[0], span[1], True))
    return tuple(dict.fromkeys(out))


def _path_ends(text: str, end: int) -> bool:
    """The home's last folder ends at `end` (`/srv/users/bob` is not `/srv/users/bobby`)."""
    if end >= len(text):
        return True
    c = text[end]
    if c.isalnum() or c in "_-":
        return False
    if c == ".":  # a full stop ends a sentence; `bob.old` is another folder
        return end + 1 >= len(text) or not (text[end + 1].isalnum() or text[end + 1] in "_-")
    return True


def own_home_spans(text: str, redacted: bool = False) -> list[tuple[int, int, int, int]]:
    """(start, end) of each occurrence of the running user's home in `text`, a path or a slug,
    and (start, end) of its part that names the user. With `redacted`, also the home as
    redaction leaves it (`/srv/users/[REDACTED:home-user]`): still a path of this machine."""
    out: list[tuple[int, int, int, int]] = []
    forms = own_homes()
    if redacted:
        gone = marker("home-user")
        forms += tuple((f[:a] + gone + f[b:], a, a + len(gone), slug) for f, a, b, slug in forms)
    for form, a, b, slug in forms:
        pos = text.find(form)
        while pos != -1:
            end = pos + len(form)
            before = text[pos - 1] if pos else ""
            if slug:
                ok = not (before.isalnum() or before == "-") and (
                    end >= len(text) or not (text[end].isalnum() or text[end] in "_.")
                )
            else:
                ok = not (before.isalnum() or before in "_.~-") and _path_ends(text, end)
            if ok:
                out.append((pos, end, pos + a, pos + b))
            pos = text.find(form, pos + 1)
    return out


def own_home(ctx: ScanContext) -> None:
    """The running user's home anywhere in the text, as `home_user` redacts the usual ones."""
    for _s, _e, a, b in own_home_spans(ctx.text):
        ctx.add(a, b, "home-user", P_PII)


_ARN: re.Pattern[str] = _lazy(r"arn:aws[\w-]{0,20}:[\w-]{1,40}:(?P<r>[\w-]{0,30}):(?P<s>\d{12}):")
# a region as AWS names them (`us-east-1`, `us-gov-west-1`, `eu-central-2`); global services
# (IAM, S3, Route 53) leave it empty
_REGION: re.Pattern[str] = _lazy(r"(?:[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]{4,10}-\d{1,2})?")


def arn_account(ctx: ScanContext, pos: int, kw: str) -> None:
    """An AWS account id in an ARN. Any account that is not AWS's documented example; the
    documented example ones too when the ARN is real (a real region, or none), since then it
    names a resource — not in a made-up ARN (`arn:aws:sns:aaa:111122223333:…`)."""
    m = _ARN.match(ctx.text, pos)
    if m is None:
        return
    account = m.group("s")
    if account in R.DOCUMENTED_AWS_ACCOUNTS and not _REGION.fullmatch(m.group("r")):
        return
    ctx.add(m.start("s"), m.end("s"), "aws-account-id", P_PII)


_AWS_ACCOUNT: re.Pattern[str] = _lazy(
    r"(?i:aws[_ .-]?account)[_ .-]?(?i:id|number|no)?\\{0,3}[\"']?[ \t]*[:=][ \t]*\\{0,3}[\"']?(?P<s>\d{12})(?!\d)",
)


# an AWS account id after its key: AWS's documented example accounts there are nobody's
aws_account = _keyed(_AWS_ACCOUNT, "aws-account-id", _not_documented_account, word_start=False)


# phone numbers, card numbers, national ids. One pass finds runs of 7+ digits (at most two
# separators between digits); the precise patterns then run only inside those runs.
# no optional `+` in front: a pattern that starts with a digit class is searched at C speed
# (three times faster); the phone patterns look one character before the run anyway
_DIGIT_RUN: re.Pattern[str] = _lazy(r"\d(?:[ .()/-]{0,2}\d){5,22}")
_UPPER: re.Pattern[str] = _lazy(r"[A-Z]{2}")
_PHONE_INTL: re.Pattern[str] = _lazy(
    r"(?<![\w+/=.-])\+[1-9]\d{0,2}(?:[ .-]?\(?\d{1,5}\)?){1,6}(?![\w.-]?\d)"
)
_PHONE_NANP: re.Pattern[str] = _lazy(
    r"(?<![\w+/=.:-])(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4}(?![\w.-]?\d)"
)
_PHONE_KW: re.Pattern[str] = _lazy(
    r"(?i:phone|tel|telephone|mobile|cell|fax|whatsapp|call me(?: at| on)?|text me(?: at)?)(?![A-Za-z])"
    r"[\w ]{0,12}?[:=#]?[ \t]*(?P<s>\(?\+?\d[\d ().-]{6,18}\d)(?![\w.-]?\d)",
)
_CARD: re.Pattern[str] = _lazy(
    r"(?<![\w.+/=-])(?:(?:\d{4}[ -]?){3}\d{1,7}|\d{4}[ -]\d{6}[ -]\d{4,5})(?![\w.-]?\d)"
)
_SSN: re.Pattern[str] = _lazy(r"(?<![\w.+/=-])(?P<s>\d{3}-\d{2}-\d{4})(?![\w.-]?\d)")
_SSN_KW: re.Pattern[str] = _lazy(
    r"(?i:ssn|social security(?: number| no\.?)?)(?![A-Za-z])[ \t]*[:=#]?[ \t]*(?P<s>\d{9}|\d{3}[ -]\d{2}[ -]\d{4})(?!\d)",
)
_AADHAAR: re.Pattern[str] = _lazy(r"(?<![\w.+/=-])(?P<s>[2-9]\d{3}[ -]\d{4}[ -]\d{4})(?![\w.-]?\d)")
_NINO_SPACED: re.Pattern[str] = _lazy(
    r"(?<![A-Za-z0-9])(?P<s>[A-CEGHJ-TW-Z][A-CEGHJ-TW-Z] \d{2} \d{2} \d{2} [A-D])(?![A-Za-z0-9])",
)
_NINO_KW: re.Pattern[str] = _lazy(
    r"(?i:nino|national insurance(?: number| no\.?)?|ni number)(?![A-Za-z])[ \t]*[:=#]?[ \t]*"
    r"(?P<s>[A-CEGHJ-TW-Z][A-CEGHJ-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D])(?![A-Za-z0-9])",
)
_IBAN: re.Pattern[str] = _lazy(
    r"(?<![A-Za-z0-9])(?P<s>[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?)(?![A-Za-z0-9])",
)
_DNI_KW: re.Pattern[str] = _lazy(
    r"(?i:dni|nie|nif)(?![A-Za-z])[\w ]{0,12}?[:=#]?[ \t]*(?P<s>[XYZ]?\d{7,8}-?[A-Z])(?![A-Za-z0-9])",
)


_SEPARATORS = str.maketrans("", "", " .()/-+")


def scan_numbers(ctx: ScanContext) -> None:
    """Phone numbers, card numbers and national ids anywhere in the text (no keyword needed)."""
    text = ctx.text
    n = len(text)
    for run in _DIGIT_RUN.finditer(text):
        if run.end() < n and text[run.end()].isdigit():
            continue  # more than 23 digits: an id or a blob, not a number a person owns
        lo, hi = max(0, run.start() - 1), min(n, run.end() + 2)
        # each number has a least count of digits: a short run needs few of the patterns
        nd = len(run.group().translate(_SEPARATORS))
        if nd >= 8:
            for rx in (_PHONE_INTL, _PHONE_NANP):
                for m in rx.finditer(text, lo, hi):
                    if phone_ok(m.group()):
                        ctx.add(m.start(), m.end(), "phone-number", P_PII)
        if nd >= 13:
            for m in _CARD.finditer(text, lo, hi):
                num = digits(m.group())
                if card_brand(num) and luhn(num) and len(set(num)) > 1:
                    ctx.add(m.start(), m.end(), "card-number", P_PII)
        if nd >= 9:
            for m in _SSN.finditer(text, lo, hi):
                if ssn_ok(m.group("s")):
                    ctx.add(m.start("s"), m.end("s"), "us-ssn", P_PII)
        if nd >= 12:
            for m in _AADHAAR.finditer(text, lo, hi):
                if verhoeff(digits(m.group("s"))):
                    ctx.add(m.start("s"), m.end("s"), "in-aadhaar", P_PII)
        # IBAN and NINO start with letters: look for them just before the digits
        back = max(0, run.start() - 34)
        if _UPPER.search(text, back, run.start()):
            for iban in _IBAN.finditer(text, back, min(n, run.end() + 44)):
                if iban_ok(iban.group("s")):
                    ctx.add(iban.start("s"), iban.end("s"), "iban", P_PII)
            for nino in _NINO_SPACED.finditer(text, back, hi):
                if nino_ok(nino.group("s")):
                    ctx.add(nino.start("s"), nino.end("s"), "uk-nino", P_PII)


# personal data recognised by the word before it (`SSN: …`, `phone: …`, `DNI …`)
ssn_after_keyword = _keyed(_SSN_KW, "us-ssn", ssn_digits_ok)
phone_after_keyword = _keyed(_PHONE_KW, "phone-number", phone_ok)
nino_after_keyword = _keyed(_NINO_KW, "uk-nino", nino_ok)
dni_after_keyword = _keyed(_DNI_KW, "es-dni", dni_ok)
