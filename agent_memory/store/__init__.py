"""L1: the candidate atoms on the orphan branch `memory/atoms`. `l1` reads and writes it
(compare-and-set, never losing an atom), `capture` merges observations in, `contradictions`
finds conflicting claims, `recall` keeps the per-prompt recall index and answers from it,
`remember` makes hand-authored atoms, `stale` finds atoms naming paths git says are gone.

May import: model, gitio, redact, transcripts, extract, committed.
"""
