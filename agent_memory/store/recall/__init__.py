"""Per-prompt recall over L1: the fast path of the UserPromptSubmit hook, and the
index it reads.

The reading side runs on the critical path of every prompt, so its modules import only stdlib
modules an interpreter has loaded anyway (`os`, `time`, `marshal`) — no pygit2, json, re,
pathlib, typing or dataclasses at import time, nor `__future__` (one more module: annotations
that name typing-only types are quoted) — and this file imports nothing, so that a caller
loads only the modules it names:

- `tokens`: text → index terms (by hand, without `re`), a prompt's related-tool expansions;
- `files`: where the index lives, its header and frames, the contested sidecar (all the
  session start needs);
- `index`: the index as the hook reads it (`load_index`);
- `adopted`: what the committed tiers already hold, never recalled again;
- `score`: relevance, then BM25 times kind, confidence, recency and pinned weights (`recall`);
- `render`: the `<agent-memory recall>` block.

The writing side, which the hook never loads: `build` (which atoms may be recalled, the base
and delta frames) and `writer` (keeps the index at the `memory/atoms` tip).

Design:
- Writers keep a compact index (`<common dir>/agent-memory/recall-index.<tag>.marshal`) at the
  `memory/atoms` tip; the hook reads it lock-free (a base is replaced by rename, a
  frame appended in one write, and a torn frame ends the chain).
- The base is a `marshal` head (what every prompt needs, one entry per atom, and the token
  directory) and a blob the reader leaves on disk: a prompt reads its own tokens' postings and
  its hits' claims (`os.pread`), so its cost follows the prompt, not the store. Marshal is
  Python-version specific, so the interpreter's cache tag is in the file name and the header;
  a mismatch reads as "missing" and the caller falls back.
- Scoring runs over the postings of the prompt's tokens only (atoms sharing no token are never
  touched); only atoms that pass the relevance rule are scored and ranked.
- Staleness is decided without git: the index stores the `memory/atoms` tip it was built
  from, and `read_ref` reads the loose ref file or `packed-refs` directly.

May import: model, gitio, committed (the adopted logs, on a cache miss); the reading side never
imports the writing side (an import-linter contract).
"""
