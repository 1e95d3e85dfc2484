"""L1: the candidate atoms on the orphan branch `memory/atoms`. `l1` reads and writes it
(compare-and-set, never losing an atom; atoms read by path, subtrees reused, `index/` kept),
`capture` merges observations in (caps and expiry in the same commit when asked),
`contradictions` finds conflicting claims (through the subject index), `recall/` answers each
prompt from the per-prompt recall index and keeps that index at the tip (delta frames,
compaction), `decisions` records
review decisions (a batch per commit), `remember` makes hand-authored atoms, `stale` finds atoms naming paths git says are gone,
`shape` tells a commit of the store from anything else `memory/atoms` may name.

May import: model, gitio, redact, transcripts, extract, committed.
"""
