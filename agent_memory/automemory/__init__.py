"""L0, the second source: Claude Code's own auto-memory folder (`<config>/projects/<slug>/memory/`
or `autoMemoryDirectory`), read only, never copied, never edited.

- `location.py`: where the folder is for a project (trusted settings sources only);
- `frontmatter.py`, `markdown.py`: a topic file's frontmatter and body, read tolerantly;
- `walk.py`: the one bounded walk of the folder (`os` only), which every reader of it uses;
- `notes.py`: the folder read — every topic file one note or one skip with a reason;
- `quick.py`: the folder's place and a signature of its state, `os` only (the fast paths);
- `writes.py`: the tool calls in this project's transcripts that wrote or edited a memory
  file (its provenance and recurrence).

The model writes these files after reading tool output, files and web pages: they are
untrusted input. What becomes of them (observed candidates, labelled as Claude's own memory,
never recalled per prompt, committed only through a person's adopt) is decided above this
package; `extract/memory_notes.py` makes the atoms.
"""
