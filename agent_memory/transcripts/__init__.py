"""L0: reading Claude Code transcripts (read only, never copied). `reader` decides, from each
record's structure, which text the user typed (from the start, or from where an earlier pass
stopped); `identity` names a transcript once (path, back-pointer, local path, session);
`files` lists a repository's transcripts; `ledger` remembers what was captured, as it was, so
nothing is read twice; `failures` turns tool errors into failure signatures; `evidence`
resolves an atom's back-pointers on this machine.

May import: model, gitio, redact.
"""
