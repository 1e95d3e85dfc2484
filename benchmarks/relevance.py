"""Does per-prompt recall inject only what is relevant? (issue 14 §1)

A hand-written store of 40 candidate atoms of a typical web/Python project, and 60 prompts of
our own: 36 that should bring specific atoms (labelled by id), 24 that no atom answers
("how do I deploy to prod" with no deployment atom in the store, chit-chat, unrelated work),
which must get nothing injected at all. Scored through the real index and `score.recall`
(the hook's code), with the adopted-memory filter off. Prints:

- precision@5: of the atoms injected for the related prompts (at most 5 each), the share that
  are labelled relevant;
- recall: the share of labelled atoms that were injected;
- silence: the share of unrelated prompts that got nothing injected;
- with -v, every prompt with what it got.

    python benchmarks/relevance.py [-v]
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from agent_memory.model.atom import atom_id
from agent_memory.store.recall import build as recall_build
from agent_memory.store.recall.score import recall

PROJECT = "shop"
NOW = time.time()

# key → (kind, claim, the user's words it came from)
ATOMS: dict[str, tuple[str, str, str]] = {
    "pnpm": ("preference", "Use pnpm, not npm", "no, use pnpm not npm, we have a pnpm lockfile"),
    "frozen": ("constraint", "Always install with pnpm install --frozen-lockfile in CI", "in CI always install with --frozen-lockfile"),
    "vitest": ("fact", "Tests run with vitest, not jest", "we run the tests with vitest, not jest"),
    "pytest-x": ("preference", "Run pytest with -x -q while iterating", "run pytest -x -q while you iterate"),
    "no-sleep": ("constraint", "Never use sleep in tests; freeze the clock instead", "never sleep in tests, freeze time"),
    "black": ("preference", "Format Python with black, line length 100", "format with black at 100 columns"),
    "prettier": ("preference", "Format TypeScript with prettier, single quotes", "prettier with single quotes please"),
    "ruff": ("constraint", "Run ruff check before committing Python changes", "always run ruff before you commit"),
    "mypy": ("constraint", "Keep mypy strict mode passing on the backend", "mypy strict has to stay green"),
    "main": ("constraint", "Never push directly to main; open a pull request", "never push to main, open a PR"),
    "squash": ("preference", "Squash-merge pull requests", "we squash merge PRs"),
    "commits": ("preference", "Write commit messages in the imperative mood", "commit messages in imperative mood"),
    "branch": ("fact", "The default branch is main", "our default branch is main"),
    "postgres": ("fact", "The database is Postgres 16, run locally with docker compose", "db is postgres 16 in docker compose"),
    "alembic": ("constraint", "Create database migrations with alembic revision --autogenerate", "use alembic autogenerate for migrations"),
    "no-raw-sql": ("constraint", "Do not write raw SQL in request handlers; use the repository layer", "no raw SQL in handlers, go through the repository layer"),
    "port": ("fact", "The API server listens on port 8080 in development", "the API runs on 8080 locally"),
    "vite-port": ("fact", "The frontend dev server runs on port 5173", "vite dev server is on 5173"),
    "env": ("constraint", "Never commit .env files; add new settings to .env.example", "don't commit .env, update .env.example"),
    "httpx": ("preference", "Use httpx, not requests, for HTTP calls in Python", "use httpx instead of requests"),
    "pydantic": ("decision", "Validate request bodies with pydantic models", "request validation goes through pydantic models"),
    "logging": ("preference", "Log with structlog, one JSON event per line", "use structlog, json lines"),
    "errors": ("constraint", "Error messages shown to users must not leak stack traces", "never show stack traces to users"),
    "tailwind": ("decision", "Style the frontend with Tailwind utility classes, no CSS modules", "tailwind only, no css modules"),
    "react-query": ("decision", "Fetch server data in React with TanStack Query", "use tanstack query for fetching"),
    "storybook": ("fact", "UI components are documented in Storybook", "components live in storybook"),
    "changelog": ("constraint", "Update CHANGELOG.md for every user-facing change", "update the changelog for user-facing changes"),
    "docs": ("fact", "API documentation is generated from the OpenAPI schema", "the API docs come from the openapi schema"),
    "flaky": ("failure", "The checkout e2e test is flaky when Redis is slow to start", "checkout e2e flakes when redis starts slow"),
    "node": ("fact", "The project needs Node 22", "we're on node 22"),
    "python": ("fact", "The backend targets Python 3.12", "backend is python 3.12"),
    "uv": ("preference", "Manage Python dependencies with uv, not pip", "use uv not pip"),
    "feature-flags": ("decision", "Feature flags are read at startup, not per request", "flags are read once at startup"),
    "i18n": ("constraint", "All user-visible strings go through the i18n catalog", "every UI string through i18n"),
    "money": ("constraint", "Store money amounts as integer cents, never floats", "money in integer cents, never floats"),
    "timezones": ("constraint", "Store timestamps in UTC and convert only for display", "UTC in the db, convert on display"),
    "api-versioning": ("decision", "Version the public API in the URL path (/v1/)", "version the API in the path, /v1"),
    "review": ("preference", "Keep pull requests under 400 changed lines", "keep PRs under 400 lines"),
    "secrets": ("constraint", "Read secrets from the environment, never hard-code them", "secrets come from env vars, never hardcode"),
    "monorepo": ("fact", "The frontend lives in web/ and the backend in api/", "frontend is in web/, backend in api/"),
}

RELATED: list[tuple[str, set[str]]] = [
    ("install the dependencies", {"pnpm", "uv", "frozen"}),
    ("add lodash to the frontend", {"pnpm"}),
    ("the CI install step is failing", {"frozen", "pnpm"}),
    ("run the tests for the cart component", {"vitest"}),
    ("write a unit test for the price formatter", {"vitest", "no-sleep"}),
    ("this test waits two seconds for the timer, can you fix it", {"no-sleep"}),
    ("pytest keeps running the whole suite, how do I stop at the first failure", {"pytest-x"}),
    ("format this python file", {"black", "ruff"}),
    ("reformat the typescript in web/src", {"prettier"}),
    ("fix the lint errors", {"ruff"}),
    ("mypy is complaining about the user model", {"mypy"}),
    ("push this to main", {"main", "branch"}),
    ("open a pull request for the refactor", {"main", "squash", "review"}),
    ("write a commit message for these changes", {"commits"}),
    ("which branch should I base my work on", {"branch", "main"}),
    ("how do I connect to the local database", {"postgres"}),
    ("add a migration for the orders table", {"alembic"}),
    ("write the SQL query for the orders endpoint handler", {"no-raw-sql"}),
    ("what port does the API server use locally", {"port"}),
    ("the vite dev server won't start", {"vite-port"}),
    ("add a new setting for the payment provider key", {"env", "secrets"}),
    ("call the shipping API from the backend", {"httpx"}),
    ("validate the request body of the signup endpoint", {"pydantic"}),
    ("add logging to the checkout service", {"logging"}),
    ("show a nice error message when the payment fails", {"errors", "i18n"}),
    ("style the new settings page", {"tailwind"}),
    ("fetch the order history in the React page", {"react-query"}),
    ("document the new Button component", {"storybook"}),
    ("we just shipped the discount feature, what else do I need to update", {"changelog"}),
    ("why is the checkout e2e test failing on CI", {"flaky"}),
    ("which node version do we use", {"node"}),
    ("upgrade the backend to the newest python", {"python"}),
    ("add a feature flag for the new checkout", {"feature-flags"}),
    ("store the refund amount on the order", {"money"}),
    ("save when the order was shipped", {"timezones"}),
    ("add a new public API endpoint for invoices", {"api-versioning"}),
]

UNRELATED: list[str] = [
    "how do I deploy to prod",
    "what's the weather like in Paris today?",
    "summarise this paragraph in two sentences",
    "thanks, that looks good",
    "explain what a monad is",
    "translate 'good morning' into Spanish",
    "write a haiku about autumn",
    "what is the time complexity of quicksort",
    "rename the variable x to count in this function",
    "why is the sky blue",
    "can you explain this regular expression",
    "generate a random password generator in bash",
    "what does this error mean: segmentation fault",
    "continue",
    "yes, go ahead",
    "how do I center a div",
    "convert this json to yaml",
    "who won the world cup in 2018",
    "make the function recursive",
    "what is the capital of Australia",
    "set up a kubernetes cluster on my laptop",
    "write a cover letter for a job application",
    "how many days until christmas",
    "tell me a joke",
]


def make_atoms() -> dict[str, dict[str, Any]]:
    out = {}
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(NOW - 3 * 86400))
    for number, (key, (kind, claim, quote)) in enumerate(ATOMS.items()):
        session = f"{number:08x}-0000-4000-8000-000000000000"
        source = f"~/.claude/projects/-home-dev-{PROJECT}/{session}.jsonl#L{number + 1}"
        out[key] = {
            "id": atom_id(claim, PROJECT), "claim": claim, "scope": "project", "project": PROJECT,
            "kind": kind, "first_seen": stamp, "last_seen": stamp, "observations": 1,
            "sessions": [session], "source": source, "first_source": source,
            "confidence": "stated", "tier": "L1", "redacted": False,
            "evidence": [{"source": source, "at": stamp, "session": session, "quote": quote,
                          "rule": "directive.always_never"}],
        }  # fmt: skip
    return out


def run(verbose: bool) -> dict[str, float]:
    atoms = make_atoms()
    key_of = {a["id"]: key for key, a in atoms.items()}
    index = recall_build.build_index(list(atoms.values()), "")
    injected = relevant_injected = expected_total = expected_found = 0
    for prompt, wanted in RELATED:
        hits = recall(index, prompt, NOW)
        got = [key_of[h.id] for h in hits]
        injected += len(got)
        relevant_injected += sum(1 for g in got if g in wanted)
        expected_total += len(wanted)
        expected_found += len(wanted & set(got))
        if verbose:
            mark = "ok " if wanted & set(got) and set(got) <= wanted else "   "
            print(f"{mark}{prompt!r}: {got} (wanted {sorted(wanted)})")
    silent = 0
    for prompt in UNRELATED:
        hits = recall(index, prompt, NOW)
        silent += not hits
        if verbose:
            print(f"{'ok ' if not hits else '   '}{prompt!r}: {[key_of[h.id] for h in hits]}")
    return {
        "precision@5": relevant_injected / injected if injected else 1.0,
        "recall": expected_found / expected_total,
        "silence": silent / len(UNRELATED),
        "injected": injected,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    figures = run(args.verbose)
    print(f"{len(ATOMS)} atoms, {len(RELATED)} related prompts, {len(UNRELATED)} unrelated prompts")
    print(f"precision@5 (share of injected atoms that are relevant): {figures['precision@5']:.2f} "
          f"({int(figures['injected'])} injected)")  # fmt: skip
    print(f"recall (share of labelled atoms injected): {figures['recall']:.2f}")
    print(f"unrelated prompts with nothing injected: {figures['silence']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
