"""Redaction that generalises past the formats it was written for (issue 15): one test per class
of the issue, each with positives and the look-alikes that must stay, on examples of our own —
invented vendors, invented hosts. Realistic tokens are generated at run time from a seeded
generator (`tok`); nothing here is a corpus line."""

from __future__ import annotations

import random
import string
import uuid

import pytest

from agent_memory.redact.redactor import find, redact

AN = string.ascii_letters + string.digits
LOW = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"


def tok(n: int, alphabet: str = AN, seed: int = 0) -> str:
    rng = random.Random(f"gen-{seed}-{n}-{alphabet}")
    return "".join(rng.choice(alphabet) for _ in range(n))


def v4(seed: int) -> str:
    return str(uuid.UUID(int=random.Random(seed).getrandbits(128), version=4))


def _uuid1(clock_seq: int) -> str:
    """A time-based (version 1) UUID at a fixed time: the same on every run and every xdist
    worker, so the parametrised test ids agree."""
    return str(uuid.UUID(fields=(0x5F0A3B3E, 0x8C2D, 0x11EE, 0x80 | (clock_seq >> 8), clock_seq & 0xFF, 0x0242AC120002)))


def gone(text: str, secret: str) -> None:
    red, findings = redact(text)
    assert findings, f"nothing found in {text!r}"
    assert secret not in red, f"{secret!r} survived in {red!r}"


def kept(text: str) -> None:
    assert find(text) == [], (text, find(text))


# --------------------------------------------------------------------------------------------
# 1. a credential word or a vendor's name, then a value of a credential's charset


VALUES = {
    "uuid": v4(1),
    "hex32": tok(32, HEX, 2),
    "hex40": tok(40, HEX, 3),
    "hex64": tok(64, HEX, 4),
    "alnum24": tok(24, AN, 5),
    "alnum40": tok(40, AN, 6),
    "lower36": tok(36, LOW, 7),
}
KEYS = [
    "ZORBLAX_API_TOKEN={v}",
    'zorblaxToken := "{v}"',
    "zorblax_secret: {v}",
    '"quuxcorp_access_key": "{v}"',
    "QUUXCORP_KEY = '{v}'",  # a bare *_KEY naming a vendor nobody wrote a rule for
    "$quuxToken .= '{v}'",
    "<zorblaxToken>\n    {v}\n</zorblaxToken>",
    'System.setProperty("ZORBLAX_TOKEN", "{v}")',
    "Set-Auth -Vendor zorblax -ClientSecret '{v}'",
    "the zorblax api token for staging is {v}",
]


@pytest.mark.parametrize("shape", KEYS)
@pytest.mark.parametrize("kind", list(VALUES))
def test_credential_word_then_credential_value(shape: str, kind: str) -> None:
    v = VALUES[kind]
    gone(shape.format(v=v), v)


@pytest.mark.parametrize(
    "text",
    [
        "cache_key = '" + tok(40, HEX, 8) + "'",  # a key of something that is no secret
        "sortKey: " + tok(24, AN, 9),
        "idempotency_key = " + v4(10),
        "max_tokens = 4096",
        "token_count: 123456789012",
        "csrf_token = '" + tok(32, AN, 11) + "'",
        "commit " + tok(40, HEX, 12) + " fixed the token refresh",  # a commit id in prose
        "token sha " + tok(40, HEX, 13),
        "AIRTABLE_TOKEN = os.environ['AIRTABLE_TOKEN']",
        "api_key = config.api_key",
        "metadata:\n  creationTimestamp: '2024-05-01T10:00:00Z'\n  uid: " + v4(14),
        "request_id = " + _uuid1(1),  # a time-based id
    ],
)
def test_names_about_credentials_and_ids_stay(text: str) -> None:
    kept(text)


# --------------------------------------------------------------------------------------------
# 2. legacy and unknown prefixed tokens


@pytest.mark.parametrize(
    "secret",
    [
        "gh" + "x_" + tok(36, AN, 20),  # a GitHub-style token with a middle letter not issued yet
        "xox"
        + "q-"
        + tok(11, string.digits, 21)
        + "-"
        + tok(12, string.digits, 28)
        + "-"
        + tok(24, AN, 21),
        "hv" + "z." + tok(96, AN + "_-", 22),
        "EZ" + "QK" + tok(54, AN, 23),
        "zrb_live_" + tok(32, AN, 24),  # a vendor nobody wrote a rule for
        "qxv-" + tok(40, HEX, 25),
        "zrk.v2." + tok(48, AN, 26),
        "ABC" + "-SECRET-KEY-1" + tok(40, string.ascii_uppercase + string.digits, 27),
    ],
)
def test_prefixed_tokens_of_any_family(secret: str) -> None:
    gone(f"deploy with {secret} today", secret)
    gone(secret, secret)


@pytest.mark.parametrize(
    "text",
    [
        "toolu_01" + tok(22, AN, 30),  # ids of well-known APIs share the shape
        "msg_01" + tok(22, AN, 31),
        "req_011C" + tok(20, AN, 32),
        "cus_" + tok(14, AN, 33),
        "pk_live_" + tok(24, AN, 34),  # a publishable key is public
        "sha512-" + tok(86, AN + "+/", 35) + "==",  # a lock file's integrity hash
        "app-" + tok(20, HEX, 36) + ".js",  # a file name with a hash in it
        "foo_" + tok(36, AN, 37),  # metasyntactic, not a vendor's label
        "Piebald-AI/claude-code-system-prompts",
        "srvtoolu_01" + tok(22, AN, 38),
        "hook-" + v4(39),  # an id with a UUID, no credential word near
        "mid-conversation-tool-changes-2026-07-01",  # words and a date: a beta flag
        "document.body.scrollHeight",
    ],
)
def test_prefixed_look_alikes_stay(text: str) -> None:
    kept(f"see {text} here")


def test_a_marker_names_no_credential() -> None:
    # `[REDACTED:prefixed-token]` holds the word `token`: its neighbour is not a token's value
    text = '"betas": ["zrb_live_' + tok(32, AN, 45) + '", "thinking-token-count-2026-05-13"]'
    red = redact(text)[0]
    assert red == '"betas": ["[REDACTED:prefixed-token]", "thinking-token-count-2026-05-13"]'
    assert find(red) == []


def test_known_family_look_alikes_stay_and_checksums_prove_tokens() -> None:
    # a known prefix whose format is broken is an edited example, not a token
    kept("da" + "pi" + tok(30, HEX, 40) + "zz")  # letters beyond f in Databricks' hex
    kept("AI" + "za" + tok(42, AN, 41))  # Google API keys are 39 characters
    kept("sntr" + "yu_" + tok(63, HEX, 42))  # hex of an odd length
    # GitHub's CRC32 tail proves a token even when its random part looks typed
    import zlib

    body = "abcdefghij" * 3
    n = zlib.crc32(body.encode())
    alphabet = string.digits + string.ascii_uppercase + string.ascii_lowercase
    tail = ""
    for _ in range(6):
        n, r = divmod(n, 62)
        tail = alphabet[r] + tail
    token = "gh" + "p_" + body + tail
    gone(f"token {token}", token)
    kept("token " + "gh" + "p_" + body + "AAAAAA")


# --------------------------------------------------------------------------------------------
# 3. credentials in URLs, for any host


@pytest.mark.parametrize(
    "url",
    [
        "https://deploy:{s}@pkgs.zorblax.example/simple/",
        "git+https://ci:{s}@git.quux.internal/team/repo.git",
        "amqp://svc:{s}@rabbit.local:5672/vhost",
        "redis://:{s}@cache.local:6379/0",
        "https://{s}@hooks.quux.example/notify",  # a token as the user name
    ],
)
def test_credentials_in_urls(url: str) -> None:
    s = tok(28, AN, 50)
    gone(url.format(s=s), s)


def test_url_placeholders_stay() -> None:
    for text in (
        "https://user:password@host.example/x",
        "https://${USER}:${TOKEN}@host.example/x",
        "postgres://app:<password>@db:5432/app",
        "http://localhost:8080/path",
    ):
        kept(text)


# --------------------------------------------------------------------------------------------
# 4. structured secrets


def test_kubernetes_secret_every_value() -> None:
    a, b, c = tok(12, AN, 60), tok(9, AN, 61), tok(20, AN, 62)
    doc = (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\n"
        f"data:\n  user: YWRtaW4=\n  pass: {a}==\n"
        f"stringData:\n  DB_HOST: db.internal\n  password: {b}\n  config.yaml: |\n"
        f"    url: postgres://db\n    token: {c}\n"
    )
    red = redact(doc)[0]
    for secret in ("YWRtaW4=", a, b, "db.internal", c):
        assert secret not in red, (secret, red)
    assert "name: app" in red  # metadata is not data
    json_doc = '{"kind": "Secret", "data": {"token": "' + a + '"}, "metadata": {"name": "x"}}'
    gone(json_doc, a)
    kept("kind: ConfigMap\ndata:\n  LOG_LEVEL: debug\n")
    kept("kind: Secret\nstringData:\n  password: '{{ .Values.password }}'\n")


@pytest.mark.parametrize(
    "config",
    [
        '<packageSourceCredentials><feed><add key="Username" value="ci" />'
        '<add key="ClearTextPassword" value="{s}" /></feed></packageSourceCredentials>',
        "<server><id>nexus</id><username>ci</username><password>{s}</password></server>",
        "//npm.quux.example/:_authToken={s}",
        "//npm.quux.example/:_password={s}",
        "[global]\nindex-url = https://ci:{s}@pypi.quux.example/simple",
        "[pypi]\nusername = __token__\npassword = {s}",
        'resource "db" "main" {{\n  admin_password = "{s}"\n}}',
        "BUNDLE_GEMS__QUUX__EXAMPLE: ci:{s}",
        '{{"auths": {{"registry.quux.example": {{"auth": "{s}"}}}}}}',
        "npmAuthToken: {s}",
        "systemProp.http.proxyPassword={s}",
    ],
)
def test_package_registry_and_infrastructure_configs(config: str) -> None:
    s = tok(20, AN, 70)
    gone(config.format(s=s), s)


# --------------------------------------------------------------------------------------------
# 5. an explicit password is a password whatever its entropy


@pytest.mark.parametrize(
    "text",
    [
        "password: hunter2hunter2",
        "DB_PASSWORD=letmein42",
        "pass: correcthorse",
        'mysql_password = "admin"',
        "export PGPASSWORD=s3cret",
        "password: abcd1234abcd1234",
    ],
)
def test_low_entropy_passwords(text: str) -> None:
    value = text.split("=", 1)[-1] if "=" in text else text.split(":", 1)[-1]
    gone(text, value.strip().strip('"'))


@pytest.mark.parametrize(
    "text",
    [
        "password: <password>",
        "password: ****",
        "password: changeme",
        "password: ${DB_PASSWORD}",
        'password = "example"',
        "password: your-password-here",
        "password = os.environ['PASSWORD']",
        "password: str = Field(...)",
        "  password: newPassword,",  # a name in code
        "password = self.password",
        "password_length: 12",
        "cloud_pwd = a-fake-tooshort-key",
    ],
)
def test_password_placeholders_and_code_stay(text: str) -> None:
    kept(text)


# --------------------------------------------------------------------------------------------
# 6. AWS account ids inside ARNs


def test_account_ids_in_arns() -> None:
    assert {f.rule for f in find("arn:aws:iam::123456789012:role/deploy")} == {"aws-account-id"}
    assert {f.rule for f in find("arn:aws:sqs:eu-west-1:111122223333:jobs")} == {"aws-account-id"}
    assert {f.rule for f in find("arn:aws:lambda:us-east-1:210987654321:function:f")} == {
        "aws-account-id"
    }
    # the documented example account in a made-up ARN names nothing
    kept("arn:aws:sns:xyz:111122223333:topic")


# --------------------------------------------------------------------------------------------
# 7. look-alikes that fail a format's check


def test_edited_hex_and_broken_payloads_stay() -> None:
    h = tok(40, HEX, 80)
    kept(f"zorblax_api_key: {h[:10]}Q{h[11:]}")  # one letter that is no hex digit
    kept(f"zorblax_token = {tok(64, HEX, 81)}R21")
    # a JWT whose header is not JSON
    kept("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLWJ5dGVz")
    # a version-1 (time-based) UUID is an id
    kept("zorblax_token: " + _uuid1(7))


def test_card_and_iban_checks_still_decide() -> None:
    assert {f.rule for f in find("card 4111 1111 1111 1111")} == {"card-number"}
    kept("card 4111 1111 1111 1112")
    assert {f.rule for f in find("IBAN GB82 WEST 1234 5698 7654 32")} == {"iban"}
    kept("IBAN GB82 WEST 1234 5698 7654 33")
