"""Redaction gaps of issue 23: explicit passwords in other languages and in prose, values that
hold `&`, `|`, quotes or brackets (the WHOLE value goes), a plain word after an explicit
`password:`, and a known-prefix token a few characters too long or short — and, on the other
side, zero false alarms on identifiers that only look like keys. Through `redact`, the commit
guard, and the installed `git memory redact`, `extract` and `scan`.

Realistic tokens are built at run time from a seeded generator (never written out whole)."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest
from builders import block
from sessions import gm

from agent_memory.redact.guard import scan_text
from agent_memory.redact.redactor import find, redact

MARK = "[REDACTED:password]"


def _tok(n: int, seed: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


# --- explicit passwords in the languages people write in ------------------------------------

EXPLICIT = [
    # (text, the value that must go)
    ("Passwort: sommerwind", "sommerwind"),
    ("Das WLAN-Passwort lautet Sommer2024", "Sommer2024"),
    ("Kennwort = Bergsee", "Bergsee"),
    ("contraseña: verano", "verano"),
    ("la contraseña de la base de datos es Verano2024", "Verano2024"),
    ("mot de passe : soleil", "soleil"),
    ("le mot de passe est Soleil42", "Soleil42"),
    ("пароль: весна", "весна"),
    ("пароль от базы: zima2024", "zima2024"),
    ("密码：chunfeng", "chunfeng"),
    ("数据库密码是 chunfeng88", "chunfeng88"),
    ("senha: saudade", "saudade"),
    ("a senha do banco é Saudade7", "Saudade7"),
    ("wachtwoord: tulpen", "tulpen"),
    ("lösenord: sommar", "sommar"),
    ("hasło: wiosna", "wiosna"),
    ("heslo: jaro2024", "jaro2024"),
    ("şifre: bahar", "bahar"),
    ("パスワード: sakura", "sakura"),
    ("비밀번호: bomnal", "bomnal"),
    ("parola d'ordine: primavera", "primavera"),
]


@pytest.mark.parametrize(("text", "value"), EXPLICIT, ids=[t for t, _ in EXPLICIT])
def test_a_password_stated_in_another_language_is_redacted(text: str, value: str) -> None:
    red, findings = redact(text)
    assert value not in red and MARK in red, red
    assert [f.rule for f in findings] == ["password"]


# --- prose and a plain word after an explicit `password:` ------------------------------------

PROSE = [
    ("always use the database password Tr0ub4dor", "Tr0ub4dor"),
    ("always use the database password hunter2 for staging", "hunter2"),
    ("the db password is hunter2", "hunter2"),
    ("use password Xy7-pq!9 on the replica", "Xy7-pq!9"),
    ("password: dragon", "dragon"),
    ("the wifi password: sunshine", "sunshine"),
    ("Password: correct", "correct"),
    ("PASSWORD=sunshine", "sunshine"),
    ("passphrase: correct horse battery staple", "correct horse battery staple"),
]


@pytest.mark.parametrize(("text", "value"), PROSE, ids=[t for t, _ in PROSE])
def test_a_password_in_prose_or_after_an_explicit_key_is_redacted(text: str, value: str) -> None:
    red, _ = redact(text)
    assert value not in red and MARK in red, red


# --- the whole value goes, whatever characters it holds ----------------------------------------

WHOLE = [
    ("password: &secret&word", "&secret&word"),
    ("password: &amp;s3cret", "&amp;s3cret"),
    ("password=|pipe|secret", "|pipe|secret"),
    ("password: a|b|c9", "a|b|c9"),
    ('password: "quoted"inner', '"quoted"inner'),
    ("password: 'a'b'c'", "'a'b'c'"),
    ("password: abc)def(gh", "abc)def(gh"),
    ("password: )start9", ")start9"),
    ("db_password=ab&cd", "ab&cd"),
    ("DB_PASSWORD='x)y&z|w'", "x)y&z|w"),
    ("Passwort: a&b)c", "a&b)c"),
]


@pytest.mark.parametrize(("text", "value"), WHOLE, ids=[t for t, _ in WHOLE])
def test_the_whole_value_goes_whatever_characters_it_holds(text: str, value: str) -> None:
    red, _ = redact(f"{text} then deploy")
    assert red.endswith(" then deploy")
    left = red.removesuffix(" then deploy")
    # nothing of the value is left beside the marker
    assert MARK in left and not set(left.replace(MARK, "")) & (set(value) - set(text[: text.index(value)]))
    assert find(red) == []


def test_a_query_or_connection_string_value_ends_at_the_next_field() -> None:
    red, _ = redact("https://db.example.invalid/login?user=bob&password=s3cr&t9&next=/home")
    assert "next=/home" in red and "s3cr" not in red
    red, _ = redact("Server=db;User Id=bob;Password=p&ss9;Database=x")
    assert "Database=x" in red and "p&ss9" not in red


# --- zero false alarms on what only looks like a key -------------------------------------------

NOT_SECRETS = [
    "credentialsId: 'deploy-key-prod'",
    "credentialsId: 'github-token'",
    "git credentialsId: 'github-app-token', url: 'https://github.com/acme/api'",
    "withCredentials([usernamePassword(credentialsId: 'prod-db-password', "
    "usernameVariable: 'U', passwordVariable: 'P')])",
    "withCredentials([string(credentialsId: 'slack-webhook-token', variable: 'SLACK')])",
    "credentials_id = \"aws-secret-key-2\"",
    "secretId: 'prod/db/password'",
    "TOKEN_PREFIX_1234567890",
    "KEY_2024_05",
    "API_KEY_0001",
    'static final String SECRET_KEY_PREFIX = "SK_20240101";',
    "API_KEY_V2_NAME = 'API_KEY_12345'",
    "PASSWORD_MIN_LENGTH = 12",
    "password = get_password()",
    "def login(password: str) -> None:",
    "if password == confirm_password:",
    "password: ${{ secrets.DB_PASSWORD }}",
    "password = os.environ['DB_PASSWORD']",
    "const password = req.body.password;",
    "password: process.env.DB_PASS",
    "{ username: user, password: pass }",
    "password: Joi.string().min(8).required(),",
    "passwd = getpass.getpass('Password: ')",
    "user, passwd = self.get_user_passwd(host, realm, i)",
    "def login(self, user='', passwd='', acct='', secure=True):",
    "password: <your password>",
    "password: '********'",
    "Password: required",
    "the password field is required",
    "the password is correct",
    "Password manager: Bitwarden",
    "password policy: min 12 chars",
    "passwordless login",
    "echo $PASSWORD | docker login --password-stdin",
    "cat /etc/passwd",
    "Passwort vergessen?",
    "contraseña incorrecta",
    "mot de passe oublié",
    "пароль неверный",
    "密码错误",
    "senha inválida",
    "resenha: muito boa",
    "DATABRICKS_TOKEN=dapi123456789012345678a9bc01234defg5",
]


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_identifiers_and_sentences_that_only_look_like_keys_are_left_alone(text: str) -> None:
    assert redact(text)[0] == text


def test_the_guard_raises_no_alarm_on_ci_credential_ids() -> None:
    content = block(
        "- Deploy with `credentialsId: 'deploy-key-prod'` in the Jenkinsfile",
        "- Constants are named like `API_KEY_0001`, `TOKEN_PREFIX_1234567890`",
    )
    assert scan_text("CLAUDE.memory.md", content) == []


# --- a known-prefix token a few characters off is still a secret -------------------------------


def _ghp(body: int, seed: int) -> str:
    return "gh" + "p_" + _tok(body, seed)


@pytest.mark.parametrize("body", [33, 34, 35, 37, 38, 40])
@pytest.mark.parametrize("shape", ["token={}", "export GITHUB_TOKEN={}", 'token: "{}"'])
def test_a_known_prefix_token_a_few_characters_off_is_still_a_secret(body: int, shape: str) -> None:
    token = _ghp(body, body)
    red, findings = redact(shape.format(token))
    assert token not in red and token[4:] not in red and findings, red


def test_a_wrong_alphabet_after_a_known_prefix_stays_a_look_alike() -> None:
    """The documented false positives of the corpus: a family's prefix, letters it never uses."""
    body = _tok(32, 5, "0123456789abcdef")[:-4] + "wxyz"
    assert redact(f"DATABRICKS_TOKEN=dapi{body}")[0] == f"DATABRICKS_TOKEN=dapi{body}"


# --- through the CLI: redact, extract, scan ------------------------------------------


def test_installed_cli_redacts_and_scans_every_gap(guarded: Path) -> None:
    token = _ghp(34, 7)
    lines = [
        f"token={token}",
        "Passwort: sommerwind",
        "always use the database password Tr0ub4dor",
        "password: &secret&word",
    ]
    for line in lines:
        out = json.loads(gm(guarded, "redact", "--output", "json", input_text=line).stdout)
        assert out["findings"], line
        assert "sommerwind" not in out["text"] and token not in out["text"]
        assert "Tr0ub4dor" not in out["text"] and "secret&word" not in out["text"]
    memory = guarded / "CLAUDE.memory.md"
    memory.write_text(block(*(f"- {line}" for line in lines)), "utf-8")
    scan = gm(guarded, "scan", str(memory), check=False)
    assert scan.returncode == 1
    assert len(scan.stdout.strip().splitlines()) == len(lines), scan.stdout
    memory.write_text(block("- Deploy with credentialsId: 'deploy-key-prod'"), "utf-8")
    assert gm(guarded, "scan", str(memory), check=False).returncode == 0


def test_installed_extract_never_shows_the_secrets(guarded: Path, tmp_path: Path) -> None:
    token = _ghp(35, 9)
    prompts = [
        f"Always deploy with token={token} from now on",
        "Always use the database password Tr0ub4dor for staging",
        "Remember: Das Passwort ist Sommer2024, always use it for the VPN",
    ]
    records = [
        {
            "type": "user",
            "sessionId": "s-1",
            "timestamp": "2026-03-01T10:00:00Z",
            "cwd": str(guarded),
            "message": {"role": "user", "content": p},
        }
        for p in prompts
    ]
    path = tmp_path / "s-1.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    out = gm(guarded, "extract", "--transcript", str(path), "--output", "json").stdout
    for secret in (token, token[4:], "Tr0ub4dor", "Sommer2024"):
        assert secret not in out


@pytest.mark.parametrize("seed", range(20))
def test_the_line_and_backquote_lookups_are_what_rfind_and_count_give(seed: int) -> None:
    """A password key's line start and the backquotes before it are looked up in positions
    found once per scan (a count from the line's start per key made the guard quadratic on one
    long line: a cloned repository's 800 KB block line of `password …` took ~10 s to scan, now
    ~1.6 s); the answers are those of `str.rfind` and `str.count`."""
    from agent_memory.redact.context import ScanContext

    rng = random.Random(seed)
    text = "".join(rng.choice("ab`\n ") for _ in range(rng.randrange(0, 60)))
    ctx = ScanContext(text)
    for pos in range(len(text) + 1):
        assert ctx.line_start(pos) == text.rfind("\n", 0, pos) + 1
        for end in range(pos, len(text) + 1):
            assert ctx.backquotes(pos, end) == text.count("`", pos, end)
