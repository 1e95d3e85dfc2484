"""Plain facts people state about themselves and their setup (issue 28's misses): one registry
entry each (`extract/rules/user_facts.py`), and the task-at-hand look-alikes that must stay
silent. Sentences are our own paraphrases of the shapes, not anyone's prompts."""

from __future__ import annotations

import pytest

from agent_memory.extract.pipeline import extract_claims


@pytest.mark.parametrize(
    ("text", "claim", "rule"),
    [
        # what is installed on the user's machine
        ("I have Podman installed", "User has Podman installed", "situation.user_installed"),
        (
            "i have installed the docker, now lets continue",
            "User has docker installed",
            "situation.user_installed",
        ),
        (
            "I've got Docker Desktop installed on my laptop via brew",
            "User has Docker Desktop installed on their laptop via brew",
            "situation.user_installed",
        ),
        (
            "i've installed xcode with the ios sdk, build it now",
            "User has xcode installed with the ios sdk",
            "situation.user_installed",
        ),
        (
            "I have lodash installed, can I import it in utils.js?",
            "User has lodash installed",
            "situation.user_installed",
        ),
        # how long and how much they have worked with something
        (
            "I've done Python for eight years",
            "User has eight years of experience with Python",
            "situation.user_experience",
        ),
        (
            "I have 12 years of experience in Go",
            "User has 12 years of experience with Go",
            "situation.user_experience",
        ),
        (
            "new to this repo, have been a senior developer with a decade of experience in php",
            "User has a decade of experience with php",
            "situation.user_experience",
        ),
        (
            "I have no experience with Kubernetes",
            "User does not have experience with Kubernetes",
            "situation.user_experience",
        ),
        # what they studied, what they work as, their name
        (
            "I studied chemistry at Caltech",
            "User studied chemistry at Caltech",
            "situation.user_studied",
        ),
        ("I have a degree in economics", "User studied economics", "situation.user_studied"),
        (
            "I'm a professor of history at Oberlin",
            "User is a professor of history at Oberlin",
            "situation.user_occupation",
        ),
        (
            "I work as a nurse, so skip the medical jargon in the app",
            "User is a nurse",
            "situation.user_occupation",
        ),
        ("my last name is Okafor", "User's last name is Okafor", "situation.user_name"),
        # how technical they are, their hardware, language, country and workplace tools
        ("I'm not a programmer", "User is not a programmer", "situation.user_non_technical"),
        (
            "i dont know how to code, so go slow",
            "User does not know how to code",
            "situation.user_non_technical",
        ),
        ("but i only have 8gb ram", "User has 8gb ram", "situation.user_hardware"),
        (
            "my desktop has 64 GB of RAM",
            "User's desktop has 64 GB of RAM",
            "situation.user_hardware",
        ),
        ("my GPU is an RTX 3060", "User's gpu is RTX 3060", "situation.user_hardware"),
        (
            "English is not my first language",
            "User's first language is not English",
            "situation.user_language",
        ),
        (
            "I'm a native Polish speaker",
            "User's native language is Polish",
            "situation.user_language",
        ),
        ("I'm in Portugal", "User is in Portugal", "situation.user_place"),
        (
            "at work we use Linear for tickets",
            "User's workplace uses Linear for tickets",
            "situation.work_uses",
        ),
        # a team's tools, the name of the user's own thing, what the environment has
        (
            "The mobile team are using Flutter, so target that",
            "The mobile team uses Flutter",
            "situation.work_uses",
        ),
        (
            "Read the docs of my game engine, Pyrite.",
            "User's game engine is named Pyrite",
            "situation.user_name",
        ),
        ("my github is kit-99", "User's GitHub account is kit-99", "situation.user_name"),
        (
            "you have restic configured, so back up with it",
            "Restic is configured",
            "situation.user_installed",
        ),
        ("set up git here, we are in a gpu vm.", "Sessions run in a gpu vm", "situation.runs_in"),
        # the plan they pay for, a named project of theirs, a tool said in passing
        ("I'm on the Team plan", "User is on the Team plan", "situation.user_plan"),
        (
            "I'm building Tidewater, a fork of Gitea for schools",
            "User is building Tidewater, a fork of Gitea for schools",
            "situation.project_is",
        ),
        ("I am using Zed by the way.", "User uses Zed", "situation.user_uses"),
        # runtime by version, operating system, tool lived in, languages spoken, timezone
        ("I'm on node 20", "User is on node 20", "situation.user_uses"),
        ("I daily drive Debian", "User runs Debian", "situation.user_uses"),
        ("I'm a Helix user", "User is a Helix user", "situation.user_uses"),
        ("I speak Dutch and English", "User speaks Dutch and English", "situation.user_language"),
        ("I'm in CET", "User's timezone is CET", "situation.user_place"),
        (
            "my repo is github.com/kit/tools",
            "User's repo is github.com/kit/tools",
            "situation.place_is",
        ),
        # a place given as a path, even one holding " - "
        (
            "The project path MUST be: E:\\My Sites\\Acme\\",
            "The project path is E:\\My Sites\\Acme\\",
            "situation.place_is",
        ),
        (
            r"this is the E:\Sync\21 - Notes\Work folder for logseq, can you update it",
            r"The folder for logseq is E:\Sync\21 - Notes\Work",
            "situation.place_is",
        ),
        # the tool or machine in use, named
        (
            "I'm using Alacritty with nushell",
            "User uses Alacritty with nushell",
            "situation.user_uses",
        ),
        (
            "i'm using a framework 13 with fedora, the trackpad is laggy",
            "User uses a framework 13 with fedora",
            "situation.user_uses",
        ),
        # defaults, places, acronyms
        (
            "set my default model to sonnet 4.5 in my settings.json",
            "User's default model is sonnet 4.5",
            "situation.user_default",
        ),
        (
            r"my notes vault is E:\Sync\Notes",
            r"User's notes vault is E:\Sync\Notes",
            "situation.place_is",
        ),
        (
            "the intake form lists QA. QA is quality assurance.",
            "QA means quality assurance",
            "situation.acronym",
        ),
    ],
)
def test_a_plain_fact_about_the_user_is_one_entry(text: str, claim: str, rule: str) -> None:
    got = [(c.claim, c.kind, c.rule) for c in extract_claims(text)]
    kind = "preference" if rule == "situation.user_default" else "fact"
    assert got == [(claim, kind, rule)]


@pytest.mark.parametrize(
    "text",
    [
        # the task at hand: what this turn installs, uses or reads
        "I installed the dependencies",
        "I have it installed",
        "I do not have Docker installed",
        "I installed the new version of the extension",
        "I'm using this and I'm getting a 404",
        "I am using the free tier",
        "I'm using GPT-4 for this task",
        "I'm using port 3000",
        "I studied the code carefully",
        "I studied how the parser works",
        # someone else's experience; a person's mood; a non-name
        "we are looking for a senior developer with 5 years of experience in Java",
        "I'm a bit confused",
        "I'm a developer in this case",
        "my name is not important",
        # not a fact about the user's skill, place or hardware
        "I'm not a big fan of this",
        "I can't code this part myself",
        "I'm not sure",
        "I'm in VS Code",
        "my team uses it",
        "I have 2 monitors",
        # GitHub's own products, a word after "my app", a loop, a wrong setup
        "check my GitHub Actions.",
        "fix my app, Login is broken",
        "we are in a loop",
        "you have it configured wrong",
        # places in this task, kinds of user
        "I'm on page 2",
        "I'm a new user",
        "I'm in a meeting",
        # a plan of work, not a subscription
        "I have a migration plan",
        "I'm on the same plan",
        # a file of the task given as a path
        r"the output path is D:\work\out\report.csv",
        # a path of the moment; an acronym whose words do not spell it
        "the output folder is /tmp/out",
        "PR is ready to merge",
    ],
)
def test_the_task_at_hand_is_not_a_fact_about_the_user(text: str) -> None:
    assert [
        c.rule
        for c in extract_claims(text)
        if "user_" in c.rule or c.rule.endswith(("place_is", "acronym", "runs_in", "work_uses"))
    ] == []


def test_we_are_using_describes_the_project() -> None:
    # "we are using yarn" says how the project is (a fact); "we use yarn" states the choice, and
    # both keep the one spelling "Use yarn" so restatements converge.
    [using] = extract_claims("We are using yarn")
    [use] = extract_claims("we use yarn")
    assert (using.claim, using.kind) == ("Use yarn", "fact")
    assert (use.claim, use.kind) == ("Use yarn", "preference")


def test_how_to_talk_to_the_user_is_a_preference_about_claude() -> None:
    # "don't give me options" is how the user wants to be answered: kept, in their words;
    # "don't consider me" stays the thing at hand.
    [got] = extract_claims("Please don't give me options when I ask you to fix something.")
    assert (got.claim, got.kind) == (
        "User does not want Claude to give them options when they ask Claude to fix something",
        "preference",
    )
    assert extract_claims("don't consider me") == []


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        # the bounds of this edit: nothing (a hook's message relayed by the client is told by
        # the reader from the record's structure, tests/test_provenance.py)
        ("Add the section to README.md. Don't change any other files.", []),
        ("don't touch anything else", []),
        # the same bounds said with "never" (an edit's emphasis, not a standing rule)
        ("Fix the header. Never change any other files.", []),
        ("NEVER make any changes", []),
        ("never change the rest of the code", []),
        ("don't make any edits to the script", []),
        ("never make any changes in this file", []),
        # a lasting place stays a rule
        (
            "never make any changes to the database schema",
            ["Never make any changes to the database schema"],
        ),
        (
            "never commit any changes without running the tests",
            ["Never commit any changes without running the tests"],
        ),
        # a rule about other people's code still stands
        (
            "don't change other people's code without asking",
            ["Never change other people's code without asking"],
        ),
        # a named choice with its reason lasts; a step's means does not
        (
            "Let's use Keycloak to avoid rolling our own auth.",
            ["Use Keycloak to avoid rolling our own auth"],
        ),
        ("let's use fileinput to handle input", []),
        # "you are in a …" says where the session runs; it is no role prompt, however long
        (
            "you are in a gpu-sandbox vm and i want to install a cli here, "
            "i see these issues, see how we can do that. " + "x " * 100,
            ["Sessions run in a gpu-sandbox vm"],
        ),
    ],
)
def test_task_bounds_and_reasons(text: str, claims: list[str]) -> None:
    assert [c.claim for c in extract_claims(text)] == claims


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        # an apology for what follows is none of it (it was read as the rule's purpose:
        # "Always use tabs for being picky")
        ("sorry for being picky, but always use tabs", "Always use tabs"),
        ("Sorry for me being picky, but always use tabs", "Always use tabs"),
        ("sorry to be a pain: never push to main", "Never push to main"),
        ("sorry if this is dumb, but I use fish", "User uses fish"),
    ],
)
def test_an_apology_before_a_rule_is_none_of_it(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        # what this turn may do, a hypothetical consequence, a pick among offered options
        ("Don't make any code modifications.", []),
        ("don't make any changes without asking", ["Never make any changes without asking"]),
        ("So each machine would need to clone the repo, then run a command?", []),
        ("Every machine'll need to clone the monorepo.", []),
        ("There should not be any code changes, just config changes.", []),
        ("Task 3, go with option B. Now back to task 1.", []),
        ("stick with pnpm", ["Stick with pnpm"]),
        ("I am going to use Zed to test. Give me a minute.", []),
        # a claim cut after "until you" says nothing
        ("Never make modifications until you", []),
        # a place, without the request that follows it
        (
            "The full spec of Acme is in docs/spec.md so check and analyse it carefully",
            ["The full spec of Acme is in docs/spec.md"],
        ),
        # a negated verb is no contrast
        (
            "I prefer code that doesnt cause re-renders",
            ["Prefer code that does not cause re-renders"],
        ),
        # the rules under a plan's approval bound that plan; a standing one stays
        (
            "Plan approved.\n\nProceed with implementation exactly as proposed.\n"
            "- Do NOT add new dependencies\n- Never push to main",
            ["Never push to main"],
        ),
    ],
)
def test_the_moment_is_not_kept(text: str, claims: list[str]) -> None:
    assert [c.claim for c in extract_claims(text)] == claims


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        # reactions to what is on the table, consequences, checks on this work, a pasted brief
        ("Please go ahead. I like Map instead of Add as you say.", []),
        ("keep things simple, and redo your first approach.", []),
        ("I don't want you to edit anything now.", []),
        ("I am not a huge fan of the presets however.", []),
        # a place in what is on the screen now ("here", "there")
        ("I'm not a fan of users having to click here, then there, to add a hook.", []),
        ("I'm not a fan of Tailwind", ["User does not like Tailwind"]),
        ("this is a nested methodology and applies to agents too", []),
        ("All features in the docs must be integrated and fully operational to use in the IDE", []),
        ("All features must be working and tested", []),
        # "working" naming a thing is no check
        (
            "All scripts must run from the working directory",
            ["All scripts must run from the working directory"],
        ),
        ("Whenever you compact the conversation, you go stupid.", []),
        ("remember the checkpoint still needs to give me the prompt, and check it.", []),
        (
            "AWARENESS & CONTEXT (MANDATORY):\nThe mode must consider all global rules. "
            "Never duplicate rules already defined elsewhere. " + "More of the brief. " * 10,
            [],
        ),
        ("MY RULES:\n- never push to main", ["Never push to main"]),
        # corrections with no object, emphatic "stop …-ing me", a pasted "Not Found"
        ("dont echo, spawn the worker", []),
        ("Stop guessing and find the actual problem", []),
        ("Stop fucking directing me.", []),
        ("stop adding comments to every line", ["Don't keep adding comments to every line"]),
        ("Don't over think it either.", []),
        ("All we need in the validator is the id of the item.", []),
        ("Run npx foo stop\nnpm error 404 Not Found", []),
        ("don't use var, ever", ["Never use var"]),
        ('But remember, the requirement is "exact or prefix".', []),
    ],
)
def test_reactions_and_checks_are_not_kept(text: str, claims: list[str]) -> None:
    assert [c.claim for c in extract_claims(text)] == claims


@pytest.mark.parametrize(
    ("text", "claim", "kind"),
    [
        # where the user's things are deployed, by the platform's name
        (
            "I'm deploying all my apps on Netlify.",
            "User deploys all their apps on Netlify",
            "fact",
        ),
        (
            "im deploying everything to fly.io so keep that in mind",
            "User deploys everything to Fly.io",
            "fact",
        ),
        ("I always deploy to Cloudflare Pages", "User deploys to Cloudflare Pages", "fact"),
        ("we'll deploy the backend via Railway", "Deploy the backend via Railway", "decision"),
        ("we have two netlify sites for the docs", "User has two Netlify sites", "fact"),
        ("We're hosted on Render.", "User's app is hosted on Render", "fact"),
        ("i have a netlify free account btw", "User has a Netlify Free account", "fact"),
        # a runtime or IDE named in lower case
        ("i am still using xcode these days", "User uses xcode", "fact"),
    ],
)
def test_where_things_are_deployed_and_what_is_used(text: str, claim: str, kind: str) -> None:
    got = [(c.claim, c.kind) for c in extract_claims(text)]
    assert got == [(claim, kind)]


@pytest.mark.parametrize(
    "text",
    [
        # this turn's step, a platform not named, a choice left open
        "deploy to Vercel",
        "we need to deploy the fix to Vercel now",
        "I'm deploying to Vercel now, hold on",
        "I'm deploying it to the server",
        "we will deploy the api to Railway or some other platform",
        "could I fix this by deploying my app to Vercel?",
        "I have a question about my Vercel account",
        "we are hosted on a server in the basement",
    ],
)
def test_a_deploy_step_is_not_a_fact(text: str) -> None:
    assert [
        c.rule for c in extract_claims(text) if c.rule.endswith(("deploys_on", "user_uses"))
    ] == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("and I aliased ll to eza in my bashrc", "User has alias ll to eza in .bashrc"),
        ("i did alias k=kubectl in .zshrc", "User has alias k=kubectl in .zshrc"),
        (
            "I have a dots alias for managing my dotfiles repo",
            "User has a dots alias for managing their dotfiles repo",
        ),
        (
            "I keep my shell files (aliased to dots in zshrc) in one repo",
            "User's shell files are aliased to dots in .zshrc",
        ),
    ],
)
def test_a_shell_alias_the_user_keeps(text: str, claim: str) -> None:
    assert [(c.claim, c.kind) for c in extract_claims(text)] == [(claim, "fact")]


# The user's "my" and "our" become "their" in every rule that keeps the user's words, as a word of
# its own only: "army" was "artheir", "on My Mac" kept "My", an alias "for our …" kept "our".
@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("I have a gs alias for the army config", "User has a gs alias for the army config"),
        ("I have a dots alias for our dotfiles repo", "User has a dots alias for their dotfiles repo"),
        ("I have Docker installed on My Mac", "User has Docker installed on their Mac"),
        ("I'm using pnpm with our monorepo", "User uses pnpm with their monorepo"),
        ("I'm using Bun with my-app", "User uses Bun with my-app"),
        ("We'll deploy our backend via Railway", "Deploy their backend via Railway"),
        ("I use oh my zsh with the agnoster theme", "User uses oh my zsh with the agnoster theme"),
    ],
)  # fmt: skip
def test_the_users_my_and_our_read_as_theirs(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


@pytest.mark.parametrize(
    ("phrase", "theirs"),
    [
        ("as my package manager", "as their package manager"),
        ("all OUR apps", "all their apps"),
        ("My laptop", "their laptop"),
        ("the army config", "the army config"),
        ("mystery tour", "mystery tour"),
        ("your app", "your app"),
        ("my-app and our_repo", "my-app and our_repo"),
        ("~/my/dotfiles at our.example.com", "~/my/dotfiles at our.example.com"),
        ("oh my zsh and oh my posh", "oh my zsh and oh my posh"),
    ],
)
def test_theirs_replaces_the_words_only(phrase: str, theirs: str) -> None:
    from agent_memory.extract.rules.user_facts import _theirs

    assert _theirs(phrase) == theirs


@pytest.mark.parametrize(
    "text", ["alias it to x", "I have an alias for that", "I aliased the import to np in main.py"]
)
def test_an_alias_of_the_task_is_not_kept(text: str) -> None:
    assert [c.rule for c in extract_claims(text) if c.rule.endswith("shell_alias")] == []


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("I don't have a Mac, only Windows.", "User does not have a Mac"),
        ("i dont even have an amd gpu", "User does not have an amd gpu"),
        ("I do not have Claude Desktop.", "User does not have Claude Desktop"),
    ],
)
def test_what_the_user_does_not_have(text: str, claim: str) -> None:
    assert [(c.claim, c.kind) for c in extract_claims(text)] == [(claim, "fact")]


@pytest.mark.parametrize(
    "text",
    [
        "I don't have a clue about your plan.",
        "I don't have the time",
        "I don't have access to the server",
        "I don't have any tests for this yet",
    ],
)
def test_not_having_a_moment_or_a_clue_is_no_fact(text: str) -> None:
    assert [c.rule for c in extract_claims(text) if c.rule.endswith("user_hardware")] == []


# A name before the kind of tool it is names that tool, in lower case too ("the fish shell"); a
# question after the fact does not take it back.
@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("I use the fish shell. Why would the prompt assume zsh?", "User uses the fish shell"),
        ("I use the kitty terminal.", "User uses the kitty terminal"),
    ],
)
def test_a_tool_named_by_its_kind(text: str, claim: str) -> None:
    assert [(c.claim, c.rule) for c in extract_claims(text)] == [(claim, "fact.user_uses")]


# A tool that only a family of interchangeable tools names (transcripts.failures.KNOWN_TOOLS) is
# a known tool to both readers, the user's facts and the project's facts.
@pytest.mark.parametrize(
    ("text", "claim", "rule"),
    [
        ("I use the uv package manager.", "User uses the uv package manager", "fact.user_uses"),
        ("I'm using biome", "User uses biome", "situation.user_uses"),
        ("I'm on uv 0.5", "User is on uv 0.5", "situation.user_uses"),
    ],
)
def test_a_tool_of_a_family_is_known(text: str, claim: str, rule: str) -> None:
    assert [(c.claim, c.rule) for c in extract_claims(text)] == [(claim, rule)]


def test_the_known_tools_are_every_familys_and_both_readers_take_them() -> None:
    from agent_memory.extract.rules import facts, user_facts
    from agent_memory.model.tool_families import FAMILIES, KNOWN_TOOLS

    assert frozenset().union(*FAMILIES) == KNOWN_TOOLS
    for tool in KNOWN_TOOLS:
        assert facts._TOOL_OF_KIND.match(f"{tool} package manager"), tool
        assert user_facts._names_a_setup_thing(tool), tool


# What the user's own machine is for is a fact of the setup ("this machine" is the one Claude
# runs on, no thing of the task); a thing of the task used as something is not.
@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("I'm using this machine as a build server.", "User uses this machine as a build server"),
        ("im using my laptop as a CI runner - can you set it up?",
         "User uses their laptop as a CI runner"),
        ("I'm using pnpm as my package manager.", "User uses pnpm as their package manager"),
    ],
)  # fmt: skip
def test_what_the_users_machine_is_used_as(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


# One list of the user's machines; installing adds "system" and "environment", being used as
# something adds "vm", and neither rule takes the other's.
@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("I have Docker installed on my system", "User has Docker installed on their system"),
        ("I have OrbStack installed in my environment via brew", "User has OrbStack installed via brew"),
        ("I've installed kitty on my old work box", "User has kitty installed on their old work box"),
        ("I'm using my vm as a build server", "User uses their vm as a build server"),
        ("I'm using my box as a build server", "User uses their box as a build server"),
    ],
)  # fmt: skip
def test_the_users_machines(text: str, claim: str) -> None:
    assert [c.claim for c in extract_claims(text)] == [claim]


@pytest.mark.parametrize(
    "text", ["I have Docker installed on my vm", "I'm using my system as a build server"]
)
def test_each_rule_keeps_its_own_machines(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # a thing of the task, or a tool, used as something for the moment
        "I'm using this function as a callback.",
        "I'm using react as an example",
        "I'm using Tailwind as a test",
        "I'm using this machine as a runner for the demo",
    ],
)
def test_only_the_users_machine_is_used_as_something_for_good(text: str) -> None:
    assert extract_claims(text) == []
