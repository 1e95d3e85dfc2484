"""`git memory recall PROMPT` (or `--prompt TEXT`): what the per-prompt hook would inject, for people."""

from __future__ import annotations

import argparse
import time

from agent_memory.cli.output import flag_or_positional, fresh_recall_index, store_here
from agent_memory.cli.report import Report
from agent_memory.store.recall import render, score


def run(args: argparse.Namespace) -> Report:
    prompt = flag_or_positional(args, "prompt", "prompt_pos", 'git memory recall "how do I deploy"')
    repo, store = store_here()
    index = fresh_recall_index(repo)
    hits = score.recall(index, str(prompt), time.time()) if index is not None else []
    text = render.render_recall(hits)
    # Only the recalled atoms, read by path: not the whole store for five atoms.
    by_id = store.read_atoms([h.id for h in hits])
    return Report({"atoms": [by_id[h.id] for h in hits if h.id in by_id], "context": text},
                  [text if text else "nothing in L1 matches that prompt"])
