"""`git check-attr` for the memory files, on the standard library alone (`os`; `subprocess` is
loaded only when it runs): the session start asks it on a cache miss, and only when an
attributes file names a converting attribute (committed/attributes.py)."""

from __future__ import annotations

import os

from agent_memory.gitio.refs import REPOSITORY_ENV
from agent_memory.model.programs import git_program

# What makes git store a file other than as the work tree holds it, or hand Claude other
# bytes than the blob a reviewer read: a clean/smudge filter (git-lfs keeps the text out of
# git), an encoding the work tree holds it in.
CONVERTING = ("filter", "working-tree-encoding")


def check_attr(root: str, paths: tuple[str, ...]) -> dict[str, list[str]] | None:
    """path → its converting attributes (`filter=lfs`), for the paths (relative to the work
    tree `root`) that have one; None when git could not tell (not a repository, no git)."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in REPOSITORY_ENV and k != "GIT_PREFIX"}
    env["GIT_TERMINAL_PROMPT"] = "0"
    try:
        proc = subprocess.run(
            [git_program(), "--no-optional-locks", "-c", "core.fsmonitor=false", "check-attr", "-z", *CONVERTING,
             "--", *paths],
            cwd=root, capture_output=True, env=env, check=False,
        )  # fmt: skip
    except OSError:
        return None
    if proc.returncode != 0:
        return None
    return set_attributes(proc.stdout.decode("utf-8", "replace"))


def set_attributes(output: str) -> dict[str, list[str]]:
    """path → `name=value` of each attribute `git check-attr -z` says is set on it (its
    NUL-separated path, name, value triples; unspecified and unset ones left out)."""
    fields = output.split("\0")
    out: dict[str, list[str]] = {}
    for path, name, value in zip(fields[0::3], fields[1::3], fields[2::3], strict=False):
        if value not in ("unspecified", "unset", ""):
            out.setdefault(path, []).append(f"{name}={value}")
    return out
