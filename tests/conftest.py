"""Shared fixtures: every test runs with HOME, CLAUDE_CONFIG_DIR, AGENT_MEMORY_HOME and the git
config isolated in tmp_path, fixed author/committer identities and dates (reproducible commit
ids), and an empty git template dir. A test that reaches the real ~/.claude fails."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from golden import Golden

    from agent_memory.store.l1 import L1Store

# Property tests judge results, never speed: Hypothesis's per-example deadline (200 ms) and its
# too-slow data-generation check are wall-clock limits, so on a loaded machine (parallel
# workers, other jobs) they fail tests whose results are right. Speed is measured in benchmarks/.
# The default profile is derandomized so that a run on a clean clone (CI) tries the same examples
# as the run before it: a random search that finds a new case fails one CI run in N, not the
# change that caused it. To search for new cases: pytest --hypothesis-profile=explore.
_QUIET = [HealthCheck.too_slow]
settings.register_profile("agent-memory", derandomize=True, deadline=None, suppress_health_check=_QUIET)
settings.register_profile("explore", max_examples=500, deadline=None, suppress_health_check=_QUIET)
settings.load_profile("agent-memory")

FIXTURES = Path(__file__).parent / "fixtures"
TRANSCRIPTS = FIXTURES / "transcripts"
REAL_HOME = Path(os.path.expanduser("~"))


def pytest_configure(config: pytest.Config) -> None:
    """Compile the package's bytecode once, before any test: every `git memory` process and
    git hook the suite starts (thousands) imports ~100 of its modules, and where
    PYTHONDONTWRITEBYTECODE is set (as in the shells that run this suite) no process writes
    the .pyc it compiled, so each compiled them all again (~0.15 s a process; test_locale,
    test_claude_settings and test_pr: 71 s -> 45 s). An installed wheel has its .pyc from pip;
    this gives the editable tree the same. Compiling writes only __pycache__/ (ignored by git,
    by the wheel and by the rules' signature) and changes no test's outcome. An xdist worker
    leaves it to the controller, which configures first."""
    if hasattr(config, "workerinput"):
        return
    import compileall

    import agent_memory

    compileall.compile_dir(os.path.dirname(agent_memory.__file__), quiet=1)


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("home")
    template = tmp_path_factory.mktemp("git-template")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(home / ".claude" / "agent-memory"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_TEMPLATE_DIR", str(template))
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test Author")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "author@example.invalid")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test Committer")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "committer@example.invalid")
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-11-01T12:00:00Z")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-11-01T12:00:00Z")
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "0")
    # The recall hook's 100 ms self-budget is wall-clock: on a loaded test machine (parallel
    # workers) it would make what is recalled depend on load. Tests that exercise the budget
    # itself set it back.
    monkeypatch.setenv("AGENT_MEMORY_RECALL_BUDGET_MS", "10000")
    # `git memory` and the installed git hooks must find this interpreter's git-memory script.
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    # CLAUDECODE: set when the suite runs from a Claude Code session; `remember` reads it.
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "AGENT_MEMORY_SESSIONSTART", "CLAUDECODE",
                "AGENT_MEMORY_USERPROMPTSUBMIT", "AGENT_MEMORY_SESSIONEND"):
        monkeypatch.delenv(var, raising=False)
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[user]\n\tname = Test User\n\temail = user@example.invalid\n")
    yield home
    _disarm_wall_clock()


def _disarm_wall_clock() -> None:
    """A background capture run in-process arms a 300 s SIGALRM (meant for its own detached
    process): left armed, it fires in whichever test this worker runs 300 s later."""
    import signal

    if hasattr(signal, "SIGALRM"):
        signal.alarm(0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


def _real_home_state() -> dict[str, object]:
    """What a test could damage in the real home: the user's git config, their global
    CLAUDE.md and the default global memory repo (the rest of ~/.claude belongs to a running
    Claude Code and changes on its own)."""
    out: dict[str, object] = {}
    for rel in (".gitconfig", ".claude/CLAUDE.md", ".claude/agent-memory"):
        path = REAL_HOME / rel
        out[rel] = (path.exists(), path.stat().st_mtime_ns if path.exists() else None)
    return out


@pytest.fixture(autouse=True, scope="session")
def real_home_untouched() -> Iterator[None]:
    before = _real_home_state()
    yield
    assert _real_home_state() == before, "a test touched the real ~/.gitconfig or ~/.claude"


def git(repo: Path, *args: str, check: bool = True) -> str:
    proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
    return proc.stdout


def commit_link_to_dev_zero(project: Path, name: str) -> None:
    """Commit `name` (a memory file) as a symbolic link to /dev/zero, as a cloned repository
    can (git stores links): a reader that follows it reads for ever."""
    link = project / name
    link.parent.mkdir(exist_ok=True)
    link.unlink(missing_ok=True)
    link.symlink_to("/dev/zero")
    git(project, "add", "-A")
    git(project, "commit", "-q", "--no-verify", "-m", "links")


def memory_capped() -> None:
    """A subprocess's preexec_fn: 2 GB of address space, so a process that reads for ever is
    stopped by its memory (and fails the test), not left running."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def new_repo(path: Path) -> Path:
    """A real git repository at `path` with one commit on main."""
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("# proj\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A real git repository with one commit on main."""
    return new_repo(tmp_path / "proj")


@pytest.fixture(scope="module")
def init_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[bool]:
    """The saved state of a module's one initialised-project fixture (see initialized_copy)."""
    from golden import Golden

    return Golden(tmp_path_factory.mktemp("initialized"))


def initialized_copy(golden: Golden[bool], home: Path, monkeypatch: pytest.MonkeyPatch, *init_args: str,
                     now: str | None = None, then: Callable[[Path], object] | None = None) -> Path:  # fmt: skip
    """A one-commit repository `proj` after `git memory init ARGS` (the real CLI, at
    AGENT_MEMORY_NOW `now` when given) and `then(project)`: the same commands with the same
    inputs and fixed dates in every test of a module, so they run once per module and each
    test gets a fresh copy of the repository and of the home they wrote to, at the very paths
    they were built at (golden.py) — the same commit ids as a fresh run."""
    if now is not None:
        monkeypatch.setenv("AGENT_MEMORY_NOW", now)

    def build(base: Path) -> bool:
        from sessions import gm

        project = new_repo(base / "proj")
        gm(project, "init", *init_args)
        if then is not None:
            then(project)
        return True

    key = repr((init_args, now, getattr(then, "__qualname__", then)))
    base, _ = golden.use(home, monkeypatch, build, key)
    return base / "proj"


@pytest.fixture
def initialized(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """test_adopt.init_project's state (`git memory init --yes` at its AGENT_MEMORY_NOW) as
    initialized_copy gives it: built once per module, a fresh copy for each test. Its refs,
    status, hooks, config and home listing equal a fresh init's (only the global repo's commit
    differs: its projects.json names the folder)."""
    from test_adopt import NOW

    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", now=NOW)


@pytest.fixture(scope="module")
def staged_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[dict[str, str]]:
    from golden import Golden

    return Golden(tmp_path_factory.mktemp("adopt-staged"))


@pytest.fixture
def staged(staged_golden: Golden[dict[str, str]], isolated_env: Path,
           monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, str]]:  # fmt: skip
    """`initialized` after test_adopt.stage_claims — the project and the claim → atom id map
    (test_adopt.Staged): staged_copy of test_adopt's CLAIMS. A module staging claims of its
    own overrides this fixture with a staged_copy of them."""
    return staged_copy(staged_golden, isolated_env, monkeypatch)


def staged_copy(golden: Golden[dict[str, str]], home: Path, monkeypatch: pytest.MonkeyPatch,
                claims: dict[str, str] | None = None) -> tuple[Path, dict[str, str]]:  # fmt: skip
    """A one-commit repository `proj` after test_adopt.init_project and stage_claims(claims):
    the init, capture and stage run once per module (the same commands with the same inputs
    and fixed dates in every test); each test gets its own copy of their result (golden.py)."""
    from test_adopt import NOW, init_project, stage_claims

    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)

    def build(base: Path) -> dict[str, str]:
        return stage_claims(init_project(new_repo(base / "proj"), monkeypatch), claims)

    base, ids = golden.use(home, monkeypatch, build, repr(sorted((claims or {}).items())))
    return base / "proj", dict(ids)


@pytest.fixture
def store(repo: Path) -> L1Store:
    """`repo`'s memory/atoms store, created (no `git memory init`: the store alone)."""
    from agent_memory.gitio import repo as gitb
    from agent_memory.store.l1 import L1Store

    s = L1Store(gitb.find_repo(repo))
    assert s.init()
    return s


@pytest.fixture(scope="module")
def guarded_golden(tmp_path_factory: pytest.TempPathFactory) -> Golden[bool]:
    from golden import Golden

    return Golden(tmp_path_factory.mktemp("guarded"))


@pytest.fixture
def guarded(guarded_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A one-commit repository after `git memory init --yes --no-claude-hooks`: the git hooks
    guard it. Built once per module, a fresh copy for each test (initialized_copy)."""
    return initialized_copy(guarded_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks")


# --- the package as a user installs it ----------------------------------------------------------


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built once per test run from this tree (building is the slow part, ~5 s): under
    xdist the workers share the run's temporary folder, and the first to get there builds it
    while the others wait on the lock. Only read: a test that damages the package does so in
    its own install_wheel copy."""
    import fcntl

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder; each worker's own is popen-gwN under it
    out = shared / "built-wheel"
    with open(shared / "built-wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not out.is_dir():
            root = Path(__file__).resolve().parent.parent
            building = shared / "built-wheel.partial"
            shutil.rmtree(building, ignore_errors=True)
            subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(building), str(root)],
                           check=True, capture_output=True)  # fmt: skip
            building.rename(out)  # whole or absent: a failed build leaves no wheel to reuse
    return next(out.glob("agent_memory-*.whl"))


def install_wheel(wheel: Path, site: Path) -> Path:
    """`wheel` installed into a folder of its own (dependencies come from the test
    environment), so a test may damage its copy without touching another's."""
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)  # fmt: skip
    return site
