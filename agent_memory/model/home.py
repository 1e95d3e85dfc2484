"""Where Claude Code and the global memory repo live, with `os` only: the session-start hook
computes its cache key from these on every start, and `capture --all` with nothing new lists
transcripts by them, before anything heavier is imported. `model.paths` builds its `Path`
versions on these, so there is one definition of each."""

import os


def claude_config_dir() -> str:
    """`CLAUDE_CONFIG_DIR` or `~/.claude`."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return os.path.expanduser(configured) if configured else os.path.join(os.path.expanduser("~"), ".claude")


def memory_home_dir() -> str:
    """The global (L3) memory repo: `AGENT_MEMORY_HOME` or `~/.claude/agent-memory`. A relative
    `AGENT_MEMORY_HOME` is taken from the home directory (`mem` is `~/mem`), never from the
    folder a command or hook runs in: that made one global repo nested inside each project's
    work tree, each registry holding one project."""
    configured = os.environ.get("AGENT_MEMORY_HOME")
    if configured:
        path = os.path.expanduser(configured)
        return path if os.path.isabs(path) else os.path.join(os.path.expanduser("~"), path)
    return os.path.join(os.path.expanduser("~"), ".claude", "agent-memory")


def claude_projects_dir() -> str:
    """Where Claude Code keeps a folder of transcripts per project (`<config dir>/projects`)."""
    return os.path.join(claude_config_dir(), "projects")


# Claude Code cuts a longer folder name here and appends a hash of the whole path.
SLUG_MAX = 200


def slug_for(path: str | os.PathLike[str]) -> str:
    """Claude Code's folder name under `projects/` for `path`, the same for its transcripts and
    its auto-memory folder (2.1.332, read from the client, docs/claude-client-records.md): every
    UTF-16 code unit outside [A-Za-z0-9] becomes '-' (JavaScript's `replace(/[^a-zA-Z0-9]/g)`,
    so a character outside the BMP becomes "--"); a name over 200 units is cut to 200 and
    followed by '-' and the base-36 of |Java `String.hashCode`| of the unchanged path."""
    text = os.fspath(path)
    slug = "".join(c if c.isascii() and c.isalnum() else "--" if ord(c) > 0xFFFF else "-" for c in text)
    if len(slug) <= SLUG_MAX:
        return slug
    return f"{slug[:SLUG_MAX]}-{_base36(abs(_java_hash(text)))}"


PROJECT_DIR_NAME_ENV = "CLAUDE_CODE_PROJECT_DIR_NAME"
REMOTE_MEMORY_BASE_ENV = "CLAUDE_CODE_REMOTE_MEMORY_DIR"
_NAME_UNITS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_DEVICE_NAMES = frozenset(["con", "prn", "aux", "nul", *(f"{d}{n}" for d in ("com", "lpt") for n in range(10))])


def project_dir_name() -> str | None:
    """`CLAUDE_CODE_PROJECT_DIR_NAME` where Claude Code 2.1.332 honours it, else None: only
    while `CLAUDE_CONFIG_DIR` is set and not empty, and only a value of 1 to 64 units from
    `[A-Za-z0-9_-]` that is not a Windows device name (con, prn, aux, nul, com0-9, lpt0-9, any
    case). Any other value is ignored, as the client ignores it (no trimming, no error). Where
    honoured it replaces the project's folder name under `projects/` outright, whatever the
    path (docs/claude-client-records.md)."""
    if not os.environ.get("CLAUDE_CONFIG_DIR"):
        return None
    name = os.environ.get(PROJECT_DIR_NAME_ENV)
    if not name or len(name) > 64 or not _NAME_UNITS.issuperset(name) or name.lower() in _DEVICE_NAMES:
        return None
    return name


def project_folder_name(path: str | os.PathLike[str]) -> str:
    """The client's folder under `projects/` for the transcripts of a session started in
    `path`: the honoured `CLAUDE_CODE_PROJECT_DIR_NAME`, else `slug_for(path)`."""
    return project_dir_name() or slug_for(path)


def memory_base_dir() -> str:
    """The folder whose `projects/<name>/memory/` is the default auto-memory folder:
    `CLAUDE_CODE_REMOTE_MEMORY_DIR` when set and not empty, else the config dir."""
    return os.environ.get(REMOTE_MEMORY_BASE_ENV) or claude_config_dir()


def memory_folder_name(root: str | os.PathLike[str]) -> str:
    """The client's folder under `<memory base>/projects/` for the auto-memory of the
    repository whose main work tree is `root`. The override names it only while that base is
    the config dir itself: the client compares `CLAUDE_CODE_REMOTE_MEMORY_DIR` as given with its
    config dir (`CLAUDE_CONFIG_DIR`, NFC) and slugs the path whenever they differ."""
    remote = os.environ.get(REMOTE_MEMORY_BASE_ENV)
    if remote:
        import unicodedata

        if remote != unicodedata.normalize("NFC", os.environ.get("CLAUDE_CONFIG_DIR") or ""):
            return slug_for(root)
    return project_folder_name(root)


def slug_scan_prefix(slug: str) -> str:
    """What the folder of a path *under* the one `slug` names starts with: `slug` and '-'; for
    a cut name, its cut part and '-' (the hash differs; the client's own lookup of a cut name
    also scans for this prefix and checks the recorded cwd, not trusting the hash alone)."""
    return (slug if len(slug) <= SLUG_MAX else slug[:SLUG_MAX]) + "-"


def _java_hash(text: str) -> int:
    """`h = h * 31 + unit`, 32-bit signed, over the UTF-16 code units (the client's `Nle`)."""
    data = text.encode("utf-16-le", "surrogatepass")
    h = 0
    for i in range(0, len(data), 2):
        h = (h * 31 + (data[i] | data[i + 1] << 8)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def _base36(n: int) -> str:
    """`Number.prototype.toString(36)` of a non-negative integer."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, d = divmod(n, 36)
        out = digits[d] + out
        if not n:
            return out


def git_in(path: str | os.PathLike[str]) -> str:
    """`git -C PATH` as a hint writes it for pasting into a shell: the path quoted when it needs
    to be (a space, a quote, `$`), so the command acts on that folder and nothing else."""
    import shlex  # (here, not at the top: the hooks import this module and never print a hint)

    return f"git -C {shlex.quote(os.fspath(path))}"


def tilde(path: str | os.PathLike[str]) -> str:
    """`path` as a person reads it: `~/…` when it is under the home directory, else as is."""
    return tilde_text(os.fspath(path))


def tilde_text(text: str) -> str:
    """A line for a person with each path under the home directory written `~/…`.

    Only a path that starts a word is shortened: `~` expands there when a hint's command is
    pasted into a shell, and not inside quotes nor after `--flag=`, so a quoted path (one with
    a space, as shlex.quote writes it) or one after `=` keeps its full form. JSON output never
    passes through here: scripts get the paths as they are."""
    homes = home_dirs()
    if not homes or not any(home in text for home in homes):
        return text
    import re

    for home in homes:
        # After: the end of the path's first component (a separator, punctuation, a full stop
        # that ends a sentence), so `/home/you` never matches the start of `/home/young`.
        pattern = rf"(?:^|(?<=[\s(`])){re.escape(home)}(?=/|$|[\s)`:,;'\"]|\.(?:\s|$))"
        text = re.sub(pattern, "~", text)
    return text


def home_dirs() -> list[str]:
    """The home directory as $HOME says it and as it resolves (a home reached through a link
    shows up both ways); none when it is the root or unknown."""
    home = os.path.expanduser("~").rstrip(os.sep)
    if not home or home == "~" or not os.path.isabs(home):
        return []
    real = os.path.realpath(home).rstrip(os.sep)
    return [h for h in dict.fromkeys([home, real]) if h]
