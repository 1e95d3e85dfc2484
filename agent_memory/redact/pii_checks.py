"""Number checks of personal data: check digits (Luhn for cards, mod 97 for IBANs, Verhoeff
for Aadhaar, the letter of a Spanish DNI) and valid ranges (card brands and lengths, US SSN
areas, UK NINO prefixes, phone number lengths). A number that fails them is not redacted: an
id, a timestamp or a hash is not a person's (a false positive).

Pure functions of one string.
"""

from __future__ import annotations

import re

from agent_memory.redact import rules as R


def digits(s: str) -> str:
    return "".join(c for c in s if c.isdigit())


def luhn(num: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def card_brand(num: str) -> bool:
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


def phone_ok(s: str) -> bool:
    d = digits(s)
    if not 8 <= len(d) <= 15 or len(set(d)) <= 2:
        return False
    groups = re.findall(r"\d+", s)
    if len(groups) >= 2 and len(groups[-1]) == 1:
        return False  # `+35236450.6`: a decimal number
    return not (len(groups) >= 3 and all(len(g) == 1 for g in groups[1:]))


def ssn_ok(s: str) -> bool:
    d = digits(s)
    area, group, serial = d[:3], d[3:5], d[5:]
    return not (area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000")


def iban_ok(s: str) -> bool:
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


def verhoeff(num: str) -> bool:
    c = 0
    for i, ch in enumerate(reversed(num)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][ord(ch) - 48]]
    return c == 0


def dni_ok(s: str) -> bool:
    v = s.replace("-", "")
    body, letter = v[:-1], v[-1]
    body = body.replace("X", "0").replace("Y", "1").replace("Z", "2")
    if not body.isdigit():
        return False
    return "TRWAGMYFPDXBNJZSQVHLCKE"[int(body) % 23] == letter


def ssn_digits_ok(s: str) -> bool:
    return len(digits(s)) == 9 and ssn_ok(s)


def nino_ok(s: str) -> bool:
    return s.replace(" ", "")[:2] not in R.NINO_INVALID_PREFIXES
