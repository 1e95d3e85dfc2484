"""The manual, generated from the argparse tree: `man/git-memory.1` (roff, shipped by the wheel
as share/man/man1/git-memory.1, which is what `git memory --help` opens: git turns it into
`man git-memory`) and the same text for `git memory help [VERB]`, which needs no `man`.

`python -m agent_memory.cli.manpage > man/git-memory.1` regenerates the page;
tests/test_cli_help.py fails when the committed page differs from the parser.
Standard library only, like `main`: `help` must work without a repository."""

from __future__ import annotations

import argparse
import sys
import textwrap
from dataclasses import dataclass, field

from agent_memory import __version__
from agent_memory.cli.main import (
    ALIASES,
    DESCRIPTION,
    GROUPS,
    build_parser,
    usage_line,
    verb_parsers,
)

TITLE = "GIT-MEMORY"
DATE = "2026"

INTRO = (
    "git memory reads the session transcripts Claude Code already writes (L0), keeps candidate "
    "facts (atoms) on the local orphan branch memory/atoms (L1), and promotes only the ones that "
    "recurred into committed memory: CLAUDE.memory.md and .memory/adopted.log in the project (L2), "
    "and the global memory repo for your cross-project persona (L3). Each promotion is one commit "
    "on memory/review that you adopt item by item (git memory adopt) or merge as a pull request "
    "(git memory pr). Nothing reaches a committed file without a person, and the pre-commit guard "
    "refuses memory content with a secret, personal data or a machine-specific path."
)
TERMS = (
    ("atom", "one claim (\"Never push directly to main\") with its provenance: the sessions and "
     "transcript lines it was seen in."),
    ("L1", "candidate atoms on memory/atoms: local, never pushed, recalled per prompt."),
    ("L2", "the project's adopted memory, committed; injected at every session start."),
    ("L3", "your global memory (the global memory repo), adopted from atoms held in two projects."),
    ("stated / observed / verified", "how sure: you said it / inferred from what happened / a "
     "command proved it (git memory verify)."),
    ("held", "an atom adopted at L2: not staged again, exempt from the L1 expiry."),
)
GLOBAL_OPTIONS = (
    ("-h, --help", "print a verb's (or the verbs') usage; git memory --help opens this page."),
    ("--no-color", "no colour, even on a terminal (taken by every verb)."),
    ("--version", "print the version."),
)
ENVIRONMENT = (
    ("AGENT_MEMORY_HOME", "the global memory repo (default ~/.claude/agent-memory)."),
    ("CLAUDE_CONFIG_DIR", "Claude Code's config dir, where transcripts are read (default ~/.claude)."),
    ("AGENT_MEMORY_NOW", "pin the clock (tests, reproducible demos)."),
    ("AGENT_MEMORY_SESSIONSTART, AGENT_MEMORY_USERPROMPTSUBMIT, AGENT_MEMORY_SESSIONEND",
     "set to 0 to turn one Claude Code hook off."),
    ("NO_COLOR", "any value: no colour (as --no-color)."),
)
CONFIG = (
    ("memory.project", "the project name atoms are scoped to (set by init)."),
    ("memory.target", "claude-md puts the L2 block in CLAUDE.md itself instead of CLAUDE.memory.md."),
    ("memory.base", "the branch promotions are staged on (default: origin's HEAD, main, master)."),
    ("memory.autoStage", "false: do not stage after a background capture."),
    ("memory.remote", "where git memory pr pushes (default origin)."),
)
EXIT = (
    ("0", "ok"),
    ("1", "refused, validation failed, or findings (scan, stale)"),
    ("2", "usage or bad input (an unknown verb, an unreadable transcript)"),
    ("3", "repository state: not a git repository, not initialised, dirty memory files, a ref git "
          "cannot read (damaged or lost: the hint names the file, the reflog and git fsck), memory/atoms "
          "moved off the store (the hint names its last store commit)"),
    ("130", "interrupted"),
)
SECTIONS = (("GLOBAL OPTIONS", GLOBAL_OPTIONS), ("ENVIRONMENT", ENVIRONMENT),
            ("GIT CONFIGURATION", CONFIG), ("EXIT STATUS", EXIT))
SEE_ALSO = "git(1), git-log(1), claude(1); docs/cli.md and README.md of agent-memory."


@dataclass
class Option:
    flags: str
    help: str


@dataclass
class Verb:
    name: str
    aliases: list[str]
    summary: str
    usage: str
    description: str
    options: list[Option] = field(default_factory=list)


def _flags(action: argparse.Action) -> str:
    if not action.option_strings:
        return str(action.metavar or action.dest)
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    metavar = action.metavar or action.dest.upper()
    more = f" [{metavar} …]" if action.nargs == "+" else ""
    if action.nargs == "?":
        return ", ".join(f"{s} [{metavar}]" for s in action.option_strings)
    return ", ".join(f"{s} {metavar}{more}" for s in action.option_strings)


def verbs(parser: argparse.ArgumentParser | None = None, hidden: bool = False) -> list[Verb]:
    """The verbs of the manual; with `hidden`, also those people do not run (`hook`), which
    `git memory help VERB` still explains: docs/cli.md documents them."""
    parser = parser or build_parser()
    out = []
    helps = _summaries(parser)
    parsers = verb_parsers(parser, hidden=hidden)
    for name, p in parsers.items():
        options = [Option(_flags(a), str(a.help or "")) for a in p._actions
                   if a.help != argparse.SUPPRESS and a.dest != "no_color"
                   and not isinstance(a, argparse._HelpAction)]
        out.append(Verb(name, [a for a, v in ALIASES.items() if v == name], helps.get(name, ""),
                        usage_line(p), str(p.description or ""), options))
    return out


def _summaries(parser: argparse.ArgumentParser) -> dict[str, str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {str(c.dest).split(" ")[0]: str(c.help or "") for c in action._choices_actions}


# --- plain text (git memory help) -------------------------------------------------------------


def _wrap(text: str, indent: int, width: int = 78) -> list[str]:
    return textwrap.wrap(text, width=width, initial_indent=" " * indent, subsequent_indent=" " * indent,
                         break_on_hyphens=False) or [""]


def _also(verb: Verb) -> str:
    """The aliases a verb's description does not name already (inspect's says `git memory
    show` is the same: the page said it twice)."""
    names = [f"git memory {a}" for a in verb.aliases if f"git memory {a}" not in verb.description]
    return f" (also: {', '.join(names)})" if names else ""


def _text_verb(verb: Verb) -> list[str]:
    lines = _wrap(verb.usage, 7)
    lines += _wrap(verb.description + _also(verb), 11)
    for option in verb.options:
        lines += _wrap(option.flags, 11)
        lines += _wrap(option.help, 15)
    return lines


def text(topic: str | None = None) -> str:
    """The manual as plain text; with a verb, that verb's entry only."""
    all_verbs = verbs(hidden=True)  # the whole manual below walks GROUPS: the hidden are left out
    by_name = {v.name: v for v in all_verbs}
    if topic:
        return "\n".join(_text_verb(by_name[ALIASES.get(topic, topic)])) + "\n"
    lines = ["NAME", "       git-memory - git-native, tiered memory for Claude Code", "", "SYNOPSIS",
             "       git memory <verb> [options]", "       git memory help [VERB]", "", "DESCRIPTION"]
    lines += _wrap(DESCRIPTION, 7) + [""] + _wrap(INTRO, 7) + [""]
    lines += ["TERMS"]
    for term, meaning in TERMS:
        lines += _wrap(term, 7) + _wrap(meaning, 11)
    for title, names in GROUPS:
        lines += ["", title.upper()]
        for name in names:
            if name in by_name:
                lines += _text_verb(by_name[name]) + [""]
    for title, items in SECTIONS:
        lines += [title]
        for key, meaning in items:
            lines += _wrap(key, 7) + _wrap(meaning, 11)
        lines.append("")
    lines += ["SEE ALSO"] + _wrap(SEE_ALSO, 7)
    return "\n".join(lines) + "\n"


# --- roff (man git-memory) ---------------------------------------------------------------------


def _esc(value: str) -> str:
    out = value.replace("\\", "\\e").replace("-", "\\-").replace("…", "\\&...").replace("→", "\\(->")
    out = out.replace("≥", "\\(>=").replace("≤", "\\(<=").replace("—", "\\(em")
    lines = out.splitlines() or [""]
    return "\n".join("\\&" + ln if ln.startswith((".", "'")) else ln for ln in lines)


def roff() -> str:
    out = [
        f'.TH {TITLE} 1 "{DATE}" "agent-memory {__version__}" "Git Manual"',
        ".nh", ".ad l", ".SH NAME", "git\\-memory \\- git\\-native, tiered memory for Claude Code",
        ".SH SYNOPSIS", ".nf", "\\fBgit memory\\fR \\fI<verb>\\fR [\\fIoptions\\fR]",
        "\\fBgit memory help\\fR [\\fIVERB\\fR]", ".fi",
        ".SH DESCRIPTION", _esc(DESCRIPTION), ".PP", _esc(INTRO),
        ".SH TERMS",
    ]
    for term, meaning in TERMS:
        out += [".TP", f"\\fB{_esc(term)}\\fR", _esc(meaning)]
    by_name = {v.name: v for v in verbs()}
    for title, names in GROUPS:
        out += [f'.SH "{_esc(title.upper())}"']
        for name in names:
            verb = by_name.get(name)
            if verb is None:
                continue
            out += [".TP", f"\\fB{_esc(verb.usage)}\\fR", _esc(verb.description + _also(verb))]
            if verb.options:
                out += [".RS"]
                for option in verb.options:
                    out += [".TP", f"\\fB{_esc(option.flags)}\\fR", _esc(option.help)]
                out += [".RE"]
    for title, items in SECTIONS:
        out += [f'.SH "{title}"']
        for key, meaning in items:
            out += [".TP", f"\\fB{_esc(key)}\\fR", _esc(meaning)]
    out += [".SH \"SEE ALSO\"", _esc(SEE_ALSO)]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(roff())
