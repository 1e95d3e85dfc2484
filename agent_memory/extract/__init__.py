"""L0 → candidate atoms. `pipeline` walks a transcript's user statements and makes atoms;
`statement` turns one statement into claims (`prepare`, `sentence`, `finish`) through `text` (cleaning, splitting, masking code
spans), `filters` (what is never a durable claim), `dispatch` and the rule registry in `rules/`
(small named entries, their order declared once in `rules/registry.py`); `canonical` makes
restatements of one rule converge to one claim.

May import: model, redact, transcripts.
"""
