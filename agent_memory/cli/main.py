"""`git memory` entry point: the whole argparse tree in one place, one module per verb.

Verb modules are imported only when dispatched, so `git memory --help` and the hook fast
paths never import pygit2 or jsonschema.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

_JSON = {"choices": ["json", "text"], "default": "text", "help": "print one JSON object (json) or text"}


def _out(p: argparse.ArgumentParser) -> None:
    p.add_argument("--output", **_JSON)  # type: ignore[arg-type]


def build_parser() -> argparse.ArgumentParser:
    import argparse

    from agent_memory import __version__

    parser = argparse.ArgumentParser(
        prog="git memory",
        description="Git-native, tiered memory for Claude Code: learns from transcripts, "
        "promotes what recurred, and stages promotions as commits for review.",
        epilog="exit codes: 0 ok, 1 refused/findings, 2 usage or bad input, 3 repository state, 130 interrupted",
    )
    parser.add_argument("--version", action="version", version=f"agent-memory {__version__}")
    sub = parser.add_subparsers(dest="verb", metavar="<verb>")

    def verb(name: str, help_text: str | None, module: str | None = None) -> argparse.ArgumentParser:
        kwargs = {"help": help_text} if help_text else {}
        p = sub.add_parser(name, description=help_text, **kwargs)  # type: ignore[arg-type]
        p.set_defaults(module=module or name.replace("-", "_"))
        return p

    # setting up
    p = verb("init", "create memory/atoms, install hooks, register the project")
    p.add_argument("--yes", action="store_true", help="also commit the setup files (.gitignore, .gitattributes, CLAUDE.md, .claude/settings.json)")
    p.add_argument("--project", help="project name (default: git config memory.project or the top-level directory name)")
    p.add_argument("--no-claude-hooks", action="store_true", help="do not write hooks into .claude/settings.json")
    p.add_argument("--force", action="store_true", help="replace a hook of ours that was edited")
    _out(p)
    p = verb("status", "tier counts, staged items, recent errors, hook state")
    _out(p)
    p = verb("demo", "run the whole loop in a scratch repo on bundled transcripts")
    p.add_argument("--dir", help="where to build the scratch repo (default: a new temporary directory)")
    p.add_argument("--keep", action="store_true", help="keep the scratch repo afterwards")

    # L0 -> L1
    p = verb("extract", "dry run: atoms a transcript would yield (writes nothing)")
    p.add_argument("--transcript", required=True)
    p.add_argument("--project")
    _out(p)
    p = verb("capture", "extract a transcript into memory/atoms (one commit)")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--transcript")
    group.add_argument("--all", action="store_true", help="every transcript of this project")
    p.add_argument("--session", help="session id (default: from the transcript)")
    p.add_argument("--since", help="with --all: only transcripts modified on or after YYYY-MM-DD")
    p.add_argument("--no-stage", action="store_true", help="do not stage promotions afterwards")
    _out(p)
    p = verb("hook", None)
    p.add_argument("event", choices=["session-start", "user-prompt-submit", "session-end", "background-capture"])
    p.add_argument("--transcript", help=argparse.SUPPRESS)
    p.add_argument("--cwd", help=argparse.SUPPRESS)
    p.add_argument("--session", help=argparse.SUPPRESS)

    # reading
    p = verb("inspect", "list atoms of a tier, contested pairs, or the evidence for one atom")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--tier", choices=["L1", "L2", "L3"])
    group.add_argument("--contested", action="store_true")
    group.add_argument("--why", metavar="ID-OR-TEXT")
    _out(p)
    p = verb("log", "an atom's history from git log")
    p.add_argument("id")
    _out(p)
    p = verb("recall", "what the per-prompt recall would inject")
    p.add_argument("--prompt", required=True)
    _out(p)
    p = verb("context", "what session start would inject")
    _out(p)

    # promotion and review
    p = verb("promote", "dry run of the promotion gates")
    p.add_argument("--global", dest="global_", action="store_true", help="L2 -> L3 across registered projects")
    _out(p)
    p = verb("stage", "rebuild memory/review: one commit per promotion")
    p.add_argument("--global", dest="global_", action="store_true")
    p.add_argument("--force", action="store_true", help="overwrite a review branch edited by hand")
    _out(p)
    p = verb("pr", "push memory/review and open a pull request (or print how)")
    p.add_argument("--remote", default=None)
    p.add_argument("--print", dest="print_only", action="store_true", help="only print the commands and PR body")
    p.add_argument("--global", dest="global_", action="store_true")
    _out(p)
    p = verb("adopt", "merge staged promotions item by item")
    p.add_argument("--global", dest="global_", action="store_true")
    p.add_argument("--all", action="store_true")
    p.add_argument("--yes", nargs="+", metavar="ID", default=[])
    p.add_argument("--reject", nargs="+", metavar="ID", default=[])
    p.add_argument("--pin", nargs="+", metavar="ID", default=[])
    _out(p)
    p = verb("resolve", "settle a contradiction: keep one atom")
    p.add_argument("id")
    p.add_argument("--keep", required=True)
    p.add_argument("--forget-other", action="store_true", help="forget the other atom instead of demoting it")
    _out(p)
    p = verb("forget", "remove an atom (tombstoned, so it is not silently re-learned)")
    p.add_argument("id")
    p.add_argument("--undo", action="store_true", help="restore a forgotten atom")
    _out(p)
    p = verb("verify", "raise an atom to verified when a command exits 0")
    p.add_argument("id")
    p.add_argument("--by", required=True, metavar="CMD")
    _out(p)
    p = verb("remember", "a hand-authored atom, staged for review like any other")
    p.add_argument("claim")
    p.add_argument("--global", dest="global_", action="store_true")
    p.add_argument("--kind", default="preference", choices=["constraint", "preference", "fact", "decision", "failure"])
    _out(p)

    # safety
    p = verb("redact", "stdin -> redacted text on stdout")
    p.add_argument("--each-line", action="store_true")
    _out(p)
    p = verb("scan", "the commit guard: refuse memory content with secrets, PII or path prefixes")
    p.add_argument("--staged", action="store_true", help="scan the staged memory files (pre-commit)")
    p.add_argument("paths", nargs="*")
    _out(p)
    p = verb("validate", "schema, ids, store invariants, rendered blocks, working sets")
    p.add_argument("--atoms", metavar="FILE")
    p.add_argument("--auto-memory", nargs="?", const="", default=None, metavar="DIR")
    p.add_argument("--fix", action="store_true", help="re-render the memory blocks from adopted.log")
    _out(p)

    # lifecycle
    p = verb("stale", "atoms naming repository paths that no longer exist")
    _out(p)
    p = verb("pin", "mark an adopted atom decay-exempt", module="lifecycle_verbs")
    p.add_argument("id")
    _out(p)
    p = verb("unpin", "remove the pin", module="lifecycle_verbs")
    p.add_argument("id")
    _out(p)
    p = verb("decay", "take an atom out of the working set (still reachable)", module="lifecycle_verbs")
    p.add_argument("id")
    _out(p)
    p = verb("supersede", "mark OLD obsolete with a breadcrumb to NEW", module="lifecycle_verbs")
    p.add_argument("old")
    p.add_argument("--by", required=True, metavar="NEW")
    _out(p)
    p = verb("consolidate", "propose clusters of near-duplicate atoms (proposals only)")
    p.add_argument("--auto-memory", nargs="?", const="", default=None, metavar="DIR")
    _out(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if len(args_list) == 2 and args_list[0] == "hook" and args_list[1] != "background-capture":
        # The Claude Code hook fast path: no argparse tree, no pygit2 (spec §5.2's budget).
        from agent_memory.cli.hook import run_event

        return run_event(args_list[1])
    import importlib

    from agent_memory.model.errors import EXIT_INTERRUPTED, EXIT_REPO_STATE, EXIT_USAGE, FatalError

    parser = build_parser()
    args = parser.parse_args(args_list)
    if not getattr(args, "verb", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        module = importlib.import_module(f"agent_memory.cli.{args.module}")
        code: int = module.run(args)
        return code
    except FatalError as exc:
        print(f"git memory {args.verb}: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"hint: {exc.hint}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"git memory {args.verb}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence: log, one line, exit 3
        from agent_memory.gitio.state import log_exception

        where = log_exception(f"git memory {args.verb}", exc)
        print(f"git memory {args.verb}: internal error: {exc}", file=sys.stderr)
        print(f"hint: the traceback is in {where}; please report it", file=sys.stderr)
        return EXIT_REPO_STATE


if __name__ == "__main__":
    raise SystemExit(main())
