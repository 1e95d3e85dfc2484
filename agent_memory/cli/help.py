"""`git memory help [VERB]`: the manual (what `git memory --help` shows through `man`) as
plain text, without `man`; with a verb, that verb's entry."""

from __future__ import annotations

import argparse

from agent_memory.cli import manpage
from agent_memory.cli.main import ALIASES, build_parser, verb_parsers
from agent_memory.cli.report import Report
from agent_memory.model.errors import UsageError


def run(args: argparse.Namespace) -> Report:
    topic = args.topic
    if topic:
        known = verb_parsers(build_parser(), hidden=True)
        if topic not in known and topic not in ALIASES:
            from agent_memory.cli.main import suggest

            near = suggest(topic, list(known))
            raise UsageError(f"{topic!r} is not a git memory verb"
                             + (f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""),
                             hint="`git memory help` lists the verbs")
    return Report(raw=manpage.text(topic))
