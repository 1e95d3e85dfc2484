"""The only git boundary: every pygit2 and GitPython call and every `git` process runs here.
pygit2 for objects and refs; `git update-ref` for compare-and-set ref updates (pygit2 binds
none); GitPython for porcelain that must honour the user's config and hooks (commit, push,
config, remotes). Also the hand-rolled ref and `.git` reading of the per-prompt hook path, kept
here and tested against `git` itself, and the local runtime state under `.git/agent-memory/`
(error log, atomic writes).

May import: model.
"""
