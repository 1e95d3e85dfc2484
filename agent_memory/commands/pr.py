"""`git memory pr [--remote NAME] [--print] [--global]`: push memory/review and open a pull
request with the forge's CLI (`gh`, `glab`) when one is installed, else print the exact
commands and the PR body. Merging that PR is adoption of every item."""

from __future__ import annotations

import argparse
import shutil
import subprocess
from collections.abc import Sequence

from agent_memory import git
from agent_memory.adopt import Item, pending, work_files
from agent_memory.commands.common import emit_json, wants_json
from agent_memory.errors import RefusedError, RepoStateError

TITLE = "agent-memory: {n} staged memory promotion(s)"


def pr_body(items: Sequence[Item], tier: str) -> str:
    lines = [
        f"Promotions staged by `git memory stage{' --global' if tier == 'L3' else ''}`: each commit adds one "
        "claim that recurred across sessions to the memory block and `.memory/adopted.log`.",
        "Merging this pull request adopts every item; to pick items one by one, run `git memory adopt` instead.",
        "",
        "| claim | kind | confidence | sessions | days | first source |",
        "|---|---|---|---|---|---|",
    ]
    for item in items:
        atom = item.atom
        days = len({atom["first_seen"][:10], atom["last_seen"][:10]})
        claim = atom["claim"].replace("|", "\\|")
        lines.append(
            f"| {claim} | {atom['kind']} | {atom['confidence']} | {len(atom['sessions'])} | "
            f"{days} | `{atom['first_source']}` |"
        )
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    if args.global_:
        from agent_memory.global_repo import GlobalRepo

        repo, tier, target = GlobalRepo.default().repo(), "L3", "CLAUDE.memory.md"
    else:
        from agent_memory.install import target_file

        repo = git.find_repo()
        tier, target = "L2", target_file(repo)
    if repo.workdir is None:
        raise RepoStateError("pr needs a work tree", hint="run it in a clone with a work tree")
    items = pending(repo, work_files(repo.workdir, tier, target))
    if not items:
        raise RefusedError(
            "nothing is waiting on memory/review",
            hint="stage promotions first with `git memory stage`",
        )
    base = git.default_branch(repo) or "main"
    remote = args.remote or git.config_get(repo.cwd, "memory.remote") or "origin"
    title = TITLE.format(n=len(items))
    body = pr_body(items, tier)
    push = [
        "git",
        "push",
        "--force-with-lease",
        remote,
        "refs/heads/memory/review:refs/heads/memory/review",
    ]
    forge = next((tool for tool in ("gh", "glab") if shutil.which(tool)), None)
    if forge == "gh":
        create = [
            "gh",
            "pr",
            "create",
            "--base",
            base,
            "--head",
            "memory/review",
            "--title",
            title,
            "--body",
            body,
        ]
    elif forge == "glab":
        create = [
            "glab",
            "mr",
            "create",
            "--target-branch",
            base,
            "--source-branch",
            "memory/review",
            "--title",
            title,
            "--description",
            body,
            "--yes",
        ]
    else:
        create = []
    result = {
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
        if wants_json(args):
            emit_json({**result, "commands": [" ".join(push)]})
            return 0
        print("# push the review branch and open a pull request:")
        print(" ".join(push))
        print(
            f"gh pr create --base {base} --head memory/review --title '{title}' --body-file PR_BODY.md"
        )
        print("# (or: glab mr create --target-branch", base, "--source-branch memory/review …)")
        print("\n# PR_BODY.md\n")
        print(body)
        return 0
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
            f"{forge} could not open the pull request: {(made.stderr.strip().splitlines() or ['?'])[-1]}",
            hint="the branch is pushed; open the PR by hand (git memory pr --print shows the body)",
        )
    result["url"] = made.stdout.strip().splitlines()[-1] if made.stdout.strip() else None
    if wants_json(args):
        emit_json(result)
    else:
        print(
            f"pushed memory/review to {remote} and opened a pull request: {result['url'] or '(see ' + forge + ')'}"
        )
    return 0
