"""Tools of one family do one job: the extractor reads a rejected command of one and a reason
naming another as a preference for the second, and the store reads two of them chosen for one
stated job as a contradiction. No imports: SessionStart's cold path reads this."""

from __future__ import annotations

# Interchangeable tools: a rejected command of one and a reason naming another is a preference
# for the second *over* the first ("use pnpm" on `npm install` → "Use pnpm, not npm").
FAMILIES = [
    {"npm", "yarn", "pnpm", "bun", "npx", "pnpx", "bunx"},
    {"pip", "pip3", "uv", "poetry", "pipenv", "conda", "pdm", "rye", "hatch"},
    {"python", "python3", "uv", "poetry"},
    {"pytest", "unittest", "nose", "tox", "nox"},
    {"jest", "vitest", "mocha", "ava"},
    {"docker", "podman", "nerdctl"},
    {"vim", "nvim", "nano", "emacs", "code"},
    {"make", "just", "task", "ninja"},
    {"curl", "wget", "httpie", "http"},
    {"black", "ruff", "autopep8", "yapf"},
    {"ruff", "flake8", "pylint", "pyflakes", "pycodestyle"},
    {"eslint", "biome", "oxlint"},
    {"prettier", "biome", "dprint"},
    {"brew", "apt", "apt-get", "port", "nix"},
    {"rg", "ripgrep", "grep", "ag", "ack"},
    {"fd", "find"},
    {"node", "bun", "deno"},
    {"httpx", "requests", "aiohttp", "urllib3"},
    {"mypy", "pyright", "pyre"},
    {"webpack", "vite", "rollup", "esbuild", "parcel", "turbopack"},
]
# Every tool a family names, once: what the extractor reads as a known tool's name.
KNOWN_TOOLS = frozenset(tool for family in FAMILIES for tool in family)
# Tools of one family that one job uses together: two names of one tool, or a tool and the
# runner that drives it ("Use pytest for tests" and "Use tox for tests" both hold: tox runs
# pytest). Two of them chosen for one job are no contradiction (store/contradictions.py).
TOGETHER = frozenset(
    frozenset(pair)
    for pair in [
        ("pip", "pip3"), ("python", "python3"), ("rg", "ripgrep"), ("apt", "apt-get"), ("http", "httpie"),
        ("npm", "npx"), ("pnpm", "pnpx"), ("bun", "bunx"),
        *((runner, tool) for runner in ("tox", "nox") for tool in ("pytest", "unittest", "nose")),
    ]
)
# Rival styles of one thing, named in one or two words: two chosen for one job contradict as two
# tools of one family do ("Use single quotes for strings" vs "Use double quotes for strings",
# "Use tabs for indentation" vs "Use spaces for indentation"). Kept apart from FAMILIES: the
# extractor reads those as tools' names, and these are no tools.
STYLE_RIVALS = [
    {"single quotes", "double quotes"},
    {"tabs", "spaces"},
    {"camelcase", "snake_case", "pascalcase", "kebab-case"},
]
STYLE_NAMES = frozenset(name for rivals in STYLE_RIVALS for name in rivals)
