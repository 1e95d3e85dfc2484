"""`git memory` entry point: the whole argparse tree in one place, one module per verb.

Verb modules are imported only when dispatched, so `git memory --help`/`help` and the hook fast
paths never import pygit2 or jsonschema. The same tree generates the man page
(`cli/manpage.py`, shipped as share/man/man1/git-memory.1) and the shell completions
(`cli/completion.py`), so neither can drift from the parser.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any, NoReturn

PROG = "git memory"
DESCRIPTION = (
    "Git-native, tiered memory for Claude Code: learns from the transcripts Claude Code writes, "
    "keeps candidate facts (atoms) on the local branch memory/atoms, promotes only what recurred, "
    "and stages each promotion as a commit on memory/review for you to adopt or merge as a pull request."
)
EPILOG = (
    "Run `git memory help VERB` (or `git memory VERB -h`) for one verb, `git memory help` or "
    "`man git-memory` for the manual. "
    "Exit codes: 0 ok, 1 refused/findings, 2 usage or bad input, 3 repository state, 130 interrupted."
)

# Verbs by topic: the order of `git memory -h`, the man page and the completions.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Setting up", ("init", "deinit", "status", "demo", "completion")),
    ("L0 → L1: from transcripts to candidate atoms", ("extract", "capture")),
    ("Reading", ("inspect", "log", "recall", "context")),
    ("Promotion and review", ("promote", "stage", "pr", "adopt", "resolve", "forget", "verify", "remember")),
    ("Safety", ("redact", "scan", "validate")),
    ("Lifecycle", ("stale", "pin", "unpin", "decay", "supersede", "consolidate")),
    ("Help", ("help",)),
)
ALIASES = {"show": "inspect"}
# Ops `git memory log` shows that are no verb of their own: the command that does each.
DONE_BY = {"reject": "adopt --reject", "unforget": "forget --undo"}
HIDDEN = ("hook",)  # run by Claude Code, not people: `git memory help hook` explains it
HOOK_EVENTS = ("session-start", "user-prompt-submit", "session-end", "background-capture", "rebuild-index")
SHELLS = ("bash", "zsh", "fish")
KINDS = ("constraint", "preference", "fact", "decision", "failure")
_OUTPUT = {"choices": ["json", "text"], "default": "text", "metavar": "json|text",
           "help": "json: print exactly one JSON object on stdout; text (default): for people"}
_ID = "an atom id (atm_…), a unique id prefix, or words of its claim"


def _typed(text: str) -> str:
    """Text typed to be matched (words of a claim, a prompt), never a path: a UTF-8 terminal's
    bytes in a locale that is not UTF-8 (LC_ALL=C) are its characters (model.controls.argv_text),
    or `inspect --why über` matched no atom. Bytes that are not UTF-8 stay as given."""
    from agent_memory.model.controls import argv_text

    try:
        return argv_text(text)
    except ValueError:
        return text


def _given_text(text: str) -> str:
    return _typed(_given(text))


def _given(text: str) -> str:
    """A value that must say something: `--why ''` answered the overview, `--atoms ''`
    validated the repository, `--dir ''` used a scratch folder, each as if the flag were not
    given."""
    if not text.strip():
        import argparse

        raise argparse.ArgumentTypeError("must not be empty")
    return text


def _out(p: argparse.ArgumentParser) -> None:
    p.add_argument("--output", **_OUTPUT)  # type: ignore[arg-type]


def _global(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--global", dest="global_", action="store_true", help=what)


class _BadArguments(SystemExit):
    """What argparse would have printed before exiting 2: caught by main, which says it the
    way every other usage error is said (or, for the hook, logs it and exits 0). Still a
    SystemExit(2), as argparse's own, for whoever else parses with the tree (tests, tools)."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(2)
        self.parser = parser
        self.message = message


def _parser_class() -> type[argparse.ArgumentParser]:
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            raise _BadArguments(self, message)

    return Parser


class _Unparsed:
    """Stands for the parser of a verb this run does not parse: every definition made on it
    is dropped (see build_parser's `only`)."""

    def __getattr__(self, name: str) -> Any:
        return self._drop

    def _drop(self, *args: object, **kwargs: object) -> _Unparsed:
        return self


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with `only`, a verb's parser alone (what main parses a verb
    with: building the other 30 costs every command a few milliseconds — argparse formats and
    translates as it builds). The manual, the completions and the help build it whole."""
    import argparse

    from agent_memory import __version__

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--no-color", action="store_true", default=argparse.SUPPRESS,
                        help="no colour, even on a terminal (so does NO_COLOR=1)")
    # The verbs' parsers are of the same class (argparse makes subparsers of the parent's), so
    # every argparse error of every verb reaches main's one handler.
    parser = _parser_class()(prog=PROG, description=DESCRIPTION, epilog=EPILOG, parents=[common])
    parser.add_argument("--version", action="version", version=f"agent-memory {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="verb", metavar="<verb>", title="verbs")

    def verb(name: str, help_text: str | None, module: str | None = None,
             aliases: Sequence[str] = (), description: str | None = None) -> argparse.ArgumentParser:
        if only is not None and name != only:
            return _Unparsed()  # type: ignore[return-value]  # absorbs what follows, like a parser
        kwargs = {"help": help_text} if help_text else {}
        p = sub.add_parser(name, description=description or help_text, parents=[common],
                           aliases=list(aliases), **kwargs)  # type: ignore[arg-type]
        p.set_defaults(module=module or name.replace("-", "_"), verb_name=name)
        return p

    # setting up
    p = verb("init", "set agent-memory up here: memory/atoms, git hooks, CLAUDE.md import, Claude Code hooks",
             description="Create memory/atoms, install the git hooks (chaining existing ones), add the "
             ".gitignore lines and the @CLAUDE.memory.md import, write the Claude Code hooks into "
             ".claude/settings.json and register the project in the global memory repo. Idempotent; "
             "`git memory deinit` undoes it.")
    p.add_argument("--yes", action="store_true", help="also commit the setup files (.gitignore, .gitattributes, CLAUDE.md, .claude/settings.json)")
    p.add_argument("--project", metavar="NAME", help="project name (default: git config memory.project, else the one the committed adopted.log records, else the remote's repository name, else the top-level directory name)")
    p.add_argument("--no-claude-hooks", action="store_true", help="do not write hooks into .claude/settings.json")
    p.add_argument("--force", action="store_true", help="replace a hook of ours that was edited")
    p.add_argument("--completion", choices=SHELLS, metavar="SHELL",
                   help="also install tab completion for SHELL (bash, zsh or fish) in your user directory")
    _out(p)
    p = verb("deinit", "undo init: git hooks, Claude Code hooks, CLAUDE.md import, global registration",
             description="Undo `git memory init`: remove our git hooks (restoring a hook we chained), our "
             "entries in .claude/settings.json, the @CLAUDE.memory.md import line and the project's "
             "registration in the global memory repo. memory/atoms and committed memory "
             "(CLAUDE.memory.md, .memory/adopted.log) are kept unless --purge.")
    p.add_argument("--purge", action="store_true",
                   help="also delete memory/atoms, memory/review (this repository's own: branches that came with a clone are kept), CLAUDE.memory.md, .memory/ and local state (asks first)")
    p.add_argument("--yes", action="store_true", help="with --purge: do not ask (needed without a terminal)")
    _out(p)
    p = verb("status", "tier counts, staged items, recent errors, hook state")
    _out(p)
    p = verb("demo", "run the whole loop in a scratch repo on bundled transcripts")
    p.add_argument("--dir", metavar="PATH", type=_given, help="where to build the scratch repo (default: a new temporary directory, deleted afterwards)")
    p.add_argument("--keep", action="store_true", help="keep a copy of the scratch repo afterwards")
    p = verb("completion", "print the tab-completion script for bash, zsh or fish",
             description="Print a completion script generated from this parser. "
             "`git memory init --completion SHELL` installs it for you.")
    p.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh or fish")

    # L0 -> L1
    p = verb("extract", "dry run: the atoms a transcript (or Claude's own memory folder) would yield",
             description="Dry run, writes nothing: the L1 atoms a transcript would yield, or with "
             "--auto-memory those of Claude Code's own auto-memory folder (each topic file one candidate "
             "or one skip with its reason).")
    p.add_argument("transcript_pos", nargs="?", metavar="TRANSCRIPT", type=_given, help="a Claude Code session file (.jsonl)")
    p.add_argument("--transcript", metavar="PATH", type=_given, help="the same, as a flag")
    p.add_argument("--auto-memory", nargs="?", const="", metavar="DIR",
                   help="read Claude Code's own auto-memory folder instead (default: this project's)")
    p.add_argument("--project", metavar="NAME", help="project the atoms are scoped to (default: this repository's)")
    _out(p)
    p = verb("capture", "extract transcripts into memory/atoms (one commit each)",
             description="Extract a transcript (or every transcript of this project with --all) into "
             "memory/atoms, one commit per transcript, then stage what became eligible.")
    p.add_argument("transcript_pos", nargs="?", metavar="TRANSCRIPT", type=_given, help="a Claude Code session file (.jsonl)")
    p.add_argument("--transcript", metavar="PATH", type=_given, help="the same, as a flag")
    p.add_argument("--all", action="store_true", help="every transcript of this project (a backfill)")
    p.add_argument("--session", metavar="ID", help="session id (default: from the transcript)")
    p.add_argument("--since", metavar="YYYY-MM-DD", help="with --all: only transcripts modified on or after this day")
    p.add_argument("--no-stage", action="store_true", help="do not stage promotions afterwards")
    p.add_argument("--force", action="store_true", help="learn from a transcript recorded in another repository")
    _out(p)
    p = verb("hook", None, description="What the Claude Code hooks run (and the detached jobs they start): "
             "reads the hook payload (JSON) on stdin and always exits 0, whatever goes wrong; a "
             "failure is one line in .git/agent-memory/errors.log (`git memory status` shows it).")
    p.add_argument("event", choices=list(HOOK_EVENTS), metavar="EVENT",
                   help=f"one of {', '.join(HOOK_EVENTS)}")
    p.add_argument("--transcript", help=argparse.SUPPRESS)
    p.add_argument("--cwd", help=argparse.SUPPRESS)
    p.add_argument("--git-dir", help=argparse.SUPPRESS)
    p.add_argument("--session", help=argparse.SUPPRESS)

    # reading
    p = verb("inspect", "every tier at a glance, or one tier, the contested pairs, the evidence for one atom",
             aliases=("show",),
             description="With no flag: every tier at a glance (L3, L2 adopted and pinned, staged for "
             "review, L1 candidates with their sessions and days, contested pairs). `git memory show` "
             "is the same.")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--tier", choices=["L1", "L2", "L3"], help="list the atoms of one tier")
    group.add_argument("--contested", action="store_true", help="list the open contradictions")
    group.add_argument("--why", metavar="ID-OR-TEXT", type=_given_text, help="one atom: its tier and the transcript lines behind it")
    _out(p)
    p = verb("log", "an atom's whole life: captures, staging, adoption or rejection, demotion, forget")
    p.add_argument("id", metavar="ID", type=_given_text, help=_ID)
    _out(p)
    p = verb("recall", "what the per-prompt recall would inject for a prompt")
    p.add_argument("prompt_pos", nargs="*", metavar="PROMPT", type=_typed, help="the prompt (quote it, or give its words)")
    p.add_argument("--prompt", metavar="TEXT", type=_typed, help="the same, as a flag")
    _out(p)
    p = verb("context", "what session start would inject (L3 + L2)")
    _out(p)

    # promotion and review
    p = verb("promote", "dry run of the promotion gates: what is eligible, and why the rest is not")
    _global(p, "L2 → L3 across the registered projects")
    _out(p)
    p = verb("stage", "rebuild memory/review: one commit per promotion")
    _global(p, "stage L3 promotions in the global memory repo")
    p.add_argument("--force", action="store_true", help="overwrite a review branch edited by hand")
    _out(p)
    p = verb("pr", "push memory/review and open a pull request (or print how)",
             description="Push memory/review to the remote and open a pull request with gh or glab when "
             "installed; otherwise print the compare URL (GitHub, GitLab, Bitbucket) and the PR body. "
             "Merging the pull request adopts every item.")
    p.add_argument("--remote", default=None, metavar="NAME", help="the remote to push to (default: git config memory.remote, else origin)")
    p.add_argument("--print", dest="print_only", action="store_true", help="only print the commands, the compare URL and the PR body; push nothing")
    _global(p, "the global memory repo's review branch")
    _out(p)
    p = verb("adopt", "merge staged promotions item by item (interactive on a terminal)")
    _global(p, "review the global memory repo's staged L3 items")
    p.add_argument("--all", action="store_true", help="adopt every staged item")
    p.add_argument("--yes", nargs="+", metavar="ID", default=[], type=_given_text, help="adopt these items (atom ids, unique prefixes or words of their claims)")
    p.add_argument("--reject", nargs="+", metavar="ID", default=[], type=_given_text, help="reject these items: not restaged until new sessions say it again")
    p.add_argument("--pin", nargs="+", metavar="ID", default=[], type=_given_text, help="adopt these items pinned (exempt from decay)")
    _out(p)
    p = verb("resolve", "settle a contradiction: keep one atom")
    p.add_argument("id", metavar="ID", type=_given_text, help="one atom of the contested pair")
    p.add_argument("--keep", required=True, metavar="ID", type=_given_text, help="the atom to keep (the other is demoted)")
    p.add_argument("--forget-other", action="store_true", help="forget the other atom instead of demoting it")
    _out(p)
    p = verb("forget", "remove an atom (tombstoned, so it is not silently re-learned)")
    p.add_argument("id", metavar="ID", type=_given_text, help=_ID)
    p.add_argument("--undo", action="store_true", help="restore a forgotten atom as it was (adopted atoms go back into the block)")
    _out(p)
    p = verb("verify", "raise an atom to verified when a command exits 0")
    p.add_argument("id", metavar="ID", type=_given_text, help=_ID)
    p.add_argument("--by", required=True, metavar="CMD", help="the shell command to run; exit 0 verifies the claim")
    _out(p)
    p = verb("remember", "a hand-authored atom, staged for review like any other")
    p.add_argument("claim", metavar="CLAIM", help="the claim, in your words")
    _global(p, "a global (L3) item, staged in the global memory repo")
    p.add_argument("--kind", default="preference", choices=list(KINDS), metavar="KIND",
                   help=f"one of {', '.join(KINDS)} (default: preference)")
    _out(p)

    # safety
    p = verb("redact", "stdin → redacted text on stdout")
    p.add_argument("--each-line", action="store_true", help="redact every input line on its own (json: one object per line)")
    _out(p)
    p = verb("scan", "the commit guard: refuse memory content with secrets, PII or path prefixes")
    p.add_argument("--staged", action="store_true", help="scan the staged memory files (what the pre-commit hook runs)")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files to scan (default: the memory files of the work tree)")
    p.add_argument("--auto-memory", nargs="?", const="", metavar="DIR",
                   help="scan Claude Code's own auto-memory folder instead (default: this project's)")
    _out(p)
    p = verb("validate", "schema, ids, store invariants, rendered blocks, working sets")
    p.add_argument("--atoms", metavar="FILE", type=_given, help="validate the atoms in FILE (JSON lines or a JSON array) instead of the store")
    p.add_argument("--auto-memory", nargs="?", const="", default=None, metavar="DIR",
                   help="check Claude Code's auto-memory directory (default: this project's)")
    p.add_argument("--fix", action="store_true", help="re-render the memory blocks from adopted.log")
    _out(p)

    # lifecycle
    p = verb("stale", "atoms naming repository paths that no longer exist (exit 1 when any)")
    _out(p)
    p = verb("pin", "mark an adopted atom decay-exempt", module="lifecycle_verbs")
    p.add_argument("id", metavar="ID", type=_given_text, help=_ID)
    _out(p)
    p = verb("unpin", "remove the pin", module="lifecycle_verbs")
    p.add_argument("id", metavar="ID", type=_given_text, help=_ID)
    _out(p)
    p = verb("decay", "take an atom out of the working set (still reachable)", module="lifecycle_verbs")
    p.add_argument("id", metavar="ID", type=_given_text, help=_ID)
    _out(p)
    p = verb("supersede", "mark OLD obsolete with a breadcrumb to NEW", module="lifecycle_verbs")
    p.add_argument("old", metavar="OLD", type=_given_text, help="the atom that no longer holds")
    p.add_argument("--by", required=True, metavar="NEW", type=_given_text, help="the atom that replaces it")
    _out(p)
    p = verb("consolidate", "propose clusters of near-duplicate atoms (proposals only)")
    p.add_argument("--auto-memory", nargs="?", const="", default=None, metavar="DIR",
                   help="look at Claude Code's auto-memory directory instead (default: this project's)")
    _out(p)
    p = verb("help", "this manual, or one verb's part of it (what `git memory --help` shows through man)")
    p.add_argument("topic", nargs="?", metavar="VERB", help="the verb to explain")
    return parser


def verb_parsers(parser: argparse.ArgumentParser, hidden: bool = False) -> dict[str, argparse.ArgumentParser]:
    """{verb: its subparser} in the order of GROUPS, aliases left out, and the hidden verbs
    (last) only when asked for."""
    import argparse

    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    choices: dict[str, argparse.ArgumentParser] = dict(action.choices)
    order = [v for _, verbs in GROUPS for v in verbs] + (list(HIDDEN) if hidden else [])
    return {v: choices[v] for v in order if v in choices}


def suggest(word: str, candidates: Sequence[str]) -> list[str]:
    import difflib

    found = difflib.get_close_matches(word, list(candidates), n=3, cutoff=0.6)
    found += [c for c in candidates if c.startswith(word) and c not in found and len(word) >= 2]
    return found[:3]


def _usage_error(text: str, suggestions: Sequence[str], hint: str, who: str = PROG, as_json: bool = False) -> int:
    """Every usage error, said one way: `<who>: <what is wrong>`, a "did you mean" when there
    is one, and a `hint:` line; exit 2."""
    from agent_memory.cli import colour
    from agent_memory.model.home import tilde_text

    print(f"{who}: {colour.paint(tilde_text(text), 'error', sys.stderr)}", file=sys.stderr)
    if suggestions:
        print(f"did you mean {' or '.join(repr(s) for s in suggestions)}?", file=sys.stderr)
    print(f"{colour.paint('hint:', 'hint', sys.stderr)} {tilde_text(hint)}", file=sys.stderr)
    if as_json:
        _error_json(f"{who}: {text}", hint, 2)
    return 2


def _json_asked(args_list: Sequence[str]) -> bool:
    """Whether a command line that did not parse asked for `--output json` (one that parsed
    says so in its namespace)."""
    words = list(args_list[: args_list.index("--")] if "--" in args_list else args_list)
    return "--output=json" in words or any(words[i:i + 2] == ["--output", "json"] for i in range(len(words)))


def _error_json(line: str, hint: str | None, code: int) -> None:
    """docs/cli.md: a verb given `--output json` prints exactly one JSON object on stdout, so
    a script that parses stdout gets one when the verb fails too (next to the lines on
    stderr): the error line, its hint and the exit code."""
    from agent_memory.cli.report import emit_error

    emit_error(line, hint, code)


def _verb_named(args_list: Sequence[str]) -> str | None:
    """The verb a command line names (an alias as its verb), or None: no verb, or a word that
    is not one (the whole parser then suggests or lists)."""
    word = next((a for a in args_list if not a.startswith("-")), None)
    known = {v for _, verbs in GROUPS for v in verbs} | set(HIDDEN)
    if word in ALIASES:
        return ALIASES[word]
    return word if word in known else None


def _unknown_verb(parser: argparse.ArgumentParser, args_list: Sequence[str]) -> int | None:
    """`git memory adpot` → "did you mean 'adopt'?" (exit 2) instead of argparse's list."""
    verb = next((a for a in args_list if not a.startswith("-")), None)
    if verb is None:
        return None
    known = [*verb_parsers(parser), *ALIASES, *HIDDEN]
    if verb in known:
        return None
    if verb in DONE_BY:  # not a near spelling of a verb ('reject' → 'redact'), but the command
        rest = args_list[args_list.index(verb) + 1:]
        suggestions = [" ".join([DONE_BY[verb], *rest])]
    else:
        suggestions = suggest(verb, list(verb_parsers(parser)))
    return _usage_error(f"{verb!r} is not a git memory verb", suggestions,
                        "`git memory help` lists the verbs", as_json=_json_asked(args_list))


def _unknown_flags(parser: argparse.ArgumentParser, args: argparse.Namespace, extras: Sequence[str]) -> int:
    chosen = verb_parsers(parser).get(getattr(args, "verb_name", "") or "", parser)
    flags = [s for a in chosen._actions for s in a.option_strings if s.startswith("--") and a.help != "==SUPPRESS=="]
    bad = extras[0]
    suggestions = suggest(bad.split("=", 1)[0], flags) if bad.startswith("-") else []
    if getattr(args, "verb_name", None) == "adopt" and not bad.startswith("-"):
        # `git memory adopt ID`: the ids are named by what is done with them
        suggestions = [f"--yes {' '.join(e for e in extras if not e.startswith('-'))}"]
    typed = getattr(args, "verb", None) or getattr(args, "verb_name", None)  # an alias as typed (`show`)
    name = f"git memory {typed}" if typed else "git memory"
    return _usage_error(f"unrecognized argument{'s' if len(extras) > 1 else ''}: {' '.join(extras)}",
                        suggestions, f"`{name} -h` lists what it takes", who=name,
                        as_json=getattr(args, "output", None) == "json")


def usage_line(parser: argparse.ArgumentParser) -> str:
    """A parser's usage on one line, without the options every verb takes (-h, --no-color)."""
    import argparse

    formatter = argparse.HelpFormatter(prog=parser.prog, width=10_000)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, prefix="")
    usage = " ".join(formatter.format_help().split())
    return usage.replace(" [-h]", "").replace(" [--no-color]", "")


def _bad_arguments(exc: _BadArguments, as_json: bool, args_list: Sequence[str] = ()) -> int:
    """What argparse finds wrong (a missing value or argument, an invalid choice, flags that
    exclude each other), said as every other usage error is: argparse's own way is a usage
    block and `error: …` with no hint. An alias is named as typed (`git memory show: …`)."""
    who, usage = exc.parser.prog, usage_line(exc.parser)
    word = next((a for a in args_list if not a.startswith("-")), None)
    if word in ALIASES and who == f"{PROG} {ALIASES[word]}":
        who, usage = f"{PROG} {word}", f"{PROG} {word}" + usage.removeprefix(who)
    return _usage_error(exc.message, (), f"usage: {usage} (`{who} -h` explains each)", who=who, as_json=as_json)


def _bad_hook_arguments(args_list: Sequence[str], message: str) -> int:
    """One errors.log line, where the hook's own failures go (`git memory status` shows it);
    nothing on stdout or stderr, exit 0."""
    from agent_memory.gitio.state import log_error

    log_error(f"hook: bad arguments {' '.join(args_list[1:])!r}: {message}", os.environ.get("CLAUDE_PROJECT_DIR"))
    return 0


def _print_failure(verb: str, exc: BaseException, as_json: bool = False) -> None:
    from agent_memory.cli import colour
    from agent_memory.model.home import tilde_text

    # A message may quote a claim: its control characters are shown, not acted on. A path
    # under the home directory reads `~/…` here; the JSON error below keeps it whole.
    message = colour.shown(str(getattr(exc, "message", str(exc))))
    print(f"git memory {verb}: {colour.paint(tilde_text(message), 'refused', sys.stderr)}", file=sys.stderr)
    hint = getattr(exc, "hint", None)
    if hint:
        print(f"{colour.paint('hint:', 'hint', sys.stderr)} {tilde_text(colour.shown(str(hint)))}", file=sys.stderr)
    if as_json:
        _error_json(f"git memory {verb}: {message}", hint, getattr(exc, "exit_code", 3))


_INTERRUPTS = [0]


def _on_interrupt(signum: int, frame: object) -> None:
    """SIGINT while a verb runs. The first raises KeyboardInterrupt, so the verb unwinds and
    puts back what it half did. The second is absorbed: `git` forwards the terminal's Ctrl-C to
    git-memory as well, and cleanup must not be cut short by it. A third ends the process at
    once with the interrupted exit code, quietly."""
    _INTERRUPTS[0] += 1
    if _INTERRUPTS[0] == 1:
        raise KeyboardInterrupt
    if _INTERRUPTS[0] >= 3:
        os._exit(130)


def _ignore_interrupts() -> None:
    # SIG_IGN, not a Python handler: the interpreter resets its own handlers to the default
    # at exit, and a Ctrl-C then would end the process by the signal instead of exit 130.
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except (ValueError, OSError):
        pass


def _arm_interrupts() -> bool:
    import signal

    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            _INTERRUPTS[0] = 0
            signal.signal(signal.SIGINT, _on_interrupt)
            return True
    except (ValueError, OSError):
        pass
    return False


def _disarm_interrupts() -> None:
    """Back to Python's default (main() also runs in-process, e.g. in tests)."""
    import signal

    try:
        if signal.getsignal(signal.SIGINT) is _on_interrupt:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except (ValueError, OSError):
        pass


# The `git memory hook` events that run as detached jobs (claude/jobs.py spawns them).
_JOBS = ("background-capture", "rebuild-index")


def main(argv: Sequence[str] | None = None) -> int:
    from agent_memory.claude.error_lines import redact_error_lines

    redact_error_lines()  # before anything can be logged (claude/error_lines.py)
    args_list = list(sys.argv[1:] if argv is None else argv)
    early = _before_parsing(argv, args_list)
    if early is not None:
        return early
    parsed = _parse(args_list)
    if isinstance(parsed, int):
        return parsed
    args = parsed
    verb = str(args.verb_name)
    # what is printed names the verb as typed (`git memory show: …`); an alias runs as its verb
    said = str(getattr(args, "verb", None) or verb)
    args.verb = verb
    from agent_memory.gitio.refs import drop_foreign_git_env, locate

    # Every verb acts on the repository it runs in (`git -C DIR memory …`): GIT_DIR,
    # GIT_INDEX_FILE, … inherited from a hook of another repository must not redirect the git
    # processes it starts (a cloned tree's config never runs our git); what git set for a hook of this repository stays.
    drop_foreign_git_env(locate())
    return _run_verb(args, said)


def _before_parsing(argv: Sequence[str] | None, args_list: list[str]) -> int | None:
    """The paths that end before argparse (the hook fast path, `capture --all` with nothing
    new), and what a process of its own sets up first; None: go on to parse."""
    if argv is None and args_list[:1] == ["hook"] and args_list[1:2] and args_list[1] in _JOBS:
        # A detached job (its own process): the operating system bounds its CPU time.
        from agent_memory.claude.jobs import limit_cpu

        limit_cpu()
    if (len(args_list) == 2 and args_list[0] == "hook" and args_list[1] != "background-capture"
            and not args_list[1].startswith("-")):
        # The Claude Code hook fast path: no argparse tree, no pygit2 (100 ms a prompt). A flag
        # (`hook -h`) is left to argparse: the help, or a bad argument logged like the others.
        from agent_memory.claude.hooks import run_and_exit, run_event

        if argv is None:  # a process of its own (`python -m agent_memory hook …`)
            run_and_exit(args_list[1])
        return run_event(args_list[1])
    if argv is None:
        # A claim printed to a terminal whose locale is not UTF-8 must not end the verb.
        from agent_memory.cli.streams import guard_streams

        guard_streams()
        # `git memory --help` is man's, and an editable install gives man no page (cli/manlink.py)
        from agent_memory.cli.manlink import link_manual

        link_manual(sys.argv[0])
    if args_list[:1] == ["capture"] and "--all" in args_list:
        return _quick_capture_all(args_list)
    return None


def _quick_capture_all(args_list: list[str]) -> int | None:
    """`capture --all` with nothing new: a stat per transcript, no argparse (cli/capture.py)."""
    from agent_memory.cli.capture import quick_all

    try:
        return quick_all(args_list[1:])
    except KeyboardInterrupt:
        print("\ngit memory capture: interrupted", file=sys.stderr)
        return 130
    except Exception:  # noqa: BLE001 - the full path below does it again and reports
        return None


def _parse(args_list: list[str]) -> argparse.Namespace | int:
    """The verb's arguments, or the exit code of arguments that name none or are wrong."""
    from agent_memory.model.errors import EXIT_USAGE

    parser = build_parser(_verb_named(args_list))
    if "--no-color" in args_list[: args_list.index("--") if "--" in args_list else None]:
        from agent_memory.cli import colour

        colour.disable()
    unknown = _unknown_verb(parser, args_list)
    if unknown is not None:
        return unknown
    # Claude Code shows a failing hook to the user: whatever is wrong with the arguments of
    # `git memory hook`, it exits 0 and says why in errors.log (docs/cli.md: "always exits 0").
    hook = _verb_named(args_list) == "hook"
    try:
        args, extras = parser.parse_known_args(args_list)
    except _BadArguments as exc:
        if hook:
            return _bad_hook_arguments(args_list, exc.message)
        return _bad_arguments(exc, _json_asked(args_list), args_list)
    if extras:
        if hook:
            return _bad_hook_arguments(args_list, f"unrecognized arguments: {' '.join(extras)}")
        return _unknown_flags(parser, args, extras)
    if not getattr(args, "verb", None):
        parser.print_help()
        return EXIT_USAGE
    return args


def _run_verb(args: argparse.Namespace, said: str) -> int:
    """Run the verb's module, print its Report, and turn every way it can end into one exit
    code and one line (an interrupt, a closed pipe, a bug)."""
    import importlib

    from agent_memory.model.errors import EXIT_INTERRUPTED, FatalError

    armed = _arm_interrupts()
    # A failure after the verb's own JSON object is out (a Report's `failure`) adds none:
    # stdout carries exactly one.
    error_json = getattr(args, "output", "text") == "json"
    try:
        module = importlib.import_module(f"agent_memory.cli.{args.module}")
        result = module.run(args)
        if isinstance(result, int):
            code: int = result
        else:  # a Report: printed here, the one place that chooses text or JSON
            from agent_memory.cli.report import emit

            error_json = False
            code = emit(result, getattr(args, "output", "text"))
        if armed:
            _disarm_interrupts()
        return code
    except FatalError as exc:
        if armed:
            _disarm_interrupts()
        _print_failure(said, exc, as_json=error_json)
        return exc.exit_code
    except KeyboardInterrupt:
        # Another Ctrl-C while this is reported changes nothing: exit 130, no traceback.
        _ignore_interrupts()
        try:
            print(f"\ngit memory {said}: interrupted", file=sys.stderr)
            if error_json:  # stdout still carries its one JSON object
                _error_json(f"git memory {said}: interrupted", None, EXIT_INTERRUPTED)
        except (KeyboardInterrupt, OSError):
            pass
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence: log, one line, exit 3
        return _unexpected_failure(said, exc, error_json)


def _unexpected_failure(said: str, exc: Exception, error_json: bool) -> int:
    """An exception no verb raised on purpose: a full disk or a refused write said as what
    they are, anything else logged with its traceback as an internal error (exit 3)."""
    from agent_memory.gitio.state import log_exception
    from agent_memory.model.errors import (
        EXIT_REPO_STATE,
        PERMISSION_HINT,
        DiskFullError,
        RepoStateError,
        disk_full,
        no_permission,
    )

    if disk_full(exc):  # not a bug to report: say what the disk said
        _print_failure(said, DiskFullError(f"no space left on device ({exc}); nothing more was written"),
                       as_json=error_json)
        return EXIT_REPO_STATE
    if no_permission(exc):  # nor is a repository this user may not write (read-only, another's)
        where = getattr(exc, "filename", None)
        _print_failure(said, RepoStateError(
            f"the file system refused: {exc.strerror or exc if isinstance(exc, OSError) else exc}"
            + (f" ({where})" if where else "") + "; nothing more was written",
            hint=f"check that you may write to {where} (ls -ld {where}), then run the command again"
            if where else PERMISSION_HINT), as_json=error_json)
        return EXIT_REPO_STATE

    logged = log_exception(f"git memory {said}", exc)
    from agent_memory.cli import colour
    from agent_memory.model.home import tilde_text

    print(f"git memory {said}: internal error: {tilde_text(colour.shown(str(exc)))}", file=sys.stderr)
    print(f"hint: the traceback is in {tilde_text(str(logged))}; please report it", file=sys.stderr)
    if error_json:
        _error_json(f"git memory {said}: internal error: {exc}", f"the traceback is in {logged}; please report it",
                    EXIT_REPO_STATE)
    return EXIT_REPO_STATE


if __name__ == "__main__":
    raise SystemExit(main())
