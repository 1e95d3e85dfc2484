"""The only git boundary: every pygit2 and GitPython call and every `git` process runs here.
pygit2 for objects and refs; `git update-ref` for compare-and-set ref updates (pygit2 binds
none); GitPython for porcelain that must honour the user's config and hooks (commit, push,
config, remotes). Also the hand-rolled ref and `.git` reading of the per-prompt hook path, kept
here and tested against `git` itself, and the local runtime state under `.git/agent-memory/`
(error log, atomic writes).

May import: model.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# What every errors.log line goes through before it is written (gitio/state.log_error): the
# redactor, which sits above gitio in the layers, handed down by the process entry points
# (claude/error_lines.py). Kept on the package, which every path has imported already: the
# prompt hook's path imports nothing more for it.
redact_line: "Callable[[str], str] | None" = None
