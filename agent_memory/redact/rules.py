"""Rule data of the redaction modules (`agent_memory.redact.redactor`): token formats, vendor names and
word lists.

Plain data (tuples of strings), so importing this module costs almost nothing; the engine
compiles the patterns once, on first use. Formats follow the vendors' documentation and the
public rule sets of gitleaks and detect-secrets (read for formats; patterns are our own).
Every pattern has bounded quantifiers: nothing here can backtrack without limit, whatever
the input.
"""

from __future__ import annotations

# Boundaries shared by the token patterns. `_L` refuses a match that starts inside a longer
# alphanumeric run; `_LB` also after a `+` (a 4-letter prefix such as AKIA occurs by chance
# in long base64 strings); `_R` refuses a match that stops inside a longer run. A `/` is a
# path separator first (`s3://bucket/AKIA…`, `keys/AKIA….txt`, a URL's path): `_LB` once
# refused it too, and a key in a path or a URL was not found. In a base64 blob the prefix
# still needs its whole body in the run and a non-alphanumeric end right after it (`_R`).
_L = r"(?<![A-Za-z0-9])"
_LB = r"(?<![A-Za-z0-9+])"
_R = r"(?![A-Za-z0-9])"
_RW = r"(?![A-Za-z0-9_-])"
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

_LOWER = "abcdefghijklmnopqrstuvwxyz"


def _each(fmt: str, letters: str) -> tuple[str, ...]:
    """The keywords of a family whose vendor varies one letter of the prefix over the years
    (`ghp_`, `gho_`, `ghs_` …; `xoxb-`, `xoxp-` …): every letter, so that an older or a newer
    shape of a known family is a token too."""
    return tuple(fmt.format(c) for c in letters)


# fmt: off
# (rule, keywords, pattern, min entropy, offsets)
#   keywords: lower-case literals; the pattern is tried where one occurs in the text.
#   pattern: matched at the keyword (minus each offset in `offsets`); group "s", when present,
#            is the secret span, otherwise the whole match is.
#   min entropy: Shannon entropy (bits/char) the secret must reach; rejects XXXX placeholders.
TokenSpec = tuple[str, tuple[str, ...], str, float, tuple[int, ...]]
TOKENS: tuple[TokenSpec, ...] = (
    # --- cloud providers -------------------------------------------------------------------------
    ("aws-access-key", ("akia", "asia", "abia", "acca", "a3t"),
     _LB + r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}" + _R, 3.0, (0,)),
    # ... and after a `+` (a space in form-encoded text: `q=my+key+AKIA…`) when what follows
    # could not go on a base64 run, which is what `_LB` keeps it out of (one with a `+` on both
    # sides, `q=a+AKIA…+b`, is read with its whole form value: handlers.form_aws_key)
    ("aws-access-key", ("akia", "asia", "abia", "acca", "a3t"),
     r"(?<=\+)(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9+/=])", 3.0, (0,)),
    ("aws-bedrock-key", ("absk",), _LB + r"ABSK[A-Za-z0-9+/]{100,280}={0,2}(?![A-Za-z0-9+/=])", 3.0, (0,)),
    ("aws-bedrock-key", ("bedrock-api-key-",),
     _L + r"bedrock-api-key-[A-Za-z0-9+/]{60,1500}={0,2}", 3.5, (0,)),
    ("gcp-api-key", ("aiza",), r"(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}" + _RW, 3.5, (0,)),
    ("gcp-oauth-token", ("ya29.",), _L + r"ya29\.[A-Za-z0-9_-]{30,1000}", 3.5, (0,)),
    ("gcp-oauth-client-secret", ("gocspx-",), _L + r"GOCSPX-[A-Za-z0-9_-]{28}" + _RW, 3.0, (0,)),
    ("gcp-refresh-token", ("1//0",), r"(?<![\w/])1//0[A-Za-z0-9_-]{40,300}", 3.5, (0,)),
    ("azure-ad-client-secret", ("q~",),
     r"""(?:(?<=[\\'"`\s>=:(,)])|^)[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?=$|[\\'"`\s<),])""", 3.0, (4,)),
    ("azure-storage-key", ("accountkey=", "sharedaccesskey="),
     r"(?i:accountkey|sharedaccesskey)=(?P<s>[A-Za-z0-9+/]{40,100}={0,2})", 3.5, (0,)),
    ("alibaba-access-key", ("ltai",), _LB + r"LTAI[A-Za-z0-9]{20}" + _R, 3.0, (0,)),
    ("digitalocean-token", _each("do{}_v1_", _LOWER),
     _L + r"do[a-z]_v1_[a-f0-9]{64}" + _R, 3.0, (0,)),
    ("heroku-api-key", ("hrku-",), _L + r"HRKU-[A-Za-z0-9_-]{58,64}" + _RW, 3.5, (0,)),
    ("flyio-token", ("fo1_",), _L + r"fo1_[\w-]{43}" + _RW, 3.5, (0,)),
    ("flyio-token", ("fm1", "fm2_"), _L + r"fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,2000}={0,3}", 3.5, (0,)),
    ("cloudflare-origin-ca-key", ("v1.0-",), _L + r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}" + _R, 3.0, (0,)),
    ("scalingo-token", ("tk-us-",), _L + r"tk-us-[\w-]{48}" + _RW, 3.0, (0,)),
    ("yandex-token", ("t1.",), _L + r"t1\.[A-Za-z0-9_-]{10,100}={0,2}\.[A-Za-z0-9_-]{86}={0,2}", 3.5, (0,)),
    ("yandex-api-key", ("aqvn",), _LB + r"AQVN[A-Za-z0-9_-]{35,38}" + _RW, 3.5, (0,)),
    # --- forges, CI, package registries ----------------------------------------------------------
    ("github-token", _each("gh{}_", _LOWER),
     _L + r"gh[a-z]_[A-Za-z0-9]{36,255}" + _R, 3.0, (0,)),
    ("github-token", ("github_pat_",), _L + r"github_pat_[A-Za-z0-9_]{60,255}" + _R, 3.0, (0,)),
    ("gitlab-token", ("glpat-",),
     _L + r"glpat-(?:[\w-]{27,300}\.[0-9a-z]{2}[0-9a-z]{7}|[\w-]{20})" + _RW, 3.0, (0,)),
    ("gitlab-token", ("gldt-", "glrt-", "glsoat-", "glffct-", "glft-", "glst-", "glcst-"),
     _L + r"gl(?:dt|rt|soat|ffct|ft)-[\w-]{20,300}(?:\.[0-9a-z]{9})?" + _RW, 3.0, (0,)),
    ("gitlab-token", ("glcbt-",), _L + r"glcbt-[0-9a-zA-Z]{1,5}_[\w-]{20}" + _RW, 3.0, (0,)),
    ("gitlab-token", ("glimt-",), _L + r"glimt-[\w-]{25}" + _RW, 3.0, (0,)),
    ("gitlab-token", ("glagent-",), _L + r"glagent-[\w-]{50,300}" + _RW, 3.0, (0,)),
    ("gitlab-token", ("gloas-",), _L + r"gloas-[\w-]{64}" + _RW, 3.0, (0,)),
    ("gitlab-token", ("glptt-",), _L + r"glptt-[0-9a-f]{40}" + _R, 3.0, (0,)),
    ("gitlab-token", ("gr1348941",), _L + r"GR1348941[\w-]{20,50}" + _RW, 3.0, (0,)),
    ("gitlab-session", ("_gitlab_session=",), r"_gitlab_session=(?P<s>[0-9a-z]{32})" + _R, 3.0, (0,)),
    ("bitbucket-app-password", ("atbb",), _LB + r"ATBB[A-Za-z0-9_=.-]{32,64}" + _RW, 3.5, (0,)),
    ("atlassian-api-token", ("atatt3", "atctt3"), _L + r"AT[AC]TT3[A-Za-z0-9_=-]{150,250}" + _RW, 3.5, (0,)),
    ("npm-token", ("npm_",), _L + r"npm_[A-Za-z0-9]{36}" + _R, 3.0, (0,)),
    ("pypi-token", ("pypi-age",), _L + r"pypi-AgE[A-Za-z0-9_-]{50,1000}", 3.0, (0,)),
    ("rubygems-token", ("rubygems_",), _L + r"rubygems_[a-f0-9]{48}" + _R, 3.0, (0,)),
    ("nuget-key", ("oy2",), _L + r"oy2[a-z0-9]{43}" + _R, 3.5, (0,)),
    ("clojars-token", ("clojars_",), _L + r"(?i:CLOJARS_)[a-z0-9]{60}" + _R, 3.0, (0,)),
    ("docker-hub-token", _each("dckr_{}at_", _LOWER),
     _L + r"dckr_[a-z]at_[A-Za-z0-9_-]{27,64}" + _RW, 3.0, (0,)),
    ("artifactory-key", ("akcp",), _LB + r"AKCp[A-Za-z0-9]{60,80}" + _R, 4.0, (0,)),
    ("artifactory-key", ("cmvmd",), _LB + r"cmVmd[A-Za-z0-9]{59}" + _R, 4.0, (0,)),
    ("circleci-token", ("ccipat_",), _L + r"CCIPAT_[A-Za-z0-9]{20,24}_[a-f0-9]{40}" + _R, 3.0, (0,)),
    ("buildkite-token", ("bkua_",), _L + r"bkua_[a-f0-9]{40}" + _R, 3.0, (0,)),
    ("sonar-token", _each("sq{}_", _LOWER), _L + r"sq[a-z]_[a-f0-9]{40}" + _R, 3.0, (0,)),
    ("pulumi-token", ("pul-",), _L + r"pul-[a-f0-9]{40}" + _R, 3.0, (0,)),
    ("terraform-token", ("atlasv1",),
     _L + r"[a-zA-Z0-9]{14}\.atlasv1\.[a-zA-Z0-9_=-]{60,70}" + _RW, 3.5, (15,)),
    ("vault-token", _each("hv{}.", _LOWER), _L + r"hv[a-z]\.[\w-]{90,300}" + _RW, 3.5, (0,)),
    ("doppler-token", ("dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."),
     _L + r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_-]{40,64}" + _RW, 3.0, (0,)),
    ("infracost-token", ("ico-",), r"(?<![A-Za-z0-9./_-])ico-[A-Za-z0-9]{32}" + _R, 3.0, (0,)),
    ("sourcegraph-token", ("sgp_",),
     _L + r"sgp_(?:(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}|[a-fA-F0-9]{40})" + _R, 3.0, (0,)),
    ("harness-token", ("pat.", "sat."),
     _L + r"(?:pat|sat)\.[\w-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}" + _R, 3.0, (0,)),
    ("prefect-token", ("pnu_",), _L + r"pnu_[A-Za-z0-9]{36}" + _R, 3.0, (0,)),
    ("postman-token", ("pmak-",), _L + r"PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}" + _R, 3.0, (0,)),
    ("readme-token", ("rdme_",), _L + r"rdme_[a-z0-9]{70}" + _R, 3.0, (0,)),
    ("databricks-token", ("dapi",), _L + r"dapi[a-f0-9]{32}(?:-\d)?" + _R, 3.0, (0,)),
    ("planetscale-token", ("pscale_",), _L + r"pscale_(?:tkn|oauth|pw)_[\w=.-]{32,64}" + _RW, 3.0, (0,)),
    ("supabase-token", ("sbp_",), _L + r"sbp_[a-f0-9]{40}" + _R, 3.0, (0,)),
    ("supabase-token", ("sb_secret_",), _L + r"sb_secret_[A-Za-z0-9_-]{20,64}" + _RW, 3.0, (0,)),
    ("netlify-token", ("nfp_",), _L + r"nfp_[A-Za-z0-9]{36}" + _R, 3.0, (0,)),
    ("render-token", ("rnd_",), _L + r"rnd_[A-Za-z0-9]{32}" + _R, 3.5, (0,)),
    ("vercel-token", _each("vc{}_", _LOWER),
     _L + r"vc[a-z]_[A-Za-z0-9]{24,80}" + _R, 3.5, (0,)),
    ("linear-api-key", ("lin_api_", "lin_oauth_"),
     _L + r"lin_(?:api|oauth)_[A-Za-z0-9]{40,64}" + _R, 3.0, (0,)),
    ("notion-token", ("ntn_",), _L + r"ntn_[0-9]{11}[A-Za-z0-9]{35}" + _R, 3.5, (0,)),
    ("notion-token", ("secret_",), _L + r"secret_[A-Za-z0-9]{43}" + _R, 4.0, (0,)),
    ("sentry-token", ("sntrys_",),
     _L + r"sntrys_eyJpYXQiO[A-Za-z0-9+/=]{50,400}_[A-Za-z0-9+/]{43}(?![A-Za-z0-9+/])", 4.0, (0,)),
    ("sentry-token", ("sntryu_",), _L + r"sntryu_[a-f0-9]{64}" + _R, 3.5, (0,)),
    ("grafana-token", ("glc_",), _L + r"glc_[A-Za-z0-9+/]{32,400}={0,3}(?![A-Za-z0-9+/=])", 3.5, (0,)),
    ("grafana-token", ("glsa_",), _L + r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}" + _R, 3.0, (0,)),
    ("grafana-token", ("eyjrijoi",), _L + r"eyJrIjoi[A-Za-z0-9]{70,400}={0,3}" + _R, 3.0, (0,)),
    ("newrelic-key", ("nrak-", "nrii-", "nraa-", "nrri-", "nrlk-", "nrrk-"),
     _L + r"NR[A-Z]{2}-[A-Za-z0-9-]{27,32}" + _RW, 3.0, (0,)),
    ("newrelic-key", ("nrjs-",), _L + r"NRJS-[a-f0-9]{19}" + _R, 3.0, (0,)),
    ("dynatrace-token", ("dt0c01.",), _L + r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}" + _R, 3.5, (0,)),
    ("settlemint-token", ("sm_aat_", "sm_pat_", "sm_sat_"),
     _L + r"sm_[a-z]at_[A-Za-z0-9]{16}" + _R, 3.0, (0,)),
    ("typeform-token", ("tfp_",), _L + r"tfp_[A-Za-z0-9_.=-]{59}" + _RW, 3.0, (0,)),
    ("frameio-token", ("fio-u-",), _L + r"fio-u-[A-Za-z0-9_=-]{64}" + _RW, 3.0, (0,)),
    ("defined-networking-token", ("dnkey-",), _L + r"dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}" + _RW, 3.0, (0,)),
    ("maxmind-license-key", ("_mmk",), _L + r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk" + _R, 3.5, (40,)),
    ("intra42-secret", ("s-s4t2",), _L + r"s-s4t2(?:ud|af)-[a-f0-9]{64}" + _R, 3.0, (0,)),
    ("authress-key", ("sc_", "ext_", "scauth_", "authress_"),
     _L + r"(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][A-Za-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}", 2.5, (0,)),
    ("onepassword-token", ("ops_eyj",), _L + r"ops_eyJ[A-Za-z0-9+/]{250,4000}={0,3}", 4.0, (0,)),
    ("onepassword-secret-key", ("a3-",),
     _L + r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}" + _R, 3.5, (0,)),
    ("age-secret-key", ("age-secret-key-1",),
     r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", 0.0, (0,)),
    ("openshift-token", ("sha256~",), _L + r"sha256~[\w-]{43}" + _RW, 3.5, (0,)),
    ("clickhouse-key", ("4b1d",), _L + r"4b1d[A-Za-z0-9]{38}" + _R, 3.0, (0,)),
    ("adobe-client-secret", ("p8e-",), _L + r"p8e-[A-Za-z0-9]{32}" + _R, 3.0, (0,)),
    # --- chat, social, e-mail --------------------------------------------------------------------
    ("slack-token", _each("xox{}-", _LOWER),
     _L + r"xox[a-z]-(?:\d{8,14}-){1,3}[A-Za-z0-9]{18,64}" + _R, 3.0, (0,)),
    ("slack-token", ("xoxb-",), _L + r"xoxb-\d{8,14}-[A-Za-z0-9]{18,26}" + _R, 3.0, (0,)),
    ("slack-token", ("xoxa-", "xoxr-"), _L + r"xox[ar]-(?:\d-)?[0-9A-Za-z]{8,48}" + _R, 3.0, (0,)),
    ("slack-token", ("xoxo-", "xoxs-"),
     _L + r"xox[os]-\d{6,14}-\d{6,14}-\d{6,14}-[a-fA-F0-9]{8,64}" + _R, 3.0, (0,)),
    ("slack-token", ("xoxe.xoxb-", "xoxe.xoxp-"),
     _L + r"xoxe\.xox[bp]-\d-[A-Za-z0-9]{150,180}" + _R, 3.0, (0,)),
    ("slack-token", ("xoxe-",), _L + r"xoxe-\d-[A-Za-z0-9]{140,160}" + _R, 3.0, (0,)),
    ("slack-token", ("xapp-",),
     _L + r"xapp-\d-[A-Za-z0-9]{8,16}-\d{8,16}-[A-Za-z0-9]{32,80}" + _R, 3.0, (0,)),
    ("slack-webhook", ("hooks.slack.com",),
     r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9+/]{30,80})", 3.0, (0,)),
    ("discord-webhook", ("discord.com/api/webhooks/", "discordapp.com/api/webhooks/"),
     r"discord(?:app)?\.com/api/webhooks/\d{15,20}/(?P<s>[\w-]{60,70})", 3.0, (0,)),
    ("teams-webhook", ("webhook.office.com",),
     r"webhook\.office\.com/webhookb2/(?P<s>[a-z0-9-]{36}@[a-z0-9-]{36}/IncomingWebhook/[a-z0-9]{32}/[a-z0-9-]{36})", 3.0, (0,)),
    ("telegram-bot-token", (":aa",),
     r"(?:(?<=/bot)|(?<![A-Za-z0-9]))\d{8,10}:AA[A-Za-z0-9_-]{33}" + _RW, 3.0, (8, 9, 10)),
    ("sendgrid-key", ("sg.",), _L + r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}" + _RW, 3.0, (0,)),
    ("sendinblue-key", ("xkeysib-", "xsmtpsib-"),
     _L + r"x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}" + _R, 3.0, (0,)),
    ("mailchimp-key", ("-us",), _L + r"[0-9a-f]{32}-us\d{1,2}" + _R, 3.0, (32,)),
    ("twitter-bearer-token", ("aaaaaaaaaaaaaaaaaaaaaa",),
     r"(?<![A-Za-z0-9%])A{22}[A-Za-z0-9%]{80,120}(?![A-Za-z0-9%])", 3.0, (0,)),
    # (`EAAA…` is Square's, not Facebook's)
    ("facebook-token", _each("eaa{}", _LOWER[1:]), _LB + r"EAA[B-Z][A-Za-z0-9]{100,1000}" + _R, 4.0, (0,)),
    ("twitter-bearer-token", ("aaaaaaaaaaaaaaaaaaaaaa",),
     r"A{22}[A-Za-z0-9%]{80,120}(?![A-Za-z0-9%])", 3.0, (0,)),
    # --- payment ---------------------------------------------------------------------------------
    ("stripe-key", ("sk_live", "sk_test", "sk_prod", "rk_live", "rk_test", "rk_prod"),
     _L + r"[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,247}" + _R, 2.5, (0,)),
    ("stripe-webhook-secret", ("whsec_",), _L + r"whsec_[A-Za-z0-9+/]{32,88}={0,2}", 3.5, (0,)),
    ("square-token", ("sq0atp-", "sq0csp-"), _L + r"sq0(?:atp|csp)-[\w-]{22,60}" + _RW, 2.5, (0,)),
    ("square-token", ("eaaa",), _LB + r"EAAA[\w-]{22,60}" + _RW, 3.0, (0,)),
    ("braintree-token", ("access_token$production$", "access_token$sandbox$"),
     r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}", 3.0, (0,)),
    ("shopify-token", ("shpat_", "shpca_", "shppa_", "shpss_", "shpua_", "shptka_"),
     _L + r"shp[a-z]{2,3}_[a-fA-F0-9]{32}" + _R, 2.5, (0,)),
    ("flutterwave-key", ("flwseck", "flwpubk"),
     _L + r"FLW(?:SECK|PUBK)(?:_TEST)?-(?:[a-hA-H0-9]{32}-X|[a-hA-H0-9]{12})" + _R, 2.5, (0,)),
    ("duffel-token", ("duffel_",), _L + r"duffel_(?:test|live)_[A-Za-z0-9_=-]{43}" + _RW, 2.5, (0,)),
    ("easypost-token", _each("ez{}k", _LOWER), _LB + r"EZ[A-Z]K[A-Za-z0-9]{54}" + _R, 3.0, (0,)),
    ("shippo-token", ("shippo_",), _L + r"shippo_(?:live|test)_[a-fA-F0-9]{40}" + _R, 3.0, (0,)),
    ("plaid-token", ("access-sandbox-", "access-development-", "access-production-"),
     _L + r"access-(?:sandbox|development|production)-" + _UUID + _R, 3.0, (0,)),
    ("adyen-key", ("aqe",), _L + r"AQE[A-Za-z0-9]{5,40}\.[A-Za-z0-9_=-]{50,300}" + _RW, 3.0, (0,)),
    # `test_`/`live_` are words: the token starts a word, not the middle of `task_test_…`
    ("payment-client-key", ("test_", "live_"), r"(?<![A-Za-z0-9_-])(?:test|live)_[A-Za-z0-9]{30,40}" + _R, 3.0, (0,)),
    ("castai-key", ("castai_v1_",), _L + r"castai_v1_[A-Za-z0-9]{64}_[A-Za-z0-9]{8}" + _R, 2.5, (0,)),
    ("chieftools-token", ("ctp_", "cto_", "ctr_"), _L + r"ct[por]_[A-Za-z0-9]{30,248}" + _R, 3.0, (0,)),
    ("azure-datafactory-key", ("ir@",),
     _L + r"IR@[0-9a-zA-Z-]{36}@[^@\s'\"]{1,90}@[0-9a-zA-Z=-]{0,40}@[A-Za-z0-9+/=]{44}", 3.0, (0,)),
    ("django-secret-key", ("django-insecure-",), r"django-insecure-[^\"'\s`]{8,250}", 0.0, (0,)),
    # --- AI --------------------------------------------------------------------------------------
    # exact published shapes, so the prefix alone is trusted (no placeholder heuristics)
    ("anthropic-key", ("sk-ant-api03-", "sk-ant-admin01-"),
     _L + r"sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{93}AA" + _RW, 0.0, (0,)),
    ("anthropic-key", ("sk-ant-oat01-", "sk-ant-ort01-"), _L + r"sk-ant-o[ar]t01-[A-Za-z0-9_-]{40,300}" + _RW, 0.0, (0,)),
    ("anthropic-key", ("sk-ant-",),
     _L + r"sk-ant-(?!api03-|admin01-|oat01-|ort01-)[a-z]{3,8}\d{2}-[A-Za-z0-9_-]{80,300}" + _RW, 3.0, (0,)),
    ("openai-key", ("sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"),
     _L + r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{40,250}" + _RW, 3.5, (0,)),
    ("openai-key", ("sk-",), _L + r"sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}" + _R, 3.0, (0,)),
    ("openrouter-key", ("sk-or-",), _L + r"sk-or-v\d-[a-f0-9]{64}" + _R, 3.0, (0,)),
    ("api-secret-key", ("sk-",), _L + r"sk-[A-Za-z0-9]{32,100}" + _R, 3.8, (0,)),
    ("huggingface-token", ("hf_", "api_org_"), _L + r"(?:hf|api_org)_[A-Za-z]{34}" + _RW, 3.0, (0,)),
    ("groq-key", ("gsk_",), _L + r"gsk_[A-Za-z0-9]{52}" + _R, 3.5, (0,)),
    ("replicate-token", ("r8_",), _L + r"r8_[A-Za-z0-9]{37}" + _R, 3.5, (0,)),
    ("perplexity-key", ("pplx-",), _L + r"pplx-[A-Za-z0-9]{48}" + _R, 3.5, (0,)),
    ("xai-key", ("xai-",), _L + r"xai-[A-Za-z0-9]{70,90}" + _R, 3.5, (0,)),
    ("langsmith-key", ("lsv2_",), _L + r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}" + _R, 3.0, (0,)),
    ("pinecone-key", ("pcsk_",), _L + r"pcsk_[A-Za-z0-9_]{40,100}" + _R, 3.5, (0,)),
    ("claude-session-url", ("claude.ai/code/session_",),
     r"(?i:claude\.ai/code/)(?P<s>session_[A-Za-z0-9]{16,64})" + _R, 3.0, (0,)),
    # --- maps, misc ------------------------------------------------------------------------------
    ("mapbox-token", ("sk.eyj",), _L + r"sk\.eyJ[A-Za-z0-9_-]{50,300}\.[A-Za-z0-9_-]{20,64}", 3.5, (0,)),
    ("firebase-fcm-key", (":apa91b",), _L + r"AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,200}", 3.5, (11,)),
    ("hubspot-token", ("pat-na1-", "pat-eu1-"), _L + r"pat-(?:na|eu)1-" + _UUID + _R, 3.0, (0,)),
)

# Rules whose prefix is an ordinary word of code: the rest must not read as words either
# (`test_` + a long test name is not a Chargebee key).
WORD_PREFIX_RULES: frozenset[str] = frozenset({
    "payment-client-key", "chieftools-token", "huggingface-token",
})

SCANS: tuple[tuple[str, str, float, str], ...] = (
    # (rule, pattern, min entropy, prefix). The pattern starts with a literal so that `re`
    # finds candidates at memchr speed; `prefix`, when given, must match just before the
    # candidate (the finding then starts where the prefix does).
    ("twilio-key", r"SK(?<![A-Za-z0-9]SK)[0-9a-fA-F]{32}" + _R, 3.0, ""),
    ("cratesio-token", r"cio(?<![A-Za-z0-9]cio)[A-Za-z0-9]{32}" + _R, 4.0, ""),
    ("octopus-deploy-key", r"API-(?<![A-Za-z0-9]API-)[A-Z0-9]{26}" + _R, 3.0, ""),
    ("airtable-token", r"\.[a-f0-9]{64}" + _R, 3.5, r"(?<![A-Za-z0-9])pat[A-Za-z0-9]{14}\Z"),
    ("asana-token", r"/\d{13,17}(?:/\d{13,17})?:[a-f0-9]{32}" + _R, 3.0, r"(?<![A-Za-z0-9])[0-2]\Z"),
    ("facebook-token", r"(?:\||%7[Cc])[0-9A-Za-z_-]{27,40}" + _RW, 3.0, r"(?<![A-Za-z0-9])\d{15,16}\Z"),
    ("discord-bot-token", r"\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}" + _RW, 3.5, r"(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9_-]{23,27}\Z"),
)

# Exact value shapes that count even when the key also has neutral words (`accessId`).
VENDOR_SHAPES: dict[str, str] = {
    "contribsys": r"[a-f0-9]{8}:[a-f0-9]{8}",
    "sumologic": r"su[A-Za-z0-9]{12}|[A-Za-z0-9]{64}",
    "asana": r"\d{16}|[a-z0-9]{32}",
    "linkedin": r"[a-z0-9]{14}|[a-z0-9]{16}",
    "discord": r"\d{17,19}|[a-f0-9]{64}",
    "heroku": _UUID,
    "messagebird": _UUID + r"|[a-z0-9]{25}",
    "kucoin": _UUID + r"|[a-f0-9]{24}",
    "sendbird": _UUID + r"|[a-f0-9]{40}",
    "okta": r"00[\w=-]{40}",
    "twitter": r"\d{15,25}-[A-Za-z0-9]{20,40}",
    "plaid": r"[a-z0-9]{24}|[a-z0-9]{30}",
    "looker": r"[a-z0-9]{20}|[a-z0-9]{24}",
    "telegram": r"\d{5,16}:A[A-Za-z0-9_-]{34}",
    "mailgun": r"(?:pub)?key-[a-f0-9]{32}|[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}",
}

# Vendors whose secrets have no distinctive prefix: found as the value of an assignment whose
# key names the vendor (`TWILIO_AUTH_TOKEN=…`, `"algolia_key": "…"`). (rule, names). A name
# must start a word of the key (so "lob" matches "lob_key" but not "global_key"); names in
# CASE_SENSITIVE_VENDORS must also match the key's case exactly as written there.
VENDORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("adafruit", ("adafruit",)), ("adobe", ("adobe",)), ("airtable", ("airtable",)),
    ("algolia", ("algolia",)), ("alibaba", ("alibaba", "aliyun")), ("asana", ("asana",)),
    ("atlassian", ("atlassian", "confluence", "jira")), ("auth0", ("auth0",)),
    ("aws", ("aws", "amazon")), ("azure", ("azure",)), ("beamer", ("beamer",)),
    ("bitbucket", ("bitbucket",)), ("bittrex", ("bittrex",)), ("braintree", ("braintree",)),
    ("bugsnag", ("bugsnag",)), ("cloudant", ("cloudant",)), ("cloudflare", ("cloudflare",)),
    ("cloudinary", ("cloudinary",)), ("codecov", ("codecov",)), ("cohere", ("cohere", "coapikey")),
    ("coinbase", ("coinbase",)), ("confluent", ("confluent",)), ("contentful", ("contentful",)),
    ("datadog", ("datadog", "ddapikey", "ddappkey")), ("discord", ("discord",)),
    ("droneci", ("droneci",)), ("dropbox", ("dropbox",)), ("etsy", ("etsy",)),
    ("facebook", ("facebook", "fbapp")), ("fastly", ("fastly",)), ("finicity", ("finicity",)),
    ("finnhub", ("finnhub",)), ("flickr", ("flickr",)), ("freshbooks", ("freshbooks",)),
    ("gitter", ("gitter",)), ("gocardless", ("gocardless",)), ("heroku", ("heroku",)),
    ("hubspot", ("hubspot",)), ("ibm", ("ibm", "softlayer")), ("intercom", ("intercom",)),
    ("jfrog", ("jfrog", "artifactory", "bintray", "xray")), ("kraken", ("kraken",)),
    ("kucoin", ("kucoin",)), ("launchdarkly", ("launchdarkly",)), ("linear", ("linear",)),
    ("linkedin", ("linkedin",)), ("lob", ("lob",)), ("looker", ("looker",)),
    ("mailchimp", ("mailchimp",)), ("mailgun", ("mailgun",)), ("mailjet", ("mailjet",)),
    ("mapbox", ("mapbox",)), ("mattermost", ("mattermost",)), ("meraki", ("meraki",)),
    ("messagebird", ("messagebird",)), ("mistral", ("mistral",)), ("netlify", ("netlify",)),
    ("newrelic", ("newrelic",)), ("nytimes", ("nytimes", "newyorktimes")), ("okta", ("okta",)),
    ("pagerduty", ("pagerduty",)), ("paypal", ("paypal",)), ("plaid", ("plaid",)),
    ("postmark", ("postmark",)), ("privateai", ("privateai",)), ("rapidapi", ("rapidapi",)),
    ("rollbar", ("rollbar",)), ("segment", ("segment",)), ("sendbird", ("sendbird",)),
    ("sentry", ("sentry",)), ("snowflake", ("snowflake",)), ("snyk", ("snyk",)),
    ("sonar", ("sonar",)), ("sourcegraph", ("sourcegraph",)), ("splunk", ("splunk",)),
    ("squarespace", ("squarespace",)), ("contribsys", ("contribsys",)), ("sumologic", ("sumo",)),
    ("telegram", ("telegram",)), ("travis", ("travis",)), ("twilio", ("twilio",)),
    ("twitch", ("twitch",)), ("twitter", ("twitter",)), ("typeform", ("typeform",)),
    ("yandex", ("yandex",)), ("zendesk", ("zendesk",)), ("zoom", ("zoom",)),
    ("together", ("togetherai",)), ("deepseek", ("deepseek",)), ("elevenlabs", ("elevenlabs",)),
)

CASE_SENSITIVE_VENDORS: frozenset[str] = frozenset({
    "etsy", "sumo", "okta", "meraki", "lob", "linear", "segment", "zoom",
})

# Keywords that start the key = value parser. Bare "key", "pass" and "pat" are too frequent in
# code ("keys()", Python's `pass`, "path") to read at every occurrence: their qualified forms
# are keywords instead ("api_key", "db_pass", "GITHUB_PAT"; see KEY_QUALIFIERS).
KEY_WORDS: tuple[str, ...] = (
    "token", "secret", "passw", "pwd", "passphrase", "auth", "cred", "sas", "bearer", "jwt", "pw",
    "_pass", "-pass", ".pass", "_pat", "-pat",
    # a bare `key` ends many names of credentials whose vendor no rule knows (`ACME_KEY`,
    # `acmeKey = …`); the parser then asks for a generated value (values.strong_value). Only
    # where a name ends (an operator, a quote or a separator follows, or precedes): `key`
    # alone is in too many words (`keyboard`, `monkey`)
    "_key", "-key", ".key", 'key"', "key'", 'key\\"', "key:", "key=", "key =", "key :",
    "key .", "key ?", "key>", "key\t",
    # a bare `pass` only as a quoted or assigned key (`"pass": …`, `pass: …`), never Python's
    'pass"', "pass'", 'pass\\"', "pass:", "pass=", "pass =",
)
# Keywords before a phone number written without an international prefix (`tel: 5551234567`).
PHONE_WORDS: tuple[str, ...] = (
    "phone", "tel:", "tel.", "tel ", "tel#", "telephone", "mobile", "cell:", "cell ", "cellphone",
    "fax:", "fax ", "whatsapp", "call me", "text me",
)

# Words that make a key name a secret's name. `key` alone is not one (map keys, i18n keys, sort
# keys): it needs a qualifier (`api_key`, `secret-key`, `AccountKey`…) or a vendor name.
SECRET_WORDS: frozenset[str] = frozenset({
    "token", "secret", "password", "passwd", "pwd", "passphrase", "pass", "passw",
    "apikey", "credential", "credentials", "creds", "cred", "auth", "privatekey", "sas", "bearer",
    "jwt", "pw",
})

# Endings that make one word of a key a secret's name (`accesstoken`, `clientsecret`).
SECRET_SUFFIXES: tuple[str, ...] = (
    "token", "secret", "apikey", "passphrase", "credential", "credentials",
)

PASSWORD_WORDS: frozenset[str] = frozenset({
    "password", "passwd", "pwd", "passphrase", "pass", "passw", "pw",
})

KEY_QUALIFIERS: frozenset[str] = frozenset({
    "api", "secret", "private", "priv", "access", "auth", "client", "master", "signing", "sign",
    "encryption", "encrypt", "enc", "decryption", "crypt", "app", "application", "account",
    "service", "admin", "shared", "hmac", "consumer", "subscription", "webhook", "root", "deploy",
    "license", "licence", "session", "server", "storage", "ssh", "gpg", "pgp", "aes", "cookie",
    "token", "sas", "x", "write", "read", "ingest", "integration", "management", "mgmt", "rest",
    "iam", "cloud", "user", "primary", "secondary", "partner", "merchant", "private_",
})

# Words after the secret word that make the key a name *about* the secret, not the secret.
NEUTRAL_AFTER: frozenset[str] = frozenset({
    "id", "ids", "name", "names", "type", "types", "kind", "length", "len", "size", "count",
    "limit", "max", "min", "url", "uri", "urls", "endpoint", "endpoints", "host", "hostname",
    "file", "filename", "files", "path", "paths", "dir", "directory", "location", "env", "var",
    "variable", "field", "fields", "column", "param", "params", "header", "headers", "prefix",
    "suffix", "format", "pattern", "regex", "hash", "hashed", "digest", "checksum", "sha", "sha1",
    "sha256", "md5", "fingerprint", "version", "expiry", "expires", "expiration", "exp", "expire",
    "ttl", "timeout", "lifetime", "age", "policy", "policies", "mode", "provider", "method",
    "methods", "source", "store", "manager", "helper", "util", "utils", "class", "schema",
    "validator", "validation", "error", "errors", "label", "placeholder", "hint", "description",
    "desc", "help", "message", "msg", "enabled", "disabled", "required", "optional", "rotation",
    "created", "updated", "at", "date", "time", "timestamp", "index", "idx", "ref", "reference",
    "arn", "template", "issuer", "audience", "scope", "scopes", "request", "response", "callback",
    "handler", "generator", "service", "client", "server", "exists", "is", "has", "set", "get",
    "reset", "changed", "change", "confirmation", "confirm", "strength", "rules", "input", "mask",
    "masked", "visible", "visibility", "toggle", "icon", "form", "button", "dialog", "text", "key",
    "keys", "vault", "storage", "algorithm", "alg", "encoding", "encoded", "bits", "usage",
    "stats", "metrics", "counter", "budget", "price", "cost", "rate", "per", "list", "map", "dict",
    "cache", "pool", "table", "db", "model", "kwargs", "args",
})

# Words anywhere before the secret word that deny it (`non_matching_token`, `fake_api_key`).
NEGATING_BEFORE: frozenset[str] = frozenset({
    "no", "non", "not", "without", "mock", "fake", "dummy", "example", "sample", "placeholder",
    "invalid", "wrong", "bad", "bogus", "revoked", "expired", "unknown", "missing", "empty",
    "redacted", "masked", "hashed", "encrypted",
})

# Words right before the secret word that make it something else (csrf_token, max_tokens,
# next_token).
NEUTRAL_BEFORE: frozenset[str] = frozenset({
    "authenticity",    "csrf", "xsrf", "public", "pub", "publishable", "primary", "foreign", "sort", "partition",
    "hot", "bucket", "schema", "sequence", "idx", "natural", "next", "page", "continuation",
    "pagination", "sync", "cancellation", "cancel", "resume", "lexer", "parser", "syntax", "start",
    "end", "eof", "special", "bos", "eos", "pad", "unk", "mask", "sep", "cls", "max", "num",
    "total", "input", "output", "prompt", "completion", "cached", "reasoning", "no", "bypass",
    "forgot", "forgotten", "show", "hide", "toggle", "check", "validate", "hash", "hashed",
    "encrypted", "masked", "redacted", "use", "uses", "using", "requires", "require", "needs",
    "need", "if", "is", "has", "mock", "fake", "dummy", "test", "example", "sample", "placeholder",
    "wrong", "invalid", "bad", "missing", "empty", "non", "not", "revoked", "expired", "unknown",
    "bogus",
})

# Keys whose last words are these never hold a secret (password_FILE=/run/secrets/x).
TYPE_WORDS: frozenset[str] = frozenset({
    "str", "string", "String", "bytes", "int", "bool", "Optional", "SecretStr", "text", "char",
    "any", "Any", "object", "undefined", "None", "null", "nil", "true", "false", "True", "False",
})

# Values that are placeholders, not secrets: whole-word hits among the value's words.
PLACEHOLDER_WORDS: frozenset[str] = frozenset({
    "example", "examples", "sample", "placeholder", "changeme", "change", "your", "yours", "here",
    "redacted", "dummy", "fake", "insert", "replace", "todo", "fixme", "lorem", "ipsum", "foobar",
    "notreal", "xxx", "xxxx", "test", "testing", "tests", "demo", "mock", "secret", "secrets",
    "password", "passwd", "token", "tokens", "apikey", "api", "key", "value", "none", "null",
    "undefined", "default", "enter", "put", "goes", "my", "foo", "bar", "baz", "qux", "hunter",
    "hidden", "masked", "removed", "omitted", "invalid", "required", "optional", "string", "str",
    "env", "var", "variable", "config", "setting", "settings", "user", "username", "admin", "root",
    "pass", "pwd", "abc", "abcd", "abcdef", "qwerty", "letmein", "welcome", "secure", "generate",
    "generated", "random", "real", "actual", "valid", "long", "short", "enough", "not", "only",
    "just", "also", "the",
})

# Words that only ever stand for a secret. A value made of them alone is a placeholder even
# under an explicit key (`password: changeme`, `api_key = "your-api-key-here"`); weak real
# passwords (`hunter2`, `letmein`, `admin`) are not in this list.
TRUE_PLACEHOLDER_WORDS: frozenset[str] = frozenset({
    "example", "examples", "sample", "placeholder", "changeme", "change", "changeit", "your",
    "yours", "here", "redacted", "dummy", "fake", "insert", "replace", "todo", "fixme", "tbd",
    "lorem", "ipsum", "notreal", "xxx", "xxxx", "test", "testing", "demo", "mock", "secret",
    "secrets", "password", "passwd", "pass", "pwd", "token", "tokens", "apikey", "api", "key",
    "value", "none", "null", "nil", "undefined", "empty", "enter", "put", "goes", "my", "env",
    "var", "variable", "hidden", "masked", "removed", "omitted", "invalid", "required",
    "optional", "string", "str", "generate", "generated", "real", "actual", "valid", "the",
    "not", "set", "unset", "some", "access", "auth", "credential", "credentials", "id",
})

# Words before a bare `key` that make it a key of something that is no secret (`cache_key`,
# `sortKey`, `PRIMARY_KEY`, `publicKey`).
NEUTRAL_KEY_BEFORE: frozenset[str] = frozenset({
    "cache", "cached", "sort", "primary", "foreign", "partition", "hash", "range", "idempotency",
    "idempotent", "object", "obj", "s3", "blob", "bucket", "file", "i18n", "translation",
    "locale", "lang", "message", "msg", "map", "dict", "lookup", "index", "lock", "mutex",
    "dedup", "dedupe", "dedupl", "row", "column", "col", "field", "group", "shard", "sharding",
    "routing", "route", "cursor", "sequence", "composite", "unique", "natural", "surrogate",
    "public", "pub", "publishable", "verify", "verification", "host", "known", "ssh", "gpg",
    "pgp", "signing", "fingerprint", "storage", "state", "store", "event", "metric", "label",
    "tag", "attr", "attribute", "property", "prop", "query", "param", "react", "list", "item",
    "node", "element", "child", "parent", "local", "remote", "config", "setting", "env",
    "header", "cookie", "session", "redis", "db", "database", "table", "schema", "model",
    "entity", "record", "doc", "document", "collection", "registry", "feature", "flag",
    "toggle", "experiment", "variant", "bundle", "chunk", "asset", "cdn", "image", "video",
    "media", "audio", "upload", "download", "path", "url", "uri", "link", "slug", "name",
    "title", "type", "kind", "category", "menu", "nav", "tab", "panel", "form", "input",
    "button", "modal", "dialog", "hotkey", "shortcut", "keyboard", "music", "musical", "piano",
    "sign", "next", "prev", "previous", "last", "first", "root", "base", "current", "old",
    "new", "default", "custom", "api", "secondary", "encoded", "encrypted",
})

# Labels of identifiers that share the shape of prefixed tokens but are no secret: ids of
# well-known APIs (Anthropic, OpenAI, Stripe objects, cloud resources), hash and digest names,
# version and build labels.
ID_PREFIXES: frozenset[str] = frozenset({
    "toolu", "srvtoolu", "mcptoolu", "msg", "msgbatch", "req", "call", "chatcmpl", "cmpl", "asst", "thread", "run",
    "step", "file", "org", "proj", "user", "session", "sess", "batch", "ft", "ftjob", "vs",
    "cus", "ch", "pi", "pm", "evt", "in", "ii", "il", "txn", "sub", "si", "price", "prod", "acct",
    "ba", "card", "src", "seti", "cs", "po", "tr", "re", "py", "plink", "inv", "cn", "dp", "du",
    "id", "uuid", "guid", "ref", "rev", "revision", "commit", "build", "img", "image", "asset",
    "chunk", "bundle", "main", "vendor", "runtime", "app", "v", "ver", "version", "release", "git",
    "sha", "sha1", "sha224", "sha256", "sha384", "sha512", "md5", "hash", "blake2b", "blake3",
    "crc32", "xxh", "xxh64", "h1", "cid", "ipfs", "node", "pod", "container", "deployment",
    "replicaset", "job", "task", "trace", "span", "request", "correlation", "ami", "vol",
    "snap", "eni", "vpc", "subnet", "sg", "igw", "rtb", "nat", "acl", "eipalloc", "lt", "i",
    "arn", "urn", "did", "test", "tests", "example", "sample", "demo", "mock", "fake", "dummy",
    "data", "base64", "sha256sum", "integrity", "checksum", "digest", "nonce", "salt", "iv",
    "state", "code", "challenge", "verifier", "etag", "hmac", "pk",
})

# Words right after a credential word that say the value is about something else.
NOT_A_CREDENTIAL_AFTER: frozenset[str] = frozenset({
    "sha", "sha1", "sha256", "hash", "hashed", "digest", "checksum", "fingerprint", "commit",
    "id", "ids", "name", "names", "type", "length", "count", "version", "url", "uri", "file",
    "path", "header", "env", "var", "variable", "field", "expires", "expiry", "expiration",
    "created", "scope", "scopes", "format", "prefix", "usage", "limit", "endpoint", "issuer",
    "audience", "kind", "policy", "provider", "rotation", "in", "from", "via", "with", "using",
})

# Unquoted values that are names in code, not literals (`password: input`, `token = data`).
CODE_WORDS: frozenset[str] = frozenset({
    "input", "value", "val", "field", "data", "args", "arg", "param", "params", "form", "request",
    "req", "body", "user", "auth", "config", "cfg", "settings", "options", "opts", "env", "self",
    "this", "ctx", "context", "state", "props", "payload", "result", "response", "res", "resp",
    "item", "entry", "obj", "object", "record", "row", "secret", "token", "password", "passwd",
    "pwd", "pass", "key", "apikey", "credentials", "creds", "cred", "null", "none", "nil",
    "undefined", "true", "false", "required", "optional", "hidden", "text", "string",
})

# Words that, anywhere in a value, say it is not a real one (`a-fake-tooshort-key`).
FAKE_VALUE_WORDS: frozenset[str] = frozenset({
    "fake", "dummy", "placeholder", "notreal", "bogus", "mock", "sample", "example", "redacted",
    "changeme", "replaceme",
})

# Labels of prefixed strings that are metasyntactic or demonstrative, not a vendor's mark.
PLACEHOLDER_LABELS: frozenset[str] = frozenset({
    "foo", "bar", "baz", "qux", "quux", "my", "your", "example", "sample", "dummy", "fake",
    "mock", "placeholder", "xxx", "abc",
})

# Passwords of `curl -u user:…`, `scheme://user:…@host` and Go DSNs that stand for one.
CREDENTIAL_PLACEHOLDERS: frozenset[str] = frozenset({
    "pass", "password", "passwd", "pwd", "test", "token", "secret", "changeme", "changeit",
    "xxx", "yyy", "key", "apikey", "api_key", "pw", "user", "username",
})

SEQUENCES: tuple[str, ...] = (
    "0123456789012345678901234567890", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz",
    "9876543210987654321", "zyxwvutsrqponmlkjihgfedcba", "qwertyuiopasdfghjklzxcvbnm",
)

# sha256 prefixes of published sample keys that vendors ship in documentation and SDKs
# (e.g. Firebase/Maps demo keys, AWS's documented example keys). Stored hashed so that the
# repository never carries anything that looks like a live credential.
KNOWN_SAMPLE_HASHES: frozenset[str] = frozenset({
    "2f21fd9c81678e39",  # yarn's public metadata key (yarnpkg/berry#6201), not anybody's secret
    "0b476bdf9acf2123", "1a5d44a2dca19669", "2037abcaffb2b777", "27a9a42931dff7eb",
    "37f8f09bdf12c2f2", "3a8b61d0f636b007", "3f370c9dd8225c63", "49f777db995e8260",
    "4c98242dcadc8b29", "78314b11be2e5815", "8731261cb72d8626", "a19f89ab3555eac1",
    "a6c814bc555ae62c", "dc0fcf046c61640c", "e4a5542bb7fd7b67", "ea9bb1082cf95663",
    "eb540d2b6ee2a0a4", "f56e323494a6ffc2",
})

# Local parts that name nobody: placeholders of documentation, robot senders (`noreply@`, as in
# the `Co-Authored-By:` trailer of commit conventions) and `git`, the user of SSH remotes
# (`git@github.com:org/repo`). Every other address counts as personal data, role accounts and
# example domains included (a reviewer cannot tell which are real).
PLACEHOLDER_LOCALPARTS: frozenset[str] = frozenset({
    "noreply", "no-reply", "donotreply", "do-not-reply", "mailer-daemon", "postmaster",
    "git", "user", "username", "you", "your", "yourname", "name", "email", "e-mail", "someone",
    "somebody", "nobody", "foo", "bar", "baz", "src", "dst", "sender", "recipient", "from", "to",
    "x", "xx", "xxx",
})

# Words of an e-mail local part that say it is nobody's (`james.fake@…`, `test.user@…`).
FAKE_EMAIL_WORDS: frozenset[str] = frozenset({
    "fake", "example", "dummy", "sample", "placeholder", "test", "invalid",
})

# `name@2x.png`, `pkg@1.2.js`: when the "top-level domain" is a file extension it is a file.
FILE_SUFFIXES: frozenset[str] = frozenset({
    "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "tif", "tiff", "js", "mjs", "cjs",
    "ts", "tsx", "jsx", "py", "pyc", "rb", "go", "rs", "java", "kt", "c", "h", "cpp", "hpp", "cs",
    "css", "scss", "less", "html", "htm", "md", "rst", "json", "yaml", "yml", "toml", "ini", "cfg",
    "conf", "txt", "lock", "xml", "sh", "bash", "zsh", "zip", "gz", "tgz", "tar", "bz2", "xz",
    "pdf", "mp3", "mp4", "wav", "woff", "woff2", "ttf", "otf", "map", "min", "wasm", "so", "dll",
    "exe", "bin", "dat", "db", "sqlite", "log", "csv", "tsv", "vue", "svelte", "php", "swift", "m",
    "mm", "dart", "lua", "pl", "r", "sql",
})

# Home-directory user names that are placeholders or system accounts, not people.
NON_PERSONAL_USERS: frozenset[str] = frozenset({
    "user", "username", "you", "your", "yourname", "me", "name", "someone", "shared", "public",
    "default", "all users", "default user", "guest", "runner", "ubuntu", "ec2-user", "vagrant",
    "admin", "administrator", "root", "node", "app", "jovyan", "codespace", "vscode", "circleci",
    "travis", "jenkins", "docker", "build", "builder", "ci", "nobody", "dev", "developer", "demo",
    "test", "tester", "example", "foo", "bar", "x", "u", "home",
})

# AWS account ids of AWS's own documentation.
DOCUMENTED_AWS_ACCOUNTS: frozenset[str] = frozenset({
    "111122223333", "123456789012", "000000000000", "999999999999", "444455556666",
})

# UK National Insurance number prefixes that are never issued.
NINO_INVALID_PREFIXES: frozenset[str] = frozenset({"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"})
# fmt: on
