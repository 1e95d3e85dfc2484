"""Shapes that misfired on people the rules were never written from (issue 28, item 1): each
case is our own paraphrase of a shape, never a stranger's words. A statement about the step at
hand yields nothing; the durable statement of the same shape still does."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims

STEP_AT_HAND = [
    # an error pasted or quoted in this turn
    "I get this error when I press enter in the search box",
    "I'm getting these warnings when compiling",
    'I\'m getting "access denied" when I try to log in',
    # a bare "use X": what this step uses
    "ok use the flag",
    "okay use zq",
    "Use mergeLists instead",
    "just using 'tee' should do",
    "would you rewrite my shell config? using starship and zoxide",
    "Use src/widgets/spinner.tsx for loading state",
    # a prohibition about this step
    "don't commit the draft_notes.txt file",
    "no, don't touch the migrations",
    "don't add redis again",
    "Don't look too hard at the old handlers",
    "Do not do anything else",
    "I want to try it on staging without deploying to prod",
    "I don't want to point the loader at v2",
    "I don't want a cron job, I'll run it by hand",
    "I don't want the footer to have a grey border",
    "we should not return a string for the empty case but an enum",
    # a question, or a clause lifted from one
    "no type errors in the build output?",
    "all tests pass in this package?",
    "still no config.yaml found",
    # the look or behaviour of the thing being built
    "i want the sidebar to have icons on the left",
    "I really like https://example.org/",
    "I prefer the second layout a lot",
    "Keep it simple",
    "keep them locally",
    "Always use that pattern",
    # how things are this minute, or the code being edited
    "all of them are there",
    "all four services need to be on one branch",
    "because all Go modules are versioned",
    "the worker is started",
    "userId and orgId should not be optional",
    "our navbar is causing layout shifts",
    "since we use radio buttons for the filter panel",
    "we should use exactly the same setup in the plugin",
    "I want to use gh to re-run the failed job",
    "i renamed it to settings.toml",
    "the cli module is on a feature branch",
    "All the env vars should be visible in the admin ui",
    "Upgrade the sdk to 2.1 in all projects which still pin 1.9",
    # a consequent of a case, and a reaction to the option on the table
    "for local runs, so that if I build forks, I always use the internal npm mirror",
    "I would prefer a lot to inline it, but keep the calls",
    # a brief or a role prompt written for this task
    "Now add a tag filter to the list view.\n\nRequirements:\n- filter by one or more tags\n"
    "- keep the query logic modular\n- never break the existing sort order\n- do not rewrite "
    "unrelated files",
    "You are a senior accessibility reviewer with ten years of experience auditing dashboards. "
    "Never suggest removing a feature. Always explain each finding in one sentence. Keep the "
    "report short and group findings by page.",
    "Query failed: relation does not exist. Note: results were capped at 50 rows by the console. "
    "The job runs nightly from the scheduler and writes into the stats table, which I created by "
    "hand last week after the migration had failed twice on the staging box and once locally.",
    "Note: a limit of 50 rows was applied to your query.",
    "# Naming Standards\n\n> Enforced by the platform team.\n\n- Use snake_case for functions\n"
    "- Use PascalCase for classes\n- Never abbreviate module names\n- Prefer explicit imports "
    "over star imports in every package",
    "Approved. Proceed exactly as planned.\n\nInstructions:\n1. Apply changes only under docs/\n"
    "2. Do not introduce new tools\n3. Do not touch the changelog",
    "can you tidy the settings page and please dont change any behaviour of the form",
    "Ok, build the image and don't make mistakes",
    "never deploy now",
    "how would it work without using a queue.",
    "I'm building a new product",
    "write the notes down so that in future we will know",
    "The file is at D:\\exports\\march_sales.csv",
    "we use claude haiku or any other cheap model",
    "make sure all the totals are correct",
    "ensure every link on the pricing page opens",
    "Don't use a spinner, use the progress bar we have",
    "I don't want to include a chat widget, just the summary",
    "Do not implement phase 2 yet, only steps 1-3",
    "Keep all the colour settings exactly as they are",
    "lets do slice 4",
    "The .log file is located at /var/tmp/run.log",
    "the notes are in my Downloads folder",
    "allows me to step through all the pages",
    "the cache is reachable from the worker",
    "I dont want csv files, I just want a script that updates the table",
    "Continue the work on the exporter at ~/code/exporter.\n\nWhat's done:\n- the parser\n"
    "- the writer\n- the CLI flags\n\nNext steps:\n- never skip the QA pass\n"
    "- keep the API backwards compatible",
    "The upload keeps timing out. Please change uploader.py to:\n\nUse retries for all requests.\n\n"
    "Never send more than 5 MB per chunk.",
    "<observed_from_primary_session>\n  <what_happened>Read</what_happened>\n</observed_from_"
    "primary_session>\nNever reply with prose outside the XML.",
    "no make sure the margin value is right",
    "No devices are connected to the hub",
    "the original page uses a sticky header",
    "For files inside the archive folder, mark them as legacy",
    "use the spec to understand. so you know the commands, etc",
    "the report looks fine, it can go on another page so I can add more reports in the future",
    "always will be pending",
    "Build failed. No Python version detected.",
    "remember this still needs to go into the archive",
    "remember needs to be sorted by date",
    "only test with a guest account, no admin",
    "only write the summary",
    "the subfolder is called 'LOGIC'",
    "Everything should be wired correctly",
    "Every marker should be detected automatically and zoomed in",
    "Using all the tools that we have in the lab folder, build a site",
    "KEEP all the spacing settings exactly as they are",
    "we should migrate now",
    "this is an integration test that needs a running server",
    "No schema flip. Add the nightly readiness check.",
    "no colours, and a white background",
    "ok use the v2 endpoint instead of v1 and test it",
    "I want to create a /deploy command that opens the admin extension",
    "I want to create a Figma plugin project with the following specifications",
    "1. **Decision** - ship the read path now.\n\n2. **Orders**\n- keep CI green\n- add the check\n"
    "- keep changes minimal and focused\n\n" + "Details of the plan follow. " * 30
    + "\n\nThat is all for this round.",
    "use the cheap model for the first pass and the big one for the rest, will it work",
    "Do one thing, use Postgres 16 not 15",
    "use the error messages from the log",
    # picks among options, reports, possibilities
    "lets go with compact",
    "Let's do three commits",
    "lets just use sed",
    "Let's use jq to pull the ids out",
    "I think I like Option B better",
    "it's clearly not right",
    "we can always drop the column later",
    "still dont get a notification at all",
    "no add the badge to the header too",
    "Do not consider me here",
    "No, please do not edit the fixtures, only the helper",
    "`parseRow` must return null for blank lines",
    "the badge here should be aligned to the right",
    "my laptop is getting swapped next week",
    "I want to build a nicer dashboard for my plugin",
    "I prefer you rewrite it as a class",
    # what something does, its subject left in the clause before (a stranger audit of the rules
    # of 2026-12-05, 64 people never read before: benchmarks/extraction_split.json)
    "It never validates the input and never escapes or encodes the HTML.",
    "The importer always touches the cache and always flushes it.",
    "Claude never reads my notes",
    "Claude always forgets the env file",
    # a third audit of the rules on the same 96 people (session 47): a rule under a case said
    # in the middle of a request, a link said first, what notes are for, a thing of this task
    # kept "as it is", a prohibition whose subject is put off to later, how a thing behaves
    "check the export job, if the report exists on s3, never regenerate the charts",
    "look at the sync step, if the file is already uploaded, don't upload it again",
    "https://www.figma.com/design/abcDEF123/Shop-Name?node-id=61-10 I will update it from here from now on",
    "read the whole module and then update your memory to deeply understand the parser",
    "do not border the logo, keep it original square.",
    "Do not test on integration cases, that will go in another session, just implement the parser.",
    "Do not add caching, that comes in a separate ticket",
    "パブリックIPアドレスは毎回変化することに対応したスクリプトにしてほしい",
    # what a thing being made does, said on in a relative clause after "and"
    "create a default team that will apply to all projects and always start when I prompt claude.",
    "write a script that will sync the folder and always log to stdout",
    # a prohibition bounded by the clause after it: a time not reached yet, the work so far
    "Don't use Map objects, they haven't learned this yet.",
    "Don't use ids, just add classes to them like you did for the other demos",
    # a bug said with "never": what happens to the speaker, no act to order
    "I never receive the confirmation email after signing up",
]


@pytest.mark.parametrize("text", STEP_AT_HAND)
def test_statements_about_the_step_at_hand_yield_nothing(text: str) -> None:
    assert extract_claims(text) == [], extract_claims(text)


DURABLE = [
    ("From now on, don't push without asking me first", "push"),
    ("Don't use `any`, type it properly", "any"),
    ("use uv for dependency management pls", "uv"),
    ("Use biome for formatting", "biome"),
    ("Always use pnpm", "pnpm"),
    ("I like Astro and Solid", "Astro"),
    ("I prefer plain sql queries", "sql"),
    ("I don't want any external dependencies", "dependencies"),
    ("Don't use the `legacy` module", "legacy"),
    ("Keep it simple and dependency free", "dependency"),
    ("im on a mac, when i switch keyboards the shortcuts break?", "mac"),
    ("I think we should run the linter on every push?", "push"),
    # plain facts about the user, said in passing (issue 28 item 3)
    ("im new to all this, so go step by step", "beginner"),
    ("I'm a total noob, explain what each command does", "beginner"),
    ("I'm a beginner with kubernetes", "kubernetes"),
    ("I'm a student", "a student"),
    ("I prefere to keep secrets in .env files", ".env"),
    ("let's go with SQLite", "SQLite"),
    ("lets go with flat config", "flat config"),
    ("ok let's do bun", "bun"),
    ("in future always run the formatter", "formatter"),
    ("Commit everything, use short and concise commit messages", "commit messages"),
    ("use descriptive variable names", "variable names"),
    ("I am building a flashcard app for language learners", "flashcard app"),
    ("No console.log calls in committed code", "console.log"),
    ("just so you know, the staging db is reset every night", "staging"),
    ("Let's not use an ORM", "ORM"),
    ("Make sure every commit has a ticket id", "ticket"),
    ("The design doc is in docs/architecture.md", "docs/architecture.md"),
    ("In the future, don't paste secrets in the chat", "secrets"),
    ("Always use tabs, never spaces", "tabs"),
    ("Claude should never force push", "force push"),
    # (a reason after the rule is no deferral, a case said first stays with the rule, a fact
    # before "keep them …" names what is kept)
    ("never push to main, that will break the deploy later", "Never push to main"),
    ("if you are unsure, never guess", "if you are unsure"),
    ("The API handlers live in src/handlers; keep them thin", "keep them thin"),
    ("update your memory to always use pnpm", "pnpm"),
    ("fix the parser and always run the tests", "Always run the tests"),
    ("Oh don't use Optional type hints, use `|`", "Optional"),  # an "oh" is no correction
    ("don't use yarn, we use pnpm", "pnpm"),
    ("コミットメッセージは常に英語で書いてください", "英語"),
]


# "don't X, but through Y": the route allowed is the other half of the rule; cut, the rule
# forbids X altogether.
ROUTE_ALLOWED = [
    ("do not read the schema as a text file, but through the mcp server",
     "Never read the schema as a text file, but through the mcp server"),
    ("never install packages globally, but with uv in a venv",
     "Never install packages globally, but with uv in a venv"),
]


@pytest.mark.parametrize(("text", "claim"), ROUTE_ALLOWED)
def test_the_route_allowed_stays_with_the_prohibition(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


# "yourself", "on your own" is who acts, not emphasis: dropped, the rule forbids the act
# itself ("don't deploy on your own, give me the command" became "Never deploy").
UNASKED = [
    ("Don't run git commands on your own, just tell me what to run", "Never run git commands on your own"),
    ("Never run the migrations yourself", "Never run the migrations yourself"),
    ("Don't merge by yourself, I review first", "Never merge by yourself"),
]


@pytest.mark.parametrize(("text", "claim"), UNASKED)
def test_who_is_to_act_stays_in_the_rule(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


@pytest.mark.parametrize(("text", "word"), DURABLE)
def test_durable_statements_of_those_shapes_are_kept(text: str, word: str) -> None:
    claims = [c.claim for c in extract_claims(text)]
    assert any(word in claim for claim in claims), claims
