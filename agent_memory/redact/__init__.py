"""Redaction and the commit guard. `redactor` is the entry point (`redact`, `find`) that runs
before every write; the engine combines vendor patterns (`rules`), assignments (`assign`),
credential values (`values`), URLs (`http`), structured handlers (`handlers`) and personal
data (`pii`, `pii_checks`). `guard` judges memory files before a commit or push.

May import: model.
"""
