"""No test skips on a condition that cannot hold where the tests are meant to run: a module of
this package that no longer exists (a test skipped "until it is importable" never runs again
after a rename), or a test dependency `pip install -e '.[test]'` installs (a missing one is a
broken environment to be told about, not a reason to pass quietly). Skips on the machine —
no root, no `man`, an old git — stay."""

from __future__ import annotations

import ast
import importlib.util
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBES = {"importorskip", "find_spec"}


def _declared_test_dependencies() -> set[str]:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0].strip() for spec in extras["test"]}
    return {name.lower().replace("-", "_") for name in names}


def _probed_modules() -> list[tuple[str, str, str]]:
    """(file:line, probe, module) for every `pytest.importorskip("m")` and `find_spec("m")`."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = (
                node.func.attr
                if isinstance(node.func, ast.Attribute)
                else getattr(node.func, "id", "")
            )
            first = node.args[0]
            if name in PROBES and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", name, first.value))
    return found


def test_no_test_waits_for_a_module_of_this_package_that_does_not_exist() -> None:
    missing = [(where, module) for where, _, module in _probed_modules()
               if module.split(".")[0] == "agent_memory" and importlib.util.find_spec(module) is None]  # fmt: skip
    assert missing == []


def test_no_test_skips_when_a_declared_test_dependency_is_missing() -> None:
    declared = _declared_test_dependencies()
    assert "pexpect" in declared  # the rule reads the real list
    skipping = [(where, module) for where, probe, module in _probed_modules()
                if probe == "importorskip" and module.split(".")[0].lower() in declared]  # fmt: skip
    assert skipping == []
