"""The promotion gates and the review branch: `gates` decides which L1 atoms are eligible for
L2 (and L2 for L3) from the thresholds in `model.policy`; `review` stages each promotion as
one commit on `memory/review`; `l3` reads every registered project and stages L2 → L3.

May import: model, gitio, redact, transcripts, extract, committed, store.
"""
