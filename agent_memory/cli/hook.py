"""`git memory hook <event>`: what the Claude Code hooks run. The whole fail-open contract is in
`agent_memory.claude.hooks`; this verb only parses the internal flags of the background events."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent_memory.claude.hooks import run_event

if TYPE_CHECKING:  # argparse costs the per-prompt hook a few ms; only its type is used here
    import argparse


def run(args: argparse.Namespace) -> int:
    return run_event(args.event, {"transcript": args.transcript, "cwd": args.cwd,
                                  "git_dir": args.git_dir, "session": args.session})  # fmt: skip
