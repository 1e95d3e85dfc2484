"""L0 → candidate atoms. `pipeline` walks a transcript's user statements and makes atoms;
`statement` turns one statement into claims through `text` (cleaning, splitting, masking code
spans), `filters` (what is never a durable claim), `dispatch` (the rule order) and the rule
families in `rules/`; `canonical` makes restatements of one rule converge to one claim.

May import: model, redact, transcripts.
"""
