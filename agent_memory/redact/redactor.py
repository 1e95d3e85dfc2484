"""Redaction: secrets and personal data out of every claim before it is written.

Redaction is the only barrier between a transcript and a committed file (the `verified` fast
path reaches L2 on one observation), so this is a rule engine, not a short regex list:

- one pass over the text finds *keywords* (token prefixes such as ``ghp_``, key-name words such
  as ``token``/``password``, vendor names, ``://``, ``@``, ``-----BEGIN``); only the rules a
  keyword names run, and only at that position, so the cost does not grow with the rule count;
- token rules match documented vendor formats, with an entropy floor that rejects ``XXXX``
  placeholders;
- an assignment parser reads ``key = value`` in the shapes of config files and source code
  (INI, .env, JSON, YAML, XML, Go, Java, PHP, Makefile, CLI flags, HTTP headers, query
  strings, connection strings) and decides from the key's words whether the value is a secret,
  then from the value whether it is real. An explicit key (`password`, `api_token`) vouches for
  the value: only true placeholders are kept (`<password>`, `****`, `changeme`, `${VAR}`);
  a key that only hints (`ACME_KEY`, a vendor's name) needs a value that looks generated;
- generic rules cover vendors no rule names: prefixed tokens (`abc_live_…`), a
  credential word a few words before a value of a credential's shape, structured secrets
  (Kubernetes Secrets, package-registry configs), and decode base64 and percent-encoding;
  text is also judged as a reader sees it (invisible characters removed, look-alike letters
  folded to Latin). Look-alikes that fail a format's check (a known prefix with a broken
  body, edited hex, a JSON payload that does not parse, a time-based UUID) are left alone;
- dedicated parsers cover PEM blocks, JWTs, Authorization headers, ``curl -u``, URI
  credentials, and personal data (e-mail, phone, card numbers with Luhn, national ids with
  their checksums, AWS account ids in ARNs, the user name in home-directory paths).

Every pattern has bounded quantifiers; the parsers run anchored at a keyword and the few
whole-text scans (digit runs, token runs, percent escapes, non-ASCII characters) are single
regex passes, so the work is linear in the input (binary data, 10 MB lines and long runs of
one character included).

Public interface: `Finding`, `find(text)`, `redact(text)`. Replacement is
``[REDACTED:<rule>]``; the output of `redact` has no findings (`find(redact(t)[0]) == []`), and
holds paths inside this checkout relative to its top (model/checkout.py).

The modules behind it, from the bottom up: rules (data), regex (lazy patterns), context (what
a parser works with), values and pii_checks (judgements on one value), families (known token
prefixes, their look-alikes and near misses), fold (text as a reader sees it), the parsers
handlers, http, assign, explicit, generic, encoded and pii, and engine (keywords → parsers,
merging, the re-check).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent_memory.model.checkout import repo_relative, work_tree_spans
from agent_memory.redact import assign as redact_assign
from agent_memory.redact import engine as redact_engine
from agent_memory.redact.context import MARKER_PREFIX, marker
from agent_memory.redact.engine import find_spans, replace_spans


@dataclass(frozen=True)
class Finding:
    rule: str
    start: int
    end: int


def find(text: str) -> list[Finding]:
    """Secrets and personal data in `text`: sorted, non-overlapping spans."""
    spans = find_spans(text)
    return [Finding(rule, s, e) for s, e, rule, _p in spans] if spans else []


def redact(text: str, *, memory: bool = True) -> tuple[str, list[Finding]]:
    """`text` with every finding replaced by ``[REDACTED:<rule>]``, and the findings (spans
    of `text`). Then, for memory (not a line of this clone's own errors.log, whose paths
    help whoever reads it here), a path inside this checkout's work tree is written relative
    to its top (model/checkout.py): it says where this clone lives, which no teammate's clone
    shares, and relative it still says which file. Not a finding: nothing secret was removed,
    so the atom is not `redacted` (which would keep it from promotion)."""
    findings = find(text)
    if memory and findings:
        # A finding inside this checkout's top goes with the top (`/home/bob/src/app/x.sh`
        # is `x.sh`): redacted first, the top no longer matched and the path stayed absolute.
        tops = work_tree_spans(text)
        findings = [f for f in findings if not any(s <= f.start and f.end <= e for s, e in tops)]
    if findings:
        text = replace_spans(text, [(f.start, f.end, f.rule) for f in findings])
    return (repo_relative(text) if memory else text), findings


# a piece shorter than this is no secret on its own (and too common a run to mask)
_MIN_PIECE = 6
_EDGE = "\"'`([{<>}]).,;:!?"
# Personal data is not cut in two by a clause split (an address or a home folder is one word);
# a word that merely sits inside one ("github" in an address's domain) is the claim's own.
_NOT_CUT = frozenset({"email", "home-user"})


def secrets_of(source: str) -> list[tuple[str, str]]:
    """(text, rule) of each secret `source` holds whole, for `redact_within`: found once per
    statement, however many claims are cut from it."""
    return [(source[f.start : f.end], f.rule) for f in find(source) if f.rule not in _NOT_CUT]


def redact_within(text: str, wholes: list[tuple[str, str]]) -> tuple[str, list[Finding]]:
    """`text`, a part read out of a statement (a claim cut from it), redacted — and any run of
    it that begins or ends a secret the statement holds whole (`secrets_of`) replaced as well:
    a cut made at a `;` or a blank inside a key leaves a piece no rule reads as a secret on its
    own ("My private key is sk_q7.Rb!Zt;mWpLx…" gave the claim "… is sk_q7.Rb!Zt")."""
    red, findings = redact(text)
    if not wholes:
        return red, findings
    out: list[str] = []
    last = 0
    extra: list[Finding] = []
    for run in re.finditer(r"\S+", red):
        core = run.group().strip(_EDGE)
        if len(core) < _MIN_PIECE or MARKER_PREFIX in core:
            continue
        rule = next((r for whole, r in wholes if whole.startswith(core) or whole.endswith(core)), None)
        if rule is None:
            continue
        at = run.start() + run.group().index(core)
        out.append(red[last:at])
        out.append(marker(rule))
        last = at + len(core)
        extra.append(Finding(rule, at, last))
    if not extra:
        return red, findings
    out.append(red[last:])
    return "".join(out), findings + extra


def __getattr__(name: str) -> object:
    # tests/test_redact.py::test_import_compiles_nothing reads the engine and one pattern
    # here, as they were before the split: both must still be uncompiled after the import
    if name == "_ENGINE":
        return redact_engine._ENGINE
    if name == "_AFTER":
        return redact_assign._AFTER
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
