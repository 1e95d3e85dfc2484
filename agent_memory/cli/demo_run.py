"""`git memory demo`: the whole loop in a scratch repository on bundled sample sessions —
capture → promote → stage → adopt → the rendered block, the L1 history and the provenance of
one line. Everything happens inside the scratch directory: Claude Code's config dir and the
global memory repo are pointed there, so nothing of the user's is read or changed."""

from __future__ import annotations

import datetime as _dt
import json
import os
import shlex
import subprocess
import sys
import tempfile
import uuid
from importlib import resources
from pathlib import Path
from typing import Any

from agent_memory.model.errors import RefusedError
from agent_memory.model.home import tilde, tilde_text
from agent_memory.model.paths import slug_for

LEGEND = """
# Terms, once:
#   atom      one claim ("Never push directly to main") with where it was seen: sessions, transcript lines
#   L1        candidate atoms on the local branch memory/atoms (never pushed); recalled per prompt
#   L2        the project's adopted memory: CLAUDE.memory.md + .memory/adopted.log, committed
#   L3        your global memory, shared by your projects (a git repo of its own)
#   stated    you said it yourself (2 sessions on 2 days promote it; observed needs 3 sessions)
#   sessions  distinct Claude Code sessions the claim was seen in (3s/2d: 3 sessions over 2 days)
#   held      adopted at L2: not staged again, kept past the L1 expiry"""

# Built at run time so no realistic-looking token sits in a tracked file (it is there to show
# redaction at work: the atom is captured redacted and never promoted).
DEMO_TOKEN = "ghp_" + "Dm0" * 12


def load_sessions() -> list[dict[str, Any]]:
    text = resources.files("agent_memory").joinpath("resources/demo/sessions.json").read_text("utf-8")
    sessions: list[dict[str, Any]] = json.loads(text)["sessions"]
    return sessions


def transcript_records(session: dict[str, Any], cwd: Path, day: _dt.date | _dt.datetime) -> list[dict[str, Any]]:
    """Claude Code 2.x records for one session: typed prompts, assistant replies, and a tool
    call the user rejected with a reason. A date starts the session at 09:00 UTC."""
    records: list[dict[str, Any]] = []
    if isinstance(day, _dt.datetime):
        clock = day.astimezone(_dt.UTC)
    else:
        clock = _dt.datetime.combine(day, _dt.time(9, 0), tzinfo=_dt.UTC)
    parent = None
    base = {"isSidechain": False, "userType": "external", "cwd": str(cwd), "sessionId": session["id"],
            "version": "2.1.42", "gitBranch": "main"}

    def add(record: dict[str, Any]) -> None:
        nonlocal parent, clock
        clock += _dt.timedelta(minutes=3)
        record.update(base, uuid=str(uuid.uuid4()), parentUuid=parent,
                      timestamp=clock.strftime("%Y-%m-%dT%H:%M:%S.000Z"))
        parent = record["uuid"]
        records.append(record)

    for turn in session["turns"]:
        if "user" in turn:
            add({"type": "user", "message": {"role": "user", "content": turn["user"].format(demo_token=DEMO_TOKEN)}})
            add({"type": "assistant", "message": {"role": "assistant", "type": "message", "model": "claude-sonnet-4-5",
                                                  "content": [{"type": "text", "text": "Done — I made that change."}]}})
        else:
            tool_id = "toolu_" + uuid.uuid4().hex[:20]
            add({"type": "assistant", "message": {"role": "assistant", "type": "message", "model": "claude-sonnet-4-5",
                                                  "content": [{"type": "tool_use", "id": tool_id, "name": "Bash",
                                                               "input": {"command": turn["tool"]}}]}})
            reason = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n" + turn["reject"]
            # The fields the client sets on a refusal (docs/claude-client-records.md): the reader
            # trusts a reason only in this shape, answering the assistant record's call.
            add({"type": "user", "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": tool_id, "is_error": True, "content": reason}]},
                 "toolUseResult": f"Error: {reason}", "sourceToolAssistantUUID": parent})
    return records


class Demo:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.repo = root / "invoice-service"
        self.claude = root / "claude-config"
        self.env = dict(os.environ)
        self.env.update({
            "CLAUDE_CONFIG_DIR": str(self.claude),
            "AGENT_MEMORY_HOME": str(root / "global-memory"),
            "GIT_CONFIG_GLOBAL": str(root / "gitconfig"),
            "GIT_TERMINAL_PROMPT": "0",
        })
        # CLAUDE_CODE_PROJECT_DIR_NAME would move the demo's project folder now that
        # CLAUDE_CONFIG_DIR is set: the demo's transcripts are written under the path's slug.
        for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "AGENT_MEMORY_NOW", "CLAUDE_CODE_PROJECT_DIR_NAME"):
            self.env.pop(var, None)
        bin_dir = str(Path(sys.executable).parent)
        self.env["PATH"] = bin_dir + os.pathsep + self.env.get("PATH", "")

    def exports(self) -> str:
        """The environment that points git memory at the demo's config and global repo."""
        return " ".join(f"{k}={shlex.quote(self.env[k])}" for k in ("CLAUDE_CONFIG_DIR", "AGENT_MEMORY_HOME", "GIT_CONFIG_GLOBAL"))

    def look_around(self) -> str:
        """The commands that enter the demo repository (`cd ~/…` under the home directory: a
        path that needs quoting keeps its full form, `~` does not expand in quotes)."""
        return tilde_text(f"cd {shlex.quote(str(self.repo))} && export {self.exports()}")

    def sh(self, *command: str, show: bool = True, cwd: Path | None = None, check: bool = True) -> str:
        display = " ".join(shlex.quote(c) for c in command)
        if show:
            print(f"\n$ {display}", flush=True)
        proc = subprocess.run(list(command), cwd=str(cwd or self.repo), env=self.env, capture_output=True, text=True)
        output = (proc.stdout + proc.stderr).rstrip()
        if show and output:
            print(output, flush=True)
        if check and proc.returncode != 0:
            last = output.splitlines()[-1] if output else None
            # the step's own hint line is the hint, said once ("hint: hint: …" otherwise)
            hint = last.removeprefix("hint: ") if last else None
            raise RefusedError(f"demo step failed: {display} (exit {proc.returncode})", hint=hint)
        return proc.stdout

    def setup(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "gitconfig").write_text("[user]\n\tname = Demo User\n\temail = demo@example.invalid\n"
                                             "[init]\n\tdefaultBranch = main\n", "utf-8")
        self.repo.mkdir()
        self.sh("git", "init", "-q", "-b", "main", show=False)
        (self.repo / "README.md").write_text("# invoice-service\n\nA demo project for agent-memory.\n", "utf-8")
        self.sh("git", "add", "README.md", show=False)
        self.sh("git", "commit", "-q", "-m", "Initial commit", show=False)

    def write_transcripts(self) -> Path:
        folder = self.claude / "projects" / slug_for(self.repo.resolve())
        folder.mkdir(parents=True, exist_ok=True)
        # Sessions end well before now, so no evidence is ever dated in the future.
        now = _dt.datetime.now(_dt.UTC).replace(microsecond=0)
        for session in load_sessions():
            start = now - _dt.timedelta(days=int(session["days_ago"]), hours=2)
            lines = [json.dumps(r) for r in transcript_records(session, self.repo.resolve(), start)]
            (folder / f"{session['id']}.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
        return folder

    def run(self) -> None:
        gm = ("git", "memory")
        print(f"agent-memory demo in {tilde(self.root)}")
        print("(a scratch repository; Claude Code's config dir and the global memory repo point inside it)")
        print(LEGEND)
        self.setup()
        self.sh(*gm, "init", "--yes")
        folder = self.write_transcripts()
        print(f"\n# {len(list(folder.glob('*.jsonl')))} sample Claude Code sessions over 4 days in {tilde(folder)}")
        self.sh(*gm, "capture", "--all", "--no-stage")
        self.sh(*gm, "show")
        self.sh(*gm, "promote")
        self.sh(*gm, "stage")
        self.sh("git", "log", "--oneline", "main..memory/review")
        self.sh(*gm, "adopt", "--all")
        self.sh("cat", "CLAUDE.memory.md")
        self.sh("git", "log", "--oneline", "memory/atoms")
        blame = self.sh("git", "blame", "--porcelain", "-L", "/^- /,+1", "CLAUDE.memory.md", show=False)
        commit = blame.split()[0]
        print("\n# provenance of the first line of the block: git blame → commit → Atom-Id → git memory log")
        self.sh("git", "blame", "-s", "-L", "/^- /,+1", "CLAUDE.memory.md")
        message = self.sh("git", "log", "-1", "--format=%B", commit, show=False)
        atom = next((ln.split(":", 1)[1].strip() for ln in message.splitlines() if ln.startswith("Atom-Id:")), None)
        self.sh("git", "log", "-1", "--format=%h %s%n%(trailers)", commit)
        if atom:
            self.sh(*gm, "log", atom)
            self.sh(*gm, "inspect", "--why", atom)
        self.sh(*gm, "context")
        print("\n# per-prompt recall draws on L1 — here, a fact seen once and not promoted:")
        self.sh(*gm, "recall", "--prompt", "add an endpoint to the API handlers for invoice refunds")
        self.sh(*gm, "show")


NEXT = ("next, in a repository of yours: `git memory init --yes` (hooks, CLAUDE.md import), then\n"
        "  `git memory capture --all` (its Claude Code sessions so far) and `git memory show`")


def _keep_copy(tmp: str) -> Path:
    """A copy of the scratch directory `tmp` that outlives it."""
    kept = Path(tempfile.mkdtemp(prefix="agent-memory-demo-kept-"))
    subprocess.run(["cp", "-a", f"{tmp}/.", str(kept)], check=True)
    return kept


def run_demo(directory: str | None, keep: bool) -> int:
    if directory:
        root = Path(directory).expanduser().resolve()
        if root.exists() and any(root.iterdir()):
            raise RefusedError(f"{root} is not empty", hint="pass a new or empty directory to --dir")
        demo = Demo(root)
        demo.run()
        print(f"\ndone: the scratch repository is {tilde(demo.repo)}")
        print(f"  to look around: {demo.look_around()}")
        print(NEXT)
        return 0
    with tempfile.TemporaryDirectory(prefix="agent-memory-demo-") as tmp:
        try:
            Demo(Path(tmp)).run()
        except RefusedError as failed:
            # A failed step's hint may name a file in the scratch directory (its errors.log):
            # keep a copy, and name the copy, or the traceback is gone with the directory.
            kept = _keep_copy(tmp)
            where = f"the scratch directory is kept in {tilde(kept)}"
            hint = f"{failed.hint.replace(tmp, str(kept))}; {where}" if failed.hint else where
            raise RefusedError(failed.message, hint=hint) from None
        if keep:
            demo = Demo(_keep_copy(tmp))
            print(f"\ndone: kept a copy of the scratch repository in {tilde(demo.repo)}")
            print(f"  to look around: {demo.look_around()}")
        else:
            print("\ndone: the scratch directory was removed "
                  "(`git memory demo --keep` keeps a copy; `git memory demo --dir PATH` builds it there)")
        print(NEXT)
    return 0
