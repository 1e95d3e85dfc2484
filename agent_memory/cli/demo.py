"""`git memory demo [--dir PATH] [--keep]`: see agent_memory/cli/demo_run.py."""

from __future__ import annotations

import argparse

from agent_memory.cli.demo_run import run_demo


def run(args: argparse.Namespace) -> int:
    return run_demo(args.dir, args.keep)
