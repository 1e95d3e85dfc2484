"""`git memory pr [--remote NAME] [--print] [--global]`: push memory/review and open a pull
request. The push always happens (gitio/porcelain.py: GitPython over `git push`, so the
user's remotes, credentials and hooks apply); then the forge's CLI (`gh`, `glab`) opens the
request when it is installed, else the compare URL of a GitHub, GitLab or Bitbucket remote is
printed with the body. `--print` alone pushes nothing and prints all of it. Merging the pull
request is adoption of every item.

memory/review is built on the remote's base (`origin/main`, promote/review.py): the request
carries the staged items and nothing else. A review branch built on a local base with
unpushed commits is refused with the command that rebuilds it."""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from agent_memory.adoption.adopt import Item, pending
from agent_memory.cli import colour
from agent_memory.cli.adopt import withdrawn_items
from agent_memory.cli.output import tier_context
from agent_memory.cli.report import Report
from agent_memory.committed.templates import read_template
from agent_memory.gitio import porcelain
from agent_memory.gitio import repo as git
from agent_memory.model.clock import utc_day
from agent_memory.model.controls import show_controls
from agent_memory.model.errors import RefusedError, RepoStateError
from agent_memory.model.programs import program
from agent_memory.model.tags import origin_label
from agent_memory.model.trailers import plural, trailer
from agent_memory.promote.review import (
    Base,
    base_files,
    refuse_foreign_review,
    review_items,
    staging_base,
)
from agent_memory.promote.withdrawn import WITHDRAWN

HEAD = "memory/review"
CLIENTS = {"github": "gh", "gitlab": "glab"}


def evidence_days(repo: git.Repo, item: Item) -> int:
    """Distinct UTC days of evidence, as the staging commit recorded them (the committed atom
    keeps only first and last sighting, which would undercount a three-day claim as two)."""
    recorded = trailer(git.commit_message(repo, item.commit), "Evidence-Days")
    if recorded and recorded.isdigit():
        return int(recorded)
    atom = item.atom
    return len({utc_day(atom["first_seen"]), utc_day(atom["last_seen"])})


def _cell(text: str) -> str:
    # the body is printed (`--print`) and rendered by the forge: no control character in it
    return show_controls(" ".join(str(text).split())).replace("|", "\\|")


# What a forge renders in a claim instead of showing it: HTML (`<details>` folds the rest of the
# claim away, `<!-- -->` hides it), links and images (`[](url)` shows nothing), emphasis, code
# and entities. Each is written escaped, so the reviewer reads every character that merging
# adopts, as Claude will read it.
_MARKDOWN = frozenset("\\`*_[]<>!&~|")


def _claim_cell(text: str) -> str:
    shown = show_controls(" ".join(str(text).split()))
    return "".join("\\" + ch if ch in _MARKDOWN else ch for ch in shown)


def _labelled_claim_cell(atom: Mapping[str, Any]) -> str:
    """The claim's cell, and for a claim Claude's model wrote (its memory files, or `remember`
    run in a Claude Code session) its label, in emphasis no claim can make (theirs is escaped)."""
    label = origin_label(atom)
    return _claim_cell(atom["claim"]) + (f" *({_claim_cell(label)})*" if label else "")


def pr_body(repo: git.Repo, items: Sequence[Item], tier: str, gone: Collection[str] = ()) -> str:
    """The pull request's body: a row per item. `gone`: the items whose only source, Claude's
    memory, no longer says them (promote/withdrawn.py) — said in their claim's cell, as adopt
    says it, since merging the request adopts every row."""
    rows = [
        f"| {_labelled_claim_cell(i.atom)}{f' *({WITHDRAWN})*' if i.atom_id in gone else ''} | "
        f"{i.atom['kind']} | {i.atom['confidence']} | "
        f"{len(i.atom['sessions'])} | {evidence_days(repo, i)} | `{_cell(i.atom['first_source'])}` |"
        for i in items
    ]
    command = "git memory stage" + (" --global" if tier == "L3" else "")
    return read_template("pr-body.md").format(command=command, rows="\n".join(rows))


def _require_current(repo: git.Repo, base: Base, items: Sequence[Item], flag: str) -> None:
    """Merging the PR adopts every commit on memory/review, so the branch must hold exactly
    the items still waiting (none adopted since, none rejected) on top of the remote's base,
    and nothing else (no unpushed commit of the local branch under them)."""
    tip = git.ref_target(repo, git.REVIEW_REF)
    assert tip is not None
    # A commit too large for any of ours (unread) is one the pull request would carry too.
    foreign = [oid for oid in git.rev_list(repo, tip, f"^{base.ref}")
               if trailer(git.message_within(repo, oid) or "", "Promotion") is None]
    if foreign:
        subjects = porcelain.subjects(repo, foreign[-1], limit=1)
        raise RefusedError(
            f"memory/review sits on {plural(len(foreign), 'commit')} that {base.name} does not have"
            + (f" (e.g. {subjects[0]})" if subjects else "") + ": the pull request would carry them",
            hint=f"rebuild it on {base.name} with `git memory stage{flag}`, then run `git memory pr{flag}` again")
    waiting = {i.commit for i in items}
    stale = [ident for commit, ident, _ in review_items(repo, base.ref) if commit not in waiting]
    if stale:
        raise RefusedError(
            f"memory/review still carries {plural(len(stale), 'item')} already adopted or rejected: "
            + ", ".join(stale[:5]),
            hint=f"rebuild it with `git memory stage{flag}`, then open the pull request",
        )


def _client(forge: porcelain.Forge | None) -> str | None:
    """The forge CLI to open the request with: the one for the remote's forge when installed;
    for an unknown forge, whichever is installed (gh first)."""
    if forge is not None and forge.kind in CLIENTS:
        tool = CLIENTS[forge.kind]
        return tool if program(tool) else None
    if forge is not None and forge.kind == "bitbucket":
        return None
    return next((tool for tool in ("gh", "glab") if program(tool)), None)


def run(args: argparse.Namespace) -> Report:
    repo, tier, target, store = tier_context(args.global_)
    if repo.workdir is None:
        raise RepoStateError("pr needs a work tree", hint="run it in a clone with a work tree")
    if store is not None:  # the author's memory/review, come with a clone: never pushed as yours
        refuse_foreign_review(repo, store, "nothing was pushed")
    flag = " --global" if args.global_ else ""
    base = staging_base(repo)
    # Held here (even if not pushed yet) or on the remote: neither is waiting any more.
    files = base_files(repo, f"refs/heads/{base.branch}", tier, target)
    items = pending(repo, files, against=base.ref)
    if not items:
        # the global review is another repository's: named as adopt --global names it
        where = "the global memory repo's memory/review" if args.global_ else "memory/review"
        raise RefusedError(f"nothing is waiting on {where}", hint=f"stage promotions first with `git memory stage{flag}`")
    _require_current(repo, base, items, flag)
    remote = args.remote or porcelain.default_remote(repo)
    title = f"agent-memory: {plural(len(items), 'staged memory promotion')}"
    # this repository's review only: the global one's atoms come from many projects' folders
    gone = withdrawn_items(repo, store, items)
    body = pr_body(repo, items, tier, gone)
    url = git.config_get(repo.cwd, f"remote.{remote}.url")
    unknown = _unknown_remote(repo, remote, url)
    forge = porcelain.forge_of(url)
    compare = forge.compare_url(base.branch, HEAD) if forge else None
    client = _client(forge)
    # run by the path found in an absolute PATH folder (as `_client` found it): never a `gh`
    # the repository commits
    binary = program(client) if client else None
    push = ["git", "push", "--force-with-lease", remote, f"{git.REVIEW_REF}:{git.REVIEW_REF}"]
    gh = ["gh", "pr", "create", "--base", base.branch, "--head", HEAD, "--title", title]
    glab = ["glab", "mr", "create", "--target-branch", base.branch, "--source-branch", HEAD, "--title", title, "--yes"]
    commands = [shlex.join(push), shlex.join([*gh, "--body-file", "PR_BODY.md"]),
                shlex.join([*glab, "--description"]) + ' "$(cat PR_BODY.md)"']  # glab has no --body-file
    result: dict[str, Any] = {"remote": remote, "base": base.branch, "items": [i.atom_id for i in items],
                              "title": title, "body": body, "pushed": False, "forge": client, "url": None,
                              "compare_url": compare, "commands": commands}
    notes = _pr_notes(base, remote, unknown, flag)

    report = Report(result)
    if args.print_only:
        return _print_commands(report, commands, compare, notes, body)

    if unknown:
        raise RefusedError(f"this repository has no remote named {remote!r}: nothing was pushed",
                           hint=f"add it with `git remote add {remote} URL` (or pass --remote NAME), then rerun; "
                                f"`git memory pr{flag} --print` shows the commands and the description")
    porcelain.push(repo, remote, f"{git.REVIEW_REF}:{git.REVIEW_REF}")
    result["pushed"] = True
    if client is not None and binary is not None:
        create = [*gh, "--body", body] if client == "gh" else [*glab, "--description", body]
        create[0] = binary
        result["url"] = _open_request(repo, client, create, compare, flag)
    report.say(f"pushed memory/review to {remote} ({plural(len(items), 'item')}, on top of {base.name})")
    if client is not None:
        report.say(f"opened a pull request: {result['url'] or '(see ' + client + ')'}")
    else:
        _say_open_it_yourself(report, compare, base, title, body)
    _notes(report, notes)
    report.say("merging it adopts every item; the next `git memory stage` sees them as adopted")
    return report


def _unknown_remote(repo: git.Repo, remote: str, url: str | None) -> bool:
    """A name git does not know (a project not pushed anywhere yet), not a URL or a path (git
    also takes a folder of the work tree named without a slash: `git push mirror.git`)."""
    return (url is None and not any(c in remote for c in "/:\\")
            and not os.path.isdir(os.path.join(str(repo.workdir or repo.cwd), remote)))


def _pr_notes(base: Base, remote: str, unknown: bool, flag: str) -> list[str]:
    """What the pull request leaves out or needs first: unpushed base commits, a missing remote."""
    notes = []
    if base.unpushed and base.remote:
        notes.append(f"{base.branch} has {plural(base.unpushed, 'commit')} that {base.name} does not: "
                     f"the pull request leaves them out (push {base.branch} for them to reach the remote)")
    if unknown:
        notes.append(f"there is no remote named {remote!r} here yet: add it (`git remote add {remote} URL`) "
                     "before the push")
    elif not base.remote:
        notes.append(f"{base.branch} has no remote-tracking branch here: after `git fetch {remote}`, "
                     f"`git memory stage{flag}` stages on {remote}/{base.branch}")
    return notes


def _print_commands(report: Report, commands: list[str], compare: str | None, notes: list[str],
                    body: str) -> Report:  # fmt: skip
    """`pr --print`: the commands and the description, nothing pushed."""
    report.say("# push the review branch:")
    report.say(commands[0])
    report.say("# then open the pull request with one of (save the body below as PR_BODY.md):")
    report.say(commands[1])
    report.say(commands[2])
    if compare:
        report.say(f"# or in the browser: {compare}")
    _notes(report, notes)
    report.say("\n# PR_BODY.md\n")
    report.say(body)
    return report


def _open_request(repo: git.Repo, client: str, create: list[str], compare: str | None, flag: str) -> str | None:
    """Open the pull request with the forge's client (`create`); its URL (the last line it
    prints), or None."""
    made = subprocess.run(create, cwd=str(repo.workdir), capture_output=True, text=True, check=False,
                          encoding="utf-8", errors="replace")
    if made.returncode != 0:
        raise RefusedError(
            f"pushed memory/review, but {client} could not open the pull request: "
            f"{(made.stderr.strip().splitlines() or ['?'])[-1]}",
            hint=(f"open it in the browser: {compare}" if compare else
                  f"open it by hand (`git memory pr{flag} --print` shows the body)"))
    return made.stdout.strip().splitlines()[-1] if made.stdout.strip() else None


def _say_open_it_yourself(report: Report, compare: str | None, base: Base, title: str, body: str) -> None:
    report.say("# no forge client (gh, glab) for this remote: open the pull request yourself")
    if compare:
        report.say(f"open it here: {colour.paint(compare, 'hint')}")
    else:
        report.say(f"on your forge: base {base.branch}, compare {HEAD}, title {title!r}")
    report.say("# the pull request's description:\n")
    report.say(body)


def _notes(report: Report, notes: Sequence[str]) -> None:
    for note in notes:
        report.say(f"{colour.paint('note:', 'hint')} {note}")
