"""The redaction engine (issue 3, spec §4.1, §6): every rule family with positive and negative
examples, the interface invariants, a property test, bounded work on hostile input, the labelled
corpora, and the `git memory redact` verb.

Realistic tokens are never written in this file: they are generated at run time from a seeded
generator (`tok`) or by concatenation, and the labelled corpora stay base64-encoded on disk.
"""

from __future__ import annotations

import base64
import json
import random
import string
import subprocess
import sys
from pathlib import Path
from uuid import uuid4

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inprocess import run_main_bytes

from agent_memory.redact.redactor import Finding, find, redact

SECRETS = Path(__file__).parent / "fixtures" / "secrets"
AN = string.ascii_letters + string.digits
LOW = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
B64 = AN + "+/"


def tok(n: int, alphabet: str = AN, seed: int = 0) -> str:
    """A random-looking run of `n` characters, the same on every run (seeded)."""
    rng = random.Random(f"{seed}-{n}-{alphabet}")
    return "".join(rng.choice(alphabet) for _ in range(n))


def gone(text: str, secret: str) -> tuple[str, list[Finding]]:
    """Redact `text` and check that `secret` left it and the rest of the text stayed."""
    red, findings = redact(text)
    assert findings, f"nothing found in {text!r}"
    assert secret not in red, f"{secret!r} survived in {red!r}"
    assert "[REDACTED:" in red
    return red, findings


def rules(text: str) -> set[str]:
    return {f.rule for f in find(text)}


# --------------------------------------------------------------------------------------------
# interface


def test_interface_spans_sorted_non_overlapping_and_replacement_format() -> None:
    key = "AKIA" + tok(16, string.ascii_uppercase + "234567", 1)
    text = f"key {key} and mail jane.roe@acme-corp.io and {key}"
    red, findings = redact(text)
    assert findings == find(text)
    assert all(isinstance(f, Finding) for f in findings)
    assert [(f.start, f.end) for f in findings] == sorted((f.start, f.end) for f in findings)
    assert all(a.end <= b.start for a, b in zip(findings, findings[1:], strict=False))
    assert (
        red
        == "key [REDACTED:aws-access-key] and mail [REDACTED:email] and [REDACTED:aws-access-key]"
    )
    assert text[findings[0].start : findings[0].end] == key


def test_finding_is_frozen() -> None:
    f = Finding("email", 1, 2)
    with pytest.raises(AttributeError):
        f.rule = "x"  # type: ignore[misc]


def test_redacting_redacted_text_finds_nothing() -> None:
    text = "token = " + tok(32, AN, 2) + "\ncurl -u admin:" + tok(14, AN, 3) + " https://x.io"
    red, _ = redact(text)
    assert find(red) == []
    assert redact(red) == (red, [])


def test_empty_and_plain_text() -> None:
    assert find("") == []
    assert redact("Use pnpm, never npm, in this repository.") == (
        "Use pnpm, never npm, in this repository.",
        [],
    )


# --------------------------------------------------------------------------------------------
# vendor token formats (distinctive prefixes)

VENDOR_TOKENS = [
    ("aws-access-key", "AKIA" + tok(16, string.ascii_uppercase + "234567", 10)),
    ("aws-access-key", "ASIA" + tok(16, string.ascii_uppercase + "234567", 11)),
    ("gcp-api-key", "AIza" + tok(35, AN + "_-", 12)),
    ("gcp-oauth-token", "ya29." + tok(60, AN + "_-", 13)),
    ("azure-ad-client-secret", tok(3, AN, 14) + "8Q~" + tok(34, AN + "_~.", 14)),
    ("github-token", "ghp_" + tok(36, AN, 15)),
    ("github-token", "gho_" + tok(36, AN, 16)),
    ("github-token", "github_pat_" + tok(22, AN, 17) + "_" + tok(59, AN, 17)),
    ("gitlab-token", "glpat-" + tok(20, AN + "_-", 18)),
    ("gitlab-token", "glrt-" + tok(20, AN, 19)),
    (
        "slack-token",
        "xoxb-"
        + tok(11, string.digits, 20)
        + "-"
        + tok(12, string.digits, 21)
        + "-"
        + tok(24, AN, 22),
    ),
    ("slack-webhook", "https://hooks.slack.com/services/" + tok(44, AN, 23)),
    (
        "discord-bot-token",
        "MT" + tok(24, AN, 24) + "." + tok(6, AN, 25) + "." + tok(38, AN + "_-", 26),
    ),
    (
        "telegram-bot-token",
        tok(9, string.digits, 27).replace("0", "1") + ":AA" + tok(33, AN + "_-", 28),
    ),
    ("stripe-key", "sk_live_" + tok(24, AN, 29)),
    ("stripe-key", "rk_test_" + tok(24, AN, 30)),
    ("square-token", "sq0atp-" + tok(22, AN + "_-", 31)),
    ("twilio-key", "SK" + tok(32, HEX, 32)),
    ("sendgrid-key", "SG." + tok(22, AN + "_-", 33) + "." + tok(43, AN + "_-", 34)),
    ("mailchimp-key", tok(32, HEX, 35) + "-us14"),
    ("openai-key", "sk-proj-" + tok(74, AN + "_-", 36) + "T3BlbkFJ" + tok(74, AN + "_-", 37)),
    ("anthropic-key", "sk-ant-api03-" + tok(93, AN + "_-", 38) + "AA"),
    ("huggingface-token", "hf_" + tok(34, string.ascii_letters, 39)),
    ("groq-key", "gsk_" + tok(52, AN, 40)),
    ("npm-token", "npm_" + tok(36, AN, 41)),
    ("pypi-token", "pypi-AgEIcHlwaS5vcmc" + tok(70, AN + "_-", 42)),
    ("rubygems-token", "rubygems_" + tok(48, HEX, 43)),
    ("docker-hub-token", "dckr_pat_" + tok(27, AN + "_-", 44)),
    ("digitalocean-token", "dop_v1_" + tok(64, HEX, 45)),
    ("shopify-token", "shpat_" + tok(32, HEX, 46)),
    ("atlassian-api-token", "ATATT3" + tok(186, AN + "_-", 47)),
    ("linear-api-key", "lin_api_" + tok(40, AN, 48)),
    ("notion-token", "ntn_" + tok(11, string.digits, 49) + tok(35, AN, 49)),
    ("newrelic-key", "NRAK-" + tok(27, string.ascii_uppercase + string.digits, 50)),
    ("sentry-token", "sntryu_" + tok(64, HEX, 51)),
    ("doppler-token", "dp.pt." + tok(43, AN, 52)),
    ("vault-token", "hvs." + tok(95, AN + "_-", 53)),
    ("terraform-token", tok(14, LOW, 54) + ".atlasv1." + tok(64, LOW + "_-", 54)),
    ("pulumi-token", "pul-" + tok(40, HEX, 55)),
    ("postman-token", "PMAK-" + tok(24, HEX, 56) + "-" + tok(34, HEX, 57)),
    ("databricks-token", "dapi" + tok(32, HEX, 58)),
    ("planetscale-token", "pscale_tkn_" + tok(43, AN, 59)),
    ("grafana-token", "glsa_" + tok(32, AN, 60) + "_" + tok(8, HEX, 61)),
    ("age-secret-key", "AGE-SECRET-KEY-1" + tok(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 62)),
]


@pytest.mark.parametrize(("rule", "secret"), VENDOR_TOKENS, ids=[r for r, _ in VENDOR_TOKENS])
def test_vendor_token_formats(rule: str, secret: str) -> None:
    for text in (
        secret,
        f"export THING={secret}",
        f'"value": "{secret}",',
        f"use {secret} for deploys",
    ):
        _red, findings = gone(text, secret)
        assert rule in {f.rule for f in findings}, (text, findings)


@pytest.mark.parametrize(
    "text",
    [
        "ghp_" + "x" * 36,  # placeholder run
        "AKIA" + "XXXXXXXXXXXXXXXX",
        "AKIAIOSFODNN7EXAMPLE",  # AWS's documented example
        "glpat-xxxxxxxx-xxxxxxxxxxxxxxxxxx.xxxxxxxxx",
        "xoxp-1234567890",  # too short for the format
        "sk_live_",  # prefix only
        "task_test_" + tok(30, LOW, 70),  # `sk_test_` inside a word
        "partOfAlongUnrelatedBlob gYnk" + "AKCp" + tok(69, LOW, 71) + "tVyZ",  # inside base64
        "favicon.ico-" + tok(32, HEX, 72) + ".png",  # a file name, not an Infracost key
        "GR1348941" + "123" * 7,  # repeated digits
    ],
)
def test_vendor_look_alikes_are_left_alone(text: str) -> None:
    assert find(text) == []


# --------------------------------------------------------------------------------------------
# key = value with an entropy test

ASSIGNMENT_SHAPES = [
    'api_token = "{s}"',
    "API_KEY={s}",
    "apiKey: {s}",
    "export SECRET_KEY='{s}'",
    '{{"client_secret": "{s}"}}',
    "<authToken>{s}</authToken>",
    "<authToken>\n    {s}\n</authToken>",
    "auth_token: |\n  {s}",
    'var accessToken string = "{s}"',
    "serviceToken := `{s}`",
    '$apiKey .= "{s}"',
    "DEPLOY_TOKEN ?= {s}",
    'System.setProperty("API_TOKEN", "{s}")',
    '  "privateKey" => "{s}"',
    "--api-key {s}",
    "--token={s}",
    "X-Api-Key: {s}",
    "https://api.acme-corp.io/v1/items?access_token={s}&page=2",
    '{{"config.ini": "SERVICE_TOKEN={s}\\nDEBUG=true"}}',
]


@pytest.mark.parametrize("shape", ASSIGNMENT_SHAPES)
def test_assignment_shapes(shape: str) -> None:
    secret = tok(32, AN, 80)
    red, findings = gone(shape.format(s=secret), secret)
    assert {f.rule for f in findings} & {"generic-secret", "authorization-header"}
    # the key stays readable: only the value is replaced
    assert any(k in red for k in ("token", "Token", "TOKEN", "KEY", "Key", "key", "secret"))


@pytest.mark.parametrize(
    "text",
    [
        "password = Xk9#mQ2$vL8p",
        'DB_PASSWORD: "t7!Qz@4rLw"',
        "Server=db;Database=app;User Id=sa;Password=P@ssw0rd!23;",
        "the password is Tr0ub4dor&3",
        "db_pass=Wq8#xN2$kd",
        "the staging db password for admin is x8!Kq2#mZ",
    ],
)
def test_passwords(text: str) -> None:
    assert "password" in rules(text)


# a secret named in prose by words no token rule reads: its value has no known shape
@pytest.mark.parametrize(
    "shape",
    ["My private key is {s}", "my credentials are admin:{s}", "Your private key is now {s}"],
)
def test_prose_private_key_and_credentials(shape: str) -> None:
    secret = tok(10, AN, 94) + ".F!I;" + tok(12, AN + "_)@^", 95)
    red, findings = gone(shape.format(s=secret), secret)
    assert "generic-secret" in {f.rule for f in findings}
    assert red.split()[:2] == shape.split()[:2]  # the words naming it stay


@pytest.mark.parametrize(
    "text",
    ["the private key is stored in ~/.ssh/id_ed25519", "the private key is in the vault",
     "the credential is a JWT signed with RS256"],
)
def test_prose_private_key_not_a_value(text: str) -> None:
    assert not rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "api_key: ${API_KEY}",
        "token: {{ .Values.token }}",
        "password: {{ secrets.DB_PASSWORD }}",
        'API_TOKEN="$(vault read -field=token secret/x)"',
        "TOKEN=<your-token-here>",
        "api_key = 'your-api-key-here'",
        "password: changeme",
        "SECRET_KEY=example-secret-key",
        "password = os.environ['DB_PASSWORD']",
        "const apiKey = process.env.OPENAI_API_KEY;",
        "token = get_token()",
        "password: str",
        "def check_password(password: str) -> bool:",
        "the password must be at least 12 characters",
        "max_tokens = 4096",
        "csrf_token = '" + tok(32, AN, 92) + "'",
        "token_type: Bearer",
        "public_key = " + tok(43, AN, 93),
        "keyword: Befaehigung_P2",
        "api_version = 2024-01-01",
        "password_file = /run/secrets/db",
        'secret_name = "prod-db-credentials"',
        "Use the bearer token from the keychain",
        "token = xxxxxxxxxxxxxxxxxxxx",
        "password_hash = $2b$12$" + tok(53, AN + "./", 90),
        "LLM_SECRET_NAME = 'NEXUS-GPT4-API-KEY'",
        "invalidToken := '" + tok(20, LOW, 91) + "'",  # a test fixture by its name
        "The password is incorrect",
        "the token is stored in the keychain",
        "the secret is that we never push on fridays",
        "the token budget is 200k tokens",
    ],
)
def test_assignment_negatives(text: str) -> None:
    assert find(text) == [], find(text)


def test_uuid_is_a_secret_only_under_a_secret_key() -> None:
    uuid = str(uuid4())
    assert "generic-secret" in rules(f'GetEnvOrDefault("api_token", "{uuid}")')
    assert find(f"session_id = {uuid}") == []
    assert find(f"clientId = '{uuid}'") == []


def test_vendor_named_keys() -> None:
    assert rules('cloudflare_api_key = "' + tok(40, LOW + "_-", 100) + '"') == {"cloudflare-secret"}
    assert rules("TWILIO_AUTH_TOKEN=" + tok(32, HEX, 101)) == {"twilio-secret"}
    # Bundler's credentials for a gem host: found by their structure, any host (issue 15)
    assert rules("BUNDLE_GEMS__CONTRIBSYS__COM: " + tok(8, HEX, 102) + ":" + tok(8, HEX, 103)) == {
        "registry-credential"
    }
    # a vendor name alone does not make any value a secret
    assert find("'ibm1051': 'hp_roman8'") == []
    assert find("LinearRegression(slope=0.1, intercept=1.5)") == []


# --------------------------------------------------------------------------------------------
# headers, JWTs, private keys, URIs, curl, connection strings


def test_authorization_headers() -> None:
    t = tok(40, AN, 110)
    gone(f"Authorization: Bearer {t}", t)
    gone(f'curl -H "Authorization: Api-Token {t}" https://x.io', t)
    basic = base64.b64encode(b"deploy:" + tok(16, AN, 111).encode()).decode()
    gone(f"Authorization: Basic {basic}", basic)
    gone(f"bearer {t}", t)
    for text in (
        '-H "Authorization: Bearer $API_KEY"',
        "Authorization: Bearer <token>",
        "authorization = base64.decodebytes(authorization)",
        "Authorization: Token **********",
    ):
        assert find(text) == [], text


def _b64url(obj: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


def test_jwt() -> None:
    jwt = (
        _b64url({"alg": "HS256", "typ": "JWT"})
        + "."
        + _b64url({"sub": tok(10, string.digits, 120), "iat": 1700000000})
    )
    jwt += "." + tok(43, AN + "_-", 121)
    gone(f"token: {jwt}", jwt)
    assert "jwt" in rules(jwt)
    encoded = base64.b64encode(jwt.encode()).decode()
    assert "jwt" in rules(encoded)
    assert find("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9") == []  # a header alone


def test_pem_private_key_block_is_removed_whole() -> None:
    body = "\n".join(tok(64, B64, 130 + i) for i in range(5))
    block = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"
    red, findings = gone(f"before\n{block}\nafter", body.split("\n")[2])
    assert red == "before\n[REDACTED:private-key]\nafter"
    escaped = block.replace("\n", "\\n")  # inside a JSON string
    assert rules(f'{{"private_key": "{escaped}\\n"}}') >= {"private-key"}
    assert find("-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----") == []
    assert find("-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----") == []


def test_uri_credentials_and_connection_strings() -> None:
    pw = tok(14, AN, 140)
    red, _ = gone(f"postgres://app:{pw}@db.internal:5432/app", pw)
    assert red == "postgres://app:[REDACTED:uri-password]@db.internal:5432/app"
    gone(f"mongodb+srv://admin:{pw}@cluster0.mongodb.net/test", pw)
    gone(f"redis://:{pw}@cache:6379/0", pw)
    gone(f"user:{pw}@tcp(127.0.0.1:3306)/db", pw)
    gone(f"Server=db;Database=app;User Id=sa;Password={pw};", pw)
    key = tok(86, B64, 141) + "=="
    gone(f"DefaultEndpointsProtocol=https;AccountName=x;AccountKey={key};", key)
    for text in (
        "https://url:8000/path",
        "https://user:password@host.io",
        "ssh://git@github.com/org/repo.git",
        "postgres://localhost:5432/app",
        "https://${USER}:${PASS}@host.io",
    ):
        assert find(text) == [], text


def test_curl_user() -> None:
    pw = tok(16, AN, 150)
    red, _ = gone(f"curl -u elastic:{pw} https://localhost:9200", pw)
    assert "elastic:" in red
    gone(f"curl https://x.io \\\n  -H 'Accept: json' \\\n  --user 'deploy:{pw}'", pw)
    assert (
        redact(f"curl --user 'deploy:{pw}' x")[0]
        == "curl --user 'deploy:[REDACTED:curl-password]' x"
    )
    key = "sk_" + tok(24, AN, 151)
    gone(f'curl -u "{key}:" https://api.acme-corp.io', key)
    for text in (
        "curl -u user:pass https://x.io",
        'curl -u "${USER}:${PASS}" x',
        "curl -u <user:password> x",
        'curl --user "$(cat u):$(cat p)"',
        "curl -u test:test",
        "curl --user neo4j:[PASSWORD] x",
    ):
        assert find(text) == [], text


def test_query_string_and_signed_urls() -> None:
    sig = tok(43, AN, 160) + "%3D"
    gone(f"https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig={sig}", sig)
    t = tok(24, AN, 161)
    gone(f"https://api.x.io/data?api_key={t}", t)


def test_kubernetes_secret_data() -> None:
    v = base64.b64encode(tok(18, AN, 170).encode()).decode()
    doc = f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  extra: {v}\n"
    gone(doc, v)
    assert find(doc.replace("kind: Secret", "kind: ExternalSecret")) == []


# --------------------------------------------------------------------------------------------
# personal data


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Contact me at jane.roe1987@gmail.com for access", "email"),
        ("email: sam_smith+work@acme-corp.co.uk", "email"),
        ("maintainer 12345+octocat@users.noreply.github.com", "email"),
        ("Her number is +1 (415) 555-0132.", "phone-number"),
        ("call 415-555-0132 tomorrow", "phone-number"),
        ("UK mobile +44 7700 900123", "phone-number"),
        ("Tel: +33 1 23 45 67 89", "phone-number"),
        ("phone: 5551234567", "phone-number"),
        ("card 4111 1111 1111 1111 exp 12/26", "card-number"),
        ("Visa 4242424242424242", "card-number"),
        ("amex 3782 822463 10005", "card-number"),
        ("SSN 123-45-6789", "us-ssn"),
        ("ssn: 219099999", "us-ssn"),
        ("NI number AB 12 34 56 C", "uk-nino"),
        ("IBAN DE89 3704 0044 0532 0130 00", "iban"),
        ("pay to GB82WEST12345698765432 today", "iban"),
        ("MT84MALT011000012345MTLCAST001S", "iban"),
        ("FR1420041010050500013M02606", "iban"),
        ("Aadhaar 2345 6789 0124", "in-aadhaar"),
        ("DNI 12345678Z", "es-dni"),
        ("arn:aws:iam::210987654321:role/deploy", "aws-account-id"),
        ("AWS account id: 210987654321", "aws-account-id"),
        # in an ARN even AWS's documented example account names a real resource (issue 15)
        ("arn:aws:iam::123456789012:role/example", "aws-account-id"),
        ("write to [Jane](mailto:jane.roe@acme-corp.io)", "email"),
        ("mailto:bob.k@corp.example.net?subject=hi", "email"),
        ("build from ~carol/src/app", "home-user"),
        ("http://host.example.org/~dave/pub/", "home-user"),
    ],
)
def test_personal_data(text: str, rule: str) -> None:
    assert rule in rules(text), (text, find(text))


@pytest.mark.parametrize(
    "text",
    [
        "git@github.com:org/repo.git",
        "Co-Authored-By: Claude <noreply@anthropic.com>",
        "see user@example.com in the docs",
        "logo@2x.png and npm i @anthropic-ai/claude-code@1.0.51",
        "1234 5678 9012 3456 fails the Luhn check",
        "4111 1111 1111 1112",
        "SSN 000-12-3456",
        "the build took 1700000000000 ms; order 98765432",
        "Decimal('+35236450.6')",
        "aws_account_id = 123456789012",  # the documented example account, outside an ARN
        "IBAN DE89 3704 0044 0532 0130 01",  # bad checksum
    ],
)
def test_personal_data_negatives(text: str) -> None:
    assert find(text) == [], find(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cd /home/alice/projects/app", "cd /home/[REDACTED:home-user]/projects/app"),
        ("open /Users/bob.smith/Library/Logs", "open /Users/[REDACTED:home-user]/Library/Logs"),
        (r"C:\Users\carol\AppData\Local", r"C:\Users\[REDACTED:home-user]\AppData\Local"),
        (r'"C:\\Users\\dave\\code"', r'"C:\\Users\\[REDACTED:home-user]\\code"'),
        ("C:/Users/erin/code", "C:/Users/[REDACTED:home-user]/code"),
        ("/mnt/c/Users/frank/Downloads", "/mnt/c/Users/[REDACTED:home-user]/Downloads"),
        ("/var/home/ivan/.config", "/var/home/[REDACTED:home-user]/.config"),
        ("/media/judy/USB", "/media/[REDACTED:home-user]/USB"),
        ("/run/media/judy/disk", "/run/media/[REDACTED:home-user]/disk"),
        (r"\\corp-fs01\users\kim\logs", r"\\corp-fs01\users\[REDACTED:home-user]\logs"),
        (
            "~/.claude/projects/-home-grace-src-app/x.jsonl",
            "~/.claude/projects/-home-[REDACTED:home-user]-src-app/x.jsonl",
        ),
        (
            "~/.claude/projects/-Users-heidi-work/",
            "~/.claude/projects/-Users-[REDACTED:home-user]-work/",
        ),
    ],
)
def test_home_directories_lose_only_the_user_name(text: str, expected: str) -> None:
    assert redact(text)[0] == expected


@pytest.mark.parametrize(
    "text",
    [
        "/home/runner/work/app",
        "/Users/Shared/data",
        "/home/<user>/src",
        "/home/$USER/src",
        "https://example.org/home/about",
        "GET /users/123/profile",
        "go-home-early-today",
        "cd ~/src; git diff HEAD~1/x; a~b/c; ~root/.ssh; ~$USER/x",
    ],
)
def test_home_directory_negatives(text: str) -> None:
    assert find(text) == [], find(text)


# --------------------------------------------------------------------------------------------
# never redacted


@pytest.mark.parametrize(
    "text",
    [
        "commit 3f2a9c1b7e4d5a6f8091b2c3d4e5f60718293a4b fixed it",
        "atom atm_14a05266 was promoted",
        "7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl#L42",
        "sessions: [7acd37a8-2745-4b58-a8a9-46164b22ad9e, 326189cf-5676-4237-8cde-1ce80aae4a9f]",
        "upgrade to 1.24.3 and 2.0.0-rc.1; pip install requests==2.31.0",
        "listen on port 8080 and 127.0.0.1:5432; EXPOSE 3000",
        "use_pnpm_instead is the setting; getApiKeyFromVault() returns it",
        "The default branch is dev, PRs target dev.",
        "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "2024-01-15T10:30:00Z, issue #12345",
        "Run `pytest -q` before pushing; never force-push to main.",
    ],
)
def test_never_redacted(text: str) -> None:
    assert find(text) == [], find(text)


def test_ordinary_source_text_is_left_alone() -> None:
    import agent_memory.cli.main
    import agent_memory.model.atom

    for module in (agent_memory.cli.main, agent_memory.model.atom):
        assert module.__file__
        assert find(Path(module.__file__).read_text()) == []


# --------------------------------------------------------------------------------------------
# property: redaction output has no findings, and redaction is idempotent

FRAGMENTS = [
    "token",
    "=",
    " ",
    '"',
    "'",
    ":",
    "ghp_",
    "AKIA",
    tok(16, string.ascii_uppercase, 200),
    tok(16, AN, 201),
    "@",
    "jane",
    "acme-corp.io",
    "/home/",
    "alice",
    "/",
    "-home-",
    "-",
    "password",
    tok(20, AN, 202),
    "\n",
    "curl -u ",
    "://",
    "postgres",
    "eyJ",
    ".",
    "4111 1111 1111 1111",
    "+1 415 555 0132",
    "123-45-6789",
    "[REDACTED:email]",
    "[",
    "]",
    "api_key",
    "-----BEGIN PRIVATE KEY-----",
    "-----END PRIVATE KEY-----",
    tok(64, B64, 203),
    "Authorization: Bearer ",
    "xoxb-",
    "1234567890",
    "secret",
    "_",
    "\\",
    "`",
    "(",
    ")",
    "{",
    "}",
    ",",
    ";",
    "C:\\Users\\",
    "sk-ant-api03-",
    tok(8, HEX, 204),
    "Q~",
    # issue 15 parsers: invisible and look-alike characters, encodings, structures, prefixes
    "\u200b",
    "\uff47\uff48\uff50\uff3f",
    "\u0430",
    "%40",
    "%3D",
    "kind: Secret\n",
    "data:\n",
    "stringData:\n  ",
    "  x: ",
    "|\n    ",
    "BUNDLE_GEMS__X__COM=",
    base64.b64encode(b"token=" + tok(24, AN, 205).encode()).decode(),
    "zrb_live_",
    tok(32, HEX, 206),
    "~bob/",
    "mailto:",
    "arn:aws:iam::",
    "123456789012",
    "ClientSecret ",
    "_KEY",
]
TEXTS = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=6), max_size=30).map("".join)


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(TEXTS)
def test_property_output_has_no_findings_and_is_idempotent(text: str) -> None:
    red, findings = redact(text)
    assert findings == find(text)
    assert all(0 <= f.start < f.end <= len(text) for f in findings)
    assert all(a.end <= b.start for a, b in zip(findings, findings[1:], strict=False))
    assert find(red) == []
    assert redact(red) == (red, [])


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=200))
def test_property_on_arbitrary_text(text: str) -> None:
    red, _ = redact(text)
    assert find(red) == []


# --------------------------------------------------------------------------------------------
# bounded work on hostile input: run in a subprocess with a generous timeout (no timing
# assertion; a hang or a super-linear blow-up fails by timing out)

HOSTILE = r"""
import os, sys
sys.path.insert(0, sys.argv[1])
from agent_memory.redact.redactor import find, redact
n = 400_000
cases = [
    os.urandom(n).decode("latin-1"), os.urandom(n).decode("utf-8", "replace"),
    "a" * n, "A" * n, "1" * n, '"' * n, "'\"" * (n // 2), "@" * n, "a@" * (n // 2), "eyJ" * (n // 3),
    "token=" * (n // 6), "key = " * (n // 6), "curl -u " * (n // 8), "://" * (n // 3), "/home/" * (n // 6),
    "-----BEGIN PRIVATE KEY-----\n" * (n // 28), "kind: secret\n" * (n // 13), "Authorization: " * (n // 15),
    "<aToken>" * (n // 8), "1 " * (n // 2), "-home-" * (n // 6),
]
for text in cases:
    red, findings = redact(text)
    assert find(red) == []
line = ("x" * 5_000_000) + " password = " + "Zq8#" + "kd93Lx" + " " + ("y" * 5_000_000)
assert any(f.rule == "password" for f in find(line))  # one 10 MB line, secret in the middle
print("ok")
"""


def test_hostile_inputs_finish() -> None:
    root = str(Path(__file__).resolve().parent.parent)
    proc = subprocess.run(
        [sys.executable, "-c", HOSTILE, root], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_import_compiles_nothing() -> None:
    """The per-prompt hook imports this module: the rules compile on first use only."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import agent_memory.redact.redactor as r; import re;"
        "assert r._ENGINE is None; assert type(r._AFTER).__name__ == '_LazyPattern'; print('ok')"
    )
    root = str(Path(__file__).resolve().parent.parent)
    proc = subprocess.run(
        [sys.executable, "-c", code, root], capture_output=True, text=True, timeout=60
    )
    assert proc.stdout.strip() == "ok", proc.stderr


# --------------------------------------------------------------------------------------------
# labelled corpora (decoded here, never written out)


def _corpus(name: str) -> list[dict[str, str]]:
    rows = [json.loads(line) for line in (SECRETS / name).read_text().splitlines() if line.strip()]
    for r in rows:
        r["text"] = base64.b64decode(r["text_b64"]).decode("utf-8", "replace")
    return rows


def test_gitleaks_dev_corpus_thresholds() -> None:
    """Issue 3 targets: ≥ 99 % of the secrets caught, ≤ 5 % of the look-alikes flagged.

    Six `fp` lines of this corpus are also labelled `tp` under a sibling rule (the Cloudflare
    rules list each other's samples as negatives), so no redactor can pass both labels on them;
    the look-alike figure is taken over the `fp` lines that are not also labelled `tp`. All
    flagged lines are printed on failure."""
    rows = _corpus("gitleaks_dev.b64.jsonl")
    tps = [r for r in rows if r["label"] == "tp"]
    tp_texts = {r["text"] for r in tps}
    fps = [r for r in rows if r["label"] == "fp" and r["text"] not in tp_texts]
    caught = sum(1 for r in tps if find(r["text"]))
    flagged = [r for r in fps if find(r["text"])]
    assert caught / len(tps) >= 0.99, f"caught {caught}/{len(tps)}"
    assert len(flagged) / len(fps) <= 0.05, [(r["rule_id"], r["text"][:80]) for r in flagged]


def test_detect_secrets_corpus_is_measured() -> None:
    """Reported only (README: many `tp` there are low-entropy placeholders); this pins the
    real-format families so a regression shows."""
    rows = _corpus("detect_secrets.b64.jsonl")
    by_plugin: dict[str, list[bool]] = {}
    for r in rows:
        if r["label"] == "tp":
            by_plugin.setdefault(r["plugin"], []).append(bool(find(r["text"])))
    for plugin in (
        "jwt",
        "stripe_key",
        "openai",
        "sendgrid",
        "telegram_token",
        "mailchimp_key",
        "pypi_token",
    ):
        assert all(by_plugin[plugin]), plugin


# --------------------------------------------------------------------------------------------
# `git memory redact`


def _cli(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return run_main_bytes(None, ["redact", *args], stdin=stdin)


def test_cli_text_and_json() -> None:
    secret = tok(32, AN, 300)
    data = f'token = "{secret}"\nhello jane.roe@acme-corp.io\n'.encode()
    out = _cli(data)
    assert out.returncode == 0
    assert out.stdout.decode() == 'token = "[REDACTED:generic-secret]"\nhello [REDACTED:email]\n'
    js = json.loads(_cli(data, "--output", "json").stdout)
    assert js["text"] == out.stdout.decode()
    assert [(f["rule"], f["start"], f["end"]) for f in js["findings"]] == [
        ("generic-secret", 9, 41),
        ("email", 49, 70),
    ]


def test_cli_each_line_and_binary_input() -> None:
    secret = "AKIA" + tok(16, string.ascii_uppercase + "234567", 301)
    data = b"a\r\nkey " + secret.encode() + b"\n\xff\xfe\x00 binary\n"
    out = _cli(data, "--each-line")
    assert out.returncode == 0
    assert (
        out.stdout == b"a\r\nkey [REDACTED:aws-access-key]\n\xef\xbf\xbd\xef\xbf\xbd\x00 binary\n"
    )
    lines = [
        json.loads(x) for x in _cli(data, "--each-line", "--output", "json").stdout.splitlines()
    ]
    assert [x["text"] for x in lines] == [
        "a",
        "key [REDACTED:aws-access-key]",
        "\ufffd\ufffd\x00 binary",
    ]
    assert lines[1]["findings"] == [{"rule": "aws-access-key", "start": 4, "end": 24}]
    assert lines[0]["findings"] == lines[2]["findings"] == []
