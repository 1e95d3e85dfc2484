"""`git memory hook <event>`: what the Claude Code hooks run. The whole fail-open contract is in
`agent_memory.claude.hooks`; this verb only parses the internal flags of the background events."""

from __future__ import annotations

import argparse

from agent_memory.claude.hooks import run_event


def run(args: argparse.Namespace) -> int:
    return run_event(
        args.event, {"transcript": args.transcript, "cwd": args.cwd, "session": args.session}
    )
