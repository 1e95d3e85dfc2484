"""agent-memory: git-native, tiered memory for Claude Code."""

__version__ = "0.1.0"
