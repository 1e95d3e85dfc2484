"""Where Claude Code and the global memory repo live, with `os` only: the session-start hook
computes its cache key from these on every start, before anything heavier is imported.
`model.paths` builds its `Path` versions on these, so there is one definition of each."""

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
