"""This process's checkout: where the work tree of the repository it works in lives on this
machine (`/srv/app`, `/workspaces/app`, `/tmp/ci-1234/app`). A path inside it names this
clone's location, so it is machine-specific like a home folder, even where every teammate's
copy sits at the same place (a devcontainer's `/workspaces/<repo>`): the redactor writes it
relative to the work tree's top (`/srv/app/scripts/check.sh` is `scripts/check.sh`) and the
commit guard refuses a memory line that still holds it (redact/redactor.py, redact/guard.py).

Process state, set where the repository the process works in is resolved (gitio's
`find_repo()` of the current folder for a verb, the hook's entry `claude.hooks.run_event` for a
Claude Code hook and its detached jobs), as the redactor is handed down to the
error log (gitio.redact_line): redaction and the guard run far
below the code that found the repository, in many places, and know this machine otherwise
only from the environment ($HOME). Nothing set: nothing is rewritten or refused.
"""

# No `from __future__` import: the per-prompt hook imports this, and counts every module it loads
import os

_FORMS: list[tuple[str, ...]] = [()]  # the work tree as found and as it resolves, longest first

# What may start a file's name right after `<top>/`: otherwise `<top>/` is the top itself.
_NAME_START = "_.-~@+%"


def set_work_tree(*paths: str | os.PathLike[str] | None) -> None:
    """Record the work tree (None for a bare repository: no checkout, nothing recorded). Each
    path is kept as given and as it resolves, so a symlinked spelling (`/tmp` → `/private/tmp`)
    is found as well. `/` and relative paths are skipped: every path would be inside it. So
    is a top of one folder (`/app`, `/src`, `/workspace`, `/code`): a container's conventional
    checkout, which names the image's folder more than this clone's place, and which memory
    names for other reasons (`WORKDIR /app`, `COPY . /app`, a URL's `/app/`): written `.`
    such a rule said nothing, and the guard refused it."""
    forms: set[str] = set()
    for path in paths:
        if path is None:
            continue
        text = os.fspath(path)
        for form in (text, os.path.realpath(text)):
            form = form.rstrip("/")
            if form.startswith("/") and form.count("/") > 1:
                forms.add(form)
    _FORMS[0] = tuple(sorted(forms, key=lambda f: (-len(f), f)))


def set_repository(work: str | os.PathLike[str] | None, common: str | os.PathLike[str]) -> None:
    """Record the work tree `work` of the repository whose common git dir is `common`, and
    the repository's other work trees: its main one (`<top>/.git` is the common dir) and each
    linked worktree (`<common>/worktrees/*/gitdir`, read without a git process). They are this
    clone's places as well, and `capture --all` reads their sessions too: a path in a linked
    worktree (`/tmp/wt-feature/src/x.py`) was captured and committed absolute, and the guard
    let it through. Nothing is recorded for a bare repository (no checkout of its own)."""
    if work is None:
        set_work_tree(None)
        return
    common = os.fspath(common)
    paths: list[str | os.PathLike[str]] = [work]
    if os.path.basename(os.path.normpath(common)) == ".git":
        paths.append(os.path.dirname(os.path.normpath(common)))
    paths += linked_work_trees(common)
    set_work_tree(*paths)


def linked_work_trees(common: str | os.PathLike[str]) -> list[str]:
    """The top of each linked worktree of the repository whose common git dir is `common`, read
    from `<common>/worktrees/*/gitdir` without a git process (capture --all reads their
    sessions; their paths are this clone's places)."""
    linked = os.path.join(os.fspath(common), "worktrees")
    try:
        names = sorted(os.listdir(linked))
    except OSError:
        return []
    tops: list[str] = []
    for name in names:
        try:
            with open(os.path.join(linked, name, "gitdir"), encoding="utf-8", errors="replace") as fh:
                target = fh.read(4096).strip()
        except OSError:
            continue
        if target:  # relative (worktree.useRelativePaths) to the file's own folder
            tops.append(os.path.dirname(os.path.normpath(os.path.join(linked, name, target))))
    return tops


def clear_work_tree() -> None:
    _FORMS[0] = ()


def work_tree_forms() -> tuple[str, ...]:
    """The recorded spellings of this checkout's top (empty when none is recorded)."""
    return _FORMS[0]


def _ends_path(text: str, end: int) -> bool:
    """Nothing of a longer folder name follows at `end` (`/srv/app` is not `/srv/app2` nor
    `/srv/app.old`; a full stop that ends a sentence ends the path)."""
    if end >= len(text):
        return True
    c = text[end]
    if c.isalnum() or c in "_-":
        return False
    if c == ".":
        return end + 1 >= len(text) or not (text[end + 1].isalnum() or text[end + 1] in "_-")
    return True


def work_tree_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each occurrence of this checkout's top in `text` that is a path of its
    own (not the tail of a longer one such as `/x/srv/app`), in text order; `end` is past the
    `/` after it when a name inside the work tree follows."""
    out: list[tuple[int, int]] = []
    forms = _FORMS[0]
    for form in forms:
        pos = text.find(form)
        while pos != -1:
            end = pos + len(form)
            # (nothing before it opens a path too; a file URL's `file://` goes with it)
            before, start = (text[pos - 1] if pos else " "), pos
            if before == "/" and text.endswith("file://", 0, pos):
                before, start = " ", pos - len("file://")
            if not (before.isalnum() or before in "_.~/\\-") and (
                _ends_path(text, end) or text.startswith("/", end)
            ):
                if text.startswith("/", end) and end + 1 < len(text) and (
                    text[end + 1].isalnum() or text[end + 1] in _NAME_START
                ):
                    end += 1
                out.append((start, end))
            pos = text.find(form, pos + 1)
    if len(forms) > 1:  # two spellings may overlap (one a prefix of the other): keep the longer
        out.sort(key=lambda s: (s[0], -s[1]))
        kept: list[tuple[int, int]] = []
        for s in out:
            if not kept or s[0] >= kept[-1][1]:
                kept.append(s)
        out = kept
    return out


def repo_relative(text: str) -> str:
    """`text` with every path inside this checkout written relative to its top
    (`/srv/app/scripts/check.sh` → `scripts/check.sh`) and the top itself as `.`."""
    if not _FORMS[0]:
        return text
    spans = work_tree_spans(text)
    if not spans:
        return text
    out: list[str] = []
    last = 0
    for start, end in spans:
        out.append(text[last:start])
        if not text.endswith("/", start, end):
            out.append(".")  # the top itself (`cd /srv/app`, `/srv/app/ is clean`)
        last = end
    out.append(text[last:])
    return "".join(out)


def remember_again(claim: str, global_: bool = False) -> str | None:
    """For a claim that names this checkout's path absolute (captured before such paths were
    written relative, so its id hashes from the absolute form and no commit of it passes the
    guard): the command that says it again relative, as a new item. None for any other claim."""
    relative = repo_relative(claim)
    if relative == claim:
        return None
    import shlex

    flag = " --global" if global_ else ""
    said = shlex.quote(" ".join(relative.split()))
    return (f"its claim names this checkout's path absolute (captured before agent-memory wrote such paths "
            f"relative): say it again as `git memory remember{flag} {said}`")  # fmt: skip
