"""The command contract (docs/cli.md) where the CLI once drifted from it: bad input is exit 2 with
one line and a `hint:`, repository state is exit 3, refusals are exit 1, and the Claude Code hook
never fails. Every case runs through the CLI on a real repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git, initialized_copy
from golden import Golden
from sessions import gm, gm_json, write_session

NOW = "2026-11-06T12:00:00Z"


@pytest.fixture
def project(init_golden: Golden[bool], isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`git memory init --yes --no-claude-hooks`, built once per module; each test gets its own copy
    (conftest.initialized_copy)."""
    return initialized_copy(init_golden, isolated_env, monkeypatch, "--yes", "--no-claude-hooks", now=NOW)


def _one_line_and_a_hint(stderr: str) -> list[str]:
    lines = stderr.strip().splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint: "), stderr
    return lines


# --- verify: an empty command checks nothing ---------------------------------------------------


@pytest.mark.parametrize("command", ["", "   ", "\t\n"])
def test_verify_with_an_empty_command_is_bad_input_and_changes_nothing(project: Path, command: str) -> None:
    write_session(project, "eeeeeeee-0000-4000-8000-000000000001", "2026-11-01",
                  [{"user": "Never push directly to main; always open a pull request."}])
    gm(project, "capture", "--all", "--no-stage")
    atom = gm_json(project, "inspect", "--tier", "L1")["atoms"][0]
    tip = git(project, "rev-parse", "memory/atoms")

    proc = gm(project, "verify", atom["id"], "--by", command, check=False)

    assert proc.returncode == 2
    first, _ = _one_line_and_a_hint(proc.stderr)
    assert first.startswith("git memory verify: ") and "--by" in first
    assert git(project, "rev-parse", "memory/atoms") == tip
    after = next(a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a["id"] == atom["id"])
    assert after["confidence"] == atom["confidence"] != "verified"
    assert atom["id"] not in {e["id"] for e in gm_json(project, "promote")["eligible"]}


# --- hook: help for people, silence for Claude Code ---------------------------------------------


def _errors_log(repo: Path) -> list[str]:
    path = repo / ".git" / "agent-memory" / "errors.log"
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_hook_help_prints_the_usage_and_logs_nothing(project: Path, flag: str) -> None:
    proc = gm(project, "hook", flag)
    assert proc.stdout.startswith("usage: git memory hook") and "session-start" in proc.stdout
    assert proc.stderr == "" and _errors_log(project) == []
    assert gm_json(project, "status")["errors"] == []


@pytest.mark.parametrize("argv", [["hook"], ["hook", "session-start", "-x"], ["hook", "no-such-event", "--x"],
                                  ["hook", "--cwd"]])
def test_any_other_bad_hook_argument_is_exit_0_silent_and_one_log_line(project: Path, argv: list[str]) -> None:
    proc = gm(project, *argv, input_text="{}")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    logged = _errors_log(project)
    assert len(logged) == 1 and "hook: bad arguments" in logged[0]


@pytest.mark.parametrize(("argv", "stdout"), [(["hook", "-h"], "usage: git memory hook"),
                                              (["hook", "session-start", "-x"], "")])
def test_the_launcher_leaves_a_flag_to_the_parser(project: Path, argv: list[str], stdout: str) -> None:
    """scripts/git-memory (what git runs) has a hook fast path of its own, before main."""
    launcher = Path(__file__).resolve().parent.parent / "scripts" / "git-memory"
    env = {**os.environ, "PYTHONPATH": str(launcher.parent.parent)}
    proc = subprocess.run([sys.executable, str(launcher), *argv], cwd=project, capture_output=True, text=True,
                          input="{}", env=env)
    assert proc.returncode == 0 and proc.stdout.startswith(stdout) and proc.stderr == ""
    assert len(_errors_log(project)) == (0 if stdout else 1)


def test_help_explains_every_documented_verb_hook_included(tmp_path: Path) -> None:
    proc = gm(tmp_path, "help", "hook")
    assert "git memory hook EVENT" in proc.stdout and "always exits 0" in proc.stdout
    # still not one people run: the manual and `git memory -h` leave it out
    assert "git memory hook" not in gm(tmp_path, "help").stdout


# --- argparse's errors: one line and a hint, like every other usage error ----------------------


@pytest.mark.parametrize(("argv", "what"), [
    (["log"], "git memory log: the following arguments are required: ID"),
    (["inspect", "--tier", "L9"], "git memory inspect: argument --tier: invalid choice: 'L9'"),
    # an alias is named as typed, in the line and in the hint's usage (it said `git memory inspect`)
    (["show", "--tier", "L9"], "git memory show: argument --tier: invalid choice: 'L9'"),
    (["inspect", "--tier", "L1", "--contested"], "git memory inspect: argument --contested: not allowed with"),
    (["resolve", "X"], "git memory resolve: the following arguments are required: --keep"),
    (["capture", "--since"], "git memory capture: argument --since: expected one argument"),
    (["adopt", "--yes"], "git memory adopt: argument --yes: expected at least one argument"),
    (["status", "--output", "yaml"], "git memory status: argument --output: invalid choice: 'yaml'"),
    # an empty value is no value: it was taken as the flag not given (the overview, the
    # repository's store, a scratch folder)
    (["inspect", "--why", ""], "git memory inspect: argument --why: must not be empty"),
    (["validate", "--atoms", " "], "git memory validate: argument --atoms: must not be empty"),
    (["demo", "--dir", ""], "git memory demo: argument --dir: must not be empty"),
    (["extract", "--transcript", ""], "git memory extract: argument --transcript: must not be empty"),
    # an empty ID or transcript named "" itself (" is not waiting on memory/review") or, for
    # extract, the current folder (" is a directory, not a transcript")
    (["adopt", "--yes", ""], "git memory adopt: argument --yes: must not be empty"),
    (["pin", " "], "git memory pin: argument ID: must not be empty"),
    (["forget", ""], "git memory forget: argument ID: must not be empty"),
    (["supersede", "a", "--by", ""], "git memory supersede: argument --by: must not be empty"),
    (["extract", ""], "git memory extract: argument TRANSCRIPT: must not be empty"),
])
def test_a_usage_error_is_one_line_and_a_hint_with_the_usage(tmp_path: Path, argv: list[str], what: str) -> None:
    proc = gm(tmp_path, *argv, check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    first, hint = _one_line_and_a_hint(proc.stderr)
    assert first.startswith(what)
    verb = argv[0]
    assert hint.startswith(f"hint: usage: git memory {verb} ") and f"`git memory {verb} -h`" in hint


def test_a_mistyped_flag_names_its_verb_and_still_says_did_you_mean(tmp_path: Path) -> None:
    proc = gm(tmp_path, "inspect", "--teir", "L1", check=False)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == ["git memory inspect: unrecognized arguments: --teir L1",
                                        "did you mean '--tier'?", "hint: `git memory inspect -h` lists what it takes"]
    proc = gm(tmp_path, "show", "--teir", "L1", check=False)  # the alias, as typed
    assert proc.stderr.splitlines() == ["git memory show: unrecognized arguments: --teir L1",
                                        "did you mean '--tier'?", "hint: `git memory show -h` lists what it takes"]


def test_what_a_new_user_types_for_adopt_reject_and_unforget_gets_the_command(tmp_path: Path) -> None:
    """`git memory adopt ID` said only 'unrecognized argument'; `git memory reject ID` (an op
    `log` shows) got "did you mean 'redact'?". Each names the command that does it, which runs."""
    for argv, line, meant in (
        (["adopt", "atm_1234", "atm_5678"], "git memory adopt: unrecognized arguments: atm_1234 atm_5678",
         "--yes atm_1234 atm_5678"),
        (["reject", "atm_1234"], "git memory: 'reject' is not a git memory verb", "adopt --reject atm_1234"),
        (["unforget", "atm_1234"], "git memory: 'unforget' is not a git memory verb", "forget --undo atm_1234"),
    ):
        proc = gm(tmp_path, *argv, check=False)
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.splitlines()[:2] == [line, f"did you mean '{meant}'?"], proc.stderr
        command = meant.split() if argv[0] != "adopt" else ["adopt", *meant.split()]
        assert "unrecognized" not in gm(tmp_path, *command, check=False).stderr  # it parses
    # a near spelling still gets the nearest verb
    assert "did you mean 'redact'?" in gm(tmp_path, "redakt", check=False).stderr


def test_a_failure_of_an_alias_names_the_verb_as_typed(tmp_path: Path) -> None:
    """`git memory show` (the README's way to see every tier) reported its failures as
    `git memory inspect: …`, a verb the person did not type."""
    for output in ([], ["--output", "json"]):
        proc = gm(tmp_path, "show", *output, check=False)
        assert proc.returncode == 3
        first, hint = _one_line_and_a_hint(proc.stderr)
        assert first == f"git memory show: not a git repository: {tmp_path}", first
    assert json.loads(proc.stdout)["error"] == f"git memory show: not a git repository: {tmp_path}"
    proc = gm(tmp_path, "inspect", check=False)
    assert _one_line_and_a_hint(proc.stderr)[0].startswith("git memory inspect: not a git repository")


# --- init --project on a repository set up under another name ----------------------------------


def _registry(isolated_env: Path) -> str:
    return (isolated_env / ".claude" / "agent-memory" / "projects.json").read_text()


def test_init_with_another_project_name_is_refused_and_changes_nothing(repo: Path, isolated_env: Path) -> None:
    gm(repo, "init", "--yes", "--no-claude-hooks")
    registry = _registry(isolated_env)

    proc = gm(repo, "init", "--yes", "--no-claude-hooks", "--project", "renamed", check=False)

    assert proc.returncode == 1 and proc.stdout == ""
    first, hint = _one_line_and_a_hint(proc.stderr)
    assert "'proj'" in first and "separate memory" in first
    assert "git config memory.project renamed" in hint
    assert git(repo, "config", "memory.project").strip() == "proj" and _registry(isolated_env) == registry


def test_init_with_its_own_project_name_changes_nothing(repo: Path, tmp_path: Path) -> None:
    gm(repo, "init", "--yes", "--no-claude-hooks", "--project", "shared")
    again = gm_json(repo, "init", "--yes", "--no-claude-hooks", "--project", "shared")
    assert again["changed"] == {} and again["project"] == "shared"
    # A second repository wanting the name gets it made unique; asking for it again is a re-run.
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q", "-b", "main")
    git(other, "commit", "-q", "--allow-empty", "-m", "initial")
    made = gm_json(other, "init", "--no-claude-hooks", "--project", "shared")["project"]
    assert made.startswith("shared-")
    assert gm_json(other, "init", "--no-claude-hooks", "--project", "shared")["changed"] == {}


def test_the_hint_to_start_over_under_another_name_works(repo: Path) -> None:
    gm(repo, "init", "--yes", "--no-claude-hooks")
    gm(repo, "deinit")
    git(repo, "config", "memory.project", "renamed")
    assert gm_json(repo, "init", "--yes", "--no-claude-hooks")["project"] == "renamed"
    assert git(repo, "config", "memory.project").strip() == "renamed"
    assert gm_json(repo, "init", "--yes", "--no-claude-hooks", "--project", "renamed")["changed"] == {}


# --- a missing folder or file is bad input, for every verb that reads one -----------------------


@pytest.mark.parametrize("argv", [["validate", "--auto-memory"], ["scan", "--auto-memory"], ["extract", "--auto-memory"],
                                  ["consolidate", "--auto-memory"], ["validate", "--atoms"]])
@pytest.mark.parametrize("output", [[], ["--output", "json"]])
def test_a_missing_path_is_exit_2_said_once(project: Path, argv: list[str], output: list[str]) -> None:
    proc = gm(project, *argv, str(project / "nonexistent"), *output, check=False)
    assert proc.returncode == 2
    first, _ = _one_line_and_a_hint(proc.stderr)
    assert first.startswith(f"git memory {argv[0]}: ") and "nonexistent" in first
    if output:  # the one JSON object is the error (see the --output json tests below)
        assert json.loads(proc.stdout)["error"] == first
    else:
        assert proc.stdout == ""


def test_validate_auto_memory_of_a_file_is_bad_input(project: Path) -> None:
    proc = gm(project, "validate", "--auto-memory", str(project / "README.md"), check=False)
    assert proc.returncode == 2 and "is not a folder" in _one_line_and_a_hint(proc.stderr)[0]


def test_validate_auto_memory_says_each_finding_once(project: Path, tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "note.md").write_text("no index links me\n")
    proc = gm(project, "validate", "--auto-memory", str(folder), check=False)
    assert proc.returncode == 1
    assert sum("MEMORY.md not found" in line for line in proc.stdout.splitlines()) == 1
    (folder / "MEMORY.md").write_text("- [note](note.md)\n")
    proc = gm(project, "validate", "--auto-memory", str(folder))
    assert proc.stdout.splitlines().count("ok") == 1


def test_validate_atoms_and_auto_memory_together_report_both(project: Path, tmp_path: Path) -> None:
    bad = tmp_path / "atoms.json"
    bad.write_text('{"id": "atm_00000000"}')
    folder = tmp_path / "memory"
    folder.mkdir()
    proc = gm(project, "validate", "--atoms", str(bad), "--auto-memory", str(folder), "--output", "json", check=False)
    errors = json.loads(proc.stdout)["errors"]
    assert proc.returncode == 1
    assert any("MEMORY.md not found" in e for e in errors) and any(e.startswith("[0]") for e in errors)


# --- a repository agent-memory is not set up in is exit 3 -------------------------------------


@pytest.mark.parametrize("argv", [["context"], ["stale"], ["consolidate"], ["pin", "x"], ["unpin", "x"],
                                  ["decay", "x"], ["supersede", "a", "--by", "b"], ["status"]])
@pytest.mark.parametrize("output", [[], ["--output", "json"]])
def test_a_verb_in_a_repository_not_set_up_is_exit_3(repo: Path, argv: list[str], output: list[str]) -> None:
    proc = gm(repo, *argv, *output, check=False)
    assert proc.returncode == 3
    first, hint = _one_line_and_a_hint(proc.stderr)
    assert first == f"git memory {argv[0]}: agent-memory is not initialised in this repository (no memory/atoms branch)"
    assert hint == "hint: run `git memory init`"


def test_status_before_init_is_exit_3_and_still_names_a_stale_lock(repo: Path) -> None:
    """status said "not initialised" with exit 0 (`initialised: false`): a script took that for
    success. Exit 3 like every verb; a lock a killed first capture left (what the next init
    trips on) is named in the hint, to remove before init."""
    proc = gm(repo, "status", "--output", "json", check=False)
    assert proc.returncode == 3 and json.loads(proc.stdout)["hint"] == "run `git memory init`"
    lock = repo / ".git" / "refs" / "heads" / "memory" / "atoms.lock"
    lock.parent.mkdir(parents=True)
    lock.write_text("")
    os.utime(lock, (1_000_000_000, 1_000_000_000))
    proc = gm(repo, "status", check=False)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 3 and proc.stdout == ""
    assert lines == ["git memory status: agent-memory is not initialised in this repository (no memory/atoms branch)",
                     f"hint: if no git command is running in this repository, remove it: rm '{lock}'; then run `git memory init`"]


def test_the_session_start_hook_stays_silent_where_context_is_exit_3(repo: Path) -> None:
    proc = gm(repo, "hook", "session-start", input_text=json.dumps({"cwd": str(repo), "session_id": "s"}))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_a_clone_with_committed_memory_and_no_memory_atoms_still_works(repo: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from test_adopt import init_project, stage_claims

    ids = stage_claims(init_project(repo, monkeypatch))
    gm(repo, "adopt", "--all")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    assert git(clone, "branch", "--list", "memory/atoms") == ""
    assert gm_json(clone, "context")["l2"] == len(ids)
    assert gm(clone, "stale", check=False).returncode in (0, 1)
    assert gm(clone, "consolidate").returncode == 0
    assert gm_json(clone, "pin", next(iter(ids.values())))["op"] == "pin"


# --- --output json: exactly one JSON object on stdout, failures included ------------------------


def _error_object(proc: subprocess.CompletedProcess[str]) -> dict[str, object]:
    """The JSON object on stdout says what stderr says: the error line, the hint, the exit code."""
    lines = proc.stderr.strip().splitlines()
    hint = next((line.removeprefix("hint: ") for line in lines if line.startswith("hint: ")), None)
    assert json.loads(proc.stdout) == {"error": lines[0], "hint": hint, "exit": proc.returncode}
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("status", [0, 1])
def test_verify_with_a_check_that_prints_bytes_that_are_not_utf8(project: Path, status: int) -> None:
    """A test binary's output is any bytes: verify ended in an internal error (exit 3) decoding
    it, whether the check passed or failed. Now the check decides, as for any other output."""
    write_session(project, "eeeeeeee-0000-4000-8000-000000000003", "2026-11-01",
                  [{"user": "Never push directly to main; always open a pull request."}])
    gm(project, "capture", "--all", "--no-stage")
    atom = gm_json(project, "inspect", "--tier", "L1")["atoms"][0]
    proc = gm(project, "verify", atom["id"], "--by", f"printf '\\377\\376 checked\\n'; exit {status}", check=False)
    assert proc.returncode == (0 if status == 0 else 1), proc.stdout + proc.stderr
    assert "internal error" not in proc.stderr
    after = next(a for a in gm_json(project, "inspect", "--tier", "L1")["atoms"] if a["id"] == atom["id"])
    assert (after["confidence"] == "verified") == (status == 0)
    if status:
        assert "\ufffd\ufffd checked" in proc.stdout


def test_refusals_and_bad_input_under_output_json_print_one_object(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_adopt import init_project, stage_claims

    ids = stage_claims(init_project(repo, monkeypatch))
    gm(repo, "adopt", "--all")
    first, second = list(ids.values())[:2]
    gm(repo, "pin", first)
    gm(repo, "decay", second)
    gm(repo, "supersede", second, "--by", first)
    for argv in (["pin", first], ["decay", first], ["supersede", second, "--by", first], ["pin", "atm_ffffffff"],
                 ["log", "atm_ffffffff"], ["forget", "nothing like it"], ["verify", first, "--by", ""],
                 ["init", "--project", "other"]):
        proc = gm(repo, *argv, "--output", "json", check=False)
        assert proc.returncode in (1, 2), argv
        assert _error_object(proc)["error"] == proc.stderr.splitlines()[0], argv


@pytest.mark.parametrize("argv", [["log"], ["inspect", "--tier", "L9"], ["status", "--bogus"], ["frobnicate"],
                                  ["status", "--output=json", "--bogus"]])
def test_usage_errors_under_output_json_print_one_object(tmp_path: Path, argv: list[str]) -> None:
    json_flag = [] if "--output=json" in argv else ["--output", "json"]
    proc = gm(tmp_path, *argv, *json_flag, check=False)
    assert proc.returncode == 2 and _error_object(proc)["exit"] == 2


def test_not_initialised_under_output_json_prints_one_object(repo: Path) -> None:
    proc = gm(repo, "context", "--output", "json", check=False)
    assert _error_object(proc) == {"error": "git memory context: agent-memory is not initialised in this repository "
                                            "(no memory/atoms branch)", "hint": "run `git memory init`", "exit": 3}


def test_a_failing_check_still_prints_its_own_report_only(project: Path) -> None:
    """verify, remember and validate report their failures as their own JSON: no second object."""
    write_session(project, "eeeeeeee-0000-4000-8000-000000000002", "2026-11-01",
                  [{"user": "Never push directly to main; always open a pull request."}])
    gm(project, "capture", "--all", "--no-stage")
    atom = gm_json(project, "inspect", "--tier", "L1")["atoms"][0]
    proc = gm(project, "verify", atom["id"], "--by", "false", "--output", "json", check=False)
    assert proc.returncode == 1 and json.loads(proc.stdout)["verified"] is False
    assert "error" not in json.loads(proc.stdout)


def test_text_output_prints_no_json_on_errors(repo: Path) -> None:
    proc = gm(repo, "context", check=False)
    assert proc.returncode == 3 and proc.stdout == ""
