"""Guard bypasses of issue 14 §2 that the redactor and the guard's judgement must see through:
format characters, look-alike letters (Cyrillic, Greek, fullwidth), text split across lines,
base64- and percent-encoded secrets. Each is tried on `redact` (what capture writes) and on
`guard.scan_text` (what a commit of a memory file may carry). Realistic tokens are built at run
time from a seeded generator."""

from __future__ import annotations

import base64
import json
import random
import string
from urllib.parse import quote

import pytest
from builders import block

from agent_memory.redact.fold import fold, invisible, strip_invisible
from agent_memory.redact.guard import scan_text
from agent_memory.redact.redactor import find, redact

MD = "CLAUDE.memory.md"
LOG = ".memory/adopted.log"


def _tok(n: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


GH = "gh" + "p_" + _tok(36, 1)
EMAIL = "jane.roe@acme-corp.io"


def rules_at(text: str, path: str = MD) -> set[tuple[int, str]]:
    return {(f.line, f.rule) for f in scan_text(path, text)}


# --------------------------------------------------------------------------------------------
# obfuscated forms: each still reads as the secret

ZW = "\u200b"
OBFUSCATED = {
    "zero-width space": GH[:6] + ZW + GH[6:20] + ZW + GH[20:],
    "zero-width joiner": GH[:3] + "\u200d" + GH[3:],
    "word joiner": GH[:10] + "\u2060" + GH[10:],
    "soft hyphen": GH[:12] + "\u00ad" + GH[12:],
    "bidi override": "\u202e" + GH + "\u202c",
    "cyrillic letters": GH.replace("a", "\u0430").replace("e", "\u0435").replace("o", "\u043e"),
    "greek letters": GH.replace("o", "\u03bf").replace("p", "\u03c1"),
    "fullwidth": "".join(chr(ord(c) + 0xFEE0) for c in GH),
    "mathematical bold": "".join(chr(0x1D41A + ord(c) - 97) if c.islower() else c for c in GH),
}


@pytest.mark.parametrize("form", list(OBFUSCATED), ids=list(OBFUSCATED))
def test_obfuscated_token_is_redacted_whole(form: str) -> None:
    text = f"deploy with {OBFUSCATED[form]} today"
    red, findings = redact(text)
    assert [f.rule for f in findings] == ["github-token"]
    # the token goes whole; invisible characters around it may stay (the guard refuses them)
    visible = "".join(c for i, c in enumerate(red) if i not in set(invisible(red)))
    assert visible == "deploy with [REDACTED:github-token] today"


@pytest.mark.parametrize("form", list(OBFUSCATED), ids=list(OBFUSCATED))
def test_obfuscated_token_is_refused_by_the_guard(form: str) -> None:
    assert (3, "github-token") in rules_at(block(f"- Deploy with {OBFUSCATED[form]}"))


def test_obfuscated_email_and_home_path() -> None:
    cyr = EMAIL.replace("a", "\u0430")
    assert [f.rule for f in find(f"ask {cyr}")] == ["email"]
    assert (3, "email") in rules_at(block(f"- Ask {EMAIL[:4]}{ZW}{EMAIL[4:]}"))
    assert (3, "home-path") in rules_at(block("- Build in /h\u043eme/bob/src"))
    assert (3, "home-path") in rules_at(block(f"- Build in /home/{ZW}bob/src"))


def test_format_characters_are_refused_outright() -> None:
    assert rules_at(block(f"- Use pnpm{ZW} always")) == {(3, "format-character")}
    assert rules_at(block("- Use \u202enpm\u202c only")) == {(3, "format-character")}
    # visible: emoji presentation selectors and the joiners inside an emoji sequence
    assert (
        rules_at(
            block("- Ship it \u2764\ufe0f with the \U0001f468\u200d\U0001f469\u200d\U0001f467 team")
        )
        == set()
    )
    # a byte-order mark opening the file is an encoding signature, not hidden text
    assert rules_at("\ufeff" + block("- Use pnpm")) == set()


def test_format_characters_in_the_audit_log_are_refused() -> None:
    line = json.dumps({"id": "atm_1", "claim": f"Use pnpm{ZW} always"})
    assert (1, "format-character") in rules_at(line + "\n", LOG)
    escaped = json.dumps({"id": "atm_1", "claim": f"Deploy with {OBFUSCATED['zero-width space']}"})
    assert "\\u200b" in escaped
    assert (1, "github-token") in rules_at(escaped + "\n", LOG)


def test_fold_maps_back_onto_the_original_characters() -> None:
    text = f"a{ZW}b \uff47x"
    folded = fold(text)
    assert folded is not None
    ftext, origin, changed = folded
    assert ftext == "ab gx"
    assert changed == [1, 3]
    assert [text[origin[i]] for i in range(len(ftext))] == ["a", "b", " ", "\uff47", "x"]
    assert origin[len(ftext)] == len(text)
    assert fold("plain ascii") is None
    assert fold("caf\u00e9 \u65e5\u672c") is None  # nothing to fold: accents and CJK stay
    assert invisible(f"x{ZW}y") == [1]
    assert strip_invisible(f"Use{ZW} pnpm \u2764\ufe0f") == "Use pnpm \u2764\ufe0f"


def test_ordinary_non_latin_text_is_left_alone() -> None:
    for text in (
        "\u041f\u0440\u0438\u0432\u0435\u0442, \u043a\u0430\u043a \u0434\u0435\u043b\u0430? \u0418\u0441\u043f\u043e\u043b\u044c\u0437\u0443\u0439 pnpm.",
        "\u03a7\u03c1\u03b7\u03c3\u03b9\u03bc\u03bf\u03c0\u03bf\u03b9\u03ae\u03c3\u03c4\u03b5 \u03c4\u03bf pytest",
        "\uff08\u6ce8\uff09\uff21\uff30\uff29\u306f\uff11\uff10\uff10\u4ef6\u307e\u3067",
    ):
        assert find(text) == [], find(text)


# --------------------------------------------------------------------------------------------
# text split across lines


def test_a_secret_split_across_a_claims_lines_is_refused() -> None:
    text = block(f"- Deploy with {GH[:14]}", f"  {GH[14:]}")
    assert (3, "github-token") in rules_at(text)


def test_a_home_path_split_across_lines_is_refused() -> None:
    assert (3, "home-path") in rules_at(block("- Build from /ho", "  me/carol/src first"))


def test_separate_items_are_not_joined() -> None:
    # two list items are two claims: gluing them would invent text nobody wrote
    text = block("- Use pnpm for installs", "- Prefer vitest for unit tests")
    assert rules_at(text) == set()


def test_a_multi_line_claim_in_the_log_is_joined() -> None:
    line = json.dumps({"id": "atm_1", "claim": f"Deploy with {GH[:14]}\n  {GH[14:]}"})
    assert (1, "github-token") in rules_at(line + "\n", LOG)


# --------------------------------------------------------------------------------------------
# encoded secrets


def test_base64_encoded_secret_is_redacted() -> None:
    for payload in (f"token={GH}", f"contact {EMAIL}", f"password: {_tok(14, 5)}!"):
        enc = base64.b64encode(payload.encode()).decode()
        red, findings = redact(f"value {enc} end")
        assert red == "value [REDACTED:encoded-secret] end", (payload, red)
        url = base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")
        assert enc not in redact(f"value {url} end")[0]


def test_percent_encoded_secret_loses_only_the_secret() -> None:
    text = f"https://example.org/cb?next=%2Fhome&token%3D{quote(GH)}&mail={quote(EMAIL)}"
    red = redact(text)[0]
    assert GH not in red and quote(EMAIL) not in red
    assert red.startswith("https://example.org/cb?next=%2Fhome&token%3D[REDACTED:")


def test_encoded_secrets_in_memory_files_are_refused() -> None:
    enc = base64.b64encode(f"api_key = {_tok(32, 7)}".encode()).decode()
    assert (3, "encoded-secret") in rules_at(block(f"- Staging config blob {enc}"))
    assert (3, "email") in rules_at(block(f"- Mail {quote(EMAIL, safe='')} for access"))


def test_encoded_harmless_text_is_left_alone() -> None:
    for payload in (
        "hello world, nothing to see",
        '{"alg":"HS256","typ":"JWT"}',
        "user-profile-v2",
    ):
        enc = base64.b64encode(payload.encode()).decode()
        assert find(f"blob {enc}") == []
    assert find("https://example.org/search?q=caf%C3%A9%20au%20lait&lang=fr") == []
