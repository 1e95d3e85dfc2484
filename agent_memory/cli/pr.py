"""`git memory pr [--remote NAME] [--print] [--global]`: push memory/review and open a pull
request with the forge's CLI (`gh`, `glab`) when one is installed, else print the exact
commands and the PR body. Merging that PR is adoption of every item."""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from typing import Any

from agent_memory.adoption.adopt import Item, pending
from agent_memory.cli.output import emit_json, tier_context, wants_json
from agent_memory.committed.templates import read_template
from agent_memory.gitio import repo as git
from agent_memory.model.clock import utc_day
from agent_memory.model.errors import RefusedError, RepoStateError
from agent_memory.model.trailers import trailer
from agent_memory.promote.review import base_files, review_items

TITLE = "agent-memory: {n} staged memory promotion(s)"


def evidence_days(repo: git.Repo, item: Item) -> int:
    """Distinct UTC days of evidence, as the staging commit recorded them (the committed atom
    keeps only first and last sighting, which would undercount a three-day claim as two)."""
    recorded = trailer(git.commit_message(repo, item.commit), "Evidence-Days")
    if recorded and recorded.isdigit():
        return int(recorded)
    atom = item.atom
    return len({utc_day(atom["first_seen"]), utc_day(atom["last_seen"])})


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def pr_body(repo: git.Repo, items: Sequence[Item], tier: str) -> str:
    rows = [
        f"| {_cell(i.atom['claim'])} | {i.atom['kind']} | {i.atom['confidence']} | "
        f"{len(i.atom['sessions'])} | {evidence_days(repo, i)} | `{_cell(i.atom['first_source'])}` |"
        for i in items
    ]
    command = "git memory stage" + (" --global" if tier == "L3" else "")
    return read_template("pr-body.md").format(command=command, rows="\n".join(rows))


def _require_current(repo: git.Repo, base: str, items: Sequence[Item]) -> None:
    """Merging the PR adopts every commit on memory/review, so the branch must hold exactly
    the items still waiting: none adopted since (on the base) and none rejected."""
    waiting = {i.commit for i in items}
    stale = [
        ident
        for commit, ident, _ in review_items(repo, f"refs/heads/{base}")
        if commit not in waiting
    ]
    if stale:
        raise RefusedError(
            f"memory/review still carries {len(stale)} item(s) already adopted or rejected: "
            + ", ".join(stale[:5]),
            hint="rebuild it with `git memory stage`, then open the pull request",
        )


def run(args: argparse.Namespace) -> int:
    repo, tier, target, _ = tier_context(args.global_)
    if repo.workdir is None:
        raise RepoStateError("pr needs a work tree", hint="run it in a clone with a work tree")
    base = git.default_branch(repo) or "main"
    # What the PR merges into is the base branch, whatever is checked out here.
    files = base_files(repo, f"refs/heads/{base}", tier, target)
    items = pending(repo, files, against=f"refs/heads/{base}")
    if not items:
        raise RefusedError(
            "nothing is waiting on memory/review",
            hint="stage promotions first with `git memory stage`",
        )
    _require_current(repo, base, items)
    remote = args.remote or git.config_get(repo.cwd, "memory.remote") or "origin"
    title = TITLE.format(n=len(items))
    body = pr_body(repo, items, tier)
    push = ["git", "push", "--force-with-lease", remote, f"{git.REVIEW_REF}:{git.REVIEW_REF}"]
    forge = next((tool for tool in ("gh", "glab") if shutil.which(tool)), None)
    gh = ["gh", "pr", "create", "--base", base, "--head", "memory/review", "--title", title]
    glab = [
        "glab",
        "mr",
        "create",
        "--target-branch",
        base,
        "--source-branch",
        "memory/review",
        "--title",
        title,
        "--yes",
    ]
    result: dict[str, Any] = {
        "remote": remote,
        "base": base,
        "items": [i.atom_id for i in items],
        "title": title,
        "body": body,
        "pushed": False,
        "forge": forge,
        "url": None,
    }
    if args.print_only or not forge:
        commands = [
            shlex.join(push),
            shlex.join([*gh, "--body-file", "PR_BODY.md"]),
            shlex.join([*glab, "--description"])
            + ' "$(cat PR_BODY.md)"',  # glab has no --body-file
        ]
        if wants_json(args):
            emit_json({**result, "commands": commands})
            return 0
        if not forge and not args.print_only:
            print("# no forge client (gh, glab) is installed: run these yourself")
        print("# push the review branch:")
        print(commands[0])
        print("# save the body below as PR_BODY.md, then open the pull request with one of:")
        print(commands[1])
        print(commands[2])
        print("\n# PR_BODY.md\n")
        print(body)
        return 0
    create = [*gh, "--body", body] if forge == "gh" else [*glab, "--description", body]
    proc = git.run_git(repo.workdir, *push[1:], check=False)
    if proc.returncode != 0:
        raise RefusedError(
            f"git push to {remote} failed: {(proc.stderr.strip().splitlines() or ['?'])[-1]}",
            hint="check the remote (git remote -v) or pass --remote NAME; --print shows the commands",
        )
    result["pushed"] = True
    made = subprocess.run(
        create, cwd=str(repo.workdir), capture_output=True, text=True, check=False
    )
    if made.returncode != 0:
        raise RefusedError(
            f"{forge} could not open the pull request: "
            f"{(made.stderr.strip().splitlines() or ['?'])[-1]}",
            hint="the branch is pushed; open the PR by hand (`git memory pr --print` shows the body)",
        )
    result["url"] = made.stdout.strip().splitlines()[-1] if made.stdout.strip() else None
    if wants_json(args):
        emit_json(result)
    else:
        print(f"pushed memory/review to {remote} ({len(items)} item(s))")
        print(f"opened a pull request: {result['url'] or '(see ' + str(forge) + ')'}")
        print("merging it adopts every item; the next `git memory stage` sees them as adopted")
    return 0
