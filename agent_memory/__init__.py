"""agent-memory: git-native, tiered memory for Claude Code."""

from __future__ import annotations

__version__ = "0.1.0"
