"""`git memory recall --prompt TEXT`: what the per-prompt hook would inject, for people."""

from __future__ import annotations

import argparse
import time

from agent_memory import recall
from agent_memory.commands.common import emit_json, store_here, wants_json


def run(args: argparse.Namespace) -> int:
    repo, store = store_here()
    index = recall.load_index(repo.state)
    if index is None or recall.index_is_stale(repo.state, repo.common_dir):
        # People can wait for a rebuild; the hook cannot (it uses what is there).
        tip = store.tip()
        recall.write_index(repo.state, store.atoms(), tip or "")
        index = recall.load_index(repo.state)
    hits = recall.recall(index, args.prompt, time.time()) if index is not None else []
    text = recall.render_recall(hits)
    if wants_json(args):
        by_id = {a["id"]: a for a in store.atoms()}
        emit_json({"atoms": [by_id[h.id] for h in hits if h.id in by_id], "context": text})
    else:
        print(text if text else "nothing in L1 matches that prompt")
    return 0
