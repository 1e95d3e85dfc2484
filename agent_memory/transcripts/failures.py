"""Observed failures: tool errors whose machine-independent signature recurs, and the program
a shell command runs (`uv run pytest`), shared with rejection reasons (tool families).

A failure atom's claim is built only from what the tool *did* — the program and subcommand the
assistant ran, the exit status the harness recorded, and a normalised error class from a fixed
vocabulary (`error_class`) — never from the output's free text: a failing command's output is
chosen by whoever controls the files, the network or the command, and a claim
reaches CLAUDE.memory.md. The raw output stays in the atom's local evidence quote only."""

from __future__ import annotations

import re

from agent_memory.transcripts.reader import ToolError

_PROGRAM = re.compile(r"^[A-Za-z0-9][\w.+-]{0,40}$")


def command_program(command: str | None) -> str:
    """The program a shell command runs, with a runner's subcommand (`uv run pytest`)."""
    if not command:
        return ""
    # a lone `&` between blanks sends a command to the background: it ends that command (`npm
    # start &`); one inside a word (`PGPASSWORD='a&b' psql`, `2>&1`, `&>`) does not
    for segment in re.split(r"&&|\|\||;|\||\n|(?<=\s)&(?=\s|$)", command):
        tokens = [t for t in segment.strip().strip("()").split() if t]
        while tokens and (
            re.match(r"^\w+=", tokens[0])
            or re.match(r"^\d*[<>]", tokens[0])  # a redirection, not a program
            or tokens[0] in ("sudo", "env", "time", "exec", "nohup")
        ):
            tokens.pop(0)
        if not tokens or tokens[0] in (
            "cd",
            "export",
            "source",
            ".",
            "set",
            "echo",
            "pushd",
            "popd",
            "which",
        ):
            continue
        head = tokens[0].rsplit("/", 1)[-1]
        if not _PROGRAM.match(head):
            continue  # `$VAR`, `$(…)`, a quoted string: not a program we can name
        words = [head]
        if head in {
            "uv",
            "npx",
            "pnpm",
            "npm",
            "yarn",
            "bun",
            "poetry",
            "pipenv",
            "cargo",
            "go",
            "make",
            "docker",
            "dotnet",
            "bundle",
            "git",
            "python",
            "python3",
            "node",
            "deno",
            "gradle",
            "mvn",
            "kubectl",
            "pdm",
            "rye",
            "hatch",
            "just",
            "bunx",
            "pnpx",
            "yarnpkg",
        }:
            for tok in tokens[1:4]:
                if tok == "-m" and head.startswith("python"):
                    words.append(tok)
                    continue
                if (
                    tok.startswith("-")
                    or "/" in tok
                    or "." in tok.strip(".")
                    or "=" in tok
                    or "$" in tok
                    or '"' in tok
                    or "'" in tok
                ):
                    break
                words.append(tok)
                if len(words) >= 3:
                    break
        return " ".join(words)
    return ""


# --- failures from tool errors ----------------------------------------------------------------

_ERRORISH = re.compile(
    r"(?i)\b(?:error|exception|fatal|failed|failure|not found|no such file|permission denied|cannot|"
    r"can't|could not|couldn't|unable to|refused|timed out|segmentation fault|panic|denied|"
    r"not recognized|unknown command|command not found|no module named|missing|ERR!|"
    r"E(?:ACCES|NOENT|CONNREFUSED|ADDRINUSE|PERM|TIMEDOUT|NOTFOUND|CONNRESET|RESOLVE))\b"
)
_NOISE_LINE = re.compile(
    r"(?i)^(?:warn(?:ing)?\b|time=|level=|[=\-_*#~]{3,}|platform |rootdir:|configfile:|plugins:|"
    r"collecting|collected|cachedir:|exit code \d+|\s*$|\$ |\+ )"
)
_TEST_NOISE = re.compile(
    r"(?i)\b\d+ (?:passed|failed|errors?|skipped|warnings?)\b|^FAILED\b|^ERROR\s+\S+::|"
    r"::\S+ FAILED|^E\s{2,}|assert(?:ion)?\b"
)
_PY_EXC = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b:?.*$")


# The code under edit talking (type checker, linter, a failing assertion, a bug's exception):
# it changes with every edit and says nothing durable about the environment.
_CODE_DIAGNOSTIC = re.compile(
    r"^\S+\.\w{1,5}:\d+(?::\d+)?\b|\s-\s(?:error|warning):|^(?:error|warning)\[[\w-]+\]|^[A-Z]{1,4}\d{3,4}\b|"
    r"^(?:AssertionError|TypeError|ValueError|AttributeError|KeyError|IndexError|NameError|SyntaxError|"
    r"IndentationError|UnboundLocalError|ZeroDivisionError|RecursionError|NotImplementedError)\b|"
    r"^ImportError: cannot import name|\b(?:is not assignable|is possibly unbound|is unknown|"
    r"has no attribute|expected \d+ arguments?|Type of \")|"
    # Next.js / tsc in a build's output ("Failed to compile." then the type error)
    r"^Type error:|does not exist on type|is possibly '(?:undefined|null)'|"
    r"\(\d+,\d+\): error TS\d+|^error TS\d+",  # tsc's own form: "src/a.ts(3,5): error TS2304"
)

# Claude Code's own shell wrapper talking, not the command: the file it keeps the working
# directory in (`/tmp/claude-6da5-cwd`) and its shell snapshot. Read as the command's failure,
# "`git log` fails: permission denied" and "`node.exe` fails: not found" were learned.
_HARNESS_LINE = re.compile(r"claude-[0-9a-f]{4}-cwd\b|shell-snapshots[/\\]snapshot-|^\S*bash: line \d+: Bash environment")


# How much of the picked line is normalised (failure_signature): far more than the 160
# characters a signature keeps, so that a line's paths and numbers collapse as before.
SIGNATURE_SCAN = 1000


def failure_signature(text: str) -> str | None:
    """A short, machine-independent signature of an error output, or None when it has none
    (test-run summaries are progress, not a durable failure)."""
    lines = [ln.strip() for ln in text.splitlines()[:400]]
    pick = None
    if any(ln.startswith("Traceback (most recent call last)") for ln in lines):
        for ln in reversed(lines):
            if _PY_EXC.match(ln):
                pick = ln
                break
    if pick is None:
        for ln in lines:
            if (
                ln
                and not _NOISE_LINE.match(ln)
                and not _HARNESS_LINE.search(ln)
                and _ERRORISH.search(ln)
                and not _TEST_NOISE.search(ln)
            ):
                pick = ln
                break
    if pick is None or _CODE_DIAGNOSTIC.search(pick):
        return None
    # Normalised from its first SIGNATURE_SCAN characters only (the signature keeps 160): the
    # path pattern below restarts at every `.`, `-`, `@` or `+` of a run without a slash, so
    # its time grows with the square of the line — and the output of a command Claude runs is
    # the repository's to choose: "Error: " and 20,000 dots (a tool result's cut) cost 6 s
    # per failing command, 48 of them a session end's whole capture.
    sig = re.sub(r"\x1b\[[0-9;]*m", "", pick[:SIGNATURE_SCAN])
    sig = re.sub(
        r"(?<![\w<])(?:[A-Za-z]:)?(?:~|\.{1,2})?[/\\]?(?:[\w.@+-]+[/\\])+[\w.@+-]*", "<path>", sig
    )
    sig = re.sub(r"\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{7,40}\b", "<hex>", sig)
    sig = re.sub(r"\b\d+(?:\.\d+)*\b", "N", sig)
    sig = re.sub(r"\s+", " ", sig).strip(" :-")
    if len(re.findall(r"[A-Za-z]{2,}", sig)) < 2:
        return None
    return sig[:160]


# The error classes a claim may name, first match wins. Each pattern reads the signature line;
# the class is our fixed wording, so nothing of the output's own text reaches the claim.
_CLASSES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p, re.I), cls)
    for p, cls in [
        (
            r"command not found|not recognized as an internal or external command|"
            r"unknown command|no such command|"
            r"\bsh: (?:line )?N: [\w.+-]+: not found",  # dash: "sh: 1: tsc: not found"
            "command not found",
        ),
        (
            r"ModuleNotFoundError|No module named|Cannot find module|ERR_MODULE_NOT_FOUND|"
            r"Cannot find package|ImportError|could not import",
            "module not found",
        ),
        (
            r"EADDRINUSE|address already in use|port is already allocated|port \S+ is in use",
            "address already in use",
        ),
        (
            r"ECONNREFUSED|connection refused|could not connect|failed to connect|"
            r"connection to server .* failed|can't connect",
            "connection refused",
        ),
        (
            r"ENOTFOUND|could not resolve host|getaddrinfo|name or service not known|"
            r"temporary failure in name resolution",
            "host not found",
        ),
        (r"ETIMEDOUT|timed out|timeout", "timed out"),
        (
            r"EACCES|EPERM|permission denied|operation not permitted|access is denied",
            "permission denied",
        ),
        (r"ENOSPC|no space left on device|disk (?:is )?full", "no space left on device"),
        (r"out of memory|\bOOM\b|heap out of memory|MemoryError|Killed\b", "out of memory"),
        (r"segmentation fault|SIGSEGV|core dumped|panicked|\bpanic\b", "crash"),
        (r"certificate|\bSSL\b|\bTLS\b", "TLS certificate error"),
        (
            r"\b401\b|unauthori[sz]ed|authentication failed|invalid credentials|not logged in|"
            r"token (?:has )?expired|login required",
            "authentication failed",
        ),
        (r"\b403\b|forbidden", "forbidden"),
        (r"not a git repository", "not a git repository"),
        (r"\bCONFLICT\b|merge conflict", "merge conflict"),
        (r"index\.lock|could not get lock|lock file|is locked|resource busy", "lock held"),
        (
            r"ENOENT|no such file or directory|does not exist|not found|cannot find|can't find|"
            r"no such",
            "not found",
        ),
        (r"syntax ?error|parse error|unexpected token|invalid syntax", "syntax error"),
        (
            r"requires (?:python|node)|unsupported engine|incompatible|version mismatch|"
            r"engine \S+ is incompatible",
            "version mismatch",
        ),
        (r"failed to compile|compilation failed|build failed|could not compile", "build failed"),
        (r"\bjob\b.*\bfailed\b|\bworkflow\b.*\bfailed\b", "job failed"),
        (r"\bmissing\b|is not set|not defined|undefined", "missing setting"),
    ]
]
_EXCEPTION_NAME = re.compile(r"\b([A-Z][A-Za-z]{2,40}(?:Error|Exception))\b")

# The classes that say something about the machine or the project's setup. The rest — the
# generic "error", "build failed", "syntax error", an exception's name — is the code under edit
# failing, which every project's build and tests do while it is worked on: real projects
# staged "`npm run build` fails: error" and "`cargo test` fails: error" (10 and 13 sessions)
# into CLAUDE.memory.md, where they told the next session nothing it could act on.
_ABOUT_THE_MACHINE = frozenset(cls for _p, cls in _CLASSES) - {"build failed", "syntax error"}


def error_class(signature: str) -> str:
    """A fixed-vocabulary name for what went wrong (a bare exception class name at most)."""
    for pattern, cls in _CLASSES:
        if pattern.search(signature):
            return cls
    m = _EXCEPTION_NAME.search(signature)
    return m.group(1) if m else "error"


def failure_claim(program: str, exit_code: int | None, signature: str) -> str:
    """ "`uv run pytest` fails (exit 1): module not found" — what ran, how it ended, which class."""
    status = f" (exit {exit_code})" if exit_code is not None else ""
    return f"`{program}` fails{status}: {error_class(signature)}"


# Programs whose failure is about the arguments they were given — a path that is not there, a
# pattern with no match, a shell loop's syntax — not about the project or its tools: "`ls`
# fails (exit 1): not found" recurs in any session that looks around, and was the first
# promotion a real 1,758-session project staged into CLAUDE.memory.md. Unless the program
# itself could not be run.
_ARGUMENT_BOUND = frozenset(
    {
        "ls", "dir", "cat", "head", "tail", "less", "more", "find", "fd", "grep", "egrep", "fgrep",
        "rg", "ag", "ack", "stat", "file", "wc", "tree", "du", "readlink", "realpath", "pwd", "test",
        "[", "rm", "rmdir", "mkdir", "cp", "mv", "ln", "touch", "chmod", "chown", "diff", "cmp",
        "sed", "awk", "sort", "uniq", "cut", "tr", "xargs", "tee", "type", "command", "for", "while",
        "if", "until", "case",
    }
)


def _learned(program: str, exit_code: int | None, cls: str) -> bool:
    """Whether a failure of `program` (its exit status, its error class) says something about
    the machine or the project's setup: a program failing on its arguments does not, unless it
    could not be run at all (exit 127, command not found: a broken PATH); nor does a class of
    the code under edit (_ABOUT_THE_MACHINE)."""
    not_installed = exit_code == 127 or cls == "command not found"
    return (not_installed or program.split(" ", 1)[0] not in _ARGUMENT_BOUND) and cls in _ABOUT_THE_MACHINE


_FAILURE_CLAIM = re.compile(r"^`([^`\n]+)` fails(?: \(exit (\d+)\))?: (.+)$")


def still_learned(claim: str) -> bool:
    """Whether an observed failure's claim (as `failure_claim` writes it) is one this version
    still learns (`_learned`, as `recurring_failures` asks). A store keeps what an earlier
    version learned for up to 90 days, "`ls` fails (exit 1): not found" and "`npm run build`
    fails: error" among them: the promotion gate asks this, so they are never staged into
    CLAUDE.memory.md. A claim of another shape: True."""
    m = _FAILURE_CLAIM.match(claim)
    if m is None:
        return True
    program, code, cls = m.groups()
    return _learned(program, int(code) if code else None, cls)


def recurring_failures(errors: list[ToolError]) -> list[tuple[str, list[ToolError]]]:
    """(claim, the errors behind it) per (program, signature, exit status) seen on ≥ 2 lines:
    one error is noise; a recurring signature is a fact about the environment."""
    groups: dict[tuple[str, str, int], list[ToolError]] = {}
    for err in errors:
        sig = failure_signature(err.text)
        if sig:
            code = err.exit_code if err.exit_code is not None else -1
            groups.setdefault((command_program(err.command), sig, code), []).append(err)
    out = []
    for (program, sig, code), items in sorted(groups.items()):
        status = None if code < 0 else code
        # Without a program we could name, the claim would say nothing a reader could act on.
        if program and len({e.line for e in items}) >= 2 and _learned(program, status, error_class(sig)):
            out.append((failure_claim(program, status, sig), items))
    return out
