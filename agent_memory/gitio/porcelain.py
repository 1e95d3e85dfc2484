"""Porcelain that must behave as the user's own git does: pushing (their remotes, credential
helpers, SSH config, push options), reading remotes, and history queries across refs.

Pushing goes through GitPython over the `git` CLI — the design's choice for porcelain that
must honour the user's configuration and credentials — imported inside the function (it
costs ~80 ms, which only the verbs that push should pay). The rest is `git` with stable
formats (only `--format` and plumbing output are parsed, never prose)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from agent_memory.gitio.refs import history_paths
from agent_memory.gitio.repo import (
    LOG_FORMAT,
    LogEntry,
    Repo,
    commits_within,
    config_get,
    import_gitpython,
    log_entries,
    parse_log,
    ref_target,
    rev_parse,
    run_git,
    without_repository_env,
)
from agent_memory.model.errors import RefusedError

# --- remotes ----------------------------------------------------------------------------------


def default_remote(repo: Repo) -> str:
    return config_get(repo.cwd, "memory.remote") or "origin"


@dataclass(frozen=True)
class Forge:
    """Where a remote lives: the forge kind (github, gitlab, bitbucket, or None) and the web
    URL of the repository (https://host/owner/name), when the remote URL has that shape."""

    kind: str | None
    host: str
    path: str

    @property
    def web(self) -> str:
        return f"https://{self.host}/{self.path}"

    def compare_url(self, base: str, head: str) -> str | None:
        """The page that opens a pull/merge request of `head` into `base`."""
        if self.kind == "github":
            return f"{self.web}/compare/{base}...{head}?expand=1"
        if self.kind == "gitlab":
            return (f"{self.web}/-/merge_requests/new?merge_request%5Bsource_branch%5D={head}"
                    f"&merge_request%5Btarget_branch%5D={base}")
        if self.kind == "bitbucket":
            return f"{self.web}/pull-requests/new?source={head}&dest={base}"
        return None


_SCP = re.compile(r"^(?:[^@/]+@)?([^:/]+):(?!//)(.+)$")  # git@github.com:owner/name.git
_URL = re.compile(r"^(?:https?|ssh|git)://(?:[^@/]+@)?([^/:]+)(?::\d+)?/(.+)$")


def forge_of(url: str | None) -> Forge | None:
    """Parse a remote URL into its forge (None for a local path or an unknown shape)."""
    if not url:
        return None
    match = _URL.match(url) or _SCP.match(url)
    if not match:
        return None
    host, path = match.group(1).lower(), match.group(2).strip("/")
    path = path.removesuffix(".git")
    if not path or "/" not in path:
        return None
    kind = ("github" if "github" in host else "gitlab" if "gitlab" in host
            else "bitbucket" if "bitbucket" in host else None)
    return Forge(kind, host, path)


def tracking_ref(repo: Repo, branch: str, remote: str | None = None) -> str | None:
    """`refs/remotes/<remote>/<branch>` when it exists locally (what was last fetched)."""
    ref = f"refs/remotes/{remote or default_remote(repo)}/{branch}"
    return ref if ref_target(repo, ref) else None


def ahead_behind(repo: Repo, local: str, upstream: str) -> tuple[int, int]:
    """(commits in `local` not in `upstream`, commits in `upstream` not in `local`)."""
    proc = run_git(repo.cwd, "rev-list", "--left-right", "--count", f"{local}...{upstream}", check=False)
    parts = proc.stdout.split()
    if proc.returncode != 0 or len(parts) != 2:
        return 0, 0
    return int(parts[0]), int(parts[1])


def subjects(repo: Repo, spec: str, *more: str, limit: int = 5) -> list[str]:
    proc = run_git(repo.cwd, "log", f"-{limit}", "--format=%h %s", spec, *more, check=False)
    return proc.stdout.splitlines() if proc.returncode == 0 else []


# --- pushing ----------------------------------------------------------------------------------


# An HTTP remote that accepts the connection and never answers held `git push` (and `pr`) for
# ever: git sets no stall limit of its own. Under PUSH_STALL_S (or the user's http.lowSpeedTime)
# at less than a byte a second, git gives up and says so. A stall limit the user set stands.
PUSH_STALL_S = 60


def _stall_limit(repo: Repo) -> dict[str, str]:
    if os.environ.get("GIT_HTTP_LOW_SPEED_LIMIT") or config_get(repo.cwd, "http.lowSpeedLimit"):
        return {}
    seconds = os.environ.get("GIT_HTTP_LOW_SPEED_TIME") or config_get(repo.cwd, "http.lowSpeedTime")
    return {"GIT_HTTP_LOW_SPEED_LIMIT": "1", "GIT_HTTP_LOW_SPEED_TIME": seconds or str(PUSH_STALL_S)}


def push(repo: Repo, remote: str, refspec: str, force_with_lease: bool = True) -> str:
    """`git push [--force-with-lease] REMOTE REFSPEC` as the user would run it (their config,
    credential helpers and hooks apply; never an interactive prompt). Returns git's summary;
    a failure is a RefusedError carrying git's last line."""
    gitpython = import_gitpython()  # deferred: ~80 ms

    flags = ["--porcelain"] + (["--force-with-lease"] if force_with_lease else [])
    try:
        with without_repository_env():
            handle = gitpython.Repo(str(repo.cwd), search_parent_directories=False)
            with handle.git.custom_environment(GIT_TERMINAL_PROMPT="0", **_stall_limit(repo)):
                out: str = handle.git.push(*flags, remote, refspec)
    except gitpython.GitCommandError as exc:
        lines = [ln.strip() for ln in str(exc.stderr or exc).strip().splitlines() if ln.strip()]
        lines = [ln.strip("'").removeprefix("stderr: ").strip("'") for ln in lines]
        # git's own verdict (`fatal: 'x' does not appear to be a git repository`), not the tail
        # of its advice ("…and the repository exists."); else the last line that is no hint.
        said = [ln for ln in lines if ln.startswith(("fatal:", "error:", "! ["))]
        detail = said[0] if said else next((ln for ln in reversed(lines) if ln and not ln.startswith("hint:")),
                                           "git push failed")
        raise RefusedError(f"git push to {remote} failed: {detail}",
                           hint="check the remote (git remote -v) or pass --remote NAME; "
                                "--print shows what to run by hand") from exc
    return out


# --- history across refs ----------------------------------------------------------------------


def log_grep(repo: Repo, needle: str, refs: Sequence[str], reflog: bool = False,
             skipped: list[tuple[str, int]] | None = None) -> list[LogEntry]:
    """Commits reachable from `refs` (and, with `reflog`, from every reflog entry: branches
    that were rebuilt, like memory/review) whose message contains `needle`, newest first. One
    over MAX_COMMIT_BYTES is left out, its message never asked for: (id, size) in `skipped`."""
    from agent_memory.model.policy import MAX_COMMIT_BYTES

    existing = existing_refs(repo, refs)
    if not existing and not reflog:
        return []
    args = ["log", "--topo-order", "--format=%H", "--fixed-strings", f"--grep={needle}", *existing]
    if reflog:
        args.append("--reflog")
    # Ids first: a clone's commit can match with a message of any size (one of 300 MB cost git
    # 600 MB to print and us twice that to read); the messages of the others only.
    proc = run_git(repo.cwd, *args, "--", check=False)
    if proc.returncode != 0:
        return []
    within, over = commits_within(repo.cwd, proc.stdout.split(), MAX_COMMIT_BYTES)
    if skipped is not None:
        skipped.extend(over)
    return log_entries(repo.cwd, within)


def is_ancestor(repo: Repo, commit: str, ref: str) -> bool:
    return run_git(repo.cwd, "merge-base", "--is-ancestor", commit, ref, check=False).returncode == 0


def existing_refs(repo: Repo, refs: Iterable[str]) -> list[str]:
    return [r for r in dict.fromkeys(refs) if rev_parse(repo, r)]


def reflog(repo: Repo, ref: str) -> list[tuple[str, str]]:
    """(tip, when) for each reflog entry of `ref`, oldest first (empty without a reflog)."""
    proc = run_git(repo.cwd, "log", "-g", "--format=%H%x1f%gd", "--date=iso-strict", ref, "--", check=False)
    out = []
    for line in proc.stdout.splitlines():
        oid, _, selector = line.partition("\x1f")
        when = selector.rpartition("@{")[2].rstrip("}")
        if oid and when:
            out.append((oid, when))
    return out[::-1]


def log_paths(repo: Repo, ref: str, paths: Sequence[str]) -> list[LogEntry]:
    """Commits of `ref` that touched any of `paths`, newest first, in the ref's order."""
    proc = run_git(repo.cwd, "log", "--topo-order", f"--format={LOG_FORMAT}", ref, "--",
                   *history_paths(ref, list(paths)), check=False)  # atoms in either layout
    return parse_log(proc.stdout) if proc.returncode == 0 else []
