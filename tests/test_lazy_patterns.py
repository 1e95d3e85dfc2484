"""Patterns compiled on first use (agent_memory/redact/regex.py): the extraction rules' import
is paid by every capture and `remember` process (0.45 s of compiling 672 patterns, most of
which never fire on one session's text), and a pattern held in a rule table must not cost a
Python call on every use."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from agent_memory.redact.regex import LazyCompiler

ROOT = str(Path(__file__).resolve().parent.parent)


def test_importing_the_extraction_rules_compiles_none_of_their_module_patterns() -> None:
    code = (
        "import sys, re; sys.path.insert(0, sys.argv[1]); import agent_memory.extract.pipeline;"
        "mods = [m for n, m in sys.modules.items() if n.startswith('agent_memory.extract')];"
        "lazy = [k for m in mods for k, v in vars(m).items() if type(v).__name__ == '_LazyPattern'];"
        "eager = [m.__name__ + '.' + k for m in mods for k, v in vars(m).items()"
        "         if isinstance(v, re.Pattern)];"
        "print(len(lazy)); print(eager)"
    )
    proc = subprocess.run([sys.executable, "-c", code, ROOT], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lazy, eager = proc.stdout.splitlines()
    # a module-level pattern of the rules compiled at import is paid by every process
    assert eager == "[]", eager
    assert int(lazy) > 100


def test_a_pattern_held_in_a_table_is_compiled_once_and_then_used_directly() -> None:
    namespace: dict[str, object] = {}
    lazy = LazyCompiler(namespace)
    rule = lazy(r"\bnever\b", re.I)
    namespace["RULE"] = rule
    table = [rule]  # held elsewhere too: a registry entry, a name another module imported
    assert table[0].search("Never push to main") is not None
    assert namespace["RULE"] is not rule and isinstance(namespace["RULE"], re.Pattern)
    # the compiled pattern's bound method is kept on the stand-in: no __getattr__ call again
    assert "search" in vars(table[0])
    assert table[0].search("always push") is None
    assert table[0].pattern == r"\bnever\b" and table[0].flags & re.I
