"""Redaction and the commit guard. `redactor` is the entry point (`redact`, `find`) that runs
before every write; the engine combines vendor patterns (`rules`, their `families`),
assignments (`assign`), passwords stated outright in any language (`explicit`), credential
values (`values`), URLs (`http`), structured handlers
(`handlers`), shapes no vendor rule names (`generic`: prefixed tokens, a credential word a few
words before a value), encodings (`encoded`: base64, percent-encoding), text as a reader sees
it (`fold`: invisible characters, look-alike letters) and personal data (`pii`, `pii_checks`).
`guard` judges memory files before a commit or push; `signature` signs the whole package, so
what the guard judged before is judged again when any rule changes.

May import: model.
"""
