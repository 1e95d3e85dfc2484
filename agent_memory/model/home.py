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
    """The global (L3) memory repo: `AGENT_MEMORY_HOME` or `~/.claude/agent-memory`."""
    configured = os.environ.get("AGENT_MEMORY_HOME")
    if configured:
        return os.path.expanduser(configured)
    return os.path.join(os.path.expanduser("~"), ".claude", "agent-memory")


def claude_projects_dir() -> str:
    """Where Claude Code keeps a folder of transcripts per project (`<config dir>/projects`)."""
    return os.path.join(claude_config_dir(), "projects")


def slug_for(path: str | os.PathLike[str]) -> str:
    """Claude Code's project slug: every character outside [A-Za-z0-9] becomes '-'."""
    return "".join(c if ("a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9") else "-" for c in os.fspath(path))
