"""L0: reading Claude Code transcripts (read only, never copied). `reader` decides, from each
record's structure, which text the user typed; `failures` turns tool errors into failure
signatures; `evidence` resolves an atom's back-pointers on this machine.

May import: model, gitio, redact.
"""
