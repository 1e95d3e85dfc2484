"""Shapes of the directive and situation rules that misfired on brand-new strangers, judged
strictly (notes/29-fresh6.md, notes/29-en6.md). Every sentence is our own; each step-at-hand
case yields nothing, and the durable statement of the same surface shape still gives its atom."""

from __future__ import annotations

import pytest

from agent_memory.extract.statement import extract_claims

STEP_AT_HAND = [
    # "let's not X": a proposal for the work at hand, as "let's add X" is
    "let's not log request bodies",
    "let's not cache avatar thumbnails",
    "let's not use sqlite here",
    # "don't you …" asks (a slip of "you" included); it forbids nothing
    "none of those, don't you see the tags?",
    "not those, please don't yuo see all the brackets?",
    # a bare pronoun as the object names nothing, even with a scope after it
    "I don't want to allow it for any write route",
    "I dont want them in every list",
    "don't enable it for any admin page",
    # a determiner and an adjective with no noun: a fragment pointing at the thing at hand
    "NOTE: keep old, DO NOT DELETE ANY EXISTING",
    "don't rename any existing",
    "never remove any remaining",
    # "we no longer need X": take a piece of the code out in this task
    "we no longer need to send the page size when loading the feed",
    "we don't need the dark mode toggle anymore",
    "we no longer need the retry wrapper",
    # "I never X" / "we always X" describing the speaker, or giving the reason of the work
    # asked in the clause before: no rule for the assistant
    "I'm a curious person, I never stop",
    "I never stop",
    "we always ship",
    "we should delete the legacy router, we always need a router",
    "I'm a tinkerer, I always explore new tools",
    # dropping a definite piece of the code at hand: a step, not a decision of the project
    "we should drop the old sidebar, we always need a sidebar",
    "let's drop the legacy header",
    "we should drop the deprecated banner entirely",
    # a dislike followed by a change offered for the thing at hand: a reaction to the screen
    "I don't like orange links on dark cards, maybe make them blue",
    "I don't like grey icons on the toolbar, make them white",
    "I don't like thin borders around the table. Could you change the colours?",
    # "change X to be - N": the word after "to" is a verb, not the tool chosen
    "can we change dev to be - 2 days as well",
    "could you change preview to be - 3 hours",
    # "keep them <doing>": something going on, no rule named
    "I have lots of drafts, I want to keep them moving, not start over",
    # what the product being built shows: a spec of the screen at hand
    "always show the total in the footer row",
    "never show the promo banner to logged-in users",
    "do not display the unread count on mobile",
    "we should always render a skeleton while loading the list",
    # a prohibition right after "never mind": a correction of the step being taken
    "never mind, don't run the migration",
    "nvm, do not bump versions",
    # an always/never rule on an "it" no clause named
    "I always run it twice to be sure",
    "always test it before pushing",
    # "we no longer use the <thing>": a piece of what is being built, taken out
    "we no longer use the sidebar for navigation",
    "we no longer support the old import format, drop the parser",
    # a choice or rule about "the existing/old/current X": a piece of the code at hand
    "I'd rather you use the existing helper here",
    "we're using the old API in the settings page",
    "never call the current endpoint for the export",
    # "avoid a <thing>": one thing of this build
    "avoid a second request in the loader",
    "avoid an extra render in the list",
    # "I don't want <people> to <verb>": what the product lets them do, a spec
    "I don't want guests to edit posts",
    "I don't want visitors to see draft prices",
    # "we should X" hedged or said unsure: a suggestion still being weighed, no decision
    "maybe we should use MinIO for local storage",
    "we should probably migrate to Postgres",
    "perhaps we should use Redis for the queue",
    "we should use gRPC for the sync service but not sure",
    # "use <this thing> as <role>": the material at hand put to a use in this task
    "use this as the base",
    "use that file as the template",
    "use my notes as the spec",
    "In this function, use a set as the cache",  # a data structure of this code
    # "always follow/use the <instructions/plan/…>": the ones of this conversation, unnamed
    "copy the helper over, then rename it. Always follow the instructions/steps.",
    "always follow the plan",
    "always use the same",
    "always stick to the pattern",
    # "we need to write a script that …": a job of this turn, not a product being built
    "We need to write a script that renames all invoices with a `draft` status",
    "I want to write a script that deletes the stale branches",
    # a plain don't joined to a request to go on with the work bounds that work
    "carry on with the upgrade and do not edit the .env file",
    "remember to stash your changes first",
    "the flag is set, but never used",  # the tail of a description
    # "I just need to know …" says this turn wants an answer: the don't before it is this turn's
    "i don't want you to make any edits to the deploy script! I just need to know how to run it",
    "I don't want you to touch the schema, I just want to understand the error",
    "keep going with the port, don't touch the old handlers",
    # "in the future" inside a purpose clause bounds the purpose, it makes no standing rule
    "move on to the migration and drop the old config table to not get confused in the future",
    "rename the flags so that nobody mixes them up in the future",
    # a value shown by its shape (こんな形の…), not a tool in use
    "`redis://user:[PASSWORD]@cache.example.net:6379/0`こんな形のやつ使ってる",
    "`mysql://root:[PASS]@db.example.org:3306/app`こういう感じのを使ってる",
]


@pytest.mark.parametrize("text", STEP_AT_HAND)
def test_statements_about_the_step_at_hand_yield_nothing(text: str) -> None:
    assert extract_claims(text) == [], extract_claims(text)


DURABLE = [
    ("Let's not use Kafka", "Kafka"),
    ("let's not ever log tokens in this repo", "tokens"),
    ("I don't want you to use mocks in integration tests", "mocks"),
    ("don't enable telemetry for any environment", "telemetry"),
    ("I don't want to make it depend on my shell setup", "shell"),
    ("do not modify any existing migrations", "migrations"),
    ("we no longer use Heroku, we deploy on Fly now", "Heroku"),
    ("we don't use Jenkins anymore", "Jenkins"),
    ("we no longer support Python 2", "Python 2"),
    ("I never use semicolons in JavaScript", "semicolons"),
    ("yes, I always use pnpm", "pnpm"),
    ("btw, we never push to main", "main"),
    ("I'm on Arch, I always use zsh", "zsh"),  # where the speaker is: setup, not self-description
    ("we're using bun, we never use yarn", "yarn"),
    ("we always need a changelog entry for user-facing changes", "changelog"),
    ("we should always use pnpm, we never use npm", "npm"),
    ("let's drop moment.js", "moment.js"),
    ("I don't like tabs, use spaces everywhere", "tabs"),
    ("I don't want emojis in commit messages, make the messages plain", "emojis"),
    ("I don't like long functions", "long functions"),
    ("change redux to zustand", "zustand"),
    ("keep all tests passing", "tests passing"),
    ("keep it cross-platform", "cross-platform"),
    ("never show me the whole file, just the diff", "whole file"),
    ("always show your reasoning", "reasoning"),
    ("never hide errors", "errors"),
    ("never mind, never push to main without a review", "push"),
    ("the seed script wipes the db, so never run it against prod", "seed script"),
    ("always run it on every push", "every push"),
    ("always use the date helper from utils", "date helper"),
    ("don't modify existing migrations", "migrations"),
    ("avoid any in TypeScript", "any"),
    ("I don't want claude to push to main", "push"),
    ("I don't want agents to commit without review", "commit"),
    ("we should use Postgres for every service", "Postgres"),
    # a tool given its standing role in the project, as "use X for <job>" names its job
    ("use pdm as the package manager", "pdm"),
    ("use MariaDB as our database", "MariaDB"),
    # the named guide or template still makes a rule
    ("Always follow the style guide in docs/STYLE.md", "style guide"),
    ("always use the template in docs/pr.md", "template"),
    ("we're building a script runner for CI jobs", "script runner"),
    ("I'm building a script that backs up my photos to S3 every night", "photos"),
    ("`uv` を使っています", "uv"),
    ("always squash commits in the future", "squash"),
    ("in the future, run the linter before pushing", "linter"),
    ("please use tabs in the future so that the diffs stay small", "tabs"),  # the reason follows
    # "… first" is a step of this task, unless it is said to last: then the order is the rule
    ("from now on write the tests first", "tests first"),
    ("henceforth write tests first", "tests first"),
    # a never-rule after an instruction, joined by "but" (a tail only after a description)
    ("go on with the refactor, but never push to main", "push to main"),
    ("fix the tests, but never skip the hooks", "hooks"),
    ("I don't want emojis in commits. I just want plain text messages.", "emojis"),
    ("never push to main. I just want to know if CI passes.", "push to main"),
    # "not to" after try/make sure/be careful is the rule's own negation, not a purpose; and a
    # purpose clause bounds "in the future" only, "from now on" still scopes the whole request
    ("please try not to use emojis in the future", "emojis"),
    ("be careful not to commit secrets in the future", "secrets"),
    ("make sure to not run the full suite from now on", "full suite"),
    ("wrap long lines so that they stay under 100 chars from now on", "long lines"),
    # a degree word (こんなに, そんなに) or a deixis after the particle is no shape of a value
    ("`Biome`はこんなに速いので使ってる", "Biome"),
    ("`vim`はそんなに好きじゃないけど使ってる", "vim"),
]


# "i use X you can remove Y": no comma, the request runs on from the fact; the fact ends there
@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("ugh i use tailwind you can remove all the custom css files", "User uses tailwind"),
        ("i use pnpm please fix the lockfile", "User uses pnpm"),
        ("i use neovim can you add the lua config", "User uses neovim"),
    ],
)
def test_a_tool_fact_ends_where_the_request_runs_on(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


# a request word right after "use" is no run-on yet: nothing of the fact may be cut away
@pytest.mark.parametrize("text", ["i use please to build the monorepo", "i use plz for builds"])
def test_the_run_on_cut_leaves_the_fact_an_object(text: str) -> None:
    assert "User uses" not in [c.claim for c in extract_claims(text)]


# A scope opening the part after a semicolon bounds that part, not the request before it.
@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "go on with the upgrade; from now on, never edit the lockfile by hand",
            "Never edit the lockfile by hand",
        ),
        ("fix the build; from now on always run the linter first", "Always run the linter first"),
    ],
)
def test_a_scope_after_a_semicolon_bounds_its_own_part(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


@pytest.mark.parametrize(("text", "word"), DURABLE)
def test_durable_statements_of_those_shapes_are_kept(text: str, word: str) -> None:
    claims = [c.claim for c in extract_claims(text)]
    assert any(word in claim for claim in claims), claims


@pytest.mark.parametrize(
    "text",
    [
        "Remove the deprecated flag in the future because it will break on v3.",
        "Please rename this helper in the future since nobody understands it.",
    ],
)
def test_a_change_put_off_to_the_future_with_its_reason_is_no_rule(text: str) -> None:
    # 'in the future' before 'because / since' scopes a way of working ('use ruff in the future
    # because flake8 is slow'); a one-off change put off for later is a to-do, not a rule
    assert extract_claims(text) == []


# A politeness word in a noun's place is the noun: the build tool plz, a package please.build.
# Tidying the user's "please" away must not take the object a claim needs.
@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("I use plz for builds.", "User uses plz for builds"),
        ("we build with plz", "We build with plz"),
        ("i always use please.build", "Always use please.build"),
        ("Please never push to main", "Never push to main"),
        ("always run the tests please", "Always run the tests"),
        # right after a word that needs its object, the word is that object: kept whole, never
        # eaten to leave "Always deploy via"
        ("always deploy via please", "Always deploy via please"),
        ("always deploy via please, thanks", "Always deploy via please"),
        ("always use pnpm, please", "Always use pnpm"),
        # "…, trust me" vouches for the rule and is none of it (it read "…, trust the user")
        ("Always use pnpm, trust me.", "Always use pnpm"),
        ("never use npm, believe me!", "Never use npm"),
        ("Always verify, never just trust me", "Always verify; never just trust the user"),
        # an aside closing the sentence ("fwiw", "btw") is no part of the fact
        ("I'm on Fedora btw", "User is on Fedora"),
        ("never use the btw", "Never use the btw"),
    ],
)
def test_politeness_goes_but_a_noun_spelled_like_it_stays(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


# A polite request with a lasting scope is a rule, as the same request said plainly is; a
# question with one, a suggestion ("can we …?") or a question asked of Claude is not.
@pytest.mark.parametrize(
    ("text", "claims"),
    [
        ("can you use pnpm from now on?", ["Use pnpm"]),
        ("could you please use pnpm going forward?", ["Use pnpm"]),
        ("Can you reply in English from now on?", ["Answer in English"]),
        ("from now on can you use pnpm?", ["Use pnpm"]),
        ("going forward, could you use pnpm?", ["Use pnpm"]),
        ("from now on can we use pnpm?", []),
        ("from now on can you tell me the diff?", []),
        ("can you use pnpm?", []),
        ("can we use pnpm from now on?", []),
        ("should we use pnpm from now on?", []),
        ("can you tell me what changed from now on?", []),
        ("will it work from now on?", []),
        # a question the request words only open: a choice, Claude's own liking, whether it can
        ("would you use pnpm from now on or stick with npm?", []),
        ("will you use pnpm from now on, or should I set it up?", []),
        ("would you mind using pnpm from now on?", []),
        ("would you like to use pnpm from now on?", []),
        ("can you even use pnpm from now on?", []),
        ("can you still use npm from now on?", []),
        ("can you not use npm from now on?", []),
        # a question of its own asked after the request is no part of the rule
        ("can you use pnpm from now on, what do you think?", []),
        ("can you use pnpm from now on, is that possible?", []),
        ("can you use pnpm from now on, does that work?", []),
        ("can you use pnpm from now on, thoughts?", []),
        ("can you use pnpm from now on, please?", ["Use pnpm"]),
    ],
)
def test_a_polite_request_said_to_last_is_a_rule(text: str, claims: list[str]) -> None:
    assert [c.claim for c in extract_claims(text)] == claims
